//! Text from files and from the user shown on a terminal: control
//! characters and escape sequences never reach it raw, and columns are
//! counted as the terminal counts them.

use std::borrow::Cow;

use unicode_width::UnicodeWidthStr;

/// A character that would act on a terminal rather than show: C0 and C1
/// controls, DEL, and the bidirectional overrides that reorder a line.
pub(crate) fn is_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The first such character in a text, if any.
pub(crate) fn first_control(s: &str) -> Option<char> {
    s.chars().find(|c| is_control(*c))
}

/// Whether a text holds a control character (a newline aside, if
/// `keep_newlines`), told from its UTF-8 bytes: every answer drumhead
/// writes is asked this, and decoding each character to ask it was a tenth
/// of a batch's time. A C0 control or DEL is one byte; a C1 control is
/// 0xC2 then 0x80–0x9F; the bidirectional controls are 0xE2 0x80 0xAA–0xAE
/// and 0xE2 0x81 0xA6–0xA9. A continuation byte is never 0xC2 or 0xE2, so
/// every byte may be looked at as if it began a character, and the text
/// cut anywhere into blocks.
fn may_hold_control(s: &str, keep_newlines: bool) -> bool {
    let bytes = s.as_bytes();
    let acts = |i: usize| match bytes[i] {
        b'\n' => !keep_newlines,
        0x00..=0x1F | 0x7F => true,
        0xC2 => matches!(bytes.get(i + 1), Some(0x80..=0x9F)),
        0xE2 => matches!(
            (bytes.get(i + 1), bytes.get(i + 2)),
            (Some(0x80), Some(0xAA..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))
        ),
        _ => false,
    };
    // A byte with the one after it: 0xE2 is suspect only before 0x80 or
    // 0x81 (the box-drawing characters of a text answer follow it with
    // 0x94 and 0x95), 0xC2 only before 0x80–0x9F.
    let suspect = |b: u8, next: u8| {
        b < 0x20 || b == 0x7F || (b == 0xC2 && next < 0xA0) || (b == 0xE2 && next & 0xFE == 0x80)
    };
    let Some((&last, _)) = bytes.split_last() else {
        return false;
    };
    let mut start = 0;
    while start < bytes.len() {
        let end = (start + 32).min(bytes.len());
        // A whole block is asked at once, with no early exit, which the
        // compiler turns into a few vector instructions; only a block with
        // a byte that could begin a control is looked at byte by byte.
        let next = &bytes[start + 1..(end + 1).min(bytes.len())];
        let any = bytes[start..end]
            .iter()
            .zip(next)
            .fold(false, |any, (&b, &n)| any | suspect(b, n));
        if (any || (end == bytes.len() && suspect(last, 0))) && (start..end).any(acts) {
            return true;
        }
        start = end;
    }
    false
}

/// A line as it may be shown: a tab as one space (so a caret under it
/// stays in its column), every other control character as `\u{…}`.
pub(crate) fn visible(s: &str) -> Cow<'_, str> {
    shown(s, false)
}

/// Text of one or more lines as it may be shown, every message drumhead
/// writes (errors, notes, text answers): each line [`visible`], the line
/// breaks between them kept. A carriage return is not one: it would let a
/// line overwrite what was written before it.
pub(crate) fn visible_lines(s: &str) -> Cow<'_, str> {
    shown(s, true)
}

