//! The game-file tests that measure a drumhead process's peak memory, in
//! a test binary of their own. A child started from a test process is
//! counted, by the kernel, as holding at least what its parent held when
//! it started it: in the one large binary of every other test, that is
//! the memory of whichever test ran alongside, not drumhead's.

// Not every shared helper is used here.
#[allow(dead_code)]
#[path = "../suite/common/mod.rs"]
mod common;

mod game_file;
mod game_trust;
mod hostile;
