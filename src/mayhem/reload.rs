//! Reloading. "A gunpowder weapon becomes unloaded … and can be reloaded as
//! an action by a figure which does not move during its own turn"; a gun
//! instead places smoke puffs when it fires: "A trained crew of 3 or more
//! (with a leader counting as two figures) may remove 1 per turn."

use std::rc::Rc;

use crate::answer::resolution::{Target, Tone};
use crate::bind::{Kind, Vocab};
use crate::catalog::{Input, Named};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::game::{LEADER, LOADED, MOVED, MayhemEffect, RELOADED, SMOKE, SMOKE_CLEARED, UNLOADED};
use super::{MayhemTables, ReloadTable, Resolution, VerbDoc, Weapon, named_figures, one_figure};

const WEAPON: &str = "a weapon";
const STATE: &str = "the weapon's state";
/// Most figures in a gun's crew on one line.
const MAX_CREW: i64 = 200;
/// Most smoke puffs a gun may carry on a line.
const MAX_PUFFS: i64 = 99;

pub(crate) fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let r = &tables.reload;
    let mut vocab = Vocab::new();
    vocab.add(
        "FIGURE…",
        Kind::Flag,
        "in a game, the id of the figure that reloads (its weapon and whether it is loaded come with it); for a gun, the gun's figure first, then the figures of its crew (each leader among them counting as two)",
    );
    for w in &tables.fire.weapon {
        let what = if w.gun {
            format!(
                "a gun: smoke puffs, {} placed when it fires, removed {} a turn by a crew of {} or more",
                r.puffs, r.clear_per_turn, r.min_crew
            )
        } else if w.gunpowder {
            "a gunpowder weapon: reloaded as the figure's action in a turn it does not move".into()
        } else {
            "not a gunpowder weapon: it never becomes unloaded".into()
        };
        vocab = vocab.choice(WEAPON, &w.keyword, format!("{}: {what}", w.row));
    }
    let vocab = vocab
        .number(
            "crew",
            0,
            MAX_CREW,
            format!(
                "figures crewing the gun, leaders among them; a crew counting {} or more can remove {} smoke puff(s) a turn",
                r.min_crew, r.clear_per_turn
            ),
        )
        .flag(
            LEADER,
            format!(
                "one of the crew is a leader, counting as {} figures",
                r.leader_counts
            ),
        )
        .number(
            "leaders",
            0,
            MAX_CREW,
            format!(
                "how many of the crew are leaders, each counting as {} figures (any number)",
                r.leader_counts
            ),
        )
        .choice(
            STATE,
            UNLOADED,
            "the weapon is unloaded: it fired and was not reloaded since (taken when neither is said; a figure in a game brings its own)",
        )
        .choice(
            STATE,
            LOADED,
            "the weapon is loaded: there is nothing to reload",
        )
        .number(
            SMOKE,
            0,
            MAX_PUFFS,
            format!(
                "smoke puffs on the gun now (a gun in a game brings its own): its crew removes {}",
                r.clear_per_turn
            ),
        )
        .flag(
            SMOKE_CLEARED,
            format!(
                "a smoke puff was removed from this gun this turn already ({} per turn)",
                r.clear_per_turn
            ),
        )
        .flag(
            MOVED,
            "the figure moved this turn: it cannot reload (\"a figure which does not move during its own turn\")",
        )
        .flag(
            RELOADED,
            "the figure reloaded this turn already: reloading is its action",
        );
    VerbDoc::new(
        Some(super::MAYHEM),
        "reload",
        "reload WEAPON|FIGURE [crew=N] [leader|leaders=N] [smoke=N]",
        "Reloading: a gunpowder small arm is loaded again as the figure's action in a turn it does not move; a gun's smoke puffs are removed 1 a turn by a crew of 3 or more (a leader counting as two).",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, _dice: &mut dyn DiceSource| resolve(&t, input)
        },
    )
    .examples(&[
        "reload musket",
        "reload crew=3",
        "reload crew=2 leader",
        "reload canister smoke=2 crew=4 leaders=2",
    ])
}

