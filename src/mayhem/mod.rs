//! Musket Mayhem skirmish rules (individual figures, inches): the table
//! shapes, the hero tokens every procedure shares, and the verbs. One file
//! per procedure; the numbers live in `tables/mayhem.toml`.

pub mod army;
mod courage;
mod fight;
mod fire;
pub mod game;
mod misc;
mod movement;
mod reload;
mod sequence;
mod sheet;

use std::rc::Rc;

use serde::Deserialize;

use crate::army::{Army, Schema};
use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::command::{Book, Span, System};
use crate::dice::{
    Contest, DiceExpr, DiceSource, Enumerator, Pool, Pool2, PoolBand, Rolled, Sum, TieBreak,
};
use crate::error::{BindError, CommandError, DiceError, TableError};

use crate::system::{GamePart, Live, RuleSet, RuleSystem};
use crate::tables::{TableFile, TableSource};

/// A resolution of this system: its effects are [`game::MayhemEffect`].
pub(crate) type Resolution = crate::answer::Resolution<game::MayhemEffect>;
/// A verb of this system, resolving to its own effects.
pub(crate) type VerbDoc = crate::catalog::VerbDoc<game::MayhemEffect>;

/// Every die of Musket Mayhem ("roll one die", "a d6 roll") is a d6.
pub const D6: u32 = 6;

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

impl MayhemTables {
    /// Whole-table rules that serde cannot check.
    pub fn validate(&self, file: &str) -> Result<(), TableError> {
        let invalid = |key: &str, message: String| TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        let face = |key: &str, v: i64| {
            if (1..=i64::from(D6)).contains(&v) {
                Ok(())
            } else {
                Err(invalid(key, format!("{v} is not a face of a d6, 1 to 6")))
            }
        };
        unique(
            self.movement
                .mode
                .iter()
                .chain(&self.movement.bonus)
                .map(|r| r.keyword.as_str()),
        )
        .map_err(|k| invalid("move", format!("keyword `{k}` is used by two rows")))?;
        if self.movement.mode.is_empty() {
            return Err(invalid("move.mode", "needs at least one row".into()));
        }
        if self.movement.mode.iter().any(|r| r.open_only) {
            return Err(invalid(
                "move.mode",
                "`open_only` belongs to a bonus row; a mode row says `open`".into(),
            ));
        }
        if self.movement.bonus.iter().any(|r| !r.open) {
            return Err(invalid(
                "move.bonus",
                "`open` belongs to a mode row; a bonus row says `open_only`".into(),
            ));
        }
        for (i, w) in self.fire.weapon.iter().enumerate() {
            if w.range <= 0 {
                return Err(invalid(
                    &format!("fire.weapon[{i}].range"),
                    "must be at least 1 inch".into(),
                ));
            }
            if w.gun && !w.gunpowder {
                return Err(invalid(
                    &format!("fire.weapon[{i}].gun"),
                    "a gun is a gunpowder weapon: give `gunpowder = true` too".into(),
                ));
            }
        }
        for (i, c) in self.fire.cover.iter().enumerate() {
            face(&format!("fire.cover[{i}].needs"), c.needs)?;
        }
        if self.fire.cover.iter().filter(|c| c.default).count() != 1 {
            return Err(invalid(
                "fire.cover",
                "exactly one row must be `default = true`".into(),
            ));
        }
        unique(self.fire.weapon.iter().map(|w| w.keyword.as_str()))
            .map_err(|k| invalid("fire.weapon", format!("keyword `{k}` is used twice")))?;
        unique(self.fire.cover.iter().map(|w| w.keyword.as_str()))
            .map_err(|k| invalid("fire.cover", format!("keyword `{k}` is used twice")))?;
        for (i, r) in self.courage.rank.iter().enumerate() {
            face(&format!("courage.rank[{i}].value"), r.value)?;
        }
        unique(
            self.courage
                .rank
                .iter()
                .map(|r| r.keyword.as_str())
                .chain(self.courage.cause.iter().map(|c| c.keyword.as_str())),
        )
        .map_err(|k| invalid("courage", format!("keyword `{k}` is used twice")))?;
        for (i, a) in self.fight.armament.iter().enumerate() {
            face(&format!("fight.armament[{i}].value"), a.value)?;
        }
        if self.fight.armament.iter().filter(|a| a.default).count() != 1 {
            return Err(invalid(
                "fight.armament",
                "exactly one row must be `default = true`".into(),
            ));
        }
        unique(
            self.fight
                .modifier
                .iter()
                .flat_map(|m| std::iter::once(&m.keyword).chain(&m.aliases))
                .chain(self.fight.armament.iter().map(|a| &a.keyword))
                .map(String::as_str)
                .chain(fight::SIDE_WORDS.iter().copied()),
        )
        .map_err(|k| invalid("fight", format!("keyword `{k}` is used twice")))?;
        let r = &self.reload;
        if r.puffs < 0 || r.min_crew < 1 || r.leader_counts < 1 || r.clear_per_turn < 1 {
            return Err(invalid(
                "reload",
                "puffs must be 0 or more; min_crew, leader_counts and clear_per_turn at least 1"
                    .into(),
            ));
        }
        face("climb.needs", self.climb.needs)?;
        face("ignite.needs", self.ignite.needs)?;
        face("skill.min", self.skill.min)?;
        face("skill.max", self.skill.max)?;
        if self.skill.min > self.skill.max {
            return Err(invalid("skill", "min is above max".into()));
        }
        for l in self.search.value.iter().chain(&self.search.difficulty) {
            face("search", l.value)?;
        }
        // Every face falls in exactly one band, and the dead faces are the
        // top ones (the count of dead is a count of dice at or above a face).
        for f in 1..=i64::from(D6) {
            let n = self
                .post_battle
                .band
                .iter()
                .filter(|b| (b.from..=b.to).contains(&f))
                .count();
            if n != 1 {
                return Err(invalid(
                    "post_battle.band",
                    format!("face {f} falls in {n} bands; every face needs exactly one"),
                ));
            }
        }
        let dead_from = self.dead_from();
        for b in &self.post_battle.band {
            let dead = b.outcome == Downed::Dead;
            if dead != (b.from >= dead_from) {
                return Err(invalid(
                    "post_battle.band",
                    "the dead faces must be the highest ones".into(),
                ));
            }
        }
        Ok(())
    }

