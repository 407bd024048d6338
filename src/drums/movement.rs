//! Charge distances and movement distances, in base widths.

use std::rc::Rc;

use super::game::DrumsEffect;
use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, VerbDoc};
use crate::dice::{DiceExpr, DiceSource};
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::{Resolution, Tone};

use super::{Arm, Distance, Tables};

const ARM: &str = "an arm";
const FORMATION: &str = "a formation";
const COLUMN: &str = "a movement column";

/// Arms and every formation word the rows use, so help and binding agree
/// with the tables.
fn arm_and_formation_words(formations: impl Iterator<Item = String>) -> Vocab {
    let mut vocab = Vocab::new();
    for arm in Arm::ALL {
        vocab = vocab.choice(ARM, arm.id(), arm.title());
    }
    let mut seen: Vec<String> = Vec::new();
    for f in formations {
        if !seen.contains(&f) {
            vocab = vocab.choice(FORMATION, &f, "formation");
            seen.push(f);
        }
    }
    vocab
}

pub fn charge_verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
    let vocab = arm_and_formation_words(tables.charge.iter().flat_map(|r| r.formations.clone()));
    VerbDoc::new(
        Some(super::DRUMS),
        "charge",
        "charge ARM FORMATION",
        "Charge distance in base widths from the Charge Distances table, or \"cannot charge\".",
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_charge(&all, input, dice)
        },
    )
    .examples(&[
        "charge cavalry open",
        "charge foot column-of-attack rolled 3",
    ])
}

pub fn move_verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
    let vocab = arm_and_formation_words(
        tables
            .movement
            .iter()
            .flat_map(|r| r.formations.clone())
            .chain(tables.road.formations.clone()),
    )
    .choice(COLUMN, "terrain", "the In Terrain column")
    .choice(COLUMN, "retire", "the Force to Retire column")
    .flag("evading", "the Open (Evading) row")
    .flag(
        "road",
        "in column of march, the whole move on a road: add 1D6",
    );
    VerbDoc::new(
        Some(super::DRUMS),
        "move",
        "move ARM FORMATION [terrain|retire] [evading] [road]",
        "Movement distance in base widths from the Movement table (generals: 10BW, no dice).",
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_move(&all, input, dice)
        },
    )
    .examples(&[
        "move foot line",
        "move cavalry column-of-march road",
        "move foot open evading",
    ])
}

/// The arm and (unless a general) the formation word.
fn arm_and_formation<'a>(
    input: &'a Input,
    words: &'a Bound,
) -> Result<(Arm, Option<&'a str>), CommandError> {
    let (arm_id, _) = words.choice(ARM).ok_or_else(|| {
        input.missing(format!(
            "`{}` needs an arm: foot, cavalry, artillery, irregular or general",
            input.command.verb
        ))
    })?;
    let arm = Arm::from_id(arm_id).unwrap_or(Arm::Foot);
    let formation = words.choice(FORMATION).map(|(f, _)| f);
    if arm != Arm::General && formation.is_none() {
        return Err(input.missing(format!(
            "`{} {arm_id}` needs a formation, such as open, line, column-of-attack or column-of-march",
            input.command.verb
        )));
    }
    if arm == Arm::General
        && let Some((f, span)) = words.choice(FORMATION)
    {
        return Err(BindError::NotHere {
            span,
            text: f.to_string(),
            why: "is a formation, and generals have none (NA on the sheet)".into(),
        }
        .into());
    }
    Ok((arm, formation))
}

/// "Foot Column of March"; generals have no formation (NA on the sheet).
fn row_name(arm: Arm, formation: &str) -> String {
    if formation == "NA" {
        arm.title().to_string()
    } else {
        format!("{} {formation}", arm.title())
    }
}

fn no_row(input: &Input, what: &str, arm: Arm, formation: Option<&str>) -> CommandError {
    let span = input
        .words
        .choice(FORMATION)
        .map_or(input.missing_span(), |(_, s)| s);
    BindError::NotHere {
        span,
        text: formation.unwrap_or(arm.id()).to_string(),
        why: format!(
            "has no row for {} in the {what} table",
            arm.title().to_lowercase()
        ),
    }
    .into()
}

