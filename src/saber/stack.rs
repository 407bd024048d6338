//! Who may fight from one hex: the defending stack (standard 7.4,
//! QuickPlay 5.0) and a charging stack (standard 7.13 3, 9.3 1), judged
//! from the named units' types. Typed factors carry no type, so only named
//! units are held to these limits.

use crate::error::{CommandError, ErrorKind};

use super::Variant;
use super::named::Named;
use super::tactics::Tactic;

pub(crate) use super::words::BATTALION;
pub(crate) use super::words::SQUADRON;

/// A battalion or squadron: the one-step units with their own place in a
/// combat stack (2.7, 5.3).
fn small(unit: &Named) -> bool {
    unit.has(BATTALION) || unit.has(SQUADRON)
}

/// Standard 7.4: "A hex may be defended by up to one artillery unit plus
/// one battalion/squadron plus any one other unit"; QuickPlay 5.0: "only
/// one artillery unit plus any one other unit units can attack from or
/// defend a single hex". The first unit that does not fit is refused.
pub(crate) fn check_defenders(variant: Variant, units: &[Named]) -> Result<(), CommandError> {
    // Each place of the stack is filled in the order the units are named;
    // the "other" place takes whatever its own place cannot.
    let (mut artillery, mut small_place, mut other) = (false, false, false);
    for unit in units.iter().filter(|u| u.combat) {
        let own = if unit.has("artillery") {
            &mut artillery
        } else if variant == Variant::Standard && small(unit) {
            &mut small_place
        } else {
            &mut other
        };
        if !*own {
            *own = true;
        } else if !other {
            other = true;
        } else {
            return Err(unit.refuse(ErrorKind::ExtraWord, match variant {
                Variant::Standard => "is one unit too many in the defending hex: a hex may be defended by up to one artillery unit plus one battalion/squadron plus any one other unit (7.4); additional defending units stacked in the hex do not take part in the combat, but may be affected by the result: leave it out (the primary defender's MR is the whole stack's)",
                Variant::QuickPlay => "is one unit too many in the defending hex: only one artillery unit plus any one other unit can defend a single hex (5.0); any additional units take no part in the combat, but retreat with the participating units: leave it out",
            }));
        }
    }
    Ok(())
}

/// Standard 7.13 3: "A maximum of one leader plus one infantry battalion
/// plus one other infantry unit of any size can charge a given defender's
/// hex"; 9.3 1: "up to one leader, one squadron, and any one other cavalry
/// unit". Two brigades are one too many: a second unit must be the
/// battalion (or squadron).
pub(crate) fn check_charge(tactic: Tactic, units: &[Named]) -> Result<(), CommandError> {
    let (word, why) = match tactic {
        Tactic::Charge => (
            BATTALION,
            "is a second infantry brigade: a charge takes at most one leader plus one infantry battalion plus one other infantry unit of any size (7.13 3); charge with one brigade, or with a brigade and a battalion",
        ),
        Tactic::CavalryCharge => (
            SQUADRON,
            "is a second cavalry brigade: a cavalry charge takes up to one leader, one squadron, and any one other cavalry unit (9.3 1); charge with one brigade, or with a brigade and a squadron",
        ),
        _ => return Ok(()),
    };
    let combat: Vec<&Named> = units.iter().filter(|u| u.combat).collect();
    if let [first, second] = combat.as_slice()
        && !first.has(word)
        && !second.has(word)
    {
        return Err(second.refuse(ErrorKind::ExtraWord, why));
    }
    Ok(())
}
