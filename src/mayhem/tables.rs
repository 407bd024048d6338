//! The shapes of `tables/mayhem.toml`: each procedure's numbers and the
//! rule's words for the explanation.

mod validate;

use serde::Deserialize;

use crate::dice::DiceExpr;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MayhemTables {
    #[serde(rename = "move")]
    pub(crate) movement: MoveTable,
    pub(crate) fire: FireTable,
    pub(crate) courage: CourageTable,
    pub(crate) fight: FightTable,
    pub(crate) reload: ReloadTable,
    pub(crate) climb: CheckRow,
    pub(crate) ignite: CheckRow,
    pub(crate) skill: SkillTable,
    pub(crate) search: SearchTable,
    pub(crate) post_battle: PostBattleTable,
    pub(crate) initiative: InitiativeTable,
    pub(crate) activation: ActivationTable,
    pub(crate) heroes: HeroTable,
    /// Other names of the verbs' words, for suggestions (see the file).
    #[serde(default)]
    pub(crate) aliases: std::collections::BTreeMap<String, Vec<String>>,
    /// Between the battles of a campaign: not of `mayhem.toml` but of the
    /// `[mayhem]` section of `campaign.toml`, put here as the tables load.
    #[serde(skip)]
    pub(crate) campaign: super::game::CampaignTable,
    /// The verbs made of these tables, each once (none in the tables a
    /// verb holds: see `MayhemTables::with_verbs`).
    #[serde(skip)]
    pub(crate) verbs: std::rc::Rc<crate::catalog::TypedVerbs<super::game::MayhemEffect>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveTable {
    pub(crate) mode: Vec<MoveRow>,
    pub(crate) bonus: Vec<MoveRow>,
}

/// A line of "To determine distance roll dice as follows".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRow {
    pub(crate) keyword: String,
    pub(crate) row: String,
    /// The label in the stack, when the rule's words are long.
    pub(crate) short: Option<String>,
    pub(crate) dice: DiceExpr,
    /// A mode row: whether its move is in the open unless said otherwise
    /// (`woods`, or `open` for a delayed move).
    #[serde(default = "yes")]
    pub(crate) open: bool,
    /// A bonus row that applies only to a move in the open.
    #[serde(default)]
    pub(crate) open_only: bool,
}

fn yes() -> bool {
    true
}

impl MoveRow {
    pub(crate) fn label(&self) -> &str {
        self.short.as_deref().unwrap_or(&self.row)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FireTable {
    pub(crate) over_half_range: i64,
    pub(crate) over_half_range_row: String,
    pub(crate) mounted: i64,
    pub(crate) mounted_row: String,
    pub(crate) kill_at: i64,
    pub(crate) kill_row: String,
    pub(crate) courage_row: String,
    pub(crate) unloaded_row: String,
    pub(crate) shoot_once_row: String,
    pub(crate) incendiary_row: String,
    pub(crate) weapon: Vec<Weapon>,
    pub(crate) cover: Vec<Cover>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Weapon {
    pub(crate) keyword: String,
    pub(crate) row: String,
    /// Inches.
    pub(crate) range: i64,
    pub(crate) impact: i64,
    /// The Impact Die row that gives the bonus, when there is one.
    pub(crate) impact_row: Option<String>,
    /// Guns that roll against several figures: the rule's words.
    pub(crate) several: Option<String>,
    /// It becomes unloaded when it fires.
    #[serde(default)]
    pub(crate) gunpowder: bool,
    /// A gun: it places smoke puffs when it fires, which its crew removes.
    #[serde(default)]
    pub(crate) gun: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cover {
    pub(crate) keyword: String,
    pub(crate) row: String,
    pub(crate) needs: i64,
    #[serde(default)]
    pub(crate) default: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CourageTable {
    pub(crate) pass_row: String,
    pub(crate) retreat: DiceExpr,
    pub(crate) retreat_row: String,
    /// "If the group was ordered to charge then they stand still instead."
    pub(crate) stand_still_row: String,
    /// "In the other four possible tests, roll again against each
    /// individual's courage ...": the run off the board.
    pub(crate) individual_row: String,
    pub(crate) rank: Vec<Rank>,
    pub(crate) cause: Vec<Cause>,
    pub(crate) commander: RuleRow,
}

/// A rule's words, for the explanation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleRow {
    pub(crate) row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Rank {
    pub(crate) keyword: String,
    pub(crate) row: String,
    pub(crate) value: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cause {
    pub(crate) keyword: String,
    pub(crate) row: String,
    #[serde(default)]
    pub(crate) stand_still: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FightTable {
    pub(crate) modifier: Vec<FightModifier>,
    pub(crate) armament: Vec<Armament>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FightModifier {
    pub(crate) keyword: String,
    #[serde(default)]
    pub(crate) aliases: Vec<String>,
    pub(crate) row: String,
    pub(crate) value: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Armament {
    pub(crate) keyword: String,
    pub(crate) row: String,
    pub(crate) value: i64,
    #[serde(default)]
    pub(crate) default: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReloadTable {
    pub(crate) row: String,
    pub(crate) puffs: i64,
    pub(crate) min_crew: i64,
    pub(crate) leader_counts: i64,
    pub(crate) clear_per_turn: i64,
}

/// One die needing a score: climbing a stockade, setting a fire.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckRow {
    pub(crate) row: String,
    pub(crate) needs: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkillTable {
    pub(crate) row: String,
    pub(crate) min: i64,
    pub(crate) max: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchTable {
    pub(crate) row: String,
    pub(crate) value: Vec<Labelled>,
    pub(crate) difficulty: Vec<Labelled>,
}

/// A typical value the rule names, for help.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Labelled {
    pub(crate) row: String,
    pub(crate) value: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PostBattleTable {
    pub(crate) band: Vec<PostBattleBand>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Downed {
    Wounded,
    Dead,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PostBattleBand {
    pub(crate) from: i64,
    pub(crate) to: i64,
    pub(crate) outcome: Downed,
    pub(crate) row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InitiativeTable {
    pub(crate) row: String,
    pub(crate) tie: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ActivationTable {
    pub(crate) row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HeroTable {
    pub(crate) save: String,
    pub(crate) reroll: String,
    pub(crate) bonus: String,
}
