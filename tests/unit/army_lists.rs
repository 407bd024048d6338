//! Army lists (SPEC section 5): every shipped list loads; every malformed
//! list is rejected with the line and key at fault and what was expected.

use std::path::{Path, PathBuf};

use crate::army::{Army, ArmyError, MAX_ENTRIES, Schemas};
use crate::{drums, mayhem, saber};

fn schemas() -> Schemas {
    crate::game::schemas_of(&crate::systems::all())
}

fn load_army(path: &Path) -> Result<Army, ArmyError> {
    crate::army::load_army(path, &schemas())
}

fn parse_army(file: &str, text: &str) -> Result<Army, ArmyError> {
    crate::army::parse_army(file, text, &schemas())
}

fn check_files(paths: &[&Path]) -> Vec<Result<Army, ArmyError>> {
    crate::army::check_files(paths, &schemas())
}

fn load_armies(paths: &[&Path]) -> Result<Vec<Army>, ArmyError> {
    check_files(paths).into_iter().collect()
}

fn drums_list(army: &Army) -> drums::army::List {
    drums::army::read(army).expect("a Drums and Muskets list")
}

fn mayhem_list(army: &Army) -> mayhem::army::List {
    mayhem::army::read(army).expect("a Musket Mayhem list")
}

fn saber_list(army: &Army) -> saber::army::List {
    saber::army::read(army).expect("a Musket & Saber list")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn toml_files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    paths
}

fn shipped() -> Vec<PathBuf> {
    toml_files(&root().join("armies"))
}

fn bad(name: &str) -> ArmyError {
    let path = root().join("tests/data/armies/bad").join(name);
    match load_army(&path) {
        Ok(_) => panic!("{name} loaded, but should be rejected"),
        Err(e) => e,
    }
}

#[test]
fn every_shipped_list_loads() {
    let paths = shipped();
    for path in &paths {
        if let Err(e) = load_army(path) {
            panic!("{e}");
        }
    }
    // Together, too: no id is used twice across the lists.
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let armies = load_armies(&refs).unwrap_or_else(|e| panic!("{e}"));
    for system in [
        crate::drums::DRUMS,
        crate::mayhem::MAYHEM,
        crate::saber::SABER,
    ] {
        let n = armies.iter().filter(|a| a.rules == system).count();
        assert!(n >= 2, "{system}: only {n} shipped lists");
    }
}

#[test]
fn shipped_lists_carry_their_facts() {
    let prussia = load_army(&root().join("armies/leuthen-1757-prussian.toml")).unwrap();
    assert_eq!(prussia.rules, crate::drums::DRUMS);
    assert_eq!(prussia.side, "Prussia");
    let prussia = drums_list(&prussia);
    let fritz = &prussia.generals[0];
    assert_eq!(
        (fritz.id.as_str(), fritz.ability.as_str(), fritz.commander),
        ("frederick", "exceptional", true)
    );
    assert_eq!(fritz.traits, ["inspiring"]);
    let moritz = prussia.generals.iter().find(|g| g.id == "moritz").unwrap();
    assert!(!moritz.commander && moritz.traits.is_empty());
    let gren = prussia.units.iter().find(|u| u.id == "gren-1").unwrap();
    assert_eq!(gren.arm, "foot");
    assert_eq!(gren.class, ["determined"]);
    assert_eq!(gren.formation, "column-of-attack");
    assert_eq!(gren.weapon.as_deref(), Some("musket"));
    assert_eq!(gren.bases, 6);
    assert_eq!(gren.doctrine, ["two-rank"]);
    assert_eq!(gren.general.as_deref(), Some("wedel"));
    let cuir = prussia.units.iter().find(|u| u.id == "cuir-10").unwrap();
    assert!(cuir.heavy && !cuir.lancers);

    let league = load_army(&root().join("armies/pimpernel-league.toml")).unwrap();
    let league = mayhem_list(&league);
    let percy = league.figures.iter().find(|f| f.id == "percy").unwrap();
    assert_eq!(percy.rank.as_deref(), Some("exceptional-leader"));
    assert_eq!(percy.armament, "specialist");
    assert_eq!((percy.saves, percy.rerolls, percy.skill_bonus), (2, 1, 1));
    let vicomte = league.figures.iter().find(|f| f.id == "vicomte").unwrap();
    assert_eq!((vicomte.courage, vicomte.rank.as_deref()), (Some(3), None));
    let raid = load_army(&root().join("armies/fiw-raid-french.toml")).unwrap();
    let raid = mayhem_list(&raid);
    // armament defaults to armed.
    assert!(raid.figures.iter().all(|f| f.armament == "armed"));

    let french = load_army(&root().join("armies/quatre-bras-1815-french.toml")).unwrap();
    assert_eq!(french.rules, crate::saber::SABER);
    let french = saber_list(&french);
    let husson = french.units.iter().find(|u| u.id == "fr-husson").unwrap();
    assert_eq!(
        (husson.cf, husson.mr, husson.ma, husson.steps),
        (5, 4, Some(5), Some(2))
    );
    assert_eq!(husson.kind.as_deref(), Some("infantry"));
    assert_eq!(husson.formation.as_deref(), Some("5"));
    // 8.1: artillery without an MR is presumed to have an MR of 6.
    let guns = french
        .units
        .iter()
        .find(|u| u.id == "fr-art-reille")
        .unwrap();
    assert_eq!(guns.mr, 6);
    let ney = &french.leaders[0];
    assert_eq!(
        (ney.id.as_str(), ney.cf, ney.mr, ney.mv, ney.span),
        ("ney", Some(2), Some(2), Some(2), Some(6))
    );
}

