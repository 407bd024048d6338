//! A game: the loaded armies, what each rule system keeps of their units,
//! and the journal of every resolution.
//!
//! The journal is the record (see [`journal`]): one line per entry,
//! appended and synced to disk, a hash chain from the header on. The
//! game file beside it is a checkpoint: the state after the first N
//! entries, the chain's head at N, and the game's id, rewritten every
//! [`CHECKPOINT_EVERY`] entries and when a writer ends. Opening reads the
//! checkpoint and only the entries after it, and trusts none of those
//! until the session has resolved each again from its line and dice and
//! found exactly the effects it recorded ([`Game::next_pending`]); so
//! memory and time do not grow with the journal, and nothing written by
//! hand is ever applied.
//!
//! The game names no rule system's words: each system keeps its own part
//! ([`GamePart`]) of its armies' units, applies the typed effects its
//! resolutions have, says what a unit brings to a command, and draws its
//! own roster.

mod file;
mod journal;
mod lock;
mod roster;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::army::{Army, Schemas, parse_army};
use crate::catalog::{UnitFacts, Units};
use crate::command::System;
use crate::resolution::{Effect, Resolution};
use crate::system::{GamePart, RuleSet, Tables};

pub use file::{GameFile, read_game_file};
pub use journal::{
    CHAIN_BROKEN, Entry, GameError, JOURNAL_VERSION, Journal, Mark, Next, Reader, Tally, hash,
};
pub use lock::Lock;

/// Entries after which a writer writes the checkpoint again: what a
/// reader opening the game resolves again at most, after a kill.
pub const CHECKPOINT_EVERY: u64 = 256;

/// An army list as it was loaded, kept whole so a game file stands alone.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArmySource {
    pub file: String,
    pub text: String,
}

/// What one rule system keeps of the game, and which armies are its.
struct Part {
    set: Rc<dyn RuleSet>,
    armies: Vec<usize>,
    state: Box<dyn GamePart>,
}

/// How a game file is opened.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Wait for another writer to finish instead of refusing at once.
    pub wait: bool,
}

/// Where a game kept in a file is read and written.
struct Store {
    lock: Lock,
    /// The journal, open for appending, from this process's first write.
    append: Option<File>,
    /// The journal, open for reading what other processes append.
    reader: Option<Reader>,
    /// Stale temporary files were looked for (once, under the lock).
    cleaned: bool,
    /// Only reads: `replay`, which never writes a thing.
    read_only: bool,
}

pub struct Game {
    pub armies: Vec<Army>,
    pub sources: Vec<ArmySource>,
    pub turn: u32,
    /// Where the game is kept, if anywhere.
    pub file: Option<PathBuf>,
    /// What opening or catching up found and did, for the user.
    pub notes: Vec<String>,
    /// The game's id, made when it was created.
    id: String,
    options: Options,
    tables: Tables,
    parts: Vec<Part>,
    /// The journal as far as it is applied.
    tally: Tally,
    /// Every entry of a game kept only in memory (a file's are in its journal).
    memory: Vec<Entry>,
    /// The last entries still in force that this process applied, each
    /// with the state before it: `undo` goes back in one step.
    recent: Vec<Recent>,
    store: Option<Store>,
    /// An entry read from the journal, waiting to be resolved again.
    expected: Option<(Entry, Vec<u8>)>,
    /// Entries the game file's checkpoint reflects.
    checkpointed: u64,
    /// This process appended to the journal (and so checkpoints at the end).
    wrote: bool,
    /// Why the last entry resolved again was refused.
    rejected: Option<String>,
}

/// An entry in force and the state before it.
struct Recent {
    entry: u64,
    line: Option<String>,
    turn: u32,
    parts: Vec<Box<dyn GamePart>>,
}

/// How many states `undo` can go back to without a fold of the journal.
const SNAPSHOTS: usize = 64;

