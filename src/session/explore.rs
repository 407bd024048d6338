//! The questions players ask before they commit: `odds … compare WORD`
//! (how one modifier changes the distribution) and `simulate N COMMAND`
//! (seeded rolls beside the exact odds, a check on the calculator).

use std::sync::atomic::{AtomicBool, Ordering};

use super::Session;
use crate::command::{Command, Span, WordKind};
use crate::dice::Dice;
use crate::error::{BindError, CommandError, DiceError, ErrorKind};
use crate::odds::Odds;
use crate::sweep::Swept;

use crate::limits::MAX_PATHS;
pub(crate) use crate::limits::{MAX_SIMULATE_DICE, SIMULATE_ROLL_DICE};

/// Set by the REPL's Ctrl-C handler; the long loops (`simulate`, `odds`)
/// read it and stop, so Ctrl-C ends the command, not the program.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ask the running command to stop. Returns whether it had already been
/// asked and not yet stopped. Only an atomic swap: safe in a signal handler.
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) fn interrupt() -> bool {
    INTERRUPTED.swap(true, Ordering::Relaxed)
}

/// Whether the running command has been asked to stop.
#[inline]
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Forget a stop asked for: called before each command, so a Ctrl-C
/// never stops a command typed after it.
pub(crate) fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::Relaxed);
}

/// The error of a command stopped by Ctrl-C: `how_far` says what it had done.
pub(crate) fn stopped(how_far: &str) -> CommandError {
    CommandError::refused(ErrorKind::Stopped, format!("stopped by Ctrl-C: {how_far}"))
}

/// Rolls between two looks at Ctrl-C and the progress bar: enough that
/// neither costs anything per roll, few enough to answer at once.
const CHUNK: u64 = 1 << 14;

/// The progress bar of a long run (a terminal's, so the platform's).
pub(crate) use crate::platform::Progress;

pub(crate) use crate::answer::{Comparison, Observed, Simulation};

use crate::answer::sweep::Rows;

/// Rows counted and let go.
struct Dropped;

impl Rows for Dropped {
    fn row(&mut self, _swept: &[Swept], _row: crate::sweep::Row) -> bool {
        true
    }
}

/// The combination a sweep stopped at (its picks) and why.
type Stopped = (Vec<usize>, CommandError);

/// Rolls thrown before a `simulate` runs, to count the dice one roll
/// throws: on seeds of their own, so the same line always counts the
/// same, and a refusal's suggestion is always taken.
const TRIAL_ROLLS: u64 = 16;

/// The work of one roll of a prepared line, in dice ([`MAX_SIMULATE_DICE`]):
/// the most dice any trial roll threw, and [`SIMULATE_ROLL_DICE`] more.
fn work_per_roll(prepared: &crate::catalog::Prepared<'_>) -> Result<u64, CommandError> {
    let mut most = 0;
    for seed in 0..TRIAL_ROLLS {
        let mut dice = Dice::new(&[], seed);
        prepared.run(&mut dice)?;
        most = most.max(dice.thrown());
    }
    Ok(most + SIMULATE_ROLL_DICE)
}

