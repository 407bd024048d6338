//! Hardening through the binary: 100,000 lines, 1% of them garbage,
//! piped through it in batch mode. (The million seeded lines and the
//! mutated files thrown at the library are in tests/unit/fuzz_lines.rs.)

use std::io::Write;
use std::process::{Command, Stdio};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

/// 100,000 lines with one in a hundred garbage: the rest resolve, each bad
/// line is reported once with its number, and the exit status is 1.
#[test]
fn batch_reports_every_garbage_line_and_resolves_the_rest() {
    let mut rng = Pcg64::seed_from_u64(42);
    let good = [
        "resilience shooting +determined +hit",
        "hold +determined",
        "charge foot line",
        "roll 3d6",
        "initiative generals=2 vs generals=1",
    ];
    let garbage = [
        "resilience +zzz",
        "bogus words",
        "roll 3q6",
        "resilience rolled 9 9",
        "hold bases=x ☃",
    ];
    let total = 100_000;
    let mut script = String::with_capacity(total * 30);
    let mut bad_lines = Vec::new();
    for n in 1..=total {
        if rng.random_range(0..100) == 0 {
            script.push_str(garbage[rng.random_range(0..garbage.len())]);
            bad_lines.push(n);
        } else {
            script.push_str(good[rng.random_range(0..good.len())]);
        }
        script.push('\n');
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(["--seed", "5", "--color", "never"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let results = stdout.lines().filter(|l| l.starts_with('⇒')).count();
    let reported: Vec<usize> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("error: line "))
        .filter_map(|l| l.split(':').next()?.parse().ok())
        .collect();
    assert_eq!(out.status.code(), Some(1));
    assert!(bad_lines.len() > 800 && bad_lines.len() < 1200);
    assert_eq!(
        reported, bad_lines,
        "every bad line reported once, in order"
    );
    assert_eq!(results, total - bad_lines.len(), "every good line resolved");
}
