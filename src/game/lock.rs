//! One writer at a time: an advisory lock on `GAME.lock`, taken before a
//! line that changes the game is resolved and released once it is
//! recorded. Holding it for a line, not for a whole evening, lets an
//! umpire's REPL, a script and a second umpire share a game: each line is
//! resolved against the newest state, read under the lock. A writer that
//! finds the lock held is told at once which process holds it, or waits
//! for it with `--wait`. Readers (`units`, `show`, `log`, `replay`) never
//! take it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use super::GameError;

/// How long a writer without --wait waits for the lock before it is
/// refused: a line holds it for milliseconds, so only a writer that holds
/// it for longer (a repair, a stopped process) is reported.
pub(crate) const GRACE: std::time::Duration = std::time::Duration::from_secs(1);

pub struct Lock {
    path: PathBuf,
    game: PathBuf,
    file: File,
    held: bool,
}

impl Lock {
    pub(crate) fn path_for(game: &Path) -> PathBuf {
        let mut name = game
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        name.push(".lock");
        game.with_file_name(name)
    }

    /// The lock file of a game, opened (created if need be) but not taken.
    pub(crate) fn open(game: &Path) -> Result<Lock, GameError> {
        let path = Lock::path_for(game);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| GameError::Io(format!("{}: {e}", path.display())))?;
        Ok(Lock {
            path,
            game: game.to_path_buf(),
            file,
            held: false,
        })
    }

    /// Take the lock of a game, or say who has it.
    pub(crate) fn acquire(game: &Path, wait: bool) -> Result<Lock, GameError> {
        let mut lock = Lock::open(game)?;
        lock.take(wait)?;
        Ok(lock)
    }

    pub(crate) fn held(&self) -> bool {
        self.held
    }

    /// Take the lock (if not held already), waiting for it with `wait`.
    pub(crate) fn take(&mut self, wait: bool) -> Result<(), GameError> {
        if self.held {
            return Ok(());
        }
        let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", self.path.display()));
        if wait {
            self.file.lock().map_err(io)?;
        } else if let Err(e) = self.try_for_a_line() {
            return Err(match e {
                std::fs::TryLockError::WouldBlock => {
                    let mut holder = String::new();
                    let _ = self.file.rewind();
                    let _ = (&self.file).take(32).read_to_string(&mut holder);
                    let holder = holder.trim();
                    let who = if holder.is_empty() || !holder.bytes().all(|b| b.is_ascii_digit()) {
                        "another process".to_string()
                    } else {
                        format!("process {holder}")
                    };
                    GameError::Locked(format!(
                        "{} is being written by {who}: one writer at a time; \
                         give --wait to wait for it, or read it with `units`, `show`, `log`",
                        self.game.display()
                    ))
                }
                std::fs::TryLockError::Error(e) => io(e),
            });
        }
        self.held = true;
        // Say who holds it, for the next one to ask.
        let _ = self.file.set_len(0);
        let _ = self.file.rewind();
        let _ = write!(self.file, "{}", std::process::id());
        Ok(())
    }

    /// A writer holds the lock for one line (milliseconds): give it the
    /// time of a slow line before saying it is busy.
    fn try_for_a_line(&self) -> Result<(), std::fs::TryLockError> {
        let deadline = std::time::Instant::now() + GRACE;
        loop {
            match self.file.try_lock() {
                Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                other => return other,
            }
        }
    }

    /// Let the next writer in.
    pub(crate) fn release(&mut self) {
        if self.held {
            let _ = self.file.unlock();
            self.held = false;
        }
    }
}
