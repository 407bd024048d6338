//! Drums and Muskets army lists: `[[general]]` and `[[unit]]` entries.

use std::rc::Rc;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::army::{
    ArmyList, Away, Checker, Entry, ListShelf, Member, Reader, Schema, Section, one_of,
};
use crate::bind::nearest;
use crate::command::System;

// A child of this module, to read its word lists where they are.
#[path = "army_doc.rs"]
mod doc;

/// A general.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct General {
    pub id: String,
    pub(crate) name: String,
    /// exceptional | ordinary | incompetent
    pub ability: String,
    /// inspiring | hated
    pub traits: Vec<String>,
    /// The force commander issues supply dice.
    pub commander: bool,
}

/// A unit of bases, or of figures.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Unit {
    pub id: String,
    pub(crate) name: String,
    /// foot | cavalry | artillery | irregular
    pub arm: String,
    /// heavy cavalry
    pub heavy: bool,
    /// lancers (cavalry)
    pub lancers: bool,
    /// determined | lackluster | zealous | guards
    pub class: Vec<String>,
    /// open | line | column-of-attack | column-of-march | square | formed | limbered | unlimbered
    pub formation: String,
    /// carbine | musket | rifle | minie | field-artillery | position-artillery
    pub weapon: Option<String>,
    /// Its bases at the start of the game; 0 when it is counted in figures.
    pub bases: i64,
    /// Its figures at the start of the game, when the list counts it in
    /// figures (`figures = N`) rather than bases; otherwise 0.
    pub(crate) figures: i64,
    /// light-company | two-rank
    pub doctrine: Vec<String>,
    /// id of the general in its line of command
    pub general: Option<String>,
    /// Bases (or figures) lost in the earlier battles of a campaign: the
    /// unit starts this one with `bases - lost` (`lost`).
    pub(crate) lost: i64,
}

/// One Drums and Muskets list's entries.
#[derive(Debug, Clone, Default)]
pub struct List {
    pub generals: Vec<General>,
    pub units: Vec<Unit>,
    /// Generals and units a campaign holds out of this battle (`gone`).
    pub(crate) away: Vec<Away>,
}

impl ArmyList for List {
    fn members(&self) -> Vec<Member<'_>> {
        self.generals
            .iter()
            .map(|g| Member {
                id: &g.id,
                name: &g.name,
                kind: "general",
            })
            .chain(self.units.iter().map(|u| Member {
                id: &u.id,
                name: &u.name,
                kind: "unit",
            }))
            .collect()
    }

    fn away(&self) -> Vec<Away> {
        self.away.clone()
    }
}

pub(crate) struct DrumsSchema;

const SECTIONS: &[Section] = &[
    Section {
        name: "general",
        keys: GENERAL_KEYS,
    },
    Section {
        name: "unit",
        keys: UNIT_KEYS,
    },
];

