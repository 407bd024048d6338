//! Risk to generals: 1D6 when a unit within 3BW breaks (5+: swept away,
//! then 3D6 BW to his own long edge) or takes 1 hit per base from shooting
//! (6: incapacitated).

use std::rc::Rc;

use super::game::DrumsEffect;
use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::{Resolution, Tone};

use super::{RiskRow, Tables};

const CAUSE: &str = "a cause";

pub fn verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
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
        .flag("commander", "the general is the force commander")
        .flag(
            "general",
            "brought by naming the general at risk (`risk shot frederick`): his incapacitation or sweeping away is kept in a game",
        );
    VerbDoc::new(
        Some(super::DRUMS),
        "risk",
        "risk broke|shot [GENERAL] [commander]",
        "Risk to generals: 1D6 when a unit within 3BW breaks (5+ swept away) or is shot (6 incapacitated).",
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .examples(&["risk broke", "risk shot commander rolled 6"])
}

/// The one general at risk, if any is named: a unit named here is refused.
fn check_named(input: &Input) -> Result<(), CommandError> {
    let bound = &input.words;
    if let Some(f) = bound
        .facts
        .iter()
        .find(|f| f.name == "general" && !f.implied)
    {
        return Err(BindError::NotHere {
            span: f.span,
            text: "general".into(),
            why: "says nothing by itself: name the general at risk by his id (`risk shot frederick`), or name nobody".into(),
        }
        .into());
    }
    let named = super::named::named(&input.command.words, bound);
    if let Some(second) = named.get(1) {
        return Err(BindError::NotHere {
            span: second.span,
            text: second.text.clone(),
            why: format!(
                "is a second name: each general within 3BW throws his own 1D6 (`risk {} {}`, then `risk {} {}`)",
                input.words.choice(CAUSE).map_or("shot", |(c, _)| c),
                named[0].text,
                input.words.choice(CAUSE).map_or("shot", |(c, _)| c),
                second.text
            ),
        }
        .into());
    }
    if let Some(unit) = named.first().filter(|n| !n.general) {
        return Err(BindError::NotHere {
            span: unit.span,
            text: unit.text.clone(),
            why: "is a unit, and risk to generals is taken by a general: name a general within 3BW"
                .into(),
        }
        .into());
    }
    Ok(())
}

fn resolve(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let risk = &tables.drums.risk;
    check_named(input)?;
    let (cause, _) = input
        .words
        .choice(CAUSE)
        .ok_or_else(|| input.missing("`risk` needs a cause: `broke` or `shot`"))?;
    let row: &RiskRow = if cause == "broke" {
        &risk.broke
    } else {
        &risk.shot
    };
    let mut res = input.resolution("risk", format!("risk to generals: {}", row.row));
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
    let effect = if cause == "broke" {
        DrumsEffect::SweptAway
    } else {
        DrumsEffect::Incapacitated
    };
    res.effect(Target::ACTOR, effect);
    if let Some(expr) = &row.distance {
        let (rolled, total) = expr.roll(dice)?;
        res.dice_rows(format_args!("{expr} BW to his own long edge"), &rolled);
        res.note(format!("Move him {total}BW towards his own long edge."));
        res.field("distance_bw", total);
        res.measure("distance", total as f64);
    }
    res.note(row.aftermath.clone());
    if input.words.has("commander") {
        res.note(risk.commander.clone());
    }
    Ok(res)
}
