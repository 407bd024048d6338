//! Every row of the Drums and Muskets tables drumhead implements, walked
//! against numbers copied by hand from the quick reference sheet
//! (shared/rules/drums-and-muskets-quick-reference.txt) — never read back
//! from tables/drums.toml, so a wrong number there fails here.

use crate::answer::Resolution;
use crate::session::{Output, Session};

fn session() -> Session {
    Session::new(
        crate::systems::embedded().expect("embedded tables load"),
        crate::drums::DRUMS,
        1,
    )
}

fn resolve(line: &str) -> Resolution {
    match session().run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        other => panic!("`{line}` did not resolve: {other:?}"),
    }
}

/// Resilience Situation Adjustment Table: (keyword, shooting, charge or melee, other);
/// `None` is a blank cell.
type Cell = Option<i64>;

const ADJUSTMENTS: &[(&str, Cell, Cell, Cell)] = &[
    ("determined", Some(1), Some(2), Some(1)),
    ("lackluster", Some(-1), Some(-2), Some(-1)),
    ("zealous", None, Some(1), None),
    ("guards", Some(1), Some(1), Some(1)),
    ("line", Some(1), None, None),
    ("line-vs-column", None, Some(-1), None),
    ("column-of-attack", None, Some(1), None),
    ("open", Some(1), Some(-2), None),
    ("outnumber", Some(1), Some(1), Some(1)),
    ("inflicted", Some(1), Some(1), None),
    ("hit", Some(-1), None, Some(-1)),
    ("artillery-hits", Some(-1), Some(-1), Some(-1)),
    ("won-round", None, Some(1), None),
    ("lost-round", None, Some(-2), None),
    ("general", Some(1), Some(1), Some(1)),
    ("inspiring", Some(1), Some(1), Some(1)),
    ("hated", Some(-1), Some(-2), Some(-1)),
    ("light-target", Some(-1), None, None),
    ("column-of-march", Some(-2), Some(-2), None),
    ("fortified", Some(2), Some(2), Some(1)),
    ("retired", Some(-2), Some(-2), Some(-1)),
    ("cavalry-vs-foot", None, Some(2), None),
    ("cavalry-vs-square", None, Some(-2), None),
    ("square-vs-cavalry", None, Some(2), None),
    ("baggage-lost", Some(-1), Some(-1), Some(-1)),
    ("half-lost", Some(-1), Some(-1), Some(-1)),
    ("hand-to-hand", Some(-1), Some(1), None),
];

#[test]
fn every_resilience_adjustment_in_every_context() {
    for &(keyword, shooting, charge_melee, other) in ADJUSTMENTS {
        for (context, expected) in [
            ("shooting", shooting),
            ("charge", charge_melee),
            ("melee", charge_melee),
            ("other", other),
        ] {
            // `zealous` in every line switches off the automatic "not
            // zealous" row, so the score moves by the keyword's cell alone.
            let extra = if keyword == "zealous" { "" } else { " zealous" };
            let res = resolve(&format!("resilience {context} {keyword}{extra} rolled 3 4"));
            let zealous_cell = if context == "charge" || context == "melee" {
                1
            } else {
                0
            };
            let base = 7 + if keyword == "zealous" {
                0
            } else {
                zealous_cell
            };
            assert_eq!(
                res.score,
                Some(base + expected.unwrap_or(0)),
                "{keyword} in {context}"
            );
        }
    }
}

#[test]
fn not_zealous_applies_by_itself_only_from_shooting() {
    assert_eq!(resolve("resilience shooting rolled 3 4").score, Some(8));
    assert_eq!(
        resolve("resilience shooting zealous rolled 3 4").score,
        Some(7)
    );
    assert_eq!(resolve("resilience charge rolled 3 4").score, Some(7));
    assert_eq!(resolve("resilience other rolled 3 4").score, Some(7));
}

#[test]
fn counted_rows_count() {
    assert_eq!(
        resolve("resilience other general=3 rolled 3 4").score,
        Some(10)
    );
    assert_eq!(
        resolve("resilience other general general rolled 3 4").score,
        Some(9)
    );
    assert_eq!(
        resolve("resilience melee hated=2 rolled 3 4").score,
        Some(3)
    );
}

