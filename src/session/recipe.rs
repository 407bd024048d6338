//! One way to build a session on another thread. A session holds its
//! tables and verbs in `Rc`s and stays on the thread that made it, so a
//! thread that resolves lines of its own (a batch's second thread, the
//! server's game and odds threads) builds its session from a recipe:
//! the systems, where their tables come from, the rule book and the dice.

use super::Session;
use crate::command::System;
use crate::system::Registry;
use crate::tables::TableSource;

/// What is needed to build a session alike on any thread.
#[derive(Clone)]
pub(crate) struct Recipe {
    pub(crate) registry: Registry,
    /// Where the tables are read from (the house directory, `--crt`).
    pub(crate) source: TableSource,
    /// The rule book lines are resolved under; `None`: the registry's
    /// default.
    pub(crate) rules: Option<System>,
    /// Where the dice start; `None`: a fresh seed for each session, as the
    /// command line's without `--seed` (each answer says its seed).
    pub(crate) seed: Option<u64>,
    /// [`Session::count_outcome_values`]; `None`: as a session starts.
    pub(crate) count_values: Option<bool>,
}

impl Recipe {
    /// Sessions under the registry's default rule book, each rolling from
    /// a fresh seed.
    pub(crate) fn new(registry: Registry, source: TableSource) -> Recipe {
        Recipe {
            registry,
            source,
            rules: None,
            seed: None,
            count_values: None,
        }
    }

    /// A session, its tables read on this thread.
    pub(crate) fn build(&self) -> Result<Session, String> {
        let tables = self
            .registry
            .load(&self.source)
            .map_err(|e| e.to_string())?;
        let rules = match self.rules {
            Some(rules) => rules,
            None => self
                .registry
                .default_book()
                .ok_or("no rule system is registered")?,
        };
        let seed = self.seed.unwrap_or_else(crate::dice::entropy_seed);
        let mut session = Session::new(tables, rules, seed);
        if let Some(yes) = self.count_values {
            session.count_outcome_values(yes);
        }
        Ok(session)
    }
}
