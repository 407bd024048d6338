//! Musket & Saber army lists: `[[unit]]` (brigades, battalions, squadrons,
//! batteries) and `[[leader]]` entries, for both books.

use std::any::Any;
use std::rc::Rc;

use toml::de::DeValue;

use crate::army::{ArmyList, Checker, Entry, Member, Reader, Schema, Section};
use crate::command::System;

// A child of this module, to read its word lists where they are.
#[path = "army_doc.rs"]
mod doc;
use toml::Spanned;

/// A combat unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unit {
    pub id: String,
    pub name: String,
    /// The hex-game formation id (coordination, 7.14).
    pub formation: Option<String>,
    pub cf: i64,
    pub mr: i64,
    /// `None`: a variable movement allowance (4.4).
    pub ma: Option<i64>,
    pub steps: Option<i64>,
    /// infantry | battalion | cavalry | squadron | artillery
    pub kind: Option<String>,
}

/// What kind of combat unit a counter is (2.3, 2.4, 2.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitType {
    Infantry,
    Battalion,
    Cavalry,
    Squadron,
    Artillery,
}

impl UnitType {
    /// The word a unit of this type brings to a command: battalions are
    /// infantry and squadrons cavalry for every rule that names the arm.
    pub fn word(self) -> &'static str {
        match self {
            UnitType::Infantry | UnitType::Battalion => "infantry",
            UnitType::Cavalry | UnitType::Squadron => "cavalry",
            UnitType::Artillery => "artillery",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            UnitType::Infantry => "infantry",
            UnitType::Battalion => "battalion",
            UnitType::Cavalry => "cavalry",
            UnitType::Squadron => "squadron",
            UnitType::Artillery => "artillery",
        }
    }

    /// Whether the counter has an ineffective side (standard 2.6, 2.7;
    /// QuickPlay 2.3): every type but the infantry brigade.
    pub fn may_be_ineffective(self) -> bool {
        self != UnitType::Infantry
    }
}

impl Unit {
    /// The unit's type; a list that gives none means infantry, for which
    /// the rules are written (2.4).
    pub fn unit_type(&self) -> UnitType {
        match self.kind.as_deref() {
            Some("battalion") => UnitType::Battalion,
            Some("cavalry") => UnitType::Cavalry,
            Some("squadron") => UnitType::Squadron,
            Some("artillery") => UnitType::Artillery,
            _ => UnitType::Infantry,
        }
    }

    /// Its strength steps (one unless the list says two).
    pub fn steps(&self) -> u32 {
        self.steps.map_or(1, |s| s.clamp(1, 2) as u32)
    }
}

/// A leader.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Leader {
    pub id: String,
    pub name: String,
    pub cf: Option<i64>,
    pub mr: Option<i64>,
    pub mv: Option<i64>,
    pub span: Option<i64>,
}

/// One Musket & Saber list's entries.
#[derive(Debug, Clone, Default)]
pub struct List {
    pub units: Vec<Unit>,
    pub leaders: Vec<Leader>,
    /// Read under the QuickPlay rules, where every counter prints an MR.
    pub quickplay: bool,
}

impl ArmyList for List {
    fn members(&self) -> Vec<Member<'_>> {
        self.units
            .iter()
            .map(|u| Member {
                id: &u.id,
                name: &u.name,
                kind: "unit",
            })
            .chain(self.leaders.iter().map(|l| Member {
                id: &l.id,
                name: &l.name,
                kind: "leader",
            }))
            .collect()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub struct SaberSchema;

const UNIT_KEYS: &[&str] = &["id", "name", "cf", "mr", "ma", "steps", "formation", "type"];
const LEADER_KEYS: &[&str] = &["id", "name", "cf", "mr", "mv", "span"];
const TYPES: &[&str] = &["infantry", "battalion", "cavalry", "squadron", "artillery"];

const SECTIONS: &[Section] = &[
    Section {
        name: "unit",
        keys: UNIT_KEYS,
    },
    Section {
        name: "leader",
        keys: LEADER_KEYS,
    },
];

impl Schema for SaberSchema {
    fn sections(&self, _book: System) -> &'static [Section] {
        SECTIONS
    }

    fn reader(&self, book: System) -> Box<dyn Reader> {
        Box::new(List {
            quickplay: book == super::QUICKPLAY,
            ..List::default()
        })
    }
    fn doc(&self, book: System) -> Option<crate::army::doc::ArmyDoc> {
        Some(doc::doc(book == super::QUICKPLAY))
    }
}