    /// The lowest face that means dead after the battle (7 if none does).
    pub fn dead_from(&self) -> i64 {
        self.post_battle
            .band
            .iter()
            .filter(|b| b.outcome == Downed::Dead)
            .map(|b| b.from)
            .min()
            .unwrap_or(i64::from(D6) + 1)
    }
}

fn unique<'a>(keys: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for k in keys {
        if !seen.insert(k) {
            return Err(k.to_string());
        }
    }
    Ok(())
}

/// A hero's tokens, as given on one side of a command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tokens {
    pub saves: i64,
    pub rerolls: i64,
    pub saves_spent: i64,
    pub rerolls_spent: i64,
}

impl Tokens {
    pub fn from_bound(words: &Bound) -> Tokens {
        Tokens {
            saves: words.value("saves").unwrap_or(0),
            rerolls: words.value("rerolls").unwrap_or(0),
            ..Tokens::default()
        }
    }

    pub fn saves_left(&self) -> i64 {
        self.saves - self.saves_spent
    }

    pub fn rerolls_left(&self) -> i64 {
        self.rerolls - self.rerolls_spent
    }

    /// Spend a save token if one is left.
    pub fn spend_save(&mut self) -> bool {
        if self.saves_left() > 0 {
            self.saves_spent += 1;
            true
        } else {
            false
        }
    }

    /// Spend a reroll token if one is left.
    pub fn spend_reroll(&mut self) -> bool {
        if self.rerolls_left() > 0 {
            self.rerolls_spent += 1;
            true
        } else {
            false
        }
    }

    /// JSON for the tokens: given, spent and left.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "saves": self.saves,
            "saves_spent": self.saves_spent,
            "saves_left": self.saves - self.saves_spent,
            "rerolls": self.rerolls,
            "rerolls_spent": self.rerolls_spent,
            "rerolls_left": self.rerolls - self.rerolls_spent,
        })
    }

    pub fn any(&self) -> bool {
        self.saves > 0 || self.rerolls > 0
    }

    /// The tokens spent, as effects on the figure that carried them.
    pub fn spent(&self, res: &mut Resolution, on: crate::resolution::Target) {
        for _ in 0..self.saves_spent {
            res.effect(on, game::MayhemEffect::SaveSpent);
        }
        for _ in 0..self.rerolls_spent {
            res.effect(on, game::MayhemEffect::RerollSpent);
        }
    }
}

