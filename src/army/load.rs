//! Reading and checking army lists (SPEC section 5).
//!
//! The file is parsed into TOML's spanned document tree
//! ([`toml::de::DeTable`]) and walked by hand, so that every complaint —
//! unknown key, wrong type, unknown keyword, a field of another rule
//! system, a missing field, an impossible number, a duplicate id, a
//! dangling reference — carries the line and column of the value (or key)
//! at fault and its path, such as `unit[2].bases`. Entry numbers in paths
//! count from 1, in file order, per kind (`unit[2]` is the second
//! `[[unit]]`).
//!
//! All problems are collected and the first one in file order is
//! returned: a list either loads whole or not at all.

use std::cell::Cell;
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use thiserror::Error;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{Army, ArmyList, Away, Reader, Schema, Schemas};
use crate::bind::nearest;

mod document;

pub(crate) use crate::limits::MAX_ENTRIES;
pub(crate) use crate::limits::MAX_ID_LEN;
pub use crate::limits::MAX_LIST_BYTES as MAX_BYTES;
pub(crate) use crate::limits::MAX_NAME_LEN;

/// A list that cannot be used, with the place and key at fault; the
/// list's further problems, in file order, come with the first, so that
/// one `check` shows every one of them.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{file}:{line}:{column}: {message}{}", self.further())]
pub struct ArmyError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The key at fault, such as `unit[2].bases`.
    pub key: String,
    pub message: String,
    /// The other problems of the same list.
    pub(crate) more: Vec<ArmyError>,
}

impl ArmyError {
    fn further(&self) -> String {
        self.more.iter().map(|e| format!("\n{e}")).collect()
    }
}

/// Read and check one list file.
pub fn load_army(path: &Path, schemas: &Schemas) -> Result<Army, ArmyError> {
    let file = path.display().to_string();
    let text = read_list(path)?;
    parse_army(&file, &text, schemas)
}

/// A list loaded before, read again into `reader`: a rule system's own
/// reader (its list type), so that its game has the list in its own
/// types. `None` if the list no longer reads (it read once, so never).
pub(crate) fn read_again<R: Reader>(
    army: &Army,
    name: &'static str,
    schema: &'static dyn Schema,
    mut reader: R,
) -> Option<R> {
    let src = Src {
        file: &army.file,
        text: &army.text,
        lines: std::cell::OnceCell::new(),
    };
    let doc = DeTable::parse(&army.text).ok()?;
    let mut ck = Checker {
        src,
        errors: Vec::new(),
        ids: Vec::new(),
    };
    let schemas = Schemas(vec![(army.rules, name, schema)]);
    ck.document(doc.get_ref(), &schemas, Some(&mut reader))?;
    ck.first_error().is_none().then_some(reader)
}

/// The list of a list read again: the caller's reader holds it.
#[derive(Debug)]
struct ReadAgain;

impl ArmyList for ReadAgain {
    fn members(&self) -> Vec<super::Member<'_>> {
        Vec::new()
    }
}

/// Check one list given as text; `file` is only used in messages and
/// kept in [`Army::file`].
pub fn parse_army(file: &str, text: &str, schemas: &Schemas) -> Result<Army, ArmyError> {
    parse_with_ids(file, text, schemas).map(|(army, _)| army)
}

/// Check several list files together, one result per file in order:
/// the loaded list, or the first problem in it. Ids must be unique
/// across all the lists; a repeated id is reported in the later file.
pub(crate) fn check_files(paths: &[&Path], schemas: &Schemas) -> Vec<Result<Army, ArmyError>> {
    let mut seen: HashMap<String, (String, usize)> = HashMap::new();
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let file = path.display().to_string();
        let loaded = read_list(path).and_then(|text| {
            let (army, ids) = parse_with_ids(&file, &text, schemas)?;
            // Report the first clash in file order.
            for (id, key, line, column) in &ids {
                if let Some((other_file, other_line)) = seen.get(id.as_str()) {
                    return Err(ArmyError {
                        file: file.clone(),
                        line: *line,
                        column: *column,
                        key: key.clone(),
                        message: format!(
                            "{key}: id \"{id}\" is already used in {other_file} (line {other_line}); \
                             ids must be unique across the lists loaded together"
                        ),
                        more: Vec::new(),
                    });
                }
            }
            for (id, _, line, _) in ids {
                seen.insert(id, (file.clone(), line));
            }
            Ok(army)
        });
        out.push(loaded);
    }
    out
}

