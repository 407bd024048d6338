//! The miscellaneous rules: climbing stockade walls, setting fires,
//! scenario skills, searching (each one die a side, which a hero's reroll
//! token may throw again), and post-battle results.

use serde_json::json;

use std::rc::Rc;

use crate::answer::resolution::{Target, Tone};
use crate::bind::Vocab;
use crate::catalog::{Input, Named};
use crate::dice::{DiceSource, Rolled};
use crate::error::{BindError, CommandError, ErrorKind};

use super::game::{DICED, DOWNED, MayhemEffect, RAN_OFF, downed_word};
use super::{
    CheckRow, Counted, D6, Downed, INCENDIARY, MAX_TOKENS, MayhemTables, Repeats, Tokens,
    named_figures, needs, one_figure,
};
use super::{Resolution, VerbDoc};

/// Most figures downed after a battle, on one line.
const MAX_FIGURES: i64 = 200;

/// A hero's reroll token for a check of one die: spent automatically when
/// the die fails, the reroll stands.
fn reroll_words(vocab: Vocab, tables: &MayhemTables, die: &str) -> Vocab {
    vocab.number(
        "rerolls",
        0,
        MAX_TOKENS,
        format!(
            "hero's {}: one is spent automatically to reroll {die} when it fails (the reroll stands); a figure in a game brings its own",
            tables.heroes.reroll
        ),
    )
}

fn one_die_verb(
    name: &'static str,
    usage: &'static str,
    summary: &'static str,
    vocab: Vocab,
    row: &CheckRow,
    resolve: impl Fn(&Input, &mut dyn DiceSource) -> Result<Resolution, CommandError> + 'static,
    examples: &'static [&'static str],
) -> VerbDoc {
    VerbDoc::new(Some(super::MAYHEM), name, usage, summary, vocab, resolve)
        .examples(examples)
        .tap_help(format!("{}: needs {}", row.row, needs(row.needs)))
}

pub(crate) fn climb_verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    one_die_verb(
        "climb",
        "climb [rerolls=N]",
        "Climbing a stockade wall (clear space a base width either side, no defenders): one die, 6 succeeds.",
        reroll_words(Vocab::new(), tables, "the die"),
        &tables.climb,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_climb(&t, input, dice)
        },
        &["climb", "climb rolled 6", "climb rerolls=1 rolled 2 6"],
    )
}

pub(crate) fn ignite_verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    one_die_verb(
        "ignite",
        "ignite [rerolls=N]",
        "Setting a building or stockade section afire (a figure marked as carrying incendiary materials, adjacent to it): one die, 6 succeeds.",
        reroll_words(Vocab::new(), tables, "the die").flag(
            INCENDIARY,
            format!(
                "the figure carries incendiary materials (a figure in a game brings it; one that does not may not set a fire): {}",
                tables.fire.incendiary_row
            ),
        ),
        &tables.ignite,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_ignite(&t, input, dice)
        },
        &["ignite", "ignite rolled 6", "ignite rerolls=1 rolled 3 6"],
    )
}

fn resolve_climb(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let row = &tables.climb;
    check(
        input,
        dice,
        "climb",
        "climbing a stockade wall",
        row,
        "the figure is placed on the other side of the wall and may fight normally on subsequent turns",
        "the figure does not get over the wall",
    )
}

fn resolve_ignite(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let row = &tables.ignite;
    // "Each such figure adjacent to a building or stockade wall section may
    // set it afire": only a figure carrying incendiary materials.
    if let Some(figure) = input.named_on(None).next()
        && !input.words.has(INCENDIARY)
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span: figure.span,
            text: figure.facts.id.clone(),
            why: format!(
                "carries no incendiary materials, and only a figure that does may set a fire (\"{}\"; an army list marks it `incendiary = true`)",
                tables.fire.incendiary_row.trim_end_matches('.')
            ),
        }
        .into());
    }
    check(
        input,
        dice,
        "ignite",
        "setting a fire",
        row,
        "the building or wall section is afire: it burns for the rest of the game, an impassable area blocking visibility",
        "the fire is not set",
    )
}

