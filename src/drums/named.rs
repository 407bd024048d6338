//! The units and generals a command names, as a resolver sees them.
//!
//! Binding takes a named id out of the words and binds the facts it brings
//! in its place, each at the span of its id. A resolver whose effects fall
//! on the first unit named on a side (the shooters, the target, the unit
//! tested) has to know that it is a unit and not a general, and a risk to
//! generals that it is a general: a general brings `general`, which these
//! verbs declare so that it shows.

use crate::bind::Bound;
use crate::catalog::Input;
use crate::command::{Span, Word, WordKind};
use crate::error::{BindError, CommandError};

/// One id named on a side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub span: Span,
    pub text: String,
    /// It brought `general`: a general.
    pub general: bool,
}

/// The ids named among one side's words, in order: every bare keyword that
/// bound to nothing of the vocabulary's (binding has already refused any
/// that is neither a word nor an id).
pub fn named(words: &[Word], bound: &Bound) -> Vec<Named> {
    words
        .iter()
        .filter_map(|w| match &w.kind {
            WordKind::Keyword { name, value: None } if !bound.has(name) => Some(Named {
                span: w.span,
                text: w.text.clone(),
                general: bound
                    .facts
                    .iter()
                    .any(|f| f.implied && f.name == "general" && f.span == w.span),
            }),
            _ => None,
        })
        .collect()
}

/// The words of one side of the command: the acting side (`None`) or the
/// `i`th clause.
pub fn side_words<'a>(input: &'a Input, clause: Option<usize>) -> &'a [Word] {
    match clause {
        None => &input.command.words,
        Some(i) => input
            .command
            .clauses
            .get(i)
            .map_or(&[][..], |c| &c.words[..]),
    }
}

/// A side of a verb whose effects fall on one unit: a general named there,
/// `general` typed, or a second unit, is refused. `what` names the side's
/// part for the message ("hits fall on units").
pub fn one_unit(
    input: &Input,
    bound: &Bound,
    clause: Option<usize>,
    verb: &str,
    why: &str,
) -> Result<(), CommandError> {
    if let Some(f) = bound
        .facts
        .iter()
        .find(|f| f.name == "general" && !f.implied)
    {
        return Err(BindError::NotHere {
            span: f.span,
            text: "general".into(),
            why: format!("is not a word of `{verb}`: {why}"),
        }
        .into());
    }
    let named = named(side_words(input, clause), bound);
    if let Some(g) = named.iter().find(|n| n.general) {
        return Err(BindError::NotHere {
            span: g.span,
            text: g.text.clone(),
            why: format!("is a general, and {why}"),
        }
        .into());
    }
    if let Some(second) = named.get(1) {
        return Err(BindError::NotHere {
            span: second.span,
            text: second.text.clone(),
            why: format!(
                "is a second unit on this side, and `{verb}` takes one: name `{}` or `{}`, not both",
                named[0].text, second.text
            ),
        }
        .into());
    }
    Ok(())
}
