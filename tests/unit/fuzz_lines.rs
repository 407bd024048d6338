//! Hardening. The ignored test throws a million seeded lines at
//! `Session::run_line` (every rule system, with and without armies loaded,
//! rendered as text and JSON), and mutated copies of the shipped tables and
//! army lists at their parsers (and, when a mutant still loads, lines at the
//! session built on it): no panic, and every error has a message.
//!
//! ```sh
//! cargo test --release --lib unit::fuzz_lines:: -- --ignored --nocapture
//! DRUMHEAD_FUZZ_SEED=7 DRUMHEAD_FUZZ_LINES=3000000 cargo test --release --lib unit::fuzz_lines:: -- --ignored
//! ```
//!
//! The 100,000 lines piped through the binary in batch mode are in
//! tests/suite/fuzz_lines.rs.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::cli::Printer;
use crate::command::System;
use crate::error::CommandError;
use crate::game::{ArmySource, Game};
use crate::session::{Output, Session};
use crate::system::Tables;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

const FRAGMENTS: &[&str] = &[
    "rolled",
    "at",
    "vs",
    "odds",
    "compare",
    "simulate",
    "help",
    "units",
    "show",
    "next-turn",
    "end-turn",
    "undo",
    "log",
    "#",
    "=",
    "+",
    "-",
    "_",
    "2BW",
    "2.5bw",
    "-3BW",
    "1e308BW",
    "NaN",
    "inf",
    "12\"",
    "12in",
    "0",
    "-1",
    "7",
    "99999999999999999999",
    "18446744073709551616",
    "-9223372036854775808",
    "3d6",
    "2d6+1",
    "2d6-9",
    "10d6>=4",
    "10d6>=0",
    "1000000000d6",
    "d0",
    "0d0",
    "1d1",
    "6d1>=2",
    ",",
    ",,",
    "=x",
    "bases=4",
    "bases=-4",
    "bases=99999999999",
    "general=2",
    "general=0",
    "+general=",
    "mr=0",
    "mr=99",
    "é",
    "\u{0}",
    "\t",
    "\r",
    "\u{200b}",
    "\u{feff}",
    "\u{1f3b2}",
    "ｒｅｓｉｌｉｅｎｃｅ",
    "İ",
    "ß",
    "BW",
    "in",
    "drums",
    "mayhem",
    "saber",
    "saber-quickplay",
    ".5",
    "..",
    "(5)",
    "(0)",
    "((5))",
    "5h",
    "5hh",
    "1:2",
    "3:1",
    "0:0",
    "\"",
    "''",
    "\\",
];

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn token(rng: &mut Pcg64, words: &[String]) -> String {
    match rng.random_range(0..20) {
        0..=8 => words[rng.random_range(0..words.len())].clone(),
        9..=13 => FRAGMENTS[rng.random_range(0..FRAGMENTS.len())].to_string(),
        14 => rng.random_range(0..30u32).to_string(),
        15 => format!(
            "{}={}",
            words[rng.random_range(0..words.len())],
            rng.random_range(-5..40i64)
        ),
        16 => (0..rng.random_range(1..6))
            .map(|_| char::from_u32(rng.random_range(1..0x2FF)).unwrap_or('?'))
            .collect(),
        17 => (0..rng.random_range(1..4))
            .map(|_| char::from_u32(rng.random_range(0x300..0x1_0FFF)).unwrap_or('\u{fffd}'))
            .collect(),
        18 => {
            // A very long token: one character or a word over and over.
            let unit = if rng.random_bool(0.5) {
                words[rng.random_range(0..words.len())].clone()
            } else {
                FRAGMENTS[rng.random_range(0..FRAGMENTS.len())].to_string()
            };
            unit.repeat(rng.random_range(50..2000))
        }
        _ => "9".repeat(rng.random_range(15..400)),
    }
}

