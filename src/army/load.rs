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

use super::{Army, Figure, General, Leader, Unit};
use crate::bind::nearest;
use crate::command::System;

/// At most this many generals, units, figures and leaders in one list.
pub const MAX_ENTRIES: usize = 1000;
/// At most this many bytes in one list file.
pub const MAX_BYTES: usize = 1 << 20;
/// At most this many characters in an id.
pub const MAX_ID_LEN: usize = 40;
/// At most this many characters in a name or side.
pub const MAX_NAME_LEN: usize = 200;

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

/// Read and check one list file.
pub fn load_army(path: &Path) -> Result<Army, ArmyError> {
    let file = path.display().to_string();
    let text = read_list(path)?;
    parse_army(&file, &text)
}

/// Check one list given as text; `file` is only used in messages and
/// kept in [`Army::file`].
pub fn parse_army(file: &str, text: &str) -> Result<Army, ArmyError> {
    parse_with_ids(file, text).map(|(army, _)| army)
}

/// Several lists together; ids must be unique across all of them.
pub fn load_armies(paths: &[&Path]) -> Result<Vec<Army>, ArmyError> {
    check_files(paths).into_iter().collect()
}

/// Check several list files together, one result per file in order:
/// the loaded list, or the first problem in it. Ids must be unique
/// across all the lists; a repeated id is reported in the later file.
pub fn check_files(paths: &[&Path]) -> Vec<Result<Army, ArmyError>> {
    let mut seen: HashMap<String, (String, usize)> = HashMap::new();
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let file = path.display().to_string();
        let loaded = read_list(path).and_then(|text| {
            let (army, ids) = parse_with_ids(&file, &text)?;
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
    let mut parts = Vec::new();
    for (n, what) in [
        (army.generals.len(), "general"),
        (army.units.len(), "unit"),
        (army.figures.len(), "figure"),
        (army.leaders.len(), "leader"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}{}", if n == 1 { "" } else { "s" }));
        }
    }
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
    };
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read the list: {e}")))?;
    if meta.len() > MAX_BYTES as u64 {
        return Err(fail(format!(
            "the file is {} bytes; an army list may be at most {MAX_BYTES} bytes",
            meta.len()
        )));
    }
    std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read the list: {e}")))
}

/// (id, key of the id, line, column) for every entry, in file order.
type IdPlaces = Vec<(String, String, usize, usize)>;

