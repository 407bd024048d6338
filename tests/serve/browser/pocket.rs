//! The pocket page in a real browser, opened from a file with the
//! network off. Issue 39: "A test opens the pocket page from `file://` in
//! headless Chromium with the network disabled, resolves 1,000 lines
//! drawn from the goldens and the hidden-case style of the three systems
//! (with and without the shipped armies, with entered dice and with
//! seeds) through `window.drumhead.resolve`, and finds each answer
//! byte-identical to the native binary's; the page at 390×844 has nothing
//! that scrolls sideways."
//!
//! Each line is resolved on a fresh session (the armies loaded again), as
//! the native `drumhead --json --seed SEED --army FILE… LINE` resolves it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};

use super::{Browser, Failed, PHONE, START, Scheme};

/// How many lines are compared.
const LINES: usize = 1000;

/// The seeds the lines are resolved with: small, large, the largest.
const SEEDS: &[u64] = &[
    43,
    0,
    7,
    1_000_003,
    4_294_967_296,
    9_007_199_254_740_993,
    18_446_744_073_709_551_615,
];

/// The shipped armies, as the lines load them: none, or a battle's two.
const ARMIES: &[&[&str]] = &[
    &[],
    &["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"],
    &[
        "quatre-bras-1815-allied.toml",
        "quatre-bras-1815-french.toml",
    ],
    &["fiw-raid-french.toml", "fiw-raid-colonial.toml"],
    &["pimpernel-league.toml", "pimpernel-republic.toml"],
];

/// Lines in the style of the hidden cases, each system's: the rule
/// system's word, numbers at the edges of the tables, entered dice.
const HIDDEN_STYLE: &[&str] = &[
    "resilience +determined rolled 6 6",
    "resilience shooting +hit rolled 1 1",
    "resilience melee +lost-round +determined",
    "hold rolled 3 4",
    "charge rolled 6 6",
    "roll 2d6+1",
    "roll 10d6>=4 rolled 1 2 3 4 5 6 6 5 4 3",
    "odds resilience +determined",
    "hits 13 bases=6 carried=5",
    "drums resilience shooting rolled 2 2",
    "mayhem courage 4",
    "mayhem courage 4 rolled 6",
    "mayhem fire musket 20in soft",
    "mayhem fire pistol 6in rolled 6 6",
    "mayhem odds courage 4",
    "saber attack 5 vs 3 disrupted rolled 3 4",
    "saber attack 3 vs 3 mr=4 disrupted rolled 5 3",
    "saber attack 12 vs 2 rolled 6",
    "saber odds attack 5 vs 3",
    "quickplay attack 4 vs 2 rolled 5",
    "bogus 3",
    "resilience rolled 7 7",
    "roll 0d6",
];

/// One line to compare: its text, seed and armies.
#[derive(Debug, Clone)]
struct Case {
    line: String,
    seed: u64,
    armies: Vec<String>,
}

/// The words of a shell command line as the goldens write them ('…',
/// "…", a backslash); `None` for anything more (a pipe, `$`, `<`).
fn shell_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => w.push(chars.next()?),
                        '$' | '`' => return None,
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            '|' | '<' | '>' | '$' | '`' | ';' | '&' => return None,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

