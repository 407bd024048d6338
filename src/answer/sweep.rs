//! The answer to a sweep: one `odds` line asked for several values of a
//! word at once, and the distribution of each combination.

use super::{Odds, Span};

/// One swept word: where it was typed, and each value it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct Swept {
    pub(crate) span: Span,
    /// As typed: `bases=2..8`.
    pub(crate) text: String,
    /// What its values are, for a column heading: `bases`, `distance`.
    pub(crate) name: String,
    /// Its values in order; of a range longer than a sweep answers, only
    /// as many as it does.
    pub(crate) choices: Vec<Choice>,
    /// How many values it stands for.
    pub(crate) values: u64,
}

/// One value of a swept word.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The word that stands in the line for this value: `bases=4`.
    pub word: String,
    /// The value alone, for a table's cell: `4`.
    pub(crate) shown: String,
}

/// One line of a sweep: the choice of each swept word (by index) and the
/// line with those choices in place.
#[derive(Debug, Clone, PartialEq)]
pub struct Combination {
    pub(crate) picks: Vec<usize>,
    pub(crate) line: String,
}

/// The answer to a sweep: the distribution of every combination.
#[derive(Debug, Clone)]
pub struct Sweep {
    pub(crate) swept: Vec<Swept>,
    /// One row per combination, in the order [`expand`] made them.
    pub(crate) rows: Vec<Row>,
}

#[derive(Debug, Clone)]
pub struct Row {
    /// The choice of each swept word, by index into its `choices`.
    pub(crate) picks: Vec<usize>,
    pub(crate) odds: Odds,
}

impl Sweep {
    /// The value of each swept word in a row, as a table shows it.
    pub(crate) fn shown(&self, row: &Row) -> Vec<&str> {
        self.swept
            .iter()
            .zip(&row.picks)
            .map(|(s, &i)| s.choices.get(i).map_or("", |c| c.shown.as_str()))
            .collect()
    }

    /// Every outcome text of any row, each after the outcomes it follows in
    /// the row that brought it (0 hits, 1 hit, 2 hits, then 3 hits from a
    /// larger unit), with the id it has where first seen.
    pub(crate) fn outcomes(&self) -> Vec<(&str, &str)> {
        let mut all: Vec<(&str, &str)> = Vec::new();
        for row in &self.rows {
            let mut after: Option<usize> = None;
            for o in &row.odds.outcomes {
                match all.iter().position(|(_, t)| *t == o.text) {
                    Some(i) => after = Some(i),
                    None => {
                        let at = after.map_or(all.len(), |i| i + 1);
                        all.insert(at, (o.outcome.as_str(), o.text.as_str()));
                        after = Some(at);
                    }
                }
            }
        }
        all
    }

    /// Every expected value's name of any row, in the order first seen.
    pub(crate) fn expected(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for row in &self.rows {
            for (name, _) in &row.odds.expected {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    }
}

/// The probability of an outcome (by text) in one distribution; 0 where
/// it cannot happen.
pub fn p_of(odds: &Odds, text: &str) -> f64 {
    odds.outcomes
        .iter()
        .find(|o| o.text == text)
        .map_or(0.0, |o| o.prob.p)
}

/// An expected value of one distribution, if it has it. A measure that
/// never varied in it (no base lost at any distance a sweep tried) has
/// no expectation of its own: its one value is the expectation, so a
/// sweep's column reads 0 there, not nothing.
pub fn expected_of(odds: &Odds, name: &str) -> Option<f64> {
    odds.expected
        .iter()
        .find(|(n, _)| n == name)
        .map(|&(_, v)| v)
        .or_else(|| {
            let measure = name.strip_prefix("expected_")?;
            let mut values = odds
                .outcomes
                .iter()
                .flat_map(|o| o.values.iter().filter(|v| v.0 == measure));
            let &(_, first, same) = values.next()?;
            (same && values.all(|v| v.2 && v.1 == first)).then_some(first)
        })
}
