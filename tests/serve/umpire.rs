//! The umpire's address across restarts, and what the umpire's page and
//! a player's odds get as pages. Issue 36: "a game's umpire token
//! survives restarts (kept beside the game, mode 0600 …; `--new-token`
//! replaces it) … a server restarted on another port is found again by
//! the phones when possible"; "The umpire page shows, for a line it
//! writes, the same outcome text and stack as the feed; a restart keeps
//! the umpire address working."

use std::os::unix::fs::PermissionsExt;

use super::http::{self, serve};
use super::{batch, journal_of, new_game, scratch};

fn token_file(game: &std::path::Path) -> std::path::PathBuf {
    let mut name = game.as_os_str().to_owned();
    name.push(".token");
    name.into()
}

#[test]
fn a_restart_keeps_the_umpire_address_and_new_token_replaces_it() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    // A reader makes nothing beside the game.
    drop(serve(&[&game], &[]));
    assert!(
        !token_file(&game).exists(),
        "serve without --umpire made a token"
    );

    let first = serve(&[&game], &["--umpire"]);
    let address = first.umpire_lines[0].clone();
    let token = first.token(0);
    let file = token_file(&game);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{}", file.display());
    assert!(
        !std::fs::read_to_string(&file).unwrap().is_empty(),
        "the token is kept"
    );
    let said = first.next_line().unwrap_or_default();
    assert!(
        said.contains("token is new") && said.contains(".token"),
        "{said}"
    );
    drop(first);

    // Started again, on port 0 as before: the same address, token and
    // port, and the umpire's page writes with it.
    let second = serve(&[&game], &["--umpire"]);
    assert_eq!(
        second.umpire_lines[0], address,
        "the umpire's address holds"
    );
    let said = second.next_line().unwrap_or_default();
    assert!(said.contains("the same as last time"), "{said}");
    let r = second.post_line("leuthen", "hits 1 aus-3", Some(&format!("Bearer {token}")));
    assert_eq!(r.status, 200, "{}", r.text());
    drop(second);

    // --new-token: a new address; the old token writes no more.
    let third = serve(&[&game], &["--umpire", "--new-token"]);
    let new = third.token(0);
    assert_ne!(new, token);
    assert_ne!(third.umpire_lines[0], address);
    let journal = std::fs::read(journal_of(&game)).unwrap();
    let r = third.post_line("leuthen", "hits 1 aus-3", Some(&format!("Bearer {token}")));
    assert_eq!(r.status, 401, "{}", r.text());
    assert_eq!(std::fs::read(journal_of(&game)).unwrap(), journal);
    let r = third.post_line("leuthen", "hits 1 aus-3", Some(&format!("Bearer {new}")));
    assert_eq!(r.status, 200, "{}", r.text());
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn a_token_file_that_is_not_one_is_refused_and_left_alone() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let file = token_file(&game);
    // A link to elsewhere: not followed, nothing made there.
    let elsewhere = dir.path().join("elsewhere");
    std::os::unix::fs::symlink(&elsewhere, &file).unwrap();
    for extra in [&["--umpire"][..], &["--umpire", "--new-token"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_drumhead"))
            .arg("serve")
            .args(["--listen", "127.0.0.1:0", "--game"])
            .arg(&game)
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("symbolic link"), "{err}");
        assert!(!elsewhere.exists());
    }
    // A file of the user's: never taken, never written over.
    std::fs::remove_file(&file).unwrap();
    std::fs::write(&file, "my notes\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .arg("serve")
        .args([
            "--listen",
            "127.0.0.1:0",
            "--umpire",
            "--new-token",
            "--game",
        ])
        .arg(&game)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a token file"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my notes\n");
}

/// `POST /g/NAME/lines` asking for a page: the line and its answer as the
/// page shows them.
fn post_html(server: &http::Server, line: &str, token: &str) -> http::Response {
    let head = format!(
        "POST /g/leuthen/lines HTTP/1.1\r\nHost: {}\r\nAccept: text/html\r\n\
         Authorization: Bearer {token}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{line}",
        server.addr,
        line.len()
    );
    http::request(server.addr, &head).unwrap()
}

