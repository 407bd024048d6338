//! Opening a game: from its checkpoint and the journal after it, a new
//! game's two files, or a journal to replay.

use super::checks::*;
use super::*;

impl Game {
    /// Open a game file, or create it with these armies when neither it
    /// nor its journal exists. Opening reads the checkpoint and checks
    /// that the journal is this game's and holds the line the checkpoint
    /// ends on; the entries after it are read and resolved again by the
    /// session before anything is answered ([`Game::next_pending`]).
    pub fn open(
        path: &Path,
        sources: Vec<ArmySource>,
        tables: &Tables,
        options: Options,
    ) -> Result<Game, GameError> {
        let journal = Journal::path_for(path);
        let game_exists = path.symlink_metadata().is_ok();
        let journal_exists = journal.symlink_metadata().is_ok();
        if !game_exists && !journal_exists {
            return Game::create(path, sources, tables, options);
        }
        // The game file first, then the journal: a writer appends to the
        // journal before it writes the game file, so read in this order
        // the two always belong together.
        let file = if game_exists {
            Some(read_game_file(path)?)
        } else {
            None
        };
        let opened = if journal_exists {
            Some(Reader::open(&journal)?)
        } else {
            None
        };
        let armies = match (&opened, &file) {
            (Some((_, o)), _) => o.armies.clone(),
            (None, Some(f)) => f.armies.clone(),
            (None, None) => Vec::new(),
        };
        if !sources.is_empty() {
            same_armies(path, &armies, &sources)?;
        }
        let mut game = Game::new(armies, tables)?;
        game.file = Some(path.to_path_buf());
        game.options = options;
        let lock = Lock::open(path).or_else(|e| {
            // A game on a read-only medium can still be read.
            if game_exists && std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
                Lock::open(&std::env::temp_dir().join(format!(".drumhead-{}", std::process::id())))
            } else {
                Err(e)
            }
        })?;
        game.store = Some(Store {
            lock,
            append: None,
            reader: None,
            cleaned: false,
            read_only: false,
        });
        match (file, opened) {
            (Some(f), None) => {
                if f.entries > 0 {
                    return Err(GameError::Mismatch(format!(
                        "{}: the journal of this game is missing; the game cannot be checked or undone without it{}",
                        journal.display(),
                        repair_hint(path)
                    )));
                }
                // Created, then killed before its journal was: the first
                // write makes the journal.
                game.id = f.game;
                game.reopened = Some(reopened(path, game.turn, 0, None));
            }
            (f, Some((reader, opening))) => game.follow(path, f, reader, opening)?,
            (None, None) => {
                return Err(GameError::Usage(format!(
                    "{}: there is no game here (neither the game file nor its journal)",
                    path.display()
                )));
            }
        }
        Ok(game)
    }

    /// Take up a journal under its game file: the same game, the line the
    /// checkpoint ends on, the state restored; without a game file, every
    /// entry is to be resolved again from the header on.
    fn follow(
        &mut self,
        path: &Path,
        file: Option<GameFile>,
        mut reader: Reader,
        opening: journal::Opening,
    ) -> Result<(), GameError> {
        let journal = Journal::path_for(path);
        check_version(&journal, opening.version)?;
        match file {
            Some(f) => {
                if f.game != opening.game {
                    return Err(GameError::Mismatch(format!(
                        "{}: this journal belongs to another game than {} (a copy's, or another table's); \
                         nothing of it is applied{}",
                        journal.display(),
                        path.display(),
                        repair_hint(path)
                    )));
                }
                let last = reader.resume(&f.journal).map_err(|e| with_hint(e, path))?;
                self.id = f.game.clone();
                self.restore(&f, &mut reader)?;
                self.checkpointed = f.entries;
                let last = serde_json::from_slice::<Entry>(&last).ok();
                self.reopened = Some(reopened(path, self.turn, f.entries, last.as_ref()));
            }
            None => {
                self.id = opening.game;
                self.tally = reader.tally.clone();
                self.notes.push(format!(
                    "{}: the game file is missing: every entry of the journal is resolved again",
                    path.display()
                ));
            }
        }
        if let Some(store) = &mut self.store {
            store.reader = Some(reader);
        }
        Ok(())
    }

    /// A new game: its file first, then its journal, each synced. A kill
    /// between the two leaves a game file with no entries, which the next
    /// write completes; never a journal without its game file.
    fn create(
        path: &Path,
        sources: Vec<ArmySource>,
        tables: &Tables,
        options: Options,
    ) -> Result<Game, GameError> {
        let mut game = Game::new(sources, tables)?;
        game.file = Some(path.to_path_buf());
        game.options = options;
        game.id = journal::new_game_id();
        let lock = Lock::acquire(path, options.wait)?;
        game.store = Some(Store {
            lock,
            append: None,
            reader: None,
            cleaned: true,
            read_only: false,
        });
        game.start_journal()?;
        let armies: Vec<&str> = game.armies.iter().map(|a| a.name.as_str()).collect();
        game.notes.push(format!(
            "{} did not exist: a new game was created{}",
            path.display(),
            if armies.is_empty() {
                " with no armies".to_string()
            } else {
                format!(" ({})", armies.join("; "))
            }
        ));
        game.end_line();
        Ok(game)
    }

    /// Write a game file with no entries (if there is none) and the
    /// journal's header. Under the lock.
    pub(super) fn start_journal(&mut self) -> Result<(), GameError> {
        let Some(path) = self.file.clone() else {
            return Ok(());
        };
        let header = Journal::header(&self.id, &self.sources)?;
        self.tally = Tally::default();
        self.tally.add_line(header.as_bytes(), false);
        if path.symlink_metadata().is_err() {
            self.write_checkpoint(true)?;
        }
        journal::write_atomically(&Journal::path_for(&path), header.as_bytes(), true)?;
        let (reader, _) = Reader::open(&Journal::path_for(&path))?;
        if let Some(store) = &mut self.store {
            store.reader = Some(reader);
        }
        Ok(())
    }

    /// A journal read from its header on, every entry resolved again and
    /// nothing ever written: `replay`.
    pub fn replaying(journal: &Path, tables: &Tables) -> Result<Game, GameError> {
        let (reader, opening) = Reader::open(journal)?;
        check_version(journal, opening.version)?;
        let mut game = Game::new(opening.armies, tables)?;
        game.id = opening.game;
        game.tally = reader.tally.clone();
        game.file = Some(journal.to_path_buf());
        game.store = Some(Store {
            lock: Lock::open(
                &std::env::temp_dir().join(format!(".drumhead-replay-{}", std::process::id())),
            )?,
            append: None,
            reader: Some(reader),
            cleaned: true,
            read_only: true,
        });
        Ok(game)
    }

    /// The state the game file's checkpoint holds, each part restored; a
    /// part that cannot be restored is folded from the journal instead.
    fn restore(&mut self, f: &GameFile, reader: &mut Reader) -> Result<(), GameError> {
        let path = self.file.clone().unwrap_or_default();
        let edited = || {
            GameError::Mismatch(format!(
                "{}: the state in the game file is not what its journal says (was it edited by hand?); \
                 the journal is the record of the game{}",
                path.display(),
                repair_hint(&path)
            ))
        };
        if f.check != file::check(&f.journal, &f.state, &f.checkpoint) {
            return Err(edited());
        }
        let mut restored = true;
        self.turn = f
            .state
            .get("turn")
            .and_then(|t| t.as_u64())
            .map_or(1, |t| u32::try_from(t).unwrap_or(u32::MAX));
        for part in &mut self.parts {
            let key = part_key(part);
            match f.checkpoint.get(key) {
                Some(saved) => {
                    if part.state.restore(saved).is_err() {
                        restored = false;
                    }
                }
                None => restored = false,
            }
        }
        if !restored {
            // Folded from the journal up to the checkpoint: those entries
            // were resolved again when they were first read.
            self.fold_trusted(f.entries)?;
        }
        self.tally = reader.tally.clone();
        if self.state() != f.state {
            return Err(edited());
        }
        Ok(())
    }

    /// Apply entries as the chain gives them, up to `upto`, without
    /// resolving them again (entries a checkpoint vouches for).
    fn fold_trusted(&mut self, upto: u64) -> Result<(), GameError> {
        let tally = self.tally.clone();
        let mut undone = std::collections::HashSet::new();
        let mut source = self.source_upto(upto)?;
        while let Some(e) = source.next()? {
            undone.extend(e.undo);
        }
        self.turn = 1;
        self.parts = self.fresh_parts();
        let mut source = self.source_upto(upto)?;
        while let Some(e) = source.next()? {
            if e.undo.is_none() && !undone.contains(&e.entry) {
                self.apply_effects(&e, false)?;
            }
        }
        self.tally = tally;
        Ok(())
    }

    fn source_upto(&mut self, upto: u64) -> Result<Source, GameError> {
        let saved = self.tally.entries;
        self.tally.entries = upto;
        let source = self.source();
        self.tally.entries = saved;
        source
    }
}

/// What reopening a game says: where it stands and the last line played,
/// so that the umpire sees it is the game he meant.
fn reopened(path: &Path, turn: u32, entries: u64, last: Option<&Entry>) -> String {
    let last = match last {
        Some(Entry {
            line: Some(line), ..
        }) => format!("; last: {line}"),
        Some(Entry { undo: Some(n), .. }) => format!("; last: undo (of entry {n})"),
        _ => String::new(),
    };
    format!(
        "reopened {}: turn {turn}, {entries} entr{}{last}",
        path.display(),
        if entries == 1 { "y" } else { "ies" }
    )
}
