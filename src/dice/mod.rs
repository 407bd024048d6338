//! Where dice come from: faces the player entered, then a seeded RNG.
//!
//! Resolvers never touch an RNG directly; they ask a [`DiceSource`] for one
//! die, a sum, or a pool counted against a score. That keeps entered dice,
//! seeded rolls and (for `odds`) exact enumeration behind one interface, so a
//! procedure is written once.

use std::collections::VecDeque;
use std::fmt;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

mod counted;
mod distributions;
mod enumerate;
mod most;

pub(crate) use counted::{Counted, Repeats};
pub(crate) use enumerate::{Enumerator, MAX_PATHS};
pub(crate) use most::most_thrown;

use crate::command::{EnteredDie, Span};
use crate::error::DiceError;

/// The generator behind every rolled die: PCG-64 (XSL 128/64, the `rand_pcg`
/// crate), seeded with `seed_from_u64`. Named here so that a seed gives the
/// same dice on every platform.
pub(crate) type Generator = Pcg64;

/// A seed for sessions not given one (no `--seed`; the server's): different
/// every run, below a billion, and reported with each roll so any roll can
/// be reproduced. From the clock and the process, so for the native
/// program only: the pocket page gives every line its seed.
#[cfg(feature = "native")]
pub(crate) fn entropy_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let pid = u64::from(std::process::id());
    // SplitMix64 finaliser: spreads the bits so nearby times differ widely.
    let mut z = nanos ^ pid.rotate_left(32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % 1_000_000_000
}

pub(crate) use crate::limits::{MAX_DICE_PER_ROLL, MAX_TABLE_DICE, MAX_TABLE_FIXED};

pub(crate) use crate::answer::Rolled;

/// Dice summed: `3D6` for a distance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sum {
    /// The dice for display. An enumerating source (for `odds`) may leave
    /// this empty: resolvers must decide only on `total`.
    pub(crate) dice: Vec<Rolled>,
    pub(crate) total: i64,
}

/// A pool counted against a score: dice at or above `at_least` succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    /// The dice for display; may be empty under enumeration (see [`Sum`]).
    pub(crate) dice: Vec<Rolled>,
    pub(crate) successes: u32,
}

/// A pool read against two scores; see [`DiceSource::pool2`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool2 {
    /// The dice for display; may be empty under enumeration.
    pub(crate) dice: Vec<Rolled>,
    pub(crate) low: u32,
    pub(crate) high: u32,
}

/// Two totals compared. Under enumeration the sums may be empty and zero:
/// only `order` is to be decided on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contest {
    pub(crate) a: Sum,
    pub(crate) b: Sum,
    pub(crate) order: std::cmp::Ordering,
}

/// No draw may throw more dice than [`MAX_DICE_PER_ROLL`], whatever a
/// house-rule table multiplies a pool by.
pub(crate) fn within_limit(n: u32) -> Result<(), DiceError> {
    if u64::from(n) > MAX_DICE_PER_ROLL {
        return Err(DiceError::TooManyToRoll {
            span: Span::default(),
            count: u64::from(n),
            max: MAX_DICE_PER_ROLL,
        });
    }
    Ok(())
}

/// A pool whose count of successes is compared with other numbers and
/// nothing else; see [`DiceSource::pool_against`].
#[derive(Debug, Clone, PartialEq)]
pub struct PoolBand {
    pub(crate) pool: Pool,
    /// The average count of successes over the band the pool landed in:
    /// with real dice the count itself; under enumeration what keeps the
    /// expected count exact although one count stands for the band.
    pub(crate) mean: f64,
}

/// Draws repeated until the two sides differ (initiative ties).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieBreak {
    /// Each round's totals, side a then side b; may be empty under enumeration.
    pub(crate) rounds: Vec<(Sum, Sum)>,
    pub(crate) a_wins: bool,
}

/// A run of drawn rounds this long does not happen with real dice; with
/// entered dice it means the player keeps typing ties.
pub(crate) const MAX_TIE_ROUNDS: usize = 1000;

/// Every draw a resolver makes goes through one of these methods. A
/// resolver must decide only on what they return (never on the dice
/// vectors' length or order beyond display), so that an enumerating source
/// can stand in for real dice and give exact odds.
pub trait DiceSource {
    /// One die of `sides` faces.
    fn roll(&mut self, sides: u32) -> Result<Rolled, DiceError>;