impl Schema for DrumsSchema {
    fn sections(&self, _book: System) -> &'static [Section] {
        SECTIONS
    }

    fn reader(&self, _book: System) -> Box<dyn Reader> {
        Box::new(List::default())
    }

    fn doc(&self, _book: System) -> Option<crate::army::doc::ArmyDoc> {
        Some(doc::doc())
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
            "general" => {
                let away = ck.away(e, "general", id.as_deref(), name.as_deref());
                if let Some(g) = general(ck, e, id, name) {
                    match away {
                        Some(away) => self.away.push(away),
                        None => self.generals.push(g),
                    }
                }
            }
            _ => {
                let away = ck.away(e, "unit", id.as_deref(), name.as_deref());
                if let Some(u) = unit(ck, e, id, name) {
                    match away {
                        Some(away) => self.away.push(away),
                        None => self.units.push(u),
                    }
                }
            }
        }
    }

    /// Lines of command, and the one force commander.
    fn cross_checks(&mut self, ck: &mut Checker, doc: &DeTable) {
        let general_ids = ck.ids_of("general");
        let generals: Vec<&str> = general_ids.iter().map(String::as_str).collect();
        let mut refs = Vec::new();
        let mut commanders = Vec::new();
        for (section, field) in [("unit", "general"), ("general", "commander")] {
            let Some(DeValue::Array(items)) = doc.get(section).map(Spanned::get_ref) else {
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let Some(table) = item.get_ref().as_table() else {
                    continue;
                };
                let Some(v) = table.get(field) else { continue };
                // Its key and label are written only for a message.
                let place = (section, field, i, table);
                match v.get_ref() {
                    DeValue::String(s) => refs.push((place, s.as_ref(), v.span())),
                    DeValue::Boolean(true) => commanders.push((place, v.span())),
                    _ => {}
                }
            }
        }
        for (place, target, span) in refs {
            if !generals.contains(&target) {
                let (key, label) = key_and_label(place);
                let hint = nearest(target, generals.iter().copied())
                    .map(|n| format!(" (did you mean \"{n}\"?)"))
                    .unwrap_or_default();
                let known = if generals.is_empty() {
                    "the list has no [[general]] entries".to_string()
                } else {
                    format!("its generals are {}", one_of(&generals))
                };
                ck.fail(
                    span,
                    key.clone(),
                    format!("{key}{label}: no general \"{target}\" in this list{hint}; {known}"),
                );
            }
        }
        if let Some((first, first_span)) = commanders.first().cloned() {
            let (first_key, _) = key_and_label(first);
            let line = ck.line_of(first_span.start);
            for (place, span) in commanders.into_iter().skip(1) {
                let (key, label) = key_and_label(place);
                ck.fail(
                    span,
                    key.clone(),
                    format!(
                        "{key}{label}: a second force commander; {first_key} (line {line}) \
                     is already the force commander, and a list has only one"
                    ),
                );
            }
        }
    }

    fn finish(self: Box<Self>) -> Rc<dyn ArmyList> {
        READ.with(|read| read.keep(*self))
    }
}

/// Where a reference between entries stands: section, field, the entry's
/// place in its section and its table.
type RefPlace<'t, 'i> = (&'static str, &'static str, usize, &'t DeTable<'i>);

/// The key of a reference (`unit[3].general`) and the label of its entry
/// (` (unit "gren-1")`, or nothing without an id), for a message.
fn key_and_label((section, field, i, table): RefPlace) -> (String, String) {
    let label = table
        .get("id")
        .and_then(|id| id.get_ref().as_str())
        .map(|id| format!(" ({section} \"{id}\")"))
        .unwrap_or_default();
    (format!("{section}[{}].{field}", i + 1), label)
}

const GENERAL_KEYS: &[&str] = &["id", "name", "ability", "traits", "commander", "gone"];
const ABILITIES: &[&str] = &["exceptional", "ordinary", "incompetent"];
const TRAITS: &[&str] = &["inspiring", "hated"];

const UNIT_KEYS: &[&str] = &[
    "id",
    "name",
    "arm",
    "heavy",
    "lancers",
    "class",
    "formation",
    "weapon",
    "bases",
    "figures",
    "doctrine",
    "general",
    "lost",
    "gone",
];
const ARMS: &[&str] = &["foot", "cavalry", "artillery", "irregular"];
const CLASSES: &[&str] = &["determined", "lackluster", "zealous", "guards"];
/// The formations a list may give a unit (also the words that contradict
/// one another beside a named unit).
pub(super) const FORMATIONS: &[&str] = &[
    "open",
    "line",
    "column-of-attack",
    "column-of-march",
    "square",
    "formed",
    "limbered",
    "unlimbered",
];
/// The weapons a list may give a unit.
pub(super) const WEAPONS: &[&str] = &[
    "carbine",
    "musket",
    "rifle",
    "minie",
    "field-artillery",
    "position-artillery",
];
const DOCTRINES: &[&str] = &["light-company", "two-rank"];
/// Largest number of bases in one Drums and Muskets unit.
const MAX_BASES: i64 = 100;
/// Largest number of figures in one unit counted in figures.
const MAX_FIGURES: i64 = 200;

/// The formations a Drums and Muskets arm can be in (Movement and Charge
/// Distances tables).
fn formations_for(arm: &str) -> &'static [&'static str] {
    match arm {
        "foot" => &[
            "open",
            "line",
            "column-of-attack",
            "column-of-march",
            "square",
        ],
        "cavalry" => &["open", "formed", "column-of-march"],
        "artillery" => &["unlimbered", "limbered"],
        _ => &["open", "column-of-march"],
    }
}

