//! What a list's author is told about the format: each rule system
//! describes its sections and keys ([`ArmyDoc`]) beside its reader, using
//! the reader's own word lists, and the manual page drumhead-armies(5),
//! `help armies` and `drumhead new-army` are all written from that.

use super::{MAX_ENTRIES, MAX_ID_LEN, Schema, Section};
use crate::command::System;
use crate::limits::{MAX_LIST_BYTES, MAX_NAME_LEN};

/// A rule book's army lists, as their author needs to know them.
#[derive(Debug, Clone)]
pub struct ArmyDoc {
    /// What the lists hold and at what scale, in a sentence or two.
    pub(crate) about: &'static str,
    pub sections: Vec<SectionDoc>,
}

/// One kind of entry (`[[unit]]`).
#[derive(Debug, Clone)]
pub struct SectionDoc {
    pub name: &'static str,
    /// What one entry stands for.
    pub about: &'static str,
    /// Its keys but `id` and `name`, which every entry has ([`common_keys`]).
    pub keys: Vec<KeyDoc>,
    /// Entries for the example list and the template, each as
    /// (key, value as TOML) in the order they are written. The first is
    /// the one the template explains key by key.
    pub examples: Vec<Vec<(&'static str, String)>>,
}

/// One key of an entry.
#[derive(Debug, Clone)]
pub struct KeyDoc {
    pub key: &'static str,
    pub ty: KeyType,
    pub need: Need,
    /// What it means, and what the reader demands of it beyond its type.
    pub about: String,
    /// A value to show (as TOML) where no example entry has one.
    pub(crate) sample: &'static str,
}

/// What a key's value is.
#[derive(Debug, Clone)]
pub enum KeyType {
    /// An entry's id: lowercase letters, digits and `-`.
    Id,
    /// Plain text such as a name.
    Text,
    Bool,
    /// A whole number in `min..=max`, or (when `or` is given) that word.
    Int {
        min: i64,
        max: i64,
        or: Option<Choice>,
    },
    /// One of these words.
    Word(Vec<Choice>),
    /// A list of distinct words among these.
    Words(Vec<Choice>),
    /// The id of an entry of this section of the same list.
    Ref(&'static str),
    /// A name made like an id, shared by entries (a group).
    Label,
    /// A short code: letters, digits and `-`, at most this many.
    Code(usize),
    /// A table, in the shape given (as TOML).
    Table(&'static str),
}

/// A word a key takes, and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub word: &'static str,
    pub meaning: String,
}

/// Whether an entry must have the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    Required,
    /// May be left out; leaving it out means nothing is set (no weapon,
    /// false, no tokens…), as the text says.
    Optional,
    /// May be left out, and then means this.
    Default(&'static str),
    /// This key or the other one, exactly one of them.
    Either(&'static str),
    /// Required or not as the text says (it depends on other keys).
    Depends(&'static str),
    /// Still recognised, but refused with a message saying what to write.
    Refused(&'static str),
}

/// The words of a reader's list, each with its meaning. A word missing
/// from `meanings` gets an empty one, which the tests catch.
pub(crate) fn choices(words: &[&'static str], meanings: &[(&str, &str)]) -> Vec<Choice> {
    words
        .iter()
        .map(|w| Choice {
            word: w,
            meaning: meanings
                .iter()
                .find(|(m, _)| m == w)
                .map_or_else(String::new, |(_, text)| text.to_string()),
        })
        .collect()
}

/// The keys of `[army]`, which every list has; `rules` takes these books.
pub fn army_keys(books: &[System]) -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "name",
            ty: KeyType::Text,
            need: Need::Required,
            about: format!(
                "The army's name, shown by check and units. Plain text, at most {MAX_NAME_LEN} characters."
            ),
            sample: "\"The army of the Rhine\"",
        },
        KeyDoc {
            key: "rules",
            ty: KeyType::Word(
                books
                    .iter()
                    .map(|b| Choice {
                        word: b.id(),
                        meaning: b.title().to_string(),
                    })
                    .collect(),
            ),
            need: Need::Required,
            about: "The rule book the list is written for: it says which sections and keys \
                    the rest of the file may have. All the lists of one game share a rule system."
                .to_string(),
            sample: "\"drums\"",
        },
        KeyDoc {
            key: "side",
            ty: KeyType::Text,
            need: Need::Required,
            about: format!(
                "The side the army fights for, shown by units. Plain text, at most {MAX_NAME_LEN} characters."
            ),
            sample: "\"France\"",
        },
    ]
}

/// `id` and `name`, which every entry of every section has.
pub(crate) fn common_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "id",
            ty: KeyType::Id,
            need: Need::Required,
            about: format!(
                "What commands call the entry by: lowercase letters, digits and -, starting with \
                 a letter, at most {MAX_ID_LEN} characters. Unique across the lists loaded \
                 together (give each army its own prefix), and not a word of the command \
                 language (an id such as \"line\" could never be named)."
            ),
            sample: "\"gren-1\"",
        },
        KeyDoc {
            key: "name",
            ty: KeyType::Text,
            need: Need::Required,
            about: format!(
                "The entry's name as units and show print it: plain text, at most \
                 {MAX_NAME_LEN} characters."
            ),
            sample: "\"1st Grenadiers\"",
        },
    ]
}

