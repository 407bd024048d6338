//! Courage checks: one die against the highest courage value in the group,
//! equal or less passes. On failure a group ordered to charge stands still;
//! otherwise each individual rolls against its own courage: higher runs off
//! the board, otherwise it retreats 2d6".

mod failed;
mod read;

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::{GROUP_RATE, LEADER, MayhemEffect};
use super::{Resolution, VerbDoc};
use crate::answer::resolution::Target;
use crate::answer::resolution::Tone;
use crate::bind::{Kind, Vocab};
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::CommandError;

use super::{Cause, Counted, CourageTable, D6, MAX_TOKENS, MayhemTables, Repeats, Tokens};
use read::{Member, read};

/// The fact that is a named figure's courage value: its own, or its rank's.
const COURAGE: &str = "courage";

/// The cause whose check is an individual one taken at the group rate.
const INDIVIDUAL_CAUSE: &str = "fire";

pub(crate) fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let c = &tables.courage;
    let mut vocab = Vocab::new().raw().number_from(COURAGE);
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
        "a figure's own courage value, 1 to 6 (`courage 4`); beside a rank word it stands, whatever the rank's basic value (`courage 6 soldier` checks against 6)",
    );
    for r in &c.rank {
        let help = if r.keyword == LEADER {
            format!(
                "a leader; alone, courage {}: {}. Beside a courage value (a number or another rank) it only marks the figure as a leader, and that value stands: `courage 5 leader` is a leader of courage 5, as a figure marked `leader` in its list brings it",
                r.value, r.row
            )
        } else {
            format!("courage {}: {}", r.value, r.row)
        };
        vocab.add(r.keyword.clone(), Kind::Flag, help);
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
    figure_words(&mut vocab, tables);
    VerbDoc::new(
        Some(super::MAYHEM),
        "courage",
        "courage N|RANK|group=N,N,…|FIGURE… [cause=casualty|charge-ordered|charged|fire|leader-killed] [saves=N] [rerolls=N]",
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
        "courage 5 saves=1 group=3,3 cause=casualty rolled 6 2 5 3 4",
    ])
}

/// What a figure named in a game brings, and a figure's own group rate and
/// hero tokens.
fn figure_words(vocab: &mut Vocab, tables: &MayhemTables) {
    let c = &tables.courage;
    vocab.add(
        "FIGURE",
        Kind::Flag,
        "in a game, a figure's id: its courage value and its tokens left, as if typed (an exceptional leader marked `leader` with 2 save tokens left is `courage 5 leader saves=2`); tokens typed right after the id win. Several figures are a group, checked together, each running off or retreating on its own",
    );
    vocab.add(
        GROUP_RATE,
        Kind::Number { min: 1, max: 6 },
        format!(
            "one figure's group rate, written right after its value (`courage 3 group-rate=4 cause=fire`): the highest courage value of its group, above its own (a figure named in a game brings it from its list's group in play). A figure checking alone with `cause=fire` throws the group die against it — \"{}\" — and on failure the figure rolls again against its own",
            c.cause
                .iter()
                .find(|x| x.keyword == INDIVIDUAL_CAUSE)
                .map_or("", |x| x.row.as_str())
        ),
    );
    vocab.add(
        "saves",
        Kind::Number {
            min: 0,
            max: MAX_TOKENS,
        },
        format!(
            "one hero's {}: one is spent automatically to cancel a morale failure (in a group, the hero's own: he holds). In a group write it right after the hero's value or id — a typed hero then joins the `group=…` that follows (`courage 5 saves=1 group=3,3`) — or after `group=…` for its first figure (list the hero first)",
            tables.heroes.save
        ),
    );
    vocab.add(
        "rerolls",
        Kind::Number {
            min: 0,
            max: MAX_TOKENS,
        },
        format!(
            "one hero's {}: one is spent automatically to reroll a failed courage die (the reroll stands; in a group, the hero's own die, written as `saves=N` is)",
            tables.heroes.reroll
        ),
    );
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let mut dice = Counted::new(dice, Repeats::Each);
    let (mut res, most, why) = check(tables, input, &mut dice)?;
    dice.unused(input, &mut res, most, || why)?;
    Ok(res)
}

