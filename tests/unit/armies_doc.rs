//! The army-list format is documented where users look (issue 16): the
//! manual page drumhead-armies(5), `help armies` and `drumhead new-army`
//! are written from each rule system's schema and doc, and these tests
//! hold the doc to the reader: every key the reader takes is on the page,
//! every word the page offers is the reader's, every number range is the
//! one the reader enforces. That every template checks and loads, and
//! what `new-army` and `help armies` print, is run in
//! tests/suite/armies_doc.rs.

use std::path::Path;

use crate::army::doc::{self, KeyType, Need};
use crate::army::{ARMY_KEYS, Schemas, one_of, parse_army};
use crate::command::System;
use crate::system::RuleSystem;

fn schemas() -> Schemas {
    crate::game::schemas_of(&crate::systems::all())
}

/// Every shipped book with its rule system.
fn books() -> Vec<(System, &'static dyn RuleSystem)> {
    let registry = crate::systems::all();
    registry
        .systems()
        .flat_map(|s| s.books().iter().map(move |b| (*b, s)))
        .collect()
}

fn page() -> String {
    crate::cli::manpage::armies_5(&crate::systems::all())
}

/// roff writes `-` as `\-`.
fn roff(word: &str) -> String {
    word.replace('-', "\\-")
}

/// The part of the page from the `.SH`/`.SS` line starting with `head` to
/// the next heading of the same level.
fn part<'a>(page: &'a str, level: &str, head: &str) -> &'a str {
    // roff quotes a heading with spaces.
    let start = page
        .find(&format!("{level} {head}"))
        .or_else(|| page.find(&format!("{level} \"{head}")))
        .unwrap_or_else(|| panic!("no {level} {head} in the page"));
    let rest = &page[start + 1..];
    let end = rest
        .find(&format!("\n{level} "))
        .map_or(page.len(), |i| start + 1 + i);
    &page[start..end]
}

/// The brief's own test: a key any section of any system accepts that is
/// missing from drumhead-armies(5) fails here. Each key is looked for in
/// its own system's part and its own section, as a bold key.
#[test]
fn every_key_every_reader_takes_is_on_the_page() {
    let page = page();
    let army = part(&page, ".SH", "THE [army] TABLE");
    for key in ARMY_KEYS {
        assert!(army.contains(&format!("\\fB{key}\\fR")), "[army] {key}");
    }
    let mut seen = 0;
    for system in crate::systems::all().systems() {
        let title = system.name().to_uppercase();
        let sys = part(&page, ".SH", &roff(&title));
        for book in system.books() {
            for section in system.army().sections(*book) {
                let sec = part(sys, ".SS", &format!("[[{}]]", section.name));
                for key in section.keys {
                    assert!(
                        sec.contains(&format!("\\fB{key}\\fR = ")),
                        "{} [[{}]] {key} is not on drumhead-armies(5)",
                        book.id(),
                        section.name
                    );
                    seen += 1;
                }
            }
        }
    }
    // drums 5 + 12, mayhem 16, saber 8 + 6 twice: the walk saw them all.
    assert!(seen >= 5 + 12 + 16 + 2 * (8 + 6), "{seen}");
}

/// A doc may not describe a key its reader would refuse as unknown, and
/// every key and word it describes says what it means.
#[test]
fn the_doc_describes_only_keys_the_reader_takes_and_each_has_a_meaning() {
    for (book, system) in books() {
        let schema = system.army();
        let own = schema.doc(book).expect("every shipped system has a doc");
        for sdoc in &own.sections {
            let section = schema
                .sections(book)
                .iter()
                .find(|s| s.name == sdoc.name)
                .unwrap_or_else(|| panic!("{}: no section {}", book.id(), sdoc.name));
            for key in &sdoc.keys {
                assert!(
                    section.keys.contains(&key.key),
                    "{} [[{}]] documents {}, which the reader does not take",
                    book.id(),
                    sdoc.name,
                    key.key
                );
            }
        }
        for (section, sdoc) in doc::sections(schema, book) {
            assert!(!sdoc.about.is_empty(), "{} {}", book.id(), section.name);
            assert!(!sdoc.examples.is_empty(), "{} {}", book.id(), section.name);
            for key in &sdoc.keys {
                assert!(
                    !key.about.is_empty(),
                    "{} [[{}]] {} has no description",
                    book.id(),
                    section.name,
                    key.key
                );
                for choice in key.ty.choices() {
                    assert!(
                        !choice.meaning.is_empty(),
                        "{} [[{}]] {} = {:?} has no meaning",
                        book.id(),
                        section.name,
                        key.key,
                        choice.word
                    );
                }
            }
        }
    }
}

