//! Checkpoints of each rule system's part of a game: after every line of a
//! scripted evening, the part's `checkpoint()` is written out as the game
//! file would keep it, read back, and restored into a fresh part of the
//! same armies. The two must say the same of everything (the state, every
//! unit's `show`, facts and fate, each army's roster, the end of the turn,
//! what a new turn clears, how a line is expanded), and must stay the same
//! when the next line's effects, or a new turn, fall on both. A checkpoint
//! that names what the armies do not have, or that cannot be read, is
//! refused without a panic.
//!
//! The parts are built the way a game builds them (`set.game(&armies)` of
//! the armies of the system's books) and folded from the game's own
//! journal entries, effect by effect, as the game folds them; the fold is
//! checked against the game's own state after each line.

use std::path::Path;

use crate::army::Army;
use crate::command::System;
use crate::game::{ArmySource, Entry, Game};
use crate::session::Session;
use crate::system::{GamePart, RuleSet, Tables};
use serde_json::{Value, json};

fn tables() -> Tables {
    crate::systems::embedded().expect("the embedded tables load")
}

/// A shipped army list, by file name under `armies/`.
fn shipped(file: &str) -> ArmySource {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("armies")
        .join(file);
    ArmySource {
        file: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("a shipped army list"),
    }
}

/// An army list written here.
fn inline(file: &str, text: &str) -> ArmySource {
    ArmySource {
        file: file.into(),
        text: text.into(),
    }
}

/// The game's armies of a rule set's system, each with its index in the
/// game, as the game hands them to `set.game`.
fn mine<'a>(set: &dyn RuleSet, armies: &'a [Army]) -> Vec<(usize, &'a Army)> {
    armies
        .iter()
        .enumerate()
        .filter(|(_, a)| set.system().books().contains(&a.rules))
        .collect()
}

/// One rule system's part of a game, played beside the game itself.
struct Bench {
    set: std::rc::Rc<dyn RuleSet>,
    /// The key of the part's state in the game's state.
    key: &'static str,
    armies: Vec<Army>,
    /// Every id of the system's armies, and two of none.
    ids: Vec<String>,
    /// Every army index of the game, and one past them.
    army_indices: Vec<usize>,
    /// Lines whose expansion is compared.
    probes: Vec<String>,
}

impl Bench {
    fn new(tables: &Tables, book: System, game: &Game, probes: &[&str]) -> Bench {
        let set = tables.set(book).expect("the book's rule set").clone();
        let key = set.system().books()[0].id();
        let armies = game.armies.clone();
        let mut ids: Vec<String> = mine(set.as_ref(), &armies)
            .iter()
            .flat_map(|(_, a)| a.ids().into_iter().map(|(id, _)| id))
            .collect();
        assert!(ids.len() > 3, "{ids:?}");
        ids.extend(["nobody".to_string(), String::new()]);
        Bench {
            set,
            key,
            army_indices: (0..=armies.len()).collect(),
            armies,
            ids,
            probes: probes.iter().map(|p| p.to_string()).collect(),
        }
    }

    /// The part as the game starts.
    fn fresh(&self) -> Box<dyn GamePart> {
        self.set.game(&mine(self.set.as_ref(), &self.armies))
    }

    /// Fold one journal entry into a part, as the game does.
    fn apply(&self, part: &mut dyn GamePart, entry: &Entry) {
        crate::game::fold_entry(part, self.set.system().books(), entry)
            .unwrap_or_else(|e| panic!("{entry:?}: {e}"));
    }

    /// The part's checkpoint, through the text of a game file, restored
    /// into a fresh part.
    fn restored(&self, part: &dyn GamePart, context: &str) -> Box<dyn GamePart> {
        let saved = part
            .checkpoint()
            .unwrap_or_else(|| panic!("{context}: no checkpoint"));
        let text = serde_json::to_string(&saved).unwrap();
        let read: Value = serde_json::from_str(&text).unwrap();
        let mut fresh = self.fresh();
        fresh
            .restore(&read)
            .unwrap_or_else(|e| panic!("{context}: the checkpoint {saved} is refused: {e}"));
        assert_eq!(
            fresh.checkpoint(),
            Some(saved),
            "{context}: the restored part's checkpoint"
        );
        fresh
    }

