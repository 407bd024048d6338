//! The game's reports and the session's as the feed and the umpire's page
//! show them: `units` as the roster, `show` as a stack of rows, `log` a
//! line an entry (an undone one struck through), help as its text.

use maud::{Markup, html};

use crate::answer::Report;

pub(super) fn report(report: &Report) -> Markup {
    match report {
        Report::Help { text } | Report::Setting { text } | Report::Loaded { text } => html! {
            div.answer.report { pre.text { (text) } }
        },
        Report::Roster { turn, armies } => html! {
            div.answer.report {
                p.heading { "turn " (turn) }
                (super::roster(armies))
            }
        },
        Report::Unit {
            id,
            name,
            army,
            rows,
        } => html! {
            div.answer.report {
                p.heading { (id) " — " (name) " · " (army) }
                (super::rows(rows.iter().map(|r| (r.label.as_str(), r.value.as_str()))))
            }
        },
        Report::Log { entries } => log(entries),
        Report::EndTurn { systems, .. } => html! {
            div.answer.report {
                @if systems.is_empty() { p { "end of turn: no armies loaded" } }
                @for text in systems { p { (text) } }
            }
        },
        Report::NextTurn { turn, notes } => html! {
            div.answer.report {
                p.outcome.neutral { "⇒ turn " (turn) }
                @if !notes.is_empty() { ul.notes { @for n in notes { li { (n) } } } }
            }
        },
        Report::Undo { undone } => html! {
            div.answer.report {
                p.outcome.neutral {
                    @match undone {
                        Some(taken) => { "⇒ undone: " (taken) },
                        None => { "⇒ nothing to undo" },
                    }
                }
            }
        },
        Report::Saved { path } => html! { div.answer.report { p { "saved to " (path) } } },
    }
}

fn log(entries: &[crate::answer::report::LogEntry]) -> Markup {
    html! {
        div.answer.report {
            @if entries.is_empty() { p { "the journal is empty" } }
            ol.log {
                @for e in entries {
                    li class=[e.undone.then_some("undone")] {
                        span.number { "#" (e.entry) }
                        " turn " (e.turn) " · "
                        span.line {
                            @match (&e.line, e.undo) {
                                (_, Some(n)) => { "undo entry " (n) },
                                (Some(line), None) => { (line) },
                                (None, None) => {},
                            }
                        }
                        @if let Some(o) = e.outcome_named.as_ref().or(e.outcome.as_ref()) {
                            " ⇒ " (o)
                        }
                        @if let Some(seed) = e.chosen_seed {
                            " (seed " (seed) ", chosen with --seed)"
                        }
                        @if e.undone { " " span.undone-mark { "undone" } }
                    }
                }
            }
        }
    }
}
