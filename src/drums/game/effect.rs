//! What one resolution does to a unit or general, as the game records it
//! and the journal says it.

use serde::{Deserialize, Serialize};

use crate::answer::resolution::SystemEffect;

/// What one resolution does to a unit or general.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum DrumsEffect {
    /// Hits received (bases are lost at the tables' rate).
    Hits {
        hits: i64,
    },
    /// Inflicted hits this turn.
    Inflicted,
    /// Shot (the first shot spent, one more shot fired this game).
    Shot,
    /// Fired at this turn (with a hit, the shooters' "fired at" row).
    FiredAt,
    /// Fought a melee round (the first melee spent).
    Melee,
    Charged,
    Moved,
    /// Forced to retire this turn.
    Retired,
    Broken,
    /// A general hit by a stray round: placed on the long edge, off the
    /// table for the rest of the turn, free to move next turn.
    Incapacitated,
    /// A general swept away with a broken unit, to his own long edge.
    SweptAway,
    /// The army (the first or second of the game's Drums armies) that has
    /// the initiative this turn.
    Initiative {
        army: usize,
    },
}

impl SystemEffect for DrumsEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        let u = unit.unwrap_or("the unit");
        match self {
            DrumsEffect::Hits { hits } => {
                format!(
                    "game: {u} takes {hits} hit{}",
                    if *hits == 1 { "" } else { "s" }
                )
            }
            DrumsEffect::Inflicted => format!("game: {u} has inflicted hits this turn"),
            DrumsEffect::Shot => format!("game: {u} has fired (first shot spent)"),
            DrumsEffect::FiredAt => format!("game: {u} was fired at this turn"),
            DrumsEffect::Melee => format!("game: {u} has fought a melee round"),
            DrumsEffect::Charged => format!("game: {u} has charged"),
            DrumsEffect::Moved => format!("game: {u} has moved this turn"),
            DrumsEffect::Retired => format!("game: {u} was forced to retire this turn"),
            DrumsEffect::Broken => format!("game: {u} breaks"),
            DrumsEffect::Incapacitated => {
                format!("game: {u} is off the table for the rest of this turn")
            }
            DrumsEffect::SweptAway => format!("game: {u} is swept away to his own long edge"),
            DrumsEffect::Initiative { army } => {
                format!("game: {} has the initiative", line_side(*army))
            }
        }
    }
}

/// A side by its place on an `initiative` line, where no army names it.
pub(crate) fn line_side(side: usize) -> &'static str {
    if side == 0 {
        "the side before `vs`"
    } else {
        "the side after `vs`"
    }
}
