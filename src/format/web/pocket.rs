//! The pocket page (`drumhead pocket`, `drumhead serve`'s `/pocket`): one
//! self-contained HTML page that resolves lines in a phone's browser with
//! no server. The WebAssembly module of the same resolvers, tables and
//! shipped army lists (built from `pocket/`, see `build.rs`) is inside it
//! as base64, with its script and stylesheet (the live view's, and a few
//! rules of its own); it fetches nothing.
//!
//! What a test or a script may read: `<body data-ready>` once the module
//! is running (`data-failed` with the reason if it cannot run), and
//! `window.drumhead = { resolve(line, seed), army(text),
//! shippedArmy(file), reset(), complete(prefix), shipped() }`, where
//! `resolve` returns the JSON Lines the native `drumhead --json --seed
//! SEED LINE` prints with the same armies loaded. Each answer shown is an
//! `article.entry` in `#answers` as the live view has it.

use maud::{Markup, PreEscaped, html};
use sha2::{Digest as _, Sha256};

/// The page's own script and its rules beside the live view's.
const SCRIPT: &str = include_str!("pocket/pocket.js");
const OWN_CSS: &str = include_str!("pocket/pocket.css");
/// The live view's stylesheet: answers are laid out as it lays them out.
const LIVE_CSS: &str = include_str!("../../serve/assets/page.css");

/// The module built for this program, deflated (raw DEFLATE, which the
/// page inflates with the browser's `DecompressionStream`), or why there
/// is none.
pub(crate) fn module() -> Result<&'static [u8], &'static str> {
    #[cfg(pocket_module)]
    {
        Ok(include_bytes!(env!("DRUMHEAD_POCKET_WASM")))
    }
    #[cfg(not(pocket_module))]
    {
        Err(match option_env!("DRUMHEAD_POCKET_MISSING") {
            Some(why) => why,
            None => "this build was made without the pocket page's module",
        })
    }
}

/// The page, and the digests of its inline script and stylesheet that a
/// Content-Security-Policy allows them by.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    pub html: String,
    /// `'sha256-…'` of the inline script.
    pub script_hash: String,
    /// `'sha256-…'` of the inline stylesheet.
    pub style_hash: String,
}

/// The whole page around `module` (deflated, as [`module`] gives it).
pub(crate) fn page(module: &[u8]) -> Page {
    let style = format!("{LIVE_CSS}\n{OWN_CSS}");
    let encoded = data_encoding::BASE64.encode(module);
    let body = html! {
        body.pocket {
            header.top {
                div.title {
                    span.game { "drumhead pocket" }
                    span #state role="status" aria-live="polite" { "starting…" }
                }
                nav.tabs aria-label="This page" {
                    a href="#ask" { "Line" }
                    a href="#answers-part" { "Answers" }
                    a href="#armies" { "Armies" }
                    a href="#log" { "Log" }
                }
            }
            main {
                (ask())
                section #answers-part {
                    h2 { "Answers" }
                    div #answers aria-live="polite" {
                        p #answers-empty.empty { "Answers come here, newest first, each with its seed or the dice you entered." }
                    }
                }
                (armies())
                (log())
            }
            footer {
                p {
                    "This page resolves every line on this device: nothing is sent anywhere, \
                     and it keeps working with no network. The log is kept in this browser's \
                     storage for this page."
                }
            }
            script #drumhead-module type="application/octet-stream" data-encoding="deflate-raw" {
                (PreEscaped(&encoded))
            }
            script { (PreEscaped(SCRIPT)) }
        }
    };
    let head = html! { style { (PreEscaped(&style)) } };
    let html = super::page::shell("drumhead pocket", head, body).into_string();
    Page {
        html,
        script_hash: digest(SCRIPT),
        style_hash: digest(&style),
    }
}

/// Where a line is typed: the box, the words that fit, the dice rolled
/// and the seed.
fn ask() -> Markup {
    html! {
        section #ask {
            form #pocket-form autocomplete="off" {
                label for="line" { "A line, as at the umpire's table" }
                div.ask {
                    textarea #line name="line" rows="1" autocomplete="off"
                        autocapitalize="none" spellcheck="false"
                        maxlength=(crate::limits::MAX_LINE_BYTES) required
                        placeholder="resilience +determined" {}
                    button type="submit" { "Resolve" }
                }
                div #completions.completions aria-label="Words that fit" {}
                div.extras {
                    label {
                        "Dice you rolled "
                        input #dice name="dice" inputmode="numeric" autocomplete="off"
                            placeholder="4 3 (else the page rolls)";
                    }
                    label {
                        "Seed "
                        input #seed name="seed" inputmode="numeric" autocomplete="off"
                            placeholder="new each line";
                    }
                }
                p.hint {
                    "Every number comes from the rule texts, with the whole modifier stack. "
                    code { "odds LINE" } " counts the chances exactly; "
                    code { "help" } " lists the verbs."
                }
            }
        }
    }
}

/// The army lists: a shipped one, or one from the phone.
fn armies() -> Markup {
    html! {
        section #armies {
            h2 { "Armies" }
            div.extras {
                label {
                    "A shipped list "
                    select #shipped { option value="" { "—" } }
                }
                label {
                    "A list on this phone (TOML) "
                    input #army-file type="file" accept=".toml,text/plain";
                }
            }
            ul #loaded.notes {}
            p { button #forget type="button" { "Forget the armies" } }
        }
    }
}

/// The log of answers kept in the browser, and its export.
fn log() -> Markup {
    html! {
        section #log {
            h2 { "Log" }
            p #log-count.hint { "No answers kept yet." }
            p.log-actions {
                a #export href="#log" download="drumhead-pocket.jsonl" { "Export as JSON Lines" }
                " "
                button #clear-log type="button" { "Clear the log" }
            }
        }
    }
}

/// `'sha256-BASE64'`, as a Content-Security-Policy names inline code.
fn digest(text: &str) -> String {
    format!(
        "'sha256-{}'",
        data_encoding::BASE64.encode(&Sha256::digest(text.as_bytes()))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_carries_its_module_script_and_style_and_fetches_nothing() {
        let page = page(b"\0asm\x01\0\0\0");
        assert!(page.html.contains("AGFzbQEAAAA="), "the module in base64");
        assert!(page.html.contains(&format!("<script>{SCRIPT}</script>")));
        assert!(!page.html.contains("src="), "nothing loaded by address");
        assert!(!page.html.contains("href=\"http"), "no link out");
        assert!(page.script_hash.starts_with("'sha256-"));
        assert_ne!(page.script_hash, page.style_hash);
    }
}
