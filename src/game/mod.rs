//! A game: the loaded armies, what each rule system keeps of their units,
//! and the journal of every resolution. The state is always the fold of
//! the journal's effects, so `undo` and `replay` rebuild it exactly; the
//! game file is that state written atomically after every change.
//!
//! The game names no rule system's words: each system keeps its own part
//! ([`GamePart`]) of its armies' units, applies the typed effects its
//! resolutions have, says what a unit brings to a command, and draws its
//! own roster.

mod journal;
mod lock;
pub mod repair;
mod roster;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::army::{Army, Schemas, parse_army};
use crate::catalog::{UnitFacts, Units};
use crate::command::System;
use crate::resolution::{Effect, Resolution};
use crate::system::{GamePart, RuleSet, Tables};

pub use journal::{Contents, Entry, GameError, Journal, Mark, Tally};
pub use lock::Lock;

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

/// What the process that writes a game holds: the lock, and the journal
/// open for appending.
struct Writer {
    _lock: Lock,
    journal: File,
}

pub struct Game {
    pub armies: Vec<Army>,
    pub sources: Vec<ArmySource>,
    pub turn: u32,
    /// Every entry so far, undone ones included (they stay in the journal).
    pub entries: Vec<Entry>,
    /// Where the game is kept, if anywhere.
    pub file: Option<PathBuf>,
    /// What opening the game found and did, for the user (a new game, a
    /// torn journal line cut…).
    pub notes: Vec<String>,
    options: Options,
    tables: Tables,
    parts: Vec<Part>,
    /// The journal as far as it has been read or written.
    tally: Tally,
    writer: Option<Writer>,
    /// Work the first write does: a torn last line to cut (its offset),
    /// a game file behind its journal to bring up to date.
    cut_at: Option<(u64, u64)>,
    stale_file: bool,
    /// Entries taken back by `undo`.
    undone: std::collections::HashSet<u64>,
    /// The state before each of the last entries recorded, so that `undo`
    /// goes back in one step rather than folding the whole journal again.
    snapshots: Vec<Snapshot>,
}

