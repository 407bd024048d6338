//! Every verb drumhead knows: its usage, the words it accepts (built from the
//! tables, so house rules show up in `help` and in binding), and the
//! resolver that carries it out. Built once per session.

use crate::bind::{self, Bound, Vocab};
use crate::command::{ClauseKind, Command, Span, System};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::Resolution;
use crate::tables::Tables;

/// What a resolver is given: the command, its bound words, the tables.
pub struct Input<'a> {
    pub command: &'a Command,
    pub line: &'a str,
    pub words: Bound,
    /// Each clause with its kind, the span of its `at`/`vs` word, and its words.
    pub clauses: Vec<(ClauseKind, Span, Bound)>,
    pub tables: &'a Tables,
}

impl Input<'_> {
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
    pub summary: &'static str,
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
        summary: &'static str,
        vocab: Vocab,
        resolve: Resolver,
    ) -> VerbDoc {
        VerbDoc {
            system,
            name,
            usage,
            summary,
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

    /// Bind a command's words and run its resolver.
    pub fn resolve(
        &self,
        system: System,
        command: &Command,
        line: &str,
        tables: &Tables,
        dice: &mut dyn DiceSource,
    ) -> Result<Resolution, CommandError> {
        let doc = self.find(system, &command.verb).ok_or_else(|| {
            let names = self
                .for_system(system)
                .map(|v| v.name)
                .chain(SESSION_VERBS.iter().copied());
            BindError::UnknownVerb {
                span: command.verb_span,
                verb: command.verb.clone(),
                system: system.title(),
                suggestion: bind::nearest(&command.verb, names),
            }
        })?;
        let words = bind::bind(&command.words, &doc.vocab, doc.name)?;
        let mut clauses = Vec::new();
        for (i, clause) in command.clauses.iter().enumerate() {
            let vocab = doc
                .clauses
                .iter()
                .find(|(k, _)| *k == clause.kind)
                .map(|(_, v)| v)
                .filter(|_| i < doc.max_clauses)
                .ok_or_else(|| bind::clause_not_here(clause, doc.name))?;
            clauses.push((
                clause.kind,
                clause.span,
                bind::bind(&clause.words, vocab, doc.name)?,
            ));
        }
        let input = Input {
            command,
            line,
            words,
            clauses,
            tables,
        };
        (doc.resolve)(&input, dice)
    }
}

/// Verbs the session itself handles rather than a resolver.
pub const SESSION_VERBS: &[&str] = &["help", "odds", "set"];
