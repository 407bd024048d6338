//! The dice of a shot: every figure's skill die thrown together, a reroll
//! token on the best missed chance, an impact die for each hit, and what
//! became of each figure.

use serde_json::{Value, json};

use crate::dice::{DiceSource, Rolled};
use crate::error::{CommandError, ErrorKind};
use crate::mayhem::{D6, Tokens};

use super::plan::{Plan, face_for, prefix};
use crate::mayhem::Resolution;

/// What became of one figure in the line of fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fate {
    Miss,
    Check,
    Killed,
    /// Killed, but its save token cancels the death: it checks courage.
    Saved,
    /// Beyond the weapon's range: no die.
    Beyond,
}

/// What the figures in the line of fire took. `shots` (each figure's JSON)
/// and `fates` have one entry per figure when the dice are known, none
/// when `odds` counts them.
pub(super) struct Volley {
    pub(super) shots: Vec<Value>,
    pub(super) fates: Vec<Fate>,
    pub(super) killed: usize,
    /// Courage checks, the saved heroes among them.
    pub(super) checks: usize,
    pub(super) saved: usize,
    pub(super) missed: usize,
    pub(super) beyond: usize,
}

/// Each figure's skill die in figure order, `None` beyond range.
type Faces = Vec<Option<Rolled>>;
/// A face to hit, the figures in range that need it, and their hits.
type Class = (u32, usize, usize);

/// The skill dice of the figures in range, thrown together in figure
/// order (`None` for a figure beyond range), and how many hit. Under
/// `odds` only the count of hits matters, so figures alike (the same face
/// to hit) are one binomial draw — unless each die must be followed.
fn skill_dice(
    plan: &Plan,
    dice: &mut dyn DiceSource,
    each: bool,
) -> Result<(Option<Faces>, Vec<Class>), CommandError> {
    // Each face to hit, with its figures in range and their hits.
    let mut classes: Vec<(u32, usize, usize)> = Vec::new();
    for m in plan.marks.iter().filter(|m| m.in_range) {
        match classes.iter_mut().find(|(h, _, _)| *h == m.hit_on) {
            Some((_, n, _)) => *n += 1,
            None => classes.push((m.hit_on, 1, 0)),
        }
    }
    // The best chances first: a reroll goes to the first class with a miss.
    classes.sort_by_key(|(h, _, _)| *h);
    if dice.enumerator().is_some() && !each {
        for (hit_on, n, hits) in classes.iter_mut() {
            *hits = dice.pool(*n as u32, D6, *hit_on)?.successes as usize;
        }
        return Ok((None, classes));
    }
    let mut faces = Vec::with_capacity(plan.marks.len());
    for m in &plan.marks {
        if !m.in_range {
            faces.push(None);
            continue;
        }
        let die = dice.roll_against(D6, &[m.hit_on])?;
        if die.face >= m.hit_on
            && let Some(c) = classes.iter_mut().find(|(h, _, _)| *h == m.hit_on)
        {
            c.2 += 1;
        }
        faces.push(Some(die));
    }
    Ok((Some(faces), classes))
}

/// A reroll token spent on a skill die: which figure's, its first face and
/// the face thrown again.
type Reroll = (usize, Rolled, Rolled);

