//! The journal beside a game file (`GAME.journal`, JSON Lines): a header
//! naming the game and its armies, then one entry per resolution, state
//! change or undo. It is the record of the game, and a hash chain: each
//! entry holds the SHA-256 of the line before it, so an entry edited,
//! removed, inserted or carried over from another game (or from a copy
//! made by `save`, which is a new game) breaks the chain where it is.
//!
//! An entry keeps what was typed and thrown, never prose: the line, the
//! dice (which were entered, which rolled, and the seed they rolled
//! from), the outcome's id and the typed effects. That is what lets a
//! game trust nothing it has not resolved again itself.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use super::ArmySource;
use crate::army::ArmyError;
use crate::limits::{MAX_JOURNAL_BYTES, MAX_JOURNAL_LINE};
use crate::meta::GameVerb;
use crate::tables::HouseTable;

/// How a broken chain is said, first.
pub(crate) const CHAIN_BROKEN: &str = "the chain is broken here";

/// The journal format this drumhead writes: 2 is the hash chain.
pub(crate) const JOURNAL_VERSION: u32 = 2;

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
    pub(crate) entry: u64,
    /// The SHA-256 of the journal line before this one (the header's for
    /// the first entry), in hex. Empty in a game kept only in memory.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) prev: String,
    pub(crate) turn: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The seed the rolled dice came from, when any were rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) seed: Option<u64>,
    /// Every die the resolution read, in the order it read them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) dice: Vec<u32>,
    /// How many of `dice`, from the first, were entered (on the line with
    /// `rolled`, or with `--dice`); the rest were rolled from `seed`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) entered: usize,
    /// The outcome's id (`carry-on`, `forced-retire`…), never its prose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) outcome: Option<String>,
    /// Each effect as its rule system types it, with the unit it fell on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<serde_json::Value>,
    /// This entry takes back entry N.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) undo: Option<u64>,
    /// The seed was chosen with `--seed`, not drawn: the dice it rolled
    /// could have been picked by trying seeds on a copy first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) chosen: bool,
    /// The SHA-256 of the game's state after this entry (see
    /// [`state_digest`]): a game file's checkpoint is trusted only if its
    /// state is the one the entry at its mark records. Empty in a game
    /// kept only in memory, and in entries of an older drumhead.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) state: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The digest of a game's state: SHA-256 over its JSON with every
/// object's keys in order, so that two processes that built one state in
/// different orders agree.
pub(crate) fn state_digest(state: &serde_json::Value) -> String {
    fn write(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, key) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::from(key.as_str()).to_string());
                    out.push(':');
                    write(&map[key], out);
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = String::new();
    write(state, &mut text);
    hash(text.as_bytes())
}

impl Entry {
    /// The effect of `next-turn`, the one effect that is the game's own,
    /// recorded by the verb's name.
    pub(crate) const NEXT_TURN: &'static str = GameVerb::NextTurn.name();

    /// Whether this entry advances the turn.
    pub(crate) fn next_turn(&self) -> bool {
        self.system.is_none()
            && self.undo.is_none()
            && self
                .effects
                .iter()
                .any(|e| e.get("effect").and_then(|v| v.as_str()) == Some(Entry::NEXT_TURN))
    }

    /// The entry as one journal line, newline included.
    pub(crate) fn line(&self) -> Result<String, GameError> {
        serde_json::to_string(self)
            .map(|l| format!("{l}\n"))
            .map_err(|e| GameError::Io(e.to_string()))
    }

    /// What differs between this entry and the one a line resolves to
    /// again, in words (each field as recorded and as resolved again),
    /// or `None` when they are the same.
    pub(crate) fn differs_from(&self, again: &Entry) -> Option<String> {
        fn shown<T: Serialize>(v: &T) -> String {
            let text = serde_json::to_string(v).unwrap_or_default();
            match text.char_indices().nth(120) {
                Some((at, _)) => format!("{}…", &text[..at]),
                None => text,
            }
        }
        let mut differ: Vec<String> = Vec::new();
        let mut field = |what: &str, recorded: String, now: String| {
            if recorded != now {
                differ.push(format!("{what}: recorded {recorded}, resolved again {now}"));
            }
        };
        field("its number", shown(&self.entry), shown(&again.entry));
        field("its turn", shown(&self.turn), shown(&again.turn));
        field("its line", shown(&self.line), shown(&again.line));
        field("its rule system", shown(&self.system), shown(&again.system));
        field("its seed", shown(&self.seed), shown(&again.seed));
        field(
            "its dice",
            shown(&(&self.dice, self.entered)),
            shown(&(&again.dice, again.entered)),
        );
        field("its outcome", shown(&self.outcome), shown(&again.outcome));
        field("its effects", shown(&self.effects), shown(&again.effects));
        field("what it undoes", shown(&self.undo), shown(&again.undo));
        (!differ.is_empty()).then(|| differ.join("; "))
    }
}

