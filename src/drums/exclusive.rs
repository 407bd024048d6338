//! Words that cannot describe one side at once: the sheet's rows say so
//! ("Or, opponents are defending fortifications"; a unit classed
//! Determined is not Lackluster; the first round of a charge is not its
//! second). A side given both is refused, naming both words, rather than
//! resolved with two rows that cannot both hold.
//!
//! Where a group of words stands for one fact a unit brings (its class,
//! its strength, its formation), the group is also a [`Vocab::slot`]: a
//! word typed for a named unit displaces the unit's, as everywhere.

use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::error::{BindError, CommandError, ErrorKind};

/// Two sets of words no side may hold one of each of (`b: None`: no side
/// may hold two words of `a`).
pub(crate) struct Exclusion {
    pub(crate) a: &'static [&'static str],
    pub(crate) b: Option<&'static [&'static str]>,
    /// Why, in the sheet's words.
    pub(crate) why: &'static str,
    /// The words of `a` stand for one fact a unit brings: a typed one
    /// displaces the unit's.
    pub(crate) slot: bool,
    /// For help, what the words of `a` are one of ("formation"), when
    /// listing them all beside each would say less.
    pub(crate) group: Option<&'static str>,
}

impl Exclusion {
    /// Every pair of words this rule refuses.
    fn pairs(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        let b = self.b.unwrap_or(self.a);
        self.a
            .iter()
            .flat_map(move |x| b.iter().map(move |y| (*x, *y)))
            .filter(|(x, y)| x != y)
    }

    /// Whether the rule refuses `x` beside `y`.
    pub(crate) fn refuses(&self, x: &str, y: &str) -> bool {
        // The pairs are every word of `a` with every other word of `b`:
        // asked of each two words on a line, so looked up, not listed.
        let b = self.b.unwrap_or(self.a);
        x != y
            && ((self.a.contains(&x) && b.contains(&y)) || (self.a.contains(&y) && b.contains(&x)))
    }
}

const fn among(a: &'static [&'static str], why: &'static str) -> Exclusion {
    Exclusion {
        a,
        b: None,
        why,
        slot: false,
        group: None,
    }
}

const fn one_fact(a: &'static [&'static str], why: &'static str) -> Exclusion {
    Exclusion {
        a,
        b: None,
        why,
        slot: true,
        group: None,
    }
}

const fn between(
    a: &'static [&'static str],
    b: &'static [&'static str],
    why: &'static str,
) -> Exclusion {
    Exclusion {
        a,
        b: Some(b),
        why,
        slot: false,
        group: None,
    }
}

const CLASS: Exclusion = one_fact(
    &["determined", "lackluster"],
    "a unit is classed Determined or Lackluster, not both (\"Are classed as Determined\", \"Are classed as Lackluster\")",
);

/// Hold tests.
pub(crate) const HOLD: &[Exclusion] = &[
    CLASS,
    one_fact(
        &["strong", "weak"],
        "a unit is not both \"≥ 75% in strength\" and \"≤ 50% in strength\"",
    ),
    one_fact(
        &["not-charged", "charged-twice"],
        "a unit that \"Has charged atleast twice this game\" has charged (\"Has not charged yet this game\")",
    ),
    among(
        &["not-in-terrain", "irregular-leaving-terrain"],
        "the testers are in terrain (\"Irregular in terrain that could end up out of terrain if charge\") or not (\"Testers are not in terrain\"), not both",
    ),
];

/// The tester's formation words in a resilience test (a unit brings its
/// own).
pub(crate) const RESILIENCE_FORMATIONS: &[&str] = &[
    "open",
    "line",
    "column-of-attack",
    "column-of-march",
    "square",
    "formed",
    // "Artillery Unlimbered | Formed": what an unlimbered gun brings. A
    // limbered one brings `column-of-march`, its formation on the sheet.
    "unlimbered",
];

/// The formation words with the rows whose words say the formation too
/// ("Are Formed Line and chargers being Column of Attack", "Formed foot in
/// square vs Cavalry"): any of them says the formation is given, and one
/// typed for a named unit displaces the one it brings (a unit listed in
/// line has formed square).
pub(crate) const RESILIENCE_FORMATION_SLOT: &[&str] = &[
    "open",
    "line",
    "column-of-attack",
    "column-of-march",
    "square",
    "formed",
    "unlimbered",
    "line-vs-column",
    "square-vs-cavalry",
];

