//! The Drums and Muskets quick-reference sheet: every table the verbs read,
//! in the order and words of the quick reference sheets
//! (shared/rules/drums-and-muskets-quick-reference.txt), from the tables in
//! force.

use crate::dice::DiceExpr;
use crate::error::TableError;
use crate::sheet::{Section, Sheet, Table};
use crate::tables::TableSource;

use super::pool::{AdjustmentTable, OneInK, PoolTables, RangeCell};
use super::{
    Arm, ChargeRow, Distance, DrumsTables, HitsTable, HoldTable, InitiativeTable, OutcomeCell,
    ResilienceOutcome, ResilienceTable, RiskTable, Tables,
};

pub(crate) fn sheet(source: &TableSource) -> Result<Sheet, TableError> {
    // The tables in force, as the verbs read them (the core has loaded and
    // checked them before asking for the sheet), and where each came from.
    let (typed, sources) = Tables::load_labelled(source)?;
    let drums = &typed.drums;
    let pools = typed.drums_pools();
    let sections = vec![
        initiative(&drums.initiative),
        risk(&drums.risk),
        hits(&drums.hits),
        resilience(&drums.resilience),
        hold(&drums.hold),
        charge(&drums.charge),
        melee(pools),
        movement(drums),
        shooting(pools),
        drums.campaign.section(),
    ];

    Ok(Sheet {
        title: super::DRUMS.title().to_string(),
        publication: PUBLICATION.into(),
        sources: sources.into(),
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
fn charge(rows: &[ChargeRow]) -> Section {
    let mut s = Section::new("Charge Distances");
    let mut t = Table::new(
        "Charge distances",
        &["Unit Type", "Formation", "Charge distance"],
    );
    for r in rows {
        t.row(
            unit_type(r.arm, r.limber.as_deref()),
            vec![r.formation.clone(), distance(&r.distance)],
        );
    }
    s.tables.push(t);
    s
}

/// The melee tables, from the pools file.
fn melee(p: &PoolTables) -> Section {
    let mut s = Section::new("Melee");
    s.note(format!(
        "Base {}D6 per base or figure. The minimum dice thrown is {}D6. Each die scoring {}+ \
         is a hit (house default: the sheet gives no score).",
        p.melee.dice_per_base, p.melee.minimum, p.melee.hit_on,
    ));
    // A reading the sheet leaves open, shown where a player looks for it.
    s.note(format!(
        "Where two or more \"1 in K\" rows apply, in shooting or melee, each takes 1 in K of {} \
         (house default one_in_k = \"{}\": the sheet says only \"adjust the total pool \
         of dice\").",
        match p.one_in_k {
            OneInK::WholePool => "the pool before the first of them",
            OneInK::InTurn => "the pool as the rows before it left it, in table order",
        },
        p.one_in_k.id(),
    ));
    for table in &p.melee.table {
        s.tables.push(adjustments(table, "Situation"));
    }
    let mut t = Table::new(
        "Which table an arm fights on",
        &["Arm", "Table", "Formations"],
    );
    for r in &p.melee.arm {
        t.row(
            r.arm.clone(),
            vec![r.table.clone(), r.formations.join(", ")],
        );
    }
    s.tables.push(t);
    s
}

/// One Melee Factors Table or one of Shooting Tables 2a–2d: each row's
/// condition and its dice adjustment in the sheet's words.
fn adjustments(table: &AdjustmentTable, condition: &str) -> Table {
    let mut t = Table::new(table.title.clone(), &[condition, "Dice adjustment"]);
    for r in &table.row {
        t.row(r.row.clone(), vec![r.dice.text.clone()]);
    }
    t
}

/// The Movement table, the road rule and the interpenetrations allowed.
fn movement(d: &DrumsTables) -> Section {
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
    for r in &d.movement {
        t.row(
            unit_type(r.arm, r.limber.as_deref()),
            vec![
                r.formation.clone(),
                distance(&r.normal),
                distance(&r.terrain),
                distance(&r.retire),
            ],
        );
    }
    t.note(format!(
        "Moving along a road: if in Column of March and the whole movement is on a road then \
         add {} to the dice above, except for generals.",
        dice(&d.road.add)
    ));
    for (arm, like) in &d.move_as {
        t.note(format!(
            "House default: {arm} troops move as {} (the sheet has no row for them).",
            like.id()
        ));
    }
    s.tables.push(t);
    let columns = &d.interpenetration.column;
    let mut heads = vec!["Moving unit's formation".to_string()];
    heads.extend(columns.iter().map(|c| c.title.clone()));
    let mut t = Table {
        heads,
        ..Table::new(
            "Table of allowed interpenetrations (X = allowed interpenetration)",
            &[],
        )
    };
    for r in &d.interpenetration.row {
        let cells = columns
            .iter()
            .map(|c| {
                if r.allowed.contains(&c.id) {
                    "X".to_string()
                } else {
                    String::new()
                }
            })
            .collect();
        t.row(r.moving.clone(), cells);
    }
    s.tables.push(t);
    s
}

/// The shooting tables, from the pools file.
fn shooting(p: &PoolTables) -> Section {
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
    let cell = |band: Option<RangeCell>| band.map_or(String::new(), |b| b.to_string());
    for w in &p.shoot.weapon {
        let bounce = w
            .bounce
            .map_or("NA".to_string(), |b| format!("Long range only: {b}"));
        t.row(
            w.weapon.clone(),
            vec![
                w.initial.clone(),
                w.short.to_string(),
                w.long.to_string(),
                bounce,
            ],
        );
        let u = &w.unprompted;
        if u.short.is_some() || u.long.is_some() {
            t.row(
                "As unprompted action response",
                vec![String::new(), cell(u.short), cell(u.long), String::new()],
            );
        }
    }
    s.tables.push(t);
    for table in &p.shoot.table {
        let mut t = adjustments(table, "Condition");
        t.note("Adjust the total pool of dice if any of the conditions apply.");
        s.tables.push(t);
    }
    s.note(format!(
        "1D6 per base ({} a base), per model/base for artillery. The pool never goes below {}.",
        p.shoot.dice_per_base, p.shoot.minimum,
    ));
    s
}

/// "Foot", "Artillery Limbered": a row's unit type as the sheet names it.
fn unit_type(arm: Arm, limber: Option<&str>) -> String {
    let name = match arm {
        Arm::Irregular => "All Irregular troops".to_string(),
        Arm::General => "Generals".to_string(),
        _ => capitalised(arm.id()),
    };
    match limber {
        Some(limber) if !limber.is_empty() => format!("{name} {}", capitalised(limber)),
        _ => name,
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// A distance cell in the sheet's words: "2+1D6", "10BW", "Cannot charge",
/// "NA".
fn distance(d: &Distance) -> String {
    match d {
        Distance::Dice(expr) => dice(expr),
        Distance::CannotCharge => "Cannot charge".into(),
        Distance::NotApplicable => "NA".into(),
    }
}

/// A distance as the sheet writes it: dice with no unit and no spaces
/// ("2+1D6"), a distance without dice in base widths ("10BW"). Every
/// Drums and Muskets distance is in base widths; the parsed expression
/// keeps no unit, and shows itself with spaces ("2 + 1D6") for the verbs.
fn dice(expr: &DiceExpr) -> String {
    if expr.is_fixed() {
        return format!("{}BW", expr.fixed);
    }
    let fixed = (expr.fixed != 0).then(|| expr.fixed.to_string());
    let dice = expr.dice.iter().map(|(n, sides)| format!("{n}D{sides}"));
    fixed.into_iter().chain(dice).collect::<Vec<_>>().join("+")
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> String {
        match Distance::try_from(text.to_string()) {
            Ok(d) => distance(&d),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    #[test]
    fn distances_are_written_in_the_sheets_words() {
        // As the Charge Distances and Movement tables print them.
        assert_eq!(words("2+1D6"), "2+1D6");
        assert_eq!(words("3 + 2d6"), "3+2D6");
        assert_eq!(words("1D3"), "1D3");
        assert_eq!(words("10BW"), "10BW");
        assert_eq!(words("1BW"), "1BW");
        assert_eq!(words("cannot"), "Cannot charge");
        assert_eq!(words("NA"), "NA");
    }
}
