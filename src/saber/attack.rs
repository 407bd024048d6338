//! `attack CF… vs CF…`: the differential (or odds ratio), the CRT cell, and
//! the result resolved with the morale die, as transformed by the tactics.
//!
//! Dice, in the order they are drawn: the morale checks the tactics make
//! before the combat (a charge's check, forming square), then the combat
//! die, then the morale die; a second check in one result draws a further
//! die.

use std::borrow::Cow;
use std::rc::Rc;

use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::command::{ClauseKind, Span};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::Tone;

use super::crt::{Cell, Code, Crt, CrtKind, Lookup, Side};
use super::factors::{self, Factor};
use super::game::SaberEffect;
use super::morale::{self, MoraleInput};
use super::named::{self, Named};
use super::results::{Ctx, Moved, SideInfo, Who, idx, modifier};
use super::tactics::{self, Plan, Tactic};
use super::{AdjustTo, MoraleTable, SaberRules, Tables, TacticSide, Variant};
use super::{Resolution, VerbDoc};
use crate::resolution::Target;

const ATTACKER_TACTIC: &str = "an attacker's tactic";
/// Supporting artillery's strength (standard 8.8, QuickPlay 8.2).
const SUPPORT: &str = "support";
/// A charge made as a fortune of war (standard 12.4).
const FOW_CHARGE: &str = "fow-charge";
/// QuickPlay 7.2's counterattack by a triggered defender.
const COUNTERATTACK: &str = "counterattack";
/// Standard 12.4: "the CF of all charging units (but not leaders) is doubled".
const FOW_CHARGE_MULTIPLIER: i64 = 2;
/// QuickPlay 7.2: "The combat factor of the counterattacking unit is doubled".
const COUNTERATTACK_MULTIPLIER: i64 = 2;
/// QuickPlay 9.3: "If the unit in square attacks, subtract 2 from its
/// combat factor."
const SQUARE_ATTACKING: i64 = 2;
/// Standard 8.8: "double the artillery's CF if any defending unit is
/// cavalry".
const SUPPORT_VS_CAVALRY: i64 = 2;
/// The arms a unit may bring, as fact words.
const ARMS: [&str; 3] = ["infantry", "cavalry", "artillery"];
const DEFENDER_TACTIC: &str = "a defender's tactic";
/// The defender lacks a safe line of retreat (standard 7.3 2, 7.6).
const NO_SLR: &str = "no-slr";
/// Who makes 7.3 2's check, as its rows and die name it.
const NO_SLR_WHO: &str = "defender lacking an SLR";
/// Why QuickPlay refuses `no-slr`.
const NO_SLR_QUICKPLAY: &str = "not in QuickPlay: its combat procedure (7.1) makes no check before combat for a defender lacking a safe line of retreat; a retreat without one is settled as the unit retreats (7.6)";
/// The row that opens 7.3 2's check.
const NO_SLR_ROW: &str = "step 2: the defender lacks a safe line of retreat (7.3 2)";

pub fn verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
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
            "attack 6 mr=4 vs 3 mr=4 no-slr rolled 5 3 2",
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
        "Close combat: differential (or odds), CRT cell from the combat die, results resolved with the morale die. Dice: the check of a defender lacking a safe line of retreat first (standard 7.3 2, `no-slr`), then a charge's or square's check, then the combat die, then the morale die.",
        side_vocab(rules, variant, Side::Attacker),
        super::resolver(t, resolve),
    )
    .examples(examples)
    .clause(ClauseKind::Vs, side_vocab(rules, variant, Side::Defender), 1)
}

fn side_vocab(rules: &SaberRules, variant: Variant, side: Side) -> Vocab {
    let mut v = Vocab::new()
        .with_notation("combat factors")
        .number_from("cf")
        .number(
            "mr",
            0,
            10,
            "the primary unit's morale rating (the MR for the whole side, 7.4)",
        )
        .number(
            "leader-cf",
            0,
            9,
            "a participating leader's combat factor, added to the side's factors (10.3)",
        )
        .number("leader-mr", 0, 9, rules.morale.leader.clone())
        .flag("cavalry", "the primary unit is cavalry (9.2)")
        .number(
            named::printed::CHARGE,
            0,
            factors::MAX_FACTOR,
            "the primary cavalry unit's charge factor, its CF when it charges or countercharges (9.3 4, 9.4; QuickPlay 9.2 3)",
        )
        .number(
            named::printed::DEFENCE,
            0,
            factors::MAX_FACTOR,
            "the primary artillery unit's defense factor, its CF when attacked by an adjacent unit or skirmished against (8.1, 7.13 1)",
        )
        .flag(
            named::printed::PARENTHESIZED,
            "the primary unit's CF is parenthesized: halved when attacking (2.4)",
        )
        .number(
            "ma",
            1,
            30,
            "the primary unit's MA: its combat factor in a skirmish, infantry on both sides (7.13 1)",
        )
        .flag(
            "v",
            "the primary unit's MA is variable (4.4): it may not skirmish, and counts zero skirmished against (7.13 1)",
        )
        .flag(
            named::printed::BRACKETED,
            "the primary unit's MA is bracketed: it may not skirmish, and counts zero skirmished against (2.4, 7.13 1)",
        )
        .flag(
            "infantry",
            "the primary unit is infantry (brought by a named unit; tactics for infantry only check it)",
        )
        .number(
            super::coordination::FORMATION,
            0,
            i64::MAX,
            match variant {
                Variant::Standard => "the unit's formation number (2.4), brought by a named unit: coordination reads it (7.14)",
                Variant::QuickPlay => "the unit's formation number (2.3), brought by a named unit",
            },
        )
        .flag(
            super::coordination::ALL_FORMATIONS,
            match variant {
                Variant::Standard => "a unit of formation \"A\", treated as belonging to all other formations (2.4), brought by a named unit",
                Variant::QuickPlay => "a unit of formation \"A\", of all formations (2.3), brought by a named unit",
            },
        )
        .flag(
            super::game::ONE_STEP,
            "a one-step infantry brigade (2.5), brought by a named unit: whether a tactic's second step loss finds a step to take (7.11)",
        )
        .flag(
            super::stack::BATTALION,
            "the unit is an infantry battalion (2.7), brought by a named unit: its own place in a stack (7.4) and in a charge (7.13 3)",
        )
        .flag(
            super::stack::SQUADRON,
            "the unit is a cavalry squadron (2.7), brought by a named unit: its own place in a stack (7.4) and in a cavalry charge (9.3 1)",
        )
        .flag(
            "ineffective",
            match &rules.morale.ineffective {
                Some(row) => row.clone(),
                None => "the primary unit is ineffective (11.3): it may not charge (7.13 3)".into(),
            },
        );
    v = match &rules.morale.artillery {
        Some(art) => v.flag(
            "artillery",
            format!("{}; artillery may not advance (8.3)", art.row),
        ),
        None => v.flag(
            "artillery",
            "the primary unit is artillery: it may not advance (8.1 4)",
        ),
    };
    for adj in &rules.morale.adjustment {
        if adj.vs_cavalry || (side == Side::Defender && adj.group.is_some()) {
            continue;
        }
        let help = if adj.keyword == "disrupted" && side == Side::Attacker {
            format!(
                "the primary unit is disrupted: {}; attacking, its CF is halved (11.1)",
                adj.row
            )
        } else {
            adj.row.clone()
        };
        v.add(adj.keyword.clone(), crate::bind::Kind::Flag, help);
    }
    if side == Side::Attacker {
        v = v
            .flag(
                super::game::ATTACKED,
                "the unit has attacked this combat phase (brought by a named unit in a game): a unit may attack only once per combat phase (standard 7.5, QuickPlay 7.3)",
            )
            .flag(
                super::game::CHARGING,
                "victorious charging cavalry whose charge goes on (brought by a named unit in a game): it may charge again (standard 9.3 6, QuickPlay 9.2 5)",
            );
    }
    if side == Side::Attacker
        && let Some(c) = &rules.coordination
        && c.played
    {
        v.add(c.word.clone(), crate::bind::Kind::Flag, c.leader.clone());
    }
    if side == Side::Attacker {
        v = v.number(
            SUPPORT,
            0,
            factors::MAX_FACTOR,
            match variant {
                Variant::Standard => "supporting artillery's attack strength, added to the attacker's total; doubled if any defending unit is cavalry (8.8)",
                Variant::QuickPlay => "bombarding artillery's attack factor added to the attack (8.2)",
            },
        );
        v = match variant {
            Variant::Standard => v
                .flag(
                    FOW_CHARGE,
                    "the charge is a fortune of war (12.4): if the primary unit passes its charge morale test, the CF of all charging units (but not leaders) is doubled",
                )
                .flag(
                    "square",
                    "the attacking unit is in square: it may not attack (9.5)",
                ),
            Variant::QuickPlay => v
                .flag(
                    COUNTERATTACK,
                    "a triggered defender not attacked counterattacks at the end of the combat phase (7.2): its combat factor is doubled",
                )
                .flag(
                    "square",
                    "the attacking unit is in square: subtract 2 from its combat factor (9.3)",
                ),
        };
    }
    // 12.1, 12.2: an HQ or the trains attacked is refused with what the
    // rule does instead (named::BASES).
    if side == Side::Defender && variant == Variant::Standard {
        for (word, why) in named::BASES {
            v = v.flag(word, why.strip_prefix("is ").unwrap_or(why).to_string());
        }
    }
    // Said where the rules have no such check, it is refused with why.
    v = match (&rules.combat.no_slr, side) {
        (Some(row), Side::Defender) => v.flag(NO_SLR, row.clone()),
        (Some(_), Side::Attacker) => v.flag(NO_SLR, "the defender's word: say it after `vs`"),
        (None, Side::Defender) => v.flag(NO_SLR, NO_SLR_QUICKPLAY),
        (None, Side::Attacker) => v,
    };
    v = match side {
        Side::Attacker => v.number("def-mr", 0, 10, "the primary defender's morale rating"),
        // The same fact as the defender's `mr`: typed, it stands for the MR
        // a named defender brings.
        Side::Defender => v
            .number(
                "def-mr",
                0,
                10,
                "the primary defender's morale rating (the same as `mr=N` here)",
            )
            .slot(&["mr", "def-mr"]),
    };
    for t in &rules.tactic {
        let on_side = match t.side {
            TacticSide::Attacker => side == Side::Attacker,
            TacticSide::Defender => side == Side::Defender,
            TacticSide::Either => true,
        };
        if on_side {
            let group = match side {
                Side::Attacker => ATTACKER_TACTIC,
                Side::Defender => DEFENDER_TACTIC,
            };
            v = v.choice(group, &t.keyword, t.row.clone());
        }
    }
    v
}

