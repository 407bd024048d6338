//! Courage checks: one die against the highest courage value in the group,
//! equal or less passes. On failure a group ordered to charge stands still;
//! otherwise each individual rolls against its own courage: higher runs off
//! the board, otherwise it retreats 2d6".

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::{GROUP_RATE, LEADER, MayhemEffect};
use super::{Resolution, VerbDoc};
use crate::bind::{Kind, Vocab};
use crate::catalog::{Input, Named};
use crate::command::{Word, WordKind};
use crate::dice::{DiceSource, Rolled};
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::Tone;

use super::{Cause, Counted, D6, MAX_TOKENS, MayhemTables, Rank, Tokens};

/// The fact that is a named figure's courage value: its own, or its rank's.
const COURAGE: &str = "courage";

/// The cause whose check is an individual one taken at the group rate.
const INDIVIDUAL_CAUSE: &str = "fire";

/// Most figures in one group on a line.
const MAX_GROUP: usize = 50;

pub fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
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

/// One figure of the group being checked.
#[derive(Debug, Clone)]
struct Member {
    courage: i64,
    /// Its place among the figures named on the line, when it is one.
    named: Option<(usize, String)>,
    tokens: Tokens,
    /// Which kinds of token were given for it (saves, rerolls).
    given: [bool; 2],
    /// The highest courage value of its group, when above its own: a
    /// figure in a game brings it.
    group_rate: Option<i64>,
}

impl Member {
    fn new(courage: i64, named: Option<(usize, String)>) -> Member {
        Member {
            courage,
            named,
            tokens: Tokens::default(),
            given: [false; 2],
            group_rate: None,
        }
    }
}

/// What the words say.
struct Check<'t> {
    members: Vec<Member>,
    cause: Option<&'t Cause>,
    /// How words that describe one figure together were read (`5 leader`),
    /// for the explanation.
    read_as: Vec<(String, String)>,
}

/// The one figure the typed words may describe: its own courage value (a
/// number), its rank, and the word `leader`, which is both a rank
/// (ordinary leaders) and what marks any leader (a figure marked `leader`
/// in its list brings it beside its courage value).
#[derive(Default)]
struct Described<'t> {
    /// Its place among the members.
    member: usize,
    /// The first word, for a conflict with a group.
    first: String,
    number: Option<(String, i64)>,
    rank: Option<&'t Rank>,
    leader: Option<&'t Rank>,
}

impl Described<'_> {
    /// The value that stands: the figure's own number; else its rank's
    /// basic value; else, `leader` alone, an ordinary leader's.
    fn value(&self) -> i64 {
        self.number
            .as_ref()
            .map(|(_, n)| *n)
            .or(self.rank.map(|r| r.value))
            .or(self.leader.map(|r| r.value))
            .unwrap_or(0)
    }

    /// Rows saying which word's value stands where they differ.
    fn read_as(&self) -> Vec<(String, String)> {
        let value = self.value();
        let mut rows = Vec::new();
        if let (Some((n, _)), Some(rank)) = (&self.number, self.rank)
            && rank.value != value
        {
            rows.push((
                format!("`{}` beside `{n}`", rank.keyword),
                format!(
                    "the figure's own courage value {value} stands (`{}` alone is {}: {})",
                    rank.keyword,
                    rank.value,
                    rank.row.to_lowercase()
                ),
            ));
        }
        if let Some(leader) = self.leader
            && (self.number.is_some() || self.rank.is_some())
            && leader.value != value
        {
            rows.push((
                format!("`{}`", leader.keyword),
                format!(
                    "marks the figure as a leader; its courage value {value} stands (`{}` alone is {}: {})",
                    leader.keyword,
                    leader.value,
                    leader.row.to_lowercase()
                ),
            ));
        }
        rows
    }
}

/// What the typed value of a line is: one figure described, or a group.
enum Typed<'t> {
    One(Described<'t>),
    /// `group=…`: its text.
    Group(String),
}

/// A named figure's courage value and tokens: from the facts it brings.
fn named_member(named: &Named, nth: usize) -> Result<Member, CommandError> {
    let facts = &named.facts;
    let courage = facts.value(COURAGE).ok_or_else(|| BindError::NotHere {
        span: named.span,
        text: facts.id.clone(),
        why: "has no courage value (its list gives neither `courage` nor a rank the courage table knows): type its value instead, like `courage 4`".into(),
    })?;
    let mut member = Member::new(courage, Some((nth, facts.id.clone())));
    member.tokens.saves = facts.value("saves").unwrap_or(0);
    member.tokens.rerolls = facts.value("rerolls").unwrap_or(0);
    member.group_rate = facts.value(GROUP_RATE);
    Ok(member)
}

