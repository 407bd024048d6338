//! One melee round once the pools are known: the dice, who won, what each
//! side's hits do and the answer's record of each side.

use serde_json::json;

use super::{Plan, Rolled, SidePlan};
use crate::answer::resolution::{Target, Tone};
use crate::dice::{DiceSource, PoolBand};
use crate::drums::Resolution;
use crate::drums::game::DrumsEffect;
use crate::drums::losses::{Counted, Losses};
use crate::drums::pool::{self, MeleeTables, plural};
use crate::error::CommandError;

/// Each side's dice: the second side's only against the first side's
/// hits, which decide who won the round.
pub(super) fn roll(
    res: &mut Resolution,
    sides: &[SidePlan],
    m: &MeleeTables,
    dice: &mut dyn DiceSource,
) -> Result<Vec<Rolled>, CommandError> {
    let mut rolled: Vec<Rolled> = Vec::new();
    for s in sides {
        res.append(&s.before);
        let n = s.pool;
        // The second side's hits matter only against the first side's: who
        // won the round.
        let p = match rolled.first() {
            None => {
                let p = dice.pool(n as u32, 6, m.hit_on)?;
                let mean = f64::from(p.successes);
                PoolBand { pool: p, mean }
            }
            Some(first) => {
                let beat = u32::try_from(first.hits).unwrap_or(0);
                dice.pool_against(n as u32, 6, m.hit_on, &[beat, beat + 1])?
            }
        };
        let (mean_hits, p) = (p.mean, p.pool);
        if !res.quiet {
            pool::show_dice(res, &format!("{}{n}D6", s.prefix), &p.dice);
            res.row(
                format!("{}hits ({} or more)", s.prefix, m.hit_on),
                p.successes,
            );
        }
        rolled.push(Rolled {
            pool: n,
            hits: i64::from(p.successes),
            mean_hits,
            // Odds read only the hits: the steps are for the explanation.
            steps: if res.quiet {
                serde_json::Value::Null
            } else {
                s.steps.clone()
            },
            faces: p.dice.iter().map(|d| d.face).collect(),
        });
    }
    Ok(rolled)
}

/// Each side's record in the answer's JSON, with its own losses.
pub(super) fn side_json(
    res: &Resolution,
    plan: &Plan,
    rolled: &[Rolled],
    losses: &[Losses],
    m: &MeleeTables,
) -> Vec<serde_json::Value> {
    let mut json_sides = Vec::new();
    // Only a shown answer carries the sides' JSON: `odds` runs this once a
    // way the dice can fall.
    let explained = if res.quiet { 0 } else { plan.sides.len() };
    for (i, (s, r)) in plan.sides.iter().zip(rolled).enumerate().take(explained) {
        let mut side = json!({
            "side": s.name,
            "arm": s.keyword,
            "pool": r.pool,
            "pool_steps": r.steps,
            "dice": r.faces,
            "hit_on": m.hit_on,
            "hits": r.hits,
        });
        if let Some(map) = side.as_object_mut() {
            if let Some(id) = &s.id {
                map.insert("unit".into(), json!(id));
            }
            if !s.not_applied.is_empty() {
                map.insert("not_applied".into(), json!(s.not_applied));
            }
            // The house default's reading, where two "1 in K" rows built
            // the pool (the stack's row of it).
            if let Some(reading) = s.before.fields.get("one_in_k") {
                map.insert("one_in_k".into(), reading.clone());
            }
            // A side's record holds its own losses: what the other
            // side's hits do to it (issue 23). With no opponent nobody
            // hits it, and it has none.
            let own = losses.get(1 - i.min(1)).filter(|_| losses.len() == 2);
            if let Some(loss) = own {
                for (key, value) in loss.fields() {
                    map.insert(key.into(), value);
                }
                if loss.counted() == Counted::Figures
                    && let Some(left) = loss.left()
                {
                    map.insert("figures_left".into(), left.max(0).into());
                }
            }
        }
        json_sides.push(side);
    }
    json_sides
}

/// The round's effects on the game: both sides fought, and each side's
/// hits land on the other.
pub(super) fn effects(res: &mut Resolution, rolled: &[Rolled]) {
    res.effect(Target::ACTOR, DrumsEffect::Melee);
    if let [a_side, b_side] = rolled {
        let b_unit = Target::clause(0, 0);
        res.effect(b_unit, DrumsEffect::Melee);
        for (hits, by, on) in [
            (a_side.hits, Target::ACTOR, b_unit),
            (b_side.hits, b_unit, Target::ACTOR),
        ] {
            if hits > 0 {
                res.effect(on, DrumsEffect::Hits { hits });
                res.effect(by, DrumsEffect::Inflicted);
            }
        }
    }
}