fn resolve(tables: &MayhemTables, input: &Input) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    super::named_once(input)?;
    let words = &input.words;
    let named: Vec<&Named> = input.named_on(None).collect();
    let weapon = match words.choice(WEAPON) {
        Some((w, _)) => tables.fire.weapon.iter().find(|x| x.keyword == w),
        None => None,
    };
    let gun_words = ["crew", "leaders", SMOKE];
    match weapon {
        // `reload crew=3`: a gun, as before there was more to reload.
        None if words.has("crew") || words.has("leaders") || words.has(SMOKE) => {
            reload_gun(tables, input, None)
        }
        None => Err(match named.first() {
            Some(n) => BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span: n.span,
                text: n.facts.id.clone(),
                why: "carries no missile weapon: there is nothing to reload".into(),
            }
            .into(),
            None => input.missing(
                "`reload` needs a weapon (`reload musket`), a gun's crew (`reload crew=3`) or, in a game, a figure's id",
            ),
        }),
        Some(w) if w.gun => {
            if let Some((state, span)) = words.choice(STATE).filter(|(s, _)| !words.implied(s)) {
                return Err(BindError::NotHere {
                    kind: ErrorKind::NotApplicable,
                    span,
                    text: state.to_string(),
                    why: format!(
                        "is said of a small arm; a {} is loaded when its smoke puffs are gone: give them as `smoke=N`",
                        w.keyword
                    ),
                }
                .into());
            }
            reload_gun(tables, input, Some(w))
        }
        Some(w) if !w.gunpowder => {
            let rule = tables.fire.unloaded_row.trim_end_matches('.');
            // The figure's own weapon: the error points at the figure.
            Err(match named.first().filter(|_| words.implied(&w.keyword)) {
                Some(n) => BindError::NotHere {
                    kind: ErrorKind::NotApplicable,
                    span: n.span,
                    text: n.facts.id.clone(),
                    why: format!(
                        "carries a {}, not a gunpowder weapon: it never becomes unloaded (\"{rule}\")",
                        w.keyword
                    ),
                },
                None => BindError::NotHere {
                    kind: ErrorKind::NotApplicable,
                    span: words.span_of(&w.keyword).unwrap_or_default(),
                    text: w.keyword.clone(),
                    why: format!(
                        "is not a gunpowder weapon: it never becomes unloaded (\"{rule}\")"
                    ),
                },
            }
            .into())
        }
        Some(w) => {
            if let Some(word) = gun_words
                .into_iter()
                .chain([LEADER, SMOKE_CLEARED])
                .find(|k| words.has(k) && !words.implied(k))
            {
                return Err(BindError::NotHere {
                    kind: ErrorKind::NotApplicable,
                    span: words.span_of(word).unwrap_or_default(),
                    text: word.to_string(),
                    why: format!(
                        "belongs to a gun's crew and smoke puffs, and a {} is reloaded by the figure that carries it",
                        w.keyword
                    ),
                }
                .into());
            }
            one_figure(
                &named_figures(input, None),
                "the reloading side",
                "each figure reloads its own weapon: one `reload` a figure",
            )?;
            reload_small_arm(tables, input, w)
        }
    }
}

fn reload_small_arm(
    tables: &MayhemTables,
    input: &Input,
    weapon: &Weapon,
) -> Result<Resolution, CommandError> {
    let words = &input.words;
    let rule = tables.fire.unloaded_row.trim_end_matches('.');
    let refuse = |word: &str, why: String| super::fact_refused(input, word, why);
    if words.has(LOADED) {
        return Err(refuse(
            LOADED,
            format!(
                "has a loaded {}: it has not fired since it was loaded, so there is nothing to reload",
                weapon.keyword
            ),
        ));
    }
    if words.has(MOVED) {
        return Err(refuse(
            MOVED,
            format!("moved this turn, and cannot reload: \"{rule}\""),
        ));
    }
    if words.has(RELOADED) {
        return Err(refuse(
            RELOADED,
            "reloaded this turn already: reloading is the figure's action for the turn".into(),
        ));
    }
    let mut res = input.resolution("reload", format!("reloading a {}", weapon.keyword));
    res.row(
        "weapon",
        format_args!("{} — a gunpowder weapon", weapon.row),
    );
    res.note(format_args!("{rule}."));
    res.field("weapon", weapon.keyword.clone());
    res.set_outcome(
        "loaded",
        format!(
            "the {} is loaded again: reloading is the figure's action this turn, and it does not move",
            weapon.keyword
        ),
        Tone::Good,
    );
    res.effect(Target::ACTOR, MayhemEffect::Reloaded);
    Ok(res)
}

