//! A game file nothing can corrupt, and input that cannot hurt: two
//! writers, kills at any moment, a full disk, cut and edited files,
//! `save` over what is not a game, replays that agree, files and input
//! without bounds, escape sequences, and the edges of numbers and pipes.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::BIN;

use common::game::{journal_of, leuthen, replay_agrees, spawn, temp_dir, with_game};

/// A new game of the two Leuthen armies, `g.json` in `dir`.
fn new_game(dir: &Path) -> PathBuf {
    common::game::new_game(dir, "g.json")
}

/// The entry numbers in a journal, in order.
fn entry_numbers(game: &Path) -> Vec<u64> {
    std::fs::read_to_string(journal_of(game))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["entry"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

/// Hold a game's lock from this process, as a writer does while it
/// resolves and records a line: the lock is on the journal itself.
fn hold_lock(game: &Path) -> std::fs::File {
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(format!("{}.journal", game.display()))
        .unwrap();
    lock.lock().unwrap();
    lock
}

#[test]
fn a_second_writer_is_refused_or_waits_and_nothing_is_lost() {
    let dir = temp_dir("writers");
    let game = new_game(&dir);
    // While another process holds the lock, a writer is refused at once,
    // naming it, and records nothing.
    let held = hold_lock(&game);
    let (code, _, err) = common::run(&with_game(&game, &[]), "hits 1 aus-5\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("being written by process {}", std::process::id())),
        "{err}"
    );
    assert!(entry_numbers(&game).is_empty());
    // Reading needs no lock.
    let (code, out, _) = common::run(&with_game(&game, &["units"]), "");
    assert_eq!(code, Some(0));
    assert!(out.contains("aus-3"));
    // With --wait a writer waits for the lock, then records.
    let waiting = std::thread::spawn({
        let args = with_game(&game, &["--wait"]);
        move || common::run(&args, "hits 1 aus-5\n")
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(entry_numbers(&game).is_empty(), "it did not wait");
    drop(held);
    let (code, _, err) = waiting.join().unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(entry_numbers(&game), [1]);
    // Two batches writing at once: each line is resolved and recorded under
    // the lock, after whatever the other recorded; none is lost or
    // numbered twice.
    let mut first = Command::new(BIN)
        .args(with_game(&game, &["--wait"]))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = first.stdin.take().unwrap();
    let second = std::thread::spawn({
        let args = with_game(&game, &["--wait"]);
        move || common::run(&args, &"hits 1 aus-5\n".repeat(20))
    });
    for _ in 0..20 {
        writeln!(stdin, "hits 1 aus-3").unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    drop(stdin);
    assert!(first.wait().unwrap().success());
    let (code, _, err) = second.join().unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(entry_numbers(&game), (1..=41).collect::<Vec<u64>>());
    let (_, _, state) = drumhead::game::Game::read_file(&game).unwrap();
    assert_eq!(state["drums"]["units"]["aus-3"]["hits"], 20);
    assert_eq!(state["drums"]["units"]["aus-5"]["hits"], 21);
    replay_agrees(&game);
}

#[test]
fn kills_at_any_moment_leave_a_game_that_opens_and_replays() {
    let dir = temp_dir("kills");
    let game = new_game(&dir);
    let script: String = (0..300)
        .map(|i| {
            format!(
                "hits {} ir-3\nmove gren-1 rolled 4\nnext-turn\nundo\n",
                i % 2
            )
        })
        .collect();
    let mut rng = 12345u64;
    for round in 0..50 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mut child = Command::new(BIN)
            .args(with_game(&game, &["--seed", &round.to_string()]))
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
        std::thread::sleep(std::time::Duration::from_millis(rng % 40));
        child.kill().unwrap();
        let _ = child.wait();
        let _ = writer.join();
        let (code, _, err) = common::run(&with_game(&game, &["log"]), "");
        assert_eq!(
            code,
            Some(0),
            "round {round}: the game does not open: {err}"
        );
        replay_agrees(&game);
    }
    // No temporary file outlives the runs that follow a kill.
    let (code, _, err) = common::run(&with_game(&game, &["next-turn"]), "");
    assert_eq!(code, Some(0), "{err}");
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_torn_line_is_cut_and_said() {
    let dir = temp_dir("torn");
    let game = new_game(&dir);
    common::run(&with_game(&game, &[]), "hits 2 aus-3\n");
    let mut j = std::fs::OpenOptions::new()
        .append(true)
        .open(journal_of(&game))
        .unwrap();
    j.write_all(b"{\"entry\":2,\"tu").unwrap();
    drop(j);
    let (code, out, err) = common::run(&with_game(&game, &[]), "hits 3 aus-3\nlog\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("was cut short") && err.contains("not recorded"),
        "{err}"
    );
    assert!(out.contains("   2  turn 1  hits 3 aus-3"), "{out}");
    assert_eq!(entry_numbers(&game), [1, 2]);
    replay_agrees(&game);
}

#[test]
fn a_cut_journal_or_an_edited_game_file_is_refused_with_a_way_out() {
    let dir = temp_dir("cut");
    let game = new_game(&dir);
    common::run(
        &with_game(&game, &[]),
        "hits 2 aus-3\nhits 2 aus-5\nhits 3 aus-3\n",
    );
    let journal = journal_of(&game);
    let whole = std::fs::read_to_string(&journal).unwrap();
    let cut: String = whole.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&journal, &cut).unwrap();
    let (code, _, err) = common::run(&with_game(&game, &["units"]), "");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("the journal ends before the 3 entries the game file reflects"),
        "{err}"
    );
    assert!(
        err.contains(&format!("drumhead repair {}", game.display())),
        "{err}"
    );
    // Nothing was rewritten from the short journal.
    let (_, entries, _) = drumhead::game::Game::read_file(&game).unwrap();
    assert_eq!(entries, 3);

    std::fs::write(&journal, &whole).unwrap();
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(&game, text.replace("\"hits\": 5", "\"hits\": 50")).unwrap();
    let (code, _, err) = common::run(&with_game(&game, &["units"]), "");
    assert_eq!(code, Some(2));
    assert!(err.contains("not what its journal says"), "{err}");
    // repair shows, then does.
    let out = Command::new(BIN)
        .args(["repair", &game.display().to_string()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("write the game file again from the journal's 3 entries"),
        "{said}"
    );
    assert!(said.contains("nothing was changed"), "{said}");
    let out = Command::new(BIN)
        .args(["repair", &game.display().to_string(), "--apply"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let (code, out, _) = common::run(&with_game(&game, &["show aus-3"]), "");
    assert_eq!(code, Some(0));
    assert!(out.contains("hits received ┆ 5"), "{out}");
    assert!(dir.join("g.json.bak").exists());
}

#[test]
fn save_writes_only_a_new_file_or_a_game() {
    let dir = temp_dir("save");
    let game = new_game(&dir);
    let save = |target: &Path, force: bool| {
        let line = format!(
            "save {}{}",
            target.display(),
            if force { " force" } else { "" }
        );
        common::run(&with_game(&game, &[&line]), "")
    };
    // An unrelated file.
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let (code, _, err) = save(&victim, false);
    assert_eq!(code, Some(1));
    assert!(err.contains("already exists; give --force"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    // A symbolic link, even to a game.
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&game, &link).unwrap();
    let (code, _, err) = save(&link, true);
    assert_eq!(code, Some(1));
    assert!(err.contains("symbolic link"), "{err}");
    // A FIFO, even with force.
    let fifo = dir.join("fifo.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, _, err) = save(&fifo, true);
    assert_eq!(code, Some(1));
    assert!(err.contains("FIFO"), "{err}");
    // A new path: a whole game, journal and all, that opens and replays.
    let copy = dir.join("copy.json");
    let (code, out, err) = save(&copy, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("saved to"));
    replay_agrees(&copy);
    // Never over a drumhead game or its journal, even with force: a
    // game is only ever replaced by its own writer.
    let before = std::fs::read(&copy).unwrap();
    for target in [copy.clone(), dir.join("copy.json.journal")] {
        let (code, _, err) = save(&target, true);
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains("never writes over a game's own files"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    // Nor over the game's own files.
    let (code, _, err) = save(&game, true);
    assert_eq!(code, Some(1), "{err}");
    // Over an unrelated regular file with force.
    assert_eq!(save(&victim, true).0, Some(0));
    replay_agrees(&victim);
    // The copy is a game of its own: its journal is refused under the original.
    let journal = journal_of(&game);
    let own = std::fs::read(&journal).unwrap();
    std::fs::copy(journal_of(&copy), &journal).unwrap();
    let (code, _, err) = common::run(&with_game(&game, &["units"]), "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("belongs to another game"), "{err}");
    std::fs::write(&journal, own).unwrap();
}

#[test]
fn a_read_only_game_can_be_read_and_is_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("readonly");
    let game = new_game(&dir);
    common::run(&with_game(&game, &[]), "hits 2 aus-3\n");
    for p in [&game, &journal_of(&game)] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    let (code, out, err) = common::run(&with_game(&game, &["show aus-3"]), "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("hits"));
    let (code, _, err) = common::run(&with_game(&game, &["hits 1 aus-3"]), "");
    assert_eq!(code, Some(1));
    assert!(err.contains("is read-only"), "{err}");
    let mode = std::fs::metadata(&game).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o444);
}

#[test]
fn the_same_armies_reopen_the_game_and_a_missing_game_says_it_is_new() {
    let dir = temp_dir("reopen");
    let game = new_game(&dir);
    let mut args = leuthen();
    args.extend(["--game".into(), game.display().to_string(), "units".into()]);
    let (code, _, err) = common::run(&args, "");
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("new game"), "{err}");
}

/// Wait for a child and give its peak resident size in bytes.
fn wait_peak(child: &std::process::Child) -> u64 {
    let mut status = 0;
    // SAFETY: wait4 fills the status and usage it is given, for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4");
    (usage.ru_maxrss as u64) * 1024
}

#[test]
// The child is waited for with wait4, for its peak memory.
#[allow(clippy::zombie_processes)]
fn endless_files_and_input_are_refused_within_bounds() {
    for args in [
        vec!["--army", "/dev/zero", "units"],
        vec!["--crt", "/dev/zero", "roll 1d6"],
        vec!["--army", "/dev/null", "units"],
    ] {
        let (code, _, err) = common::run(&args, "");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("is a device, not a file"), "{args:?}: {err}");
    }
    // A FIFO with no writer: refused at once, not waited on.
    let dir = temp_dir("fifo");
    let fifo = dir.join("list.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, _, err) = common::run(&["--army", fifo.to_str().unwrap(), "units"], "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("FIFO"), "{err}");
    // 200 MB of NULs on standard input: one line too long, skipped.
    let mut child = Command::new(BIN)
        .args(["--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let block = vec![0u8; 1 << 20];
        for _ in 0..200 {
            if stdin.write_all(&block).is_err() {
                break;
            }
        }
        let _ = stdin.write_all(b"\nroll 1d6\n");
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        use std::io::Read;
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let peak = wait_peak(&child);
    feeder.join().unwrap();
    let text = reader.join().unwrap();
    assert!(text.contains("longer than 4096 bytes"), "{text}");
    assert!(text.contains("\"verb\":\"roll\""), "{text}");
    assert!(peak < 100 << 20, "drumhead peaked at {peak} bytes");
}

#[test]
fn escape_sequences_never_reach_the_terminal() {
    let dir = temp_dir("escapes");
    let list = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("armies/leuthen-1757-prussian.toml"),
    )
    .unwrap()
    .replacen(
        "name = \"Grenadier Battalion, advance guard (1st)\"",
        "name = \"Feld\\u001b[2J\\u001b]0;pwned\\u0007\"",
        1,
    );
    let path = dir.join("evil.toml");
    std::fs::write(&path, list).unwrap();
    let out = Command::new(BIN).arg("check").arg(&path).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("control character U+001B"), "{err}");
    assert!(!err.contains('\u{1b}'));
    // Typed or piped input is echoed escaped in errors.
    let (_, _, err) = common::run::<&str>(&[], "roll \u{1b}[2J\n");
    assert!(err.contains("\\u{1b}[2J"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
}

#[test]
fn numbers_at_their_edges() {
    let (code, _, err) = common::run(&["roll 2d6+9223372036854775807"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("at most 1000000 either way"), "{err}");
    let (_, out, _) = common::run(
        &["--json", "--seed", "18446744073709551615", "roll 1d6"],
        "",
    );
    assert!(out.contains("\"seed\":18446744073709551615"), "{out}");
}

#[test]
fn bad_utf8_in_json_mode_is_a_json_error() {
    let mut child = Command::new(BIN)
        .args(["--json", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"roll 1d6\n\xff\xfe\nroll 1d6\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().unwrap().contains("not UTF-8"));
    assert_eq!(lines[1]["kind"], "not_utf8");
}

#[test]
fn a_full_stderr_or_a_closed_stdout_never_panics() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    if let Ok(full) = full {
        let out = Command::new(BIN)
            .arg("resilience foo")
            .stderr(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
    }
    // A game batch piped into something that reads one line.
    let dir = temp_dir("closed");
    let game = new_game(&dir);
    let mut child = spawn(&with_game(&game, &[]));
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let feeder = std::thread::spawn(move || {
        for _ in 0..2000 {
            if writeln!(stdin, "hits 1 ir-3").is_err() {
                break;
            }
        }
    });
    let mut first = [0u8; 10];
    use std::io::Read;
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("standard output was closed"), "{err}");
    let applied = entry_numbers(&game).len();
    assert!(
        err.contains(&format!("stopped after {applied} line")),
        "{err} ({applied} entries)"
    );
}

#[test]
fn line_buffered_answers_a_co_process_line_by_line() {
    let mut child = Command::new(BIN)
        .args(["--line-buffered", "--json", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    use std::io::BufRead;
    for _ in 0..3 {
        writeln!(stdin, "roll 2d6").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.contains("\"verb\":\"roll\""), "{line}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn ids_that_are_words_are_refused() {
    let dir = temp_dir("words");
    // A folder of house tables that changes none: the verbs' words are
    // then gathered from the verbs made of them, not taken from the list
    // kept for the embedded tables; both refuse the same ids.
    let house = dir.join("house");
    std::fs::create_dir(&house).unwrap();
    for id in [
        "at",
        "rolled",
        "roll",
        "determined",
        "musket",
        "column-of-attack",
    ] {
        let list = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("armies/leuthen-1757-prussian.toml"),
        )
        .unwrap()
        .replacen("id = \"gren-1\"", &format!("id = \"{id}\""), 1);
        let path = dir.join(format!("{id}.toml"));
        std::fs::write(&path, list).unwrap();
        for tables in [vec![], vec!["--tables", house.to_str().unwrap()]] {
            let mut args = tables.clone();
            args.extend(["--army", path.to_str().unwrap(), "units"]);
            let (code, _, err) = common::run(&args, "");
            assert_eq!(code, Some(2), "{id} {tables:?}: {err}");
            assert!(
                err.contains(&format!("\"{id}\" is a word of the command language")),
                "{err}"
            );
        }
    }
}

#[test]
fn ten_thousand_entries_with_undos_replay() {
    let dir = temp_dir("long");
    let game = new_game(&dir);
    let script = "hits 1 ir-3\nundo\nmove gren-1\n".repeat(3334);
    let (code, _, err) = common::run(&with_game(&game, &["--seed", "4"]), &script);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(entry_numbers(&game).len(), 10002);
    // The time it takes is measured by bench/run.sh, not here.
    replay_agrees(&game);
}

/// A small tmpfs of our own, unmounted when dropped; `None` where this
/// machine will not mount one (not root, no mount).
struct SmallDisk(common::game::Scratch);

impl SmallDisk {
    fn mount(name: &str, bytes: u64) -> Option<SmallDisk> {
        let dir = temp_dir(name);
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallDisk(dir))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_loses_nothing_and_records_nothing_that_failed() {
    let Some(disk) = SmallDisk::mount("full", 256 * 1024) else {
        eprintln!("skipped: a tmpfs cannot be mounted here (needs root and mount)");
        return;
    };
    let game = new_game(&disk.0);
    let (code, _, err) = common::run(&with_game(&game, &[]), "hits 1 ir-3\n");
    assert_eq!(code, Some(0), "{err}");
    // Fill the disk.
    let filler = disk.0.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let block = vec![7u8; 4096];
    while f.write_all(&block).is_ok() {}
    let _ = f.sync_all();
    drop(f);
    // A line is one append to the journal: those that fit in the space
    // left are recorded, the first that does not is not, and the run stops.
    let (code, _, err) = common::run(&with_game(&game, &[]), &"hits 1 ir-3\n".repeat(200));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("No space left on device") && err.contains("not recorded"),
        "{err}"
    );
    let recorded = entry_numbers(&game);
    assert!(recorded.len() < 200, "{}", recorded.len());
    assert_eq!(recorded, (1..=recorded.len() as u64).collect::<Vec<_>>());
    // Free it: the game opens, holds exactly what was recorded, and replays.
    std::fs::remove_file(&filler).unwrap();
    let (code, out, err) = common::run(&with_game(&game, &["show ir-3"]), "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(&format!("hits received ┆ {}", recorded.len())),
        "{out}"
    );
    let (code, _, err) = common::run(&with_game(&game, &[]), "hits 2 ir-3\n");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(entry_numbers(&game).len(), recorded.len() + 1);
    replay_agrees(&game);
}

/// A game kept by an older drumhead (game file version 2, a journal with
/// no hash chain) is not opened as it is: `repair` resolves every entry
/// again, and only when each gives the effects it recorded writes the
/// journal again as a chain, keeping the old files aside.
#[test]
fn an_older_game_is_upgraded_by_repair_only_when_every_entry_resolves_again() {
    let dir = temp_dir("upgrade");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v1-game");
    let game = dir.join("leuthen.json");
    for name in ["leuthen.json", "leuthen.json.journal"] {
        std::fs::copy(fixture.join(name), dir.join(name)).unwrap();
    }
    let (code, _, err) = common::run(&with_game(&game, &["units"]), "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("written by an older drumhead"), "{err}");
    assert!(err.contains("drumhead repair"), "{err}");

    // An old journal edited by hand: its entry 1 no longer gives what it
    // recorded, and repair will not upgrade it.
    let journal = journal_of(&game);
    let text = std::fs::read_to_string(&journal).unwrap();
    std::fs::write(&journal, text.replacen("\"hits\":2,", "\"hits\":20,", 1)).unwrap();
    let out = Command::new(BIN).arg("repair").arg(&game).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        said.contains(":2: entry 1: `hits 2 aus-1` resolved again does not give what it recorded"),
        "{said}"
    );
    std::fs::write(&journal, &text).unwrap();

    let out = Command::new(BIN).arg("repair").arg(&game).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("write the journal again as a hash chain from its 7 entries"),
        "{said}"
    );
    assert!(said.contains("nothing was changed"), "{said}");
    let out = Command::new(BIN)
        .args(["repair", &game.display().to_string(), "--apply"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The old files are kept; the game opens, and its log is the old one's.
    assert_eq!(
        std::fs::read_to_string(dir.join("leuthen.json.journal.v1")).unwrap(),
        text
    );
    assert!(dir.join("leuthen.json.old").exists());
    let (code, out, err) = common::run(&with_game(&game, &["log"]), "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("×   5  turn 2  hits 1 ir-3"), "{out}");
    assert!(
        out.contains("    7  turn 2  shoot gren-1 2BW at aus-3"),
        "{out}"
    );
    let (code, out, _) = common::run(&with_game(&game, &["show aus-1"]), "");
    assert_eq!(code, Some(0));
    assert!(out.contains("hits received ┆ 2"), "{out}");
    replay_agrees(&game);
}
