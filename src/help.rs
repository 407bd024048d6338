//! `help` and `help VERB`, generated from the catalog, which is generated
//! from the tables: a house rule shows up here as soon as it is loaded.

use std::sync::OnceLock;

use crate::bind::Kind;
use crate::catalog::{Catalog, VerbDoc};
use crate::command::{Command, System, WordKind};
use crate::error::{BindError, CommandError, ErrorKind};
use crate::meta::MetaVerb;
use crate::system::Registry;

/// `help`, knowing the rule systems: `help armies` then lists the active
/// book's sections and keys too (without, it lists those every list has
/// and points to the template and the manual page, which have them all).
pub(crate) fn run_with(
    catalog: &Catalog,
    registry: Option<&Registry>,
    system: System,
    command: &Command,
) -> Result<String, CommandError> {
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
            if ARMIES.contains(&name) {
                return Ok(armies(catalog, registry, system));
            }
            if let Some((usage, text)) = crate::catalog::session_doc(name) {
                return Ok(format!("{usage}\n\n{text}"));
            }
            if let Some(text) = TASK_HELP.get().and_then(|help| help(name)) {
                return Ok(text);
            }
            Err(catalog.unknown_verb(system, name, word.span).into())
        }
        [_, extra, ..] => Err(BindError::NotHere {
            kind: ErrorKind::ExtraWord,
            span: extra.span,
            text: extra.text.to_string(),
            why: "is one word too many: `help` or `help VERB`".into(),
        }
        .into()),
    }
}

/// The help of the program's own tasks (`serve`, `replay`, …), as
/// `drumhead TASK --help` gives it: the front end knows them (they are
/// its command line's), and says so once at start.
static TASK_HELP: OnceLock<fn(&str) -> Option<String>> = OnceLock::new();

/// Let `help TASK` answer for the program's tasks with `help`, which
/// gives a task's help by its name (`None` for a name that is no task).
pub(crate) fn know_tasks(help: fn(&str) -> Option<String>) {
    let _ = TASK_HELP.set(help);
}

pub(crate) fn overview(catalog: &Catalog, system: System) -> String {
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
    let width = MetaVerb::ALL
        .iter()
        .map(|v| v.name().len())
        .max()
        .unwrap_or(0);
    out.push_str("\nevery rule system, the game and the REPL:\n");
    for verb in MetaVerb::ALL {
        let (name, text) = (verb.name(), verb.about());
        let first = text.split(';').next().unwrap_or(text);
        out.push_str(&format!("  {name:width$}  {first}\n"));
    }
    let books: Vec<&str> = catalog.books.iter().map(|b| b.id()).collect();
    out.push_str(&format!(
        "\nEvery line: [{}] VERB words… [at|vs words…] [rolled FACES… [roll-rest]] [# comment]\n\
         `help VERB` lists a verb's words. `rolled 4 3` enters the dice you threw, in the order\n\
         the procedure throws them (a die for a step the result does not reach is said to be unused);\n\
         `rolled 4 roll-rest` rolls the dice after the entered ones.\n\
         Army lists: `help armies` lists their keys; `drumhead new-army {}` writes one to start from.\n\
         The program's tasks (serve, replay, repair, check, sheet, roster…): `help TASK`, as `drumhead TASK --help`.",
        books.join("|"),
        system.id()
    ));
    out
}

/// The words `help` takes for the army-list format.
const ARMIES: &[&str] = &["armies", "army"];

/// `help armies`: the keys of the active book's army lists, from its
/// schema and doc (as drumhead-armies(5) and `new-army` are).
pub fn armies(catalog: &Catalog, registry: Option<&Registry>, system: System) -> String {
    use crate::army::doc;
    let mut out = format!(
        "army lists for {} ({}): a TOML file, loaded with --army FILE\n",
        system.id(),
        system.title()
    );
    let block = |out: &mut String, head: String, about: &str, keys: &[doc::KeyDoc]| {
        out.push_str(&format!("\n{head}\n"));
        if !about.is_empty() {
            out.push_str(&doc::wrap(about, 78, "  ", "  "));
        }
        let keys: Vec<&doc::KeyDoc> = keys
            .iter()
            .filter(|k| !matches!(k.need, doc::Need::Refused(_)))
            .collect();
        let width = keys.iter().map(|k| k.key.len()).max().unwrap_or(0);
        for k in keys {
            out.push_str(&format!("  {:width$}  {}\n", k.key, k.summary()));
        }
    };
    let army_keys = doc::army_keys(&catalog.books);
    block(&mut out, "[army]".into(), "", &army_keys);
    match registry.and_then(|r| r.system_of(system)) {
        Some(rule_system) => {
            for (section, sdoc) in doc::sections(rule_system.army(), system) {
                block(
                    &mut out,
                    format!("[[{}]]", section.name),
                    sdoc.about,
                    &sdoc.keys,
                );
            }
        }
        None => block(
            &mut out,
            "[[SECTION]]".into(),
            "Then the entries, each with these keys and those of its section:",
            &doc::common_keys(),
        ),
    }
    out.push_str(&format!(
        "\n`drumhead new-army {id}` writes a list to start from, every key explained; \
         `drumhead check FILE` checks one.\n\
         Every key and what each of its values means: `man drumhead-armies`.",
        id = system.id()
    ));
    out
}

pub(crate) fn verb_help(doc: &VerbDoc) -> String {
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
    let aliases: Vec<&(String, Vec<String>)> = std::iter::once(&doc.vocab)
        .chain(doc.clauses.iter().map(|(_, v)| v))
        .flat_map(|v| &v.aliases)
        .collect();
    if !aliases.is_empty() {
        // Not words of the verb: what a player may type instead of one,
        // answered with the word to type.
        out.push_str("\nother names (not taken: an error names the word to type):\n");
        let width = aliases.iter().map(|(a, _)| a.len()).max().unwrap_or(0);
        let mut seen = Vec::new();
        for (alias, words) in aliases {
            if !seen.contains(&alias) {
                seen.push(alias);
                out.push_str(&format!("  {alias:width$}  {}\n", words.join(", ")));
            }
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
pub(crate) fn shown(name: &str, kind: &Kind) -> String {
    match kind {
        Kind::Counted => format!("{name}[=N]"),
        Kind::Number { .. } => format!("{name}=N"),
        Kind::Flag | Kind::Choice(_) => name.to_string(),
    }
}
