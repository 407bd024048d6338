//! Large answers are written as they are made (issue 37): a sweep too
//! large for one table goes out a combination at a time, in text, CSV and
//! JSON, so the memory drumhead holds does not grow with the answer and
//! the first rows are out long before the last is counted.
//!
//! Musket Mayhem, roundshot: "Roll against all figures along flight path
//! needing usual score" — each figure killed, sent to a courage check or
//! missed, so 11 to 30 figures at each of 20 distances make 400
//! distributions of up to 496 outcomes each, within every limit.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::common::BIN;

const LINE: &str = "odds mayhem fire roundshot 1\"..20\" figures=11..30 rerolls=1";

/// The most memory a run of this line may hold, in KiB.
const MOST_KIB: i64 = 64 * 1024;

/// What one run printed and held.
struct Run {
    out: Vec<u8>,
    /// When the first combination's rows had come whole (the second's
    /// had begun).
    first_rows: Duration,
    took: Duration,
    /// The child's peak resident memory, KiB.
    max_rss: i64,
    code: Option<i32>,
}

#[allow(
    clippy::zombie_processes,
    reason = "the child is waited for with wait4, which also says the memory it held"
)]
fn run(format: &[&str], second: &str) -> Run {
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(format)
        .arg(LINE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("drumhead starts");
    let mut out = child.stdout.take().expect("its output");
    let mut first = Vec::new();
    let mut buf = [0u8; 8192];
    while !first.windows(second.len()).any(|w| w == second.as_bytes()) {
        let n = out.read(&mut buf).expect("read");
        assert!(n > 0, "{format:?}: no `{second}` in the output");
        first.extend_from_slice(&buf[..n]);
    }
    let first_rows = start.elapsed();
    let mut rest = Vec::new();
    out.read_to_end(&mut rest).expect("read");
    first.extend(rest);
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be filled in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, filling in `status` and `usage`.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    Run {
        out: first,
        first_rows,
        took: start.elapsed(),
        max_rss: usage.ru_maxrss,
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
    }
}

fn check(format: &[&str], run: &Run) {
    assert_eq!(run.code, Some(0), "{format:?}");
    assert!(
        run.max_rss < MOST_KIB,
        "{format:?}: held {} KiB, more than {MOST_KIB}",
        run.max_rss
    );
    // The first rows are out while most of the sweep is still to count.
    assert!(
        run.first_rows < run.took / 2,
        "{format:?}: the first rows came after {:?} of {:?}",
        run.first_rows,
        run.took
    );
}

#[test]
fn a_large_sweep_streams_in_text() {
    let r = run(&[], "\ndistance 1\" · figures 12\n");
    check(&["text"], &r);
    let text = String::from_utf8(r.out).expect("UTF-8");
    // Each combination under its values, as `odds` shows a distribution.
    assert_eq!(text.matches("\ndistance ").count(), 400);
    assert!(text.contains("\ndistance 20\" · figures 30\nodds: missile fire, roundshot at 20\""));
}

#[test]
fn a_large_sweep_streams_in_csv() {
    let r = run(&["--format", "csv"], "\n\"1\"\"\",12,");
    check(&["csv"], &r);
    let text = String::from_utf8(r.out).expect("UTF-8");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("distance,figures,kind,id,outcome,text,value,probability,at_least")
    );
    // One table: a row per outcome of each combination.
    let rows: Vec<&str> = lines.collect();
    let per_figures: usize = (11..=30).map(|n| (n + 1) * (n + 2) / 2).sum();
    assert_eq!(rows.len(), 20 * per_figures);
    assert!(rows.iter().all(|r| r.starts_with('"')), "{:?}", rows[0]);
}

#[test]
fn a_large_sweep_streams_in_json() {
    let r = run(&["--json"], "{\"values\":[\"1\\\"\",\"12\"]");
    check(&["json"], &r);
    let v: serde_json::Value = serde_json::from_slice(&r.out).expect("one JSON object");
    assert_eq!(v["type"], "sweep");
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 400);
    assert_eq!(rows[399]["values"], serde_json::json!(["20\"", "30"]));
    // Every outcome of any row, once.
    let outcomes = v["outcomes"].as_array().expect("outcomes");
    let texts: std::collections::HashSet<&str> = rows
        .iter()
        .flat_map(|r| r["outcomes"].as_array().into_iter().flatten())
        .filter_map(|o| o["text"].as_str())
        .collect();
    assert_eq!(outcomes.len(), texts.len());
}
