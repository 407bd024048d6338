//! Batch mode splits work between two threads; the dice and the order of
//! results must not notice. The line at position k rolls with seed + k,
//! so each line of a long batch can be reproduced on its own.

use crate::common;

use common::run;

const LINES: [&str; 5] = [
    "resilience shooting +determined +hit",
    "hold lackluster",
    "charge cavalry open",
    "resilience +determind",
    "# a comment",
];

#[test]
fn a_long_batch_matches_each_line_run_alone() {
    // 10,000 lines: several chunks on both threads.
    let input: String = (0..10_000)
        .map(|i| format!("{}\n", LINES[i % LINES.len()]))
        .collect();
    let (code, stdout, _) = run(&["--json", "--seed", "5"], &input);
    assert_eq!(code, Some(1), "the bad lines make the exit status 1");
    let results: Vec<&str> = stdout.lines().collect();
    // One result or error object per line that is not a comment.
    assert_eq!(results.len(), 8_000);
    for k in [0usize, 1, 2, 3, 4097, 8191, 8192, 9_998] {
        if LINES[k % LINES.len()].starts_with('#') {
            continue;
        }
        // Results skip comment lines: line k is result k - k/5.
        let result = results[k - k / LINES.len()];
        let seed = (5 + k).to_string();
        let (_, alone, alone_err) = run(&["--json", "--seed", &seed, LINES[k % LINES.len()]], "");
        if LINES[k % LINES.len()].contains("determind") {
            assert!(result.contains(&format!("\"line\":{}", k + 1)), "{result}");
            assert!(alone.contains("\"error\""), "{alone}{alone_err}");
        } else {
            // The same object but for the line it answers.
            let mut batch: serde_json::Value = serde_json::from_str(result).unwrap();
            let mut alone: serde_json::Value = serde_json::from_str(alone.trim_end()).unwrap();
            assert_eq!(batch["line"], k + 1);
            assert_eq!(alone["line"], 1);
            batch["line"] = 0.into();
            alone["line"] = 0.into();
            assert_eq!(batch, alone, "line {k}");
        }
    }
}

#[test]
fn text_results_are_separated_by_one_blank_line() {
    let input: String = (0..9_000).map(|_| "hold rolled 3 4\n").collect();
    let (code, stdout, _) = run(&["--color", "never"], &input);
    assert_eq!(code, Some(0));
    let one = "hold test (2D6) · Drums and Muskets";
    assert!(stdout.starts_with(one));
    assert_eq!(stdout.matches(one).count(), 9_000);
    assert!(!stdout.contains("\n\n\n"));
    assert_eq!(stdout.matches("\n\nhold test").count(), 8_999);
}

#[test]
fn a_setting_holds_for_every_later_line_on_both_threads() {
    // `set bases 6` in the first chunk; lines in later chunks (on either
    // thread) shoot with 6 bases unless they say otherwise.
    let mut input = String::from("set bases 6\n");
    input.extend((0..12_000).map(|_| "shoot musket 2BW formed\n"));
    let (code, stdout, stderr) = run(&["--json", "--seed", "1"], &input);
    assert_eq!(code, Some(0), "{stderr}");
    let pools: Vec<i64> = stdout
        .lines()
        .skip(1)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["pool"]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(pools.len(), 12_000);
    assert!(pools.iter().all(|p| *p == 6), "every line shoots 6 dice");
}
