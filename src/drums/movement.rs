//! Charge distances and movement distances, in base widths.

use std::rc::Rc;

use super::game::DrumsEffect;
use super::{Resolution, VerbDoc};
use crate::answer::resolution::Target;
use crate::answer::resolution::Tone;
use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::command::Span;
use crate::dice::{DiceExpr, DiceSource};
use crate::error::{BindError, CommandError, ErrorKind};

use super::{Arm, Distance, DrumsTables, Tables};

const ARM: &str = "an arm";
const FORMATION: &str = "a formation";
/// "Artillery Limbered", "Artillery Unlimbered": the unit type beyond its
/// arm, beside the formation ("| Column of March", "| Formed").
const LIMBER: &str = "a state of the guns (limbered or unlimbered)";
const COLUMN: &str = "a movement column";

/// The words of both groups that a unit's formation can bring (the army
/// lists' formations, and `column-of-march` beside `limbered`) and the
/// sheet's `march`: one typed displaces every one the unit brings, so that
/// `move bn-guns unlimbered` moves the battery unlimbered.
const FORMATION_SLOT: &[&str] = &[
    "open",
    "line",
    "column-of-attack",
    "column-of-march",
    "march",
    "square",
    "formed",
    "limbered",
    "unlimbered",
];

/// What selects a row of the Charge Distances or Movement table.
trait Row {
    fn arm(&self) -> Arm;
    fn limber(&self) -> Option<&str>;
    fn formations(&self) -> &[String];
    /// The formation as the sheet names it.
    fn name(&self) -> &str;
}

impl Row for super::ChargeRow {
    fn arm(&self) -> Arm {
        self.arm
    }
    fn limber(&self) -> Option<&str> {
        self.limber.as_deref()
    }
    fn formations(&self) -> &[String] {
        &self.formations
    }
    fn name(&self) -> &str {
        &self.formation
    }
}

impl Row for super::MoveRow {
    fn arm(&self) -> Arm {
        self.arm
    }
    fn limber(&self) -> Option<&str> {
        self.limber.as_deref()
    }
    fn formations(&self) -> &[String] {
        &self.formations
    }
    fn name(&self) -> &str {
        &self.formation
    }
}

/// Arms and every formation and unit-type word the rows use, so help and
/// binding agree with the tables.
fn arm_and_formation_words<'a, R: Row + 'a>(
    rows: impl Iterator<Item = &'a R> + Clone,
    extra_formations: &[String],
) -> Vocab {
    let mut vocab = Vocab::new();
    for arm in Arm::ALL {
        vocab = vocab.choice(ARM, arm.id(), arm.title());
    }
    let mut seen: Vec<&str> = Vec::new();
    let formations = rows
        .clone()
        .flat_map(|r| r.formations())
        .chain(extra_formations);
    for f in formations {
        if !seen.contains(&f.as_str()) {
            vocab = vocab.choice(FORMATION, f, "formation");
            seen.push(f);
        }
    }
    for r in rows {
        if let Some(l) = r.limber()
            && !seen.contains(&l)
        {
            vocab = vocab.choice(
                LIMBER,
                l,
                format!(
                    "{}: alone or beside its formation ({})",
                    row_name(r.arm(), r.name()),
                    r.formations().join(" or ")
                ),
            );
            seen.push(l);
        }
    }
    vocab.slot(FORMATION_SLOT)
}

pub(crate) fn charge_verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
    let vocab = arm_and_formation_words(tables.charge.iter(), &[]);
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

pub(crate) fn move_verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
    let road: Vec<String> = tables
        .road
        .formations
        .iter()
        .filter(|f| {
            !tables
                .movement
                .iter()
                .any(|r| r.limber() == Some(f.as_str()))
        })
        .cloned()
        .collect();
    let mut vocab = arm_and_formation_words(tables.movement.iter(), &road);
    for (arm, to) in &tables.move_as {
        if let Some(entry) = vocab.entries.iter_mut().find(|e| e.name == *arm) {
            entry.help.push_str(&format!(
                " (no Movement rows: moves as {} by the house default move_as.{arm} in tables/drums.toml)",
                to.title()
            ));
        }
    }
    let vocab = vocab
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

