//! Exact odds: the same resolver that rolls, run against a dice source that
//! enumerates every way the dice can fall.
//!
//! The enumerator replays the resolver once per path through its draws. Each
//! draw is a branch point with a known distribution: one die (each face),
//! a sum of dice (the convolution of the faces), or a pool counted against
//! a score (the binomial distribution of successes) — so a 60-die pool is
//! 61 branches, not 6^60. Paths with the same outcome are added up.

// Keys here are small numbers and short texts, hashed thousands of times
// a command: a fast hash, not a DoS-resistant one.
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use super::distributions::{
    PoolBandTable, SumTable, bands, contest_weights, opposed_orders, pool_band_table,
    pool_distribution, pool_each_distribution, pool2_distribution, sum_distribution,
};
use super::{Contest, DiceSource, Pool, Pool2, PoolBand, Rolled, Steps, Sum, TieBreak};
use crate::answer::prob::Prob;
use crate::error::DiceError;

pub(crate) use crate::limits::{MAX_OUTCOMES, MAX_PATHS};

/// Refuse a throw with more outcomes than `odds` lists.
fn within_outcomes(n: u32, sides: u32, count: u64, what: &'static str) -> Result<(), DiceError> {
    if count > MAX_OUTCOMES {
        return Err(DiceError::TooManyOutcomes {
            dice: format!("{n}d{sides}"),
            count,
            what,
            max: MAX_OUTCOMES,
            instead: crate::error::FEWER_DICE.into(),
        });
    }
    Ok(())
}

/// The totals of `n` dice.
fn within_totals(n: u32, sides: u32) -> Result<(), DiceError> {
    let totals = u64::from(n) * u64::from(sides.saturating_sub(1)) + 1;
    within_outcomes(n, sides, totals, "totals")
}

/// One branch point of a path: which choice was taken, and how many there were.
#[derive(Debug, Clone, Copy)]
struct Step {
    choice: usize,
    choices: usize,
}

/// A sum's distribution, and its weights alone for branching on.
struct SumDist {
    table: SumTable,
    weights: Vec<Prob>,
}

#[derive(Default)]
pub struct Enumerator {
    path: Vec<Step>,
    at: usize,
    weight: Option<Prob>,
    // Tables are shared, not copied: a path may draw from one thousands of
    // times over.
    /// One die's faces, all alike, by its sides.
    faces: HashMap<u32, Rc<[Prob]>>,
    sums: HashMap<(u32, u32), Rc<SumDist>>,
    contests: HashMap<(u32, u32, u32), [Prob; 3]>,
    pools: HashMap<(u32, u32, u32), Rc<[Prob]>>,
    pools2: HashMap<(u32, u32, u32, u32), Rc<Pool2Table>>,
    /// By sides, then by the scores.
    pools_each: HashMap<u32, HashMap<Vec<u32>, Rc<[Prob]>>>,
    /// Bands of one die: each band's lowest face, and the weights.
    bands: HashMap<u32, HashMap<Vec<u32>, Rc<BandTable>>>,
    opposed: HashMap<(u32, i64), Rc<OpposedTable>>,
    /// The final states of `run_steps`, by the choices made before it:
    /// the outer walk replays the resolver once per final state, and the
    /// states are worked out once.
    steps: HashMap<Vec<usize>, Rc<Finals>>,
    /// By (dice, sides, score), then by the cuts.
    pool_bands: HashMap<(u32, u32, u32), ByCuts<PoolBandTable>>,
}

/// Tables of one draw, by the scores or cuts it is read against.
type ByCuts<T> = HashMap<Vec<u32>, Rc<T>>;

type BandTable = (Vec<u32>, Vec<Prob>);
type OpposedTable = (Vec<[u32; 2]>, Vec<Prob>);

/// The outcomes of a two-score pool and their weights.
type Pool2Table = (Vec<(u32, u32)>, Vec<Prob>);

impl Enumerator {
    fn begin_path(&mut self) {
        self.at = 0;
        self.weight = Some(Prob::ONE);
    }

    /// Move to the next path; false when every path has been walked.
    fn advance(&mut self) -> bool {
        // Branches beyond the draws this path made are stale.
        self.path.truncate(self.at);
        while let Some(step) = self.path.last_mut() {
            if step.choice + 1 < step.choices {
                step.choice += 1;
                return true;
            }
            self.path.pop();
        }
        false
    }

    /// Take the branch for this draw among `choices`, each with its weight.
    fn branch(&mut self, weights: &[Prob]) -> usize {
        let choice = match self.path.get(self.at) {
            Some(step) => step.choice,
            None => {
                self.path.push(Step {
                    choice: 0,
                    choices: weights.len(),
                });
                0
            }
        };
        self.at += 1;
        let w = self.weight.unwrap_or(Prob::ONE);
        self.weight = Some(w.times(weights[choice]));
        choice
    }

