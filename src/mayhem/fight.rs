//! Hand-to-hand combat: each figure rolls a skill die plus the melee
//! modifiers; the higher hits, a tie has no effect. The winner's results die
//! equal to or higher than its own armament removes the loser, otherwise
//! the loser checks courage. A figure fighting several opponents
//! (`fight A vs B vs C`) fights them in order; if it is killed, the combats
//! not yet fought are cancelled.

mod combat;
mod side;

use serde_json::Value;

use std::rc::Rc;

use crate::answer::resolution::Tone;
use crate::bind::Vocab;
use crate::catalog::Input;
use crate::command::ClauseKind;
use crate::dice::{DiceSource, run_steps};
use crate::error::CommandError;

use super::{Counted, D6, MayhemTables, Repeats, token_words};
use super::{Resolution, VerbDoc};
use combat::{Combats, Tally};
use side::{Figures, Side};

const ARMAMENT: &str = "an armament";
/// Most opponents one figure may fight on a line.
pub(crate) const MAX_OPPONENTS: usize = 8;
/// Words every side takes besides the table rows; a table row may not reuse them.
pub(crate) const SIDE_WORDS: &[&str] = &[
    "armament",
    "skill",
    "impact",
    "saves",
    "rerolls",
    super::COMMANDER,
];
const MAX_BONUS: i64 = 6;
/// A figure's bonuses in melee, as its list gives them (`bonus.melee`).
const MELEE_SKILL: &str = "melee-skill";
const MELEE_IMPACT: &str = "melee-impact";

