//! The REPL as a person uses it, driven through tmux (issue 16): a hint
//! finishes only the word being typed, Tab lists the candidates at once,
//! Ctrl-C stops a long `simulate` and the prompt comes back, the history
//! survives a killed terminal, `set rules mayhem` switches the rule system.
//! Skipped, with a note, where tmux is not installed.
//!
//! Every wait polls the screen with a deadline: nothing sleeps a fixed
//! long time, and a failure shows the screen it saw.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_drumhead");

/// Long enough for a loaded machine; a passing run waits far less.
/// What `--brief` prints for `move individual rolled 3 4 5` under Musket
/// Mayhem ("If moving as an individual: 3d6\"").
const BRIEF_MOVE: &str = "move individual: [3 4 5] → move up to 12\"";

const DEADLINE: Duration = Duration::from_secs(30);

fn has_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// One tmux server of our own (its own socket), one pane running drumhead
/// with HOME and XDG_DATA_HOME in a temporary directory.
struct Pane {
    socket: PathBuf,
}

impl Pane {
    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-u")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn start(home: &Path, tag: &str) -> Pane {
        let pane = Pane::sized(home, tag, (160, 50), "");
        pane.wait_for("the prompt", |s| last_line(s) == "drums>");
        pane
    }

    /// A pane of `size` (columns, rows) running drumhead with `args`
    /// (shell words, quoted as needed), not yet waited for.
    fn sized(home: &Path, tag: &str, size: (u16, u16), args: &str) -> Pane {
        let pane = Pane {
            socket: home.join(format!("tmux-{tag}.sock")),
        };
        let data = home.join("data");
        let shell = format!(
            "env -u COMPLETE HOME='{}' XDG_DATA_HOME='{}' TERM=xterm-256color '{BIN}' --color never {args}; \
             echo \"drumhead exited $?\"; sleep 60",
            home.display(),
            data.display()
        );
        let (columns, rows) = (size.0.to_string(), size.1.to_string());
        let out = pane.tmux(&[
            "new-session",
            "-d",
            "-c",
            env!("CARGO_MANIFEST_DIR"),
            "-s",
            "repl",
            "-x",
            &columns,
            "-y",
            &rows,
            &shell,
        ]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        pane
    }

    /// Keys by tmux name (`Enter`, `Tab`, `Right`, `C-c`).
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "repl"];
        args.extend(keys);
        let out = self.tmux(&args);
        assert!(out.status.success(), "send-keys {keys:?}: {out:?}");
    }

    /// Text typed as it is.
    fn type_text(&self, text: &str) {
        let out = self.tmux(&["send-keys", "-t", "repl", "-l", text]);
        assert!(out.status.success(), "send-keys -l {text:?}: {out:?}");
    }

    /// The pane with its scrollback, trailing blank lines dropped.
    fn screen(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-J", "-S", "-2000", "-t", "repl"]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.trim_end().to_string()
    }

    /// The pane's lines as the terminal shows them: a line too long for
    /// it is two lines here (not joined, as `screen` joins them).
    fn shown_lines(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-S", "-2000", "-t", "repl"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Poll the screen until `ok` holds; panic with the screen after the
    /// deadline. Returns the screen that satisfied it.
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

    /// A clear screen and no scrollback, with only `prompt` on it: what
    /// the next step prints is then the whole screen.
    fn fresh(&self, prompt: &str) {
        self.keys(&["C-l"]);
        self.wait_for(&format!("a clear screen with `{prompt}`"), |s| {
            if s == prompt {
                return true;
            }
            // The cleared lines may land in the scrollback: drop it.
            let _ = self.tmux(&["clear-history", "-t", "repl"]);
            false
        });
    }

    /// The terminal goes away with drumhead in it (no Ctrl-D, no quit).
    fn kill(&self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        self.kill();
    }
}

fn last_line(screen: &str) -> &str {
    screen.lines().last().unwrap_or_default().trim_end()
}

fn history(home: &Path) -> String {
    std::fs::read_to_string(home.join("data/drumhead/history")).unwrap_or_default()
}

