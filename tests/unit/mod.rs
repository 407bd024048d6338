//! The library's own tests that reach inside it: the rule tables walked
//! row by row, the checkpoints of a kept game, the registry that takes a
//! fifth rule system, the facts a named unit brings. They are compiled
//! with the library (`cargo test --lib`), so what only they use stays
//! private to the crate; the tests that run the program as a user does
//! are in tests/suite, tests/game, tests/serve and tests/cmd.

mod army_lists;
mod checkpoint;
mod drums_facts;
mod drums_kinds;
mod drums_tables;
mod fifth_system;
mod json_schemas;
mod lazy_verbs;
mod named_units;
mod no_panic;
mod saber_crt;
