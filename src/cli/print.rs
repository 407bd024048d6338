//! `drumhead sheet SYSTEM` and `drumhead roster`: the printable kit (see
//! the `sheet` module), one HTML page on standard output or in a file.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::game::{ArmySource, Game};
use crate::print;
use crate::sheet::{self, html::Paper};
use crate::system::{Registry, Tables};
use crate::tables::TableSource;

/// `drumhead sheet SYSTEM [-o FILE] [--paper P]`.
pub fn sheet(
    registry: &Registry,
    source: &TableSource,
    system: &str,
    output: Option<&Path>,
    paper: Paper,
) -> ExitCode {
    let made =
        print::book_named(registry, system).and_then(|book| print::sheet(registry, book, source));
    match made {
        Ok(sheet) => emit(&sheet::render_sheet(&sheet, paper), output, "sheet.html"),
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `drumhead roster [--army FILE…] [--game FILE] [-o FILE] [--paper P]`.
pub fn roster(
    tables: &Tables,
    armies: &[PathBuf],
    game: Option<&Path>,
    wait: bool,
    output: Option<&Path>,
    paper: Paper,
) -> ExitCode {
    match open(tables, armies, game, wait) {
        Ok(game) => emit(
            &sheet::render_roster(&print::roster(&game), paper),
            output,
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

/// The page on standard output, or written whole into `output`.
fn emit(page: &str, output: Option<&Path>, example: &str) -> ExitCode {
    let Some(path) = output else {
        return match io::stdout().lock().write_all(page.as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                warn!("error: {e}");
                ExitCode::from(1)
            }
        };
    };
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.is_file()
    {
        let what = if meta.is_dir() {
            format!("is a directory; give a file name such as {example}")
        } else {
            "is not a regular file (a link or device); the page is written only to a regular file"
                .to_string()
        };
        warn!("error: {}: {what}", path.display());
        return ExitCode::from(2);
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    if !dir.is_dir() {
        warn!(
            "error: {}: the directory {} does not exist",
            path.display(),
            dir.display()
        );
        return ExitCode::from(1);
    }
    match write(&dir, path, page) {
        Ok(()) => {
            say!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            warn!("error: {}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}

/// Beside the file, then renamed over it: a reader never sees half a page.
fn write(dir: &Path, path: &Path, text: &str) -> io::Result<()> {
    // tempfile names its own random file in an error: the user's file is
    // the one to name.
    let plain = |e: io::Error| {
        let message = e.to_string();
        let message = message.split(" at path ").next().unwrap_or_default();
        io::Error::new(e.kind(), message.to_string())
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(plain)?;
    tmp.write_all(text.as_bytes())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
