//! Every row of the Musket Mayhem tables against the rule text
//! (shared/rules/musket-mayhem.txt), through the library API. The expected
//! numbers are copied from the rule text by hand, not read from
//! tables/mayhem.toml.

use drumhead::answer::Resolution;
use drumhead::session::{Output, Session};

fn session() -> Session {
    Session::new(
        drumhead::systems::embedded().expect("tables load"),
        drumhead::mayhem::MAYHEM,
        1,
    )
}

fn run(line: &str) -> Resolution {
    match session().run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        other => panic!("`{line}` gave {other:?}"),
    }
}

fn fails(line: &str) -> String {
    match session().run_line(line) {
        Err(e) => e.to_string(),
        other => panic!("`{line}` should fail, gave {other:?}"),
    }
}

fn field(res: &Resolution, key: &str) -> serde_json::Value {
    res.fields
        .get(key)
        .cloned()
        .unwrap_or(serde_json::Value::Null)
}

#[test]
fn movement_dice() {
    // 3d6" individual, 2d6" group, 1d6" delayed: all sixes give 18, 12, 6.
    for (mode, dice, max) in [("individual", 3, 18), ("group", 2, 12), ("delayed", 1, 6)] {
        let sixes = vec!["6"; dice].join(" ");
        let res = run(&format!("move {mode} rolled {sixes}"));
        assert_eq!(field(&res, "distance_in"), max, "{mode}");
        // Too many dice: the row rolls exactly that many.
        let extra = vec!["1"; dice + 1].join(" ");
        assert!(fails(&format!("move {mode} rolled {extra}")).contains("entered"));
    }
    // +2d6" mounted in the open, +1d6" hero.
    assert_eq!(
        field(
            &run("move individual mounted rolled 1 1 1 2 2"),
            "distance_in"
        ),
        7
    );
    assert_eq!(
        field(&run("move group hero rolled 1 1 5"), "distance_in"),
        7
    );
    // "1d6": … moving through woods or other delaying terrain": a delayed
    // move is not in the open, and "+2d6" if mounted in the open" is not
    // added to it — nor to a move said to be in `woods`.
    let res = run("move delayed mounted hero rolled 1 1");
    assert_eq!(field(&res, "distance_in"), 2);
    assert_eq!(field(&res, "in_open"), false);
    assert!(fails("move delayed mounted hero rolled 1 1 1 1").contains("entered"));
    assert_eq!(
        field(
            &run("move individual woods mounted rolled 1 2 3"),
            "distance_in"
        ),
        6
    );
    // A delayed move in the open (crossing an obstacle, rearranging a
    // group) keeps it when `open` is said.
    assert_eq!(
        field(
            &run("move delayed open mounted hero rolled 1 1 1 1"),
            "distance_in"
        ),
        4
    );
}

#[test]
fn weapon_ranges_and_impact_bonuses() {
    // Pistol 12", Musket/Bow 24", Rifle 36", Canister 36", Roundshot 72";
    // impact +1 muskets and rifles, +2 canister, +3 roundshot.
    for (weapon, range, impact) in [
        ("pistol", 12, 0),
        ("musket", 24, 1),
        ("bow", 24, 0),
        ("rifle", 36, 1),
        ("canister", 36, 2),
        ("roundshot", 72, 3),
    ] {
        let at_range = run(&format!("fire {weapon} {range}\" rolled 6 1"));
        assert_eq!(field(&at_range, "range_in"), range, "{weapon}");
        assert_eq!(field(&at_range, "range"), "over-half-range", "{weapon}");
        // 6 − 1 over half range = 5: a hit in the open.
        assert_eq!(at_range.fields["skill"]["modified"], 5, "{weapon}");
        assert_eq!(
            at_range.fields["impact"]["modified"],
            1 + impact,
            "{weapon}"
        );
        let half = run(&format!("fire {weapon} {}in rolled 4 1", range / 2));
        assert_eq!(field(&half, "range"), "within-half-range", "{weapon}");
        assert_eq!(half.fields["skill"]["modified"], 4, "{weapon}");
        let beyond = run(&format!("fire {weapon} {}\"", range + 1));
        assert_eq!(beyond.outcome, "out-of-range", "{weapon}");
        assert!(beyond.dice.is_empty(), "{weapon}: no dice out of range");
        // Target killed at 6 or more after the bonus.
        let kill_face = 6 - impact;
        let killed = run(&format!("fire {weapon} 1\" rolled 4 {kill_face}"));
        assert_eq!(killed.outcome, "killed", "{weapon}");
        if kill_face > 1 {
            let check = run(&format!("fire {weapon} 1\" rolled 4 {}", kill_face - 1));
            assert_eq!(check.outcome, "courage-check", "{weapon}");
        }
    }
}

