//! `recover`, the verb that keeps the game in step with the table between
//! combats (standard 11.1–11.3, 14.2; QuickPlay 11.1–11.3); and what it
//! shares with `choose` (choose.rs): the unit named and its morale rating.

use std::rc::Rc;

use crate::answer::resolution::{Target, Tone};
use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::game::SaberEffect;
use super::morale::{self, MoraleInput};
use super::named::{self, Named};
use super::{Resolution, VerbDoc};
use super::{SaberRules, Tables, Variant};

pub(super) const CHOICE: &str = "the owning player's choice";

/// The words of both verbs: the unit's MR and state, and a leader's MR.
pub(super) fn unit_vocab(rules: &SaberRules, leader_help: &str) -> Vocab {
    let mut vocab = Vocab::new()
        .with_number("the unit's morale rating (MR)")
        .number_from("mr")
        .number("leader", 0, 9, leader_help)
        .number(
            morale::LEADER_MR,
            0,
            9,
            "the same as `leader=N` (named leaders bring it)",
        )
        .slot(&["leader", morale::LEADER_MR])
        .flag("disrupted", "the unit is disrupted (11.1)")
        .flag(
            "ineffective",
            "the unit (artillery, cavalry, battalion, squadron) or leader is on its ineffective side (11.3)",
        );
    if let Some(art) = &rules.morale.artillery {
        vocab = vocab.flag("artillery", art.row.clone());
    }
    for adj in &rules.morale.adjustment {
        if adj.group.is_some() && vocab.find(&adj.keyword).is_none() {
            vocab.add(
                adj.keyword.clone(),
                crate::bind::Kind::Flag,
                adj.row.clone(),
            );
        }
    }
    vocab
}

/// The word of a fortune of war's Friendly Recovery Check (12.4).
const FRIENDLY_RECOVERY: &str = "fow";

fn recover_vocab(rules: &SaberRules, variant: Variant) -> Vocab {
    let mut vocab = unit_vocab(
        rules,
        "a leader's morale rating, added to an eliminated unit's step recovery check (10.3)",
    )
    .flag(
        "replacement",
        "a replacement step (the exclusive rules give them): restores a step of a reduced or eliminated unit (11.2)",
    )
    .flag(
        "reduced",
        "a two-step brigade on its reduced side (brought by a named unit)",
    )
    .flag(
        "eliminated",
        "the unit is eliminated, off the map (brought by a named unit)",
    )
    .flag(
        "destroyed",
        "the unit failed its step recovery check: it may not return (brought by a named unit)",
    )
    .flag(
        "casualty",
        "the leader is a casualty: out of the game for good (brought by a named leader)",
    );
    if variant == Variant::Standard {
        vocab = vocab.flag(
            FRIENDLY_RECOVERY,
            "a fortune of war's Friendly Recovery Check (12.4): \"The check may be made regardless of enemy proximity. A failed step recovery roll does not result in the destruction of the unit.\"",
        );
    }
    if variant == Variant::QuickPlay {
        vocab = vocab.flag(
            "march",
            "the unit was eligible for march movement this phase (4.3): it recovers automatically (11.1)",
        );
    }
    vocab
}

pub(crate) fn recover_verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
    let rules = variant.rules(t);
    let (usage, summary, examples): (&'static str, &'static str, &'static [&'static str]) =
        match variant {
            Variant::Standard => (
                "recover UNIT [night|twilight] [replacement] | recover MR disrupted|ineffective|eliminated [leader=N]",
                "Recovery in the unit's movement phase, in lieu of moving: from disruption a morale check without the +2 (11.1); effectiveness automatic (11.3); at night both automatic (14.2); an eliminated unit checks morale to recover a step, failing is destroyed (11.2).",
                &[
                    "recover 4 disrupted rolled 4",
                    "recover ineffective",
                    "recover 3 eliminated leader=1 rolled 4",
                ],
            ),
            Variant::QuickPlay => (
                "recover UNIT [march] [replacement] | recover MR disrupted|ineffective [march]",
                "Recovery at the end of the unit's movement phase: automatic if it was eligible for march movement, otherwise (not in an EZOC) a morale check (11.1, 11.3); a replacement step restores a step (11.2).",
                &["recover 4 disrupted rolled 2", "recover disrupted march"],
            ),
        };
    VerbDoc::new(
        Some(variant.system()),
        "recover",
        usage,
        summary,
        recover_vocab(rules, variant),
        super::resolver(t, recover),
    )
    .examples(examples)
    // An eliminated unit recovers a step; an ineffective leader, who can
    // do nothing else, his effectiveness.
    .takes_fallen()
}

