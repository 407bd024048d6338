//! Missile fire: range check, skill die against the cover's score, impact
//! die (6 or more kills, otherwise a courage check). Canister and roundshot
//! roll against each figure in their path (`figures=N`, or the figures
//! named after `at`, each shot falling on its own figure in the order
//! named); each `at` may give its figures their own distance and cover.
//! A gunpowder weapon is unloaded once it fires, and a gun places smoke
//! puffs (`reload`).

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::{LOADED, MayhemEffect, SHOT, SMOKE, UNLOADED, bonus_word};
use super::{Resolution, VerbDoc};
use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, Named};
use crate::command::{ClauseKind, Span, Unit};
use crate::dice::{DiceSource, Rolled};
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::Tone;

use super::{
    COMMANDER, Counted, Cover, D6, INCENDIARY, MayhemTables, Tokens, Weapon, named_figures, needs,
    one_figure, token_words,
};

const WEAPON: &str = "a weapon";
const COVER: &str = "the target's cover";
const WEAPON_STATE: &str = "the weapon's state";
const LEADER: &str = super::game::LEADER;
/// Most figures one gun's shot may be rolled against on a line.
const MAX_FIGURES: i64 = 30;
/// Largest hero bonus to a skill or impact die.
const MAX_BONUS: i64 = 6;
/// Most smoke puffs a gun may carry on a line.
const MAX_PUFFS: i64 = 99;
/// A typed `skill+N` or `impact+N` stands for the hero's bonus, so it
/// displaces the bonus a named figure brings with its weapon.
const SKILL_SLOT: &[&str] = &[
    "skill",
    "pistol-skill",
    "musket-skill",
    "bow-skill",
    "rifle-skill",
    "canister-skill",
    "roundshot-skill",
];
const IMPACT_SLOT: &[&str] = &[
    "impact",
    "pistol-impact",
    "musket-impact",
    "bow-impact",
    "rifle-impact",
    "canister-impact",
    "roundshot-impact",
];

fn cover_words(mut vocab: Vocab, tables: &MayhemTables) -> Vocab {
    for c in &tables.fire.cover {
        let default = if c.default { " (the default)" } else { "" };
        vocab = vocab.choice(
            COVER,
            &c.keyword,
            format!("{}: skill die needs {}{default}", c.row, needs(c.needs)),
        );
    }
    vocab
}

/// The firer's words.
fn firer_vocab(tables: &MayhemTables) -> Vocab {
    let f = &tables.fire;
    let mut vocab = Vocab::new().with_distance(Unit::Inches);
    for w in &f.weapon {
        let impact = match &w.impact_row {
            Some(row) => format!(", impact die {row}"),
            None => String::new(),
        };
        let several = match &w.several {
            Some(s) => format!("; {s} (`figures=N`)"),
            None => String::new(),
        };
        vocab = vocab.choice(
            WEAPON,
            &w.keyword,
            format!("{} {}\"{impact}{several}", w.row, w.range),
        );
    }
    vocab = cover_words(vocab, tables)
        .flag("mounted", format!("skill die {}", f.mounted_row))
        .number(
            "skill",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the skill die (`skill+2`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            "impact",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the impact die (`impact+1`): {}",
                tables.heroes.bonus
            ),
        );
    for w in &f.weapon {
        for die in ["skill", "impact"] {
            vocab = vocab.number(
                &bonus_word(&w.keyword, die),
                0,
                MAX_BONUS,
                format!(
                    "hero's bonus to the {die} die with a {} only (an army list's `bonus.{}`); unused with another weapon",
                    w.keyword, w.keyword
                ),
            );
        }
    }
    vocab = vocab
        .number(
            "figures",
            1,
            MAX_FIGURES,
            "canister or roundshot: the figures in the cone or along the flight path; one skill die each, thrown together, then an impact die for each hit (naming the figures after `at` counts them)",
        )
        .choice(
            WEAPON_STATE,
            UNLOADED,
            format!(
                "the firer's gunpowder weapon is unloaded (a figure in a game brings it once it has fired): it cannot fire until reloaded (`reload`) — {}",
                f.unloaded_row
            ),
        )
        .choice(
            WEAPON_STATE,
            LOADED,
            "the firer's weapon is loaded (taken when neither is said): typed, it stands in for the `unloaded` a figure in a game brings (reloaded at the table)",
        )
        .flag(
            SHOT,
            format!(
                "the firer has shot this turn with a weapon that is never unloaded, a bow (a figure in a game brings it): it shoots again next turn — {}",
                f.shoot_once_row
            ),
        )
        .number(
            SMOKE,
            0,
            MAX_PUFFS,
            format!(
                "smoke puffs on the gun (a gun in a game brings its own): it cannot fire until its crew has removed them all — {}",
                tables.reload.row
            ),
        )
        .flag(
            INCENDIARY,
            format!(
                "the firer carries incendiary materials (a figure in a game brings it): it may not shoot — {}",
                f.incendiary_row
            ),
        )
        .slot(SKILL_SLOT)
        .slot(IMPACT_SLOT);
    token_words(
        vocab,
        &tables.heroes,
        "one is spent automatically to reroll a skill die that misses (the reroll stands; among several figures, the missed die with the best chance)",
    )
}

