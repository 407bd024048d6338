//! drumhead: the umpire's calculator for horse-and-musket wargames.
//!
//! The pipeline runs one way: text is parsed ([`parse`]) into a
//! [`command::Command`]; its words are bound against the verb's vocabulary
//! ([`bind`], [`catalog`]); a resolver of one rule system ([`drums`]) draws
//! dice from a [`dice::DiceSource`] and returns a
//! [`answer::Resolution`]; a [`format`] writes that as text or JSON.
//! The numbers come from `tables/*.toml` ([`tables`]).
//!
//! The front ends (the command line, the REPL, `drumhead serve`) and what
//! they ask of an operating system come with the `native` feature, on by
//! default. Without it the library is the platform-free core, which builds
//! for `wasm32-unknown-unknown` as well.

// Without the front ends, what only they use of the core is unused.
#![cfg_attr(not(feature = "native"), allow(dead_code, unused_imports))]

pub mod answer;
pub mod army;
pub mod bind;
#[cfg(feature = "native")]
pub mod campaign;
pub(crate) mod carry;
pub mod catalog;
#[cfg(feature = "native")]
pub mod cli;
pub mod command;
pub(crate) mod complete;
pub mod dice;
pub mod drums;
pub mod error;
pub(crate) mod files;
pub mod format;
pub mod game;
pub mod help;
pub(crate) mod limits;
pub(crate) mod lines;
pub mod mayhem;
pub(crate) mod meta;
pub(crate) mod odds;
pub(crate) mod output_file;
pub mod parse;
pub(crate) mod platform;
pub mod pocket;
pub mod print;
#[cfg(feature = "native")]
pub mod repair;
#[cfg(feature = "native")]
pub(crate) mod replay;
pub(crate) mod roll;
pub mod saber;
#[cfg(feature = "native")]
pub(crate) mod serve;
pub mod session;
pub mod sheet;
pub(crate) mod sweep;
pub mod system;
pub mod systems;
pub mod tables;
pub(crate) mod text;

// The tests that reach inside the library live beside the others, under
// tests/, but are built with it: see tests/unit/mod.rs.
#[cfg(test)]
#[path = "../tests/unit/mod.rs"]
mod unit;
