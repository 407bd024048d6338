//! Issue 26, "Talk like the table": the `units` table at a terminal's
//! width, suggestions by meaning, completion of what can follow, long
//! help through a pager. (The tmux tests of `units` at 80 columns and of
//! the pager are in repl_tmux.rs.)

#[allow(dead_code)] // Not every helper is used here.
use crate::common;

use std::process::Command;

use common::{BIN, offered, run, run_json};
use unicode_width::UnicodeWidthStr;

/// The shipped scenarios, each its two armies.
const SCENARIOS: [[&str; 2]; 4] = [
    [
        "armies/leuthen-1757-prussian.toml",
        "armies/leuthen-1757-austrian.toml",
    ],
    [
        "armies/fiw-raid-colonial.toml",
        "armies/fiw-raid-french.toml",
    ],
    [
        "armies/pimpernel-league.toml",
        "armies/pimpernel-republic.toml",
    ],
    [
        "armies/quatre-bras-1815-allied.toml",
        "armies/quatre-bras-1815-french.toml",
    ],
];

fn army_args(armies: &[&str]) -> Vec<String> {
    armies
        .iter()
        .flat_map(|a| ["--army".to_string(), a.to_string()])
        .collect()
}

/// Each unit's id and its row's cells but the name, from `--json units`.
fn units(armies: &[&str]) -> Vec<(String, Vec<String>)> {
    let mut args = army_args(armies);
    args.push("units".into());
    let (ok, answers, stderr) = run_json(&args, "");
    assert!(ok, "{stderr}");
    let mut out = Vec::new();
    for army in answers[0]["armies"].as_array().expect("armies") {
        for unit in army["units"].as_array().expect("units") {
            let unit = unit.as_object().expect("a unit is an object");
            let id = unit["id"].as_str().expect("an id").to_string();
            let rest = unit
                .iter()
                .filter(|(k, _)| *k != "id" && *k != "name")
                .filter_map(|(_, v)| v.as_str())
                .filter(|v| !v.is_empty())
                .map(str::to_string)
                .collect();
            out.push((id, rest));
        }
    }
    assert!(!out.is_empty(), "{armies:?} have units");
    out
}

