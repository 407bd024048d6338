//! Issue 15, Drums and Muskets: the Table of allowed interpenetrations, the
//! house default that moves irregulars as open foot, rows that depend on a
//! formation nobody gave, words that contradict each other, and Risk to
//! Generals kept in a game. Expected values are copied by hand from the
//! quick reference sheet (shared/rules/drums-and-muskets-quick-reference.txt),
//! never read back from tables/. The `odds` of each procedure touched here
//! agree with 100,000 seeded rolls, as in tests/suite/odds.rs.

use crate::common::agreement;

use std::path::Path;

use drumhead::answer::Odds;
use drumhead::answer::Resolution;
use drumhead::drums::DRUMS;
use drumhead::game::{ArmySource, Game};
use drumhead::session::{Output, Session};

fn session(seed: u64) -> Session {
    agreement::session(DRUMS, seed)
}

fn resolve(line: &str) -> Resolution {
    match session(1).run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        other => panic!("`{line}` did not resolve: {other:?}"),
    }
}

/// The error a line is refused with, as the user reads it.
fn refused(s: &mut Session, line: &str) -> String {
    match s.run_line(line) {
        Err(e) => e.to_string(),
        Ok(other) => panic!("`{line}` was not refused: {other:?}"),
    }
}

fn measure(res: &Resolution, name: &str) -> f64 {
    res.measures
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| panic!("no measure `{name}` in {}", res.heading))
}

// ---------------------------------------------------------------------------
// Table of allowed interpenetrations
//
// | Moving unit's formation  | Open | Formed | Any column |
// | Open (including evading) | X    | X      | X          |
// | Formed Line              | X    | X      |            |
// | Any column               | X    | X      |            |

/// (a word of the moving unit's row, [Open, Formed, Any column]).
const MOVING: &[(&str, [bool; 3])] = &[
    ("open", [true, true, true]),
    ("evading", [true, true, true]),
    ("line", [true, true, false]),
    ("column-of-attack", [true, true, false]),
    ("column-of-march", [true, true, false]),
];

/// A word of each column of the unit being interpenetrated.
const THROUGH: [&[&str]; 3] = [
    &["open", "evading"],
    &["formed", "line", "square"],
    &["column-of-attack", "column-of-march"],
];

