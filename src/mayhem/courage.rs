//! Courage checks: one die against the highest courage value in the group,
//! equal or less passes. On failure a group ordered to charge stands still;
//! otherwise each individual rolls against its own courage: higher runs off
//! the board, otherwise it retreats 2d6".

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::MayhemEffect;
use crate::bind::{Kind, Vocab};
use crate::catalog::{Input, VerbDoc};
use crate::command::{Span, Word, WordKind};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::{Resolution, Tone};

use super::{Cause, D6, MAX_TOKENS, MayhemTables, Tokens};

/// The cause whose check is an individual one taken at the group rate.
const INDIVIDUAL_CAUSE: &str = "fire";

/// Most figures in one group on a line.
const MAX_GROUP: usize = 50;

pub fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let c = &tables.courage;
    let mut vocab = Vocab::new().raw().number_from("courage");
    vocab.add(
        "(rule)",
        Kind::Flag,
        format!(
            "{}; on failure (not ordered to charge) each individual rolls again: higher runs off the board, {} ({})",
            c.pass_row,
            c.retreat_row.to_lowercase(),
            c.retreat
        ),
    );
    vocab.add(
        "N",
        Kind::Flag,
        "a figure's courage value, 1 to 6 (`courage 4`)",
    );
    for r in &c.rank {
        vocab.add(
            r.keyword.clone(),
            Kind::Flag,
            format!("courage {}: {}", r.value, r.row),
        );
    }
    vocab.add(
        "group=N,N,…",
        Kind::Flag,
        "a group's courage values or ranks (`group=4,3,3`, `group=leader,soldier`); the check is against the highest. With `cause=fire` list the hit figure first: only it rolls again on failure",
    );
    for cause in &c.cause {
        let effect = if cause.stand_still {
            "on failure the group stands still instead"
        } else {
            "on failure each individual checks"
        };
        vocab.add(
            format!("cause={}", cause.keyword),
            Kind::Flag,
            format!("{} ({effect})", cause.row),
        );
    }
    vocab.add(
        "saves=N",
        Kind::Flag,
        format!(
            "one hero's {}: one is spent automatically to cancel a morale failure",
            tables.heroes.save
        ),
    );
    vocab.add(
        "rerolls=N",
        Kind::Flag,
        format!(
            "one hero's {}: one is spent automatically to reroll a failed courage die (the reroll stands)",
            tables.heroes.reroll
        ),
    );
    VerbDoc::new(
        Some(super::MAYHEM),
        "courage",
        "courage N|RANK|group=N,N,… [cause=casualty|charge-ordered|charged|fire|leader-killed] [saves=N] [rerolls=N]",
        "Courage check: one die against the highest courage in the group, equal or less passes; on failure each individual runs off or retreats 2d6\". Dice: the group die, then a die for each figure, then the retreat dice of each figure that retreats.",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .examples(&[
        "courage 4",
        "courage leader cause=charged",
        "courage group=4,3,3 cause=casualty rolled 6 2 5 4 3 1",
        "courage group=leader,soldier cause=charge-ordered",
    ])
}

/// What the words say.
struct Check<'t> {
    values: Vec<i64>,
    cause: Option<&'t Cause>,
    tokens: Tokens,
}

