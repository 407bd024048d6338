//! Issue 23, "Everywhere": each item as its own case, through batch mode
//! (`--json`) with the shipped lists where a unit is named. The issue's
//! words are quoted above each test.

use crate::common;

use common::game::shipped;
use serde_json::Value;

/// One script, `--seed 1 --json`: exit code, each JSON line, and stderr.
fn run(args: &[&str], script: &str) -> (bool, Vec<Value>, String) {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--seed", "1"]);
    common::run_json(&all, script)
}

fn with_lists(lists: &[&str], script: &str) -> (bool, Vec<Value>, String) {
    let owned = shipped(lists);
    let args: Vec<&str> = owned.iter().map(String::as_str).collect();
    run(&args, script)
}

fn error_text(res: &Value) -> String {
    assert_eq!(res["type"], "error", "expected an error, got {res}");
    res["error"].as_str().unwrap_or_default().to_string()
}

// "Too few entered dice are silently made up. … `shoot field-artillery
// 20BW bases=4 at line rolled 1 1 1` rolls a fourth die the umpire never
// threw. … Refuse, saying how many dice are needed and for what."
#[test]
fn a_pool_short_of_a_die_is_refused_with_the_count_and_the_pool() {
    let (ok, res, err) = run(
        &[],
        "shoot field-artillery 20BW bases=4 at line rolled 1 1 1\n",
    );
    assert!(!ok, "a short entry must be refused: {res:?}");
    let message = error_text(&res[0]);
    assert!(
        message.contains("3 dice were entered, but this line throws 4 here"),
        "{message} {err}"
    );
    assert!(
        message.contains("1 more die after the entered ones for `4D6`"),
        "{message}"
    );
    assert!(message.contains("roll-rest"), "{message}");
}

// The same line with all four dice: "1D6 per base" × 4 bases, 5+ at long
// range; nothing rolled, so no seed.
#[test]
fn the_full_pool_entered_is_resolved_from_the_entered_dice_alone() {
    let (ok, res, err) = run(
        &[],
        "shoot field-artillery 20BW bases=4 at line rolled 1 1 1 5\n",
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["dice"], serde_json::json!([1, 1, 1, 5]));
    assert_eq!(
        res[0]["entered"],
        serde_json::json!([true, true, true, true])
    );
    assert_eq!(res[0]["hits"], 1);
    assert!(res[0].get("seed").is_none(), "{}", res[0]);
}

// "roll the rest only when the line asks for it with a documented word":
// `roll-rest` after the faces rolls the fourth die, marked rolled, and the
// seed that rolled it is reported.
#[test]
fn roll_rest_rolls_the_dice_after_the_entered_ones() {
    let (ok, res, err) = run(
        &[],
        "shoot field-artillery 20BW bases=4 at line rolled 1 1 1 roll-rest\n",
    );
    assert!(ok, "{err}");
    assert_eq!(
        res[0]["entered"],
        serde_json::json!([true, true, true, false])
    );
    assert_eq!(res[0]["dice"].as_array().map(Vec::len), Some(4));
    assert_eq!(res[0]["seed"], 1);
}

// Resilience throws "2D6": one face is not both dice.
#[test]
fn one_die_of_two_is_refused_naming_the_second() {
    let (ok, res, _) = run(&[], "resilience shooting rolled 4\n");
    assert!(!ok);
    let message = error_text(&res[0]);
    assert!(
        message.contains("1 die was entered, but this line throws 2 here"),
        "{message}"
    );
    assert!(message.contains("for `2D6 #2`"), "{message}");
}

// "a mid-resolution need for more dice — e.g. a second die only needed
// after the first — must be refused saying which die and why." Musket
// Mayhem: "individual check, but taken at the group rate"; on failure the
// figure "rolls again against its own" courage. Jacob Van Alstyne's group
// rate is 4: a 5 fails it, and the second die is his own.
#[test]
fn a_die_needed_only_after_the_first_fails_is_refused_naming_it() {
    let (ok, res, _) = with_lists(
        &["fiw-raid-colonial.toml"],
        "courage settler-1 cause=fire rolled 5\n",
    );
    assert!(!ok);
    let message = error_text(&res[0]);
    assert!(message.contains("1 die was entered"), "{message}");
    assert!(
        message.contains("the first for `settler-1 (courage 3) die`"),
        "{message}"
    );
    // Passed at the group rate, one die is all it throws.
    let (ok, res, err) = with_lists(
        &["fiw-raid-colonial.toml"],
        "courage settler-1 cause=fire rolled 4\n",
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["dice"], serde_json::json!([4]));
}

