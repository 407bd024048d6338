//! A game's page on a phone, as a player holds it: 390×844 with mobile
//! emulation, a game of three rule systems (Drums and Muskets, Musket &
//! Saber, Musket Mayhem). Issue 36: "for every element, `scrollWidth <=
//! clientWidth` and nothing extends past the viewport; each stack's
//! values are visible; the roster is reachable from the top with one tap;
//! an undo marks its entry undone live; the disconnected state shows when
//! the server stops."

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::{Browser, Failed, PHONE, START, Scheme};
use crate::http::{self, Server};

/// Every element that is wider inside than it shows, or reaches past the
/// screen's edges: none may be.
pub const OVERFLOWS: &str = "JSON.stringify((() => {\
    const w = window.innerWidth, bad = [];\
    const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +\
      (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '');\
    for (const e of document.querySelectorAll('*')) {\
      const r = e.getBoundingClientRect();\
      if (e.scrollWidth > e.clientWidth) bad.push(name(e) + ' scrolls: ' + e.scrollWidth + ' > ' + e.clientWidth);\
      if (r.width > 0 && (r.left < -0.5 || r.right > w + 0.5))\
        bad.push(name(e) + ' reaches ' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + w + ': ' + (e.innerText || '').slice(0, 60));\
    }\
    return {elements: document.querySelectorAll('*').length, bad: bad.slice(0, 20), inner: w};\
  })())";

/// Each value of every stack, and every outcome: on the screen's width,
/// not empty, not hidden.
const VALUES: &str = "JSON.stringify((() => {\
    const w = window.innerWidth, bad = []; let values = 0, outcomes = 0;\
    const seen = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);\
      return r.width > 0 && r.height > 0 && r.left >= -0.5 && r.right <= w + 0.5 &&\
        s.visibility === 'visible' && s.display !== 'none' && e.innerText.trim() !== ''; };\
    for (const dd of document.querySelectorAll('dl.stack dd')) { values++;\
      if (!seen(dd)) bad.push('value ' + dd.innerText + ' of ' + dd.previousElementSibling.innerText); }\
    for (const o of document.querySelectorAll('.outcome')) { outcomes++;\
      if (!seen(o)) bad.push('outcome ' + o.innerText); }\
    return {values, outcomes, bad};\
  })())";

/// The lines written before the phone looks: each rule system's, with a
/// broken unit, a routed one and a killed figure among them.
pub const EVENING: &[&str] = &[
    "resilience gren-2 melee rolled 2 5",
    "charge zieten-hussars rolled 3 3",
    "melee zieten-hussars vs aus-5 rolled 6 6 6 6 6 5 1 1 1 1 1 1 1 1 1 1 1",
    "resilience aus-5 melee +lost-round rolled 1 1",
    "hits 7 aus-3",
    "resilience aus-3 shooting rolled 2 2",
    "saber attack fr-guiton vs al-bijlandt rolled 6 6",
    "saber attack fr-husson vs al-saxe-weimar rolled 3 3",
    "mayhem fire hawkeye at marine-1 12\" rolled 6 6",
    "roll 2d6 rolled 3 4",
];

#[test]
fn a_phone_shows_every_number_follows_an_undo_and_says_when_the_server_stops() {
    let Some(program) = super::required() else {
        return;
    };
    super::attempts(|here| {
        let game = crate::mixed_game(here, "table1");
        crate::batch(&game, &format!("{}\n", EVENING.join("\n")));
        let server = http::serve(&[&game], &[]);
        phone(&program, here, server, &game)
    });
}

fn failed(what: impl std::fmt::Display) -> Failed {
    Failed::Other(what.to_string())
}

/// Nothing on the page reaches past the screen, and every value is on
/// it: said of the page `what`.
fn fits(b: &mut Browser, what: &str) -> Result<(), Failed> {
    let fit = b.json(OVERFLOWS)?;
    eprintln!("{what}: {} elements checked", fit["elements"]);
    if fit["inner"] != PHONE.0 {
        return Err(failed(format!("{what}: the screen is not 390 wide: {fit}")));
    }
    if fit["bad"].as_array().is_none_or(|b| !b.is_empty()) {
        return Err(failed(format!("{what}: past the screen's width: {fit:#}")));
    }
    let values = b.json(VALUES)?;
    eprintln!("{what}: {values}");
    if values["bad"].as_array().is_none_or(|b| !b.is_empty()) {
        return Err(failed(format!("{what}: values not seen: {values:#}")));
    }
    Ok(())
}

