//! Musket & Saber standard 7.3 2: "Make a morale check for any defender
//! lacking a safe line of retreat (7.6). If a unit fails, it is disrupted
//! (11.1); if already disrupted, it routs (7.10; treat the rout as the
//! result of combat)." Said with `no-slr` after `vs`.

use crate::common::agreement;

use crate::common;

use drumhead::answer::Odds;
use drumhead::answer::Resolution;
use drumhead::session::{Output, Session};

fn session(seed: u64) -> Session {
    agreement::session(drumhead::drums::DRUMS, seed)
}

fn odds(line: &str) -> Odds {
    agreement::odds(drumhead::drums::DRUMS, line)
}

fn resolve(line: &str) -> Resolution {
    let mut s = session(1);
    match s.run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        _ => panic!("{line} did not resolve"),
    }
}

/// The probability of the outcomes whose text starts with `prefix`.
fn p_starting(o: &Odds, prefix: &str) -> f64 {
    o.outcomes
        .iter()
        .filter(|x| x.text.starts_with(prefix))
        .map(|x| x.prob.p)
        .sum()
}

const DISRUPTED: &str = "7.3 2 — no safe line of retreat, check failed";
const ROUTED: &str = "7.3 2 — no safe line of retreat, already disrupted, check failed";

/// `odds` against 100,000 rolls seeded from 20_261_125.
fn assert_agrees(line: &str) {
    agreement::assert_agrees(&odds(line), &mut session(20_261_125), line);
}

#[test]
fn odds_agree_with_seeded_rolls() {
    assert_agrees("saber attack 6 mr=4 vs 3 mr=4 no-slr");
    assert_agrees("saber attack 6 mr=4 vs 3 mr=4 disrupted no-slr");
    assert_agrees("saber attack 5 mr=4 charge vs 3 mr=3 no-slr");
    assert_agrees("saber attack 5 mr=4 cavalry vs 3 mr=4 square no-slr");
}

// Morale Rating (2.4): "if the roll is greater than the MR, the unit fails": MR 4 fails on
// 5–6. Undisrupted, a failure disrupts: 1/3 of the outcomes open with it,
// and none routs before the combat.
#[test]
fn an_undisrupted_defender_is_disrupted_one_time_in_three() {
    let o = odds("saber attack 6 mr=4 vs 3 mr=4 no-slr");
    assert!((p_starting(&o, DISRUPTED) - 1.0 / 3.0).abs() < 1e-12);
    assert!(p_starting(&o, ROUTED).abs() < 1e-12);
}

// 11.1 4: a disrupted unit "adds two to all morale check die rolls": MR 4
// passes on 1–2, so it routs before the combat on 3–6: 2/3.
#[test]
fn a_disrupted_defender_routs_two_times_in_three() {
    let o = odds("saber attack 6 mr=4 vs 3 mr=4 disrupted no-slr");
    assert!((p_starting(&o, ROUTED) - 2.0 / 3.0).abs() < 1e-12);
    // The rout is the whole result: nothing else is in its outcome.
    let routed: Vec<_> = o
        .outcomes
        .iter()
        .filter(|x| x.text.starts_with(ROUTED))
        .collect();
    assert_eq!(routed.len(), 1, "{routed:?}");
}

// 14.2 2: at night "add two to all morale check die rolls": MR 4 passes on
// 1–2, and an undisrupted defender is disrupted on 3–6.
#[test]
fn night_adds_two_to_the_check() {
    let o = odds("saber attack 6 mr=4 night charge vs 3 mr=4 no-slr");
    assert!((p_starting(&o, DISRUPTED) - 2.0 / 3.0).abs() < 1e-12);
}

// Without `no-slr` no such check is made.
#[test]
fn no_check_without_the_word() {
    let o = odds("saber attack 6 mr=4 vs 3 mr=4 disrupted");
    assert!(p_starting(&o, "7.3 2").abs() < 1e-12);
}