/// How a gun's crew is counted: the figures, the leaders among them, and
/// the count with each leader as two.
struct Crew {
    figures: i64,
    leaders: i64,
    counted: i64,
    /// The crew's figures, when named.
    named: Vec<String>,
}

fn crew(
    tables: &MayhemTables,
    input: &Input,
    named: &[&Named],
) -> Result<Option<Crew>, CommandError> {
    let r = &tables.reload;
    let words = &input.words;
    let typed = |w: &str| words.has(w) && !words.implied(w);
    let typed_leaders = match (typed(LEADER), words.value("leaders")) {
        (true, Some(_)) => {
            return Err(BindError::Conflict {
                span: words.span_of("leaders").unwrap_or_default(),
                first: LEADER.into(),
                second: "leaders".into(),
                group: "the crew's leaders".into(),
            }
            .into());
        }
        (true, None) => Some(1),
        (false, n) => n,
    };
    let crew = match (words.value("crew"), named) {
        (Some(_), [_, second, ..]) => {
            return Err(BindError::NotHere {
                kind: ErrorKind::Conflict,
                span: second.span,
                text: second.facts.id.clone(),
                why: "is named as crew, and `crew=N` gives the crew too: give the crew one way"
                    .into(),
            }
            .into());
        }
        (Some(n), _) => {
            let leaders = typed_leaders.unwrap_or(0);
            if leaders > n {
                return Err(BindError::NotHere {
                    kind: ErrorKind::Conflict,
                    span: words
                        .span_of("leaders")
                        .or(words.span_of(LEADER))
                        .unwrap_or_default(),
                    text: "leaders".into(),
                    why: format!("are among the crew, and `crew={n}` has fewer figures"),
                }
                .into());
            }
            Some(Crew {
                figures: n,
                leaders,
                counted: 0,
                named: Vec::new(),
            })
        }
        (None, []) => None,
        (None, figures) => {
            if let Some(span) = words.span_of("leaders").filter(|_| typed("leaders")) {
                return Err(BindError::NotHere {
                    kind: ErrorKind::Conflict,
                    span,
                    text: "leaders".into(),
                    why: "counts the leaders of a typed crew (`crew=N`); a named crew brings its own leaders".into(),
                }
                .into());
            }
            let leads = |n: &Named| n.facts.facts.iter().any(|f| f.word == LEADER);
            Some(Crew {
                figures: figures.len() as i64,
                leaders: figures.iter().filter(|n| leads(n)).count() as i64,
                counted: 0,
                named: figures.iter().map(|n| n.facts.id.clone()).collect(),
            })
        }
    };
    Ok(crew.map(|c| Crew {
        counted: c
            .figures
            .saturating_add(c.leaders.saturating_mul(r.leader_counts - 1)),
        ..c
    }))
}

