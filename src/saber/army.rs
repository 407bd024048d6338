//! Musket & Saber army lists: `[[unit]]` (brigades, battalions, squadrons,
//! batteries) and `[[leader]]` entries, for both books.

use std::rc::Rc;

use toml::de::DeValue;

use crate::army::{ArmyList, Away, Checker, Entry, ListShelf, Member, Reader, Schema, Section};
use crate::command::System;

// A child of this module, to read its word lists where they are.
#[path = "army_doc.rs"]
mod doc;
use toml::Spanned;

/// A combat unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unit {
    pub id: String,
    pub(crate) name: String,
    /// The hex-game formation id (coordination, 7.14).
    pub formation: Option<String>,
    /// The combat factor; for artillery, its attack factor (8.1).
    pub cf: i64,
    /// The CF is printed in parentheses: halved when attacking (2.4).
    pub cf_parenthesized: bool,
    pub mr: i64,
    /// `None`: a variable movement allowance (4.4).
    pub ma: Option<i64>,
    /// The MA is printed in brackets: the unit cannot skirmish (2.4, 7.13 1).
    pub ma_bracketed: bool,
    pub steps: Option<i64>,
    /// infantry | battalion | cavalry | squadron | artillery
    pub kind: Option<String>,
    /// Cavalry's charge factor, used in lieu of its CF when it charges
    /// (9.3 4; QuickPlay 9.2 3).
    pub(crate) charge: Option<i64>,
    /// Artillery's defense factor, used when attacked by an adjacent
    /// enemy unit (8.1); a list that gives only `cf` means the same
    /// factor for both.
    pub(crate) defence: Option<i64>,
    /// Artillery's range factor: the farthest it may bombard (8.7).
    pub range: Option<i64>,
    /// The reverse, red-banded side of a two-step brigade (2.5).
    pub(crate) reduced: Option<Reduced>,
    /// Campaigns: a two-step brigade that lost a step in an earlier
    /// battle starts this one on its reduced side (`reduced = true`).
    pub(crate) starts_reduced: bool,
}

/// The factors printed on a two-step brigade's reduced side (2.5: "The
/// factors are generally weaker, but the degree of weakening varies from
/// unit to unit"); each one the list leaves out is the front side's.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Reduced {
    pub(crate) cf: Option<i64>,
    pub(crate) cf_parenthesized: bool,
    pub(crate) mr: Option<i64>,
    pub(crate) ma: Option<i64>,
    pub(crate) ma_bracketed: bool,
}

/// The factors of one side of a counter as they stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Face {
    pub cf: i64,
    pub(crate) cf_parenthesized: bool,
    pub(crate) mr: i64,
    /// `None`: variable (4.4).
    pub(crate) ma: Option<i64>,
    pub(crate) ma_bracketed: bool,
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
    pub(crate) fn word(self) -> &'static str {
        match self {
            UnitType::Infantry | UnitType::Battalion => "infantry",
            UnitType::Cavalry | UnitType::Squadron => "cavalry",
            UnitType::Artillery => "artillery",
        }
    }

    pub(crate) fn name(self) -> &'static str {
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
    pub(crate) fn may_be_ineffective(self) -> bool {
        self != UnitType::Infantry
    }
}

impl Face {
    /// The CF as printed: `5` or `(5)`.
    pub(crate) fn cf_text(&self) -> String {
        if self.cf_parenthesized {
            format!("({})", self.cf)
        } else {
            self.cf.to_string()
        }
    }

    /// The MA as printed: `5`, `V`, `[5]` or `[V]`.
    pub(crate) fn ma_text(&self) -> String {
        let body = self.ma.map_or("V".to_string(), |m| m.to_string());
        if self.ma_bracketed {
            format!("[{body}]")
        } else {
            body
        }
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
    pub(crate) fn steps(&self) -> u32 {
        self.steps.map_or(1, |s| s.clamp(1, 2) as u32)
    }

    /// The factors of the side showing: the reduced side's once a
    /// two-step brigade has lost a step (2.5), where the list gives them.
    pub fn face(&self, reduced: bool) -> Face {
        let front = Face {
            cf: self.cf,
            cf_parenthesized: self.cf_parenthesized,
            mr: self.mr,
            ma: self.ma,
            ma_bracketed: self.ma_bracketed,
        };
        match (&self.reduced, reduced) {
            (Some(r), true) => Face {
                cf: r.cf.unwrap_or(front.cf),
                cf_parenthesized: if r.cf.is_some() {
                    r.cf_parenthesized
                } else {
                    front.cf_parenthesized
                },
                mr: r.mr.unwrap_or(front.mr),
                ma: if r.ma.is_some() { r.ma } else { front.ma },
                ma_bracketed: if r.ma.is_some() {
                    r.ma_bracketed
                } else {
                    front.ma_bracketed
                },
            },
            _ => front,
        }
    }

    /// Artillery's defense factor (8.1): the list's, or its one CF.
    pub fn defence(&self) -> i64 {
        self.defence.unwrap_or(self.cf)
    }
}

/// A leader.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Leader {
    pub id: String,
    pub(crate) name: String,
    pub cf: Option<i64>,
    pub mr: Option<i64>,
    pub mv: Option<i64>,
    pub span: Option<i64>,
    /// The formation he belongs to (QuickPlay 10.0: his factors go to a
    /// unit of the same formation; "A", all of them).
    pub(crate) formation: Option<String>,
}

