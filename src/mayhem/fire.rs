//! Missile fire: range check, skill die against the cover's score, impact
//! die (6 or more kills, otherwise a courage check). Canister and roundshot
//! roll against each figure in their path (`figures=N`).

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::MayhemEffect;
use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::command::{ClauseKind, Unit};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::{Resolution, Tone};

use super::{Cover, D6, MayhemTables, Tokens, needs, token_words};

const WEAPON: &str = "a weapon";
const COVER: &str = "the target's cover";
/// Most figures one gun's shot may be rolled against on a line.
const MAX_FIGURES: i64 = 30;
/// Largest hero bonus to a skill or impact die.
const MAX_BONUS: i64 = 6;

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

pub fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
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
            format!("hero's bonus to the skill die (`skill+2`): {}", tables.heroes.bonus),
        )
        .number(
            "impact",
            0,
            MAX_BONUS,
            format!("hero's bonus to the impact die (`impact+1`): {}", tables.heroes.bonus),
        )
        .number(
            "figures",
            1,
            MAX_FIGURES,
            "canister or roundshot: the figures in the cone or along the flight path; one skill die each, thrown together, then an impact die for each hit",
        );
    vocab = token_words(
        vocab,
        &tables.heroes,
        "one is spent automatically to reroll a skill die that misses (the reroll stands)",
    );
    let mut at = Vocab::new().flag("hero", "the target is a hero");
    at = cover_words(at, tables);
    at = at.number(
        "saves",
        0,
        super::MAX_TOKENS,
        format!(
            "target hero's {}: one is spent automatically to cancel a death (the hero then takes a courage check, as for a hit without being killed)",
            tables.heroes.save
        ),
    );
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

/// The adjustments to the skill and impact dice, and the rows not yet shown.
struct Mods {
    skill: i64,
    impact: i64,
    skill_rows: Vec<(String, i64)>,
    impact_rows: Vec<(String, i64)>,
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let f = &tables.fire;
    let words = &input.words;
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
    let cover = pick_cover(tables, input, &target)?;
    let figures = words.value("figures").unwrap_or(1);
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
    if figures > 1
        && let Some(span) = target.span_of("saves")
    {
        return Err(BindError::NotHere {
            span,
            text: "saves".into(),
            why: "belongs to one hero: resolve the hero's own shot without `figures=N`".into(),
        }
        .into());
    }

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

    // The stack is the same for every figure: shown once, after the first
    // die it adjusts.
    // The labels are written only when shown.
    let label = |text: std::fmt::Arguments| {
        if quiet {
            String::new()
        } else {
            text.to_string()
        }
    };
    let mut skill_mods = Vec::new();
    if over_half {
        skill_mods.push((
            label(format_args!("skill die {}", f.over_half_range_row)),
            f.over_half_range,
        ));
    }
    if words.has("mounted") {
        skill_mods.push((
            label(format_args!("skill die {}", f.mounted_row)),
            f.mounted,
        ));
    }
    if let Some(n) = words.value("skill").filter(|n| *n != 0) {
        skill_mods.push((label(format_args!("skill die: hero's bonus")), n));
    }
    let mut impact_mods = Vec::new();
    if weapon.impact != 0 {
        let text = match &weapon.impact_row {
            Some(row) => label(format_args!("impact die {row}")),
            None => label(format_args!("impact die {} bonus", weapon.keyword)),
        };
        impact_mods.push((text, weapon.impact));
    }
    if let Some(n) = words.value("impact").filter(|n| *n != 0) {
        impact_mods.push((label(format_args!("impact die: hero's bonus")), n));
    }
    let mut mods = Mods {
        skill: skill_mods.iter().map(|(_, v)| v).sum(),
        impact: impact_mods.iter().map(|(_, v)| v).sum(),
        skill_rows: skill_mods,
        impact_rows: impact_mods,
    };

