//! Work is bounded: `simulate` by its rolls and by the dice they throw,
//! `odds` by the ways one throw comes up, a sweep by its combinations.
//! Each refusal names the limit and its number, and the line it suggests
//! instead is itself answered.

use crate::common;

/// The line an error suggests: between its last pair of backquotes.
fn suggestion(error: &str) -> &str {
    let end = error.rfind('`').expect("a suggestion");
    let start = error[..end].rfind('`').expect("a suggestion");
    &error[start + 1..end]
}

/// `line` is refused with a message naming `limit` and `number`, and the
/// line it suggests is answered.
fn refused_then_suggested(line: &str, limit: &str, number: &str) -> String {
    let (code, out, err) = common::run(&["--seed", "1", line], "");
    assert_eq!(code, Some(1), "{line} was answered:\n{out}{err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.contains(&format!("(the `{limit}` limit)")) && first.contains(number),
        "{line}: the error does not name the limit `{limit}` and {number}:\n{err}"
    );
    let instead = suggestion(first).to_string();
    assert!(instead.len() > 10, "{line}: no line suggested: {first}");
    let (code, out, err) = common::run(&["--seed", "1", &instead], "");
    assert_eq!(
        code,
        Some(0),
        "{line}: its suggestion `{instead}` is refused too:\n{out}{err}"
    );
    instead
}

#[test]
fn a_simulate_of_too_many_dice_suggests_one_that_is_answered() {
    for (line, suggested) in [
        (
            "simulate 10000000 melee foot bases=200 vs foot bases=200",
            "simulate 50000 melee foot bases=200 vs foot bases=200",
        ),
        ("simulate 10000 roll 10000d6", "simulate 2000 roll 10000d6"),
        (
            "simulate 10000000 resilience",
            "simulate 2000000 resilience",
        ),
        (
            "mayhem simulate 1000000 fire canister 30\" figures=30",
            "mayhem simulate 500000 fire canister 30\" figures=30",
        ),
    ] {
        let instead = refused_then_suggested(line, "simulate dice", "30000000");
        assert_eq!(instead, suggested);
    }
}

#[test]
fn a_simulate_of_a_line_of_few_dice_is_bounded_by_its_rolls() {
    // No dice: each roll counts as 10, 3000000 rolls at most.
    let instead = refused_then_suggested(
        "simulate 100000000 interpenetrate open formed",
        "simulate dice",
        "30000000",
    );
    assert_eq!(instead, "simulate 2000000 interpenetrate open formed");
    let (code, _, err) = common::run(&["simulate 3000000 interpenetrate open formed"], "");
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = common::run(&["simulate 3000001 interpenetrate open formed"], "");
    assert_eq!(code, Some(1), "{err}");
    let instead =
        refused_then_suggested("simulate 100000000 resilience", "simulate dice", "30000000");
    assert_eq!(instead, "simulate 2000000 resilience");
}

#[test]
fn odds_past_its_outcomes_suggests_a_simulate_that_is_answered() {
    for (line, suggested) in [
        ("odds roll 101d6", "simulate 10000 roll 101d6"),
        ("odds roll 10000d6", "simulate 2000 roll 10000d6"),
        ("odds roll 600d6>=4", "simulate 10000 roll 600d6>=4"),
        ("mayhem odds roll 200d6", "simulate 10000 mayhem roll 200d6"),
    ] {
        let instead = refused_then_suggested(line, "odds outcomes", "501");
        assert_eq!(instead, suggested);
    }
    // Simulated, such a line is shown without exact odds, and says why.
    let (code, out, err) = common::run(&["--seed", "1", "simulate 2000 roll 10000d6"], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("no exact odds beside them: 10000d6 has 50001 possible totals"),
        "{out}"
    );
}

#[test]
fn a_sweep_past_its_combinations_suggests_one_that_is_answered() {
    // The first 400 values, cut down to those the verb takes.
    let instead = refused_then_suggested("odds melee foot bases=1..500", "sweep", "400");
    assert_eq!(instead, "odds melee foot bases=1..200");
    let instead = refused_then_suggested("odds hits 7 bases=1..99999999", "sweep", "400");
    assert_eq!(instead, "odds hits 7 bases=1..400");
    let instead = refused_then_suggested(
        "odds shoot musket 1..30BW formed bases=1..30",
        "sweep",
        "400",
    );
    assert_eq!(instead, "odds shoot musket 1BW..13BW formed bases=1..30");
    let list = (1..=401)
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let instead = refused_then_suggested(&format!("odds hits {list} bases=6"), "sweep", "400");
    assert!(instead.ends_with(",399,400 bases=6"), "{instead}");
}

#[test]
fn ordinary_lines_simulate_a_hundred_thousand_rolls() {
    for line in [
        "simulate 100000 resilience melee lost-round general",
        "simulate 100000 melee foot bases=6 vs foot bases=6",
        "simulate 100000 shoot musket 2BW formed bases=6",
        "mayhem simulate 100000 fight leader vs armed vs armed",
        "mayhem simulate 100000 courage group=4,3,3",
        "saber simulate 100000 morale 4",
    ] {
        let (code, out, err) = common::run(&["--seed", "1", line], "");
        assert_eq!(code, Some(0), "{line}: {err}");
        assert!(out.contains("simulate 100000 rolls"), "{line}: {out}");
    }
}
