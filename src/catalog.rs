//! Every verb drumhead knows: its usage, the words it accepts (built from the
//! tables, so house rules show up in `help` and in binding), and the
//! resolver that carries it out. Built once per session.

use crate::bind::{self, Bound, Vocab};
use crate::command::{ClauseKind, Command, Span, System, Word, WordKind};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::Resolution;
use crate::tables::Tables;

/// What a resolver is given: the command, its bound words, the tables.
pub struct Input<'a> {
    /// The rule system the line is resolved under.
    pub system: System,
    pub command: &'a Command,
    pub line: &'a str,
    pub words: Bound,
    /// Each clause with its kind, the span of its `at`/`vs` word, and its words.
    pub clauses: Vec<(ClauseKind, Span, Bound)>,
    pub tables: &'a Tables,
    /// What a resolver worked out before its first die, kept for the next
    /// run of the same command (`odds` runs it once per way the dice fall).
    pub memo: std::cell::OnceCell<Box<dyn std::any::Any>>,
}

impl Input<'_> {
    /// What a resolver works out before its first die, worked out on the
    /// first run of a command and kept for the next: `odds` runs a command
    /// once per way the dice fall.
    pub fn memoized<T: 'static>(
        &self,
        work: impl FnOnce() -> Result<T, CommandError>,
    ) -> Result<&T, CommandError> {
        if self.memo.get().is_none() {
            let _ = self.memo.set(Box::new(work()?));
        }
        self.memo
            .get()
            .and_then(|m| m.downcast_ref::<T>())
            .ok_or_else(|| self.missing("the work before the dice was lost"))
    }

    /// Where a missing word would go.
    pub fn missing_span(&self) -> Span {
        bind::missing_span(self.command, self.line)
    }

    pub fn missing(&self, what: impl Into<String>) -> CommandError {
        BindError::Missing {
            span: self.missing_span(),
            what: what.into(),
        }
        .into()
    }

    /// The words of the first clause of a kind, if any.
    pub fn clause(&self, kind: ClauseKind) -> Option<&Bound> {
        self.clauses
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map(|(_, _, b)| b)
    }
}

pub type Resolver = fn(&Input, &mut dyn DiceSource) -> Result<Resolution, CommandError>;

pub struct VerbDoc {
    /// `None`: the verb works under every rule system.
    pub system: Option<System>,
    pub name: &'static str,
    pub usage: &'static str,
    /// One line; may quote the tables' numbers, so house rules show.
    pub summary: String,
    pub examples: &'static [&'static str],
    pub vocab: Vocab,
    /// The clauses the verb takes, each with the words it accepts.
    pub clauses: Vec<(ClauseKind, Vocab)>,
    /// How many clauses of those kinds may be given at most.
    pub max_clauses: usize,
    pub resolve: Resolver,
}

impl VerbDoc {
    pub fn new(
        system: Option<System>,
        name: &'static str,
        usage: &'static str,
        summary: impl Into<String>,
        vocab: Vocab,
        resolve: Resolver,
    ) -> VerbDoc {
        VerbDoc {
            system,
            name,
            usage,
            summary: summary.into(),
            examples: &[],
            vocab,
            clauses: Vec::new(),
            max_clauses: 0,
            resolve,
        }
    }

    pub fn examples(mut self, examples: &'static [&'static str]) -> VerbDoc {
        self.examples = examples;
        self
    }

    pub fn clause(mut self, kind: ClauseKind, vocab: Vocab, max: usize) -> VerbDoc {
        self.clauses.push((kind, vocab));
        self.max_clauses = max;
        self
    }
}

pub struct Catalog {
    pub verbs: Vec<VerbDoc>,
}

impl Catalog {
    pub fn new(tables: &Tables) -> Catalog {
        let mut verbs = crate::roll::verbs();
        verbs.extend(crate::drums::verbs(&tables.drums, &tables.drums_pools));
        verbs.extend(crate::saber::verbs(&tables.saber, &tables.saber_quickplay));
        verbs.extend(crate::mayhem::verbs(&tables.mayhem));
        Catalog { verbs }
    }

