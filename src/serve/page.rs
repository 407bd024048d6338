//! The pages: the games served, a game's live view, its odds, the
//! umpire's page. Phones first: one column, nothing wider than the
//! screen (a stack's labels wrap, its values beside or under them; the
//! roster a line a unit), the answers and the roster written by
//! `format::web`. Every string is escaped by maud.
//!
//! For tests and scripts, the game's page (`/g/NAME/`) carries:
//! - `<body data-after="N" data-game="NAME">`: the newest entry shown
//!   when it was made; `data-live="open"` once its EventSource is open
//!   (`"closed"` when it drops, said in `#connection`; absent without
//!   JavaScript).
//! - a bar at the top (`nav.tabs`) with the turn (`#turn`) and a link to
//!   each part: `#latest`, `#roster`, `#odds`.
//! - each entry as `<article id="entry-N" class="entry">` (see
//!   `format::web`), newest first, inside `<div id="feed"
//!   aria-live="polite">`; an entry that came live has `data-arrived`,
//!   the time it was put on the page in ms since the epoch; an entry a
//!   later undo took back has `data-undone` (put on live when the undo
//!   arrives). With no entry, `#feed-empty` says what will come.
//! - the roster in `<section id="roster">`, its armies in `#roster-now`
//!   (`roster.html` again as entries arrive), a `table.units` an army.
//! - the odds form `form#odds-form` (GET `odds?line=`), its answer in
//!   `#odds-answer`.

use maud::{Markup, PreEscaped, html};

use super::feed::{Event, Now};
use crate::answer::report::Report;
use crate::format::web;

/// The stylesheet and scripts, inside the binary: nothing is fetched
/// from anywhere else.
pub(crate) const CSS: &str = include_str!("assets/page.css");
pub(crate) const LIVE_JS: &str = include_str!("assets/live.js");
pub(crate) const UMPIRE_JS: &str = include_str!("assets/umpire.js");

/// What a game records, as the page says it: the same as the README and
/// drumhead(1).
const KEPT: &str = "Every line resolved in this game is kept in its journal and shown \
     here: each rule system's resolutions (plain rolls and what-ifs too, so the journal is \
     the evening's roll log), next-turn and undo. Newest first; log.json lists them all. \
     Odds asked below are answered for you alone and kept nowhere.";

/// `/`: the games served.
pub(crate) fn index(games: &[(String, u64)]) -> String {
    let body = html! {
        body {
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
        }
    };
    web::document("drumhead: games", &[], body)
}

/// The bar at the top of a game's pages: its name, the turn, the state
/// of the live view, and a link to each part of the page.
fn top(name: &str, turn: u32, parts: &[(&str, &str)]) -> Markup {
    html! {
        header.top {
            div.title {
                span.game { (name) }
                span.turn { "Turn " span #turn { (turn) } }
                span #connection role="status" aria-live="polite" {}
            }
            nav.tabs aria-label="This game" {
                @for (href, label) in parts {
                    a href=(href) { (label) }
                }
            }
        }
    }
}

/// The parts of a game's page, as the bar links them.
const PARTS: &[(&str, &str)] = &[
    ("#latest", "Latest"),
    ("#roster", "Roster"),
    ("#odds", "Odds"),
    ("/", "Games"),
];

/// The way to the pocket page, on every game's pages.
fn pocket_link() -> Markup {
    html! {
        p.pocket-link {
            a href="/pocket" { "Pocket page" }
            ": resolve lines on this phone itself, which keeps working when the network drops"
        }
    }
}

/// `/g/NAME/`: the newest resolutions, the roster, the odds form.
/// `undone` says which of the entries shown a later undo took back.
pub(crate) fn game(
    name: &str,
    now: &Now,
    newest: &[std::sync::Arc<Event>],
    undone: impl Fn(u64) -> bool,
) -> String {
    let after = newest.first().map_or(0, |e| e.id);
    let body = html! {
        body data-after=(after) data-game=(name) {
            (top(name, now.turn, PARTS))
            @if let Some(why) = &now.stopped {
                p.stopped role="alert" { (why) }
            }
            main {
                section #latest {
                    h2 { "Latest" }
                    div #feed aria-live="polite" aria-relevant="additions" {
                        @for event in newest {
                            (entry(event, undone(event.id)))
                        }
                    }
                    @if newest.is_empty() {
                        p #feed-empty.empty {
                            "Nothing resolved yet. Each line the umpire resolves in this game — \
                             at the REPL, from a script or on the umpire's page — appears here \
                             within a second, newest first, with its whole modifier stack."
                        }
                    }
                }
                section #roster {
                    h2 { "Roster" }
                    (roster_now(now))
                }
                section #odds {
                    h2 { "Odds" }
                    (odds_form(""))
                    div #odds-answer aria-live="polite" {}
                }
            }
            footer { p { (KEPT) } (pocket_link()) }
            noscript { p.note { "Without JavaScript this page shows the game as it was when loaded: reload it for the newest." } }
        }
    };
    web::document(&format!("{name}: drumhead"), &["/assets/live.js"], body)
}

