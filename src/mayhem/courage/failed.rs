//! A failed check that is not cancelled: each figure that may rolls again
//! against its own courage — higher runs off the board, otherwise it
//! retreats — unless its save token holds it.

use serde_json::{Value, json};

use crate::answer::resolution::{Target, Tone};
use crate::dice::{DiceSource, Rolled};
use crate::error::CommandError;
use crate::mayhem::game::MayhemEffect;
use crate::mayhem::{Cause, CourageTable, D6, Tokens};

use super::read::Member;
use super::{INDIVIDUAL_CAUSE, finish_tokens, score_above};
use crate::mayhem::Resolution;

/// What became of a figure of a group that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Its save token cancelled its morale failure.
    Holds,
    RunsOff,
}

/// The individual dice of the figures that roll again.
struct Thrown {
    /// Each roller's die and its reroll, when the faces are kept.
    dice: Vec<(Rolled, Option<Rolled>)>,
    ran: usize,
}

/// Each figure's die counts only against its own value, so those without
/// a reroll token are one draw under `odds`: how many run off. A figure
/// with a reroll token throws again when its die runs off (the reroll
/// stands). With real dice every die is thrown in figure order, then the
/// rerolls.
fn individual_dice(
    dice: &mut dyn DiceSource,
    rollers: &[usize],
    values: &[i64],
    tokens: &mut [Tokens],
) -> Result<Thrown, CommandError> {
    let runs_on = |i: usize| score_above(values[i]);
    if dice.enumerator().is_some() {
        let plain: Vec<u32> = rollers
            .iter()
            .filter(|i| tokens[**i].rerolls_left() == 0)
            .map(|i| runs_on(*i))
            .collect();
        let mut ran = dice.pool_each(D6, &plain)?.successes as usize;
        let heroes: Vec<usize> = rollers
            .iter()
            .copied()
            .filter(|i| tokens[*i].rerolls_left() > 0)
            .collect();
        for i in heroes {
            let mut die = dice.roll_against(D6, &[runs_on(i)])?;
            if die.face >= runs_on(i) && tokens[i].spend_reroll() {
                die = dice.roll_against(D6, &[runs_on(i)])?;
            }
            ran += usize::from(die.face >= runs_on(i));
        }
        return Ok(Thrown {
            dice: Vec::new(),
            ran,
        });
    }
    let scores: Vec<u32> = rollers.iter().map(|i| runs_on(*i)).collect();
    let first = dice.pool_each(D6, &scores)?.dice;
    let mut thrown = Vec::with_capacity(first.len());
    let mut ran = 0;
    for (&i, die) in rollers.iter().zip(first) {
        let mut again = None;
        if die.face >= runs_on(i) && tokens[i].spend_reroll() {
            again = Some(dice.roll_against(D6, &[runs_on(i)])?);
        }
        ran += usize::from(again.unwrap_or(die).face >= runs_on(i));
        thrown.push((die, again));
    }
    Ok(Thrown { dice: thrown, ran })
}

/// The figure's label in the rows: its place in a group, its id, its value.
fn label(members: &[Member], group: bool, i: usize) -> String {
    let value = members[i].courage;
    match (&members[i].named, group) {
        (Some((_, id)), true) => format!("figure {} {id} (courage {value})", i + 1),
        (None, true) => format!("figure {} (courage {value})", i + 1),
        (Some((_, id)), false) => format!("{id} (courage {value})"),
        (None, false) => format!("individual (courage {value})"),
    }
}

/// The figures that roll again, their dice and retreats, and the outcome;
/// why the dice not thrown were not needed.
pub(super) fn individuals(
    res: &mut Resolution,
    c: &CourageTable,
    cause: Option<&Cause>,
    members: &[Member],
    tokens: &mut [Tokens],
    dice: &mut dyn DiceSource,
) -> Result<String, CommandError> {
    let quiet = res.quiet;
    let values: Vec<i64> = members.iter().map(|m| m.courage).collect();
    let group = values.len() > 1;
    // Cause 4 is an individual check taken at the group rate: only the
    // figure that was hit (listed first) rolls again.
    let hit_only = group && cause.is_some_and(|c| c.keyword == INDIVIDUAL_CAUSE);
    let checking = if hit_only { 1 } else { values.len() };
    if hit_only {
        res.row(
            "individual check at the group rate",
            "only the hit figure (listed first) rolls again",
        );
    }
    let label = |i: usize| label(members, group, i);
    // In a group, a hero's save token cancels the group's morale failure
    // for him alone: he holds, and does not roll again.
    let mut fates: Vec<Option<Fate>> = vec![None; checking];
    for (i, fate) in fates.iter_mut().enumerate() {
        if group && tokens[i].spend_save() {
            res.row(
                format_args!("{} save token spent", label(i)),
                "morale failure cancelled: holds",
            );
            *fate = Some(Fate::Holds);
        }
    }
    let rollers: Vec<usize> = (0..checking).filter(|i| fates[*i].is_none()).collect();
    let thrown = individual_dice(dice, &rollers, &values, tokens)?;
    let ran = thrown.ran;
    let held = checking - rollers.len();
    let retreated = rollers.len() - ran;
    // Shown in the order thrown: every figure's die, then the retreats.
    for (k, &i) in rollers.iter().enumerate() {
        let Some(&(first, again)) = thrown.dice.get(k) else {
            break;
        };
        let label = if quiet { String::new() } else { label(i) };
        res.die(format_args!("{label} die"), first);
        let die = match again {
            Some(again) => {
                res.die(format_args!("{label} die, reroll token spent"), again);
                again
            }
            None => first,
        };
        if i64::from(die.face) > values[i] {
            res.row(format_args!("{label} result"), "runs off the board");
            fates[i] = Some(Fate::RunsOff);
        }
    }
    retreats(res, c, members, &fates, &rollers, &thrown, dice)?;
    res.field("runs_off", ran);
    if !res.quiet {
        for i in 0..checking {
            if fates[i] == Some(Fate::RunsOff)
                && let Some((nth, _)) = members[i].named
            {
                res.effect(Target::Side { clause: None, nth }, MayhemEffect::RanOff);
            }
        }
    }
    res.field("retreats", retreated);
    if held > 0 {
        res.field("holds", held);
    }
    finish_tokens(res, members, tokens);
    let counts = Counts {
        ran,
        retreated,
        held,
    };
    Ok(outcome(res, cause, tokens, group && !hit_only, counts))
}

