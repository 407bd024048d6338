//! Resolution → text (a comfy-table of the modifier stack, the outcome on
//! its own line) or JSON (one object per command).

use std::borrow::Cow;

use comfy_table::{Cell, CellAlignment, ContentArrangement, Table, presets};
use owo_colors::OwoColorize;
use serde_json::{Map, Value, json};

use crate::odds::{Odds, OutcomeOdds};
use crate::report::{FORMAT_VERSION, Report};
use crate::resolution::{Resolution, Tone};

/// How text is drawn: in colour or not, fitted to a width (a terminal's)
/// or not (a pipe gets the tables whole), in plain ASCII, or one line a
/// resolution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
    /// Columns to fit tables and prose into; `None` draws them whole.
    pub width: Option<u16>,
    pub ascii: bool,
    pub brief: bool,
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
pub fn ascii(text: &str) -> Cow<'_, str> {
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

/// The settings of the prompt's own display, as `set NAME [on|off]` (the
/// REPL's, which holds the style): each with what it does.
pub const DISPLAY_SETTINGS: &[(&str, &str)] = &[
    (
        "brief",
        "one line a resolution, as a dice bot writes it (--brief)",
    ),
    (
        "ascii",
        "plain ASCII: no box drawing, arrows or accented letters (--ascii)",
    ),
];

/// Wrap an error's message at the width, under its first word; the source
/// line and its caret below (indented) are left whole, or the caret would
/// no longer point at the word.
pub fn wrap_error(text: &str, width: Option<u16>) -> Cow<'_, str> {
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
        let options = textwrap::Options::new(width).subsequent_indent("  ");
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

/// The modifier stack as a boxed table: label left, value right.
fn stack_table(rows: &[(String, String)], style: &Style) -> String {
    let laid_out = || {
        let mut table = style.table(true);
        for (label, value) in rows {
            table.add_row(vec![
                Cell::new(style.cell(label)),
                Cell::new(style.cell(value)).set_alignment(CellAlignment::Right),
            ]);
        }
        table.to_string()
    };
    // A pipe gets the table whole, and laying it out is most of a batch's
    // time: the same bytes, written directly. Every debug build (so every
    // test) checks them against the laid-out table.
    if style.width.is_none()
        && !style.ascii
        && let Some(direct) = whole_two_columns(rows)
    {
        debug_assert_eq!(direct, laid_out(), "the direct stack table");
        return direct;
    }
    laid_out()
}

/// A two-column table drawn whole in the UTF-8 condensed style, when every
/// cell is one line of characters one column wide each, with no space at
/// either end (what the table layout would otherwise reflow or trim).
fn whole_two_columns(rows: &[(String, String)]) -> Option<String> {
    let plain = |s: &str| {
        !s.is_empty()
            && !s.starts_with(char::is_whitespace)
            && !s.ends_with(char::is_whitespace)
            && s.chars()
                .all(|c| !c.is_control() && unicode_width::UnicodeWidthChar::width(c) == Some(1))
    };
    let mut widths = [0usize; 2];
    for (label, value) in rows {
        if !plain(label) || !plain(value) {
            return None;
        }
        widths[0] = widths[0].max(label.chars().count());
        widths[1] = widths[1].max(value.chars().count());
    }
    let rule = |left: &str, mid: &str, right: &str| {
        format!(
            "{left}{}{mid}{}{right}",
            "─".repeat(widths[0] + 2),
            "─".repeat(widths[1] + 2)
        )
    };
    let mut out = rule("┌", "┬", "┐");
    for (label, value) in rows {
        out.push('\n');
        out.push_str(&format!(
            "│ {label:<w0$} ┆ {value:>w1$} │",
            w0 = widths[0],
            w1 = widths[1]
        ));
    }
    out.push('\n');
    out.push_str(&rule("└", "┴", "┘"));
    Some(out)
}

