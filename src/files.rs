//! Reading the files a user names (army lists, tables, game files,
//! journals): regular files only, and never more than a limit, checked
//! while reading — `/dev/zero` or a FIFO with no writer where a file is
//! expected is refused at once, not read for ever.
//!
//! Writing the files a user names for output is [`crate::output_file`]'s,
//! re-exported here: every path drumhead reads or writes for a user goes
//! through this module.

use std::io::Read;
use std::path::Path;

use thiserror::Error;

pub(crate) use crate::output_file::{OutputError, check_output, write_folder, write_whole};

/// A file that could not be read.
#[derive(Debug, Error, Clone, PartialEq)]
pub(crate) enum FileError {
    #[error("{path}: {what}")]
    NotAFile { path: String, what: &'static str },
    #[error("{path}: the file is larger than {max} bytes, the most a {kind} may be")]
    TooLarge {
        path: String,
        max: u64,
        kind: &'static str,
    },
    #[error("{path}: the file is not UTF-8 text")]
    NotText { path: String },
    #[error("{path}: {message}")]
    Io { path: String, message: String },
}

/// What a path is, when it is not a regular file.
fn not_a_file(meta: &std::fs::Metadata) -> Option<&'static str> {
    use crate::platform::Special;
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    Some(match crate::platform::special(&t) {
        _ if t.is_dir() => "is a directory, not a file",
        Some(Special::Fifo) => "is a FIFO (named pipe), not a file",
        Some(Special::Device) => "is a device, not a file",
        Some(Special::Socket) => "is a socket, not a file",
        None => "is not a regular file",
    })
}

/// Refuse anything but a regular file (following symlinks, as reading does).
pub(crate) fn check_regular(path: &Path) -> Result<(), FileError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| FileError::Io {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    match not_a_file(&meta) {
        Some(what) => Err(FileError::NotAFile { path: shown, what }),
        None => Ok(()),
    }
}

/// The text of a regular file of at most `max` bytes; `kind` names it in
/// the error ("army list").
pub(crate) fn read_text(path: &Path, max: usize, kind: &'static str) -> Result<String, FileError> {
    let shown = path.display().to_string();
    let io = |e: std::io::Error| FileError::Io {
        path: shown.clone(),
        message: e.to_string(),
    };
    // Opened without blocking: a FIFO with no writer would otherwise hang
    // here before its type could be checked.
    let file = crate::platform::without_blocking(std::fs::OpenOptions::new().read(true))
        .open(path)
        .map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if let Some(what) = not_a_file(&meta) {
        return Err(FileError::NotAFile { path: shown, what });
    }
    let too_large = || FileError::TooLarge {
        path: shown.clone(),
        max: max as u64,
        kind,
    };
    if meta.len() > max as u64 {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > max {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| FileError::NotText { path: shown })
}