/// `gone`: an entry a campaign holds out for good (`what` says when, in
/// its rule system's words), for the sections whose system takes it.
pub(crate) fn gone_key(what: &str) -> KeyDoc {
    KeyDoc {
        key: "gone",
        ty: KeyType::Text,
        need: Need::Optional,
        about: format!(
            "Campaigns: the entry is gone for good ({what}), and why, in words; drumhead \
             campaign export writes it. It is read and checked, and kept in the list for the \
             campaign's record, but it is not in the battle: units names it under the roster, \
             and a command cannot name it."
        ),
        sample: "\"dead after raid-1\"",
    }
}

/// `absent = N`: an entry a campaign keeps out of the next battles.
pub(crate) fn absent_key(what: &str) -> KeyDoc {
    KeyDoc {
        key: "absent",
        ty: KeyType::Int {
            min: 1,
            max: super::MAX_ABSENT,
            or: None,
        },
        need: Need::Optional,
        about: format!(
            "Campaigns: the battles the entry still sits out ({what}), this one included; \
             each close of a battle counts one off, and at 0 drumhead campaign export takes \
             the key out. An absent entry is not in the battle. Not with gone."
        ),
        sample: "1",
    }
}

/// What the reader checks of every list, whatever its rule system.
pub(crate) fn general_rules() -> Vec<String> {
    vec![
        "Every problem is reported with its file, line and column and the key at fault, \
         such as unit[2].bases (entries count from 1 per section, in file order); a list \
         either loads whole or not at all."
            .to_string(),
        "A key the entry does not take is an error (with the nearest key it does take, or \
         the rule system whose key it is); nothing is silently ignored."
            .to_string(),
        format!(
            "A list is at most {MAX_LIST_BYTES} bytes and {MAX_ENTRIES} entries of all \
             sections together."
        ),
    ]
}

/// The doc of a book's sections, in the schema's order, each with its
/// keys in the order the schema accepts them. A key the system does not
/// document is listed with an empty text (the tests catch it).
pub fn sections(schema: &dyn Schema, book: System) -> Vec<(Section, SectionDoc)> {
    let doc = schema.doc(book);
    let common = common_keys();
    schema
        .sections(book)
        .iter()
        .map(|section| {
            let own = doc
                .as_ref()
                .and_then(|d| d.sections.iter().find(|s| s.name == section.name));
            let keys = section
                .keys
                .iter()
                .map(|key| {
                    own.and_then(|s| s.keys.iter().find(|k| k.key == *key))
                        .or_else(|| common.iter().find(|k| k.key == *key))
                        .cloned()
                        .unwrap_or_else(|| KeyDoc {
                            key,
                            ty: KeyType::Text,
                            need: Need::Optional,
                            about: String::new(),
                            sample: "\"\"",
                        })
                })
                .collect();
            let doc = SectionDoc {
                name: section.name,
                about: own.map_or("", |s| s.about),
                keys,
                examples: own.map(|s| s.examples.clone()).unwrap_or_default(),
            };
            (*section, doc)
        })
        .collect()
}

