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

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded tables are not checked at start-up (for speed): here,
    /// every value of every shipped table file is within the bounds a
    /// house rule's must keep.
    #[test]
    fn embedded_tables_keep_the_bounds_of_house_rules() {
        let files = all().table_files();
        assert!(files.len() >= 6, "{files:?}");
        for file in files {
            let table: toml::Table = file.embedded.parse().expect(file.name);
            crate::tables::check_values(file.name, "", &toml::Value::Table(table))
                .expect(file.name);
        }
    }
}
