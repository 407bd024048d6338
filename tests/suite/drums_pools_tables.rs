//! Every row of Shooting Tables 1 and 2a–2d and of the Artillery, Foot and
//! Cavalry Melee Factors Tables, walked against expectations written by
//! hand from the rule text (shared/rules/drums-and-muskets-quick-reference.txt),
//! not read back from tables/drums-pools.toml.

use drumhead::answer::Resolution;
use drumhead::session::{Output, Session};
use serde_json::Value;

fn run(line: &str) -> Resolution {
    let mut session = Session::new(
        drumhead::systems::embedded().unwrap(),
        drumhead::drums::DRUMS,
        1,
    );
    match session.run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        other => panic!("`{line}` did not resolve: {other:?}"),
    }
}

fn error(line: &str) -> String {
    let mut session = Session::new(
        drumhead::systems::embedded().unwrap(),
        drumhead::drums::DRUMS,
        1,
    );
    match session.run_line(line) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("`{line}` should have been rejected"),
    }
}

/// The applied rows of a pool (after the base), as (label, change).
fn steps(v: &Value) -> Vec<(String, i64)> {
    v.as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|s| {
            (
                s["label"].as_str().unwrap().to_string(),
                s["change"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// A shot: the pool, and the rows applied with their change, in order.
fn shot(line: &str, pool: i64, rows: &[(&str, i64)]) {
    let res = run(line);
    let got = steps(&res.fields["pool_steps"]);
    let want: Vec<(String, i64)> = rows.iter().map(|(l, c)| (l.to_string(), *c)).collect();
    assert_eq!(got, want, "rows of `{line}`");
    assert_eq!(res.fields["pool"], pool, "pool of `{line}`");
}

/// One melee side (side a): its pool and applied rows.
fn melee(line: &str, pool: i64, rows: &[(&str, i64)]) {
    let res = run(line);
    let side = &res.fields["sides"][0];
    let got = steps(&side["pool_steps"]);
    let want: Vec<(String, i64)> = rows.iter().map(|(l, c)| (l.to_string(), *c)).collect();
    assert_eq!(got, want, "rows of `{line}`");
    assert_eq!(side["pool"], pool, "pool of `{line}`");
}

// ---------------------------------------------------------------- Table 1

#[test]
fn table_1_ranges_and_scores() {
    // (weapon, short BW, short score, long BW, long score) from the sheet.
    let rows = [
        ("carbine", 1.0, 4, 3.0, 6),
        ("musket", 2.0, 4, 6.0, 6),
        ("rifle", 2.0, 3, 6.0, 5),
        ("minie", 4.0, 3, 12.0, 5),
        ("field-artillery", 6.0, 3, 24.0, 5),
        ("position-artillery", 8.0, 3, 30.0, 5),
    ];
    for (weapon, short, s_score, long, l_score) in rows {
        let formation = if weapon.ends_with("artillery") {
            ""
        } else {
            "formed"
        };
        for (distance, range, score) in [
            (short, "short", Some(s_score)),
            (long, "long", Some(l_score)),
            (long + 0.5, "out-of-range", None),
        ] {
            let res = run(&format!("shoot {weapon} {distance}BW {formation} bases=1"));
            assert_eq!(res.fields["range"], range, "{weapon} at {distance}BW");
            match score {
                Some(s) => assert_eq!(res.fields["hit_on"], s, "{weapon} at {distance}BW"),
                None => {
                    assert_eq!(res.outcome, "out-of-range");
                    assert!(res.dice.is_empty(), "out of range rolls nothing");
                }
            }
        }
    }
}

#[test]
fn table_1_unprompted_scores() {
    // As unprompted action response: carbines 1BW/5+, muskets 2BW/5+,
    // rifles 2BW/4+ and 6BW/6, minie 4BW4+ and 12BW/6. Blank long cells
    // keep the weapon's own (carbines 3BW/6, muskets 6BW/6).
    let rows = [
        ("carbine", 1.0, 5, 3.0, 6),
        ("musket", 2.0, 5, 6.0, 6),
        ("rifle", 2.0, 4, 6.0, 6),
        ("minie", 4.0, 4, 12.0, 6),
    ];
    for (weapon, short, s_score, long, l_score) in rows {
        let res = run(&format!(
            "shoot {weapon} {short}BW formed unprompted bases=1"
        ));
        assert_eq!(res.fields["range"], "short");
        assert_eq!(res.fields["hit_on"], s_score, "{weapon} unprompted short");
        let res = run(&format!(
            "shoot {weapon} {long}BW formed unprompted bases=1"
        ));
        assert_eq!(res.fields["range"], "long");
        assert_eq!(res.fields["hit_on"], l_score, "{weapon} unprompted long");
    }
}

#[test]
fn table_1_bounce() {
    // Field Artillery: "Long range only: 3BW/6": 6s of the same dice.
    let res = run("shoot field-artillery 20BW bases=4 bounce rolled 6 5 6 1");
    assert_eq!(res.fields["hits"], 3);
    assert_eq!(res.fields["bounce_hits"], 2);
    let res = run("shoot position-artillery 30BW bases=2 bounce rolled 6 6");
    assert_eq!(res.fields["bounce_hits"], 2);
    assert!(error("shoot field-artillery 4BW bases=2 bounce").contains("long range only"));
    assert!(error("shoot musket 4BW formed bounce").contains("NA"));
}

// ------------------------------------------------------------- Table 2a

#[test]
fn table_2a_artillery() {
    let fa = "shoot field-artillery";
    shot(
        &format!("{fa} 4BW bases=6 first-shot"),
        8,
        &[("First time unit is shooting in the game", 2)],
    );
    shot(
        &format!("{fa} 4BW bases=6 at square"),
        8,
        &[("Target is foot square", 2)],
    );
    shot(
        &format!("{fa} 4BW bases=6 hits=2"),
        4,
        &[("For each hit on the shooters ×2", -2)],
    );
    shot(
        &format!("{fa} 4BW bases=6 hits"),
        5,
        &[("For each hit on the shooters", -1)],
    );
    shot(
        &format!("{fa} 20BW bases=6 at line moved"),
        5,
        &[(
            "Target is not open and moved this turn and is at long range",
            -1,
        )],
    );
    // "Target is not open": with the target's formation not given, not
    // known, so not applied (the output says `line` would apply it).
    shot(&format!("{fa} 20BW bases=6 at moved"), 6, &[]);
    shot(&format!("{fa} 4BW bases=6 at line moved"), 6, &[]);
    shot(
        &format!("{fa} 20BW bases=6 at moved open"),
        3,
        &[("Target is in Open formation at long range", -3)],
    );
    shot(&format!("{fa} 4BW bases=6 at open"), 6, &[]);
    shot(
        &format!("{fa} 4BW bases=6 limbering"),
        3,
        &[("Unlimbered this turn or will limber this turn", -3)],
    );
    shot(
        &format!("{fa} 4BW bases=6 manhandled"),
        4,
        &[("Man-handled gun this turn", -2)],
    );
    shot(
        &format!("{fa} 4BW bases=6 shot-at"),
        4,
        &[(
            "Shooters fired at this turn and received atleast 1 hit.",
            -2,
        )],
    );
    // Position artillery uses the same table.
    shot(
        "shoot position-artillery 4BW bases=6 first-shot",
        8,
        &[("First time unit is shooting in the game", 2)],
    );
}

// ------------------------------------------------------------- Table 2b

#[test]
fn table_2b_open_shooters() {
    let m = "shoot musket";
    shot(
        &format!("{m} 2BW open bases=6 first-shot"),
        8,
        &[("First time unit is shooting in the game", 2)],
    );
    shot(
        &format!("{m} 2BW open bases=6 at light"),
        5,
        &[("Target uses light company doctrine", -1)],
    );
    shot(
        &format!("{m} 2BW open bases=6 at moved"),
        5,
        &[("Target moved this turn", -1)],
    );
    shot(
        &format!("{m} 4BW open bases=6 at open"),
        4,
        &[("Target is in Open formation at long range", -2)],
    );
    shot(&format!("{m} 2BW open bases=6 at open"), 6, &[]);
    shot(
        &format!("{m} 4BW open bases=6 at cover"),
        3,
        &[("Target is in cover and at long range", -3)],
    );
    shot(&format!("{m} 2BW open bases=6 at cover"), 6, &[]);
    shot(
        &format!("{m} 2BW open bases=6 evading"),
        4,
        &[("Shooters are evading", -2)],
    );
    shot(
        &format!("{m} 2BW open bases=6 moved"),
        6,
        &[(
            "Shooters have moved or will move this turn (except for an evade)",
            0,
        )],
    );
}

// ------------------------------------------------------------- Table 2c

#[test]
fn table_2c_formed_shooters() {
    let m = "shoot musket";
    shot(
        &format!("{m} 2BW formed bases=6 first-shot"),
        8,
        &[("First time unit is shooting in the game", 2)],
    );
    shot(
        &format!("{m} 2BW line bases=6 at light"),
        5,
        &[(
            "Target uses light company doctrine and shooters do not.",
            -1,
        )],
    );
    shot(&format!("{m} 2BW line bases=6 light at light"), 6, &[]);
    shot(
        &format!("{m} 2BW column-of-attack bases=6 fired-3"),
        5,
        &[("*Shooters have fired in game 3+ times at any point.", -1)],
    );
    shot(
        &format!("{m} 2BW square bases=6 at moved"),
        4,
        &[("Target moved this turn", -2)],
    );
    shot(
        &format!("{m} 4BW formed bases=6 at open"),
        3,
        &[("Target is in Open formation at long range", -3)],
    );
    shot(&format!("{m} 2BW formed bases=6 at open"), 6, &[]);
    shot(
        &format!("{m} 2BW formed bases=6 at cover"),
        3,
        &[("Target is in cover", -3)],
    );
    shot(
        &format!("{m} 4BW formed bases=6 at cover"),
        3,
        &[("Target is in cover", -3)],
    );
    shot(
        &format!("{m} 2BW formed bases=6 moved"),
        4,
        &[("Shooters have moved or will move this turn", -2)],
    );
    shot(
        &format!("{m} 2BW formed bases=6 two-rank"),
        8,
        &[(
            "Shooters use 2 ranks firing doctrine and target is at close range",
            2,
        )],
    );
    shot(&format!("{m} 4BW formed bases=6 two-rank"), 6, &[]);
    shot(
        &format!("{m} 2BW formed bases=6 lost-bases"),
        7,
        &[(
            "#Shooters have lost bases in the game but are still >=75% and do not use 2 ranks firing doctrine",
            1,
        )],
    );
    shot(
        &format!("{m} 4BW formed bases=6 lost-bases two-rank"),
        6,
        &[],
    );
}

// ------------------------------------------------------------- Table 2d

#[test]
fn table_2d_column_of_march() {
    let m = "shoot musket";
    let by_itself = ("Shooters in Column of March (applies by itself)", -3);
    shot(&format!("{m} 2BW column-of-march bases=6"), 3, &[by_itself]);
    shot(
        &format!("{m} 2BW march bases=6 first-shot"),
        3,
        &[
            by_itself,
            (
                "First time unit is shooting in the game (advantage lost for the game)",
                0,
            ),
        ],
    );
    shot(
        &format!("{m} 2BW column-of-march bases=6 at moved"),
        2,
        &[by_itself, ("Target moved this turn", -1)],
    );
    shot(
        &format!("{m} 4BW column-of-march bases=6 at open"),
        2,
        &[by_itself, ("Target is in Open formation at long range", -1)],
    );
    shot(
        &format!("{m} 2BW column-of-march bases=6 at open"),
        3,
        &[by_itself],
    );
    shot(
        &format!("{m} 2BW column-of-march bases=6 at cover"),
        2,
        &[by_itself, ("Target is in cover", -1)],
    );
    shot(
        &format!("{m} 2BW column-of-march bases=6 at light"),
        2,
        &[by_itself, ("Target uses light company doctrine", -1)],
    );
}

#[test]
fn pool_arithmetic_order() {
    // The example: 8 → 4 → 2 → 1.
    shot(
        "shoot musket 2BW column-of-march bases=8 at moved cover",
        1,
        &[
            ("Shooters in Column of March (applies by itself)", -4),
            ("Target moved this turn", -2),
            ("Target is in cover", -1),
        ],
    );
    // 1-in-K before flat rows: 6 → (−1 in 2) 3 → (+2) 5, not 6+2=8 → 4.
    shot(
        "shoot musket 2BW formed bases=6 first-shot at cover",
        5,
        &[
            ("Target is in cover", -3),
            ("First time unit is shooting in the game", 2),
        ],
    );
    // Flat rows below zero stop at 0, which rolls nothing.
    let res = run("shoot musket 2BW formed bases=1 moved");
    assert_eq!(res.fields["pool"], 0);
    assert_eq!(res.outcome, "no-dice");
    assert!(res.dice.is_empty());
}

#[test]
fn hits_bases_and_risk() {
    let res = run("shoot musket 2BW formed bases=8 at bases=2 rolled 4 5 6 1 4 4 4 4");
    assert_eq!(res.fields["hits"], 7);
    assert_eq!(res.fields["bases_lost"], 1);
    assert_eq!(res.fields["hits_left"], 1);
    assert_eq!(res.fields["risk_to_generals"], true);
    let res = run("shoot musket 2BW formed bases=4 at bases=4 rolled 4 5 1 1");
    assert_eq!(res.fields["risk_to_generals"], false);
    // Default bases: 4, said.
    let res = run("shoot musket 2BW formed");
    assert_eq!(res.fields["pool"], 4);
    assert_eq!(res.fields["bases_assumed"], true);
    assert!(
        res.notes
            .iter()
            .any(|n| n.contains("4 bases assumed (give bases=N)"))
    );
    // Entered dice: too many is an error naming what the pool needs.
    let e = error("shoot musket 2BW formed bases=2 rolled 4 5 6");
    assert!(
        e.contains("3 dice were entered, but no outcome of this line throws more than 2"),
        "{e}"
    );
}

// ---------------------------------------------------------------- Melee

#[test]
fn artillery_melee_factors() {
    let a = "melee artillery bases=6";
    melee(
        &format!("{a} first-melee"),
        6,
        &[("First round of melee fought in the game.", 0)],
    );
    melee(
        &format!("{a} supply"),
        7,
        &[("Supply dice from Force Commander", 1)],
    );
    // Printed in the artillery table, but about cavalry: never for artillery.
    melee(&format!("{a} vs foot line"), 6, &[]);
    melee(&format!("{a} heavy-first"), 6, &[]);
    melee(&format!("{a} heavy-later"), 6, &[]);
    melee(&format!("{a} guards"), 7, &[("Classed as Guards", 1)]);
    melee(
        &format!("{a} column-of-march"),
        4,
        &[("Column of March in melee", -2)],
    );
    melee(
        "melee artillery bases=3 column-of-march",
        2,
        &[("Column of March in melee", -2), ("minimum 2 dice", 1)],
    );
}

#[test]
fn foot_melee_factors() {
    let f = "melee foot bases=6";
    melee(
        &format!("{f} first-melee"),
        8,
        &[("First round of melee fought in the game", 2)],
    );
    melee(
        &format!("{f} supply"),
        7,
        &[("Supply dice from Force Commander", 1)],
    );
    melee(
        &format!("{f} determined"),
        7,
        &[("If classed as Determined", 1)],
    );
    melee(
        "melee foot column-of-attack ranks=4 bases=6 vs foot line ranks=2",
        8,
        &[("Formed foot in column of attack vs line (2 extra ranks)", 2)],
    );
    melee(
        &format!("{f} lackluster"),
        5,
        &[("If classed as Lackluster", -1)],
    );
    melee(
        "melee foot square bases=6 vs cavalry",
        12,
        &[("Formed foot in square fighting Cavalry", 6)],
    );
    melee(
        "melee foot column-of-attack bases=6 vs lancers",
        8,
        &[("Formed foot in column of attack vs Cavalry", 2)],
    );
    melee(
        &format!("{f} zealous-first"),
        8,
        &[("Zealous in first melee of a charge", 2)],
    );
    melee(
        "melee foot line bases=6 vs cavalry open",
        8,
        &[("Any formed foot vs Open", 2)],
    );
    melee(
        &format!("{f} zealous-later"),
        7,
        &[("Zealous in second or more rounds melee from a charge", 1)],
    );
    melee(&format!("{f} guards"), 8, &[("Classed as Guards", 2)]);
    melee(
        &format!("{f} uphill"),
        8,
        &[(
            "Fighting uphill from opponents and not chargers in first round",
            2,
        )],
    );
    melee(
        &format!("{f} downhill-charge"),
        8,
        &[("First round of a charge and chargers, charged down hill", 2)],
    );
    melee(
        "melee irregular in-terrain bases=6",
        8,
        &[("Irregular foot fighting any in terrain", 2)],
    );
    melee("melee foot in-terrain bases=6", 6, &[]);
    melee(
        &format!("{f} vs foot obstacle"),
        4,
        &[("Opponents are defending an obstacle", -2)],
    );
    melee(
        &format!("{f} vs foot fortification"),
        3,
        &[("Or, opponents are defending fortifications", -3)],
    );
    melee(
        "melee foot open bases=6",
        4,
        &[("Open foot not in terrain", -2)],
    );
    melee("melee foot open in-terrain bases=6", 6, &[]);
    melee(
        "melee foot open evaded bases=6",
        2,
        &[
            (
                "Open foot who evaded and this is the first round of a charge",
                -2,
            ),
            ("Open foot not in terrain", -2),
        ],
    );
    melee(
        &format!("{f} hand-to-hand"),
        8,
        &[("Armed purely with hand to hand weapons or similar", 2)],
    );
    melee("melee foot bases=1", 2, &[("minimum 2 dice", 1)]);
}

#[test]
fn cavalry_melee_factors() {
    let c = "melee cavalry bases=6";
    let first = "First round of melee fought in the game except where cavalry vs square. (Consider spent for the specific unit)";
    melee(&format!("{c} first-melee"), 8, &[(first, 2)]);
    melee(
        &format!("{c} first-melee vs foot square"),
        3,
        &[("Cavalry vs foot square", -3)],
    );
    melee(
        &format!("{c} supply"),
        7,
        &[("Supply dice from Force Commander", 1)],
    );
    melee(
        &format!("{c} determined"),
        7,
        &[("If classed as Determined", 1)],
    );
    melee(
        &format!("{c} lackluster"),
        5,
        &[("If classed as Lackluster", -1)],
    );
    melee(
        &format!("{c} vs foot line"),
        9,
        &[("Cavalry vs foot not in square and not in terrain", 3)],
    );
    melee(&format!("{c} vs foot line in-terrain"), 6, &[]);
    melee(
        "melee heavy-cavalry heavy-first bases=6",
        8,
        &[(
            "Heavy Cavalry in first melee of a charge except vs foot in square",
            2,
        )],
    );
    melee(
        "melee heavy-cavalry heavy-first bases=6 vs foot square",
        3,
        &[("Cavalry vs foot square", -3)],
    );
    melee("melee cavalry heavy-first bases=6", 6, &[]);
    melee(
        "melee cavalry formed bases=6 vs cavalry open",
        12,
        &[("Any formed cavalry vs Open", 6)],
    );
    melee(
        "melee heavy-cavalry heavy-later bases=6",
        7,
        &[(
            "Heavy Cavalry in second or more rounds melee from a charge",
            1,
        )],
    );
    melee(
        "melee lancers lancers-first bases=6",
        8,
        &[("Lancers in first melee of a charge", 2)],
    );
    melee("melee cavalry lancers-first bases=6", 6, &[]);
    let irregular = "Irregular Cavalry not vs Open foot or not vs another irregular cavalry";
    melee("melee irregular-cavalry bases=6", 3, &[(irregular, -3)]);
    melee(
        "melee irregular-cavalry in-terrain bases=6",
        5,
        &[(irregular, -3), ("Irregular Cavalry in terrain", 2)],
    );
    melee(
        "melee irregular-cavalry bases=6 vs irregular-cavalry",
        6,
        &[],
    );
    melee(
        "melee irregular-cavalry bases=6 vs foot open",
        9,
        &[("Cavalry vs foot not in square and not in terrain", 3)],
    );
    melee(
        "melee irregular-cavalry bases=6 vs foot line",
        5,
        // 6 → +floor(6/2) = 9 → −floor(9/2) = 5: each on the pool as it stands.
        &[
            ("Cavalry vs foot not in square and not in terrain", 3),
            (irregular, -4),
        ],
    );
    melee(
        &format!("{c} vs irregular square"),
        3,
        &[("Cavalry vs foot square", -3)],
    );
    melee(
        &format!("{c} zealous-first"),
        8,
        &[("Zealous in first melee of a charge", 2)],
    );
    melee(
        &format!("{c} zealous-later"),
        7,
        &[("Zealous in second or more rounds melee from a charge", 1)],
    );
    melee(&format!("{c} guards"), 8, &[("Classed as Guards", 2)]);
    melee(
        &format!("{c} uphill"),
        8,
        &[(
            "Fighting uphill from opponents and not chargers in first round",
            2,
        )],
    );
    melee(
        &format!("{c} downhill-charge"),
        8,
        &[("First round of a charge and chargers, charged down hill", 2)],
    );
    melee(
        &format!("{c} vs cavalry obstacle"),
        4,
        &[("Opponents are defending an obstacle", -2)],
    );
    melee(
        &format!("{c} vs cavalry fortification"),
        3,
        &[("Or, opponents are defending fortifications", -3)],
    );
    melee(
        &format!("{c} column-of-march"),
        4,
        &[("Column of March in melee", -2)],
    );
    melee(
        &format!("{c} open evaded"),
        4,
        &[(
            "Open cavalry who evaded and this is the first round of a charge",
            -2,
        )],
    );
}

#[test]
fn melee_round() {
    let res = run("melee foot square bases=2 vs cavalry bases=2 rolled 4 4 4 1 6 6");
    // Foot: 2 doubled = 4 dice, 3 hits; cavalry: 2, remove 1 in 2 = 1, then
    // the minimum 2D6: 2 hits.
    assert_eq!(res.fields["sides"][0]["pool"], 4);
    assert_eq!(res.fields["sides"][0]["hits"], 3);
    assert_eq!(res.fields["sides"][1]["pool"], 2);
    assert_eq!(res.fields["sides"][1]["hits"], 2);
    assert_eq!(res.fields["winner"], "a");
    assert_eq!(res.fields["hit_on"], 4);
    let res = run("melee foot bases=2 vs foot bases=2 rolled 4 1 1 4");
    assert_eq!(res.fields["winner"], "drawn");
    let res = run("melee foot bases=2 vs foot bases=2 rolled 1 1 1 4");
    assert_eq!(res.fields["winner"], "b");
    assert!(
        error("melee foot column-of-attack ranks=3 vs foot line").contains("ranks=N"),
        "per extra rank needs both sides' ranks"
    );
    assert!(error("melee bases=4").contains("needs an arm"));
}
