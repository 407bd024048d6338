//! Army lists (`armies/*.toml`): the units, generals, figures and leaders a
//! command can name by id, for each rule system.
//!
//! The shapes here are the file format (SPEC section 5). Loading checks
//! everything — unknown keys, wrong types, unknown keyword values,
//! duplicate ids, dangling references, impossible numbers — and a list
//! either loads whole or not at all.

mod load;

use serde::Deserialize;

use crate::command::System;

pub use load::{
    ArmyError, MAX_BYTES, MAX_ENTRIES, check_files, load_armies, load_army, parse_army, summary,
};

/// One loaded list.
#[derive(Debug, Clone, PartialEq)]
pub struct Army {
    /// Where it was read from, for messages.
    pub file: String,
    pub name: String,
    pub rules: System,
    pub side: String,
    pub generals: Vec<General>,
    pub units: Vec<Unit>,
    pub figures: Vec<Figure>,
    pub leaders: Vec<Leader>,
}

/// Drums and Muskets general.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct General {
    pub id: String,
    pub name: String,
    /// exceptional | ordinary | incompetent
    #[serde(default = "ordinary")]
    pub ability: String,
    /// inspiring | hated
    #[serde(default)]
    pub traits: Vec<String>,
    /// The force commander issues supply dice.
    #[serde(default)]
    pub commander: bool,
}

fn ordinary() -> String {
    "ordinary".into()
}

/// A unit: Drums and Muskets fields, or Musket & Saber fields, by the
/// list's `rules`. Fields of the other system are rejected when loading.
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: String,
    pub name: String,
    // --- Drums and Muskets ---
    /// foot | cavalry | artillery | irregular
    pub arm: Option<String>,
    /// heavy cavalry
    #[serde(default)]
    pub heavy: bool,
    /// lancers (cavalry)
    #[serde(default)]
    pub lancers: bool,
    /// determined | lackluster | zealous | guards
    #[serde(default)]
    pub class: Vec<String>,
    /// open | line | column-of-attack | column-of-march | square | formed | limbered | unlimbered
    /// (Musket & Saber: the hex-game formation id)
    pub formation: Option<String>,
    /// carbine | musket | rifle | minie | field-artillery | position-artillery
    pub weapon: Option<String>,
    pub bases: Option<i64>,
    /// light-company | two-rank
    #[serde(default)]
    pub doctrine: Vec<String>,
    /// id of the general in its line of command
    pub general: Option<String>,
    // --- Musket & Saber ---
    pub cf: Option<i64>,
    pub mr: Option<i64>,
    pub ma: Option<i64>,
    pub steps: Option<i64>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// Musket Mayhem figure.
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    pub id: String,
    pub name: String,
    /// A courage value (2–6), or give `rank`.
    pub courage: Option<i64>,
    /// exceptional-leader | leader | soldier | non-combatant
    pub rank: Option<String>,
    /// unarmed | armed | specialist
    #[serde(default = "armed")]
    pub armament: String,
    /// pistol | musket | bow | rifle | canister | roundshot
    pub weapon: Option<String>,
    #[serde(default)]
    pub leader: bool,
    #[serde(default)]
    pub shock: bool,
    #[serde(default)]
    pub bayonet: bool,
    #[serde(default)]
    pub mounted: bool,
    /// hero tokens
    #[serde(default)]
    pub saves: i64,
    #[serde(default)]
    pub rerolls: i64,
    #[serde(default)]
    pub skill_bonus: i64,
    #[serde(default)]
    pub impact_bonus: i64,
    pub group: Option<String>,
}

fn armed() -> String {
    "armed".into()
}

/// Musket & Saber leader.
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Leader {
    pub id: String,
    pub name: String,
    pub cf: Option<i64>,
    pub mr: Option<i64>,
    pub mv: Option<i64>,
    pub span: Option<i64>,
}

impl Army {
    /// Every id in the list, with what it names.
    pub fn ids(&self) -> impl Iterator<Item = (&str, &'static str)> {
        self.generals
            .iter()
            .map(|g| (g.id.as_str(), "general"))
            .chain(self.units.iter().map(|u| (u.id.as_str(), "unit")))
            .chain(self.figures.iter().map(|f| (f.id.as_str(), "figure")))
            .chain(self.leaders.iter().map(|l| (l.id.as_str(), "leader")))
    }
}
