//! Missile fire: range check, skill die against the cover's score, impact
//! die (6 or more kills, otherwise a courage check). Canister and roundshot
//! roll against each figure in their path (`figures=N`).

use serde_json::{Value, json};

use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::command::{ClauseKind, System, Unit};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
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

pub fn verb(tables: &MayhemTables) -> VerbDoc {
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
            "canister or roundshot: the figures in the cone or along the flight path; one skill die and one impact die each",
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
        Some(System::Mayhem),
        "fire",
        "fire WEAPON DISTANCE [open|soft|hard] [mounted] [skill+N] [impact+N] [figures=N] [rerolls=N] [at [hero] [saves=N]]",
        "Missile fire: range, skill die (-1 over half range, -1 mounted) against the cover's score, impact die (6+ kills, else a courage check).",
        vocab,
        resolve,
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

/// What one figure took.
struct Shot {
    json: Value,
    outcome: &'static str,
}

fn resolve(input: &Input, dice: &mut dyn DiceSource) -> Result<Resolution, CommandError> {
    let f = &input.tables.mayhem.fire;
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
    let cover = pick_cover(input, &target)?;
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

    let mut res = Resolution::new(
        System::Mayhem,
        "fire",
        format!("missile fire, {} at {}", weapon.keyword, inches(distance)),
    );
    let half = weapon.range as f64 / 2.0;
    res.field("range_in", weapon.range);
    res.field("distance_in", distance);
    if distance > weapon.range as f64 {
        res.row(
            format!("range: {} {}\"", weapon.row, weapon.range),
            format!("{} — beyond range", inches(distance)),
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
        format!("range: {} {}\"", weapon.row, weapon.range),
        if over_half {
            format!("{} — over half range ({})", inches(distance), inches(half))
        } else {
            format!(
                "{} — within half range ({})",
                inches(distance),
                inches(half)
            )
        },
    );
    res.field(
        "range",
        if over_half {
            "over-half-range"
        } else {
            "within-half-range"
        },
    );
    res.row(format!("needs: {}", cover.row), needs(cover.needs));
    res.field("cover", cover.keyword.clone());

    // The stack is the same for every figure: shown once, after the first
    // die it adjusts.
    let mut skill_mods = Vec::new();
    if over_half {
        skill_mods.push((
            format!("skill die {}", f.over_half_range_row),
            f.over_half_range,
        ));
    }
    if words.has("mounted") {
        skill_mods.push((format!("skill die {}", f.mounted_row), f.mounted));
    }
    if let Some(n) = words.value("skill").filter(|n| *n != 0) {
        skill_mods.push(("skill die: hero's bonus".to_string(), n));
    }
    let mut impact_mods = Vec::new();
    if weapon.impact != 0 {
        let label = weapon
            .impact_row
            .clone()
            .unwrap_or_else(|| format!("{} bonus", weapon.keyword));
        impact_mods.push((format!("impact die {label}"), weapon.impact));
    }
    if let Some(n) = words.value("impact").filter(|n| *n != 0) {
        impact_mods.push(("impact die: hero's bonus".to_string(), n));
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
            format!("{} save token(s)", target_tokens.saves),
        );
    }
    let several = figures > 1;
    let mut shots = Vec::new();
    for i in 0..figures {
        let prefix = if several {
            format!("figure {}: ", i + 1)
        } else {
            String::new()
        };
        shots.push(shoot(
            &mut res,
            &prefix,
            dice,
            &mut mods,
            cover,
            f.kill_at,
            &mut shooter,
            &mut target_tokens,
        )?);
    }
    res.field("needed", cover.needs);
    if shooter.any() {
        res.field("firer_tokens", shooter.json());
    }
    if target_tokens.any() {
        res.field("target_tokens", target_tokens.json());
    }
    let courage_note = format!(
        "{}: `courage VALUE cause=fire` for the target, at the end of its group's movement or combat (it may retreat to the nearest cover if closer).",
        f.courage_row
    );
    if let Some(text) = &weapon.several {
        res.note(format!(
            "{}: {text} (`figures=N`: one skill die and one impact die each).",
            weapon.row
        ));
    }
    if !several {
        let Some(shot) = shots.pop() else {
            return Err(input.missing("no shot was resolved"));
        };
        if let Value::Object(map) = shot.json {
            for (k, v) in map {
                if k != "outcome" {
                    res.field(k, v);
                }
            }
        }
        let (text, tone) = match shot.outcome {
            "miss" => ("no hit: the shot misses".to_string(), Tone::Neutral),
            "killed" => (f.kill_row.to_lowercase(), Tone::Good),
            _ if target_tokens.saves_spent > 0 => (
                "target killed — save token spent: the death is cancelled; the hero takes a courage check"
                    .to_string(),
                Tone::Neutral,
            ),
            _ => (f.courage_row.to_lowercase(), Tone::Neutral),
        };
        if shot.outcome == "courage-check" {
            res.note(courage_note);
        }
        res.set_outcome(shot.outcome, text, tone);
        return Ok(res);
    }
    let count = |o: &str| shots.iter().filter(|s| s.outcome == o).count();
    let (killed, checks, missed) = (count("killed"), count("courage-check"), count("miss"));
    res.field("killed", killed);
    res.field("courage_checks", checks);
    res.field("missed", missed);
    res.field(
        "figures",
        Value::Array(shots.into_iter().map(|s| s.json).collect()),
    );
    let outcome = if killed > 0 {
        "killed"
    } else if checks > 0 {
        "courage-check"
    } else {
        "miss"
    };
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
    input: &Input<'t>,
    target: &crate::bind::Bound,
) -> Result<&'t Cover, CommandError> {
    let covers = &input.tables.mayhem.fire.cover;
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

#[allow(clippy::too_many_arguments)]
fn shoot(
    res: &mut Resolution,
    prefix: &str,
    dice: &mut dyn DiceSource,
    mods: &mut Mods,
    cover: &Cover,
    kill_at: i64,
    shooter: &mut Tokens,
    target: &mut Tokens,
) -> Result<Shot, CommandError> {
    let mut die = dice.roll(D6)?;
    res.die(&format!("{prefix}skill die"), die);
    for (label, v) in mods.skill_rows.drain(..) {
        res.modifier(label, v);
    }
    let skill_mod = mods.skill;
    let mut modified = i64::from(die.face) + skill_mod;
    let mut rerolled_from = None;
    if modified < cover.needs && shooter.spend_reroll() {
        rerolled_from = Some(die.face);
        die = dice.roll(D6)?;
        res.die(&format!("{prefix}skill die, reroll token spent"), die);
        modified = i64::from(die.face) + skill_mod;
    }
    res.row(format!("{prefix}skill score"), modified);
    let mut skill = json!({"die": die.face, "modified": modified, "needed": cover.needs});
    if let Some(first) = rerolled_from {
        skill["rerolled_from"] = json!(first);
    }
    if modified < cover.needs {
        res.row(format!("{prefix}result"), "miss");
        return Ok(Shot {
            json: json!({"skill": skill, "outcome": "miss"}),
            outcome: "miss",
        });
    }
    let impact_die = dice.roll(D6)?;
    res.die(&format!("{prefix}impact die"), impact_die);
    for (label, v) in mods.impact_rows.drain(..) {
        res.modifier(label, v);
    }
    let impact = i64::from(impact_die.face) + mods.impact;
    res.row(format!("{prefix}impact score"), impact);
    let impact_json = json!({"die": impact_die.face, "modified": impact});
    let mut outcome = if impact >= kill_at {
        "killed"
    } else {
        "courage-check"
    };
    let mut json = json!({"skill": skill, "impact": impact_json});
    if outcome == "killed" && target.spend_save() {
        res.row(format!("{prefix}save token spent"), "death cancelled");
        json["save_spent"] = json!(true);
        outcome = "courage-check";
    }
    res.row(
        format!("{prefix}result"),
        if outcome == "killed" {
            format!("killed ({}+)", kill_at)
        } else {
            "courage check".into()
        },
    );
    json["outcome"] = json!(outcome);
    Ok(Shot { json, outcome })
}

fn inches(n: f64) -> String {
    format!("{n}\"")
}
