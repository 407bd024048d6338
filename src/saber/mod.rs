//! Musket & Saber, standard rules and QuickPlay: the hex-game procedures
//! without a map. The user states the factors; drumhead does the
//! arithmetic, rolls the combat die and the morale die and applies the
//! results. Both variants share the code; where the rules differ, the
//! difference is table data (`tables/saber.toml`, `tables/saber-quickplay.toml`).
//! The CRT is a separate file ([`crt`]).

pub mod crt;
pub mod factors;

mod attack;
mod bombard;
mod misc;
mod morale;
mod results;
mod tactics;

use std::fmt;

use serde::Deserialize;

use crate::catalog::VerbDoc;
use crate::command::System;
use crate::dice::DiceExpr;
use crate::error::TableError;

pub use morale::{Check, MoraleInput};

/// Which rule book a procedure follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Standard,
    QuickPlay,
}

impl Variant {
    pub fn system(self) -> System {
        match self {
            Variant::Standard => System::Saber,
            Variant::QuickPlay => System::SaberQuickplay,
        }
    }

    pub fn rules(self, tables: &crate::tables::Tables) -> &SaberRules {
        match self {
            Variant::Standard => &tables.saber,
            Variant::QuickPlay => &tables.saber_quickplay,
        }
    }
}

/// One variant's tables.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaberRules {
    pub name: String,
    pub morale: MoraleTable,
    pub combat: CombatTable,
    pub results: ResultsTable,
    #[serde(default)]
    pub tactic: Vec<TacticRow>,
    pub bombard: BombardTable,
    pub leader_casualty: Vec<CasualtyRow>,
    pub ma: MaTable,
    pub capture: Option<CaptureTable>,
    pub fow: Option<FowTable>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleTable {
    pub die: u32,
    /// "all units succeed on a die roll of 1".
    pub always_pass: u32,
    /// "all units fail on a die roll of 6".
    pub always_fail: u32,
    pub rule: String,
    /// Artillery's MR when it has none on the counter (standard 8.1).
    pub artillery: Option<ArtilleryMorale>,
    pub leader: String,
    pub adjustment: Vec<MoraleAdjustment>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryMorale {
    pub mr: i64,
    pub row: String,
}

/// Where a morale adjustment goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdjustTo {
    /// Added to the die roll.
    Roll,
    /// Added to the morale rating.
    Rating,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleAdjustment {
    pub keyword: String,
    pub row: String,
    pub to: AdjustTo,
    pub value: i64,
    /// Words of one group exclude each other (night, twilight).
    pub group: Option<String>,
    /// Only when attacked by cavalry (squares).
    #[serde(default)]
    pub vs_cavalry: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatTable {
    pub rule: String,
    /// "rounding up any remainder".
    pub halved_once: String,
    /// What a factor halved twice or more counts.
    pub halved_twice_counts: i64,
    /// "zero CF remain zero" (standard 7.7 says so; QuickPlay 7.4 does not).
    pub zero_stays_zero: bool,
    pub halved_twice: String,
    pub parenthesized: String,
    /// Cavalry on x results must retreat and is disrupted (standard 9.2).
    pub cavalry_on_x: Option<String>,
    /// Cavalry's CF doubled when attacking a disrupted defender (QuickPlay 9.1).
    pub cavalry_vs_disrupted: Option<String>,
    /// Night: only infantry charges (standard 14.2).
    pub night: Option<String>,
}

/// What each result letter means in this variant.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultsTable {
    pub r: Procedure,
    pub c: Procedure,
    pub x: Procedure,
    pub m: Procedure,
    pub e: Procedure,
    /// The victorious player receives a FOW when the other side fails an
    /// `m` check (standard 7.8).
    pub rout_gives_fow: bool,
    /// Codes and extras this variant's rules do not define: they are read as
    /// the standard rules read them, with a note.
    #[serde(default)]
    pub undefined: Vec<String>,
    pub retreat_hexes: String,
    pub rout: String,
    pub step_loss: String,
    pub advance: String,
    pub rout_advance: String,
    pub ineffective: Option<String>,
    pub df: String,
    pub leader: String,
    pub ammo: String,
}

/// How a result letter is carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Procedure {
    /// Standard Ar/Dr: disrupt the primary unit or retreat; an already
    /// disrupted unit choosing disruption checks morale and routs on a failure.
    RetreatOrDisrupt,
    /// QuickPlay Ar/Dr: retreat or be disrupted, no check.
    RetreatOrDisruptNoCheck,
    /// Standard Ac/Dc: pass, apply the secondary; fail, the side retreats.
    CheckThenRetreat,
    /// QuickPlay Ac/Dc: pass, apply the secondary; fail, an Ar/Dr.
    CheckThenR,
    /// Standard Ax/Dx: lose a step, or retreat and be disrupted (owner's choice).
    LossOrRetreatDisrupted,
    /// QuickPlay Ax/Dx: pass, a step loss (no advance); fail, retreat disrupted.
    CheckLoss,
    /// Am/Dm: pass, the secondary; fail, rout.
    CheckRout,
    /// Ae/De: pass, a step loss and the rest retreat; fail, rout.
    CheckEliminate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TacticSide {
    Attacker,
    Defender,
    Either,
}

/// One tactic the variant offers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TacticRow {
    pub keyword: String,
    pub side: TacticSide,
    pub row: String,
    /// Added to the combat factor (press forward +2, last stand +3, square).
    pub value: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BombardTable {
    pub rule: String,
    pub vs_cavalry_multiplier: i64,
    pub ignore_secondary: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CasualtyRow {
    pub keyword: String,
    pub row: String,
    /// The leader becomes a casualty on this face or higher.
    pub at_least: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MaProcedure {
    /// Standard 4.4: a die; if it exceeds the printed MA, roll again.
    RerollAbovePrinted,
    /// QuickPlay 11.1: a die, plus something for fast units, never above the printed MA.
    CapAtPrinted,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaTable {
    pub rule: String,
    pub procedure: MaProcedure,
    pub die: DiceExpr,
    /// Words that make a unit roll for its MA.
    pub rolls_when: Vec<MaReason>,
    /// QuickPlay: add to the die when the printed MA is greater than `above`.
    pub fast: Option<FastUnits>,
    pub march: MarchRule,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaReason {
    pub keyword: String,
    pub row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FastUnits {
    pub above: i64,
    pub add: i64,
    pub row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarchRule {
    pub row: String,
    /// Standard 4.7: fixed march allowances when not rolling.
    pub infantry: Option<i64>,
    pub cavalry: Option<i64>,
    /// Standard 4.7: what a rolling unit rolls instead.
    pub infantry_roll: Option<DiceExpr>,
    pub cavalry_roll: Option<DiceExpr>,
    /// QuickPlay 4.3: the MA is multiplied.
    pub multiplier: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureTable {
    pub die: u32,
    pub row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FowTable {
    pub die: u32,
    pub move_enemy_at_most: u32,
    pub row: String,
}

impl SaberRules {
    /// Whole-table rules serde cannot check.
    pub fn validate(&self, file: &str) -> Result<(), TableError> {
        let invalid = |key: &str, message: String| TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        let m = &self.morale;
        if m.die < 2
            || !(1..=m.die).contains(&m.always_pass)
            || !(1..=m.die).contains(&m.always_fail)
        {
            return Err(invalid(
                "morale",
                "`always_pass` and `always_fail` must be faces of the morale die".into(),
            ));
        }
        if m.always_pass >= m.always_fail {
            return Err(invalid(
                "morale",
                "`always_pass` must be below `always_fail`".into(),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for adj in &m.adjustment {
            if !seen.insert(adj.keyword.as_str()) {
                return Err(invalid(
                    "morale.adjustment",
                    format!("keyword `{}` is used by two rows", adj.keyword),
                ));
            }
        }
        if self.combat.halved_twice_counts < 0 {
            return Err(invalid(
                "combat.halved_twice_counts",
                "must be 0 or more".into(),
            ));
        }
        for t in &self.tactic {
            if tactics::Tactic::from_keyword(&t.keyword).is_none() {
                return Err(invalid(
                    "tactic",
                    format!(
                        "`{}` is not a tactic drumhead knows: {}",
                        t.keyword,
                        tactics::Tactic::ALL.map(|t| t.keyword()).join(", ")
                    ),
                ));
            }
        }
        for code in &self.results.undefined {
            if crt::Code::parse(code).is_none() && crt::Extra::parse(code).is_none() {
                return Err(invalid(
                    "results.undefined",
                    format!("`{code}` is not a result code or extra"),
                ));
            }
        }
        for row in &self.leader_casualty {
            if !(1..=6).contains(&row.at_least) {
                return Err(invalid(
                    &format!("leader_casualty ({})", row.keyword),
                    "`at_least` must be a face of a d6, 1 to 6".into(),
                ));
            }
        }
        if let Some(c) = &self.capture
            && c.die < 2
        {
            return Err(invalid("capture.die", "must be 2 or more".into()));
        }
        if let Some(f) = &self.fow
            && !(1..=f.die).contains(&f.move_enemy_at_most)
        {
            return Err(invalid(
                "fow.move_enemy_at_most",
                "must be a face of the die".into(),
            ));
        }
        if self.ma.die.dice.is_empty() {
            return Err(invalid("ma.die", "must roll at least one die".into()));
        }
        Ok(())
    }

    pub fn tactic(&self, keyword: &str) -> Option<&TacticRow> {
        self.tactic.iter().find(|t| t.keyword == keyword)
    }

    /// Whether this variant's rules leave a code or extra undefined.
    pub fn undefined(&self, code: &str) -> bool {
        self.results
            .undefined
            .iter()
            .any(|c| c.eq_ignore_ascii_case(code))
    }
}

/// Text written by `write` when it is shown: words with parts that depend
/// on the table or the dice, written only as far as they are read (under
/// `odds`, often not at all).
fn display_with(write: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result) -> impl fmt::Display {
    struct Text<F>(F);
    impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Text<F> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            (self.0)(f)
        }
    }
    Text(write)
}

/// Both variants' verbs, their words built from the tables.
pub fn verbs(standard: &SaberRules, quickplay: &SaberRules) -> Vec<VerbDoc> {
    let mut verbs = Vec::new();
    for (variant, rules) in [
        (Variant::Standard, standard),
        (Variant::QuickPlay, quickplay),
    ] {
        verbs.push(morale::verb(variant, rules));
        verbs.push(attack::verb(variant, rules));
        verbs.push(bombard::verb(variant, rules));
        verbs.extend(misc::verbs(variant, rules));
    }
    verbs
}
