//! The units and leaders named on one side, each with its own facts.
//!
//! A Musket & Saber side is a primary unit (whose MR and state are the
//! side's, 7.4, 7.5) with the units and leaders stacked or fighting beside
//! it. Binding merges the facts of every unit named on a side into one
//! set, the first unit's word winning, which is the side as its primary
//! unit has it once the other combat units' words are left out; what each
//! other unit is (its type, its disruption) and what each leader brings
//! comes from its own facts (`Input::named`), never from the merged set,
//! where a second unit's word is lost when the first brought it too.

use std::borrow::Cow;

use crate::bind::{Bound, UnitFact};
use crate::catalog::{Input, Named as CatalogNamed, OVERRIDE, Said, stated_row};
use crate::command::Span;
use crate::error::{BindError, CommandError, ErrorKind};

use super::Variant;

/// A unit or leader named on one side, in the order named.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Named {
    pub(crate) id: String,
    /// Where its id stands in the line.
    pub(crate) span: Span,
    /// A combat unit, not a leader: it brings a combat factor (every
    /// combat unit's counter prints one; a leader's CF is `leader-cf`).
    pub(crate) combat: bool,
    /// An HQ or the trains (12.1, 12.2): neither a combat unit nor a
    /// leader, and unaffected by combat results.
    pub(crate) base: bool,
    /// Every fact it brings, whatever the verb reads.
    facts: Vec<UnitFact>,
}

impl Named {
    /// Whether it brings the word.
    pub(crate) fn has(&self, word: &str) -> bool {
        self.facts.iter().any(|f| f.word == word)
    }

    /// The value of a numeric fact it brings (`cf`, `leader-cf`).
    pub(crate) fn value(&self, word: &str) -> Option<i64> {
        self.facts
            .iter()
            .find(|f| f.word == word)
            .and_then(|f| f.value)
    }

    /// Disrupted, or (where the table says an ineffective unit operates
    /// as a disrupted one, QuickPlay 11.3) ineffective.
    pub(crate) fn as_disrupted(&self, ineffective_too: bool) -> bool {
        self.has("disrupted") || (ineffective_too && self.has("ineffective"))
    }

    pub(crate) fn refuse(&self, kind: ErrorKind, why: impl Into<String>) -> CommandError {
        BindError::NotHere {
            span: self.span,
            text: self.id.clone(),
            why: why.into(),
            kind,
        }
        .into()
    }
}

/// The units and leaders named on one side (`None`: the acting side;
/// `Some(i)`: the i-th clause), in the order named: the order of
/// `Target::Side`'s `nth`. A unit named twice on the line is refused: it
/// would count twice.
pub(crate) fn side(input: &Input, clause: Option<usize>) -> Result<Vec<Named>, CommandError> {
    let mut units = Vec::new();
    for n in input.named_on(clause) {
        let unit = Named {
            id: n.facts.id.clone(),
            span: n.span,
            combat: n.facts.value("cf").is_some(),
            base: base_of(n).is_some(),
            facts: n.facts.facts.clone(),
        };
        if input
            .named
            .iter()
            .take_while(|m| m.span != n.span)
            .any(|m| m.facts.id == n.facts.id)
        {
            return Err(unit.refuse(
                ErrorKind::RepeatedWord,
                "is named twice on the line: name each unit once",
            ));
        }
        units.push(unit);
    }
    Ok(units)
}

/// The first combat unit named: the primary unit of its side.
pub(crate) fn primary(units: &[Named]) -> Option<usize> {
    units.iter().position(|u| u.combat)
}

/// Standard 7.4: "The primary defender cannot be an Ineffective unit
/// unless nothing else is available"; 7.5: the primary attacker "cannot
/// be an Ineffective unit or an artillery unit unless nothing else is
/// available". The first combat unit named is the primary: when it is one
/// of those and another named is not, the line is refused, naming the
/// unit to name first. QuickPlay sets no such rule.
pub(crate) fn eligible_primary(
    variant: Variant,
    units: &[Named],
    primary: Option<usize>,
    attacker: bool,
) -> Result<(), CommandError> {
    if variant != Variant::Standard {
        return Ok(());
    }
    let Some(first) = primary.and_then(|p| units.get(p)) else {
        return Ok(());
    };
    let barred = |u: &Named| u.has("ineffective") || (attacker && u.has("artillery"));
    if !barred(first) {
        return Ok(());
    }
    let Some(other) = units.iter().find(|u| u.combat && !barred(u)) else {
        return Ok(());
    };
    let (role, rule, what) = if attacker {
        (
            "attacker",
            "7.5",
            if first.has("ineffective") {
                "ineffective"
            } else {
                "artillery"
            },
        )
    } else {
        ("defender", "7.4", "ineffective")
    };
    Err(first.refuse(ErrorKind::MisplacedWord, format!(
        "is {what}, and the primary {role} (the first combat unit named) cannot be an {} unit unless nothing else is available ({rule}): name `{}` first",
        if what == "ineffective" { "Ineffective" } else { "artillery" },
        other.id
    )))
}

