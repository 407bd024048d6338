//! What a game keeps of Musket & Saber units and leaders: steps lost,
//! disruption, ineffectiveness, routs, eliminations and leader casualties;
//! the facts they bring to a command; the roster, `show` and the end of a
//! turn.
//!
//! The state changes only by the typed effects of resolutions
//! ([`SaberEffect`]); what a result leaves to the owning player's choice is
//! never recorded by the result itself, but by `choose` once he has made it.

mod campaign;
mod state;

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::army::{Base, Leader, List, Unit, UnitType};
use super::{QUICKPLAY, SABER, Tables, Variant};
use crate::answer::resolution::SystemEffect;
use crate::army::Army;
use crate::catalog::{UnitFact, UnitFacts};
use crate::command::System;
use crate::system::{GameView, Roster};

pub(crate) use campaign::{CAMPAIGN_SECTIONS, CampaignTable};
pub(crate) use state::SaberState;
pub(crate) use state::{LeaderState, UnitState};

/// What one resolution does to a unit or leader. Each falls on one named
/// unit; what it means for that unit depends on its type (a retreat flips
/// artillery, cavalry, battalions, squadrons and leaders to their
/// ineffective sides and does nothing lasting to an infantry brigade).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum SaberEffect {
    /// A strength step lost (standard 7.11, QuickPlay 7.7): the last one
    /// eliminates the unit.
    StepLost,
    /// Routed (standard 7.10, QuickPlay 7.8): it ends its rout disrupted,
    /// and a rout is a retreat.
    Routed,
    /// Disrupted (standard 11.1, QuickPlay 11.1); no further effect if it
    /// already is. Leaders are not disrupted.
    Disrupted,
    /// Forced to retreat (standard 7.8, 7.9; QuickPlay 8.1, 9.1, 10.0).
    Retreated,
    /// Retreated by the disengage tactic: not flipped (standard 7.13 4).
    Disengaged,
    /// Flipped to its ineffective side (an Ammo result, the end of a
    /// cavalry charge).
    Ineffective,
    /// A leader becomes a casualty: out of the game for good (10.4).
    LeaderCasualty,
    /// Recovered from disruption and/or ineffectiveness (11.1, 11.3).
    Recovered {
        #[serde(default)]
        disruption: bool,
        #[serde(default)]
        effectiveness: bool,
    },
    /// A step recovered (standard 11.2, QuickPlay 11.2).
    StepRecovered,
    /// An eliminated unit failed its step recovery check: destroyed, no
    /// longer eligible to return (standard 11.2).
    Destroyed,
    /// Captured by victorious charging cavalry (standard 9.3 7): out of
    /// the game, and gone from a campaign.
    Captured,
    /// It attacked: "A unit may attack only once per combat phase"
    /// (standard 7.5, QuickPlay 7.3), until the next turn.
    Attacked,
    /// Victorious charging cavalry that may charge again (standard 9.3 6,
    /// QuickPlay 9.2 5): its charge ends, and it becomes ineffective, when
    /// it does anything else or at the end of the combat phase.
    Charging,
    /// The defender made a last stand and this attacker may yet choose
    /// not to retreat (standard 7.13 5): if it does not, `defender` loses
    /// a step in addition.
    LastStandOwed { defender: String },
    /// The attacker chose not to retreat from a last stand (7.13 5): the
    /// defender it owes loses one step.
    LastStandKept,
}

impl SaberEffect {
    /// What this effect on a side does to a leader on it: he retreats
    /// with his stack (and so is flipped) when it routs; disruption and
    /// steps are for combat units.
    pub(crate) fn for_leader(&self) -> Option<SaberEffect> {
        match self {
            SaberEffect::Routed => Some(SaberEffect::Retreated),
            SaberEffect::Disrupted | SaberEffect::StepLost => None,
            other => Some(other.clone()),
        }
    }
}

