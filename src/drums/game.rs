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
use crate::parse::added_word;
use crate::resolution::SystemEffect;
use crate::system::{GameState, Roster};

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
                format!("game: army {} has the initiative", army.saturating_add(1))
            }
        }
    }
}

/// Everything the game remembers about one unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitState {
    /// Every hit received in the game: bases (or figures) lost and the hits
    /// carried are worked out from it.
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

/// A general's state this turn: all of it is cleared by `next-turn`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralState {
    /// Hit by a stray round: off the table until next turn.
    pub incapacitated: bool,
    /// Swept away with a broken unit to his own long edge: still in play.
    pub swept_away: bool,
    pub moved: bool,
}

/// A unit's strength after its hits: bases at the tables' hits per base,
/// or one figure a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    /// Bases or figures at the start of the game.
    pub start: i64,
    pub lost: i64,
    pub figures: bool,
    /// Hits carried towards the next base (always 0 with figures).
    pub carried: i64,
}

impl Strength {
    pub fn of(unit: &Unit, state: &UnitState, hits_per_base: i64) -> Strength {
        let start = unit.size().max(0);
        let hits = state.hits.max(0);
        if unit.in_figures() {
            // "If using a figures, then it is each hit equals on figure removed/lost."
            return Strength {
                start,
                lost: hits.min(start),
                figures: true,
                carried: 0,
            };
        }
        // "If using bases, then for each 6 hits received then 1 base is removed."
        let per_base = hits_per_base.max(1);
        let lost = (hits / per_base).min(start);
        let carried = if lost < start { hits % per_base } else { 0 };
        Strength {
            start,
            lost,
            figures: false,
            carried,
        }
    }

    pub fn left(&self) -> i64 {
        self.start - self.lost
    }

    /// "bases" or "figures".
    pub fn what(&self) -> &'static str {
        if self.figures { "figures" } else { "bases" }
    }

    /// Percent of the starting strength still on the table, rounded down
    /// (for display; the tests below compare exactly).
    pub fn percent(&self) -> i64 {
        if self.start == 0 {
            return 100;
        }
        // Wide arithmetic: an army list may give any number of bases.
        (i128::from(self.left()) * 100 / i128::from(self.start)) as i64
    }

    /// At 50% or less of its starting strength ("Testers have lost atleast
    /// 50%", "Is <= 50% in strength", the end-of-turn tests).
    pub fn half_or_less(&self) -> bool {
        i128::from(self.left()) * 2 <= i128::from(self.start)
    }

    /// At 75% or more ("Is >= 75% in strength").
    pub fn three_quarters_or_more(&self) -> bool {
        i128::from(self.left()) * 4 >= i128::from(self.start) * 3
    }
}

