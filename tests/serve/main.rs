//! `drumhead serve`, black-box: the server is run as a program and spoken
//! to over loopback, the game written by batches of the same binary, and
//! every answer compared with what the command line prints for the same
//! game. The tests in a real browser are in `serve/browser/`, the
//! pictures of `docs/` in `serve/pictures.rs`.

mod attacks;
mod browser;
// Not every shared helper is used here.
#[allow(dead_code)]
#[path = "../suite/common/mod.rs"]
mod common;
mod http;
mod long_game;
mod pictures;
mod pocket;
mod sse;
mod stream;
mod umpire;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use common::game::journal_of;
use http::serve;

/// A directory of this test's own, on a tmpfs when there is one: a
/// journal entry is synced to disk, and these tests write thousands.
fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir()
        && let Ok(dir) = tempfile::Builder::new()
            .prefix("drumhead-serve-")
            .tempdir_in(shm)
    {
        return dir;
    }
    tempfile::Builder::new()
        .prefix("drumhead-serve-")
        .tempdir()
        .expect("a temporary directory")
}

/// A new game of the two Leuthen armies, `NAME.json` in `dir`.
fn new_game(dir: &Path, name: &str) -> PathBuf {
    common::game::new_game(dir, &format!("{name}.json"))
}

/// A new game of armies of three rule systems, `NAME.json` in `dir`:
/// Leuthen (Drums and Muskets), Quatre Bras (Musket & Saber) and the
/// raid on the blockhouse (Musket Mayhem).
fn mixed_game(dir: &Path, name: &str) -> PathBuf {
    let game = dir.join(format!("{name}.json"));
    let mut args = common::game::shipped(&[
        "leuthen-1757-prussian.toml",
        "leuthen-1757-austrian.toml",
        "quatre-bras-1815-allied.toml",
        "quatre-bras-1815-french.toml",
        "fiw-raid-french.toml",
        "fiw-raid-colonial.toml",
    ]);
    args.extend(["--game".into(), game.display().to_string()]);
    let (code, _, err) = common::run(&args, "");
    assert_eq!(code, Some(0), "{err}");
    game
}

/// The entries `browser::phone::EVENING` makes.
const EVENING_ENTRIES: usize = browser::phone::EVENING.len();

/// `printf LINES | drumhead --game GAME --json`: each answer, parsed.
fn batch(game: &Path, lines: &str) -> Vec<Value> {
    let args = ["--game".to_string(), game.display().to_string()];
    let (ok, answers, err) = common::run_json(&args, lines);
    assert!(ok, "the batch resolves every line: {err}\n{answers:?}");
    answers
}

/// One-shot `drumhead --game GAME --json ARGS…`, parsed.
fn cli_json(game: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--game".to_string(), game.display().to_string()];
    all.extend(args.iter().map(|s| s.to_string()));
    let (_, answers, err) = common::run_json(&all, "");
    answers
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{args:?} printed no JSON: {err}"))
}

/// Lines that each make one journal entry on a Leuthen game, undo among
/// them: `n` of them.
fn evening(n: usize) -> String {
    const LINES: [&str; 6] = [
        "resilience gren-1 shooting rolled 4 3",
        "hits 1 aus-3",
        "undo",
        "move gren-1 rolled 4",
        "charge zieten-hussars rolled 3 3",
        "resilience gren-2 melee rolled 2 5",
    ];
    (0..n)
        .map(|i| format!("{}\n", LINES[i % LINES.len()]))
        .collect()
}

/// An answer without its `line`: the CLI numbers a batch's lines, the
/// server its entries.
fn unnumbered(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("line");
    }
    v
}

/// The JSON of one event, which must be one `data:` line.
fn data_of(e: &sse::Event) -> Value {
    assert_eq!(e.data.len(), 1, "one data line an event: {e:?}");
    serde_json::from_str(&e.data[0]).unwrap_or_else(|err| panic!("not JSON ({err}): {e:?}"))
}

/// The ids of `events`, which must all be numbers.
fn ids(events: &[sse::Event]) -> Vec<u64> {
    events
        .iter()
        .map(|e| e.id_number().unwrap_or_else(|| panic!("no id: {e:?}")))
        .collect()
}

