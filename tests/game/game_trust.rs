//! Whom a game kept in a file trusts, and when. Several processes share
//! one game (a batch, a one-shot line, an umpire's REPL): every answer
//! must come from the newest state, whoever recorded it. And the journal
//! is the record: a line added, edited or carried over by hand, a journal
//! of another game or of a copy, a file of an older format or a
//! checkpoint edited by hand is refused, saying what and where, and
//! `repair` never adopts what does not resolve again to what it recorded.
//!
//! The unit facts the answers are checked against come from the Leuthen
//! lists: aus-1 has 6 bases, aus-10 has 5, and every drums unit loses a
//! base for each 6 hits ("hits on bases (6 hits a base)").

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::BIN;
use common::game::{journal_of, new_game, replay_agrees, temp_dir, with_game as args};

/// Long enough for a loaded machine; a passing run waits far less.
const DEADLINE: Duration = Duration::from_secs(60);

/// drumhead on a game: exit code, stdout, stderr.
fn on(game: &Path, extra: &[&str], input: &str) -> (Option<i32>, String, String) {
    common::run(&args(game, extra), input)
}

/// Run drumhead with `args` (no game options added).
fn drumhead(args: &[&str]) -> (Option<i32>, String, String) {
    common::run(args, "")
}

/// The state the game file holds.
fn state(game: &Path) -> serde_json::Value {
    let (_, _, state) = drumhead::game::Game::read_file(game).expect("the game file reads");
    state
}

/// Hits a unit has taken, as the game file holds them.
fn hits_on(game: &Path, unit: &str) -> u64 {
    state(game)["drums"]["units"][unit]["hits"]
        .as_u64()
        .unwrap_or(0)
}

/// Bases left and hits carried, as the game file's roster holds them.
fn roster_of(game: &Path, unit: &str) -> (u64, u64) {
    let s = state(game);
    let r = &s["drums"]["roster"][unit];
    (
        r["left"].as_u64().expect("bases left"),
        r["carried"].as_u64().expect("hits carried"),
    )
}

/// The journal's entries (the header left out), parsed.
fn entries(game: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(journal_of(game))
        .expect("the journal reads")
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).expect("an entry is JSON"))
        .collect()
}

/// The line each entry of the journal recorded, in order.
fn entry_lines(game: &Path) -> Vec<String> {
    entries(game)
        .iter()
        .map(|e| e["line"].as_str().unwrap_or("undo").to_string())
        .collect()
}

/// What `hits H UNIT` answers for a drums unit of `start` bases that has
/// taken `before` hits so far: the unit's cell in the answer's `from` row,
/// and the ⇒ line. A base goes for each 6 hits; the rest is carried.
fn expected_hits(start: u64, before: u64, hits: u64) -> (String, String) {
    let left = start - before / 6;
    let carried = before % 6;
    let cell = if carried > 0 {
        format!("bases={left}, carried={carried}")
    } else {
        format!("bases={left}")
    };
    let after = before + hits;
    let removed = after / 6 - before / 6;
    let mut outcome = format!(
        "⇒ remove {removed} base{}, {} left",
        if removed == 1 { "" } else { "s" },
        start - after / 6
    );
    let carried = after % 6;
    if carried > 0 {
        outcome.push_str(&format!(
            "; {carried} hit{} carried",
            if carried == 1 { "" } else { "s" }
        ));
    }
    (cell, outcome)
}

/// The unit's cell of the `from` row and the ⇒ line of one `hits` answer.
fn hits_answered(answer: &str, unit: &str) -> (String, String) {
    let from = format!("from {unit} (");
    let cell = answer
        .lines()
        .find(|l| l.contains(&from))
        .and_then(|l| l.split('┆').nth(1))
        .map(|c| c.trim().trim_end_matches('│').trim().to_string())
        .unwrap_or_default();
    let outcome = answer
        .lines()
        .find(|l| l.starts_with('⇒'))
        .map(|l| l.trim_end().to_string())
        .unwrap_or_default();
    (cell, outcome)
}

/// Assert a `hits` answer is the one the state after `before` hits gives.
fn assert_hits(answer: &str, unit: &str, start: u64, before: u64, hits: u64) {
    assert_eq!(
        hits_answered(answer, unit),
        expected_hits(start, before, hits),
        "`hits {hits} {unit}` should be answered on {before} hits taken before it:\n{answer}"
    );
}

/// The answers in a batch's output, one per `hits` line.
fn hits_answers(out: &str) -> Vec<String> {
    let mut answers: Vec<String> = Vec::new();
    for line in out.lines() {
        if line.starts_with("hits on bases") {
            answers.push(String::new());
        }
        if let Some(a) = answers.last_mut() {
            a.push_str(line);
            a.push('\n');
        }
    }
    answers
}

/// A field of `show UNIT`'s table.
fn show_field(out: &str, field: &str) -> String {
    out.lines()
        .find(|l| l.starts_with(&format!("│ {field} ")))
        .and_then(|l| l.split('┆').nth(1))
        .map(|c| c.trim().trim_end_matches('│').trim().to_string())
        .unwrap_or_default()
}