/// The journal's first line: everything an entry's answer depends on
/// besides its own line and dice. The first entry records its hash, and
/// the game file too, so it cannot be changed under them.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    drumhead_journal: u32,
    /// The game's id, made when it was created: a journal is only ever
    /// read under the game file of the same id.
    #[serde(default)]
    game: String,
    armies: Vec<ArmySource>,
    /// The house tables in force (a `--tables` folder's files, `--crt`),
    /// each whole: none for the embedded tables alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tables: Vec<HouseTable>,
}

/// How much of a journal a game file reflects: the entries, where they
/// end, and the last line (its offset and hash), which the chain ties to
/// every line before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    pub(crate) entries: u64,
    pub(crate) bytes: u64,
    pub(crate) head_at: u64,
    pub(crate) head: String,
    /// The SHA-256 of the journal's header line (absent in a game file
    /// of an older drumhead).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) header: String,
}

/// A running account of the journal: entries and bytes so far, and the
/// last line's offset and hash (the chain's head).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub entries: u64,
    pub(crate) bytes: u64,
    pub(crate) head_at: u64,
    pub(crate) head: String,
    /// The header line's hash.
    pub(crate) header: String,
}

impl Tally {
    /// A line written or read, newline included: the header (`entry`
    /// false), or an entry.
    pub fn add_line(&mut self, line: &[u8], entry: bool) {
        self.head_at = self.bytes;
        self.head = hash(line);
        self.bytes += line.len() as u64;
        if entry {
            self.entries += 1;
        } else {
            self.header = self.head.clone();
        }
    }

    pub fn mark(&self) -> Mark {
        Mark {
            entries: self.entries,
            bytes: self.bytes,
            head_at: self.head_at,
            head: self.head.clone(),
            header: self.header.clone(),
        }
    }

    /// Where a mark stands, in a journal whose header hashes to `header`.
    pub(crate) fn from_mark(mark: &Mark, header: &str) -> Tally {
        Tally {
            entries: mark.entries,
            bytes: mark.bytes,
            head_at: mark.head_at,
            head: mark.head.clone(),
            header: header.to_string(),
        }
    }
}

/// SHA-256 in hex.
pub fn hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        out.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        out.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
    }
    out
}

/// The journal's first line, read.
pub(crate) struct Opening {
    pub(crate) version: u32,
    pub(crate) game: String,
    pub(crate) armies: Vec<ArmySource>,
    pub(crate) tables: Vec<HouseTable>,
}

/// What reading the next line found.
pub enum Next {
    /// An entry that follows the chain, and its line as written.
    Entry(Box<Entry>, Vec<u8>),
    /// The end of the journal.
    End,
    /// A last line without its newline: being written now by another
    /// process, or left by a writer that was killed (its offset, length).
    Torn(u64, u64),
}

/// A journal read line by line from any point, each line checked
/// against the chain: never more than one line in memory.
pub struct Reader {
    path: PathBuf,
    reader: BufReader<File>,
    /// Where the next line starts.
    at: u64,
    /// The chain so far.
    pub(crate) tally: Tally,
    /// The journal's line number of the next line (the header is 1).
    number: usize,
    buf: Vec<u8>,
    /// Entries hold the hash of the line before them (from version 2);
    /// an older journal is read only to be resolved again whole.
    chained: bool,
}