/// Every figure's skill die, thrown together; then an impact die for each
/// hit. Only the counts decide the outcome, so under `odds` the skill dice
/// are a binomial draw for each score to hit and the impact dice another —
/// unless heroes with save tokens stand among several figures, when which
/// figure is hit counts and each die is followed on its own.
pub(super) fn volley(
    res: &mut Resolution,
    plan: &Plan,
    dice: &mut dyn DiceSource,
    shooter: &mut Tokens,
    target: &mut Tokens,
) -> Result<Volley, CommandError> {
    let figures = plan.figures;
    let kill_on = face_for(plan.kill_at, plan.impact);
    let each = figures > 1 && plan.marks.iter().any(|m| m.saves > 0);
    let (mut skill, mut classes) = skill_dice(plan, dice, each)?;
    let in_range: usize = classes.iter().map(|(_, n, _)| n).sum();
    let mut hits: usize = classes.iter().map(|(_, _, h)| h).sum();
    let mut reroll = None;
    if hits < in_range && shooter.spend_reroll() {
        let (hit, spent) = reroll_missed(plan, dice, &mut skill, &mut classes)?;
        hits += usize::from(hit);
        reroll = spent;
    }
    let impact: Vec<Rolled>;
    let mut killed;
    if each {
        impact = (0..hits)
            .map(|_| dice.roll_against(D6, &[kill_on]))
            .collect::<Result<Vec<_>, _>>()?;
        killed = impact.iter().filter(|d| d.face >= kill_on).count();
    } else {
        let pool = dice.pool(hits as u32, D6, kill_on)?;
        killed = pool.successes as usize;
        impact = pool.dice;
    }
    let beyond = figures - in_range;
    // Which figure each impact die is for, when known.
    let mut fates = Vec::new();
    let mut saved = 0;
    if let Some(faces) = skill.as_ref().filter(|_| impact.len() == hits) {
        fates = fates_of(plan, faces, &impact, kill_on, target);
        saved = fates.iter().filter(|f| **f == Fate::Saved).count();
        killed -= saved.min(killed);
    } else if killed > 0 && target.spend_save() {
        // One figure (a lone hero), counted rather than followed.
        killed -= 1;
        saved = 1;
    }
    let (checks, missed) = (hits - killed, in_range - hits);
    // Under `odds` only the counts are read: no account of every figure.
    let shots = match skill.filter(|_| !res.quiet) {
        Some(skill) => {
            let mut shots = skill_rows(res, plan, &skill, reroll);
            impact_rows(res, plan, &impact, &fates, &mut shots);
            shots.into_iter().map(|(_, json)| json).collect()
        }
        None => Vec::new(),
    };
    Ok(Volley {
        shots,
        fates,
        killed,
        checks,
        saved,
        missed,
        beyond,
    })
}

/// A hero's reroll token: the missed die with the best chance (the first
/// such in figure order) is thrown again. Whether it hits, and the die
/// rerolled when each is followed.
fn reroll_missed(
    plan: &Plan,
    dice: &mut dyn DiceSource,
    skill: &mut Option<Faces>,
    classes: &mut [Class],
) -> Result<(bool, Option<Reroll>), CommandError> {
    let Some(class) = classes.iter_mut().find(|(_, n, h)| h < n) else {
        return Err(CommandError::refused(
            ErrorKind::Internal,
            "a missed die was lost",
        ));
    };
    let hit_on = class.0;
    let again = if skill.is_some() {
        dice.roll_against(D6, &[hit_on])?
    } else {
        let pool = dice.pool(1, D6, hit_on)?;
        pool.dice.first().copied().unwrap_or(Rolled {
            sides: D6,
            face: if pool.successes > 0 { hit_on } else { 1 },
            entered: false,
        })
    };
    let hit = again.face >= hit_on;
    if hit {
        class.2 += 1;
    }
    let mut reroll = None;
    if let Some(faces) = skill.as_mut() {
        let missed = plan.marks.iter().zip(faces.iter()).position(|(m, d)| {
            m.in_range && m.hit_on == hit_on && d.is_some_and(|d| d.face < hit_on)
        });
        if let Some(at) = missed
            && let Some(Some(first)) = faces.get(at).copied()
        {
            reroll = Some((at, first, again));
            faces[at] = Some(again);
        }
    }
    Ok((hit, reroll))
}

/// What became of each figure, its skill die and impact die followed: a
/// save token among several figures cancels any death, a lone hero's only
/// its own.
fn fates_of(
    plan: &Plan,
    faces: &Faces,
    impact: &[Rolled],
    kill_on: u32,
    target: &mut Tokens,
) -> Vec<Fate> {
    let mut fates = Vec::new();
    let mut impacts = impact.iter();
    for (m, die) in plan.marks.iter().zip(faces) {
        let Some(die) = die else {
            fates.push(Fate::Beyond);
            continue;
        };
        if die.face < m.hit_on {
            fates.push(Fate::Miss);
            continue;
        }
        let kills = impacts.next().is_some_and(|d| d.face >= kill_on);
        let saves = if plan.figures > 1 {
            m.saves > 0
        } else {
            kills && target.spend_save()
        };
        fates.push(match (kills, saves) {
            (true, true) => Fate::Saved,
            (true, false) => Fate::Killed,
            _ => Fate::Check,
        });
    }
    fates
}