/// The unit a `recover` or `choose` names, the leader beside it, and the
/// words as that unit has them.
pub(super) struct OneUnit {
    pub(super) units: Vec<Named>,
    pub(super) primary: Option<usize>,
    pub(super) view: Bound,
}

pub(super) fn one_unit(input: &Input, variant: Variant) -> Result<OneUnit, CommandError> {
    let units = named::side(input, None)?;
    let combat = units.iter().filter(|u| u.combat).count();
    named::one_leader_per_unit(variant, &units, combat)?;
    let primary = named::primary(&units);
    let view =
        named::primary_view(variant, &input.words, &units, primary, morale::LEADER_MR).into_owned();
    Ok(OneUnit {
        units,
        primary,
        view,
    })
}

pub(super) fn whole_mr(words: &Bound) -> Result<Option<(i64, crate::command::Span)>, CommandError> {
    match words.number {
        Some((n, span)) if n.fract() != 0.0 || !(0.0..=10.0).contains(&n) => {
            Err(BindError::BadValue {
                span,
                text: n.to_string(),
                expected: "a morale rating is a whole number from 0 to 10".into(),
            }
            .into())
        }
        Some((n, span)) => Ok(Some((n as i64, span))),
        None => Ok(None),
    }
}

/// What `recover` is asked to do, worked out before any die.
enum Recovery {
    /// A leader's effectiveness (standard 11.3 automatic; QuickPlay with
    /// `march`).
    Leader,
    /// A step, with a replacement (no check).
    Replacement { reduced: bool },
    /// An eliminated unit's morale check for a step (standard 11.2); with
    /// a fortune of war's Friendly Recovery Check (12.4), whose failure
    /// does not destroy it.
    StepCheck(MoraleInput, bool),
    /// From disruption and/or ineffectiveness.
    Markers(Markers),
}

/// A recovery from disruption and/or ineffectiveness: `check` is the
/// morale check if one is needed, else recovery is automatic.
struct Markers {
    disrupted: bool,
    ineffective: bool,
    check: Option<MoraleInput>,
    why_automatic: &'static str,
}

fn plan_recovery(
    rules: &SaberRules,
    variant: Variant,
    input: &Input,
) -> Result<(Recovery, Option<usize>), CommandError> {
    let one = one_unit(input, variant)?;
    if let Some(second) = one.units.iter().filter(|u| u.combat).nth(1) {
        return Err(second.refuse(
            ErrorKind::ExtraWord,
            "is a second unit: `recover` is for one unit (name it, and the leader stacked with it)",
        ));
    }
    let words = &one.view;
    let refuse = |kind: ErrorKind, word: &str, why: &str| -> CommandError {
        let span = words.span_of(word).unwrap_or_default();
        let text = one
            .units
            .iter()
            .find(|u| u.span == span)
            .map_or_else(|| word.to_string(), |u| u.id.clone());
        BindError::NotHere {
            span,
            text,
            why: why.into(),
            kind,
        }
        .into()
    };
    if words.has("casualty") {
        return Err(refuse(
            ErrorKind::OutOfAction,
            "casualty",
            "is a casualty: casualties are out of the game for good (10.4)",
        ));
    }
    if words.has("destroyed") {
        return Err(refuse(
            ErrorKind::OutOfAction,
            "destroyed",
            "is destroyed: it failed its step recovery check and may not return to play (11.2)",
        ));
    }
    // A leader named alone recovers himself.
    if one.primary.is_none() && !one.units.is_empty() {
        if !words.has("ineffective") {
            return Err(refuse_unit(
                &one.units[0],
                "is effective: a leader recovers only from ineffectiveness (11.3)",
            ));
        }
        if variant == Variant::QuickPlay && !words.has("march") {
            return Err(input.missing(
                "QuickPlay 11.3: an ineffective leader recovers as a disrupted unit does, automatically if eligible for march movement: add `march` (he has no morale rating of his own to check)",
            ));
        }
        return Ok((Recovery::Leader, Some(0)));
    }
    let eliminated = words.has("eliminated");
    let disrupted = words.has("disrupted");
    let ineffective = words.has("ineffective");
    if words.has("replacement") {
        let reduced = words.has("reduced");
        if !eliminated && !reduced && one.primary.is_some() {
            return Err(refuse(
                ErrorKind::NotApplicable,
                "replacement",
                "has no step to recover: it is at full strength",
            ));
        }
        return Ok((Recovery::Replacement { reduced }, one.primary));
    }
    plan_check(
        rules,
        variant,
        input,
        &one,
        eliminated,
        disrupted,
        ineffective,
    )
}

