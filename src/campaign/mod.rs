//! Campaigns: armies carried from battle to battle, every change traced to
//! the journal entry that made it.
//!
//! A campaign file ([`file`]) holds the starting armies and the house
//! tables; each battle is a game of the armies as they stand
//! (`campaign battle`), played as any game, then closed (`campaign
//! close`): its journal is resolved again whole, and each rule system
//! says what its armies carry to the next battle
//! ([`crate::system::GameState::carry`]), dicing where its rules dice.
//! The campaign records the journal's mark, the close's dice and every
//! change with the entries that made it, and writes the changes into the
//! lists' text ([`crate::army::edit_list`]), which are read again as any
//! list is. `drumhead replay C.toml` does it all again, battle by battle,
//! and must find the same.
//!
//! The core names no rule system's words: what carries over, and how it
//! is said, is each system's.

mod close;
mod file;
mod replay;
mod start;
mod view;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::game::{ArmySource, Game, GameError};
use crate::session::Session;
use crate::system::Tables;

pub(crate) use close::close;
pub(crate) use file::{CampaignFile, is_campaign};
pub(crate) use replay::replay;
pub(crate) use start::{battle, begin};
pub(crate) use view::{export, show, show_json};

use file::{Battle, Traced};

/// Why a campaign command did not do what it was asked.
#[derive(Debug, Error)]
pub(crate) enum CampaignError {
    /// A file, a name or an option that cannot be used (exit status 2).
    #[error("{0}")]
    Usage(String),
    /// A check that failed, or a write (exit status 1).
    #[error("{0}")]
    Failed(String),
}

impl CampaignError {
    /// The exit status it gives.
    pub(crate) fn code(&self) -> u8 {
        match self {
            CampaignError::Usage(_) => 2,
            CampaignError::Failed(_) => 1,
        }
    }
}

/// A battle's game file: `NAME.json` beside the campaign file.
pub(crate) fn game_path(campaign: &Path, name: &str) -> PathBuf {
    let file = format!("{name}.json");
    match campaign.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(file),
        _ => PathBuf::from(file),
    }
}

/// `1 entry`, `2 entries`.
pub(crate) fn entries(n: u64) -> String {
    format!("{n} entr{}", if n == 1 { "y" } else { "ies" })
}

/// The tables a campaign is played under: the house tables it recorded
/// when it began. Tables given now (`--tables`, `--crt`) must be those.
pub(crate) fn tables_of(
    path: &Path,
    campaign: &CampaignFile,
    given: &Tables,
) -> Result<Tables, CampaignError> {
    let key = |t: &crate::tables::HouseTable| (t.name.clone(), t.text.clone());
    let have: Vec<_> = given.house().iter().map(key).collect();
    let want: Vec<_> = campaign.tables.iter().map(key).collect();
    if !have.is_empty() && have != want {
        return Err(CampaignError::Usage(format!(
            "{}: the campaign keeps the house tables it began with ({}); leave --tables and --crt out",
            path.display(),
            house_names(&campaign.tables)
        )));
    }
    given
        .registry()
        .load(&crate::tables::TableSource::recorded(&campaign.tables))
        .map_err(|e| {
            CampaignError::Usage(format!(
                "{}: the house tables the campaign recorded do not load: {e}",
                path.display()
            ))
        })
}