impl SystemEffect for SaberEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        let u = unit.unwrap_or("the unit");
        match self {
            SaberEffect::StepLost => format!("game: {u} loses a step"),
            SaberEffect::Routed => format!("game: {u} routs (and is disrupted)"),
            SaberEffect::Disrupted => format!("game: {u} is disrupted"),
            SaberEffect::Retreated => format!("game: {u} retreats"),
            SaberEffect::Disengaged => {
                format!("game: {u} retreats, disengaging (not flipped)")
            }
            SaberEffect::Ineffective => format!("game: {u} is ineffective"),
            SaberEffect::LeaderCasualty => format!("game: {u} becomes a casualty"),
            SaberEffect::Recovered {
                disruption,
                effectiveness,
            } => match (disruption, effectiveness) {
                (true, true) => format!("game: {u} recovers from disruption and ineffectiveness"),
                (true, false) => format!("game: {u} recovers from disruption"),
                (false, true) => format!("game: {u} recovers effectiveness"),
                (false, false) => format!("game: {u} recovers nothing"),
            },
            SaberEffect::StepRecovered => format!("game: {u} recovers a step"),
            SaberEffect::Destroyed => format!("game: {u} is destroyed"),
            SaberEffect::Captured => format!("game: {u} is captured (9.3 7)"),
            SaberEffect::Attacked => {
                format!("game: {u} has attacked this combat phase (7.5)")
            }
            SaberEffect::Charging => format!(
                "game: {u} may charge again; its charge ends and it becomes ineffective (standard 9.3 8, QuickPlay 9.2 6) when it does anything else, or at the end of the combat phase (`next-turn`)"
            ),
            SaberEffect::LastStandOwed { defender } => format!(
                "game: if {u} does not retreat, {defender} loses one step for its last stand (7.13 5): say which with `choose {u} …`"
            ),
            SaberEffect::LastStandKept => format!(
                "game: {u} did not retreat from a last stand: the defender loses one step in addition (7.13 5)"
            ),
        }
    }
}

/// One army of the part: its index in the game, its book, its list.
#[derive(Clone)]
pub(super) struct ArmyPart {
    pub(super) index: usize,
    pub(super) book: System,
    pub(super) list: Rc<List>,
}

/// What the Musket & Saber state of a game is read against: the tables,
/// and the game's Musket & Saber armies.
pub(crate) struct SaberContext {
    pub(super) armies: Vec<ArmyPart>,
    tables: Rc<Tables>,
}

impl SaberContext {
    pub(crate) fn new(tables: Rc<Tables>, armies: &[(usize, &Army)]) -> SaberContext {
        let armies: Vec<ArmyPart> = armies
            .iter()
            .filter_map(|(i, a)| {
                Some(ArmyPart {
                    index: *i,
                    book: a.rules,
                    list: super::army::read(a)?,
                })
            })
            .collect();
        SaberContext { armies, tables }
    }

    pub(super) fn unit(&self, id: &str) -> Option<(&Unit, Variant)> {
        self.armies.iter().find_map(|a| {
            a.list
                .units
                .iter()
                .find(|u| u.id == id)
                .map(|u| (u, Variant::of(a.book)))
        })
    }

    pub(super) fn leader(&self, id: &str) -> Option<&Leader> {
        self.armies
            .iter()
            .find_map(|a| a.list.leaders.iter().find(|l| l.id == id))
    }
}

/// The Musket & Saber part of a game as it stands: its state read against
/// its tables and lists.
#[derive(Clone, Copy)]
pub(crate) struct SaberGame<'a> {
    pub(super) context: &'a SaberContext,
    pub(super) armies: &'a [ArmyPart],
    units: &'a BTreeMap<String, UnitState>,
    leaders: &'a BTreeMap<String, LeaderState>,
    /// The charges the last `next-turn` ended, for its answer.
    ended_charges: &'a [String],
    tables: &'a Tables,
}

