//! A replay that starts late: a journal read from its header with its
//! first entries applied as recorded, for a reader (`drumhead serve`)
//! that needs the state before the last few entries of a long game
//! without resolving every entry again.

use super::*;

impl Game {
    /// A journal replayed as [`Game::replaying`] does, with its first
    /// `skip` entries already applied as they are recorded: their chain
    /// is checked and their effects folded in, but they are not resolved
    /// again (trust them only where a checkpoint vouches for them). The
    /// entries after them come from [`Game::next_pending`], each to be
    /// resolved again.
    pub fn replaying_after(journal: &Path, tables: &Tables, skip: u64) -> Result<Game, GameError> {
        let mut game = Game::replaying(journal, tables)?;
        if skip == 0 {
            return Ok(game);
        }
        let (mut reader, _) = Reader::open(journal)?;
        while reader.tally.entries < skip {
            match reader.next_entry()? {
                Next::Entry(..) => {}
                Next::End | Next::Torn(..) => {
                    return Err(GameError::Usage(format!(
                        "{}: the journal holds fewer than {skip} entries",
                        journal.display()
                    )));
                }
            }
        }
        game.tally = reader.tally.clone();
        game.refold()?;
        if let Some(store) = &mut game.store {
            store.reader = Some(reader);
        }
        Ok(game)
    }
}
