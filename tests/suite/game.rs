//! Games kept in a file: a scripted game through batch mode, undo and
//! replay, and a game killed with SIGKILL again and again that never
//! leaves a game file that fails to parse or disagrees with its journal.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use drumhead::game::{Game, Journal};
use serde_json::Value;

use common::BIN;

use common::game::{replay_agrees, shipped, temp_dir};

fn armies() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/armies");
    ["test-prussia.toml", "test-austria.toml"]
        .iter()
        .flat_map(|f| ["--army".to_string(), dir.join(f).display().to_string()])
        .collect()
}

fn run(args: &[String], script: &str) -> (bool, String, String) {
    let (code, out, err) = common::run(args, script);
    (code == Some(0), out, err)
}

#[test]
fn a_scripted_game_ends_with_the_hand_computed_roster() {
    let dir = temp_dir("scripted");
    let game = dir.join("leuthen.json");
    let mut args = armies();
    args.extend(["--game".into(), game.display().to_string(), "--json".into()]);
    let script = "\
hits 7 aus-3
resilience aus-3 shooting rolled 2 2
hits 6 aus-3
charge hus-2 rolled 3 3
move gren-1 rolled 4
next-turn
resilience aus-3 rolled 6 6
";
    let (ok, stdout, stderr) = run(&args, script);
    assert!(ok, "{stderr}");
    // Hand computation:
    // - aus-3 (4 bases, lackluster, line): 7 hits → 1 base lost, 1 carried.
    // - resilience from shooting, 2+2 = 4: lackluster −1, not zealous +1,
    //   line +1, hit −1 → 4: forced retire, 1 hit (total 8 hits).
    // - 6 more hits: 14 hits → 2 bases lost, 2 of 4 left (50%).
    // - turn 2: end-of-turn test 6+6 = 12, lackluster −1, half-lost −1 → 10:
    //   advance 1BW (all other cases).
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["score"], 10);
    assert_eq!(last["outcome"], "advance");
    let (_, entries, state) = Game::read_file(&game).unwrap();
    assert_eq!(entries, 7);
    let aus = &state["drums"]["units"]["aus-3"];
    assert_eq!(aus["hits"], 14);
    assert_eq!(aus["retired"], false, "next-turn clears forced-to-retire");
    assert_eq!(state["drums"]["units"]["hus-2"]["charges"], 1);
    assert_eq!(state["turn"], 2);
    // The journal replays to the same state.
    replay_agrees(&game);
}

#[test]
fn undo_takes_back_the_last_resolution() {
    let dir = temp_dir("undo");
    let game = dir.join("g.json");
    let mut args = armies();
    args.extend(["--game".into(), game.display().to_string()]);
    let (ok, _, stderr) = run(&args, "hits 7 aus-3\nhits 5 aus-3\nundo\n");
    assert!(ok, "{stderr}");
    let (_, _, state) = Game::read_file(&game).unwrap();
    assert_eq!(state["drums"]["units"]["aus-3"]["hits"], 7);
    // Reopening the game keeps it, and --army may not change its armies.
    let (ok, stdout, _) = run(
        &["--game".into(), game.display().to_string()],
        "show aus-3\n",
    );
    assert!(ok);
    assert!(stdout.contains("3 of 4 (75%)"), "{stdout}");
    // The same command line the next evening, armies and all, reopens it.
    let (ok, stdout, stderr) = run(&args, "show aus-3\n");
    assert!(ok, "{stderr}");
    assert!(stdout.contains("3 of 4 (75%)"), "{stdout}");
    // Issue 26: "the same two `--army` files in the other order are
    // refused": now they reopen the game, which says where it stands.
    let mut swapped = vec![
        "--army".to_string(),
        armies()[3].clone(),
        "--army".to_string(),
        armies()[1].clone(),
    ];
    swapped.extend(["--game".into(), game.display().to_string()]);
    let (ok, stdout, stderr) = run(&swapped, "show aus-3\n");
    assert!(ok, "{stderr}");
    assert!(stdout.contains("3 of 4 (75%)"), "{stdout}");
    assert!(
        stderr.contains("reopened") && stderr.contains("entries; last: "),
        "{stderr}"
    );
    // Other armies than the game's are refused, naming the difference.
    let mut other = vec![
        "--army".to_string(),
        armies()[3].clone(),
        "--army".to_string(),
        armies()[3].clone(),
    ];
    other.extend(["--game".into(), game.display().to_string()]);
    let (ok, _, stderr) = run(&other, "units\n");
    assert!(!ok);
    assert!(
        stderr.contains("is none of those") && stderr.contains("differs from"),
        "{stderr}"
    );
}

/// The state a prefix of the journal folds to, each entry resolved again.
fn fold(journal: &Path, prefix: usize) -> Value {
    let tables = drumhead::systems::embedded().unwrap();
    let book = tables.registry().default_book().unwrap();
    let game = Game::replaying(journal, &tables).unwrap();
    let mut session = drumhead::session::Session::new(tables, book, 0).with_game(game);
    for _ in 0..prefix {
        let entry = session
            .game
            .as_mut()
            .unwrap()
            .next_pending()
            .unwrap()
            .expect("the journal holds the prefix");
        session.resolve_again(&entry).unwrap();
    }
    session.game.as_ref().unwrap().state()
}