    fn sum_dist(&mut self, n: u32, sides: u32) -> Rc<SumDist> {
        self.sums
            .entry((n, sides))
            .or_insert_with(|| {
                let table = sum_distribution(n, sides);
                let weights = table.iter().map(|(_, p)| *p).collect();
                Rc::new(SumDist { table, weights })
            })
            .clone()
    }

    fn pool_table(&mut self, n: u32, sides: u32, at_least: u32) -> Rc<[Prob]> {
        self.pools
            .entry((n, sides, at_least))
            .or_insert_with(|| pool_distribution(n, sides, at_least).into())
            .clone()
    }
}

/// States with their probabilities, each state once.
struct Distribution<S> {
    states: Vec<S>,
    weights: Vec<Prob>,
    index: HashMap<S, usize>,
}

impl<S: Clone + Eq + std::hash::Hash> Distribution<S> {
    fn new() -> Self {
        Distribution {
            states: Vec::new(),
            weights: Vec::new(),
            index: HashMap::default(),
        }
    }

    /// Add `weight` to `state`; true when the state is new.
    fn add(&mut self, state: S, weight: Prob) -> bool {
        match self.index.get(&state) {
            Some(&i) => {
                self.weights[i] = self.weights[i].plus(weight);
                false
            }
            None => {
                self.index.insert(state.clone(), self.states.len());
                self.states.push(state);
                self.weights.push(weight);
                true
            }
        }
    }
}

/// The dice one step threw on a path: the choice taken at each draw.
type Throw = Vec<usize>;

/// Final states, and the dice each step threw to reach each of them.
type Reached<S> = (Distribution<S>, Vec<Vec<Throw>>);

/// One step's results for a key, as [`Enumerator::walk`] found them.
struct Walked<T> {
    results: Distribution<T>,
    throws: Vec<Throw>,
}

/// The final states of one `run_steps`, kept without the states, whose
/// type is the caller's: each one's weight, and the dice each step threw
/// on the first path that reached it. Throwing those again rebuilds the
/// state, as a step's dice decide what it gives.
struct Finals {
    weights: Vec<Prob>,
    throws: Vec<Vec<Throw>>,
}

impl Enumerator {
    /// See [`crate::dice::run_steps`].
    pub(crate) fn run_steps<T: Steps>(
        &mut self,
        start: T::State,
        steps: &mut T,
    ) -> Result<T::State, T::Error> {
        let before: Vec<usize> = self.path[..self.at].iter().map(|s| s.choice).collect();
        if let Some(finals) = self.steps.get(&before).cloned() {
            let choice = self.branch(&finals.weights);
            return self.throw_again(start, steps, &finals.throws[choice]);
        }
        let (mut states, throws) = self.fold_steps(start, steps)?;
        let finals = Rc::new(Finals {
            weights: states.weights,
            throws,
        });
        self.steps.insert(before, finals.clone());
        let choice = self.branch(&finals.weights);
        Ok(states.states.swap_remove(choice))
    }

    /// Carry the distribution of states through every step, walking the
    /// dice of each key once; with each final state, the dice that
    /// reached it.
    fn fold_steps<T: Steps>(
        &mut self,
        start: T::State,
        steps: &mut T,
    ) -> Result<Reached<T::State>, T::Error> {
        let mut states = Distribution::new();
        states.add(start, Prob::ONE);
        let mut throws: Vec<Vec<Throw>> = vec![Vec::new()];
        // What each key's dice do, with their weights.
        let mut walked: HashMap<T::Key, Rc<Walked<T::Effect>>> = HashMap::default();
        for i in 0..steps.count() {
            let mut next = Distribution::new();
            let mut next_throws = Vec::new();
            let paths = states.states.into_iter().zip(states.weights).zip(throws);
            for ((state, p), before) in paths {
                let k = steps.key(i, &state);
                let effects = match walked.get(&k) {
                    Some(e) => e.clone(),
                    None => {
                        let e = Rc::new(self.walk(|dice| steps.draw(i, &k, dice))?);
                        walked.insert(k, e.clone());
                        e
                    }
                };
                let each = effects.results.states.iter().zip(&effects.results.weights);
                for ((effect, q), throw) in each.zip(&effects.throws) {
                    if next.add(steps.apply(state.clone(), i, effect), p.times(*q)) {
                        let mut reached = before.clone();
                        reached.push(throw.clone());
                        next_throws.push(reached);
                    }
                }
            }
            states = next;
            throws = next_throws;
        }
        Ok((states, throws))
    }

