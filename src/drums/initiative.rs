//! Start of each turn initiative: pooled dice per side from the generals,
//! summed; a draw is repeated with one die each and no pool dice.

use std::rc::Rc;

use super::game::DrumsEffect;
use super::{Resolution, VerbDoc};
use crate::answer::resolution::Target;
use crate::answer::resolution::{Tone, signed};
use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, Named};
use crate::command::ClauseKind;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

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

pub(crate) use super::game::WHAT_IF;

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

/// One side of the dice-off as the line gives it.
struct PoolSide<'a> {
    bound: &'a Bound,
    /// How the answer names the side: its army's side where its generals
    /// are named or the game's own armies face each other, else `side a`.
    name: String,
    generals: Generals,
    /// The ids of the generals named, in order.
    ids: Vec<String>,
}

/// "1D6 per general remaining on the board. +1D6 per Exceptional ability
/// general. -1D6 per Incompetent ability general": by count, or by the
/// generals named on the side (each brings his ability).
fn generals(input: &Input, clause: Option<usize>, side: &Bound) -> Result<Generals, CommandError> {
    let named: Vec<&Named> = input.named_on(clause).collect();
    if named.is_empty() {
        if !side.has("generals") {
            let which = if clause.is_none() {
                "the side before `vs`"
            } else {
                "the side after `vs`"
            };
            return Err(input.missing(format!(
                "{which} gives no generals: each player pools the dice of his own generals on the board (\"1D6 per general remaining on the board\"): name them, or give `generals=N`"
            )));
        }
        let n = |k: &str| side.value(k).unwrap_or(0);
        return Ok((n("generals"), n("exceptional"), n("incompetent")));
    }
    if let Some(unit) = named.iter().find(|n| !is_general(n)) {
        return Err(refuse(
            ErrorKind::NotApplicable,
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
            kind: ErrorKind::Conflict,
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

/// "Each player" pools his own generals (rules 1–5), each once: a general
/// named twice on the line, the generals of two armies on one side, or
/// one army's generals on both sides are refused.
fn own_generals(input: &Input) -> Result<(), CommandError> {
    let named: Vec<&Named> = input.named.iter().collect();
    for (i, n) in named.iter().enumerate() {
        if named[..i].iter().any(|m| m.facts.id == n.facts.id) {
            return Err(refuse(
                ErrorKind::RepeatedWord,
                input,
                n,
                "is named twice: each player pools the dice of his own generals, each general once (\"1D6 per general remaining on the board\")",
            ));
        }
    }
    let side_of = |clause: Option<usize>| {
        input
            .named_on(clause)
            .find_map(|n| n.side.clone().map(|s| (s, n)))
    };
    for clause in [None, Some(0)] {
        let Some((army, first)) = side_of(clause) else {
            continue;
        };
        if let Some(other) = input
            .named_on(clause)
            .find(|n| n.side.as_ref().is_some_and(|s| *s != army))
        {
            return Err(refuse(
                ErrorKind::Conflict,
                input,
                other,
                format!(
                    "is a general of {}, and this side pools the generals of {army} (`{}`): each player pools the dice of his own generals",
                    other.side.as_deref().unwrap_or_default(),
                    typed(input, first)
                ),
            ));
        }
    }
    if let (Some((a, _)), Some((b, second))) = (side_of(None), side_of(Some(0)))
        && a == b
    {
        return Err(refuse(
            ErrorKind::Conflict,
            input,
            second,
            format!(
                "is a general of {b}, whose generals throw before `vs`: each player pools the dice of his own generals, the other player's after `vs`"
            ),
        ));
    }
    Ok(())
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
        kind: ErrorKind::Conflict,
        span: side.span_of(word).unwrap_or(input.missing_span()),
        text: format!("{word}={}", n(word)),
        why: format!(
            "contradicts `generals={generals}`: exceptional and incompetent generals are generals on the board, each of one ability, so `exceptional` and `incompetent` together are at most `generals` ({exceptional} + {incompetent} > {generals})"
        ),
    }
    .into())
}

/// The two sides, checked, each named.
fn sides<'a>(input: &'a Input) -> Result<[PoolSide<'a>; 2], CommandError> {
    let side_b = input.clause(ClauseKind::Vs).ok_or_else(|| {
        input.missing("`initiative` needs both sides: `initiative generals=N vs generals=N`, or each side's generals by name")
    })?;
    own_generals(input)?;
    let both = [(None, &input.words), (Some(0), side_b)];
    let names = [0, 1].map(|i| {
        let letter = ["side a", "side b"][i];
        // In a game the first army's generals pool before `vs`, the
        // second's after (its own dice-off and a what-if alike).
        let own = (input.sides.len() == 2).then(|| input.sides[i].clone());
        input
            .named_on(both[i].0)
            .find_map(|n| n.side.clone())
            .or(own)
            .unwrap_or_else(|| letter.to_string())
    });
    // A lost force commander's supply first, on either side: a game adds
    // `no-supply` to a side's `supply` and nothing else (see `expand`).
    for (i, (_, bound)) in both.iter().enumerate() {
        super::melee::refuse_supply(input, bound, &names[i])?;
    }
    let mut out = Vec::with_capacity(2);
    for ((clause, bound), name) in both.into_iter().zip(names) {
        let generals = generals(input, clause, bound)?;
        check_abilities(input, bound)?;
        out.push(PoolSide {
            bound,
            name,
            generals,
            ids: input.named_on(clause).map(|n| n.facts.id.clone()).collect(),
        });
    }
    let [a, b]: [PoolSide; 2] = out.try_into().map_err(|_| input.missing("both sides"))?;
    Ok([a, b])
}

/// The pool as the rules build it (rules 1–4), a row a step.
fn pool_rows(res: &mut Resolution, t: &InitiativeTable, side: &PoolSide) {
    let (generals, exceptional, incompetent) = side.generals;
    let who = if side.ids.is_empty() {
        String::new()
    } else {
        format!(" ({})", side.ids.join(", "))
    };
    let mut total = generals * t.per_general;
    res.row(
        format!(
            "{}: {}D6 per general remaining on the board × {generals}{who}",
            side.name, t.per_general
        ),
        format!("{total}D6"),
    );
    let mut step = |label: String, change: i64| {
        total += change;
        res.row(
            format!("{}: {label}", side.name),
            format!("{} → {total}", signed(change)),
        );
    };
    if exceptional > 0 {
        step(
            format!(
                "{}D6 per Exceptional ability general × {exceptional}",
                signed(t.per_exceptional)
            ),
            exceptional * t.per_exceptional,
        );
    }
    if incompetent > 0 {
        step(
            format!(
                "{}D6 per Incompetent ability general × {incompetent}",
                signed(t.per_incompetent)
            ),
            incompetent * t.per_incompetent,
        );
    }
    if side.bound.has("supply") {
        step("a supply pool dice added".to_string(), t.supply);
    }
}

fn resolve(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let t = &tables.drums.initiative;
    let sides = sides(input)?;
    let mut res = input.resolution("initiative", "start of turn initiative");
    let counts = [0, 1].map(|i| pool(t, sides[i].bound, sides[i].generals).max(0) as u32);
    let contest = dice.contest(counts[0], counts[1], 6)?;
    let mut json_sides = Vec::new();
    if !res.quiet {
        for (i, sum) in [&contest.a, &contest.b].into_iter().enumerate() {
            let name = &sides[i].name;
            pool_rows(&mut res, t, &sides[i]);
            res.row(format!("{name} pool"), format!("{}D6", counts[i]));
            res.dice_rows(format_args!("{name}"), &sum.dice);
            res.row(format!("{name} total"), sum.total);
            json_sides.push(serde_json::json!({
                "name": name,
                "generals": sides[i].ids,
                "pool": counts[i],
                "dice": sum.dice.iter().map(|d| d.face).collect::<Vec<_>>(),
                "total": sum.total,
            }));
        }
    }
    let mut a_wins = contest.order == std::cmp::Ordering::Greater;
    if contest.order == std::cmp::Ordering::Equal {
        let tie = dice.tie_break(t.tie_dice, 6)?;
        for (round, (a, b)) in tie.rounds.iter().enumerate() {
            for (side, sum) in [(&sides[0], a), (&sides[1], b)] {
                let label = format!("draw {}: {} {}D6", round + 1, side.name, t.tie_dice);
                res.dice_rows(label, &sum.dice);
            }
            json_sides
                .push(serde_json::json!({"tie_round": round + 1, "a": a.total, "b": b.total}));
        }
        a_wins = tie.a_wins;
    }
    let (winner, side) = if a_wins {
        ("a", &sides[0])
    } else {
        ("b", &sides[1])
    };
    res.set_outcome(
        winner,
        format!("{} has the initiative", side.name),
        Tone::Neutral,
    );
    res.field("winner", winner);
    let what_if = sides.iter().any(|s| s.bound.has(WHAT_IF));
    if !what_if {
        let army = usize::from(winner == "b");
        res.effect(Target::Game, DrumsEffect::Initiative { army });
    }
    if res.quiet {
        return Ok(res);
    }
    res.field("winner_name", side.name.clone());
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