fn random_line(rng: &mut Pcg64, words: &[String]) -> String {
    let n = rng.random_range(0..14);
    let mut parts: Vec<String> = (0..n).map(|_| token(rng, words)).collect();
    if rng.random_range(0..6) == 0 {
        parts.push("rolled".into());
        for _ in 0..rng.random_range(0..12) {
            parts.push(rng.random_range(0..14u32).to_string());
        }
    }
    let sep = match rng.random_range(0..8) {
        0 => "",
        1 => "  ",
        2 => "\t",
        _ => " ",
    };
    let line = parts.join(sep);
    // Game files are written only by `save`; keep the fuzzer off the disk.
    if line.trim_start().to_ascii_lowercase().starts_with("save") {
        return format!("x{line}");
    }
    line
}

/// A line a verb may well accept: the verb, some of its own words (with
/// values in and around their range), maybe a clause, maybe dice.
fn structured_line(rng: &mut Pcg64, session: &Session, ids: &[String]) -> String {
    use crate::bind::Kind;
    let docs: Vec<_> = session.catalog.verbs().collect();
    let doc = &docs[rng.random_range(0..docs.len())];
    let odds = rng.random_range(0..8) == 0;
    let dice = !odds && rng.random_bool(0.4);
    let verb = if odds {
        format!("odds {}", doc.name)
    } else {
        doc.name.to_string()
    };
    let mut parts = vec![verb.clone()];
    if !doc.examples.is_empty() && rng.random_bool(0.4) {
        // An example with one word dropped, one added, or the dice changed.
        let example = doc.examples[rng.random_range(0..doc.examples.len())];
        let mut words: Vec<String> = example
            .split(' ')
            .take_while(|w| *w != "rolled")
            .map(str::to_string)
            .collect();
        words[0] = verb;
        match rng.random_range(0..3) {
            0 if words.len() > 1 => {
                words.remove(rng.random_range(1..words.len()));
            }
            1 if !doc.vocab.entries.is_empty() => {
                let e = &doc.vocab.entries[rng.random_range(0..doc.vocab.entries.len())];
                words.push(e.name.clone());
            }
            _ => {}
        }
        if dice {
            words.push("rolled".into());
            for _ in 0..rng.random_range(1..4) {
                words.push(rng.random_range(1..7u32).to_string());
            }
        }
        return prefixed(doc.system, words.join(" "));
    }
    let side = |rng: &mut Pcg64, vocab: &crate::bind::Vocab, parts: &mut Vec<String>| {
        for _ in 0..rng.random_range(0..6) {
            match rng.random_range(0..30) {
                0 => parts.push(rng.random_range(-2..30i32).to_string()),
                1 => parts.push(format!("{}BW", rng.random_range(0..40u32))),
                2 => parts.push(format!("({})", rng.random_range(0..12u32))),
                3 if !ids.is_empty() => parts.push(ids[rng.random_range(0..ids.len())].clone()),
                _ if !vocab.entries.is_empty() => {
                    let e = &vocab.entries[rng.random_range(0..vocab.entries.len())];
                    parts.push(match e.kind {
                        Kind::Number { min, max } => {
                            format!("{}={}", e.name, rng.random_range(min - 2..=max + 2))
                        }
                        Kind::Counted => format!("+{}={}", e.name, rng.random_range(0..5)),
                        _ => e.name.clone(),
                    });
                }
                _ => parts.push(rng.random_range(0..12u32).to_string()),
            }
        }
    };
    side(rng, &doc.vocab, &mut parts);
    for (kind, vocab) in &doc.clauses {
        if rng.random_bool(0.6) {
            parts.push(kind.word().to_string());
            side(rng, vocab, &mut parts);
        }
    }
    if dice {
        parts.push("rolled".into());
        for _ in 0..rng.random_range(1..4) {
            parts.push(rng.random_range(1..7u32).to_string());
        }
    }
    prefixed(doc.system, parts.join(" "))
}

/// A verb of one rule system is named with that system's prefix.
fn prefixed(system: Option<System>, line: String) -> String {
    match system {
        Some(s) => format!("{} {line}", s.id()),
        None => line,
    }
}

/// Every word any verb knows (names, `name=` values), verbs and unit ids.
fn vocabulary(session: &Session, ids: &[String]) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for doc in session.catalog.verbs() {
        words.push(doc.name.to_string());
        words.extend(doc.examples.iter().map(|e| e.to_string()));
        for entry in doc
            .vocab
            .entries
            .iter()
            .chain(doc.clauses.iter().flat_map(|(_, v)| v.entries.iter()))
        {
            words.push(entry.name.clone());
        }
    }
    words.extend(ids.iter().cloned());
    words
}

