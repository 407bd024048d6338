//! `drumhead replay JOURNAL`: rebuild a game from its journal by resolving
//! every command again with the dice it recorded, check each gives the
//! effects recorded, and compare the result with the saved game file.

use std::path::Path;

use crate::game::{Game, GameError, Journal};
use crate::session::{Output, Session};
use crate::system::Tables;

/// The rebuilt game's roster, or what went wrong.
pub fn replay(journal: &Path, tables: Tables) -> Result<String, GameError> {
    let (armies, entries) = Journal::read(journal)?;
    let game = Game::new(armies, &tables)?;
    let book = tables
        .registry()
        .default_book()
        .ok_or_else(|| GameError::Usage("no rule system is registered".into()))?;
    let mut session = Session::new(tables, book, 0).with_game(game);
    let file = journal.display().to_string();
    // The game file beside the journal, if any: its state is checked
    // against the replay once the entries it reflects are replayed.
    let saved = journal
        .extension()
        .filter(|e| *e == "journal")
        .map(|_| journal.with_extension(""))
        .filter(|p| p.exists())
        .map(|p| Game::read_file(&p).map(|(_, n, state)| (p, n, state)))
        .transpose()?;
    let compare = |session: &Session| -> Option<bool> {
        let (_, _, state) = saved.as_ref()?;
        Some(session.game.as_ref()?.state() == *state)
    };
    let mut state_at = match &saved {
        Some((_, 0, _)) => compare(&session),
        _ => None,
    };
    let mismatch = |line: usize, message: String| GameError::Journal {
        file: file.clone(),
        line,
        message,
    };
    for (i, entry) in entries.iter().enumerate() {
        let journal_line = i + 2;
        let reflected = saved.as_ref().map(|(_, n, _)| *n as usize);
        if entry.undo.is_some() {
            session
                .run_line("undo")
                .map_err(|e| mismatch(journal_line, e.to_string()))?;
            if reflected == Some(i + 1) {
                state_at = compare(&session);
            }
            continue;
        }
        let Some(line) = &entry.line else {
            return Err(mismatch(
                journal_line,
                "an entry with neither a line nor an undo".into(),
            ));
        };
        if let Some(system) = entry
            .system
            .as_deref()
            .and_then(|id| session.tables.book(id))
        {
            session.rules = system;
        }
        let has_rolled = session
            .parse(line)
            .ok()
            .flatten()
            .is_some_and(|c| c.rolled_span.is_some());
        // Dice the line did not enter came from `--dice` (all recorded, in
        // order) or from the generator, whose seed the entry recorded.
        if !has_rolled {
            session.enter_dice(&entry.dice);
        } else if let Some(seed) = entry.seed {
            session.set_next_seed(seed);
        }
        let output = session
            .run_line(line)
            .map_err(|e| mismatch(journal_line, format!("`{line}` no longer resolves: {e}")))?;
        let game = session
            .game
            .as_ref()
            .ok_or_else(|| mismatch(journal_line, "no game".into()))?;
        let replayed = game
            .entries
            .last()
            .map(|e| e.effects.clone())
            .unwrap_or_default();
        if replayed != entry.effects {
            return Err(mismatch(
                journal_line,
                format!(
                    "`{line}` now has effects {replayed:?}, the journal recorded {:?}",
                    entry.effects
                ),
            ));
        }
        if let Some(Output::Resolution(res)) = output
            && entry
                .outcome
                .as_deref()
                .is_some_and(|o| o != res.outcome_text)
        {
            return Err(mismatch(
                journal_line,
                format!(
                    "`{line}` now gives `{}`, the journal recorded `{}`",
                    res.outcome_text,
                    entry.outcome.clone().unwrap_or_default()
                ),
            ));
        }
        if reflected == Some(i + 1) {
            state_at = compare(&session);
        }
    }
    let game = session
        .game
        .as_ref()
        .ok_or_else(|| GameError::Usage("no game".into()))?;
    let mut out = crate::render::report_text(&game.roster(), &crate::render::Style::plain(false));
    match (saved, state_at) {
        (Some((path, reflected, _)), None) => {
            return Err(GameError::Usage(format!(
                "{} reflects {reflected} entries, but the journal has only {}",
                path.display(),
                entries.len()
            )));
        }
        (Some((path, reflected, _)), Some(true)) => out.push_str(&format!(
            "\n\nreplayed {} entries: the state equals {} (which reflects {reflected} of them)",
            entries.len(),
            path.display()
        )),
        (Some((path, reflected, _)), Some(false)) => {
            return Err(GameError::Usage(format!(
                "replayed {} entries, but the state after the {reflected} the game file reflects differs from {}",
                entries.len(),
                path.display()
            )));
        }
        (None, _) => out.push_str(&format!("\n\nreplayed {} entries", entries.len())),
    }
    Ok(out)
}
