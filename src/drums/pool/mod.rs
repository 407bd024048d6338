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

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::json;

use crate::bind::Bound;
use crate::command::Span;
use crate::error::TableError;
use crate::resolution::{Modifier, Resolution};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolTables {
    /// Bases assumed when neither `bases=N` nor a unit gives them.
    pub default_bases: u32,
    /// House default: what pool a "1 in K" row takes its dice from. Absent
    /// (a house-rule file written before it was a choice): the embedded
    /// default.
    #[serde(default)]
    pub one_in_k: OneInK,
    pub shoot: ShootTables,
    pub melee: MeleeTables,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShootTables {
    pub minimum: i64,
    pub dice_per_base: u32,
    /// The target's formation words; with none given, a row that depends
    /// on it is not applied, and said so. Absent (an older house-rule
    /// file): the target's formation is only a row's word.
    #[serde(default)]
    pub target_formations: Vec<String>,
    pub weapon: Vec<Weapon>,
    pub table: Vec<AdjustmentTable>,
}

/// A row of Shooting Table 1.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub keyword: String,
    pub weapon: String,
    /// The "Initial D6" column in the sheet's words.
    pub initial: String,
    #[serde(default)]
    pub artillery: bool,
    pub short: RangeCell,
    pub long: RangeCell,
    /// The "As unprompted action response" row; blank cells keep the
    /// weapon's own.
    #[serde(default)]
    pub unprompted: Unprompted,
    /// "Long range only: 3BW/6".
    pub bounce: Option<RangeCell>,
}

impl Weapon {
    /// The short and long cells, for an unprompted response or not.
    pub fn cells(&self, unprompted: bool) -> (RangeCell, RangeCell) {
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
pub struct Unprompted {
    pub short: Option<RangeCell>,
    pub long: Option<RangeCell>,
}

/// "2BW/4+": a range in base widths and the score to hit.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeCell {
    pub bw: f64,
    pub hit_on: u32,
}

impl std::fmt::Display for RangeCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}BW/{}", self.bw, score(self.hit_on))
    }
}