fn entries_in_log(game: &Path) -> Vec<u64> {
    cli_json(game, &["log"])["entries"]
        .as_array()
        .expect("log --json has entries")
        .iter()
        .map(|e| e["entry"].as_u64().expect("an entry number"))
        .collect()
}

#[test]
fn serves_the_named_games_and_no_path_leaves_them() {
    // "It prints `serving http://HOST:PORT/` as its first line on standard
    // output … port 0 picks a free port and prints it. Each game is named
    // by its file name without `.json`."
    let dir = scratch();
    let alpha = new_game(dir.path(), "alpha");
    let beta = new_game(dir.path(), "beta");
    let secret = new_game(dir.path(), "secret");
    batch(&secret, "hits 1 aus-3\n");
    let server = serve(&[&alpha, &beta], &[]);
    assert!(server.addr.ip().is_loopback(), "{}", server.first_line);
    assert_ne!(server.addr.port(), 0, "port 0 picks a free port");

    // "`GET /` — the games being served, each a link."
    let index = server.get("/");
    assert_eq!(index.status, 200, "{}", index.text());
    assert!(
        index
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/html")),
        "{:?}",
        index.headers
    );
    let html = index.text();
    for name in ["alpha", "beta"] {
        assert!(html.contains(&format!("href=\"/g/{name}/\"")), "{html}");
        assert_eq!(server.get(&format!("/g/{name}/")).status, 200);
    }
    assert!(!html.contains("secret"), "{html}");

    // "nothing but the named games is served (no path leaves them)".
    let journal = std::fs::read_to_string(journal_of(&secret)).unwrap();
    let chain = journal.lines().nth(1).unwrap()[..40].to_string();
    for path in [
        "/g/secret/",
        "/g/secret/units.json",
        "/g/secret/events",
        "/g/alpha.json",
        "/g/alpha/alpha.json",
        "/g/alpha/alpha.json.journal",
        "/g/alpha/../secret/log.json",
        "/g/../../etc/passwd",
        "/g/alpha/../../../../etc/passwd",
        "/g/%2e%2e/%2e%2e/etc/passwd",
        "/g/alpha/..%2f..%2fsecret.json",
        "/g/..%2fsecret/log.json",
        "/../../etc/passwd",
        "//etc/passwd",
        "/g/alpha/%00",
        "/etc/passwd",
        "/g/",
        "/g/gamma/",
    ] {
        let r = server.get(path);
        assert!(
            r.status == 404 || r.status == 400,
            "GET {path}: {} {}",
            r.status,
            r.text()
        );
        let body = r.text();
        assert!(!body.contains("root:"), "GET {path}: {body}");
        assert!(!body.contains(&chain), "GET {path} shows the secret game");
        assert!(!body.contains("aus-3"), "GET {path} shows a game: {body}");
    }
    // An unknown game is 404, whatever follows its name.
    for path in [
        "/g/gamma/",
        "/g/gamma/events",
        "/g/gamma/odds?line=roll%202d6",
    ] {
        assert_eq!(server.get(path).status, 404, "GET {path}");
    }
    // `--listen` defaults to loopback, port 7878.
    let help = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("127.0.0.1:7878"), "{help}");
}

#[test]
fn help_serve_answers_as_serve_help_does() {
    // "`drumhead help serve` and `drumhead serve --help` both answer",
    // and so does `help TASK` for the program's other tasks, in a batch
    // too.
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_drumhead"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    };
    for task in ["serve", "replay", "repair", "roster"] {
        let help = run(&["help", task]);
        assert_eq!(help, run(&[task, "--help"]), "help {task}");
        assert!(help.contains(&format!("Usage: drumhead {task}")), "{help}");
    }
    assert!(run(&["help", "serve"]).contains("--umpire"));
    let (ok, answers, err) = common::run_json::<&str>(&[], "help serve\n");
    assert!(ok, "{err}");
    assert!(
        answers[0]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("--listen"),
        "{answers:?}"
    );
}

