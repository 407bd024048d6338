//! `odds … --svg FILE`: each chart read back with an XML parser and checked
//! for what it says, against the same answer in text and JSON: one bar per
//! outcome, the percentages the text prints, the axis labels.
//!
//! The numbers come from Drums and Muskets, Shooting Table 1: "Smooth Bore
//! Muskets | 2BW/4+ | 6BW/6", and "Base 1D6 per base or figure".

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The colours the chart module paints bars with.
const BAR: &str = "#426EAA";
const WITH_BAR: &str = "#D67A2C";

fn drumhead(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("drumhead runs")
}

fn chart(dir: &Path, name: &str, line: &str) -> (PathBuf, String) {
    let path = dir.join(name);
    let out = drumhead(&["--svg", path.to_str().unwrap(), line]);
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&path).expect("the chart was written");
    (path, svg)
}

/// Every text element's text, trimmed.
fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

fn rects_filled(doc: &roxmltree::Document, colour: &str) -> usize {
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(colour))
        .count()
}

fn json(line: &str) -> serde_json::Value {
    let out = drumhead(&["--json", line]);
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn a_distribution_is_a_bar_per_outcome_with_the_percentages_of_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let line = "odds shoot musket 6BW formed bases=4";
    let (_, svg) = chart(dir.path(), "odds.svg", line);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let answer = json(line);
    let outcomes = answer["outcomes"].as_array().unwrap();
    // 4 dice, each hitting on a 6: 0 to 4 hits.
    assert_eq!(outcomes.len(), 5);
    assert_eq!(rects_filled(&doc, BAR), outcomes.len());
    let shown = texts(&doc);
    // The text answer's percentages, each printed on the chart.
    let text = String::from_utf8(drumhead(&[line]).stdout).unwrap();
    let percents: Vec<&str> = text
        .split_whitespace()
        .filter(|w| w.ends_with('%'))
        .collect();
    assert_eq!(percents.len(), 5);
    for p in &percents {
        assert!(shown.iter().any(|t| t == p), "{p} is not on the chart");
    }
    // 0 hits: (5/6)^4 = 625/1296 = 48.23%.
    assert!(shown.iter().any(|t| t == "48.23%"));
    for o in outcomes {
        let label = o["text"].as_str().unwrap();
        assert!(shown.iter().any(|t| t == label), "no label {label}");
    }
    for axis in ["probability (%)", "hits", "at least this many"] {
        assert!(shown.iter().any(|t| t == axis), "no {axis}");
    }
    // The "at least" curve: a line through the 5 outcomes (the key beside
    // it is a short line of 2 points in the same colour).
    let curve: Vec<usize> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#A0283C"))
        .map(|n| n.attribute("points").unwrap().split_whitespace().count())
        .collect();
    assert_eq!(curve, [5, 2]);
}

#[test]
fn an_outcome_that_is_no_count_has_bars_and_no_curve() {
    let dir = tempfile::tempdir().unwrap();
    let (_, svg) = chart(dir.path(), "res.svg", "odds resilience melee");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // Four outcomes of a melee resilience test, 2D6 (see tests/cmd/general/odds.md).
    assert_eq!(rects_filled(&doc, BAR), 4);
    let shown = texts(&doc);
    for p in ["16.67%", "11.11%", "13.89%", "58.33%"] {
        assert!(shown.iter().any(|t| t == p), "{p}");
    }
    assert!(!shown.iter().any(|t| t == "at least this many"));
    assert!(shown.iter().any(|t| t == "outcome"));
}

#[test]
fn compare_is_paired_bars() {
    let dir = tempfile::tempdir().unwrap();
    // 2 dice at 1/2 without, 4 with (Table 2c: first time shooting, add 2 dice).
    let (_, svg) = chart(
        dir.path(),
        "cmp.svg",
        "odds shoot musket 2BW formed bases=2 compare first-shot",
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // 0 to 4 hits: a pair of bars each.
    assert_eq!(rects_filled(&doc, BAR), 5);
    assert_eq!(rects_filled(&doc, WITH_BAR), 5);
    let shown = texts(&doc);
    for p in ["25.00%", "50.00%", "6.25%", "37.50%", "0.00%"] {
        assert!(shown.iter().any(|t| t == p), "{p}");
    }
    assert!(shown.iter().any(|t| t == "with first-shot"));
}

#[test]
fn a_sweep_of_one_word_is_lines_of_two_of_a_heat_map() {
    let dir = tempfile::tempdir().unwrap();
    let (_, svg) = chart(
        dir.path(),
        "lines.svg",
        "odds shoot musket 2BW formed bases=2..4",
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let shown = texts(&doc);
    // An x label per swept value, a key entry per outcome and expected value.
    for t in ["2", "3", "4", "0 hits", "4 hits", "expected hits", "bases"] {
        assert!(shown.iter().any(|s| s == t), "no {t}");
    }
    // A line per outcome (0 to 4 hits) and one for the expected hits, each
    // with a marker per swept value; the key has a short line each too.
    let thick: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .collect();
    assert_eq!(thick.len(), 6);
    for line in &thick {
        let points = line.attribute("points").unwrap().split_whitespace().count();
        assert_eq!(points, 3, "a point per value of bases=2..4");
    }

    let (_, svg) = chart(
        dir.path(),
        "heat.svg",
        "odds shoot musket 2BW,6BW formed bases=2..8",
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let cells = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("rect")
                && n.attribute("fill") != Some("#FFFFFF")
                && n.attribute("stroke") == Some("none")
        })
        .count();
    assert_eq!(cells, 2 * 7);
    let shown = texts(&doc);
    // Expected hits: bases × 1/2 at 2BW, bases × 1/6 at 6BW.
    for t in [
        "4.00", "1.00", "1.33", "0.33", "2BW", "6BW", "distance", "bases",
    ] {
        assert!(shown.iter().any(|s| s == t), "no {t}");
    }
}

#[test]
fn the_file_is_replaced_whole_and_bad_paths_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chart.svg");
    std::fs::write(&path, "old").unwrap();
    // An existing file is replaced only with --force.
    let out = drumhead(&["--svg", path.to_str().unwrap(), "odds roll 2d6"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("already exists; give --force"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    let out = drumhead(&["--svg", path.to_str().unwrap(), "--force", "odds roll 2d6"]);
    assert!(out.status.success(), "{out:?}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"));
    // Nothing but the chart is left in the directory.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);

    let refused = |args: &[&str], says: &str, code: i32| {
        let out = drumhead(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    };
    let d = dir.path().to_str().unwrap();
    refused(&["--svg", d, "odds roll 2d6"], "is a directory", 1);
    let missing = dir.path().join("no/such/dir/c.svg");
    refused(
        &["--svg", missing.to_str().unwrap(), "odds roll 2d6"],
        "does not exist",
        1,
    );
    let p = path.to_str().unwrap();
    refused(&["--svg", p, "resilience +determined"], "--svg draws", 1);
    refused(&["--svg", p, "simulate 100 roll 2d6"], "--svg draws", 1);
    refused(&["--svg", p], "one `odds` line given", 2);
    // The refused lines left the chart as it was.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), svg);
}