    pub fn find(&self, system: System, verb: &str) -> Option<&VerbDoc> {
        self.verbs
            .iter()
            .find(|v| v.name == verb && v.system.is_none_or(|s| s == system))
    }

    /// The verbs usable under one rule system.
    pub fn for_system(&self, system: System) -> impl Iterator<Item = &VerbDoc> {
        self.verbs
            .iter()
            .filter(move |v| v.system.is_none_or(|s| s == system))
    }

    /// Bind a command's words (and the facts of any units it names) and
    /// run its resolver.
    pub fn resolve(
        &self,
        system: System,
        command: &Command,
        line: &str,
        tables: &Tables,
        roster: &dyn Roster,
        dice: &mut dyn DiceSource,
    ) -> Result<Resolution, CommandError> {
        self.prepare(system, command, line, tables, roster)?
            .run(dice)
    }

    /// Bind a command once, to run it against dice as often as needed
    /// (`odds` runs it once per way the dice can fall).
    pub fn prepare<'a>(
        &'a self,
        system: System,
        command: &'a Command,
        line: &'a str,
        tables: &'a Tables,
        roster: &dyn Roster,
    ) -> Result<Prepared<'a>, CommandError> {
        let doc = self.find(system, &command.verb).ok_or_else(|| {
            let names = self
                .for_system(system)
                .map(|v| v.name)
                .chain(session_verbs());
            BindError::UnknownVerb {
                span: command.verb_span,
                verb: command.verb.clone(),
                system: system.title(),
                suggestion: bind::nearest(&command.verb, names),
            }
        })?;
        let mut named = Vec::new();
        let words = bind_side(
            &command.words,
            &doc.vocab,
            doc.name,
            system,
            roster,
            None,
            &mut named,
        )?;
        let mut clauses = Vec::new();
        for (i, clause) in command.clauses.iter().enumerate() {
            let vocab = doc
                .clauses
                .iter()
                .find(|(k, _)| *k == clause.kind)
                .map(|(_, v)| v)
                .filter(|_| i < doc.max_clauses)
                .ok_or_else(|| bind::clause_not_here(clause, doc.name))?;
            let bound = bind_side(
                &clause.words,
                vocab,
                doc.name,
                system,
                roster,
                Some((i, clause.kind)),
                &mut named,
            )?;
            clauses.push((clause.kind, clause.span, bound));
        }
        let input = Input {
            system,
            command,
            line,
            words,
            clauses,
            tables,
            memo: std::cell::OnceCell::new(),
        };
        Ok(Prepared {
            resolve: doc.resolve,
            input,
            named,
        })
    }
}

/// A bound command, ready to resolve against dice.
pub struct Prepared<'a> {
    resolve: Resolver,
    input: Input<'a>,
    named: Vec<NamedUnit>,
}

impl Prepared<'_> {
    pub fn run(&self, dice: &mut dyn DiceSource) -> Result<Resolution, CommandError> {
        let mut res = (self.resolve)(&self.input, dice)?;
        if res.quiet {
            res.units = self.named.clone();
            return Ok(res);
        }
        let named = self.named.clone();
        // Say first which facts came from which unit.
        for (i, unit) in named.iter().enumerate() {
            let facts = if unit.applied.is_empty() {
                "—".to_string()
            } else {
                unit.applied.join(", ")
            };
            res.rows.insert(
                i,
                crate::resolution::Row::plain(format!("from {} ({})", unit.id, unit.name), facts),
            );
        }
        res.units = named;
        Ok(res)
    }
}

