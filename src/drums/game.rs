//! What a game keeps of Drums and Muskets units and generals: the effects
//! resolutions have on them, the facts they bring to a command, the
//! roster, and the end-of-turn resilience tests.

mod campaign;
mod effect;
mod end_turn;
mod expand;
mod facts;
mod printed;
mod show;
mod state;

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::Tables;
use super::army::{General, List, Unit};
use crate::answer::report::UnitStatus;
use crate::army::Army;
use crate::catalog::{UnitFact, UnitFacts};
use crate::command::Command;
use crate::system::{GameState, GameView, PrintedArmy, Roster};

pub(crate) use campaign::{CAMPAIGN_SECTION, CampaignTable};
pub(crate) use effect::DrumsEffect;
pub(crate) use expand::WHAT_IF;
pub(crate) use state::{GeneralState, Strength, UnitState};

/// What the Drums and Muskets state of a game is read against: the
/// tables, and the game's Drums armies.
pub(crate) struct DrumsContext {
    tables: Rc<Tables>,
    /// Each army's index in the game, and its list.
    armies: Vec<(usize, Rc<List>)>,
    /// Each army's side, as its list names it ("Prussia").
    sides: Vec<String>,
}

/// Everything the Drums and Muskets part of a game keeps that effects and
/// `next-turn` change: its checkpoint. The units and generals are kept
/// exactly as effects left them: a unit whose entry a new turn left all
/// cleared keeps it, as the game file's `units` shows it.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DrumsState {
    /// The Drums army (0 or 1, in the order of the game's Drums armies)
    /// with the initiative this turn.
    initiative: Option<usize>,
    #[serde(deserialize_with = "crate::system::object_values")]
    units: BTreeMap<String, UnitState>,
    #[serde(deserialize_with = "crate::system::object_values")]
    generals: BTreeMap<String, GeneralState>,
}

/// The Drums and Muskets part of a game as it stands: its state read
/// against its tables and lists.
#[derive(Clone, Copy)]
pub(crate) struct DrumsGame<'a> {
    context: &'a DrumsContext,
    tables: &'a Tables,
    armies: &'a [(usize, Rc<List>)],
    sides: &'a [String],
    units: &'a BTreeMap<String, UnitState>,
    generals: &'a BTreeMap<String, GeneralState>,
    initiative: Option<usize>,
}

#[derive(Serialize)]
struct Saved<'a> {
    initiative: Option<usize>,
    units: &'a BTreeMap<String, UnitState>,
    generals: &'a BTreeMap<String, GeneralState>,
    /// Every unit's strength as the hits leave it, worked out from `units`
    /// for whoever reads the game file (nothing reads it back).
    roster: BTreeMap<&'a str, RosterEntry>,
}

/// One unit's strength in the game file.
#[derive(Serialize)]
struct RosterEntry {
    /// "bases" or "figures".
    counted: &'static str,
    start: i64,
    left: i64,
    /// Hits carried towards the next base.
    carried: i64,
    /// Percent of the starting strength left, rounded down.
    percent: i64,
    /// Why it cannot act, if so.
    out_of_action: Option<String>,
}

impl DrumsContext {
    pub(crate) fn new(tables: Rc<Tables>, armies: &[(usize, &Army)]) -> DrumsContext {
        let mut lists = Vec::new();
        let mut sides = Vec::new();
        for (i, a) in armies {
            if let Some(list) = super::army::read(a) {
                lists.push((*i, Rc::new(list)));
                sides.push(a.side.clone());
            }
        }
        DrumsContext {
            tables,
            armies: lists,
            sides,
        }
    }

    fn unit(&self, id: &str) -> Option<&Unit> {
        self.armies
            .iter()
            .find_map(|(_, l)| l.units.iter().find(|u| u.id == id))
    }

    fn general(&self, id: &str) -> Option<&General> {
        self.armies
            .iter()
            .find_map(|(_, l)| l.generals.iter().find(|g| g.id == id))
    }
}