    /// Everything the two parts say is the same.
    fn assert_same(&self, a: &dyn GamePart, b: &dyn GamePart, session: &Session, context: &str) {
        assert_eq!(a.state(), b.state(), "{context}: state");
        assert_eq!(
            a.state().to_string(),
            b.state().to_string(),
            "{context}: state, byte for byte"
        );
        assert_eq!(a.checkpoint(), b.checkpoint(), "{context}: checkpoint");
        assert_eq!(
            a.view().end_turn(),
            b.view().end_turn(),
            "{context}: end-turn"
        );
        assert_eq!(
            a.view().next_turn_text(),
            b.view().next_turn_text(),
            "{context}: next-turn"
        );
        for id in &self.ids {
            assert_eq!(a.view().show(id), b.view().show(id), "{context}: show {id}");
            assert_eq!(
                a.view().facts(id),
                b.view().facts(id),
                "{context}: facts of {id}"
            );
            assert_eq!(
                a.view().out_of_action(id),
                b.view().out_of_action(id),
                "{context}: out of action {id}"
            );
            assert_eq!(
                a.view().possible_facts(id),
                b.view().possible_facts(id),
                "{context}: possible facts of {id}"
            );
        }
        for &i in &self.army_indices {
            let roster = |p: &dyn GamePart| {
                p.view()
                    .roster(i)
                    .map(|r| (r.header.clone(), r.rows.clone(), r.notes.clone()))
            };
            assert_eq!(roster(a), roster(b), "{context}: roster of army {i}");
        }
        for probe in &self.probes {
            let Ok(Some(command)) = session.parse(probe) else {
                panic!("{context}: `{probe}` does not parse");
            };
            assert_eq!(
                a.view().expand(&command, probe),
                b.view().expand(&command, probe),
                "{context}: `{probe}` expanded"
            );
        }
    }
}

/// What an evening left: the game's state, and every kind of effect its
/// journal holds.
struct Evening {
    state: Value,
    effects: Vec<String>,
}

/// Play the script in a game of these armies. After every line, the
/// part folded from the journal agrees with the game; its checkpoint
/// restored agrees with it; the part restored after the line before,
/// given this line's effects, agrees with it too; and so does each after
/// a new turn.
fn play(book: System, sources: Vec<ArmySource>, script: &str, probes: &[&str]) -> Evening {
    let tables = tables();
    let game = Game::new(sources, &tables).expect("the armies load");
    let bench = Bench::new(&tables, book, &game, probes);
    let mut session = Session::new(tables.clone(), book, 1).with_game(game);
    let mut part = bench.fresh();
    let mut folded: Vec<Entry> = Vec::new();
    // Restored from the checkpoint of the line before.
    let mut restored = bench.restored(part.as_ref(), "the start");
    bench.assert_same(part.as_ref(), restored.as_ref(), &session, "the start");
    let mut lines = 0;
    for (n, line) in script.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        lines += 1;
        let context = format!("line {} `{line}`", n + 1);
        if let Err(e) = session.run_line(line) {
            panic!("{context}: {}", e.render(line, None));
        }
        let game = session.game.as_ref().expect("the game");
        let live: Vec<Entry> = game.live_entries().expect("the journal reads");
        if live.starts_with(&folded) {
            for entry in &live[folded.len()..] {
                bench.apply(part.as_mut(), entry);
                bench.apply(restored.as_mut(), entry);
            }
            bench.assert_same(
                part.as_ref(),
                restored.as_ref(),
                &session,
                &format!("{context}, applied to the part restored before it"),
            );
        } else {
            // `undo`: the game goes back; so does the fold, from the start.
            part = bench.fresh();
            for entry in &live {
                bench.apply(part.as_mut(), entry);
            }
        }
        folded = live;
        assert_eq!(
            part.state(),
            game.state()[bench.key],
            "{context}: the fold of the journal agrees with the game"
        );
        restored = bench.restored(part.as_ref(), &context);
        bench.assert_same(part.as_ref(), restored.as_ref(), &session, &context);
        // And a new turn falls the same on both.
        let (mut a, mut b) = (part.snapshot(), restored.snapshot());
        a.next_turn();
        b.next_turn();
        bench.assert_same(
            a.as_ref(),
            b.as_ref(),
            &session,
            &format!("{context}, then a new turn"),
        );
    }
    assert!(lines > 5, "{lines} lines");
    let game = session.game.as_ref().expect("the game");
    let mut effects: Vec<String> = game
        .live_entries()
        .expect("the journal reads")
        .iter()
        .filter(|e| {
            e.system
                .as_deref()
                .is_some_and(|b| bench.set.system().books().iter().any(|x| x.id() == b))
        })
        .flat_map(|e| e.effects.iter())
        .filter_map(|e| e["effect"].as_str().map(str::to_string))
        .collect();
    effects.sort();
    effects.dedup();
    Evening {
        state: game.state(),
        effects,
    }
}

/// Each of these kinds of effect is in the evening's journal.
fn assert_touches(evening: &Evening, kinds: &[&str]) {
    for kind in kinds {
        assert!(
            evening.effects.iter().any(|e| e == kind),
            "no `{kind}` effect in {:?}",
            evening.effects
        );
    }
}

