//! Dice are read as the procedure throws them: a die the result does not
//! call for is never asked for; one entered for a step the result does not
//! reach is taken and said to be unused; more than any outcome throws are
//! refused; too few for a step that is reached are refused naming it.

use super::{QUATRE_BRAS, bare, refused, resolve, said, with_lists};
use crate::drums::DRUMS;
use crate::saber::SABER;

// Musket & Saber standard 7.3, Player Note: "Because many combat results
// require a second die roll for a morale check, we recommend rolling two
// color-differentiated dice with one nominated to be the morale die." A Dr
// calls for no check (7.9), so no morale die is thrown.
#[test]
fn an_attack_whose_result_calls_for_no_check_throws_one_die() {
    let mut s = bare(SABER);
    let res = resolve(&mut s, "saber attack 5 3 vs 4 rolled 1");
    assert!(res.outcome_text.starts_with("Dr"), "{}", said(&res));
    assert_eq!(res.dice.len(), 1);
    assert!(
        said(&res).contains("morale die: the result calls for no morale check"),
        "{}",
        said(&res)
    );
}

// The same with the Quatre Bras lists: Soye's brigade against Pack's.
#[test]
fn a_named_attack_whose_result_calls_for_no_check_throws_one_die() {
    let mut s = with_lists(SABER, QUATRE_BRAS);
    let res = resolve(&mut s, "attack fr-soye vs al-pack rolled 6");
    assert_eq!(res.dice.len(), 1);
    assert!(res.fields.get("unused_dice").is_none());
}

// QuickPlay 7.1 3): "If necessary, use the morale die roll as a morale
// check for the primary unit of the affected side." Tables throw the two
// dice together: the morale die of a result that needs none is unused.
#[test]
fn a_morale_die_thrown_with_the_combat_die_is_said_to_be_unused() {
    let mut s = bare(SABER);
    let res = resolve(&mut s, "saber attack 5 3 vs 4 rolled 1 2");
    assert_eq!(res.dice.len(), 1);
    assert_eq!(res.fields.get("unused_dice"), Some(&serde_json::json!([2])));
    assert!(
        res.notes
            .iter()
            .any(|n| n.contains("Entered die 2 was not needed")),
        "{:?}",
        res.notes
    );
    let res = resolve(&mut s, "saber-quickplay attack 5 3 vs 4 rolled 1 2");
    assert_eq!(res.fields.get("unused_dice"), Some(&serde_json::json!([2])));
}

// More dice than any outcome of the line throws (a combat die and a morale
// die) are refused, naming the most.
#[test]
fn more_dice_than_any_outcome_throws_are_refused() {
    let mut s = bare(SABER);
    let e = refused(&mut s, "saber attack 5 3 vs 4 rolled 1 2 3");
    assert!(
        e.contains("no outcome of this line throws more than 2"),
        "{e}"
    );
    // Both sides disengaging: no result calls for a check (7.13 4).
    let e = refused(&mut s, "saber attack 3 disengage vs 3 rolled 5 1");
    assert!(
        e.contains("no outcome of this line throws more than 1"),
        "{e}"
    );
}

// A result that does call for a check still needs its die: too few are
// refused naming the step.
#[test]
fn a_check_the_result_calls_for_needs_its_die() {
    let mut s = bare(SABER);
    let e = refused(&mut s, "saber attack 5 3 vs 4 mr=3 rolled 4");
    assert!(e.contains("for `morale die (defender)`"), "{e}");
    let res = resolve(&mut s, "saber attack 5 3 vs 4 mr=3 rolled 4 4");
    assert_eq!(res.dice.len(), 2);
}

// Standard 8.5: "Roll the die, cross-index to get the result." A Dr calls
// for no check, so no morale die follows.
#[test]
fn a_bombardment_whose_result_calls_for_no_check_throws_one_die() {
    let mut s = bare(SABER);
    let res = resolve(&mut s, "saber bombard 4 vs mr=3 rolled 1");
    assert_eq!(res.dice.len(), 1);
    assert!(res.outcome_text.starts_with("Dr"), "{}", said(&res));
    let e = refused(&mut s, "saber bombard 4 vs mr=3 rolled 4");
    assert!(e.contains("morale die (target)"), "{e}");
}

// Drums and Muskets, Risk to Generals: "throw 1D6 and on a 5+ the general
// has been swept away with the fleeing soldiers." / "If this happens throw
// 3D6 and move the general directly to his own long edge": the 3D6 only
// then.
#[test]
fn a_drums_die_for_a_step_not_reached_is_unused() {
    let mut s = bare(DRUMS);
    let res = resolve(&mut s, "risk broke rolled 1 3 4");
    assert_eq!(res.outcome, "unharmed");
    assert_eq!(
        res.fields.get("unused_dice"),
        Some(&serde_json::json!([3, 4]))
    );
    let e = refused(&mut s, "risk broke rolled 1 3 4 5 6");
    assert!(
        e.contains("no outcome of this line throws more than 4"),
        "{e}"
    );
}