impl Reader for List {
    fn entry(
        &mut self,
        section: &str,
        ck: &mut Checker,
        e: &mut Entry,
        id: Option<String>,
        name: Option<String>,
    ) {
        match section {
            "unit" => {
                if let Some(u) = unit(ck, e, id, name, self.quickplay) {
                    self.units.push(u);
                }
            }
            _ => {
                if let Some(l) = leader(ck, e, id, name) {
                    self.leaders.push(l);
                }
            }
        }
    }

    fn finish(self: Box<Self>) -> Rc<dyn ArmyList> {
        Rc::new(*self)
    }
}

fn valid_formation_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 16 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

fn unit(
    ck: &mut Checker,
    e: &mut Entry,
    id: Option<String>,
    name: Option<String>,
    quickplay: bool,
) -> Option<Unit> {
    let kind = ck.keyword(e, "type", TYPES, "unit type");
    let kind_word = kind.as_ref().map(|k| k.get_ref().as_str());

    let cf = ck.int(e, "cf", 0, 30, "the combat factor");
    if e.get("cf").is_none() {
        ck.missing(e, "cf", "the combat factor, a whole number from 0 to 30");
    }
    let mut mr = ck.int(e, "mr", 1, 6, "the morale rating");
    let standard_artillery = kind_word == Some("artillery") && !quickplay;
    match e.get("mr") {
        // Standard 8.1: there is no morale rating on an artillery counter.
        Some(v) if standard_artillery => ck.fail(
            v.span(),
            e.key("mr"),
            format!(
                "{}: artillery has no morale rating on the counter; it is presumed always to have an MR of 6 (8.1): leave `mr` out",
                e.place("mr")
            ),
        ),
        Some(_) => {}
        // 8.1: artillery is presumed always to have an MR of 6.
        None if standard_artillery => mr = Some(6),
        None if kind_word == Some("artillery") => ck.missing(
            e,
            "mr",
            "the morale rating printed on the counter, a whole number from 1 to 6 (QuickPlay 2.3: every unit has one)",
        ),
        None => ck.missing(e, "mr", "the morale rating, a whole number from 1 to 6"),
    }
    // No `ma` (or "V") is a variable movement allowance (4.4).
    let ma = match e.get("ma").map(Spanned::get_ref) {
        Some(DeValue::String(s)) if s == "V" => None,
        _ => ck.int(
            e,
            "ma",
            1,
            30,
            "the movement allowance (or \"V\" for a variable one)",
        ),
    };
    let steps = ck.int(e, "steps", 1, 2, "the strength steps");
    if let (Some(2), Some(k @ ("cavalry" | "squadron" | "artillery" | "battalion"))) =
        (steps, kind_word)
        && let Some(v) = e.get("steps")
    {
        ck.fail(
            v.span(),
            e.key("steps"),
            format!(
                "{}: {k} units always have one step; only infantry brigades have two",
                e.place("steps")
            ),
        );
    }
    let formation = match e.get("formation") {
        None => None,
        Some(v) => match v.get_ref() {
            DeValue::String(s) if valid_formation_id(s) => Some(s.to_string()),
            DeValue::Integer(i) if valid_formation_id(i.as_str()) && i.radix() == 10 => {
                Some(i.as_str().to_string())
            }
            _ => {
                ck.type_error(
                    e,
                    "formation",
                    v,
                    "a formation id such as \"1\", \"0\" (independent) or \"A\" (all): \
                     letters, digits and -, at most 16",
                );
                None
            }
        },
    };
    Some(Unit {
        id: id?,
        name: name?,
        formation,
        cf: cf?,
        mr: mr?,
        ma,
        steps,
        kind: kind.map(Spanned::into_inner),
    })
}

fn leader(
    ck: &mut Checker,
    e: &mut Entry,
    id: Option<String>,
    name: Option<String>,
) -> Option<Leader> {
    let cf = ck.int(e, "cf", 0, 10, "the leader's combat factor");
    let mr = ck.int(e, "mr", 0, 6, "the leader's morale rating");
    let mv = ck.int(e, "mv", 0, 12, "the leader's movement value");
    let span = ck.int(e, "span", 0, 20, "the leader's command span");
    Some(Leader {
        id: id?,
        name: name?,
        cf,
        mr,
        mv,
        span,
    })
}
