//! What a `courage` line says: the figures checked (named, typed as one
//! figure's value and rank, or a group's values), their hero tokens and
//! group rate, and the cause.

use crate::catalog::{Input, Named};
use crate::command::{Word, WordKind};
use crate::error::{BindError, CommandError, ErrorKind};
use crate::mayhem::game::{GROUP_RATE, LEADER};
use crate::mayhem::{Cause, D6, MAX_TOKENS, MayhemTables, Rank, Tokens};

use super::COURAGE;

/// Most figures in one group on a line.
const MAX_GROUP: usize = 50;

#[derive(Debug, Clone)]
pub(super) struct Member {
    pub(super) courage: i64,
    /// Its place among the figures named on the line, when it is one.
    pub(super) named: Option<(usize, String)>,
    pub(super) tokens: Tokens,
    /// Which kinds of token were given for it (saves, rerolls).
    given: [bool; 2],
    /// The highest courage value of its group, when above its own: a
    /// figure in a game brings it.
    pub(super) group_rate: Option<i64>,
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
pub(super) struct Check<'t> {
    pub(super) members: Vec<Member>,
    pub(super) cause: Option<&'t Cause>,
    /// How words that describe one figure together were read (`5 leader`),
    /// for the explanation.
    pub(super) read_as: Vec<(String, String)>,
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
        kind: ErrorKind::MissingValue,
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

pub(super) fn read<'t>(tables: &'t MayhemTables, input: &Input) -> Result<Check<'t>, CommandError> {
    crate::bind::no_clauses(input.command)?;
    crate::mayhem::named_once(input)?;
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
    let mut r = Reading {
        tables,
        members: Vec::new(),
        typed: None,
        cause: None,
        last_single: None,
        floating: Vec::new(),
    };
    for word in &input.words.raw {
        match &word.kind {
            WordKind::Number(_) if named.iter().any(|n| n.span == word.span) => {
                let Some((_, member)) = named_members.next() else {
                    return Err(input.missing("a figure named on the line was lost"));
                };
                r.members.push(member);
                r.last_single = Some(r.members.len() - 1);
            }
            WordKind::Number(n) => {
                let v = face_value(*n, word)?;
                r.last_single = Some(r.describe(word, Some(v), None)?);
            }
            WordKind::Keyword { name, value } => {
                r.keyword(word, name, value.as_deref(), input)?;
            }
            _ => return Err(unknown(tables, word, &word.text, input)),
        }
    }
    if r.members.is_empty() {
        return Err(input.missing(
            "`courage` needs a courage value (`courage 4`), a rank (`courage leader`), a group (`group=4,3,3`) or a figure's id",
        ));
    }
    r.finish(named.is_empty())
}

/// The words read so far.
struct Reading<'t, 'w> {
    tables: &'t MayhemTables,
    members: Vec<Member>,
    typed: Option<Typed<'t>>,
    cause: Option<&'t Cause>,
    /// The figure a token word belongs to: the one just before it.
    last_single: Option<usize>,
    /// Token words that follow no single figure: they belong to a lone one.
    floating: Vec<&'w Word>,
}

fn conflict(first: &str, word: &Word) -> CommandError {
    BindError::Conflict {
        span: word.span,
        first: first.to_string(),
        second: word.text.to_string(),
        group: "courage values".into(),
    }
    .into()
}