impl<'a> SaberGame<'a> {
    /// The state read against its context.
    pub(crate) fn of(context: &'a SaberContext, state: &'a SaberState) -> SaberGame<'a> {
        SaberGame {
            context,
            armies: &context.armies,
            units: &state.units,
            leaders: &state.leaders,
            ended_charges: &state.ended_charges,
            tables: &context.tables,
        }
    }

    pub(super) fn unit(&self, id: &str) -> Option<(&'a Unit, Variant)> {
        self.context.unit(id)
    }

    pub(super) fn leader(&self, id: &str) -> Option<&'a Leader> {
        self.context.leader(id)
    }

    /// An HQ or trains counter, and which (12.1, 12.2).
    pub(super) fn base(&self, id: &str) -> Option<(&Base, &'static str)> {
        self.armies.iter().find_map(|a| {
            a.list
                .hq
                .iter()
                .find(|b| b.id == id)
                .map(|b| (b, "hq"))
                .or_else(|| {
                    a.list
                        .trains
                        .iter()
                        .find(|b| b.id == id)
                        .map(|b| (b, "trains"))
                })
        })
    }

    pub(super) fn unit_state(&self, id: &str) -> UnitState {
        self.units.get(id).cloned().unwrap_or_default()
    }

    pub(super) fn leader_state(&self, id: &str) -> LeaderState {
        self.leaders.get(id).cloned().unwrap_or_default()
    }

    /// The words a unit brings, as it stands: its factors, its type, its
    /// state. `all` gives every word it could bring in any state.
    fn unit_facts(unit: &Unit, variant: Variant, s: &UnitState, all: bool) -> Vec<UnitFact> {
        let kind = unit.unit_type();
        // 2.5: a brigade that has lost a step shows its reduced side.
        let face = unit.face(s.steps_lost > 0 && !eliminated(unit, s));
        let mut facts = vec![UnitFact::number("cf", face.cf)];
        // Standard 8.1: artillery has no MR on its counter; the word
        // `artillery` says where its MR comes from, and a printed MR beside
        // it would be a second source.
        if !(kind == UnitType::Artillery && variant == Variant::Standard) {
            facts.push(UnitFact::number("mr", face.mr));
        }
        facts.push(UnitFact::word(kind.word()));
        // Coordination (7.14) reads it.
        match unit.formation.as_deref() {
            Some("A") => facts.push(UnitFact::word(super::words::ALL_FORMATIONS)),
            Some(code) => {
                if let Ok(n) = code.parse() {
                    facts.push(UnitFact::number(super::words::FORMATION, n));
                }
            }
            None => {}
        }
        // Their own place in a combat stack (7.4, 7.13 3, 9.3 1).
        match kind {
            UnitType::Battalion => facts.push(UnitFact::word(super::words::BATTALION)),
            UnitType::Squadron => facts.push(UnitFact::word(super::words::SQUADRON)),
            _ => {}
        }
        match face.ma {
            Some(ma) => facts.push(UnitFact::number("ma", ma)),
            None => facts.push(UnitFact::word("v")),
        }
        // The rest of what the counter prints, for the verbs that pick
        // one factor or another by the situation (a charge, a skirmish,
        // artillery defending) and for the words a list contradicts; no
        // verb's vocabulary has these words, so none is bound as typed.
        facts.extend(Self::printed_facts(unit, face));
        if all || s.disrupted {
            facts.push(UnitFact::word("disrupted"));
        }
        if kind.may_be_ineffective() && (all || s.ineffective) {
            facts.push(UnitFact::word("ineffective"));
        }
        // A one-step brigade (the red band, 2.5): whether a second step is
        // present to be lost (7.11); every other type has one step by type.
        if kind == UnitType::Infantry && unit.steps() == 1 {
            facts.push(UnitFact::word(ONE_STEP));
        }
        if unit.steps() > 1 && (all || (s.steps_lost > 0 && !eliminated(unit, s))) {
            facts.push(UnitFact::word("reduced"));
        }
        if all || eliminated(unit, s) {
            facts.push(UnitFact::word("eliminated"));
        }
        if (all && variant == Variant::Standard) || s.destroyed {
            facts.push(UnitFact::word("destroyed"));
        }
        if all || s.attacked {
            facts.push(UnitFact::word(ATTACKED));
        }
        if (all && kind.word() == "cavalry") || s.charging {
            facts.push(UnitFact::word(CHARGING));
        }
        if all || s.last_stand_owed.is_some() {
            facts.push(UnitFact::word(LAST_STAND_OWED));
        }
        facts
    }

    /// The printed factors beyond CF, MR and MA, as facts (see
    /// [`super::words::printed`] for the words).
    fn printed_facts(unit: &Unit, face: super::army::Face) -> Vec<UnitFact> {
        use super::words::printed;
        let mut facts = Vec::new();
        if face.cf_parenthesized {
            facts.push(UnitFact::word(printed::PARENTHESIZED));
        }
        if face.ma_bracketed {
            facts.push(UnitFact::word(printed::BRACKETED));
        }
        if let Some(c) = unit.charge {
            facts.push(UnitFact::number(printed::CHARGE, c));
        }
        if unit.unit_type() == UnitType::Artillery {
            facts.push(UnitFact::number(printed::DEFENCE, unit.defence()));
        }
        if let Some(r) = unit.range {
            facts.push(UnitFact::number(printed::RANGE, r));
        }
        facts
    }

    /// A leader brings his factors as the leader's words (`leader-mr`, read
    /// by `morale` as its `leader`; `leader-cf`; `leader-mv`, read by `ma`
    /// as its `leader`) — never as a unit's CF or MR.
    fn leader_facts(leader: &Leader, s: &LeaderState, all: bool) -> Vec<UnitFact> {
        let mut facts = Vec::new();
        if let Some(mr) = leader.mr {
            facts.push(UnitFact::number("leader-mr", mr));
        }
        if let Some(cf) = leader.cf {
            facts.push(UnitFact::number("leader-cf", cf));
        }
        if let Some(mv) = leader.mv {
            facts.push(UnitFact::number("leader-mv", mv));
        }
        if all || s.ineffective {
            facts.push(UnitFact::word("ineffective"));
        }
        if all || s.casualty {
            facts.push(UnitFact::word("casualty"));
        }
        facts
    }

    fn facts_of(&self, id: &str, all: bool) -> Option<UnitFacts> {
        if let Some((u, variant)) = self.unit(id) {
            return Some(UnitFacts {
                id: u.id.clone(),
                name: u.name.clone(),
                facts: SaberGame::unit_facts(u, variant, &self.unit_state(id), all),
                out_of_action: None,
            });
        }
        if let Some((b, which)) = self.base(id) {
            // 12.1, 12.2: no combat factor, no morale: what it is, and the
            // MA it moves by.
            let mut facts = vec![UnitFact::word(which)];
            if let Some(ma) = b.ma {
                facts.push(UnitFact::number("ma", ma));
            }
            return Some(UnitFacts {
                id: b.id.clone(),
                name: b.name.clone(),
                facts,
                out_of_action: None,
            });
        }
        let l = self.leader(id)?;
        let mut facts = SaberGame::leader_facts(l, &self.leader_state(id), all);
        // QuickPlay 10.0: his factors go to a unit of his formation.
        let quickplay = self
            .armies
            .iter()
            .find(|a| a.list.leaders.iter().any(|x| x.id == id))
            .is_some_and(|a| Variant::of(a.book) == Variant::QuickPlay);
        match l.formation.as_deref().filter(|_| quickplay) {
            Some("A") => facts.push(UnitFact::word(super::words::LEADER_ALL_FORMATIONS)),
            Some(code) => {
                if let Ok(n) = code.parse() {
                    facts.push(UnitFact::number(super::words::LEADER_FORMATION, n));
                }
            }
            None => {}
        }
        Some(UnitFacts {
            id: l.id.clone(),
            name: l.name.clone(),
            facts,
            out_of_action: None,
        })
    }

    /// The books of this part's armies, each once.
    fn books(&self) -> Vec<System> {
        let mut books: Vec<System> = Vec::new();
        for a in self.armies {
            if !books.contains(&a.book) {
                books.push(a.book);
            }
        }
        books
    }

    /// The units that may try to recover in their next movement phase.
    fn recovering(&self) -> Vec<String> {
        let mut out = Vec::new();
        for a in self.armies {
            for u in &a.list.units {
                let s = self.unit_state(&u.id);
                if eliminated(u, &s) {
                    continue;
                }
                let mut what = Vec::new();
                if s.disrupted {
                    what.push("disrupted");
                }
                if s.ineffective {
                    what.push("ineffective");
                }
                if !what.is_empty() {
                    out.push(format!("{} ({})", u.id, what.join(", ")));
                }
            }
            for l in &a.list.leaders {
                let s = self.leader_state(&l.id);
                if s.ineffective && !s.casualty {
                    out.push(format!("{} (ineffective)", l.id));
                }
            }
        }
        out
    }
}

