//! Words → typed facts. A verb describes the words it knows in a [`Vocab`]
//! (most of it built from the tables, so house rules add words); binding
//! checks every word against it and collects them into a [`Bound`].
//! An unknown word is an error naming the word and the nearest known one.

use std::borrow::Cow;
use std::fmt;

use crate::command::{Clause, Command, Span, Unit, Word, WordKind};
use crate::error::{BindError, ErrorKind};

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Present or not: `determined`.
    Flag,
    /// Counted: `general`, `+general=2`, `general general`.
    Counted,
    /// Needs a whole number: `bases=4`.
    Number { min: i64, max: i64 },
    /// Exactly one word of the named group may be given: arms, contexts.
    Choice(&'static str),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub name: String,
    pub kind: Kind,
    /// What the word does, shown by `help VERB`.
    pub(crate) help: String,
}

/// Whether two words are one: asked of every known word for every word of
/// every line, so the length and the first letter, which tell most words
/// apart, are asked before the text is compared.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// The words one verb (or one clause of it) accepts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Vocab {
    pub entries: Vec<Entry>,
    /// What a bare number means for this verb, if it takes one.
    pub(crate) number: Option<&'static str>,
    /// The unit fact that stands for the bare number (or the notation's
    /// first number) when a unit is named: `cf`, `mr`, `courage`.
    pub number_fact: Option<&'static str>,
    /// Whether the verb takes a distance, and in which unit.
    pub(crate) distance: Option<Unit>,
    /// The verb reads its own notation: every word is handed over unbound.
    pub raw: bool,
    /// Words that stand for one fact, so that a word typed by the player
    /// displaces the unit's word for the same fact: a unit classed
    /// Determined told `lackluster` is tested as Lackluster.
    pub slots: Vec<&'static [&'static str]>,
    /// Words that are not keywords (`5h`, `(5)`, bare numbers when the verb
    /// takes no single number) are handed over in `Bound::raw` for the
    /// verb to read, while keywords are still bound. The text says what
    /// such words mean, for errors.
    pub(crate) notation: Option<&'static str>,
    /// Other names a player may give a word (`first-round` for
    /// `first-melee`): never bound, but an unknown word that is one of
    /// them is answered with the words it stands for, and `help VERB`
    /// lists them. From the system's own tables.
    pub(crate) aliases: Vec<(String, Vec<String>)>,
}

impl Vocab {
    pub(crate) fn new() -> Vocab {
        Vocab::default()
    }

    pub(crate) fn add(&mut self, name: impl Into<String>, kind: Kind, help: impl Into<String>) {
        self.entries.push(Entry {
            name: name.into(),
            kind,
            help: help.into(),
        });
    }

    pub(crate) fn flag(mut self, name: &str, help: impl Into<String>) -> Vocab {
        self.add(name, Kind::Flag, help);
        self
    }

    pub(crate) fn number(
        mut self,
        name: &str,
        min: i64,
        max: i64,
        help: impl Into<String>,
    ) -> Vocab {
        self.add(name, Kind::Number { min, max }, help);
        self
    }

    pub(crate) fn choice(
        mut self,
        group: &'static str,
        name: &str,
        help: impl Into<String>,
    ) -> Vocab {
        self.add(name, Kind::Choice(group), help);
        self
    }

    pub(crate) fn with_number(mut self, meaning: &'static str) -> Vocab {
        self.number = Some(meaning);
        self
    }

    /// A named unit's fact `word` stands for the bare number.
    pub(crate) fn number_from(mut self, word: &'static str) -> Vocab {
        self.number_fact = Some(word);
        self
    }

    pub(crate) fn raw(mut self) -> Vocab {
        self.raw = true;
        self
    }

    pub(crate) fn with_notation(mut self, meaning: &'static str) -> Vocab {
        self.notation = Some(meaning);
        self
    }