fn target_vocab(tables: &MayhemTables) -> Vocab {
    let at = Vocab::new()
        .with_distance(Unit::Inches)
        .flag("hero", "the target is a hero")
        .flag(
            LEADER,
            "the target leads a company or warband: if it is killed, the company or warband checks courage (a figure in a game brings it)",
        )
        .flag(
            COMMANDER,
            format!(
                "the target is the commander of its contingent: {} (a figure in a game brings it)",
                tables.courage.commander.row
            ),
        )
        .number(
            "figures",
            1,
            MAX_FIGURES,
            "canister or roundshot: the figures at this `at`'s distance and cover (naming them counts them)",
        );
    cover_words(at, tables).number(
        "saves",
        0,
        super::MAX_TOKENS,
        format!(
            "target hero's {}: one is spent automatically to cancel a death (the hero then takes a courage check, as for a hit without being killed)",
            tables.heroes.save
        ),
    )
}

pub fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let vocab = firer_vocab(tables);
    let mut at = target_vocab(tables);
    at.add(
        "DISTANCE",
        crate::bind::Kind::Flag,
        "canister or roundshot: this `at`'s figures are at their own distance (`at warrior-1 12\" at warrior-2 30\" soft`); a shot at one figure may give its distance here instead of before `at`",
    );
    VerbDoc::new(
        Some(super::MAYHEM),
        "fire",
        "fire WEAPON DISTANCE [open|soft|hard] [mounted] [skill+N] [impact+N] [figures=N] [rerolls=N] [at [hero] [saves=N]] | fire canister|roundshot at [DISTANCE] [COVER] [figures=N] at …",
        "Missile fire: range, skill die (-1 over half range, -1 mounted) against the cover's score, impact die (6+ kills, else a courage check); the skill and impact dice may be entered together. A gunpowder weapon is then unloaded; a gun places smoke puffs.",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .clause(ClauseKind::At, at, MAX_FIGURES as usize)
    .examples(&[
        "fire musket 10\"",
        "fire rifle 20in soft mounted rolled 6 5",
        "fire canister 30\" figures=3",
        "fire musket 12\" at hero saves=1 rolled 5 6",
        "fire canister at 10\" at 30\" soft figures=2",
    ])
}

/// One figure in the line of fire.
#[derive(Debug, Clone)]
struct Mark {
    /// The figure of the game it is, when named.
    id: Option<String>,
    /// Where its result falls, when named.
    target: Option<Target>,
    /// Its save tokens left.
    saves: i64,
    leader: bool,
    commander: bool,
    distance: f64,
    cover: Cover,
    in_range: bool,
    over_half: bool,
    /// The lowest skill die face that hits it.
    hit_on: u32,
}

/// Everything the words say, worked out before the first die: `odds` runs
/// the resolver once for every way the dice fall.
struct Plan {
    /// The resolution's heading, written once: `odds` resolves a plan
    /// once per way the dice can fall.
    heading: String,
    weapon: Weapon,
    /// The one distance and cover of every figure, or of the first when
    /// they differ (`each_own`).
    distance: f64,
    cover: Cover,
    figures: usize,
    /// Several `at`s: the figures have distances and covers of their own.
    each_own: bool,
    /// The impact score that kills.
    kill_at: i64,
    /// The firer's skill modifier (mounted, bonuses), without range.
    base_skill: i64,
    over_half_mod: i64,
    impact: i64,
    /// The firer's skill rows (mounted, bonuses); the range's.
    skill_rows: Vec<(String, i64)>,
    over_half_row: String,
    impact_rows: Vec<(String, i64)>,
    shooter: Tokens,
    /// One figure shot at: its tokens, typed or its own.
    lone: Tokens,
    lone_hero: bool,
    marks: Vec<Mark>,
    /// Figures named after `at`, and whether all are named.
    named: usize,
    notes: Vec<String>,
}

