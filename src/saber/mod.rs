//! Musket & Saber, standard rules and QuickPlay: the hex-game procedures
//! without a map. The user states the factors; drumhead does the
//! arithmetic, rolls the combat die and the morale die and applies the
//! results. Both variants share the code; where the rules differ, the
//! difference is table data (`tables/saber.toml`, `tables/saber-quickplay.toml`).
//! The CRT is a separate file ([`crt`]).

pub mod army;
pub(crate) mod crt;
pub(crate) mod factors;
pub(crate) mod game;
pub(crate) mod named;

mod attack;
mod bombard;
mod choose;
mod coordination;
mod misc;
mod morale;
mod printed;
mod procedures;
mod recover;
mod results;
mod roster;
mod sheet;
mod stack;
mod tactics;
mod words;

use std::rc::Rc;

use serde::Deserialize;

use crate::army::{Army, Schema};
use crate::catalog::{Input, TypedVerbs, VerbShelf};
use crate::command::{Book, System};
use crate::dice::{DiceExpr, DiceSource};
use crate::error::{CommandError, TableError};

use crate::system::{GamePart, Live, RuleSet, RuleSystem};
use crate::tables::{TableFile, TableSource};

/// A resolution of this system: its effects are [`game::SaberEffect`].
pub type Resolution = crate::answer::Resolution<game::SaberEffect>;
/// A verb of this system, resolving to its own effects.
pub type VerbDoc = crate::catalog::VerbDoc<game::SaberEffect>;

/// Which rule book a procedure follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Variant {
    Standard,
    QuickPlay,
}

impl Variant {
    pub(crate) fn system(self) -> System {
        match self {
            Variant::Standard => SABER,
            Variant::QuickPlay => QUICKPLAY,
        }
    }

    /// The variant of the book a line is resolved under.
    pub(crate) fn of(system: System) -> Variant {
        if system == QUICKPLAY {
            Variant::QuickPlay
        } else {
            Variant::Standard
        }
    }

    pub(crate) fn rules(self, tables: &Tables) -> &SaberRules {
        match self {
            Variant::Standard => &tables.saber,
            Variant::QuickPlay => &tables.saber_quickplay,
        }
    }
}

/// The standard rules.
pub const SABER: System = System::new(&Book {
    id: "saber",
    title: "Musket & Saber",
});

/// The QuickPlay rules.
pub const QUICKPLAY: System = System::new(&Book {
    id: "saber-quickplay",
    title: "Musket & Saber QuickPlay",
});

/// The file in a `--tables DIR` (or `--crt FILE`) that replaces the example CRT.
pub(crate) const CRT_FILE: &str = "crt.toml";

const FILES: &[TableFile] = &[
    TableFile::new("saber.toml", include_str!("../../tables/saber.toml")),
    TableFile::new(
        "saber-quickplay.toml",
        include_str!("../../tables/saber-quickplay.toml"),
    ),
    TableFile {
        name: CRT_FILE,
        embedded_name: "saber-example-crt.toml",
        embedded: include_str!("../../tables/saber-example-crt.toml"),
        sections: &[],
    },
    TableFile::shared(
        crate::carry::CAMPAIGN_FILE,
        include_str!("../../tables/campaign.toml"),
        game::CAMPAIGN_SECTIONS,
    ),
];

/// Musket & Saber, as the registry knows it.
pub(crate) struct Saber;

/// The system, for the registry.
pub(crate) static SYSTEM: Saber = Saber;

impl RuleSystem for Saber {
    fn name(&self) -> &'static str {
        "Musket & Saber"
    }

    fn books(&self) -> &'static [System] {
        &[SABER, QUICKPLAY]
    }

    fn table_files(&self) -> &'static [TableFile] {
        FILES
    }

    fn load(&'static self, source: &TableSource) -> Result<Rc<dyn RuleSet>, TableError> {
        Ok(Rc::new(Tables::load(source)?))
    }

    fn army(&self) -> &'static dyn Schema {
        &army::SaberSchema
    }

    fn sheet(
        &self,
        book: System,
        source: &TableSource,
    ) -> Option<Result<crate::sheet::Sheet, TableError>> {
        Some(sheet::sheet(book, source))
    }
}

