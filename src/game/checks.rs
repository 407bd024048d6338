//! What a game refuses before it opens: another format, other armies,
//! ids that collide or are words of the command language.

use std::collections::BTreeSet;

use crate::tables::HouseTable;

use super::*;

/// A journal of another format than this drumhead writes.
pub(super) fn check_version(journal: &Path, version: u32) -> Result<(), GameError> {
    if version == journal::JOURNAL_VERSION {
        return Ok(());
    }
    let game = journal.with_extension("");
    Err(if version < journal::JOURNAL_VERSION {
        GameError::Mismatch(format!(
            "{}: a journal of version {version}, written by an older drumhead, with no hash chain: \
             nothing in it is applied until every entry is resolved again\n  \
             `drumhead repair {}` shows what that does, and `--apply` writes the journal again as a chain",
            journal.display(),
            game.display()
        ))
    } else {
        GameError::Usage(format!(
            "{}: a journal of version {version} is newer than this drumhead reads ({})",
            journal.display(),
            journal::JOURNAL_VERSION
        ))
    })
}

/// What to do when a game and its journal disagree.
pub(crate) fn repair_hint(path: &Path) -> String {
    format!(
        "\n  `drumhead repair {}` shows what can be done about it, and changes nothing until told",
        path.display()
    )
}

pub(super) fn with_hint(e: GameError, path: &Path) -> GameError {
    match e {
        GameError::Mismatch(m) if !m.contains("drumhead repair") => {
            GameError::Mismatch(format!("{m}{}", repair_hint(path)))
        }
        GameError::Journal {
            file,
            line,
            message,
        } => GameError::Journal {
            file,
            line,
            message: format!("{message}{}", repair_hint(path)),
        },
        other => other,
    }
}

/// Reopening with `--army`: the lists must be those the game was made of,
/// in any order. The game keeps its own (and their order, which its state
/// reads): the lists given are only checked against them, each matched by
/// its text, not by where it stands on the command line.
pub(super) fn same_armies(
    path: &Path,
    armies: &[ArmySource],
    given: &[ArmySource],
) -> Result<(), GameError> {
    if armies.len() != given.len() {
        return Err(GameError::Usage(format!(
            "{} was started with {} army list(s) and {} were given: reopen it with `--game {}` alone, or the same --army files",
            path.display(),
            armies.len(),
            given.len(),
            path.display()
        )));
    }
    let mut unmatched: Vec<&ArmySource> = armies.iter().collect();
    let mut strangers = Vec::new();
    for new in given {
        match unmatched.iter().position(|have| have.text == new.text) {
            Some(i) => {
                unmatched.remove(i);
            }
            None => strangers.push(new),
        }
    }
    let (Some(new), Some(have)) = (strangers.first(), unmatched.first()) else {
        return Ok(());
    };
    // The list given that matches none, against the first the game has
    // that none matched: most often the same list, edited.
    let line = have
        .text
        .lines()
        .zip(new.text.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| have.text.lines().count().min(new.text.lines().count()))
        + 1;
    Err(GameError::Usage(format!(
        "{}: this list is none of those {} was started with; it differs from {} first at line {line}: \
         a game keeps its armies; reopen it with `--game {}` alone, or start a new game",
        new.file,
        path.display(),
        have.file,
        path.display()
    )))
}

/// Whether two paths name one file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// An id that is a word of the command language (a verb, `at`, `rolled`,
/// a word the unit's verbs know) could never be named: refused when the
/// list loads.
pub(crate) fn check_ids_are_not_words(armies: &[Army], tables: &Tables) -> Result<(), GameError> {
    let roll = crate::roll::verbs();
    // The words of each system with an army here, made once a system: only
    // those systems' verbs, so another's tables stay unread.
    let mut known: Vec<(Option<usize>, BTreeSet<String>)> = Vec::new();
    for army in armies {
        let index = tables.index_of(army.rules);
        let at = match known.iter().position(|(i, _)| *i == index) {
            Some(at) => at,
            None => {
                known.push((index, words_of_system(army.rules, tables, &roll)));
                known.len() - 1
            }
        };
        let words = &known[at].1;
        for (id, kind) in army.ids() {
            if words.contains(&id) {
                return Err(GameError::Usage(format!(
                    "{}: the {kind} id \"{id}\" is a word of the command language, so the {kind} could never be named; give it another id",
                    army.file
                )));
            }
        }
    }
    Ok(())
}

