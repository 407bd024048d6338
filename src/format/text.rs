//! Answers as text for a person: the modifier stack as a table (laid out
//! by comfy-table to a terminal's width, or written directly for a pipe),
//! the outcome on its own line, odds as bars.

use comfy_table::{Cell, CellAlignment, Table};
use owo_colors::OwoColorize;

use super::Style;
use crate::answer::{
    Answer, Comparison, Odds, OutcomeOdds, Report, Resolution, Simulation, Sweep, Tone,
};

/// Text for a person, in a style: colour, width, ASCII.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Text {
    pub(crate) style: Style,
}

impl super::Format for Text {
    fn accepts(&self, kind: crate::answer::Kind, _line: &str) -> Result<(), String> {
        super::line_answers(kind, "text")
    }

    fn write(
        &self,
        answer: &Answer,
        _source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let style = &self.style;
        let text = match answer {
            Answer::Resolution(res) => text(res, style),
            Answer::Odds(odds) => odds_text(odds, style),
            Answer::Comparison(c) => comparison_text(c, style),
            Answer::Simulation(s) => simulation_text(s, style),
            Answer::Sweep(s) => sweep_text(s, style),
            Answer::Report(r) => report_text(r, style),
            Answer::Sheet(_) | Answer::Cards(_) => return Err(super::not_written("text", answer)),
        };
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")
    }

    fn long(&self) -> Option<Box<dyn super::stream::Long>> {
        Some(Box::new(LongText { style: self.style }))
    }
}

/// A sweep too large for one table: each combination's values on a line,
/// then its distribution as `odds` shows one.
struct LongText {
    style: Style,
}

impl super::stream::Long for LongText {
    fn begin(
        &mut self,
        swept: &[crate::answer::Swept],
        first: &crate::answer::sweep::Row,
        _source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let words: Vec<&str> = swept.iter().map(|s| s.text.as_str()).collect();
        let top = format!(
            "odds: {} · sweeping {} · {}\n(too many outcomes for a column each: the distribution of each combination, as it is counted)",
            first.odds.verb,
            words.join(" × "),
            first.odds.rules.title()
        );
        writeln!(out, "{}", self.style.finish(top))
    }

    fn row(
        &mut self,
        swept: &[crate::answer::Swept],
        row: &crate::answer::sweep::Row,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let values: Vec<String> = swept
            .iter()
            .zip(&row.picks)
            .map(|(s, &i)| {
                let shown = s.choices.get(i).map_or("", |c| c.shown.as_str());
                format!("{} {shown}", s.name)
            })
            .collect();
        let title = self.style.finish(values.join(" · "));
        writeln!(out, "\n{title}\n{}", odds_text(&row.odds, &self.style))
    }

    fn end(&mut self, _out: &mut dyn std::io::Write) -> std::io::Result<()> {
        Ok(())
    }
}

/// The modifier stack as a boxed table (label left, value right), laid
/// out by comfy-table.
fn laid_out_stack_table(rows: &[(String, String)], style: &Style) -> String {
    let mut table = style.table(true);
    for (label, value) in rows {
        table.add_row(vec![
            Cell::new(style.cell(label)),
            Cell::new(style.cell(value)).set_alignment(CellAlignment::Right),
        ]);
    }
    table.to_string()
}

/// The stack table written directly, when the style lets it be: a pipe
/// gets the table whole, and laying it out was most of a batch's time, so
/// the same bytes are written straight into one string. Every debug build (so every test) checks it against the laid-out table.
fn direct_stack_table(rows: &[(String, String)], style: &Style) -> Option<String> {
    if style.width.is_some() || style.ascii {
        return None;
    }
    let direct = whole_two_columns(rows)?;
    debug_assert_eq!(
        direct,
        laid_out_stack_table(rows, style),
        "the direct stack table"
    );
    Some(direct)
}

/// The characters a cell takes (one column each) if it can be drawn
/// as it is: one line, no control character, no character wider or
/// narrower than a column, no space at either end (what the table layout
/// would otherwise reflow or trim). `None` otherwise.
fn plain_columns(s: &str) -> Option<usize> {
    // Most cells are ASCII, where printable means one column and the only
    // printable space is ' '.
    if s.is_ascii() {
        let bytes = s.as_bytes();
        let drawn = bytes.iter().all(|b| (0x20..0x7F).contains(b))
            && bytes.first().is_some_and(|&b| b != b' ')
            && bytes.last().is_some_and(|&b| b != b' ');
        return drawn.then_some(s.len());
    }
    if s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace) {
        return None;
    }
    let mut count = 0;
    for c in s.chars() {
        if crate::text::is_control(c) || unicode_width::UnicodeWidthChar::width(c) != Some(1) {
            return None;
        }
        count += 1;
    }
    Some(count)
}

