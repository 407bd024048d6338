//! drumhead in a WebAssembly module, for the pocket page: the same
//! resolvers, tables and JSON as `drumhead --json --seed SEED`, with no
//! operating system. Build it with `cargo build-pocket`
//! (target/wasm32-unknown-unknown/pocket/drumhead_pocket.wasm).
//!
//! # The module's interface
//!
//! Plain `extern "C"` functions of 32-bit integers; no imports. Text goes
//! both ways as UTF-8 bytes in the module's memory:
//!
//! - **In**: `dh_alloc(len) -> ptr` reserves `len` bytes; the page writes
//!   its text there, passes `(ptr, len)` to a call, then gives the bytes
//!   back with `dh_free(ptr, len)`.
//! - **Out**: every call that returns text returns its length in bytes and
//!   leaves the bytes at `dh_out_ptr()` until the next call that returns
//!   text. Read them before calling again.
//!
//! The calls:
//!
//! - `dh_resolve(ptr, len, seed_hi, seed_lo) -> len`: what
//!   `drumhead --json --seed SEED [--army FILE …] LINE` writes on standard
//!   output, byte for byte (JSON Lines: an answer, or a refusal as
//!   `{"type":"error",…}`, a line each), for the seed
//!   `seed_hi << 32 | seed_lo` and the armies loaded. The text may hold
//!   several lines (`\n`): each is resolved in turn, rolling with the seed
//!   plus its position, as the command line does with a LINE that holds
//!   them. What the command line writes on standard error (`note: …` lines
//!   of a game's effects, `error: …` for a line with nothing to resolve)
//!   is kept apart: `dh_err_ptr()` and `dh_err_len()` give it (until the
//!   next `dh_resolve`), and `dh_status()` the exit status the command
//!   line would end with (0 answered, 1 a line refused, 2 a usage error).
//! - `dh_army(ptr, len) -> len`: load an army list from its TOML text, as
//!   `--army FILE` does, after those loaded (its units may then be named).
//!   `dh_army_named(name_ptr, name_len, ptr, len)` gives the file's name,
//!   which errors quote (else `army.toml`). Returns one JSON object:
//!   `{"type":"army","file":…,"system":"drums","name":…,"loaded":"loaded …","armies":[files loaded]}`,
//!   or `{"type":"error","file":…,"error":…}` with the message the command
//!   line prints after `error: ` (the lists loaded stay as they were).
//! - `dh_shipped() -> len`: the army lists that come with drumhead, as a
//!   JSON array: `[{"file":"leuthen-1757-prussian.toml","system":"drums","name":…},…]`.
//! - `dh_shipped_army(ptr, len) -> len`: load a shipped list by its file
//!   name; answers as `dh_army`.
//! - `dh_reset()`: forget the army lists loaded.
//! - `dh_complete(ptr, len) -> len`: what may be typed at the end of the
//!   line given, as a JSON array of `{"word":…,"meaning":…}`; a word
//!   replaces what follows the line's last whitespace.
//! - `dh_view(ptr, len, seed_hi, seed_lo) -> len`: the same line and seed
//!   as the live view (`drumhead serve`) shows their answers: HTML
//!   fragments (`div.answer`, a stack's every row), for the page to show.
//!   It keeps the standard error and status of the last `dh_resolve`.
//! - `dh_out_ptr() -> ptr`, `dh_err_ptr() -> ptr`, `dh_err_len() -> len`,
//!   `dh_status() -> status`: as above.
//!
//! What differs from the command line: `help TASK` for a task of the
//! program (`help check`) answers as for an unknown verb, as the module
//! holds no command-line parser to write the task's help from; and there
//! are no options (`--rules`, `--dice`, `--tables`): a line names its rule
//! system by its first word (`mayhem fire …`) when it is not the armies'.
//!
//! The logic is [`Pocket`] (the library's `drumhead::pocket`), which the
//! tests run natively against the command line.

pub use drumhead::pocket::Pocket;
use drumhead::pocket::{Answered, Loaded};
use serde_json::{Value, json};

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The module's state: the pocket, and the text of the last calls.
pub struct State {
    pocket: Result<Pocket, String>,
    out: Vec<u8>,
    err: Vec<u8>,
    status: u8,
}

impl State {
    pub fn new() -> State {
        State {
            pocket: Pocket::new(),
            out: Vec::new(),
            err: Vec::new(),
            status: 0,
        }
    }

