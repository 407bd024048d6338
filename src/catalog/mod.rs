//! Every verb drumhead knows: its usage, the words it accepts (built from the
//! tables, so house rules show up in `help` and in binding), and the
//! resolver that carries it out. Built once per session from the verbs the
//! rule systems declare; binding a command here also brings in the facts
//! of every unit it names.

use std::rc::Rc;

pub(crate) use crate::answer::resolution::NamedUnit;
use crate::answer::resolution::{Effect, Resolution, Shown};
pub use crate::bind::UnitFact;
use crate::bind::{self, Bound, Vocab};
use crate::command::{ClauseKind, Command, Span, System, Word, WordKind};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};
use crate::meta::MetaVerb;

mod said;
mod units;
pub(crate) use said::{OVERRIDE, Said, stated_row};
pub(crate) use units::Named;
pub use units::{NoUnits, UnitFacts, Units};

/// What a resolver is given: the command and its bound words. Its tables
/// are its own system's, held by the resolver itself.
pub(crate) struct Input<'a> {
    /// The rule system the line is resolved under.
    pub(crate) system: System,
    pub(crate) command: &'a Command,
    pub(crate) line: &'a str,
    pub words: Bound,
    /// Each clause with its kind, the span of its `at`/`vs` word, and its words.
    pub(crate) clauses: Vec<(ClauseKind, Span, Bound)>,
    /// Every unit the command named, with all the facts it brings (typed,
    /// whatever its side's vocabulary reads): for verbs that read their
    /// own notation, and for sides that name several units.
    pub(crate) named: Vec<Named>,
    /// Whether resolutions keep their explanation (rows, notes): not under
    /// `odds`, which reads only outcomes and measures.
    pub(crate) explain: bool,
    /// Whether a game keeps the units' state (`--game FILE`): where none
    /// does, what the umpire states of a unit's state stands.
    pub(crate) kept: bool,
    /// The sides of the game's armies under this rule system, in the order
    /// loaded (empty without a game).
    pub(crate) sides: Vec<String>,
    /// This command's number among every command bound in the process,
    /// which keys what a resolver works out before its first die
    /// ([`Memo`]).
    pub(crate) serial: u64,
}

/// Numbers commands as they are bound (see [`Input::serial`]).
static SERIALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many commands this process has bound to resolve, on any thread:
/// each line resolved once counts one (`drumhead serve --stats`).
pub(crate) fn commands_bound() -> u64 {
    SERIALS.load(std::sync::atomic::Ordering::Relaxed)
}

/// What one resolver works out before its first die, kept for the next
/// run of the same command: `odds` runs a command once per way the dice
/// fall. One slot per resolver and thread, of the resolver's own type (the
/// [`memoized!`](crate::memoized) macro declares it), holding the work of
/// the last command it ran, by its serial.
pub(crate) struct Memo<T>(std::cell::RefCell<Option<(u64, Rc<T>)>>);

impl<T> Default for Memo<T> {
    fn default() -> Memo<T> {
        Memo::new()
    }
}

impl<T> Memo<T> {
    pub(crate) const fn new() -> Memo<T> {
        Memo(std::cell::RefCell::new(None))
    }

    /// The work for `input`: kept from its last run, or done now.
    pub(crate) fn get(
        &self,
        input: &Input,
        work: impl FnOnce() -> Result<T, CommandError>,
    ) -> Result<Rc<T>, CommandError> {
        let kept = match &*self.0.borrow() {
            Some((serial, kept)) if *serial == input.serial => Some(kept.clone()),
            _ => None,
        };
        if let Some(kept) = kept {
            return Ok(kept);
        }
        let made = Rc::new(work()?);
        *self.0.borrow_mut() = Some((input.serial, made.clone()));
        Ok(made)
    }
}

