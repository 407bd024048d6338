//! `--format csv` and `--format tsv`: the answers of `odds`, `compare`,
//! `simulate` and sweeps as tables a spreadsheet opens.
//!
//! Each answer is one table with a header row. Probabilities and
//! expectations are decimals to 12 significant digits, which no float's
//! noise reaches: a certainty reads 1, not 0.9999999999999998 (the exact
//! fractions are in `--format json`: a spreadsheet would read `1/4` as a
//! date). A cell of a number that is 0 reads 0, never empty. `odds`, `compare` and
//! `simulate` have a row per outcome (`kind` = `outcome`); where the
//! outcomes are the values of a count or a total (hits, successes, a 2d6
//! total), `value` holds that value and `at_least` the chance of at least
//! it. Expected values follow as rows of `kind` = `expected`, in the same
//! columns, so the table stays one rectangle a filter can split. A sweep
//! is one row per combination: the swept words, each outcome's
//! probability, each expected value; one too large for that table
//! (`format::stream`) is the `odds` table of each combination after the
//! swept words' values, written as each is counted.

use crate::answer::{Answer, Comparison, Count, Kind, Odds, Simulation, Sweep, expected_of};

/// A spreadsheet's table of an `odds` or `simulate` answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Delimited(pub Delimiter);

impl super::Format for Delimited {
    fn accepts(&self, kind: Kind, line: &str) -> Result<(), String> {
        match kind {
            Kind::Odds | Kind::Simulation => Ok(()),
            _ => Err(format!(
                "--format {} writes the answers of `odds` (with `compare` or a sweep too) and `simulate` only; `{}` is neither: put `odds` before it, or give it with --format text or json",
                self.0.name(),
                line.trim()
            )),
        }
    }

    fn write(
        &self,
        answer: &Answer,
        _source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let d = self.0;
        let table = match answer {
            Answer::Odds(odds) => odds_table(odds, d),
            Answer::Comparison(c) => comparison(c, d),
            Answer::Simulation(s) => simulation(s, d),
            Answer::Sweep(s) => sweep(s, d),
            _ => {
                return Err(super::not_written(
                    &format!("--format {}", d.name()),
                    answer,
                ));
            }
        };
        writeln!(out, "{table}")
    }

    fn long(&self) -> Option<Box<dyn super::stream::Long>> {
        Some(Box::new(LongSheet(self.0)))
    }
}

/// Comma- or tab-separated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Delimiter {
    Comma,
    Tab,
}

impl Delimiter {
    /// The format's name, as `--format` takes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Delimiter::Comma => "csv",
            Delimiter::Tab => "tsv",
        }
    }

    fn byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Tab => b'\t',
        }
    }
}

/// Cells, one record a row, quoted where the format needs it.
struct Sheet {
    writer: csv::Writer<Vec<u8>>,
}

impl Sheet {
    fn new(delimiter: Delimiter) -> Sheet {
        Sheet {
            writer: csv::WriterBuilder::new()
                .delimiter(delimiter.byte())
                .terminator(csv::Terminator::Any(b'\n'))
                // Records of one table have one length; a ragged one is a bug
                // the writer should refuse, not write.
                .flexible(false)
                .from_writer(Vec::new()),
        }
    }

    fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<[u8]>,
    {
        // A cell quoting a table or a line is shown, never obeyed, like
        // every text drumhead writes (`crate::text::visible`).
        let cells = cells.into_iter().map(|c| {
            let text = String::from_utf8_lossy(c.as_ref());
            crate::text::visible(&text).into_owned()
        });
        // Writing into a Vec fails only on a ragged record, which the
        // tables below never make.
        let _ = self.writer.write_record(cells);
    }

    fn finish(self) -> String {
        let bytes = self.writer.into_inner().unwrap_or_default();
        let text = String::from_utf8(bytes).unwrap_or_default();
        text.trim_end_matches('\n').to_string()
    }
}

/// The significant digits a number is written with: the floats it was
/// added up in are off in the 16th or 17th.
const DIGITS: usize = 12;

