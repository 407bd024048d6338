//! Musket & Saber procedures against hand-written expectations from the
//! rule texts (not read back from tables/*.toml): the halving rule's edge
//! cases, clamping at both outer columns, odds-ratio rounding, and each
//! result code in both variants with the morale die passing and failing.
//! The dice are entered: combat die first, morale die second.

use drumhead::answer::Resolution;
use drumhead::command::System;
use drumhead::session::{Output, Session};
use drumhead::system::Tables;

fn run_with(tables: Tables, system: System, line: &str) -> Resolution {
    let mut session = Session::new(tables, system, 1);
    match session.run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        other => panic!("{line}: {other:?}"),
    }
}

fn run(system: System, line: &str) -> Resolution {
    run_with(drumhead::systems::embedded().unwrap(), system, line)
}

fn int(res: &Resolution, key: &str) -> i64 {
    res.fields[key]
        .as_i64()
        .unwrap_or_else(|| panic!("{key} in {:?}", res.fields))
}

fn text(res: &Resolution, key: &str) -> String {
    res.fields[key].as_str().unwrap_or_default().to_string()
}

/// One factor's value: attack it against 1 (defending: 1 against it).
fn attacking(system: System, factor: &str) -> i64 {
    int(
        &run(
            system,
            &format!("attack {factor} mr=4 vs 1 mr=4 rolled 2 1"),
        ),
        "attack",
    )
}

fn defending(system: System, factor: &str) -> i64 {
    int(
        &run(
            system,
            &format!("attack 1 mr=4 vs {factor} mr=4 rolled 2 1"),
        ),
        "defence",
    )
}

#[test]
fn halving_edge_cases() {
    use drumhead::saber::{QUICKPLAY as SaberQuickplay, SABER as Saber};
    // Once: divide by two, rounding up any remainder (standard 7.7, QuickPlay 7.4).
    for (f, v) in [("5h", 3), ("4h", 2), ("1h", 1), ("9h", 5)] {
        assert_eq!(attacking(Saber, f), v, "{f}");
        assert_eq!(attacking(SaberQuickplay, f), v, "{f}");
    }
    // Standard 7.5: "A unit with a CF of zero cannot attack": a zero is
    // halved on defence.
    assert_eq!(defending(Saber, "0h"), 0);
    assert_eq!(attacking(SaberQuickplay, "0h"), 0);
    // Twice or more: a combat factor of one.
    for f in ["5hh", "2hh", "9hhh", "1hh"] {
        assert_eq!(attacking(Saber, f), 1, "{f}");
        assert_eq!(attacking(SaberQuickplay, f), 1, "{f}");
    }
    // Zero CF remain zero (standard 7.7); QuickPlay 7.4: "regardless of its original combat factor".
    assert_eq!(defending(Saber, "0hh"), 0);
    assert_eq!(attacking(SaberQuickplay, "0hh"), 1);
    // A parenthesized CF is halved when attacking, not when defending (2.4, 7.5).
    assert_eq!(attacking(Saber, "(5)"), 3);
    assert_eq!(defending(Saber, "(5)"), 5);
    assert_eq!(attacking(Saber, "(5)h"), 1);
    assert_eq!(defending(Saber, "(5)h"), 3);
    assert_eq!(attacking(Saber, "7"), 7);
}

#[test]
fn clamping_at_both_outer_columns() {
    for system in [drumhead::saber::SABER, drumhead::saber::QUICKPLAY] {
        let low = run(system, "attack 1 mr=4 vs 9 mr=4 rolled 3 1");
        assert_eq!(int(&low, "differential"), -8);
        assert_eq!(text(&low, "column"), "−3");
        assert_eq!(text(&low, "result"), "Ar L");
        let high = run(system, "attack 12 mr=4 vs 1 mr=4 rolled 2 1");
        assert_eq!(int(&high, "differential"), 11);
        assert_eq!(text(&high, "column"), "+4");
        assert_eq!(text(&high, "result"), "Dx");
        let edge = run(system, "attack 7 mr=4 vs 3 mr=4 rolled 2 1");
        assert_eq!(text(&edge, "column"), "+4");
    }
}