/// A headquarters counter (12.1) or the trains (12.2): no combat factor,
/// no morale; a printed MA.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Base {
    pub(crate) id: String,
    pub(crate) name: String,
    pub ma: Option<i64>,
}

/// One Musket & Saber list's entries.
#[derive(Debug, Clone, Default)]
pub struct List {
    pub units: Vec<Unit>,
    pub leaders: Vec<Leader>,
    /// The army's headquarters (standard 12.1).
    pub hq: Vec<Base>,
    /// The army's trains (standard 12.2).
    pub(crate) trains: Vec<Base>,
    /// Read under the QuickPlay rules, where every counter prints an MR.
    pub(crate) quickplay: bool,
    /// Units and leaders a campaign holds out of this battle (`gone`).
    pub(crate) away: Vec<Away>,
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
            .chain(self.hq.iter().map(|b| Member {
                id: &b.id,
                name: &b.name,
                kind: "hq",
            }))
            .chain(self.trains.iter().map(|b| Member {
                id: &b.id,
                name: &b.name,
                kind: "trains",
            }))
            .collect()
    }

    fn away(&self) -> Vec<Away> {
        self.away.clone()
    }
}

pub(crate) struct SaberSchema;

const UNIT_KEYS: &[&str] = &[
    "id",
    "name",
    "cf",
    "mr",
    "ma",
    "steps",
    "formation",
    "type",
    "charge",
    "attack",
    "defence",
    "range",
    "reduced_cf",
    "reduced_mr",
    "reduced_ma",
    "reduced",
    "gone",
];
const LEADER_KEYS: &[&str] = &["id", "name", "cf", "mr", "mv", "span", "formation", "gone"];
const BASE_KEYS: &[&str] = &["id", "name", "ma"];
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
    Section {
        name: "hq",
        keys: BASE_KEYS,
    },
    Section {
        name: "trains",
        keys: BASE_KEYS,
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
                let away = ck.away(e, "unit", id.as_deref(), name.as_deref());
                if let Some(u) = unit(ck, e, id, name, self.quickplay) {
                    match away {
                        Some(away) => self.away.push(away),
                        None => self.units.push(u),
                    }
                }
            }
            "leader" => {
                let away = ck.away(e, "leader", id.as_deref(), name.as_deref());
                if let Some(l) = leader(ck, e, id, name) {
                    match away {
                        Some(away) => self.away.push(away),
                        None => self.leaders.push(l),
                    }
                }
            }
            section => {
                if let Some(b) = base(ck, e, id, name) {
                    if section == "hq" {
                        self.hq.push(b);
                    } else {
                        self.trains.push(b);
                    }
                }
            }
        }
    }

    fn finish(self: Box<Self>) -> Rc<dyn ArmyList> {
        READ.with(|read| read.keep(*self))
    }
}

/// 2.4 prints a formation number ("its formation number", 11.2), "0"
/// for an independent unit or "A" for one of all formations: a number
/// that fits a fact, so a named unit's formation can be typed as well.
fn valid_formation_id(s: &str) -> bool {
    s == "A"
        || s.parse::<i64>()
            .is_ok_and(|n| (0..=FORMATION_MAX).contains(&n))
}

/// The largest formation number: nine digits, which any fact can carry.
pub(crate) const FORMATION_MAX: i64 = 999_999_999;

/// A factor as the counter prints it: `5`, or `"(5)"` in parentheses
/// (2.4: "A parenthesized CF is halved when attacking"). Returns the
/// factor and whether it is parenthesized.
fn factor(ck: &mut Checker, e: &Entry, key: &str, what: &str) -> Option<(i64, bool)> {
    let v = e.get(key)?;
    if let DeValue::String(s) = v.get_ref() {
        let inner = s
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .and_then(|d| d.parse::<i64>().ok())
            .filter(|n| (0..=30).contains(n));
        return match inner {
            Some(n) => Some((n, true)),
            None => {
                ck.type_error(
                    e,
                    key,
                    v,
                    &format!("{what}, a whole number from 0 to 30, or one in parentheses such as \"(4)\" when the counter prints it so"),
                );
                None
            }
        };
    }
    ck.int(e, key, 0, 30, what).map(|n| (n, false))
}