fn check_error(e: &CommandError, line: &str) {
    let message = e.to_string();
    assert!(
        !message.trim().is_empty(),
        "empty error message for {line:?}"
    );
    let _ = e.column(line);
    let _ = e.render(line, Some(3));
}

/// What is being tried now, and since when: a watchdog thread reports a
/// line (and the mutant it runs on) that takes more than ten seconds, and
/// ends the run as a failure after two minutes.
static CURRENT: Mutex<Option<(Instant, String)>> = Mutex::new(None);

fn trying(what: impl FnOnce() -> String) {
    if let Ok(mut current) = CURRENT.lock() {
        *current = Some((Instant::now(), what()));
    }
}

fn watchdog() {
    std::thread::spawn(|| {
        let mut reported = String::new();
        loop {
            std::thread::sleep(Duration::from_secs(1));
            let Ok(current) = CURRENT.lock() else { return };
            if let Some((since, what)) = current.as_ref() {
                if since.elapsed() > Duration::from_secs(10) && *what != reported {
                    eprintln!("STUCK for {:.0?} on: {what}", since.elapsed());
                    reported = what.clone();
                }
                // A line that takes minutes is a failure too.
                if since.elapsed() > Duration::from_secs(120) {
                    eprintln!("FAIL: no answer in two minutes to: {what}");
                    std::process::exit(101);
                }
            }
        }
    });
}

/// The lines of a mutant that are not in the original.
fn changed(original: &str, mutant: &str) -> String {
    let before: std::collections::HashSet<&str> = original.lines().collect();
    mutant
        .lines()
        .filter(|l| !before.contains(l))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// One line through the session and both printers.
fn run(session: &mut Session, line: &str, out: &mut Vec<u8>) {
    out.clear();
    match session.run_line(line) {
        Ok(Some(output)) => {
            // JSON, plain text, and text in colour, 40 columns, ASCII and
            // one line.
            for (json, fancy, brief) in [
                (true, false, false),
                (false, false, false),
                (false, true, false),
                (false, true, true),
            ] {
                let printer = Printer {
                    json,
                    style: crate::format::Style {
                        color: fancy,
                        width: fancy.then_some(40),
                        ascii: fancy,
                        brief,
                        labels: brief,
                    },
                    err_color: fancy,
                    err_width: fancy.then_some(40),
                    delimited: None,
                    svg: None,
                    rows: None,
                };
                let source = crate::format::Source {
                    line: 1,
                    input: line,
                };
                printer.result(out, &output, source).unwrap();
            }
            // The answers a spreadsheet takes, as CSV.
            if matches!(
                output,
                Output::Odds(_) | Output::Comparison(_) | Output::Simulation(_) | Output::Sweep(_)
            ) {
                let mut printer = Printer::new(false, crate::format::Style::default());
                printer.delimited = Some(crate::format::delimited::Delimiter::Comma);
                let source = crate::format::Source {
                    line: 1,
                    input: line,
                };
                printer.result(out, &output, source).unwrap();
            }
        }
        Ok(None) => {}
        Err(e) => check_error(&e, line),
    }
}

fn shipped(dir: &str) -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&path)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn army_sources() -> Vec<ArmySource> {
    shipped("armies")
        .into_iter()
        .map(|(name, text)| ArmySource {
            file: format!("armies/{name}"),
            text,
        })
        .collect()
}

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "7",
    "13",
    "255",
    "65536",
    "-2147483649",
    "9223372036854775807",
    "1e9",
    "0.5",
    "\"\"",
    "\"0D6\"",
    "\"1000D6\"",
    "\"99999999999D6\"",
    "[]",
    "{}",
];

