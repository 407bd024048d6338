//! A journal's entries resolved again: each from its line, its entered
//! dice and its seed, under its rule system, the session's own set aside;
//! applied only if it gives exactly what it recorded. One step
//! ([`Session::resolve_next`]) catches a game up to what other writers
//! recorded, replays a journal, checks one for `repair` and replays a
//! campaign's battles.

use super::verbs::journaled;
use super::{Output, Session};
use crate::command::{EnteredDie, System};
use crate::error::CommandError;
use crate::game::{Entry, Game, GameError};
use crate::meta::GameVerb;

/// How a journal entry is resolved again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Again {
    /// Checked against what it recorded: the game is not read again under it.
    Verifying,
    /// An older journal's entry adopted: its dice past the entered ones
    /// were rolled unasked then, and are rolled again now.
    Adopting,
}

/// Where a session stands between lines ([`Session::stand_aside`]).
struct Stand {
    rules: System,
    seed: u64,
    position: u64,
    pending: Vec<EnteredDie>,
}

/// Why an entry did not resolve again.
enum ResolveAgain {
    /// It is not an entry drumhead writes, or not a line a journal holds.
    Refused(String),
    /// Its line failed.
    Failed(CommandError),
}

impl Session {
    /// The line a journal entry resolves again from, under the entry's
    /// rule system (set here), and whether it enters its own dice.
    fn entry_line(&mut self, entry: &crate::game::Entry) -> Result<(String, bool), String> {
        let line = match (&entry.line, entry.undo) {
            (Some(_), Some(_)) => {
                return Err(
                    "an entry with both a line and an undo: not an entry drumhead writes".into(),
                );
            }
            (_, Some(_)) => GameVerb::Undo.name().to_string(),
            (Some(line), None) => line.clone(),
            (None, None) => return Err("an entry with neither a line nor an undo".into()),
        };
        if let Some(system) = entry.system.as_deref().and_then(|id| self.tables.book(id)) {
            self.rules = system;
        }
        let from_line = self
            .parse(&line)
            .ok()
            .flatten()
            .is_some_and(|c| !c.rolled.is_empty());
        Ok((line, from_line))
    }

    /// Resolve an entry of an older journal again as that drumhead's
    /// replay did, into a game kept in memory, and check it gives the
    /// effects (and undoes the entry) it recorded. Says what differs.
    pub(crate) fn adopt_older(&mut self, entry: &crate::game::Entry) -> Result<(), String> {
        let (line, from_line) = self.entry_line(entry)?;
        self.pending.clear();
        if !from_line {
            self.enter_dice(&entry.dice);
        } else if let Some(seed) = entry.seed {
            self.set_next_seed(seed);
        }
        if let Ok(Some(command)) = self.parse(&line)
            && let Err(why) = journaled(entry, &command)
        {
            return Err(format!("entry {}: `{line}` {why}", entry.entry));
        }
        let before = self.game.as_ref().map_or(0, |g| g.tally().entries);
        self.again = Some(Again::Adopting);
        let result = self.run_line(&line);
        self.again = None;
        let leftover = std::mem::take(&mut self.pending).len();
        if let Err(e) = result {
            return Err(format!(
                "entry {}: `{line}` does not resolve again: {e}",
                entry.entry
            ));
        }
        let Some(game) = &self.game else {
            return Err("no game".into());
        };
        let again = game
            .last_recorded()
            .filter(|_| game.tally().entries == before + 1);
        let same = again.is_some_and(|a| a.effects == entry.effects && a.undo == entry.undo);
        if !same || leftover > 0 {
            return Err(format!(
                "entry {}: `{line}` resolved again does not give what it recorded",
                entry.entry
            ));
        }
        Ok(())
    }

    /// What the game found or did while a line ran that is not the
    /// line's answer (entries another writer recorded, a torn last line
    /// cut): for standard error.
    pub(crate) fn take_notes(&mut self) -> Vec<String> {
        match &mut self.game {
            Some(game) => std::mem::take(&mut game.notes),
            None => Vec::new(),
        }
    }

    /// Bring the game up to the newest state before a line: under the
    /// game's lock when the line may change it (`write`), so that it is
    /// resolved against the state it will be recorded on. Whatever
    /// another process (or a run that was stopped) recorded since is
    /// read and resolved again here, and applied only if it gives
    /// exactly what it recorded.
    pub(crate) fn sync_game(&mut self, write: bool) -> Result<(), GameError> {
        if self.again.is_some() {
            return Ok(());
        }
        let Some(game) = &mut self.game else {
            return Ok(());
        };
        if game.file.is_none() {
            return Ok(());
        }
        if write {
            game.begin_write()?;
        }
        let hint = |game: &Game, e: GameError| match e {
            GameError::Journal { .. } | GameError::Mismatch(_) => {
                let path = game.file.as_deref().unwrap_or(std::path::Path::new(""));
                GameError::Mismatch(format!(
                    "{e}; `drumhead repair {}` shows what can be done about it, and changes nothing until told",
                    path.display()
                ))
            }
            other => other,
        };
        let mut included: u64 = 0;
        let synced = loop {
            match self.resolve_next() {
                Ok(Some(_)) => included += 1,
                Ok(None) => break Ok(()),
                Err(e) => {
                    break Err(match &self.game {
                        Some(game) => hint(game, e),
                        None => e,
                    });
                }
            }
        };
        // Said with the line's other notes, those included before an entry
        // that did not give what it recorded too.
        if let Some(game) = &mut self.game
            && included > 0
        {
            game.notes.push(caught_up(included));
        }
        synced
    }

