//! What a game keeps of Musket Mayhem figures: killed or run off, hero
//! tokens spent, the dice for the downed after the battle; the facts a
//! figure brings to a command; the roster.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::army::{Bonus, Figure, List, MELEE};
use super::{Downed, MayhemTables};
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
    /// A downed figure diced for after the battle.
    AfterBattle { outcome: Downed },
}

impl SystemEffect for MayhemEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        let u = unit.unwrap_or("the figure");
        match self {
            MayhemEffect::Killed => format!("game: {u} is killed"),
            MayhemEffect::RanOff => format!("game: {u} runs off the board"),
            MayhemEffect::SaveSpent => format!("game: {u} spends a save token"),
            MayhemEffect::RerollSpent => format!("game: {u} spends a reroll token"),
            MayhemEffect::AfterBattle { outcome } => {
                format!("game: after the battle {u} is {}", downed_word(*outcome))
            }
        }
    }
}

pub fn downed_word(d: Downed) -> &'static str {
    match d {
        Downed::Wounded => "wounded",
        Downed::Dead => "dead",
    }
}

/// The fact words a figure brings that say what became of it, for the
/// verbs that may name the fallen (`post-battle`).
pub const DOWNED: &str = "downed";
pub const RAN_OFF: &str = "ran-off";

/// The fact word of a figure that leads ("+1 if leader"): `courage` reads
/// it beside the figure's courage value as a mark, not as a rank.
pub const LEADER: &str = "leader";

/// The fact words of a hero's bonuses: `rifle-skill`, `melee-impact`.
pub fn bonus_word(what: &str, die: &str) -> String {
    format!("{what}-{die}")
}

/// Everything the game remembers about one figure.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FigureState {
    pub killed: bool,
    pub ran_off: bool,
    pub saves_spent: u32,
    pub rerolls_spent: u32,
    /// What the dice said of it after the battle, when it was downed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_battle: Option<Downed>,
}

/// The Musket Mayhem part of a game.
#[derive(Clone)]
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

    /// Whether the figure is a leader for hand-to-hand ("+1 if leader"):
    /// marked so, or a leader by rank.
    fn leads(figure: &Figure) -> bool {
        figure.leader
            || figure
                .rank
                .as_deref()
                .is_some_and(|r| matches!(r, "leader" | "exceptional-leader"))
    }

    /// The facts of a figure in a state. With `every` set, each fact the
    /// figure could bring in any state of the game.
    fn figure_facts(&self, figure: &Figure, state: &FigureState, every: bool) -> Vec<UnitFact> {
        let mut facts = Vec::new();
        if let Some(courage) = self.courage(figure) {
            facts.push(UnitFact::number("courage", courage));
        }
        if let Some(weapon) = &figure.weapon {
            facts.push(UnitFact::word(weapon.clone()));
        }
        facts.push(UnitFact::word(figure.armament.clone()));
        for (flag, word) in [
            (figure.mounted, "mounted"),
            (Self::leads(figure), LEADER),
            (figure.shock, "shock"),
            (figure.bayonet, "bayonet"),
        ] {
            if flag {
                facts.push(UnitFact::word(word));
            }
        }
        let mut bonus = |what: &str, b: Bonus| {
            for (die, n) in [("skill", b.skill), ("impact", b.impact)] {
                if n != 0 {
                    facts.push(UnitFact::number(bonus_word(what, die), n));
                }
            }
        };
        bonus(MELEE, figure.melee_bonus());
        if let Some(weapon) = &figure.weapon {
            bonus(weapon, figure.weapon_bonus);
        }
        if figure.saves > 0 {
            facts.push(UnitFact::word("hero"));
        }
        let (saves, rerolls) = tokens_left(figure, state);
        if figure.saves > 0 {
            facts.push(UnitFact::number("saves", saves));
        }
        if figure.rerolls > 0 {
            facts.push(UnitFact::number("rerolls", rerolls));
        }
        if state.killed || every {
            facts.push(UnitFact::word(DOWNED));
        }
        if state.ran_off || every {
            facts.push(UnitFact::word(RAN_OFF));
        }
        facts
    }

    fn fate(s: &FigureState) -> String {
        let mut fate = if s.killed {
            "killed".to_string()
        } else if s.ran_off {
            "ran off".to_string()
        } else {
            "in play".to_string()
        };
        if let Some(d) = s.after_battle {
            fate.push_str(&format!(" — after the battle: {}", downed_word(d)));
        }
        fate
    }
}

/// A figure's save and reroll tokens left.
fn tokens_left(figure: &Figure, state: &FigureState) -> (i64, i64) {
    (
        figure
            .saves
            .saturating_sub(i64::from(state.saves_spent))
            .max(0),
        figure
            .rerolls
            .saturating_sub(i64::from(state.rerolls_spent))
            .max(0),
    )
}

fn tokens_text(figure: &Figure, state: &FigureState) -> String {
    let (saves, rerolls) = tokens_left(figure, state);
    let mut parts = Vec::new();
    if figure.saves > 0 {
        parts.push(format!("{saves} of {} save(s)", figure.saves));
    }
    if figure.rerolls > 0 {
        parts.push(format!("{rerolls} of {} reroll(s)", figure.rerolls));
    }
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(", ")
    }
}

fn bonus_text(what: &str, b: Bonus) -> Option<String> {
    if !b.any() {
        return None;
    }
    let mut dice = Vec::new();
    if b.skill != 0 {
        dice.push(format!("skill +{}", b.skill));
    }
    if b.impact != 0 {
        dice.push(format!("impact +{}", b.impact));
    }
    Some(format!("{what}: {}", dice.join(", ")))
}

