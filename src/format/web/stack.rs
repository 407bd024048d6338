//! A resolution as the feed shows it: its heading, its stack as rows of
//! a label and its value, the outcome, the notes; a note that is the same
//! under every answer (the example CRT's) folded into one line, marked
//! with its `data-note` so that a page can show it once.

use maud::{Markup, html};

use crate::answer::{Resolution, Tone};

pub(super) fn resolution(res: &Resolution) -> Markup {
    let mut heading = format!("{} · {}", res.heading, res.rules.title());
    if let Some(seed) = res.seed {
        heading.push_str(&format!(" · seed {seed}"));
    }
    let tone = match res.tone {
        Tone::Good => "outcome good",
        Tone::Bad => "outcome bad",
        Tone::Neutral => "outcome neutral",
    };
    let texts = res.row_texts();
    let notes: Vec<&String> = res
        .notes
        .iter()
        .filter(|n| !res.standing.iter().any(|s| s.text == n.as_str()))
        .collect();
    html! {
        div.answer.resolution {
            p.heading { (heading) }
            @if !texts.is_empty() {
                (super::rows(texts.iter().map(|(l, v)| (l.as_str(), v.as_str()))))
            }
            p class=(tone) { "⇒ " (res.outcome_text) }
            @if !notes.is_empty() {
                ul.notes { @for n in notes { li { (n) } } }
            }
            @for s in &res.standing {
                details.standing data-note=(s.line) {
                    summary { "⚠ " (s.line) }
                    p { (s.text) }
                }
            }
        }
    }
}
