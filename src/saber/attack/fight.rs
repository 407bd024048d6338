//! One way the dice fall: the totals, the CRT cell, its results.

use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::CommandError;
use crate::saber::crt::{Cell, Crt, CrtKind, Lookup, Side};
use crate::saber::game::SaberEffect;
use crate::saber::morale;
use crate::saber::results::{Ctx, Moved, SideInfo, Who, idx};
use crate::saber::tactics::{self, Plan, Tactic};
use crate::saber::{Tables, Variant};

use super::after::{after_combat, closing_notes};
use super::before::{Before, NoSlr, checks_before};
use super::report::{fields, game_effects, tone};
use super::setup::Setup;
use super::side::SideWords;
use super::totals::totals;
use super::{quickplay_charge, standard_cavalry_square};
use crate::saber::Resolution;

/// One way the dice fall: the checks before the combat, the totals, the
/// CRT cell, and its results as the tactics transform them.
pub(super) fn fight(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    setup: &Setup,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let crt = &tables.crt;
    let mut res = input.resolution("attack", setup.heading.clone());
    let mut sides = setup.sides.clone();
    let (checks, before) =
        checks_before(tables, variant, input, setup, &mut res, dice, &mut sides)?;
    if before.no_slr == NoSlr::Routed {
        return Ok(routed_before_combat(
            tables, variant, input, setup, &before, checks, sides, res,
        ));
    }

    // Countercharge against attackers that are not charging: the charging
    // cavalry is treated as the attacker (9.4).
    let swapped = setup.countercharge() && !setup.cavalry_charge();
    if swapped {
        sides.swap(0, 1);
        sides[0].label = "countercharging cavalry (the defender)";
        sides[1].label = "original attacker";
        res.note("countercharge against attackers not charging: treat the countercharging cavalry as the attacker and resolve per 9.3 (9.4)");
    }
    let (attack, defence) = totals(variant, rules, setup, &before, swapped, &sides, &mut res);

    let lookup = column(crt, attack, defence, &mut res);

    // The dice: the combat die, then the morale die when a result calls
    // for a check (thrown by the first check that reads it).
    let cell = crate::saber::results::roll_cell(&mut res, input, crt, &lookup, dice)?;
    let mut ctx = Ctx::new(rules, input, sides, &res);
    ctx.night = setup.night && rules.combat.night.is_some();
    ctx.swapped = swapped;
    ctx.checks = checks;
    let pre_checks = ctx.checks.len();
    if before.no_slr == NoSlr::Disrupted {
        ctx.effect(
            Some(Side::Defender),
            crate::saber::results::DISRUPTED_BEFORE_COMBAT,
            "7.3 2 — no safe line of retreat, check failed: the defender is disrupted (11.1) before the combat, which goes on",
        );
    }

    let plan = transform(variant, setup, &before, swapped, cell, &mut res);
    // A check with no MR stops the result at what the dice decided so far.
    let undecided = match carry_out(variant, setup, &before, &plan, &mut ctx, &mut res, dice) {
        Ok(()) => false,
        Err(e) => match ctx.needs_mr {
            Some((side, code)) => {
                ctx.undecided(side, code);
                true
            }
            None => return Err(e),
        },
    };
    closing_notes(variant, setup, &ctx, &mut res);
    // The extras apply in addition to any other result.
    ctx.extras(&cell.extras, false);
    // 12.1, 12.2: an attack on an HQ or the trains, whatever the result.
    if let Some(base) = setup.defender_base {
        let attacker = if swapped {
            Side::Defender
        } else {
            Side::Attacker
        };
        ctx.effect(
            Some(attacker),
            "two-fow",
            crate::saber::named::two_fow(base),
        );
    }
    charge_and_advance(variant, setup, swapped, undecided, &mut ctx, &mut res);
    if undecided {
        res.note("nothing is recorded in the game until the result is decided");
    } else if !res.quiet {
        game_effects(setup, &before, &ctx, swapped, &mut res);
    }

    // Output.
    ctx.morale_die_row(&mut res, undecided);
    if !res.quiet {
        fields(setup, &ctx, pre_checks, &crt.name, swapped, &mut res);
        no_slr_field(&before, &mut res);
    }
    if crt.file.ends_with("(embedded)") {
        res.standing_note(crate::saber::crt::EXAMPLE);
    }
    ctx.finish(&mut res, tone(&ctx, swapped));
    Ok(res)
}

