//! `show`: one unit's or general's rows, from the list and the game.

use super::DrumsGame;
use crate::catalog::UnitFact;
use crate::drums::army::{General, Unit};

type Rows = Vec<(String, String)>;

fn row(rows: &mut Rows, k: &str, v: String) {
    rows.push((k.to_string(), v));
}

impl DrumsGame<'_> {
    pub(super) fn show_general(&self, g: &General) -> Rows {
        let mut rows = Rows::new();
        row(&mut rows, "general", g.ability.clone());
        if !g.traits.is_empty() {
            row(&mut rows, "traits", g.traits.join(", "));
        }
        row(
            &mut rows,
            "force commander",
            if g.commander { "yes" } else { "no" }.into(),
        );
        let command: Vec<&str> = self
            .command_of(&g.id)
            .iter()
            .map(|u| u.id.as_str())
            .collect();
        row(
            &mut rows,
            "line of command",
            if command.is_empty() {
                "no units".into()
            } else {
                command.join(", ")
            },
        );
        let s = self.general_state(&g.id);
        let mut state = Vec::new();
        if s.incapacitated {
            state.push("incapacitated by a stray round: off the table until the next turn");
        }
        if s.swept_away {
            state.push("swept away to his own long edge this turn (still in play)");
        }
        if s.moved {
            state.push("moved this turn");
        }
        if g.commander && (s.incapacitated || s.swept_away) {
            state.push("issues no supply dice for the rest of this turn");
        }
        row(
            &mut rows,
            "state",
            if state.is_empty() {
                "on the table".into()
            } else {
                state.join("; ")
            },
        );
        row(&mut rows, "brings", words(&DrumsGame::general_facts(g)));
        rows
    }

    /// A unit's rows: what its list says of it, then what the game has
    /// done to it.
    pub(super) fn show_unit(&self, u: &Unit) -> Rows {
        let mut rows = Rows::new();
        let mut arm = u.arm.clone();
        if u.heavy {
            arm.push_str(" (heavy)");
        }
        if u.lancers {
            arm.push_str(" (lancers)");
        }
        row(&mut rows, "arm", arm);
        if !u.class.is_empty() {
            row(&mut rows, "class", u.class.join(", "));
        }
        let formation = if u.arm == "artillery" && u.formation == "limbered" {
            "limbered (Column of March)".to_string()
        } else {
            u.formation.clone()
        };
        row(&mut rows, "formation", formation);
        if let Some(w) = &u.weapon {
            row(&mut rows, "weapon", w.clone());
        }
        if !u.doctrine.is_empty() {
            row(&mut rows, "doctrine", u.doctrine.join(", "));
        }
        if let Some(g) = &u.general {
            let name = self
                .general(g)
                .map_or(String::new(), |g| format!(" — {}", g.name));
            row(&mut rows, "general", format!("{g}{name}"));
        }
        self.unit_game_rows(u, &mut rows);
        rows
    }

    fn unit_game_rows(&self, u: &Unit, rows: &mut Rows) {
        let s = self.state(&u.id);
        let st = self.strength(u);
        row(
            rows,
            st.what(),
            if st.before > 0 {
                format!(
                    "{} of {} ({}% of the {} it started with; {} lost in earlier battles)",
                    st.left(),
                    st.start + st.before,
                    st.percent(),
                    st.start,
                    st.before
                )
            } else {
                format!("{} of {} ({}%)", st.left(), st.start, st.percent())
            },
        );
        row(rows, "hits received", s.hits.to_string());
        if st.figures {
            row(
                rows,
                "hits carried",
                "none: each hit removes a figure".into(),
            );
        } else {
            row(
                rows,
                "hits carried",
                format!(
                    "{} (a base is removed at {})",
                    st.carried,
                    self.hits_per_base()
                ),
            );
        }
        row(rows, "shots fired", s.shots.to_string());
        row(rows, "melee rounds", s.melees.to_string());
        row(rows, "charges", s.charges.to_string());
        let mut turn = Vec::new();
        for (on, word) in [
            (s.moved, "moved"),
            (s.hit, "hit"),
            (s.inflicted, "inflicted hits"),
            (s.retired, "forced to retire"),
            (s.fired_at, "fired at"),
        ] {
            if on {
                turn.push(word);
            }
        }
        let side = self.side_of(&u.id);
        let lost = side.map(|s| self.lost_generals(s)).unwrap_or_default();
        if !lost.is_empty() {
            turn.push("only 1 action point (risk to generals)");
        }
        if side.and_then(|s| self.commander_lost(s)).is_some() {
            turn.push("no supply dice (the force commander was lost)");
        }
        row(
            rows,
            "this turn",
            if turn.is_empty() {
                "—".into()
            } else {
                turn.join(", ")
            },
        );
        let state = match self.unit_out(u) {
            Some(why) => format!("{why}: cannot act"),
            None if st.half_or_less() => {
                "at 50% or less: takes the end-of-turn resilience test".into()
            }
            None => "can act".into(),
        };
        row(rows, "state", state);
        row(rows, "brings", words(&self.unit_facts(u)));
    }
}

fn words(facts: &[UnitFact]) -> String {
    facts
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
