//! Missile fire: range check, skill die against the cover's score, impact
//! die (6 or more kills, otherwise a courage check). Canister and roundshot
//! roll against each figure in their path (`figures=N`, or the figures
//! named after `at`, each shot falling on its own figure in the order
//! named).

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::{MayhemEffect, bonus_word};
use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, Named, VerbDoc};
use crate::command::{ClauseKind, Unit};
use crate::dice::{DiceSource, Rolled};
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::{Resolution, Tone};

use super::{
    Cover, D6, MayhemTables, Tokens, Weapon, named_figures, needs, one_figure, token_words,
};

const WEAPON: &str = "a weapon";
const COVER: &str = "the target's cover";
/// Most figures one gun's shot may be rolled against on a line.
const MAX_FIGURES: i64 = 30;
/// Largest hero bonus to a skill or impact die.
const MAX_BONUS: i64 = 6;
/// A typed `skill+N` or `impact+N` stands for the hero's bonus, so it
/// displaces the bonus a named figure brings with its weapon.
const SKILL_SLOT: &[&str] = &[
    "skill",
    "pistol-skill",
    "musket-skill",
    "bow-skill",
    "rifle-skill",
    "canister-skill",
    "roundshot-skill",
];
const IMPACT_SLOT: &[&str] = &[
    "impact",
    "pistol-impact",
    "musket-impact",
    "bow-impact",
    "rifle-impact",
    "canister-impact",
    "roundshot-impact",
];

fn cover_words(mut vocab: Vocab, tables: &MayhemTables) -> Vocab {
    for c in &tables.fire.cover {
        let default = if c.default { " (the default)" } else { "" };
        vocab = vocab.choice(
            COVER,
            &c.keyword,
            format!("{}: skill die needs {}{default}", c.row, needs(c.needs)),
        );
    }
    vocab
}

/// The firer's words.
fn firer_vocab(tables: &MayhemTables) -> Vocab {
    let f = &tables.fire;
    let mut vocab = Vocab::new().with_distance(Unit::Inches);
    for w in &f.weapon {
        let impact = match &w.impact_row {
            Some(row) => format!(", impact die {row}"),
            None => String::new(),
        };
        let several = match &w.several {
            Some(s) => format!("; {s} (`figures=N`)"),
            None => String::new(),
        };
        vocab = vocab.choice(
            WEAPON,
            &w.keyword,
            format!("{} {}\"{impact}{several}", w.row, w.range),
        );
    }
    vocab = cover_words(vocab, tables)
        .flag("mounted", format!("skill die {}", f.mounted_row))
        .number(
            "skill",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the skill die (`skill+2`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            "impact",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the impact die (`impact+1`): {}",
                tables.heroes.bonus
            ),
        );
    for w in &f.weapon {
        for die in ["skill", "impact"] {
            vocab = vocab.number(
                &bonus_word(&w.keyword, die),
                0,
                MAX_BONUS,
                format!(
                    "hero's bonus to the {die} die with a {} only (an army list's `bonus.{}`); unused with another weapon",
                    w.keyword, w.keyword
                ),
            );
        }
    }
    vocab = vocab
        .number(
            "figures",
            1,
            MAX_FIGURES,
            "canister or roundshot: the figures in the cone or along the flight path; one skill die each, thrown together, then an impact die for each hit (naming the figures after `at` counts them)",
        )
        .slot(SKILL_SLOT)
        .slot(IMPACT_SLOT);
    token_words(
        vocab,
        &tables.heroes,
        "one is spent automatically to reroll a skill die that misses (the reroll stands)",
    )
}

fn target_vocab(tables: &MayhemTables) -> Vocab {
    let at = Vocab::new().flag("hero", "the target is a hero");
    cover_words(at, tables).number(
        "saves",
        0,
        super::MAX_TOKENS,
        format!(
            "target hero's {}: one is spent automatically to cancel a death (the hero then takes a courage check, as for a hit without being killed)",
            tables.heroes.save
        ),
    )
}

pub fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let vocab = firer_vocab(tables);
    let at = target_vocab(tables);
    VerbDoc::new(
        Some(super::MAYHEM),
        "fire",
        "fire WEAPON DISTANCE [open|soft|hard] [mounted] [skill+N] [impact+N] [figures=N] [rerolls=N] [at [hero] [saves=N]]",
        "Missile fire: range, skill die (-1 over half range, -1 mounted) against the cover's score, impact die (6+ kills, else a courage check).",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .clause(ClauseKind::At, at, 1)
    .examples(&[
        "fire musket 10\"",
        "fire rifle 20in soft mounted rolled 6 5",
        "fire canister 30\" figures=3",
        "fire musket 12\" at hero saves=1 rolled 5 6",
    ])
}