/// A two-column table drawn whole in the UTF-8 condensed style, when every
/// cell is [plain](plain_columns), written straight into one string.
fn whole_two_columns(rows: &[(String, String)]) -> Option<String> {
    let mut columns = Vec::with_capacity(rows.len());
    let mut widths = [0usize; 2];
    for (label, value) in rows {
        let counts = (plain_columns(label)?, plain_columns(value)?);
        widths[0] = widths[0].max(counts.0);
        widths[1] = widths[1].max(counts.1);
        columns.push(counts);
    }
    // Box-drawing characters are three bytes each.
    let line_bytes = 3 * (widths[0] + widths[1] + 7);
    let mut out = String::with_capacity(line_bytes * (rows.len() + 2));
    let spaces = |out: &mut String, n: usize| repeated(out, SPACES, n);
    let rule = |out: &mut String, left: char, mid: char, right: char| {
        out.push(left);
        repeated(out, RULE, widths[0] + 2);
        out.push(mid);
        repeated(out, RULE, widths[1] + 2);
        out.push(right);
    };
    rule(&mut out, '┌', '┬', '┐');
    for ((label, value), (label_columns, value_columns)) in rows.iter().zip(columns) {
        out.push_str("\n│ ");
        out.push_str(label);
        spaces(&mut out, widths[0] - label_columns);
        out.push_str(" ┆ ");
        spaces(&mut out, widths[1] - value_columns);
        out.push_str(value);
        out.push_str(" │");
    }
    out.push('\n');
    rule(&mut out, '└', '┴', '┘');
    Some(out)
}

/// Runs of one character to copy padding and rules from, a slice at a
/// time rather than a character at a time.
const SPACES: &str = "                                                                ";
const RULE: &str = "────────────────────────────────────────────────────────────────";

/// `n` of the character `run` is made of.
fn repeated(out: &mut String, run: &str, mut n: usize) {
    let width = run.chars().next().map_or(1, char::len_utf8);
    while n > 0 {
        let take = n.min(run.len() / width);
        out.push_str(&run[..take * width]);
        n -= take;
    }
}