/// A unit's row in `units`: its cells, id first.
fn units_row(out: &str, unit: &str) -> Vec<String> {
    out.lines()
        .find(|l| l.starts_with(&format!("│ {unit} ")))
        .map(|l| {
            l.trim_matches('│')
                .split('┆')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The "entries included" note a writer gives when it read others' entries.
fn included(n: u64) -> String {
    if n == 1 {
        "1 entry of the journal after this game's state (another writer's, or a stopped run's) \
         resolved again to what it recorded, and included"
            .to_string()
    } else {
        format!(
            "{n} entries of the journal after this game's state (another writer's, or a stopped run's) \
             resolved again to what they recorded, and included"
        )
    }
}

/// Every file in a directory, with its bytes.
fn files_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".lock"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// drumhead in batch mode with standard input kept open: lines are given
/// one at a time, and each answer read before the next line is given.
struct Batch {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    err: std::thread::JoinHandle<String>,
}

impl Batch {
    fn start(args: &[String]) -> Batch {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("drumhead starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let err = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Batch {
            child,
            stdin,
            lines,
            err,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the batch reads its input");
        stdin.flush().expect("the batch reads its input");
    }

    /// Standard output up to and including the first line `last` accepts.
    fn until(&self, what: &str, last: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        let mut text = String::new();
        loop {
            let left = DEADLINE.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    text.push_str(&line);
                    text.push('\n');
                    if last(&line) {
                        return text;
                    }
                }
                Err(e) => panic!("waited for {what} ({e}); the batch printed:\n{text}"),
            }
        }
    }

    /// The answer to a `hits` line on `unit`.
    fn hits(&mut self, line: &str, unit: &str) -> String {
        self.send(line);
        let done = format!("  game: {unit} takes");
        self.until(line, |l| l.starts_with(&done))
    }

    /// Input closed: the exit code, the rest of stdout, and stderr.
    fn finish(mut self) -> (Option<i32>, String, String) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("the batch ends");
        let rest: String = self.lines.iter().map(|l| format!("{l}\n")).collect();
        let err = self.err.join().unwrap_or_default();
        (status.code(), rest, err)
    }
}

/// One round of the stale-answer case: batch A opens the game and waits
/// with its input open; B records `hits 5 aus-1` before A's second line
/// (`b_first`: before A's first). Every answer must be the newest state's.
fn stale_round(name: &str, wait: bool, b_first: bool) {
    let dir = temp_dir(name);
    let game = new_game(&dir, "g.json");
    let mut a = Batch::start(&args(&game, &[]));
    // A has opened the game and read its state before B writes.
    a.send("units");
    let units = a.until("A's `units`", |l| l.starts_with("generals: charles"));
    assert_eq!(units_row(&units, "aus-1")[2], "6/6 bases", "{units}");
    let b_args: Vec<&str> = if wait {
        vec!["--wait", "hits 5 aus-1"]
    } else {
        vec!["hits 5 aus-1"]
    };
    let b = |before: u64| {
        let (code, out, err) = on(&game, &b_args, "");
        assert_eq!(code, Some(0), "B: {err}");
        assert_hits(&out, "aus-1", 6, before, 5);
        err
    };
    if b_first {
        let err = b(0);
        assert!(!err.contains("of the journal after"), "B: {err}");
        let answer = a.hits("hits 1 aus-1", "aus-1");
        assert_hits(&answer, "aus-1", 6, 5, 1);
    } else {
        let answer = a.hits("hits 1 aus-1", "aus-1");
        assert_hits(&answer, "aus-1", 6, 0, 1);
        let err = b(1);
        assert!(err.contains(&included(1)), "B: {err}");
    }
    // A's next line is answered on 6 hits, B's among them: not on the 1
    // (or 0) A saw last.
    let answer = a.hits("hits 3 aus-1", "aus-1");
    assert_hits(&answer, "aus-1", 6, 6, 3);
    let (code, rest, err) = a.finish();
    assert_eq!(code, Some(0), "A: {err}");
    assert!(rest.trim().is_empty(), "A printed more: {rest}");
    assert!(err.contains(&included(1)), "A: {err}");
    let order = if b_first {
        ["hits 5 aus-1", "hits 1 aus-1", "hits 3 aus-1"]
    } else {
        ["hits 1 aus-1", "hits 5 aus-1", "hits 3 aus-1"]
    };
    assert_eq!(entry_lines(&game), order);
    // 1 + 5 + 3 = 9 hits: one base gone, 3 hits carried.
    assert_eq!(hits_on(&game, "aus-1"), 9);
    assert_eq!(roster_of(&game, "aus-1"), (5, 3));
    replay_agrees(&game);
}

/// The issue's scenario, without a shell: `( echo 'hits aus-10 1'; sleep
/// 1; echo 'hits aus-10 4' ) | drumhead --game g &` and, at once, `echo
/// 'hits aus-10 2' | drumhead --game g --wait` (with `a_wait`, A is given
/// `--wait` too).
///
/// A without `--wait` may find the lock held by B for its first line:
/// that line is then refused, said, and not recorded (one writer at a
/// time), and the game holds B's and A's other hits. Every answer printed
/// must agree with the journal's order either way.
fn the_issue_scenario(a_wait: bool) {
    let dir = temp_dir(if a_wait {
        "trust-issue-wait"
    } else {
        "trust-issue"
    });
    let game = new_game(&dir, "g");
    let a_lines = ["hits aus-10 1", "hits aus-10 4"];
    let mut a = common::game::spawn(&args(&game, if a_wait { &["--wait"] } else { &[] }));
    let mut stdin = a.stdin.take().expect("stdin is piped");
    let feeder = std::thread::spawn(move || {
        writeln!(stdin, "{}", a_lines[0]).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_secs(1));
        writeln!(stdin, "{}", a_lines[1]).unwrap();
    });
    let b = std::thread::spawn({
        let args = args(&game, &["--wait"]);
        move || common::run(&args, "hits aus-10 2\n")
    });
    let a_out = a.wait_with_output().expect("A runs");
    feeder.join().unwrap();
    let (b_code, b_out, b_err) = b.join().unwrap();
    let (a_stdout, a_err) = (
        String::from_utf8_lossy(&a_out.stdout).into_owned(),
        String::from_utf8_lossy(&a_out.stderr).into_owned(),
    );
    assert_eq!(b_code, Some(0), "B: {b_err}");
    let lines = entry_lines(&game);
    // Each of A's lines is recorded, or refused for the lock and not.
    let mut a_recorded = Vec::new();
    for (i, line) in a_lines.iter().enumerate() {
        let refused = format!(
            "error: line {}: game: {} is being written by ",
            i + 1,
            game.display()
        );
        match (lines.iter().any(|l| l == line), a_err.contains(&refused)) {
            (true, false) => a_recorded.push(*line),
            (false, true) => assert!(!a_wait, "A waits, and was refused: {a_err}"),
            (recorded, said) => {
                panic!("`{line}`: recorded {recorded}, refused {said}: {lines:?}\n{a_err}")
            }
        }
    }
    let all = a_recorded.len() == a_lines.len();
    assert_eq!(a_out.status.success(), all, "A: {a_err}");
    let a_answers = hits_answers(&a_stdout);
    assert_eq!(a_answers.len(), a_recorded.len(), "{a_stdout}");
    let b_answers = hits_answers(&b_out);
    assert_eq!(b_answers.len(), 1, "{b_out}");
    let mut expected: Vec<&str> = a_recorded.clone();
    expected.push("hits aus-10 2");
    expected.sort();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(sorted, expected, "{lines:?}");
    // The journal's order is the order the lines were resolved in: each
    // answer must be the state after the entries before its own.
    let hits_of = |l: &str| -> u64 { l.rsplit(' ').next().unwrap().parse().unwrap() };
    let answered = a_answers
        .iter()
        .zip(&a_recorded)
        .chain(std::iter::once((&b_answers[0], &"hits aus-10 2")));
    for (answer, line) in answered {
        let at = lines.iter().position(|l| l == line).unwrap();
        let before: u64 = lines[..at].iter().map(|l| hits_of(l)).sum();
        assert_hits(answer, "aus-10", 5, before, hits_of(line));
    }
    println!(
        "the issue's scenario (A {}): the journal's order was {lines:?}",
        if a_wait {
            "with --wait"
        } else {
            "without --wait"
        }
    );
    let total: u64 = lines.iter().map(|l| hits_of(l)).sum();
    assert_eq!(hits_on(&game, "aus-10"), total);
    assert_eq!(roster_of(&game, "aus-10"), (5 - total / 6, total % 6));
    if a_wait {
        assert_eq!(total, 7);
    }
    replay_agrees(&game);
}

