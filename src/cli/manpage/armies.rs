//! drumhead-armies(5): the army-list format, from each rule system's
//! schema and its doc.

use roff::{Roff, bold, italic, roman};

use super::roff_text::{example_block, para, render, source, tagged};
use crate::army::doc::{self, KeyDoc, Need};
use crate::system::Registry;

/// drumhead-armies(5): the army-list format, from each rule system's
/// schema (the keys its reader takes) and its doc (what they mean).
pub(crate) fn armies_5(registry: &Registry) -> String {
    let mut roff = Roff::new();
    roff.control(
        "TH",
        [
            "DRUMHEAD-ARMIES",
            "5",
            "",
            source().as_str(),
            "drumhead manual",
        ],
    );
    roff.control("SH", ["NAME"]);
    roff.text([roman(
        "drumhead-armies - the army lists of drumhead: sections, keys and values, rule system by rule system",
    )]);
    roff.control("SH", ["SYNOPSIS"]);
    example_block(
        &mut roff,
        [
            "[army]",
            "name = \"TEXT\"",
            "rules = \"BOOK\"",
            "side = \"TEXT\"",
            "",
            "[[SECTION]]",
            "id = \"ID\"",
            "name = \"TEXT\"",
            "KEY = VALUE",
        ],
    );
    roff.control("SH", ["DESCRIPTION"]);
    para(
        &mut roff,
        "An army list is a TOML file: an [army] table saying which rule book it is written for, \
         then its entries, each a [[SECTION]] table such as [[unit]]. Which sections and keys a \
         list may have depends on the rule system, as below. drumhead --army FILE loads a list \
         (repeat it for each army) so that commands can name its entries by id; \
         drumhead check FILE… checks lists without resolving anything; \
         drumhead new-army BOOK [-o FILE] writes a commented list to start from, \
         with every key of that book. At the prompt, help armies sums up the keys and \
         points here.",
    );
    for rule in doc::general_rules() {
        para(&mut roff, &rule);
    }

    roff.control("SH", ["THE [army] TABLE"]);
    para(&mut roff, "Every list starts with it:");
    let army_keys = doc::army_keys(&registry.books());
    for key in crate::army::ARMY_KEYS {
        if let Some(k) = army_keys.iter().find(|k| k.key == *key) {
            key_entry(&mut roff, k);
        }
    }

    roff.control("SH", ["EVERY ENTRY"]);
    para(
        &mut roff,
        "Every entry of every section has these two keys:",
    );
    for k in doc::common_keys() {
        key_entry(&mut roff, &k);
    }

    for system in registry.systems() {
        system_section(&mut roff, system);
    }
    campaign_section(&mut roff, registry);

    roff.control("SH", ["SEE ALSO"]);
    roff.text([
        bold("drumhead"),
        roman("(1), "),
        bold("drumhead-commands"),
        roman("(7)"),
    ]);
    render(&roff)
}

/// One key: `key = SHAPE`, then whether it is required, its type, what it
/// means, and the words it takes with theirs.
fn key_entry(roff: &mut Roff, key: &KeyDoc) {
    roff.control("TP", []);
    roff.text([bold(key.key), roman(" = "), italic(key.ty.shape().as_str())]);
    let mut text = match &key.need {
        Need::Refused(instead) => {
            format!("No longer accepted, and refused with a message. {instead}")
        }
        need => {
            let mut t = capitalised(&need.describe());
            t.push_str(&format!("; {}.", key.ty.describe()));
            if !key.about.is_empty() {
                t.push(' ');
                t.push_str(&key.about);
            }
            t
        }
    };
    if text.is_empty() {
        text = "(not described)".into();
    }
    roff.text([roman(text.as_str())]);
    let choices = key.ty.choices();
    if !choices.is_empty() && !matches!(key.need, Need::Refused(_)) {
        // Under the key's text, not at the key.
        roff.control("RS", []);
        for c in choices {
            tagged(roff, c.word, &c.meaning);
        }
        roff.control("RE", []);
    }
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One rule system's sections and keys, and an example list of each of
/// its books.
fn system_section(roff: &mut Roff, system: &dyn crate::system::RuleSystem) {
    let books = system.books();
    let Some(first) = books.first() else {
        return;
    };
    let ids: Vec<&str> = books.iter().map(|b| b.id()).collect();
    let title = format!("{} ({})", system.name().to_uppercase(), ids.join(", "));
    roff.control("SH", [title.as_str()]);
    let schema = system.army();
    let heads: Vec<String> = schema
        .sections(*first)
        .iter()
        .map(|s| format!("[[{}]]", s.name))
        .collect();
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    let heads = match heads.as_slice() {
        [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => heads.join(""),
    };
    let mut intro = format!(
        "A list with rules = {} has {heads} entries.",
        crate::army::one_of(&ids)
    );
    if let Some(d) = schema.doc(*first) {
        intro.push(' ');
        intro.push_str(d.about);
    }
    para(roff, &intro);
    for (section, sdoc) in doc::sections(schema, *first) {
        let head = format!("[[{}]]", section.name);
        roff.control("SS", [head.as_str()]);
        if !sdoc.about.is_empty() {
            para(roff, sdoc.about);
        }
        for key in &sdoc.keys {
            key_entry(roff, key);
        }
    }
    for book in books {
        let head = format!("Example ({})", book.id());
        roff.control("SS", [head.as_str()]);
        let text = doc::template(schema, *book, false);
        example_block(roff, text.lines());
    }
}

/// CAMPAIGN KEYS: the keys that carry a campaign's state, system by
/// system (those whose text says they are a campaign's).
fn campaign_section(roff: &mut Roff, registry: &Registry) {
    roff.control("SH", ["CAMPAIGN KEYS"]);
    para(
        roff,
        "A campaign (drumhead(1), CAMPAIGNS) carries its armies from battle to battle in their \
         lists: what the last battle left of each entry is written into its list with these \
         keys, and drumhead campaign export writes the lists as they stand. Every drumhead \
         command reads and checks them as it does every other key, and a list may be written \
         with them by hand. An entry with gone or absent is read and checked, and kept in the \
         list for the campaign's record, but is not in the battle: units names it under its \
         army's roster, and a command cannot name it.",
    );
    for system in registry.systems() {
        let Some(first) = system.books().first() else {
            continue;
        };
        let keys: Vec<String> = doc::sections(system.army(), *first)
            .iter()
            .flat_map(|(section, sdoc)| {
                sdoc.keys
                    .iter()
                    .filter(|k| k.about.starts_with("Campaigns:"))
                    .map(move |k| format!("[[{}]] {}", section.name, k.key))
            })
            .collect();
        if keys.is_empty() {
            continue;
        }
        let ids: Vec<&str> = system.books().iter().map(|b| b.id()).collect();
        tagged(
            roff,
            &format!("{} ({})", system.name(), ids.join(", ")),
            &format!("{}: see each key above.", keys.join(", ")),
        );
    }
}