/// `memoized!(input, Type, || work)`: what a resolver works out before its
/// first die, done on the first run of a command and kept for the next
/// ([`Memo`]), as `Result<Rc<Type>, CommandError>`.
#[macro_export]
macro_rules! memoized {
    ($input:expr, $ty:ty, $work:expr) => {{
        thread_local! {
            static SLOT: $crate::catalog::Memo<$ty> = const { $crate::catalog::Memo::new() };
        }
        SLOT.with(|slot| slot.get($input, $work))
    }};
}

impl Input<'_> {
    /// A resolution of this command under its rule system, explained or not
    /// as the command was prepared.
    pub(crate) fn resolution<E>(
        &self,
        verb: &'static str,
        heading: impl Into<String>,
    ) -> Resolution<E> {
        Resolution::new(self.system, verb, heading, self.explain)
    }

    /// Where a missing word would go.
    pub(crate) fn missing_span(&self) -> Span {
        bind::missing_span(self.command, self.line)
    }

    pub(crate) fn missing(&self, what: impl Into<String>) -> CommandError {
        BindError::Missing {
            span: self.missing_span(),
            what: what.into(),
        }
        .into()
    }

    /// The units named on one side (`None`: the acting side; `Some(i)`:
    /// the i-th clause), in the order named.
    pub(crate) fn named_on(&self, clause: Option<usize>) -> impl Iterator<Item = &Named> {
        self.named.iter().filter(move |n| n.clause == clause)
    }

    /// The words of the first clause of a kind, if any.
    pub(crate) fn clause(&self, kind: ClauseKind) -> Option<&Bound> {
        self.clauses
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map(|(_, _, b)| b)
    }
}

/// Carries out one verb: a function of the command and the dice, which
/// holds its own system's tables.
/// A resolver makes its rule system's own effects (`E`); the catalog keeps
/// every verb's resolver with its effects shown ([`VerbDoc::shown`]), and a
/// game keeps its system's verbs typed, to apply what they do.
pub(crate) type Resolver<E = Shown> =
    Rc<dyn Fn(&Input, &mut dyn DiceSource) -> Result<Resolution<E>, CommandError>>;

pub struct VerbDoc<E = Shown> {
    /// `None`: the verb works under every rule system.
    pub system: Option<System>,
    pub name: &'static str,
    pub(crate) usage: &'static str,
    /// One line; may quote the tables' numbers, so house rules show.
    pub(crate) summary: String,
    pub examples: &'static [&'static str],
    pub vocab: Vocab,
    /// The clauses the verb takes, each with the words it accepts.
    pub clauses: Vec<(ClauseKind, Vocab)>,
    /// How many clauses of those kinds may be given at most.
    pub(crate) max_clauses: usize,
    /// The verb may name units that can no longer act (the fate of the
    /// fallen after a battle).
    pub takes_fallen: bool,
    pub(crate) resolve: Resolver<E>,
}

impl<E: Effect + Clone + 'static> VerbDoc<E> {
    /// The verb with its effects shown, as the catalog keeps every verb.
    pub(crate) fn shown(self) -> VerbDoc {
        let resolve = self.resolve;
        VerbDoc {
            system: self.system,
            name: self.name,
            usage: self.usage,
            summary: self.summary,
            examples: self.examples,
            vocab: self.vocab,
            clauses: self.clauses,
            max_clauses: self.max_clauses,
            takes_fallen: self.takes_fallen,
            resolve: Rc::new(move |input, dice| resolve(input, dice).map(Resolution::shown)),
        }
    }
}

impl<E> VerbDoc<E> {
    pub(crate) fn new(
        system: Option<System>,
        name: &'static str,
        usage: &'static str,
        summary: impl Into<String>,
        vocab: Vocab,
        resolve: impl Fn(&Input, &mut dyn DiceSource) -> Result<Resolution<E>, CommandError> + 'static,
    ) -> VerbDoc<E> {
        VerbDoc {
            system,
            name,
            usage,
            summary: summary.into(),
            examples: &[],
            vocab,
            clauses: Vec::new(),
            max_clauses: 0,
            takes_fallen: false,
            resolve: Rc::new(resolve),
        }
    }