/// The most rolls of a line that fit [`MAX_SIMULATE_DICE`], rounded down
/// to a number easy to type (1, 2 or 5 followed by zeros).
fn rolls_that_fit(work_per_roll: u64) -> u64 {
    let fit = MAX_SIMULATE_DICE / work_per_roll.max(1);
    let mut round = 0;
    let mut power = 1u64;
    while power <= fit {
        for step in [1, 2, 5] {
            if let Some(n) = power.checked_mul(step)
                && n <= fit
            {
                round = n;
            }
        }
        power = match power.checked_mul(10) {
            Some(p) => p,
            None => break,
        };
    }
    round
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
    /// The exact distribution: the resolver run against every way the dice
    /// can fall.
    pub fn odds(
        &self,
        system: crate::command::System,
        command: &Command,
        line: &str,
    ) -> Result<Odds, CommandError> {
        self.odds_within(system, command, line, MAX_PATHS)
    }

    /// [`Session::odds`] walking at most `paths_left` ways the dice fall.
    fn odds_within(
        &self,
        system: crate::command::System,
        command: &Command,
        line: &str,
        paths_left: usize,
    ) -> Result<Odds, CommandError> {
        if let Some(span) = command.rolled_span {
            return Err(BindError::NotHere {
                kind: crate::error::ErrorKind::WrongMode,
                span,
                text: "rolled".into(),
                why: "has no meaning with `odds`, which counts every way the dice can fall".into(),
            }
            .into());
        }
        let prepared = self
            .catalog
            .prepare(system, command, line, self.units(), false)?;
        crate::odds::enumerate(self.count_values, paths_left, |dice| {
            // One relaxed load a path: Ctrl-C in the REPL stops a long walk.
            if interrupted() {
                return Err(stopped("odds was still counting"));
            }
            prepared.run(dice)
        })
    }

    /// `odds COMMAND compare WORDS`: the distribution without the words and
    /// with them (placed on the acting side, right after the verb).
    pub(crate) fn compare(
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
                kind: ErrorKind::MisplacedWord,
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
        let without = self.odds_of_line(&without_line, MAX_PATHS)?;
        let with = self.odds_of_line(&with_line, MAX_PATHS)?;
        Ok(Some(Comparison {
            words: compared,
            without,
            with,
        }))
    }

    /// `odds` with swept words: each combination's line answered as an
    /// ordinary `odds` line.
    pub(crate) fn sweep(
        &self,
        command: &Command,
        line: &str,
        swept: Vec<crate::sweep::Swept>,
        stream: Option<&mut dyn Rows>,
    ) -> Result<crate::sweep::Sweep, CommandError> {
        if let Some(compare) = command
            .words
            .iter()
            .find(|w| w.keyword() == Some("compare"))
        {
            return Err(BindError::NotHere {
                kind: ErrorKind::Conflict,
                span: compare.span,
                text: "compare".into(),
                why: "and a sweep do not go together: sweep the word instead (`formed,open`), or compare without a sweep".into(),
            }
            .into());
        }
        let mut kept = Vec::new();
        let rows: &mut dyn Rows = match stream {
            Some(rows) => rows,
            None => &mut kept,
        };
        self.sweep_within(line, &swept, MAX_PATHS, rows)?;
        Ok(crate::sweep::Sweep { swept, rows: kept })
    }

    /// A sweep whose combinations walk at most `budget` ways the dice fall
    /// between them ([`MAX_PATHS`], as one line may), each row given to
    /// `rows` as soon as it is counted.
    fn sweep_within(
        &self,
        line: &str,
        swept: &[Swept],
        budget: usize,
        rows: &mut dyn Rows,
    ) -> Result<(), CommandError> {
        if let Some(counts) = crate::sweep::too_many(swept) {
            // The first combinations the limit allows, or as many of them
            // as are answered: the sweep to suggest.
            let first = crate::sweep::narrowed_line(line, swept, &counts);
            let instead = self.answered_part(&first, budget)?;
            return Err(crate::sweep::too_many_error(swept, Some(&instead)));
        }
        let (made, stopped) = self.sweep_rows(line, swept, budget, rows)?;
        let Some((picks, mut e)) = stopped else {
            return Ok(());
        };
        // Past the paths of the whole sweep: the combinations before this
        // one fit, and a sweep of those alone is the one to suggest.
        if let CommandError::Dice(DiceError::TooManyPaths { sweep, instead, .. }) = &mut e
            && made > 0
        {
            *sweep = true;
            *instead = format!(
                "sweep fewer values, like `{}`",
                crate::sweep::narrowed_line(line, swept, &fitting_counts(swept, &picks))
            );
            return Err(e);
        }
        Err(sweep_error(swept, &picks, e))
    }

    /// Each combination's odds in turn, each given to `rows` as soon as it
    /// is counted, until one cannot be answered: how many were made before
    /// it, and its picks and error.
    fn sweep_rows(
        &self,
        line: &str,
        swept: &[Swept],
        budget: usize,
        rows: &mut dyn Rows,
    ) -> Result<(usize, Option<Stopped>), CommandError> {
        let mut made = 0;
        let mut walked = 0;
        for combination in crate::sweep::expand(line, swept)? {
            let left = budget.saturating_sub(walked);
            match self.odds_of_line(&combination.line, left) {
                Ok(odds) => {
                    walked += odds.paths;
                    made += 1;
                    let row = crate::sweep::Row {
                        picks: combination.picks,
                        odds,
                    };
                    if !rows.row(swept, row) {
                        return Err(CommandError::Option(
                            "the sweep's rows could not be written".into(),
                        ));
                    }
                }
                Err(e) => return Ok((made, Some((combination.picks, e)))),
            }
        }
        Ok((made, None))
    }

    /// A sweep line within the combinations limit, cut down to the
    /// combinations answered before the first that is not; that one's
    /// error when it is the very first.
    fn answered_part(&self, line: &str, budget: usize) -> Result<String, CommandError> {
        let command = self
            .parse(line)?
            .ok_or_else(|| CommandError::refused(ErrorKind::MissingWord, "nothing to resolve"))?;
        let swept = crate::sweep::find(&command)?;
        // Only how many: the rows of a suggestion are not kept.
        let (made, stopped) = self.sweep_rows(line, &swept, budget, &mut Dropped)?;
        match stopped {
            None => Ok(line.to_string()),
            Some((picks, e)) if made == 0 => Err(sweep_error(&swept, &picks, e)),
            Some((picks, _)) => Ok(crate::sweep::narrowed_line(
                line,
                &swept,
                &fitting_counts(&swept, &picks),
            )),
        }
    }

    fn odds_of_line(&self, line: &str, paths_left: usize) -> Result<Odds, CommandError> {
        let command = self
            .parse(line)?
            .ok_or_else(|| CommandError::refused(ErrorKind::MissingWord, "nothing to resolve"))?;
        let system = command.system.map_or(self.rules, |(s, _)| s);
        self.odds_within(system, &command, line, paths_left)
    }

    /// An `odds` line too large to count (more outcomes or paths than
    /// `odds` follows) is answered by `simulate`: its error says with how
    /// many rolls, a number `simulate` takes for that line.
    pub(super) fn simulate_instead(
        &self,
        mut e: CommandError,
        system: crate::command::System,
        command: &Command,
        line: &str,
    ) -> CommandError {
        let CommandError::Dice(dice) = &mut e else {
            return e;
        };
        let Some(instead) = dice.instead_mut() else {
            return e;
        };
        let work = self
            .catalog
            .prepare(system, command, line, self.units(), false)
            .and_then(|prepared| work_per_roll(&prepared));
        let rolls = work.map_or(0, rolls_that_fit).min(10_000);
        if rolls > 0 {
            let on = command
                .system
                .map_or(String::new(), |(s, _)| format!("{} ", s.id()));
            let rest = line.get(command.verb_span.start..).unwrap_or("").trim();
            *instead = format!("try `simulate {rolls} {on}{rest}`, or fewer dice");
        }
        e
    }

    /// `simulate N COMMAND`: N rolls from the session's seed, tallied.
    pub(crate) fn simulate(
        &self,
        command: &Command,
        line: &str,
    ) -> Result<Simulation, CommandError> {
        let (rolls, span) = rolls_asked(command, line)?;
        let inner_line = blank(line, command.verb_span.start, span.end);
        let inner = self.parse(&inner_line)?.ok_or_else(|| BindError::Missing {
            span: Span::at_end(line),
            what: "`simulate N` needs a command to roll".into(),
        })?;
        if let Some(rolled) = inner.rolled_span {
            return Err(BindError::NotHere {
                kind: ErrorKind::WrongMode,
                span: rolled,
                text: "rolled".into(),
                why: "has no meaning with `simulate`, which rolls".into(),
            }
            .into());
        }
        let system = inner.system.map_or(self.rules, |(s, _)| s);
        // Bound once; only the outcome of each roll is read.
        let prepared = self
            .catalog
            .prepare(system, &inner, &inner_line, self.units(), false)?;
        let per_roll = work_per_roll(&prepared)?;
        too_much_work(rolls, per_roll, span, line)?;
        let exact = self.exact_beside(system, &inner, &inner_line)?;
        let seed = self.next_seed();
        let mut observed: Vec<Observed> = match &exact {
            Ok(odds) => odds
                .outcomes
                .iter()
                .map(|o| Observed {
                    text: o.text.clone(),
                    outcome: o.outcome.clone(),
                    count: 0,
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        let (counted, first) = self.roll_all(&prepared, rolls, seed, &mut observed)?;
        if exact.is_err() && counted.iter().all(Option::is_some) {
            let mut keyed: Vec<(f64, Observed)> = counted
                .into_iter()
                .map(|v| v.unwrap_or_default())
                .zip(observed)
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            observed = keyed.into_iter().map(|(_, o)| o).collect();
        }
        let (heading, verb, rules) = match (&exact, first) {
            (Ok(odds), _) => (odds.heading.clone(), odds.verb, odds.rules),
            (Err(_), Some(first)) => first,
            (Err(_), None) => (String::new(), "", system),
        };
        Ok(Simulation {
            rolls,
            seed,
            heading,
            verb,
            rules,
            exact,
            observed,
        })
    }

    /// The exact odds beside the rolls; a line with more outcomes than
    /// `odds` lists is simulated without them (it is what `odds` suggests
    /// for such a line), and why is kept.
    fn exact_beside(
        &self,
        system: crate::command::System,
        inner: &Command,
        inner_line: &str,
    ) -> Result<Result<Odds, String>, CommandError> {
        Ok(match self.odds(system, inner, inner_line) {
            Ok(odds) => Ok(odds),
            Err(CommandError::Dice(
                e @ (DiceError::TooManyOutcomes { .. } | DiceError::TooManyPaths { .. }),
            )) => {
                let mut e = e;
                if let Some(instead) = e.instead_mut() {
                    instead.clear();
                }
                Err(e.to_string().trim_end_matches([':', ' ']).to_string())
            }
            Err(e) => return Err(e),
        })
    }

    /// Roll the line `rolls` times, counting each outcome into `observed`;
    /// the number each new outcome counts (to order them by, without exact
    /// odds), and what the first roll was.
    fn roll_all(
        &self,
        prepared: &crate::catalog::Prepared<'_>,
        rolls: u64,
        seed: u64,
        observed: &mut Vec<Observed>,
    ) -> Result<(Vec<Option<f64>>, Option<FirstRoll>), CommandError> {
        let mut counted: Vec<Option<f64>> = Vec::new();
        let mut first: Option<FirstRoll> = None;
        let mut progress = Progress::new(self.progress, rolls, "simulate");
        let mut from = 0;
        while from < rolls {
            if interrupted() {
                return Err(stopped(&format!(
                    "simulate had made {from} of {rolls} rolls"
                )));
            }
            progress.at(from);
            let to = from.saturating_add(CHUNK).min(rolls);
            for i in from..to {
                let mut dice = Dice::new(&[], seed.wrapping_add(i));
                let res = prepared.run(&mut dice)?;
                if first.is_none() {
                    first = Some((res.heading.clone(), res.verb, res.rules));
                }
                let group = res.odds_group.as_deref().unwrap_or(&res.outcome_text);
                match observed.iter_mut().find(|o| o.text == group) {
                    Some(o) => o.count += 1,
                    None => {
                        observed.push(Observed {
                            text: group.to_string(),
                            outcome: res.outcome.to_string(),
                            count: 1,
                        });
                        counted.push(res.measures.first().map(|&(_, v)| v));
                    }
                }
            }
            from = to;
        }
        Ok((counted, first))
    }
}

/// What the first roll of a simulate was: its heading, verb and book.
type FirstRoll = (String, &'static str, crate::command::System);

/// The number of rolls `simulate N` asks for, and where it was typed.
fn rolls_asked(command: &Command, line: &str) -> Result<(u64, Span), CommandError> {
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
    Ok((rolls, span))
}

/// A simulate that would throw more dice than the limit, refused with the
/// number of rolls that fits.
fn too_much_work(rolls: u64, per_roll: u64, span: Span, line: &str) -> Result<(), CommandError> {
    let work = rolls.saturating_mul(per_roll);
    if work > MAX_SIMULATE_DICE {
        let fit = rolls_that_fit(per_roll);
        let why = format!(
            "one roll throws up to {} dice, each roll counted as {SIMULATE_ROLL_DICE} dice more, so {rolls} rolls come to {work}; a simulate throws at most {MAX_SIMULATE_DICE} (the `simulate dice` limit)",
            per_roll - SIMULATE_ROLL_DICE
        );
        let instead = if fit == 0 {
            "throw fewer dice a roll".to_string()
        } else {
            let mut fewer = line.to_string();
            fewer.replace_range(span.start..span.end, &fit.to_string());
            format!("try `{}`", fewer.trim())
        };
        return Err(BindError::BadValue {
            span,
            text: rolls.to_string(),
            expected: format!("{why}: {instead}"),
        }
        .into());
    }
    Ok(())
}

/// How many values of each swept word a narrower sweep keeps so that its
/// combinations are only those before `stopped` (the last word varying
/// fastest): the first word's whole rows done, or, when none is, the
/// first value of the first word with the last word's values done.
fn fitting_counts(swept: &[Swept], stopped: &[usize]) -> Vec<usize> {
    match (swept.len(), stopped) {
        (2, &[0, done]) => vec![1, done.max(1)],
        (2, &[rows, _]) => vec![rows, swept[1].choices.len()],
        (_, &[done, ..]) => vec![done.max(1)],
        _ => vec![1; swept.len()],
    }
}

/// The error of one combination of a sweep, naming its words.
fn sweep_error(swept: &[crate::sweep::Swept], picks: &[usize], e: CommandError) -> CommandError {
    let with: Vec<&str> = swept
        .iter()
        .zip(picks)
        .map(|(s, &i)| s.choices[i].word.as_str())
        .collect();
    CommandError::Sweep {
        with: with.join(" "),
        inner: Box::new(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::new(
            crate::systems::embedded().expect("embedded tables load"),
            crate::drums::DRUMS,
            1,
        )
    }

    /// The line an error suggests, between its last pair of backquotes.
    fn suggested(error: &str) -> String {
        let end = error.rfind('`').expect("a suggestion");
        let start = error[..end].rfind('`').expect("a suggestion");
        error[start + 1..end].to_string()
    }

    fn sweep_of(s: &Session, line: &str, budget: usize) -> Result<usize, CommandError> {
        let command = s.parse(line)?.expect("a command");
        let swept = crate::sweep::find(&command)?;
        let mut rows: Vec<crate::sweep::Row> = Vec::new();
        s.sweep_within(line, &swept, budget, &mut rows)
            .map(|()| rows.iter().map(|row| row.odds.paths).sum())
    }

    #[test]
    fn a_sweep_past_its_paths_suggests_the_combinations_that_fit() {
        let s = session();
        for line in [
            "odds melee foot bases=2..9 vs foot bases=2..9",
            "odds melee foot bases=2..30",
            "odds shoot musket 2BW,6BW,8BW formed bases=2..5",
        ] {
            let all = sweep_of(&s, line, MAX_PATHS).expect(line);
            for budget in [all / 2, all / 5, all - 1] {
                let e = sweep_of(&s, line, budget).expect_err(line).to_string();
                assert!(
                    e.contains("more than 2000000 ways") && e.contains("over the whole sweep"),
                    "{line}: {e}"
                );
                let fewer = suggested(&e);
                let walked = sweep_of(&s, &fewer, budget)
                    .unwrap_or_else(|e| panic!("{line}: `{fewer}` is refused too: {e}"));
                assert!(walked <= budget && walked > 0, "{fewer}");
            }
        }
    }

    #[test]
    fn rolls_that_fit_are_easy_to_type() {
        assert_eq!(rolls_that_fit(12), 2_000_000);
        assert_eq!(rolls_that_fit(410), 50_000);
        assert_eq!(rolls_that_fit(10_010), 2_000);
        assert_eq!(rolls_that_fit(SIMULATE_ROLL_DICE), 2_000_000);
        assert_eq!(rolls_that_fit(MAX_SIMULATE_DICE + 1), 0);
    }
}