/// One figure in the line of fire.
#[derive(Debug, Clone, Default)]
struct Mark {
    /// The figure of the game it is, when named.
    id: Option<String>,
    /// Its save tokens left.
    saves: i64,
}

/// Everything the words say, worked out before the first die: `odds` runs
/// the resolver once for every way the dice fall.
struct Plan {
    weapon: Weapon,
    distance: f64,
    cover: Cover,
    figures: usize,
    /// The impact score that kills.
    kill_at: i64,
    skill: i64,
    impact: i64,
    skill_rows: Vec<(String, i64)>,
    impact_rows: Vec<(String, i64)>,
    shooter: Tokens,
    /// One figure shot at: its tokens, typed or its own.
    lone: Tokens,
    lone_hero: bool,
    /// Several figures: each one's own saves, from its own facts.
    marks: Vec<Mark>,
    named: usize,
    notes: Vec<String>,
}

impl Plan {
    fn new(tables: &MayhemTables, input: &Input) -> Result<Plan, CommandError> {
        let f = &tables.fire;
        let words = &input.words;
        super::named_once(input)?;
        let firers = named_figures(input, None);
        one_figure(&firers, "the firing side", "one figure fires at a time")?;
        let (weapon_id, _) = words.choice(WEAPON).ok_or_else(|| {
            let names: Vec<&str> = f.weapon.iter().map(|w| w.keyword.as_str()).collect();
            input.missing(format!(
                "`fire` needs a weapon: one of {}",
                names.join(", ")
            ))
        })?;
        let Some(weapon) = f.weapon.iter().find(|w| w.keyword == weapon_id) else {
            return Err(input.missing(format!("no weapon row for `{weapon_id}`")));
        };
        let (distance, _, _) = words.distance.ok_or_else(|| {
            input.missing(format!(
                "`fire {weapon_id}` needs the distance to the target in inches, like `12\"` or `12in`"
            ))
        })?;
        let target = input.clause(ClauseKind::At).cloned().unwrap_or_default();
        let cover = pick_cover(tables, input, &target)?.clone();
        let marked: Vec<&Named> = input.named_on(Some(0)).collect();
        let typed_figures = words.value("figures");
        if let Some(span) = words.span_of("figures")
            && weapon.several.is_none()
        {
            return Err(BindError::NotHere {
                span,
                text: "figures".into(),
                why: format!(
                    "applies only to canister and roundshot; a {} shot is at one figure",
                    weapon.keyword
                ),
            }
            .into());
        }
        if weapon.several.is_none() {
            one_figure(
                &named_figures(input, Some(0)),
                "the target's side",
                &format!(
                    "a {} shot is at one figure (only canister and roundshot roll against several)",
                    weapon.keyword
                ),
            )?;
        }
        // Naming the figures in the cone counts them; `figures=N` may say
        // there are more than are named (figures of no list), never fewer.
        let figures = match typed_figures {
            Some(n) => {
                let n = usize::try_from(n).unwrap_or(1);
                if let Some(extra) = marked.get(n) {
                    return Err(BindError::NotHere {
                        span: extra.span,
                        text: extra.facts.id.clone(),
                        why: format!(
                            "is figure {} named, but `figures={n}` rolls against {n}: name at most {n} (or leave out `figures=N`, which is then the number named)",
                            n + 1
                        ),
                    }
                    .into());
                }
                n
            }
            None => marked.len().max(1),
        };
        if figures > 1
            && let Some(span) = target.span_of("saves").filter(|_| !target.implied("saves"))
        {
            return Err(BindError::NotHere {
                span,
                text: "saves".into(),
                why: "belongs to one hero: resolve the hero's own shot without `figures=N`, or name the figures (each named figure brings its own tokens)".into(),
            }
            .into());
        }
        // Each named figure's own saves, from its own facts: two heroes in
        // one cone each keep theirs.
        let marks: Vec<Mark> = (0..figures)
            .map(|i| match marked.get(i) {
                Some(named) => Mark {
                    id: Some(named.facts.id.clone()),
                    saves: named.facts.value("saves").unwrap_or(0),
                },
                None => Mark::default(),
            })
            .collect();

        let explain = input.explain;
        let label = |text: std::fmt::Arguments| {
            if explain {
                text.to_string()
            } else {
                String::new()
            }
        };
        let half = weapon.range as f64 / 2.0;
        let over_half = distance > half;
        let mut skill_rows = Vec::new();
        if over_half {
            skill_rows.push((
                label(format_args!("skill die {}", f.over_half_range_row)),
                f.over_half_range,
            ));
        }
        if words.has("mounted") {
            skill_rows.push((
                label(format_args!("skill die {}", f.mounted_row)),
                f.mounted,
            ));
        }
        let mut impact_rows = Vec::new();
        if weapon.impact != 0 {
            let text = match &weapon.impact_row {
                Some(row) => label(format_args!("impact die {row}")),
                None => label(format_args!("impact die {} bonus", weapon.keyword)),
            };
            impact_rows.push((text, weapon.impact));
        }
        let mut notes = Vec::new();
        for (die, rows) in [("skill", &mut skill_rows), ("impact", &mut impact_rows)] {
            if let Some(n) = words.value(die).filter(|n| *n != 0) {
                rows.push((label(format_args!("{die} die: hero's bonus")), n));
            }
            let own = bonus_word(&weapon.keyword, die);
            if let Some(n) = words.value(&own).filter(|n| *n != 0) {
                rows.push((
                    label(format_args!(
                        "{die} die: hero's bonus with the {}",
                        weapon.keyword
                    )),
                    n,
                ));
            }
            // A bonus with another weapon: the rule gives bonuses "with
            // specific weapons".
            for w in f.weapon.iter().filter(|w| w.keyword != weapon.keyword) {
                let other = bonus_word(&w.keyword, die);
                let Some(n) = words.value(&other).filter(|n| *n != 0) else {
                    continue;
                };
                if !words.implied(&other) {
                    return Err(BindError::NotHere {
                        span: words.span_of(&other).unwrap_or_default(),
                        text: other.clone(),
                        why: format!(
                            "is a bonus with a {}, and this shot is with a {} (give `{die}+{n}` for a bonus with any weapon)",
                            w.keyword, weapon.keyword
                        ),
                    }
                    .into());
                }
                notes.push(label(format_args!(
                    "The firer's bonus of +{n} to the {die} die is with a {} only: not used with a {}.",
                    w.keyword, weapon.keyword
                )));
            }
        }
        Ok(Plan {
            weapon: weapon.clone(),
            distance,
            cover,
            figures,
            kill_at: f.kill_at,
            skill: skill_rows.iter().map(|(_, v)| v).sum(),
            impact: impact_rows.iter().map(|(_, v)| v).sum(),
            skill_rows,
            impact_rows,
            shooter: Tokens::from_bound(words),
            // Several figures bring their tokens one by one (`marks`).
            lone: if figures > 1 {
                Tokens::default()
            } else {
                Tokens::from_bound(&target)
            },
            lone_hero: figures == 1 && target.has("hero"),
            named: marked.len(),
            marks,
            notes,
        })
    }
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let f = &tables.fire;
    let plan = input.memoized(|| Plan::new(tables, input))?;
    let (weapon, distance, cover, figures) =
        (&plan.weapon, plan.distance, &plan.cover, plan.figures);