/// A movement allowance as the counter prints it: `5`, `"V"` (variable,
/// 4.4) or `"[5]"` (bracketed: the unit cannot skirmish, 2.4). Returns
/// `Some((None, _))` for V, and whether it is bracketed.
fn movement(ck: &mut Checker, e: &Entry, key: &str) -> Option<(Option<i64>, bool)> {
    let v = e.get(key)?;
    let expected = "the movement allowance, a whole number from 1 to 30, \"V\" for a variable one, or either in brackets (\"[5]\", \"[V]\") when the counter brackets it";
    if let DeValue::String(s) = v.get_ref() {
        let (body, bracketed) = match s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            Some(inner) => (inner, true),
            None => (s.as_ref(), false),
        };
        if body == "V" {
            return Some((None, bracketed));
        }
        return match body.parse::<i64>().ok().filter(|n| (1..=30).contains(n)) {
            Some(n) if bracketed => Some((Some(n), true)),
            _ => {
                ck.type_error(e, key, v, expected);
                None
            }
        };
    }
    ck.int(e, key, 1, 30, expected).map(|n| (Some(n), false))
}

/// Refuse `key` where the unit's type has no such factor.
/// `reduced = true`: a campaign's brigade that starts this battle on its
/// reduced side (2.5); only a two-step brigade, and not one gone for good.
fn starts_reduced(ck: &mut Checker, e: &Entry, steps: Option<i64>) -> bool {
    let starts_reduced = ck.boolean(e, "reduced").is_some_and(|b| *b.get_ref());
    if starts_reduced && steps != Some(2) {
        not_for(
            ck,
            e,
            "reduced",
            "only a two-step infantry brigade has a reduced side to start on (2.5); give `steps = 2`, or leave it out (a unit that lost its only step is gone)",
        );
    } else if starts_reduced && e.get("gone").is_some() {
        not_for(
            ck,
            e,
            "reduced",
            "a unit gone for good starts no battle, on either side; keep `gone` or `reduced`, not both",
        );
    }
    starts_reduced
}

fn not_for(ck: &mut Checker, e: &Entry, key: &str, why: &str) {
    if let Some(v) = e.get(key) {
        ck.fail(v.span(), e.key(key), format!("{}: {why}", e.place(key)));
    }
}

/// The combat factor, or artillery's attack, defense and range factors
/// (8.1: "Instead of one combat factor, they have two: attack and
/// defense"); a list may give them, or (as before) one `cf` for both.
/// Returns the CF (the attack factor for artillery) and whether it is
/// parenthesized, the defense and the range factors.
fn combat_factors(
    ck: &mut Checker,
    e: &Entry,
    artillery: bool,
) -> (Option<(i64, bool)>, Option<i64>, Option<i64>) {
    let mut cf = factor(ck, e, "cf", "the combat factor");
    let attack = ck.int(e, "attack", 0, 30, "the attack factor");
    let defence = ck.int(e, "defence", 0, 30, "the defense factor");
    let range = ck.int(e, "range", 0, 20, "the range factor, in hexes");
    if artillery {
        match (e.get("cf"), e.get("attack")) {
            (Some(v), Some(_)) => ck.fail(
                v.span(),
                e.key("cf"),
                format!(
                    "{}: artillery has an attack and a defense factor instead of one combat factor (8.1), and `attack` gives it: leave `cf` out",
                    e.place("cf")
                ),
            ),
            (None, Some(_)) => cf = attack.map(|a| (a, false)),
            (None, None) => ck.missing(
                e,
                "attack",
                "the attack factor, a whole number from 0 to 30 (8.1), with `defence` and `range`; or one `cf` for both factors",
            ),
            (Some(_), None) => {}
        }
        if e.get("attack").is_some() && e.get("defence").is_none() {
            ck.missing(
                e,
                "defence",
                "the defense factor, a whole number from 0 to 30 (8.1: artillery has two combat factors, attack and defense)",
            );
        }
        if let (Some(v), Some((_, true))) = (e.get("cf"), cf) {
            ck.fail(
                v.span(),
                e.key("cf"),
                format!(
                    "{}: artillery has attack and defense factors (8.1), not a parenthesized CF",
                    e.place("cf")
                ),
            );
        }
    } else {
        if e.get("cf").is_none() {
            ck.missing(e, "cf", "the combat factor, a whole number from 0 to 30");
        }
        for key in ["attack", "defence", "range"] {
            not_for(
                ck,
                e,
                key,
                "only artillery has attack, defense and range factors (8.1); give the unit's combat factor as `cf`",
            );
        }
    }
    (cf, defence, range)
}