impl GamePart for MayhemGame {
    fn snapshot(&self) -> Box<dyn GamePart> {
        Box::new(self.clone())
    }

    fn facts(&self, id: &str) -> Option<UnitFacts> {
        let f = self.figure(id)?;
        Some(UnitFacts {
            id: f.id.clone(),
            name: f.name.clone(),
            facts: self.figure_facts(f, &self.state(id), false),
            out_of_action: None,
        })
    }

    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        self.figure(id)
            .map(|f| self.figure_facts(f, &FigureState::default(), true))
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
        // Tokens typed on a line win over the figure's own, so more may be
        // spent than the list gave: the count left never goes below 0.
        let s = self.figures.entry(id.to_string()).or_default();
        match effect {
            MayhemEffect::Killed => s.killed = true,
            MayhemEffect::RanOff => s.ran_off = true,
            MayhemEffect::SaveSpent => s.saves_spent = s.saves_spent.saturating_add(1),
            MayhemEffect::RerollSpent => s.rerolls_spent = s.rerolls_spent.saturating_add(1),
            MayhemEffect::AfterBattle { outcome } => s.after_battle = Some(*outcome),
        }
        Ok(())
    }

    /// Musket Mayhem keeps nothing per turn: the game's figures stay as
    /// they were (killed, run off, tokens spent).
    fn next_turn(&mut self) {}

    fn next_turn_text(&self) -> Option<String> {
        // "The rules are set up so that it is not necessary to remember any
        // "continuing results" for one turn to the next": what carries over
        // is only the figures out of the game, the heroes' tokens spent and
        // the previous turn's sequence, which a tied initiative repeats.
        let t = &self.tables.initiative;
        Some(format!(
            "no result carries over in Musket Mayhem (the situation is read from the table); \
             figures killed or run off stay out and hero tokens spent stay spent. {} {} \
             (`initiative`)",
            t.row, t.tie
        ))
    }

    fn roster(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut roster = Roster {
            header: vec![
                "id",
                "name",
                "courage",
                "weapon",
                "group",
                "tokens left",
                "fate",
            ],
            ..Roster::default()
        };
        for f in &list.figures {
            let s = self.state(&f.id);
            roster.rows.push(vec![
                f.id.clone(),
                f.name.clone(),
                self.courage(f).map_or("—".into(), |c| c.to_string()),
                f.weapon.clone().unwrap_or_else(|| "—".into()),
                f.group.clone().unwrap_or_else(|| "—".into()),
                tokens_text(f, &s),
                Self::fate(&s),
            ]);
        }
        Some(roster)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        let f = self.figure(id)?;
        let s = self.state(id);
        let t = &self.tables;
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |k: &str, v: String| rows.push((k.to_string(), v));
        if let Some(rank) = &f.rank {
            row("rank", rank.clone());
        }
        if let Some(courage) = self.courage(f) {
            row("courage", courage.to_string());
        }
        let armament = t
            .fight
            .armament
            .iter()
            .find(|a| a.keyword == f.armament)
            .map_or(f.armament.clone(), |a| {
                format!("{} ({}: {})", a.keyword, a.value, a.row)
            });
        row("armament", armament);
        let weapon = match &f.weapon {
            Some(w) => t
                .fire
                .weapon
                .iter()
                .find(|x| &x.keyword == w)
                .map_or(w.clone(), |x| format!("{w} ({}\")", x.range)),
            None => "— (no missile weapon)".into(),
        };
        row("weapon", weapon);
        let mut melee: Vec<&str> = Vec::new();
        for (flag, word) in [
            (Self::leads(f), "leader"),
            (f.shock, "shock"),
            (f.bayonet, "bayonet"),
            (f.mounted, "mounted"),
        ] {
            if flag {
                melee.push(word);
            }
        }
        row(
            "marked",
            if melee.is_empty() {
                "—".into()
            } else {
                melee.join(", ")
            },
        );
        row("tokens left", tokens_text(f, &s));
        let bonuses: Vec<String> = f
            .weapon
            .iter()
            .filter_map(|w| bonus_text(&format!("with the {w}"), f.weapon_bonus))
            .chain(bonus_text("in melee", f.melee_bonus()))
            .collect();
        row(
            "bonuses",
            if bonuses.is_empty() {
                "—".into()
            } else {
                bonuses.join("; ")
            },
        );
        row("group", f.group.clone().unwrap_or_else(|| "—".into()));
        row("fate", Self::fate(&s));
        Some(rows)
    }

    fn end_turn(&self) -> String {
        let t = &self.tables;
        format!(
            "end of turn (Musket Mayhem): no result carries over from one turn to the next — the \
             situation is read from the table. Next turn: {} {} (`initiative`). Guns with smoke \
             puffs: a trained crew of {} or more (a leader counting as {}) may remove {} \
             (`reload`).",
            t.initiative.row,
            t.initiative.tie,
            t.reload.min_crew,
            t.reload.leader_counts,
            t.reload.clear_per_turn
        )
    }

    fn state(&self) -> serde_json::Value {
        let mut figures = serde_json::Map::new();
        for (_, list) in &self.armies {
            for f in &list.figures {
                let s = self.state(&f.id);
                let (saves, rerolls) = tokens_left(f, &s);
                let mut j = serde_json::to_value(&s).unwrap_or_default();
                if let Some(map) = j.as_object_mut() {
                    map.insert("saves_left".into(), saves.into());
                    map.insert("rerolls_left".into(), rerolls.into());
                    map.insert("fate".into(), Self::fate(&s).into());
                }
                figures.insert(f.id.clone(), j);
            }
        }
        serde_json::json!({ "figures": figures })
    }
}
