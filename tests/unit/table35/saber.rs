//! Musket & Saber, the fourth audit: each rule as its own case, quoting
//! its line (shared/rules/musket-and-saber-standard.txt and
//! musket-and-saber-quickplay.txt).

use super::{QUATRE_BRAS, bare, refused, resolve, said, with_inline, with_lists};
use crate::saber::{QUICKPLAY, SABER};

const FRENCH: &str = "[army]\nname = \"Test French\"\nrules = \"saber\"\nside = \"France\"\n\n\
    [[unit]]\nid = \"rd-bn\"\nname = \"a battalion\"\ntype = \"battalion\"\nformation = \"1\"\ncf = 2\nmr = 3\nma = 5\n\n\
    [[unit]]\nid = \"rd-line\"\nname = \"a line brigade\"\ntype = \"infantry\"\nformation = \"1\"\ncf = 5\nmr = 4\nma = 5\nsteps = 2\n";
const ALLIES: &str = "[army]\nname = \"Test Allies\"\nrules = \"saber\"\nside = \"Allies\"\n\n\
    [[unit]]\nid = \"al-x\"\nname = \"a brigade\"\ntype = \"infantry\"\nformation = \"2\"\ncf = 6\nmr = 5\nma = 5\nsteps = 2\n\n\
    [[unit]]\nid = \"al-y\"\nname = \"another brigade\"\ntype = \"infantry\"\nformation = \"2\"\ncf = 6\nmr = 5\nma = 5\nsteps = 2\n";

fn quatre_bras() -> crate::session::Session {
    with_lists(SABER, QUATRE_BRAS)
}

// 7.5: "the attacking player must select one unit as the primary attacker;
// it cannot be an Ineffective unit or an artillery unit unless nothing
// else is available." 7.4: "The primary defender cannot be an Ineffective
// unit unless nothing else is available." rd-bn routs (a battalion: it
// becomes ineffective, 7.10, 11.3).
#[test]
fn an_ineffective_unit_is_not_the_primary_when_another_is_there() {
    let mut s = with_inline(SABER, &[("fr.toml", FRENCH), ("al.toml", ALLIES)]);
    let res = resolve(&mut s, "saber attack al-x vs rd-bn rolled 4 6");
    assert!(res.outcome.contains("defender-routs"), "{}", said(&res));
    let e = refused(&mut s, "saber attack rd-bn rd-line vs al-y rolled 3 3");
    assert!(
        e.contains("the primary attacker") && e.contains("name `rd-line` first"),
        "{e}"
    );
    let e = refused(&mut s, "saber attack al-y vs rd-bn rd-line rolled 3 3");
    assert!(
        e.contains("the primary defender") && e.contains("name `rd-line` first"),
        "{e}"
    );
    // Named the other way round, the line brigade is the primary.
    resolve(&mut s, "saber attack al-y vs rd-line rd-bn rolled 3 3");
    // Nothing else available: the battalion alone is the primary.
    let mut s = with_inline(SABER, &[("fr.toml", FRENCH), ("al.toml", ALLIES)]);
    resolve(&mut s, "saber attack al-x vs rd-bn rolled 4 6");
    resolve(&mut s, "saber attack al-y vs rd-bn rolled 3 3");
}

// 7.12: "Disrupted units, units with parenthesized CF, artillery, and
// defending units in some terrain (see the TEC) may not advance." The
// Brunswick line's CF is "(4)" in its list.
#[test]
fn a_parenthesized_cf_from_the_list_may_not_advance() {
    let res = resolve(
        &mut quatre_bras(),
        "saber attack al-brunswick-line vs fr-art-foy rolled 5",
    );
    assert!(res.outcome_text.starts_with("Dr"), "{}", said(&res));
    assert!(!res.outcome.contains("may-advance"), "{}", res.outcome);
    assert!(
        res.notes
            .iter()
            .any(|n| n.starts_with("no advance: no attacking unit may advance")),
        "{:?}",
        res.notes
    );
}

