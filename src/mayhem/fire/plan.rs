//! The shot worked out from the words before the first die: the weapon and
//! its state, each `at` and its figures, the modifier rows, and every
//! figure's distance, cover and face to hit.

use crate::answer::resolution::Target;
use crate::bind::Bound;
use crate::catalog::{Input, Named};
use crate::command::{ClauseKind, Span};
use crate::error::{BindError, CommandError, ErrorKind};
use crate::mayhem::game::{SHOT, SMOKE, UNLOADED, bonus_word};
use crate::mayhem::{
    COMMANDER, Cover, D6, INCENDIARY, MayhemTables, Tokens, Weapon, named_figures, one_figure,
};

use super::{COVER, LEADER, MAX_FIGURES, WEAPON};

#[derive(Debug, Clone)]
pub(super) struct Mark {
    /// The figure of the game it is, when named.
    pub(super) id: Option<String>,
    /// Where its result falls, when named.
    pub(super) target: Option<Target>,
    /// Its save tokens left.
    pub(super) saves: i64,
    pub(super) leader: bool,
    pub(super) commander: bool,
    pub(super) distance: f64,
    pub(super) cover: Cover,
    pub(super) in_range: bool,
    pub(super) over_half: bool,
    /// The lowest skill die face that hits it.
    pub(super) hit_on: u32,
}

/// Everything the words say, worked out before the first die: `odds` runs
/// the resolver once for every way the dice fall.
pub(super) struct Plan {
    /// The resolution's heading, written once: `odds` resolves a plan
    /// once per way the dice can fall.
    pub(super) heading: String,
    pub(super) weapon: Weapon,
    /// The one distance and cover of every figure, or of the first when
    /// they differ (`each_own`).
    pub(super) distance: f64,
    pub(super) cover: Cover,
    pub(super) figures: usize,
    /// Several `at`s: the figures have distances and covers of their own.
    pub(super) each_own: bool,
    /// The impact score that kills.
    pub(super) kill_at: i64,
    /// The firer's skill modifier (mounted, bonuses), without range.
    pub(super) base_skill: i64,
    pub(super) over_half_mod: i64,
    pub(super) impact: i64,
    /// The firer's skill rows (mounted, bonuses); the range's.
    pub(super) skill_rows: Vec<(String, i64)>,
    pub(super) over_half_row: String,
    pub(super) impact_rows: Vec<(String, i64)>,
    pub(super) shooter: Tokens,
    /// One figure shot at: its tokens, typed or its own.
    pub(super) lone: Tokens,
    pub(super) lone_hero: bool,
    pub(super) marks: Vec<Mark>,
    /// Figures named after `at`, and whether all are named.
    pub(super) named: usize,
    pub(super) notes: Vec<String>,
}

pub(super) fn face_for(score: i64, bonus: i64) -> u32 {
    (score - bonus).clamp(1, i64::from(D6) + 1) as u32
}

/// The figures of one `at` (or of the line when none is given).
struct Clause<'a> {
    index: Option<usize>,
    words: Option<&'a Bound>,
    named: Vec<&'a Named>,
    figures: usize,
}

/// An explaining row's label: under `odds` only the numbers are read.
fn shown(explain: bool, text: std::fmt::Arguments) -> String {
    if explain {
        text.to_string()
    } else {
        String::new()
    }
}

/// The firer's modifier rows for each die, and notes on bonuses it brings
/// that this weapon does not use.
struct Rows {
    skill: Vec<(String, i64)>,
    impact: Vec<(String, i64)>,
    notes: Vec<String>,
}

