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
    /// The child's peak resident memory (VmHWM), KiB: read from /proc as
    /// its output comes, since the peak `wait4` reports starts from this
    /// test process's own, which the child was spawned from.
    max_rss: i64,
    code: Option<i32>,
}

/// The most memory a process has held so far (VmHWM), in KiB; `None`
/// once it has ended.
fn peak_kib(pid: u32) -> Option<i64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

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
    let pid = child.id();
    let mut out = child.stdout.take().expect("its output");
    let mut got = Vec::new();
    let mut buf = [0u8; 1 << 16];
    let mut max_rss = 0;
    let mut first_rows = None;
    loop {
        let n = out.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        // Its last bytes are read before it has ended: the peak seen
        // then is its peak but for its exit.
        max_rss = max_rss.max(peak_kib(pid).unwrap_or(0));
        got.extend_from_slice(&buf[..n]);
        if first_rows.is_none() && got.windows(second.len()).any(|w| w == second.as_bytes()) {
            first_rows = Some(start.elapsed());
        }
    }
    let status = child.wait().expect("it ends");
    Run {
        out: got,
        first_rows: first_rows.unwrap_or_else(|| panic!("{format:?}: no `{second}` in the output")),
        took: start.elapsed(),
        max_rss,
        code: status.code(),
    }
}

fn check(format: &[&str], run: &Run) {
    assert_eq!(run.code, Some(0), "{format:?}");
    assert!(run.max_rss > 0, "{format:?}: its memory was never read");
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