    /// The next entry of the game's journal after its state (another
    /// writer's, or every entry of a journal being replayed), resolved
    /// again and applied, with its answer: one step of the fold that
    /// catches a game up, replays a journal or checks one. `None` when
    /// the journal holds nothing more.
    pub(crate) fn resolve_next(&mut self) -> Result<Option<(Entry, Option<Output>)>, GameError> {
        let Some(game) = &mut self.game else {
            return Ok(None);
        };
        let Some(entry) = game.next_pending()? else {
            return Ok(None);
        };
        let answer = self.resolve_again(&entry)?;
        Ok(Some((entry, answer)))
    }

    /// Resolve a journal entry again from its line, its entered dice and
    /// its seed: the game applies it only if it records exactly what the
    /// journal holds. Gives the entry's answer, as its writer was given
    /// it (a live view shows it).
    pub fn resolve_again(
        &mut self,
        entry: &crate::game::Entry,
    ) -> Result<Option<Output>, GameError> {
        let file = self
            .game
            .as_ref()
            .map(|g| g.journal_shown())
            .unwrap_or_default();
        let at = usize::try_from(entry.entry)
            .unwrap_or(usize::MAX)
            .saturating_add(1);
        let fail = |message: String| GameError::Journal {
            file: file.clone(),
            line: at,
            message: format!("entry {}: {message}; it is not applied", entry.entry),
        };
        let before = self.stand_aside();
        let resolved = self.resolve_entry(entry);
        let leftover = self.pending.len();
        self.stand_back(before);
        let (line, result) = resolved.map_err(&fail)?;
        let result = result.map_err(|e| match e {
            ResolveAgain::Refused(message) => fail(message),
            ResolveAgain::Failed(e) => fail(format!("`{line}` does not resolve again: {e}")),
        });
        let unmatched = self.game.as_mut().and_then(|g| g.take_unmatched());
        let rejected = self.game.as_mut().and_then(|g| g.take_rejected());
        match result {
            Err(_) if rejected.is_some() => Err(GameError::Mismatch(rejected.unwrap_or_default())),
            Err(e) => Err(e),
            Ok(_) if unmatched.is_some() => Err(fail(format!(
                "`{line}` records nothing when it is resolved again"
            ))),
            Ok(_) if leftover > 0 => Err(fail(format!(
                "`{line}` does not use the {} entered dice it recorded",
                entry.entered
            ))),
            Ok(answer) => Ok(answer),
        }
    }

    /// Where the session stands between lines, set aside while a journal
    /// entry is resolved again under its own rule system, seed and dice.
    fn stand_aside(&mut self) -> Stand {
        Stand {
            rules: self.rules,
            seed: self.seed,
            position: self.position,
            pending: std::mem::take(&mut self.pending),
        }
    }

    fn stand_back(&mut self, stand: Stand) {
        (self.rules, self.seed, self.position, self.pending) =
            (stand.rules, stand.seed, stand.position, stand.pending);
    }

    /// Resolve an entry again from its line, its entered dice and its
    /// seed (the session set aside): its line, and what resolving it
    /// gave. An entry with no line drumhead writes is an error.
    fn resolve_entry(
        &mut self,
        entry: &Entry,
    ) -> Result<(String, Result<Option<Output>, ResolveAgain>), String> {
        let (line, from_line) = self.entry_line(entry)?;
        if !from_line {
            let entered = entry.dice.get(..entry.entered).unwrap_or(&entry.dice);
            self.enter_dice(entered);
        }
        if let Some(seed) = entry.seed {
            self.set_next_seed(seed);
        }
        // Only a line that may be journaled is resolved from a journal,
        // and it is looked at before anything runs: a `save`, `set` or
        // any other verb forged into a journal does nothing at all.
        let result = match self.parse(&line) {
            Ok(Some(command)) => match journaled(entry, &command) {
                Ok(()) => {
                    self.again = Some(Again::Verifying);
                    let result = self.run_command(&line, &command, None);
                    self.again = None;
                    result.map_err(ResolveAgain::Failed)
                }
                Err(why) => Err(ResolveAgain::Refused(format!("`{line}` {why}"))),
            },
            Ok(None) => Ok(None),
            Err(e) => Err(ResolveAgain::Failed(e)),
        };
        Ok((line, result))
    }
}

/// The note of `n` entries another writer (or a stopped run) recorded
/// after the game's state, resolved again and included before a line.
fn caught_up(n: u64) -> String {
    format!(
        "{n} entr{} of the journal after this game's state (another writer's, or a stopped run's) \
         resolved again to what {} recorded, and included",
        if n == 1 { "y" } else { "ies" },
        if n == 1 { "it" } else { "they" }
    )
}