/// Resilience tests.
pub(crate) const RESILIENCE: &[Exclusion] = &[
    CLASS,
    Exclusion {
        group: Some("formation"),
        ..among(RESILIENCE_FORMATIONS, "a unit is in one formation")
    },
    between(
        &["line-vs-column"],
        &[
            "open",
            "column-of-attack",
            "column-of-march",
            "square",
            "square-vs-cavalry",
        ],
        "\"Are Formed Line and chargers being Column of Attack\" says the unit is in line",
    ),
    between(
        &["square-vs-cavalry"],
        &[
            "open",
            "line",
            "column-of-attack",
            "column-of-march",
            "cavalry-vs-foot",
            "cavalry-vs-square",
        ],
        "\"Formed foot in square vs Cavalry\" says the unit is foot in square",
    ),
    between(
        &["cavalry-vs-foot"],
        &["cavalry-vs-square"],
        "the foot is in square (\"Cavalry vs formed foot in Square\") or not (\"Cavalry vs foot not in square\"), not both",
    ),
    between(
        &["cavalry-vs-foot", "cavalry-vs-square"],
        &["square"],
        "the testers are cavalry, and only foot forms square",
    ),
];

/// "First round of melee fought in the game", which a unit brings until it
/// has fought, displaced by a typed word of a later round of a charge.
pub(crate) const FIRST_MELEE_SLOT: &[&str] = &["first-melee", "zealous-later", "heavy-later"];

/// One side of a melee.
pub(crate) const MELEE: &[Exclusion] = &[
    CLASS,
    among(
        &["obstacle", "fortification"],
        "the opponents are defending an obstacle (\"Opponents are defending an obstacle\") \"Or,\" fortifications (\"Or, opponents are defending fortifications\")",
    ),
    between(
        &[
            "zealous-first",
            "heavy-first",
            "lancers-first",
            "downhill-charge",
            "evaded",
        ],
        &["zealous-later", "heavy-later"],
        "a round is the first of a charge or its \"second or more rounds\", not both",
    ),
    Exclusion {
        a: &["first-melee"],
        b: Some(&["zealous-later", "heavy-later"]),
        why: "a unit in the \"second or more rounds melee from a charge\" has fought its \"First round of melee fought in the game\"",
        slot: false,
        group: None,
    },
    between(
        &["uphill"],
        &["downhill-charge"],
        "\"Fighting uphill from opponents and not chargers in first round\" and \"First round of a charge and chargers, charged down hill\" cannot both hold",
    ),
    between(
        &["evaded"],
        &["downhill-charge"],
        "the side that evaded was charged (\"Open foot who evaded and this is the first round of a charge\"); the chargers charged down hill",
    ),
];

/// The shooters of a shot.
pub(crate) const SHOOTERS: &[Exclusion] = &[one_fact(
    &["first-shot", "fired-3"],
    "the \"First time unit is shooting in the game\" is not after it \"fired in game 3+ times\"",
)];

/// Add the slots of the rules that stand for one fact (and `slots`
/// besides), and say beside each word which words it cannot stand with.
pub(crate) fn annotate(
    mut vocab: Vocab,
    rules: &'static [Exclusion],
    slots: &[&'static [&'static str]],
) -> Vocab {
    for rule in rules.iter().filter(|r| r.slot) {
        vocab = vocab.slot(rule.a);
    }
    for slot in slots {
        vocab = vocab.slot(slot);
    }
    for entry in &mut vocab.entries {
        let mut not: Vec<&str> = Vec::new();
        let mut groups: Vec<&str> = Vec::new();
        for rule in rules {
            if let Some(group) = rule.group
                && rule.a.contains(&entry.name.as_str())
            {
                groups.push(group);
            }
        }
        let listed = rules
            .iter()
            .filter(|r| r.group.is_none() || !r.a.contains(&entry.name.as_str()));
        for (x, y) in listed.flat_map(Exclusion::pairs) {
            let other = if x == entry.name {
                y
            } else if y == entry.name {
                x
            } else {
                continue;
            };
            if !not.contains(&other) {
                not.push(other);
            }
        }
        let mut said: Vec<String> = groups.iter().map(|g| format!("one {g} only")).collect();
        if !not.is_empty() {
            let list: Vec<String> = not.iter().map(|w| format!("`{w}`")).collect();
            said.push(format!("not with {}", list.join(", ")));
        }
        if !said.is_empty() {
            entry.help.push_str(&format!(" ({})", said.join("; ")));
        }
    }
    vocab
}

/// Every word some list of rules names, and which two of them it refuses
/// together.
struct Named {
    /// Sorted ([`shortlex`]).
    words: Vec<&'static str>,
    /// `clash[i * n + j]`: some rule refuses `words[i]` beside `words[j]`.
    clash: Vec<bool>,
}