impl Plan {
    pub(super) fn new(tables: &MayhemTables, input: &Input) -> Result<Plan, CommandError> {
        let f = &tables.fire;
        let words = &input.words;
        let weapon = firing(tables, input)?;
        let (at, each_own) = targets(input, weapon)?;
        let clauses = clauses(input, &at, each_own)?;
        let figures: usize = clauses.iter().map(|c| c.figures).sum();
        if figures > MAX_FIGURES as usize {
            return Err(input.missing(format!(
                "one shot rolls against at most {MAX_FIGURES} figures"
            )));
        }
        let rows = rows(tables, input, weapon)?;
        let base_skill: i64 = rows.skill.iter().map(|(_, v)| v).sum();
        let marks = marks(tables, input, weapon, &clauses, each_own, base_skill)?;
        let first = marks
            .first()
            .cloned()
            .ok_or_else(|| input.missing("no figure to fire at"))?;
        let target = at.first().map(|(_, b)| *b).cloned().unwrap_or_default();
        let heading = if each_own {
            format!("missile fire, {} at {figures} figures", weapon.keyword)
        } else {
            format!(
                "missile fire, {} at {}",
                weapon.keyword,
                Inches(first.distance)
            )
        };
        Ok(Plan {
            heading,
            weapon: weapon.clone(),
            distance: first.distance,
            cover: first.cover.clone(),
            figures,
            each_own,
            kill_at: f.kill_at,
            base_skill,
            over_half_mod: f.over_half_range,
            impact: rows.impact.iter().map(|(_, v)| v).sum(),
            skill_rows: rows.skill,
            over_half_row: shown(
                input.explain,
                format_args!("skill die {}", f.over_half_range_row),
            ),
            impact_rows: rows.impact,
            shooter: Tokens::from_bound(words),
            // Several figures bring their tokens one by one (`marks`).
            lone: if figures > 1 {
                Tokens::default()
            } else {
                Tokens::from_bound(&target)
            },
            lone_hero: figures == 1 && target.has("hero"),
            named: clauses.iter().map(|c| c.named.len()).sum(),
            marks,
            notes: rows.notes,
        })
    }

    /// A figure's skill modifier: the firer's, and its range's.
    pub(super) fn skill(&self, m: &Mark) -> i64 {
        self.base_skill + if m.over_half { self.over_half_mod } else { 0 }
    }
}

/// The one figure that fires and its weapon, refused when it may not shoot.
fn firing<'t>(tables: &'t MayhemTables, input: &Input) -> Result<&'t Weapon, CommandError> {
    let f = &tables.fire;
    let words = &input.words;
    crate::mayhem::named_once(input)?;
    let firers = named_figures(input, None);
    one_figure(&firers, "the firing side", "one figure fires at a time")?;
    if words.has(INCENDIARY) {
        let who = input
            .named_on(None)
            .next()
            .filter(|_| words.implied(INCENDIARY));
        let span = who.map_or(words.span_of(INCENDIARY).unwrap_or_default(), |n| n.span);
        return Err(crate::mayhem::incendiary_refused(
            tables,
            span,
            who.map(|n| n.facts.id.as_str()),
            "shoot",
        ));
    }
    let (weapon_id, _) = words.choice(WEAPON).ok_or_else(|| {
        let names: Vec<&str> = f.weapon.iter().map(|w| w.keyword.as_str()).collect();
        input.missing(format!(
            "`fire` needs a weapon: one of {}",
            names.join(", ")
        ))
    })?;
    let Some(weapon) = f.weapon.iter().find(|w| w.keyword == weapon_id) else {
        return Err(input.missing(format!("no weapon row for `{weapon_id}`")));
    };
    refuse_unloaded(tables, input, weapon)?;
    Ok(weapon)
}

/// Each `at` clause's place on the line and its words.
type At<'i> = Vec<(usize, &'i Bound)>;

