//! Issue 26, "Talk like the table": "Names everywhere a unit, figure,
//! leader or army is known (ids in the stack and outcome, army names for
//! sides, the id in every follow-up); letters only for lines that name
//! nobody." Done when there are "Goldens for each item above, in text and
//! JSON where both exist; … a test that no answer of a line naming units
//! contains "side a", "side b", "army 1" or "army 2"."

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The goldens of this issue: names in drums and mayhem answers, notes
/// that say nothing was kept, reopening in any order, `--game` before
/// `roster`.
#[test]
fn goldens() {
    trycmd::TestCases::new()
        .case("tests/cmd/drums/talk-names.md")
        .case("tests/cmd/mayhem/talk-names.md")
        .case("tests/cmd/general/talk-names.md");
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A folder of its own for one script, with the shipped armies at
/// `armies/`: what its lines write (`save h.json`) stays there.
fn sandbox(name: &str) -> common::game::Scratch {
    let dir = common::game::temp_dir(name);
    std::os::unix::fs::symlink(root().join("armies"), dir.join("armies")).unwrap();
    dir
}

/// Run drumhead in `dir`: its status and standard output.
fn run(dir: &Path, args: &[String], stdin: &str) -> (bool, String) {
    let mut cmd = Command::new(common::BIN);
    cmd.args(["--no-config", "--seed", "7"])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1");
    let (code, out, _) = common::run_command(cmd, stdin);
    (code == Some(0), out)
}

/// The words the issue forbids where units are named, each a whole word
/// ("army 1" is not "army 12", "side b" not "side become").
const LETTERS: [&str; 4] = ["side a", "side b", "army 1", "army 2"];

fn letters_in(text: &str) -> Vec<&'static str> {
    let lower = text.to_lowercase();
    LETTERS
        .into_iter()
        .filter(|word| {
            lower.match_indices(word).any(|(at, _)| {
                let before = lower[..at].chars().next_back();
                let after = lower[at + word.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            })
        })
        .collect()
}

#[test]
fn the_check_finds_letters_and_only_whole_words() {
    assert_eq!(letters_in("⇒ side b (Cavalry) wins the round"), ["side b"]);
    assert_eq!(letters_in("game: Army 1 has the initiative"), ["army 1"]);
    assert!(letters_in("that side become ineffective; army 12").is_empty());
}

/// The ids of every unit, figure and leader of the shipped armies.
fn unit_ids() -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for entry in std::fs::read_dir(root().join("armies")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("id") {
                let rest = rest.trim_start();
                if let Some(value) = rest.strip_prefix('=') {
                    let id = value.trim().trim_matches('"');
                    if !id.is_empty() {
                        ids.insert(id.to_string());
                    }
                }
            }
        }
    }
    ids
}

/// A shipped army by the name a golden gives its copy
/// (`leuthen-1757-prussian.army` beside a game).
fn shipped(name: &str) -> String {
    let stem = Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(name);
    format!("armies/{stem}.toml")
}

/// Every script of the goldens that runs with armies: each batch case's
/// standard input with its `--army` lists, and for each transcript the
/// lines it resolves with `--army` or `--game`, in order, with every list
/// it loads.
fn scripts() -> Vec<(PathBuf, Vec<String>, String)> {
    let mut scripts = Vec::new();
    let mut files = Vec::new();
    for system in std::fs::read_dir(root().join("tests/cmd")).unwrap() {
        let dir = system.unwrap().path();
        if dir.is_dir() {
            for f in std::fs::read_dir(&dir).unwrap() {
                files.push(f.unwrap().path());
            }
        }
    }
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => {
                let case: toml::Table = text.parse().unwrap();
                let args: Vec<String> = case["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|a| a.as_str().map(str::to_string))
                    .filter(|a| a != "--json")
                    .collect();
                if args.iter().any(|a| a == "--army") {
                    let stdin = std::fs::read_to_string(path.with_extension("stdin")).unwrap();
                    scripts.push((path, args, stdin));
                }
            }
            Some("md") => {
                let mut armies: Vec<String> = Vec::new();
                let mut lines = String::new();
                for cmd in text.lines().filter_map(|l| l.strip_prefix("$ drumhead ")) {
                    if !cmd.contains("--army") && !cmd.contains("--game") {
                        continue;
                    }
                    let words: Vec<&str> = cmd.split_whitespace().collect();
                    for pair in words.windows(2).filter(|p| p[0] == "--army") {
                        let army = shipped(pair[1]);
                        if !armies.contains(&army) {
                            armies.push(army);
                        }
                    }
                    // The line resolved: the last quoted argument.
                    let quoted = cmd
                        .rfind('\'')
                        .and_then(|end| cmd[..end].rfind('\'').map(|start| &cmd[start + 1..end]));
                    if let Some(line) = quoted {
                        lines.push_str(line);
                        lines.push('\n');
                    }
                }
                if !armies.is_empty() && !lines.is_empty() {
                    let args = armies
                        .iter()
                        .flat_map(|a| ["--army".to_string(), a.clone()]);
                    scripts.push((path, args.collect(), lines));
                }
            }
            _ => {}
        }
    }
    scripts
}

