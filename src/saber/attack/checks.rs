//! The checks of who may do what in an attack, before any die.

use crate::bind::Bound;
use crate::catalog::Input;
use crate::error::{CommandError, ErrorKind};
use crate::saber::Variant;
use crate::saber::named;
use crate::saber::tactics::Tactic;

use super::side::SideWords;
use super::{ARMS, FOW_CHARGE, SUPPORT, not_here};

/// The checks of who may do what that only named units make possible:
/// the tactics for one arm, the primary attacker, charge participants.
pub(super) fn check_sides(
    variant: Variant,
    input: &Input,
    a: &SideWords,
    a_view: &Bound,
    d: &SideWords,
    d_view: &Bound,
) -> Result<(), CommandError> {
    tactic_arms(a, a_view, d)?;
    one_defender_and_attackers(variant, input, a, d)?;
    crate::saber::stack::check_defenders(variant, &d.units)?;
    if variant == Variant::Standard {
        standard_charge(input, a, a_view, d, d_view)?;
    }
    Ok(())
}

/// Each tactic for the arms it is for (7.13, 9.0), and who may skirmish.
fn tactic_arms(a: &SideWords, a_view: &Bound, d: &SideWords) -> Result<(), CommandError> {
    match a.tactic {
        Some(Tactic::Skirmish) => {
            wrong_arm(a, &["infantry"], "attacking infantry only (7.13 1)")?;
            // 7.13 1: "Any attacking infantry unit with a non-bracketed,
            // non-V Movement Allowance".
            if let Some(unit) = a.units.iter().find(|u| u.combat && u.has("v")) {
                return Err(unit.refuse(ErrorKind::NotApplicable,
                    "has a V movement allowance: only infantry with a non-bracketed, non-V MA may skirmish (7.13 1)",
                ));
            }
            if let Some(unit) = a
                .units
                .iter()
                .find(|u| u.combat && u.has(named::printed::BRACKETED))
            {
                return Err(unit.refuse(ErrorKind::NotApplicable,
                    "has a bracketed movement allowance (its list): a bracketed MA means the unit cannot skirmish (2.4, 7.13 1)",
                ));
            }
            for word in ["v", named::printed::BRACKETED] {
                if let Some(span) = a_view.span_of(word).filter(|_| !a_view.implied(word)) {
                    return Err(not_here(
                        ErrorKind::NotApplicable,
                        span,
                        word,
                        "is a V or bracketed movement allowance: only infantry with a non-bracketed, non-V MA may skirmish (7.13 1)",
                    ));
                }
            }
        }
        Some(Tactic::PressForward) => {
            wrong_arm(a, &["infantry"], "attacking infantry only (7.13 2)")?
        }
        Some(Tactic::Charge) => wrong_arm(
            a,
            &["infantry"],
            "attacking infantry only (7.13 3; cavalry say `cavalry-charge`)",
        )?,
        Some(Tactic::CavalryCharge) => {
            wrong_arm(a, &["cavalry"], "cavalry (standard 9.3, QuickPlay 9.2)")?
        }
        _ => {}
    }
    match d.tactic {
        Some(Tactic::LastStand) => wrong_arm(
            d,
            &["infantry", "artillery"],
            "defending infantry and/or artillery only (7.13 5)",
        )?,
        Some(Tactic::Square | Tactic::FormSquare) => wrong_arm(
            d,
            &["infantry"],
            "an infantry unit (standard 9.5, QuickPlay 9.3)",
        )?,
        Some(Tactic::Countercharge) => {
            wrong_arm(d, &["cavalry"], "a defending cavalry unit (9.4)")?
        }
        _ => {}
    }
    Ok(())
}