pub(crate) fn text(res: &Resolution, style: &Style) -> String {
    // Put together by hand: this is written for every answer of a batch.
    let title = res.rules.title();
    let mut heading = String::with_capacity(res.heading.len() + title.len() + 32);
    heading.push_str(&res.heading);
    heading.push_str(" · ");
    heading.push_str(title);
    if let Some(seed) = res.seed {
        heading.push_str(" · seed ");
        heading.push_str(itoa::Buffer::new().format(seed));
    }
    let mut out = if res.rows.is_empty() {
        style.finish(heading)
    } else {
        let rows = res.row_texts();
        match direct_stack_table(&rows, style) {
            // A table written directly holds no control character: only the
            // heading needs finishing (the table was most of the text).
            Some(table) => {
                let mut out = style.finish(heading);
                out.reserve(table.len() + 128);
                out.push('\n');
                out.push_str(&table);
                out
            }
            None => {
                heading.push('\n');
                heading.push_str(&laid_out_stack_table(&rows, style));
                style.finish(heading)
            }
        }
    };
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

pub(super) fn paint(line: &str, tone: Tone) -> String {
    match tone {
        Tone::Good => line.green().bold().to_string(),
        Tone::Bad => line.red().bold().to_string(),
        Tone::Neutral => line.yellow().bold().to_string(),
    }
}

/// The outcome on its own line, finished, then coloured.
fn outcome_line(res: &Resolution, style: &Style) -> String {
    let mut line = String::with_capacity(res.outcome_text.len() + 4);
    line.push_str("⇒ ");
    line.push_str(&res.outcome_text);
    let line = style.finish(line);
    if !style.color {
        return line;
    }
    paint(&line, res.tone)
}

/// The width of a 100% bar in the odds chart.
const BAR_WIDTH: f64 = 30.0;

pub(crate) fn odds_text(odds: &Odds, style: &Style) -> String {
    let mut out = format!("odds: {} · {}\n", odds.heading, odds.rules.title());
    let mut table = style.table(false);
    let block = if style.ascii { "#" } else { "█" };
    // Where the outcomes are the values of a count (hits, a total), the
    // chance of at least each, as AnyDice shows it; other outcomes have no
    // order to add up along.
    let at_least = odds.count().map(|count| odds.at_least(&count));
    if at_least.is_some() {
        table.set_header(vec!["", "chance", "", "at least", ""]);
    }
    for (i, o) in odds.outcomes.iter().enumerate() {
        let bar = block.repeat((o.prob.p * BAR_WIDTH).round() as usize);
        let mut row = vec![
            Cell::new(style.cell(&o.text)),
            Cell::new(prob_percent(o.prob)).set_alignment(CellAlignment::Right),
            Cell::new(short_fraction(o).unwrap_or_default()).set_alignment(CellAlignment::Right),
        ];
        if let Some(p) = at_least.as_ref().and_then(|a| a.get(i)) {
            row.push(Cell::new(prob_percent(*p)).set_alignment(CellAlignment::Right));
        }
        row.push(Cell::new(bar));
        table.add_row(row);
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

/// The largest denominator a fraction is shown with: four digits (6⁵ =
/// 7776). Beyond it a fraction (390625/1679616) says no more to a reader
/// than its percentage.
const MOST_READABLE_DENOMINATOR: u128 = 9999;

/// The exact fraction, in lowest terms, when it is short enough to read.
pub(super) fn short_fraction(o: &OutcomeOdds) -> Option<String> {
    let (n, d) = o.prob.exact()?;
    (d <= MOST_READABLE_DENOMINATOR).then(|| format!("{n}/{d}"))
}

/// A probability in percent with two decimals. Only what cannot happen
/// reads 0.00% and only what is certain 100.00%: a chance that rounds to
/// either but is neither reads `<0.01%` or `>99.99%`.
pub(super) fn percent(p: f64) -> String {
    // Sums of floats miss 0 and 1 by a few units in the last place.
    const NOISE: f64 = 1e-12;
    if p <= NOISE {
        "0.00%".into()
    } else if p >= 1.0 - NOISE {
        "100.00%".into()
    } else if p < 0.000_05 {
        "<0.01%".into()
    } else if p >= 0.999_95 {
        ">99.99%".into()
    } else {
        format!("{:.2}%", p * 100.0)
    }
}

/// [`percent`] of a probability, told 0 and 1 by its exact fraction
/// while it has one.
pub(super) fn prob_percent(p: crate::answer::Prob) -> String {
    match p.exact() {
        Some((0, _)) => "0.00%".into(),
        Some((n, d)) if n == d => "100.00%".into(),
        Some(_) => percent(p.p.clamp(1e-11, 1.0 - 1e-11)),
        None => percent(p.p),
    }
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

pub(crate) fn comparison_text(c: &Comparison, style: &Style) -> String {
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

pub(crate) fn simulation_text(s: &Simulation, style: &Style) -> String {
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

/// A sweep as a table: a row per combination, a column per swept word,
/// then each outcome's probability, then each expected value.
pub(crate) fn sweep_text(sweep: &Sweep, style: &Style) -> String {
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
            Cell::new(percent(crate::answer::p_of(&row.odds, t)))
                .set_alignment(CellAlignment::Right)
        }));
        cells.extend(expected.iter().map(|n| {
            let v = crate::answer::expected_of(&row.odds, n)
                .map_or_else(|| "—".to_string(), |v| format!("{v:.3}"));
            Cell::new(style.cell(&v)).set_alignment(CellAlignment::Right)
        }));
        table.add_row(cells);
    }
    out.push_str(&trimmed(&table));
    style.finish(out)
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
                out.push_str(&super::roster::roster_table(
                    style,
                    &army.columns,
                    &army.units,
                ));
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
                let mut outcome = e
                    .outcome_named
                    .as_deref()
                    .or(e.outcome.as_deref())
                    .map_or(String::new(), |o| format!(" ⇒ {o}"));
                if let Some(seed) = e.chosen_seed {
                    outcome.push_str(&format!("  (seed {seed}, chosen with --seed)"));
                }
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
            assert!(!laid_out_stack_table(&odd, &plain).is_empty());
        }
    }
}
