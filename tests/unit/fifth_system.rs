//! A fifth rule system, written here and registered beside the shipped
//! ones without touching a core file: its book, its table file, its army
//! list schema, its verb, its facts, its effects and its roster all reach
//! the user through the same contract the shipped systems use.
//!
//! "Toy skirmish" is made up for the test: a soldier strikes an opponent
//! with one d6 and wounds on the table's score or more, less his grit; two
//! wounds take a soldier out of the fight.

use std::rc::Rc;

use crate::answer::resolution::{SystemEffect, Target, Tone};
use crate::army::{Army, ArmyList, Checker, Entry, Member, Reader, Schema, Section, read_again};
use crate::bind::Vocab;
use crate::catalog::{Input, TypedVerbs, UnitFact, UnitFacts, VerbDoc, VerbShelf};
use crate::command::{Book, ClauseKind, System};
use crate::dice::DiceSource;
use crate::error::{CommandError, TableError};
use crate::game::{ArmySource, Game};
use crate::session::{Output, Session};
use crate::system::{GamePart, GameState, GameView, Live, Roster, RuleSet, RuleSystem};
use crate::tables::{TableFile, TableSource};

const TOY: System = System::new(&Book {
    id: "toy",
    title: "Toy Skirmish",
});

const FILES: &[TableFile] = &[TableFile::new("toy.toml", "wound_on = 5\n")];

struct Toy;
static TOY_SYSTEM: Toy = Toy;

#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ToyTables {
    wound_on: i64,
    /// Its verbs, each made once when first wanted (none in the tables a
    /// verb holds).
    #[serde(skip)]
    verbs: Rc<TypedVerbs<ToyEffect>>,
}

impl RuleSystem for Toy {
    fn name(&self) -> &'static str {
        "Toy Skirmish"
    }
    fn books(&self) -> &'static [System] {
        &[TOY]
    }
    fn table_files(&self) -> &'static [TableFile] {
        FILES
    }
    fn load(&'static self, source: &TableSource) -> Result<Rc<dyn RuleSet>, TableError> {
        let (_, tables): (_, ToyTables) = source.parse(&FILES[0])?;
        Ok(Rc::new(tables.with_verbs()))
    }
    fn army(&self) -> &'static dyn Schema {
        &ToySchema
    }
}

#[derive(Debug, Clone, Default)]
struct Soldier {
    id: String,
    name: String,
    grit: i64,
}

#[derive(Debug, Clone, Default)]
struct ToyList {
    soldiers: Vec<Soldier>,
}

impl ArmyList for ToyList {
    fn members(&self) -> Vec<Member<'_>> {
        self.soldiers
            .iter()
            .map(|s| Member {
                id: &s.id,
                name: &s.name,
                kind: "soldier",
            })
            .collect()
    }
}

struct ToySchema;

impl Schema for ToySchema {
    fn sections(&self, _book: System) -> &'static [Section] {
        &[Section {
            name: "soldier",
            keys: &["id", "name", "grit"],
        }]
    }
    fn reader(&self, _book: System) -> Box<dyn Reader> {
        Box::new(ToyList::default())
    }
}

impl Reader for ToyList {
    fn entry(
        &mut self,
        _section: &str,
        ck: &mut Checker,
        e: &mut Entry,
        id: Option<String>,
        name: Option<String>,
    ) {
        let grit = ck.int(e, "grit", 0, 3, "the soldier's grit").unwrap_or(0);
        if let (Some(id), Some(name)) = (id, name) {
            self.soldiers.push(Soldier { id, name, grit });
        }
    }
    fn finish(self: Box<Self>) -> Rc<dyn ArmyList> {
        Rc::new(*self)
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
enum ToyEffect {
    Wounded,
}

/// A toy resolution: its effects are the toy's own.
type Resolution = crate::answer::Resolution<ToyEffect>;

impl SystemEffect for ToyEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        format!("game: {} is wounded", unit.unwrap_or("the soldier"))
    }
}