/// The first entry of `section` in `doc` that has `key`, else the first.
fn entry_with(doc: &toml::Table, section: &str, key: &str) -> usize {
    doc[section]
        .as_array()
        .expect("entries")
        .iter()
        .position(|e| e.as_table().is_some_and(|t| t.contains_key(key)))
        .unwrap_or(0)
}

/// The example list with one value of one entry changed (and the key it
/// stands instead of removed).
fn probe(
    base: &toml::Table,
    section: &str,
    index: usize,
    key: &str,
    value: toml::Value,
    instead_of: Option<&str>,
) -> String {
    let mut doc = base.clone();
    let entry = doc
        .get_mut(section)
        .and_then(|s| s.as_array_mut())
        .and_then(|a| a.get_mut(index))
        .and_then(|e| e.as_table_mut())
        .expect("the entry");
    entry.insert(key.to_string(), value);
    if let Some(other) = instead_of {
        entry.remove(other);
    }
    toml::to_string(&doc).expect("a TOML document")
}

/// Keys whose most is also bounded by another key of the entry: (key,
/// the other key, set to the key's most, a key it replaces).
const BOUNDED_BY: &[(&str, &str, &str)] = &[("lost", "figures", "bases")];

/// Every number range the page gives is the reader's: its ends load, one
/// past either end is refused at that key.
#[test]
fn every_number_range_on_the_page_is_the_readers() {
    let schemas = schemas();
    let mut probed = 0;
    for (book, system) in books() {
        let schema = system.army();
        let text = doc::template(schema, book, false);
        let base: toml::Table = text.parse().expect("the example is TOML");
        parse_army("example.toml", &text, &schemas).expect("the example loads");
        for (section, sdoc) in doc::sections(schema, book) {
            for key in &sdoc.keys {
                let KeyType::Int { min, max, .. } = key.ty else {
                    continue;
                };
                if matches!(key.need, Need::Refused(_)) {
                    continue;
                }
                let i = entry_with(&base, section.name, key.key);
                let instead = match key.need {
                    Need::Either(other) => Some(other),
                    _ => None,
                };
                let at = format!("{}[{}].{}", section.name, i + 1, key.key);
                for (n, ok) in [(min, true), (max, true), (min - 1, false), (max + 1, false)] {
                    let mut list = probe(
                        &base,
                        section.name,
                        i,
                        key.key,
                        toml::Value::Integer(n),
                        instead,
                    );
                    // A key bounded by another too (`lost`: at most the
                    // unit's size) is probed on an entry the other allows:
                    // counted in as many figures as the most it may lose.
                    if let Some((other, removed)) = BOUNDED_BY
                        .iter()
                        .find_map(|(k, o, r)| (*k == key.key && n >= 1).then_some((*o, *r)))
                    {
                        let doc: toml::Table = list.parse().expect("the probe is TOML");
                        list = probe(
                            &doc,
                            section.name,
                            i,
                            other,
                            toml::Value::Integer(max),
                            Some(removed),
                        );
                    }
                    match (parse_army("probe.toml", &list, &schemas), ok) {
                        (Ok(_), true) => {}
                        (Err(e), false) => {
                            assert_eq!(e.key, at, "{}: {at} = {n}: {e}", book.id());
                            assert!(e.message.contains("out of range"), "{e}");
                        }
                        (Ok(_), false) => {
                            panic!(
                                "{}: {at} = {n} loads, but the page says {min} to {max}",
                                book.id()
                            )
                        }
                        (Err(e), true) => {
                            panic!(
                                "{}: {at} = {n} is refused ({e}), but the page says {min} to {max}",
                                book.id()
                            )
                        }
                    }
                }
                probed += 1;
            }
        }
    }
    // bases, figures, a campaign's lost; courage, saves, rerolls, a
    // campaign's absent; cf, mr, ma, steps, charge, attack, defence, range,
    // the three reduced_, the leader's four and the HQ's and trains' MA, a
    // unit's and a leader's formation number, for both Musket & Saber books.
    assert_eq!(probed, 3 + 4 + 2 * 19, "int keys probed");
}