/// A copy of a file with a few random edits: lines deleted, duplicated or
/// swapped, characters deleted, duplicated, swapped or replaced, a number
/// replaced by an awkward one.
fn mutate(rng: &mut Pcg64, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..rng.random_range(1..5) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let n = lines.len();
        let i = rng.random_range(0..n);
        match rng.random_range(0..9) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let copy = lines[i].clone();
                lines.insert(rng.random_range(0..=n), copy);
            }
            2 => lines.swap(i, rng.random_range(0..n)),
            3..=5 => {
                let mut chars: Vec<char> = lines[i].chars().collect();
                if chars.is_empty() {
                    continue;
                }
                let j = rng.random_range(0..chars.len());
                match rng.random_range(0..4) {
                    0 => {
                        chars.remove(j);
                    }
                    1 => chars.insert(j, chars[j]),
                    2 => {
                        let k = rng.random_range(0..chars.len());
                        chars.swap(j, k);
                    }
                    _ => {
                        chars[j] = *b"0123456789=[]\"'.,-#{} \\x\n"
                            .get(rng.random_range(0..25))
                            .map(|b| char::from(*b))
                            .get_or_insert('?')
                    }
                }
                lines[i] = chars.into_iter().collect();
            }
            _ => {
                // Replace a number (or a quoted value) with an awkward one.
                let line = &lines[i];
                let spans: Vec<(usize, usize)> = number_spans(line);
                if spans.is_empty() {
                    continue;
                }
                let (a, b) = spans[rng.random_range(0..spans.len())];
                let with = NUMBERS[rng.random_range(0..NUMBERS.len())];
                lines[i] = format!("{}{}{}", &line[..a], with, &line[b..]);
            }
        }
    }
    lines.join("\n")
}

/// Byte spans of runs of ASCII digits (with a leading minus).
fn number_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut end = i;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            spans.push((start, end));
            i = end;
        } else {
            i += 1;
        }
    }
    spans
}

fn table_error_ok(e: &impl std::fmt::Display, what: &str) {
    let message = e.to_string();
    assert!(!message.trim().is_empty(), "empty error for {what}");
}

/// Load a mutated table file in place of the shipped one; `Some` when it
/// still loads.
fn mutated_tables(name: &str, text: &str) -> Option<Tables> {
    let dir = super::common::temp_dir("fuzz-tables");
    // The example CRT stands in for `crt.toml`.
    let file = if name == "saber-example-crt.toml" {
        "crt.toml"
    } else {
        name
    };
    std::fs::write(dir.path().join(file), text).ok()?;
    let result = crate::tables::TableSource::dir(dir.path())
        .and_then(|source| crate::systems::all().load(&source));
    match result {
        Ok(tables) => Some(tables),
        Err(e) => {
            table_error_ok(&e, name);
            None
        }
    }
}