impl<'t, 'w> Reading<'t, 'w> {
    /// A number or a rank word: the one figure the typed words describe.
    fn describe(
        &mut self,
        word: &Word,
        number: Option<i64>,
        rank: Option<&'t Rank>,
    ) -> Result<usize, CommandError> {
        let members = &mut self.members;
        let typed = &mut self.typed;
        if typed.is_none() {
            members.push(Member::new(0, None));
            *typed = Some(Typed::One(Described {
                member: members.len() - 1,
                first: word.text.to_string(),
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
                None => d.number = Some((word.text.to_string(), n)),
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
    }

    /// A keyword of the line: a group, the cause, a group rate, a token,
    /// or a rank.
    fn keyword(
        &mut self,
        word: &'w Word,
        name: &str,
        value: Option<&str>,
        input: &Input,
    ) -> Result<(), CommandError> {
        let tables: &'t MayhemTables = self.tables;
        let c = &tables.courage;
        match (name, value) {
            ("group", Some(list)) => self.group(list, word)?,
            ("cause", Some(v)) => self.cause(v, word)?,
            (GROUP_RATE, Some(v)) => self.group_rate(v, word)?,
            ("saves" | "rerolls", Some(_)) => match self.last_single {
                Some(i) => token(&mut self.members[i], word)?,
                None => self.floating.push(word),
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
                self.last_single = Some(self.describe(word, None, rank)?);
            }
            (k, _) => return Err(unknown(tables, word, k, input)),
        }
        Ok(())
    }

    /// `group=…`: a group's values, after at most one figure typed with
    /// its hero tokens.
    fn group(&mut self, list: &str, word: &Word) -> Result<(), CommandError> {
        let v = group_values(list, word, self.tables)?;
        // A figure typed with its hero tokens before the list
        // joins the group as its first figure: `courage 5
        // saves=1 group=3,3`.
        if let Some(Typed::One(d)) = &self.typed
            && !self
                .members
                .get(d.member)
                .is_some_and(|m| m.given.iter().any(|g| *g))
        {
            return Err(conflict(&d.first, word));
        }
        if let Some(Typed::Group(first)) = &self.typed {
            return Err(conflict(first, word));
        }
        self.typed = Some(Typed::Group(word.text.to_string()));
        self.last_single = (v.len() == 1).then_some(self.members.len());
        self.members
            .extend(v.into_iter().map(|courage| Member::new(courage, None)));
        Ok(())
    }

    fn cause(&mut self, v: &str, word: &Word) -> Result<(), CommandError> {
        let tables: &'t MayhemTables = self.tables;
        let c = &tables.courage;
        self.last_single = None;
        if self.cause.is_some() {
            return Err(repeated(word, "cause"));
        }
        let v = crate::parse::normalise(v);
        self.cause = Some(c.cause.iter().find(|x| x.keyword == v).ok_or_else(|| {
            let names: Vec<&str> = c.cause.iter().map(|x| x.keyword.as_str()).collect();
            let hint = crate::bind::nearest(&v, names.iter().copied())
                .map_or(String::new(), |s| format!(" (did you mean `cause={s}`?)"));
            BindError::BadValue {
                span: word.span,
                text: word.text.to_string(),
                expected: format!("the cause is one of {}{hint}", names.join(", ")),
            }
        })?);
        Ok(())
    }

    /// `group-rate=N`, for the figure just before it.
    fn group_rate(&mut self, v: &str, word: &Word) -> Result<(), CommandError> {
        let members = &mut self.members;
        let Some(i) = self.last_single else {
            return Err(BindError::NotHere {
                kind: ErrorKind::MisplacedWord,
                            span: word.span,
                            text: word.text.to_string(),
                            why: "is one figure's group rate: write it right after the figure's value, like `courage 3 group-rate=4 cause=fire`".into(),
                        }
                        .into());
        };
        let rate = match v.parse::<i64>() {
            Ok(n) if (1..=6).contains(&n) => n,
            _ => {
                return Err(BindError::BadValue {
                    span: word.span,
                    text: word.text.to_string(),
                    expected: "a courage value from 1 to 6".into(),
                }
                .into());
            }
        };
        if members[i].group_rate.replace(rate).is_some() && members[i].named.is_none() {
            return Err(repeated(word, GROUP_RATE));
        }
        Ok(())
    }

    /// Tokens typed loose go to the lone figure (or a typed group's
    /// first); the readings to explain.
    fn finish(self, none_named: bool) -> Result<Check<'t>, CommandError> {
        let Reading {
            mut members,
            typed,
            cause,
            floating,
            ..
        } = self;
        let mut read_as = match &typed {
            Some(Typed::One(d)) => d.read_as(),
            _ => Vec::new(),
        };
        if let Some(first) = floating.first() {
            // Tokens after a typed `group=…` are its first figure's, as the
            // hit figure of a check for fire is listed first: list the hero
            // first. Among named figures each brings its own, and a token
            // typed loose would belong to nobody in particular.
            let typed_group = matches!(typed, Some(Typed::Group(..))) && none_named;
            if members.len() > 1 && !typed_group {
                return Err(BindError::NotHere {
                    kind: ErrorKind::MisplacedWord,
                    span: first.span,
                    text: first.text.to_string(),
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
                text: word.text.to_string(),
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
        word: word.text.to_string(),
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
            text: word.text.to_string(),
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
            text: word.text.to_string(),
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