fn parse_with_ids(file: &str, text: &str) -> Result<(Army, IdPlaces), ArmyError> {
    let src = Src { file, text };
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
    let army = ck.document(doc.get_ref());
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

// ---------------------------------------------------------------------
// Vocabulary (rule words), per system.

const SECTIONS: &[&str] = &["army", "general", "unit", "figure", "leader"];
const ARMY_KEYS: &[&str] = &["name", "rules", "side"];
const RULES: &[&str] = &["drums", "mayhem", "saber", "saber-quickplay"];

const GENERAL_KEYS: &[&str] = &["id", "name", "ability", "traits", "commander"];
const ABILITIES: &[&str] = &["exceptional", "ordinary", "incompetent"];
const TRAITS: &[&str] = &["inspiring", "hated"];

const DRUMS_UNIT_KEYS: &[&str] = &[
    "id",
    "name",
    "arm",
    "heavy",
    "lancers",
    "class",
    "formation",
    "weapon",
    "bases",
    "doctrine",
    "general",
];
const SABER_UNIT_KEYS: &[&str] = &["id", "name", "cf", "mr", "ma", "steps", "formation", "type"];
const ARMS: &[&str] = &["foot", "cavalry", "artillery", "irregular"];
const CLASSES: &[&str] = &["determined", "lackluster", "zealous", "guards"];
const FORMATIONS: &[&str] = &[
    "open",
    "line",
    "column-of-attack",
    "column-of-march",
    "square",
    "formed",
    "limbered",
    "unlimbered",
];
const DRUMS_WEAPONS: &[&str] = &[
    "carbine",
    "musket",
    "rifle",
    "minie",
    "field-artillery",
    "position-artillery",
];
const DOCTRINES: &[&str] = &["light-company", "two-rank"];
/// Largest number of bases (or figures) in one Drums and Muskets unit.
const MAX_BASES: i64 = 100;

const FIGURE_KEYS: &[&str] = &[
    "id",
    "name",
    "courage",
    "rank",
    "armament",
    "weapon",
    "leader",
    "shock",
    "bayonet",
    "mounted",
    "saves",
    "rerolls",
    "skill_bonus",
    "impact_bonus",
    "group",
];
const RANKS: &[&str] = &["exceptional-leader", "leader", "soldier", "non-combatant"];
const ARMAMENTS: &[&str] = &["unarmed", "armed", "specialist"];
const MAYHEM_WEAPONS: &[&str] = &["pistol", "musket", "bow", "rifle", "canister", "roundshot"];

const LEADER_KEYS: &[&str] = &["id", "name", "cf", "mr", "mv", "span"];
const SABER_TYPES: &[&str] = &["infantry", "battalion", "cavalry", "squadron", "artillery"];

/// The formations a Drums and Muskets arm can be in (Movement and Charge
/// Distances tables).
fn formations_for(arm: &str) -> &'static [&'static str] {
    match arm {
        "foot" => &[
            "open",
            "line",
            "column-of-attack",
            "column-of-march",
            "square",
        ],
        "cavalry" => &["open", "formed", "column-of-march"],
        "artillery" => &["unlimbered", "limbered"],
        _ => &["open", "column-of-march"],
    }
}

/// The weapons a Drums and Muskets arm can carry (Shooting Table 1:
/// carbines are for dismounted cavalry; the guns are artillery's).
fn weapons_for(arm: &str) -> &'static [&'static str] {
    match arm {
        "foot" => &["musket", "rifle", "minie"],
        "artillery" => &["field-artillery", "position-artillery"],
        _ => &["carbine", "musket", "rifle", "minie"],
    }
}

/// Which kinds of entry a system's lists have.
fn sections_for(system: System) -> &'static [&'static str] {
    match system {
        System::Drums => &["general", "unit"],
        System::Mayhem => &["figure"],
        System::Saber | System::SaberQuickplay => &["unit", "leader"],
    }
}

fn one_of(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

// ---------------------------------------------------------------------
// Positions.

struct Src<'a> {
    file: &'a str,
    text: &'a str,
}

