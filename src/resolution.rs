//! Moved to `crate::answer::resolution`.

pub use crate::answer::resolution::*;