    let mut res = input.resolution(
        "fire",
        format!("missile fire, {} at {}", weapon.keyword, Inches(distance)),
    );
    let half = weapon.range as f64 / 2.0;
    // Under `odds` only the outcome is read: the fields are for the shown
    // resolution.
    let quiet = res.quiet;
    if !quiet {
        res.field("range_in", weapon.range);
        res.field("distance_in", distance);
        res.measure("distance", distance);
        for note in &plan.notes {
            res.note(note);
        }
    }
    if distance > weapon.range as f64 {
        res.row(
            format_args!("range: {} {}\"", weapon.row, weapon.range),
            format_args!("{} — beyond range", Inches(distance)),
        );
        res.field("range", "out-of-range");
        res.set_outcome(
            "out-of-range",
            format!(
                "out of range: {} reaches {}\"; no dice are rolled",
                weapon.keyword, weapon.range
            ),
            Tone::Neutral,
        );
        return Ok(res);
    }
    let over_half = distance > half;
    res.row(
        format_args!("range: {} {}\"", weapon.row, weapon.range),
        format_args!(
            "{} — {} half range ({})",
            Inches(distance),
            if over_half { "over" } else { "within" },
            Inches(half)
        ),
    );
    if !quiet {
        res.field(
            "range",
            if over_half {
                "over-half-range"
            } else {
                "within-half-range"
            },
        );
        res.field("cover", cover.keyword.clone());
    }
    res.row(format_args!("needs: {}", cover.row), needs(cover.needs));