/// The check, with the most dice it could have thrown and why those it
/// did not throw were not needed ("If the score is higher then courage has
/// failed … roll again against each individual's courage … Otherwise they
/// retreat 2d6"").
fn check(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<(Resolution, usize, String), CommandError> {
    let c = &tables.courage;
    let read = crate::memoized!(
        input,
        (Vec<read::Member>, Option<usize>, Vec<(String, String)>),
        || {
            read(tables, input).map(|check| {
                let cause = check
                    .cause
                    .and_then(|x| c.cause.iter().position(|y| y.keyword == x.keyword));
                (check.members, cause, check.read_as)
            })
        }
    )?;
    let (members, cause, read_as) = &*read;
    let cause = cause.and_then(|i| c.cause.get(i));
    let values: Vec<i64> = members.iter().map(|m| m.courage).collect();
    let mut tokens: Vec<Tokens> = members.iter().map(|m| m.tokens).collect();
    let group = values.len() > 1;
    // "individual check, but taken at the group rate": a figure named
    // alone for a missile hit checks at its group's highest value.
    let group_rate = match (cause, members.as_slice()) {
        (Some(cause), [m]) if cause.keyword == INDIVIDUAL_CAUSE => {
            m.group_rate.filter(|r| *r > m.courage)
        }
        _ => None,
    };
    let highest = group_rate.unwrap_or_else(|| values.iter().copied().max().unwrap_or(0));
    let heading = if group {
        format!("courage check, group of {}", values.len())
    } else {
        "courage check, individual (a group of one)".to_string()
    };
    let mut res = input.resolution("courage", heading);
    let most = most_dice(c, cause, &tokens);
    show_check(&mut res, cause, members, read_as, group_rate, highest);
    // The die counts only against the highest value: passing or not. A
    // figure alone may spend its own reroll token on it.
    let fails_at = [score_above(highest)];
    let mut die = dice.roll_against(D6, &fails_at)?;
    res.die("group die", die);
    if i64::from(die.face) > highest && !group && tokens[0].spend_reroll() {
        die = dice.roll_against(D6, &fails_at)?;
        res.die("group die, reroll token spent", die);
    }
    let score = i64::from(die.face);
    res.set_score(score);
    res.field("needed", highest);
    if let Some(why) = averted(&mut res, cause, members, &mut tokens, score, highest) {
        return Ok((res, most, why));
    }
    let why = failed::individuals(&mut res, c, cause, members, &mut tokens, dice)?;
    Ok((res, most, why))
}

/// The group die (and a lone figure's reroll of it), then for each figure
/// that may roll again its die, its reroll and its retreat.
fn most_dice(c: &CourageTable, cause: Option<&Cause>, tokens: &[Tokens]) -> usize {
    let reroll = |t: &Tokens| usize::from(t.rerolls_left() > 0);
    let retreat_dice: usize = c.retreat.dice.iter().map(|(n, _)| *n as usize).sum();
    let stands = cause.is_some_and(|c| c.stand_still);
    let may_check = if stands {
        0
    } else if tokens.len() > 1 && cause.is_some_and(|c| c.keyword == INDIVIDUAL_CAUSE) {
        1
    } else {
        tokens.len()
    };
    1 + if tokens.len() == 1 {
        reroll(&tokens[0])
    } else {
        0
    } + tokens
        .iter()
        .take(may_check)
        .map(|t| 1 + reroll(t) + retreat_dice)
        .sum::<usize>()
}

/// The rows and fields of what is checked: the cause, the values, the
/// value the die is against, how typed words were read, hero tokens.
fn show_check(
    res: &mut Resolution,
    cause: Option<&Cause>,
    members: &[Member],
    read_as: &[(String, String)],
    group_rate: Option<i64>,
    highest: i64,
) {
    let quiet = res.quiet;
    let values: Vec<i64> = members.iter().map(|m| m.courage).collect();
    let group = values.len() > 1;
    match cause {
        Some(cause) => res.row("cause", &cause.row),
        None => res.row("cause", "not given: any cause but an order to charge"),
    }
    if !quiet {
        res.row(
            "courage values",
            values
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    match group_rate {
        Some(rate) => res.row(
            "individual check at the group rate",
            format!("{rate}, the highest courage value of its group in its list; on failure it rolls again against its own {}", values.first().copied().unwrap_or(rate)),
        ),
        None => res.row("highest courage value", highest),
    }
    if !res.quiet {
        for (word, reading) in read_as {
            res.row(word, reading);
        }
        for (i, m) in members.iter().enumerate().filter(|(_, m)| m.tokens.any()) {
            let tokens = format!("{} save(s), {} reroll(s)", m.tokens.saves, m.tokens.rerolls);
            match &m.named {
                Some((_, id)) => res.row(format_args!("{id}: hero tokens"), tokens),
                None if group => res.row(
                    format_args!("figure {} (courage {}): hero tokens", i + 1, m.courage),
                    tokens,
                ),
                None => {}
            }
        }
    }
    res.field("highest", highest);
    if let Some(cause) = cause {
        res.field("cause", cause.keyword.clone());
    }
}

/// A check that passes, whose failure a lone hero's save token cancels, or
/// that leaves a group ordered to charge standing still: no figure rolls
/// again. Why, when it is so.
fn averted(
    res: &mut Resolution,
    cause: Option<&Cause>,
    members: &[Member],
    tokens: &mut [Tokens],
    score: i64,
    highest: i64,
) -> Option<String> {
    let quiet = res.quiet;
    let values: Vec<i64> = members.iter().map(|m| m.courage).collect();
    let group = values.len() > 1;
    let why = |text: &str| {
        if quiet {
            String::new()
        } else {
            text.to_string()
        }
    };
    let stand_still = cause.is_some_and(|c| c.stand_still);
    // The figures' JSON is output only: not built under `odds` or
    // `simulate`, which throw the line thousands of times.
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
        if !quiet {
            res.field("figures", pass_figures("pass"));
        }
        finish_tokens(res, members, tokens);
        let why = why("the check passed, so no figure rolled again");
        return Some(why);
    }
    res.row(
        "result",
        format!("failed: {score} is higher than {highest}"),
    );
    if !group && tokens[0].spend_save() {
        res.row("save token spent", "morale failure cancelled");
        res.field("save_spent", true);
        res.set_outcome(
            "pass",
            format!("courage failed ({score} > {highest}) — save token spent: the morale failure is cancelled"),
            Tone::Good,
        );
        res.odds_group =
            Some("courage failed — save token spent: the morale failure is cancelled".into());
        if !quiet {
            res.field("figures", pass_figures("pass"));
        }
        finish_tokens(res, members, tokens);
        let why = why("the save token cancelled the failure, so the figure did not roll again");
        return Some(why);
    }
    if stand_still {
        res.set_outcome(
            "stand-still",
            "courage failed: the group was ordered to charge, so it stands still instead",
            Tone::Bad,
        );
        if !quiet {
            res.field("figures", pass_figures("stand-still"));
        }
        if !res.quiet {
            for m in members {
                if let Some((nth, _)) = m.named {
                    res.effect(Target::Side { clause: None, nth }, MayhemEffect::StoodStill);
                }
            }
        }
        finish_tokens(res, members, tokens);
        let why = why("a group ordered to charge stands still, and no figure rolls again");
        return Some(why);
    }
    None
}

/// The lowest face that is higher than a courage value.
fn score_above(value: i64) -> u32 {
    (value + 1).clamp(1, i64::from(D6) + 1) as u32
}

/// The tokens each figure spent, as effects on the named ones; a figure
/// alone reports its tokens (given, spent, left).
fn finish_tokens(res: &mut Resolution, members: &[Member], tokens: &[Tokens]) {
    for (m, t) in members.iter().zip(tokens) {
        if let Some((nth, _)) = m.named {
            t.spent(res, Target::Side { clause: None, nth });
        }
    }
    if let [only] = tokens
        && only.any()
    {
        res.field("tokens", only.json());
    }
}
