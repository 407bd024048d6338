//! `drumhead repair GAME`: what can be done when a game file and its
//! journal disagree, shown first and done only when asked (`--apply`).
//! The journal is the record of the game; nothing in it is thrown away:
//! a damaged tail and a replaced game file are kept beside the game.

use std::path::{Path, PathBuf};

use super::journal::{Lenient, remove_stale_temporaries, write_atomically};
use super::{Game, GameError, Journal, Lock, Options, read_game_file};
use crate::system::Tables;

/// One thing repair would do.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Cut a last line written only in part (never an entry).
    CutTorn { at: u64, bytes: u64 },
    /// Keep the entries before a damaged line; the rest of the journal is
    /// kept aside in a file of its own.
    CutDamaged {
        line: usize,
        at: u64,
        kept: u64,
        why: String,
        aside: PathBuf,
    },
    /// Write the game file again from the journal; the old one is kept.
    Rewrite {
        entries: u64,
        why: String,
        old: Option<PathBuf>,
    },
    /// A game created and killed before its journal: start the journal.
    StartJournal,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::CutTorn { at, bytes } => write!(
                f,
                "cut the journal's last {bytes} bytes (from byte {at}): a line written only in part, never an entry"
            ),
            Step::CutDamaged {
                line,
                kept,
                why,
                aside,
                ..
            } => write!(
                f,
                "keep the journal's first {kept} entries: line {line} cannot be read ({why}); \
                 it and everything after it are kept in {}",
                aside.display()
            ),
            Step::Rewrite { entries, why, old } => {
                write!(
                    f,
                    "write the game file again from the journal's {entries} entries ({why})"
                )?;
                if let Some(old) = old {
                    write!(f, "; the present game file is kept as {}", old.display())?;
                }
                Ok(())
            }
            Step::StartJournal => write!(
                f,
                "start the journal the game file is missing (it has no entries)"
            ),
        }
    }
}

/// What repair found and would do.
pub struct Plan {
    pub path: PathBuf,
    pub steps: Vec<Step>,
}

impl Plan {
    pub fn describe(&self) -> String {
        if self.steps.is_empty() {
            return format!(
                "{}: nothing to repair: the game file and its journal agree",
                self.path.display()
            );
        }
        let mut out = format!("{}: repair would", self.path.display());
        for (i, step) in self.steps.iter().enumerate() {
            out.push_str(&format!("\n  {}. {step}", i + 1));
        }
        out
    }
}

fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(suffix);
    path.with_file_name(name)
}

/// A name beside `path` that is not taken yet.
fn free_name(path: &Path, suffix: &str) -> PathBuf {
    let first = beside(path, suffix);
    if first.symlink_metadata().is_err() {
        return first;
    }
    (1..)
        .map(|i| beside(path, &format!("{suffix}.{i}")))
        .find(|p| p.symlink_metadata().is_err())
        .unwrap_or(first)
}

/// Look at a game and say what repair would do.
pub fn plan(path: &Path, tables: &Tables) -> Result<Plan, GameError> {
    let journal = Journal::path_for(path);
    let mut steps = Vec::new();
    let file = path.symlink_metadata().ok().map(|_| read_game_file(path));
    if journal.symlink_metadata().is_err() {
        return match file {
            Some(Ok(f)) if f.entries == 0 => Ok(Plan {
                path: path.to_path_buf(),
                steps: vec![Step::StartJournal],
            }),
            Some(Ok(f)) => Err(GameError::Mismatch(format!(
                "{}: the journal is missing, and the game file reflects {} entries: the record of the game is gone; \
                 restore {} from a backup (repair cannot make it up)",
                path.display(),
                f.entries,
                journal.display()
            ))),
            _ => Err(GameError::Usage(format!(
                "{}: there is no game here (neither the game file nor its journal)",
                path.display()
            ))),
        };
    }
    let reflected = match &file {
        Some(Ok(f)) => Some(f.entries),
        _ => None,
    };
    let Lenient { contents, damaged } = Journal::read_lenient(&journal, reflected)?;
    if let Some(d) = &damaged {
        steps.push(Step::CutDamaged {
            line: d.line,
            at: d.at,
            kept: contents.entries.len() as u64,
            why: d.message.clone(),
            aside: free_name(&journal, ".damaged"),
        });
    } else if let Some((at, bytes)) = contents.torn {
        steps.push(Step::CutTorn { at, bytes });
    }
    let have = contents.entries.len() as u64;
    let why = match &file {
        None => Some("the game file is missing".to_string()),
        Some(Err(e)) => Some(format!("the game file cannot be read: {e}")),
        Some(Ok(f)) if f.entries > have => Some(format!(
            "it reflects {} entries, and the journal has {have} that can be read",
            f.entries
        )),
        Some(Ok(f)) => {
            // The game file's state must be the fold of the entries it reflects.
            let mut game = Game::new(contents.armies.clone(), tables)?;
            game.entries = contents.entries[..f.entries as usize].to_vec();
            game.rebuild()?;
            if f.journal.is_some() && f.journal != contents.at {
                Some("it does not match the journal it records".to_string())
            } else if game.state() != f.state {
                Some("its state is not what the journal says".to_string())
            } else if f.entries < have {
                Some(format!(
                    "it is {} entries behind the journal",
                    have - f.entries
                ))
            } else {
                None
            }
        }
    };
    if let Some(why) = why {
        let old = file.is_some().then(|| free_name(path, ".bak"));
        steps.push(Step::Rewrite {
            entries: contents.entries.len() as u64,
            why,
            old,
        });
    }
    Ok(Plan {
        path: path.to_path_buf(),
        steps,
    })
}

/// Carry out a plan, under the game's lock.
pub fn apply(plan: &Plan, tables: &Tables, options: Options) -> Result<(), GameError> {
    let path = &plan.path;
    let journal = Journal::path_for(path);
    let _lock = Lock::acquire(path, options.wait)?;
    remove_stale_temporaries(path);
    let io = |p: &Path, e: std::io::Error| GameError::Io(format!("{}: {e}", p.display()));
    for step in &plan.steps {
        match step {
            Step::CutTorn { at, .. } => cut(&journal, *at)?,
            Step::CutDamaged { at, aside, .. } => {
                let bytes = std::fs::read(&journal).map_err(|e| io(&journal, e))?;
                let tail = bytes.get(*at as usize..).unwrap_or_default();
                write_atomically(aside, tail)?;
                cut(&journal, *at)?;
            }
            Step::Rewrite { old, .. } => {
                if let Some(old) = old {
                    std::fs::copy(path, old).map_err(|e| io(old, e))?;
                }
            }
            Step::StartJournal => {}
        }
    }
    // Every step leaves the game file to be written from the journal.
    if plan.steps.is_empty() {
        return Ok(());
    }
    let (armies, entries) = if journal.symlink_metadata().is_ok() {
        let c = Journal::read_at(&journal, None)?;
        (c.armies.clone(), Some(c))
    } else {
        let f = read_game_file(path)?;
        (f.armies, None)
    };
    let mut game = Game::new(armies, tables)?;
    game.file = Some(path.clone());
    match entries {
        Some(c) => {
            game.entries = c.entries;
            game.tally = c.tally;
            game.rebuild()?;
        }
        None => {
            let header = Journal::header(&game.sources)?;
            write_atomically(&journal, header.as_bytes())?;
            game.tally.add_line(header.as_bytes(), false);
        }
    }
    game.save()
}

fn cut(journal: &Path, at: u64) -> Result<(), GameError> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(journal)
        .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?;
    file.set_len(at)
        .and_then(|()| file.sync_all())
        .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))
}
