//! `campaign show`: the armies as they stand, and each change with its
//! battle and journal entry; `campaign export`: the armies as they stand,
//! as army lists any drumhead command takes.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::file::{self, CampaignFile};
use super::{CampaignError, house_names, tables_of};
use crate::answer::report::{ArmyRoster, Report};
use crate::game::Game;
use crate::system::Tables;

/// The campaign as `show` gives it: every battle, every army as it
/// stands, and each entry's history.
#[derive(Debug, Serialize)]
struct View {
    #[serde(rename = "type")]
    kind: &'static str,
    version: u32,
    file: String,
    campaign: String,
    /// The house tables in force: each file's name and where it came from.
    tables: Vec<TableView>,
    battles: Vec<BattleView>,
    armies: Vec<ArmyView>,
}

#[derive(Debug, Serialize)]
struct TableView {
    name: String,
    file: String,
}

#[derive(Debug, Serialize)]
struct BattleView {
    name: String,
    game: String,
    closed: bool,
    /// The entries of its journal the close took, and their head.
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    head: Option<String>,
    words: Vec<String>,
    dice: Vec<u32>,
    entered: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
}

#[derive(Debug, Serialize)]
struct ArmyView {
    file: String,
    #[serde(flatten)]
    roster: ArmyRoster,
    history: Vec<HistoryView>,
}

#[derive(Debug, Serialize)]
struct HistoryView {
    id: String,
    name: String,
    section: String,
    battle: String,
    what: String,
    die: Option<u32>,
    entries: Vec<EntryView>,
}

#[derive(Debug, Serialize)]
struct EntryView {
    entry: u64,
    line: String,
}

/// The campaign read and checked, its tables and its armies as they stand.
fn open(path: &Path, given: &Tables) -> Result<(CampaignFile, Game), CampaignError> {
    let campaign = file::read(path)?;
    file::checked(path, &campaign)?;
    let tables = tables_of(path, &campaign, given)?;
    let game = Game::new(campaign.current().to_vec(), &tables).map_err(|e| {
        CampaignError::Usage(format!(
            "{}: the armies as they stand do not read: {e}",
            path.display()
        ))
    })?;
    Ok((campaign, game))
}

fn view(path: &Path, campaign: &CampaignFile, game: &Game) -> View {
    let armies = match game.roster() {
        Report::Roster { armies, .. } => armies,
        _ => Vec::new(),
    };
    let battles = campaign
        .battles
        .iter()
        .map(|b| BattleView {
            name: b.name.clone(),
            game: b.game.clone(),
            closed: b.close.is_some(),
            entries: b.close.as_ref().map(|c| c.entries),
            head: b.close.as_ref().map(|c| c.head.clone()),
            words: b
                .close
                .as_ref()
                .map(|c| c.words.clone())
                .unwrap_or_default(),
            dice: b.close.as_ref().map(|c| c.dice.clone()).unwrap_or_default(),
            entered: b.close.as_ref().map_or(0, |c| c.entered),
            seed: b.close.as_ref().and_then(|c| c.seed),
        })
        .collect();
    let armies = armies
        .into_iter()
        .enumerate()
        .map(|(i, roster)| ArmyView {
            file: campaign
                .armies
                .get(i)
                .map(|a| a.file.clone())
                .unwrap_or_default(),
            roster,
            history: history(campaign, game, i),
        })
        .collect();
    View {
        kind: "campaign",
        version: 1,
        file: path.display().to_string(),
        campaign: campaign.id.clone(),
        tables: campaign
            .tables
            .iter()
            .map(|t| TableView {
                name: t.name.clone(),
                file: t.file.clone(),
            })
            .collect(),
        battles,
        armies,
    }
}

/// One army's changes, battle by battle, in roster order.
fn history(campaign: &CampaignFile, game: &Game, army: usize) -> Vec<HistoryView> {
    let mut out = Vec::new();
    for b in &campaign.battles {
        let Some(close) = &b.close else { continue };
        for c in close.changes.iter().filter(|c| c.army == army) {
            out.push(HistoryView {
                id: c.id.clone(),
                name: super::close::name_of(game, army, &c.id),
                section: c.section.clone(),
                battle: b.name.clone(),
                what: c.what.clone(),
                die: c.die,
                entries: c
                    .entries
                    .iter()
                    .map(|t| EntryView {
                        entry: t.entry,
                        line: t.line.clone(),
                    })
                    .collect(),
            });
        }
    }
    out
}

