//! What a front end offers as you type (the REPL, the shell through
//! `COMPLETE=bash`, the pocket page): verbs, the words the verb in hand
//! knows (from the tables), unit ids, rule systems and settings, each with
//! what it means. A hint only finishes the word under the cursor: it never
//! adds a word or a die.

use crate::bind::{Kind, Vocab};
use crate::catalog::Units;
use crate::command::System;
use crate::meta::{GameVerb, MetaVerb};
use crate::session::Session;

/// A word that may be typed here, and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Choice {
    pub word: String,
    pub meaning: String,
}

impl Choice {
    fn new(word: impl Into<String>, meaning: impl Into<String>) -> Choice {
        Choice {
            word: word.into(),
            meaning: meaning.into(),
        }
    }
}

/// One verb's words, as the REPL offers them.
#[derive(Debug, Clone)]
struct VerbWords {
    system: Option<System>,
    name: String,
    summary: String,
    words: Vec<Choice>,
    clause_words: Vec<Choice>,
}

/// A unit that may be named, and the books it may be named under.
#[derive(Debug, Clone)]
struct UnitChoice {
    choice: Choice,
    books: Vec<System>,
}

/// What the word under the cursor is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Offer {
    /// One of these words.
    Words(Vec<Choice>),
    /// A file name (`load`, `save`).
    File,
}

/// A snapshot of everything the session knows how to read, taken again
/// after every line (a `load` brings units, `set rules` another book).
#[derive(Debug, Clone)]
pub(crate) struct Words {
    verbs: Vec<VerbWords>,
    units: Vec<UnitChoice>,
    books: Vec<System>,
    /// Each book's `set` settings: (name, what it does).
    settings: Vec<(System, Vec<Choice>)>,
    pub(crate) system: System,
    pub(crate) color: bool,
}

fn typed(name: &str, kind: &Kind) -> String {
    match kind {
        Kind::Number { .. } => format!("{name}="),
        _ => name.to_string(),
    }
}

fn choices(vocab: &Vocab) -> impl Iterator<Item = Choice> + '_ {
    vocab
        .entries
        .iter()
        .map(|e| Choice::new(typed(&e.name, &e.kind), e.help.clone()))
}

/// The first sentence of a text: a listing has one line per choice.
fn first_sentence(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    match line.find(". ") {
        Some(i) => line[..=i].to_string(),
        None => line.to_string(),
    }
}

/// Verbs every book knows: the session's and the game's, and the REPL's
/// own (`load`, `quit`).
fn session_choices() -> impl Iterator<Item = Choice> {
    MetaVerb::ALL
        .into_iter()
        .map(|v| Choice::new(v.name(), first_sentence(v.about())))
}

/// Whether the verb's word is a file: `load FILE`, `save FILE`.
fn takes_file(verb: &str) -> bool {
    matches!(
        MetaVerb::named(verb),
        Some(MetaVerb::Load | MetaVerb::Game(GameVerb::Save))
    )
}

const LINE_WORD_MEANINGS: &[(&str, &str)] = &[
    ("at", "the words of the target that follow"),
    ("vs", "the words of the opponent that follow"),
    ("rolled", "the dice you threw, like `rolled 4 3`"),
    (
        "roll-rest",
        "after the entered faces: roll the dice not entered, like `rolled 4 roll-rest`",
    ),
];

