//! Drums and Muskets, the fourth audit: each player pools his own
//! generals, once each, and the pool shows its stack; a "1 in K" pool's
//! JSON names the house default's reading
//! (shared/rules/drums-and-muskets-quick-reference.txt).

use super::{LEUTHEN, bare, refused, resolve, said, with_lists};
use crate::drums::DRUMS;

fn leuthen() -> crate::session::Session {
    with_lists(DRUMS, LEUTHEN)
}

// Start of Each Turn Initiative: "To decide which player has initiative
// complete the following. 1. 1D6 per general remaining on the board." Each
// player throws for his own generals: Frederick cannot throw for both.
#[test]
fn one_general_cannot_throw_for_both_players() {
    let e = refused(&mut leuthen(), "initiative frederick moritz vs frederick");
    assert!(e.contains("`frederick` is named twice"), "{e}");
}

// "1D6 per general remaining on the board": Prince Charles is Austria's
// commander, not a die of the Prussian pool.
#[test]
fn the_other_armys_general_is_not_in_a_players_pool() {
    let e = refused(&mut leuthen(), "initiative frederick charles vs daun");
    assert!(
        e.contains(
            "`charles` is a general of Austria, and this side pools the generals of Prussia"
        ),
        "{e}"
    );
    // One army's generals on both sides.
    let e = refused(&mut leuthen(), "initiative frederick vs zieten");
    assert!(e.contains("`zieten` is a general of Prussia"), "{e}");
}

// "1D6 per general": each general once.
#[test]
fn a_general_counts_once() {
    let e = refused(&mut leuthen(), "initiative frederick frederick vs daun");
    assert!(e.contains("`frederick` is named twice"), "{e}");
}

// "2. +1D6 per Exceptional ability general." Frederick brings his own
// ability: a count beside him is refused as such, not as `generals=0`.
#[test]
fn a_count_beside_named_generals_is_refused_as_such() {
    let e = refused(&mut leuthen(), "initiative frederick exceptional=1 vs daun");
    assert!(e.contains("is a count beside generals named"), "{e}");
    assert!(!e.contains("generals=0"), "{e}");
}

// "The player with the highest score has the initiative": both players
// throw, so a side with no generals is refused either way round.
#[test]
fn both_players_pool_their_generals() {
    let e = refused(&mut leuthen(), "initiative vs charles");
    assert!(e.contains("the side before `vs` gives no generals"), "{e}");
    let e = refused(&mut leuthen(), "initiative frederick moritz");
    assert!(e.contains("needs both sides"), "{e}");
}

// "1. 1D6 per general remaining on the board. 2. +1D6 per Exceptional
// ability general. 3. -1D6 per Incompetent ability general. 4. A supply
// pool dice may now be added to this roll." Each step is a row.
#[test]
fn the_initiative_pool_shows_its_stack() {
    let mut s = bare(DRUMS);
    let res = resolve(
        &mut s,
        "initiative generals=3 exceptional=1 supply vs generals=3 incompetent=1 rolled 1 2 3 4 5 6 1",
    );
    let all = said(&res);
    for row in [
        "side a: 1D6 per general remaining on the board × 3",
        "side a: +1D6 per Exceptional ability general × 1",
        "side a: a supply pool dice added",
        "side b: −1D6 per Incompetent ability general × 1",
    ] {
        assert!(all.contains(row), "no {row:?} in {all}");
    }
    // Named generals: the ids counted.
    let res = resolve(
        &mut leuthen(),
        "initiative frederick moritz vs daun rolled 1 2 3 4",
    );
    assert!(
        said(&res)
            .contains("Prussia: 1D6 per general remaining on the board × 2 (frederick, moritz)"),
        "{}",
        said(&res)
    );
}

// Shooting Table 2d: "Shooters in Column of March | Remove 1 in 2 dice",
// "Target moved this turn | Remove 1 in 2 dice", "Target is in cover |
// Remove 1 in 2 dice": the sheet says only "Adjust the total pool of
// dice", so the house default decides, and the JSON says which.
#[test]
fn a_pool_of_several_one_in_k_rows_names_the_reading_in_json() {
    let mut s = bare(DRUMS);
    let res = resolve(
        &mut s,
        "shoot musket 2BW column-of-march bases=8 at moved cover rolled 1",
    );
    assert_eq!(
        res.fields.get("one_in_k"),
        Some(&serde_json::json!("in-turn"))
    );
    // Foot Melee Factors Table: "Classed as Guards | Add 1 in 3 dice",
    // "Fighting uphill from opponents and not chargers in first round |
    // Add 1 in 3 dice".
    let res = resolve(
        &mut s,
        "melee foot guards uphill bases=6 vs foot bases=6 rolled 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    );
    let sides = res
        .fields
        .get("sides")
        .and_then(|v| v.as_array())
        .expect("sides");
    assert_eq!(sides[0]["one_in_k"], "in-turn");
    assert!(sides[1].get("one_in_k").is_none());
}