pub fn text(res: &Resolution, style: &Style) -> String {
    let mut heading = format!("{} · {}", res.heading, res.rules.title());
    if let Some(seed) = res.seed {
        heading.push_str(&format!(" · seed {seed}"));
    }
    let mut out = heading;
    if !res.rows.is_empty() {
        out.push('\n');
        out.push_str(&stack_table(&res.row_texts(), style));
    }
    let mut out = style.finish(out);
    out.push('\n');
    out.push_str(&outcome_line(res, style));
    let mut notes = String::new();
    for note in &res.notes {
        notes.push_str("\n  ");
        notes.push_str(note);
    }
    out.push_str(&style.finish(notes));
    out
}

/// One line, as a dice bot says it: the command as typed (without its
/// entered dice), the dice, each modifier with its row, the score, the
/// outcome.
pub fn brief(res: &Resolution, style: &Style, input: &str) -> String {
    let command = match input.find(" rolled") {
        Some(i) => &input[..i],
        None => input,
    };
    let mut out = format!("{}:", command.trim());
    if !res.dice.is_empty() {
        let faces: Vec<String> = res.dice.iter().map(|d| d.face.to_string()).collect();
        // Dice that are added up read as a sum, a pool as the faces thrown.
        if res.score.is_some() {
            out.push_str(&format!(" {}", faces.join("+")));
        } else {
            out.push_str(&format!(" [{}]", faces.join(" ")));
        }
    }
    for m in &res.modifiers {
        out.push_str(&format!(" {:+} {}", m.value, m.label));
    }
    if let Some(score) = res.score {
        out.push_str(&format!(" = {score}"));
    }
    out.push_str(&format!(" → {}", res.outcome_text));
    let out = style.finish(out);
    if style.color {
        paint(&out, res.tone)
    } else {
        out
    }
}

fn paint(line: &str, tone: Tone) -> String {
    match tone {
        Tone::Good => line.green().bold().to_string(),
        Tone::Bad => line.red().bold().to_string(),
        Tone::Neutral => line.yellow().bold().to_string(),
    }
}

/// The outcome on its own line, finished, then coloured.
fn outcome_line(res: &Resolution, style: &Style) -> String {
    let line = style.finish(format!("⇒ {}", res.outcome_text));
    if !style.color {
        return line;
    }
    paint(&line, res.tone)
}

/// One resolution as a JSON object, written straight into `out` (the
/// batch hot path: no intermediate tree).
pub fn write_json(res: &Resolution, source: Source, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"type\":\"resolution\",\"version\":");
    json_int(out, i64::from(FORMAT_VERSION));
    out.extend_from_slice(b",\"line\":");
    json_int(out, i64::try_from(source.line).unwrap_or(i64::MAX));
    out.extend_from_slice(b",\"input\":");
    json_str(out, source.input);
    out.extend_from_slice(b",\"verb\":");
    json_str(out, res.verb);
    out.extend_from_slice(b",\"rules\":");
    json_str(out, res.rules.id());
    if let Some(seed) = res.seed {
        out.extend_from_slice(b",\"seed\":");
        // Seeds are unsigned 64-bit, all the way out.
        let mut buf = itoa::Buffer::new();
        out.extend_from_slice(buf.format(seed).as_bytes());
    }
    out.extend_from_slice(b",\"dice\":[");
    for (i, d) in res.dice.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json_int(out, i64::from(d.face));
    }
    out.extend_from_slice(b"],\"entered\":[");
    for (i, d) in res.dice.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(if d.entered { b"true" } else { b"false" });
    }
    out.extend_from_slice(b"],\"modifiers\":[");
    for (i, m) in res.modifiers.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"label\":");
        json_str(out, &m.label);
        out.extend_from_slice(b",\"value\":");
        json_int(out, m.value);
        out.push(b'}');
    }
    out.push(b']');
    if let Some(score) = res.score {
        out.extend_from_slice(b",\"score\":");
        json_int(out, score);
    }
    out.extend_from_slice(b",\"outcome\":");
    json_str(out, &res.outcome);
    out.extend_from_slice(b",\"outcome_text\":");
    json_str(out, &res.outcome_text);
    for (k, v) in res.fields.iter() {
        out.push(b',');
        json_str(out, k);
        out.push(b':');
        // Writing a Value into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, v);
    }
    if !res.notes.is_empty() {
        out.extend_from_slice(b",\"notes\":[");
        for (i, n) in res.notes.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json_str(out, n);
        }
        out.push(b']');
    }
    out.push(b'}');
}

