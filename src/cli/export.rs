//! `drumhead tables export DIR [--force]`: the embedded table files
//! written out, to start house rules from. Each file is written under the
//! name `--tables DIR` reads it by (the example CRT as `crt.toml`), all of
//! them or none, under the rules of every output file
//! ([`crate::files::write_folder`]).

use std::path::Path;
use std::process::ExitCode;

use crate::system::Registry;

pub(crate) fn run(registry: &Registry, dir: &Path, force: bool) -> ExitCode {
    let files = registry.table_files();
    let contents: Vec<(&str, &[u8])> = files
        .iter()
        .map(|f| (f.name, f.embedded.as_bytes()))
        .collect();
    match crate::files::write_folder(dir, &contents, force) {
        Ok(paths) => {
            for path in paths {
                say!("wrote {}", shown(&path));
            }
            say!(
                "edit what you want to change and delete the rest (a file need name only the \
                 values it changes), then play with `--tables {}`",
                shown(dir)
            );
            ExitCode::SUCCESS
        }
        Err(errors) => super::nothing_written(&errors),
    }
}

/// A path as a message shows it.
fn shown(path: &Path) -> String {
    crate::text::visible(&path.display().to_string()).into_owned()
}