/// The `at` clauses, refused beyond the first (and `figures=N`) unless
/// the weapon rolls against several figures; whether each has its own.
fn targets<'i>(input: &'i Input, weapon: &Weapon) -> Result<(At<'i>, bool), CommandError> {
    let words = &input.words;
    let several = weapon.several.is_some();
    let at: At = input
        .clauses
        .iter()
        .enumerate()
        .filter(|(_, (k, _, _))| *k == ClauseKind::At)
        .map(|(i, (_, _, b))| (i, b))
        .collect();
    if !several && let Some((_, span, _)) = input.clauses.get(1) {
        return Err(BindError::NotHere {
            kind: ErrorKind::ExtraWord,
            span: *span,
            text: "at".into(),
            why: format!(
                "is a second target, and a {} shot is at one figure (only canister and roundshot roll against several)",
                weapon.keyword
            ),
        }
        .into());
    }
    let not_several = |span: Span, word: &str| -> CommandError {
        BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span,
            text: word.into(),
            why: format!(
                "applies only to canister and roundshot; a {} shot is at one figure",
                weapon.keyword
            ),
        }
        .into()
    };
    if let Some(span) = words.span_of("figures")
        && !several
    {
        return Err(not_several(span, "figures"));
    }
    if !several {
        if let Some(span) = at.first().and_then(|(_, b)| b.span_of("figures")) {
            return Err(not_several(span, "figures"));
        }
        one_figure(
            &named_figures(input, Some(0)),
            "the target's side",
            &format!(
                "a {} shot is at one figure (only canister and roundshot roll against several)",
                weapon.keyword
            ),
        )?;
    }
    let each_own = at.len() > 1;
    if each_own && let Some(span) = words.span_of("figures") {
        return Err(BindError::NotHere {
            kind: ErrorKind::MisplacedWord,
            span,
            text: "figures".into(),
            why: "counts the figures of one `at`; with several, give each `at` its own `figures=N` (or name its figures)".into(),
        }
        .into());
    }
    Ok((at, each_own))
}

/// Each `at` with its figures: named ones, then `figures=N` more.
fn clauses<'i>(
    input: &'i Input,
    at: &[(usize, &'i Bound)],
    each_own: bool,
) -> Result<Vec<Clause<'i>>, CommandError> {
    let typed_figures = input.words.value("figures");
    let mut clauses: Vec<Clause> = Vec::new();
    if at.is_empty() {
        clauses.push(Clause {
            index: None,
            words: None,
            named: Vec::new(),
            figures: typed_figures.map_or(1, |n| usize::try_from(n).unwrap_or(1)),
        });
    }
    for (i, b) in at {
        let named: Vec<&Named> = input.named_on(Some(*i)).collect();
        let given = b
            .value("figures")
            .or(if each_own { None } else { typed_figures });
        // Naming the figures counts them; `figures=N` may say there are
        // more than are named (figures of no list), never fewer.
        let figures = match given {
            Some(n) => {
                let n = usize::try_from(n).unwrap_or(1);
                if let Some(extra) = named.get(n) {
                    return Err(BindError::NotHere {
                        kind: ErrorKind::Conflict,
                        span: extra.span,
                        text: extra.facts.id.clone(),
                        why: format!(
                            "is figure {} named, but `figures={n}` rolls against {n}: name at most {n} (or leave out `figures=N`, which is then the number named)",
                            n + 1
                        ),
                    }
                    .into());
                }
                n
            }
            None => named.len().max(1),
        };
        clauses.push(Clause {
            index: Some(*i),
            words: Some(b),
            named,
            figures,
        });
    }
    Ok(clauses)
}