/// A batch (A) holds its input open and answers `hits 1 aus-1`; another
/// process (B) records `hits 5 aus-1`; then A is given `hits 3 aus-1`. A
/// must answer on 6 hits, B's included, and the game must hold 9. The
/// same with B given `--wait`, and with B before A's first line (A having
/// opened the game already). Then the issue's own scenario: two pipes
/// into the same game at once; every answer agrees with the journal's
/// order, and the game holds every hit recorded (all 7 when both wait).
#[test]
fn every_answer_is_the_newest_states_whoever_wrote_before_it() {
    stale_round("trust-stale", false, false);
    stale_round("trust-stale-wait", true, false);
    stale_round("trust-stale-b-first", false, true);
    stale_round("trust-stale-b-first-wait", true, true);
    the_issue_scenario(false);
    the_issue_scenario(true);
}

fn has_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// One tmux server of our own (its own socket) and one pane running the
/// REPL on a game, HOME and XDG_DATA_HOME in the test's directory (as
/// tests/suite/repl_tmux.rs does).
struct Pane {
    socket: PathBuf,
}

impl Pane {
    fn tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-u")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn start(home: &Path, game: &Path) -> Pane {
        let pane = Pane {
            socket: home.join("tmux.sock"),
        };
        let shell = format!(
            "env -u COMPLETE HOME='{}' XDG_DATA_HOME='{}' TERM=xterm-256color '{BIN}' --color never --game '{}'; \
             echo \"drumhead exited $?\"; sleep 60",
            home.display(),
            home.join("data").display(),
            game.display()
        );
        let out = pane.tmux(&[
            "new-session",
            "-d",
            "-c",
            &home.display().to_string(),
            "-s",
            "repl",
            "-x",
            "160",
            "-y",
            "50",
            &shell,
        ]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        pane.wait_for("the prompt", |s| last_line(s) == "drums t1>");
        pane
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "repl"];
        args.extend(keys);
        let out = self.tmux(&args);
        assert!(out.status.success(), "send-keys {keys:?}: {out:?}");
    }

    fn type_line(&self, text: &str) {
        let out = self.tmux(&["send-keys", "-t", "repl", "-l", text]);
        assert!(out.status.success(), "send-keys -l {text:?}: {out:?}");
        self.keys(&["Enter"]);
    }

    fn screen(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-J", "-S", "-2000", "-t", "repl"]);
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            if start.elapsed() > DEADLINE {
                panic!("waited {DEADLINE:?} for {what}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A clear screen and no scrollback, only the prompt on it.
    fn fresh(&self, prompt: &str) {
        self.keys(&["C-l"]);
        self.wait_for(&format!("a clear screen with `{prompt}`"), |s| {
            if s == prompt {
                return true;
            }
            let _ = self.tmux(&["clear-history", "-t", "repl"]);
            false
        });
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

fn last_line(screen: &str) -> &str {
    screen.lines().last().unwrap_or_default().trim_end()
}

/// An umpire's REPL is open on the game (`units` typed), and a batch in
/// another process records `hits 5 aus-1`. The umpire then types `hits 3
/// aus-1`: the REPL answers on the 5 hits the batch recorded (5 + 3 = 8:
/// one base gone, 2 carried), says it included another writer's entry,
/// and the game holds 8 hits that `replay` agrees with.
#[test]
fn a_repl_answers_on_what_a_batch_beside_it_recorded() {
    if !has_tmux() {
        println!("SKIPPED: tmux is not on PATH; the REPL-beside-a-batch test did not run");
        return;
    }
    let dir = temp_dir("trust-repl");
    let game = new_game(&dir, "g.json");
    let pane = Pane::start(&dir, &game);
    pane.fresh("drums t1>");
    pane.type_line("units");
    let screen = pane.wait_for("the roster", |s| {
        s.contains("generals: charles") && last_line(s) == "drums t1>"
    });
    assert_eq!(units_row(&screen, "aus-1")[2], "6/6 bases", "{screen}");

    let (code, out, err) = on(&game, &[], "hits 5 aus-1\n");
    assert_eq!(code, Some(0), "{err}");
    assert_hits(&out, "aus-1", 6, 0, 5);

    pane.fresh("drums t1>");
    pane.type_line("hits 3 aus-1");
    let screen = pane.wait_for("the answer", |s| {
        s.contains('⇒') && last_line(s) == "drums t1>"
    });
    assert_hits(&screen, "aus-1", 6, 5, 3);
    assert_eq!(
        expected_hits(6, 5, 3),
        (
            "bases=6, carried=5".to_string(),
            "⇒ remove 1 base, 5 left; 2 hits carried".to_string()
        )
    );
    assert!(
        screen
            .lines()
            .any(|l| l.trim_end() == format!("note: {}", included(1))),
        "{screen}"
    );
    pane.fresh("drums t1>");
    pane.type_line("quit");
    pane.wait_for("drumhead to leave", |s| last_line(s) == "drumhead exited 0");
    drop(pane);
    assert_eq!(entry_lines(&game), ["hits 5 aus-1", "hits 3 aus-1"]);
    assert_eq!(hits_on(&game, "aus-1"), 8);
    assert_eq!(roster_of(&game, "aus-1"), (5, 2));
    replay_agrees(&game);
}

/// `show gren-1` and its hits received.
fn gren_1_hits(game: &Path) -> String {
    let (code, out, err) = on(game, &["show gren-1"], "");
    assert_eq!(code, Some(0), "{err}");
    show_field(&out, "hits received")
}

/// `drumhead repair GAME [--apply]`.
fn repair(game: &Path, apply: bool) -> (Option<i32>, String, String) {
    let game = game.display().to_string();
    if apply {
        drumhead(&["repair", &game, "--apply"])
    } else {
        drumhead(&["repair", &game])
    }
}

/// A game with `hits 1 gren-1` recorded, and a line forged after it by
/// `forge` (given the journal's last line). Checks what every case of a
/// forged last entry shares: readers and writers refuse with `why` at the
/// journal's line 3, nothing of the forgery is applied, `repair` keeps
/// the line aside and never adopts it.
fn forged_last_entry(name: &str, forge: impl Fn(&str) -> String, why: &str) {
    let dir = temp_dir(name);
    let game = new_game(&dir, "g.json");
    let (code, _, err) = on(&game, &["hits 1 gren-1"], "");
    assert_eq!(code, Some(0), "{err}");
    let journal = journal_of(&game);
    let honest = std::fs::read_to_string(&journal).unwrap();
    let forged = forge(honest.lines().last().unwrap());
    std::fs::write(&journal, format!("{honest}{forged}\n")).unwrap();
    let game_file = std::fs::read(&game).unwrap();

    // A reader refuses, naming the journal and the line.
    let (code, out, err) = on(&game, &["units"], "");
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains(&format!("{}:3: ", journal.display())) && err.contains(why),
        "{err}"
    );
    assert!(!out.contains("gren-1"), "a roster was shown: {out}");
    // So does a writer, and it records nothing.
    let (code, _, err) = on(&game, &["hits 1 aus-1"], "");
    assert_ne!(code, Some(0));
    assert!(err.contains(why), "{err}");
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap(),
        format!("{honest}{forged}\n")
    );
    // The game file was not changed: the forged hits are nowhere.
    assert_eq!(std::fs::read(&game).unwrap(), game_file);
    assert_eq!(hits_on(&game, "gren-1"), 1);

    // The plan: keep entry 1, keep line 3 aside; nothing done yet.
    let damaged = PathBuf::from(format!("{}.damaged", journal.display()));
    let (code, plan, err) = repair(&game, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        plan.contains("keep the journal's first 1 entries: line 3 is not adopted (")
            && plan.contains(why)
            && plan.contains(&format!(
                "it and everything after it are kept in {}",
                damaged.display()
            )),
        "{plan}"
    );
    assert!(plan.contains("nothing was changed"), "{plan}");
    assert!(!damaged.exists());
    assert_eq!(std::fs::read(&game).unwrap(), game_file);

    // Done: the forged line is in the .damaged file, and only there.
    let (code, done, err) = repair(&game, true);
    assert_eq!(code, Some(0), "{err}");
    assert!(done.contains("line 3 is not adopted"), "{done}");
    assert_eq!(
        std::fs::read_to_string(&damaged).unwrap(),
        format!("{forged}\n")
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), honest);
    assert_eq!(gren_1_hits(&game), "1");
    assert_eq!(hits_on(&game, "gren-1"), 1);
    replay_agrees(&game);
    // The game goes on from the honest entry.
    let (code, out, err) = on(&game, &["hits 2 gren-1"], "");
    assert_eq!(code, Some(0), "{err}");
    assert_hits(&out, "gren-1", 6, 1, 2);
}

/// Someone appends an entry by hand (`hits 35 gren-1`, 35 hits) whose
/// `prev` is not the hash of the line before it. `units` refuses, saying
/// the chain is broken at the journal's line 3; the 35 hits are never
/// applied; `repair` plans to keep the line aside, and `--apply` writes it
/// to `.damaged` and leaves gren-1 with its 1 honest hit.
#[test]
fn an_entry_appended_by_hand_breaks_the_chain_and_is_kept_aside() {
    forged_last_entry(
        "trust-forged",
        |_| {
            format!(
                r#"{{"entry":2,"prev":"{}","turn":1,"line":"hits 35 gren-1","system":"drums","outcome":"bases-lost","effects":[{{"effect":"hits","hits":35,"unit":"gren-1"}}]}}"#,
                "0".repeat(64)
            )
        },
        "the chain is broken here",
    );
}

/// Someone appends an entry that follows the chain (its `prev` is the
/// SHA-256 of the line before it) but whose effects are not what its line
/// gives: `hits 1 gren-1` recording 35 hits. It is refused ("does not
/// resolve to itself"), never applied, and `repair` keeps it aside:
/// afterwards `show gren-1` has 1 hit received, not 36.
#[test]
fn an_entry_that_follows_the_chain_but_not_its_line_is_refused() {
    forged_last_entry(
        "trust-forged-chained",
        |last| {
            let prev = drumhead::game::hash(format!("{last}\n").as_bytes());
            format!(
                r#"{{"entry":2,"prev":"{prev}","turn":1,"line":"hits 1 gren-1","system":"drums","outcome":"bases-lost","effects":[{{"effect":"hits","hits":35,"unit":"gren-1"}}]}}"#
            )
        },
        "entry 2 does not resolve to itself",
    );
}

/// Two games on one table; another game's journal is copied under
/// g.json. Reading and writing g.json are refused ("belongs to another
/// game") and `repair` refuses too, plan and `--apply`: it never puts one
/// game's record under another, and changes no file.
#[test]
fn another_games_journal_is_refused_and_repair_will_not_adopt_it() {
    let dir = temp_dir("trust-foreign");
    let game = new_game(&dir, "g.json");
    let other = new_game(&dir, "h.json");
    assert_eq!(on(&game, &["hits 1 gren-1"], "").0, Some(0));
    assert_eq!(on(&other, &["hits 2 gren-2"], "").0, Some(0));
    let own = std::fs::read(journal_of(&game)).unwrap();
    std::fs::copy(journal_of(&other), journal_of(&game)).unwrap();
    let before = files_in(&dir);

    let refused = format!(
        "{}: this journal belongs to another game than {}",
        journal_of(&game).display(),
        game.display()
    );
    let (code, out, err) = on(&game, &["units"], "");
    assert_ne!(code, Some(0), "{out}");
    assert!(err.contains(&refused), "{err}");
    let (code, _, err) = on(&game, &["hits 1 aus-1"], "");
    assert_ne!(code, Some(0));
    assert!(err.contains(&refused), "{err}");
    for apply in [false, true] {
        let (code, out, err) = repair(&game, apply);
        assert_ne!(code, Some(0), "{out}");
        assert!(
            err.contains("belongs to another game")
                && err.contains("repair never puts one game's record under another"),
            "{err}"
        );
    }
    assert_eq!(files_in(&dir), before, "a file was changed");
    // The other game's hits never reached g.json.
    assert_eq!(hits_on(&game, "gren-2"), 0);
    // Its own journal back, the game opens as it was.
    std::fs::write(journal_of(&game), own).unwrap();
    assert_eq!(gren_1_hits(&game), "1");
    replay_agrees(&game);
}

/// `save copy.json` makes a copy that is a game of its own (a new id, the
/// chain made again). Its journal copied over g.json's is refused,
/// although it holds the very same entries; and with g.json's own header
/// put back on top of it, the chain is broken at the first entry.
#[test]
fn a_saved_copys_journal_is_refused_under_the_original() {
    let dir = temp_dir("trust-fork");
    let game = new_game(&dir, "g.json");
    let copy = dir.join("copy.json");
    assert_eq!(on(&game, &["hits 1 gren-1"], "").0, Some(0));
    let (code, out, err) = on(&game, &[&format!("save {}", copy.display())], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("saved to"), "{out}");
    let own = std::fs::read_to_string(journal_of(&game)).unwrap();
    let forked = std::fs::read_to_string(journal_of(&copy)).unwrap();
    // The same entries, told apart only by the id and the chain.
    assert_eq!(entry_lines(&copy), entry_lines(&game));
    assert_ne!(forked, own);

    std::fs::write(journal_of(&game), &forked).unwrap();
    let game_file = std::fs::read(&game).unwrap();
    let (code, out, err) = on(&game, &["units"], "");
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains("this journal belongs to another game"),
        "{err}"
    );
    let (code, _, err) = on(&game, &["hits 1 aus-1"], "");
    assert_ne!(code, Some(0));
    assert!(err.contains("belongs to another game"), "{err}");
    assert_eq!(std::fs::read_to_string(journal_of(&game)).unwrap(), forked);

    // The copy's entries under the original's header: the first entry
    // does not follow it.
    let header = own.lines().next().unwrap();
    let grafted: String = std::iter::once(header)
        .chain(forked.lines().skip(1))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(journal_of(&game), &grafted).unwrap();
    let (code, out, err) = on(&game, &["units"], "");
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains(&format!("{}:", journal_of(&game).display())),
        "{err}"
    );
    assert!(
        err.contains("the chain is broken here")
            || err.contains("the game file does not match its journal"),
        "{err}"
    );
    assert_eq!(std::fs::read(&game).unwrap(), game_file);
    std::fs::write(journal_of(&game), &own).unwrap();
    replay_agrees(&game);
    replay_agrees(&copy);
}

