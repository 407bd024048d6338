//! `help` and `help VERB`, generated from the catalog, which is generated
//! from the tables: a house rule shows up here as soon as it is loaded.

use crate::bind::Kind;
use crate::catalog::{Catalog, VerbDoc};
use crate::command::{Command, System, WordKind};
use crate::error::{BindError, CommandError};

pub fn run(catalog: &Catalog, system: System, command: &Command) -> Result<String, CommandError> {
    match command.words.as_slice() {
        [] => Ok(overview(catalog, system)),
        [word] => {
            let name = match &word.kind {
                WordKind::Keyword { name, .. } => name.as_str(),
                _ => word.text.as_str(),
            };
            if let Some(doc) = catalog.find(system, name) {
                return Ok(verb_help(doc));
            }
            if let Some((usage, text)) = crate::catalog::session_doc(name) {
                return Ok(format!("{usage}\n\n{text}"));
            }
            Err(catalog.unknown_verb(system, name, word.span).into())
        }
        [_, extra, ..] => Err(BindError::NotHere {
            span: extra.span,
            text: extra.text.clone(),
            why: "is one word too many: `help` or `help VERB`".into(),
        }
        .into()),
    }
}

pub fn overview(catalog: &Catalog, system: System) -> String {
    let mut out = format!(
        "drumhead — {} ({})\n\nverbs:\n",
        system.title(),
        system.id()
    );
    let width = catalog
        .for_system(system)
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    for doc in catalog.for_system(system) {
        out.push_str(&format!("  {:width$}  {}\n", doc.name, doc.summary));
    }
    let width = crate::catalog::SESSION_DOCS
        .iter()
        .map(|(n, _, _)| n.len())
        .max()
        .unwrap_or(0);
    out.push_str("\nevery rule system, the game and the REPL:\n");
    for (name, _, text) in crate::catalog::SESSION_DOCS {
        let first = text.split(';').next().unwrap_or(text);
        out.push_str(&format!("  {name:width$}  {first}\n"));
    }
    let books: Vec<&str> = catalog.books.iter().map(|b| b.id()).collect();
    out.push_str(&format!(
        "\nEvery line: [{}] VERB words… [at|vs words…] [rolled FACES…] [# comment]\n\
         `help VERB` lists a verb's words. `rolled 4 3` enters the dice you threw.",
        books.join("|")
    ));
    out
}

pub fn verb_help(doc: &VerbDoc) -> String {
    let mut out = format!("usage: {}\n\n{}\n", doc.usage, doc.summary);
    let mut sections = vec![(String::from("words"), &doc.vocab)];
    for (kind, vocab) in &doc.clauses {
        sections.push((format!("words after `{}`", kind.word()), vocab));
    }
    for (title, vocab) in sections {
        if vocab.entries.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title}:\n"));
        let width = vocab
            .entries
            .iter()
            .map(|e| shown(&e.name, &e.kind).len())
            .max()
            .unwrap_or(0);
        for entry in &vocab.entries {
            out.push_str(&format!(
                "  {:width$}  {}\n",
                shown(&entry.name, &entry.kind),
                entry.help
            ));
        }
    }
    if !doc.examples.is_empty() {
        out.push_str("\nexamples:\n");
        for ex in doc.examples {
            out.push_str(&format!("  {ex}\n"));
        }
    }
    out.trim_end().to_string()
}

/// How a word is typed: `general[=N]`, `bases=N`.
pub fn shown(name: &str, kind: &Kind) -> String {
    match kind {
        Kind::Counted => format!("{name}[=N]"),
        Kind::Number { .. } => format!("{name}=N"),
        Kind::Flag | Kind::Choice(_) => name.to_string(),
    }
}