/// The skill and impact rows the firer brings: mounted, the weapon's
/// impact, the hero's bonuses. A bonus with another weapon is refused when
/// typed, and noted when a figure brings it.
fn rows(tables: &MayhemTables, input: &Input, weapon: &Weapon) -> Result<Rows, CommandError> {
    let f = &tables.fire;
    let words = &input.words;
    let explain = input.explain;
    let label = |text: std::fmt::Arguments| shown(explain, text);
    let mut skill_rows = Vec::new();
    if words.has("mounted") {
        skill_rows.push((
            label(format_args!("skill die {}", f.mounted_row)),
            f.mounted,
        ));
    }
    let mut impact_rows = Vec::new();
    if weapon.impact != 0 {
        let text = match &weapon.impact_row {
            Some(row) => label(format_args!("impact die {row}")),
            None => label(format_args!("impact die {} bonus", weapon.keyword)),
        };
        impact_rows.push((text, weapon.impact));
    }
    let mut notes = Vec::new();
    for (die, rows) in [("skill", &mut skill_rows), ("impact", &mut impact_rows)] {
        if let Some(n) = words.value(die).filter(|n| *n != 0) {
            rows.push((label(format_args!("{die} die: hero's bonus")), n));
        }
        let own = bonus_word(&weapon.keyword, die);
        if let Some(n) = words.value(&own).filter(|n| *n != 0) {
            rows.push((
                label(format_args!(
                    "{die} die: hero's bonus with the {}",
                    weapon.keyword
                )),
                n,
            ));
        }
        // A bonus with another weapon: the rule gives bonuses "with
        // specific weapons".
        for w in f.weapon.iter().filter(|w| w.keyword != weapon.keyword) {
            let other = bonus_word(&w.keyword, die);
            let Some(n) = words.value(&other).filter(|n| *n != 0) else {
                continue;
            };
            if !words.implied(&other) {
                return Err(BindError::NotHere {
                    kind: ErrorKind::Conflict,
                    span: words.span_of(&other).unwrap_or_default(),
                    text: other.clone(),
                    why: format!(
                        "is a bonus with a {}, and this shot is with a {} (give `{die}+{n}` for a bonus with any weapon)",
                        w.keyword, weapon.keyword
                    ),
                }
                .into());
            }
            notes.push(label(format_args!(
                "The firer's bonus of +{n} to the {die} die is with a {} only: not used with a {}.",
                w.keyword, weapon.keyword
            )));
        }
    }
    Ok(Rows {
        skill: skill_rows,
        impact: impact_rows,
        notes,
    })
}

/// Each figure's distance and cover (its `at`'s, or the firer's), its
/// tokens and facts, and the face that hits it.
fn marks(
    tables: &MayhemTables,
    input: &Input,
    weapon: &Weapon,
    clauses: &[Clause],
    each_own: bool,
    base_skill: i64,
) -> Result<Vec<Mark>, CommandError> {
    let f = &tables.fire;
    let words = &input.words;
    let mut marks = Vec::new();
    let half = weapon.range as f64 / 2.0;
    for c in clauses {
        let empty = Bound::default();
        let b = c.words.unwrap_or(&empty);
        let distance = match (words.distance, b.distance) {
            (Some(_), Some((_, _, span))) => {
                return Err(BindError::NotHere {
                    kind: ErrorKind::ExtraWord,
                    span,
                    text: input
                        .line
                        .get(span.start..span.end)
                        .unwrap_or("")
                        .to_string(),
                    why:
                        "is a second distance: give the distance before `at` or after it, not both"
                            .into(),
                }
                .into());
            }
            (Some((d, _, _)), None) | (None, Some((d, _, _))) => d,
            (None, None) => {
                let whose = match c.named.first() {
                    Some(n) if each_own => format!(" to {}", n.facts.id),
                    _ => " to the target".to_string(),
                };
                return Err(input.missing(format!(
                    "`fire {}` needs the distance{whose} in inches, like `12\"` or `12in`{}",
                    weapon.keyword,
                    if each_own { " (after its `at`)" } else { "" }
                )));
            }
        };
        let cover = pick_cover(tables, input, b)?.clone();
        if c.figures > 1
            && let Some(span) = b.span_of("saves").filter(|_| !b.implied("saves"))
        {
            return Err(BindError::NotHere {
                kind: ErrorKind::Conflict,
                span,
                text: "saves".into(),
                why: "belongs to one hero: resolve the hero's own shot without `figures=N`, or name the figures (each named figure brings its own tokens)".into(),
            }
            .into());
        }
        let over_half = distance > half;
        let skill = base_skill + if over_half { f.over_half_range } else { 0 };
        for k in 0..c.figures {
            let named = c.named.get(k);
            let has = |word: &str| match named {
                Some(n) if c.figures > 1 => n.facts.facts.iter().any(|x| x.word == word),
                _ => b.has(word),
            };
            let saves = match named {
                Some(n) if c.figures > 1 => n.facts.value("saves").unwrap_or(0),
                _ => b.value("saves").unwrap_or(0),
            };
            marks.push(Mark {
                id: named.map(|n| n.facts.id.clone()),
                target: named.and(c.index).map(|i| Target::clause(i, k)),
                saves,
                leader: has(LEADER),
                commander: has(COMMANDER),
                distance,
                cover: cover.clone(),
                in_range: distance <= weapon.range as f64,
                over_half,
                hit_on: face_for(cover.needs, skill),
            });
        }
    }
    Ok(marks)
}

