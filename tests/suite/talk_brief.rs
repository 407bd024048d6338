//! Issue 26, "Talk like the table": `--brief` is brief, a closed pipe
//! ends quietly, numbers are clean, and the configuration file takes any
//! option. Each test quotes the line of the issue it follows.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::game::temp_dir;

fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut all = vec!["--no-config"];
    all.extend_from_slice(args);
    common::run(&all, input)
}

/// "`--brief`: one line a resolution, within the terminal's width, with
/// the signed modifiers and the seed"
#[test]
fn brief_is_one_line_with_signed_modifiers_and_the_seed() {
    let (code, out, err) = run(
        &["--brief", "--seed", "43"],
        "resilience shooting +determined +hit\nhold\nresilience +determined rolled 4 3\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // "a blank line between answers" is gone: one line an answer.
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("resilience shooting +determined +hit: ")
            && lines[0].contains(" +1 +1 -1 = ")
            && lines[0].ends_with("(seed 43)"),
        "{}",
        lines[0]
    );
    assert!(!lines[0].contains("Determined"), "labels only on request");
    assert!(lines[1].starts_with("hold: ") && lines[1].ends_with("(seed 44)"));
    // Entered dice came from no seed.
    assert_eq!(lines[2], "resilience +determined: 4+3 +1 = 8 → carry on");
}

/// "labels on request"; "within the terminal's width"
#[test]
fn labels_on_request_and_the_width_is_kept() {
    let line = "resilience shooting +determined +hit rolled 4 3";
    let (_, out, _) = run(&["--labels", line], "");
    assert_eq!(
        out.trim_end(),
        "resilience shooting: 4+3 +1 Are classed as Determined +1 Are not classed as Zealous (applies by itself) -1 Received any hits this turn = 8 → carry on"
    );
    for width in ["40", "60", "80"] {
        let (code, out, err) = run(&["--labels", "--width", width, line], "");
        assert_eq!(code, Some(0), "{err}");
        let w: usize = width.parse().unwrap();
        assert_eq!(out.lines().count(), 1, "{out}");
        let shown = out.trim_end();
        assert!(shown.chars().count() <= w, "{width}: {shown}");
        assert!(shown.contains("4+3") && shown.contains("= 8"), "{shown}");
    }
    // Labels cut to their first words where the whole ones do not fit;
    // none where those do not either.
    let (_, out, _) = run(&["--labels", "--width", "100", line], "");
    assert_eq!(
        out.trim_end(),
        "resilience shooting: 4+3 +1 Are classed as… +1 Are not classed… -1 Received any hits… = 8 → carry on"
    );
    let (_, out, _) = run(&["--labels", "--width", "80", line], "");
    assert_eq!(
        out.trim_end(),
        "resilience shooting +determined +hit: 4+3 +1 +1 -1 = 8 → carry on"
    );
}

/// "odds as one line of the main outcomes" (not "the whole chart")
#[test]
fn brief_odds_is_one_line_of_the_main_outcomes() {
    let (code, out, err) = run(&["--brief", "odds resilience +determined"], "");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out.trim_end(),
        "odds resilience +determined: forced retire 27.78% · carry on 44.44% · advance 27.78%"
    );
    let (_, out, _) = run(&["--brief", "--width", "60", "odds roll 3d6"], "");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.trim_end().chars().count() <= 60, "{out}");
    assert!(out.contains("more"), "{out}");
}

/// "A closed pipe ends quietly with 0 when no game is written."
#[test]
fn a_closed_pipe_ends_quietly() {
    let input: String = "resilience +determined\n".repeat(20_000);
    let mut child = Command::new(common::BIN)
        .args(["--no-config", "--json", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("{\"type\":\"resolution\""), "{line}");
    }
    // `head -2` has what it wanted, and goes.
    drop(reader);
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

/// "(With `--game`, saying how many lines were applied and exiting
/// non-zero is right; keep it.)"
#[test]
fn a_closed_pipe_of_a_game_says_how_many_lines_were_applied() {
    let dir = temp_dir("talk-pipe-game");
    let game = common::game::new_game(&dir, "game.json");
    let script = dir.join("run.sh");
    std::fs::write(
        &script,
        format!(
            "yes 'resilience gren-1 +determined' | head -500 | '{}' --no-config --game '{}' | head -1 >/dev/null; echo \"status ${{PIPESTATUS[2]}}\" >&2",
            common::BIN,
            game.display()
        ),
    )
    .unwrap();
    let out = Command::new("bash").arg(&script).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("status 1"), "{err}");
    assert!(
        err.contains("standard output was closed") && err.contains("applied to the game"),
        "{err}"
    );
}

