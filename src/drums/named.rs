//! The units and generals a command names, as a resolver sees them.
//!
//! Binding hands every named unit over with all the facts it brings
//! (`Input::named`), whatever its side's vocabulary reads. A resolver whose
//! effects fall on the first unit named on a side (the shooters, the
//! target, the unit tested) has to know that it is a unit and not a
//! general, and a risk to generals that it is a general: the kind is told
//! by what the unit brings, never by a word the verb would have to know.

use crate::catalog::{Input, Named};
use crate::error::{BindError, CommandError, ErrorKind};

/// The fact every general brings: he is a general (the General rows of the
/// Movement and Charge Distances tables, "For each general in line of
/// command within 3BW" in a resilience test). No unit brings it.
pub(crate) const GENERAL: &str = "general";

/// Whether a named id is a general rather than a unit.
pub(crate) fn is_general(named: &Named) -> bool {
    named.facts.facts.iter().any(|f| f.word == GENERAL)
}

/// The id as the line has it.
pub(crate) fn typed<'a>(input: &'a Input, named: &'a Named) -> &'a str {
    input
        .line
        .get(named.span.start..named.span.end)
        .unwrap_or(&named.facts.id)
}

/// A refusal at a named id: "`ID` is …".
pub(crate) fn refuse(
    kind: ErrorKind,
    input: &Input,
    named: &Named,
    why: impl Into<String>,
) -> CommandError {
    BindError::NotHere {
        span: named.span,
        text: typed(input, named).to_string(),
        why: why.into(),
        kind,
    }
    .into()
}

/// A side of a verb whose effects fall on one unit: a general named there,
/// or a second unit, is refused. `why` says why a general cannot stand
/// there ("hits fall on units").
pub(crate) fn one_unit(
    input: &Input,
    clause: Option<usize>,
    verb: &str,
    why: &str,
) -> Result<(), CommandError> {
    let named: Vec<&Named> = input.named_on(clause).collect();
    if let Some(g) = named.iter().find(|n| is_general(n)) {
        return Err(refuse(
            ErrorKind::NotApplicable,
            input,
            g,
            format!("is a general, and {why}"),
        ));
    }
    if let [first, second, ..] = named.as_slice() {
        return Err(refuse(
            ErrorKind::ExtraWord,
            input,
            second,
            format!(
                "is a second unit on this side, and `{verb}` takes one: name `{}` or `{}`, not both",
                typed(input, first),
                typed(input, second)
            ),
        ));
    }
    Ok(())
}