/// A way to make a game file look older or less whole: what it is, what
/// it does to the file, and what drumhead must say of it.
type Downgrade = (&'static str, fn(&mut serde_json::Value), &'static str);

/// A game file made to look older (`drumhead_game` 2), or with its
/// `journal` mark or its `check` removed, beside a journal whose first
/// entry was edited (30 hits for 1): reading and writing are refused with
/// a message and a non-zero exit, and nothing is written. A journal whose
/// header says `drumhead_journal: 1` is refused, naming the older version
/// and `drumhead repair`.
#[test]
fn a_downgraded_game_file_or_journal_is_refused() {
    let dir = temp_dir("trust-downgrade");
    let game = new_game(&dir, "g.json");
    assert_eq!(on(&game, &["hits 1 gren-1"], "").0, Some(0));
    assert_eq!(on(&game, &["hits 2 gren-1"], "").0, Some(0));
    let journal = journal_of(&game);
    let honest_file = std::fs::read_to_string(&game).unwrap();
    let honest = std::fs::read_to_string(&journal).unwrap();
    let edited: String = honest
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 1 {
                l.replace("\"line\":\"hits 1 gren-1\"", "\"line\":\"hits 30 gren-1\"")
                    .replace("\"hits\":1,", "\"hits\":30,")
            } else {
                l.to_string()
            }
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(edited, honest);
    std::fs::write(&journal, &edited).unwrap();
    let downgrades: [Downgrade; 3] = [
        (
            "version 2",
            |f| f["drumhead_game"] = 2.into(),
            "a game file of version 2, written by an older drumhead",
        ),
        (
            "no journal mark",
            |f| {
                f.as_object_mut().unwrap().remove("journal");
            },
            "not a drumhead game file (missing field `journal`)",
        ),
        (
            "no check",
            |f| {
                f.as_object_mut().unwrap().remove("check");
            },
            "not a drumhead game file (missing field `check`)",
        ),
    ];
    for (what, downgrade, said) in downgrades {
        let mut f: serde_json::Value = serde_json::from_str(&honest_file).unwrap();
        downgrade(&mut f);
        let text = serde_json::to_string_pretty(&f).unwrap();
        std::fs::write(&game, &text).unwrap();
        for line in ["units", "hits 1 aus-1"] {
            let (code, out, err) = on(&game, &[line], "");
            assert_ne!(code, Some(0), "{what}, `{line}`: {out}");
            assert!(
                err.contains(said) && err.contains(&format!("drumhead repair {}", game.display())),
                "{what}, `{line}`: {err}"
            );
            assert!(!out.contains("gren-1"), "{what}: a roster was shown: {out}");
        }
        assert_eq!(std::fs::read_to_string(&game).unwrap(), text, "{what}");
        assert_eq!(std::fs::read_to_string(&journal).unwrap(), edited, "{what}");
    }

    // An older journal: refused, naming its version and repair.
    std::fs::write(&game, &honest_file).unwrap();
    let old = honest.replacen("{\"drumhead_journal\":2,", "{\"drumhead_journal\":1,", 1);
    assert_ne!(old, honest);
    std::fs::write(&journal, &old).unwrap();
    for line in ["units", "hits 1 aus-1"] {
        let (code, out, err) = on(&game, &[line], "");
        assert_ne!(code, Some(0), "`{line}`: {out}");
        assert!(
            err.contains(&format!(
                "{}: a journal of version 1, written by an older drumhead",
                journal.display()
            )) && err.contains(&format!("drumhead repair {}", game.display())),
            "`{line}`: {err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), old);
    assert_eq!(std::fs::read_to_string(&game).unwrap(), honest_file);
    std::fs::write(&journal, &honest).unwrap();
    replay_agrees(&game);
}

/// The game file's checkpoint `state` is edited by hand (gren-1's 3 hits
/// made 30). Opening refuses: the state is not what the journal says.
/// Edited again with its `check` made to fit, it is refused all the same.
/// `repair` rewrites it from the journal, keeping the edited file aside.
#[test]
fn an_edited_checkpoint_is_refused_and_repair_rewrites_it() {
    let dir = temp_dir("trust-checkpoint");
    let game = new_game(&dir, "g.json");
    assert_eq!(on(&game, &["hits 1 gren-1"], "").0, Some(0));
    assert_eq!(on(&game, &["hits 2 gren-1"], "").0, Some(0));
    let honest_file = std::fs::read_to_string(&game).unwrap();
    let mut f: serde_json::Value = serde_json::from_str(&honest_file).unwrap();
    assert_eq!(f["state"]["drums"]["units"]["gren-1"]["hits"], 3);
    f["state"]["drums"]["units"]["gren-1"]["hits"] = 30.into();
    let edited = serde_json::to_string_pretty(&f).unwrap();

    let refused = format!(
        "{}: the state in the game file is not what its journal says (it was changed after it was written)",
        game.display()
    );
    // The edit alone, then the edit with a check that fits it.
    let mut fitted: drumhead::game::GameFile = serde_json::from_str(&edited).unwrap();
    fitted.check = drumhead::game::file_check(&fitted);
    let fitted = serde_json::to_string_pretty(&fitted).unwrap();
    for (what, text) in [("edited", &edited), ("check fitted", &fitted)] {
        std::fs::write(&game, text).unwrap();
        for line in ["units", "hits 1 aus-1"] {
            let (code, out, err) = on(&game, &[line], "");
            assert_ne!(code, Some(0), "{what}, `{line}`: {out}");
            assert!(err.contains(&refused), "{what}, `{line}`: {err}");
        }
        assert_eq!(&std::fs::read_to_string(&game).unwrap(), text);
    }

    std::fs::write(&game, &edited).unwrap();
    let bak = PathBuf::from(format!("{}.bak", game.display()));
    let (code, plan, err) = repair(&game, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        plan.contains("write the game file again from the journal's 2 entries (its state was edited after it was written)")
            && plan.contains(&format!("the present game file is kept as {}", bak.display())),
        "{plan}"
    );
    assert_eq!(std::fs::read_to_string(&game).unwrap(), edited);
    let (code, _, err) = repair(&game, true);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), edited);
    assert_eq!(hits_on(&game, "gren-1"), 3);
    assert_eq!(gren_1_hits(&game), "3");
    replay_agrees(&game);
    let (code, plan, _) = repair(&game, false);
    assert_eq!(code, Some(0));
    assert!(plan.contains("nothing to repair"), "{plan}");
}

