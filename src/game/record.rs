//! Recording a line: a resolution, the turn's end or an undo made an
//! entry, applied to the state and appended to the journal (synced), or,
//! for an entry read from the journal and resolved again, checked against
//! what it recorded (the state after it included) and applied.

use super::*;

impl Game {
    /// Record a resolution and apply its effects. Returns what each
    /// effect did, in words. An entry that could not be written is not
    /// applied.
    /// `chosen`: the seed was chosen with `--seed`, not drawn.
    pub(crate) fn record(
        &mut self,
        line: &str,
        system: System,
        res: &Resolution,
        chosen: bool,
    ) -> Result<Vec<String>, GameError> {
        let addressed = res.addressed();
        let effects = addressed
            .iter()
            .map(|(unit, e)| record_of(*unit, e.as_ref()));
        let entered: Vec<u32> = res
            .dice
            .iter()
            .filter(|d| d.entered)
            .map(|d| d.face)
            .collect();
        let rolled = res.dice.iter().filter(|d| !d.entered).map(|d| d.face);
        let entry = Entry {
            entry: 0,
            prev: String::new(),
            turn: self.turn,
            line: Some(line.to_string()),
            system: Some(system.id().to_string()),
            seed: res.seed,
            entered: entered.len(),
            dice: entered.iter().copied().chain(rolled).collect(),
            outcome: Some(res.outcome.to_string()),
            effects: effects.collect(),
            undo: None,
            chosen: chosen && res.seed.is_some(),
            state: String::new(),
        };
        // The part that resolved the line names what its effects fall on
        // (an army by its name); an effect it did not make is said as is.
        let by_part = self
            .parts
            .iter()
            .find(|p| p.set.system().books().contains(&system))
            .map(|p| p.state.describe_resolved())
            .filter(|d| d.len() == addressed.len());
        let described = by_part.unwrap_or_else(|| {
            addressed
                .iter()
                .map(|(unit, e)| e.describe(*unit))
                .collect()
        });
        let mut described = self.unkept(described);
        self.commit(entry, true)?;
        if let Some(seed) = self.chosen_seed().filter(|_| self.file.is_some()) {
            described.push(format!(
                "game: the dice were rolled from seed {seed}, chosen with --seed and not drawn: the journal says so"
            ));
        }
        Ok(described)
    }

    /// The turn ends: per-turn facts are cleared.
    pub(crate) fn next_turn(&mut self, line: &str) -> Result<(), GameError> {
        let entry = Entry {
            entry: 0,
            prev: String::new(),
            turn: self.turn,
            line: Some(line.to_string()),
            system: None,
            seed: None,
            dice: Vec::new(),
            entered: 0,
            outcome: None,
            effects: vec![serde_json::json!({ "effect": Entry::NEXT_TURN })],
            undo: None,
            chosen: false,
            state: String::new(),
        };
        self.commit(entry, false)
    }

    /// Take back the last entry still in force. Returns its line.
    pub(crate) fn undo(&mut self) -> Result<Option<String>, GameError> {
        if self.recent.is_empty() {
            self.refold()?;
        }
        let Some(last) = self.recent.last().map(|r| (r.entry, r.line.clone())) else {
            return Ok(None);
        };
        let entry = Entry {
            entry: 0,
            prev: String::new(),
            turn: self.turn,
            line: None,
            system: None,
            seed: None,
            dice: Vec::new(),
            entered: 0,
            outcome: None,
            effects: Vec::new(),
            undo: Some(last.0),
            chosen: false,
            state: String::new(),
        };
        self.commit(entry, false)?;
        Ok(Some(last.1.unwrap_or_default()))
    }

    /// Apply an entry and append it to the journal (synced), or, for an
    /// entry read from the journal and resolved again, check it is what
    /// was recorded and apply it (`resolved`: with the effects its rule
    /// system's part resolved, as [`Game::apply_effects`]).
    fn commit(&mut self, mut entry: Entry, resolved: bool) -> Result<(), GameError> {
        entry.entry = self.tally.entries + 1;
        self.last_chosen = None;
        match self.expected.take() {
            Some((expected, raw)) => self.verify(entry, resolved, &expected, &raw),
            None => self.write(entry, resolved),
        }
    }

