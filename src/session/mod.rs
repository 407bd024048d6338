//! A session: the loaded tables and catalog, the active rule system, the
//! seed, and entered dice waiting from `--dice`. Every front end (one-shot,
//! batch, REPL) feeds it lines and renders what comes back.

mod again;
pub(crate) mod explore;
#[cfg(feature = "native")]
mod recipe;
mod unused;
mod verbs;

use again::Again;
use verbs::{game_error, load_not_here, may_change_game};

use crate::answer::Kind;
use crate::answer::report::Report;
use crate::answer::resolution::Resolution;
use crate::catalog::{Catalog, NoUnits, Units};
use crate::command::{Command, EnteredDie, Mode, Span, System};
use crate::dice::Dice;
use crate::error::{BindError, CommandError, DiceError, ErrorKind};
use crate::game::{Game, GameError};
use crate::help;
use crate::meta::MetaVerb;
use crate::system::Tables;

pub use crate::answer::Answer as Output;
#[cfg(feature = "native")]
pub(crate) use recipe::Recipe;

/// The settings of the prompt's own display, as `set NAME [on|off]` (the
/// REPL's, which holds the style): each with what it does.
pub(crate) const DISPLAY_SETTINGS: &[(&str, &str)] = &[
    (
        "brief",
        "one line a resolution, as a dice bot writes it (--brief)",
    ),
    (
        "ascii",
        "plain ASCII: no box drawing, arrows or accented letters (--ascii)",
    ),
];

pub struct Session {
    pub(crate) tables: Tables,
    pub catalog: Catalog,
    pub rules: System,
    seed: u64,
    /// The line position of the next command: it rolls with seed + position.
    position: u64,
    /// Faces from `--dice`, used by the next draws of commands without `rolled`.
    pending: Vec<EnteredDie>,
    /// The armies and their state, when any are loaded.
    pub game: Option<Game>,
    /// Whether a long `simulate` may draw a progress bar on standard error.
    progress: bool,
    /// Whether `odds` keeps each outcome's measures, for the "at least"
    /// column of a table or a chart (`Odds::count`).
    count_values: bool,
    /// A journal entry is being resolved again (and how), not a line
    /// typed now.
    again: Option<Again>,
    /// The seed was chosen (`--seed`), not drawn: a game records it so.
    seed_chosen: bool,
}

impl Session {
    pub fn new(tables: Tables, rules: System, seed: u64) -> Session {
        let catalog = catalog(&tables);
        Session {
            tables,
            catalog,
            rules,
            seed,
            position: 0,
            pending: Vec::new(),
            game: None,
            progress: false,
            count_values: true,
            again: None,
            seed_chosen: false,
        }
    }

    /// The seed was chosen with `--seed` rather than drawn: each line a
    /// game records rolls from a seed someone picked, and it says so.
    pub(crate) fn seed_was_chosen(&mut self, yes: bool) {
        self.seed_chosen = yes;
    }

    /// Play a game: its units may be named in commands, and resolutions
    /// that name them change their state.
    pub fn with_game(mut self, game: Game) -> Session {
        self.adopt(game);
        self
    }

    fn adopt(&mut self, game: Game) {
        // A game is resolved under the tables it recorded when it began
        // (the tables given were checked against them when it opened).
        if !self.tables.same(game.tables()) {
            self.tables = game.tables().clone();
            self.catalog = catalog(&self.tables);
        }
        // A game of one rule system plays under it unless told otherwise.
        if let Some(first) = game.armies.first()
            && game.armies.iter().all(|a| a.rules == first.rules)
        {
            self.rules = first.rules;
        }
        self.game = Some(game);
    }

    /// Keep each outcome's measures under `odds` (on by default), for
    /// `Odds::count`: a front end that writes neither a table nor a chart
    /// turns it off, as it costs on every way the dice can fall.
    pub fn count_outcome_values(&mut self, yes: bool) {
        self.count_values = yes;
    }

    /// Let a long `simulate` draw a progress bar on standard error: for a
    /// front end that knows a person is watching a terminal.
    pub(crate) fn show_progress(&mut self, yes: bool) {
        self.progress = yes;
    }