#[test]
#[ignore = "long: cargo test --release --lib unit::fuzz_lines:: -- --ignored"]
fn a_million_lines_and_mutated_files_never_panic() {
    let seed = env_u64("DRUMHEAD_FUZZ_SEED", 1);
    let total = env_u64("DRUMHEAD_FUZZ_LINES", 1_000_000);
    let started = Instant::now();
    watchdog();
    let mut rng = Pcg64::seed_from_u64(seed);
    let armies = army_sources();
    let tables = crate::systems::embedded().unwrap();
    let books = tables.books();
    let game = Game::new(armies.clone(), &tables).unwrap();
    let ids: Vec<String> = crate::catalog::Units::ids(&game);
    let mut sessions: Vec<Session> = books
        .iter()
        .map(|s| Session::new(tables.clone(), *s, seed))
        .collect();
    sessions.push(Session::new(tables.clone(), crate::drums::DRUMS, seed).with_game(game));
    let words = vocabulary(&sessions[0], &ids);
    let mut out = Vec::with_capacity(4096);
    let mut errors = 0u64;
    let mut slowest = (Duration::ZERO, String::new());
    // DRUMHEAD_FUZZ_SHOW=N: print the first N rejected well-formed lines.
    let mut verbose = env_u64("DRUMHEAD_FUZZ_SHOW", 0);

    // Lines.
    for i in 0..total {
        let k = rng.random_range(0..sessions.len());
        let structured = rng.random_bool(0.5);
        let line = if structured {
            structured_line(&mut rng, &sessions[k], &ids)
        } else {
            random_line(&mut rng, &words)
        };
        let line = match rng.random_range(0..8) {
            _ if structured => line,
            0 => format!("odds {line}"),
            1 => format!("{} {line}", books[rng.random_range(0..books.len())].id()),
            _ => line,
        };
        let session = &mut sessions[k];
        trying(|| format!("line {line:?}"));
        let t = Instant::now();
        let result = session.run_line(&line);
        let took = t.elapsed();
        if took > slowest.0 {
            slowest = (took, line.clone());
        }
        if took > Duration::from_millis(200) {
            eprintln!("slow line ({took:.1?}): {line:?}");
        }
        if let Err(e) = result {
            errors += 1;
            if structured && verbose > 0 {
                verbose -= 1;
                eprintln!("{line}\n  {e}");
            }
        }
        // The same line again through the printers (a new position, new dice).
        if i % 4 == 0 {
            run(session, &line, &mut out);
        }
        // A game grows with every effect; start it afresh now and then.
        if i % 5_000 == 0 {
            let game = Game::new(armies.clone(), &tables).unwrap();
            sessions[books.len()] =
                Session::new(tables.clone(), crate::drums::DRUMS, seed + i).with_game(game);
        }
    }

    // Mutated tables: parse errors have messages; survivors resolve lines.
    let table_files = shipped("tables");
    let mut loaded = 0u64;
    let mutants = total / 200;
    for _ in 0..mutants {
        let (name, text) = &table_files[rng.random_range(0..table_files.len())];
        let original = text;
        let text = mutate(&mut rng, text);
        if let Some(tables) = mutated_tables(name, &text) {
            loaded += 1;
            let mutant = format!("tables/{name} with {:?}", changed(original, &text));
            for system in tables.books() {
                let mut session = Session::new(tables.clone(), system, seed);
                let examples: Vec<String> = session
                    .catalog
                    .for_system(system)
                    .flat_map(|d| d.examples.iter().map(|e| e.to_string()))
                    .collect();
                for example in &examples {
                    trying(|| format!("{example:?} and its odds on {mutant}"));
                    run(&mut session, example, &mut out);
                    run(&mut session, &format!("odds {example}"), &mut out);
                }
                for _ in 0..10 {
                    let line = structured_line(&mut rng, &session, &[]);
                    trying(|| format!("{line:?} on {mutant}"));
                    run(&mut session, &line, &mut out);
                }
            }
        }
    }

    // Mutated army lists.
    let mut armies_loaded = 0u64;
    for _ in 0..mutants {
        let i = rng.random_range(0..armies.len());
        let mut sources = armies.clone();
        sources[i].text = mutate(&mut rng, &sources[i].text);
        let schemas = crate::game::schemas(&tables);
        if let Err(e) = crate::army::parse_army(&sources[i].file, &sources[i].text, &schemas) {
            table_error_ok(&e, &sources[i].file);
        }
        match Game::new(sources, &tables) {
            Ok(game) => {
                armies_loaded += 1;
                let ids = crate::catalog::Units::ids(&game);
                let mut session =
                    Session::new(tables.clone(), crate::drums::DRUMS, seed).with_game(game);
                for _ in 0..10 {
                    let mut line = structured_line(&mut rng, &session, &[]);
                    if !ids.is_empty() {
                        line.push(' ');
                        line.push_str(&ids[rng.random_range(0..ids.len())]);
                    }
                    trying(|| format!("{line:?} on a mutated army"));
                    run(&mut session, &line, &mut out);
                }
                for verb in ["units", "end-turn", "next-turn", "log", "undo"] {
                    run(&mut session, verb, &mut out);
                }
            }
            Err(e) => table_error_ok(&e, "mutated army"),
        }
    }

    // Mutated game files and journals: opened, refused with a message, or
    // played on; never a panic.
    let dir = super::common::temp_dir("fuzz-games");
    let original = dir.path().join("g.json");
    let mut game = crate::game::Game::open(
        &original,
        armies.clone(),
        &tables,
        crate::game::Options::default(),
    )
    .unwrap();
    game.notes.clear();
    let mut session = Session::new(tables.clone(), crate::drums::DRUMS, seed).with_game(game);
    for line in [
        "hits 7 aus-3",
        "move gren-1",
        "next-turn",
        "hits 2 ir-3",
        "undo",
        "shoot gren-1 2BW at aus-5",
    ] {
        let _ = session.run_line(line);
    }
    drop(session);
    let game_text = std::fs::read_to_string(&original).unwrap();
    let journal_text = std::fs::read_to_string(dir.path().join("g.json.journal")).unwrap();
    let mut games_opened = 0u64;
    for i in 0..mutants {
        let path = dir.path().join(format!("m{i}.json"));
        let journal = dir.path().join(format!("m{i}.json.journal"));
        let (g, j) = if rng.random_bool(0.5) {
            (mutate(&mut rng, &game_text), journal_text.clone())
        } else {
            (game_text.clone(), mutate(&mut rng, &journal_text))
        };
        std::fs::write(&path, g).unwrap();
        std::fs::write(&journal, j).unwrap();
        trying(|| format!("a mutated game file or journal, {}", path.display()));
        match crate::game::Game::open(&path, Vec::new(), &tables, crate::game::Options::default()) {
            Ok(game) => {
                games_opened += 1;
                let mut session =
                    Session::new(tables.clone(), crate::drums::DRUMS, seed).with_game(game);
                for verb in ["units", "hits 1 aus-5", "undo", "log", "next-turn"] {
                    run(&mut session, verb, &mut out);
                }
            }
            Err(e) => table_error_ok(&e, "mutated game"),
        }
        let _ = crate::repair::plan(&path, &tables);
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&journal);
        let _ = std::fs::remove_file(dir.path().join(format!("m{i}.json.lock")));
    }
    println!(
        "seed {seed}: {total} lines ({errors} rejected), {mutants} table mutants ({loaded} loaded), \
         {mutants} army mutants ({armies_loaded} loaded), {mutants} game mutants ({games_opened} opened) \
         in {:.1?}; slowest line {:.1?}: {:?}",
        started.elapsed(),
        slowest.0,
        slowest.1
    );
}