/// (file, line, key, a fragment of the message)
const BAD: &[(&str, usize, &str, &str)] = &[
    ("syntax-unclosed-string.toml", 23, "", "TOML syntax"),
    ("unknown-top-level.toml", 1, "armee", "did you mean `army`?"),
    ("missing-army.toml", 1, "army", "missing the [army] table"),
    (
        "unknown-rules.toml",
        3,
        "army.rules",
        "unknown rule system \"drum\" (did you mean \"drums\"?)",
    ),
    ("empty-name.toml", 2, "army.name", "must not be empty"),
    (
        "unknown-unit-key.toml",
        26,
        "unit[2].bsaes",
        "unknown key `bsaes` (did you mean `bases`?)",
    ),
    (
        "nested-table.toml",
        15,
        "unit[1].extra",
        "unknown key `extra`",
    ),
    (
        "bases-wrong-type.toml",
        18,
        "unit[1].bases",
        "found the string \"six\"",
    ),
    ("bases-float.toml", 12, "unit[1].bases", "found float 6.5"),
    (
        "bases-zero.toml",
        12,
        "unit[1].bases",
        "0 is out of range; expected the number of bases, a whole number from 1 to 100",
    ),
    (
        "missing-bases.toml",
        15,
        "unit[2].bases",
        "unit[2].bases (unit \"gren-2\"): missing",
    ),
    (
        "unknown-arm.toml",
        16,
        "unit[1].arm",
        "unknown arm \"infantry\"; expected foot, cavalry, artillery or irregular",
    ),
    (
        "unknown-class.toml",
        17,
        "unit[1].class",
        "unknown class \"determind\" (did you mean \"determined\"?)",
    ),
    (
        "class-not-a-list.toml",
        11,
        "unit[1].class",
        "class = [\"determined\"]",
    ),
    (
        "determined-and-lackluster.toml",
        11,
        "unit[1].class",
        "both determined and lackluster",
    ),
    (
        "cavalry-in-square.toml",
        11,
        "unit[1].formation",
        "cavalry cannot be in formation \"square\"",
    ),
    (
        "foot-with-guns.toml",
        12,
        "unit[1].weapon",
        "foot cannot carry \"field-artillery\"",
    ),
    (
        "heavy-foot.toml",
        14,
        "unit[1].heavy",
        "only cavalry can be heavy",
    ),
    (
        "drums-unit-with-cf.toml",
        14,
        "unit[1].cf",
        "`cf` is a Musket & Saber unit field",
    ),
    (
        "bad-id.toml",
        8,
        "unit[1].id",
        "\"Gren_1\" must start with a lowercase letter",
    ),
    (
        "duplicate-id.toml",
        22,
        "unit[2].id",
        "duplicate id \"frederick\"; general[1].id (line 8)",
    ),
    (
        "unknown-general.toml",
        20,
        "unit[1].general",
        "no general \"fredrick\" in this list (did you mean \"frederick\"?)",
    ),
    (
        "general-wrong-type.toml",
        20,
        "unit[1].general",
        "expected a string, found integer 3",
    ),
    (
        "two-commanders.toml",
        16,
        "general[2].commander",
        "a second force commander; general[1].commander (line 10)",
    ),
    (
        "inspiring-and-hated.toml",
        10,
        "general[1].traits",
        "both inspiring and hated",
    ),
    (
        "unknown-ability.toml",
        10,
        "general[1].ability",
        "unknown ability \"brilliant\"",
    ),
    (
        "unit-not-an-array.toml",
        7,
        "unit",
        "expected [[unit]] entries (an array of tables), found a table",
    ),
    (
        "mayhem-with-unit.toml",
        7,
        "unit",
        "a mayhem list (Musket Mayhem) has no [[unit]] entries; it has [[figure]]",
    ),
    (
        "figure-courage-and-rank.toml",
        11,
        "figure[1].rank",
        "give courage or rank, not both",
    ),
    (
        "figure-without-courage.toml",
        7,
        "figure[1].courage",
        "missing; expected a courage value (1 to 6) or a rank",
    ),
    (
        "courage-seven.toml",
        10,
        "figure[1].courage",
        "7 is out of range",
    ),
    (
        "negative-hero-tokens.toml",
        11,
        "figure[1].saves",
        "-1 is out of range; expected hero save tokens",
    ),
    (
        "mayhem-unknown-weapon.toml",
        11,
        "figure[1].weapon",
        "unknown weapon \"carbine\"",
    ),
    (
        "saber-unit-with-class.toml",
        12,
        "unit[1].class",
        "`class` is a Drums and Muskets unit field",
    ),
    (
        "saber-missing-mr.toml",
        7,
        "unit[1].mr",
        "missing; expected the morale rating, a whole number from 1 to 6",
    ),
    (
        "mr-seven.toml",
        11,
        "unit[1].mr",
        "7 is out of range; expected the morale rating",
    ),
    ("steps-zero.toml", 12, "unit[1].steps", "0 is out of range"),
    (
        "cavalry-two-steps.toml",
        13,
        "unit[1].steps",
        "cavalry units always have one step",
    ),
];

