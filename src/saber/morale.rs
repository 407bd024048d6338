//! Morale checks: one die; greater than the (modified) MR fails; 1 always
//! passes, 6 always fails (standard 2.4, 8.1, 10.3, 11.1, 14.2–14.3, 9.5;
//! QuickPlay 2.3, 9.3, 10.0, 11.1).

use std::fmt::Display;
use std::rc::Rc;

use super::named::{self, Named};
use super::{Resolution, VerbDoc};
use crate::answer::resolution::{Tone, signed};
use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::command::Span;
use crate::dice::{DiceSource, Rolled};
use crate::error::{BindError, CommandError, ErrorKind};

use super::{AdjustTo, MoraleTable, SaberRules, Tables, Variant};

/// Everything a morale check needs besides the die and whose check it is.
/// Cloned on every way the dice fall under `odds`, so the labels and the
/// adjustments are shared until a check adds one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MoraleInput {
    pub(crate) mr: i64,
    /// Where the MR came from ("MR", "artillery MR").
    pub(crate) mr_label: Rc<str>,
    /// (row label, value, to roll or rating)
    pub(crate) adjustments: Rc<Vec<(Rc<str>, i64, AdjustTo)>>,
}

impl MoraleInput {
    pub(crate) fn new(mr: i64, mr_label: impl Into<Rc<str>>) -> MoraleInput {
        MoraleInput {
            mr,
            mr_label: mr_label.into(),
            adjustments: Rc::default(),
        }
    }

    pub(crate) fn add(&mut self, label: impl Into<Rc<str>>, value: i64, to: AdjustTo) {
        Rc::make_mut(&mut self.adjustments).push((label.into(), value, to));
    }

    /// Drop the adjustments of that label (a square removed, 9.5).
    pub(crate) fn remove(&mut self, label: &str) {
        if self.adjustments.iter().any(|a| &*a.0 == label) {
            Rc::make_mut(&mut self.adjustments).retain(|a| &*a.0 != label);
        }
    }

    pub(crate) fn rating(&self) -> i64 {
        self.mr
            + self
                .adjustments
                .iter()
                .filter(|a| a.2 == AdjustTo::Rating)
                .map(|a| a.1)
                .sum::<i64>()
    }

    pub(crate) fn roll_adjustment(&self) -> i64 {
        self.adjustments
            .iter()
            .filter(|a| a.2 == AdjustTo::Roll)
            .map(|a| a.1)
            .sum()
    }

    /// The highest face that passes.
    pub(crate) fn needed(&self, table: &MoraleTable) -> u32 {
        let highest = self.rating() - self.roll_adjustment();
        let lo = i64::from(table.always_pass);
        let hi = i64::from(table.always_fail) - 1;
        highest.clamp(lo, hi) as u32
    }
}

/// A morale check carried out.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Check {
    /// Whose check it was ("defender", "charging unit").
    pub(crate) who: &'static str,
    pub(crate) die: u32,
    pub(crate) needed: u32,
    pub(crate) passed: bool,
}

impl Check {
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "who": self.who,
            "die": self.die,
            "needed": self.needed,
            "passed": self.passed,
        })
    }
}

/// The row of a side's morale die: `morale die (defender)`.
pub(crate) fn die_of(who: &'static str) -> impl Display {
    crate::text::display_with(move |f| write!(f, "morale die ({who})"))
}

/// Carry out `who`'s check with a die already drawn, showing every step.
pub(crate) fn check_with(
    res: &mut Resolution,
    table: &MoraleTable,
    input: &MoraleInput,
    who: &'static str,
    die: Rolled,
    die_label: impl Display,
) -> Check {
    res.die(format_args!("{die_label}"), die);
    let needed = input.needed(table);
    let passed = die.face <= needed;
    if !res.quiet {
        explain(res, table, input, who, needed, passed);
    }
    Check {
        who,
        die: die.face,
        needed,
        passed,
    }
}

