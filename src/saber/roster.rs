//! What a game shows of its Musket & Saber units and leaders: an army's
//! roster, and the card `show` gives of one unit, leader or base.

use super::Variant;
use super::army::{Base, Leader, Unit, UnitType};
use super::game::{LeaderState, SaberGame, UnitState, eliminated, steps_left};
use crate::answer::report::UnitStatus;
use crate::system::{GameView, Roster};

impl SaberGame<'_> {
    pub(super) fn roster_of(&self, army: usize) -> Option<Roster> {
        let a = self.armies.iter().find(|a| a.index == army)?;
        let mut roster = Roster {
            header: vec!["id", "name", "type", "cf", "mr", "ma", "steps", "state"],
            ..Roster::default()
        };
        for u in &a.list.units {
            let s = self.unit_state(&u.id);
            // The side showing: the reduced side once a step is lost (2.5).
            let face = u.face(s.steps_lost > 0 && !eliminated(u, &s));
            let cf = if u.unit_type() == UnitType::Artillery {
                format!("{}/{}", face.cf, u.defence())
            } else {
                match u.charge {
                    Some(c) => format!("{} ch {c}", face.cf_text()),
                    None => face.cf_text(),
                }
            };
            roster.rows.push(vec![
                u.id.clone(),
                u.name.clone(),
                u.unit_type().name().to_string(),
                cf,
                face.mr.to_string(),
                face.ma_text(),
                format!("{}/{}", steps_left(u, &s), u.steps()),
                unit_flags(u, &s),
            ]);
            roster.status.push(unit_status(u, &s));
        }
        for l in &a.list.leaders {
            let s = self.leader_state(&l.id);
            let mut factors: Vec<String> =
                [("CF", l.cf), ("MR", l.mr), ("MV", l.mv), ("span", l.span)]
                    .iter()
                    .filter_map(|(k, v)| v.map(|v| format!("{k} {v}")))
                    .collect();
            if let Some(f) = &l.formation {
                factors.push(format!("formation {f}"));
            }
            let state = leader_flags(&s);
            if !state.is_empty() {
                factors.push(state.to_string());
            }
            roster.notes.push(format!(
                "leader {} — {}: {}",
                l.id,
                l.name,
                if factors.is_empty() {
                    "no factors".into()
                } else {
                    factors.join(", ")
                }
            ));
        }
        for (b, which) in a
            .list
            .hq
            .iter()
            .map(|b| (b, "HQ"))
            .chain(a.list.trains.iter().map(|b| (b, "trains")))
        {
            roster.notes.push(format!(
                "{which} {} — {}: {}",
                b.id,
                b.name,
                b.ma.map_or("no MA given".into(), |m| format!("MA {m}"))
            ));
        }
        Some(roster)
    }

    /// The card `show` gives: a leader's, a base's or a unit's.
    pub(super) fn card(&self, id: &str) -> Option<Vec<(String, String)>> {
        if let Some(l) = self.leader(id) {
            return Some(self.leader_card(id, l));
        }
        if let Some((b, which)) = self.base(id) {
            return Some(self.base_card(id, b, which));
        }
        self.unit_card(id)
    }

    fn leader_card(&self, id: &str, l: &Leader) -> Vec<(String, String)> {
        let mut rows: Vec<(String, String)> = Vec::new();
        let s = self.leader_state(id);
        rows.push(("type".into(), "leader".into()));
        for (k, v) in [("cf", l.cf), ("mr", l.mr), ("mv", l.mv), ("span", l.span)] {
            rows.push((k.into(), v.map_or("—".into(), |v| v.to_string())));
        }
        if let Some(f) = &l.formation {
            rows.push(("formation".into(), f.clone()));
        }
        rows.push(("ineffective".into(), yes_no(s.ineffective)));
        rows.push(("casualty".into(), yes_no(s.casualty)));
        rows.push((
            "may act".into(),
            self.out_of_action(id).unwrap_or_else(|| "yes".into()),
        ));
        rows
    }

    /// An HQ or trains counter (12.1, 12.2).
    fn base_card(&self, id: &str, b: &Base, which: &str) -> Vec<(String, String)> {
        let mut rows: Vec<(String, String)> = Vec::new();
        rows.push((
            "type".into(),
            if which == "hq" {
                "HQ (12.1)"
            } else {
                "trains (12.2)"
            }
            .into(),
        ));
        rows.push(("ma".into(), b.ma.map_or("—".into(), |m| m.to_string())));
        rows.push((
            "may act".into(),
            self.out_of_action(id).unwrap_or_else(|| "yes".into()),
        ));
        rows
    }

    fn unit_card(&self, id: &str) -> Option<Vec<(String, String)>> {
        let mut rows: Vec<(String, String)> = Vec::new();
        let (u, variant) = self.unit(id)?;
        let s = self.unit_state(id);
        let kind = u.unit_type();
        let reduced = s.steps_lost > 0 && !eliminated(u, &s);
        rows.push(("type".into(), kind.name().into()));
        rows.push((
            "formation".into(),
            u.formation.clone().unwrap_or_else(|| "—".into()),
        ));
        rows.extend(printed_rows(u, variant, reduced));
        rows.push((
            "steps".into(),
            format!("{} of {} left", steps_left(u, &s), u.steps()),
        ));
        rows.push(("disrupted".into(), yes_no(s.disrupted)));
        rows.push(("routed".into(), yes_no(s.routed)));
        if kind.may_be_ineffective() {
            rows.push(("ineffective".into(), yes_no(s.ineffective)));
        }
        rows.push(("eliminated".into(), yes_no(eliminated(u, &s))));
        if s.destroyed {
            rows.push(("destroyed".into(), "yes".into()));
        }
        if s.captured {
            rows.push(("captured".into(), "yes".into()));
        }
        rows.push((
            "may act".into(),
            self.out_of_action(id).unwrap_or_else(|| "yes".into()),
        ));
        Some(rows)
    }
}

