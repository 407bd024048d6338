//! The `odds` report: a resolver run against every way the dice can fall
//! (the dice engine's [`Enumerator`]), its outcomes added up, and the
//! expected value of each measure a resolution reports.

use rustc_hash::FxHashMap as HashMap;

use crate::command::System;
use crate::dice::{DiceSource, Enumerator, MAX_PATHS, Prob};
use crate::error::{CommandError, DiceError};
use crate::resolution::Resolution;
#[derive(Debug, Clone)]
pub struct OutcomeOdds {
    /// The row's id, unique within the answer: the outcome, with `-2`,
    /// `-3`… after the first row of the same outcome.
    pub outcome: String,
    /// The outcome a resolution of the line gives, shared by every row of
    /// that kind (issue 23: a script must be able to add up P(pass)).
    pub kind: String,
    pub text: String,
    pub prob: Prob,
    /// Each measure the outcome reported: its first value, and whether
    /// every path to the outcome reported that same value.
    pub values: Vec<(&'static str, f64, bool)>,
}

#[derive(Debug, Clone)]
pub struct Odds {
    pub rules: System,
    pub verb: &'static str,
    pub heading: String,
    pub outcomes: Vec<OutcomeOdds>,
    /// Expected values of numeric results: (`expected_hits`, value).
    pub expected: Vec<(String, f64)>,
    pub paths: usize,
}

/// The expected value of each numeric result, added up path by path.
#[derive(Default)]
struct Expectations {
    /// (name, first value seen, whether it ever changed, sum of value × p,
    /// sum of p where the result exists)
    sums: Vec<(&'static str, f64, bool, f64, f64)>,
}

impl Expectations {
    fn record(&mut self, name: &'static str, value: f64, p: f64) {
        match self.sums.iter_mut().find(|s| s.0 == name) {
            Some((_, first, changed, sum, mass)) => {
                *changed |= *first != value;
                *sum += value * p;
                *mass += p;
            }
            None => self.sums.push((name, value, false, value * p, p)),
        }
    }

    /// A result that never varies (the range shot at) has no expectation.
    /// Where a result exists only for some outcomes (the distance of a
    /// general swept away), its expectation is over those outcomes.
    fn means(self) -> Vec<(String, f64)> {
        self.sums
            .into_iter()
            .filter(|s| s.2)
            .map(|(name, _, _, sum, mass)| {
                let mean = if mass > 0.0 { sum / mass } else { 0.0 };
                (format!("expected_{name}"), mean)
            })
            .collect()
    }
}

/// Run `resolve` against every path of the dice and add up the outcomes,
/// walking at most `paths_left` paths ([`MAX_PATHS`] for one line; what
/// the combinations before it left, in a sweep).
pub fn enumerate(
    count_values: bool,
    paths_left: usize,
    mut resolve: impl FnMut(&mut dyn DiceSource) -> Result<Resolution, CommandError>,
) -> Result<Odds, CommandError> {
    let mut source = Enumerator::default();
    let mut outcomes: Vec<OutcomeOdds> = Vec::new();
    // Where each outcome is in `outcomes`: a pool can have hundreds.
    let mut index: HashMap<String, usize> = HashMap::default();
    let mut expectations = Expectations::default();
    let mut paths = 0;
    let mut first: Option<Resolution> = None;
    source.each_path(|source| {
        if paths >= paths_left {
            return Err(CommandError::Dice(DiceError::TooManyPaths {
                max: MAX_PATHS,
                sweep: false,
                instead: crate::error::FEWER_DICE.into(),
            }));
        }
        let res = resolve(source)?;
        let weight = source.path_weight();
        paths += 1;
        let group = res.odds_group.as_deref().unwrap_or(&res.outcome_text);
        let at = match index.get(group) {
            Some(&i) => {
                outcomes[i].prob = outcomes[i].prob.plus(weight);
                i
            }
            None => {
                index.insert(group.to_string(), outcomes.len());
                outcomes.push(OutcomeOdds {
                    outcome: res.outcome.to_string(),
                    kind: res.outcome.to_string(),
                    text: group.to_string(),
                    prob: weight,
                    values: Vec::new(),
                });
                outcomes.len() - 1
            }
        };
        for &(name, value) in &res.measures {
            expectations.record(name, value, weight.p);
        }
        if count_values {
            let values = &mut outcomes[at].values;
            for &(name, value) in &res.measures {
                match values.iter_mut().find(|v| v.0 == name) {
                    Some(v) => v.2 &= v.1 == value,
                    None => values.push((name, value, true)),
                }
            }
        }
        if first.is_none() {
            first = Some(res);
        }
        Ok(())
    })?;
    let first = first.ok_or_else(|| CommandError::Option("odds: nothing was resolved".into()))?;
    unique_ids(&mut outcomes);
    Ok(Odds {
        rules: first.rules,
        verb: first.verb,
        heading: first.heading,
        outcomes,
        expected: expectations.means(),
        paths,
    })
}

/// A distribution whose outcomes are the values of one number (hits, a
/// pool's successes, a total): the measure, and its value for each outcome
/// in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    pub measure: &'static str,
    pub values: Vec<f64>,
}

impl OutcomeOdds {
    /// The row's typed effects: each measure with the one value it has on
    /// every way the dice reach this row (the hits a forced retire
    /// carries). Empty unless the measures were kept.
    pub fn effects(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
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
    pub fn count(&self) -> Option<Count> {
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
    pub fn at_least(&self, count: &Count) -> Vec<Prob> {
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

/// Outcomes are told apart by their text; two texts under one outcome id
/// (a forced retire of 1BW and of 2BW) get `-2`, `-3`… after the first, so
/// an id names one line of the answer.
fn unique_ids(outcomes: &mut [OutcomeOdds]) {
    // Most answers have no repeat (a pool's 501 counts): find that out
    // without copying an id.
    let mut ids: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
    if outcomes.iter().all(|o| ids.insert(o.outcome.as_str())) {
        return;
    }
    let mut seen: HashMap<String, usize> = HashMap::default();
    for o in outcomes.iter_mut() {
        let n = seen.entry(o.outcome.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            o.outcome = format!("{}-{n}", o.outcome);
        }
    }
}
