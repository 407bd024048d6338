//! drumhead(1)'s JSON OUTPUT: the objects of --json and their fields.

use roff::Roff;

use super::roff_text::{and_list, para, tagged};
use crate::answer::Answer;
use crate::answer::report::Report;
use crate::answer::resolution::Resolution;
use crate::format::Source;

/// The JSON Lines format of `--json` (SPEC section 4, as render.rs writes it).
pub(super) fn json_section(roff: &mut Roff) {
    roff.control("SH", ["JSON OUTPUT"]);
    para(
        roff,
        &format!(
            "With --json every command prints one JSON object on one line (JSON Lines) on standard output. \
             Every object begins with the same four keys: type ({}), version (the format \
             version, now {}; it changes only when a key is renamed, removed or changes meaning), line (the \
             input line answered, from 1) and input (that line's text). A JSON Schema for each type is in the \
             source's schemas/ folder. After those, a resolution has these fields, in this order:",
            types().join(", "),
            crate::answer::report::FORMAT_VERSION
        ),
    );
    let books: Vec<String> = crate::systems::all()
        .books()
        .iter()
        .map(|b| format!("\"{}\"", b.id()))
        .collect();
    let rules = format!(
        "the rule system: {}.",
        crate::army::one_of(&books.iter().map(String::as_str).collect::<Vec<_>>())
    );
    for name in resolution_fields() {
        let text = match name.as_str() {
            "rules" => rules.as_str(),
            name => FIELD_TEXTS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("", |(_, text)| text),
        };
        // A field the writer adds must be described here.
        debug_assert!(!text.is_empty(), "JSON field {name} is not described");
        tagged(roff, &name, text);
    }
    para(
        roff,
        &format!(
            "Then each procedure adds its own fields (before notes), as its examples in help give them \
             ({{…}} an object's keys, [{{…}}] a list of such objects): {}. \
             Commands that name units also carry the game's effects in their notes.",
            procedure_fields()
        ),
    );
    para(
        roff,
        &format!(
            "A rejected command prints an error object on standard output instead: kind (what went \
             wrong, stable for a script to branch on: one of {}), error (the message) and column (the \
             1-based column of the word at fault, when there is one).",
            crate::error::ErrorKind::ALL
                .map(crate::error::ErrorKind::name)
                .join(", ")
        ),
    );
    let text_only: Vec<&str> = reports()
        .iter()
        .filter(|(report, _)| fields_of(report) == ["text"])
        .map(|(_, verb)| *verb)
        .collect();
    para(
        roff,
        &format!(
            "{before}{} print text; {after}",
            and_list(&text_only),
            before = "odds prints verb, rules, outcomes [{id, outcome, text, p, fraction, effects}] \
         with exact probabilities that sum to 1 (fraction like \"7/12\", null when there is no exact fraction; \
         outcome is what a resolution of the line gives, shared by every row of that kind, so P(pass) is the sum \
         over the rows whose outcome is pass; id is unique within one answer: a second text under one outcome gets -2, -3 …; \
         effects holds each number the resolution reports, such as hits, with its one value on that row), then expected values \
         where they apply (expected_hits, expected_distance …). \
         odds … compare WORD prints a comparison: verb, rules, compare, without, with (the last two distributions as in odds); \
         simulate N prints a simulation: verb, rules, simulate, seed, outcomes [{outcome, text, observed, p_observed, p}] \
         (p is null for a line with more outcomes than odds lists). ",
            after = "units prints a roster: turn, armies [{name, side, rules, rules_title, columns, \
         units (one object per unit keyed by column), notes}]; show prints a unit: id, name, army, rows [{label, value}]; \
         log prints entries [{entry, turn, line, outcome, undo, undone}]; end-turn prints turn and systems (each rule \
         system's end-of-turn text); next-turn prints turn and notes; undo prints undone (the line taken back, or null); \
         save prints path.",
        ),
    );
}

/// What each field of a resolution means (`rules` is worded from the
/// registry).
const FIELD_TEXTS: &[(&str, &str)] = &[
    ("verb", "the verb resolved, such as \"resilience\"."),
    (
        "seed",
        "present when any die was rolled rather than entered: --seed with this number rolls the same dice again.",
    ),
    (
        "dice",
        "every die face, in the order the procedure threw them.",
    ),
    (
        "entered",
        "booleans, as long as dice: true for a face you entered (rolled … or --dice), false for one drumhead rolled.",
    ),
    (
        "modifiers",
        "the modifier stack: [{\"label\", \"value\"}], each labelled with the rule table row it came from.",
    ),
    ("score", "the modified score, where the procedure has one."),
    (
        "outcome",
        "the outcome's id, such as \"carry-on\", \"must-charge\", \"pass\".",
    ),
    ("outcome_text", "the outcome in the rule's words."),
    (
        "notes",
        "present when there are notes: further effects and reminders, as text.",
    ),
];

/// The `type` of every JSON object: those render.rs writes itself, then
/// each kind of report, as serde names it.
fn types() -> Vec<&'static str> {
    let mut types = vec![
        "resolution",
        "odds",
        "comparison",
        "simulation",
        "sweep",
        "error",
    ];
    types.extend(reports().iter().map(|(report, _)| report.kind()));
    types
}

