//! Drums and Muskets quick reference sheets: the table shapes, the verbs,
//! the army lists and what a game keeps of their units. One file per
//! procedure; the numbers live in `tables/drums.toml` and
//! `tables/drums-pools.toml`.

pub(crate) mod army;
pub(crate) mod contradict;
pub(crate) mod exclusive;
pub(crate) mod game;
mod hits;
mod hold;
mod initiative;
mod interpenetrate;
pub(crate) mod losses;
mod melee;
mod movement;
mod named;
pub(crate) mod pool;
mod resilience;
mod risk;
mod sheet;
mod shoot;

use std::cell::OnceCell;
use std::rc::Rc;

use serde::Deserialize;

use crate::army::{Army, Schema};
use crate::command::{Book, System, Word, WordKind};
use crate::dice::DiceExpr;
use crate::error::{BindError, CommandError, TableError};

use crate::catalog::{TypedVerbs, VerbShelf};
use crate::system::{GamePart, Live, RuleSet, RuleSystem, Setting};
use crate::tables::{TableFile, TableSource};

pub(crate) use pool::PoolTables;
pub(crate) use resilience::Context;

/// A resolution of this system: its effects are [`game::DrumsEffect`].
pub type Resolution = crate::answer::Resolution<game::DrumsEffect>;
/// A verb of this system, resolving to its own effects.
pub type VerbDoc = crate::catalog::VerbDoc<game::DrumsEffect>;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrumsTables {
    pub resilience: ResilienceTable,
    pub hold: HoldTable,
    pub(crate) charge: Vec<ChargeRow>,
    #[serde(rename = "move")]
    pub(crate) movement: Vec<MoveRow>,
    /// House defaults: an arm with no row of its own on the Movement table
    /// moves on another arm's rows (`irregular = "foot"`).
    #[serde(default)]
    pub(crate) move_as: std::collections::BTreeMap<String, Arm>,
    pub(crate) road: RoadRule,
    pub(crate) initiative: InitiativeTable,
    pub(crate) risk: RiskTable,
    pub hits: HitsTable,
    /// Absent from a house-rule file written before the table was read:
    /// `interpenetrate` then says the tables have none.
    #[serde(default)]
    pub(crate) interpenetration: InterpenetrationTable,
    /// Other names of the verbs' words, for suggestions (see the file).
    #[serde(default)]
    pub(crate) aliases: std::collections::BTreeMap<String, Vec<String>>,
    /// Between the battles of a campaign: not of `drums.toml` but of the
    /// `[drums]` section of `campaign.toml`, put here as the tables load.
    #[serde(skip)]
    pub(crate) campaign: game::CampaignTable,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResilienceTable {
    pub dice: DiceExpr,
    pub alternative_dice: DiceExpr,
    pub adjustment: Vec<ResilienceAdjustment>,
    pub outcome: Vec<OutcomeBand>,
}

/// A row of the Resilience Situation Adjustment Table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResilienceAdjustment {
    /// The word that claims the row.
    pub(crate) keyword: Option<String>,
    /// The row applies by itself when this word is absent.
    pub(crate) unless: Option<String>,
    /// The row's words; shared into every modifier stack that uses it.
    pub(crate) row: std::rc::Rc<str>,
    #[serde(default)]
    pub(crate) counted: bool,
    pub shooting: Option<i64>,
    pub charge_or_melee: Option<i64>,
    pub(crate) other: Option<i64>,
    /// The row's label when it applies by itself, made the first time a
    /// line needs it and shared after: a batch line would otherwise
    /// format it again.
    #[serde(skip)]
    by_itself: std::cell::OnceCell<std::rc::Rc<str>>,
}

impl ResilienceAdjustment {
    /// The row's label when it applies because its `unless` word is absent.
    pub(crate) fn by_itself_label(&self) -> std::rc::Rc<str> {
        self.by_itself
            .get_or_init(|| format!("{} (applies by itself)", self.row).into())
            .clone()
    }

