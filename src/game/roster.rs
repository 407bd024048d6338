//! `units`, `show UNIT`, `end-turn` and `log`: the game as typed reports,
//! each army in its own rule system's columns.

use super::{Game, GameError};
use crate::answer::report::{ArmyRoster, LogEntry, Report, Row};

impl Game {
    /// Every army's roster.
    pub(crate) fn roster(&self) -> Report {
        let armies = self
            .armies
            .iter()
            .enumerate()
            .map(|(i, army)| {
                let roster = self
                    .part_of_army(i)
                    .and_then(|p| p.state.view().roster(i))
                    .unwrap_or_default();
                ArmyRoster {
                    name: army.name.clone(),
                    side: army.side.clone(),
                    rules: army.rules.id().to_string(),
                    rules_title: army.rules.title().to_string(),
                    columns: roster.header.iter().map(|h| h.to_string()).collect(),
                    units: roster.rows,
                    notes: with_away(roster.notes, army),
                    status: roster.status,
                }
            })
            .collect();
        Report::Roster {
            turn: self.turn,
            armies,
        }
    }

    /// One army's printed roster, as its rule system lays it out.
    pub(crate) fn printed(&self, army: usize) -> Option<crate::system::PrintedArmy> {
        self.part_of_army(army)?.state.view().printed(army)
    }

    /// Everything known of one unit, or `None` for an unknown id.
    pub(crate) fn show(&self, id: &str) -> Option<Report> {
        let (i, army) = self.army_of(id)?;
        let mut rows = self.part_of_army(i)?.state.view().show(id)?;
        if let Some(chosen) = self.chosen_seeds_on(id) {
            rows.push(("rolled from a seed chosen with --seed".to_string(), chosen));
        }
        let name = army
            .list
            .members()
            .into_iter()
            .find(|m| m.id == id)
            .map(|m| m.name.to_string())
            .unwrap_or_default();
        Some(Report::Unit {
            id: id.to_string(),
            name,
            army: army.name.clone(),
            rows: rows
                .into_iter()
                .map(|(label, value)| Row { label, value })
                .collect(),
        })
    }

    /// The entries of a game kept in a file whose effects fell on a unit
    /// and whose dice rolled from a seed chosen with `--seed`, in words
    /// (`entry 4 (seed 3)`); `None` when there are none. Read from the
    /// journal, one entry at a time.
    fn chosen_seeds_on(&self, id: &str) -> Option<String> {
        self.file.as_ref()?;
        let mut found = Vec::new();
        let mut source = self.source().ok()?;
        while let Ok(Some(e)) = source.next() {
            let on_unit = e
                .effects
                .iter()
                .any(|f| f.get("unit").and_then(|u| u.as_str()) == Some(id));
            if let (true, true, Some(seed)) = (e.chosen, on_unit, e.seed) {
                found.push(format!("entry {} (seed {seed})", e.entry));
            }
        }
        (!found.is_empty()).then(|| found.join(", "))
    }

    /// What each rule system's rules do at the end of the turn.
    pub(crate) fn end_turn(&self) -> Report {
        Report::EndTurn {
            turn: self.turn,
            systems: self
                .parts
                .iter()
                .map(|p| p.state.view().end_turn())
                .collect(),
        }
    }

    /// The journal, undone entries marked: read one entry at a time.
    pub(crate) fn log(&self) -> Result<Report, GameError> {
        let mut entries: Vec<LogEntry> = Vec::new();
        let mut source = self.source()?;
        while let Some(e) = source.next()? {
            if let Some(target) = e.undo
                && let Some(undone) = usize::try_from(target)
                    .ok()
                    .and_then(|t| t.checked_sub(1))
                    .and_then(|t| entries.get_mut(t))
            {
                undone.undone = true;
            }
            let outcome_named = self.outcome_named(&e);
            entries.push(log_entry(e, false, outcome_named));
        }
        source.finish(&self.tally)?;
        Ok(Report::Log { entries })
    }
}

/// A roster's notes, and the entries a campaign holds out of this battle.
fn with_away(mut notes: Vec<String>, army: &crate::army::Army) -> Vec<String> {
    let away: Vec<String> = army.list.away().iter().map(|a| a.describe()).collect();
    if !away.is_empty() {
        notes.push(format!("held out by the campaign: {}", away.join("; ")));
    }
    notes
}

impl Game {
    /// An entry's outcome as its rule system names it, where its id stands
    /// for a side (see `GameView::outcome_named`).
    pub(crate) fn outcome_named(&self, e: &super::Entry) -> Option<String> {
        let (line, outcome) = (e.line.as_deref()?, e.outcome.as_deref()?);
        let system = e.system.as_deref().and_then(|id| self.tables.book(id))?;
        let command = crate::parse::parse_line(line, &self.tables.books()).ok()??;
        self.parts
            .iter()
            .find(|p| p.set.system().books().contains(&system))?
            .state
            .view()
            .outcome_named(&command, outcome)
    }
}

/// An entry as `log` shows it: `undone` when a later undo took it back,
/// its outcome as its rule system names it where the game gives one.
pub(crate) fn log_entry(e: super::Entry, undone: bool, outcome_named: Option<String>) -> LogEntry {
    LogEntry {
        entry: e.entry,
        turn: e.turn,
        chosen_seed: e.seed.filter(|_| e.chosen),
        line: e.line,
        outcome: e.outcome,
        outcome_named,
        undo: e.undo,
        undone,
    }
}
