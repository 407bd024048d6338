//! `roll EXPR`: plain dice under every rule system — `3d6`, `2d6+1`, `1d12`,
//! and pools counted against a score, `10d6>=4`.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::tag,
    character::complete::{digit1, one_of},
    combinator::{all_consuming, map, map_res, opt},
    sequence::preceded,
};

use crate::answer::resolution::{Resolution, Tone};
use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::command::Span;
use crate::dice::{DiceSource, MAX_DICE_PER_ROLL};
use crate::error::{BindError, CommandError, DiceError};
use crate::limits::MAX_TABLE_NUMBER;

/// A parsed `roll` expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RollExpr {
    pub(crate) count: u64,
    pub(crate) sides: u32,
    pub(crate) tail: Tail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tail {
    /// Sum the dice and add this.
    Add(i64),
    /// Count the dice showing at least this.
    AtLeast(u32),
}

fn number<T: std::str::FromStr>(input: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse::<T>).parse(input)
}

fn tail(input: &str) -> IResult<&str, Tail> {
    alt((
        map(preceded(tag(">="), number::<u32>), Tail::AtLeast),
        map((one_of("+-"), number::<i64>), |(sign, n)| {
            Tail::Add(if sign == '-' { -n } else { n })
        }),
    ))
    .parse(input)
}

fn roll_expr(input: &str) -> IResult<&str, RollExpr> {
    let (rest, (count, _, sides, tail)) =
        (opt(number::<u64>), one_of("dD"), number::<u32>, opt(tail)).parse(input)?;
    Ok((
        rest,
        RollExpr {
            count: count.unwrap_or(1),
            sides,
            tail: tail.unwrap_or(Tail::Add(0)),
        },
    ))
}

impl RollExpr {
    pub(crate) fn parse(text: &str) -> Option<RollExpr> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        all_consuming(roll_expr)
            .parse(&compact)
            .ok()
            .map(|(_, e)| e)
            .filter(|e| e.count >= 1 && (2..=1000).contains(&e.sides))
    }
}

pub(crate) fn verbs() -> Vec<VerbDoc> {
    vec![
        VerbDoc::new(
            None,
            "roll",
            "roll EXPR",
            "Plain dice: `3d6`, `2d6+1`, `1d12`, or a pool counted against a score: `10d6>=4`.",
            Vocab::new().raw(),
            resolve,
        )
        .examples(&[
            "roll 3d6",
            "roll 2d6+1",
            "roll 10d6>=4 rolled 1 2 3 4 5 6 6 5 4 3",
        ]),
    ]
}

/// The expression as typed and parsed, worked out once: `odds` runs the
/// resolver once for every total.
struct Parsed {
    text: String,
    expr: RollExpr,
}

fn parse_words(input: &Input) -> Result<Parsed, CommandError> {
    let raw = &input.words.raw;
    let (Some(first), Some(last)) = (raw.first(), raw.last()) else {
        return Err(
            input.missing("`roll` needs dice, like `roll 3d6`, `roll 2d6+1` or `roll 10d6>=4`")
        );
    };
    let span = Span::new(first.span.start, last.span.end);
    let text: String = raw.iter().map(|w| w.text.as_str()).collect();
    let expr = RollExpr::parse(&text).ok_or_else(|| BindError::BadValue {
        span,
        // As typed: `roll 10 6` is not quoted back as `106`.
        text: input
            .line
            .get(span.start..span.end)
            .map_or_else(|| text.clone(), str::to_string),
        expected: "expected dice like `3d6`, `2d6+1`, `1d12` or `10d6>=4` (2 to 1000 sides)".into(),
    })?;
    if expr.count > MAX_DICE_PER_ROLL {
        return Err(DiceError::TooManyToRoll {
            span,
            count: expr.count,
            max: MAX_DICE_PER_ROLL,
        }
        .into());
    }
    if let Tail::Add(add) = expr.tail
        && add.unsigned_abs() > MAX_TABLE_NUMBER as u64
    {
        return Err(BindError::BadValue {
            span,
            text: text.clone(),
            expected: format!(
                "the number added to the dice is at most {MAX_TABLE_NUMBER} either way"
            ),
        }
        .into());
    }
    Ok(Parsed { text, expr })
}

fn resolve(input: &Input, dice: &mut dyn DiceSource) -> Result<Resolution, CommandError> {
    let parsed = crate::memoized!(input, Parsed, || parse_words(input))?;
    let Parsed { text, expr } = &*parsed;
    let expr = *expr;
    let mut res = input.resolution("roll", format!("roll {text}"));
    let label = format_args!("{}d{}", expr.count, expr.sides);
    match expr.tail {
        Tail::Add(add) => {
            let sum = dice.sum(expr.count as u32, expr.sides)?;
            res.dice_rows(label, &sum.dice);
            // Both are bounded (dice by MAX_DICE_PER_ROLL, `add` above).
            let total = sum.total.saturating_add(add);
            if add != 0 {
                res.modifier("added", add);
            }
            res.set_score(total);
            res.set_outcome("total", format!("total {total}"), Tone::Neutral);
            res.field("total", total);
            res.measure("total", total as f64);
        }
        Tail::AtLeast(score) => {
            let pool = dice.pool(expr.count as u32, expr.sides, score)?;
            res.dice_rows(label, &pool.dice);
            let successes = pool.successes;
            res.row("counting dice at or above", score);
            res.set_outcome(
                "successes",
                format!("{successes} of {} at {score}+", expr.count),
                Tone::Neutral,
            );
            res.field("successes", successes);
            res.measure("successes", f64::from(successes));
        }
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions() {
        let e = RollExpr::parse("10d6>=4").unwrap();
        assert_eq!((e.count, e.sides, e.tail), (10, 6, Tail::AtLeast(4)));
        assert_eq!(RollExpr::parse("2d6+1").unwrap().tail, Tail::Add(1));
        assert_eq!(RollExpr::parse("2d6 - 1").unwrap().tail, Tail::Add(-1));
        assert_eq!(RollExpr::parse("d12").unwrap().count, 1);
        assert!(RollExpr::parse("0d6").is_none());
        assert!(RollExpr::parse("2d1").is_none());
        assert!(RollExpr::parse("2x6").is_none());
        assert!(RollExpr::parse("99999999999999999999999d6").is_none());
    }
}