fn read<'t>(tables: &'t MayhemTables, input: &Input) -> Result<Check<'t>, CommandError> {
    crate::bind::no_clauses(input.command)?;
    super::named_once(input)?;
    let c = &tables.courage;
    // Each figure named on the line stands where its id was, with its
    // courage value and tokens from its facts; binding leaves its courage
    // value among the words at the span of its id.
    let named: Vec<&Named> = input.named_on(None).collect();
    let mut named_members = named
        .iter()
        .enumerate()
        .map(|(nth, n)| Ok((n.span, named_member(n, nth)?)))
        .collect::<Result<Vec<_>, CommandError>>()?
        .into_iter();
    let mut members: Vec<Member> = Vec::new();
    let mut typed: Option<Typed<'t>> = None;
    let mut cause = None;
    // The figure a token word belongs to: the one just before it.
    let mut last_single: Option<usize> = None;
    // Token words that follow no single figure: they belong to a lone one.
    let mut floating: Vec<&Word> = Vec::new();
    let conflict = |first: &str, word: &Word| -> CommandError {
        BindError::Conflict {
            span: word.span,
            first: first.to_string(),
            second: word.text.clone(),
            group: "courage values".into(),
        }
        .into()
    };
    // A number or a rank word: the one figure the typed words describe.
    let describe = |members: &mut Vec<Member>,
                    typed: &mut Option<Typed<'t>>,
                    word: &Word,
                    number: Option<i64>,
                    rank: Option<&'t Rank>|
     -> Result<usize, CommandError> {
        if typed.is_none() {
            members.push(Member::new(0, None));
            *typed = Some(Typed::One(Described {
                member: members.len() - 1,
                first: word.text.clone(),
                ..Described::default()
            }));
        }
        let d = match typed {
            Some(Typed::One(d)) => d,
            Some(Typed::Group(first)) => return Err(conflict(first, word)),
            None => return Err(conflict("", word)),
        };
        match (number, rank) {
            (Some(n), _) => match &d.number {
                Some((first, _)) => return Err(conflict(first, word)),
                None => d.number = Some((word.text.clone(), n)),
            },
            (None, Some(r)) if r.keyword == LEADER => {
                if d.leader.is_some() {
                    return Err(repeated(word, LEADER));
                }
                d.leader = Some(r);
            }
            (None, Some(r)) => match d.rank {
                Some(first) => return Err(conflict(&first.keyword, word)),
                None => d.rank = Some(r),
            },
            (None, None) => {}
        }
        members[d.member].courage = d.value();
        Ok(d.member)
    };
    for word in &input.words.raw {
        match &word.kind {
            WordKind::Number(_) if named.iter().any(|n| n.span == word.span) => {
                let Some((_, member)) = named_members.next() else {
                    return Err(input.missing("a figure named on the line was lost"));
                };
                members.push(member);
                last_single = Some(members.len() - 1);
            }
            WordKind::Number(n) => {
                let v = face_value(*n, word)?;
                last_single = Some(describe(&mut members, &mut typed, word, Some(v), None)?);
            }
            WordKind::Keyword { name, value } => match (name.as_str(), value.as_deref()) {
                ("group", Some(list)) => {
                    let v = group_values(list, word, tables)?;
                    // A figure typed with its hero tokens before the list
                    // joins the group as its first figure: `courage 5
                    // saves=1 group=3,3`.
                    if let Some(Typed::One(d)) = &typed
                        && !members
                            .get(d.member)
                            .is_some_and(|m| m.given.iter().any(|g| *g))
                    {
                        return Err(conflict(&d.first, word));
                    }
                    if let Some(Typed::Group(first)) = &typed {
                        return Err(conflict(first, word));
                    }
                    typed = Some(Typed::Group(word.text.clone()));
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
                (GROUP_RATE, Some(v)) => {
                    let Some(i) = last_single else {
                        return Err(BindError::NotHere {
                            span: word.span,
                            text: word.text.clone(),
                            why: "is one figure's group rate: write it right after the figure's value, like `courage 3 group-rate=4 cause=fire`".into(),
                        }
                        .into());
                    };
                    let rate = match v.parse::<i64>() {
                        Ok(n) if (1..=6).contains(&n) => n,
                        _ => {
                            return Err(BindError::BadValue {
                                span: word.span,
                                text: word.text.clone(),
                                expected: "a courage value from 1 to 6".into(),
                            }
                            .into());
                        }
                    };
                    if members[i].group_rate.replace(rate).is_some() && members[i].named.is_none() {
                        return Err(repeated(word, GROUP_RATE));
                    }
                }
                ("saves" | "rerolls", Some(_)) => match last_single {
                    Some(i) => token(&mut members[i], word)?,
                    None => floating.push(word),
                },
                (k @ ("group" | "cause" | "saves" | "rerolls" | GROUP_RATE), None) => {
                    return Err(BindError::MissingValue {
                        span: word.span,
                        word: k.to_string(),
                        expected: format!("like `{k}=…` (see `help courage`)"),
                    }
                    .into());
                }
                (k, None) if c.rank.iter().any(|r| r.keyword == k) => {
                    let rank = c.rank.iter().find(|r| r.keyword == k);
                    last_single = Some(describe(&mut members, &mut typed, word, None, rank)?);
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
    let mut read_as = match &typed {
        Some(Typed::One(d)) => d.read_as(),
        _ => Vec::new(),
    };
    if let Some(first) = floating.first() {
        // Tokens after a typed `group=…` are its first figure's, as the
        // hit figure of a check for fire is listed first: list the hero
        // first. Among named figures each brings its own, and a token
        // typed loose would belong to nobody in particular.
        let typed_group = matches!(typed, Some(Typed::Group(..))) && named.is_empty();
        if members.len() > 1 && !typed_group {
            return Err(BindError::NotHere {
                span: first.span,
                text: first.text.clone(),
                why: "has several figures on the line to belong to; hero tokens (`saves`, `rerolls`) belong to one figure: write them right after the figure's id or value".into(),
            }
            .into());
        }
        for word in floating {
            token(&mut members[0], word)?;
        }
        if members.len() > 1 {
            read_as.push((
                "hero tokens typed after `group=…`".to_string(),
                "the first figure's: list the hero first".to_string(),
            ));
        }
    }
    Ok(Check {
        members,
        cause,
        read_as,
    })
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
    let mut dice = Counted::new(dice);
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
    let (members, cause, read_as) = input.memoized(|| {
        read(tables, input).map(|check| {
            let cause = check
                .cause
                .and_then(|x| c.cause.iter().position(|y| y.keyword == x.keyword));
            (check.members, cause, check.read_as)
        })
    })?;
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
    let quiet = res.quiet;
    // The group die (and a lone figure's reroll of it), then for each
    // figure that may roll again its die, its reroll and its retreat.
    let reroll = |t: &Tokens| usize::from(t.rerolls_left() > 0);
    let retreat_dice: usize = c.retreat.dice.iter().map(|(n, _)| *n as usize).sum();
    let stands = cause.is_some_and(|c| c.stand_still);
    let may_check = if stands {
        0
    } else if values.len() > 1 && cause.is_some_and(|c| c.keyword == INDIVIDUAL_CAUSE) {
        1
    } else {
        values.len()
    };
    let most =
        1 + if values.len() == 1 {
            reroll(&tokens[0])
        } else {
            0
        } + tokens
            .iter()
            .take(may_check)
            .map(|t| 1 + reroll(t) + retreat_dice)
            .sum::<usize>();
    let why = |text: &str| {
        if quiet {
            String::new()
        } else {
            text.to_string()
        }
    };
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
        finish_tokens(&mut res, members, &tokens);
        let why = why("the check passed, so no figure rolled again");
        return Ok((res, most, why));
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
        finish_tokens(&mut res, members, &tokens);
        let why = why("the save token cancelled the failure, so the figure did not roll again");
        return Ok((res, most, why));
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
        finish_tokens(&mut res, members, &tokens);
        let why = why("a group ordered to charge stands still, and no figure rolls again");
        return Ok((res, most, why));
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
    let mut figures = Vec::new();
    for i in 0..checking {
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
    let why = if quiet {
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
    };
    Ok((res, most, why))
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