impl Game {
    /// A game of these armies, kept only in memory.
    pub fn new(sources: Vec<ArmySource>, tables: &Tables) -> Result<Game, GameError> {
        let schemas = schemas(tables);
        let mut armies = Vec::new();
        for s in &sources {
            armies.push(parse_army(&s.file, &s.text, &schemas).map_err(GameError::Army)?);
        }
        check_unique_ids(&armies)?;
        check_ids_are_not_words(&armies, tables)?;
        let mut game = Game {
            armies,
            sources,
            turn: 1,
            file: None,
            notes: Vec::new(),
            id: String::new(),
            options: Options::default(),
            tables: tables.clone(),
            parts: Vec::new(),
            tally: Tally::default(),
            memory: Vec::new(),
            recent: Vec::new(),
            store: None,
            expected: None,
            checkpointed: 0,
            wrote: false,
            rejected: None,
        };
        game.parts = game.fresh_parts();
        Ok(game)
    }

    /// Each rule system's part, as at the start of the game.
    fn fresh_parts(&self) -> Vec<Part> {
        let mut parts = Vec::new();
        for set in self.tables.sets() {
            let mine: Vec<(usize, &Army)> = self
                .armies
                .iter()
                .enumerate()
                .filter(|(_, a)| set.system().books().contains(&a.rules))
                .collect();
            if mine.is_empty() {
                continue;
            }
            parts.push(Part {
                set: set.clone(),
                armies: mine.iter().map(|(i, _)| *i).collect(),
                state: set.game(&mine),
            });
        }
        parts
    }

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
            }
            (f, Some((mut reader, opening))) => {
                check_version(&journal, opening.version)?;
                match f {
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
                        reader.resume(&f.journal).map_err(|e| with_hint(e, path))?;
                        game.id = f.game.clone();
                        game.restore(&f, &mut reader)?;
                        game.checkpointed = f.entries;
                    }
                    None => {
                        // The game file is gone: every entry is resolved
                        // again from the header on.
                        game.id = opening.game;
                        game.tally = reader.tally.clone();
                        game.notes.push(format!(
                            "{}: the game file is missing: every entry of the journal is resolved again",
                            path.display()
                        ));
                    }
                }
                if let Some(store) = &mut game.store {
                    store.reader = Some(reader);
                }
            }
            (None, None) => unreachable!("one of the two exists"),
        }
        Ok(game)
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
    fn start_journal(&mut self) -> Result<(), GameError> {
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
                self.apply_effects(&e)?;
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

    /// The next entry another process (or a run before this one) wrote
    /// after the state this game is in, read and checked against the
    /// chain: the session resolves its line again, and the game applies
    /// it only if it records exactly this ([`Game::commit`]). `None` when
    /// the journal holds nothing more.
    pub fn next_pending(&mut self) -> Result<Option<Entry>, GameError> {
        let tally = self.tally.clone();
        let holds_lock = self.holds_lock();
        let Some(store) = &mut self.store else {
            return Ok(None);
        };
        let Some(reader) = &mut store.reader else {
            return Ok(None);
        };
        if reader.tally != tally {
            reader.continue_from(&tally)?;
        }
        match reader.next_entry()? {
            Next::Entry(entry, line) => {
                self.expected = Some(((*entry).clone(), line));
                Ok(Some(*entry))
            }
            Next::End => Ok(None),
            Next::Torn(at, len) => {
                // With the lock held nobody is writing it: a writer was
                // killed mid-line, and the line is cut. Without the lock
                // it may be being written now: left alone.
                reader.continue_from(&tally)?;
                if holds_lock {
                    self.cut_journal(at)?;
                    self.notes.push(format!(
                        "{}: the last line ({len} bytes) was cut short while it was being written; \
                         that command was not recorded and its line was removed",
                        Journal::path_for(self.file.as_deref().unwrap_or(Path::new(""))).display()
                    ));
                }
                Ok(None)
            }
        }
    }

    /// An entry resolved again gave nothing to record: it is not trusted.
    pub fn take_unmatched(&mut self) -> Option<Entry> {
        self.expected.take().map(|(e, _)| e)
    }

    fn holds_lock(&self) -> bool {
        self.store.as_ref().is_some_and(|s| s.lock.held())
    }

    /// Take the game's lock before a line that may change it is resolved:
    /// the session then reads what others recorded ([`Game::next_pending`])
    /// and resolves the line against that newest state.
    pub fn begin_write(&mut self) -> Result<(), GameError> {
        let Some(path) = self.file.clone() else {
            return Ok(());
        };
        let Some(store) = &mut self.store else {
            return Ok(());
        };
        if store.read_only {
            return Err(GameError::Usage(
                "a journal being replayed is never written".into(),
            ));
        }
        if store.lock.held() {
            return Ok(());
        }
        let journal = Journal::path_for(&path);
        for p in [&path, &journal] {
            if let Ok(meta) = std::fs::metadata(p)
                && meta.permissions().readonly()
            {
                return Err(GameError::Usage(format!(
                    "{} is read-only: this game can be looked at (`units`, `show`, `log`) but not changed",
                    p.display()
                )));
            }
        }
        store.lock.take(self.options.wait)?;
        if !store.cleaned {
            journal::remove_stale_temporaries(&path);
            store.cleaned = true;
        }
        if journal.symlink_metadata().is_err() {
            if self.tally.entries > 0 {
                return Err(GameError::Mismatch(format!(
                    "{}: the journal was removed while the game was open{}",
                    journal.display(),
                    repair_hint(&path)
                )));
            }
            self.start_journal()?;
            return Ok(());
        }
        let len = std::fs::metadata(&journal)
            .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?
            .len();
        if len < self.tally.bytes {
            return Err(GameError::Mismatch(format!(
                "{}: the journal changed under this process (entries were removed or rewritten); nothing was recorded{}",
                journal.display(),
                repair_hint(&path)
            )));
        }
        Ok(())
    }

    /// The line is done: let the next writer in.
    pub fn end_line(&mut self) {
        if let Some(store) = &mut self.store {
            store.lock.release();
        }
    }

    /// Recompute the state from every entry not undone (a game kept in
    /// memory, or a file's journal read again): the slow way back that
    /// `undo` takes past what this process saw. Two passes, one entry in
    /// memory at a time.
    fn refold(&mut self) -> Result<(), GameError> {
        // Which entries are still in force: an undo always takes back the
        // last one, so they form a stack.
        let mut live: Vec<u64> = Vec::new();
        let mut undone = std::collections::HashSet::new();
        let mut source = self.source()?;
        while let Some(e) = source.next()? {
            match e.undo {
                Some(target) => {
                    live.pop();
                    undone.insert(target);
                }
                None => live.push(e.entry),
            }
        }
        source.finish(&self.tally)?;
        let keep_from = live.len().saturating_sub(SNAPSHOTS);
        let recent_from = live.get(keep_from).copied().unwrap_or(u64::MAX);
        drop(live);
        self.turn = 1;
        self.parts = self.fresh_parts();
        self.recent.clear();
        let mut source = self.source()?;
        while let Some(e) = source.next()? {
            if e.undo.is_some() || undone.contains(&e.entry) {
                continue;
            }
            if e.entry >= recent_from {
                self.apply_recorded(&e)?;
            } else {
                self.apply_effects(&e)?;
            }
        }
        source.finish(&self.tally)
    }

    /// Every entry applied so far, in order: from memory, or read again
    /// from the journal (one line at a time, the chain checked).
    fn source(&self) -> Result<Source, GameError> {
        if self.store.is_none() {
            return Ok(Source::Memory(self.memory.clone().into_iter()));
        }
        let path = self.file.clone().unwrap_or_default();
        let journal = if self.store.as_ref().is_some_and(|s| s.read_only) {
            path
        } else {
            Journal::path_for(&path)
        };
        let (reader, opening) = Reader::open(&journal)?;
        if opening.game != self.id {
            return Err(GameError::Mismatch(format!(
                "{}: the journal was replaced by another game's while this one was open",
                journal.display()
            )));
        }
        Ok(Source::File {
            reader,
            upto: self.tally.entries,
            journal,
        })
    }

    /// Fold one entry's effects into the state.
    fn apply_effects(&mut self, entry: &Entry) -> Result<(), GameError> {
        let bad = |message: String| GameError::Journal {
            file: self
                .file
                .as_ref()
                .map_or_else(String::new, |f| Journal::path_for(f).display().to_string()),
            line: usize::try_from(entry.entry)
                .unwrap_or(usize::MAX)
                .saturating_add(1),
            message,
        };
        if entry.next_turn() {
            self.turn = self.turn.saturating_add(1);
            for part in &mut self.parts {
                part.state.next_turn();
            }
            return Ok(());
        }
        let Some(book) = entry.system.as_deref() else {
            return Ok(());
        };
        let book = self
            .tables
            .book(book)
            .ok_or_else(|| bad(format!("no rule system `{book}`")))?;
        for json in &entry.effects {
            let unit = json.get("unit").and_then(|u| u.as_str());
            let Some(part) = self
                .parts
                .iter_mut()
                .find(|p| p.set.system().books().contains(&book))
            else {
                // An effect on the game of a system with no army here
                // (`initiative` typed out) falls on nothing.
                if unit.is_none() {
                    continue;
                }
                return Err(bad(format!("no army of {} in this game", book.title())));
            };
            let effect = part.set.effect(json).map_err(&bad)?;
            part.state.apply(unit, effect.as_ref()).map_err(&bad)?;
        }
        Ok(())
    }

    /// Apply an entry in force, keeping the state before it for `undo`;
    /// or take back the entry an undo names.
    fn apply_recorded(&mut self, entry: &Entry) -> Result<(), GameError> {
        if let Some(target) = entry.undo {
            let Some(last) = self.recent.pop() else {
                return Err(GameError::Usage(format!(
                    "entry {target} cannot be undone here"
                )));
            };
            if last.entry != target {
                let message = format!(
                    "undoes entry {target}, but the last entry in force is {}",
                    last.entry
                );
                self.recent.push(last);
                return Err(GameError::Usage(message));
            }
            self.turn = last.turn;
            for (part, state) in self.parts.iter_mut().zip(last.parts) {
                part.state = state;
            }
            return Ok(());
        }
        let before = Recent {
            entry: entry.entry,
            line: entry.line.clone(),
            turn: self.turn,
            parts: self.parts.iter().map(|p| p.state.snapshot()).collect(),
        };
        if let Err(e) = self.apply_effects(entry) {
            self.turn = before.turn;
            for (part, state) in self.parts.iter_mut().zip(before.parts) {
                part.state = state;
            }
            return Err(e);
        }
        if self.recent.len() == SNAPSHOTS {
            self.recent.remove(0);
        }
        self.recent.push(before);
        Ok(())
    }

    /// Record a resolution and apply its effects. Returns what each
    /// effect did, in words. An entry that could not be written is not
    /// applied.
    pub fn record(
        &mut self,
        line: &str,
        system: System,
        res: &Resolution,
    ) -> Result<Vec<String>, GameError> {
        let addressed = res.addressed();
        let effects = addressed
            .iter()
            .map(|(unit, e)| record_of(*unit, e.as_ref()));
        let entered: Vec<u32> = res
            .dice
            .iter()
            .filter(|d| d.entered)
            .map(|d| d.face)
            .collect();
        let rolled = res.dice.iter().filter(|d| !d.entered).map(|d| d.face);
        let entry = Entry {
            entry: 0,
            prev: String::new(),
            turn: self.turn,
            line: Some(line.to_string()),
            system: Some(system.id().to_string()),
            seed: res.seed,
            entered: entered.len(),
            dice: entered.iter().copied().chain(rolled).collect(),
            outcome: Some(res.outcome.to_string()),
            effects: effects.collect(),
            undo: None,
        };
        let described = addressed
            .iter()
            .map(|(unit, e)| e.describe(*unit))
            .collect();
        self.commit(entry)?;
        Ok(described)
    }

    /// The turn ends: per-turn facts are cleared.
    pub fn next_turn(&mut self, line: &str) -> Result<(), GameError> {
        let entry = Entry {
            entry: 0,
            prev: String::new(),
            turn: self.turn,
            line: Some(line.to_string()),
            system: None,
            seed: None,
            dice: Vec::new(),
            entered: 0,
            outcome: None,
            effects: vec![serde_json::json!({ "effect": Entry::NEXT_TURN })],
            undo: None,
        };
        self.commit(entry)
    }

    /// Take back the last entry still in force. Returns its line.
    pub fn undo(&mut self) -> Result<Option<String>, GameError> {
        if self.recent.is_empty() {
            self.refold()?;
        }
        let Some(last) = self.recent.last().map(|r| (r.entry, r.line.clone())) else {
            return Ok(None);
        };
        let entry = Entry {
            entry: 0,
            prev: String::new(),
            turn: self.turn,
            line: None,
            system: None,
            seed: None,
            dice: Vec::new(),
            entered: 0,
            outcome: None,
            effects: Vec::new(),
            undo: Some(last.0),
        };
        self.commit(entry)?;
        Ok(Some(last.1.unwrap_or_default()))
    }

    /// Apply an entry and append it to the journal (synced), or, for an
    /// entry read from the journal and resolved again, check it is what
    /// was recorded and apply it.
    fn commit(&mut self, mut entry: Entry) -> Result<(), GameError> {
        entry.entry = self.tally.entries + 1;
        if let Some((expected, raw)) = self.expected.take() {
            entry.prev = expected.prev.clone();
            if let Some(what) = expected.differs_from(&entry) {
                let e = GameError::Journal {
                    file: self.journal_shown(),
                    line: usize::try_from(expected.entry)
                        .unwrap_or(usize::MAX)
                        .saturating_add(1),
                    message: format!(
                        "entry {} does not resolve to itself: resolved again from its line and dice, \
                         it does not give what it recorded ({what}); it is not applied",
                        expected.entry,
                    ),
                };
                self.rejected = Some(e.to_string());
                return Err(e);
            }
            self.apply_recorded(&entry)?;
            self.tally.add_line(&raw, true);
            if self.store.is_none() {
                self.memory.push(entry);
            }
            return Ok(());
        }
        if self.store.as_ref().is_some_and(|s| s.read_only) {
            return Err(GameError::Usage(
                "a journal being replayed is never written".into(),
            ));
        }
        if self.store.is_some() {
            self.begin_write()?;
            entry.prev = self.tally.head.clone();
        }
        let line = entry.line()?;
        // Applied first: an entry the game cannot apply never reaches the
        // journal (which would then not open).
        self.apply_recorded(&entry)?;
        if let (Some(path), Some(store)) = (&self.file, &mut self.store) {
            let journal = Journal::path_for(path);
            if store.append.is_none() {
                store.append = Some(journal::open_append(&journal)?);
            }
            let Some(file) = store.append.as_mut() else {
                return Err(GameError::Io("the journal is not open".into()));
            };
            if let Err(e) = Journal::append(file, &journal, self.tally.bytes, &line) {
                self.take_back_last()?;
                return Err(e);
            }
            self.wrote = true;
        } else {
            self.memory.push(entry);
        }
        self.tally.add_line(line.as_bytes(), true);
        if self.tally.entries.saturating_sub(self.checkpointed) >= CHECKPOINT_EVERY {
            // A checkpoint that cannot be written costs nothing but time:
            // the journal holds the entry.
            let _ = self.write_checkpoint(false);
        }
        Ok(())
    }

    /// Take back what the last `apply_recorded` did (its append failed).
    fn take_back_last(&mut self) -> Result<(), GameError> {
        match self.recent.pop() {
            Some(last) => {
                self.turn = last.turn;
                for (part, state) in self.parts.iter_mut().zip(last.parts) {
                    part.state = state;
                }
                Ok(())
            }
            None => self.refold(),
        }
    }

    fn cut_journal(&mut self, at: u64) -> Result<(), GameError> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let journal = Journal::path_for(path);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&journal)
            .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?;
        file.set_len(at)
            .and_then(|()| file.sync_data())
            .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))
    }

    /// Every entry still in force, in order (read whole: for checks and
    /// tests, not for a long game's every line).
    pub fn live_entries(&self) -> Result<Vec<Entry>, GameError> {
        let mut live: Vec<Entry> = Vec::new();
        let mut source = self.source()?;
        while let Some(e) = source.next()? {
            match e.undo {
                Some(_) => {
                    live.pop();
                }
                None => live.push(e),
            }
        }
        source.finish(&self.tally)?;
        Ok(live)
    }

    /// The last entry recorded in a game kept in memory.
    pub fn last_recorded(&self) -> Option<&Entry> {
        self.memory.last()
    }

    /// Why the last entry resolved again was not applied, if it was not.
    pub fn take_rejected(&mut self) -> Option<String> {
        self.rejected.take()
    }

    /// The journal's path, as messages name it.
    pub fn journal_shown(&self) -> String {
        match (&self.file, &self.store) {
            (Some(f), Some(s)) if s.read_only => f.display().to_string(),
            (Some(f), _) => Journal::path_for(f).display().to_string(),
            _ => "the game".to_string(),
        }
    }

    /// Write the game file: the checkpoint of the state now. `durable`
    /// syncs it (a new game); otherwise the journal is the record.
    fn write_checkpoint(&mut self, durable: bool) -> Result<(), GameError> {
        let Some(path) = self.file.clone() else {
            return Ok(());
        };
        let f = GameFile::new(
            self.id.clone(),
            self.sources.clone(),
            self.tally.mark(),
            self.state(),
            self.checkpoints(),
        );
        file::write_game_file(&path, &f, durable)?;
        self.checkpointed = self.tally.entries;
        Ok(())
    }

    /// Write this game's checkpoint as the game file at `path` (`repair`,
    /// from a journal resolved again whole), synced.
    pub fn checkpoint_as(&self, path: &Path) -> Result<(), GameError> {
        let f = GameFile::new(
            self.id.clone(),
            self.sources.clone(),
            self.tally.mark(),
            self.state(),
            self.checkpoints(),
        );
        file::write_game_file(path, &f, true)
    }

    /// Each rule system's part as it restores it.
    fn checkpoints(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut checkpoint = serde_json::Map::new();
        for part in &self.parts {
            if let Some(saved) = part.state.checkpoint() {
                checkpoint.insert(part_key(part).to_string(), saved);
            }
        }
        checkpoint
    }

    /// The game file brought up to date, if this process wrote to the
    /// journal and nobody wrote after it: at the end of a run.
    pub fn close(&mut self) {
        if !self.wrote || self.checkpointed == self.tally.entries {
            return;
        }
        let Some(path) = self.file.clone() else {
            return;
        };
        let took = self
            .store
            .as_mut()
            .is_some_and(|s| s.lock.held() || s.lock.take(false).is_ok());
        if !took {
            return;
        }
        let len = std::fs::metadata(Journal::path_for(&path)).map(|m| m.len());
        if len.is_ok_and(|l| l == self.tally.bytes) {
            let _ = self.write_checkpoint(false);
        }
        self.end_line();
    }

    /// `save PATH`: a copy of the game, game file and journal, as a new
    /// game of its own (a new id, the chain made again). The copy is
    /// written whole or not at all: both files to temporaries, then the
    /// journal renamed, then the game file.
    pub fn save_as(&self, path: &Path, force: bool) -> Result<(), GameError> {
        let journal = Journal::path_for(path);
        for p in [path, journal.as_path()] {
            crate::files::check_output(p, force).map_err(|e| GameError::Usage(e.to_string()))?;
        }
        if let Some(own) = &self.file
            && (same_file(own, path) || same_file(&Journal::path_for(own), path))
        {
            return Err(GameError::Usage(format!(
                "{} is this game's own file: `save` writes a copy under another name",
                path.display()
            )));
        }
        let id = journal::new_game_id();
        let mut tally = Tally::default();
        let mut text = Journal::header(&id, &self.sources)?;
        tally.add_line(text.as_bytes(), false);
        let mut source = self.source()?;
        while let Some(mut e) = source.next()? {
            e.prev = tally.head.clone();
            let line = e.line()?;
            tally.add_line(line.as_bytes(), true);
            text.push_str(&line);
        }
        source.finish(&self.tally)?;
        let f = GameFile::new(
            id,
            self.sources.clone(),
            tally.mark(),
            self.state(),
            self.checkpoints(),
        );
        file::write_pair(path, &f, &journal, text.as_bytes())
    }

    /// The whole state, as the game file keeps it: the turn, and each rule
    /// system's part under its name.
    pub fn state(&self) -> serde_json::Value {
        let mut state = serde_json::Map::new();
        state.insert("turn".into(), self.turn.into());
        for part in &self.parts {
            state.insert(part_key(part).into(), part.state.state());
        }
        serde_json::Value::Object(state)
    }

    /// How far the journal is applied: entries, bytes and the chain's head.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Read a game file: its armies, the journal entries it reflects, its
    /// state.
    pub fn read_file(path: &Path) -> Result<(Vec<ArmySource>, u64, serde_json::Value), GameError> {
        let file = read_game_file(path)?;
        Ok((file.armies, file.entries, file.state))
    }

    /// The army a unit is in, and its index.
    pub fn army_of(&self, id: &str) -> Option<(usize, &Army)> {
        self.armies
            .iter()
            .enumerate()
            .find(|(_, a)| a.ids().iter().any(|(i, _)| i == id))
    }

    /// The part of the rule system an army belongs to.
    fn part_of_army(&self, army: usize) -> Option<&Part> {
        self.parts.iter().find(|p| p.armies.contains(&army))
    }

    /// A line a rule system reads differently in this game (`initiative`
    /// alone): the line it stands for.
    pub fn expand(
        &self,
        system: System,
        command: &crate::command::Command,
        line: &str,
    ) -> Option<String> {
        self.parts
            .iter()
            .find(|p| p.set.system().books().contains(&system))
            .and_then(|p| p.state.expand(command, line))
    }

    /// What the new turn cleared or brought back, system by system.
    pub fn next_turn_texts(&self) -> Vec<String> {
        self.parts
            .iter()
            .filter_map(|p| p.state.next_turn_text())
            .collect()
    }

    /// Every fact a unit could bring in any state, for checks.
    pub fn possible_facts(&self, id: &str) -> Vec<crate::catalog::UnitFact> {
        self.army_of(id)
            .and_then(|(i, _)| self.part_of_army(i))
            .map(|p| p.state.possible_facts(id))
            .unwrap_or_default()
    }

    /// A game kept in memory with another army beside its own: what was
    /// resolved so far still stands (`load` in the REPL).
    pub fn with_army(&self, source: ArmySource) -> Result<Game, GameError> {
        let mut sources = self.sources.clone();
        sources.push(source);
        let mut game = Game::new(sources, &self.tables)?;
        game.memory = self.memory.clone();
        game.tally = self.tally.clone();
        game.refold()?;
        Ok(game)
    }
}

