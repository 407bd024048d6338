//! A journal from anywhere can do no harm, and a game has one truth
//! (issue 34). Each test is an attack on a game kept in a file, as a
//! hostile player or a careless umpire would make it, and what stops it:
//!
//! - a journal's lines are resolved again by every reader, so a line that
//!   is not one a game records (`save ~/.bashrc force`) must be refused
//!   before it runs: no file outside the game is ever touched;
//! - the journal's header (the armies and house tables every answer
//!   depends on) is bound to the game file and to the chain;
//! - a game made with house tables is resolved under them wherever it is
//!   read, with or without `--tables`;
//! - a checkpoint whose state and check were both made to fit is refused:
//!   the entry at its mark records the state it must hold;
//! - the lock is the journal's own, shared by every path to the game;
//! - `repair --apply` plans under the lock it writes under;
//! - a seed chosen with `--seed` is recorded and shown as chosen.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::BIN;
use common::game::{journal_of, leuthen};

/// A folder of this test's own, removed when it ends.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("drumhead-hostile-")
        .tempdir()
        .expect("a temporary directory")
}

/// drumhead run in `dir`: exit code, stdout, stderr.
fn run_in(dir: &Path, args: &[String], input: &str) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args).current_dir(dir);
    common::run_command(cmd, input)
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// A Leuthen game `g.json` in `dir` with a few entries.
fn honest_game(dir: &Path) -> PathBuf {
    let game = dir.join("g.json");
    let mut args = leuthen();
    args.extend(["--game".into(), game.display().to_string()]);
    let (code, _, err) = run_in(
        dir,
        &args,
        "hits 1 gren-1\nresilience gren-1 shooting rolled 4 3\nhits 2 aus-3\n",
    );
    assert_eq!(code, Some(0), "{err}");
    game
}

/// Append an entry to a game's journal that follows the chain exactly as
/// drumhead's own would: the next number, the hash of the line before.
fn forge(game: &Path, fields: serde_json::Value) {
    let journal = journal_of(game);
    let text = std::fs::read_to_string(&journal).unwrap();
    let last = text.lines().last().unwrap();
    let entries = text.lines().count() - 1;
    let mut entry = serde_json::json!({
        "entry": entries + 1,
        "prev": drumhead::game::hash(format!("{last}\n").as_bytes()),
        "turn": 1,
    });
    for (k, v) in fields.as_object().unwrap() {
        entry[k] = v.clone();
    }
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap();
    writeln!(file, "{entry}").unwrap();
}

/// Every file under `dir`, by path, with its bytes (a link: its target).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                all.insert(path, target.display().to_string().into_bytes());
            } else if meta.is_dir() {
                all.insert(path.clone(), b"(folder)".to_vec());
                todo.push(path);
            } else {
                all.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    all
}

/// What changed between two snapshots, by path.
fn changed(before: &BTreeMap<PathBuf, Vec<u8>>, after: &BTreeMap<PathBuf, Vec<u8>>) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in after {
        match before.get(path) {
            None => out.push(format!("{} was made", path.display())),
            Some(old) if old != bytes => out.push(format!("{} was changed", path.display())),
            Some(_) => {}
        }
    }
    for path in before.keys() {
        if !after.contains_key(path) {
            out.push(format!("{} was removed", path.display()));
        }
    }
    out
}

/// `drumhead serve --game GAME` on a free port: loads the game's page and
/// roster, then is stopped. Returns the page.
fn serve_once(dir: &Path, game: &Path) -> String {
    let mut child = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--game"])
        .arg(game)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first.trim().strip_prefix("serving http://").unwrap_or("");
    let host = url.trim_end_matches('/').to_string();
    let get = |path: &str| -> String {
        let Ok(mut s) = std::net::TcpStream::connect(&host) else {
            return String::new();
        };
        let _ = s.set_read_timeout(Some(Duration::from_secs(20)));
        let _ = write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        );
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    };
    // The follower reads the journal on its own thread: give it a moment.
    std::thread::sleep(Duration::from_millis(300));
    let page = get("/g/g/");
    let units = get("/g/g/units.json");
    let _ = child.kill();
    let _ = child.wait();
    assert!(page.starts_with("HTTP/1.1 200"), "the page: {page}");
    assert!(units.starts_with("HTTP/1.1 200"), "the roster: {units}");
    page
}

