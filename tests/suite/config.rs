//! The configuration file (issue 16: "A configuration file
//! (`~/.config/drumhead/config.toml`, XDG) for default system, armies,
//! tables, CRT and colour, with `--no-config`, documented in the man
//! page"). Each test runs drumhead with its own XDG_CONFIG_HOME, so the
//! user's own file never counts.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::game::temp_dir;

/// drumhead with XDG_CONFIG_HOME at `home` (DRUMHEAD_CONFIG unset, so the
/// usual place is read), returning (code, stdout, stderr).
fn run_in(home: &Path, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(common::BIN);
    cmd.args(args)
        .env_remove("DRUMHEAD_CONFIG")
        .env("XDG_CONFIG_HOME", home)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("drumhead runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh XDG_CONFIG_HOME holding `drumhead/config.toml` with `text`.
fn home_with(name: &str, text: &str) -> (common::game::Scratch, PathBuf) {
    let home = temp_dir(name);
    let file = home.join("drumhead").join("config.toml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
    (home, file)
}

fn armies_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("armies")
}

#[test]
fn rules_key_picks_the_system_and_the_command_line_wins() {
    let (home, _) = home_with("rules", "rules = \"mayhem\"\n");
    // `fire` is a Musket Mayhem verb: it resolves only under mayhem.
    let (code, out, err) = run_in(&home, &["--seed", "1", "fire musket 10in"], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Musket Mayhem"), "{out}");
    // --rules drums wins over the file: `fire` is then another system's verb.
    let (code, _, err) = run_in(&home, &["--rules", "drums", "fire musket 10in"], &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("Musket Mayhem verb"), "{err}");
    // --no-config, and DRUMHEAD_CONFIG set and empty, read no file.
    let (code, _, err) = run_in(&home, &["--no-config", "fire musket 10in"], &[]);
    assert_eq!(code, Some(1), "{err}");
    let (code, _, _) = run_in(&home, &["fire musket 10in"], &[("DRUMHEAD_CONFIG", "")]);
    assert_eq!(code, Some(1));
    // The armies' own system wins over the file's default, as it does over
    // `drums`: the Leuthen lists play Drums and Muskets.
    let mut args =
        common::game::shipped(&["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"]);
    args.extend(["--seed".into(), "1".into(), "resilience gren-1".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run_in(&home, &args, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Drums and Muskets"), "{out}");
}

#[test]
fn armies_are_relative_to_the_file_and_an_army_option_replaces_them() {
    let (home, file) = home_with("armies", "");
    let dir = file.parent().unwrap();
    for f in ["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"] {
        std::fs::copy(armies_dir().join(f), dir.join(f)).unwrap();
    }
    // The man page's example, word for word, with its house-rule folder.
    std::fs::create_dir_all(dir.join("house-rules")).unwrap();
    std::fs::write(dir.join("house-rules/drums.toml"), "[hits]\nper_base = 4\n").unwrap();
    std::fs::write(&file, drumhead::cli::config::EXAMPLE).unwrap();
    let (code, out, err) = run_in(&home, &["--seed", "3", "units"], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("gren-1") && out.contains("aus-3"), "{out}");
    // colour = "never" from the file, though nothing here is a terminal anyway:
    // `--color always` on the command line wins and colours the pipe.
    let (_, plain, _) = run_in(&home, &["--seed", "3", "resilience gren-1"], &[]);
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let (_, coloured, _) = run_in(
        &home,
        &["--seed", "3", "--color", "always", "resilience gren-1"],
        &[],
    );
    assert!(coloured.contains('\u{1b}'), "{coloured}");
    // `drumhead config` shows the paths resolved against the file's folder.
    let (code, out, _) = run_in(&home, &["config"], &[]);
    assert_eq!(code, Some(0));
    let shown = dir.join("leuthen-1757-prussian.toml").display().to_string();
    assert!(out.contains(&shown), "{out}");
    assert!(out.contains("rules = \"drums\""), "{out}");
    // An --army on the command line replaces the file's armies.
    let mayhem = armies_dir().join("fiw-raid-french.toml");
    let (code, out, err) = run_in(&home, &["--army", mayhem.to_str().unwrap(), "units"], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("gren-1"), "{out}");
}

#[test]
fn the_tables_key_is_the_house_rule_folder() {
    // The book: "using bases, 6 hits remove 1 base", so 8 hits remove one
    // base with 2 carried; under the house rule `[hits] per_base = 4` they
    // remove two.
    let (home, file) = home_with("tables", "tables = \"house\"\n");
    let dir = file.parent().unwrap();
    std::fs::create_dir_all(dir.join("house")).unwrap();
    std::fs::write(dir.join("house/drums.toml"), "[hits]\nper_base = 4\n").unwrap();
    let (_, house, err) = run_in(&home, &["hits 8"], &[]);
    let (_, book, _) = run_in(&home, &["--no-config", "hits 8"], &[]);
    assert!(house.contains("remove 2 bases"), "{house}{err}");
    assert!(book.contains("remove 1 base; 2 hits carried"), "{book}");
}

#[test]
fn a_bad_file_is_an_error_naming_the_file_line_and_key() {
    let (home, file) = home_with("bad", "rules = \"drums\"\narmys = []\n");
    let (code, out, err) = run_in(&home, &["resilience +determined"], &[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains(&file.display().to_string()), "{err}");
    assert!(err.contains("line 2") && err.contains("armys"), "{err}");
    assert!(err.contains("`armies`"), "the keys it takes: {err}");

    let (home, _) = home_with("bad-rules", "rules = \"mayhm\"\n");
    let (code, _, err) = run_in(&home, &["resilience +determined"], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("did you mean `mayhem`"), "{err}");

    // An army the file names that cannot be read: the error, then where
    // the name came from.
    let (home, file) = home_with("bad-army", "armies = [\"nope.toml\"]\n");
    let (code, _, err) = run_in(&home, &["units"], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("nope.toml"), "{err}");
    assert!(
        err.contains(&format!(
            "`armies` came from the configuration file {}",
            file.display()
        )),
        "{err}"
    );

    // A file named explicitly must exist; the usual one need not.
    let missing = home.join("nowhere.toml");
    let (code, _, err) = run_in(
        &home,
        &["--config", missing.to_str().unwrap(), "resilience"],
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("nowhere.toml") && err.contains("--config"),
        "{err}"
    );
    let empty = temp_dir("no-file");
    let (code, out, err) = run_in(&empty, &["--seed", "1", "resilience"], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("resilience"), "{out}");
    let (_, out, _) = run_in(&empty, &["config"], &[]);
    assert!(
        out.contains("none there") && out.contains("armies = "),
        "{out}"
    );
}

#[test]
fn options_a_task_would_ignore_are_refused() {
    let empty = temp_dir("task-flags");
    let list = armies_dir().join("leuthen-1757-austrian.toml");
    // Global options before a task's name: the task runs.
    let (code, out, err) = run_in(
        &empty,
        &["--no-config", "check", list.to_str().unwrap()],
        &[],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("12 units"), "{out}");
    let (code, _, err) = run_in(
        &empty,
        &["--seed", "3", "check", list.to_str().unwrap()],
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--seed") && err.contains("drumhead check"),
        "{err}"
    );
}
