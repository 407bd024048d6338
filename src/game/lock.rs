//! One writer at a time: an advisory lock on `GAME.lock`, taken before the
//! first write and held until the process ends. A second writer is told at
//! once which process holds it, or waits for it with `--wait`. Readers
//! (`units`, `show`, `log`, `replay`) never take it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use super::GameError;

pub struct Lock {
    /// Held open: the lock lasts as long as the file stays open.
    _file: File,
}

impl Lock {
    pub fn path_for(game: &Path) -> PathBuf {
        let mut name = game
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        name.push(".lock");
        game.with_file_name(name)
    }

    /// Take the lock of a game, or say who has it.
    pub fn acquire(game: &Path, wait: bool) -> Result<Lock, GameError> {
        let path = Lock::path_for(game);
        let io = |e: std::io::Error| GameError::Io(format!("{}: {e}", path.display()));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        if wait {
            file.lock().map_err(io)?;
        } else if let Err(e) = file.try_lock() {
            return Err(match e {
                std::fs::TryLockError::WouldBlock => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = holder.trim();
                    let who = if holder.is_empty() {
                        "another process".to_string()
                    } else {
                        format!("process {holder}")
                    };
                    GameError::Locked(format!(
                        "{} is being written by {who}: one writer at a time; \
                         give --wait to wait for it, or read it with `units`, `show`, `log`",
                        game.display()
                    ))
                }
                std::fs::TryLockError::Error(e) => io(e),
            });
        }
        // Say who holds it, for the next one to ask.
        let _ = file.set_len(0);
        let _ = file.rewind();
        let _ = write!(file, "{}", std::process::id());
        let _ = file.flush();
        Ok(Lock { _file: file })
    }
}