impl Src<'_> {
    /// 1-based line and column (in characters) of a byte offset.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
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
        }
    }

    /// The source text of a value, shortened for messages.
    fn shown(&self, span: Range<usize>) -> String {
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

type Value<'i> = Spanned<DeValue<'i>>;

/// One table being read: `[army]` or one entry.
struct Entry<'t, 'i> {
    table: &'t DeTable<'i>,
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
    fn get(&self, key: &str) -> Option<&'t Value<'i>> {
        self.table.get(key)
    }

    fn key(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    /// `unit[2].bases (unit "gren-2")`
    fn place(&self, key: &str) -> String {
        match &self.label {
            Some(label) => format!("{} ({label})", self.key(key)),
            None => self.key(key),
        }
    }
}

struct Checker<'a> {
    src: Src<'a>,
    errors: Vec<ArmyError>,
    /// Every id read: (id, its key, span of its value).
    ids: Vec<(String, String, Range<usize>)>,
}

impl Checker<'_> {
    fn first_error(&mut self) -> Option<ArmyError> {
        // Stable: at one place, the first complaint made wins.
        self.errors.sort_by_key(|e| (e.line, e.column));
        self.errors.first().cloned()
    }

    fn fail(&mut self, span: Range<usize>, key: String, message: String) {
        let err = self.src.err(span, key, message);
        self.errors.push(err);
    }

    fn type_error(&mut self, e: &Entry, key: &str, value: &Value, expected: &str) {
        let found = describe(value, &self.src);
        self.fail(
            value.span(),
            e.key(key),
            format!("{}: expected {expected}, found {found}", e.place(key)),
        );
    }

    fn missing(&mut self, e: &Entry, key: &str, expected: &str) {
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

    fn string(&mut self, e: &Entry, key: &str) -> Option<Spanned<String>> {
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
    fn text(&mut self, e: &Entry, key: &str, required: bool) -> Option<String> {
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
        Some(s.into_inner())
    }

    fn boolean(&mut self, e: &Entry, key: &str) -> Option<Spanned<bool>> {
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
    fn int(&mut self, e: &Entry, key: &str, min: i64, max: i64, what: &str) -> Option<i64> {
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

    fn keyword_value(
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

    fn keyword(
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
    fn keywords(
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

    // --- the document ---

    fn document(&mut self, doc: &DeTable) -> Option<Army> {
        let top = Entry {
            table: doc,
            header: 0..0,
            path: String::new(),
            label: None,
            unknown_keys: Cell::new(false),
        };
        // Top-level keys.
        let mut unknown = false;
        for (k, _) in doc.iter() {
            let name = k.get_ref().as_ref();
            if !SECTIONS.contains(&name) {
                unknown = true;
                let hint = nearest(name, SECTIONS.iter().copied())
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                self.fail(
                    k.span(),
                    name.to_string(),
                    format!(
                        "{name}: unknown key `{name}` at the top level{hint}; expected [army], \
                         [[general]], [[unit]], [[figure]] or [[leader]]"
                    ),
                );
            }
        }
        let Some(army_value) = top.get("army") else {
            if unknown {
                return None;
            }
            self.fail(
                0..0,
                "army".into(),
                "army: missing the [army] table (name, rules, side)".into(),
            );
            return None;
        };
        let DeValue::Table(army_table) = army_value.get_ref() else {
            let found = describe(army_value, &self.src);
            self.fail(
                army_value.span(),
                "army".into(),
                format!("army: expected the [army] table (name, rules, side), found {found}"),
            );
            return None;
        };
        let head = Entry {
            table: army_table,
            header: army_value.span(),
            path: "army".into(),
            label: None,
            unknown_keys: Cell::new(false),
        };
        self.keys(&head, ARMY_KEYS, &|_| None);
        let name = self.text(&head, "name", true);
        let side = self.text(&head, "side", true);
        let rules = match self.keyword(&head, "rules", RULES, "rule system") {
            Some(r) => System::from_id(r.get_ref()),
            None => {
                if head.get("rules").is_none() {
                    self.missing(
                        &head,
                        "rules",
                        &format!("the rule system: {}", one_of(RULES)),
                    );
                }
                None
            }
        };
        // Without the rule system nothing else can be judged.
        let rules = rules?;

        let mut army = Army {
            file: self.src.file.to_string(),
            name: name.unwrap_or_default(),
            rules,
            side: side.unwrap_or_default(),
            generals: Vec::new(),
            units: Vec::new(),
            figures: Vec::new(),
            leaders: Vec::new(),
        };

        let mut total = 0usize;
        for section in &SECTIONS[1..] {
            let Some(value) = top.get(section) else {
                continue;
            };
            let key_span = doc
                .get_key_value(*section)
                .map_or(value.span(), |(k, _)| k.span());
            if !sections_for(rules).contains(section) {
                let has = sections_for(rules)
                    .iter()
                    .map(|s| format!("[[{s}]]"))
                    .collect::<Vec<_>>();
                self.fail(
                    key_span,
                    section.to_string(),
                    format!(
                        "{section}: a {} list ({}) has no [[{section}]] entries; it has {}",
                        rules.id(),
                        rules.title(),
                        one_of(&has.iter().map(String::as_str).collect::<Vec<_>>())
                    ),
                );
                continue;
            }
            let items = match value.get_ref() {
                DeValue::Array(items) if items.iter().all(|i| i.get_ref().is_table()) => items,
                _ => {
                    let found = describe(value, &self.src);
                    self.fail(
                        value.span(),
                        section.to_string(),
                        format!(
                            "{section}: expected [[{section}]] entries (an array of tables), \
                             found {found}"
                        ),
                    );
                    continue;
                }
            };
            for (i, item) in items.iter().enumerate() {
                total += 1;
                let path = format!("{section}[{}]", i + 1);
                if total > MAX_ENTRIES {
                    self.fail(
                        item.span(),
                        path.clone(),
                        format!(
                            "{path}: too many entries; a list may hold at most {MAX_ENTRIES} \
                             generals, units, figures and leaders together"
                        ),
                    );
                    return None;
                }
                let Some(table) = item.get_ref().as_table() else {
                    continue;
                };
                let mut e = Entry {
                    table,
                    header: item.span(),
                    path,
                    label: None,
                    unknown_keys: Cell::new(false),
                };
                match *section {
                    "general" => {
                        if let Some(g) = self.general(&mut e) {
                            army.generals.push(g);
                        }
                    }
                    "unit" if rules == System::Drums => {
                        if let Some(u) = self.drums_unit(&mut e) {
                            army.units.push(u);
                        }
                    }
                    "unit" => {
                        if let Some(u) = self.saber_unit(&mut e) {
                            army.units.push(u);
                        }
                    }
                    "figure" => {
                        if let Some(f) = self.figure(&mut e) {
                            army.figures.push(f);
                        }
                    }
                    _ => {
                        if let Some(l) = self.leader(&mut e) {
                            army.leaders.push(l);
                        }
                    }
                }
            }
        }
        self.cross_checks(doc);
        Some(army)
    }

    /// Duplicate ids, lines of command, the force commander.
    fn cross_checks(&mut self, doc: &DeTable) {
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

        let general_ids: Vec<String> = self
            .ids
            .iter()
            .filter(|(_, key, _)| key.starts_with("general["))
            .map(|(id, _, _)| id.clone())
            .collect();
        let generals: Vec<&str> = general_ids.iter().map(String::as_str).collect();
        let mut refs = Vec::new();
        let mut commanders = Vec::new();
        for (section, field) in [("unit", "general"), ("general", "commander")] {
            let Some(DeValue::Array(items)) = doc.get(section).map(Spanned::get_ref) else {
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let Some(table) = item.get_ref().as_table() else {
                    continue;
                };
                let Some(v) = table.get(field) else { continue };
                let label = table
                    .get("id")
                    .and_then(|id| id.get_ref().as_str())
                    .map(|id| format!(" ({section} \"{id}\")"))
                    .unwrap_or_default();
                let key = format!("{section}[{}].{field}", i + 1);
                match v.get_ref() {
                    DeValue::String(s) => refs.push((key, label, s.to_string(), v.span())),
                    DeValue::Boolean(true) => commanders.push((key, label, v.span())),
                    _ => {}
                }
            }
        }
        for (key, label, target, span) in refs {
            if !generals.contains(&target.as_str()) {
                let hint = nearest(&target, generals.iter().copied())
                    .map(|n| format!(" (did you mean \"{n}\"?)"))
                    .unwrap_or_default();
                let known = if generals.is_empty() {
                    "the list has no [[general]] entries".to_string()
                } else {
                    format!("its generals are {}", one_of(&generals))
                };
                self.fail(
                    span,
                    key.clone(),
                    format!("{key}{label}: no general \"{target}\" in this list{hint}; {known}"),
                );
            }
        }
        if let Some((first_key, _, first_span)) = commanders.first().cloned() {
            let (line, _) = self.src.line_col(first_span.start);
            for (key, label, span) in commanders.into_iter().skip(1) {
                self.fail(
                    span,
                    key.clone(),
                    format!(
                        "{key}{label}: a second force commander; {first_key} (line {line}) \
                         is already the force commander, and a list has only one"
                    ),
                );
            }
        }
    }

    // --- entries ---

    fn general(&mut self, e: &mut Entry) -> Option<General> {
        let id = self.id(e);
        self.keys(e, GENERAL_KEYS, &|_| None);
        let name = self.text(e, "name", true);
        let ability = self.keyword(e, "ability", ABILITIES, "ability");
        let traits = self.keywords(e, "traits", TRAITS, "trait");
        if traits.len() > 1 {
            self.fail(
                traits[1].span(),
                e.key("traits"),
                format!(
                    "{}: a general cannot be both inspiring and hated",
                    e.place("traits")
                ),
            );
        }
        let commander = self.boolean(e, "commander");
        Some(General {
            id: id?,
            name: name?,
            ability: ability.map_or_else(|| "ordinary".to_string(), Spanned::into_inner),
            traits: traits.into_iter().map(Spanned::into_inner).collect(),
            commander: commander.is_some_and(|c| *c.get_ref()),
        })
    }

    fn drums_unit(&mut self, e: &mut Entry) -> Option<Unit> {
        let id = self.id(e);
        self.keys(e, DRUMS_UNIT_KEYS, &|k| {
            SABER_UNIT_KEYS.contains(&k).then(|| {
                format!(
                    "`{k}` is a Musket & Saber unit field; a drums (Drums and Muskets) unit \
                     does not have it"
                )
            })
        });
        let name = self.text(e, "name", true);
        let arm = self.keyword(e, "arm", ARMS, "arm");
        if e.get("arm").is_none() {
            self.missing(e, "arm", &format!("the unit's arm: {}", one_of(ARMS)));
        }
        let arm_word = arm.as_ref().map(|a| a.get_ref().as_str());

        let mut flags = [false; 2];
        for (slot, key) in ["heavy", "lancers"].into_iter().enumerate() {
            let Some(flag) = self.boolean(e, key) else {
                continue;
            };
            if *flag.get_ref() && arm_word.is_some_and(|a| a != "cavalry") {
                self.fail(
                    flag.span(),
                    e.key(key),
                    format!(
                        "{}: only cavalry can be {}; this unit's arm is {}",
                        e.place(key),
                        if key == "heavy" { "heavy" } else { "lancers" },
                        arm_word.unwrap_or_default()
                    ),
                );
            }
            flags[slot] = *flag.get_ref();
        }

        let class = self.keywords(e, "class", CLASSES, "class");
        let has = |w: &str| class.iter().find(|c| c.get_ref() == w);
        if let (Some(_), Some(lackluster)) = (has("determined"), has("lackluster")) {
            self.fail(
                lackluster.span(),
                e.key("class"),
                format!(
                    "{}: a unit cannot be classed both determined and lackluster",
                    e.place("class")
                ),
            );
        }

        let formation = self.keyword(e, "formation", FORMATIONS, "formation");
        match (&formation, arm_word) {
            (None, _) if e.get("formation").is_none() => self.missing(
                e,
                "formation",
                &format!(
                    "the unit's formation: {}",
                    one_of(arm_word.map_or(FORMATIONS, formations_for))
                ),
            ),
            (Some(f), Some(a)) if !formations_for(a).contains(&f.get_ref().as_str()) => self.fail(
                f.span(),
                e.key("formation"),
                format!(
                    "{}: {a} cannot be in formation \"{}\"; {a} formations are {}",
                    e.place("formation"),
                    f.get_ref(),
                    one_of(formations_for(a))
                ),
            ),
            _ => {}
        }

        let weapon = self.keyword(e, "weapon", DRUMS_WEAPONS, "weapon");
        if let (Some(w), Some(a)) = (&weapon, arm_word)
            && !weapons_for(a).contains(&w.get_ref().as_str())
        {
            self.fail(
                w.span(),
                e.key("weapon"),
                format!(
                    "{}: {a} cannot carry \"{}\"; {a} weapons are {}",
                    e.place("weapon"),
                    w.get_ref(),
                    one_of(weapons_for(a))
                ),
            );
        }

        let bases = self.int(e, "bases", 1, MAX_BASES, "the number of bases");
        if e.get("bases").is_none() {
            self.missing(
                e,
                "bases",
                &format!("the number of bases, a whole number from 1 to {MAX_BASES}"),
            );
        }
        let doctrine = self.keywords(e, "doctrine", DOCTRINES, "doctrine");
        let general = self.string(e, "general");
        Some(Unit {
            id: id?,
            name: name?,
            arm: Some(arm?.into_inner()),
            heavy: flags[0],
            lancers: flags[1],
            class: class.into_iter().map(Spanned::into_inner).collect(),
            formation: Some(formation?.into_inner()),
            weapon: weapon.map(Spanned::into_inner),
            bases: Some(bases?),
            doctrine: doctrine.into_iter().map(Spanned::into_inner).collect(),
            general: general.map(Spanned::into_inner),
            ..Unit::default()
        })
    }

    fn saber_unit(&mut self, e: &mut Entry) -> Option<Unit> {
        let id = self.id(e);
        self.keys(e, SABER_UNIT_KEYS, &|k| {
            DRUMS_UNIT_KEYS.contains(&k).then(|| {
                format!(
                    "`{k}` is a Drums and Muskets unit field; a Musket & Saber unit does not \
                     have it"
                )
            })
        });
        let name = self.text(e, "name", true);
        let kind = self.keyword(e, "type", SABER_TYPES, "unit type");
        let kind_word = kind.as_ref().map(|k| k.get_ref().as_str());

        let cf = self.int(e, "cf", 0, 30, "the combat factor");
        if e.get("cf").is_none() {
            self.missing(e, "cf", "the combat factor, a whole number from 0 to 30");
        }
        let mut mr = self.int(e, "mr", 1, 6, "the morale rating");
        if e.get("mr").is_none() {
            if kind_word == Some("artillery") {
                // 8.1: artillery is presumed always to have an MR of 6.
                mr = Some(6);
            } else {
                self.missing(e, "mr", "the morale rating, a whole number from 1 to 6");
            }
        }
        // No `ma` (or "V") is a variable movement allowance (4.4).
        let ma = match e.get("ma").map(Spanned::get_ref) {
            Some(DeValue::String(s)) if s == "V" => None,
            _ => self.int(
                e,
                "ma",
                1,
                30,
                "the movement allowance (or \"V\" for a variable one)",
            ),
        };
        let steps = self.int(e, "steps", 1, 2, "the strength steps");
        if let (Some(2), Some(k @ ("cavalry" | "squadron" | "artillery" | "battalion"))) =
            (steps, kind_word)
            && let Some(v) = e.get("steps")
        {
            self.fail(
                v.span(),
                e.key("steps"),
                format!(
                    "{}: {k} units always have one step; only infantry brigades have two",
                    e.place("steps")
                ),
            );
        }
        let formation = match e.get("formation") {
            None => None,
            Some(v) => match v.get_ref() {
                DeValue::String(s) if valid_formation_id(s) => Some(s.to_string()),
                DeValue::Integer(i) if valid_formation_id(i.as_str()) && i.radix() == 10 => {
                    Some(i.as_str().to_string())
                }
                _ => {
                    self.type_error(
                        e,
                        "formation",
                        v,
                        "a formation id such as \"1\", \"0\" (independent) or \"A\" (all): \
                         letters, digits and -, at most 16",
                    );
                    None
                }
            },
        };
        Some(Unit {
            id: id?,
            name: name?,
            formation,
            cf: Some(cf?),
            mr: Some(mr?),
            ma,
            steps,
            kind: kind.map(Spanned::into_inner),
            ..Unit::default()
        })
    }

    fn figure(&mut self, e: &mut Entry) -> Option<Figure> {
        let id = self.id(e);
        self.keys(e, FIGURE_KEYS, &|_| None);
        let name = self.text(e, "name", true);
        let courage = self.int(e, "courage", 1, 6, "a courage value");
        let rank = self.keyword(e, "rank", RANKS, "rank");
        match (e.get("courage"), e.get("rank")) {
            (None, None) => self.missing(
                e,
                "courage",
                &format!("a courage value (1 to 6) or a rank ({})", one_of(RANKS)),
            ),
            (Some(_), Some(r)) => self.fail(
                r.span(),
                e.key("rank"),
                format!(
                    "{}: give courage or rank, not both (rank sets the courage value)",
                    e.place("rank")
                ),
            ),
            _ => {}
        }
        let armament = self.keyword(e, "armament", ARMAMENTS, "armament");
        let weapon = self.keyword(e, "weapon", MAYHEM_WEAPONS, "weapon");
        let mut flags = [false; 4];
        for (slot, key) in ["leader", "shock", "bayonet", "mounted"]
            .into_iter()
            .enumerate()
        {
            flags[slot] = self.boolean(e, key).is_some_and(|b| *b.get_ref());
        }
        let saves = self.int(e, "saves", 0, 20, "hero save tokens");
        let rerolls = self.int(e, "rerolls", 0, 20, "hero reroll tokens");
        let skill = self.int(e, "skill_bonus", 0, 5, "a hero's skill die bonus");
        let impact = self.int(e, "impact_bonus", 0, 5, "a hero's impact die bonus");
        let group = match self.string(e, "group") {
            Some(g) if valid_id(g.get_ref()) => Some(g.into_inner()),
            Some(g) => {
                self.fail(
                    g.span(),
                    e.key("group"),
                    format!(
                        "{}: \"{}\" is not a group name; use lowercase letters, digits and -, \
                         starting with a letter",
                        e.place("group"),
                        g.get_ref()
                    ),
                );
                None
            }
            None => None,
        };
        Some(Figure {
            id: id?,
            name: name?,
            courage,
            rank: rank.map(Spanned::into_inner),
            armament: armament.map_or_else(|| "armed".to_string(), Spanned::into_inner),
            weapon: weapon.map(Spanned::into_inner),
            leader: flags[0],
            shock: flags[1],
            bayonet: flags[2],
            mounted: flags[3],
            saves: saves.unwrap_or(0),
            rerolls: rerolls.unwrap_or(0),
            skill_bonus: skill.unwrap_or(0),
            impact_bonus: impact.unwrap_or(0),
            group,
        })
    }

    fn leader(&mut self, e: &mut Entry) -> Option<Leader> {
        let id = self.id(e);
        self.keys(e, LEADER_KEYS, &|_| None);
        let name = self.text(e, "name", true);
        let cf = self.int(e, "cf", 0, 10, "the leader's combat factor");
        let mr = self.int(e, "mr", 0, 6, "the leader's morale rating");
        let mv = self.int(e, "mv", 0, 12, "the leader's movement value");
        let span = self.int(e, "span", 0, 20, "the leader's command span");
        Some(Leader {
            id: id?,
            name: name?,
            cf,
            mr,
            mv,
            span,
        })
    }
}

fn valid_id(s: &str) -> bool {
    s.len() <= MAX_ID_LEN
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn valid_formation_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 16 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// "integer 5", "a table", "string \"x\"" for type errors.
fn describe(value: &Value, src: &Src) -> String {
    let shown = src.shown(value.span());
    match value.get_ref() {
        DeValue::Table(_) => "a table".to_string(),
        DeValue::Array(_) => format!("an array {shown}"),
        DeValue::String(_) => format!("the string {shown}"),
        other => format!("{} {shown}", other.type_str()),
    }
}
