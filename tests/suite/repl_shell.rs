//! Completion in the shell as you type (issue 16): `COMPLETE=bash drumhead`
//! prints a bash function that asks drumhead for the words of a command
//! line — verbs, the words of the verb in hand, unit ids of the armies the
//! line names, rule systems — through clap's dynamic engine.

#[allow(dead_code)] // Not every helper is used here.
use crate::common;

use std::path::Path;
use std::process::Command;

use common::{BIN, offered};

fn army(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("armies")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn verbs_and_the_words_of_the_verb_in_hand() {
    assert_eq!(offered(&["drumhead", "resi"], 1), vec!["resilience"]);
    // Drums and Muskets, Resilience: "test caused by shooting".
    assert_eq!(
        offered(&["drumhead", "resilience", "sh"], 2),
        vec!["shooting"]
    );
    assert_eq!(
        offered(&["drumhead", "resilience", "+deter"], 2),
        vec!["+determined"]
    );
    // Words of the verb in hand only: `hits` takes bases=, resilience's
    // causes are not offered to it.
    assert_eq!(offered(&["drumhead", "hits", "4", "ba"], 3), vec!["bases="]);
    assert!(offered(&["drumhead", "hits", "4", "sh"], 3).is_empty());
    // Options before the words do not disturb them.
    assert_eq!(
        offered(&["drumhead", "--seed", "7", "resilience", "sh"], 4),
        vec!["shooting"]
    );
}

#[test]
fn rule_systems_prefixes_and_the_words_under_them() {
    assert_eq!(
        offered(&["drumhead", "set", "rules", "m"], 3),
        vec!["mayhem"]
    );
    // `--rules mayhem`: Musket Mayhem's verbs (fire), not Drums and Muskets'.
    let fi = offered(&["drumhead", "--rules", "mayhem", "fi"], 3);
    assert!(fi.contains(&"fire".to_string()), "{fi:?}");
    // A line's prefix names the book its verb is read in.
    let fi = offered(&["drumhead", "mayhem", "fi"], 2);
    assert!(fi.contains(&"fire".to_string()), "{fi:?}");
    assert!(offered(&["drumhead", "fi"], 1).is_empty());
}

#[test]
fn unit_ids_of_the_armies_on_the_line() {
    let prussian = army("leuthen-1757-prussian.toml");
    assert_eq!(
        offered(&["drumhead", "--army", &prussian, "resilience", "gren-"], 4),
        vec!["gren-1", "gren-2", "gren-3"]
    );
    // No army, no units.
    assert!(offered(&["drumhead", "resilience", "gren-"], 2).is_empty());
}

#[test]
fn completing_never_creates_a_game() {
    let dir = common::game::temp_dir("repl-shell");
    let game = dir.join("new.json");
    let game_arg = game.display().to_string();
    let prussian = army("leuthen-1757-prussian.toml");
    let words = [
        "drumhead", "--game", &game_arg, "--army", &prussian, "show", "gren-",
    ];
    assert_eq!(offered(&words, 6), vec!["gren-1", "gren-2", "gren-3"]);
    assert!(!game.exists(), "completion created {}", game.display());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_shells_see_what_each_word_means() {
    let out = Command::new(BIN)
        .env("COMPLETE", "fish")
        .args(["--", "drumhead", "set", "rules", "m"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "mayhem\tMusket Mayhem\n"
    );
}

#[test]
fn bash_sources_the_function_and_completes_with_it() {
    let has_bash = Command::new("bash")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_bash {
        println!("note: bash is not on PATH; skipped");
        return;
    }
    // What bash does on Tab after `drumhead resilience sh`.
    let script = format!(
        r#"source <(COMPLETE=bash '{BIN}') || exit 3
COMP_WORDS=(drumhead resilience sh); COMP_CWORD=2; COMP_TYPE=9
COMP_LINE='drumhead resilience sh'; COMP_POINT=${{#COMP_LINE}}
_clap_complete_drumhead drumhead sh resilience
printf '%s\n' "${{COMPREPLY[@]}}""#
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "shooting\n");
}
