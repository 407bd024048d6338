//! Dice pools (shooting and melee): the table shapes of
//! `tables/drums-pools.toml`, the conditions of their rows, and the pool
//! arithmetic shared by `shoot` and `melee`.
//!
//! The arithmetic (the sheet fixes no order): start from the base pool;
//! apply every "Double dice" row; then each "1 in K" row in table order,
//! floor(pool / K) added or removed, where the pool is the pool as it
//! stands or the one before the first "1 in K" row, by the house default
//! `one_in_k` ([`OneInK`]); then the flat rows in table order; then the
//! table's minimum. Every step is kept, so the explanation can show
//! exactly why the pool is what it is.

mod arithmetic;
mod rows;
mod validate;

use serde::Deserialize;

pub(crate) use arithmetic::{
    Applied, Step, arithmetic, plural, show_dice, show_one_in_k, show_steps,
};
pub(crate) use rows::{Check, SideFacts, check, claimed, row_words, would_apply};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolTables {
    /// Bases assumed when neither `bases=N` nor a unit gives them.
    pub(crate) default_bases: u32,
    /// House default: what pool a "1 in K" row takes its dice from. Absent
    /// (a house-rule file written before it was a choice): the embedded
    /// default.
    #[serde(default)]
    pub(crate) one_in_k: OneInK,
    pub(crate) shoot: ShootTables,
    pub(crate) melee: MeleeTables,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShootTables {
    pub(crate) minimum: i64,
    pub(crate) dice_per_base: u32,
    /// The target's formation words; with none given, a row that depends
    /// on it is not applied, and said so. Absent (an older house-rule
    /// file): the target's formation is only a row's word.
    #[serde(default)]
    pub(crate) target_formations: Vec<String>,
    pub(crate) weapon: Vec<Weapon>,
    pub(crate) table: Vec<AdjustmentTable>,
}

/// A row of Shooting Table 1.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Weapon {
    pub(crate) keyword: String,
    pub(crate) weapon: String,
    /// The "Initial D6" column in the sheet's words.
    pub(crate) initial: String,
    #[serde(default)]
    pub(crate) artillery: bool,
    pub(crate) short: RangeCell,
    pub(crate) long: RangeCell,
    /// The "As unprompted action response" row; blank cells keep the
    /// weapon's own.
    #[serde(default)]
    pub(crate) unprompted: Unprompted,
    /// "Long range only: 3BW/6".
    pub(crate) bounce: Option<RangeCell>,
}

impl Weapon {
    /// The short and long cells, for an unprompted response or not.
    pub(crate) fn cells(&self, unprompted: bool) -> (RangeCell, RangeCell) {
        if unprompted {
            (
                self.unprompted.short.unwrap_or(self.short),
                self.unprompted.long.unwrap_or(self.long),
            )
        } else {
            (self.short, self.long)
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Unprompted {
    pub(crate) short: Option<RangeCell>,
    pub(crate) long: Option<RangeCell>,
}

/// "2BW/4+": a range in base widths and the score to hit.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RangeCell {
    pub(crate) bw: f64,
    pub(crate) hit_on: u32,
}

impl std::fmt::Display for RangeCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}BW/{}", self.bw, score(self.hit_on))
    }
}

/// "4+", or "6" as the sheet writes a six.
pub(crate) fn score(hit_on: u32) -> String {
    if hit_on >= 6 {
        hit_on.to_string()
    } else {
        format!("{hit_on}+")
    }
}

/// What pool "Add 1 in K dice" and "Remove 1 in K dice" count from. The
/// sheet only says "Adjust the *total pool of dice*" (Shooting Tables
/// 2a–2d) and lists its rows in no order of application.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum OneInK {
    /// Each row takes 1 in K of the pool as the rows before it left it, in
    /// table order (6 dice, "Remove 1 in 3" then "Add 1 in 3": 6 → 4 → 5):
    /// each adjusts the total pool as it then is, and no number of rows
    /// removes more dice than there are (8 → 4 → 2 → 1).
    #[default]
    InTurn,
    /// Each row takes 1 in K of the pool before the first of them, and the
    /// order of the rows changes nothing (6 − 2 + 2 = 6); three "Remove 1
    /// in 2" rows of 8 dice then take 12.
    WholePool,
}

