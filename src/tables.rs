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
    pub(crate) embedded_name: &'static str,
    /// The embedded text.
    pub embedded: &'static str,
    /// The sections of a file several rule systems share (`campaign.toml`)
    /// that this system reads, each keyed by one of its books' ids; empty
    /// where the file is the system's alone.
    pub sections: &'static [&'static str],
}

impl TableFile {
    pub(crate) const fn new(name: &'static str, embedded: &'static str) -> TableFile {
        TableFile {
            name,
            embedded_name: name,
            embedded,
            sections: &[],
        }
    }

    /// A file several systems share, of which a system reads `sections`.
    pub(crate) const fn shared(
        name: &'static str,
        embedded: &'static str,
        sections: &'static [&'static str],
    ) -> TableFile {
        TableFile {
            name,
            embedded_name: name,
            embedded,
            sections,
        }
    }
}

/// Where table files are read from: a directory of house rules, single
/// files given by name, the texts a game recorded, and otherwise the
/// embedded text.
#[derive(Debug, Clone, Default)]
pub struct TableSource {
    dir: Option<PathBuf>,
    files: Vec<(String, PathBuf)>,
    /// Texts given whole (a game's recorded house tables), by file name.
    texts: Vec<HouseTable>,
}

/// A house table file in force, as a game's journal records it: so that a
/// game is resolved again under the tables it was played with, wherever
/// its journal is read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HouseTable {
    /// The table file it stands for (`drums.toml`, `crt.toml`).
    pub name: String,
    /// Where it was read from when the game began, for messages.
    pub file: String,
    pub text: String,
}

impl TableSource {
    /// Only the embedded tables.
    pub fn embedded() -> TableSource {
        TableSource::default()
    }

    /// Whether these are the embedded tables and nothing else.
    pub(crate) fn is_embedded(&self) -> bool {
        self.dir.is_none() && self.files.is_empty() && self.texts.is_empty()
    }

    /// The house tables a game recorded, read from their texts.
    pub(crate) fn recorded(tables: &[HouseTable]) -> TableSource {
        TableSource {
            texts: tables.to_vec(),
            ..TableSource::default()
        }
    }

    /// Every table file of `files` this source gives other than the
    /// embedded text, each read whole: what a game records.
    pub(crate) fn house_tables(&self, files: &[TableFile]) -> Result<Vec<HouseTable>, TableError> {
        let mut house = Vec::new();
        for file in files {
            if let Some(given) = self.texts.iter().find(|t| t.name == file.name) {
                house.push(given.clone());
                continue;
            }
            if self.given_path(file).is_none() {
                continue;
            }
            let (label, text) = self.read(file)?;
            house.push(HouseTable {
                name: file.name.to_string(),
                file: label,
                text,
            });
        }
        Ok(house)
    }

