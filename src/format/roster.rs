//! The `units` table as text: a unit a line in a terminal. Ids are what a
//! player types, so the id column is never broken; when the table is too
//! wide for the terminal the names are shortened (with an ellipsis) before
//! anything else gives way. `show ID` gives a unit's whole name.

use comfy_table::{Cell, ColumnConstraint, LineStyle, Table};
use unicode_width::UnicodeWidthStr;

use super::{Style, shorten};

/// A name is not shortened below this many columns: shorter still, it
/// would no longer tell one unit from another, and the other columns wrap
/// instead.
const NAME_MIN: usize = 14;

/// One army's units as a table in `style`, drawn.
pub(super) fn roster_table(style: &Style, columns: &[String], rows: &[Vec<String>]) -> String {
    let name = columns.iter().position(|c| c == "name");
    let widths: Vec<usize> = (0..columns.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .chain(columns.get(i))
                .map(|c| style.cell(c).width())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let Some((gap, room)) = layout(style, name, &widths) else {
        let mut t = style.table(true);
        t.set_header(columns.iter().map(|c| style.cell(c).into_owned()));
        for row in rows {
            t.add_row(row.iter().map(|c| Cell::new(style.cell(c))));
        }
        keep_ids_whole(&mut t, columns);
        return t.to_string();
    };
    let mut t = bare(style);
    t.set_header(columns.iter().map(|c| style.cell(c).into_owned()));
    for row in rows {
        t.add_row(row.iter().enumerate().map(|(i, c)| {
            let text = style.cell(c);
            if Some(i) == name {
                Cell::new(shorten(&text, room, style.ascii))
            } else {
                Cell::new(text)
            }
        }));
    }
    keep_ids_whole(&mut t, columns);
    let last = columns.len().saturating_sub(1);
    for (i, column) in t.column_iter_mut().enumerate() {
        column.set_padding((0, if i == last { 0 } else { gap }));
    }
    let drawn = t.to_string();
    let lines: Vec<&str> = drawn.lines().map(str::trim_end).collect();
    lines.join("\n")
}

/// How the table fits the width: boxed, as a pipe gets it (`None`), or
/// when the names would not fit in the box, bare with this gap between
/// columns and the names cut to this room. The rules go first, then
/// the gaps narrow, so that the names lose as little as they can.
fn layout(style: &Style, name: Option<usize>, widths: &[usize]) -> Option<(u16, usize)> {
    let (width, name) = style.width.map(usize::from).zip(name)?;
    let others: usize = widths.iter().sum::<usize>() - widths[name];
    let columns = widths.len();
    // A rule before each column and one after the last, and a space
    // either side of each cell.
    let boxed = 3 * columns + 1;
    if others + boxed + widths[name] <= width {
        return None;
    }
    let room = |gap: usize| width.saturating_sub(others + gap * (columns - 1));
    let gap = if room(2) >= NAME_MIN { 2 } else { 1 };
    Some((gap as u16, room(gap).max(NAME_MIN)))
}

/// Ids are what a player types: never broken across lines.
fn keep_ids_whole(t: &mut Table, columns: &[String]) {
    if let Some(id) = columns.iter().position(|c| c == "id")
        && let Some(column) = t.column_mut(id)
    {
        column.set_constraint(ColumnConstraint::ContentWidth);
    }
}

/// A table without rules but the one under its header: the rules' room
/// goes to the names.
fn bare(style: &Style) -> Table {
    let mut t = style.table(false);
    t.style_mut().header_separator = LineStyle::none().fill(if style.ascii { '-' } else { '─' });
    t
}

#[cfg(test)]
mod tests {
    use super::super::shorten;

    #[test]
    fn a_long_name_is_cut_to_its_room_with_an_ellipsis() {
        assert_eq!(
            shorten("Grenadier Battalion, advance guard (1st)", 22, false),
            "Grenadier Battalion…"
        );
        assert_eq!(shorten("Feldjäger zu Fuß", 16, false), "Feldjäger zu Fuß");
        assert_eq!(shorten("Feldjager zu Fuss", 10, true), "Feldjag...");
    }
}
