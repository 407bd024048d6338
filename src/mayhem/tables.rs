//! The shapes of `tables/mayhem.toml`: each procedure's numbers and the
//! rule's words for the explanation.

mod validate;

use serde::Deserialize;

use crate::dice::DiceExpr;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MayhemTables {
    #[serde(rename = "move")]
    pub movement: MoveTable,
    pub fire: FireTable,
    pub courage: CourageTable,
    pub fight: FightTable,
    pub reload: ReloadTable,
    pub climb: CheckRow,
    pub ignite: CheckRow,
    pub skill: SkillTable,
    pub search: SearchTable,
    pub post_battle: PostBattleTable,
    pub initiative: InitiativeTable,
    pub activation: ActivationTable,
    pub heroes: HeroTable,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveTable {
    pub mode: Vec<MoveRow>,
    pub bonus: Vec<MoveRow>,
}

/// A line of "To determine distance roll dice as follows".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRow {
    pub keyword: String,
    pub row: String,
    /// The label in the stack, when the rule's words are long.
    pub short: Option<String>,
    pub dice: DiceExpr,
    /// A mode row: whether its move is in the open unless said otherwise
    /// (`woods`, or `open` for a delayed move).
    #[serde(default = "yes")]
    pub open: bool,
    /// A bonus row that applies only to a move in the open.
    #[serde(default)]
    pub open_only: bool,
}

fn yes() -> bool {
    true
}

impl MoveRow {
    pub fn label(&self) -> &str {
        self.short.as_deref().unwrap_or(&self.row)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireTable {
    pub over_half_range: i64,
    pub over_half_range_row: String,
    pub mounted: i64,
    pub mounted_row: String,
    pub kill_at: i64,
    pub kill_row: String,
    pub courage_row: String,
    pub unloaded_row: String,
    pub shoot_once_row: String,
    pub incendiary_row: String,
    pub weapon: Vec<Weapon>,
    pub cover: Vec<Cover>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub keyword: String,
    pub row: String,
    /// Inches.
    pub range: i64,
    pub impact: i64,
    /// The Impact Die row that gives the bonus, when there is one.
    pub impact_row: Option<String>,
    /// Guns that roll against several figures: the rule's words.
    pub several: Option<String>,
    /// It becomes unloaded when it fires.
    #[serde(default)]
    pub gunpowder: bool,
    /// A gun: it places smoke puffs when it fires, which its crew removes.
    #[serde(default)]
    pub gun: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cover {
    pub keyword: String,
    pub row: String,
    pub needs: i64,
    #[serde(default)]
    pub default: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourageTable {
    pub pass_row: String,
    pub retreat: DiceExpr,
    pub retreat_row: String,
    /// "If the group was ordered to charge then they stand still instead."
    pub stand_still_row: String,
    pub rank: Vec<Rank>,
    pub cause: Vec<Cause>,
    pub commander: RuleRow,
}

/// A rule's words, for the explanation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleRow {
    pub row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rank {
    pub keyword: String,
    pub row: String,
    pub value: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cause {
    pub keyword: String,
    pub row: String,
    #[serde(default)]
    pub stand_still: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FightTable {
    pub modifier: Vec<FightModifier>,
    pub armament: Vec<Armament>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FightModifier {
    pub keyword: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub row: String,
    pub value: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armament {
    pub keyword: String,
    pub row: String,
    pub value: i64,
    #[serde(default)]
    pub default: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReloadTable {
    pub row: String,
    pub puffs: i64,
    pub min_crew: i64,
    pub leader_counts: i64,
    pub clear_per_turn: i64,
}

/// One die needing a score: climbing a stockade, setting a fire.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRow {
    pub row: String,
    pub needs: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillTable {
    pub row: String,
    pub min: i64,
    pub max: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchTable {
    pub row: String,
    pub value: Vec<Labelled>,
    pub difficulty: Vec<Labelled>,
}

/// A typical value the rule names, for help.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labelled {
    pub row: String,
    pub value: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostBattleTable {
    pub band: Vec<PostBattleBand>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Downed {
    Wounded,
    Dead,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostBattleBand {
    pub from: i64,
    pub to: i64,
    pub outcome: Downed,
    pub row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitiativeTable {
    pub row: String,
    pub tie: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActivationTable {
    pub row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroTable {
    pub save: String,
    pub reroll: String,
    pub bonus: String,
}