impl Words {
    pub(crate) fn of(session: &Session, color: bool) -> Words {
        let verbs = session
            .catalog
            .verbs()
            .map(|doc| VerbWords {
                system: doc.system,
                name: doc.name.to_string(),
                summary: first_sentence(&doc.summary),
                words: choices(&doc.vocab).collect(),
                clause_words: doc.clauses.iter().flat_map(|(_, v)| choices(v)).collect(),
            })
            .collect();
        let books = session.catalog.books.clone();
        let units = session
            .game
            .as_ref()
            .map(|game| {
                game.armies
                    .iter()
                    .flat_map(|army| {
                        army.list
                            .members()
                            .into_iter()
                            .map(|m| {
                                let meaning = format!("{}: {} ({})", m.kind, m.name, army.name);
                                let books = books
                                    .iter()
                                    .copied()
                                    .filter(|b| game.unit(*b, m.id).is_some())
                                    .collect();
                                UnitChoice {
                                    choice: Choice::new(m.id, meaning),
                                    books,
                                }
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect()
            })
            .unwrap_or_default();
        let settings = books
            .iter()
            .map(|b| {
                let mut list: Vec<Choice> = session
                    .tables
                    .set(*b)
                    .map(|s| s.settings())
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|(usage, what)| {
                        usage
                            .split_whitespace()
                            .nth(1)
                            .map(|name| Choice::new(name, what))
                    })
                    .collect();
                list.push(Choice::new("rules", "the rule system lines are read under"));
                (*b, list)
            })
            .collect();
        Words {
            verbs,
            units,
            books,
            settings,
            system: session.rules,
            color,
        }
    }

    fn verbs_of(&self, system: System) -> impl Iterator<Item = &VerbWords> {
        self.verbs
            .iter()
            .filter(move |v| v.system.is_none_or(|s| s == system))
    }

    fn verb_choices(&self, system: System) -> impl Iterator<Item = Choice> + '_ {
        self.verbs_of(system)
            .map(|v| Choice::new(v.name.clone(), v.summary.clone()))
    }

    fn unit_choices(&self, system: System) -> impl Iterator<Item = Choice> + '_ {
        self.units
            .iter()
            .filter(move |u| u.books.contains(&system))
            .map(|u| u.choice.clone())
    }

    /// What may stand where the cursor is: the byte where the word under
    /// it starts, and the offer (only the words that start with what is
    /// typed of it, sorted).
    pub(crate) fn offer(&self, line: &str, pos: usize) -> (usize, Offer) {
        let pos = floor_boundary(line, pos.min(line.len()));
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let partial = &before[start..];
        let mut tokens: Vec<&str> = before[..start].split_whitespace().collect();
        if before.contains('#') {
            // A comment: nothing to offer.
            return (start, Offer::Words(Vec::new()));
        }
        let mut system = self.system;
        if let Some(s) = tokens
            .first()
            .and_then(|t| self.books.iter().find(|b| b.id() == *t).copied())
        {
            system = s;
            tokens.remove(0);
        }
        let first = tokens.first().and_then(|t| MetaVerb::named(t));
        if first == Some(MetaVerb::Odds) {
            tokens.remove(0);
        } else if first == Some(MetaVerb::Simulate) {
            tokens.remove(0);
            if tokens.first().is_some_and(|t| t.parse::<u64>().is_ok()) {
                tokens.remove(0);
            }
        }
        let options = match tokens.first().copied() {
            Some(verb) if tokens.len() == 1 && takes_file(verb) => return (start, Offer::File),
            // `+` marks a word of the verb: never a unit, a clause or dice.
            Some(verb) if partial.starts_with('+') => self.modifiers(system, verb, &tokens),
            None => self.first_words(system, before[..start].trim()),
            Some(first) => self.later_words(system, first, &tokens),
        };
        (start, Offer::Words(matching(partial, options)))
    }

    /// The first word of a command (`typed`: what stands before it).
    fn first_words(&self, system: System, typed: &str) -> Vec<Choice> {
        let mut options: Vec<Choice> = Vec::new();
        options.extend(self.verb_choices(system));
        options.extend(session_choices());
        if typed.is_empty() {
            options.extend(
                self.books
                    .iter()
                    .map(|s| Choice::new(s.id(), format!("a line under {}", s.title()))),
            );
        }
        if MetaVerb::named(typed) == Some(MetaVerb::Simulate) {
            options.clear();
        }
        options
    }

    /// A word after the verb `first` (the words typed: `tokens`).
    fn later_words(&self, system: System, first: &str, tokens: &[&str]) -> Vec<Choice> {
        let mut options: Vec<Choice> = Vec::new();
        match MetaVerb::named(first) {
            Some(MetaVerb::Help) if tokens.len() == 1 => {
                options.extend(self.verb_choices(system));
                options.extend(session_choices());
            }
            Some(MetaVerb::Set) if tokens.len() == 1 => {
                if let Some((_, list)) = self.settings.iter().find(|(b, _)| *b == system) {
                    options.extend(list.iter().cloned());
                }
                options.extend(
                    crate::session::DISPLAY_SETTINGS
                        .iter()
                        .map(|(name, meaning)| Choice::new(*name, *meaning)),
                );
            }
            Some(MetaVerb::Set) if tokens.len() == 2 && tokens[1] == "rules" => {
                options.extend(
                    self.books
                        .iter()
                        .map(|s| Choice::new(s.id(), s.title().to_string())),
                );
            }
            Some(MetaVerb::Game(GameVerb::Show)) if tokens.len() == 1 => {
                // A unit of any book may be shown.
                options.extend(self.units.iter().map(|u| u.choice.clone()));
            }
            _ => options = self.verb_words(system, first, tokens),
        }
        options
    }

    /// The words of the verb in hand, its line words and units; after
    /// `rolled`, only `roll-rest`.
    fn verb_words(&self, system: System, verb: &str, tokens: &[&str]) -> Vec<Choice> {
        let mut options: Vec<Choice> = Vec::new();
        if let Some(v) = self.verbs_of(system).find(|v| v.name == verb)
            && !tokens.contains(&"rolled")
        {
            let in_clause = tokens.iter().any(|t| *t == "at" || *t == "vs");
            options.extend(if in_clause {
                v.clause_words.iter().cloned()
            } else {
                v.words.iter().cloned()
            });
            if !v.clause_words.is_empty() {
                options.extend(
                    LINE_WORD_MEANINGS[..2]
                        .iter()
                        .map(|(w, m)| Choice::new(*w, *m)),
                );
            }
            let (w, m) = LINE_WORD_MEANINGS[2];
            options.push(Choice::new(w, m));
            options.extend(self.unit_choices(system));
        } else if tokens.contains(&"rolled") && !tokens.contains(&"roll-rest") {
            let (w, m) = LINE_WORD_MEANINGS[3];
            options.push(Choice::new(w, m));
        }
        options
    }

    /// The words of the verb in hand that `+` may mark (`+determined`).
    fn modifiers(&self, system: System, verb: &str, tokens: &[&str]) -> Vec<Choice> {
        let Some(v) = self.verbs_of(system).find(|v| v.name == verb) else {
            return Vec::new();
        };
        if tokens.contains(&"rolled") {
            return Vec::new();
        }
        let in_clause = tokens.iter().any(|t| *t == "at" || *t == "vs");
        if in_clause {
            v.clause_words.clone()
        } else {
            v.words.clone()
        }
    }

    /// The words that may stand under the cursor (no file names).
    pub(crate) fn candidates(&self, line: &str, pos: usize) -> (usize, Vec<Choice>) {
        match self.offer(line, pos) {
            (start, Offer::Words(found)) => (start, found),
            (start, Offer::File) => (start, Vec::new()),
        }
    }

    /// The rest of the word under the cursor, as far as every candidate
    /// agrees: never a second word, never a die.
    pub(crate) fn hint(&self, line: &str, pos: usize) -> Option<String> {
        if pos < line.len() {
            return None;
        }
        let (start, found) = self.candidates(line, pos);
        let partial = &line[start..pos];
        if partial.is_empty() || partial == "+" {
            return None;
        }
        let common = common_prefix(found.iter().map(|c| c.word.as_str()))?;
        (common.len() > partial.len() && common.starts_with(partial))
            .then(|| common[partial.len()..].to_string())
    }
}

/// The options that start with what is typed of the word (a leading `+`
/// kept), sorted, each once.
fn matching(partial: &str, options: Vec<Choice>) -> Vec<Choice> {
    let (plus, bare) = match partial.strip_prefix('+') {
        Some(rest) => ("+", rest),
        None => ("", partial),
    };
    let mut found: Vec<Choice> = options
        .into_iter()
        .filter(|o| o.word.starts_with(bare))
        .map(|o| Choice {
            word: format!("{plus}{}", o.word),
            meaning: o.meaning,
        })
        .collect();
    found.sort_by(|a, b| a.word.cmp(&b.word));
    found.dedup_by(|a, b| a.word == b.word);
    found
}

/// The longest prefix every word shares (on character boundaries).
pub(crate) fn common_prefix<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let first = words.next()?;
    let mut len = first.len();
    for w in words {
        len = first
            .char_indices()
            .zip(w.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8())
            .min(len);
    }
    Some(&first[..len])
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