fn shown(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    let acts = |c: char| is_control(c) && !(keep_newlines && c == '\n');
    if !may_hold_control(s, keep_newlines) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => out.push(' '),
            c if acts(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// JSON as it may be shown: the controls JSON allows raw in a string (C1,
/// DEL, the bidirectional overrides) written as `\uXXXX` escapes, which
/// read back as the same text. serde escapes the C0 controls already.
pub(crate) fn json_visible(s: &str) -> Cow<'_, str> {
    if !may_hold_control(s, false) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_control(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Terminal columns a text takes once made visible.
pub(crate) fn columns(s: &str) -> usize {
    visible(s).width()
}

/// A line of source as an error shows it, under a gutter (its line
/// number, or a blank): the line made [`visible`], then a caret under the
/// bytes `at` of it, counted in the columns the visible line takes, so it
/// points at the same characters however many an escape widened.
pub(crate) fn pointed(line: &str, at: std::ops::Range<usize>, gutter: &str) -> String {
    let start = floor_boundary(line, at.start.min(line.len()));
    let end = floor_boundary(line, at.end.clamp(start, line.len().max(start)));
    let before = line.get(..start).map_or(0, columns);
    let width = line.get(start..end).map_or(1, columns).max(1);
    let pad = " ".repeat(gutter.chars().count());
    format!(
        "{pad} |\n{gutter} | {}\n{pad} | {}{}",
        visible(line),
        " ".repeat(before),
        "^".repeat(width)
    )
}

/// The nearest character boundary at or before `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Text written by `write` when it is shown: words with parts that depend
/// on the table or the dice, written only as far as they are read (under
/// `odds`, often not at all).
pub(crate) fn display_with(
    write: impl Fn(&mut std::fmt::Formatter<'_>) -> std::fmt::Result,
) -> impl std::fmt::Display {
    struct Text<F>(F);
    impl<F: Fn(&mut std::fmt::Formatter<'_>) -> std::fmt::Result> std::fmt::Display for Text<F> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            (self.0)(f)
        }
    }
    Text(write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bytes_are_the_control_characters() {
        // Every character, alone and between others, as the byte scan and
        // the character test see it.
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let alone = c.to_string();
            let among = format!("é{c}\u{2069}x");
            for keep in [false, true] {
                let acts = is_control(c) && !(keep && c == '\n');
                assert_eq!(may_hold_control(&alone, keep), acts, "{c:?}");
                assert!(may_hold_control(&among, keep), "{c:?}");
                assert_eq!(may_hold_control(&format!("é{c}x"), keep), acts, "{c:?}");
                // Across the end of a block.
                let across = format!("{}{c}", "a".repeat(31));
                assert_eq!(may_hold_control(&across, keep), acts, "{c:?}");
            }
        }
    }

    #[test]
    fn escapes_never_pass() {
        assert_eq!(visible("Feld\u{1b}[2J"), "Feld\\u{1b}[2J");
        assert_eq!(visible("a\u{7}b"), "a\\u{7}b");
        assert_eq!(visible("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(visible("plain"), "plain");
        assert_eq!(visible("a\tb"), "a b");
        assert_eq!(columns("é國"), 3);
        assert_eq!(visible("a\nb"), "a\\u{a}b");
    }

    #[test]
    fn lines_keep_their_breaks_only() {
        assert_eq!(
            visible_lines("one \u{1b}]2;x\u{7}\ntwo\r\u{9b}\u{7f}"),
            "one \\u{1b}]2;x\\u{7}\ntwo\\u{d}\\u{9b}\\u{7f}"
        );
        assert_eq!(visible_lines("a\tb\nc"), "a b\nc");
        assert!(matches!(visible_lines("plain\ntext"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_reads_back_the_same() {
        let value = serde_json::json!({"line": "a\u{1b}[2J\u{9b}\u{7f}\u{202e}b"});
        let shown = json_visible(&value.to_string()).into_owned();
        assert_eq!(shown, r#"{"line":"a\u001b[2J\u009b\u007f\u202eb"}"#);
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn a_caret_stays_under_its_word_past_an_escape() {
        let line = "a\u{9b}b = \u{202e}x";
        let at = line.find('x').unwrap();
        let shown = pointed(line, at..at + 1, "3");
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[1], "3 | a\\u{9b}b = \\u{202e}x");
        assert_eq!(lines[2].find('^'), lines[1].find('x'));
    }
}
