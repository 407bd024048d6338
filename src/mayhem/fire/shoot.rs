//! The shot thrown: the range and cover rows, the volley, what the shot
//! leaves on the firer and on the figures hit, and the outcome.

use serde_json::Value;

use crate::answer::resolution::{Target, Tone};
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::CommandError;
use crate::mayhem::game::MayhemEffect;
use crate::mayhem::{MayhemTables, Tokens, leader_killed_note, needs};

use super::plan::{Inches, Plan, prefix};
use super::volley::{Fate, Volley, volley};
use crate::mayhem::Resolution;

/// The shot, with the most dice it could have thrown and why those it did
/// not throw were not needed.
pub(super) fn shoot(
    tables: &MayhemTables,
    input: &Input,
    plan: &Plan,
    dice: &mut dyn DiceSource,
) -> Result<(Resolution, usize, String), CommandError> {
    let weapon = &plan.weapon;
    let mut res = input.resolution("fire", plan.heading.as_str());
    // Under `odds` only the outcome is read: the fields are for the shown
    // resolution.
    let quiet = res.quiet;
    if !quiet {
        res.field("range_in", weapon.range);
        if !plan.each_own {
            res.field("distance_in", plan.distance);
            res.measure("distance", plan.distance);
        }
        for note in &plan.notes {
            res.note(note);
        }
    }
    let in_range = plan.marks.iter().filter(|m| m.in_range).count();
    if in_range == 0 {
        out_of_range(&mut res, plan);
        return Ok((res, 0, String::new()));
    }
    range_rows(&mut res, plan);

    let mut shooter = plan.shooter;
    let mut target_tokens = plan.lone;
    let several = plan.figures > 1;
    if !several && (plan.lone_hero || target_tokens.any()) {
        res.row(
            "target: hero",
            format_args!("{} save token(s)", target_tokens.saves),
        );
    }
    if !quiet && several {
        for (i, m) in plan.marks.iter().enumerate().filter(|(_, m)| m.saves > 0) {
            res.row(
                format_args!("{}hero", prefix(plan, i)),
                format_args!("{} save token(s)", m.saves),
            );
        }
    }
    let reroll_held = shooter.rerolls_left() > 0;
    let volley = volley(&mut res, plan, dice, &mut shooter, &mut target_tokens)?;
    if !quiet {
        if !plan.each_own {
            res.field("needed", plan.cover.needs);
        }
        if shooter.any() {
            res.field("firer_tokens", shooter.json());
        }
        if target_tokens.any() {
            res.field("target_tokens", target_tokens.json());
        }
    }
    fired(&mut res, tables, plan);
    shooter.spent(&mut res, Target::ACTOR);
    if !several {
        target_tokens.spent(&mut res, Target::clause(0, 0));
    }
    fell(&mut res, tables, plan, &volley);
    let hits = volley.killed + volley.checks;
    let most = 2 * in_range + usize::from(reroll_held);
    let why = if quiet {
        String::new()
    } else {
        let mut why = Vec::new();
        if hits < in_range {
            why.push(if in_range == 1 {
                "the shot missed, so no impact die was thrown".to_string()
            } else {
                format!(
                    "{} skill die(s) missed, so no impact die was thrown for them",
                    in_range - hits
                )
            });
        }
        if reroll_held && shooter.rerolls_spent == 0 {
            why.push("no skill die missed, so no reroll token was spent".into());
        }
        why.join("; ")
    };
    if several {
        several_outcome(&mut res, tables, plan, volley);
    } else {
        lone_outcome(&mut res, tables, plan, volley, &target_tokens);
    }
    Ok((res, most, why))
}

