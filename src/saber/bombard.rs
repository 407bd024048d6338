//! Bombardment (standard 8.5, QuickPlay 8.2): the artillery's attack total
//! is the differential, doubled against cavalry; bombarding artillery is
//! affected only by Ammo, so A results are ignored (and, in the standard
//! rules, parenthesized results too).

use std::rc::Rc;

use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::command::ClauseKind;
use crate::dice::DiceSource;
use crate::error::CommandError;
use crate::resolution::{Resolution, Tone};

use super::crt::{Code, CrtKind, Side};
use super::factors;
use super::morale;
use super::results::{Ctx, Moved, SideInfo, idx, modifier};
use super::{Tables, Variant};

pub fn verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
    let rules = variant.rules(t);
    let mut target = Vocab::new()
        .flag(
            "cavalry",
            format!(
                "the target is cavalry: the artillery's CF ×{}",
                rules.bombard.vs_cavalry_multiplier
            ),
        )
        .number(
            "mr",
            0,
            10,
            "the target unit's morale rating, for results that check morale",
        )
        .number("leader-mr", 0, 9, rules.morale.leader.clone());
    if let Some(art) = &rules.morale.artillery {
        target = target.flag("artillery", art.row.clone());
    }
    for adj in &rules.morale.adjustment {
        if adj.group.is_none() {
            target.add(
                adj.keyword.clone(),
                crate::bind::Kind::Flag,
                adj.row.clone(),
            );
        }
    }
    let attacker = Vocab::new()
        .with_notation("combat factors")
        .number_from("cf");
    VerbDoc::new(
        Some(variant.system()),
        "bombard",
        "bombard CF… [vs [cavalry] [mr=N] [disrupted] [square]]",
        "Bombardment: the artillery's attack total is the differential (doubled against cavalry); A results ignored. Dice: combat die, then morale die.",
        attacker,
        super::resolver(t, resolve),
    )
    .examples(&["bombard 4 vs mr=3", "bombard 3 2 vs cavalry mr=4 rolled 5 2"])
    .clause(ClauseKind::Vs, target, 1)
}

fn resolve(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let crt = &tables.crt;
    let table = &rules.bombard;
    let fs = factors::parse_all(&input.words.raw)?;
    if fs.is_empty() {
        return Err(input.missing(
            "`bombard` needs the bombarding artillery's attack factors, like `bombard 4 3`",
        ));
    }
    if crt.kind == CrtKind::Ratio {
        return Err(input.missing(format!(
            "bombardment uses the attack total as a differential, and the CRT \"{}\" has odds columns",
            crt.name
        )));
    }
    let empty = crate::bind::Bound::default();
    let target = input.clause(ClauseKind::Vs).unwrap_or(&empty);
    let cavalry = target.has("cavalry");
    let mut res = input.resolution(
        "bombard",
        format!("bombardment on the CRT \"{}\"", crt.name),
    );
    let mut total = 0;
    for f in &fs {
        total += factors::count(&mut res, "artillery", f, f.halvings(true, 0), &rules.combat);
    }
    if cavalry {
        let extra = total * (table.vs_cavalry_multiplier - 1);
        modifier(
            &mut res,
            format_args!(
                "target is cavalry: CF ×{} ({})",
                table.vs_cavalry_multiplier, table.rule
            ),
            extra,
        );
        total += extra;
    }
    if variant == Variant::QuickPlay
        && target.has("square")
        && let Some(row) = rules.tactic("square")
    {
        let v = row.value.unwrap_or(0) * fs.len() as i64;
        modifier(
            &mut res,
            format_args!("{}: bombarding artillery", row.row),
            v,
        );
        total += v;
    }
    res.score = Some(total);
    res.row("differential (the bombarding strength)", total);
    if !res.quiet {
        res.field("differential", total);
    }
    let lookup = crt.differential_column(total);
    super::results::show_column(&mut res, crt, &lookup);
    let cell = super::results::roll_cell(&mut res, input, crt, &lookup, dice)?;

    let mr = target
        .value("mr")
        .map(|v| (v, target.span_of("mr").unwrap_or_default()));
    let d_morale = if mr.is_some() || (rules.morale.artillery.is_some() && target.has("artillery"))
    {
        Some(morale::input_from(
            rules,
            target,
            None,
            mr,
            "leader-mr",
            false,
            || input.missing("a morale rating is needed"),
        )?)
    } else {
        None
    };
    let morale_die =
        dice.roll_against(rules.morale.die, &morale::cuts(&rules.morale, &d_morale))?;
    let sides = [
        SideInfo {
            label: "bombarding artillery",
            morale: None,
            missing_mr: "",
            disrupted: false,
            cavalry: false,
        },
        SideInfo {
            label: "target",
            morale: d_morale,
            missing_mr: "the target's morale rating is needed for this result: add `vs mr=N`",
            disrupted: target.has("disrupted"),
            cavalry,
        },
    ];
    let mut ctx = Ctx::new(rules, input, sides, morale_die, &res);
    let secondary = if table.ignore_secondary {
        if cell.secondary.is_some() {
            res.note("parenthesized results are ignored in a bombardment (8.5)");
        }
        None
    } else {
        cell.secondary.filter(|s| s.side() != Some(Side::Attacker))
    };
    match cell.primary.side() {
        Some(Side::Attacker) => {
            res.row("A result", "ignored");
            ctx.applied.push("NE");
            ctx.effect(
                None,
                "no-effect",
                format_args!(
                    "{} — A results are ignored: bombarding artillery is affected only by an Ammo result",
                    cell.primary
                ),
            );
        }
        _ if cell.primary == Code::Ex => {
            ctx.applied.push("Ex");
            ctx.step_loss(
                Side::Defender,
                format_args!(
                    "Ex — the primary unit of the target loses one step ({}); bombarding artillery is affected only by an Ammo result",
                    rules.results.step_loss
                ),
            );
        }
        _ => ctx.apply(&mut res, dice, cell.primary, secondary)?,
    }
    ctx.extras(&cell.extras, true);
    // Artillery may not advance after combat (8.3).
    ctx.no_advance();
    if !ctx.morale_die_used {
        res.die("morale die (not needed)", morale_die);
    }
    if !res.quiet {
        if let Some(first) = ctx.checks.first() {
            res.field("check", first.json());
        }
        res.field("applied", ctx.applied.join(" "));
        res.field("effects", ctx.effects_json());
        ctx.game_effects(&mut res);
        res.field("crt", crt.name.clone());
    }
    if crt.file.ends_with("(embedded)") {
        res.note(super::crt::EXAMPLE_NOTE);
    }
    let tone = if ctx.routed[idx(Side::Defender)] || ctx.moved[idx(Side::Defender)] != Moved::No {
        Tone::Good
    } else {
        Tone::Neutral
    };
    ctx.finish(&mut res, tone);
    res.note(&rules.bombard.rule);
    Ok(res)
}
