//! The End of Turn Resilience Tests: which units take them, in what order,
//! and what `end-turn` says.

use super::DrumsGame;
use crate::drums::army::Unit;

impl DrumsGame<'_> {
    /// The units at 50% or less that take the end-of-turn resilience test,
    /// each side's in list order: the side without the initiative first.
    /// Returns (side index, its units) in the order the sides test.
    pub(crate) fn end_turn_queues(&self) -> Vec<(usize, Vec<&Unit>)> {
        let mut queues: Vec<(usize, Vec<&Unit>)> = self
            .armies
            .iter()
            .enumerate()
            .map(|(side, (_, list))| {
                let due = list
                    .units
                    .iter()
                    .filter(|u| self.unit_out(u).is_none() && self.strength(u).half_or_less())
                    .collect();
                (side, due)
            })
            .collect();
        // "The player without initiative goes first."
        if self.initiative == Some(0) && queues.len() == 2 {
            queues.swap(0, 1);
        }
        queues
    }

    /// What `end-turn` says: the End of Turn Resilience Tests ("At the end of
    /// every turn, players complete resilience tests on any units that are at
    /// 50% or lower in strength than when they started the game. This is done
    /// alternatively by units in any order the player prefers. The player
    /// without initiative goes first.").
    pub(super) fn end_turn_text(&self) -> String {
        let mut out = tests_text(self);
        for side in 0..self.armies.len() {
            if let Some(text) = self.risk_aftermath(side) {
                out.push_str(&format!("\n{}. `next-turn` ends it.", capitalised(&text)));
            }
        }
        out
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// The end-of-turn resilience tests due.
fn tests_text(game: &DrumsGame) -> String {
    let queues = game.end_turn_queues();
    let due: usize = queues.iter().map(|(_, q)| q.len()).sum();
    if due == 0 {
        return "end of turn: no unit is at 50% or less of its starting strength; \
                no resilience tests"
            .into();
    }
    let mut out = String::from(
        "end of turn: resilience tests for every unit at 50% or less of its starting strength \
         (`resilience UNIT`, all other cases).",
    );
    if queues.len() == 2 {
        let first = game.side(queues[0].0);
        match game.initiative {
            Some(with) => out.push_str(&format!(
                "\nThe player without the initiative goes first: {first} ({} has the initiative).",
                game.side(with)
            )),
            None => out.push_str(&format!(
                "\nThe player without the initiative goes first: no initiative is recorded this \
                 turn (`initiative`), so {first} is listed first."
            )),
        }
        for (side, q) in &queues {
            if q.is_empty() {
                out.push_str(&format!("\n{} has no unit to test.", game.side(*side)));
            }
        }
    }
    out.push_str(
        "\nPlayers alternate one unit at a time, each in any order he prefers; apply each result \
         immediately and check the victory conditions after each test.",
    );
    let mut n = 0;
    let longest = queues.iter().map(|(_, q)| q.len()).max().unwrap_or(0);
    for i in 0..longest {
        for (side, q) in &queues {
            let Some(u) = q.get(i) else { continue };
            n += 1;
            let st = game.strength(u);
            out.push_str(&format!(
                "\n  {n}. {} — {} ({}: {} of {} {}, {}%)",
                u.id,
                u.name,
                game.side(*side),
                st.left(),
                st.start,
                st.what(),
                st.percent()
            ));
        }
    }
    out
}
