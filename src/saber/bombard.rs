//! Bombardment (standard 8.5, QuickPlay 8.2): the artillery's attack total
//! is the differential, doubled against cavalry; bombarding artillery is
//! affected only by Ammo, so A results are ignored (and, in the standard
//! rules, parenthesized results too).

use crate::saber::Resolution;
use crate::saber::VerbDoc;
use std::rc::Rc;

use crate::answer::resolution::Tone;
use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::command::ClauseKind;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::crt::{Cell, Code, Crt, CrtKind, Side};
use super::factors::{self, Factor};
use super::game::SaberEffect;
use super::morale::{self, MoraleInput};
use super::named::{self, Named};
use super::results::{Ctx, Moved, SideInfo, Who, idx, modifier};
use super::{SaberRules, Tables, Variant};
use crate::answer::resolution::Target;

pub(crate) fn verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
    let rules = variant.rules(t);
    let target = target_vocab(rules);
    let mut attacker = attacker_vocab();
    for (word, row) in [
        ("night", &rules.bombard.night),
        ("twilight", &rules.bombard.twilight),
        ("adjacent", &rules.bombard.adjacent),
    ] {
        if let Some(row) = row {
            attacker.add(word.to_string(), crate::bind::Kind::Flag, row.clone());
        }
    }
    VerbDoc::new(
        Some(variant.system()),
        "bombard",
        "bombard CF… [vs [cavalry] [mr=N|def-mr=N] [disrupted] [square]]",
        "Bombardment: the artillery's attack total is the differential (doubled against cavalry); A results ignored. Dice: combat die, then morale die.",
        attacker,
        super::resolver(t, resolve),
    )
    .examples(&["bombard 4 vs mr=3", "bombard 3 2 vs cavalry mr=4 rolled 5 2"])
    .clause(ClauseKind::Vs, target, 1)
}

/// The target's words: what it is and what its morale check needs.
fn target_vocab(rules: &super::SaberRules) -> Vocab {
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
        .number(
            "def-mr",
            0,
            10,
            "the target unit's morale rating (the same as `mr=N` here)",
        )
        .slot(&["mr", "def-mr"])
        .number("leader-mr", 0, 9, rules.morale.leader.clone())
        .flag("infantry", "the target is infantry");
    target = match &rules.morale.artillery {
        Some(art) => target.flag("artillery", art.row.clone()),
        None => target.flag("artillery", "the target is artillery"),
    };
    if let Some(row) = &rules.morale.ineffective {
        target = target.flag("ineffective", row.clone());
    }
    // Every adjustment, the turn's light (night, twilight) too: said after
    // `vs` as before it, it is the target's check that reads it (14.3 1).
    for adj in &rules.morale.adjustment {
        target.add(
            adj.keyword.clone(),
            crate::bind::Kind::Flag,
            adj.row.clone(),
        );
    }
    target
}

/// The bombarding side's words: its attack factors, and what a named
/// unit brings that may forbid it to bombard.
fn attacker_vocab() -> Vocab {
    Vocab::new()
        .with_notation("combat factors")
        .number_from("cf")
        .flag("artillery", "the bombarding unit is artillery")
        .number(
            named::printed::RANGE,
            0,
            20,
            "the artillery's range factor (8.7): the most hexes it may bombard; zero, it may not bombard (8.4 1)",
        )
        .flag(
            "infantry",
            "brought by a named infantry unit: only artillery bombards (8.4)",
        )
        .flag(
            "cavalry",
            "brought by a named cavalry unit: only artillery bombards (8.4)",
        )
        .flag(
            "disrupted",
            "the artillery is disrupted: it may not bombard (standard 8.4 2, QuickPlay 8.2 3)",
        )
        .flag(
            "ineffective",
            "the artillery is ineffective: it may not bombard (standard 8.4 2, QuickPlay 11.3)",
        )
}

/// The units a bombardment names: the bombarding artillery and the one
/// target unit (with a leader stacked with it), checked.
struct Sides {
    artillery: Vec<Named>,
    target: Vec<Named>,
    /// The target unit among the units named after `vs`.
    primary: Option<usize>,
    /// The target's words as the target unit has them.
    view: Bound,
}

