//! What a game keeps of Musket Mayhem figures: killed or run off, hero
//! tokens spent; the facts a figure brings to a command; the roster.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::MayhemTables;
use super::army::{Figure, List};
use crate::army::Army;
use crate::catalog::{UnitFact, UnitFacts};
use crate::resolution::{Effect, SystemEffect};
use crate::system::{GamePart, Roster};

/// What one resolution does to a figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum MayhemEffect {
    /// Killed, and removed from the game.
    Killed,
    /// Ran off the board after a failed courage check.
    RanOff,
    /// A hero's save token spent.
    SaveSpent,
    /// A hero's reroll token spent.
    RerollSpent,
}

impl SystemEffect for MayhemEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        let u = unit.unwrap_or("the figure");
        match self {
            MayhemEffect::Killed => format!("game: {u} is killed"),
            MayhemEffect::RanOff => format!("game: {u} runs off the board"),
            MayhemEffect::SaveSpent => format!("game: {u} spends a save token"),
            MayhemEffect::RerollSpent => format!("game: {u} spends a reroll token"),
        }
    }
}

/// Everything the game remembers about one figure.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FigureState {
    pub killed: bool,
    pub ran_off: bool,
    pub saves_spent: u32,
    pub rerolls_spent: u32,
}

/// The Musket Mayhem part of a game.
pub struct MayhemGame {
    tables: Rc<MayhemTables>,
    armies: Vec<(usize, Rc<List>)>,
    figures: BTreeMap<String, FigureState>,
}

impl MayhemGame {
    pub fn new(tables: Rc<MayhemTables>, armies: &[(usize, &Army)]) -> MayhemGame {
        let armies = armies
            .iter()
            .filter_map(|(i, a)| Some((*i, Rc::new(a.list_as::<List>()?.clone()))))
            .collect();
        MayhemGame {
            tables,
            armies,
            figures: BTreeMap::new(),
        }
    }

    fn figure(&self, id: &str) -> Option<&Figure> {
        self.armies
            .iter()
            .find_map(|(_, l)| l.figures.iter().find(|f| f.id == id))
    }

    fn state(&self, id: &str) -> FigureState {
        self.figures.get(id).cloned().unwrap_or_default()
    }

    /// The figure's courage value: its own, or its rank's.
    fn courage(&self, figure: &Figure) -> Option<i64> {
        figure.courage.or_else(|| {
            let rank = figure.rank.as_deref()?;
            self.tables
                .courage
                .rank
                .iter()
                .find(|r| r.keyword == rank)
                .map(|r| r.value)
        })
    }

    fn figure_facts(&self, figure: &Figure, state: &FigureState) -> Vec<UnitFact> {
        let mut facts = Vec::new();
        if let Some(courage) = self.courage(figure) {
            facts.push(UnitFact::number("courage", courage));
        }
        if let Some(rank) = &figure.rank {
            facts.push(UnitFact::word(rank.clone()));
        }
        if let Some(weapon) = &figure.weapon {
            facts.push(UnitFact::word(weapon.clone()));
        }
        facts.push(UnitFact::word(figure.armament.clone()));
        for (flag, word) in [
            (figure.mounted, "mounted"),
            (figure.leader, "leader"),
            (figure.shock, "shock"),
            (figure.bayonet, "bayonet"),
        ] {
            if flag {
                facts.push(UnitFact::word(word));
            }
        }
        if figure.skill_bonus != 0 {
            facts.push(UnitFact::number("skill", figure.skill_bonus));
        }
        if figure.impact_bonus != 0 {
            facts.push(UnitFact::number("impact", figure.impact_bonus));
        }
        if figure.saves > 0 {
            facts.push(UnitFact::word("hero"));
            let left = figure.saves - i64::from(state.saves_spent);
            facts.push(UnitFact::number("saves", left.max(0)));
        }
        if figure.rerolls > 0 {
            let left = figure.rerolls - i64::from(state.rerolls_spent);
            facts.push(UnitFact::number("rerolls", left.max(0)));
        }
        facts
    }
}