/// "figure 2 (warrior-2): " when explaining; `odds` reads no labels.
fn label(explain: bool, plan: &Plan, i: usize) -> String {
    if explain {
        prefix(plan, i)
    } else {
        String::new()
    }
}

/// The skill dice shown in the order thrown, with each figure's JSON and
/// whether it hit.
fn skill_rows(
    res: &mut Resolution,
    plan: &Plan,
    skill: &Faces,
    reroll: Option<Reroll>,
) -> Vec<(bool, Value)> {
    let figures = plan.figures;
    let uniform = !plan.each_own;
    let mut base_rows = plan.skill_rows.iter();
    let mut shots = Vec::with_capacity(skill.len());
    let mut first_die = true;
    // `odds` runs this once a way the dice can fall: what only explains
    // (labels, the JSON of each shot) is left out there.
    let explain = !res.quiet;
    for (i, (m, die)) in plan.marks.iter().zip(skill).enumerate() {
        let prefix = label(explain, plan, i);
        let mut j = if explain {
            json!({"outcome": "miss"})
        } else {
            Value::Null
        };
        if explain && plan.each_own {
            j["distance_in"] = json!(m.distance);
            j["cover"] = json!(m.cover.keyword);
        }
        if let Some(id) = m.id.as_deref().filter(|_| explain && figures > 1) {
            j["figure"] = json!(id);
        }
        let Some(die) = die else {
            if explain {
                j["outcome"] = json!("out-of-range");
            }
            shots.push((false, j));
            continue;
        };
        let first = match reroll {
            Some((at, first, _)) if at == i => first,
            _ => *die,
        };
        res.die(format_args!("{prefix}skill die"), first);
        // The range's −1 with the firer's rows on the first die when every
        // figure is at one distance; on each die it applies to otherwise.
        if m.over_half && (!uniform || first_die) {
            res.modifier(&plan.over_half_row, plan.over_half_mod);
        }
        if first_die {
            for (label, v) in base_rows.by_ref() {
                res.modifier(label, *v);
            }
        }
        first_die = false;
        let rerolled = reroll.is_some_and(|(at, _, _)| at == i);
        if rerolled {
            res.die(format_args!("{prefix}skill die, reroll token spent"), *die);
        }
        let modified = i64::from(die.face) + plan.skill(m);
        res.row(format_args!("{prefix}skill score"), modified);
        let hit = die.face >= m.hit_on;
        if !hit {
            res.row(format_args!("{prefix}result"), "miss");
        }
        if explain {
            let mut skill_json = json!({"needed": m.cover.needs});
            if rerolled {
                skill_json["rerolled_from"] = json!(first.face);
            }
            skill_json["die"] = json!(die.face);
            skill_json["modified"] = json!(modified);
            j["skill"] = skill_json;
        }
        shots.push((hit, j));
    }
    shots
}

/// The impact die of each hit, after the skill dice, and its result.
fn impact_rows(
    res: &mut Resolution,
    plan: &Plan,
    impact: &[Rolled],
    fates: &[Fate],
    shots: &mut [(bool, Value)],
) {
    let explain = !res.quiet;
    let mut impact_rows = plan.impact_rows.iter();
    let kill_at = plan.kill_at;
    let mut impacts = impact.iter();
    for (i, (_, json)) in shots.iter_mut().enumerate().filter(|(_, (hit, _))| *hit) {
        let Some(&impact_die) = impacts.next() else {
            break;
        };
        let prefix = label(explain, plan, i);
        res.die(format_args!("{prefix}impact die"), impact_die);
        for (label, v) in impact_rows.by_ref() {
            res.modifier(label, *v);
        }
        let score = i64::from(impact_die.face) + plan.impact;
        res.row(format_args!("{prefix}impact score"), score);
        if explain {
            json["impact"] = json!({"die": impact_die.face, "modified": score});
        }
        let mut outcome = if score >= kill_at {
            "killed"
        } else {
            "courage-check"
        };
        if fates.get(i) == Some(&Fate::Saved) {
            res.row(format_args!("{prefix}save token spent"), "death cancelled");
            if explain {
                json["save_spent"] = json!(true);
            }
            outcome = "courage-check";
        }
        res.row(
            format_args!("{prefix}result"),
            if outcome == "killed" {
                format!("killed ({kill_at}+)")
            } else {
                "courage check".into()
            },
        );
        if explain {
            json["outcome"] = json!(outcome);
        }
    }
}
