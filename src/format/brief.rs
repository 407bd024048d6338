//! One line a resolution, as a dice bot says it (`--brief`).

use super::Style;
use super::text::paint;
use crate::answer::Resolution;

/// One line a resolution; every other answer as [`super::text::Text`]
/// writes it.
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
            other => super::text::Text { style: self.style }.write(other, source, out),
        }
    }
}

/// One line, as a dice bot says it: the command as typed (without its
/// entered dice), the dice, each modifier with its row, the score, the
/// outcome.
pub(crate) fn brief(res: &Resolution, style: &Style, input: &str) -> String {
    let command = match input.find(" rolled") {
        Some(i) => &input[..i],
        None => input,
    };
    let mut out = format!("{}:", command.trim());
    if !res.dice.is_empty() {
        let faces: Vec<String> = res.dice.iter().map(|d| d.face.to_string()).collect();
        // Dice that are added up read as a sum, a pool as the faces thrown.
        if res.score.is_some() {
            out.push_str(&format!(" {}", faces.join("+")));
        } else {
            out.push_str(&format!(" [{}]", faces.join(" ")));
        }
    }
    for m in &res.modifiers {
        out.push_str(&format!(" {:+} {}", m.value, m.label));
    }
    if let Some(score) = res.score {
        out.push_str(&format!(" = {score}"));
    }
    out.push_str(&format!(" → {}", res.outcome_text));
    let out = style.finish(out);
    if style.color {
        paint(&out, res.tone)
    } else {
        out
    }
}
