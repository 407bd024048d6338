//! `drumhead new-army BOOK [-o FILE] [--force]`: an army list to start
//! from, written from the book's schema and doc (see `army::doc`). The
//! file follows the rules of every output file
//! ([`crate::files::write_whole`]).

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::system::Registry;

pub(crate) fn run(registry: &Registry, book: &str, output: Option<&Path>, force: bool) -> ExitCode {
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
    match crate::files::write_whole(path, text.as_bytes(), force) {
        Ok(()) => {
            let shown = crate::text::visible(&path.display().to_string()).into_owned();
            say!(
                "wrote {shown}: a {} list to edit; check it with `drumhead check {shown}`",
                book.id(),
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
        Err(e) => {
            let e = e.with_file_name("my-army.toml");
            warn!("error: {e}");
            ExitCode::from(if e.is_refusal() { 2 } else { 1 })
        }
    }
}
