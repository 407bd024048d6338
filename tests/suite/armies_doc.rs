//! The army-list format as a user meets it (issue 16): `drumhead
//! new-army` writes a template for every book that `check` passes and a
//! game loads, never overwrites a file without `--force`, and `help`
//! points to the template and to drumhead-armies(5). The page itself is
//! held to the reader in tests/unit/armies_doc.rs.

use crate::common;

use common::game::temp_dir;
use common::run;
use drumhead::army::ARMY_KEYS;
use drumhead::army::doc::{self, Need};
use drumhead::command::System;
use drumhead::system::RuleSystem;

/// Every shipped book with its rule system.
fn books() -> Vec<(System, &'static dyn RuleSystem)> {
    let registry = drumhead::systems::all();
    registry
        .systems()
        .flat_map(|s| s.books().iter().map(move |b| (*b, s)))
        .collect()
}

/// `drumhead new-army BOOK` for every book: a list that `check` passes and
/// a game loads, with every key of the book in it (set, or commented out).
#[test]
fn every_template_checks_and_loads_into_a_game() {
    let dir = temp_dir("templates");
    for (book, system) in books() {
        let (code, template, err) = run(&["new-army", book.id()], "");
        assert_eq!(code, Some(0), "{}: {err}", book.id());
        assert!(template.contains(&format!("rules = \"{}\"", book.id())));
        // Not drums.toml: check reads a file of a table's name as tables.
        let file = dir.join(format!("{}-army.toml", book.id()));
        std::fs::write(&file, &template).unwrap();

        let (code, out, err) = run(&["check", file.to_str().unwrap()], "");
        assert_eq!(code, Some(0), "{}: {err}", book.id());
        assert!(
            out.contains(&format!("({}, Your side)", book.id())),
            "{out}"
        );

        let (code, out, err) = run(&["--army", file.to_str().unwrap(), "units"], "");
        assert_eq!(code, Some(0), "{}: {err}", book.id());
        for (section, sdoc) in doc::sections(system.army(), book) {
            for entry in &sdoc.examples {
                let id = entry
                    .iter()
                    .find(|(k, _)| *k == "id")
                    .map(|(_, v)| v.trim_matches('"'))
                    .expect("an id");
                assert!(out.contains(id), "{}: units lacks {id}:\n{out}", book.id());
            }
            for key in &sdoc.keys {
                if matches!(key.need, Need::Refused(_)) {
                    assert!(!template.contains(key.key), "{}", key.key);
                    continue;
                }
                let set = template.contains(&format!("\n{} = ", key.key));
                let shown = template.contains(&format!("\n# {} = ", key.key));
                assert!(
                    set || shown,
                    "{} [[{}]] {} is not in the template",
                    book.id(),
                    section.name,
                    key.key
                );
            }
        }
        // The comments are wrapped to fit a terminal.
        assert!(template.lines().all(|l| l.len() <= 80), "{template}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-o FILE` writes what stdout would have, refuses to overwrite without
/// --force (exit 2, the file unchanged), and replaces it with --force.
#[test]
fn new_army_output_file_is_never_overwritten_without_force() {
    let dir = temp_dir("output");
    let file = dir.join("mine.toml");
    let path = file.to_str().unwrap();
    let (_, stdout, _) = run(&["new-army", "mayhem"], "");

    let (code, out, err) = run(&["new-army", "mayhem", "-o", path], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("wrote") && out.contains("drumhead check"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout);

    std::fs::write(&file, "# my own list\n").unwrap();
    let (code, out, err) = run(&["new-army", "drums", "-o", path], "");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        err.contains("already exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "# my own list\n");

    let (code, _, err) = run(&["new-army", "drums", "--output", path, "--force"], "");
    assert_eq!(code, Some(0), "{err}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("rules = \"drums\""), "{written}");

    // A file named like a table file is written, with a note that check
    // would read it as tables.
    let tables_name = dir.join("drums.toml");
    let (code, _, err) = run(
        &["new-army", "drums", "-o", tables_name.to_str().unwrap()],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("note: drums.toml is also the name of a house-rule table file"),
        "{err}"
    );

    // A directory is never written, even with --force.
    let (code, _, err) = run(
        &["new-army", "drums", "-o", dir.to_str().unwrap(), "--force"],
        "",
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("not a regular file"), "{err}");

    // --force alone (no file) is a usage error, not silently ignored.
    let (code, _, err) = run(&["new-army", "drums", "--force"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("--output"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_book_is_a_usage_error_listing_the_books() {
    let (code, out, err) = run(&["new-army", "napoleonic"], "");
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    for (book, _) in books() {
        assert!(err.contains(book.id()), "{err}");
    }
    let (code, _, err) = run(&["new-army"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("BOOK"), "{err}");
}

/// `help` points to the format: the overview names `help armies` and
/// `new-army`; `help armies` at the prompt gives the keys every list has
/// and points to the template and the page.
#[test]
fn help_points_to_the_template_and_the_page() {
    let (code, out, _) = run(&["help"], "");
    assert_eq!(code, Some(0));
    assert!(
        out.contains("help armies") && out.contains("drumhead new-army drums"),
        "{out}"
    );
    for (book, _) in books() {
        let (code, out, err) = run(&["--rules", book.id(), "help armies"], "");
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains(&format!("new-army {}", book.id())), "{out}");
        assert!(out.contains("man drumhead-armies"), "{out}");
        for key in ARMY_KEYS.iter().chain(&["id"]) {
            assert!(
                out.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{key} "))),
                "{}: help armies lacks {key}:\n{out}",
                book.id()
            );
        }
    }
    let (_, army, _) = run(&["help army"], "");
    let (_, armies, _) = run(&["help armies"], "");
    assert_eq!(army, armies);
}
