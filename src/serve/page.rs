//! The pages: the games served, a game's live view, the umpire's page.
//! Phones first: one column, nothing wider than the screen (a stack's
//! table scrolls inside its own box; the roster turns into one card a
//! unit below 40em). Every string is escaped by maud.
//!
//! For tests and scripts, the game's page (`/g/NAME/`) carries:
//! - `<body data-after="N">`: the newest entry shown when it was made;
//!   `data-live="open"` once its EventSource is open (`"closed"` when it
//!   drops; absent without JavaScript).
//! - each entry as `<article id="entry-N" class="entry">` holding the
//!   line in `.line` and its stack (the text output) in `<pre
//!   class="stack">`, newest first, inside `<section id="feed"
//!   aria-live="polite">`; an entry that came live has `data-arrived`,
//!   the time it was put on the page in ms since the epoch.
//! - the turn in `#turn`, the roster in `<section id="roster">`, one
//!   `<table class="roster">` an army, refreshed from `units.json` as
//!   entries arrive.

use maud::{DOCTYPE, Markup, html};

use super::feed::{Event, Now};
use crate::answer::report::Report;

/// The stylesheet and scripts, inside the binary: nothing is fetched
/// from anywhere else.
pub(crate) const CSS: &str = include_str!("assets/page.css");
pub(crate) const LIVE_JS: &str = include_str!("assets/live.js");
pub(crate) const UMPIRE_JS: &str = include_str!("assets/umpire.js");

fn page(title: &str, body_attrs: Option<u64>, body: Markup, script: Option<&str>) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href="/assets/page.css";
            }
            @if let Some(after) = body_attrs {
                body data-after=(after) { (body) }
            } @else {
                body { (body) }
            }
            @if let Some(src) = script {
                script src=(src) defer {}
            }
        }
    }
    .into_string()
}

/// `/`: the games served.
pub(crate) fn index(games: &[(String, u64)]) -> String {
    let body = html! {
        main {
            h1 { "Games" }
            ul.games {
                @for (name, entries) in games {
                    li {
                        a href={ "/g/" (name) "/" } { (name) }
                        " — " (entries) @if *entries == 1 { " entry" } @else { " entries" }
                    }
                }
            }
        }
    };
    page("drumhead: games", None, body, None)
}

/// `/g/NAME/`: the newest resolutions, the roster, the turn.
pub(crate) fn game(name: &str, now: &Now, newest: &[std::sync::Arc<Event>]) -> String {
    let after = newest.first().map_or(0, |e| e.id);
    let body = html! {
        header {
            h1 { (name) }
            p.turn { "Turn " span #turn { (now.turn) } }
            p { a href="/" { "All games" } }
        }
        @if let Some(why) = &now.stopped {
            p.stopped role="alert" { (why) }
        }
        main {
            h2 { "Latest" }
            section #feed aria-live="polite" aria-relevant="additions" {
                @for event in newest {
                    (entry(event))
                }
            }
            h2 { "Roster" }
            section #roster {
                @if let Some(roster) = &now.roster {
                    (roster_tables(roster))
                }
            }
        }
    };
    page(
        &format!("{name}: drumhead"),
        Some(after),
        body,
        Some("/assets/live.js"),
    )
}

fn entry(event: &Event) -> Markup {
    html! {
        article.entry id={ "entry-" (event.id) } {
            h3 {
                span.number { "#" (event.id) }
                " "
                span.line { (event.line) }
                " "
                span.when { "turn " (event.turn) }
            }
            pre.stack { (event.text) }
        }
    }
}

/// Each army's units as a table, its columns the rule system's.
fn roster_tables(roster: &Report) -> Markup {
    let Report::Roster { armies, .. } = roster else {
        return html! {};
    };
    html! {
        @for army in armies {
            div.army {
                h3 { (army.name) @if !army.side.is_empty() { " (" (army.side) ")" } }
                table.roster {
                    thead { tr { @for c in &army.columns { th scope="col" { (c) } } } }
                    tbody {
                        @for unit in &army.units {
                            tr {
                                @for (c, v) in army.columns.iter().zip(unit) {
                                    td data-label=(c) { (v) }
                                }
                            }
                        }
                    }
                }
                @for note in &army.notes {
                    p.note { (note) }
                }
            }
        }
    }
}

/// `/g/NAME/umpire`: a line typed on a tablet, sent with the token from
/// the address's fragment (which the browser never sends).
pub(crate) fn umpire(name: &str) -> String {
    let body = html! {
        header {
            h1 { (name) ": umpire" }
            p { a href={ "/g/" (name) "/" } { "The game's page" } }
        }
        main {
            form #umpire {
                label for="line" { "Line" }
                input #line name="line" type="text" autocomplete="off" autocapitalize="none"
                    spellcheck="false" maxlength=(crate::limits::MAX_LINE_BYTES) required;
                button type="submit" { "Resolve" }
            }
            section #answer aria-live="polite" {}
            noscript { p { "This page needs JavaScript to send lines." } }
        }
    };
    page(
        &format!("{name}: umpire"),
        None,
        body,
        Some("/assets/umpire.js"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_line_says_is_shown_not_obeyed() {
        let event = Event {
            id: 3,
            turn: 1,
            line: "<script>alert(1)</script>".into(),
            json: String::new(),
            text: "a & b <i>".into(),
        };
        let page = game("g", &Now::default(), &[std::sync::Arc::new(event)]);
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("a &amp; b &lt;i&gt;"));
        assert!(page.contains(r#"id="entry-3""#));
        assert!(page.contains(r#"data-after="3""#));
    }
}
