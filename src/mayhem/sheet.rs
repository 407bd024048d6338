//! The Musket Mayhem quick-reference sheet: every table the verbs read, in
//! the order and words of the rules (shared/rules/musket-mayhem.txt), from
//! the tables in force.

use crate::error::TableError;
use crate::sheet::value::{int, rows, signed, text, text_at};
use crate::sheet::{Section, Sheet, Table, read_toml};
use crate::tables::TableSource;

use super::FILES;

pub fn sheet(source: &TableSource) -> Result<Sheet, TableError> {
    let (label, m) = read_toml(source, &FILES[0])?;
    let sections = vec![
        sequence(&m),
        movement(&m),
        missile_fire(&m),
        courage(&m),
        hand_to_hand(&m),
        miscellany(&m),
    ];
    Ok(Sheet {
        title: super::MAYHEM.title().to_string(),
        sources: vec!["shared/rules/musket-mayhem.txt".into(), label],
        sections,
    })
}

fn signed_at(m: &toml::Table, table: &str, key: &str) -> String {
    m.get(table)
        .and_then(|v| v.as_table())
        .map_or(String::new(), |t| signed(t, key))
}

/// The sequence of play: initiative and activation.
fn sequence(m: &toml::Table) -> Section {
    let mut s = Section::new("Sequence");
    s.note(text_at(m, "initiative.row"));
    s.note(text_at(m, "initiative.tie"));
    s.note(text_at(m, "activation.row"));
    s
}

/// Movement distances.
fn movement(m: &toml::Table) -> Section {
    let mut s = Section::new("Movement");
    let mut t = Table::new(
        "To determine distance roll dice as follows",
        &["", "Inches"],
    );
    for r in rows(m, "move.mode") {
        t.row(text(r, "row"), vec![format!("{}\"", text(r, "dice"))]);
    }
    for r in rows(m, "move.bonus") {
        t.row(text(r, "row"), vec![format!("+{}\"", text(r, "dice"))]);
    }
    s.tables.push(t);
    s
}

/// Missile fire: the skill and impact dice, the weapons, reloading.
fn missile_fire(m: &toml::Table) -> Section {
    let mut s = Section::new("Missile Fire");
    let mut t = Table::new("Skill Die", &["", "Score"]);
    t.row(
        text_at(m, "fire.over_half_range_row"),
        vec![signed_at(m, "fire", "over_half_range")],
    );
    t.row(
        text_at(m, "fire.mounted_row"),
        vec![signed_at(m, "fire", "mounted")],
    );
    for r in rows(m, "fire.cover") {
        let needs = int(r, "needs").unwrap_or(0);
        let score = if needs >= 6 {
            needs.to_string()
        } else {
            format!("{needs}-6")
        };
        t.row(format!("{} checks impact", text(r, "row")), vec![score]);
    }
    s.tables.push(t);
    let mut t = Table::new("Impact Die", &["", "Score"]);
    let kill = int(
        m.get("fire")
            .and_then(|v| v.as_table())
            .unwrap_or(&Default::default()),
        "kill_at",
    )
    .unwrap_or(6);
    t.row(
        text_at(m, "fire.kill_row"),
        vec![if kill >= 6 {
            kill.to_string()
        } else {
            format!("{kill}-6")
        }],
    );
    t.row(
        text_at(m, "fire.courage_row"),
        vec![match kill {
            3.. => format!("1-{}", kill - 1),
            2 => "1".to_string(),
            _ => "—".to_string(),
        }],
    );
    let mut shown = Vec::new();
    for r in rows(m, "fire.weapon") {
        let modifier = text(r, "impact_row");
        if !modifier.is_empty() && !shown.contains(&modifier) {
            t.row(modifier.clone(), vec![signed(r, "impact")]);
            shown.push(modifier);
        }
    }
    s.tables.push(t);
    let mut t = Table::new("Weapons", &["Weapon", "Range", "Impact", "Reloads"]);
    for r in rows(m, "fire.weapon") {
        let mut name = text(r, "row");
        let several = text(r, "several");
        if !several.is_empty() {
            name = format!("{name}: {several}");
        }
        let reloads = if r.get("gunpowder").and_then(|v| v.as_bool()) == Some(true) {
            "gunpowder"
        } else {
            ""
        };
        t.row(
            name,
            vec![
                format!("{}\"", text(r, "range")),
                signed(r, "impact"),
                reloads.into(),
            ],
        );
    }
    t.note(format!("{}.", text_at(m, "fire.shoot_once_row")));
    t.note(text_at(m, "fire.unloaded_row"));
    s.tables.push(t);
    let mut t = Table::new("Reloading", &["", ""]);
    t.row(
        "Smoke puffs placed when a gun fires",
        vec![text_at(m, "reload.puffs")],
    );
    t.row(
        "Trained crew of at least",
        vec![text_at(m, "reload.min_crew")],
    );
    t.row(
        "A leader counts as",
        vec![format!("{} figures", text_at(m, "reload.leader_counts"))],
    );
    t.row(
        "Puffs removed per turn",
        vec![text_at(m, "reload.clear_per_turn")],
    );
    t.note(text_at(m, "reload.row"));
    s.tables.push(t);
    s
}

