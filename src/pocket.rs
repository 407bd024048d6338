//! The pocket: the command line's one-shot JSON answers without an
//! operating system, for the pocket page's WebAssembly module
//! (`pocket/`). [`Pocket::resolve`] gives, for a line and a seed, what
//! `drumhead --json --seed SEED [--army FILE …] LINE` writes: its standard
//! output byte for byte, its standard error and its exit status. Army
//! lists come as text (the page reads the file), not from a path.

use crate::format::printer::Printer;
use crate::format::{self as render};
use crate::game::{ArmySource, Game};
use crate::lines::{Lines, Written};
use crate::session::Session;
use crate::system::{Registry, Tables};

/// The command line's tasks (`drumhead check …`): a line given on the
/// command line whose verb is none of the rules' but near a task's name
/// is told to run the task (a test keeps this list the same as the
/// command line's).
pub const TASKS: &[&str] = &[
    "check",
    "replay",
    "campaign",
    "repair",
    "new-army",
    "tables",
    "man",
    "config",
    "sheet",
    "roster",
    "serve",
    "pocket",
    "completions",
];

/// What the command line says for a line with nothing to resolve.
const NOTHING: &str =
    "error: nothing to resolve: give a command such as 'resilience +determined' (try 'help')";

/// The embedded tables and the army lists loaded, as `--army` gives them.
pub struct Pocket {
    registry: Registry,
    tables: Tables,
    armies: Vec<ArmySource>,
}

/// What the command line would have written and how it would have ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answered {
    /// Standard output: JSON Lines, an answer or a refusal a line.
    pub stdout: String,
    /// Standard error: notes (`note: …`) and errors that are no line's
    /// (`error: …`), one a line.
    pub stderr: String,
    /// The exit status: 0 every line answered, 1 a line refused, 2 a
    /// usage error (an army list that does not load).
    pub status: u8,
}

/// An army list loaded, or why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The list's file name, as given.
    pub file: String,
    /// Its rule book's id (`drums`) and its army's name.
    pub system: &'static str,
    pub name: String,
    /// What the REPL's `load` says: `loaded …` and its units by kind.
    pub summary: String,
}

impl Pocket {
    /// The shipped rule systems with their embedded tables, no army.
    pub fn new() -> Result<Pocket, String> {
        let registry = crate::systems::all();
        let tables = registry
            .load(&crate::tables::TableSource::embedded())
            .map_err(|e| e.to_string())?;
        Ok(Pocket {
            registry,
            tables,
            armies: Vec::new(),
        })
    }

    /// Forget the army lists loaded.
    pub fn reset(&mut self) {
        self.armies.clear();
    }

    /// The army lists loaded, in order.
    pub fn armies(&self) -> impl Iterator<Item = &str> {
        self.armies.iter().map(|a| a.file.as_str())
    }

    /// Load an army list as `--army FILE` does, after the others: the same
    /// checks (size, UTF-8, the list itself, ids unique across the lists),
    /// the same error the command line prints after `error: `. A list
    /// refused leaves the others as they were.
    pub fn load_army(&mut self, file: &str, bytes: &[u8]) -> Result<Loaded, String> {
        let text = army_text(file, bytes)?;
        let mut sources = self.armies.clone();
        sources.push(ArmySource {
            file: file.to_string(),
            text,
        });
        let game = Game::new(sources.clone(), &self.tables).map_err(|e| e.to_string())?;
        let army = game
            .armies
            .last()
            .ok_or_else(|| "the list loaded no army".to_string())?;
        let loaded = Loaded {
            file: file.to_string(),
            system: army.rules.id(),
            name: army.name.clone(),
            summary: format!("loaded {}", crate::army::summary(army)),
        };
        self.armies = sources;
        Ok(loaded)
    }

    /// Read an army list without loading it: its rule book and name.
    pub fn look_at_army(&self, file: &str, bytes: &[u8]) -> Result<Loaded, String> {
        let text = army_text(file, bytes)?;
        let source = ArmySource {
            file: file.to_string(),
            text,
        };
        let game = Game::new(vec![source], &self.tables).map_err(|e| e.to_string())?;
        let army = game
            .armies
            .first()
            .ok_or_else(|| "the list loaded no army".to_string())?;
        Ok(Loaded {
            file: file.to_string(),
            system: army.rules.id(),
            name: army.name.clone(),
            summary: format!("loaded {}", crate::army::summary(army)),
        })
    }

