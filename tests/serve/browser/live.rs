//! New answers on a page within a second. Issue: "A test in a real
//! browser (headless Chromium …): open `/g/NAME/`, write three lines to
//! the game from a batch, and find all three on the page within a second,
//! each with its stack; the same page at 390×844 shows the roster with no
//! horizontal scrolling".

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Browser, Failed, START, now_ms};
use crate::http::{self, Server};

/// The three lines the batch writes, each with words of its stack.
const THREE: [(&str, &[&str]); 3] = [
    (
        "resilience gren-2 melee rolled 2 5",
        &["Determined", "Outcomes", "10–11", "carry on"],
    ),
    (
        "charge zieten-hussars rolled 3 3",
        &["Charge", "Distances", "entered", "6BW"],
    ),
    ("hits 2 aus-3", &["per", "base", "carried"]),
];

/// What the page shows of each entry, newest first: its id, its line,
/// its stack and when it arrived (if it came live).
const ENTRIES: &str = "JSON.stringify([...document.querySelectorAll('article.entry')].map(a => ({\
     id: a.id, line: (a.querySelector('.line') || {}).innerText || '', \
     stack: (a.querySelector('.answer') || {}).innerText || '', \
     arrived: a.dataset.arrived ? Number(a.dataset.arrived) : null })))";

fn session(program: &Path, profile: &Path, server: &Server, game: &Path) -> Result<(), Failed> {
    let url = format!("{}/g/leuthen/", server.base());
    let mut b = Browser::open(program, profile, &url, (390, 844))?;
    b.until(
        "document.readyState === 'complete' && document.body.dataset.live === 'open'",
        START,
    )?;
    let before: Vec<Value> = serde_json::from_str(b.eval(ENTRIES)?.as_str().unwrap_or("[]"))
        .map_err(|e| Failed::Other(e.to_string()))?;
    if before.len() != 1 {
        return Err(Failed::Other(format!(
            "one entry before the batch: {before:?}"
        )));
    }

    // Three lines from a batch; the clock starts before it does.
    let written = now_ms();
    let started = Instant::now();
    let lines: String = THREE.iter().map(|(l, _)| format!("{l}\n")).collect();
    let (code, _, err) = crate::common::run(&["--game".as_ref(), game.as_os_str()], &lines);
    if code != Some(0) {
        return Err(Failed::Other(format!("the batch failed: {err}")));
    }
    let all_there = "document.querySelectorAll('article.entry').length >= 4";
    b.until(all_there, Duration::from_secs(10))?;
    let seen = started.elapsed();
    let shown: Vec<Value> = serde_json::from_str(b.eval(ENTRIES)?.as_str().unwrap_or("[]"))
        .map_err(|e| Failed::Other(e.to_string()))?;
    // Newest on top: the batch's last line first.
    for (k, (line, stack)) in THREE.iter().rev().enumerate() {
        let entry = &shown[k];
        let text = entry["line"].as_str().unwrap_or_default();
        if !text.contains(line) {
            return Err(Failed::Other(format!(
                "entry {k} is not {line:?}: {shown:#?}"
            )));
        }
        for words in *stack {
            if !entry["stack"].as_str().unwrap_or_default().contains(words) {
                return Err(Failed::Other(format!(
                    "{line}: no {words:?} in its stack: {entry:#?}"
                )));
            }
        }
        let arrived = entry["arrived"]
            .as_u64()
            .ok_or_else(|| Failed::Other(format!("{line} has no data-arrived: {entry:#?}")))?;
        let delay = arrived.saturating_sub(written);
        eprintln!("{line}: on the page {delay} ms after the batch started");
        if delay > 1000 {
            return Err(Failed::Other(format!(
                "{line} reached the page {delay} ms after it was written; at most 1000"
            )));
        }
    }
    eprintln!("all three seen by the test {seen:?} after the batch started");

    // At 390×844 the roster is there and nothing scrolls sideways.
    let fit = b.eval(
        "JSON.stringify({inner: window.innerWidth, client: document.documentElement.clientWidth, \
         scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, \
         roster: (document.querySelector('#roster') || {}).innerText || '', \
         turn: (document.querySelector('#turn') || {}).innerText || ''})",
    )?;
    let fit: Value = serde_json::from_str(fit.as_str().unwrap_or("{}"))
        .map_err(|e| Failed::Other(e.to_string()))?;
    eprintln!("at 390×844: {fit}");
    let n = |k: &str| fit[k].as_u64().unwrap_or(u64::MAX);
    if n("inner") != 390 {
        return Err(Failed::Other(format!("the window is not 390 wide: {fit}")));
    }
    if n("scroll") > n("client") || n("body") > n("client") {
        return Err(Failed::Other(format!(
            "the page scrolls sideways at 390: {fit}"
        )));
    }
    let roster = fit["roster"].as_str().unwrap_or_default();
    for words in ["gren-1", "Grenzer battalion (Warasdiner)", "zieten-hussars"] {
        if !roster.contains(words) {
            return Err(Failed::Other(format!(
                "the roster lacks {words:?}: {roster}"
            )));
        }
    }
    // The roster is the state now: aus-3 carries the batch's 2 hits.
    b.until(
        "/aus-3\\s+Grenzer battalion \\(Warasdiner\\)\\s+4\\/4 bases\\s+100%\\s+2\\s/\
         .test(document.querySelector('#roster').innerText)",
        Duration::from_secs(5),
    )?;
    if !fit["turn"].as_str().unwrap_or_default().contains('1') {
        return Err(Failed::Other(format!("the turn is not shown: {fit}")));
    }
    Ok(())
}

#[test]
fn a_real_browser_sees_new_answers_within_a_second_and_fits_a_phone() {
    let Some(program) = super::required() else {
        return;
    };
    // Each attempt a fresh profile, game and server: a crash may have come
    // after the batch wrote its lines.
    super::attempts(|here| {
        let game = crate::new_game(here, "leuthen");
        crate::batch(&game, "move gren-1 rolled 4\n");
        let server = http::serve(&[&game], &[]);
        session(&program, &here.join("profile"), &server, &game)
    });
}