/// A square defends alone, a unit of CF zero does not attack, and a
/// charge takes at most so many units.
fn one_defender_and_attackers(
    variant: Variant,
    input: &Input,
    a: &SideWords,
    d: &SideWords,
) -> Result<(), CommandError> {
    // Standard 9.5: "only the unit in square defends the hex"; QuickPlay
    // 9.3: "Only the infantry unit forming square may participate in
    // combat".
    if let Some(Tactic::Square | Tactic::FormSquare) = d.tactic
        && let Some(extra) = d.factors.get(1)
    {
        return Err(not_here(
            ErrorKind::ExtraWord,
            extra.span,
            &extra.text,
            "is a second defending unit: only the unit in square defends the hex (standard 9.5, QuickPlay 9.3); the units stacked with it share its fate",
        ));
    }
    // 7.5: "A unit with a CF of zero cannot attack".
    if variant == Variant::Standard
        && let Some(zero) = a.factors.iter().find(|f| f.printed == 0)
    {
        return Err(not_here(
            ErrorKind::NotApplicable,
            zero.span,
            input
                .line
                .get(zero.span.start..zero.span.end)
                .unwrap_or(&zero.text),
            "is a combat factor of zero: a unit with a CF of zero cannot attack (7.5)",
        ));
    }
    // At most two combat units charge (7.13 3: "one infantry battalion
    // plus one other infantry unit"; 9.3 1: "one squadron, and any one
    // other cavalry unit"); in QuickPlay each cavalry unit charges alone
    // (9.2: "the charges are resolved separately").
    let most = match (variant, a.tactic) {
        (Variant::Standard, Some(Tactic::Charge | Tactic::CavalryCharge)) => 2,
        (Variant::QuickPlay, Some(Tactic::CavalryCharge)) => 1,
        _ => usize::MAX,
    };
    if let Some(extra) = a.factors.get(most) {
        let why = match variant {
            Variant::Standard => match a.tactic {
                Some(Tactic::Charge) => "is a third charging unit: a charge takes at most one infantry battalion plus one other infantry unit (7.13 3)",
                _ => "is a third charging unit: a cavalry charge takes at most one squadron and any one other cavalry unit (9.3 1)",
            }
            .to_string(),
            Variant::QuickPlay => "is a second charging unit: more than one cavalry unit may charge a single defender, but the charges are resolved separately (QuickPlay 9.2): one `attack` for each".to_string(),
        };
        return Err(not_here(
            ErrorKind::ExtraWord,
            extra.span,
            &extra.text,
            &why,
        ));
    }
    Ok(())
}

/// Standard rules only: who may take part in a charge or countercharge,
/// and who may be the primary attacker.
fn standard_charge(
    input: &Input,
    a: &SideWords,
    a_view: &Bound,
    d: &SideWords,
    d_view: &Bound,
) -> Result<(), CommandError> {
    // 7.13 3, 9.3: charge participants may not be disrupted or ineffective.
    if let Some(t @ (Tactic::Charge | Tactic::CavalryCharge)) = a.tactic {
        // 7.13 3: "A maximum of one leader plus one infantry battalion
        // plus one other infantry unit"; 9.3 1: "up to one leader, one
        // squadron, and any one other cavalry unit".
        if let Some(second) = named::leaders(&a.units).nth(1) {
            return Err(second.refuse(ErrorKind::ExtraWord, match t {
                Tactic::Charge => "is a second leader: a charge takes at most one leader (7.13 3: one leader plus one infantry battalion plus one other infantry unit)",
                _ => "is a second leader: a cavalry charge takes at most one leader (9.3 1: up to one leader, one squadron, and any one other cavalry unit)",
            }));
        }
        for word in ["disrupted", "ineffective"] {
            let unit = a.units.iter().find(|u| u.combat && u.has(word));
            let span = match unit {
                Some(u) => Some(u.span),
                None => a_view.span_of(word),
            };
            if let Some(span) = span {
                return Err(not_here(
                    ErrorKind::NotApplicable,
                    span,
                    input.line.get(span.start..span.end).unwrap_or(word),
                    &format!(
                        "is {word}: {} participants may not be disrupted or ineffective (7.13 3, 9.3)",
                        t.keyword()
                    ),
                ));
            }
        }
        crate::saber::stack::check_charge(t, &a.units)?;
    }
    // 9.4: the countercharging cavalry "does not make a morale check,
    // but must meet all other requirements" of a charge: its
    // participants may not be disrupted or ineffective (7.13 3).
    if d.tactic == Some(Tactic::Countercharge) {
        for word in ["disrupted", "ineffective"] {
            let span = match d.units.iter().find(|u| u.combat && u.has(word)) {
                Some(u) => Some(u.span),
                None => d_view.span_of(word),
            };
            if let Some(span) = span {
                return Err(not_here(
                    ErrorKind::NotApplicable,
                    span,
                    input.line.get(span.start..span.end).unwrap_or(word),
                    &format!(
                        "is {word}: countercharging cavalry must meet every requirement of a charge but the move and the check (9.4), and charge participants may not be disrupted or ineffective (7.13 3)"
                    ),
                ));
            }
        }
    }
    // 7.5: the primary attacker is not artillery if anything else fights.
    if let Some(p) = a.primary
        && a.units[p].has("artillery")
        && let Some(other) = a
            .units
            .iter()
            .find(|u| u.combat && (u.has("infantry") || u.has("cavalry")))
    {
        return Err(a.units[p].refuse(ErrorKind::MisplacedWord, format!(
            "is artillery, and the primary attacker cannot be an artillery unit unless nothing else is available (7.5): name `{}` first",
            other.id
        )));
    }
    Ok(())
}

/// The primary unit's arm, typed or brought.
fn arm(side: &SideWords) -> Option<&'static str> {
    if side.cavalry {
        Some("cavalry")
    } else if side.artillery {
        Some("artillery")
    } else if side.infantry {
        Some("infantry")
    } else {
        None
    }
}