// "`units` that never splits an id and fits one line a unit at 80 columns
// (wrap or shorten names, not ids)."
#[test]
fn units_fit_one_line_a_unit_with_ids_whole_at_80_and_100_columns() {
    for armies in SCENARIOS {
        let units = units(&armies);
        for width in ["80", "100"] {
            let mut args = vec!["--width".to_string(), width.to_string()];
            args.extend(army_args(&armies));
            args.push("units".into());
            let (code, out, err) = run(&args, "");
            assert_eq!(code, Some(0), "{err}");
            let columns: usize = width.parse().unwrap();
            for line in out.lines() {
                assert!(line.width() <= columns, "wider than {width}: {line:?}");
            }
            // No unit's second line (its id cell blank).
            let second = out
                .lines()
                .find(|l| l.trim_start_matches(['│', '|']).starts_with("  "));
            assert_eq!(second, None, "one line a unit at {width}:\n{out}");
            for (id, cells) in &units {
                let line = out
                    .lines()
                    .find(|l| {
                        l.trim_start_matches(['│', '|']).split_whitespace().next() == Some(id)
                    })
                    .unwrap_or_else(|| panic!("`{id}` is not whole at {width}:\n{out}"));
                for cell in cells {
                    assert!(
                        line.contains(cell.as_str()),
                        "`{id}`'s {cell:?} is not on its line at {width}:\n{out}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_shortened_name_ends_in_an_ellipsis_and_show_gives_it_whole() {
    let mut args = vec!["--width".to_string(), "80".to_string()];
    args.extend(army_args(&SCENARIOS[0]));
    args.push("units".into());
    let (_, out, _) = run(&args, "");
    let gren = out
        .lines()
        .find(|l| l.starts_with("gren-1 "))
        .expect("gren-1's line");
    assert!(
        gren.contains("Grenadier Battalion") && gren.contains('…'),
        "{gren}"
    );
    let (_, shown, _) = run(
        &[
            "--army",
            SCENARIOS[0][0],
            "--army",
            SCENARIOS[0][1],
            "show gren-1",
        ],
        "",
    );
    assert!(
        shown.starts_with("gren-1 — Grenadier Battalion, advance guard (1st)"),
        "{shown}"
    );
    // A pipe gets the table whole, as before.
    let (_, piped, _) = run(&[&args[2..]].concat(), "");
    assert!(
        piped.contains("┆ Grenadier Battalion, advance guard (1st) "),
        "{piped}"
    );
}

// "At 100 columns the note "…new game was created" breaks inside a name."
#[test]
fn the_new_game_note_wraps_between_words() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("leuthen-evening-with-friends.game");
    let game = game.to_str().unwrap();
    let mut args = vec!["--width", "100", "--game", game];
    args.extend([
        "--army",
        SCENARIOS[0][0],
        "--army",
        SCENARIOS[0][1],
        "units",
    ]);
    let (code, _, err) = run(&args, "");
    assert_eq!(code, Some(0), "{err}");
    let note: Vec<&str> = err
        .lines()
        .skip_while(|l| !l.starts_with("note: "))
        .take_while(|l| l.starts_with("note: ") || l.starts_with("  "))
        .collect();
    assert!(note.len() > 1, "the note is wrapped: {err}");
    for line in &note {
        assert!(line.width() <= 100, "{line}");
    }
    let words: Vec<&str> = note.iter().flat_map(|l| l.split_whitespace()).collect();
    for whole in [game, "(Prussian", "Leuthen", "1757;", "Austrian", "1757)"] {
        assert!(words.contains(&whole), "`{whole}` is cut: {note:?}");
    }
}

/// The error of a line, as text (stderr) and as JSON.
fn refusal(args: &[&str]) -> (String, String) {
    let (code, _, err) = run(args, "");
    assert_eq!(code, Some(1), "{err}");
    let (ok, answers, _) = run_json(args, "");
    assert!(!ok);
    (
        err,
        answers[0]["error"].as_str().unwrap_or_default().to_string(),
    )
}

// "Near misses get no suggestion: `melee … first-round` (the word is
// `first-melee`), `fire … soft-cover` (`soft`)"
#[test]
fn a_word_by_another_name_is_answered_with_the_word_to_type() {
    for (args, meant) in [
        (
            vec!["melee foot first-round vs cavalry"],
            "unknown word `first-round` for `melee` (did you mean `first-melee`?)",
        ),
        (
            vec!["--rules", "mayhem", "fire musket 10\" soft-cover"],
            "unknown word `soft-cover` for `fire` (did you mean `soft`?)",
        ),
        (
            vec!["--rules", "mayhem", "fire musket 10\" cover"],
            "unknown word `cover` for `fire` (did you mean `soft` or `hard`?)",
        ),
    ] {
        let (text, json) = refusal(&args);
        assert!(text.contains(meant), "{text}");
        assert!(json.contains(meant), "{json}");
    }
}

// "`drumhead shet` suggests `set`, not `sheet`"
#[test]
fn a_misspelt_task_is_suggested_as_the_task() {
    let (text, json) = refusal(&["shet"]);
    let meant = "unknown verb `shet` for Drums and Muskets (did you mean `drumhead sheet`?)";
    assert!(text.contains(meant), "{text}");
    assert!(json.contains(meant), "{json}");
    // A misspelt line verb is still the verb (`rsilience`).
    let (text, _) = refusal(&["rsilience"]);
    assert!(text.contains("did you mean `resilience`?"), "{text}");
}

// "Suggestions by meaning as well as spelling (aliases listed in help)"
#[test]
fn help_lists_the_other_names_of_a_verbs_words() {
    let (_, out, _) = run(&["help melee"], "");
    let names = out
        .split("other names")
        .nth(1)
        .unwrap_or_else(|| panic!("no other names in:\n{out}"));
    assert!(
        names
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["first-round", "first-melee"]),
        "{out}"
    );
    let (_, out, _) = run(&["--rules", "mayhem", "help fire"], "");
    assert!(
        out.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["soft-cover", "soft"]),
        "{out}"
    );
}

// "Tab after `+` offers `+gren-1` and `+rolled`"
#[test]
fn after_a_plus_only_the_verbs_words_are_offered() {
    let mut words = vec!["drumhead"];
    words.extend(["--army", SCENARIOS[0][0], "resilience", "+"]);
    let found = offered(&words, 4);
    assert!(found.contains(&"+determined".to_string()), "{found:?}");
    for never in ["+gren-1", "+rolled", "+at", "+vs"] {
        assert!(!found.contains(&never.to_string()), "{never} in {found:?}");
    }
    assert!(found.iter().all(|w| w.starts_with('+')), "{found:?}");
}

// "`drumhead sheet <Tab>` offers `--`, not the systems"
#[test]
fn the_sheet_task_completes_its_systems() {
    let found = offered(&["drumhead", "sheet", ""], 2);
    for system in ["drums", "mayhem", "saber", "saber-quickplay"] {
        assert!(found.contains(&system.to_string()), "{system}: {found:?}");
    }
    assert_eq!(offered(&["drumhead", "sheet", "m"], 2), vec!["mayhem"]);
}

// "Long help through `$PAGER` on a terminal (as git does)": never into a
// pipe (the terminal's case is in repl_tmux.rs).
#[test]
fn help_into_a_pipe_is_never_paged() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("paged");
    let out = Command::new(BIN)
        .env("PAGER", format!("touch '{}'", marker.display()))
        .arg("help melee")
        .output()
        .expect("drumhead runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("usage: melee"), "{text}");
    assert!(!marker.exists(), "the pager ran for a pipe");
}
