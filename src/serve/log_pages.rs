//! `GET /g/NAME/log.json?after=N&limit=M`: the game's log a page at a
//! time, read from the journal when asked, so that neither the server's
//! memory nor one answer grows with the game.
//!
//! What a page needs besides the journal is kept in a small index: where
//! to start reading (the chain as it stood after every
//! [`MARK_EVERY`]th entry, so a page reads at most that many entries it
//! does not show) and which entries a later `undo` took back (a bit an
//! entry). `earlier.rs` fills it for the entries before the checkpoint
//! the server started from, the follower for every entry after.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use tokio::sync::watch;

use crate::answer::Answer;
use crate::answer::report::Report;
use crate::format::json::Json;
use crate::format::{Format, Source};
use crate::game::{Entry, Next, Reader, Tally};

/// Entries between two marks of the index.
const MARK_EVERY: u64 = 1024;

/// A game's index of its journal.
pub(crate) struct LogIndex {
    inner: Mutex<Index>,
    /// Set once the entries before the checkpoint are indexed.
    ready: watch::Sender<bool>,
}

#[derive(Default)]
struct Index {
    /// The chain after entry N, for N a multiple of [`MARK_EVERY`] (and 0).
    marks: BTreeMap<u64, Tally>,
    /// A bit an entry: taken back by a later `undo`.
    undone: Vec<u64>,
    /// The newest entry indexed.
    last: u64,
    /// An outcome as its rule system names it (`Prussia`, `aus-1`), for
    /// the entries whose outcome id stands for a side: named by the
    /// follower, which has the game.
    named: BTreeMap<u64, String>,
}

impl LogIndex {
    pub(crate) fn new() -> LogIndex {
        LogIndex {
            inner: Mutex::new(Index::default()),
            ready: watch::Sender::new(false),
        }
    }

    /// An entry read, the chain after it (`after`), and its outcome as
    /// its rule system names it, where the reader can tell.
    pub(crate) fn note(&self, entry: &Entry, after: &Tally, named: Option<String>) {
        let mut index = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(named) = named {
            index.named.insert(entry.entry, named);
        }
        if entry.entry.is_multiple_of(MARK_EVERY) {
            index.marks.insert(entry.entry, after.clone());
        }
        if let Some(target) = entry.undo {
            index.set_undone(target);
        }
        index.last = index.last.max(entry.entry);
    }

    /// The chain after the header: where reading starts.
    pub(crate) fn note_header(&self, after: &Tally) {
        let mut index = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        index.marks.insert(0, after.clone());
    }

    /// Every entry before the checkpoint is indexed.
    pub(crate) fn note_ready(&self) {
        self.ready.send_replace(true);
    }

    /// Wait (at most `wait`) until the index is whole; whether it is.
    pub(crate) async fn whole(&self, wait: std::time::Duration) -> bool {
        let mut ready = self.ready.subscribe();
        tokio::time::timeout(wait, ready.wait_for(|r| *r))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Where to start reading for the entry after `after` (the chain at
    /// the last mark before it), and the newest entry indexed.
    fn plan(&self, after: u64) -> Option<(Tally, u64)> {
        let index = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (_, tally) = index.marks.range(..=after).next_back()?;
        Some((tally.clone(), index.last))
    }

    pub(crate) fn undone(&self, entry: u64) -> bool {
        let index = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        index.is_undone(entry)
    }

    fn named(&self, entry: u64) -> Option<String> {
        let index = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        index.named.get(&entry).cloned()
    }
}

impl Index {
    fn set_undone(&mut self, entry: u64) {
        let Ok(at) = usize::try_from(entry / 64) else {
            return;
        };
        if self.undone.len() <= at {
            self.undone.resize(at + 1, 0);
        }
        self.undone[at] |= 1 << (entry % 64);
    }

    fn is_undone(&self, entry: u64) -> bool {
        usize::try_from(entry / 64)
            .ok()
            .and_then(|at| self.undone.get(at))
            .is_some_and(|bits| bits & (1 << (entry % 64)) != 0)
    }
}

/// The page of entries after `after`, at most `limit`, as `log --json`
/// writes the log, with `"next"` (the `after` of the next page) when more
/// entries follow. Reads the journal (blocking).
pub(crate) fn page(
    journal: &Path,
    index: &LogIndex,
    after: u64,
    limit: usize,
) -> Result<String, String> {
    let source = Source {
        line: 1,
        input: "log",
    };
    let Some((start, last)) = index.plan(after) else {
        return Err("the journal is not read yet".into());
    };
    let mut entries = Vec::new();
    if after < last {
        let (mut reader, _) = Reader::open(journal).map_err(|e| e.to_string())?;
        reader.continue_from(&start).map_err(|e| e.to_string())?;
        while reader.tally.entries < last && entries.len() < limit {
            let entry = match reader.next_entry().map_err(|e| e.to_string())? {
                Next::Entry(entry, _) => entry,
                Next::End | Next::Torn(..) => break,
            };
            if entry.entry <= after {
                continue;
            }
            let (undone, named) = (index.undone(entry.entry), index.named(entry.entry));
            entries.push(crate::game::log_entry(*entry, undone, named));
        }
    }
    let shown = entries.last().map(|e| e.entry);
    let mut out = Vec::new();
    Json.write(
        &Answer::Report(Box::new(Report::Log { entries })),
        source,
        &mut out,
    )
    .map_err(|e| e.to_string())?;
    let json = String::from_utf8_lossy(&out).trim_end().to_string();
    match shown.filter(|n| *n < last) {
        Some(next) => match json.strip_suffix('}') {
            Some(open) => Ok(format!("{open},\"next\":{next}}}")),
            None => Ok(json),
        },
        None => Ok(json),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_undone_is_marked_and_no_other() {
        let mut index = Index::default();
        for n in [1, 63, 64, 1000] {
            index.set_undone(n);
        }
        for n in [1, 63, 64, 1000] {
            assert!(index.is_undone(n), "{n}");
        }
        for n in [0, 2, 62, 65, 999, 1001, 1 << 40] {
            assert!(!index.is_undone(n), "{n}");
        }
    }
}
