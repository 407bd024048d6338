//! The pool arithmetic shared by `shoot` and `melee`, and how its steps
//! and dice are shown.

use serde_json::json;

use super::{AdjustKind, OneInK, PoolRow};
use crate::answer::resolution::Modifier;
use crate::drums::Resolution;

/// One step of the pool arithmetic.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Step {
    pub(crate) label: String,
    /// The adjustment in the sheet's words ("Remove 1 in 2 dice").
    pub(crate) dice: String,
    pub(crate) kind: &'static str,
    pub(crate) change: i64,
    pub(crate) pool: i64,
}

/// A row that holds, with how many times it counts (`per` words, extra ranks).
pub(crate) struct Applied<'a> {
    pub(crate) row: &'a PoolRow,
    pub(crate) times: i64,
}

/// The pool arithmetic. `base_label` names the starting pool.
pub(crate) fn arithmetic(
    base_label: &str,
    base: i64,
    applied: &[Applied],
    minimum: i64,
    one_in_k: OneInK,
) -> Vec<Step> {
    let mut steps = vec![Step {
        label: base_label.to_string(),
        dice: String::new(),
        kind: "base",
        change: base,
        pool: base,
    }];
    let mut pool = base;
    for stage in 0..=2 {
        // The pool the "1 in K" rows count from, by the house default.
        let before = pool;
        for a in applied.iter().filter(|a| a.row.dice.kind.stage() == stage) {
            let kind = a.row.dice.kind;
            let change = match kind {
                AdjustKind::Double => pool,
                AdjustKind::OneIn { add, k } => {
                    let of = match one_in_k {
                        OneInK::WholePool => before,
                        OneInK::InTurn => pool,
                    };
                    let n = of.max(0) / k;
                    if add { n } else { -n }
                }
                AdjustKind::Flat(n) => n * a.times,
                AdjustKind::PerExtraRank(n) => n * a.times,
                AdjustKind::NoEffect => 0,
            };
            pool += change;
            let label = if a.row.always {
                format!("{} (applies by itself)", a.row.row)
            } else if a.times > 1 && matches!(kind, AdjustKind::Flat(_)) {
                format!("{} ×{}", a.row.row, a.times)
            } else if let AdjustKind::PerExtraRank(_) = kind {
                format!("{} ({} extra rank{})", a.row.row, a.times, plural(a.times))
            } else {
                a.row.row.clone()
            };
            steps.push(Step {
                label,
                dice: a.row.dice.text.clone(),
                kind: kind.id(),
                change,
                pool,
            });
        }
    }
    if pool < minimum {
        steps.push(Step {
            label: format!("minimum {minimum} dice"),
            dice: String::new(),
            kind: "minimum",
            change: minimum - pool,
            pool: minimum,
        });
    }
    steps
}

/// Where two or more "1 in K" rows applied, the reading of the house
/// default that decided the pool, in the modifier stack and in JSON
/// `one_in_k`.
pub(crate) fn show_one_in_k(res: &mut Resolution, prefix: &str, steps: &[Step], one_in_k: OneInK) {
    let rows: Vec<&Step> = steps
        .iter()
        .filter(|s| s.kind == "add-1-in-k" || s.kind == "remove-1-in-k")
        .collect();
    let [first, _, ..] = rows.as_slice() else {
        return;
    };
    let before = first.pool - first.change;
    res.row(
        format!(
            "{prefix}1 in K rows (house default: tables/drums-pools.toml one_in_k = \"{}\")",
            one_in_k.id()
        ),
        one_in_k.said(before),
    );
    if !res.quiet {
        res.field("one_in_k", one_in_k.id());
    }
}

pub(crate) fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Show the steps in the explanation and the modifier stack; `prefix`
/// names the side in melee. Returns the steps as JSON.
pub(crate) fn show_steps(res: &mut Resolution, prefix: &str, steps: &[Step]) -> serde_json::Value {
    for (i, s) in steps.iter().enumerate() {
        if i == 0 {
            res.row(format!("{prefix}{}", s.label), format!("{}D6", s.pool));
            continue;
        }
        let label = if s.dice.is_empty() {
            format!("{prefix}{}", s.label)
        } else {
            format!("{prefix}{} — {}", s.label, s.dice)
        };
        let change = if s.change == 0 && s.kind.starts_with("remove") {
            "−0".to_string()
        } else {
            crate::answer::resolution::signed(s.change)
        };
        let pool = if s.pool < 0 {
            format!("−{}", -s.pool)
        } else {
            s.pool.to_string()
        };
        res.row(label.clone(), format!("{change} → {pool}"));
        res.modifiers.push(Modifier {
            label: label.into(),
            value: s.change,
        });
    }
    json!(
        steps
            .iter()
            .map(|s| json!({"label": s.label, "dice": s.dice, "kind": s.kind, "change": s.change, "pool": s.pool}))
            .collect::<Vec<_>>()
    )
}

/// Show a pool's dice compactly: the entered faces on one row, the rolled
/// ones on another.
pub(crate) fn show_dice(res: &mut Resolution, label: &str, dice: &[crate::dice::Rolled]) {
    for entered in [true, false] {
        let faces: Vec<String> = dice
            .iter()
            .filter(|d| d.entered == entered)
            .map(|d| d.face.to_string())
            .collect();
        if !faces.is_empty() {
            let how = if entered { "entered" } else { "rolled" };
            res.row(format!("{label} ({how})"), faces.join(" "));
        }
    }
    res.dice.extend_from_slice(dice);
}