/// A fresh part of the system of `book` for these armies.
fn fresh_part(
    book: System,
    sources: Vec<ArmySource>,
    probes: &[&str],
) -> (Bench, Box<dyn GamePart>) {
    let tables = tables();
    let game = Game::new(sources, &tables).expect("the armies load");
    let bench = Bench::new(&tables, book, &game, probes);
    let part = bench.fresh();
    (bench, part)
}

/// Each checkpoint is refused with an error containing its word, and
/// leaves the part as it was.
fn assert_refused(part: &mut dyn GamePart, hostile: &[(Value, &str)]) {
    let before = (part.state(), part.checkpoint());
    for (saved, word) in hostile {
        match part.restore(saved) {
            Ok(()) => panic!("{saved} was taken"),
            Err(e) => assert!(e.contains(word), "{saved}: `{e}` does not say `{word}`"),
        }
        assert_eq!((part.state(), part.checkpoint()), before, "{saved}");
    }
}

/// Checkpoints that are not objects, or not of the part's shape.
fn malformed() -> Vec<(Value, &'static str)> {
    vec![
        (Value::Null, "cannot be read"),
        (json!(7), "cannot be read"),
        (json!("units"), "cannot be read"),
        (json!([1, 2, 3]), "cannot be read"),
        (json!(vec![0; 100_000]), "cannot be read"),
        (json!({}), "cannot be read"),
        // Serde would read a struct from an array of its fields.
        (json!([null, {}, {}]), "cannot be read"),
        (json!([{}, {}]), "cannot be read"),
        (json!([{}, null, null, 0]), "cannot be read"),
    ]
}

// ---- Drums and Muskets

/// Leuthen: every kind of Drums effect — hits, inflicted, shot, fired at,
/// melee, charged, moved (a unit and a general), retired, broken, a
/// general incapacitated and one swept away, the initiative — over three
/// turns, with an `undo` and the force commander lost.
const DRUMS: &str = "\
initiative rolled 3 3 3 3 3 3 3 6 6 6 6
move gren-1 rolled 3
move gren-2 rolled 4
move zieten
shoot 20BW brummer at aus-1 rolled 5 6 5 2 1
shoot 20BW aus-8 at gren-1 rolled 5 5 1
shoot 10BW aus-9 at gren-2 rolled 6 2 2
charge gren-1 rolled 2
hold zieten-hussars rolled 3 3
melee gren-1 ranks=4 vs aus-1 ranks=2 rolled 4 4 4 4 1 1 1 1 1 1 1 4 4 1 1 1 1 1
resilience aus-1 melee lost-round rolled 5 4
resilience gren-1 melee won-round rolled 3 3
shoot 2BW aus-5 at gren-2 rolled 4 4 4 1 1 1
charge aus-12 rolled 2 3
melee aus-12 vs jaeger rolled 4 4 4 4 4 1 1 1 4 1
resilience jaeger melee lost-round rolled 2 1
risk broke moritz rolled 5 2 2 2
resilience aus-12 melee won-round rolled 3 4
shoot 1BW zieten-hussars at aus-12 rolled 4 4 4 4 1 1 1
risk shot nadasdy rolled 6
resilience aus-12 shooting rolled 3 2
end-turn
next-turn
initiative rolled 6 6 6 6 6 6 6 1 1 1 1
shoot 20BW brummer at aus-1 rolled 5 5 5
shoot 2BW gren-3 at aus-1 rolled 4 4 4 4 4 4 4 1
risk shot nadasdy rolled 2
charge cuir-10 rolled 3 4
melee cuir-10 heavy-first vs aus-11 rolled 4 4 4 4 4 4 1 1 1 4 4 1 1 1 1 1
resilience aus-11 melee lost-round rolled 4 3
resilience cuir-10 melee won-round rolled 2 2
move aus-7 road rolled 2 2 3
shoot 6BW aus-7 at garde-3 rolled 6 1 1
hits 4 garde-3
hits 40 aus-6
end-turn
resilience aus-1 rolled 3 3
next-turn
initiative rolled 1 1 1 1 1 1 1 6 6 6 6
risk shot charles rolled 6
hold garde-3 rolled 2 2
charge garde-3 rolled 5
melee garde-3 vs aus-4 rolled 4 4 4 1 1 1 1 1 1 1 1 4 4 1 1 1 1 1 1 1
resilience aus-4 melee lost-round rolled 1 1
hits 6 aus-2
undo
resilience garde-3 melee won-round rolled 5 5
units
end-turn
";

