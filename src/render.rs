//! Resolution → text (a comfy-table of the modifier stack, the outcome on
//! its own line) or JSON (one object per command).

use comfy_table::{Cell, CellAlignment, ContentArrangement, Table, presets};
use owo_colors::OwoColorize;
use serde_json::{Map, Value, json};

use crate::resolution::{Resolution, Tone};

pub fn text(res: &Resolution, color: bool) -> String {
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    for row in &res.rows {
        table.add_row(vec![
            Cell::new(&row.label),
            Cell::new(&row.value).set_alignment(CellAlignment::Right),
        ]);
    }
    let mut heading = format!("{} · {}", res.heading, res.rules.title());
    if let Some(seed) = res.seed {
        heading.push_str(&format!(" · seed {seed}"));
    }
    let mut out = heading;
    if !res.rows.is_empty() {
        out.push('\n');
        out.push_str(&table.to_string());
    }
    out.push('\n');
    out.push_str(&outcome_line(res, color));
    for note in &res.notes {
        out.push_str("\n  ");
        out.push_str(note);
    }
    out
}

fn outcome_line(res: &Resolution, color: bool) -> String {
    let line = format!("⇒ {}", res.outcome_text);
    if !color {
        return line;
    }
    match res.tone {
        Tone::Good => line.green().bold().to_string(),
        Tone::Bad => line.red().bold().to_string(),
        Tone::Neutral => line.yellow().bold().to_string(),
    }
}

pub fn json(res: &Resolution) -> Value {
    let mut obj = Map::new();
    obj.insert("verb".into(), json!(res.verb));
    obj.insert("rules".into(), json!(res.rules.id()));
    if let Some(seed) = res.seed {
        obj.insert("seed".into(), json!(seed));
    }
    obj.insert(
        "dice".into(),
        json!(res.dice.iter().map(|d| d.face).collect::<Vec<_>>()),
    );
    obj.insert(
        "entered".into(),
        json!(res.dice.iter().map(|d| d.entered).collect::<Vec<_>>()),
    );
    obj.insert(
        "modifiers".into(),
        Value::Array(
            res.modifiers
                .iter()
                .map(|m| json!({"label": m.label, "value": m.value}))
                .collect(),
        ),
    );
    if let Some(score) = res.score {
        obj.insert("score".into(), json!(score));
    }
    obj.insert("outcome".into(), json!(res.outcome));
    obj.insert("outcome_text".into(), json!(res.outcome_text));
    for (k, v) in &res.fields {
        obj.insert(k.clone(), v.clone());
    }
    if !res.notes.is_empty() {
        obj.insert("notes".into(), json!(res.notes));
    }
    Value::Object(obj)
}

/// An error as a JSON object: `{"error", "line", "column"}`.
pub fn json_error(message: &str, line: usize, column: Option<usize>) -> Value {
    let mut obj = Map::new();
    obj.insert("error".into(), json!(message));
    obj.insert("line".into(), json!(line));
    if let Some(c) = column {
        obj.insert("column".into(), json!(c));
    }
    Value::Object(obj)
}