impl<'a> DrumsGame<'a> {
    /// The state read against its context.
    pub(crate) fn of(context: &'a DrumsContext, state: &'a DrumsState) -> DrumsGame<'a> {
        DrumsGame {
            context,
            tables: &context.tables,
            armies: &context.armies,
            sides: &context.sides,
            units: &state.units,
            generals: &state.generals,
            initiative: state.initiative,
        }
    }

    fn hits_per_base(&self) -> i64 {
        i64::from(self.tables.drums.hits.per_base)
    }

    fn unit(&self, id: &str) -> Option<&'a Unit> {
        self.context.unit(id)
    }

    fn general(&self, id: &str) -> Option<&'a General> {
        self.context.general(id)
    }

    fn state(&self, id: &str) -> UnitState {
        self.units.get(id).cloned().unwrap_or_default()
    }

    fn general_state(&self, id: &str) -> GeneralState {
        self.generals.get(id).cloned().unwrap_or_default()
    }

    pub(crate) fn strength(&self, unit: &Unit) -> Strength {
        Strength::of(unit, &self.state(&unit.id), self.hits_per_base())
    }

    /// The Drums side (0 or 1) a unit or general is in.
    fn side_of(&self, id: &str) -> Option<usize> {
        self.armies.iter().position(|(_, l)| {
            l.units.iter().any(|u| u.id == id) || l.generals.iter().any(|g| g.id == id)
        })
    }

    /// The generals of a side swept away or incapacitated this turn, with
    /// what befell each.
    fn lost_generals(&self, side: usize) -> Vec<(&General, &'static str)> {
        let Some((_, list)) = self.armies.get(side) else {
            return Vec::new();
        };
        list.generals
            .iter()
            .filter_map(|g| {
                let s = self.general_state(&g.id);
                if s.incapacitated {
                    Some((g, "incapacitated by a stray round"))
                } else if s.swept_away {
                    Some((g, "swept away"))
                } else {
                    None
                }
            })
            .collect()
    }

    /// The side's force commander, if he was swept away or hit this turn.
    fn commander_lost(&self, side: usize) -> Option<(&General, &'static str)> {
        self.lost_generals(side)
            .into_iter()
            .find(|(g, _)| g.commander)
    }

    /// What Risk to Generals leaves a side with this turn, in words; `None`
    /// when no general of it was lost.
    fn risk_aftermath(&self, side: usize) -> Option<String> {
        let lost = self.lost_generals(side);
        if lost.is_empty() {
            return None;
        }
        let who: Vec<String> = lost
            .iter()
            .map(|(g, what)| format!("{} {what}", g.id))
            .collect();
        let mut text = format!(
            "risk to generals this turn ({}): units of {} can only expend 1 action point for the rest of the turn",
            who.join(", "),
            self.side(side)
        );
        if let Some((g, _)) = self.commander_lost(side) {
            text.push_str(&format!(
                "; the force commander ({}) issues no supply dice for the rest of the turn: `supply` is refused",
                g.id
            ));
        }
        Some(text)
    }

    /// A Drums army's side, as its list names it. A side with no army of
    /// this game (one army loaded, the other typed) is named by its place
    /// on the line.
    fn side(&self, side: usize) -> String {
        self.sides
            .get(side)
            .cloned()
            .unwrap_or_else(|| format!("{} (no army of this game)", effect::line_side(side)))
    }

    /// Why a unit cannot act, if so.
    fn unit_out(&self, unit: &Unit) -> Option<String> {
        if self.state(&unit.id).broken {
            return Some("has broken".into());
        }
        let strength = self.strength(unit);
        if strength.left() == 0 {
            return Some(format!("has lost all its {}", strength.what()));
        }
        None
    }

    /// The units in a general's line of command.
    fn command_of(&self, general: &str) -> Vec<&Unit> {
        self.armies
            .iter()
            .flat_map(|(_, l)| l.units.iter())
            .filter(|u| u.general.as_deref() == Some(general))
            .collect()
    }
}

/// How a unit stands, for a view to mark: out once broken or every base
/// or figure lost, shaken at half strength or less (its end-of-turn
/// test) or forced to retire this turn.
fn status(s: &UnitState, strength: &Strength) -> UnitStatus {
    if s.broken {
        UnitStatus::Out("broken".into())
    } else if strength.left() == 0 {
        UnitStatus::Out(format!("all {} lost", strength.what()))
    } else if strength.half_or_less() {
        UnitStatus::Shaken("at half strength or less".into())
    } else if s.retired {
        UnitStatus::Shaken("forced to retire".into())
    } else {
        UnitStatus::Fine
    }
}