/// The batch of the replay case: 84 rounds of ten lines (hits, moves,
/// turns and undos), three rounds in four with one more `undo`. Each
/// round ends a turn; every fourth round leaves one hit on aus-3 (21 in
/// all, short of the 24 that take its 4 bases, so no line is refused).
/// 903 entries: the game file is checkpointed three times on the way.
fn busy_evening() -> Vec<&'static str> {
    let mut lines = Vec::new();
    for round in 0..84 {
        lines.extend([
            "hits 1 aus-3",
            "move gren-1",
            "undo",
            "undo",
            "next-turn",
            "hits 1 aus-3",
            "move gren-1",
            "next-turn",
            "undo",
            "undo",
        ]);
        if round % 4 != 0 {
            lines.push("undo");
        }
    }
    lines
}

/// A batch of 903 lines (hits, rolled moves, turns, undos; `--seed`)
/// writes a game, given its lines a few at a time; after each few,
/// `drumhead replay g.json.journal` runs while the batch resolves and
/// records them, 100 times in all (and `units` now and then). Every one
/// must succeed and find the state the game file holds, before, across
/// and after each checkpoint: no false alarm from reading a game being
/// written ("reflects N entries, but the journal has only N-1").
#[test]
fn replays_while_a_batch_writes_never_raise_a_false_alarm() {
    let dir = temp_dir("trust-replays");
    let game = new_game(&dir, "g.json");
    let journal = journal_of(&game);
    let shown = journal.display().to_string();
    let lines = busy_evening();
    assert_eq!(lines.len(), 903);
    let mut batch = Command::new(BIN)
        .args(args(&game, &["--seed", "11"]))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("drumhead starts");
    let mut stdin = batch.stdin.take().unwrap();
    let size = || std::fs::metadata(&journal).map_or(0, |m| m.len());
    let recorded =
        || std::fs::read(&journal).map_or(0, |j| j.iter().filter(|b| **b == b'\n').count() - 1);
    let chunk = lines.len() / 100;
    let mut given = lines.chunks(chunk);
    let (mut during, mut reflected) = (0, Vec::new());
    for i in 0..100 {
        // Kept close behind: the replays are spread over the whole batch.
        let start = Instant::now();
        while recorded() + 2 * chunk < i * chunk {
            assert!(start.elapsed() < DEADLINE, "the batch stopped recording");
            std::thread::sleep(Duration::from_millis(2));
        }
        for line in given.next().unwrap() {
            writeln!(stdin, "{line}").unwrap();
        }
        stdin.flush().unwrap();
        let before = size();
        let out = Command::new(BIN).args(["replay", &shown]).output().unwrap();
        let after = size();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            out.status.success() && stdout.contains(" entries: the state equals "),
            "replay {i}: {stdout}{stderr}"
        );
        // The batch recorded entries while this replay read the game.
        if after > before {
            during += 1;
        }
        let of = stdout
            .rsplit("(which reflects ")
            .next()
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap();
        if reflected.last() != Some(&of) {
            reflected.push(of);
        }
        if i % 20 == 0 {
            let (code, out, err) = on(&game, &["units"], "");
            assert_eq!(code, Some(0), "units {i}: {err}");
            assert_eq!(units_row(&out, "aus-3").len(), 6, "units {i}: {out}");
        }
    }
    for line in given.flatten() {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = batch.wait_with_output().expect("the batch runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the batch: {err}");
    assert!(!err.contains("error"), "the batch: {err}");
    println!(
        "{during} of 100 replays ran while the batch was recording entries; \
         the game files they compared with reflected {reflected:?} entries"
    );
    assert!(during > 0, "no replay ran while the batch was writing");
    // Before the first checkpoint, and after each one.
    assert_eq!(reflected, [0, 256, 512, 768]);
    assert_eq!(entries(&game).len(), 903);
    assert_eq!(state(&game)["turn"], 85);
    assert_eq!(hits_on(&game, "aus-3"), 21);
    replay_agrees(&game);
}

