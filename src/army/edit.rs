//! Keys written into the entries of a list, the rest of its text kept as
//! it was: its comments, its order and its layout. A campaign carries an
//! army from battle to battle this way ([`crate::carry::Edit`]), so that
//! the lists it exports are the club's own with a few keys changed.
//!
//! A key the entry has gets its value replaced where it stands; a new
//! key goes on a line of its own after the entry's last plain key (before
//! any sub-table of it); a key taken out takes its line with it. The
//! caller reads the list again, as any list is read, before it uses it.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

use crate::carry::Edit;

/// The edits to one entry: its section (`unit`), its id, and the keys.
pub(crate) struct EntryEdits<'a> {
    pub section: &'a str,
    pub id: &'a str,
    pub edits: &'a [Edit],
}

/// `text` with every edit made, or why one cannot be.
pub(crate) fn edit_list(text: &str, entries: &[EntryEdits<'_>]) -> Result<String, String> {
    let doc = DeTable::parse(text).map_err(|e| format!("TOML syntax: {}", e.message().trim()))?;
    let mut ops: Vec<(Range<usize>, String)> = Vec::new();
    for e in entries {
        let table = find(doc.get_ref(), e.section, e.id)?;
        ops.extend(entry_ops(text, &table, e)?);
    }
    // From the end, so that each span still points where it did.
    ops.sort_by_key(|(span, _)| std::cmp::Reverse((span.start, span.end)));
    let mut out = text.to_string();
    let mut last_start = usize::MAX;
    for (span, with) in ops {
        if span.end > last_start {
            return Err("two edits fall on one place of the list".into());
        }
        last_start = span.start;
        out.replace_range(span, &with);
    }
    Ok(out)
}

/// The entry of `section` whose id is `id`, and whether it is written
/// inline (`{ … }`).
struct Found<'t, 'i> {
    table: &'t DeTable<'i>,
    span: Range<usize>,
}

fn find<'t, 'i>(doc: &'t DeTable<'i>, section: &str, id: &str) -> Result<Found<'t, 'i>, String> {
    let missing = || format!("the list has no [[{section}]] entry \"{id}\"");
    let Some(DeValue::Array(items)) = doc.get(section).map(|v| v.get_ref()) else {
        return Err(missing());
    };
    items
        .iter()
        .find_map(|item| {
            let table = item.get_ref().as_table()?;
            let is_it = table
                .get("id")
                .and_then(|v| v.get_ref().as_str())
                .is_some_and(|v| v == id);
            is_it.then(|| Found {
                table,
                span: item.span(),
            })
        })
        .ok_or_else(missing)
}

/// The end of the line `at` is on, past its newline (or the end of the text).
fn line_end(text: &str, at: usize) -> usize {
    text[at.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| at + i + 1)
}

/// The start of the line `at` is on.
fn line_start(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1)
}

fn entry_ops(
    text: &str,
    found: &Found<'_, '_>,
    e: &EntryEdits<'_>,
) -> Result<Vec<(Range<usize>, String)>, String> {
    let inline = text
        .get(found.span.clone())
        .is_some_and(|t| t.trim_start().starts_with('{'));
    let place = |key: &str| format!("{}[\"{}\"].{key}", e.section, e.id);
    let mut ops = Vec::new();
    let mut added: Vec<String> = Vec::new();
    for edit in e.edits {
        let existing = found.table.get_key_value(edit.key);
        match (existing, &edit.value) {
            (Some((_, v)), Some(value)) => {
                if matches!(v.get_ref(), DeValue::Table(_)) {
                    return Err(format!("{} is a table, not a value", place(edit.key)));
                }
                ops.push((v.span(), value.toml()));
            }
            (Some((k, v)), None) => {
                if inline {
                    return Err(format!(
                        "{}: a key of an inline entry is not taken out",
                        place(edit.key)
                    ));
                }
                let (start, end) = (
                    line_start(text, k.span().start),
                    line_end(text, v.span().end),
                );
                let before = &text[start..k.span().start];
                let after = text[v.span().end..end].trim();
                if !before.trim().is_empty() || !(after.is_empty() || after.starts_with('#')) {
                    return Err(format!(
                        "{}: the key shares its line with another; it is not taken out",
                        place(edit.key)
                    ));
                }
                ops.push((start..end, String::new()));
            }
            (None, Some(value)) => added.push(format!("{} = {}", edit.key, value.toml())),
            (None, None) => {}
        }
    }
    if added.is_empty() {
        return Ok(ops);
    }
    if inline {
        let end = found.span.end;
        let close = text[..end]
            .rfind('}')
            .filter(|at| *at >= found.span.start)
            .ok_or_else(|| format!("{}: an inline entry without its `}}`", place("")))?;
        ops.push((close..close, format!(", {} ", added.join(", "))));
        return Ok(ops);
    }
    // After the last plain key: a sub-table of the entry (`[unit.x]`)
    // comes after every plain key, and a key after it would be its.
    let last = found
        .table
        .iter()
        .filter(|(_, v)| !matches!(v.get_ref(), DeValue::Table(_)))
        .map(|(_, v)| v.span().end)
        .max()
        .ok_or_else(|| format!("{}: an entry without a key", place("")))?;
    let at = line_end(text, last);
    let mut lines = String::new();
    if at == text.len() && !text.ends_with('\n') {
        lines.push('\n');
    }
    for line in added {
        lines.push_str(&line);
        lines.push('\n');
    }
    ops.push((at..at, lines));
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carry::EditValue;

    const LIST: &str = "# a list\n[army]\nname = \"A\"\n\n[[unit]]\nid = \"a-1\"\nname = \"First\" # the first\nbases = 6\n\n[[unit]]\nid = \"a-2\"\nname = \"Second\"\nbases = 4\nlost = 1\n";

    fn one(section: &str, id: &str, edits: &[Edit]) -> Result<String, String> {
        edit_list(LIST, &[EntryEdits { section, id, edits }])
    }

    #[test]
    fn a_new_key_goes_after_the_entry_and_the_rest_is_kept() {
        let out = one("unit", "a-1", &[Edit::set("lost", EditValue::Int(2))]).unwrap();
        assert_eq!(out, LIST.replace("bases = 6\n", "bases = 6\nlost = 2\n"));
    }

    #[test]
    fn a_key_there_is_replaced_and_one_taken_out_takes_its_line() {
        let out = one("unit", "a-2", &[Edit::set("lost", EditValue::Int(3))]).unwrap();
        assert!(out.ends_with("bases = 4\nlost = 3\n"), "{out}");
        let out = one("unit", "a-2", &[Edit::remove("lost")]).unwrap();
        assert!(out.ends_with("bases = 4\n"), "{out}");
        assert!(out.starts_with("# a list\n"));
    }

    #[test]
    fn an_inline_entry_takes_a_key_before_its_brace() {
        let text = "unit = [{ id = \"b\", name = \"B\" }]\n";
        let out = edit_list(
            text,
            &[EntryEdits {
                section: "unit",
                id: "b",
                edits: &[Edit::set("gone", EditValue::Text("lost".into()))],
            }],
        )
        .unwrap();
        assert_eq!(
            out,
            "unit = [{ id = \"b\", name = \"B\" , gone = \"lost\" }]\n"
        );
    }

    #[test]
    fn an_entry_that_is_not_there_is_said() {
        let e = one("unit", "a-9", &[Edit::remove("lost")]).unwrap_err();
        assert!(e.contains("no [[unit]] entry \"a-9\""), "{e}");
    }
}
