//! Sweeps: one `odds` line asking about several values of a word at once.
//!
//! A word written as a range (`bases=2..8`, `2..8BW`) or a list
//! (`2BW,6BW`, `formed,open`, `bases=2,bases=4`) stands for each of its
//! values in turn. The line is expanded into ordinary lines, one for each
//! combination, and each is resolved by the normal path: nothing here
//! knows what a word means. A word's value that is itself a list
//! (`group=4,3,3`) belongs to its verb and is not a sweep.

use crate::command::{Command, Span, Word};
use crate::error::{BindError, CommandError, ErrorKind};
use crate::limits::{MAX_SWEEP_LINES, MAX_SWEPT_WORDS};

pub(crate) use crate::answer::sweep::Row;
pub(crate) use crate::answer::{Choice, Combination, Sweep, Swept};

/// The swept words of a command, in the order typed (none for an
/// ordinary line). Errors for a malformed range or list.
pub(crate) fn find(command: &Command) -> Result<Vec<Swept>, CommandError> {
    let mut swept = Vec::new();
    for (_, words) in command.sides() {
        for word in words {
            if let Some(s) = swept_word(word)? {
                swept.push(s);
            }
        }
    }
    Ok(swept)
}

/// Whether any word of the line is swept, without judging it: for lines
/// that may not sweep at all.
pub(crate) fn first_swept(command: &Command) -> Option<&Word> {
    command
        .sides()
        .flat_map(|(_, words)| words.iter())
        .find(|w| looks_swept(w))
}

fn looks_swept(word: &Word) -> bool {
    // Every line of a batch asks this of every word; nearly none has a
    // dot or a comma, and asking for those bytes first is far cheaper
    // than the substring search.
    word.text.bytes().any(|b| b == b'.' || b == b',')
        && (word.text.contains("..") || list_pieces(&word.text).is_some())
}

/// The line once for each combination of the swept words' values, the
/// last word varying fastest. Each value takes its word's place, padded
/// to the word's length, so every other word keeps its column and an
/// error still points into the line as typed.
pub(crate) fn expand(line: &str, swept: &[Swept]) -> Result<Vec<Combination>, CommandError> {
    if let Some(third) = swept.get(MAX_SWEPT_WORDS) {
        return Err(BindError::NotHere {
            kind: ErrorKind::OverLimit,
            span: third.span,
            text: third.text.clone(),
            why: format!(
                "is a third swept word: a sweep varies at most {MAX_SWEPT_WORDS} words (a table, or a heat map), so give this one a single value"
            ),
        }
        .into());
    }
    if too_many(swept).is_some() {
        return Err(too_many_error(swept, None));
    }
    let total: usize = swept.iter().map(|s| s.choices.len()).product();
    let mut out = Vec::with_capacity(total);
    let mut picks = vec![0usize; swept.len()];
    for _ in 0..total {
        let mut text = String::with_capacity(line.len());
        let mut at = 0;
        for (s, &pick) in swept.iter().zip(&picks) {
            text.push_str(&line[at..s.span.start]);
            let word = &s.choices[pick].word;
            text.push_str(word);
            let width = s.span.end - s.span.start;
            text.push_str(&" ".repeat(width.saturating_sub(word.len())));
            at = s.span.end;
        }
        text.push_str(&line[at..]);
        out.push(Combination {
            picks: picks.clone(),
            line: text,
        });
        // The next combination: the last word varies fastest.
        for (i, s) in swept.iter().enumerate().rev() {
            picks[i] += 1;
            if picks[i] < s.choices.len() {
                break;
            }
            picks[i] = 0;
        }
    }
    Ok(out)
}

/// How many combinations a sweep has, if more than [`MAX_SWEEP_LINES`].
fn combinations_past_limit(swept: &[Swept]) -> Option<u64> {
    let total = swept
        .iter()
        .try_fold(1u64, |n, s| n.checked_mul(s.values))
        .unwrap_or(u64::MAX);
    (total > MAX_SWEEP_LINES as u64).then_some(total)
}

