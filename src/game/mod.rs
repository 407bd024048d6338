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

mod checks;
mod file;
mod history;
mod journal;
mod kept;
mod lock;
mod open;
mod record;
mod roster;
mod skip;
mod sync;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::answer::resolution::{Effect, Resolution};
use crate::army::{Army, Schemas, parse_army};
use crate::catalog::{UnitFacts, Units};
use crate::command::System;
use crate::system::{GamePart, RuleSet, Tables};

pub(crate) use checks::{check_ids_are_not_words, repair_hint};
use checks::{check_unique_ids, same_file};
pub use file::GameFile;
pub(crate) use file::read_game_file;
pub(crate) use journal::CHAIN_BROKEN;
pub(crate) use journal::JOURNAL_VERSION;
pub use journal::{Entry, GameError, Journal, Mark, Next, Reader, Tally, hash};
pub(crate) use lock::Lock;
pub(crate) use roster::log_entry;

/// Entries after which a writer writes the checkpoint again: what a
/// reader opening the game resolves again at most, after a kill.
pub(crate) const CHECKPOINT_EVERY: u64 = 256;

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
    pub(crate) wait: bool,
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
    /// Wait for another writer to finish instead of refusing at once.
    wait: bool,
    /// Entries the game file's checkpoint reflects.
    checkpointed: u64,
    /// This process appended to the journal (and so checkpoints at the end).
    wrote: bool,
}