// The check is the first die; the rout draws no other.
#[test]
fn the_rout_is_the_result_of_combat() {
    let res = resolve("saber attack 6 mr=4 vs 3 mr=4 disrupted no-slr rolled 3");
    assert_eq!(res.dice.len(), 1);
    assert_eq!(res.outcome, "defender-routs");
    // A passed check, then the combat die: Dx calls for no morale check,
    // so no morale die is thrown (issue 35).
    let passed = resolve("saber attack 6 mr=4 vs 3 mr=4 disrupted no-slr rolled 2 3");
    assert_eq!(passed.dice.len(), 2);
    assert!(
        !passed.outcome.contains("before-combat"),
        "{}",
        passed.outcome
    );
}

// Failed undisrupted: disrupted, then the combat with a disrupted defender.
// +3, die 1: Dc (NE); the morale die 3 passes MR 4 but not with the +2.
#[test]
fn a_defender_disrupted_by_the_check_fights_disrupted() {
    let res = resolve("saber attack 6 mr=4 vs 3 mr=4 no-slr rolled 5 1 3");
    assert_eq!(
        res.outcome,
        "defender-disrupted-before-combat+defender-retreats"
    );
    let plain = resolve("saber attack 6 mr=4 vs 3 mr=4 rolled 1 3");
    assert_eq!(plain.outcome, "no-effect");
}

// 9.5: "Squares are removed if the unit ... is disrupted": failing, the
// square's transformation (Dx → Dm) no longer applies. +3, die 3: Dx.
#[test]
fn a_square_disrupted_by_the_check_is_removed() {
    let kept = resolve("saber attack 6 mr=4 cavalry vs 3 mr=4 square no-slr rolled 2 3 2");
    let removed = resolve("saber attack 6 mr=4 cavalry vs 3 mr=4 square no-slr rolled 6 3 2");
    assert!(!kept.outcome.contains("step-loss-or"), "{}", kept.outcome);
    assert_eq!(
        removed.outcome,
        "defender-disrupted-before-combat+defender-step-loss-or-retreat-disrupted"
    );
}

#[test]
fn refused_where_the_rules_have_no_such_check() {
    for line in [
        "saber-quickplay attack 6 mr=4 vs 3 mr=4 no-slr rolled 2 3 2",
        "saber attack 6 mr=4 no-slr vs 3 mr=4 rolled 2 3 2",
        "saber attack 6 mr=4 cavalry vs 3 mr=4 cavalry countercharge no-slr rolled 2 3 2",
    ] {
        let mut s = session(1);
        let err = s.run_line(line).err().map(|e| e.to_string());
        assert!(
            err.as_deref().is_some_and(|e| e.contains("no-slr")),
            "{line}: {err:?}"
        );
    }
}

// A named defender: the game keeps the disruption, then the rout (Campi
// attacks the second time: a unit may attack only once per combat phase,
// 7.5); `undo`
// takes the rout back.
#[test]
fn the_game_keeps_what_the_check_did() {
    let input = "attack fr-husson vs al-halkett no-slr rolled 6 1 1\nshow al-halkett\nattack fr-campi vs al-halkett no-slr rolled 5\nshow al-halkett\nundo\nshow al-halkett\n";
    let (code, out, err) = common::run(
        &[
            "--rules",
            "saber",
            "--army",
            "armies/quatre-bras-1815-french.toml",
            "--army",
            "armies/quatre-bras-1815-allied.toml",
        ],
        input,
    );
    assert_eq!(code, Some(0), "{err}");
    // A batch without --game keeps its game for the session (issue 26).
    assert!(
        out.contains("this session only: al-halkett is disrupted"),
        "{out}"
    );
    assert!(out.contains("this session only: al-halkett routs"), "{out}");
    let shows: Vec<&str> = out.split("al-halkett — ").skip(1).collect();
    assert_eq!(shows.len(), 3, "{out}");
    let row = |show: &str, name: &str| -> String {
        show.lines()
            .find(|l| l.contains(&format!("│ {name} ")))
            .unwrap_or("")
            .split('┆')
            .nth(1)
            .unwrap_or("")
            .trim_matches(|c: char| c == '│' || c.is_whitespace())
            .to_string()
    };
    assert_eq!(row(shows[0], "disrupted"), "yes");
    assert_eq!(row(shows[0], "routed"), "no");
    assert_eq!(row(shows[1], "routed"), "yes");
    assert_eq!(row(shows[2], "routed"), "no");
    assert_eq!(row(shows[2], "disrupted"), "yes");
}
