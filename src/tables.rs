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

/// The embedded tables, by file name.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("drums.toml", include_str!("../tables/drums.toml")),
    (
        "drums-pools.toml",
        include_str!("../tables/drums-pools.toml"),
    ),
];

#[derive(Debug, Clone)]
pub struct Tables {
    pub drums: DrumsTables,
    /// Shooting and melee dice pools (`drums-pools.toml`).
    pub drums_pools: PoolTables,
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
        let mut file = |name: &str| -> Result<(String, String), TableError> {
            match source(name)? {
                Some(found) => Ok(found),
                None => Ok((
                    format!("tables/{name} (embedded)"),
                    embedded_text(name).to_string(),
                )),
            }
        };
        let (name, text) = file("drums.toml")?;
        let drums: DrumsTables = parse_toml(&name, &text)?;
        drums.validate(&name)?;
        let (name, text) = file("drums-pools.toml")?;
        let drums_pools: PoolTables = parse_toml(&name, &text)?;
        drums_pools.validate(&name)?;
        Ok(Tables { drums, drums_pools })
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
    toml::from_str(text).map_err(|e| {
        let (line, column) = e
            .span()
            .map_or((1, 1), |span| line_column(text, span.start));
        TableError::Syntax {
            file: file.to_string(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })
}

/// 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
