//! Every answer as one JSON object on its own line: the envelope (`type`,
//! `version`, `line`, `input`) and the answer's own fields. A resolution,
//! the batch's hot path, is written straight into bytes; the rest go
//! through serde_json's tree.

use serde_json::{Map, Value, json};

use super::Source;
use crate::answer::{
    Answer, Comparison, FORMAT_VERSION, Odds, Report, Resolution, Simulation, Sweep, p_of,
};
use crate::error::ErrorKind;

/// One JSON object a line; what it quotes is shown, never obeyed
/// ([`crate::text::json_visible`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Json;

impl super::Format for Json {
    fn accepts(&self, kind: crate::answer::Kind, _line: &str) -> Result<(), String> {
        super::line_answers(kind, "--json")
    }

    fn write(
        &self,
        answer: &Answer,
        source: Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let text = match answer {
            Answer::Resolution(res) => {
                // Every string is escaped as it is written (json_str), so
                // the object needs no second pass.
                let mut buf = Vec::with_capacity(1024);
                write_json(res, source, &mut buf);
                buf.push(b'\n');
                return out.write_all(&buf);
            }
            Answer::Odds(odds) => odds_json(odds, source).to_string(),
            Answer::Comparison(c) => comparison_json(c, source).to_string(),
            Answer::Simulation(s) => simulation_json(s, source).to_string(),
            Answer::Sweep(s) => sweep_json(s, source).to_string(),
            Answer::Report(r) => report_json(r, source).to_string(),
            Answer::Sheet(_) | Answer::Cards(_) => {
                return Err(super::not_written("--json", answer));
            }
        };
        writeln!(out, "{}", crate::text::json_visible(&text))
    }

    fn long(&self) -> Option<Box<dyn super::stream::Long>> {
        Some(Box::<LongJson>::default())
    }
}

/// One resolution as a JSON object, written straight into `out` (the
/// batch hot path: no intermediate tree).
pub fn write_json(res: &Resolution, source: Source, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"type\":\"resolution\",\"version\":");
    json_int(out, i64::from(FORMAT_VERSION));
    out.extend_from_slice(b",\"line\":");
    json_int(out, i64::try_from(source.line).unwrap_or(i64::MAX));
    out.extend_from_slice(b",\"input\":");
    json_str(out, source.input);
    out.extend_from_slice(b",\"verb\":");
    json_known(out, res.verb);
    out.extend_from_slice(b",\"rules\":");
    json_known(out, res.rules.id());
    if let Some(seed) = res.seed {
        out.extend_from_slice(b",\"seed\":");
        // Seeds are unsigned 64-bit, all the way out.
        let mut buf = itoa::Buffer::new();
        out.extend_from_slice(buf.format(seed).as_bytes());
    }
    out.extend_from_slice(b",\"dice\":[");
    for (i, d) in res.dice.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json_int(out, i64::from(d.face));
    }
    out.extend_from_slice(b"],\"entered\":[");
    for (i, d) in res.dice.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(if d.entered { b"true" } else { b"false" });
    }
    out.extend_from_slice(b"],\"modifiers\":[");
    for (i, m) in res.modifiers.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"label\":");
        json_str(out, &m.label);
        out.extend_from_slice(b",\"value\":");
        json_int(out, m.value);
        out.push(b'}');
    }
    out.push(b']');
    if let Some(score) = res.score {
        out.extend_from_slice(b",\"score\":");
        json_int(out, score);
    }
    out.extend_from_slice(b",\"outcome\":");
    json_cow(out, &res.outcome);
    out.extend_from_slice(b",\"outcome_text\":");
    json_str(out, &res.outcome_text);
    for (k, v) in &res.fields.0 {
        out.push(b',');
        json_cow(out, k);
        out.push(b':');
        json_value(out, v);
    }
    if !res.notes.is_empty() {
        out.extend_from_slice(b",\"notes\":[");
        for (i, n) in res.notes.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json_str(out, n);
        }
        out.push(b']');
    }
    out.push(b'}');
}

/// A text the program itself holds (a verb's name, a field's key, an
/// outcome's id: a literal of the source, never the user's words nor a
/// table's): clean by construction, and written without looking.
fn json_known(out: &mut Vec<u8>, s: &'static str) {
    debug_assert!(first_suspect(s.as_bytes()).is_none(), "{s:?}");
    quoted(out, s);
}

/// A text known to need no escape, between quotes.
fn quoted(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}

