//! `odds`, `compare`, `simulate` and sweeps as tables a phone reads: an
//! outcome a row, its chance beside it (with the fraction when it is
//! short, and the chance of at least it for a count), a bar under the
//! outcome's words; a sweep as one small table a combination, one under
//! another, never a table as wide as its outcomes.

use std::io::{self, Write};

use maud::{Markup, html};

use super::super::text::{percent, prob_percent, short_fraction};
use crate::answer::sweep::{Row, Swept};
use crate::answer::{Comparison, Odds, Simulation, Sweep, expected_of, p_of};

pub(super) fn odds(odds: &Odds) -> Markup {
    html! {
        div.answer.odds {
            p.heading { "odds: " (odds.heading) " · " (odds.rules.title()) }
            (distribution(odds))
        }
    }
}

/// The outcomes of one distribution and its expected values.
fn distribution(odds: &Odds) -> Markup {
    let at_least = odds.count().map(|count| odds.at_least(&count));
    let expected: Vec<(String, String)> = odds
        .expected
        .iter()
        .map(|(name, v)| (expected_name(name), format!("{v:.3}")))
        .collect();
    html! {
        table.chances {
            thead {
                tr {
                    th scope="col" { "outcome" }
                    th scope="col" { "chance" }
                    @if at_least.is_some() { th scope="col" { "at least" } }
                }
            }
            tbody {
                @for (i, o) in odds.outcomes.iter().enumerate() {
                    tr {
                        th scope="row" {
                            (o.text)
                            meter min="0" max="1" value=(format!("{:.4}", o.prob.p)) {}
                        }
                        td {
                            (prob_percent(o.prob))
                            @if let Some(f) = short_fraction(o) { " " small { (f) } }
                        }
                        @if let Some(p) = at_least.as_ref().and_then(|a| a.get(i)) {
                            td { (prob_percent(*p)) }
                        }
                    }
                }
            }
        }
        @if !expected.is_empty() {
            (super::rows(expected.iter().map(|(n, v)| (n.as_str(), v.as_str()))))
        }
    }
}

/// `expected_hits` as a person reads it.
fn expected_name(name: &str) -> String {
    name.replace('_', " ")
}

pub(super) fn comparison(c: &Comparison) -> Markup {
    let mut outcomes: Vec<&str> = c.without.outcomes.iter().map(|o| o.text.as_str()).collect();
    for o in &c.with.outcomes {
        if !outcomes.contains(&o.text.as_str()) {
            outcomes.push(&o.text);
        }
    }
    let expected: Vec<(String, String)> = c
        .without
        .expected
        .iter()
        .filter_map(|(name, without)| {
            let (_, with) = c.with.expected.iter().find(|(n, _)| n == name)?;
            Some((expected_name(name), format!("{without:.3} → {with:.3}")))
        })
        .collect();
    html! {
        div.answer.odds.comparison {
            p.heading { "odds: " (c.without.heading) " · compare " (c.words) }
            table.chances {
                thead {
                    tr {
                        th scope="col" { "outcome" }
                        th scope="col" { "without" }
                        th scope="col" { "with" }
                        th scope="col" { "change" }
                    }
                }
                tbody {
                    @for text in outcomes {
                        @let (a, b) = (p_of(&c.without, text), p_of(&c.with, text));
                        tr {
                            th scope="row" { (text) }
                            td { (percent(a)) }
                            td { (percent(b)) }
                            td { (format!("{:+.2} pts", (b - a) * 100.0)) }
                        }
                    }
                }
            }
            @if !expected.is_empty() {
                (super::rows(expected.iter().map(|(n, v)| (n.as_str(), v.as_str()))))
            }
        }
    }
}

