//! The printable kit: a quick-reference sheet of one rule book's tables in
//! force, and a roster of the armies of a game, each one self-contained
//! HTML page to print (A4 or Letter).
//!
//! A rule system describes its sheet from its own folder
//! (`RuleSystem::sheet` in the system module): sections of typed tables, in its
//! rule text's order and words. This module names no system's words: it
//! marks the cells a house rule changed ([`Sheet::mark_house`], against the
//! sheet built from the embedded tables) and renders the page. Building
//! them from a registry or a game is the `print` module's.

use crate::error::TableError;
use crate::tables::TableSource;

pub use crate::answer::cards as roster;
pub use crate::answer::sheet::{Cell, Row, Section, Sheet, Table};
pub use crate::format::html::{render_roster, render_sheet};

/// Reading a system's table files for its sheet: each merged over the
/// embedded file, as TOML values, with its label (where it came from).
pub(crate) fn read_toml(
    source: &TableSource,
    file: &crate::tables::TableFile,
) -> Result<(String, toml::Table), TableError> {
    source.parse::<toml::Table>(file)
}

/// Helpers for a system's sheet: values of a TOML table, shown as the rule
/// texts show them.
pub(crate) mod value {
    /// The value at a dotted path (`resilience.dice`).
    pub(crate) fn at<'a>(table: &'a toml::Table, path: &str) -> Option<&'a toml::Value> {
        let mut parts = path.split('.');
        let first = parts.next()?;
        let mut value = table.get(first)?;
        for part in parts {
            value = value.as_table()?.get(part)?;
        }
        Some(value)
    }

    /// The array of tables at a path (none: empty).
    pub(crate) fn rows<'a>(table: &'a toml::Table, path: &str) -> Vec<&'a toml::Table> {
        at(table, path)
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_table()).collect())
            .unwrap_or_default()
    }

    /// A string (or a number shown plainly) at a key; empty when absent.
    pub(crate) fn text(table: &toml::Table, key: &str) -> String {
        match table.get(key) {
            Some(toml::Value::String(s)) => s.clone(),
            Some(toml::Value::Integer(n)) => n.to_string(),
            Some(toml::Value::Float(x)) => x.to_string(),
            Some(toml::Value::Boolean(b)) => b.to_string(),
            Some(toml::Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(", "),
            _ => String::new(),
        }
    }

    /// A string at a dotted path; empty when absent.
    pub(crate) fn text_at(table: &toml::Table, path: &str) -> String {
        match path.rsplit_once('.') {
            Some((parent, key)) => at(table, parent)
                .and_then(|v| v.as_table())
                .map_or(String::new(), |t| text(t, key)),
            None => text(table, path),
        }
    }

    /// A whole number at a key.
    pub(crate) fn int(table: &toml::Table, key: &str) -> Option<i64> {
        table.get(key).and_then(|v| v.as_integer())
    }

    /// A modifier as the tables print it: `+1`, `-2`; blank when absent.
    pub(crate) fn signed(table: &toml::Table, key: &str) -> String {
        int(table, key).map_or(String::new(), |n| {
            if n > 0 {
                format!("+{n}")
            } else {
                n.to_string()
            }
        })
    }
}
