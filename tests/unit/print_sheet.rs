//! `drumhead sheet SYSTEM`: every row label and value of the tables a
//! system's verbs read is on its sheet, and a value a house rule changed is
//! marked. The task (issue 17): "every table each verb of the system reads,
//! in the rule text's order and words (headings and row labels as the rule
//! text names them), each value a house rule changed marked as such".
//!
//! The tables are walked generically as TOML, so a row added to a table
//! file and left off the sheet fails here. The command that writes the
//! page is run in tests/suite/print_sheet.rs.

use std::path::Path;

use crate::command::System;
use crate::sheet::{Sheet, Table};
use crate::tables::TableSource;

/// Keys whose values are the program's own ids and words (the command
/// language, outcome ids, conditions), not words of the rule text.
const INTERNAL: &[&str] = &[
    "keyword",
    "formations",
    "id",
    "aliases",
    "to",
    "group",
    "side",
    "procedure",
    "table",
    "is",
    "kind_of",
    "limber",
    "unless",
    "own",
    "own_not",
    "opponent",
    "opponent_not",
    "shooter",
    "shooter_not",
    "target",
    "target_not",
    "per",
    "range",
    "outcome",
    "r",
    "c",
    "x",
    "m",
    "e",
    "except_arms",
    "target_formations",
    "formed",
    "allowed",
    "short",
    "name",
];

/// Keys that name a row: the entry's numbers are on that row (or, when the
/// label is a note under a table, in that table).
const LABELS: &[&str] = &["row", "weapon", "moving"];

fn sheet_of(book: &str, source: &TableSource) -> Sheet {
    let registry = crate::systems::all();
    let book = crate::print::book_named(&registry, book).expect("a shipped book");
    crate::print::sheet(&registry, book, source).expect("the sheet is made")
}

/// The table files a book's sheet reads.
fn files_of(book: &str) -> Vec<&'static str> {
    match book {
        "drums" => vec!["drums.toml", "drums-pools.toml"],
        "mayhem" => vec!["mayhem.toml"],
        "saber" => vec!["saber.toml", "crt.toml"],
        "saber-quickplay" => vec!["saber-quickplay.toml", "crt.toml"],
        _ => unreachable!(),
    }
}

fn embedded(name: &str) -> toml::Table {
    let registry = crate::systems::all();
    let file = registry
        .table_files()
        .into_iter()
        .find(|f| f.name == name)
        .expect("a shipped table file");
    file.embedded.parse().expect("embedded TOML")
}

fn table_text(t: &Table) -> String {
    let mut out = vec![t.caption.clone()];
    out.extend(t.heads.iter().cloned());
    for r in &t.rows {
        out.push(r.label.text.clone());
        out.extend(r.cells.iter().map(|c| c.text.clone()));
    }
    out.extend(t.notes.iter().map(|n| n.text.clone()));
    out.join("\n")
}

fn sheet_text(sheet: &Sheet) -> String {
    let mut out = vec![sheet.title.clone()];
    for s in &sheet.sections {
        out.push(s.heading.clone());
        out.extend(s.notes.iter().map(|n| n.text.clone()));
        out.extend(s.tables.iter().map(table_text));
    }
    out.join("\n")
}

/// `n` stands alone in `text` (not the 1 of 12).
fn has_number(text: &str, n: i64) -> bool {
    let needle = n.unsigned_abs().to_string();
    let bytes = text.as_bytes();
    text.match_indices(&needle).any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + needle.len());
        !before.is_some_and(|b| b.is_ascii_digit()) && !after.is_some_and(|b| b.is_ascii_digit())
    })
}

