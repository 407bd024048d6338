//! What the game remembers of each unit and general, and a unit's strength
//! as its hits leave it.

use serde::{Deserialize, Serialize};

use crate::drums::army::Unit;

/// Everything the game remembers about one unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnitState {
    /// Every hit received in the game: bases (or figures) lost and the hits
    /// carried are worked out from it.
    pub(crate) hits: i64,
    pub(crate) shots: u32,
    pub(crate) melees: u32,
    pub(crate) charges: u32,
    pub(crate) broken: bool,
    // Per-turn facts, cleared by `next-turn`.
    pub(crate) moved: bool,
    pub(crate) hit: bool,
    pub(crate) inflicted: bool,
    pub(crate) retired: bool,
    pub(crate) fired_at: bool,
}

impl UnitState {
    pub(super) fn clear_turn(&mut self) {
        self.moved = false;
        self.hit = false;
        self.inflicted = false;
        self.retired = false;
        self.fired_at = false;
    }
}

/// A general's state this turn: all of it is cleared by `next-turn`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GeneralState {
    /// Hit by a stray round: off the table until next turn.
    pub(crate) incapacitated: bool,
    /// Swept away with a broken unit to his own long edge: still in play.
    pub(crate) swept_away: bool,
    pub(crate) moved: bool,
}

/// A unit's strength after its hits: bases at the tables' hits per base,
/// or one figure a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Strength {
    /// Bases or figures at the start of the game.
    pub(crate) start: i64,
    /// Lost in the earlier battles of a campaign (`lost` in its list):
    /// the unit's list gives `start + before`.
    pub(crate) before: i64,
    pub(crate) lost: i64,
    pub(crate) figures: bool,
    /// Hits carried towards the next base (always 0 with figures).
    pub(crate) carried: i64,
}

impl Strength {
    pub(crate) fn of(unit: &Unit, state: &UnitState, hits_per_base: i64) -> Strength {
        // A campaign's unit starts the battle with what its earlier
        // battles left it: "50% or lower in strength than when they
        // started the game" is counted from there.
        let before = unit.lost.clamp(0, unit.size().max(0));
        let start = (unit.size() - before).max(0);
        let hits = state.hits.max(0);
        if unit.in_figures() {
            // "If using a figures, then it is each hit equals on figure removed/lost."
            return Strength {
                start,
                before,
                lost: hits.min(start),
                figures: true,
                carried: 0,
            };
        }
        // "If using bases, then for each 6 hits received then 1 base is removed."
        let per_base = hits_per_base.max(1);
        let lost = (hits / per_base).min(start);
        let carried = if lost < start { hits % per_base } else { 0 };
        Strength {
            start,
            before,
            lost,
            figures: false,
            carried,
        }
    }

    pub(crate) fn left(&self) -> i64 {
        self.start - self.lost
    }

    /// What is left against the list's size (`4/6 bases`), and what the
    /// earlier battles of a campaign took (` (2 lost in earlier battles)`).
    pub(crate) fn left_of(&self) -> String {
        let mut text = format!(
            "{}/{} {}",
            self.left(),
            self.start + self.before,
            self.what()
        );
        if self.before > 0 {
            text.push_str(&format!(" ({} lost in earlier battles)", self.before));
        }
        text
    }

    /// "bases" or "figures".
    pub(crate) fn what(&self) -> &'static str {
        if self.figures { "figures" } else { "bases" }
    }

    /// Percent of the starting strength still on the table, rounded down
    /// (for display; the tests below compare exactly).
    pub(crate) fn percent(&self) -> i64 {
        if self.start == 0 {
            return 100;
        }
        // Wide arithmetic: an army list may give any number of bases.
        (i128::from(self.left()) * 100 / i128::from(self.start)) as i64
    }

    /// At 50% or less of its starting strength ("Testers have lost atleast
    /// 50%", "Is <= 50% in strength", the end-of-turn tests).
    pub(crate) fn half_or_less(&self) -> bool {
        i128::from(self.left()) * 2 <= i128::from(self.start)
    }

    /// At 75% or more ("Is >= 75% in strength").
    pub(crate) fn three_quarters_or_more(&self) -> bool {
        i128::from(self.left()) * 4 >= i128::from(self.start) * 3
    }
}
