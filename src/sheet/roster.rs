//! A roster of a game's armies: one card per unit, figure or leader, with
//! what its army list says of it and, in a game, its state now — read from
//! each rule system's game part (`show`), never from rendered text.

use crate::game::Game;
use crate::report::Report;

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

/// The roster of a game as it stands.
pub fn roster(game: &Game) -> Roster {
    use crate::catalog::Units;
    let Report::Roster { armies: tables, .. } = game.roster() else {
        return Roster::default();
    };
    let armies = game
        .armies
        .iter()
        .enumerate()
        .map(|(i, army)| {
            let cards = army
                .list
                .members()
                .into_iter()
                .map(|m| {
                    let rows = match game.show(m.id) {
                        Some(Report::Unit { rows, .. }) => {
                            rows.into_iter().map(|r| (r.label, r.value)).collect()
                        }
                        _ => Vec::new(),
                    };
                    Card {
                        id: m.id.to_string(),
                        name: m.name.to_string(),
                        out_of_action: game
                            .unit(army.rules, m.id)
                            .and_then(|facts| facts.out_of_action),
                        rows,
                    }
                })
                .collect();
            ArmyCards {
                name: army.name.clone(),
                rules: army.rules.title().to_string(),
                side: (!army.side.is_empty()).then(|| army.side.clone()),
                notes: tables.get(i).map(|t| t.notes.clone()).unwrap_or_default(),
                cards,
            }
        })
        .collect();
    let names: Vec<&str> = game.armies.iter().map(|a| a.name.as_str()).collect();
    let mut sources: Vec<String> = game.sources.iter().map(|s| s.file.clone()).collect();
    if let Some(file) = &game.file {
        sources.push(format!("game {}, turn {}", file.display(), game.turn));
    }
    Roster {
        title: format!("Roster: {}", names.join(" — ")),
        sources,
        armies,
    }
}
