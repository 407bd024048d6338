//! Every example the documentation gives runs, and prints what the
//! documentation shows: `help`'s examples of every verb, drumhead(1)'s
//! EXAMPLES, and the README's commands and sessions.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

use drumhead::session::Session;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_drumhead")
}

/// A folder to run examples in, with the shipped armies and tables at
/// the paths the documentation uses.
fn sandbox(name: &str) -> common::game::Scratch {
    let dir = common::game::temp_dir(name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["armies", "tables"] {
        let _ = std::os::unix::fs::symlink(root.join(sub), dir.join(sub));
    }
    std::fs::copy(
        root.join("tables/saber-example-crt.toml"),
        dir.join("my-folio-crt.toml"),
    )
    .unwrap();
    std::fs::write(dir.join("script.txt"), "hold\nresilience +determined\n").unwrap();
    // Where the README's charts are drawn.
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    dir
}

/// Run a documented command line with `sh`, `drumhead` on the PATH.
fn shell(dir: &Path, line: &str, stdin: &str) -> (bool, String, String) {
    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("COMPLETE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // A command that reads no input may have ended before it is written:
    // its pipe is then closed, which is no failure of the example.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{line}: {e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_help_example_of_every_verb_runs() {
    let tables = drumhead::systems::embedded().unwrap();
    let verbs: Vec<(Option<drumhead::command::System>, &str, &str)> =
        Session::new(tables.clone(), drumhead::drums::DRUMS, 1)
            .catalog
            .verbs()
            .flat_map(|doc| doc.examples.iter().map(move |e| (doc.system, doc.name, *e)))
            .collect();
    assert!(verbs.len() > 50, "only {} examples", verbs.len());
    let mut failures = Vec::new();
    for (system, verb, example) in &verbs {
        let rules = system.unwrap_or(drumhead::drums::DRUMS);
        let mut session = Session::new(tables.clone(), rules, 7);
        match session.run_line(example) {
            Ok(Some(_)) => {}
            Ok(None) => failures.push(format!("{verb}: `{example}` gave nothing")),
            Err(e) => failures.push(format!(
                "{} {verb}: `{example}`: {}",
                rules.id(),
                e.render(example, None)
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_manual_page_examples_run() {
    let dir = sandbox("man-examples");
    for example in drumhead::cli::manpage::EXAMPLES {
        let (ok, out, err) = shell(&dir, example, "units\n");
        assert!(ok, "{example}: {err}");
        assert!(!out.trim().is_empty(), "{example} printed nothing: {err}");
    }
}

/// The README's fenced blocks, each as its lines.
fn readme_blocks() -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some(Vec::new()),
            }
        } else if let Some(block) = &mut current {
            block.push(line.to_string());
        }
    }
    blocks
}

#[test]
fn the_readme_sessions_print_what_they_show() {
    let dir = sandbox("readme-sessions");
    let mut checked = 0;
    for block in readme_blocks() {
        let mut i = 0;
        while i < block.len() {
            let Some(command) = block[i].strip_prefix("$ ") else {
                i += 1;
                continue;
            };
            let shown: Vec<&str> = block[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("$ "))
                .map(String::as_str)
                .collect();
            i += 1 + shown.len();
            let (_, out, err) = shell(&dir, command, "");
            let printed: Vec<&str> = out.lines().collect();
            // `...` stands for the lines left out; blank lines separate
            // commands in the block.
            let shown: Vec<&str> = shown.into_iter().filter(|l| !l.is_empty()).collect();
            let cut = shown.iter().position(|l| l.trim() == "...");
            let expected = &shown[..cut.unwrap_or(shown.len())];
            assert!(!expected.is_empty(), "`{command}` shows nothing");
            let got = &printed[..expected.len().min(printed.len())];
            assert_eq!(got, expected, "`{command}` prints\n{out}{err}");
            if cut.is_none() {
                assert_eq!(printed.len(), expected.len(), "`{command}` prints\n{out}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "only {checked} README sessions");
}

#[test]
fn the_readme_commands_run() {
    let dir = sandbox("readme-commands");
    let mut ran = 0;
    for block in readme_blocks() {
        for line in &block {
            let command = line.split("   #").next().unwrap().trim();
            // The install block writes into the home folder, and `cargo`
            // lines are the README's first two commands, run by CI itself.
            if !command.starts_with("drumhead ") || command.contains('~') {
                continue;
            }
            let (ok, out, err) = shell(&dir, command, "");
            assert!(ok, "`{command}`: {err}");
            assert!(!out.trim().is_empty(), "`{command}` printed nothing: {err}");
            ran += 1;
        }
    }
    assert!(ran >= 4, "only {ran} README commands");
    // The first command of the README, without cargo: it resolves a named
    // unit of the example armies.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let army = |f: &str| root.join("armies").join(f).display().to_string();
    let (code, out, err) = common::run(
        &[
            "--army".to_string(),
            army("leuthen-1757-prussian.toml"),
            "--army".to_string(),
            army("leuthen-1757-austrian.toml"),
            "resilience gren-1 +determined".to_string(),
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("⇒"), "{out}");
}

/// Issue 26: "README: … every example true (`tests/doc_examples.rs`
/// already runs them: extend it to `--brief`)". The README shows what
/// `--brief` prints; each shown line is one answer, as printed.
#[test]
fn the_readme_brief_examples_print_what_they_show() {
    let dir = sandbox("readme-brief");
    let mut checked = 0;
    for block in readme_blocks() {
        for (i, line) in block.iter().enumerate() {
            let Some(command) = line.strip_prefix("$ ") else {
                continue;
            };
            if !command.contains("--brief") && !command.contains("--labels") {
                continue;
            }
            let shown = block.get(i + 1).map(String::as_str).unwrap_or_default();
            let (ok, out, err) = shell(&dir, command, "");
            assert!(ok, "`{command}`: {err}");
            assert_eq!(out.lines().count(), 1, "`{command}` prints\n{out}");
            assert_eq!(out.trim_end(), shown, "`{command}`");
            checked += 1;
        }
    }
    assert!(checked >= 2, "only {checked} README --brief examples");
}
