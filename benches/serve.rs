//! `drumhead serve` at a club's evening and then some: CLIENTS live views
//! of one game (200 by default) while a writer adds LINES lines, one every
//! GAP milliseconds. Prints, from each journal append to its delivery at
//! each client, the p50, p99 and worst latency, and the server's memory a
//! client (its VmRSS with the clients connected, less before, over their
//! number). The goal: p99 under 100 ms.
//!
//! An append's time is when the entry's bytes are seen in the journal: a
//! thread here reads the file's new bytes every 0.2 ms, so the figure is
//! the server's own (following the journal, resolving the entry again,
//! writing it out) and the loopback's, not the writer's.
//!
//! Usage: bench/serve.sh [CLIENTS [LINES [GAP]]]   (runs this in release)

#[allow(dead_code)]
#[path = "../tests/serve/http.rs"]
mod http;
#[allow(dead_code)]
#[path = "../tests/serve/sse.rs"]
mod sse;

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_drumhead");

fn arg(n: usize, default: u64) -> u64 {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .nth(n)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

/// The server's resident memory in KiB.
fn rss_kib(pid: i32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// When each entry's line was first seen whole in the journal.
fn watch(
    journal: PathBuf,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<HashMap<u64, Instant>> {
    std::thread::spawn(move || {
        let mut seen = HashMap::new();
        let mut file = std::fs::File::open(&journal).expect("the journal");
        let mut at = file.seek(SeekFrom::End(0)).expect("seek");
        let mut pending = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        while !stop.load(Ordering::Relaxed) {
            let n = file.read(&mut buf).unwrap_or(0);
            if n == 0 {
                std::thread::sleep(Duration::from_micros(200));
                continue;
            }
            let now = Instant::now();
            at += n as u64;
            pending.extend_from_slice(&buf[..n]);
            while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&line)
                    && let Some(entry) = v["entry"].as_u64()
                {
                    seen.insert(entry, now);
                }
            }
        }
        let _ = at;
        seen
    })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let k = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

fn new_game(dir: &Path) -> PathBuf {
    let game = dir.join("club.json");
    let armies = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let status = Command::new(BIN)
        .arg("--game")
        .arg(&game)
        .arg("--army")
        .arg(armies.join("leuthen-1757-prussian.toml"))
        .arg("--army")
        .arg(armies.join("leuthen-1757-austrian.toml"))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("drumhead runs");
    assert!(status.success(), "the game is made");
    game
}

fn main() {
    let clients = arg(0, 200) as usize;
    let lines = arg(1, 200);
    let gap = Duration::from_millis(arg(2, 25));
    let dir = tempfile::Builder::new()
        .prefix("drumhead-serve-bench-")
        .tempdir()
        .expect("a temporary directory");
    let game = new_game(dir.path());
    let server = http::serve(&[&game], &[]);
    std::thread::sleep(Duration::from_millis(500));
    let before = rss_kib(server.pid());

    // Every client connected before the first line.
    let ready = Arc::new(Barrier::new(clients + 1));
    let received = Arc::new(Mutex::new(Vec::<(u64, Instant)>::new()));
    let readers: Vec<_> = (0..clients)
        .map(|n| {
            let (ready, received, addr) = (ready.clone(), received.clone(), server.addr);
            // One phone an address, as in a room: the server caps what one
            // address holds.
            let phone = std::net::Ipv4Addr::new(127, 0, (1 + n / 250) as u8, (1 + n % 250) as u8);
            std::thread::Builder::new()
                .stack_size(256 << 10)
                .spawn(move || {
                    let stream = sse::open_from(phone, addr, "/g/club/events", None);
                    ready.wait();
                    let mut stream = stream.expect("a live view");
                    let mut mine = Vec::with_capacity(lines as usize);
                    while let Ok(Some(e)) = stream.next_event() {
                        let id = e.id_number().expect("an id");
                        mine.push((id, e.at));
                        if id == lines {
                            break;
                        }
                    }
                    received.lock().unwrap().extend(mine);
                })
                .expect("a thread")
        })
        .collect();
    ready.wait();
    std::thread::sleep(Duration::from_secs(1));
    let with_clients = rss_kib(server.pid());

    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch(drumhead::game::Journal::path_for(&game), stop.clone());
    let mut writer = Command::new(BIN)
        .arg("--game")
        .arg(&game)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the writer");
    let mut stdin = writer.stdin.take().expect("stdin");
    let evening = [
        "resilience gren-1 shooting rolled 4 3",
        "hits 1 aus-3",
        "undo",
        "move gren-1 rolled 4",
        "charge zieten-hussars rolled 3 3",
    ];
    for k in 0..lines as usize {
        writeln!(stdin, "{}", evening[k % evening.len()]).expect("the writer reads");
        stdin.flush().expect("flush");
        std::thread::sleep(gap);
    }
    drop(stdin);
    assert!(writer.wait().expect("the writer ends").success());
    for r in readers {
        r.join().expect("a client");
    }
    stop.store(true, Ordering::Relaxed);
    let appended = watcher.join().expect("the watcher");
    let peak = rss_kib(server.pid());

    let received = received.lock().unwrap();
    let mut ms: Vec<f64> = received
        .iter()
        .filter_map(|(id, at)| {
            let appended = appended.get(id)?;
            Some(at.saturating_duration_since(*appended).as_secs_f64() * 1000.0)
        })
        .collect();
    assert_eq!(
        received.len(),
        clients * lines as usize,
        "every client got every entry"
    );
    assert_eq!(ms.len(), received.len(), "every entry's append was seen");
    ms.sort_by(f64::total_cmp);
    println!(
        "{clients} clients, {lines} lines one every {} ms: append → delivery p50 {:.1} ms, p99 {:.1} ms, worst {:.1} ms ({} deliveries)",
        gap.as_millis(),
        percentile(&ms, 0.50),
        percentile(&ms, 0.99),
        ms.last().copied().unwrap_or(0.0),
        ms.len()
    );
    println!(
        "server memory: {before} KiB alone, {with_clients} KiB with {clients} live views ({:.1} KiB a client), {peak} KiB after the evening",
        (with_clients.saturating_sub(before)) as f64 / clients as f64
    );
    let goal = percentile(&ms, 0.99) < 100.0;
    println!(
        "goal p99 < 100 ms: {}",
        if goal { "met" } else { "NOT met" }
    );
}