fn phone(program: &Path, here: &Path, server: Server, game: &Path) -> Result<(), Failed> {
    let url = format!("{}/g/table1/", server.base());
    let mut b = Browser::open(program, &here.join("profile"), "about:blank", PHONE)?;
    b.as_phone(PHONE, Scheme::Light)?;
    b.go(&url)?;
    b.until("document.body.dataset.live === 'open'", START)?;
    fits(&mut b, "the feed")?;
    let values = b.json(VALUES)?;
    if values["values"].as_u64().unwrap_or(0) < 40 || values["outcomes"].as_u64() < Some(9) {
        return Err(failed(format!("too few stacks on the page: {values}")));
    }
    // The longest outcome of the evening, whole.
    let outcome =
        b.eval("[...document.querySelectorAll('.outcome')].map(o => o.innerText).join('\\n')")?;
    let outcome = outcome.as_str().unwrap_or_default();
    if !outcome.contains("zieten-hussars (Cavalry) wins the round, 6 hits to 0") {
        return Err(failed(format!(
            "the melee's outcome is not whole: {outcome}"
        )));
    }
    // The example CRT's warning, under both attacks: one folded line,
    // shown once on the page (on the newest attack).
    let standing = b.json(
        "JSON.stringify([...document.querySelectorAll('details.standing')].map(d => \
         ({open: d.open, height: d.getBoundingClientRect().height, \
           entry: d.closest('article').id})))",
    )?;
    let notes = standing.as_array().cloned().unwrap_or_default();
    let shown: Vec<&Value> = notes
        .iter()
        .filter(|d| d["height"].as_f64() > Some(0.0))
        .collect();
    let newest_attack = format!("entry-{}", EVENING.len() - 2);
    if notes.len() != 2
        || shown.len() != 1
        || shown[0]["entry"] != newest_attack.as_str()
        || shown
            .iter()
            .any(|d| d["open"] == true || d["height"].as_f64() > Some(40.0))
    {
        return Err(failed(format!(
            "the example CRT's note is not one folded line, once: {standing}"
        )));
    }
    roster(&mut b)?;
    odds(&mut b)?;
    large_sweep(&mut b)?;
    undo(&mut b, game)?;
    // The server stops: the page says so, in the bar at the top.
    drop(server);
    b.until(
        "document.body.dataset.live === 'closed' && \
         document.querySelector('#connection').offsetHeight > 0 && \
         document.querySelector('#connection').innerText.includes('disconnected') && \
         document.querySelector('#connection').getBoundingClientRect().top < window.innerHeight",
        Duration::from_secs(20),
    )?;
    let said = b.eval("document.querySelector('#connection').innerText")?;
    eprintln!("with the server stopped: {said}");
    fits(&mut b, "the page, disconnected")
}

