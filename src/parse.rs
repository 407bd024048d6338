//! Text → [`Command`]: a nom tokenizer and a small structural pass.
//!
//! Tokens are whitespace-separated; each token is classified on its own
//! (distance, number, keyword, or other), so a typo in one word never shifts
//! the meaning of the next. Every token keeps its byte span for error carets.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, tag_no_case, take_while, take_while1},
    character::complete::{char, digit1, satisfy},
    combinator::{all_consuming, map, opt, recognize},
    sequence::{pair, preceded},
};

use crate::command::{
    Clause, ClauseKind, Command, EnteredDie, Mode, Span, System, Text, Unit, Word, WordKind,
};
use crate::error::ParseError;

pub(crate) use crate::limits::MAX_LINE_BYTES;

/// Parse one line. `Ok(None)` for a blank or comment-only line. A first
/// word that is the id of one of `books` names the rule book the line is
/// resolved under.
pub(crate) fn parse_line(line: &str, books: &[System]) -> Result<Option<Command>, ParseError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(ParseError::LineTooLong {
            len: line.len(),
            max: MAX_LINE_BYTES,
        });
    }
    let tokens = tokenize(line);
    if tokens.is_empty() {
        return Ok(None);
    }
    structure(tokens, books).map(Some)
}

/// Split the line at whitespace, stopping at `#`, and classify each token.
fn tokenize(line: &str) -> Vec<Word> {
    let code = match memchr::memchr(b'#', line.as_bytes()) {
        Some(hash) => &line[..hash],
        None => line,
    };
    let mut words: Vec<Word> = Vec::with_capacity(12);
    let mut rest = code;
    loop {
        let trimmed = trim_space(rest);
        if trimmed.is_empty() {
            break;
        }
        let start = code.len() - trimmed.len();
        let len = token_len(trimmed);
        let text = &trimmed[..len];
        rest = &trimmed[len..];
        let span = Span::new(start, start + len);
        let kind = classify(text);
        // `2 BW`, `12 in`: a unit standing alone after a number.
        if let Some(unit) = lone_unit(text)
            && let Some(last) = words.last_mut()
            && let WordKind::Number(n) = last.kind
        {
            last.kind = WordKind::Distance(n, unit);
            last.span.end = span.end;
            last.text = code[last.span.start..last.span.end].into();
            continue;
        }
        words.push(Word {
            span,
            text: text.into(),
            kind,
        });
    }
    words
}

/// Whether an ASCII byte is whitespace as `char::is_whitespace` says
/// (which, unlike `u8::is_ascii_whitespace`, counts the vertical tab).
fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// `text` without its leading whitespace. Lines are nearly always ASCII,
/// and looked at a byte at a time; at the first other byte the rest is
/// left to the standard, Unicode-aware, trim.
fn trim_space(text: &str) -> &str {
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if b >= 0x80 {
            return text[i..].trim_start();
        }
        if !ascii_space(b) {
            return &text[i..];
        }
    }
    ""
}

/// The length of the token `text` starts with: up to the first
/// whitespace, Unicode's included (see [`trim_space`]).
fn token_len(text: &str) -> usize {
    for (i, &b) in text.as_bytes().iter().enumerate() {
        // A printable ASCII byte, nearly every byte of a line, is asked
        // once (whitespace and controls lie below it, other scripts above).
        if b.wrapping_sub(0x21) < 0x5F {
            continue;
        }
        if b >= 0x80 {
            return text[i..]
                .find(char::is_whitespace)
                .map_or(text.len(), |p| i + p);
        }
        if ascii_space(b) {
            return i;
        }
    }
    text.len()
}

/// Whether `word` (ASCII, any case) is the first or the second word of
/// `line`, split at whitespace as a command line is (and as
/// `str::split_whitespace` does): asked of every line of a batch, so the
/// second word is read only as far as `word` goes.
pub(crate) fn first_or_second_word_is(line: &str, word: &str) -> bool {
    let rest = trim_space(line);
    let first = token_len(rest);
    if rest[..first].eq_ignore_ascii_case(word) {
        return true;
    }
    let rest = trim_space(&rest[first..]);
    rest.as_bytes()
        .get(..word.len())
        .is_some_and(|b| b.eq_ignore_ascii_case(word.as_bytes()))
        && token_len(rest) == word.len()
}

