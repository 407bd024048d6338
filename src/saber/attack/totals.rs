//! Each side's total, the factors and what adds to them.

use crate::saber::factors;
use crate::saber::results::{SideInfo, modifier};
use crate::saber::tactics::Tactic;
use crate::saber::{SaberRules, Variant};

use super::before::Before;
use super::setup::Setup;
use super::side::SideWords;
use crate::saber::Resolution;

/// Standard 12.4: "the CF of all charging units (but not leaders) is doubled".
const FOW_CHARGE_MULTIPLIER: i64 = 2;
/// QuickPlay 7.2: "The combat factor of the counterattacking unit is doubled".
const COUNTERATTACK_MULTIPLIER: i64 = 2;
/// QuickPlay 9.3: "If the unit in square attacks, subtract 2 from its
/// combat factor."
const SQUARE_ATTACKING: i64 = 2;
/// Standard 8.8: "double the artillery's CF if any defending unit is
/// cavalry".
const SUPPORT_VS_CAVALRY: i64 = 2;

/// Each side's total: its factors, halved as they must be, and what the
/// leaders and tactics add.
pub(super) fn totals(
    variant: Variant,
    rules: &SaberRules,
    setup: &Setup,
    before: &Before,
    swapped: bool,
    sides: &[SideInfo; 2],
    res: &mut Resolution,
) -> (i64, i64) {
    let combat = &rules.combat;
    let (att, def) = if swapped {
        (&setup.defender, &setup.attacker)
    } else {
        (&setup.attacker, &setup.defender)
    };
    let a_tactic = setup.attacker.tactic;
    if a_tactic == Some(Tactic::Skirmish) {
        res.note("skirmish: the factors are the involved infantry units' MA (bracketed or V MA count as zero; artillery its defense factor, cavalry its combat factor)");
    }
    if !swapped && !res.quiet {
        coordination(setup, att, res);
    }
    let mut attack = 0;
    for (k, f) in att.factors.iter().enumerate() {
        let h = att.attack_halvings(k, before.attack_halvings);
        if att.disrupted_factor.get(k).copied().unwrap_or(false) {
            attack += factors::count_disrupted(res, sides[0].label, f, h, combat);
        } else {
            attack += factors::count(res, sides[0].label, f, h, combat);
        }
    }
    // The units' factors, without the leaders': what a doubling doubles.
    let unit_factors = attack;
    match att.accompanied_disrupted {
        0 => {}
        1 => res.row(
            "accompanied by a leader, the disrupted unit is not halved when attacking (10.0 3)",
            "not halved",
        ),
        _ => res.row(
            "accompanied each by a leader, the disrupted units are not halved when attacking (10.0 3)",
            "not halved",
        ),
    }
    if let Some(cf) = att.leader_cf {
        leader_modifier(res, sides[0].label, att.leaders, cf);
        attack += cf;
    }
    let mut defence = 0;
    for f in &def.factors {
        defence += factors::count(res, sides[1].label, f, f.halvings(false, 0), combat);
    }
    if let Some(cf) = def.leader_cf {
        leader_modifier(res, sides[1].label, def.leaders, cf);
        defence += cf;
    }
    attack += doublings(att, before, unit_factors, res);
    let (to_attack, to_defence) = support(variant, setup, swapped, sides, res);
    attack += to_attack;
    defence += to_defence;
    let (to_attack, to_defence) = tactic_modifiers(variant, rules, setup, before, att, sides, res);
    attack += to_attack;
    defence += to_defence;
    res.row(format_args!("{} total", sides[0].label), attack);
    res.row(format_args!("{} total", sides[1].label), defence);
    (attack, defence)
}

/// The rows coordination (7.14) decided, and its JSON field.
fn coordination(setup: &Setup, att: &SideWords, res: &mut Resolution) {
    for (label, value) in &setup.coordination_rows {
        res.row(label, value);
    }
    if let Some((_, last)) = setup.coordination_rows.last() {
        // "coordinated", or "halved" for an uncoordinated attack.
        let coordinated = last != "halved";
        let halved: Vec<serde_json::Value> = att
            .uncoordinated
            .iter()
            .zip(&att.factors)
            .filter(|(h, _)| **h)
            .map(|(_, f)| {
                let unit = att.units.iter().find(|u| u.combat && u.span == f.span);
                serde_json::Value::from(unit.map_or(f.text.as_str(), |u| u.id.as_str()))
            })
            .collect();
        res.field(
            "coordination",
            serde_json::json!({ "coordinated": coordinated, "halved": halved }),
        );
    }
}