    /// `n` dice, each kept, for procedures that read every face.
    fn roll_many(&mut self, n: u32, sides: u32) -> Result<Vec<Rolled>, DiceError> {
        within_limit(n)?;
        // Room for all at once (at most the limit's): collecting results
        // would grow the list die by die.
        let mut dice = Vec::with_capacity(n as usize);
        for _ in 0..n {
            dice.push(self.roll(sides)?);
        }
        Ok(dice)
    }

    /// `n` dice summed.
    fn sum(&mut self, n: u32, sides: u32) -> Result<Sum, DiceError> {
        within_limit(n)?;
        let dice = self.roll_many(n, sides)?;
        let total = dice.iter().map(|d| i64::from(d.face)).sum();
        Ok(Sum { dice, total })
    }

    /// `n` dice read against two scores at once (`low` ≤ `high`): how many
    /// show `low` or more, and how many of those show `high` or more —
    /// artillery hits and the bounce against a second target.
    fn pool2(&mut self, n: u32, sides: u32, low: u32, high: u32) -> Result<Pool2, DiceError> {
        within_limit(n)?;
        let dice = self.roll_many(n, sides)?;
        let count = |score: u32| dice.iter().filter(|d| d.face >= score).count() as u32;
        let (low, high) = (count(low), count(high.max(low)));
        Ok(Pool2 { dice, low, high })
    }

    /// Two sides throw `a` and `b` dice and compare totals. Resolvers that
    /// only need who is higher use this, so `odds` can compare the two
    /// distributions at once instead of walking every pair of totals.
    fn contest(&mut self, a: u32, b: u32, sides: u32) -> Result<Contest, DiceError> {
        let a = self.sum(a, sides)?;
        let b = self.sum(b, sides)?;
        let order = a.total.cmp(&b.total);
        Ok(Contest { a, b, order })
    }

    /// One die thrown again while it shows more than `max` (at most
    /// `limit` throws): every throw, the kept one last.
    fn reroll_above(&mut self, sides: u32, max: u32, limit: u32) -> Result<Vec<Rolled>, DiceError> {
        let mut thrown = Vec::new();
        while thrown.len() < limit as usize {
            let die = self.roll(sides)?;
            thrown.push(die);
            if die.face <= max {
                return Ok(thrown);
            }
        }
        Err(DiceError::EndlessRerolls { rolls: limit, max })
    }

    /// Both sides throw `n` dice, again and again until the totals differ.
    fn tie_break(&mut self, n: u32, sides: u32) -> Result<TieBreak, DiceError> {
        let mut rounds = Vec::new();
        while rounds.len() < MAX_TIE_ROUNDS {
            let a = self.sum(n, sides)?;
            let b = self.sum(n, sides)?;
            let decided = a.total != b.total;
            let a_wins = a.total > b.total;
            rounds.push((a, b));
            if decided {
                return Ok(TieBreak { rounds, a_wins });
            }
        }
        Err(DiceError::EndlessTies {
            rounds: MAX_TIE_ROUNDS,
        })
    }

    /// One die whose face is only ever compared with `scores` (a results
    /// die against an armament, a courage die against a value): what counts
    /// is which band between the scores it lands in. An enumerating source
    /// branches once per band and hands back the band's lowest face, so a
    /// resolver may compare the face with those scores and nothing else.
    fn roll_against(&mut self, sides: u32, _scores: &[u32]) -> Result<Rolled, DiceError> {
        self.roll(sides)
    }

    /// An opposed roll: a die for each side, the first side's face plus
    /// `edge` against the second's. A resolver may decide only on which
    /// side is higher; under enumeration the faces are one pair that gives
    /// that order.
    fn opposed(&mut self, sides: u32, _edge: i64) -> Result<[Rolled; 2], DiceError> {
        Ok([self.roll(sides)?, self.roll(sides)?])
    }

    /// One die for each score, each counted when it shows its own score or
    /// more: every figure of a group checking against its own courage.
    fn pool_each(&mut self, sides: u32, scores: &[u32]) -> Result<Pool, DiceError> {
        within_limit(u32::try_from(scores.len()).unwrap_or(u32::MAX))?;
        let dice = self.roll_many(scores.len() as u32, sides)?;
        let successes = dice
            .iter()
            .zip(scores)
            .filter(|(d, s)| d.face >= **s)
            .count() as u32;
        Ok(Pool { dice, successes })
    }

    /// `n` dice counted against a score, where the count of successes is
    /// only compared with `cuts` (the other side's hits, to see who won):
    /// what counts is which band between the cuts it lands in. As with
    /// [`DiceSource::roll_against`], an enumerating source branches once
    /// per band and hands back the band's lowest count.
    fn pool_against(
        &mut self,
        n: u32,
        sides: u32,
        at_least: u32,
        _cuts: &[u32],
    ) -> Result<PoolBand, DiceError> {
        let pool = self.pool(n, sides, at_least)?;
        let mean = f64::from(pool.successes);
        Ok(PoolBand { pool, mean })
    }