    /// The verb may name units that can no longer act.
    pub(crate) fn takes_fallen(mut self) -> VerbDoc<E> {
        self.takes_fallen = true;
        self
    }

    /// Every fact word this verb reads, on any side.
    pub fn reads_fact(&self, word: &str) -> bool {
        std::iter::once(&self.vocab)
            .chain(self.clauses.iter().map(|(_, v)| v))
            .any(|v| v.find(word).is_some() || v.number_fact == Some(word))
    }

    pub(crate) fn examples(mut self, examples: &'static [&'static str]) -> VerbDoc<E> {
        self.examples = examples;
        self
    }

    /// The verb with the other names its words go by (see
    /// [`Vocab::with_aliases`]), in every clause.
    pub(crate) fn with_aliases(
        mut self,
        aliases: &std::collections::BTreeMap<String, Vec<String>>,
    ) -> VerbDoc<E> {
        self.vocab = self.vocab.with_aliases(aliases);
        self.clauses = self
            .clauses
            .into_iter()
            .map(|(kind, vocab)| (kind, vocab.with_aliases(aliases)))
            .collect();
        self
    }

    pub(crate) fn clause(mut self, kind: ClauseKind, vocab: Vocab, max: usize) -> VerbDoc<E> {
        self.clauses.push((kind, vocab));
        self.max_clauses = max;
        self
    }
}

mod lazy;

pub(crate) use lazy::SystemVerbs;
pub(crate) use lazy::{TypedVerbs, VerbShelf};

/// Every verb a session knows. The verbs of `roll`, which work under
/// every rule book, are made at once; each rule system's are made the
/// first time a line needs them, since making them builds every word of
/// its tables (a one-shot command needs one system's).
pub struct Catalog {
    common: Vec<VerbDoc>,
    systems: Vec<SystemVerbs>,
    /// The rule books lines may be resolved under.
    pub books: Vec<System>,
    /// The front end's tasks (`drumhead sheet`), when a line is given on
    /// its command line: an unknown verb may be a misspelt task.
    pub(crate) tasks: Vec<String>,
}

impl Catalog {
    pub(crate) fn new(
        common: Vec<VerbDoc>,
        systems: Vec<SystemVerbs>,
        books: Vec<System>,
    ) -> Catalog {
        Catalog {
            common,
            systems,
            books,
            tasks: Vec::new(),
        }
    }

    /// Every verb, in order: those of every book, then each system's.
    pub fn verbs(&self) -> impl Iterator<Item = &VerbDoc> {
        self.common
            .iter()
            .chain(self.systems.iter().flat_map(|s| s.verbs()).map(|v| &**v))
    }

    /// The verbs usable under one rule book, in the order of [`verbs`](Self::verbs).
    pub fn for_system(&self, system: System) -> impl Iterator<Item = &VerbDoc> {
        let own = self
            .systems
            .iter()
            .filter(move |s| s.books.contains(&system))
            .flat_map(|s| s.verbs())
            .map(|v| &**v);
        self.common
            .iter()
            .chain(own)
            .filter(move |v| v.system.is_none_or(|s| s == system))
    }

    pub(crate) fn find(&self, system: System, verb: &str) -> Option<&VerbDoc> {
        let own = self
            .systems
            .iter()
            .filter(|s| s.books.contains(&system))
            .flat_map(|s| s.named(verb))
            .map(|v| &**v);
        self.common
            .iter()
            .chain(own)
            .find(|v| v.name == verb && v.system.is_none_or(|s| s == system))
    }

