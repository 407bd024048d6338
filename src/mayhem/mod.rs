//! Musket Mayhem skirmish rules (individual figures, inches): the table
//! shapes, the hero tokens every procedure shares, and the verbs. One file
//! per procedure; the numbers live in `tables/mayhem.toml`.

pub(crate) mod army;
mod courage;
mod fight;
mod fire;
pub(crate) mod game;
mod misc;
mod movement;
mod reload;
mod sequence;
mod sheet;
mod tables;

use std::rc::Rc;

use crate::army::{Army, Schema};
use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, TypedVerbs, VerbShelf};
use crate::command::{Book, Span, System};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, DiceError, ErrorKind, TableError};

use crate::system::{GamePart, Live, RuleSet, RuleSystem};
use crate::tables::{TableFile, TableSource};

pub(crate) use tables::{
    Cause, CheckRow, CourageTable, Cover, Downed, HeroTable, Labelled, MayhemTables, MoveRow, Rank,
    ReloadTable, Weapon,
};

/// A resolution of this system: its effects are [`game::MayhemEffect`].
pub type Resolution = crate::answer::Resolution<game::MayhemEffect>;
/// A verb of this system, resolving to its own effects.
pub type VerbDoc = crate::catalog::VerbDoc<game::MayhemEffect>;

/// Every die of Musket Mayhem ("roll one die", "a d6 roll") is a d6.
pub(crate) const D6: u32 = 6;

/// A hero's tokens, as given on one side of a command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Tokens {
    pub(crate) saves: i64,
    pub(crate) rerolls: i64,
    pub(crate) saves_spent: i64,
    pub(crate) rerolls_spent: i64,
}

impl Tokens {
    pub(crate) fn from_bound(words: &Bound) -> Tokens {
        Tokens {
            saves: words.value("saves").unwrap_or(0),
            rerolls: words.value("rerolls").unwrap_or(0),
            ..Tokens::default()
        }
    }

    pub(crate) fn saves_left(&self) -> i64 {
        self.saves - self.saves_spent
    }

    pub(crate) fn rerolls_left(&self) -> i64 {
        self.rerolls - self.rerolls_spent
    }

    /// Spend a save token if one is left.
    pub(crate) fn spend_save(&mut self) -> bool {
        if self.saves_left() > 0 {
            self.saves_spent += 1;
            true
        } else {
            false
        }
    }

    /// Spend a reroll token if one is left.
    pub(crate) fn spend_reroll(&mut self) -> bool {
        if self.rerolls_left() > 0 {
            self.rerolls_spent += 1;
            true
        } else {
            false
        }
    }

    /// JSON for the tokens: given, spent and left.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "saves": self.saves,
            "saves_spent": self.saves_spent,
            "saves_left": self.saves - self.saves_spent,
            "rerolls": self.rerolls,
            "rerolls_spent": self.rerolls_spent,
            "rerolls_left": self.rerolls - self.rerolls_spent,
        })
    }

    /// The reroll tokens only: a verb whose failure no save token
    /// cancels (a skill, a search) says nothing of saves it cannot read.
    pub(crate) fn rerolls_json(&self) -> serde_json::Value {
        serde_json::json!({
            "rerolls": self.rerolls,
            "rerolls_spent": self.rerolls_spent,
            "rerolls_left": self.rerolls - self.rerolls_spent,
        })
    }

    pub(crate) fn any(&self) -> bool {
        self.saves > 0 || self.rerolls > 0
    }

    /// The tokens spent, as effects on the figure that carried them.
    pub(crate) fn spent(&self, res: &mut Resolution, on: crate::answer::resolution::Target) {
        for _ in 0..self.saves_spent {
            res.effect(on, game::MayhemEffect::SaveSpent);
        }
        for _ in 0..self.rerolls_spent {
            res.effect(on, game::MayhemEffect::RerollSpent);
        }
    }
}

