//! The printed roster of a Musket & Saber army: one line a counter, under
//! its formation (the division the list gives it), with the factors its
//! counter prints on both sides and a box for each step.

use super::army::{Unit, UnitType};
use super::game::{SaberGame, eliminated, steps_left};
use super::roster::{leader_flags, unit_flags};
use crate::answer::{Boxes, Commanded, Line};
use crate::system::{GameView, PrintedArmy};

/// The columns between a line's name and its boxes: the front side's
/// factors, then the reduced side's.
const COLUMNS: [&str; 5] = ["type", "CF", "MR", "MA", "reduced CF/MR/MA"];

impl SaberGame<'_> {
    pub(super) fn printed_of(&self, army: usize) -> Option<PrintedArmy> {
        let a = self.armies.iter().find(|a| a.index == army)?;
        let list = &a.list;
        // The formations in the list's order, each with its leaders first.
        let mut formations: Vec<Option<&str>> = Vec::new();
        for f in list
            .leaders
            .iter()
            .map(|l| l.formation.as_deref())
            .chain(list.units.iter().map(|u| u.formation.as_deref()))
        {
            if !formations.contains(&f) {
                formations.push(f);
            }
        }
        // Leaders of no formation (or of all, "A") head the table.
        formations.sort_by_key(|f| f.is_some_and(|f| f != "A"));
        let mut commands: Vec<Commanded> = formations
            .iter()
            .map(|f| Commanded {
                heading: match f {
                    Some("A") | None => "Army".to_string(),
                    Some(f) => format!("Formation {f}"),
                },
                lines: list
                    .leaders
                    .iter()
                    .filter(|l| l.formation.as_deref() == *f)
                    .map(|l| self.leader_line(l))
                    .chain(
                        list.units
                            .iter()
                            .filter(|u| u.formation.as_deref() == *f)
                            .map(|u| self.unit_line(u)),
                    )
                    .collect(),
            })
            .collect();
        let bases: Vec<Line> = list
            .hq
            .iter()
            .map(|b| (b, "HQ"))
            .chain(list.trains.iter().map(|b| (b, "trains")))
            .map(|(b, which)| Line {
                id: b.id.clone(),
                name: b.name.clone(),
                cells: vec![
                    which.into(),
                    String::new(),
                    String::new(),
                    b.ma.map_or("V".into(), |m| m.to_string()),
                    String::new(),
                ],
                out_of_action: self.out_of_action(&b.id),
                ..Line::default()
            })
            .collect();
        if !bases.is_empty() {
            commands.push(Commanded {
                heading: "HQ and trains".into(),
                lines: bases,
            });
        }
        Some(PrintedArmy {
            columns: COLUMNS.iter().map(|c| c.to_string()).collect(),
            commands,
            notes: vec![
                "A leader's line gives CF, MR, MV and command span; artillery's CF is \
                 attack/defence with its range. (CF) is halved when attacking, [MA] \
                 cannot skirmish, V is a variable MA. Cross a step box as a step is lost."
                    .into(),
            ],
        })
    }

    fn leader_line(&self, l: &super::army::Leader) -> Line {
        let factor = |v: Option<i64>| v.map_or("—".to_string(), |v| v.to_string());
        let state = leader_flags(&self.leader_state(&l.id));
        Line {
            id: l.id.clone(),
            name: l.name.clone(),
            cells: vec![
                "leader".into(),
                factor(l.cf),
                factor(l.mr),
                format!("MV {}", factor(l.mv)),
                format!("span {}", factor(l.span)),
            ],
            boxes: Vec::new(),
            state: if state.is_empty() {
                Vec::new()
            } else {
                vec![state.to_string()]
            },
            out_of_action: self.out_of_action(&l.id),
        }
    }

    fn unit_line(&self, u: &Unit) -> Line {
        let s = self.unit_state(&u.id);
        let front = u.face(false);
        let cf = if u.unit_type() == UnitType::Artillery {
            match u.range {
                Some(r) => format!("{}/{} r{r}", front.cf, u.defence()),
                None => format!("{}/{}", front.cf, u.defence()),
            }
        } else {
            match u.charge {
                Some(c) => format!("{} ch {c}", front.cf_text()),
                None => front.cf_text(),
            }
        };
        let reduced = u.reduced.as_ref().map_or(String::new(), |_| {
            let back = u.face(true);
            format!("{}/{}/{}", back.cf_text(), back.mr, back.ma_text())
        });
        let state = unit_flags(u, &s);
        // A lost step turns the counter to its reduced side (2.5).
        let mut state = if state.is_empty() {
            Vec::new()
        } else {
            vec![state]
        };
        if s.steps_lost > 0 && !eliminated(u, &s) && u.reduced.is_some() {
            state.push("reduced side up".into());
        }
        Line {
            id: u.id.clone(),
            name: u.name.clone(),
            cells: vec![
                u.unit_type().name().to_string(),
                cf,
                front.mr.to_string(),
                front.ma_text(),
                reduced,
            ],
            boxes: vec![Boxes::new(
                "steps",
                i64::from(u.steps()),
                i64::from(u.steps() - steps_left(u, &s)),
            )],
            state,
            out_of_action: self.out_of_action(&u.id),
        }
    }
}
