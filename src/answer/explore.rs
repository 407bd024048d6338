//! The answers of `odds … compare WORD` and `simulate N …`.

use super::{Odds, System};

#[derive(Debug)]
pub struct Comparison {
    pub(crate) words: String,
    pub(crate) without: Odds,
    pub(crate) with: Odds,
}

#[derive(Debug)]
pub struct Simulation {
    pub(crate) rolls: u64,
    pub(crate) seed: u64,
    /// What was rolled: "resilience test, from melee (2D6)".
    pub(crate) heading: String,
    pub(crate) verb: &'static str,
    pub(crate) rules: System,
    /// The exact odds the rolls are shown beside, or why there are none
    /// (more outcomes than `odds` lists: `simulate` is then the answer).
    pub(crate) exact: Result<Odds, String>,
    /// Each outcome seen: in the exact odds' order, then any they did not
    /// list (which would be a bug); without exact odds, in the order of
    /// the number each outcome counts (a total, hits), when they count one.
    pub(crate) observed: Vec<Observed>,
}

/// One outcome of a simulation and how often it came up.
#[derive(Debug, Clone)]
pub(crate) struct Observed {
    /// How `odds` groups the outcome: its text.
    pub(crate) text: String,
    /// Its machine id.
    pub(crate) outcome: String,
    pub(crate) count: u64,
}