/// Who won the round, what each side's hits did and which resilience
/// tests follow.
pub(super) fn round_outcome(
    res: &mut Resolution,
    a: &SidePlan,
    b: Option<&SidePlan>,
    rolled: &[Rolled],
    losses: &[Losses],
) {
    match b {
        None => {
            let h = rolled[0].hits;
            res.set_outcome(
                if h > 0 { "hits" } else { "no-hits" },
                format!("on the opponent, {}", losses[0].text()),
                if h > 0 { Tone::Good } else { Tone::Neutral },
            );
            res.odds_group = Some(one_sided_group(h).into());
        }
        Some(b) => {
            let (ha, hb) = (rolled[0].hits, rolled[1].hits);
            // The winner's score first ("5 hits to 4").
            let (first, second) = if hb > ha { (hb, ha) } else { (ha, hb) };
            let score_line = format!("{first} hit{} to {second}", plural(first));
            let winner = if ha > hb {
                "a"
            } else if hb > ha {
                "b"
            } else {
                "drawn"
            };
            res.field("winner", winner);
            let text = match winner {
                "a" => format!("{} ({}) wins the round, {score_line}", a.who, a.arm),
                "b" => format!("{} ({}) wins the round, {score_line}", b.who, b.arm),
                _ => format!("the round is drawn, {score_line}"),
            };
            res.set_outcome(winner, text, Tone::Neutral);
            // For odds, who wins the round is the outcome; the hits are
            // their own expectations.
            res.odds_group = Some(match winner {
                "a" => format!("{} ({}) wins the round", a.who, a.arm).into(),
                "b" => format!("{} ({}) wins the round", b.who, b.arm).into(),
                _ => "the round is drawn".into(),
            });
            if res.quiet {
                return;
            }
            res.note(format!(
                "On {} ({}): {}. On {} ({}): {}.",
                b.who,
                b.arm,
                losses[0].text(),
                a.who,
                a.arm,
                losses[1].text()
            ));
            match winner {
                "drawn" => res.note(
                    "Follow-up resilience tests: both sides test in the melee context (`resilience melee …`).",
                ),
                w => {
                    let (won, lost) = if w == "a" { (a, b) } else { (b, a) };
                    res.note(follow_up(won, lost));
                }
            }
        }
    }
}

/// The resilience tests a won round calls for, as the umpire types them:
/// a side whose unit was named is named in its line.
fn follow_up(won: &SidePlan, lost: &SidePlan) -> String {
    let line = |s: &SidePlan, context: &str| match &s.id {
        Some(id) => format!("`resilience {id} melee {context}`"),
        None => format!("{} `resilience melee {context} …`", s.who),
    };
    format!(
        "Follow-up resilience tests: {}, {}.",
        line(won, "won-round"),
        line(lost, "lost-round")
    )
}

/// How odds groups a melee without an opponent: by the hits scored.
pub(super) fn one_sided_group(hits: i64) -> String {
    format!("{hits} hit{} on the opponent", plural(hits))
}

/// For odds: who wins and each side's hits, nothing else.
pub(super) fn quiet_outcome(mut res: Resolution, plan: &Plan, rolled: &[Rolled]) -> Resolution {
    let hits: Vec<i64> = rolled.iter().map(|r| r.hits).collect();
    // No fields: `odds` reads the measures, and a quiet resolution keeps
    // no fields anyway.
    res.measure("hits", rolled[0].mean_hits);
    for (r, name) in rolled.iter().zip(["hits_a", "hits_b"]) {
        res.measure(name, r.mean_hits);
    }
    let (a, b) = (&plan.sides[0], plan.sides.get(1));
    let (id, group): (&'static str, String) = match (b, hits.as_slice()) {
        (None, [h, ..]) => (if *h > 0 { "hits" } else { "no-hits" }, one_sided_group(*h)),
        (Some(_), [ha, hb, ..]) if ha > hb => {
            ("a", format!("{} ({}) wins the round", a.who, a.arm))
        }
        (Some(b), [ha, hb, ..]) if hb > ha => {
            ("b", format!("{} ({}) wins the round", b.who, b.arm))
        }
        _ => ("drawn", "the round is drawn".to_string()),
    };
    res.set_outcome(id, group.clone(), Tone::Neutral);
    res.odds_group = Some(group.into());
    res
}