    let mut shooter = plan.shooter;
    let mut target_tokens = plan.lone;
    let several = figures > 1;
    if !several && (plan.lone_hero || target_tokens.any()) {
        res.row(
            "target: hero",
            format_args!("{} save token(s)", target_tokens.saves),
        );
    }
    if !quiet && several {
        for (i, m) in plan.marks.iter().enumerate().filter(|(_, m)| m.saves > 0) {
            match &m.id {
                Some(id) => res.row(
                    format_args!("figure {} ({id}): hero", i + 1),
                    format_args!("{} save token(s)", m.saves),
                ),
                None => res.row(
                    format_args!("figure {}: hero", i + 1),
                    format_args!("{} save token(s)", m.saves),
                ),
            }
        }
    }
    let volley = volley(&mut res, plan, dice, &mut shooter, &mut target_tokens)?;
    if !quiet {
        res.field("needed", cover.needs);
        if shooter.any() {
            res.field("firer_tokens", shooter.json());
        }
        if target_tokens.any() {
            res.field("target_tokens", target_tokens.json());
        }
    }
    let courage_note = format_args!(
        "{}: `courage VALUE cause=fire` for the target, at the end of its group's movement or combat (it may retreat to the nearest cover if closer).",
        f.courage_row
    );
    if let Some(text) = &weapon.several {
        res.note(format_args!(
            "{}: {text} (`figures=N`: a skill die for each figure, then an impact die for each hit, in figure order).",
            weapon.row
        ));
    }
    let (killed, checks, missed) = (volley.killed, volley.checks, volley.missed);
    shooter.spent(&mut res, Target::ACTOR);
    if !several {
        target_tokens.spent(&mut res, Target::clause(0, 0));
        if killed > 0 {
            res.effect(Target::clause(0, 0), MayhemEffect::Killed);
        }
    } else if !quiet {
        // Each shot falls on its own figure, in the order named.
        for (i, fate) in volley.fates.iter().enumerate().take(plan.named) {
            match fate {
                Fate::Killed => res.effect(Target::clause(0, i), MayhemEffect::Killed),
                Fate::Saved => res.effect(Target::clause(0, i), MayhemEffect::SaveSpent),
                Fate::Miss | Fate::Check => {}
            }
        }
    }
    let outcome = if killed > 0 {
        "killed"
    } else if checks > 0 {
        "courage-check"
    } else {
        "miss"
    };
    let mut shots = volley.shots;
    if !several {
        if let Some(Value::Object(map)) = shots.pop() {
            for (k, v) in map {
                if k != "outcome" {
                    res.field(k, v);
                }
            }
        }
        let (text, tone) = match outcome {
            "miss" => ("no hit: the shot misses".to_string(), Tone::Neutral),
            "killed" => (f.kill_row.to_lowercase(), Tone::Good),
            _ if target_tokens.saves_spent > 0 => (
                "target killed — save token spent: the death is cancelled; the hero takes a courage check"
                    .to_string(),
                Tone::Neutral,
            ),
            _ => (f.courage_row.to_lowercase(), Tone::Neutral),
        };
        if outcome == "courage-check" {
            res.note(courage_note);
        }
        res.set_outcome(outcome, text, tone);
        return Ok(res);
    }
    if !quiet {
        res.field("killed", killed);
        res.field("courage_checks", checks);
        res.field("missed", missed);
        res.field("figures", Value::Array(shots));
        if plan.named > 0 && plan.named < figures {
            let which = if plan.named + 1 == figures {
                format!("figure {figures} is not named after `at`: its result falls")
            } else {
                format!(
                    "figures {}–{figures} are not named after `at`: their results fall",
                    plan.named + 1
                )
            };
            res.note(format_args!("{which} on no figure of the game."));
        }
    }
    if checks > 0 {
        res.note(courage_note);
    }
    let saved = volley.saved;
    let saved_text = if saved > 0 {
        format!(" ({saved} of them a hero whose save token cancels the death)")
    } else {
        String::new()
    };
    res.set_outcome(
        outcome,
        format!(
            "{figures} figures: {killed} killed, {checks} take a courage check{saved_text}, {missed} missed"
        ),
        if killed > 0 {
            Tone::Good
        } else {
            Tone::Neutral
        },
    );
    Ok(res)
}