/// The texts a labelled entry's numbers may be in: each row whose label
/// (or a cell) is the label, else each row or table note holding it. Two
/// entries may share a row's label ("Musket/Bow 24"").
fn places_of(sheet: &Sheet, label: &str) -> Vec<String> {
    let row_text = |r: &crate::sheet::Row| {
        let mut text = vec![r.label.text.clone()];
        text.extend(r.cells.iter().map(|c| c.text.clone()));
        text.join("\n")
    };
    let tables = || sheet.sections.iter().flat_map(|s| s.tables.iter());
    let exact: Vec<String> = tables()
        .flat_map(|t| t.rows.iter())
        .filter(|r| r.label.text == label || r.cells.iter().any(|c| c.text == label))
        .map(row_text)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    let mut out: Vec<String> = tables()
        .flat_map(|t| t.rows.iter())
        .filter(|r| r.label.text.contains(label) || r.cells.iter().any(|c| c.text.contains(label)))
        .map(row_text)
        .collect();
    out.extend(
        tables()
            .filter(|t| t.notes.iter().any(|n| n.text.contains(label)))
            .map(table_text),
    );
    for s in &sheet.sections {
        if s.notes.iter().any(|n| n.text.contains(label)) {
            out.push(
                s.notes
                    .iter()
                    .map(|n| n.text.clone())
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
        }
    }
    out
}

/// Every number in an entry: its own and those of its inline tables (the
/// "As unprompted action response" cells are a row of their own, checked
/// as plain values).
fn numbers(entry: &toml::Table) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for (k, v) in entry {
        match v {
            toml::Value::Integer(n) => out.push((k.clone(), *n)),
            toml::Value::Table(inner) if k != "unprompted" => {
                for (k2, v2) in inner {
                    if let Some(n) = v2.as_integer() {
                        out.push((format!("{k}.{k2}"), n));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Walk a TOML value: every string of the rule text is on the sheet, every
/// labelled entry's numbers on its row.
fn walk(path: &str, value: &toml::Value, sheet: &Sheet, text: &str, problems: &mut Vec<String>) {
    let lower = text.to_lowercase();
    match value {
        toml::Value::String(s) => {
            let key = path.rsplit('.').next().unwrap_or(path);
            let key = key.split('[').next().unwrap_or(key);
            if !INTERNAL.contains(&key) && !lower.contains(&s.to_lowercase()) {
                problems.push(format!("{path} = {s:?} is not on the sheet"));
            }
        }
        toml::Value::Integer(n) if !has_number(text, *n) => {
            problems.push(format!("{path} = {n} is not on the sheet"));
        }
        toml::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(&format!("{path}[{i}]"), item, sheet, text, problems);
            }
        }
        toml::Value::Table(table) => {
            if let Some(label) = LABELS
                .iter()
                .find_map(|k| table.get(*k).and_then(|v| v.as_str()))
            {
                let places = places_of(sheet, label);
                if places.is_empty() {
                    problems.push(format!("{path}: row {label:?} is not on the sheet"));
                }
                for (key, n) in numbers(table) {
                    if !places.is_empty() && !places.iter().any(|p| has_number(p, n)) {
                        problems.push(format!(
                            "{path}.{key} = {n} is not on the row {label:?}: {places:?}"
                        ));
                    }
                }
            }
            for (k, v) in table {
                // Other names of a word are help for typing it, not rule
                // text: `help VERB` lists them, the sheet need not.
                if path.is_empty() && k == "aliases" {
                    continue;
                }
                let child = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                walk(&child, v, sheet, text, problems);
            }
        }
        _ => {}
    }
}

fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[test]
fn every_row_label_and_value_of_each_systems_tables_is_on_its_sheet() {
    for book in ["drums", "mayhem", "saber", "saber-quickplay"] {
        let sheet = sheet_of(book, &TableSource::embedded());
        let text = sheet_text(&sheet);
        let mut problems = Vec::new();
        for file in files_of(book) {
            walk(
                "",
                &toml::Value::Table(embedded(file)),
                &sheet,
                &text,
                &mut problems,
            );
        }
        assert!(problems.is_empty(), "{book}:\n{}", problems.join("\n"));
        assert_eq!(
            sheet.house_cells(),
            0,
            "{book}: nothing is house with the embedded tables"
        );
        // The page holds every label, escaped, and no script.
        let html = crate::format::html::render_sheet(&sheet, Default::default());
        for s in &sheet.sections {
            for t in &s.tables {
                for r in &t.rows {
                    assert!(
                        html.contains(&escaped(&r.label.text)),
                        "{book}: {:?}",
                        r.label.text
                    );
                }
            }
        }
        assert!(!html.contains("<script"), "{book}: a sheet has no script");
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "{book}: nothing fetched"
        );
        assert!(html.contains("@page") && html.contains("@media print"));
    }
}

/// The sheets follow their rule texts: headings and a few rows in the
/// rules' own words, in the rules' order.
#[test]
fn sheets_are_in_the_rule_texts_order_and_words() {
    let drums = sheet_of("drums", &TableSource::embedded());
    let headings: Vec<&str> = drums.sections.iter().map(|s| s.heading.as_str()).collect();
    // The quick reference sheets: "Start of Each Turn Initiative", "Risk to
    // Generals", "Hits", "RESILIENCE TESTS", "HOLD TESTS", "CHARGE
    // DISTANCES", "MELEE", "MOVEMENT", "SHOOTING"; then what a campaign
    // carries between battles, which the sheets leave to the players.
    assert_eq!(
        headings,
        [
            "Start of Each Turn Initiative",
            "Risk to Generals",
            "Hits",
            "Resilience Tests",
            "Hold Tests",
            "Charge Distances",
            "Melee",
            "Movement",
            "Shooting",
            "Between Battles (a campaign)"
        ]
    );
    let text = sheet_text(&drums);
    // "| 6 | Stand/Take 1 hit | Stand | Stand/Take 1 hit | Forced Retire |"
    let outcomes = &drums.sections[3].tables[1];
    assert_eq!(outcomes.caption, "Resilience Outcomes Table");
    let six = outcomes
        .rows
        .iter()
        .find(|r| r.label.text == "6")
        .expect("score 6");
    let cells: Vec<&str> = six.cells.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        cells,
        [
            "Stand/Take 1 hit",
            "Stand",
            "Stand/Take 1 hit",
            "Forced Retire"
        ]
    );
    // "| Carbines (dismounted cavalry) | 1D6 for unit | 1BW/4+ | 3BW/6 | NA |"
    assert!(text.contains("1BW/4+") && text.contains("3BW/6"));
    // "| Artillery Limbered | Column of March | Cannot charge |"
    assert!(text.contains("Cannot charge"));
    for caption in [
        "Shooting Table 2a",
        "Foot Melee Factors Table",
        "Table of allowed interpenetrations",
    ] {
        assert!(text.contains(caption), "{caption}");
    }

    let mayhem = sheet_text(&sheet_of("mayhem", &TableSource::embedded()));
    // "4-6 Target in the open checks impact"; "Pistol 12""
    assert!(mayhem.contains("Target in the open checks impact"));
    assert!(mayhem.find("Movement") < mayhem.find("Missile Fire"));
    assert!(mayhem.find("Missile Fire") < mayhem.find("Morale/Courage Checks"));

    let saber = sheet_of("saber", &TableSource::embedded());
    let crt = &saber
        .sections
        .iter()
        .find(|s| s.heading == "Combat Results Table")
        .expect("CRT")
        .tables[0];
    // The example CRT's first row: "Ae", "Am(Ar)", "Ar", "Ac(NE)", …
    assert_eq!(crt.heads.first().map(String::as_str), Some("Die"));
    assert_eq!(crt.rows[0].cells[0].text, "Ae");
    assert_eq!(crt.rows[5].cells[7].text, "De L");
    let quick = sheet_text(&sheet_of("quickplay", &TableSource::embedded()));
    // QuickPlay 11.1: "add three for units with a printed MA greater than 6".
    assert!(quick.contains("add three to the die roll for units with a printed MA greater than 6"));
    assert!(
        !quick.contains("skirmish (7.13 1)"),
        "the standard rules' tactics are not QuickPlay's"
    );
}

fn house_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("written");
    }
    dir
}