    /// What `drumhead --json --seed SEED [--army FILE …] LINE` writes:
    /// `line` may hold several lines (`\n`), each rolling with the seed
    /// plus its position, as the command line resolves them.
    pub fn resolve(&self, line: &str, seed: u64) -> Answered {
        let mut answered = Answered::default();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            say(&mut answered.stderr, NOTHING);
            answered.status = 1;
            return answered;
        }
        let mut session = match self.session(seed, &mut answered.stderr) {
            Ok(session) => session,
            Err(e) => {
                say(&mut answered.stderr, &format!("error: {e}"));
                answered.status = 2;
                return answered;
            }
        };
        let printer = Printer::new(true, render::Style::default());
        let mut lines = Lines::new(line.as_bytes());
        let mut w = Written::default();
        let mut position = 0;
        loop {
            let mut text = Vec::new();
            let read = match lines.next_line(&mut text) {
                Ok(Some(read)) => read,
                // Reading from memory fails for nothing but a line that
                // is not text, which `next_line` reports as that line's.
                Ok(None) | Err(_) => break,
            };
            let text = String::from_utf8(text).unwrap_or_default();
            let one = match &read {
                Ok(at) => Ok(text.get(at.clone()).unwrap_or_default()),
                Err(why) => Err(*why),
            };
            // Writing into memory cannot fail.
            let _ =
                crate::lines::answer(&mut session, &printer, (position, one), false, &mut w, None);
            position += 1;
        }
        answered.stdout = String::from_utf8_lossy(&w.out).into_owned();
        answered.stderr.push_str(&String::from_utf8_lossy(&w.err));
        answered.status = if w.unwritable > 0 {
            2
        } else {
            u8::from(w.rejected > 0)
        };
        answered
    }

    /// What may be typed at the end of `line` (the verbs, the words of the
    /// verb in hand, the loaded units, rule systems, settings): each word
    /// with what it means. A word stands for what follows the line's last
    /// whitespace (the word being typed; nothing after a space).
    pub fn complete(&self, line: &str) -> Vec<(String, String)> {
        let session = match self.session(0, &mut String::new()) {
            Ok(session) => session,
            Err(_) => match self.registry.default_book() {
                Some(book) => Session::new(self.tables.clone(), book, 0),
                None => return Vec::new(),
            },
        };
        let words = crate::complete::Words::of(&session, false);
        let (_, found) = words.candidates(line, line.len());
        found.into_iter().map(|c| (c.word, c.meaning)).collect()
    }

    /// A session as the command line opens it for one line: the armies'
    /// rule system (else the first), the seed chosen, the game's notes
    /// written to `stderr`.
    fn session(&self, seed: u64, stderr: &mut String) -> Result<Session, String> {
        let default = self
            .registry
            .default_book()
            .ok_or_else(|| "no rule system is registered".to_string())?;
        let mut session = Session::new(self.tables.clone(), default, seed);
        if !self.armies.is_empty() {
            let mut game = Game::new(self.armies.clone(), &self.tables)
                .map_err(|e| e.to_string())?
                .one_line(true);
            for note in game.notes.drain(..) {
                say(stderr, &render::wrap_error(&format!("note: {note}"), None));
            }
            if let Some(note) = game.systems_note(default) {
                say(stderr, &note);
            }
            session = session.with_game(game);
        }
        session.seed_was_chosen(true);
        session.count_outcome_values(true);
        session.catalog.tasks = TASKS.iter().map(|t| t.to_string()).collect();
        Ok(session)
    }
}

/// An army list's bytes as its text, refused as the command line refuses
/// a file: too large, or not UTF-8.
fn army_text(file: &str, bytes: &[u8]) -> Result<String, String> {
    use crate::files::FileError;
    let max = crate::limits::MAX_LIST_BYTES;
    if bytes.len() > max {
        return Err(FileError::TooLarge {
            path: file.to_string(),
            max: max as u64,
            kind: "army list",
        }
        .to_string());
    }
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        FileError::NotText {
            path: file.to_string(),
        }
        .to_string()
    })
}

/// A line of standard error, as the command line's `warn!` writes it:
/// what it quotes shown, never obeyed.
fn say(stderr: &mut String, text: &str) {
    stderr.push_str(&crate::text::visible_lines(text));
    stderr.push('\n');
}

impl Pocket {
    /// What the live view shows for the answers of [`Pocket::resolve`]'s
    /// `line` and `seed` (the same dice): each answer, or refusal, as
    /// `drumhead serve` lays it out (`format::web`), one after another.
    /// The pocket page shows this beside the JSON it keeps.
    pub fn view(&self, line: &str, seed: u64) -> String {
        use crate::format::web;
        let mut session = match self.session(seed, &mut String::new()) {
            Ok(session) => session,
            Err(e) => return web::error(&e, "", None).into_string(),
        };
        let printer = Printer::new(true, render::Style::default());
        let mut html = String::new();
        for (position, one) in line.split('\n').enumerate() {
            let one = one.strip_suffix('\r').unwrap_or(one);
            session.seek(position as u64);
            let parsed = session.parse(one);
            let result = session.run(one, parsed, &|kind| printer.accepts(kind, one));
            let shown = match result {
                Ok(Some(answer)) => web::answer(&answer),
                Ok(None) => continue,
                Err(e) => web::error(&e.to_string(), one, e.span().map(|s| s.start..s.end)),
            };
            html.push_str(&shown.into_string());
        }
        html
    }
}
