//! The contract between the core and a rule system.
//!
//! A rule system (Drums and Muskets, Musket Mayhem, Musket & Saber…) lives
//! in a folder of its own and owns everything about itself: its rule books,
//! its table files, its verbs, its army-list schema, the facts its units
//! bring to a command, the effects its resolutions have and the state its
//! units keep in a game. It tells the core about them through the traits
//! here, and the core — parse, bind, dice, odds, render, session, game,
//! army loading — loops over a [`Registry`] and names none of their words.
//!
//! The shipped list is the `systems` module; a program (or a test) may register
//! another system beside them with [`Registry::with`].

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::answer::resolution::{Resolution, SystemEffect};
use crate::army::{Army, Schema};
use crate::carry::{Carry, Close, Fought};
use crate::catalog::{Prepared, TypedVerbs, UnitFact, UnitFacts, VerbDoc, VerbShelf};
use crate::command::{Command, System, Word};
use crate::dice::DiceSource;
use crate::error::{CommandError, TableError};
use crate::tables::{HouseTable, TableFile, TableSource};

/// A rule system as drumhead knows it before any table is read.
pub trait RuleSystem: Sync {
    /// What the system is called where its books are not told apart
    /// ("Musket & Saber").
    fn name(&self) -> &'static str;

    /// The rule books it resolves lines under (most have one).
    fn books(&self) -> &'static [System];

    /// The table files it reads, with their embedded text.
    fn table_files(&self) -> &'static [TableFile];

    /// Read and check its tables from `source`.
    fn load(&'static self, source: &TableSource) -> Result<Rc<dyn RuleSet>, TableError>;

    /// Its army lists: the kinds of entry and how each is read.
    fn army(&self) -> &'static dyn Schema;

    /// The quick-reference sheet of one of its books, from its tables as
    /// `source` gives them, in its rule text's order and words (`None`:
    /// the system prints no sheet). The core marks what house rules changed.
    fn sheet(
        &self,
        _book: System,
        _source: &TableSource,
    ) -> Option<Result<crate::sheet::Sheet, TableError>> {
        None
    }
}

/// A rule system with its tables in force.
pub trait RuleSet {
    fn system(&self) -> &'static dyn RuleSystem;

    /// Its verbs, their words built from the tables: each made when a
    /// line first needs it, and shared by the catalog, the game and the
    /// check that no unit id is a word ([`TypedVerbs`]).
    fn verbs(&self) -> &dyn VerbShelf;

    /// `set WORD VALUE`: a session setting the system keeps. `None` when
    /// the word is not one of its settings; otherwise the rule set with
    /// the setting made, and what to tell the user.
    fn set(
        &self,
        _setting: &Word,
        _value: Option<&Word>,
        _line: &str,
    ) -> Option<Result<Setting, CommandError>> {
        None
    }

    /// The settings `set` takes, for help: (usage, what it does).
    fn settings(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// What a game keeps of the armies of this system: each with its index
    /// among the game's armies ([`Live::part`] of its [`GameState`]).
    fn game(&self, armies: &[(usize, &Army)]) -> Box<dyn GamePart>;
}

/// A setting made: the rule set with it, and what to tell the user.
pub(crate) type Setting = (Rc<dyn RuleSet>, String);

/// The changeable state one rule system keeps of a game's units: a plain
/// value, apart from the system's tables and the game's army lists (its
/// [`Context`](GameState::Context), which it is read against and never
/// owns). Applying an effect changes it; serialized whole it is the
/// game's checkpoint of the system, read back into a fresh part of the
/// same armies. The game holds it through [`Live`], which also resolves
/// the system's lines in the game, so that the effects its resolvers make
/// are applied as they were made: typed, never read back.
pub(crate) trait GameState: Clone + serde::Serialize + DeserializeOwned + 'static {
    /// What the system's resolutions do to its units.
    type Effect: SystemEffect + DeserializeOwned + Clone;

    /// The tables and army lists the state is read against.
    type Context: 'static;

    /// What the state says of the game, read against its context.
    fn view<'a>(&'a self, context: &'a Self::Context) -> Box<dyn GameView + 'a>;

