//! The manual pages: `drumhead.1` from the clap definition,
//! `drumhead-commands.7`, the command language, from the catalog (which is
//! built from the tables), and `drumhead-armies.5`, the army-list format,
//! from each rule system's schema and its doc, so none can drift from the
//! program. `drumhead man DIR` writes them; tests/suite/man_pages.rs checks the
//! committed ones in `man/` are what the program generates.

use std::path::{Path, PathBuf};

use crate::catalog::Catalog;

mod armies;
mod campaigns;
mod commands;
mod files;
mod formats;
mod general;
mod json;
mod roff_text;
mod security;
mod tasks;

pub(crate) use armies::armies_5;
pub use commands::commands_7;
pub use general::{EXAMPLES, drumhead_1};

/// The file names of the pages, in the order [`pages`] gives them (the
/// man task's own text names them from here).
const PAGES: [&str; 3] = ["drumhead.1", "drumhead-commands.7", "drumhead-armies.5"];

/// The pages, by file name.
pub fn pages(catalog: &Catalog) -> Vec<(&'static str, String)> {
    let [general, commands, armies] = PAGES;
    vec![
        (general, drumhead_1()),
        (commands, commands_7(catalog)),
        (armies, armies_5(&crate::systems::all())),
    ]
}

/// Write every page into `dir` (created if missing), all or none, under
/// the rules of every output file ([`crate::files::write_folder`]: an
/// existing page is replaced only with `force`); returns the paths.
pub(crate) fn write_pages(
    dir: &Path,
    catalog: &Catalog,
    force: bool,
) -> Result<Vec<PathBuf>, Vec<crate::files::OutputError>> {
    let pages = pages(catalog);
    let files: Vec<(&str, &[u8])> = pages
        .iter()
        .map(|(name, text)| (*name, text.as_bytes()))
        .collect();
    crate::files::write_folder(dir, &files, force)
}