/// The goldens' one-line commands (`$ drumhead [--json] [--seed N]
/// [--rules R] [--army SHIPPED]… LINE`): each as a line the page takes
/// (the rule system's word in front for `--rules`), with its seed and
/// armies.
fn golden_lines() -> Vec<(String, Option<u64>, Vec<String>)> {
    // The command line's tasks (and the REPL's `save` and `load`) are
    // not lines the page takes.
    let tasks: Vec<&str> = drumhead::pocket::TASKS
        .iter()
        .copied()
        .chain(["save", "load"])
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped: Vec<String> = std::fs::read_dir(root.join("armies"))
        .expect("armies/")
        .filter_map(|e| Some(e.ok()?.file_name().to_str()?.to_string()))
        .collect();
    let mut files = vec![root.join("tests/cmd")];
    let mut found = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(&path)
                .expect("a folder")
                .filter_map(|e| Some(e.ok()?.path()))
                .collect();
            inside.sort();
            files.extend(inside.into_iter().rev());
            continue;
        }
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a golden");
        'command: for command in text.lines().filter_map(|l| l.strip_prefix("$ drumhead ")) {
            let Some(words) = shell_words(command) else {
                continue;
            };
            let (mut line, mut seed, mut rules, mut armies) = (Vec::new(), None, None, Vec::new());
            let mut words = words.into_iter();
            while let Some(word) = words.next() {
                match word.as_str() {
                    "--json" => {}
                    "--width" => {
                        words.next();
                    }
                    "--seed" => seed = words.next().and_then(|s| s.parse().ok()),
                    "--rules" => rules = words.next(),
                    "--army" => {
                        let file = words.next().unwrap_or_default();
                        let name = file.rsplit('/').next().unwrap_or_default().to_string();
                        if !shipped.contains(&name) {
                            continue 'command;
                        }
                        armies.push(name);
                    }
                    w if w.starts_with('-') && line.is_empty() => continue 'command,
                    _ => line.push(word),
                }
            }
            if line.is_empty() || tasks.contains(&line[0].as_str()) {
                continue;
            }
            let mut line = line.join(" ");
            if let Some(rules) = rules {
                line = format!("{rules} {line}");
            }
            if line.contains(['\n', '\r']) || line.trim_start().starts_with('#') {
                continue;
            }
            found.push((line, seed, armies));
        }
    }
    found
}

/// The lines compared: the goldens' and the hidden style's, by turns
/// with each seed and set of armies (a golden that names its armies
/// keeps them).
fn cases() -> Vec<Case> {
    let mut lines = golden_lines();
    lines.extend(
        HIDDEN_STYLE
            .iter()
            .map(|l| (l.to_string(), None, Vec::new())),
    );
    assert!(lines.len() > 300, "the goldens give {} lines", lines.len());
    (0..LINES)
        .map(|i| {
            let (line, seed, armies) = &lines[(i * 7919) % lines.len()];
            let armies = if armies.is_empty() {
                ARMIES[(i / 3) % ARMIES.len()]
                    .iter()
                    .map(|a| a.to_string())
                    .collect()
            } else {
                armies.clone()
            };
            Case {
                line: line.clone(),
                seed: seed.unwrap_or(SEEDS[i % SEEDS.len()]),
                armies,
            }
        })
        .collect()
}