fn check(
    input: &Input,
    dice: &mut dyn DiceSource,
    verb: &'static str,
    heading: &str,
    row: &CheckRow,
    success: &str,
    failure: &str,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    one_figure(
        &named_figures(input, None),
        "the acting side",
        "one figure rolls at a time",
    )?;
    let mut dice = Counted::new(dice, Repeats::Each);
    let mut tokens = Tokens::from_bound(&input.words);
    let mut res = input.resolution(verb, heading);
    let (die, _) = one_die(&mut res, &mut dice, "die", row.needs, &mut tokens)?;
    res.row("needs", needs(row.needs));
    res.field("needed", row.needs);
    if i64::from(die.face) >= row.needs {
        res.set_outcome("success", success.to_string(), Tone::Good);
    } else {
        res.set_outcome("failure", failure.to_string(), Tone::Bad);
    }
    finish_tokens(&mut res, &tokens);
    let most = 1 + usize::from(tokens.rerolls > 0);
    dice.unused(input, &mut res, most, || {
        "the die succeeded, so no reroll token was spent".into()
    })?;
    Ok(res)
}

/// One die against a score, thrown again once when it fails and a reroll
/// token is left (the reroll stands): the die that stands, and the first
/// throw when it was rerolled.
fn one_die(
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
    label: &str,
    score: i64,
    tokens: &mut Tokens,
) -> Result<(Rolled, Option<Rolled>), CommandError> {
    let at = score.clamp(1, i64::from(D6) + 1) as u32;
    let first = dice.roll_against(D6, &[at])?;
    res.die(label, first);
    if i64::from(first.face) < score && tokens.spend_reroll() {
        let again = dice.roll_against(D6, &[at])?;
        res.die(format_args!("{label}, reroll token spent"), again);
        return Ok((again, Some(first)));
    }
    Ok((first, None))
}

/// The tokens a figure spent, as effects on it, and in the JSON: its
/// rerolls, the only tokens these verbs read (a save token cancels "a
/// death or morale failure", not a failed skill).
fn finish_tokens(res: &mut Resolution, tokens: &Tokens) {
    tokens.spent(res, Target::ACTOR);
    if tokens.rerolls > 0 {
        res.field("tokens", tokens.rerolls_json());
    }
}

pub(crate) fn skill_verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let s = &tables.skill;
    VerbDoc::new(
        Some(super::MAYHEM),
        "skill",
        "skill N [rerolls=N]",
        "A scenario skill: one die, the skill rating (4-6) or more succeeds.",
        reroll_words(
            Vocab::new().with_number("the skill rating: the minimum to roll on a d6"),
            tables,
            "the die",
        ),
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_skill(&t, input, dice)
        },
    )
    .examples(&[
        "skill 5",
        "skill 4 rolled 3",
        "skill 5 rerolls=1 rolled 2 5",
    ])
    .tap_help(format!("{} ({} to {})", s.row, s.min, s.max))
}

trait TapHelp {
    fn tap_help(self, text: String) -> Self;
}

impl TapHelp for VerbDoc {
    /// Name the table's rule under the usage line of `help VERB`.
    fn tap_help(mut self, text: String) -> Self {
        self.vocab.add("(rule)", crate::bind::Kind::Flag, text);
        self
    }
}

fn resolve_skill(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    let s = &tables.skill;
    let (n, span) = input
        .words
        .number
        .ok_or_else(|| input.missing("`skill` needs the skill rating, like `skill 5`"))?;
    if n.fract() != 0.0 || n < s.min as f64 || n > s.max as f64 {
        return Err(BindError::BadValue {
            span,
            text: n.to_string(),
            expected: format!(
                "a skill rating is a whole number from {} to {}",
                s.min, s.max
            ),
        }
        .into());
    }
    let rating = n as i64;
    one_figure(
        &named_figures(input, None),
        "the acting side",
        "one figure rolls at a time",
    )?;
    let mut dice = Counted::new(dice, Repeats::Each);
    let mut tokens = Tokens::from_bound(&input.words);
    let mut res = input.resolution("skill", format!("skill check, rating {rating}"));
    let (die, _) = one_die(&mut res, &mut dice, "die", rating, &mut tokens)?;
    res.row("needs: the skill rating", needs(rating));
    res.field("needed", rating);
    if i64::from(die.face) >= rating {
        res.set_outcome("success", "the skill is used successfully", Tone::Good);
    } else {
        res.set_outcome("failure", "the skill fails", Tone::Bad);
    }
    finish_tokens(&mut res, &tokens);
    let most = 1 + usize::from(tokens.rerolls > 0);
    dice.unused(input, &mut res, most, || {
        "the die succeeded, so no reroll token was spent".into()
    })?;
    Ok(res)
}

