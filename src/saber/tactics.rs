//! Choice of tactics (standard 7.13), cavalry charges and countercharges
//! (standard 9.3–9.4, QuickPlay 9.2) and squares (standard 9.5, QuickPlay
//! 9.3): each is a transformation of the factors, the checks before the
//! combat, and the CRT result.

use super::crt::{Code, Letter, Side};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tactic {
    Skirmish,
    PressForward,
    Charge,
    Disengage,
    LastStand,
    CavalryCharge,
    Countercharge,
    Square,
    FormSquare,
}

impl Tactic {
    pub(crate) const ALL: [Tactic; 9] = [
        Tactic::Skirmish,
        Tactic::PressForward,
        Tactic::Charge,
        Tactic::Disengage,
        Tactic::LastStand,
        Tactic::CavalryCharge,
        Tactic::Countercharge,
        Tactic::Square,
        Tactic::FormSquare,
    ];

    pub(crate) fn keyword(self) -> &'static str {
        match self {
            Tactic::Skirmish => "skirmish",
            Tactic::PressForward => "press-forward",
            Tactic::Charge => "charge",
            Tactic::Disengage => "disengage",
            Tactic::LastStand => "last-stand",
            Tactic::CavalryCharge => "cavalry-charge",
            Tactic::Countercharge => "countercharge",
            Tactic::Square => "square",
            Tactic::FormSquare => "form-square",
        }
    }

    pub(crate) fn from_keyword(word: &str) -> Option<Tactic> {
        Tactic::ALL.into_iter().find(|t| t.keyword() == word)
    }
}

/// A result after the tactics have had their say: a primary and secondary
/// code for the results engine.
pub(crate) type Plan = Vec<(Code, Option<Code>)>;

/// Skirmish (7.13 1): A or Ex → NE; Dx or Dm → Dr; secondary results ignored.
pub(crate) fn skirmish(code: Code) -> (Code, Option<Code>) {
    match (code.side(), code.letter()) {
        (Some(Side::Attacker), _) | (None, _) if code != Code::NE => (Code::NE, None),
        (Some(Side::Defender), Some(Letter::X | Letter::M)) => (Code::Dr, None),
        _ => (code, None),
    }
}

/// A charge pressed home (7.13 3, 9.3 5): A or Ex → Ax; D → Dm (Ax).
pub(crate) fn charge(code: Code, secondary: Option<Code>) -> (Code, Option<Code>) {
    match code.side() {
        Some(Side::Attacker) => (Code::Ax, None),
        None if code == Code::Ex => (Code::Ax, None),
        Some(Side::Defender) => (Code::Dm, Some(Code::Ax)),
        None => (code, secondary),
    }
}

/// Disengagement (7.13 4), both choices read against the same result:
/// the attacker's turns D, Ex or Ac into Ar; the defender's turns A, Ex or
/// Dc into Dr; when both apply, both retreat, the defender first.
pub(crate) fn disengage(
    code: Code,
    secondary: Option<Code>,
    attacker: bool,
    defender: bool,
) -> Plan {
    let a_hit =
        attacker && (code.side() == Some(Side::Defender) || code == Code::Ex || code == Code::Ac);
    let d_hit =
        defender && (code.side() == Some(Side::Attacker) || code == Code::Ex || code == Code::Dc);
    match (d_hit, a_hit) {
        (true, true) => vec![(Code::Dr, None), (Code::Ar, None)],
        (true, false) => vec![(Code::Dr, None)],
        (false, true) => vec![(Code::Ar, None)],
        (false, false) => vec![(code, secondary)],
    }
}

/// A standard square attacked by cavalry (9.5): Dr and Dx → Dm; secondary
/// results ignored (whether the defender routs decides the rest).
pub(crate) fn square_standard(code: Code) -> (Code, Option<Code>) {
    match code {
        Code::Dr | Code::Dx => (Code::Dm, None),
        other => (other, None),
    }
}

/// A QuickPlay cavalry charge (9.2 4): Dr, Dc and Dx → Dm (and any D
/// result); everything else is decided by whether the defender routs.
pub(crate) fn quickplay_charge(code: Code) -> Option<(Code, Option<Code>)> {
    match code.side() {
        Some(Side::Defender) => Some((Code::Dm, None)),
        _ => None,
    }
}