/// Morale: basic courage values, the events that call for a check, the check.
fn courage(m: &toml::Table) -> Section {
    let mut s = Section::new("Morale/Courage Checks");
    let mut t = Table::new("Basic Courage values", &["", "Courage"]);
    for r in rows(m, "courage.rank") {
        t.row(text(r, "row"), vec![text(r, "value")]);
    }
    s.tables.push(t);
    let mut t = Table::new(
        "A group or individual must check courage if one of the following events",
        &[],
    );
    for r in rows(m, "courage.cause") {
        t.row(text(r, "row"), Vec::new());
    }
    t.note(text_at(m, "courage.commander.row"));
    s.tables.push(t);
    s.note(format!(
        "Roll one die vs. the highest courage value in the group. {}. {} ({}).",
        text_at(m, "courage.pass_row"),
        text_at(m, "courage.retreat_row"),
        text_at(m, "courage.retreat"),
    ));
    s.note(text_at(m, "courage.stand_still_row"));
    s
}

/// Hand-to-hand: the skill die's modifiers and the armament values.
fn hand_to_hand(m: &toml::Table) -> Section {
    let mut s = Section::new("Hand-to-hand Combat");
    let mut t = Table::new("Modifiers to the skill die", &["", "Modifier"]);
    for r in rows(m, "fight.modifier") {
        t.row(text(r, "row"), vec![signed(r, "value")]);
    }
    s.tables.push(t);
    let mut t = Table::new("Melee Results: the armament values", &["", "Armament"]);
    for r in rows(m, "fight.armament") {
        t.row(text(r, "row"), vec![text(r, "value")]);
    }
    t.note(
        "If the results die is equal to or higher than the armament value of the attacking \
         figure, the target is removed; if not, it checks courage.",
    );
    s.tables.push(t);
    s
}

/// Climbing, fires, skill, search, post-battle results, heroes.
fn miscellany(m: &toml::Table) -> Section {
    let mut s = Section::new("Miscellaneous Rules");
    let mut t = Table::new("Rolls", &["", "Needs"]);
    t.row(text_at(m, "climb.row"), vec![text_at(m, "climb.needs")]);
    t.row(text_at(m, "ignite.row"), vec![text_at(m, "ignite.needs")]);
    t.row(
        text_at(m, "skill.row"),
        vec![format!(
            "{}-{}",
            text_at(m, "skill.min"),
            text_at(m, "skill.max")
        )],
    );
    t.note(text_at(m, "fire.incendiary_row"));
    s.tables.push(t);
    let mut t = Table::new("Search", &["", "Value"]);
    for r in rows(m, "search.value") {
        t.row(text(r, "row"), vec![text(r, "value")]);
    }
    for r in rows(m, "search.difficulty") {
        t.row(text(r, "row"), vec![text(r, "value")]);
    }
    t.note(text_at(m, "search.row"));
    s.tables.push(t);
    let mut t = Table::new("Post-battle results", &["", "d6"]);
    for r in rows(m, "post_battle.band") {
        t.row(
            text(r, "row"),
            vec![format!("{}-{}", text(r, "from"), text(r, "to"))],
        );
    }
    s.tables.push(t);
    let mut t = Table::new("Heroes", &[]);
    for key in ["save", "reroll", "bonus"] {
        t.row(text_at(m, &format!("heroes.{key}")), Vec::new());
    }
    s.tables.push(t);
    s
}
