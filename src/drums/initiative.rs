//! Start of each turn initiative: pooled dice per side from the generals,
//! summed; a draw is repeated with one die each and no pool dice.

use std::rc::Rc;

use super::game::DrumsEffect;
use super::{Resolution, VerbDoc};
use crate::answer::resolution::Target;
use crate::answer::resolution::Tone;
use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, Named};
use crate::command::ClauseKind;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};

use super::named::{is_general, refuse, typed};
use super::{InitiativeTable, Tables};

fn side_vocab(t: &InitiativeTable) -> Vocab {
    Vocab::new()
        .number(
            "generals",
            0,
            50,
            format!(
                "generals remaining on the board: {} die each",
                t.per_general
            ),
        )
        .number(
            "exceptional",
            0,
            50,
            format!(
                "Exceptional ability generals: {:+} die each",
                t.per_exceptional
            ),
        )
        .number(
            "incompetent",
            0,
            50,
            format!(
                "Incompetent ability generals: {:+} die each",
                t.per_incompetent
            ),
        )
        .flag(
            "supply",
            format!("a supply pool die added: {:+} die", t.supply),
        )
        .flag(super::melee::NO_SUPPLY, super::melee::NO_SUPPLY_HELP)
        .flag(
            WHAT_IF,
            "the pools are not the game's own: the initiative is not recorded (a game marks every initiative but `initiative` alone, or with `supply`)",
        )
}

pub use super::game::WHAT_IF;

/// The words that give a side's generals by count.
const COUNTS: [&str; 3] = ["generals", "exceptional", "incompetent"];

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
    let vocab = side_vocab(&tables.initiative);
    VerbDoc::new(
        Some(super::DRUMS),
        "initiative",
        "initiative generals=N [exceptional=N] [incompetent=N] [supply] vs generals=N …, or GENERAL… vs GENERAL… (in a game: initiative [supply] [vs supply])",
        "Initiative dice-off: pooled D6 per side from the generals; draws re-rolled 1D6 each, no pool dice.",
        vocab.clone(),
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .clause(ClauseKind::Vs, vocab, 1)
    .examples(&["initiative generals=3 exceptional=1 supply vs generals=3 incompetent=1"])
}

/// A side's generals: (on the board, exceptional, incompetent).
type Generals = (i64, i64, i64);

/// "1D6 per general remaining on the board. +1D6 per Exceptional ability
/// general. -1D6 per Incompetent ability general": by count, or by the
/// generals named on the side (each brings his ability).
fn generals(input: &Input, clause: Option<usize>, side: &Bound) -> Result<Generals, CommandError> {
    let named: Vec<&Named> = input.named_on(clause).collect();
    if named.is_empty() {
        let n = |k: &str| side.value(k).unwrap_or(0);
        return Ok((n("generals"), n("exceptional"), n("incompetent")));
    }
    if let Some(unit) = named.iter().find(|n| !is_general(n)) {
        return Err(refuse(
            input,
            unit,
            "is a unit, and initiative throws \"1D6 per general remaining on the board\": name generals, or give `generals=N`",
        ));
    }
    if let Some(f) = side
        .facts
        .iter()
        .find(|f| !f.implied && COUNTS.contains(&f.name.as_str()))
    {
        return Err(BindError::NotHere {
            span: f.span,
            text: format!("{}={}", f.name, f.value.unwrap_or(0)),
            why: format!(
                "is a count beside generals named on the same side (`{}`): give the side's generals by name or by count, not both",
                typed(input, named[0])
            ),
        }
        .into());
    }
    let with = |word: &str| {
        named
            .iter()
            .filter(|n| n.facts.facts.iter().any(|f| f.word == word))
            .count() as i64
    };
    Ok((named.len() as i64, with("exceptional"), with("incompetent")))
}

fn pool(t: &InitiativeTable, side: &Bound, (generals, exceptional, incompetent): Generals) -> i64 {
    generals * t.per_general
        + exceptional * t.per_exceptional
        + incompetent * t.per_incompetent
        + if side.has("supply") { t.supply } else { 0 }
}

