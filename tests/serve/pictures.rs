//! The pictures of the live view in `docs/`: the feed, the roster, the
//! umpire's page and the odds form of an evening, on a phone (390×844,
//! mobile emulation), light and dark. `docs/screenshots.sh` makes them
//! (it runs `make_the_pictures`, ignored otherwise) with a manifest,
//! `docs/screenshots.sha256`: the digest of what the pictures were made
//! from (the stylesheet and scripts served, and every page and answer
//! the browser was given, which the lines below make the same each
//! time), then each picture's. `the_pictures_are_of_the_page_served`
//! makes those pages again, without a browser, and fails when the digest
//! differs (the page changed since the pictures were made) or a picture
//! is not the one the manifest names.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::browser::{self, Browser, Failed, PHONE, START, Scheme};
use super::http::{self, Server};

/// What the umpire types on the umpire's page, in the pictures.
const UMPIRE_LINES: &[&str] = &[
    "resilence aus-1 shooting",
    "show aus-5",
    "resilience gren-1 shooting rolled 4 3",
];

/// What a player asks on the odds form.
const ODDS_LINE: &str = "resilience aus-3 melee +lost-round compare +general";

/// Each picture: what it shows, in each scheme.
const SHOWN: &[&str] = &["feed", "roster", "umpire", "odds"];

const SCHEMES: [Scheme; 2] = [Scheme::Light, Scheme::Dark];

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
}

fn manifest() -> PathBuf {
    docs().join("screenshots.sha256")
}

fn picture_name(shown: &str, scheme: Scheme) -> String {
    format!("serve-{shown}-{}.png", scheme.name())
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// An evening to picture: a game of three rule systems named `table1`
/// with the phone test's lines played, served with `--umpire`.
struct Scene {
    _dir: tempfile::TempDir,
    server: Server,
}

impl Scene {
    fn new() -> Scene {
        let dir = super::scratch();
        let game = super::mixed_game(dir.path(), "table1");
        super::batch(&game, &format!("{}\n", browser::phone::EVENING.join("\n")));
        let server = http::serve(&[&game], &["--umpire"]);
        Scene { _dir: dir, server }
    }

    fn umpire_page(&self) -> String {
        self.server.umpire_lines[0]
            .strip_prefix("umpire ")
            .unwrap_or_default()
            .to_string()
    }

    /// GET `path` as a browser asks for it.
    fn page(&self, path: &str) -> Vec<u8> {
        let raw = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nAccept: text/html\r\n\r\n",
            self.server.addr
        );
        let r = http::request(self.server.addr, &raw).unwrap();
        assert!(r.status < 300, "GET {path}: {}", r.status);
        r.body
    }

    /// A line typed on the umpire's page, its answer as the page gets it.
    fn umpire(&self, line: &str) -> Vec<u8> {
        let raw = format!(
            "POST /g/table1/lines HTTP/1.1\r\nHost: {}\r\nAccept: text/html\r\n\
             Authorization: Bearer {}\r\nContent-Length: {}\r\n\r\n{line}",
            self.server.addr,
            self.server.token(0),
            line.len()
        );
        http::request(self.server.addr, &raw).unwrap().body
    }
}