    /// `dh_resolve`: the answer's standard output (its standard error and
    /// status kept).
    pub fn resolve(&mut self, line: &str, seed: u64) -> &[u8] {
        let answered = match &self.pocket {
            Ok(pocket) => pocket.resolve(line, seed),
            Err(e) => Answered {
                stdout: String::new(),
                stderr: format!("error: {e}\n"),
                status: 2,
            },
        };
        self.out = answered.stdout.into_bytes();
        self.err = answered.stderr.into_bytes();
        self.status = answered.status;
        &self.out
    }

    /// `dh_army_named`: load a list, say what was loaded or why not.
    pub fn army(&mut self, file: &str, bytes: &[u8]) -> &[u8] {
        let loaded = match &mut self.pocket {
            Ok(pocket) => pocket.load_army(file, bytes),
            Err(e) => Err(e.clone()),
        };
        let answer = match loaded {
            Ok(loaded) => self.loaded_json(&loaded),
            Err(e) => json!({"type": "error", "file": file, "error": e}),
        };
        self.say(&answer)
    }

    /// `dh_shipped_army`: load a shipped list by its file name.
    pub fn shipped_army(&mut self, file: &str) -> &[u8] {
        match SHIPPED.iter().find(|(name, _)| *name == file) {
            Some((name, text)) => self.army(name, text.as_bytes()),
            None => {
                let names: Vec<&str> = SHIPPED.iter().map(|(name, _)| *name).collect();
                let e = format!(
                    "no army list named `{file}` comes with drumhead: the lists are {}",
                    names.join(", ")
                );
                self.say(&json!({"type": "error", "file": file, "error": e}))
            }
        }
    }

    /// `dh_shipped`: the shipped lists, each with its system and name.
    pub fn shipped(&mut self) -> &[u8] {
        let lists: Vec<Value> = SHIPPED
            .iter()
            .map(|(file, text)| {
                let looked = self
                    .pocket
                    .as_ref()
                    .map_err(Clone::clone)
                    .and_then(|p| p.look_at_army(file, text.as_bytes()));
                match looked {
                    Ok(l) => json!({"file": file, "system": l.system, "name": l.name}),
                    Err(e) => json!({"file": file, "error": e}),
                }
            })
            .collect();
        self.say(&Value::Array(lists))
    }

    /// `dh_reset`.
    pub fn reset(&mut self) {
        if let Ok(pocket) = &mut self.pocket {
            pocket.reset();
        }
    }

    /// `dh_complete`.
    pub fn complete(&mut self, line: &str) -> &[u8] {
        let found: Vec<Value> = match &self.pocket {
            Ok(pocket) => pocket
                .complete(line)
                .into_iter()
                .map(|(word, meaning)| json!({"word": word, "meaning": meaning}))
                .collect(),
            Err(_) => Vec::new(),
        };
        self.say(&Value::Array(found))
    }

    /// `dh_view`: the live view's HTML of a line's answers.
    pub fn view(&mut self, line: &str, seed: u64) -> &[u8] {
        self.out = match &self.pocket {
            Ok(pocket) => pocket.view(line, seed).into_bytes(),
            Err(_) => Vec::new(),
        };
        &self.out
    }

    /// Standard error of the last `resolve`.
    pub fn err(&self) -> &[u8] {
        &self.err
    }

    /// The exit status of the last `resolve`.
    pub fn status(&self) -> u8 {
        self.status
    }

    fn loaded_json(&self, loaded: &Loaded) -> Value {
        let armies: Vec<&str> = match &self.pocket {
            Ok(pocket) => pocket.armies().collect(),
            Err(_) => Vec::new(),
        };
        json!({
            "type": "army",
            "file": loaded.file,
            "system": loaded.system,
            "name": loaded.name,
            "loaded": loaded.summary,
            "armies": armies,
        })
    }

    fn say(&mut self, value: &Value) -> &[u8] {
        self.out = value.to_string().into_bytes();
        &self.out
    }
}

impl Default for State {
    fn default() -> State {
        State::new()
    }
}

#[cfg(target_arch = "wasm32")]
mod abi {
    //! The exports: pointers and lengths are the module's own 32-bit
    //! addresses.

    use std::cell::RefCell;

    use super::State;

