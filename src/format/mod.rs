//! Ways of writing an answer: one file per format, each one
//! implementation of [`Format`]. A format says which answers it writes
//! (from what a line asks for, before the line runs) and writes one. It
//! reads only answers (`crate::answer`): never the session, the game or a
//! rule system, so every front end (the terminal, a batch, a web view)
//! writes with the same formats. A new format is one file here and one
//! entry in the front end's choice.

use std::borrow::Cow;
use std::io::{self, Write};

use comfy_table::{ContentArrangement, Table, presets};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::answer::{Answer, Kind};

pub(crate) mod brief;
pub mod delimited;
pub(crate) mod html;
pub mod json;
pub(crate) mod printer;
mod roster;
pub(crate) mod stream;
#[cfg(feature = "native")]
pub(crate) mod svg;
pub mod text;
pub(crate) mod web;

/// One way of writing answers.
pub(crate) trait Format {
    /// Whether this format writes the answer to a question of `kind`; if
    /// not, the whole refusal, for the line as typed (`line`). A front end
    /// asks before it runs the line, so a refused line changes no game.
    fn accepts(&self, kind: Kind, line: &str) -> Result<(), String>;

    /// Write one answer, and the newline that ends it.
    fn write(&self, answer: &Answer, source: Source, out: &mut dyn Write) -> io::Result<()>;

    /// How this format writes a sweep too large for one table, a
    /// combination at a time ([`stream`]); `None` keeps every row and
    /// writes the answer whole.
    fn long(&self) -> Option<Box<dyn stream::Long>> {
        None
    }
}

/// An answer this format was not asked to write: the front end refuses
/// such a line before it runs, so this is only a caller's mistake.
fn not_written(what: &str, answer: &Answer) -> io::Error {
    io::Error::other(format!("{what} does not write {:?} answers", answer.kind()))
}

/// The text and JSON formats write every answer a line can give; the
/// sheet and the cards are written to paper (HTML) only.
fn line_answers(kind: Kind, name: &str) -> Result<(), String> {
    match kind {
        Kind::Sheet | Kind::Cards => Err(format!(
            "{name} does not write a sheet or cards: they are printed as HTML"
        )),
        _ => Ok(()),
    }
}

/// How text is drawn: in colour or not, fitted to a width (a terminal's)
/// or not (a pipe gets the tables whole), in plain ASCII, or one line a
/// resolution (with its modifiers' labels or without).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
    /// Columns to fit tables and prose into; `None` draws them whole.
    pub width: Option<u16>,
    pub ascii: bool,
    pub brief: bool,
    /// With `brief`: each modifier named by its row (`--labels`).
    pub labels: bool,
}

impl Style {
    /// Plain, whole, in colour or not: what a pipe gets.
    pub fn plain(color: bool) -> Style {
        Style {
            color,
            ..Style::default()
        }
    }

    /// A table in this style: boxed or bare, fitted to the width.
    fn table(&self, boxed: bool) -> Table {
        let mut t = Table::new();
        let preset = match (boxed, self.ascii) {
            (true, false) => presets::UTF8_FULL_CONDENSED,
            (true, true) => presets::ASCII_FULL_CONDENSED,
            (false, _) => presets::NOTHING,
        };
        t.load_style(preset);
        match self.width {
            Some(w) => {
                t.set_content_arrangement(ContentArrangement::Dynamic)
                    .set_width(w);
            }
            None => {
                t.set_content_arrangement(ContentArrangement::Disabled);
            }
        }
        t
    }

