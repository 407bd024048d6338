//! `choose`, the owning player's choice a combat result left him (standard
//! 7.8, QuickPlay 7.5), recorded once he has made it.

use std::rc::Rc;

use crate::answer::resolution::{Target, Tone};
use crate::bind::Vocab;
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::game::SaberEffect;
use super::morale::{self, MoraleInput};
use super::named::Named;
use super::recover::{CHOICE, one_unit, unit_vocab, whole_mr};
use super::{Resolution, VerbDoc};
use super::{SaberRules, Tables, Variant};

/// What the owner may choose, with the rule that offers it.
const CHOICES: &[(&str, &str)] = &[
    (
        "disruption",
        "the affected side takes disruption instead of retreating (Ar/Dr: standard 7.8 the primary unit, QuickPlay 7.5 all affected units)",
    ),
    (
        "retreat",
        "all units of the affected side retreat (Ar/Dr, standard 7.8 and 7.9; QuickPlay 7.5, 7.6): leaders, cavalry, artillery, battalions and squadrons become ineffective",
    ),
    (
        "step-loss",
        "the primary unit loses one step (Ax/Dx: standard 7.8, 7.11; QuickPlay 7.5, 7.7)",
    ),
    (
        "retreat-disrupted",
        "all units of the affected side retreat AND are disrupted (Ax/Dx: standard 7.8; QuickPlay 7.5)",
    ),
    (
        "flip",
        "the unit is flipped to its ineffective side (the artillery chosen for an Ammo result, 8.5; cavalry ending its charge, 9.3 8)",
    ),
];

fn choose_vocab(rules: &SaberRules) -> Vocab {
    let mut vocab = unit_vocab(
        rules,
        "a leader's morale rating, added when the primary unit, already disrupted, checks morale (10.3)",
    )
    .flag(
        "disengage",
        "the retreat is by the disengage tactic: leaders, cavalry, artillery, battalions and squadrons are not flipped (7.13 4)",
    )
    .flag(
        super::game::LAST_STAND_OWED,
        "the attacker of a defender's last stand, brought by a named unit until it chooses: choosing not to retreat costs the defender one step (7.13 5)",
    );
    for (word, help) in CHOICES {
        vocab = vocab.choice(CHOICE, word, *help);
    }
    vocab
}

pub(crate) fn choose_verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
    let rules = variant.rules(t);
    VerbDoc::new(
        Some(variant.system()),
        "choose",
        "choose UNIT… disruption|retreat|step-loss|retreat-disrupted|flip [disengage]",
        "Record the owning player's choice a combat result left him (the primary unit first, then the others of its side).",
        choose_vocab(rules),
        super::resolver(t, choose),
    )
    // QuickPlay disrupts all affected units without a check (7.5); the
    // standard rules check the morale of a primary unit already disrupted.
    .examples(match variant {
        Variant::Standard => &[
            "choose retreat",
            "choose step-loss",
            "choose 3 disrupted disruption rolled 2",
        ],
        Variant::QuickPlay => &["choose retreat", "choose step-loss", "choose 3 disruption"],
    })
}

/// A choice as its words set it up.
struct Choice {
    word: &'static str,
    units: Vec<Named>,
    primary: Option<usize>,
    /// Standard 7.8: the primary, already disrupted, choosing disruption
    /// checks morale.
    check: Option<MoraleInput>,
    disengage: bool,
    /// The attacker of a last stand (7.13 5).
    last_stand: bool,
}

fn plan_choice(
    rules: &SaberRules,
    variant: Variant,
    input: &Input,
) -> Result<Choice, CommandError> {
    let one = one_unit(input, variant)?;
    let words = &one.view;
    let Some((word, span)) = words.choice(CHOICE) else {
        return Err(input.missing(format!(
            "`choose` needs the choice: one of {}",
            CHOICES.iter().map(|c| c.0).collect::<Vec<_>>().join(", ")
        )));
    };
    let Some(word) = CHOICES.iter().map(|c| c.0).find(|c| *c == word) else {
        return Err(input.missing(format!("`{word}` is not a choice `choose` knows")));
    };
    if let Some(first) = one.units.first()
        && one.primary.is_none()
        && matches!(word, "disruption" | "step-loss")
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span: first.span,
            text: first.id.clone(),
            why: "is a leader: name the primary unit the choice falls on (7.4, 7.5)".into(),
        }
        .into());
    }
    // Standard 9.2: "on all x results (Ax, Ex, Dx) they must retreat and
    // are disrupted": cavalry has no step loss to choose.
    let cavalry = one
        .primary
        .and_then(|p| one.units.get(p))
        .is_some_and(|u| u.has("cavalry"));
    if word == "step-loss"
        && cavalry
        && let Some(rule) = &rules.combat.cavalry_on_x
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span,
            text: word.into(),
            why: format!(
                "is no choice for cavalry: {rule}; an attack records that itself (`choose UNIT retreat-disrupted` where it did not)"
            ),
        }
        .into());
    }
    let disengage = words.has("disengage");
    if disengage && word != "retreat" {
        return Err(BindError::NotHere {
            kind: ErrorKind::Conflict,
            span: words.span_of("disengage").unwrap_or(span),
            text: "disengage".into(),
            why: "goes with `retreat`: disengaging units retreat without being flipped (7.13 4)"
                .into(),
        }
        .into());
    }
    let check = if variant == Variant::Standard && word == "disruption" && words.has("disrupted") {
        let mr = whole_mr(words)?;
        Some(morale::input_from(
            rules,
            words,
            None,
            mr,
            "leader",
            false,
            || {
                input.missing(
                "the primary unit is already disrupted, so choosing disruption it checks morale (7.8): give its MR, like `choose 3 disrupted disruption`",
            )
            },
        )?)
    } else {
        None
    };
    Ok(Choice {
        word,
        units: one.units,
        primary: one.primary,
        check,
        disengage,
        last_stand: words.has(super::game::LAST_STAND_OWED),
    })
}