/// The roster, one tap from the top: each unit a line, the broken, routed
/// and killed marked in words.
fn roster(b: &mut Browser) -> Result<(), Failed> {
    b.eval("window.scrollTo(0, 0)")?;
    let link = b.json(
        "JSON.stringify((() => { const a = document.querySelector('nav.tabs a[href=\"#roster\"]');\
         if (!a) return null; const r = a.getBoundingClientRect();\
         return {top: r.top, bottom: r.bottom, text: a.innerText}; })())",
    )?;
    if link.is_null()
        || link["bottom"]
            .as_f64()
            .is_none_or(|b| b > f64::from(PHONE.1))
    {
        return Err(failed(format!(
            "no Roster link on the first screen: {link}"
        )));
    }
    b.tap("nav.tabs a[href=\"#roster\"]")?;
    b.until(
        "(() => { const t = document.querySelector('#roster').getBoundingClientRect().top;\
         return location.hash === '#roster' && t >= 0 && t < window.innerHeight / 2; })()",
        Duration::from_secs(10),
    )?;
    let units = b.json(
        "JSON.stringify([...document.querySelectorAll('tbody.unit')].map(r => ({\
         id: r.querySelector('.id').innerText, status: r.dataset.status,\
         word: (r.querySelector('.status') || {}).innerText || '',\
         height: r.getBoundingClientRect().height})))",
    )?;
    let units = units.as_array().cloned().unwrap_or_default();
    let find = |id: &str| {
        units
            .iter()
            .find(|u| u["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    };
    for (id, status, word) in [
        ("aus-5", "out", "BROKEN"),
        ("al-bijlandt", "shaken", "ROUTED"),
        ("marine-1", "out", "KILLED"),
        ("gren-1", "fine", ""),
    ] {
        let unit = find(id);
        if unit["status"] != status || !unit["word"].as_str().unwrap_or("?").contains(word) {
            return Err(failed(format!(
                "{id} is not marked {status} {word:?}: {unit}"
            )));
        }
    }
    // A line a unit, as the printed roster: most units take two lines of
    // text (who, then the values), none more than four (a long name and
    // a state in words, each wrapped once).
    let mut heights: Vec<f64> = units.iter().filter_map(|u| u["height"].as_f64()).collect();
    heights.sort_by(f64::total_cmp);
    let median = heights.get(heights.len() / 2).copied().unwrap_or(f64::MAX);
    let (tallest, which) = units
        .iter()
        .filter_map(|u| Some((u["height"].as_f64()?, u["id"].as_str()?)))
        .fold((0.0, ""), |a, b| if b.0 > a.0 { b } else { a });
    eprintln!(
        "{} units, the median line {median} px, the tallest {tallest} px ({which})",
        units.len()
    );
    if units.len() < 60 || median > 52.0 || tallest > 96.0 {
        return Err(failed(format!(
            "the roster is not a line a unit: the median unit is {median} px, {which} {tallest} px"
        )));
    }
    fits(b, "the roster")
}

/// The odds form answers in place, as a table that fits.
fn odds(b: &mut Browser) -> Result<(), Failed> {
    b.tap("nav.tabs a[href=\"#odds\"]")?;
    b.type_and_submit(
        "#odds-line",
        "resilience aus-3 melee +lost-round compare +general",
    )?;
    b.until(
        "document.querySelectorAll('#odds-answer table.chances tbody tr').length >= 3",
        Duration::from_secs(20),
    )?;
    let text = b.eval("document.querySelector('#odds-answer').innerText")?;
    let text = text.as_str().unwrap_or_default();
    for words in ["break", "without", "with", "%"] {
        if !text.contains(words) {
            return Err(failed(format!("the odds lack {words:?}: {text}")));
        }
    }
    fits(b, "the odds")
}

/// A sweep too large for one table (issue 37: sent as it is counted)
/// shows in place as any sweep does: each combination a small table of
/// its own, one under another, all of them fitting the screen. Musket
/// Mayhem, roundshot: "Roll against all figures along flight path
/// needing usual score".
fn large_sweep(b: &mut Browser) -> Result<(), Failed> {
    b.type_and_submit(
        "#odds-line",
        "mayhem fire roundshot 1\"..2\" figures=11..30",
    )?;
    b.until(
        "document.querySelectorAll('#odds-answer section.combination').length === 40 && \
         !document.querySelector('#odds-answer').hasAttribute('aria-busy')",
        Duration::from_secs(60),
    )?;
    let last = b.eval(
        "[...document.querySelectorAll('#odds-answer section.combination h4')].pop().innerText",
    )?;
    if last.as_str() != Some("distance 2\" · figures 30") {
        return Err(failed(format!("the last combination is {last}")));
    }
    fits(b, "a large sweep")
}

/// An entry, then its undo from a batch: the entry is marked undone as
/// the undo arrives, and again when the page is loaded afresh.
fn undo(b: &mut Browser, game: &Path) -> Result<(), Failed> {
    b.eval("window.scrollTo(0, 0)")?;
    let n = crate::EVENING_ENTRIES + 1;
    crate::batch(game, "hits 1 aus-6\n");
    b.until(
        &format!("!!document.getElementById('entry-{n}')"),
        Duration::from_secs(10),
    )?;
    crate::batch(game, "undo\n");
    let marked = format!(
        "(() => {{ const a = document.getElementById('entry-{n}');\
         const m = a && a.querySelector('.undone-mark');\
         return !!document.getElementById('entry-{}') && a.hasAttribute('data-undone') &&\
           !!m && m.offsetHeight > 0 &&\
           getComputedStyle(a.querySelector('.line')).textDecorationLine.includes('line-through'); }})()",
        n + 1
    );
    b.until(&marked, Duration::from_secs(10))?;
    b.call("Page.reload", serde_json::json!({}))?;
    std::thread::sleep(Duration::from_millis(200));
    b.until("document.readyState === 'complete'", START)?;
    b.until(&marked, Duration::from_secs(10))?;
    b.until("document.body.dataset.live === 'open'", START)
}