/// The Drums and Muskets part of a game.
#[derive(Clone)]
pub struct DrumsGame {
    tables: Rc<Tables>,
    /// Each army's index in the game, and its list.
    armies: Vec<(usize, Rc<List>)>,
    /// Each army's side, as its list names it ("Prussia").
    sides: Vec<String>,
    units: BTreeMap<String, UnitState>,
    generals: BTreeMap<String, GeneralState>,
    /// The Drums army (0 or 1, in the order of the game's Drums armies)
    /// with the initiative this turn.
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

/// Everything the part keeps that effects and `next-turn` change, for a
/// checkpoint of the game. The units and generals are kept exactly as the
/// part has them: a unit whose entry a new turn left all cleared keeps it,
/// as the game file's `units` shows it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Checkpoint {
    initiative: Option<usize>,
    #[serde(deserialize_with = "crate::system::object_values")]
    units: BTreeMap<String, UnitState>,
    #[serde(deserialize_with = "crate::system::object_values")]
    generals: BTreeMap<String, GeneralState>,
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

/// The facts every state of the game may give a unit, beyond what it
/// always brings and its size.
const STATE_WORDS: &[&str] = &[
    "half-lost",
    "weak",
    "strong",
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
    ONE_ACTION,
    NO_SUPPLY,
];

/// Risk to Generals: "Any units from this point onwards for the rest of
/// the turn, now can only expend 1 action point" — a unit of a side that
/// lost a general this turn brings it.
const ONE_ACTION: &str = "one-action";
/// "if this is the force commander affected, he cannot longer issue any
/// supply dice for the rest of the current turn" — a unit of his side
/// brings it, and `supply` is refused beside it.
const NO_SUPPLY: &str = "no-supply";

impl DrumsGame {
    pub fn new(tables: Rc<Tables>, armies: &[(usize, &Army)]) -> DrumsGame {
        let mut lists = Vec::new();
        let mut sides = Vec::new();
        for (i, a) in armies {
            if let Some(list) = super::army::read(a) {
                lists.push((*i, Rc::new(list)));
                sides.push(a.side.clone());
            }
        }
        DrumsGame {
            tables,
            armies: lists,
            sides,
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

    pub fn strength(&self, unit: &Unit) -> Strength {
        Strength::of(unit, &self.state(&unit.id), self.hits_per_base())
    }

    /// The facts a unit brings, as it stands.
    fn unit_facts(&self, unit: &Unit) -> Vec<UnitFact> {
        let state = self.state(&unit.id);
        let mut facts = static_facts(unit);
        let strength = self.strength(unit);
        let two_rank = unit.doctrine.iter().any(|d| d == "two-rank");
        if strength.figures {
            facts.push(UnitFact::number("figures", strength.left()));
        } else {
            facts.push(UnitFact::number("bases", strength.left()));
        }
        if strength.carried > 0 {
            facts.push(UnitFact::number("carried", strength.carried));
            // Shooting Table 2a: "For each hit on the shooters | Remove 1 dice".
            if unit.arm == "artillery" {
                facts.push(UnitFact::number("hits", strength.carried));
            }
        }
        if strength.half_or_less() {
            facts.push(UnitFact::word("half-lost"));
            facts.push(UnitFact::word("weak"));
        } else if strength.three_quarters_or_more() {
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
        if let Some(side) = self.side_of(&unit.id) {
            if !self.lost_generals(side).is_empty() {
                facts.push(UnitFact::word(ONE_ACTION));
            }
            if self.commander_lost(side).is_some() {
                facts.push(UnitFact::word(NO_SUPPLY));
            }
        }
        facts
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

    /// What naming a general brings: he is a general (his arm on the
    /// movement and charge tables, and "For each general in line of
    /// command within 3BW" in a resilience test), his traits, and whether
    /// he is the force commander (read by `risk`, which takes a general
    /// whatever he brings: it has no word for being one).
    fn general_facts(general: &General) -> Vec<UnitFact> {
        let mut facts = vec![UnitFact::word(super::named::GENERAL)];
        // "+1D6 per Exceptional ability general. -1D6 per Incompetent
        // ability general" (initiative): one of his ability, counted.
        if matches!(general.ability.as_str(), "exceptional" | "incompetent") {
            facts.push(UnitFact::number(general.ability.clone(), 1));
        }
        facts.extend(general.traits.iter().cloned().map(UnitFact::word));
        if general.commander {
            facts.push(UnitFact::word("commander"));
        }
        facts
    }

    /// A Drums army's side, as its list names it.
    fn side(&self, side: usize) -> String {
        self.sides
            .get(side)
            .cloned()
            .unwrap_or_else(|| format!("army {}", side.saturating_add(1)))
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

    /// The units at 50% or less that take the end-of-turn resilience test,
    /// each side's in list order: the side without the initiative first.
    /// Returns (side index, its units) in the order the sides test.
    pub fn end_turn_queues(&self) -> Vec<(usize, Vec<&Unit>)> {
        let mut queues: Vec<(usize, Vec<&Unit>)> = self
            .armies
            .iter()
            .enumerate()
            .map(|(side, (_, list))| {
                let due = list
                    .units
                    .iter()
                    .filter(|u| self.unit_out(u).is_none() && self.strength(u).half_or_less())
                    .collect();
                (side, due)
            })
            .collect();
        // "The player without initiative goes first."
        if self.initiative == Some(0) && queues.len() == 2 {
            queues.swap(0, 1);
        }
        queues
    }

    /// The end-of-turn tests alternating between the sides, one unit at a
    /// time, as `end-turn` lists them.
    pub fn end_turn_order(&self) -> Vec<(String, String)> {
        let queues = self.end_turn_queues();
        let mut order = Vec::new();
        let longest = queues.iter().map(|(_, q)| q.len()).max().unwrap_or(0);
        for i in 0..longest {
            for (_, q) in &queues {
                if let Some(u) = q.get(i) {
                    order.push((u.id.clone(), u.name.clone()));
                }
            }
        }
        order
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

/// What a unit brings whatever the game: arm, class, formation, weapon,
/// doctrine.
fn static_facts(unit: &Unit) -> Vec<UnitFact> {
    let mut facts = Vec::new();
    // `irregular` is irregular foot to the melee tables and irregular
    // troops to the charge table: one word serves both.
    facts.push(UnitFact::word(unit.arm.clone()));
    // Heavy cavalry and lancers are kinds of cavalry: "Heavy Cavalry in
    // first melee of a charge", "Lancers in first melee of a charge" are
    // rows of the Cavalry Melee Factors Table, read beside `cavalry`
    // (charge and movement know only `cavalry`).
    if unit.arm == "cavalry" && unit.heavy {
        facts.push(UnitFact::word("heavy-cavalry"));
    }
    if unit.arm == "cavalry" && unit.lancers {
        facts.push(UnitFact::word("lancers"));
    }
    facts.extend(unit.class.iter().cloned().map(UnitFact::word));
    facts.push(UnitFact::word(unit.formation.clone()));
    // "Artillery Limbered | Column of March" (Movement, Charge Distances):
    // a limbered battery is in column of march wherever the tables have
    // rows for it ("Column of March in melee", "Are in column of march");
    // charge and move read `limbered` beside it as the sheet's unit type.
    if unit.arm == "artillery" && unit.formation == "limbered" {
        facts.push(UnitFact::word("column-of-march"));
    }
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

fn words(facts: &[UnitFact]) -> String {
    facts
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl GameState for DrumsGame {
    type Effect = DrumsEffect;

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
        let Some(u) = self.unit(id) else {
            return Vec::new();
        };
        let mut facts = static_facts(u);
        if u.in_figures() {
            facts.push(UnitFact::number("figures", u.figures));
        } else {
            facts.push(UnitFact::number("bases", u.bases));
            // Hits are carried only while they fall short of a base.
            if self.hits_per_base() > 1 {
                facts.push(UnitFact::number("carried", 1));
                if u.arm == "artillery" {
                    facts.push(UnitFact::number("hits", 1));
                }
            }
        }
        facts.extend(STATE_WORDS.iter().map(|w| UnitFact::word(*w)));
        // "Shooters have lost bases in the game but are still >=75% and do
        // not use 2 ranks firing doctrine": one lost needs four or more.
        let two_rank = u.doctrine.iter().any(|d| d == "two-rank");
        if !two_rank && u.size() >= 4 {
            facts.push(UnitFact::word("lost-bases"));
        }
        facts
    }

    fn out_of_action(&self, id: &str) -> Option<String> {
        if let Some(u) = self.unit(id) {
            return self.unit_out(u);
        }
        self.general_state(id)
            .incapacitated
            .then(|| "is off the table until the next turn (incapacitated by a stray round)".into())
    }

    fn apply(&mut self, unit: Option<&str>, effect: &DrumsEffect) -> Result<(), String> {
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
                DrumsEffect::Moved => g.moved = true,
                // The verbs refuse a general where a unit is meant, so
                // these never reach a general; one that did (a journal
                // written by hand) changes nothing rather than leave a
                // game that cannot be opened.
                _ => {}
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
            // As above: `risk` refuses a unit, and a stray one is harmless.
            DrumsEffect::Incapacitated
            | DrumsEffect::SweptAway
            | DrumsEffect::Initiative { .. } => {}
        }
        Ok(())
    }

    fn next_turn(&mut self) {
        self.initiative = None;
        for u in self.units.values_mut() {
            u.clear_turn();
        }
        // "The general is then free next move to move as per normal": an
        // incapacitated general is back, and a swept-away one has made
        // his way to his long edge.
        self.generals.clear();
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
                format!("{}/{} {}", st.left(), st.start, st.what()),
                format!("{}%", st.percent()),
                if st.figures {
                    "—".into()
                } else {
                    st.carried.to_string()
                },
                flags(&s, &st),
            ]);
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

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |k: &str, v: String| rows.push((k.to_string(), v));
        if let Some(g) = self.general(id) {
            row("general", g.ability.clone());
            if !g.traits.is_empty() {
                row("traits", g.traits.join(", "));
            }
            row(
                "force commander",
                if g.commander { "yes" } else { "no" }.into(),
            );
            let command: Vec<&str> = self
                .command_of(&g.id)
                .iter()
                .map(|u| u.id.as_str())
                .collect();
            row(
                "line of command",
                if command.is_empty() {
                    "no units".into()
                } else {
                    command.join(", ")
                },
            );
            let s = self.general_state(id);
            let mut state = Vec::new();
            if s.incapacitated {
                state.push("incapacitated by a stray round: off the table until the next turn");
            }
            if s.swept_away {
                state.push("swept away to his own long edge this turn (still in play)");
            }
            if s.moved {
                state.push("moved this turn");
            }
            if g.commander && (s.incapacitated || s.swept_away) {
                state.push("issues no supply dice for the rest of this turn");
            }
            row(
                "state",
                if state.is_empty() {
                    "on the table".into()
                } else {
                    state.join("; ")
                },
            );
            row("brings", words(&DrumsGame::general_facts(g)));
            return Some(rows);
        }
        let u = self.unit(id)?;
        let s = self.state(id);
        let mut arm = u.arm.clone();
        if u.heavy {
            arm.push_str(" (heavy)");
        }
        if u.lancers {
            arm.push_str(" (lancers)");
        }
        row("arm", arm);
        if !u.class.is_empty() {
            row("class", u.class.join(", "));
        }
        let formation = if u.arm == "artillery" && u.formation == "limbered" {
            "limbered (Column of March)".to_string()
        } else {
            u.formation.clone()
        };
        row("formation", formation);
        if let Some(w) = &u.weapon {
            row("weapon", w.clone());
        }
        if !u.doctrine.is_empty() {
            row("doctrine", u.doctrine.join(", "));
        }
        if let Some(g) = &u.general {
            let name = self
                .general(g)
                .map_or(String::new(), |g| format!(" — {}", g.name));
            row("general", format!("{g}{name}"));
        }
        let st = self.strength(u);
        row(
            st.what(),
            format!("{} of {} ({}%)", st.left(), st.start, st.percent()),
        );
        row("hits received", s.hits.to_string());
        if st.figures {
            row("hits carried", "none: each hit removes a figure".into());
        } else {
            row(
                "hits carried",
                format!(
                    "{} (a base is removed at {})",
                    st.carried,
                    self.hits_per_base()
                ),
            );
        }
        row("shots fired", s.shots.to_string());
        row("melee rounds", s.melees.to_string());
        row("charges", s.charges.to_string());
        let mut turn = Vec::new();
        for (on, word) in [
            (s.moved, "moved"),
            (s.hit, "hit"),
            (s.inflicted, "inflicted hits"),
            (s.retired, "forced to retire"),
            (s.fired_at, "fired at"),
        ] {
            if on {
                turn.push(word);
            }
        }
        let side = self.side_of(id);
        let lost = side.map(|s| self.lost_generals(s)).unwrap_or_default();
        if !lost.is_empty() {
            turn.push("only 1 action point (risk to generals)");
        }
        if side.and_then(|s| self.commander_lost(s)).is_some() {
            turn.push("no supply dice (the force commander was lost)");
        }
        row(
            "this turn",
            if turn.is_empty() {
                "—".into()
            } else {
                turn.join(", ")
            },
        );
        let state = match self.unit_out(u) {
            Some(why) => format!("{why}: cannot act"),
            None if st.half_or_less() => {
                "at 50% or less: takes the end-of-turn resilience test".into()
            }
            None => "can act".into(),
        };
        row("state", state);
        row("brings", words(&self.unit_facts(u)));
        Some(rows)
    }

    fn end_turn(&self) -> String {
        end_turn_text(self)
    }

    fn state(&self) -> serde_json::Value {
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
            units: &self.units,
            generals: &self.generals,
            roster,
        })
        .unwrap_or_default()
    }

    fn checkpoint(&self) -> Option<serde_json::Value> {
        serde_json::to_value(Checkpoint {
            initiative: self.initiative,
            units: self.units.clone(),
            generals: self.generals.clone(),
        })
        .ok()
    }

    /// Every unit and general the checkpoint names must be one of this
    /// part's armies: the part is left as it was when one is not.
    fn restore(&mut self, saved: &serde_json::Value) -> Result<(), String> {
        let saved = crate::system::from_object::<Checkpoint>(saved)
            .map_err(|e| format!("the Drums and Muskets checkpoint cannot be read: {e}"))?;
        if let Some(id) = saved.units.keys().find(|id| self.unit(id).is_none()) {
            return Err(format!(
                "the Drums and Muskets checkpoint names unit `{id}` that no army of this game has"
            ));
        }
        if let Some(id) = saved.generals.keys().find(|id| self.general(id).is_none()) {
            return Err(format!(
                "the Drums and Muskets checkpoint names general `{id}` that no army of this game has"
            ));
        }
        self.initiative = saved.initiative;
        self.units = saved.units;
        self.generals = saved.generals;
        Ok(())
    }

    /// `initiative` in a game of two armies: alone (or with `supply` on a
    /// side: `initiative supply vs supply`), each side's pool from its
    /// generals still on the table. Side a is the first army, side b the
    /// second (as the initiative is recorded). A side whose force commander
    /// was lost this turn gets `no-supply` beside its `supply`, which the
    /// verb refuses.
    fn expand(&self, command: &Command, _line: &str) -> Option<Command> {
        if command.verb != "initiative" {
            return None;
        }
        let [(_, a), (_, b)] = self.armies.as_slice() else {
            return None;
        };
        let vs = match command.clauses.as_slice() {
            [] => None,
            [c] if c.kind == crate::command::ClauseKind::Vs => Some(c),
            _ => return None,
        };
        let sides = [
            command.words.as_slice(),
            vs.map_or(&[][..], |c| c.words.as_slice()),
        ];
        let is_supply = |w: &crate::command::Word| matches!(&w.kind, crate::command::WordKind::Keyword { name, value: None } if name == "supply");
        // The refusal: `no-supply` right after the side's own words, so
        // that every word before it stands where it was typed.
        for (side, words) in sides.iter().enumerate() {
            if self.commander_lost(side).is_some()
                && words.iter().any(is_supply)
                && let Some(last) = words.last()
            {
                return Some(with_word(command, side, "no-supply", last.span));
            }
        }
        if !sides.iter().all(|words| words.iter().all(is_supply)) {
            return self.what_if(command, &sides);
        }
        let at = command.verb_span;
        let side = |list: &List, words: &[crate::command::Word]| {
            // "1D6 per general remaining on the board": an incapacitated
            // general is off it until the next turn; one swept away to his
            // long edge is still on it.
            let present: Vec<&General> = list
                .generals
                .iter()
                .filter(|g| !self.general_state(&g.id).incapacitated)
                .collect();
            let count = |ability: &str| present.iter().filter(|g| g.ability == ability).count();
            let mut pool = vec![
                added_word(format!("generals={}", present.len()), at),
                added_word(format!("exceptional={}", count("exceptional")), at),
                added_word(format!("incompetent={}", count("incompetent")), at),
            ];
            if !words.is_empty() {
                pool.push(added_word("supply", at));
            }
            pool
        };
        let vs_span = vs.map_or(at, |c| c.span);
        Some(Command {
            words: side(a, sides[0]),
            clauses: vec![crate::command::Clause {
                kind: crate::command::ClauseKind::Vs,
                span: vs_span,
                words: side(b, sides[1]),
            }],
            ..command.clone()
        })
    }
}

impl DrumsGame {
    /// An initiative line with pools of its own: marked `what-if`, so that
    /// it is not recorded as the game's initiative (nor orders the
    /// end-of-turn tests), unless it names each army's generals on the
    /// board, all of them, the first army's before `vs`.
    fn what_if(&self, command: &Command, sides: &[&[crate::command::Word]; 2]) -> Option<Command> {
        let marked = sides
            .iter()
            .flat_map(|w| w.iter())
            .any(|w| w.keyword() == Some(WHAT_IF));
        if marked {
            return None;
        }
        let own = self.armies.iter().zip(sides).all(|((_, list), words)| {
            let mut named: Vec<&str> = words
                .iter()
                .filter_map(|w| w.keyword())
                .filter(|k| *k != "supply")
                .collect();
            let mut present: Vec<&str> = list
                .generals
                .iter()
                .filter(|g| !self.general_state(&g.id).incapacitated)
                .map(|g| g.id.as_str())
                .collect();
            named.sort_unstable();
            present.sort_unstable();
            !present.is_empty() && named == present
        });
        if own {
            return None;
        }
        let at = sides[0].last().map_or(command.verb_span, |w| w.span);
        Some(with_word(command, 0, WHAT_IF, at))
    }
}

/// The command with one word added at the end of a side's words (0: the
/// acting side, 1: its `vs` clause), shown at `span`.
fn with_word(command: &Command, side: usize, text: &str, span: crate::command::Span) -> Command {
    let mut command = command.clone();
    let word = added_word(text, span);
    match side.checked_sub(1) {
        None => command.words.push(word),
        Some(i) => {
            if let Some(clause) = command.clauses.get_mut(i) {
                clause.words.push(word);
            }
        }
    }
    command
}

/// What `end-turn` says: the End of Turn Resilience Tests ("At the end of
/// every turn, players complete resilience tests on any units that are at
/// 50% or lower in strength than when they started the game. This is done
/// alternatively by units in any order the player prefers. The player
/// without initiative goes first.").
fn end_turn_text(game: &DrumsGame) -> String {
    let mut out = tests_text(game);
    for side in 0..game.armies.len() {
        if let Some(text) = game.risk_aftermath(side) {
            out.push_str(&format!("\n{}. `next-turn` ends it.", capitalised(&text)));
        }
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// The end-of-turn resilience tests due.
fn tests_text(game: &DrumsGame) -> String {
    let queues = game.end_turn_queues();
    let due: usize = queues.iter().map(|(_, q)| q.len()).sum();
    if due == 0 {
        return "end of turn: no unit is at 50% or less of its starting strength; \
                no resilience tests"
            .into();
    }
    let mut out = String::from(
        "end of turn: resilience tests for every unit at 50% or less of its starting strength \
         (`resilience UNIT`, all other cases).",
    );
    if queues.len() == 2 {
        let first = game.side(queues[0].0);
        match game.initiative {
            Some(with) => out.push_str(&format!(
                "\nThe player without the initiative goes first: {first} ({} has the initiative).",
                game.side(with)
            )),
            None => out.push_str(&format!(
                "\nThe player without the initiative goes first: no initiative is recorded this \
                 turn (`initiative`), so {first} is listed first."
            )),
        }
        for (side, q) in &queues {
            if q.is_empty() {
                out.push_str(&format!("\n{} has no unit to test.", game.side(*side)));
            }
        }
    }
    out.push_str(
        "\nPlayers alternate one unit at a time, each in any order he prefers; apply each result \
         immediately and check the victory conditions after each test.",
    );
    let mut n = 0;
    let longest = queues.iter().map(|(_, q)| q.len()).max().unwrap_or(0);
    for i in 0..longest {
        for (side, q) in &queues {
            let Some(u) = q.get(i) else { continue };
            n += 1;
            let st = game.strength(u);
            out.push_str(&format!(
                "\n  {n}. {} — {} ({}: {} of {} {}, {}%)",
                u.id,
                u.name,
                game.side(*side),
                st.left(),
                st.start,
                st.what(),
                st.percent()
            ));
        }
    }
    out
}

/// A dice-off that is not the game's own: typed counts, or generals named
/// otherwise than all of each army's on the board. A game marks it, so
/// that only the game's own initiative is recorded and orders the
/// end-of-turn tests.
pub const WHAT_IF: &str = "what-if";
