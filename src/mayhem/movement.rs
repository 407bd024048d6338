//! Movement: 3d6" as an individual, 2d6" as a group, 1d6" when delayed;
//! +2d6" mounted in the open, +1d6" for a hero.

use std::rc::Rc;

use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::command::Unit;
use crate::dice::{DiceExpr, DiceSource, Rolled, roll_together};
use crate::error::CommandError;
use crate::resolution::{Resolution, Tone};

use super::MayhemTables;

const MODE: &str = "a way of moving";

pub fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let mut vocab = Vocab::new();
    for row in &tables.movement.mode {
        vocab = vocab.choice(
            MODE,
            &row.keyword,
            format!("{}\": {}", dice(&row.dice), row.row),
        );
    }
    for row in &tables.movement.bonus {
        vocab = vocab.flag(&row.keyword, format!("+{}\": {}", dice(&row.dice), row.row));
    }
    VerbDoc::new(
        Some(super::MAYHEM),
        "move",
        "move individual|group|delayed [mounted] [hero]",
        "Movement distance in inches: 3d6\" individual, 2d6\" group, 1d6\" delayed; +2d6\" mounted in the open, +1d6\" hero.",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .examples(&[
        "move individual",
        "move group mounted rolled 3 4 5 6",
        "move delayed hero",
    ])
}

fn dice(expr: &DiceExpr) -> String {
    expr.to_string().to_lowercase()
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice_source: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    let table = &tables.movement;
    let words = &input.words;
    let (mode, _) = words.choice(MODE).ok_or_else(|| {
        let names: Vec<&str> = table.mode.iter().map(|r| r.keyword.as_str()).collect();
        input.missing(format!(
            "`move` needs how the figure moves: one of {}",
            names.join(", ")
        ))
    })?;
    let Some(row) = table.mode.iter().find(|r| r.keyword == mode) else {
        return Err(input.missing(format!("no movement row for `{mode}`")));
    };
    let mut res = input.resolution("move", format!("movement, {mode} ({}\")", dice(&row.dice)));
    let mut parts = vec![(row.label().to_string(), &row.dice)];
    for bonus in &table.bonus {
        if words.has(&bonus.keyword) {
            parts.push((format!("+ {}", bonus.label()), &bonus.dice));
        }
    }
    let exprs: Vec<&DiceExpr> = parts.iter().map(|(_, e)| *e).collect();
    let (rolled, total) = roll_together(&exprs, dice_source)?;
    for ((label, expr), rolled) in parts.iter().zip(&rolled) {
        show_row(&mut res, label, expr, rolled);
    }
    res.row("distance", format!("{total}{}", Unit::Inches.suffix()));
    res.set_outcome(
        "move",
        format!("move up to {total}{}", Unit::Inches.suffix()),
        Tone::Good,
    );
    res.field("distance_in", total);
    res.measure("distance", total as f64);
    Ok(res)
}

fn show_row(res: &mut Resolution, label: &str, expr: &DiceExpr, rolled: &[Rolled]) {
    res.row(label, format_args!("{}\"", self::dice(expr)));
    res.dice_rows(format_args!("{}\"", self::dice(expr)), rolled);
    if expr.fixed != 0 {
        res.modifier(format!("fixed inches ({label})"), expr.fixed);
    }
}
