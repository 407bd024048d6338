//! A typed word that contradicts a named unit is refused. Naming a unit
//! says what its army list and the game know of it (its class, arm,
//! formation, weapon, bases, what it did this turn and this game); a word
//! typed beside it that says otherwise is either a slip or a deliberate
//! what-if, and resolving it silently would let the slip through (a
//! Lackluster unit tested as Determined scores two points too many). The
//! refusal names the unit's fact, where it comes from, and the word that
//! makes the typed words win on purpose: [`OVERRIDE`].

use crate::bind::{Bound, Fact, Vocab};
use crate::catalog::{Input, Named, Said, UnitFact, stated_row};
use crate::error::{BindError, CommandError, ErrorKind};

use super::VerbDoc;
use super::exclusive::{self, Exclusion};
use super::named::{GENERAL, is_general, typed};

/// The word that lets the typed words of its side win over the facts a
/// named unit brings.
pub(crate) use crate::catalog::OVERRIDE;

const OVERRIDE_HELP: &str = "the typed words of this side win over the facts a named unit brings (its list's class, arm, formation, weapon; the game's bases, hits and what it did): without it, a typed word that contradicts them is refused; where no game is kept (no --game FILE), a state typed beside a unit (its bases, hits, what it did) stands as stated";

/// Where a fact a unit brings comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    List,
    Game,
}

impl Source {
    fn said(self) -> &'static str {
        match self {
            Source::List => "its army list",
            Source::Game => "the game",
        }
    }
}

/// Words that say one fact of a unit, which its list or the game knows:
/// a unit that brings none of them, or another, is contradicted by one
/// typed.
struct Group {
    words: &'static [&'static str],
    source: Source,
    /// The fact, as the refusal names it.
    what: &'static str,
}

const fn list(words: &'static [&'static str], what: &'static str) -> Group {
    Group {
        words,
        source: Source::List,
        what,
    }
}

const fn game(words: &'static [&'static str], what: &'static str) -> Group {
    Group {
        words,
        source: Source::Game,
        what,
    }
}

/// What a unit brings (see `game::unit_facts`), fact by fact.
const UNIT_GROUPS: &[Group] = &[
    list(
        &["foot", "cavalry", "artillery", "irregular", "general"],
        "arm",
    ),
    list(&["heavy-cavalry"], "heavy cavalry or not"),
    list(&["lancers"], "lancers or not"),
    list(&["determined", "lackluster"], "class"),
    list(&["zealous"], "class (Zealous or not)"),
    list(&["guards"], "class (Guards or not)"),
    list(super::army::FORMATIONS, "formation"),
    list(super::army::WEAPONS, "weapon"),
    list(&["two-rank"], "firing doctrine (two ranks or not)"),
    list(&["light"], "light company or not"),
    game(&["bases", "figures"], "strength left"),
    game(&["carried"], "hits carried towards its next base"),
    game(&["hits"], "hits on the battery"),
    game(
        &["strong", "weak", "half-lost"],
        "strength against its start",
    ),
    game(&["lost-bases"], "bases lost in the game"),
    game(&["hit"], "hits received this turn"),
    game(&["inflicted"], "hits inflicted this turn"),
    game(&["retired"], "forced to retire this turn or not"),
    game(&["moved"], "moved this turn or not"),
    game(&["shot-at"], "fired at with hits this turn or not"),
    game(&["not-charged", "charged-twice"], "charges made this game"),
    game(&["first-shot", "fired-3"], "shots fired this game"),
    game(&["first-melee"], "melee rounds fought this game"),
    game(
        &["one-action"],
        "a general of its side lost this turn or not",
    ),
    game(&["no-supply"], "its force commander lost this turn or not"),
];

/// The verbs a general is named in alone: the General rows of the
/// Movement and Charge Distances tables, Risk to Generals, and initiative
/// ("1D6 per general remaining on the board"). Every other verb refuses a
/// general where a unit is meant, which says more than his facts would.
const GENERAL_VERBS: &[&str] = &["move", "charge", "risk", "initiative"];

/// What a general alone on a side brings (`risk`, `move`, `charge`).
const GENERAL_GROUPS: &[Group] = &[
    // The General rows of the Movement and Charge Distances tables.
    list(
        &["general", "foot", "cavalry", "artillery", "irregular"],
        "a general, of no arm",
    ),
    list(&["commander"], "force commander or not"),
    list(&["inspiring"], "trait (Inspiring or not)"),
    list(&["hated"], "trait (Hated or not)"),
];

