//! Issue 34: "start-up and memory do not grow with the journal". A game
//! of 10^5 entries (bench/serve-big-game.sh measures 10^6): the server
//! starts from its checkpoint, keeps only its newest entries, and reads
//! the log from the journal a page at a time.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::http::serve;
use super::{cli_json, data_of, ids, new_game, scratch, sse};

/// Entries in the game: enough that resolving each again at start took
/// the old server seconds and its memory grew by hundreds of MB.
const ENTRIES: u64 = 100_000;

/// The newest entries the server keeps (SERVE_WINDOW in src/limits.rs).
const WINDOW: u64 = 1024;

/// The most entries a page of the log holds (SERVE_LOG_MOST).
const PAGE_MOST: usize = 10_000;

/// The server's resident memory, from /proc, in KiB.
fn rss_kib(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// `ENTRIES` lines, an undo among every five, written by one batch.
fn write_long_game(game: &std::path::Path) {
    let mut writer = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .arg("--game")
        .arg(game)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("a batch");
    let mut stdin = writer.stdin.take().expect("stdin");
    let feeding = std::thread::spawn(move || {
        let five = "resilience gren-1 shooting rolled 4 3\nhits 1 aus-3\nundo\n\
                    move gren-1 rolled 4\ncharge zieten-hussars rolled 3 3\n";
        for _ in 0..ENTRIES / 5 {
            stdin.write_all(five.as_bytes()).expect("the batch reads");
        }
    });
    let out = writer.wait_with_output().expect("the batch ends");
    feeding.join().expect("the lines were fed");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_long_game_starts_at_once_keeps_its_newest_entries_and_pages_its_log() {
    let dir = scratch();
    let game = new_game(dir.path(), "long");
    let clock = Instant::now();
    write_long_game(&game);
    eprintln!("{ENTRIES} entries written in {:?}", clock.elapsed());

    // Started from the checkpoint: the address is said at once.
    let clock = Instant::now();
    let server = serve(&[&game], &[]);
    let started = clock.elapsed();
    let index = server.get("/");
    assert_eq!(index.status, 200);
    assert!(index.text().contains("100000 entries"), "{}", index.text());
    let answered = clock.elapsed();
    let after_start = rss_kib(server.pid());
    eprintln!("started in {started:?}, answered in {answered:?}, {after_start} KiB");
    // The bound is generous for a debug build on a loaded machine; this
    // takes well under 100 ms here, and resolving every entry again took
    // the old server seconds.
    assert!(answered < Duration::from_secs(2), "{answered:?}");

    // A live view from the first entry: the entries older than the window
    // are named in one `gap` event, then the newest come, each resolved.
    let mut live = sse::open(server.addr, "/g/long/events", None).unwrap();
    let first = live.next_event().unwrap().expect("an event");
    assert_eq!(first.kind, "gap", "{first:?}");
    let gap = data_of(&first);
    assert_eq!(gap["from"], 1, "{gap}");
    assert_eq!(gap["to"], ENTRIES - WINDOW, "{gap}");
    assert_eq!(first.id_number(), Some(ENTRIES - WINDOW));
    let newest = live.until(ENTRIES).unwrap();
    assert_eq!(
        ids(&newest),
        (ENTRIES - WINDOW + 1..=ENTRIES).collect::<Vec<_>>()
    );
    let last = data_of(newest.last().unwrap());
    assert_eq!(last["type"], "resolution", "{last}");
    assert_eq!(last["input"], "charge zieten-hussars rolled 3 3", "{last}");
    // The page shows the newest with their stacks.
    let page = server.get("/g/long/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains(&format!("entry-{ENTRIES}")));

    // The log, a page at a time, is `log --json`'s, undone entries marked.
    let whole = cli_json(&game, &["log"]);
    let whole = whole["entries"].as_array().expect("log --json has entries");
    assert_eq!(whole.len() as u64, ENTRIES);
    let mut paged: Vec<Value> = Vec::new();
    let mut after = 0;
    let mut pages = 0;
    loop {
        let r = server.get(&format!("/g/long/log.json?after={after}&limit=1000000"));
        assert_eq!(r.status, 200, "{}", r.text());
        let page = r.json();
        let entries = page["entries"].as_array().expect("entries");
        assert!(entries.len() <= PAGE_MOST, "{} entries", entries.len());
        paged.extend(entries.iter().cloned());
        pages += 1;
        match page.get("next") {
            Some(next) => {
                after = next.as_u64().expect("next is an entry number");
                assert_eq!(
                    Some(after),
                    entries.last().and_then(|e| e["entry"].as_u64())
                );
            }
            None => break,
        }
    }
    assert_eq!(pages, ENTRIES as usize / PAGE_MOST);
    assert_eq!(paged.len(), whole.len());
    for (k, (p, w)) in paged.iter().zip(whole).enumerate() {
        assert_eq!(p, w, "entry {}", k + 1);
    }
    assert!(paged.iter().any(|e| e["undone"] == true));
    // Without a limit, the default page; after the last, nothing.
    let r = server.get("/g/long/log.json?after=99990");
    assert_eq!(r.json()["entries"].as_array().map(Vec::len), Some(10));
    assert!(r.json().get("next").is_none());
    let r = server.get(&format!("/g/long/log.json?after={ENTRIES}"));
    assert_eq!(r.json()["entries"].as_array().map(Vec::len), Some(0));

    let at_end = rss_kib(server.pid());
    eprintln!("{at_end} KiB after every page of the log");
    assert!(at_end < 100 << 10, "{at_end} KiB");
    assert!(after_start < 100 << 10, "{after_start} KiB");
}