#[test]
fn repl_hints_lists_stops_keeps_history_and_switches_rules() {
    if !has_tmux() {
        println!("note: tmux is not on PATH; the REPL test is skipped (apt-get install tmux)");
        return;
    }
    let home = tempfile::tempdir().expect("a temporary home");
    let home = home.path();
    let pane = Pane::start(home, "first");

    // The hint finishes only the word under the cursor: `resilience sh`
    // shows `ooting`, and nothing after it (no example, no dice).
    pane.fresh("drums>");
    pane.type_text("resilience sh");
    pane.wait_for("the hint of shooting", |s| {
        s == "drums> resilience shooting"
    });
    pane.keys(&["Right"]);
    pane.keys(&["Enter"]);
    let out = pane.wait_for("the test resolved, prompt back", |s| {
        s.contains("⇒") && last_line(s) == "drums>"
    });
    // The rule: a resilience test from shooting throws 2D6; the player
    // entered none, so both were rolled.
    assert!(out.starts_with("drums> resilience shooting\n"), "{out}");
    assert!(
        out.contains("resilience test, from shooting (2D6)"),
        "{out}"
    );
    assert_eq!(out.matches("(rolled)").count(), 2, "{out}");
    assert!(!out.contains("(entered)"), "dice were entered: {out}");
    // No word of the help example slipped in (+determined +hit).
    assert!(!out.contains("Determined"), "{out}");
    assert!(!out.contains("Received any hits"), "{out}");
    let lines = history(home);
    assert_eq!(
        lines.lines().last(),
        Some("resilience shooting"),
        "history: {lines}"
    );

    // Tab lists every word of the verb in hand at once, in columns.
    pane.fresh("drums>");
    pane.type_text("resilience ");
    pane.keys(&["Tab"]);
    let screen = pane.wait_for("the listing of resilience's words", |s| {
        ["determined", "lackluster", "shooting", "zealous", "rolled"]
            .iter()
            .all(|w| s.contains(w))
    });
    // Several words to a line: a listing, not one candidate at a time.
    let full_lines = screen
        .lines()
        .filter(|l| !l.starts_with("drums>") && l.split_whitespace().count() >= 5)
        .count();
    assert!(full_lines >= 4, "{screen}");
    // A short list shows what each word means.
    pane.keys(&["C-u"]);
    pane.fresh("drums>");
    pane.type_text("set rules ");
    pane.keys(&["Tab"]);
    pane.wait_for("the rule systems with their titles", |s| {
        s.lines()
            .any(|l| l.trim_end() == "mayhem           Musket Mayhem")
            && s.lines()
                .any(|l| l.trim_end() == "drums            Drums and Muskets")
    });
    pane.keys(&["C-u"]);
    pane.fresh("drums>");

    // Ctrl-C stops a long simulate; the REPL stays, the prompt comes back.
    pane.type_text("simulate 2000000 resilience");
    pane.keys(&["Enter"]);
    // On a terminal a long simulate draws a progress bar.
    pane.wait_for("the progress bar", |s| {
        s.contains("simulate (Ctrl-C stops)")
    });
    pane.keys(&["C-c"]);
    let out = pane.wait_for("the simulate stopped, prompt back", |s| {
        s.contains("stopped by Ctrl-C") && last_line(s) == "drums>"
    });
    assert!(
        out.contains("error: stopped by Ctrl-C: simulate had made "),
        "{out}"
    );
    // The bar is cleared, and drumhead did not exit.
    assert!(!out.contains("simulate (Ctrl-C stops)"), "{out}");
    assert!(!out.contains("drumhead exited"), "{out}");
    // The same process answers the next line.
    pane.fresh("drums>");
    pane.type_text("resilience +determined rolled 4 3");
    pane.keys(&["Enter"]);
    pane.wait_for("the next command resolved", |s| {
        s.contains("⇒ carry on") && last_line(s) == "drums>"
    });

    // `set rules mayhem`: the next line is read under Musket Mayhem, where
    // `move individual` is 3d6" ("If moving as an individual: 3d6"").
    pane.fresh("drums>");
    pane.type_text("set rules mayhem");
    pane.keys(&["Enter"]);
    pane.wait_for("the mayhem prompt", |s| {
        s.contains("rules: Musket Mayhem") && last_line(s) == "mayhem>"
    });
    pane.fresh("mayhem>");
    pane.type_text("move individual rolled 3 4 5");
    pane.keys(&["Enter"]);
    let out = pane.wait_for("a Musket Mayhem move", |s| {
        s.contains("⇒") && last_line(s) == "mayhem>"
    });
    assert!(
        out.contains("movement, individual (3d6\") · Musket Mayhem"),
        "{out}"
    );
    assert!(out.contains("⇒ move up to 12\""), "{out}");

    // `set brief` (issue 16: "`--brief`, and `set brief` in the REPL"): the
    // answers after it take one line each, until `set brief off`.
    pane.fresh("mayhem>");
    pane.type_text("set brief");
    pane.keys(&["Enter"]);
    pane.wait_for("brief on", |s| {
        s.contains("brief: on") && last_line(s) == "mayhem>"
    });
    pane.fresh("mayhem>");
    pane.type_text("move individual rolled 3 4 5");
    pane.keys(&["Enter"]);
    let out = pane.wait_for("a brief move", |s| {
        s.contains("→") && last_line(s) == "mayhem>"
    });
    assert!(out.contains(BRIEF_MOVE), "{out}");
    assert!(!out.contains('┌'), "a table in brief mode: {out}");
    pane.fresh("mayhem>");
    pane.type_text("set brief off");
    pane.keys(&["Enter"]);
    pane.wait_for("brief off", |s| {
        s.contains("brief: off") && last_line(s) == "mayhem>"
    });

    // The terminal is killed: every line entered is already in the file.
    pane.fresh("mayhem>");
    pane.type_text("odds drums resilience +guards");
    pane.keys(&["Enter"]);
    pane.wait_for("the odds", |s| {
        s.contains("carry on") && last_line(s) == "mayhem>"
    });
    drop(pane);
    let lines = history(home);
    for entered in [
        "resilience shooting",
        "simulate 2000000 resilience",
        "set rules mayhem",
        "move individual rolled 3 4 5",
        "odds drums resilience +guards",
    ] {
        assert!(
            lines.lines().any(|l| l == entered),
            "`{entered}` is not in the history:\n{lines}"
        );
    }
    // Started again, the history is there: Up brings the last line back.
    let pane = Pane::start(home, "second");
    pane.keys(&["Up"]);
    pane.wait_for("the last line from the history", |s| {
        last_line(s) == "drums> odds drums resilience +guards"
    });
    pane.keys(&["C-u"]);

    // `load FILE` starts a game in memory; its unit ids are offered.
    pane.fresh("drums>");
    pane.type_text("load armies/nowhere.toml");
    pane.keys(&["Enter"]);
    let out = pane.wait_for("the refusal", |s| {
        s.contains("error:") && last_line(s) == "drums>"
    });
    assert!(
        out.contains("`armies/nowhere.toml`: cannot be loaded: "),
        "{out}"
    );
    pane.fresh("drums>");
    pane.type_text("load armies/leuthen-1757-prussian.toml");
    pane.keys(&["Enter"]);
    let out = pane.wait_for("the army loaded", |s| last_line(s) == "drums t1>");
    assert!(
        out.contains("loaded armies/leuthen-1757-prussian.toml: Prussian army, Leuthen 1757"),
        "{out}"
    );
    pane.fresh("drums t1>");
    pane.type_text("resilience gren-");
    pane.keys(&["Tab"]);
    pane.wait_for("the grenadier battalions with their names", |s| {
        ["gren-1", "gren-2", "gren-3"].iter().all(|id| {
            s.lines()
                .any(|l| l.starts_with(id) && l.contains("Grenadier Battalion"))
        })
    });
    // Status 1: the refused `load`, like any rejected line, is counted.
    pane.keys(&["C-u", "C-d"]);
    pane.wait_for("drumhead to leave", |s| last_line(s) == "drumhead exited 1");
}