/// Every verb the grammar knows that is not a line a game records, and
/// the shapes a game's own entries take with another line in them.
fn forgeries() -> Vec<serde_json::Value> {
    let lines = [
        "save victim.txt force",
        "save ~/.bashrc force",
        "save copy.json",
        "set bases 4",
        "set rules saber",
        "load armies.toml",
        "help",
        "units",
        "show gren-1",
        "log",
        "end-turn",
        "odds resilience +determined",
        "simulate 100 roll 2d6",
        "next-turn",
        "undo",
    ];
    let mut all: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::json!({ "line": l, "system": "drums" }))
        .collect();
    // A `save` dressed as an undo, and as a turn's end.
    all.push(serde_json::json!({ "line": "save victim.txt force", "undo": 1 }));
    all.push(serde_json::json!({
        "line": "save victim.txt force",
        "effects": [{ "effect": "next-turn" }],
    }));
    all
}

#[test]
fn a_forged_line_runs_in_no_reader_and_touches_no_file() {
    // "Replaying a journal runs its side effects (critical). … `replay`,
    // `repair` without `--apply`, `units`, `log`, `roster --game … -o`
    // and `serve --game` all resolve the line again … so the save runs."
    for forged in forgeries() {
        let dir = scratch();
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        std::fs::write(home.join(".bashrc"), "precious\n").unwrap();
        std::fs::write(dir.path().join("victim.txt"), "precious\n").unwrap();
        let game = honest_game(dir.path());
        forge(&game, forged.clone());
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let before = snapshot(dir.path());
        let g = game.display().to_string();
        let j = journal_of(&game).display().to_string();
        let roster = out.join("roster.html").display().to_string();
        let readers: Vec<(&str, Vec<String>)> = vec![
            ("replay", strings(&["replay", &j])),
            ("repair", strings(&["repair", &g])),
            ("units", strings(&["--game", &g, "units"])),
            ("log", strings(&["--game", &g, "log"])),
            ("show", strings(&["--game", &g, "show", "gren-1"])),
            ("roster", strings(&["roster", "--game", &g, "-o", &roster])),
        ];
        for (name, args) in readers {
            let mut cmd = Command::new(BIN);
            cmd.args(&args).current_dir(dir.path()).env("HOME", &home);
            let (code, stdout, stderr) = common::run_command(cmd, "");
            let said = format!("{stdout}{stderr}");
            assert!(
                said.contains("is not a line a game records")
                    || said.contains("not an entry drumhead writes"),
                "{forged}: `{name}` did not refuse the forged entry (exit {code:?}): {said}"
            );
            let _ = std::fs::remove_file(&roster);
            let touched = changed(&before, &snapshot(dir.path()));
            assert!(touched.is_empty(), "{forged}: `{name}`: {touched:?}");
        }
        let _ = serve_once(dir.path(), &game);
        let touched = changed(&before, &snapshot(dir.path()));
        assert!(touched.is_empty(), "{forged}: `serve`: {touched:?}");
        assert_eq!(
            std::fs::read_to_string(home.join(".bashrc")).unwrap(),
            "precious\n"
        );
    }
}

/// The header line of a game's journal, changed by `edit`.
fn edit_header(game: &Path, edit: impl Fn(&str) -> String) {
    let journal = journal_of(game);
    let text = std::fs::read_to_string(&journal).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let edited = edit(header);
    assert_ne!(edited, header, "the edit changed nothing");
    std::fs::write(&journal, format!("{edited}\n{rest}")).unwrap();
}