/// Both books' tables and the combat results table in force.
#[derive(Debug, Clone)]
pub struct Tables {
    pub(crate) saber: SaberRules,
    pub(crate) saber_quickplay: SaberRules,
    /// The combat results table for `attack` and `bombard`.
    pub crt: crt::Crt,
    /// The verbs made of these tables, made together once (none in the
    /// tables a verb holds: see [`Tables::with_verbs`]).
    verbs: Rc<TypedVerbs<game::SaberEffect>>,
}

impl Tables {
    pub(crate) fn load(source: &TableSource) -> Result<Tables, TableError> {
        let (_, saber) = Tables::rules(source, Variant::Standard)?;
        let (_, saber_quickplay) = Tables::rules(source, Variant::QuickPlay)?;
        Ok(Tables {
            saber,
            saber_quickplay,
            crt: Tables::crt(source)?,
            verbs: Rc::default(),
        }
        .with_verbs())
    }

    /// One book's rules, read and checked as the verbs read them, with the
    /// labels of the files they came from (for the sheet's sources line):
    /// its table file, and `campaign.toml` of which it reads its book's
    /// section.
    pub(crate) fn rules(
        source: &TableSource,
        variant: Variant,
    ) -> Result<([String; 2], SaberRules), TableError> {
        let file = match variant {
            Variant::Standard => &FILES[0],
            Variant::QuickPlay => &FILES[1],
        };
        let (label, mut rules) = source.parse_checked(file, SaberRules::validate)?;
        let (campaign_label, campaign) =
            crate::carry::load(source, &FILES[3], variant.system().id())?;
        rules.campaign = campaign;
        Ok(([label, campaign_label], rules))
    }

    /// The combat results table in force, read whole (never merged over
    /// the example: it is a folio's table, not an edit of the example);
    /// [`crt::Crt::file`] is the label of the file it came from.
    pub(crate) fn crt(source: &TableSource) -> Result<crt::Crt, TableError> {
        let (name, text) = source.read(&FILES[2])?;
        crt::Crt::parse(&name, &text)
    }

    /// The embedded tables.
    pub fn embedded() -> Result<Tables, TableError> {
        Tables::load(&TableSource::embedded())
    }
}

impl Tables {
    /// The tables with their verbs to be made, all at once, when one is
    /// first wanted. A verb holds the tables it was made of, without the
    /// verbs.
    fn with_verbs(mut self) -> Tables {
        self.verbs = Rc::default();
        let bare = Rc::new(self.clone());
        self.verbs = Rc::new(TypedVerbs::new(&[], move |_| bare.typed_verbs()));
        self
    }

    /// Each book's verbs, their words built from its tables.
    fn typed_verbs(self: &Rc<Tables>) -> Vec<VerbDoc> {
        let t = self.clone();
        let mut verbs = Vec::new();
        for variant in [Variant::Standard, Variant::QuickPlay] {
            let mut these = vec![
                morale::verb(&t, variant),
                attack::verb(&t, variant),
                bombard::verb(&t, variant),
            ];
            these.extend(misc::verbs(&t, variant));
            these.push(recover::recover_verb(&t, variant));
            these.push(choose::choose_verb(&t, variant));
            let aliases = &variant.rules(&t).aliases;
            verbs.extend(
                these
                    .into_iter()
                    .map(|v| v.with_aliases(aliases).with_override(named::OVERRIDE_HELP)),
            );
        }
        verbs
    }
}

impl RuleSet for Tables {
    fn system(&self) -> &'static dyn RuleSystem {
        &SYSTEM
    }

    fn verbs(&self) -> &dyn VerbShelf {
        &*self.verbs
    }

    fn game(&self, armies: &[(usize, &Army)]) -> Box<dyn GamePart> {
        let context = game::SaberContext::new(Rc::new(self.clone()), armies);
        let state = game::SaberState::starting(&context);
        Live::part(&SYSTEM, armies, context, state, self.verbs.clone())
    }
}