/// The cover from the firer's words or the target's, not both.
fn pick_cover<'t>(
    tables: &'t MayhemTables,
    input: &Input,
    target: &Bound,
) -> Result<&'t Cover, CommandError> {
    let covers = &tables.fire.cover;
    let chosen = match (input.words.choice(COVER), target.choice(COVER)) {
        (Some((a, _)), Some((b, span))) => {
            return Err(BindError::Conflict {
                span,
                first: a.to_string(),
                second: b.to_string(),
                group: COVER.into(),
            }
            .into());
        }
        (Some((c, _)), None) | (None, Some((c, _))) => covers.iter().find(|r| r.keyword == c),
        (None, None) => covers.iter().find(|r| r.default),
    };
    chosen.ok_or_else(|| input.missing("the fire table has no cover row for this target"))
}

/// What became of one figure in the line of fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Miss,
    Check,
    Killed,
    /// Killed, but its save token cancels the death: it checks courage.
    Saved,
}

/// What the figures in the line of fire took. `shots` (each figure's JSON)
/// and `fates` have one entry per figure when the dice are known, none
/// when `odds` counts them.
struct Volley {
    shots: Vec<Value>,
    fates: Vec<Fate>,
    killed: usize,
    /// Courage checks, the saved heroes among them.
    checks: usize,
    saved: usize,
    missed: usize,
}