/// One side's words, read.
struct SideWords {
    factors: Vec<Factor>,
    /// Supporting artillery's strength and where it was said (attacker).
    support: Option<(i64, Span)>,
    /// The charge is a fortune of war (standard 12.4).
    fow_charge: bool,
    /// A QuickPlay counterattack (7.2).
    counterattack: bool,
    /// The attacking unit is in square (QuickPlay 9.3).
    in_square: bool,
    /// Some unit of the side is cavalry: the primary, or another named.
    any_cavalry: bool,
    /// For each factor, whether its unit is disrupted (or, in QuickPlay,
    /// ineffective): halved when attacking (standard 11.1 2, QuickPlay
    /// 11.1 4, 11.3).
    disrupted_factor: Vec<bool>,
    /// For each factor, whether its unit may not advance after combat:
    /// disrupted, parenthesized or artillery (standard 7.12, 8.3;
    /// QuickPlay 7.9).
    no_advance: Vec<bool>,
    /// For each factor, whether it is halved in an uncoordinated attack
    /// (7.14).
    uncoordinated: Vec<bool>,
    /// How many disrupted units are not halved, a leader accompanying
    /// each (QuickPlay 10.0 3).
    accompanied_disrupted: usize,
    /// A leader accompanies the primary unit (QuickPlay 10.0 3).
    primary_accompanied: bool,
    tactic: Option<Tactic>,
    /// Where the tactic was said, for errors.
    tactic_span: Span,
    cavalry: bool,
    infantry: bool,
    artillery: bool,
    disrupted: bool,
    /// The participating leaders' combat factors, added up.
    leader_cf: Option<i64>,
    /// How many leaders are named on the side.
    leaders: usize,
    /// The units and leaders named on the side, in order.
    units: Vec<Named>,
    /// The primary unit among them (the first combat unit named).
    primary: Option<usize>,
    /// Where `no-slr` was said: the defender lacks a safe line of retreat
    /// (standard 7.3 2).
    no_slr: Option<Span>,
}

impl SideWords {
    /// How often factor `k` is halved when this side attacks: its own
    /// marks, parentheses or disruption (one halving: a disrupted unit's
    /// CF is treated as parenthesized), and `extra` from the situation.
    fn attack_halvings(&self, k: usize, extra: u32) -> u32 {
        let f = &self.factors[k];
        let disrupted = self.disrupted_factor.get(k).copied().unwrap_or(false);
        let uncoordinated = self.uncoordinated.get(k).copied().unwrap_or(false);
        f.marks + u32::from(f.parenthesized || disrupted) + u32::from(uncoordinated) + extra
    }
}

/// One side's words, read, and the words as its primary unit has them
/// (needed only before the dice).
fn read_side<'a>(
    variant: Variant,
    rules: &SaberRules,
    side: Side,
    clause: Option<usize>,
    words: &'a Bound,
    what: &str,
    input: &Input,
) -> Result<(SideWords, Cow<'a, Bound>), CommandError> {
    let group = match side {
        Side::Attacker => ATTACKER_TACTIC,
        Side::Defender => DEFENDER_TACTIC,
    };
    let units = named::side(input, clause)?;
    let primary = named::primary(&units);
    // Standard 10.3: each participating leader adds his combat and morale
    // factors, and may assist the primary, whose MR is the side's (7.4);
    // in QuickPlay the first leader named is the primary's (10.0 2).
    let view = named::primary_view(variant, words, &units, primary, "leader-mr");
    let factors = factors::parse_all(&words.raw)?;
    if factors.is_empty() {
        return Err(input.missing(format!(
            "`attack` needs the {what}'s combat factors, like `attack 5 (4) vs 3h`"
        )));
    }
    // Each factor is one unit's (7.7; QuickPlay 7.4).
    named::one_leader_per_unit(variant, &units, factors.len())?;
    let leaders = named::leaders(&units).count();
    let tactic = view
        .choice(group)
        .and_then(|(name, span)| Tactic::from_keyword(name).map(|t| (t, span)));
    // QuickPlay 11.3: ineffective artillery and cavalry operate as disrupted.
    let ineffective_too = rules.morale.ineffective.is_some();
    let disrupted = view.has("disrupted") || (ineffective_too && view.has("ineffective"));
    // A typed `leader-cf` stands for the side's leaders; otherwise every
    // named leader's CF counts (7.7 "all ... participating leaders";
    // QuickPlay 10.0 3).
    let leader_cf = if view.implied("leader-cf") {
        named::leaders_sum(&units, "leader-cf")
    } else {
        view.value("leader-cf")
    };
    // QuickPlay 10.0 3: "Accompanied disrupted units are not halved when
    // attacking": the first leader goes with the primary, the next with
    // the next unit named (a typed `leader-cf` is the primary's leader).
    let accompanying = match variant {
        Variant::QuickPlay => leaders.max(usize::from(leader_cf.is_some())),
        Variant::Standard => 0,
    };
    // The primary's factor: its unit's, or the first when none is named.
    let primary_factor = match primary {
        Some(p) => words.raw.iter().position(|w| w.span == units[p].span),
        None => Some(0),
    };
    let mut others_accompanied = accompanying.saturating_sub(1);
    let mut accompanied_disrupted = 0;
    let mut no_advance = Vec::new();
    let disrupted_factor = words
        .raw
        .iter()
        .enumerate()
        .map(|(k, w)| {
            let (unit_disrupted, accompanied) = if Some(k) == primary_factor {
                (disrupted, accompanying > 0)
            } else {
                let accompanied = others_accompanied > 0;
                others_accompanied = others_accompanied.saturating_sub(1);
                let unit_disrupted = units
                    .iter()
                    .find(|u| u.combat && u.span == w.span)
                    .is_some_and(|u| u.as_disrupted(ineffective_too));
                (unit_disrupted, accompanied)
            };
            if unit_disrupted && accompanied {
                accompanied_disrupted += 1;
            }
            let artillery = if Some(k) == primary_factor {
                view.has("artillery")
            } else {
                units
                    .iter()
                    .any(|u| u.combat && u.span == w.span && u.has("artillery"))
            };
            let parenthesized =
                variant == Variant::Standard && factors.get(k).is_some_and(|f| f.parenthesized);
            no_advance.push(unit_disrupted || artillery || parenthesized);
            unit_disrupted && !accompanied
        })
        .collect();
    let any_cavalry = view.has("cavalry") || units.iter().any(|u| u.combat && u.has("cavalry"));
    let side = SideWords {
        support: view
            .value(SUPPORT)
            .map(|v| (v, view.span_of(SUPPORT).unwrap_or_default())),
        fow_charge: view.has(FOW_CHARGE),
        counterattack: view.has(COUNTERATTACK),
        in_square: side == Side::Attacker && view.has("square"),
        any_cavalry,
        factors,
        disrupted_factor,
        no_advance,
        uncoordinated: Vec::new(),
        accompanied_disrupted,
        primary_accompanied: accompanying > 0,
        tactic: tactic.map(|t| t.0),
        tactic_span: tactic.map(|t| t.1).unwrap_or_default(),
        cavalry: view.has("cavalry"),
        infantry: view.has("infantry"),
        artillery: view.has("artillery"),
        disrupted,
        leader_cf,
        leaders,
        units,
        primary,
        no_slr: view.span_of(NO_SLR),
    };
    Ok((side, view))
}

