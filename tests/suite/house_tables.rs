//! Issue 16: house rules that need not copy everything. A `--tables DIR`
//! file merges over the embedded table of the same name, `drumhead tables
//! export DIR` writes the embedded files to start from, and a misnamed
//! table file in DIR is refused with the name it most likely meant.

use crate::common;

use std::path::Path;

use drumhead::error::TableError;
use drumhead::tables::TableSource;

/// A fresh directory of its own for each test.
fn scratch(name: &str) -> common::game::Scratch {
    common::game::temp_dir(&format!("house-tables-{name}"))
}

fn house(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("house file written");
    }
}

fn drums(dir: &Path) -> Result<drumhead::drums::Tables, TableError> {
    drumhead::drums::Tables::load(&TableSource::dir(dir)?)
}

fn load(dir: &Path) -> Result<drumhead::system::Tables, TableError> {
    drumhead::systems::all().load(&TableSource::dir(dir)?)
}

fn embedded_drums() -> drumhead::drums::Tables {
    drumhead::drums::Tables::embedded().expect("embedded tables load")
}

fn debug<T: std::fmt::Debug>(value: &T) -> String {
    format!("{value:?}")
}

#[test]
fn one_value_changes_hits_per_base_and_nothing_else() {
    let dir = scratch("one-value");
    house(&dir, &[("drums.toml", "[hits]\nper_base = 4\n")]);
    let embedded = embedded_drums();
    // "If using bases, then for each 6 hits received then 1 base is removed."
    assert_eq!(embedded.drums.hits.per_base, 6);
    let tables = drums(&dir).expect("a file naming one value loads");
    assert_eq!(tables.drums.hits.per_base, 4);
    // Nothing else moved: the whole tables, with that one value put back,
    // are the embedded ones.
    let mut back = tables.clone();
    std::rc::Rc::make_mut(&mut back.drums).hits.per_base = 6;
    assert_eq!(debug(&back.drums), debug(&embedded.drums));
    assert_eq!(debug(back.drums_pools()), debug(embedded.drums_pools()));

    // Through the program: 13 hits at 6 a base remove 2 bases and carry 1;
    // at 4 a base, 3 bases and 1 carried.
    let dir_arg = dir.display().to_string();
    let (code, out, err) = common::run(&["--json", "hits 13"], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(r#""per_base":6"#) || out.contains("2 bases"),
        "{out}"
    );
    let (code, out, err) = common::run(&["--tables", &dir_arg, "hits 13"], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("4 hits a base"), "{out}");
    assert!(out.contains("remove 3 bases; 1 hit carried"), "{out}");
    // Another verb answers as without house rules.
    let line = "hold rolled 3 4";
    assert_eq!(
        common::run(&["--tables", &dir_arg, line], ""),
        common::run(&[line], "")
    );
}

#[test]
fn tables_merge_key_by_key_and_arrays_replace_whole() {
    let dir = scratch("deep");
    // A table named in the house file keeps the keys it does not name.
    house(&dir, &[("drums.toml", "[resilience]\ndice = \"1D12\"\n")]);
    let embedded = embedded_drums();
    let tables = drums(&dir).expect("loads");
    // "Resilience Situation Adjustment Table (Throw 2D6/1D12 for the unit and adjust)."
    let (old, new) = (&embedded.drums.resilience, &tables.drums.resilience);
    assert_ne!(debug(&old.dice), debug(&old.alternative_dice));
    assert_eq!(debug(&new.dice), debug(&old.alternative_dice));
    assert_eq!(debug(&new.alternative_dice), debug(&old.alternative_dice));
    assert_eq!(debug(&new.adjustment), debug(&old.adjustment));
    assert_eq!(debug(&new.outcome), debug(&old.outcome));
    assert_eq!(debug(&tables.drums.hold), debug(&embedded.drums.hold));

    // An array of tables is a value like any other: the house rows are the
    // whole table.
    house(
        &dir,
        &[(
            "drums.toml",
            "[[resilience.adjustment]]\nkeyword = \"determined\"\nrow = \"Are classed as Determined\"\nshooting = 3\n",
        )],
    );
    let tables = drums(&dir).expect("loads");
    let rows = &tables.drums.resilience.adjustment;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].shooting, Some(3));
    assert_eq!(rows[0].charge_or_melee, None);
    assert!(embedded.drums.resilience.adjustment.len() > 1);
    assert_eq!(
        debug(&tables.drums.resilience.outcome),
        debug(&embedded.drums.resilience.outcome)
    );
}

