//! The order of play. "Players (sides) dice for initiative each turn.
//! Winner chooses to go first or second. If there is a tie, repeat the
//! previous turn's sequence." "In the event that multiple sides are
//! required, activation will be by card draw from a deck with one card per
//! player."

use serde_json::json;

use std::rc::Rc;

use crate::answer::resolution::{Target, Tone};
use crate::bind::Vocab;
use crate::catalog::Input;
use crate::dice::{DiceSource, Rolled};
use crate::error::{BindError, CommandError, ErrorKind};

use super::game::{MayhemEffect, side_name};
use super::{D6, MayhemTables};
use super::{Resolution, VerbDoc};

const CHOICE: &str = "the winner's choice";
const PREVIOUS: &str = "the previous turn's sequence";
// The game adds these words itself, so they live with it.
use super::game::{DICED_THIS_TURN, FIRST_TURN, PREVIOUS_WORDS, RECORDED_WORDS};
const RECORDED: &str = "the previous turn's sequence as the game records it";
/// Most sides (players) on one line.
const MAX_SIDES: i64 = 8;

pub(crate) fn initiative_verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let i = &tables.initiative;
    let vocab = Vocab::new()
        .choice(
            CHOICE,
            "first",
            "the winner chooses to go first (taken when neither is said)",
        )
        .choice(CHOICE, "second", "the winner chooses to go second")
        .choice(
            PREVIOUS,
            PREVIOUS_WORDS[0],
            "side a went first the previous turn: a tie repeats it (a game adds this itself)",
        )
        .choice(
            PREVIOUS,
            PREVIOUS_WORDS[1],
            "side b went first the previous turn: a tie repeats it (a game adds this itself)",
        )
        .choice(
            PREVIOUS,
            FIRST_TURN,
            "the game's first turn: with no previous sequence to repeat, a tie is diced again (a game adds this itself)",
        )
        .choice(
            RECORDED,
            RECORDED_WORDS[0],
            "side a went first the previous turn, as the game records it (a game adds this itself)",
        )
        .choice(
            RECORDED,
            RECORDED_WORDS[1],
            "side b went first the previous turn, as the game records it (a game adds this itself)",
        )
        .flag(
            DICED_THIS_TURN,
            format!(
                "this turn's sequence is diced already (a game adds this itself): \"{}\" — once a turn",
                i.row
            ),
        )
        .number(
            "sides",
            2,
            MAX_SIDES,
            format!(
                "how many sides play (2; a game gives its own): with more, `activation` — {}",
                tables.activation.row
            ),
        );
    let mut doc = VerbDoc::new(
        Some(super::MAYHEM),
        "initiative",
        "initiative [first|second] [previous-a-first|previous-b-first|first-turn]",
        "Initiative: a die per side; the winner chooses to go first or second; a tie repeats the previous turn's sequence (a game remembers it).",
        vocab,
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_initiative(&t, input, dice)
        },
    )
    .examples(&[
        "initiative",
        "initiative rolled 3 5",
        "initiative second rolled 5 2",
        "initiative previous-b-first rolled 4 4",
    ]);
    doc.vocab.add(
        "(rule)",
        crate::bind::Kind::Flag,
        format!("{} {}", i.row, i.tie),
    );
    doc
}

/// How a line names side `i`: in a game of two armies, by the side its
/// list names (`France`); else by its letter (`side a`).
fn named_side(input: &Input, i: usize) -> String {
    match input.sides.get(i) {
        Some(side) if input.sides.len() >= 2 && !side.is_empty() => side.clone(),
        _ => side_name(i),
    }
}

/// "France wins …", as the winner chose or not.
fn win_text(input: &Input, winner: usize, choice: Option<&str>) -> String {
    let (w, other) = (
        named_side(input, winner),
        named_side(input, 1 - winner.min(1)),
    );
    match choice {
        None => format!("{w} wins: it chooses to go first or second"),
        Some("second") => format!("{w} wins and chooses to go second: {other} goes first"),
        Some(_) => format!("{w} wins and goes first"),
    }
}

