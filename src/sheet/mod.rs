//! The printable kit: a quick-reference sheet of one rule book's tables in
//! force, and a roster of the armies of a game, each one self-contained
//! HTML page to print (A4 or Letter).
//!
//! A rule system describes its sheet from its own folder
//! (`RuleSystem::sheet` in the system module): sections of typed tables, in its
//! rule text's order and words. This module names no system's words: it
//! marks the cells a house rule changed ([`Sheet::mark_house`], against the
//! sheet built from the embedded tables) and renders the page. Building
//! them from a registry or a game is the `print` module's.

pub(crate) use crate::answer::cards as roster;
pub(crate) use crate::answer::sheet::signed;
pub use crate::answer::sheet::{Cell, Row, Section, Sheet, Table};
pub use crate::format::html::render_roster;