    /// The enumerating source behind `odds`, for [`run_steps`], which
    /// walks more than one path at a time.
    fn enumerator(&mut self) -> Option<&mut Enumerator> {
        None
    }

    /// Dice the procedure throws only when an earlier die allows, and this
    /// time did not (the impact die after a miss): entered ones are taken
    /// and given back as not needed, so that typing every die a procedure
    /// may throw is never an error. Rolled or enumerated dice: none.
    fn unneeded(&mut self, _count: u32) -> Vec<u32> {
        Vec::new()
    }

    /// `n` dice counted against a score.
    fn pool(&mut self, n: u32, sides: u32, at_least: u32) -> Result<Pool, DiceError> {
        within_limit(n)?;
        let dice = self.roll_many(n, sides)?;
        let successes = dice.iter().filter(|d| d.face >= at_least).count() as u32;
        Ok(Pool { dice, successes })
    }
}

/// Steps taken in turn, each with dice of its own, that change a state:
/// one figure's combats against several opponents. [`Steps::draw`]
/// throws step `i`'s dice; what it throws and what it returns must follow
/// from [`Steps::key`] alone, whatever the step. [`Steps::apply`] folds
/// what it drew into the state.
pub(crate) trait Steps {
    type State: Clone + Eq + std::hash::Hash + 'static;
    type Key: Eq + std::hash::Hash;
    type Effect: Clone + Eq + std::hash::Hash;
    type Error;

    fn count(&self) -> usize;
    fn key(&self, i: usize, state: &Self::State) -> Self::Key;
    fn draw(
        &mut self,
        i: usize,
        key: &Self::Key,
        dice: &mut dyn DiceSource,
    ) -> Result<Self::Effect, Self::Error>;
    fn apply(&self, state: Self::State, i: usize, effect: &Self::Effect) -> Self::State;
}

/// Run `steps` from `start`. With real dice the steps simply run in order.
/// An enumerating source instead walks the dice once per key and carries
/// the distribution of states forward, so eight combats of five ways each
/// cost a few walks, not 5^8 paths; the resolver then decides on the final
/// state alone.
pub(crate) fn run_steps<T: Steps>(
    dice: &mut dyn DiceSource,
    start: T::State,
    steps: &mut T,
) -> Result<T::State, T::Error> {
    if let Some(enumerator) = dice.enumerator() {
        return enumerator.run_steps(start, steps);
    }
    let mut state = start;
    for i in 0..steps.count() {
        let effect = steps.draw(i, &steps.key(i, &state), dice)?;
        state = steps.apply(state, i, &effect);
    }
    Ok(state)
}

/// Entered faces first, in order; the rest from the generator.
pub(crate) struct Dice {
    entered: VecDeque<EnteredDie>,
    entered_total: usize,
    /// The generator, seeded at the first die it throws: a line of
    /// entered faces never needs it.
    rng: Option<Generator>,
    seed: u64,
    rolled_any: bool,
    /// Dice the generator has thrown.
    thrown: u64,
    /// Where the entered faces stand on the line, for an error about them.
    entered_span: Span,
    /// Refuse a draw past the entered faces instead of rolling it.
    refuse_short: bool,
}

impl Dice {
    pub(crate) fn new(entered: &[EnteredDie], seed: u64) -> Dice {
        Dice {
            entered: entered.iter().copied().collect(),
            entered_total: entered.len(),
            rng: None,
            seed,
            rolled_any: false,
            thrown: 0,
            entered_span: match (entered.first(), entered.last()) {
                (Some(first), Some(last)) => Span::new(first.span.start, last.span.end),
                _ => Span::default(),
            },
            refuse_short: false,
        }
    }

    /// Entered faces that must be enough: a draw past them is refused
    /// with [`DiceError::TooFew`] rather than rolled (a line's `rolled`
    /// without `roll-rest`). With no faces entered everything is rolled.
    pub(crate) fn entered_only(entered: &[EnteredDie], seed: u64) -> Dice {
        Dice {
            refuse_short: !entered.is_empty(),
            ..Dice::new(entered, seed)
        }
    }

    /// Whether any die came from the generator (then the seed matters).
    pub(crate) fn rolled_any(&self) -> bool {
        self.rolled_any
    }

    /// How many dice the generator has thrown (entered ones not counted):
    /// the work of a roll, which `simulate` is bounded by.
    pub(crate) fn thrown(&self) -> u64 {
        self.thrown
    }

