//! `campaign new`: a campaign of these armies and tables; `campaign
//! battle`: a game of its armies as they stand now.

use std::path::{Path, PathBuf};

use super::file::{self, Battle, CAMPAIGN_VERSION, CampaignFile, Held};
use super::{CampaignError, game_path, house_names, tables_of};
use crate::game::{ArmySource, Game, Journal};
use crate::system::Tables;

/// Begin a campaign in `path` of the lists `armies` under `tables` (the
/// house tables given are recorded whole). Returns what to tell the user.
pub(crate) fn begin(
    path: &Path,
    armies: &[PathBuf],
    tables: &Tables,
    force: bool,
) -> Result<String, CampaignError> {
    crate::files::check_output(path, force).map_err(|e| CampaignError::Usage(e.to_string()))?;
    let mut sources = Vec::new();
    for army in armies {
        let text = crate::files::read_text(army, crate::limits::MAX_LIST_BYTES, "army list")
            .map_err(|e| CampaignError::Usage(e.to_string()))?;
        sources.push(ArmySource {
            file: army.display().to_string(),
            text,
        });
    }
    if sources.is_empty() {
        return Err(CampaignError::Usage(
            "a campaign needs its armies: give --army FILE for each".into(),
        ));
    }
    // The lists must make a game together, as each battle will.
    let game =
        Game::new(sources.clone(), tables).map_err(|e| CampaignError::Usage(e.to_string()))?;
    let names: Vec<String> = game.armies.iter().map(|a| a.name.clone()).collect();
    let mut campaign = CampaignFile {
        drumhead_campaign: CAMPAIGN_VERSION,
        id: Game::new_id(),
        check: String::new(),
        armies: sources,
        tables: tables.house().to_vec(),
        battles: Vec::new(),
    };
    let text = campaign.text()?;
    crate::files::write_whole(path, text.as_bytes(), force).map_err(|e| {
        if e.is_refusal() {
            CampaignError::Usage(e.to_string())
        } else {
            CampaignError::Failed(e.to_string())
        }
    })?;
    Ok(format!(
        "{}: a new campaign of {}; house tables: {}\nnext: drumhead campaign battle {} NAME",
        path.display(),
        names.join("; "),
        house_names(&campaign.tables),
        path.display()
    ))
}

/// Add battle `name` to the campaign: `NAME.json` beside it, a new game of
/// the armies as they stand now. The last battle must have been closed.
pub(crate) fn battle(path: &Path, name: &str, given: &Tables) -> Result<String, CampaignError> {
    file::check_name(name).map_err(CampaignError::Usage)?;
    let (held, mut campaign) = Held::take(path)?;
    if let Some(b) = campaign.battles.iter().find(|b| b.name == name) {
        return Err(CampaignError::Usage(format!(
            "{}: the campaign has a battle {} already ({}); give the next one another name",
            path.display(),
            b.name,
            if b.close.is_some() {
                "closed"
            } else {
                "not yet closed"
            }
        )));
    }
    if let Some(open) = campaign.battles.iter().find(|b| b.close.is_none()) {
        return Err(CampaignError::Usage(format!(
            "{}: battle {} is not closed yet: close it first (drumhead campaign close {} {}), \
             so that the next battle starts from what it left",
            path.display(),
            open.name,
            path.display(),
            open.name
        )));
    }
    if campaign.battles.len() >= crate::limits::MAX_CAMPAIGN_BATTLES {
        return Err(CampaignError::Usage(format!(
            "{}: the campaign has {} battles, the most one may have",
            path.display(),
            campaign.battles.len()
        )));
    }
    let tables = tables_of(path, &campaign, given)?;
    super::closed_still_stand(path, &campaign)?;
    let game_file = game_path(path, name);
    let journal = Journal::path_for(&game_file);
    for p in [&game_file, &journal] {
        if p.symlink_metadata().is_ok() {
            return Err(CampaignError::Usage(format!(
                "{}: already there; a battle's game is made new (remove it, or give the battle another name)",
                p.display()
            )));
        }
    }
    let sources = campaign.current().to_vec();
    let game = Game::open(
        &game_file,
        sources,
        &tables,
        crate::game::Options::default(),
    )
    .map_err(|e| CampaignError::Failed(e.to_string()))?;
    let id = game.id().to_string();
    let names: Vec<String> = game.armies.iter().map(|a| a.name.clone()).collect();
    drop(game);
    campaign.battles.push(Battle {
        name: name.to_string(),
        game: id,
        close: None,
    });
    if let Err(e) = held.write(&mut campaign) {
        // The game is no battle of the campaign's: it goes again.
        let _ = std::fs::remove_file(&journal);
        let _ = std::fs::remove_file(&game_file);
        return Err(e);
    }
    Ok(format!(
        "{}: battle {} of the campaign, a new game of the armies as they stand ({})\n\
         play it: drumhead --game {}\nthen close it: drumhead campaign close {} {}",
        game_file.display(),
        campaign.battles.len(),
        names.join("; "),
        game_file.display(),
        path.display(),
        name
    ))
}
