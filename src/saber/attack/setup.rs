//! An attack set up from its words, before any die.

use crate::bind::Bound;
use crate::catalog::Input;
use crate::command::{ClauseKind, Span};
use crate::error::{BindError, CommandError, ErrorKind};
use crate::saber::crt::Side;
use crate::saber::morale::{self, MoraleInput};
use crate::saber::named;
use crate::saber::results::SideInfo;
use crate::saber::tactics::Tactic;
use crate::saber::{AdjustTo, SaberRules, Tables, Variant};

use super::checks::{check_attack_words, check_sides, once_per_phase};
use super::printed::printed_factors;
use super::side::{SideWords, read_side};
use super::{NO_SLR, NO_SLR_QUICKPLAY, not_here};

/// Coordination (standard 7.14): which attacking factors are halved, and
/// the rows that say why. A charge must be coordinated (7.13 3, 9.3).
pub(super) fn coordinate(
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
            ErrorKind::NotApplicable,
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
    let attack = crate::saber::coordination::Attack {
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
    let judged = crate::saber::coordination::judge(table, &attack);
    if !judged.coordinated
        && let Some(t @ (Tactic::Charge | Tactic::CavalryCharge)) = a.tactic
    {
        return Err(not_here(
            ErrorKind::NotApplicable,
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
pub(super) struct Setup {
    pub(super) attacker: SideWords,
    pub(super) defender: SideWords,
    /// What coordination (7.14) decided, for the stack.
    pub(super) coordination_rows: Vec<(String, String)>,
    /// The sides as the results see them, before any check.
    pub(super) sides: [SideInfo; 2],
    pub(super) night: bool,
    /// Supporting artillery on a twilight turn: the rule that it supports
    /// only adjacent hexes (standard 14.3 3), for the answer's notes.
    pub(super) twilight_support: Option<String>,
    /// An HQ or the trains attacked with the units stacked with it: two
    /// fortunes of war for the attacker (12.1, 12.2).
    pub(super) defender_base: Option<&'static str>,
    /// The index of the `vs` clause among the command's clauses.
    pub(super) vs_clause: usize,
    pub(super) heading: String,
}

impl Setup {
    pub(super) fn cavalry_charge(&self) -> bool {
        self.attacker.tactic == Some(Tactic::CavalryCharge)
    }

    pub(super) fn countercharge(&self) -> bool {
        self.defender.tactic == Some(Tactic::Countercharge)
    }

    pub(super) fn attacked_by_cavalry(&self) -> bool {
        self.attacker.cavalry || self.cavalry_charge()
    }
}

/// Read both sides' words and check they make an attack.
pub(super) fn setup(
    tables: &Tables,
    variant: Variant,
    input: &Input,
) -> Result<Setup, CommandError> {
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
            ErrorKind::MisplacedWord,
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
        return Err(not_here(
            ErrorKind::NotApplicable,
            span,
            NO_SLR,
            &format!("is {NO_SLR_QUICKPLAY}"),
        ));
    }
    check_sides(variant, input, &a, &a_view, &d, &d_view)?;
    let (a_tactic, d_tactic) = (a.tactic, d.tactic);
    printed_factors(&mut a, &a_view, Side::Attacker, a_tactic, d_tactic);
    printed_factors(&mut d, &d_view, Side::Defender, a_tactic, d_tactic);
    // Standard 7.12: "units with parenthesized CF ... may not advance",
    // a named unit's parentheses read from its list as typed ones are.
    if variant == Variant::Standard {
        for (k, f) in a.factors.iter().enumerate() {
            let listed = a.units.iter().any(|u| {
                u.combat && u.span == f.span && u.has(crate::saber::named::printed::PARENTHESIZED)
            });
            if let Some(barred) = a.no_advance.get_mut(k) {
                *barred |= f.parenthesized || listed;
            }
        }
    }
    check_attack_words(variant, &a, &a_view)?;
    once_per_phase(&a, &a_view)?;
    let coordination_rows = coordinate(rules, input, &mut a, &a_view)?;
    let night = situation(rules, input, &a, &d)?;
    let sides = side_infos(rules, input, &a, &a_view, &d, &d_view)?;
    let twilight_support = rules
        .bombard
        .twilight
        .clone()
        .filter(|_| a.support.is_some() && input.words.has("twilight"));
    Ok(Setup {
        attacker: a,
        defender: d,
        coordination_rows,
        sides,
        night,
        twilight_support,
        defender_base: crate::saber::named::defender_base(input),
        vs_clause,
        heading: format!("attack on the CRT \"{}\"", tables.crt.name),
    })
}

/// The tactics and the time of day the defender's and the attacker's
/// words allow together; whether the combat is at night.
fn situation(
    rules: &SaberRules,
    input: &Input,
    a: &SideWords,
    d: &SideWords,
) -> Result<bool, CommandError> {
    let cavalry_charge = a.tactic == Some(Tactic::CavalryCharge);
    if d.tactic == Some(Tactic::FormSquare) && !cavalry_charge {
        return Err(not_here(
            ErrorKind::NotApplicable,
            d.tactic_span,
            "form-square",
            "is formed at the moment of combat only against a cavalry charge (9.5); say `square` for a square already formed",
        ));
    }
    if d.tactic == Some(Tactic::Countercharge) && !d.cavalry {
        return Err(not_here(
            ErrorKind::NotApplicable,
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
            ErrorKind::MisplacedWord,
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
            ErrorKind::NotApplicable,
            span,
            "night",
            "allows no combat except infantry charges (14.2): add `charge`",
        ));
    }
    Ok(night)
}

/// The defender's MR and where it was said: typed (`def-mr` on either
/// side, or `mr` after `vs`) or brought by a named defender.
fn defender_mr(input: &Input, d_view: &Bound) -> Result<Option<(i64, Span)>, CommandError> {
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
    Ok(d_mr)
}

/// The sides as the results see them, before any check.
fn side_infos(
    rules: &SaberRules,
    input: &Input,
    a: &SideWords,
    a_view: &Bound,
    d: &SideWords,
    d_view: &Bound,
) -> Result<[SideInfo; 2], CommandError> {
    let attacked_by_cavalry = a.cavalry || a.tactic == Some(Tactic::CavalryCharge);
    let d_mr = defender_mr(input, d_view)?;
    let a_mr = a_view
        .value("mr")
        .map(|v| (v, a_view.span_of("mr").unwrap_or_default()));
    let a_morale = side_morale(rules, a_view, None, a_mr, false, input)?;
    let d_morale = side_morale(
        rules,
        d_view,
        Some(a_view),
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
    Ok(sides)
}

pub(super) fn side_morale(
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