    /// The final state the steps reach from `start` when each throws the
    /// dice it threw before.
    fn throw_again<T: Steps>(
        &mut self,
        start: T::State,
        steps: &mut T,
        throws: &[Throw],
    ) -> Result<T::State, T::Error> {
        let mut state = start;
        for (i, throw) in throws.iter().enumerate() {
            let k = steps.key(i, &state);
            let outer = (std::mem::take(&mut self.path), self.at, self.weight);
            self.path = throw
                .iter()
                .map(|&choice| Step {
                    choice,
                    choices: choice + 1,
                })
                .collect();
            self.begin_path();
            let effect = steps.draw(i, &k, self);
            (self.path, self.at, self.weight) = outer;
            state = steps.apply(state, i, &effect?);
        }
        Ok(state)
    }

    /// What `f` returns for the paths of its dice, each result once with
    /// the weight of the paths that give it and the dice of the first
    /// path that gives it; walked apart from the path the caller is on.
    fn walk<T: Clone + Eq + std::hash::Hash, Er>(
        &mut self,
        mut f: impl FnMut(&mut dyn DiceSource) -> Result<T, Er>,
    ) -> Result<Walked<T>, Er> {
        let outer = (std::mem::take(&mut self.path), self.at, self.weight);
        let mut results = Distribution::new();
        let mut throws = Vec::new();
        let walked = self.each_path(|dice| {
            let t = f(dice)?;
            if results.add(t, dice.path_weight()) {
                throws.push(dice.path[..dice.at].iter().map(|s| s.choice).collect());
            }
            Ok(())
        });
        (self.path, self.at, self.weight) = outer;
        walked.map(|()| Walked { results, throws })
    }

    /// Run `visit` once for every path of the dice it draws; each run may
    /// read its path's weight with [`Enumerator::path_weight`].
    pub(crate) fn each_path<Er>(
        &mut self,
        mut visit: impl FnMut(&mut Enumerator) -> Result<(), Er>,
    ) -> Result<(), Er> {
        loop {
            self.begin_path();
            visit(self)?;
            if !self.advance() {
                return Ok(());
            }
        }
    }

    /// The probability of the path walked so far.
    pub(crate) fn path_weight(&self) -> Prob {
        self.weight.unwrap_or(Prob::ONE)
    }
}

impl DiceSource for Enumerator {
    fn roll(&mut self, sides: u32) -> Result<Rolled, DiceError> {
        let weights = self
            .faces
            .entry(sides)
            .or_insert_with(|| vec![Prob::ratio(1, u128::from(sides)); sides as usize].into())
            .clone();
        let face = self.branch(&weights) as u32 + 1;
        Ok(Rolled {
            sides,
            face,
            entered: false,
        })
    }

    fn sum(&mut self, n: u32, sides: u32) -> Result<Sum, DiceError> {
        within_totals(n, sides)?;
        if n == 0 {
            return Ok(Sum {
                dice: Vec::new(),
                total: 0,
            });
        }
        let dist = self.sum_dist(n, sides);
        let choice = self.branch(&dist.weights);
        Ok(Sum {
            dice: Vec::new(),
            total: dist.table[choice].0,
        })
    }

    fn reroll_above(
        &mut self,
        sides: u32,
        max: u32,
        _limit: u32,
    ) -> Result<Vec<Rolled>, DiceError> {
        // Throwing again above `max` leaves each face up to `max` equally likely.
        let max = max.clamp(1, sides);
        let face = self.branch(&vec![Prob::ratio(1, u128::from(max)); max as usize]) as u32 + 1;
        Ok(vec![Rolled {
            sides,
            face,
            entered: false,
        }])
    }

    fn pool2(&mut self, n: u32, sides: u32, low: u32, high: u32) -> Result<Pool2, DiceError> {
        crate::dice::within_limit(n)?;
        let pairs = (u64::from(n) + 1) * (u64::from(n) + 2) / 2;
        within_outcomes(
            n,
            sides,
            pairs,
            "pairs of counts (hits, and hits on the second score)",
        )?;
        let high = high.max(low);
        let table = self
            .pools2
            .entry((n, sides, low, high))
            .or_insert_with(|| Rc::new(pool2_distribution(n, sides, low, high)))
            .clone();
        let (choices, weights) = &*table;
        let (low, high) = choices[self.branch(weights)];
        Ok(Pool2 {
            dice: Vec::new(),
            low,
            high,
        })
    }