    /// The name an army list's errors quote when the page gives none.
    const UNNAMED: &str = "army.toml";

    thread_local! {
        static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
    }

    /// Run `f` on the module's state, made on first use.
    fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
        STATE.with(|cell| {
            let mut state = cell.borrow_mut();
            f(state.get_or_insert_with(State::new))
        })
    }

    /// The bytes the page wrote at `ptr`.
    ///
    /// # Safety
    /// `ptr..ptr+len` must be memory the page reserved with `dh_alloc`
    /// and wrote.
    unsafe fn bytes<'a>(ptr: u32, len: u32) -> &'a [u8] {
        if len == 0 {
            return &[];
        }
        // SAFETY: see above.
        unsafe { std::slice::from_raw_parts(ptr as usize as *const u8, len as usize) }
    }

    /// Text the page wrote; bytes that are not UTF-8 are replaced.
    unsafe fn text<'a>(ptr: u32, len: u32) -> std::borrow::Cow<'a, str> {
        // SAFETY: the caller's.
        String::from_utf8_lossy(unsafe { bytes(ptr, len) })
    }

    fn out(bytes: &[u8]) -> u32 {
        bytes.len() as u32
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn dh_alloc(len: u32) -> u32 {
        let mut buffer: Vec<u8> = Vec::with_capacity((len as usize).max(1));
        let ptr = buffer.as_mut_ptr();
        std::mem::forget(buffer);
        ptr as usize as u32
    }

    /// # Safety
    /// `ptr` and `len` must be those of a `dh_alloc`, given back once.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dh_free(ptr: u32, len: u32) {
        // SAFETY: see above: the vector `dh_alloc` made and forgot.
        drop(unsafe { Vec::from_raw_parts(ptr as usize as *mut u8, 0, (len as usize).max(1)) });
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn dh_out_ptr() -> u32 {
        with_state(|s| s.out.as_ptr() as usize as u32)
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn dh_err_ptr() -> u32 {
        with_state(|s| s.err().as_ptr() as usize as u32)
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn dh_err_len() -> u32 {
        with_state(|s| s.err().len() as u32)
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn dh_status() -> u32 {
        with_state(|s| u32::from(s.status()))
    }

    /// # Safety
    /// As [`bytes`].
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dh_resolve(ptr: u32, len: u32, seed_hi: u32, seed_lo: u32) -> u32 {
        // SAFETY: the caller's.
        let line = unsafe { text(ptr, len) };
        let seed = (u64::from(seed_hi) << 32) | u64::from(seed_lo);
        with_state(|s| out(s.resolve(&line, seed)))
    }

    /// # Safety
    /// As [`bytes`].
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dh_army(ptr: u32, len: u32) -> u32 {
        // SAFETY: the caller's.
        let list = unsafe { bytes(ptr, len) };
        with_state(|s| out(s.army(UNNAMED, list)))
    }

    /// # Safety
    /// As [`bytes`], for both.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dh_army_named(
        name_ptr: u32,
        name_len: u32,
        ptr: u32,
        len: u32,
    ) -> u32 {
        // SAFETY: the caller's.
        let (name, list) = unsafe { (text(name_ptr, name_len), bytes(ptr, len)) };
        let name = if name.is_empty() { UNNAMED } else { &name };
        with_state(|s| out(s.army(name, list)))
    }

    /// # Safety
    /// As [`bytes`].
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dh_view(ptr: u32, len: u32, seed_hi: u32, seed_lo: u32) -> u32 {
        // SAFETY: the caller's.
        let line = unsafe { text(ptr, len) };
        let seed = (u64::from(seed_hi) << 32) | u64::from(seed_lo);
        with_state(|s| out(s.view(&line, seed)))
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn dh_shipped() -> u32 {
        with_state(|s| out(s.shipped()))
    }

    /// # Safety
    /// As [`bytes`].
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dh_shipped_army(ptr: u32, len: u32) -> u32 {
        // SAFETY: the caller's.
        let file = unsafe { text(ptr, len) };
        with_state(|s| out(s.shipped_army(&file)))
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn dh_reset() {
        with_state(|s| s.reset());
    }

    /// # Safety
    /// As [`bytes`].
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dh_complete(ptr: u32, len: u32) -> u32 {
        // SAFETY: the caller's.
        let line = unsafe { text(ptr, len) };
        with_state(|s| out(s.complete(&line)))
    }
}
