//! Which printed factor of its counter each unit fights with.

use crate::bind::Bound;
use crate::saber::crt::Side;
use crate::saber::factors;
use crate::saber::named::{self, Named};
use crate::saber::tactics::Tactic;

use super::ARMS;
use super::side::SideWords;

/// What one factor's unit prints, as a named unit brings it or (for the
/// primary factor of a side that names no unit) as the words typed say.
pub(super) enum Source<'a> {
    Named(&'a Named),
    Typed(&'a Bound),
}

impl Source<'_> {
    fn has(&self, word: &str) -> bool {
        match self {
            Source::Named(u) => u.has(word),
            Source::Typed(b) => b.has(word),
        }
    }

    fn value(&self, word: &str) -> Option<i64> {
        match self {
            Source::Named(u) => u.value(word),
            Source::Typed(b) => b.value(word),
        }
    }

    /// How the row names it: the unit's id, or "typed".
    fn who(&self) -> &str {
        match self {
            Source::Named(u) => &u.id,
            Source::Typed(_) => "as typed",
        }
    }
}

/// Each factor as the situation picks it from its counter (its list, or
/// the words typed for the primary unit): a charging cavalry unit's
/// charge factor (9.3 4, QuickPlay 9.2 3; both sides' when cavalry
/// countercharges, 9.4); under a skirmish the infantry's MA, bracketed or
/// V counting zero, defending artillery's defense factor and defending
/// cavalry's CF (7.13 1); otherwise artillery attacks with its attack
/// factor and defends with its defense factor (8.1), and a parenthesized
/// CF is halved when attacking (2.4). A number typed beside a named unit
/// is the player's factor, as typed.
pub(super) fn printed_factors(
    side: &mut SideWords,
    view: &Bound,
    who: Side,
    a_tactic: Option<Tactic>,
    d_tactic: Option<Tactic>,
) {
    use named::printed;
    let primary_span = match side.primary {
        Some(p) => side.units.get(p).map(|u| u.span),
        None => side.factors.first().map(|f| f.span),
    };
    for f in side.factors.iter_mut() {
        let source = match side.units.iter().find(|u| u.combat && u.span == f.span) {
            Some(unit) => Source::Named(unit),
            None if Some(f.span) == primary_span => Source::Typed(view),
            None => continue,
        };
        let arm = ARMS.into_iter().find(|a| source.has(a));
        let charge = source
            .value(printed::CHARGE)
            .filter(|_| arm == Some("cavalry"));
        let charging = match who {
            Side::Attacker => a_tactic == Some(Tactic::CavalryCharge),
            Side::Defender => d_tactic == Some(Tactic::Countercharge),
        };
        let no_ma = source.has("v") || source.has(printed::BRACKETED);
        let picked = if a_tactic == Some(Tactic::Skirmish) {
            match arm {
                Some("artillery") if who == Side::Defender => source.value(printed::DEFENCE).map(|v| {
                    (v, "its defense factor: defending artillery uses its defense factor (7.13 1)")
                }),
                Some("cavalry") => None,
                _ if no_ma => Some((0, "its MA, which is bracketed or V and counts as zero (7.13 1)")),
                _ => source.value("ma").map(|v| {
                    (v, "its MA: skirmishing infantry on both sides use their MA as combat factors (7.13 1)")
                }),
            }
        } else if charging && let Some(c) = charge {
            Some((
                c,
                "its charge factor, in lieu of its CF (9.3 4, 9.4; QuickPlay 9.2 3)",
            ))
        } else if arm == Some("artillery") && who == Side::Defender {
            source.value(printed::DEFENCE).map(|v| {
                (
                    v,
                    "its defense factor: artillery attacked by an adjacent enemy unit (8.1)",
                )
            })
        } else {
            None
        };
        match picked {
            Some((v, why)) => {
                f.printed = v.clamp(0, factors::MAX_FACTOR);
                f.parenthesized = false;
                f.text = format!("{v}: {}, {why},", source.who());
            }
            None if source.has(printed::PARENTHESIZED) && !f.parenthesized => {
                f.parenthesized = true;
                f.text = format!(
                    "({}): {}, its CF parenthesized: halved when attacking (2.4),",
                    f.printed,
                    source.who()
                );
            }
            None => {}
        }
    }
}
