//! Missile fire: range check, skill die against the cover's score, impact
//! die (6 or more kills, otherwise a courage check). Canister and roundshot
//! roll against each figure in their path (`figures=N`, or the figures
//! named after `at`, each shot falling on its own figure in the order
//! named); each `at` may give its figures their own distance and cover.
//! A gunpowder weapon is unloaded once it fires, and a gun places smoke
//! puffs (`reload`).

mod plan;
mod shoot;
mod vocab;
mod volley;

use std::rc::Rc;

use crate::catalog::Input;
use crate::command::ClauseKind;
use crate::dice::DiceSource;
use crate::error::CommandError;

use super::{Counted, MayhemTables, Repeats};
use super::{Resolution, VerbDoc};
use plan::Plan;
use shoot::shoot;

const WEAPON: &str = "a weapon";
const COVER: &str = "the target's cover";
const LEADER: &str = super::game::LEADER;
/// Most figures one gun's shot may be rolled against on a line.
const MAX_FIGURES: i64 = 30;

pub(crate) fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let (vocab, at) = vocab::vocabs(tables);
    VerbDoc::new(
        Some(super::MAYHEM),
        "fire",
        "fire WEAPON DISTANCE [open|soft|hard] [mounted] [skill+N] [impact+N] [figures=N] [rerolls=N] [at [hero] [saves=N]] | fire canister|roundshot at [DISTANCE] [COVER] [figures=N] at …",
        "Missile fire: range, skill die (-1 over half range, -1 mounted) against the cover's score, impact die (6+ kills, else a courage check); the skill and impact dice may be entered together. A gunpowder weapon is then unloaded; a gun places smoke puffs.",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .clause(ClauseKind::At, at, MAX_FIGURES as usize)
    .examples(&[
        "fire musket 10\"",
        "fire rifle 20in soft mounted rolled 6 5",
        "fire canister 30\" figures=3",
        "fire musket 12\" at hero saves=1 rolled 5 6",
        "fire canister at 10\" at 30\" soft figures=2",
    ])
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let plan = crate::memoized!(input, Plan, || Plan::new(tables, input))?;
    let plan = &*plan;
    let mut dice = Counted::new(dice, Repeats::Each);
    let (mut res, most, why) = shoot(tables, input, plan, &mut dice)?;
    dice.unused(input, &mut res, most, || why)?;
    Ok(res)
}
