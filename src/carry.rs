//! What a rule system carries from one battle of a campaign to the next:
//! the types of the contract between the campaign (the core) and each
//! system's between-battles step (`GameState::carry` in the system
//! module).
//!
//! A battle's entries in force are handed to the system typed, in order
//! ([`Fought`]); it answers with the changes it makes to its armies' lists
//! ([`Carry`]): each to one entry of one list, in words, with the journal
//! entries that made it, the close's die if one was thrown for it, and the
//! keys it writes into the list ([`Edit`]). The core writes the edits into
//! the lists' text and checks the lists read again; it never reads what a
//! change says.

use std::collections::BTreeMap;

mod house;

pub(crate) use house::{HouseRow, Measure, Section, load, place};

/// One effect of a battle's entry in force, as its rule system types it;
/// `effect` is `None` where the entry ended the turn (`next-turn`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fought<E> {
    /// The entry's number in the battle's journal.
    pub entry: u64,
    /// The unit it fell on, and the effect.
    pub effect: Option<(Option<String>, E)>,
}

/// What the close was given: the battle's name (for the words a list
/// keeps, `gone = "dead after raid-1"`) and the words of the close line
/// (house rows named to apply).
#[derive(Debug, Clone, Default)]
pub struct Close<'a> {
    pub battle: &'a str,
    pub words: &'a [String],
}

impl Close<'_> {
    /// Whether the close line names `keyword`.
    pub(crate) fn names(&self, keyword: &str) -> bool {
        self.words.iter().any(|w| w == keyword)
    }
}

/// What one rule system's part carries to the next battle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Carry {
    /// Each change to an entry of a list, in roster order.
    pub changes: Vec<Change>,
    /// The rules it followed and the house rows it applied or left, in
    /// words, each with where it comes from: what the answer names.
    pub rules: Vec<String>,
    /// The keywords of the house rows a close line may name.
    pub keywords: Vec<String>,
}

/// A change to one entry of one army's list.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The army, by its index in the game.
    pub army: usize,
    /// The entry's section (`unit`, `figure`) and id.
    pub section: &'static str,
    pub id: String,
    /// What became of it, in words.
    pub what: String,
    /// The journal entries that made it, in order.
    pub entries: Vec<u64>,
    /// The die the close threw for it, if any.
    pub die: Option<u32>,
    /// What is written into its entry of the list.
    pub edits: Vec<Edit>,
}

/// A key of a list's entry set to a value, or taken out (`None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub key: &'static str,
    pub value: Option<EditValue>,
}

impl Edit {
    pub(crate) fn set(key: &'static str, value: EditValue) -> Edit {
        Edit {
            key,
            value: Some(value),
        }
    }

    pub(crate) fn remove(key: &'static str) -> Edit {
        Edit { key, value: None }
    }
}

/// A value a list's key is set to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditValue {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl EditValue {
    /// As TOML writes it.
    pub(crate) fn toml(&self) -> String {
        match self {
            EditValue::Int(n) => n.to_string(),
            EditValue::Bool(b) => b.to_string(),
            EditValue::Text(s) => toml::Value::String(s.clone()).to_string(),
        }
    }
}

/// The house table file of campaigns: what the rule texts leave to the
/// players between battles. It has one section for each rule book, keyed
/// by the book's id, which the book's system declares (its
/// [`TableFile::shared`](crate::tables::TableFile::shared)), reads and
/// checks ([`house::Section`]); the core names none of them.
pub(crate) const CAMPAIGN_FILE: &str = "campaign.toml";

/// The entries of a battle with an effect on `id` that `pick` takes, in
/// order, each once.
pub(crate) fn entries_of<E>(fought: &[Fought<E>], id: &str, pick: impl Fn(&E) -> bool) -> Vec<u64> {
    let mut out: Vec<u64> = fought
        .iter()
        .filter_map(|f| {
            let (unit, effect) = f.effect.as_ref()?;
            (unit.as_deref() == Some(id) && pick(effect)).then_some(f.entry)
        })
        .collect();
    out.dedup();
    out
}

/// The entries after which each of `ids` changed, replaying a battle's
/// effects one at a time on `state` (as the battle began) with `step`,
/// and reading `value` of each unit after each entry. An entry whose
/// effects left a unit's value as it was is not one of its entries.
pub(crate) fn trace<S, E, V: PartialEq>(
    mut state: S,
    fought: &[Fought<E>],
    ids: &[&str],
    mut step: impl FnMut(&mut S, &Fought<E>),
    value: impl Fn(&S, &str) -> V,
) -> BTreeMap<String, Vec<u64>> {
    let mut before: Vec<V> = ids.iter().map(|id| value(&state, id)).collect();
    let mut out: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut at = 0;
    while at < fought.len() {
        let entry = fought[at].entry;
        while at < fought.len() && fought[at].entry == entry {
            step(&mut state, &fought[at]);
            at += 1;
        }
        for (i, id) in ids.iter().enumerate() {
            let now = value(&state, id);
            if now != before[i] {
                out.entry(id.to_string()).or_default().push(entry);
                before[i] = now;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_names_the_entries_that_changed_each_unit() {
        // A running count of hits, and bases lost at 6 hits a base.
        let fought: Vec<Fought<i64>> = [(1, 4), (2, 4), (3, 12), (5, 1)]
            .into_iter()
            .map(|(entry, hits)| Fought {
                entry,
                effect: Some((Some("a".to_string()), hits)),
            })
            .collect();
        let traced = trace(
            0i64,
            &fought,
            &["a", "b"],
            |s, f| {
                if let Some((_, hits)) = &f.effect {
                    *s += hits;
                }
            },
            |s, id| if id == "a" { *s / 6 } else { 0 },
        );
        assert_eq!(traced.get("a"), Some(&vec![2, 3]));
        assert_eq!(traced.get("b"), None);
    }

    #[test]
    fn a_value_is_written_as_toml_reads_it_back() {
        for text in ["dead after \"raid\"", "it's", "a\\b", "l'\"x'''"] {
            let written = EditValue::Text(text.into()).toml();
            let read: toml::Table = format!("gone = {written}").parse().expect("TOML");
            assert_eq!(read["gone"].as_str(), Some(text), "{written}");
        }
        assert_eq!(EditValue::Int(4).toml(), "4");
        assert_eq!(EditValue::Bool(true).toml(), "true");
    }
}
