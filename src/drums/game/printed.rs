//! The printed roster of a Drums and Muskets army: one line a unit under
//! the general in whose line of command it is, with the factors the list
//! gives it and boxes for its bases (or figures) and for the hits it takes
//! towards the next base.

use super::{DrumsGame, flags};
use crate::answer::{Boxes, Commanded, Line};
use crate::drums::army::{General, Unit};
use crate::system::{GameView, PrintedArmy};

/// The columns between a line's name and its boxes.
const COLUMNS: [&str; 5] = ["arm", "class", "formation", "weapon", "doctrine"];

/// A list's word as the table says it: `column-of-attack` is "column of
/// attack".
fn plain(word: &str) -> String {
    word.replace('-', " ")
}

impl DrumsGame<'_> {
    pub(super) fn printed_of(&self, army: usize) -> Option<PrintedArmy> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut commands: Vec<Commanded> = list
            .generals
            .iter()
            .map(|g| Commanded {
                heading: g.name.clone(),
                lines: std::iter::once(self.general_line(g))
                    .chain(
                        list.units
                            .iter()
                            .filter(|u| u.general.as_deref() == Some(g.id.as_str()))
                            .map(|u| self.unit_line(u)),
                    )
                    .collect(),
            })
            .collect();
        let loose: Vec<Line> = list
            .units
            .iter()
            .filter(|u| {
                u.general
                    .as_deref()
                    .is_none_or(|g| list.generals.iter().all(|x| x.id != g))
            })
            .map(|u| self.unit_line(u))
            .collect();
        if !loose.is_empty() {
            commands.push(Commanded {
                heading: "In no general's line of command".into(),
                lines: loose,
            });
        }
        let mut notes = vec![format!(
            "Boxes: cross a base (or a figure) as it is removed; tally hits in the \
             hits row, a base is removed at {} (the Hits rule).",
            self.hits_per_base()
        )];
        if let Some(text) = self
            .armies
            .iter()
            .position(|(i, _)| *i == army)
            .and_then(|side| self.risk_aftermath(side))
        {
            notes.push(text);
        }
        Some(PrintedArmy {
            columns: COLUMNS.iter().map(|c| c.to_string()).collect(),
            commands,
            notes,
        })
    }

    fn general_line(&self, g: &General) -> Line {
        let mut class = vec![g.ability.clone()];
        class.extend(g.traits.iter().cloned());
        let s = self.general_state(&g.id);
        let mut state = Vec::new();
        for (on, word) in [(s.swept_away, "swept away this turn"), (s.moved, "moved")] {
            if on {
                state.push(word.to_string());
            }
        }
        Line {
            id: g.id.clone(),
            name: if g.commander {
                format!("{} (force commander)", g.name)
            } else {
                g.name.clone()
            },
            cells: vec![
                "general".into(),
                class.join(", "),
                String::new(),
                String::new(),
                String::new(),
            ],
            boxes: Vec::new(),
            state,
            out_of_action: GameView::out_of_action(self, &g.id),
        }
    }

    fn unit_line(&self, u: &Unit) -> Line {
        let mut arm = u.arm.clone();
        if u.heavy {
            arm.push_str(", heavy");
        }
        if u.lancers {
            arm.push_str(", lancers");
        }
        let st = self.strength(u);
        let mut boxes = vec![Boxes::new(st.what(), st.start, st.lost)];
        if !st.figures && st.left() > 0 {
            boxes.push(Boxes::new("hits", self.hits_per_base(), st.carried));
        }
        let s = self.state(&u.id);
        let state = flags(&s, &st);
        Line {
            id: u.id.clone(),
            name: u.name.clone(),
            cells: vec![
                arm,
                u.class.join(", "),
                plain(&u.formation),
                u.weapon.as_deref().map(plain).unwrap_or_default(),
                u.doctrine
                    .iter()
                    .map(|d| plain(d))
                    .collect::<Vec<_>>()
                    .join(", "),
            ],
            boxes,
            state: if state.is_empty() {
                Vec::new()
            } else {
                vec![state]
            },
            out_of_action: self.unit_out(u),
        }
    }
}