/// "4+", or "6" as the sheet writes a six.
pub fn score(hit_on: u32) -> String {
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
pub enum OneInK {
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
    pub fn id(self) -> &'static str {
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
pub struct AdjustmentTable {
    pub id: String,
    pub title: String,
    /// Shooting: the table for artillery weapons.
    #[serde(default)]
    pub artillery: bool,
    /// Shooting: the shooters' formation words that pick this table.
    #[serde(default)]
    pub formations: Vec<String>,
    pub row: Vec<PoolRow>,
}

impl AdjustmentTable {
    /// Whether any row reads `word` among the side's own words (or, with
    /// `opponent`, among the other side's): words joined by `+` count each.
    pub fn mentions(&self, word: &str, opponent: bool) -> bool {
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
pub enum Band {
    Short,
    Long,
}

impl Band {
    pub fn id(self) -> &'static str {
        match self {
            Band::Short => "short",
            Band::Long => "long",
        }
    }
}

/// A row of an adjustment table: its condition and its dice adjustment.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolRow {
    /// The condition in the sheet's words.
    pub row: String,
    /// The adjustment in the sheet's words.
    pub dice: Adjust,
    #[serde(default, alias = "shooter")]
    pub own: Vec<String>,
    #[serde(default, alias = "shooter_not")]
    pub own_not: Vec<String>,
    #[serde(default, alias = "target")]
    pub opponent: Vec<String>,
    #[serde(default, alias = "target_not")]
    pub opponent_not: Vec<String>,
    pub range: Option<Band>,
    #[serde(default)]
    pub always: bool,
    pub per: Option<String>,
}

/// A dice adjustment, read from the sheet's words.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct Adjust {
    pub text: String,
    pub kind: AdjustKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdjustKind {
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
    pub fn id(self) -> &'static str {
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
pub struct MeleeTables {
    pub dice_per_base: u32,
    pub minimum: i64,
    /// House default: the sheet gives no score to hit in melee.
    pub hit_on: u32,
    pub formed: Vec<String>,
    pub formations: Vec<String>,
    pub arm: Vec<MeleeArm>,
    pub table: Vec<AdjustmentTable>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeArm {
    pub keyword: String,
    pub arm: String,
    pub table: String,
    pub is: Vec<String>,
    /// A kind of another arm ("Heavy Cavalry" rows are rows of the Cavalry
    /// table): a word of its own, given beside that arm's or alone for it,
    /// and more than one kind may be given (heavy lancers).
    pub kind_of: Option<String>,
    /// The formations the arm can be in, when nobody gave the side's (a
    /// kind of another arm: that arm's). Empty: any of `melee.formations`.
    #[serde(default)]
    pub formations: Vec<String>,
}

impl MeleeArm {
    pub fn is_kind(&self) -> bool {
        self.kind_of.is_some()
    }
}

impl MeleeTables {
    pub fn table(&self, id: &str) -> Option<&AdjustmentTable> {
        self.table.iter().find(|t| t.id == id)
    }
}

impl PoolTables {
    /// Whole-table rules that serde cannot check.
    pub fn validate(&self, file: &str) -> Result<(), TableError> {
        let invalid = |key: &str, message: String| TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        if self.default_bases == 0 {
            return Err(invalid("default_bases", "must be at least 1".into()));
        }
        let shoot = &self.shoot;
        if shoot.dice_per_base == 0 || self.melee.dice_per_base == 0 {
            return Err(invalid("dice_per_base", "must be at least 1".into()));
        }
        if !(1..=6).contains(&self.melee.hit_on) {
            return Err(invalid(
                "melee.hit_on",
                "must be a face of a d6, 1 to 6".into(),
            ));
        }
        for (i, w) in shoot.weapon.iter().enumerate() {
            let key = format!("shoot.weapon[{i}] (\"{}\")", w.weapon);
            let cells = [
                Some(w.short),
                Some(w.long),
                w.unprompted.short,
                w.unprompted.long,
                w.bounce,
            ];
            for cell in cells.into_iter().flatten() {
                if !(1..=6).contains(&cell.hit_on)
                    || cell.bw.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
                {
                    return Err(invalid(
                        &key,
                        "every cell needs a range above 0 and a score from 1 to 6".into(),
                    ));
                }
            }
            for (short, long) in [w.cells(false), w.cells(true)] {
                if short.bw > long.bw {
                    return Err(invalid(
                        &key,
                        "short range is longer than long range".into(),
                    ));
                }
            }
            if w.bounce.is_some() && !w.artillery {
                return Err(invalid(&key, "only artillery bounces".into()));
            }
        }
        if shoot.table.iter().filter(|t| t.artillery).count() != 1 {
            return Err(invalid(
                "shoot.table",
                "exactly one table needs `artillery = true`".into(),
            ));
        }
        let mut seen = BTreeSet::new();
        for t in &shoot.table {
            for f in &t.formations {
                if !seen.insert(f.as_str()) {
                    return Err(invalid(
                        "shoot.table",
                        format!("formation `{f}` picks two tables"),
                    ));
                }
            }
        }
        for arm in &self.melee.arm {
            let key = format!("melee.arm (\"{}\")", arm.keyword);
            if self.melee.table(&arm.table).is_none() {
                return Err(invalid(
                    &key,
                    format!("no melee table has id `{}`", arm.table),
                ));
            }
            if let Some(of) = &arm.kind_of {
                let Some(base) = self
                    .melee
                    .arm
                    .iter()
                    .find(|a| &a.keyword == of && !a.is_kind())
                else {
                    return Err(invalid(
                        &key,
                        format!("`kind_of = \"{of}\"` names no arm (an entry without `kind_of`)"),
                    ));
                };
                if base.table != arm.table {
                    return Err(invalid(
                        &key,
                        format!(
                            "a kind of `{of}` fights on its table, `{}`, not `{}`",
                            base.table, arm.table
                        ),
                    ));
                }
            }
        }
        for arm in &self.melee.arm {
            if let Some(f) = arm
                .formations
                .iter()
                .find(|f| !self.melee.formations.contains(f))
            {
                return Err(invalid(
                    &format!("melee.arm (\"{}\")", arm.keyword),
                    format!("formation `{f}` is not one of `melee.formations`"),
                ));
            }
        }
        if !shoot.target_formations.is_empty()
            && !shoot
                .target_formations
                .iter()
                .any(|f| f == "open" || f == "square")
        {
            return Err(invalid(
                "shoot.target_formations",
                "give the target's formation words (the rows read `open` and `square`)".into(),
            ));
        }
        if !self.melee.arm.iter().any(|a| !a.is_kind()) {
            return Err(invalid(
                "melee.arm",
                "give at least one arm without `kind_of`".into(),
            ));
        }
        for (section, tables) in [("shoot", &shoot.table), ("melee", &self.melee.table)] {
            for t in tables {
                for (i, row) in t.row.iter().enumerate() {
                    let key = format!("{section}.table \"{}\" row[{i}] (\"{}\")", t.id, row.row);
                    let has_condition =
                        !row.own.is_empty() || !row.opponent.is_empty() || row.range.is_some();
                    if has_condition == row.always {
                        return Err(invalid(
                            &key,
                            "give a condition (own/shooter, opponent/target, range) or `always = true`, not both".into(),
                        ));
                    }
                    if let Some(per) = &row.per
                        && !row.own.contains(per)
                    {
                        return Err(invalid(
                            &key,
                            format!("`per = \"{per}\"` must also be one of the row's own words"),
                        ));
                    }
                    if section == "melee" && row.range.is_some() {
                        return Err(invalid(&key, "melee rows have no range".into()));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The facts of one side for the rows' conditions.
#[derive(Debug, Clone, Default)]
pub struct SideFacts {
    /// Words the player typed (or a unit brought), with their spans.
    pub given: Vec<(String, Span)>,
    /// Every word the side has: given, its arm, what the arm is, `formed`.
    pub words: BTreeSet<String>,
    pub bound: Bound,
    /// When nobody gave the side's formation (no word typed, no unit
    /// named): the formations it could be in. A row that holds in some of
    /// them and not in others is not applied, and said so.
    pub could_be: Vec<String>,
}

impl SideFacts {
    pub fn from_bound(bound: &Bound) -> SideFacts {
        let mut facts = SideFacts {
            bound: bound.clone(),
            ..SideFacts::default()
        };
        for f in &bound.facts {
            if f.count > 0 {
                facts.given.push((f.name.clone(), f.span));
                facts.words.insert(f.name.clone());
            }
        }
        facts
    }

    pub fn has(&self, word: &str) -> bool {
        self.words.contains(word)
    }

    /// `a+b`: the side has every one of the words.
    fn has_all(&self, conj: &str) -> bool {
        conj.split('+').all(|w| self.has(w))
    }

    fn typed(&self, word: &str) -> bool {
        self.given.iter().any(|(w, _)| w == word)
    }

    /// The side's words as they would be in formation `f` (`formed` too
    /// when `f` is one of the formed formations): for the rows only.
    fn in_formation(&self, f: &str, formed: &[String]) -> SideFacts {
        let mut words = self.words.clone();
        words.insert(f.to_string());
        if formed.iter().any(|w| w == f) {
            words.insert("formed".into());
        }
        SideFacts {
            words,
            ..SideFacts::default()
        }
    }
}

/// Whether a row holds, when a side's formation may not be known.
#[derive(Debug, Clone)]
pub enum Check<'a> {
    Holds,
    Fails(Why<'a>),
    /// It holds for some formations of a side nobody gave and not for
    /// others: the formations of each such side that would apply it
    /// (`own`, `other`; `None` where that side's formation does not matter).
    Unknown {
        own: Option<Vec<String>>,
        other: Option<Vec<String>>,
    },
}

/// Whether a row reads any of `words` (or `formed`) on one side.
fn reads_any(row: &PoolRow, opponent: bool, words: &[String]) -> bool {
    let lists = if opponent {
        [&row.opponent, &row.opponent_not]
    } else {
        [&row.own, &row.own_not]
    };
    lists
        .iter()
        .flat_map(|l| l.iter())
        .flat_map(|w| w.split('+'))
        .any(|p| p == "formed" || words.iter().any(|w| w == p))
}

/// [`holds`], trying every formation a side could be in when nobody gave
/// it. `formed` lists the formations that count as formed.
pub fn check<'a>(
    row: &'a PoolRow,
    own: &SideFacts,
    other: Option<&SideFacts>,
    other_name: &'a str,
    band: Option<Band>,
    formed: &[String],
) -> Check<'a> {
    let first = holds(row, own, other, other_name, band);
    let own_open = !own.could_be.is_empty() && reads_any(row, false, &own.could_be);
    let other_open =
        other.is_some_and(|o| !o.could_be.is_empty() && reads_any(row, true, &o.could_be));
    if !own_open && !other_open {
        return match first {
            Ok(()) => Check::Holds,
            Err(why) => Check::Fails(why),
        };
    }
    let options = |side: &SideFacts, open: bool| -> Vec<Option<SideFacts>> {
        if open {
            side.could_be
                .iter()
                .map(|f| Some(side.in_formation(f, formed)))
                .collect()
        } else {
            vec![None]
        }
    };
    let own_options = options(own, own_open);
    let other_options = other.map_or_else(|| vec![None], |o| options(o, other_open));
    let (mut own_yes, mut other_yes): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    let mut every = true;
    for (i, a) in own_options.iter().enumerate() {
        for (j, b) in other_options.iter().enumerate() {
            let o = b.as_ref().or(other);
            if holds(row, a.as_ref().unwrap_or(own), o, other_name, band).is_ok() {
                if own_open && !own_yes.contains(&own.could_be[i]) {
                    own_yes.push(own.could_be[i].clone());
                }
                if let (true, Some(side)) = (other_open, other)
                    && !other_yes.contains(&side.could_be[j])
                {
                    other_yes.push(side.could_be[j].clone());
                }
            } else {
                every = false;
            }
        }
    }
    if every {
        return Check::Holds;
    }
    if own_yes.is_empty() && other_yes.is_empty() {
        return Check::Fails(first.err().unwrap_or(Why::NoFormation));
    }
    // A side whose every formation applies it does not matter.
    let matters = |yes: Vec<String>, side: Option<&SideFacts>, open: bool| {
        (open && side.is_some_and(|s| yes.len() < s.could_be.len())).then_some(yes)
    };
    Check::Unknown {
        own: matters(own_yes, Some(own), own_open),
        other: matters(other_yes, other, other_open),
    }
}

/// "`formed` would apply it", "`open` or `line` would apply it", "any
/// formation but `square` would apply it".
pub fn would_apply(yes: &[String], could_be: &[String]) -> String {
    let quoted = |words: &[&String]| -> String {
        let words: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
        match words.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    };
    let no: Vec<&String> = could_be.iter().filter(|f| !yes.contains(f)).collect();
    if yes.len() > 2 && no.len() == 1 {
        format!("any formation but {}", quoted(&no))
    } else {
        quoted(&yes.iter().collect::<Vec<_>>())
    }
}

/// Why a row does not hold, put into words only when it is shown (odds
/// runs this for every row on every path, and most rows never show).
#[derive(Debug, Clone, Copy)]
pub enum Why<'a> {
    Needs(&'a str),
    NotWith(&'a str),
    NeedsOther(&'a str),
    OtherMustBe(&'a str, &'a str),
    NotWhenOther(&'a str, &'a str),
    OnlyAt(&'static str),
    /// No formation the side could be in applies it.
    NoFormation,
}

impl std::fmt::Display for Why<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::Needs(w) => write!(f, "needs `{w}`"),
            Why::NotWith(w) => write!(f, "not with `{w}`"),
            Why::NeedsOther(other) => write!(f, "needs the {other}'s words"),
            Why::OtherMustBe(other, w) => write!(f, "needs the {other} to be `{w}`"),
            Why::NotWhenOther(other, w) => write!(f, "not when the {other} is `{w}`"),
            Why::OnlyAt(band) => write!(f, "only at {band} range"),
            Why::NoFormation => write!(f, "no formation this side can be in applies it"),
        }
    }
}

/// Whether a row holds; `Err(why)` says what failed.
pub fn holds<'a>(
    row: &'a PoolRow,
    own: &SideFacts,
    other: Option<&SideFacts>,
    other_name: &'a str,
    band: Option<Band>,
) -> Result<(), Why<'a>> {
    if row.always {
        return Ok(());
    }
    if let Some(w) = row.own.iter().find(|w| !own.has(w)) {
        return Err(Why::Needs(w));
    }
    if let Some(w) = row.own_not.iter().find(|w| own.has_all(w)) {
        return Err(Why::NotWith(w));
    }
    if !row.opponent.is_empty() {
        let Some(o) = other else {
            return Err(Why::NeedsOther(other_name));
        };
        if let Some(w) = row.opponent.iter().find(|w| !o.has(w)) {
            return Err(Why::OtherMustBe(other_name, w));
        }
    }
    if let Some(o) = other
        && let Some(w) = row.opponent_not.iter().find(|w| o.has_all(w))
    {
        return Err(Why::NotWhenOther(other_name, w));
    }
    if let Some(r) = row.range
        && band != Some(r)
    {
        return Err(Why::OnlyAt(r.id()));
    }
    Ok(())
}

/// Whether a row names a situation word the player gave (so a row that
/// does not hold is worth showing, with why). `structural` words (arms,
/// formations) describe the side rather than claim a row; `other` is given
/// when the other side's words claim rows too (the target in shooting).
pub fn claimed(
    row: &PoolRow,
    own: &SideFacts,
    other: Option<&SideFacts>,
    structural: &dyn Fn(&str) -> bool,
) -> bool {
    let situation = |w: &&String| !structural(w);
    row.own.iter().filter(situation).any(|w| own.typed(w))
        || other.is_some_and(|o| row.opponent.iter().filter(situation).any(|w| o.typed(w)))
}

/// One step of the pool arithmetic.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub label: String,
    /// The adjustment in the sheet's words ("Remove 1 in 2 dice").
    pub dice: String,
    pub kind: &'static str,
    pub change: i64,
    pub pool: i64,
}

/// A row that holds, with how many times it counts (`per` words, extra ranks).
pub struct Applied<'a> {
    pub row: &'a PoolRow,
    pub times: i64,
}

/// The pool arithmetic. `base_label` names the starting pool.
pub fn arithmetic(
    base_label: &str,
    base: i64,
    applied: &[Applied],
    minimum: i64,
    one_in_k: OneInK,
) -> Vec<Step> {
    let mut steps = vec![Step {
        label: base_label.to_string(),
        dice: String::new(),
        kind: "base",
        change: base,
        pool: base,
    }];
    let mut pool = base;
    for stage in 0..=2 {
        // The pool the "1 in K" rows count from, by the house default.
        let before = pool;
        for a in applied.iter().filter(|a| a.row.dice.kind.stage() == stage) {
            let kind = a.row.dice.kind;
            let change = match kind {
                AdjustKind::Double => pool,
                AdjustKind::OneIn { add, k } => {
                    let of = match one_in_k {
                        OneInK::WholePool => before,
                        OneInK::InTurn => pool,
                    };
                    let n = of.max(0) / k;
                    if add { n } else { -n }
                }
                AdjustKind::Flat(n) => n * a.times,
                AdjustKind::PerExtraRank(n) => n * a.times,
                AdjustKind::NoEffect => 0,
            };
            pool += change;
            let label = if a.row.always {
                format!("{} (applies by itself)", a.row.row)
            } else if a.times > 1 && matches!(kind, AdjustKind::Flat(_)) {
                format!("{} ×{}", a.row.row, a.times)
            } else if let AdjustKind::PerExtraRank(_) = kind {
                format!("{} ({} extra rank{})", a.row.row, a.times, plural(a.times))
            } else {
                a.row.row.clone()
            };
            steps.push(Step {
                label,
                dice: a.row.dice.text.clone(),
                kind: kind.id(),
                change,
                pool,
            });
        }
    }
    if pool < minimum {
        steps.push(Step {
            label: format!("minimum {minimum} dice"),
            dice: String::new(),
            kind: "minimum",
            change: minimum - pool,
            pool: minimum,
        });
    }
    steps
}

/// Where two or more "1 in K" rows applied, the reading of the house
/// default that decided the pool, in the modifier stack.
pub fn show_one_in_k(res: &mut Resolution, prefix: &str, steps: &[Step], one_in_k: OneInK) {
    let rows: Vec<&Step> = steps
        .iter()
        .filter(|s| s.kind == "add-1-in-k" || s.kind == "remove-1-in-k")
        .collect();
    let [first, _, ..] = rows.as_slice() else {
        return;
    };
    let before = first.pool - first.change;
    res.row(
        format!(
            "{prefix}1 in K rows (house default: tables/drums-pools.toml one_in_k = \"{}\")",
            one_in_k.id()
        ),
        one_in_k.said(before),
    );
}

pub fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Show the steps in the explanation and the modifier stack; `prefix`
/// names the side in melee. Returns the steps as JSON.
pub fn show_steps(res: &mut Resolution, prefix: &str, steps: &[Step]) -> serde_json::Value {
    for (i, s) in steps.iter().enumerate() {
        if i == 0 {
            res.row(format!("{prefix}{}", s.label), format!("{}D6", s.pool));
            continue;
        }
        let label = if s.dice.is_empty() {
            format!("{prefix}{}", s.label)
        } else {
            format!("{prefix}{} — {}", s.label, s.dice)
        };
        let change = if s.change == 0 && s.kind.starts_with("remove") {
            "−0".to_string()
        } else {
            crate::resolution::signed(s.change)
        };
        let pool = if s.pool < 0 {
            format!("−{}", -s.pool)
        } else {
            s.pool.to_string()
        };
        res.row(label.clone(), format!("{change} → {pool}"));
        res.modifiers.push(Modifier {
            label: label.into(),
            value: s.change,
        });
    }
    json!(
        steps
            .iter()
            .map(|s| json!({"label": s.label, "dice": s.dice, "kind": s.kind, "change": s.change, "pool": s.pool}))
            .collect::<Vec<_>>()
    )
}

/// Show a pool's dice compactly: the entered faces on one row, the rolled
/// ones on another.
pub fn show_dice(res: &mut Resolution, label: &str, dice: &[crate::dice::Rolled]) {
    for entered in [true, false] {
        let faces: Vec<String> = dice
            .iter()
            .filter(|d| d.entered == entered)
            .map(|d| d.face.to_string())
            .collect();
        if !faces.is_empty() {
            let how = if entered { "entered" } else { "rolled" };
            res.row(format!("{label} ({how})"), faces.join(" "));
        }
    }
    res.dice.extend_from_slice(dice);
}

/// Every word of a vocabulary built from rows: the word and the rows that
/// mention it, for help.
pub fn row_words<'a>(
    tables: impl Iterator<Item = &'a AdjustmentTable>,
    opponent_side: bool,
) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for t in tables {
        for row in &t.row {
            let (with, without) = if opponent_side {
                (&row.opponent, &row.opponent_not)
            } else {
                (&row.own, &row.own_not)
            };
            let words = with
                .iter()
                .map(|w| (w, ""))
                .chain(without.iter().map(|w| (w, "when not given, ")))
                .flat_map(|(w, how)| w.split('+').map(move |p| (p, how)));
            for (word, how) in words {
                let note = format!("{}: {how}{} ({})", t.id, row.row, row.dice.text);
                match out.iter_mut().find(|(w, _)| w == word) {
                    Some((_, notes)) => {
                        if !notes.contains(&note) {
                            notes.push(note)
                        }
                    }
                    None => out.push((word.to_string(), vec![note])),
                }
            }
        }
    }
    out
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