/// What the words say of the unit: its arm, and (unless a general) its
/// formation, its unit type's word, or both.
struct Pick<'a> {
    arm: Arm,
    limber: Option<(&'a str, Span)>,
    formation: Option<(&'a str, Span)>,
}

impl Pick<'_> {
    /// Whether a row is the one the words name.
    fn selects(&self, row: &dyn Row) -> bool {
        row.arm() == self.arm
            && self.limber.is_none_or(|(l, _)| row.limber() == Some(l))
            && self
                .formation
                .is_none_or(|(f, _)| row.formations().iter().any(|w| w == f))
    }

    /// The word to blame when no row fits, and its span.
    fn word(&self, input: &Input) -> (String, Span) {
        self.formation.or(self.limber).map_or(
            (self.arm.id().to_string(), input.missing_span()),
            |(w, s)| (w.to_string(), s),
        )
    }
}

/// The arm and (unless a general) the formation words.
fn arm_and_formation<'a>(
    tables: &DrumsTables,
    input: &'a Input,
    words: &'a Bound,
) -> Result<Pick<'a>, CommandError> {
    let (arm_id, _) = words.choice(ARM).ok_or_else(|| {
        input.missing(format!(
            "`{}` needs an arm: foot, cavalry, artillery, irregular or general",
            input.command.verb
        ))
    })?;
    let arm = Arm::from_id(arm_id).unwrap_or(Arm::Foot);
    let pick = Pick {
        arm,
        limber: words.choice(LIMBER),
        formation: words.choice(FORMATION),
    };
    if arm != Arm::General && pick.formation.is_none() && pick.limber.is_none() {
        // The arm's own formations, by the first word of each of its rows
        // on the Charge Distances table (which has a row for every arm).
        let mut theirs: Vec<&str> = Vec::new();
        for row in tables.charge.iter().filter(|r| r.arm == arm) {
            if let Some(f) = row.formations.first().or(row.limber.as_ref())
                && !theirs.contains(&f.as_str())
            {
                theirs.push(f);
            }
        }
        let list = match theirs.as_slice() {
            [] => String::new(),
            [one] => one.to_string(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        };
        return Err(input.missing(format!(
            "`{} {arm_id}` needs a formation: {list}",
            input.command.verb
        )));
    }
    if arm == Arm::General
        && let Some((f, span)) = pick.formation.or(pick.limber)
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span,
            text: f.to_string(),
            why: "is a formation, and generals have none (NA on the sheet)".into(),
        }
        .into());
    }
    Ok(pick)
}

/// The row the words name, or why none: `what` names the table.
fn find_row<'r, R: Row>(
    input: &Input,
    rows: impl Iterator<Item = &'r R> + Clone,
    pick: &Pick,
    what: &str,
) -> Result<&'r R, CommandError> {
    if let Some(row) = rows.clone().find(|r| pick.selects(*r)) {
        return Ok(row);
    }
    // "Artillery Limbered | Column of March": a unit type's word beside a
    // formation of another of its rows.
    if let (Some((l, _)), Some((f, span))) = (pick.limber, pick.formation)
        && let Some(row) = rows
            .clone()
            .find(|r| r.arm() == pick.arm && r.limber() == Some(l))
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::Conflict,
            span,
            text: f.to_string(),
            why: format!(
                "is not a formation of {} on the {what} table: give `{l}` or `{f}`, not both",
                row_name(pick.arm, row.name())
            ),
        }
        .into());
    }
    let (text, span) = pick.word(input);
    Err(BindError::NotHere {
        kind: ErrorKind::NotApplicable,
        span,
        text,
        why: format!(
            "has no row for {} in the {what} table",
            pick.arm.title().to_lowercase()
        ),
    }
    .into())
}

/// "Foot Column of March"; generals have no formation (NA on the sheet).
fn row_name(arm: Arm, formation: &str) -> String {
    if formation == "NA" {
        arm.title().to_string()
    } else {
        format!("{} {formation}", arm.title())
    }
}