fn flags(s: &FigureState) -> String {
    let mut f: Vec<String> = Vec::new();
    if s.killed {
        f.push("killed".into());
    }
    if s.ran_off {
        f.push("ran off".into());
    }
    if s.saves_spent > 0 {
        f.push(format!("saves spent {}", s.saves_spent));
    }
    if s.rerolls_spent > 0 {
        f.push(format!("rerolls spent {}", s.rerolls_spent));
    }
    f.join(", ")
}

impl GamePart for MayhemGame {
    fn facts(&self, id: &str) -> Option<UnitFacts> {
        let f = self.figure(id)?;
        Some(UnitFacts {
            id: f.id.clone(),
            name: f.name.clone(),
            facts: self.figure_facts(f, &self.state(id)),
            out_of_action: None,
        })
    }

    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        self.figure(id)
            .map(|f| self.figure_facts(f, &FigureState::default()))
            .unwrap_or_default()
    }

    fn out_of_action(&self, id: &str) -> Option<String> {
        let s = self.state(id);
        if s.killed {
            Some("was killed".into())
        } else if s.ran_off {
            Some("ran off the board".into())
        } else {
            None
        }
    }

    fn apply(&mut self, unit: Option<&str>, effect: &dyn Effect) -> Result<(), String> {
        let effect = effect
            .as_any()
            .downcast_ref::<MayhemEffect>()
            .ok_or("not a Musket Mayhem effect")?;
        let id = unit.ok_or("an effect on a figure names no figure")?;
        if self.figure(id).is_none() {
            return Err(format!("no Musket Mayhem figure `{id}` in this game"));
        }
        let s = self.figures.entry(id.to_string()).or_default();
        match effect {
            MayhemEffect::Killed => s.killed = true,
            MayhemEffect::RanOff => s.ran_off = true,
            MayhemEffect::SaveSpent => s.saves_spent = s.saves_spent.saturating_add(1),
            MayhemEffect::RerollSpent => s.rerolls_spent = s.rerolls_spent.saturating_add(1),
        }
        Ok(())
    }

    fn next_turn(&mut self) {}

    fn roster(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut roster = Roster {
            header: vec!["id", "name", "courage", "weapon", "group", "state"],
            ..Roster::default()
        };
        for f in &list.figures {
            let s = self.state(&f.id);
            let fate = if s.killed {
                "killed".to_string()
            } else if s.ran_off {
                "ran off".to_string()
            } else {
                let mut f = flags(&s);
                if f.is_empty() {
                    f = "in play".into();
                }
                f
            };
            roster.rows.push(vec![
                f.id.clone(),
                f.name.clone(),
                self.courage(f).map_or("—".into(), |c| c.to_string()),
                f.weapon.clone().unwrap_or_else(|| "—".into()),
                f.group.clone().unwrap_or_else(|| "—".into()),
                fate,
            ]);
        }
        Some(roster)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        let f = self.figure(id)?;
        let s = self.state(id);
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |k: &str, v: String| rows.push((k.to_string(), v));
        if let Some(rank) = &f.rank {
            row("rank", rank.clone());
        }
        if let Some(courage) = self.courage(f) {
            row("courage", courage.to_string());
        }
        if let Some(w) = &f.weapon {
            row("weapon", w.clone());
        }
        row("armament", f.armament.clone());
        if f.saves > 0 || f.rerolls > 0 {
            row(
                "hero tokens left",
                format!(
                    "{} save(s), {} reroll(s)",
                    (f.saves - i64::from(s.saves_spent)).max(0),
                    (f.rerolls - i64::from(s.rerolls_spent)).max(0)
                ),
            );
        }
        if let Some(g) = &f.group {
            row("group", g.clone());
        }
        row("state", flags(&s));
        Some(rows)
    }

    fn end_turn(&self) -> String {
        "end of turn (Musket Mayhem): nothing carries over; dice for initiative next turn (`initiative`)"
            .into()
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({ "figures": self.figures })
    }
}
