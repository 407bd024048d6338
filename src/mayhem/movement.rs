//! Movement: 3d6" as an individual, 2d6" as a group, 1d6" when delayed;
//! +2d6" mounted in the open, +1d6" for a hero. A hero's reroll token
//! throws the move again when it falls short of the distance needed.

use std::rc::Rc;

use crate::answer::resolution::{Target, Tone};
use crate::bind::Vocab;
use crate::catalog::{Input, Named};
use crate::command::Unit;
use crate::dice::{DiceExpr, DiceSource, Rolled, roll_together};
use crate::error::{BindError, CommandError, ErrorKind};

use super::game::{MayhemEffect, RELOADED, STOOD_STILL};
use super::{Counted, INCENDIARY, MAX_TOKENS, MayhemTables, MoveRow, Repeats, Tokens};
use super::{Resolution, VerbDoc};

const MODE: &str = "a way of moving";
const GROUND: &str = "the ground";
const CHARGE: &str = "charge";

pub(crate) fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let mut vocab = Vocab::new().with_distance(Unit::Inches);
    for row in &tables.movement.mode {
        let ground = if row.open {
            ""
        } else {
            " (not in the open, unless `open` is said)"
        };
        vocab = vocab.choice(
            MODE,
            &row.keyword,
            format!("{}\": {}{ground}", dice(&row.dice), row.row),
        );
    }
    for row in &tables.movement.bonus {
        let only = if row.open_only {
            " (not with `woods`, nor a delayed move unless `open` is said)"
        } else {
            ""
        };
        vocab = vocab.flag(
            &row.keyword,
            format!("+{}\": {}{only}", dice(&row.dice), row.row),
        );
    }
    let vocab = vocab
        .choice(
            GROUND,
            "open",
            "the move is in the open (taken for an individual or group move; a delayed move rearranging a group or falling back may be)",
        )
        .choice(
            GROUND,
            "woods",
            "the move is not in the open: woods or other delaying terrain (taken for a delayed move)",
        )
        .flag(
            CHARGE,
            "a move to contact the enemy (\"Any move to contact the enemy is a charge\"): the group checks courage first (`courage … cause=charge-ordered`)",
        )
        .flag(
            INCENDIARY,
            format!(
                "the figure carries incendiary materials (a figure in a game brings it): it may not charge — {}",
                tables.fire.incendiary_row
            ),
        )
        .flag(
            STOOD_STILL,
            format!(
                "the figure's group failed the order to charge this turn (a figure in a game brings it): it stands still, and may not move until next turn — {}",
                tables.courage.stand_still_row
            ),
        )
        .flag(
            RELOADED,
            "the figure reloaded this turn (a figure in a game brings it): it may not move (\"reloaded as an action by a figure which does not move during its own turn\")",
        )
        .number(
            "rerolls",
            0,
            MAX_TOKENS,
            format!(
                "hero's {}: with the distance needed (`move individual 10\" rerolls=1`), one is spent automatically to throw the move again when it falls short (the reroll stands)",
                tables.heroes.reroll
            ),
        );
    let mut doc = VerbDoc::new(
        Some(super::MAYHEM),
        "move",
        "move individual|group|delayed [open|woods] [mounted] [hero] [charge] [DISTANCE [rerolls=N]]",
        "Movement distance in inches: 3d6\" individual, 2d6\" group, 1d6\" delayed; +2d6\" mounted in the open, +1d6\" hero; with the distance needed, whether it reaches.",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .examples(&[
        "move individual",
        "move group mounted rolled 3 4 5 6",
        "move delayed hero",
        "move delayed open mounted",
        "move individual 12\" rerolls=1 rolled 1 2 3 4 4 5",
    ]);
    doc.vocab.add(
        "DISTANCE",
        crate::bind::Kind::Flag,
        "the distance the figure must reach, like `10\"` (to contact, to cover): the outcome says whether the dice reach it",
    );
    doc
}

fn dice(expr: &DiceExpr) -> String {
    expr.to_string().to_lowercase()
}

