//! Musket Mayhem figures named in a game (shared/rules/musket-mayhem.txt):
//! each defect of "named units you can trust" as its own case, with the
//! shipped lists, entered dice and a game file, through batch mode.

use crate::common;

use std::path::Path;

use drumhead::game::{ArmySource, Game};
use serde_json::Value;

const PIMPERNEL: &[&str] = &["pimpernel-league.toml", "pimpernel-republic.toml"];
const RAID: &[&str] = &["fiw-raid-colonial.toml", "fiw-raid-french.toml"];

fn temp_game(name: &str) -> common::game::ScratchFile {
    common::game::temp_file(&format!("mayhem-figures-{name}"), "g.json")
}

fn shipped(files: &[&str]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    files
        .iter()
        .flat_map(|f| ["--army".to_string(), dir.join(f).display().to_string()])
        .collect()
}

/// What a batch over a new game printed, and the game's figures after it.
struct Played {
    ok: bool,
    stdout: String,
    stderr: String,
    figures: Value,
}

impl Played {
    fn figure(&self, id: &str) -> &Value {
        &self.figures[id]
    }

    /// The JSON of each resolution, in order.
    fn results(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }
}

fn play(name: &str, lists: &[&str], script: &str, json: bool) -> Played {
    let game = temp_game(name);
    let mut args = shipped(lists);
    args.extend(["--game".into(), game.display().to_string()]);
    if json {
        args.push("--json".into());
    }
    let (code, stdout, stderr) = common::run(&args, script);
    let (_, _, state) = Game::read_file(&game).unwrap();
    Played {
        ok: code == Some(0),
        stdout,
        stderr,
        figures: state["mayhem"]["figures"].clone(),
    }
}

// "Heroes: Depending on the scenario, heroes could be represented by some
// combination of save tokens (canceling a death or morale failure),
// reroll tokens, …"

#[test]
fn a_save_token_spent_in_a_fight_is_gone_for_the_next_fight() {
    // ffoulkes (leader +1) rolls 1 = 2; trooper-1 (mounted +1, shock +1)
    // rolls 2 = 4 and hits; results 6 ≥ specialist 4 kills — ffoulkes's
    // one save token cancels the death. The same dice again: no token is
    // left, and he is killed.
    let p = play(
        "save",
        PIMPERNEL,
        "fight ffoulkes vs trooper-1 rolled 1 2 6\nshow ffoulkes\nfight ffoulkes vs trooper-1 rolled 1 2 6\n",
        false,
    );
    assert!(p.ok, "{}", p.stderr);
    assert!(
        p.stdout.contains("│ tokens left ┆ 0 of 1 save(s)"),
        "{}",
        p.stdout
    );
    let f = p.figure("ffoulkes");
    assert_eq!(f["saves_spent"], 1);
    assert_eq!(f["saves_left"], 0);
    assert_eq!(f["killed"], true);
    assert_eq!(p.figure("trooper-1")["killed"], false);
}