pub struct Game {
    pub armies: Vec<Army>,
    pub(crate) sources: Vec<ArmySource>,
    pub(crate) turn: u32,
    /// Where the game is kept, if anywhere.
    pub file: Option<PathBuf>,
    /// What opening or catching up found and did, for the user.
    pub notes: Vec<String>,
    /// The game's id, made when it was created.
    id: String,
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
    /// Why the last entry resolved again was refused.
    rejected: Option<String>,
    /// A game in memory that ends with the one line it resolves (a
    /// one-shot run without `--game`): its notes say nothing is kept.
    one_line: bool,
    /// Where a game reopened from its file stands, for the user.
    reopened: Option<String>,
    /// The last entry recorded rolled from a seed chosen with `--seed`.
    last_chosen: Option<u64>,
    /// The entry this process recorded last, as written (a server's desk
    /// publishes its own entries without reading them back).
    last_written: Option<Entry>,
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
            tables: tables.clone(),
            parts: Vec::new(),
            tally: Tally::default(),
            memory: Vec::new(),
            recent: Vec::new(),
            store: None,
            expected: None,
            rejected: None,
            one_line: false,
            reopened: None,
            last_chosen: None,
            last_written: None,
        };
        game.parts = game.fresh_parts();
        Ok(game)
    }

    /// Each rule system's part, as at the start of the game.
    fn fresh_parts(&self) -> Vec<Part> {
        let mut parts = Vec::new();
        for (index, system) in self.tables.registry().systems().enumerate() {
            let mine: Vec<(usize, &Army)> = self
                .armies
                .iter()
                .enumerate()
                .filter(|(_, a)| system.books().contains(&a.rules))
                .collect();
            // A system with no army here keeps its tables unread.
            if mine.is_empty() {
                continue;
            }
            let Some(set) = self.tables.set_at(index) else {
                continue;
            };
            parts.push(Part {
                set: set.clone(),
                armies: mine.iter().map(|(i, _)| *i).collect(),
                state: set.game(&mine),
            });
        }
        parts
    }

    /// Fold one entry's effects into the state: as its rule system's part
    /// resolved them (`resolved`: the line was resolved here, just now),
    /// or as the journal keeps them (a game folded from its journal).
    fn apply_effects(&mut self, entry: &Entry, resolved: bool) -> Result<(), GameError> {
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
        let Some(part) = self
            .parts
            .iter_mut()
            .find(|p| p.set.system().books().contains(&book))
        else {
            // An effect on the game of a system with no army here
            // (`initiative` typed out) falls on nothing.
            if entry
                .effects
                .iter()
                .any(|e| e.get("unit").and_then(|u| u.as_str()).is_some())
            {
                return Err(bad(format!("no army of {} in this game", book.title())));
            }
            return Ok(());
        };
        if resolved {
            let applied = part.state.apply_resolved().map_err(&bad)?;
            if applied != entry.effects.len() {
                return Err(bad(format!(
                    "the line had {} effects, and {applied} were applied",
                    entry.effects.len()
                )));
            }
            return Ok(());
        }
        fold_entry(part.state.as_mut(), part.set.system().books(), entry).map_err(&bad)
    }

    /// Apply an entry in force, keeping the state before it for `undo`;
    /// or take back the entry an undo names.
    fn apply_recorded(&mut self, entry: &Entry, resolved: bool) -> Result<(), GameError> {
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
            self.go_back(last);
            return Ok(());
        }
        let before = Recent {
            entry: entry.entry,
            line: entry.line.clone(),
            turn: self.turn,
            parts: self.parts.iter().map(|p| p.state.snapshot()).collect(),
        };
        if let Err(e) = self.apply_effects(entry, resolved) {
            self.go_back(before);
            return Err(e);
        }
        if self.recent.len() == SNAPSHOTS {
            self.recent.remove(0);
        }
        self.recent.push(before);
        Ok(())
    }

    /// Why the last entry resolved again was not applied, if it was not.
    pub(crate) fn take_rejected(&mut self) -> Option<String> {
        self.rejected.take()
    }

    /// The journal's path, as messages name it.
    pub(crate) fn journal_shown(&self) -> String {
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
        file::write_game_file(&path, &self.game_file(), durable)?;
        if let Some(store) = &mut self.store {
            store.checkpointed = self.tally.entries;
        }
        Ok(())
    }

    /// Write this game's checkpoint as the game file at `path` (`repair`,
    /// from a journal resolved again whole), synced.
    pub(crate) fn checkpoint_as(&self, path: &Path) -> Result<(), GameError> {
        file::write_game_file(path, &self.game_file(), true)
    }

    /// The game file of the state now.
    fn game_file(&self) -> GameFile {
        GameFile::new(
            self.id.clone(),
            self.sources.clone(),
            self.tables.house().to_vec(),
            self.tally.mark(),
            self.state(),
            self.checkpoints(),
        )
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

    /// `save PATH`: a copy of the game, game file and journal, as a new
    /// game of its own (a new id, the chain made again). The copy is
    /// written whole or not at all: both files to temporaries, then the
    /// journal renamed, then the game file.
    pub(crate) fn save_as(&self, path: &Path, force: bool) -> Result<(), GameError> {
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
        let mut text = Journal::header(&id, &self.sources, self.tables.house())?;
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
            self.tables.house().to_vec(),
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

    /// The tables the game is resolved under.
    pub(crate) fn tables(&self) -> &Tables {
        &self.tables
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
    pub(crate) fn army_of(&self, id: &str) -> Option<(usize, &Army)> {
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
    pub(crate) fn expand(
        &self,
        system: System,
        command: &crate::command::Command,
        line: &str,
    ) -> Option<crate::command::Command> {
        self.parts
            .iter()
            .find(|p| p.set.system().books().contains(&system))
            .and_then(|p| p.state.view().expand(command, line))
    }

    /// Resolve a prepared line of `system` with the resolver of its part
    /// of the game, which keeps the effects until the line is recorded
    /// ([`Game::record`]). `None` when no army of the system is here.
    pub(crate) fn resolve(
        &mut self,
        system: System,
        prepared: &crate::catalog::Prepared,
        dice: &mut dyn crate::dice::DiceSource,
    ) -> Option<Result<Resolution, crate::error::CommandError>> {
        self.parts
            .iter_mut()
            .find(|p| p.set.system().books().contains(&system))
            .and_then(|p| p.state.resolve(prepared, dice))
    }

    /// What the new turn cleared or brought back, system by system.
    pub(crate) fn next_turn_texts(&self) -> Vec<String> {
        self.parts
            .iter()
            .filter_map(|p| p.state.view().next_turn_text())
            .collect()
    }

    /// Every fact a unit could bring in any state, for checks.
    pub fn possible_facts(&self, id: &str) -> Vec<crate::catalog::UnitFact> {
        self.army_of(id)
            .and_then(|(i, _)| self.part_of_army(i))
            .map(|p| p.state.view().possible_facts(id))
            .unwrap_or_default()
    }

    /// A game kept in memory with another army beside its own: what was
    /// resolved so far still stands (`load` in the REPL).
    pub(crate) fn with_army(&self, source: ArmySource) -> Result<Game, GameError> {
        let mut sources = self.sources.clone();
        sources.push(source);
        let mut game = Game::new(sources, &self.tables)?;
        game.memory = self.memory.clone();
        game.tally = self.tally.clone();
        game.refold()?;
        Ok(game)
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        self.close();
    }
}

/// A file written whole, synced (what `repair` keeps aside).
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), GameError> {
    journal::write_atomically(path, bytes, true)
}

/// The check a game file should carry, for what it holds.
pub fn file_check(f: &GameFile) -> String {
    file::check(&f.journal, &f.state, &f.checkpoint)
}

/// Fold one entry, as the journal keeps it, into the part of the rule
/// system whose books are `books`: a new turn falls on every part, a
/// line's effects on its own system's part only (another's is left as
/// it was).
pub(crate) fn fold_entry(
    part: &mut dyn GamePart,
    books: &[System],
    entry: &Entry,
) -> Result<(), String> {
    if entry.next_turn() {
        part.next_turn();
        return Ok(());
    }
    if !entry
        .system
        .as_deref()
        .is_some_and(|book| books.iter().any(|b| b.id() == book))
    {
        return Ok(());
    }
    for json in &entry.effects {
        let unit = json.get("unit").and_then(|u| u.as_str());
        part.apply_recorded(unit, json)?;
    }
    Ok(())
}

/// The key a part's state is kept under in the game file.
fn part_key(part: &Part) -> &'static str {
    part.set
        .system()
        .books()
        .first()
        .map_or("rules", |b| b.id())
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

impl Units for Game {
    fn unit(&self, system: System, id: &str) -> Option<UnitFacts> {
        let (army, _) = self.army_of(id)?;
        let part = self.part_of_army(army)?;
        // A unit is named under its own rule system's books only.
        if !part.set.system().books().contains(&system) {
            return None;
        }
        let view = part.state.view();
        let mut facts = view.facts(id)?;
        facts.out_of_action = view.out_of_action(id);
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

    fn contradicts(
        &self,
        system: System,
        verb: &str,
        id: &str,
        word: &str,
        value: Option<i64>,
    ) -> Option<(String, bool)> {
        let (index, army) = self.army_of(id)?;
        let part = self.part_of_army(index)?;
        if !part.set.system().books().contains(&system) {
            return None;
        }
        match part.state.view().contradicts(id, verb, word, value)? {
            (why, true) => Some((format!("{why} ({})", army.file), true)),
            (why, false) => Some((why, false)),
        }
    }

    fn keeps_state(&self) -> bool {
        self.file.is_some()
    }

    fn side_of(&self, id: &str) -> Option<String> {
        self.army_of(id).map(|(_, army)| army.side.clone())
    }

    fn sides(&self, system: System) -> Vec<String> {
        self.armies
            .iter()
            .filter(|a| {
                self.tables
                    .registry()
                    .systems()
                    .any(|s| s.books().contains(&a.rules) && s.books().contains(&system))
            })
            .map(|a| a.side.clone())
            .collect()
    }

    fn possible_words(&self, system: System, id: &str) -> Vec<String> {
        let Some(part) = self.army_of(id).and_then(|(i, _)| self.part_of_army(i)) else {
            return Vec::new();
        };
        if !part.set.system().books().contains(&system) {
            return Vec::new();
        }
        part.state
            .view()
            .possible_facts(id)
            .into_iter()
            .map(|f| f.word.into_owned())
            .collect()
    }
}
