//! The umpire's page on a phone-sized screen, typed on as an umpire
//! does: each answer shown as the feed shows it (the same outcome and
//! stack), the reports and odds answered, an error whole with the words
//! at fault marked, the roster beside them, nothing past the screen's
//! edge; and the page's address working again after a restart.

use std::path::Path;
use std::time::Duration;

use super::{Browser, Failed, PHONE, START, Scheme};
use crate::http::{self, Server};

#[test]
fn the_umpires_page_shows_each_answer_as_the_feed_does_and_holds_across_a_restart() {
    let Some(program) = super::required() else {
        return;
    };
    super::attempts(|here| {
        let game = crate::mixed_game(here, "table1");
        crate::batch(&game, &format!("{}\n", super::phone::EVENING.join("\n")));
        let server = http::serve(&[&game], &["--umpire"]);
        umpire(&program, here, server, &game)
    });
}

fn failed(what: impl std::fmt::Display) -> Failed {
    Failed::Other(what.to_string())
}

/// Type `line`, and wait for its answer: the newest in `#answers`.
fn typed(b: &mut Browser, line: &str) -> Result<serde_json::Value, Failed> {
    let before = b.eval("document.querySelectorAll('#answers article').length")?;
    let before = before.as_u64().unwrap_or(0);
    b.type_and_submit("#line", line)?;
    b.until(
        &format!("document.querySelectorAll('#answers article').length > {before}"),
        Duration::from_secs(20),
    )?;
    b.json(
        "JSON.stringify((() => { const a = document.querySelector('#answers article');\
         return {id: a.id, line: a.querySelector('.line').innerText,\
           answer: (a.querySelector('.answer') || {}).innerText || '',\
           html: a.innerHTML}; })())",
    )
}

fn umpire(program: &Path, here: &Path, server: Server, game: &Path) -> Result<(), Failed> {
    let page = server.umpire_lines[0]
        .strip_prefix("umpire ")
        .unwrap_or_default()
        .to_string();
    let mut b = Browser::open(program, &here.join("profile"), "about:blank", PHONE)?;
    b.as_phone(PHONE, Scheme::Light)?;
    b.go(&page)?;
    b.until("document.body.dataset.live === 'open'", START)?;
    // A line that makes an entry: its answer is the feed's.
    let line = "resilience gren-1 shooting rolled 4 3";
    let mine = typed(&mut b, line)?;
    let n = crate::EVENING_ENTRIES + 1;
    if mine["id"] != format!("entry-{n}")
        || !mine["answer"]
            .as_str()
            .is_some_and(|a| a.contains("carry on"))
    {
        return Err(failed(format!("the umpire's answer: {mine:#}")));
    }
    for (line, has) in [
        ("show aus-5", "broken"),
        ("units", "marine-1"),
        ("log", "hits 7 aus-3"),
        ("odds resilience aus-3 melee", "break"),
        ("next-turn", "turn 2"),
        ("undo", "undone: next-turn"),
        (
            "resilence aus-1 shooting +determined +hit +general +general +general +general",
            "did you mean `resilience`",
        ),
    ] {
        let got = typed(&mut b, line)?;
        let text = format!("{} {}", got["answer"], got["html"]);
        if !text.contains(has) {
            return Err(failed(format!("{line}: no {has:?} in {got:#}")));
        }
    }
    let caret = b.eval("!!document.querySelector('#answers .answer.error mark.caret')")?;
    if caret != serde_json::Value::Bool(true) {
        return Err(failed("the error marks no words"));
    }
    let roster = b.eval("document.querySelectorAll('#roster tbody.unit').length")?;
    if roster.as_u64() < Some(60) {
        return Err(failed(format!("no roster beside the answers: {roster}")));
    }
    fits(&mut b)?;

    // The feed shows the same entry, with the same outcome and stack.
    b.go(&format!("{}/g/table1/", server.base()))?;
    let feed = b.json(&format!(
        "JSON.stringify(document.querySelector('#entry-{n} .answer').innerText)"
    ))?;
    if feed != mine["answer"] {
        return Err(failed(format!(
            "the feed shows {feed:#}\nthe umpire's page showed {:#}",
            mine["answer"]
        )));
    }

    // The server is started again: the same address writes.
    let address = server.umpire_lines[0].clone();
    drop(server);
    let again = http::serve(&[game], &["--umpire"]);
    if again.umpire_lines[0] != address {
        return Err(failed(format!(
            "the umpire's address changed: {address} then {}",
            again.umpire_lines[0]
        )));
    }
    b.go(&page)?;
    b.until("document.body.dataset.live === 'open'", START)?;
    let got = typed(&mut b, "hits 1 aus-6")?;
    if got["id"] != format!("entry-{}", n + 3) {
        return Err(failed(format!("after the restart: {got:#}")));
    }
    Ok(())
}

/// Nothing on the umpire's page reaches past the screen.
fn fits(b: &mut Browser) -> Result<(), Failed> {
    let bad = b.json(
        "JSON.stringify([...document.querySelectorAll('*')].filter(e => {\
         const r = e.getBoundingClientRect();\
         return e.scrollWidth > e.clientWidth || (r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5)); })\
         .slice(0, 10).map(e => e.tagName + '.' + e.className + ': ' + (e.innerText || '').slice(0, 60)))",
    )?;
    if bad.as_array().is_none_or(|b| !b.is_empty()) {
        return Err(failed(format!(
            "the umpire's page is wider than the screen: {bad:#}"
        )));
    }
    Ok(())
}
