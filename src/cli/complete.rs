//! The REPL's completion and hints (and the shell's, through
//! `COMPLETE=bash`), from the words of [`crate::complete`], listed for
//! the terminal.

use std::borrow::Cow;

use owo_colors::OwoColorize;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

pub(crate) use crate::complete::{Choice, Offer, Words};

/// Columns of the terminal on standard output, 80 when it cannot be told.
fn terminal_columns() -> usize {
    match crate::platform::stdout_columns() {
        Some(columns) if columns > 0 => usize::from(columns),
        _ => 80,
    }
}

/// A listing short enough to read shows each word's meaning beside it.
const MEANINGS_UP_TO: usize = 24;

/// How the choices are listed: `word  meaning` one a line when there are
/// few enough and the meanings fit, the bare words in columns otherwise.
fn listed(found: Vec<Choice>, columns: usize) -> Vec<Pair> {
    let with_meanings =
        found.len() <= MEANINGS_UP_TO && found.iter().any(|c| !c.meaning.is_empty());
    let word_width = found
        .iter()
        .map(|c| unicode_width::UnicodeWidthStr::width(c.word.as_str()))
        .max()
        .unwrap_or(0);
    // rustyline lays the list out in columns as wide as the widest entry:
    // entries wider than half the screen stand one a line.
    let line_width = columns.saturating_sub(3).max(word_width + 1);
    found
        .into_iter()
        .map(|c| {
            let display = if with_meanings {
                let mut d = format!("{:<word_width$}  {}", c.word, c.meaning);
                d = truncate_to(&d, line_width);
                let pad = (columns / 2 + 1)
                    .saturating_sub(unicode_width::UnicodeWidthStr::width(d.as_str()));
                d.push_str(&" ".repeat(pad));
                d
            } else {
                c.word.clone()
            };
            Pair {
                display,
                replacement: c.word,
            }
        })
        .collect()
}

/// At most `width` columns of `text`, with `…` when cut.
fn truncate_to(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    if unicode_width::UnicodeWidthStr::width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = ch.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(ch);
    }
    out.push('…');
    out
}

/// The rustyline helper around [`Words`].
pub(crate) struct ReplHelper {
    pub(crate) words: Words,
    files: FilenameCompleter,
}

impl ReplHelper {
    pub(crate) fn new(words: Words) -> ReplHelper {
        ReplHelper {
            words,
            files: FilenameCompleter::new(),
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        match self.words.offer(line, pos) {
            (start, Offer::Words(found)) => Ok((start, listed(found, terminal_columns()))),
            (_, Offer::File) => self.files.complete(line, pos, ctx),
        }
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        self.words.hint(line, pos)
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.words.color {
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
    use crate::complete::common_prefix;
    use crate::session::Session;

    fn words() -> Words {
        let session = Session::new(crate::systems::embedded().unwrap(), crate::drums::DRUMS, 1);
        Words::of(&session, false)
    }

    fn names(found: &[Choice]) -> Vec<&str> {
        found.iter().map(|c| c.word.as_str()).collect()
    }

    #[test]
    fn verbs_then_the_verbs_words() {
        let w = words();
        let (start, found) = w.candidates("resi", 4);
        assert_eq!((start, names(&found)), (0, vec!["resilience"]));
        let (start, found) = w.candidates("resilience +deter", 17);
        assert_eq!(start, 11);
        assert_eq!(names(&found), vec!["+determined"]);
        // The meaning is the table's words for it (`help resilience`).
        assert!(found[0].meaning.starts_with("Are classed as Determined"));
        let (_, found) = w.candidates("hits 4 ba", 9);
        assert_eq!(names(&found), vec!["bases="]);
        let (_, found) = w.candidates("initiative generals=2 vs ex", 27);
        assert_eq!(names(&found), vec!["exceptional="]);
    }

    // Issue 26: "Tab after `+` offers `+gren-1` and `+rolled`".
    #[test]
    fn after_a_plus_only_the_verbs_words() {
        let w = words();
        let (_, found) = w.candidates("resilience +", 12);
        let found = names(&found);
        assert!(found.contains(&"+determined"), "{found:?}");
        assert!(found.iter().all(|n| n.starts_with('+')), "{found:?}");
        for never in ["+rolled", "+at", "+vs", "+roll-rest"] {
            assert!(!found.contains(&never), "{never} in {found:?}");
        }
        let (_, found) = w.candidates("resilience rolled +", 19);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_hint_finishes_the_word_and_adds_nothing() {
        let w = words();
        // The issue: `resilience sh` was hinted a whole example with dice.
        assert_eq!(w.hint("resilience sh", 13), Some("ooting".to_string()));
        assert_eq!(w.hint("resilience shooting", 19), None);
        assert_eq!(w.hint("resilience shooting ", 20), None);
        assert_eq!(w.hint("hold +determined", 16), None);
        // Several candidates: only as far as they agree.
        let (_, found) = w.candidates("resilience li", 13);
        assert_eq!(
            names(&found),
            vec!["light-target", "line", "line-vs-column"]
        );
        assert_eq!(w.hint("resilience li", 13), None);
        assert_eq!(
            w.hint("resilience line-", 16),
            Some("vs-column".to_string())
        );
        // Not in the middle of a line.
        assert_eq!(w.hint("resilience sh x", 13), None);
    }

    #[test]
    fn session_words_rule_systems_and_files() {
        let w = words();
        let (_, found) = w.candidates("set ", 4);
        assert_eq!(names(&found), vec!["ascii", "bases", "brief", "rules"]);
        let (_, found) = w.candidates("set rules m", 11);
        assert_eq!(names(&found), vec!["mayhem"]);
        assert_eq!(found[0].meaning, "Musket Mayhem");
        assert_eq!(w.offer("load arm", 8), (5, Offer::File));
        let (_, found) = w.candidates("lo", 2);
        assert_eq!(names(&found), vec!["load", "log"]);
        // `simulate N` is followed by a command.
        let (_, found) = w.candidates("simulate 1000 resi", 18);
        assert_eq!(names(&found), vec!["resilience"]);
        // After `rolled` come dice, which are never offered: only the word
        // that rolls the rest (issue 23), once.
        let (_, found) = w.candidates("resilience rolled ", 18);
        assert_eq!(names(&found), vec!["roll-rest"]);
        let (_, found) = w.candidates("resilience rolled 4 roll-rest ", 30);
        assert!(found.is_empty());
    }

    #[test]
    fn long_listings_drop_the_meanings_short_ones_keep_them() {
        let w = words();
        let (_, found) = w.candidates("resilience ", 11);
        assert!(found.len() > MEANINGS_UP_TO, "{}", found.len());
        let pairs = listed(found, 100);
        assert!(pairs.iter().all(|p| p.display == p.replacement));
        let (_, found) = w.candidates("set rules ", 10);
        let pairs = listed(found, 100);
        assert!(
            pairs[0].display.starts_with("drums"),
            "{}",
            pairs[0].display
        );
        assert!(pairs[0].display.contains("Drums and Muskets"));
        assert!(pairs.iter().all(|p| p.display.chars().count() <= 97));
        assert_eq!(pairs[0].replacement, "drums");
    }

    #[test]
    fn common_prefix_stops_where_words_part() {
        assert_eq!(common_prefix(["line", "line-vs"].into_iter()), Some("line"));
        assert_eq!(common_prefix(["ab", "cd"].into_iter()), Some(""));
        assert_eq!(common_prefix(std::iter::empty()), None);
        assert_eq!(truncate_to("abcdef", 4), "abc…");
    }
}
