//! The units a command may name: what each brings, and what the game
//! says of a word typed beside one.

use crate::bind::UnitFact;
use crate::command::{Span, System};

/// The units a command may name, and the facts each brings.
pub trait Units {
    /// The facts of a unit under a rule system, if there is such a unit.
    fn unit(&self, system: System, id: &str) -> Option<UnitFacts>;
    /// Every id, for suggestions.
    fn ids(&self) -> Vec<String>;
    /// The rule book of the army a unit is in, for the error when it is
    /// named under another.
    fn book_of(&self, _id: &str) -> Option<System> {
        None
    }
    /// A word typed beside a named unit that contradicts its list or its
    /// state in the game: the fact and where it came from, and whether it
    /// is its list's (rather than a state the game keeps).
    fn contradicts(
        &self,
        _system: System,
        _verb: &str,
        _id: &str,
        _word: &str,
        _value: Option<i64>,
    ) -> Option<(String, bool)> {
        None
    }
    /// Whether a game keeps the units' state (`--game FILE`): where none
    /// does, a state word typed beside a unit is taken as stated.
    fn keeps_state(&self) -> bool {
        false
    }
    /// Every word a unit could bring in any state of the game: a state
    /// its list makes impossible is refused even where no game is kept.
    fn possible_words(&self, _system: System, _id: &str) -> Vec<String> {
        Vec::new()
    }
    /// The side of the army a unit is in, as its list names it
    /// (`Prussia`): how a line names the side the unit is on.
    fn side_of(&self, _id: &str) -> Option<String> {
        None
    }
    /// The sides of the armies under a rule system, in the order loaded:
    /// the names of a line's two sides where the game's own armies face
    /// each other (a game's initiative).
    fn sides(&self, _system: System) -> Vec<String> {
        Vec::new()
    }
}

/// A unit a command named: where, and everything it brings.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Named {
    /// `None`: the acting side; otherwise the clause's index.
    pub(crate) clause: Option<usize>,
    /// The span of its id in the line.
    pub(crate) span: Span,
    pub(crate) facts: UnitFacts,
    /// Every word it could bring in any state, where no game keeps its
    /// state and words were typed beside it (else empty).
    pub(crate) possible: Vec<String>,
    /// The side of its army, as its list names it.
    pub(crate) side: Option<String>,
}

/// What a named unit brings to a command.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitFacts {
    pub id: String,
    pub name: String,
    pub facts: Vec<UnitFact>,
    /// Why the unit can no longer act, if so: it may then be named only
    /// by the verbs that take the fallen.
    pub out_of_action: Option<String>,
}

impl UnitFacts {
    /// The value of a numeric fact (`cf`, `mr`, `bases`).
    pub(crate) fn value(&self, word: &str) -> Option<i64> {
        self.facts
            .iter()
            .find(|f| f.word == word)
            .and_then(|f| f.value)
    }
}

/// No armies loaded.
pub(crate) struct NoUnits;

impl Units for NoUnits {
    fn unit(&self, _system: System, _id: &str) -> Option<UnitFacts> {
        None
    }
    fn ids(&self) -> Vec<String> {
        Vec::new()
    }
}