/// The weapons a Drums and Muskets arm can carry (Shooting Table 1:
/// carbines are for dismounted cavalry; the guns are artillery's).
fn weapons_for(arm: &str) -> &'static [&'static str] {
    match arm {
        "foot" => &["musket", "rifle", "minie"],
        "artillery" => &["field-artillery", "position-artillery"],
        _ => &["carbine", "musket", "rifle", "minie"],
    }
}

fn general(
    ck: &mut Checker,
    e: &mut Entry,
    id: Option<String>,
    name: Option<String>,
) -> Option<General> {
    let ability = ck.keyword(e, "ability", ABILITIES, "ability");
    let traits = ck.keywords(e, "traits", TRAITS, "trait");
    if traits.len() > 1 {
        ck.fail(
            traits[1].span(),
            e.key("traits"),
            format!(
                "{}: a general cannot be both inspiring and hated",
                e.place("traits")
            ),
        );
    }
    let commander = ck.boolean(e, "commander");
    Some(General {
        id: id?,
        name: name?,
        ability: ability.map_or_else(|| "ordinary".to_string(), Spanned::into_inner),
        traits: traits.into_iter().map(Spanned::into_inner).collect(),
        commander: commander.is_some_and(|c| *c.get_ref()),
    })
}

fn unit(ck: &mut Checker, e: &mut Entry, id: Option<String>, name: Option<String>) -> Option<Unit> {
    let arm = ck.keyword(e, "arm", ARMS, "arm");
    if e.get("arm").is_none() {
        ck.missing(e, "arm", &format!("the unit's arm: {}", one_of(ARMS)));
    }
    let arm_word = arm.as_ref().map(|a| a.get_ref().as_str());

    let flags = cavalry_kinds(ck, e, arm_word);

    let class = ck.keywords(e, "class", CLASSES, "class");
    let has = |w: &str| class.iter().find(|c| c.get_ref() == w);
    if let (Some(_), Some(lackluster)) = (has("determined"), has("lackluster")) {
        ck.fail(
            lackluster.span(),
            e.key("class"),
            format!(
                "{}: a unit cannot be classed both determined and lackluster",
                e.place("class")
            ),
        );
    }

    let formation = formation(ck, e, arm_word);

    let weapon = weapon(ck, e, arm_word);

    let (bases, figures) = size(ck, e);
    let lost = lost(ck, e, bases.or(figures));
    let doctrine = ck.keywords(e, "doctrine", DOCTRINES, "doctrine");
    let general = ck.string(e, "general");
    Some(Unit {
        id: id?,
        name: name?,
        arm: arm?.into_inner(),
        heavy: flags[0],
        lancers: flags[1],
        class: class.into_iter().map(Spanned::into_inner).collect(),
        formation: formation?.into_inner(),
        weapon: weapon.map(Spanned::into_inner),
        bases: if e.get("bases").is_some() { bases? } else { 0 },
        figures: if e.get("figures").is_some() {
            figures?
        } else {
            0
        },
        doctrine: doctrine.into_iter().map(Spanned::into_inner).collect(),
        general: general.map(Spanned::into_inner),
        lost: lost.unwrap_or(0),
    })
}

/// `lost = N`: bases (or figures) lost in the earlier battles of a
/// campaign. One that lost them all starts out of action (a campaign's
/// close writes `gone` for it instead).
fn lost(ck: &mut Checker, e: &Entry, size: Option<i64>) -> Option<i64> {
    let lost = ck.int(
        e,
        "lost",
        1,
        MAX_FIGURES,
        "the bases (or figures) lost in earlier battles",
    )?;
    if let (Some(size), Some(v)) = (size, e.get("lost"))
        && lost > size
    {
        let what = if e.get("figures").is_some() {
            "figures"
        } else {
            "bases"
        };
        ck.fail(
            v.span(),
            e.key("lost"),
            format!(
                "{}: {lost} {what} lost, but the unit has {size}; expected at most {size} \
                 (a unit that lost every one of them is gone: `gone = \"why\"`)",
                e.place("lost")
            ),
        );
        return None;
    }
    Some(lost)
}