/// No figure within the weapon's reach: no die is thrown.
fn out_of_range(res: &mut Resolution, plan: &Plan) {
    let weapon = &plan.weapon;
    res.row(
        format_args!("range: {} {}\"", weapon.row, weapon.range),
        format_args!("{} — beyond range", Inches(plan.distance)),
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
}

/// The range and what each figure's cover needs: once for them all, or a
/// row for each figure when each `at` has its own.
fn range_rows(res: &mut Resolution, plan: &Plan) {
    let (weapon, distance, cover) = (&plan.weapon, plan.distance, &plan.cover);
    let half = weapon.range as f64 / 2.0;
    let quiet = res.quiet;
    if plan.each_own {
        res.row(
            format_args!("range: {} {}\"", weapon.row, weapon.range),
            format_args!("half range {}", Inches(half)),
        );
        if !quiet {
            for (i, m) in plan.marks.iter().enumerate() {
                let place = if !m.in_range {
                    format!("{} — beyond range: no die", Inches(m.distance))
                } else {
                    format!(
                        "{} — {} half range; {}: {}",
                        Inches(m.distance),
                        if m.over_half { "over" } else { "within" },
                        m.cover.row,
                        needs(m.cover.needs)
                    )
                };
                res.row(prefix(plan, i).trim_end_matches(": "), place);
            }
        }
    } else {
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
        if !quiet {
            res.row(format_args!("needs: {}", cover.row), needs(cover.needs));
        }
    }
}

/// The shot is fired: a gunpowder weapon is unloaded, a gun smokes, a bow
/// has shot this turn.
fn fired(res: &mut Resolution, tables: &MayhemTables, plan: &Plan) {
    let weapon = &plan.weapon;
    if weapon.gun {
        res.effect(
            Target::ACTOR,
            MayhemEffect::Smoke {
                puffs: u32::try_from(tables.reload.puffs).unwrap_or(0),
            },
        );
    } else if weapon.gunpowder {
        res.effect(Target::ACTOR, MayhemEffect::Unloaded);
    } else {
        res.effect(Target::ACTOR, MayhemEffect::Shot);
    }
    if let Some(text) = &weapon.several {
        res.note(format_args!(
            "{}: {text} (`figures=N`: a skill die for each figure, then an impact die for each hit, in figure order).",
            weapon.row
        ));
    }
}

/// What falls on the figures of the game that were hit: a death, or a save
/// token spent; and the courage a leader's death calls for.
fn fell(res: &mut Resolution, tables: &MayhemTables, plan: &Plan, volley: &Volley) {
    if plan.figures <= 1 {
        if volley.killed > 0 {
            res.effect(Target::clause(0, 0), MayhemEffect::Killed);
            if let Some(m) = plan.marks.first() {
                let who = m.id.as_deref().unwrap_or("The target");
                leader_killed_note(res, tables, who, m.leader, m.commander);
            }
        }
        return;
    }
    if res.quiet {
        return;
    }
    // Each shot falls on its own figure, in the order named.
    for (m, fate) in plan.marks.iter().zip(&volley.fates) {
        let Some(target) = m.target else {
            if *fate == Fate::Killed {
                leader_killed_note(res, tables, "A figure killed", m.leader, m.commander);
            }
            continue;
        };
        match fate {
            Fate::Killed => {
                res.effect(target, MayhemEffect::Killed);
                let who = m.id.as_deref().unwrap_or("The figure");
                leader_killed_note(res, tables, who, m.leader, m.commander);
            }
            Fate::Saved => res.effect(target, MayhemEffect::SaveSpent),
            Fate::Miss | Fate::Check | Fate::Beyond => {}
        }
    }
}

fn outcome_word(volley: &Volley) -> &'static str {
    if volley.killed > 0 {
        "killed"
    } else if volley.checks > 0 {
        "courage-check"
    } else {
        "miss"
    }
}