/// The Drums and Muskets sheet with one house file: the one cell it marks
/// as a house rule (there must be exactly one).
fn the_one_marked_cell(file: &str, text: &str) -> String {
    let dir = house_dir(&[(file, text)]);
    let sheet = sheet_of("drums", &TableSource::dir(dir.path()).expect("a directory"));
    let mut marked = house_cells(&sheet);
    assert_eq!(marked.len(), 1, "{marked:?}");
    marked.remove(0)
}

fn house_cells(sheet: &Sheet) -> Vec<String> {
    sheet
        .cells()
        .filter(|c| c.house)
        .map(|c| c.text.clone())
        .collect()
}

#[test]
fn a_value_a_house_rule_changed_is_marked() {
    // HOLD TESTS: "If the score is 7 or greater than the unit must charge."
    let marked = the_one_marked_cell("drums.toml", "[hold]\nmust_charge_at = 8\n");
    assert!(
        marked.contains("8 or greater: the unit must charge"),
        "{marked:?}"
    );

    // A whole array of tables given again with one value changed: only that
    // value is marked ("Are classed as Determined | +1 | +2 | +1", the
    // house making the shooting column +2).
    let text = include_str!("../../tables/drums.toml").replacen(
        "row = \"Are classed as Determined\"\nshooting = 1",
        "row = \"Are classed as Determined\"\nshooting = 2",
        1,
    );
    let dir = house_dir(&[("drums.toml", &text)]);
    let sheet = sheet_of("drums", &TableSource::dir(dir.path()).expect("a directory"));
    let determined = &sheet.sections[3].tables[0].rows[0];
    assert_eq!(determined.label.text, "Are classed as Determined");
    let flags: Vec<(&str, bool)> = determined
        .cells
        .iter()
        .map(|c| (c.text.as_str(), c.house))
        .collect();
    assert_eq!(flags, [("+2", true), ("+2", false), ("+1", false)]);
    assert_eq!(sheet.house_cells(), 1);

    // Musket Mayhem's impact die: "6 Target killed", "1-5 Target takes
    // courage check"; a house kill at 5 changes both rows.
    let dir = house_dir(&[("mayhem.toml", "[fire]\nkill_at = 5\n")]);
    let sheet = sheet_of(
        "mayhem",
        &TableSource::dir(dir.path()).expect("a directory"),
    );
    assert_eq!(house_cells(&sheet), ["5-6", "1-4"]);

    // A folio's CRT through --crt: the one cell that differs is marked.
    let crt =
        include_str!("../../tables/saber-example-crt.toml").replacen("[\"Ae\",", "[\"Ar\",", 1);
    let dir = house_dir(&[("my-crt.toml", &crt)]);
    let source = TableSource::embedded().with_file("crt.toml", &dir.path().join("my-crt.toml"));
    let sheet = sheet_of("saber", &source);
    assert_eq!(house_cells(&sheet), ["Ar"]);
}