/// The checks of who may do what that only named units make possible:
/// the tactics for one arm, the primary attacker, charge participants.
fn check_sides(
    variant: Variant,
    input: &Input,
    a: &SideWords,
    a_view: &Bound,
    d: &SideWords,
    d_view: &Bound,
) -> Result<(), CommandError> {
    let arm = |side: &SideWords| -> Option<&'static str> {
        if side.cavalry {
            Some("cavalry")
        } else if side.artillery {
            Some("artillery")
        } else if side.infantry {
            Some("infantry")
        } else {
            None
        }
    };
    // A tactic for some arms only: the primary unit's arm (typed or
    // brought), then every other combat unit named on the side, each by
    // the arm it brings.
    let wrong_arm = |side: &SideWords, allowed: &[&str], why: &str| -> Result<(), CommandError> {
        let Some(t) = side.tactic else {
            return Ok(());
        };
        if let Some(arm) = arm(side)
            && !allowed.contains(&arm)
        {
            return Err(not_here(
                side.tactic_span,
                t.keyword(),
                &format!("is for {why}, and the primary unit is {arm}"),
            ));
        }
        for unit in side.units.iter().filter(|u| u.combat) {
            if let Some(arm) = ARMS.into_iter().find(|a| unit.has(a))
                && !allowed.contains(&arm)
            {
                return Err(unit.refuse(format!(
                    "is {arm}, and `{}` is for {why}: leave it out of this combat",
                    t.keyword()
                )));
            }
        }
        Ok(())
    };
    match a.tactic {
        Some(Tactic::Skirmish) => {
            wrong_arm(a, &["infantry"], "attacking infantry only (7.13 1)")?;
            // 7.13 1: "Any attacking infantry unit with a non-bracketed,
            // non-V Movement Allowance".
            if let Some(unit) = a.units.iter().find(|u| u.combat && u.has("v")) {
                return Err(unit.refuse(
                    "has a V movement allowance: only infantry with a non-bracketed, non-V MA may skirmish (7.13 1)",
                ));
            }
            if let Some(unit) = a
                .units
                .iter()
                .find(|u| u.combat && u.has(named::printed::BRACKETED))
            {
                return Err(unit.refuse(
                    "has a bracketed movement allowance (its list): a bracketed MA means the unit cannot skirmish (2.4, 7.13 1)",
                ));
            }
            for word in ["v", named::printed::BRACKETED] {
                if let Some(span) = a_view.span_of(word).filter(|_| !a_view.implied(word)) {
                    return Err(not_here(
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
    // Standard 9.5: "only the unit in square defends the hex"; QuickPlay
    // 9.3: "Only the infantry unit forming square may participate in
    // combat".
    if let Some(Tactic::Square | Tactic::FormSquare) = d.tactic
        && let Some(extra) = d.factors.get(1)
    {
        return Err(not_here(
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
        return Err(not_here(extra.span, &extra.text, &why));
    }
    super::stack::check_defenders(variant, &d.units)?;
    if variant == Variant::Standard {
        // 7.13 3, 9.3: charge participants may not be disrupted or ineffective.
        if let Some(t @ (Tactic::Charge | Tactic::CavalryCharge)) = a.tactic {
            // 7.13 3: "A maximum of one leader plus one infantry battalion
            // plus one other infantry unit"; 9.3 1: "up to one leader, one
            // squadron, and any one other cavalry unit".
            if let Some(second) = named::leaders(&a.units).nth(1) {
                return Err(second.refuse(match t {
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
                        span,
                        input.line.get(span.start..span.end).unwrap_or(word),
                        &format!(
                            "is {word}: {} participants may not be disrupted or ineffective (7.13 3, 9.3)",
                            t.keyword()
                        ),
                    ));
                }
            }
            super::stack::check_charge(t, &a.units)?;
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
            return Err(a.units[p].refuse(format!(
                "is artillery, and the primary attacker cannot be an artillery unit unless nothing else is available (7.5): name `{}` first",
                other.id
            )));
        }
    }
    Ok(())
}

/// What one factor's unit prints, as a named unit brings it or (for the
/// primary factor of a side that names no unit) as the words typed say.
enum Source<'a> {
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
fn printed_factors(
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

/// The attacker's words that change the factors: each where the rules
/// allow it.
fn check_attack_words(variant: Variant, a: &SideWords, a_view: &Bound) -> Result<(), CommandError> {
    let refuse = |word: &str, why: &str| -> CommandError {
        not_here(a_view.span_of(word).unwrap_or_default(), word, why)
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
            extra.span,
            &extra.text,
            "is a second unit: the counterattacking unit attacks alone (7.2); resolve one `attack` for each",
        ));
    }
    if let Some((support, span)) = a.support {
        let text = format!("{SUPPORT}={support}");
        if support == 0 {
            return Err(not_here(
                span,
                &text,
                "is no support: supporting artillery must be able to bombard the defender (8.8 2), with an attack factor greater than zero (8.4 1; QuickPlay 8.2 2)",
            ));
        }
        if charging {
            return Err(not_here(
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
fn once_per_phase(a: &SideWords, a_view: &Bound) -> Result<(), CommandError> {
    use super::game::{ATTACKED, CHARGING};
    let charging_on = a.tactic == Some(Tactic::CavalryCharge);
    for unit in a.units.iter().filter(|u| u.combat && u.has(ATTACKED)) {
        if charging_on && unit.has(CHARGING) {
            continue;
        }
        return Err(unit.refuse(if unit.has(CHARGING) {
            "has attacked this combat phase, and a unit may attack only once per combat phase (7.5): victorious cavalry may only charge again (`cavalry-charge`, 9.3 6), or end its charge (`choose ID flip`, 9.3 8)"
        } else {
            "has attacked this combat phase: a unit may attack only once per combat phase (standard 7.5, QuickPlay 7.3); attack with the others, or after `next-turn`"
        }));
    }
    if a.units.is_empty() && a_view.has(ATTACKED) && !(charging_on && a_view.has(CHARGING)) {
        return Err(not_here(
            a_view.span_of(ATTACKED).unwrap_or_default(),
            ATTACKED,
            "is a unit that has attacked this combat phase: a unit may attack only once per combat phase (standard 7.5, QuickPlay 7.3)",
        ));
    }
    Ok(())
}

/// Coordination (standard 7.14): which attacking factors are halved, and
/// the rows that say why. A charge must be coordinated (7.13 3, 9.3).
fn coordinate(
    rules: &SaberRules,
    input: &Input,
    a: &mut SideWords,
    a_view: &Bound,
) -> Result<Vec<(String, String)>, CommandError> {
    let Some(table) = rules.coordination.as_ref().filter(|c| c.played) else {
        return Ok(Vec::new());
    };
    let twilight = input.words.has("twilight");
    let leader_word = a_view.has(&table.word);
    if twilight && leader_word {
        return Err(not_here(
            a_view.span_of(&table.word).unwrap_or_default(),
            &table.word,
            &format!("is not possible: {}; leave it out", table.twilight),
        ));
    }
    let primary = match a.primary {
        Some(p) => a.factors.iter().position(|f| f.span == a.units[p].span),
        None => Some(0),
    }
    .unwrap_or(0);
    let attack = super::coordination::Attack {
        factors: a
            .factors
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let unit = a.units.iter().find(|u| u.combat && u.span == f.span);
                let artillery = match unit {
                    Some(u) => u.has("artillery"),
                    None => k == primary && a.artillery,
                };
                (unit, artillery)
            })
            .collect(),
        primary,
        named_leader: named::leaders(&a.units)
            .find(|l| !l.has("ineffective"))
            .map(|l| l.id.as_str()),
        leader_word,
        twilight,
    };
    let judged = super::coordination::judge(table, &attack);
    if !judged.coordinated
        && let Some(t @ (Tactic::Charge | Tactic::CavalryCharge)) = a.tactic
    {
        return Err(not_here(
            a.tactic_span,
            t.keyword(),
            &format!(
                "is an uncoordinated attack, and a charge must be coordinated (7.13 3, 9.3): {}",
                judged
                    .rows
                    .iter()
                    .map(|(l, _)| l.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ));
    }
    a.uncoordinated = judged.halved;
    Ok(judged.rows)
}

/// An attack as its words and the tables set it up, before any die: the
/// same for every way the dice fall, so `odds` works it out once.
struct Setup {
    attacker: SideWords,
    defender: SideWords,
    /// What coordination (7.14) decided, for the stack.
    coordination_rows: Vec<(String, String)>,
    /// The sides as the results see them, before any check.
    sides: [SideInfo; 2],
    night: bool,
    /// The index of the `vs` clause among the command's clauses.
    vs_clause: usize,
    heading: String,
}

impl Setup {
    fn cavalry_charge(&self) -> bool {
        self.attacker.tactic == Some(Tactic::CavalryCharge)
    }

    fn countercharge(&self) -> bool {
        self.defender.tactic == Some(Tactic::Countercharge)
    }

    fn attacked_by_cavalry(&self) -> bool {
        self.attacker.cavalry || self.cavalry_charge()
    }
}

fn resolve(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let setup = input.memoized(|| setup(tables, variant, input))?;
    fight(tables, variant, input, setup, dice)
}

/// Read both sides' words and check they make an attack.
fn setup(tables: &Tables, variant: Variant, input: &Input) -> Result<Setup, CommandError> {
    let rules = variant.rules(tables);
    let (mut a, a_view) = read_side(
        variant,
        rules,
        Side::Attacker,
        None,
        &input.words,
        "attacker",
        input,
    )?;
    let Some(vs_clause) = input
        .command
        .clauses
        .iter()
        .position(|c| c.kind == ClauseKind::Vs)
    else {
        return Err(input.missing(
            "`attack` needs `vs` and the defender's combat factors, like `attack 5 4 vs 3`",
        ));
    };
    let Some(d_words) = input.clause(ClauseKind::Vs) else {
        return Err(input.missing(
            "`attack` needs `vs` and the defender's combat factors, like `attack 5 4 vs 3`",
        ));
    };
    if let Some(span) = a.no_slr {
        return Err(not_here(
            span,
            NO_SLR,
            "is the defender's: a defender lacking a safe line of retreat checks its morale before the combat (7.3 2); say it after `vs`",
        ));
    }
    let (mut d, d_view) = read_side(
        variant,
        rules,
        Side::Defender,
        Some(vs_clause),
        d_words,
        "defender",
        input,
    )?;
    if let Some(span) = d.no_slr
        && rules.combat.no_slr.is_none()
    {
        return Err(not_here(span, NO_SLR, &format!("is {NO_SLR_QUICKPLAY}")));
    }
    check_sides(variant, input, &a, &a_view, &d, &d_view)?;
    let (a_tactic, d_tactic) = (a.tactic, d.tactic);
    printed_factors(&mut a, &a_view, Side::Attacker, a_tactic, d_tactic);
    printed_factors(&mut d, &d_view, Side::Defender, a_tactic, d_tactic);
    check_attack_words(variant, &a, &a_view)?;
    once_per_phase(&a, &a_view)?;
    let coordination_rows = coordinate(rules, input, &mut a, &a_view)?;
    let cavalry_charge = a.tactic == Some(Tactic::CavalryCharge);
    let attacked_by_cavalry = a.cavalry || cavalry_charge;
    if d.tactic == Some(Tactic::FormSquare) && !cavalry_charge {
        return Err(not_here(
            d.tactic_span,
            "form-square",
            "is formed at the moment of combat only against a cavalry charge (9.5); say `square` for a square already formed",
        ));
    }
    if d.tactic == Some(Tactic::Countercharge) && !d.cavalry {
        return Err(not_here(
            d.tactic_span,
            "countercharge",
            "is for a defending cavalry unit (9.4): add `cavalry` after `vs`",
        ));
    }
    // 7.3: the check of step 2 comes before the choice of tactics (step
    // 3), and a disrupted unit may not countercharge (9.4, 7.13 3): the
    // choice hangs on the check, which one line cannot wait for.
    if let Some(span) = d.no_slr
        && d.tactic == Some(Tactic::Countercharge)
    {
        return Err(not_here(
            span,
            NO_SLR,
            "comes before the choice of tactics (7.3 2–3), and a countercharge hangs on it: a disrupted unit may not countercharge (9.4, 7.13 3). Check first with `morale MR`; if it passes, attack with `countercharge` and without `no-slr`; if it fails, the defender is disrupted (and routs if it already was)",
        ));
    }
    let night = input.words.has("night");
    if night
        && rules.combat.night.is_some()
        && a.tactic != Some(Tactic::Charge)
        && let Some(span) = input.words.span_of("night")
    {
        return Err(not_here(
            span,
            "night",
            "allows no combat except infantry charges (14.2): add `charge`",
        ));
    }

    // The morale of each side's primary unit, if its MR was given. A
    // typed `def-mr` wins over the MR a named defender brings.
    let typed_def_mr = match (input.words.value("def-mr"), d_view.value("def-mr")) {
        (Some(_), Some(_)) => {
            return Err(BindError::Conflict {
                span: d_view.span_of("def-mr").unwrap_or_default(),
                first: "def-mr before vs".into(),
                second: "def-mr after vs".into(),
                group: "the defender's morale rating".into(),
            }
            .into());
        }
        (Some(v), None) => Some((v, input.words.span_of("def-mr").unwrap_or_default())),
        (None, Some(v)) => Some((v, d_view.span_of("def-mr").unwrap_or_default())),
        (None, None) => None,
    };
    let d_mr = match (d_view.value("mr"), typed_def_mr) {
        (Some(_), Some(typed)) if d_view.implied("mr") => Some(typed),
        (Some(_), Some((_, span))) => {
            return Err(BindError::Conflict {
                span,
                first: "mr after vs".into(),
                second: "def-mr".into(),
                group: "the defender's morale rating".into(),
            }
            .into());
        }
        (Some(v), None) => Some((v, d_view.span_of("mr").unwrap_or_default())),
        (None, typed) => typed,
    };
    let a_mr = a_view
        .value("mr")
        .map(|v| (v, a_view.span_of("mr").unwrap_or_default()));
    let a_morale = side_morale(rules, &a_view, None, a_mr, false, input)?;
    let d_morale = side_morale(
        rules,
        &d_view,
        Some(&a_view),
        d_mr,
        d.tactic == Some(Tactic::Square) && attacked_by_cavalry,
        input,
    )?;
    let sides = [
        SideInfo {
            label: "attacker",
            morale: a_morale,
            missing_mr: "the attacker's morale rating is needed for this result: add `mr=N` before `vs`",
            mr_word: "`mr=N` before `vs`",
            disrupted: a.disrupted,
            cavalry: attacked_by_cavalry,
        },
        SideInfo {
            label: "defender",
            morale: d_morale,
            missing_mr: "the defender's morale rating is needed for this result: add `mr=N` after `vs` (or `def-mr=N`)",
            mr_word: "`mr=N` after `vs` (or `def-mr=N`)",
            disrupted: d.disrupted,
            cavalry: d.cavalry,
        },
    ];
    Ok(Setup {
        attacker: a,
        defender: d,
        coordination_rows,
        sides,
        night,
        vs_clause,
        heading: format!("attack on the CRT \"{}\"", tables.crt.name),
    })
}

/// What the checks before the combat decided.
struct Before {
    /// How many times the attacker's factors are halved for them.
    attack_halvings: u32,
    /// A charge passed its check: its results apply.
    pressed_home: bool,
    in_square: bool,
    /// What the check of a defender lacking a safe line of retreat decided
    /// (standard 7.3 2).
    no_slr: NoSlr,
    /// What the checks did to the units, for the game (not under `odds`).
    game: Vec<(Side, Who, SaberEffect)>,
}

/// Standard 7.3 2: "Make a morale check for any defender lacking a safe
/// line of retreat (7.6). If a unit fails, it is disrupted (11.1); if
/// already disrupted, it routs (7.10; treat the rout as the result of
/// combat)."
#[derive(Clone, Copy, PartialEq, Eq)]
enum NoSlr {
    /// No check: the defender has a safe line of retreat.
    NotMade,
    Passed,
    Disrupted,
    /// The rout is the result of combat: no CRT, no tactics.
    Routed,
}

impl NoSlr {
    fn id(self) -> &'static str {
        match self {
            NoSlr::NotMade => "not-made",
            NoSlr::Passed => "passed",
            NoSlr::Disrupted => "disrupted",
            NoSlr::Routed => "routed",
        }
    }
}

/// The checks the tactics make before the combat (a charge's, the target
/// of a QuickPlay cavalry charge, a square forming), and what they decided.
fn checks_before(
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
    let quiet = res.quiet;
    let disrupt = |before: &mut Before, side: Side| {
        if !quiet {
            before
                .game
                .push((side, Who::Primary, SaberEffect::Disrupted));
        }
    };
    if setup.defender.no_slr.is_some() && rules.combat.no_slr.is_some() {
        if !res.quiet {
            res.row(NO_SLR_ROW, "morale check");
        }
        let check = check_before(input, &rules.morale, res, dice, &sides[1], NO_SLR_WHO)?;
        checks.push(check);
        let passed = checks.last().is_some_and(|c| c.passed);
        if passed {
            before.no_slr = NoSlr::Passed;
            res.note("the defender lacking a safe line of retreat passes its check: the combat goes on (7.3 2)");
        } else if sides[1].disrupted {
            // The rout is the result of combat: no tactics, no CRT.
            before.no_slr = NoSlr::Routed;
            return Ok((checks, before));
        } else {
            before.no_slr = NoSlr::Disrupted;
            make_disrupted(rules, &mut sides[1]);
            disrupt(&mut before, Side::Defender);
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
                        disrupt(&mut before, Side::Defender);
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
                disrupt(&mut before, Side::Attacker);
            }
            checks.insert(0, check);
        }
        _ => {}
    }
    if setup.countercharge() && variant == Variant::Standard {
        res.note(tactic_row(rules, d_tactic));
    }
    if d_tactic == Some(Tactic::FormSquare) {
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
            disrupt(&mut before, Side::Defender);
        }
        checks.push(check);
    }
    Ok((checks, before))
}

/// A check before the combat, by `who` of a side, on a die of its own.
fn check_before(
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

/// One way the dice fall: the checks before the combat, the totals, the
/// CRT cell, and its results as the tactics transform them.
fn fight(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    setup: &Setup,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let crt = &tables.crt;
    let mut res = input.resolution("attack", setup.heading.clone());
    let mut sides = setup.sides.clone();
    let (checks, before) =
        checks_before(tables, variant, input, setup, &mut res, dice, &mut sides)?;
    if before.no_slr == NoSlr::Routed {
        return Ok(routed_before_combat(
            tables, variant, input, setup, &before, checks, sides, res,
        ));
    }

    // Countercharge against attackers that are not charging: the charging
    // cavalry is treated as the attacker (9.4).
    let swapped = setup.countercharge() && !setup.cavalry_charge();
    if swapped {
        sides.swap(0, 1);
        sides[0].label = "countercharging cavalry (the defender)";
        sides[1].label = "original attacker";
        res.note("countercharge against attackers not charging: treat the countercharging cavalry as the attacker and resolve per 9.3 (9.4)");
    }
    let (attack, defence) = totals(variant, rules, setup, &before, swapped, &sides, &mut res);

    let lookup = column(crt, attack, defence, &mut res);

    // The dice: the combat die, then the morale die, which counts only
    // through the checks that may read it.
    let cell = super::results::roll_cell(&mut res, input, crt, &lookup, dice)?;
    let morale_cuts = morale::cuts(
        &rules.morale,
        [sides[0].morale.as_ref(), sides[1].morale.as_ref()],
    );
    let morale_die = dice.roll_against(rules.morale.die, &morale_cuts)?;
    let mut ctx = Ctx::new(rules, input, sides, morale_die, &res);
    ctx.night = setup.night && rules.combat.night.is_some();
    ctx.swapped = swapped;
    ctx.checks = checks;
    let pre_checks = ctx.checks.len();
    if before.no_slr == NoSlr::Disrupted {
        ctx.effect(
            Some(Side::Defender),
            super::results::DISRUPTED_BEFORE_COMBAT,
            "7.3 2 — no safe line of retreat, check failed: the defender is disrupted (11.1) before the combat, which goes on",
        );
    }

    let plan = transform(variant, setup, &before, swapped, cell, &mut res);
    // A check with no MR stops the result at what the dice decided so far.
    let undecided = match carry_out(variant, setup, &before, &plan, &mut ctx, &mut res, dice) {
        Ok(()) => false,
        Err(e) => match ctx.needs_mr {
            Some((side, code)) => {
                ctx.undecided(side, code);
                true
            }
            None => return Err(e),
        },
    };
    closing_notes(variant, setup, &ctx, &mut res);
    // The extras apply in addition to any other result.
    ctx.extras(&cell.extras, false);
    if setup.cavalry_charge() && !undecided {
        // The charge ends unless the defender routed and it charges again
        // (standard 9.3 6, 8; QuickPlay 9.2 5, 6): that is the player's call.
        if ctx.routed[idx(Side::Defender)] {
            ctx.choice = true;
        } else {
            ctx.game(Side::Attacker, Who::Combat, SaberEffect::Ineffective);
        }
    }
    if setup.attacker.artillery && setup.attacker.factors.len() == 1 && !swapped {
        ctx.no_advance();
        res.note("the attacker is artillery: artillery may not advance after combat (standard 8.3, QuickPlay 8.1 4)");
    } else if !swapped && ctx.may_advance() {
        no_advance_notes(variant, &setup.attacker, &mut ctx, &mut res);
    }
    if undecided {
        res.note("nothing is recorded in the game until the result is decided");
    } else if !res.quiet {
        game_effects(setup, &before, &ctx, swapped, &mut res);
    }

    // Output.
    if undecided {
        res.die(
            "morale die (no morale rating to read it against)",
            morale_die,
        );
    } else if !ctx.morale_die_used {
        res.die("morale die (not needed)", morale_die);
    }
    if !res.quiet {
        fields(setup, &ctx, pre_checks, &crt.name, swapped, &mut res);
        no_slr_field(&before, &mut res);
    }
    if crt.file.ends_with("(embedded)") {
        res.note(super::crt::EXAMPLE_NOTE);
    }
    ctx.finish(&mut res, tone(&ctx, swapped));
    Ok(res)
}

/// Standard 7.12: "Disrupted units, units with parenthesized CF,
/// artillery ... may not advance" (QuickPlay 7.9: "disrupted units,
/// artillery"): when no attacking unit may, the advance is not offered;
/// when some may not, a note names them.
fn no_advance_notes(variant: Variant, a: &SideWords, ctx: &mut Ctx, res: &mut Resolution) {
    let rule = match variant {
        Variant::Standard => {
            "disrupted units, units with parenthesized CF and artillery may not advance (7.12, 11.1 3, 8.3)"
        }
        Variant::QuickPlay => "disrupted units and artillery may not advance (7.9, 11.1 5, 8.1 4)",
    };
    let barred: Vec<&str> = a
        .factors
        .iter()
        .zip(&a.no_advance)
        .filter(|(_, barred)| **barred)
        .map(|(f, _)| {
            a.units
                .iter()
                .find(|u| u.combat && u.span == f.span)
                .map_or(f.text.as_str(), |u| u.id.as_str())
        })
        .collect();
    if barred.is_empty() {
        return;
    }
    if barred.len() == a.factors.len() {
        ctx.no_advance();
        res.note(format_args!(
            "no advance: no attacking unit may advance, for {rule}"
        ));
    } else {
        res.note(format_args!(
            "{} may not advance: {rule}",
            barred.join(", ")
        ));
    }
}

/// Standard 7.3 2: a disrupted defender lacking a safe line of retreat
/// failed its check before the combat and routs, "the rout as the result
/// of combat": no tactics, no combat die, no morale die.
#[allow(clippy::too_many_arguments)]
fn routed_before_combat(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    setup: &Setup,
    before: &Before,
    checks: Vec<morale::Check>,
    sides: [SideInfo; 2],
    mut res: Resolution,
) -> Resolution {
    let rules = variant.rules(tables);
    // No morale die is thrown: nothing after the rout reads one.
    let unthrown = crate::dice::Rolled {
        sides: rules.morale.die,
        face: 0,
        entered: false,
    };
    let mut ctx = Ctx::new(rules, input, sides, unthrown, &res);
    ctx.morale_die = None;
    ctx.night = setup.night && rules.combat.night.is_some();
    ctx.checks = checks;
    let pre_checks = ctx.checks.len();
    ctx.rout(
        Side::Defender,
        "7.3 2 — no safe line of retreat, already disrupted, check failed: the defender routs before the combat, the rout being the result of combat (no tactics, no CRT roll)",
    );
    if !res.quiet {
        res.row(
            "combat die",
            "not thrown: the rout is the result of combat (7.3 2)",
        );
        game_effects(setup, before, &ctx, false, &mut res);
        fields(setup, &ctx, pre_checks, &tables.crt.name, false, &mut res);
        no_slr_field(before, &mut res);
    }
    ctx.finish(&mut res, tone(&ctx, false));
    res
}

/// JSON `no_slr`: what standard 7.3 2's check decided, when it was made.
fn no_slr_field(before: &Before, res: &mut Resolution) {
    if before.no_slr != NoSlr::NotMade {
        res.field("no_slr", before.no_slr.id());
    }
}

/// The result as the tactics transformed it, then the rules that look at
/// how the combat ended.
fn carry_out(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    plan: &Plan,
    ctx: &mut Ctx,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
) -> Result<(), CommandError> {
    for (code, secondary) in plan {
        ctx.apply(res, dice, *code, *secondary)?;
    }
    after_combat(variant, setup, before, ctx, res, dice)
}

/// The CRT column the totals land in.
fn column(crt: &Crt, attack: i64, defence: i64, res: &mut Resolution) -> Lookup {
    let lookup = match crt.kind {
        CrtKind::Differential => {
            let diff = attack - defence;
            res.score = Some(diff);
            res.row("differential", diff);
            if !res.quiet {
                res.field("differential", diff);
            }
            crt.differential_column(diff)
        }
        CrtKind::Ratio => {
            let l = crt.ratio_column(attack, defence);
            res.row("odds (rounded in the defender's favour)", l.actual);
            if !res.quiet {
                res.field("ratio", l.actual.to_string());
            }
            l
        }
    };
    super::results::show_column(res, crt, &lookup);
    if !res.quiet {
        res.field("attack", attack);
        res.field("defence", defence);
    }
    lookup
}

/// Each side's total: its factors, halved as they must be, and what the
/// leaders and tactics add.
fn totals(
    variant: Variant,
    rules: &SaberRules,
    setup: &Setup,
    before: &Before,
    swapped: bool,
    sides: &[SideInfo; 2],
    res: &mut Resolution,
) -> (i64, i64) {
    let combat = &rules.combat;
    let (att, def) = if swapped {
        (&setup.defender, &setup.attacker)
    } else {
        (&setup.attacker, &setup.defender)
    };
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    if a_tactic == Some(Tactic::Skirmish) {
        res.note("skirmish: the factors are the involved infantry units' MA (bracketed or V MA count as zero; artillery its defense factor, cavalry its combat factor)");
    }
    if !swapped && !res.quiet {
        for (label, value) in &setup.coordination_rows {
            res.row(label, value);
        }
        if let Some((_, last)) = setup.coordination_rows.last() {
            // "coordinated", or "halved" for an uncoordinated attack.
            let coordinated = last != "halved";
            let halved: Vec<serde_json::Value> = att
                .uncoordinated
                .iter()
                .zip(&att.factors)
                .filter(|(h, _)| **h)
                .map(|(_, f)| {
                    let unit = att.units.iter().find(|u| u.combat && u.span == f.span);
                    serde_json::Value::from(unit.map_or(f.text.as_str(), |u| u.id.as_str()))
                })
                .collect();
            res.field(
                "coordination",
                serde_json::json!({ "coordinated": coordinated, "halved": halved }),
            );
        }
    }
    let mut attack = 0;
    for (k, f) in att.factors.iter().enumerate() {
        let h = att.attack_halvings(k, before.attack_halvings);
        if att.disrupted_factor.get(k).copied().unwrap_or(false) {
            attack += factors::count_disrupted(res, sides[0].label, f, h, combat);
        } else {
            attack += factors::count(res, sides[0].label, f, h, combat);
        }
    }
    // The units' factors, without the leaders': what a doubling doubles.
    let unit_factors = attack;
    match att.accompanied_disrupted {
        0 => {}
        1 => res.row(
            "accompanied by a leader, the disrupted unit is not halved when attacking (10.0 3)",
            "not halved",
        ),
        _ => res.row(
            "accompanied each by a leader, the disrupted units are not halved when attacking (10.0 3)",
            "not halved",
        ),
    }
    if let Some(cf) = att.leader_cf {
        leader_modifier(res, sides[0].label, att.leaders, cf);
        attack += cf;
    }
    let mut defence = 0;
    for f in &def.factors {
        defence += factors::count(res, sides[1].label, f, f.halvings(false, 0), combat);
    }
    if let Some(cf) = def.leader_cf {
        leader_modifier(res, sides[1].label, def.leaders, cf);
        defence += cf;
    }
    // Standard 12.4: "If the primary unit passes its charge morale test,
    // the CF of all charging units (but not leaders) is doubled."
    if att.fow_charge && before.pressed_home {
        let extra = unit_factors.saturating_mul(FOW_CHARGE_MULTIPLIER - 1);
        modifier(
            res,
            "fortune-of-war charge pressed home: the CF of all charging units (but not leaders) is doubled (12.4)",
            extra,
        );
        attack += extra;
    }
    if att.counterattack {
        let extra = unit_factors.saturating_mul(COUNTERATTACK_MULTIPLIER - 1);
        modifier(
            res,
            "counterattack: the combat factor of the counterattacking unit is doubled (7.2)",
            extra,
        );
        attack += extra;
    }
    if att.in_square {
        // Not below zero: a factor is never negative.
        let cut = SQUARE_ATTACKING.min(unit_factors);
        modifier(
            res,
            "the attacking unit is in square: subtract 2 from its combat factor (9.3)",
            -cut,
        );
        attack -= cut;
    }
    // Supporting artillery fights for the original attacker, whichever
    // side the CRT reads it as.
    if let Some((support, _)) = setup.attacker.support {
        let label = if swapped {
            sides[1].label
        } else {
            sides[0].label
        };
        let mut total = support;
        modifier(
            res,
            format_args!("{label}: supporting artillery (standard 8.8, QuickPlay 8.2)"),
            support,
        );
        if variant == Variant::Standard && setup.defender.any_cavalry {
            let extra = support.saturating_mul(SUPPORT_VS_CAVALRY - 1);
            modifier(
                res,
                "supporting artillery: its CF is doubled, a defending unit being cavalry (8.8)",
                extra,
            );
            total += extra;
        }
        if swapped {
            defence += total;
        } else {
            attack += total;
        }
    }
    // Tactics that add to the factors.
    if a_tactic == Some(Tactic::PressForward)
        && let Some(row) = rules.tactic(Tactic::PressForward.keyword())
    {
        let v = row.value.unwrap_or(0);
        modifier(res, &row.row, v);
        attack += v;
    }
    if d_tactic == Some(Tactic::LastStand)
        && let Some(row) = rules.tactic(Tactic::LastStand.keyword())
    {
        let v = row.value.unwrap_or(0);
        modifier(res, &row.row, v);
        defence += v;
    }
    if variant == Variant::QuickPlay
        && before.in_square
        && let Some(row) = rules.tactic("square")
    {
        let v = row.value.unwrap_or(0);
        if setup.attacked_by_cavalry() {
            modifier(
                res,
                format_args!("{}: defender in square, attacked by cavalry", row.row),
                v,
            );
            defence += v;
        } else {
            // Bombarding artillery adds two as well (9.3).
            let n = att.factors.len() as i64 + i64::from(att.support.is_some());
            modifier(
                res,
                format_args!("{}: each attacking unit other than cavalry (×{n})", row.row),
                v * n,
            );
            attack += v * n;
        }
    }
    if let Some(text) = &combat.cavalry_vs_disrupted
        && setup.attacked_by_cavalry()
        && sides[1].disrupted
    {
        let doubled: i64 = att
            .factors
            .iter()
            .enumerate()
            .map(|(k, f)| {
                factors::halve(
                    f.printed,
                    att.attack_halvings(k, before.attack_halvings),
                    combat,
                )
            })
            .sum();
        modifier(res, text, doubled);
        attack += doubled;
    }
    res.row(format_args!("{} total", sides[0].label), attack);
    res.row(format_args!("{} total", sides[1].label), defence);
    (attack, defence)
}

/// The participating leaders' CF row of a side.
fn leader_modifier(res: &mut Resolution, label: &str, leaders: usize, cf: i64) {
    if leaders > 1 {
        modifier(
            res,
            format_args!("{label}: the {leaders} participating leaders' CF (10.3)"),
            cf,
        );
    } else {
        modifier(
            res,
            format_args!("{label}: participating leader's CF (10.3)"),
            cf,
        );
    }
}

/// The CRT cell's result as the tactics transform it.
fn transform(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    swapped: bool,
    cell: &Cell,
    res: &mut Resolution,
) -> Plan {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let mut plan: Plan = vec![(cell.primary, cell.secondary)];
    if a_tactic == Some(Tactic::Skirmish) {
        plan = vec![tactics::skirmish(cell.primary)];
        transformed(
            res,
            "skirmish: A or Ex → NE, Dx or Dm → Dr, secondary results ignored (7.13 1)",
            &plan,
        );
    }
    if before.pressed_home || (swapped && variant == Variant::Standard) {
        plan = vec![tactics::charge(cell.primary, cell.secondary)];
        transformed(
            res,
            "charge: A or Ex → Ax, D → Dm (Ax) (7.13 3, 9.3 5)",
            &plan,
        );
    }
    if standard_cavalry_square(variant, setup, before) {
        plan = plan
            .into_iter()
            .map(|(c, _)| tactics::square_standard(c))
            .collect();
        transformed(
            res,
            "square attacked by cavalry: Dr and Dx → Dm, secondary results ignored (9.5)",
            &plan,
        );
    }
    if quickplay_charge(variant, setup) {
        plan = tactics::quickplay_charge(cell.primary)
            .into_iter()
            .collect();
        transformed(res, "cavalry charge: Dr, Dc and Dx → Dm (9.2 4)", &plan);
    }
    let a_dis = a_tactic == Some(Tactic::Disengage);
    let d_dis = d_tactic == Some(Tactic::Disengage);
    if a_dis || d_dis {
        plan = plan
            .into_iter()
            .flat_map(|(c, s)| tactics::disengage(c, s, a_dis, d_dis))
            .collect();
        transformed(
            res,
            "disengage: the attacker's turns D, Ex, Ac into Ar; the defender's turns A, Ex, Dc into Dr (7.13 4)",
            &plan,
        );
    }
    plan
}

/// A standard square attacked by cavalry (9.5).
fn standard_cavalry_square(variant: Variant, setup: &Setup, before: &Before) -> bool {
    variant == Variant::Standard && before.in_square && setup.attacked_by_cavalry()
}

/// A QuickPlay cavalry charge (9.2).
fn quickplay_charge(variant: Variant, setup: &Setup) -> bool {
    variant == Variant::QuickPlay && setup.cavalry_charge()
}

/// The rules that look at how the combat ended.
fn after_combat(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    ctx: &mut Ctx,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
) -> Result<(), CommandError> {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let d_routed = ctx.routed[idx(Side::Defender)];
    if standard_cavalry_square(variant, setup, before) && !d_routed {
        res.note("the square did not rout: treat the result as an Ax (9.5)");
        ctx.clear_results();
        ctx.apply(res, dice, Code::Ax, None)?;
    }
    if quickplay_charge(variant, setup) {
        if d_routed {
            ctx.step_loss(
                Side::Defender,
                "cavalry charge: the defender routs, so it also suffers a step loss (9.2 4)",
            );
        } else {
            res.note("no defender rout: treat the result as Am (Ar) (9.2 4)");
            ctx.clear_results();
            ctx.apply(res, dice, Code::Am, Some(Code::Ar))?;
        }
    }
    if setup.cavalry_charge() && setup.countercharge() && variant == Variant::Standard {
        let a_routed = ctx.routed[idx(Side::Attacker)];
        if !d_routed && !a_routed {
            res.note("countercharge against charging cavalry: neither side routs, so both sides must retreat and are disrupted; the attacker first (9.4)");
            ctx.clear_results();
            ctx.retreat_disrupted(
                Side::Attacker,
                "countercharge: the attacker must retreat and is disrupted",
            );
            ctx.retreat_disrupted(
                Side::Defender,
                "countercharge: the defender must retreat and is disrupted",
            );
        }
    }
    if a_tactic == Some(Tactic::PressForward) && !ctx.routed[idx(Side::Defender)] {
        if no_second_step(&setup.attacker, ctx.steps_lost[idx(Side::Attacker)]) {
            ctx.effect(
                Some(Side::Defender),
                "fow",
                "press forward: the defender did not rout, but no second step is present to be lost, so the defending player receives a fortune of war (7.11, 7.13 2; 12.4)",
            );
        } else {
            ctx.step_loss(
                Side::Attacker,
                "press forward: the defender did not rout, so the attacker loses one step in addition to any other result (7.13 2)",
            );
        }
    }
    if d_tactic == Some(Tactic::LastStand) {
        match ctx.moved[idx(Side::Attacker)] {
            Moved::No if no_second_step(&setup.defender, ctx.steps_lost[idx(Side::Defender)]) => {
                ctx.effect(
                    Some(Side::Attacker),
                    "fow",
                    "last stand: the attacker did not retreat, but no second step is present to be lost, so the attacking player receives a fortune of war (7.11, 7.13 5; 12.4)",
                )
            }
            Moved::No => ctx.step_loss(
                Side::Defender,
                "last stand: the attacker did not retreat, so the defender loses one step in addition to any other result (7.13 5)",
            ),
            Moved::Choice => {
                ctx.step_loss_if(
                    Side::Defender,
                    "last stand: if the attacker does not retreat, the defender loses one step in addition to any other result (7.13 5)",
                );
                // The attacker's choice, made later with `choose`, settles
                // it: the game keeps whom the step would fall on.
                if let Some(defender) = setup
                    .defender
                    .primary
                    .and_then(|p| setup.defender.units.get(p))
                {
                    ctx.game(
                        Side::Attacker,
                        Who::Primary,
                        SaberEffect::LastStandOwed {
                            defender: defender.id.clone(),
                        },
                    );
                }
            }
            Moved::Yes => {}
        }
    }
    let rules = ctx.rules;
    if setup.night
        && let Some(text) = &rules.combat.night
        && !ctx.routed[idx(Side::Defender)]
    {
        ctx.retreat_disrupted(
            Side::Attacker,
            format_args!("night: the defender did not rout: {text}"),
        );
    }
    Ok(())
}

/// 7.11: "Certain choices of tactics (7.13) may inflict a second step
/// loss. ... If no second step is present to be lost, the opposing player
/// receives an FOW." The tactic's loss is the side's second: a side of
/// one step (a one-step unit, a reduced brigade) has no second step to
/// lose even when the CRT took none, and a side whose steps the CRT took
/// has none left. Judged only when every factor is a named unit's: a
/// typed factor's steps are not known.
fn no_second_step(side: &SideWords, lost: u32) -> bool {
    let mut present = 0u32;
    for f in &side.factors {
        let Some(unit) = side.units.iter().find(|u| u.combat && u.span == f.span) else {
            return false;
        };
        let one = [
            super::game::ONE_STEP,
            "reduced",
            "cavalry",
            "artillery",
            super::stack::BATTALION,
            super::stack::SQUADRON,
        ]
        .iter()
        .any(|w| unit.has(w));
        present += if one { 1 } else { 2 };
    }
    present < 2 || lost >= present
}

/// What the players must remember after the combat.
fn closing_notes(variant: Variant, setup: &Setup, ctx: &Ctx, res: &mut Resolution) {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    if a_tactic == Some(Tactic::Disengage) || d_tactic == Some(Tactic::Disengage) {
        res.note("disengaging leaders, cavalry, artillery, battalions or squadrons are not flipped to their ineffective sides (7.13 4)");
    }
    if a_tactic == Some(Tactic::Skirmish) {
        res.note("skirmishing counts as an attack for the purposes of 7.2");
    }
    if setup.cavalry_charge() {
        if ctx.routed[idx(Side::Defender)] {
            res.note(match variant {
                Variant::Standard => "the defender routs: the cavalry may advance up to three hexes and conduct another charge, or attempt to capture the routed defender (`capture CF`) (9.3 6–7)",
                Variant::QuickPlay => "the defender routs: if still effective, the cavalry may advance zero, one or two hexes and conduct another charge (9.2 5)",
            });
        }
        res.note(match variant {
            Variant::Standard => "cavalry always becomes ineffective at the end of a charge (9.3 8)",
            Variant::QuickPlay => "the charging cavalry is ineffective at the end of a charge unless already ineffective (9.2 6)",
        });
    }
}

/// What the results do to the units named, for the game: the checks
/// before the combat, then the results, each on the primary unit or on
/// every unit of its side. What the owning player still chooses is not
/// recorded: a note says how to record it.
fn game_effects(setup: &Setup, before: &Before, ctx: &Ctx, swapped: bool, res: &mut Resolution) {
    let mut any_named = false;
    let all = before
        .game
        .iter()
        .map(|e| (e, false))
        .chain(ctx.game.iter().map(|e| (e, swapped)));
    for ((side, who, effect), flip) in all {
        let side = if flip { side.other() } else { *side };
        let (words, clause) = match side {
            Side::Attacker => (&setup.attacker, None),
            Side::Defender => (&setup.defender, Some(setup.vs_clause)),
        };
        let target = |nth: usize| Target::Side { clause, nth };
        match who {
            Who::Primary => {
                if let Some(p) = words.primary {
                    res.effect(target(p), effect.clone());
                }
            }
            Who::All => {
                for (nth, u) in words.units.iter().enumerate() {
                    let e = if u.combat {
                        Some(effect.clone())
                    } else {
                        effect.for_leader()
                    };
                    if let Some(e) = e {
                        res.effect(target(nth), e);
                    }
                }
            }
            Who::Combat => {
                for (nth, _) in words.units.iter().enumerate().filter(|(_, u)| u.combat) {
                    res.effect(target(nth), effect.clone());
                }
            }
        }
        any_named |= !words.units.is_empty();
    }
    // 7.5: the attacking units have had their attack this combat phase (a
    // QuickPlay counterattack is the other player's, in this phase).
    if !setup.attacker.counterattack {
        let routed = ctx.routed[idx(if swapped {
            Side::Attacker
        } else {
            Side::Defender
        })];
        for (nth, _) in setup
            .attacker
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.combat)
        {
            let target = Target::Side { clause: None, nth };
            res.effect(target, SaberEffect::Attacked);
            // The charge goes on only while the defenders rout (9.3 6).
            if setup.cavalry_charge() && routed {
                res.effect(target, SaberEffect::Charging);
            }
        }
    }
    any_named |= !setup.attacker.units.is_empty() || !setup.defender.units.is_empty();
    if ctx.choice && any_named {
        res.note("the game records only what the result imposes: once the owning player has chosen, record his choice with `choose UNIT… disruption`, `retreat`, `step-loss`, `retreat-disrupted` or `flip`");
    }
}

/// The JSON fields after the dice: the checks, the results, the tactics.
fn fields(
    setup: &Setup,
    ctx: &Ctx,
    pre_checks: usize,
    crt: &str,
    swapped: bool,
    res: &mut Resolution,
) {
    if let Some(first) = ctx.checks.get(pre_checks) {
        res.field("check", first.json());
    }
    res.field(
        "checks",
        serde_json::Value::Array(ctx.checks.iter().map(|c| c.json()).collect()),
    );
    res.field("applied", ctx.applied.join(" "));
    res.field("effects", ctx.effects_json());
    if let Some(t) = setup.attacker.tactic {
        res.field("attacker_tactic", t.keyword());
    }
    if let Some(t) = setup.defender.tactic {
        res.field("defender_tactic", t.keyword());
    }
    if swapped {
        // The CRT was read with the countercharging defender as the
        // attacker (9.4): `attack`, `differential` and the codes are as
        // the table saw them; the effects name the original roles.
        res.field("resolved_as_attacker", "defender");
    }
    res.field("crt", crt.to_string());
}

/// The tone of an attack's outcome, from the original attacker's side
/// (`swapped`: the countercharging defender was resolved as the attacker).
fn tone(ctx: &Ctx, swapped: bool) -> Tone {
    let (attacker, defender) = if swapped {
        (Side::Defender, Side::Attacker)
    } else {
        (Side::Attacker, Side::Defender)
    };
    if ctx.routed[idx(defender)] {
        Tone::Good
    } else if ctx.routed[idx(attacker)] || ctx.moved[idx(attacker)] == Moved::Yes {
        Tone::Bad
    } else {
        Tone::Neutral
    }
}

/// A transformation's row: the codes it leaves.
fn transformed(res: &mut Resolution, label: &str, plan: &Plan) {
    if res.quiet {
        return;
    }
    let shown: Vec<String> = plan
        .iter()
        .map(|(c, s)| match s {
            Some(s) => format!("{c}({s})"),
            None => c.to_string(),
        })
        .collect();
    res.row(
        label,
        if shown.is_empty() {
            "—".to_string()
        } else {
            shown.join(" then ")
        },
    );
}

fn tactic_row(rules: &SaberRules, tactic: Option<Tactic>) -> &str {
    tactic
        .and_then(|t| rules.tactic(t.keyword()))
        .map_or("", |t| t.row.as_str())
}

fn make_disrupted(rules: &SaberRules, side: &mut SideInfo) {
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

fn side_morale(
    rules: &SaberRules,
    words: &Bound,
    shared: Option<&Bound>,
    mr: Option<(i64, Span)>,
    square_vs_cavalry: bool,
    input: &Input,
) -> Result<Option<MoraleInput>, CommandError> {
    if mr.is_none() && !(rules.morale.artillery.is_some() && words.has("artillery")) {
        return Ok(None);
    }
    let mut m = morale::input_from(rules, words, shared, mr, "leader-mr", false, || {
        input.missing("a morale rating is needed")
    })?;
    if square_vs_cavalry && let Some(adj) = rules.morale.adjustment.iter().find(|a| a.vs_cavalry) {
        m.add(adj.row.as_str(), adj.value, AdjustTo::Rating);
    }
    Ok(Some(m))
}

fn not_here(span: Span, text: &str, why: &str) -> CommandError {
    BindError::NotHere {
        span,
        text: text.into(),
        why: why.into(),
    }
    .into()
}