/// The digest of everything the pictures are made from, in the order
/// the browser is given it: a new scene, pictured over HTTP.
fn inputs() -> String {
    let scene = Scene::new();
    let mut all = Sha256::new();
    let mut add = |what: &str, bytes: &[u8]| {
        all.update(what.as_bytes());
        all.update((bytes.len() as u64).to_be_bytes());
        all.update(bytes);
    };
    for asset in ["page.css", "live.js", "umpire.js"] {
        add(asset, &scene.page(&format!("/assets/{asset}")));
    }
    add("lines", browser::phone::EVENING.join("\n").as_bytes());
    add("umpire", &scene.page("/g/table1/umpire"));
    for line in UMPIRE_LINES {
        add(line, &scene.umpire(line));
    }
    // The umpire's entry reaches the feed when the server has read it
    // back from the journal: the page is taken once it shows it.
    let last = format!("data-after=\"{}\"", browser::phone::EVENING.len() + 1);
    let begun = std::time::Instant::now();
    let feed = loop {
        let feed = scene.page("/g/table1/");
        if String::from_utf8_lossy(&feed).contains(&last) || begun.elapsed() > START {
            break feed;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    add("feed", &feed);
    add("roster", &scene.page("/g/table1/roster.html"));
    let odds = ODDS_LINE.replace(' ', "%20").replace('+', "%2B");
    add(
        "odds",
        &scene.page(&format!("/g/table1/odds?part=answer&line={odds}")),
    );
    all.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn the_pictures_are_of_the_page_served() {
    let text = std::fs::read_to_string(manifest()).unwrap_or_default();
    let listed = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
            .map(str::trim)
            .map(str::to_string)
    };
    let stale = "the pictures in docs/ are not of the page this build serves: \
                 make them again with docs/screenshots.sh (and look at them)";
    let made_from = listed("inputs").unwrap_or_default();
    let now = inputs();
    assert_eq!(made_from, now, "{stale}");
    for scheme in SCHEMES {
        for shown in SHOWN {
            let name = picture_name(shown, scheme);
            let bytes = std::fs::read(docs().join(&name))
                .unwrap_or_else(|e| panic!("docs/{name}: {e}; {stale}"));
            assert_eq!(
                listed(&name).as_deref(),
                Some(hex(&bytes).as_str()),
                "docs/{name} is not the picture the manifest names; {stale}"
            );
        }
    }
}

/// The pictures of one scheme, from a scene of its own.
fn pictures(program: &Path, here: &Path, scheme: Scheme) -> Result<Vec<(String, Vec<u8>)>, Failed> {
    let scene = Scene::new();
    let mut b = Browser::open(program, &here.join("profile"), "about:blank", PHONE)?;
    b.as_phone(PHONE, scheme)?;
    let mut shots = Vec::new();
    let mut shoot = |b: &mut Browser, shown: &str| -> Result<(), Failed> {
        std::thread::sleep(Duration::from_millis(400));
        shots.push((picture_name(shown, scheme), b.screenshot()?));
        Ok(())
    };
    // The umpire types, and sees each answer.
    b.go(&scene.umpire_page())?;
    b.until("document.body.dataset.live === 'open'", START)?;
    for (k, line) in UMPIRE_LINES.iter().enumerate() {
        b.type_and_submit("#line", line)?;
        b.until(
            &format!("document.querySelectorAll('#answers article').length > {k}"),
            Duration::from_secs(20),
        )?;
    }
    b.eval("document.activeElement.blur(); window.scrollTo(0, 0)")?;
    shoot(&mut b, "umpire")?;
    // A player's phone: the feed, a tap to the roster, the odds.
    b.go(&format!("{}/g/table1/", scene.server.base()))?;
    b.until("document.body.dataset.live === 'open'", START)?;
    let last = browser::phone::EVENING.len() + 1;
    b.until(&format!("document.body.dataset.after === '{last}'"), START)?;
    shoot(&mut b, "feed")?;
    b.tap("nav.tabs a[href=\"#roster\"]")?;
    b.until("location.hash === '#roster'", Duration::from_secs(10))?;
    shoot(&mut b, "roster")?;
    b.tap("nav.tabs a[href=\"#odds\"]")?;
    b.type_and_submit("#odds-line", ODDS_LINE)?;
    b.until(
        "!!document.querySelector('#odds-answer table.chances')",
        Duration::from_secs(20),
    )?;
    b.eval("document.activeElement.blur(); document.querySelector('#odds').scrollIntoView()")?;
    shoot(&mut b, "odds")?;
    Ok(shots)
}

/// Make the pictures and their manifest in `$DRUMHEAD_PICTURES` (docs/:
/// see docs/screenshots.sh).
#[test]
#[ignore = "makes docs/ pictures: run docs/screenshots.sh"]
fn make_the_pictures() {
    let to = PathBuf::from(
        std::env::var_os("DRUMHEAD_PICTURES")
            .expect("DRUMHEAD_PICTURES=DIR names where the pictures go (docs/screenshots.sh)"),
    );
    let program = browser::browser().expect("the pictures need headless Chromium");
    let mut made = Vec::new();
    for scheme in SCHEMES {
        browser::attempts(|here| {
            made.extend(pictures(&program, here, scheme)?);
            Ok(())
        });
    }
    let mut text = String::from(
        "# Made by docs/screenshots.sh; tests/serve/pictures.rs checks them against the page served.\n",
    );
    text.push_str(&format!("inputs {}\n", inputs()));
    for (name, bytes) in &made {
        std::fs::write(to.join(name), bytes).unwrap();
        text.push_str(&format!("{name} {}\n", hex(bytes)));
        eprintln!("wrote {}", to.join(name).display());
    }
    std::fs::write(to.join("screenshots.sha256"), text).unwrap();
}