fn read<'t>(tables: &'t MayhemTables, input: &Input) -> Result<Check<'t>, CommandError> {
    crate::bind::no_clauses(input.command)?;
    let c = &tables.courage;
    let mut values: Option<(Vec<i64>, Span, String)> = None;
    let mut cause = None;
    let mut tokens = Tokens::default();
    let mut token_seen = [false; 2];
    let mut set_values = |found: (Vec<i64>, Span, String)| -> Result<(), CommandError> {
        if let Some((_, _, first)) = &values {
            return Err(BindError::Conflict {
                span: found.1,
                first: first.clone(),
                second: found.2,
                group: "courage values".into(),
            }
            .into());
        }
        values = Some(found);
        Ok(())
    };
    for word in &input.words.raw {
        match &word.kind {
            WordKind::Number(n) => {
                let v = face_value(*n, word)?;
                set_values((vec![v], word.span, word.text.clone()))?;
            }
            WordKind::Keyword { name, value } => match (name.as_str(), value.as_deref()) {
                ("group", Some(list)) => {
                    let v = group_values(list, word, tables)?;
                    set_values((v, word.span, word.text.clone()))?;
                }
                ("cause", Some(v)) => {
                    if cause.is_some() {
                        return Err(repeated(word, "cause"));
                    }
                    let v = crate::parse::normalise(v);
                    cause = Some(c.cause.iter().find(|x| x.keyword == v).ok_or_else(|| {
                        let names: Vec<&str> = c.cause.iter().map(|x| x.keyword.as_str()).collect();
                        let hint = crate::bind::nearest(&v, names.iter().copied())
                            .map_or(String::new(), |s| format!(" (did you mean `cause={s}`?)"));
                        BindError::BadValue {
                            span: word.span,
                            text: word.text.clone(),
                            expected: format!("the cause is one of {}{hint}", names.join(", ")),
                        }
                    })?);
                }
                (k @ ("saves" | "rerolls"), Some(v)) => {
                    let i = usize::from(k == "rerolls");
                    if token_seen[i] {
                        return Err(repeated(word, k));
                    }
                    token_seen[i] = true;
                    let n = match v.parse::<i64>() {
                        Ok(n) if (0..=MAX_TOKENS).contains(&n) => n,
                        _ => {
                            return Err(BindError::BadValue {
                                span: word.span,
                                text: word.text.clone(),
                                expected: format!("expected a whole number from 0 to {MAX_TOKENS}"),
                            }
                            .into());
                        }
                    };
                    if i == 0 {
                        tokens.saves = n;
                    } else {
                        tokens.rerolls = n;
                    }
                }
                (k @ ("group" | "cause" | "saves" | "rerolls"), None) => {
                    return Err(BindError::MissingValue {
                        span: word.span,
                        word: k.to_string(),
                        expected: format!("like `{k}=…` (see `help courage`)"),
                    }
                    .into());
                }
                (k, None) if c.rank.iter().any(|r| r.keyword == k) => {
                    let v = c
                        .rank
                        .iter()
                        .find(|r| r.keyword == k)
                        .map_or(0, |r| r.value);
                    set_values((vec![v], word.span, word.text.clone()))?;
                }
                (k, _) => return Err(unknown(tables, word, k, input)),
            },
            _ => return Err(unknown(tables, word, &word.text, input)),
        }
    }
    let Some((values, span, _)) = values else {
        return Err(input.missing(
            "`courage` needs a courage value (`courage 4`), a rank (`courage leader`) or a group (`group=4,3,3`)",
        ));
    };
    if values.len() > 1 && tokens.any() {
        return Err(BindError::NotHere {
            span,
            text: "group".into(),
            why: "has several figures; hero tokens (`saves`, `rerolls`) belong to one figure: check the hero alone".into(),
        }
        .into());
    }
    Ok(Check {
        values,
        cause,
        tokens,
    })
}

fn repeated(word: &Word, name: &str) -> CommandError {
    BindError::Repeated {
        span: word.span,
        word: name.to_string(),
    }
    .into()
}

fn unknown(tables: &MayhemTables, word: &Word, name: &str, _input: &Input) -> CommandError {
    let c = &tables.courage;
    let names = c
        .rank
        .iter()
        .map(|r| r.keyword.as_str())
        .chain(["group", "cause", "saves", "rerolls"]);
    BindError::UnknownWord {
        span: word.span,
        word: word.text.clone(),
        verb: "courage".into(),
        suggestion: crate::bind::nearest(&crate::parse::normalise(name), names),
    }
    .into()
}