    /// Words that stand for one fact (see [`Vocab::slots`]).
    pub(crate) fn slot(mut self, words: &'static [&'static str]) -> Vocab {
        self.slots.push(words);
        self
    }

    pub(crate) fn with_distance(mut self, unit: Unit) -> Vocab {
        self.distance = Some(unit);
        self
    }

    pub fn find(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| same(&e.name, name))
    }

    /// The known word nearest to a misspelt one, if any is close: by
    /// meaning (another name for it) before spelling.
    pub(crate) fn nearest(&self, word: &str) -> Option<String> {
        if let Some((_, meant)) = self.aliases.iter().find(|(alias, _)| alias == word) {
            return Some(meant.join("` or `"));
        }
        nearest(word, self.entries.iter().map(|e| e.name.as_str()))
    }

    /// This vocabulary with the other names of its words, from a system's
    /// table of them (other name → the words it may mean); names of words
    /// this vocabulary does not have are left out.
    pub(crate) fn with_aliases<'a>(
        mut self,
        aliases: impl IntoIterator<Item = (&'a String, &'a Vec<String>)>,
    ) -> Vocab {
        for (alias, words) in aliases {
            let known: Vec<String> = words
                .iter()
                .filter(|w| self.find(w).is_some())
                .cloned()
                .collect();
            if !known.is_empty() && self.find(alias).is_none() {
                self.aliases.push((alias.clone(), known));
            }
        }
        self
    }
}

/// The candidate closest to `word` by edit distance, when it is close enough
/// to be a plausible typo.
pub(crate) fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    // One letter of a short word may be wrong, two of a longer one, and a
    // third of a long one: a suggestion further off is noise (`foo` is not
    // a typo of `bow`, `moovd` is one of `moved`).
    let len = word.chars().count();
    let limit = if len <= 4 { 1 } else { (len / 3).max(2) };
    // Of two as many edits away, the one that shares more of its start
    // (Jaro-Winkler): `shet` is `sheet` before it is `set`.
    candidates
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(d, _)| *d > 0 && *d <= limit)
        .min_by(|(d, c), (e, b)| {
            d.cmp(e).then_with(|| {
                strsim::jaro_winkler(word, b).total_cmp(&strsim::jaro_winkler(word, c))
            })
        })
        .map(|(_, c)| c.to_string())
}

/// One recognised word and what it carries.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fact {
    pub(crate) name: String,
    pub(crate) kind: Kind,
    pub(crate) count: u32,
    pub(crate) value: Option<i64>,
    pub(crate) span: Span,
    /// Brought by a named unit rather than typed.
    pub(crate) implied: bool,
}

/// The facts of one side of a command (before any clause, or one clause).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Bound {
    pub(crate) facts: Vec<Fact>,
    pub(crate) number: Option<(f64, Span)>,
    pub(crate) distance: Option<(f64, Unit, Span)>,
    /// Words of a raw vocabulary, as typed.
    pub(crate) raw: Vec<Word>,
}

/// Which words a side may hold, told by each word's length and first
/// letter: a resolver that asks after every row of a table (most of which
/// no line names) rules out a word the side lacks at once, and walks the
/// facts only for the few it may hold. Made from the facts when asked, so
/// it cannot fall behind them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Present(u64);

impl Present {
    fn bit(name: &str) -> u64 {
        let first = usize::from(name.as_bytes().first().copied().unwrap_or(0));
        1 << (name.len().wrapping_mul(7).wrapping_add(first) % 64)
    }

    /// False only when the side holds no fact of this name.
    pub(crate) fn may_hold(self, name: &str) -> bool {
        self.0 & Present::bit(name) != 0
    }
}

impl Bound {
    /// The words this side may hold ([`Present`]).
    pub(crate) fn present(&self) -> Present {
        Present(
            self.facts
                .iter()
                .fold(0, |bits, f| bits | Present::bit(&f.name)),
        )
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.facts.iter().any(|f| same(&f.name, name))
    }

    pub(crate) fn count(&self, name: &str) -> u32 {
        self.facts
            .iter()
            .find(|f| same(&f.name, name))
            .map_or(0, |f| f.count)
    }

    pub(crate) fn value(&self, name: &str) -> Option<i64> {
        self.facts
            .iter()
            .find(|f| same(&f.name, name))
            .and_then(|f| f.value)
    }

    /// Whether the word was brought by a unit rather than typed.
    pub(crate) fn implied(&self, name: &str) -> bool {
        self.facts.iter().any(|f| same(&f.name, name) && f.implied)
    }