/// A two-step brigade's reduced side (2.5), as far as the list gives it.
fn reduced_side(ck: &mut Checker, e: &Entry, steps: Option<i64>) -> Option<Reduced> {
    // 2.5: the reverse of a two-step brigade; a one-step unit's reverse is
    // blank (infantry) or its ineffective side (2.6, 2.7).
    let reduced_cf = factor(ck, e, "reduced_cf", "the reduced side's combat factor");
    let reduced_mr = ck.int(e, "reduced_mr", 1, 6, "the reduced side's morale rating");
    let reduced_ma = match e.get("reduced_ma") {
        None => None,
        Some(_) => movement(ck, e, "reduced_ma"),
    };
    if steps != Some(2) {
        for key in ["reduced_cf", "reduced_mr", "reduced_ma"] {
            not_for(
                ck,
                e,
                key,
                "only a two-step infantry brigade has a reduced side (2.5); give `steps = 2`, or leave it out",
            );
        }
    }
    (reduced_cf.is_some() || reduced_mr.is_some() || reduced_ma.is_some()).then(|| Reduced {
        cf: reduced_cf.map(|f| f.0),
        cf_parenthesized: reduced_cf.is_some_and(|f| f.1),
        mr: reduced_mr,
        ma: reduced_ma.and_then(|m| m.0),
        ma_bracketed: reduced_ma.is_some_and(|m| m.1),
    })
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
    let artillery = kind_word == Some("artillery");
    let cavalry = matches!(kind_word, Some("cavalry" | "squadron"));

    let (cf, defence, range) = combat_factors(ck, e, artillery);
    let charge = ck.int(e, "charge", 0, 30, "the charge factor");
    if !cavalry {
        not_for(
            ck,
            e,
            "charge",
            "only cavalry has a charge factor (9.3 4: \"use the cavalry's charge factor in lieu of its CF\"); an infantry charge uses the CF (7.13 3)",
        );
    }
    let mut mr = ck.int(e, "mr", 1, 6, "the morale rating");
    let standard_artillery = artillery && !quickplay;
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
        None if artillery => ck.missing(
            e,
            "mr",
            "the morale rating printed on the counter, a whole number from 1 to 6 (QuickPlay 2.3: every unit has one)",
        ),
        None => ck.missing(e, "mr", "the morale rating, a whole number from 1 to 6"),
    }
    // No `ma` is a variable movement allowance (4.4).
    let ma = match e.get("ma") {
        None => Some((None, false)),
        Some(_) => movement(ck, e, "ma"),
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
    let reduced = reduced_side(ck, e, steps);
    let starts_reduced = starts_reduced(ck, e, steps);
    let formation = formation(ck, e);
    let (cf, cf_parenthesized) = cf?;
    let (ma, ma_bracketed) = ma?;
    Some(Unit {
        id: id?,
        name: name?,
        formation,
        cf,
        cf_parenthesized,
        mr: mr?,
        ma,
        ma_bracketed,
        steps,
        kind: kind.map(Spanned::into_inner),
        charge,
        defence: if artillery { defence } else { None },
        range,
        reduced,
        starts_reduced,
    })
}

/// A formation (2.4): its number, bare or quoted ("0" independent), or
/// "A" for all formations.
fn formation(ck: &mut Checker, e: &Entry) -> Option<String> {
    const WHAT: &str = "a formation number (\"0\" independent) or \"A\" (all)";
    let v = e.get("formation")?;
    match v.get_ref() {
        DeValue::String(s) if valid_formation_id(s) => Some(s.to_string()),
        DeValue::Integer(_) => ck
            .int(e, "formation", 0, FORMATION_MAX, WHAT)
            .map(|n| n.to_string()),
        _ => {
            ck.type_error(e, "formation", v, &format!("{WHAT}, such as 1 or \"A\""));
            None
        }
    }
}

/// An HQ (12.1) or the trains (12.2).
fn base(ck: &mut Checker, e: &mut Entry, id: Option<String>, name: Option<String>) -> Option<Base> {
    let ma = ck.int(e, "ma", 1, 30, "the printed movement allowance");
    Some(Base {
        id: id?,
        name: name?,
        ma,
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
    let formation = formation(ck, e);
    Some(Leader {
        id: id?,
        name: name?,
        cf,
        mr,
        mv,
        span,
        formation,
    })
}

thread_local! {
    /// The lists this system's reader made (see [`ListShelf`]).
    static READ: ListShelf<List> = const { ListShelf::new() };
}

/// A loaded list in this system's own types, for its part of a game: the
/// list as it was read when it loaded.
pub fn read(army: &crate::army::Army) -> Option<Rc<List>> {
    use crate::system::RuleSystem;
    let system = (super::SYSTEM.name(), super::SYSTEM.books());
    crate::army::list_of(&READ, system, &SaberSchema, army, || List {
        quickplay: army.rules == super::QUICKPLAY,
        ..List::default()
    })
}