/// The flags of a unit's state, for the roster.
fn flags(s: &UnitState, strength: &Strength) -> String {
    let mut f: Vec<String> = Vec::new();
    if s.broken {
        f.push("broken".into());
    } else if strength.left() == 0 {
        f.push(format!("all {} lost", strength.what()));
    } else if strength.half_or_less() {
        f.push("≤50%: end-of-turn test".into());
    }
    for (on, word) in [
        (s.moved, "moved"),
        (s.hit, "hit this turn"),
        (s.inflicted, "inflicted hits"),
        (s.retired, "forced to retire"),
        (s.fired_at, "fired at"),
    ] {
        if on {
            f.push(word.into());
        }
    }
    for (n, what) in [
        (s.shots, "shots"),
        (s.melees, "melees"),
        (s.charges, "charges"),
    ] {
        if n > 0 {
            f.push(format!("{what} {n}"));
        }
    }
    f.join(", ")
}

impl GameState for DrumsState {
    type Effect = DrumsEffect;
    type Context = DrumsContext;

    fn view<'a>(&'a self, context: &'a DrumsContext) -> Box<dyn GameView + 'a> {
        Box::new(DrumsGame::of(context, self))
    }

    /// The initiative falls on an army, named as its list names it.
    fn describe(&self, context: &DrumsContext, unit: Option<&str>, effect: &DrumsEffect) -> String {
        match effect {
            DrumsEffect::Initiative { army } => {
                format!(
                    "game: {} has the initiative",
                    DrumsGame::of(context, self).side(*army)
                )
            }
            _ => crate::answer::resolution::SystemEffect::describe(effect, unit),
        }
    }

    fn apply(
        &mut self,
        context: &DrumsContext,
        unit: Option<&str>,
        effect: &DrumsEffect,
    ) -> Result<(), String> {
        if let DrumsEffect::Initiative { army } = effect {
            self.initiative = Some(*army);
            return Ok(());
        }
        let id = unit.ok_or("an effect on a unit names no unit")?;
        if context.general(id).is_some() {
            let g = self.generals.entry(id.to_string()).or_default();
            match effect {
                DrumsEffect::Incapacitated => g.incapacitated = true,
                DrumsEffect::SweptAway => g.swept_away = true,
                DrumsEffect::Moved => g.moved = true,
                // The verbs refuse a general where a unit is meant, so
                // these never reach a general; one that did (a journal
                // written by hand) changes nothing rather than leave a
                // game that cannot be opened.
                _ => {}
            }
            return Ok(());
        }
        if context.unit(id).is_none() {
            return Err(format!("no Drums and Muskets unit `{id}` in this game"));
        }
        let u = self.units.entry(id.to_string()).or_default();
        match effect {
            DrumsEffect::Hits { hits } => {
                u.hits = u.hits.saturating_add(*hits);
                if *hits > 0 {
                    u.hit = true;
                }
            }
            DrumsEffect::Inflicted => u.inflicted = true,
            DrumsEffect::Shot => u.shots = u.shots.saturating_add(1),
            DrumsEffect::FiredAt => u.fired_at = true,
            DrumsEffect::Melee => u.melees = u.melees.saturating_add(1),
            DrumsEffect::Charged => u.charges = u.charges.saturating_add(1),
            DrumsEffect::Moved => u.moved = true,
            DrumsEffect::Retired => u.retired = true,
            DrumsEffect::Broken => u.broken = true,
            // As above: `risk` refuses a unit, and a stray one is harmless.
            DrumsEffect::Incapacitated
            | DrumsEffect::SweptAway
            | DrumsEffect::Initiative { .. } => {}
        }
        Ok(())
    }

    fn next_turn(&mut self, _context: &DrumsContext) {
        self.initiative = None;
        for u in self.units.values_mut() {
            u.clear_turn();
        }
        // "The general is then free next move to move as per normal": an
        // incapacitated general is back, and a swept-away one has made
        // his way to his long edge.
        self.generals.clear();
    }

    fn named(&self) -> Vec<(&'static str, &str)> {
        let units = self.units.keys().map(|id| ("unit", id.as_str()));
        let generals = self.generals.keys().map(|id| ("general", id.as_str()));
        units.chain(generals).collect()
    }

    fn carry(
        &self,
        context: &DrumsContext,
        fought: &[crate::carry::Fought<DrumsEffect>],
        close: &crate::carry::Close<'_>,
        _dice: &mut dyn crate::dice::DiceSource,
    ) -> Result<crate::carry::Carry, String> {
        Ok(DrumsGame::of(context, self).carry_over(fought, close))
    }
}

