//! `campaign close C.toml NAME [WORD…] [rolled FACE… [roll-rest]]`: after
//! the battle, each rule system's between-battles step. The battle's
//! journal is resolved again whole; each system says what its armies
//! carry, throwing the dice its rules throw after a battle (entered with
//! `rolled`, or rolled and their seed recorded); the changes are written
//! into the lists, which are read again; and the campaign records it all.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::file::{Closed, Held, Recorded};
use super::{
    CampaignError, check_game, game_path, house_names, of_battle, resolve_battle, tables_of, traced,
};
use crate::army::{EntryEdits, edit_list};
use crate::carry::Close;
use crate::command::EnteredDie;
use crate::dice::{Dice, DiceSource, Rolled};
use crate::error::DiceError;
use crate::game::{ArmySource, Game};
use crate::system::Tables;

/// What a close gives: the changes as recorded, the armies after it, and
/// the rules it followed in words.
pub(super) struct Outcome {
    pub(super) changes: Vec<Recorded>,
    pub(super) armies: Vec<ArmySource>,
    pub(super) rules: Vec<String>,
}

/// Close battle `name`: `line` is the close line's words (house rows to
/// apply, `rolled FACE…`), `seed` the seed of the dice it rolls; `wait`
/// waits for a writer of the battle's game to finish.
pub(crate) fn close(
    path: &Path,
    name: &str,
    line: &[String],
    seed: Option<u64>,
    wait: bool,
    given: &Tables,
) -> Result<String, CampaignError> {
    let (held, mut campaign) = Held::take(path)?;
    let Some(at) = campaign.battles.iter().position(|b| b.name == name) else {
        let names: Vec<&str> = campaign.battles.iter().map(|b| b.name.as_str()).collect();
        return Err(CampaignError::Usage(format!(
            "{}: the campaign has no battle {}; {}",
            path.display(),
            crate::text::visible(name),
            if names.is_empty() {
                "it has none yet (drumhead campaign battle C.toml NAME makes one)".to_string()
            } else {
                format!("its battles are {}", names.join(", "))
            }
        )));
    };
    let battle = campaign.battles[at].clone();
    if let Some(c) = &battle.close {
        return Err(CampaignError::Usage(format!(
            "{}: battle {name} was closed already, after entry {} of its journal: a battle is \
             closed once (drumhead campaign show {} says what it carried)",
            path.display(),
            c.entries,
            path.display()
        )));
    }
    let tables = tables_of(path, &campaign, given)?;
    super::closed_still_stand(path, &campaign)?;
    let (words, entered, roll_rest) = close_line(line)?;
    let before = campaign.current().to_vec();
    // No line is written into the battle while it is closed: the close
    // takes the whole of it.
    let game_file = game_path(path, name);
    let _writing = if crate::game::Journal::path_for(&game_file).is_file() {
        let lock = crate::game::Lock::acquire(&game_file, wait)
            .map_err(|e| CampaignError::Failed(format!("battle {name}: {e}")))?;
        Some(lock)
    } else {
        None
    };
    let game = resolve_battle(path, &battle, &tables, None, &BTreeMap::new())?;
    check_game(path, &battle, &game, &before)?;
    let seed = seed.unwrap_or_else(crate::dice::entropy_seed);
    let dice = if roll_rest || entered.is_empty() {
        Dice::new(&entered, seed)
    } else {
        Dice::entered_only(&entered, seed)
    };
    let mut dice = Recording {
        inner: dice,
        faces: Vec::new(),
    };
    let outcome = match run_close(&game, name, &words, &mut dice, &before, &tables) {
        Ok(outcome) => outcome,
        Err(e) if !roll_rest && !entered.is_empty() => {
            return Err(too_few(&game, name, &words, &entered, &before, &tables).unwrap_or(e));
        }
        Err(e) => return Err(e),
    };
    dice.inner.check_all_used().map_err(|e| {
        CampaignError::Usage(format!(
            "the close's dice: {e}; the close throws {} dice",
            dice.faces.len()
        ))
    })?;
    let report = report(
        path,
        name,
        &game,
        &outcome,
        &dice.faces,
        seed,
        &campaign.tables,
    );
    let rolled = dice.faces.iter().any(|d| !d.entered);
    campaign.battles[at].close = Some(Closed {
        entries: game.tally().entries,
        head: game.tally().head.clone(),
        words,
        entered: dice.faces.iter().filter(|d| d.entered).count(),
        dice: dice.faces.iter().map(|d| d.face).collect(),
        seed: rolled.then_some(seed),
        changes: outcome.changes,
        armies: outcome.armies,
    });
    held.write(&mut campaign)?;
    Ok(report)
}

