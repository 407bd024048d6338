//! The Drums and Muskets quick-reference sheet: every table the verbs read,
//! in the order and words of the quick reference sheets
//! (shared/rules/drums-and-muskets-quick-reference.txt), from the tables in
//! force.

use crate::error::TableError;
use crate::sheet::value::{int, rows, text, text_at};
use crate::sheet::{Section, Sheet, Table, read_toml};
use crate::tables::TableSource;

use super::{
    FILES, HitsTable, HoldTable, InitiativeTable, OutcomeCell, ResilienceOutcome, ResilienceTable,
    RiskTable, Tables,
};

pub(crate) fn sheet(source: &TableSource) -> Result<Sheet, TableError> {
    let (drums_label, d) = read_toml(source, &FILES[0])?;
    let (pools_label, p) = read_toml(source, &FILES[1])?;
    // The tables in force, as the verbs read them (the core has loaded and
    // checked them before asking for the sheet).
    let typed = Tables::load(source)?;
    let drums = &typed.drums;
    let sections = vec![
        initiative(&drums.initiative),
        risk(&drums.risk),
        hits(&drums.hits),
        resilience(&drums.resilience),
        hold(&drums.hold),
        charge(&d),
        melee(&p),
        movement(&d),
        shooting(&p),
    ];

    Ok(Sheet {
        title: super::DRUMS.title().to_string(),
        publication: PUBLICATION.into(),
        sources: vec![drums_label, pools_label],
        sections,
    })
}

/// The rule text names no author, publisher or edition: only what it is.
const PUBLICATION: &str = "Drums and Muskets, quick reference sheets (miniatures rules)";

/// The Start of Each Turn Initiative dice.
fn initiative(init: &InitiativeTable) -> Section {
    let mut s = Section::new("Start of Each Turn Initiative");
    let mut t = Table::new("Initiative dice", &["", "Dice"]);
    let dice = |n: i64| format!("{n:+}D6");
    t.row(
        "Per general remaining on the board",
        vec![dice(init.per_general)],
    );
    t.row(
        "Per Exceptional ability general",
        vec![dice(init.per_exceptional)],
    );
    t.row(
        "Per Incompetent ability general",
        vec![dice(init.per_incompetent)],
    );
    t.row(
        "A supply pool dice may now be added",
        vec![dice(init.supply)],
    );
    t.row(
        "A draw: repeat with only this and no pool dice, per player",
        vec![dice(i64::from(init.tie_dice))],
    );
    t.note("Pool the dice, throw, and sum the score: the highest score has the initiative.");
    s.tables.push(t);
    s
}

/// Risk to Generals: the throw, the outcome and what a lost general leaves.
fn risk(risk: &RiskTable) -> Section {
    let mut s = Section::new("Risk to Generals");
    let mut t = Table::new("Risk to Generals", &["", "Throw 1D6", "Outcome"]);
    for row in [&risk.broke, &risk.shot] {
        let needs = if row.needs == 6 {
            row.needs.to_string()
        } else {
            format!("{}+", row.needs)
        };
        let outcome = match &row.distance {
            Some(moved) => format!("{}; throw {moved}", row.text),
            None => row.text.clone(),
        };
        t.row(row.row.clone(), vec![needs, outcome]);
    }
    for row in [&risk.broke, &risk.shot] {
        t.note(row.aftermath.clone());
    }
    t.note(risk.commander.clone());
    s.tables.push(t);
    s
}

/// How many hits remove a base or a figure.
fn hits(hits: &HitsTable) -> Section {
    let mut s = Section::new("Hits");
    let mut t = Table::new("Hits", &["", "Hits", "Removed"]);
    t.row("If using figures", vec!["1".into(), "1 figure".into()]);
    t.row(
        "If using bases",
        vec![hits.per_base.to_string(), "1 base".into()],
    );
    s.tables.push(t);
    s
}