    /// Apply one effect, to a unit or (with `None`) to the state itself.
    fn apply(
        &mut self,
        context: &Self::Context,
        unit: Option<&str>,
        effect: &Self::Effect,
    ) -> Result<(), String>;

    /// The turn ends: per-turn facts are cleared (by default, none are kept).
    fn next_turn(&mut self, _context: &Self::Context) {}

    /// Every id the state keeps something of, each with the kind of list
    /// entry it is kept as (`unit`, `general`, `figure`…): a checkpoint
    /// naming one that no army of the game has is refused by the core.
    fn named(&self) -> Vec<(&'static str, &str)>;

    /// What else a checkpoint read back must hold to (a unit's steps lost
    /// within its steps): an error says why not.
    fn check(&self, _context: &Self::Context) -> Result<(), String> {
        Ok(())
    }

    /// What one effect does, in words, for the answer's notes: the
    /// effect's own words, unless the state can say more (an army by its
    /// name rather than its place).
    fn describe(
        &self,
        _context: &Self::Context,
        unit: Option<&str>,
        effect: &Self::Effect,
    ) -> String {
        effect.describe(unit)
    }

    /// A campaign's close: what this part's armies carry to the next
    /// battle ([`Carry`]), from the state now and the battle's effects in
    /// force in the order they were made, dicing with `dice` where the
    /// rules dice after a battle (in roster order). By default nothing is
    /// carried: each list stays as it was.
    fn carry(
        &self,
        _context: &Self::Context,
        _fought: &[Fought<Self::Effect>],
        _close: &Close<'_>,
        _dice: &mut dyn DiceSource,
    ) -> Result<Carry, String> {
        Ok(Carry::default())
    }
}

/// What one rule system's state says of a game, read against its tables
/// and army lists ([`GameState::view`]).
pub trait GameView {
    /// A unit's facts as they stand, if the unit is one of this part's.
    fn facts(&self, id: &str) -> Option<UnitFacts>;

    /// Every fact the unit could bring in any state of the game, for the
    /// check that some verb reads each (by default, those it brings now).
    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        self.facts(id).map(|f| f.facts).unwrap_or_default()
    }

    /// Why the unit can no longer act (killed, broken, eliminated…), if so.
    fn out_of_action(&self, _id: &str) -> Option<String> {
        None
    }

    /// A word typed beside the unit's id that says what its list or the
    /// game says it is not: the fact it contradicts, in words, and whether
    /// the fact is its list's (the game then names the list's file) rather
    /// than the game's. `None` where the word agrees, or the part does not
    /// check.
    fn contradicts(
        &self,
        _id: &str,
        _verb: &str,
        _word: &str,
        _value: Option<i64>,
    ) -> Option<(String, bool)> {
        None
    }

    /// What a new turn clears or brings back, in the rules' words, if anything.
    fn next_turn_text(&self) -> Option<String> {
        None
    }

    /// The `units` table of one army (by its index in the game).
    fn roster(&self, army: usize) -> Option<Roster>;

    /// The printed roster of one army: its lines grouped by command, each
    /// with its factors and boxes to pencil in. Without one of its own, a
    /// system's `units` table is printed as it is, in one group.
    fn printed(&self, army: usize) -> Option<PrintedArmy> {
        let roster = self.roster(army)?;
        let columns = roster
            .header
            .iter()
            .skip(2)
            .map(|h| h.to_string())
            .collect();
        let lines = roster
            .rows
            .into_iter()
            .map(|mut row| {
                let rest = row.split_off(2.min(row.len()));
                let mut head = row.into_iter();
                crate::answer::Line {
                    id: head.next().unwrap_or_default(),
                    name: head.next().unwrap_or_default(),
                    cells: rest,
                    ..Default::default()
                }
            })
            .collect();
        Some(PrintedArmy {
            columns,
            commands: vec![crate::answer::Commanded {
                heading: String::new(),
                lines,
            }],
            notes: roster.notes,
        })
    }

    /// Everything known of one unit, as rows, for `show`.
    fn show(&self, id: &str) -> Option<Vec<(String, String)>>;

    /// What the rules do at the end of a turn.
    fn end_turn(&self) -> String;