/// Too few dice entered for a close: how many it throws, found by
/// running it again with the rest rolled (it writes nothing). `None` when
/// that fails too: the first error is the one to say.
fn too_few(
    game: &Game,
    name: &str,
    words: &[String],
    entered: &[EnteredDie],
    before: &[ArmySource],
    tables: &Tables,
) -> Option<CampaignError> {
    let mut dice = Recording {
        inner: Dice::new(entered, 0),
        faces: Vec::new(),
    };
    run_close(game, name, words, &mut dice, before, tables).ok()?;
    (dice.faces.len() > entered.len()).then(|| {
        CampaignError::Usage(format!(
            "the close throws {} dice (those its rules throw after a battle, in roster order), \
             and {} were entered: enter them all after `rolled`, or end them with `roll-rest` to \
             roll the rest",
            dice.faces.len(),
            entered.len()
        ))
    })
}

/// The close line: its words, its entered dice, and whether the dice past
/// them are rolled (`roll-rest`).
fn close_line(line: &[String]) -> Result<(Vec<String>, Vec<EnteredDie>, bool), CampaignError> {
    let text = format!("close {}", line.join(" "));
    let bad =
        |why: String| CampaignError::Usage(format!("the close line `{}`: {why}", line.join(" ")));
    let command = match crate::parse::parse_line(&text, &[]) {
        Ok(Some(command)) => command,
        Ok(None) => return Ok((Vec::new(), Vec::new(), false)),
        Err(e) => return Err(bad(e.to_string())),
    };
    if !command.clauses.is_empty() {
        return Err(bad("a close takes no `at` or `vs`".into()));
    }
    let mut words = Vec::new();
    for w in &command.words {
        match w.keyword() {
            Some(k) if crate::army::valid_id(k) => words.push(k.to_string()),
            _ => {
                return Err(bad(format!(
                    "`{}` is not a house row's keyword (a close takes those, and `rolled FACE…`)",
                    crate::text::visible(&w.text)
                )));
            }
        }
    }
    Ok((words, command.rolled.clone(), command.roll_rest))
}

/// The close itself: each rule system's carry-over, the changes written
/// into the lists, the lists read again together.
pub(super) fn run_close(
    game: &Game,
    name: &str,
    words: &[String],
    dice: &mut dyn DiceSource,
    before: &[ArmySource],
    tables: &Tables,
) -> Result<Outcome, CampaignError> {
    let close = Close {
        battle: name,
        words,
    };
    let carries = game.carry(&close, dice).map_err(|e| of_battle(name, e))?;
    let keywords: Vec<&str> = carries
        .iter()
        .flat_map(|c| c.keywords.iter().map(String::as_str))
        .collect();
    if let Some(w) = words.iter().find(|w| !keywords.contains(&w.as_str())) {
        return Err(CampaignError::Usage(format!(
            "the close line names `{w}`, which is no house row of these armies' rule systems; {}",
            if keywords.is_empty() {
                "they have none".to_string()
            } else {
                format!("theirs are {}", keywords.join(", "))
            }
        )));
    }
    let changes: Vec<crate::carry::Change> = carries
        .iter()
        .flat_map(|c| c.changes.iter().cloned())
        .collect();
    let wanted: BTreeSet<u64> = changes
        .iter()
        .flat_map(|c| c.entries.iter().copied())
        .collect();
    let heads = game.heads_at(&wanted).map_err(|e| of_battle(name, e))?;
    let lines: BTreeMap<u64, String> = game
        .live_entries()
        .map_err(|e| of_battle(name, e))?
        .into_iter()
        .filter(|e| wanted.contains(&e.entry))
        .map(|e| (e.entry, e.line.unwrap_or_default()))
        .collect();
    let mut armies = before.to_vec();
    for (i, army) in armies.iter_mut().enumerate() {
        let edits: Vec<EntryEdits> = changes
            .iter()
            .filter(|c| c.army == i && !c.edits.is_empty())
            .map(|c| EntryEdits {
                section: c.section,
                id: &c.id,
                edits: &c.edits,
            })
            .collect();
        if !edits.is_empty() {
            army.text = edit_list(&army.text, &edits)
                .map_err(|e| CampaignError::Failed(format!("{}: {e}", army.file)))?;
        }
    }
    // Read again as every list is, and together, as the next battle will.
    Game::new(armies.clone(), tables).map_err(|e| {
        CampaignError::Failed(format!(
            "the armies the close leaves do not read again: {e}"
        ))
    })?;
    let recorded = changes
        .iter()
        .map(|c| Recorded {
            army: c.army,
            section: c.section.to_string(),
            id: c.id.clone(),
            what: c.what.clone(),
            die: c.die,
            entries: traced(&c.entries, &lines, &heads),
        })
        .collect();
    Ok(Outcome {
        changes: recorded,
        armies,
        rules: carries.into_iter().flat_map(|c| c.rules).collect(),
    })
}