#[test]
fn malformed_lists_name_the_line_and_key() {
    for (name, line, key, fragment) in BAD {
        let err = bad(name);
        let shown = format!("{name}: {err}  [key {:?}]", err.key);
        assert_eq!(err.line, *line, "{shown}");
        assert_eq!(err.key, *key, "{shown}");
        assert!(
            err.message.contains(fragment),
            "{shown}\n  wanted: {fragment}"
        );
        assert!(err.file.ends_with(name), "{shown}");
        assert!(err.column >= 1, "{shown}");
        // The message names the key it is about.
        assert!(err.message.starts_with(*key), "{shown}");
    }
}

#[test]
fn every_bad_file_is_covered() {
    let dir = root().join("tests/data/armies/bad");
    let files = toml_files(&dir);
    assert!(files.len() >= 20);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            BAD.iter().any(|(n, ..)| *n == name),
            "{name} has no expectation in BAD"
        );
    }
}

#[test]
fn error_display_is_file_line_column_message() {
    let err = bad("bases-zero.toml");
    assert_eq!(err.column, 9);
    let text = err.to_string();
    assert!(
        text.ends_with(
            "bases-zero.toml:12:9: unit[1].bases (unit \"gren-1\"): 0 is out of range; \
             expected the number of bases, a whole number from 1 to 100"
        ),
        "{text}"
    );
}