fn entry(event: &Event, undone: bool) -> Markup {
    let place = web::Place {
        number: Some(event.id),
        turn: Some(event.turn),
        undone,
    };
    web::entry(place, &event.line, &event.html)
}

/// The roster and the turn as they stand now: `#roster-now`, with the
/// turn in `data-turn` (also what `roster.html` answers).
pub(crate) fn roster_now(now: &Now) -> Markup {
    html! {
        div #roster-now data-turn=(now.turn) {
            @match now.roster.as_deref() {
                Some(Report::Roster { armies, .. }) => (web::roster(armies)),
                _ => p.empty { "The roster comes once the game is read." },
            }
        }
    }
}

/// The form a player asks the odds of a line with; works without
/// JavaScript (the answer is then a page of its own).
fn odds_form(line: &str) -> Markup {
    html! {
        form #odds-form action="odds" method="get" {
            label for="odds-line" { "A line to count, as the umpire would type it" }
            div.ask {
                textarea #odds-line name="line" rows="1" autocomplete="off"
                    autocapitalize="none" spellcheck="false"
                    maxlength=(crate::limits::MAX_LINE_BYTES) required
                    placeholder="roll 2d6" { (line) }
                button type="submit" { "Count" }
            }
            p.hint { "The chance of each outcome, exactly. Odds never touch the game." }
        }
    }
}

/// `/g/NAME/odds?line=LINE` asked by a browser: the answer of `odds
/// LINE` (a fragment, `div.answer`, or an error) on a page of its own,
/// under the form again.
pub(crate) fn odds(name: &str, turn: u32, line: &str, answer: &str) -> String {
    let parts: &[(&str, &str)] = &[
        ("./#latest", "Latest"),
        ("./#roster", "Roster"),
        ("#odds", "Odds"),
        ("/", "Games"),
    ];
    let body = html! {
        body data-game=(name) {
            (top(name, turn, parts))
            main {
                section #odds {
                    h2 { "Odds" }
                    (odds_form(line))
                    div #odds-answer aria-live="polite" { (PreEscaped(answer)) }
                }
            }
            footer { (pocket_link()) }
        }
    };
    web::document(&format!("odds {line}: {name}"), &[], body)
}

/// `/g/NAME/umpire`: a line typed on a tablet, sent with the token from
/// the address's fragment (which the browser never sends); each answer
/// as the feed shows it, the roster beside them.
pub(crate) fn umpire(name: &str, now: &Now) -> String {
    let parts: &[(&str, &str)] = &[("#desk", "Lines"), ("#roster", "Roster"), ("./", "Feed")];
    let body = html! {
        body.umpire data-game=(name) data-after=(now.entries) {
            (top(&format!("{name}: umpire"), now.turn, parts))
            main.desk {
                section #desk {
                    form #umpire {
                        label for="line" { "Line" }
                        div.ask {
                            textarea #line name="line" rows="1" autocomplete="off"
                                autocapitalize="none" spellcheck="false"
                                maxlength=(crate::limits::MAX_LINE_BYTES) required {}
                            button type="submit" { "Resolve" }
                        }
                    }
                    div #answers aria-live="polite" {
                        p #answers-empty.empty {
                            "Type a line as at the REPL: its answer comes here with its whole \
                             stack, newest first, and every phone has it within a second. \
                             show UNIT, units, log, odds LINE and help are answered here too."
                        }
                    }
                    noscript { p { "This page needs JavaScript to send lines." } }
                }
                section #roster {
                    h2 { "Roster" }
                    (roster_now(now))
                }
            }
            footer { (pocket_link()) }
        }
    };
    web::document(
        &format!("{name}: umpire"),
        &["/assets/live.js", "/assets/umpire.js"],
        body,
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
            html: "<div class=\"answer\">a &amp; b &lt;i&gt;</div>".into(),
            view: String::new(),
        };
        let page = game("g", &Now::default(), &[std::sync::Arc::new(event)], |n| {
            n == 3
        });
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("a &amp; b &lt;i&gt;"));
        assert!(page.contains(r#"id="entry-3""#));
        assert!(page.contains(r#"data-after="3""#));
        assert!(page.contains("data-undone"));
        assert!(!page.contains("feed-empty"));
    }

    #[test]
    fn an_empty_feed_says_what_will_come() {
        let page = game("g", &Now::default(), &[], |_| false);
        assert!(page.contains("feed-empty"), "{page}");
        assert!(page.contains(r##"href="#roster""##), "{page}");
    }
}