fn lone_unit(text: &str) -> Option<Unit> {
    if text.eq_ignore_ascii_case("bw") {
        Some(Unit::BaseWidths)
    } else if text.eq_ignore_ascii_case("in") || text == "\"" {
        Some(Unit::Inches)
    } else {
        None
    }
}

/// A word a game adds to a line it reads differently (`initiative`
/// alone stands for each army's pool): the text as if typed, shown at
/// `span` of the line as typed (the word it stands beside).
pub(crate) fn added_word(text: impl Into<String>, span: Span) -> Word {
    let text = text.into();
    Word {
        span,
        kind: classify(&text),
        text: text.into(),
    }
}

/// What kind of token a piece of text is, on its own.
pub(crate) fn classify(text: &str) -> WordKind {
    // The common case, a plain lower-case keyword, needs no parser.
    let bare = text.strip_prefix('+').unwrap_or(text);
    if bare.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && bare
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return WordKind::Keyword {
            name: bare.into(),
            value: None,
        };
    }
    // Nor does a whole number, an entered die's face most often.
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        // A few digits are read as an integer, exactly the same number and
        // far cheaper than reading a decimal; more are left to the decimal.
        let value = match text.parse::<u32>() {
            Ok(n) => f64::from(n),
            Err(_) => text.parse::<f64>().unwrap_or(0.0),
        };
        return WordKind::Number(value);
    }
    if let Ok((_, (n, unit))) = all_consuming(distance).parse(text) {
        return WordKind::Distance(n, unit);
    }
    if let Ok((_, n)) = all_consuming(decimal).parse(text) {
        return WordKind::Number(n);
    }
    if let Ok((_, (name, value))) = all_consuming(keyword).parse(text) {
        return WordKind::Keyword {
            name: normalise(name).into(),
            value: value.map(str::to_string),
        };
    }
    WordKind::Other
}