/// Whether the charge goes on and who may advance, once the result is
/// known.
fn charge_and_advance(
    variant: Variant,
    setup: &Setup,
    swapped: bool,
    undecided: bool,
    ctx: &mut Ctx,
    res: &mut Resolution,
) {
    if setup.cavalry_charge() && !undecided {
        // The charge ends unless the defender routed and it charges again
        // (standard 9.3 6, 8; QuickPlay 9.2 5, 6): that is the player's call.
        if ctx.routed[idx(Side::Defender)] {
            ctx.choice = true;
        } else {
            ctx.game(Side::Attacker, Who::Combat, SaberEffect::Ineffective);
        }
    }
    if setup.attacker.artillery && setup.attacker.factors.len() == 1 && !swapped {
        ctx.no_advance();
        res.note("the attacker is artillery: artillery may not advance after combat (standard 8.3, QuickPlay 8.1 4)");
    } else if !swapped && ctx.may_advance() && ctx.moved[idx(Side::Attacker)] != Moved::No {
        // Both disengaging (7.13 4: "it is possible both will retreat"),
        // both retreating disrupted (9.4): the attacker's own result
        // leaves it retreated or disrupted, and neither may advance (7.12).
        ctx.no_advance();
        res.note("no advance: the attacker's own result retreats it or disrupts it, and a retreating or disrupted unit may not advance (7.12)");
    } else if !swapped && ctx.may_advance() {
        no_advance_notes(variant, &setup.attacker, ctx, res);
    }
}

/// Standard 7.12: "Disrupted units, units with parenthesized CF,
/// artillery ... may not advance" (QuickPlay 7.9: "disrupted units,
/// artillery"): when no attacking unit may, the advance is not offered;
/// when some may not, a note names them.
pub(super) fn no_advance_notes(
    variant: Variant,
    a: &SideWords,
    ctx: &mut Ctx,
    res: &mut Resolution,
) {
    let rule = match variant {
        Variant::Standard => {
            "disrupted units, units with parenthesized CF and artillery may not advance (7.12, 11.1 3, 8.3)"
        }
        Variant::QuickPlay => "disrupted units and artillery may not advance (7.9, 11.1 5, 8.1 4)",
    };
    let barred: Vec<&str> = a
        .factors
        .iter()
        .zip(&a.no_advance)
        .filter(|(_, barred)| **barred)
        .map(|(f, _)| {
            a.units
                .iter()
                .find(|u| u.combat && u.span == f.span)
                .map_or(f.text.as_str(), |u| u.id.as_str())
        })
        .collect();
    if barred.is_empty() {
        return;
    }
    if barred.len() == a.factors.len() {
        ctx.no_advance();
        res.note(format_args!(
            "no advance: no attacking unit may advance, for {rule}"
        ));
    } else {
        res.note(format_args!(
            "{} may not advance: {rule}",
            barred.join(", ")
        ));
    }
}

/// Standard 7.3 2: a disrupted defender lacking a safe line of retreat
/// failed its check before the combat and routs, "the rout as the result
/// of combat": no tactics, no combat die, no morale die.
#[allow(clippy::too_many_arguments)]
pub(super) fn routed_before_combat(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    setup: &Setup,
    before: &Before,
    checks: Vec<morale::Check>,
    sides: [SideInfo; 2],
    mut res: Resolution,
) -> Resolution {
    let rules = variant.rules(tables);
    // No morale die is thrown: nothing after the rout reads one.
    let mut ctx = Ctx::new(rules, input, sides, &res);
    ctx.morale_may_be_thrown = false;
    ctx.night = setup.night && rules.combat.night.is_some();
    ctx.checks = checks;
    let pre_checks = ctx.checks.len();
    ctx.rout(
        Side::Defender,
        "7.3 2 — no safe line of retreat, already disrupted, check failed: the defender routs before the combat, the rout being the result of combat (no tactics, no CRT roll)",
    );
    if !res.quiet {
        res.row(
            "combat die",
            "not thrown: the rout is the result of combat (7.3 2)",
        );
        game_effects(setup, before, &ctx, false, &mut res);
        fields(setup, &ctx, pre_checks, &tables.crt.name, false, &mut res);
        no_slr_field(before, &mut res);
    }
    ctx.finish(&mut res, tone(&ctx, false));
    res
}

