//! Entered dice a line did not throw. A table often throws the dice of a
//! procedure together (the combat and the morale die), and reads a die
//! only when the result calls for its step: such a die is taken and said
//! to be unused. More dice than any outcome of the line throws are
//! refused.

use super::Session;
use crate::answer::resolution::Resolution;
use crate::command::{Command, Span, System};
use crate::dice::{Dice, MAX_PATHS, most_thrown};
use crate::error::{CommandError, DiceError};

impl Session {
    /// After a line resolved with dice after `rolled`: the ones it did not
    /// throw are noted as unused (and listed in JSON `unused_dice`) when
    /// some outcome of the line throws as many as were entered, and
    /// refused otherwise.
    pub(super) fn leftover_entered(
        &self,
        system: System,
        command: &Command,
        line: &str,
        dice: &Dice,
        res: &mut Resolution,
    ) -> Result<(), CommandError> {
        let Err(DiceError::TooMany {
            span,
            entered,
            used,
            extra,
            ..
        }) = dice.check_all_used()
        else {
            return Ok(());
        };
        let most = self
            .catalog
            .prepare(system, command, line, self.units(), false)
            .ok()
            .and_then(|prepared| most_thrown(MAX_PATHS, |d| prepared.run(d).map(|_| ())))
            .and_then(|most| usize::try_from(most).ok())
            // Dice a resolver took itself as not needed (Musket Mayhem's)
            // count with the thrown ones.
            .map(|most| most.max(used));
        match most {
            Some(most) if entered <= most => {
                let faces: Vec<u32> = dice.leftover().iter().map(|d| d.face).collect();
                let threw = if used == 1 { "die" } else { "dice" };
                res.unused_dice(
                    &faces,
                    format_args!("this outcome throws {used} {threw} and no more"),
                    Some(most),
                );
                Ok(())
            }
            Some(most) => {
                // The dice past the most any outcome throws are the ones to go.
                let beyond = command.rolled.get(most..).unwrap_or_default();
                let span = match (beyond.first(), beyond.last()) {
                    (Some(first), Some(last)) => Span::new(first.span.start, last.span.end),
                    _ => span,
                };
                Err(DiceError::TooMany {
                    span,
                    entered,
                    used,
                    extra,
                    most: Some(most),
                }
                .into())
            }
            None => Err(DiceError::TooMany {
                span,
                entered,
                used,
                extra,
                most: None,
            }
            .into()),
        }
    }
}
