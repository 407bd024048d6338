//! The morale checks made before the combat die.

use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::CommandError;
use crate::saber::crt::Side;
use crate::saber::game::SaberEffect;
use crate::saber::morale;
use crate::saber::results::{SideInfo, Who};
use crate::saber::tactics::Tactic;
use crate::saber::{MoraleTable, SaberRules, Tables, Variant};

use super::setup::Setup;
use super::tactic_row;
use crate::saber::Resolution;

/// Who makes 7.3 2's check, as its rows and die name it.
const NO_SLR_WHO: &str = "defender lacking an SLR";
/// The row that opens 7.3 2's check.
const NO_SLR_ROW: &str = "step 2: the defender lacks a safe line of retreat (7.3 2)";

/// What the checks before the combat decided.
pub(super) struct Before {
    /// How many times the attacker's factors are halved for them.
    pub(super) attack_halvings: u32,
    /// A charge passed its check: its results apply.
    pub(super) pressed_home: bool,
    pub(super) in_square: bool,
    /// What the check of a defender lacking a safe line of retreat decided
    /// (standard 7.3 2).
    pub(super) no_slr: NoSlr,
    /// What the checks did to the units, for the game (not under `odds`).
    pub(super) game: Vec<(Side, Who, SaberEffect)>,
}

/// Standard 7.3 2: "Make a morale check for any defender lacking a safe
/// line of retreat (7.6). If a unit fails, it is disrupted (11.1); if
/// already disrupted, it routs (7.10; treat the rout as the result of
/// combat)."
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum NoSlr {
    /// No check: the defender has a safe line of retreat.
    NotMade,
    Passed,
    Disrupted,
    /// The rout is the result of combat: no CRT, no tactics.
    Routed,
}

impl NoSlr {
    pub(super) fn id(self) -> &'static str {
        match self {
            NoSlr::NotMade => "not-made",
            NoSlr::Passed => "passed",
            NoSlr::Disrupted => "disrupted",
            NoSlr::Routed => "routed",
        }
    }
}

impl Before {
    /// The side's primary unit is disrupted, for the game (not under
    /// `odds`).
    fn disrupt(&mut self, quiet: bool, side: Side) {
        if !quiet {
            self.game.push((side, Who::Primary, SaberEffect::Disrupted));
        }
    }
}

/// The checks the tactics make before the combat (a charge's, the target
/// of a QuickPlay cavalry charge, a square forming), and what they decided.
pub(super) fn checks_before(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    setup: &Setup,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
    sides: &mut [SideInfo; 2],
) -> Result<(Vec<morale::Check>, Before), CommandError> {
    let rules = variant.rules(tables);
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let mut checks = Vec::new();
    let mut before = Before {
        attack_halvings: 0,
        pressed_home: false,
        in_square: d_tactic == Some(Tactic::Square),
        no_slr: NoSlr::NotMade,
        game: Vec::new(),
    };
    if setup.defender.no_slr.is_some() && rules.combat.no_slr.is_some() {
        checks.push(no_slr_check(rules, input, res, dice, sides, &mut before)?);
        if before.no_slr == NoSlr::Routed {
            return Ok((checks, before));
        }
    }
    match (variant, a_tactic) {
        (Variant::Standard, Some(Tactic::Charge | Tactic::CavalryCharge)) => {
            res.row(tactic_row(rules, a_tactic), "declared");
            let check = check_before(input, &rules.morale, res, dice, &sides[0], "charging unit")?;
            if check.passed {
                before.pressed_home = true;
                res.note("the charge is pressed home: treat all A or Ex results as Ax, all D results as Dm (Ax)");
            } else {
                before.attack_halvings += 1;
                res.note("the charge has not been pressed home: resolve the combat normally, with the CF halved");
            }
            checks.push(check);
        }
        (Variant::QuickPlay, Some(Tactic::CavalryCharge)) => {
            res.row(tactic_row(rules, a_tactic), "declared");
            let check = check_before(
                input,
                &rules.morale,
                res,
                dice,
                &sides[0],
                "charging cavalry",
            )?;
            if check.passed {
                if before.in_square {
                    res.note("a unit in square does not make a morale check when charged by cavalry (9.3)");
                } else {
                    let target =
                        check_before(input, &rules.morale, res, dice, &sides[1], "target unit")?;
                    if !target.passed {
                        res.note("the target unit fails its check: it disrupts (9.2 2)");
                        make_disrupted(rules, &mut sides[1]);
                        before.disrupt(res.quiet, Side::Defender);
                    }
                    checks.push(target);
                }
            } else {
                res.note("the charging cavalry fails its check: it is disrupted (9.2 2), and disrupted units are halved when attacking (11.1 4)");
                // Already halved if it was disrupted; not at all if a leader
                // accompanies it (10.0 3).
                if !sides[0].disrupted && !setup.attacker.primary_accompanied {
                    before.attack_halvings += 1;
                }
                make_disrupted(rules, &mut sides[0]);
                before.disrupt(res.quiet, Side::Attacker);
            }
            checks.insert(0, check);
        }
        _ => {}
    }
    if setup.countercharge() && variant == Variant::Standard {
        res.note(tactic_row(rules, d_tactic));
    }
    if d_tactic == Some(Tactic::FormSquare) {
        checks.push(form_square(rules, input, res, dice, sides, &mut before)?);
    }
    Ok((checks, before))
}

