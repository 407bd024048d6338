//! Reading what other writers recorded, and the lock a line holds.

use super::checks::*;
use super::*;

impl Game {
    /// The next entry another process (or a run before this one) wrote
    /// after the state this game is in, read and checked against the
    /// chain: the session resolves its line again, and the game applies
    /// it only if it records exactly this ([`Game::commit`]). `None` when
    /// the journal holds nothing more.
    pub fn next_pending(&mut self) -> Result<Option<Entry>, GameError> {
        let tally = self.tally.clone();
        let holds_lock = self.holds_lock();
        let Some(store) = &mut self.store else {
            return Ok(None);
        };
        let Some(reader) = &mut store.reader else {
            return Ok(None);
        };
        if reader.tally != tally {
            reader.continue_from(&tally)?;
        }
        match reader.next_entry()? {
            Next::Entry(entry, line) => {
                self.expected = Some(((*entry).clone(), line));
                Ok(Some(*entry))
            }
            Next::End => Ok(None),
            Next::Torn(at, len) => {
                // With the lock held nobody is writing it: a writer was
                // killed mid-line, and the line is cut. Without the lock
                // it may be being written now: left alone.
                reader.continue_from(&tally)?;
                if holds_lock {
                    self.cut_journal(at)?;
                    self.notes.push(format!(
                        "{}: the last line ({len} bytes) was cut short while it was being written; \
                         that command was not recorded and its line was removed",
                        Journal::path_for(self.file.as_deref().unwrap_or(Path::new(""))).display()
                    ));
                }
                Ok(None)
            }
        }
    }

    /// An entry resolved again gave nothing to record: it is not trusted.
    pub(crate) fn take_unmatched(&mut self) -> Option<Entry> {
        self.expected.take().map(|(e, _)| e)
    }

    fn holds_lock(&self) -> bool {
        self.store.as_ref().is_some_and(|s| s.lock.held())
    }

    /// Take the game's lock before a line that may change it is resolved:
    /// the session then reads what others recorded ([`Game::next_pending`])
    /// and resolves the line against that newest state.
    pub(crate) fn begin_write(&mut self) -> Result<(), GameError> {
        let Some(path) = self.file.clone() else {
            return Ok(());
        };
        let Some(store) = &mut self.store else {
            return Ok(());
        };
        if store.read_only {
            return Err(GameError::Usage(
                "a journal being replayed is never written".into(),
            ));
        }
        if store.lock.held() {
            return Ok(());
        }
        let journal = Journal::path_for(&path);
        for p in [&path, &journal] {
            if let Ok(meta) = std::fs::metadata(p)
                && meta.permissions().readonly()
            {
                return Err(GameError::Usage(format!(
                    "{} is read-only: this game can be looked at (`units`, `show`, `log`) but not changed",
                    p.display()
                )));
            }
        }
        let missing = journal.symlink_metadata().is_err();
        if missing && self.tally.entries > 0 {
            return Err(GameError::Mismatch(format!(
                "{}: the journal was removed while the game was open{}",
                journal.display(),
                repair_hint(&path)
            )));
        }
        if missing {
            // A game file whose maker stopped before its journal: the
            // journal is made now, held while its header is written.
            store.lock = Lock::create(&path)?;
        } else {
            store.lock.take(store.wait)?;
        }
        if !store.cleaned {
            journal::remove_stale_temporaries(&path);
            store.cleaned = true;
        }
        let len = std::fs::metadata(&journal)
            .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?
            .len();
        if len == 0 && self.tally.entries == 0 {
            self.start_journal()?;
            return Ok(());
        }
        if len < self.tally.bytes {
            return Err(GameError::Mismatch(format!(
                "{}: the journal changed under this process (entries were removed or rewritten); nothing was recorded{}",
                journal.display(),
                repair_hint(&path)
            )));
        }
        Ok(())
    }

    /// The line is done: let the next writer in.
    pub(crate) fn end_line(&mut self) {
        if let Some(store) = &mut self.store {
            store.lock.release();
        }
    }

    fn cut_journal(&mut self, at: u64) -> Result<(), GameError> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let journal = Journal::path_for(path);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&journal)
            .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?;
        file.set_len(at)
            .and_then(|()| file.sync_data())
            .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))
    }

    /// The game file brought up to date, if this process wrote to the
    /// journal and nobody wrote after it: at the end of a run.
    pub(crate) fn close(&mut self) {
        let Some(store) = &self.store else {
            return;
        };
        if !store.wrote || store.checkpointed == self.tally.entries {
            return;
        }
        let Some(path) = self.file.clone() else {
            return;
        };
        let took = self
            .store
            .as_mut()
            .is_some_and(|s| s.lock.held() || s.lock.take(false).is_ok());
        if !took {
            return;
        }
        let len = std::fs::metadata(Journal::path_for(&path)).map(|m| m.len());
        if len.is_ok_and(|l| l == self.tally.bytes) {
            let _ = self.write_checkpoint(false);
        }
        self.end_line();
    }
}

impl Game {
    /// A copy of a game kept beside the one that follows its journal (the
    /// server's odds desk): it no longer reads the journal by itself
    /// before a line, and is brought on only by
    /// [`apply_resolved_elsewhere`](Game::apply_resolved_elsewhere).
    pub(crate) fn follow_elsewhere(&mut self) {
        self.file = None;
    }

    /// Apply the entries after this game's state, up to entry `upto`, as
    /// the journal records them, without resolving them again: for a
    /// reader in a process that has resolved each of them once already
    /// (the server's odds desk, behind the thread that follows the
    /// game). Each is checked against the chain and must give the state
    /// it recorded. How many were applied.
    pub(crate) fn apply_resolved_elsewhere(&mut self, upto: u64) -> Result<u64, GameError> {
        let mut applied = 0;
        while self.tally.entries < upto {
            let Some(entry) = self.next_pending()? else {
                break;
            };
            let Some((_, raw)) = self.expected.take() else {
                break;
            };
            self.apply_recorded(&entry, false)?;
            if !entry.state.is_empty() && self.digest() != entry.state {
                self.unapply(&entry)?;
                return Err(GameError::Mismatch(format!(
                    "entry {}: applied as recorded, the state after it is not the one it recorded",
                    entry.entry
                )));
            }
            self.tally.add_line(&raw, true);
            applied += 1;
        }
        Ok(applied)
    }
}