/// Keywords are case-insensitive and `_` is read as `-`.
pub(crate) fn normalise(name: &str) -> String {
    if !name.bytes().any(|b| b == b'_' || b.is_ascii_uppercase()) {
        return name.to_string();
    }
    name.chars()
        .map(|c| {
            if c == '_' {
                '-'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// `12`, `2.5`, `.5` — plain decimals; no signs, exponents or `inf`.
fn decimal(input: &str) -> IResult<&str, f64> {
    let (rest, text) = alt((
        recognize(pair(digit1, opt(pair(char('.'), digit1)))),
        recognize(pair(char('.'), digit1)),
    ))
    .parse(input)?;
    // The recognizer admits only digits and one dot, which always parses.
    let value = text.parse::<f64>().unwrap_or(0.0);
    Ok((rest, value))
}

fn distance(input: &str) -> IResult<&str, (f64, Unit)> {
    pair(
        decimal,
        alt((
            map(tag_no_case("bw"), |_| Unit::BaseWidths),
            map(tag_no_case("in"), |_| Unit::Inches),
            map(tag("\""), |_| Unit::Inches),
        )),
    )
    .parse(input)
}

fn identifier(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic()),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
    ))
    .parse(input)
}

/// `[+]name`, `[+]name=value`, `name+N`.
fn keyword(input: &str) -> IResult<&str, (&str, Option<&str>)> {
    let (rest, _) = opt(char('+')).parse(input)?;
    let (rest, name) = identifier(rest)?;
    let (rest, value) = opt(alt((
        preceded(char('='), take_while1(|c: char| !c.is_whitespace())),
        recognize(pair(char('+'), digit1)),
    )))
    .parse(rest)?;
    Ok((rest, (name, value)))
}

/// Turn the token list into a command: system, `odds`, verb, words,
/// clauses and entered dice.
fn structure(tokens: Vec<Word>, books: &[System]) -> Result<Command, ParseError> {
    let mut tokens = tokens.into_iter().peekable();

    let mut system = None;
    if let Some(word) = tokens.peek()
        && let Some(sys) = word
            .keyword()
            .and_then(|k| books.iter().find(|b| b.id() == k).copied())
    {
        system = Some((sys, word.span));
        tokens.next();
    }

    let mut mode = Mode::Resolve;
    if tokens.peek().and_then(Word::keyword) == Some("odds") {
        mode = Mode::Odds;
        tokens.next();
        // `odds mayhem fire …` as well as `mayhem odds fire …`.
        if system.is_none()
            && let Some(word) = tokens.peek()
            && let Some(sys) = word
                .keyword()
                .and_then(|k| books.iter().find(|b| b.id() == k).copied())
        {
            system = Some((sys, word.span));
            tokens.next();
        }
    }

    let verb_word = tokens.next().ok_or_else(|| ParseError::MissingVerb {
        span: system.map(|(_, s)| s).unwrap_or_default(),
    })?;
    let verb = match verb_word.keyword() {
        Some(name) => Text::from(name),
        None => {
            return Err(ParseError::NotAVerb {
                span: verb_word.span,
                text: verb_word.text.to_string(),
            });
        }
    };

    let mut command = Command {
        system,
        mode,
        verb,
        verb_span: verb_word.span,
        // Every word left may be the verb's: room for them at once.
        words: Vec::with_capacity(tokens.len()),
        clauses: Vec::new(),
        rolled: Vec::new(),
        rolled_span: None,
        roll_rest: false,
    };

    for word in tokens.by_ref() {
        match word.keyword() {
            Some("at") | Some("vs") => {
                let kind = if word.keyword() == Some("at") {
                    ClauseKind::At
                } else {
                    ClauseKind::Vs
                };
                command.clauses.push(Clause {
                    kind,
                    span: word.span,
                    words: Vec::new(),
                });
            }
            Some("rolled") => {
                command.rolled_span = Some(word.span);
                break;
            }
            _ => match command.clauses.last_mut() {
                Some(clause) => clause.words.push(word),
                None => command.words.push(word),
            },
        }
    }

    if let Some(rolled_span) = command.rolled_span {
        (command.rolled, command.roll_rest) = entered_dice(tokens, rolled_span)?;
    }
    Ok(command)
}

/// The word after the entered faces that rolls the dice not entered.
pub(crate) const ROLL_REST: &str = "roll-rest";

/// The faces after `rolled`: whole numbers separated by spaces or commas,
/// and whether `roll-rest` stands among them.
fn entered_dice(
    tokens: impl Iterator<Item = Word>,
    rolled_span: Span,
) -> Result<(Vec<EnteredDie>, bool), ParseError> {
    // Most words after `rolled` are one die each (and a line's words are
    // bounded by its length).
    let mut dice = Vec::with_capacity(tokens.size_hint().0);
    let mut roll_rest: Option<Span> = None;
    for word in tokens {
        // `roll-rest` rolls the dice after the entered ones: a face after
        // it would be a die it claims to roll.
        if let Some(span) = roll_rest {
            return Err(ParseError::MisplacedRollRest { span });
        }
        if normalise(&word.text) == ROLL_REST {
            roll_rest = Some(word.span);
            continue;
        }
        let mut offset = word.span.start;
        for piece in word.text.split(',') {
            let span = Span::new(offset, offset + piece.len());
            offset += piece.len() + 1;
            if piece.is_empty() {
                continue;
            }
            match piece.parse::<u32>() {
                Ok(face) => dice.push(EnteredDie { face, span }),
                Err(_) => {
                    return Err(ParseError::BadFace {
                        span,
                        text: piece.to_string(),
                    });
                }
            }
        }
    }
    if dice.is_empty() {
        return Err(ParseError::NoDice { span: rolled_span });
    }
    Ok((dice, roll_rest.is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRUMS: System = System::new(&crate::command::Book {
        id: "drums",
        title: "Drums",
    });

    fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
        super::parse_line(line, &[DRUMS])
    }

    fn parse(line: &str) -> Command {
        parse_line(line).expect("parses").expect("not blank")
    }

    #[test]
    fn splits_at_every_whitespace_unicode_knows() {
        // A vertical tab, a no-break space and an ideographic space part
        // words as a space does, wherever they stand in the line.
        let texts = |line: &str| -> Vec<String> {
            tokenize(line)
                .into_iter()
                .map(|w| w.text.to_string())
                .collect()
        };
        assert_eq!(texts("a\u{0B}b\u{A0}c\u{3000}d"), ["a", "b", "c", "d"]);
        assert_eq!(texts("\u{A0} é\tx "), ["é", "x"]);
        assert_eq!(texts("ü\u{2003}v"), ["ü", "v"]);
        let spans: Vec<_> = tokenize(" é x").into_iter().map(|w| w.span).collect();
        assert_eq!(spans, [Span::new(1, 3), Span::new(4, 5)]);
    }

    #[test]
    fn first_or_second_word_is_as_the_standard_library_splits() {
        let lines = [
            "set seed 4",
            "  SET\tdice 3 ",
            "drums set seed 4",
            "drums settle",
            "drums sét",
            "a b set",
            "\u{A0}Set\u{3000}x",
            "x\u{2003}set",
            "résilience\u{85}set",
            "reset",
            "set",
            "se",
            "",
            " \r\n",
        ];
        for line in lines {
            let std = line
                .split_whitespace()
                .take(2)
                .any(|w| w.eq_ignore_ascii_case("set"));
            assert_eq!(first_or_second_word_is(line, "set"), std, "{line:?}");
        }
    }

    #[test]
    fn words_keep_their_spans_and_kinds() {
        let c = parse("resilience +Determined general=2 skill+1");
        assert_eq!(c.verb, "resilience");
        assert_eq!(c.words[0].span, Span::new(11, 22));
        assert_eq!(
            c.words[0].kind,
            WordKind::Keyword {
                name: "determined".into(),
                value: None
            }
        );
        assert_eq!(
            c.words[1].kind,
            WordKind::Keyword {
                name: "general".into(),
                value: Some("2".into())
            }
        );
        assert_eq!(
            c.words[2].kind,
            WordKind::Keyword {
                name: "skill".into(),
                value: Some("+1".into())
            }
        );
    }

    #[test]
    fn distances_in_every_spelling() {
        for (text, n, unit) in [
            ("2BW", 2.0, Unit::BaseWidths),
            ("2.5bw", 2.5, Unit::BaseWidths),
            ("12\"", 12.0, Unit::Inches),
            ("12in", 12.0, Unit::Inches),
            ("2 BW", 2.0, Unit::BaseWidths),
        ] {
            let c = parse(&format!("shoot musket {text}"));
            assert_eq!(c.words[1].kind, WordKind::Distance(n, unit), "{text}");
            assert_eq!(c.words[1].text, text);
        }
    }

    #[test]
    fn the_rule_system_may_follow_odds() {
        // Issue: `odds mayhem fire musket 10" open` was "unknown verb `mayhem`".
        for line in ["drums odds hold", "odds drums hold"] {
            let c = parse(line);
            assert_eq!(c.system.map(|s| s.0), Some(DRUMS), "{line}");
            assert_eq!((c.mode, c.verb.as_str()), (Mode::Odds, "hold"), "{line}");
        }
    }

    #[test]
    fn clauses_dice_and_comments() {
        let c = parse("drums shoot musket 2BW formed at moved cover rolled 4,5 6 # note");
        assert_eq!(c.system.map(|s| s.0), Some(DRUMS));
        assert_eq!(c.words.len(), 3);
        assert_eq!(c.clauses[0].kind, ClauseKind::At);
        assert_eq!(c.clauses[0].words.len(), 2);
        let faces: Vec<u32> = c.rolled.iter().map(|d| d.face).collect();
        assert_eq!(faces, [4, 5, 6]);
        assert_eq!(c.rolled[1].span, Span::new(54, 55));
    }

    #[test]
    fn odds_and_blank_lines() {
        assert_eq!(parse("odds hold").mode, Mode::Odds);
        assert!(parse_line("   # only a comment").unwrap().is_none());
        assert!(parse_line("").unwrap().is_none());
    }

    #[test]
    fn bad_structure_is_an_error_with_a_span() {
        assert!(matches!(
            parse_line("12 hold"),
            Err(ParseError::NotAVerb { .. })
        ));
        assert!(matches!(
            parse_line("hold rolled x"),
            Err(ParseError::BadFace { .. })
        ));
        assert!(matches!(
            parse_line("hold rolled"),
            Err(ParseError::NoDice { .. })
        ));
        assert!(matches!(
            parse_line(&"a".repeat(10_000)),
            Err(ParseError::LineTooLong { .. })
        ));
    }

    #[test]
    fn other_tokens_are_kept_whole() {
        let c = parse("roll 2d6+1");
        assert_eq!(c.words[0].kind, WordKind::Other);
        assert_eq!(c.words[0].text, "2d6+1");
    }
}
