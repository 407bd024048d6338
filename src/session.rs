//! A session: the loaded tables and catalog, the active rule system, the
//! seed, and entered dice waiting from `--dice`. Every front end (one-shot,
//! batch, REPL) feeds it lines and renders what comes back.

use crate::catalog::{Catalog, NoUnits};
use crate::command::{Command, EnteredDie, Mode, Span, System};
use crate::dice::Dice;
use crate::error::{BindError, CommandError, DiceError};
use crate::help;
use crate::odds::{self, Odds};
use crate::parse::parse_line;
use crate::resolution::Resolution;
use crate::tables::Tables;

/// What one line produced.
#[derive(Debug)]
pub enum Output {
    Resolution(Box<Resolution>),
    /// The exact distribution of outcomes (`odds …`).
    Odds(Box<Odds>),
    /// Help and other plain text.
    Text(String),
}

pub struct Session {
    pub tables: Tables,
    pub catalog: Catalog,
    pub rules: System,
    seed: u64,
    resolved: u64,
    /// Faces from `--dice`, used by the next draws of commands without `rolled`.
    pending: Vec<EnteredDie>,
}

impl Session {
    pub fn new(tables: Tables, rules: System, seed: u64) -> Session {
        let catalog = Catalog::new(&tables);
        Session {
            tables,
            catalog,
            rules,
            seed,
            resolved: 0,
            pending: Vec::new(),
        }
    }

    /// Entered dice for the next draws, as `--dice 4,3`.
    pub fn enter_dice(&mut self, faces: &[u32]) {
        self.pending.extend(faces.iter().map(|&face| EnteredDie {
            face,
            span: Span::default(),
        }));
    }

    /// `--dice` faces that no command used.
    pub fn unused_dice(&self) -> usize {
        self.pending.len()
    }

    /// The seed the next command's rolled dice will come from. Command `k`
    /// of a session uses `seed + k`, so `--seed` with the seed a command
    /// reports reproduces that command on its own.
    pub fn next_seed(&self) -> u64 {
        self.seed.wrapping_add(self.resolved)
    }

    /// Read and carry out one line. `Ok(None)` for a blank or comment line.
    pub fn run_line(&mut self, line: &str) -> Result<Option<Output>, CommandError> {
        let Some(command) = parse_line(line)? else {
            return Ok(None);
        };
        let system = command.system.map_or(self.rules, |(s, _)| s);
        if command.verb == "help" {
            return help::run(&self.catalog, system, &command).map(|t| Some(Output::Text(t)));
        }
        if command.mode == Mode::Odds {
            return self
                .odds(system, &command, line)
                .map(|o| Some(Output::Odds(Box::new(o))));
        }
        self.resolve(system, &command, line)
            .map(|r| Some(Output::Resolution(Box::new(r))))
    }

    /// The exact distribution: the resolver run against every way the dice
    /// can fall.
    pub fn odds(
        &self,
        system: System,
        command: &Command,
        line: &str,
    ) -> Result<Odds, CommandError> {
        if let Some(span) = command.rolled_span {
            return Err(BindError::NotHere {
                span,
                text: "rolled".into(),
                why: "has no meaning with `odds`, which counts every way the dice can fall".into(),
            }
            .into());
        }
        odds::enumerate(|dice| {
            self.catalog
                .resolve(system, command, line, &self.tables, &NoUnits, dice)
        })
    }

    fn resolve(
        &mut self,
        system: System,
        command: &Command,
        line: &str,
    ) -> Result<Resolution, CommandError> {
        let seed = self.next_seed();
        let from_line = !command.rolled.is_empty();
        let mut dice = if from_line {
            Dice::new(&command.rolled, seed)
        } else {
            Dice::new(&self.pending, seed)
        };
        let mut res = self
            .catalog
            .resolve(system, command, line, &self.tables, &NoUnits, &mut dice)
            .map_err(|e| self.reject_option_dice(e, from_line))?;
        if from_line {
            dice.check_all_used()?;
        } else {
            self.pending = dice.leftover().iter().copied().collect();
        }
        self.resolved += 1;
        if dice.rolled_any() {
            res.seed = Some(seed);
        }
        Ok(res)
    }
}

impl Session {
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