#[test]
fn cover_scores() {
    // 4-6 open, 5-6 soft cover, 6 hard cover.
    for (cover, needs) in [("open", 4), ("soft", 5), ("hard", 6)] {
        let hit = run(&format!("fire pistol 1\" {cover} rolled {needs} 1"));
        assert_ne!(hit.outcome, "miss", "{cover}");
        assert_eq!(field(&hit, "needed"), needs);
        let miss = run(&format!("fire pistol 1\" {cover} rolled {}", needs - 1));
        assert_eq!(miss.outcome, "miss", "{cover}");
    }
    // No cover word: the target is in the open.
    assert_eq!(field(&run("fire pistol 1\" rolled 4 1"), "needed"), 4);
}

#[test]
fn skill_die_modifiers() {
    // −1 over half range, −1 firing while mounted.
    let res = run("fire musket 20\" mounted rolled 6 1");
    let mods: Vec<i64> = res.modifiers.iter().map(|m| m.value).collect();
    assert_eq!(mods, [-1, -1, 1]);
    assert_eq!(res.fields["skill"]["modified"], 4);
    assert_eq!(run("fire musket 20\" mounted rolled 5").outcome, "miss");
}

#[test]
fn several_figures_for_guns() {
    // Skill dice first (6 and 4 hit, 3 misses), then an impact die per hit
    // with roundshot's +3: 3 → 6 kills, 1 → 4 a courage check.
    let res = run("fire roundshot 10\" figures=3 rolled 6 4 3 3 1");
    assert_eq!(field(&res, "killed"), 1);
    assert_eq!(field(&res, "missed"), 1);
    assert_eq!(field(&res, "courage_checks"), 1);
    assert!(fails("fire rifle 10\" figures=2").contains("canister and roundshot"));
}

#[test]
fn courage_values_by_rank() {
    // 5 exceptional leaders, 4 ordinary leaders, 3 soldiers, 2 non-combatants.
    for (rank, value) in [
        ("exceptional-leader", 5),
        ("leader", 4),
        ("soldier", 3),
        ("non-combatant", 2),
    ] {
        assert_eq!(
            run(&format!("courage {rank} rolled {value}")).outcome,
            "pass"
        );
        let fail = run(&format!(
            "courage {rank} cause=charge-ordered rolled {}",
            value + 1
        ));
        assert_eq!(fail.outcome, "stand-still", "{rank}");
        assert_eq!(field(&fail, "highest"), value);
    }
}

