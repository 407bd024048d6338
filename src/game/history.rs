//! The entries of a game read again, one at a time: for `undo` past what
//! this process saw, for `log`, for a copy, and for a campaign's close
//! (what each rule system's part carries to the next battle from the
//! entries in force, and the chain's head at an entry).

use std::collections::{BTreeMap, BTreeSet};

use super::*;
use crate::carry::{Carry, Close, Fought};
use crate::dice::DiceSource;

impl Game {
    /// Recompute the state from every entry not undone (a game kept in
    /// memory, or a file's journal read again): the slow way back that
    /// `undo` takes past what this process saw.
    pub(super) fn refold(&mut self) -> Result<(), GameError> {
        self.fold(None)
    }

    /// The state folded from the entries in force among the first `upto`
    /// (all: `None`), as the chain gives them and without resolving them
    /// again: from the start of the game, one entry in memory at a time,
    /// in two passes (which entries are undone, then each other's effects
    /// applied). The last entries keep the state before them, for `undo`.
    pub(super) fn fold(&mut self, upto: Option<u64>) -> Result<(), GameError> {
        let open = |game: &mut Game| match upto {
            Some(n) => game.source_upto(n),
            None => game.source(),
        };
        // Read whole, the journal must still hold what the game applied.
        let finish = |source: Source, game: &Game| match upto {
            Some(_) => Ok(()),
            None => source.finish(&game.tally),
        };
        // Which entries are still in force: an undo always takes back the
        // last one, so they form a stack.
        let mut live: Vec<u64> = Vec::new();
        let mut undone = std::collections::HashSet::new();
        let mut source = open(self)?;
        while let Some(e) = source.next()? {
            match e.undo {
                Some(target) => {
                    live.pop();
                    undone.insert(target);
                }
                None => live.push(e.entry),
            }
        }
        finish(source, self)?;
        let keep_from = live.len().saturating_sub(SNAPSHOTS);
        let recent_from = live.get(keep_from).copied().unwrap_or(u64::MAX);
        drop(live);
        self.turn = 1;
        self.parts = self.fresh_parts();
        self.recent.clear();
        let mut source = open(self)?;
        while let Some(e) = source.next()? {
            if e.undo.is_some() || undone.contains(&e.entry) {
                continue;
            }
            if e.entry >= recent_from {
                self.apply_recorded(&e, false)?;
            } else {
                self.apply_effects(&e, false)?;
            }
        }
        finish(source, self)
    }

    /// The entries up to `upto`, from memory or the journal.
    fn source_upto(&mut self, upto: u64) -> Result<Source, GameError> {
        let saved = self.tally.entries;
        self.tally.entries = upto;
        let source = self.source();
        self.tally.entries = saved;
        source
    }

    /// Every entry applied so far, in order: from memory, or read again
    /// from the journal (one line at a time, the chain checked).
    pub(super) fn source(&self) -> Result<Source, GameError> {
        if self.store.is_none() {
            return Ok(Source::Memory(self.memory.clone().into_iter()));
        }
        let path = self.file.clone().unwrap_or_default();
        let journal = if self.store.as_ref().is_some_and(|s| s.read_only) {
            path
        } else {
            Journal::path_for(&path)
        };
        let (reader, opening) = Reader::open(&journal)?;
        if opening.game != self.id {
            return Err(GameError::Mismatch(format!(
                "{}: the journal was replaced by another game's while this one was open",
                journal.display()
            )));
        }
        Ok(Source::File {
            reader,
            upto: self.tally.entries,
            journal,
        })
    }

    /// Every entry still in force, in order (read whole: for checks and
    /// tests, not for a long game's every line).
    pub(crate) fn live_entries(&self) -> Result<Vec<Entry>, GameError> {
        let mut live: Vec<Entry> = Vec::new();
        let mut source = self.source()?;
        while let Some(e) = source.next()? {
            match e.undo {
                Some(_) => {
                    live.pop();
                }
                None => live.push(e),
            }
        }
        source.finish(&self.tally)?;
        Ok(live)
    }
}

/// The entries of a game, one at a time.
pub(super) enum Source {
    Memory(std::vec::IntoIter<Entry>),
    File {
        reader: Reader,
        upto: u64,
        journal: PathBuf,
    },
}

impl Source {
    pub(super) fn next(&mut self) -> Result<Option<Entry>, GameError> {
        match self {
            Source::Memory(entries) => Ok(entries.next()),
            Source::File { reader, upto, .. } => {
                if reader.tally.entries >= *upto {
                    return Ok(None);
                }
                match reader.next_entry()? {
                    Next::Entry(e, _) => Ok(Some(*e)),
                    _ => Ok(None),
                }
            }
        }
    }

    /// The journal still holds the entries the game applied.
    pub(super) fn finish(self, tally: &Tally) -> Result<(), GameError> {
        match self {
            Source::Memory(_) => Ok(()),
            Source::File {
                reader, journal, ..
            } if reader.tally != *tally => Err(GameError::Mismatch(format!(
                "{}: the journal no longer holds the entries this game applied",
                journal.display()
            ))),
            Source::File { .. } => Ok(()),
        }
    }
}

impl Game {
    /// A new id, as a game is given when it is created (a campaign's).
    pub(crate) fn new_id() -> String {
        super::journal::new_game_id()
    }

    /// The game's id, made when it was created.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// The armies the game began with, as its journal's header records them.
    pub(crate) fn sources(&self) -> &[ArmySource] {
        &self.sources
    }

    /// What each rule system's part carries to the next battle: each is
    /// given the effects of its own lines in force, in the order they were
    /// made, and the turns' ends between them.
    pub(crate) fn carry(
        &self,
        close: &Close<'_>,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Carry>, GameError> {
        let live = self.live_entries()?;
        let mut out = Vec::new();
        for part in &self.parts {
            let books = part.set.system().books();
            let mut fought: Vec<Fought<serde_json::Value>> = Vec::new();
            for e in &live {
                if e.next_turn() {
                    fought.push(Fought {
                        entry: e.entry,
                        effect: None,
                    });
                    continue;
                }
                let mine = e
                    .system
                    .as_deref()
                    .and_then(|b| self.tables.book(b))
                    .is_some_and(|b| books.contains(&b));
                if !mine {
                    continue;
                }
                for json in &e.effects {
                    let unit = json.get("unit").and_then(|u| u.as_str()).map(String::from);
                    fought.push(Fought {
                        entry: e.entry,
                        effect: Some((unit, json.clone())),
                    });
                }
            }
            let carried = part
                .state
                .carry(&fought, close, dice)
                .map_err(|e| GameError::Usage(format!("{}: {e}", part.set.system().name())))?;
            out.push(carried);
        }
        Ok(out)
    }

    /// The SHA-256 of the journal line of each entry wanted (the chain's
    /// head after it), read again from the journal.
    pub(crate) fn heads_at(
        &self,
        wanted: &BTreeSet<u64>,
    ) -> Result<BTreeMap<u64, String>, GameError> {
        let mut heads = BTreeMap::new();
        let mut source = self.source()?;
        while let Some(e) = source.next()? {
            let before = e.entry.saturating_sub(1);
            if before > 0 && wanted.contains(&before) {
                heads.insert(before, e.prev.clone());
            }
        }
        source.finish(&self.tally)?;
        if wanted.contains(&self.tally.entries) && self.tally.entries > 0 {
            heads.insert(self.tally.entries, self.tally.head.clone());
        }
        Ok(heads)
    }
}