/// What the native binary prints for each case, two at a time.
fn native(cases: &[Case]) -> Vec<String> {
    let armies = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let one = |c: &Case| -> String {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_drumhead"));
        // In the armies' folder, so that a list is named by its file's
        // name, as the page names a shipped one.
        cmd.current_dir(&armies)
            .args(["--json", "--seed", &c.seed.to_string()]);
        for a in &c.armies {
            cmd.args(["--army", a]);
        }
        let out = cmd.arg(&c.line).output().expect("drumhead runs");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let half = cases.len().div_ceil(2);
    std::thread::scope(|s| {
        let first = s.spawn(|| cases[..half].iter().map(one).collect::<Vec<_>>());
        let mut all: Vec<String> = cases[half..].iter().map(one).collect();
        let mut firsts = first.join().expect("the thread ends");
        firsts.append(&mut all);
        firsts
    })
}

/// Each case through `window.drumhead.resolve`, on a fresh session with
/// its armies loaded: the answers, and the slowest and total time.
const RESOLVE_ALL: &str = "JSON.stringify((() => {\
    const out = [], times = [];\
    for (const c of CASES) {\
      drumhead.reset();\
      for (const a of c.armies) drumhead.shippedArmy(a);\
      const t = performance.now();\
      out.push(drumhead.resolve(c.line, c.seed));\
      times.push(performance.now() - t);\
    }\
    return {answers: out, slowest: Math.max(...times), total: times.reduce((a, b) => a + b, 0)};\
  })())";

/// The page to open: `drumhead pocket`'s, or the one DRUMHEAD_POCKET_PAGE
/// names (`bench/pocket.sh` measures the page it wrote).
fn page(dir: &Path) -> Option<PathBuf> {
    match std::env::var_os("DRUMHEAD_POCKET_PAGE") {
        Some(page) => Some(PathBuf::from(page)),
        None => crate::pocket::page_in(dir),
    }
}

fn failed(what: impl std::fmt::Display) -> Failed {
    Failed::Other(what.to_string())
}

#[test]
fn the_pocket_page_answers_a_thousand_lines_as_the_program_does_offline_on_a_phone() {
    let Some(program) = super::required() else {
        return;
    };
    let dir = crate::scratch();
    let Some(page) = page(dir.path()) else {
        return;
    };
    let cases = cases();
    let expected = native(&cases);
    super::attempts(|here| pocket(&program, here, &page, &cases, &expected));
}

fn pocket(
    program: &Path,
    here: &Path,
    page: &Path,
    cases: &[Case],
    expected: &[String],
) -> Result<(), Failed> {
    let mut b = Browser::open(program, &here.join("profile"), "about:blank", PHONE)?;
    // No network from here on: the page must need none.
    b.call("Network.enable", json!({}))?;
    b.call(
        "Network.emulateNetworkConditions",
        json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
    )?;
    b.as_phone(PHONE, Scheme::Light)?;
    let url = format!("file://{}", page.display());
    b.go(&url)?;
    b.until(
        "document.body.dataset.ready !== undefined || document.body.dataset.failed !== undefined",
        START,
    )?;
    let failed_why = b.eval("document.body.dataset.failed || ''")?;
    if failed_why != "" {
        return Err(failed(format!("the page could not start: {failed_why}")));
    }
    let fetched = b.eval("performance.getEntriesByType('resource').map(r => r.name)")?;
    if fetched != json!([]) {
        return Err(failed(format!("the page fetched {fetched}")));
    }

    // The thousand lines, against the native binary's answers.
    let given: Vec<Value> = cases
        .iter()
        .map(|c| json!({"line": c.line, "seed": c.seed.to_string(), "armies": c.armies}))
        .collect();
    let started = Instant::now();
    let run = b.json(&RESOLVE_ALL.replace("CASES", &Value::Array(given).to_string()))?;
    let answers = run["answers"].as_array().ok_or_else(|| failed(&run))?;
    let mut differ = Vec::new();
    for ((case, want), got) in cases.iter().zip(expected).zip(answers) {
        if got.as_str() != Some(want.as_str()) {
            differ.push(format!("{case:?}\n  native: {want:?}\n  pocket: {got}"));
        }
    }
    if !differ.is_empty() {
        return Err(failed(format!(
            "{} of {} answers differ, the first:\n{}",
            differ.len(),
            cases.len(),
            differ[..differ.len().min(5)].join("\n")
        )));
    }
    eprintln!(
        "the pocket page resolved {} lines in {:?} (slowest {:.1} ms, all {:.0} ms inside the page)",
        cases.len(),
        started.elapsed(),
        run["slowest"].as_f64().unwrap_or_default(),
        run["total"].as_f64().unwrap_or_default()
    );

    // As a player uses it: a shipped army, lines typed, an odds chart.
    b.until("document.body.dataset.shipped !== undefined", START)?;
    b.eval(
        "(() => { const s = document.getElementById('shipped'); s.value = 'leuthen-1757-prussian.toml'; \
         s.dispatchEvent(new Event('change')); })()",
    )?;
    for line in [
        "resilience gren-1 shooting +determined",
        "odds resilience melee +lost-round +determined",
        "shoot musket 2BW line bases=6 at bases=6 carried=4 rolled 4 4 1 1 1 1",
        "resilence gren-1",
        "saber attack 5 vs 3 disrupted rolled 3 4",
    ] {
        b.type_and_submit("#line", line)?;
    }
    b.type_and_submit("#line", "resilience")?;
    let shown = b.json(
        "JSON.stringify({entries: document.querySelectorAll('#answers article.entry').length, \
         rows: document.querySelectorAll('#answers dl.stack .row').length, \
         charts: document.querySelectorAll('#answers svg.chart').length, \
         seeds: [...document.querySelectorAll('#answers .when')].filter(w => /seed \\d+/.test(w.textContent)).length, \
         kept: JSON.parse(localStorage.getItem('drumhead-pocket-log') || '[]').length, \
         export: document.getElementById('export').href.startsWith('blob:'), \
         loaded: document.getElementById('loaded').textContent})",
    )?;
    if shown["entries"] != 6
        || shown["charts"] != 1
        || shown["seeds"] != 6
        || shown["kept"] != 6
        || shown["export"] != true
        || shown["rows"].as_u64().unwrap_or(0) < 10
        || !shown["loaded"].as_str().unwrap_or("").contains("Prussian")
    {
        return Err(failed(format!("the page shows {shown}")));
    }
    // Completion: the verbs that begin with what is typed.
    b.eval(
        "(() => { const l = document.getElementById('line'); l.value = 'resi'; \
         l.setSelectionRange(4, 4); l.dispatchEvent(new Event('input')); })()",
    )?;
    let offered =
        b.eval("[...document.querySelectorAll('#completions button')].map(b => b.textContent)")?;
    if !offered.as_array().is_some_and(|o| {
        o.iter()
            .any(|w| w.as_str().is_some_and(|w| w.contains("resilience")))
    }) {
        return Err(failed(format!("`resi` is offered {offered}")));
    }

    // Nothing scrolls sideways at 390×844.
    let wide = b.json(
        "JSON.stringify({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})",
    )?;
    if wide["scroll"].as_u64() > Some(u64::from(PHONE.0)) || wide["inner"] != PHONE.0 {
        return Err(failed(format!("the page is wider than the phone: {wide}")));
    }
    // An SVG `text` measures its glyphs' overhang as scrolling inside it;
    // whether it reaches past the screen is still checked.
    let overflows = b.json(super::phone::OVERFLOWS)?;
    let bad: Vec<&Value> = overflows["bad"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|b| !b.as_str().is_some_and(|b| b.starts_with("text scrolls: ")))
        .collect();
    if overflows["elements"].as_u64() < Some(100) || !bad.is_empty() {
        return Err(failed(format!("on the pocket page: {overflows}")));
    }
    let shot = b.screenshot()?;
    let size = png_size(&shot).ok_or_else(|| failed("the screenshot is no PNG"))?;
    if size != PHONE {
        return Err(failed(format!("the screenshot is {size:?}, not {PHONE:?}")));
    }
    Ok(())
}

/// A PNG's width and height, from its header.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.get(..8)? != b"\x89PNG\r\n\x1a\n" || png.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| Some(u32::from_be_bytes(png.get(at..at + 4)?.try_into().ok()?));
    Some((word(16)?, word(20)?))
}

