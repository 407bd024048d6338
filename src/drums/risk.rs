//! Risk to generals: 1D6 when a unit within 3BW breaks (5+: swept away,
//! then 3D6 BW to his own long edge) or takes 1 hit per base from shooting
//! (6: incapacitated).

use std::rc::Rc;

use super::game::DrumsEffect;
use super::{Resolution, VerbDoc};
use crate::answer::resolution::Target;
use crate::answer::resolution::Tone;
use crate::bind::Vocab;
use crate::catalog::{Input, Named};
use crate::dice::DiceSource;
use crate::error::{CommandError, ErrorKind};

use super::named::{is_general, refuse, typed};
use super::{RiskRow, Tables};

const CAUSE: &str = "a cause";

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
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
        .flag("commander", "the general is the force commander");
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

/// The one general at risk, if any is named (his incapacitation or
/// sweeping away is then kept in a game): a unit named here is refused.
fn check_named(input: &Input) -> Result<(), CommandError> {
    let named: Vec<&Named> = input.named_on(None).collect();
    if let Some(unit) = named.iter().find(|n| !is_general(n)) {
        return Err(refuse(
            ErrorKind::NotApplicable,
            input,
            unit,
            "is a unit, and risk to generals is taken by a general: name a general within 3BW",
        ));
    }
    if let [first, second, ..] = named.as_slice() {
        let cause = input.words.choice(CAUSE).map_or("shot", |(c, _)| c);
        return Err(refuse(
            ErrorKind::ExtraWord,
            input,
            second,
            format!(
                "is a second name: each general within 3BW throws his own 1D6 (`risk {cause} {}`, then `risk {cause} {}`)",
                typed(input, first),
                typed(input, second)
            ),
        ));
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
