//! Which unit of a side brought which fact.
//!
//! Binding merges the facts of every unit named on a side into one set,
//! the first unit's word winning. A Musket & Saber side is a primary unit
//! (whose MR and state are the side's, 7.4, 7.5) with the units and leaders
//! stacked or fighting beside it, so the resolvers take the merged set
//! apart again: every unit id binding took is a bare word its vocabulary
//! does not know, and every fact a unit brought carries the span of its id.

use crate::bind::{Bound, Vocab};
use crate::command::{Span, Word, WordKind};

/// A unit or leader named on one side, in the order named.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    pub id: String,
    pub span: Span,
    /// A combat unit (it brought a combat factor or morale rating), not a
    /// leader.
    pub combat: bool,
}

/// The units named on a side, as binding took them: each bare word the
/// side's vocabulary does not know (binding refuses any such word that is
/// not a unit id). `combat` tells a combat unit from a leader by what it
/// brought.
pub fn named(
    words: &[Word],
    vocab: &Vocab,
    bound: &Bound,
    combat: impl Fn(&Bound, Span) -> bool,
) -> Vec<Named> {
    words
        .iter()
        .filter_map(|w| match &w.kind {
            WordKind::Keyword { name, value: None } if vocab.find(name).is_none() => Some(Named {
                id: name.clone(),
                span: w.span,
                combat: combat(bound, w.span),
            }),
            _ => None,
        })
        .collect()
}

/// Whether the unit named at `span` brought the fact `name`.
pub fn brought(bound: &Bound, span: Span, name: &str) -> bool {
    bound
        .facts
        .iter()
        .any(|f| f.implied && f.span == span && f.name == name)
}

/// Whether the unit named at `span` brought a combat factor (a word of
/// the side's notation, as `cf` does where it stands for the factors).
pub fn brought_factor(bound: &Bound, span: Span) -> bool {
    bound.raw.iter().any(|w| w.span == span)
}

/// Whether the unit named at `span` brought the bare number (its MR where
/// `mr` stands for it).
pub fn brought_number(bound: &Bound, span: Span) -> bool {
    bound.number.is_some_and(|(_, s)| s == span)
}

/// The side's facts as its primary unit has them: the words typed, and
/// what the primary and the leaders brought; what other combat units
/// brought (their MR, their type, their state) is theirs, not the side's.
pub fn primary_view(bound: &Bound, units: &[Named], primary: Option<Span>) -> Bound {
    let others: Vec<Span> = units
        .iter()
        .filter(|u| u.combat && Some(u.span) != primary)
        .map(|u| u.span)
        .collect();
    let mut view = bound.clone();
    view.facts
        .retain(|f| !f.implied || !others.contains(&f.span));
    view
}

/// The first combat unit named: the primary unit of its side.
pub fn primary(units: &[Named]) -> Option<(usize, &Named)> {
    units.iter().enumerate().find(|(_, u)| u.combat)
}