    fn contest(&mut self, a: u32, b: u32, sides: u32) -> Result<Contest, DiceError> {
        within_totals(a, sides)?;
        within_totals(b, sides)?;
        // P(a > b), P(a < b) and P(a = b) from the two sum distributions,
        // against a running total of b's distribution: linear, not pairwise.
        let weights = match self.contests.get(&(a, b, sides)) {
            Some(w) => *w,
            None => {
                let (ta, tb) = (self.sum_dist(a, sides), self.sum_dist(b, sides));
                let w = contest_weights(&ta.table, &tb.table, a, b, sides);
                self.contests.insert((a, b, sides), w);
                w
            }
        };
        let order = [
            std::cmp::Ordering::Greater,
            std::cmp::Ordering::Less,
            std::cmp::Ordering::Equal,
        ][self.branch(&weights)];
        let empty = || Sum {
            dice: Vec::new(),
            total: 0,
        };
        Ok(Contest {
            a: empty(),
            b: empty(),
            order,
        })
    }

    fn tie_break(&mut self, _n: u32, _sides: u32) -> Result<TieBreak, DiceError> {
        // Both sides throw the same dice, so each wins the decided round
        // with probability one half, however many draws it takes.
        let a_wins = self.branch(&[Prob::ratio(1, 2), Prob::ratio(1, 2)]) == 0;
        Ok(TieBreak {
            rounds: Vec::new(),
            a_wins,
        })
    }

    fn roll_against(&mut self, sides: u32, scores: &[u32]) -> Result<Rolled, DiceError> {
        let by_scores = self.bands.entry(sides).or_default();
        let table = match by_scores.get(scores) {
            Some(t) => t.clone(),
            None => {
                let bands = bands(1, sides, scores);
                let t = Rc::new((
                    bands.iter().map(|&(face, _)| face).collect(),
                    bands
                        .iter()
                        .map(|&(_, width)| Prob::ratio(u128::from(width), u128::from(sides)))
                        .collect(),
                ));
                by_scores.insert(scores.to_vec(), t.clone());
                t
            }
        };
        let face = table.0[self.branch(&table.1)];
        Ok(Rolled {
            sides,
            face,
            entered: false,
        })
    }

    fn opposed(&mut self, sides: u32, edge: i64) -> Result<[Rolled; 2], DiceError> {
        let table = self
            .opposed
            .entry((sides, edge))
            .or_insert_with(|| {
                let orders = opposed_orders(sides, edge);
                let pairs = u128::from(sides) * u128::from(sides);
                Rc::new((
                    orders.iter().map(|&(_, faces, _)| faces).collect(),
                    orders
                        .iter()
                        .map(|&(_, _, ways)| Prob::ratio(ways, pairs))
                        .collect(),
                ))
            })
            .clone();
        let faces = table.0[self.branch(&table.1)];
        Ok(faces.map(|face| Rolled {
            sides,
            face,
            entered: false,
        }))
    }

    fn pool_each(&mut self, sides: u32, scores: &[u32]) -> Result<Pool, DiceError> {
        let n = u32::try_from(scores.len()).unwrap_or(u32::MAX);
        crate::dice::within_limit(n)?;
        within_outcomes(n, sides, u64::from(n) + 1, "counts of successes")?;
        let by_scores = self.pools_each.entry(sides).or_default();
        let weights = match by_scores.get(scores) {
            Some(w) => w.clone(),
            None => {
                let w: Rc<[Prob]> = pool_each_distribution(sides, scores).into();
                by_scores.insert(scores.to_vec(), w.clone());
                w
            }
        };
        let successes = self.branch(&weights) as u32;
        Ok(Pool {
            dice: Vec::new(),
            successes,
        })
    }

    fn pool_against(
        &mut self,
        n: u32,
        sides: u32,
        at_least: u32,
        cuts: &[u32],
    ) -> Result<PoolBand, DiceError> {
        crate::dice::within_limit(n)?;
        let cached = self
            .pool_bands
            .get(&(n, sides, at_least))
            .and_then(|by_cuts| by_cuts.get(cuts))
            .cloned();
        let table = match cached {
            Some(t) => t,
            None => {
                let counts = self.pool_table(n, sides, at_least);
                let t = Rc::new(pool_band_table(&counts, cuts));
                self.pool_bands
                    .entry((n, sides, at_least))
                    .or_default()
                    .insert(cuts.to_vec(), t.clone());
                t
            }
        };
        let (successes, mean) = table.0[self.branch(&table.1)];
        Ok(PoolBand {
            pool: Pool {
                dice: Vec::new(),
                successes,
            },
            mean,
        })
    }

    fn enumerator(&mut self) -> Option<&mut Enumerator> {
        Some(self)
    }

    fn pool(&mut self, n: u32, sides: u32, at_least: u32) -> Result<Pool, DiceError> {
        crate::dice::within_limit(n)?;
        within_outcomes(n, sides, u64::from(n) + 1, "counts of successes")?;
        let weights = self.pool_table(n, sides, at_least);
        let successes = self.branch(&weights) as u32;
        Ok(Pool {
            dice: Vec::new(),
            successes,
        })
    }
}