/// The side's facts as its primary unit has them: the words typed, and
/// what the primary and the leaders brought; what other combat units
/// brought (their MR, their type, their state) is theirs, not the side's.
/// Binding adds each unit's facts in the order named, so the primary's
/// (the first combat unit's) are never displaced by another unit's. The
/// leaders' MR (`leader_mr`) is as the primary has it ([`assist_primary`]).
/// A side that names no unit is its words as typed.
pub(crate) fn primary_view<'a>(
    variant: Variant,
    bound: &'a Bound,
    units: &[Named],
    primary: Option<usize>,
    leader_mr: &str,
) -> Cow<'a, Bound> {
    let others = |span: Span| {
        units
            .iter()
            .enumerate()
            .any(|(i, u)| u.combat && Some(i) != primary && u.span == span)
    };
    let leaders_added = variant == Variant::Standard && leaders(units).nth(1).is_some();
    if !leaders_added && !bound.facts.iter().any(|f| f.implied && others(f.span)) {
        return Cow::Borrowed(bound);
    }
    let mut view = bound.clone();
    view.facts.retain(|f| !f.implied || !others(f.span));
    assist_primary(variant, &mut view, units, leader_mr);
    Cow::Owned(view)
}

/// The leaders named on a side, in the order named.
pub(crate) fn leaders(units: &[Named]) -> impl Iterator<Item = &Named> {
    units.iter().filter(|u| !u.combat && !u.base)
}

/// What every leader named on a side brings as `word`, added up; `None`
/// when none brings it.
pub(crate) fn leaders_sum(units: &[Named], word: &str) -> Option<i64> {
    leaders(units)
        .filter_map(|u| u.value(word))
        .reduce(i64::saturating_add)
}

/// The leaders' `word` (their MR) as the primary unit has it, in the
/// view: in the standard rules every leader named may assist the primary
/// (10.3: each assists one unit, and nothing limits the leaders a unit
/// has), so their values are added into the one fact binding kept (the
/// first leader's); in QuickPlay that is the first leader's alone (10.0
/// 2: "the leader's morale factor may be added to one unit"). A typed
/// word stands.
fn assist_primary(variant: Variant, view: &mut Bound, units: &[Named], word: &str) {
    if variant != Variant::Standard {
        return;
    }
    let sum = leaders_sum(units, word);
    if let Some(f) = view.facts.iter_mut().find(|f| f.name == word && f.implied) {
        f.value = sum.or(f.value);
    }
}

/// QuickPlay 10.0: "The factors of one leader may be applied to a unit":
/// a side of `units` units takes that many leaders, each with one unit,
/// the first with the primary. The standard rules let each leader assist
/// one unit (10.3) and set no limit to the leaders a unit has.
pub(crate) fn one_leader_per_unit(
    variant: Variant,
    units: &[Named],
    unit_count: usize,
) -> Result<(), CommandError> {
    if variant != Variant::QuickPlay {
        return Ok(());
    }
    same_formation(units)?;
    match leaders(units).nth(unit_count.max(1)) {
        Some(extra) => Err(extra.refuse(ErrorKind::ExtraWord, if unit_count <= 1 {
            "is a second leader for one unit: the factors of one leader may be applied to a unit (QuickPlay 10.0)".to_string()
        } else {
            format!(
                "is a leader beyond the side's {unit_count} units: the factors of one leader may be applied to a unit (QuickPlay 10.0), the first leader named with the primary unit, the next with the next unit"
            )
        })),
        None => Ok(()),
    }
}

/// A QuickPlay leader's formation words, for the verbs whose leaders go
/// with a unit (10.0): `attack` and `morale`.
pub(crate) fn leader_formation_words(
    v: crate::bind::Vocab,
    variant: Variant,
) -> crate::bind::Vocab {
    use super::words::{LEADER_ALL_FORMATIONS, LEADER_FORMATION};
    if variant != Variant::QuickPlay {
        return v;
    }
    v.number(
        LEADER_FORMATION,
        0,
        i64::MAX,
        "the leader's formation (10.0: his factors go to a unit of the same formation), brought by a named leader",
    )
    .flag(
        LEADER_ALL_FORMATIONS,
        "a leader of formation \"A\", whose factors go to a unit of any formation (10.0), brought by a named leader",
    )
}

