//! Drums and Muskets, issue 23: each defect as its own case, over the
//! Leuthen lists (`--army`) and, where the game's state matters, a game
//! (`--game`). Rules: shared/rules/drums-and-muskets-quick-reference.txt.

use crate::common;

use common::game::{leuthen, new_game, temp_dir, with_game};
use serde_json::Value;

/// `script` over the Leuthen lists, with `--json`: whether it succeeded,
/// each resolution, and stderr.
fn json(extra: &[&str], script: &str) -> (bool, Vec<Value>, String) {
    let mut args = leuthen();
    args.extend(extra.iter().map(|s| s.to_string()));
    common::run_json(&args, script)
}

/// One line over the Leuthen lists, as text: whether it succeeded, stdout
/// and stderr.
fn text(extra: &[&str], line: &str) -> (bool, String, String) {
    let mut args = leuthen();
    args.extend(extra.iter().map(|s| s.to_string()));
    let (code, stdout, stderr) = common::run(&args, &format!("{line}\n"));
    (code == Some(0), stdout, stderr)
}

fn labels(res: &Value) -> Vec<String> {
    res["modifiers"]
        .as_array()
        .expect("modifiers")
        .iter()
        .map(|m| m["label"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The refusal of `line`, which must fail, naming `word`, the unit's
/// fact and where it came from, and the word that overrides on purpose.
fn refused(line: &str, word: &str, fact: &str, source: &str) {
    // A state the game keeps is refused where a game keeps it (`--game
    // FILE`); without one it stands as stated (issue 35).
    let (ok, out, err) = if source == "the game" {
        let game = common::game::temp_file(&format!("issue23-refused-{word}"), "g.json");
        let args = with_game(&game, &[]);
        text(&args.iter().map(String::as_str).collect::<Vec<_>>(), line)
    } else {
        text(&[], line)
    };
    assert!(!ok, "`{line}` was resolved: {out}");
    assert!(out.is_empty(), "`{line}`: {out}");
    for said in [
        format!("`{word}` contradicts a named unit"),
        format!("brings {fact}"),
        format!("from {source}"),
        "add `override` on this side".to_string(),
    ] {
        assert!(err.contains(&said), "`{line}`: no {said:?} in {err}");
    }
}

// Resilience Situation Adjustment Table: "Are classed as Determined | +1 |
// +2 | +1", "Are classed as Lackluster | -1 | -2 | -1". aus-1 is
// Lackluster in its list: 3 + 3 − 1 = 5, "forced retire"; typed
// `determined` made it 3 + 3 + 1 = 7, "carry on", with the Lackluster row
// dropped.
#[test]
fn a_class_typed_against_the_list_is_refused_in_resilience() {
    refused(
        "resilience aus-1 determined rolled 3 3",
        "determined",
        "`lackluster`",
        "its army list",
    );
    let (ok, res, err) = json(&[], "resilience aus-1 rolled 3 3\n");
    assert!(ok, "{err}");
    assert_eq!(res[0]["score"], 5);
    assert_eq!(res[0]["outcome"], "forced-retire");
    assert_eq!(labels(&res[0]), ["Are classed as Lackluster"]);
    // On purpose: `override` lets the typed class win, and the stack says
    // what it was typed over.
    let (ok, res, err) = json(&[], "resilience aus-1 determined override rolled 3 3\n");
    assert!(ok, "{err}");
    assert_eq!(res[0]["score"], 7);
    assert_eq!(labels(&res[0]), ["Are classed as Determined"]);
    assert_eq!(
        res[0]["override"][0],
        "`determined` typed; `aus-1` brings `lackluster` (class, from its army list)"
    );
    let (ok, out, err) = text(&[], "resilience aus-1 determined override rolled 3 3");
    assert!(ok, "{err}");
    assert!(
        out.contains("override") && out.contains("`determined` typed; `aus-1` brings `lackluster`"),
        "{out}"
    );
}

// Hold test: "Is ≥ 75% in strength | +1", "Is ≤ 50% in strength | -1":
// gren-3 is at 5 of its 5 bases in the game.
#[test]
fn a_strength_typed_against_the_game_is_refused_in_hold() {
    refused("hold gren-3 weak", "weak", "`strong`", "the game");
}

// Foot Melee Factors Table: "If classed as Determined | Add 1 dice", "If
// classed as Lackluster | Remove 1 dice": garde-3 is Determined.
#[test]
fn a_class_typed_against_the_list_is_refused_in_melee() {
    refused(
        "melee garde-3 lackluster vs aus-1",
        "lackluster",
        "`determined`",
        "its army list",
    );
}

// Shooting Table 2c: "*Shooters have fired in game 3+ times at any
// point. | Remove 1 dice", "First time unit is shooting in the game | Add
// 2 dice": garde-3 has never fired.
#[test]
fn fired_three_times_is_refused_for_a_unit_that_never_fired() {
    refused(
        "shoot garde-3 2BW fired-3 at aus-1",
        "fired-3",
        "`first-shot`",
        "the game",
    );
    // In a game, after three shots, the unit brings it itself.
    let dir = temp_dir("issue23-fired");
    let game = new_game(&dir, "g.json");
    let args = with_game(&game, &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, res, err) = json(
        &args,
        "shoot garde-3 2BW at aus-1\nshoot garde-3 2BW at aus-1\nshoot garde-3 2BW at aus-1\nshoot garde-3 2BW at aus-1\n",
    );
    assert!(ok, "{err}");
    assert_eq!(res.len(), 4);
    assert!(
        labels(&res[3])
            .iter()
            .any(|l| l.starts_with("*Shooters have fired in game 3+ times")),
        "{:?}",
        labels(&res[3])
    );
    // And `first-shot` typed for it now contradicts the game.
    let (ok, _, err) = text(&args, "shoot garde-3 2BW first-shot at aus-1");
    assert!(!ok);
    assert!(
        err.contains("`first-shot` contradicts a named unit")
            && err.contains("`fired-3`")
            && err.contains("from the game"),
        "{err}"
    );
}

// Risk to Generals: "In both cases above, if this is the force commander
// affected, he cannot longer issue any supply dice for the rest of the
// current turn." Zieten is not the force commander (Frederick is).
#[test]
fn commander_typed_for_a_general_who_is_not_is_refused() {
    refused(
        "risk shot zieten commander",
        "commander",
        "no `commander`",
        "its army list",
    );
    let (ok, res, err) = json(&[], "risk shot frederick commander rolled 6\n");
    assert!(ok, "{err}");
    let notes = res[0]["notes"].to_string();
    assert!(notes.contains("If this is the force commander"), "{notes}");
}

// Start of Each Turn Initiative: "1. 1D6 per general remaining on the
// board. 2. +1D6 per Exceptional ability general. 3. -1D6 per Incompetent
// ability general." Prussia: five generals, Frederick and Zieten
// Exceptional: 7D6; Austria: four ordinary generals: 4D6.
#[test]
fn initiative_counts_the_generals_named() {
    let line = "initiative frederick moritz wedel zieten driesen vs charles daun nadasdy lucchesi rolled 1 1 1 1 1 1 1 2 2 2 2\n";
    let (ok, res, err) = json(&[], line);
    assert!(ok, "{err}");
    assert_eq!(res[0]["sides"][0]["pool"], 7, "{}", res[0]);
    assert_eq!(res[0]["sides"][1]["pool"], 4, "{}", res[0]);
    assert_eq!(res[0]["winner"], "b");
    // Two named: Frederick (Exceptional) 2D6 against Charles 1D6.
    let (ok, res, err) = json(&[], "initiative frederick vs charles rolled 3 4 5\n");
    assert!(ok, "{err}");
    assert_eq!(res[0]["sides"][0]["pool"], 2);
    assert_eq!(res[0]["sides"][1]["pool"], 1);
    // A count beside names is refused, and so is a unit.
    let (ok, _, err) = text(&[], "initiative frederick generals=2 vs charles");
    assert!(!ok);
    assert!(err.contains("by name or by count, not both"), "{err}");
    let (ok, _, err) = text(&[], "initiative gren-1 vs charles");
    assert!(!ok);
    assert!(err.contains("`gren-1` is a unit"), "{err}");
}

/// The initiative the game file keeps: the army that has it, if any.
fn kept(game: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(game).expect("the game file");
    let file: Value = serde_json::from_str(&text).expect("a game file is JSON");
    let mut found = Value::Null;
    find_initiative(&file, &mut found);
    found
}

fn find_initiative(v: &Value, found: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                if k == "initiative" {
                    *found = x.clone();
                } else {
                    find_initiative(x, found);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| find_initiative(x, found)),
        _ => {}
    }
}

// "The player without initiative goes first" (End of Turn Resilience
// Tests): a what-if dice-off does not decide who that is.
#[test]
fn a_what_if_initiative_in_a_game_is_not_recorded() {
    let dir = temp_dir("issue23-what-if");
    let game = new_game(&dir, "g.json");
    let args = with_game(&game, &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(kept(&game), Value::Null);
    let (ok, res, err) = json(&args, "initiative generals=1 vs generals=1 rolled 3 4\n");
    assert!(ok, "{err}");
    assert_eq!(res[0]["winner"], "b");
    assert_eq!(res[0]["what_if"], true);
    let notes = res[0]["notes"].to_string();
    assert!(!notes.contains("has the initiative\""), "{notes}");
    assert!(!notes.contains("game: army"), "{notes}");
    assert_eq!(kept(&game), Value::Null);
    // Part of the generals named is a what-if too.
    let (ok, res, err) = json(&args, "initiative frederick vs charles rolled 3 4 5\n");
    assert!(ok, "{err}");
    assert_eq!(res[0]["what_if"], true);
    assert_eq!(kept(&game), Value::Null);
    // The game's own: `initiative` alone (Prussia 7D6, Austria 4D6), and
    // every general of each army on the board named.
    let (ok, res, err) = json(&args, "initiative rolled 1 1 1 1 1 1 1 6 6 6 6\n");
    assert!(ok, "{err}");
    assert!(res[0]["what_if"].is_null(), "{}", res[0]);
    assert_eq!(res[0]["winner"], "b");
    assert_eq!(kept(&game), 1);
    let (ok, res, err) = json(
        &args,
        "initiative frederick moritz wedel zieten driesen vs charles daun nadasdy lucchesi rolled 6 6 6 6 6 6 6 1 1 1 1\n",
    );
    assert!(ok, "{err}");
    assert!(res[0]["what_if"].is_null(), "{}", res[0]);
    assert_eq!(res[0]["winner"], "a");
    assert_eq!(kept(&game), 0);
}

// Shooting Table 2c: "Adjust the *total pool of dice* if any of the
// conditions stated below apply." "Target moved this turn | Remove 1 in 3
// dice", "Shooters use 2 ranks firing doctrine and target is at close
// range | Add 1 in 3 dice". The house default `one_in_k = "in-turn"` takes
// each of the pool as it stands, in table order: 6 → 4 → 5; a house file
// may take each 1 in 3 of the 6 dice before them: 6 − 2 + 2 = 6.
#[test]
fn one_in_k_rows_follow_the_named_house_default() {
    let line = "shoot musket 2BW line two-rank bases=6 at line moved";
    let (ok, res, err) = json(&[], &format!("{line}\n"));
    assert!(ok, "{err}");
    assert_eq!(
        res[0]["dice"].as_array().map(Vec::len),
        Some(5),
        "{}",
        res[0]
    );
    let (ok, out, err) = text(&[], line);
    assert!(ok, "{err}");
    assert!(
        out.contains("1 in K rows (house default: tables/drums-pools.toml one_in_k = \"in-turn\")")
            && out.contains("each of the pool as it stands, in table order")
            && out.contains("−2 → 4")
            && out.contains("+1 → 5"),
        "{out}"
    );
    let dir = temp_dir("issue23-whole-pool");
    std::fs::write(dir.join("drums-pools.toml"), "one_in_k = \"whole-pool\"\n").unwrap();
    let tables = dir.display().to_string();
    let (ok, res, err) = json(&["--tables", &tables], &format!("{line}\n"));
    assert!(ok, "{err}");
    assert_eq!(
        res[0]["dice"].as_array().map(Vec::len),
        Some(6),
        "{}",
        res[0]
    );
    let (ok, out, err) = text(&["--tables", &tables], line);
    assert!(ok, "{err}");
    assert!(
        out.contains("one_in_k = \"whole-pool\"")
            && out.contains("each of the 6 dice before them")
            && out.contains("+2 → 6"),
        "{out}"
    );
    // One row alone reads the same either way, and no reading is shown.
    let (ok, out, err) = text(&[], "shoot musket 2BW line bases=6 at line moved");
    assert!(ok, "{err}");
    assert!(out.contains("−2 → 4") && !out.contains("one_in_k"), "{out}");
}
