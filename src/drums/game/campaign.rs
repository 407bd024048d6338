//! Between the battles of a campaign: what a Drums and Muskets army
//! carries to the next. The quick reference plays one battle; the rules
//! here are drumhead's, in the `[drums]` section of the house table
//! `campaign.toml` with the house row a club may turn on, and the close
//! names each.

use serde::Deserialize;

use super::{DrumsEffect, DrumsGame, DrumsState};
use crate::carry::{
    Carry, Change, Close, Edit, EditValue, Fought, HouseRow, Measure, Section, entries_of, trace,
};
use crate::drums::army::Unit;
use crate::system::GameState;

/// The section of `campaign.toml` Drums and Muskets reads: its book's id.
pub(crate) const CAMPAIGN_SECTION: &str = "drums";

/// `[drums]` of `campaign.toml` (empty until the tables load it).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CampaignTable {
    /// What carries over, in words.
    pub(crate) carried: String,
    /// What becomes of the generals, in words.
    pub(crate) generals: String,
    pub(crate) returning: HouseRow<Returning>,
}

/// The house row of the bases that return ("returning wounded and
/// missing"): the share of the bases lost in the battle that return, in
/// percent.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(transparent)]
pub(crate) struct Returning {
    pub(crate) percent: i64,
}

impl Measure for Returning {
    const ROW: &'static str = "Returning";
    const FIELDS: &'static [&'static str] = &["keyword", "row", "percent", "default"];

    fn check(&self) -> Result<(), String> {
        if (0..=100).contains(&self.percent) {
            Ok(())
        } else {
            Err("must be a share in percent, 0 to 100".into())
        }
    }
}

impl Section for CampaignTable {
    const SECTIONS: &'static [&'static str] = &[CAMPAIGN_SECTION];

    fn check(&self) -> Result<(), (String, String)> {
        self.returning.check("returning")
    }
}

impl CampaignTable {
    /// The quick-reference sheet's section: between the battles.
    pub(crate) fn section(&self) -> crate::sheet::Section {
        let mut s = crate::sheet::Section::new("Between Battles (a campaign)");
        s.notes.push(self.carried.as_str().into());
        s.notes.push(self.generals.as_str().into());
        let r = &self.returning;
        s.tables.push(house_table(
            &r.row,
            &r.keyword,
            format!("{}%", r.measure.percent),
            r.default,
        ));
        s
    }
}

/// A house row of a campaign, as a sheet prints it.
fn house_table(row: &str, keyword: &str, value: String, default: bool) -> crate::sheet::Table {
    let mut table =
        crate::sheet::Table::new("House row", &["", "close word", "value", "by default"]);
    table.row(
        row,
        vec![
            keyword.to_string(),
            value,
            if default { "applied" } else { "off" }.to_string(),
        ],
    );
    table
}

impl DrumsGame<'_> {
    /// What the armies carry to the next battle.
    pub(super) fn carry_over(&self, fought: &[Fought<DrumsEffect>], close: &Close<'_>) -> Carry {
        let table = &self.tables.drums.campaign;
        let row = &table.returning;
        let place = crate::carry::place(CAMPAIGN_SECTION);
        let (returning, said) = row.applies(
            &crate::carry::place(&format!("{CAMPAIGN_SECTION}.returning")),
            close,
        );
        let units: Vec<&str> = self
            .armies
            .iter()
            .flat_map(|(_, l)| l.units.iter().map(|u| u.id.as_str()))
            .collect();
        // Traced from the state as the battle began.
        let context = self.context;
        let traced = trace(
            DrumsState::default(),
            fought,
            &units,
            |state, f| match &f.effect {
                Some((unit, effect)) => {
                    let _ = state.apply(context, unit.as_deref(), effect);
                }
                None => state.next_turn(context),
            },
            |state, id| {
                let game = DrumsGame::of(context, state);
                game.unit(id).map(|u| game.strength(u).lost)
            },
        );
        let share = if returning { row.measure.percent } else { 0 };
        let mut changes = Vec::new();
        for (army, list) in self.armies {
            for u in &list.units {
                let made = traced.get(&u.id).cloned().unwrap_or_default();
                changes.extend(self.unit_change(*army, u, made, share, fought, close));
            }
            for g in &list.generals {
                let hit = entries_of(fought, &g.id, |e| *e == DrumsEffect::Incapacitated);
                if hit.is_empty() {
                    continue;
                }
                changes.push(Change {
                    army: *army,
                    section: "general",
                    id: g.id.clone(),
                    what: "incapacitated in the battle: gone".into(),
                    entries: hit,
                    die: None,
                    edits: vec![Edit::set(
                        "gone",
                        EditValue::Text(format!("incapacitated at {}", close.battle)),
                    )],
                });
            }
        }
        Carry {
            changes,
            rules: vec![
                format!("{} ({place})", table.carried),
                format!("{} ({place})", table.generals),
                format!("{said} (percent = {})", row.measure.percent),
            ],
            keywords: vec![row.keyword.clone()],
        }
    }

    /// What the battle did to one unit that the next one starts with:
    /// its bases lost (less a share returning), or that it broke.
    fn unit_change(
        &self,
        army: usize,
        u: &Unit,
        made: Vec<u64>,
        share: i64,
        fought: &[Fought<DrumsEffect>],
        close: &Close<'_>,
    ) -> Option<Change> {
        let st = self.strength(u);
        let broke = entries_of(fought, &u.id, |e| *e == DrumsEffect::Broken);
        let what_ = st.what();
        if st.lost == 0 {
            return (!broke.is_empty()).then(|| Change {
                army,
                section: "unit",
                id: u.id.clone(),
                what: format!("broke: returns with the {what_} it had"),
                entries: broke,
                die: None,
                edits: Vec::new(),
            });
        }
        // Wide arithmetic: a list may give any number of bases.
        let back = (i128::from(st.lost) * i128::from(share) / 100) as i64;
        let kept = st.lost - back;
        let total = st.before + kept;
        let size = st.start + st.before;
        let mut what = format!(
            "lost {} of the {} {what_} it started with",
            st.lost, st.start
        );
        if back > 0 {
            what.push_str(&format!(
                "; {back} returned (returning wounded and missing)"
            ));
        }
        let edits = if total >= size {
            what.push_str(": gone");
            vec![Edit::set(
                "gone",
                EditValue::Text(format!(
                    "every {} lost by {}",
                    singular(what_),
                    close.battle
                )),
            )]
        } else if kept > 0 {
            what.push_str(&format!(
                ": starts the next battle with {}/{size}",
                size - total
            ));
            vec![Edit::set("lost", EditValue::Int(total))]
        } else {
            Vec::new()
        };
        if !broke.is_empty() {
            what.push_str(&format!("; broke, and returns with the {what_} it had"));
        }
        let mut entries = made;
        entries.extend(broke);
        entries.sort_unstable();
        entries.dedup();
        Some(Change {
            army,
            section: "unit",
            id: u.id.clone(),
            what,
            entries,
            die: None,
            edits,
        })
    }
}

/// `base` of `bases`, `figure` of `figures`.
fn singular(what: &str) -> &str {
    what.strip_suffix('s').unwrap_or(what)
}