    /// Entered faces the procedure never asked for.
    pub(crate) fn leftover(&self) -> &VecDeque<EnteredDie> {
        &self.entered
    }

    /// After a resolution: entered dice must all have been used.
    pub(crate) fn check_all_used(&self) -> Result<(), DiceError> {
        match self.entered.front() {
            None => Ok(()),
            Some(first) => {
                let extra = self.entered.len();
                let last = self.entered.back().map_or(first.span, |d| d.span);
                Err(DiceError::TooMany {
                    span: Span::new(first.span.start, last.end),
                    entered: self.entered_total,
                    used: self.entered_total - extra,
                    extra,
                    most: None,
                })
            }
        }
    }
}

impl DiceSource for Dice {
    fn unneeded(&mut self, count: u32) -> Vec<u32> {
        let mut faces = Vec::new();
        for _ in 0..count {
            match self.entered.pop_front() {
                Some(die) => faces.push(die.face),
                None => break,
            }
        }
        faces
    }

    fn roll(&mut self, sides: u32) -> Result<Rolled, DiceError> {
        if let Some(die) = self.entered.pop_front() {
            if die.face == 0 || die.face > sides {
                return Err(DiceError::FaceOutOfRange {
                    span: die.span,
                    face: die.face,
                    sides,
                });
            }
            return Ok(Rolled {
                sides,
                face: die.face,
                entered: true,
            });
        }
        if self.refuse_short {
            // What the missing die is for is known to the caller, which
            // runs the line again with the rest rolled to find out.
            return Err(DiceError::TooFew {
                span: self.entered_span,
                entered: self.entered_total,
                needed: None,
                missing: format!("a d{sides} more is needed"),
                typed: String::new(),
            });
        }
        self.rolled_any = true;
        self.thrown += 1;
        Ok(Rolled {
            sides,
            face: self
                .rng
                .get_or_insert_with(|| Generator::seed_from_u64(self.seed))
                .random_range(1..=sides),
            entered: false,
        })
    }
}

/// A fixed amount plus dice, as the tables write it: `2+1D6`, `3D6`, `10BW`.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(try_from = "String")]
pub struct DiceExpr {
    pub(crate) fixed: i64,
    /// (count, sides)
    pub(crate) dice: Vec<(u32, u32)>,
    /// How it is shown ("3 + 2D6"), worked out once.
    pub(crate) text: String,
}

impl DiceExpr {
    pub(crate) fn is_fixed(&self) -> bool {
        self.dice.is_empty()
    }

    /// Read the tables' notation. Spaces are ignored, `D` may be either case,
    /// and a trailing unit (`BW`, `"`) is dropped.
    pub(crate) fn parse(text: &str) -> Result<DiceExpr, String> {
        let compact: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase();
        let body = compact
            .strip_suffix("BW")
            .or_else(|| compact.strip_suffix('"'))
            .unwrap_or(&compact);
        if body.is_empty() {
            return Err(format!("`{text}` is not a dice expression like `2+1D6`"));
        }
        let mut expr = DiceExpr::default();
        let mut count_all: u32 = 0;
        for term in body.split('+') {
            let bad = || format!("`{text}` is not a dice expression like `2+1D6` or `3D6`");
            match term.split_once('D') {
                Some((count, sides)) => {
                    let count: u32 = if count.is_empty() {
                        1
                    } else {
                        count.parse().map_err(|_| bad())?
                    };
                    let sides: u32 = sides.parse().map_err(|_| bad())?;
                    if count == 0 || !(2..=100).contains(&sides) {
                        return Err(bad());
                    }
                    // A house rule's typo (`600D6`) must not make every
                    // roll, and `odds`, throw a heap of dice.
                    count_all = count_all.saturating_add(count);
                    if count_all > MAX_TABLE_DICE {
                        return Err(format!(
                            "`{text}` throws more than {MAX_TABLE_DICE} dice: a table's dice expression may throw at most that many"
                        ));
                    }
                    expr.dice.push((count, sides));
                }
                None => {
                    let n = term.parse::<i64>().map_err(|_| bad())?;
                    expr.fixed = expr.fixed.checked_add(n).ok_or_else(bad)?;
                    if expr.fixed.abs() > MAX_TABLE_FIXED {
                        return Err(format!(
                            "`{text}`: a fixed amount in a table may be at most {MAX_TABLE_FIXED}"
                        ));
                    }
                }
            }
        }
        expr.text = expr.describe();
        Ok(expr)
    }

