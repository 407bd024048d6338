//! The few roff shapes every page is written in.

use roff::{Roff, bold, roman};

pub(super) fn source() -> String {
    format!("drumhead {}", env!("CARGO_PKG_VERSION"))
}

pub(super) fn render(roff: &Roff) -> String {
    roff.render()
}

pub(super) fn para(roff: &mut Roff, text: &str) {
    roff.control("PP", []);
    roff.text([roman(text)]);
}

/// A tagged paragraph: a bold tag, then its text.
pub(super) fn tagged(roff: &mut Roff, tag: &str, text: &str) {
    roff.control("TP", []);
    roff.text([bold(tag)]);
    roff.text([roman(text)]);
}

/// Lines shown as typed, indented, not filled.
pub(super) fn example_block<'a>(roff: &mut Roff, lines: impl IntoIterator<Item = &'a str>) {
    roff.control("RS", ["4"]);
    roff.control("nf", []);
    for line in lines {
        roff.text([roman(line)]);
    }
    roff.control("fi", []);
    roff.control("RE", []);
}

/// Several things named in a sentence: `a, b and c`.
pub(super) fn and_list(items: &[&str]) -> String {
    match items {
        [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.join(""),
    }
}