// "Odds rows have no shared outcome. `odds saber morale 4` gives `pass`
// 1/6 and `pass-2` 1/2 … A script must be able to sum P(pass). Each odds
// row carries the same typed outcome as a resolution of that line
// (`outcome` the kind, shared by every row of that kind …), and a separate
// unique `id`."
#[test]
fn odds_rows_share_the_outcome_and_have_unique_ids() {
    let (ok, res, err) = run(&[], "odds saber morale 4\n");
    assert!(ok, "{err}");
    let rows = res[0]["outcomes"].as_array().expect("outcomes");
    let pass: f64 = rows
        .iter()
        .filter(|r| r["outcome"] == "pass")
        .map(|r| r["p"].as_f64().unwrap_or(f64::NAN))
        .sum();
    // 1/6 (a 1 always passes) + 1/2.
    assert!((pass - 2.0 / 3.0).abs() < 1e-12, "P(pass) = {pass}");
    assert_eq!(rows.iter().filter(|r| r["outcome"] == "pass").count(), 2);
    let mut ids: Vec<&str> = rows.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids.len(), rows.len());
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), rows.len(), "ids must be unique: {rows:?}");
    // A resolution of the line gives the same outcome the rows share.
    let (ok, res, err) = run(&[], "saber morale 4 rolled 1\n");
    assert!(ok, "{err}");
    assert_eq!(res[0]["outcome"], "pass");
}

// "`odds resilience shooting` gives `forced-retire` (with a hit) and
// `forced-retire-2` (without), and nothing says which carries the hit":
// each row carries its typed effects, such as hits.
#[test]
fn odds_rows_carry_their_effects() {
    let (ok, res, err) = run(&[], "odds resilience shooting\n");
    assert!(ok, "{err}");
    let rows = res[0]["outcomes"].as_array().expect("outcomes");
    let retire: Vec<&Value> = rows
        .iter()
        .filter(|r| r["outcome"] == "forced-retire")
        .collect();
    assert_eq!(retire.len(), 2, "{rows:?}");
    let hits: Vec<f64> = retire
        .iter()
        .map(|r| r["effects"]["hits"].as_f64().unwrap_or(-1.0))
        .collect();
    assert_eq!(hits, vec![1.0, 0.0]);
    assert_eq!(retire[0]["text"], "forced retire, take 1 hit");
}

// The CSV of odds has the same two columns: `id` unique, `outcome` shared.
#[test]
fn odds_csv_has_the_id_and_the_shared_outcome() {
    let (_, stdout, stderr) = common::run(&["--format", "csv"], "odds saber morale 4\n");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("kind,id,outcome,text,value,probability,at_least"),
        "{stderr}"
    );
    let second = lines.next().unwrap_or_default();
    assert!(second.starts_with("outcome,pass,pass,"), "{second}");
    let third = lines.next().unwrap_or_default();
    assert!(third.starts_with("outcome,pass-2,pass,"), "{third}");
}

// "Melee JSON puts one side's losses on the other side's record … Give
// each side its own losses, … and give resilience with figures its
// `figures_left`." Side a, 12 figures, rolls 8 hits on 4+ (six 6s, two
// 5s); side b, 3 bases of cavalry with 1 in 2 dice more (4 dice), rolls
// four 1s. "for each 6 hits received then 1 base is removed": b loses 1
// base with 2 hits left over; a loses no figure.
#[test]
fn each_melee_side_carries_its_own_losses() {
    let (ok, res, err) = run(
        &[],
        "melee foot line figures=12 vs cavalry bases=3 rolled 6 6 6 6 6 6 5 5 1 1 1 1 1 1 1 1\n",
    );
    assert!(ok, "{err}");
    let sides = res[0]["sides"].as_array().expect("sides");
    let (a, b) = (&sides[0], &sides[1]);
    assert_eq!(a["side"], "a");
    assert_eq!(a["hits"], 8);
    assert_eq!(a["figures_lost"], 0);
    assert_eq!(a["figures_left"], 12);
    assert!(a.get("bases_lost").is_none(), "{a}");
    assert_eq!(b["side"], "b");
    assert_eq!(b["hits"], 0);
    assert_eq!(b["bases_lost"], 1);
    assert_eq!(b["hits_left"], 2);
    assert!(b.get("figures_lost").is_none(), "{b}");
}

// A side's own hits carried before the round stay on its own record.
#[test]
fn hits_carried_are_on_the_side_that_carries_them() {
    let (ok, res, err) = run(
        &[],
        "melee foot bases=4 carried=5 vs foot bases=4 carried=3 rolled 4 4 4 1 4 1 1 1\n",
    );
    assert!(ok, "{err}");
    let sides = res[0]["sides"].as_array().expect("sides");
    assert_eq!(sides[0]["carried"], 5);
    assert_eq!(sides[1]["carried"], 3);
    // a: 1 hit and 5 carried = 6: 1 base lost, none left over.
    assert_eq!(sides[0]["bases_lost"], 1);
    assert_eq!(sides[0]["hits_left"], 0);
    assert!(sides[0].get("opponent_carried").is_none());
}