#[test]
fn the_json_views_are_what_the_command_line_prints() {
    // "`GET /g/NAME/units.json` and `GET /g/NAME/log.json` — the same JSON
    // as `units --json` and `log --json`."
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    // Issue 35: "Sides by name everywhere (initiative, melee, log, …, the
    // page)": an initiative's outcome is the side, named by its army.
    batch(
        &game,
        &format!("{}initiative rolled 6 6 6 6 6 6 6 1 1 1 1\n", evening(9)),
    );
    let server = serve(&[&game], &[]);
    let log = server.get("/g/leuthen/log.json").json();
    let last = log["entries"].as_array().and_then(|e| e.last()).cloned();
    assert_eq!(
        last.as_ref().map(|e| (&e["outcome"], &e["outcome_named"])),
        Some((&Value::from("a"), &Value::from("Prussia"))),
        "{log}"
    );
    for (path, verb) in [("units.json", "units"), ("log.json", "log")] {
        let r = server.get(&format!("/g/leuthen/{path}"));
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        assert!(
            r.header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{path}: {:?}",
            r.headers
        );
        assert_eq!(
            unnumbered(r.json()),
            unnumbered(cli_json(&game, &[verb])),
            "{path} is `{verb} --json`"
        );
    }
    // "`GET /g/NAME/odds?line=LINE` — the answer of `odds LINE` as JSON …;
    // it never touches the game".
    let before = std::fs::read(journal_of(&game)).unwrap();
    for line in [
        "resilience gren-1 melee +lost-round",
        "resilience shooting +determined compare +hit",
        "charge zieten-hussars",
    ] {
        let query = line.replace(' ', "%20").replace('+', "%2B");
        let r = server.get(&format!("/g/leuthen/odds?line={query}"));
        assert_eq!(r.status, 200, "odds {line}: {}", r.text());
        let odds = r.json();
        assert!(
            odds["type"] == "odds" || odds["type"] == "comparison",
            "{odds}"
        );
        assert_eq!(
            unnumbered(odds),
            unnumbered(cli_json(&game, &[&format!("odds {line}")])),
            "odds?line={line}"
        );
    }
    // A line odds cannot answer is its error, as `--json` writes it.
    let r = server.get("/g/leuthen/odds?line=resilience%20%2Bdetermind");
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.json()["type"], "error");
    assert_eq!(r.json()["kind"], "unknown_word");
    assert!(r.text().contains("determind"), "{}", r.text());
    assert_eq!(server.get("/g/leuthen/odds").status, 400);
    assert_eq!(std::fs::read(journal_of(&game)).unwrap(), before);
}

