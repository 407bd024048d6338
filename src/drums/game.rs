//! What a game keeps of Drums and Muskets units and generals: the effects
//! resolutions have on them, the facts they bring to a command, the
//! roster, and the end-of-turn resilience tests.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::Tables;
use super::army::{General, List, Unit};
use crate::army::Army;
use crate::catalog::{UnitFact, UnitFacts};
use crate::command::Command;
use crate::resolution::{Effect, SystemEffect};
use crate::system::{GamePart, Roster};

/// What one resolution does to a unit or general.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum DrumsEffect {
    /// Hits received (bases are lost at the tables' rate).
    Hits {
        hits: i64,
    },
    /// Inflicted hits this turn.
    Inflicted,
    /// Shot (the first shot spent, one more shot fired this game).
    Shot,
    /// Fired at this turn (with a hit, the shooters' "fired at" row).
    FiredAt,
    /// Fought a melee round (the first melee spent).
    Melee,
    Charged,
    Moved,
    /// Forced to retire this turn.
    Retired,
    Broken,
    /// A general hit by a stray round: placed on the long edge, off the
    /// table for the rest of the turn, free to move next turn.
    Incapacitated,
    /// A general swept away with a broken unit, to his own long edge.
    SweptAway,
    /// The army (the first or second of the game's Drums armies) that has
    /// the initiative this turn.
    Initiative {
        army: usize,
    },
}

impl SystemEffect for DrumsEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        let u = unit.unwrap_or("the unit");
        match self {
            DrumsEffect::Hits { hits } => {
                format!(
                    "game: {u} takes {hits} hit{}",
                    if *hits == 1 { "" } else { "s" }
                )
            }
            DrumsEffect::Inflicted => format!("game: {u} has inflicted hits this turn"),
            DrumsEffect::Shot => format!("game: {u} has fired (first shot spent)"),
            DrumsEffect::FiredAt => format!("game: {u} was fired at this turn"),
            DrumsEffect::Melee => format!("game: {u} has fought a melee round"),
            DrumsEffect::Charged => format!("game: {u} has charged"),
            DrumsEffect::Moved => format!("game: {u} has moved this turn"),
            DrumsEffect::Retired => format!("game: {u} was forced to retire this turn"),
            DrumsEffect::Broken => format!("game: {u} breaks"),
            DrumsEffect::Incapacitated => {
                format!("game: {u} is off the table for the rest of this turn")
            }
            DrumsEffect::SweptAway => format!("game: {u} is swept away to his own long edge"),
            DrumsEffect::Initiative { army } => {
                format!("game: army {} has the initiative", army + 1)
            }
        }
    }
}

/// Everything the game remembers about one unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct UnitState {
    pub hits: i64,
    pub shots: u32,
    pub melees: u32,
    pub charges: u32,
    pub broken: bool,
    // Per-turn facts, cleared by `next-turn`.
    pub moved: bool,
    pub hit: bool,
    pub inflicted: bool,
    pub retired: bool,
    pub fired_at: bool,
}

impl UnitState {
    fn clear_turn(&mut self) {
        self.moved = false;
        self.hit = false;
        self.inflicted = false;
        self.retired = false;
        self.fired_at = false;
    }
}

/// A general's state this turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GeneralState {
    /// Off the table until next turn.
    pub incapacitated: bool,
    pub swept_away: bool,
}

/// Strength of a unit after its hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    pub bases: i64,
    pub lost: i64,
}

impl Strength {
    pub fn of(unit: &Unit, state: &UnitState, hits_per_base: i64) -> Strength {
        let bases = unit.bases.max(0);
        let lost = (state.hits / hits_per_base.max(1)).clamp(0, bases);
        Strength { bases, lost }
    }

    pub fn left(&self) -> i64 {
        self.bases - self.lost
    }

    /// Percent of the starting bases still on the table.
    pub fn percent(&self) -> i64 {
        if self.bases == 0 {
            return 100;
        }
        // Wide arithmetic: an army list may give any number of bases.
        (i128::from(self.left()) * 100 / i128::from(self.bases)) as i64
    }
}

