//! What the REPL offers as you type: verbs, the words the verb being typed
//! knows (from the tables), unit ids, and the rest of a known example.

use std::borrow::Cow;

use owo_colors::OwoColorize;
use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use crate::bind::Kind;
use crate::catalog::session_verbs;
use crate::command::System;
use crate::session::Session;

/// One verb's words, as the REPL offers them.
#[derive(Debug, Clone)]
struct VerbWords {
    system: Option<System>,
    name: String,
    words: Vec<String>,
    clause_words: Vec<String>,
    examples: Vec<String>,
}

/// A snapshot of everything the session knows how to read.
#[derive(Debug, Clone)]
pub struct Words {
    verbs: Vec<VerbWords>,
    units: Vec<String>,
    books: Vec<System>,
    pub system: System,
    pub color: bool,
}

fn typed(name: &str, kind: &Kind) -> String {
    match kind {
        Kind::Number { .. } => format!("{name}="),
        _ => name.to_string(),
    }
}

impl Words {
    pub fn of(session: &Session, color: bool) -> Words {
        let verbs = session
            .catalog
            .verbs
            .iter()
            .map(|doc| VerbWords {
                system: doc.system,
                name: doc.name.to_string(),
                words: doc
                    .vocab
                    .entries
                    .iter()
                    .map(|e| typed(&e.name, &e.kind))
                    .collect(),
                clause_words: doc
                    .clauses
                    .iter()
                    .flat_map(|(_, v)| v.entries.iter().map(|e| typed(&e.name, &e.kind)))
                    .collect(),
                examples: doc.examples.iter().map(|e| e.to_string()).collect(),
            })
            .collect();
        let units = session
            .game
            .as_ref()
            .map(crate::catalog::Units::ids)
            .unwrap_or_default();
        Words {
            verbs,
            units,
            books: session.catalog.books.clone(),
            system: session.rules,
            color,
        }
    }

    fn verbs_of(&self, system: System) -> impl Iterator<Item = &VerbWords> {
        self.verbs
            .iter()
            .filter(move |v| v.system.is_none_or(|s| s == system))
    }

    /// Candidates for the word under the cursor.
    pub fn candidates(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let partial = &before[start..];
        let mut tokens: Vec<&str> = before[..start].split_whitespace().collect();
        let mut system = self.system;
        if let Some(s) = tokens
            .first()
            .and_then(|t| self.books.iter().find(|b| b.id() == *t).copied())
        {
            system = s;
            tokens.remove(0);
        }
        if tokens.first() == Some(&"odds") {
            tokens.remove(0);
        }
        let mut options: Vec<String> = Vec::new();
        match tokens.first() {
            None => {
                options.extend(self.verbs_of(system).map(|v| v.name.clone()));
                options.extend(session_verbs().map(str::to_string));
                if before[..start].trim().is_empty() {
                    options.extend(self.books.iter().map(|s| s.id().to_string()));
                }
            }
            Some(verb) => {
                if let Some(v) = self.verbs_of(system).find(|v| v.name == *verb) {
                    let in_clause = tokens.iter().any(|t| *t == "at" || *t == "vs");
                    options.extend(if in_clause {
                        v.clause_words.clone()
                    } else {
                        v.words.clone()
                    });
                    if !v.clause_words.is_empty() {
                        options.extend(["at".to_string(), "vs".to_string()]);
                    }
                    options.push("rolled".into());
                }
                if *verb == "help" {
                    options.extend(self.verbs_of(system).map(|v| v.name.clone()));
                }
                options.extend(self.units.iter().cloned());
            }
        }
        let (plus, bare) = match partial.strip_prefix('+') {
            Some(rest) => ("+", rest),
            None => ("", partial),
        };
        let mut found: Vec<String> = options
            .into_iter()
            .filter(|o| o.starts_with(bare))
            .map(|o| format!("{plus}{o}"))
            .collect();
        found.sort();
        found.dedup();
        (start, found)
    }

    /// The rest of a known example that starts with what is typed.
    pub fn hint(&self, line: &str, pos: usize) -> Option<String> {
        if pos < line.len() || line.trim().is_empty() {
            return None;
        }
        self.verbs_of(self.system)
            .flat_map(|v| v.examples.iter())
            .find(|e| e.len() > line.len() && e.starts_with(line))
            .map(|e| e[line.len()..].to_string())
    }
}

/// The rustyline helper around [`Words`].
pub struct ReplHelper(pub Words);

impl Completer for ReplHelper {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, found) = self.0.candidates(line, pos);
        Ok((
            start,
            found
                .into_iter()
                .map(|c| Pair {
                    display: c.clone(),
                    replacement: c,
                })
                .collect(),
        ))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        self.0.hint(line, pos)
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.0.color {
            Cow::Owned(hint.dimmed().to_string())
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        let session = Session::new(crate::systems::embedded().unwrap(), crate::drums::DRUMS, 1);
        Words::of(&session, false)
    }

    #[test]
    fn verbs_then_the_verbs_words() {
        let w = words();
        assert_eq!(w.candidates("resi", 4), (0, vec!["resilience".to_string()]));
        let (start, found) = w.candidates("resilience +deter", 17);
        assert_eq!(start, 11);
        assert_eq!(found, vec!["+determined".to_string()]);
        let (_, found) = w.candidates("hits 4 ba", 9);
        assert_eq!(found, vec!["bases=".to_string()]);
        let (_, found) = w.candidates("initiative generals=2 vs ex", 27);
        assert_eq!(found, vec!["exceptional=".to_string()]);
    }

    #[test]
    fn examples_as_hints() {
        let w = words();
        assert_eq!(
            w.hint("hold +determined", 16),
            Some(" +not-charged".to_string())
        );
        assert_eq!(w.hint("hold", 2), None);
    }
}