    /// A cell's text: as it is, or in ASCII.
    fn cell<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.ascii {
            ascii(text)
        } else {
            Cow::Borrowed(text)
        }
    }

    /// The finished text: every text answer passes here, before any
    /// colour goes on. What it quotes from a file or a line (a name, a
    /// word) is shown, never obeyed ([`crate::text::visible_lines`]); in
    /// ASCII if asked (tables already are), with prose lines wrapped to
    /// the width.
    fn finish(&self, text: String) -> String {
        let text = match crate::text::visible_lines(&text) {
            Cow::Borrowed(_) => text,
            Cow::Owned(shown) => shown,
        };
        let text = if self.ascii {
            ascii(&text).into_owned()
        } else {
            text
        };
        match self.width {
            Some(w) => wrap_prose(&text, usize::from(w)),
            None => text,
        }
    }
}

/// Plain ASCII for a terminal or printer that has nothing else: arrows and
/// dots as ASCII, letters without their accents.
pub(crate) fn ascii(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '⇒' => out.push_str("=>"),
            '→' => out.push_str("->"),
            '·' => out.push('|'),
            '—' => out.push('-'),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(deunicode::deunicode_char(c).unwrap_or("?")),
        }
    }
    Cow::Owned(out)
}

/// Wrap an error's message (or a note) at the width, under its first word; the source
/// line and its caret below (indented) are left whole, or the caret would
/// no longer point at the word.
pub(crate) fn wrap_error(text: &str, width: Option<u16>) -> Cow<'_, str> {
    let Some(width) = width.map(usize::from) else {
        return Cow::Borrowed(text);
    };
    let mut out = Vec::new();
    for line in text.split('\n') {
        if line.starts_with(char::is_whitespace)
            || unicode_width::UnicodeWidthStr::width(line) <= width
        {
            out.push(Cow::Borrowed(line));
            continue;
        }
        // Only at spaces: a name, a path or an id is never cut, not even
        // at its hyphens (a line too long for it runs over instead).
        let options = textwrap::Options::new(width)
            .subsequent_indent("  ")
            .break_words(false)
            .word_separator(textwrap::WordSeparator::AsciiSpace)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        out.push(Cow::Owned(textwrap::fill(line, options)));
    }
    Cow::Owned(out.join("\n"))
}

/// Wrap the lines that are prose (not a table's) at the width, keeping
/// their indent; a `word   meaning` line wraps under its meaning.
fn wrap_prose(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let drawn = line.starts_with(['┌', '│', '├', '└', '+', '|']);
        if drawn || unicode_width::UnicodeWidthStr::width(line) <= width {
            out.push(line.to_string());
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        // The meaning column of `  word      meaning`.
        let hang = line[indent..]
            .find("  ")
            .map(|i| indent + i)
            .map(|i| {
                let rest = &line[i..];
                i + rest.len() - rest.trim_start().len()
            })
            .filter(|&h| h < width / 2)
            // A note (indented) continues under its text; a paragraph at
            // the margin stays at the margin.
            .unwrap_or(if indent > 0 { indent + 2 } else { 0 });
        let hang_indent = " ".repeat(hang);
        let options = textwrap::Options::new(width.max(hang + 20))
            .initial_indent(&line[..indent])
            .subsequent_indent(&hang_indent)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        out.push(textwrap::fill(line.trim_start(), options));
    }
    out.join("\n")
}

/// Where an answer came from: the input line's number (from 1) and text.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub line: usize,
    pub input: &'a str,
}

/// `text` in at most `room` columns: cut at a character and ended with an
/// ellipsis when it is longer: a unit's name in `units`, a `--brief` line
/// at the terminal's width.
pub(crate) fn shorten(text: &str, room: usize, ascii: bool) -> String {
    if text.width() <= room {
        return text.to_string();
    }
    // ASCII output spells the ellipsis out, so it is cut shorter.
    let ellipsis = if ascii { "..." } else { "…" };
    let keep = room.saturating_sub(ellipsis.width());
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > keep {
            break;
        }
        used += w;
        out.push(c);
    }
    // A cut after a space or a comma leaves it dangling before the
    // ellipsis.
    let kept = out.trim_end_matches([' ', ',', ';', ':']).len();
    out.truncate(kept);
    out.push_str(ellipsis);
    out
}
