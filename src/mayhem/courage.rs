//! Courage checks: one die against the highest courage value in the group,
//! equal or less passes. On failure a group ordered to charge stands still;
//! otherwise each individual rolls against its own courage: higher runs off
//! the board, otherwise it retreats 2d6".

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::MayhemEffect;
use crate::bind::{Kind, Vocab};
use crate::catalog::{Input, VerbDoc};
use crate::command::{Command, Span, Word, WordKind};
use crate::dice::{DiceSource, Rolled};
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
        "FIGURE",
        Kind::Flag,
        "in a game, a figure's id: its courage value (and its tokens); several figures are a group, checked together, each running off or retreating on its own",
    );
    vocab.add(
        "saves=N",
        Kind::Flag,
        format!(
            "one hero's {}: one is spent automatically to cancel a morale failure (in a group, the hero's own: he holds); in a group write it right after the hero's value or id",
            tables.heroes.save
        ),
    );
    vocab.add(
        "rerolls=N",
        Kind::Flag,
        format!(
            "one hero's {}: one is spent automatically to reroll a failed courage die (the reroll stands; in a group, the hero's own die)",
            tables.heroes.reroll
        ),
    );
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
    ])
}

/// One figure of the group being checked.
#[derive(Debug, Clone)]
struct Member {
    courage: i64,
    /// Its place among the figures named on the line, when it is one.
    named: Option<(usize, String)>,
    tokens: Tokens,
    /// Which kinds of token were given for it (saves, rerolls).
    given: [bool; 2],
}

impl Member {
    fn new(courage: i64, named: Option<(usize, String)>) -> Member {
        Member {
            courage,
            named,
            tokens: Tokens::default(),
            given: [false; 2],
        }
    }
}

/// What the words say.
struct Check<'t> {
    members: Vec<Member>,
    cause: Option<&'t Cause>,
}

/// A named figure's courage comes to the verb as a number written where
/// its id was (the vocabulary's `number_from`): the word of the command at
/// that place is the id.
fn named_id(input: &Input, word: &Word) -> Option<String> {
    input.command.words.iter().find_map(|w| match &w.kind {
        WordKind::Keyword { name, value: None } if w.span == word.span && w.text != word.text => {
            Some(name.clone())
        }
        _ => None,
    })
}

fn read<'t>(tables: &'t MayhemTables, input: &Input) -> Result<Check<'t>, CommandError> {
    crate::bind::no_clauses(input.command)?;
    let c = &tables.courage;
    let mut members: Vec<Member> = Vec::new();
    // The typed value (a number, a rank or a group), at most one.
    let mut typed: Option<(Span, String)> = None;
    let mut cause = None;
    // The figure a token word belongs to: the one just before it.
    let mut last_single: Option<usize> = None;
    // Token words that follow no single figure: they belong to a lone one.
    let mut floating: Vec<&Word> = Vec::new();
    let mut set_typed = |word: &Word| -> Result<(), CommandError> {
        if let Some((_, first)) = &typed {
            return Err(BindError::Conflict {
                span: word.span,
                first: first.clone(),
                second: word.text.clone(),
                group: "courage values".into(),
            }
            .into());
        }
        typed = Some((word.span, word.text.clone()));
        Ok(())
    };
    let mut named = 0usize;
    for word in &input.words.raw {
        match &word.kind {
            WordKind::Number(n) => {
                let v = face_value(*n, word)?;
                let id = named_id(input, word);
                let place = match id {
                    Some(id) => {
                        named += 1;
                        Some((named - 1, id))
                    }
                    None => {
                        set_typed(word)?;
                        None
                    }
                };
                members.push(Member::new(v, place));
                last_single = Some(members.len() - 1);
            }
            WordKind::Keyword { name, value } => match (name.as_str(), value.as_deref()) {
                ("group", Some(list)) => {
                    let v = group_values(list, word, tables)?;
                    set_typed(word)?;
                    last_single = (v.len() == 1).then_some(members.len());
                    members.extend(v.into_iter().map(|courage| Member::new(courage, None)));
                }
                ("cause", Some(v)) => {
                    last_single = None;
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
                ("saves" | "rerolls", Some(_)) => match last_single {
                    Some(i) => token(&mut members[i], word)?,
                    None => floating.push(word),
                },
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
                    set_typed(word)?;
                    members.push(Member::new(v, None));
                    last_single = Some(members.len() - 1);
                }
                (k, _) => return Err(unknown(tables, word, k, input)),
            },
            _ => return Err(unknown(tables, word, &word.text, input)),
        }
    }
    if members.is_empty() {
        return Err(input.missing(
            "`courage` needs a courage value (`courage 4`), a rank (`courage leader`), a group (`group=4,3,3`) or a figure's id",
        ));
    }
    if let Some(first) = floating.first() {
        if members.len() > 1 {
            let (span, text) = typed
                .filter(|_| named == 0)
                .map_or((first.span, first.text.clone()), |(span, _)| {
                    (span, "group".to_string())
                });
            return Err(BindError::NotHere {
                span,
                text,
                why: "has several figures; hero tokens (`saves`, `rerolls`) belong to one figure: check the hero alone, or write them right after the figure's id or value".into(),
            }
            .into());
        }
        for word in floating {
            token(&mut members[0], word)?;
        }
    }
    Ok(Check { members, cause })
}

