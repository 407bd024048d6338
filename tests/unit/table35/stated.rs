//! What the umpire states stands where nothing is kept: without `--game`,
//! a state word beside a named unit is taken as stated and shown so; its
//! army-list facts still refuse a contradiction. In a game kept in a file
//! a state word against the record is refused, and `override` lets it win
//! on purpose in all three systems.

use super::{LEUTHEN, QUATRE_BRAS, RAID, kept, lists, refused, resolve, said, with_lists};
use crate::drums::DRUMS;
use crate::mayhem::MAYHEM;
use crate::saber::SABER;

fn stated(res: &crate::answer::Resolution) -> Vec<String> {
    res.fields
        .get("stated")
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

// Musket & Saber standard 11.1: a disrupted unit "adds two to all morale
// check die rolls". Kempt's brigade, MR 5, stated disrupted, rolls a 4:
// 4 + 2 = 6 fails.
#[test]
fn a_saber_state_stated_without_a_game_stands() {
    let mut s = with_lists(SABER, QUATRE_BRAS);
    let res = resolve(&mut s, "saber morale al-kempt disrupted rolled 4");
    assert_eq!(res.outcome, "fail", "{}", said(&res));
    assert!(
        stated(&res)
            .iter()
            .any(|r| r.contains("`disrupted` for `al-kempt`")),
        "{}",
        said(&res)
    );
    assert!(said(&res).contains("stated"), "{}", said(&res));
}

// The same word in a game kept in a file, which holds Kempt undisrupted:
// refused naming the game; `override` lets it win, shown in the stack.
#[test]
fn a_saber_state_against_a_kept_game_is_refused_or_overridden() {
    let mut s = kept(SABER, QUATRE_BRAS, "stated-saber");
    let e = refused(&mut s, "saber morale al-kempt disrupted rolled 4");
    assert!(
        e.contains("the game does not record it as `disrupted`") && e.contains("`override`"),
        "{e}"
    );
    let res = resolve(&mut s, "saber morale al-kempt disrupted override rolled 4");
    assert_eq!(res.outcome, "fail", "{}", said(&res));
    assert!(res.fields.get("override").is_some(), "{}", said(&res));
}

// Standard 2.5: "Units with a red band have only one step." A one-step
// unit cannot be stated reduced, game or no game: its list says so.
#[test]
fn a_state_the_list_makes_impossible_is_refused_without_a_game() {
    let mut s = with_lists(SABER, QUATRE_BRAS);
    let e = refused(&mut s, "saber recover al-brunswick-light reduced rolled 4");
    assert!(e.contains("its list never lets it be `reduced`"), "{e}");
}

// A list fact is refused without a game too (2.3: the counter's type), and
// `override` lets it win on purpose.
#[test]
fn a_saber_list_fact_is_refused_without_a_game_and_overridden_on_purpose() {
    let mut s = with_lists(SABER, QUATRE_BRAS);
    let e = refused(&mut s, "saber attack fr-husson cavalry vs al-pack rolled 4");
    assert!(e.contains("its list makes it infantry"), "{e}");
    let res = resolve(
        &mut s,
        "saber attack fr-husson cavalry override vs al-pack rolled 4",
    );
    assert!(res.fields.get("override").is_some(), "{}", said(&res));
}

// Drums and Muskets, Resilience Situation Adjustment Table: "Received any
// hits this turn | -1 | | -1". Without a game the umpire says aus-12 was
// hit: 3 + 3 + 1 (open) − 1 = 6.
#[test]
fn a_drums_state_stated_without_a_game_stands() {
    let mut s = with_lists(DRUMS, LEUTHEN);
    let res = resolve(&mut s, "resilience shooting aus-12 +hit rolled 3 3");
    assert_eq!(res.score, Some(6), "{}", said(&res));
    assert!(
        stated(&res)
            .iter()
            .any(|r| r.contains("`hit` for `aus-12`")),
        "{}",
        said(&res)
    );
    // Hold Test: "Is ≤ 50% in strength | -1": gren-3 stated weak.
    let res = resolve(&mut s, "hold gren-3 weak rolled 3 3");
    assert!(!stated(&res).is_empty(), "{}", said(&res));
    // The list's class still refuses: aus-1 is Lackluster.
    let e = refused(&mut s, "resilience aus-1 determined rolled 3 3");
    assert!(e.contains("from its army list"), "{e}");
}

// In a kept game the same state word is refused, naming the game, and
// `override` lets it win on purpose.
#[test]
fn a_drums_state_against_a_kept_game_is_refused_or_overridden() {
    let mut s = kept(DRUMS, LEUTHEN, "stated-drums");
    let e = refused(&mut s, "resilience shooting aus-12 +hit rolled 3 3");
    assert!(
        e.contains("from the game") && e.contains("`override`"),
        "{e}"
    );
    let res = resolve(
        &mut s,
        "resilience shooting aus-12 +hit override rolled 3 3",
    );
    assert_eq!(res.score, Some(6), "{}", said(&res));
}

// Musket Mayhem: "A gunpowder weapon becomes unloaded ... and can be
// reloaded as an action by a figure which does not move during its own
// turn." Without a game the umpire may say Langy's musket is unloaded; in
// a kept game that says it is loaded, only with `override`.
#[test]
fn a_mayhem_state_stated_without_a_game_stands() {
    let mut s = with_lists(MAYHEM, RAID);
    let res = resolve(&mut s, "reload langy unloaded");
    assert!(!stated(&res).is_empty(), "{}", said(&res));
    let mut s = kept(MAYHEM, RAID, "stated-mayhem");
    let e = refused(&mut s, "reload langy unloaded");
    assert!(
        e.contains("the game holds its musket loaded") && e.contains("`override`"),
        "{e}"
    );
    let res = resolve(&mut s, "reload langy unloaded override");
    assert!(res.fields.get("override").is_some(), "{}", said(&res));
    // A list fact is refused without a game: Langy is not mounted.
    let mut s = with_lists(MAYHEM, RAID);
    let e = refused(&mut s, "move langy individual mounted rolled 1 2 3 4 5");
    assert!(e.contains("its list does not make it mounted"), "{e}");
}

#[test]
fn the_lists_load() {
    assert_eq!(lists(QUATRE_BRAS).len(), 2);
}
