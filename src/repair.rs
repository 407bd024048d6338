//! `drumhead repair GAME`: what can be done when a game file and its
//! journal disagree, shown first and done only when asked (`--apply`).
//!
//! The journal is the record of the game, and repair trusts no more of it
//! than `replay` does: it reads the chain from the header and resolves
//! every entry again from its line and dice. It keeps the entries before
//! the first line that breaks the chain or does not resolve to itself,
//! and never adopts that line or any after it: they are kept aside in a
//! file of their own, and the game file is written again from what was
//! kept. Nothing is thrown away.

use std::path::{Path, PathBuf};

use crate::game::{
    Game, GameError, GameFile, Journal, Lock, Options, Reader, read_game_file, repair_hint,
};
use crate::session::Session;
use crate::system::Tables;

/// One thing repair would do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// Cut a last line written only in part (never an entry).
    CutTorn { at: u64, bytes: u64 },
    /// Keep the entries before a line that cannot be trusted; that line
    /// and the rest of the journal are kept aside in a file of their own.
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
    /// The journal's header was changed after the game began: put back
    /// the one a game file (the game's, or one kept aside) was written
    /// from, which the chain's first entry vouches for. The entries are
    /// looked at again once it is back.
    RestoreHeader { from: PathBuf },
    /// A journal of an older drumhead, without a chain: every entry was
    /// resolved again to the effects it recorded; write the journal again
    /// as a chain, and the game file from it.
    Upgrade {
        entries: u64,
        old_journal: PathBuf,
        old_game: Option<PathBuf>,
    },
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
                "keep the journal's first {kept} entries: line {line} is not adopted ({why}); \
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
            Step::RestoreHeader { from } => write!(
                f,
                "put back the journal's header (the armies and tables the game began with) that {} \
                 was written from: the journal's header was changed after the game began, and its \
                 first entry still records the one {} holds; every entry is then resolved again \
                 under it",
                from.display(),
                from.display()
            ),
            Step::Upgrade {
                entries,
                old_journal,
                old_game,
            } => {
                write!(
                    f,
                    "write the journal again as a hash chain from its {entries} entries, each resolved again \
                     to the effects it recorded, and the game file from it; the old journal is kept as {}",
                    old_journal.display()
                )?;
                if let Some(old) = old_game {
                    write!(f, " and the old game file as {}", old.display())?;
                }
                Ok(())
            }
        }
    }
}

/// What repair found and would do.
pub struct Plan {
    pub(crate) path: PathBuf,
    pub(crate) steps: Vec<Step>,
}