/// How the figures that rolled again fared.
struct Counts {
    ran: usize,
    retreated: usize,
    held: usize,
}

/// The outcome of a failed check, counted for a group or said of the one
/// figure; why the dice not thrown were not needed.
fn outcome(
    res: &mut Resolution,
    cause: Option<&Cause>,
    tokens: &[Tokens],
    counted: bool,
    counts: Counts,
) -> String {
    let Counts {
        ran,
        retreated,
        held,
    } = counts;
    let quiet = res.quiet;
    let text = if counted {
        let holds = if held > 0 {
            format!(", {held} hold (save token)")
        } else {
            String::new()
        };
        format!("courage failed: {ran} run off the board (removed), {retreated} retreat{holds}")
    } else if held > 0 {
        "courage failed — the hit figure's save token cancels its morale failure: it holds"
            .to_string()
    } else if ran > 0 {
        "courage failed: the figure runs off the board and is removed".to_string()
    } else {
        "courage failed: the figure retreats".to_string()
    };
    res.set_outcome("fail", text, Tone::Bad);
    if retreated > 0 && cause.is_some_and(|c| c.keyword == "fire") {
        res.note("Retreating figures may go to the nearest cover instead, if it is closer (a check caused by enemy fire).");
    }
    if quiet {
        String::new()
    } else {
        let mut why = Vec::new();
        if ran > 0 {
            why.push("a figure that runs off the board throws no retreat dice");
        }
        if held > 0 {
            why.push("a figure whose save token holds it rolls no die");
        }
        if tokens.iter().any(|t| t.rerolls_left() > 0) {
            why.push("a reroll token is spent only on a die that fails");
        }
        why.join("; ")
    }
}

/// Each figure's fate in the figures' JSON, throwing the retreat dice of
/// those that retreat.
fn retreats(
    res: &mut Resolution,
    c: &CourageTable,
    members: &[Member],
    fates: &[Option<Fate>],
    rollers: &[usize],
    thrown: &Thrown,
    dice: &mut dyn DiceSource,
) -> Result<(), CommandError> {
    let quiet = res.quiet;
    let values: Vec<i64> = members.iter().map(|m| m.courage).collect();
    let group = values.len() > 1;
    let label = |i: usize| label(members, group, i);
    let mut figures = Vec::new();
    for i in 0..fates.len() {
        let k = rollers.iter().position(|r| *r == i);
        let die = k
            .and_then(|k| thrown.dice.get(k))
            .map(|(f, a)| a.unwrap_or(*f));
        let mut j = match (fates[i], die) {
            _ if quiet && !matches!((fates[i], die), (None, Some(_))) => continue,
            (Some(Fate::Holds), _) => {
                json!({"courage": values[i], "die": null, "result": "holds", "retreat_in": null})
            }
            (Some(Fate::RunsOff), Some(die)) => {
                json!({"courage": values[i], "die": die.face, "result": "runs-off", "retreat_in": null})
            }
            (_, Some(die)) => {
                let label = if quiet { String::new() } else { label(i) };
                let (rolled, total) = c.retreat.roll(dice)?;
                res.dice_rows(
                    format_args!("{label} retreat {}", c.retreat.to_string().to_lowercase()),
                    &rolled,
                );
                res.row(
                    format_args!("{label} result"),
                    format!("retreats {total}\""),
                );
                if quiet {
                    continue;
                }
                json!({"courage": values[i], "die": die.face, "result": "retreats", "retreat_in": total})
            }
            // Under `odds` the dice are counted, not kept.
            (_, None) => continue,
        };
        if let Some((_, id)) = &members[i].named {
            j["figure"] = json!(id);
        }
        figures.push(j);
    }
    res.field("figures", Value::Array(figures));
    Ok(())
}