/// The house tables, as an answer names them.
pub(crate) fn house_names(tables: &[crate::tables::HouseTable]) -> String {
    if tables.is_empty() {
        return "none: the embedded tables".to_string();
    }
    tables
        .iter()
        .map(|t| format!("{} (from {})", t.name, t.file))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A game's error, said of a battle: a journal's line is its entry.
fn of_battle(name: &str, e: GameError) -> CampaignError {
    match e {
        GameError::Journal {
            file,
            line,
            message,
        } if message.starts_with(crate::game::CHAIN_BROKEN) && line > 2 => {
            CampaignError::Failed(format!(
                "battle {name}: entry {} does not follow entry {}: one of the two was changed by \
                 hand ({file}, line {line}: {message})",
                line - 1,
                line - 2
            ))
        }
        GameError::Journal {
            file,
            line,
            message,
        } => CampaignError::Failed(format!(
            "battle {name}: entry {} ({file}, line {line}): {message}",
            line.saturating_sub(1)
        )),
        other => CampaignError::Failed(format!("battle {name}: {other}")),
    }
}

/// A battle's game is the campaign's: the id the campaign made, the
/// armies as they stood and the campaign's house tables.
fn check_game(
    path: &Path,
    battle: &Battle,
    game: &Game,
    armies: &[ArmySource],
) -> Result<(), CampaignError> {
    let shown = game_path(path, &battle.name);
    if game.id() != battle.game {
        return Err(CampaignError::Usage(format!(
            "{}: not this campaign's battle {}: its game is {}, and the campaign made {} \
             (a game of another campaign, or one made again under the name)",
            shown.display(),
            battle.name,
            game.id(),
            battle.game
        )));
    }
    let texts = |s: &[ArmySource]| s.iter().map(|a| a.text.clone()).collect::<Vec<_>>();
    if texts(game.sources()) != texts(armies) {
        return Err(CampaignError::Usage(format!(
            "{}: the armies of this game are not the campaign's as they stood for battle {}",
            shown.display(),
            battle.name
        )));
    }
    Ok(())
}

/// Every closed battle's journal still holds what was closed: its chain
/// read (not resolved: `replay` does that) to the entry it was closed at,
/// and its head there the one recorded. The next battle starts from what
/// those closes carried, so a journal changed since is refused.
fn closed_still_stand(path: &Path, campaign: &CampaignFile) -> Result<(), CampaignError> {
    use crate::game::{Journal, Next, Reader};
    for battle in &campaign.battles {
        let Some(closed) = &battle.close else {
            continue;
        };
        let journal = Journal::path_for(&game_path(path, &battle.name));
        let changed = |what: String| {
            CampaignError::Failed(format!(
                "battle {}: {what} since it was closed; drumhead replay {} says where",
                battle.name,
                path.display()
            ))
        };
        let (mut reader, opening) =
            Reader::open(&journal).map_err(|e| of_battle(&battle.name, e))?;
        if opening.game != battle.game {
            return Err(changed(format!(
                "{} is another game's journal",
                journal.display()
            )));
        }
        while reader.tally.entries < closed.entries {
            match reader
                .next_entry()
                .map_err(|e| of_battle(&battle.name, e))?
            {
                Next::Entry(..) => {}
                Next::End | Next::Torn(..) => {
                    return Err(changed(format!(
                        "its journal has {}, and the close took {}",
                        entries(reader.tally.entries),
                        closed.entries
                    )));
                }
            }
        }
        if reader.tally.head != closed.head {
            return Err(changed(format!(
                "its journal up to entry {} is not the one closed: it was changed",
                closed.entries
            )));
        }
    }
    Ok(())
}

/// A battle's journal resolved again, entry by entry, as `replay` does,
/// up to `upto` entries (all without it); the journal line of each entry
/// in `heads` must hash to what the campaign recorded. Returns the game.
fn resolve_battle(
    path: &Path,
    battle: &Battle,
    tables: &Tables,
    upto: Option<u64>,
    heads: &BTreeMap<u64, String>,
) -> Result<Game, CampaignError> {
    let journal = crate::game::Journal::path_for(&game_path(path, &battle.name));
    if std::fs::symlink_metadata(&journal).is_err() {
        return Err(CampaignError::Usage(format!(
            "battle {}: its journal {} is not there; the battle's game is kept beside the campaign file",
            battle.name,
            journal.display()
        )));
    }
    let game = Game::replaying(&journal, tables).map_err(|e| of_battle(&battle.name, e))?;
    let book = tables
        .registry()
        .default_book()
        .ok_or_else(|| CampaignError::Failed("no rule system is registered".into()))?;
    let mut session = Session::new(tables.clone(), book, 0).with_game(game);
    let mut done = 0u64;
    loop {
        if upto.is_some_and(|n| done >= n) {
            break;
        }
        let Some((entry, _)) = session
            .resolve_next()
            .map_err(|e| of_battle(&battle.name, e))?
        else {
            break;
        };
        done += 1;
        let head = session.game.as_ref().map(|g| g.tally().head.clone());
        if let (Some(want), Some(head)) = (heads.get(&entry.entry), head)
            && *want != head
        {
            return Err(CampaignError::Failed(format!(
                "battle {}: entry {} ({}) is not the entry the close recorded: the journal was \
                 changed at or before it after the battle was closed",
                battle.name,
                entry.entry,
                journal.display()
            )));
        }
    }
    if let Some(n) = upto.filter(|n| done < *n) {
        return Err(CampaignError::Failed(format!(
            "battle {}: its journal {} has {done} entries, and the close recorded {n}: entry {} is missing",
            battle.name,
            journal.display(),
            done + 1
        )));
    }
    session
        .game
        .take()
        .ok_or_else(|| CampaignError::Failed("no game".into()))
}

/// The traced entries of a close, as the campaign records them.
fn traced(
    entries: &[u64],
    lines: &BTreeMap<u64, String>,
    heads: &BTreeMap<u64, String>,
) -> Vec<Traced> {
    entries
        .iter()
        .map(|n| Traced {
            entry: *n,
            line: lines.get(n).cloned().unwrap_or_default(),
            head: heads.get(n).cloned().unwrap_or_default(),
        })
        .collect()
}
