//! `odds … --svg FILE`: each chart read back with an XML parser and checked
//! for what it says, against the same answer in text and JSON: one bar per
//! outcome, the percentages the text prints, the axis labels.
//!
//! The numbers come from Drums and Muskets, Shooting Table 1: "Smooth Bore
//! Muskets | 2BW/4+ | 6BW/6", and "Base 1D6 per base or figure".

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The colours the chart module paints bars with.
const BAR: &str = "#0072B2";
const WITH_BAR: &str = "#E69F00";
/// The "at least" curve.
const AT_LEAST: &str = "#D55E00";

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
    // Each row's chance: its first percentage (the "at least" column
    // follows it).
    let percents: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().find(|w| w.ends_with('%')))
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
    // The "at least" curve: a line through the 5 outcomes, in a panel of
    // its own, its values in a row of their own: 4 dice, at least 1 hit is
    // 1 - 48.23% = 51.77%.
    let curve: Vec<usize> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(AT_LEAST))
        .map(|n| n.attribute("points").unwrap().split_whitespace().count())
        .collect();
    assert_eq!(curve, [5]);
    for p in ["≥ 100.00%", "≥ 51.77%"] {
        assert!(shown.iter().any(|t| t == p), "{p} is not on the chart");
    }
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
    // 0 to 4 hits: a pair of bars each, and a swatch of each in the key.
    assert_eq!(rects_filled(&doc, BAR), 5 + 1);
    assert_eq!(rects_filled(&doc, WITH_BAR), 5 + 1);
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

/// A text's box on the picture: from its x and y, its anchor, its font
/// size and its characters (a character about 0.6 of the size wide, more
/// than the sans-serif fonts' average, so that the estimate errs wide).
#[derive(Debug, Clone)]
struct Label {
    text: String,
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

fn labels(doc: &roxmltree::Document) -> Vec<Label> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("transform").is_none())
        .filter_map(|n| {
            let text = n.text().unwrap_or_default().trim().to_string();
            let num = |a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
            let (x, y, size) = (num("x")?, num("y")?, num("font-size")?);
            let width = text.chars().count() as f64 * size * 0.6;
            let left = match n.attribute("text-anchor") {
                Some("middle") => x - width / 2.0,
                Some("end") => x - width,
                _ => x,
            };
            // dy: 0.76em hangs the text under y, -0.5ex stands it on y,
            // 0.5ex centres it; none puts its baseline on y.
            let top = match n.attribute("dy") {
                Some("0.76em") => y,
                Some("-0.5ex") => y - size,
                Some("0.5ex") => y - size / 2.0,
                _ => y - size * 0.8,
            };
            Some(Label {
                text,
                left,
                top,
                right: left + width,
                bottom: top + size,
            })
        })
        .filter(|l| !l.text.is_empty())
        .collect()
}

fn overlap(a: &Label, b: &Label) -> bool {
    // A pixel of slack: two labels that touch do not overlap.
    a.left + 1.0 < b.right
        && b.left + 1.0 < a.right
        && a.top + 1.0 < b.bottom
        && b.top + 1.0 < a.bottom
}

