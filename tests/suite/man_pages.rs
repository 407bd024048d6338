//! The committed manual pages in `man/` are what the program generates:
//! a change to the options, the tables or the catalog must come with the
//! regenerated pages.

use std::path::Path;
use std::process::Command;

const REGENERATE: &str = "regenerate them with: cargo run -- man --force man";

#[test]
fn committed_pages_are_generated_ones() {
    let catalog = drumhead::session::catalog(&drumhead::systems::embedded().unwrap());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    for (name, generated) in drumhead::cli::manpage::pages(&catalog) {
        let path = dir.join(name);
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; {REGENERATE}", path.display()));
        assert!(
            committed == generated,
            "man/{name} differs from what the program generates; {REGENERATE}"
        );
    }
}

#[test]
fn man_task_writes_the_same_pages() {
    let out = crate::common::game::temp_dir("man");
    let status = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .arg("man")
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let catalog = drumhead::session::catalog(&drumhead::systems::embedded().unwrap());
    for (name, generated) in drumhead::cli::manpage::pages(&catalog) {
        let written = std::fs::read_to_string(out.join(name)).unwrap();
        assert_eq!(written, generated, "{name}");
    }
}

#[test]
fn pages_hold_every_verb_word_and_json_field() {
    let catalog = drumhead::session::catalog(&drumhead::systems::embedded().unwrap());
    let page = drumhead::cli::manpage::commands_7(&catalog);
    for doc in catalog.verbs() {
        assert!(page.contains(&format!(".SS {}", doc.name)), "{}", doc.name);
        for entry in &doc.vocab.entries {
            // roff escapes `-` as `\-`.
            let name = entry.name.replace('-', "\\-");
            assert!(page.contains(&name), "{} {}", doc.name, entry.name);
        }
    }
    for word in drumhead::catalog::session_verbs() {
        assert!(page.contains(&word.replace('-', "\\-")), "{word}");
    }
    let page = drumhead::cli::manpage::drumhead_1();
    for field in [
        "verb",
        "rules",
        "seed",
        "dice",
        "entered",
        "modifiers",
        "score",
        "outcome",
    ] {
        assert!(page.contains(&format!("\\fB{field}\\fR")), "{field}");
    }
}

#[test]
fn bash_completion_loads() {
    if Command::new("bash").arg("--version").output().is_err() {
        println!("note: no bash on PATH, completion load not checked");
        return;
    }
    let script = format!(
        "source <('{}' completions bash) && complete -p drumhead",
        env!("CARGO_BIN_EXE_drumhead")
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("drumhead"),
        "{out:?}"
    );
}

#[test]
fn completions_for_every_shell_and_a_clear_error_otherwise() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = Command::new(env!("CARGO_BIN_EXE_drumhead"))
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("seed"),
            "{shell}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tcsh"));
}
