//! Reading and checking army lists. (To be completed: see the issue.)

use std::path::Path;

use thiserror::Error;

use super::Army;

/// A list that cannot be used, with the place and key at fault.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ArmyError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The key at fault, such as `unit[2].bases`.
    pub key: String,
    pub message: String,
}

pub fn load_army(path: &Path) -> Result<Army, ArmyError> {
    let text = std::fs::read_to_string(path).map_err(|e| ArmyError {
        file: path.display().to_string(),
        line: 1,
        column: 1,
        key: String::new(),
        message: e.to_string(),
    })?;
    parse_army(&path.display().to_string(), &text)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmy {
    army: RawHeader,
    #[serde(default)]
    general: Vec<super::General>,
    #[serde(default)]
    unit: Vec<super::Unit>,
    #[serde(default)]
    figure: Vec<super::Figure>,
    #[serde(default)]
    leader: Vec<super::Leader>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    name: String,
    rules: String,
    #[serde(default)]
    side: String,
}

pub fn parse_army(file: &str, text: &str) -> Result<Army, ArmyError> {
    let raw: RawArmy = toml::from_str(text).map_err(|e| {
        let (line, column) = e
            .span()
            .map_or((1, 1), |s| crate::tables::line_column(text, s.start));
        ArmyError {
            file: file.to_string(),
            line,
            column,
            key: String::new(),
            message: e.message().trim().to_string(),
        }
    })?;
    let rules = crate::command::System::from_id(&raw.army.rules).ok_or_else(|| ArmyError {
        file: file.to_string(),
        line: 1,
        column: 1,
        key: "army.rules".into(),
        message: format!("unknown rules `{}`", raw.army.rules),
    })?;
    Ok(Army {
        file: file.to_string(),
        name: raw.army.name,
        rules,
        side: raw.army.side,
        generals: raw.general,
        units: raw.unit,
        figures: raw.figure,
        leaders: raw.leader,
    })
}

/// Several lists together; ids must be unique across all of them.
pub fn load_armies(paths: &[&Path]) -> Result<Vec<Army>, ArmyError> {
    paths.iter().map(|p| load_army(p)).collect()
}