#[test]
fn the_page_shows_each_stack_newest_first_with_the_roster_and_the_turn() {
    // "`GET /g/NAME/` — the game, for phones first: the latest
    // resolutions, each with its full modifier stack and outcome as the
    // text output shows it, newest on top; the roster with each unit's
    // state now; the turn. Every number of a stack names its table row.
    // … the page works without JavaScript as a static view."
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    batch(
        &game,
        "hits 2 aus-3\nresilience gren-2 melee rolled 2 5\nnext-turn\ncharge zieten-hussars rolled 3 3\n\
         hits 1 aus-3 # <script>alert(1)</script> & \"Daun's\"\n",
    );
    let server = serve(&[&game], &[]);
    let r = server.get("/g/leuthen/");
    assert_eq!(r.status, 200);
    let html = r.text();
    // Each resolution with its stack, every row named as the text shows
    // it (single words: a stack is wrapped to a phone's width).
    for words in [
        "base",
        "entered",
        "Determined",
        "Attack",
        "Outcomes",
        "10–11",
        "carry on",
        "Distances",
        "6BW",
        "carried",
    ] {
        assert!(html.contains(words), "the page lacks {words:?}:\n{html}");
    }
    // Newest on top.
    let at = |s: &str| {
        html.find(s)
            .unwrap_or_else(|| panic!("the page lacks {s:?}:\n{html}"))
    };
    assert!(at("charge zieten-hussars rolled 3 3") < at("resilience gren-2 melee rolled 2 5"));
    assert!(at("resilience gren-2 melee rolled 2 5") < at("hits 2 aus-3"));
    // The roster with each unit's state now, and the turn.
    for words in [
        "Grenadier Battalion, advance guard (1st)",
        "Grenzer battalion (Warasdiner)",
        "aus-3",
    ] {
        assert!(html.contains(words), "the page lacks {words:?}:\n{html}");
    }
    let lower = html.to_lowercase();
    assert!(
        lower.contains("turn 2") || lower.contains("turn</") || lower.contains("turn: 2"),
        "the turn (2) is shown:\n{html}"
    );
    // Announced to screen readers.
    assert!(html.contains("aria-live="), "{html}");
    // "every string escaped".
    assert!(!html.contains("<script>alert(1)"), "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
}

#[test]
fn two_hundred_clients_each_get_every_event_once_in_order() {
    // "SSE tests on loopback: 200 concurrent clients each receive every
    // event of a 100-line batch, in order, none lost and none twice".
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let server = serve(&[&game], &[]);
    let addr = server.addr;
    let ready = std::sync::Arc::new(std::sync::Barrier::new(201));
    let clients: Vec<_> = (0..200u8)
        .map(|n| {
            let ready = ready.clone();
            std::thread::spawn(move || {
                // 200 phones: the server caps what one address holds.
                let phone = std::net::Ipv4Addr::new(127, 0, 1, n);
                let opened = sse::open_from(phone, addr, "/g/leuthen/events", None);
                ready.wait();
                opened.and_then(|mut s| s.until(100))
            })
        })
        .collect();
    ready.wait();
    let answers = batch(&game, &evening(100));
    assert_eq!(answers.len(), 100);
    assert_eq!(entries_in_log(&game), (1..=100).collect::<Vec<_>>());
    let expected: Vec<Value> = answers.into_iter().map(unnumbered).collect();
    for (n, client) in clients.into_iter().enumerate() {
        let events = client
            .join()
            .expect("a client thread")
            .unwrap_or_else(|e| panic!("client {n}: {e}"));
        assert_eq!(ids(&events), (1..=100).collect::<Vec<_>>(), "client {n}");
        for (k, e) in events.iter().enumerate() {
            assert_eq!(
                unnumbered(data_of(e)),
                expected[k],
                "client {n}, entry {}",
                k + 1
            );
        }
    }
    // An undo is an event of its own.
    assert_eq!(expected[2]["type"], "undo");
}

#[test]
fn last_event_id_resumes_after_the_entry_it_names() {
    // "A client that sends `Last-Event-ID: N` receives every entry after N
    // first, so a phone that slept catches up."
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let first = batch(&game, &evening(10));
    let server = serve(&[&game], &[]);
    let mut phone = sse::open(server.addr, "/g/leuthen/events", None).unwrap();
    assert_eq!(ids(&phone.until(6).unwrap()), (1..=6).collect::<Vec<_>>());
    drop(phone); // it sleeps…
    let more = batch(&game, &evening(15)); // entries 11..=25
    let mut phone = sse::open(server.addr, "/g/leuthen/events", Some("6")).unwrap();
    let caught = phone.until(25).unwrap();
    assert_eq!(ids(&caught), (7..=25).collect::<Vec<_>>());
    let all: Vec<Value> = first.into_iter().chain(more).map(unnumbered).collect();
    for e in &caught {
        let k = e.id_number().unwrap() as usize - 1;
        assert_eq!(unnumbered(data_of(e)), all[k], "entry {}", k + 1);
    }
    // After the last entry: only what comes next.
    let mut awake = sse::open(server.addr, "/g/leuthen/events", Some("25")).unwrap();
    batch(&game, "hits 1 aus-3\n");
    let next = awake.until(26).unwrap();
    assert_eq!(ids(&next), vec![26]);
}

/// Bytes the kernel holds unsent (or unacknowledged) on the server's end
/// of the loopback connection from `client_port` to `server_port`, from
/// /proc/net/tcp: what a server blocked on a slow client has in hand.
fn server_send_queue(server_port: u16, client_port: u16) -> Option<u64> {
    let table = std::fs::read_to_string("/proc/net/tcp").ok()?;
    let port = |addr: &str| u16::from_str_radix(addr.rsplit(':').next()?, 16).ok();
    table.lines().skip(1).find_map(|row| {
        let f: Vec<&str> = row.split_whitespace().collect();
        (port(f.get(1)?)? == server_port && port(f.get(2)?)? == client_port)
            .then(|| u64::from_str_radix(f.get(4)?.split(':').next()?, 16).ok())
            .flatten()
    })
}

#[test]
fn a_client_that_stops_reading_does_not_delay_the_others() {
    // "a client that stops reading does not delay the others": one client
    // with a small socket buffer asks for a long game's every entry, with
    // its text, and never reads, so the server's writes to it block.
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    batch(&game, &evening(10_000));
    let server = serve(&[&game], &[]);
    let stalled =
        sse::open_with(server.addr, "/g/leuthen/events?with=text", None, Some(4096)).unwrap();
    // A client that reads the same: the server has it all to send (the
    // newest 1,024 entries, its window, SERVE_WINDOW in src/limits.rs).
    let mut reader = sse::open(server.addr, "/g/leuthen/events?with=text", None).unwrap();
    let whole = reader.until(10_000).unwrap();
    assert_eq!(ids(&whole), (8_977..=10_000).collect::<Vec<_>>());
    let others: Vec<_> = (0..20)
        .map(|n| {
            // Twenty phones, each its own address.
            let phone = std::net::Ipv4Addr::new(127, 0, 2, n + 1);
            let mut s =
                sse::open_from(phone, server.addr, "/g/leuthen/events", Some("10000")).unwrap();
            std::thread::spawn(move || s.until(10_030))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let backed_up = server_send_queue(
        server.addr.port(),
        stalled.socket.local_addr().unwrap().port(),
    );
    let start = Instant::now();
    batch(&game, &evening(30));
    for r in others {
        let got = r.join().unwrap().expect("every new entry");
        assert_eq!(ids(&got), (10_001..=10_030).collect::<Vec<_>>());
        let last = got.last().unwrap().at.duration_since(start);
        assert!(
            last < Duration::from_secs(5),
            "the last entry took {last:?} to reach a client"
        );
    }
    // The stalled client really did back the server up.
    if let Some(queued) = backed_up {
        assert!(
            queued > 0,
            "the server had nothing waiting for the stalled client"
        );
        eprintln!("the server held {queued} bytes for the stalled client");
    }
    assert_eq!(server.get("/g/leuthen/log.json").status, 200);
    drop(stalled);
}

/// A client reading `/g/leuthen/events` on a thread until its socket is
/// shut: its socket, and every event it saw or how its stream broke.
fn follower(
    addr: std::net::SocketAddr,
) -> (
    std::net::TcpStream,
    std::thread::JoinHandle<Result<Vec<sse::Event>, String>>,
) {
    let mut stream = sse::open(addr, "/g/leuthen/events", None).unwrap();
    let socket = stream.socket.try_clone().unwrap();
    let handle = std::thread::spawn(move || {
        let mut got = Vec::new();
        loop {
            match stream.next_event() {
                Ok(Some(e)) => got.push(e),
                Ok(None) => return Ok(got),
                // The socket shut by the test, between two events.
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(got),
                Err(e) => return Err(format!("{e} after {} events", got.len())),
            }
        }
    });
    (socket, handle)
}

#[test]
fn a_writer_killed_mid_line_leaves_every_client_whole_entries() {
    // "a writer killed mid-line leaves every client with whole entries
    // only", and the server serving after it.
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    batch(&game, &evening(5));
    let server = serve(&[&game], &[]);
    let clients: Vec<_> = (0..5).map(|_| follower(server.addr)).collect();

    // Half an entry, as a writer killed mid-write leaves it.
    let journal = journal_of(&game);
    let whole = std::fs::read(&journal).unwrap();
    let last = whole[..whole.len() - 1]
        .rsplit(|b| *b == b'\n')
        .next()
        .unwrap()
        .to_vec();
    let half =
        String::from_utf8_lossy(&last[..last.len() / 2]).replace("\"entry\":5", "\"entry\":6");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap()
        .write_all(half.as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(server.get("/g/leuthen/log.json").status, 200);

    // A batch killed with SIGKILL in the middle of its lines.
    let mut killed = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .arg("--game")
        .arg(&game)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = killed.stdin.take().unwrap();
    let lines = evening(200_000);
    let feeding = std::thread::spawn(move || {
        let _ = stdin.write_all(lines.as_bytes());
    });
    std::thread::sleep(Duration::from_millis(300));
    let _ = killed.kill();
    let _ = killed.wait();
    let _ = feeding.join();
    // The next writer cuts what was cut short, and writes on.
    batch(&game, &evening(7));
    let log: Vec<Value> = cli_json(&game, &["log"])["entries"]
        .as_array()
        .unwrap()
        .clone();
    let n = log.len() as u64;
    assert!(n >= 12, "{n} entries");
    eprintln!("{n} entries after the killed batch and the next");
    // Time for the server to send the last: then each client hangs up.
    std::thread::sleep(Duration::from_secs(3));
    for (socket, handle) in clients {
        let _ = socket.shutdown(std::net::Shutdown::Both);
        let events = handle.join().unwrap().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ids(&events), (1..=n).collect::<Vec<_>>());
        for e in &events {
            let data = data_of(e);
            let k = e.id_number().unwrap() as usize - 1;
            assert_eq!(log[k]["entry"], k as u64 + 1);
            let input = data["input"].as_str().unwrap_or_default();
            let line = log[k]["line"].as_str().unwrap_or("undo");
            assert_eq!(input, line, "entry {}: {data}", k + 1);
        }
    }
    assert_eq!(server.get("/").status, 200);
}

#[test]
fn the_umpire_writes_with_the_token_and_nobody_else_writes() {
    // "`--umpire` prints a second line `umpire
    // http://HOST:PORT/g/NAME/umpire#TOKEN` for each game … `POST
    // /g/NAME/lines` with `Authorization: Bearer TOKEN` and a line as the
    // body is resolved as a writer of that game … and answers its JSON;
    // without the token it is refused (401), and nothing else ever writes."
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let other = new_game(dir.path(), "kolin");
    let server = serve(&[&game, &other], &["--umpire"]);
    let base = server.base();
    for (n, name) in ["leuthen", "kolin"].iter().enumerate() {
        let line = &server.umpire_lines[n];
        let prefix = format!("umpire {base}/g/{name}/umpire#");
        assert!(line.starts_with(&prefix), "{line:?} starts {prefix:?}");
        assert!(server.token(n).len() >= 32, "a long token: {line}");
    }
    let token = server.token(0);
    assert_ne!(token, server.token(1), "each game has its own token");
    let page = server.get("/g/leuthen/umpire");
    assert_eq!(page.status, 200);
    assert!(
        !page.text().contains(&token),
        "the page never holds the token"
    );

    let mut live = sse::open(server.addr, "/g/leuthen/events", None).unwrap();
    let r = server.post_line("leuthen", "hits 2 aus-3", Some(&format!("Bearer {token}")));
    assert_eq!(r.status, 200, "{}", r.text());
    let answer = r.json();
    assert_eq!(answer["type"], "resolution", "{answer}");
    assert_eq!(answer["input"], "hits 2 aus-3");
    assert_eq!(entries_in_log(&game), vec![1]);
    let event = live.until(1).unwrap();
    assert_eq!(unnumbered(data_of(&event[0])), unnumbered(answer));
    // A line that does not resolve is its error, and writes nothing.
    let r = server.post_line(
        "leuthen",
        "hits lots aus-3",
        Some(&format!("Bearer {token}")),
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.json()["type"], "error");

    // Without the token, nothing is written.
    let journal = std::fs::read(journal_of(&game)).unwrap();
    let wrong = format!("Bearer {}", "0".repeat(token.len()));
    let almost = format!("Bearer {}x", &token[..token.len() - 1]);
    let kolin = format!("Bearer {}", server.token(1));
    let lower = format!("bearer{token}");
    for auth in [
        None,
        Some(wrong.as_str()),
        Some(almost.as_str()),
        Some(kolin.as_str()),
        Some(token.as_str()),
        Some(lower.as_str()),
        Some("Bearer "),
        Some("Basic dXNlcjpwYXNz"),
    ] {
        let r = server.post_line("leuthen", "hits 1 aus-3", auth);
        assert_eq!(r.status, 401, "{auth:?}: {}", r.text());
    }
    assert_eq!(std::fs::read(journal_of(&game)).unwrap(), journal);
    // The token is never logged.
    assert!(
        !server.stderr_text().contains(&token),
        "{}",
        server.stderr_text()
    );

    // Without --umpire nobody writes, token or not.
    drop(server);
    let server = serve(&[&game], &[]);
    let r = server.post_line("leuthen", "hits 1 aus-3", Some(&format!("Bearer {token}")));
    assert!(
        [401, 403, 404, 405].contains(&r.status),
        "{}: {}",
        r.status,
        r.text()
    );
    assert_eq!(server.get("/g/leuthen/umpire").status, 404);
    assert_eq!(std::fs::read(journal_of(&game)).unwrap(), journal);
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    // "Bad input: `/g/../../etc/passwd`, an unknown game, a 10 MB request,
    // a wrong or missing token, and an odds line past the limits are each
    // refused with the right status and nothing written." (The paths and
    // the token are in the tests above; here the sizes and the odds.)
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    batch(&game, &evening(3));
    let server = serve(&[&game], &["--umpire"]);
    let token = server.token(0);
    let journal = std::fs::read(journal_of(&game)).unwrap();
    let ten_mb = 10 << 20;

    // A 10 MB line, with the right token.
    let mut raw = format!(
        "POST /g/leuthen/lines HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nContent-Length: {ten_mb}\r\n\r\n",
        server.addr
    )
    .into_bytes();
    raw.extend(std::iter::repeat_n(b'a', ten_mb));
    let clock = Instant::now();
    let r = http::request_bytes(server.addr, raw).expect("an answer to 10 MB");
    eprintln!("10 MB body: {} in {:?}", r.status, clock.elapsed());
    assert_eq!(r.status, 413, "{}", r.text());
    // The same sent in chunks, without a length.
    let mut raw = format!(
        "POST /g/leuthen/lines HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nTransfer-Encoding: chunked\r\n\r\n",
        server.addr
    )
    .into_bytes();
    for _ in 0..(ten_mb / 65536) {
        raw.extend(b"10000\r\n");
        raw.extend(std::iter::repeat_n(b'a', 65536));
        raw.extend(b"\r\n");
    }
    raw.extend(b"0\r\n\r\n");
    let clock = Instant::now();
    let r = http::request_bytes(server.addr, raw).expect("an answer to 10 MB in chunks");
    eprintln!("10 MB in chunks: {} in {:?}", r.status, clock.elapsed());
    assert_eq!(r.status, 413, "{}", r.text());
    // 10 MB of headers.
    let raw = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: {}\r\n\r\n",
        server.addr,
        "a".repeat(ten_mb)
    );
    let clock = Instant::now();
    let headers = http::request(server.addr, &raw);
    eprintln!("10 MB of headers: answered in {:?}", clock.elapsed());
    match headers {
        Ok(r) => assert!(
            [400, 413, 431].contains(&r.status),
            "{}: {}",
            r.status,
            r.text()
        ),
        // Closing the connection is refusing it too.
        Err(e) => eprintln!("10 MB of headers: {e}"),
    }
    // A line over the line limit: a 413, not resolved.
    let long = "resilience%20".to_string() + &"%2Bdetermined%20".repeat(400);
    let r = server.get(&format!("/g/leuthen/odds?line={long}"));
    assert!([413, 422].contains(&r.status), "{}: {}", r.status, r.text());
    let r = server.post_line(
        "leuthen",
        &"hits 1 aus-3 ".repeat(400),
        Some(&format!("Bearer {token}")),
    );
    assert!([413, 422].contains(&r.status), "{}: {}", r.status, r.text());
    // Odds past the limits of a line: its error, as --json writes it.
    for line in [
        "roll%20500d6",
        "roll%2020000d6",
        "simulate%2010000000000%20roll%202d6",
    ] {
        let r = server.get(&format!("/g/leuthen/odds?line={line}"));
        assert_eq!(r.status, 422, "odds {line}: {}", r.text());
        assert_eq!(r.json()["type"], "error");
        if line.starts_with("roll") {
            assert_eq!(r.json()["kind"], "over_limit", "odds {line}");
        }
    }
    // Nothing but odds from the odds view.
    let r = server.get("/g/leuthen/odds?line=hits%205%20aus-3");
    assert!(r.status == 200 || r.status == 422, "{}", r.text());
    // Garbage, and a request cut short.
    for raw in [
        "\x00\x01\x02garbage\r\n\r\n",
        "GET /g/leuthen/ HTTP/9.9\r\n\r\n",
        "BREW /g/leuthen/ HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /g/leuthen/",
    ] {
        let _ = http::send_and_hang_up(server.addr, raw.as_bytes(), Duration::from_secs(5));
    }
    // None of it wrote a thing, and the server still answers.
    assert_eq!(std::fs::read(journal_of(&game)).unwrap(), journal);
    assert_eq!(server.get("/g/leuthen/").status, 200);
    let r = server.post_line("leuthen", "hits 1 aus-3", Some(&format!("Bearer {token}")));
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn odds_requests_of_one_client_are_capped() {
    // "odds requests per client capped, each limit named in the manual".
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let server = serve(&[&game], &[]);
    let statuses: Vec<u16> = (0..200)
        .map(|_| server.get("/g/leuthen/odds?line=roll%202d6").status)
        .collect();
    assert_eq!(statuses[0], 200);
    assert!(
        statuses.contains(&429),
        "200 odds in a row from one client are never refused: {statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 429),
        "{statuses:?}"
    );
    // The other views still answer that client.
    assert_eq!(server.get("/g/leuthen/log.json").status, 200);
}

#[test]
fn an_entry_that_does_not_re_resolve_is_never_sent() {
    // "It follows each game file … using the journal chain…: never a
    // half-written entry, never an entry that does not re-resolve."
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    batch(&game, &evening(4));
    let server = serve(&[&game], &[]);
    let (socket, reading) = follower(server.addr);
    // A whole line that claims to be entry 5 but breaks the chain.
    let journal = journal_of(&game);
    let text = std::fs::read_to_string(&journal).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let mut forged = last.clone();
    forged["entry"] = 5.into();
    forged["prev"] = "0".repeat(64).into();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap()
        .write_all(format!("{forged}\n").as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(server.get("/").status, 200, "the server is still up");
    let _ = socket.shutdown(std::net::Shutdown::Both);
    let events = reading.join().unwrap().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        ids(&events),
        vec![1, 2, 3, 4],
        "the forged entry is not sent"
    );
}

#[test]
fn sigterm_and_ctrl_c_close_cleanly() {
    // "SIGTERM and Ctrl-C close cleanly" — with a live view open.
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    batch(&game, &evening(2));
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let mut server = serve(&[&game], &[]);
        let mut live = sse::open(server.addr, "/g/leuthen/events", None).unwrap();
        assert_eq!(live.until(2).unwrap().len(), 2);
        let status = server
            .signal(signal, Duration::from_secs(10))
            .unwrap_or_else(|| panic!("signal {signal}: still running after 10 s"));
        assert!(status.success(), "signal {signal}: {status}");
        assert!(!server.running());
        // The live view was ended, not left hanging.
        let started = Instant::now();
        let _ = live.drain();
        assert!(started.elapsed() < Duration::from_secs(10));
    }
    // And the game is as it was.
    assert_eq!(entries_in_log(&game), vec![1, 2]);
    common::game::replay_agrees(&game);
}

#[test]
fn one_process_serves_several_games_each_its_own() {
    // "One process serves several games".
    let dir = scratch();
    let games: Vec<PathBuf> = ["a", "b", "c"]
        .iter()
        .map(|n| new_game(dir.path(), n))
        .collect();
    let refs: Vec<&Path> = games.iter().map(PathBuf::as_path).collect();
    let server = serve(&refs, &[]);
    let mut streams: Vec<sse::Stream> = ["a", "b", "c"]
        .iter()
        .map(|n| sse::open(server.addr, &format!("/g/{n}/events"), None).unwrap())
        .collect();
    for (k, g) in games.iter().enumerate() {
        batch(g, &evening(k + 1));
    }
    for (k, s) in streams.iter_mut().enumerate() {
        let got = s.until(k as u64 + 1).unwrap();
        assert_eq!(ids(&got), (1..=k as u64 + 1).collect::<Vec<_>>());
    }
    for (k, n) in ["a", "b", "c"].iter().enumerate() {
        let log = server.get(&format!("/g/{n}/log.json")).json();
        assert_eq!(log["entries"].as_array().unwrap().len(), k + 1);
    }
}