/// A probability or an expectation to [`DIGITS`] significant digits, in
/// the shortest decimal that says them: `1`, `0.5`, `0.333333333333`.
fn number(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let rounded: f64 = format!("{x:.prec$e}", prec = DIGITS - 1)
        .parse()
        .unwrap_or(x);
    if rounded == rounded.trunc() && rounded.abs() < 1e15 {
        // Also -0, which reads as 0.
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

/// A probability as a decimal: from its exact fraction while it has one
/// (one rounding, not a sum's worth), else the float it was added up in.
fn prob(p: crate::answer::Prob) -> String {
    match p.exact() {
        Some((n, d)) if d > 0 => number(n as f64 / d as f64),
        _ => number(p.p),
    }
}

fn count_cells(odds: &Odds, count: Option<&Count>) -> Vec<(String, String)> {
    match count {
        Some(c) => {
            let at_least = odds.at_least(c);
            c.values
                .iter()
                .zip(at_least)
                .map(|(v, p)| (number(*v), prob(p)))
                .collect()
        }
        None => vec![(String::new(), String::new()); odds.outcomes.len()],
    }
}

/// The columns of an `odds` table.
const ODDS_COLUMNS: [&str; 7] = [
    "kind",
    "id",
    "outcome",
    "text",
    "value",
    "probability",
    "at_least",
];

/// The rows of an `odds` table: each outcome, then each expected value.
fn odds_rows(odds: &Odds) -> Vec<[String; 7]> {
    let count = odds.count();
    let mut rows = Vec::with_capacity(odds.outcomes.len() + odds.expected.len());
    for (o, (value, at_least)) in odds.outcomes.iter().zip(count_cells(odds, count.as_ref())) {
        rows.push([
            "outcome".into(),
            o.outcome.clone(),
            o.kind.clone(),
            o.text.clone(),
            value,
            prob(o.prob),
            at_least,
        ]);
    }
    for (name, value) in &odds.expected {
        rows.push([
            "expected".into(),
            name.clone(),
            String::new(),
            name.replace('_', " "),
            number(*value),
            String::new(),
            String::new(),
        ]);
    }
    rows
}

pub(crate) fn odds_table(odds: &Odds, delimiter: Delimiter) -> String {
    let mut sheet = Sheet::new(delimiter);
    sheet.row(ODDS_COLUMNS);
    for row in odds_rows(odds) {
        sheet.row(row);
    }
    sheet.finish()
}

/// A sweep too large for a column per outcome: the `odds` table of each
/// combination, each row after the swept words' values, one table.
struct LongSheet(Delimiter);

impl crate::format::stream::Long for LongSheet {
    fn begin(
        &mut self,
        swept: &[crate::answer::Swept],
        _first: &crate::answer::sweep::Row,
        _source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let mut sheet = Sheet::new(self.0);
        sheet.row(swept.iter().map(|s| s.name.as_str()).chain(ODDS_COLUMNS));
        writeln!(out, "{}", sheet.finish())
    }

    fn row(
        &mut self,
        swept: &[crate::answer::Swept],
        row: &crate::answer::sweep::Row,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let values: Vec<&str> = swept
            .iter()
            .zip(&row.picks)
            .map(|(s, &i)| s.choices.get(i).map_or("", |c| c.shown.as_str()))
            .collect();
        let mut sheet = Sheet::new(self.0);
        for cells in odds_rows(&row.odds) {
            sheet.row(
                values
                    .iter()
                    .map(|v| v.as_bytes())
                    .chain(cells.iter().map(|c| c.as_bytes())),
            );
        }
        writeln!(out, "{}", sheet.finish())
    }

    fn end(&mut self, _out: &mut dyn std::io::Write) -> std::io::Result<()> {
        Ok(())
    }
}

pub(crate) fn comparison(c: &Comparison, delimiter: Delimiter) -> String {
    let mut sheet = Sheet::new(delimiter);
    sheet.row([
        "kind",
        "outcome",
        "text",
        "value",
        "without",
        "with",
        "without_at_least",
        "with_at_least",
    ]);
    // One count for both sides, if they agree on it, so `value` means one
    // thing in the whole table.
    let both = c.without.count().zip(c.with.count());
    let same = both.as_ref().is_some_and(|(a, b)| a.measure == b.measure);
    let outcomes = {
        let mut all: Vec<&crate::odds::OutcomeOdds> = c.without.outcomes.iter().collect();
        for o in &c.with.outcomes {
            if !all.iter().any(|x| x.text == o.text) {
                all.push(o);
            }
        }
        all
    };
    for o in outcomes {
        let mut cells = vec![
            "outcome".to_string(),
            o.outcome.clone(),
            o.text.clone(),
            String::new(),
            p_text(&c.without, &o.text),
            p_text(&c.with, &o.text),
            String::new(),
            String::new(),
        ];
        if let (true, Some((a, b))) = (same, &both) {
            let value = value_of(&c.without, a, &o.text).or_else(|| value_of(&c.with, b, &o.text));
            if let Some(v) = value {
                cells[3] = number(v);
                cells[6] = at_least_value(&c.without, a, v);
                cells[7] = at_least_value(&c.with, b, v);
            }
        }
        sheet.row(cells);
    }
    for (name, without) in &c.without.expected {
        let with = expected_of(&c.with, name).map_or_else(|| "0".into(), number);
        sheet.row([
            "expected",
            name,
            &name.replace('_', " "),
            "",
            &number(*without),
            &with,
            "",
            "",
        ]);
    }
    sheet.finish()
}

/// The count's value of the outcome with this text.
fn value_of(odds: &Odds, count: &Count, text: &str) -> Option<f64> {
    let i = odds.outcomes.iter().position(|o| o.text == text)?;
    count.values.get(i).copied()
}

/// P(X ≥ v) in one distribution, as a decimal.
fn at_least_value(odds: &Odds, count: &Count, v: f64) -> String {
    let sum = odds
        .outcomes
        .iter()
        .zip(&count.values)
        .filter(|&(_, &w)| w >= v)
        .map(|(o, _)| o.prob)
        .reduce(crate::answer::Prob::plus);
    sum.map_or_else(|| "0".to_string(), prob)
}

/// The probability of an outcome (by text) as a decimal; 0 where it
/// cannot happen.
fn p_text(odds: &Odds, text: &str) -> String {
    odds.outcomes
        .iter()
        .find(|o| o.text == text)
        .map_or_else(|| "0".to_string(), |o| prob(o.prob))
}

pub(crate) fn simulation(s: &Simulation, delimiter: Delimiter) -> String {
    let mut sheet = Sheet::new(delimiter);
    sheet.row([
        "kind",
        "outcome",
        "text",
        "value",
        "observed",
        "p_observed",
        "probability",
        "at_least",
    ]);
    let exact = s.exact.as_ref().ok();
    let count = exact.and_then(Odds::count);
    for o in &s.observed {
        let text = o.text.as_str();
        // Without exact odds the outcome's own id, and no probability.
        let id = match exact {
            Some(odds) => odds
                .outcomes
                .iter()
                .find(|x| x.text == text)
                .map_or("", |x| x.outcome.as_str()),
            None => o.outcome.as_str(),
        };
        let (value, at_least) = exact
            .zip(count.as_ref())
            .and_then(|(odds, c)| {
                let v = value_of(odds, c, text)?;
                Some((number(v), at_least_value(odds, c, v)))
            })
            .unwrap_or_default();
        let p_observed = if s.rolls == 0 {
            0.0
        } else {
            o.count as f64 / s.rolls as f64
        };
        sheet.row([
            "outcome",
            id,
            text,
            &value,
            &o.count.to_string(),
            &number(p_observed),
            &exact.map_or_else(String::new, |odds| p_text(odds, text)),
            &at_least,
        ]);
    }
    sheet.finish()
}

pub(crate) fn sweep(sweep: &Sweep, delimiter: Delimiter) -> String {
    let mut sheet = Sheet::new(delimiter);
    let outcomes = sweep.outcomes();
    let expected = sweep.expected();
    let header: Vec<String> = sweep
        .swept
        .iter()
        .map(|s| s.name.clone())
        .chain(outcomes.iter().map(|(_, t)| t.to_string()))
        .chain(expected.iter().map(|n| n.to_string()))
        .collect();
    sheet.row(header);
    for row in &sweep.rows {
        let cells: Vec<String> = sweep
            .shown(row)
            .into_iter()
            .map(str::to_string)
            .chain(outcomes.iter().map(|(_, t)| p_text(&row.odds, t)))
            .chain(
                expected
                    .iter()
                    .map(|n| expected_of(&row.odds, n).map_or_else(|| "0".into(), number)),
            )
            .collect();
        sheet.row(cells);
    }
    sheet.finish()
}
