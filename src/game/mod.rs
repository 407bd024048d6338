//! A game: the loaded armies, the state of every unit, and the journal of
//! every resolution. The state is always the fold of the journal's effects,
//! so `undo` and `replay` rebuild it exactly; the game file is that state
//! written atomically after every change.

mod effects;
mod facts;
mod journal;
mod roster;
mod state;

use std::path::{Path, PathBuf};

use crate::army::{Army, parse_army};
use crate::catalog::{Roster, UnitFacts, UnitNumber};
use crate::command::System;
use crate::resolution::Resolution;

pub use effects::effects;
pub use facts::Strength;
pub use journal::{Entry, GameError, Journal};
pub use state::{Effect, State, UnitState};

/// An army list as it was loaded, kept whole so a game file stands alone.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArmySource {
    pub file: String,
    pub text: String,
}

pub struct Game {
    pub armies: Vec<Army>,
    pub sources: Vec<ArmySource>,
    pub state: State,
    /// Every entry so far, undone ones included (they stay in the journal).
    pub entries: Vec<Entry>,
    /// Hits that remove one base, from the drums tables.
    pub hits_per_base: i64,
    /// Where the game is kept, if anywhere.
    pub file: Option<PathBuf>,
}

impl Game {
    /// A game of these armies, kept only in memory.
    pub fn new(sources: Vec<ArmySource>, hits_per_base: i64) -> Result<Game, GameError> {
        let mut armies = Vec::new();
        for s in &sources {
            armies.push(parse_army(&s.file, &s.text).map_err(GameError::Army)?);
        }
        check_unique_ids(&armies)?;
        Ok(Game {
            armies,
            sources,
            state: State::default(),
            entries: Vec::new(),
            hits_per_base,
            file: None,
        })
    }

    /// Open a game file, or create it with these armies when it does not
    /// exist. The journal beside it is the truth: if the game was killed
    /// between the two writes, the state is rebuilt from the journal.
    pub fn open(
        path: &Path,
        sources: Vec<ArmySource>,
        hits_per_base: i64,
    ) -> Result<Game, GameError> {
        let journal = Journal::path_for(path);
        if !path.exists() && !journal.exists() {
            // The game file first: a kill before the journal exists leaves
            // a new game file with no entries, which the next open completes.
            let mut game = Game::new(sources, hits_per_base)?;
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
        let mut game = Game::new(header, hits_per_base)?;
        game.file = Some(path.to_path_buf());
        game.entries = entries;
        game.rebuild();
        // Bring the game file up to date with the journal.
        game.save()?;
        Ok(game)
    }

    /// Recompute the state from the entries that are not undone.
    pub fn rebuild(&mut self) {
        let mut state = State::default();
        for entry in self.live_entries() {
            for effect in &entry.effects {
                state.apply(effect);
            }
        }
        self.state = state;
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

    /// Record a resolution and its effects: journal first, then the state file.
    pub fn record(
        &mut self,
        line: &str,
        system: System,
        res: &Resolution,
    ) -> Result<Vec<Effect>, GameError> {
        let effects = effects(res);
        let entry = Entry {
            entry: self.next_entry_number(),
            turn: self.state.turn,
            line: Some(line.to_string()),
            system: Some(system.id().to_string()),
            seed: res.seed,
            dice: res.dice.iter().map(|d| d.face).collect(),
            outcome: Some(res.outcome_text.to_string()),
            effects: effects.clone(),
            undo: None,
        };
        self.commit(entry)?;
        Ok(effects)
    }

    /// A state change that is not a resolution (`next-turn`).
    pub fn record_effects(&mut self, line: &str, effects: Vec<Effect>) -> Result<(), GameError> {
        let entry = Entry {
            entry: self.next_entry_number(),
            turn: self.state.turn,
            line: Some(line.to_string()),
            system: None,
            seed: None,
            dice: Vec::new(),
            outcome: None,
            effects,
            undo: None,
        };
        self.commit(entry)
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
            turn: self.state.turn,
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

    fn commit(&mut self, entry: Entry) -> Result<(), GameError> {
        if let Some(path) = &self.file {
            Journal::append(&Journal::path_for(path), &entry)?;
        }
        self.entries.push(entry);
        self.rebuild();
        self.save()
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
            state: self.state.clone(),
        };
        let text = serde_json::to_string_pretty(&file).map_err(|e| GameError::Io(e.to_string()))?;
        journal::write_atomically(path, text.as_bytes())
    }

    /// Read a game file (for checks: the journal is what `open` trusts).
    pub fn read_file(path: &Path) -> Result<(Vec<ArmySource>, u64, State), GameError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))?;
        let file: GameFile = serde_json::from_str(&text)
            .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))?;
        Ok((file.armies, file.entries, file.state))
    }

    pub fn find_unit(&self, id: &str) -> Option<(&Army, &crate::army::Unit)> {
        self.armies
            .iter()
            .find_map(|a| a.units.iter().find(|u| u.id == id).map(|u| (a, u)))
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    drumhead_game: u32,
    armies: Vec<ArmySource>,
    /// How many journal entries the state includes.
    entries: u64,
    state: State,
}

fn check_unique_ids(armies: &[Army]) -> Result<(), GameError> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
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

impl Roster for Game {
    fn unit(&self, system: System, id: &str) -> Option<UnitFacts> {
        for army in &self.armies {
            let state = self.state.unit(id);
            if let Some(u) = army.units.iter().find(|u| u.id == id) {
                let words = match system {
                    System::Drums => facts::drums_words(u, &state, self.hits_per_base),
                    System::Saber | System::SaberQuickplay => facts::saber_words(u),
                    System::Mayhem => Vec::new(),
                };
                let mut numbers = Vec::new();
                if let Some(cf) = u.cf {
                    numbers.push((UnitNumber::CombatFactor, cf.to_string()));
                }
                if let Some(mr) = u.mr {
                    numbers.push((UnitNumber::MoraleRating, mr.to_string()));
                }
                return Some(UnitFacts {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    words,
                    numbers,
                });
            }
            if let Some(f) = army.figures.iter().find(|f| f.id == id) {
                let courage = f.courage.map(|c| c.to_string()).or_else(|| f.rank.clone());
                return Some(UnitFacts {
                    id: f.id.clone(),
                    name: f.name.clone(),
                    words: facts::mayhem_words(f, &state),
                    numbers: courage
                        .map(|c| (UnitNumber::Courage, c))
                        .into_iter()
                        .collect(),
                });
            }
            if let Some(g) = army.generals.iter().find(|g| g.id == id) {
                let words = if g.commander {
                    vec!["commander".to_string()]
                } else {
                    Vec::new()
                };
                return Some(UnitFacts {
                    id: g.id.clone(),
                    name: g.name.clone(),
                    words,
                    numbers: Vec::new(),
                });
            }
            if let Some(l) = army.leaders.iter().find(|l| l.id == id) {
                return Some(UnitFacts {
                    id: l.id.clone(),
                    name: l.name.clone(),
                    words: Vec::new(),
                    numbers: l
                        .cf
                        .map(|cf| (UnitNumber::CombatFactor, cf.to_string()))
                        .into_iter()
                        .collect(),
                });
            }
        }
        None
    }

    fn ids(&self) -> Vec<String> {
        self.armies
            .iter()
            .flat_map(|a| a.ids().map(|(id, _)| id.to_string()))
            .collect()
    }
}