#[test]
fn every_cell_of_the_interpenetration_table() {
    let mut checked = 0;
    for &(moving, cells) in MOVING {
        for (column, words) in THROUGH.iter().enumerate() {
            for through in *words {
                let line = format!("interpenetrate {moving} {through}");
                let res = resolve(&line);
                let expected = if cells[column] {
                    "allowed"
                } else {
                    "not-allowed"
                };
                assert_eq!(res.outcome, expected, "{line}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 35);
}

#[test]
fn interpenetration_rows_and_columns_are_the_sheets() {
    let res = resolve("interpenetrate evading column-of-march");
    assert_eq!(
        res.heading,
        "interpenetration, Open (including evading) through Any column"
    );
    let res = resolve("interpenetrate line column-of-attack");
    assert_eq!(
        res.heading,
        "interpenetration, Formed Line through Any column"
    );
    assert_eq!(res.outcome_text.split(':').next(), Some("not allowed"));
}

#[test]
fn interpenetration_refuses_what_it_cannot_read() {
    let mut s = session(1);
    // A square does not move: it has no row.
    let e = refused(&mut s, "interpenetrate square open");
    assert!(e.contains("`square` has no row"), "{e}");
    let e = refused(&mut s, "interpenetrate open");
    assert!(e.contains("needs the moving unit's formation"), "{e}");
    let e = refused(&mut s, "interpenetrate open formed line");
    assert!(e.contains("`line` is a third formation"), "{e}");
    let e = refused(&mut s, "interpenetrate opn formed");
    assert!(e.contains("did you mean `open`"), "{e}");
}

#[test]
fn interpenetration_of_named_units_reads_their_formations() {
    let mut s = game_session();
    // jaeger: irregular, open; garde-3: foot, line; gren-1: foot, column
    // of attack.
    let res = run(&mut s, "interpenetrate jaeger garde-3");
    assert_eq!(res.outcome, "allowed");
    let res = run(&mut s, "interpenetrate garde-3 gren-1");
    assert_eq!(res.outcome, "not-allowed");
    let res = run(&mut s, "interpenetrate gren-1 garde-3");
    assert_eq!(res.outcome, "allowed");
    let e = refused(&mut s, "interpenetrate frederick open");
    assert!(e.contains("generals have no formation"), "{e}");
}

// ---------------------------------------------------------------------------
// Irregulars move as open foot (house default `move_as.irregular`)
//
// | Foot | Open            | 2 + 1D6 | 1D6 | 1D6 |
// |      | Open (Evading)  | 1D6     | 1D6 | NA  |
// |      | Column of March | 2D6     | 1D3 | 1D6 |
// "If in Column of March and the whole movement is on a road then add 1D6"

#[test]
fn irregulars_move_on_the_foot_rows() {
    for (line, distance) in [
        ("move irregular open rolled 3", 5.0),
        ("move irregular open terrain rolled 3", 3.0),
        ("move irregular open retire rolled 3", 3.0),
        ("move irregular open evading rolled 3", 3.0),
        ("move irregular column-of-march rolled 3 4", 7.0),
        ("move irregular column-of-march terrain rolled 3", 3.0),
        ("move irregular column-of-march road rolled 3 4 5", 12.0),
    ] {
        let res = resolve(line);
        assert_eq!(measure(&res, "distance"), distance, "{line}");
        let house = res
            .row_texts()
            .into_iter()
            .any(|(label, _)| label.contains("house default: tables/drums.toml move_as.irregular"));
        assert!(house, "{line}: the stack names the house default");
    }
    // Foot rows only for foot: no house default row there.
    let res = resolve("move foot open rolled 3");
    assert!(
        !res.row_texts()
            .iter()
            .any(|(label, _)| label.contains("house default"))
    );
}

#[test]
fn irregulars_have_only_their_own_formations() {
    let mut s = session(1);
    // "All Irregular troops | Open | Column of March".
    let e = refused(&mut s, "move irregular line");
    assert!(e.contains("not a formation of irregular troops"), "{e}");
    let e = refused(&mut s, "move irregular");
    assert!(e.contains("open or column-of-march"), "{e}");
    // "Open (Evading) ... Force to Retire: NA".
    let e = refused(&mut s, "move irregular open evading retire");
    assert!(e.contains("is NA"), "{e}");
}

// ---------------------------------------------------------------------------
// A row that depends on a formation nobody gave is not applied

fn pool_of(res: &Resolution, side: usize) -> i64 {
    res.fields
        .get("sides")
        .and_then(|s| s.get(side))
        .and_then(|s| s.get("pool"))
        .and_then(|p| p.as_i64())
        .expect("a side's pool")
}

#[test]
fn formed_cavalry_vs_open_needs_the_formation() {
    // "Any formed cavalry vs Open — Double dice"; "Cavalry vs foot not in
    // square and not in terrain — Add 1 in 2 dice".
    let unknown = resolve("melee cavalry bases=4 vs foot open bases=4");
    assert_eq!(pool_of(&unknown, 0), 6);
    let said = unknown
        .row_texts()
        .into_iter()
        .find(|(label, _)| label.starts_with("a: Any formed cavalry vs Open"))
        .expect("the row is shown");
    assert!(
        said.0.contains("not applied") && said.0.contains("`formed` would apply it"),
        "{said:?}"
    );
    let formed = resolve("melee cavalry formed bases=4 vs foot open bases=4");
    assert_eq!(pool_of(&formed, 0), 12);
    // "Column of March in melee — Remove 2 dice".
    let march = resolve("melee cavalry column-of-march bases=4 vs foot open bases=4");
    assert_eq!(pool_of(&march, 0), 4);
}

#[test]
fn formed_foot_vs_open_needs_the_opponents_formation() {
    // "Any formed foot vs Open — Add 2 dice".
    assert_eq!(
        pool_of(&resolve("melee foot line bases=4 vs foot bases=4"), 0),
        4
    );
    assert_eq!(
        pool_of(&resolve("melee foot line bases=4 vs foot open bases=4"), 0),
        6
    );
    // "Open foot not in terrain — Remove 2 dice" (b: 4 − 2).
    assert_eq!(
        pool_of(&resolve("melee foot line bases=4 vs foot open bases=4"), 1),
        2
    );
}

#[test]
fn shooting_at_a_target_of_no_formation() {
    // Table 2a: "Target is in Open formation at long range — Remove 1 in 2
    // dice"; "Target is not open and moved this turn and is at long range —
    // Remove 1 dice"; "Target is foot square — Add 1 in 3 dice".
    let pool = |line: &str| {
        resolve(line)
            .fields
            .get("pool")
            .and_then(|p| p.as_i64())
            .expect("pool")
    };
    assert_eq!(pool("shoot field-artillery 20BW bases=6 at moved"), 6);
    assert_eq!(pool("shoot field-artillery 20BW bases=6 at line moved"), 5);
    assert_eq!(pool("shoot field-artillery 20BW bases=6 at open moved"), 3);
    assert_eq!(pool("shoot field-artillery 4BW bases=6 at square"), 8);
    assert_eq!(pool("shoot field-artillery 4BW bases=6"), 6);
    let res = resolve("shoot field-artillery 20BW bases=6 at moved");
    let rows = res.row_texts();
    for row in [
        "Target is foot square",
        "Target is not open and moved this turn and is at long range",
        "Target is in Open formation at long range",
    ] {
        assert!(
            rows.iter()
                .any(|(label, _)| label.starts_with(row) && label.contains("not applied")),
            "{row}: {rows:?}"
        );
    }
}

#[test]
fn resilience_without_a_formation() {
    // From shooting: "Are Formed and in Line +1", "Are in Open formation
    // +1", "Are in column of march −2": none applied, each shown.
    let res = resolve("resilience shooting rolled 3 3");
    // 6, "Are not classed as Zealous" +1.
    assert_eq!(res.score, Some(7));
    let shown = res
        .row_texts()
        .into_iter()
        .filter(|(label, _)| label.contains("not applied"))
        .count();
    assert_eq!(shown, 3);
    assert_eq!(
        resolve("resilience shooting line rolled 3 3").score,
        Some(8)
    );
    assert_eq!(
        resolve("resilience shooting column-of-march rolled 3 3").score,
        Some(5)
    );
    let res = resolve("resilience shooting open rolled 3 3");
    assert_eq!(res.score, Some(8));
    assert!(
        !res.row_texts()
            .iter()
            .any(|(label, _)| label.contains("not applied"))
    );
}

// ---------------------------------------------------------------------------
// Contradictions are refused, naming both words

#[test]
fn contradictions_name_both_words() {
    let mut s = session(1);
    for (line, later, earlier) in [
        (
            "melee foot determined lackluster bases=4",
            "lackluster",
            "determined",
        ),
        ("hold lackluster determined", "determined", "lackluster"),
        (
            "resilience melee determined lackluster",
            "lackluster",
            "determined",
        ),
        (
            "melee foot bases=4 vs foot obstacle fortification bases=4",
            "fortification",
            "obstacle",
        ),
        (
            "hold not-in-terrain irregular-leaving-terrain",
            "irregular-leaving-terrain",
            "not-in-terrain",
        ),
        ("hold strong weak", "weak", "strong"),
        (
            "hold not-charged charged-twice",
            "charged-twice",
            "not-charged",
        ),
        (
            "melee foot bases=4 uphill downhill-charge vs foot bases=4",
            "downhill-charge",
            "uphill",
        ),
        (
            "melee foot bases=4 first-melee zealous-later vs foot bases=4",
            "zealous-later",
            "first-melee",
        ),
        (
            "shoot musket 2BW line bases=6 first-shot fired-3",
            "fired-3",
            "first-shot",
        ),
        ("resilience melee open square", "square", "open"),
    ] {
        let e = refused(&mut s, line);
        assert!(
            e.contains(&format!("`{later}` contradicts `{earlier}`")),
            "{line}: {e}"
        );
    }
    // One of each is fine.
    for line in [
        "hold determined",
        "hold lackluster",
        "melee foot bases=4 vs foot obstacle bases=4",
        "melee foot bases=4 vs foot fortification bases=4",
    ] {
        resolve(line);
    }
}

// ---------------------------------------------------------------------------
// Risk to Generals in a game

fn game_session() -> Session {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let sources: Vec<ArmySource> = ["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"]
        .iter()
        .map(|f| ArmySource {
            file: format!("armies/{f}"),
            text: std::fs::read_to_string(dir.join(f)).expect("shipped army"),
        })
        .collect();
    let tables = drumhead::systems::embedded().expect("tables");
    let game = Game::new(sources, &tables).expect("the Leuthen armies load");
    Session::new(tables, DRUMS, 3).with_game(game)
}

fn run(s: &mut Session, line: &str) -> Resolution {
    match s.run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        other => panic!("`{line}` did not resolve: {other:?}"),
    }
}

fn pool_total(res: &Resolution, side: usize) -> i64 {
    res.fields
        .get("sides")
        .and_then(|s| s.get(side))
        .and_then(|s| s.get("pool"))
        .and_then(|p| p.as_i64())
        .expect("a side's pool")
}

#[test]
fn a_lost_force_commander_issues_no_supply_dice_this_turn() {
    let mut s = game_session();
    // Supply is fine before: "Supply dice from Force Commander — Add 1 dice".
    run(&mut s, "melee aus-5 supply vs gren-3");
    // Charles, the Austrian force commander, is swept away ("on a 5+").
    run(&mut s, "risk broke charles rolled 5 1 1 1");
    let e = refused(&mut s, "melee aus-5 supply vs gren-3");
    assert!(e.contains("`supply` is refused"), "{e}");
    assert!(e.contains("cannot longer issue any supply dice"), "{e}");
    // Austria is the second army, named by its side (issue 35).
    let e = refused(&mut s, "initiative supply vs supply");
    assert!(e.contains("force commander of Austria"), "{e}");
    // Prussia's supply is untouched.
    run(&mut s, "melee gren-3 supply vs aus-5");
    let res = run(&mut s, "initiative supply");
    // Prussia: 5 generals, 2 exceptional, + supply = 8; Austria: 4 on the board.
    assert_eq!(pool_total(&res, 0), 8);
    assert_eq!(pool_total(&res, 1), 4);
    // "for the rest of the current turn": the next turn, supply again.
    s.run_line("next-turn").expect("next-turn");
    run(&mut s, "melee aus-5 supply vs gren-3");
    let res = run(&mut s, "initiative supply vs supply");
    assert_eq!(pool_total(&res, 1), 5);
}

#[test]
fn units_of_the_side_expend_one_action_point() {
    let mut s = game_session();
    // Daun is not the force commander: his side's units are held to one
    // action point, but supply is still issued.
    let res = run(&mut s, "hold aus-5 rolled 1 1");
    assert!(res.fields.get("one_action_point").is_none());
    run(&mut s, "risk broke daun rolled 6 1 1 1");
    let res = run(&mut s, "hold aus-5 rolled 1 1");
    assert_eq!(
        res.fields.get("one_action_point").and_then(|v| v.as_bool()),
        Some(true)
    );
    assert!(res.notes.iter().any(|n| n.contains("none left this turn")));
    run(&mut s, "melee aus-5 supply vs gren-3");
    // Prussian units are untouched.
    let res = run(&mut s, "hold gren-3 rolled 1 1");
    assert!(res.fields.get("one_action_point").is_none());
    s.run_line("next-turn").expect("next-turn");
    let res = run(&mut s, "hold aus-5 rolled 1 1");
    assert!(res.fields.get("one_action_point").is_none());
}

// ---------------------------------------------------------------------------
// Figures: "each hit equals on figure removed/lost"

#[test]
fn figures_lose_one_a_hit() {
    let res = resolve("hits 5 figures=12");
    assert_eq!(measure(&res, "figures_lost"), 5.0);
    let res = resolve("shoot musket 2BW line bases=6 at figures=8 rolled 4 4 4 1 1 1");
    assert_eq!(measure(&res, "hits"), 3.0);
    assert_eq!(measure(&res, "figures_lost"), 3.0);
    // Counted as the shooters are when the target's size is not given.
    let res = resolve("shoot musket 2BW line figures=12 rolled 4 4 4 4 4 4 4 1 1 1 1 1");
    assert_eq!(measure(&res, "figures_lost"), 7.0);
    let res = resolve("shoot musket 2BW line bases=12 rolled 4 4 4 4 4 4 4 1 1 1 1 1");
    assert_eq!(measure(&res, "bases_lost"), 1.0);
    // A shot of no dice loses no figures either.
    let res = resolve("shoot musket 8BW line bases=6 at figures=8");
    assert_eq!(measure(&res, "figures_lost"), 0.0);
}

// ---------------------------------------------------------------------------
// odds against 100,000 seeded rolls

fn odds(line: &str) -> Odds {
    agreement::odds(DRUMS, line)
}

/// `odds` against 100,000 rolls seeded from 20_250_115.
fn assert_agrees(line: &str) {
    agreement::assert_agrees(&odds(line), &mut session(20_250_115), line);
}

#[test]
fn interpenetration_odds_are_certain() {
    for (line, text) in [
        ("interpenetrate open formed", "allowed"),
        ("interpenetrate line column-of-march", "not allowed"),
    ] {
        let o = odds(line);
        assert_eq!(o.outcomes.len(), 1, "{line}");
        assert_eq!(o.outcomes[0].prob.exact(), Some((1, 1)), "{line}");
        assert!(o.outcomes[0].text.starts_with(text), "{line}");
    }
}

#[test]
fn odds_agree_with_seeded_rolls_irregular_move() {
    // 2 + 1D6: 3 to 8, each 1/6.
    let o = odds("move irregular open");
    assert_eq!(o.outcomes.len(), 6);
    for outcome in &o.outcomes {
        assert_eq!(outcome.prob.exact(), Some((1, 6)), "{}", outcome.text);
    }
    assert_agrees("move irregular open");
    assert_agrees("move irregular column-of-march road");
}

#[test]
fn odds_agree_with_seeded_rolls_unknown_formations() {
    assert_agrees("melee cavalry bases=4 vs foot open bases=4");
    assert_agrees("shoot field-artillery 20BW bases=6 at moved");
    assert_agrees("resilience shooting");
}

#[test]
fn odds_agree_with_seeded_rolls_figures_and_one_action() {
    assert_agrees("shoot musket 2BW line bases=6 at figures=8");
    assert_agrees("hold one-action");
}

// ---------------------------------------------------------------------------
// The house default and the interpenetration table are read from tables/:
// a house-rule copy of drums.toml changes them, and a wrong one is refused.

/// Run the program on a copy of tables/drums.toml edited by `edit`.
fn with_house_table(edit: impl Fn(&str) -> String, line: &str) -> std::process::Output {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/drums.toml");
    let text = std::fs::read_to_string(shipped).expect("tables/drums.toml");
    // One directory a call: the tests run in parallel.
    let dir = crate::common::game::temp_dir("issue15");
    std::fs::write(dir.join("drums.toml"), edit(&text)).expect("write the house table");
    std::process::Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .arg("--tables")
        .arg(&dir)
        .arg(line)
        .output()
        .expect("run drumhead")
}

#[test]
fn house_tables_move_irregulars_as_they_say() {
    let shipped = "[move_as]\nirregular = \"foot\"";
    // Irregulars as cavalry: "Cavalry | Open | 2 + 2D6".
    let out = with_house_table(
        |t| t.replace(shipped, "[move_as]\nirregular = \"cavalry\""),
        "move irregular open rolled 3 4",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("move up to 9BW"), "{text}");
    assert!(text.contains("Irregular troops move as Cavalry"), "{text}");
    // A house file merges over the embedded tables: leaving the default
    // out keeps the embedded one (irregulars move as Foot Open, 2 + 1D6).
    let out = with_house_table(|t| t.replace(shipped, ""), "move irregular open rolled 3");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("move up to 5BW"), "{text}");
    // Generals have no formation to move as.
    let out = with_house_table(
        |t| t.replace(shipped, "[move_as]\nirregular = \"general\""),
        "move foot line",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move_as.irregular"), "{err}");
}

#[test]
fn a_wrong_interpenetration_table_is_refused() {
    let out = with_house_table(
        |t| {
            t.replacen(
                "allowed = [\"open\", \"formed\"]",
                "allowed = [\"open\", \"nowhere\"]",
                1,
            )
        },
        "hold",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("`allowed` names no column `nowhere`"), "{err}");
    // A formation in two columns.
    let out = with_house_table(
        |t| {
            t.replacen(
                "formations = [\"open\", \"evading\"]",
                "formations = [\"open\", \"line\"]",
                1,
            )
        },
        "hold",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("formation `line` selects two columns"),
        "{err}"
    );
}

#[test]
fn a_named_unit_leaves_no_formation_unknown() {
    // Every unit of the shipped Leuthen armies brings its formation, so no
    // row is left "not applied" for want of one, in any verb that reads it.
    let mut s = game_session();
    let ids: Vec<String> = s
        .game
        .as_ref()
        .expect("a game")
        .armies
        .iter()
        .filter(|a| a.rules == DRUMS)
        .flat_map(|a| a.list.members())
        .filter(|m| m.kind != "general")
        .map(|m| m.id.to_string())
        .collect();
    assert!(ids.len() > 20, "{ids:?}");
    for id in &ids {
        for line in [
            format!("resilience shooting {id} rolled 3 3"),
            format!("resilience melee {id} rolled 3 3"),
            format!("melee {id} vs foot open bases=4"),
            format!("melee foot open bases=4 vs {id}"),
            format!("shoot field-artillery 20BW bases=4 at {id}"),
        ] {
            let res = run(&mut s, &line);
            let unknown: Vec<String> = res
                .row_texts()
                .into_iter()
                .map(|(label, _)| label)
                .filter(|label| label.contains("formation is not given"))
                .collect();
            assert!(unknown.is_empty(), "{line}: {unknown:?}");
        }
        // Nothing above changes the game but the melee rounds: start afresh
        // for the next unit.
        s = game_session();
    }
}