#[test]
fn the_opponents_tokens_are_spent_and_kept_too() {
    // trooper-2 (mounted +1, shock +1) rolls 2 = 4; percy (leader +1,
    // melee bonus +1) rolls 1 = 3 and loses: his reroll token throws again,
    // 1 = 3, still lower. trooper-2's results 6 ≥ specialist 4 would kill:
    // his save token cancels it. Both tokens are percy's, named after `vs`.
    let p = play(
        "opponent",
        PIMPERNEL,
        "fight trooper-2 vs percy rolled 2 1 1 6\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    let percy = p.figure("percy");
    assert_eq!(
        (&percy["saves_left"], &percy["rerolls_left"]),
        (&1.into(), &0.into())
    );
    assert_eq!(percy["killed"], false);
    let res = &p.results()[0];
    assert_eq!(res["outcome"], "a-hits");
    assert_eq!(res["b"]["rerolled_from"], 1);
}

#[test]
fn a_firers_reroll_token_is_used_up() {
    // percy's pistol at 6" (not over half of 12"): skill 1 misses; his
    // reroll token throws again, 5 hits; impact 3 < 6: a courage check.
    // Reloaded, his next miss has no reroll: the line takes one die.
    let p = play(
        "reroll",
        PIMPERNEL,
        "fire percy 6\" at guard-1 rolled 1 5 3\nreload percy\nfire percy 6\" at guard-1 rolled 1\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.figure("percy")["rerolls_spent"], 1);
    assert_eq!(p.figure("percy")["rerolls_left"], 0);
    let results = p.results();
    assert_eq!(results[0]["skill"]["rerolled_from"], 1);
    // "can be reloaded as an action by a figure which does not move".
    assert_eq!(results[1]["verb"], "reload");
    assert_eq!(results[1]["outcome"], "loaded");
    assert_eq!(results[2]["outcome"], "miss");
    assert_eq!(results[2]["dice"], serde_json::json!([1]));
}

// "If a figure fighting several opponents is killed, combat ends for that
// figure immediately and any combats not yet fought are cancelled."

#[test]
fn each_combat_falls_on_its_own_opponent() {
    // percy (leader +1, melee +1) 3 = 5 against guard-2 (bayonet +1) 4 = 5:
    // a tie. Against guard-3: 5 = 7 against 2 + 1 = 3, results 4 ≥
    // specialist 4: guard-3 is killed, not guard-2.
    let p = play(
        "several",
        PIMPERNEL,
        "fight percy vs guard-2 vs guard-3 rolled 3 4 5 2 4\n",
        false,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.figure("guard-3")["killed"], true);
    assert_eq!(p.figure("guard-2")["killed"], false);
    assert_eq!(p.figure("percy")["killed"], false);
}

#[test]
fn a_figure_killed_by_its_first_opponent_fights_no_more() {
    // dewhurst (mounted: superior +1) 1 = 2 against guard-1 (bayonet +1)
    // 5 = 6: guard-1 hits, results 6 ≥ armed 5 kills dewhurst; the combat
    // against guard-2 is cancelled and guard-2 is untouched.
    let p = play(
        "cancelled",
        PIMPERNEL,
        "fight dewhurst vs guard-1 vs guard-2 rolled 1 5 6\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.figure("dewhurst")["killed"], true);
    assert_eq!(p.figure("guard-1")["killed"], false);
    assert_eq!(p.figure("guard-2")["killed"], false);
    assert_eq!(p.results()[0]["cancelled"], 1);
}

#[test]
fn one_figure_a_side_in_a_fight() {
    let p = play(
        "two-a-side",
        PIMPERNEL,
        "fight percy vs guard-1 guard-2\n",
        false,
    );
    assert!(!p.ok);
    assert!(
        p.stderr
            .contains("`guard-2` is a second figure on one side of a `vs`"),
        "{}",
        p.stderr
    );
}

// "Canister: 36" (= rifle range) roll against all figures in a cone 45
// degrees needing usual score to hit."

#[test]
fn each_canister_shot_falls_on_its_own_figure() {
    // At 10" (within half of 36"), open: 4+ to hit. warrior-1's die 3
    // misses; warrior-2's 4 hits, impact 4 + 2 (canister) = 6 kills.
    let p = play(
        "canister",
        RAID,
        "fire swivel 10\" figures=2 at warrior-1 warrior-2 rolled 3 4 4\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.figure("warrior-2")["killed"], true);
    assert_eq!(p.figure("warrior-1")["killed"], false);
    let res = &p.results()[0];
    assert_eq!(res["figures"][0]["figure"], "warrior-1");
    assert_eq!(res["figures"][1]["outcome"], "killed");
}

#[test]
fn naming_the_figures_counts_them_and_a_hero_among_them_keeps_his_own_save() {
    // No `figures=N`: three are named. langy 6 hits, warrior-1 2 misses,
    // warrior-2 4 hits; impacts 6 + 2 and 5 + 2 both kill — langy's save
    // token cancels his death (he checks courage), warrior-2 dies.
    let p = play(
        "cone",
        RAID,
        "fire swivel 10\" at langy warrior-1 warrior-2 rolled 6 2 4 6 5\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.figure("langy")["killed"], false);
    assert_eq!(p.figure("langy")["saves_left"], 0);
    assert_eq!(p.figure("warrior-1")["killed"], false);
    assert_eq!(p.figure("warrior-2")["killed"], true);
    let res = &p.results()[0];
    assert_eq!(
        (&res["killed"], &res["courage_checks"]),
        (&1.into(), &1.into())
    );
}

#[test]
fn more_figures_named_than_figures_n_is_refused_and_fewer_fall_on_nobody() {
    let p = play(
        "too-many",
        RAID,
        "fire swivel 10\" figures=1 at warrior-1 warrior-2\n",
        false,
    );
    assert!(!p.ok);
    assert!(
        p.stderr
            .contains("`warrior-2` is figure 2 named, but `figures=1` rolls against 1"),
        "{}",
        p.stderr
    );
    // figures=3 with one named: figure 1 is warrior-1 (misses with 1);
    // figures 2 and 3 (4 and 4 hit, impacts 6 + 2 kill) are of no list.
    let p = play(
        "fewer",
        RAID,
        "fire swivel 10\" figures=3 at warrior-1 rolled 1 4 4 6 6\n",
        false,
    );
    assert!(p.ok, "{}", p.stderr);
    assert!(
        p.stdout
            .contains("figures 2–3 are not named after `at`: their results fall on no figure"),
        "{}",
        p.stdout
    );
    assert_eq!(p.figure("warrior-1")["killed"], false);
    let killed = p
        .figures
        .as_object()
        .unwrap()
        .values()
        .filter(|f| f["killed"] == true)
        .count();
    assert_eq!(killed, 0);
}

#[test]
fn a_musket_shot_is_at_one_figure() {
    let p = play(
        "musket",
        RAID,
        "fire marine-1 10\" at warrior-1 warrior-2\n",
        false,
    );
    assert!(!p.ok);
    assert!(
        p.stderr.contains("a musket shot is at one figure"),
        "{}",
        p.stderr
    );
}

// Courage: "If the score is higher then courage has failed." A save token
// cancels "a death or morale failure".

#[test]
fn a_named_figure_brings_its_save_token_to_courage() {
    // langy (exceptional leader, courage 5) rolls 6 > 5: courage fails,
    // and his save token cancels the morale failure: he stays. A second
    // failure has no token: the individual die 6 > 5 runs him off.
    let p = play(
        "courage",
        RAID,
        "courage langy cause=fire rolled 6\ncourage langy cause=fire rolled 6 6\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    let results = p.results();
    assert_eq!(results[0]["outcome"], "pass");
    assert_eq!(results[0]["save_spent"], true);
    assert_eq!(results[1]["outcome"], "fail");
    let langy = p.figure("langy");
    assert_eq!(langy["saves_left"], 0);
    assert_eq!(langy["ran_off"], true);
}

#[test]
fn naming_a_figure_is_the_same_as_typing_its_tokens() {
    let named = play("courage-named", RAID, "courage langy rolled 6\n", true);
    let typed = play("courage-typed", RAID, "courage 5 saves=1 rolled 6\n", true);
    let (a, b) = (&named.results()[0], &typed.results()[0]);
    for key in ["outcome", "outcome_text", "dice", "tokens", "figures"] {
        assert_eq!(a[key], b[key], "{key}");
    }
}

#[test]
fn a_group_of_named_figures_checks_together_and_each_runs_off_alone() {
    // langy 5, marine-2 3, marine-3 3 after a casualty: the die 6 is
    // higher than the highest value 5: failed. langy's save token cancels
    // his morale failure: he holds. marine-2 rolls 6 > 3: runs off;
    // marine-3 rolls 2: retreats 3 + 1 = 4".
    let p = play(
        "group",
        RAID,
        "courage langy marine-2 marine-3 cause=casualty rolled 6 6 2 3 1\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.figure("marine-2")["ran_off"], true);
    assert_eq!(p.figure("marine-3")["ran_off"], false);
    assert_eq!(p.figure("langy")["ran_off"], false);
    assert_eq!(p.figure("langy")["saves_left"], 0);
    let res = &p.results()[0];
    assert_eq!(res["figures"][2]["retreat_in"], 4);
    assert_eq!(res["holds"], 1);
}

// "bonuses to skill or impact dice with specific weapons. (Hawkeye, for
// example, could be given a +2 to hit and a +1 to impact while using
// Killdeer, …, where Uncas might get a + 1 to skill and impact in melee
// with a single save token...)"

#[test]
fn hawkeyes_bonus_is_with_killdeer_and_not_in_melee() {
    // In melee Hawkeye has only leader +1: 3 + 1 = 4 against marine-1's
    // 4 + 1 (bayonet) = 5: the marine hits, results 4 < armed 5: Hawkeye
    // checks courage; nobody dies.
    // With Killdeer at 30" (over half of 36"): 3 − 1 + 2 = 4 hits;
    // impact 4 + 1 (rifle) + 1 = 6 kills marine-2.
    let p = play(
        "hawkeye",
        RAID,
        "fight hawkeye vs marine-1 rolled 3 4 4\nfire hawkeye 30\" at marine-2 rolled 3 4\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    let results = p.results();
    assert_eq!(results[0]["outcome"], "b-hits");
    assert_eq!(results[0]["result"], "courage-check");
    assert_eq!(p.figure("marine-1")["killed"], false);
    assert_eq!(p.figure("hawkeye")["killed"], false);
    assert_eq!(results[1]["skill"]["modified"], 4);
    assert_eq!(results[1]["impact"]["modified"], 6);
    assert_eq!(p.figure("marine-2")["killed"], true);
}

#[test]
fn hawkeyes_bonus_is_not_used_with_another_weapon() {
    // His list arms him with a rifle: a musket typed beside him contradicts
    // it and is refused, naming the rifle and the list (issue 23: "Refuse a
    // typed word contradicting a named figure's list"), so his rifle's +2
    // never reaches another weapon.
    let p = play(
        "hawkeye-musket",
        RAID,
        "fire hawkeye musket 10\" at marine-2 rolled 3\n",
        false,
    );
    assert!(!p.ok, "{}", p.stdout);
    assert!(
        p.stderr.contains(
            "`musket` contradicts `hawkeye` (Hawkeye, with Killdeer): its list arms it with a rifle, not a musket"
        ),
        "{}",
        p.stderr
    );
    assert!(p.stderr.contains("fiw-raid-colonial.toml"), "{}", p.stderr);
}

#[test]
fn uncas_has_his_bonus_in_melee_only() {
    // Melee: uncas (leader +1, shock +1, melee +1) 3 = 6 against
    // warrior-1 (shock +1) 4 = 5: uncas hits, results 3 + 1 = 4 ≥
    // specialist 4: warrior-1 is killed.
    // Fire: his musket at 10", skill 4 hits; impact 4 + 1 (musket) = 5 < 6:
    // a courage check, no melee bonus.
    let p = play(
        "uncas",
        RAID,
        "fight uncas vs warrior-1 rolled 3 4 3\nfire uncas 10\" at warrior-2 rolled 4 4\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.figure("warrior-1")["killed"], true);
    assert_eq!(p.figure("warrior-2")["killed"], false);
    assert_eq!(p.results()[1]["impact"]["modified"], 5);
}

#[test]
fn a_typed_bonus_still_works_and_displaces_the_lists() {
    // `skill+1` typed stands for the hero's bonus: 3 − 1 + 1 = 3 misses.
    let p = play(
        "typed-bonus",
        RAID,
        "fire hawkeye 30\" skill+1 at marine-2 rolled 3\nfire rifle 30\" skill+2 impact+1 rolled 3 4\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    let results = p.results();
    assert_eq!(results[0]["outcome"], "miss");
    assert_eq!(results[1]["outcome"], "killed");
}

fn list_error(figure: &str) -> String {
    let text = format!(
        "[army]\nname = \"Test\"\nrules = \"mayhem\"\nside = \"France\"\n\n[[figure]]\nid = \"a\"\nname = \"A\"\nrank = \"leader\"\n{figure}"
    );
    let schemas = drumhead::game::schemas_of(&drumhead::systems::all());
    drumhead::army::parse_army("t.toml", &text, &schemas)
        .unwrap_err()
        .to_string()
}

#[test]
fn a_bonus_says_what_it_is_for_and_is_checked() {
    let e = list_error("weapon = \"musket\"\nbonus.rifle = { skill = 2 }\n");
    assert!(
        e.contains("figure[1].bonus.rifle") && e.contains("carries a musket"),
        "{e}"
    );
    let e = list_error("bonus.rifle = { skill = 2 }\n");
    assert!(e.contains("carries no missile weapon"), "{e}");
    let e = list_error("bonus.killdeer = { skill = 2 }\n");
    assert!(e.contains("`killdeer` is neither"), "{e}");
    let e = list_error("bonus.melee = { skil = 1 }\n");
    assert!(e.contains("unknown key `skil`"), "{e}");
    let e = list_error("bonus.melee = { skill = 9 }\n");
    assert!(e.contains("a whole number from 1 to 5"), "{e}");
    let e = list_error("skill_bonus = 1\n");
    assert!(
        e.contains("a hero's bonus says what it is for") && e.contains("bonus.melee"),
        "{e}"
    );
    let e = list_error("bonus.melee = {}\n");
    assert!(e.contains("empty"), "{e}");
}

// "After the battle, downed figures can be diced for, and are wounded on a
// d6 roll of 1-4 and dead on a roll of 5-6." — "a distinction can be made
// between figures which run from the table and those downed by enemy
// action".

#[test]
fn the_fallen_cannot_act_until_undone_and_only_the_downed_are_diced_for() {
    let script = "\
courage settler-2 cause=casualty rolled 6 5
fire marine-1 10\" at settler-1 rolled 5 6
fire settler-1 10\" at marine-1
post-battle settler-2
courage settler-2 rolled 1
post-battle settler-3
post-battle settler-1 rolled 5
undo
undo
fire settler-1 10\" at marine-1 rolled 1
";
    let p = play("fallen", RAID, script, false);
    assert!(!p.ok);
    assert!(
        p.stderr
            .contains("`settler-1` was killed, and cannot act (`undo` takes back what did it)"),
        "{}",
        p.stderr
    );
    assert!(
        p.stderr
            .contains("`settler-2` ran off the board, and cannot act"),
        "{}",
        p.stderr
    );
    assert!(
        p.stderr.contains("`settler-2` ran from the table"),
        "{}",
        p.stderr
    );
    assert!(
        p.stderr.contains("`settler-3` is still in play"),
        "{}",
        p.stderr
    );
    assert!(
        p.stdout
            .contains("game: after the battle settler-1 is dead"),
        "{}",
        p.stdout
    );
    // The two undos take back the post-battle die and the kill: settler-1
    // fires again.
    assert_eq!(p.figure("settler-1")["killed"], false);
    assert!(p.figure("settler-1").get("after_battle").is_none());
    assert_eq!(p.figure("settler-2")["ran_off"], true);
    assert!(p.stdout.contains("no hit: the shot misses"), "{}", p.stdout);
}

#[test]
fn end_turn_units_and_show_speak_musket_mayhem() {
    let p = play(
        "roster",
        RAID,
        "fire swivel 10\" at langy rolled 6 6\nend-turn\nunits\nshow hawkeye\nshow langy\n",
        false,
    );
    assert!(p.ok, "{}", p.stderr);
    // "Players (sides) dice for initiative each turn. … If there is a tie,
    // repeat the previous turn's sequence."; "A trained crew of 3 or more
    // (with a leader counting as two figures) may remove 1 per turn."
    assert!(p.stdout.contains("end of turn (Musket Mayhem)"));
    assert!(p.stdout.contains("dice for initiative each turn"));
    assert!(p.stdout.contains("a trained crew of 3 or more"));
    for drums in ["resilience", "BW", "bases", "retire"] {
        assert!(!p.stdout.contains(drums), "{drums} in {}", p.stdout);
    }
    assert!(
        p.stdout.contains(
            "┆ courage ┆ weapon                     ┆ group      ┆ saves ┆ rerolls ┆ fate"
        ),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("│ langy     ┆ Ensign de Langy, Compagnies franches de la Marine ┆ 5       ┆ musket ┆ marines  ┆ 0/1   ┆ —       ┆ in play │"),
        "{}",
        p.stdout
    );
    // "When gun fires, place 3 smoke puffs": the roster shows them, and
    // the end of the turn lists the gun.
    assert!(
        p.stdout
            .contains("┆ canister (3 smoke puff(s)) ┆ blockhouse ┆"),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("swivel has 3 smoke puff(s)."),
        "{}",
        p.stdout
    );
    for row in [
        "│ courage     ┆ 5 ",
        "│ armament    ┆ armed (5:",
        "│ weapon      ┆ rifle (36\")",
        "│ tokens left ┆ 2 of 2 save(s)",
        "│ bonuses     ┆ with the rifle: skill +2, impact +1",
        "│ group       ┆ —",
    ] {
        assert!(p.stdout.contains(row), "{row} in {}", p.stdout);
    }
}

#[test]
fn every_fact_a_figure_can_bring_is_read_by_a_verb() {
    let tables = drumhead::systems::embedded().unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let sources: Vec<ArmySource> = PIMPERNEL
        .iter()
        .chain(RAID)
        .map(|f| ArmySource {
            file: f.to_string(),
            text: std::fs::read_to_string(dir.join(f)).unwrap(),
        })
        .collect();
    let game = Game::new(sources, &tables).unwrap();
    let catalog = drumhead::session::catalog(&tables);
    let verbs: Vec<_> = catalog.for_system(drumhead::mayhem::MAYHEM).collect();
    let mut words = std::collections::BTreeSet::new();
    for id in [
        "percy",
        "hawkeye",
        "uncas",
        "swivel",
        "langy",
        "trooper-1",
        "child",
    ] {
        let facts = game.possible_facts(id);
        assert!(!facts.is_empty(), "{id}");
        for fact in facts {
            let fallen = matches!(&*fact.word, "downed" | "ran-off");
            assert!(
                verbs
                    .iter()
                    .any(|v| v.reads_fact(&fact.word) && (!fallen || v.takes_fallen)),
                "{id}: no Musket Mayhem verb reads `{}`",
                fact.word
            );
            words.insert(fact.word.to_string());
        }
    }
    // Complete: the facts of the bonuses, the tokens and the fallen.
    for w in [
        "courage",
        "rifle-skill",
        "rifle-impact",
        "melee-skill",
        "melee-impact",
        "saves",
        "rerolls",
        "hero",
        "downed",
        "ran-off",
        "leader",
        "mounted",
        "shock",
        "specialist",
        "pistol",
        "canister",
    ] {
        assert!(words.contains(w), "{w} missing from {words:?}");
    }
}

// Naming a figure is typing the facts it brings, under `odds` too.
// "Basic Courage values are: 5: exceptional leaders 4: ordinary leaders
// 3: ordinary soldiers and other combatants 2: Women and other
// non-combatants"; "+1 if leader" marks any leader in hand-to-hand.

#[test]
fn a_named_figure_brings_its_courage_and_tokens_to_odds() {
    // langy: exceptional leader (5), marked leader, one save token. The
    // die fails only on a 6 (1/6), and then his save token cancels it.
    let p = play(
        "courage-odds",
        RAID,
        "odds courage langy cause=fire\nodds courage 5 leader saves=1 cause=fire\nodds courage 5 cause=fire\n",
        false,
    );
    assert!(p.ok, "{}", p.stderr);
    let blocks: Vec<&str> = p.stdout.split("odds: ").skip(1).collect();
    assert_eq!(blocks.len(), 3, "{}", p.stdout);
    assert_eq!(blocks[0], blocks[1]);
    assert!(
        blocks[0].contains("save token spent: the morale failure is cancelled")
            && blocks[0].contains("1/6"),
        "{}",
        blocks[0]
    );
    assert_ne!(blocks[0], blocks[2], "without the token a 6 fails");
}

#[test]
fn a_rank_word_beside_a_courage_value_agrees_or_the_value_stands() {
    let (code, out, err) = common::run(
        &["--rules", "mayhem", "--json"],
        "courage 5 leader rolled 5\ncourage leader 5 rolled 6 6\ncourage 3 leader rolled 4 1 1 1\n\
         courage 4 soldier rolled 4\ncourage exceptional-leader leader rolled 5\n\
         courage soldier leader rolled 4 4\ncourage leader rolled 5 1 1 1\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let results: Vec<Value> = out
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let checked: Vec<(i64, &str)> = results
        .iter()
        .map(|r| {
            (
                r["highest"].as_i64().unwrap(),
                r["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        checked,
        [
            // A leader of courage 5 (as percy or langy bring it): 5 passes.
            (5, "pass"),
            // 6 fails against 5; the individual die 6 > 5 runs off.
            (5, "fail"),
            // A leader of his own courage 3: 4 fails.
            (3, "fail"),
            // A soldier given his own value 4: 4 passes.
            (4, "pass"),
            // An exceptional leader is a leader: 5.
            (5, "pass"),
            // A soldier marked leader: 3, and 4 fails.
            (3, "fail"),
            // `leader` alone: an ordinary leader, 4; 5 fails.
            (4, "fail"),
        ]
    );
}

#[test]
fn two_ranks_or_two_values_for_one_figure_are_refused() {
    for (line, said) in [
        (
            "courage soldier exceptional-leader",
            "`exceptional-leader` and `soldier` are both courage values",
        ),
        ("courage 5 4", "`4` and `5` are both courage values"),
        ("courage leader leader", "`leader` is given twice"),
        (
            "courage 5 leader group=3,3",
            "`group=3,3` and `5` are both courage values",
        ),
    ] {
        let (code, _, err) = common::run(&["--rules", "mayhem", line], "");
        assert_ne!(code, Some(0), "{line}");
        assert!(err.contains(said), "{line}: {err}");
    }
}

#[test]
fn the_check_says_which_value_stands() {
    let (code, out, err) = common::run(&["--rules", "mayhem", "courage 3 leader rolled 1"], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("its courage value 3 stands (`leader` alone is 4: ordinary leaders)"),
        "{out}"
    );
    let (_, out, _) = common::run(&["--rules", "mayhem", "courage 6 soldier rolled 6"], "");
    assert!(
        out.contains("the figure's own courage value 6 stands (`soldier` alone is 3"),
        "{out}"
    );
}

#[test]
fn tokens_typed_after_a_figures_id_win_over_its_own() {
    // langy with `saves=0`: 6 > 5 fails, no token cancels it; his own die
    // 6 > 5 runs him off. His token is not spent.
    let p = play(
        "typed-tokens",
        RAID,
        "courage langy saves=0 rolled 6 6\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    assert_eq!(p.results()[0]["outcome"], "fail");
    assert_eq!(p.figure("langy")["saves_left"], 1);
    assert_eq!(p.figure("langy")["ran_off"], true);
}

// "Canister: 36" (= rifle range) roll against all figures in a cone 45
// degrees"; save tokens cancel "a death".

#[test]
fn two_heroes_in_one_cone_each_keep_their_own_saves() {
    // At 10", open: hawkeye 6 and uncas 6 hit; impacts 6 + 2 = 8 would
    // kill both: each spends his own save token and checks courage.
    let p = play(
        "two-heroes",
        RAID,
        "fire canister 10\" at hawkeye uncas rolled 6 6 6 6\n",
        true,
    );
    assert!(p.ok, "{}", p.stderr);
    let res = &p.results()[0];
    assert_eq!(
        (&res["killed"], &res["courage_checks"]),
        (&0.into(), &2.into())
    );
    assert_eq!(p.figure("hawkeye")["killed"], false);
    assert_eq!(p.figure("hawkeye")["saves_left"], 1);
    assert_eq!(p.figure("uncas")["killed"], false);
    assert_eq!(p.figure("uncas")["saves_left"], 0);
}

#[test]
fn a_figure_is_named_once_on_a_line() {
    for line in [
        "fire canister 10\" at warrior-1 warrior-1",
        "courage langy langy",
        "fight langy vs langy",
    ] {
        let p = play("twice", RAID, &format!("{line}\n"), false);
        assert!(!p.ok, "{line}");
        assert!(
            p.stderr.contains("is named twice on the line"),
            "{line}: {}",
            p.stderr
        );
    }
}

// "After the battle, downed figures can be diced for, and are wounded on a
// d6 roll of 1-4 and dead on a roll of 5-6."

#[test]
fn several_downed_figures_are_diced_for_on_one_line() {
    // settler-1 and settler-2 are shot dead (4 hits, 6 + 1 kills); after
    // the battle settler-1 rolls 3 (wounded), settler-2 5 (dead).
    let script = "\
fire marine-1 10\" at settler-1 rolled 4 6
fire marine-2 10\" at settler-2 rolled 4 6
post-battle settler-1 settler-2 2
post-battle settler-1 settler-2 van-alstyne
post-battle settler-1 settler-2 rolled 3 5
";
    let p = play("post-battle-several", RAID, script, true);
    assert!(!p.ok);
    // In JSON the errors are lines of the output.
    assert!(
        p.stdout.contains("`2` counts downed figures of no list"),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("`van-alstyne` is still in play"),
        "{}",
        p.stdout
    );
    assert_eq!(p.figure("settler-1")["after_battle"], "wounded");
    assert_eq!(p.figure("settler-2")["after_battle"], "dead");
    let res = p.results().into_iter().last().unwrap();
    assert_eq!((&res["wounded"], &res["dead"]), (&1.into(), &1.into()));
    assert_eq!(res["figures"][1]["figure"], "settler-2");
}

// "The rules are set up so that it is not necessary to remember any
// "continuing results" for one turn to the next"; "Players (sides) dice
// for initiative each turn."

#[test]
fn next_turn_says_what_carries_over() {
    let p = play("next-turn", RAID, "next-turn\n", false);
    assert!(p.ok, "{}", p.stderr);
    assert!(
        p.stdout
            .starts_with("turn 2: no result carries over in Musket Mayhem"),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("dice for initiative each turn"),
        "{}",
        p.stdout
    );
}