const UNION: &str = "[army]\nname = \"Union\"\nrules = \"saber-quickplay\"\nside = \"Union\"\n\n\
    [[leader]]\nid = \"q-reynolds\"\nname = \"Reynolds\"\ncf = 1\nmr = 2\nmv = 1\nformation = \"1\"\n\n\
    [[leader]]\nid = \"q-meade\"\nname = \"Meade\"\ncf = 1\nmr = 1\nmv = 1\nformation = \"A\"\n\n\
    [[unit]]\nid = \"q-iron\"\nname = \"Iron Brigade\"\ntype = \"infantry\"\nformation = \"1\"\ncf = 6\nmr = 4\nma = 5\nsteps = 2\n\n\
    [[unit]]\nid = \"q-stone\"\nname = \"Stone's brigade\"\ntype = \"infantry\"\nformation = \"3\"\ncf = 5\nmr = 4\nma = 5\nsteps = 2\n";
const REBELS: &str = "[army]\nname = \"Confederates\"\nrules = \"saber-quickplay\"\nside = \"Confederate\"\n\n\
    [[unit]]\nid = \"q-gordon\"\nname = \"Gordon's brigade\"\ntype = \"infantry\"\nformation = \"2\"\ncf = 5\nmr = 4\nma = 5\nsteps = 2\n";

// QuickPlay 10.0: "The factors of one leader may be applied to a unit in
// his hex if the unit belongs to the same formation. A formation of "A"
// indicates all formations in that army."
#[test]
fn a_quickplay_leaders_factors_go_only_to_a_unit_of_his_formation() {
    let mut s = with_inline(QUICKPLAY, &[("u.toml", UNION), ("c.toml", REBELS)]);
    let e = refused(
        &mut s,
        "saber-quickplay attack q-stone q-reynolds vs q-gordon rolled 3 3",
    );
    assert!(
        e.contains("`q-reynolds` is of formation 1, and `q-stone` of formation 3"),
        "{e}"
    );
    let e = refused(&mut s, "saber-quickplay morale q-stone q-reynolds rolled 3");
    assert!(e.contains("QuickPlay 10.0"), "{e}");
    // His own formation, and a leader of "A": taken.
    resolve(&mut s, "saber-quickplay morale q-iron q-reynolds rolled 3");
    resolve(&mut s, "saber-quickplay morale q-stone q-meade rolled 3");
}

// 14.3 1: "Morale Checks: Add one to all morale check die rolls; all units
// still pass on a roll of 1." The bombarded target's check too: 3 + 1 = 4
// against MR 3 fails; and `twilight` may be said after `vs`.
#[test]
fn twilight_adds_one_to_the_bombarded_units_check() {
    let mut s = bare(SABER);
    for line in [
        "saber bombard 4 twilight adjacent vs mr=3 rolled 4 3",
        "saber bombard 4 adjacent vs mr=3 twilight rolled 4 3",
    ] {
        let res = resolve(&mut s, line);
        assert!(
            said(&res).contains("twilight: add one to all morale check die rolls"),
            "{line}: {}",
            said(&res)
        );
        assert!(
            res.outcome.contains("defender-routs"),
            "{line}: {}",
            res.outcome
        );
    }
    // 14.3 3: "LOS is one: artillery may support or bombard only adjacent
    // hexes", said after `vs` too.
    let e = refused(&mut s, "saber bombard 4 vs mr=3 twilight rolled 4 3");
    assert!(e.contains("only adjacent hexes"), "{e}");
    // An attack supported at twilight says so.
    let res = resolve(
        &mut s,
        "saber attack 5 support=2 twilight vs 3 mr=3 rolled 3 3",
    );
    assert!(
        res.notes
            .iter()
            .any(|n| n.contains("artillery may support or bombard only adjacent hexes (14.3 3)")),
        "{:?}",
        res.notes
    );
}

// 9.2: cavalry "on all x results (Ax, Ex, Dx) they must retreat and are
// disrupted": there is no step loss to choose.
#[test]
fn cavalry_has_no_step_loss_to_choose() {
    let e = refused(&mut quatre_bras(), "saber choose al-van-merlen step-loss");
    assert!(e.contains("is no choice for cavalry"), "{e}");
    resolve(&mut quatre_bras(), "saber choose al-pack step-loss");
}

