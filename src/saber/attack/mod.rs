//! `attack CF… vs CF…`: the differential (or odds ratio), the CRT cell, and
//! the result resolved with the morale die, as transformed by the tactics.
//!
//! Dice, in the order they are drawn: the morale checks the tactics make
//! before the combat (a charge's check, forming square), then the combat
//! die, then the morale die; a second check in one result draws a further
//! die.

mod after;
mod before;
mod checks;
mod fight;
mod printed;
mod report;
mod setup;
mod side;
mod totals;
mod vocab;

use crate::saber::Resolution;
use crate::saber::VerbDoc;
use std::rc::Rc;

use crate::catalog::Input;
use crate::command::{ClauseKind, Span};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::crt::Side;
use super::tactics::Tactic;
use super::{SaberRules, Tables, Variant};

use before::Before;
use fight::fight;
use setup::{Setup, setup};
use vocab::side_vocab;

const ATTACKER_TACTIC: &str = "an attacker's tactic";
/// Supporting artillery's strength (standard 8.8, QuickPlay 8.2).
const SUPPORT: &str = "support";
/// A charge made as a fortune of war (standard 12.4).
const FOW_CHARGE: &str = "fow-charge";
/// QuickPlay 7.2's counterattack by a triggered defender.
const COUNTERATTACK: &str = "counterattack";
/// The arms a unit may bring, as fact words.
const ARMS: [&str; 3] = ["infantry", "cavalry", "artillery"];
const DEFENDER_TACTIC: &str = "a defender's tactic";
/// The defender lacks a safe line of retreat (standard 7.3 2, 7.6).
const NO_SLR: &str = "no-slr";
/// Why QuickPlay refuses `no-slr`.
const NO_SLR_QUICKPLAY: &str = "not in QuickPlay: its combat procedure (7.1) makes no check before combat for a defender lacking a safe line of retreat; a retreat without one is settled as the unit retreats (7.6)";

pub(crate) fn verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
    let rules = variant.rules(t);
    let usage: &'static str = match variant {
        Variant::Standard => {
            "attack CF… [mr=N] [leader-cf=N] [leader-mr=N] [disrupted] [cavalry] [night|twilight] [support=N] [fow-charge] [skirmish|press-forward|charge|disengage|cavalry-charge] vs CF… [mr=N|def-mr=N] [leader-cf=N] [disrupted] [cavalry] [no-slr] [last-stand|disengage|countercharge|square|form-square]"
        }
        Variant::QuickPlay => {
            "attack CF… [mr=N] [leader-cf=N] [leader-mr=N] [disrupted] [cavalry] [support=N] [counterattack] [square] [cavalry-charge] vs CF… [mr=N|def-mr=N] [leader-cf=N] [disrupted] [cavalry] [square]"
        }
    };
    let examples: &'static [&'static str] = match variant {
        Variant::Standard => &[
            "attack 5 4 vs 3 mr=4 rolled 6 2",
            "attack 6 (4) mr=3 def-mr=4 vs 2h",
            "attack 7 mr=4 cavalry-charge cavalry vs 4 mr=3 form-square rolled 2 3 5 4",
            "attack 6 mr=4 vs 3 mr=4 no-slr rolled 5 3",
        ],
        Variant::QuickPlay => &[
            "attack 5 4 vs 3 mr=4 rolled 6 2",
            "attack 6 mr=4 cavalry cavalry-charge vs 3 mr=3 rolled 2 4 5 3",
        ],
    };
    VerbDoc::new(
        Some(variant.system()),
        "attack",
        usage,
        "Close combat: differential (or odds), CRT cell from the combat die, results resolved with the morale die. Dice: the check of a defender lacking a safe line of retreat first (standard 7.3 2, `no-slr`), then a charge's or square's check, then the combat die, then the morale die when a result calls for a check. A tactic's step loss (press forward, last stand) is a second step loss only after a step the CRT took, and then, with no second step present, the other player receives a fortune of war instead (standard 7.11); after none it is the side's first, and a one-step unit loses it.",
        side_vocab(rules, variant, Side::Attacker),
        super::resolver(t, resolve),
    )
    .examples(examples)
    .clause(ClauseKind::Vs, side_vocab(rules, variant, Side::Defender), 1)
}

fn resolve(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    if let Some(base) = crate::saber::named::defender_base(input)
        && input
            .clause(ClauseKind::Vs)
            .is_some_and(|vs| vs.raw.is_empty())
    {
        return Ok(base_alone(input, base));
    }
    let setup = crate::memoized!(input, Setup, || setup(tables, variant, input))?;
    let setup = &*setup;
    fight(tables, variant, input, setup, dice)
}

/// Standard 12.1, 12.2: an HQ or the trains attacked with no combat unit
/// stacked with it: no combat is resolved and no die thrown; the attacker
/// receives two fortunes of war.
fn base_alone(input: &Input, base: &str) -> Resolution {
    use crate::saber::named;
    let mut res = input.resolution("attack", format!("attack on the {base}, unstacked"));
    let unstacked = named::UNSTACKED
        .iter()
        .find(|(w, _)| *w == base)
        .map_or("", |(_, t)| *t);
    let fow = named::two_fow(base);
    res.set_outcome(
        "attacker-two-fow",
        format!("{fow}; {unstacked}"),
        crate::answer::resolution::Tone::Good,
    );
    res.odds_group = Some(format!("{base}: two fortunes of war").into());
    res
}

/// A standard square attacked by cavalry (9.5).
fn standard_cavalry_square(variant: Variant, setup: &Setup, before: &Before) -> bool {
    variant == Variant::Standard && before.in_square && setup.attacked_by_cavalry()
}

/// A QuickPlay cavalry charge (9.2).
fn quickplay_charge(variant: Variant, setup: &Setup) -> bool {
    variant == Variant::QuickPlay && setup.cavalry_charge()
}

fn tactic_row(rules: &SaberRules, tactic: Option<Tactic>) -> &str {
    tactic
        .and_then(|t| rules.tactic(t.keyword()))
        .map_or("", |t| t.row.as_str())
}

fn not_here(kind: ErrorKind, span: Span, text: &str, why: &str) -> CommandError {
    BindError::NotHere {
        span,
        text: text.into(),
        why: why.into(),
        kind,
    }
    .into()
}