#[test]
fn drums_checkpoints_restore_after_every_line() {
    let evening = play(
        crate::drums::DRUMS,
        vec![
            shipped("leuthen-1757-prussian.toml"),
            shipped("leuthen-1757-austrian.toml"),
        ],
        DRUMS,
        &[
            "initiative",
            "initiative supply vs supply",
            "initiative supply vs supply rolled 1 2 3",
        ],
    );
    assert_touches(
        &evening,
        &[
            "hits",
            "inflicted",
            "shot",
            "fired-at",
            "melee",
            "charged",
            "moved",
            "retired",
            "broken",
            "incapacitated",
            "swept-away",
            "initiative",
        ],
    );
    let drums = &evening.state["drums"];
    assert_eq!(drums["initiative"], 1);
    assert_eq!(drums["generals"]["charles"]["incapacitated"], true);
    assert_eq!(drums["units"]["aus-6"]["hits"], 40);
}

/// Numbers no list or effect is short of: any the effects can give is
/// taken back exactly, and nothing the part says of it panics.
#[test]
fn drums_checkpoints_keep_extreme_numbers() {
    let session = Session::new(tables(), crate::drums::DRUMS, 1);
    let (bench, mut part) = fresh_part(
        crate::drums::DRUMS,
        vec![
            shipped("leuthen-1757-prussian.toml"),
            shipped("leuthen-1757-austrian.toml"),
        ],
        &["initiative", "initiative supply vs supply"],
    );
    let unit = |hits: i64, n: u32| {
        json!({
            "hits": hits, "shots": n, "melees": n, "charges": n, "broken": false,
            "moved": true, "hit": true, "inflicted": false, "retired": true, "fired_at": true,
        })
    };
    for (initiative, hits, n) in [
        (json!(usize::MAX), i64::MAX, u32::MAX),
        (json!(2), i64::MIN, 0),
        (Value::Null, -1, 1),
    ] {
        let saved = json!({
            "initiative": initiative,
            "units": {
                "gren-1": unit(hits, n),
                "gren-2": unit(-hits.saturating_abs(), n),
                // Half its bases lost: the end-of-turn tests name the sides.
                "aus-1": unit(18, n),
            },
            "generals": { "frederick": { "incapacitated": true, "swept_away": true, "moved": true } },
        });
        part.restore(&saved).unwrap();
        assert_eq!(part.checkpoint(), Some(saved.clone()));
        let restored = bench.restored(part.as_ref(), "extreme");
        bench.assert_same(part.as_ref(), restored.as_ref(), &session, "extreme");
        part.next_turn();
        assert!(part.state().is_object());
    }
}

#[test]
fn drums_refuses_a_hostile_checkpoint() {
    let (_, mut part) = fresh_part(
        crate::drums::DRUMS,
        vec![
            shipped("leuthen-1757-prussian.toml"),
            shipped("leuthen-1757-austrian.toml"),
        ],
        &[],
    );
    let unit = json!({
        "hits": 3, "shots": 1, "melees": 0, "charges": 0, "broken": false,
        "moved": false, "hit": true, "inflicted": false, "retired": false, "fired_at": true,
    });
    let general = json!({ "incapacitated": true, "swept_away": false, "moved": false });
    let with = |units: Value, generals: Value, initiative: Value| json!({ "initiative": initiative, "units": units, "generals": generals });
    let changed = |key: &str, value: Value| {
        let mut u = unit.clone();
        u[key] = value;
        with(json!({ "gren-1": u }), json!({}), Value::Null)
    };
    part.restore(&with(
        json!({ "gren-1": unit }),
        json!({ "moritz": general }),
        json!(0),
    ))
    .unwrap();
    let mut hostile = malformed();
    hostile.extend([
        (
            with(json!({ "nobody": unit }), json!({}), Value::Null),
            "names unit `nobody` that no army of this game has",
        ),
        (
            with(json!({}), json!({ "nobody": general }), Value::Null),
            "names general `nobody`",
        ),
        // A general kept as a unit, a unit as a general.
        (
            with(json!({ "frederick": unit }), json!({}), Value::Null),
            "names unit `frederick`",
        ),
        (
            with(json!({}), json!({ "gren-1": general }), Value::Null),
            "names general `gren-1`",
        ),
        (with(json!({}), json!({}), json!(-1)), "cannot be read"),
        (with(json!({}), json!({}), json!("a")), "cannot be read"),
        (with(json!({}), json!({}), json!(1.5)), "cannot be read"),
        (with(json!({}), json!({}), json!(1e300)), "cannot be read"),
        (with(json!([]), json!({}), Value::Null), "cannot be read"),
        (
            with(json!({}), json!(vec![1; 10_000]), Value::Null),
            "cannot be read",
        ),
        (changed("hits", json!("many")), "cannot be read"),
        (
            changed("hits", json!(9_223_372_036_854_775_808u64)),
            "cannot be read",
        ),
        (changed("hits", json!(0.5)), "cannot be read"),
        (changed("shots", json!(-1)), "cannot be read"),
        (changed("shots", json!(4_294_967_296u64)), "cannot be read"),
        (changed("melees", json!(1e20)), "cannot be read"),
        (changed("broken", json!("yes")), "cannot be read"),
        (changed("broken", json!(1)), "cannot be read"),
        (changed("moved", Value::Null), "cannot be read"),
        (changed("carried", json!(1)), "cannot be read"),
        (
            json!({ "initiative": null, "units": {}, "generals": {}, "roster": {} }),
            "cannot be read",
        ),
        (json!({ "initiative": null, "units": {} }), "cannot be read"),
    ]);
    // A unit's state without one of its fields.
    let mut short = unit.clone();
    short.as_object_mut().unwrap().remove("fired_at");
    hostile.push((
        with(json!({ "gren-1": short }), json!({}), Value::Null),
        "cannot be read",
    ));
    assert_refused(part.as_mut(), &hostile);
}