fn sides(variant: Variant, input: &Input) -> Result<Sides, CommandError> {
    let artillery = named::side(input, None)?;
    if let Some(leader) = named::leaders(&artillery).next() {
        return Err(leader.refuse(ErrorKind::NotApplicable,
            "is a leader: a leader's combat factor is not added to bombarding artillery (8.5; QuickPlay 10.0 3); name him with the target's side only if he is stacked with it",
        ));
    }
    for word in ["infantry", "cavalry"] {
        if let Some(u) = artillery.iter().find(|u| u.has(word)) {
            return Err(u.refuse(
                ErrorKind::NotApplicable,
                format!("is {word}: only artillery bombards (8.4)"),
            ));
        }
    }
    // 8.4 1: "have attack and range factors greater than zero"; the
    // range factor is the list's (8.7), or typed.
    const NO_RANGE: &str = "has a range factor of zero: to bombard, artillery must have attack and range factors greater than zero (standard 8.4 1; QuickPlay 8.4)";
    if let Some(u) = artillery
        .iter()
        .find(|u| u.value(named::printed::RANGE) == Some(0))
    {
        return Err(u.refuse(ErrorKind::NotApplicable, NO_RANGE));
    }
    if input.words.value(named::printed::RANGE) == Some(0) {
        let span = input
            .words
            .span_of(named::printed::RANGE)
            .unwrap_or_default();
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span,
            text: format!("{}=0", named::printed::RANGE),
            why: NO_RANGE.into(),
        }
        .into());
    }
    for (word, rule) in [
        (
            "disrupted",
            "bombarding artillery must be undisrupted (standard 8.4 2, QuickPlay 8.2 3)",
        ),
        (
            "ineffective",
            "bombarding artillery must be effective (standard 8.4 2; QuickPlay 11.3: it operates as a disrupted unit)",
        ),
    ] {
        if input.words.has(word) {
            let span = input.words.span_of(word).unwrap_or_default();
            return Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span,
                text: input
                    .line
                    .get(span.start..span.end)
                    .unwrap_or(word)
                    .to_string(),
                why: format!("is {word}: {rule}"),
            }
            .into());
        }
    }
    nature(variant, input)?;
    let empty = Bound::default();
    let (clause, bound) = match input
        .command
        .clauses
        .iter()
        .position(|c| c.kind == ClauseKind::Vs)
    {
        Some(i) => (Some(i), input.clause(ClauseKind::Vs).unwrap_or(&empty)),
        None => (None, &empty),
    };
    let target = match clause {
        Some(i) => named::side(input, Some(i))?,
        None => Vec::new(),
    };
    let primary = named::primary(&target);
    named::eligible_primary(variant, &target, primary, false)?;
    if let Some(second) = target
        .iter()
        .enumerate()
        .find(|(i, u)| u.combat && Some(*i) != primary)
    {
        return Err(second.1.refuse(ErrorKind::ExtraWord,
            "is a second target: a bombarding artillery unit may target only a single enemy unit (8.4; QuickPlay 8.2: resolve each unit separately); name it, and a leader stacked with it",
        ));
    }
    named::one_leader_per_unit(variant, &target, 1)?;
    // Standard 10.3: each leader stacked with the target may assist it.
    let view = named::primary_view(variant, bound, &target, primary, "leader-mr").into_owned();
    Ok(Sides {
        artillery,
        target,
        primary,
        view,
    })
}