// 12.2: "Its march movement allowance is limited to its printed MA." 12.1:
// the HQ "moves like a cavalry unit".
#[test]
fn the_trains_and_the_hq_have_a_movement_allowance() {
    let res = resolve(&mut quatre_bras(), "saber ma al-trains march");
    assert_eq!(res.score, Some(4));
    let res = resolve(&mut quatre_bras(), "saber ma al-hq");
    assert_eq!(res.score, Some(10));
    assert!(
        said(&res).contains("moves like a cavalry unit"),
        "{}",
        said(&res)
    );
}

// 12.4, Friendly Recovery Check: "A failed step recovery roll does not
// result in the destruction of the unit."
#[test]
fn a_fortunes_recovery_check_that_fails_does_not_destroy() {
    let mut s = bare(SABER);
    let res = resolve(&mut s, "saber recover 3 eliminated fow rolled 6");
    assert_eq!(res.outcome, "stays-eliminated");
    let res = resolve(&mut s, "saber recover 3 eliminated rolled 6");
    assert_eq!(res.outcome, "destroyed");
}

// 12.1: "each time it is attacked (even if there are other units in the
// hex) the enemy player receives two fortunes of war. If unstacked and
// attacked in close combat, no die roll is needed"; 12.2: "the attacker
// receives two FOW each time it is attacked".
#[test]
fn an_attack_on_the_hq_or_the_trains_gives_two_fortunes_of_war() {
    let res = resolve(&mut quatre_bras(), "saber attack fr-soye vs al-hq");
    assert_eq!(res.outcome, "attacker-two-fow");
    assert!(res.dice.is_empty());
    let res = resolve(
        &mut quatre_bras(),
        "saber attack fr-soye vs al-pack al-trains rolled 6",
    );
    assert!(res.outcome.contains("attacker-two-fow"), "{}", res.outcome);
    assert!(
        res.outcome.starts_with("defender-step-loss"),
        "{}",
        res.outcome
    );
}

// 7.11: "Certain choices of tactics (7.13) may inflict a second step loss.
// ... If no second step is present to be lost, the opposing player
// receives an FOW." 7.13 5: "the defender loses one step in addition to
// any other result from the CRT". On NE the CRT took no step: the
// tactic's loss is the first, and the one-step unit loses it.
#[test]
fn a_tactics_step_after_no_crt_step_is_taken_from_a_one_step_unit() {
    let res = resolve(
        &mut quatre_bras(),
        "saber attack al-brunswick-light press-forward vs fr-husson rolled 3",
    );
    assert!(
        res.outcome.contains("attacker-step-loss"),
        "{}",
        res.outcome
    );
    assert!(!res.outcome.contains("attacker-fow"), "{}", res.outcome);
    assert!(said(&res).contains("this is its first step loss, not a second"));
}

// 7.13 4: "If both players select the tactic, it is possible both will
// retreat (defender first)"; 7.12: disrupted units may not advance. The
// attacker's own Ar leaves it retreating or disrupted.
#[test]
fn both_sides_disengaging_offer_no_advance() {
    let res = resolve(
        &mut bare(SABER),
        "saber attack 3 disengage vs 3 disengage rolled 1",
    );
    assert!(!res.outcome.contains("may-advance"), "{}", res.outcome);
    assert!(
        res.notes
            .iter()
            .any(|n| n.starts_with("no advance: the attacker's own result"))
    );
}

// 7.4: the primary defender's "morale rating will be the MR for the whole
// stack"; 7.14 reads each unit's formation: every unit named shows its
// own MR and formation in the stack, not only the primary.
#[test]
fn each_named_unit_shows_its_own_formation_and_mr() {
    let res = resolve(
        &mut quatre_bras(),
        "saber attack fr-soye fr-gauthier vs al-pack rolled 6 3",
    );
    assert!(
        said(&res).contains("6, mr=4, infantry, formation=9, ma=5"),
        "{}",
        said(&res)
    );
}
