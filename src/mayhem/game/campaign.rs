//! Between the battles of a campaign: what a Musket Mayhem contingent
//! carries to the next. "After the battle, downed figures can be diced
//! for, and are wounded on a d6 roll of 1-4 and dead on a roll of 5-6":
//! the close throws one die for each figure downed by enemy action that
//! the game has not diced for already (`post-battle`), in roster order,
//! and reads it on the post-battle table. The rest is in the `[mayhem]`
//! section of the house table `campaign.toml`, with the house row a club
//! may turn on.

use serde::Deserialize;

use super::{MayhemEffect, MayhemGame, downed_word};
use crate::army::Away;
use crate::carry::{
    Carry, Change, Close, Edit, EditValue, Fought, HouseRow, Measure, Section, entries_of,
};
use crate::dice::DiceSource;
use crate::mayhem::{D6, Downed};

/// The section of `campaign.toml` Musket Mayhem reads: its book's id.
pub(crate) const CAMPAIGN_SECTION: &str = "mayhem";

/// `[mayhem]` of `campaign.toml` (empty until the tables load it).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CampaignTable {
    /// What becomes of the downed, in words.
    pub(crate) downed: String,
    /// What becomes of those that ran, in words.
    pub(crate) ran_off: String,
    /// What becomes of heroes' tokens, in words.
    pub(crate) heroes: String,
    pub(crate) wounded_rest: HouseRow<WoundedRest>,
}

/// The house row that keeps the wounded out of the next battles: how many
/// battles a wounded figure sits out.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(transparent)]
pub(crate) struct WoundedRest {
    pub(crate) battles: i64,
}

impl Measure for WoundedRest {
    const ROW: &'static str = "WoundedRest";
    const FIELDS: &'static [&'static str] = &["keyword", "row", "battles", "default"];

    fn check(&self) -> Result<(), String> {
        if (1..=crate::army::MAX_ABSENT).contains(&self.battles) {
            Ok(())
        } else {
            Err(format!("must be 1 to {} battles", crate::army::MAX_ABSENT))
        }
    }
}

impl Section for CampaignTable {
    const SECTIONS: &'static [&'static str] = &[CAMPAIGN_SECTION];

    fn check(&self) -> Result<(), (String, String)> {
        self.wounded_rest.check("wounded_rest")
    }
}

impl CampaignTable {
    /// On the quick-reference sheet, under the post-battle results: what
    /// a campaign carries, in one line, and the house row.
    pub(crate) fn under_post_battle(&self, table: &mut crate::sheet::Table) {
        let r = &self.wounded_rest;
        // Kept short: the Musket Mayhem sheet is one page.
        let battles = match r.measure.battles {
            1 => String::new(),
            n => format!("{n} battles, "),
        };
        table.note(format!(
            "Between battles: {}; {}; {}. House row `{}` ({battles}{}): {}.",
            self.downed,
            self.ran_off,
            self.heroes,
            r.keyword,
            if r.default {
                "applied by default"
            } else {
                "off by default"
            },
            r.row
        ));
    }
}

