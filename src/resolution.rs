//! What a resolver returns: the dice, the modifier stack, the score and the
//! outcome, plus the procedure's own fields for JSON.

use serde_json::{Map, Value};

use crate::command::System;
use crate::dice::Rolled;

/// One row of the explanation table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub label: String,
    pub value: String,
}

/// One adjustment between the dice and the score, named by its table row.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    pub label: String,
    pub value: i64,
}

/// How an outcome should be coloured: good for the acting unit, bad, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Good,
    Neutral,
    Bad,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Resolution {
    pub rules: System,
    pub verb: &'static str,
    /// A short description shown above the table: "resilience test, from shooting".
    pub heading: String,
    /// The seed of the generator, when any die came from it.
    pub seed: Option<u64>,
    pub dice: Vec<Rolled>,
    pub rows: Vec<Row>,
    pub modifiers: Vec<Modifier>,
    pub score: Option<i64>,
    /// Machine id of the outcome (`carry-on`, `must-charge`, …).
    pub outcome: String,
    /// The outcome in the rule's words.
    pub outcome_text: String,
    pub tone: Tone,
    /// Extra lines under the outcome: follow-ups the rules require.
    pub notes: Vec<String>,
    /// Procedure-specific JSON fields.
    pub fields: Map<String, Value>,
    /// Units of loaded armies the command named.
    pub units: Vec<crate::catalog::NamedUnit>,
}

impl Resolution {
    pub fn new(rules: System, verb: &'static str, heading: impl Into<String>) -> Resolution {
        Resolution {
            rules,
            verb,
            heading: heading.into(),
            seed: None,
            dice: Vec::new(),
            rows: Vec::new(),
            modifiers: Vec::new(),
            score: None,
            outcome: String::new(),
            outcome_text: String::new(),
            tone: Tone::Neutral,
            notes: Vec::new(),
            fields: Map::new(),
            units: Vec::new(),
        }
    }

    /// A die in the stack: `2D6 die 1 (rolled)  4`.
    pub fn die(&mut self, label: &str, die: Rolled) {
        self.rows.push(Row {
            label: format!("{label} ({})", die.how()),
            value: die.face.to_string(),
        });
        self.dice.push(die);
    }

    /// Several dice under one label, numbered when there is more than one.
    pub fn dice_rows(&mut self, label: &str, dice: &[Rolled]) {
        for (i, die) in dice.iter().enumerate() {
            if dice.len() == 1 {
                self.die(label, *die);
            } else {
                self.die(&format!("{label} die {}", i + 1), *die);
            }
        }
    }

    /// An adjustment with its table row.
    pub fn modifier(&mut self, label: impl Into<String>, value: i64) {
        let label = label.into();
        self.rows.push(Row {
            label: label.clone(),
            value: signed(value),
        });
        self.modifiers.push(Modifier { label, value });
    }

    /// A plain explanation row (a looked-up value, a fixed distance).
    pub fn row(&mut self, label: impl Into<String>, value: impl ToString) {
        self.rows.push(Row {
            label: label.into(),
            value: value.to_string(),
        });
    }

    pub fn set_score(&mut self, score: i64) {
        self.score = Some(score);
        self.row("score", score);
    }

    pub fn set_outcome(&mut self, id: impl Into<String>, text: impl Into<String>, tone: Tone) {
        self.outcome = id.into();
        self.outcome_text = text.into();
        self.tone = tone;
    }

    pub fn field(&mut self, key: &str, value: impl Into<Value>) {
        self.fields.insert(key.to_string(), value.into());
    }

    pub fn note(&mut self, text: impl Into<String>) {
        self.notes.push(text.into());
    }
}

/// `+1`, `-2`, `+0`: adjustments always show their sign.
pub fn signed(value: i64) -> String {
    if value < 0 {
        format!("−{}", -value)
    } else {
        format!("+{value}")
    }
}