impl KeyType {
    /// How the value is written: `N`, `"WORD"`, `["WORD", …]`.
    pub(crate) fn shape(&self) -> String {
        match self {
            KeyType::Id | KeyType::Ref(_) => "\"ID\"".into(),
            KeyType::Text => "\"TEXT\"".into(),
            KeyType::Bool => "true|false".into(),
            KeyType::Int { or: None, .. } => "N".into(),
            KeyType::Int { or: Some(c), .. } => format!("N|\"{}\"", c.word),
            KeyType::Word(_) => "\"WORD\"".into(),
            KeyType::Words(_) => "[\"WORD\", …]".into(),
            KeyType::Label => "\"NAME\"".into(),
            KeyType::Code(_) => "\"CODE\"".into(),
            KeyType::Table(shape) => (*shape).into(),
        }
    }

    /// The type in words: "a whole number from 1 to 100".
    pub fn describe(&self) -> String {
        match self {
            KeyType::Id => "an id".into(),
            KeyType::Text => "text".into(),
            KeyType::Bool => "true or false".into(),
            KeyType::Int { min, max, or } => {
                let mut s = format!("a whole number from {min} to {max}");
                if let Some(c) = or {
                    s.push_str(&format!(", or \"{}\"", c.word));
                }
                s
            }
            KeyType::Word(c) => format!("one of {}", words(c)),
            KeyType::Words(c) => format!("a list of distinct words among {}", words(c)),
            KeyType::Ref(section) => format!("the id of a [[{section}]] of this list"),
            KeyType::Label => {
                "a name of lowercase letters, digits and -, starting with a letter".into()
            }
            KeyType::Code(max) => format!("letters, digits and -, at most {max}"),
            KeyType::Table(shape) => format!("a table: {shape}"),
        }
    }

    /// The words it takes, if it takes words.
    pub fn choices(&self) -> &[Choice] {
        match self {
            KeyType::Word(c) | KeyType::Words(c) => c,
            KeyType::Int { or: Some(c), .. } => std::slice::from_ref(c),
            _ => &[],
        }
    }
}

fn words(choices: &[Choice]) -> String {
    let words: Vec<&str> = choices.iter().map(|c| c.word).collect();
    super::one_of(&words)
}

impl Need {
    /// "required", "optional (default ordinary)"…
    pub fn describe(&self) -> String {
        match self {
            Need::Required => "required".into(),
            Need::Optional => "optional".into(),
            Need::Default(d) => format!("optional, default {d}"),
            Need::Either(other) => format!("required unless {other} is given; not both"),
            Need::Depends(text) => (*text).into(),
            Need::Refused(_) => "no longer accepted".into(),
        }
    }
}

impl KeyDoc {
    /// One line for `help armies`: "required; one of foot, cavalry…".
    pub fn summary(&self) -> String {
        match &self.need {
            Need::Refused(instead) => format!("no longer accepted: {instead}"),
            need => format!("{}; {}", need.describe(), self.ty.describe()),
        }
    }
}

// ---------------------------------------------------------------------
// The template.

