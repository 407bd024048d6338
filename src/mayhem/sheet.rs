//! The Musket Mayhem quick-reference sheet: every table the verbs read, in
//! the order and words of the rules (shared/rules/musket-mayhem.txt), from
//! the tables in force.

use crate::error::TableError;
use crate::sheet::{Section, Sheet, Table, signed};
use crate::tables::TableSource;

use super::{FILES, MayhemTables};

pub(crate) fn sheet(source: &TableSource) -> Result<Sheet, TableError> {
    // The tables the verbs read, checked as they are when the system loads.
    let (label, mut t): (String, MayhemTables) = source.parse(&FILES[0])?;
    t.validate(&label)?;
    let (campaign_label, campaign) =
        crate::carry::load(source, &FILES[1], super::game::CAMPAIGN_SECTION)?;
    t.campaign = campaign;
    let sections = vec![
        sequence(&t),
        movement(&t),
        missile_fire(&t),
        courage(&t),
        hand_to_hand(&t),
        miscellany(&t),
    ];
    Ok(Sheet {
        title: super::MAYHEM.title().to_string(),
        publication: PUBLICATION.into(),
        sources: vec![label, campaign_label],
        sections,
    })
}

/// As the rules' own heading gives them.
const PUBLICATION: &str = "Musket Mayhem, by Rob Dean and Ross Macfarlane, draft 21 October 2011 (rules update of 31 October 2011)";

/// A score and every face above it: `5-6`, or `6`.
fn and_up(score: i64) -> String {
    if score >= 6 {
        score.to_string()
    } else {
        format!("{score}-6")
    }
}

/// The sequence of play: initiative and activation.
fn sequence(t: &MayhemTables) -> Section {
    let mut s = Section::new("Sequence");
    s.note(&t.initiative.row);
    s.note(&t.initiative.tie);
    s.note(&t.activation.row);
    s
}

/// Movement distances.
fn movement(t: &MayhemTables) -> Section {
    let mut s = Section::new("Movement");
    let mut table = Table::new(
        "To determine distance roll dice as follows",
        &["", "Inches"],
    );
    for r in &t.movement.mode {
        table.row(&r.row, vec![format!("{}\"", r.dice)]);
    }
    for r in &t.movement.bonus {
        table.row(&r.row, vec![format!("+{}\"", r.dice)]);
    }
    s.tables.push(table);
    s
}

/// Missile fire: the skill and impact dice, the weapons, reloading.
fn missile_fire(t: &MayhemTables) -> Section {
    let f = &t.fire;
    let mut s = Section::new("Missile Fire");
    let mut table = Table::new("Skill Die", &["", "Score"]);
    table.row(&f.over_half_range_row, vec![signed(f.over_half_range)]);
    table.row(&f.mounted_row, vec![signed(f.mounted)]);
    for c in &f.cover {
        table.row(format!("{} checks impact", c.row), vec![and_up(c.needs)]);
    }
    s.tables.push(table);
    let mut table = Table::new("Impact Die", &["", "Score"]);
    let kill = f.kill_at;
    table.row(&f.kill_row, vec![and_up(kill)]);
    table.row(
        &f.courage_row,
        vec![match kill {
            3.. => format!("1-{}", kill - 1),
            2 => "1".to_string(),
            _ => "—".to_string(),
        }],
    );
    let mut shown: Vec<&str> = Vec::new();
    for w in &f.weapon {
        let Some(modifier) = w.impact_row.as_deref().filter(|m| !m.is_empty()) else {
            continue;
        };
        if !shown.contains(&modifier) {
            table.row(modifier, vec![signed(w.impact)]);
            shown.push(modifier);
        }
    }
    s.tables.push(table);
    s.tables.push(weapons(t));
    s.tables.push(reloading(t));
    s
}

