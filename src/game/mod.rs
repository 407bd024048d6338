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
mod roster;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::army::{Army, Schemas, parse_army};
use crate::catalog::{UnitFacts, Units};
use crate::command::System;
use crate::resolution::{Effect, Resolution};
use crate::system::{GamePart, RuleSet, Tables};

pub use journal::{Entry, GameError, Journal};

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

pub struct Game {
    pub armies: Vec<Army>,
    pub sources: Vec<ArmySource>,
    pub turn: u32,
    /// Every entry so far, undone ones included (they stay in the journal).
    pub entries: Vec<Entry>,
    /// Where the game is kept, if anywhere.
    pub file: Option<PathBuf>,
    tables: Tables,
    parts: Vec<Part>,
}

impl Game {
    /// A game of these armies, kept only in memory.
    pub fn new(sources: Vec<ArmySource>, tables: &Tables) -> Result<Game, GameError> {
        let schemas = schemas(tables);
        let mut armies = Vec::new();
        for s in &sources {
            armies.push(parse_army(&s.file, &s.text, &schemas).map_err(GameError::Army)?);
        }
        check_unique_ids(&armies)?;
        let mut game = Game {
            armies,
            sources,
            turn: 1,
            entries: Vec::new(),
            file: None,
            tables: tables.clone(),
            parts: Vec::new(),
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

    /// Open a game file, or create it with these armies when it does not
    /// exist. The journal beside it is the truth: if the game was killed
    /// between the two writes, the state is rebuilt from the journal.
    pub fn open(path: &Path, sources: Vec<ArmySource>, tables: &Tables) -> Result<Game, GameError> {
        let journal = Journal::path_for(path);
        if !path.exists() && !journal.exists() {
            // The game file first: a kill before the journal exists leaves
            // a new game file with no entries, which the next open completes.
            let mut game = Game::new(sources, tables)?;
            game.file = Some(path.to_path_buf());
            game.save()?;
            Journal::create(&journal, &game.sources)?;
            return Ok(game);
        }
        if !journal.exists() {
            let (armies, entries, _) = Game::read_file(path)?;
            if entries > 0 {
                return Err(GameError::Io(format!(
                    "{}: the journal of this game is missing; the game cannot be checked or undone without it",
                    journal.display()
                )));
            }
            Journal::create(&journal, &armies)?;
        }
        if !sources.is_empty() {
            return Err(GameError::Usage(format!(
                "{} already exists with its armies; --army starts a new game only (give a new --game file)",
                path.display()
            )));
        }
        let (header, entries) = Journal::read(&journal)?;
        let mut game = Game::new(header, tables)?;
        game.file = Some(path.to_path_buf());
        game.entries = entries;
        game.rebuild()?;
        // Bring the game file up to date with the journal.
        game.save()?;
        Ok(game)
    }

    /// Recompute the state from the entries that are not undone.
    pub fn rebuild(&mut self) -> Result<(), GameError> {
        self.turn = 1;
        self.parts = self.fresh_parts();
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
        let undone: Vec<u64> = self.entries.iter().filter_map(|e| e.undo).collect();
        self.entries
            .iter()
            .filter(|e| e.undo.is_none() && !undone.contains(&e.entry))
            .collect()
    }

    fn next_entry_number(&self) -> u64 {
        self.entries.len() as u64 + 1
    }

    /// Record a resolution and apply its effects: journal first, then the
    /// state, then the game file. Returns what each effect did, in words.
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
        self.append(&entry)?;
        let described = addressed
            .iter()
            .map(|(unit, e)| e.describe(*unit))
            .collect();
        self.apply_entry(&entry)?;
        self.entries.push(entry);
        self.save()?;
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
        self.append(&entry)?;
        self.apply_entry(&entry)?;
        self.entries.push(entry);
        self.save()
    }

    /// Take back the last entry still in force. Returns its line.
    pub fn undo(&mut self) -> Result<Option<String>, GameError> {
        let Some(last) = self
            .live_entries()
            .last()
            .map(|e| (e.entry, e.line.clone()))
        else {
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
        self.append(&entry)?;
        self.entries.push(entry);
        self.rebuild()?;
        self.save()?;
        Ok(Some(last.1.unwrap_or_default()))
    }

    fn append(&self, entry: &Entry) -> Result<(), GameError> {
        match &self.file {
            Some(path) => Journal::append(&Journal::path_for(path), entry),
            None => Ok(()),
        }
    }

    /// Write the game file atomically: a temporary file, synced, renamed.
    pub fn save(&self) -> Result<(), GameError> {
        match &self.file {
            Some(path) => self.save_as(path),
            None => Ok(()),
        }
    }

    pub fn save_as(&self, path: &Path) -> Result<(), GameError> {
        let file = GameFile {
            drumhead_game: 1,
            armies: self.sources.clone(),
            entries: self.entries.len() as u64,
            state: self.state(),
        };
        let text = serde_json::to_string_pretty(&file).map_err(|e| GameError::Io(e.to_string()))?;
        journal::write_atomically(path, text.as_bytes())
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

    /// Read a game file (for checks: the journal is what `open` trusts).
    pub fn read_file(path: &Path) -> Result<(Vec<ArmySource>, u64, serde_json::Value), GameError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))?;
        let file: GameFile = serde_json::from_str(&text)
            .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))?;
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
    state: serde_json::Value,
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
