//! Moved to `crate::answer::report`.

pub use crate::answer::report::*;