/// Most tokens a figure may carry on a line.
pub const MAX_TOKENS: i64 = 9;

/// The hero token words, for a side that may carry them.
pub fn token_words(vocab: Vocab, heroes: &HeroTable, reroll_use: &str) -> Vocab {
    vocab
        .number(
            "saves",
            0,
            MAX_TOKENS,
            format!(
                "hero's {}: one is spent automatically to cancel a death or a morale failure",
                heroes.save
            ),
        )
        .number(
            "rerolls",
            0,
            MAX_TOKENS,
            format!("hero's {}: {reroll_use}", heroes.reroll),
        )
}

/// The figures named on one side of a command (`None`: the acting side;
/// `Some(i)`: the i-th clause), in the order written: where, and which.
pub fn named_figures(input: &Input, clause: Option<usize>) -> Vec<(Span, String)> {
    input
        .named_on(clause)
        .map(|n| (n.span, n.facts.id.clone()))
        .collect()
}

/// A figure named twice on one line: it would roll twice, or against
/// itself, and take two results.
pub fn named_once(input: &Input) -> Result<(), CommandError> {
    for (i, later) in input.named.iter().enumerate() {
        if input.named[..i]
            .iter()
            .any(|n| n.facts.id == later.facts.id)
        {
            return Err(BindError::NotHere {
                span: later.span,
                text: later.facts.id.clone(),
                why: "is named twice on the line: name each figure once".into(),
            }
            .into());
        }
    }
    Ok(())
}

/// A side that names more than one figure where a command takes one.
pub fn one_figure(named: &[(Span, String)], side: &str, instead: &str) -> Result<(), CommandError> {
    match named {
        [_, (span, id), ..] => Err(BindError::NotHere {
            span: *span,
            text: id.clone(),
            why: format!("is a second figure on {side}; {instead}"),
        }
        .into()),
        _ => Ok(()),
    }
}

/// "5+" for a score needed on a die.
pub fn needs(n: i64) -> String {
    format!("{n}+")
}

/// The rule book.
pub const MAYHEM: System = System::new(&Book {
    id: "mayhem",
    title: "Musket Mayhem",
});

const FILES: &[TableFile] = &[TableFile::new(
    "mayhem.toml",
    include_str!("../../tables/mayhem.toml"),
)];

/// Musket Mayhem, as the registry knows it.
pub struct Mayhem;

/// The system, for the registry.
pub static SYSTEM: Mayhem = Mayhem;

impl RuleSystem for Mayhem {
    fn name(&self) -> &'static str {
        "Musket Mayhem"
    }

    fn books(&self) -> &'static [System] {
        &[MAYHEM]
    }

    fn table_files(&self) -> &'static [TableFile] {
        FILES
    }

    fn load(&'static self, source: &TableSource) -> Result<Rc<dyn RuleSet>, TableError> {
        Ok(Rc::new(MayhemTables::load(source)?))
    }

    fn army(&self) -> &'static dyn Schema {
        &army::MayhemSchema
    }

    fn sheet(
        &self,
        _book: System,
        source: &TableSource,
    ) -> Option<Result<crate::sheet::Sheet, TableError>> {
        Some(sheet::sheet(source))
    }
}

impl MayhemTables {
    pub fn load(source: &TableSource) -> Result<MayhemTables, TableError> {
        let (name, tables): (_, MayhemTables) = source.parse(&FILES[0])?;
        tables.validate(&name)?;
        Ok(tables)
    }

    /// The embedded tables.
    pub fn embedded() -> Result<MayhemTables, TableError> {
        MayhemTables::load(&TableSource::embedded())
    }
}

impl MayhemTables {
    pub(crate) fn typed_verbs(&self) -> Vec<VerbDoc> {
        let t = Rc::new(self.clone());
        vec![
            movement::verb(&t),
            fire::verb(&t),
            courage::verb(&t),
            fight::verb(&t),
            reload::verb(&t),
            misc::climb_verb(&t),
            misc::ignite_verb(&t),
            misc::skill_verb(&t),
            misc::search_verb(&t),
            misc::post_battle_verb(&t),
            sequence::initiative_verb(&t),
            sequence::activation_verb(&t),
        ]
    }
}