/// A verb's resolver: the book the line is resolved under says which
/// variant's rules apply.
fn resolver(
    t: &Rc<Tables>,
    resolve: fn(&Tables, Variant, &Input, &mut dyn DiceSource) -> Result<Resolution, CommandError>,
) -> impl Fn(&Input, &mut dyn DiceSource) -> Result<Resolution, CommandError> + 'static {
    let t = t.clone();
    move |input, dice| {
        // A word that contradicts a named unit is refused before any rule
        // reads it, the same in every verb.
        let said = named::contradictions(input)?;
        let mut res = resolve(&t, Variant::of(input.system), input, dice)?;
        said.show(&mut res, 0);
        Ok(res)
    }
}

/// One variant's tables.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SaberRules {
    pub(crate) name: String,
    pub(crate) morale: MoraleTable,
    pub(crate) combat: CombatTable,
    pub(crate) results: ResultsTable,
    #[serde(default)]
    pub(crate) tactic: Vec<TacticRow>,
    pub(crate) bombard: BombardTable,
    pub(crate) leader_casualty: Vec<CasualtyRow>,
    pub(crate) ma: MaTable,
    pub(crate) capture: Option<CaptureTable>,
    pub(crate) fow: Option<FowTable>,
    /// Standard 7.14; QuickPlay has no coordination.
    #[serde(default)]
    pub(crate) coordination: Option<coordination::CoordinationTable>,
    /// Other names of the verbs' words, for suggestions (see the file).
    #[serde(default)]
    pub(crate) aliases: std::collections::BTreeMap<String, Vec<String>>,
    /// Between the battles of a campaign: not of the book's table file but
    /// of its book's section of `campaign.toml`, put here as the tables
    /// load.
    #[serde(skip)]
    pub(crate) campaign: game::CampaignTable,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoraleTable {
    pub(crate) die: u32,
    /// "all units succeed on a die roll of 1".
    pub(crate) always_pass: u32,
    /// "all units fail on a die roll of 6".
    pub(crate) always_fail: u32,
    pub(crate) rule: String,
    /// Artillery's MR when it has none on the counter (standard 8.1).
    pub(crate) artillery: Option<ArtilleryMorale>,
    pub(crate) leader: String,
    /// QuickPlay 11.3: an ineffective unit checks morale as a disrupted
    /// one (the `disrupted` adjustment, under this row); `None` where
    /// ineffectiveness does not touch morale.
    pub(crate) ineffective: Option<String>,
    pub(crate) adjustment: Vec<MoraleAdjustment>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArtilleryMorale {
    pub(crate) mr: i64,
    pub(crate) row: String,
}

/// Where a morale adjustment goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum AdjustTo {
    /// Added to the die roll.
    Roll,
    /// Added to the morale rating.
    Rating,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoraleAdjustment {
    pub(crate) keyword: String,
    pub(crate) row: String,
    pub(crate) to: AdjustTo,
    pub(crate) value: i64,
    /// Words of one group exclude each other (night, twilight).
    pub(crate) group: Option<String>,
    /// Only when attacked by cavalry (squares).
    #[serde(default)]
    pub(crate) vs_cavalry: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CombatTable {
    /// The rule's own words, which the quick-reference sheet quotes.
    pub(crate) rule: String,
    /// "rounding up any remainder".
    pub(crate) halved_once: String,
    /// What a factor halved twice or more counts.
    pub(crate) halved_twice_counts: i64,
    /// "zero CF remain zero" (standard 7.7 says so; QuickPlay 7.4 does not).
    pub(crate) zero_stays_zero: bool,
    pub(crate) halved_twice: String,
    /// The rule's words for a parenthesized factor, which the sheet
    /// quotes.
    pub(crate) parenthesized: String,
    /// Cavalry on x results must retreat and is disrupted (standard 9.2).
    pub(crate) cavalry_on_x: Option<String>,
    /// Cavalry's CF doubled when attacking a disrupted defender (QuickPlay 9.1).
    pub(crate) cavalry_vs_disrupted: Option<String>,
    /// Night: only infantry charges (standard 14.2).
    pub(crate) night: Option<String>,
    /// Night: where the attacker may advance when the defender routs
    /// (standard 14.2 4: "into the vacated hex only").
    pub(crate) night_advance: Option<String>,
    /// The check before combat of a defender lacking a safe line of
    /// retreat (standard 7.3 2; QuickPlay's procedure, 7.1, has none).
    #[serde(default)]
    pub(crate) no_slr: Option<String>,
}

/// What each result letter means in this variant.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultsTable {
    pub(crate) r: Procedure,
    pub(crate) c: Procedure,
    pub(crate) x: Procedure,
    pub(crate) m: Procedure,
    pub(crate) e: Procedure,
    /// The victorious player receives a FOW when the other side fails an
    /// `m` check (standard 7.8).
    pub(crate) rout_gives_fow: bool,
    /// Codes and extras this variant's rules do not define: they are read as
    /// the standard rules read them, with a note.
    #[serde(default)]
    pub(crate) undefined: Vec<String>,
    pub(crate) retreat_hexes: String,
    pub(crate) rout: String,
    pub(crate) step_loss: String,
    pub(crate) advance: String,
    pub(crate) rout_advance: String,
    pub(crate) ineffective: Option<String>,
    pub(crate) df: String,
    pub(crate) leader: String,
    pub(crate) ammo: String,
}

/// How a result letter is carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Procedure {
    /// Standard Ar/Dr: disrupt the primary unit or retreat; an already
    /// disrupted unit choosing disruption checks morale and routs on a failure.
    RetreatOrDisrupt,
    /// QuickPlay Ar/Dr: retreat or be disrupted, no check.
    RetreatOrDisruptNoCheck,
    /// Standard Ac/Dc: pass, apply the secondary; fail, the side retreats.
    CheckThenRetreat,
    /// QuickPlay Ac/Dc: pass, apply the secondary; fail, an Ar/Dr.
    CheckThenR,
    /// Standard Ax/Dx: lose a step, or retreat and be disrupted (owner's choice).
    LossOrRetreatDisrupted,
    /// QuickPlay Ax/Dx: pass, a step loss (no advance); fail, retreat disrupted.
    CheckLoss,
    /// Am/Dm: pass, the secondary; fail, rout.
    CheckRout,
    /// Ae/De: pass, a step loss and the rest retreat; fail, rout.
    CheckEliminate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TacticSide {
    Attacker,
    Defender,
    Either,
}

/// One tactic the variant offers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TacticRow {
    pub(crate) keyword: String,
    pub(crate) side: TacticSide,
    pub(crate) row: String,
    /// Added to the combat factor (press forward +2, last stand +3, square).
    pub(crate) value: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BombardTable {
    pub(crate) rule: String,
    pub(crate) vs_cavalry_multiplier: i64,
    pub(crate) ignore_secondary: bool,
    /// Standard 14.2 5: no bombardment at night.
    #[serde(default)]
    pub(crate) night: Option<String>,
    /// Standard 14.3 3: at twilight only adjacent hexes.
    #[serde(default)]
    pub(crate) twilight: Option<String>,
    /// The word for a target in the next hex (8.4), with twilight's rule.
    #[serde(default)]
    pub(crate) adjacent: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CasualtyRow {
    pub(crate) keyword: String,
    pub(crate) row: String,
    /// The leader becomes a casualty on this face or higher.
    pub(crate) at_least: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MaProcedure {
    /// Standard 4.4: a die; if it exceeds the printed MA, roll again.
    RerollAbovePrinted,
    /// QuickPlay 11.1: a die, plus something for fast units, never above the printed MA.
    CapAtPrinted,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MaTable {
    pub(crate) rule: String,
    pub(crate) procedure: MaProcedure,
    pub(crate) die: DiceExpr,
    /// Words that make a unit roll for its MA.
    pub(crate) rolls_when: Vec<MaReason>,
    /// QuickPlay: add to the die when the printed MA is greater than `above`.
    pub(crate) fast: Option<FastUnits>,
    /// Standard 12.1: how the HQ moves (QuickPlay has none).
    #[serde(default)]
    pub(crate) hq: Option<String>,
    /// Standard 12.2: how the trains move, their march MA their printed.
    #[serde(default)]
    pub(crate) trains: Option<String>,
    pub(crate) march: MarchRule,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MaReason {
    pub(crate) keyword: String,
    pub(crate) row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FastUnits {
    pub(crate) above: i64,
    pub(crate) add: i64,
    pub(crate) row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MarchRule {
    pub(crate) row: String,
    /// Standard 4.7: fixed march allowances when not rolling.
    pub(crate) infantry: Option<i64>,
    pub(crate) cavalry: Option<i64>,
    /// Standard 4.7: what a rolling unit rolls instead.
    pub(crate) infantry_roll: Option<DiceExpr>,
    pub(crate) cavalry_roll: Option<DiceExpr>,
    /// QuickPlay 4.3: the MA is multiplied.
    pub(crate) multiplier: Option<i64>,
    /// Words under which march movement is not available (standard 4.7 3,
    /// 12.1, 12.4), each with the rule that forbids it.
    #[serde(default)]
    pub(crate) not_when: Vec<MaReason>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaptureTable {
    pub(crate) die: u32,
    pub(crate) row: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FowTable {
    pub(crate) die: u32,
    pub(crate) move_enemy_at_most: u32,
    pub(crate) row: String,
}

impl SaberRules {
    /// Whole-table rules serde cannot check.
    pub(crate) fn validate(&self, file: &str) -> Result<(), TableError> {
        let invalid = |key: &str, message: String| TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        let m = &self.morale;
        if m.die < 2
            || !(1..=m.die).contains(&m.always_pass)
            || !(1..=m.die).contains(&m.always_fail)
        {
            return Err(invalid(
                "morale",
                "`always_pass` and `always_fail` must be faces of the morale die".into(),
            ));
        }
        if m.always_pass >= m.always_fail {
            return Err(invalid(
                "morale",
                "`always_pass` must be below `always_fail`".into(),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for adj in &m.adjustment {
            if !seen.insert(adj.keyword.as_str()) {
                return Err(invalid(
                    "morale.adjustment",
                    format!("keyword `{}` is used by two rows", adj.keyword),
                ));
            }
        }
        if self.combat.halved_twice_counts < 0 {
            return Err(invalid(
                "combat.halved_twice_counts",
                "must be 0 or more".into(),
            ));
        }
        for t in &self.tactic {
            if tactics::Tactic::from_keyword(&t.keyword).is_none() {
                return Err(invalid(
                    "tactic",
                    format!(
                        "`{}` is not a tactic drumhead knows: {}",
                        t.keyword,
                        tactics::Tactic::ALL.map(|t| t.keyword()).join(", ")
                    ),
                ));
            }
        }
        for code in &self.results.undefined {
            if crt::Code::parse(code).is_none() && crt::Extra::parse(code).is_none() {
                return Err(invalid(
                    "results.undefined",
                    format!("`{code}` is not a result code or extra"),
                ));
            }
        }
        for row in &self.leader_casualty {
            if !(1..=6).contains(&row.at_least) {
                return Err(invalid(
                    &format!("leader_casualty ({})", row.keyword),
                    "`at_least` must be a face of a d6, 1 to 6".into(),
                ));
            }
        }
        if let Some(c) = &self.capture
            && c.die < 2
        {
            return Err(invalid("capture.die", "must be 2 or more".into()));
        }
        if let Some(f) = &self.fow
            && !(1..=f.die).contains(&f.move_enemy_at_most)
        {
            return Err(invalid(
                "fow.move_enemy_at_most",
                "must be a face of the die".into(),
            ));
        }
        if self.ma.die.dice.is_empty() {
            return Err(invalid("ma.die", "must roll at least one die".into()));
        }
        Ok(())
    }

    pub(crate) fn tactic(&self, keyword: &str) -> Option<&TacticRow> {
        self.tactic.iter().find(|t| t.keyword == keyword)
    }

    /// Whether this variant's rules leave a code or extra undefined.
    pub(crate) fn undefined(&self, code: &str) -> bool {
        self.results
            .undefined
            .iter()
            .any(|c| c.eq_ignore_ascii_case(code))
    }
}
