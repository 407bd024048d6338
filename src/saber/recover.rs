//! The two verbs that keep the game in step with the table between
//! combats: `recover` (standard 11.1–11.3, 14.2; QuickPlay 11.1–11.3), and
//! `choose`, the owning player's choice a combat result left him (standard
//! 7.8; QuickPlay 7.5), recorded once he has made it.

use std::rc::Rc;

use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::{Target, Tone};

use super::game::SaberEffect;
use super::morale::{self, MoraleInput};
use super::named::{self, Named};
use super::{Resolution, VerbDoc};
use super::{SaberRules, Tables, Variant};

const CHOICE: &str = "the owning player's choice";

/// The words of both verbs: the unit's MR and state, and a leader's MR.
fn unit_vocab(rules: &SaberRules, leader_help: &str) -> Vocab {
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
    if variant == Variant::QuickPlay {
        vocab = vocab.flag(
            "march",
            "the unit was eligible for march movement this phase (4.3): it recovers automatically (11.1)",
        );
    }
    vocab
}

pub fn recover_verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
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
struct OneUnit {
    units: Vec<Named>,
    primary: Option<usize>,
    view: Bound,
}

fn one_unit(input: &Input, variant: Variant) -> Result<OneUnit, CommandError> {
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

fn whole_mr(words: &Bound) -> Result<Option<(i64, crate::command::Span)>, CommandError> {
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
    /// An eliminated unit's morale check for a step (standard 11.2).
    StepCheck(MoraleInput),
    /// From disruption and/or ineffectiveness: `check` is the morale check
    /// if one is needed, else recovery is automatic.
    Markers {
        disrupted: bool,
        ineffective: bool,
        check: Option<MoraleInput>,
        why_automatic: &'static str,
    },
}

fn plan_recovery(
    rules: &SaberRules,
    variant: Variant,
    input: &Input,
) -> Result<(Recovery, Option<usize>), CommandError> {
    let one = one_unit(input, variant)?;
    if let Some(second) = one.units.iter().filter(|u| u.combat).nth(1) {
        return Err(second.refuse(
            "is a second unit: `recover` is for one unit (name it, and the leader stacked with it)",
        ));
    }
    let words = &one.view;
    let refuse = |word: &str, why: &str| -> CommandError {
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
        }
        .into()
    };
    if words.has("casualty") {
        return Err(refuse(
            "casualty",
            "is a casualty: casualties are out of the game for good (10.4)",
        ));
    }
    if words.has("destroyed") {
        return Err(refuse(
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
                "replacement",
                "has no step to recover: it is at full strength",
            ));
        }
        return Ok((Recovery::Replacement { reduced }, one.primary));
    }
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
        return Ok((Recovery::StepCheck(check), one.primary));
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
        Recovery::Markers {
            disrupted,
            ineffective,
            check,
            why_automatic: automatic.unwrap_or(""),
        },
        one.primary,
    ))
}

