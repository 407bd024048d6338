//! Sides by name: an initiative and its stack by each army's side, a
//! melee round's winner by its unit with its score first (`log` and
//! `--brief` by the same names: tests/suite/table35/sides.rs).

use super::{LEUTHEN, RAID, kept, refused, resolve, said, with_lists};
use crate::drums::DRUMS;
use crate::mayhem::MAYHEM;

// Start of Each Turn Initiative: "5. Pool the dice, throw, and sum the
// score. The player with the highest score has the initiative." The
// players are Prussia and Austria, not letters.
#[test]
fn an_initiative_names_each_side_by_its_army() {
    let mut s = kept(DRUMS, LEUTHEN, "sides-initiative");
    let res = resolve(&mut s, "initiative rolled 6 6 6 6 6 6 6 1 1 1 1");
    assert_eq!(res.outcome_text, "Prussia has the initiative");
    let all = said(&res);
    assert!(!all.contains("side a") && !all.contains("side b"), "{all}");
    assert!(
        all.contains("Prussia pool") && all.contains("Austria pool"),
        "{all}"
    );
    assert!(
        res.notes
            .iter()
            .any(|n| n == "game: Prussia has the initiative"),
        "{:?}",
        res.notes
    );
    // Generals named without a game: their armies' sides.
    let mut s = with_lists(DRUMS, LEUTHEN);
    let res = resolve(&mut s, "initiative frederick vs daun rolled 1 1 6");
    assert_eq!(res.outcome_text, "Austria has the initiative");
}

// Drums and Muskets, Resilience Situation Adjustments: "Have won a round
// of melee during the current charge sequence": aus-1 scores 5 hits to
// gren-1's 4 and wins, its score first.
#[test]
fn a_melee_round_gives_the_winners_score_first() {
    let mut s = with_lists(DRUMS, LEUTHEN);
    let res = resolve(
        &mut s,
        "melee gren-1 ranks=3 vs aus-1 ranks=2 rolled 1 1 1 1 1 1 4 4 4 4 1 1 4 4 4 4 4",
    );
    assert_eq!(res.outcome, "b");
    assert!(
        res.outcome_text
            .starts_with("aus-1 (Foot) wins the round, 5 hits to 4"),
        "{}",
        res.outcome_text
    );
}

// Musket Mayhem: "Players (sides) dice for initiative each turn." With
// the raid's lists the sides are France and Great Britain.
#[test]
fn a_mayhem_initiative_names_each_side() {
    let mut s = with_lists(MAYHEM, RAID);
    let res = resolve(&mut s, "initiative rolled 2 5");
    assert!(
        res.outcome_text.starts_with("Great Britain wins"),
        "{}",
        res.outcome_text
    );
    assert!(!said(&res).contains("side b"), "{}", said(&res));
}

// "Each player" pools his own generals, each once.
#[test]
fn an_initiative_side_without_generals_is_refused() {
    let mut s = with_lists(DRUMS, LEUTHEN);
    let e = refused(&mut s, "initiative vs charles");
    assert!(e.contains("the side before `vs` gives no generals"), "{e}");
}
