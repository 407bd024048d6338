//! The facts a unit or general brings to a command: what it always brings,
//! and what the game's state adds (its strength, this turn, a lost general
//! of its side).

use super::DrumsGame;
use crate::catalog::UnitFact;
use crate::drums::army::{General, Unit};

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

impl DrumsGame<'_> {
    /// The facts a unit brings, as it stands.
    pub(super) fn unit_facts(&self, unit: &Unit) -> Vec<UnitFact> {
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

    /// What naming a general brings: he is a general (his arm on the
    /// movement and charge tables, and "For each general in line of
    /// command within 3BW" in a resilience test), his traits, and whether
    /// he is the force commander (read by `risk`, which takes a general
    /// whatever he brings: it has no word for being one).
    pub(super) fn general_facts(general: &General) -> Vec<UnitFact> {
        let mut facts = vec![UnitFact::word(crate::drums::named::GENERAL)];
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

    /// Every fact the unit may bring in some state of the game.
    pub(super) fn possible_unit_facts(&self, u: &Unit) -> Vec<UnitFact> {
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
