//! What an attack reports: its effects for the game and its JSON fields.

use crate::answer::resolution::{Target, Tone};
use crate::saber::crt::Side;
use crate::saber::game::SaberEffect;
use crate::saber::results::{Ctx, Moved, Who, idx};

use super::before::Before;
use super::setup::Setup;
use crate::saber::Resolution;

/// What the results do to the units named, for the game: the checks
/// before the combat, then the results, each on the primary unit or on
/// every unit of its side. What the owning player still chooses is not
/// recorded: a note says how to record it.
pub(super) fn game_effects(
    setup: &Setup,
    before: &Before,
    ctx: &Ctx,
    swapped: bool,
    res: &mut Resolution,
) {
    let mut any_named = false;
    let all = before
        .game
        .iter()
        .map(|e| (e, false))
        .chain(ctx.game.iter().map(|e| (e, swapped)));
    for ((side, who, effect), flip) in all {
        let side = if flip { side.other() } else { *side };
        let (words, clause) = match side {
            Side::Attacker => (&setup.attacker, None),
            Side::Defender => (&setup.defender, Some(setup.vs_clause)),
        };
        let target = |nth: usize| Target::Side { clause, nth };
        match who {
            Who::Primary => {
                if let Some(p) = words.primary {
                    res.effect(target(p), effect.clone());
                }
            }
            Who::All => {
                // An HQ or the trains is unaffected by combat results
                // (12.1, 12.2).
                for (nth, u) in words.units.iter().enumerate().filter(|(_, u)| !u.base) {
                    let e = if u.combat {
                        Some(effect.clone())
                    } else {
                        effect.for_leader()
                    };
                    if let Some(e) = e {
                        res.effect(target(nth), e);
                    }
                }
            }
            Who::Combat => {
                for (nth, _) in words.units.iter().enumerate().filter(|(_, u)| u.combat) {
                    res.effect(target(nth), effect.clone());
                }
            }
        }
        any_named |= !words.units.is_empty();
    }
    // 7.5: the attacking units have had their attack this combat phase (a
    // QuickPlay counterattack is the other player's, in this phase).
    if !setup.attacker.counterattack {
        let routed = ctx.routed[idx(if swapped {
            Side::Attacker
        } else {
            Side::Defender
        })];
        for (nth, _) in setup
            .attacker
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.combat)
        {
            let target = Target::Side { clause: None, nth };
            res.effect(target, SaberEffect::Attacked);
            // The charge goes on only while the defenders rout (9.3 6).
            if setup.cavalry_charge() && routed {
                res.effect(target, SaberEffect::Charging);
            }
        }
    }
    any_named |= !setup.attacker.units.is_empty() || !setup.defender.units.is_empty();
    if ctx.choice && any_named {
        res.note("the game records only what the result imposes: once the owning player has chosen, record his choice with `choose UNIT… disruption`, `retreat`, `step-loss`, `retreat-disrupted` or `flip`");
    }
}

/// The JSON fields after the dice: the checks, the results, the tactics.
pub(super) fn fields(
    setup: &Setup,
    ctx: &Ctx,
    pre_checks: usize,
    crt: &str,
    swapped: bool,
    res: &mut Resolution,
) {
    if let Some(first) = ctx.checks.get(pre_checks) {
        res.field("check", first.json());
    }
    res.field(
        "checks",
        serde_json::Value::Array(ctx.checks.iter().map(|c| c.json()).collect()),
    );
    res.field("applied", ctx.applied.join(" "));
    res.field("effects", ctx.effects_json());
    if let Some(t) = setup.attacker.tactic {
        res.field("attacker_tactic", t.keyword());
    }
    if let Some(t) = setup.defender.tactic {
        res.field("defender_tactic", t.keyword());
    }
    if swapped {
        // The CRT was read with the countercharging defender as the
        // attacker (9.4): `attack`, `differential` and the codes are as
        // the table saw them; the effects name the original roles.
        res.field("resolved_as_attacker", "defender");
    }
    res.field("crt", crt.to_string());
}

/// The tone of an attack's outcome, from the original attacker's side
/// (`swapped`: the countercharging defender was resolved as the attacker).
pub(super) fn tone(ctx: &Ctx, swapped: bool) -> Tone {
    let (attacker, defender) = if swapped {
        (Side::Defender, Side::Attacker)
    } else {
        (Side::Attacker, Side::Defender)
    };
    if ctx.routed[idx(defender)] {
        Tone::Good
    } else if ctx.routed[idx(attacker)] || ctx.moved[idx(attacker)] == Moved::Yes {
        Tone::Bad
    } else {
        Tone::Neutral
    }
}