/// "Players (sides) dice for initiative each turn": once a turn, where a
/// game says this turn's sequence is diced; and a previous turn's sequence
/// said on the line may not contradict the one the game records.
fn once_and_as_recorded(
    t: &super::tables::InitiativeTable,
    input: &Input,
) -> Result<(), CommandError> {
    let words = &input.words;
    if words.has(DICED_THIS_TURN) {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotNow,
            span: input.command.verb_span,
            text: "initiative".into(),
            why: format!(
                "is diced already this turn: \"{}\" — once a turn; `undo` takes back the first throw, `next-turn` begins the next turn",
                t.row
            ),
        }
        .into());
    }
    if let (Some((typed, _)), Some((recorded, _))) =
        (words.choice(PREVIOUS), words.choice(RECORDED))
    {
        let first = usize::from(recorded == RECORDED_WORDS[1]);
        if typed != PREVIOUS_WORDS[first] {
            return Err(BindError::NotHere {
                kind: ErrorKind::Contradiction,
                span: words.span_of(typed).unwrap_or(input.command.verb_span),
                text: typed.to_string(),
                why: format!(
                    "contradicts the game: {} went first the previous turn (the game adds `{}` itself: leave the word out)",
                    named_side(input, first),
                    PREVIOUS_WORDS[first]
                ),
            }
            .into());
        }
    }
    Ok(())
}

fn resolve_initiative(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    let t = &tables.initiative;
    let words = &input.words;
    if let Some(n) = words.value("sides").filter(|n| *n > 2) {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span: input.command.verb_span,
            text: "initiative".into(),
            why: format!(
                "is diced by two sides, and {n} play: \"{}\" — `activation {n}` (in a game, `activation`)",
                tables.activation.row
            ),
        }
        .into());
    }
    once_and_as_recorded(t, input)?;
    let choice = words.choice(CHOICE).map(|(c, _)| c);
    let previous = match words.choice(PREVIOUS).map(|(p, _)| p) {
        Some(p) if p == PREVIOUS_WORDS[0] => Some(Some(0)),
        Some(p) if p == PREVIOUS_WORDS[1] => Some(Some(1)),
        // The first turn: none to repeat.
        Some(_) => Some(None),
        None => None,
    };
    let mut res = input.resolution("initiative", "initiative, a die per side");
    let a = dice.roll(D6)?;
    res.die(named_side(input, 0), a);
    let b = dice.roll(D6)?;
    res.die(named_side(input, 1), b);
    res.field(
        "sides",
        json!([{"dice": [a.face], "total": a.face}, {"dice": [b.face], "total": b.face}]),
    );
    let chosen_first = |winner: usize| match choice {
        Some("second") => 1 - winner,
        _ => winner,
    };
    let (outcome, text, first) = if a.face != b.face {
        let winner = usize::from(b.face > a.face);
        (
            ["a", "b"][winner],
            win_text(input, winner, choice),
            Some(chosen_first(winner)),
        )
    } else {
        match previous {
            Some(Some(p)) => (
                "tie",
                format!(
                    "tie: {} — {} goes first, as last turn",
                    t.tie.to_lowercase().trim_end_matches('.'),
                    named_side(input, p)
                ),
                Some(p),
            ),
            Some(None) => {
                let tie = dice.tie_break(1, D6)?;
                for (round, (a, b)) in tie.rounds.iter().enumerate() {
                    let (na, nb) = (named_side(input, 0), named_side(input, 1));
                    res.dice_rows(format_args!("draw {}: {na}", round + 1), &a.dice);
                    res.dice_rows(format_args!("draw {}: {nb}", round + 1), &b.dice);
                }
                let winner = usize::from(!tie.a_wins);
                res.field("tie_rounds", tie.rounds.len());
                (
                    ["a", "b"][winner],
                    format!(
                        "tie on the first turn, with no previous sequence to repeat: diced again — {}",
                        win_text(input, winner, choice)
                    ),
                    Some(chosen_first(winner)),
                )
            }
            None => ("tie", format!("tie: {}", t.tie.to_lowercase()), None),
        }
    };
    res.field("winner", outcome);
    if let Some(first) = first {
        res.field("first", ["a", "b"][first.min(1)]);
        res.effect(
            Target::Game,
            MayhemEffect::Sequence {
                order: vec![first, 1 - first.min(1)],
            },
        );
        if choice.is_none() && outcome != "tie" {
            res.note("The winner is taken as going first: say `second` on the line if it chooses to go second (a tie next turn repeats this turn's sequence).");
        }
    } else {
        res.note("A game remembers each turn's sequence; without one, say which side went first the previous turn (`previous-a-first`, `previous-b-first`).");
    }
    res.set_outcome(outcome, text, Tone::Neutral);
    Ok(res)
}