/// Bind one side's words: unit ids are taken out and replaced by the facts
/// they stand for, after the typed words (which win).
fn bind_side(
    words: &[Word],
    vocab: &Vocab,
    verb: &str,
    system: System,
    roster: &dyn Roster,
    clause: Option<(usize, ClauseKind)>,
    named: &mut Vec<NamedUnit>,
) -> Result<Bound, BindError> {
    let mut typed: Vec<Word> = Vec::new();
    let mut units: Vec<(UnitFacts, Span)> = Vec::new();
    let wants = number_wanted(vocab);
    for word in words {
        let unit = match &word.kind {
            WordKind::Keyword { name, value: None } if vocab.find(name).is_none() => {
                roster.unit(system, name)
            }
            _ => None,
        };
        match unit {
            Some(facts) => {
                // A verb that reads a number (a combat factor, a morale
                // rating, a courage value) gets the unit's, in its place.
                if let Some(n) = wants.and_then(|p| facts.number(p)) {
                    typed.push(Word {
                        span: word.span,
                        text: n.to_string(),
                        kind: crate::parse::classify(n),
                    });
                }
                units.push((facts, word.span));
            }
            None => typed.push(word.clone()),
        }
    }
    let mut bound = bind::bind(&typed, vocab, verb).map_err(|e| suggest_units(e, roster))?;
    for (facts, span) in units {
        let mut applied = bind::add_implied(&mut bound, &facts.words, vocab, span, verb)?;
        if let Some(n) = wants.and_then(|p| facts.number(p)) {
            applied.insert(0, n.to_string());
        }
        named.push(NamedUnit {
            clause,
            id: facts.id,
            name: facts.name,
            applied,
        });
    }
    Ok(bound)
}

/// An unknown word may be a misspelt unit id.
fn suggest_units(e: BindError, roster: &dyn Roster) -> BindError {
    match e {
        BindError::UnknownWord {
            span,
            word,
            verb,
            suggestion: None,
        } => {
            let ids = roster.ids();
            let suggestion = bind::nearest(
                &crate::parse::normalise(&word),
                ids.iter().map(String::as_str),
            );
            BindError::UnknownWord {
                span,
                word,
                verb,
                suggestion,
            }
        }
        other => other,
    }
}

/// The units a command may name, and the words each stands for.
pub trait Roster {
    /// The facts of a unit, as words of the command language, under a rule system.
    fn unit(&self, system: System, id: &str) -> Option<UnitFacts>;
    /// Every id, for suggestions.
    fn ids(&self) -> Vec<String>;
}

#[derive(Debug, Clone, PartialEq)]
pub struct UnitFacts {
    pub id: String,
    pub name: String,
    pub words: Vec<String>,
    /// The unit's numbers for verbs that read one in their own notation.
    pub numbers: Vec<(UnitNumber, String)>,
}

impl UnitFacts {
    pub fn number(&self, which: UnitNumber) -> Option<&str> {
        self.numbers
            .iter()
            .find(|(w, _)| *w == which)
            .map(|(_, n)| n.as_str())
    }
}

/// Which of a unit's numbers a verb reads where the unit is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitNumber {
    CombatFactor,
    MoraleRating,
    Courage,
}

/// The number a vocabulary reads in place of a unit, by what its notation
/// or bare number means.
fn number_wanted(vocab: &Vocab) -> Option<UnitNumber> {
    let meaning = vocab
        .notation
        .or(vocab.number)
        .unwrap_or("")
        .to_ascii_lowercase();
    if meaning.contains("combat factor") {
        Some(UnitNumber::CombatFactor)
    } else if meaning.contains("morale rating") {
        Some(UnitNumber::MoraleRating)
    } else if vocab.raw || meaning.contains("courage") {
        Some(UnitNumber::Courage)
    } else {
        None
    }
}

/// No armies loaded.
pub struct NoUnits;

impl Roster for NoUnits {
    fn unit(&self, _system: System, _id: &str) -> Option<UnitFacts> {
        None
    }
    fn ids(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A unit a command named, on which side, and the facts it brought.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedUnit {
    /// `None`: the acting side; otherwise the clause's index and kind.
    pub clause: Option<(usize, ClauseKind)>,
    pub id: String,
    pub name: String,
    pub applied: Vec<String>,
}

/// Verbs the session itself handles rather than a resolver.
pub const SESSION_VERBS: &[&str] = &["help", "odds", "simulate", "set"];

/// Verbs about the game rather than the rules.
pub const GAME_VERBS: &[&str] = &[
    "units",
    "show",
    "next-turn",
    "end-turn",
    "undo",
    "log",
    "save",
];

/// Every verb that is not a rule system's: for suggestions and completion.
pub fn session_verbs() -> impl Iterator<Item = &'static str> {
    SESSION_VERBS.iter().chain(GAME_VERBS).copied()
}
