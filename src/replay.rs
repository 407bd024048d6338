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
    let mismatch = |line: usize, message: String| GameError::Journal {
        file: file.clone(),
        line,
        message,
    };
    for (i, entry) in entries.iter().enumerate() {
        let journal_line = i + 2;
        if entry.undo.is_some() {
            session
                .run_line("undo")
                .map_err(|e| mismatch(journal_line, e.to_string()))?;
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
    }
    let game = session
        .game
        .as_ref()
        .ok_or_else(|| GameError::Usage("no game".into()))?;
    let mut out = game.units_text();
    let saved = journal.with_extension("").to_path_buf();
    let saved = if journal.extension().is_some_and(|e| e == "journal") {
        Some(saved)
    } else {
        None
    };
    if let Some(path) = saved.filter(|p| p.exists()) {
        let (_, _, state) = Game::read_file(&path)?;
        if state == game.state() {
            out.push_str(&format!(
                "\n\nreplayed {} entries: the state equals {}",
                entries.len(),
                path.display()
            ));
        } else {
            return Err(GameError::Usage(format!(
                "replayed {} entries, but the state differs from {}",
                entries.len(),
                path.display()
            )));
        }
    } else {
        out.push_str(&format!("\n\nreplayed {} entries", entries.len()));
    }
    Ok(out)
}