/// `campaign show --json`: one JSON object (schemas/campaign.json).
pub(crate) fn show_json(path: &Path, given: &Tables) -> Result<String, CampaignError> {
    let (campaign, game) = open(path, given)?;
    serde_json::to_string(&view(path, &campaign, &game))
        .map_err(|e| CampaignError::Failed(e.to_string()))
}

/// `campaign show`: the battles, the armies as `units` shows them, and
/// each entry's history.
pub(crate) fn show(
    path: &Path,
    given: &Tables,
    style: &crate::format::Style,
) -> Result<String, CampaignError> {
    let (campaign, game) = open(path, given)?;
    let v = view(path, &campaign, &game);
    let mut out = format!("campaign {}: ", v.file);
    if v.battles.is_empty() {
        out.push_str("no battle yet");
    }
    let battles: Vec<String> = v
        .battles
        .iter()
        .map(|b| match b.entries {
            Some(n) => format!("{} (closed after entry {n})", b.name),
            None => format!("{} (not closed yet)", b.name),
        })
        .collect();
    out.push_str(&battles.join(", "));
    out.push_str(&format!(
        "\nhouse tables: {}\n\n",
        house_names(&campaign.tables)
    ));
    out.push_str(&crate::format::text::report_text(&game.roster(), style));
    for army in &v.armies {
        if army.history.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n\nhistory of {} ({}):",
            army.roster.name, army.file
        ));
        for h in &army.history {
            out.push_str(&format!(
                "\n  {} ({}), {}: {}",
                h.id, h.name, h.battle, h.what
            ));
            for e in &h.entries {
                out.push_str(&format!("\n      entry {}: {}", e.entry, e.line));
            }
            if let Some(die) = h.die {
                out.push_str(&format!("\n      the close's die: {die}"));
            }
        }
    }
    Ok(out)
}

/// What `export` wrote, or why a file was not written.
pub(crate) type Written = Result<Vec<PathBuf>, Vec<crate::files::OutputError>>;

/// `campaign export -o DIR`: each army as it stands, a list under its own
/// file's name (`DIR/NAME.toml`), all written or none. Returns the paths.
pub(crate) fn export(
    path: &Path,
    dir: &Path,
    force: bool,
    given: &Tables,
) -> Result<Written, CampaignError> {
    let (campaign, _) = open(path, given)?;
    let mut names: Vec<String> = Vec::new();
    for (i, army) in campaign.current().iter().enumerate() {
        let base = list_name(&army.file, i);
        let name = if names.contains(&base) {
            format!("{}-{base}", i + 1)
        } else {
            base
        };
        names.push(name);
    }
    let files: Vec<(&str, &[u8])> = names
        .iter()
        .zip(campaign.current())
        .map(|(n, a)| (n.as_str(), a.text.as_bytes()))
        .collect();
    Ok(crate::files::write_folder(dir, &files, force))
}

/// The file name an exported list is written under: the name of the list
/// the campaign began with, if it is a plain one (a campaign file from
/// elsewhere may give any label), else `army-N.toml`.
fn list_name(label: &str, index: usize) -> String {
    Path::new(label)
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| {
            !n.starts_with('.')
                && n.len() <= 100
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        })
        .map_or_else(|| format!("army-{}.toml", index + 1), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::list_name;

    #[test]
    fn an_exported_list_is_named_after_a_plain_file_name_only() {
        assert_eq!(
            list_name("armies/leuthen-1757-prussian.toml", 0),
            "leuthen-1757-prussian.toml"
        );
        assert_eq!(list_name("../../etc/passwd", 1), "passwd");
        for label in [
            "x/..",
            "",
            ".hidden",
            "a\u{1b}[31m.toml",
            "sp ace.toml",
            "/",
        ] {
            assert_eq!(list_name(label, 2), "army-3.toml", "{label:?}");
        }
    }
}