fn refuse_unit(u: &Named, why: &str) -> CommandError {
    BindError::NotHere {
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
    let (plan, unit) = input.memoized(|| plan_recovery(rules, variant, input))?;
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
        Recovery::StepCheck(check) => {
            let c = morale::check(
                &mut res,
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
                effect(&mut res, SaberEffect::StepRecovered);
            } else {
                res.set_outcome(
                    "destroyed",
                    "fails: the unit is destroyed and no longer eligible to return to play; it may count against the player in victory determination (11.2)",
                    Tone::Bad,
                );
                effect(&mut res, SaberEffect::Destroyed);
            }
        }
        Recovery::Markers {
            disrupted,
            ineffective,
            check,
            why_automatic,
        } => {
            let from = match (disrupted, ineffective) {
                (true, true) => "disruption and ineffectiveness",
                (true, false) => "disruption",
                _ => "ineffectiveness",
            };
            match check {
                None => {
                    res.row(*why_automatic, "automatic");
                    res.set_outcome(
                        "recovers",
                        format!("recovers from {from}: remove the marker / flip the counter"),
                        Tone::Good,
                    );
                    effect(
                        &mut res,
                        SaberEffect::Recovered {
                            disruption: *disrupted,
                            effectiveness: *ineffective,
                        },
                    );
                }
                Some(check) => {
                    // Standard 11.3: effectiveness comes back without a check.
                    let standard_effective = variant == Variant::Standard && *ineffective;
                    if standard_effective {
                        res.row("recovery of effectiveness (11.3)", "automatic");
                    }
                    let c =
                        morale::check(&mut res, &rules.morale, check, "unit", dice, "morale die")?;
                    if c.passed {
                        res.set_outcome(
                            "recovers",
                            format!(
                                "passes: recovers from {from}: remove the marker / flip the counter"
                            ),
                            Tone::Good,
                        );
                        effect(
                            &mut res,
                            SaberEffect::Recovered {
                                disruption: *disrupted,
                                effectiveness: *ineffective,
                            },
                        );
                    } else if standard_effective {
                        res.set_outcome(
                            "recovers-effectiveness",
                            "fails: the disrupted marker remains; effectiveness is recovered (11.1, 11.3)",
                            Tone::Neutral,
                        );
                        effect(
                            &mut res,
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
        }
    }
    Ok(res)
}

// ---------------------------------------------------------------------
// `choose`

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

pub fn choose_verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
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
            span: first.span,
            text: first.id.clone(),
            why: "is a leader: name the primary unit the choice falls on (7.4, 7.5)".into(),
        }
        .into());
    }
    let disengage = words.has("disengage");
    if disengage && word != "retreat" {
        return Err(BindError::NotHere {
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
    let c = input.memoized(|| plan_choice(rules, variant, input))?;
    let mut res = input.resolution("choose", format!("the owning player's choice: {}", c.word));
    let at = |nth: usize| Target::Side { clause: None, nth };
    let all = 0..c.units.len();
    let primary = c.primary;
    // Whether the choice sends the primary back after all (a failed
    // check routs it): a last stand is settled only when it does not.
    let mut routed = false;
    // What falls on a side falls on a leader on it as a leader's fate.
    let emit = |res: &mut Resolution, nth: usize, e: SaberEffect| {
        let combat = c.units.get(nth).is_none_or(|u| u.combat);
        let e = if combat { Some(e) } else { e.for_leader() };
        if let Some(e) = e {
            res.effect(at(nth), e);
        }
    };
    match c.word {
        "disruption" => {
            if let Some(check) = &c.check {
                let m = morale::check(
                    &mut res,
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
                    for nth in all {
                        let e = if Some(nth) == primary {
                            SaberEffect::Routed
                        } else {
                            SaberEffect::Retreated
                        };
                        emit(&mut res, nth, e);
                    }
                }
            } else {
                let (text, targets): (&str, Vec<usize>) = match variant {
                    Variant::Standard => (
                        "the primary unit of the affected side is disrupted (7.8, 11.1)",
                        primary.into_iter().collect(),
                    ),
                    Variant::QuickPlay => (
                        "all affected units are disrupted (7.5, 11.1)",
                        all.collect(),
                    ),
                };
                res.set_outcome("disrupted", text, Tone::Neutral);
                for nth in targets {
                    emit(&mut res, nth, SaberEffect::Disrupted);
                }
            }
        }
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
                emit(&mut res, p, SaberEffect::StepLost);
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
                emit(&mut res, nth, SaberEffect::Disrupted);
                emit(&mut res, nth, SaberEffect::Retreated);
            }
        }
        _ => {
            res.set_outcome(
                "ineffective",
                "the unit is flipped to its ineffective side (11.3)",
                Tone::Neutral,
            );
            for nth in all {
                emit(&mut res, nth, SaberEffect::Ineffective);
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
            emit(&mut res, p, SaberEffect::LastStandKept);
        }
    }
    Ok(res)
}