    /// The cell for a context; `None` is a blank cell.
    pub(crate) fn value(&self, context: Context) -> Option<i64> {
        match context {
            Context::Shooting => self.shooting,
            Context::Charge | Context::Melee => self.charge_or_melee,
            Context::Other => self.other,
        }
    }
}

/// A score band of the Resilience Outcomes Table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeBand {
    pub(crate) from: Option<i64>,
    pub(crate) to: Option<i64>,
    pub(crate) shooting: OutcomeCell,
    pub(crate) charge: OutcomeCell,
    pub(crate) melee: OutcomeCell,
    pub(crate) other: OutcomeCell,
    /// The band's row in a modifier stack, made the first time a line
    /// lands in the band and shared after.
    #[serde(skip)]
    row: std::cell::OnceCell<std::rc::Rc<str>>,
}

impl OutcomeBand {
    pub(crate) fn contains(&self, score: i64) -> bool {
        self.from.is_none_or(|f| score >= f) && self.to.is_none_or(|t| score <= t)
    }

    pub(crate) fn cell(&self, context: Context) -> &OutcomeCell {
        match context {
            Context::Shooting => &self.shooting,
            Context::Charge => &self.charge,
            Context::Melee => &self.melee,
            Context::Other => &self.other,
        }
    }

    /// The band's row in the stack: "Resilience Outcomes Table, 10–11".
    pub(crate) fn row_label(&self) -> std::rc::Rc<str> {
        self.row
            .get_or_init(|| format!("Resilience Outcomes Table, {}", self.label()).into())
            .clone()
    }

