//! A roster of a game's armies, ready to print: one card per unit, figure
//! or leader (the `print` module fills it from a game).

/// The armies of a game, ready to print.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roster {
    pub title: String,
    /// The army lists and game it was made from.
    pub sources: Vec<String>,
    pub armies: Vec<ArmyCards>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArmyCards {
    pub name: String,
    /// The rule book's title.
    pub rules: String,
    pub side: Option<String>,
    /// What the army's system says under its table (its generals…).
    pub notes: Vec<String>,
    pub cards: Vec<Card>,
}

/// One unit, figure or leader.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Card {
    pub id: String,
    pub name: String,
    /// Why it can no longer act, if so.
    pub out_of_action: Option<String>,
    /// Its facts and state, in its system's order.
    pub rows: Vec<(String, String)>,
}
