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
        // A game file that is a symbolic link is the game it leads to:
        // its checkpoint is written there, not over the link.
        let linked = path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        let real;
        let path = if linked {
            real = path
                .canonicalize()
                .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))?;
            real.as_path()
        } else {
            path
        };
        let journal = Journal::path_for(path);
        let game_exists = path.symlink_metadata().is_ok();
        // A journal with nothing in it is one whose game was being made
        // when its maker stopped: the game file says the rest.
        let journal_exists = std::fs::metadata(&journal).is_ok_and(|m| m.len() > 0);
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
        // What the game began with: its armies and house tables, as the
        // journal's header records them (the game file's, before it has
        // a journal). The tables given are only checked against them.
        let (armies, recorded) = match (&opened, &file) {
            (Some((_, o)), _) => (o.armies.clone(), o.tables.clone()),
            (None, Some(f)) => (f.armies.clone(), f.tables.clone()),
            (None, None) => (Vec::new(), Vec::new()),
        };
        let tables = tables_for(path, tables, &recorded)?;
        if !sources.is_empty() {
            same_armies(path, &armies, &sources)?;
        }
        let mut game = Game::new(armies, &tables)?;
        game.file = Some(path.to_path_buf());
        // Nothing is opened for writing until a line writes: a reader
        // needs no more than read access to the game and its folder.
        game.store = Some(Store {
            lock: Lock::new(path),
            append: None,
            reader: None,
            cleaned: false,
            read_only: false,
            wait: options.wait,
            checkpointed: 0,
            wrote: false,
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
                check_header(path, &f, &reader)?;
                let last = reader.resume(&f.journal).map_err(|e| with_hint(e, path))?;
                let last = serde_json::from_slice::<Entry>(&last).ok();
                self.id = f.game.clone();
                self.restore(&f, &mut reader, last.as_ref())?;
                if let Some(store) = &mut self.store {
                    store.checkpointed = f.entries;
                }
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
        game.id = journal::new_game_id();
        // A journal left empty by a maker that stopped is taken over.
        let lock = if Journal::path_for(path).symlink_metadata().is_ok() {
            let lock = Lock::acquire(path, options.wait)?;
            if std::fs::metadata(Journal::path_for(path)).is_ok_and(|m| m.len() > 0) {
                return Err(GameError::Locked(format!(
                    "{}: another process made this game just now; run the line again to play it",
                    path.display()
                )));
            }
            lock
        } else {
            Lock::create(path)?
        };
        game.store = Some(Store {
            lock,
            append: None,
            reader: None,
            cleaned: true,
            read_only: false,
            wait: options.wait,
            checkpointed: 0,
            wrote: false,
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
        let header = Journal::header(&self.id, &self.sources, self.tables.house())?;
        self.tally = Tally::default();
        self.tally.add_line(header.as_bytes(), false);
        if path.symlink_metadata().is_err() {
            self.write_checkpoint(true)?;
        }
        let journal = Journal::path_for(&path);
        let Some(file) = self.store.as_mut().and_then(|s| s.lock.journal()) else {
            return Err(GameError::Io(format!(
                "{}: the journal is not held to be written",
                journal.display()
            )));
        };
        Journal::append(file, &journal, 0, &header)?;
        let (reader, _) = Reader::open(&journal)?;
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
        let tables = tables_for(journal, tables, &opening.tables)?;
        let mut game = Game::new(opening.armies, &tables)?;
        game.id = opening.game;
        game.tally = reader.tally.clone();
        game.file = Some(journal.to_path_buf());
        game.store = Some(Store {
            lock: Lock::new(journal),
            append: None,
            reader: Some(reader),
            cleaned: true,
            read_only: true,
            wait: false,
            checkpointed: 0,
            wrote: false,
        });
        Ok(game)
    }

    /// The state the game file's checkpoint holds, each part restored,
    /// and trusted only as far as the journal vouches for it: it must be
    /// the state the entry at its mark recorded (a game file of an older
    /// drumhead, whose entries record no state, is folded from the
    /// journal's recorded effects instead, and must agree with that).
    fn restore(
        &mut self,
        f: &GameFile,
        reader: &mut Reader,
        last: Option<&Entry>,
    ) -> Result<(), GameError> {
        let path = self.file.clone().unwrap_or_default();
        let edited = || {
            GameError::Mismatch(format!(
                "{}: the state in the game file is not what its journal says (it was changed after \
                 it was written); the journal is the record of the game{}",
                path.display(),
                repair_hint(&path)
            ))
        };
        if f.check != file::check(&f.journal, &f.state, &f.checkpoint) {
            return Err(edited());
        }
        let recorded = last.map(|e| e.state.as_str()).unwrap_or_default();
        if f.entries > 0 && recorded.is_empty() {
            self.fold(Some(f.entries))?;
        } else if f.entries > 0 {
            self.turn = f
                .state
                .get("turn")
                .and_then(|t| t.as_u64())
                .map_or(1, |t| u32::try_from(t).unwrap_or(u32::MAX));
            let mut restored = true;
            for part in &mut self.parts {
                let key = part_key(part);
                match f.checkpoint.get(key) {
                    Some(saved) => restored &= part.state.restore(saved).is_ok(),
                    None => restored = false,
                }
            }
            if !restored || self.digest() != recorded {
                return Err(edited());
            }
        }
        self.tally = reader.tally.clone();
        if self.state() != f.state {
            return Err(edited());
        }
        Ok(())
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