impl MayhemGame<'_> {
    /// What the figures carry to the next battle; the close's dice are
    /// thrown here, one a figure still to be diced for, in roster order.
    pub(super) fn carry_over(
        &self,
        fought: &[Fought<MayhemEffect>],
        close: &Close<'_>,
        dice: &mut dyn DiceSource,
    ) -> Result<Carry, String> {
        let table = &self.tables.campaign;
        let row = &table.wounded_rest;
        let place = crate::carry::place(CAMPAIGN_SECTION);
        let (resting, said) = row.applies(
            &crate::carry::place(&format!("{CAMPAIGN_SECTION}.wounded_rest")),
            close,
        );
        let rest = if resting { row.measure.battles } else { 0 };
        let mut changes = Vec::new();
        for (army, list) in self.armies {
            for f in &list.figures {
                let s = self.state(&f.id);
                let of = |pick: fn(&MayhemEffect) -> bool| entries_of(fought, &f.id, pick);
                let mut change = Change {
                    army: *army,
                    section: "figure",
                    id: f.id.clone(),
                    what: String::new(),
                    entries: Vec::new(),
                    die: None,
                    edits: Vec::new(),
                };
                if s.killed {
                    change.entries = of(|e| *e == MayhemEffect::Killed);
                    let outcome = match s.after_battle {
                        // Diced for in the game already: its entry says so.
                        Some(outcome) => {
                            change
                                .entries
                                .extend(of(|e| matches!(e, MayhemEffect::AfterBattle { .. })));
                            outcome
                        }
                        None => {
                            let die = dice.roll(D6).map_err(|e| e.to_string())?;
                            change.die = Some(die.face);
                            self.downed_by(die.face)?
                        }
                    };
                    self.downed(&mut change, outcome, rest, close);
                } else if s.ran_off {
                    change.entries = of(|e| *e == MayhemEffect::RanOff);
                    change.what = "ran from the table: returns".into();
                } else {
                    continue;
                }
                changes.push(change);
            }
            for away in &list.away {
                changes.extend(sat_out(*army, away, close));
            }
        }
        Ok(Carry {
            changes,
            rules: vec![
                format!(
                    "{} ({place}; the post-battle results of mayhem.toml: {})",
                    table.downed,
                    self.bands()
                ),
                format!("{} ({place})", table.ran_off),
                format!("{} ({place})", table.heroes),
                format!("{said} (battles = {})", row.measure.battles),
            ],
            keywords: vec![row.keyword.clone()],
        })
    }

    /// The post-battle table's rows, as the answer names them.
    fn bands(&self) -> String {
        self.tables
            .post_battle
            .band
            .iter()
            .map(|b| b.row.clone())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What a downed figure's die makes it, on the post-battle table.
    fn downed_by(&self, face: u32) -> Result<Downed, String> {
        self.tables
            .post_battle
            .band
            .iter()
            .find(|b| (b.from..=b.to).contains(&i64::from(face)))
            .map(|b| b.outcome)
            .ok_or_else(|| format!("the post-battle results have no row for a roll of {face}"))
    }

    /// A downed figure wounded (back, or kept out by the house row) or dead.
    fn downed(&self, change: &mut Change, outcome: Downed, rest: i64, close: &Close<'_>) {
        let word = downed_word(outcome);
        change.what = format!("downed by enemy action: {word}");
        match outcome {
            Downed::Dead => {
                change.what.push_str(": gone");
                change.edits.push(Edit::set(
                    "gone",
                    EditValue::Text(format!("dead after {}", close.battle)),
                ));
                // Wounded in an earlier battle, dead now: no longer wounded.
                change.edits.push(Edit::remove("wounded"));
            }
            Downed::Wounded => {
                change
                    .edits
                    .push(Edit::set("wounded", EditValue::Bool(true)));
                if rest > 0 {
                    change
                        .what
                        .push_str(&format!(": sits out the next {}", battles(rest)));
                    change.edits.push(Edit::set("absent", EditValue::Int(rest)));
                } else {
                    change.what.push_str(": returns for the next battle");
                }
            }
        }
    }
}

/// `1 battle`, `2 battles`.
fn battles(n: i64) -> String {
    if n == 1 {
        "battle".to_string()
    } else {
        format!("{n} battles")
    }
}

/// A figure that sat this battle out: one battle fewer to sit out.
fn sat_out(army: usize, away: &Away, close: &Close<'_>) -> Option<Change> {
    if away.gone.is_some() || away.absent < 1 {
        return None;
    }
    let left = away.absent - 1;
    let (what, edit) = if left == 0 {
        (
            format!("sat out {}: returns for the next battle", close.battle),
            Edit::remove("absent"),
        )
    } else {
        (
            format!(
                "sat out {}: sits out the next {}",
                close.battle,
                battles(left)
            ),
            Edit::set("absent", EditValue::Int(left)),
        )
    };
    Some(Change {
        army,
        section: "figure",
        id: away.id.clone(),
        what,
        entries: Vec::new(),
        die: None,
        edits: vec![edit],
    })
}