#[test]
fn courage_causes() {
    // Only an order to charge stands still; the other four roll each figure.
    for cause in ["casualty", "charged", "leader-killed"] {
        let res = run(&format!("courage group=3,2 cause={cause} rolled 4 4 2 1 1"));
        assert_eq!(res.outcome, "fail", "{cause}");
        assert_eq!(res.fields["figures"][0]["result"], "runs-off");
        assert_eq!(res.fields["figures"][1]["result"], "retreats");
        assert_eq!(res.fields["figures"][1]["retreat_in"], 2);
    }
    // Cause 4: individual check at the group rate, only the hit figure.
    let res = run("courage group=2,4 cause=fire rolled 5 3");
    assert_eq!(res.outcome, "fail");
    assert_eq!(res.fields["figures"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        run("courage group=2,4 cause=charge-ordered rolled 5").outcome,
        "stand-still"
    );
    // Against the highest value, equal or less passes.
    assert_eq!(run("courage group=2,5,3 rolled 5").outcome, "pass");
}

#[test]
fn melee_modifiers_and_armament() {
    // +1 leader, +1 superior, +2 rear or side, +1 shock, +1 bayonet.
    for (word, value) in [
        ("leader", 1),
        ("superior", 1),
        ("obstacle", 1),
        ("uphill", 1),
        ("stream-bank", 1),
        ("mounted", 1),
        ("rear", 2),
        ("side", 2),
        ("shock", 1),
        ("bayonet", 1),
    ] {
        let res = run(&format!("fight {word} vs rolled 3 3 1"));
        assert_eq!(res.modifiers.len(), 1, "{word}");
        assert_eq!(res.modifiers[0].value, value, "{word}");
        assert_eq!(res.outcome, "a-hits", "{word}");
        assert_eq!(res.fields["a"]["modified"], 3 + value, "{word}");
    }
    // Armament: 6 unarmed, 5 most weapons (default), 4 melee specialists.
    for (word, value) in [("unarmed", 6), ("armed", 5), ("specialist", 4), ("", 5)] {
        let kill = run(&format!("fight {word} vs rolled 2 1 {value}"));
        assert_eq!(field(&kill, "result"), "killed", "{word}");
        let check = run(&format!("fight {word} vs rolled 2 1 {}", value - 1));
        assert_eq!(field(&check, "result"), "courage-check", "{word}");
    }
    assert_eq!(run("fight vs rolled 2 2").outcome, "tie");
}

#[test]
fn several_opponents_stop_when_killed() {
    let res = run("fight vs armed vs armed vs armed rolled 1 2 5");
    assert_eq!(field(&res, "cancelled"), 2);
    let res = run("fight vs vs rolled 2 1 1 3 3");
    assert_eq!(field(&res, "cancelled"), 0);
    assert_eq!(res.fields["combats"].as_array().map(Vec::len), Some(2));
}

#[test]
fn hero_tokens() {
    let res = run("fire musket 1\" at hero saves=2 rolled 4 6");
    assert_eq!(res.outcome, "courage-check");
    assert_eq!(res.fields["target_tokens"]["saves_left"], 1);
    let res = run("courage 3 saves=1 rolled 6");
    assert_eq!(res.outcome, "pass");
    assert_eq!(field(&res, "save_spent"), true);
    let res = run("fight rerolls=1 vs rolled 1 4 5 2");
    assert_eq!(res.outcome, "a-hits");
    assert_eq!(res.fields["a"]["rerolled_from"], 1);
}

#[test]
fn miscellaneous_rules() {
    // Reloading: 3 smoke puffs, a crew of 3 (a leader counting as two) removes 1 a turn.
    let res = run("reload crew=3");
    assert_eq!(
        (field(&res, "puffs"), field(&res, "turns")),
        (3.into(), 3.into())
    );
    assert_eq!(run("reload crew=2 leader").outcome, "clears");
    assert_eq!(run("reload crew=2").outcome, "cannot-clear");
    assert_eq!(run("reload crew=1 leader").outcome, "cannot-clear");
    // Climbing and setting fires: a 6.
    for verb in ["climb", "ignite"] {
        assert_eq!(run(&format!("{verb} rolled 6")).outcome, "success");
        assert_eq!(run(&format!("{verb} rolled 5")).outcome, "failure");
    }
    // Skills 4-6: the minimum to roll.
    for n in 4..=6 {
        assert_eq!(run(&format!("skill {n} rolled {n}")).outcome, "success");
        assert_eq!(
            run(&format!("skill {n} rolled {}", n - 1)).outcome,
            "failure"
        );
    }
    assert!(fails("skill 3").contains("4 to 6"));
    // Search: both rolls must succeed.
    assert_eq!(
        run("search value=6 difficulty=2 rolled 6 2").outcome,
        "found"
    );
    assert_eq!(
        run("search value=6 difficulty=2 rolled 5 6").outcome,
        "nothing"
    );
    assert_eq!(
        run("search value=4 difficulty=6 rolled 4 5").outcome,
        "nothing"
    );
    // Post-battle: 1-4 wounded, 5-6 dead.
    for face in 1..=6 {
        let res = run(&format!("post-battle 1 rolled {face}"));
        let dead = i64::from(face >= 5);
        assert_eq!(field(&res, "dead"), dead, "face {face}");
        assert_eq!(field(&res, "wounded"), 1 - dead, "face {face}");
    }
    // Initiative: a die per side, a tie repeats the previous turn's order.
    assert_eq!(run("initiative rolled 2 5").outcome, "b");
    assert_eq!(run("initiative rolled 4 4").outcome, "tie");
}

#[test]
fn text_and_json_agree() {
    for line in [
        "fire canister 20\" figures=2 rolled 6 5 3 1",
        "courage group=4,3 cause=charged rolled 6 5 2 3 1",
        "fight leader vs shock vs rear rolled 4 3 5 2 6 1",
    ] {
        let a = run(line);
        let b = run(line);
        assert_eq!(a, b, "{line}");
        let source = drumhead::format::Source {
            line: 1,
            input: line,
        };
        let json = drumhead::format::json::json(&a, source);
        assert_eq!(json["outcome"], serde_json::Value::from(a.outcome.clone()));
    }
}