    /// A verb this book does not know: said to be another book's when it is,
    /// with the nearest verb of this book or of the session otherwise.
    pub(crate) fn unknown_verb(
        &self,
        system: System,
        verb: &str,
        span: crate::command::Span,
    ) -> BindError {
        let elsewhere = self
            .verbs()
            .filter_map(|v| v.system)
            .filter(|b| *b != system)
            .find(|b| self.find(*b, verb).is_some());
        if let Some(book) = elsewhere {
            return BindError::NotHere {
                kind: ErrorKind::WrongSystem,
                span,
                text: verb.to_string(),
                why: format!(
                    "is a {} verb, and this line is resolved under {}: start the line with `{}`",
                    book.title(),
                    system.title(),
                    book.id()
                ),
            };
        }
        if session_verbs().any(|v| v == verb) {
            return BindError::NotHere {
                kind: ErrorKind::MisplacedWord,
                span,
                text: verb.to_string(),
                why: "comes only at the start of a line (`odds COMMAND`, `simulate N COMMAND`, `help VERB`)".into(),
            };
        }
        let names: Vec<&str> = self
            .for_system(system)
            .map(|v| v.name)
            .chain(MetaVerb::ALL.into_iter().flat_map(MetaVerb::names))
            .collect();
        let tasks = self.tasks.iter().map(String::as_str);
        let nearest = crate::bind::nearest(verb, names.iter().copied().chain(tasks));
        BindError::UnknownVerb {
            span,
            verb: verb.to_string(),
            system: system.title(),
            // A task is a command of its own, not a line's verb.
            suggestion: nearest.map(|n| {
                if names.contains(&n.as_str()) {
                    n
                } else {
                    format!("drumhead {n}")
                }
            }),
        }
    }

    /// Bind a command's words (and the facts of any units it names) and
    /// run its resolver.
    pub fn resolve(
        &self,
        system: System,
        command: &Command,
        line: &str,
        units: &dyn Units,
        dice: &mut dyn DiceSource,
    ) -> Result<Resolution, CommandError> {
        self.prepare(system, command, line, units, true)?.run(dice)
    }

    /// Bind a command once, to run it against dice as often as needed
    /// (`odds` runs it once per way the dice can fall, unexplained).
    pub(crate) fn prepare<'a>(
        &'a self,
        system: System,
        command: &'a Command,
        line: &'a str,
        units: &dyn Units,
        explain: bool,
    ) -> Result<Prepared<'a>, CommandError> {
        let doc = self
            .find(system, &command.verb)
            .ok_or_else(|| self.unknown_verb(system, &command.verb, command.verb_span))?;
        let mut named = Vec::new();
        let mut facts = Vec::new();
        let mut said = Said::default();
        let words = bind_side(
            &command.words,
            doc,
            &doc.vocab,
            system,
            units,
            None,
            (&mut named, &mut facts, &mut said),
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
                doc,
                vocab,
                system,
                units,
                Some((i, clause.kind)),
                (&mut named, &mut facts, &mut said),
            )?;
            clauses.push((clause.kind, clause.span, bound));
        }
        let input = Input {
            system,
            command,
            line,
            words,
            clauses,
            named: facts,
            explain,
            kept: units.keeps_state(),
            sides: units.sides(system),
            serial: SERIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        Ok(Prepared {
            resolve: doc.resolve.clone(),
            name: doc.name,
            input,
            named,
            said,
        })
    }
}

/// A bound command, ready to resolve against dice.
pub struct Prepared<'a> {
    resolve: Resolver,
    name: &'static str,
    input: Input<'a>,
    named: Vec<NamedUnit>,
    /// Words typed over the units' facts, or states stated, as binding
    /// found them.
    said: Said,
}