/// For a sweep of more combinations than [`MAX_SWEEP_LINES`]: how many of
/// each word's first values a sweep within it keeps, as many of the first
/// word's as leave the last word whole.
pub(crate) fn too_many(swept: &[Swept]) -> Option<Vec<usize>> {
    combinations_past_limit(swept)?;
    let last = swept
        .last()
        .map_or(1, |s| usize::try_from(s.values).unwrap_or(usize::MAX));
    Some(match swept.len() {
        1 => vec![MAX_SWEEP_LINES],
        _ if last >= MAX_SWEEP_LINES => vec![1, MAX_SWEEP_LINES],
        _ => vec![MAX_SWEEP_LINES / last, last],
    })
}

/// The refusal of a sweep of too many combinations, with the narrower
/// line to type instead when one is known to be answered.
pub(crate) fn too_many_error(swept: &[Swept], instead: Option<&str>) -> CommandError {
    let sizes: Vec<String> = swept
        .iter()
        .map(|s| format!("{} ({} values)", s.text, s.values))
        .collect();
    let like = instead.map_or(String::new(), |line| format!(", like `{line}`"));
    BindError::BadValue {
        span: Span::new(
            swept.first().map_or(0, |s| s.span.start),
            swept.last().map_or(0, |s| s.span.end),
        ),
        text: sizes.join(" × "),
        expected: format!(
            "{} combinations; a sweep answers at most {MAX_SWEEP_LINES} (the `sweep` limit): narrow a range or shorten a list{like}",
            combinations_past_limit(swept).unwrap_or(u64::MAX)
        ),
    }
    .into()
}

/// A swept word cut down to its first `n` values, as it would be typed:
/// a range as a range, a list as a list, one value as that word alone.
fn narrowed(s: &Swept, n: usize) -> String {
    let n = n.clamp(1, s.choices.len().max(1));
    let (Some(first), Some(last)) = (s.choices.first(), s.choices.get(n - 1)) else {
        return s.text.clone();
    };
    if n == 1 {
        return first.word.clone();
    }
    if s.text.contains("..") {
        let prefix = first.word.strip_suffix(&first.shown).unwrap_or("");
        return format!("{prefix}{}..{}", first.shown, last.shown);
    }
    let words: Vec<&str> = s.choices[..n].iter().map(|c| c.word.as_str()).collect();
    words.join(",")
}

/// The line as typed with each swept word cut down to its first
/// `counts[i]` values: a narrower sweep to suggest, whose combinations
/// are the first ones of the sweep typed.
pub(crate) fn narrowed_line(line: &str, swept: &[Swept], counts: &[usize]) -> String {
    let mut out = line.to_string();
    // From the right, so the spans before stay good.
    for (s, &n) in swept.iter().zip(counts).rev() {
        if let Some(typed) = out.get(s.span.start..s.span.end)
            && typed == s.text
        {
            out.replace_range(s.span.start..s.span.end, &narrowed(s, n));
        }
    }
    out.trim().to_string()
}

fn bad(word: &Word, expected: String) -> CommandError {
    BindError::BadValue {
        span: word.span,
        text: word.text.to_string(),
        expected,
    }
    .into()
}

/// A list's pieces: split at commas, unless the word is `name=a,b` (a
/// value that is a list, which its verb reads) rather than
/// `name=a,name=b`.
fn list_pieces(text: &str) -> Option<Vec<&str>> {
    if !text.contains(',') {
        return None;
    }
    let pieces: Vec<&str> = text.split(',').collect();
    let first = pieces[0];
    match first.split_once('=') {
        None => Some(pieces),
        Some((name, _)) => {
            let prefix = format!("{name}=");
            pieces
                .iter()
                .all(|p| p.starts_with(&prefix))
                .then_some(pieces)
        }
    }
}

