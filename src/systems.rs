//! The rule systems drumhead ships, in order: the first is the default.
//! A new system is a folder beside these and one line here.

use crate::error::TableError;
use crate::system::{Registry, Tables};
use crate::tables::TableSource;

/// Every shipped rule system.
pub fn all() -> Registry {
    Registry::new(vec![
        &crate::drums::SYSTEM,
        &crate::mayhem::SYSTEM,
        &crate::saber::SYSTEM,
    ])
}

/// Every shipped system with its embedded tables.
pub fn embedded() -> Result<Tables, TableError> {
    all().load(&TableSource::embedded())
}