fn resolve_charge(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let pick = arm_and_formation(&tables.drums, input, &input.words)?;
    let arm = pick.arm;
    let row = find_row(input, tables.drums.charge.iter(), &pick, "Charge Distances")?;
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

/// The arm whose Movement rows an arm without rows of its own moves on
/// (the house default `move_as`), in the formations the Charge Distances
/// table gives it ("All Irregular troops | Open | Column of March").
fn house_default(tables: &Tables, pick: &Pick) -> Result<Option<Arm>, CommandError> {
    let drums = &tables.drums;
    if drums.movement.iter().any(|r| r.arm == pick.arm) {
        return Ok(None);
    }
    let Some(to) = drums.move_as.get(pick.arm.id()).copied() else {
        return Ok(None);
    };
    let charge_rows: Vec<&super::ChargeRow> =
        drums.charge.iter().filter(|r| r.arm == pick.arm).collect();
    if let Some((f, span)) = pick.formation
        && !charge_rows.is_empty()
        && !charge_rows
            .iter()
            .any(|r| r.formations.iter().any(|w| w == f))
    {
        let theirs: Vec<&str> = charge_rows
            .iter()
            .flat_map(|r| r.formations.iter().map(String::as_str))
            .collect();
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span,
            text: f.to_string(),
            why: format!(
                "is not a formation of {} (the Charge Distances table gives them {})",
                pick.arm.title().to_lowercase(),
                theirs.join(", ")
            ),
        }
        .into());
    }
    Ok(Some(to))
}

fn resolve_move(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let words = &input.words;
    let pick = arm_and_formation(&tables.drums, input, words)?;
    let arm = pick.arm;
    let evading = words.has("evading");
    let drums = &tables.drums;
    let what = if evading {
        "Movement (evading)"
    } else {
        "Movement"
    };
    let rows = drums.movement.iter().filter(|r| r.evading == evading);
    let (row, moves_as) = match house_default(tables, &pick)? {
        Some(to) => {
            let as_pick = Pick { arm: to, ..pick };
            (find_row(input, rows, &as_pick, what)?, Some(to))
        }
        None => (find_row(input, rows, &pick, what)?, None),
    };
    let (column, cell) = match words.choice(COLUMN).map(|(c, _)| c) {
        Some("terrain") => ("In Terrain", &row.terrain),
        Some("retire") => ("Force to Retire", &row.retire),
        _ => ("Normal", &row.normal),
    };
    let name = match moves_as {
        Some(to) => format!(
            "{} {} (as {})",
            arm.title(),
            pick.formation.or(pick.limber).map_or("", |(f, _)| f),
            row_name(to, &row.formation)
        ),
        None => row_name(arm, &row.formation),
    };
    let mut res = input.resolution("move", format!("movement, {name}, {column}"));
    if let Some(to) = moves_as {
        res.row(
            format_args!(
                "{} move as {} (house default: tables/drums.toml move_as.{})",
                arm.title(),
                to.title(),
                arm.id()
            ),
            row_name(to, &row.formation),
        );
        res.field("moves_as", to.id());
        res.field("house_default", format!("move_as.{}", arm.id()));
    }
    let expr = match cell {
        Distance::Dice(expr) => expr,
        Distance::CannotCharge | Distance::NotApplicable => {
            let span = words
                .choice(COLUMN)
                .map_or(input.missing_span(), |(_, s)| s);
            return Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span,
                text: column.to_string(),
                why: format!("is NA for {name} on the Movement table"),
            }
            .into());
        }
    };
    let mut total = roll_distance(&mut res, &format!("Movement, {column}"), expr, dice)?;
    if let Some(road_span) = words.span_of("road") {
        let road = &drums.road;
        let in_column = [pick.formation, pick.limber]
            .into_iter()
            .flatten()
            .any(|(f, _)| road.formations.iter().any(|w| w == f));
        if road.except_arms.contains(&arm) || !in_column || column != "Normal" {
            return Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
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
