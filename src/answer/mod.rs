//! Everything a line can produce, as data: a resolution, odds, a
//! comparison, a simulation, a sweep, the game's views (reports), a
//! quick-reference sheet and a game's cards. Nothing here resolves,
//! binds or writes: the engine makes answers and the formats (the
//! `format` module) write them, so a new front end (a web view) takes the
//! same answers and the same formats. This module imports no other module
//! of the crate.

pub(crate) mod book;
pub(crate) mod cards;
pub(crate) mod dice;
pub(crate) mod explore;
pub(crate) mod odds;
pub(crate) mod prob;
pub(crate) mod report;
pub(crate) mod resolution;
pub(crate) mod sheet;
pub(crate) mod sweep;

pub(crate) use book::Book;
pub use book::{ClauseKind, Span, System};
pub(crate) use cards::{Boxes, Command as Commanded, Line, Roster};
pub use dice::Rolled;
pub(crate) use explore::{Comparison, Observed, Simulation};
pub use odds::{Count, Odds, OutcomeOdds};
pub(crate) use prob::Prob;
pub(crate) use report::{FORMAT_VERSION, Report};
pub(crate) use resolution::Tone;
pub use resolution::{Effect, Modifier, Resolution, Row, Standing, Target};
pub(crate) use sheet::Sheet;
pub(crate) use sweep::{Choice, Combination, Sweep, Swept, expected_of, p_of};

/// What a line asks for, known as soon as it is parsed: a format says
/// from this alone whether it can write the answer, so that a line it
/// cannot write is refused before it runs (and changes no game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A verb resolved with dice.
    Resolution,
    /// `odds LINE`: a distribution, a comparison or a sweep.
    Odds,
    /// `simulate N LINE`.
    Simulation,
    /// Help, the game's views, settings.
    Report,
    /// A rule book's quick-reference sheet.
    Sheet,
    /// A game's units as cards to print.
    Cards,
}

/// One answer.
#[derive(Debug)]
pub enum Answer {
    Resolution(Box<Resolution>),
    /// The exact distribution of outcomes (`odds …`).
    Odds(Box<Odds>),
    /// `odds … compare WORD`: the distribution without and with a word.
    Comparison(Box<Comparison>),
    /// `simulate N …`: observed frequencies beside the exact odds.
    Simulation(Box<Simulation>),
    /// `odds` with a swept word: the distribution of each combination.
    Sweep(Box<Sweep>),
    /// Help, the game's tables and the rest.
    Report(Box<Report>),
    /// A quick-reference sheet.
    Sheet(Box<Sheet>),
    /// The cards of a game's armies.
    Cards(Box<Roster>),
}

impl Answer {
    /// What was asked: a comparison and a sweep answer `odds`.
    pub(crate) fn kind(&self) -> Kind {
        match self {
            Answer::Resolution(_) => Kind::Resolution,
            Answer::Odds(_) | Answer::Comparison(_) | Answer::Sweep(_) => Kind::Odds,
            Answer::Simulation(_) => Kind::Simulation,
            Answer::Report(_) => Kind::Report,
            Answer::Sheet(_) => Kind::Sheet,
            Answer::Cards(_) => Kind::Cards,
        }
    }
}