    /// The file a table is read from, when the source gives one.
    fn given_path(&self, file: &TableFile) -> Option<PathBuf> {
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
        given.or(in_dir)
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
            ..TableSource::default()
        })
    }

    /// One file read from `path` in place of the table file `name`.
    pub fn with_file(mut self, name: &str, path: &Path) -> TableSource {
        self.files.push((name.to_string(), path.to_path_buf()));
        self
    }

    /// The label and text of a table file: from the source when it has
    /// one, else the embedded text.
    pub(crate) fn read(&self, file: &TableFile) -> Result<(String, String), TableError> {
        if let Some(given) = self.texts.iter().find(|t| t.name == file.name) {
            return Ok((given.file.clone(), given.text.clone()));
        }
        match self.given_path(file) {
            Some(path) => crate::files::read_text(&path, MAX_TABLE_BYTES, "table file")
                .map(|text| {
                    // An unchanged copy (`tables export`) is still the
                    // embedded table: what is said of that (the example
                    // CRT's warning) is said of the copy.
                    let label = if text == file.embedded {
                        format!(
                            "{}, a copy of tables/{} (embedded)",
                            path.display(),
                            file.embedded_name
                        )
                    } else {
                        path.display().to_string()
                    };
                    (label, text)
                })
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

    /// Read and deserialize one table file. A house file need name only
    /// the values it changes: it is merged over the embedded file of the
    /// same name (tables merge key by key; arrays and other values replace
    /// the embedded ones whole), and the result is checked as one file.
    pub(crate) fn parse<T: DeserializeOwned>(
        &self,
        file: &TableFile,
    ) -> Result<(String, T), TableError> {
        let (name, text) = self.read(file)?;
        let parsed = if text == file.embedded {
            match preparsed(file) {
                Some(parsed) => parsed,
                None => parse_toml(&name, &text, file.embedded)?,
            }
        } else {
            parse_over(&name, &text, file)?
        };
        Ok((name, parsed))
    }

    /// [`parse`](Self::parse), then `check` the values. Only where they
    /// could be wrong: the embedded files as shipped pass every check
    /// (the test suite reads them from a house-rules directory, where each
    /// is checked), so they are not checked again at every start.
    pub(crate) fn parse_checked<T: DeserializeOwned>(
        &self,
        file: &TableFile,
        check: impl FnOnce(&T, &str) -> Result<(), TableError>,
    ) -> Result<(String, T), TableError> {
        let (name, parsed) = self.parse(file)?;
        if !self.is_embedded() {
            check(&parsed, &name)?;
        }
        Ok((name, parsed))
    }

    /// A shared file as the source gives it (when it gives one) has no
    /// section but `sections`, the ones the rule systems read: a misspelt
    /// one (`[drum]`) would otherwise be silently left unread.
    pub(crate) fn check_sections(
        &self,
        file: &TableFile,
        sections: &[&str],
    ) -> Result<(), TableError> {
        let given = self.texts.iter().any(|t| t.name == file.name);
        if !given && self.given_path(file).is_none() {
            return Ok(());
        }
        let (label, text) = self.read(file)?;
        let at = |span: std::ops::Range<usize>, message: String| {
            let (line, column) = line_column(&text, span.start);
            TableError::Syntax {
                file: label.clone(),
                line,
                column,
                message,
            }
        };
        let table = toml::de::DeTable::parse(&text)
            .map_err(|e| at(e.span().unwrap_or(0..0), e.message().trim().to_string()))?;
        for (key, _) in table.get_ref() {
            let name = key.get_ref().as_ref();
            if sections.contains(&name) {
                continue;
            }
            // Only a near miss is suggested: `[drum]`, not `percent`.
            let meant = sections
                .iter()
                .map(|s| (strsim::damerau_levenshtein(name, s), s))
                .min()
                .filter(|(distance, _)| *distance <= 2)
                .map_or(String::new(), |(_, m)| format!("; did you mean `[{m}]`?"));
            return Err(at(
                key.span(),
                format!(
                    "`{name}` is no section of {}{meant} (its sections are the rule books' ids: {})",
                    file.name,
                    sections.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// Every `.toml` file in the house-rules directory must be one of
    /// `files`: a misnamed one (`drumz.toml`, `Drums.toml`) would otherwise
    /// be silently left unread. Other files (a README, notes) are not
    /// table files and are left alone.
    pub(crate) fn check_names(&self, files: &[TableFile]) -> Result<(), TableError> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let io = |message: String| TableError::Io {
            file: dir.display().to_string(),
            message,
        };
        let entries = std::fs::read_dir(dir).map_err(|e| io(e.to_string()))?;
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| io(e.to_string()))?;
            if entry.path().is_dir() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_toml = Path::new(&name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
            if is_toml && !files.iter().any(|f| f.name == name) {
                names.push(name);
            }
        }
        // The first in name order, so the message does not depend on the
        // order the file system lists the directory in.
        names.sort();
        match names.first() {
            None => Ok(()),
            Some(name) => Err(TableError::Io {
                file: dir.join(name).display().to_string(),
                message: misnamed(name, files),
            }),
        }
    }
}

// `PREPARSED`: every `tables/*.toml` with its values as JSON (build.rs).
include!(concat!(env!("OUT_DIR"), "/preparsed.rs"));

/// An embedded file's values from the JSON made of it at build time, which
/// a one-shot command reads several times faster than the TOML. Only for
/// the very text the JSON was made from; `None` (read the TOML) otherwise,
/// and should the JSON not deserialize, so that the TOML reader's message
/// is the one given.
fn preparsed<T: DeserializeOwned>(file: &TableFile) -> Option<T> {
    let (_, _, json) = PREPARSED
        .iter()
        .find(|(name, toml, _)| *name == file.embedded_name && *toml == file.embedded)?;
    serde_json::from_str(json).ok()
}

/// Why a `.toml` file in a house-rules directory is refused, with the
/// table file it most likely meant.
fn misnamed(name: &str, files: &[TableFile]) -> String {
    let lower = name.to_lowercase();
    // The example CRT is embedded under a name of its own but read as
    // `crt.toml`; a file named after the embedded one means that.
    let meant = files
        .iter()
        .find(|f| f.embedded_name.eq_ignore_ascii_case(name) || f.name == lower)
        .or_else(|| {
            files
                .iter()
                .min_by_key(|f| strsim::damerau_levenshtein(&lower, f.name))
        })
        .map(|f| f.name);
    let all = files.iter().map(|f| f.name).collect::<Vec<_>>().join(", ");
    let meant = meant.map_or(String::new(), |m| format!("; did you mean `{m}`?"));
    format!(
        "not a table file drumhead reads{meant} (the table files are {all}; \
         `drumhead tables export DIR` writes them all)"
    )
}

/// A house file merged over the embedded one, then deserialized. Errors
/// point into the house file, or into the embedded file when the merged
/// value that fails came from there.
fn parse_over<T: DeserializeOwned>(
    label: &str,
    text: &str,
    file: &TableFile,
) -> Result<T, TableError> {
    use toml::Spanned;
    use toml::de::DeTable;
    let syntax = |label: &str, text: &str, span: Option<std::ops::Range<usize>>, message: &str| {
        let (line, column) = span.map_or((1, 1), |span| line_column(text, span.start));
        TableError::Syntax {
            file: label.to_string(),
            line,
            column,
            message: message.trim().to_string(),
        }
    };
    let house = DeTable::parse(text).map_err(|e| syntax(label, text, e.span(), e.message()))?;
    if let Ok(table) = text.parse::<toml::Table>() {
        check_values(label, "", &toml::Value::Table(table))?;
    }
    let embedded_label = format!("tables/{} (embedded)", file.embedded_name);
    let base = DeTable::parse(file.embedded)
        .map_err(|e| syntax(&embedded_label, file.embedded, e.span(), e.message()))?;
    // The embedded file's spans are moved past the end of the house text,
    // so an error's span tells which of the two files it points into.
    let shift = text.len().saturating_add(1);
    let mut merged = shift_table(base.into_inner(), shift);
    let root_span = house.span();
    merge(&mut merged, house.into_inner());
    T::deserialize(toml::de::Deserializer::from(Spanned::new(
        root_span, merged,
    )))
    .map_err(|e| match e.span() {
        Some(span) if span.start >= shift => syntax(
            &embedded_label,
            file.embedded,
            Some(span.start - shift..span.end.saturating_sub(shift)),
            &format!("{} (with {label} merged over it)", e.message().trim()),
        ),
        span => syntax(label, text, span, e.message()),
    })
}

type DeTable<'i> = toml::de::DeTable<'i>;
type DeValue<'i> = toml::de::DeValue<'i>;

/// Deep merge: a house table merges into the embedded table of the same
/// key; anything else (a number, a string, an array, even an array of
/// tables) replaces the embedded value whole.
fn merge<'i>(base: &mut DeTable<'i>, house: DeTable<'i>) {
    for (key, value) in house {
        let name = key.get_ref().to_string();
        let is_table = |v: &toml::Spanned<DeValue<'_>>| matches!(v.get_ref(), DeValue::Table(_));
        if is_table(&value) && base.get(name.as_str()).is_some_and(is_table) {
            let span = value.span();
            if let (Some(old), DeValue::Table(inner)) =
                (base.get_mut(name.as_str()), value.into_inner())
            {
                let mut whole = std::mem::replace(old.get_mut(), DeValue::Boolean(false));
                if let DeValue::Table(old_inner) = &mut whole {
                    merge(old_inner, inner);
                }
                // The table is named in the house file: errors about it
                // point there.
                *old = toml::Spanned::new(span, whole);
            }
            continue;
        }
        base.remove(name.as_str());
        base.insert(key, value);
    }
}

fn shift_span(span: std::ops::Range<usize>, by: usize) -> std::ops::Range<usize> {
    span.start.saturating_add(by)..span.end.saturating_add(by)
}

fn shift_table(table: DeTable<'_>, by: usize) -> DeTable<'_> {
    table
        .into_iter()
        .map(|(k, v)| {
            let key = toml::Spanned::new(shift_span(k.span(), by), k.into_inner());
            (key, shift_value(v, by))
        })
        .collect()
}

fn shift_value(value: toml::Spanned<DeValue<'_>>, by: usize) -> toml::Spanned<DeValue<'_>> {
    let span = shift_span(value.span(), by);
    let inner = match value.into_inner() {
        DeValue::Table(t) => DeValue::Table(shift_table(t, by)),
        DeValue::Array(mut items) => {
            for item in items.iter_mut() {
                let old =
                    std::mem::replace(item, toml::Spanned::new(0..0, DeValue::Boolean(false)));
                *item = shift_value(old, by);
            }
            DeValue::Array(items)
        }
        other => other,
    };
    toml::Spanned::new(span, inner)
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

pub(crate) use crate::limits::MAX_TABLE_BYTES;
pub use crate::limits::MAX_TABLE_NUMBER;

/// Every value of a table file that could hurt: no whole number beyond
/// ±[`MAX_TABLE_NUMBER`] (sums of modifiers then never overflow), and no
/// string with a control character or escape sequence (the tables' words
/// are shown on terminals).
pub(crate) fn check_values(file: &str, key: &str, value: &toml::Value) -> Result<(), TableError> {
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
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