/// A unit's recovery that may need a morale check: an eliminated unit's
/// step (standard 11.2), or disruption and ineffectiveness.
fn plan_check(
    rules: &SaberRules,
    variant: Variant,
    input: &Input,
    one: &OneUnit,
    eliminated: bool,
    disrupted: bool,
    ineffective: bool,
) -> Result<(Recovery, Option<usize>), CommandError> {
    let words = &one.view;
    let mr = whole_mr(words)?;
    let missing = || {
        input.missing(if rules.morale.artillery.is_some() {
            "the check needs the unit's morale rating, like `recover 4 disrupted`, or `artillery`"
        } else {
            "the check needs the unit's morale rating, like `recover 4 disrupted`"
        })
    };
    if eliminated {
        if variant == Variant::QuickPlay {
            return Err(input.missing(
                "QuickPlay 11.2: an eliminated unit returns only with a replacement step (the exclusive rules give them): add `replacement`",
            ));
        }
        // The leader's MR counts here (10.3); disruption does not: the
        // unit left the map.
        let mut stripped = words.clone();
        stripped.facts.retain(|f| f.name != "disrupted");
        let check = morale::input_from(rules, &stripped, None, mr, "leader", false, missing)?;
        return Ok((
            Recovery::StepCheck(check, words.has(FRIENDLY_RECOVERY)),
            one.primary,
        ));
    }
    if !disrupted && !ineffective {
        return Err(match one.primary {
            Some(p) => refuse_unit(
                &one.units[p],
                "has nothing to recover from: it is neither disrupted nor ineffective (a reduced brigade recovers its step with `replacement`)",
            ),
            None => input.missing(
                "`recover` needs what the unit recovers from: `disrupted`, `ineffective` (or `eliminated`, `replacement`)",
            ),
        });
    }
    let automatic = match variant {
        Variant::Standard if words.has("night") => Some(
            "at night a unit not moving or fighting recovers automatically, without a morale check and regardless of EZOC (11.1, 11.3, 14.2)",
        ),
        Variant::Standard if !disrupted => Some(
            "recovery of effectiveness is automatic for a unit meeting the requirements for recovery from disruption; the unit may not move (11.3)",
        ),
        Variant::QuickPlay if words.has("march") => Some(
            "it was eligible for march movement this phase: it recovers automatically (11.1, 11.3)",
        ),
        _ => None,
    };
    let check = match automatic {
        Some(_) => None,
        None => {
            // Standard 11.1: make a morale check, do not add two. QuickPlay
            // 11.1 keeps the reduced morale of the disrupted unit.
            let mut stripped = words.clone();
            if variant == Variant::Standard {
                stripped.facts.retain(|f| f.name != "disrupted");
            }
            // The leader's MR is for step recovery (10.3: "a leader stacked
            // with an active HQ…"); a leader helps a morale check too.
            Some(morale::input_from(
                rules, &stripped, None, mr, "leader", false, missing,
            )?)
        }
    };
    Ok((
        Recovery::Markers(Markers {
            disrupted,
            ineffective,
            check,
            why_automatic: automatic.unwrap_or(""),
        }),
        one.primary,
    ))
}

pub(super) fn refuse_unit(u: &Named, why: &str) -> CommandError {
    BindError::NotHere {
        kind: ErrorKind::NotApplicable,
        span: u.span,
        text: u.id.clone(),
        why: why.into(),
    }
    .into()
}

fn recover(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let (plan, unit) = &*crate::memoized!(input, (Recovery, Option<usize>), || plan_recovery(
        rules, variant, input
    ))?;
    let target = unit.map(|nth| Target::Side { clause: None, nth });
    let mut res = input.resolution("recover", "recovery");
    let effect = |res: &mut Resolution, e: SaberEffect| {
        if let Some(t) = target {
            res.effect(t, e);
        }
    };
    match plan {
        Recovery::Leader => {
            res.row(
                "an ineffective leader recovers effectiveness",
                match variant {
                    Variant::Standard => "automatic (11.3)",
                    Variant::QuickPlay => "eligible for march movement: automatic (11.1, 11.3)",
                },
            );
            res.set_outcome(
                "recovers",
                "the leader recovers his effectiveness: flip him to his effective side; he may not move this phase (11.3)",
                Tone::Good,
            );
            effect(
                &mut res,
                SaberEffect::Recovered {
                    disruption: false,
                    effectiveness: true,
                },
            );
        }
        Recovery::Replacement { reduced } => {
            res.row("replacement step", "used");
            let text = match (variant, reduced) {
                (Variant::Standard, true) => {
                    "a replacement step flips the reduced brigade back to its full-strength side; it must meet the requirements for disruption recovery (11.2)"
                }
                (Variant::Standard, false) => {
                    "a replacement step restores the eliminated unit (or one step of an eliminated two-step brigade): place it on the next box of the TRT; it may return to the map in its next movement phase (11.2, 13.2)"
                }
                (Variant::QuickPlay, true) => {
                    "a replacement step: the reduced unit recovers its lost step; it must be eligible for march movement (11.2)"
                }
                (Variant::QuickPlay, false) => {
                    "a replacement step returns the eliminated (not captured) unit to the map: it enters as a reinforcement where the exclusive rules say (11.2)"
                }
            };
            res.set_outcome("recovers-step", text, Tone::Good);
            effect(&mut res, SaberEffect::StepRecovered);
        }
        Recovery::StepCheck(check, fow) => {
            step_check(rules, check, *fow, target, dice, &mut res)?;
        }
        Recovery::Markers(m) => markers(rules, variant, m, target, dice, &mut res)?,
    }
    Ok(res)
}

