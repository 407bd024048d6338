//! The conditions of the pool rows: a side's facts, whether a row holds
//! (and why not), what a side nobody gave the formation of would make of
//! it, and the words the rows read.

use std::collections::BTreeSet;

use super::{AdjustmentTable, Band, PoolRow};
use crate::bind::Bound;
use crate::command::Span;

/// The facts of one side for the rows' conditions.
#[derive(Debug, Clone, Default)]
pub(crate) struct SideFacts {
    /// Words the player typed (or a unit brought), with their spans.
    pub(crate) given: Vec<(String, Span)>,
    /// Every word the side has: given, its arm, what the arm is, `formed`.
    pub(crate) words: BTreeSet<String>,
    pub(crate) bound: Bound,
    /// When nobody gave the side's formation (no word typed, no unit
    /// named): the formations it could be in. A row that holds in some of
    /// them and not in others is not applied, and said so.
    pub(crate) could_be: Vec<String>,
}

impl SideFacts {
    pub(crate) fn from_bound(bound: &Bound) -> SideFacts {
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

    pub(crate) fn has(&self, word: &str) -> bool {
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
pub(crate) enum Check<'a> {
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
pub(crate) fn check<'a>(
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
pub(crate) fn would_apply(yes: &[String], could_be: &[String]) -> String {
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
pub(crate) enum Why<'a> {
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
pub(crate) fn claimed(
    row: &PoolRow,
    own: &SideFacts,
    other: Option<&SideFacts>,
    structural: &dyn Fn(&str) -> bool,
) -> bool {
    let situation = |w: &&String| !structural(w);
    row.own.iter().filter(situation).any(|w| own.typed(w))
        || other.is_some_and(|o| row.opponent.iter().filter(situation).any(|w| o.typed(w)))
}

/// Every word of a vocabulary built from rows: the word and the rows that
/// mention it, for help.
pub(crate) fn row_words<'a>(
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