/// The units a line names, of these ids.
fn named<'a>(line: &str, ids: &'a BTreeSet<String>) -> Vec<&'a str> {
    line.split(|c: char| c.is_whitespace() || c == ',')
        .filter_map(|w| ids.get(w).map(String::as_str))
        .collect()
}

#[test]
fn no_answer_of_a_line_naming_units_speaks_of_sides_by_letter_or_number() {
    let ids = unit_ids();
    assert!(ids.len() > 50, "only {} unit ids in armies/", ids.len());
    let scripts = scripts();
    assert!(scripts.len() >= 10, "only {} scripts found", scripts.len());
    let (mut json_checked, mut text_checked) = (0, 0);
    let mut found = Vec::new();
    for (i, (path, args, stdin)) in scripts.iter().enumerate() {
        // JSON: each answer carries its line, so what it names is known.
        let mut json_args = args.clone();
        json_args.push("--json".into());
        let (_, out) = run(&sandbox(&format!("names-json-{i}")), &json_args, stdin);
        for answer in out.lines() {
            let Ok(value) = serde_json::from_str::<serde_json::Value>(answer) else {
                continue;
            };
            let line = value["input"].as_str().unwrap_or_default();
            if named(line, &ids).is_empty() {
                continue;
            }
            json_checked += 1;
            for word in letters_in(answer) {
                found.push(format!("{}: `{line}` (JSON) says {word:?}", path.display()));
            }
        }
        // Text: an answer that shows a named unit shows a `from ID` row.
        let (_, out) = run(&sandbox(&format!("names-text-{i}")), args, stdin);
        for answer in out.split("\n\n") {
            let names_one = answer.lines().any(|l| {
                l.split_whitespace()
                    .skip_while(|w| *w != "from")
                    .nth(1)
                    .is_some_and(|id| ids.contains(id))
            });
            if !names_one {
                continue;
            }
            text_checked += 1;
            for word in letters_in(answer) {
                let head = answer.lines().next().unwrap_or_default();
                found.push(format!(
                    "{}: \"{head}\" (text) says {word:?}",
                    path.display()
                ));
            }
        }
    }
    assert!(
        json_checked >= 50,
        "only {json_checked} JSON answers named units"
    );
    assert!(
        text_checked >= 50,
        "only {text_checked} text answers named units"
    );
    assert!(
        found.is_empty(),
        "letters where units are named:\n{}",
        found.join("\n")
    );
}

/// "Follow-up advice says `courage VALUE cause=fire` where `courage langy
/// cause=fire` is what the umpire types next": every follow-up line an
/// answer suggests for a named unit resolves as it is given.
#[test]
fn each_follow_up_line_for_a_named_unit_resolves() {
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "armies/leuthen-1757-prussian.toml",
                "armies/leuthen-1757-austrian.toml",
            ],
            "melee gren-3 vs aus-5 rolled 4 1 1 1 1 1 1 1 4 4 4 4 1 1 1 1",
        ),
        (
            &["armies/leuthen-1757-prussian.toml"],
            "resilience gren-1 shooting rolled 1 1",
        ),
        (
            &[
                "armies/fiw-raid-colonial.toml",
                "armies/fiw-raid-french.toml",
            ],
            "fight hawkeye vs marine-1 rolled 3 4 4",
        ),
        (
            &[
                "armies/fiw-raid-colonial.toml",
                "armies/fiw-raid-french.toml",
            ],
            "fire hawkeye 10\" at langy rolled 6 1",
        ),
    ];
    let mut suggested = 0;
    let dir = sandbox("names-follow-up");
    for (armies, line) in cases {
        let mut args: Vec<String> = armies
            .iter()
            .flat_map(|a| ["--army".to_string(), a.to_string()])
            .collect();
        args.push("--json".into());
        let (ok, out) = run(&dir, &args, &format!("{line}\n"));
        assert!(ok, "`{line}` was refused");
        let answer: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let notes: Vec<&str> = answer["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n.as_str())
            .collect();
        // Each line in backquotes that names a unit, as the umpire types it.
        let follow_ups: Vec<&str> = notes
            .iter()
            .flat_map(|n| n.split('`').skip(1).step_by(2))
            .filter(|l| {
                ["resilience ", "courage ", "move "]
                    .iter()
                    .any(|v| l.starts_with(v))
            })
            .collect();
        assert!(
            !follow_ups.is_empty(),
            "`{line}` suggests no line: {notes:?}"
        );
        for follow in follow_ups {
            assert!(
                !follow.contains("VALUE") && !follow.contains('…'),
                "`{line}` suggests `{follow}`, which the umpire must fill in"
            );
            let (ok, out) = run(&dir, &args, &format!("{follow}\n"));
            assert!(
                ok && out.contains("\"type\":\"resolution\""),
                "`{follow}` does not resolve: {out}"
            );
            suggested += 1;
        }
    }
    assert!(suggested >= 5, "only {suggested} follow-up lines ran");
}