pub(crate) fn activation_verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    VerbDoc::new(
        Some(super::MAYHEM),
        "activation",
        "activation N",
        "Activation with more than two sides: a card per player drawn for the order of play (in a game, one per army).",
        Vocab::new()
            .with_number(
                "the number of players, one card each: 3 or more (two sides dice for `initiative`); in a game, its armies",
            )
            .number(
                "sides",
                1,
                MAX_SIDES,
                "the sides the game has, one card each (a game adds this itself)",
            ),
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve_activation(&t, input, dice)
        },
    )
    .examples(&["activation 3", "activation 4 rolled 2 3 1"])
    .tap_rule(format!(
        "{} Each die entered is the card drawn, numbered among the cards still in the deck in side order (a, b, c…); the last card is the one left.",
        tables.activation.row
    ))
}

trait TapRule {
    fn tap_rule(self, text: String) -> Self;
}

impl TapRule for VerbDoc {
    fn tap_rule(mut self, text: String) -> Self {
        self.vocab.add("(rule)", crate::bind::Kind::Flag, text);
        self
    }
}

fn resolve_activation(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    crate::bind::no_clauses(input.command)?;
    let n = players(tables, input)?;
    let mut res = input.resolution(
        "activation",
        format!("activation by card draw, {n} players"),
    );
    let mut deck: Vec<usize> = (0..n).collect();
    let mut order = Vec::with_capacity(n);
    let mut cards: Vec<u32> = Vec::new();
    while deck.len() > 1 {
        let left = deck.len();
        let die: Rolled = dice.roll(left as u32)?;
        let at = (die.face as usize).clamp(1, left) - 1;
        let side = deck.remove(at);
        res.die(
            format_args!("card {}, of {left} left", order.len() + 1),
            die,
        );
        res.row(
            format_args!("card {}", order.len() + 1),
            named_side(input, side),
        );
        order.push(side);
        cards.push(die.face);
    }
    if let Some(last) = deck.pop() {
        res.row(
            format_args!("card {}, the last", order.len() + 1),
            named_side(input, last),
        );
        order.push(last);
    }
    let names: Vec<String> = order.iter().map(|i| named_side(input, *i)).collect();
    res.field(
        "order",
        order
            .iter()
            .map(|i| side_name(*i).trim_start_matches("side ").to_string())
            .collect::<Vec<_>>(),
    );
    res.field("cards", cards);
    res.set_outcome(
        "order",
        format!("order of play: {}", names.join(", then ")),
        Tone::Neutral,
    );
    res.effect(Target::Game, MayhemEffect::Sequence { order });
    Ok(res)
}

/// The players of a card draw: typed, or the sides of the game (which
/// must agree), more than two.
fn players(tables: &MayhemTables, input: &Input) -> Result<usize, CommandError> {
    let sides = input.words.value("sides");
    let (n, span) = match (input.words.number, sides) {
        (Some((n, span)), Some(sides)) => {
            if n != sides as f64 {
                return Err(BindError::NotHere {
                    kind: ErrorKind::Contradiction,
                    span,
                    text: n.to_string(),
                    why: format!(
                        "players draw, and the game has {sides} sides, one card each: leave the number out (`activation`)"
                    ),
                }
                .into());
            }
            (n, span)
        }
        (Some(number), None) => number,
        (None, Some(sides)) => (
            sides as f64,
            input.words.span_of("sides").unwrap_or_default(),
        ),
        (None, None) => {
            return Err(input.missing(
                "`activation` needs the number of players, like `activation 3` (a game gives its armies)",
            ));
        }
    };
    if n.fract() != 0.0 || n < 2.0 || n > MAX_SIDES as f64 {
        return Err(BindError::BadValue {
            span,
            text: n.to_string(),
            expected: format!("the players are a whole number from 3 to {MAX_SIDES}"),
        }
        .into());
    }
    let n = n as usize;
    if n == 2 {
        return Err(BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span: input.command.verb_span,
            text: "activation".into(),
            why: format!(
                "draws cards when more than two sides play; two sides dice for initiative (`initiative`): \"{}\"",
                tables.initiative.row
            ),
        }
        .into());
    }
    Ok(n)
}