/// QuickPlay 10.0: "The factors of one leader may be applied to a unit in
/// his hex if the unit belongs to the same formation. A formation of "A"
/// indicates all formations in that army." The first leader named goes
/// with the primary unit, the next with the next unit; where both lists
/// give a formation, they must agree.
fn same_formation(units: &[Named]) -> Result<(), CommandError> {
    use super::words::{ALL_FORMATIONS, FORMATION, LEADER_ALL_FORMATIONS, LEADER_FORMATION};
    let combat = units.iter().filter(|u| u.combat);
    for (leader, unit) in leaders(units).zip(combat) {
        let (Some(his), Some(its)) = (leader.value(LEADER_FORMATION), unit.value(FORMATION)) else {
            continue;
        };
        if his == its || leader.has(LEADER_ALL_FORMATIONS) || unit.has(ALL_FORMATIONS) {
            continue;
        }
        return Err(leader.refuse(ErrorKind::NotApplicable, format!(
            "is of formation {his}, and `{}` of formation {its}: \"the factors of one leader may be applied to a unit in his hex if the unit belongs to the same formation\" (QuickPlay 10.0); name a leader of its formation (or of \"A\", all formations) with it, or none",
            unit.id
        )));
    }
    Ok(())
}

pub(crate) use super::words::printed;

/// The arms a unit brings as words.
const ARMS: [&str; 3] = ["infantry", "cavalry", "artillery"];
/// The words of a unit's state, which the game keeps.
const STATES: [&str; 9] = [
    "disrupted",
    "ineffective",
    "reduced",
    "eliminated",
    "destroyed",
    "casualty",
    super::words::ATTACKED,
    super::words::CHARGING,
    super::words::LAST_STAND_OWED,
];

/// What `override` does in Musket & Saber, for `help`.
pub(crate) const OVERRIDE_HELP: &str = "the typed words of this side win over what its named primary unit's list prints (its type, its MA) and the state the game keeps (disrupted, ineffective, reduced…): without it, a typed word that contradicts them is refused; where no game is kept (no --game FILE), a state typed beside a unit stands as stated";

/// Refuse a word typed on a side that contradicts what the side's primary
/// unit (the first combat unit named, or the first leader where no combat
/// unit is) is: its arm or its MA as its list prints them, or its state
/// as the game keeps it (`--game FILE`). Where no game keeps it, a state
/// typed stands as stated, unless the list makes it impossible (a
/// one-step unit reduced). `override` on the side lets the typed words
/// win on purpose. A number typed beside a unit (`mr=N`, `def-mr=N`,
/// `leader-cf=N`) is not refused: it is the way to state another value
/// deliberately, and the resolution shows it. What was typed over or
/// stated, as rows to show.
pub(crate) fn contradictions(input: &Input) -> Result<Said, CommandError> {
    bases(input)?;
    let sides = std::iter::once((None, &input.words)).chain(
        input
            .clauses
            .iter()
            .enumerate()
            .map(|(i, (_, _, bound))| (Some(i), bound)),
    );
    let mut said = Said::default();
    for (clause, bound) in sides {
        // The primary unit; on a side that names only leaders, the first
        // leader, whose state the words then say.
        let Some(unit) = input
            .named_on(clause)
            .find(|n| n.facts.value("cf").is_some())
            .or_else(|| input.named_on(clause).next())
        else {
            continue;
        };
        let overriding = bound.has(OVERRIDE);
        for typed in bound.facts.iter().filter(|f| !f.implied) {
            let word = typed.name.as_str();
            let Some(why) = contradiction(input, unit, word, &mut said) else {
                continue;
            };
            if overriding {
                said.overridden
                    .push(format!("`{word}` typed; `{}`: {why}", unit.facts.id));
                continue;
            }
            return Err(BindError::NotHere {
                kind: ErrorKind::Contradiction,
                span: typed.span,
                text: word.to_string(),
                why: format!(
                    "contradicts `{}`: {why}: leave `{word}` out, or, to resolve it as typed on purpose, add `{OVERRIDE}` on this side",
                    unit.facts.id
                ),
            }
            .into());
        }
    }
    Ok(said)
}

/// Why one typed word contradicts the primary unit, if it does; a state
/// no game keeps is noted as stated instead.
fn contradiction(
    input: &Input,
    unit: &CatalogNamed,
    word: &str,
    said: &mut Said,
) -> Option<String> {
    let facts = &unit.facts;
    let has = |w: &str| facts.facts.iter().any(|f| f.word == w);
    if ARMS.contains(&word) {
        return ARMS
            .into_iter()
            .find(|a| has(a) && *a != word)
            .map(|arm| format!("its list makes it {arm} (`type` in its [[unit]])"));
    }
    if word == "v" {
        return facts
            .value("ma")
            .map(|ma| format!("its list prints an MA of {ma}, not a variable one (4.4)"));
    }
    if !STATES.contains(&word) || has(word) {
        return None;
    }
    if input.kept {
        return Some(state_contradiction(word));
    }
    if !unit.possible.is_empty() && !unit.possible.iter().any(|w| w == word) {
        return Some(format!(
            "its list never lets it be `{word}` (`show` gives its counter)"
        ));
    }
    said.stated.push(stated_row(word, &facts.id, "its state"));
    None
}

