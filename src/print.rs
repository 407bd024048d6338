//! The printable kit made from the program's state: the sheet of a book
//! named by the user, with what house rules changed marked, and the roster
//! of a game — each unit's facts and state read from its rule system's game
//! part (`show`), never from rendered text. The pages are the `sheet`
//! module's.

use crate::command::System;
use crate::error::TableError;
use crate::game::Game;
use crate::sheet::Sheet;
use crate::sheet::roster::{ArmyTable, Roster};
use crate::system::Registry;
use crate::tables::TableSource;

/// Why a sheet could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    #[error("{0}")]
    Tables(#[from] TableError),
    #[error("{0}")]
    Book(String),
}

/// The book a user named: a book's id (`saber-quickplay`), or the last
/// part of one when no other book's id ends so (`quickplay`).
pub(crate) fn book_named(registry: &Registry, name: &str) -> Result<System, SheetError> {
    let books = registry.books();
    if let Some(book) = books.iter().find(|b| b.id() == name) {
        return Ok(*book);
    }
    let by_tail: Vec<&System> = books
        .iter()
        .filter(|b| b.id().rsplit('-').next() == Some(name) && b.id().contains('-'))
        .collect();
    if let [book] = by_tail.as_slice() {
        return Ok(**book);
    }
    let ids: Vec<&str> = books.iter().map(|b| b.id()).collect();
    // A name is near a book's id or the last part of it (`quikplay`).
    let lower = name.to_lowercase();
    let distance = |id: &str| {
        let tail = id.rsplit('-').next().unwrap_or(id);
        strsim::damerau_levenshtein(&lower, id).min(strsim::damerau_levenshtein(&lower, tail))
    };
    let nearest = ids
        .iter()
        .min_by_key(|id| distance(id))
        .filter(|id| distance(id) <= 3);
    let tip = nearest.map_or(String::new(), |id| format!("; did you mean `{id}`?"));
    Err(SheetError::Book(format!(
        "`{name}` is not a rule system drumhead knows{tip} (the systems are {})",
        ids.join(", ")
    )))
}

/// The sheet of `book` from the tables `source` gives, each value a house
/// rule changed marked. The tables are loaded (and so checked) first.
pub(crate) fn sheet(
    registry: &Registry,
    book: System,
    source: &TableSource,
) -> Result<Sheet, SheetError> {
    registry.load(source)?;
    let system = registry
        .system_of(book)
        .ok_or_else(|| SheetError::Book(format!("no rule system has the book `{}`", book.id())))?;
    let no_sheet = || SheetError::Book(format!("{} has no quick-reference sheet", book.title()));
    let mut in_force = system.sheet(book, source).ok_or_else(no_sheet)??;
    let embedded = system
        .sheet(book, &TableSource::embedded())
        .ok_or_else(no_sheet)??;
    in_force.mark_house(&embedded);
    Ok(in_force)
}

/// The roster of a game as it stands: each army as its rule system lays
/// it out (`GameState::printed`), each line marked when it can no longer act.
pub fn roster(game: &Game) -> Roster {
    let armies = game
        .armies
        .iter()
        .enumerate()
        .map(|(i, army)| {
            let printed = game.printed(i).unwrap_or_default();
            ArmyTable {
                name: army.name.clone(),
                rules: army.rules.title().to_string(),
                side: (!army.side.is_empty()).then(|| army.side.clone()),
                columns: printed.columns,
                commands: printed.commands,
                notes: printed.notes,
            }
        })
        .collect();
    let names: Vec<&str> = game.armies.iter().map(|a| a.name.as_str()).collect();
    let mut sources: Vec<String> = game.sources.iter().map(|s| s.file.clone()).collect();
    if let Some(file) = &game.file {
        sources.push(format!("game {}, turn {}", file.display(), game.turn));
    }
    Roster {
        title: format!("Roster: {}", names.join(" — ")),
        sources,
        armies,
    }
}
