//! Hold tests: 2D6 (or 1D12) + adjustments; at or above the threshold the
//! unit must charge, otherwise it is free (one action point spent).

use std::rc::Rc;

use crate::answer::resolution::Tone;
use crate::bind::Vocab;
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::CommandError;

use super::Tables;
use super::exclusive;
use super::{Resolution, VerbDoc};

/// A unit of a side whose general was lost this turn (Risk to Generals).
pub(crate) const ONE_ACTION: &str = "one-action";

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
    let mut vocab = Vocab::new().flag("d12", "throw 1D12 instead of 2D6");
    for adj in &tables.hold.adjustment {
        vocab.add(
            adj.keyword.clone(),
            crate::bind::Kind::Flag,
            format!(
                "{}: {}",
                adj.row,
                crate::answer::resolution::signed(adj.value)
            ),
        );
    }
    vocab = vocab.flag(
        ONE_ACTION,
        "Risk to Generals: a general of the unit's side was swept away or hit this turn, and its units can only expend 1 action point for the rest of the turn (a unit brings it in a game until `next-turn`)",
    );
    let vocab = exclusive::annotate(vocab, exclusive::HOLD, &[]);
    VerbDoc::new(
        Some(super::DRUMS),
        "hold",
        "hold [d12] situation…",
        format!(
            "Hold test: {} (or {}) + adjustments; {} or more must charge, else free (1 action point spent).",
            tables.hold.dice, tables.hold.alternative_dice, tables.hold.must_charge_at
        ),
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .examples(&["hold +determined +not-charged", "hold lackluster weak rolled 5 4"])
}

fn resolve(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let table = &tables.drums.hold;
    let words = &input.words;
    exclusive::check(input, words, exclusive::HOLD)?;
    let expr = if words.has("d12") {
        &table.alternative_dice
    } else {
        &table.dice
    };
    let mut res = input.resolution("hold", format!("hold test ({expr})"));
    let (rolled, mut score) = expr.roll(dice)?;
    res.dice_rows(&expr.text, &rolled);
    for adj in &table.adjustment {
        if words.has(&adj.keyword) {
            res.modifier(adj.row.clone(), adj.value);
            score += adj.value;
        }
    }
    res.set_score(score);
    res.field("must_charge_at", table.must_charge_at);
    if score >= table.must_charge_at {
        res.set_outcome(
            "must-charge",
            format!("must charge ({} or more)", table.must_charge_at),
            Tone::Bad,
        );
    } else {
        res.set_outcome(
            "free",
            format!(
                "free to act as normal ({} or less); 1 action point has been spent",
                table.must_charge_at - 1
            ),
            Tone::Good,
        );
    }
    if words.has(ONE_ACTION) {
        res.field("one_action_point", true);
        res.note(if score >= table.must_charge_at {
            "Risk to Generals: its side's units can only expend 1 action point for the rest of the turn."
        } else {
            "Risk to Generals: its side's units can only expend 1 action point for the rest of the turn, and \"1 action point has now been spent for that unit\": it has none left this turn."
        });
    }
    Ok(res)
}