fn choose(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let c = crate::memoized!(input, Choice, || plan_choice(rules, variant, input))?;
    let c = &*c;
    let mut res = input.resolution("choose", format!("the owning player's choice: {}", c.word));
    let all = 0..c.units.len();
    let primary = c.primary;
    // Whether the choice sends the primary back after all (a failed
    // check routs it): a last stand is settled only when it does not.
    let mut routed = false;
    match c.word {
        "disruption" => routed = choose_disruption(rules, variant, c, dice, &mut res)?,
        "retreat" => {
            let text = if c.disengage {
                "all units of the affected side retreat, disengaging: leaders, cavalry, artillery, battalions and squadrons are not flipped (7.13 4)".to_string()
            } else {
                format!(
                    "all units of the affected side retreat {}; {}",
                    rules.results.retreat_hexes,
                    rules.results.ineffective.as_deref().unwrap_or("")
                )
            };
            res.set_outcome("retreat", text, Tone::Neutral);
            for nth in all {
                emit(
                    c,
                    &mut res,
                    nth,
                    if c.disengage {
                        SaberEffect::Disengaged
                    } else {
                        SaberEffect::Retreated
                    },
                );
            }
        }
        "step-loss" => {
            res.set_outcome(
                "step-loss",
                format!(
                    "the primary unit of the affected side loses one step ({})",
                    rules.results.step_loss
                ),
                Tone::Neutral,
            );
            if let Some(p) = primary {
                emit(c, &mut res, p, SaberEffect::StepLost);
            }
        }
        "retreat-disrupted" => {
            res.set_outcome(
                "retreat-disrupted",
                format!(
                    "all units of the affected side retreat {} AND are disrupted",
                    rules.results.retreat_hexes
                ),
                Tone::Neutral,
            );
            for nth in all {
                emit(c, &mut res, nth, SaberEffect::Disrupted);
                emit(c, &mut res, nth, SaberEffect::Retreated);
            }
        }
        _ => {
            res.set_outcome(
                "ineffective",
                "the unit is flipped to its ineffective side (11.3)",
                Tone::Neutral,
            );
            for nth in all {
                emit(c, &mut res, nth, SaberEffect::Ineffective);
            }
        }
    }
    // 7.13 5: "If the attacker does not retreat, the defender loses one
    // step in addition to any other result from the CRT." The game kept
    // whom, with the attack; choosing not to retreat settles it.
    if c.last_stand && matches!(c.word, "disruption" | "step-loss") && !routed {
        res.note(
            "last stand: the attacker did not retreat, so the defender loses one step in addition to any other result (7.13 5)",
        );
        if let Some(p) = primary {
            emit(c, &mut res, p, SaberEffect::LastStandKept);
        }
    }
    Ok(res)
}

/// Disruption chosen: an already disrupted primary unit checks morale
/// and may rout (standard 7.8); otherwise the side is disrupted. Whether
/// the primary routed.
fn choose_disruption(
    rules: &SaberRules,
    variant: Variant,
    c: &Choice,
    dice: &mut dyn DiceSource,
    res: &mut Resolution,
) -> Result<bool, CommandError> {
    let mut routed = false;
    if let Some(check) = &c.check {
        let m = morale::check(
            res,
            &rules.morale,
            check,
            "primary unit",
            dice,
            "morale die",
        )?;
        if m.passed {
            res.set_outcome(
                "holds",
                "the primary unit already is disrupted: it checks morale and passes: no further effect (7.8)",
                Tone::Good,
            );
        } else {
            routed = true;
            res.set_outcome(
                "routs",
                format!(
                    "the primary unit already is disrupted: it checks morale and fails: it routs ({}) and all other participating units must retreat (7.8)",
                    rules.results.rout
                ),
                Tone::Bad,
            );
            for nth in 0..c.units.len() {
                let e = if Some(nth) == c.primary {
                    SaberEffect::Routed
                } else {
                    SaberEffect::Retreated
                };
                emit(c, res, nth, e);
            }
        }
    } else {
        let (text, targets): (&str, Vec<usize>) = match variant {
            Variant::Standard => (
                "the primary unit of the affected side is disrupted (7.8, 11.1)",
                c.primary.into_iter().collect(),
            ),
            Variant::QuickPlay => (
                "all affected units are disrupted (7.5, 11.1)",
                (0..c.units.len()).collect(),
            ),
        };
        res.set_outcome("disrupted", text, Tone::Neutral);
        for nth in targets {
            emit(c, res, nth, SaberEffect::Disrupted);
        }
    }
    Ok(routed)
}

/// What falls on a side falls on a leader on it as a leader's fate.
fn emit(c: &Choice, res: &mut Resolution, nth: usize, e: SaberEffect) {
    let combat = c.units.get(nth).is_none_or(|u| u.combat);
    let e = if combat { Some(e) } else { e.for_leader() };
    if let Some(e) = e {
        res.effect(Target::Side { clause: None, nth }, e);
    }
}