impl Prepared<'_> {
    pub(crate) fn run(&self, dice: &mut dyn DiceSource) -> Result<Resolution, CommandError> {
        self.run_with(&self.resolve, dice)
    }

    /// The verb's book and name, for a game to find its own typed resolver.
    pub(crate) fn verb(&self) -> (System, &'static str) {
        (self.input.system, self.name)
    }

    /// Run the command with `resolve`: the verb's resolver as its rule
    /// system made it (a game's, whose effects it applies typed), or as the
    /// catalog keeps it.
    pub(crate) fn run_with<E>(
        &self,
        resolve: &Resolver<E>,
        dice: &mut dyn DiceSource,
    ) -> Result<Resolution<E>, CommandError> {
        let mut res = resolve(&self.input, dice)?;
        // Under `odds` nothing is shown and no effect is kept: the units
        // named matter only to those.
        if res.quiet {
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
                crate::answer::resolution::Row::plain(
                    format!("from {} ({})", unit.id, unit.name),
                    facts,
                ),
            );
        }
        self.said.clone().show(&mut res, named.len());
        res.units = named;
        Ok(res)
    }
}

/// Bind one side's words: unit ids are taken out and replaced by the facts
/// they stand for, after the typed words (which win).
fn bind_side(
    words: &[Word],
    doc: &VerbDoc,
    vocab: &Vocab,
    system: System,
    units: &dyn Units,
    clause: Option<(usize, ClauseKind)>,
    (named, all, said): (&mut Vec<NamedUnit>, &mut Vec<Named>, &mut Said),
) -> Result<Bound, BindError> {
    let verb = doc.name;
    let (typed, found) = units_in(words, doc, vocab, system, units)?;
    let mut bound = bind::bind(&typed, vocab, verb).map_err(|e| suggest_units(e, units))?;
    // A word typed beside a unit may not say what the unit is not: the
    // typed word would win over its list without a word said about it.
    said::check_side(&found, &bound, (system, verb), units, said)?;
    let stating = bound.facts.iter().any(|f| !f.implied);
    for (facts, span) in found {
        let applied = bring_facts(&mut bound, &facts, span, vocab, verb, said)?;
        named.push(NamedUnit {
            clause,
            id: facts.id.clone(),
            name: facts.name.clone(),
            applied,
        });
        // Where no game keeps the state, a stated one is checked against
        // the states the unit's list allows at all.
        let possible = if stating && !units.keeps_state() {
            units.possible_words(system, &facts.id)
        } else {
            Vec::new()
        };
        let side = units.side_of(&facts.id);
        all.push(Named {
            clause: clause.map(|(i, _)| i),
            span,
            facts,
            possible,
            side,
        });
    }
    Ok(bound)
}

/// The words of a side with the units named among them found: the words
/// to bind (borrowed as typed; a unit's number stands in the place of its
/// name, as the one word made here), and each unit with where it stands.
fn units_in<'w>(
    words: &'w [Word],
    doc: &VerbDoc,
    vocab: &Vocab,
    system: System,
    units: &dyn Units,
) -> Result<UnitsIn<'w>, BindError> {
    let mut typed: Vec<std::borrow::Cow<'w, Word>> = Vec::with_capacity(words.len());
    let mut found: Vec<(UnitFacts, Span)> = Vec::new();
    for word in words {
        let Some(facts) = unit_named(word, vocab, system, units)? else {
            typed.push(std::borrow::Cow::Borrowed(word));
            continue;
        };
        if let Some(why) = facts.out_of_action.as_ref().filter(|_| !doc.takes_fallen) {
            return Err(BindError::NotHere {
                kind: ErrorKind::OutOfAction,
                span: word.span,
                text: word.text.to_string(),
                why: format!("{why}, and cannot act (`undo` takes back what did it)"),
            });
        }
        // A verb that reads a number (a combat factor, a morale rating, a
        // courage value) gets the unit's, in its place.
        if let Some(n) = vocab.number_fact.and_then(|f| facts.value(f)) {
            let text = compact_str::ToCompactString::to_compact_string(&n);
            typed.push(std::borrow::Cow::Owned(Word {
                span: word.span,
                kind: crate::parse::classify(&text),
                text,
            }));
        }
        found.push((facts, word.span));
    }
    Ok((typed, found))
}