/// The unit ids of the Leuthen lists, as `--json units` gives them.
fn leuthen_ids() -> Vec<String> {
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["--json", "--army", "armies/leuthen-1757-prussian.toml"])
        .args(["--army", "armies/leuthen-1757-austrian.toml", "units"])
        .output()
        .expect("drumhead runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON answer");
    let ids: Vec<String> = json["armies"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|a| a["units"].as_array().cloned().unwrap_or_default())
        .filter_map(|u| u["id"].as_str().map(str::to_string))
        .collect();
    assert!(
        ids.len() > 20,
        "the Leuthen lists have their units: {ids:?}"
    );
    ids
}

// Issue 26: "`units` at 80 columns splits ids (`al-brunswick-li` / `ght`) —
// and ids are what a user types"; "a tmux test of `units` at 80 columns
// finding every id whole".
#[test]
fn units_at_80_columns_keeps_every_id_whole_and_each_unit_on_one_line() {
    if !has_tmux() {
        println!("note: tmux is not on PATH; the REPL test is skipped (apt-get install tmux)");
        return;
    }
    let ids = leuthen_ids();
    let dir = tempfile::tempdir().unwrap();
    let pane = Pane::sized(
        dir.path(),
        "units",
        (80, 45),
        "--army armies/leuthen-1757-prussian.toml --army armies/leuthen-1757-austrian.toml",
    );
    pane.wait_for("the prompt", |s| last_line(s) == "drums t1>");
    pane.type_text("units");
    pane.keys(&["Enter"]);
    pane.wait_for("both armies' units", |s| {
        s.contains("Austrian army") && last_line(s) == "drums t1>"
    });
    let shown = pane.shown_lines();
    for id in &ids {
        // The unit's line: its id whole as the first word, and the rest of
        // its row (its bases) on the same line.
        let line = shown
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id.as_str()));
        let Some(line) = line else {
            panic!("`{id}` is not whole at the start of a line:\n{shown}");
        };
        assert!(
            line.contains(" bases"),
            "`{id}` takes more than one line:\n{shown}"
        );
    }
    // No line of a table is a unit's second line (its id cell blank).
    let second = shown
        .lines()
        .find(|l| l.trim_start_matches('│').starts_with("  "));
    assert_eq!(second, None, "one line a unit:\n{shown}");
    pane.keys(&["C-d"]);
}

