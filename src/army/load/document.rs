//! The document as a whole: its top-level keys, the `[army]` table that
//! says which rule book it is for, then each section's entries, handed to
//! that book's reader.

use std::rc::Rc;

use std::cell::Cell;

use toml::de::{DeTable, DeValue};

use super::{ARMY_KEYS, Checker, Entry, MAX_ENTRIES, describe, one_of};
use crate::army::{Army, Reader, Schema, Schemas, Section};
use crate::bind::nearest;
use crate::command::System;

/// What the `[army]` table says.
struct Header {
    name: Option<String>,
    side: Option<String>,
    rules: System,
    system_name: &'static str,
    schema: &'static dyn Schema,
}

/// The book a list is read under, and what it takes.
struct Book<'s> {
    rules: System,
    system_name: &'static str,
    own: &'static [Section],
    schemas: &'s Schemas,
}

impl Checker<'_> {
    /// Read a whole list; with `given`, into that reader (a rule system
    /// reading its list again, typed: see [`super::read_again`]).
    pub(super) fn document(
        &mut self,
        doc: &DeTable,
        schemas: &Schemas,
        given: Option<&mut dyn Reader>,
    ) -> Option<Army> {
        let top = Entry {
            table: doc,
            header: 0..0,
            path: String::new(),
            label: None,
            unknown_keys: Cell::new(false),
        };
        let sections = schemas.section_names();
        let unknown = self.top_level_keys(doc, &sections);
        // Without the rule system nothing else can be judged.
        let header = self.header(&top, unknown, schemas)?;
        let book = Book {
            rules: header.rules,
            system_name: header.system_name,
            own: header.schema.sections(header.rules),
            schemas,
        };
        let mut made = None;
        let reader: &mut dyn Reader = match given {
            Some(reader) => reader,
            None => made.insert(header.schema.reader(header.rules)).as_mut(),
        };
        let mut total = 0usize;
        for section in &sections {
            let Some(value) = top.get(section) else {
                continue;
            };
            let key_span = doc
                .get_key_value(*section)
                .map_or(value.span(), |(k, _)| k.span());
            self.section(&book, section, value, key_span, &mut total, reader)?;
        }
        self.duplicate_ids();
        reader.cross_checks(self, doc);
        Some(Army {
            file: self.src.file.to_string(),
            name: header.name.unwrap_or_default(),
            rules: header.rules,
            side: header.side.unwrap_or_default(),
            text: self.src.text.into(),
            list: match made {
                Some(reader) => reader.finish(),
                // Read again into the caller's reader, which keeps the list.
                None => Rc::new(super::ReadAgain),
            },
        })
    }

    /// Every top-level key that is neither `[army]` nor a section some
    /// book has is refused; true when there was one.
    fn top_level_keys(&mut self, doc: &DeTable, sections: &[&'static str]) -> bool {
        let expected = std::iter::once("[army]".to_string())
            .chain(sections.iter().map(|s| format!("[[{s}]]")))
            .collect::<Vec<_>>();
        let expected = one_of(&expected.iter().map(String::as_str).collect::<Vec<_>>());
        let mut unknown = false;
        for (k, _) in doc.iter() {
            let name = k.get_ref().as_ref();
            if name != "army" && !sections.contains(&name) {
                unknown = true;
                let hint = nearest(
                    name,
                    std::iter::once("army").chain(sections.iter().copied()),
                )
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
                self.fail(
                    k.span(),
                    name.to_string(),
                    format!(
                        "{name}: unknown key `{name}` at the top level{hint}; expected {expected}"
                    ),
                );
            }
        }
        unknown
    }

    /// The `[army]` table; `None` when it is missing, is not a table, or
    /// names no rule system drumhead knows (each reported).
    fn header(&mut self, top: &Entry, unknown: bool, schemas: &Schemas) -> Option<Header> {
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
        let books: Vec<&str> = schemas.0.iter().map(|(b, _, _)| b.id()).collect();
        let rules = match self.keyword(&head, "rules", &books, "rule system") {
            Some(r) => schemas.find(r.get_ref()).copied(),
            None => {
                if head.get("rules").is_none() {
                    self.missing(
                        &head,
                        "rules",
                        &format!("the rule system: {}", one_of(&books)),
                    );
                }
                None
            }
        };
        let (rules, system_name, schema) = rules?;
        Some(Header {
            name,
            side,
            rules,
            system_name,
            schema,
        })
    }

    /// One section's entries, each checked and handed to the reader;
    /// `None` once the list holds more entries than any may.
    fn section(
        &mut self,
        book: &Book,
        section: &str,
        value: &super::Value,
        key_span: std::ops::Range<usize>,
        total: &mut usize,
        reader: &mut dyn Reader,
    ) -> Option<()> {
        let rules = book.rules;
        let Some(keys) = book.own.iter().find(|s| s.name == section).map(|s| s.keys) else {
            let has = book
                .own
                .iter()
                .map(|s| format!("[[{}]]", s.name))
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
            return Some(());
        };
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
                return Some(());
            }
        };
        for (i, item) in items.iter().enumerate() {
            *total += 1;
            let path = format!("{section}[{}]", i + 1);
            if *total > MAX_ENTRIES {
                self.fail(
                    item.span(),
                    path.clone(),
                    format!(
                        "{path}: too many entries; a list may hold at most {MAX_ENTRIES} \
                         entries of all kinds together"
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
            let id = self.id(&mut e);
            let system_name = book.system_name;
            self.keys(&e, keys, &|k| {
                book.schemas.foreign(rules, section, k).map(|other| {
                    format!(
                        "`{k}` is a {other} {section} field; a {system_name} {section} \
                         does not have it"
                    )
                })
            });
            let name = self.text(&e, "name", true);
            reader.entry(section, self, &mut e, id, name);
        }
        Some(())
    }
}
