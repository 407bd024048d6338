//! Every integration test, as modules of one test binary: one link of
//! the library instead of one a file, which was most of a clean `cargo
//! test`. Run one file's tests with `cargo test --test suite NAME::`
//! (the game-file tests that measure memory are in tests/game/).

mod common;

mod armies_doc;
mod army_problems;
mod batch;
mod campaign;
mod cli;
mod config;
mod doc_examples;
mod drums_contradictions;
mod drums_evening;
mod drums_issue15;
mod drums_issue23;
mod drums_pools_tables;
mod drums_units;
mod escapes;
mod everywhere_issue23;
mod fuzz_lines;
mod game;
mod house_tables;
mod limits;
mod man_pages;
mod mayhem_contradictions;
mod mayhem_evening;
mod mayhem_figures;
mod mayhem_issue23;
mod mayhem_odds;
mod mayhem_tables;
mod modules;
mod odds;
mod odds_charts;
mod output_paths;
mod pocket;
mod print_browser;
mod print_roster;
mod print_sheet;
mod repl;
mod repl_session;
mod repl_shell;
mod repl_tmux;
mod replay;
mod saber_contradictions;
mod saber_counters;
mod saber_evening;
mod saber_issue23;
mod saber_no_slr;
mod saber_odds;
mod saber_restrictions;
mod saber_tables;
mod saber_units;
mod stream;
mod table35;
mod talk_brief;
mod talk_names;
mod talk_usable;
