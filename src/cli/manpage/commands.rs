//! drumhead-commands(7): the command language, from the catalog (which is
//! built from the tables).

use roff::{Roff, bold, italic, roman};

use super::roff_text::{example_block, para, render, source, tagged};
use crate::bind::Vocab;
use crate::catalog::{Catalog, VerbDoc};
use crate::command::Unit;

/// drumhead-commands(7): the command language, from the catalog.
pub fn commands_7(catalog: &Catalog) -> String {
    let mut roff = Roff::new();
    roff.control(
        "TH",
        [
            "DRUMHEAD-COMMANDS",
            "7",
            "",
            source().as_str(),
            "drumhead manual",
        ],
    );
    roff.control("SH", ["NAME"]);
    roff.text([roman(
        "drumhead-commands - the command language of drumhead, verb by verb",
    )]);
    roff.control("SH", ["SYNOPSIS"]);
    roff.text([
        roman("["),
        italic("RULES"),
        roman("] [odds] "),
        italic("VERB"),
        roman(" word… [at|vs word…] [rolled "),
        italic("FACE"),
        roman("… [roll-rest]] [# comment]"),
    ]);
    roff.control("SH", ["DESCRIPTION"]);
    para(
        &mut roff,
        "Each line is one command, resolved under the active rule system (--rules, or the armies') \
         unless it starts with a rule system's id. Words are keywords (determined, +determined; \
         _ and - alike, any case), counted keywords (+general=2 or general general), values (bases=4), \
         distances (2BW, 2.5bw, 12\", 12in) and numbers. Words after at describe the target, after vs the opponent. \
         rolled FACE… at the end enters the dice you threw, in the order the procedure throws them: \
         each step takes the next die when it needs one, and a die the result does not call for is never \
         asked for (Musket & Saber throws the morale die only when a result calls for a check). \
         Too few for a step the result reaches are refused, saying how many the line throws and what the \
         first missing die is for (the REPL asks for them), unless roll-rest follows the faces \
         (rolled 4 roll-rest rolls the rest). A die entered for a step the result does not reach (a table \
         often throws the combat and the morale die together) is taken and said to be unused (JSON \
         unused_dice); more dice than any outcome of the line throws are refused, and so is a face the \
         die does not have. A throw repeated until it differs (a tie broken, a die thrown again) counts \
         once toward that most. \
         An unknown word is an error that points at the word and suggests the nearest one the verb knows.",
    );
    para(
        &mut roff,
        "Below, every rule system with its verbs: the usage, what the verb does, and every word it knows \
         with the table row and values it stands for. word[=N] is counted, word=N takes a number. \
         The pages are generated from the tables the program embeds, so the numbers are those of the rules.",
    );

    roff.control("SH", ["EVERY RULE SYSTEM"]);
    para(
        &mut roff,
        "These verbs work under every rule system. The session itself carries out:",
    );
    for verb in crate::meta::MetaVerb::ALL {
        roff.control("TP", []);
        roff.text([bold(verb.usage())]);
        roff.text([roman(verb.about())]);
    }
    for doc in catalog.verbs().filter(|v| v.system.is_none()) {
        verb(&mut roff, doc);
    }

    for system in catalog.books.clone() {
        book_section(&mut roff, catalog, system);
    }

    roff.control("SH", ["SEE ALSO"]);
    roff.text([
        bold("drumhead"),
        roman("(1), "),
        bold("drumhead-armies"),
        roman("(5)"),
    ]);
    render(&roff)
}

fn verb(roff: &mut Roff, doc: &VerbDoc) {
    roff.control("SS", [doc.name]);
    roff.text([bold(doc.usage)]);
    roff.control("PP", []);
    roff.text([roman(doc.summary.as_str())]);
    words(roff, "Words:", &doc.vocab);
    for (kind, vocab) in &doc.clauses {
        words(roff, &format!("Words after {}:", kind.word()), vocab);
    }
    if !doc.examples.is_empty() {
        roff.control("PP", []);
        roff.text([roman("Examples:")]);
        example_block(roff, doc.examples.iter().copied());
    }
}

fn words(roff: &mut Roff, title: &str, vocab: &Vocab) {
    let mut extra = Vec::new();
    if let Some(meaning) = vocab.number {
        extra.push(("N".to_string(), format!("a bare number: {meaning}")));
    }
    if let Some(unit) = vocab.distance {
        let example = match unit {
            Unit::BaseWidths => "2BW",
            Unit::Inches => "12\" or 12in",
        };
        extra.push((
            "DISTANCE".to_string(),
            format!("a distance in {}, like {example}", unit_name(unit)),
        ));
    }
    if let Some(meaning) = vocab.notation {
        extra.push(("NOTATION".to_string(), meaning.to_string()));
    }
    if vocab.raw {
        extra.push((
            "…".to_string(),
            "the verb reads its own notation (see the usage)".to_string(),
        ));
    }
    if vocab.entries.is_empty() && extra.is_empty() {
        return;
    }
    roff.control("PP", []);
    roff.text([roman(title)]);
    roff.control("RS", ["4"]);
    for entry in &vocab.entries {
        tagged(
            roff,
            &crate::help::shown(&entry.name, &entry.kind),
            &entry.help,
        );
    }
    for (tag, text) in &extra {
        tagged(roff, tag, text);
    }
    roff.control("RE", []);
}

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::BaseWidths => "base widths",
        Unit::Inches => "inches",
    }
}

/// One rule book's verbs.
fn book_section(roff: &mut Roff, catalog: &Catalog, system: crate::command::System) {
    let title = format!("{} ({})", system.title().to_uppercase(), system.id());
    roff.control("SH", [title.as_str()]);
    let verbs: Vec<&VerbDoc> = catalog
        .verbs()
        .filter(|v| v.system == Some(system))
        .collect();
    if verbs.is_empty() {
        para(
            roff,
            "No verbs of this rule system yet; only those that work under every rule system.",
        );
        return;
    }
    para(
        roff,
        &format!(
            "Under --rules {id}, or with a line that starts with {id}:",
            id = system.id()
        ),
    );
    for doc in verbs {
        verb(roff, doc);
    }
}