#[test]
fn the_drums_sheet_gives_the_values_its_verbs_resolve_with() {
    // MELEE: "Base 1D6 per base or figure." The melee pool's own dice per
    // base, not the shooting pool's.
    let marked = the_one_marked_cell("drums-pools.toml", "[melee]\ndice_per_base = 2\n");
    assert!(
        marked.starts_with("Base 2D6 per base or figure."),
        "{marked:?}"
    );

    // A distance spelt another way is the same distance, written in the
    // sheet's words ("Cavalry | Open | 3+2D6"), and not a house rule.
    let text = include_str!("../../tables/drums.toml").replacen(
        "distance = \"3+2D6\"",
        "distance = \"3 + 2d6\"",
        1,
    );
    assert!(text.contains("3 + 2d6"));
    let dir = house_dir(&[("drums.toml", &text)]);
    let sheet = sheet_of("drums", &TableSource::dir(dir.path()).expect("a directory"));
    assert_eq!(house_cells(&sheet), Vec::<String>::new());
    assert!(sheet_text(&sheet).contains("3+2D6"));
}

#[test]
fn every_shipped_book_has_a_sheet() {
    let registry = crate::systems::all();
    let books: Vec<System> = registry.books();
    assert_eq!(books.len(), 4);
    for book in books {
        let sheet =
            crate::print::sheet(&registry, book, &TableSource::embedded()).expect("a sheet");
        assert_eq!(sheet.title, book.title());
        assert!(sheet.sections.len() >= 5, "{}", book.id());
    }
}

/// A ratio CRT given with `--crt` is on the sheet as `attack` reads it:
/// its columns headed as the file writes them ("1:3" … "4:1"), one cell
/// under each, and the note says how the odds are rounded.
#[test]
fn a_ratio_crt_is_headed_by_its_odds() {
    let source = TableSource::embedded().with_file(
        "crt.toml",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/crt/ratio.toml"),
    );
    for book in ["saber", "quickplay"] {
        let sheet = sheet_of(book, &source);
        let crt = sheet
            .sections
            .iter()
            .flat_map(|s| s.tables.iter())
            .find(|t| t.caption.starts_with("Ratio test CRT"))
            .unwrap_or_else(|| panic!("{book}: the CRT is on the sheet"));
        assert_eq!(
            crt.heads,
            ["Die", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1"],
            "{book}"
        );
        assert_eq!(crt.rows.len(), 6, "{book}");
        for row in &crt.rows {
            assert_eq!(row.cells.len(), crt.heads.len() - 1, "{book}");
        }
        assert_eq!(crt.rows[5].cells[5].text, "De", "{book}");
        let notes: Vec<&str> = crt.notes.iter().map(|n| n.text.as_str()).collect();
        let notes = notes.join("\n");
        assert!(
            notes.contains("the odds, attack to defence"),
            "{book}: {notes}"
        );
        assert!(!notes.contains("differential"), "{book}: {notes}");
    }
}
