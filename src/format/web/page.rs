//! The page around the answers: its head (the stylesheet and scripts the
//! server serves itself, nothing from anywhere else) and the roster, a
//! line a unit as the printed roster has it, each unit that is not fine
//! marked in its system's word and in colour.

use maud::{DOCTYPE, Markup, html};

use crate::answer::report::{ArmyRoster, UnitStatus};

/// A whole page: `title`, the scripts it loads (by address), and its
/// `body` element, whose attributes the caller gives (the `data-*` a
/// script reads).
pub(crate) fn document(title: &str, scripts: &[&str], body: Markup) -> String {
    let head = html! {
        link rel="stylesheet" href="/assets/page.css";
        @for src in scripts {
            script src=(src) defer {}
        }
    };
    shell(title, head, body).into_string()
}

/// Every page drumhead writes, the server's and the pocket page: the
/// head every one has (its characters, a phone's width, light and dark
/// colours, `title`), then what the page adds to its head (`head`: its
/// stylesheet and scripts), and its `body` element.
pub(crate) fn shell(title: &str, head: Markup, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                title { (title) }
                (head)
            }
            (body)
        }
    }
}

/// Each army's units, a unit a line (its id, its name, and how it
/// stands when not fine) over a line of its system's columns; a unit
/// that is not fine is marked (`data-status`, and the system's word
/// beside its id). The columns have the whole width of a phone to
/// themselves, so that no system's are too many for it.
pub(crate) fn roster(armies: &[ArmyRoster]) -> Markup {
    html! {
        @if armies.is_empty() { p.empty { "No armies in this game." } }
        @for army in armies {
            @let columns: Vec<&String> = army.columns.iter().skip(2).collect();
            div.army {
                h3 {
                    (army.name)
                    small {
                        @if !army.side.is_empty() { " · " (army.side) }
                        " · " (army.rules_title)
                    }
                }
                table.units.many[columns.len() > FEW] {
                    thead {
                        tr { @for c in &columns { th scope="col" { (c) } } }
                    }
                    @for (i, unit) in army.units.iter().enumerate() {
                        (unit_lines(unit, columns.len(), army.status.get(i).unwrap_or(&UnitStatus::Fine)))
                    }
                }
                @if !army.notes.is_empty() {
                    ul.notes { @for note in &army.notes { li { (note) } } }
                }
            }
        }
    }
}

/// A roster of more columns than this is set tighter, to fit a phone.
const FEW: usize = 4;

/// A roster value this short (`6/6 bases`, `2 ch 4`, `in play`) is kept
/// on one line: ten of them still fit a phone's width.
const SHORT: usize = 9;

/// One unit: the first two cells are its id and name (as every system's
/// roster has them), the rest its system's columns (`columns` of them).
fn unit_lines(cells: &[String], columns: usize, status: &UnitStatus) -> Markup {
    let id = cells.first().map_or("", String::as_str);
    let name = cells.get(1).map_or("", String::as_str);
    html! {
        tbody.unit data-status=(status.level()) {
            tr.who {
                th scope="rowgroup" colspan=(columns.max(1)) {
                    span.id { (id) }
                    @if let Some(word) = status.word() {
                        " " span class={ "status " (status.level()) } { (word) }
                    }
                    " " span.name { (name) }
                }
            }
            @if columns > 0 {
                tr.cells {
                    @for c in cells.iter().skip(2) {
                        @if c.chars().count() <= SHORT { td.short { (c) } } @else { td { (c) } }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_loads_only_its_own_assets() {
        let page = document(
            "t <x>",
            &["/assets/live.js"],
            html! { body data-game="a\"b" { p { "hi" } } },
        );
        assert!(page.contains("<body data-game=\"a&quot;b\">"), "{page}");
        assert!(page.contains("<title>t &lt;x&gt;</title>"), "{page}");
        assert!(
            page.contains("<script src=\"/assets/live.js\" defer></script>"),
            "{page}"
        );
        assert!(!page.contains("http"), "{page}");
    }
}