fn swept_word(word: &Word) -> Result<Option<Swept>, CommandError> {
    if word.text.contains("..") {
        return range(word).map(Some);
    }
    let Some(pieces) = list_pieces(&word.text) else {
        return Ok(None);
    };
    if pieces.iter().any(|p| p.is_empty()) {
        return Err(bad(
            word,
            "a list has an empty item: give the values between commas, like `2BW,6BW`".into(),
        ));
    }
    let mut choices: Vec<Choice> = Vec::with_capacity(pieces.len());
    for piece in &pieces {
        if choices.iter().any(|c| c.word == *piece) {
            return Err(bad(word, format!("`{piece}` is listed twice")));
        }
        let shown = piece.split_once('=').map_or(*piece, |(_, v)| v);
        choices.push(Choice {
            word: piece.to_string(),
            shown: shown.to_string(),
        });
    }
    let name = match pieces[0].split_once('=') {
        Some((name, _)) => name.trim_start_matches('+').to_string(),
        None => kind_name(&pieces).to_string(),
    };
    Ok(Some(Swept {
        span: word.span,
        text: word.text.to_string(),
        name,
        values: choices.len() as u64,
        choices,
    }))
}

/// A heading for a list of plain values: what they all are.
fn kind_name(pieces: &[&str]) -> &'static str {
    use crate::command::WordKind;
    let kinds: Vec<WordKind> = pieces.iter().map(|p| crate::parse::classify(p)).collect();
    if kinds.iter().all(|k| matches!(k, WordKind::Distance(..))) {
        "distance"
    } else if kinds.iter().all(|k| matches!(k, WordKind::Number(_))) {
        "number"
    } else {
        "word"
    }
}

