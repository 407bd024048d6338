//! The questions players ask before they commit: `odds … compare WORD`
//! (how one modifier changes the distribution) and `simulate N COMMAND`
//! (seeded rolls beside the exact odds, a check on the calculator).

use super::Session;
use crate::command::{Command, Span, WordKind};
use crate::dice::Dice;
use crate::error::{BindError, CommandError};
use crate::odds::Odds;

pub use crate::limits::MAX_SIMULATE;

#[derive(Debug)]
pub struct Comparison {
    pub words: String,
    pub without: Odds,
    pub with: Odds,
}

#[derive(Debug)]
pub struct Simulation {
    pub rolls: u64,
    pub seed: u64,
    pub odds: Odds,
    /// Observed count per outcome text, in the odds' order, then any the
    /// odds did not list (which would be a bug).
    pub observed: Vec<(String, u64)>,
}

/// The line with a byte range blanked out, so spans still point into it.
fn blank(line: &str, from: usize, to: usize) -> String {
    let mut s = String::with_capacity(line.len());
    s.push_str(&line[..from]);
    s.push_str(&" ".repeat(line[from..to].chars().count()));
    s.push_str(&line[to..]);
    s
}

impl Session {
    /// `odds COMMAND compare WORDS`: the distribution without the words and
    /// with them (placed on the acting side, right after the verb).
    pub fn compare(
        &self,
        command: &Command,
        line: &str,
    ) -> Result<Option<Comparison>, CommandError> {
        let Some(at) = command
            .words
            .iter()
            .position(|w| w.keyword() == Some("compare"))
        else {
            return Ok(None);
        };
        let compare = &command.words[at];
        if !command.clauses.is_empty() {
            return Err(BindError::NotHere {
                span: compare.span,
                text: "compare".into(),
                why: "must come after the command's clauses (`at`/`vs`)".into(),
            }
            .into());
        }
        let words = &command.words[at + 1..];
        let (Some(first), Some(last)) = (words.first(), words.last()) else {
            return Err(BindError::Missing {
                span: Span::at_end(line),
                what: "`compare` needs the word to compare, like `compare +general`".into(),
            }
            .into());
        };
        let end = command
            .rolled_span
            .map_or(line.len(), |s| s.start)
            .max(last.span.end);
        let compared = line[first.span.start..last.span.end].to_string();
        // Without: the compared words blanked (and any of them typed earlier too).
        let mut without_line = blank(line, compare.span.start, end.min(last.span.end));
        let names: Vec<&str> = words.iter().filter_map(|w| w.keyword()).collect();
        for w in &command.words[..at] {
            if w.keyword().is_some_and(|k| names.contains(&k)) {
                without_line = blank(&without_line, w.span.start, w.span.end);
            }
        }
        // With: the line as typed, `compare` blanked and any compared word
        // typed earlier too; each word keeps its place, so an error points
        // at it in the line the user wrote.
        let mut with_line = blank(line, compare.span.start, compare.span.end);
        for w in &command.words[..at] {
            if w.keyword().is_some_and(|k| names.contains(&k)) {
                with_line = blank(&with_line, w.span.start, w.span.end);
            }
        }
        let without = self.odds_of_line(&without_line)?;
        let with = self.odds_of_line(&with_line)?;
        Ok(Some(Comparison {
            words: compared,
            without,
            with,
        }))
    }

    fn odds_of_line(&self, line: &str) -> Result<Odds, CommandError> {
        let command = self
            .parse(line)?
            .ok_or_else(|| CommandError::Option("nothing to resolve".into()))?;
        let system = command.system.map_or(self.rules, |(s, _)| s);
        self.odds(system, &command, line)
    }

    /// `simulate N COMMAND`: N rolls from the session's seed, tallied.
    pub fn simulate(&self, command: &Command, line: &str) -> Result<Simulation, CommandError> {
        let count = command.words.first().and_then(|w| match w.kind {
            WordKind::Number(n) if n.fract() == 0.0 && n >= 1.0 => Some((n as u64, w.span)),
            _ => None,
        });
        let Some((rolls, span)) = count else {
            let span = command.words.first().map_or(Span::at_end(line), |w| w.span);
            return Err(BindError::Missing {
                span,
                what: "`simulate` needs a number of rolls and a command, like `simulate 10000 resilience melee`".into(),
            }
            .into());
        };
        if rolls > MAX_SIMULATE {
            return Err(BindError::BadValue {
                span,
                text: rolls.to_string(),
                expected: format!("at most {MAX_SIMULATE} rolls"),
            }
            .into());
        }
        let inner_line = blank(line, command.verb_span.start, span.end);
        let inner = self.parse(&inner_line)?.ok_or_else(|| BindError::Missing {
            span: Span::at_end(line),
            what: "`simulate N` needs a command to roll".into(),
        })?;
        if let Some(rolled) = inner.rolled_span {
            return Err(BindError::NotHere {
                span: rolled,
                text: "rolled".into(),
                why: "has no meaning with `simulate`, which rolls".into(),
            }
            .into());
        }
        let system = inner.system.map_or(self.rules, |(s, _)| s);
        let odds = self.odds(system, &inner, &inner_line)?;
        let seed = self.next_seed();
        let mut observed: Vec<(String, u64)> =
            odds.outcomes.iter().map(|o| (o.text.clone(), 0)).collect();
        // Bound once; only the outcome of each roll is read.
        let prepared = self
            .catalog
            .prepare(system, &inner, &inner_line, self.units(), false)?;
        for i in 0..rolls {
            let mut dice = Dice::new(&[], seed.wrapping_add(i));
            let res = prepared.run(&mut dice)?;
            let group = res.odds_group.as_deref().unwrap_or(&res.outcome_text);
            match observed.iter_mut().find(|(t, _)| t == group) {
                Some((_, c)) => *c += 1,
                None => observed.push((group.to_string(), 1)),
            }
        }
        Ok(Simulation {
            rolls,
            seed,
            odds,
            observed,
        })
    }
}