pub(crate) use super::words::{ATTACKED, CHARGING, LAST_STAND_OWED, ONE_STEP};

pub(super) fn eliminated(unit: &Unit, s: &UnitState) -> bool {
    s.steps_lost >= unit.steps()
}

pub(super) fn steps_left(unit: &Unit, s: &UnitState) -> u32 {
    unit.steps().saturating_sub(s.steps_lost)
}

impl GameView for SaberGame<'_> {
    fn facts(&self, id: &str) -> Option<UnitFacts> {
        self.facts_of(id, false)
    }

    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        self.facts_of(id, true).map(|f| f.facts).unwrap_or_default()
    }

    fn out_of_action(&self, id: &str) -> Option<String> {
        if let Some((u, _)) = self.unit(id) {
            let s = self.unit_state(id);
            if s.captured {
                return Some("is captured: out of the game (9.3 7)".into());
            }
            if s.destroyed {
                return Some(
                    "is destroyed: it failed its step recovery check and may not return to play (11.2)"
                        .into(),
                );
            }
            return eliminated(u, &s).then(|| {
                let steps = if u.steps() == 1 {
                    "its only step".to_string()
                } else {
                    format!("all its {} steps", u.steps())
                };
                format!("is eliminated: it has lost {steps} (standard 7.11, QuickPlay 7.7)")
            });
        }
        if self.base(id).is_some() {
            return None;
        }
        self.leader(id)?;
        let s = self.leader_state(id);
        if s.casualty {
            Some("is a casualty: casualties are out of the game for good (10.4)".into())
        } else if s.ineffective {
            Some(
                "is ineffective: ineffective leaders have no game effects until they recover (standard 10.2, QuickPlay 11.3; `recover ID`)"
                    .into(),
            )
        } else {
            None
        }
    }

    fn next_turn_text(&self) -> Option<String> {
        let mut text = "a new combat phase: every unit may attack once again (7.5)".to_string();
        if !self.ended_charges.is_empty() {
            text.push_str(&format!(
                "; the charge of {} ended with the combat phase: ineffective (standard 9.3 8, QuickPlay 9.2 6)",
                self.ended_charges.join(", ")
            ));
        }
        Some(text)
    }

    fn roster(&self, army: usize) -> Option<Roster> {
        self.roster_of(army)
    }

    fn printed(&self, army: usize) -> Option<crate::system::PrintedArmy> {
        self.printed_of(army)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        self.card(id)
    }

    fn end_turn(&self) -> String {
        let mut lines = Vec::new();
        for book in self.books() {
            lines.push(if book == QUICKPLAY {
                "end of turn (Musket & Saber QuickPlay, 3.3): in the Turn Marker Phase, if the last turn has been completed, determine the winner (3.4); otherwise advance the turn marker and play another turn, starting with the First Player's movement phase. Nothing happens to the units: a disrupted unit (or ineffective artillery, cavalry or leader) may recover at the end of one of its own later movement phases — automatically if it was eligible for march movement, otherwise with a morale check if not in an EZOC (11.1, 11.3: `recover ID`). Units stacked more than three to a hex at the end of a movement or combat phase are disrupted (5.0)."
            } else if book == SABER {
                "end of turn (Musket & Saber, 3.2): in the Game Turn Marker Phase, if the last game turn has been completed, determine the winner (18.0 of the exclusive rules); otherwise advance the Game Turn Marker and return to the beginning of the sequence: the first player's movement phase. Nothing happens to the units: in each player's movement phase, instead of moving, an eligible unit may try to recover from disruption (a morale check, 11.1) or recover its effectiveness (automatic, 11.3) — `recover ID` — and eliminated units may try to recover a step (11.2)."
            } else {
                continue;
            }
            .to_string());
        }
        let recovering = self.recovering();
        if !recovering.is_empty() {
            lines.push(format!(
                "may try to recover in their next movement phase: {}",
                recovering.join(", ")
            ));
        }
        lines.join("\n")
    }

    fn state(&self) -> Option<serde_json::Value> {
        let mut units = serde_json::Map::new();
        let mut leaders = serde_json::Map::new();
        for a in self.armies {
            for u in &a.list.units {
                let s = self.unit_state(&u.id);
                let mut unit = serde_json::json!({
                    "steps": u.steps(),
                    "steps_lost": s.steps_lost,
                    "steps_left": steps_left(u, &s),
                    "disrupted": s.disrupted,
                    "ineffective": s.ineffective,
                    "routed": s.routed,
                    "eliminated": eliminated(u, &s),
                    "destroyed": s.destroyed,
                });
                // Only when true: the state a journal's entries recorded
                // before a capture was in the game stays as it was.
                if s.captured {
                    unit["captured"] = serde_json::Value::Bool(true);
                }
                units.insert(u.id.clone(), unit);
            }
            for l in &a.list.leaders {
                let s = self.leader_state(&l.id);
                leaders.insert(
                    l.id.clone(),
                    serde_json::json!({
                        "ineffective": s.ineffective,
                        "casualty": s.casualty,
                    }),
                );
            }
        }
        Some(serde_json::json!({ "units": units, "leaders": leaders }))
    }
}