#[test]
fn ratio_rounding_in_the_defenders_favour() {
    let tables = || {
        drumhead::systems::all()
            .load(&drumhead::tables::TableSource::embedded().with_file(
                "crt.toml",
                std::path::Path::new("tests/data/crt/ratio.toml"),
            ))
            .unwrap()
    };
    for (a, d, ratio, column) in [
        (7, 3, "2:1", "2:1"),
        (3, 7, "1:3", "1:3"),
        (5, 10, "1:2", "1:2"),
        (4, 7, "1:2", "1:2"),
        (6, 6, "1:1", "1:1"),
        (11, 4, "2:1", "2:1"),
        (12, 4, "3:1", "3:1"),
        (1, 9, "1:9", "1:3"),
        (20, 2, "10:1", "4:1"),
    ] {
        let res = run_with(
            tables(),
            drumhead::saber::SABER,
            &format!("attack {a} mr=4 vs {d} mr=4 rolled 1 1"),
        );
        assert_eq!(text(&res, "ratio"), ratio, "{a}:{d}");
        assert_eq!(text(&res, "column"), column, "{a}:{d}");
    }
}

/// (line, applied, outcome must contain, check passed)
type Case = (&'static str, &'static str, &'static str, Option<bool>);

fn check_cases(system: System, cases: &[Case]) {
    for (line, applied, outcome, passed) in cases {
        let res = run(system, line);
        assert_eq!(&text(&res, "applied"), applied, "{system} {line}");
        assert!(
            res.outcome.contains(outcome),
            "{system} {line}: outcome {} lacks {outcome}",
            res.outcome
        );
        let got = res
            .fields
            .get("check")
            .map(|c| c["passed"].as_bool().unwrap());
        assert_eq!(got, *passed, "{system} {line}: check");
    }
}

#[test]
fn each_result_code_in_the_standard_rules() {
    check_cases(
        drumhead::saber::SABER,
        &[
            ("attack 3 vs 3 rolled 2 4", "NE", "no-effect", None),
            (
                "attack 1 vs 3 rolled 2 4",
                "Ar",
                "attacker-retreat-or-disrupt",
                None,
            ),
            // Ar on a disrupted unit: a check if it chooses disruption.
            (
                "attack 1 mr=4 disrupted vs 3 rolled 2 2",
                "Ar",
                "attacker-retreat-or-disrupt",
                Some(true),
            ),
            (
                "attack 1 mr=4 disrupted vs 3 rolled 2 3",
                "Ar",
                "attacker-retreat-or-disrupt",
                Some(false),
            ),
            // Ac: pass, the parenthesized result; fail, the side retreats.
            (
                "attack 3 mr=4 vs 3 rolled 1 4",
                "NE",
                "no-effect",
                Some(true),
            ),
            (
                "attack 3 mr=4 vs 3 rolled 1 5",
                "Ac",
                "attacker-retreats",
                Some(false),
            ),
            // Ax: the owner's choice, no check; cavalry retreats disrupted.
            (
                "attack 1 mr=4 vs 4 rolled 4 6",
                "Ax",
                "attacker-step-loss-or-retreat-disrupted",
                None,
            ),
            (
                "attack 1 mr=4 cavalry vs 4 rolled 4 1",
                "Ax",
                "attacker-retreats-disrupted",
                None,
            ),
            (
                "attack 1 mr=3 vs 4 rolled 2 3",
                "Ar",
                "attacker-retreat-or-disrupt",
                Some(true),
            ),
            (
                "attack 1 mr=3 vs 4 rolled 2 4",
                "Am",
                "attacker-routs+defender-fow",
                Some(false),
            ),
            (
                "attack 1 mr=3 vs 4 rolled 1 3",
                "Ae",
                "attacker-step-loss-and-retreat",
                Some(true),
            ),
            (
                "attack 1 mr=3 vs 4 rolled 1 4",
                "Ae",
                "attacker-routs",
                Some(false),
            ),
            (
                "attack 3 vs 3 rolled 5 1",
                "Dr",
                "defender-retreat-or-disrupt",
                None,
            ),
            (
                "attack 3 vs 3 mr=4 rolled 4 4",
                "NE",
                "no-effect",
                Some(true),
            ),
            (
                "attack 3 vs 3 mr=4 rolled 4 5",
                "Dc",
                "defender-retreats",
                Some(false),
            ),
            (
                "attack 3 vs 3 mr=4 rolled 6 6",
                "Dx",
                "defender-step-loss-or-retreat-disrupted",
                None,
            ),
            (
                "attack 4 vs 3 mr=4 rolled 6 4",
                "Dr",
                "defender-retreat-or-disrupt",
                Some(true),
            ),
            (
                "attack 4 vs 3 mr=4 rolled 6 5",
                "Dm",
                "defender-routs+attacker-fow",
                Some(false),
            ),
            (
                "attack 6 vs 3 mr=4 rolled 6 4",
                "De",
                "defender-step-loss-and-retreat",
                Some(true),
            ),
            (
                "attack 6 vs 3 mr=4 rolled 6 6",
                "De",
                "defender-routs",
                Some(false),
            ),
            ("attack 1 vs 3 rolled 4 1", "Ex", "exchange", None),
            ("attack 3 vs 3 rolled 3 1", "NE", "defender-fow", None),
            (
                "attack 5 vs 3 mr=4 rolled 5 2",
                "Dr",
                "leader-casualty-check",
                Some(true),
            ),
            ("attack 5 vs 3 rolled 1 1", "NE", "ammo", None),
        ],
    );
}

#[test]
fn each_result_code_in_the_quickplay_rules() {
    check_cases(
        drumhead::saber::QUICKPLAY,
        &[
            ("attack 3 vs 3 rolled 2 4", "NE", "no-effect", None),
            // Ar: retreat or disrupted, no check even when disrupted.
            (
                "attack 1 mr=4 disrupted vs 3 rolled 2 3",
                "Ar",
                "attacker-retreat-or-disrupt",
                None,
            ),
            // Ac: fail is an Ar.
            (
                "attack 3 mr=4 vs 3 rolled 1 4",
                "NE",
                "no-effect",
                Some(true),
            ),
            (
                "attack 3 mr=4 vs 3 rolled 1 5",
                "Ac",
                "attacker-retreat-or-disrupt",
                Some(false),
            ),
            // Ax/Dx: a check; pass, a loss; fail, disrupted and retreat.
            (
                "attack 1 mr=4 vs 4 rolled 4 1",
                "Ax",
                "attacker-step-loss",
                Some(true),
            ),
            (
                "attack 1 mr=4 vs 4 rolled 4 6",
                "Ax",
                "attacker-retreats-disrupted",
                Some(false),
            ),
            (
                "attack 1 mr=3 vs 4 rolled 2 3",
                "Ar",
                "attacker-retreat-or-disrupt",
                Some(true),
            ),
            // No fortune of war for a rout in QuickPlay.
            (
                "attack 1 mr=3 vs 4 rolled 2 4",
                "Am",
                "attacker-routs",
                Some(false),
            ),
            (
                "attack 1 mr=3 vs 4 rolled 1 3",
                "Ae",
                "attacker-step-loss-and-retreat",
                Some(true),
            ),
            (
                "attack 1 mr=3 vs 4 rolled 1 4",
                "Ae",
                "attacker-routs",
                Some(false),
            ),
            (
                "attack 3 vs 3 mr=4 rolled 4 4",
                "NE",
                "no-effect",
                Some(true),
            ),
            (
                "attack 3 vs 3 mr=4 rolled 4 5",
                "Dc",
                "defender-retreat-or-disrupt",
                Some(false),
            ),
            (
                "attack 3 vs 3 mr=4 rolled 6 3",
                "Dx",
                "defender-step-loss",
                Some(true),
            ),
            (
                "attack 3 vs 3 mr=4 rolled 6 6",
                "Dx",
                "defender-retreats-disrupted",
                Some(false),
            ),
            (
                "attack 4 vs 3 mr=4 rolled 6 4",
                "Dr",
                "defender-retreat-or-disrupt",
                Some(true),
            ),
            (
                "attack 4 vs 3 mr=4 rolled 6 5",
                "Dm",
                "defender-routs",
                Some(false),
            ),
            (
                "attack 6 vs 3 mr=4 rolled 6 4",
                "De",
                "defender-step-loss-and-retreat",
                Some(true),
            ),
            (
                "attack 6 vs 3 mr=4 rolled 6 6",
                "De",
                "defender-routs",
                Some(false),
            ),
            ("attack 1 vs 3 rolled 4 1", "Ex", "exchange", None),
        ],
    );
    let rout = run(drumhead::saber::QUICKPLAY, "attack 4 vs 3 mr=4 rolled 6 5");
    assert!(!rout.outcome.contains("fow"));
}

#[test]
fn morale_checks() {
    let pass = |system, line: &str| run(system, line).outcome == "pass";
    // Greater than the MR fails; 1 always passes, 6 always fails.
    assert!(pass(drumhead::saber::SABER, "morale 4 rolled 4"));
    assert!(!pass(drumhead::saber::SABER, "morale 4 rolled 5"));
    assert!(pass(
        drumhead::saber::SABER,
        "morale 1 disrupted night rolled 1"
    ));
    assert!(!pass(drumhead::saber::SABER, "morale 6 leader=3 rolled 6"));
    // Disrupted +2 to the roll, night +2, twilight +1 (11.1, 14.2, 14.3).
    assert!(pass(drumhead::saber::SABER, "morale 4 disrupted rolled 2"));
    assert!(!pass(drumhead::saber::SABER, "morale 4 disrupted rolled 3"));
    assert!(!pass(drumhead::saber::SABER, "morale 4 night rolled 3"));
    assert!(pass(drumhead::saber::SABER, "morale 4 twilight rolled 3"));
    assert!(!pass(drumhead::saber::SABER, "morale 4 twilight rolled 4"));
    // Leader adds his morale rating; a square vs cavalry adds two (9.5).
    assert!(pass(drumhead::saber::SABER, "morale 3 leader=1 rolled 4"));
    assert!(pass(drumhead::saber::SABER, "morale 3 square rolled 5"));
    // Artillery: MR 6, but fails on a 6 (8.1).
    assert!(pass(drumhead::saber::SABER, "morale artillery rolled 5"));
    assert!(!pass(drumhead::saber::SABER, "morale artillery rolled 6"));
    // QuickPlay: disrupted reduces the morale by two (11.1).
    assert!(pass(
        drumhead::saber::QUICKPLAY,
        "morale 4 disrupted rolled 2"
    ));
    assert!(!pass(
        drumhead::saber::QUICKPLAY,
        "morale 4 disrupted rolled 3"
    ));
    assert_eq!(
        int(
            &run(drumhead::saber::SABER, "morale 4 disrupted rolled 1"),
            "needed"
        ),
        2
    );
}

#[test]
fn leader_casualties_ma_capture_fow() {
    let out = |system, line: &str| run(system, line).outcome;
    assert_eq!(
        out(
            drumhead::saber::SABER,
            "leader-casualty participating rolled 5"
        ),
        "casualty"
    );
    assert_eq!(
        out(
            drumhead::saber::SABER,
            "leader-casualty participating rolled 4"
        ),
        "unharmed"
    );
    assert_eq!(
        out(drumhead::saber::SABER, "leader-casualty stacked rolled 5"),
        "unharmed"
    );
    assert_eq!(
        out(
            drumhead::saber::SABER,
            "leader-casualty coordinating rolled 6"
        ),
        "casualty"
    );
    assert_eq!(
        out(
            drumhead::saber::QUICKPLAY,
            "leader-casualty involved rolled 5"
        ),
        "casualty"
    );
    let ma = |system, line: &str| run(system, line).score.unwrap();
    assert_eq!(ma(drumhead::saber::SABER, "ma 4 disrupted rolled 6 5 3"), 3);
    assert_eq!(ma(drumhead::saber::SABER, "ma 5 march"), 9);
    assert_eq!(ma(drumhead::saber::SABER, "ma 5 march cavalry"), 15);
    assert_eq!(
        ma(drumhead::saber::SABER, "ma 5 disrupted march rolled 4"),
        7
    );
    assert_eq!(
        ma(
            drumhead::saber::SABER,
            "ma 5 disrupted march cavalry rolled 3 4"
        ),
        10
    );
    assert_eq!(ma(drumhead::saber::QUICKPLAY, "ma 8 disrupted rolled 5"), 8);
    assert_eq!(ma(drumhead::saber::QUICKPLAY, "ma 8 disrupted rolled 2"), 5);
    assert_eq!(ma(drumhead::saber::QUICKPLAY, "ma 4 disrupted rolled 6"), 4);
    assert_eq!(
        ma(drumhead::saber::QUICKPLAY, "ma 4 disrupted march rolled 3"),
        6
    );
    assert_eq!(
        out(drumhead::saber::SABER, "capture 3 rolled 3"),
        "captured"
    );
    assert_eq!(out(drumhead::saber::SABER, "capture 3 rolled 4"), "escaped");
    assert_eq!(
        out(drumhead::saber::SABER, "fow move-enemy rolled 2"),
        "may-move"
    );
    assert_eq!(
        out(drumhead::saber::SABER, "fow move-enemy rolled 3"),
        "stays"
    );
}

#[test]
fn bombardment() {
    // Attack total as the differential, doubled against cavalry.
    let res = run(
        drumhead::saber::SABER,
        "bombard 3 vs cavalry mr=3 rolled 6 2",
    );
    assert_eq!(int(&res, "differential"), 6);
    // A results ignored.
    let res = run(drumhead::saber::SABER, "bombard 1 rolled 1 1");
    assert_eq!(text(&res, "applied"), "NE");
    // Parenthesized results ignored in the standard rules, not in QuickPlay.
    assert_eq!(
        text(
            &run(drumhead::saber::SABER, "bombard 3 vs mr=4 rolled 4 2"),
            "applied"
        ),
        "NE"
    );
    assert_eq!(
        text(
            &run(drumhead::saber::QUICKPLAY, "bombard 3 vs mr=4 rolled 4 2"),
            "applied"
        ),
        "Dr"
    );
}
