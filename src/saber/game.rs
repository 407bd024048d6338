//! What a game keeps of Musket & Saber units and leaders: steps lost,
//! routs; the facts they bring to a command; the roster.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::Tables;
use super::army::{Leader, List, Unit};
use crate::army::Army;
use crate::catalog::{UnitFact, UnitFacts};
use crate::resolution::{Effect, SystemEffect};
use crate::system::{GamePart, Roster};

/// What one resolution does to a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum SaberEffect {
    /// A strength step lost.
    StepLost,
    /// Routed.
    Routed,
}

impl SystemEffect for SaberEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        let u = unit.unwrap_or("the unit");
        match self {
            SaberEffect::StepLost => format!("game: {u} loses a step"),
            SaberEffect::Routed => format!("game: {u} routs"),
        }
    }
}

/// Everything the game remembers about one unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct UnitState {
    pub steps_lost: u32,
    pub routed: bool,
}

/// The Musket & Saber part of a game.
pub struct SaberGame {
    #[allow(dead_code)]
    tables: Rc<Tables>,
    armies: Vec<(usize, Rc<List>)>,
    units: BTreeMap<String, UnitState>,
}

impl SaberGame {
    pub fn new(tables: Rc<Tables>, armies: &[(usize, &Army)]) -> SaberGame {
        let armies = armies
            .iter()
            .filter_map(|(i, a)| Some((*i, Rc::new(a.list_as::<List>()?.clone()))))
            .collect();
        SaberGame {
            tables,
            armies,
            units: BTreeMap::new(),
        }
    }

    fn unit(&self, id: &str) -> Option<&Unit> {
        self.armies
            .iter()
            .find_map(|(_, l)| l.units.iter().find(|u| u.id == id))
    }

    fn leader(&self, id: &str) -> Option<&Leader> {
        self.armies
            .iter()
            .find_map(|(_, l)| l.leaders.iter().find(|u| u.id == id))
    }

    fn state(&self, id: &str) -> UnitState {
        self.units.get(id).cloned().unwrap_or_default()
    }

    fn unit_facts(unit: &Unit) -> Vec<UnitFact> {
        let mut facts = vec![
            UnitFact::number("cf", unit.cf),
            UnitFact::number("mr", unit.mr),
        ];
        if let Some(kind) = &unit.kind {
            facts.push(UnitFact::word(kind.clone()));
        }
        facts
    }

    fn leader_facts(leader: &Leader) -> Vec<UnitFact> {
        leader
            .cf
            .map(|cf| UnitFact::number("cf", cf))
            .into_iter()
            .collect()
    }
}

fn flags(s: &UnitState) -> String {
    let mut f: Vec<String> = Vec::new();
    if s.routed {
        f.push("routed".into());
    }
    if s.steps_lost > 0 {
        f.push(format!("steps lost {}", s.steps_lost));
    }
    f.join(", ")
}

impl GamePart for SaberGame {
    fn facts(&self, id: &str) -> Option<UnitFacts> {
        if let Some(u) = self.unit(id) {
            return Some(UnitFacts {
                id: u.id.clone(),
                name: u.name.clone(),
                facts: SaberGame::unit_facts(u),
                out_of_action: None,
            });
        }
        let l = self.leader(id)?;
        Some(UnitFacts {
            id: l.id.clone(),
            name: l.name.clone(),
            facts: SaberGame::leader_facts(l),
            out_of_action: None,
        })
    }

    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        self.facts(id).map(|f| f.facts).unwrap_or_default()
    }

    fn out_of_action(&self, id: &str) -> Option<String> {
        let u = self.unit(id)?;
        let s = self.state(id);
        let steps = u.steps.unwrap_or(1);
        (i64::from(s.steps_lost) >= steps).then(|| "has lost all its steps (eliminated)".into())
    }

    fn apply(&mut self, unit: Option<&str>, effect: &dyn Effect) -> Result<(), String> {
        let effect = effect
            .as_any()
            .downcast_ref::<SaberEffect>()
            .ok_or("not a Musket & Saber effect")?;
        let id = unit.ok_or("an effect on a unit names no unit")?;
        if self.unit(id).is_none() {
            return Err(format!("no Musket & Saber unit `{id}` in this game"));
        }
        let s = self.units.entry(id.to_string()).or_default();
        match effect {
            SaberEffect::StepLost => s.steps_lost = s.steps_lost.saturating_add(1),
            SaberEffect::Routed => s.routed = true,
        }
        Ok(())
    }

    fn next_turn(&mut self) {}

    fn roster(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut roster = Roster {
            header: vec!["id", "name", "cf", "mr", "steps", "state"],
            ..Roster::default()
        };
        for u in &list.units {
            let s = self.state(&u.id);
            let steps = u.steps.unwrap_or(1);
            let left = (steps - i64::from(s.steps_lost)).max(0);
            roster.rows.push(vec![
                u.id.clone(),
                u.name.clone(),
                u.cf.to_string(),
                u.mr.to_string(),
                format!("{left}/{steps}"),
                flags(&s),
            ]);
        }
        let leaders: Vec<String> = list
            .leaders
            .iter()
            .map(|l| format!("{} {}", l.id, l.name))
            .collect();
        if !leaders.is_empty() {
            roster
                .notes
                .push(format!("leaders: {}", leaders.join("; ")));
        }
        Some(roster)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        let mut rows: Vec<(String, String)> = Vec::new();
        if let Some(l) = self.leader(id) {
            for (k, v) in [("cf", l.cf), ("mr", l.mr), ("mv", l.mv), ("span", l.span)] {
                if let Some(v) = v {
                    rows.push((k.into(), v.to_string()));
                }
            }
            return Some(rows);
        }
        let u = self.unit(id)?;
        let s = self.state(id);
        if let Some(kind) = &u.kind {
            rows.push(("type".into(), kind.clone()));
        }
        rows.push(("cf".into(), u.cf.to_string()));
        rows.push(("mr".into(), u.mr.to_string()));
        rows.push((
            "ma".into(),
            u.ma.map_or("variable".into(), |m| m.to_string()),
        ));
        let steps = u.steps.unwrap_or(1);
        rows.push((
            "steps".into(),
            format!("{} of {steps}", (steps - i64::from(s.steps_lost)).max(0)),
        ));
        if let Some(f) = &u.formation {
            rows.push(("formation".into(), f.clone()));
        }
        rows.push(("state".into(), flags(&s)));
        Some(rows)
    }

    fn end_turn(&self) -> String {
        "end of turn (Musket & Saber): rally and recovery in each player's administrative phase"
            .into()
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({ "units": self.units })
    }
}