/// A list to start from for `book`: every section with its example
/// entries; with `explain`, each key of a section's first entry under a
/// comment saying what it takes, and the keys it leaves out commented
/// out, so that the file shows every key.
pub fn template(schema: &dyn Schema, book: System, explain: bool) -> String {
    let mut out = String::new();
    let doc = schema.doc(book);
    if explain {
        let mut head = format!(
            "A {} army list (rules = \"{}\"), made by `drumhead new-army {}`. ",
            book.title(),
            book.id(),
            book.id()
        );
        if let Some(doc) = &doc {
            head.push_str(doc.about);
            head.push(' ');
        }
        head.push_str(
            "Edit it, check it with `drumhead check FILE` and load it with \
             `drumhead --army FILE`. Every key, its values and what they mean: \
             `man drumhead-armies` (or `help armies` at the prompt).",
        );
        comment(&mut out, &head);
        out.push('\n');
    }
    out.push_str("[army]\n");
    for key in army_keys(&[book]) {
        let value = match key.key {
            "name" => "\"Your army's name\"".to_string(),
            "rules" => format!("\"{}\"", book.id()),
            _ => "\"Your side\"".to_string(),
        };
        if explain {
            if key.key == "rules" {
                // The sections below are this book's: another book's list
                // is another template.
                comment(
                    &mut out,
                    &format!(
                        "rules (required): the rule book, here {} ({}); the entries below \
                         are its. For another book, start from its own template.",
                        book.id(),
                        book.title()
                    ),
                );
            } else {
                explain_key(&mut out, &key);
            }
        }
        out.push_str(&format!("{} = {value}\n", key.key));
    }
    for (_, section) in sections(schema, book) {
        if section.examples.is_empty() {
            continue;
        }
        out.push('\n');
        if explain && !section.about.is_empty() {
            comment(
                &mut out,
                &format!("[[{}]]: {}", section.name, section.about),
            );
        }
        for (i, entry) in section.examples.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("[[{}]]\n", section.name));
            if explain && i == 0 {
                for key in &section.keys {
                    if matches!(key.need, Need::Refused(_)) {
                        continue;
                    }
                    explain_key(&mut out, key);
                    match entry.iter().find(|(k, _)| *k == key.key) {
                        Some((k, v)) => out.push_str(&format!("{k} = {v}\n")),
                        None => out.push_str(&format!("# {} = {}\n", key.key, key.sample)),
                    }
                }
            } else {
                for (k, v) in entry {
                    out.push_str(&format!("{k} = {v}\n"));
                }
            }
        }
    }
    out
}

/// The comment above a key in the template: what it takes, whether it is
/// required, then the words it takes.
fn explain_key(out: &mut String, key: &KeyDoc) {
    let mut text = format!(
        "{} ({}): {}.",
        key.key,
        key.need.describe(),
        key.ty.describe()
    );
    if !key.about.is_empty() {
        text.push(' ');
        text.push_str(&key.about);
    }
    comment(out, &text);
    let choices = key.ty.choices();
    if choices.len() > 1 {
        let width = choices.iter().map(|c| c.word.len()).max().unwrap_or(0);
        for c in choices {
            comment_hanging(out, &format!("  {:width$}  ", c.word), &c.meaning);
        }
    }
}

const WIDTH: usize = 78;

/// `text` as `# ` lines of at most [`WIDTH`] columns.
fn comment(out: &mut String, text: &str) {
    comment_hanging(out, "", text);
}

/// `# lead text…`, wrapped with the continuation indented under the text.
fn comment_hanging(out: &mut String, lead: &str, text: &str) {
    let first = format!("# {lead}");
    let rest = format!("# {}", " ".repeat(lead.chars().count()));
    out.push_str(&wrap(text, WIDTH, &first, &rest));
}

/// `text` filled into lines of at most `width` columns (a longer word
/// has a line of its own), the first starting with `first`, the others
/// with `rest`; each line ends with a newline.
pub(crate) fn wrap(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if !empty && len + 1 + word.chars().count() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_wrap_at_the_width_and_indent_their_continuation() {
        let mut out = String::new();
        let text = "word ".repeat(40);
        comment_hanging(&mut out, "  open  ", &text);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 2, "{out}");
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{out}");
        assert!(lines[0].starts_with("#   open  word"), "{out}");
        assert!(lines[1].starts_with("#         word"), "{out}");
    }
}
