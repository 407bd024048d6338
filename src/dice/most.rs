//! The most dice a procedure can throw, over every way the dice can fall:
//! what tells a die entered for a step the result did not reach (taken,
//! and said to be unused) from a die no outcome could use (refused).

use super::counted::{Counted, Repeats};
use super::{DiceSource, Enumerator};

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
        // A repeat counts once: no table throws the dice of a repeat
        // before it sees it is needed.
        let mut counting = Counted::new(path, Repeats::Once);
        run(&mut counting).map_err(|_| ())?;
        most = most.max(u64::try_from(counting.thrown()).unwrap_or(u64::MAX));
        Ok(())
    });
    finished.ok().map(|()| most)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DiceError;

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