#[test]
fn sigkill_never_leaves_a_broken_game_file() {
    let dir = temp_dir("sigkill");
    let game = dir.join("g.json");
    let journal = Journal::path_for(&game);
    let script: String = (0..400)
        .map(|i| format!("hits {} aus-3\nmove gren-1\n", i % 3))
        .collect();
    let mut first = true;
    for round in 0..8 {
        let mut args = if first { armies() } else { Vec::new() };
        args.extend([
            "--game".into(),
            game.display().to_string(),
            "--seed".into(),
            round.to_string(),
        ]);
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = {
            let script = script.clone();
            std::thread::spawn(move || {
                let _ = stdin.write_all(script.as_bytes());
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(15 + 10 * round));
        child.kill().unwrap(); // SIGKILL
        let _ = child.wait();
        let _ = writer.join();
        // Killed before the game was created: there is nothing to check
        // yet (at most the journal, made first and empty, which the next
        // run with the armies takes over).
        if !game.exists() && std::fs::metadata(&journal).map_or(true, |m| m.len() == 0) {
            continue;
        }
        first = false;
        // The game file always parses, and is the fold of a prefix of the journal.
        let (_, entries, state) = Game::read_file(&game).expect("game file parses after SIGKILL");
        if std::fs::metadata(&journal).map_or(true, |m| m.len() == 0) {
            // Killed between creating the game and its journal's header:
            // an empty game, which the next open completes.
            assert_eq!(entries, 0);
            assert_eq!(state["turn"], 1);
            assert_eq!(state["drums"]["units"], serde_json::json!({}));
            continue;
        }
        let journal_entries = std::fs::read_to_string(&journal)
            .expect("journal reads after SIGKILL")
            .lines()
            .count()
            - 1;
        assert!(entries as usize <= journal_entries);
        assert_eq!(state, fold(&journal, entries as usize), "round {round}");
        eprintln!("round {round}: game file holds {entries} of {journal_entries} journal entries");
    }
}

#[test]
fn a_scripted_mayhem_skirmish() {
    let dir = temp_dir("mayhem");
    let game = dir.join("raid.json");
    let mut args = shipped(&["fiw-raid-french.toml", "fiw-raid-colonial.toml"]);
    args.extend(["--game".into(), game.display().to_string()]);
    // Hand computation (musket-mayhem.txt):
    // - marine-1 fires a musket at 10" (inside half of 24"): skill 5 ≥ 4 in
    //   the open hits; impact 6 + 1 (muskets) = 7 ≥ 6 kills settler-1.
    // - settler-2 (soldier, courage 3) checks for a casualty: 6 > 3 fails;
    //   the individual roll 5 > 3: runs off the board.
    // - marine-2 (bayonet +1) fights settler-3: 6+1 beats 1; results 6 ≥ 5
    //   (armed): settler-3 is killed.
    let script = "\
fire marine-1 10\" at settler-1 rolled 5 6
courage settler-2 cause=casualty rolled 6 5
fight marine-2 vs settler-3 rolled 6 1 6
fire marine-3 10\" at hawkeye rolled 5 6
";
    // - marine-1's musket is now unloaded ("A gunpowder weapon becomes
    //   unloaded … and can be reloaded as an action by a figure which does
    //   not move"): marine-3 makes the same shot at Hawkeye (a hero with 2
    //   saves), which would kill: a save token is spent and the death
    //   cancelled.
    let (ok, _, stderr) = run(&args, script);
    assert!(ok, "{stderr}");
    let (_, entries, state) = Game::read_file(&game).unwrap();
    assert_eq!(entries, 4);
    let figures = &state["mayhem"]["figures"];
    assert_eq!(figures["hawkeye"]["saves_spent"], 1);
    assert_eq!(figures["hawkeye"]["killed"], false);
    assert_eq!(figures["settler-1"]["killed"], true);
    assert_eq!(figures["settler-2"]["ran_off"], true);
    assert_eq!(figures["settler-3"]["killed"], true);
    assert_ne!(figures["marine-1"]["killed"], true);
    assert_eq!(figures["marine-1"]["unloaded"], true);
    assert_eq!(figures["marine-3"]["unloaded"], true);
    assert_ne!(figures["marine-2"]["unloaded"], true);
}

#[test]
fn a_scripted_saber_attack() {
    let dir = temp_dir("saber");
    let game = dir.join("qb.json");
    let mut args = shipped(&[
        "quatre-bras-1815-french.toml",
        "quatre-bras-1815-allied.toml",
    ]);
    args.extend(["--game".into(), game.display().to_string(), "--json".into()]);
    // fr-husson (CF 5) with Ney (CF 2) attack al-bijlandt (CF 4): +3 on the
    // example CRT, combat die 6: De; Bijlandt's morale die 4 > MR 3 fails:
    // it routs.
    let (ok, stdout, stderr) = run(
        &args,
        "attack fr-husson ney mr=4 vs al-bijlandt mr=3 rolled 6 4\n",
    );
    assert!(ok, "{stderr}");
    let res: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(res["differential"], 3);
    assert_eq!(res["result"], "De");
    let (_, _, state) = Game::read_file(&game).unwrap();
    assert_eq!(state["saber"]["units"]["al-bijlandt"]["routed"], true);
}