pub(crate) fn search_verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let s = &tables.search;
    let list = |ls: &[super::Labelled]| {
        ls.iter()
            .map(|l| format!("{} {}", l.row, l.value))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let vocab = reroll_words(Vocab::new(), tables, "the player's die")
        .number(
            "value",
            1,
            i64::from(D6),
            format!(
                "the figure's search value, rolled by the player (that or more succeeds): {}",
                list(&s.value)
            ),
        )
        .number(
            "difficulty",
            1,
            i64::from(D6),
            format!(
                "the search difficulty, rolled by the referee (that or more succeeds): {}",
                list(&s.difficulty)
            ),
        );
    VerbDoc::new(
        Some(super::MAYHEM),
        "search",
        "search value=N difficulty=N [rerolls=N]",
        "Search: the player rolls against the figure's search value, the referee against the difficulty; both must succeed.",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_search(&t, input, dice)
        },
    )
    .examples(&[
        "search value=6 difficulty=2",
        "search value=4 difficulty=6 rolled 5 6",
        "search value=5 difficulty=5 rerolls=1 rolled 2 5 6",
    ])
}

fn resolve_search(
    _tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    let value = input
        .words
        .value("value")
        .ok_or_else(|| input.missing("`search` needs the figure's search value: `value=6`"))?;
    let difficulty = input
        .words
        .value("difficulty")
        .ok_or_else(|| input.missing("`search` needs the search difficulty: `difficulty=5`"))?;
    one_figure(
        &named_figures(input, None),
        "the searching side",
        "one figure searches at a time",
    )?;
    let mut dice = Counted::new(dice, Repeats::Each);
    let mut tokens = Tokens::from_bound(&input.words);
    let mut res = input.resolution("search", "search");
    // The player may reroll his own die; the referee's is not his.
    let (player, rerolled) = one_die(&mut res, &mut dice, "player's die", value, &mut tokens)?;
    res.row("needs: the figure's search value", needs(value));
    let referee = dice.roll(D6)?;
    res.die("referee's die", referee);
    res.row("needs: the search difficulty", needs(difficulty));
    let p_ok = i64::from(player.face) >= value;
    let r_ok = i64::from(referee.face) >= difficulty;
    let mut player_json = json!({"die": player.face, "needed": value, "success": p_ok});
    if let Some(first) = rerolled {
        player_json["rerolled_from"] = json!(first.face);
    }
    res.field("player", player_json);
    res.field(
        "referee",
        json!({"die": referee.face, "needed": difficulty, "success": r_ok}),
    );
    if p_ok && r_ok {
        res.set_outcome(
            "found",
            "both rolls succeed: the player is given the information",
            Tone::Good,
        );
    } else {
        let which = match (p_ok, r_ok) {
            (false, false) => "both rolls fail",
            (false, true) => "the player's roll fails",
            _ => "the referee's roll fails",
        };
        res.set_outcome(
            "nothing",
            format!("{which}: the player is told he doesn't find anything"),
            Tone::Bad,
        );
    }
    finish_tokens(&mut res, &tokens);
    let most = 2 + usize::from(tokens.rerolls > 0);
    dice.unused(input, &mut res, most, || {
        "the player's die succeeded, so no reroll token was spent".into()
    })?;
    Ok(res)
}

pub(crate) fn post_battle_verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let bands: Vec<String> = tables
        .post_battle
        .band
        .iter()
        .map(|b| b.row.clone())
        .collect();
    let vocab = post_battle_vocab();
    VerbDoc::new(
        Some(super::MAYHEM),
        "post-battle",
        "post-battle N | post-battle FIGURE…",
        "After the battle, each downed figure (not those that ran): one d6, 1-4 wounded, 5-6 dead.",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_post_battle(&t, input, dice)
        },
    )
    .takes_fallen()
    .examples(&["post-battle 3", "post-battle 2 rolled 4 5"])
    .tap_help(bands.join("; "))
}

fn post_battle_vocab() -> Vocab {
    let mut vocab = Vocab::new();
    // Not a word that can be typed (ids are lower case): help only.
    vocab.add(
        "FIGURE…",
        crate::bind::Kind::Flag,
        "in a game, the ids of downed figures (killed by enemy action, not run off): one die each, in the order named, each figure's result kept by the game",
    );
    vocab
        .with_number("the number of downed figures")
        .flag(
            DOWNED,
            "one figure downed by enemy action (a figure killed in the game brings it)",
        )
        .flag(
            RAN_OFF,
            "the figure ran from the table: it is not diced for (a figure that ran off in the game brings it)",
        )
        .flag(
            DICED,
            "the figure was diced for after the battle already: it is diced for once (a figure in the game brings it)",
        )
}