// ---- Musket Mayhem

/// The raid on the farm: figures killed and run off, save tokens spent,
/// guns' smoke puffs and their crews, weapons unloaded and reloaded,
/// moves, a bow's shot, a charge order failed, the sequences of two turns (the second repeating the first),
/// and the dice for the downed after the battle.
const MAYHEM: &str = r#"
initiative rolled 5 2
move war-chief group rolled 3 4
fire hawkeye 30" at war-chief rolled 4 5
courage warrior-1 warrior-2 warrior-3 warrior-4 cause=leader-killed rolled 3
fire warrior-1 20" soft at settler-1 rolled 5
fire warrior-2 10" at settler-1 rolled 4 6
courage van-alstyne settler-2 swivel cause=casualty rolled 2
fire warrior-3 20" at settler-2 rolled 1
fire swivel 12" figures=4 at warrior-1 warrior-2 warrior-3 rolled 4 1 5 2 3 4
courage warrior-1 cause=fire rolled 5 2 3 4
fight uncas vs warrior-4 rolled 2 5 4
courage uncas cause=charged rolled 5
fight langy vs settler-3 rolled 3 3 5
fight marine-1 vs settler-4 vs mrs-van-alstyne rolled 2 4 6
end-turn
next-turn
initiative rolled 3 3
reload hawkeye
move uncas individual rolled 2 3 4
fire hawkeye 20" at langy rolled 6 6
courage langy cause=fire rolled 4
fire langy 10" at hawkeye rolled 4 6
courage hawkeye cause=fire rolled 6
fire marine-2 10" at hawkeye rolled 5 5
fight settler-2 vs marine-3 rolled 6 1 5
courage marine-2 cause=casualty rolled 6 4
reload swivel settler-2 van-alstyne
fire settler-2 10" at warrior-2 rolled 5 6
courage mrs-van-alstyne child cause=charged rolled 3 3 1 2 2
fight uncas vs militia-2 rolled 4 4 2
courage militia-1 cause=charge-ordered rolled 6
fire van-alstyne 5" hard at militia-1 rolled 6 5
post-battle hawkeye rolled 3
post-battle settler-1 rolled 6
end-turn
next-turn
"#;

#[test]
fn mayhem_checkpoints_restore_after_every_line() {
    let evening = play(
        crate::mayhem::MAYHEM,
        vec![
            shipped("fiw-raid-colonial.toml"),
            shipped("fiw-raid-french.toml"),
        ],
        MAYHEM,
        &["initiative", "initiative rolled 4 4", "activation"],
    );
    assert_touches(
        &evening,
        &[
            "killed",
            "ran-off",
            "save-spent",
            "after-battle",
            "unloaded",
            "smoke",
            "reloaded",
            "smoke-cleared",
            "moved",
            "shot",
            "stood-still",
            "sequence",
        ],
    );
    assert_eq!(
        evening.state["mayhem"]["previous_sequence"],
        json!(["side a", "side b"])
    );
}

/// Three sides: a turn begun before any sequence was drawn (no longer the
/// first turn), the cards of activation, and a hero's reroll token.
const MAYHEM_THREE: &str = "
next-turn
activation rolled 3 1
courage percy cause=fire rolled 6 1
courage ffoulkes cause=fire rolled 6 6 2 3
move dewhurst individual rolled 2 3 4 roll-rest
end-turn
next-turn
activation rolled 1 1
fire dewhurst 5\" at hawkeye rolled 6 6
next-turn
";

#[test]
fn mayhem_checkpoints_of_three_sides_restore_after_every_line() {
    let evening = play(
        crate::mayhem::MAYHEM,
        vec![
            shipped("fiw-raid-colonial.toml"),
            shipped("fiw-raid-french.toml"),
            shipped("pimpernel-league.toml"),
        ],
        MAYHEM_THREE,
        &["initiative", "initiative rolled 4 4", "activation"],
    );
    assert_touches(&evening, &["reroll-spent", "sequence", "moved"]);
}