    /// "12+", "10–11", "7", "1 or less".
    fn label(&self) -> String {
        match (self.from, self.to) {
            (Some(f), None) => format!("{f}+"),
            (None, Some(t)) => format!("{t} or less"),
            (Some(f), Some(t)) if f == t => f.to_string(),
            (Some(f), Some(t)) => format!("{f}–{t}"),
            (None, None) => "any".into(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ResilienceOutcome {
    Advance,
    CarryOn,
    Stand,
    ForcedRetire,
    Break,
}

impl ResilienceOutcome {
    pub(crate) fn id(self) -> &'static str {
        match self {
            ResilienceOutcome::Advance => "advance",
            ResilienceOutcome::CarryOn => "carry-on",
            ResilienceOutcome::Stand => "stand",
            ResilienceOutcome::ForcedRetire => "forced-retire",
            ResilienceOutcome::Break => "break",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OutcomeCell {
    pub(crate) outcome: ResilienceOutcome,
    #[serde(default)]
    pub(crate) hits: i64,
    #[serde(default)]
    pub(crate) advance_bw: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HoldTable {
    pub(crate) dice: DiceExpr,
    pub(crate) alternative_dice: DiceExpr,
    pub(crate) must_charge_at: i64,
    pub(crate) adjustment: Vec<FlatAdjustment>,
}

/// A row with one value: the hold test table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlatAdjustment {
    pub(crate) keyword: String,
    pub(crate) row: String,
    pub(crate) value: i64,
}

/// A distance cell: dice notation, or a word saying there is no move.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub(crate) enum Distance {
    Dice(DiceExpr),
    CannotCharge,
    NotApplicable,
}

impl TryFrom<String> for Distance {
    type Error = String;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "cannot" | "cannot charge" => Ok(Distance::CannotCharge),
            "na" | "n/a" => Ok(Distance::NotApplicable),
            _ => DiceExpr::parse(&text)
                .map(Distance::Dice)
                .map_err(|e| format!("{e}, `cannot` or `NA`")),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Arm {
    Foot,
    Cavalry,
    Artillery,
    Irregular,
    General,
}

impl Arm {
    pub(crate) const ALL: [Arm; 5] = [
        Arm::Foot,
        Arm::Cavalry,
        Arm::Artillery,
        Arm::Irregular,
        Arm::General,
    ];

    pub(crate) fn id(self) -> &'static str {
        match self {
            Arm::Foot => "foot",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
            Arm::Irregular => "irregular",
            Arm::General => "general",
        }
    }

    pub(crate) fn from_id(id: &str) -> Option<Arm> {
        Arm::ALL.into_iter().find(|a| a.id() == id)
    }

    pub(crate) fn title(self) -> &'static str {
        match self {
            Arm::Foot => "Foot",
            Arm::Cavalry => "Cavalry",
            Arm::Artillery => "Artillery",
            Arm::Irregular => "Irregular troops",
            Arm::General => "General",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChargeRow {
    pub(crate) arm: Arm,
    /// The word of the sheet's unit type where it is more than the arm
    /// ("Artillery Limbered", "Artillery Unlimbered"): given with or
    /// without the formation, it selects this row.
    pub(crate) limber: Option<String>,
    /// The formation as the sheet names it.
    pub(crate) formation: String,
    /// The words that select this row.
    pub(crate) formations: Vec<String>,
    pub(crate) distance: Distance,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRow {
    pub(crate) arm: Arm,
    /// As [`ChargeRow::limber`].
    pub(crate) limber: Option<String>,
    pub(crate) formation: String,
    pub(crate) formations: Vec<String>,
    #[serde(default)]
    pub(crate) evading: bool,
    pub(crate) normal: Distance,
    pub(crate) terrain: Distance,
    pub(crate) retire: Distance,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoadRule {
    pub(crate) formations: Vec<String>,
    pub(crate) add: DiceExpr,
    pub(crate) except_arms: Vec<Arm>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InitiativeTable {
    pub(crate) per_general: i64,
    pub(crate) per_exceptional: i64,
    pub(crate) per_incompetent: i64,
    pub(crate) supply: i64,
    pub(crate) tie_dice: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RiskTable {
    pub(crate) broke: RiskRow,
    pub(crate) shot: RiskRow,
    pub(crate) commander: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RiskRow {
    pub(crate) row: String,
    pub(crate) needs: u32,
    pub(crate) outcome: String,
    pub(crate) text: String,
    #[serde(rename = "move")]
    pub(crate) distance: Option<DiceExpr>,
    pub(crate) aftermath: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitsTable {
    pub per_base: u32,
}

/// The Table of allowed interpenetrations: rows are the moving unit's
/// formation, columns the formation of the unit it passes through.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InterpenetrationTable {
    pub(crate) column: Vec<InterpenetrationColumn>,
    pub(crate) row: Vec<InterpenetrationRow>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InterpenetrationColumn {
    pub(crate) id: String,
    /// The column as the sheet heads it ("Any column").
    pub(crate) title: String,
    /// The words that select the column.
    pub(crate) formations: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InterpenetrationRow {
    /// The row as the sheet names it ("Open (including evading)").
    pub(crate) moving: String,
    /// The words that select the row.
    pub(crate) formations: Vec<String>,
    /// The ids of the columns marked X.
    pub(crate) allowed: Vec<String>,
}

/// Builds the error for a key of the file being checked.
type Invalid<'a> = &'a dyn Fn(&str, String) -> TableError;

impl DrumsTables {
    /// Whole-table rules that serde cannot check.
    pub fn validate(&self, file: &str) -> Result<(), TableError> {
        let invalid = |key: &str, message: String| TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        let invalid = &invalid;
        self.check_resilience(invalid)?;
        self.check_movement(invalid)?;
        self.check_interpenetration(invalid)?;
        if self.hits.per_base == 0 {
            return Err(invalid("hits.per_base", "must be at least 1".into()));
        }
        for (key, row) in [
            ("risk.broke", &self.risk.broke),
            ("risk.shot", &self.risk.shot),
        ] {
            if !(1..=6).contains(&row.needs) {
                return Err(invalid(
                    &format!("{key}.needs"),
                    "must be a face of a d6, 1 to 6".into(),
                ));
            }
        }
        Ok(())
    }

    /// Each adjustment row claimed by one word (or applying unless one is
    /// given), and every score in exactly one outcome band.
    fn check_resilience(&self, invalid: Invalid) -> Result<(), TableError> {
        for (i, adj) in self.resilience.adjustment.iter().enumerate() {
            if adj.keyword.is_some() == adj.unless.is_some() {
                return Err(invalid(
                    &format!("resilience.adjustment[{i}] (\"{}\")", adj.row),
                    "give exactly one of `keyword` or `unless`".into(),
                ));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for adj in &self.resilience.adjustment {
            if let Some(k) = &adj.keyword
                && !seen.insert(k.as_str())
            {
                return Err(invalid(
                    "resilience.adjustment",
                    format!("keyword `{k}` is used by two rows"),
                ));
            }
        }
        // Every score must fall in exactly one band of the outcomes table.
        for score in -60..=60 {
            let bands = self
                .resilience
                .outcome
                .iter()
                .filter(|b| b.contains(score))
                .count();
            if bands != 1 {
                return Err(invalid(
                    "resilience.outcome",
                    format!("score {score} falls in {bands} bands; every score needs exactly one"),
                ));
            }
        }
        Ok(())
    }

    /// The charge and movement rows' unit-type words, and the arms that
    /// move as another.
    fn check_movement(&self, invalid: Invalid) -> Result<(), TableError> {
        // A unit type's word stands beside a formation word ("Artillery
        // Limbered | Column of March"), never for one.
        let rows = self
            .charge
            .iter()
            .map(|r| (&r.limber, &r.formations))
            .chain(self.movement.iter().map(|r| (&r.limber, &r.formations)));
        let formations: Vec<&String> = rows.clone().flat_map(|(_, f)| f).collect();
        for (limber, _) in rows {
            if let Some(l) = limber
                && (formations.contains(&l) || Arm::from_id(l).is_some())
            {
                return Err(invalid(
                    "charge/move",
                    format!(
                        "`limber = \"{l}\"` is also a formation or an arm: give it a word of its own"
                    ),
                ));
            }
        }
        for (arm, to) in &self.move_as {
            let key = format!("move_as.{arm}");
            let Some(from) = Arm::from_id(arm) else {
                let arms: Vec<&str> = Arm::ALL.iter().map(|a| a.id()).collect();
                return Err(invalid(
                    &key,
                    format!("`{arm}` is not an arm: one of {}", arms.join(", ")),
                ));
            };
            if from == *to || *to == Arm::General || from == Arm::General {
                return Err(invalid(
                    &key,
                    "an arm moves as another arm, and generals have no formation".into(),
                ));
            }
            if !self.movement.iter().any(|r| r.arm == *to) {
                return Err(invalid(
                    &key,
                    format!("the Movement table has no rows for `{}`", to.id()),
                ));
            }
        }
        Ok(())
    }

    /// Each formation selects one column and one row of the
    /// interpenetration table, and a row allows only columns there are.
    fn check_interpenetration(&self, invalid: Invalid) -> Result<(), TableError> {
        let inter = &self.interpenetration;
        let mut seen_columns = std::collections::HashSet::new();
        let mut column_words = std::collections::HashSet::new();
        for c in &inter.column {
            if !seen_columns.insert(c.id.as_str()) {
                return Err(invalid(
                    "interpenetration.column",
                    format!("two columns have id `{}`", c.id),
                ));
            }
            for f in &c.formations {
                if !column_words.insert(f.as_str()) {
                    return Err(invalid(
                        "interpenetration.column",
                        format!("formation `{f}` selects two columns"),
                    ));
                }
            }
        }
        let mut row_words = std::collections::HashSet::new();
        for r in &inter.row {
            let key = format!("interpenetration.row (\"{}\")", r.moving);
            for f in &r.formations {
                if !row_words.insert(f.as_str()) {
                    return Err(invalid(&key, format!("formation `{f}` selects two rows")));
                }
            }
            if let Some(id) = r
                .allowed
                .iter()
                .find(|a| !seen_columns.contains(a.as_str()))
            {
                return Err(invalid(&key, format!("`allowed` names no column `{id}`")));
            }
        }
        Ok(())
    }
}

/// The rule book.
pub const DRUMS: System = System::new(&Book {
    id: "drums",
    title: "Drums and Muskets",
});

const FILES: &[TableFile] = &[
    TableFile::new("drums.toml", include_str!("../../tables/drums.toml")),
    TableFile::new(
        "drums-pools.toml",
        include_str!("../../tables/drums-pools.toml"),
    ),
    TableFile::shared(
        crate::carry::CAMPAIGN_FILE,
        include_str!("../../tables/campaign.toml"),
        &[game::CAMPAIGN_SECTION],
    ),
];

/// Drums and Muskets, as the registry knows it.
pub(crate) struct Drums;

/// The system, for the registry.
pub(crate) static SYSTEM: Drums = Drums;

impl RuleSystem for Drums {
    fn name(&self) -> &'static str {
        "Drums and Muskets"
    }

    fn books(&self) -> &'static [System] {
        &[DRUMS]
    }

    fn table_files(&self) -> &'static [TableFile] {
        FILES
    }

    fn load(&'static self, source: &TableSource) -> Result<Rc<dyn RuleSet>, TableError> {
        Ok(Rc::new(Tables::load(source)?))
    }

    fn army(&self) -> &'static dyn Schema {
        &army::DrumsSchema
    }

    fn sheet(
        &self,
        _book: System,
        source: &TableSource,
    ) -> Option<Result<crate::sheet::Sheet, TableError>> {
        Some(sheet::sheet(source))
    }
}

/// The Drums and Muskets tables in force.
#[derive(Debug, Clone)]
pub struct Tables {
    // Shared, not copied, by every verb made of them.
    pub drums: Rc<DrumsTables>,
    /// Shooting and melee dice pools (`drums-pools.toml`): the embedded
    /// file is read when a shooting or melee first needs it, as most
    /// one-shot lines (a resilience test, a hold) never do.
    pools: Rc<OnceCell<PoolTables>>,
    /// The verbs made of these tables, each once (none in the tables a
    /// verb holds: see [`Tables::with_verbs`]).
    verbs: Rc<TypedVerbs<game::DrumsEffect>>,
}

impl Tables {
    pub fn load(source: &TableSource) -> Result<Tables, TableError> {
        let (_, mut drums) = source.parse_checked(&FILES[0], DrumsTables::validate)?;
        (_, drums.campaign) = crate::carry::load(source, &FILES[2], game::CAMPAIGN_SECTION)?;
        let pools = OnceCell::new();
        if !source.is_embedded() {
            let (_, read) = source.parse_checked(&FILES[1], PoolTables::validate)?;
            let _ = pools.set(read);
        }
        Ok(Tables {
            drums: Rc::new(drums),
            pools: Rc::new(pools),
            verbs: Rc::default(),
        }
        .with_verbs())
    }

    /// The tables in force with the dice pools read now, and where each
    /// file came from (`tables/drums.toml (embedded)`, a house file's
    /// path), for the quick-reference sheet's sources line.
    pub(crate) fn load_labelled(source: &TableSource) -> Result<(Tables, [String; 3]), TableError> {
        let (drums_label, mut drums) = source.parse_checked(&FILES[0], DrumsTables::validate)?;
        let (pools_label, pools) = source.parse_checked(&FILES[1], PoolTables::validate)?;
        let (campaign_label, campaign) =
            crate::carry::load(source, &FILES[2], game::CAMPAIGN_SECTION)?;
        drums.campaign = campaign;
        let tables = Tables {
            drums: Rc::new(drums),
            pools: Rc::new(OnceCell::from(pools)),
            verbs: Rc::default(),
        }
        .with_verbs();
        Ok((tables, [drums_label, pools_label, campaign_label]))
    }

    /// The dice pools' tables, read now if they have not been.
    pub fn drums_pools(&self) -> &PoolTables {
        self.pools.get_or_init(|| {
            // Left unread only when embedded, and the test suite reads the
            // embedded file: this cannot fail in a build that passed it.
            match TableSource::embedded().parse(&FILES[1]) {
                Ok((_, pools)) => pools,
                Err(e) => panic!("the embedded {} does not load: {e}", FILES[1].name),
            }
        })
    }

    /// The embedded tables.
    pub fn embedded() -> Result<Tables, TableError> {
        Tables::load(&TableSource::embedded())
    }
}

/// Each verb's name and how it is made, in the order help lists them.
type MakeVerb = fn(&Rc<Tables>) -> VerbDoc;
const VERBS: &[(&str, MakeVerb)] = &[
    ("resilience", resilience::verb),
    ("hold", hold::verb),
    ("charge", movement::charge_verb),
    ("move", movement::move_verb),
    ("initiative", initiative::verb),
    ("risk", risk::verb),
    ("hits", hits::verb),
    ("shoot", shoot::verb),
    ("melee", melee::verb),
    ("interpenetrate", interpenetrate::verb),
];

impl Tables {
    /// The tables with their verbs to be made, each when first wanted. A
    /// verb holds the tables it was made of, without the verbs.
    fn with_verbs(mut self) -> Tables {
        let bare = Rc::new(Tables {
            verbs: Rc::default(),
            ..self.clone()
        });
        let names: Vec<&'static str> = VERBS.iter().map(|(name, _)| *name).collect();
        self.verbs = Rc::new(TypedVerbs::new(&names, move |name| {
            VERBS
                .iter()
                .filter(|(n, _)| name.is_none_or(|name| name == *n))
                .map(|(_, make)| contradict::guard(make(&bare)).with_aliases(&bare.drums.aliases))
                .collect()
        }));
        self
    }
}

impl RuleSet for Tables {
    fn system(&self) -> &'static dyn RuleSystem {
        &SYSTEM
    }

    fn verbs(&self) -> &dyn VerbShelf {
        &*self.verbs
    }

    /// `set bases N`: the bases a shooting or melee side is given when
    /// neither `bases=N` nor a unit says (the tables' default otherwise).
    fn set(
        &self,
        setting: &Word,
        value: Option<&Word>,
        line: &str,
    ) -> Option<Result<Setting, CommandError>> {
        if setting.keyword() != Some("bases") {
            return None;
        }
        let Some(value) = value else {
            return Some(Err(BindError::Missing {
                span: crate::command::Span::at_end(line),
                what: "`set bases` needs a number: `set bases N` (the bases assumed when a command gives none)".into(),
            }
            .into()));
        };
        let n = match value.kind {
            WordKind::Number(n) if n.fract() == 0.0 && (1.0..=1000.0).contains(&n) => n as u32,
            _ => {
                return Some(Err(BindError::BadValue {
                    span: value.span,
                    text: value.text.to_string(),
                    expected: "bases are a whole number from 1 to 1000".into(),
                }
                .into()));
            }
        };
        let mut set = self.clone();
        let mut pools = self.drums_pools().clone();
        pools.default_bases = n;
        set.pools = Rc::new(OnceCell::from(pools));
        Some(Ok((
            Rc::new(set.with_verbs()),
            format!("bases assumed when a command gives none: {n}"),
        )))
    }

    fn settings(&self) -> Vec<(&'static str, &'static str)> {
        vec![("set bases N", "the bases assumed when a command gives none")]
    }

    fn game(&self, armies: &[(usize, &Army)]) -> Box<dyn GamePart> {
        let context = game::DrumsContext::new(Rc::new(self.clone()), armies);
        Live::part(
            &SYSTEM,
            armies,
            context,
            game::DrumsState::default(),
            self.verbs.clone(),
        )
    }
}
