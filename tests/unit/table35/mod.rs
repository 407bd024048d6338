//! Issue 35, "At the table": dice read as the procedure throws them, what
//! the umpire states taken where no game is kept, sides by name, and the
//! rules a fourth audit found wrong, each as its own case quoting its rule
//! line (shared/rules/).

// Not every file uses every helper.
#![allow(dead_code)]

mod dice;
mod dice_paths;
mod drums;
mod mayhem;
mod saber;
mod sides;
mod stated;

use std::path::Path;

use crate::answer::Resolution;
use crate::command::System;
use crate::game::{ArmySource, Game};
use crate::session::{Output, Session};

/// Shipped lists by file name under `armies/`.
pub fn lists(files: &[&str]) -> Vec<ArmySource> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    files
        .iter()
        .map(|f| ArmySource {
            file: format!("armies/{f}"),
            text: std::fs::read_to_string(dir.join(f)).expect("a shipped list"),
        })
        .collect()
}

pub const LEUTHEN: &[&str] = &["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"];
pub const QUATRE_BRAS: &[&str] = &[
    "quatre-bras-1815-french.toml",
    "quatre-bras-1815-allied.toml",
];
pub const RAID: &[&str] = &["fiw-raid-french.toml", "fiw-raid-colonial.toml"];
pub const PIMPERNEL: &[&str] = &["pimpernel-league.toml", "pimpernel-republic.toml"];

/// A session with no armies.
pub fn bare(system: System) -> Session {
    let tables = crate::systems::embedded().expect("embedded tables");
    Session::new(tables, system, 1)
}

/// A session with shipped lists loaded in memory (no game file).
pub fn with_lists(system: System, files: &[&str]) -> Session {
    let tables = crate::systems::embedded().expect("embedded tables");
    let game = Game::new(lists(files), &tables).expect("the lists load");
    Session::new(tables, system, 1).with_game(game)
}

/// A session with lists written in the test loaded in memory.
pub fn with_inline(system: System, lists: &[(&str, &str)]) -> Session {
    let tables = crate::systems::embedded().expect("embedded tables");
    let sources = lists
        .iter()
        .map(|(file, text)| ArmySource {
            file: (*file).to_string(),
            text: (*text).to_string(),
        })
        .collect();
    let game = Game::new(sources, &tables).expect("the lists load");
    Session::new(tables, system, 1).with_game(game)
}

/// A session over a game of shipped lists kept in a file of its own.
pub fn kept(system: System, files: &[&str], name: &str) -> crate::unit::common::Held<Session> {
    let tables = crate::systems::embedded().expect("embedded tables");
    crate::unit::common::kept(name, lists(files), &tables)
        .map(|game| Session::new(tables, system, 1).with_game(game))
}

/// The resolution a line gives, or a panic saying what it gave instead.
pub fn resolve(s: &mut Session, line: &str) -> Resolution {
    match s.run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        Ok(other) => panic!("{line}: answered {other:?}"),
        Err(e) => panic!("{line}: refused: {e}"),
    }
}

/// The error a line is refused with.
pub fn refused(s: &mut Session, line: &str) -> String {
    match s.run_line(line) {
        Err(e) => e.to_string(),
        Ok(other) => panic!("{line}: accepted: {other:?}"),
    }
}

/// Everything an answer says: outcome, notes and stack.
pub fn said(res: &Resolution) -> String {
    let modifiers: Vec<&str> = res.modifiers.iter().map(|m| &*m.label).collect();
    format!(
        "{} {} {:?} {:?} {modifiers:?}",
        res.outcome, res.outcome_text, res.notes, res.rows
    )
}
