//! Combat factors as the user types them: `5`, `5h` (halved once), `5hh`
//! (halved twice or more), `(5)` (parenthesized: halved when attacking),
//! and the halving rule (standard 7.7, QuickPlay 7.4).

use crate::command::{Span, Word, WordKind};
use crate::error::BindError;

use super::CombatTable;
use super::Resolution;

/// The largest factor a counter could print.
pub(crate) const MAX_FACTOR: i64 = 99;

/// One unit's factor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Factor {
    pub(crate) text: String,
    pub(crate) span: Span,
    pub(crate) printed: i64,
    /// `h` marks typed after it.
    pub(crate) marks: u32,
    pub(crate) parenthesized: bool,
}

impl Factor {
    /// Read one word as a factor.
    pub(crate) fn parse(word: &Word) -> Result<Factor, BindError> {
        let bad = |why: &str| BindError::BadValue {
            span: word.span,
            text: word.text.to_string(),
            expected: format!(
                "{why}; a combat factor is a whole number from 0 to {MAX_FACTOR}, like 5, 5h (halved once), 5hh (halved twice or more) or (5) (parenthesized)"
            ),
        };
        if let WordKind::Number(n) = word.kind
            && n.fract() != 0.0
        {
            return Err(bad("factors are whole numbers"));
        }
        let text = word.text.trim();
        let lower = text.to_ascii_lowercase();
        let body = lower.trim_end_matches('h');
        let marks = (lower.len() - body.len()) as u32;
        let (digits, parenthesized) = match (body.strip_prefix('('), body.strip_suffix(')')) {
            (Some(inner), Some(_)) => (&inner[..inner.len().saturating_sub(1)], true),
            (Some(_), None) => return Err(bad("the parenthesis is not closed")),
            (None, Some(_)) => return Err(bad("the parenthesis is not opened")),
            (None, None) => (body, false),
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(bad(if text.starts_with('-') {
                "factors are not negative"
            } else {
                "it is not a number with halving marks"
            }));
        }
        let printed: i64 = digits
            .parse()
            .ok()
            .filter(|n| *n <= MAX_FACTOR)
            .ok_or_else(|| bad("it is too large"))?;
        Ok(Factor {
            text: word.text.to_string(),
            span: word.span,
            printed,
            marks,
            parenthesized,
        })
    }

    /// How many times the factor is halved: its marks, once more when it
    /// is parenthesized and attacking, plus any halving from the situation.
    pub(crate) fn halvings(&self, attacking: bool, extra: u32) -> u32 {
        self.marks + u32::from(self.parenthesized && attacking) + extra
    }
}

/// The halving rule: once, divide by two rounding up; twice or more, the
/// table's value (1), with zero staying zero where the rules say so.
pub(crate) fn halve(printed: i64, halvings: u32, table: &CombatTable) -> i64 {
    match halvings {
        0 => printed,
        1 => (printed + 1) / 2,
        _ if printed == 0 && table.zero_stays_zero => 0,
        _ => table.halved_twice_counts,
    }
}

/// What the halving did, for the explanation row.
pub(crate) fn halving_label(halvings: u32, table: &CombatTable) -> String {
    match halvings {
        0 => "as printed".into(),
        1 => format!("halved once: {}", table.halved_once),
        n => format!("halved {n} times: {}", table.halved_twice),
    }
}

/// What a factor counts, halved as often as it is, with its row: `who`,
/// the factor as typed, and how it was halved.
pub(crate) fn count(
    res: &mut Resolution,
    who: &str,
    factor: &Factor,
    halvings: u32,
    table: &CombatTable,
) -> i64 {
    let value = halve(factor.printed, halvings, table);
    if !res.quiet {
        res.row(
            format_args!("{who} {} ({})", factor.text, halving_label(halvings, table)),
            value,
        );
    }
    value
}

/// Like [`count`], for a factor halved because its unit is disrupted:
/// the row says so.
pub(crate) fn count_disrupted(
    res: &mut Resolution,
    who: &str,
    factor: &Factor,
    halvings: u32,
    table: &CombatTable,
) -> i64 {
    let value = halve(factor.printed, halvings, table);
    if !res.quiet {
        res.row(
            format_args!(
                "{who} {}, disrupted: halved when attacking (11.1) ({})",
                factor.text,
                halving_label(halvings, table)
            ),
            value,
        );
    }
    value
}

/// Every raw word of a side as a factor.
pub(crate) fn parse_all(words: &[Word]) -> Result<Vec<Factor>, BindError> {
    words.iter().map(Factor::parse).collect()
}