impl RuleSet for MayhemTables {
    fn system(&self) -> &'static dyn RuleSystem {
        &SYSTEM
    }

    fn verbs(&self) -> Vec<crate::catalog::VerbDoc> {
        self.typed_verbs().iter().map(VerbDoc::shown).collect()
    }

    fn game(&self, armies: &[(usize, &Army)]) -> Box<dyn GamePart> {
        Live::part(
            game::MayhemGame::new(Rc::new(self.clone()), armies),
            self.typed_verbs(),
        )
    }
}

/// The dice a procedure throws, counted, so that entered dice it did not
/// need can be given back as unused ([`Counted::unused`]). Every draw is
/// passed on as it is: under `odds` the enumerator still sees each one
/// whole.
pub struct Counted<'a> {
    inner: &'a mut dyn DiceSource,
    thrown: usize,
}

impl<'a> Counted<'a> {
    pub fn new(inner: &'a mut dyn DiceSource) -> Counted<'a> {
        Counted { inner, thrown: 0 }
    }

    fn add(&mut self, n: impl TryInto<usize>) {
        self.thrown = self.thrown.saturating_add(n.try_into().unwrap_or(0));
    }

    /// "Where a rule throws a die only if an earlier one allows": the
    /// procedure could have thrown `most` dice and threw fewer. Entered
    /// dice up to `most` are taken and named in a note (and the JSON's
    /// `unused_dice`) as not needed, with `why`; any beyond are left for
    /// the session to refuse. Nothing happens under `odds` or with rolled
    /// dice.
    pub fn unused(
        &mut self,
        input: &Input,
        res: &mut Resolution,
        most: usize,
        why: impl FnOnce() -> String,
    ) -> Result<(), CommandError> {
        let Some(left) = most.checked_sub(self.thrown).filter(|n| *n > 0) else {
            return Ok(());
        };
        let faces = self.inner.unneeded(u32::try_from(left).unwrap_or(u32::MAX));
        if faces.is_empty() {
            return Ok(());
        }
        // Entered dice are taken in order, so those not needed follow the
        // ones thrown; a face no d6 shows is refused as a thrown one is.
        for (i, &face) in faces.iter().enumerate() {
            if !(1..=D6).contains(&face) {
                let span = input
                    .command
                    .rolled
                    .get(self.thrown.saturating_add(i))
                    .map_or_else(|| input.command.rolled_span.unwrap_or_default(), |d| d.span);
                return Err(DiceError::FaceOutOfRange {
                    span,
                    face,
                    sides: D6,
                }
                .into());
            }
        }
        let list = faces
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let (dice, were) = if faces.len() == 1 {
            ("die", "was")
        } else {
            ("dice", "were")
        };
        res.note(format_args!(
            "Entered {dice} {list} {were} not needed: {} (the dice are read in the order they are thrown).",
            why()
        ));
        res.field("unused_dice", faces);
        Ok(())
    }
}

impl DiceSource for Counted<'_> {
    fn roll(&mut self, sides: u32) -> Result<Rolled, DiceError> {
        self.add(1);
        self.inner.roll(sides)
    }

    fn roll_many(&mut self, n: u32, sides: u32) -> Result<Vec<Rolled>, DiceError> {
        self.add(n);
        self.inner.roll_many(n, sides)
    }

    fn sum(&mut self, n: u32, sides: u32) -> Result<Sum, DiceError> {
        self.add(n);
        self.inner.sum(n, sides)
    }

    fn pool2(&mut self, n: u32, sides: u32, low: u32, high: u32) -> Result<Pool2, DiceError> {
        self.add(n);
        self.inner.pool2(n, sides, low, high)
    }

    fn contest(&mut self, a: u32, b: u32, sides: u32) -> Result<Contest, DiceError> {
        self.add(a.saturating_add(b));
        self.inner.contest(a, b, sides)
    }

    fn reroll_above(&mut self, sides: u32, max: u32, limit: u32) -> Result<Vec<Rolled>, DiceError> {
        let thrown = self.inner.reroll_above(sides, max, limit)?;
        self.add(thrown.len());
        Ok(thrown)
    }