/// How a line of the long game's journal is made: an entry as drumhead
/// writes it, chained to the line before.
enum Long {
    Hits,
    NextTurn,
    Undo(u64),
}

fn long_entry(n: u64, prev: &str, turn: u32, kind: &Long) -> String {
    match kind {
        Long::Hits => format!(
            r#"{{"entry":{n},"prev":"{prev}","turn":{turn},"line":"hits 1 ir-3","system":"drums","outcome":"bases-lost","effects":[{{"effect":"hits","hits":1,"unit":"ir-3"}}]}}"#
        ),
        Long::NextTurn => format!(
            r#"{{"entry":{n},"prev":"{prev}","turn":{turn},"line":"next-turn","effects":[{{"effect":"next-turn"}}]}}"#
        ),
        Long::Undo(m) => format!(r#"{{"entry":{n},"prev":"{prev}","turn":{turn},"undo":{m}}}"#),
    }
}

/// A journal of `n` entries after `header`: in each hundred, two turns
/// ended and 49 `hits 1 ir-3` each undone; the last three entries are hits
/// left standing. Returns the journal and the turn it ends on.
fn long_journal(header: &str, n: u64) -> (String, u32) {
    let mut text = format!("{header}\n");
    let mut prev = drumhead::game::hash(text.as_bytes());
    let mut turn = 1u32;
    for e in 1..=n {
        let p = e % 100;
        let kind = if e + 3 > n || (p % 2 == 0 && p != 0) {
            Long::Hits
        } else if p <= 1 {
            Long::NextTurn
        } else {
            Long::Undo(e - 1)
        };
        let line = format!("{}\n", long_entry(e, &prev, turn, &kind));
        prev = drumhead::game::hash(line.as_bytes());
        text.push_str(&line);
        if matches!(kind, Long::NextTurn) {
            turn += 1;
        }
    }
    (text, turn)
}

/// Run drumhead and measure it: exit code, stdout, stderr, the most
/// memory it held (KiB) and how long it took.
#[allow(
    clippy::zombie_processes,
    reason = "the child is waited for with wait4, which also says the memory it held"
)]
fn measured(args: &[String]) -> (Option<i32>, String, String, i64, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let (out_path, err_path) = (dir.path().join("out"), dir.path().join("err"));
    let start = Instant::now();
    let child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("drumhead starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be filled in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, filling in `status` and `usage`.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let took = start.elapsed();
    assert_eq!(waited, pid, "wait4");
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (
        code,
        std::fs::read_to_string(out_path).unwrap(),
        std::fs::read_to_string(err_path).unwrap(),
        usage.ru_maxrss,
        took,
    )
}

/// Rewrite the `prev` of every entry from `from` (an index into the
/// journal's lines) on, so the chain holds again over the changed lines.
fn rechain(text: &str, from: usize) -> String {
    let mut lines: Vec<String> = text.lines().map(|l| format!("{l}\n")).collect();
    for i in from.max(1)..lines.len() {
        let prev = drumhead::game::hash(lines[i - 1].as_bytes());
        let mut e: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
        e["prev"] = prev.into();
        lines[i] = format!("{}\n", serde_json::to_string(&e).unwrap());
    }
    lines.concat()
}

/// A game of 20,000 entries. A batch records a line in about 6 ms here
/// (one fdatasync a line: 2,000 lines took 12 s), so 20,000 would take two
/// minutes; the journal is written by the test instead, exactly as
/// drumhead writes it, and the first writer then resolves every entry
/// again (and checkpoints). Then `units` must answer in time and in the
/// memory a fresh game takes, and `replay` agree.
///
/// A line forged deep inside (entry 10 made `hits 5 ir-3`) is found by
/// `replay`, which reads the whole chain: broken at line 12, where entry
/// 11 no longer follows it. `units` trusts the checkpoint and need not
/// find it; it may (today it does, as no rule system keeps a checkpoint
/// yet and the state is folded from the journal on every open). And a
/// forger who makes the chain and the game file's mark fit again (entry
/// 10 recording 35 hits for `hits 1 ir-3`) is still found by `replay`,
/// which resolves every entry again; `units` does not resolve entries the
/// checkpoint vouches for.
#[test]
fn a_long_game_opens_in_time_and_a_forgery_deep_inside_is_found_by_replay() {
    let dir = temp_dir("trust-long");
    let small = new_game(&dir, "small.json");
    let game = new_game(&dir, "g.json");
    let journal = journal_of(&game);
    let header = std::fs::read_to_string(&journal).unwrap();
    let header = header.lines().next().unwrap().to_string();
    let (text, turn) = long_journal(&header, 20_000);
    std::fs::write(&journal, &text).unwrap();

    // The first writer resolves the 20,000 entries again, then its own line.
    let start = Instant::now();
    let (code, out, err) = on(&game, &["hits 1 aus-1"], "");
    let caught_up = start.elapsed();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains(&included(20_000)), "{err}");
    assert_hits(&out, "aus-1", 6, 0, 1);
    let (_, reflected, _) = drumhead::game::Game::read_file(&game).unwrap();
    assert_eq!(reflected, 20_001);

    let (code, small_out, err, small_rss, _) = measured(&args(&small, &["units"]));
    assert_eq!(code, Some(0), "{err}");
    assert!(small_out.contains("turn 1"), "{small_out}");
    let (code, out, err, rss, took) = measured(&args(&game, &["units"]));
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with(&format!("turn {turn}\n")), "{out}");
    assert_eq!(turn, 400);
    let row = units_row(&out, "ir-3");
    assert_eq!(
        (row[2].as_str(), row[4].as_str()),
        ("6/6 bases", "3"),
        "{out}"
    );
    println!(
        "20,000 entries: resolved again by the first writer in {caught_up:?}; \
         `units` took {took:?} and {rss} KiB (a new game's: {small_rss} KiB)"
    );
    assert!(took < Duration::from_secs(20), "`units` took {took:?}");
    assert!(
        rss < small_rss + 16 * 1024,
        "`units` held {rss} KiB on 20,000 entries, {small_rss} KiB on none"
    );
    let replayed = Command::new(BIN)
        .arg("replay")
        .arg(&journal)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&replayed.stdout);
    assert!(
        said.contains("replayed 20001 entries: the state equals"),
        "{said}"
    );

    let honest = std::fs::read_to_string(&journal).unwrap();
    let honest_file = std::fs::read_to_string(&game).unwrap();
    let mut lines: Vec<String> = honest.lines().map(|l| format!("{l}\n")).collect();
    assert!(lines[10].starts_with("{\"entry\":10,"), "{}", lines[10]);
    assert!(
        lines[10].contains("\"line\":\"hits 1 ir-3\""),
        "{}",
        lines[10]
    );
    assert!(lines[11].contains("\"undo\":10"), "{}", lines[11]);

    // Entry 10 made `hits 5 ir-3`, line and effects: it resolves to
    // itself, but entry 11 no longer follows it.
    lines[10] = lines[10]
        .replace("\"line\":\"hits 1 ir-3\"", "\"line\":\"hits 5 ir-3\"")
        .replace("\"hits\":1,", "\"hits\":5,");
    std::fs::write(&journal, lines.concat()).unwrap();
    let (code, out, err) = drumhead(&["replay", &journal.display().to_string()]);
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains(&format!(
            "{}:12: the chain is broken here",
            journal.display()
        )),
        "{err}"
    );
    let (code, out, err) = on(&game, &["units"], "");
    if code == Some(0) {
        println!("a broken chain at entry 11: `units` trusted the checkpoint");
        assert_eq!(units_row(&out, "ir-3")[4], "3", "{out}");
    } else {
        println!("a broken chain at entry 11: `units` found it too");
        assert!(
            err.contains(&format!(
                "{}:12: the chain is broken here",
                journal.display()
            )),
            "{err}"
        );
    }

    // Entry 10 records 35 hits for `hits 1 ir-3`; every `prev` after it
    // and the game file's mark and check are made to fit.
    let mut lines: Vec<String> = honest.lines().map(|l| format!("{l}\n")).collect();
    lines[10] = lines[10].replace("\"hits\":1,", "\"hits\":35,");
    let forged = rechain(&lines.concat(), 11);
    std::fs::write(&journal, &forged).unwrap();
    let mut tally = drumhead::game::Tally::default();
    for (i, line) in forged.lines().enumerate() {
        tally.add_line(format!("{line}\n").as_bytes(), i > 0);
    }
    let mut f: drumhead::game::GameFile = serde_json::from_str(&honest_file).unwrap();
    f.journal = tally.mark();
    f.entries = tally.entries;
    f.check = drumhead::game::file_check(&f);
    std::fs::write(&game, serde_json::to_string_pretty(&f).unwrap()).unwrap();
    let (code, out, err) = drumhead(&["replay", &journal.display().to_string()]);
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains(&format!(
            "{}:11: entry 10 does not resolve to itself",
            journal.display()
        )),
        "{err}"
    );
    let (code, out, err) = on(&game, &["units"], "");
    if code == Some(0) {
        println!("a forgery that fits the chain and the mark: `units` trusted the checkpoint");
        assert_eq!(units_row(&out, "ir-3")[4], "3", "{out}");
    } else {
        println!("a forgery that fits the chain and the mark: `units` found it too");
        assert!(err.contains("entry 10 does not resolve to itself"), "{err}");
    }
    std::fs::write(&journal, &honest).unwrap();
    std::fs::write(&game, &honest_file).unwrap();
    replay_agrees(&game);
}