    /// The state as the game file shows it to its readers, where it shows
    /// more than the value (what the value comes to for each unit of the
    /// lists). `None`: the value itself, as the checkpoint keeps it.
    fn state(&self) -> Option<serde_json::Value> {
        None
    }

    /// A line this system reads differently in a game: `initiative` alone
    /// stands for each army's pool. Returns the command it stands for.
    fn expand(&self, _command: &Command, _line: &str) -> Option<Command> {
        None
    }

    /// An outcome's id as `log` names it, where the id stands for a side
    /// (`a`, `b`) that the line names by its units or the game by its
    /// armies: `Prussia`, `aus-1`. `None` where the id says it all.
    fn outcome_named(&self, _command: &Command, _outcome: &str) -> Option<String> {
        None
    }
}

/// A rule system's part of a game as the game holds it: its state, the
/// context it is read against, and its verbs as the system made them,
/// whose effects it applies.
pub(crate) struct Live<S: GameState> {
    state: S,
    context: Rc<S::Context>,
    /// The system's name and each entry of its armies' lists (its id and
    /// kind), for the check of a checkpoint read back.
    members: Rc<Members>,
    /// Its rule set's verbs, made when a line first needs each, and shared
    /// with the catalog and the part's snapshots.
    verbs: Rc<TypedVerbs<S::Effect>>,
    /// The effects of the line it resolved last, each with its unit, until
    /// the game records the line ([`GamePart::apply_resolved`]).
    resolved: Vec<(Option<String>, S::Effect)>,
}

/// What a checkpoint may name: the entries of a part's army lists.
struct Members {
    system: &'static str,
    /// Each entry's id and kind (`unit`, `general`…).
    ids: Vec<(String, &'static str)>,
}

impl<S: GameState> Live<S> {
    /// The part of a game of `armies` (the system's own, each with its
    /// index in the game) that `state` keeps, read against `context`,
    /// resolving with `verbs`: its rule set's, made when a line first
    /// needs each.
    pub(crate) fn part(
        system: &'static dyn RuleSystem,
        armies: &[(usize, &Army)],
        context: S::Context,
        state: S,
        verbs: Rc<TypedVerbs<S::Effect>>,
    ) -> Box<dyn GamePart> {
        Box::new(Live {
            state,
            context: Rc::new(context),
            members: Rc::new(Members {
                system: system.name(),
                ids: armies.iter().flat_map(|(_, a)| a.ids()).collect(),
            }),
            verbs,
            resolved: Vec::new(),
        })
    }
}

/// The part of a game one rule system keeps, as the game holds every
/// system's: [`Live`] over the system's [`GameState`].
pub trait GamePart {
    /// A copy of the part as it stands, to go back to (`undo`).
    fn snapshot(&self) -> Box<dyn GamePart>;

    /// Resolve a prepared line with this system's own resolver, keeping
    /// its effects until the game records the line. `None` when the verb
    /// is not this system's.
    fn resolve(
        &mut self,
        prepared: &Prepared,
        dice: &mut dyn DiceSource,
    ) -> Option<Result<Resolution, CommandError>>;

    /// The effects of the line resolved last, in words, as this part
    /// names what they fall on.
    fn describe_resolved(&self) -> Vec<String>;

    /// Apply the effects of the line resolved last (the game has recorded
    /// it); how many there were.
    fn apply_resolved(&mut self) -> Result<usize, String>;

    /// Apply one effect as a journal kept it (a game folded from its
    /// journal), to a unit or (with `None`) to the part itself.
    fn apply_recorded(
        &mut self,
        unit: Option<&str>,
        effect: &serde_json::Value,
    ) -> Result<(), String>;

    /// The turn ends.
    fn next_turn(&mut self);

    /// What the part's state says, read against its tables and lists.
    fn view(&self) -> Box<dyn GameView + '_>;

    /// The state for the game file: as the system shows it
    /// ([`GameView::state`]), or the value itself.
    fn state(&self) -> serde_json::Value;

    /// The state value, for a checkpoint of the game: `restore` of it
    /// into a fresh part of the same armies gives this part back exactly.
    fn checkpoint(&self) -> Option<serde_json::Value>;