/// A text that is a literal of the source when borrowed ([`json_known`])
/// and may be anything when owned ([`json_str`]).
#[allow(clippy::ptr_arg, reason = "which variant it is says how it is written")]
fn json_cow(out: &mut Vec<u8>, s: &std::borrow::Cow<'static, str>) {
    match s {
        std::borrow::Cow::Borrowed(s) => json_known(out, s),
        std::borrow::Cow::Owned(s) => json_str(out, s),
    }
}

/// A field's value. Strings, integers and flags, nearly every field, are
/// written directly; anything else goes through serde, which escapes what
/// JSON requires, and the controls it leaves raw are escaped after it, in
/// this value alone.
fn json_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        // A clean string is written as serde would write it (a suspect one
        // is left to serde: it spells some controls its own way).
        Value::String(s) if first_suspect(s.as_bytes()).is_none() => return quoted(out, s),
        Value::Bool(b) => return out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return json_int(out, i);
            }
        }
        _ => {}
    }
    let at = out.len();
    // Writing a Value into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, v);
    if let Ok(written) = std::str::from_utf8(&out[at..])
        && let std::borrow::Cow::Owned(shown) = crate::text::json_visible(written)
    {
        out.truncate(at);
        out.extend_from_slice(shown.as_bytes());
    }
}

fn json_int(out: &mut Vec<u8>, n: i64) {
    let mut buf = itoa::Buffer::new();
    out.extend_from_slice(buf.format(n).as_bytes());
}

/// The bytes that may need an escape, or may begin a control JSON allows
/// raw (0xC2 a C1 control, 0xE2 a bidirectional one).
static SUSPECT: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || b == 0xC2 || b == 0xE2;
        b += 1;
    }
    table
};

/// Where the first byte in [`SUSPECT`] stands, if any. Almost every string
/// is clean: eight bytes at a time are asked at once, as one machine word
/// (each test below sets a byte's top bit where that byte is, or may
/// follow one that is, suspect, or is not ASCII; a word with none set
/// holds none), and the few bytes left over, and the words that may hold
/// one, are looked up one by one.
fn first_suspect(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const TOPS: u64 = u64::from_ne_bytes([0x80; 8]);
    // Some byte below `n` (for `n` up to 0x80), or equal to `b`.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & TOPS;
    let equal = |x: u64, b: u8| below(x ^ (ONES * u64::from(b)), 1);
    let in_table = |from: usize, part: &[u8]| {
        part.iter()
            .position(|&b| SUSPECT[usize::from(b)])
            .map(|p| from + p)
    };
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for (i, word) in words.enumerate() {
        let mut eight = [0; 8];
        eight.copy_from_slice(word);
        let x = u64::from_ne_bytes(eight);
        // Any byte of another script (0xC2 and 0xE2 lead the suspect
        // ones there) sends the word to the table: most text is ASCII.
        let any = below(x, 0x20) | equal(x, b'"') | equal(x, b'\\') | equal(x, 0x7F) | (x & TOPS);
        if any != 0
            && let Some(at) = in_table(i * 8, word)
        {
            return Some(at);
        }
    }
    in_table(bytes.len() - tail.len(), tail)
}

/// A JSON string with the escapes RFC 8259 requires, and the controls it
/// allows raw (DEL, C1, the bidirectional overrides) escaped too, as
/// [`crate::text::json_visible`] would: what a line quotes is shown, never
/// obeyed.
fn json_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let Some(first) = first_suspect(bytes) else {
        return quoted(out, s);
    };
    out.push(b'"');
    out.extend_from_slice(&bytes[..first]);
    let (s, bytes) = (&s[first..], &bytes[first..]);
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let escape: Option<&[u8]> = match c {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '\n' => Some(b"\\n"),
            '\r' => Some(b"\\r"),
            '\t' => Some(b"\\t"),
            c if crate::text::is_control(c) => None,
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        match escape {
            Some(e) => out.extend_from_slice(e),
            None => out.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes()),
        }
        start = i + c.len_utf8();
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The same object as a `Value`, for callers that want a tree.
pub fn json(res: &Resolution, source: Source) -> Value {
    let mut out = Vec::new();
    write_json(res, source, &mut out);
    serde_json::from_slice(&out).unwrap_or(Value::Null)
}

