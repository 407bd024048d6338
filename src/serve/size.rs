//! How large an odds answer may be, and a cheap count of how large one
//! is before its JSON is written: a sweep of many values times many
//! outcomes makes megabytes (20 MB for one request within every limit of
//! a line), and every client waiting for one holds it in memory.

use crate::answer::{Answer, Odds};
use crate::limits::SERVE_ODDS_ANSWER_BYTES;

/// Bytes an outcome's object has in `--json` besides its three strings:
/// `{"id":"","outcome":"","text":"","p":0}` and more.
const OUTCOME_AT_LEAST: usize = 37;

/// The fewest bytes `answer`'s JSON can have: its outcomes' strings and
/// the punctuation around them, nothing else. Never more than the JSON,
/// so an answer counted over the limit is over it; one counted under it
/// is written and measured.
pub(crate) fn at_least(answer: &Answer) -> usize {
    match answer {
        Answer::Odds(odds) => of_odds(odds),
        Answer::Comparison(c) => of_odds(&c.without).saturating_add(of_odds(&c.with)),
        Answer::Sweep(sweep) => sweep
            .rows
            .iter()
            .fold(0usize, |n, row| n.saturating_add(of_odds(&row.odds))),
        _ => 0,
    }
}

fn of_odds(odds: &Odds) -> usize {
    odds.outcomes.iter().fold(0usize, |n, o| {
        n.saturating_add(o.outcome.len() + o.kind.len() + o.text.len() + OUTCOME_AT_LEAST)
    })
}

/// The refusal of an answer over the limit: the same words every time,
/// for a script to match.
pub(crate) fn too_large_message() -> String {
    format!(
        "the answer is larger than {SERVE_ODDS_ANSWER_BYTES} bytes, the most an odds answer \
         of the server may be: ask for fewer values at once (a narrower sweep)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_is_never_more_than_the_json() {
        let tables = crate::systems::embedded().expect("the embedded tables");
        let book = crate::systems::all()
            .default_book()
            .expect("a default book");
        let mut session = crate::session::Session::new(tables, book, 1);
        for line in [
            "odds roll 2d6",
            "odds resilience shooting +determined",
            "odds resilience melee compare +general",
            "odds shoot musket 2BW,6BW formed bases=2..8",
            "odds mayhem fire roundshot 1\"..4\" figures=11..14",
        ] {
            let parsed = session.parse(line);
            let answer = session
                .run(line, parsed, &|_| Ok(()))
                .expect("the line resolves")
                .expect("an answer");
            let json = super::super::follow::json_of(
                &answer,
                crate::format::Source {
                    line: 1,
                    input: line,
                },
            );
            let counted = at_least(&answer);
            assert!(counted <= json.len(), "{line}: {counted} > {}", json.len());
            assert!(counted > 0, "{line}: counted nothing");
        }
    }
}
