//! Answers as HTML for the live view (`drumhead serve`): each answer a
//! fragment laid out for a phone first, with the text output's content
//! (every row of a stack with its label and value, the outcome, the
//! notes) and nothing wider than the screen: a stack is two columns whose
//! labels wrap, and a value too long to sit beside its label goes under
//! it. The page around them (its head, the roster) is here too. maud
//! escapes every string, and nothing here has a `style` attribute or a
//! script: the page's Content-Security-Policy allows neither.
//!
//! What a test or a script may read: an entry is `<article class="entry"
//! id="entry-N">` (its line in `.line`, its answer in `.answer`; an entry
//! taken back by an undo has `data-undone` and a `.undone-mark`); a
//! stack is `dl.stack`, a row a `div.row` of `dt` (the label) and `dd`
//! (the value); the outcome `p.outcome`; a roster `table.units`, a unit a
//! `tr.unit` with `data-status` (`fine`, `shaken`, `out`) and, when not
//! fine, the system's word in `.status`.

use maud::{Markup, PreEscaped, html};

use crate::answer::Answer;

mod odds;
mod page;
#[cfg(feature = "native")]
pub(crate) mod pocket;
mod report;
mod stack;

pub(crate) use page::{document, roster};

/// One answer as a fragment (`div.answer`).
pub(crate) fn answer(answer: &Answer) -> Markup {
    match answer {
        Answer::Resolution(res) => stack::resolution(res),
        Answer::Odds(o) => odds::odds(o),
        Answer::Comparison(c) => odds::comparison(c),
        Answer::Simulation(s) => odds::simulation(s),
        Answer::Sweep(s) => odds::sweep(s),
        Answer::Report(r) => report::report(r),
        Answer::Sheet(_) | Answer::Cards(_) => html! {
            div.answer { p { "a sheet or cards are printed: see drumhead sheet and drumhead roster" } }
        },
    }
}

/// The live view's answers as a format: each a fragment ([`answer`]),
/// and a sweep too large for one table a combination at a time
/// (`format::stream`), in the same markup.
pub(crate) struct Web;

impl super::Format for Web {
    fn accepts(&self, kind: crate::answer::Kind, _line: &str) -> Result<(), String> {
        super::line_answers(kind, "the live view")
    }

    fn write(
        &self,
        answer: &Answer,
        _source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        out.write_all(self::answer(answer).into_string().as_bytes())
    }

    fn long(&self) -> Option<Box<dyn super::stream::Long>> {
        Some(Box::<odds::LongWeb>::default())
    }
}

/// Where an entry stands in a game: its number and the turn it was made
/// in (a line that made no entry has neither).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Place {
    pub(crate) number: Option<u64>,
    pub(crate) turn: Option<u32>,
    /// Taken back by a later `undo`.
    pub(crate) undone: bool,
}

/// One line and its answer (already a fragment: [`answer`] or
/// [`error`]), as the feed and the umpire's page show it.
pub(crate) fn entry(place: Place, line: &str, answer: &str) -> Markup {
    let id = place.number.map(|n| format!("entry-{n}"));
    let class = if place.number.is_some() {
        "entry"
    } else {
        "entry reply"
    };
    html! {
        article class=(class) id=[id] data-undone[place.undone] {
            h3 {
                @if let Some(n) = place.number { span.number { "#" (n) } " " }
                span.line { (line) }
                @if let Some(turn) = place.turn { " " span.when { "turn " (turn) } }
            }
            @if place.undone {
                p.undone-mark { "undone: a later undo took this back" }
            }
            (PreEscaped(answer))
        }
    }
}

/// Where an answer goes in the markup of [`entry_around`] and
/// `serve::page::odds`: a comment no escaped text can hold.
pub(crate) const ANSWER_MARK: &str = "<!--answer-->";

/// The markup before and after where [`ANSWER_MARK`] stands in `page`.
pub(crate) fn around_answer(page: &str) -> (String, String) {
    match page.split_once(ANSWER_MARK) {
        Some((before, after)) => (before.to_string(), after.to_string()),
        None => (page.to_string(), String::new()),
    }
}

/// An entry ([`entry`]) before and after its answer: what goes around an
/// answer written as it is made.
pub(crate) fn entry_around(place: Place, line: &str) -> (String, String) {
    around_answer(&entry(place, line, ANSWER_MARK).into_string())
}

/// A line refused: the message whole (it names the word and the nearest
/// one the verb knows), and the line with the words at fault marked
/// where the text output puts its caret (`at`, a byte range of `line`).
pub(crate) fn error(message: &str, line: &str, at: Option<std::ops::Range<usize>>) -> Markup {
    let at = at.and_then(|r| {
        let start = r.start.min(line.len());
        let end = r.end.clamp(start, line.len());
        Some((line.get(..start)?, line.get(start..end)?, line.get(end..)?))
    });
    html! {
        div.answer.error role="alert" {
            p.message { "error: " (message) }
            @if let Some((before, marked, after)) = at {
                p.where {
                    code {
                        (before)
                        mark.caret title="here" { @if marked.is_empty() { " " } @else { (marked) } }
                        (after)
                    }
                }
            } @else if !line.is_empty() {
                p.where { code { (line) } }
            }
        }
    }
}

/// Label-and-value rows, as a stack shows them.
fn rows<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str)>) -> Markup {
    html! {
        dl.stack {
            @for (label, value) in rows {
                div.row { dt { (label) } dd { (value) } }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_marks_the_words_at_fault_and_escapes_all() {
        let e = error("unknown word `<b>`", "hits <b> x", Some(5..8)).into_string();
        assert!(e.contains("error: unknown word `&lt;b&gt;`"), "{e}");
        assert!(
            e.contains("hits <mark class=\"caret\" title=\"here\">&lt;b&gt;</mark> x"),
            "{e}"
        );
        // A range past the line, or inside a character, marks nothing.
        let e = error("x", "é", Some(1..2)).into_string();
        assert!(!e.contains("<mark"), "{e}");
    }

    #[test]
    fn an_entry_says_its_number_turn_and_whether_it_was_undone() {
        let place = Place {
            number: Some(4),
            turn: Some(2),
            undone: true,
        };
        let e = entry(place, "hits 1 <x>", "<div class=\"answer\"></div>").into_string();
        assert!(e.contains("id=\"entry-4\""), "{e}");
        assert!(e.contains("data-undone"), "{e}");
        assert!(e.contains("hits 1 &lt;x&gt;"), "{e}");
        assert!(e.contains("turn 2"), "{e}");
        let reply = entry(Place::default(), "units", "").into_string();
        assert!(
            reply.contains("entry reply") && !reply.contains("id="),
            "{reply}"
        );
    }
}
