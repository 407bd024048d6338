//! The rule tables: TOML files embedded at build time, optionally replaced
//! file by file from a house-rules directory (`--tables DIR`).
//!
//! Every file is checked when it loads (unknown keys, wrong types, dice
//! notation, whole-table rules like "every score has exactly one outcome"),
//! so a bad house rule is reported before any command runs.

use std::path::Path;

use serde::de::DeserializeOwned;

use crate::drums::{DrumsTables, PoolTables};
use crate::error::TableError;
use crate::mayhem::MayhemTables;
use crate::saber::SaberRules;
use crate::saber::crt::Crt;

/// The embedded tables, by file name.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("drums.toml", include_str!("../tables/drums.toml")),
    (
        "drums-pools.toml",
        include_str!("../tables/drums-pools.toml"),
    ),
    ("mayhem.toml", include_str!("../tables/mayhem.toml")),
    ("saber.toml", include_str!("../tables/saber.toml")),
    (
        "saber-quickplay.toml",
        include_str!("../tables/saber-quickplay.toml"),
    ),
    (
        "saber-example-crt.toml",
        include_str!("../tables/saber-example-crt.toml"),
    ),
];

/// The file in a `--tables DIR` that replaces the example CRT.
pub const CRT_FILE: &str = "crt.toml";

#[derive(Debug, Clone)]
pub struct Tables {
    pub drums: DrumsTables,
    /// Shooting and melee dice pools (`drums-pools.toml`).
    pub drums_pools: PoolTables,
    pub mayhem: MayhemTables,
    pub saber: SaberRules,
    pub saber_quickplay: SaberRules,
    /// The combat results table for `attack` and `bombard`.
    pub crt: Crt,
}

impl Tables {
    /// The tables compiled into the binary.
    pub fn embedded() -> Result<Tables, TableError> {
        Tables::load(|_| Ok(None))
    }

    /// The embedded tables, with any file of the same name in `dir` used
    /// instead of the embedded one.
    pub fn with_overrides(dir: &Path) -> Result<Tables, TableError> {
        if !dir.is_dir() {
            return Err(TableError::Io {
                file: dir.display().to_string(),
                message: "not a directory".into(),
            });
        }
        Tables::load(|name| {
            let path = dir.join(name);
            if !path.exists() {
                return Ok(None);
            }
            std::fs::read_to_string(&path)
                .map(|text| Some((path.display().to_string(), text)))
                .map_err(|e| TableError::Io {
                    file: path.display().to_string(),
                    message: e.to_string(),
                })
        })
    }

    fn load(
        mut source: impl FnMut(&str) -> Result<Option<(String, String)>, TableError>,
    ) -> Result<Tables, TableError> {
        // A file from the source, else the embedded one (of another name
        // for the CRT, whose override is `crt.toml`).
        let mut file_or = |name: &str, embedded: &str| -> Result<(String, String), TableError> {
            match source(name)? {
                Some(found) => Ok(found),
                None => Ok((
                    format!("tables/{embedded} (embedded)"),
                    embedded_text(embedded).to_string(),
                )),
            }
        };
        let mut file = |name: &str| file_or(name, name);
        let (name, text) = file("drums.toml")?;
        let drums: DrumsTables = parse_toml(&name, &text)?;
        drums.validate(&name)?;
        let (name, text) = file("drums-pools.toml")?;
        let drums_pools: PoolTables = parse_toml(&name, &text)?;
        drums_pools.validate(&name)?;
        let (name, text) = file("mayhem.toml")?;
        let mayhem: MayhemTables = parse_toml(&name, &text)?;
        mayhem.validate(&name)?;
        let mut rules = |file_name: &str| -> Result<SaberRules, TableError> {
            let (name, text) = file(file_name)?;
            let rules: SaberRules = parse_toml(&name, &text)?;
            rules.validate(&name)?;
            Ok(rules)
        };
        let saber = rules("saber.toml")?;
        let saber_quickplay = rules("saber-quickplay.toml")?;
        let (name, text) = file_or(CRT_FILE, "saber-example-crt.toml")?;
        let crt = Crt::parse(&name, &text)?;
        Ok(Tables {
            drums,
            drums_pools,
            mayhem,
            saber,
            saber_quickplay,
            crt,
        })
    }

    /// These tables with the CRT read from a file (`--crt FILE`).
    pub fn with_crt(mut self, path: &Path) -> Result<Tables, TableError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| TableError::Io {
            file: file.clone(),
            message: e.to_string(),
        })?;
        self.crt = Crt::parse(&file, &text)?;
        Ok(self)
    }
}

fn embedded_text(name: &str) -> &'static str {
    EMBEDDED
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("", |(_, text)| text)
}

/// Deserialize one table file, turning the TOML error's byte span into a
/// line and column.
pub fn parse_toml<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, TableError> {
    let parsed: T = toml::from_str(text).map_err(|e| {
        let (line, column) = e
            .span()
            .map_or((1, 1), |span| line_column(text, span.start));
        TableError::Syntax {
            file: file.to_string(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })?;
    // The embedded tables are checked by a test, not at every start-up.
    let embedded = EMBEDDED.iter().any(|(_, t)| *t == text);
    if !embedded && let Ok(table) = text.parse::<toml::Table>() {
        check_numbers(file, "", &toml::Value::Table(table))?;
    }
    Ok(parsed)
}

/// No number in a table is larger than this either way, so sums of
/// modifiers can never overflow.
pub const MAX_TABLE_NUMBER: i64 = 1_000_000;

/// Every whole number in a table file within ±[`MAX_TABLE_NUMBER`].
fn check_numbers(file: &str, key: &str, value: &toml::Value) -> Result<(), TableError> {
    let child = |k: &str| {
        if key.is_empty() {
            k.to_string()
        } else {
            format!("{key}.{k}")
        }
    };
    match value {
        toml::Value::Integer(n) if n.unsigned_abs() > MAX_TABLE_NUMBER as u64 => {
            Err(TableError::Invalid {
                file: file.to_string(),
                key: key.to_string(),
                message: format!(
                    "{n} is out of range: numbers in the tables are at most {MAX_TABLE_NUMBER} either way"
                ),
            })
        }
        toml::Value::Float(x) if !x.is_finite() || x.abs() > MAX_TABLE_NUMBER as f64 => {
            Err(TableError::Invalid {
                file: file.to_string(),
                key: key.to_string(),
                message: format!(
                    "{x} is out of range: numbers in the tables are at most {MAX_TABLE_NUMBER} either way"
                ),
            })
        }
        toml::Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_numbers(file, &format!("{key}[{i}]"), v)),
        toml::Value::Table(table) => table
            .iter()
            .try_for_each(|(k, v)| check_numbers(file, &child(k), v)),
        _ => Ok(()),
    }
}

/// 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_tables_are_within_the_number_bounds() {
        for (name, text) in EMBEDDED {
            let table: toml::Table = text.parse().expect(name);
            check_numbers(name, "", &toml::Value::Table(table)).expect(name);
        }
    }
}