/// "+1D6 per Exceptional ability general. -1D6 per Incompetent ability
/// general": each is one of the generals on the board, of one ability.
fn check_abilities(input: &Input, side: &Bound) -> Result<(), CommandError> {
    // Named generals are counted one by one, each of his own ability.
    if side.facts.iter().any(|f| f.implied) {
        return Ok(());
    }
    let n = |k: &str| side.value(k).unwrap_or(0);
    let (generals, exceptional, incompetent) = (n("generals"), n("exceptional"), n("incompetent"));
    if exceptional + incompetent <= generals {
        return Ok(());
    }
    let word = if side.has("incompetent") {
        "incompetent"
    } else {
        "exceptional"
    };
    Err(BindError::NotHere {
        span: side.span_of(word).unwrap_or(input.missing_span()),
        text: format!("{word}={}", n(word)),
        why: format!(
            "contradicts `generals={generals}`: exceptional and incompetent generals are generals on the board, each of one ability, so `exceptional` and `incompetent` together are at most `generals` ({exceptional} + {incompetent} > {generals})"
        ),
    }
    .into())
}

fn resolve(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let t = &tables.drums.initiative;
    let named = ["side a", "side b"];
    for (side, name) in std::iter::once(&input.words)
        .chain(input.clause(ClauseKind::Vs))
        .zip(named)
    {
        super::melee::refuse_supply(input, side, name)?;
        check_abilities(input, side)?;
    }
    let side_b = input.clause(ClauseKind::Vs).ok_or_else(|| {
        input.missing("`initiative` needs both sides: `initiative generals=N vs generals=N`")
    })?;
    let sides = [&input.words, side_b];
    let generals = [
        generals(input, None, sides[0])?,
        generals(input, Some(0), sides[1])?,
    ];
    let mut res = input.resolution("initiative", "start of turn initiative");
    let counts = [0, 1].map(|i| pool(t, sides[i], generals[i]).max(0) as u32);
    let contest = dice.contest(counts[0], counts[1], 6)?;
    let mut json_sides = Vec::new();
    if !res.quiet {
        for (i, sum) in [&contest.a, &contest.b].into_iter().enumerate() {
            let name = ["a", "b"][i];
            res.row(format!("side {name} pool"), format!("{}D6", counts[i]));
            res.dice_rows(format_args!("side {name}"), &sum.dice);
            res.row(format!("side {name} total"), sum.total);
            json_sides.push(serde_json::json!({
                "pool": counts[i],
                "dice": sum.dice.iter().map(|d| d.face).collect::<Vec<_>>(),
                "total": sum.total,
            }));
        }
    }
    let mut winner = if contest.order == std::cmp::Ordering::Greater {
        "a"
    } else {
        "b"
    };
    if contest.order == std::cmp::Ordering::Equal {
        let tie = dice.tie_break(t.tie_dice, 6)?;
        for (round, (a, b)) in tie.rounds.iter().enumerate() {
            let label = |side: &str| format!("draw {}: side {side} {}D6", round + 1, t.tie_dice);
            res.dice_rows(label("a"), &a.dice);
            res.dice_rows(label("b"), &b.dice);
            json_sides
                .push(serde_json::json!({"tie_round": round + 1, "a": a.total, "b": b.total}));
        }
        winner = if tie.a_wins { "a" } else { "b" };
    }
    let text = if winner == "a" {
        "side a has the initiative"
    } else {
        "side b has the initiative"
    };
    res.set_outcome(winner, text, Tone::Neutral);
    res.field("winner", winner);
    let what_if = sides.iter().any(|s| s.has(WHAT_IF));
    if !what_if {
        let army = usize::from(winner == "b");
        res.effect(Target::Game, DrumsEffect::Initiative { army });
    }
    if res.quiet {
        return Ok(res);
    }
    let tie_rounds = json_sides.split_off(2.min(json_sides.len()));
    res.field("sides", json_sides);
    res.field("tie_rounds", tie_rounds);
    res.note("The side with initiative either goes first and acts with two units, or hands the initiative over; then players alternate one unit each.");
    if what_if {
        res.field("what_if", true);
        res.note("What-if: the game's initiative is not recorded; `initiative` alone throws the dice of each army's generals on the board and records it.");
    }
    Ok(res)
}
