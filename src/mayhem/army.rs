//! Musket Mayhem army lists: `[[figure]]` entries, one a man or woman.

use std::rc::Rc;

use crate::army::{
    ArmyList, Away, Checker, Entry, ListShelf, Member, Reader, Schema, Section, Value, one_of,
    valid_id,
};
use crate::command::System;

// A child of this module, to read its word lists where they are.
#[path = "army_doc.rs"]
mod doc;
use toml::Spanned;
use toml::de::DeValue;

/// A figure.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Figure {
    pub id: String,
    pub(crate) name: String,
    /// A courage value (2–6), or give `rank`.
    pub courage: Option<i64>,
    /// exceptional-leader | leader | soldier | non-combatant
    pub rank: Option<String>,
    /// unarmed | armed | specialist
    pub armament: String,
    /// pistol | musket | bow | rifle | canister | roundshot
    pub(crate) weapon: Option<String>,
    pub(crate) leader: bool,
    pub(crate) shock: bool,
    pub(crate) bayonet: bool,
    pub(crate) mounted: bool,
    /// Carries incendiary materials: may set fires, may not shoot or charge.
    pub(crate) incendiary: bool,
    /// The leader a player designates as his personal figure and commander
    /// of the contingent (one a list).
    pub(crate) commander: bool,
    /// A specially designated hero: +1d6 on its moves ("+1d6 bonus for
    /// specially designated heroes, etc. (Optional)"). Save tokens alone
    /// do not give it.
    pub(crate) move_bonus: bool,
    /// hero tokens
    pub saves: i64,
    pub rerolls: i64,
    /// The hero's bonus in hand-to-hand (`bonus.melee`), to the skill die
    /// and to the results die of `fight`.
    pub skill_bonus: i64,
    pub(crate) impact_bonus: i64,
    /// The hero's bonus with its missile weapon (`bonus.rifle`), to the
    /// skill and impact dice of `fire` with that weapon only.
    pub(crate) weapon_bonus: Bonus,
    pub(crate) group: Option<String>,
    /// Campaigns: wounded in an earlier battle (and back).
    pub(crate) wounded: bool,
}

/// A hero's bonus to the skill and impact dice, with one weapon or in melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Bonus {
    pub(crate) skill: i64,
    pub(crate) impact: i64,
}

impl Bonus {
    pub(crate) fn any(&self) -> bool {
        self.skill != 0 || self.impact != 0
    }
}

impl Figure {
    /// The hand-to-hand bonus.
    pub(crate) fn melee_bonus(&self) -> Bonus {
        Bonus {
            skill: self.skill_bonus,
            impact: self.impact_bonus,
        }
    }
}

/// What a bonus in a list is for besides a weapon keyword.
pub(crate) const MELEE: &str = "melee";
/// Largest bonus to a die a list may give.
pub(crate) const MAX_BONUS: i64 = 5;

/// One Musket Mayhem list's figures.
#[derive(Debug, Clone, Default)]
pub struct List {
    pub figures: Vec<Figure>,
    /// Figures a campaign holds out of this battle (`gone`, `absent`).
    pub(crate) away: Vec<Away>,
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

    fn away(&self) -> Vec<Away> {
        self.away.clone()
    }
}

pub(crate) struct MayhemSchema;

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

    fn doc(&self, _book: System) -> Option<crate::army::doc::ArmyDoc> {
        Some(doc::doc())
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
        let mut commanders = self.figures.iter().filter(|f| f.commander).count();
        let away = ck.away(e, "figure", id.as_deref(), name.as_deref());
        if let Some(f) = figure(ck, e, id, name, &mut commanders) {
            match away {
                Some(away) => self.away.push(away),
                None => self.figures.push(f),
            }
        }
    }

    fn finish(self: Box<Self>) -> Rc<dyn ArmyList> {
        READ.with(|read| read.keep(*self))
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
    "incendiary",
    "commander",
    "move_bonus",
    "saves",
    "rerolls",
    "bonus",
    "skill_bonus",
    "impact_bonus",
    "group",
    "wounded",
    "absent",
    "gone",
];
const RANKS: &[&str] = &["exceptional-leader", "leader", "soldier", "non-combatant"];
const ARMAMENTS: &[&str] = &["unarmed", "armed", "specialist"];
pub(crate) const WEAPONS: &[&str] = &["pistol", "musket", "bow", "rifle", "canister", "roundshot"];