/// The entries of a game, one at a time.
enum Source {
    Memory(std::vec::IntoIter<Entry>),
    File {
        reader: Reader,
        upto: u64,
        journal: PathBuf,
    },
}

impl Source {
    fn next(&mut self) -> Result<Option<Entry>, GameError> {
        match self {
            Source::Memory(entries) => Ok(entries.next()),
            Source::File { reader, upto, .. } => {
                if reader.tally.entries >= *upto {
                    return Ok(None);
                }
                match reader.next_entry()? {
                    Next::Entry(e, _) => Ok(Some(*e)),
                    _ => Ok(None),
                }
            }
        }
    }

    /// The journal still holds the entries the game applied.
    fn finish(self, tally: &Tally) -> Result<(), GameError> {
        match self {
            Source::Memory(_) => Ok(()),
            Source::File {
                reader, journal, ..
            } if reader.tally != *tally => Err(GameError::Mismatch(format!(
                "{}: the journal no longer holds the entries this game applied",
                journal.display()
            ))),
            Source::File { .. } => Ok(()),
        }
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        self.close();
    }
}

/// A file written whole, synced (what `repair` keeps aside).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), GameError> {
    journal::write_atomically(path, bytes, true)
}

/// The check a game file should carry, for what it holds.
pub fn file_check(f: &GameFile) -> String {
    file::check(&f.journal, &f.state, &f.checkpoint)
}