/// The name an army's list gives an entry (one held out too).
pub(super) fn name_of(game: &Game, army: usize, id: &str) -> String {
    let Some(a) = game.armies.get(army) else {
        return String::new();
    };
    a.list
        .members()
        .iter()
        .find(|m| m.id == id)
        .map(|m| m.name.to_string())
        .or_else(|| {
            a.list
                .away()
                .into_iter()
                .find(|w| w.id == id)
                .map(|w| w.name)
        })
        .unwrap_or_default()
}

/// What the close says.
fn report(
    path: &Path,
    name: &str,
    game: &Game,
    outcome: &Outcome,
    dice: &[Rolled],
    seed: u64,
    house: &[crate::tables::HouseTable],
) -> String {
    let mut out = format!(
        "closed battle {name} ({}) after entry {}: what each army carries to the next battle",
        game_path(path, name).display(),
        game.tally().entries
    );
    if outcome.changes.is_empty() {
        out.push_str("\n  nothing: every list stays as it was");
    }
    for c in &outcome.changes {
        let army = game.armies.get(c.army).map_or("", |a| a.name.as_str());
        out.push_str(&format!(
            "\n  {} ({}, {army}): {}",
            c.id,
            name_of(game, c.army, &c.id),
            c.what
        ));
        for t in &c.entries {
            out.push_str(&format!("\n      entry {}: {}", t.entry, t.line));
        }
        if let Some(die) = c.die {
            out.push_str(&format!("\n      the close's die: {die}"));
        }
    }
    out.push_str("\nrules followed:");
    for rule in &outcome.rules {
        out.push_str(&format!("\n  {rule}"));
    }
    out.push_str(&format!("\nhouse tables: {}", house_names(house)));
    if !dice.is_empty() {
        let faces: Vec<String> = dice
            .iter()
            .map(|d| {
                format!(
                    "{} ({})",
                    d.face,
                    if d.entered { "entered" } else { "rolled" }
                )
            })
            .collect();
        out.push_str(&format!("\ndice: {}", faces.join(", ")));
        if dice.iter().any(|d| !d.entered) {
            out.push_str(&format!(" (seed {seed})"));
        }
    }
    out.push_str(&format!(
        "\nnext: drumhead campaign battle {} NAME; the lists: drumhead campaign export {} -o DIR",
        path.display(),
        path.display()
    ));
    out
}

/// A source of dice that keeps every die it gives, for the record.
pub(super) struct Recording {
    pub(super) inner: Dice,
    pub(super) faces: Vec<Rolled>,
}

impl DiceSource for Recording {
    fn roll(&mut self, sides: u32) -> Result<Rolled, DiceError> {
        let die = self.inner.roll(sides)?;
        self.faces.push(die);
        Ok(die)
    }
}
