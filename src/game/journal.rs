//! The journal beside a game file (`GAME.journal`, JSON Lines): a header
//! with the armies, then one entry per resolution, state change or undo.
//! Appended and synced before the game file is rewritten, so the game file
//! is always the fold of a prefix of the journal.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::ArmySource;
use crate::army::ArmyError;

#[derive(Debug, Error)]
pub enum GameError {
    #[error(transparent)]
    Army(#[from] ArmyError),
    #[error("{0}")]
    Io(String),
    #[error("{0}")]
    Usage(String),
    #[error("{file}:{line}: {message}")]
    Journal {
        file: String,
        line: usize,
        message: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub entry: u64,
    pub turn: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Each effect as its rule system writes it, with the unit it fell on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<serde_json::Value>,
    /// This entry takes back entry N.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo: Option<u64>,
}

impl Entry {
    /// The effect of `next-turn`, the one effect that is the game's own.
    pub const NEXT_TURN: &'static str = "next-turn";

    /// Whether this entry advances the turn.
    pub fn next_turn(&self) -> bool {
        self.system.is_none()
            && self.undo.is_none()
            && self
                .effects
                .iter()
                .any(|e| e.get("effect").and_then(|v| v.as_str()) == Some(Entry::NEXT_TURN))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    drumhead_journal: u32,
    armies: Vec<ArmySource>,
}

pub struct Journal;

impl Journal {
    pub fn path_for(game: &Path) -> PathBuf {
        let mut name = game
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        name.push(".journal");
        game.with_file_name(name)
    }

    pub fn create(path: &Path, armies: &[ArmySource]) -> Result<(), GameError> {
        let header = Header {
            drumhead_journal: 1,
            armies: armies.to_vec(),
        };
        let line = serde_json::to_string(&header).map_err(|e| GameError::Io(e.to_string()))?;
        write_atomically(path, format!("{line}\n").as_bytes())
    }

    pub fn append(path: &Path, entry: &Entry) -> Result<(), GameError> {
        let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", path.display()));
        let line = serde_json::to_string(entry).map_err(|e| GameError::Io(e.to_string()))?;
        let mut file = OpenOptions::new().append(true).open(path).map_err(io)?;
        file.write_all(format!("{line}\n").as_bytes()).map_err(io)?;
        file.sync_data().map_err(io)
    }

    /// The armies and every complete entry. A last line cut short by a
    /// kill mid-write is not an entry and is left out.
    pub fn read(path: &Path) -> Result<(Vec<ArmySource>, Vec<Entry>), GameError> {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| GameError::Io(format!("{file}: {e}")))?;
        let mut lines = text.split_inclusive('\n').enumerate();
        let bad = |line: usize, message: String| GameError::Journal {
            file: file.clone(),
            line,
            message,
        };
        let header: Header = match lines.next() {
            Some((_, l)) => serde_json::from_str(l).map_err(|e| bad(1, e.to_string()))?,
            None => return Err(bad(1, "empty journal: no header".into())),
        };
        let mut entries = Vec::new();
        for (i, l) in lines {
            if !l.ends_with('\n') {
                break;
            }
            let entry: Entry = serde_json::from_str(l).map_err(|e| bad(i + 1, e.to_string()))?;
            if entry.entry != entries.len() as u64 + 1 {
                return Err(bad(i + 1, format!("entry {} out of order", entry.entry)));
            }
            entries.push(entry);
        }
        Ok((header.armies, entries))
    }
}

/// Write to a temporary file beside `path`, sync it, and rename it over
/// `path`: a reader sees the old file or the new one, never half of one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), GameError> {
    let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", path.display()));
    let mut tmp_name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    {
        let mut f = File::create(&tmp).map_err(io)?;
        f.write_all(bytes).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    std::fs::rename(&tmp, path).map_err(io)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}