/// A one-line account of a loaded list, for `check` output.
pub fn summary(army: &Army) -> String {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for member in army.list.members() {
        match counts.iter_mut().find(|(kind, _)| *kind == member.kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((member.kind, 1)),
        }
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(what, n)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    format!(
        "{}: {} ({}, {}): {}",
        army.file,
        army.name,
        army.rules.id(),
        army.side,
        if parts.is_empty() {
            "empty".to_string()
        } else {
            parts.join(", ")
        }
    )
}

fn read_list(path: &Path) -> Result<String, ArmyError> {
    let file = path.display().to_string();
    let fail = |message: String| ArmyError {
        file: file.clone(),
        line: 1,
        column: 1,
        key: String::new(),
        message,
        more: Vec::new(),
    };
    crate::files::read_text(path, MAX_BYTES, "army list").map_err(|e| match e {
        crate::files::FileError::TooLarge { .. } => fail(format!(
            "the file is larger than {MAX_BYTES} bytes; an army list may be at most {MAX_BYTES} bytes"
        )),
        other => fail(format!("cannot read the list: {}", strip_path(&other.to_string(), &file))),
    })
}

/// A file error's message without the path it starts with (the army
/// error names the file already).
fn strip_path<'a>(message: &'a str, file: &str) -> &'a str {
    message
        .strip_prefix(file)
        .and_then(|m| m.strip_prefix(": "))
        .unwrap_or(message)
}

/// (id, key of the id, line, column) for every entry, in file order.
type IdPlaces = Vec<(String, String, usize, usize)>;

fn parse_with_ids(
    file: &str,
    text: &str,
    schemas: &Schemas,
) -> Result<(Army, IdPlaces), ArmyError> {
    let src = Src {
        file,
        text,
        lines: std::cell::OnceCell::new(),
    };
    if text.len() > MAX_BYTES {
        return Err(src.err(
            0..0,
            "",
            format!(
                "the list is {} bytes; an army list may be at most {MAX_BYTES} bytes",
                text.len()
            ),
        ));
    }
    let doc = DeTable::parse(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        src.err(span, "", format!("TOML syntax: {}", e.message().trim()))
    })?;
    let mut ck = Checker {
        src,
        errors: Vec::new(),
        ids: Vec::new(),
    };
    let army = ck.document(doc.get_ref(), schemas, None);
    if let Some(first) = ck.first_error() {
        return Err(first);
    }
    let army = army.ok_or_else(|| {
        // Unreachable in practice: no army without an error.
        ck.src
            .err(0..0, "army", "army: the list could not be read".into())
    })?;
    let ids = ck
        .ids
        .into_iter()
        .map(|(id, key, span)| {
            let (line, column) = ck.src.line_col(span.start);
            (id, key, line, column)
        })
        .collect();
    Ok((army, ids))
}

/// The keys of `[army]`.
pub const ARMY_KEYS: &[&str] = &["name", "rules", "side"];

/// `a`, `a or b`, `a, b or c`.
pub fn one_of(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

// ---------------------------------------------------------------------
// Positions.

pub struct Src<'a> {
    file: &'a str,
    text: &'a str,
    /// Where each line starts, found the first time a position is asked
    /// for: a list names an id on every entry.
    lines: std::cell::OnceCell<Vec<usize>>,
}

impl Src<'_> {
    /// 1-based line and column (in characters) of a byte offset.
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let starts = self.lines.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1))
                .collect()
        });
        // The last line starting at or before the offset.
        let line = starts.partition_point(|&start| start <= offset);
        let line_start = starts.get(line.saturating_sub(1)).copied().unwrap_or(0);
        let column = self.text[line_start..offset].chars().count() + 1;
        (line, column)
    }

    fn err(&self, span: Range<usize>, key: impl Into<String>, message: String) -> ArmyError {
        let (line, column) = self.line_col(span.start);
        ArmyError {
            file: self.file.to_string(),
            line,
            column,
            key: key.into(),
            message,
            more: Vec::new(),
        }
    }

    /// The source text of a value, shortened for messages.
    pub(crate) fn shown(&self, span: Range<usize>) -> String {
        let raw = self.text.get(span).unwrap_or("").trim();
        let mut shown: String = raw.chars().take(40).collect();
        if raw.chars().count() > 40 {
            shown.push('…');
        }
        shown
    }
}

// ---------------------------------------------------------------------
// The walk.

pub type Value<'i> = Spanned<DeValue<'i>>;