/// The words to bind, and the units found among them.
type UnitsIn<'w> = (Vec<std::borrow::Cow<'w, Word>>, Vec<(UnitFacts, Span)>);

/// The unit a bare word names, if it is one the verb does not know as a
/// word; a unit of another book's army is refused.
fn unit_named(
    word: &Word,
    vocab: &Vocab,
    system: System,
    units: &dyn Units,
) -> Result<Option<UnitFacts>, BindError> {
    let WordKind::Keyword { name, value: None } = &word.kind else {
        return Ok(None);
    };
    if vocab.find(name).is_some() {
        return Ok(None);
    }
    let unit = units.unit(system, name);
    if unit.is_none()
        && let Some(book) = units.book_of(name).filter(|b| *b != system)
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::WrongSystem,
            span: word.span,
            text: word.text.to_string(),
            why: format!(
                "is a unit of a {} army, and this line is resolved under {}: start the line with `{}`",
                book.title(),
                system.title(),
                book.id()
            ),
        });
    }
    Ok(unit)
}

/// A named unit's facts added to the side's words where none typed says
/// otherwise (a typed word in place of one is noted as overridden): what
/// it applied, its number first.
fn bring_facts(
    bound: &mut Bound,
    facts: &UnitFacts,
    span: Span,
    vocab: &Vocab,
    verb: &str,
    said: &mut Said,
) -> Result<Vec<String>, BindError> {
    let implied = bind::add_implied(bound, &facts.facts, vocab, span, verb)?;
    let mut applied = implied.applied;
    for (fact, typed, word) in implied.displaced {
        if said
            .noted
            .iter()
            .any(|(id, w)| *id == facts.id && *w == word)
        {
            continue;
        }
        said.overridden.push(format!(
            "`{typed}` typed in place of `{fact}`, which `{}` ({}) brings",
            facts.id, facts.name
        ));
    }
    if let Some(f) = vocab.number_fact
        && let Some(n) = facts.value(f)
    {
        applied.insert(0, n.to_string());
    }
    Ok(applied)
}

/// An unknown word may be a misspelt unit id.
fn suggest_units(e: BindError, units: &dyn Units) -> BindError {
    match e {
        BindError::UnknownWord {
            span,
            word,
            verb,
            suggestion: None,
        } => {
            let ids = units.ids();
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

/// The usage and text of a session verb (or the REPL's), for `help VERB`.
pub(crate) fn session_doc(name: &str) -> Option<(&'static str, &'static str)> {
    MetaVerb::typed(name).map(|v| (v.usage(), v.about()))
}

/// Words the parser reads itself wherever they stand.
const LINE_WORDS: &[&str] = &["at", "vs", "rolled", "roll-rest", "compare"];

/// Every word a command line can hold for these verbs: a unit id equal to
/// one could never be named (the word would be read instead).
pub(crate) fn words_of<'a>(
    verbs: impl Iterator<Item = &'a VerbDoc>,
) -> std::collections::BTreeSet<String> {
    // Every verb of the session's and the REPL's, by each of its names.
    let mut words: std::collections::BTreeSet<String> = MetaVerb::ALL
        .into_iter()
        .flat_map(MetaVerb::names)
        .chain(LINE_WORDS.iter().copied())
        .map(str::to_string)
        .collect();
    for doc in verbs {
        words.insert(doc.name.to_string());
        for vocab in std::iter::once(&doc.vocab).chain(doc.clauses.iter().map(|(_, v)| v)) {
            words.extend(vocab.entries.iter().map(|e| e.name.clone()));
        }
    }
    words
}

/// Every verb that is not a rule system's: for suggestions and completion.
pub fn session_verbs() -> impl Iterator<Item = &'static str> {
    MetaVerb::ALL
        .into_iter()
        .filter(|v| v.of_session())
        .map(MetaVerb::name)
}