    /// Take the state a `checkpoint` wrote, into a fresh part of the same
    /// armies. A checkpoint that names an entry the armies do not have,
    /// or that cannot be read, is an error, and the part is left as it was.
    fn restore(&mut self, saved: &serde_json::Value) -> Result<(), String>;

    /// [`GameState::carry`], with the battle's effects as its journal
    /// keeps them (this part's only), each read into the system's type.
    fn carry(
        &self,
        fought: &[Fought<serde_json::Value>],
        close: &Close<'_>,
        dice: &mut dyn DiceSource,
    ) -> Result<Carry, String>;
}

impl<S: GameState> GamePart for Live<S> {
    fn snapshot(&self) -> Box<dyn GamePart> {
        Box::new(Live {
            state: self.state.clone(),
            context: self.context.clone(),
            members: self.members.clone(),
            verbs: self.verbs.clone(),
            resolved: Vec::new(),
        })
    }

    fn resolve(
        &mut self,
        prepared: &Prepared,
        dice: &mut dyn DiceSource,
    ) -> Option<Result<Resolution, CommandError>> {
        let (book, name) = prepared.verb();
        let resolve = self.verbs.resolver(book, name)?;
        Some(prepared.run_with(&resolve, dice).map(|res| {
            let (shown, effects) = res.split();
            self.resolved = effects;
            shown
        }))
    }

    fn describe_resolved(&self) -> Vec<String> {
        self.resolved
            .iter()
            .map(|(unit, effect)| self.state.describe(&self.context, unit.as_deref(), effect))
            .collect()
    }

    fn apply_resolved(&mut self) -> Result<usize, String> {
        let effects = std::mem::take(&mut self.resolved);
        for (unit, effect) in &effects {
            self.state.apply(&self.context, unit.as_deref(), effect)?;
        }
        Ok(effects.len())
    }

    fn apply_recorded(
        &mut self,
        unit: Option<&str>,
        effect: &serde_json::Value,
    ) -> Result<(), String> {
        let effect = S::Effect::deserialize(effect)
            .map_err(|e| format!("an effect this version does not know: {e}"))?;
        self.state.apply(&self.context, unit, &effect)
    }

    fn next_turn(&mut self) {
        self.state.next_turn(&self.context);
    }

    fn view(&self) -> Box<dyn GameView + '_> {
        self.state.view(&self.context)
    }

    fn state(&self) -> serde_json::Value {
        self.view()
            .state()
            .or_else(|| serde_json::to_value(&self.state).ok())
            .unwrap_or_default()
    }

    fn checkpoint(&self) -> Option<serde_json::Value> {
        serde_json::to_value(&self.state).ok()
    }

    fn restore(&mut self, saved: &serde_json::Value) -> Result<(), String> {
        let system = self.members.system;
        let state = from_object::<S>(saved)
            .map_err(|e| format!("the {system} checkpoint cannot be read: {e}"))?;
        for (kind, id) in state.named() {
            if !self.members.ids.iter().any(|(i, k)| i == id && *k == kind) {
                return Err(format!(
                    "the {system} checkpoint names {kind} `{id}` that no army of this game has"
                ));
            }
        }
        state
            .check(&self.context)
            .map_err(|e| format!("the {system} checkpoint {e}"))?;
        self.state = state;
        Ok(())
    }

    fn carry(
        &self,
        fought: &[Fought<serde_json::Value>],
        close: &Close<'_>,
        dice: &mut dyn DiceSource,
    ) -> Result<Carry, String> {
        let mut typed = Vec::with_capacity(fought.len());
        for f in fought {
            let effect = match &f.effect {
                None => None,
                Some((unit, json)) => Some((
                    unit.clone(),
                    S::Effect::deserialize(json).map_err(|e| {
                        format!(
                            "entry {}: an effect this version does not know: {e}",
                            f.entry
                        )
                    })?,
                )),
            };
            typed.push(Fought {
                entry: f.entry,
                effect,
            });
        }
        self.state.carry(&self.context, &typed, close, dice)
    }
}

/// A value read only from a JSON object, for [`GamePart::restore`]. Serde
/// reads a struct from an array of its fields as readily as from an
/// object; a checkpoint is written with objects only, so an array where
/// one belongs is a checkpoint of the wrong shape, and refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ObjectOnly<T>(pub T);

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for ObjectOnly<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Only<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Only<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        deserializer
            .deserialize_map(Only(std::marker::PhantomData))
            .map(ObjectOnly)
    }
}

