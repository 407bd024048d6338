//! The rules that look at how the combat ended.

use crate::dice::DiceSource;
use crate::error::CommandError;
use crate::saber::Variant;
use crate::saber::crt::{Code, Side};
use crate::saber::game::SaberEffect;
use crate::saber::results::{Ctx, Moved, Who, idx};
use crate::saber::tactics::Tactic;

use super::before::Before;
use super::setup::Setup;
use super::side::SideWords;
use super::{quickplay_charge, standard_cavalry_square};
use crate::saber::Resolution;

/// The rules that look at how the combat ended.
pub(super) fn after_combat(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    ctx: &mut Ctx,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
) -> Result<(), CommandError> {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let d_routed = ctx.routed[idx(Side::Defender)];
    if standard_cavalry_square(variant, setup, before) && !d_routed {
        res.note("the square did not rout: treat the result as an Ax (9.5)");
        ctx.clear_results();
        ctx.apply(res, dice, Code::Ax, None)?;
    }
    if quickplay_charge(variant, setup) {
        if d_routed {
            ctx.step_loss(
                Side::Defender,
                "cavalry charge: the defender routs, so it also suffers a step loss (9.2 4)",
            );
        } else {
            res.note("no defender rout: treat the result as Am (Ar) (9.2 4)");
            ctx.clear_results();
            ctx.apply(res, dice, Code::Am, Some(Code::Ar))?;
        }
    }
    if setup.cavalry_charge() && setup.countercharge() && variant == Variant::Standard {
        let a_routed = ctx.routed[idx(Side::Attacker)];
        if !d_routed && !a_routed {
            res.note("countercharge against charging cavalry: neither side routs, so both sides must retreat and are disrupted; the attacker first (9.4)");
            ctx.clear_results();
            ctx.retreat_disrupted(
                Side::Attacker,
                "countercharge: the attacker must retreat and is disrupted",
            );
            ctx.retreat_disrupted(
                Side::Defender,
                "countercharge: the defender must retreat and is disrupted",
            );
        }
    }
    if a_tactic == Some(Tactic::PressForward) && !ctx.routed[idx(Side::Defender)] {
        if no_second_step(&setup.attacker, ctx.steps_lost[idx(Side::Attacker)]) {
            ctx.effect(
                Some(Side::Defender),
                "fow",
                "press forward: the defender did not rout, but no second step is present to be lost, so the defending player receives a fortune of war (7.11, 7.13 2; 12.4)",
            );
        } else if ctx.steps_lost[idx(Side::Attacker)] == 0 {
            ctx.step_loss(
                Side::Attacker,
                "press forward: the defender did not rout, so the attacker loses one step (7.13 2); the CRT took none, so this is its first step loss, not a second, and is taken even from a one-step unit (7.11)",
            );
        } else {
            ctx.step_loss(
                Side::Attacker,
                "press forward: the defender did not rout, so the attacker loses one step in addition to any other result (7.13 2)",
            );
        }
    }
    if d_tactic == Some(Tactic::LastStand) {
        last_stand(setup, ctx);
    }
    let rules = ctx.rules;
    if setup.night
        && let Some(text) = &rules.combat.night
        && !ctx.routed[idx(Side::Defender)]
    {
        ctx.retreat_disrupted(
            Side::Attacker,
            format_args!("night: the defender did not rout: {text}"),
        );
    }
    Ok(())
}

/// 7.11: "Certain choices of tactics (7.13) may inflict a second step
/// loss. ... If no second step is present to be lost, the opposing player
/// receives an FOW." The tactic's loss is "in addition to any other
/// result from the CRT" (7.13 2, 7.13 5): it is a second step loss only
/// after a step the CRT took, and then a side of one step (a one-step
/// unit, a reduced brigade), or one whose steps the CRT took, has no
/// second step to lose. After none, the tactic's loss is the side's
/// first, and is taken, a one-step unit's too (7.11: "Step losses always
/// come from the primary unit"). Judged only when every factor is a named
/// unit's: a typed factor's steps are not known.
pub(super) fn no_second_step(side: &SideWords, lost: u32) -> bool {
    if lost == 0 {
        return false;
    }
    let mut present = 0u32;
    for f in &side.factors {
        let Some(unit) = side.units.iter().find(|u| u.combat && u.span == f.span) else {
            return false;
        };
        let one = [
            crate::saber::game::ONE_STEP,
            "reduced",
            "cavalry",
            "artillery",
            crate::saber::stack::BATTALION,
            crate::saber::stack::SQUADRON,
        ]
        .iter()
        .any(|w| unit.has(w));
        present += if one { 1 } else { 2 };
    }
    present < 2 || lost >= present
}

/// What the players must remember after the combat.
pub(super) fn closing_notes(variant: Variant, setup: &Setup, ctx: &Ctx, res: &mut Resolution) {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    if a_tactic == Some(Tactic::Disengage) || d_tactic == Some(Tactic::Disengage) {
        res.note("disengaging leaders, cavalry, artillery, battalions or squadrons are not flipped to their ineffective sides (7.13 4)");
    }
    if a_tactic == Some(Tactic::Skirmish) {
        res.note("skirmishing counts as an attack for the purposes of 7.2");
    }
    if setup.cavalry_charge() {
        if ctx.routed[idx(Side::Defender)] {
            res.note(match variant {
                Variant::Standard => "the defender routs: the cavalry may advance up to three hexes and conduct another charge, or attempt to capture the routed defender (`capture CF`) (9.3 6–7)",
                Variant::QuickPlay => "the defender routs: if still effective, the cavalry may advance zero, one or two hexes and conduct another charge (9.2 5)",
            });
        }
        res.note(match variant {
            Variant::Standard => "cavalry always becomes ineffective at the end of a charge (9.3 8)",
            Variant::QuickPlay => "the charging cavalry is ineffective at the end of a charge unless already ineffective (9.2 6)",
        });
    }
}

/// Standard 7.13 5: a last stand costs the defender a step if the
/// attacker does not retreat; the attacker's choice, if it has one,
/// settles it later.
fn last_stand(setup: &Setup, ctx: &mut Ctx) {
    match ctx.moved[idx(Side::Attacker)] {
        Moved::No if no_second_step(&setup.defender, ctx.steps_lost[idx(Side::Defender)]) => {
            ctx.effect(
                Some(Side::Attacker),
                "fow",
                "last stand: the attacker did not retreat, but no second step is present to be lost, so the attacking player receives a fortune of war (7.11, 7.13 5; 12.4)",
            )
        }
        Moved::No if ctx.steps_lost[idx(Side::Defender)] == 0 => ctx.step_loss(
            Side::Defender,
            "last stand: the attacker did not retreat, so the defender loses one step (7.13 5); the CRT took none, so this is its first step loss, not a second, and is taken even from a one-step unit (7.11)",
        ),
        Moved::No => ctx.step_loss(
            Side::Defender,
            "last stand: the attacker did not retreat, so the defender loses one step in addition to any other result (7.13 5)",
        ),
        Moved::Choice => {
            ctx.step_loss_if(
                Side::Defender,
                "last stand: if the attacker does not retreat, the defender loses one step in addition to any other result (7.13 5)",
            );
            // The attacker's choice, made later with `choose`, settles
            // it: the game keeps whom the step would fall on.
            if let Some(defender) = setup
                .defender
                .primary
                .and_then(|p| setup.defender.units.get(p))
            {
                ctx.game(
                    Side::Attacker,
                    Who::Primary,
                    SaberEffect::LastStandOwed {
                        defender: defender.id.clone(),
                    },
                );
            }
        }
        Moved::Yes => {}
    }
}