fn strike(
    t: &ToyTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let mut res = input.resolution("strike", "a strike");
    let die = dice.roll(6)?;
    res.die("1D6", die);
    let grit = input.words.value("grit").unwrap_or(0);
    if grit > 0 {
        res.modifier("grit", grit);
    }
    let score = i64::from(die.face) + grit;
    res.set_score(score);
    if score >= t.wound_on {
        res.set_outcome("wound", "the opponent is wounded", Tone::Good);
        res.effect(Target::clause(0, 0), ToyEffect::Wounded);
    } else {
        res.set_outcome("miss", "no wound", Tone::Neutral);
    }
    Ok(res)
}

impl ToyTables {
    fn with_verbs(mut self) -> ToyTables {
        let bare = Rc::new(self.clone());
        self.verbs = Rc::new(TypedVerbs::new(&["strike"], move |_| bare.typed_verbs()));
        self
    }

    fn typed_verbs(self: &Rc<ToyTables>) -> Vec<VerbDoc<ToyEffect>> {
        let t = self.clone();
        let side = || Vocab::new().number("grit", 0, 3, "the striker's grit");
        vec![
            VerbDoc::new(
                Some(TOY),
                "strike",
                "strike [grit=N] vs …",
                "One d6 to wound.",
                side(),
                move |input: &Input, dice: &mut dyn DiceSource| strike(&t, input, dice),
            )
            .clause(ClauseKind::Vs, side(), 1),
        ]
    }
}

impl RuleSet for ToyTables {
    fn system(&self) -> &'static dyn RuleSystem {
        &TOY_SYSTEM
    }
    fn verbs(&self) -> &dyn VerbShelf {
        &*self.verbs
    }
    fn game(&self, armies: &[(usize, &Army)]) -> Box<dyn GamePart> {
        let lists = armies
            .iter()
            .map(|(i, a)| {
                let list = read_again(a, "Toy Skirmish", &ToySchema, ToyList::default());
                (*i, list.unwrap_or_default())
            })
            .collect();
        Live::part(
            &TOY_SYSTEM,
            armies,
            lists,
            ToyState::default(),
            self.verbs.clone(),
        )
    }
}

/// What a game keeps of the toy soldiers: a plain value, its checkpoint.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
struct ToyState {
    wounds: std::collections::BTreeMap<String, u32>,
}

/// The toy state read against the game's toy lists.
struct ToyView<'a>(&'a [(usize, ToyList)], &'a ToyState);

impl ToyView<'_> {
    fn soldier(&self, id: &str) -> Option<&Soldier> {
        self.0
            .iter()
            .find_map(|(_, l)| l.soldiers.iter().find(|s| s.id == id))
    }
    fn wounds(&self, id: &str) -> u32 {
        self.1.wounds.get(id).copied().unwrap_or(0)
    }
}

impl GameState for ToyState {
    type Effect = ToyEffect;
    type Context = Vec<(usize, ToyList)>;

    fn view<'a>(&'a self, armies: &'a Self::Context) -> Box<dyn GameView + 'a> {
        Box::new(ToyView(armies, self))
    }
    fn apply(
        &mut self,
        _: &Self::Context,
        unit: Option<&str>,
        effect: &ToyEffect,
    ) -> Result<(), String> {
        let ToyEffect::Wounded = effect;
        *self
            .wounds
            .entry(unit.ok_or("no soldier")?.to_string())
            .or_default() += 1;
        Ok(())
    }
    fn named(&self) -> Vec<(&'static str, &str)> {
        self.wounds
            .keys()
            .map(|id| ("soldier", id.as_str()))
            .collect()
    }
}

impl GameView for ToyView<'_> {
    fn facts(&self, id: &str) -> Option<UnitFacts> {
        let s = self.soldier(id)?;
        Some(UnitFacts {
            id: s.id.clone(),
            name: s.name.clone(),
            facts: vec![UnitFact::number("grit", s.grit)],
            out_of_action: None,
        })
    }
    fn out_of_action(&self, id: &str) -> Option<String> {
        (self.wounds(id) >= 2).then(|| "has two wounds".to_string())
    }
    fn roster(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.0.iter().find(|(i, _)| *i == army)?;
        Some(Roster {
            header: vec!["id", "grit", "wounds"],
            rows: list
                .soldiers
                .iter()
                .map(|s| {
                    vec![
                        s.id.clone(),
                        s.grit.to_string(),
                        self.wounds(&s.id).to_string(),
                    ]
                })
                .collect(),
            ..Roster::default()
        })
    }
    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        let s = self.soldier(id)?;
        Some(vec![
            ("grit".into(), s.grit.to_string()),
            ("wounds".into(), self.wounds(id).to_string()),
        ])
    }
    fn end_turn(&self) -> String {
        "end of turn (Toy Skirmish): nothing happens".into()
    }
}