    let mut shooter = Tokens::from_bound(words);
    let mut target_tokens = Tokens::from_bound(&target);
    if target.has("hero") || target_tokens.any() {
        res.row(
            "target: hero",
            format_args!("{} save token(s)", target_tokens.saves),
        );
    }
    let several = figures > 1;
    let volley = volley(
        &mut res,
        figures as usize,
        dice,
        &mut mods,
        cover,
        f.kill_at,
        &mut shooter,
        &mut target_tokens,
    )?;
    let mut shots = volley.shots;
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
    target_tokens.spent(&mut res, Target::clause(0, 0));
    if killed > 0 {
        res.effect(Target::clause(0, 0), MayhemEffect::Killed);
    }
    let outcome = if killed > 0 {
        "killed"
    } else if checks > 0 {
        "courage-check"
    } else {
        "miss"
    };
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
    }
    if checks > 0 {
        res.note(courage_note);
    }
    res.set_outcome(
        outcome,
        format!(
            "{figures} figures: {killed} killed, {checks} take a courage check, {missed} missed"
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
    target: &crate::bind::Bound,
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

/// What the figures in the line of fire took. `shots` (each figure's JSON)
/// has one entry per figure when the dice are real, none under enumeration.
struct Volley {
    shots: Vec<Value>,
    killed: usize,
    checks: usize,
    missed: usize,
}

/// Every figure's skill die, thrown together; then an impact die for each
/// hit. Only the counts decide the outcome, so under `odds` the skill dice
/// are one binomial draw and the impact dice another.
#[allow(clippy::too_many_arguments)]
fn volley(
    res: &mut Resolution,
    figures: usize,
    dice: &mut dyn DiceSource,
    mods: &mut Mods,
    cover: &Cover,
    kill_at: i64,
    shooter: &mut Tokens,
    target: &mut Tokens,
) -> Result<Volley, CommandError> {
    let face_for = |score: i64, bonus: i64| (score - bonus).clamp(1, i64::from(D6) + 1) as u32;
    let hit_on = face_for(cover.needs, mods.skill);
    let kill_on = face_for(kill_at, mods.impact);
    let skill = dice.pool(figures as u32, D6, hit_on)?;
    let mut hits = skill.successes as usize;
    // A hero's reroll token: the first missed die is thrown again.
    let mut reroll = None;
    if hits < figures && shooter.spend_reroll() {
        let again = dice.pool(1, D6, hit_on)?;
        hits += again.successes as usize;
        let missed = skill.dice.iter().position(|d| d.face < hit_on);
        reroll = missed.zip(again.dice.first().copied());
    }
    let impact = dice.pool(hits as u32, D6, kill_on)?;
    let mut killed = impact.successes as usize;
    // Saves belong to a lone hero (checked when the words were read).
    let saved = killed > 0 && target.spend_save();
    if saved {
        killed -= 1;
    }
    let (checks, missed) = (hits - killed, figures - hits);
    // Under `odds` only the counts are read: no account of every figure.
    if res.quiet {
        return Ok(Volley {
            shots: Vec::new(),
            killed,
            checks,
            missed,
        });
    }
    let prefix = |i: usize| {
        if figures > 1 {
            format!("figure {}: ", i + 1)
        } else {
            String::new()
        }
    };
    // Shown in the order thrown: the skill dice, then the impact dice.
    let mut shots = Vec::with_capacity(skill.dice.len());
    for (i, first) in skill.dice.iter().enumerate() {
        let prefix = prefix(i);
        res.die(format_args!("{prefix}skill die"), *first);
        for (label, v) in mods.skill_rows.drain(..) {
            res.modifier(label, v);
        }
        let mut die = *first;
        let mut skill_json = json!({"needed": cover.needs});
        if let Some((_, again)) = reroll.filter(|(at, _)| *at == i) {
            res.die(format_args!("{prefix}skill die, reroll token spent"), again);
            skill_json["rerolled_from"] = json!(first.face);
            die = again;
        }
        let modified = i64::from(die.face) + mods.skill;
        res.row(format_args!("{prefix}skill score"), modified);
        skill_json["die"] = json!(die.face);
        skill_json["modified"] = json!(modified);
        let hit = die.face >= hit_on;
        if !hit {
            res.row(format_args!("{prefix}result"), "miss");
        }
        shots.push((hit, json!({"skill": skill_json, "outcome": "miss"})));
    }
    let mut impacts = impact.dice.iter();
    for (i, (_, json)) in shots.iter_mut().enumerate().filter(|(_, (hit, _))| *hit) {
        let Some(&impact_die) = impacts.next() else {
            break;
        };
        let prefix = prefix(i);
        res.die(format_args!("{prefix}impact die"), impact_die);
        for (label, v) in mods.impact_rows.drain(..) {
            res.modifier(label, v);
        }
        let score = i64::from(impact_die.face) + mods.impact;
        res.row(format_args!("{prefix}impact score"), score);
        json["impact"] = json!({"die": impact_die.face, "modified": score});
        let mut outcome = if score >= kill_at {
            "killed"
        } else {
            "courage-check"
        };
        if outcome == "killed" && saved {
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
        killed,
        checks,
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