/// What doubles the attacking units' factors, or takes from them: a
/// fortune-of-war charge, a counterattack, a square attacking.
fn doublings(att: &SideWords, before: &Before, unit_factors: i64, res: &mut Resolution) -> i64 {
    let mut attack = 0;
    // Standard 12.4: "If the primary unit passes its charge morale test,
    // the CF of all charging units (but not leaders) is doubled."
    if att.fow_charge && before.pressed_home {
        let extra = unit_factors.saturating_mul(FOW_CHARGE_MULTIPLIER - 1);
        modifier(
            res,
            "fortune-of-war charge pressed home: the CF of all charging units (but not leaders) is doubled (12.4)",
            extra,
        );
        attack += extra;
    }
    if att.counterattack {
        let extra = unit_factors.saturating_mul(COUNTERATTACK_MULTIPLIER - 1);
        modifier(
            res,
            "counterattack: the combat factor of the counterattacking unit is doubled (7.2)",
            extra,
        );
        attack += extra;
    }
    if att.in_square {
        // Not below zero: a factor is never negative.
        let cut = SQUARE_ATTACKING.min(unit_factors);
        modifier(
            res,
            "the attacking unit is in square: subtract 2 from its combat factor (9.3)",
            -cut,
        );
        attack -= cut;
    }
    attack
}

/// Supporting artillery, added to whichever side the CRT reads as the
/// original attacker: what it adds to the attack and to the defence.
fn support(
    variant: Variant,
    setup: &Setup,
    swapped: bool,
    sides: &[SideInfo; 2],
    res: &mut Resolution,
) -> (i64, i64) {
    let (mut attack, mut defence) = (0, 0);
    // Supporting artillery fights for the original attacker, whichever
    // side the CRT reads it as.
    if let Some((support, _)) = setup.attacker.support {
        let label = if swapped {
            sides[1].label
        } else {
            sides[0].label
        };
        let mut total = support;
        modifier(
            res,
            format_args!("{label}: supporting artillery (standard 8.8, QuickPlay 8.2)"),
            support,
        );
        if let Some(rule) = &setup.twilight_support {
            res.note(format_args!(
                "twilight: the supporting artillery must be in a hex adjacent to the defender: {rule}"
            ));
        }
        if variant == Variant::Standard && setup.defender.any_cavalry {
            let extra = support.saturating_mul(SUPPORT_VS_CAVALRY - 1);
            modifier(
                res,
                "supporting artillery: its CF is doubled, a defending unit being cavalry (8.8)",
                extra,
            );
            total += extra;
        }
        if swapped {
            defence += total;
        } else {
            attack += total;
        }
    }
    (attack, defence)
}

/// What the tactics, a square and cavalry against the disrupted add to
/// the attack and to the defence.
fn tactic_modifiers(
    variant: Variant,
    rules: &SaberRules,
    setup: &Setup,
    before: &Before,
    att: &SideWords,
    sides: &[SideInfo; 2],
    res: &mut Resolution,
) -> (i64, i64) {
    let combat = &rules.combat;
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let (mut attack, mut defence) = (0, 0);
    // Tactics that add to the factors.
    if a_tactic == Some(Tactic::PressForward)
        && let Some(row) = rules.tactic(Tactic::PressForward.keyword())
    {
        let v = row.value.unwrap_or(0);
        modifier(res, &row.row, v);
        attack += v;
    }
    if d_tactic == Some(Tactic::LastStand)
        && let Some(row) = rules.tactic(Tactic::LastStand.keyword())
    {
        let v = row.value.unwrap_or(0);
        modifier(res, &row.row, v);
        defence += v;
    }
    if variant == Variant::QuickPlay
        && before.in_square
        && let Some(row) = rules.tactic("square")
    {
        let v = row.value.unwrap_or(0);
        if setup.attacked_by_cavalry() {
            modifier(
                res,
                format_args!("{}: defender in square, attacked by cavalry", row.row),
                v,
            );
            defence += v;
        } else {
            // Bombarding artillery adds two as well (9.3).
            let n = att.factors.len() as i64 + i64::from(att.support.is_some());
            modifier(
                res,
                format_args!("{}: each attacking unit other than cavalry (×{n})", row.row),
                v * n,
            );
            attack += v * n;
        }
    }
    if let Some(text) = &combat.cavalry_vs_disrupted
        && setup.attacked_by_cavalry()
        && sides[1].disrupted
    {
        let doubled: i64 = att
            .factors
            .iter()
            .enumerate()
            .map(|(k, f)| {
                factors::halve(
                    f.printed,
                    att.attack_halvings(k, before.attack_halvings),
                    combat,
                )
            })
            .sum();
        modifier(res, text, doubled);
        attack += doubled;
    }
    (attack, defence)
}

/// The participating leaders' CF row of a side.
pub(super) fn leader_modifier(res: &mut Resolution, label: &str, leaders: usize, cf: i64) {
    if leaders > 1 {
        modifier(
            res,
            format_args!("{label}: the {leaders} participating leaders' CF (10.3)"),
            cf,
        );
    } else {
        modifier(
            res,
            format_args!("{label}: participating leader's CF (10.3)"),
            cf,
        );
    }
}