/// An error as a JSON object: the envelope, its `kind`, `error` and,
/// when the error has a place on the line, its `column` (in characters,
/// from 1).
pub(crate) fn json_error(
    message: &str,
    kind: ErrorKind,
    source: Source,
    column: Option<usize>,
) -> Value {
    let mut obj = envelope("error", source);
    obj.insert("kind".into(), json!(kind.name()));
    obj.insert("error".into(), json!(message));
    if let Some(c) = column {
        obj.insert("column".into(), json!(c));
    }
    Value::Object(obj)
}

pub(crate) fn odds_json(odds: &Odds, source: Source) -> Value {
    enveloped("odds", source, distribution_json(odds))
}

/// The distribution itself: each outcome with its probability, then the
/// expected values.
fn distribution_json(odds: &Odds) -> Value {
    let mut obj = Map::new();
    obj.insert("verb".into(), json!(odds.verb));
    obj.insert("rules".into(), json!(odds.rules.id()));
    obj.insert(
        "outcomes".into(),
        Value::Array(
            odds.outcomes
                .iter()
                .map(|o| {
                    json!({
                        "id": o.outcome,
                        "outcome": o.kind,
                        "text": o.text,
                        "p": o.prob.p,
                        "fraction": o.prob.fraction(),
                        "effects": o.effects().map(|(k, v)| (k.to_string(), json!(v))).collect::<Map<String, Value>>(),
                    })
                })
                .collect(),
        ),
    );
    for (name, value) in &odds.expected {
        obj.insert(name.clone(), json!(value));
    }
    Value::Object(obj)
}

pub(crate) fn comparison_json(c: &Comparison, source: Source) -> Value {
    enveloped(
        "comparison",
        source,
        json!({
            "verb": c.without.verb,
            "rules": c.without.rules.id(),
            "compare": c.words,
            "without": distribution_json(&c.without),
            "with": distribution_json(&c.with),
        }),
    )
}

pub(crate) fn simulation_json(s: &Simulation, source: Source) -> Value {
    let exact = s.exact.as_ref().ok();
    enveloped(
        "simulation",
        source,
        json!({
            "verb": s.verb,
            "rules": s.rules.id(),
            "simulate": s.rolls,
            "seed": s.seed,
            "outcomes": s.observed.iter().map(|o| json!({
                "outcome": exact.map_or(Some(o.outcome.as_str()), |odds| {
                    odds.outcomes.iter().find(|x| x.text == o.text).map(|x| x.outcome.as_str())
                }),
                "text": o.text,
                "observed": o.count,
                "p_observed": o.count as f64 / s.rolls as f64,
                "p": exact.map(|odds| p_of(odds, &o.text)),
            })).collect::<Vec<_>>(),
        }),
    )
}

/// A sweep as one JSON object: the swept words and their values, then a
/// row per combination with its whole distribution.
pub(crate) fn sweep_json(sweep: &Sweep, source: Source) -> Value {
    let first = sweep.rows.first();
    let expected = sweep.expected();
    let rows: Vec<Value> = sweep
        .rows
        .iter()
        .map(|row| sweep_row_json(sweep.shown(row), row, &expected))
        .collect();
    enveloped(
        "sweep",
        source,
        json!({
            "verb": first.map(|r| r.odds.verb),
            "rules": first.map(|r| r.odds.rules.id()),
            "swept": swept_json(&sweep.swept),
            "outcomes": sweep.outcomes().iter().map(|(id, text)| json!({"outcome": id, "text": text})).collect::<Vec<_>>(),
            "expected": expected,
            "rows": rows,
        }),
    )
}