/// The key a part's state is kept under in the game file.
fn part_key(part: &Part) -> &'static str {
    part.set
        .system()
        .books()
        .first()
        .map_or("rules", |b| b.id())
}

/// An effect as the journal keeps it: its own fields, and the unit it fell on.
fn record_of(unit: Option<&str>, effect: &dyn Effect) -> serde_json::Value {
    let mut json = effect.json();
    if let (Some(unit), Some(map)) = (unit, json.as_object_mut()) {
        map.insert("unit".into(), unit.into());
    }
    json
}

/// The army-list schemas of every rule book the tables know.
pub fn schemas(tables: &Tables) -> Schemas {
    schemas_of(tables.registry())
}

/// The army-list schemas of every rule book of a registry.
pub fn schemas_of(registry: &crate::system::Registry) -> Schemas {
    Schemas(
        registry
            .systems()
            .flat_map(|s| s.books().iter().map(move |b| (*b, s.name(), s.army())))
            .collect(),
    )
}

/// A journal of another format than this drumhead writes.
fn check_version(journal: &Path, version: u32) -> Result<(), GameError> {
    if version == journal::JOURNAL_VERSION {
        return Ok(());
    }
    let game = journal.with_extension("");
    Err(if version < journal::JOURNAL_VERSION {
        GameError::Mismatch(format!(
            "{}: a journal of version {version}, written by an older drumhead, with no hash chain: \
             nothing in it is applied until every entry is resolved again\n  \
             `drumhead repair {}` shows what that does, and `--apply` writes the journal again as a chain",
            journal.display(),
            game.display()
        ))
    } else {
        GameError::Usage(format!(
            "{}: a journal of version {version} is newer than this drumhead reads ({})",
            journal.display(),
            journal::JOURNAL_VERSION
        ))
    })
}