    /// An entry read from the journal and resolved again: applied only if
    /// it is what the journal recorded, the state after it included. The
    /// journal is not written.
    fn verify(
        &mut self,
        mut entry: Entry,
        resolved: bool,
        expected: &Entry,
        raw: &[u8],
    ) -> Result<(), GameError> {
        entry.prev = expected.prev.clone();
        // Whether the seed was chosen is the writer's word, and the
        // state after the entry is checked once it is applied.
        entry.chosen = expected.chosen && entry.seed.is_some();
        entry.state = expected.state.clone();
        let refused = |game: &mut Game, why: String| {
            let e = GameError::Journal {
                file: game.journal_shown(),
                line: usize::try_from(expected.entry)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1),
                message: format!(
                    "entry {} does not resolve to itself: resolved again{why}; it is not applied",
                    expected.entry,
                ),
            };
            game.rejected = Some(e.to_string());
            Err(e)
        };
        if let Some(what) = expected.differs_from(&entry) {
            return refused(
                self,
                format!(" from its line and dice, it does not give what it recorded ({what})"),
            );
        }
        self.apply_recorded(&entry, resolved)?;
        if !expected.state.is_empty() && self.digest() != expected.state {
            self.unapply(&entry)?;
            return refused(
                self,
                ", the state after it is not the one it recorded (the state it was resolved on \
                 was not the writer's: an edited game file, or a journal edited by hand)"
                    .to_string(),
            );
        }
        if entry.chosen {
            self.last_chosen = entry.seed;
        }
        self.tally.add_line(raw, true);
        if self.store.is_none() {
            self.memory.push(entry);
        }
        Ok(())
    }

    /// A new entry: applied, then appended to the journal (synced) or kept
    /// in memory. An entry that cannot be written is taken back.
    fn write(&mut self, mut entry: Entry, resolved: bool) -> Result<(), GameError> {
        if self.store.as_ref().is_some_and(|s| s.read_only) {
            return Err(GameError::Usage(
                "a journal being replayed is never written".into(),
            ));
        }
        if self.store.is_some() {
            self.begin_write()?;
            entry.prev = self.tally.head.clone();
        }
        // Applied first: an entry the game cannot apply never reaches the
        // journal (which would then not open).
        self.apply_recorded(&entry, resolved)?;
        if self.store.is_some() {
            entry.state = self.digest();
        }
        let line = match entry.line() {
            Ok(line) => line,
            Err(e) => {
                self.unapply(&entry)?;
                return Err(e);
            }
        };
        if entry.chosen {
            self.last_chosen = entry.seed;
        }
        self.last_written = None;
        if let (Some(path), Some(store)) = (&self.file, &mut self.store) {
            let journal = Journal::path_for(path);
            if store.append.is_none() {
                store.append = Some(journal::open_append(&journal)?);
            }
            let Some(file) = store.append.as_mut() else {
                return Err(GameError::Io("the journal is not open".into()));
            };
            if let Err(e) = Journal::append(file, &journal, self.tally.bytes, &line) {
                self.unapply(&entry)?;
                return Err(e);
            }
            store.wrote = true;
            self.last_written = Some(entry);
        } else {
            self.memory.push(entry);
        }
        self.tally.add_line(line.as_bytes(), true);
        if let Some(store) = &self.store
            && self.tally.entries.saturating_sub(store.checkpointed) >= CHECKPOINT_EVERY
        {
            // A checkpoint that cannot be written costs nothing but time:
            // the journal holds the entry.
            let _ = self.write_checkpoint(false);
        }
        Ok(())
    }

    /// The state as it was before an entry.
    pub(super) fn go_back(&mut self, before: Recent) {
        self.turn = before.turn;
        for (part, state) in self.parts.iter_mut().zip(before.parts) {
            part.state = state;
        }
    }

    /// Take back what the last `apply_recorded` did (its append failed).
    /// An undo kept no state before it: the state is folded again from
    /// the entries, which do not hold it.
    pub(super) fn unapply(&mut self, entry: &Entry) -> Result<(), GameError> {
        if entry.undo.is_some() {
            return self.refold();
        }
        match self.recent.pop() {
            Some(last) => {
                self.go_back(last);
                Ok(())
            }
            None => self.refold(),
        }
    }

    /// The digest of the state now, as an entry records it.
    pub(crate) fn digest(&self) -> String {
        journal::state_digest(&self.state())
    }

    /// The seed of the last line recorded, when it was chosen.
    pub(crate) fn chosen_seed(&self) -> Option<u64> {
        self.last_chosen
    }

    /// The last entry recorded in a game kept in memory.
    pub(crate) fn last_recorded(&self) -> Option<&Entry> {
        self.memory.last()
    }

    /// The entry this process wrote to the game's journal last, if the
    /// last entry applied is one it wrote.
    pub(crate) fn last_written(&self) -> Option<&Entry> {
        self.last_written
            .as_ref()
            .filter(|e| e.entry == self.tally.entries)
    }
}

/// An effect as the journal keeps it: its own fields, and the unit it fell on.
fn record_of(unit: Option<&str>, effect: &dyn Effect) -> serde_json::Value {
    let mut json = effect.json();
    if let (Some(unit), Some(map)) = (unit, json.as_object_mut()) {
        map.insert("unit".into(), unit.into());
    }
    json
}