/// Every word list on the page is the reader's: a word it does not know is
/// refused with exactly the page's words as what was expected.
#[test]
fn every_word_list_on_the_page_is_the_readers() {
    let schemas = schemas();
    let mut probed = 0;
    for (book, system) in books() {
        let schema = system.army();
        let text = doc::template(schema, book, false);
        let base: toml::Table = text.parse().expect("the example is TOML");
        let words_of =
            |ty: &KeyType| -> Vec<&str> { ty.choices().iter().map(|c| c.word).collect() };

        let rules = doc::army_keys(&crate::systems::all().books());
        let rules = rules.iter().find(|k| k.key == "rules").expect("rules");
        let mut doc = base.clone();
        doc["army"]
            .as_table_mut()
            .expect("[army]")
            .insert("rules".into(), toml::Value::String("zzz".into()));
        let e = parse_army("p.toml", &toml::to_string(&doc).unwrap(), &schemas).unwrap_err();
        assert!(
            e.message
                .ends_with(&format!("expected {}", one_of(&words_of(&rules.ty)))),
            "{e}"
        );

        for (section, sdoc) in doc::sections(schema, book) {
            for key in &sdoc.keys {
                let (words, list) = match &key.ty {
                    KeyType::Word(_) => (words_of(&key.ty), false),
                    KeyType::Words(_) => (words_of(&key.ty), true),
                    _ => continue,
                };
                let i = entry_with(&base, section.name, key.key);
                let bad = toml::Value::String("zzz".into());
                let value = if list {
                    toml::Value::Array(vec![bad])
                } else {
                    bad
                };
                let text = probe(&base, section.name, i, key.key, value, None);
                let e = parse_army("probe.toml", &text, &schemas).unwrap_err();
                assert_eq!(e.key, format!("{}[{}].{}", section.name, i + 1, key.key));
                assert!(
                    e.message.ends_with(&format!("expected {}", one_of(&words))),
                    "{}: the page's words for {} are {words:?}; the reader says: {e}",
                    book.id(),
                    key.key
                );
                probed += 1;
            }
        }
    }
    // drums: ability, traits, arm, class, formation, weapon, doctrine;
    // mayhem: rank, armament, weapon; saber: type, twice.
    assert_eq!(probed, 7 + 3 + 2, "word keys probed");
}

#[test]
fn the_page_gives_every_word_and_an_example_per_book() {
    let page = page();
    for (book, system) in books() {
        let sys = part(&page, ".SH", &roff(&system.name().to_uppercase()));
        for (_, sdoc) in doc::sections(system.army(), book) {
            for key in &sdoc.keys {
                for c in key.ty.choices() {
                    assert!(
                        sys.contains(&format!("\\fB{}\\fR", roff(c.word))),
                        "{} {} {}",
                        book.id(),
                        key.key,
                        c.word
                    );
                }
            }
        }
        let example = part(sys, ".SS", &format!("Example ({})", book.id()));
        assert!(
            example.contains(&format!("rules = \"{}\"", roff(book.id()))),
            "{example}"
        );
    }
    // The other pages point to it.
    assert!(crate::cli::manpage::drumhead_1().contains("drumhead\\-armies"));
    assert!(crate::cli::manpage::drumhead_1().contains("new\\-army"));
}

/// Knowing the rule systems, `help armies` lists every section and key of
/// the active book but the refused ones, each with whether it is required
/// and what it takes.
#[test]
fn help_armies_with_the_systems_lists_every_key() {
    let tables = crate::systems::embedded().unwrap();
    let catalog = crate::session::catalog(&tables);
    for (book, system) in books() {
        let out = crate::help::armies(&catalog, Some(tables.registry()), book);
        for section in system.army().sections(book) {
            assert!(out.contains(&format!("\n[[{}]]\n", section.name)), "{out}");
        }
        for (section, sdoc) in doc::sections(system.army(), book) {
            // This section's block: from its head to the next blank line.
            let head = format!("\n[[{}]]\n", section.name);
            let block = out.split(&head).nth(1).unwrap_or_default();
            let block = block.split("\n\n").next().unwrap_or_default();
            for key in &sdoc.keys {
                let line = block
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{} ", key.key)));
                match key.need {
                    Need::Refused(_) => assert!(line.is_none(), "{}", key.key),
                    _ => assert!(
                        line.is_some_and(|l| l.contains(&key.ty.describe())),
                        "{}: help armies lacks {}:\n{out}",
                        book.id(),
                        key.key
                    ),
                }
            }
        }
    }
    // The rule's words reach it: Drums and Muskets classes, and the
    // formation a unit starts in, required.
    let out = crate::help::armies(
        &catalog,
        Some(tables.registry()),
        tables.book("drums").unwrap(),
    );
    assert!(
        out.contains("class") && out.contains("determined, lackluster, zealous or guards"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("formation") && l.contains("required")),
        "{out}"
    );
    // Under saber-quickplay artillery has a morale rating too.
    let out = crate::help::armies(
        &catalog,
        Some(tables.registry()),
        tables.book("saber-quickplay").unwrap(),
    );
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("mr ") && l.contains("required;")),
        "{out}"
    );
}

#[test]
fn the_committed_page_is_in_man() {
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("man/drumhead-armies.5"),
    )
    .expect("man/drumhead-armies.5; regenerate with cargo run -- man man");
    assert!(
        committed == page(),
        "man/drumhead-armies.5 differs from what the program generates; \
         regenerate with: cargo run -- man man"
    );
}
