//! The answer of `odds`: every outcome with its exact probability, and
//! the expected value of each measure.

use super::{Prob, System};

#[derive(Debug, Clone)]
pub struct OutcomeOdds {
    /// The row's id, unique within the answer: the outcome, with `-2`,
    /// `-3`… after the first row of the same outcome.
    pub(crate) outcome: String,
    /// The outcome a resolution of the line gives, shared by every row of
    /// that kind (issue 23: a script must be able to add up P(pass)).
    pub(crate) kind: String,
    pub text: String,
    pub prob: Prob,
    /// Each measure the outcome reported: its first value, and whether
    /// every path to the outcome reported that same value.
    pub(crate) values: Vec<(&'static str, f64, bool)>,
}

#[derive(Debug, Clone)]
pub struct Odds {
    pub(crate) rules: System,
    pub(crate) verb: &'static str,
    pub(crate) heading: String,
    pub outcomes: Vec<OutcomeOdds>,
    /// Expected values of numeric results: (`expected_hits`, value).
    pub expected: Vec<(String, f64)>,
    pub(crate) paths: usize,
}

/// A distribution whose outcomes are the values of one number (hits, a
/// pool's successes, a total): the measure, and its value for each outcome
/// in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Count {
    pub(crate) measure: &'static str,
    pub(crate) values: Vec<f64>,
}

impl OutcomeOdds {
    /// The outcome a resolution of the line gives, shared by every row
    /// of that kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The row's typed effects: each measure with the one value it has on
    /// every way the dice reach this row (the hits a forced retire
    /// carries). Empty unless the measures were kept.
    pub(crate) fn effects(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.values
            .iter()
            .filter(|v| v.2)
            .map(|&(name, value, _)| (name, value))
    }
}

impl Odds {
    /// The count the outcomes stand for, if they stand for one: a measure
    /// every outcome reports, with one value on every path to it, and a
    /// different value for each outcome. The first such measure.
    pub(crate) fn count(&self) -> Option<Count> {
        let first = self.outcomes.first()?;
        first.values.iter().find_map(|&(measure, _, _)| {
            let mut values = Vec::with_capacity(self.outcomes.len());
            for o in &self.outcomes {
                let &(_, value, same) = o.values.iter().find(|v| v.0 == measure)?;
                if !same || values.contains(&value) {
                    return None;
                }
                values.push(value);
            }
            Some(Count { measure, values })
        })
    }

    /// P(X ≥ the value of each outcome), exact while the fractions fit.
    pub(crate) fn at_least(&self, count: &Count) -> Vec<Prob> {
        count
            .values
            .iter()
            .map(|&v| {
                let mut sum: Option<Prob> = None;
                for (o, &w) in self.outcomes.iter().zip(&count.values) {
                    if w >= v {
                        sum = Some(match sum {
                            Some(s) => s.plus(o.prob),
                            None => o.prob,
                        });
                    }
                }
                // The outcome itself is always counted.
                sum.unwrap_or(Prob::ONE)
            })
            .collect()
    }
}