/// The figure a fact came from, for an error: its id when named.
fn from_figure<'a>(input: &'a Input, word: &str) -> Option<&'a Named> {
    input
        .named_on(None)
        .find(|n| n.facts.facts.iter().any(|f| f.word == word))
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice_source: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    super::named_once(input)?;
    let table = &tables.movement;
    let words = &input.words;
    let (mode, _) = words.choice(MODE).ok_or_else(|| {
        let names: Vec<&str> = table.mode.iter().map(|r| r.keyword.as_str()).collect();
        input.missing(format!(
            "`move` needs how the figure moves: one of {}",
            names.join(", ")
        ))
    })?;
    let Some(row) = table.mode.iter().find(|r| r.keyword == mode) else {
        return Err(input.missing(format!("no movement row for `{mode}`")));
    };
    refuse(tables, input)?;
    let in_open = match words.choice(GROUND) {
        Some(("open", _)) => true,
        Some(_) => false,
        None => row.open,
    };
    let needed = words.distance.map(|(d, _, _)| d);
    let mut tokens = Tokens::from_bound(words);
    let mut dice_source = Counted::new(dice_source, Repeats::Each);
    let mut res = input.resolution("move", format!("movement, {mode} ({}\")", dice(&row.dice)));
    let mut parts: Vec<(String, &DiceExpr)> = vec![(row.label().to_string(), &row.dice)];
    let mut refused: Vec<&MoveRow> = Vec::new();
    for bonus in &table.bonus {
        if !words.has(&bonus.keyword) {
            continue;
        }
        if bonus.open_only && !in_open {
            refused.push(bonus);
            continue;
        }
        parts.push((bonus.label().to_string(), &bonus.dice));
    }
    let exprs: Vec<&DiceExpr> = parts.iter().map(|(_, e)| *e).collect();
    let (rolled, mut total) = roll_together(&exprs, &mut dice_source)?;
    for (i, ((label, expr), rolled)) in parts.iter().zip(&rolled).enumerate() {
        if i == 0 {
            show_row(&mut res, label, expr, rolled);
        } else {
            bonus_row(&mut res, label, expr, rolled, "");
        }
    }
    for bonus in &refused {
        res.row(
            format_args!("+ {}", bonus.label()),
            format_args!("not in the open: no +{}\"", dice(&bonus.dice)),
        );
    }
    res.row("distance", format!("{total}{}", Unit::Inches.suffix()));
    let short = |total: i64| needed.is_some_and(|d| (total as f64) < d);
    if short(total) && tokens.spend_reroll() {
        let (rolled, again) = roll_together(&exprs, &mut dice_source)?;
        for (i, ((label, expr), rolled)) in parts.iter().zip(&rolled).enumerate() {
            if i == 0 {
                res.dice_rows(format_args!("{label}, reroll token spent"), rolled);
            } else {
                bonus_row(&mut res, label, expr, rolled, ", reroll token spent");
            }
        }
        total = again;
        res.row(
            "distance, rerolled",
            format!("{total}{}", Unit::Inches.suffix()),
        );
    }
    outcome(&mut res, total, needed, short(total));
    res.field("distance_in", total);
    res.measure("distance", total as f64);
    if !res.quiet {
        let said = Said {
            in_open,
            refused: &refused,
            needed,
        };
        tell(&mut res, tables, input, said, &mut tokens);
    }
    let thrown: usize = exprs
        .iter()
        .flat_map(|e| e.dice.iter().map(|(n, _)| *n as usize))
        .sum();
    let rerolls = needed.is_some() && tokens.rerolls > 0;
    dice_source.unused(input, &mut res, thrown * (1 + usize::from(rerolls)), || {
        "the move reached the distance needed, so no reroll token was spent".into()
    })?;
    Ok(res)
}

/// A figure that reloaded this turn may not move; one carrying incendiary
/// materials, or whose group failed the order to charge, may not charge;
/// reroll tokens are spent on a move that falls short of a distance.
fn refuse(tables: &MayhemTables, input: &Input) -> Result<(), CommandError> {
    let words = &input.words;
    if words.has(RELOADED) {
        return Err(super::fact_refused(
            input,
            RELOADED,
            format_args!(
                "reloaded this turn, and may not move: \"{}\"",
                tables.fire.unloaded_row.trim_end_matches('.')
            ),
        ));
    }
    if words.has(CHARGE) && words.has(INCENDIARY) {
        let (span, who) = match from_figure(input, INCENDIARY).filter(|_| words.implied(INCENDIARY))
        {
            Some(n) => (n.span, Some(n.facts.id.as_str())),
            None => (words.span_of(INCENDIARY).unwrap_or_default(), None),
        };
        return Err(super::incendiary_refused(tables, span, who, "charge"));
    }
    // "If the group was ordered to charge then they stand still instead":
    // no move at all this turn, a charge or another.
    if words.has(STOOD_STILL) {
        return Err(super::fact_refused(
            input,
            STOOD_STILL,
            format_args!(
                "failed the order to charge this turn, and stands still: \"{}\" — it may move and charge again next turn (`next-turn`); `undo` takes back the courage check",
                tables.courage.stand_still_row.trim_end_matches('.')
            ),
        ));
    }
    if words.distance.is_none()
        && let Some(span) = words
            .span_of("rerolls")
            .filter(|_| !words.implied("rerolls"))
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::MissingWord,
            span,
            text: "rerolls".into(),
            why: "are spent when a move falls short of the distance needed: give it, like `move individual 10\" rerolls=1`".into(),
        }
        .into());
    }
    Ok(())
}

