//! What a side's typed words say against the units named on it, where
//! the rule system leaves that check to binding (Musket Mayhem's figures):
//! a word that contradicts a unit's army list is refused; one that
//! contradicts its state is refused where a game keeps that state
//! (`--game FILE`) and taken as stated where none does; `override` on the
//! side lets the typed words win on purpose. Both are shown in the stack.

use crate::answer::resolution::{Resolution, Row};
use crate::bind::Bound;
use crate::command::{Span, System};
use crate::error::{BindError, ErrorKind};

use super::{UnitFacts, Units, VerbDoc};

impl<E> VerbDoc<E> {
    /// `override` on every side of the verb that may name a unit, with
    /// what it does in the verb's rule system.
    pub(crate) fn with_override(mut self, help: &'static str) -> VerbDoc<E> {
        if self.vocab.raw {
            return self;
        }
        let add = |vocab: crate::bind::Vocab| {
            if vocab.find(OVERRIDE).is_some() {
                vocab
            } else {
                vocab.flag(OVERRIDE, help)
            }
        };
        self.vocab = add(std::mem::take(&mut self.vocab));
        for (_, vocab) in &mut self.clauses {
            *vocab = add(std::mem::take(vocab));
        }
        self
    }
}

/// The word that lets the typed words of its side win over the facts a
/// named unit brings, in every rule system.
pub(crate) const OVERRIDE: &str = "override";

/// The stack's label of a word typed over a unit's fact.
const OVERRIDDEN_ROW: &str = "override";
/// The stack's label of a state the umpire stated where no game keeps it.
const STATED_ROW: &str = "stated";

/// What the words of a line said against the units it named: each as the
/// stack shows it.
#[derive(Debug, Default, Clone)]
pub(crate) struct Said {
    pub(crate) overridden: Vec<String>,
    pub(crate) stated: Vec<String>,
    /// Each unit and typed word a row above already speaks of.
    pub(crate) noted: Vec<(String, String)>,
}

impl Said {
    /// Show what was said in the stack, from row `at` on (after the rows
    /// of the units named), and in JSON `override` and `stated`.
    pub(crate) fn show<E>(self, res: &mut Resolution<E>, at: usize) {
        if res.quiet {
            return;
        }
        let rows = self.overridden.iter().map(|r| (OVERRIDDEN_ROW, r));
        let rows = rows.chain(self.stated.iter().map(|r| (STATED_ROW, r)));
        for (i, (label, row)) in rows.enumerate() {
            res.rows.insert(at + i, Row::plain(label, row));
        }
        // A rule system's own rows come first where it showed some.
        for (key, rows) in [("override", self.overridden), ("stated", self.stated)] {
            if rows.is_empty() {
                continue;
            }
            let mut all: Vec<serde_json::Value> = res
                .fields
                .get(key)
                .and_then(|v| v.as_array())
                .cloned()
                .unwrap_or_default();
            all.extend(rows.into_iter().map(serde_json::Value::from));
            res.field(key, all);
        }
    }
}

/// The row of a state word taken as stated: what it says of which unit.
pub(crate) fn stated_row(word: &str, id: &str, what: &str) -> String {
    format!("`{word}` for `{id}` ({what}), as the umpire states it: no game is kept")
}

/// Check the words typed on one side against the units named on it.
pub(super) fn check_side(
    found: &[(UnitFacts, Span)],
    bound: &Bound,
    (system, verb): (System, &str),
    units: &dyn Units,
    said: &mut Said,
) -> Result<(), BindError> {
    let overriding = bound.has(OVERRIDE);
    for (facts, _) in found {
        for fact in bound.facts.iter().filter(|f| !f.implied) {
            let Some((why, list)) =
                units.contradicts(system, verb, &facts.id, &fact.name, fact.value)
            else {
                continue;
            };
            said.noted.push((facts.id.clone(), fact.name.clone()));
            if !list && !units.keeps_state() {
                said.stated.push(stated_row(&fact.name, &facts.id, &why));
                continue;
            }
            if overriding {
                said.overridden.push(format!(
                    "`{}` typed; `{}` ({}): {why}",
                    fact.name, facts.id, facts.name
                ));
                continue;
            }
            return Err(BindError::NotHere {
                kind: ErrorKind::Contradiction,
                span: fact.span,
                text: fact.name.clone(),
                why: format!(
                    "contradicts `{}` ({}): {why}; leave the word out (naming the unit brings its facts), or, to resolve it as typed on purpose, add `{OVERRIDE}` on this side",
                    facts.id, facts.name
                ),
            });
        }
    }
    Ok(())
}