/// What to do when a game and its journal disagree.
pub fn repair_hint(path: &Path) -> String {
    format!(
        "\n  `drumhead repair {}` shows what can be done about it, and changes nothing until told",
        path.display()
    )
}

fn with_hint(e: GameError, path: &Path) -> GameError {
    match e {
        GameError::Mismatch(m) if !m.contains("drumhead repair") => {
            GameError::Mismatch(format!("{m}{}", repair_hint(path)))
        }
        GameError::Journal {
            file,
            line,
            message,
        } => GameError::Journal {
            file,
            line,
            message: format!("{message}{}", repair_hint(path)),
        },
        other => other,
    }
}

/// Reopening with `--army`: the lists must be those the game was made of.
fn same_armies(path: &Path, armies: &[ArmySource], given: &[ArmySource]) -> Result<(), GameError> {
    if armies.len() != given.len() {
        return Err(GameError::Usage(format!(
            "{} was started with {} army list(s) and {} were given: reopen it with `--game {}` alone, or the same --army files",
            path.display(),
            armies.len(),
            given.len(),
            path.display()
        )));
    }
    for (i, (have, new)) in armies.iter().zip(given).enumerate() {
        if have.text == new.text {
            continue;
        }
        let line = have
            .text
            .lines()
            .zip(new.text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.text.lines().count().min(new.text.lines().count()))
            + 1;
        return Err(GameError::Usage(format!(
            "{}: army {} ({}) differs from the list {} was started with ({}), first at line {line}: \
             a game keeps its armies; reopen it with `--game {}` alone, or start a new game",
            new.file,
            i + 1,
            new.file,
            path.display(),
            have.file,
            path.display()
        )));
    }
    Ok(())
}