/// How far the figure may move, against the distance needed when given.
fn outcome(res: &mut Resolution, total: i64, needed: Option<f64>, short: bool) {
    match needed {
        None => res.set_outcome(
            "move",
            format!("move up to {total}{}", Unit::Inches.suffix()),
            Tone::Good,
        ),
        Some(d) => {
            res.row(
                "distance needed",
                format_args!("{d}{}", Unit::Inches.suffix()),
            );
            res.field("needed_in", d);
            if short {
                res.set_outcome(
                    "short",
                    format!(
                        "move up to {total}{}: short of the {d}{} needed",
                        Unit::Inches.suffix(),
                        Unit::Inches.suffix()
                    ),
                    Tone::Bad,
                );
                res.odds_group = Some(format!("falls short of {d}\"").into());
            } else {
                res.set_outcome(
                    "reaches",
                    format!(
                        "move up to {total}{}: reaches the {d}{} needed",
                        Unit::Inches.suffix(),
                        Unit::Inches.suffix()
                    ),
                    Tone::Good,
                );
                res.odds_group = Some(format!("reaches {d}\"").into());
            }
        }
    }
}

/// What was said of the move that the rows do not show.
struct Said<'a> {
    in_open: bool,
    /// The bonuses refused because the move is not in the open.
    refused: &'a [&'a MoveRow],
    needed: Option<f64>,
}

/// The notes, tokens and effects of a move that is shown.
fn tell(
    res: &mut Resolution,
    tables: &MayhemTables,
    input: &Input,
    said: Said,
    tokens: &mut Tokens,
) {
    let (table, words) = (&tables.movement, &input.words);
    let Said {
        in_open,
        refused,
        needed,
    } = said;
    // Whether the move was in the open, whenever a bonus hangs on it.
    if table
        .bonus
        .iter()
        .any(|b| b.open_only && words.has(&b.keyword))
    {
        res.field("in_open", in_open);
    }
    for bonus in refused {
        res.note(format_args!(
            "The rule gives +{}\" \"{}\": this move is not in the open, so the bonus does not apply (say `open` if it is).",
            dice(&bonus.dice),
            bonus.row
        ));
    }
    if words.has(CHARGE) {
        res.note("Any move to contact the enemy is a charge: the charging group checks courage before it moves (`courage … cause=charge-ordered`), and each group charged checks once it has (`cause=charged`).");
    }
    if needed.is_none() && tokens.rerolls > 0 {
        res.note("A reroll token is spent only when the move falls short of the distance needed: give it (`move … 10\"`) to spend one.");
    }
    tokens.spent(res, Target::ACTOR);
    if tokens.any() {
        res.field("tokens", tokens.json());
    }
    for nth in 0..input.named_on(None).count() {
        res.effect(Target::Side { clause: None, nth }, MayhemEffect::Moved);
    }
}

fn show_row(res: &mut Resolution, label: &str, expr: &DiceExpr, rolled: &[Rolled]) {
    res.row(label, format_args!("{}\"", self::dice(expr)));
    res.dice_rows(format_args!("{}\"", self::dice(expr)), rolled);
    if expr.fixed != 0 {
        res.modifier(format!("fixed inches ({label})"), expr.fixed);
    }
}

/// A bonus row ("+2d6\" if mounted in the open", "+1d6 bonus for specially
/// designated heroes"): its dice, and the inches they add as a modifier of
/// their own that names the rule.
fn bonus_row(res: &mut Resolution, label: &str, expr: &DiceExpr, rolled: &[Rolled], then: &str) {
    res.dice_rows(format_args!("+{}\"{then}", self::dice(expr)), rolled);
    let inches: i64 = rolled.iter().map(|r| i64::from(r.face)).sum::<i64>() + expr.fixed;
    res.modifier(format!("+{}\" {label}{then}", self::dice(expr)), inches);
}
