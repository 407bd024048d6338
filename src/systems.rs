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

    /// A shared table file (`campaign.toml`) is written once, and its
    /// sections are each a rule book's id, read by that book's system:
    /// the embedded file has a section for every one a system reads, and
    /// no other.
    #[test]
    fn a_shared_table_files_sections_are_the_books_that_read_them() {
        let registry = all();
        let files = registry.table_files();
        let shared: Vec<_> = files.iter().filter(|f| !f.sections.is_empty()).collect();
        assert_eq!(
            shared.iter().map(|f| f.name).collect::<Vec<_>>(),
            [crate::carry::CAMPAIGN_FILE]
        );
        for system in registry.systems() {
            for file in system
                .table_files()
                .iter()
                .filter(|f| !f.sections.is_empty())
            {
                for section in file.sections {
                    assert!(
                        system.books().iter().any(|b| b.id() == *section),
                        "{} reads [{section}] of {}, not one of its books",
                        system.name(),
                        file.name
                    );
                }
            }
        }
        let file = shared[0];
        let table: toml::Table = file.embedded.parse().expect(file.name);
        let mut sections: Vec<&str> = table.keys().map(String::as_str).collect();
        let mut read = registry.sections_of(file.name);
        sections.sort_unstable();
        read.sort_unstable();
        assert_eq!(sections, read);
        assert_eq!(read, ["drums", "mayhem", "saber", "saber-quickplay"]);
    }
}
