//! A dice source that counts the dice thrown through it, every draw
//! passed on as it is.

use super::{Contest, DiceSource, Enumerator, Pool, Pool2, PoolBand, Rolled, Sum, TieBreak};
use crate::error::DiceError;

/// How a throw repeated until it differs or shows low enough (a tie
/// broken, a movement die thrown again) is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Repeats {
    /// Each die thrown, and the enumerator passed on (under `odds` it
    /// still sees each draw whole): the dice one line threw.
    Each,
    /// Once, with no shortcut of the enumerator's to hide a die: a path
    /// walked for the most dice a line can throw, where no table throws
    /// the dice of a repeat before it sees it is needed.
    Once,
}

/// `inner` with the dice thrown through it counted.
pub(crate) struct Counted<'a> {
    inner: &'a mut dyn DiceSource,
    thrown: usize,
    repeats: Repeats,
}

impl<'a> Counted<'a> {
    pub(crate) fn new(inner: &'a mut dyn DiceSource, repeats: Repeats) -> Counted<'a> {
        Counted {
            inner,
            thrown: 0,
            repeats,
        }
    }

    /// The dice thrown so far.
    pub(crate) fn thrown(&self) -> usize {
        self.thrown
    }

    fn add(&mut self, n: impl TryInto<usize>) {
        self.thrown = self
            .thrown
            .saturating_add(n.try_into().unwrap_or(usize::MAX));
    }
}

impl DiceSource for Counted<'_> {
    fn roll(&mut self, sides: u32) -> Result<Rolled, DiceError> {
        self.add(1);
        self.inner.roll(sides)
    }

    fn roll_many(&mut self, n: u32, sides: u32) -> Result<Vec<Rolled>, DiceError> {
        self.add(n);
        self.inner.roll_many(n, sides)
    }

    fn sum(&mut self, n: u32, sides: u32) -> Result<Sum, DiceError> {
        self.add(n);
        self.inner.sum(n, sides)
    }

    fn pool2(&mut self, n: u32, sides: u32, low: u32, high: u32) -> Result<Pool2, DiceError> {
        self.add(n);
        self.inner.pool2(n, sides, low, high)
    }

    fn contest(&mut self, a: u32, b: u32, sides: u32) -> Result<Contest, DiceError> {
        self.add(a.saturating_add(b));
        self.inner.contest(a, b, sides)
    }

    fn reroll_above(&mut self, sides: u32, max: u32, limit: u32) -> Result<Vec<Rolled>, DiceError> {
        let thrown = self.inner.reroll_above(sides, max, limit)?;
        self.add(match self.repeats {
            Repeats::Each => thrown.len(),
            Repeats::Once => 1,
        });
        Ok(thrown)
    }

    fn tie_break(&mut self, n: u32, sides: u32) -> Result<TieBreak, DiceError> {
        let tie = self.inner.tie_break(n, sides)?;
        let rounds = match self.repeats {
            Repeats::Each => tie.rounds.len(),
            Repeats::Once => 1,
        };
        self.add(rounds.saturating_mul(2usize.saturating_mul(n as usize)));
        Ok(tie)
    }

    fn roll_against(&mut self, sides: u32, scores: &[u32]) -> Result<Rolled, DiceError> {
        self.add(1);
        self.inner.roll_against(sides, scores)
    }

    fn opposed(&mut self, sides: u32, edge: i64) -> Result<[Rolled; 2], DiceError> {
        self.add(2);
        self.inner.opposed(sides, edge)
    }

    fn pool_each(&mut self, sides: u32, scores: &[u32]) -> Result<Pool, DiceError> {
        self.add(scores.len());
        self.inner.pool_each(sides, scores)
    }

    fn pool_against(
        &mut self,
        n: u32,
        sides: u32,
        at_least: u32,
        cuts: &[u32],
    ) -> Result<PoolBand, DiceError> {
        self.add(n);
        self.inner.pool_against(n, sides, at_least, cuts)
    }

    fn enumerator(&mut self) -> Option<&mut Enumerator> {
        match self.repeats {
            Repeats::Each => self.inner.enumerator(),
            Repeats::Once => None,
        }
    }

    fn unneeded(&mut self, count: u32) -> Vec<u32> {
        self.inner.unneeded(count)
    }

    fn pool(&mut self, n: u32, sides: u32, at_least: u32) -> Result<Pool, DiceError> {
        self.add(n);
        self.inner.pool(n, sides, at_least)
    }
}
