//! The session words the REPL gained (issue 16): `set rules SYSTEM`
//! switches the rule system a line is read under, and `load FILE` brings
//! an army list into the game (REPL only). Checked through the library,
//! and `set rules` through the binary's batch mode too.

use crate::common;

use std::path::{Path, PathBuf};

use drumhead::session::{Output, Session};

fn session() -> Session {
    Session::new(
        drumhead::systems::embedded().expect("the embedded tables load"),
        drumhead::drums::DRUMS,
        1,
    )
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("armies")
        .join(name)
}

fn text(out: Option<Output>) -> String {
    match out {
        Some(Output::Report(r)) => {
            drumhead::format::text::report_text(&r, &drumhead::format::Style::plain(false))
        }
        other => panic!("expected text, got {other:?}"),
    }
}

fn outcome(session: &mut Session, line: &str) -> String {
    match session.run_line(line) {
        Ok(Some(Output::Resolution(res))) => res.outcome_text.to_string(),
        other => panic!("`{line}`: expected a resolution, got {other:?}"),
    }
}

#[test]
fn set_rules_switches_the_rule_system_of_the_next_lines() {
    let mut s = session();
    // Drums and Muskets has no individual move: its moves are by arm.
    assert!(s.run_line("move individual rolled 3 4 5").is_err());
    let said = text(s.run_line("set rules mayhem").unwrap());
    assert!(said.contains("Musket Mayhem"), "{said}");
    assert_eq!(s.rules.id(), "mayhem");
    // Musket Mayhem: "3d6\" individual": 3 + 4 + 5 = 12 inches.
    assert_eq!(
        outcome(&mut s, "move individual rolled 3 4 5"),
        "move up to 12\""
    );
    // And back: Drums and Muskets' resilience, 2D6 4+3 with +1 for not
    // being Zealous = 8 under "all other cases": carry on.
    text(s.run_line("set rules drums").unwrap());
    assert_eq!(s.rules.id(), "drums");
    assert_eq!(outcome(&mut s, "resilience rolled 4 3"), "carry on");
}

#[test]
fn set_rules_says_which_systems_there_are() {
    let mut s = session();
    let e = s.run_line("set rules mayhen").unwrap_err().to_string();
    for id in ["drums", "mayhem", "saber", "saber-quickplay"] {
        assert!(e.contains(&format!("`{id}`")), "{e}");
    }
    assert!(e.contains("did you mean `mayhem`?"), "{e}");
    assert_eq!(s.rules.id(), "drums", "a bad id changes nothing");

    let e = s.run_line("set rules").unwrap_err().to_string();
    assert!(
        e.starts_with("`set rules` needs a rule system: `drums` (Drums and Muskets)"),
        "{e}"
    );
    let e = s.run_line("set rules mayhem now").unwrap_err().to_string();
    assert_eq!(e, "`now` is one word too many: `set rules SYSTEM`");
    assert_eq!(s.rules.id(), "drums");
    // A misspelt setting is pointed at `rules`, and `set` alone names it.
    let e = s.run_line("set rulez mayhem").unwrap_err().to_string();
    assert!(e.contains("did you mean `rules`?"), "{e}");
    let e = s.run_line("set").unwrap_err().to_string();
    assert!(e.contains("`set rules SYSTEM`"), "{e}");
}

#[test]
fn set_rules_holds_for_the_rest_of_a_batch() {
    // Batch mode resolves chunks on two threads; a `set` line reaches both.
    let mut input = String::from("set rules mayhem\n");
    for _ in 0..5000 {
        input.push_str("move individual rolled 3 4 5\n");
    }
    let (code, out, err) = common::run(&["--seed", "1"], &input);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.matches("⇒ move up to 12\"").count(), 5000);
}

