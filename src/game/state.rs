//! Per-unit state of a game, and the effects resolutions have on it.
//! The state is a fold of effects over the journal: that is what makes
//! `undo` and `replay` exact.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// What one resolution did to the named units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum Effect {
    /// Hits received (and, with bases, bases lost at the tables' rate).
    Hits {
        unit: String,
        hits: i64,
    },
    /// Inflicted hits this turn.
    Inflicted {
        unit: String,
    },
    /// Shot (first shot spent, one more shot fired this game).
    Shot {
        unit: String,
    },
    /// Fired at this turn and received at least one hit.
    FiredAt {
        unit: String,
    },
    /// Fought a melee round (first melee spent).
    Melee {
        unit: String,
    },
    Charged {
        unit: String,
    },
    Moved {
        unit: String,
    },
    /// Forced to retire this turn.
    Retired {
        unit: String,
    },
    Broken {
        unit: String,
    },
    /// A general removed from play (incapacitated).
    GeneralRemoved {
        general: String,
    },
    /// Musket Mayhem: a figure killed or run off the board.
    Killed {
        unit: String,
    },
    RanOff {
        unit: String,
    },
    /// A hero token spent.
    SaveSpent {
        unit: String,
    },
    /// A hero's reroll token spent.
    RerollSpent {
        unit: String,
    },
    /// Musket & Saber: a step lost.
    StepLost {
        unit: String,
    },
    /// Musket & Saber: routed.
    Routed {
        unit: String,
    },
    /// The army (by index in the game) that has the initiative this turn.
    Initiative {
        army: usize,
    },
    /// Per-turn facts cleared, the turn advanced.
    NextTurn,
}

/// Everything the game remembers about one unit or figure.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UnitState {
    pub hits: i64,
    pub shots: u32,
    pub melees: u32,
    pub charges: u32,
    pub broken: bool,
    pub killed: bool,
    pub ran_off: bool,
    pub saves_spent: u32,
    pub rerolls_spent: u32,
    pub steps_lost: u32,
    pub routed: bool,
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

/// The state of the whole game: serialised into the game file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub turn: u32,
    pub initiative: Option<usize>,
    pub units: BTreeMap<String, UnitState>,
    pub generals_removed: BTreeSet<String>,
}

impl Default for State {
    fn default() -> State {
        State {
            turn: 1,
            initiative: None,
            units: BTreeMap::new(),
            generals_removed: BTreeSet::new(),
        }
    }
}

impl State {
    pub fn unit(&self, id: &str) -> UnitState {
        self.units.get(id).cloned().unwrap_or_default()
    }

    fn unit_mut(&mut self, id: &str) -> &mut UnitState {
        self.units.entry(id.to_string()).or_default()
    }

    pub fn apply(&mut self, effect: &Effect) {
        match effect {
            Effect::Hits { unit, hits } => {
                let u = self.unit_mut(unit);
                u.hits += hits;
                if *hits > 0 {
                    u.hit = true;
                }
            }
            Effect::Inflicted { unit } => self.unit_mut(unit).inflicted = true,
            Effect::Shot { unit } => self.unit_mut(unit).shots += 1,
            Effect::FiredAt { unit } => self.unit_mut(unit).fired_at = true,
            Effect::Melee { unit } => self.unit_mut(unit).melees += 1,
            Effect::Charged { unit } => self.unit_mut(unit).charges += 1,
            Effect::Moved { unit } => self.unit_mut(unit).moved = true,
            Effect::Retired { unit } => self.unit_mut(unit).retired = true,
            Effect::Broken { unit } => self.unit_mut(unit).broken = true,
            Effect::GeneralRemoved { general } => {
                self.generals_removed.insert(general.clone());
            }
            Effect::Killed { unit } => self.unit_mut(unit).killed = true,
            Effect::RanOff { unit } => self.unit_mut(unit).ran_off = true,
            Effect::SaveSpent { unit } => self.unit_mut(unit).saves_spent += 1,
            Effect::RerollSpent { unit } => self.unit_mut(unit).rerolls_spent += 1,
            Effect::StepLost { unit } => self.unit_mut(unit).steps_lost += 1,
            Effect::Routed { unit } => self.unit_mut(unit).routed = true,
            Effect::Initiative { army } => self.initiative = Some(*army),
            Effect::NextTurn => {
                self.turn += 1;
                self.initiative = None;
                for u in self.units.values_mut() {
                    u.clear_turn();
                }
            }
        }
    }
}