#[test]
fn mayhem_checkpoints_keep_extreme_numbers() {
    let (bench, mut part) = fresh_part(
        crate::mayhem::MAYHEM,
        vec![
            shipped("fiw-raid-colonial.toml"),
            shipped("fiw-raid-french.toml"),
        ],
        &["initiative", "activation"],
    );
    let session = Session::new(tables(), crate::mayhem::MAYHEM, 1);
    for (n, sides) in [
        (u32::MAX, json!(vec![usize::MAX; 1000])),
        (0, json!([])),
        (1, json!([2, 0, 1, 25, 26])),
    ] {
        let saved = json!({
            "figures": {
                "hawkeye": {
                    "killed": true, "ran_off": true, "saves_spent": n, "rerolls_spent": n,
                    "after_battle": "dead", "unloaded": true, "smoke": n, "moved": true,
                    "reloaded": true, "smoke_cleared": true, "killed_this_turn": true,
                    "shot": true, "stood_still": true,
                },
                "swivel": { "killed": false, "ran_off": false, "saves_spent": 0, "rerolls_spent": 0, "smoke": n },
            },
            "sequence": sides,
            "previous_sequence": sides,
            "turns": n,
        });
        part.restore(&saved).unwrap();
        let checkpoint = part.checkpoint().unwrap();
        assert_eq!(checkpoint["figures"]["hawkeye"]["saves_spent"], n);
        assert_eq!(checkpoint["sequence"], sides);
        assert_eq!(checkpoint["turns"], n);
        let restored = bench.restored(part.as_ref(), "extreme");
        bench.assert_same(part.as_ref(), restored.as_ref(), &session, "extreme");
        part.next_turn();
        assert!(part.state().is_object());
        assert!(part.view().next_turn_text().is_some());
    }
}

#[test]
fn mayhem_refuses_a_hostile_checkpoint() {
    let (_, mut part) = fresh_part(
        crate::mayhem::MAYHEM,
        vec![
            shipped("fiw-raid-colonial.toml"),
            shipped("fiw-raid-french.toml"),
        ],
        &[],
    );
    let with = |figures: Value| json!({ "figures": figures, "sequence": [1, 0], "previous_sequence": null, "turns": 2 });
    let figure = |key: &str, value: Value| {
        let mut f =
            json!({ "killed": false, "ran_off": false, "saves_spent": 1, "rerolls_spent": 0 });
        f[key] = value;
        with(json!({ "uncas": f }))
    };
    part.restore(&figure("smoke", json!(2))).unwrap();
    let mut hostile = malformed();
    hostile.extend([
        (
            with(json!({ "nobody": {} })),
            "names figure `nobody` that no army of this game has",
        ),
        (with(json!({ "war-chief": {}, "colonel": {} })), "names figure `colonel`"),
        (with(json!([])), "cannot be read"),
        (with(json!({ "uncas": [] })), "cannot be read"),
        (with(json!({ "uncas": null })), "cannot be read"),
        (figure("saves_spent", json!(-1)), "cannot be read"),
        (figure("saves_spent", json!(4_294_967_296u64)), "cannot be read"),
        (figure("smoke", json!("3")), "cannot be read"),
        (figure("smoke", json!(1e10)), "cannot be read"),
        (figure("after_battle", json!("resurrected")), "cannot be read"),
        (figure("after_battle", json!(1)), "cannot be read"),
        (figure("killed", json!("no")), "cannot be read"),
        (figure("saves_left", json!(1)), "cannot be read"),
        (figure("fate", json!("in play")), "cannot be read"),
        (
            json!({ "figures": {}, "sequence": [-1], "previous_sequence": null, "turns": 0 }),
            "cannot be read",
        ),
        (
            json!({ "figures": {}, "sequence": ["side a"], "previous_sequence": null, "turns": 0 }),
            "cannot be read",
        ),
        (
            json!({ "figures": {}, "sequence": null, "previous_sequence": 3, "turns": 0 }),
            "cannot be read",
        ),
        (
            json!({ "figures": {}, "sequence": null, "previous_sequence": null, "turns": -1 }),
            "cannot be read",
        ),
        (
            json!({ "figures": {}, "sequence": null, "previous_sequence": null, "turns": 4_294_967_296u64 }),
            "cannot be read",
        ),
        (
            json!({ "figures": {}, "sequence": null, "previous_sequence": null }),
            "cannot be read",
        ),
        (
            json!({ "figures": {}, "sequence": null, "previous_sequence": null, "turns": 0, "order": [] }),
            "cannot be read",
        ),
        (
            json!({ "figures": {}, "sequence": vec![json!("x"); 100_000], "previous_sequence": null, "turns": 0 }),
            "cannot be read",
        ),
    ]);
    assert_refused(part.as_mut(), &hostile);
}