/// Standard 14.2 5: "LOS is zero at night: artillery may not bombard";
/// 14.3 3: at twilight "artillery may support or bombard only adjacent
/// hexes" (and bombardment reaches an adjacent hex only across a
/// prohibited hexside, 8.4).
fn nature(variant: Variant, input: &Input) -> Result<(), CommandError> {
    if variant != Variant::Standard {
        return Ok(());
    }
    // The turn's light, said on either side.
    let target = input.clause(ClauseKind::Vs);
    let said = |word: &str| {
        input
            .words
            .span_of(word)
            .or_else(|| target.and_then(|t| t.span_of(word)))
    };
    let refuse = |word: &str, why: &str| -> CommandError {
        BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span: said(word).unwrap_or_default(),
            text: word.to_string(),
            why: why.to_string(),
        }
        .into()
    };
    if said("night").is_some() {
        return Err(refuse(
            "night",
            "is a night turn: LOS is zero at night: artillery may not bombard (14.2 5)",
        ));
    }
    if said("twilight").is_some() && !input.words.has("adjacent") {
        return Err(refuse(
            "twilight",
            "is a twilight turn: LOS is one: artillery may bombard only adjacent hexes (14.3 3); add `adjacent` if the target is in the next hex, across a prohibited hexside (8.4)",
        ));
    }
    Ok(())
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
    check_factors(variant, input, &fs, crt)?;
    let named = crate::memoized!(input, Sides, || sides(variant, input))?;
    let named = &*named;
    let target = &named.view;
    let cavalry = target.has("cavalry");
    let mut res = input.resolution(
        "bombard",
        format!("bombardment on the CRT \"{}\"", crt.name),
    );
    let total = strength(variant, rules, &fs, target, &mut res);
    res.score = Some(total);
    res.row("differential (the bombarding strength)", total);
    if !res.quiet {
        res.field("differential", total);
    }
    let lookup = crt.differential_column(total);
    super::results::show_column(&mut res, crt, &lookup);
    let cell = super::results::roll_cell(&mut res, input, crt, &lookup, dice)?;

    let d_morale = target_morale(rules, input, target)?;
    let sides = [
        SideInfo {
            label: "bombarding artillery",
            morale: None,
            missing_mr: "",
            mr_word: "",
            disrupted: false,
            cavalry: false,
        },
        SideInfo {
            label: "target",
            morale: d_morale,
            missing_mr: "the target's morale rating is needed for this result: add `vs mr=N`",
            mr_word: "`mr=N` after `vs`",
            disrupted: target.has("disrupted"),
            cavalry,
        },
    ];
    let mut ctx = Ctx::new(rules, input, sides, &res);
    let secondary = if table.ignore_secondary {
        if cell.secondary.is_some() {
            res.note("parenthesized results are ignored in a bombardment (8.5)");
        }
        None
    } else {
        cell.secondary.filter(|s| s.side() != Some(Side::Attacker))
    };
    carry_out(rules, cell, secondary, &mut ctx, &mut res, dice)?;
    let undecided = ctx.needs_mr.is_some();
    ctx.extras(&cell.extras, true);
    // Artillery may not advance after combat (8.3).
    ctx.no_advance();
    ctx.morale_die_row(&mut res, undecided);
    if undecided {
        res.note("nothing is recorded in the game until the result is decided");
    }
    if !res.quiet {
        if let Some(first) = ctx.checks.first() {
            res.field("check", first.json());
        }
        res.field("applied", ctx.applied.join(" "));
        res.field("effects", ctx.effects_json());
        res.field("crt", crt.name.clone());
        if !undecided {
            game_effects(input, named, &ctx, &cell.extras, &mut res);
        }
    }
    if crt.file.ends_with("(embedded)") {
        res.standing_note(super::crt::EXAMPLE);
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

/// The factors may bombard, and the CRT reads a differential.
fn check_factors(
    variant: Variant,
    input: &Input,
    fs: &[Factor],
    crt: &Crt,
) -> Result<(), CommandError> {
    if fs.is_empty() {
        return Err(input.missing(
            "`bombard` needs the bombarding artillery's attack factors, like `bombard 4 3`",
        ));
    }
    // Standard 8.4 1: "have attack and range factors greater than zero";
    // QuickPlay 8.2 2: "have an attack factor greater than zero".
    if let Some(zero) = fs.iter().find(|f| f.printed == 0) {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span: zero.span,
            text: input
                .line
                .get(zero.span.start..zero.span.end)
                .unwrap_or(&zero.text)
                .to_string(),
            why: format!(
                "is an attack factor of zero: to bombard, an artillery unit must have an attack factor greater than zero ({})",
                match variant {
                    Variant::Standard => "8.4 1",
                    Variant::QuickPlay => "QuickPlay 8.2 2",
                }
            ),
        }
        .into());
    }
    if crt.kind == CrtKind::Ratio {
        return Err(input.missing(format!(
            "bombardment uses the attack total as a differential, and the CRT \"{}\" has odds columns",
            crt.name
        )));
    }
    Ok(())
}