/// A checkpoint read as `T`, from an object only ([`ObjectOnly`]).
pub(crate) fn from_object<T: serde::de::DeserializeOwned>(
    saved: &serde_json::Value,
) -> Result<T, serde_json::Error> {
    ObjectOnly::<T>::deserialize(saved).map(|ObjectOnly(t)| t)
}

/// A map of a checkpoint whose values are each read from an object only
/// ([`ObjectOnly`]): `#[serde(deserialize_with = "object_values")]`.
pub(crate) fn object_values<'de, D, T>(deserializer: D) -> Result<BTreeMap<String, T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    let map = BTreeMap::<String, ObjectOnly<T>>::deserialize(deserializer)?;
    Ok(map.into_iter().map(|(k, ObjectOnly(v))| (k, v)).collect())
}

/// One army's `units` table, in its system's own columns.
#[derive(Debug, Clone, Default)]
pub struct Roster {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Lines under the table (the army's generals).
    pub notes: Vec<String>,
    /// How the unit of each row stands, in the order of `rows`, in the
    /// system's own words: a row without one is fine (a system that
    /// marks none leaves it empty).
    pub status: Vec<crate::answer::report::UnitStatus>,
}

/// One army's printed roster, as its system lays it out: the columns of
/// its factors, its commands and their lines, and its notes.
#[derive(Debug, Clone, Default)]
pub struct PrintedArmy {
    pub columns: Vec<String>,
    pub commands: Vec<crate::answer::Commanded>,
    pub notes: Vec<String>,
}

/// The rule systems a program knows, in order: the first is the default.
#[derive(Clone)]
pub struct Registry {
    systems: Vec<&'static dyn RuleSystem>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.systems.iter().map(|s| s.name()))
            .finish()
    }
}

impl Registry {
    pub(crate) fn new(systems: Vec<&'static dyn RuleSystem>) -> Registry {
        Registry { systems }
    }

    /// These systems and one more (the tests' fifth system).
    #[cfg(test)]
    pub(crate) fn with(mut self, system: &'static dyn RuleSystem) -> Registry {
        self.systems.push(system);
        self
    }

    pub fn systems(&self) -> impl Iterator<Item = &'static dyn RuleSystem> + '_ {
        self.systems.iter().copied()
    }

    /// Every rule book, in order.
    pub fn books(&self) -> Vec<System> {
        self.systems
            .iter()
            .flat_map(|s| s.books().iter().copied())
            .collect()
    }

    /// The book of an id (`drums`, `saber-quickplay`).
    pub(crate) fn book(&self, id: &str) -> Option<System> {
        self.books().into_iter().find(|b| b.id() == id)
    }

    /// The book lines are resolved under when nothing says otherwise.
    pub fn default_book(&self) -> Option<System> {
        self.books().into_iter().next()
    }

