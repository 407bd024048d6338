//! The parsed shape of one command line, before any word is given a meaning.
//!
//! The parser only decides what kind of token each piece of text is (a
//! keyword, a number, a distance, entered dice); which keywords a verb knows
//! is the binder's business, so that house-rule tables can add words without
//! touching the parser.

pub(crate) use crate::answer::Book;
pub use crate::answer::{ClauseKind, Span, System};

/// The unit a distance was typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    BaseWidths,
    Inches,
}

impl Unit {
    pub(crate) fn suffix(self) -> &'static str {
        match self {
            Unit::BaseWidths => "BW",
            Unit::Inches => "\"",
        }
    }
}

/// A word's text: held inline up to 24 bytes, so that the words of a line
/// (nearly all short) are made and copied without an allocation each.
pub(crate) type Text = compact_str::CompactString;

/// What a single token of the line turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum WordKind {
    /// `determined`, `+determined`, `bases=4`, `+general=2`, `skill+1`.
    /// The name is normalised: lower case, `_` read as `-`.
    Keyword { name: Text, value: Option<String> },
    /// `12`, `2.5`.
    Number(f64),
    /// `2BW`, `2.5bw`, `12"`, `12in`, `2 BW`.
    Distance(f64, Unit),
    /// Anything else (`2d6+1`, `5hh`, `(5)`): kept whole for verbs that read
    /// their own notation, an error for every other verb.
    Other,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub(crate) span: Span,
    /// The token exactly as typed.
    pub(crate) text: Text,
    pub(crate) kind: WordKind,
}

impl Word {
    /// The keyword name, if the word is a keyword.
    pub(crate) fn keyword(&self) -> Option<&str> {
        match &self.kind {
            WordKind::Keyword { name, .. } => Some(name),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Clause {
    pub(crate) kind: ClauseKind,
    pub(crate) span: Span,
    pub(crate) words: Vec<Word>,
}

/// A die face the player rolled by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EnteredDie {
    pub(crate) face: u32,
    pub(crate) span: Span,
}

/// `odds …` asks for the distribution instead of a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Resolve,
    Odds,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub system: Option<(System, Span)>,
    pub(crate) mode: Mode,
    pub(crate) verb: Text,
    pub(crate) verb_span: Span,
    pub(crate) words: Vec<Word>,
    pub(crate) clauses: Vec<Clause>,
    pub(crate) rolled: Vec<EnteredDie>,
    /// Where `rolled` was written, for errors about the entered dice as a whole.
    pub(crate) rolled_span: Option<Span>,
    /// `rolled 4 roll-rest`: the dice after the entered ones are rolled.
    /// Without it, too few entered dice are refused (issue 23: a short
    /// entry means the umpire's idea of the pool differs from the tool's).
    pub(crate) roll_rest: bool,
}

impl Command {
    /// The words of the acting side and of each clause, in order.
    pub(crate) fn sides(&self) -> impl Iterator<Item = (Option<&Clause>, &[Word])> {
        std::iter::once((None, self.words.as_slice()))
            .chain(self.clauses.iter().map(|c| (Some(c), c.words.as_slice())))
    }
}
