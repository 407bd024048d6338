//! A roster of a game's armies, ready to print: one card per unit, figure
//! or leader (the `print` module fills it from a game).

/// The armies of a game, ready to print.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roster {
    pub(crate) title: String,
    /// The army lists and game it was made from.
    pub(crate) sources: Vec<String>,
    pub armies: Vec<ArmyCards>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArmyCards {
    pub(crate) name: String,
    /// The rule book's title.
    pub rules: String,
    pub(crate) side: Option<String>,
    /// What the army's system says under its table (its generals…).
    pub(crate) notes: Vec<String>,
    pub cards: Vec<Card>,
}

/// One unit, figure or leader.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Card {
    pub id: String,
    pub(crate) name: String,
    /// Why it can no longer act, if so.
    pub out_of_action: Option<String>,
    /// Its facts and state, in its system's order.
    pub rows: Vec<(String, String)>,
}