/// The factors a unit's counter prints, on the side showing, and its
/// reduced side.
fn printed_rows(u: &Unit, variant: Variant, reduced: bool) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = Vec::new();
    let kind = u.unit_type();
    let face = u.face(reduced);
    if kind == UnitType::Artillery {
        // 8.1: two combat factors, attack and defense, and a range.
        rows.push(("attack".into(), face.cf.to_string()));
        rows.push(("defence".into(), u.defence().to_string()));
        rows.push((
            "range".into(),
            u.range
                .map_or("— (not in the list)".into(), |r| r.to_string()),
        ));
    } else {
        rows.push((
            "cf".into(),
            if face.cf_parenthesized {
                format!(
                    "{} (parenthesized: halved when attacking, 2.4)",
                    face.cf_text()
                )
            } else {
                face.cf_text()
            },
        ));
    }
    if let Some(c) = u.charge {
        rows.push((
            "charge".into(),
            format!("{c} (in lieu of its CF when charging, 9.3 4)"),
        ));
    }
    rows.push((
        "mr".into(),
        if kind == UnitType::Artillery && variant == Variant::Standard {
            format!(
                "{} (artillery is presumed always to have an MR of 6, 8.1)",
                face.mr
            )
        } else {
            face.mr.to_string()
        },
    ));
    rows.push((
        "ma".into(),
        match (face.ma, face.ma_bracketed) {
            (None, _) => format!("{} (variable, 4.4)", face.ma_text()),
            (Some(_), true) => {
                format!("{} (bracketed: cannot skirmish, 7.13 1)", face.ma_text())
            }
            (Some(_), false) => face.ma_text(),
        },
    ));
    if let Some(r) = &u.reduced {
        let back = u.face(true);
        let mut said = vec![format!("cf {}", back.cf_text())];
        if r.mr.is_some() {
            said.push(format!("mr {}", back.mr));
        }
        if r.ma.is_some() {
            said.push(format!("ma {}", back.ma_text()));
        }
        rows.push((
            "reduced side".into(),
            format!(
                "{}{} (2.5)",
                said.join(", "),
                if reduced { ", showing" } else { "" }
            ),
        ));
    }
    rows
}

/// How a unit stands, for a view to mark: out once destroyed or
/// eliminated, shaken while routed, disrupted or ineffective (each said).
fn unit_status(unit: &Unit, s: &UnitState) -> UnitStatus {
    if s.destroyed {
        return UnitStatus::Out("destroyed".into());
    }
    if eliminated(unit, s) {
        return UnitStatus::Out("eliminated".into());
    }
    let words: Vec<&str> = [
        (s.routed, "routed"),
        (s.disrupted, "disrupted"),
        (s.ineffective, "ineffective"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, w)| *w)
    .collect();
    if words.is_empty() {
        UnitStatus::Fine
    } else {
        UnitStatus::Shaken(words.join(", "))
    }
}

/// The unit's state in words: `disrupted, routed`; empty when it is fresh.
pub(super) fn unit_flags(unit: &Unit, s: &UnitState) -> String {
    let mut f: Vec<&str> = Vec::new();
    if s.captured {
        f.push("captured");
    } else if s.destroyed {
        f.push("destroyed");
    } else if eliminated(unit, s) {
        f.push("eliminated");
    }
    if s.disrupted {
        f.push("disrupted");
    }
    if s.routed {
        f.push("routed");
    }
    if s.ineffective {
        f.push("ineffective");
    }
    f.join(", ")
}

pub(super) fn leader_flags(s: &LeaderState) -> &'static str {
    match (s.casualty, s.ineffective) {
        (true, _) => "casualty",
        (false, true) => "ineffective",
        (false, false) => "",
    }
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}