/// The Drums and Muskets part of a game.
pub struct DrumsGame {
    tables: Rc<Tables>,
    /// Each army's index in the game, and its list.
    armies: Vec<(usize, Rc<List>)>,
    units: BTreeMap<String, UnitState>,
    generals: BTreeMap<String, GeneralState>,
    initiative: Option<usize>,
}

#[derive(Serialize)]
struct Saved<'a> {
    initiative: Option<usize>,
    units: &'a BTreeMap<String, UnitState>,
    generals: &'a BTreeMap<String, GeneralState>,
}

impl DrumsGame {
    pub fn new(tables: Rc<Tables>, armies: &[(usize, &Army)]) -> DrumsGame {
        let armies = armies
            .iter()
            .filter_map(|(i, a)| {
                let list = a.list_as::<List>()?;
                Some((*i, Rc::new(list.clone())))
            })
            .collect();
        DrumsGame {
            tables,
            armies,
            units: BTreeMap::new(),
            generals: BTreeMap::new(),
            initiative: None,
        }
    }

    fn hits_per_base(&self) -> i64 {
        i64::from(self.tables.drums.hits.per_base)
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

    fn state(&self, id: &str) -> UnitState {
        self.units.get(id).cloned().unwrap_or_default()
    }

    fn general_state(&self, id: &str) -> GeneralState {
        self.generals.get(id).cloned().unwrap_or_default()
    }

    fn strength(&self, unit: &Unit) -> Strength {
        Strength::of(unit, &self.state(&unit.id), self.hits_per_base())
    }

    /// The facts a unit brings, as it stands.
    fn unit_facts(&self, unit: &Unit) -> Vec<UnitFact> {
        let state = self.state(&unit.id);
        let mut facts = static_facts(unit);
        let strength = self.strength(unit);
        let two_rank = unit.doctrine.iter().any(|d| d == "two-rank");
        facts.push(UnitFact::number("bases", strength.left()));
        let carried = state.hits.max(0) % self.hits_per_base().max(1);
        if carried > 0 && strength.left() > 0 {
            facts.push(UnitFact::number("carried", carried));
        }
        let percent = strength.percent();
        if percent <= 50 {
            facts.push(UnitFact::word("half-lost"));
            facts.push(UnitFact::word("weak"));
        } else if percent >= 75 {
            facts.push(UnitFact::word("strong"));
            if strength.lost > 0 && !two_rank {
                facts.push(UnitFact::word("lost-bases"));
            }
        }
        for (on, word) in [
            (state.hit, "hit"),
            (state.inflicted, "inflicted"),
            (state.retired, "retired"),
            (state.moved, "moved"),
            (state.fired_at && state.hit, "shot-at"),
        ] {
            if on {
                facts.push(UnitFact::word(word));
            }
        }
        match state.charges {
            0 => facts.push(UnitFact::word("not-charged")),
            1 => {}
            _ => facts.push(UnitFact::word("charged-twice")),
        }
        if state.shots == 0 {
            facts.push(UnitFact::word("first-shot"));
        }
        if state.shots >= 3 {
            facts.push(UnitFact::word("fired-3"));
        }
        if state.melees == 0 {
            facts.push(UnitFact::word("first-melee"));
        }
        facts
    }

    fn general_facts(general: &General) -> Vec<UnitFact> {
        if general.commander {
            vec![UnitFact::word("commander")]
        } else {
            Vec::new()
        }
    }

    /// The units at 50% or less that take the end-of-turn resilience test:
    /// the side without the initiative first, then alternating.
    pub fn end_turn_order(&self) -> Vec<(String, String)> {
        let mut queues: Vec<Vec<(String, String)>> = self
            .armies
            .iter()
            .map(|(_, list)| {
                list.units
                    .iter()
                    .filter(|u| !self.state(&u.id).broken && self.strength(u).percent() <= 50)
                    .map(|u| (u.id.clone(), u.name.clone()))
                    .collect()
            })
            .collect();
        // With two armies, the one without the initiative tests first.
        if self.initiative == Some(0) && queues.len() == 2 {
            queues.swap(0, 1);
        }
        let mut order = Vec::new();
        let longest = queues.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..longest {
            for q in &queues {
                if let Some(u) = q.get(i) {
                    order.push(u.clone());
                }
            }
        }
        order
    }
}

/// What a unit brings whatever the game: arm, class, formation, weapon,
/// doctrine.
fn static_facts(unit: &Unit) -> Vec<UnitFact> {
    let mut facts = Vec::new();
    // The melee tables name heavy cavalry and lancers as arms of their own;
    // charge and movement know only `cavalry`. The first a verb knows wins.
    if unit.arm == "cavalry" && unit.heavy {
        facts.push(UnitFact::word("heavy-cavalry"));
    }
    if unit.arm == "cavalry" && unit.lancers {
        facts.push(UnitFact::word("lancers"));
    }
    // `irregular` is irregular foot to the melee tables and irregular
    // troops to the charge table: one word serves both.
    facts.push(UnitFact::word(unit.arm.clone()));
    facts.extend(unit.class.iter().cloned().map(UnitFact::word));
    facts.push(UnitFact::word(unit.formation.clone()));
    if let Some(weapon) = &unit.weapon {
        facts.push(UnitFact::word(weapon.clone()));
    }
    for doctrine in &unit.doctrine {
        facts.push(UnitFact::word(if doctrine == "light-company" {
            "light".to_string()
        } else {
            doctrine.clone()
        }));
    }
    facts
}

/// The flags of a unit's state, for the roster.
fn flags(s: &UnitState) -> String {
    let mut f: Vec<String> = Vec::new();
    for (on, word) in [
        (s.broken, "broken"),
        (s.moved, "moved"),
        (s.hit, "hit this turn"),
        (s.inflicted, "inflicted hits"),
        (s.retired, "forced to retire"),
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

impl GamePart for DrumsGame {
    fn facts(&self, id: &str) -> Option<UnitFacts> {
        if let Some(u) = self.unit(id) {
            return Some(UnitFacts {
                id: u.id.clone(),
                name: u.name.clone(),
                facts: self.unit_facts(u),
                out_of_action: None,
            });
        }
        let g = self.general(id)?;
        Some(UnitFacts {
            id: g.id.clone(),
            name: g.name.clone(),
            facts: DrumsGame::general_facts(g),
            out_of_action: None,
        })
    }

    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        if let Some(g) = self.general(id) {
            return DrumsGame::general_facts(g);
        }
        let Some(u) = self.unit(id) else {
            return Vec::new();
        };
        let mut facts = static_facts(u);
        facts.push(UnitFact::number("bases", u.bases));
        facts.push(UnitFact::number("carried", 1));
        for word in [
            "half-lost",
            "weak",
            "strong",
            "lost-bases",
            "hit",
            "inflicted",
            "retired",
            "moved",
            "shot-at",
            "not-charged",
            "charged-twice",
            "first-shot",
            "fired-3",
            "first-melee",
        ] {
            facts.push(UnitFact::word(word));
        }
        facts
    }

    fn out_of_action(&self, id: &str) -> Option<String> {
        if let Some(u) = self.unit(id) {
            if self.state(id).broken {
                return Some("has broken".into());
            }
            if self.strength(u).left() == 0 {
                return Some("has lost all its bases".into());
            }
            return None;
        }
        self.general_state(id)
            .incapacitated
            .then(|| "is incapacitated until the next turn".into())
    }

    fn apply(&mut self, unit: Option<&str>, effect: &dyn Effect) -> Result<(), String> {
        let effect = effect
            .as_any()
            .downcast_ref::<DrumsEffect>()
            .ok_or("not a Drums and Muskets effect")?;
        if let DrumsEffect::Initiative { army } = effect {
            self.initiative = Some(*army);
            return Ok(());
        }
        let id = unit.ok_or("an effect on a unit names no unit")?;
        if self.general(id).is_some() {
            let g = self.generals.entry(id.to_string()).or_default();
            match effect {
                DrumsEffect::Incapacitated => g.incapacitated = true,
                DrumsEffect::SweptAway => g.swept_away = true,
                _ => return Err(format!("{id} is a general: {effect:?} is for units")),
            }
            return Ok(());
        }
        if self.unit(id).is_none() {
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
            DrumsEffect::Incapacitated
            | DrumsEffect::SweptAway
            | DrumsEffect::Initiative { .. } => {
                return Err(format!("{id} is a unit: {effect:?} is for generals"));
            }
        }
        Ok(())
    }

    fn next_turn(&mut self) {
        self.initiative = None;
        for u in self.units.values_mut() {
            u.clear_turn();
        }
        // An incapacitated general is free to move next turn.
        self.generals.clear();
    }

    fn roster(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut roster = Roster {
            header: vec!["id", "name", "bases", "strength", "hits", "state"],
            ..Roster::default()
        };
        for u in &list.units {
            let s = self.state(&u.id);
            let st = self.strength(u);
            roster.rows.push(vec![
                u.id.clone(),
                u.name.clone(),
                format!("{}/{}", st.left(), st.bases),
                format!("{}%", st.percent()),
                s.hits.to_string(),
                flags(&s),
            ]);
        }
        let generals: Vec<String> = list
            .generals
            .iter()
            .map(|g| {
                let s = self.general_state(&g.id);
                let gone = if s.incapacitated {
                    " (incapacitated this turn)"
                } else if s.swept_away {
                    " (swept away this turn)"
                } else {
                    ""
                };
                format!("{} {} [{}]{gone}", g.id, g.name, g.ability)
            })
            .collect();
        if !generals.is_empty() {
            roster
                .notes
                .push(format!("generals: {}", generals.join("; ")));
        }
        Some(roster)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |k: &str, v: String| rows.push((k.to_string(), v));
        if let Some(g) = self.general(id) {
            row("general", g.ability.clone());
            if !g.traits.is_empty() {
                row("traits", g.traits.join(", "));
            }
            if g.commander {
                row("force commander", "yes".into());
            }
            let s = self.general_state(id);
            let state = match (s.incapacitated, s.swept_away) {
                (true, _) => "incapacitated: off the table until the next turn",
                (_, true) => "swept away to his own long edge this turn",
                _ => "",
            };
            row("state", state.into());
            return Some(rows);
        }
        let u = self.unit(id)?;
        let s = self.state(id);
        row("arm", u.arm.clone());
        if !u.class.is_empty() {
            row("class", u.class.join(", "));
        }
        row("formation", u.formation.clone());
        if let Some(w) = &u.weapon {
            row("weapon", w.clone());
        }
        let st = self.strength(u);
        row(
            "bases",
            format!("{} of {} ({}%)", st.left(), st.bases, st.percent()),
        );
        if !u.doctrine.is_empty() {
            row("doctrine", u.doctrine.join(", "));
        }
        if let Some(g) = &u.general {
            row("general", g.clone());
        }
        row("hits", s.hits.to_string());
        row("state", flags(&s));
        Some(rows)
    }

    fn end_turn(&self) -> String {
        let order = self.end_turn_order();
        if order.is_empty() {
            return "end of turn: no unit is at 50% or less; no resilience tests".into();
        }
        let mut out =
            String::from("end of turn: resilience tests, in this order (`resilience UNIT`):");
        for (i, (id, name)) in order.iter().enumerate() {
            out.push_str(&format!("\n  {}. {id} — {name}", i + 1));
        }
        out
    }

    fn state(&self) -> serde_json::Value {
        serde_json::to_value(Saved {
            initiative: self.initiative,
            units: &self.units,
            generals: &self.generals,
        })
        .unwrap_or_default()
    }

    /// `initiative` alone in a game of two armies: each side's pool from
    /// its generals still on the table.
    fn expand(&self, command: &Command, line: &str) -> Option<String> {
        if command.verb != "initiative" || !command.words.is_empty() || !command.clauses.is_empty()
        {
            return None;
        }
        let [(_, a), (_, b)] = self.armies.as_slice() else {
            return None;
        };
        let side = |list: &List| {
            let present: Vec<&General> = list
                .generals
                .iter()
                .filter(|g| !self.general_state(&g.id).incapacitated)
                .collect();
            let count = |ability: &str| present.iter().filter(|g| g.ability == ability).count();
            format!(
                "generals={} exceptional={} incompetent={}",
                present.len(),
                count("exceptional"),
                count("incompetent")
            )
        };
        let rolled = command.rolled_span.map_or("", |s| &line[s.start..]);
        Some(format!("initiative {} vs {} {rolled}", side(a), side(b)))
    }
}
