//! `drumhead pocket [-o FILE [--force]]`: the pocket page, one HTML file
//! that resolves lines in a phone's browser with no server (see
//! `format::web::pocket`).

use std::io::IsTerminal as _;
use std::process::ExitCode;

use super::print::{To, emit};
use crate::format::web::pocket;

pub(super) fn run(to: To) -> ExitCode {
    // A path that cannot take the page is refused first, as it is for
    // every output file, whatever this build carries.
    if let Some(path) = to.output
        && let Err(e) = crate::output_file::check_output(path, to.force)
    {
        let e = e.with_file_name("pocket.html");
        warn!("error: {e}");
        return ExitCode::from(if e.is_refusal() { 2 } else { 1 });
    }
    let module = match pocket::module() {
        Ok(module) => module,
        Err(why) => {
            warn!(
                "error: {why}.\n\
                 To get the pocket page: `rustup target add wasm32-unknown-unknown`, then build \
                 drumhead again (`cargo build --release`, `cargo install --path .`, or \
                 `DRUMHEAD_POCKET=1 cargo build` for a debug build)."
            );
            return ExitCode::from(2);
        }
    };
    if to.output.is_none() && std::io::stdout().is_terminal() {
        warn!(
            "error: the pocket page is {} KiB of HTML: write it into a file with \
             `drumhead pocket -o pocket.html`",
            module.len() / 1024
        );
        return ExitCode::from(2);
    }
    let page = pocket::page(module);
    emit(&page.html, to, "pocket.html")
}