/// Why a state word typed for a unit that is not in that state is refused
/// in a kept game: the game keeps the state.
fn state_contradiction(word: &str) -> String {
    format!(
        "the game does not record it as `{word}` (`show` gives its state; record first what made it so: the result's `choose`, or `undo` of a line that recorded otherwise)"
    )
}

/// The words of an HQ (standard 12.1) and the trains (12.2), each with what
/// the rule does when it is attacked.
pub(crate) const BASES: [(&str, &str); 2] = [
    (
        "hq",
        "is the army's headquarters (12.1): it has a combat strength of zero, and no combat is resolved against it on the CRT: if attacked, it may not retreat or disengage and is unaffected by combat results, but each time it is attacked the enemy receives two fortunes of war; unstacked and attacked in close combat, no die roll is needed: the attacker may advance into the hex, capturing it. Resolve the combat against the units stacked with it, if any",
    ),
    (
        "trains",
        "is the army's trains (12.2): it has no combat factor, and no combat is resolved against it on the CRT: if attacked, it ignores all combat results, but the attacker receives two fortunes of war each time it is attacked; an enemy unit may enter its hex during movement or after combat, capturing it. Resolve the combat against the units stacked with it, if any",
    ),
];

/// What happens when an HQ or the trains is attacked with no combat unit
/// stacked with it: no combat is resolved (12.1, 12.2).
pub(crate) const UNSTACKED: [(&str, &str); 2] = [
    (
        "hq",
        "no die roll is needed: the HQ, unstacked and attacked in close combat, has a combat strength of zero and is unaffected by combat results; the attacker may advance into the hex, capturing the HQ: it is out of the game for good (12.1)",
    ),
    (
        "trains",
        "no combat is resolved: the trains have no combat factor and ignore all combat results; an enemy unit may enter its hex, capturing the trains: it is out of the game for good (12.2)",
    ),
];

/// The two fortunes of war an attack on an HQ or the trains gives the
/// attacker, whatever else is in the hex (12.1, 12.2).
pub(crate) fn two_fow(base: &str) -> &'static str {
    if base == "hq" {
        "the attacker's player receives two fortunes of war: each time the HQ is attacked, even with other units in the hex, the enemy player receives two (12.1, 12.4)"
    } else {
        "the attacker's player receives two fortunes of war: the attacker receives two FOW each time the trains are attacked (12.2, 12.4)"
    }
}

/// Whether a named unit is an HQ or the trains, and which.
pub(crate) fn base_of(n: &CatalogNamed) -> Option<&'static str> {
    BASES
        .iter()
        .map(|(w, _)| *w)
        .find(|w| n.facts.facts.iter().any(|f| f.word == *w))
}

/// The HQ or trains a standard attack's defender names or says: the
/// attack is on it (12.1, 12.2), with what stands with it if anything.
pub(crate) fn defender_base(input: &Input) -> Option<&'static str> {
    if input.command.verb != "attack" || Variant::of(input.system) != Variant::Standard {
        return None;
    }
    let clause = input
        .clauses
        .iter()
        .position(|(k, _, _)| *k == crate::command::ClauseKind::Vs)?;
    input.named_on(Some(clause)).find_map(base_of).or_else(|| {
        let words = &input.clauses[clause].2;
        BASES.iter().map(|(w, _)| *w).find(|w| words.has(w))
    })
}

/// An HQ or trains named or said is refused in every verb, with what the
/// rule does instead: but it moves (`ma`), and a standard attack may be
/// made on it.
fn bases(input: &Input) -> Result<(), CommandError> {
    // They move: `ma` gives their movement allowance (12.1, 12.2).
    if input.command.verb == "ma" {
        return Ok(());
    }
    let attacked = defender_base(input).is_some();
    for (word, why) in BASES {
        let on_the_defender = |clause: Option<usize>| attacked && clause.is_some();
        if let Some(n) = input
            .named
            .iter()
            .find(|n| n.facts.facts.iter().any(|f| f.word == word) && !on_the_defender(n.clause))
        {
            return Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span: n.span,
                text: n.facts.id.clone(),
                why: why.into(),
            }
            .into());
        }
        let typed = if attacked {
            input.words.span_of(word)
        } else {
            std::iter::once(&input.words)
                .chain(input.clauses.iter().map(|(_, _, b)| b))
                .find_map(|b| b.span_of(word))
        };
        if let Some(span) = typed {
            return Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span,
                text: word.into(),
                why: why.into(),
            }
            .into());
        }
    }
    Ok(())
}