fn json_int(out: &mut Vec<u8>, n: i64) {
    let mut buf = itoa::Buffer::new();
    out.extend_from_slice(buf.format(n).as_bytes());
}

/// A JSON string with the escapes RFC 8259 requires.
fn json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    if !bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\') {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: Option<&[u8]> = match b {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            0..=0x1f => None,
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        match escape {
            Some(e) => out.extend_from_slice(e),
            None => out.extend_from_slice(format!("\\u{b:04x}").as_bytes()),
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The same object as a `Value`, for callers that want a tree.
pub fn json(res: &Resolution, source: Source) -> Value {
    let mut out = Vec::new();
    write_json(res, source, &mut out);
    serde_json::from_slice(&out).unwrap_or(Value::Null)
}

/// An error as a JSON object: the envelope, `error` and, when the error
/// has a place on the line, its `column` (in characters, from 1).
pub fn json_error(message: &str, source: Source, column: Option<usize>) -> Value {
    let mut obj = envelope("error", source);
    obj.insert("error".into(), json!(message));
    if let Some(c) = column {
        obj.insert("column".into(), json!(c));
    }
    Value::Object(obj)
}

/// The width of a 100% bar in the odds chart.
const BAR_WIDTH: f64 = 30.0;

pub fn odds_text(odds: &Odds, style: &Style) -> String {
    let mut out = format!("odds: {} · {}\n", odds.heading, odds.rules.title());
    let mut table = style.table(false);
    let block = if style.ascii { "#" } else { "█" };
    for o in &odds.outcomes {
        let bar = block.repeat((o.prob.p * BAR_WIDTH).round() as usize);
        table.add_row(vec![
            Cell::new(style.cell(&o.text)),
            Cell::new(format!("{:.2}%", o.prob.p * 100.0)).set_alignment(CellAlignment::Right),
            Cell::new(short_fraction(o).unwrap_or_default()).set_alignment(CellAlignment::Right),
            Cell::new(bar),
        ]);
    }
    let chart = table.to_string();
    let lines: Vec<&str> = chart.lines().map(str::trim_end).collect();
    out.push_str(&lines.join("\n"));
    for (name, value) in &odds.expected {
        out.push_str(&format!("\n{}: {value:.3}", name.replace('_', " ")));
    }
    let out = style.finish(out);
    if !style.color {
        return out;
    }
    // The bars are coloured once the text is finished (and made visible):
    // each is the run of blocks that ends its row.
    let bars: Vec<String> = out
        .split('\n')
        .map(|line| {
            let plain = line.trim_end_matches(block);
            let bar = &line[plain.len()..];
            if bar.is_empty() {
                line.to_string()
            } else {
                format!("{plain}{}", bar.cyan())
            }
        })
        .collect();
    bars.join("\n")
}

/// Fractions are shown in text when they are short enough to read.
fn short_fraction(o: &OutcomeOdds) -> Option<String> {
    o.prob.fraction().filter(|f| f.len() <= 15)
}

pub fn odds_json(odds: &Odds, source: Source) -> Value {
    enveloped("odds", source, distribution_json(odds))
}

/// The distribution itself: each outcome with its probability, then the
/// expected values.
fn distribution_json(odds: &Odds) -> Value {
    let mut obj = Map::new();
    obj.insert("verb".into(), json!(odds.verb));
    obj.insert("rules".into(), json!(odds.rules.id()));
    obj.insert(
        "outcomes".into(),
        Value::Array(
            odds.outcomes
                .iter()
                .map(|o| {
                    json!({
                        "id": o.outcome,
                        "outcome": o.kind,
                        "text": o.text,
                        "p": o.prob.p,
                        "fraction": o.prob.fraction(),
                        "effects": o.effects().map(|(k, v)| (k.to_string(), json!(v))).collect::<Map<String, Value>>(),
                    })
                })
                .collect(),
        ),
    );
    for (name, value) in &odds.expected {
        obj.insert(name.clone(), json!(value));
    }
    Value::Object(obj)
}

fn percent(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

fn trimmed(table: &Table) -> String {
    table
        .to_string()
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every outcome of either distribution, in the order first seen.
fn union<'a>(a: &'a Odds, b: &'a Odds) -> Vec<&'a OutcomeOdds> {
    let mut all: Vec<&OutcomeOdds> = a.outcomes.iter().collect();
    for o in &b.outcomes {
        if !all.iter().any(|x| x.text == o.text) {
            all.push(o);
        }
    }
    all
}

fn p_of(odds: &Odds, text: &str) -> f64 {
    odds.outcomes
        .iter()
        .find(|o| o.text == text)
        .map_or(0.0, |o| o.prob.p)
}

pub fn comparison_text(c: &crate::session::explore::Comparison, style: &Style) -> String {
    let mut out = format!("odds: {} · compare {}\n", c.without.heading, c.words);
    let mut table = style.table(false);
    table.add_row(vec!["outcome", "without", "with", "change"]);
    for o in union(&c.without, &c.with) {
        let (a, b) = (p_of(&c.without, &o.text), p_of(&c.with, &o.text));
        table.add_row(vec![
            Cell::new(style.cell(&o.text)),
            Cell::new(percent(a)).set_alignment(CellAlignment::Right),
            Cell::new(percent(b)).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:+.2} pts", (b - a) * 100.0)).set_alignment(CellAlignment::Right),
        ]);
    }
    out.push_str(&trimmed(&table));
    for (name, without) in &c.without.expected {
        if let Some((_, with)) = c.with.expected.iter().find(|(n, _)| n == name) {
            out.push_str(&format!(
                "\n{}: {without:.3} → {with:.3}",
                name.replace('_', " ")
            ));
        }
    }
    style.finish(out)
}

pub fn comparison_json(c: &crate::session::explore::Comparison, source: Source) -> Value {
    enveloped(
        "comparison",
        source,
        json!({
            "verb": c.without.verb,
            "rules": c.without.rules.id(),
            "compare": c.words,
            "without": distribution_json(&c.without),
            "with": distribution_json(&c.with),
        }),
    )
}

pub fn simulation_text(s: &crate::session::explore::Simulation, style: &Style) -> String {
    let mut out = format!(
        "simulate {} rolls: {} · seeds {}–{}\n",
        s.rolls,
        s.heading,
        s.seed,
        s.seed.wrapping_add(s.rolls - 1)
    );
    let mut table = style.table(false);
    match &s.exact {
        Ok(_) => table.add_row(vec!["outcome", "observed", "exact", "difference"]),
        Err(_) => table.add_row(vec!["outcome", "observed"]),
    };
    for o in &s.observed {
        let observed = o.count as f64 / s.rolls as f64;
        let mut cells = vec![
            Cell::new(style.cell(&o.text)),
            Cell::new(percent(observed)).set_alignment(CellAlignment::Right),
        ];
        if let Ok(odds) = &s.exact {
            let exact = p_of(odds, &o.text);
            cells.push(Cell::new(percent(exact)).set_alignment(CellAlignment::Right));
            cells.push(
                Cell::new(format!("{:+.2} pts", (observed - exact) * 100.0))
                    .set_alignment(CellAlignment::Right),
            );
        }
        table.add_row(cells);
    }
    out.push_str(&trimmed(&table));
    if let Err(why) = &s.exact {
        out.push_str(&format!("\nno exact odds beside them: {why}"));
    }
    style.finish(out)
}

pub fn simulation_json(s: &crate::session::explore::Simulation, source: Source) -> Value {
    let exact = s.exact.as_ref().ok();
    enveloped(
        "simulation",
        source,
        json!({
            "verb": s.verb,
            "rules": s.rules.id(),
            "simulate": s.rolls,
            "seed": s.seed,
            "outcomes": s.observed.iter().map(|o| json!({
                "outcome": exact.map_or(Some(o.outcome.as_str()), |odds| {
                    odds.outcomes.iter().find(|x| x.text == o.text).map(|x| x.outcome.as_str())
                }),
                "text": o.text,
                "observed": o.count,
                "p_observed": o.count as f64 / s.rolls as f64,
                "p": exact.map(|odds| p_of(odds, &o.text)),
            })).collect::<Vec<_>>(),
        }),
    )
}

/// A sweep as a table: a row per combination, a column per swept word,
/// then each outcome's probability, then each expected value.
pub fn sweep_text(sweep: &crate::sweep::Sweep, style: &Style) -> String {
    let Some(first) = sweep.rows.first() else {
        return style.finish("odds: the sweep has no combinations".into());
    };
    let words: Vec<&str> = sweep.swept.iter().map(|s| s.text.as_str()).collect();
    let mut out = format!(
        "odds: {} · sweeping {} · {}\n",
        first.odds.verb,
        words.join(" × "),
        first.odds.rules.title()
    );
    let outcomes = sweep.outcomes();
    let expected = sweep.expected();
    let mut table = style.table(true);
    let mut header: Vec<Cell> = sweep
        .swept
        .iter()
        .map(|s| Cell::new(style.cell(&s.name)))
        .collect();
    header.extend(outcomes.iter().map(|(_, t)| Cell::new(style.cell(t))));
    header.extend(
        expected
            .iter()
            .map(|n| Cell::new(style.cell(&n.replace('_', " ")))),
    );
    table.set_header(header);
    for row in &sweep.rows {
        let mut cells: Vec<Cell> = sweep
            .shown(row)
            .into_iter()
            .map(|v| Cell::new(style.cell(v)))
            .collect();
        cells.extend(outcomes.iter().map(|(_, t)| {
            Cell::new(percent(crate::sweep::p_of(&row.odds, t))).set_alignment(CellAlignment::Right)
        }));
        cells.extend(expected.iter().map(|n| {
            let v = crate::sweep::expected_of(&row.odds, n)
                .map_or_else(|| "—".to_string(), |v| format!("{v:.3}"));
            Cell::new(style.cell(&v)).set_alignment(CellAlignment::Right)
        }));
        table.add_row(cells);
    }
    out.push_str(&trimmed(&table));
    style.finish(out)
}

/// A sweep as one JSON object: the swept words and their values, then a
/// row per combination with its whole distribution.
pub fn sweep_json(sweep: &crate::sweep::Sweep, source: Source) -> Value {
    let first = sweep.rows.first();
    let swept: Vec<Value> = sweep
        .swept
        .iter()
        .map(|s| {
            json!({
                "word": s.text,
                "name": s.name,
                "values": s.choices.iter().map(|c| c.shown.as_str()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let rows: Vec<Value> = sweep
        .rows
        .iter()
        .map(|row| {
            let mut obj = Map::new();
            obj.insert("values".into(), json!(sweep.shown(row)));
            obj.insert("heading".into(), json!(row.odds.heading));
            if let Value::Object(d) = distribution_json(&row.odds) {
                for (k, v) in d {
                    if k != "verb" && k != "rules" {
                        obj.insert(k, v);
                    }
                }
            }
            Value::Object(obj)
        })
        .collect();
    enveloped(
        "sweep",
        source,
        json!({
            "verb": first.map(|r| r.odds.verb),
            "rules": first.map(|r| r.odds.rules.id()),
            "swept": swept,
            "outcomes": sweep.outcomes().iter().map(|(id, text)| json!({"outcome": id, "text": text})).collect::<Vec<_>>(),
            "expected": sweep.expected(),
            "rows": rows,
        }),
    )
}

/// A report as the table shows it.
pub fn report_text(report: &Report, style: &Style) -> String {
    style.finish(report_lines(report, style))
}

fn report_lines(report: &Report, style: &Style) -> String {
    match report {
        Report::Help { text } | Report::Setting { text } | Report::Loaded { text } => text.clone(),
        Report::Roster { turn, armies } => {
            let mut out = format!("turn {turn}");
            if armies.is_empty() {
                out.push_str("\nno armies loaded (give --army FILE)");
            }
            for army in armies {
                out.push_str(&format!(
                    "\n\n{} — {} ({})\n",
                    army.name, army.side, army.rules_title
                ));
                if army.columns.is_empty() {
                    continue;
                }
                let mut t = style.table(true);
                t.set_header(army.columns.clone());
                for row in &army.units {
                    t.add_row(
                        row.iter()
                            .map(|c| Cell::new(style.cell(c)))
                            .collect::<Vec<_>>(),
                    );
                }
                out.push_str(&t.to_string());
                for note in &army.notes {
                    out.push('\n');
                    out.push_str(note);
                }
            }
            out
        }
        Report::Unit {
            id,
            name,
            army,
            rows,
        } => {
            let mut t = style.table(true);
            t.add_row(vec![Cell::new("army"), Cell::new(style.cell(army))]);
            for row in rows {
                t.add_row(vec![
                    Cell::new(style.cell(&row.label)),
                    Cell::new(style.cell(&row.value)),
                ]);
            }
            format!("{id} — {name}\n{t}")
        }
        Report::Log { entries } => {
            let mut out = String::new();
            for e in entries {
                let mark = if e.undone { "×" } else { " " };
                let what = match (&e.line, e.undo) {
                    (_, Some(n)) => format!("undo entry {n}"),
                    (Some(line), _) => line.clone(),
                    _ => String::new(),
                };
                let outcome = e
                    .outcome
                    .as_deref()
                    .map_or(String::new(), |o| format!(" ⇒ {o}"));
                out.push_str(&format!(
                    "{mark}{:>4}  turn {}  {what}{outcome}\n",
                    e.entry, e.turn
                ));
            }
            if out.is_empty() {
                out.push_str("the journal is empty");
            }
            out.trim_end().to_string()
        }
        Report::EndTurn { systems, .. } => {
            if systems.is_empty() {
                "end of turn: no armies loaded".into()
            } else {
                systems.join("\n")
            }
        }
        Report::NextTurn { turn, notes } => {
            let mut out = format!("turn {turn}");
            for text in notes {
                out.push_str(": ");
                out.push_str(text);
            }
            out
        }
        Report::Undo { undone } => match undone {
            Some(taken) => format!("undone: {taken}"),
            None => "nothing to undo".into(),
        },
        Report::Saved { path } => format!("saved to {path}"),
    }
}

/// Where an answer came from: the input line's number (from 1) and text.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub line: usize,
    pub input: &'a str,
}

/// Every JSON object begins with its type, the format version and the
/// line it answers; the rest follows in the order documented.
fn envelope(kind: &str, source: Source) -> Map<String, Value> {
    let mut obj = Map::new();
    obj.insert("type".into(), json!(kind));
    obj.insert("version".into(), json!(FORMAT_VERSION));
    obj.insert("line".into(), json!(source.line));
    obj.insert("input".into(), json!(source.input));
    obj
}

/// `fields` after the envelope, in their own order.
fn enveloped(kind: &str, source: Source, fields: Value) -> Value {
    let mut obj = envelope(kind, source);
    if let Value::Object(fields) = fields {
        for (k, v) in fields {
            if k != "type" {
                obj.insert(k, v);
            }
        }
    }
    Value::Object(obj)
}

/// A report as a JSON object.
pub fn report_json(report: &Report, source: Source) -> Value {
    let fields = serde_json::to_value(report).unwrap_or(Value::Null);
    enveloped(report.kind(), source, fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    /// The direct writer gives a pipe the very bytes of the laid-out
    /// table, and leaves to the layout what it would not draw alike.
    #[test]
    fn the_direct_stack_table_is_the_laid_out_one() {
        let plain = Style::plain(false);
        let drawn = rows(&[
            ("2D6 die 1 (entered)", "4"),
            ("Received any hits this turn", "−1"),
            ("Resilience Outcomes Table, 8–9", "shooting · long"),
            ("é", "≥ 5"),
        ]);
        let direct = whole_two_columns(&drawn).expect("drawn directly");
        let mut table = plain.table(true);
        for (label, value) in &drawn {
            table.add_row(vec![
                Cell::new(label),
                Cell::new(value).set_alignment(CellAlignment::Right),
            ]);
        }
        assert_eq!(direct, table.to_string());
        assert_eq!(direct.lines().count(), 6);
        for odd in [
            rows(&[("a", "")]),
            rows(&[("two\nlines", "1")]),
            rows(&[(" indented", "1")]),
            rows(&[("wide 兵", "1")]),
        ] {
            assert_eq!(whole_two_columns(&odd), None, "{odd:?}");
            assert!(!stack_table(&odd, &plain).is_empty());
        }
    }
}
