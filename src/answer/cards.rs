//! A roster of a game's armies, ready to print: a table an army, one line
//! a unit, figure or leader, grouped by command, with boxes to pencil in
//! what it loses. Each rule system fills its own army's table (its columns,
//! its commands, what its boxes count); the `print` module gathers them.

/// The armies of a game, ready to print.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roster {
    pub(crate) title: String,
    /// The army lists and game it was made from.
    pub(crate) sources: Vec<String>,
    pub armies: Vec<ArmyTable>,
}

/// One army: its system's columns and its units, command by command.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArmyTable {
    pub(crate) name: String,
    /// The rule book's title.
    pub rules: String,
    pub(crate) side: Option<String>,
    /// The heads of the system's columns, between a line's name and its
    /// boxes: the factors a counter or a figure's card prints.
    pub columns: Vec<String>,
    pub commands: Vec<Command>,
    /// What the system says under its table (what a box stands for…).
    pub(crate) notes: Vec<String>,
}

/// A command (a general's line of command, a division, a group) and the
/// lines under it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Command {
    /// Its name: the general's or the division's, in the list's words.
    pub heading: String,
    /// Its leaders: generals have a line of their own, as units do.
    pub lines: Vec<Line>,
}

/// One unit, figure or leader.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Line {
    pub id: String,
    pub(crate) name: String,
    /// One cell for each of the army's columns.
    pub cells: Vec<String>,
    /// Rows of boxes to pencil in: bases, hits, steps, tokens.
    pub boxes: Vec<Boxes>,
    /// What is so of it now, in plain words; only what is set.
    pub state: Vec<String>,
    /// Why it can no longer act, if so.
    pub out_of_action: Option<String>,
}

/// A row of boxes: what they count, how many, and how many are crossed
/// already (lost in the game so far).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Boxes {
    pub what: String,
    pub count: u32,
    pub crossed: u32,
}

impl Boxes {
    /// `count` boxes of `what`, `crossed` of them crossed, both clamped so
    /// that a list's huge number never prints a page of boxes.
    pub(crate) fn new(what: impl Into<String>, count: i64, crossed: i64) -> Boxes {
        let count = count.clamp(0, MAX_BOXES);
        Boxes {
            what: what.into(),
            count: count as u32,
            crossed: crossed.clamp(0, count) as u32,
        }
    }
}

/// The most boxes a row prints; a unit of more is written as a number.
pub(crate) const MAX_BOXES: i64 = 40;