/// The rows of a check after its die: the MR, its adjustments, the faces that pass.
fn explain(
    res: &mut Resolution,
    table: &MoraleTable,
    input: &MoraleInput,
    who: &str,
    needed: u32,
    passed: bool,
) {
    res.row(format_args!("{who}: {}", input.mr_label), input.mr);
    for (label, value, to) in input.adjustments.iter() {
        let place = match to {
            AdjustTo::Roll => "to the die",
            AdjustTo::Rating => "to the MR",
        };
        res.modifier(format!("{who}: {label} ({place})"), *value);
    }
    let passes_on = if needed <= table.always_pass {
        format!("{} only (always passes on {})", needed, table.always_pass)
    } else {
        format!("1–{needed}")
    };
    res.row(
        format_args!("{who}: passes on {passes_on}"),
        if passed { "pass" } else { "fail" },
    );
}

/// A further check on a die already shown (the same morale die read again).
pub(crate) fn check_again(
    res: &mut Resolution,
    table: &MoraleTable,
    input: &MoraleInput,
    who: &'static str,
    die: Rolled,
    die_label: impl Display,
) -> Check {
    let mut scratch = Resolution::new(res.rules, res.verb, "", !res.quiet);
    // The scratch's die row is left out: the die is shown already.
    let check = check_with(&mut scratch, table, input, who, die, "");
    res.row(format_args!("{die_label}, read again"), die.face);
    res.rows.extend(scratch.rows.into_iter().skip(1));
    res.modifiers.extend(scratch.modifiers);
    check
}

/// Draw a die and check.
pub fn check(
    res: &mut Resolution,
    table: &MoraleTable,
    input: &MoraleInput,
    who: &'static str,
    dice: &mut dyn DiceSource,
    die_label: impl Display,
) -> Result<Check, CommandError> {
    let die = dice.roll_against(table.die, &cuts(table, [Some(input), None]))?;
    Ok(check_with(res, table, input, who, die, die_label))
}

/// The faces where a morale die read by these checks (one side's, or
/// both sides' of a combat: the most a die is read by) changes what it
/// decides: past the always-pass face, past each check's highest passing
/// face, and at the always-fail face. Kept on the stack: `odds` works
/// them out on every way the dice fall.
pub(crate) fn cuts(table: &MoraleTable, inputs: [Option<&MoraleInput>; 2]) -> Cuts {
    let mut cuts = Cuts {
        faces: [table.always_pass + 1, table.always_fail, 0, 0],
        len: 2,
    };
    for input in inputs.into_iter().flatten() {
        cuts.faces[cuts.len] = input.needed(table) + 1;
        cuts.len += 1;
    }
    cuts
}

/// The faces [`cuts`] works out.
pub(crate) struct Cuts {
    faces: [u32; 4],
    len: usize,
}

impl std::ops::Deref for Cuts {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.faces[..self.len]
    }
}

/// The morale words of one side: `disrupted`, `night`, `leader-mr=N` …
/// Only the ones a verb asks for are added.
pub(crate) fn side_vocab(mut vocab: Vocab, rules: &SaberRules, leader_word: &str) -> Vocab {
    for adj in &rules.morale.adjustment {
        vocab.add(
            adj.keyword.clone(),
            crate::bind::Kind::Flag,
            format!("{} ({})", adj.row, adj_effect(adj.value, adj.to)),
        );
    }
    vocab = vocab.number(leader_word, 0, 9, rules.morale.leader.clone());
    if leader_word != LEADER_MR {
        // A named leader brings his MR as `leader-mr`: the same fact.
        vocab = vocab
            .number(
                LEADER_MR,
                0,
                9,
                format!("the same as `{leader_word}=N` (named leaders bring it)"),
            )
            .slot(&[LEADER, LEADER_MR]);
    }
    if let Some(art) = &rules.morale.artillery {
        vocab = vocab.flag("artillery", art.row.clone());
    }
    if let Some(row) = &rules.morale.ineffective {
        vocab = vocab.flag("ineffective", row.clone());
    }
    vocab
}

fn adj_effect(value: i64, to: AdjustTo) -> String {
    match to {
        AdjustTo::Roll => format!("{} to the die roll", signed(value)),
        AdjustTo::Rating => format!("{} to the MR", signed(value)),
    }
}