/// An umpire edits an entry in the middle of the journal by hand, line and
/// effects together ("hits 2" became "hits 30"), after the game file was
/// written. The entry still records the state the honest line left, which
/// the edited one does not give when it is resolved again; and the entry
/// after it recorded the hash of the line as it was. So repair knows the
/// edited line is the one to keep aside, not the honest one after it, and
/// never adopts it.
#[test]
fn an_entry_changed_by_hand_in_the_middle_is_the_one_kept_aside() {
    let dir = temp_dir("edited-middle");
    let game = new_game(&dir, "g.json");
    let (code, _, err) = on(&game, &[], "hits 1 gren-1\nhits 2 gren-1\nhits 1 gren-1\n");
    assert_eq!(code, Some(0), "{err}");
    let journal = journal_of(&game);
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[2] = lines[2]
        .replace("\"line\":\"hits 2 gren-1\"", "\"line\":\"hits 30 gren-1\"")
        .replace("\"hits\":2,", "\"hits\":30,");
    assert!(lines[2].contains("hits 30"), "{}", lines[2]);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    // Readers and writers refuse it.
    let (code, _, err) = on(&game, &["units"], "");
    assert_ne!(code, Some(0), "{err}");
    let (code, _, _) = on(&game, &[], "hits 1 aus-3\n");
    assert_ne!(code, Some(0));
    // repair names entry 2, and keeps it and what follows aside.
    let (code, out, err) = repair(&game, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("keep the journal's first 1 entries: line 3 is not adopted (")
            && out.contains("entry 2 does not resolve to itself: resolved again, the state after it is not the one it recorded"),
        "{out}"
    );
    let (code, _, err) = repair(&game, true);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(gren_1_hits(&game), "1");
    let aside = std::fs::read_to_string(dir.join("g.json.journal.damaged")).unwrap();
    assert!(aside.starts_with(&format!("{}\n", lines[2])), "{aside}");
    assert_eq!(aside.lines().count(), 2);
    replay_agrees(&game);
}