impl Reader {
    /// Open a journal and read its header.
    pub(crate) fn open(path: &Path) -> Result<(Reader, Opening), GameError> {
        crate::files::check_regular(path).map_err(|e| GameError::Io(e.to_string()))?;
        let file =
            File::open(path).map_err(|e| GameError::Io(format!("{}: {e}", path.display())))?;
        let mut reader = Reader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(64 * 1024, file),
            at: 0,
            tally: Tally::default(),
            number: 1,
            buf: Vec::new(),
            chained: true,
        };
        let bad = |message: String| GameError::Journal {
            file: path.display().to_string(),
            line: 1,
            message,
        };
        let line = match reader.read_line()? {
            Some(line) if line.last() == Some(&b'\n') => line,
            _ => {
                return Err(bad(
                    "no header: this is not a drumhead journal (or it is empty)".into(),
                ));
            }
        };
        let text =
            std::str::from_utf8(&line).map_err(|_| bad("the line is not UTF-8 text".into()))?;
        let header: Header =
            serde_json::from_str(text).map_err(|e| bad(format!("not a journal header: {e}")))?;
        reader.tally.add_line(&line, false);
        reader.number = 2;
        reader.chained = header.drumhead_journal >= JOURNAL_VERSION;
        Ok((
            reader,
            Opening {
                version: header.drumhead_journal,
                game: header.game,
                armies: header.armies,
                tables: header.tables,
            },
        ))
    }

    /// Go on from a point the game file vouches for: the line that ends
    /// there must hash to its head.
    /// Returns the line the mark ends on (the header's, with no entries).
    pub(crate) fn resume(&mut self, mark: &Mark) -> Result<Vec<u8>, GameError> {
        if !mark.header.is_empty() && mark.header != self.tally.header {
            return Err(self.broken(
                1,
                "the journal's header is not the one the game file records: \
                 its armies or tables were changed after the game began"
                    .into(),
            ));
        }
        if mark.entries == 0 && mark.bytes == self.tally.bytes {
            return if mark.head == self.tally.head {
                Ok(Vec::new())
            } else {
                Err(self.broken(1, "the game file records another journal header".into()))
            };
        }
        let Some(line_len) = mark.bytes.checked_sub(mark.head_at).filter(|l| {
            *l > 0 && *l <= MAX_JOURNAL_LINE as u64 + 1 && mark.head_at >= self.tally.bytes
        }) else {
            return Err(self.broken(
                0,
                "the game file's mark of its journal is not possible".into(),
            ));
        };
        let len = self
            .reader
            .get_ref()
            .metadata()
            .map_err(|e| GameError::Io(format!("{}: {e}", self.path.display())))?
            .len();
        if len < mark.bytes {
            return Err(GameError::Mismatch(format!(
                "{}: the journal ends before the {} entries the game file reflects ({len} of {} bytes): \
                 the journal was cut or replaced",
                self.path.display(),
                mark.entries,
                mark.bytes
            )));
        }
        self.seek(mark.head_at)?;
        let mut line = vec![0; line_len as usize];
        let read = self.reader.read_exact(&mut line);
        if read.is_err() || line.last() != Some(&b'\n') || hash(&line) != mark.head {
            return Err(GameError::Mismatch(format!(
                "{}: the game file does not match its journal: its entry {} is not the line the game file recorded",
                self.path.display(),
                mark.entries
            )));
        }
        self.at = mark.bytes;
        self.tally = Tally::from_mark(mark, &self.tally.header);
        self.number = usize::try_from(mark.entries)
            .unwrap_or(usize::MAX)
            .saturating_add(2);
        Ok(line)
    }

    /// Go on from where a game already is (its own tally, trusted).
    pub(crate) fn continue_from(&mut self, tally: &Tally) -> Result<(), GameError> {
        self.seek(tally.bytes)?;
        let header = std::mem::take(&mut self.tally.header);
        self.tally = tally.clone();
        if self.tally.header.is_empty() {
            self.tally.header = header;
        }
        self.number = usize::try_from(tally.entries)
            .unwrap_or(usize::MAX)
            .saturating_add(2);
        Ok(())
    }

    fn seek(&mut self, at: u64) -> Result<(), GameError> {
        if at != self.at {
            self.reader
                .seek(SeekFrom::Start(at))
                .map_err(|e| GameError::Io(format!("{}: {e}", self.path.display())))?;
            self.at = at;
        }
        Ok(())
    }

    fn broken(&self, line: usize, message: String) -> GameError {
        GameError::Journal {
            file: self.path.display().to_string(),
            line,
            message,
        }
    }

    /// One line, newline included; `None` at the end.
    fn read_line(&mut self) -> Result<Option<Vec<u8>>, GameError> {
        self.buf.clear();
        if self.at > MAX_JOURNAL_BYTES {
            return Err(self.broken(
                self.number,
                format!(
                    "the journal is longer than {MAX_JOURNAL_BYTES} bytes, the most drumhead reads"
                ),
            ));
        }
        let n = (&mut self.reader)
            .take(MAX_JOURNAL_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| GameError::Io(format!("{}: {e}", self.path.display())))?;
        if n == 0 {
            return Ok(None);
        }
        if self.buf.last() != Some(&b'\n') && n > MAX_JOURNAL_LINE {
            return Err(self.broken(
                self.number,
                format!("a line longer than {MAX_JOURNAL_LINE} bytes: not a journal entry"),
            ));
        }
        self.at += n as u64;
        Ok(Some(std::mem::take(&mut self.buf)))
    }

    /// The next entry, checked against the chain and the numbering.
    pub(crate) fn next_entry(&mut self) -> Result<Next, GameError> {
        let start = self.at;
        let Some(line) = self.read_line()? else {
            return Ok(Next::End);
        };
        if line.last() != Some(&b'\n') {
            return Ok(Next::Torn(start, line.len() as u64));
        }
        let number = self.number;
        let text = std::str::from_utf8(&line)
            .map_err(|_| self.broken(number, "the line is not UTF-8 text".into()))?;
        let entry: Entry =
            serde_json::from_str(text).map_err(|e| self.broken(number, e.to_string()))?;
        if entry.entry != self.tally.entries + 1 {
            return Err(self.broken(
                number,
                format!(
                    "entry {} out of order (entry {} was expected)",
                    entry.entry,
                    self.tally.entries + 1
                ),
            ));
        }
        if self.chained && entry.prev != self.tally.head {
            return Err(self.broken(
                number,
                format!(
                    "{CHAIN_BROKEN}: this entry does not follow the line before it \
                     (an entry was changed, removed or added by hand, or comes from another game)"
                ),
            ));
        }
        self.tally.add_line(&line, true);
        self.number += 1;
        Ok(Next::Entry(Box::new(entry), line))
    }

    /// The line number the next line has in the journal.
    pub(crate) fn line_number(&self) -> usize {
        self.number
    }
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

    /// The header line of a journal of this game and these armies.
    pub(crate) fn header(
        game: &str,
        armies: &[ArmySource],
        tables: &[HouseTable],
    ) -> Result<String, GameError> {
        let header = Header {
            drumhead_journal: JOURNAL_VERSION,
            game: game.to_string(),
            armies: armies.to_vec(),
            tables: tables.to_vec(),
        };
        serde_json::to_string(&header)
            .map(|l| format!("{l}\n"))
            .map_err(|e| GameError::Io(e.to_string()))
    }

    /// Append one line and sync its data to disk: the one durable write
    /// of a line. If it cannot be written whole, the journal is cut back
    /// to where it was: the entry is not recorded.
    pub(crate) fn append(
        file: &mut File,
        path: &Path,
        at: u64,
        line: &str,
    ) -> Result<(), GameError> {
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
}

