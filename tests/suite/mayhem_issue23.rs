//! Musket Mayhem, issue 23: each defect as its own case, with the shipped
//! lists and entered dice, through batch mode (shared/rules/musket-mayhem.txt).

use crate::common;

use common::game::{shipped, temp_dir};
use serde_json::Value;

const RAID: &[&str] = &["fiw-raid-colonial.toml", "fiw-raid-french.toml"];
const PIMPERNEL: &[&str] = &["pimpernel-league.toml", "pimpernel-republic.toml"];

/// One line (or a script) over the lists, `--json`: exit code, each
/// resolution or error, and stderr. With `game`, in a game file.
fn run(name: &str, lists: &[&str], script: &str, game: bool) -> (bool, Vec<Value>, String) {
    let mut args = shipped(lists);
    // Lives until the line has run: the directory goes with it.
    let dir = temp_dir(&format!("issue23-{name}"));
    if game {
        args.extend(["--game".into(), dir.join("g.json").display().to_string()]);
    }
    common::run_json(&args, script)
}

fn modifiers(res: &Value) -> Vec<String> {
    res["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap().to_string())
        .collect()
}

// "+1d6 bonus for specially designated heroes, etc. (Optional)"
// The bonus is a designation in the list (`move_bonus = true`), not the
// save tokens of "Heroes: … save tokens (canceling a death or morale
// failure)".

#[test]
fn a_save_token_does_not_give_the_hero_move_bonus() {
    // Langy holds one save token but his list does not designate him:
    // "3d6": If moving as an individual" = 2 + 2 + 2 = 6", three dice.
    let (ok, res, err) = run("langy", RAID, "move langy individual rolled 2 2 2\n", false);
    assert!(ok, "{err}");
    assert_eq!(res[0]["distance_in"], 6);
    assert_eq!(res[0]["dice"].as_array().unwrap().len(), 3);
    assert!(modifiers(&res[0]).is_empty(), "{}", res[0]);
    // A fourth die entered is one too many for him.
    let (ok, res, _) = run(
        "langy-4",
        RAID,
        "move langy individual rolled 2 2 2 6\n",
        false,
    );
    assert!(!ok);
    assert!(
        res[0]["error"]
            .as_str()
            .unwrap()
            .contains("no outcome of this line throws more than 3"),
        "{}",
        res[0]
    );
}

#[test]
fn a_designated_hero_moves_with_the_bonus_as_its_own_modifier() {
    // Percy's list designates him (`move_bonus = true`): 2 + 2 + 2, and
    // "+1d6 bonus for specially designated heroes, etc. (Optional)" = 5:
    // 11", the bonus a row of the modifier stack naming the rule.
    let (ok, res, err) = run(
        "percy",
        PIMPERNEL,
        "move percy individual rolled 2 2 2 5\n",
        false,
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["distance_in"], 11);
    let m = &res[0]["modifiers"][0];
    assert_eq!(
        m["label"],
        "+1d6\" bonus for specially designated heroes, etc. (Optional)"
    );
    assert_eq!(m["value"], 5);
}

#[test]
fn the_move_bonus_key_is_checked_in_a_list() {
    let dir = temp_dir("issue23-list");
    let list = dir.join("heroes.toml");
    std::fs::write(
        &list,
        "[army]\nname = \"Heroes\"\nrules = \"mayhem\"\nside = \"H\"\n\n[[figure]]\nid = \"a\"\nname = \"A\"\n\
         rank = \"soldier\"\nmove_bonus = true\n\n[[figure]]\nid = \"b\"\nname = \"B\"\n\
         rank = \"soldier\"\nsaves = 3\n",
    )
    .unwrap();
    let args = ["--army", list.to_str().unwrap(), "--json"];
    let (code, stdout, stderr) = common::run(
        &args,
        "move a group rolled 1 1 1\nmove b group rolled 1 1\n",
    );
    assert_eq!(code, Some(0), "{stderr}");
    let res: Vec<Value> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(res[0]["distance_in"], 3);
    assert_eq!(res[1]["distance_in"], 2);
    std::fs::write(
        &list,
        "[army]\nname = \"Heroes\"\nrules = \"mayhem\"\nside = \"H\"\n\n[[figure]]\nid = \"a\"\nname = \"A\"\n\
         rank = \"soldier\"\nmove_bonus = 1\n",
    )
    .unwrap();
    let (code, _, stderr) = common::run(&args, "move a group\n");
    assert_ne!(code, Some(0));
    assert!(stderr.contains("move_bonus"), "{stderr}");
}

// "Each figure armed with a loaded missile weapon may shoot once at any
// point during the enemy's movement": a bow is never unloaded, so the game
// remembers the shot until the next turn.

#[test]
fn a_bow_shoots_once_a_turn() {
    // warrior-3's bow at 10": skill 1 misses. A second shot the same turn
    // is refused, naming the rule, `next-turn` and `undo`; next turn he
    // shoots again, and `undo` of that shot lets him shoot once more.
    let script = "fire warrior-3 10\" at settler-1 rolled 1\n\
                  fire warrior-3 10\" at settler-2 rolled 1\n\
                  next-turn\n\
                  fire warrior-3 10\" at settler-2 rolled 1\n\
                  fire warrior-3 10\" at settler-2 rolled 1\n\
                  undo\n\
                  fire warrior-3 10\" at settler-2 rolled 1\n";
    let (_, res, err) = run("bow", RAID, script, true);
    let kinds: Vec<&str> = res
        .iter()
        .map(|r| r["type"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        kinds,
        [
            "resolution",
            "error",
            "next-turn",
            "resolution",
            "error",
            "undo",
            "resolution"
        ],
        "{err}"
    );
    let refused = res[1]["error"].as_str().unwrap();
    for part in [
        "has shot with its bow this turn",
        "may shoot once at any point during the enemy's movement",
        "next-turn",
        "undo",
    ] {
        assert!(refused.contains(part), "{part}: {refused}");
    }
    assert_eq!(res[0]["outcome"], "miss");
    assert_eq!(res[6]["outcome"], "miss");
}

#[test]
fn a_musket_is_still_stopped_by_being_unloaded_not_by_the_bow_rule() {
    // warrior-2's musket: the second shot is refused as unloaded.
    let script = "fire warrior-2 10\" at settler-1 rolled 1\n\
                  fire warrior-2 10\" at settler-1 rolled 1\n";
    let (_, res, _) = run("musket", RAID, script, true);
    let refused = res[1]["error"].as_str().unwrap();
    assert!(refused.contains("unloaded"), "{refused}");
    assert!(!refused.contains("this turn: \"Each figure"), "{refused}");
}

// "2. A group is ordered to charge. (Any move to contact the enemy is a
// charge.)" … "If the group was ordered to charge then they stand still
// instead."

#[test]
fn a_group_that_failed_the_order_to_charge_charges_no_more_this_turn() {
    // The war chief's group: highest courage 4, the die 6 fails: they
    // stand still. Its charge the same turn is refused, naming the rule,
    // `next-turn` and `undo`; next turn it charges (2d6 = 3 + 4 = 7").
    let script = "courage war-chief warrior-1 warrior-2 cause=charge-ordered rolled 6\n\
                  move war-chief group charge rolled 3 4\n\
                  move warrior-2 group charge rolled 3 4\n\
                  next-turn\n\
                  move war-chief group charge rolled 3 4\n";
    let (_, res, err) = run("charge", RAID, script, true);
    let kinds: Vec<&str> = res
        .iter()
        .map(|r| r["type"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        kinds,
        ["resolution", "error", "error", "next-turn", "resolution"],
        "{err}"
    );
    assert_eq!(res[0]["outcome"], "stand-still");
    for refused in [&res[1], &res[2]] {
        let refused = refused["error"].as_str().unwrap();
        for part in [
            "failed the order to charge this turn",
            "If the group was ordered to charge then they stand still instead",
            "next-turn",
            "undo",
        ] {
            assert!(refused.contains(part), "{part}: {refused}");
        }
    }
    assert_eq!(res[4]["distance_in"], 7);
}

#[test]
fn a_group_that_passed_the_order_to_charge_charges() {
    // The die 4 is not higher than the war chief's 4: the group passes.
    let script = "courage war-chief warrior-1 cause=charge-ordered rolled 4\n\
                  move war-chief group charge rolled 3 4\n";
    let (ok, res, err) = run("charge-pass", RAID, script, true);
    assert!(ok, "{err}");
    assert_eq!(res[0]["outcome"], "pass");
    assert_eq!(res[1]["distance_in"], 7);
}

// "4. A figure has taken a missile hit without being killed (individual
// check, but taken at the group rate)." and "Roll one die vs. the highest
// courage value in the group" … "roll again against each individual's
// courage."

#[test]
fn a_figure_hit_by_fire_checks_at_its_groups_rate() {
    // settler-1 (soldier, 3) is of group blockhouse, whose highest value
    // is Captain Van Alstyne's 4: the die 4 passes at the group rate,
    // though it is higher than his own 3.
    let (ok, res, err) = run(
        "rate-pass",
        RAID,
        "courage settler-1 cause=fire rolled 4\n",
        true,
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["outcome"], "pass");
    assert_eq!(res[0]["highest"], 4);
    // 5 fails at 4; the individual die is against his own courage: 4 > 3
    // runs him off the board.
    let (ok, res, err) = run(
        "rate-fail",
        RAID,
        "courage settler-1 cause=fire rolled 5 4\n",
        true,
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["outcome"], "fail");
    assert_eq!(res[0]["figures"][0]["courage"], 3);
    assert_eq!(res[0]["figures"][0]["result"], "runs-off");
}

#[test]
fn the_group_rate_is_for_a_missile_hit_and_for_the_group_still_in_play() {
    // Another cause checks the figure alone at its own value: 4 > 3.
    let (_, res, _) = run(
        "rate-casualty",
        RAID,
        "courage settler-1 cause=casualty rolled 4 2 1 1\n",
        true,
    );
    assert_eq!(res[0]["outcome"], "fail");
    assert_eq!(res[0]["highest"], 3);
    // Van Alstyne killed: the highest of the blockhouse in play is 3.
    let (_, res, _) = run(
        "rate-killed",
        RAID,
        "fire warrior-2 10\" at van-alstyne rolled 4 6\ncourage settler-1 cause=fire rolled 4 2 1 1\n",
        true,
    );
    assert_eq!(res[0]["outcome"], "killed", "{}", res[0]);
    assert_eq!(res[1]["highest"], 3);
    assert_eq!(res[1]["outcome"], "fail");
}

#[test]
fn odds_agree_with_the_group_rate() {
    // Pass on 1-4 (4/6); on 5-6 the figure rolls against its own 3: runs
    // off on 4-6 (1/6 in all), retreats on 1-3 (1/6).
    let args = [
        "--army".to_string(),
        format!(
            "{}/armies/fiw-raid-colonial.toml",
            env!("CARGO_MANIFEST_DIR")
        ),
        "--json".to_string(),
        "odds courage settler-1 cause=fire".to_string(),
    ];
    let (code, stdout, stderr) = common::run(&args, "");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("\"passes: 4 or less\""), "{stdout}");
    assert!(stdout.contains("0.666"), "{stdout}");
}

#[test]
fn the_group_rate_typed_is_the_same_as_a_figure_bringing_it() {
    // "individual check, but taken at the group rate": `group-rate=4`
    // after the value types what settler-1 brings.
    let (ok, res, err) = run(
        "rate-typed",
        RAID,
        "courage 3 group-rate=4 cause=fire rolled 5 4\n",
        false,
    );
    assert!(ok, "{err}");
    let (_, named, _) = run(
        "rate-named",
        RAID,
        "courage settler-1 cause=fire rolled 5 4\n",
        true,
    );
    for key in ["outcome", "highest", "dice"] {
        assert_eq!(res[0][key], named[0][key], "{key}");
    }
    let (ok, res, _) = run(
        "rate-loose",
        RAID,
        "courage group-rate=4 3 cause=fire\n",
        false,
    );
    assert!(!ok);
    assert!(
        res[0]["error"]
            .as_str()
            .unwrap()
            .contains("right after the figure's value")
    );
}