/// Resilience Outcomes Table: (outcome, hits, advance) per context for a score.
fn expected_outcome(score: i64, context: &str) -> (&'static str, i64, i64) {
    match (score, context) {
        (s, _) if s <= 1 => ("break", 0, 0),
        (2..=4, "shooting") => ("forced-retire", 1, 0),
        (2..=4, "charge") => ("forced-retire", 0, 0),
        (2..=4, "melee") => ("forced-retire", 2, 0),
        (2..=4, _) => ("forced-retire", 1, 0),
        (5, "shooting") => ("forced-retire", 0, 0),
        (5, "charge") => ("stand", 0, 0),
        (5, "melee") => ("forced-retire", 1, 0),
        (5, _) => ("forced-retire", 0, 0),
        (6, "shooting") => ("stand", 1, 0),
        (6, "charge") => ("stand", 0, 0),
        (6, "melee") => ("stand", 1, 0),
        (6, _) => ("forced-retire", 0, 0),
        (7..=9, _) => ("carry-on", 0, 0),
        (10..=11, "other") => ("advance", 0, 1),
        (10..=11, _) => ("carry-on", 0, 0),
        (_, "shooting") => ("advance", 0, 1),
        (_, "other") => ("advance", 0, 2),
        _ => ("carry-on", 0, 0),
    }
}

/// A command that scores exactly `score` in `context`, with a D12 and
/// generals (+1 each) or hated generals (−1, or −2 in charge/melee).
fn command_for(score: i64, context: &str) -> String {
    // `zealous` silences "not zealous" (+1 from shooting) and is worth +1 in
    // charge/melee; account for it.
    let zealous = if context == "charge" || context == "melee" {
        1
    } else {
        0
    };
    let target = score - zealous;
    if target >= 1 {
        let face = target.min(12);
        format!(
            "resilience {context} d12 zealous general={} rolled {face}",
            target - face
        )
    } else {
        let needed = 1 - target;
        if zealous == 1 {
            // hated is −2 here; line-vs-column adds the odd −1.
            let hated = needed / 2;
            let odd = if needed % 2 == 1 {
                " line-vs-column"
            } else {
                ""
            };
            format!("resilience {context} d12 zealous hated={hated}{odd} rolled 1")
        } else {
            format!("resilience {context} d12 zealous hated={needed} rolled 1")
        }
    }
}

#[test]
fn every_score_from_minus_five_to_seventeen_in_every_context() {
    for context in ["shooting", "charge", "melee", "other"] {
        for score in -5..=17 {
            let line = command_for(score, context);
            let res = resolve(&line);
            assert_eq!(res.score, Some(score), "{line}");
            let (outcome, hits, advance) = expected_outcome(score, context);
            assert_eq!(res.outcome, outcome, "{line}");
            assert_eq!(res.fields["hits"], hits, "{line}");
            assert_eq!(res.fields["advance_bw"], advance, "{line}");
            assert_eq!(res.fields["context"], context, "{line}");
        }
    }
}

#[test]
fn every_hold_test_row() {
    let rows: &[(&str, i64)] = &[
        ("determined", 2),
        ("not-in-terrain", 1),
        ("outnumber", 1),
        ("not-charged", 1),
        ("strong", 1),
        ("larger", 1),
        ("lackluster", -2),
        ("irregular-leaving-terrain", -2),
        ("weak", -1),
        ("charged-twice", -1),
        ("target-in-terrain", -1),
    ];
    for &(keyword, value) in rows {
        let res = resolve(&format!("hold {keyword} rolled 3 3"));
        assert_eq!(res.score, Some(6 + value), "{keyword}");
        let expected = if 6 + value >= 7 {
            "must-charge"
        } else {
            "free"
        };
        assert_eq!(res.outcome, expected, "{keyword}");
    }
    assert_eq!(resolve("hold rolled 3 4").outcome, "must-charge");
    assert_eq!(resolve("hold rolled 3 3").outcome, "free");
    assert_eq!(resolve("hold d12 rolled 7").outcome, "must-charge");
}

/// Charge Distances: with every die showing 1 and every die showing 6.
#[test]
fn every_charge_distance_row() {
    let rows: &[(&str, Option<(i64, u32)>)] = &[
        ("foot open", Some((0, 1))),
        ("foot line", Some((0, 1))),
        ("foot column-of-attack", Some((2, 1))),
        ("foot column-of-march", None),
        ("cavalry open", Some((3, 2))),
        ("cavalry formed", Some((0, 2))),
        ("cavalry column-of-march", None),
        ("artillery unlimbered", None),
        ("artillery limbered", None),
        ("irregular open", Some((1, 1))),
        ("irregular column-of-march", None),
        ("general", None),
    ];
    for &(words, expected) in rows {
        match expected {
            None => {
                let res = resolve(&format!("charge {words}"));
                assert_eq!(res.outcome, "cannot-charge", "{words}");
                assert!(res.dice.is_empty(), "{words}");
            }
            Some((fixed, dice)) => {
                for face in [1, 6] {
                    let faces = vec![face.to_string(); dice as usize].join(" ");
                    let res = resolve(&format!("charge {words} rolled {faces}"));
                    let want = fixed + i64::from(dice) * face;
                    assert_eq!(res.fields["distance_bw"], want, "{words} all {face}s");
                }
            }
        }
    }
}