    /// Roll every die; returns the dice and the total.
    pub(crate) fn roll(&self, dice: &mut dyn DiceSource) -> Result<(Vec<Rolled>, i64), DiceError> {
        let mut rolled = Vec::new();
        let mut total = self.fixed;
        for &(count, sides) in &self.dice {
            let sum = dice.sum(count, sides)?;
            total += sum.total;
            // The first kind's dice are taken as they are (most expressions
            // have one kind), the others added after them.
            if rolled.is_empty() {
                rolled = sum.dice;
            } else {
                rolled.extend(sum.dice);
            }
        }
        Ok((rolled, total))
    }
}

/// Several expressions thrown for one total: a Mayhem move of 3d6", with
/// 2d6" more when mounted and 1d6" more for a hero. Neighbouring dice of the
/// same kind are one draw, so `odds` convolves them once instead of walking
/// every total of each part; the faces are then dealt back to each
/// expression in the order thrown. Returns each expression's dice (empty
/// under enumeration) and the total.
pub(crate) fn roll_together(
    exprs: &[&DiceExpr],
    dice: &mut dyn DiceSource,
) -> Result<(Vec<Vec<Rolled>>, i64), DiceError> {
    let terms: Vec<(usize, u32, u32)> = exprs
        .iter()
        .enumerate()
        .flat_map(|(i, e)| e.dice.iter().map(move |&(count, sides)| (i, count, sides)))
        .collect();
    let mut each = vec![Vec::new(); exprs.len()];
    let mut total: i64 = exprs.iter().map(|e| e.fixed).sum();
    let mut start = 0;
    while let Some(&(_, _, sides)) = terms.get(start) {
        let run = terms[start..]
            .iter()
            .take_while(|&&(_, _, s)| s == sides)
            .count();
        let count = terms[start..start + run]
            .iter()
            .fold(0u32, |n, &(_, c, _)| n.saturating_add(c));
        let sum = dice.sum(count, sides)?;
        total += sum.total;
        let mut faces = sum.dice.into_iter();
        for &(i, c, _) in &terms[start..start + run] {
            each[i].extend(faces.by_ref().take(c as usize));
        }
        start += run;
    }
    Ok((each, total))
}

impl DiceExpr {
    fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.fixed != 0 || self.dice.is_empty() {
            parts.push(self.fixed.to_string());
        }
        for (count, sides) in &self.dice {
            parts.push(format!("{count}D{sides}"));
        }
        parts.join(" + ")
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl TryFrom<String> for DiceExpr {
    type Error = String;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        DiceExpr::parse(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_notation() {
        let e = DiceExpr::parse("3+ 2D6").unwrap();
        assert_eq!(e.fixed, 3);
        assert_eq!(e.dice, vec![(2, 6)]);
        assert_eq!(e.to_string(), "3 + 2D6");
        assert_eq!(DiceExpr::parse("10BW").unwrap().fixed, 10);
        assert_eq!(DiceExpr::parse("1D3").unwrap().dice, vec![(1, 3)]);
        assert!(DiceExpr::parse("cannot").is_err());
        assert!(DiceExpr::parse("0D6").is_err());
    }

    #[test]
    fn entered_faces_are_checked_against_the_die() {
        let entered = [EnteredDie {
            face: 4,
            span: Span::new(0, 1),
        }];
        let mut dice = Dice::new(&entered, 1);
        assert!(matches!(
            dice.roll(3),
            Err(DiceError::FaceOutOfRange {
                face: 4,
                sides: 3,
                ..
            })
        ));
    }

    #[test]
    fn too_few_entered_faces_are_refused_not_rolled() {
        let entered = [EnteredDie {
            face: 4,
            span: Span::new(0, 1),
        }];
        let mut dice = Dice::entered_only(&entered, 1);
        assert_eq!(dice.roll(6).map(|d| d.face), Ok(4));
        assert!(matches!(
            dice.roll(6),
            Err(DiceError::TooFew { entered: 1, .. })
        ));
        assert!(!dice.rolled_any());
        // Nothing entered: every die is rolled, as before.
        let mut none = Dice::entered_only(&[], 1);
        assert!(none.roll(6).is_ok());
    }

    #[test]
    fn the_same_seed_gives_the_same_dice() {
        let faces = |seed| {
            let mut dice = Dice::new(&[], seed);
            (0..20)
                .map(|_| dice.roll(6).unwrap().face)
                .collect::<Vec<_>>()
        };
        assert_eq!(faces(42), faces(42));
        assert_ne!(faces(42), faces(43));
        assert!(faces(7).iter().all(|f| (1..=6).contains(f)));
    }
}