/// "A gunpowder weapon becomes unloaded … and can be reloaded"; a gun
/// fires again once its crew has removed its smoke puffs.
fn refuse_unloaded(
    tables: &MayhemTables,
    input: &Input,
    weapon: &Weapon,
) -> Result<(), CommandError> {
    let words = &input.words;
    if weapon.gunpowder && !weapon.gun && words.has(UNLOADED) {
        return Err(crate::mayhem::fact_refused(
            input,
            UNLOADED,
            format_args!(
                "has an unloaded {}: it fired and has not reloaded (\"{}\") — `reload` it in a turn it does not move",
                weapon.keyword,
                tables.fire.unloaded_row.trim_end_matches('.')
            ),
        ));
    }
    if !weapon.gunpowder && words.has(SHOT) {
        return Err(crate::mayhem::fact_refused(
            input,
            SHOT,
            format_args!(
                "has shot with its {} this turn: \"{}\" — it shoots again next turn (`next-turn`); `undo` takes back the first shot",
                weapon.keyword,
                tables.fire.shoot_once_row.trim_end_matches('.')
            ),
        ));
    }
    if weapon.gun
        && let Some(puffs) = words.value(SMOKE).filter(|n| *n > 0)
    {
        return Err(crate::mayhem::fact_refused(
            input,
            SMOKE,
            format_args!(
                "has {puffs} smoke puff(s) on its gun, which fires again when its crew has removed them (\"{}\") — `reload` with its crew",
                tables.reload.row
            ),
        ));
    }
    Ok(())
}

/// "figure 2 (warrior-2): ", for rows about one of several figures.
pub(super) fn prefix(plan: &Plan, i: usize) -> String {
    if plan.figures > 1 {
        match plan.marks.get(i).and_then(|m| m.id.as_deref()) {
            Some(id) => format!("figure {} ({id}): ", i + 1),
            None => format!("figure {}: ", i + 1),
        }
    } else {
        String::new()
    }
}

/// The cover from the firer's words or the target's, not both.
fn pick_cover<'t>(
    tables: &'t MayhemTables,
    input: &Input,
    target: &Bound,
) -> Result<&'t Cover, CommandError> {
    let covers = &tables.fire.cover;
    let chosen = match (input.words.choice(COVER), target.choice(COVER)) {
        (Some((a, _)), Some((b, span))) => {
            return Err(BindError::Conflict {
                span,
                first: a.to_string(),
                second: b.to_string(),
                group: COVER.into(),
            }
            .into());
        }
        (Some((c, _)), None) | (None, Some((c, _))) => covers.iter().find(|r| r.keyword == c),
        (None, None) => covers.iter().find(|r| r.default),
    };
    chosen.ok_or_else(|| input.missing("the fire table has no cover row for this target"))
}

/// A distance in inches, written out only when shown.
pub(super) struct Inches(pub(super) f64);

impl std::fmt::Display for Inches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}\"", self.0)
    }
}