/// Most tokens a figure may carry on a line.
pub(crate) const MAX_TOKENS: i64 = 9;

/// The hero token words, for a side that may carry them.
pub(crate) fn token_words(vocab: Vocab, heroes: &HeroTable, reroll_use: &str) -> Vocab {
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
pub(crate) fn named_figures(input: &Input, clause: Option<usize>) -> Vec<(Span, String)> {
    input
        .named_on(clause)
        .map(|n| (n.span, n.facts.id.clone()))
        .collect()
}

/// A figure named twice on one line: it would roll twice, or against
/// itself, and take two results.
pub(crate) fn named_once(input: &Input) -> Result<(), CommandError> {
    for (i, later) in input.named.iter().enumerate() {
        if input.named[..i]
            .iter()
            .any(|n| n.facts.id == later.facts.id)
        {
            return Err(BindError::NotHere {
                kind: ErrorKind::RepeatedWord,
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
pub(crate) fn one_figure(
    named: &[(Span, String)],
    side: &str,
    instead: &str,
) -> Result<(), CommandError> {
    match named {
        [_, (span, id), ..] => Err(BindError::NotHere {
            kind: ErrorKind::ExtraWord,
            span: *span,
            text: id.clone(),
            why: format!("is a second figure on {side}; {instead}"),
        }
        .into()),
        _ => Ok(()),
    }
}

/// "5+" for a score needed on a die.
pub(crate) fn needs(n: i64) -> String {
    format!("{n}+")
}

/// The rule book.
pub const MAYHEM: System = System::new(&Book {
    id: "mayhem",
    title: "Musket Mayhem",
});

const FILES: &[TableFile] = &[
    TableFile::new("mayhem.toml", include_str!("../../tables/mayhem.toml")),
    TableFile::shared(
        crate::carry::CAMPAIGN_FILE,
        include_str!("../../tables/campaign.toml"),
        &[game::CAMPAIGN_SECTION],
    ),
];

/// Musket Mayhem, as the registry knows it.
pub(crate) struct Mayhem;

/// The system, for the registry.
pub(crate) static SYSTEM: Mayhem = Mayhem;

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
    pub(crate) fn load(source: &TableSource) -> Result<MayhemTables, TableError> {
        let (_, mut tables) = source.parse_checked(&FILES[0], MayhemTables::validate)?;
        (_, tables.campaign) = crate::carry::load(source, &FILES[1], game::CAMPAIGN_SECTION)?;
        Ok(tables.with_verbs())
    }
}

/// Each verb's name and how it is made, in the order help lists them.
type MakeVerb = fn(&Rc<MayhemTables>) -> VerbDoc;
const VERBS: &[(&str, MakeVerb)] = &[
    ("move", movement::verb),
    ("fire", fire::verb),
    ("courage", courage::verb),
    ("fight", fight::verb),
    ("reload", reload::verb),
    ("climb", misc::climb_verb),
    ("ignite", misc::ignite_verb),
    ("skill", misc::skill_verb),
    ("search", misc::search_verb),
    ("post-battle", misc::post_battle_verb),
    ("initiative", sequence::initiative_verb),
    ("activation", sequence::activation_verb),
];

impl MayhemTables {
    /// The tables with their verbs to be made, each when first wanted. A
    /// verb holds the tables it was made of, without the verbs.
    fn with_verbs(mut self) -> MayhemTables {
        self.verbs = Rc::default();
        let bare = Rc::new(self.clone());
        let names: Vec<&'static str> = VERBS.iter().map(|(name, _)| *name).collect();
        self.verbs = Rc::new(TypedVerbs::new(&names, move |name| {
            VERBS
                .iter()
                .filter(|(n, _)| name.is_none_or(|name| name == *n))
                .map(|(_, make)| {
                    make(&bare)
                        .with_aliases(&bare.aliases)
                        .with_override(OVERRIDE_HELP)
                })
                .collect()
        }));
        self
    }
}

impl RuleSet for MayhemTables {
    fn system(&self) -> &'static dyn RuleSystem {
        &SYSTEM
    }

    fn verbs(&self) -> &dyn VerbShelf {
        &*self.verbs
    }

    fn game(&self, armies: &[(usize, &Army)]) -> Box<dyn GamePart> {
        let context = game::MayhemContext::new(Rc::new(self.clone()), armies);
        Live::part(
            &SYSTEM,
            armies,
            context,
            game::MayhemState::default(),
            self.verbs.clone(),
        )
    }
}

/// What `override` does in Musket Mayhem, for `help`.
const OVERRIDE_HELP: &str = "the typed words of this side win over what a named figure's list makes it (mounted, a leader, a hero, its weapon and armament) and what the game holds of it (its small arm loaded or not): without it, a typed word that contradicts them is refused; where no game is kept (no --game FILE), what the game would hold stands as stated";

/// The dice a procedure throws, counted ([`Repeats::Each`]), so that
/// entered dice it did not need can be given back as unused
/// ([`Counted::unused`]).
pub(crate) use crate::dice::{Counted, Repeats};

impl Counted<'_> {
    /// "Where a rule throws a die only if an earlier one allows": the
    /// procedure could have thrown `most` dice and threw fewer. Entered
    /// dice up to `most` are taken and named in a note (and the JSON's
    /// `unused_dice`) as not needed, with `why`; any beyond are left for
    /// the session to refuse. Nothing happens under `odds` or with rolled
    /// dice.
    pub(crate) fn unused(
        &mut self,
        input: &Input,
        res: &mut Resolution,
        most: usize,
        why: impl FnOnce() -> String,
    ) -> Result<(), CommandError> {
        let Some(left) = most.checked_sub(self.thrown()).filter(|n| *n > 0) else {
            return Ok(());
        };
        let faces = self.unneeded(u32::try_from(left).unwrap_or(u32::MAX));
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
                    .get(self.thrown().saturating_add(i))
                    .map_or_else(|| input.command.rolled_span.unwrap_or_default(), |d| d.span);
                return Err(DiceError::FaceOutOfRange {
                    span,
                    face,
                    sides: D6,
                }
                .into());
            }
        }
        res.unused_dice(&faces, why(), None);
        Ok(())
    }
}

/// A fact that forbids what the line asks, refused at whoever said it:
/// the figure that brought it ("`percy` moved this turn"), or the word
/// typed ("`moved` says the figure moved this turn").
pub(crate) fn fact_refused(input: &Input, word: &str, why: impl std::fmt::Display) -> CommandError {
    let words = &input.words;
    let brought = input
        .named_on(None)
        .find(|n| n.facts.facts.iter().any(|f| f.word == word))
        .filter(|_| words.implied(word));
    match brought {
        Some(n) => BindError::NotHere {
            kind: ErrorKind::NotNow,
            span: n.span,
            text: n.facts.id.clone(),
            why: why.to_string(),
        },
        None => BindError::NotHere {
            kind: ErrorKind::NotNow,
            span: words.span_of(word).unwrap_or_default(),
            text: word.to_string(),
            why: format!("says the figure {why}"),
        },
    }
    .into()
}

/// The fact word of a figure carrying incendiary materials.
pub(crate) const INCENDIARY: &str = "incendiary";
/// The fact word of the commander of a contingent.
pub(crate) const COMMANDER: &str = "commander";

/// "Figures carrying incendiary materials must be marked, and may not
/// shoot or charge": the refusal, at the word or figure that says so.
pub(crate) fn incendiary_refused(
    tables: &MayhemTables,
    span: Span,
    who: Option<&str>,
    doing: &str,
) -> CommandError {
    let who = who.map_or_else(|| "the figure".to_string(), |id| format!("`{id}`"));
    BindError::NotHere {
        kind: ErrorKind::NotApplicable,
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
pub(crate) fn leader_killed_note(
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