    pub(crate) fn span_of(&self, name: &str) -> Option<Span> {
        self.facts
            .iter()
            .find(|f| same(&f.name, name))
            .map(|f| f.span)
    }

    /// The word chosen from a group, with its span.
    pub(crate) fn choice(&self, group: &str) -> Option<(&str, Span)> {
        self.facts
            .iter()
            .find(|f| matches!(&f.kind, Kind::Choice(g) if *g == group))
            .map(|f| (f.name.as_str(), f.span))
    }
}

/// Check every word against the vocabulary.
pub(crate) fn bind<W: std::borrow::Borrow<Word>>(
    words: &[W],
    vocab: &Vocab,
    verb: &str,
) -> Result<Bound, BindError> {
    let mut bound = Bound::default();
    if vocab.raw {
        bound.raw = words.iter().map(|w| w.borrow().clone()).collect();
        return Ok(bound);
    }
    // A fact a word, mostly: room for them at once.
    bound.facts.reserve(words.len());
    for word in words {
        let word: &Word = word.borrow();
        let is_notation = match &word.kind {
            WordKind::Other => true,
            WordKind::Number(_) => vocab.number.is_none(),
            _ => false,
        };
        if vocab.notation.is_some() && is_notation {
            bound.raw.push(word.clone());
            continue;
        }
        match &word.kind {
            WordKind::Keyword { name, value } => {
                bind_keyword(&mut bound, word, name, value.as_deref(), vocab, verb)?
            }
            WordKind::Number(n) => match vocab.number {
                Some(_) if bound.number.is_none() => bound.number = Some((*n, word.span)),
                Some(meaning) => {
                    return Err(BindError::NotHere {
                        kind: ErrorKind::ExtraWord,
                        span: word.span,
                        text: word.text.to_string(),
                        why: format!("is a second number; `{verb}` takes one ({meaning})"),
                    });
                }
                None => {
                    return Err(BindError::NotHere {
                        kind: ErrorKind::ExtraWord,
                        span: word.span,
                        text: word.text.to_string(),
                        why: format!("is a number, and `{verb}` takes no bare number here"),
                    });
                }
            },
            WordKind::Distance(n, unit) => match vocab.distance {
                Some(expected) if *unit != expected => {
                    return Err(BindError::BadValue {
                        span: word.span,
                        text: word.text.to_string(),
                        expected: format!(
                            "distances here are in {} (like `2{}`)",
                            unit_name(expected),
                            expected.suffix()
                        ),
                    });
                }
                Some(_) if bound.distance.is_none() => {
                    bound.distance = Some((*n, *unit, word.span))
                }
                Some(_) => {
                    return Err(BindError::NotHere {
                        kind: ErrorKind::ExtraWord,
                        span: word.span,
                        text: word.text.to_string(),
                        why: "is a second distance; give one".into(),
                    });
                }
                None => {
                    return Err(BindError::NotHere {
                        kind: ErrorKind::ExtraWord,
                        span: word.span,
                        text: word.text.to_string(),
                        why: format!("is a distance, and `{verb}` takes none here"),
                    });
                }
            },
            WordKind::Other => {
                return Err(BindError::UnknownWord {
                    span: word.span,
                    word: word.text.to_string(),
                    verb: verb.to_string(),
                    suggestion: vocab.nearest(&crate::parse::normalise(&word.text)),
                });
            }
        }
    }
    Ok(bound)
}

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::BaseWidths => "base widths",
        Unit::Inches => "inches",
    }
}