/// `saves=N` or `rerolls=N` for one figure.
fn token(member: &mut Member, word: &Word) -> Result<(), CommandError> {
    let WordKind::Keyword {
        name,
        value: Some(v),
    } = &word.kind
    else {
        return Ok(());
    };
    let kind = usize::from(name == "rerolls");
    if member.given[kind] {
        return Err(repeated(word, name));
    }
    member.given[kind] = true;
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
    if kind == 0 {
        member.tokens.saves = n;
    } else {
        member.tokens.rerolls = n;
    }
    Ok(())
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
    let (members, cause) = input.memoized(|| {
        read(tables, input).map(|check| {
            let cause = check
                .cause
                .and_then(|x| c.cause.iter().position(|y| y.keyword == x.keyword));
            (check.members, cause)
        })
    })?;
    let cause = cause.and_then(|i| c.cause.get(i));
    let values: Vec<i64> = members.iter().map(|m| m.courage).collect();
    let mut tokens: Vec<Tokens> = members.iter().map(|m| m.tokens).collect();
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
    if !res.quiet {
        for m in members.iter().filter(|m| m.tokens.any()) {
            if let Some((_, id)) = &m.named {
                res.row(
                    format_args!("{id}: hero tokens"),
                    format_args!("{} save(s), {} reroll(s)", m.tokens.saves, m.tokens.rerolls),
                );
            }
        }
    }
    res.field("highest", highest);
    if let Some(cause) = cause {
        res.field("cause", cause.keyword.clone());
    }

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
        finish_tokens(&mut res, members, &tokens);
        return Ok(res);
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
        res.field("figures", pass_figures("pass"));
        finish_tokens(&mut res, members, &tokens);
        return Ok(res);
    }
    if stand_still {
        res.set_outcome(
            "stand-still",
            "courage failed: the group was ordered to charge, so it stands still instead",
            Tone::Bad,
        );
        res.field("figures", pass_figures("stand-still"));
        finish_tokens(&mut res, members, &tokens);
        return Ok(res);
    }

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
    let label = |i: usize| {
        let value = values[i];
        match (&members[i].named, group) {
            (Some((_, id)), true) => format!("figure {} {id} (courage {value})", i + 1),
            (None, true) => format!("figure {} (courage {value})", i + 1),
            (Some((_, id)), false) => format!("{id} (courage {value})"),
            (None, false) => format!("individual (courage {value})"),
        }
    };
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
    let thrown = individual_dice(dice, &rollers, &values, &mut tokens)?;
    let ran = thrown.ran;
    let held = checking - rollers.len();
    let retreated = rollers.len() - ran;
    // Shown in the order thrown: every figure's die, then the retreats.
    for (k, &i) in rollers.iter().enumerate() {
        let Some(&(first, again)) = thrown.dice.get(k) else {
            break;
        };
        let label = label(i);
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
    let mut figures = Vec::new();
    for i in 0..checking {
        let k = rollers.iter().position(|r| *r == i);
        let die = k
            .and_then(|k| thrown.dice.get(k))
            .map(|(f, a)| a.unwrap_or(*f));
        let mut j = match (fates[i], die) {
            (Some(Fate::Holds), _) => {
                json!({"courage": values[i], "die": null, "result": "holds", "retreat_in": null})
            }
            (Some(Fate::RunsOff), Some(die)) => {
                json!({"courage": values[i], "die": die.face, "result": "runs-off", "retreat_in": null})
            }
            (_, Some(die)) => {
                let label = label(i);
                let (rolled, total) = c.retreat.roll(dice)?;
                res.dice_rows(
                    format_args!("{label} retreat {}", c.retreat.to_string().to_lowercase()),
                    &rolled,
                );
                res.row(
                    format_args!("{label} result"),
                    format!("retreats {total}\""),
                );
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
    finish_tokens(&mut res, members, &tokens);
    let text = if group && !hit_only {
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
    Ok(res)
}

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

/// In a game, a `courage` line brings each named figure's tokens as
/// words typed right after its id (the verb reads its own notation, so
/// the binder passes a figure's facts over): `courage langy` is read as
/// `courage langy saves=1`. Tokens the player typed for the figure win.
/// `tokens` gives each figure's (has saves, saves left, has rerolls,
/// rerolls left); `None` for a word that is no figure.
pub fn expand(
    command: &Command,
    line: &str,
    tokens: impl Fn(&str) -> Option<(bool, i64, bool, i64)>,
) -> Option<String> {
    if command.verb != "courage" {
        return None;
    }
    let words = &command.words;
    let figures: Vec<usize> = (0..words.len())
        .filter(|&i| match &words[i].kind {
            WordKind::Keyword { name, value: None } => tokens(name).is_some(),
            _ => false,
        })
        .collect();
    let is_token = |w: &Word, kind: &str| matches!(&w.kind, WordKind::Keyword { name, value: Some(_) } if name == kind);
    let lone = figures.len() == 1;
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for &i in &figures {
        let WordKind::Keyword { name, .. } = &words[i].kind else {
            continue;
        };
        let Some((has_saves, saves, has_rerolls, rerolls)) = tokens(name) else {
            continue;
        };
        // The token words typed right after the figure are its own; a
        // figure checked alone owns every token word on the line.
        let after: Vec<&Word> = words[i + 1..]
            .iter()
            .take_while(|w| is_token(w, "saves") || is_token(w, "rerolls"))
            .collect();
        let typed = |kind: &str| {
            after.iter().any(|w| is_token(w, kind))
                || (lone && words.iter().any(|w| is_token(w, kind)))
        };
        let mut add = String::new();
        if has_saves && !typed("saves") {
            add.push_str(&format!(" saves={saves}"));
        }
        if has_rerolls && !typed("rerolls") {
            add.push_str(&format!(" rerolls={rerolls}"));
        }
        if !add.is_empty() {
            inserts.push((words[i].span.end, add));
        }
    }
    if inserts.is_empty() {
        return None;
    }
    let mut out = line.to_string();
    for (at, add) in inserts.into_iter().rev() {
        if !out.is_char_boundary(at) {
            return None;
        }
        out.insert_str(at, &add);
    }
    Some(out)
}