/// Issue 26: "In charts, the compare legend covers a percentage, the
/// at-least line crosses bar labels, nine sweep colours are hard to tell
/// apart, and the faint minor grid prints as a barcode" — "charts whose
/// labels never overlap, with colours that can be told apart in print".
#[test]
fn no_two_labels_overlap_and_no_line_crosses_a_bar_label() {
    let dir = tempfile::tempdir().unwrap();
    for (name, line) in [
        ("dist.svg", "odds shoot musket 6BW formed bases=4"),
        ("many.svg", "odds shoot musket 2BW formed bases=12"),
        (
            "cmp.svg",
            "odds shoot musket 2BW formed bases=2 compare first-shot",
        ),
        ("res.svg", "odds resilience melee"),
        ("sweep.svg", "odds shoot musket 2BW formed bases=2..10"),
    ] {
        let (_, svg) = chart(dir.path(), name, line);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let all = labels(&doc);
        assert!(all.len() > 10, "{line}: {} labels", all.len());
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(
                    !overlap(a, b),
                    "{line}: `{}` overlaps `{}`: {a:?} {b:?}",
                    a.text,
                    b.text
                );
            }
        }
        // No polyline (a curve, a key's line) passes through a
        // percentage's box: sample each segment.
        let percents: Vec<&Label> = all
            .iter()
            .filter(|l| l.text.ends_with('%') && !l.text.contains(' '))
            .collect();
        for n in doc.descendants().filter(|n| n.has_tag_name("polyline")) {
            let points: Vec<(f64, f64)> = n
                .attribute("points")
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect();
            for w in points.windows(2) {
                for step in 0..=20 {
                    let t = f64::from(step) / 20.0;
                    let (x, y) = (
                        w[0].0 + (w[1].0 - w[0].0) * t,
                        w[0].1 + (w[1].1 - w[0].1) * t,
                    );
                    for l in &percents {
                        assert!(
                            !(x > l.left && x < l.right && y > l.top && y < l.bottom),
                            "{line}: a line crosses `{}`",
                            l.text
                        );
                    }
                }
            }
        }
        // The key's swatches (12 by 12) cover no percentage either.
        for n in doc.descendants().filter(|n| {
            n.has_tag_name("rect")
                && n.attribute("width") == Some("12")
                && n.attribute("height") == Some("12")
        }) {
            let num = |a: &str| {
                n.attribute(a)
                    .and_then(|v| v.parse::<f64>().ok())
                    .unwrap_or(0.0)
            };
            let swatch = Label {
                text: "a key's swatch".into(),
                left: num("x"),
                top: num("y"),
                right: num("x") + 12.0,
                bottom: num("y") + 12.0,
            };
            for l in &percents {
                assert!(!overlap(&swatch, l), "{line}: the key covers `{}`", l.text);
            }
        }
        // The grid is a few lines dark enough to print, no faint fine mesh.
        let faint = doc
            .descendants()
            .filter(|n| {
                n.attribute("stroke").is_some_and(|c| {
                    let c = c.trim_start_matches('#');
                    c.len() == 6
                        && c != "FFFFFF"
                        && (0..3).all(|i| {
                            u8::from_str_radix(&c[2 * i..2 * i + 2], 16).is_ok_and(|v| v > 0xD8)
                        })
                })
            })
            .count();
        assert_eq!(faint, 0, "{line}: lines too faint to print");
    }
}

#[test]
fn a_sweep_of_many_outcomes_tells_each_line_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (_, svg) = chart(
        dir.path(),
        "sweep.svg",
        "odds shoot musket 2BW formed bases=2..10",
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let shown = texts(&doc);
    // 0 to 10 hits: eleven lines, more than the palette's seven colours.
    assert!(shown.iter().any(|t| t == "10 hits"), "{shown:?}");
    let colours: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .filter_map(|n| n.attribute("stroke"))
        .collect();
    assert_eq!(colours.len(), 7, "{colours:?}");
    // Any two colours are far apart.
    let rgb = |c: &str| -> [i32; 3] {
        let c = c.trim_start_matches('#');
        [0, 1, 2].map(|i| i32::from_str_radix(&c[2 * i..2 * i + 2], 16).unwrap())
    };
    let list: Vec<&str> = colours.iter().copied().collect();
    for (i, a) in list.iter().enumerate() {
        for b in &list[i + 1..] {
            let (a, b) = (rgb(a), rgb(b));
            let d: i32 = (0..3).map(|k| (a[k] - b[k]).pow(2)).sum();
            assert!(d > 60 * 60, "{a:?} and {b:?} are alike");
        }
    }
    // Past the seventh, the lines are dashed: many short runs of a colour.
    let runs = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("polyline")
                && n.attribute("stroke") == Some(BAR)
                && n.attribute("stroke-width") == Some("2")
        })
        .count();
    assert!(runs > 2, "the eighth line is dashed: {runs} runs");
}
