//! What an answer names besides its own numbers: the rule book it was
//! resolved under, the stretch of the line a word came from, and whose
//! side a clause speaks for. The parser makes these; answers keep them.

use std::fmt;

/// A byte range in the command line, used to point a caret at a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// One past the end of the line: where a missing word would have gone.
    pub(crate) fn at_end(line: &str) -> Span {
        let end = line.trim_end().len();
        Span::new(end, end + 1)
    }
}

/// One rule book drumhead resolves lines under: its id, as typed before a
/// verb and in `--rules`, and its title. Each rule system declares its own
/// (Musket & Saber has two, standard and QuickPlay); the core never names one.
#[derive(Debug)]
pub(crate) struct Book {
    pub id: &'static str,
    pub title: &'static str,
}

/// The rule book a line is resolved under: a handle to a [`Book`],
/// compared by id.
#[derive(Clone, Copy)]
pub struct System(&'static Book);

impl System {
    pub(crate) const fn new(book: &'static Book) -> System {
        System(book)
    }

    pub fn id(self) -> &'static str {
        self.0.id
    }

    pub fn title(self) -> &'static str {
        self.0.title
    }
}

impl PartialEq for System {
    fn eq(&self, other: &System) -> bool {
        // The same book is almost always the same static.
        std::ptr::eq(self.0, other.0) || self.0.id == other.0.id
    }
}

impl Eq for System {}

impl std::hash::Hash for System {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl fmt::Debug for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "System({})", self.0.id)
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Whose words a clause holds: `at` the target, `vs` the opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClauseKind {
    At,
    Vs,
}

impl ClauseKind {
    pub fn word(self) -> &'static str {
        match self {
            ClauseKind::At => "at",
            ClauseKind::Vs => "vs",
        }
    }
}