fn swept_json(swept: &[crate::answer::Swept]) -> Vec<Value> {
    swept
        .iter()
        .map(|s| {
            json!({
                "word": s.text,
                "name": s.name,
                "values": s.choices.iter().map(|c| c.shown.as_str()).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// One row of a sweep: its values, its heading and distribution, and
/// each of `expected` it has (one that never varied in this row is its
/// one value: 0 bases lost).
fn sweep_row_json(values: Vec<&str>, row: &crate::answer::sweep::Row, expected: &[&str]) -> Value {
    let mut obj = Map::new();
    obj.insert("values".into(), json!(values));
    obj.insert("heading".into(), json!(row.odds.heading));
    if let Value::Object(d) = distribution_json(&row.odds) {
        for (k, v) in d {
            if k != "verb" && k != "rules" {
                obj.insert(k, v);
            }
        }
    }
    for name in expected {
        if !obj.contains_key(*name)
            && let Some(v) = crate::answer::expected_of(&row.odds, name)
        {
            obj.insert(name.to_string(), json!(v));
        }
    }
    Value::Object(obj)
}

/// A sweep too large for the table of a column per outcome, as the same
/// object written a row at a time: `rows` as they are counted, then
/// `outcomes` and `expected` (of every row), which only the last row
/// completes. Each row has the expected values of the names seen by then.
#[derive(Default)]
struct LongJson {
    rows: usize,
    outcomes: crate::answer::sweep::Outcomes<String>,
    expected: Vec<String>,
}

impl crate::format::stream::Long for LongJson {
    fn begin(
        &mut self,
        swept: &[crate::answer::Swept],
        first: &crate::answer::sweep::Row,
        source: Source,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let mut obj = envelope("sweep", source);
        obj.insert("verb".into(), json!(first.odds.verb));
        obj.insert("rules".into(), json!(first.odds.rules.id()));
        obj.insert("swept".into(), Value::Array(swept_json(swept)));
        let text = Value::Object(obj).to_string();
        let open = text.strip_suffix('}').unwrap_or(&text);
        write!(out, "{},\"rows\":[", crate::text::json_visible(open))
    }

    fn row(
        &mut self,
        swept: &[crate::answer::Swept],
        row: &crate::answer::sweep::Row,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        self.outcomes.add(&row.odds, str::to_string);
        for (name, _) in &row.odds.expected {
            if !self.expected.contains(name) {
                self.expected.push(name.clone());
            }
        }
        let values: Vec<&str> = swept
            .iter()
            .zip(&row.picks)
            .map(|(s, &i)| s.choices.get(i).map_or("", |c| c.shown.as_str()))
            .collect();
        let expected: Vec<&str> = self.expected.iter().map(String::as_str).collect();
        let text = sweep_row_json(values, row, &expected).to_string();
        if self.rows > 0 {
            out.write_all(b",")?;
        }
        self.rows += 1;
        out.write_all(crate::text::json_visible(&text).as_bytes())
    }

    fn end(&mut self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let outcomes: Vec<Value> = std::mem::take(&mut self.outcomes)
            .in_order()
            .into_iter()
            .map(|(id, text)| json!({"outcome": id, "text": text}))
            .collect();
        let outcomes = Value::Array(outcomes).to_string();
        let expected = json!(self.expected).to_string();
        writeln!(
            out,
            "],\"outcomes\":{},\"expected\":{}}}",
            crate::text::json_visible(&outcomes),
            crate::text::json_visible(&expected)
        )
    }
}

/// Every JSON object begins with its type, the format version and the
/// line it answers; the rest follows in the order documented.
fn envelope(kind: &str, source: Source) -> Map<String, Value> {
    let mut obj = Map::new();
    obj.insert("type".into(), json!(kind));
    obj.insert("version".into(), json!(FORMAT_VERSION));
    obj.insert("line".into(), json!(source.line));
    obj.insert("input".into(), json!(source.input));
    obj
}

/// `fields` after the envelope, in their own order.
fn enveloped(kind: &str, source: Source, fields: Value) -> Value {
    let mut obj = envelope(kind, source);
    if let Value::Object(fields) = fields {
        for (k, v) in fields {
            if k != "type" {
                obj.insert(k, v);
            }
        }
    }
    Value::Object(obj)
}

/// A report as a JSON object.
pub(crate) fn report_json(report: &Report, source: Source) -> Value {
    let fields = serde_json::to_value(report).unwrap_or(Value::Null);
    enveloped(report.kind(), source, fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time search finds what a byte-by-byte look in the
    /// table finds: every byte value, at every place in strings of every
    /// length up to three words and a half, among clean bytes.
    #[test]
    fn first_suspect_agrees_with_the_table() {
        let mut found = 0;
        for len in 1..=28 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    let looked = bytes.iter().position(|&x| SUSPECT[usize::from(x)]);
                    assert_eq!(first_suspect(&bytes), looked, "{b:#x} at {at} of {len}");
                    found += usize::from(looked.is_some());
                }
            }
        }
        assert!(found > 0);
        // Two suspects: the first is found; and clean text of every byte
        // a line holds most (`+=` and digits) is clean.
        assert_eq!(first_suspect(b"abcdefgh\"ijkl\"mn"), Some(8));
        assert_eq!(
            first_suspect(b"resilience shooting line +determined=2 rolled 4 3"),
            None
        );
        assert_eq!(first_suspect(b""), None);
    }
}