#[test]
fn golden_commands_are_read_as_the_shell_reads_them() {
    assert_eq!(
        shell_words(r#"--rules saber "attack 5 vs 3" 'a b' c\ d"#),
        Some(vec![
            "--rules".into(),
            "saber".into(),
            "attack 5 vs 3".into(),
            "a b".into(),
            "c d".into()
        ])
    );
    assert_eq!(shell_words("x | head"), None);
    assert_eq!(shell_words("'unclosed"), None);
}

/// `bench/pocket.sh`: the time from opening the page (from a file, the
/// network off) to its first answer, five times over, each in a fresh
/// browser: when the page is ready (its module compiled, the shipped
/// lists read) and the first line resolved after that.
#[test]
#[ignore = "a measurement: bench/pocket.sh runs it"]
fn first_answer() {
    let Some(program) = super::required() else {
        return;
    };
    let dir = crate::scratch();
    let Some(page) = page(dir.path()) else {
        return;
    };
    let mut firsts = Vec::new();
    for round in 1..=5 {
        super::attempts(|here| {
            let mut b = Browser::open(
                program.as_path(),
                &here.join("profile"),
                "about:blank",
                PHONE,
            )?;
            b.call("Network.enable", json!({}))?;
            b.call(
                "Network.emulateNetworkConditions",
                json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
            )?;
            b.as_phone(PHONE, Scheme::Light)?;
            b.go(&format!("file://{}", page.display()))?;
            b.until("document.body.dataset.ready !== undefined", START)?;
            let t = b.json(
                "JSON.stringify((() => { const t = performance.now(); \
                 drumhead.resolve('resilience shooting line +determined +hit', 43); \
                 return {ready: Number(document.body.dataset.readyMs), first: performance.now() - t, \
                 module: document.getElementById('drumhead-module').textContent.length * 3 / 4}; })())",
            )?;
            let ready = t["ready"].as_f64().unwrap_or(f64::NAN);
            let first = t["first"].as_f64().unwrap_or(f64::NAN);
            println!(
                "round {round}: ready after {ready:.0} ms, first answer {first:.1} ms later: {:.0} ms in all (module {:.0} KiB)",
                ready + first,
                t["module"].as_f64().unwrap_or_default() / 1024.0
            );
            firsts.push(ready + first);
            Ok(())
        });
    }
    firsts.sort_by(f64::total_cmp);
    println!(
        "first answer, median of {}: {:.0} ms from opening the page",
        firsts.len(),
        firsts[firsts.len() / 2]
    );
}
