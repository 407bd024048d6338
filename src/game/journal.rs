//! The journal beside a game file (`GAME.journal`, JSON Lines): a header
//! with the armies, then one entry per resolution, state change or undo.
//! It is the truth: an entry is appended and synced to disk before the
//! game file is rewritten, and the game file records how much of the
//! journal it reflects (entries, bytes and a SHA-256 of those bytes), so
//! a cut journal, a torn last line or a game file that does not match is
//! found and said, never silently rolled back or forward.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use super::ArmySource;
use crate::army::ArmyError;
use crate::limits::{MAX_JOURNAL_BYTES, MAX_JOURNAL_LINE};

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
    /// The game file and its journal disagree: nothing is changed, and the
    /// user is told how to look at it (`drumhead repair`).
    #[error("{0}")]
    Mismatch(String),
    /// Another process is writing the game.
    #[error("{0}")]
    Locked(String),
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

    /// The entry as one journal line, newline included.
    pub fn line(&self) -> Result<String, GameError> {
        serde_json::to_string(self)
            .map(|l| format!("{l}\n"))
            .map_err(|e| GameError::Io(e.to_string()))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    drumhead_journal: u32,
    armies: Vec<ArmySource>,
}

/// How much of a journal a game file reflects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    pub entries: u64,
    pub bytes: u64,
    pub sha256: String,
}

/// A running account of the journal's bytes: its length and hash so far.
#[derive(Clone)]
pub struct Tally {
    pub entries: u64,
    pub bytes: u64,
    hasher: Sha256,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            entries: 0,
            bytes: 0,
            hasher: Sha256::new(),
        }
    }
}

impl Tally {
    /// A line written or read, newline included.
    pub fn add_line(&mut self, line: &[u8], entry: bool) {
        self.hasher.update(line);
        self.bytes += line.len() as u64;
        if entry {
            self.entries += 1;
        }
    }