fn resolve_post_battle(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    super::named_once(input)?;
    let t = &tables;
    // Each named figure says from its own facts what became of it.
    let named: Vec<&Named> = input.named_on(None).collect();
    let figures = downed(input, &named)?;
    let dead_from = t.dead_from();
    let mut res = input.resolution(
        "post-battle",
        format!("post-battle results, {figures} downed figure(s)"),
    );
    let pool = dice.pool(figures, D6, dead_from.clamp(1, i64::from(D6) + 1) as u32)?;
    let mut fates = Vec::new();
    for (i, die) in pool.dice.iter().enumerate() {
        let band = t
            .post_battle
            .band
            .iter()
            .find(|b| (b.from..=b.to).contains(&i64::from(die.face)));
        let label = match named.get(i) {
            Some(figure) => figure.facts.id.clone(),
            None => format!("figure {}", i + 1),
        };
        res.die(&label, *die);
        if let Some(band) = band {
            res.row(format!("{label} result"), downed_word(band.outcome));
            if !res.quiet {
                fates.push(json!({"figure": named.get(i).map(|f| &f.facts.id), "die": die.face, "result": downed_word(band.outcome)}));
            }
            // Each figure named has its own fate.
            if i < named.len() {
                res.effect(
                    Target::Side {
                        clause: None,
                        nth: i,
                    },
                    MayhemEffect::AfterBattle {
                        outcome: band.outcome,
                    },
                );
            }
        }
    }
    let dead = i64::from(pool.successes);
    let wounded = i64::from(figures) - dead;
    for b in &t.post_battle.band {
        res.row(
            format!("{}–{}", b.from, b.to),
            match b.outcome {
                Downed::Wounded => format!("wounded: {wounded}"),
                Downed::Dead => format!("dead: {dead}"),
            },
        );
    }
    res.field("wounded", wounded);
    res.field("dead", dead);
    if !named.is_empty() && !res.quiet {
        res.field("figures", serde_json::Value::Array(fates));
    }
    res.set_outcome(
        "post-battle",
        format!("{wounded} wounded, {dead} dead"),
        Tone::Neutral,
    );
    Ok(res)
}

/// How many downed figures are diced for: those named, each downed by
/// enemy action, or the number given.
fn downed(input: &Input, named: &[&Named]) -> Result<u32, CommandError> {
    let words = &input.words;
    let rule = "the rule dices after the battle only for figures downed by enemy action (\"a distinction can be made between figures which run from the table and those downed by enemy action\")";
    for figure in named {
        let has = |word: &str| figure.facts.facts.iter().any(|f| f.word == word);
        let (kind, why) = if has(RAN_OFF) {
            (
                ErrorKind::NotApplicable,
                format!("ran from the table: {rule}"),
            )
        } else if has(DICED) {
            (ErrorKind::NotNow, "was diced for after the battle already (`show` gives its result): each downed figure is diced for once; `undo` takes back a throw made in error".to_string())
        } else if !has(DOWNED) {
            (
                ErrorKind::NotApplicable,
                "is still in play: only figures downed by enemy action are diced for after the battle"
                    .to_string(),
            )
        } else {
            continue;
        };
        return Err(BindError::NotHere {
            span: figure.span,
            text: figure.facts.id.clone(),
            why,
            kind,
        }
        .into());
    }
    let typed = |word: &str| words.span_of(word).filter(|_| !words.implied(word));
    if let Some(span) = typed(RAN_OFF) {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span,
            text: RAN_OFF.to_string(),
            why: format!("is not diced for: {rule}"),
        }
        .into());
    }
    if !named.is_empty() {
        let given = words
            .number
            .map(|(n, span)| (span, n.to_string()))
            .or_else(|| typed(DOWNED).map(|span| (span, DOWNED.to_string())));
        if let Some((span, text)) = given {
            return Err(BindError::NotHere {
                kind: ErrorKind::Conflict,
                span,
                text,
                why: "counts downed figures of no list, and the line names figures: name every downed figure, or give only their number (`post-battle 3`)".into(),
            }
            .into());
        }
    }
    let n = match (words.number, words.has(DOWNED)) {
        _ if !named.is_empty() => named.len() as f64,
        (Some((n, span)), _) => {
            if n.fract() != 0.0 || n < 1.0 || n > MAX_FIGURES as f64 {
                return Err(BindError::BadValue {
                    span,
                    text: n.to_string(),
                    expected: format!(
                        "the downed figures are a whole number from 1 to {MAX_FIGURES}"
                    ),
                }
                .into());
            }
            n
        }
        (None, true) => 1.0,
        (None, false) => {
            return Err(input.missing(
                "`post-battle` needs the number of downed figures, like `post-battle 3`, or the ids of downed figures",
            ));
        }
    };
    if named.len() > MAX_FIGURES as usize {
        return Err(input.missing(format!(
            "`post-battle` dices for at most {MAX_FIGURES} figures on a line"
        )));
    }
    Ok(n as u32)
}