#[test]
fn load_starts_a_game_then_adds_to_it() {
    let mut s = session();
    assert!(s.game.is_none());
    let said = s.load_army(&shipped("leuthen-1757-prussian.toml")).unwrap();
    assert!(
        said.contains("Prussian army, Leuthen 1757 (drums, Prussia): 5 generals, 15 units"),
        "{said}"
    );
    let game = s.game.as_ref().expect("a game in memory");
    assert!(game.file.is_none());
    assert_eq!(game.armies.len(), 1);
    // The units can be named: 6 hits remove a base (6 hits a base).
    outcome(&mut s, "hits 6 gren-1");
    let shown = text(s.run_line("show gren-1").unwrap());
    assert!(shown.contains("5 of 6"), "{shown}");

    // A second list joins the game; what was resolved still stands.
    let said = s.load_army(&shipped("leuthen-1757-austrian.toml")).unwrap();
    assert!(said.starts_with("loaded "), "{said}");
    let game = s.game.as_ref().unwrap();
    assert_eq!(game.armies.len(), 2);
    assert_eq!(game.tally().entries, 1);
    let shown = text(s.run_line("show gren-1").unwrap());
    assert!(shown.contains("5 of 6"), "{shown}");
    assert_eq!(s.rules.id(), "drums");
}

#[test]
fn load_of_another_systems_list_plays_under_it_when_it_is_alone() {
    let mut s = session();
    let said = s.load_army(&shipped("fiw-raid-french.toml")).unwrap();
    assert!(said.ends_with("; rules: Musket Mayhem"), "{said}");
    assert_eq!(s.rules.id(), "mayhem");
    // Mixed books: the active rules stay as they are.
    let said = s.load_army(&shipped("leuthen-1757-prussian.toml")).unwrap();
    assert!(!said.contains("rules:"), "{said}");
    assert_eq!(s.rules.id(), "mayhem");
}

#[test]
fn load_refuses_what_it_cannot_load_and_keeps_the_game() {
    let mut s = session();
    let missing = s
        .load_army(Path::new("no-such-army.toml"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("no-such-army.toml"), "{missing}");
    assert!(s.game.is_none());

    s.load_army(&shipped("leuthen-1757-prussian.toml")).unwrap();
    // The same list twice.
    let twice = s
        .load_army(&shipped("leuthen-1757-prussian.toml"))
        .unwrap_err()
        .to_string();
    assert!(
        twice.contains("leuthen-1757-prussian.toml is already loaded"),
        "{twice}"
    );
    assert_eq!(s.game.as_ref().unwrap().armies.len(), 1);
    // Another list whose ids are taken: each id must name one unit.
    let dir = common::game::temp_dir("repl-load");
    let copy = dir.join("copy.toml");
    let text = std::fs::read_to_string(shipped("leuthen-1757-prussian.toml")).unwrap();
    std::fs::write(&copy, text.replace("Prussian army", "Another army")).unwrap();
    let taken = s.load_army(&copy).unwrap_err().to_string();
    assert!(
        taken.contains("ids must be unique across the armies"),
        "{taken}"
    );
    assert_eq!(s.game.as_ref().unwrap().armies.len(), 1);

    // Not an army list.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[army]\nname = 3\n").unwrap();
    assert!(s.load_army(&bad).is_err());
    assert_eq!(s.game.as_ref().unwrap().armies.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn load_refuses_a_game_kept_in_a_file() {
    let dir = common::game::temp_dir("repl-load-file");
    let path = dir.join("game.json");
    let tables = drumhead::systems::embedded().unwrap();
    let game = drumhead::game::Game::open(
        &path,
        Vec::new(),
        &tables,
        drumhead::game::Options::default(),
    )
    .unwrap();
    let mut s = session().with_game(game);
    let e = s
        .load_army(&shipped("leuthen-1757-prussian.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("keeps the armies its journal began with"), "{e}");
    assert!(e.contains("--army"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn load_outside_the_repl_says_to_use_army() {
    let mut s = session();
    let e = s.run_line("load armies/x.toml").unwrap_err().to_string();
    assert!(e.contains("--army FILE"), "{e}");
    let (code, _, err) = common::run(&["load armies/x.toml"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("in the REPL only"), "{err}");
}
