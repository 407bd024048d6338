//! The Table of allowed interpenetrations: whether a unit moving in one
//! formation may pass through a unit in another ("X = allowed
//! interpenetration").

use std::rc::Rc;

use crate::answer::resolution::Tone;
use crate::bind::{Kind, Vocab};
use crate::catalog::Input;
use crate::command::{Span, WordKind};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::named::{is_general, refuse};
use super::{InterpenetrationColumn, InterpenetrationRow, InterpenetrationTable, Tables};
use super::{Resolution, VerbDoc};

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
    let t = &all.drums.interpenetration;
    // Words in the order of the table: a row's, then a column's.
    let mut vocab = Vocab::new().raw();
    let mut words: Vec<&str> = Vec::new();
    for w in t
        .row
        .iter()
        .flat_map(|r| &r.formations)
        .chain(t.column.iter().flat_map(|c| &c.formations))
    {
        if !words.contains(&w.as_str()) {
            words.push(w);
        }
    }
    for w in words {
        let moving = t.row.iter().find(|r| r.formations.iter().any(|f| f == w));
        let through = t
            .column
            .iter()
            .find(|c| c.formations.iter().any(|f| f == w));
        let help = match (moving, through) {
            (Some(r), Some(c)) => format!(
                "moving: the row {}; passed through: the column {}",
                r.moving, c.title
            ),
            (Some(r), None) => format!("moving only: the row {}", r.moving),
            (None, Some(c)) => format!("passed through only: the column {}", c.title),
            (None, None) => continue,
        };
        vocab.add(w, Kind::Flag, help);
    }
    VerbDoc::new(
        Some(super::DRUMS),
        "interpenetrate",
        "interpenetrate MOVING THROUGH",
        "Table of allowed interpenetrations: may a unit moving in one formation pass through a unit in another? (X = allowed)",
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .examples(&[
        "interpenetrate open formed",
        "interpenetrate line column-of-march",
        "interpenetrate column-of-attack open",
    ])
}

/// One formation word of the line, typed or the formation a named unit is
/// in, with where it stands.
struct Said {
    word: String,
    span: Span,
    text: String,
}

impl Said {
    /// "`line`", or "`garde-3` (line)" for a named unit: the core's "from"
    /// row cannot show what a verb of raw words read from the unit.
    fn said(&self) -> String {
        if self.text == self.word {
            format!("`{}`", self.word)
        } else {
            format!("`{}` ({})", self.text, self.word)
        }
    }
}

fn said(input: &Input, t: &InterpenetrationTable) -> Result<Vec<Said>, CommandError> {
    let known = |w: &str| {
        t.row
            .iter()
            .flat_map(|r| &r.formations)
            .chain(t.column.iter().flat_map(|c| &c.formations))
            .any(|f| f == w)
    };
    let mut out = Vec::new();
    for word in &input.words.raw {
        match &word.kind {
            WordKind::Keyword { name, value: None } if known(name) => out.push(Said {
                word: name.to_string(),
                span: word.span,
                text: word.text.to_string(),
            }),
            _ => {
                let all: Vec<&str> = t
                    .row
                    .iter()
                    .flat_map(|r| &r.formations)
                    .chain(t.column.iter().flat_map(|c| &c.formations))
                    .map(String::as_str)
                    .collect();
                return Err(BindError::UnknownWord {
                    span: word.span,
                    word: word.text.to_string(),
                    verb: "interpenetrate".into(),
                    suggestion: crate::bind::nearest(
                        &crate::parse::normalise(&word.text),
                        all.into_iter(),
                    ),
                }
                .into());
            }
        }
    }
    for n in &input.named {
        if is_general(n) {
            return Err(refuse(
                ErrorKind::NotApplicable,
                input,
                n,
                "is a general, and generals have no formation (NA on the sheet): name a unit",
            ));
        }
        let Some(f) = n.facts.facts.iter().find(|f| known(&f.word)) else {
            return Err(refuse(
                ErrorKind::NotApplicable,
                input,
                n,
                "brings no formation the Table of allowed interpenetrations knows",
            ));
        };
        out.push(Said {
            word: f.word.to_string(),
            span: n.span,
            text: super::named::typed(input, n).to_string(),
        });
    }
    out.sort_by_key(|s| s.span.start);
    Ok(out)
}

fn resolve(
    tables: &Tables,
    input: &Input,
    _dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let t = &tables.drums.interpenetration;
    if t.row.is_empty() || t.column.is_empty() {
        return Err(input.missing(
            "these tables have no Table of allowed interpenetrations: give `[[interpenetration.column]]` and `[[interpenetration.row]]` in drums.toml (the shipped tables/drums.toml has them)",
        ));
    }
    let words = said(input, t)?;
    let (moving, through) = match words.as_slice() {
        [a, b] => (a, b),
        [_, _, extra, ..] => {
            return Err(BindError::NotHere {
                kind: ErrorKind::ExtraWord,
                span: extra.span,
                text: extra.text.clone(),
                why: "is a third formation: give the moving unit's, then that of the unit it passes through".into(),
            }
            .into());
        }
        _ => {
            return Err(input.missing(
                "`interpenetrate` needs the moving unit's formation, then that of the unit it passes through: `interpenetrate open formed`",
            ));
        }
    };
    let row: &InterpenetrationRow = t
        .row
        .iter()
        .find(|r| r.formations.contains(&moving.word))
        .ok_or_else(|| {
            no_place(
                moving,
                "row",
                t.row.iter().map(|r| (&r.moving, &r.formations)),
            )
        })?;
    let column: &InterpenetrationColumn = t
        .column
        .iter()
        .find(|c| c.formations.contains(&through.word))
        .ok_or_else(|| {
            no_place(
                through,
                "column",
                t.column.iter().map(|c| (&c.title, &c.formations)),
            )
        })?;
    let allowed = row.allowed.contains(&column.id);
    let mut res = input.resolution(
        "interpenetrate",
        format!("interpenetration, {} through {}", row.moving, column.title),
    );
    res.row(format_args!("moving unit: {}", moving.said()), &row.moving);
    res.row(
        format_args!("unit interpenetrated: {}", through.said()),
        &column.title,
    );
    res.row(
        format_args!(
            "Table of allowed interpenetrations: {} | {}",
            row.moving, column.title
        ),
        if allowed { "X" } else { "—" },
    );
    res.field("moving", row.moving.clone());
    res.field("through", column.title.clone());
    res.field("allowed", allowed);
    if allowed {
        res.set_outcome(
            "allowed",
            format!(
                "allowed (X): a unit moving in {} may interpenetrate a unit in {}",
                row.moving, column.title
            ),
            Tone::Good,
        );
    } else {
        res.set_outcome(
            "not-allowed",
            format!(
                "not allowed: a unit moving in {} may not interpenetrate a unit in {}",
                row.moving, column.title
            ),
            Tone::Bad,
        );
    }
    Ok(res)
}

/// A formation with no row (or column) in the table.
fn no_place<'a>(
    said: &Said,
    what: &str,
    places: impl Iterator<Item = (&'a String, &'a Vec<String>)>,
) -> CommandError {
    let places: Vec<String> = places
        .map(|(name, words)| format!("{name} ({})", words.join(", ")))
        .collect();
    let whose = if what == "row" {
        "the moving unit's formation"
    } else {
        "the formation of the unit passed through"
    };
    BindError::NotHere {
        kind: ErrorKind::NotApplicable,
        span: said.span,
        text: said.text.clone(),
        why: format!(
            "has no {what} in the Table of allowed interpenetrations as {whose}: one of {}",
            places.join("; ")
        ),
    }
    .into()
}