fn weapons(t: &MayhemTables) -> Table {
    let f = &t.fire;
    let mut table = Table::new("Weapons", &["Weapon", "Range", "Impact", "Reloads"]);
    for w in &f.weapon {
        let name = match w.several.as_deref().filter(|s| !s.is_empty()) {
            Some(several) => format!("{}: {several}", w.row),
            None => w.row.clone(),
        };
        let reloads = if w.gunpowder { "gunpowder" } else { "" };
        table.row(
            name,
            vec![format!("{}\"", w.range), signed(w.impact), reloads.into()],
        );
    }
    table.note(format!("{}.", f.shoot_once_row));
    table.note(&f.unloaded_row);
    table
}

fn reloading(t: &MayhemTables) -> Table {
    let r = &t.reload;
    let mut table = Table::new("Reloading", &["", ""]);
    table.row(
        "Smoke puffs placed when a gun fires",
        vec![r.puffs.to_string()],
    );
    table.row("Trained crew of at least", vec![r.min_crew.to_string()]);
    table.row(
        "A leader counts as",
        vec![format!("{} figures", r.leader_counts)],
    );
    table.row("Puffs removed per turn", vec![r.clear_per_turn.to_string()]);
    table.note(&r.row);
    table
}

/// Morale: basic courage values, the events that call for a check, the check.
fn courage(t: &MayhemTables) -> Section {
    let c = &t.courage;
    let mut s = Section::new("Morale/Courage Checks");
    let mut table = Table::new("Basic Courage values", &["", "Courage"]);
    for r in &c.rank {
        table.row(&r.row, vec![r.value.to_string()]);
    }
    s.tables.push(table);
    let mut table = Table::new(
        "A group or individual must check courage if one of the following events",
        &[],
    );
    for cause in &c.cause {
        table.row(&cause.row, Vec::new());
    }
    table.note(&c.commander.row);
    s.tables.push(table);
    // The check in the text's order: the group's die, a failed charge
    // order, each individual's own die (running off the board), retreat.
    s.note(format!(
        "Roll one die vs. the highest courage value in the group. {}. {} {} {} ({}).",
        c.pass_row, c.stand_still_row, c.individual_row, c.retreat_row, c.retreat,
    ));
    s
}

/// Hand-to-hand: the skill die's modifiers and the armament values.
fn hand_to_hand(t: &MayhemTables) -> Section {
    let mut s = Section::new("Hand-to-hand Combat");
    let mut table = Table::new("Modifiers to the skill die", &["", "Modifier"]);
    for m in &t.fight.modifier {
        table.row(&m.row, vec![signed(m.value)]);
    }
    s.tables.push(table);
    let mut table = Table::new("Melee Results: the armament values", &["", "Armament"]);
    for a in &t.fight.armament {
        table.row(&a.row, vec![a.value.to_string()]);
    }
    table.note(
        "If the results die is equal to or higher than the armament value of the attacking \
         figure, the target is removed; if not, it checks courage.",
    );
    s.tables.push(table);
    s
}

/// Climbing, fires, skill, search, post-battle results, heroes.
fn miscellany(t: &MayhemTables) -> Section {
    let mut s = Section::new("Miscellaneous Rules");
    let mut table = Table::new("Rolls", &["", "Needs"]);
    table.row(&t.climb.row, vec![t.climb.needs.to_string()]);
    table.row(&t.ignite.row, vec![t.ignite.needs.to_string()]);
    table.row(
        &t.skill.row,
        vec![format!("{}-{}", t.skill.min, t.skill.max)],
    );
    table.note(&t.fire.incendiary_row);
    s.tables.push(table);
    let mut table = Table::new("Search", &["", "Value"]);
    for l in t.search.value.iter().chain(&t.search.difficulty) {
        table.row(&l.row, vec![l.value.to_string()]);
    }
    table.note(&t.search.row);
    s.tables.push(table);
    let mut table = Table::new("Post-battle results", &["", "d6"]);
    for b in &t.post_battle.band {
        table.row(&b.row, vec![format!("{}-{}", b.from, b.to)]);
    }
    t.campaign.under_post_battle(&mut table);
    s.tables.push(table);
    let mut table = Table::new("Heroes", &[]);
    for text in [&t.heroes.save, &t.heroes.reroll, &t.heroes.bonus] {
        table.row(text, Vec::new());
    }
    s.tables.push(table);
    s
}
