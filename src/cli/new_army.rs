//! `drumhead new-army BOOK [-o FILE] [--force]`: an army list to start
//! from, written from the book's schema and doc (see `army::doc`).

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::system::Registry;

pub fn run(registry: &Registry, book: &str, output: Option<&Path>, force: bool) -> ExitCode {
    // clap has already refused an id that is no book's.
    let Some((book, system)) = registry
        .book(book)
        .and_then(|b| registry.system_of(b).map(|s| (b, s)))
    else {
        warn!("error: no rule book \"{book}\"");
        return ExitCode::from(2);
    };
    let text = crate::army::doc::template(system.army(), book, true);
    let Some(path) = output else {
        return match io::stdout().lock().write_all(text.as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                warn!("error: {e}");
                ExitCode::from(1)
            }
        };
    };
    match write(path, &text, force) {
        Ok(()) => {
            say!(
                "wrote {}: a {} list to edit; check it with `drumhead check {}`",
                path.display(),
                book.id(),
                path.display()
            );
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if registry
                .table_files()
                .iter()
                .any(|f| f.name == name || f.embedded_name == name)
            {
                warn!(
                    "note: {name} is also the name of a house-rule table file, so `drumhead check` \
                     would read it as tables; a name such as my-{name} avoids that"
                );
            }
            ExitCode::SUCCESS
        }
        Err(Refused(why)) => {
            warn!("error: {}: {why}", path.display());
            ExitCode::from(2)
        }
        Err(Failed(e)) => {
            warn!("error: {}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}

enum WriteError {
    /// The file is not one new-army may write.
    Refused(String),
    Failed(io::Error),
}
use WriteError::{Failed, Refused};

/// A new file, or with `force` a regular file replaced whole (never a
/// link, a directory, a FIFO or a device).
fn write(path: &Path, text: &str, force: bool) -> Result<(), WriteError> {
    let existing = match std::fs::symlink_metadata(path) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(Failed(e)),
    };
    match existing {
        Some(_) if !force => Err(Refused(
            "already exists; give --force to overwrite it, or another -o FILE".into(),
        )),
        Some(meta) if !meta.is_file() => Err(Refused(
            "is not a regular file (a link, directory or device); new-army writes only \
             regular files, even with --force"
                .into(),
        )),
        Some(_) => {
            // Beside it, then renamed over it: the old list stays whole
            // until the new one is.
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(Failed)?;
            tmp.write_all(text.as_bytes()).map_err(Failed)?;
            tmp.persist(path).map_err(|e| Failed(e.error))?;
            Ok(())
        }
        None => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| match e.kind() {
                    // Made between our look and the open.
                    io::ErrorKind::AlreadyExists => Refused(
                        "already exists; give --force to overwrite it, or another -o FILE".into(),
                    ),
                    _ => Failed(e),
                })?;
            file.write_all(text.as_bytes()).map_err(Failed)
        }
    }
}
