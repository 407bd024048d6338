//! A typed `initiative` line as the game completes it: each side's pool
//! from its generals on the board, `no-supply` where the force commander
//! was lost, `what-if` for a dice-off that is not the game's own.

use super::DrumsGame;
use crate::command::Command;
use crate::drums::army::{General, List};
use crate::parse::added_word;

impl DrumsGame<'_> {
    pub(super) fn expand_initiative(&self, command: &Command) -> Option<Command> {
        if command.verb != "initiative" {
            return None;
        }
        let [(_, a), (_, b)] = self.armies else {
            return None;
        };
        let vs = match command.clauses.as_slice() {
            [] => None,
            [c] if c.kind == crate::command::ClauseKind::Vs => Some(c),
            _ => return None,
        };
        let sides = [
            command.words.as_slice(),
            vs.map_or(&[][..], |c| c.words.as_slice()),
        ];
        let is_supply = |w: &crate::command::Word| matches!(&w.kind, crate::command::WordKind::Keyword { name, value: None } if name == "supply");
        // The refusal: `no-supply` right after the side's own words, so
        // that every word before it stands where it was typed.
        for (side, words) in sides.iter().enumerate() {
            if self.commander_lost(side).is_some()
                && words.iter().any(is_supply)
                && let Some(last) = words.last()
            {
                return Some(with_word(command, side, "no-supply", last.span));
            }
        }
        if !sides.iter().all(|words| words.iter().all(is_supply)) {
            return self.what_if(command, &sides);
        }
        let at = command.verb_span;
        let side = |list: &List, words: &[crate::command::Word]| {
            // "1D6 per general remaining on the board": an incapacitated
            // general is off it until the next turn; one swept away to his
            // long edge is still on it.
            let present: Vec<&General> = list
                .generals
                .iter()
                .filter(|g| !self.general_state(&g.id).incapacitated)
                .collect();
            let count = |ability: &str| present.iter().filter(|g| g.ability == ability).count();
            let mut pool = vec![
                added_word(format!("generals={}", present.len()), at),
                added_word(format!("exceptional={}", count("exceptional")), at),
                added_word(format!("incompetent={}", count("incompetent")), at),
            ];
            if !words.is_empty() {
                pool.push(added_word("supply", at));
            }
            pool
        };
        let vs_span = vs.map_or(at, |c| c.span);
        Some(Command {
            words: side(a, sides[0]),
            clauses: vec![crate::command::Clause {
                kind: crate::command::ClauseKind::Vs,
                span: vs_span,
                words: side(b, sides[1]),
            }],
            ..command.clone()
        })
    }

    /// An initiative line with pools of its own: marked `what-if`, so that
    /// it is not recorded as the game's initiative (nor orders the
    /// end-of-turn tests), unless it names each army's generals on the
    /// board, all of them, the first army's before `vs`.
    fn what_if(&self, command: &Command, sides: &[&[crate::command::Word]; 2]) -> Option<Command> {
        let marked = sides
            .iter()
            .flat_map(|w| w.iter())
            .any(|w| w.keyword() == Some(WHAT_IF));
        if marked {
            return None;
        }
        let own = self.armies.iter().zip(sides).all(|((_, list), words)| {
            let mut named: Vec<&str> = words
                .iter()
                .filter_map(|w| w.keyword())
                .filter(|k| *k != "supply")
                .collect();
            let mut present: Vec<&str> = list
                .generals
                .iter()
                .filter(|g| !self.general_state(&g.id).incapacitated)
                .map(|g| g.id.as_str())
                .collect();
            named.sort_unstable();
            present.sort_unstable();
            !present.is_empty() && named == present
        });
        if own {
            return None;
        }
        let at = sides[0].last().map_or(command.verb_span, |w| w.span);
        Some(with_word(command, 0, WHAT_IF, at))
    }
}

/// The command with one word added at the end of a side's words (0: the
/// acting side, 1: its `vs` clause), shown at `span`.
fn with_word(command: &Command, side: usize, text: &str, span: crate::command::Span) -> Command {
    let mut command = command.clone();
    let word = added_word(text, span);
    match side.checked_sub(1) {
        None => command.words.push(word),
        Some(i) => {
            if let Some(clause) = command.clauses.get_mut(i) {
                clause.words.push(word);
            }
        }
    }
    command
}

/// A dice-off that is not the game's own: typed counts, or generals named
/// otherwise than all of each army's on the board. A game marks it, so
/// that only the game's own initiative is recorded and orders the
/// end-of-turn tests.
pub(crate) const WHAT_IF: &str = "what-if";

impl DrumsGame<'_> {
    /// `log`'s name for an outcome that stands for a side: the winner of
    /// an initiative by its army's side, the winner of a melee round by
    /// its unit's id.
    pub(super) fn outcome_of(&self, command: &Command, outcome: &str) -> Option<String> {
        let side = match outcome {
            "a" => 0,
            "b" => 1,
            _ => return None,
        };
        let words = match side {
            0 => command.words.as_slice(),
            _ => command.clauses.first()?.words.as_slice(),
        };
        let ids = || words.iter().filter_map(|w| w.keyword());
        match command.verb.as_str() {
            "melee" => ids()
                .find(|id| {
                    self.armies
                        .iter()
                        .any(|(_, l)| l.units.iter().any(|u| u.id == *id))
                })
                .map(str::to_string),
            "initiative" => {
                let army = ids().find_map(|id| {
                    self.armies
                        .iter()
                        .position(|(_, l)| l.generals.iter().any(|g| g.id == id))
                });
                // Counts typed, or nothing: the first army pools before
                // `vs`, the second after.
                self.sides.get(army.unwrap_or(side)).cloned()
            }
            _ => None,
        }
    }
}