// Issue 26: "`help melee` is about 110 lines with no pager and scrolls off
// a 45-row terminal"; "Long help through `$PAGER` on a terminal (as git
// does)".
#[test]
fn long_help_at_a_terminal_goes_through_the_pager() {
    if !has_tmux() {
        println!("note: tmux is not on PATH; the REPL test is skipped (apt-get install tmux)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let paged = dir.path().join("paged.txt");
    // The pane's first run only prints the version; the second, with a
    // pager that writes a file, asks for the help.
    let args = format!(
        "--version >/dev/null; PAGER='cat > {}' '{BIN}' --color never help melee",
        paged.display()
    );
    let pane = Pane::sized(dir.path(), "pager", (80, 24), &args);
    pane.wait_for("drumhead to end", |s| {
        last_line(s).starts_with("drumhead exited")
    });
    let text = std::fs::read_to_string(&paged).unwrap_or_default();
    assert!(
        text.starts_with("usage: melee"),
        "the pager got the help: {text:?}"
    );
    assert!(text.lines().count() > 24, "{text}");
    // The pager had it all: the screen did not.
    let screen = pane.screen();
    assert!(!screen.contains("usage: melee"), "{screen}");
}

/// A number of a process's /proc/PID/stat (`field` counted from 1, as
/// proc(5) does); `None` once it has ended.
fn stat_field(pid: u32, field: usize) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command's name, in parentheses, may hold spaces: count after it.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace()
        .nth(field.checked_sub(3)?)?
        .parse()
        .ok()
}

/// The CPU time a process has taken (user and system), in clock ticks.
fn cpu_ticks(pid: u32) -> Option<u64> {
    Some(stat_field(pid, 14)? + stat_field(pid, 15)?)
}

/// The most memory a process has held so far (VmHWM), in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The drumhead the pane runs: the child of the pane's shell.
fn drumhead_of(pane: &Pane) -> u32 {
    let out = pane.tmux(&["display-message", "-p", "-t", "repl", "#{pane_pid}"]);
    let shell: u64 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("the pane's process");
    let children: Vec<u32> = std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| stat_field(pid, 4) == Some(shell))
        .filter(|&pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim() == "drumhead")
        })
        .collect();
    assert_eq!(children.len(), 1, "drumhead under the pane's shell {shell}");
    children[0]
}

// Issue 37: "Stream large answers: odds, sweeps and simulations write rows
// as they are made, in every format and over HTTP; memory does not grow
// with the answer" — `odds mayhem fire roundshot 1"..20" figures=11..30
// rerolls=1` "peaks under 64 MB RSS ...; its first row appears before the
// last is computed". Musket Mayhem, roundshot: "Roll against all figures
// along flight path needing usual score".
#[test]
fn a_large_sweep_at_the_prompt_is_written_as_it_is_counted() {
    if !has_tmux() {
        println!("note: tmux is not on PATH; the REPL test is skipped (apt-get install tmux)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pane = Pane::sized(dir.path(), "sweep", (160, 50), "");
    pane.wait_for("the prompt", |s| last_line(s) == "drums>");
    let pid = drumhead_of(&pane);
    let before = cpu_ticks(pid).expect("its CPU time");
    pane.type_text("odds mayhem fire roundshot 1\"..20\" figures=11..30 rerolls=1");
    pane.keys(&["Enter"]);
    let mut peak = 0;
    let mut first_rows = None;
    let start = Instant::now();
    let screen = loop {
        let screen = pane.screen();
        peak = peak.max(peak_kib(pid).expect("drumhead runs"));
        let ticks = cpu_ticks(pid).expect("drumhead runs") - before;
        if first_rows.is_none() && screen.lines().any(|l| l.starts_with("distance ")) {
            first_rows = Some(ticks);
        }
        if last_line(&screen) == "drums>" && screen.contains("figures 30") {
            break screen;
        }
        assert!(
            start.elapsed() < DEADLINE * 4,
            "the sweep did not end; the screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = cpu_ticks(pid).expect("drumhead runs") - before;
    peak = peak.max(peak_kib(pid).expect("drumhead runs"));
    // The last combination, and no error after it.
    assert!(
        screen.contains("distance 20\" · figures 30\nodds: missile fire, roundshot at 20\""),
        "{screen}"
    );
    assert!(!screen.contains("error:"), "{screen}");
    // The first combinations were on the screen while most of the work
    // was still to do: counted by the CPU time drumhead had taken, which
    // a terminal slow to draw does not add to.
    let first_rows = first_rows.expect("the rows were seen");
    assert!(
        first_rows * 2 < took,
        "the first rows came after {first_rows} of {took} ticks"
    );
    assert!(peak < 64 * 1024, "drumhead held {peak} KiB");
    pane.keys(&["C-d"]);
}
