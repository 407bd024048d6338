//! `drumhead replay C.toml`: every battle of a campaign again, in order,
//! and every close. Each battle's journal is resolved again up to the
//! entry it was closed at (each entry that made a change must be the
//! entry the close recorded), its game must be the campaign's and of the
//! armies as they stood, and its close, run again with the dice it
//! recorded, must give the changes and the lists the campaign recorded.
//! It writes nothing.

use std::collections::BTreeMap;
use std::path::Path;

use super::close::{Recording, run_close};
use super::file::{self, Battle, Closed};
use super::{CampaignError, check_game, resolve_battle, tables_of};
use crate::command::{EnteredDie, Span};
use crate::dice::Dice;
use crate::game::{ArmySource, Game};
use crate::system::Tables;

/// Replay the campaign in `path`; what it found, in words.
pub(crate) fn replay(path: &Path, given: &Tables) -> Result<String, CampaignError> {
    let campaign = file::read(path)?;
    let tables = tables_of(path, &campaign, given)?;
    let mut armies = campaign.armies.clone();
    Game::new(armies.clone(), &tables).map_err(|e| {
        CampaignError::Failed(format!(
            "{}: the starting armies do not read: {e}",
            path.display()
        ))
    })?;
    let mut out = Vec::new();
    let mut closes = 0;
    for battle in &campaign.battles {
        match &battle.close {
            None => {
                let game = resolve_battle(path, battle, &tables, None, &BTreeMap::new())?;
                check_game(path, battle, &game, &armies)?;
                out.push(format!(
                    "{}: not closed yet; its {} resolved again",
                    battle.name,
                    super::entries(game.tally().entries)
                ));
            }
            Some(closed) => {
                out.push(replay_close(path, battle, closed, &armies, &tables)?);
                armies = closed.armies.clone();
                closes += 1;
            }
        }
    }
    file::checked(path, &campaign)?;
    out.push(format!(
        "replayed {} battle{} and {closes} close{}: the armies equal the campaign's as they stand",
        campaign.battles.len(),
        if campaign.battles.len() == 1 { "" } else { "s" },
        if closes == 1 { "" } else { "s" }
    ));
    Ok(out.join("\n"))
}

/// One closed battle again, and its close.
fn replay_close(
    path: &Path,
    battle: &Battle,
    closed: &Closed,
    armies: &[ArmySource],
    tables: &Tables,
) -> Result<String, CampaignError> {
    let name = &battle.name;
    let heads: BTreeMap<u64, String> = closed
        .changes
        .iter()
        .flat_map(|c| c.entries.iter().map(|t| (t.entry, t.head.clone())))
        .collect();
    let mut game = resolve_battle(path, battle, tables, Some(closed.entries), &heads)?;
    check_game(path, battle, &game, armies)?;
    if game.tally().head != closed.head {
        return Err(CampaignError::Failed(format!(
            "battle {name}: entry {} is not the entry the close recorded: the journal was changed \
             at or before it after the battle was closed",
            closed.entries
        )));
    }
    let entered: Vec<EnteredDie> = closed
        .dice
        .iter()
        .map(|face| EnteredDie {
            face: *face,
            span: Span::default(),
        })
        .collect();
    let mut dice = Recording {
        inner: Dice::entered_only(&entered, closed.seed.unwrap_or(0)),
        faces: Vec::new(),
    };
    let again = run_close(&game, name, &closed.words, &mut dice, armies, tables)
        .map_err(|e| CampaignError::Failed(format!("battle {name}: its close again: {e}")))?;
    if dice.inner.check_all_used().is_err() {
        return Err(CampaignError::Failed(format!(
            "battle {name}: its close throws {} dice again, and it recorded {}",
            dice.faces.len(),
            closed.dice.len()
        )));
    }
    let said = |c: Option<&file::Recorded>| {
        c.map_or("nothing".to_string(), |c| format!("{}: {}", c.id, c.what))
    };
    if let Some(i) = (0..again.changes.len().max(closed.changes.len()))
        .find(|i| again.changes.get(*i) != closed.changes.get(*i))
    {
        return Err(CampaignError::Failed(format!(
            "battle {name}: its close resolved again gives {}, and the campaign recorded {}",
            said(again.changes.get(i)),
            said(closed.changes.get(i))
        )));
    }
    if let Some((a, _)) = again
        .armies
        .iter()
        .zip(&closed.armies)
        .find(|(a, b)| a.text != b.text || a.file != b.file)
    {
        return Err(CampaignError::Failed(format!(
            "battle {name}: the list {} the close leaves is not the one the campaign recorded",
            a.file
        )));
    }
    let mut said = format!(
        "{name}: {} resolved again; its close gives the {} change{} it recorded",
        super::entries(closed.entries),
        closed.changes.len(),
        if closed.changes.len() == 1 { "" } else { "s" }
    );
    if let Ok(Some(_)) = game.next_pending() {
        said.push_str(
            " (entries were added to its journal after the close: they are not the campaign's)",
        );
    }
    Ok(said)
}
