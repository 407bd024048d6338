//! `drumhead replay JOURNAL`: rebuild a game from its journal by resolving
//! every entry again with the line and dice it recorded, check each gives
//! exactly what it recorded, and compare the result with the game file's
//! checkpoint. It takes no lock and writes nothing: while a writer runs,
//! it reads the game file first and then the journal, which only ever
//! grows after the game file is written, so the two belong together.
//!
//! Given a campaign file instead (told by its first bytes, whatever its
//! name), it replays every battle of the campaign and every close
//! ([`crate::campaign::replay`]).

use std::path::{Path, PathBuf};

use crate::game::{Game, GameError, GameFile, read_game_file};
use crate::session::Session;
use crate::system::Tables;

/// The game file beside a journal, if there is one.
fn game_beside(journal: &Path) -> Option<PathBuf> {
    journal
        .extension()
        .filter(|e| *e == "journal")
        .map(|_| journal.with_extension(""))
        .filter(|p| p.exists())
}

/// [`replay`], telling `progress` (entries done, entries known so far)
/// before each entry: a long journal can show a progress bar.
pub(crate) fn replay_with(
    journal: &Path,
    tables: Tables,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<String, GameError> {
    // A campaign file, told by its contents: every battle and every close.
    if crate::campaign::is_campaign(journal) {
        return crate::campaign::replay(journal, &tables)
            .map_err(|e| GameError::Usage(e.to_string()));
    }
    let saved: Option<(PathBuf, GameFile)> = game_beside(journal)
        .map(|p| read_game_file(&p).map(|f| (p, f)))
        .transpose()?;
    let game = Game::replaying(journal, &tables)?;
    let book = tables
        .registry()
        .default_book()
        .ok_or_else(|| GameError::Usage("no rule system is registered".into()))?;
    let mut session = Session::new(tables, book, 0).with_game(game);
    let reflected = saved.as_ref().map(|(_, f)| f.entries);
    let mut agrees: Option<bool> = None;
    let check = |session: &Session| -> Option<bool> {
        let (_, f) = saved.as_ref()?;
        let game = session.game.as_ref()?;
        Some(game.state() == f.state && game.tally().mark() == f.journal)
    };
    if reflected == Some(0) {
        agrees = check(&session);
    }
    let mut done = 0usize;
    loop {
        progress(done, reflected.map_or(done, |r| r as usize).max(done + 1));
        if session.resolve_next()?.is_none() {
            break;
        }
        done += 1;
        if reflected == Some(done as u64) {
            agrees = check(&session);
        }
    }
    let game = session
        .game
        .as_ref()
        .ok_or_else(|| GameError::Usage("no game".into()))?;
    let mut out =
        crate::format::text::report_text(&game.roster(), &crate::format::Style::plain(false));
    match (saved, agrees) {
        (Some((path, f)), None) => {
            return Err(GameError::Usage(format!(
                "{} reflects {} entries, but the journal has only {done} that resolve again",
                path.display(),
                f.entries
            )));
        }
        (Some((path, f)), Some(true)) => out.push_str(&format!(
            "\n\nreplayed {done} entries: the state equals {} (which reflects {} of them)",
            path.display(),
            f.entries
        )),
        (Some((path, f)), Some(false)) => {
            return Err(GameError::Usage(format!(
                "replayed {done} entries, but the state after the {} the game file reflects differs from {}",
                f.entries,
                path.display()
            )));
        }
        (None, _) => out.push_str(&format!("\n\nreplayed {done} entries")),
    }
    Ok(out)
}