/// A tactic for some arms only: the primary unit's arm (typed or
/// brought), then every other combat unit named on the side, each by
/// the arm it brings.
fn wrong_arm(side: &SideWords, allowed: &[&str], why: &str) -> Result<(), CommandError> {
    let Some(t) = side.tactic else {
        return Ok(());
    };
    if let Some(arm) = arm(side)
        && !allowed.contains(&arm)
    {
        return Err(not_here(
            ErrorKind::NotApplicable,
            side.tactic_span,
            t.keyword(),
            &format!("is for {why}, and the primary unit is {arm}"),
        ));
    }
    for unit in side.units.iter().filter(|u| u.combat) {
        if let Some(arm) = ARMS.into_iter().find(|a| unit.has(a))
            && !allowed.contains(&arm)
        {
            return Err(unit.refuse(
                ErrorKind::NotApplicable,
                format!(
                    "is {arm}, and `{}` is for {why}: leave it out of this combat",
                    t.keyword()
                ),
            ));
        }
    }
    Ok(())
}

/// The attacker's words that change the factors: each where the rules
/// allow it.
pub(super) fn check_attack_words(
    variant: Variant,
    a: &SideWords,
    a_view: &Bound,
) -> Result<(), CommandError> {
    let refuse = |word: &str, why: &str| -> CommandError {
        not_here(
            ErrorKind::NotApplicable,
            a_view.span_of(word).unwrap_or_default(),
            word,
            why,
        )
    };
    let charging = matches!(a.tactic, Some(Tactic::Charge | Tactic::CavalryCharge));
    if a.in_square {
        match variant {
            Variant::Standard => {
                return Err(refuse(
                    "square",
                    "is a unit in square, and a unit in square may not attack (9.5)",
                ));
            }
            Variant::QuickPlay => {
                if let Some(extra) = a.factors.get(1) {
                    return Err(not_here(
                        ErrorKind::ExtraWord,
                        extra.span,
                        &extra.text,
                        "is a second attacking unit: only the infantry unit forming square may participate in combat (9.3)",
                    ));
                }
            }
        }
    }
    if a.fow_charge && !charging {
        return Err(refuse(
            FOW_CHARGE,
            "is a charge made as a fortune of war (12.4): add `charge` (infantry) or `cavalry-charge` (cavalry)",
        ));
    }
    if a.counterattack
        && let Some(extra) = a.factors.get(1)
    {
        return Err(not_here(
            ErrorKind::ExtraWord,
            extra.span,
            &extra.text,
            "is a second unit: the counterattacking unit attacks alone (7.2); resolve one `attack` for each",
        ));
    }
    if let Some((support, span)) = a.support {
        let text = format!("{SUPPORT}={support}");
        if support == 0 {
            return Err(not_here(
                ErrorKind::NotApplicable,
                span,
                &text,
                "is no support: supporting artillery must be able to bombard the defender (8.8 2), with an attack factor greater than zero (8.4 1; QuickPlay 8.2 2)",
            ));
        }
        if charging {
            return Err(not_here(
                ErrorKind::Conflict,
                span,
                &text,
                match variant {
                    Variant::Standard => {
                        "is artillery support, and a charge allows none (7.13 3, 9.3)"
                    }
                    Variant::QuickPlay => {
                        "is artillery support, and no attack other than a cavalry charge may be made against the same unit (9.2)"
                    }
                },
            ));
        }
    }
    Ok(())
}

/// Standard 7.5, QuickPlay 7.3: "A unit may attack only once per combat
/// phase", but victorious charging cavalry "may continue advancing and
/// charging indefinitely, as long as the defenders rout" (standard 9.3 6,
/// QuickPlay 9.2 5).
pub(super) fn once_per_phase(a: &SideWords, a_view: &Bound) -> Result<(), CommandError> {
    use crate::saber::game::{ATTACKED, CHARGING};
    let charging_on = a.tactic == Some(Tactic::CavalryCharge);
    for unit in a.units.iter().filter(|u| u.combat && u.has(ATTACKED)) {
        if charging_on && unit.has(CHARGING) {
            continue;
        }
        return Err(unit.refuse(ErrorKind::NotNow, if unit.has(CHARGING) {
            "has attacked this combat phase, and a unit may attack only once per combat phase (7.5): victorious cavalry may only charge again (`cavalry-charge`, 9.3 6), or end its charge (`choose ID flip`, 9.3 8)"
        } else {
            "has attacked this combat phase: a unit may attack only once per combat phase (standard 7.5, QuickPlay 7.3); attack with the others, or after `next-turn`"
        }));
    }
    if a.units.is_empty() && a_view.has(ATTACKED) && !(charging_on && a_view.has(CHARGING)) {
        return Err(not_here(
            ErrorKind::NotNow,
            a_view.span_of(ATTACKED).unwrap_or_default(),
            ATTACKED,
            "is a unit that has attacked this combat phase: a unit may attack only once per combat phase (standard 7.5, QuickPlay 7.3)",
        ));
    }
    Ok(())
}