    /// `load FILE` in the REPL: add an army list to the game in memory, or
    /// start one with it. A game kept in a file keeps the armies its
    /// journal began with, so it is refused there. On any error the game
    /// is as it was. Says what was loaded.
    pub fn load_army(&mut self, path: &std::path::Path) -> Result<String, GameError> {
        let text = crate::files::read_text(path, crate::limits::MAX_LIST_BYTES, "army list")
            .map_err(|e| GameError::Io(e.to_string()))?;
        let source = crate::game::ArmySource {
            file: path.display().to_string(),
            text,
        };
        if let Some(same) = self
            .game
            .iter()
            .flat_map(|g| g.sources.iter())
            .find(|s| s.text == source.text)
        {
            return Err(GameError::Usage(format!(
                "{} is already loaded (as {}): `units` lists its units",
                path.display(),
                same.file
            )));
        }
        let game = match &self.game {
            None => Game::new(vec![source], &self.tables)?,
            Some(old) => {
                if let Some(file) = &old.file {
                    return Err(GameError::Usage(format!(
                        "the game {} keeps the armies its journal began with; to play with this \
                         list too, start a new game: --game NEW.json --army … --army {}",
                        file.display(),
                        path.display()
                    )));
                }
                old.with_army(source)?
            }
        };
        let Some(army) = game.armies.last() else {
            return Err(GameError::Usage("the list loaded no army".into()));
        };
        let mut said = format!("loaded {}", crate::army::summary(army));
        let rules = self.rules;
        self.adopt(game);
        if self.rules != rules {
            said.push_str(&format!("; rules: {}", self.rules.title()));
        }
        Ok(said)
    }

    pub(crate) fn units(&self) -> &dyn Units {
        match &self.game {
            Some(game) => game,
            None => &NoUnits,
        }
    }

    /// Parse a line with the rule books this session knows.
    pub fn parse(&self, line: &str) -> Result<Option<Command>, CommandError> {
        Ok(crate::parse::parse_line(line, &self.catalog.books)?)
    }

    /// Entered dice for the next draws, as `--dice 4,3`.
    pub(crate) fn enter_dice(&mut self, faces: &[u32]) {
        self.pending.extend(faces.iter().map(|&face| EnteredDie {
            face,
            span: Span::default(),
        }));
    }

    /// `--dice` faces that no command used.
    pub(crate) fn unused_dice(&self) -> usize {
        self.pending.len()
    }

    /// Set the position of the next line (0-based). The line at position
    /// `k` rolls with `seed + k`, so any line can be reproduced on its own
    /// (`--seed` with the seed it reports) and a batch can be split
    /// between threads without changing a single die.
    pub(crate) fn seek(&mut self, position: u64) {
        self.position = position;
    }

    /// Make the next command roll from `seed` (replaying a journal entry
    /// that recorded it).
    pub(crate) fn set_next_seed(&mut self, seed: u64) {
        self.seed = seed.wrapping_sub(self.position);
    }

    /// The seed the next command's rolled dice will come from.
    pub(crate) fn next_seed(&self) -> u64 {
        self.seed.wrapping_add(self.position)
    }

    /// Read and carry out one line. `Ok(None)` for a blank or comment line.
    pub fn run_line(&mut self, line: &str) -> Result<Option<Output>, CommandError> {
        let parsed = self.parse(line);
        self.run(line, parsed, &|_| Ok(()))
    }

    /// Carry out one line as [`Session::parse`] read it, if `accepts` takes
    /// what it asks for (a front end's format, asked before the line runs,
    /// so that a line it cannot write changes no game).
    pub(crate) fn run(
        &mut self,
        line: &str,
        parsed: Result<Option<Command>, CommandError>,
        accepts: &dyn Fn(Kind) -> Result<(), CommandError>,
    ) -> Result<Option<Output>, CommandError> {
        self.run_to(line, parsed, accepts, None)
    }

