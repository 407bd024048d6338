//! One writer at a time: an advisory lock on the game's journal itself,
//! taken before a line that changes the game is resolved and released
//! once it is recorded. Holding it for a line, not for a whole evening,
//! lets an umpire's REPL, a script and a second umpire share a game: each
//! line is resolved against the newest state, read under the lock. A
//! writer that finds the lock held is told at once which process holds
//! it, or waits for it with `--wait`. Readers (`units`, `show`, `log`,
//! `replay`) never take it, and open nothing for writing.
//!
//! The lock is on the journal's file, not on a name beside it, so that
//! every path to one game (a symbolic link to it, a link to its folder)
//! shares one lock; and no file of its own is made, followed or
//! truncated: a lock file made a symbolic link to another file cannot
//! turn a writer against that file. A journal replaced by another file
//! while a writer waited for it (a repair's upgrade) is opened again.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use super::GameError;
use super::journal::Journal;

/// How long a writer without --wait waits for the lock before it is
/// refused: a line holds it for milliseconds, so only a writer that holds
/// it for longer (a repair, a stopped process) is reported.
pub(crate) const GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// How many times a writer opens the journal again when it was replaced
/// while the writer waited for its lock.
const REOPENS: usize = 8;

pub(crate) struct Lock {
    /// The game's file, as messages name it.
    game: PathBuf,
    journal: PathBuf,
    /// The journal, open while the lock is held.
    file: Option<File>,
}

impl Lock {
    /// The lock of a game, not taken: nothing is opened until it is.
    pub(crate) fn new(game: &Path) -> Lock {
        Lock {
            game: game.to_path_buf(),
            journal: Journal::path_for(game),
            file: None,
        }
    }

    /// Make a new game's journal, empty, and hold its lock: the game's
    /// files are written under it. Refused if the journal is there
    /// already (another process made the game first), and never through
    /// a symbolic link.
    pub(crate) fn create(game: &Path) -> Result<Lock, GameError> {
        let mut lock = Lock::new(game);
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create_new(true)
            .open(&lock.journal)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => GameError::Locked(format!(
                    "{}: another process made this game just now; run the line again to play it",
                    game.display()
                )),
                _ => GameError::Io(format!("{}: {e}", lock.journal.display())),
            })?;
        file.lock()
            .map_err(|e| GameError::Io(format!("{}: {e}", lock.journal.display())))?;
        lock.file = Some(file);
        Ok(lock)
    }

    /// Take the lock of a game, or say who has it.
    pub(crate) fn acquire(game: &Path, wait: bool) -> Result<Lock, GameError> {
        let mut lock = Lock::new(game);
        lock.take(wait)?;
        Ok(lock)
    }

    pub(crate) fn held(&self) -> bool {
        self.file.is_some()
    }

    /// The journal as the lock holds it open (for reading and appending).
    pub(crate) fn journal(&mut self) -> Option<&mut File> {
        self.file.as_mut()
    }

    /// Take the lock (if not held already), waiting for it with `wait`.
    pub(crate) fn take(&mut self, wait: bool) -> Result<(), GameError> {
        if self.file.is_some() {
            return Ok(());
        }
        let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", self.journal.display()));
        for _ in 0..REOPENS {
            let file = OpenOptions::new()
                .read(true)
                .append(true)
                .open(&self.journal)
                .map_err(io)?;
            if wait {
                file.lock().map_err(io)?;
            } else if let Err(e) = try_for_a_line(&file) {
                return Err(match e {
                    std::fs::TryLockError::WouldBlock => self.busy(&file),
                    std::fs::TryLockError::Error(e) => io(e),
                });
            }
            // Still the journal at this path: otherwise it was replaced
            // while this process waited, and the lock is on a file that
            // is no longer the game's.
            if same_file(&file, &self.journal) {
                self.file = Some(file);
                return Ok(());
            }
        }
        Err(GameError::Locked(format!(
            "{}: its journal was replaced {REOPENS} times while this process waited for it; try again",
            self.game.display()
        )))
    }

    /// Who holds the lock, as far as the system says.
    fn busy(&self, file: &File) -> GameError {
        let who = holder(file).map_or_else(
            || "another process".to_string(),
            |pid| format!("process {pid}"),
        );
        GameError::Locked(format!(
            "{} is being written by {who}: one writer at a time; \
             give --wait to wait for it, or read it with `units`, `show`, `log`",
            self.game.display()
        ))
    }

    /// Put a whole new journal in place of the one held (`repair`), held
    /// itself before it takes the journal's name: a writer that waited
    /// for the old one finds it replaced, opens the new one, and waits
    /// for this lock again. Written to a temporary file beside it first,
    /// synced, then renamed over it.
    pub(crate) fn replace_journal(&mut self, bytes: &[u8]) -> Result<(), GameError> {
        let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", self.journal.display()));
        if self.file.is_none() {
            return Err(GameError::Io(format!(
                "{}: the journal is not held",
                self.journal.display()
            )));
        }
        let permissions = std::fs::metadata(&self.journal)
            .ok()
            .map(|m| m.permissions());
        let tmp = crate::output_file::stage_beside(&self.journal, bytes, permissions, true)
            .map_err(io)?;
        tmp.as_file().lock().map_err(io)?;
        let file = tmp.persist(&self.journal).map_err(|e| io(e.error))?;
        crate::output_file::sync_folder(&self.journal);
        // The old journal's lock goes with it; the new one is held by
        // the file just renamed into place.
        self.release();
        self.file = Some(file);
        Ok(())
    }

    /// Let the next writer in.
    pub(crate) fn release(&mut self) {
        if let Some(file) = self.file.take() {
            let _ = file.unlock();
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        self.release();
    }
}

/// A writer holds the lock for one line (milliseconds): give it the
/// time of a slow line before saying it is busy.
fn try_for_a_line(file: &File) -> Result<(), std::fs::TryLockError> {
    let deadline = std::time::Instant::now() + GRACE;
    loop {
        match file.try_lock() {
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// Whether an open file is the one at `path` now.
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => crate::platform::same_file(&a, &b),
        _ => false,
    }
}

/// The process holding a lock on this file, from the kernel's list of
/// locks (Linux): `N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE START END`.
#[cfg(target_os = "linux")]
fn holder(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let inode = meta.ino().to_string();
    let list = std::fs::read_to_string("/proc/locks").ok()?;
    list.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (kind, pid, at) = (fields.get(1)?, fields.get(4)?, fields.get(5)?);
        (*kind == "FLOCK" && at.rsplit(':').next() == Some(inode.as_str()))
            .then(|| pid.parse().ok())
            .flatten()
    })
}

#[cfg(not(target_os = "linux"))]
fn holder(_file: &File) -> Option<u32> {
    None
}
