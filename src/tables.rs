//! Where the rule tables come from: the TOML files each rule system embeds
//! at build time, optionally replaced file by file from a house-rules
//! directory (`--tables DIR`) or one file at a time (`--crt FILE`).
//!
//! Each rule system reads and checks its own files (see the `system` module):
//! unknown keys, wrong types, dice notation, whole-table rules like "every
//! score has exactly one outcome", so a bad house rule is reported before
//! any command runs. This module knows no system's files.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::error::TableError;

/// One table file a rule system reads.
#[derive(Debug, Clone, Copy)]
pub struct TableFile {
    /// Its name in a `--tables DIR`.
    pub name: &'static str,
    /// The name of the embedded file, for messages (the example CRT is
    /// embedded under a name of its own).
    pub embedded_name: &'static str,
    /// The embedded text.
    pub embedded: &'static str,
}

impl TableFile {
    pub const fn new(name: &'static str, embedded: &'static str) -> TableFile {
        TableFile {
            name,
            embedded_name: name,
            embedded,
        }
    }
}

/// Where table files are read from: a directory of house rules, single
/// files given by name, and otherwise the embedded text.
#[derive(Debug, Clone, Default)]
pub struct TableSource {
    dir: Option<PathBuf>,
    files: Vec<(String, PathBuf)>,
}

impl TableSource {
    /// Only the embedded tables.
    pub fn embedded() -> TableSource {
        TableSource::default()
    }

    /// The embedded tables, with any file of the same name in `dir` used
    /// instead of the embedded one.
    pub fn dir(dir: &Path) -> Result<TableSource, TableError> {
        if !dir.is_dir() {
            return Err(TableError::Io {
                file: dir.display().to_string(),
                message: "not a directory".into(),
            });
        }
        Ok(TableSource {
            dir: Some(dir.to_path_buf()),
            files: Vec::new(),
        })
    }

    /// One file read from `path` in place of the table file `name`.
    pub fn with_file(mut self, name: &str, path: &Path) -> TableSource {
        self.files.push((name.to_string(), path.to_path_buf()));
        self
    }

    /// The label and text of a table file: from the source when it has
    /// one, else the embedded text.
    pub fn read(&self, file: &TableFile) -> Result<(String, String), TableError> {
        let given = self
            .files
            .iter()
            .rev()
            .find(|(name, _)| name == file.name)
            .map(|(_, path)| path.clone());
        let in_dir = self
            .dir
            .as_ref()
            .map(|dir| dir.join(file.name))
            .filter(|path| path.exists());
        match given.or(in_dir) {
            Some(path) => crate::files::read_text(&path, MAX_TABLE_BYTES, "table file")
                .map(|text| (path.display().to_string(), text))
                .map_err(|e| TableError::Io {
                    file: path.display().to_string(),
                    message: e
                        .to_string()
                        .trim_start_matches(&format!("{}: ", path.display()))
                        .to_string(),
                }),
            None => Ok((
                format!("tables/{} (embedded)", file.embedded_name),
                file.embedded.to_string(),
            )),
        }
    }

    /// Read and deserialize one table file.
    pub fn parse<T: DeserializeOwned>(&self, file: &TableFile) -> Result<(String, T), TableError> {
        let (name, text) = self.read(file)?;
        let parsed = parse_toml(&name, &text, file.embedded)?;
        Ok((name, parsed))
    }
}

/// Deserialize one table file, turning the TOML error's byte span into a
/// line and column.
pub fn parse_toml<T: DeserializeOwned>(
    file: &str,
    text: &str,
    embedded: &str,
) -> Result<T, TableError> {
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
    if text != embedded
        && let Ok(table) = text.parse::<toml::Table>()
    {
        check_values(file, "", &toml::Value::Table(table))?;
    }
    Ok(parsed)
}

pub use crate::limits::{MAX_TABLE_BYTES, MAX_TABLE_NUMBER};

/// Every value of a table file that could hurt: no whole number beyond
/// ±[`MAX_TABLE_NUMBER`] (sums of modifiers then never overflow), and no
/// string with a control character or escape sequence (the tables' words
/// are shown on terminals).
pub fn check_values(file: &str, key: &str, value: &toml::Value) -> Result<(), TableError> {
    let invalid = |message: String| {
        Err(TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        })
    };
    let out_of_range = |shown: String| {
        invalid(format!(
            "{shown} is out of range: numbers in the tables are at most {MAX_TABLE_NUMBER} either way"
        ))
    };
    let child = |k: &str| {
        if key.is_empty() {
            k.to_string()
        } else {
            format!("{key}.{k}")
        }
    };
    match value {
        toml::Value::Integer(n) if n.unsigned_abs() > MAX_TABLE_NUMBER as u64 => {
            out_of_range(n.to_string())
        }
        toml::Value::Float(x) if !x.is_finite() || x.abs() > MAX_TABLE_NUMBER as f64 => {
            out_of_range(x.to_string())
        }
        toml::Value::String(s) => match crate::text::first_control(s) {
            Some(c) => invalid(format!(
                "contains the control character U+{:04X}; the tables' words are plain text",
                u32::from(c)
            )),
            None => Ok(()),
        },
        toml::Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_values(file, &format!("{key}[{i}]"), v)),
        toml::Value::Table(table) => table
            .iter()
            .try_for_each(|(k, v)| check_values(file, &child(k), v)),
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