fn resolve_charge(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let (arm, formation) = arm_and_formation(input, &input.words)?;
    let row = tables
        .drums
        .charge
        .iter()
        .find(|r| r.arm == arm && formation.is_none_or(|f| r.formations.iter().any(|w| w == f)))
        .ok_or_else(|| no_row(input, "Charge Distances", arm, formation))?;
    let mut res = input.resolution(
        "charge",
        format!("charge distance, {}", row_name(arm, &row.formation)),
    );
    match &row.distance {
        Distance::Dice(expr) => {
            let total = roll_distance(&mut res, "Charge Distances", expr, dice)?;
            res.set_outcome("charge", format!("charge up to {total}BW"), Tone::Good);
            res.effect(Target::ACTOR, DrumsEffect::Charged);
            res.field("distance_bw", total);
            res.measure("distance", total as f64);
        }
        Distance::CannotCharge | Distance::NotApplicable => {
            res.row("Charge Distances", "cannot charge");
            res.set_outcome(
                "cannot-charge",
                format!(
                    "cannot charge: {} in {} cannot charge",
                    arm.title(),
                    row.formation
                ),
                Tone::Bad,
            );
        }
    }
    Ok(res)
}

/// Roll a table's dice expression into the stack and return the distance.
fn roll_distance(
    res: &mut Resolution,
    table: &str,
    expr: &DiceExpr,
    dice: &mut dyn DiceSource,
) -> Result<i64, CommandError> {
    res.row(table, format!("{expr} BW"));
    let mut total = expr.fixed;
    for &(count, sides) in &expr.dice {
        let sum = dice.sum(count, sides)?;
        res.dice_rows(format_args!("{count}D{sides}"), &sum.dice);
        total += sum.total;
    }
    if expr.fixed != 0 && !expr.dice.is_empty() {
        res.modifier("fixed base widths", expr.fixed);
    }
    Ok(total)
}

fn resolve_move(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let words = &input.words;
    let (arm, formation) = arm_and_formation(input, words)?;
    let evading = words.has("evading");
    let drums = &tables.drums;
    let row = drums
        .movement
        .iter()
        .find(|r| {
            r.arm == arm
                && r.evading == evading
                && formation.is_none_or(|f| r.formations.iter().any(|w| w == f))
        })
        .ok_or_else(|| {
            let what = if evading {
                "Movement (evading)"
            } else {
                "Movement"
            };
            no_row(input, what, arm, formation)
        })?;
    let (column, cell) = match words.choice(COLUMN).map(|(c, _)| c) {
        Some("terrain") => ("In Terrain", &row.terrain),
        Some("retire") => ("Force to Retire", &row.retire),
        _ => ("Normal", &row.normal),
    };
    let mut res = input.resolution(
        "move",
        format!("movement, {}, {column}", row_name(arm, &row.formation)),
    );
    let expr = match cell {
        Distance::Dice(expr) => expr,
        Distance::CannotCharge | Distance::NotApplicable => {
            let span = words
                .choice(COLUMN)
                .map_or(input.missing_span(), |(_, s)| s);
            return Err(BindError::NotHere {
                span,
                text: column.to_string(),
                why: format!(
                    "is NA for {} {} on the Movement table",
                    arm.title(),
                    row.formation
                ),
            }
            .into());
        }
    };
    let mut total = roll_distance(&mut res, &format!("Movement, {column}"), expr, dice)?;
    if let Some(road_span) = words.span_of("road") {
        let road = &drums.road;
        let in_column = formation.is_some_and(|f| road.formations.iter().any(|w| w == f));
        if road.except_arms.contains(&arm) || !in_column || column != "Normal" {
            return Err(BindError::NotHere {
                span: road_span,
                text: "road".into(),
                why: "applies only to a Normal move in Column of March (not generals)".into(),
            }
            .into());
        }
        let (rolled, extra) = road.add.roll(dice)?;
        res.dice_rows(format_args!("road {}", road.add), &rolled);
        total += extra;
    }
    if expr.is_fixed() {
        res.note("A fixed move: no dice are thrown.");
    }
    res.set_outcome("move", format!("move up to {total}BW"), Tone::Good);
    res.effect(Target::ACTOR, DrumsEffect::Moved);
    res.field("distance_bw", total);
    res.measure("distance", total as f64);
    Ok(res)
}