/// The Resilience Situation Adjustment and Outcomes Tables.
fn resilience(r: &ResilienceTable) -> Section {
    let mut s = Section::new("Resilience Tests");
    let caption = format!(
        "Resilience Situation Adjustment Table (Throw {}/{} for the unit and adjust)",
        r.dice, r.alternative_dice
    );
    let mut t = Table::new(
        caption,
        &[
            "Situation (Testers)",
            "From shooting",
            "Charge or melee",
            "All other cases",
        ],
    );
    let cell = |n: Option<i64>| n.map_or(String::new(), modifier);
    for a in &r.adjustment {
        t.row(
            a.row.to_string(),
            vec![cell(a.shooting), cell(a.charge_or_melee), cell(a.other)],
        );
    }
    s.tables.push(t);
    let mut t = Table::new(
        "Resilience Outcomes Table",
        &[
            "Score",
            "From shooting",
            "Charge",
            "Melee",
            "All other cases",
        ],
    );
    for band in &r.outcome {
        let score = match (band.from, band.to) {
            (Some(a), None) => format!("{a}+"),
            (None, Some(b)) => format!("{b} or less"),
            (Some(a), Some(b)) if a == b => a.to_string(),
            (Some(a), Some(b)) => format!("{a}-{b}"),
            (None, None) => "any".into(),
        };
        let cells = [&band.shooting, &band.charge, &band.melee, &band.other]
            .into_iter()
            .map(outcome)
            .collect();
        t.row(score, cells);
    }
    s.tables.push(t);
    s
}

/// The Hold Test and its adjustments.
fn hold(hold: &HoldTable) -> Section {
    let mut s = Section::new("Hold Tests");
    s.note(format!(
        "Throw {} or {} for the unit. {} or greater: the unit must charge; less: it does not \
         have to charge and is free to act (1 action point has now been spent).",
        hold.alternative_dice, hold.dice, hold.must_charge_at,
    ));
    let mut t = Table::new(
        "Hold Test",
        &["Situation (Testers)", "Hold Test adjustments"],
    );
    for r in &hold.adjustment {
        t.row(r.row.clone(), vec![modifier(r.value)]);
    }
    s.tables.push(t);
    s
}