// ---- Musket & Saber

/// Quatre Bras: steps lost, routs, disruption, retreats (flipping and
/// disengaging), ineffective sides, a leader casualty, recovery of
/// disruption, effectiveness and a step, and a unit destroyed.
const SABER: &str = "\
bombard fr-art-reille vs al-bijlandt rolled 5 2
attack fr-husson ney vs al-saxe-weimar rolled 4 3
choose al-saxe-weimar disruption
attack fr-gauthier vs al-best rolled 6 4
attack fr-jamin fr-art-foy vs al-kempt picton rolled 3 5
choose al-kempt picton retreat disengage
attack fr-bauduin fr-soye vs al-pack rolled 5 6
attack fr-guiton kellermann cavalry-charge vs al-brunswick-light rolled 3 4 2
attack al-kempt picton vs fr-jamin rolled 4 3
leader-casualty picton participating rolled 5
choose fr-jamin step-loss
attack al-maitland wellington vs fr-husson ney rolled 6 6
attack al-halkett vs fr-art-foy rolled 1 4
attack al-van-merlen vs fr-hubert rolled 4 1
bombard al-stievenaar vs fr-campi rolled 2 3
end-turn
next-turn
recover fr-husson rolled 4
recover ney
recover fr-guiton rolled 6
recover kellermann
recover fr-hubert rolled 2
attack fr-husson fr-campi ney vs al-bijlandt rolled 6 5
leader-casualty ney participating rolled 2
attack fr-gauthier fr-art-reille vs al-best rolled 5 1
attack fr-bauduin vs al-pack rolled 4 2
attack fr-soye press-forward vs al-brunswick-line rolled 3 5
bombard fr-art-foy vs al-brunswick-hussars rolled 4 4
attack al-kempt vs fr-jamin rolled 6 2
choose fr-jamin disruption
attack al-maitland wellington vs fr-jamin rolled 6 2
attack al-halkett orange vs fr-campi rolled 2 4
attack al-saxe-weimar vs fr-art-reille rolled 4 5
bombard al-stievenaar vs fr-soye rolled 1 1
attack al-brunswick-light brunswick vs fr-bauduin rolled 1 5
choose fr-wathiez retreat-disrupted
choose fr-wathiez flip
next-turn
recover al-pack rolled 5
recover al-stievenaar
recover al-brunswick-hussars rolled 4
recover fr-jamin ney rolled 5
recover fr-art-reille rolled 6
recover al-bijlandt rolled 1
attack al-halkett vs fr-gauthier rolled 5 4
attack fr-wathiez vs al-brunswick-hussars rolled 2 3
morale fr-bauduin rolled 4
units
end-turn
";

const SABER_EFFECTS: &[&str] = &[
    "step-lost",
    "routed",
    "disrupted",
    "retreated",
    "disengaged",
    "ineffective",
    "leader-casualty",
    "recovered",
    "step-recovered",
    "destroyed",
];

#[test]
fn saber_checkpoints_restore_after_every_line() {
    let evening = play(
        crate::saber::SABER,
        vec![
            shipped("quatre-bras-1815-french.toml"),
            shipped("quatre-bras-1815-allied.toml"),
        ],
        SABER,
        &[],
    );
    assert_touches(&evening, SABER_EFFECTS);
    assert_eq!(
        evening.state["saber"]["units"]["fr-art-reille"]["destroyed"],
        true
    );
    assert_eq!(
        evening.state["saber"]["leaders"]["picton"]["casualty"],
        true
    );
}

/// QuickPlay lists of our own (QuickPlay counters all print an MR).
fn quickplay() -> Vec<ArmySource> {
    vec![
        inline(
            "union.toml",
            "[army]\nname = \"Union\"\nrules = \"saber-quickplay\"\nside = \"Union\"\n\n\
             [[leader]]\nid = \"q-reynolds\"\nname = \"Reynolds\"\ncf = 1\nmr = 2\nmv = 1\n\n\
             [[unit]]\nid = \"q-iron\"\nname = \"Iron Brigade\"\ntype = \"infantry\"\nformation = 1\ncf = 6\nmr = 4\nma = 5\nsteps = 2\n\n\
             [[unit]]\nid = \"q-buford\"\nname = \"Buford\"\ntype = \"cavalry\"\ncf = 3\nmr = 4\nma = 8\n\n\
             [[unit]]\nid = \"q-battery\"\nname = \"Battery\"\ntype = \"artillery\"\ncf = 3\nmr = 5\nma = 4\n",
        ),
        inline(
            "rebels.toml",
            "[army]\nname = \"Confederates\"\nrules = \"saber-quickplay\"\nside = \"Confederate\"\n\n\
             [[leader]]\nid = \"q-early\"\nname = \"Early\"\ncf = 1\nmr = 1\nmv = 1\n\n\
             [[unit]]\nid = \"q-gordon\"\nname = \"Gordon's brigade\"\ntype = \"infantry\"\ncf = 5\nmr = 4\nma = 5\nsteps = 2\n",
        ),
    ]
}