/// A typed word that says a formation and more: it holds of a unit in
/// that formation ("Are Formed Line and chargers being Column of Attack").
const SAYS_FORMATION: &[(&str, &str)] =
    &[("line-vs-column", "line"), ("square-vs-cavalry", "square")];

/// The exclusive words of a verb, read against what a unit brings too.
fn rules_of(verb: &str) -> &'static [Exclusion] {
    match verb {
        "hold" => exclusive::HOLD,
        "resilience" => exclusive::RESILIENCE,
        "melee" => exclusive::MELEE,
        "shoot" => exclusive::SHOOTERS,
        _ => &[],
    }
}

/// Every Drums verb: `override` on each side that may name a unit, and
/// the check before the verb resolves.
pub(crate) fn guard(doc: VerbDoc) -> VerbDoc {
    if doc.vocab.raw {
        return doc;
    }
    let mut doc = doc.with_override(OVERRIDE_HELP);
    let verb = doc.name;
    let inner = doc.resolve.clone();
    let main = doc.vocab.clone();
    let clauses = doc.clauses.clone();
    doc.resolve = std::rc::Rc::new(move |input, dice| {
        let vocab_of = |clause: Option<usize>| match clause {
            None => Some(&main),
            Some(i) => {
                let (kind, _, _) = input.clauses.get(i)?;
                clauses.iter().find(|(k, _)| k == kind).map(|(_, v)| v)
            }
        };
        let said = check(input, verb, &vocab_of)?;
        let mut res = inner(input, dice)?;
        said.show(&mut res, 0);
        Ok(res)
    });
    doc
}

/// One contradiction: the typed word, and what the unit brings instead.
struct Contradiction<'a> {
    word: &'a Fact,
    named: &'a Named,
    group: &'a Group,
    /// The unit's words of the fact (none: it brings none of them).
    brought: Vec<String>,
}

impl Contradiction<'_> {
    fn unit_said(&self, input: &Input) -> String {
        let id = typed(input, self.named);
        let fact = if self.brought.is_empty() {
            format!("brings no `{}`", self.word.name)
        } else {
            let words: Vec<String> = self.brought.iter().map(|w| format!("`{w}`")).collect();
            format!("brings {}", words.join(", "))
        };
        format!(
            "`{id}` {fact} ({}, from {})",
            self.group.what,
            self.group.source.said()
        )
    }
}

fn typed_word(f: &Fact) -> String {
    match (&f.kind, f.value) {
        (crate::bind::Kind::Number { .. }, Some(v)) => format!("{}={v}", f.name),
        _ => f.name.clone(),
    }
}

/// Refuse a typed word that contradicts a unit named on its side, unless
/// the side says `override`, or the word says a state no game keeps (no
/// `--game`), which stands as stated; what was typed over or stated, as
/// rows to show.
pub(crate) fn check<'v>(
    input: &Input,
    verb: &str,
    vocab_of: &dyn Fn(Option<usize>) -> Option<&'v Vocab>,
) -> Result<Said, CommandError> {
    let sides = std::iter::once((None, &input.words)).chain(
        input
            .clauses
            .iter()
            .enumerate()
            .map(|(i, (_, _, b))| (Some(i), b)),
    );
    let mut said = Said::default();
    for (clause, bound) in sides {
        let named: Vec<&Named> = input.named_on(clause).collect();
        if named.is_empty() {
            continue;
        }
        let mut found = contradictions(bound, &named, verb, vocab_of(clause));
        if !input.kept {
            found.retain(|c| {
                let stated = c.group.source == Source::Game;
                if stated {
                    let id = typed(input, c.named);
                    said.stated
                        .push(stated_row(&typed_word(c.word), id, c.group.what));
                }
                !stated
            });
        }
        let Some(first) = found.first() else {
            continue;
        };
        if bound.has(OVERRIDE) {
            said.overridden.extend(
                found
                    .iter()
                    .map(|c| format!("`{}` typed; {}", typed_word(c.word), c.unit_said(input))),
            );
            continue;
        }
        return Err(BindError::NotHere {
            kind: ErrorKind::Contradiction,
            span: first.word.span,
            text: typed_word(first.word),
            why: format!(
                "contradicts a named unit: {}; to resolve it as typed on purpose, add `{OVERRIDE}` on this side",
                first.unit_said(input)
            ),
        }
        .into());
    }
    // A state stated once for two units of a side is said once for each.
    said.stated.dedup();
    Ok(said)
}

