//! Text from files and from the user shown on a terminal: control
//! characters and escape sequences never reach it raw, and columns are
//! counted as the terminal counts them.

use std::borrow::Cow;

use unicode_width::UnicodeWidthStr;

/// A character that would act on a terminal rather than show: C0 and C1
/// controls, DEL, and the bidirectional overrides that reorder a line.
pub fn is_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The first such character in a text, if any.
pub fn first_control(s: &str) -> Option<char> {
    s.chars().find(|c| is_control(*c))
}

/// A line as it may be shown: a tab as one space (so a caret under it
/// stays in its column), every other control character as `\u{…}`.
pub fn visible(s: &str) -> Cow<'_, str> {
    if first_control(s).is_none() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => out.push(' '),
            c if is_control(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Terminal columns a text takes once made visible.
pub fn columns(s: &str) -> usize {
    visible(s).width()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_never_pass() {
        assert_eq!(visible("Feld\u{1b}[2J"), "Feld\\u{1b}[2J");
        assert_eq!(visible("a\u{7}b"), "a\\u{7}b");
        assert_eq!(visible("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(visible("plain"), "plain");
        assert_eq!(visible("a\tb"), "a b");
        assert_eq!(columns("é國"), 3);
    }
}
