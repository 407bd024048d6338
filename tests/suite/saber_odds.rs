//! Musket & Saber `odds` for the procedures of issue 15, against 100,000
//! seeded rolls of the same command (the enumerator and the dice must tell
//! the same story), and against hand-counted faces.

use crate::common::agreement;

use drumhead::answer::Odds;
use drumhead::session::Session;

fn session(seed: u64) -> Session {
    agreement::session(drumhead::drums::DRUMS, seed)
}

fn odds(line: &str) -> Odds {
    agreement::odds(drumhead::drums::DRUMS, line)
}

/// `odds` against 100,000 rolls seeded from 20_261_124.
fn assert_agrees(line: &str) {
    agreement::assert_agrees(&odds(line), &mut session(20_261_124), line);
}

/// The probability of the outcomes whose text starts with `prefix`.
fn p_starting(o: &Odds, prefix: &str) -> f64 {
    o.outcomes
        .iter()
        .filter(|x| x.text.starts_with(prefix))
        .map(|x| x.prob.p)
        .sum()
}

#[test]
fn odds_agree_with_seeded_rolls_for_the_new_saber_words() {
    // 14.2 4: a night charge.
    assert_agrees("saber attack 5 mr=4 night charge vs 3 mr=4");
    // 12.4: a charge as a fortune of war; 8.8: supporting artillery.
    assert_agrees("saber attack 5 mr=4 fow-charge charge vs 3 mr=4");
    assert_agrees("saber attack 4 support=3 mr=4 vs 5 mr=4 cavalry");
    // 9.4: a countercharge, named by the original attack.
    assert_agrees("saber attack 3 mr=3 vs 5 mr=4 cavalry countercharge");
    // QuickPlay 7.2 and 9.3.
    assert_agrees("saber-quickplay attack 4 counterattack mr=4 vs 5 mr=4");
    assert_agrees("saber-quickplay attack 4 square mr=4 vs 3 mr=4");
    // A check with no MR: the results it decides are counted apart.
    assert_agrees("saber attack 5 vs 3");
    // 9.5: half the MA rolled; 10.1: a leader alone.
    assert_agrees("saber ma 5 disrupted square");
    assert_agrees("saber ma alone");
}

// The example CRT's +2 column reads, by die: NE Ammo, Dc (NE), Dr, Dx L,
// Dm (Dr) L, Dm (Dx) DF. With no MR, the Dc and the two Dm wait on the
// defender's morale rating: 3 faces in 6.
#[test]
fn results_left_to_a_missing_mr_are_counted_by_their_cells() {
    let o = odds("saber attack 5 vs 3");
    let undecided: f64 = o
        .outcomes
        .iter()
        .filter(|x| x.text.contains("morale check decides this result"))
        .map(|x| x.prob.p)
        .sum();
    assert!((undecided - 0.5).abs() < 1e-12, "{undecided}");
    assert!((p_starting(&o, "Dr") - 1.0 / 6.0).abs() < 1e-12);
}

// 10.1: a leader moving alone "always" has 12 MP: no die.
#[test]
fn a_lone_leader_always_has_twelve() {
    let o = odds("saber ma alone");
    assert_eq!(o.outcomes.len(), 1);
    assert!((o.outcomes[0].prob.p - 1.0).abs() < 1e-12);
}

// QuickPlay 7.2: doubled, 4 is 8 against 5: +3. The same unit not doubled
// attacks at −1: the counterattack must shift the results toward the
// defender's.
#[test]
fn a_counterattack_is_fought_at_double_the_factor() {
    let doubled = odds("saber-quickplay attack 4 counterattack mr=4 vs 5 mr=4");
    let plain = odds("saber-quickplay attack 4 mr=4 vs 5 mr=4");
    let d_doubled = p_starting(&doubled, "D");
    let d_plain = p_starting(&plain, "D");
    assert!(d_doubled > d_plain, "{d_doubled} vs {d_plain}");
}