/// The bombarding strength: the factors, and what the target doubles or
/// adds.
fn strength(
    variant: Variant,
    rules: &SaberRules,
    fs: &[Factor],
    target: &Bound,
    res: &mut Resolution,
) -> i64 {
    let table = &rules.bombard;
    let cavalry = target.has("cavalry");
    let mut total = 0;
    for f in fs {
        total += factors::count(res, "artillery", f, f.halvings(true, 0), &rules.combat);
    }
    if cavalry {
        let extra = total * (table.vs_cavalry_multiplier - 1);
        modifier(
            res,
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
        modifier(res, format_args!("{}: bombarding artillery", row.row), v);
        total += v;
    }
    total
}

/// The target's morale, if its MR was given (or artillery has one).
fn target_morale(
    rules: &SaberRules,
    input: &Input,
    target: &Bound,
) -> Result<Option<MoraleInput>, CommandError> {
    let mr = match (target.value("mr"), target.value("def-mr")) {
        (Some(_), Some(_)) if !target.implied("mr") => {
            return Err(BindError::Conflict {
                span: target.span_of("def-mr").unwrap_or_default(),
                first: "mr".into(),
                second: "def-mr".into(),
                group: "the target's morale rating".into(),
            }
            .into());
        }
        (_, Some(v)) => Some((v, target.span_of("def-mr").unwrap_or_default())),
        (Some(v), None) => Some((v, target.span_of("mr").unwrap_or_default())),
        (None, None) => None,
    };
    let d_morale = if mr.is_some() || (rules.morale.artillery.is_some() && target.has("artillery"))
    {
        // The turn's light said before `vs` is the target's too (standard
        // 14.3 1: "Add one to all morale check die rolls").
        Some(morale::input_from(
            rules,
            target,
            Some(&input.words),
            mr,
            "leader-mr",
            false,
            || input.missing("a morale rating is needed"),
        )?)
    } else {
        None
    };
    Ok(d_morale)
}

/// The cell's primary result on the target: A results are ignored, an
/// exchange costs only the target a step.
fn carry_out(
    rules: &SaberRules,
    cell: &Cell,
    secondary: Option<Code>,
    ctx: &mut Ctx,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
) -> Result<(), CommandError> {
    match cell.primary.side() {
        Some(Side::Attacker) => {
            res.row("A result", "ignored");
            ctx.mark_applied("NE");
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
            ctx.mark_applied("Ex");
            ctx.step_loss(
                Side::Defender,
                format_args!(
                    "Ex — the primary unit of the target loses one step ({}); bombarding artillery is affected only by an Ammo result",
                    rules.results.step_loss
                ),
            );
        }
        _ => {
            if let Err(e) = ctx.apply(res, dice, cell.primary, secondary) {
                // A check with no MR: the cell stands shown, and the word
                // that decides the rest is said.
                let Some((side, code)) = ctx.needs_mr else {
                    return Err(e);
                };
                ctx.undecided(side, code);
            }
        }
    }
    Ok(())
}

/// What the bombardment does to the target (and a leader stacked with
/// it), and an Ammo result to the one bombarding artillery unit named.
fn game_effects(
    input: &Input,
    named: &Sides,
    ctx: &Ctx,
    extras: &[super::crt::Extra],
    res: &mut Resolution,
) {
    let clause = input
        .command
        .clauses
        .iter()
        .position(|c| c.kind == ClauseKind::Vs);
    for (side, who, effect) in &ctx.game {
        if *side != Side::Defender {
            continue;
        }
        let target = |nth: usize| Target::Side { clause, nth };
        match who {
            Who::Primary => {
                if let Some(p) = named.primary {
                    res.effect(target(p), effect.clone());
                }
            }
            Who::All | Who::Combat => {
                for (nth, u) in named.target.iter().enumerate() {
                    if u.combat {
                        res.effect(target(nth), effect.clone());
                    } else if *who == Who::All
                        && let Some(e) = effect.for_leader()
                    {
                        res.effect(target(nth), e);
                    }
                }
            }
        }
    }
    let ammo = extras.contains(&super::crt::Extra::Ammo);
    match named.artillery.as_slice() {
        [_] if ammo => res.effect(Target::ACTOR, SaberEffect::Ineffective),
        [_, _, ..] if ammo => res.note("Ammo: the attacking player chooses which bombarding artillery unit is flipped to its ineffective side (8.5): record it with `choose UNIT flip`"),
        _ => {}
    }
    let named_any = !named.artillery.is_empty() || !named.target.is_empty();
    if ctx.choice && named_any {
        res.note("the game records only what the result imposes: once the owning player has chosen, record his choice with `choose UNIT… disruption`, `retreat`, `step-loss` or `retreat-disrupted`");
    }
}
