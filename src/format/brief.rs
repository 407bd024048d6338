//! One line an answer, as a dice bot says it (`--brief`): a resolution as
//! `resilience gren-1: 4+3 +1 -1 = 7 → carry on (seed 43)`, odds as their
//! main outcomes. The line fits the terminal's width: what it leaves out
//! first is what the table would have said at length (the modifiers'
//! labels, the flags typed), never the dice, the score or the outcome.

use unicode_width::UnicodeWidthStr;

use super::Style;
use super::text::paint;
use crate::answer::{Odds, Resolution};

/// One line a resolution and an `odds`; every other answer as
/// [`super::text::Text`] writes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Brief {
    pub(crate) style: Style,
}

impl super::Format for Brief {
    fn accepts(&self, kind: crate::answer::Kind, _line: &str) -> Result<(), String> {
        super::line_answers(kind, "--brief")
    }

    fn write(
        &self,
        answer: &crate::answer::Answer,
        source: super::Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        match answer {
            crate::answer::Answer::Resolution(res) => {
                writeln!(out, "{}", brief(res, &self.style, source.input))
            }
            crate::answer::Answer::Odds(odds) => {
                writeln!(out, "{}", brief_odds(odds, &self.style, source.input))
            }
            other => super::text::Text { style: self.style }.write(other, source, out),
        }
    }
}

/// How much a resolution's line says, from the most to the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Detail {
    /// Each modifier with its row's label (`--labels`).
    Labels,
    /// Each modifier's labels cut to a few words.
    ShortLabels,
    /// The command as typed, each modifier as a signed number.
    Full,
    /// The command without its `+flag` words.
    NoFlags,
    /// The modifiers as one net number.
    Net,
    /// A pool's faces as a count of dice.
    DiceCount,
    /// The command as its verb alone.
    Verb,
}

/// One line, as a dice bot says it: the command as typed (without its
/// entered dice), the dice, each modifier signed, the score, the outcome
/// and the seed the dice came from (none for entered dice). Within the
/// style's width: the first of the ways of saying it that fits, the
/// outcome cut short only when none does.
pub(crate) fn brief(res: &Resolution, style: &Style, input: &str) -> String {
    let details: &[Detail] = if style.labels {
        &[Detail::Labels, Detail::ShortLabels, Detail::Full]
    } else {
        &[Detail::Full]
    };
    let rest = [
        Detail::NoFlags,
        Detail::Net,
        Detail::DiceCount,
        Detail::Verb,
    ];
    let mut line = String::new();
    for &detail in details.iter().chain(&rest) {
        line = shown(style, &resolution_line(res, input, detail));
        if fits(style, &line) {
            break;
        }
    }
    let line = cut_to_width(style, line);
    if style.color {
        paint(&line, res.tone)
    } else {
        line
    }
}