pub(super) fn simulation(s: &Simulation) -> Markup {
    let last = s.seed.wrapping_add(s.rolls.saturating_sub(1));
    html! {
        div.answer.odds.simulation {
            p.heading {
                "simulate " (s.rolls) " rolls: " (s.heading) " · seeds " (s.seed) "–" (last)
            }
            table.chances {
                thead {
                    tr {
                        th scope="col" { "outcome" }
                        th scope="col" { "observed" }
                        @if s.exact.is_ok() {
                            th scope="col" { "exact" }
                            th scope="col" { "difference" }
                        }
                    }
                }
                tbody {
                    @for o in &s.observed {
                        @let observed = o.count as f64 / s.rolls.max(1) as f64;
                        tr {
                            th scope="row" { (o.text) }
                            td { (percent(observed)) }
                            @if let Ok(odds) = &s.exact {
                                @let exact = p_of(odds, &o.text);
                                td { (percent(exact)) }
                                td { (format!("{:+.2} pts", (observed - exact) * 100.0)) }
                            }
                        }
                    }
                }
            }
            @if let Err(why) = &s.exact {
                p.note { "no exact odds beside them: " (why) }
            }
        }
    }
}

pub(super) fn sweep(sweep: &Sweep) -> Markup {
    let Some(first) = sweep.rows.first() else {
        return html! { div.answer.odds { p { "odds: the sweep has no combinations" } } };
    };
    let expected = sweep.expected();
    html! {
        div.answer.odds.sweep {
            (sweep_heading(&sweep.swept, first))
            @for row in &sweep.rows {
                (combination(&sweep.swept, row, &expected))
            }
        }
    }
}

/// What a sweep's answer begins with: its verb, the words swept and the
/// rule system.
fn sweep_heading(swept: &[Swept], first: &Row) -> Markup {
    let words: Vec<&str> = swept.iter().map(|s| s.text.as_str()).collect();
    html! {
        p.heading {
            "odds: " (first.odds.verb) " · sweeping " (words.join(" × ")) " · "
            (first.odds.rules.title())
        }
    }
}

/// One combination of a sweep: its values, its outcomes, and its
/// `expected` values.
fn combination(swept: &[Swept], row: &Row, expected: &[&str]) -> Markup {
    let picks: Vec<String> = swept
        .iter()
        .zip(&row.picks)
        .map(|(s, &i)| {
            let shown = s.choices.get(i).map_or("", |c| c.shown.as_str());
            format!("{} {shown}", s.name)
        })
        .collect();
    let values: Vec<(String, String)> = expected
        .iter()
        .filter_map(|n| expected_of(&row.odds, n).map(|v| (expected_name(n), format!("{v:.3}"))))
        .collect();
    html! {
        section.combination {
            h4 { (picks.join(" · ")) }
            table.chances {
                tbody {
                    @for o in &row.odds.outcomes {
                        tr {
                            th scope="row" {
                                (o.text)
                                meter min="0" max="1" value=(format!("{:.4}", o.prob.p)) {}
                            }
                            td { (prob_percent(o.prob)) }
                        }
                    }
                }
            }
            @if !values.is_empty() {
                (super::rows(values.iter().map(|(n, v)| (n.as_str(), v.as_str()))))
            }
        }
    }
}

/// A sweep too large for one table, written a combination at a time
/// (`format::stream`): the same markup as [`sweep`] writes whole, each
/// row with the expected values of the names seen by then.
#[derive(Default)]
pub(super) struct LongWeb {
    expected: Vec<String>,
}

impl crate::format::stream::Long for LongWeb {
    fn begin(
        &mut self,
        swept: &[Swept],
        first: &Row,
        _source: crate::format::Source,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let heading = sweep_heading(swept, first).into_string();
        write!(out, "<div class=\"answer odds sweep\">{heading}")
    }

    fn row(&mut self, swept: &[Swept], row: &Row, out: &mut dyn Write) -> io::Result<()> {
        for (name, _) in &row.odds.expected {
            if !self.expected.contains(name) {
                self.expected.push(name.clone());
            }
        }
        let expected: Vec<&str> = self.expected.iter().map(String::as_str).collect();
        out.write_all(combination(swept, row, &expected).into_string().as_bytes())
    }

    fn end(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"</div>")
    }
}