impl Plan {
    pub(crate) fn describe(&self) -> String {
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

/// The journal read as far as it can be trusted: every entry resolved
/// again. The session holds the game as it stands after the last entry
/// kept.
struct Verified {
    session: Session,
    /// The first line not adopted: its line number, offset and why.
    stopped: Option<(usize, u64, String)>,
    /// The game file's state and mark hold after the entries it reflects.
    file_agrees: Option<bool>,
}

fn verify(journal: &Path, tables: &Tables, file: Option<&GameFile>) -> Result<Verified, GameError> {
    let game = Game::replaying(journal, tables)?;
    let book = tables
        .registry()
        .default_book()
        .ok_or_else(|| GameError::Usage("no rule system is registered".into()))?;
    let mut session = Session::new(tables.clone(), book, 0).with_game(game);
    let check = |session: &Session| -> Option<bool> {
        let f = file?;
        let game = session.game.as_ref()?;
        Some(game.state() == f.state && game.tally().mark() == f.journal)
    };
    let mut file_agrees = if file.is_some_and(|f| f.entries == 0) {
        check(&session)
    } else {
        None
    };
    let mut stopped = None;
    while let Some(game) = session.game.as_mut() {
        let at = game.tally().bytes;
        let line = usize::try_from(game.tally().entries)
            .unwrap_or(usize::MAX)
            .saturating_add(2);
        match session.resolve_next() {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => {
                stopped = Some((line, at, plain(e)));
                break;
            }
        }
        let done = session.game.as_ref().map_or(0, |g| g.tally().entries);
        if file.is_some_and(|f| f.entries == done) {
            file_agrees = check(&session);
        }
    }
    Ok(Verified {
        session,
        stopped,
        file_agrees,
    })
}

/// Whether the entries from the line at `at` on form a chain, from the
/// hash that line records of the line before it, to `mark`.
fn chain_reaches(
    journal: &Path,
    at: u64,
    before: &crate::game::Tally,
    mark: &crate::game::Mark,
) -> bool {
    use std::io::{BufRead, Seek};
    let Ok(file) = std::fs::File::open(journal) else {
        return false;
    };
    let mut file = std::io::BufReader::new(file);
    let mut line = String::new();
    let read = file
        .seek(std::io::SeekFrom::Start(at))
        .ok()
        .and_then(|_| file.read_line(&mut line).ok());
    let Some(prev) = read
        .and_then(|_| serde_json::from_str::<crate::game::Entry>(&line).ok())
        .map(|e| e.prev)
    else {
        return false;
    };
    let Ok((mut reader, _)) = Reader::open(journal) else {
        return false;
    };
    let from = crate::game::Tally {
        entries: before.entries,
        bytes: at,
        head_at: before.head_at,
        head: prev,
        header: before.header.clone(),
    };
    if reader.continue_from(&from).is_err() {
        return false;
    }
    while reader.tally.entries < mark.entries {
        match reader.next_entry() {
            Ok(crate::game::Next::Entry(..)) => {}
            _ => return false,
        }
    }
    // Offsets moved with the edit: the count and the head's hash did not.
    reader.tally.entries == mark.entries && reader.tally.head == mark.head
}

/// An error's message without the file and line it names (the plan says those).
fn plain(e: GameError) -> String {
    match e {
        GameError::Journal { message, .. } => message,
        other => other.to_string(),
    }
}

/// A game file whose journal is missing: only a game with no entries can
/// be given one.
fn without_journal(
    path: &Path,
    journal: &Path,
    file: Option<Result<GameFile, GameError>>,
) -> Result<Plan, GameError> {
    match file {
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
    }
}

/// A journal of an older drumhead, without a chain: written again whole
/// once every entry resolves again to what it recorded.
fn upgrade_plan(
    path: &Path,
    journal: &Path,
    version: u32,
    has_game_file: bool,
    tables: &Tables,
) -> Result<Plan, GameError> {
    let upgraded = upgrade(journal, tables)?;
    let entries = upgraded.game.as_ref().map_or(0, |g| g.tally().entries);
    Ok(Plan {
        path: path.to_path_buf(),
        steps: vec![Step::Upgrade {
            entries,
            old_journal: free_name(journal, &format!(".v{version}")),
            old_game: has_game_file.then(|| free_name(path, ".old")),
        }],
    })
}

/// Look at a game and say what repair would do.
pub fn plan(path: &Path, tables: &Tables) -> Result<Plan, GameError> {
    let journal = Journal::path_for(path);
    let file = path.symlink_metadata().ok().map(|_| read_game_file(path));
    // An empty journal is one its maker stopped before it wrote the
    // header: the same as none.
    if std::fs::metadata(&journal).is_ok_and(|m| m.len() == 0)
        || journal.symlink_metadata().is_err()
    {
        return without_journal(path, &journal, file);
    }
    let (reader, opening) = Reader::open(&journal)?;
    if opening.version < crate::game::JOURNAL_VERSION {
        return upgrade_plan(path, &journal, opening.version, file.is_some(), tables);
    }
    if let Some(Ok(f)) = &file
        && f.game != opening.game
    {
        return Err(GameError::Mismatch(format!(
            "{}: the journal belongs to another game (a copy's, or another table's) than {}: \
             repair never puts one game's record under another; put this game's own journal back",
            journal.display(),
            path.display()
        )));
    }
    let good = file.as_ref().and_then(|f| f.as_ref().ok());
    if let Some(step) = header_to_restore(path, &journal, &reader.tally.header, good)? {
        return Ok(Plan {
            path: path.to_path_buf(),
            steps: vec![step],
        });
    }
    let verified = verify(&journal, tables, good)?;
    let tally = verified
        .session
        .game
        .as_ref()
        .map(|g| g.tally().clone())
        .unwrap_or_default();
    let len = std::fs::metadata(&journal)
        .map_err(|e| GameError::Io(format!("{}: {e}", journal.display())))?
        .len();
    let mut steps = Vec::new();
    // A chain broken at line L, whose entries from L on lead to the mark
    // the game file recorded: line L-1 was changed after the entry at L
    // recorded it, and it is the line not adopted.
    let mut stopped = verified.stopped.clone();
    let mut tally = tally;
    if let (Some((line, at, why)), Some(Ok(f))) = (&stopped, &file)
        && why.starts_with(crate::game::CHAIN_BROKEN)
        && tally.entries > 0
        && chain_reaches(&journal, *at, &tally, &f.journal)
    {
        let edited = tally.entries;
        stopped = Some((
            line - 1,
            tally.head_at,
            format!(
                "entry {edited} was changed after it was written: the entry after it recorded another line, \
                 and the chain from there reaches the game file's mark"
            ),
        ));
        tally.entries -= 1;
    }
    match &stopped {
        Some((line, at, why)) => steps.push(Step::CutDamaged {
            line: *line,
            at: *at,
            kept: tally.entries,
            why: why.clone(),
            aside: free_name(&journal, ".damaged"),
        }),
        None if len > tally.bytes => steps.push(Step::CutTorn {
            at: tally.bytes,
            bytes: len - tally.bytes,
        }),
        None => {}
    }
    let have = tally.entries;
    let why = rewrite_reason(file.as_ref(), have, verified.file_agrees);
    let why = why.or_else(|| (!steps.is_empty()).then(|| "after the cut".to_string()));
    if let Some(why) = why {
        let old = file.is_some().then(|| free_name(path, ".bak"));
        steps.push(Step::Rewrite {
            entries: have,
            why,
            old,
        });
    }
    Ok(Plan {
        path: path.to_path_buf(),
        steps,
    })
}

/// Whether the journal's header is the one the game began with: the one
/// its first entry records the hash of, and the game file was written
/// from. When it is not, the header to put back: one a game file beside
/// the journal (the game's own, then those kept aside as `.bak`) was
/// written from and the chain vouches for. Repair never adopts a header
/// that neither the chain nor a game file vouches for.
fn header_to_restore(
    path: &Path,
    journal: &Path,
    header: &str,
    file: Option<&GameFile>,
) -> Result<Option<Step>, GameError> {
    let first = first_entry(journal);
    let made_from = |f: &GameFile| {
        Journal::header(&f.game, &f.armies, &f.tables)
            .map(|h| crate::game::hash(h.as_bytes()))
            .unwrap_or_default()
    };
    let vouched = first.as_ref().map(|e| e.prev.clone()).or_else(|| {
        file.map(|f| f.journal.header.clone())
            .filter(|h| !h.is_empty())
    });
    let chain_agrees = vouched.as_deref().is_none_or(|v| v == header);
    let file_agrees = file.is_none_or(|f| made_from(f) == header);
    if chain_agrees && file_agrees {
        return Ok(None);
    }
    let Some(want) = vouched else {
        return Err(header_gone(path, journal));
    };
    let mut candidates = vec![path.to_path_buf(), beside(path, ".bak")];
    candidates.extend((1..=9).map(|i| beside(path, &format!(".bak.{i}"))));
    for candidate in candidates {
        let Ok(f) = read_game_file(&candidate) else {
            continue;
        };
        if made_from(&f) == want {
            return Ok(Some(Step::RestoreHeader { from: candidate }));
        }
    }
    Err(header_gone(path, journal))
}

fn header_gone(path: &Path, journal: &Path) -> GameError {
    GameError::Mismatch(format!(
        "{}:1: the journal's header (the armies and tables the game began with) was changed after the \
         game began, and neither {} nor a copy kept aside as .bak holds the one its entries were \
         recorded under: repair will not adopt a header the record does not vouch for; \
         put the journal back from a backup",
        journal.display(),
        path.display()
    ))
}

/// The journal's first entry, read as it is (its chain not checked).
fn first_entry(journal: &Path) -> Option<crate::game::Entry> {
    use std::io::{BufRead, Read};
    let file = std::fs::File::open(journal).ok()?;
    let limit = crate::limits::MAX_JOURNAL_LINE as u64 + 1;
    let mut lines = std::io::BufReader::new(file);
    let mut line = Vec::new();
    (&mut lines).take(limit).read_until(b'\n', &mut line).ok()?;
    line.clear();
    lines.take(limit).read_until(b'\n', &mut line).ok()?;
    serde_json::from_slice(&line).ok()
}

/// Why the game file must be written again from `have` entries, if it must.
fn rewrite_reason(
    file: Option<&Result<GameFile, GameError>>,
    have: u64,
    agrees: Option<bool>,
) -> Option<String> {
    match file {
        None => Some("the game file is missing".to_string()),
        Some(Err(e)) => Some(format!("the game file cannot be used: {e}")),
        Some(Ok(f)) if f.entries > have => Some(format!(
            "it reflects {} entries, and the journal has {have} that resolve again",
            f.entries
        )),
        Some(Ok(f)) if f.check != crate::game::file_check(f) => {
            Some("its state was edited after it was written".to_string())
        }
        Some(Ok(_)) if agrees != Some(true) => {
            Some("its state or its mark is not what the journal says".to_string())
        }
        Some(Ok(f)) if f.entries < have => Some(format!(
            "it is {} entries behind the journal",
            have - f.entries
        )),
        Some(Ok(_)) => None,
    }
}

/// Look at a game and repair it with `--apply`: the plan is made and
/// carried out under the game's lock, taken first, so that no writer can
/// append between the two (what the plan cuts is what it saw). Without
/// `apply`, no lock is taken and nothing is written.
pub(crate) fn plan_and_apply(
    path: &Path,
    tables: &Tables,
    apply: Option<Options>,
    shown: &mut dyn FnMut(&Plan),
) -> Result<bool, GameError> {
    let journal = Journal::path_for(path);
    let lock = match apply {
        Some(options) if journal.symlink_metadata().is_ok() => {
            Some(Lock::acquire(path, options.wait)?)
        }
        _ => None,
    };
    let plan = plan(path, tables)?;
    shown(&plan);
    let Some(options) = apply else {
        return Ok(false);
    };
    if plan.steps.is_empty() {
        return Ok(false);
    }
    let lock = match lock {
        Some(lock) => lock,
        // No journal to lock: it is made, empty and held, to be started.
        None if plan.steps == [Step::StartJournal] => Lock::create(path)?,
        None => Lock::acquire(path, options.wait)?,
    };
    // A header put back changes what every entry is resolved under: the
    // rest is planned again, under the same lock, from the journal as it
    // is now.
    let restored = plan
        .steps
        .first()
        .is_some_and(|s| matches!(s, Step::RestoreHeader { .. }));
    let lock = carry_out(&plan, tables, lock)?;
    if restored {
        let plan = self::plan(path, tables)?;
        shown(&plan);
        if !plan.steps.is_empty() {
            carry_out(&plan, tables, lock)?;
        }
    }
    Ok(true)
}

/// Carry out a plan, under the game's lock (held by `lock`, and given
/// back).
fn carry_out(plan: &Plan, tables: &Tables, mut lock: Lock) -> Result<Lock, GameError> {
    let path = &plan.path;
    let journal = Journal::path_for(path);
    let io = |p: &Path, e: std::io::Error| GameError::Io(format!("{}: {e}", p.display()));
    for step in &plan.steps {
        match step {
            Step::CutTorn { at, .. } => cut(&journal, *at)?,
            Step::CutDamaged { at, aside, .. } => {
                let bytes = std::fs::read(&journal).map_err(|e| io(&journal, e))?;
                let tail = bytes.get(*at as usize..).unwrap_or_default();
                crate::game::write_file(aside, tail)?;
                cut(&journal, *at)?;
            }
            Step::Rewrite { old, .. } => {
                if let Some(old) = old {
                    std::fs::copy(path, old).map_err(|e| io(old, e))?;
                }
            }
            Step::RestoreHeader { from } => {
                let f = read_game_file(from)?;
                let header = Journal::header(&f.game, &f.armies, &f.tables)?;
                let bytes = std::fs::read(&journal).map_err(|e| io(&journal, e))?;
                let rest = bytes
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(&[][..], |at| &bytes[at + 1..]);
                let mut text = header.into_bytes();
                text.extend_from_slice(rest);
                lock.replace_journal(&text)?;
            }
            Step::StartJournal => {
                let f = read_game_file(path)?;
                let header = Journal::header(&f.game, &f.armies, &f.tables)?;
                let file = lock
                    .journal()
                    .ok_or_else(|| GameError::Io("the journal is not held".into()))?;
                Journal::append(file, &journal, 0, &header)?;
            }
            Step::Upgrade {
                old_journal,
                old_game,
                ..
            } => {
                let upgraded = upgrade(&journal, tables)?;
                let game = upgraded
                    .game
                    .as_ref()
                    .ok_or_else(|| GameError::Usage("no game".into()))?;
                if let Some(old) = old_game {
                    std::fs::rename(path, old).map_err(|e| io(old, e))?;
                }
                std::fs::rename(&journal, old_journal).map_err(|e| io(old_journal, e))?;
                game.save_as(path, false)?;
                return Ok(lock);
            }
        }
    }
    if plan.steps.is_empty() || matches!(plan.steps.as_slice(), [Step::RestoreHeader { .. }]) {
        return Ok(lock);
    }
    // Every step leaves the game file to be written from the journal,
    // which is resolved again whole, under the lock.
    let verified = verify(&journal, tables, None)?;
    if let Some((line, _, why)) = verified.stopped {
        return Err(GameError::Mismatch(format!(
            "{}:{line}: {why}: the journal changed while it was repaired; nothing more was done{}",
            journal.display(),
            repair_hint(path)
        )));
    }
    let game = verified
        .session
        .game
        .as_ref()
        .ok_or_else(|| GameError::Usage("no game".into()))?;
    game.checkpoint_as(path)?;
    Ok(lock)
}

/// An older journal, every entry resolved again as that drumhead's
/// `replay` did (the dice of a line without `rolled` entered as recorded)
/// and found to give the effects it recorded: a game in memory holding
/// them as this drumhead records them.
fn upgrade(journal: &Path, tables: &Tables) -> Result<Session, GameError> {
    let (mut reader, opening) = Reader::open(journal)?;
    let game = Game::new(opening.armies, tables)?;
    let book = tables
        .registry()
        .default_book()
        .ok_or_else(|| GameError::Usage("no rule system is registered".into()))?;
    let mut session = Session::new(tables.clone(), book, 0).with_game(game);
    loop {
        let line = reader.line_number();
        match reader.next_entry()? {
            crate::game::Next::Entry(entry, _) => {
                session.adopt_older(&entry).map_err(|message| GameError::Journal {
                    file: journal.display().to_string(),
                    line,
                    message: format!(
                        "{message}: repair upgrades a journal only when every entry resolves again to what it recorded"
                    ),
                })?;
            }
            crate::game::Next::End | crate::game::Next::Torn(..) => break,
        }
    }
    Ok(session)
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