/// A modifier as the sheet prints it: `+1`, `-2`.
fn modifier(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The Charge Distances.
fn charge(d: &toml::Table) -> Section {
    let mut s = Section::new("Charge Distances");
    let mut t = Table::new(
        "Charge distances",
        &["Unit Type", "Formation", "Charge distance"],
    );
    for r in rows(d, "charge") {
        let distance = text(r, "distance");
        let distance = if distance == "cannot" {
            "Cannot charge".to_string()
        } else {
            distance
        };
        t.row(unit_type(r), vec![text(r, "formation"), distance]);
    }
    s.tables.push(t);
    s
}

/// The melee tables, from the pools file.
fn melee(p: &toml::Table) -> Section {
    let mut s = Section::new("Melee");
    s.note(format!(
        "Base {}D6 per base or figure. The minimum dice thrown is {}D6. Each die scoring {}+ \
         is a hit (house default: the sheet gives no score).",
        text_at(p, "shoot.dice_per_base"),
        text_at(p, "melee.minimum"),
        text_at(p, "melee.hit_on"),
    ));
    // A reading the sheet leaves open, shown where a player looks for it.
    let one_in_k = text_at(p, "one_in_k");
    s.note(format!(
        "Where two or more \"1 in K\" rows apply, in shooting or melee, each takes 1 in K of {} \
         (house default one_in_k = \"{one_in_k}\": the sheet says only \"adjust the total pool \
         of dice\").",
        if one_in_k == "whole-pool" {
            "the pool before the first of them"
        } else {
            "the pool as the rows before it left it, in table order"
        }
    ));
    for table in rows(p, "melee.table") {
        let mut t = Table::new(text(table, "title"), &["Situation", "Dice adjustment"]);
        for r in rows(table, "row") {
            t.row(text(r, "row"), vec![text(r, "dice")]);
        }
        s.tables.push(t);
    }
    let mut t = Table::new(
        "Which table an arm fights on",
        &["Arm", "Table", "Formations"],
    );
    for r in rows(p, "melee.arm") {
        t.row(
            text(r, "arm"),
            vec![text(r, "table"), text(r, "formations")],
        );
    }
    s.tables.push(t);
    s
}

/// The Movement table, the road rule and the interpenetrations allowed.
fn movement(d: &toml::Table) -> Section {
    let mut s = Section::new("Movement");
    let mut t = Table::new(
        "Movement",
        &[
            "Unit Type",
            "Formation",
            "Normal",
            "In Terrain",
            "Force to Retire",
        ],
    );
    for r in rows(d, "move") {
        t.row(
            unit_type(r),
            vec![
                text(r, "formation"),
                text(r, "normal"),
                text(r, "terrain"),
                text(r, "retire"),
            ],
        );
    }
    t.note(format!(
        "Moving along a road: if in Column of March and the whole movement is on a road then \
         add {} to the dice above, except for generals.",
        text_at(d, "road.add")
    ));
    if let Some(arms) = d.get("move_as").and_then(|v| v.as_table()) {
        for (arm, like) in arms {
            t.note(format!(
                "House default: {arm} troops move as {} (the sheet has no row for them).",
                like.as_str().unwrap_or_default()
            ));
        }
    }
    s.tables.push(t);
    let columns = rows(d, "interpenetration.column");
    let mut heads = vec!["Moving unit's formation".to_string()];
    heads.extend(columns.iter().map(|c| text(c, "title")));
    let mut t = Table {
        heads,
        ..Table::new(
            "Table of allowed interpenetrations (X = allowed interpenetration)",
            &[],
        )
    };
    for r in rows(d, "interpenetration.row") {
        let allowed: Vec<String> = r
            .get("allowed")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let cells = columns
            .iter()
            .map(|c| {
                if allowed.contains(&text(c, "id")) {
                    "X".to_string()
                } else {
                    String::new()
                }
            })
            .collect();
        t.row(text(r, "moving"), cells);
    }
    s.tables.push(t);
    s
}

/// The shooting tables, from the pools file.
fn shooting(p: &toml::Table) -> Section {
    let mut s = Section::new("Shooting");
    let mut t = Table::new(
        "Shooting Table 1 (Weapons, Ranges and Score to hit)",
        &[
            "Weapon",
            "Initial D6",
            "Short Range",
            "Long Range",
            "Bounce",
        ],
    );
    for w in rows(p, "shoot.weapon") {
        let band = |key: &str| range(w.get(key).and_then(|v| v.as_table()));
        let bounce = w
            .get("bounce")
            .and_then(|v| v.as_table())
            .map_or("NA".to_string(), |b| {
                format!("Long range only: {}", range(Some(b)))
            });
        t.row(
            text(w, "weapon"),
            vec![text(w, "initial"), band("short"), band("long"), bounce],
        );
        if let Some(u) = w.get("unprompted").and_then(|v| v.as_table()) {
            let band = |key: &str| {
                u.get(key)
                    .and_then(|v| v.as_table())
                    .map_or(String::new(), |b| range(Some(b)))
            };
            t.row(
                "As unprompted action response",
                vec![String::new(), band("short"), band("long"), String::new()],
            );
        }
    }
    s.tables.push(t);
    for table in rows(p, "shoot.table") {
        let mut t = Table::new(text(table, "title"), &["Condition", "Dice adjustment"]);
        for r in rows(table, "row") {
            t.row(text(r, "row"), vec![text(r, "dice")]);
        }
        t.note("Adjust the total pool of dice if any of the conditions apply.");
        s.tables.push(t);
    }
    s.note(format!(
        "1D6 per base ({} a base), per model/base for artillery. The pool never goes below {}.",
        text_at(p, "shoot.dice_per_base"),
        text_at(p, "shoot.minimum"),
    ));
    s
}

/// "Foot", "Artillery Limbered": a row's unit type as the sheet names it.
fn unit_type(r: &toml::Table) -> String {
    let arm = text(r, "arm");
    let mut name = match arm.as_str() {
        "irregular" => "All Irregular troops".to_string(),
        "general" => "Generals".to_string(),
        _ => capitalised(&arm),
    };
    let limber = text(r, "limber");
    if !limber.is_empty() {
        name = format!("{name} {}", capitalised(&limber));
    }
    name
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// "2BW/4+", "6BW/6": a range band and the score to hit.
fn range(band: Option<&toml::Table>) -> String {
    let Some(band) = band else {
        return String::new();
    };
    let hit = int(band, "hit_on").map_or(String::new(), |h| {
        if h >= 6 {
            h.to_string()
        } else {
            format!("{h}+")
        }
    });
    format!("{}BW/{hit}", text(band, "bw"))
}

/// "Stand/Take 1 hit", "Advance 2BW": an outcome cell in the sheet's words.
fn outcome(cell: &OutcomeCell) -> String {
    let hits = cell.hits;
    let hits_text = if hits == 1 {
        "1 hit".to_string()
    } else {
        format!("{hits} hits")
    };
    let name = match cell.outcome {
        ResilienceOutcome::Advance => format!("Advance {}BW", cell.advance_bw),
        ResilienceOutcome::CarryOn => "Carry On".into(),
        ResilienceOutcome::Stand => "Stand".into(),
        ResilienceOutcome::ForcedRetire => "Forced Retire".into(),
        ResilienceOutcome::Break => "Break".into(),
    };
    match (hits, cell.outcome) {
        (0, _) => name,
        (_, ResilienceOutcome::Stand) => format!("{name}/Take {hits_text}"),
        _ => format!("{name}/{hits_text}"),
    }
}