fn face_for(score: i64, bonus: i64) -> u32 {
    (score - bonus).clamp(1, i64::from(D6) + 1) as u32
}

/// The figures of one `at` (or of the line when none is given).
struct Clause<'a> {
    index: Option<usize>,
    words: Option<&'a Bound>,
    named: Vec<&'a Named>,
    figures: usize,
}

impl Plan {
    fn new(tables: &MayhemTables, input: &Input) -> Result<Plan, CommandError> {
        let f = &tables.fire;
        let words = &input.words;
        super::named_once(input)?;
        let firers = named_figures(input, None);
        one_figure(&firers, "the firing side", "one figure fires at a time")?;
        if words.has(INCENDIARY) {
            let who = input
                .named_on(None)
                .next()
                .filter(|_| words.implied(INCENDIARY));
            let span = who.map_or(words.span_of(INCENDIARY).unwrap_or_default(), |n| n.span);
            return Err(super::incendiary_refused(
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
        let several = weapon.several.is_some();
        let at: Vec<(usize, &Bound)> = input
            .clauses
            .iter()
            .enumerate()
            .filter(|(_, (k, _, _))| *k == ClauseKind::At)
            .map(|(i, (_, _, b))| (i, b))
            .collect();
        if !several && let Some((_, span, _)) = input.clauses.get(1) {
            return Err(BindError::NotHere {
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
                span,
                text: word.into(),
                why: format!(
                    "applies only to canister and roundshot; a {} shot is at one figure",
                    weapon.keyword
                ),
            }
            .into()
        };
        let typed_figures = words.value("figures");
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
                span,
                text: "figures".into(),
                why: "counts the figures of one `at`; with several, give each `at` its own `figures=N` (or name its figures)".into(),
            }
            .into());
        }
        // Each `at` with its figures: named ones, then `figures=N` more.
        let mut clauses: Vec<Clause> = Vec::new();
        if at.is_empty() {
            clauses.push(Clause {
                index: None,
                words: None,
                named: Vec::new(),
                figures: typed_figures.map_or(1, |n| usize::try_from(n).unwrap_or(1)),
            });
        }
        for (i, b) in &at {
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
        let figures: usize = clauses.iter().map(|c| c.figures).sum();
        if figures > MAX_FIGURES as usize {
            return Err(input.missing(format!(
                "one shot rolls against at most {MAX_FIGURES} figures"
            )));
        }

        let explain = input.explain;
        let label = |text: std::fmt::Arguments| {
            if explain {
                text.to_string()
            } else {
                String::new()
            }
        };
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
        let base_skill: i64 = skill_rows.iter().map(|(_, v)| v).sum();

        // Each figure's distance and cover: its `at`'s, or the firer's.
        let mut marks = Vec::with_capacity(figures);
        let half = weapon.range as f64 / 2.0;
        for c in &clauses {
            let empty = Bound::default();
            let b = c.words.unwrap_or(&empty);
            let distance = match (words.distance, b.distance) {
                (Some(_), Some((_, _, span))) => {
                    return Err(BindError::NotHere {
                        span,
                        text: input.line.get(span.start..span.end).unwrap_or("").to_string(),
                        why: "is a second distance: give the distance before `at` or after it, not both".into(),
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
                        "`fire {weapon_id}` needs the distance{whose} in inches, like `12\"` or `12in`{}",
                        if each_own {
                            " (after its `at`)"
                        } else {
                            ""
                        }
                    )));
                }
            };
            let cover = pick_cover(tables, input, b)?.clone();
            if c.figures > 1
                && let Some(span) = b.span_of("saves").filter(|_| !b.implied("saves"))
            {
                return Err(BindError::NotHere {
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
            impact: impact_rows.iter().map(|(_, v)| v).sum(),
            skill_rows,
            over_half_row: label(format_args!("skill die {}", f.over_half_range_row)),
            impact_rows,
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
            notes,
        })
    }

    /// A figure's skill modifier: the firer's, and its range's.
    fn skill(&self, m: &Mark) -> i64 {
        self.base_skill + if m.over_half { self.over_half_mod } else { 0 }
    }
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
        return Err(super::fact_refused(
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
        return Err(super::fact_refused(
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
        return Err(super::fact_refused(
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

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let plan = input.memoized(|| Plan::new(tables, input))?;
    let mut dice = Counted::new(dice);
    let (mut res, most, why) = shoot(tables, input, plan, &mut dice)?;
    dice.unused(input, &mut res, most, || why)?;
    Ok(res)
}

/// The shot, with the most dice it could have thrown and why those it did
/// not throw were not needed.
fn shoot(
    tables: &MayhemTables,
    input: &Input,
    plan: &Plan,
    dice: &mut dyn DiceSource,
) -> Result<(Resolution, usize, String), CommandError> {
    let f = &tables.fire;
    let (weapon, distance, cover, figures) =
        (&plan.weapon, plan.distance, &plan.cover, plan.figures);
    let mut res = input.resolution("fire", plan.heading.as_str());
    let half = weapon.range as f64 / 2.0;
    // Under `odds` only the outcome is read: the fields are for the shown
    // resolution.
    let quiet = res.quiet;
    if !quiet {
        res.field("range_in", weapon.range);
        if !plan.each_own {
            res.field("distance_in", distance);
            res.measure("distance", distance);
        }
        for note in &plan.notes {
            res.note(note);
        }
    }
    let in_range = plan.marks.iter().filter(|m| m.in_range).count();
    if in_range == 0 {
        res.row(
            format_args!("range: {} {}\"", weapon.row, weapon.range),
            format_args!("{} — beyond range", Inches(distance)),
        );
        res.field("range", "out-of-range");
        res.set_outcome(
            "out-of-range",
            format!(
                "out of range: {} reaches {}\"; no dice are rolled",
                weapon.keyword, weapon.range
            ),
            Tone::Neutral,
        );
        return Ok((res, 0, String::new()));
    }
    if plan.each_own {
        res.row(
            format_args!("range: {} {}\"", weapon.row, weapon.range),
            format_args!("half range {}", Inches(half)),
        );
        if !quiet {
            for (i, m) in plan.marks.iter().enumerate() {
                let place = if !m.in_range {
                    format!("{} — beyond range: no die", Inches(m.distance))
                } else {
                    format!(
                        "{} — {} half range; {}: {}",
                        Inches(m.distance),
                        if m.over_half { "over" } else { "within" },
                        m.cover.row,
                        needs(m.cover.needs)
                    )
                };
                res.row(prefix(plan, i).trim_end_matches(": "), place);
            }
        }
    } else {
        let over_half = distance > half;
        res.row(
            format_args!("range: {} {}\"", weapon.row, weapon.range),
            format_args!(
                "{} — {} half range ({})",
                Inches(distance),
                if over_half { "over" } else { "within" },
                Inches(half)
            ),
        );
        if !quiet {
            res.field(
                "range",
                if over_half {
                    "over-half-range"
                } else {
                    "within-half-range"
                },
            );
            res.field("cover", cover.keyword.clone());
        }
        if !quiet {
            res.row(format_args!("needs: {}", cover.row), needs(cover.needs));
        }
    }

    let mut shooter = plan.shooter;
    let mut target_tokens = plan.lone;
    let several = figures > 1;
    if !several && (plan.lone_hero || target_tokens.any()) {
        res.row(
            "target: hero",
            format_args!("{} save token(s)", target_tokens.saves),
        );
    }
    if !quiet && several {
        for (i, m) in plan.marks.iter().enumerate().filter(|(_, m)| m.saves > 0) {
            res.row(
                format_args!("{}hero", prefix(plan, i)),
                format_args!("{} save token(s)", m.saves),
            );
        }
    }
    let reroll_held = shooter.rerolls_left() > 0;
    let volley = volley(&mut res, plan, dice, &mut shooter, &mut target_tokens)?;
    if !quiet {
        if !plan.each_own {
            res.field("needed", cover.needs);
        }
        if shooter.any() {
            res.field("firer_tokens", shooter.json());
        }
        if target_tokens.any() {
            res.field("target_tokens", target_tokens.json());
        }
    }
    // The shot is fired: a gunpowder weapon is unloaded, a gun smokes.
    if weapon.gun {
        res.effect(
            Target::ACTOR,
            MayhemEffect::Smoke {
                puffs: u32::try_from(tables.reload.puffs).unwrap_or(0),
            },
        );
    } else if weapon.gunpowder {
        res.effect(Target::ACTOR, MayhemEffect::Unloaded);
    } else {
        res.effect(Target::ACTOR, MayhemEffect::Shot);
    }
    let courage_note = format_args!(
        "{}: `courage VALUE cause=fire` for the target, at the end of its group's movement or combat (it may retreat to the nearest cover if closer).",
        f.courage_row
    );
    if let Some(text) = &weapon.several {
        res.note(format_args!(
            "{}: {text} (`figures=N`: a skill die for each figure, then an impact die for each hit, in figure order).",
            weapon.row
        ));
    }
    let (killed, checks, missed) = (volley.killed, volley.checks, volley.missed);
    shooter.spent(&mut res, Target::ACTOR);
    if !several {
        target_tokens.spent(&mut res, Target::clause(0, 0));
        if killed > 0 {
            res.effect(Target::clause(0, 0), MayhemEffect::Killed);
            if let Some(m) = plan.marks.first() {
                let who = m.id.as_deref().unwrap_or("The target");
                super::leader_killed_note(&mut res, tables, who, m.leader, m.commander);
            }
        }
    } else if !quiet {
        // Each shot falls on its own figure, in the order named.
        for (m, fate) in plan.marks.iter().zip(&volley.fates) {
            let Some(target) = m.target else {
                if *fate == Fate::Killed {
                    super::leader_killed_note(
                        &mut res,
                        tables,
                        "A figure killed",
                        m.leader,
                        m.commander,
                    );
                }
                continue;
            };
            match fate {
                Fate::Killed => {
                    res.effect(target, MayhemEffect::Killed);
                    let who = m.id.as_deref().unwrap_or("The figure");
                    super::leader_killed_note(&mut res, tables, who, m.leader, m.commander);
                }
                Fate::Saved => res.effect(target, MayhemEffect::SaveSpent),
                Fate::Miss | Fate::Check | Fate::Beyond => {}
            }
        }
    }
    let hits = killed + checks;
    let most = 2 * in_range + usize::from(reroll_held);
    let why = if quiet {
        String::new()
    } else {
        let mut why = Vec::new();
        if hits < in_range {
            why.push(if in_range == 1 {
                "the shot missed, so no impact die was thrown".to_string()
            } else {
                format!(
                    "{} skill die(s) missed, so no impact die was thrown for them",
                    in_range - hits
                )
            });
        }
        if reroll_held && shooter.rerolls_spent == 0 {
            why.push("no skill die missed, so no reroll token was spent".into());
        }
        why.join("; ")
    };
    let outcome = if killed > 0 {
        "killed"
    } else if checks > 0 {
        "courage-check"
    } else {
        "miss"
    };
    let mut shots = volley.shots;
    if !several {
        if let Some(Value::Object(map)) = shots.pop() {
            for (k, v) in map {
                if k != "outcome" {
                    res.field(k, v);
                }
            }
        }
        let (text, tone) = match outcome {
            "miss" => ("no hit: the shot misses".to_string(), Tone::Neutral),
            "killed" => (f.kill_row.to_lowercase(), Tone::Good),
            _ if target_tokens.saves_spent > 0 => (
                "target killed — save token spent: the death is cancelled; the hero takes a courage check"
                    .to_string(),
                Tone::Neutral,
            ),
            _ => (f.courage_row.to_lowercase(), Tone::Neutral),
        };
        if outcome == "courage-check" {
            res.note(courage_note);
        }
        res.set_outcome(outcome, text, tone);
        return Ok((res, most, why));
    }
    if !quiet {
        res.field("killed", killed);
        res.field("courage_checks", checks);
        res.field("missed", missed);
        if volley.beyond > 0 {
            res.field("out_of_range", volley.beyond);
        }
        res.field("figures", Value::Array(shots));
        if plan.named > 0 && plan.named < figures {
            let unnamed: Vec<usize> = plan
                .marks
                .iter()
                .enumerate()
                .filter(|(_, m)| m.id.is_none())
                .map(|(i, _)| i + 1)
                .collect();
            let which = match unnamed.as_slice() {
                [one] => format!("figure {one} is not named after `at`: its result falls"),
                [first, .., last] if last - first + 1 == unnamed.len() => {
                    format!("figures {first}–{last} are not named after `at`: their results fall")
                }
                many => format!(
                    "figures {} are not named after `at`: their results fall",
                    many.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            res.note(format_args!("{which} on no figure of the game."));
        }
    }
    if checks > 0 {
        res.note(courage_note);
    }
    let saved = volley.saved;
    let saved_text = if saved > 0 {
        format!(" ({saved} of them a hero whose save token cancels the death)")
    } else {
        String::new()
    };
    let beyond = if volley.beyond > 0 {
        format!(", {} out of range", volley.beyond)
    } else {
        String::new()
    };
    res.set_outcome(
        outcome,
        format!(
            "{figures} figures: {killed} killed, {checks} take a courage check{saved_text}, {missed} missed{beyond}"
        ),
        if killed > 0 {
            Tone::Good
        } else {
            Tone::Neutral
        },
    );
    Ok((res, most, why))
}

/// "figure 2 (warrior-2): ", for rows about one of several figures.
fn prefix(plan: &Plan, i: usize) -> String {
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

/// What became of one figure in the line of fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
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
struct Volley {
    shots: Vec<Value>,
    fates: Vec<Fate>,
    killed: usize,
    /// Courage checks, the saved heroes among them.
    checks: usize,
    saved: usize,
    missed: usize,
    beyond: usize,
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

/// Every figure's skill die, thrown together; then an impact die for each
/// hit. Only the counts decide the outcome, so under `odds` the skill dice
/// are a binomial draw for each score to hit and the impact dice another —
/// unless heroes with save tokens stand among several figures, when which
/// figure is hit counts and each die is followed on its own.
fn volley(
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
    // A hero's reroll token: the missed die with the best chance (the
    // first such in figure order) is thrown again.
    let mut reroll: Option<(usize, Rolled, Rolled)> = None;
    if hits < in_range && shooter.spend_reroll() {
        let Some(class) = classes.iter_mut().find(|(_, n, h)| h < n) else {
            return Err(CommandError::Option("a missed die was lost".into()));
        };
        let hit_on = class.0;
        let again = match &skill {
            Some(_) => dice.roll_against(D6, &[hit_on])?,
            None => {
                let pool = dice.pool(1, D6, hit_on)?;
                pool.dice.first().copied().unwrap_or(Rolled {
                    sides: D6,
                    face: if pool.successes > 0 { hit_on } else { 1 },
                    entered: false,
                })
            }
        };
        if again.face >= hit_on {
            hits += 1;
            class.2 += 1;
        }
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
            let saves = if figures > 1 {
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
        saved = fates.iter().filter(|f| **f == Fate::Saved).count();
        killed -= saved.min(killed);
    } else if killed > 0 && target.spend_save() {
        // One figure (a lone hero), counted rather than followed.
        killed -= 1;
        saved = 1;
    }
    let (checks, missed) = (hits - killed, in_range - hits);
    // Under `odds` only the counts are read: no account of every figure.
    let Some(skill) = skill.filter(|_| !res.quiet) else {
        return Ok(Volley {
            shots: Vec::new(),
            fates,
            killed,
            checks,
            saved,
            missed,
            beyond,
        });
    };
    let uniform = !plan.each_own;
    let mut base_rows = plan.skill_rows.iter();
    let mut impact_rows = plan.impact_rows.iter();
    // Shown in the order thrown: the skill dice, then the impact dice.
    let mut shots = Vec::with_capacity(skill.len());
    let mut first_die = true;
    // `odds` runs this once a way the dice can fall: what only explains
    // (labels, the JSON of each shot) is left out there.
    let explain = !res.quiet;
    let prefix = |i| {
        if explain {
            prefix(plan, i)
        } else {
            String::new()
        }
    };
    for (i, (m, die)) in plan.marks.iter().zip(&skill).enumerate() {
        let prefix = prefix(i);
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
    let kill_at = plan.kill_at;
    let mut impacts = impact.iter();
    for (i, (_, json)) in shots.iter_mut().enumerate().filter(|(_, (hit, _))| *hit) {
        let Some(&impact_die) = impacts.next() else {
            break;
        };
        let prefix = prefix(i);
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
    let shots = shots.into_iter().map(|(_, json)| json).collect();
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

/// A distance in inches, written out only when shown.
struct Inches(f64);

impl std::fmt::Display for Inches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}\"", self.0)
    }
}