fn bind_keyword(
    bound: &mut Bound,
    word: &Word,
    name: &str,
    value: Option<&str>,
    vocab: &Vocab,
    verb: &str,
) -> Result<(), BindError> {
    let Some(entry) = vocab.find(name) else {
        return Err(BindError::UnknownWord {
            span: word.span,
            word: word.text.to_string(),
            verb: verb.to_string(),
            suggestion: vocab.nearest(name),
        });
    };
    let existing = bound.facts.iter().position(|f| same(&f.name, name));
    match &entry.kind {
        Kind::Flag | Kind::Choice(_) => {
            if value.is_some() {
                return Err(BindError::UnexpectedValue {
                    span: word.span,
                    word: name.to_string(),
                });
            }
            if existing.is_some() {
                return Err(BindError::Repeated {
                    span: word.span,
                    word: name.to_string(),
                });
            }
            if let Kind::Choice(group) = entry.kind
                && let Some(other) = bound.facts.iter().find(|f| f.kind == Kind::Choice(group))
            {
                return Err(BindError::Conflict {
                    span: word.span,
                    first: other.name.clone(),
                    second: name.to_string(),
                    group: group.to_string(),
                });
            }
        }
        Kind::Counted => {
            let n = match value {
                None => 1,
                Some(v) => parse_whole(v, word, 0, 99)?,
            };
            if let Some(i) = existing {
                bound.facts[i].count += n as u32;
                return Ok(());
            }
            bound.facts.push(Fact {
                name: name.into(),
                kind: entry.kind.clone(),
                count: n as u32,
                value: Some(n),
                span: word.span,
                implied: false,
            });
            return Ok(());
        }
        Kind::Number { min, max } => {
            let Some(v) = value else {
                return Err(BindError::MissingValue {
                    span: word.span,
                    word: name.to_string(),
                    expected: format!("a whole number from {min} to {max}, like `{name}={min}`"),
                });
            };
            if existing.is_some() {
                return Err(BindError::Repeated {
                    span: word.span,
                    word: name.to_string(),
                });
            }
            let n = parse_whole(v, word, *min, *max)?;
            bound.facts.push(Fact {
                name: name.into(),
                kind: entry.kind.clone(),
                count: 1,
                value: Some(n),
                span: word.span,
                implied: false,
            });
            return Ok(());
        }
    }
    bound.facts.push(Fact {
        name: name.into(),
        kind: entry.kind.clone(),
        count: 1,
        value: None,
        span: word.span,
        implied: false,
    });
    Ok(())
}

fn parse_whole(text: &str, word: &Word, min: i64, max: i64) -> Result<i64, BindError> {
    match text.trim_start_matches('+').parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(BindError::BadValue {
            span: word.span,
            text: word.text.to_string(),
            expected: format!("expected a whole number from {min} to {max}"),
        }),
    }
}

/// A verb that takes no `at`/`vs` clause refuses one plainly.
pub(crate) fn no_clauses(command: &Command) -> Result<(), BindError> {
    match command.clauses.first() {
        None => Ok(()),
        Some(clause) => Err(clause_not_here(clause, &command.verb)),
    }
}

pub(crate) fn clause_not_here(clause: &Clause, verb: &str) -> BindError {
    BindError::NotHere {
        kind: ErrorKind::ExtraWord,
        span: clause.span,
        text: clause.kind.word().to_string(),
        why: format!("starts a clause, and `{verb}` takes none here"),
    }
}

/// Where a missing word would go: after the last word of the command part.
pub(crate) fn missing_span(command: &Command, line: &str) -> Span {
    let end = command
        .words
        .last()
        .map_or(command.verb_span.end, |w| w.span.end);
    let end = end.min(line.len());
    Span::new(end + 1, end + 2)
}