/// One table being read: `[army]` or one entry.
pub struct Entry<'t, 'i> {
    pub(crate) table: &'t DeTable<'i>,
    /// The header `[[unit]]`, where missing keys are reported.
    header: Range<usize>,
    /// `unit[2]`, `army`.
    path: String,
    /// `unit "gren-1"` once the id is known, for messages.
    label: Option<String>,
    /// The table has a key that is not allowed: a missing key is then
    /// most likely that one misspelt, and not reported again.
    unknown_keys: Cell<bool>,
}

impl<'t, 'i> Entry<'t, 'i> {
    pub(crate) fn get(&self, key: &str) -> Option<&'t Value<'i>> {
        self.table.get(key)
    }

    pub(crate) fn key(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    /// `unit[2].bases (unit "gren-2")`
    pub(crate) fn place(&self, key: &str) -> String {
        match &self.label {
            Some(label) => format!("{} ({label})", self.key(key)),
            None => self.key(key),
        }
    }
}

/// Reads values out of a list's tables, collecting every problem with its
/// place: the kit a rule system's [`super::Reader`] reads its entries with.
pub struct Checker<'a> {
    src: Src<'a>,
    errors: Vec<ArmyError>,
    /// Every id read: (id, its key, span of its value).
    ids: Vec<(String, String, Range<usize>)>,
}

