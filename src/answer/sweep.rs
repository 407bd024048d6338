//! The answer to a sweep: one `odds` line asked for several values of a
//! word at once, and the distribution of each combination.

use super::{Odds, Span};

/// One swept word: where it was typed, and each value it stands for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Swept {
    pub(crate) span: Span,
    /// As typed: `bases=2..8`.
    pub(crate) text: String,
    /// What its values are, for a column heading: `bases`, `distance`.
    pub(crate) name: String,
    /// Its values in order; of a range longer than a sweep answers, only
    /// as many as it does.
    pub(crate) choices: Vec<Choice>,
    /// How many values it stands for.
    pub(crate) values: u64,
}

/// One value of a swept word.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Choice {
    /// The word that stands in the line for this value: `bases=4`.
    pub word: String,
    /// The value alone, for a table's cell: `4`.
    pub(crate) shown: String,
}

/// One line of a sweep: the choice of each swept word (by index) and the
/// line with those choices in place.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Combination {
    pub(crate) picks: Vec<usize>,
    pub(crate) line: String,
}

/// The answer to a sweep: the distribution of every combination.
#[derive(Debug, Clone)]
pub struct Sweep {
    pub(crate) swept: Vec<Swept>,
    /// One row per combination, in the order [`expand`] made them.
    pub(crate) rows: Vec<Row>,
}

#[derive(Debug, Clone)]
pub struct Row {
    /// The choice of each swept word, by index into its `choices`.
    pub(crate) picks: Vec<usize>,
    pub(crate) odds: Odds,
}

impl Sweep {
    /// The value of each swept word in a row, as a table shows it.
    pub(crate) fn shown(&self, row: &Row) -> Vec<&str> {
        self.swept
            .iter()
            .zip(&row.picks)
            .map(|(s, &i)| s.choices.get(i).map_or("", |c| c.shown.as_str()))
            .collect()
    }

    /// Every outcome text of any row, each after the outcomes it follows in
    /// the row that brought it (0 hits, 1 hit, 2 hits, then 3 hits from a
    /// larger unit), with the id it has where first seen.
    pub(crate) fn outcomes(&self) -> Vec<(&str, &str)> {
        let mut all = Outcomes::default();
        for row in &self.rows {
            all.add(&row.odds, |s| s);
        }
        all.in_order()
    }

    /// Every expected value's name of any row, in the order first seen.
    pub(crate) fn expected(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for row in &self.rows {
            for (name, _) in &row.odds.expected {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    }
}

/// A sweep's table has a column per outcome only while it has at most
/// this many cells (combinations × outcomes); a larger one is written a
/// combination at a time, each as its own distribution, as soon as it is
/// counted, so that neither the table nor the rows are ever held whole.
pub(crate) const WIDE_CELLS: usize = 20_000;

/// Where a sweep's rows go, each as soon as it is counted: kept for an
/// answer written whole, or written at once by a front end. `false` stops
/// the sweep (the rows could not be written; the front end knows why).
pub(crate) trait Rows {
    fn row(&mut self, swept: &[Swept], row: Row) -> bool;
}

impl Rows for Vec<Row> {
    fn row(&mut self, _swept: &[Swept], row: Row) -> bool {
        self.push(row);
        true
    }
}

/// The outcomes of the rows seen so far, in the order of
/// [`Sweep::outcomes`], gathered a row at a time: each new text goes
/// right after the one it follows in its row (a linked list, so that a
/// sweep of thousands of outcomes is not thousands of shifts). Held as
/// `&str` beside the rows, or as `String` when the rows are gone.
#[derive(Debug)]
pub(crate) struct Outcomes<T> {
    /// (id, text, the next in order).
    all: Vec<(T, T, Option<usize>)>,
    at: rustc_hash::FxHashMap<T, usize>,
    first: Option<usize>,
    last: Option<usize>,
}

impl<T> Default for Outcomes<T> {
    fn default() -> Self {
        Outcomes {
            all: Vec::new(),
            at: rustc_hash::FxHashMap::default(),
            first: None,
            last: None,
        }
    }
}

impl<T: Clone + Eq + std::hash::Hash + std::borrow::Borrow<str>> Outcomes<T> {
    /// The outcomes of one more row, each made a `T` by `make`.
    pub(crate) fn add<'a>(&mut self, odds: &'a Odds, make: impl Fn(&'a str) -> T) {
        let mut after: Option<usize> = None;
        for o in &odds.outcomes {
            if let Some(&i) = self.at.get(o.text.as_str()) {
                after = Some(i);
                continue;
            }
            let new = self.all.len();
            let next = match after {
                Some(a) => self.all[a].2.replace(new),
                None => {
                    // At the end, as the first of its row is.
                    match self.last {
                        Some(l) => self.all[l].2 = Some(new),
                        None => self.first = Some(new),
                    }
                    None
                }
            };
            if next.is_none() {
                self.last = Some(new);
            }
            let text = make(&o.text);
            self.at.insert(text.clone(), new);
            self.all.push((make(&o.outcome), text, next));
            after = Some(new);
        }
    }

    /// (id, text) of each, in order.
    pub(crate) fn in_order(self) -> Vec<(T, T)> {
        let mut slots: Vec<Option<(T, T, Option<usize>)>> =
            self.all.into_iter().map(Some).collect();
        let mut out = Vec::with_capacity(slots.len());
        let mut at = self.first;
        while let Some((id, text, next)) = at.and_then(|i| slots.get_mut(i)?.take()) {
            out.push((id, text));
            at = next;
        }
        out
    }
}

/// The probability of an outcome (by text) in one distribution; 0 where
/// it cannot happen.
pub(crate) fn p_of(odds: &Odds, text: &str) -> f64 {
    odds.outcomes
        .iter()
        .find(|o| o.text == text)
        .map_or(0.0, |o| o.prob.p)
}

/// An expected value of one distribution, if it has it. A measure that
/// never varied in it (no base lost at any distance a sweep tried) has
/// no expectation of its own: its one value is the expectation, so a
/// sweep's column reads 0 there, not nothing.
pub(crate) fn expected_of(odds: &Odds, name: &str) -> Option<f64> {
    odds.expected
        .iter()
        .find(|(n, _)| n == name)
        .map(|&(_, v)| v)
        .or_else(|| {
            let measure = name.strip_prefix("expected_")?;
            let mut values = odds
                .outcomes
                .iter()
                .flat_map(|o| o.values.iter().filter(|v| v.0 == measure));
            let &(_, first, same) = values.next()?;
            (same && values.all(|v| v.2 && v.1 == first)).then_some(first)
        })
}