/// "`0.9999999999999998` and `0.33333333333333337` in CSV,
/// `expected_bases_lost` empty instead of 0"
#[test]
fn csv_numbers_are_clean_and_zero_is_zero() {
    let (code, out, err) = run(
        &[
            "--format",
            "csv",
            "odds shoot musket 2BW,6BW formed bases=2..8",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(',').collect()).collect();
    let header = &rows[0];
    let lost = header
        .iter()
        .position(|h| *h == "expected_bases_lost")
        .unwrap();
    let hits = header.iter().position(|h| *h == "expected_hits").unwrap();
    assert_eq!(rows.len(), 15, "{out}");
    for row in &rows[1..] {
        assert!(!row[lost].is_empty(), "{row:?}");
        for cell in &row[2..] {
            // 12 significant digits at most: no float's noise.
            let significant = cell.replace('.', "").trim_start_matches('0').len();
            assert!(significant <= 12, "float noise in {cell}: {row:?}");
            assert!(
                !cell.contains("99999999") && !cell.contains("00000001"),
                "{row:?}"
            );
        }
    }
    // 2BW with 2 bases loses none; 6BW with 6 bases expects 1 hit.
    assert_eq!(rows[1][lost], "0");
    let six = rows.iter().find(|r| r[0] == "6BW" && r[1] == "6").unwrap();
    assert_eq!(six[hits], "1");
    let two = rows.iter().find(|r| r[0] == "6BW" && r[1] == "2").unwrap();
    assert_eq!(two[hits], "0.333333333333");
}

/// "`--format csv` on a resolution exits 1 instead of the usage error 2"
#[test]
fn a_format_that_cannot_write_the_answer_is_a_usage_error() {
    let (code, out, err) = run(&["--format", "csv", "resilience +determined"], "");
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("--format text or json"), "{err}");
}

/// "the terminal shows `390625/1679616`, and "0.00%" for outcomes that
/// can happen; the "at least" view … exists only in CSV and SVG"
#[test]
fn terminal_odds_have_at_least_and_no_false_zero() {
    let (code, out, err) = run(&["odds roll 8d6"], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("at least"), "{out}");
    assert!(!out.contains(" 0.00%"), "{out}");
    assert!(!out.contains("1679616"), "{out}");
    let first = out.lines().find(|l| l.contains("total 8 ")).unwrap();
    assert!(
        first.contains("<0.01%") && first.contains("100.00%"),
        "{first}"
    );
    let (_, out, _) = run(&["odds roll 2d6"], "");
    let twelve = out.lines().find(|l| l.contains("total 12")).unwrap();
    assert!(twelve.contains("1/36"), "{twelve}");
    assert_eq!(twelve.matches("2.78%").count(), 2, "{twelve}");
}

/// "The config file takes any long option the command line takes."
#[test]
fn the_configuration_file_takes_any_long_option() {
    let home = temp_dir("talk-config");
    let file = home.join("drumhead").join("config.toml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "width = 80\nbrief = true\nseed = 7\n").unwrap();
    let drumhead = |args: &[&str]| {
        let out = Command::new(common::BIN)
            .args(args)
            .env_remove("DRUMHEAD_CONFIG")
            .env("XDG_CONFIG_HOME", &home)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = drumhead(&["resilience"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 1, "brief = true: {out}");
    assert!(out.trim_end().ends_with("(seed 7)"), "seed = 7: {out}");
    // The command line wins, over a key of its own name or one it
    // cannot be given with.
    let (_, out, _) = drumhead(&["--seed", "9", "resilience"]);
    assert!(out.trim_end().ends_with("(seed 9)"), "{out}");
    let (code, out, err) = drumhead(&["--json", "resilience"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("{\"type\":\"resolution\""), "{out}");
    let (_, shown, _) = drumhead(&["config"]);
    assert!(
        shown.contains("width = 80") && shown.contains("brief = true"),
        "{shown}"
    );

    // A key that is no option: the key, the file, its line, a close match.
    std::fs::write(&file, "width = 80\nbreif = true\n").unwrap();
    let (code, _, err) = drumhead(&["resilience"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&file.display().to_string())
            && err.contains("line 2")
            && err.contains("`breif`")
            && err.contains("did you mean `brief`?"),
        "{err}"
    );
    // A value the option would refuse.
    std::fs::write(&file, "width = 10\n").unwrap();
    let (code, _, err) = drumhead(&["resilience"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("line 1") && err.contains("--width"), "{err}");
}