fn side_vocab(tables: &MayhemTables) -> Vocab {
    let t = &tables.fight;
    let mut vocab = Vocab::new();
    for m in &t.modifier {
        vocab = vocab.flag(&m.keyword, m.row.clone());
        for alias in &m.aliases {
            vocab = vocab.flag(alias, format!("same as `{}`: {}", m.keyword, m.row));
        }
    }
    for a in &t.armament {
        let default = if a.default { " (the default)" } else { "" };
        vocab = vocab.choice(
            ARMAMENT,
            &a.keyword,
            format!("armament {}: {}{default}", a.value, a.row),
        );
    }
    vocab = vocab
        .number(
            "armament",
            1,
            i64::from(D6),
            "armament value given as a number (`armament=4`)",
        )
        .number(
            "skill",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the skill die (`skill+1`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            "impact",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the results die when this figure hits (`impact+1`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            MELEE_SKILL,
            0,
            MAX_BONUS,
            "hero's bonus to the skill die in melee (an army list's `bonus.melee`)",
        )
        .number(
            MELEE_IMPACT,
            0,
            MAX_BONUS,
            "hero's bonus to the results die in melee (an army list's `bonus.melee`)",
        )
        .flag(
            super::COMMANDER,
            format!(
                "the commander of the contingent, a leader (+1 if leader): if killed, {} (a figure in a game brings it)",
                tables.courage.commander.row.to_lowercase()
            ),
        )
        // A typed bonus stands for the hero's: it displaces the list's.
        .slot(&["skill", MELEE_SKILL])
        .slot(&["impact", MELEE_IMPACT]);
    token_words(
        vocab,
        &tables.heroes,
        "one is spent automatically to reroll this figure's skill die when it loses (the reroll stands)",
    )
}

pub(crate) fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let vocab = side_vocab(tables);
    VerbDoc::new(
        Some(super::MAYHEM),
        "fight",
        "fight A-words… vs B-words… [vs C-words…]",
        "Hand-to-hand: opposed skill dice with the melee modifiers; the winner's results die against its armament (6/5/4) kills, else the loser checks courage.",
        vocab.clone(),
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .clause(ClauseKind::Vs, vocab, MAX_OPPONENTS)
    .examples(&[
        "fight leader shock vs armed",
        "fight specialist superior vs unarmed rolled 4 4 6",
        "fight rear bayonet vs leader rolled 2 5 6",
        "fight specialist saves=1 vs armed vs armed rear",
    ])
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let figures = crate::memoized!(input, Figures, || Figures::new(tables, input))?;
    let Figures { a, bs } = &*figures;
    let mut dice = Counted::new(dice, Repeats::Each);
    let dice = &mut dice;
    let several = bs.len() > 1;
    let heading = if several {
        format!(
            "hand-to-hand, {} against {} opponents in order",
            a.who(),
            bs.len()
        )
    } else {
        format!("hand-to-hand, {} vs {}", a.who(), bs[0].who())
    };
    let res = input.resolution("fight", heading);
    let quiet = res.quiet;
    let mut combats = Combats {
        tables,
        res,
        a,
        bs,
        accounts: Vec::new(),
        texts: Vec::new(),
        checks: Vec::new(),
    };
    let tally = run_steps(dice, Tally::new(a.tokens), &mut combats)?;
    let Combats {
        mut res,
        accounts: combats,
        mut texts,
        checks,
        ..
    } = combats;
    if tally.cancelled > 0 {
        res.row(
            "combats cancelled",
            format_args!("{} ({} was killed)", tally.cancelled, a.who()),
        );
        texts.push(cancelled_text(a.who(), tally.cancelled));
    }
    let (outcome, result) = tally
        .last
        .as_ref()
        .map_or(("tie", None), |l| (l.outcome, l.result));
    res.field("result", result.map_or(Value::Null, Value::from));
    if !quiet {
        if let Some(only) = combats.first().filter(|_| !several) {
            for key in ["a", "b"] {
                res.field(key, only[key].clone());
            }
        }
        if let Some(id) = &a.id {
            res.field("a_figure", id.as_str());
        }
        res.field("combats", Value::Array(combats));
    }
    if !quiet {
        res.field("cancelled", tally.cancelled);
        if tally.a_tokens.any() {
            res.field("a_tokens", tally.a_tokens.json());
        }
    }
    let tone = if tally.a_killed {
        Tone::Bad
    } else if outcome == "tie" {
        Tone::Neutral
    } else {
        Tone::Good
    };
    res.set_outcome(outcome, texts.join("; "), tone);
    res.odds_group = Some(if several {
        tally.summary(a.who(), bs.len()).into()
    } else {
        tally
            .last
            .map_or_else(String::new, |l| l.group(a.who(), bs[0].who()))
            .into()
    });
    if tally.a_checks + tally.b_checks > 0 {
        res.note(courage_advice(&checks));
    }
    // Each combat may throw two skill dice, a reroll for each side that
    // holds a token (A one a combat, as long as it has them), and a
    // results die.
    let k = bs.len();
    let a_rerolls = usize::try_from(a.tokens.rerolls_left()).unwrap_or(0).min(k);
    let most = 3 * k + a_rerolls + bs.iter().filter(|b| b.tokens.rerolls_left() > 0).count();
    dice.unused(input, &mut res, most, || unthrown(&tally, a, bs))?;
    Ok(res)
}

/// What the umpire types next for each figure hit and not killed: its own
/// `courage` line where the fight named it, else the value to fill in.
fn courage_advice(checks: &[(String, bool)]) -> String {
    if checks.is_empty() || checks.iter().any(|(_, named)| !named) {
        return "A figure hit but not killed checks courage as in fire combat (`courage VALUE cause=fire`).".into();
    }
    let mut who: Vec<&str> = Vec::new();
    for (id, _) in checks {
        if !who.contains(&id.as_str()) {
            who.push(id);
        }
    }
    format!(
        "{} {} courage as in fire combat: {}.",
        who.join(" and "),
        if who.len() == 1 { "checks" } else { "check" },
        who.iter()
            .map(|id| format!("`courage {id} cause=fire`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Why the dice a fight did not throw were not needed.
fn unthrown(tally: &Tally, a: &Side, bs: &[Side]) -> String {
    let k = bs.len();
    let mut why = Vec::new();
    if tally.ties > 0 {
        why.push(if k == 1 {
            "the skill dice tied, so no results die was thrown".to_string()
        } else {
            format!(
                "{} combat(s) tied, so no results die was thrown for them",
                tally.ties
            )
        });
    }
    if tally.cancelled > 0 {
        why.push(format!(
            "{} was killed, so the {} combat(s) not yet fought threw no dice",
            a.who(),
            tally.cancelled
        ));
    }
    if why.is_empty() || a.tokens.rerolls > 0 || bs.iter().any(|b| b.tokens.rerolls > 0) {
        why.push("a reroll token is spent only by the side that loses its skill die".into());
    }
    why.join("; ")
}

fn cancelled_text(a: &str, cancelled: usize) -> String {
    format!("{a} is killed: the {cancelled} combat(s) not yet fought are cancelled")
}
