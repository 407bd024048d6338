//! Risk to generals: 1D6 when a unit within 3BW breaks (5+: swept away,
//! then 3D6 BW to his own long edge) or takes 1 hit per base from shooting
//! (6: incapacitated).

use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::command::System;
use crate::dice::DiceSource;
use crate::error::CommandError;
use crate::resolution::{Resolution, Tone};

use super::{DrumsTables, RiskRow};

const CAUSE: &str = "a cause";

pub fn verb(tables: &DrumsTables) -> VerbDoc {
    let r = &tables.risk;
    let vocab = Vocab::new()
        .choice(
            CAUSE,
            "broke",
            format!("{}: {}+ {}", r.broke.row, r.broke.needs, r.broke.text),
        )
        .choice(
            CAUSE,
            "shot",
            format!("{}: {}+ {}", r.shot.row, r.shot.needs, r.shot.text),
        )
        .flag("commander", "the general is the force commander");
    VerbDoc::new(
        Some(System::Drums),
        "risk",
        "risk broke|shot [commander]",
        "Risk to generals: 1D6 when a unit within 3BW breaks (5+ swept away) or is shot (6 incapacitated).",
        vocab,
        resolve,
    )
    .examples(&["risk broke", "risk shot commander rolled 6"])
}

fn resolve(input: &Input, dice: &mut dyn DiceSource) -> Result<Resolution, CommandError> {
    let risk = &input.tables.drums.risk;
    let (cause, _) = input
        .words
        .choice(CAUSE)
        .ok_or_else(|| input.missing("`risk` needs a cause: `broke` or `shot`"))?;
    let row: &RiskRow = if cause == "broke" {
        &risk.broke
    } else {
        &risk.shot
    };
    let mut res = Resolution::new(
        System::Drums,
        "risk",
        format!("risk to generals: {}", row.row),
    );
    let die = dice.roll(6)?;
    res.die("1D6", die);
    res.row("needs", format!("{}+", row.needs));
    res.field("needs", row.needs);
    if die.face < row.needs {
        res.set_outcome("unharmed", "the general is unharmed", Tone::Good);
        return Ok(res);
    }
    res.set_outcome(
        row.outcome.clone(),
        format!("the general is {}", row.text),
        Tone::Bad,
    );
    if let Some(expr) = &row.distance {
        let (rolled, total) = expr.roll(dice)?;
        res.dice_rows(format_args!("{expr} BW to his own long edge"), &rolled);
        res.note(format!("Move him {total}BW towards his own long edge."));
        res.field("distance_bw", total);
    }
    res.note(row.aftermath.clone());
    if input.words.has("commander") {
        res.note(risk.commander.clone());
    }
    Ok(res)
}