    fn tie_break(&mut self, n: u32, sides: u32) -> Result<TieBreak, DiceError> {
        let tie = self.inner.tie_break(n, sides)?;
        self.add(tie.rounds.len().saturating_mul(2 * n as usize));
        Ok(tie)
    }

    fn roll_against(&mut self, sides: u32, scores: &[u32]) -> Result<Rolled, DiceError> {
        self.add(1);
        self.inner.roll_against(sides, scores)
    }

    fn opposed(&mut self, sides: u32, edge: i64) -> Result<[Rolled; 2], DiceError> {
        self.add(2);
        self.inner.opposed(sides, edge)
    }

    fn pool_each(&mut self, sides: u32, scores: &[u32]) -> Result<Pool, DiceError> {
        self.add(scores.len());
        self.inner.pool_each(sides, scores)
    }

    fn pool_against(
        &mut self,
        n: u32,
        sides: u32,
        at_least: u32,
        cuts: &[u32],
    ) -> Result<PoolBand, DiceError> {
        self.add(n);
        self.inner.pool_against(n, sides, at_least, cuts)
    }

    fn enumerator(&mut self) -> Option<&mut Enumerator> {
        self.inner.enumerator()
    }

    fn unneeded(&mut self, count: u32) -> Vec<u32> {
        self.inner.unneeded(count)
    }

    fn pool(&mut self, n: u32, sides: u32, at_least: u32) -> Result<Pool, DiceError> {
        self.add(n);
        self.inner.pool(n, sides, at_least)
    }
}

/// A fact that forbids what the line asks, refused at whoever said it:
/// the figure that brought it ("`percy` moved this turn"), or the word
/// typed ("`moved` says the figure moved this turn").
pub fn fact_refused(input: &Input, word: &str, why: impl std::fmt::Display) -> CommandError {
    let words = &input.words;
    let brought = input
        .named_on(None)
        .find(|n| n.facts.facts.iter().any(|f| f.word == word))
        .filter(|_| words.implied(word));
    match brought {
        Some(n) => BindError::NotHere {
            span: n.span,
            text: n.facts.id.clone(),
            why: why.to_string(),
        },
        None => BindError::NotHere {
            span: words.span_of(word).unwrap_or_default(),
            text: word.to_string(),
            why: format!("says the figure {why}"),
        },
    }
    .into()
}

/// The fact word of a figure carrying incendiary materials.
pub const INCENDIARY: &str = "incendiary";
/// The fact word of the commander of a contingent.
pub const COMMANDER: &str = "commander";

/// "Figures carrying incendiary materials must be marked, and may not
/// shoot or charge": the refusal, at the word or figure that says so.
pub fn incendiary_refused(
    tables: &MayhemTables,
    span: Span,
    who: Option<&str>,
    doing: &str,
) -> CommandError {
    let who = who.map_or_else(|| "the figure".to_string(), |id| format!("`{id}`"));
    BindError::NotHere {
        span,
        text: INCENDIARY.into(),
        why: format!(
            "marks {who} as carrying incendiary materials, and it may not {doing} (\"{}\"); it may set a fire (`ignite`)",
            tables.fire.incendiary_row.trim_end_matches('.')
        ),
    }
    .into()
}

/// What a figure killed leaves to do, when it led: its group checks
/// courage, or, for the commander, the whole contingent.
pub fn leader_killed_note(
    res: &mut Resolution,
    tables: &MayhemTables,
    who: &str,
    leader: bool,
    commander: bool,
) {
    if res.quiet || !(leader || commander) {
        return;
    }
    let leader_row = tables
        .courage
        .cause
        .iter()
        .find(|c| c.keyword == "leader-killed")
        .map_or("", |c| c.row.as_str());
    if commander {
        res.note(format_args!(
            "{who} was the commander of the contingent: \"{}\" (`courage FIGURE… cause=leader-killed` for each group and individual; in a game `end-turn` lists them).",
            tables.courage.commander.row.trim_end_matches('.')
        ));
    } else {
        res.note(format_args!(
            "{who} was a leader: \"{}\" — the company or warband he led checks courage (`courage FIGURE… cause=leader-killed`; in a game `end-turn` lists it).",
            leader_row
        ));
    }
}