/// Every word of the command language under a book's rule system: its
/// verbs' words, `roll`'s, and every book's id.
fn words_of_system(
    book: System,
    tables: &Tables,
    roll: &[crate::catalog::VerbDoc],
) -> BTreeSet<String> {
    let books: Vec<System> = tables
        .registry()
        .system_of(book)
        .map(|s| s.books().to_vec())
        .unwrap_or_default();
    let own = tables
        .set(book)
        .map(|s| s.verbs().all())
        .unwrap_or_default();
    let mine = own
        .iter()
        .map(|v| &**v)
        .chain(roll)
        .filter(|v| v.system.is_none_or(|b| books.contains(&b)));
    let mut words = crate::catalog::words_of(mine);
    words.extend(tables.books().iter().map(|b| b.id().to_string()));
    words
}

pub(super) fn check_unique_ids(armies: &[Army]) -> Result<(), GameError> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    for army in armies {
        for (id, _) in army.ids() {
            if let Some((_, file)) = seen.iter().find(|(i, _)| *i == id) {
                return Err(GameError::Usage(format!(
                    "id `{id}` is used in both {file} and {}; ids must be unique across the armies of a game",
                    army.file
                )));
            }
            seen.push((id, &army.file));
        }
    }
    Ok(())
}

/// The tables a game is resolved under: those it recorded when it began.
/// Tables given (`--tables`, `--crt`) must be the same files; none given,
/// the recorded ones are read from their texts.
pub(super) fn tables_for(
    path: &Path,
    given: &Tables,
    recorded: &[HouseTable],
) -> Result<Tables, GameError> {
    let key = |t: &HouseTable| (t.name.clone(), t.text.clone());
    let have: Vec<_> = given.house().iter().map(key).collect();
    let want: Vec<_> = recorded.iter().map(key).collect();
    if have == want {
        return Ok(given.clone());
    }
    if have.is_empty() {
        return given
            .registry()
            .load(&crate::tables::TableSource::recorded(recorded))
            .map_err(|e| {
                GameError::Mismatch(format!(
                    "{}: the house tables this game recorded do not load: {e}",
                    path.display()
                ))
            });
    }
    let names = |tables: &[HouseTable]| -> String {
        if tables.is_empty() {
            return "the embedded tables alone".to_string();
        }
        tables
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let differs = given
        .house()
        .iter()
        .find(|t| !recorded.iter().any(|r| key(r) == key(t)))
        .map(|t| {
            format!(
                "{} ({}) is not the table this game recorded",
                t.name, t.file
            )
        })
        .or_else(|| {
            recorded
                .iter()
                .find(|r| !given.house().iter().any(|t| key(r) == key(t)))
                .map(|r| format!("the game's {} is not given", r.name))
        })
        .unwrap_or_default();
    Err(GameError::Usage(format!(
        "{}: this game was played under {}, and the tables given differ: {differs}; \
         a game keeps the tables it began with: open it without --tables and --crt",
        path.display(),
        names(recorded),
    )))
}

/// The journal's header must be the one the game file was written from:
/// its id, armies and house tables, which every answer depends on.
pub(super) fn check_header(path: &Path, f: &GameFile, reader: &Reader) -> Result<(), GameError> {
    let expected = journal::hash(Journal::header(&f.game, &f.armies, &f.tables)?.as_bytes());
    let recorded = &f.journal.header;
    if expected == reader.tally.header && (recorded.is_empty() || *recorded == expected) {
        return Ok(());
    }
    Err(GameError::Mismatch(format!(
        "{}:1: the journal's header (the armies and tables the game began with) is not the one \
         {} was written from: it was changed after the game began; nothing of it is applied{}",
        Journal::path_for(path).display(),
        path.display(),
        repair_hint(path)
    )))
}