impl Named {
    fn new(rules: &'static [Exclusion]) -> Named {
        let mut words: Vec<&'static str> = rules
            .iter()
            .flat_map(|r| r.a.iter().chain(r.b.unwrap_or(&[])))
            .copied()
            .collect();
        words.sort_unstable_by(|a, b| shortlex(a, b));
        words.dedup();
        let n = words.len();
        let mut named = Named {
            words,
            clash: vec![false; n * n],
        };
        // Each rule's own pairs, both ways round (as `Exclusion::refuses`
        // asks), rather than every rule asked of every two words: made at
        // the first line of a one-shot command too.
        for (x, y) in rules.iter().flat_map(Exclusion::pairs) {
            if let (Some(i), Some(j)) = (named.index(x), named.index(y)) {
                named.clash[i * n + j] = true;
                named.clash[j * n + i] = true;
            }
        }
        named
    }

    /// Where a word stands among the named ones, if a rule names it.
    fn index(&self, word: &str) -> Option<usize> {
        self.words.binary_search_by(|x| shortlex(x, word)).ok()
    }

    fn clash(&self, i: usize, j: usize) -> bool {
        self.clash[i * self.words.len() + j]
    }
}

/// Shorter words first, then alphabetical: most steps of a search are
/// settled by the length alone, without comparing any text.
fn shortlex(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// The words `rules` name and the pairs they refuse ([`Named`]): made once
/// a thread for each list of rules, since every line asks it of every
/// fact, and a search of the sorted words and one look at the table of
/// pairs cost a fraction of walking every rule.
fn named_words(rules: &'static [Exclusion]) -> std::rc::Rc<Named> {
    thread_local! {
        static MADE: std::cell::RefCell<Vec<(usize, std::rc::Rc<Named>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    // A list of rules is a constant: where it stands names it.
    let key = rules.as_ptr() as usize;
    MADE.with_borrow_mut(|made| {
        if let Some((_, named)) = made.iter().find(|(k, _)| *k == key) {
            return named.clone();
        }
        let named = std::rc::Rc::new(Named::new(rules));
        made.push((key, named.clone()));
        named
    })
}

/// Refuse a side that holds two words a rule refuses together, naming both
/// (and the unit that brought one, if a unit did).
pub(crate) fn check(
    input: &Input,
    bound: &Bound,
    rules: &'static [Exclusion],
) -> Result<(), CommandError> {
    // Words in the order they stand on the line: the later one is blamed.
    // Only the words some rule names can contradict: most lines have
    // fewer than two, and are done here.
    let named = named_words(rules);
    let mut words: Vec<(usize, &crate::bind::Fact)> = bound
        .facts
        .iter()
        .filter(|f| f.count > 0)
        .filter_map(|f| Some((named.index(&f.name)?, f)))
        .collect();
    if words.len() < 2 {
        return Ok(());
    }
    words.sort_by_key(|(_, f)| f.span.start);
    for (i, &(l, later)) in words.iter().enumerate() {
        for &(e, earlier) in &words[..i] {
            if !named.clash(e, l) {
                continue;
            }
            let Some(rule) = rules.iter().find(|r| r.refuses(&earlier.name, &later.name)) else {
                continue;
            };
            // A word a unit brought is said to be the unit's.
            let from = |f: &crate::bind::Fact| {
                input
                    .named
                    .iter()
                    .find(|n| f.implied && n.span == f.span)
                    .map(|n| format!("(which `{}` brings)", super::named::typed(input, n)))
            };
            let later_from = from(later).map_or(String::new(), |f| f + " ");
            let earlier_from = from(earlier).map_or(String::new(), |f| format!(" {f}"));
            return Err(BindError::NotHere {
                kind: ErrorKind::Conflict,
                span: later.span,
                text: later.name.clone(),
                why: format!(
                    "{later_from}contradicts `{}`{earlier_from}: {}; give one or the other",
                    earlier.name, rule.why
                ),
            }
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of refused pairs says what the rules say, of every two
    /// words any rule names, in every list a verb checks against.
    #[test]
    fn the_table_of_pairs_agrees_with_the_rules() {
        let mut refused = 0;
        for rules in [HOLD, RESILIENCE, MELEE, SHOOTERS] {
            let named = Named::new(rules);
            for (i, x) in named.words.iter().enumerate() {
                for (j, y) in named.words.iter().enumerate() {
                    let says = rules.iter().any(|r| r.refuses(x, y));
                    assert_eq!(named.clash(i, j), says, "{x} beside {y}");
                    refused += usize::from(says);
                }
            }
        }
        assert!(refused > 0);
    }
}