/// A QuickPlay evening: all affected units disrupted, steps lost to the
/// last and one recovered, cavalry, artillery and a leader flipped and
/// recovered, a leader casualty.
const QUICKPLAY: &str = "\
attack q-iron q-reynolds vs q-gordon rolled 3 3
choose q-iron disruption
choose q-gordon step-loss
choose q-buford q-reynolds retreat
choose q-battery retreat
choose q-gordon q-early retreat disengage
# A unit may attack only once per combat phase (7.3): the next turn's.
next-turn
attack q-iron vs q-gordon rolled 6 6
choose q-gordon step-loss
leader-casualty q-early participating rolled 6
end-turn
next-turn
recover q-iron rolled 1
recover q-buford rolled 1
recover q-reynolds march
recover q-gordon replacement
choose q-battery flip
choose q-iron retreat-disrupted
choose q-buford disruption
end-turn
";

#[test]
fn saber_quickplay_checkpoints_restore_after_every_line() {
    let evening = play(crate::saber::QUICKPLAY, quickplay(), QUICKPLAY, &[]);
    assert_touches(
        &evening,
        &[
            "step-lost",
            "disrupted",
            "retreated",
            "disengaged",
            "ineffective",
            "leader-casualty",
            "recovered",
            "step-recovered",
        ],
    );
}

#[test]
fn saber_refuses_a_hostile_checkpoint() {
    let (_, mut part) = fresh_part(crate::saber::QUICKPLAY, quickplay(), &[]);
    let unit = |key: &str, value: Value| {
        let mut u = json!({
            "steps_lost": 1, "disrupted": true, "ineffective": false, "routed": false, "destroyed": false,
        });
        u[key] = value;
        u
    };
    let leader = json!({ "ineffective": true, "casualty": false });
    let with = |units: Value, leaders: Value| json!({ "units": units, "leaders": leaders });
    part.restore(&with(
        json!({ "q-iron": unit("routed", json!(true)) }),
        json!({ "q-early": leader }),
    ))
    .unwrap();
    let mut hostile = malformed();
    hostile.extend([
        (
            with(json!({ "nobody": unit("steps_lost", json!(0)) }), json!({})),
            "names unit `nobody` that no army of this game has",
        ),
        (
            with(json!({}), json!({ "nobody": leader })),
            "names leader `nobody`",
        ),
        (
            with(
                json!({ "q-early": unit("steps_lost", json!(0)) }),
                json!({}),
            ),
            "names unit `q-early`",
        ),
        (
            with(json!({}), json!({ "q-iron": leader })),
            "names leader `q-iron`",
        ),
        (
            with(json!({ "q-iron": unit("steps_lost", json!(3)) }), json!({})),
            "gives unit `q-iron` 3 steps lost, but it has only 2",
        ),
        (
            with(
                json!({ "q-buford": unit("steps_lost", json!(u32::MAX)) }),
                json!({}),
            ),
            "unit `q-buford`",
        ),
        (
            with(
                json!({ "q-iron": unit("steps_lost", json!(-1)) }),
                json!({}),
            ),
            "cannot be read",
        ),
        (
            with(
                json!({ "q-iron": unit("steps_lost", json!(4_294_967_296u64)) }),
                json!({}),
            ),
            "cannot be read",
        ),
        (
            with(
                json!({ "q-iron": unit("steps_lost", json!(1.0)) }),
                json!({}),
            ),
            "cannot be read",
        ),
        (
            with(
                json!({ "q-iron": unit("disrupted", json!("true")) }),
                json!({}),
            ),
            "cannot be read",
        ),
        (
            with(
                json!({ "q-iron": unit("eliminated", json!(false)) }),
                json!({}),
            ),
            "cannot be read",
        ),
        (
            with(json!({ "q-iron": unit("steps", json!(2)) }), json!({})),
            "cannot be read",
        ),
        (with(json!({ "q-iron": [] }), json!({})), "cannot be read"),
        (
            with(json!({}), json!({ "q-early": { "casualty": true } })),
            "cannot be read",
        ),
        (
            with(
                json!({}),
                json!({ "q-early": { "ineffective": 1, "casualty": false } }),
            ),
            "cannot be read",
        ),
        (with(json!(vec![0; 100_000]), json!({})), "cannot be read"),
        (json!({ "units": {} }), "cannot be read"),
        (
            json!({ "units": {}, "leaders": {}, "turn": 1 }),
            "cannot be read",
        ),
    ]);
    assert_refused(part.as_mut(), &hostile);
}
