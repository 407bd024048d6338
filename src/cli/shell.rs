//! Completion in the shell as you type (`source <(COMPLETE=bash drumhead)`):
//! clap's dynamic engine asks for the words of a command line, and gets
//! what the REPL would offer — verbs, the words of the verb in hand, unit
//! ids of the armies the line loads (`--army`, `--game`), rule systems.

use std::ffi::{OsStr, OsString};

use clap::Parser;
use clap_complete::engine::CompletionCandidate;

use super::Args;
use super::complete::Words;
use crate::session::Session;

/// The words of the command line before the one being completed, as the
/// shell passed them to `COMPLETE=bash drumhead -- drumhead …`.
fn words_before() -> Vec<OsString> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let Some(dashes) = args.iter().position(|a| a == "--") else {
        return Vec::new();
    };
    let line = &args[dashes + 1..];
    // bash says which word is being completed; the others complete the last.
    let index = std::env::var("_CLAP_COMPLETE_INDEX")
        .ok()
        .and_then(|i| i.parse::<usize>().ok())
        .unwrap_or(line.len().saturating_sub(1))
        .min(line.len());
    line[..index].to_vec()
}

/// The candidates for a word of the command (the LINE argument).
pub(crate) fn line_words(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else {
        return Vec::new();
    };
    let before = words_before();
    // What the line says so far: its words and its options (an unfinished
    // line may not parse: then it is completed as a line of its own).
    let args = Args::try_parse_from(&before).ok();
    let words = args
        .as_ref()
        .map(|a| a.command.join(" "))
        .unwrap_or_default();
    let Some(session) = args.as_ref().and_then(session_for) else {
        return Vec::new();
    };
    let line = if words.is_empty() {
        current.to_string()
    } else {
        format!("{words} {current}")
    };
    let (_, found) = Words::of(&session, false).candidates(&line, line.len());
    found
        .into_iter()
        .map(|c| {
            let help = (!c.meaning.is_empty()).then(|| c.meaning.into());
            CompletionCandidate::new(c.word).help(help)
        })
        .collect()
}

/// The rule systems, each with its book's title (`drumhead sheet SYSTEM`).
pub(crate) fn books(current: &OsStr) -> Vec<CompletionCandidate> {
    let current = current.to_str().unwrap_or_default();
    crate::systems::all()
        .books()
        .into_iter()
        .filter(|b| b.id().starts_with(current))
        .map(|b| CompletionCandidate::new(b.id()).help(Some(b.title().into())))
        .collect()
}

/// The session the line would run in, without its dice: its tables,
/// rules and armies. Nothing is written (a game file is only read).
fn session_for(args: &Args) -> Option<Session> {
    let registry = crate::systems::all();
    let source = super::table_source(args.tables.as_deref(), args.crt.as_deref()).ok()?;
    let tables = registry.load(&source).ok()?;
    let rules = args.rules.as_deref().and_then(|id| registry.book(id));
    let default = rules.or_else(|| registry.default_book())?;
    let game = if args.army.is_empty() && args.game.is_none() {
        None
    } else {
        open_to_read(args, &tables)
    };
    let mut session = Session::new(tables, default, 0);
    if let Some(game) = game {
        session = session.with_game(game);
        if let Some(rules) = rules {
            session.rules = rules;
        }
    }
    Some(session)
}

/// The armies of `--army` and `--game`, read only: completing a word must
/// never create a game file (`Game::open` makes one that is missing).
fn open_to_read(args: &Args, tables: &crate::system::Tables) -> Option<crate::game::Game> {
    use crate::game::{ArmySource, Game};
    // An existing game has its own armies (any --army must be the same).
    if let Some(path) = args.game.as_ref().filter(|p| p.exists()) {
        let (armies, _, _) = Game::read_file(path).ok()?;
        return Game::new(armies, tables).ok();
    }
    let mut sources = Vec::new();
    for path in &args.army {
        let text =
            crate::files::read_text(path, crate::limits::MAX_LIST_BYTES, "army list").ok()?;
        sources.push(ArmySource {
            file: path.display().to_string(),
            text,
        });
    }
    if sources.is_empty() {
        return None;
    }
    Game::new(sources, tables).ok()
}