/// The state before an entry was applied.
struct Snapshot {
    entry: u64,
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
            entries: Vec::new(),
            file: None,
            notes: Vec::new(),
            options: Options::default(),
            tables: tables.clone(),
            parts: Vec::new(),
            tally: Tally::default(),
            writer: None,
            cut_at: None,
            stale_file: false,
            undone: Default::default(),
            snapshots: Vec::new(),
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
    /// nor its journal exists. Opening writes nothing: the journal is
    /// checked against the game file, and anything to mend is mended by
    /// the first write, under the lock. A game file that does not match
    /// its journal is refused, with what to do about it.
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
            let mut game = Game::new(sources, tables)?;
            game.file = Some(path.to_path_buf());
            game.options = options;
            game.become_writer()?;
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
            return Ok(game);
        }
        let file = if game_exists {
            Some(read_game_file(path)?)
        } else {
            None
        };
        let reflected = file.as_ref().map_or(0, |f| f.entries);
        let contents = if journal_exists {
            Some(Journal::read_at(&journal, Some(reflected))?)
        } else if reflected > 0 {
            return Err(GameError::Mismatch(format!(
                "{}: the journal of this game is missing; the game cannot be checked or undone without it{}",
                journal.display(),
                repair_hint(path)
            )));
        } else {
            None
        };
        let armies = match (&contents, &file) {
            (Some(c), _) => c.armies.clone(),
            (None, Some(f)) => f.armies.clone(),
            (None, None) => Vec::new(),
        };
        if !sources.is_empty() {
            same_armies(path, &armies, &sources)?;
        }
        let mut game = Game::new(armies, tables)?;
        game.file = Some(path.to_path_buf());
        game.options = options;
        let Some(contents) = contents else {
            // Created, then killed before its journal was: the first write
            // makes the journal.
            game.stale_file = true;
            return Ok(game);
        };
        if let Some(f) = &file {
            check_against(path, f, &contents)?;
            // The game file's state must be what its part of the journal folds to.
            game.entries = contents.entries[..reflected as usize].to_vec();
            game.rebuild()?;
            if game.state() != f.state {
                return Err(GameError::Mismatch(format!(
                    "{}: the state in the game file is not what its journal says (was it edited by hand?); \
                     the journal is the record of the game{}",
                    path.display(),
                    repair_hint(path)
                )));
            }
        }
        game.stale_file = file.is_none() || (reflected as usize) < contents.entries.len();
        game.entries = contents.entries;
        game.tally = contents.tally;
        game.rebuild()?;
        if let Some((at, len)) = contents.torn {
            game.cut_at = Some((at, len));
            game.notes.push(format!(
                "{}: the last line ({len} bytes) was cut short while it was being written; \
                 that command was not recorded and its line is removed at the next write",
                journal.display()
            ));
        }
        Ok(game)
    }

    /// Take the game's lock before the first write, catch up with anything
    /// another writer recorded since the game was read, and mend what
    /// opening found.
    fn become_writer(&mut self) -> Result<(), GameError> {
        if self.writer.is_some() {
            return Ok(());
        }
        let Some(path) = self.file.clone() else {
            return Ok(());
        };
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
        let lock = Lock::acquire(&path, self.options.wait)?;
        journal::remove_stale_temporaries(&path);
        if journal.symlink_metadata().is_err() {
            // A new game: its file first, then its journal. A kill between
            // the two leaves a game file with no entries, which the next
            // write completes; never a journal without its game file.
            let header = Journal::header(&self.sources)?;
            self.tally = Tally::default();
            self.tally.add_line(header.as_bytes(), false);
            if path.symlink_metadata().is_err() {
                self.save()?;
            }
            journal::write_atomically(&journal, header.as_bytes())?;
            self.stale_file = true;
        } else {
            let len = std::fs::metadata(&journal)
                .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?
                .len();
            let expected = self.tally.bytes + self.cut_at.map_or(0, |(_, torn)| torn);
            if len != expected {
                self.catch_up(&journal)?;
            }
        }
        let file = journal::open_append(&journal)?;
        if let Some((at, _)) = self.cut_at.take() {
            file.set_len(at)
                .and_then(|()| file.sync_data())
                .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?;
        }
        self.writer = Some(Writer {
            _lock: lock,
            journal: file,
        });
        if self.stale_file {
            self.save()?;
            self.stale_file = false;
        }
        Ok(())
    }

    /// Another process wrote to the journal since it was read: read it
    /// again, so nothing it recorded is lost or numbered twice.
    fn catch_up(&mut self, journal: &Path) -> Result<(), GameError> {
        let contents = Journal::read_at(journal, None)?;
        if contents.armies != self.sources {
            return Err(GameError::Mismatch(format!(
                "{}: the journal's armies changed while the game was open",
                journal.display()
            )));
        }
        let before = self.entries.len();
        if contents.entries.len() < before || contents.entries[..before] != self.entries[..] {
            return Err(GameError::Mismatch(format!(
                "{}: the journal changed under this process (entries were removed or rewritten); nothing was recorded{}",
                journal.display(),
                self.file.as_deref().map(repair_hint).unwrap_or_default()
            )));
        }
        let added = contents.entries.len() - before;
        self.entries = contents.entries;
        self.tally = contents.tally;
        self.cut_at = contents.torn;
        self.rebuild()?;
        if added > 0 {
            self.notes.push(format!(
                "{added} entr{} recorded by another process since the game was opened now included",
                if added == 1 { "y" } else { "ies" }
            ));
        }
        Ok(())
    }

    /// Recompute the state from the entries that are not undone.
    pub fn rebuild(&mut self) -> Result<(), GameError> {
        self.turn = 1;
        self.parts = self.fresh_parts();
        self.snapshots.clear();
        self.undone = self.entries.iter().filter_map(|e| e.undo).collect();
        let live: Vec<Entry> = self.live_entries().into_iter().cloned().collect();
        for entry in &live {
            self.apply_entry(entry)?;
        }
        Ok(())
    }

    /// Fold one entry's effects into the state.
    fn apply_entry(&mut self, entry: &Entry) -> Result<(), GameError> {
        let bad = |message: String| GameError::Journal {
            file: self
                .file
                .as_ref()
                .map_or_else(String::new, |f| Journal::path_for(f).display().to_string()),
            line: entry.entry as usize + 1,
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

    /// Entries not taken back by `undo`.
    pub fn live_entries(&self) -> Vec<&Entry> {
        self.entries
            .iter()
            .filter(|e| e.undo.is_none() && !self.undone.contains(&e.entry))
            .collect()
    }

    /// The last entry still in force.
    fn last_live(&self) -> Option<&Entry> {
        self.entries
            .iter()
            .rev()
            .find(|e| e.undo.is_none() && !self.undone.contains(&e.entry))
    }

    /// The state as it stands, to go back to.
    fn snapshot(&self, entry: u64) -> Snapshot {
        Snapshot {
            entry,
            turn: self.turn,
            parts: self.parts.iter().map(|p| p.state.snapshot()).collect(),
        }
    }

    fn next_entry_number(&self) -> u64 {
        self.entries.len() as u64 + 1
    }

    /// Record a resolution and apply its effects: journal first (synced),
    /// then the state, then the game file. Returns what each effect did,
    /// in words. An entry that could not be written is not applied.
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
        let entry = Entry {
            entry: self.next_entry_number(),
            turn: self.turn,
            line: Some(line.to_string()),
            system: Some(system.id().to_string()),
            seed: res.seed,
            dice: res.dice.iter().map(|d| d.face).collect(),
            outcome: Some(res.outcome_text.to_string()),
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
            entry: self.next_entry_number(),
            turn: self.turn,
            line: Some(line.to_string()),
            system: None,
            seed: None,
            dice: Vec::new(),
            outcome: None,
            effects: vec![serde_json::json!({ "effect": Entry::NEXT_TURN })],
            undo: None,
        };
        self.commit(entry)
    }

    /// Take back the last entry still in force. Returns its line.
    pub fn undo(&mut self) -> Result<Option<String>, GameError> {
        // Another writer may have recorded since: undo the game's last entry.
        self.become_writer()?;
        let Some(last) = self.last_live().map(|e| (e.entry, e.line.clone())) else {
            return Ok(None);
        };
        let entry = Entry {
            entry: self.next_entry_number(),
            turn: self.turn,
            line: None,
            system: None,
            seed: None,
            dice: Vec::new(),
            outcome: None,
            effects: Vec::new(),
            undo: Some(last.0),
        };
        self.commit(entry)?;
        Ok(Some(last.1.unwrap_or_default()))
    }

    /// The state before `entry` (just undone): from its snapshot when one
    /// is kept, else folded again from the journal.
    fn go_back_before(&mut self, entry: u64) -> Result<(), GameError> {
        match self.snapshots.iter().position(|s| s.entry == entry) {
            Some(i) => {
                let snapshot = self.snapshots.swap_remove(i);
                self.snapshots.truncate(i);
                self.turn = snapshot.turn;
                for (part, state) in self.parts.iter_mut().zip(snapshot.parts) {
                    part.state = state;
                }
                Ok(())
            }
            None => self.rebuild(),
        }
    }

    /// Apply the entry, journal it, and write the game file.
    fn commit(&mut self, mut entry: Entry) -> Result<(), GameError> {
        self.become_writer()?;
        // Catching up may have added entries: number this one after them.
        entry.entry = self.next_entry_number();
        let line = entry.line()?;
        let before = self.tally.clone();
        // Applied first: an entry the game cannot apply never reaches the
        // journal (which would then not open).
        self.entries.push(entry.clone());
        let applied = match entry.undo {
            Some(target) => {
                self.undone.insert(target);
                self.go_back_before(target)
            }
            None => {
                let snapshot = self.snapshot(entry.entry);
                if self.snapshots.len() == SNAPSHOTS {
                    self.snapshots.remove(0);
                }
                self.snapshots.push(snapshot);
                self.apply_entry(&entry)
            }
        };
        if let Err(e) = applied {
            self.entries.pop();
            self.rebuild()?;
            return Err(e);
        }
        if let (Some(path), Some(writer)) = (&self.file, &mut self.writer) {
            let appended = Journal::append(
                &mut writer.journal,
                &Journal::path_for(path),
                self.tally.bytes,
                &line,
            );
            if let Err(e) = appended {
                self.entries.pop();
                self.rebuild()?;
                return Err(e);
            }
            self.tally.add_line(line.as_bytes(), true);
        }
        let Err(e) = self.save() else {
            return Ok(());
        };
        // The game file could not follow (a full disk): take the entry back
        // out of the journal too, so that what failed was not recorded.
        self.entries.pop();
        self.tally = before;
        if let (Some(path), Some(writer)) = (&self.file, &mut self.writer) {
            let journal = Journal::path_for(path);
            writer
                .journal
                .set_len(self.tally.bytes)
                .and_then(|()| writer.journal.sync_data())
                .map_err(|e2| {
                    GameError::Io(format!(
                        "{e}; and the journal could not be cut back ({e2}): {} holds the entry, \
                         which the next open applies",
                        journal.display()
                    ))
                })?;
        }
        self.rebuild()?;
        Err(GameError::Io(format!("{e}; the command was not recorded")))
    }

    /// Write the game file atomically: a temporary file, synced, renamed.
    pub fn save(&self) -> Result<(), GameError> {
        match &self.file {
            Some(path) => {
                let file = GameFile {
                    drumhead_game: 2,
                    armies: self.sources.clone(),
                    entries: self.tally.entries,
                    journal: Some(self.tally.mark()),
                    state: self.state(),
                };
                write_game_file(path, &file)
            }
            None => Ok(()),
        }
    }

    /// `save PATH`: a copy of the game, game file and journal, at a new
    /// path or over another drumhead game (`force`: over any regular
    /// file). Never through a symbolic link, never onto a FIFO, a device
    /// or a directory.
    pub fn save_as(&self, path: &Path, force: bool) -> Result<(), GameError> {
        let journal = Journal::path_for(path);
        for p in [path, journal.as_path()] {
            check_save_target(p, force)?;
        }
        if let Some(own) = &self.file
            && same_file(own, path)
        {
            return self.save();
        }
        let mut tally = Tally::default();
        let mut text = Journal::header(&self.sources)?;
        tally.add_line(text.as_bytes(), false);
        for entry in &self.entries {
            let line = entry.line()?;
            tally.add_line(line.as_bytes(), true);
            text.push_str(&line);
        }
        journal::write_atomically(&journal, text.as_bytes())?;
        let file = GameFile {
            drumhead_game: 2,
            armies: self.sources.clone(),
            entries: tally.entries,
            journal: Some(tally.mark()),
            state: self.state(),
        };
        write_game_file(path, &file)
    }

    /// The whole state, as the game file keeps it: the turn, and each rule
    /// system's part under its name.
    pub fn state(&self) -> serde_json::Value {
        let mut state = serde_json::Map::new();
        state.insert("turn".into(), self.turn.into());
        for part in &self.parts {
            let key = part
                .set
                .system()
                .books()
                .first()
                .map_or("rules", |b| b.id());
            state.insert(key.into(), part.state.state());
        }
        serde_json::Value::Object(state)
    }

    /// Read a game file: its armies, the journal entries it reflects, its
    /// state (for checks: the journal is what `open` trusts).
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

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    drumhead_game: u32,
    armies: Vec<ArmySource>,
    /// How many journal entries the state includes.
    entries: u64,
    /// How much of the journal it reflects, and its hash (from version 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    journal: Option<Mark>,
    state: serde_json::Value,
}

