//! The answers of `odds … compare WORD` and `simulate N …`.

use super::{Odds, System};

#[derive(Debug)]
pub struct Comparison {
    pub words: String,
    pub without: Odds,
    pub with: Odds,
}

#[derive(Debug)]
pub struct Simulation {
    pub rolls: u64,
    pub seed: u64,
    /// What was rolled: "resilience test, from melee (2D6)".
    pub heading: String,
    pub verb: &'static str,
    pub rules: System,
    /// The exact odds the rolls are shown beside, or why there are none
    /// (more outcomes than `odds` lists: `simulate` is then the answer).
    pub exact: Result<Odds, String>,
    /// Each outcome seen: in the exact odds' order, then any they did not
    /// list (which would be a bug); without exact odds, in the order of
    /// the number each outcome counts (a total, hits), when they count one.
    pub observed: Vec<Observed>,
}

/// One outcome of a simulation and how often it came up.
#[derive(Debug, Clone)]
pub struct Observed {
    /// How `odds` groups the outcome: its text.
    pub text: String,
    /// Its machine id.
    pub outcome: String,
    pub count: u64,
}