impl GameView for DrumsGame<'_> {
    fn facts(&self, id: &str) -> Option<UnitFacts> {
        if let Some(u) = self.unit(id) {
            return Some(UnitFacts {
                id: u.id.clone(),
                name: u.name.clone(),
                facts: self.unit_facts(u),
                out_of_action: self.unit_out(u),
            });
        }
        let g = self.general(id)?;
        Some(UnitFacts {
            id: g.id.clone(),
            name: g.name.clone(),
            facts: DrumsGame::general_facts(g),
            out_of_action: self.out_of_action(id),
        })
    }

    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        if let Some(g) = self.general(id) {
            return DrumsGame::general_facts(g);
        }
        self.unit(id)
            .map(|u| self.possible_unit_facts(u))
            .unwrap_or_default()
    }

    fn out_of_action(&self, id: &str) -> Option<String> {
        if let Some(u) = self.unit(id) {
            return self.unit_out(u);
        }
        self.general_state(id)
            .incapacitated
            .then(|| "is off the table until the next turn (incapacitated by a stray round)".into())
    }

    fn next_turn_text(&self) -> Option<String> {
        Some(
            "per-turn facts cleared (moved, hit, inflicted, forced to retire, the initiative); \
             generals incapacitated or swept away are free to move as normal; units may \
             expend their action points and the force commander issue supply dice again"
                .into(),
        )
    }

    fn roster(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut roster = Roster {
            header: vec!["id", "name", "left", "strength", "carried", "state"],
            ..Roster::default()
        };
        for u in &list.units {
            let s = self.state(&u.id);
            let st = self.strength(u);
            roster.rows.push(vec![
                u.id.clone(),
                u.name.clone(),
                st.left_of(),
                format!("{}%", st.percent()),
                if st.figures {
                    "—".into()
                } else {
                    st.carried.to_string()
                },
                flags(&s, &st),
            ]);
            roster.status.push(status(&s, &st));
        }
        let generals: Vec<String> = list
            .generals
            .iter()
            .map(|g| {
                let s = self.general_state(&g.id);
                let gone = if s.incapacitated {
                    " (incapacitated: off the table this turn)"
                } else if s.swept_away {
                    " (swept away to his long edge this turn)"
                } else {
                    ""
                };
                let commander = if g.commander { ", force commander" } else { "" };
                format!("{} {} [{}{commander}]{gone}", g.id, g.name, g.ability)
            })
            .collect();
        if !generals.is_empty() {
            roster
                .notes
                .push(format!("generals: {}", generals.join("; ")));
        }
        if let Some(text) = self
            .armies
            .iter()
            .position(|(i, _)| *i == army)
            .and_then(|side| self.risk_aftermath(side))
        {
            roster.notes.push(text);
        }
        Some(roster)
    }

    fn printed(&self, army: usize) -> Option<PrintedArmy> {
        self.printed_of(army)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        match self.general(id) {
            Some(g) => Some(self.show_general(g)),
            None => Some(self.show_unit(self.unit(id)?)),
        }
    }

    fn end_turn(&self) -> String {
        self.end_turn_text()
    }

    fn state(&self) -> Option<serde_json::Value> {
        let roster = self
            .armies
            .iter()
            .flat_map(|(_, l)| l.units.iter())
            .map(|u| {
                let st = self.strength(u);
                let entry = RosterEntry {
                    counted: st.what(),
                    start: st.start,
                    left: st.left(),
                    carried: st.carried,
                    percent: st.percent(),
                    out_of_action: self.unit_out(u),
                };
                (u.id.as_str(), entry)
            })
            .collect();
        serde_json::to_value(Saved {
            initiative: self.initiative,
            units: self.units,
            generals: self.generals,
            roster,
        })
        .ok()
    }

    /// `initiative` in a game of two armies: alone (or with `supply` on a
    /// side: `initiative supply vs supply`), each side's pool from its
    /// generals still on the table. Side a is the first army, side b the
    /// second (as the initiative is recorded). A side whose force commander
    /// was lost this turn gets `no-supply` beside its `supply`, which the
    /// verb refuses.
    fn expand(&self, command: &Command, _line: &str) -> Option<Command> {
        self.expand_initiative(command)
    }

    fn outcome_named(&self, command: &Command, outcome: &str) -> Option<String> {
        self.outcome_of(command, outcome)
    }
}
