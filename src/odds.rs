//! The `odds` report: a resolver run against every way the dice can fall
//! (the dice engine's [`Enumerator`]), its outcomes added up, and the
//! expected value of each measure a resolution reports.

use rustc_hash::FxHashMap as HashMap;

use crate::answer::resolution::Resolution;
pub(crate) use crate::answer::{Odds, OutcomeOdds};
use crate::dice::{DiceSource, Enumerator, MAX_PATHS};
use crate::error::{CommandError, DiceError, ErrorKind};
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
pub(crate) fn enumerate(
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
    let first = first
        .ok_or_else(|| CommandError::refused(ErrorKind::Internal, "odds: nothing was resolved"))?;
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