const HEAD: &str = "[army]\nname = \"Test\"\nrules = \"mayhem\"\nside = \"France\"\n";

#[test]
fn the_first_problem_in_file_order_is_reported() {
    let text = format!(
        "{HEAD}\n[[figure]]\nid = \"a\"\nname = \"A\"\ncourage = 9\n\n[[figure]]\nid = \"b\"\nname = \"B\"\nrank = \"hero\"\n"
    );
    let err = parse_army("t.toml", &text).unwrap_err();
    assert_eq!((err.line, err.key.as_str()), (9, "figure[1].courage"));
}

#[test]
fn too_many_entries_is_an_error() {
    let mut text = HEAD.to_string();
    for i in 0..=MAX_ENTRIES {
        text.push_str(&format!(
            "\n[[figure]]\nid = \"f-{i}\"\nname = \"Figure\"\ncourage = 3\n"
        ));
    }
    let err = parse_army("big.toml", &text).unwrap_err();
    assert_eq!(err.key, format!("figure[{}]", MAX_ENTRIES + 1));
    assert!(err.message.contains("at most 1000"), "{err}");
    // One fewer is fine.
    let cut = text.rfind("\n[[figure]]").unwrap();
    assert_eq!(
        mayhem_list(&parse_army("ok.toml", &text[..cut]).unwrap())
            .figures
            .len(),
        MAX_ENTRIES
    );
}

#[test]
fn an_oversized_file_is_refused_before_parsing() {
    let text = format!("{HEAD}{}", "#".repeat(crate::army::MAX_BYTES));
    let err = parse_army("huge.toml", &text).unwrap_err();
    assert_eq!((err.line, err.column, err.key.as_str()), (1, 1, ""));
    assert!(err.message.contains("at most"), "{err}");
}

#[test]
fn saber_values_and_defaults() {
    let text = "[army]\nname = \"T\"\nrules = \"saber-quickplay\"\nside = \"Union\"\n\n\
                [[unit]]\nid = \"u-1\"\nname = \"Iron Brigade\"\ntype = \"infantry\"\n\
                formation = 1\ncf = 6\nmr = 5\nma = \"V\"\n\n\
                [[leader]]\nid = \"l-1\"\nname = \"Reynolds\"\n";
    let army = parse_army("q.toml", text).unwrap();
    assert_eq!(army.rules, crate::saber::QUICKPLAY);
    let list = saber_list(&army);
    let u = &list.units[0];
    assert_eq!(u.formation.as_deref(), Some("1"));
    assert_eq!((u.cf, u.mr, u.ma, u.steps), (6, 5, None, None));
    assert_eq!(list.leaders[0].cf, None);
}

#[test]
fn ids_must_be_unique_across_lists() {
    let dir = root().join("tests/data/armies/cross");
    let a = dir.join("a.toml");
    let b = dir.join("b.toml");
    let err = load_armies(&[&a, &b]).unwrap_err();
    assert!(err.file.ends_with("b.toml"), "{err}");
    assert_eq!((err.line, err.key.as_str()), (11, "general[2].id"));
    assert!(
        err.message.contains("id \"frederick\" is already used in"),
        "{err}"
    );
    assert!(err.message.contains("a.toml (line 7)"), "{err}");
    // Each alone is fine; check_files says which one failed.
    let results = check_files(&[&a, &b]);
    assert!(results[0].is_ok());
    assert!(results[1].is_err());
    assert!(load_army(&b).is_ok());
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let err = load_army(&root().join("tests/data/armies/no-such-list.toml")).unwrap_err();
    assert!(err.message.contains("cannot read the list"), "{err}");
}

#[test]
fn truncated_lists_never_panic() {
    // Every prefix of a shipped list either loads or is rejected cleanly.
    for path in shipped().iter().take(3) {
        let text = std::fs::read_to_string(path).unwrap();
        for (cut, _) in text.char_indices().step_by(7) {
            if let Err(e) = parse_army("cut.toml", &text[..cut]) {
                assert!(e.line >= 1 && e.column >= 1, "{e}");
            }
        }
    }
}