/// The line at one level of detail, before it is made visible.
fn resolution_line(res: &Resolution, input: &str, detail: Detail) -> String {
    let command = match input.find(" rolled") {
        Some(i) => &input[..i],
        None => input,
    };
    // The labels say what the `+flag` words did, so a line with them
    // leaves the flags out.
    let command = if detail == Detail::Verb {
        command
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    } else if detail >= Detail::NoFlags || detail <= Detail::ShortLabels {
        without_flags(command)
    } else {
        command.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut out = format!("{command}:");
    if !res.dice.is_empty() {
        let faces: Vec<String> = res.dice.iter().map(|d| d.face.to_string()).collect();
        // Dice that are added up read as a sum, a pool as the faces thrown.
        if res.score.is_some() {
            out.push_str(&format!(" {}", faces.join("+")));
        } else if detail >= Detail::DiceCount && faces.len() > 1 {
            out.push_str(&format!(" [{} dice]", faces.len()));
        } else {
            out.push_str(&format!(" [{}]", faces.join(" ")));
        }
    }
    if detail >= Detail::Net {
        let net: i64 = res.modifiers.iter().map(|m| m.value).sum();
        if !res.modifiers.is_empty() {
            out.push_str(&format!(" {net:+}"));
        }
    } else {
        for m in &res.modifiers {
            match detail {
                Detail::Labels => out.push_str(&format!(" {:+} {}", m.value, m.label)),
                Detail::ShortLabels => {
                    out.push_str(&format!(" {:+} {}", m.value, short_label(&m.label)));
                }
                _ => out.push_str(&format!(" {:+}", m.value)),
            }
        }
    }
    if let Some(score) = res.score {
        out.push_str(&format!(" = {score}"));
    }
    out.push_str(&format!(" → {}", res.outcome_text));
    if let Some(seed) = res.seed {
        out.push_str(&format!(" (seed {seed})"));
    }
    out
}

/// The words of a command but its `+flag` and `-flag` words, which the
/// modifiers stand for.
fn without_flags(command: &str) -> String {
    let flag = |w: &&str| {
        let mut chars = w.chars();
        matches!(chars.next(), Some('+' | '-')) && chars.next().is_some_and(char::is_alphabetic)
    };
    let words: Vec<&str> = command.split_whitespace().filter(|w| !flag(w)).collect();
    words.join(" ")
}

/// A modifier's label in its first words: "Are classed as Determined" →
/// "Are classed as…", enough to tell the rows of one stack apart.
fn short_label(label: &str) -> String {
    const WORDS: usize = 3;
    let words: Vec<&str> = label.split_whitespace().collect();
    if words.len() <= WORDS {
        return words.join(" ");
    }
    format!("{}…", words[..WORDS].join(" "))
}

/// The line made visible (and ASCII if asked), never wrapped: it is one line.
fn shown(style: &Style, line: &str) -> String {
    Style {
        width: None,
        ..*style
    }
    .finish(line.to_string())
}

fn fits(style: &Style, line: &str) -> bool {
    style.width.is_none_or(|w| line.width() <= usize::from(w))
}

/// The line cut at the width with an ellipsis, when nothing shorter said it.
fn cut_to_width(style: &Style, line: String) -> String {
    match style.width {
        Some(width) => super::shorten(&line, usize::from(width), style.ascii),
        None => line,
    }
}

/// The most outcomes one `odds` line names: more (a total of many dice)
/// are the most likely ones, and how many are left out.
const MOST_OUTCOMES: usize = 6;

/// `odds` in one line: each outcome (those of one kind added up, as a
/// script adds up P(pass)) with its chance, in the order of the table.
pub(crate) fn brief_odds(odds: &Odds, style: &Style, input: &str) -> String {
    let outcomes = main_outcomes(odds);
    let mut most = MOST_OUTCOMES.min(outcomes.len());
    let head = input.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let line = shown(style, &odds_line(&head, &mut outcomes.clone(), most));
        if most <= 1 || fits(style, &line) {
            return cut_to_width(style, line);
        }
        most -= 1;
    }
}

/// The outcomes by kind (the forced retires of 1BW and of 2BW as one),
/// a kind of one row named as the row is, of several by the outcome they
/// share. Where every row is of one kind (the totals of a roll), the rows
/// are the outcomes.
fn main_outcomes(odds: &Odds) -> Vec<(String, f64)> {
    let mut kinds: Vec<(&str, f64, Vec<&str>)> = Vec::new();
    for o in &odds.outcomes {
        match kinds.iter_mut().find(|k| k.0 == o.kind) {
            Some(k) => {
                k.1 += o.prob.p;
                k.2.push(&o.text);
            }
            None => kinds.push((&o.kind, o.prob.p, vec![&o.text])),
        }
    }
    if kinds.len() == 1 {
        return odds
            .outcomes
            .iter()
            .map(|o| (o.text.clone(), o.prob.p))
            .collect();
    }
    kinds
        .into_iter()
        .map(|(kind, p, texts)| match texts.as_slice() {
            [one] => (one.to_string(), p),
            _ => (kind.replace('-', " "), p),
        })
        .collect()
}

/// The line naming the `most` likeliest outcomes, in their own order.
fn odds_line(head: &str, outcomes: &mut Vec<(String, f64)>, most: usize) -> String {
    let left_out = outcomes.len().saturating_sub(most);
    if left_out > 0 {
        let mut order: Vec<usize> = (0..outcomes.len()).collect();
        order.sort_by(|&a, &b| outcomes[b].1.total_cmp(&outcomes[a].1));
        let kept: Vec<usize> = order.into_iter().take(most).collect();
        let mut i = 0;
        outcomes.retain(|_| {
            i += 1;
            kept.contains(&(i - 1))
        });
    }
    let parts: Vec<String> = outcomes
        .iter()
        .map(|(text, p)| format!("{text} {}", super::text::percent(*p)))
        .collect();
    let mut out = format!("{head}: {}", parts.join(" · "));
    if left_out > 0 {
        out.push_str(&format!(" · {left_out} more"));
    }
    out
}
