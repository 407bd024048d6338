//! What a resolution does to the units it named: the bridge from the
//! rules' outcomes to the game's state.

use serde_json::Value;

use crate::catalog::NamedUnit;
use crate::command::ClauseKind;
use crate::resolution::Resolution;

use super::state::Effect;

/// The unit on the acting side, and the first unit of the first clause.
fn actor_and_other(units: &[NamedUnit]) -> (Option<&str>, Option<&str>) {
    let actor = units
        .iter()
        .find(|u| u.clause.is_none())
        .map(|u| u.id.as_str());
    let other = units
        .iter()
        .find(|u| matches!(u.clause, Some((0, ClauseKind::At | ClauseKind::Vs))))
        .map(|u| u.id.as_str());
    (actor, other)
}

fn int(v: Option<&Value>) -> i64 {
    v.and_then(Value::as_i64).unwrap_or(0)
}

/// Hero tokens a Musket Mayhem resolution spent, from its `tokens` (the
/// acting figure) and `target_tokens` (the figure fired at).
fn tokens_spent(res: &Resolution, actor: Option<&str>, other: Option<&str>, out: &mut Vec<Effect>) {
    for (field, who) in [("tokens", actor), ("target_tokens", other)] {
        let (Some(tokens), Some(who)) = (res.fields.get(field), who) else {
            continue;
        };
        for _ in 0..int(tokens.get("saves_spent")) {
            out.push(Effect::SaveSpent {
                unit: who.to_string(),
            });
        }
        for _ in 0..int(tokens.get("rerolls_spent")) {
            out.push(Effect::RerollSpent {
                unit: who.to_string(),
            });
        }
    }
}

pub fn effects(res: &Resolution) -> Vec<Effect> {
    let (actor, other) = actor_and_other(&res.units);
    let mut out = Vec::new();
    if res.rules == crate::command::System::Mayhem {
        tokens_spent(res, actor, other, &mut out);
    }
    let unit = |id: &str| id.to_string();
    match (res.verb, actor) {
        ("resilience", Some(a)) => {
            let hits = int(res.fields.get("hits"));
            if hits > 0 {
                out.push(Effect::Hits {
                    unit: unit(a),
                    hits,
                });
            }
            match &*res.outcome {
                "forced-retire" => out.push(Effect::Retired { unit: unit(a) }),
                "break" => out.push(Effect::Broken { unit: unit(a) }),
                _ => {}
            }
        }
        ("charge", Some(a)) if res.outcome == "charge" => {
            out.push(Effect::Charged { unit: unit(a) })
        }
        ("move", Some(a)) => out.push(Effect::Moved { unit: unit(a) }),
        ("hits", Some(a)) => {
            out.push(Effect::Hits {
                unit: unit(a),
                hits: int(res.fields.get("hits")),
            });
        }
        ("shoot", Some(a)) if res.outcome != "out-of-range" => {
            out.push(Effect::Shot { unit: unit(a) });
            let hits = int(res.fields.get("hits"));
            if let Some(t) = other {
                out.push(Effect::FiredAt { unit: unit(t) });
                if hits > 0 {
                    out.push(Effect::Hits {
                        unit: unit(t),
                        hits,
                    });
                }
            }
            if hits > 0 {
                out.push(Effect::Inflicted { unit: unit(a) });
            }
        }
        ("melee", Some(a)) => {
            let sides = res.fields.get("sides").and_then(Value::as_array);
            let hits_by = |i: usize| {
                sides
                    .and_then(|s| s.get(i))
                    .map_or(0, |s| int(s.get("hits")))
            };
            out.push(Effect::Melee { unit: unit(a) });
            if let Some(b) = other {
                out.push(Effect::Melee { unit: unit(b) });
                let (a_hits, b_hits) = (hits_by(0), hits_by(1));
                if a_hits > 0 {
                    out.push(Effect::Hits {
                        unit: unit(b),
                        hits: a_hits,
                    });
                    out.push(Effect::Inflicted { unit: unit(a) });
                }
                if b_hits > 0 {
                    out.push(Effect::Hits {
                        unit: unit(a),
                        hits: b_hits,
                    });
                    out.push(Effect::Inflicted { unit: unit(b) });
                }
            }
        }
        ("risk", Some(g)) if res.outcome == "incapacitated" => out.push(Effect::GeneralRemoved {
            general: g.to_string(),
        }),
        ("initiative", _) => {
            let armies = res.fields.get("armies").and_then(Value::as_array);
            let winner = if res.outcome == "b" { 1 } else { 0 };
            if let Some(army) = armies.and_then(|a| a.get(winner)).and_then(Value::as_u64) {
                out.push(Effect::Initiative {
                    army: army as usize,
                });
            }
        }
        ("fire", _) => {
            if let Some(t) = other
                && res.outcome == "killed"
            {
                out.push(Effect::Killed { unit: unit(t) });
            }
        }
        ("fight", Some(a))
            if res.fields.get("result").and_then(Value::as_str) == Some("killed") =>
        {
            match (&*res.outcome, other) {
                ("a-hits", Some(b)) => out.push(Effect::Killed { unit: unit(b) }),
                ("b-hits", _) => out.push(Effect::Killed { unit: unit(a) }),
                _ => {}
            }
        }
        ("attack" | "bombard", _) => {
            // The primary unit of each side takes what the CRT gives it.
            let primary = |side: &str| match side {
                "attacker" => actor,
                _ => other,
            };
            let effects = res.fields.get("effects").and_then(Value::as_array);
            for e in effects.into_iter().flatten() {
                let (Some(side), Some(id)) = (
                    e.get("side").and_then(Value::as_str),
                    e.get("id").and_then(Value::as_str),
                ) else {
                    continue;
                };
                let Some(u) = primary(side) else { continue };
                if id.ends_with("-step-loss") {
                    out.push(Effect::StepLost { unit: unit(u) });
                } else if id.ends_with("-routs") {
                    out.push(Effect::Routed { unit: unit(u) });
                }
            }
        }
        ("courage", Some(a)) => {
            let ran = res
                .fields
                .get("figures")
                .and_then(Value::as_array)
                .is_some_and(|f| {
                    f.iter()
                        .any(|x| x.get("result").and_then(Value::as_str) == Some("runs-off"))
                });
            if ran {
                out.push(Effect::RanOff { unit: unit(a) });
            }
        }
        _ => {}
    }
    out
}