fn figure(
    ck: &mut Checker,
    e: &mut Entry,
    id: Option<String>,
    name: Option<String>,
    commanders: &mut usize,
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
    let mut flags = [false; 7];
    for (slot, key) in [
        "leader",
        "shock",
        "bayonet",
        "mounted",
        "incendiary",
        "commander",
        "move_bonus",
    ]
    .into_iter()
    .enumerate()
    {
        flags[slot] = ck.boolean(e, key).is_some_and(|b| *b.get_ref());
    }
    // "designate one leader to serve as his personal figure and commander
    // of the contingent": a leader, and only one.
    let leads = flags[0]
        || rank
            .as_ref()
            .is_some_and(|r| matches!(r.get_ref().as_str(), "leader" | "exceptional-leader"));
    if flags[5] {
        one_commander(ck, e, leads, commanders);
    }
    let saves = ck.int(e, "saves", 0, 20, "hero save tokens");
    let rerolls = ck.int(e, "rerolls", 0, 20, "hero reroll tokens");
    old_bonuses(ck, e);
    let (melee, weapon_bonus) = bonuses(ck, e, weapon.as_ref().map(|w| w.get_ref().as_str()));
    let group = group(ck, e);
    let wounded = ck.boolean(e, "wounded");
    if let (Some(w), Some(_)) = (&wounded, e.get("gone"))
        && *w.get_ref()
    {
        ck.fail(
            w.span(),
            e.key("wounded"),
            format!(
                "{}: a figure gone for good (dead) is not wounded; keep `gone` or `wounded`, not both",
                e.place("wounded")
            ),
        );
    }
    let wounded = wounded.is_some_and(|b| *b.get_ref());
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
        incendiary: flags[4],
        commander: flags[5],
        move_bonus: flags[6],
        saves: saves.unwrap_or(0),
        rerolls: rerolls.unwrap_or(0),
        skill_bonus: melee.skill,
        impact_bonus: melee.impact,
        weapon_bonus,
        group,
        wounded,
    })
}

/// "designate one leader to serve as his personal figure and commander of
/// the contingent": a leader, and only one.
fn one_commander(ck: &mut Checker, e: &Entry, leads: bool, commanders: &mut usize) {
    let Some(v) = e.get("commander") else {
        return;
    };
    if !leads {
        ck.fail(
            v.span(),
            e.key("commander"),
            format!(
                "{}: the commander of the contingent is a leader (\"designate one leader to \
                 serve as his personal figure and commander of the contingent\"): give \
                 `leader = true` or a leader's rank",
                e.place("commander")
            ),
        );
    } else if *commanders > 0 {
        ck.fail(
            v.span(),
            e.key("commander"),
            format!(
                "{}: a list has one commander of the contingent, and an earlier figure is it",
                e.place("commander")
            ),
        );
    }
    *commanders += 1;
}

/// A bonus without what it is for was applied to every weapon and to
/// melee alike; the rule gives it "with specific weapons".
fn old_bonuses(ck: &mut Checker, e: &Entry) {
    for old in ["skill_bonus", "impact_bonus"] {
        if let Some(v) = e.get(old) {
            let die = old.trim_end_matches("_bonus");
            ck.fail(
                v.span(),
                e.key(old),
                format!(
                    "{}: a hero's bonus says what it is for (\"bonuses to skill or impact dice \
                 with specific weapons\"): write `bonus.rifle = {{ {die} = 2 }}` for its \
                 weapon or `bonus.melee = {{ {die} = 1 }}` in hand-to-hand",
                    e.place(old)
                ),
            );
        }
    }
}