/// Movement: (words, column, fixed, dice count, sides); `None` for NA.
#[test]
fn every_movement_row() {
    type Move = Option<(i64, u32, u32)>;
    let rows: &[(&str, Move, Move, Move)] = &[
        (
            "foot open",
            Some((2, 1, 6)),
            Some((0, 1, 6)),
            Some((0, 1, 6)),
        ),
        ("foot open evading", Some((0, 1, 6)), Some((0, 1, 6)), None),
        (
            "foot line",
            Some((0, 1, 6)),
            Some((0, 1, 3)),
            Some((0, 1, 6)),
        ),
        (
            "foot column-of-attack",
            Some((2, 1, 6)),
            Some((0, 1, 3)),
            Some((0, 1, 6)),
        ),
        (
            "foot column-of-march",
            Some((0, 2, 6)),
            Some((0, 1, 3)),
            Some((0, 1, 6)),
        ),
        (
            "cavalry open",
            Some((2, 2, 6)),
            Some((0, 1, 6)),
            Some((0, 1, 6)),
        ),
        (
            "cavalry open evading",
            Some((0, 1, 6)),
            Some((0, 1, 6)),
            None,
        ),
        (
            "cavalry formed",
            Some((0, 2, 6)),
            Some((0, 1, 6)),
            Some((0, 1, 6)),
        ),
        (
            "cavalry column-of-march",
            Some((0, 3, 6)),
            Some((0, 1, 6)),
            Some((0, 1, 6)),
        ),
        (
            "artillery unlimbered",
            Some((0, 1, 3)),
            Some((1, 0, 6)),
            Some((0, 1, 6)),
        ),
        (
            "artillery limbered",
            Some((0, 2, 6)),
            Some((0, 1, 3)),
            Some((0, 1, 6)),
        ),
        ("general", Some((10, 0, 6)), Some((10, 0, 6)), None),
    ];
    for (words, normal, terrain, retire) in rows {
        for (column, expected) in [("", normal), (" terrain", terrain), (" retire", retire)] {
            let line = format!("move {words}{column}");
            match expected {
                None => {
                    let err = session().run_line(&line).expect_err(&line);
                    assert!(err.to_string().contains("NA"), "{line}: {err}");
                }
                Some((fixed, count, sides)) => {
                    let faces = vec![sides.to_string(); *count as usize].join(" ");
                    let line = if *count > 0 {
                        format!("{line} rolled {faces}")
                    } else {
                        line
                    };
                    let res = resolve(&line);
                    let want = fixed + i64::from(*count) * i64::from(*sides);
                    assert_eq!(res.fields["distance_bw"], want, "{line}");
                }
            }
        }
    }
}

#[test]
fn road_adds_one_die_in_column_of_march_only() {
    let res = resolve("move foot column-of-march road rolled 1 1 6");
    assert_eq!(res.fields["distance_bw"], 8);
    assert!(session().run_line("move foot line road").is_err());
    assert!(session().run_line("move general road").is_err());
}

#[test]
fn initiative_pools_and_ties() {
    // 1D6 per general, +1 per exceptional, -1 per incompetent, +1 supply.
    let res = resolve(
        "initiative generals=2 exceptional=1 supply vs generals=2 incompetent=1 rolled 1 1 1 1 6",
    );
    assert_eq!(res.fields["sides"][0]["pool"], 4);
    assert_eq!(res.fields["sides"][1]["pool"], 1);
    assert_eq!(res.outcome, "b");
    // A draw is repeated with 1D6 each, no pool dice, until decided.
    let res = resolve("initiative generals=2 vs generals=2 rolled 3 4 5 2 4 4 1 2");
    assert_eq!(res.outcome, "b");
    assert_eq!(res.dice.len(), 8);
}

#[test]
fn risk_to_generals() {
    assert_eq!(resolve("risk broke rolled 5 1 1 1").outcome, "swept-away");
    assert_eq!(
        resolve("risk broke rolled 5 1 1 1").fields["distance_bw"],
        3
    );
    assert_eq!(resolve("risk broke rolled 4").outcome, "unharmed");
    assert_eq!(resolve("risk shot rolled 6").outcome, "incapacitated");
    assert_eq!(resolve("risk shot rolled 5").outcome, "unharmed");
}

#[test]
fn six_hits_remove_a_base() {
    for (hits, lost, left) in [(0, 0, 0), (5, 0, 5), (6, 1, 0), (13, 2, 1)] {
        let res = resolve(&format!("hits {hits}"));
        assert_eq!(res.fields["bases_lost"], lost, "{hits}");
        assert_eq!(res.fields["hits_left"], left, "{hits}");
    }
}