/// Standard 7.3 2's check of a defender lacking a safe line of retreat,
/// and what it decided.
fn no_slr_check(
    rules: &SaberRules,
    input: &Input,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
    sides: &mut [SideInfo; 2],
    before: &mut Before,
) -> Result<morale::Check, CommandError> {
    if !res.quiet {
        res.row(NO_SLR_ROW, "morale check");
    }
    let check = check_before(input, &rules.morale, res, dice, &sides[1], NO_SLR_WHO)?;
    if check.passed {
        before.no_slr = NoSlr::Passed;
        res.note("the defender lacking a safe line of retreat passes its check: the combat goes on (7.3 2)");
    } else if sides[1].disrupted {
        // The rout is the result of combat: no tactics, no CRT.
        before.no_slr = NoSlr::Routed;
    } else {
        before.no_slr = NoSlr::Disrupted;
        make_disrupted(rules, &mut sides[1]);
        before.disrupt(res.quiet, Side::Defender);
        if before.in_square {
            // 9.5: "Squares are removed if the unit ... is disrupted",
            // and with the square goes its morale bonus.
            before.in_square = false;
            if let Some(adj) = rules.morale.adjustment.iter().find(|a| a.vs_cavalry)
                && let Some(m) = sides[1].morale.as_mut()
            {
                m.remove(adj.row.as_str());
            }
            res.note("the square is removed, its unit being disrupted (9.5)");
        }
    }
    Ok(check)
}

/// Standard 9.5 1: a defender forming square against a cavalry charge
/// checks; passing, the square is formed, failing, it is disrupted.
fn form_square(
    rules: &SaberRules,
    input: &Input,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
    sides: &mut [SideInfo; 2],
    before: &mut Before,
) -> Result<morale::Check, CommandError> {
    let check = check_before(
        input,
        &rules.morale,
        res,
        dice,
        &sides[1],
        "defender forming square",
    )?;
    if check.passed {
        before.in_square = true;
        res.note("the square is formed (9.5 1)");
        if let Some(adj) = rules.morale.adjustment.iter().find(|a| a.vs_cavalry)
            && let Some(m) = sides[1].morale.as_mut()
        {
            m.add(adj.row.as_str(), adj.value, adj.to);
        }
    } else {
        res.note("the defender fails: it is disrupted and the square is not formed (9.5 1)");
        make_disrupted(rules, &mut sides[1]);
        before.disrupt(res.quiet, Side::Defender);
    }
    Ok(check)
}

/// A check before the combat, by `who` of a side, on a die of its own.
pub(super) fn check_before(
    input: &Input,
    table: &MoraleTable,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
    side: &SideInfo,
    who: &'static str,
) -> Result<morale::Check, CommandError> {
    let Some(m) = &side.morale else {
        return Err(input.missing(side.missing_mr));
    };
    morale::check(res, table, m, who, dice, morale::die_of(who))
}

pub(super) fn make_disrupted(rules: &SaberRules, side: &mut SideInfo) {
    if side.disrupted {
        return;
    }
    side.disrupted = true;
    if let Some(adj) = rules
        .morale
        .adjustment
        .iter()
        .find(|a| a.keyword == "disrupted")
        && let Some(m) = side.morale.as_mut()
    {
        m.add(adj.row.as_str(), adj.value, adj.to);
    }
}