#[test]
fn a_forged_header_is_refused_and_repair_puts_back_the_true_one() {
    // "Edit a unit's `class` in the header's army text (same length):
    // `units` shows it, `resilience gren-1 rolled 3 4` answers from the
    // forged list and is recorded … `repair --apply` then keeps the forged
    // header and sets every honest entry aside."
    let same_length = |h: &str| h.replacen("determined", "lackluster", 1);
    let longer = |h: &str| h.replacen("determined", "lackluster\\\", \\\"guards", 1);
    for (what, edit) in [
        ("same length", &same_length as &dyn Fn(&str) -> String),
        ("longer", &longer),
    ] {
        let dir = scratch();
        let game = honest_game(dir.path());
        let honest_journal = std::fs::read(journal_of(&game)).unwrap();
        edit_header(&game, edit);
        let g = game.display().to_string();
        let refused =
            "the journal's header (the armies and tables the game began with) is not the one";
        for line in ["units", "resilience gren-1 rolled 3 4"] {
            let (code, out, err) = run_in(dir.path(), &strings(&["--game", &g, line]), "");
            assert_ne!(code, Some(0), "{what}: `{line}`: {out}");
            assert!(err.contains(refused), "{what}: `{line}`: {err}");
        }
        // Nothing was recorded under the forged list.
        assert_eq!(
            std::fs::read_to_string(journal_of(&game))
                .unwrap()
                .lines()
                .count(),
            4,
            "{what}"
        );
        // repair says it puts back the header the game file holds …
        let (code, plan, err) = run_in(dir.path(), &strings(&["repair", &g]), "");
        assert_eq!(code, Some(0), "{what}: {err}");
        assert!(
            plan.contains("put back the journal's header") && plan.contains("nothing was changed"),
            "{what}: {plan}"
        );
        // … and does, keeping every honest entry.
        let (code, done, err) = run_in(dir.path(), &strings(&["repair", &g, "--apply"]), "");
        assert_eq!(code, Some(0), "{what}: {done}{err}");
        assert_eq!(
            std::fs::read(journal_of(&game)).unwrap(),
            honest_journal,
            "{what}: {done}"
        );
        common::game::replay_agrees(&game);
        let (code, out, err) = run_in(dir.path(), &strings(&["--game", &g, "units"]), "");
        assert_eq!(code, Some(0), "{what}: {err}");
        assert!(out.contains("gren-1"), "{out}");
    }
}

#[test]
fn a_forged_header_with_its_game_file_to_match_is_never_adopted() {
    // "`repair` never prefers a header over the game file's mark or its
    // `.bak`": the header and the game file forged together, the chain's
    // first entry still records the honest header, which the `.bak` of
    // the game file holds.
    let dir = scratch();
    let game = honest_game(dir.path());
    let honest_journal = std::fs::read(journal_of(&game)).unwrap();
    let bak = PathBuf::from(format!("{}.bak", game.display()));
    std::fs::copy(&game, &bak).unwrap();
    edit_header(&game, |h| h.replacen("determined", "lackluster", 1));
    let forged_file =
        std::fs::read_to_string(&game)
            .unwrap()
            .replacen("determined", "lackluster", 1);
    std::fs::write(&game, forged_file).unwrap();
    let g = game.display().to_string();
    let (code, plan, err) = run_in(dir.path(), &strings(&["repair", &g]), "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        plan.contains(&format!("that {} was written from", bak.display())),
        "{plan}"
    );
    let (code, _, err) = run_in(dir.path(), &strings(&["repair", &g, "--apply"]), "");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read(journal_of(&game)).unwrap(), honest_journal);
    common::game::replay_agrees(&game);
    // With no honest copy anywhere, repair refuses to adopt either.
    let dir = scratch();
    let game = honest_game(dir.path());
    edit_header(&game, |h| h.replacen("determined", "lackluster", 1));
    let forged_file =
        std::fs::read_to_string(&game)
            .unwrap()
            .replacen("determined", "lackluster", 1);
    std::fs::write(&game, forged_file).unwrap();
    let before = snapshot(dir.path());
    let g = game.display().to_string();
    let (code, _, err) = run_in(dir.path(), &strings(&["repair", &g, "--apply"]), "");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("repair will not adopt a header the record does not vouch for"),
        "{err}"
    );
    assert!(changed(&before, &snapshot(dir.path())).is_empty());
}

/// A house-rules folder in `dir`: drums hits, a base for each 4.
fn house(dir: &Path, per_base: u32) -> PathBuf {
    let house = dir.join(format!("house{per_base}"));
    std::fs::create_dir(&house).unwrap();
    std::fs::write(
        house.join("drums.toml"),
        format!("[hits]\nper_base = {per_base}\n"),
    )
    .unwrap();
    house
}

/// gren-1's bases left and hits carried, as `units --json` answers.
fn gren_1(dir: &Path, game: &Path, extra: &[&str]) -> (u64, u64) {
    let mut args = strings(&["--game", &game.display().to_string(), "--json"]);
    args.extend(strings(extra));
    args.push("units".into());
    let (code, out, err) = run_in(dir, &args, "");
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let row = v["armies"][0]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "gren-1")
        .unwrap_or_else(|| panic!("{v}"));
    // "4/6 bases", and the hits carried.
    let left: u64 = row["left"]
        .as_str()
        .and_then(|l| l.split('/').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{v}"));
    let hits: u64 = row["carried"]
        .as_str()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or_else(|| panic!("{v}"));
    (left, hits)
}