/// The figure's group: a name like an id.
fn group(ck: &mut Checker, e: &mut Entry) -> Option<String> {
    match ck.string(e, "group") {
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
    }
}

/// `bonus.melee = { skill = 1, impact = 1 }`, `bonus.rifle = { skill = 2 }`:
/// the hero's bonuses in hand-to-hand and with its weapon.
fn bonuses(ck: &mut Checker, e: &Entry, weapon: Option<&str>) -> (Bonus, Bonus) {
    let (mut melee, mut with_weapon) = (Bonus::default(), Bonus::default());
    let Some(v) = e.get("bonus") else {
        return (melee, with_weapon);
    };
    let fors: Vec<&str> = std::iter::once(MELEE)
        .chain(WEAPONS.iter().copied())
        .collect();
    let DeValue::Table(table) = v.get_ref() else {
        ck.type_error(
            e,
            "bonus",
            v,
            "a table of bonuses by what they are for, like `bonus.melee = { skill = 1 }` or \
             `bonus.rifle = { skill = 2, impact = 1 }`",
        );
        return (melee, with_weapon);
    };
    for (k, value) in table.iter() {
        let what = k.get_ref().as_ref();
        let key = format!("bonus.{what}");
        if !fors.contains(&what) {
            let hint = crate::bind::nearest(what, fors.iter().copied())
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            ck.fail(
                k.span(),
                e.key(&key),
                format!(
                    "{}: a bonus is for `melee` or for a weapon ({}); `{what}` is neither{hint}",
                    e.place(&key),
                    one_of(WEAPONS)
                ),
            );
            continue;
        }
        if what != MELEE && weapon != Some(what) {
            let carries = match weapon {
                Some(w) => format!("carries a {w}"),
                None => "carries no missile weapon (no `weapon`)".to_string(),
            };
            ck.fail(
                k.span(),
                e.key(&key),
                format!(
                    "{}: this figure {carries}, so a bonus with a {what} could never be used; \
                     give the bonus for its own weapon or set `weapon = \"{what}\"`",
                    e.place(&key)
                ),
            );
            continue;
        }
        let Some(bonus) = bonus_table(ck, e, &key, value) else {
            continue;
        };
        if what == MELEE {
            melee = bonus;
        } else {
            with_weapon = bonus;
        }
    }
    (melee, with_weapon)
}

/// `{ skill = 2, impact = 1 }`.
fn bonus_table(ck: &mut Checker, e: &Entry, key: &str, value: &Value) -> Option<Bonus> {
    let expected = "a table like `{ skill = 2, impact = 1 }` (either or both)";
    let DeValue::Table(table) = value.get_ref() else {
        ck.type_error(e, key, value, expected);
        return None;
    };
    let mut bonus = Bonus::default();
    let mut ok = true;
    for (k, v) in table.iter() {
        let die = k.get_ref().as_ref();
        let inner = format!("{key}.{die}");
        let slot = match die {
            "skill" => &mut bonus.skill,
            "impact" => &mut bonus.impact,
            _ => {
                ck.fail(
                    k.span(),
                    e.key(&inner),
                    format!(
                        "{}: unknown key `{die}`; a bonus is to the `skill` die or the `impact` die",
                        e.place(&inner)
                    ),
                );
                ok = false;
                continue;
            }
        };
        let n = match v.get_ref() {
            DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok(),
            _ => None,
        };
        match n {
            Some(n) if (1..=MAX_BONUS).contains(&n) => *slot = n,
            _ => {
                ck.type_error(
                    e,
                    &inner,
                    v,
                    &format!("a bonus to the {die} die, a whole number from 1 to {MAX_BONUS}"),
                );
                ok = false;
            }
        }
    }
    if ok && !bonus.any() {
        ck.fail(
            value.span(),
            e.key(key),
            format!(
                "{}: empty; give `skill = N`, `impact = N` or both",
                e.place(key)
            ),
        );
        return None;
    }
    ok.then_some(bonus)
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
    crate::army::list_of(&READ, system, &MayhemSchema, army, List::default)
}