fn contradictions<'a>(
    bound: &'a Bound,
    named: &[&'a Named],
    verb: &str,
    vocab: Option<&Vocab>,
) -> Vec<Contradiction<'a>> {
    let typed: Vec<&Fact> = bound
        .facts
        .iter()
        .filter(|f| !f.implied && f.name != OVERRIDE)
        .collect();
    let units: Vec<&&Named> = named.iter().filter(|n| !is_general(n)).collect();
    // A general's own facts are his only where he stands alone: beside a
    // unit (a resilience test) `inspiring` counts any general within 3BW.
    let general = match named {
        [g] if is_general(g) && GENERAL_VERBS.contains(&verb) => Some(*g),
        _ => None,
    };
    let mut out = Vec::new();
    for word in typed {
        for n in &units {
            if let Some(c) = against(word, n, UNIT_GROUPS, verb, vocab) {
                out.push(c);
            }
        }
        if let Some(g) = general
            && let Some(c) = against(word, g, GENERAL_GROUPS, verb, vocab)
        {
            out.push(c);
        }
    }
    out
}

/// Whether a typed word contradicts what one named unit brings.
fn against<'a>(
    word: &'a Fact,
    named: &'a Named,
    groups: &'static [Group],
    verb: &str,
    vocab: Option<&Vocab>,
) -> Option<Contradiction<'a>> {
    let facts = &named.facts.facts;
    let brings = |w: &str| facts.iter().any(|f| f.word == w);
    let words_of = |g: &Group| -> Vec<String> {
        facts
            .iter()
            .filter(|f| g.words.contains(&&*f.word))
            .map(ToString::to_string)
            .collect()
    };
    let found = |group: &'a Group| Contradiction {
        word,
        named,
        group,
        brought: words_of(group),
    };
    // The unit's one word of the fact, where the verb has another word
    // for it.
    let found_by = |f: &UnitFact, group: &'a Group| Contradiction {
        word,
        named,
        group,
        brought: vec![f.to_string()],
    };
    // "Are Formed Line and chargers being Column of Attack" holds of a
    // unit in line only.
    if let Some((_, formation)) = SAYS_FORMATION.iter().find(|(w, _)| *w == word.name) {
        let group = groups.iter().find(|g| g.words.contains(formation))?;
        return (!brings(formation)).then(|| found(group));
    }
    if let Some(group) = groups
        .iter()
        .find(|g| g.words.contains(&word.name.as_str()))
    {
        let same = facts
            .iter()
            .any(|f| f.word == word.name && (word.value.is_none() || f.value == word.value));
        // Hits on the shooters are a battery's row: other units bring
        // none, whatever they carry.
        let battery_only = word.name == "hits" && !brings("artillery");
        // `general` is an arm in `move` and `charge` (a choice), and
        // elsewhere a count of generals within 3BW.
        let count = word.name == GENERAL && !matches!(word.kind, crate::bind::Kind::Choice(_));
        if !same && !battery_only && !count {
            return Some(found(group));
        }
        return None;
    }
    // Another word of the verb for the same fact (`march` for a column of
    // march, one of a choice or a slot): the unit's own word stands.
    let group_of = |f: &UnitFact| groups.iter().find(|g| g.words.contains(&&*f.word));
    if let Some(vocab) = vocab {
        let choice = |w: &str| match vocab.find(w).map(|e| &e.kind) {
            Some(crate::bind::Kind::Choice(g)) => Some(*g),
            _ => None,
        };
        let slot = |a: &str, b: &str| vocab.slots.iter().any(|s| s.contains(&a) && s.contains(&b));
        let other = facts.iter().find_map(|f| {
            let same_choice = choice(&word.name).is_some() && choice(&word.name) == choice(&f.word);
            let differs = (same_choice || slot(&word.name, &f.word)) && f.word != word.name;
            differs
                .then(|| group_of(f).map(|g| found_by(f, g)))
                .flatten()
        });
        if other.is_some() {
            return other;
        }
    }
    // A word the sheet refuses beside one the unit brings ("a unit in the
    // second or more rounds melee from a charge has fought its first").
    for rule in rules_of(verb) {
        if let Some(f) = facts.iter().find(|f| rule.refuses(&word.name, &f.word)) {
            let group = groups.iter().find(|g| g.words.contains(&&*f.word))?;
            return Some(found(group));
        }
    }
    None
}