#[test]
fn a_game_keeps_the_house_tables_it_began_with() {
    // "Make a game with `--tables house` (`per_base = 4`), `hits gren-1 9`
    // → 'remove 2 bases, 4 left'. Open it without `--tables`: … blames the
    // user." drums.toml: "hits on bases" — here a base for each 4 hits, so
    // 9 hits take 2 of gren-1's 6 bases and 1 hit is carried.
    let dir = scratch();
    let four = house(dir.path(), 4);
    let five = house(dir.path(), 5);
    let game = dir.path().join("g.json");
    let g = game.display().to_string();
    let mut args = leuthen();
    args.extend(strings(&[
        "--game",
        &g,
        "--tables",
        &four.display().to_string(),
    ]));
    args.push("hits 9 gren-1".into());
    let (code, out, err) = run_in(dir.path(), &args, "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("4 left"), "{out}");
    // Without --tables, and with the same folder again: the game's own.
    assert_eq!(gren_1(dir.path(), &game, &[]), (4, 1));
    assert_eq!(
        gren_1(
            dir.path(),
            &game,
            &["--tables", &four.display().to_string()]
        ),
        (4, 1)
    );
    // A line played without --tables is resolved under the game's tables.
    let (code, out, err) = run_in(dir.path(), &strings(&["--game", &g, "hits 3 gren-1"]), "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("3 left"), "{out}");
    // Other tables are refused, naming the table that differs.
    let (code, _, err) = run_in(
        dir.path(),
        &strings(&[
            "--game",
            &g,
            "--tables",
            &five.display().to_string(),
            "units",
        ]),
        "",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "this game was played under drums.toml, and the tables given differ: drums.toml"
        ),
        "{err}"
    );
    // `repair` finds nothing to do, with no --tables and with others.
    for extra in [vec![], strings(&["--tables", &four.display().to_string()])] {
        let mut args = strings(&["repair", &g]);
        args.extend(extra);
        let (code, out, err) = run_in(dir.path(), &args, "");
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("nothing to repair"), "{out}");
    }
    // The journal copied elsewhere, alone, replays to the game's state.
    let other = scratch();
    let copy = other.path().join("copied.journal");
    std::fs::copy(journal_of(&game), &copy).unwrap();
    let (code, out, err) = run_in(
        other.path(),
        &strings(&["replay", &copy.display().to_string()]),
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    let row = out.lines().find(|l| l.contains("gren-1")).unwrap();
    assert!(row.contains("3/6") || row.contains("3 / 6"), "{out}");
    common::game::replay_agrees(&game);
}

#[test]
fn a_checkpoint_made_to_fit_is_refused() {
    // "A game file with its check recomputed is adopted (the check is
    // unkeyed): remove a unit's losses from the state, recompute `check`:
    // `units` shows 6/6 bases, the next line answers from it."
    let dir = scratch();
    let game = honest_game(dir.path());
    let g = game.display().to_string();
    let (code, _, err) = run_in(dir.path(), &strings(&["--game", &g, "hits 6 aus-3"]), "");
    assert_eq!(code, Some(0), "{err}");
    let mut f: drumhead::game::GameFile =
        serde_json::from_str(&std::fs::read_to_string(&game).unwrap()).unwrap();
    let honest = serde_json::to_string_pretty(&f).unwrap();
    // The losses taken out of the state and of every part's checkpoint,
    // and the check made again over them.
    let text = serde_json::to_string(&f).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    fn forget(v: &mut serde_json::Value, unit: &str) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove(unit);
                for (_, child) in map.iter_mut() {
                    forget(child, unit);
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|i| forget(i, unit)),
            _ => {}
        }
    }
    forget(&mut v["state"], "aus-3");
    forget(&mut v["checkpoint"], "aus-3");
    f = serde_json::from_value(v).unwrap();
    f.check = drumhead::game::file_check(&f);
    let forged = serde_json::to_string_pretty(&f).unwrap();
    assert_ne!(forged, honest);
    std::fs::write(&game, &forged).unwrap();
    for line in ["units", "hits 1 aus-3"] {
        let (code, out, err) = run_in(dir.path(), &strings(&["--game", &g, line]), "");
        assert_ne!(code, Some(0), "`{line}`: {out}");
        assert!(
            err.contains("the state in the game file is not what its journal says"),
            "`{line}`: {err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&game).unwrap(), forged);
}

#[test]
fn four_writers_through_two_paths_share_one_lock() {
    // "The lock follows paths, not files. `b/table.json` and its journal
    // as symlinks to `a/`: four `--wait` writers through both paths
    // answered 56 of 800 lines and forked the journal (two entry 6s)."
    let dir = scratch();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    let game = honest_game(&a);
    let table = a.join("table.json");
    std::fs::rename(&game, &table).unwrap();
    std::fs::rename(journal_of(&game), journal_of(&table)).unwrap();
    std::os::unix::fs::symlink(&table, b.join("table.json")).unwrap();
    std::os::unix::fs::symlink(journal_of(&table), b.join("table.json.journal")).unwrap();
    let before = std::fs::read_to_string(journal_of(&table))
        .unwrap()
        .lines()
        .count();
    const LINES: usize = 50;
    let writers: Vec<_> = (0..4)
        .map(|i| {
            let path = if i % 2 == 0 { &a } else { &b }.join("table.json");
            std::thread::spawn(move || {
                let input: String = (0..LINES).map(|_| "roll 1d6\n").collect();
                common::run(
                    &strings(&["--game", &path.display().to_string(), "--wait", "--json"]),
                    &input,
                )
            })
        })
        .collect();
    let mut answered = 0;
    for w in writers {
        let (code, out, err) = w.join().unwrap();
        assert_eq!(code, Some(0), "{err}");
        answered += out.lines().count();
    }
    assert_eq!(answered, 4 * LINES);
    let text = std::fs::read_to_string(journal_of(&table)).unwrap();
    let numbers: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["entry"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(numbers.len(), before - 1 + 4 * LINES);
    assert!(numbers.iter().enumerate().all(|(i, n)| *n == i as u64 + 1));
    // The links are still links: the checkpoint went to the game itself.
    assert!(
        std::fs::symlink_metadata(b.join("table.json"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    common::game::replay_agrees(&table);
}

#[test]
fn a_lock_file_made_a_link_turns_no_writer_against_its_target() {
    // "`ln -s victim.txt game.json.lock` and any writer truncates
    // `victim.txt` to its pid."
    let dir = scratch();
    let game = honest_game(dir.path());
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::os::unix::fs::symlink(&victim, dir.path().join("g.json.lock")).unwrap();
    let g = game.display().to_string();
    let (code, _, err) = run_in(dir.path(), &strings(&["--game", &g, "hits 1 aus-5"]), "");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

#[test]
fn a_game_in_a_folder_one_cannot_write_is_read() {
    // "A game another user may read but not write (root's game, mode 644,
    // in a folder of mode 555, read by `nobody`) cannot be read at all."
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let Some(setpriv) = setpriv.filter(|_| root) else {
        eprintln!("skipped: needs root and setpriv to read a game as another user");
        return;
    };
    let dir = tempfile::Builder::new()
        .prefix("drumhead-readonly-")
        .tempdir_in("/tmp")
        .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let game = honest_game(dir.path());
    for f in [&game, &journal_of(&game)] {
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let before = snapshot(dir.path());
    let g = game.display().to_string();
    for line in [vec!["units"], vec!["show", "gren-1"], vec!["log"]] {
        let mut cmd = Command::new(setpriv);
        cmd.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            BIN,
            "--game",
            &g,
        ])
        .args(&line)
        .current_dir("/");
        let (code, out, err) = common::run_command(cmd, "");
        assert_eq!(code, Some(0), "{line:?}: {err}");
        assert!(!out.is_empty(), "{line:?}");
    }
    let mut cmd = Command::new(setpriv);
    cmd.args([
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        BIN,
        "roster",
        "--game",
        &g,
    ])
    .current_dir("/");
    let (code, out, err) = common::run_command(cmd, "");
    assert_eq!(code, Some(0), "roster: {err}");
    assert!(out.contains("gren-1"), "{out}");
    // A writer is told it cannot write, and nothing is made.
    let mut cmd = Command::new(setpriv);
    cmd.args([
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        BIN,
        "--game",
        &g,
        "hits 1 aus-5",
    ])
    .current_dir("/");
    let (code, _, err) = common::run_command(cmd, "");
    assert_ne!(code, Some(0));
    assert!(
        err.contains("read-only") || err.contains("Permission denied"),
        "{err}"
    );
    assert!(changed(&before, &snapshot(dir.path())).is_empty());
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn repair_with_wait_beside_a_writer_loses_no_entry() {
    // "`repair --apply --wait` loses an answered entry: it plans before it
    // takes the lock; a writer that got the lock first cut the torn line
    // and appended; repair then cut at its old offset (4 of 4 tries)."
    for round in 0..4 {
        let dir = scratch();
        let game = honest_game(dir.path());
        let g = game.display().to_string();
        let journal = journal_of(&game);
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&journal)
            .unwrap();
        file.write_all(b"{\"entry\":4,\"prev\":\"ab").unwrap();
        // Hold the lock while both start, so that either may go first.
        let held = std::fs::OpenOptions::new()
            .read(true)
            .open(&journal)
            .unwrap();
        held.lock().unwrap();
        let repair = common::game::spawn(&strings(&["repair", &g, "--apply", "--wait"]));
        let writer = common::game::spawn(&strings(&[
            "--game",
            &g,
            "--wait",
            "--json",
            "hits 1 aus-5",
        ]));
        std::thread::sleep(Duration::from_millis(200 + 50 * round));
        held.unlock().unwrap();
        let started = Instant::now();
        let repaired = repair.wait_with_output().unwrap();
        let written = writer.wait_with_output().unwrap();
        assert!(started.elapsed() < Duration::from_secs(60));
        assert!(
            repaired.status.success(),
            "{}",
            String::from_utf8_lossy(&repaired.stderr)
        );
        assert!(
            written.status.success(),
            "{}",
            String::from_utf8_lossy(&written.stderr)
        );
        let text = std::fs::read_to_string(&journal).unwrap();
        assert!(
            text.lines()
                .any(|l| l.contains("\"line\":\"hits 1 aus-5\"")),
            "round {round}: the writer's answered entry is gone:\n{text}"
        );
        assert!(text.ends_with('\n'));
        common::game::replay_agrees(&game);
    }
}

#[test]
fn a_chosen_seed_is_recorded_and_shown_as_chosen() {
    // "A chosen seed looks like a roll. Try seeds 1..8 on a copy with
    // `--seed`, find the one that breaks the enemy, play it on the real
    // game: the entry reads `"seed":3` like any other."
    let dir = scratch();
    let game = honest_game(dir.path());
    let g = game.display().to_string();
    let (code, out, err) = run_in(
        dir.path(),
        &strings(&["--game", &g, "--seed", "3", "shoot gren-1 2BW at aus-3"]),
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("rolled from seed 3, chosen with --seed and not drawn"),
        "{out}"
    );
    let (code, _, err) = run_in(
        dir.path(),
        &strings(&["--game", &g, "shoot gren-1 2BW at aus-3"]),
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(journal_of(&game)).unwrap();
    let last_two: Vec<serde_json::Value> = text
        .lines()
        .rev()
        .take(2)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(last_two[1]["chosen"], true, "{}", last_two[1]);
    assert_eq!(last_two[1]["seed"], 3);
    assert!(last_two[0].get("chosen").is_none(), "{}", last_two[0]);
    assert!(last_two[0]["seed"].is_u64(), "a drawn seed is recorded too");
    let (code, log, err) = run_in(dir.path(), &strings(&["--game", &g, "log"]), "");
    assert_eq!(code, Some(0), "{err}");
    let chosen: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("chosen with --seed"))
        .collect();
    assert_eq!(chosen.len(), 1, "{log}");
    assert!(chosen[0].contains("seed 3"), "{log}");
    // `show` names it on the unit it fell on.
    let (code, shown, err) = run_in(dir.path(), &strings(&["--game", &g, "show", "aus-3"]), "");
    assert_eq!(code, Some(0), "{err}");
    let row = shown
        .lines()
        .find(|l| l.contains("rolled from a seed chosen with --seed"))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(row.contains("entry 4 (seed 3)"), "{shown}");
    // The live view shows it on the answer.
    let page = serve_once(dir.path(), &game);
    assert!(page.contains("chosen with --seed and not drawn"), "{page}");
    // And it is still the record: replay resolves it again.
    common::game::replay_agrees(&game);
}

#[test]
fn a_setting_of_one_session_is_refused_in_a_kept_game() {
    // "The header holds everything an entry's answer depends on: … the
    // rule-system options". A `set bases N` made in one session only
    // would make its game's lines answer otherwise when they are read
    // again: in a game kept in a file it is refused, saying what to do.
    let dir = scratch();
    let game = honest_game(dir.path());
    let g = game.display().to_string();
    let (code, out, err) = run_in(dir.path(), &strings(&["--game", &g]), "set bases 4\n");
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains("is a setting of a session") && err.contains("`bases=N`"),
        "{err}"
    );
    // Without a game kept in a file it is a setting as before.
    let (code, out, err) = run_in(dir.path(), &strings(&["set bases 4"]), "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("bases assumed when a command gives none: 4"),
        "{out}"
    );
}