/// A new game's id: 128 bits from the kernel's random source, in hex.
pub(crate) fn new_game_id() -> String {
    let mut bytes = [0u8; 16];
    let filled = File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if filled.is_err() {
        // No random source: the time and the process still make two
        // games of one table differ.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let seed = format!("{now}:{}", std::process::id());
        return hash(seed.as_bytes())[..32].to_string();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Write to a temporary file beside `path`, and rename it over `path`: a
/// reader sees the old file or the new one, never half of one. `durable`
/// syncs the file and its folder first (a new game); a checkpoint skips
/// that, as the journal beside it is the record and rebuilds it. The
/// temporary file is removed if anything fails; the new file keeps the
/// old one's permissions, or gets the usual ones.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8], durable: bool) -> Result<(), GameError> {
    let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", path.display()));
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => crate::platform::new_file_permissions(),
    };
    let tmp = crate::output_file::stage_beside(path, bytes, permissions, durable).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    if durable {
        crate::output_file::sync_folder(path);
    }
    Ok(())
}

/// Remove temporary files a killed run left beside `path` (only ever
/// called by the process that holds the game's lock).
pub(crate) fn remove_stale_temporaries(path: &Path) {
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
pub(crate) fn open_append(path: &Path) -> Result<File, GameError> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))
}
