//! The game file: a checkpoint of the game beside its journal. It names
//! the game (its id), keeps the armies whole, and holds the state after
//! the first N entries with the journal's mark at N (where the entries
//! end, and the hash of the last line, which the chain ties to all
//! before it). A check over the state and the mark finds a hand edit.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::journal::{self, GameError, Mark, hash};
use super::{ArmySource, repair_hint};
use crate::tables::HouseTable;

/// The game file format this drumhead writes: 3 is the checkpoint of a
/// hash-chained journal.
pub(crate) const GAME_VERSION: u32 = 3;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub(crate) drumhead_game: u32,
    /// The game's id: its journal's header names the same.
    pub(crate) game: String,
    pub(crate) armies: Vec<ArmySource>,
    /// The house tables in force, as the journal's header records them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) tables: Vec<HouseTable>,
    /// How many journal entries the state includes.
    pub entries: u64,
    /// How much of the journal it reflects.
    pub journal: Mark,
    /// The state, as people and scripts read it.
    pub(crate) state: serde_json::Value,
    /// Each rule system's part as it restores it.
    #[serde(default)]
    pub(crate) checkpoint: serde_json::Map<String, serde_json::Value>,
    /// SHA-256 over the mark, the state and the checkpoint.
    pub check: String,
}

impl GameFile {
    pub(crate) fn new(
        game: String,
        armies: Vec<ArmySource>,
        tables: Vec<HouseTable>,
        mark: Mark,
        state: serde_json::Value,
        checkpoint: serde_json::Map<String, serde_json::Value>,
    ) -> GameFile {
        let check = check(&mark, &state, &checkpoint);
        GameFile {
            drumhead_game: GAME_VERSION,
            game,
            armies,
            tables,
            entries: mark.entries,
            journal: mark,
            state,
            checkpoint,
            check,
        }
    }
}

/// The check of a game file's mark, state and checkpoint.
pub fn check(
    mark: &Mark,
    state: &serde_json::Value,
    checkpoint: &serde_json::Map<String, serde_json::Value>,
) -> String {
    let text = serde_json::json!([mark, state, checkpoint]).to_string();
    hash(text.as_bytes())
}

/// Read a game file of this drumhead's format.
pub(crate) fn read_game_file(path: &Path) -> Result<GameFile, GameError> {
    let text = crate::files::read_text(path, crate::limits::MAX_GAME_BYTES, "game file")
        .map_err(|e| GameError::Io(e.to_string()))?;
    let not_a_game = |e: String| {
        GameError::Mismatch(format!(
            "{}: not a drumhead game file ({e}){}",
            path.display(),
            repair_hint(path)
        ))
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| not_a_game(e.to_string()))?;
    let version = value
        .get("drumhead_game")
        .and_then(|v| v.as_u64())
        .ok_or_else(|| not_a_game("it has no `drumhead_game` version".into()))?;
    if version > u64::from(GAME_VERSION) {
        return Err(GameError::Usage(format!(
            "{}: a game file of version {version} is newer than this drumhead reads ({GAME_VERSION})",
            path.display()
        )));
    }
    if version < u64::from(GAME_VERSION) {
        return Err(GameError::Mismatch(format!(
            "{}: a game file of version {version}, written by an older drumhead, whose journal has no hash chain: \
             nothing in it is applied until every entry is resolved again{}",
            path.display(),
            repair_hint(path)
        )));
    }
    let file: GameFile = serde_json::from_value(value).map_err(|e| not_a_game(e.to_string()))?;
    if file.entries != file.journal.entries {
        return Err(not_a_game(
            "its entries and its mark of the journal disagree".into(),
        ));
    }
    Ok(file)
}

/// Write a game file atomically.
pub(crate) fn write_game_file(
    path: &Path,
    file: &GameFile,
    durable: bool,
) -> Result<(), GameError> {
    let text = serde_json::to_string_pretty(file).map_err(|e| GameError::Io(e.to_string()))?;
    journal::write_atomically(path, text.as_bytes(), durable)
}

/// A new game's two files, written whole or not at all: the journal, then
/// the game file; if the game file cannot be written, the journal just
/// written is removed, so no journal is left to open as a game.
pub(crate) fn write_pair(
    path: &Path,
    file: &GameFile,
    journal_path: &Path,
    journal: &[u8],
) -> Result<(), GameError> {
    let text = serde_json::to_string_pretty(file).map_err(|e| GameError::Io(e.to_string()))?;
    journal::write_atomically(journal_path, journal, true)?;
    if let Err(e) = journal::write_atomically(path, text.as_bytes(), true) {
        let _ = std::fs::remove_file(journal_path);
        return Err(e);
    }
    Ok(())
}