/// JSON `no_slr`: what standard 7.3 2's check decided, when it was made.
pub(super) fn no_slr_field(before: &Before, res: &mut Resolution) {
    if before.no_slr != NoSlr::NotMade {
        res.field("no_slr", before.no_slr.id());
    }
}

/// The result as the tactics transformed it, then the rules that look at
/// how the combat ended.
pub(super) fn carry_out(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    plan: &Plan,
    ctx: &mut Ctx,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
) -> Result<(), CommandError> {
    for (code, secondary) in plan {
        ctx.apply(res, dice, *code, *secondary)?;
    }
    after_combat(variant, setup, before, ctx, res, dice)
}

/// The CRT column the totals land in.
pub(super) fn column(crt: &Crt, attack: i64, defence: i64, res: &mut Resolution) -> Lookup {
    let lookup = match crt.kind {
        CrtKind::Differential => {
            let diff = attack - defence;
            res.score = Some(diff);
            res.row("differential", diff);
            if !res.quiet {
                res.field("differential", diff);
            }
            crt.differential_column(diff)
        }
        CrtKind::Ratio => {
            let l = crt.ratio_column(attack, defence);
            res.row("odds (rounded in the defender's favour)", l.actual);
            if !res.quiet {
                res.field("ratio", l.actual.to_string());
            }
            l
        }
    };
    crate::saber::results::show_column(res, crt, &lookup);
    if !res.quiet {
        res.field("attack", attack);
        res.field("defence", defence);
    }
    lookup
}

/// The CRT cell's result as the tactics transform it.
pub(super) fn transform(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    swapped: bool,
    cell: &Cell,
    res: &mut Resolution,
) -> Plan {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let mut plan: Plan = vec![(cell.primary, cell.secondary)];
    if a_tactic == Some(Tactic::Skirmish) {
        plan = vec![tactics::skirmish(cell.primary)];
        transformed(
            res,
            "skirmish: A or Ex → NE, Dx or Dm → Dr, secondary results ignored (7.13 1)",
            &plan,
        );
    }
    if before.pressed_home || (swapped && variant == Variant::Standard) {
        plan = vec![tactics::charge(cell.primary, cell.secondary)];
        transformed(
            res,
            "charge: A or Ex → Ax, D → Dm (Ax) (7.13 3, 9.3 5)",
            &plan,
        );
    }
    if standard_cavalry_square(variant, setup, before) {
        plan = plan
            .into_iter()
            .map(|(c, _)| tactics::square_standard(c))
            .collect();
        transformed(
            res,
            "square attacked by cavalry: Dr and Dx → Dm, secondary results ignored (9.5)",
            &plan,
        );
    }
    if quickplay_charge(variant, setup) {
        plan = tactics::quickplay_charge(cell.primary)
            .into_iter()
            .collect();
        transformed(res, "cavalry charge: Dr, Dc and Dx → Dm (9.2 4)", &plan);
    }
    let a_dis = a_tactic == Some(Tactic::Disengage);
    let d_dis = d_tactic == Some(Tactic::Disengage);
    if a_dis || d_dis {
        plan = plan
            .into_iter()
            .flat_map(|(c, s)| tactics::disengage(c, s, a_dis, d_dis))
            .collect();
        transformed(
            res,
            "disengage: the attacker's turns D, Ex, Ac into Ar; the defender's turns A, Ex, Dc into Dr (7.13 4)",
            &plan,
        );
    }
    plan
}

/// A transformation's row: the codes it leaves.
pub(super) fn transformed(res: &mut Resolution, label: &str, plan: &Plan) {
    if res.quiet {
        return;
    }
    let shown: Vec<String> = plan
        .iter()
        .map(|(c, s)| match s {
            Some(s) => format!("{c}({s})"),
            None => c.to_string(),
        })
        .collect();
    res.row(
        label,
        if shown.is_empty() {
            "—".to_string()
        } else {
            shown.join(" then ")
        },
    );
}