/// Build a check's input from a side's words. `mr` is the stated rating
/// with its span, if any; `vs_cavalry` says whether cavalry-only rows apply.
pub(crate) fn input_from(
    rules: &SaberRules,
    words: &Bound,
    shared: Option<&Bound>,
    mr: Option<(i64, Span)>,
    leader_word: &str,
    vs_cavalry: bool,
    missing: impl Fn() -> CommandError,
) -> Result<MoraleInput, CommandError> {
    let artillery = rules
        .morale
        .artillery
        .as_ref()
        .filter(|_| words.has("artillery"));
    let mut input = match (mr, artillery) {
        // A named battery's presumed MR gives way to one typed.
        (Some((mr, _)), Some(_)) if words.implied("artillery") => MoraleInput::new(mr, "MR"),
        (Some((_, span)), Some(_)) => {
            return Err(BindError::Conflict {
                span,
                first: "artillery".into(),
                second: "mr".into(),
                group: "sources of the morale rating".into(),
            }
            .into());
        }
        (Some((mr, _)), None) => MoraleInput::new(mr, "MR"),
        (None, Some(art)) => MoraleInput::new(art.mr, art.row.as_str()),
        (None, None) => return Err(missing()),
    };
    if let Some(leader) = leader_value(words, leader_word, LEADER_MR)? {
        input.add(rules.morale.leader.as_str(), leader, AdjustTo::Rating);
    }
    let mut groups: Vec<(&str, &str, Span)> = Vec::new();
    for adj in &rules.morale.adjustment {
        let said = words.span_of(&adj.keyword).or_else(|| {
            shared
                .filter(|_| adj.group.is_some())
                .and_then(|s| s.span_of(&adj.keyword))
        });
        let Some(span) = said else { continue };
        if let Some(group) = &adj.group {
            if let Some((_, first, _)) = groups.iter().find(|(g, _, _)| g == group) {
                return Err(BindError::Conflict {
                    span,
                    first: first.to_string(),
                    second: adj.keyword.clone(),
                    group: group.clone(),
                }
                .into());
            }
            groups.push((group, &adj.keyword, span));
        }
        if adj.vs_cavalry && !vs_cavalry {
            continue;
        }
        input.add(adj.row.as_str(), adj.value, adj.to);
    }
    // QuickPlay 11.3: ineffective is checked as disrupted, never twice.
    if let Some(row) = &rules.morale.ineffective
        && words.has("ineffective")
        && !words.has("disrupted")
        && let Some(adj) = rules
            .morale
            .adjustment
            .iter()
            .find(|a| a.keyword == "disrupted")
    {
        input.add(row.as_str(), adj.value, adj.to);
    }
    Ok(input)
}

/// The one unit a morale check is for, and the leaders beside it: the
/// side's words as that unit has them, or an error naming the extra unit.
pub(crate) fn one_unit(
    input: &Input,
    variant: Variant,
    words: &Bound,
    what: &str,
) -> Result<(Vec<Named>, Option<usize>, Bound), CommandError> {
    let units = named::side(input, None)?;
    if let Some(extra) = units.iter().filter(|u| u.combat).nth(1) {
        return Err(extra.refuse(
            ErrorKind::ExtraWord,
            format!(
                "is a second unit: {what} is for one unit (name it, and the leader stacked with it)"
            ),
        ));
    }
    named::one_leader_per_unit(variant, &units, 1)?;
    let primary = named::primary(&units);
    let view = named::primary_view(variant, words, &units, primary, LEADER_MR).into_owned();
    Ok((units, primary, view))
}

const LEADER: &str = "leader";
/// The word a named leader brings his morale rating as.
pub(crate) const LEADER_MR: &str = "leader-mr";

/// A leader's factor said as either of two words for it (`leader=N`, or
/// `leader-mr=N` as a named leader brings it); both typed is an error.
pub(crate) fn leader_value(
    words: &Bound,
    word: &str,
    alias: &str,
) -> Result<Option<i64>, CommandError> {
    match (words.value(word), words.value(alias)) {
        (Some(_), Some(_)) if word != alias && !words.implied(word) && !words.implied(alias) => {
            Err(BindError::Conflict {
                span: words.span_of(alias).unwrap_or_default(),
                first: word.into(),
                second: alias.into(),
                group: "a leader's factor".into(),
            }
            .into())
        }
        (Some(v), _) | (None, Some(v)) => Ok(Some(v)),
        (None, None) => Ok(None),
    }
}

