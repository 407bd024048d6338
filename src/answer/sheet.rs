//! A quick-reference sheet of one rule book: sections of typed tables in
//! its rule text's order and words, each cell marked when a house rule
//! changed it. A rule system describes its own; formats write it.

use std::collections::{HashMap, HashSet};

/// A quick-reference sheet of one rule book.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sheet {
    /// The book's title.
    pub title: String,
    /// The publication the sheet is made from, as its own front matter
    /// names it (title, authors or publisher, edition).
    pub(crate) publication: String,
    /// The table files the numbers were read from, for a footnote.
    pub(crate) sources: Vec<String>,
    pub sections: Vec<Section>,
}

/// A heading of the rule text and what it holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Section {
    pub heading: String,
    /// Lines of prose under the heading, before its tables.
    pub notes: Vec<Cell>,
    pub tables: Vec<Table>,
}

/// One table as the rule text prints it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub caption: String,
    /// The rule the table belongs to (a paragraph number, a page), if the
    /// text gives one.
    pub(crate) rule: Option<String>,
    /// Column heads, the first over the row labels. Empty: no head row.
    pub heads: Vec<String>,
    pub rows: Vec<Row>,
    /// Lines under the table.
    pub notes: Vec<Cell>,
}

/// A row: its label in the rule text's words and its cells, one for each
/// head after the first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Row {
    pub label: Cell,
    pub cells: Vec<Cell>,
}

/// One value, and whether a house rule made it differ from the embedded
/// tables.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cell {
    pub text: String,
    pub house: bool,
}

impl Cell {
    pub(crate) fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            house: false,
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::new(text)
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell::new(text)
    }
}

impl Table {
    pub(crate) fn new(caption: impl Into<String>, heads: &[&str]) -> Table {
        Table {
            caption: caption.into(),
            heads: heads.iter().map(|h| h.to_string()).collect(),
            ..Table::default()
        }
    }

    /// The same table, with the rule it belongs to.
    pub(crate) fn rule(mut self, rule: impl Into<String>) -> Table {
        self.rule = Some(rule.into());
        self
    }

    pub(crate) fn row(&mut self, label: impl Into<String>, cells: Vec<String>) {
        self.rows.push(Row {
            label: Cell::new(label),
            cells: cells.into_iter().map(Cell::new).collect(),
        });
    }

    pub(crate) fn note(&mut self, text: impl Into<String>) {
        self.notes.push(Cell::new(text));
    }
}

impl Section {
    pub(crate) fn new(heading: impl Into<String>) -> Section {
        Section {
            heading: heading.into(),
            ..Section::default()
        }
    }

    pub(crate) fn note(&mut self, text: impl Into<String>) {
        self.notes.push(Cell::new(text));
    }
}

impl Sheet {
    /// Every cell, label and note, for tests and counts.
    pub(crate) fn cells(&self) -> impl Iterator<Item = &Cell> {
        self.sections.iter().flat_map(|s| {
            s.notes.iter().chain(s.tables.iter().flat_map(|t| {
                t.rows
                    .iter()
                    .flat_map(|r| std::iter::once(&r.label).chain(r.cells.iter()))
                    .chain(t.notes.iter())
            }))
        })
    }

    /// How many cells a house rule changed.
    pub(crate) fn house_cells(&self) -> usize {
        self.cells().filter(|c| c.house).count()
    }

    /// Mark every cell that differs from the same cell of `embedded`: the
    /// same section, table, row (by label, the nth of that label) and
    /// column. A row or table the embedded sheet lacks is all house.
    pub(crate) fn mark_house(&mut self, embedded: &Sheet) {
        let mut cells: HashMap<String, &str> = HashMap::new();
        let mut labels: HashSet<String> = HashSet::new();
        for (key, row_key, cell) in keyed(embedded) {
            cells.insert(key, cell);
            labels.insert(row_key);
        }
        for_each_keyed(self, |key, row_key, cell, is_label| {
            let changed = if is_label {
                !labels.contains(row_key)
            } else {
                cells.get(key).is_none_or(|old| *old != cell.text)
            };
            cell.house = changed;
        });
    }
}

/// Each cell of a sheet with its key and its row's key.
fn keyed(sheet: &Sheet) -> Vec<(String, String, &str)> {
    let mut out = Vec::new();
    for (si, s) in sheet.sections.iter().enumerate() {
        for (ni, n) in s.notes.iter().enumerate() {
            let key = format!("{}\u{1f}{si}\u{1f}note{ni}", s.heading);
            out.push((key.clone(), key, n.text.as_str()));
        }
        for t in &s.tables {
            let table = format!("{}\u{1f}{}", s.heading, t.caption);
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for r in &t.rows {
                let nth = seen.entry(r.label.text.as_str()).or_default();
                let row_key = format!("{table}\u{1f}{}\u{1f}{nth}", r.label.text);
                *nth += 1;
                out.push((format!("{row_key}\u{1f}label"), row_key.clone(), ""));
                for (ci, c) in r.cells.iter().enumerate() {
                    out.push((format!("{row_key}\u{1f}{ci}"), row_key.clone(), &c.text));
                }
            }
            for (ni, n) in t.notes.iter().enumerate() {
                let key = format!("{table}\u{1f}note{ni}");
                out.push((key.clone(), key, n.text.as_str()));
            }
        }
    }
    out
}

/// The same walk as [`keyed`], over cells to mark: `f(key, row key, cell,
/// is a row label)`. A note is its own row: it is house when its text is
/// not the embedded one.
fn for_each_keyed(sheet: &mut Sheet, mut f: impl FnMut(&str, &str, &mut Cell, bool)) {
    for (si, s) in sheet.sections.iter_mut().enumerate() {
        for (ni, n) in s.notes.iter_mut().enumerate() {
            let key = format!("{}\u{1f}{si}\u{1f}note{ni}", s.heading);
            f(&key, &key, n, false);
        }
        for t in &mut s.tables {
            let table = format!("{}\u{1f}{}", s.heading, t.caption);
            let mut seen: HashMap<String, usize> = HashMap::new();
            for r in &mut t.rows {
                let nth = seen.entry(r.label.text.clone()).or_default();
                let row_key = format!("{table}\u{1f}{}\u{1f}{nth}", r.label.text);
                *nth += 1;
                f(
                    &format!("{row_key}\u{1f}label"),
                    &row_key,
                    &mut r.label,
                    true,
                );
                for (ci, c) in r.cells.iter_mut().enumerate() {
                    f(&format!("{row_key}\u{1f}{ci}"), &row_key, c, false);
                }
            }
            for (ni, n) in t.notes.iter_mut().enumerate() {
                let key = format!("{table}\u{1f}note{ni}");
                f(&key, &key, n, false);
            }
        }
    }
}

/// A modifier as the tables print it: `+1`, `-2`.
pub(crate) fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}