/// One report of every kind, with the verb that prints it.
fn reports() -> Vec<(Report, &'static str)> {
    let text = String::new;
    let reports = vec![
        (Report::Help { text: text() }, "help"),
        (
            Report::Roster {
                turn: 0,
                armies: Vec::new(),
            },
            "units",
        ),
        (
            Report::Unit {
                id: text(),
                name: text(),
                army: text(),
                rows: Vec::new(),
            },
            "show",
        ),
        (
            Report::Log {
                entries: Vec::new(),
            },
            "log",
        ),
        (
            Report::EndTurn {
                turn: 0,
                systems: Vec::new(),
            },
            "end-turn",
        ),
        (
            Report::NextTurn {
                turn: 0,
                notes: Vec::new(),
            },
            "next-turn",
        ),
        (Report::Undo { undone: None }, "undo"),
        (Report::Saved { path: text() }, "save"),
        (Report::Setting { text: text() }, "set"),
        (Report::Loaded { text: text() }, "load"),
    ];
    for (report, _) in &reports {
        // Names every kind: a new kind of report does not compile until
        // it is added to the list above.
        match report {
            Report::Help { .. }
            | Report::Roster { .. }
            | Report::Unit { .. }
            | Report::Log { .. }
            | Report::EndTurn { .. }
            | Report::NextTurn { .. }
            | Report::Undo { .. }
            | Report::Saved { .. }
            | Report::Setting { .. }
            | Report::Loaded { .. } => {}
        }
    }
    reports
}

/// The fields of a resolution after the four every object begins with,
/// in the order the writer gives them, read from one it writes with every
/// field present. The fields a procedure adds come before `notes`, and
/// are left out here.
fn resolution_fields() -> Vec<String> {
    let book = crate::systems::all().books()[0];
    let mut res = Resolution::new(book, "verb", "", false);
    res.seed = Some(0);
    res.score = Some(0);
    res.notes.push(String::new());
    let source = Source { line: 1, input: "" };
    match crate::format::json::json(&res, source) {
        serde_json::Value::Object(fields) => fields.keys().skip(4).cloned().collect(),
        _ => Vec::new(),
    }
}

/// The keys serde writes for a report, after its type.
fn fields_of(report: &Report) -> Vec<String> {
    match serde_json::to_value(report) {
        Ok(serde_json::Value::Object(fields)) => {
            fields.keys().filter(|k| *k != "type").cloned().collect()
        }
        _ => Vec::new(),
    }
}

/// Each procedure's own fields, read from what its examples in `help`
/// resolve to (`resilience: context, hits, advance_bw`), so the list is
/// the program's own and cannot drift from it.
fn procedure_fields() -> String {
    let Ok(tables) = crate::systems::embedded() else {
        return String::new();
    };
    let catalog = crate::session::catalog(&tables);
    let mut listed: Vec<(String, Vec<Field>)> = Vec::new();
    for verb in catalog.verbs() {
        let Some(book) = verb.system else {
            continue;
        };
        let label = format!("{} {}", book.id(), verb.name);
        let at = match listed.iter().position(|(l, _)| *l == label) {
            Some(at) => at,
            None => {
                listed.push((label, Vec::new()));
                listed.len() - 1
            }
        };
        for example in verb.examples {
            let mut session = crate::session::Session::new(tables.clone(), book, 1);
            let Ok(Some(Answer::Resolution(res))) = session.run_line(example) else {
                continue;
            };
            for (key, value) in res.fields.iter() {
                Field::add(&mut listed[at].1, key, value);
            }
        }
    }
    listed
        .into_iter()
        .filter(|(_, fields)| !fields.is_empty())
        .map(|(label, fields)| {
            let shown: Vec<String> = fields.iter().map(Field::shown).collect();
            format!("{label}: {}", shown.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One field of a procedure: its key, whether it holds an object or a
/// list of objects, and their keys (every key any example gave).
struct Field {
    key: String,
    list: bool,
    keys: Vec<String>,
}

impl Field {
    fn add(fields: &mut Vec<Field>, key: &str, value: &serde_json::Value) {
        let (list, object) = match value {
            serde_json::Value::Array(items) => (true, items.first()),
            object => (false, Some(object)),
        };
        let keys: Vec<String> = match object {
            Some(serde_json::Value::Object(map)) => map.keys().cloned().collect(),
            _ => Vec::new(),
        };
        match fields.iter_mut().find(|f| f.key == key) {
            Some(field) => {
                for k in keys {
                    if !field.keys.contains(&k) {
                        field.keys.push(k);
                    }
                }
            }
            None => fields.push(Field {
                key: key.to_string(),
                list,
                keys,
            }),
        }
    }

    fn shown(&self) -> String {
        match (self.keys.is_empty(), self.list) {
            (true, _) => self.key.clone(),
            (false, false) => format!("{} {{{}}}", self.key, self.keys.join(", ")),
            (false, true) => format!("{} [{{{}}}]", self.key, self.keys.join(", ")),
        }
    }
}
