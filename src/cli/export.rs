//! `drumhead tables export DIR [--force]`: the embedded table files
//! written out, to start house rules from. Each file is written under the
//! name `--tables DIR` reads it by (the example CRT as `crt.toml`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::system::Registry;

pub fn run(registry: &Registry, dir: &Path, force: bool) -> ExitCode {
    let files = registry.table_files();
    if let Err(e) = std::fs::create_dir_all(dir) {
        warn!("error: {}: {e}", dir.display());
        return ExitCode::from(1);
    }
    // Every file is looked at before any is written: a refusal leaves the
    // directory as it was.
    let mut refused = 0;
    for file in &files {
        let path = dir.join(file.name);
        if let Some(why) = refusal(&path, force) {
            refused += 1;
            warn!("error: {}: {why}", path.display());
        }
    }
    if refused > 0 {
        warn!("nothing was written");
        return ExitCode::from(2);
    }
    for file in &files {
        let path = dir.join(file.name);
        if let Err(e) = write(&path, file.embedded) {
            warn!("error: {}: {e}", path.display());
            return ExitCode::from(1);
        }
        say!("wrote {}", path.display());
    }
    say!(
        "edit what you want to change and delete the rest (a file need name only the \
         values it changes), then play with `--tables {}`",
        dir.display()
    );
    ExitCode::SUCCESS
}

/// Why a file may not be written, if so.
fn refusal(path: &Path, force: bool) -> Option<&'static str> {
    match std::fs::symlink_metadata(path) {
        Err(_) => None,
        Ok(meta) if !meta.is_file() => Some(
            "is not a regular file (a link, directory or device); export writes only regular \
             files, even with --force",
        ),
        Ok(_) if !force => Some("already exists; give --force to overwrite it"),
        Ok(_) => None,
    }
}

/// Beside the file, then renamed over it: an old file stays whole until
/// the new one is.
fn write(path: &Path, text: &str) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