const ARMY: &str = "[army]\nname = \"Blue\"\nrules = \"toy\"\nside = \"Blue\"\n\n\
    [[soldier]]\nid = \"alice\"\nname = \"Alice\"\ngrit = 1\n\n\
    [[soldier]]\nid = \"bob\"\nname = \"Bob\"\n";

fn session() -> Session {
    let registry = crate::systems::all().with(&TOY_SYSTEM);
    let tables = registry
        .load(&TableSource::embedded())
        .expect("tables load");
    let game = Game::new(
        vec![ArmySource {
            file: "blue.toml".into(),
            text: ARMY.into(),
        }],
        &tables,
    )
    .expect("the toy army loads");
    Session::new(tables, TOY, 1).with_game(game)
}

fn text(session: &mut Session, line: &str) -> String {
    match session.run_line(line) {
        Ok(Some(Output::Report(r))) => {
            crate::format::text::report_text(&r, &crate::format::Style::plain(false))
        }
        Ok(Some(Output::Resolution(r))) => format!("{} {}", r.outcome, r.notes.join("; ")),
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn a_fifth_system_resolves_keeps_its_game_and_draws_its_roster() {
    let mut s = session();
    // A game kept in memory says its effects last this session only
    // (issue 26).
    // alice's grit 1 comes with her name: 4 + 1 = 5 wounds.
    assert_eq!(
        text(&mut s, "strike alice vs bob rolled 4"),
        "wound this session only: bob is wounded"
    );
    assert_eq!(text(&mut s, "strike alice vs bob rolled 3"), "miss ");
    assert_eq!(
        text(&mut s, "toy strike alice vs bob rolled 6"),
        "wound this session only: bob is wounded"
    );
    let units = text(&mut s, "units");
    assert!(units.contains("Blue — Blue (Toy Skirmish)"), "{units}");
    assert!(units.contains("│ bob   ┆ 0    ┆ 2      │"), "{units}");
    assert!(text(&mut s, "show bob").contains("wounds ┆ 2"));
    assert_eq!(
        text(&mut s, "end-turn"),
        "end of turn (Toy Skirmish): nothing happens"
    );
    // Two wounds: bob can no longer act, until the last strike is undone.
    let err = s
        .run_line("strike bob vs alice rolled 6")
        .unwrap_err()
        .to_string();
    assert!(err.contains("has two wounds"), "{err}");
    assert!(text(&mut s, "undo").starts_with("undone"));
    assert_eq!(
        text(&mut s, "strike bob vs alice rolled 5"),
        "wound this session only: alice is wounded"
    );
}

#[test]
fn the_shipped_systems_work_beside_it() {
    let mut s = session();
    let help = text(&mut s, "help");
    assert!(help.contains("strike"), "{help}");
    assert!(
        help.contains("[drums|mayhem|saber|saber-quickplay|toy]"),
        "{help}"
    );
    // 4 + 3, "Are classed as Determined" +1, "Are not classed as Zealous" +1.
    match s.run_line("drums resilience shooting +determined rolled 4 3") {
        Ok(Some(Output::Resolution(r))) => assert_eq!(r.score, Some(9)),
        other => panic!("{other:?}"),
    }
    // A toy soldier is not a Drums unit.
    let err = s
        .run_line("drums hold alice rolled 3 3")
        .unwrap_err()
        .to_string();
    assert!(err.contains("start the line with `toy`"), "{err}");
}

#[test]
fn its_army_lists_are_checked_like_any_other() {
    let registry = crate::systems::all().with(&TOY_SYSTEM);
    let schemas = crate::game::schemas_of(&registry);
    let bad = ARMY.replace("grit = 1", "grt = 1");
    let err = crate::army::parse_army("blue.toml", &bad, &schemas).unwrap_err();
    assert_eq!(err.key, "soldier[1].grt");
    assert!(err.message.contains("did you mean `grit`"), "{err}");
    let wrong = ARMY.replace("[[soldier]]", "[[unit]]");
    let err = crate::army::parse_army("blue.toml", &wrong, &schemas).unwrap_err();
    assert!(
        err.message
            .contains("a toy list (Toy Skirmish) has no [[unit]] entries; it has [[soldier]]"),
        "{err}"
    );
}

/// Issue 38: a rule system that says nothing of campaigns (it keeps the
/// default `GameState::carry`) still plays in one: its battle is a game
/// like any other, its close carries nothing, and its lists stay as they
/// were.
#[test]
fn a_campaign_of_it_carries_nothing_by_default() {
    let registry = crate::systems::all().with(&TOY_SYSTEM);
    let tables = registry
        .load(&TableSource::embedded())
        .expect("tables load");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let army = dir.path().join("blue.toml");
    std::fs::write(&army, ARMY).expect("the list is written");
    let campaign = dir.path().join("c.toml");
    crate::campaign::begin(&campaign, &[army], &tables, false).expect("a campaign");
    crate::campaign::battle(&campaign, "first", &tables).expect("a battle");
    let game = Game::open(
        &dir.path().join("first.json"),
        Vec::new(),
        &tables,
        crate::game::Options::default(),
    )
    .expect("the battle's game");
    let mut s = Session::new(tables.clone(), TOY, 1).with_game(game);
    s.run_line("strike alice vs bob rolled 4")
        .expect("a strike");
    drop(s);
    let said =
        crate::campaign::close(&campaign, "first", &[], None, false, &tables).expect("closed");
    assert!(
        said.contains("nothing: every list stays as it was"),
        "{said}"
    );
    let replayed = crate::campaign::replay(&campaign, &tables).expect("replayed");
    assert!(replayed.contains("the armies equal"), "{replayed}");
    crate::campaign::battle(&campaign, "second", &tables).expect("a second battle");
}

/// Issue 37: a system's state is a plain value, and the game file keeps
/// it as the system's checkpoint without the system writing one: a toy
/// game reopened starts from it, and a checkpoint naming a soldier no
/// list has is refused by the core's own check.
#[test]
fn its_state_is_checkpointed_and_checked_by_the_core() {
    let registry = crate::systems::all().with(&TOY_SYSTEM);
    let tables = registry
        .load(&TableSource::embedded())
        .expect("tables load");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("toy.json");
    let army = || ArmySource {
        file: "blue.toml".into(),
        text: ARMY.into(),
    };
    let open = || {
        Game::open(
            &path,
            vec![army()],
            &tables,
            crate::game::Options::default(),
        )
        .expect("the toy game")
    };
    let mut s = Session::new(tables.clone(), TOY, 1).with_game(open());
    text(&mut s, "strike alice vs bob rolled 4");
    drop(s);
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the game file"))
            .expect("JSON");
    assert_eq!(
        file["checkpoint"]["toy"],
        serde_json::json!({ "wounds": { "bob": 1 } })
    );
    assert_eq!(file["state"]["toy"], file["checkpoint"]["toy"]);
    let mut s = Session::new(tables.clone(), TOY, 1).with_game(open());
    assert!(text(&mut s, "show bob").contains("wounds ┆ 1"));
    drop(s);
    // The part as a game of the toy army makes it.
    let game = Game::new(vec![army()], &tables).expect("the toy army loads");
    let armies: Vec<(usize, &Army)> = game.armies.iter().enumerate().collect();
    let set = tables.set(TOY).expect("the toy rule set");
    let mut part = set.game(&armies);
    let err = part
        .restore(&serde_json::json!({ "wounds": { "carol": 1 } }))
        .unwrap_err();
    assert_eq!(
        err,
        "the Toy Skirmish checkpoint names soldier `carol` that no army of this game has"
    );
    part.restore(&serde_json::json!({ "wounds": { "alice": 2 } }))
        .expect("alice is a soldier of the list");
    assert_eq!(
        part.view().out_of_action("alice").as_deref(),
        Some("has two wounds")
    );
}