impl Checker<'_> {
    /// The first problem in file order, carrying the others.
    fn first_error(&mut self) -> Option<ArmyError> {
        // Stable: at one place, the first complaint made comes first.
        self.errors.sort_by_key(|e| (e.line, e.column));
        self.errors.dedup();
        let mut rest = self.errors.iter().cloned();
        let mut first = rest.next()?;
        first.more = rest.collect();
        Some(first)
    }

    pub(crate) fn fail(&mut self, span: Range<usize>, key: String, message: String) {
        let err = self.src.err(span, key, message);
        self.errors.push(err);
    }

    pub(crate) fn type_error(&mut self, e: &Entry, key: &str, value: &Value, expected: &str) {
        let found = describe(value, &self.src);
        self.fail(
            value.span(),
            e.key(key),
            format!("{}: expected {expected}, found {found}", e.place(key)),
        );
    }

    pub(crate) fn missing(&mut self, e: &Entry, key: &str, expected: &str) {
        if e.unknown_keys.get() {
            return;
        }
        self.fail(
            e.header.clone(),
            e.key(key),
            format!("{}: missing; expected {expected}", e.place(key)),
        );
    }

    /// Unknown keys (and keys of another system) in a table.
    fn keys(&mut self, e: &Entry, allowed: &[&str], foreign: &dyn Fn(&str) -> Option<String>) {
        for (k, _) in e.table.iter() {
            let name = k.get_ref().as_ref();
            if allowed.contains(&name) {
                continue;
            }
            e.unknown_keys.set(true);
            let message = match foreign(name) {
                Some(why) => format!("{}: {why}", e.place(name)),
                None => {
                    let hint = nearest(name, allowed.iter().copied())
                        .map(|n| format!(" (did you mean `{n}`?)"))
                        .unwrap_or_default();
                    format!(
                        "{}: unknown key `{name}`{hint}; expected one of {}",
                        e.place(name),
                        one_of(allowed)
                    )
                }
            };
            self.fail(k.span(), e.key(name), message);
        }
    }

    pub(crate) fn string(&mut self, e: &Entry, key: &str) -> Option<Spanned<String>> {
        let v = e.get(key)?;
        match v.get_ref() {
            DeValue::String(s) => Some(Spanned::new(v.span(), s.to_string())),
            _ => {
                self.type_error(e, key, v, "a string");
                None
            }
        }
    }

    /// A name or side: a non-empty string of reasonable length.
    pub(crate) fn text(&mut self, e: &Entry, key: &str, required: bool) -> Option<String> {
        let Some(s) = self.string(e, key) else {
            if required && e.get(key).is_none() {
                self.missing(e, key, "a string");
            }
            return None;
        };
        let len = s.get_ref().trim().chars().count();
        if len == 0 {
            self.fail(
                s.span(),
                e.key(key),
                format!("{}: must not be empty", e.place(key)),
            );
            return None;
        }
        if len > MAX_NAME_LEN {
            self.fail(
                s.span(),
                e.key(key),
                format!(
                    "{}: is {len} characters long; at most {MAX_NAME_LEN} are allowed",
                    e.place(key)
                ),
            );
            return None;
        }
        // A name is shown on terminals: nothing in it may act on one.
        if let Some(c) = crate::text::first_control(s.get_ref()) {
            self.fail(
                s.span(),
                e.key(key),
                format!(
                    "{}: contains the control character U+{:04X}; names are plain text",
                    e.place(key),
                    u32::from(c)
                ),
            );
            return None;
        }
        Some(s.into_inner())
    }

    pub(crate) fn boolean(&mut self, e: &Entry, key: &str) -> Option<Spanned<bool>> {
        let v = e.get(key)?;
        match v.get_ref() {
            DeValue::Boolean(b) => Some(Spanned::new(v.span(), *b)),
            _ => {
                self.type_error(e, key, v, "true or false");
                None
            }
        }
    }

    /// A whole number in `min..=max`; `what` says what it counts.
    pub(crate) fn int(
        &mut self,
        e: &Entry,
        key: &str,
        min: i64,
        max: i64,
        what: &str,
    ) -> Option<i64> {
        let v = e.get(key)?;
        let expected = format!("{what}, a whole number from {min} to {max}");
        let n = match v.get_ref() {
            DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok(),
            _ => {
                self.type_error(e, key, v, &expected);
                return None;
            }
        };
        match n {
            Some(n) if (min..=max).contains(&n) => Some(n),
            _ => {
                let shown = self.src.shown(v.span());
                self.fail(
                    v.span(),
                    e.key(key),
                    format!(
                        "{}: {shown} is out of range; expected {expected}",
                        e.place(key)
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn keyword_value(
        &mut self,
        e: &Entry,
        key: &str,
        value: &Value,
        words: &[&str],
        what: &str,
    ) -> Option<Spanned<String>> {
        let DeValue::String(s) = value.get_ref() else {
            self.type_error(e, key, value, &format!("{what}: {}", one_of(words)));
            return None;
        };
        if words.contains(&s.as_ref()) {
            return Some(Spanned::new(value.span(), s.to_string()));
        }
        let hint = nearest(s, words.iter().copied())
            .map(|n| format!(" (did you mean \"{n}\"?)"))
            .unwrap_or_default();
        self.fail(
            value.span(),
            e.key(key),
            format!(
                "{}: unknown {what} \"{s}\"{hint}; expected {}",
                e.place(key),
                one_of(words)
            ),
        );
        None
    }

    pub(crate) fn keyword(
        &mut self,
        e: &Entry,
        key: &str,
        words: &[&str],
        what: &str,
    ) -> Option<Spanned<String>> {
        let v = e.get(key)?;
        self.keyword_value(e, key, v, words, what)
    }

    /// A list of distinct keywords, such as `class = ["determined"]`.
    pub(crate) fn keywords(
        &mut self,
        e: &Entry,
        key: &str,
        words: &[&str],
        what: &str,
    ) -> Vec<Spanned<String>> {
        let Some(v) = e.get(key) else {
            return Vec::new();
        };
        let DeValue::Array(items) = v.get_ref() else {
            let example = match v.get_ref() {
                DeValue::String(s) => s.to_string(),
                _ => words.first().map_or_else(String::new, |w| w.to_string()),
            };
            let expected = format!(
                "a list of {what} words such as {key} = [\"{example}\"] ({})",
                one_of(words)
            );
            self.type_error(e, key, v, &expected);
            return Vec::new();
        };
        let mut out: Vec<Spanned<String>> = Vec::new();
        for item in items.iter() {
            let Some(word) = self.keyword_value(e, key, item, words, what) else {
                continue;
            };
            if out.iter().any(|w| w.get_ref() == word.get_ref()) {
                self.fail(
                    word.span(),
                    e.key(key),
                    format!("{}: \"{}\" is given twice", e.place(key), word.get_ref()),
                );
                continue;
            }
            out.push(word);
        }
        out
    }

    /// `id`: required, lowercase letters, digits and `-`, starting with
    /// a letter. Sets the entry's label.
    fn id(&mut self, e: &mut Entry) -> Option<String> {
        let Some(v) = e.get("id") else {
            self.missing(
                e,
                "id",
                "an id (lowercase letters, digits and -, starting with a letter)",
            );
            return None;
        };
        let s = self.string(e, "id")?;
        let id = s.get_ref();
        let problem = if id.is_empty() {
            Some("must not be empty".to_string())
        } else if id.chars().count() > MAX_ID_LEN {
            Some(format!("is longer than {MAX_ID_LEN} characters"))
        } else if !id.starts_with(|c: char| c.is_ascii_lowercase()) {
            Some("must start with a lowercase letter".to_string())
        } else {
            id.chars()
                .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
                .map(|c| format!("may not contain {c:?}"))
        };
        if let Some(problem) = problem {
            self.fail(
                v.span(),
                e.key("id"),
                format!(
                    "{}: \"{id}\" {problem}; an id is lowercase letters, digits and -, \
                     starting with a letter",
                    e.key("id")
                ),
            );
            return None;
        }
        let kind = e.path.split('[').next().unwrap_or("entry");
        e.label = Some(format!("{kind} \"{id}\""));
        self.ids.push((id.clone(), e.key("id"), v.span()));
        Some(s.into_inner())
    }

    /// Ids used twice in one list.
    fn duplicate_ids(&mut self) {
        let mut first: HashMap<String, (String, Range<usize>)> = HashMap::new();
        for (id, key, span) in self.ids.clone() {
            if let Some((other_key, other_span)) = first.get(&id) {
                let (line, _) = self.src.line_col(other_span.start);
                self.fail(
                    span,
                    key.clone(),
                    format!(
                        "{key}: duplicate id \"{id}\"; {other_key} (line {line}) has it already"
                    ),
                );
            } else {
                first.insert(id, (key, span));
            }
        }
    }

    /// The ids read so far whose key starts with `section[`.
    pub(crate) fn ids_of(&self, section: &str) -> Vec<String> {
        let prefix = format!("{section}[");
        self.ids
            .iter()
            .filter(|(_, key, _)| key.starts_with(&prefix))
            .map(|(id, _, _)| id.clone())
            .collect()
    }

    /// 1-based line of a byte offset in the list.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.src.line_col(offset).0
    }

    /// The campaign keys of an entry, `gone = "why"` and `absent = N`:
    /// `Some` when the entry is held out of the battle. Only for the
    /// sections whose keys take them.
    pub(crate) fn away(
        &mut self,
        e: &Entry,
        kind: &'static str,
        id: Option<&str>,
        name: Option<&str>,
    ) -> Option<Away> {
        let gone = e.get("gone").map(|_| self.text(e, "gone", false));
        let absent = e.get("absent").map(|_| {
            self.int(
                e,
                "absent",
                1,
                MAX_ABSENT,
                "the battles it still sits out (wounded), the next one included",
            )
        });
        if let (Some(_), Some(_), Some(v)) = (&gone, &absent, e.get("absent")) {
            self.fail(
                v.span(),
                e.key("absent"),
                format!(
                    "{}: an entry gone for good sits out no number of battles; keep `gone` \
                     or `absent`, not both",
                    e.place("absent")
                ),
            );
        }
        if gone.is_none() && absent.is_none() {
            return None;
        }
        Some(Away {
            kind,
            id: id?.to_string(),
            name: name?.to_string(),
            gone: gone.flatten(),
            absent: absent.flatten().unwrap_or(0),
        })
    }
}

/// The most battles a wounded entry may still sit out (`absent`).
pub(crate) const MAX_ABSENT: i64 = 9;

pub(crate) fn valid_id(s: &str) -> bool {
    s.len() <= MAX_ID_LEN
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// "integer 5", "a table", "string \"x\"" for type errors.
pub fn describe(value: &Value, src: &Src) -> String {
    let shown = src.shown(value.span());
    match value.get_ref() {
        DeValue::Table(_) => "a table".to_string(),
        DeValue::Array(_) => format!("an array {shown}"),
        DeValue::String(_) => format!("the string {shown}"),
        other => format!("{} {shown}", other.type_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::Src;

    /// Positions are 1-based lines and columns in characters, as an
    /// editor shows them: after a newline, on it, and past a wide letter.
    #[test]
    fn a_position_is_its_line_and_column() {
        let src = Src {
            file: "x.toml",
            text: "a = 1\nné = 2\n\nz",
            lines: std::cell::OnceCell::new(),
        };
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(5), (1, 6));
        assert_eq!(src.line_col(6), (2, 1));
        assert_eq!(src.line_col(9), (2, 3));
        assert_eq!(src.line_col(14), (3, 1));
        assert_eq!(src.line_col(15), (4, 1));
        assert_eq!(src.line_col(99), (4, 2));
        // Inside a letter: the letter's own column.
        assert_eq!(src.line_col(8), (2, 2));
    }
}