/// `heavy` and `lancers`: only cavalry is either.
fn cavalry_kinds(ck: &mut Checker, e: &Entry, arm_word: Option<&str>) -> [bool; 2] {
    let mut flags = [false; 2];
    for (slot, key) in ["heavy", "lancers"].into_iter().enumerate() {
        let Some(flag) = ck.boolean(e, key) else {
            continue;
        };
        if *flag.get_ref() && arm_word.is_some_and(|a| a != "cavalry") {
            ck.fail(
                flag.span(),
                e.key(key),
                format!(
                    "{}: only cavalry can be {}; this unit's arm is {}",
                    e.place(key),
                    if key == "heavy" { "heavy" } else { "lancers" },
                    arm_word.unwrap_or_default()
                ),
            );
        }
        flags[slot] = *flag.get_ref();
    }
    flags
}

/// The unit's formation, one its arm can be in.
fn formation(ck: &mut Checker, e: &Entry, arm_word: Option<&str>) -> Option<Spanned<String>> {
    let formation = ck.keyword(e, "formation", FORMATIONS, "formation");
    match (&formation, arm_word) {
        (None, _) if e.get("formation").is_none() => ck.missing(
            e,
            "formation",
            &format!(
                "the unit's formation: {}",
                one_of(arm_word.map_or(FORMATIONS, formations_for))
            ),
        ),
        (Some(f), Some(a)) if !formations_for(a).contains(&f.get_ref().as_str()) => ck.fail(
            f.span(),
            e.key("formation"),
            format!(
                "{}: {a} cannot be in formation \"{}\"; {a} formations are {}",
                e.place("formation"),
                f.get_ref(),
                one_of(formations_for(a))
            ),
        ),
        _ => {}
    }
    formation
}

/// The unit's weapon, one its arm can carry.
fn weapon(ck: &mut Checker, e: &Entry, arm_word: Option<&str>) -> Option<Spanned<String>> {
    let weapon = ck.keyword(e, "weapon", WEAPONS, "weapon");
    if let (Some(w), Some(a)) = (&weapon, arm_word)
        && !weapons_for(a).contains(&w.get_ref().as_str())
    {
        ck.fail(
            w.span(),
            e.key("weapon"),
            format!(
                "{}: {a} cannot carry \"{}\"; {a} weapons are {}",
                e.place("weapon"),
                w.get_ref(),
                one_of(weapons_for(a))
            ),
        );
    }
    weapon
}

/// The unit's bases or figures.
fn size(ck: &mut Checker, e: &Entry) -> (Option<i64>, Option<i64>) {
    // "If using a figures, then it is each hit equals on figure removed/lost.
    // If using bases, then for each 6 hits received then 1 base is removed."
    // A unit is counted one way or the other.
    let bases = ck.int(e, "bases", 1, MAX_BASES, "the number of bases");
    let figures = ck.int(e, "figures", 1, MAX_FIGURES, "the number of figures");
    match (e.get("bases"), e.get("figures")) {
        (None, None) => ck.missing(
            e,
            "bases",
            &format!(
                "the number of bases, a whole number from 1 to {MAX_BASES} \
                 (or `figures = N` for a unit counted in figures)"
            ),
        ),
        (Some(_), Some(f)) => ck.fail(
            f.span(),
            e.key("figures"),
            format!(
                "{}: a unit is counted in bases or in figures, not both; \
                 keep `bases = N` (each 6 hits remove a base) or `figures = N` \
                 (each hit removes a figure)",
                e.place("figures")
            ),
        ),
        _ => {}
    }
    (bases, figures)
}

impl Unit {
    /// Whether the unit is counted in figures (each hit one figure) rather
    /// than bases (each 6 hits one base).
    pub(crate) fn in_figures(&self) -> bool {
        self.figures > 0
    }

    /// Its bases or figures at the start of the game.
    pub(crate) fn size(&self) -> i64 {
        if self.in_figures() {
            self.figures
        } else {
            self.bases
        }
    }
}

thread_local! {
    /// The lists this system's reader made (see [`ListShelf`]).
    static READ: ListShelf<List> = const { ListShelf::new() };
}

/// A loaded list in this system's own types, for its part of a game: the
/// list as it was read when it loaded.
pub(crate) fn read(army: &crate::army::Army) -> Option<Rc<List>> {
    use crate::system::RuleSystem;
    let system = (super::SYSTEM.name(), super::SYSTEM.books());
    crate::army::list_of(&READ, system, &DrumsSchema, army, List::default)
}