impl OneInK {
    pub(crate) fn id(self) -> &'static str {
        match self {
            OneInK::WholePool => "whole-pool",
            OneInK::InTurn => "in-turn",
        }
    }

    /// The reading in words, for the modifier stack.
    fn said(self, before: i64) -> String {
        match self {
            OneInK::WholePool => format!("each of the {before} dice before them"),
            OneInK::InTurn => "each of the pool as it stands, in table order".into(),
        }
    }
}

/// One of Shooting Tables 2a–2d, or one Melee Factors Table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AdjustmentTable {
    pub(crate) id: String,
    pub(crate) title: String,
    /// Shooting: the table for artillery weapons.
    #[serde(default)]
    pub(crate) artillery: bool,
    /// Shooting: the shooters' formation words that pick this table.
    #[serde(default)]
    pub(crate) formations: Vec<String>,
    pub(crate) row: Vec<PoolRow>,
}

impl AdjustmentTable {
    /// Whether any row reads `word` among the side's own words (or, with
    /// `opponent`, among the other side's): words joined by `+` count each.
    pub(crate) fn mentions(&self, word: &str, opponent: bool) -> bool {
        self.row.iter().any(|r| {
            let lists = if opponent {
                [&r.opponent, &r.opponent_not]
            } else {
                [&r.own, &r.own_not]
            };
            lists
                .iter()
                .flat_map(|l| l.iter())
                .any(|w| w.split('+').any(|p| p == word))
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Band {
    Short,
    Long,
}

impl Band {
    pub(crate) fn id(self) -> &'static str {
        match self {
            Band::Short => "short",
            Band::Long => "long",
        }
    }
}

/// A row of an adjustment table: its condition and its dice adjustment.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PoolRow {
    /// The condition in the sheet's words.
    pub(crate) row: String,
    /// The adjustment in the sheet's words.
    pub(crate) dice: Adjust,
    #[serde(default, alias = "shooter")]
    pub(crate) own: Vec<String>,
    #[serde(default, alias = "shooter_not")]
    pub(crate) own_not: Vec<String>,
    #[serde(default, alias = "target")]
    pub(crate) opponent: Vec<String>,
    #[serde(default, alias = "target_not")]
    pub(crate) opponent_not: Vec<String>,
    pub(crate) range: Option<Band>,
    #[serde(default)]
    pub(crate) always: bool,
    pub(crate) per: Option<String>,
}

/// A dice adjustment, read from the sheet's words.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub(crate) struct Adjust {
    pub(crate) text: String,
    pub(crate) kind: AdjustKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AdjustKind {
    /// Add (positive) or remove (negative) N dice.
    Flat(i64),
    /// Add (`add`) or remove 1 die in K.
    OneIn {
        add: bool,
        k: i64,
    },
    Double,
    /// N dice for each rank more than the opponent's.
    PerExtraRank(i64),
    /// "No advantage", "No disadvantage".
    NoEffect,
}

impl AdjustKind {
    /// The order of the arithmetic: doubles, then 1-in-K, then flat.
    fn stage(self) -> u8 {
        match self {
            AdjustKind::Double => 0,
            AdjustKind::OneIn { .. } => 1,
            AdjustKind::Flat(_) | AdjustKind::PerExtraRank(_) | AdjustKind::NoEffect => 2,
        }
    }

    /// The kind as a short id for JSON.
    pub(crate) fn id(self) -> &'static str {
        match self {
            AdjustKind::Flat(n) if n >= 0 => "add",
            AdjustKind::Flat(_) => "remove",
            AdjustKind::OneIn { add: true, .. } => "add-1-in-k",
            AdjustKind::OneIn { add: false, .. } => "remove-1-in-k",
            AdjustKind::Double => "double",
            AdjustKind::PerExtraRank(_) => "per-extra-rank",
            AdjustKind::NoEffect => "no-effect",
        }
    }
}

impl TryFrom<String> for Adjust {
    type Error = String;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        let lower = text.trim().trim_end_matches('.').to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let bad = || {
            format!(
                "`{text}` is not a dice adjustment: write `Add 2 dice`, `Remove 1 in 3 dice`, \
                 `Double dice`, `Add 1 dice per extra rank than the line` or `No advantage`"
            )
        };
        let number = |w: &str| w.parse::<i64>().ok().filter(|n| (0..=100).contains(n));
        let kind = match words.as_slice() {
            ["double", "dice"] => AdjustKind::Double,
            ["no", "advantage" | "disadvantage" | "effect"] => AdjustKind::NoEffect,
            [verb @ ("add" | "remove"), "1", "in", k, "dice"] => {
                let k = number(k).filter(|k| *k >= 2).ok_or_else(bad)?;
                AdjustKind::OneIn {
                    add: *verb == "add",
                    k,
                }
            }
            ["add", n, "dice", "per", "extra", "rank", ..] => {
                AdjustKind::PerExtraRank(number(n).ok_or_else(bad)?)
            }
            [verb @ ("add" | "remove"), n, "dice"] => {
                let n = number(n).ok_or_else(bad)?;
                AdjustKind::Flat(if *verb == "add" { n } else { -n })
            }
            _ => return Err(bad()),
        };
        Ok(Adjust { text, kind })
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MeleeTables {
    pub(crate) dice_per_base: u32,
    pub(crate) minimum: i64,
    /// House default: the sheet gives no score to hit in melee.
    pub(crate) hit_on: u32,
    pub(crate) formed: Vec<String>,
    pub(crate) formations: Vec<String>,
    pub(crate) arm: Vec<MeleeArm>,
    pub(crate) table: Vec<AdjustmentTable>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MeleeArm {
    pub(crate) keyword: String,
    pub(crate) arm: String,
    pub(crate) table: String,
    pub(crate) is: Vec<String>,
    /// A kind of another arm ("Heavy Cavalry" rows are rows of the Cavalry
    /// table): a word of its own, given beside that arm's or alone for it,
    /// and more than one kind may be given (heavy lancers).
    pub(crate) kind_of: Option<String>,
    /// The formations the arm can be in, when nobody gave the side's (a
    /// kind of another arm: that arm's). Empty: any of `melee.formations`.
    #[serde(default)]
    pub(crate) formations: Vec<String>,
}

impl MeleeArm {
    pub(crate) fn is_kind(&self) -> bool {
        self.kind_of.is_some()
    }
}

impl MeleeTables {
    pub(crate) fn table(&self, id: &str) -> Option<&AdjustmentTable> {
        self.table.iter().find(|t| t.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adjust(text: &str) -> AdjustKind {
        Adjust::try_from(text.to_string()).unwrap().kind
    }

    #[test]
    fn the_sheets_words_are_read() {
        assert_eq!(adjust("Add 2 dice"), AdjustKind::Flat(2));
        assert_eq!(adjust("Remove 1 dice"), AdjustKind::Flat(-1));
        assert_eq!(adjust("Add 0 dice"), AdjustKind::Flat(0));
        assert_eq!(
            adjust("Remove 1 in 3 dice"),
            AdjustKind::OneIn { add: false, k: 3 }
        );
        assert_eq!(
            adjust("Add 1 in 2 dice"),
            AdjustKind::OneIn { add: true, k: 2 }
        );
        assert_eq!(adjust("Double dice"), AdjustKind::Double);
        assert_eq!(adjust("No disadvantage"), AdjustKind::NoEffect);
        assert_eq!(
            adjust("Add 1 dice per extra rank than the line."),
            AdjustKind::PerExtraRank(1)
        );
        assert!(Adjust::try_from("Remove 1 in 1 dice".to_string()).is_err());
        assert!(Adjust::try_from("Triple dice".to_string()).is_err());
    }
}