/// Standard 11.2: an eliminated unit's check for a step: it passes and
/// recovers it, or fails and is destroyed.
fn step_check(
    rules: &SaberRules,
    check: &MoraleInput,
    fow: bool,
    target: Option<Target>,
    dice: &mut dyn DiceSource,
    res: &mut Resolution,
) -> Result<(), CommandError> {
    let c = morale::check(
        res,
        &rules.morale,
        check,
        "eliminated unit",
        dice,
        "morale die",
    )?;
    if c.passed {
        res.set_outcome(
            "recovers-step",
            "passes: the step is recovered and the unit is eligible to return to the map (11.2, 13.2)",
            Tone::Good,
        );
        record(res, target, SaberEffect::StepRecovered);
    } else if fow {
        res.set_outcome(
            "stays-eliminated",
            "fails: the unit stays eliminated, not destroyed: \"A failed step recovery roll does not result in the destruction of the unit\" (12.4, Friendly Recovery Check)",
            Tone::Neutral,
        );
    } else {
        res.set_outcome(
            "destroyed",
            "fails: the unit is destroyed and no longer eligible to return to play; it may count against the player in victory determination (11.2)",
            Tone::Bad,
        );
        record(res, target, SaberEffect::Destroyed);
    }
    Ok(())
}

/// Recovery from disruption and/or ineffectiveness, automatic or by a
/// morale check.
fn markers(
    rules: &SaberRules,
    variant: Variant,
    m: &Markers,
    target: Option<Target>,
    dice: &mut dyn DiceSource,
    res: &mut Resolution,
) -> Result<(), CommandError> {
    let Markers {
        disrupted,
        ineffective,
        check,
        why_automatic,
    } = m;
    let from = match (disrupted, ineffective) {
        (true, true) => "disruption and ineffectiveness",
        (true, false) => "disruption",
        _ => "ineffectiveness",
    };
    // Recovered from both markers it carries, with how (`passes: `).
    let recovers = |res: &mut Resolution, how: &str| {
        res.set_outcome(
            "recovers",
            format!("{how}recovers from {from}: remove the marker / flip the counter"),
            Tone::Good,
        );
        record(
            res,
            target,
            SaberEffect::Recovered {
                disruption: *disrupted,
                effectiveness: *ineffective,
            },
        );
    };
    match check {
        None => {
            res.row(*why_automatic, "automatic");
            recovers(res, "");
        }
        Some(check) => {
            // Standard 11.3: effectiveness comes back without a check.
            let standard_effective = variant == Variant::Standard && *ineffective;
            if standard_effective {
                res.row("recovery of effectiveness (11.3)", "automatic");
            }
            let c = morale::check(res, &rules.morale, check, "unit", dice, "morale die")?;
            if c.passed {
                recovers(res, "passes: ");
            } else if standard_effective {
                res.set_outcome(
                    "recovers-effectiveness",
                    "fails: the disrupted marker remains; effectiveness is recovered (11.1, 11.3)",
                    Tone::Neutral,
                );
                record(
                    res,
                    target,
                    SaberEffect::Recovered {
                        disruption: false,
                        effectiveness: true,
                    },
                );
            } else {
                res.set_outcome(
                    "stays",
                    format!("fails: no recovery from {from} this phase (11.1)"),
                    Tone::Bad,
                );
            }
        }
    }
    res.note(match variant {
        Variant::Standard => "Recovery is made in lieu of movement: neither the unit nor its ZOC may be in an EZOC, it must have a safe line of retreat, and it may not move (11.1, 11.3).",
        Variant::QuickPlay => "Recovery at the end of one of the unit's later movement phases: automatic if it was eligible for march movement; otherwise, not in an EZOC, a morale check (11.1).",
    });
    Ok(())
}

/// The effect on the unit recovering, when it was named.
fn record(res: &mut Resolution, target: Option<Target>, e: SaberEffect) {
    if let Some(t) = target {
        res.effect(t, e);
    }
}