/// Found by the fuzzer: a house rule's `65536D6` made `odds move` run for
/// hours; now the table is refused when it loads, naming the expression.
#[test]
fn a_table_dice_expression_with_a_heap_of_dice_is_refused() {
    let text = include_str!("../../tables/drums.toml").replacen("\"1D6\"", "\"65536D6\"", 1);
    let err = crate::tables::parse_toml::<crate::drums::DrumsTables>("drums.toml", &text, "")
        .and_then(|t| t.validate("drums.toml"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("65536D6") && err.contains("100 dice"), "{err}");
    let text = include_str!("../../tables/drums.toml").replacen(
        "\"1D6\"",
        "\"9223372036854775807+9223372036854775807\"",
        1,
    );
    assert!(
        crate::tables::parse_toml::<crate::drums::DrumsTables>("drums.toml", &text, "").is_err()
    );
}

/// Found by the fuzzer (debug build): an adjustment of 2^63 - 1 overflowed
/// the resilience score; now every number in a table is bounded when it loads.
#[test]
fn a_table_number_out_of_range_is_refused_with_its_key() {
    let text = include_str!("../../tables/drums.toml").replacen(
        "shooting = 1\n",
        "shooting = 9223372036854775807\n",
        1,
    );
    let err = crate::tables::parse_toml::<crate::drums::DrumsTables>("drums.toml", &text, "")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("resilience.adjustment[0].shooting") && err.contains("out of range"),
        "{err}"
    );
}

/// Found by the fuzzer: a unit with an enormous number of bases overflowed
/// its strength percentage.
#[test]
fn a_unit_with_enormous_bases_is_no_panic() {
    let text = include_str!("../data/armies/test-prussia.toml").replacen(
        "bases = 6",
        "bases = 9223372036854775807",
        1,
    );
    // The loader may refuse such a list outright; what it must not do is panic.
    let tables = crate::systems::embedded().unwrap();
    let Ok(game) = Game::new(
        vec![ArmySource {
            file: "prussia.toml".into(),
            text,
        }],
        &tables,
    ) else {
        return;
    };
    let mut session =
        Session::new(crate::systems::embedded().unwrap(), crate::drums::DRUMS, 1).with_game(game);
    for line in [
        "units",
        "show gren-1",
        "resilience gren-1",
        "hold gren-1",
        "end-turn",
    ] {
        let _ = session.run_line(line);
    }
}