#[test]
fn a_merged_file_is_still_checked_with_file_and_key() {
    let dir = scratch("checked");
    let file = dir.join("drums.toml").display().to_string();
    let error = |text: &str| {
        house(&dir, &[("drums.toml", text)]);
        drums(&dir).expect_err("refused").to_string()
    };
    assert_eq!(
        error("[hits]\nper_base = 0\n"),
        format!("{file}: hits.per_base: must be at least 1")
    );
    assert_eq!(
        error("[hits]\nper_bse = 4\n"),
        format!("{file}:2:1: unknown field `per_bse`, expected `per_base`")
    );
    assert_eq!(
        error("[hits]\nper_base = \"four\"\n"),
        format!("{file}:2:12: invalid type: string \"four\", expected u32")
    );
    assert_eq!(
        error("[hits]\nper_base = 99999999999\n"),
        format!(
            "{file}: hits.per_base: 99999999999 is out of range: numbers in the tables are at most {} either way",
            drumhead::tables::MAX_TABLE_NUMBER
        )
    );
    assert!(error("[hits\n").starts_with(&format!("{file}:1:")));
    // A row replaced by one missing a key the table needs.
    let missing = error("[[resilience.adjustment]]\nkeyword = \"determined\"\n");
    assert!(
        missing.starts_with(&format!("{file}:1:")) && missing.contains("missing field `row`"),
        "{missing}"
    );
}

#[test]
fn export_then_tables_dir_gives_the_same_answers() {
    let root = scratch("export");
    let dir = root.join("new").join("house");
    let dir_arg = dir.display().to_string();
    let (code, out, err) = common::run(&["tables", "export", &dir_arg], "");
    assert_eq!(code, Some(0), "{err}");
    let files = drumhead::systems::all().table_files();
    for file in &files {
        let path = dir.join(file.name);
        assert_eq!(
            std::fs::read_to_string(&path).expect("exported"),
            file.embedded,
            "{}",
            file.name
        );
        assert!(out.contains(&format!("wrote {}", path.display())), "{out}");
    }
    // The example CRT under the name --tables reads it by.
    assert!(dir.join("crt.toml").is_file());
    assert!(!dir.join("saber-example-crt.toml").exists());

    let same = |tables: &[&str]| {
        for (book, line) in lines() {
            let mut args = vec!["--rules", book.as_str(), "--seed", "16", "--json"];
            args.extend_from_slice(tables);
            let house = common::run(&args, &line);
            let plain = common::run(&args[..5], &line);
            assert!(house.1.lines().count() > 10, "{book}");
            assert!(house == plain, "{book}: the answers differ with {tables:?}");
        }
    };
    same(&["--tables", &dir_arg]);
    // The same files edited (a comment added) go through the merge: every
    // value the house names is the embedded one, so again nothing changes.
    // (Not the CRT: a CRT file is read whole, never merged, and an edited
    // one is the folio's, without the example's warning.)
    for file in files.iter().filter(|f| f.name != "crt.toml") {
        let path = dir.join(file.name);
        let text = std::fs::read_to_string(&path).expect("exported");
        std::fs::write(&path, format!("{text}\n# house rules\n")).expect("edited");
    }
    same(&["--tables", &dir_arg]);
}