/// The check each figure hit and not killed takes: its own `courage` line
/// when every such figure was named (`who`), else the value to fill in.
fn courage_note(res: &mut Resolution, tables: &MayhemTables, who: &[Option<&str>]) {
    let row = &tables.fire.courage_row;
    let named: Option<Vec<&str>> = who.iter().copied().collect();
    match named.filter(|n| !n.is_empty()) {
        Some(ids) => {
            let lines: Vec<String> = ids
                .iter()
                .map(|id| format!("`courage {id} cause=fire`"))
                .collect();
            res.note(format_args!(
                "{row}: {} for {}, at the end of its group's movement or combat (it may retreat to the nearest cover if closer).",
                lines.join(", "),
                ids.join(" and ")
            ));
        }
        None => res.note(format_args!(
            "{row}: `courage VALUE cause=fire` for the target, at the end of its group's movement or combat (it may retreat to the nearest cover if closer)."
        )),
    }
}

/// The outcome of a shot at one figure: its shot's fields are the
/// resolution's own.
fn lone_outcome(
    res: &mut Resolution,
    tables: &MayhemTables,
    plan: &Plan,
    volley: Volley,
    target: &Tokens,
) {
    let f = &tables.fire;
    let outcome = outcome_word(&volley);
    let mut shots = volley.shots;
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
        _ if target.saves_spent > 0 => (
            "target killed — save token spent: the death is cancelled; the hero takes a courage check"
                .to_string(),
            Tone::Neutral,
        ),
        _ => (f.courage_row.to_lowercase(), Tone::Neutral),
    };
    if outcome == "courage-check" {
        let who = plan.marks.first().map(|m| m.id.as_deref());
        courage_note(res, tables, &[who.flatten()]);
    }
    res.set_outcome(outcome, text, tone);
}

/// The outcome of a shot at several figures: the count of each fate, and
/// each figure's shot.
fn several_outcome(res: &mut Resolution, tables: &MayhemTables, plan: &Plan, volley: Volley) {
    let outcome = outcome_word(&volley);
    let figures = plan.figures;
    let (killed, checks, missed) = (volley.killed, volley.checks, volley.missed);
    if !res.quiet {
        res.field("killed", killed);
        res.field("courage_checks", checks);
        res.field("missed", missed);
        if volley.beyond > 0 {
            res.field("out_of_range", volley.beyond);
        }
        res.field("figures", Value::Array(volley.shots));
        if plan.named > 0 && plan.named < figures {
            unnamed_note(res, plan);
        }
    }
    if checks > 0 {
        let who: Vec<Option<&str>> = plan
            .marks
            .iter()
            .zip(&volley.fates)
            .filter(|(_, f)| matches!(f, Fate::Check | Fate::Saved))
            .map(|(m, _)| m.id.as_deref())
            .collect();
        courage_note(res, tables, &who);
    }
    let saved = volley.saved;
    let saved_text = if saved > 0 {
        format!(" ({saved} of them a hero whose save token cancels the death)")
    } else {
        String::new()
    };
    let beyond = if volley.beyond > 0 {
        format!(", {} out of range", volley.beyond)
    } else {
        String::new()
    };
    res.set_outcome(
        outcome,
        format!(
            "{figures} figures: {killed} killed, {checks} take a courage check{saved_text}, {missed} missed{beyond}"
        ),
        if killed > 0 {
            Tone::Good
        } else {
            Tone::Neutral
        },
    );
}

/// The figures not named after `at`, whose results fall on no figure.
fn unnamed_note(res: &mut Resolution, plan: &Plan) {
    let unnamed: Vec<usize> = plan
        .marks
        .iter()
        .enumerate()
        .filter(|(_, m)| m.id.is_none())
        .map(|(i, _)| i + 1)
        .collect();
    let which = match unnamed.as_slice() {
        [one] => format!("figure {one} is not named after `at`: its result falls"),
        [first, .., last] if last - first + 1 == unnamed.len() => {
            format!("figures {first}–{last} are not named after `at`: their results fall")
        }
        many => format!(
            "figures {} are not named after `at`: their results fall",
            many.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    res.note(format_args!("{which} on no figure of the game."));
}
