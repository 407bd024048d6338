//! `drumhead sheet SYSTEM` and `drumhead roster`: the printable kit (see
//! the `sheet` module), one HTML page on standard output or in a file.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::answer::Answer;
use crate::format::Format;
use crate::format::html::{Html, Paper};
use crate::game::{ArmySource, Game};
use crate::print;
use crate::system::{Registry, Tables};
use crate::tables::TableSource;

/// `drumhead sheet SYSTEM [-o FILE [--force]] [--paper P]`.
pub(crate) fn sheet(
    registry: &Registry,
    source: &TableSource,
    system: &str,
    to: To,
    paper: Paper,
) -> ExitCode {
    let made =
        print::book_named(registry, system).and_then(|book| print::sheet(registry, book, source));
    match made {
        Ok(sheet) => emit_page(&Answer::Sheet(Box::new(sheet)), paper, to, "sheet.html"),
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `drumhead roster [--army FILE…] [--game FILE] [-o FILE [--force]] [--paper P]`.
pub(crate) fn roster(
    tables: &Tables,
    armies: &[PathBuf],
    game: Option<&Path>,
    wait: bool,
    to: To,
    paper: Paper,
) -> ExitCode {
    match open(tables, armies, game, wait) {
        Ok(game) => emit_page(
            &Answer::Cards(Box::new(print::roster(&game))),
            paper,
            to,
            "roster.html",
        ),
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The game to print: a roster only reads, so a game file must exist
/// already (`--game` elsewhere creates one).
fn open(
    tables: &Tables,
    armies: &[PathBuf],
    game: Option<&Path>,
    wait: bool,
) -> Result<Game, String> {
    let mut sources = Vec::new();
    for path in armies {
        let text = crate::files::read_text(path, crate::limits::MAX_LIST_BYTES, "army list")
            .map_err(|e| e.to_string())?;
        sources.push(ArmySource {
            file: path.display().to_string(),
            text,
        });
    }
    match game {
        Some(path) if !path.exists() => Err(format!(
            "{}: no such game file; a roster prints a game that exists (start one with \
             `drumhead --game {} --army FILE…`), or give only --army FILE…",
            path.display(),
            path.display()
        )),
        Some(path) => {
            let game = Game::open(path, sources, tables, crate::game::Options { wait })
                .map_err(|e| e.to_string())?;
            // What was recorded after the checkpoint is resolved again and
            // included, as for `units`.
            let book = tables
                .registry()
                .default_book()
                .ok_or_else(|| "no rule system is registered".to_string())?;
            let mut session = crate::session::Session::new(tables.clone(), book, 0).with_game(game);
            session.sync_game(false).map_err(|e| e.to_string())?;
            session
                .game
                .take()
                .ok_or_else(|| "no game".to_string())
        }
        None if sources.is_empty() => {
            Err("nothing to print: give --army FILE (repeatable) or --game FILE (or `armies` in the configuration file: see `drumhead config`)".into())
        }
        None => Game::new(sources, tables).map_err(|e| e.to_string()),
    }
}

/// Where a page goes: standard output, or the file of `-o FILE`
/// (replaced only with `--force`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct To<'a> {
    pub(crate) output: Option<&'a Path>,
    pub(crate) force: bool,
}

/// A page task's options of where the page goes (`sheet`, `roster`,
/// `pocket`).
#[derive(Debug, clap::Args)]
pub(crate) struct PageOptions {
    /// Write the page into FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Replace FILE if it is an existing regular file.
    #[arg(long, requires = "output")]
    pub(crate) force: bool,
}

impl PageOptions {
    pub(crate) fn to(&self) -> To<'_> {
        To {
            output: self.output.as_deref(),
            force: self.force,
        }
    }
}

/// A printed page's options: where it goes, and the paper.
#[derive(Debug, clap::Args)]
pub(crate) struct PrintOptions {
    #[command(flatten)]
    pub(crate) page: PageOptions,
    /// The paper to print on.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) paper: Paper,
}

/// The page on standard output, or written whole into the file, under the
/// rules of every output file ([`crate::files::write_whole`]).
pub(super) fn emit(page: &str, to: To, example: &str) -> ExitCode {
    let Some(path) = to.output else {
        return match io::stdout().lock().write_all(page.as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                warn!("error: {e}");
                ExitCode::from(1)
            }
        };
    };
    match crate::files::write_whole(path, page.as_bytes(), to.force) {
        Ok(()) => {
            say!(
                "wrote {}",
                crate::text::visible(&path.display().to_string())
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            let e = e.with_file_name(example);
            warn!("error: {e}");
            ExitCode::from(if e.is_refusal() { 2 } else { 1 })
        }
    }
}

/// A page to print, in the HTML format, written as `emit` writes.
fn emit_page(answer: &Answer, paper: Paper, to: To, name: &str) -> ExitCode {
    let mut page = Vec::new();
    let source = crate::format::Source { line: 0, input: "" };
    if let Err(e) = (Html { paper }).write(answer, source, &mut page) {
        warn!("error: {e}");
        return ExitCode::from(1);
    }
    emit(&String::from_utf8_lossy(&page), to, name)
}