fn reload_gun(
    tables: &MayhemTables,
    input: &Input,
    weapon: Option<&Weapon>,
) -> Result<Resolution, CommandError> {
    let r = &tables.reload;
    let words = &input.words;
    let named: Vec<&Named> = input.named_on(None).collect();
    let crew = crew(tables, input, &named)?;
    let what = weapon.map_or("gun".to_string(), |w| w.keyword.clone());
    let mut res = input.resolution("reload", "reloading a gun (smoke puffs)");
    if let Some(w) = weapon {
        res.row("weapon", format_args!("{} — a gun", w.row));
    }
    res.row("smoke puffs placed when the gun fires", r.puffs);
    crew_rows(&mut res, r, crew.as_ref());
    let enough = crew.as_ref().is_some_and(|c| c.counted >= r.min_crew);
    let Some(smoke) = words.value(SMOKE) else {
        return clear_time(res, r, crew, &what, input);
    };
    res.row("smoke puffs on the gun", smoke);
    res.field("puffs", smoke);
    if smoke == 0 {
        res.set_outcome(
            "loaded",
            "no smoke puffs: the gun is loaded and may fire",
            Tone::Good,
        );
        return Ok(res);
    }
    if words.has(SMOKE_CLEARED) {
        return Err(super::fact_refused(
            input,
            SMOKE_CLEARED,
            format!("had a smoke puff removed this turn already: \"{}\"", r.row),
        ));
    }
    let Some(c) = crew else {
        return Err(input.missing(format!(
            "`reload {what}` needs the crew: `crew=N` (with `leaders=N` for its leaders) or, in a game, the crew's ids after the gun's"
        )));
    };
    if !enough {
        short(&mut res, r, &c);
        return Ok(res);
    }
    let left = smoke - r.clear_per_turn.min(smoke);
    res.row("puffs removed this turn", r.clear_per_turn.min(smoke));
    res.row("smoke puffs left", left);
    res.field("puffs_left", left);
    let turns = (left + r.clear_per_turn - 1) / r.clear_per_turn;
    res.set_outcome(
        "cleared",
        if left == 0 {
            "the crew removes the last smoke puff: the gun is loaded and may fire".to_string()
        } else {
            format!(
                "the crew removes a smoke puff: {left} left, loaded again after {turns} more turn(s)"
            )
        },
        Tone::Good,
    );
    for _ in 0..r.clear_per_turn.min(smoke) {
        res.effect(Target::ACTOR, MayhemEffect::SmokeCleared);
    }
    res.note("The crew must be trained (\"A trained crew of 3 or more\").");
    Ok(res)
}

/// The crew, as counted, against the crew needed.
fn crew_rows(res: &mut Resolution, r: &ReloadTable, crew: Option<&Crew>) {
    if let Some(c) = crew {
        if !c.named.is_empty() {
            res.row("crew", c.named.join(", "));
        }
        res.row("crew figures", c.figures);
        if c.leaders > 0 {
            res.modifier(
                format!(
                    "{} leader(s), each counting as {} figures",
                    c.leaders, r.leader_counts
                ),
                c.leaders.saturating_mul(r.leader_counts - 1),
            );
        }
        res.row("crew counted", c.counted);
        res.field("effective_crew", c.counted);
    }
    res.row(
        "crew needed to remove puffs",
        format!("{} or more", r.min_crew),
    );
}

/// A crew too small to remove the puffs.
fn short(res: &mut Resolution, r: &ReloadTable, c: &Crew) {
    let how = if c.named.is_empty() {
        "give the whole crew: `crew=N`, with `leaders=N` for the leaders among it".to_string()
    } else {
        format!(
            "name the rest of the crew after the gun (`reload {} FIGURE…`)",
            c.named.first().map_or("GUN", String::as_str)
        )
    };
    res.set_outcome(
        "cannot-clear",
        format!(
            "a crew counting {} is fewer than {}: it cannot remove the smoke puffs ({how})",
            c.counted, r.min_crew
        ),
        Tone::Bad,
    );
}

/// No puffs said: how long the crew takes to clear a shot's puffs.
fn clear_time(
    mut res: Resolution,
    r: &ReloadTable,
    crew: Option<Crew>,
    what: &str,
    input: &Input,
) -> Result<Resolution, CommandError> {
    let enough = crew.as_ref().is_some_and(|c| c.counted >= r.min_crew);
    let Some(c) = crew else {
        return Err(input.missing(format!(
            "`reload {what}` needs the crew: `crew=N` (with `leaders=N` for its leaders) or, in a game, the crew's ids after the gun's"
        )));
    };
    res.field("puffs", r.puffs);
    if enough {
        let turns = (r.puffs + r.clear_per_turn - 1) / r.clear_per_turn;
        res.row("puffs removed a turn", r.clear_per_turn);
        res.field("turns", turns);
        res.set_outcome(
            "clears",
            format!(
                "the crew removes {} puff a turn: loaded again after {turns} turn(s)",
                r.clear_per_turn
            ),
            Tone::Good,
        );
    } else {
        res.field("turns", serde_json::Value::Null);
        short(&mut res, r, &c);
    }
    res.note("The crew must be trained; a figure reloads as its action when it does not move in its own turn.");
    Ok(res)
}