/// Every example line of every verb, with its help, by book.
fn lines() -> Vec<(String, String)> {
    let tables = drumhead::systems::embedded().expect("embedded tables load");
    let mut by_book: Vec<(String, String)> = Vec::new();
    for book in tables.books() {
        let mut text = String::new();
        for verb in tables.verbs() {
            if verb.system.is_some_and(|s| s != book) {
                continue;
            }
            text.push_str(&format!("help {}\n", verb.name));
            for example in verb.examples {
                text.push_str(example);
                text.push('\n');
            }
        }
        by_book.push((book.id().to_string(), text));
    }
    by_book
}

#[test]
fn export_refuses_to_overwrite_unless_forced() {
    let dir = scratch("force");
    house(&dir, &[("drums.toml", "[hits]\nper_base = 4\n")]);
    let dir_arg = dir.display().to_string();
    let (code, out, err) = common::run(&["tables", "export", &dir_arg], "");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        err.contains(&format!(
            "{}: already exists; give --force to overwrite it",
            dir.join("drums.toml").display()
        )),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    // Nothing was written: neither the house file nor the others.
    assert_eq!(
        std::fs::read_to_string(dir.join("drums.toml")).expect("kept"),
        "[hits]\nper_base = 4\n"
    );
    assert!(!dir.join("mayhem.toml").exists());

    let (code, _, err) = common::run(&["tables", "export", "--force", &dir_arg], "");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        drums(&dir).expect("loads").drums.hits.per_base,
        6,
        "the embedded value is back"
    );
    assert!(dir.join("mayhem.toml").is_file());
}

#[test]
fn a_misnamed_table_file_is_an_error_naming_the_nearest() {
    for (name, meant) in [
        ("drumz.toml", "drums.toml"),
        ("Drums.toml", "drums.toml"),
        ("DRUMS.TOML", "drums.toml"),
        ("mayhen.toml", "mayhem.toml"),
        ("saber_quickplay.toml", "saber-quickplay.toml"),
        ("saber-example-crt.toml", "crt.toml"),
    ] {
        let dir = scratch("misnamed");
        house(&dir, &[(name, "[hits]\nper_base = 4\n")]);
        let error = load(&dir).expect_err(name).to_string();
        assert!(
            error.starts_with(&format!(
                "{}: not a table file drumhead reads; did you mean `{meant}`?",
                dir.join(name).display()
            )),
            "{name}: {error}"
        );
        // And through the program, before any command runs.
        let (code, _, err) = common::run(&["--tables", &dir.display().to_string(), "hold"], "");
        assert_eq!(code, Some(2));
        assert!(err.contains(&format!("did you mean `{meant}`?")), "{err}");
    }
}

#[test]
fn files_that_are_not_toml_are_left_alone() {
    let dir = scratch("readme");
    house(
        &dir,
        &[
            ("README", "our club's house rules"),
            ("notes.txt", "per_base = 4 from 1809 on"),
            ("drums.toml", "[hits]\nper_base = 4\n"),
        ],
    );
    std::fs::create_dir_all(dir.join("old.toml")).expect("a directory");
    load(&dir).expect("README and notes are not table files");
    assert_eq!(drums(&dir).expect("loads").drums.hits.per_base, 4);
}

#[test]
fn check_reads_a_table_file_alone() {
    // A house file beside an army list: `check` reads the table file merged
    // over the embedded tables, and the list as a list.
    let dir = scratch("check");
    house(&dir, &[("drums.toml", "[hits]\nper_base = 4\n")]);
    let list = dir.join("my-army.toml");
    let (code, _, err) = common::run(
        &["new-army", "drums", "-o", &list.display().to_string()],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    let table = dir.join("drums.toml").display().to_string();
    let (code, out, err) = common::run(&["check", &table], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&format!("{table}: tables ok")), "{out}");
    house(&dir, &[("drums.toml", "[hits]\nper_base = 0\n")]);
    let (code, _, err) = common::run(&["check", &table], "");
    assert_eq!(code, Some(1));
    assert!(
        err.contains(&format!("{table}: hits.per_base: must be at least 1")),
        "{err}"
    );
}
