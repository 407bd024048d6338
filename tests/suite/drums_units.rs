//! Drums and Muskets named units in a game: each test is one reported
//! defect, played through batch mode (`drumhead --army … --game FILE` with
//! a script on stdin) on the shipped Leuthen armies, and quotes the rule
//! line it follows.

use crate::common;

use std::path::Path;

use drumhead::game::Game;
use serde_json::Value;

fn leuthen() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    ["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"]
        .iter()
        .flat_map(|f| ["--army".to_string(), dir.join(f).display().to_string()])
        .collect()
}

/// A fresh game file in a directory of its own.
fn game_file(name: &str) -> common::game::ScratchFile {
    common::game::temp_file(&format!("drums-units-{name}"), "g.json")
}

/// Run a script against a game: a new one of `armies` when given, else the
/// game already in the file. Returns (exit code 0, stdout, stderr).
fn play(game: &Path, armies: &[String], extra: &[&str], script: &str) -> (bool, String, String) {
    let mut args: Vec<String> = armies.to_vec();
    args.extend(["--game".into(), game.display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let (code, out, err) = common::run(&args, script);
    (code == Some(0), out, err)
}

/// The JSON objects of a `--json` run, one a line.
fn objects(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The errors of a `--json` run (they are JSON lines too).
fn errors(stdout: &str) -> String {
    objects(stdout)
        .iter()
        .filter_map(|o| o["error"].as_str().map(str::to_string))
        .collect::<Vec<_>>()
        .join("\n")
}

fn drums_state(game: &Path) -> Value {
    let (_, _, state) = Game::read_file(game).unwrap();
    state["drums"].clone()
}

fn modifiers(res: &Value) -> Vec<(String, i64)> {
    res["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["label"].as_str().unwrap().to_string(),
                m["value"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// "If using bases, then for each 6 hits received then 1 base is removed."
/// The hits a unit already carries count towards its next base, so the
/// second `hits 4 aus-5` removes the base the game then shows as lost.
#[test]
fn hits_twice_on_a_fresh_game_removes_the_base_it_says() {
    let game = game_file("hits-twice");
    let (ok, out, err) = play(
        &game,
        &leuthen(),
        &["--json"],
        "hits 4 aus-5\nhits 4 aus-5\nshow aus-5\n",
    );
    assert!(ok, "{err}");
    let lines = objects(&out);
    // 4 hits on 6 bases: 4 < 6, no base; 4 carried.
    assert_eq!(
        lines[0]["outcome_text"],
        "remove 0 bases, 6 left; 4 hits carried"
    );
    // 4 more and the 4 carried: 8 = 1 × 6 + 2, one base, 2 carried.
    assert_eq!(
        lines[1]["outcome_text"],
        "remove 1 base, 5 left; 2 hits carried"
    );
    assert_eq!(lines[1]["carried"], 4);
    assert_eq!(lines[1]["bases_lost"], 1);
    assert_eq!(lines[1]["hits_left"], 2);
    // What the game then shows is the same.
    assert_eq!(lines[2]["type"], "unit");
    let show = lines[2]["rows"].to_string();
    assert!(show.contains("5 of 6 (83%)"), "{show}");
    assert!(show.contains("2 (a base is removed at 6)"), "{show}");
    let state = drums_state(&game);
    assert_eq!(state["units"]["aus-5"]["hits"], 8);
    assert_eq!(state["roster"]["aus-5"]["left"], 5);
    assert_eq!(state["roster"]["aus-5"]["carried"], 2);
}

/// The target of `shoot` and both sides of `melee` bring the hits they carry.
#[test]
fn shoot_and_melee_count_the_hits_already_carried() {
    let game = game_file("shoot-melee");
    let script = "\
hits 4 aus-5
shoot musket 2BW gren-3 at aus-5 rolled 4 4 1 1 1 1 1 1
hits 3 gren-3
melee gren-3 vs aus-5 rolled 4 1 1 1 1 1 1 1 4 4 4 1 1 1 1
";
    let (ok, out, err) = play(&game, &leuthen(), &["--json"], script);
    assert!(ok, "{err}");
    let lines = objects(&out);
    // gren-3 (5 bases, line, two-rank, first shot) at 2BW, muskets short
    // 2BW/4+: 5D6, "Shooters use 2 ranks firing doctrine and target is at
    // close range | Add 1 in 3 dice" +1 → 6, "First time unit is shooting
    // in the game | Add 2 dice" +2 → 8D6. Two 4s: 2 hits, and aus-5's 4
    // carried make 6: one base, none left over.
    let shot = &lines[1];
    assert_eq!(shot["pool"], 8);
    assert_eq!(
        shot["outcome_text"],
        "2 hits and 4 already carried: 1 base lost, no hits left over"
    );
    assert_eq!(shot["bases_lost"], 1);
    assert_eq!(shot["carried"], 4);
    // Melee: gren-3 (5 bases, determined, first melee): 5 + 2 + 1 = 8D6;
    // aus-5 (5 bases left, first melee): 5 + 2 = 7D6. Hits on 4+ (house
    // default): a 1, b 3. aus-5 carried none (6 hits, one base): 1 hit, no
    // base. gren-3 carried 3: 3 + 3 = 6, one base.
    let melee = &lines[3];
    assert_eq!(melee["sides"][0]["pool"], 8);
    assert_eq!(melee["sides"][1]["pool"], 7);
    // Each side's record holds its own losses (issue 23): gren-3, side a,
    // carried 3 and loses the base.
    assert_eq!(melee["sides"][0]["bases_lost"], 1);
    assert_eq!(melee["sides"][0]["carried"], 3);
    assert_eq!(melee["sides"][1]["bases_lost"], 0);
    assert_eq!(
        melee["notes"][0],
        "On aus-5 (Foot): 1 hit: no base lost, 1 hit left over. \
         On gren-3 (Foot): 3 hits and 3 already carried: 1 base lost, no hits left over."
    );
    let roster = &drums_state(&game)["roster"];
    assert_eq!(
        (
            roster["aus-5"]["left"].as_i64(),
            roster["aus-5"]["carried"].as_i64()
        ),
        (Some(5), Some(1))
    );
    assert_eq!(
        (
            roster["gren-3"]["left"].as_i64(),
            roster["gren-3"]["carried"].as_i64()
        ),
        (Some(4), Some(0))
    );
}

/// "If using a figures, then it is each hit equals on figure removed/lost."
/// and melee "Base 1D6 per base or figure".
#[test]
fn figures_lose_one_figure_a_hit_in_hits_shoot_and_melee() {
    let run = |line: &str| {
        let (code, out, err) = common::run(&["--json", line], "");
        assert_eq!(code, Some(0), "{line}: {err}");
        serde_json::from_str::<Value>(out.trim()).unwrap()
    };
    let melee = run("melee foot figures=3 vs foot figures=3 rolled 6 6 6 1 1 1");
    // 3 figures: 3D6 each side (the minimum 2D6 does not bite); a throws
    // three 6s, 3 hits; b none. Each hit a figure: all 3 of b's.
    // b's own record holds its losses (issue 23).
    assert_eq!(melee["sides"][1]["figures_lost"], 3);
    assert_eq!(melee["sides"][1]["figures_left"], 0);
    assert_eq!(melee["sides"][0]["figures_lost"], 0);
    assert_eq!(
        melee["notes"][0],
        "On side b (Foot): 3 hits: 3 figures lost (all 3 of its figures). On side a (Foot): no hits."
    );
    let hits = run("hits 3 figures=12");
    assert_eq!(hits["outcome_text"], "remove 3 figures, 9 left");
    assert_eq!(hits["figures_lost"], 3);
    assert_eq!(hits["figures_left"], 9);
    // One die per figure as per base: 12D6 at 2BW, hits on 4+.
    let shot = run("shoot musket 2BW line figures=12 at figures=8 rolled 4 4 4 4 4 1 1 1 1 1 1 1");
    assert_eq!(shot["pool"], 12);
    assert_eq!(shot["figures"], 12);
    assert_eq!(shot["outcome_text"], "5 hits: 5 figures lost, 3 left");
    // Figures carry no hits.
    let (code, _, err) = common::run(&["hits 4 figures=4 carried=2"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("a unit of figures carries none"), "{err}");
}

const FIGURES_ARMY: &str = r#"
[army]
name = "Skirmish, Blue"
rules = "drums"
side = "Blue"

[[general]]
id = "blue-gen"
name = "Colonel Blue"
commander = true

[[unit]]
id = "blue-foot"
name = "Blue foot"
arm = "foot"
formation = "line"
weapon = "musket"
figures = 12
general = "blue-gen"

[[unit]]
id = "blue-guns"
name = "Blue guns"
arm = "artillery"
formation = "unlimbered"
weapon = "field-artillery"
bases = 2
general = "blue-gen"
"#;

/// A Drums list may count a unit in figures (`figures = N`), and the game
/// keeps figures lost: "If using a figures, then it is each hit equals on
/// figure removed/lost."
#[test]
fn a_unit_of_figures_in_a_game() {
    let game = game_file("figures");
    let dir = game.parent().unwrap();
    let army = dir.join("blue.toml");
    std::fs::write(&army, FIGURES_ARMY).unwrap();
    let prussia = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies/leuthen-1757-prussian.toml");
    let armies = [
        "--army".to_string(),
        army.display().to_string(),
        "--army".to_string(),
        prussia.display().to_string(),
    ];
    let script = "\
shoot musket 2BW gren-3 at blue-foot rolled 4 4 4 4 4 1 1 1
show blue-foot
hits 2 blue-foot
units
end-turn
";
    let (ok, out, err) = play(&game, &armies, &[], script);
    assert!(ok, "{err}");
    // gren-3: 8D6 as above; five 4s: 5 hits, 5 figures of 12.
    assert!(out.contains("5 hits: 5 figures lost, 7 left"), "{out}");
    assert!(out.contains("7 of 12 (58%)"), "{out}");
    assert!(out.contains("none: each hit removes a figure"), "{out}");
    // Two more: 5 of 12 left, 41%: at 50% or less.
    assert!(out.contains("remove 2 figures, 5 left"), "{out}");
    assert!(out.contains("5/12 figures"), "{out}");
    assert!(out.contains("41%"), "{out}");
    // "players complete resilience tests on any units that are at 50% or
    // lower in strength than when they started the game".
    assert!(
        out.contains("1. blue-foot — Blue foot (Blue: 5 of 12 figures, 41%)"),
        "{out}"
    );
    let roster = &drums_state(&game)["roster"]["blue-foot"];
    assert_eq!(roster["counted"], "figures");
    assert_eq!(roster["left"], 5);
    assert_eq!(roster["percent"], 41);
    // Naming it brings its figures, and hits there remove figures.
    let (ok, out, err) = play(
        &game,
        &[],
        &["--json"],
        "hits 5 blue-foot\nhits 1 blue-foot\n",
    );
    assert!(!ok);
    let first = objects(&out)[0].clone();
    assert_eq!(
        first["outcome_text"],
        "all 5 figures are lost: the unit is destroyed"
    );
    let err = format!("{err}{}", errors(&out));
    assert!(
        err.contains("`blue-foot` has lost all its figures, and cannot act"),
        "{err}"
    );
}

/// One or the other: bases or figures, with a clear error otherwise.
#[test]
fn an_army_list_gives_bases_or_figures() {
    let game = game_file("list");
    let dir = game.parent().unwrap();
    let both = dir.join("both.toml");
    std::fs::write(
        &both,
        FIGURES_ARMY.replace("figures = 12", "figures = 12\nbases = 3"),
    )
    .unwrap();
    let (code, _, err) = common::run(
        &[
            "--army".to_string(),
            both.display().to_string(),
            "units".into(),
        ],
        "",
    );
    assert_ne!(code, Some(0), "{err}");
    assert!(
        err.contains("a unit is counted in bases or in figures, not both"),
        "{err}"
    );
    let neither = dir.join("neither.toml");
    std::fs::write(&neither, FIGURES_ARMY.replace("figures = 12\n", "")).unwrap();
    let (code, _, err) = common::run(
        &[
            "--army".to_string(),
            neither.display().to_string(),
            "units".into(),
        ],
        "",
    );
    assert_ne!(code, Some(0));
    assert!(
        err.contains("unit[1].bases (unit \"blue-foot\"): missing"),
        "{err}"
    );
    assert!(err.contains("or `figures = N`"), "{err}");
}

/// "Artillery Limbered | Column of March" (Movement, Charge Distances): a
/// limbered battery gets "Column of March in melee | Remove 2 dice" and
/// "Are in column of march | -2 | -2"; an unlimbered one does not.
#[test]
fn a_limbered_battery_is_in_column_of_march() {
    let game = game_file("limbered");
    let script = "\
melee bn-guns rolled 1 1
resilience bn-guns shooting rolled 4 4
melee brummer rolled 1 1 1
resilience brummer shooting rolled 4 4
move bn-guns rolled 3 3
";
    let (ok, out, err) = play(&game, &leuthen(), &["--json"], script);
    assert!(ok, "{err}");
    let lines = objects(&out);
    // bn-guns, 2 bases: 2D6, first melee (no advantage), column of march
    // −2 → 0, the minimum 2D6.
    assert!(
        modifiers(&lines[0]).contains(&("Column of March in melee — Remove 2 dice".into(), -2)),
        "{:?}",
        modifiers(&lines[0])
    );
    assert_eq!(lines[0]["pool"], 2);
    // From shooting: 4 + 4, not zealous +1, column of march −2 → 7.
    assert!(modifiers(&lines[1]).contains(&("Are in column of march".into(), -2)));
    assert_eq!(lines[1]["score"], 7);
    // brummer, unlimbered, 3 bases: 3D6 ("First round of melee fought in
    // the game | No advantage" for artillery)…
    assert!(
        modifiers(&lines[2])
            .iter()
            .all(|(l, _)| !l.contains("Column of March"))
    );
    assert_eq!(lines[2]["pool"], 3);
    // … and 4 + 4 + 1 = 9 from shooting, nothing for a column.
    assert_eq!(lines[3]["score"], 9);
    // The Limbered row of the movement table: 2D6.
    assert_eq!(lines[4]["distance_bw"], 6);
}

/// "If this happens the general is removed from play and placed on at the
/// players long edge directly to the rear of the general model. The general
/// is then free next move to move as per normal in the action phase."
/// Initiative: "1D6 per general remaining on the board", "+1D6 per
/// Exceptional ability general".
#[test]
fn an_incapacitated_general_is_back_next_turn() {
    let game = game_file("incapacitated");
    let script = "\
initiative
risk shot frederick rolled 6
initiative
risk shot frederick rolled 6
next-turn
initiative
risk shot frederick rolled 1
";
    let (ok, out, err) = play(&game, &leuthen(), &["--json", "--seed", "3"], script);
    assert!(!ok, "the second risk is refused");
    let pools: Vec<(i64, i64)> = objects(&out)
        .iter()
        .filter(|o| o["verb"] == "initiative")
        .map(|o| {
            (
                o["sides"][0]["pool"].as_i64().unwrap(),
                o["sides"][1]["pool"].as_i64().unwrap(),
            )
        })
        .collect();
    // Prussia: 5 generals, Frederick and Zieten exceptional: 5 + 2 = 7.
    // Austria: 4 ordinary generals: 4. Without Frederick (exceptional):
    // 4 + 1 = 5, two dice short, for the rest of that turn only.
    assert_eq!(pools, [(7, 4), (5, 4), (7, 4)]);
    // While he is off the table he cannot be named.
    let err = format!("{err}{}", errors(&out));
    assert!(
        err.contains("`frederick` is off the table until the next turn"),
        "{err}"
    );
    // Next turn he is back: the risk is thrown, and he is unharmed on a 1.
    let last = objects(&out).pop().unwrap();
    assert_eq!(last["outcome"], "unharmed", "{last}");
    assert_eq!(drums_state(&game)["generals"], serde_json::json!({}));
}

/// "throw 3D6 and move the general directly to his own long edge": a
/// general swept away stays in play, and on the board for the initiative.
#[test]
fn a_general_swept_away_stays_in_play() {
    let game = game_file("swept");
    let script = "\
risk broke zieten rolled 5 1 1 1
initiative
show zieten
move zieten
";
    let (ok, out, err) = play(&game, &leuthen(), &["--json", "--seed", "4"], script);
    assert!(ok, "{err}");
    let lines = objects(&out);
    assert_eq!(lines[0]["outcome"], "swept-away");
    assert_eq!(lines[0]["distance_bw"], 3);
    // Zieten still counts: 7 dice for Prussia.
    assert_eq!(lines[1]["sides"][0]["pool"], 7);
    assert_eq!(lines[2]["type"], "unit");
    let show = lines[2]["rows"].to_string();
    assert!(
        show.contains("swept away to his own long edge this turn (still in play)"),
        "{show}"
    );
    // "General | NA | 10BW".
    assert_eq!(lines[3]["distance_bw"], 10);
}

/// A broken unit, or one with all its bases lost, cannot act; `undo` brings
/// it back. Resilience Outcomes Table: "1 or less | Break".
#[test]
fn a_broken_or_destroyed_unit_cannot_act_until_undone() {
    let game = game_file("broken");
    // aus-3 (irregular, open) in melee, just lost the round: 1 + 1,
    // "Are in Open formation" −2, "Have just lost charge/melee round" −2
    // → −2: break.
    let (ok, out, err) = play(
        &game,
        &leuthen(),
        &[],
        "resilience aus-3 melee lost-round rolled 1 1\nhits 1 aus-3\n",
    );
    assert!(!ok);
    assert!(out.contains("⇒ break"), "{out}");
    assert!(
        err.contains("`aus-3` has broken, and cannot act (`undo` takes back what did it)"),
        "{err}"
    );
    let (ok, out, err) = play(
        &game,
        &[],
        &[],
        "undo\nhits 1 aus-3\nhits 24 aus-5\nmove aus-5\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("remove 0 bases, 4 left; 1 hit carried"),
        "{out}"
    );
    // 24 hits on 6 bases: 4 bases; 2 left. Then 24 more on the 2 left.
    assert!(out.contains("remove 4 bases, 2 left"), "{out}");
    let (ok, out, err2) = play(&game, &[], &[], "hits 24 aus-5\nshow aus-5\nmove aus-5\n");
    assert!(!ok);
    assert!(
        out.contains("all 2 bases are lost: the unit is destroyed"),
        "{out}"
    );
    assert!(out.contains("has lost all its bases: cannot act"), "{out}");
    assert!(
        err2.contains("`aus-5` has lost all its bases, and cannot act"),
        "{err2}"
    );
    let state = drums_state(&game);
    assert_eq!(state["units"]["aus-3"]["broken"], false, "undone");
    assert_eq!(
        state["roster"]["aus-5"]["out_of_action"],
        "has lost all its bases"
    );
}

/// `units` and `show` say what matters for Drums units, and `end-turn`
/// lists the End of Turn Resilience Tests: "players complete resilience
/// tests on any units that are at 50% or lower in strength than when they
/// started the game. This is done alternatively by units in any order the
/// player prefers. The player without initiative goes first."
#[test]
fn units_show_and_end_turn() {
    let game = game_file("roster");
    // Prussia (side a) wins the initiative on the entered dice: 7 sixes
    // against 4 ones.
    let script = "\
initiative rolled 6 6 6 6 6 6 6 1 1 1 1
hits 20 aus-1
hits 18 aus-5
hits 14 aus-6
hits 6 jaeger
hits 17 ir-19
hits 6 gren-3
units
end-turn
";
    let (ok, out, err) = play(&game, &leuthen(), &[], script);
    assert!(ok, "{err}");
    assert!(out.contains("│ id  "), "{out}");
    for column in ["left", "strength", "carried", "state"] {
        assert!(out.contains(&format!("┆ {column}")), "{column}: {out}");
    }
    // aus-1: 20 hits on 6 bases: 3 lost, 2 carried: 3/6, 50%.
    let row = out.lines().find(|l| l.contains("│ aus-1 ")).unwrap();
    assert!(row.contains("3/6 bases ┆ 50%      ┆ 2 "), "{row}");
    assert!(row.contains("≤50%: end-of-turn test"), "{row}");
    // Due: aus-1 3/6, aus-5 3/6, aus-6 2/4 (14 = 2 × 6 + 2), jaeger 1/2,
    // ir-19 4/6 (17 = 2 × 6 + 5: 66%, not due), gren-3 4/5 (not due).
    // Austria, without the initiative, first; alternating.
    let tests: Vec<&str> = out
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            l.starts_with("  ") && t.starts_with(|c: char| c.is_ascii_digit()) && t.contains(". ")
        })
        .collect();
    assert_eq!(
        tests,
        [
            "  1. aus-1 — Württemberg auxiliaries, 1st Brigade (Austria: 3 of 6 bases, 50%)",
            "  2. jaeger — Feldjäger zu Fuß (Prussia: 1 of 2 bases, 50%)",
            "  3. aus-5 — Infantry Regiment Baden-Durlach (Austria: 3 of 6 bases, 50%)",
            "  4. aus-6 — Combined grenadier companies, Leuthen churchyard (Austria: 2 of 4 bases, 50%)",
        ]
    );
    assert!(
        out.contains(
            "The player without the initiative goes first: Austria (Prussia has the initiative)."
        ),
        "{out}"
    );
    let (ok, out, err) = play(&game, &[], &[], "show ir-19\n");
    assert!(ok, "{err}");
    for row in [
        "bases         ┆ 4 of 6 (66%)",
        "hits received ┆ 17",
        "hits carried  ┆ 5 (a base is removed at 6)",
        "general       ┆ moritz — Prince Moritz of Anhalt-Dessau (infantry)",
        "doctrine      ┆ two-rank",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
}

/// A general named where a unit is meant, or a unit in `risk`, is refused
/// (and never written to the journal): "Note, generals cannot be targeted
/// directly, even if no other units are nearby."
#[test]
fn generals_and_units_are_told_apart() {
    let game = game_file("generals");
    let script = "\
hits 4 frederick
shoot musket 2BW aus-4 at frederick
melee foot daun
resilience daun aus-5
risk shot aus-5 rolled 6
resilience aus-5 daun rolled 3 3
";
    let (ok, out, err) = play(&game, &leuthen(), &["--json"], script);
    assert!(!ok);
    let err = format!("{err}{}", errors(&out));
    for said in [
        "`frederick` is a general, and hits fall on units",
        "`frederick` is a general, and \"generals cannot be targeted directly, even if no other units are nearby\"",
        "`daun` is a general, and melee is fought by units",
        "`daun` is a general, and resilience tests are taken by units: name the unit first",
        "`aus-5` is a unit, and risk to generals is taken by a general",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    // Named after the unit, a general is "For each general in line of
    // command within 3BW | +1": 3 + 3 + 1 = 7, carry on.
    let last = objects(&out).pop().unwrap();
    assert_eq!(last["score"], 7, "{last}");
    // The game still opens: nothing refused reached the journal.
    let (ok, _, err) = play(&game, &[], &[], "units\n");
    assert!(ok, "{err}");
}