pub(crate) fn verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
    let rules = variant.rules(t);
    let vocab = named::leader_formation_words(vocab(rules), variant);
    let (usage, examples): (&'static str, &'static [&'static str]) = match variant {
        Variant::Standard => (
            "morale MR [leader=N] [disrupted] [night|twilight] [square] | morale artillery",
            &[
                "morale 4",
                "morale 3 leader=1 disrupted rolled 3",
                "morale 4 night",
                "morale artillery",
            ],
        ),
        Variant::QuickPlay => (
            "morale MR [leader=N] [disrupted] [square]",
            &["morale 4", "morale 3 leader=1 disrupted rolled 2"],
        ),
    };
    VerbDoc::new(
        Some(variant.system()),
        "morale",
        usage,
        "Morale check: one die; greater than the MR fails; 1 always passes, 6 always fails.",
        vocab,
        super::resolver(t, resolve),
    )
    .examples(examples)
}

fn vocab(rules: &SaberRules) -> Vocab {
    side_vocab(
        Vocab::new()
            .with_number("the unit's morale rating (MR)")
            .number_from("mr"),
        rules,
        LEADER,
    )
}

fn resolve(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let morale_in = crate::memoized!(input, MoraleInput, || {
        let (units, primary, words) = one_unit(input, variant, &input.words, "a morale check")?;
        if primary.is_none()
            && words.number.is_none()
            && !words.has("artillery")
            && let Some(leader) = units.first()
        {
            return Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span: leader.span,
                text: leader.id.clone(),
                why: "is a leader: name the unit that checks morale, and him beside it (his morale rating is added to the unit's, 10.3)".into(),
            }
            .into());
        }
        let mr = match words.number {
            Some((n, span)) if n.fract() != 0.0 || !(0.0..=10.0).contains(&n) => {
                return Err(BindError::BadValue {
                    span,
                    text: n.to_string(),
                    expected: "a morale rating is a whole number from 0 to 10".into(),
                }
                .into());
            }
            Some((n, span)) => Some((n as i64, span)),
            None => None,
        };
        // A battery of a standard list prints no MR (standard 8.1), and
        // QuickPlay presumes none.
        if mr.is_none()
            && !(rules.morale.artillery.is_some() && words.has("artillery"))
            && let Some(unit) = primary.map(|p| &units[p])
        {
            return Err(unit.refuse(
                ErrorKind::MissingValue,
                format!(
                    "brings no morale rating: type it beside the unit, like `morale 5 {}`",
                    unit.id
                ),
            ));
        }
        input_from(rules, &words, None, mr, LEADER, true, || {
            input.missing(if rules.morale.artillery.is_some() {
                "`morale` needs the unit's morale rating, like `morale 4`, or `artillery`"
            } else {
                "`morale` needs the unit's morale rating, like `morale 4`"
            })
        })
    })?;
    let morale_in = &*morale_in;
    let mut res = input.resolution("morale", format!("morale check (1D{})", rules.morale.die));
    let check = check(
        &mut res,
        &rules.morale,
        morale_in,
        "unit",
        dice,
        "morale die",
    )?;
    res.set_score(i64::from(check.die) + morale_in.roll_adjustment());
    res.field("needed", check.needed);
    res.field("mr", morale_in.rating());
    if check.passed {
        let why = if check.die == rules.morale.always_pass {
            format!(
                " (all units succeed on a die roll of {})",
                rules.morale.always_pass
            )
        } else {
            String::new()
        };
        res.set_outcome("pass", format!("passes the morale check{why}"), Tone::Good);
    } else {
        let why = if check.die == rules.morale.always_fail {
            format!(
                " (all units fail on a die roll of {})",
                rules.morale.always_fail
            )
        } else {
            String::new()
        };
        res.set_outcome("fail", format!("fails the morale check{why}"), Tone::Bad);
    }
    res.note(&rules.morale.rule);
    Ok(res)
}