    pub fn mark(&self) -> Mark {
        let digest = self.hasher.clone().finalize();
        Mark {
            entries: self.entries,
            bytes: self.bytes,
            sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

/// Everything a journal holds.
pub struct Contents {
    pub armies: Vec<ArmySource>,
    pub entries: Vec<Entry>,
    /// The whole journal's tally (complete lines only).
    pub tally: Tally,
    /// The tally at the entry count asked for, when the journal has it.
    pub at: Option<Mark>,
    /// A last line cut short (a kill or a full disk mid-write): its byte
    /// offset and length. It is not an entry.
    pub torn: Option<(u64, u64)>,
}

/// A journal read as far as it is sound.
pub struct Lenient {
    pub contents: Contents,
    /// The first line that could not be read, if any.
    pub damaged: Option<Damage>,
}

/// A damaged journal line: its number, its byte offset, what is wrong.
#[derive(Debug, Clone)]
pub struct Damage {
    pub line: usize,
    pub at: u64,
    pub message: String,
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

    /// The header line of a journal of these armies.
    pub fn header(armies: &[ArmySource]) -> Result<String, GameError> {
        let header = Header {
            drumhead_journal: 1,
            armies: armies.to_vec(),
        };
        serde_json::to_string(&header)
            .map(|l| format!("{l}\n"))
            .map_err(|e| GameError::Io(e.to_string()))
    }

    /// Append one line and sync it to disk. If it cannot be written whole,
    /// the journal is cut back to where it was: the entry is not recorded.
    pub fn append(file: &mut File, path: &Path, at: u64, line: &str) -> Result<(), GameError> {
        let written = file
            .write_all(line.as_bytes())
            .and_then(|()| file.sync_data());
        if let Err(e) = written {
            let _ = file.set_len(at);
            let _ = file.sync_data();
            return Err(GameError::Io(format!(
                "{}: the entry could not be written ({e}); it was not recorded",
                path.display()
            )));
        }
        Ok(())
    }

    /// Read a journal; `mark_at` asks for the tally after that many entries.
    /// A damaged line is an error naming it.
    pub fn read_at(path: &Path, mark_at: Option<u64>) -> Result<Contents, GameError> {
        let read = Journal::read_lenient(path, mark_at)?;
        if let Some(damage) = read.damaged {
            return Err(GameError::Journal {
                file: path.display().to_string(),
                line: damage.line,
                message: damage.message,
            });
        }
        Ok(read.contents)
    }

    /// Read a journal as far as it is sound: the entries before the first
    /// damaged line, and where that line is.
    pub fn read_lenient(path: &Path, mark_at: Option<u64>) -> Result<Lenient, GameError> {
        let shown = path.display().to_string();
        crate::files::check_regular(path).map_err(|e| GameError::Io(e.to_string()))?;
        let file = File::open(path).map_err(|e| GameError::Io(format!("{shown}: {e}")))?;
        let mut reader = BufReader::new(file.take(MAX_JOURNAL_BYTES + 1));
        let mut tally = Tally::default();
        let mut mark = None;
        let mut armies = None;
        let mut entries = Vec::new();
        let mut torn = None;
        let mut damaged = None;
        let mut buf = Vec::new();
        let mut number = 0usize;
        loop {
            buf.clear();
            let n = (&mut reader)
                .take(MAX_JOURNAL_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(|e| GameError::Io(format!("{shown}: {e}")))?;
            if n == 0 {
                break;
            }
            number += 1;
            let damage = |message: String| Damage {
                line: number,
                at: tally.bytes,
                message,
            };
            if tally.bytes + n as u64 > MAX_JOURNAL_BYTES {
                damaged = Some(damage(format!(
                    "the journal is longer than {MAX_JOURNAL_BYTES} bytes, the most drumhead reads"
                )));
                break;
            }
            if buf.last() != Some(&b'\n') {
                if n > MAX_JOURNAL_LINE {
                    damaged = Some(damage(format!(
                        "a line longer than {MAX_JOURNAL_LINE} bytes: not a journal entry"
                    )));
                } else {
                    torn = Some((tally.bytes, n as u64));
                }
                break;
            }
            let Ok(text) = std::str::from_utf8(&buf) else {
                damaged = Some(damage("the line is not UTF-8 text".into()));
                break;
            };
            if armies.is_none() {
                match serde_json::from_str::<Header>(text) {
                    Ok(header) => armies = Some(header.armies),
                    Err(e) => {
                        damaged = Some(damage(format!("not a journal header: {e}")));
                        break;
                    }
                }
                tally.add_line(&buf, false);
            } else {
                match serde_json::from_str::<Entry>(text) {
                    Ok(entry) if entry.entry == entries.len() as u64 + 1 => entries.push(entry),
                    Ok(entry) => {
                        damaged = Some(damage(format!("entry {} out of order", entry.entry)));
                        break;
                    }
                    Err(e) => {
                        damaged = Some(damage(e.to_string()));
                        break;
                    }
                }
                tally.add_line(&buf, true);
            }
            if mark.is_none() && mark_at == Some(tally.entries) {
                mark = Some(tally.mark());
            }
        }
        let Some(armies) = armies else {
            return Err(GameError::Journal {
                file: shown,
                line: 1,
                message: damaged.map_or_else(
                    || "no header: this is not a drumhead journal (or it is empty)".to_string(),
                    |d| d.message,
                ),
            });
        };
        Ok(Lenient {
            contents: Contents {
                armies,
                entries,
                tally,
                at: mark,
                torn,
            },
            damaged,
        })
    }

    /// The armies and every complete entry.
    pub fn read(path: &Path) -> Result<(Vec<ArmySource>, Vec<Entry>), GameError> {
        let c = Journal::read_at(path, None)?;
        Ok((c.armies, c.entries))
    }
}

/// Write to a temporary file beside `path`, sync it, and rename it over
/// `path`: a reader sees the old file or the new one, never half of one.
/// The temporary file is removed if anything fails; the new file keeps
/// the old one's permissions.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), GameError> {
    let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", path.display()));
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp"))
        .tempfile_in(&dir)
        .map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    // The new file keeps the old one's permissions; a new file gets the
    // usual ones (a temporary file is made private).
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => meta.permissions(),
        Err(_) => {
            use std::os::unix::fs::PermissionsExt;
            std::fs::Permissions::from_mode(0o666 & !current_umask())
        }
    };
    let _ = tmp.as_file().set_permissions(permissions);
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The process's file-creation mask (read by setting it, then put back:
/// drumhead writes files from one thread only).
fn current_umask() -> u32 {
    // SAFETY: umask only swaps the process's mask; it cannot fail.
    let mask = unsafe { libc::umask(0o022) };
    // SAFETY: as above, putting the mask back.
    unsafe { libc::umask(mask) };
    mask
}

/// Remove temporary files a killed run left beside `path` (only ever
/// called by the process that holds the game's lock).
pub fn remove_stale_temporaries(path: &Path) {
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().to_string()) else {
        return;
    };
    let prefixes = [format!(".{name}.tmp"), format!(".{name}.journal.tmp")];
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().to_string();
        if prefixes.iter().any(|p| file.starts_with(p.as_str())) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Open a file for appending, creating nothing.
pub fn open_append(path: &Path) -> Result<File, GameError> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))
}