/// Whether two paths name one file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// An id that is a word of the command language (a verb, `at`, `rolled`,
/// a word the unit's verbs know) could never be named: refused when the
/// list loads.
pub fn check_ids_are_not_words(armies: &[Army], tables: &Tables) -> Result<(), GameError> {
    let verbs = tables.verbs();
    let roll = crate::roll::verbs();
    for army in armies {
        let books: Vec<System> = tables
            .registry()
            .system_of(army.rules)
            .map(|s| s.books().to_vec())
            .unwrap_or_default();
        let mine = verbs
            .iter()
            .chain(&roll)
            .filter(|v| v.system.is_none_or(|b| books.contains(&b)));
        let mut words = crate::catalog::words_of(mine);
        words.extend(tables.books().iter().map(|b| b.id().to_string()));
        for (id, kind) in army.ids() {
            if words.contains(&id) {
                return Err(GameError::Usage(format!(
                    "{}: the {kind} id \"{id}\" is a word of the command language, so the {kind} could never be named; give it another id",
                    army.file
                )));
            }
        }
    }
    Ok(())
}

fn check_unique_ids(armies: &[Army]) -> Result<(), GameError> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    for army in armies {
        for (id, _) in army.ids() {
            if let Some((_, file)) = seen.iter().find(|(i, _)| *i == id) {
                return Err(GameError::Usage(format!(
                    "id `{id}` is used in both {file} and {}; ids must be unique across the armies of a game",
                    army.file
                )));
            }
            seen.push((id, &army.file));
        }
    }
    Ok(())
}

impl Units for Game {
    fn unit(&self, system: System, id: &str) -> Option<UnitFacts> {
        let (army, _) = self.army_of(id)?;
        let part = self.part_of_army(army)?;
        // A unit is named under its own rule system's books only.
        if !part.set.system().books().contains(&system) {
            return None;
        }
        let mut facts = part.state.facts(id)?;
        facts.out_of_action = part.state.out_of_action(id);
        Some(facts)
    }

    fn ids(&self) -> Vec<String> {
        self.armies
            .iter()
            .flat_map(|a| a.ids().into_iter().map(|(id, _)| id))
            .collect()
    }

    fn book_of(&self, id: &str) -> Option<System> {
        self.army_of(id).map(|(_, a)| a.rules)
    }
}