fn face_value(n: f64, word: &Word) -> Result<i64, CommandError> {
    if n.fract() == 0.0 && (1.0..=f64::from(D6)).contains(&n) {
        Ok(n as i64)
    } else {
        Err(BindError::BadValue {
            span: word.span,
            text: word.text.clone(),
            expected: "a courage value is a whole number from 1 to 6".into(),
        }
        .into())
    }
}

fn group_values(list: &str, word: &Word, tables: &MayhemTables) -> Result<Vec<i64>, CommandError> {
    let ranks = &tables.courage.rank;
    let bad = |what: String| -> CommandError {
        BindError::BadValue {
            span: word.span,
            text: word.text.clone(),
            expected: what,
        }
        .into()
    };
    let mut values = Vec::new();
    for item in list.split(',') {
        if values.len() >= MAX_GROUP {
            return Err(bad(format!(
                "a group on one line has at most {MAX_GROUP} figures"
            )));
        }
        let item = crate::parse::normalise(item.trim());
        let v = match item.parse::<i64>() {
            Ok(n) if (1..=i64::from(D6)).contains(&n) => n,
            Ok(_) => return Err(bad(format!("`{item}`: courage values are 1 to 6"))),
            Err(_) => match ranks.iter().find(|r| r.keyword == item) {
                Some(r) => r.value,
                None => {
                    let names: Vec<&str> = ranks.iter().map(|r| r.keyword.as_str()).collect();
                    return Err(bad(format!(
                        "`{item}` is neither a courage value (1 to 6) nor a rank ({})",
                        names.join(", ")
                    )));
                }
            },
        };
        values.push(v);
    }
    Ok(values)
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let c = &tables.courage;
    let Check {
        values,
        cause,
        mut tokens,
    } = read(tables, input)?;
    let highest = values.iter().copied().max().unwrap_or(0);
    let group = values.len() > 1;
    let heading = if group {
        format!("courage check, group of {}", values.len())
    } else {
        "courage check, individual (a group of one)".to_string()
    };
    let mut res = input.resolution("courage", heading);
    match cause {
        Some(cause) => res.row("cause", &cause.row),
        None => res.row("cause", "not given: any cause but an order to charge"),
    }
    res.row(
        "courage values",
        values
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    );
    res.row("highest courage value", highest);
    res.field("highest", highest);
    if let Some(cause) = cause {
        res.field("cause", cause.keyword.clone());
    }

    // The die counts only against the highest value: passing or not.
    let fails_at = [score_above(highest)];
    let mut die = dice.roll_against(D6, &fails_at)?;
    res.die("group die", die);
    if i64::from(die.face) > highest && tokens.spend_reroll() {
        die = dice.roll_against(D6, &fails_at)?;
        res.die("group die, reroll token spent", die);
    }
    let score = i64::from(die.face);
    res.set_score(score);
    res.field("needed", highest);
    let stand_still = cause.is_some_and(|c| c.stand_still);
    let pass_figures = |result: &str| -> Value {
        Value::Array(
            values
                .iter()
                .map(|v| json!({"courage": v, "die": null, "result": result, "retreat_in": null}))
                .collect(),
        )
    };
    if score <= highest {
        res.set_outcome(
            "pass",
            format!("passes: {score} is equal to or less than {highest}"),
            Tone::Good,
        );
        res.odds_group = Some(format!("passes: {highest} or less").into());
        res.field("figures", pass_figures("pass"));
        finish_tokens(&mut res, &tokens);
        return Ok(res);
    }
    res.row(
        "result",
        format!("failed: {score} is higher than {highest}"),
    );
    if tokens.spend_save() {
        res.row("save token spent", "morale failure cancelled");
        res.field("save_spent", true);
        res.set_outcome(
            "pass",
            format!("courage failed ({score} > {highest}) — save token spent: the morale failure is cancelled"),
            Tone::Good,
        );
        res.odds_group =
            Some("courage failed — save token spent: the morale failure is cancelled".into());
        res.field("figures", pass_figures("pass"));
        finish_tokens(&mut res, &tokens);
        return Ok(res);
    }
    if stand_still {
        res.set_outcome(
            "stand-still",
            "courage failed: the group was ordered to charge, so it stands still instead",
            Tone::Bad,
        );
        res.field("figures", pass_figures("stand-still"));
        finish_tokens(&mut res, &tokens);
        return Ok(res);
    }

    // Cause 4 is an individual check taken at the group rate: only the
    // figure that was hit (listed first) rolls again.
    let hit_only = group && cause.is_some_and(|c| c.keyword == INDIVIDUAL_CAUSE);
    let checking = if hit_only { &values[..1] } else { &values[..] };
    if hit_only {
        res.row(
            "individual check at the group rate",
            "only the hit figure (listed first) rolls again",
        );
    }
    // Each figure's die counts only against its own value, so the whole
    // group is one draw: how many run off. The dice are thrown together;
    // the retreats are rolled after them, figure by figure.
    let run_scores: Vec<u32> = checking.iter().map(|&v| score_above(v)).collect();
    let mut thrown = dice.pool_each(D6, &run_scores)?;
    let mut first_dice = Vec::new();
    // Tokens belong to a lone figure: its reroll replaces the failed die.
    if thrown.successes > 0 && tokens.spend_reroll() {
        first_dice = std::mem::take(&mut thrown.dice);
        thrown = dice.pool_each(D6, &run_scores)?;
    }
    let ran = thrown.successes as usize;
    let retreated = checking.len() - ran;
    let label = |i: usize, value: i64| {
        if group {
            format!("figure {} (courage {value})", i + 1)
        } else {
            format!("individual (courage {value})")
        }
    };
    // Shown in the order thrown: every figure's die, then the retreats.
    for (i, (&value, &die)) in checking.iter().zip(&thrown.dice).enumerate() {
        let label = label(i, value);
        if let Some(&first) = first_dice.get(i) {
            res.die(format_args!("{label} die"), first);
            res.die(format_args!("{label} die, reroll token spent"), die);
        } else {
            res.die(format_args!("{label} die"), die);
        }
        if i64::from(die.face) > value {
            res.row(format_args!("{label} result"), "runs off the board");
        }
    }
    let mut figures = Vec::new();
    for (i, (&value, &die)) in checking.iter().zip(&thrown.dice).enumerate() {
        if i64::from(die.face) > value {
            figures.push(json!({"courage": value, "die": die.face, "result": "runs-off", "retreat_in": null}));
            continue;
        }
        let label = label(i, value);
        let (rolled, total) = c.retreat.roll(dice)?;
        res.dice_rows(
            format_args!("{label} retreat {}", c.retreat.to_string().to_lowercase()),
            &rolled,
        );
        res.row(
            format_args!("{label} result"),
            format!("retreats {total}\""),
        );
        figures.push(
            json!({"courage": value, "die": die.face, "result": "retreats", "retreat_in": total}),
        );
    }
    res.field("figures", Value::Array(figures));
    res.field("runs_off", ran);
    if ran > 0 {
        res.effect(Target::ACTOR, MayhemEffect::RanOff);
    }
    res.field("retreats", retreated);
    finish_tokens(&mut res, &tokens);
    let text = if group && !hit_only {
        format!("courage failed: {ran} run off the board (removed), {retreated} retreat")
    } else if ran > 0 {
        "courage failed: the figure runs off the board and is removed".to_string()
    } else {
        "courage failed: the figure retreats".to_string()
    };
    res.set_outcome("fail", text, Tone::Bad);
    if retreated > 0 && cause.is_some_and(|c| c.keyword == "fire") {
        res.note("Retreating figures may go to the nearest cover instead, if it is closer (a check caused by enemy fire).");
    }
    Ok(res)
}

/// The lowest face that is higher than a courage value.
fn score_above(value: i64) -> u32 {
    (value + 1).clamp(1, i64::from(D6) + 1) as u32
}

fn finish_tokens(res: &mut Resolution, tokens: &Tokens) {
    tokens.spent(res, Target::ACTOR);
    if tokens.any() {
        res.field("tokens", tokens.json());
    }
}