/// Every figure's skill die, thrown together; then an impact die for each
/// hit. Only the counts decide the outcome, so under `odds` the skill dice
/// are one binomial draw and the impact dice another — unless heroes with
/// save tokens stand among several figures, when which figure is hit
/// counts and each die is followed on its own.
fn volley(
    res: &mut Resolution,
    plan: &Plan,
    dice: &mut dyn DiceSource,
    shooter: &mut Tokens,
    target: &mut Tokens,
) -> Result<Volley, CommandError> {
    let figures = plan.figures;
    let face_for = |score: i64, bonus: i64| (score - bonus).clamp(1, i64::from(D6) + 1) as u32;
    let hit_on = face_for(plan.cover.needs, plan.skill);
    let kill_on = face_for(plan.kill_at, plan.impact);
    let each = figures > 1 && plan.marks.iter().any(|m| m.saves > 0);
    // The faces when they are known: always with real dice, and when each
    // die is followed on its own.
    let (mut skill, mut hits): (Vec<Rolled>, usize) = if each {
        let faces = (0..figures)
            .map(|_| dice.roll_against(D6, &[hit_on]))
            .collect::<Result<Vec<_>, _>>()?;
        let hits = faces.iter().filter(|d| d.face >= hit_on).count();
        (faces, hits)
    } else {
        let pool = dice.pool(figures as u32, D6, hit_on)?;
        (pool.dice, pool.successes as usize)
    };
    let known = skill.len() == figures;
    // A hero's reroll token: the first missed die is thrown again.
    let mut reroll = None;
    if hits < figures && shooter.spend_reroll() {
        let again = if known {
            dice.roll_against(D6, &[hit_on])?
        } else {
            let pool = dice.pool(1, D6, hit_on)?;
            pool.dice.first().copied().unwrap_or(Rolled {
                sides: D6,
                face: if pool.successes > 0 { hit_on } else { 1 },
                entered: false,
            })
        };
        if again.face >= hit_on {
            hits += 1;
        }
        let missed = skill.iter().position(|d| d.face < hit_on);
        reroll = missed.map(|at| (at, skill[at], again));
        if let Some((at, _, again)) = reroll {
            skill[at] = again;
        }
    }
    let impact: Vec<Rolled>;
    let mut killed;
    if each {
        impact = (0..hits)
            .map(|_| dice.roll_against(D6, &[kill_on]))
            .collect::<Result<Vec<_>, _>>()?;
        killed = impact.iter().filter(|d| d.face >= kill_on).count();
    } else {
        let pool = dice.pool(hits as u32, D6, kill_on)?;
        killed = pool.successes as usize;
        impact = pool.dice;
    }
    // Which figure each impact die is for, when known.
    let mut fates = Vec::new();
    let mut saved = 0;
    if known && impact.len() == hits {
        let mut impacts = impact.iter();
        for (i, die) in skill.iter().enumerate() {
            if die.face < hit_on {
                fates.push(Fate::Miss);
                continue;
            }
            let kills = impacts.next().is_some_and(|d| d.face >= kill_on);
            let saves = if figures > 1 {
                plan.marks.get(i).is_some_and(|m| m.saves > 0)
            } else {
                kills && target.spend_save()
            };
            fates.push(match (kills, saves) {
                (true, true) => Fate::Saved,
                (true, false) => Fate::Killed,
                _ => Fate::Check,
            });
        }
        saved = fates.iter().filter(|f| **f == Fate::Saved).count();
        killed -= saved.min(killed);
    } else if killed > 0 && target.spend_save() {
        // One figure (a lone hero), counted rather than followed.
        killed -= 1;
        saved = 1;
    }
    let (checks, missed) = (hits - killed, figures - hits);
    // Under `odds` only the counts are read: no account of every figure.
    if res.quiet {
        return Ok(Volley {
            shots: Vec::new(),
            fates,
            killed,
            checks,
            saved,
            missed,
        });
    }
    let prefix = |i: usize| {
        if figures > 1 {
            match plan.marks.get(i).and_then(|m| m.id.as_deref()) {
                Some(id) => format!("figure {} ({id}): ", i + 1),
                None => format!("figure {}: ", i + 1),
            }
        } else {
            String::new()
        }
    };
    let mut skill_rows = plan.skill_rows.iter();
    let mut impact_rows = plan.impact_rows.iter();
    // Shown in the order thrown: the skill dice, then the impact dice.
    let mut shots = Vec::with_capacity(skill.len());
    for (i, die) in skill.iter().enumerate() {
        let prefix = prefix(i);
        let first = match reroll {
            Some((at, first, _)) if at == i => first,
            _ => *die,
        };
        res.die(format_args!("{prefix}skill die"), first);
        for (label, v) in skill_rows.by_ref() {
            res.modifier(label, *v);
        }
        let mut skill_json = json!({"needed": plan.cover.needs});
        if reroll.is_some_and(|(at, _, _)| at == i) {
            res.die(format_args!("{prefix}skill die, reroll token spent"), *die);
            skill_json["rerolled_from"] = json!(first.face);
        }
        let modified = i64::from(die.face) + plan.skill;
        res.row(format_args!("{prefix}skill score"), modified);
        skill_json["die"] = json!(die.face);
        skill_json["modified"] = json!(modified);
        let hit = die.face >= hit_on;
        if !hit {
            res.row(format_args!("{prefix}result"), "miss");
        }
        let mut j = json!({"skill": skill_json, "outcome": "miss"});
        if let Some(id) = plan.marks.get(i).and_then(|m| m.id.as_deref())
            && figures > 1
        {
            j["figure"] = json!(id);
        }
        shots.push((hit, j));
    }
    let kill_at = plan.kill_at;
    let mut impacts = impact.iter();
    for (i, (_, json)) in shots.iter_mut().enumerate().filter(|(_, (hit, _))| *hit) {
        let Some(&impact_die) = impacts.next() else {
            break;
        };
        let prefix = prefix(i);
        res.die(format_args!("{prefix}impact die"), impact_die);
        for (label, v) in impact_rows.by_ref() {
            res.modifier(label, *v);
        }
        let score = i64::from(impact_die.face) + plan.impact;
        res.row(format_args!("{prefix}impact score"), score);
        json["impact"] = json!({"die": impact_die.face, "modified": score});
        let mut outcome = if score >= kill_at {
            "killed"
        } else {
            "courage-check"
        };
        if fates.get(i) == Some(&Fate::Saved) {
            res.row(format_args!("{prefix}save token spent"), "death cancelled");
            json["save_spent"] = json!(true);
            outcome = "courage-check";
        }
        res.row(
            format_args!("{prefix}result"),
            if outcome == "killed" {
                format!("killed ({kill_at}+)")
            } else {
                "courage check".into()
            },
        );
        json["outcome"] = json!(outcome);
    }
    let shots = shots.into_iter().map(|(_, json)| json).collect();
    Ok(Volley {
        shots,
        fates,
        killed,
        checks,
        saved,
        missed,
    })
}

/// A distance in inches, written out only when shown.
struct Inches(f64);

impl std::fmt::Display for Inches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}\"", self.0)
    }
}
