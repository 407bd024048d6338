//! The most dice a procedure can throw, over every way the dice can fall:
//! what tells a die entered for a step the result did not reach (taken,
//! and said to be unused) from a die no outcome could use (refused).

use super::{Contest, DiceSource, Enumerator, Pool, Pool2, PoolBand, Rolled, Sum, TieBreak};
use crate::error::DiceError;

/// The enumerator with the dice of the path walked counted. A throw
/// repeated until it differs or shows low enough (a tie broken, a
/// movement die thrown again) counts once: no table throws the dice of a
/// repeat before it sees it is needed.
struct Counting<'a> {
    inner: &'a mut Enumerator,
    thrown: u64,
}

impl Counting<'_> {
    fn add(&mut self, n: u32) {
        self.thrown = self.thrown.saturating_add(u64::from(n));
    }
}

impl DiceSource for Counting<'_> {
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
        self.add(1);
        self.inner.reroll_above(sides, max, limit)
    }

    fn tie_break(&mut self, n: u32, sides: u32) -> Result<TieBreak, DiceError> {
        self.add(n.saturating_mul(2));
        self.inner.tie_break(n, sides)
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
        self.add(u32::try_from(scores.len()).unwrap_or(u32::MAX));
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

    // Steps are walked one path at a time here, each die counted: the
    // enumerator's shortcut over them would hide their dice.
    fn enumerator(&mut self) -> Option<&mut Enumerator> {
        None
    }

    fn pool(&mut self, n: u32, sides: u32, at_least: u32) -> Result<Pool, DiceError> {
        self.add(n);
        self.inner.pool(n, sides, at_least)
    }
}

/// The most dice `run` throws on any way the dice can fall, walking at
/// most `paths` ways; `None` when a way fails or there are more ways than
/// that (then nobody can say, and extra entered dice are refused).
pub(crate) fn most_thrown<E>(
    paths: usize,
    mut run: impl FnMut(&mut dyn DiceSource) -> Result<(), E>,
) -> Option<u64> {
    let mut source = Enumerator::default();
    let mut walked = 0usize;
    let mut most = 0u64;
    let finished = source.each_path(|path| {
        if walked >= paths {
            return Err(());
        }
        walked += 1;
        let mut counting = Counting {
            inner: path,
            thrown: 0,
        };
        run(&mut counting).map_err(|_| ())?;
        most = most.max(counting.thrown);
        Ok(())
    });
    finished.ok().map(|()| most)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_is_over_every_way_the_dice_fall() {
        // One die, and two more only on a six: at most three.
        let most = most_thrown(1000, |dice| {
            let first = dice.roll(6)?;
            if first.face == 6 {
                dice.sum(2, 6)?;
            }
            Ok::<(), DiceError>(())
        });
        assert_eq!(most, Some(3));
        // A failing way: nobody can say.
        let failed = most_thrown(1000, |dice| {
            dice.roll(6)?;
            Err::<(), DiceError>(DiceError::EndlessTies { rounds: 1 })
        });
        assert_eq!(failed, None);
        // More ways than allowed: nobody can say.
        let many = most_thrown(3, |dice| dice.roll(6).map(|_| ()));
        assert_eq!(many, None);
    }
}
