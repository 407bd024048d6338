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

pub fn parse_army(file: &str, text: &str) -> Result<Army, ArmyError> {
    let _ = text;
    Err(ArmyError {
        file: file.to_string(),
        line: 1,
        column: 1,
        key: String::new(),
        message: "army lists are not implemented yet".into(),
    })
}

/// Several lists together; ids must be unique across all of them.
pub fn load_armies(paths: &[&Path]) -> Result<Vec<Army>, ArmyError> {
    paths.iter().map(|p| load_army(p)).collect()
}
