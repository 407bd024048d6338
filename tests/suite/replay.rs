//! `replay` agrees with the game, whatever was played: a long random
//! evening per rule system — every verb's examples and the shipped units
//! named in them, some dice entered, some rolled, some lines refused,
//! undos and new turns — replays to the state the game file holds.

use crate::common;

use std::path::Path;
use std::process::Command;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use common::BIN;

/// The shipped armies of each system's game, and its rule book.
const GAMES: &[(&str, [&str; 2])] = &[
    (
        "drums",
        ["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"],
    ),
    (
        "mayhem",
        ["pimpernel-league.toml", "pimpernel-republic.toml"],
    ),
    ("mayhem", ["fiw-raid-colonial.toml", "fiw-raid-french.toml"]),
    (
        "saber",
        [
            "quatre-bras-1815-french.toml",
            "quatre-bras-1815-allied.toml",
        ],
    ),
];

/// Lines for one game: each verb's examples as they are, and with a unit
/// of the game named after the verb or at the end of the line.
fn lines(book: &str, files: &[&str; 2], rng: &mut Pcg64, n: usize) -> Vec<String> {
    let tables = drumhead::systems::embedded().expect("tables");
    let catalog = drumhead::session::catalog(&tables);
    let system = tables.book(book).expect("a book");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let sources = files
        .iter()
        .map(|f| drumhead::game::ArmySource {
            file: f.to_string(),
            text: std::fs::read_to_string(dir.join(f)).unwrap(),
        })
        .collect();
    let game = drumhead::game::Game::new(sources, &tables).expect("armies");
    let ids = drumhead::catalog::Units::ids(&game);
    let examples: Vec<String> = catalog
        .for_system(system)
        .flat_map(|d| d.examples.iter().map(|e| e.to_string()))
        .collect();
    let mut out = Vec::new();
    while out.len() < n {
        let example = &examples[rng.random_range(0..examples.len())];
        // Entered dice are the line's own business: drop them, and maybe
        // enter one die of our own (the rest rolled from the seed).
        let base = example
            .split(" rolled")
            .next()
            .unwrap_or(example)
            .to_string();
        let mut words: Vec<&str> = base.split_whitespace().collect();
        let id = &ids[rng.random_range(0..ids.len())];
        match rng.random_range(0..4) {
            0 => words.insert(1.min(words.len()), id),
            1 => words.push(id),
            _ => {}
        }
        let mut line = words.join(" ");
        if rng.random_bool(0.4) {
            line.push_str(&format!(" rolled {}", rng.random_range(1..=6)));
        }
        out.push(line);
        match rng.random_range(0..30) {
            0 => out.push("undo".into()),
            1 => out.push("next-turn".into()),
            _ => {}
        }
    }
    out
}

#[test]
fn a_random_evening_of_each_system_replays() {
    let mut rng = Pcg64::seed_from_u64(2026);
    for (i, (book, files)) in GAMES.iter().enumerate() {
        let dir = common::game::temp_dir(&format!("replay-{i}"));
        let game = dir.join("g.json");
        let armies = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
        let mut args: Vec<String> = files
            .iter()
            .flat_map(|f| ["--army".to_string(), armies.join(f).display().to_string()])
            .collect();
        args.extend([
            "--game".into(),
            game.display().to_string(),
            "--rules".into(),
            book.to_string(),
            "--seed".into(),
            "7".into(),
        ]);
        let script = lines(book, files, &mut rng, 400).join("\n");
        let _ = common::run(&args, &script);
        let journal = format!("{}.journal", game.display());
        let entries = std::fs::read_to_string(&journal).unwrap().lines().count() - 1;
        assert!(
            entries >= 100,
            "{book}: only {entries} entries were recorded"
        );
        let out = Command::new(BIN)
            .arg("replay")
            .arg(&journal)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("the state equals"),
            "{book} {files:?}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
