//! A replay that starts late: a journal read from its header with its
//! first entries applied as recorded, for a reader (`drumhead serve`)
//! that needs the state before the last few entries of a long game
//! without resolving every entry again.

use super::*;

impl Game {
    /// A journal replayed as [`Game::replaying`] does, with its entries up
    /// to `at` (the chain as a reader of this journal found it after them)
    /// already applied as they are recorded: they are read again and their
    /// effects folded in, but not resolved again (trust them only where a
    /// checkpoint vouches for them), and the chain they make must end at
    /// `at`. The entries after them come from [`Game::next_pending`], each
    /// to be resolved again.
    pub(crate) fn replaying_after(
        journal: &Path,
        tables: &Tables,
        at: &Tally,
    ) -> Result<Game, GameError> {
        let mut game = Game::replaying(journal, tables)?;
        if at.entries == 0 {
            return Ok(game);
        }
        game.tally = at.clone();
        // Reads the entries up to `at` (twice: which are undone, then the
        // rest applied) and checks the chain it reads ends at `at`.
        game.refold()?;
        Ok(game)
    }
}