/// Add the facts a named unit brings, after the typed words: each implied
/// word the vocabulary knows is bound unless the player already said it
/// (or another word for the same fact); words the verb does not use are
/// passed over, since a unit's weapon means nothing to a hold test.
/// Returns the words that were applied, and the unit's facts a typed word
/// stood in place of, each with the word typed (the stack shows both).
pub(crate) fn add_implied(
    bound: &mut Bound,
    implied: &[UnitFact],
    vocab: &Vocab,
    span: Span,
    verb: &str,
) -> Result<Implied, BindError> {
    // The side's words so far, and whether the player typed each (or an
    // earlier unit brought it).
    let typed: Vec<(String, Option<i64>, bool)> = bound
        .facts
        .iter()
        .map(|f| (f.name.clone(), f.value, !f.implied))
        .collect();
    let typed_word = |name: &str, value: Option<i64>| match value {
        Some(v) => format!("{name}={v}"),
        None => name.to_string(),
    };
    let mut out = Implied::default();
    if vocab.raw {
        return Ok(out);
    }
    for fact in implied {
        let name = &*fact.word;
        let Some(entry) = vocab.find(name) else {
            continue;
        };
        if bound.has(name) {
            // Brought by an earlier unit on this side too (the same or its
            // own value): still listed as this unit's (the "from" row),
            // though the side binds the first unit's. A typed word wins,
            // and is shown where its value is not the unit's.
            let earlier_unit = bound.facts.iter().any(|f| f.name == name && f.implied);
            if earlier_unit {
                out.applied.push(fact.to_string());
            } else if let Some((t, v, _)) =
                typed.iter().find(|(t, _, by_hand)| *by_hand && t == name)
                && *v != fact.value
            {
                out.displaced
                    .push((fact.to_string(), typed_word(t, *v), t.clone()));
            }
            continue;
        }
        if let Kind::Choice(group) = &entry.kind
            && bound.choice(group).is_some()
        {
            continue;
        }
        let displaced_by = vocab.slots.iter().find_map(|slot| {
            slot.contains(&name)
                .then(|| typed.iter().find(|(t, _, _)| slot.contains(&t.as_str())))
                .flatten()
        });
        if let Some((t, v, by_hand)) = displaced_by {
            // A number typed in place of the unit's: a word in place of a
            // word is the rule system's contradiction to refuse or show.
            if *by_hand && fact.value.is_some() {
                out.displaced
                    .push((fact.to_string(), typed_word(t, *v), t.clone()));
            }
            continue;
        }
        let text = fact.to_string();
        let value = fact.value.map(|v| v.to_string());
        let word = Word {
            span,
            text: text.as_str().into(),
            kind: WordKind::Keyword {
                name: name.into(),
                value: value.clone(),
            },
        };
        bind_keyword(bound, &word, name, value.as_deref(), vocab, verb)?;
        if let Some(fact) = bound.facts.last_mut() {
            fact.implied = true;
        }
        out.applied.push(text);
    }
    Ok(out)
}

/// What a named unit's facts came to on its side.
#[derive(Debug, Default)]
pub(crate) struct Implied {
    /// The words it brought, as typed (`bases=5`).
    pub(crate) applied: Vec<String>,
    /// Each fact of its a typed word stood in place of, with that word as
    /// typed and its name.
    pub(crate) displaced: Vec<(String, String, String)>,
}

/// One fact a unit brings: a word of its system's command language, with
/// a value where the word takes one (`determined`, `bases=5`). Naming the
/// unit is the same as typing these words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitFact {
    pub word: Cow<'static, str>,
    pub value: Option<i64>,
}

impl UnitFact {
    pub(crate) fn word(word: impl Into<Cow<'static, str>>) -> UnitFact {
        UnitFact {
            word: word.into(),
            value: None,
        }
    }

    pub(crate) fn number(word: impl Into<Cow<'static, str>>, value: i64) -> UnitFact {
        UnitFact {
            word: word.into(),
            value: Some(value),
        }
    }
}

impl fmt::Display for UnitFact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Some(v) => write!(f, "{}={v}", self.word),
            None => f.write_str(&self.word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(name: &str) -> Fact {
        Fact {
            name: name.to_string(),
            kind: Kind::Flag,
            count: 1,
            value: None,
            span: Span::default(),
            implied: false,
        }
    }

    /// A side may hold every word it holds, and rules out most others.
    #[test]
    fn present_never_rules_out_a_word_the_side_holds() {
        let names = [
            "line",
            "determined",
            "hit",
            "shooting",
            "general",
            "d12",
            "",
            "é",
        ];
        let bound = Bound {
            facts: names.iter().map(|n| fact(n)).collect(),
            ..Bound::default()
        };
        let present = bound.present();
        for name in names {
            assert!(present.may_hold(name), "{name:?}");
        }
        let absent = [
            "lackluster",
            "guards",
            "open",
            "square",
            "retired",
            "fortified",
        ];
        assert!(absent.iter().any(|n| !present.may_hold(n)));
        assert!(!Bound::default().present().may_hold("line"));
    }
}