#[test]
fn the_umpire_and_a_players_odds_get_answers_as_the_page_shows_them() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let server = serve(&[&game], &["--umpire"]);
    let token = server.token(0);
    // A line that makes an entry: the entry as the feed shows it.
    let r = post_html(&server, "resilience gren-1 shooting rolled 4 3", &token);
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("text/html")),
        "{:?}",
        r.headers
    );
    let answer = r.text();
    assert!(answer.contains(r#"id="entry-1""#), "{answer}");
    // The follower publishes the entry once it has read it again.
    let started = std::time::Instant::now();
    let page = loop {
        let page = server.get("/g/leuthen/").text();
        if page.contains(r#"id="entry-1""#) || started.elapsed() > http::PATIENCE {
            break page;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let stack = |html: &str| -> String {
        let from = html.find("<div class=\"answer").expect("an answer");
        let to = html[from..].find("</article>").expect("its end") + from;
        html[from..to].to_string()
    };
    assert_eq!(
        stack(&answer),
        stack(&page),
        "the umpire's answer is the feed's"
    );
    assert!(answer.contains("<dl class=\"stack\">"), "{answer}");
    assert!(answer.contains("⇒ carry on"), "{answer}");
    // The game's reports, and odds, as the feed shows them; an error
    // with the words at fault marked.
    for (line, has) in [
        ("show gren-1", "<dl class=\"stack\">"),
        ("units", "<table class=\"units\">"),
        ("log", "<ol class=\"log\">"),
        ("odds resilience gren-1 melee", "<table class=\"chances\">"),
        ("next-turn", "⇒ turn 2"),
        ("undo", "⇒ undone: next-turn"),
    ] {
        let r = post_html(&server, line, &token);
        assert_eq!(r.status, 200, "{line}: {}", r.text());
        assert!(r.text().contains(has), "{line}: {}", r.text());
    }
    let r = post_html(&server, "resilence gren-1 shooting", &token);
    assert_eq!(r.status, 422, "{}", r.text());
    let error = r.text();
    assert!(error.contains("did you mean `resilience`"), "{error}");
    assert!(
        error.contains(r#"<mark class="caret" title="here">resilence</mark> gren-1 shooting"#),
        "{error}"
    );
    // JSON, as before, without the asking.
    let r = server.post_line("leuthen", "units", Some(&format!("Bearer {token}")));
    assert_eq!(r.json()["type"], "roster");

    // A player's odds in a browser: a page, with the form and a table.
    let odds = http::request(
        server.addr,
        &format!(
            "GET /g/leuthen/odds?line=resilience%20gren-1%20melee HTTP/1.1\r\nHost: {}\r\n\
             Accept: text/html,application/xhtml+xml\r\n\r\n",
            server.addr
        ),
    )
    .unwrap();
    assert_eq!(odds.status, 200);
    let html = odds.text();
    for has in [
        "<form id=\"odds-form\"",
        "<table class=\"chances\">",
        "carry on",
        ">resilience gren-1 melee</textarea>",
    ] {
        assert!(html.contains(has), "{has}: {html}");
    }
    assert!(odds.header("vary").is_some_and(|v| v.contains("accept")));
    // The JSON stays at its address for scripts.
    let r = server.get("/g/leuthen/odds?line=resilience%20gren-1%20melee");
    assert_eq!(r.json()["type"], "odds");
}

/// Issue 37: "The server resolves a line once: the desk's answer is what
/// the feed shows; the follower only reads what other writers appended."
/// A POSTed line, then a player's odds on the game it left, then a batch
/// of another writer: `--stats` counts each once, and the feed shows each
/// entry with the answer its writer got.
#[test]
fn a_posted_line_is_resolved_once_in_the_server() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let mut server = serve(&[&game], &["--umpire", "--stats"]);
    let token = server.token(0);
    let r = server.post_line("leuthen", "hits 1 aus-3", Some(&format!("Bearer {token}")));
    assert_eq!(r.status, 200, "{}", r.text());
    let answered = r.json();
    // Published by the desk before it answered: in the feed at once.
    let log = server.get("/g/leuthen/log.json").json();
    assert!(
        log.to_string().contains("hits 1 aus-3"),
        "the entry is in the log as soon as the umpire has the answer: {log}"
    );
    // The odds desk answers on the game as the line left it, without
    // resolving the line again.
    let r = server.get("/g/leuthen/odds?line=resilience%20aus-3%20shooting");
    assert_eq!(r.status, 200, "{}", r.text());
    // Another writer's entry: resolved again by the game's thread, once.
    batch(&game, "hits 1 gren-1\n");
    let started = std::time::Instant::now();
    while !server
        .get("/g/leuthen/log.json")
        .text()
        .contains("hits 1 gren-1")
    {
        assert!(
            started.elapsed() < http::PATIENCE,
            "the batch's entry is not followed"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = server.signal(libc::SIGTERM, http::PATIENCE);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let started = std::time::Instant::now();
    let said = loop {
        let err = server.stderr_text();
        if err.contains("stats:") || started.elapsed() > http::PATIENCE {
            break err;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // The POSTed line, the odds line and the batch's line: once each.
    assert!(
        said.contains("stats: 3 commands resolved"),
        "each line resolved once: {said}"
    );
    assert_eq!(answered["type"], "resolution", "{answered}");
}