fn read_game_file(path: &Path) -> Result<GameFile, GameError> {
    let text = crate::files::read_text(path, crate::limits::MAX_GAME_BYTES, "game file")
        .map_err(|e| GameError::Io(e.to_string()))?;
    let file: GameFile = serde_json::from_str(&text).map_err(|e| {
        GameError::Mismatch(format!(
            "{}: not a drumhead game file ({e}){}",
            path.display(),
            repair_hint(path)
        ))
    })?;
    if file.drumhead_game > 2 {
        return Err(GameError::Usage(format!(
            "{}: a game file of version {} is newer than this drumhead reads (2)",
            path.display(),
            file.drumhead_game
        )));
    }
    Ok(file)
}

fn write_game_file(path: &Path, file: &GameFile) -> Result<(), GameError> {
    let text = serde_json::to_string_pretty(file).map_err(|e| GameError::Io(e.to_string()))?;
    journal::write_atomically(path, text.as_bytes())
}

/// What to do when a game and its journal disagree.
fn repair_hint(path: &Path) -> String {
    format!(
        "\n  `drumhead repair {}` shows what can be done about it, and changes nothing until told",
        path.display()
    )
}

/// The game file's account of the journal must hold of the journal.
fn check_against(path: &Path, file: &GameFile, contents: &Contents) -> Result<(), GameError> {
    let journal = Journal::path_for(path);
    let have = contents.entries.len() as u64;
    if have < file.entries {
        return Err(GameError::Mismatch(format!(
            "{}: the journal has {have} entries, but the game file reflects {}: the journal was cut or replaced{}",
            journal.display(),
            file.entries,
            repair_hint(path)
        )));
    }
    if let Some(mark) = &file.journal
        && contents.at.as_ref() != Some(mark)
    {
        return Err(GameError::Mismatch(format!(
            "{}: the game file does not match its journal (the first {} entries differ from what the game file recorded){}",
            journal.display(),
            file.entries,
            repair_hint(path)
        )));
    }
    Ok(())
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

/// Where `save` may write: a new path, or an existing drumhead game file
/// or journal (`force`: any regular file); never a link, FIFO, device or
/// directory.
fn check_save_target(path: &Path, force: bool) -> Result<(), GameError> {
    let Ok(meta) = path.symlink_metadata() else {
        return Ok(());
    };
    let refuse = |what: &str| {
        Err(GameError::Usage(format!(
            "{} {what}: `save` writes only a new file or a drumhead game",
            path.display()
        )))
    };
    let t = meta.file_type();
    if t.is_symlink() {
        return refuse("is a symbolic link, which `save` does not follow");
    }
    if let Err(e) = crate::files::check_regular(path) {
        return Err(GameError::Usage(format!(
            "{e}: `save` writes only a new file or a drumhead game"
        )));
    }
    if force {
        return Ok(());
    }
    let ours = match path.extension().and_then(|e| e.to_str()) {
        Some("journal") => Journal::read_at(path, None).is_ok(),
        _ => read_game_file(path).is_ok(),
    };
    if ours {
        Ok(())
    } else {
        refuse("exists and is not a drumhead game; add `force` to replace it")
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