    /// [`Session::run`], a sweep's rows given to `stream` as each is
    /// counted when there is one (its answer then has no rows of its own).
    pub(crate) fn run_to(
        &mut self,
        line: &str,
        parsed: Result<Option<Command>, CommandError>,
        accepts: &dyn Fn(Kind) -> Result<(), CommandError>,
        stream: Option<&mut dyn crate::answer::sweep::Rows>,
    ) -> Result<Option<Output>, CommandError> {
        let result = match parsed {
            Ok(Some(command)) => accepts(Self::kind_of(&command))
                .and_then(|()| self.run_command(line, &command, stream)),
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        if let Some(game) = &mut self.game {
            game.end_line();
        }
        self.position += 1;
        result
    }

    /// What a command asks for, as a format needs to know before it runs.
    pub(crate) fn kind_of(command: &Command) -> Kind {
        match (command.mode, MetaVerb::named(&command.verb)) {
            (Mode::Odds, _) => Kind::Odds,
            (_, Some(MetaVerb::Help)) => Kind::Report,
            (Mode::Resolve, Some(verb)) => verb.kind(),
            _ => Kind::Resolution,
        }
    }

    fn run_command(
        &mut self,
        line: &str,
        command: &Command,
        stream: Option<&mut dyn crate::answer::sweep::Rows>,
    ) -> Result<Option<Output>, CommandError> {
        let system = command.system.map_or(self.rules, |(s, _)| s);
        let meta = MetaVerb::named(&command.verb);
        if meta == Some(MetaVerb::Help) {
            return help::run_with(&self.catalog, Some(self.tables.registry()), system, command)
                .map(|text| Some(Output::Report(Box::new(Report::Help { text }))));
        }
        // A line that may change the game is resolved under its lock,
        // against the newest state; any other reads the newest state.
        self.sync_game(may_change_game(command, meta))
            .map_err(game_error)?;
        let meta = meta.filter(|_| command.mode == Mode::Resolve);
        match meta {
            Some(MetaVerb::Game(verb)) => {
                return self
                    .game_verb(verb, command, line)
                    .map(|r| Some(Output::Report(Box::new(r))));
            }
            Some(MetaVerb::Load) => return Err(load_not_here(command)),
            Some(MetaVerb::Set) => {
                return self
                    .set(command, line)
                    .map(|text| Some(Output::Report(Box::new(Report::Setting { text }))));
            }
            Some(MetaVerb::Help | MetaVerb::Odds | MetaVerb::Simulate | MetaVerb::Quit) | None => {}
        }
        // A swept word has a `.` or a `,`: a line with neither (nearly
        // every line of a batch) is not looked at word by word.
        if command.mode == Mode::Resolve
            && memchr::memchr2(b'.', b',', line.as_bytes()).is_some()
            && let Some(word) = crate::sweep::first_swept(command)
        {
            // `simulate N LINE` rolls one line: the sweep is for `odds LINE`.
            let from = match meta {
                Some(MetaVerb::Simulate) => command.words.first().map_or(0, |w| w.span.end),
                _ => 0,
            };
            return Err(BindError::NotHere {
                kind: ErrorKind::WrongMode,
                span: word.span,
                text: word.text.to_string(),
                why: format!(
                    "is a sweep (a range or a list of values), which only `odds` answers: write `odds {}`",
                    line[from..].trim()
                ),
            }
            .into());
        }
        if meta == Some(MetaVerb::Simulate) {
            return self
                .simulate(command, line)
                .map(|s| Some(Output::Simulation(Box::new(s))));
        }
        if command.mode == Mode::Odds {
            let swept = crate::sweep::find(command)?;
            if !swept.is_empty() {
                return self
                    .sweep(command, line, swept, stream)
                    .map(|s| Some(Output::Sweep(Box::new(s))));
            }
        }
        if command.mode == Mode::Odds
            && let Some(comparison) = self.compare(command, line)?
        {
            return Ok(Some(Output::Comparison(Box::new(comparison))));
        }
        if command.mode == Mode::Odds {
            return self
                .odds(system, command, line)
                .map(|o| Some(Output::Odds(Box::new(o))))
                .map_err(|e| self.simulate_instead(e, system, command, line));
        }
        if let Some(expanded) = self
            .game
            .as_ref()
            .and_then(|g| g.expand(system, command, line))
        {
            let res = self.resolve_only(system, &expanded, line)?;
            return self
                .finish(system, line, res)
                .map(|r| Some(Output::Resolution(Box::new(r))));
        }
        self.resolve(system, command, line)
            .map(|r| Some(Output::Resolution(Box::new(r))))
    }

    fn resolve(
        &mut self,
        system: System,
        command: &Command,
        line: &str,
    ) -> Result<Resolution, CommandError> {
        let res = self.resolve_only(system, command, line)?;
        self.finish(system, line, res)
    }

    /// Record a resolution in the game, and say what it did there.
    fn finish(
        &mut self,
        system: System,
        line: &str,
        mut res: Resolution,
    ) -> Result<Resolution, CommandError> {
        if let Some(game) = &mut self.game {
            let chosen = self.seed_chosen;
            for said in game
                .record(line, system, &res, chosen)
                .map_err(game_error)?
            {
                res.note(said);
            }
        }
        Ok(res)
    }

    /// Resolve with the entered or rolled dice, touching no game.
    fn resolve_only(
        &mut self,
        system: System,
        command: &Command,
        line: &str,
    ) -> Result<Resolution, CommandError> {
        let seed = self.next_seed();
        let from_line = !command.rolled.is_empty();
        // A journal entry is resolved again as it was recorded, when the
        // dice after the entered ones were still rolled unasked.
        let mut dice = if from_line && !command.roll_rest && self.again.is_none() {
            Dice::entered_only(&command.rolled, seed)
        } else if from_line {
            Dice::new(&command.rolled, seed)
        } else {
            Dice::new(&self.pending, seed)
        };
        let resolved = self
            .catalog
            .prepare(system, command, line, self.units(), true)
            .and_then(|prepared| {
                // In a game, the system's part resolves its own lines, to
                // apply their effects as its resolvers made them.
                let in_game = self
                    .game
                    .as_mut()
                    .and_then(|g| g.resolve(system, &prepared, &mut dice));
                in_game.unwrap_or_else(|| prepared.run(&mut dice))
            });
        let mut res = match resolved {
            Ok(res) => res,
            Err(CommandError::Dice(DiceError::TooFew { span, entered, .. })) => {
                return Err(self.too_few(system, command, line, seed, span, entered));
            }
            Err(e) => return Err(self.reject_option_dice(e, from_line)),
        };
        if from_line {
            self.leftover_entered(system, command, line, &dice, &mut res)?;
        } else {
            self.pending = dice.leftover().iter().copied().collect();
        }
        if dice.rolled_any() {
            res.seed = Some(seed);
        }
        Ok(res)
    }
}

impl Session {
    /// Too few dice after `rolled`: the line is resolved again with the
    /// rest rolled (touching no game) to say how many it throws and what
    /// the first missing die is for, by the label of its row.
    fn too_few(
        &self,
        system: System,
        command: &Command,
        line: &str,
        seed: u64,
        span: Span,
        entered: usize,
    ) -> CommandError {
        let typed = command
            .rolled
            .iter()
            .map(|d| d.face.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let mut dice = Dice::new(&command.rolled, seed);
        let trial = self
            .catalog
            .resolve(system, command, line, self.units(), &mut dice);
        let (needed, missing) = match trial {
            Ok(res) => {
                let used = entered.saturating_sub(dice.leftover().len());
                let needed = usize::try_from(dice.thrown())
                    .unwrap_or(usize::MAX)
                    .saturating_add(used);
                let label = res.rows.iter().find_map(|row| match row {
                    crate::answer::resolution::Row::Die { label, number, die } => res
                        .dice
                        .get(*die)
                        .filter(|d| !d.entered)
                        .map(|_| match number {
                            Some(n) => format!("{label} #{n}"),
                            None => label.to_string(),
                        }),
                    // A pool shown on rows of its own: `4D6 (rolled)`.
                    crate::answer::resolution::Row::Plain { label, .. } => label
                        .strip_suffix(" (rolled)")
                        .map(|l| l.trim().to_string()),
                    _ => None,
                });
                let more = needed.saturating_sub(entered);
                let what = match label {
                    Some(label) => format!(" for `{label}`"),
                    None => String::new(),
                };
                let dice = "dice";
                (
                    Some(needed.max(entered + 1)),
                    match more {
                        0 | 1 => format!("1 more die after the entered ones{what}"),
                        n => format!("{n} more {dice} after the entered ones, the first{what}"),
                    },
                )
            }
            Err(_) => (
                None,
                "the entered dice ran out before the procedure did".into(),
            ),
        };
        DiceError::TooFew {
            span,
            entered,
            needed,
            missing,
            typed,
        }
        .into()
    }

    /// A bad face from `--dice` has no place on the line to point at; it is
    /// dropped, so that the next command does not trip over it again.
    fn reject_option_dice(&mut self, e: CommandError, from_line: bool) -> CommandError {
        match e {
            CommandError::Dice(DiceError::FaceOutOfRange { face, sides, .. }) if !from_line => {
                if !self.pending.is_empty() {
                    self.pending.remove(0);
                }
                CommandError::Option(format!(
                    "--dice {face}: {face} is not a face of a d{sides}: entered faces must be 1 to {sides}"
                ))
            }
            other => other,
        }
    }
}

/// Every verb: `roll`, which works under every rule system, and each
/// system's own.
pub fn catalog(tables: &Tables) -> Catalog {
    let systems = tables
        .registry()
        .systems()
        .enumerate()
        .map(|(index, system)| {
            let (tables, names) = (tables.clone(), tables.clone());
            crate::catalog::SystemVerbs::new(
                system.books(),
                move || {
                    names
                        .set_at(index)
                        .map(|set| set.verbs().names())
                        .unwrap_or_default()
                },
                move |name| match (tables.set_at(index), name) {
                    (Some(set), Some(name)) => set.verbs().named(name),
                    (Some(set), None) => set.verbs().all(),
                    (None, _) => Vec::new(),
                },
            )
        })
        .collect();
    Catalog::new(crate::roll::verbs(), systems, tables.books())
}
