//! Musket Mayhem army lists: `[[figure]]` entries, one a man or woman.

use std::any::Any;
use std::rc::Rc;

use crate::army::{ArmyList, Checker, Entry, Member, Reader, Schema, Section, one_of, valid_id};
use crate::command::System;
use toml::Spanned;

/// A figure.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Figure {
    pub id: String,
    pub name: String,
    /// A courage value (2–6), or give `rank`.
    pub courage: Option<i64>,
    /// exceptional-leader | leader | soldier | non-combatant
    pub rank: Option<String>,
    /// unarmed | armed | specialist
    pub armament: String,
    /// pistol | musket | bow | rifle | canister | roundshot
    pub weapon: Option<String>,
    pub leader: bool,
    pub shock: bool,
    pub bayonet: bool,
    pub mounted: bool,
    /// hero tokens
    pub saves: i64,
    pub rerolls: i64,
    pub skill_bonus: i64,
    pub impact_bonus: i64,
    pub group: Option<String>,
}

/// One Musket Mayhem list's figures.
#[derive(Debug, Clone, Default)]
pub struct List {
    pub figures: Vec<Figure>,
}

impl ArmyList for List {
    fn members(&self) -> Vec<Member<'_>> {
        self.figures
            .iter()
            .map(|f| Member {
                id: &f.id,
                name: &f.name,
                kind: "figure",
            })
            .collect()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub struct MayhemSchema;

const SECTIONS: &[Section] = &[Section {
    name: "figure",
    keys: FIGURE_KEYS,
}];

impl Schema for MayhemSchema {
    fn sections(&self, _book: System) -> &'static [Section] {
        SECTIONS
    }

    fn reader(&self, _book: System) -> Box<dyn Reader> {
        Box::new(List::default())
    }
}

impl Reader for List {
    fn entry(
        &mut self,
        _section: &str,
        ck: &mut Checker,
        e: &mut Entry,
        id: Option<String>,
        name: Option<String>,
    ) {
        if let Some(f) = figure(ck, e, id, name) {
            self.figures.push(f);
        }
    }

    fn finish(self: Box<Self>) -> Rc<dyn ArmyList> {
        Rc::new(*self)
    }
}

const FIGURE_KEYS: &[&str] = &[
    "id",
    "name",
    "courage",
    "rank",
    "armament",
    "weapon",
    "leader",
    "shock",
    "bayonet",
    "mounted",
    "saves",
    "rerolls",
    "skill_bonus",
    "impact_bonus",
    "group",
];
const RANKS: &[&str] = &["exceptional-leader", "leader", "soldier", "non-combatant"];
const ARMAMENTS: &[&str] = &["unarmed", "armed", "specialist"];
const WEAPONS: &[&str] = &["pistol", "musket", "bow", "rifle", "canister", "roundshot"];

fn figure(
    ck: &mut Checker,
    e: &mut Entry,
    id: Option<String>,
    name: Option<String>,
) -> Option<Figure> {
    let courage = ck.int(e, "courage", 1, 6, "a courage value");
    let rank = ck.keyword(e, "rank", RANKS, "rank");
    match (e.get("courage"), e.get("rank")) {
        (None, None) => ck.missing(
            e,
            "courage",
            &format!("a courage value (1 to 6) or a rank ({})", one_of(RANKS)),
        ),
        (Some(_), Some(r)) => ck.fail(
            r.span(),
            e.key("rank"),
            format!(
                "{}: give courage or rank, not both (rank sets the courage value)",
                e.place("rank")
            ),
        ),
        _ => {}
    }
    let armament = ck.keyword(e, "armament", ARMAMENTS, "armament");
    let weapon = ck.keyword(e, "weapon", WEAPONS, "weapon");
    let mut flags = [false; 4];
    for (slot, key) in ["leader", "shock", "bayonet", "mounted"]
        .into_iter()
        .enumerate()
    {
        flags[slot] = ck.boolean(e, key).is_some_and(|b| *b.get_ref());
    }
    let saves = ck.int(e, "saves", 0, 20, "hero save tokens");
    let rerolls = ck.int(e, "rerolls", 0, 20, "hero reroll tokens");
    let skill = ck.int(e, "skill_bonus", 0, 5, "a hero's skill die bonus");
    let impact = ck.int(e, "impact_bonus", 0, 5, "a hero's impact die bonus");
    let group = match ck.string(e, "group") {
        Some(g) if valid_id(g.get_ref()) => Some(g.into_inner()),
        Some(g) => {
            ck.fail(
                g.span(),
                e.key("group"),
                format!(
                    "{}: \"{}\" is not a group name; use lowercase letters, digits and -, \
                     starting with a letter",
                    e.place("group"),
                    g.get_ref()
                ),
            );
            None
        }
        None => None,
    };
    Some(Figure {
        id: id?,
        name: name?,
        courage,
        rank: rank.map(Spanned::into_inner),
        armament: armament.map_or_else(|| "armed".to_string(), Spanned::into_inner),
        weapon: weapon.map(Spanned::into_inner),
        leader: flags[0],
        shock: flags[1],
        bayonet: flags[2],
        mounted: flags[3],
        saves: saves.unwrap_or(0),
        rerolls: rerolls.unwrap_or(0),
        skill_bonus: skill.unwrap_or(0),
        impact_bonus: impact.unwrap_or(0),
        group,
    })
}