/// `A..B` with whole numbers, both ends given, each with the same unit if
/// any (`2..8BW` and `2BW..8BW` alike), after an optional `name=`.
fn range(word: &Word) -> Result<Swept, CommandError> {
    let text = word.text.as_str();
    let (prefix, body) = match text.split_once('=') {
        Some((name, body)) => (&text[..=name.len()], body),
        None => ("", text),
    };
    let usage =
        "a range is two whole numbers with `..` between them, like `bases=2..8` or `2..8BW`";
    let Some((low, high)) = body.split_once("..") else {
        return Err(bad(word, usage.into()));
    };
    let split = |end: &str| -> Option<(u32, String)> {
        let digits = end.len() - end.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let n = end[..digits].parse::<u32>().ok()?;
        let unit = &end[digits..];
        matches!(unit.to_ascii_lowercase().as_str(), "" | "bw" | "in" | "\"")
            .then(|| (n, unit.to_string()))
    };
    let (Some((a, unit_a)), Some((b, unit_b))) = (split(low), split(high)) else {
        return Err(bad(word, usage.into()));
    };
    let unit = match (unit_a.as_str(), unit_b.as_str()) {
        ("", u) | (u, "") => u.to_string(),
        (x, y) if x.eq_ignore_ascii_case(y) => y.to_string(),
        _ => {
            return Err(bad(
                word,
                "the two ends of a range are in different units: give one, like `2..8BW`".into(),
            ));
        }
    };
    if a > b {
        return Err(bad(
            word,
            format!(
                "the range runs backwards: write it from low to high, `{prefix}{b}..{a}{unit}`"
            ),
        ));
    }
    if a == b {
        return Err(bad(
            word,
            format!("the range holds one value: write `{prefix}{a}{unit}`, or widen it"),
        ));
    }
    // Only as many values are made as a sweep answers: a range of a
    // billion is refused without a billion strings.
    let values = u64::from(b - a) + 1;
    let last = b.min(a.saturating_add(MAX_SWEEP_LINES as u32 - 1));
    let choices = (a..=last)
        .map(|n| Choice {
            word: format!("{prefix}{n}{unit}"),
            shown: format!("{n}{unit}"),
        })
        .collect();
    let name = if prefix.is_empty() {
        if unit.is_empty() {
            "number"
        } else {
            "distance"
        }
        .to_string()
    } else {
        prefix
            .trim_end_matches('=')
            .trim_start_matches('+')
            .to_string()
    };
    Ok(Swept {
        span: word.span,
        text: word.text.to_string(),
        name,
        choices,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str) -> Word {
        Word {
            span: Span::new(10, 10 + text.len()),
            text: text.into(),
            kind: crate::parse::classify(text),
        }
    }

    fn values(text: &str) -> Vec<String> {
        swept_word(&word(text))
            .expect("a good sweep")
            .expect("a sweep")
            .choices
            .into_iter()
            .map(|c| c.word)
            .collect()
    }

    #[test]
    fn ranges_and_lists_in_every_spelling() {
        assert_eq!(values("bases=2..4"), ["bases=2", "bases=3", "bases=4"]);
        assert_eq!(values("2..3BW"), ["2BW", "3BW"]);
        assert_eq!(values("2in..3in"), ["2in", "3in"]);
        assert_eq!(values("2BW,6BW"), ["2BW", "6BW"]);
        assert_eq!(values("formed,open"), ["formed", "open"]);
        assert_eq!(values("bases=2,bases=5"), ["bases=2", "bases=5"]);
    }

    #[test]
    fn a_value_list_is_the_verbs() {
        assert_eq!(swept_word(&word("group=4,3,3")), Ok(None));
        assert_eq!(swept_word(&word("determined")), Ok(None));
    }

    #[test]
    fn bad_ranges_say_why() {
        for (text, says) in [
            ("bases=8..2", "backwards"),
            ("bases=2..2", "one value"),
            ("bases=2..", "two whole numbers"),
            ("bases=2.5..4", "two whole numbers"),
            ("2BW..8in", "different units"),
            ("2BW,,6BW", "empty item"),
            ("2BW,2BW", "listed twice"),
        ] {
            let e = swept_word(&word(text)).expect_err(text).to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn a_narrowed_sweep_is_typed_as_the_sweep_was() {
        let line = "odds shoot musket 2BW,6BW,8BW formed bases=2..9";
        let command = crate::parse::parse_line(line, &[]).unwrap().unwrap();
        let swept = find(&command).unwrap();
        assert_eq!(
            narrowed_line(line, &swept, &[2, 3]),
            "odds shoot musket 2BW,6BW formed bases=2..4"
        );
        assert_eq!(
            narrowed_line(line, &swept, &[1, 1]),
            "odds shoot musket 2BW formed bases=2"
        );
        let line = "odds shoot musket 2..8BW";
        let command = crate::parse::parse_line(line, &[]).unwrap().unwrap();
        let swept = find(&command).unwrap();
        assert_eq!(
            narrowed_line(line, &swept, &[3]),
            "odds shoot musket 2BW..4BW"
        );
    }

    #[test]
    fn a_sweep_past_the_limit_keeps_the_first_combinations() {
        let s = swept_word(&word("bases=1..99999999")).unwrap().unwrap();
        assert_eq!(s.values, 99_999_999);
        assert_eq!(s.choices.len(), MAX_SWEEP_LINES);
        assert_eq!(
            too_many(std::slice::from_ref(&s)),
            Some(vec![MAX_SWEEP_LINES])
        );
        let e = expand("odds hold", &[s]).unwrap_err().to_string();
        assert!(
            e.contains("99999999 combinations; a sweep answers at most 400"),
            "{e}"
        );
        let line = "odds shoot musket 1..30BW bases=1..30";
        let command = crate::parse::parse_line(line, &[]).unwrap().unwrap();
        let swept = find(&command).unwrap();
        assert_eq!(too_many(&swept), Some(vec![13, 30]));
        assert_eq!(too_many(&swept[..1]), None);
    }

    #[test]
    fn expansion_keeps_columns_and_varies_the_last_word_fastest() {
        let line = "odds shoot musket 2BW,6BW formed bases=2..3";
        let command = crate::parse::parse_line(line, &[]).unwrap().unwrap();
        let swept = find(&command).unwrap();
        let lines: Vec<String> = expand(line, &swept)
            .unwrap()
            .into_iter()
            .map(|c| c.line)
            .collect();
        assert_eq!(
            lines,
            [
                "odds shoot musket 2BW     formed bases=2   ",
                "odds shoot musket 2BW     formed bases=3   ",
                "odds shoot musket 6BW     formed bases=2   ",
                "odds shoot musket 6BW     formed bases=3   ",
            ]
        );
    }
}
