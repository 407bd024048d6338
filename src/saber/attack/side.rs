//! Reading one side's words: its factors, its units, its tactic.

use std::borrow::Cow;

use crate::bind::Bound;
use crate::catalog::Input;
use crate::command::Span;
use crate::error::CommandError;
use crate::saber::crt::Side;
use crate::saber::factors::{self, Factor};
use crate::saber::named::{self, Named};
use crate::saber::tactics::Tactic;
use crate::saber::{SaberRules, Variant};

use super::{ATTACKER_TACTIC, COUNTERATTACK, DEFENDER_TACTIC, FOW_CHARGE, NO_SLR, SUPPORT};

/// One side's words, read.
pub(super) struct SideWords {
    pub(super) factors: Vec<Factor>,
    /// Supporting artillery's strength and where it was said (attacker).
    pub(super) support: Option<(i64, Span)>,
    /// The charge is a fortune of war (standard 12.4).
    pub(super) fow_charge: bool,
    /// A QuickPlay counterattack (7.2).
    pub(super) counterattack: bool,
    /// The attacking unit is in square (QuickPlay 9.3).
    pub(super) in_square: bool,
    /// Some unit of the side is cavalry: the primary, or another named.
    pub(super) any_cavalry: bool,
    /// For each factor, whether its unit is disrupted (or, in QuickPlay,
    /// ineffective): halved when attacking (standard 11.1 2, QuickPlay
    /// 11.1 4, 11.3).
    pub(super) disrupted_factor: Vec<bool>,
    /// For each factor, whether its unit may not advance after combat:
    /// disrupted, parenthesized or artillery (standard 7.12, 8.3;
    /// QuickPlay 7.9).
    pub(super) no_advance: Vec<bool>,
    /// For each factor, whether it is halved in an uncoordinated attack
    /// (7.14).
    pub(super) uncoordinated: Vec<bool>,
    /// How many disrupted units are not halved, a leader accompanying
    /// each (QuickPlay 10.0 3).
    pub(super) accompanied_disrupted: usize,
    /// A leader accompanies the primary unit (QuickPlay 10.0 3).
    pub(super) primary_accompanied: bool,
    pub(super) tactic: Option<Tactic>,
    /// Where the tactic was said, for errors.
    pub(super) tactic_span: Span,
    pub(super) cavalry: bool,
    pub(super) infantry: bool,
    pub(super) artillery: bool,
    pub(super) disrupted: bool,
    /// The participating leaders' combat factors, added up.
    pub(super) leader_cf: Option<i64>,
    /// How many leaders are named on the side.
    pub(super) leaders: usize,
    /// The units and leaders named on the side, in order.
    pub(super) units: Vec<Named>,
    /// The primary unit among them (the first combat unit named).
    pub(super) primary: Option<usize>,
    /// Where `no-slr` was said: the defender lacks a safe line of retreat
    /// (standard 7.3 2).
    pub(super) no_slr: Option<Span>,
}

impl SideWords {
    /// How often factor `k` is halved when this side attacks: its own
    /// marks, parentheses or disruption (one halving: a disrupted unit's
    /// CF is treated as parenthesized), and `extra` from the situation.
    pub(super) fn attack_halvings(&self, k: usize, extra: u32) -> u32 {
        let f = &self.factors[k];
        let disrupted = self.disrupted_factor.get(k).copied().unwrap_or(false);
        let uncoordinated = self.uncoordinated.get(k).copied().unwrap_or(false);
        f.marks + u32::from(f.parenthesized || disrupted) + u32::from(uncoordinated) + extra
    }
}

/// One side's words, read, and the words as its primary unit has them
/// (needed only before the dice).
pub(super) fn read_side<'a>(
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
    named::eligible_primary(variant, &units, primary, side == Side::Attacker)?;
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
    let (disrupted_factor, no_advance, accompanied_disrupted) = factor_marks(
        variant,
        words,
        &view,
        &units,
        primary,
        &factors,
        disrupted,
        accompanying,
        ineffective_too,
    );
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

/// For each factor, whether it is halved for its unit's disruption when
/// attacking and whether its unit may not advance; and how many disrupted
/// units a leader accompanies, so that they are not halved.
#[allow(clippy::too_many_arguments)]
fn factor_marks(
    variant: Variant,
    words: &Bound,
    view: &Bound,
    units: &[Named],
    primary: Option<usize>,
    factors: &[Factor],
    disrupted: bool,
    accompanying: usize,
    ineffective_too: bool,
) -> (Vec<bool>, Vec<bool>, usize) {
    // The primary's factor: its unit's, or the first when none is named.
    let primary_factor = match primary {
        Some(p) => words.raw.iter().position(|w| w.span == units[p].span),
        None => Some(0),
    };
    let mut others_accompanied = accompanying.saturating_sub(1);
    let mut accompanied_disrupted = 0;
    let mut no_advance = Vec::new();
    let disrupted_factor: Vec<bool> = words
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
    (disrupted_factor, no_advance, accompanied_disrupted)
}