    /// The system a book belongs to.
    pub(crate) fn system_of(&self, book: System) -> Option<&'static dyn RuleSystem> {
        self.systems().find(|s| s.books().contains(&book))
    }

    /// Every table file of every system, each once: a system's own files
    /// in the systems' order, then the files they share (`campaign.toml`).
    pub fn table_files(&self) -> Vec<TableFile> {
        let all = || {
            self.systems
                .iter()
                .flat_map(|s| s.table_files().iter().copied())
        };
        let mut files: Vec<TableFile> = all().filter(|f| f.sections.is_empty()).collect();
        for file in all().filter(|f| !f.sections.is_empty()) {
            if !files.iter().any(|f| f.name == file.name) {
                files.push(file);
            }
        }
        files
    }

    /// The sections of the shared table file `name` that some system reads.
    pub(crate) fn sections_of(&self, name: &str) -> Vec<&'static str> {
        self.systems
            .iter()
            .flat_map(|s| s.table_files().iter())
            .filter(|f| f.name == name)
            .flat_map(|f| f.sections.iter().copied())
            .collect()
    }

    /// Each system's tables, read from `source`.
    ///
    /// A house-rules directory is read and checked whole, now, so that a
    /// mistake in any of its files is reported whatever line comes next.
    /// The embedded tables alone are read only when a line first needs
    /// their system: a one-shot Drums and Muskets command then never reads
    /// the other systems' tables (the test suite loads every embedded set).
    pub fn load(&self, source: &TableSource) -> Result<Tables, TableError> {
        let files = self.table_files();
        source.check_names(&files)?;
        for file in files.iter().filter(|f| !f.sections.is_empty()) {
            source.check_sections(file, &self.sections_of(file.name))?;
        }
        let house = source.house_tables(&files)?;
        let sets = if source.is_embedded() {
            self.systems.iter().map(|_| OnceCell::new()).collect()
        } else {
            self.systems
                .iter()
                .map(|s| s.load(source).map(OnceCell::from))
                .collect::<Result<Vec<_>, _>>()?
        };
        Ok(Tables {
            registry: self.clone(),
            sets: Rc::new(sets),
            house: Rc::new(house),
        })
    }
}

/// Every rule system with its tables in force: what a session resolves with.
/// Clones share the sets read so far (see [`Registry::load`]).
#[derive(Clone)]
pub struct Tables {
    registry: Registry,
    /// One per system of the registry, in its order: read, or (embedded
    /// tables only) still to be read.
    sets: Rc<Vec<OnceCell<Rc<dyn RuleSet>>>>,
    /// The house table files in force, each whole (none: the embedded
    /// tables alone), for a game to record.
    house: Rc<Vec<HouseTable>>,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tables({:?})", self.registry)
    }
}

impl Tables {
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The rule set of the registry's `index`th system, read now if it
    /// has not been.
    pub(crate) fn set_at(&self, index: usize) -> Option<&Rc<dyn RuleSet>> {
        let system = *self.registry.systems.get(index)?;
        let cell = self.sets.get(index)?;
        Some(cell.get_or_init(|| {
            // Only the embedded tables are left to be read here: the
            // test suite reads every embedded set, so this cannot fail in
            // a build that passed it.
            system.load(&TableSource::embedded()).unwrap_or_else(|e| {
                panic!("the embedded tables of {} do not load: {e}", system.name())
            })
        }))
    }

    /// Every system's rule set (each read now if it has not been).
    pub(crate) fn sets(&self) -> impl Iterator<Item = &Rc<dyn RuleSet>> {
        (0..self.sets.len()).filter_map(|i| self.set_at(i))
    }

    pub fn books(&self) -> Vec<System> {
        self.registry.books()
    }

    pub fn book(&self, id: &str) -> Option<System> {
        self.registry.book(id)
    }

    /// Where a book's system stands in the registry.
    pub(crate) fn index_of(&self, book: System) -> Option<usize> {
        self.registry
            .systems
            .iter()
            .position(|s| s.books().contains(&book))
    }

    /// The rule set a book belongs to.
    pub(crate) fn set(&self, book: System) -> Option<&Rc<dyn RuleSet>> {
        self.set_at(self.index_of(book)?)
    }

    /// Put a rule set in place of its system's (after `set`).
    pub(crate) fn replace(&mut self, set: Rc<dyn RuleSet>) {
        let name = set.system().name();
        if let Some(index) = self.registry.systems.iter().position(|s| s.name() == name)
            && let Some(slot) = Rc::make_mut(&mut self.sets).get_mut(index)
        {
            *slot = OnceCell::from(set);
        }
    }

    /// The house table files in force, as a game records them.
    pub(crate) fn house(&self) -> &[HouseTable] {
        &self.house
    }

    /// Whether two are the same tables, read once (not only alike).
    pub(crate) fn same(&self, other: &Tables) -> bool {
        Rc::ptr_eq(&self.sets, &other.sets)
    }

    /// Every verb of every system.
    pub fn verbs(&self) -> Vec<Rc<VerbDoc>> {
        self.sets().flat_map(|set| set.verbs().all()).collect()
    }
}
