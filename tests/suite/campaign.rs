//! Issue 38: campaigns, armies carried from battle to battle, every change
//! traced to the journal entry that made it. Each test plays the battles
//! through the binary, as a club would, in a folder of its own that is
//! removed when it ends.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A campaign's folder, with the shipped lists it is begun from.
struct Club {
    dir: common::game::Scratch,
}

impl Club {
    fn new() -> Club {
        Club {
            dir: common::game::temp_dir("campaign"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// drumhead, run in the campaign's folder: (status, stdout, stderr).
    fn run<S: AsRef<str> + std::fmt::Debug>(&self, args: &[S]) -> (Option<i32>, String, String) {
        let mut cmd = Command::new(common::BIN);
        cmd.current_dir(&*self.dir)
            .args(args.iter().map(|a| a.as_ref()));
        common::run_command(cmd, "")
    }

    /// drumhead, which must succeed: its standard output.
    fn ok<S: AsRef<str> + std::fmt::Debug>(&self, args: &[S]) -> String {
        let (code, out, err) = self.run(args);
        assert_eq!(code, Some(0), "drumhead {args:?}:\n{out}\n{err}");
        out
    }

    /// drumhead, which must fail with `code`: its standard error.
    fn refused<S: AsRef<str> + std::fmt::Debug>(&self, args: &[S], code: i32) -> String {
        let (got, out, err) = self.run(args);
        assert_eq!(
            got,
            Some(code),
            "drumhead {args:?} should fail:\n{out}\n{err}"
        );
        err
    }

    /// Begin campaign `c.toml` of these shipped lists.
    fn begin(&self, lists: &[&str]) {
        self.ok(&Club::new_args(lists, &[]));
    }

    /// A campaign of Quatre Bras 1815 (Musket & Saber), both lists, begun.
    fn quatre_bras() -> Club {
        let club = Club::new();
        club.begin(&[
            "quatre-bras-1815-allied.toml",
            "quatre-bras-1815-french.toml",
        ]);
        club
    }

    /// `campaign new c.toml` of these shipped lists, with `more` options.
    fn new_args(lists: &[&str], more: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = vec!["campaign".into(), "new".into(), "c.toml".into()];
        for list in lists {
            args.push("--army".into());
            args.push(shipped(list).display().to_string());
        }
        args.extend(more.iter().map(|m| m.to_string()));
        args
    }

    /// A house table file `name` of `text` in the folder `house`.
    fn house(&self, name: &str, text: &str) {
        let dir = self.path("house");
        std::fs::create_dir_all(&dir).expect("the house folder");
        std::fs::write(dir.join(name), text).expect("the house table");
    }

    /// A battle made, its lines played into its game, and closed with
    /// the close line `close`. Returns what the close said.
    fn battle(&self, name: &str, lines: &[&str], close: &[&str]) -> String {
        self.ok(&["campaign", "battle", "c.toml", name]);
        let game = format!("{name}.json");
        for line in lines {
            self.ok(&["--game", &game, line]);
        }
        let mut args = vec!["campaign", "close", "c.toml", name];
        args.extend_from_slice(close);
        self.ok(&args)
    }

    /// The `units` of a battle's game, as JSON: each army's units by id.
    fn units(&self, name: &str) -> Vec<Value> {
        let out = self.ok(&["--game", &format!("{name}.json"), "--json", "units"]);
        let roster: Value = serde_json::from_str(out.lines().next().unwrap_or_default())
            .expect("units --json is JSON");
        roster["armies"].as_array().cloned().unwrap_or_default()
    }

    /// An exported list, as TOML.
    fn exported(&self, dir: &str, file: &str) -> toml::Table {
        let text = std::fs::read_to_string(self.path(dir).join(file)).expect("the exported list");
        text.parse().expect("an exported list is TOML")
    }
}

fn shipped(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("armies")
        .join(file)
}

/// The unit `id` of a roster's armies (its cells by column), if listed.
fn unit<'a>(armies: &'a [Value], id: &str) -> Option<&'a Value> {
    armies
        .iter()
        .flat_map(|a| a["units"].as_array().into_iter().flatten())
        .find(|u| u["id"] == id)
}

/// The entry `id` of a list's `section`.
fn entry<'a>(list: &'a toml::Table, section: &str, id: &str) -> &'a toml::Table {
    list[section]
        .as_array()
        .and_then(|entries| {
            entries
                .iter()
                .filter_map(|e| e.as_table())
                .find(|e| e.get("id").and_then(|v| v.as_str()) == Some(id))
        })
        .unwrap_or_else(|| panic!("no [[{section}]] {id}"))
}

const LEUTHEN: [&str; 2] = ["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"];

/// The issue's first test: "a two-battle Leuthen campaign (`hits gren-1
/// 12` in the first: gren-1 starts the second with 4 of its 6 bases, in
/// `units` of the second game and in the exported list)". The quick
/// reference: "If using bases, then for each 6 hits received then 1 base
/// is removed"; the issue: "bases lost carry over".
#[test]
fn a_leuthen_unit_starts_the_second_battle_with_the_bases_the_first_left() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    let said = club.battle("leuthen-1", &["hits gren-1 12"], &[]);
    assert!(
        said.contains("gren-1 (Grenadier Battalion, advance guard (1st), Prussian army, Leuthen 1757): lost 2 of the 6 bases it started with: starts the next battle with 4/6"),
        "{said}"
    );
    assert!(said.contains("entry 1: hits gren-1 12"), "{said}");
    // The house default is named: the returning row is off unless named.
    assert!(
        said.contains("house row `returning` ([drums.returning] of campaign.toml), not applied"),
        "{said}"
    );

    club.ok(&["campaign", "battle", "c.toml", "leuthen-2"]);
    let armies = club.units("leuthen-2");
    let gren = unit(&armies, "gren-1").expect("gren-1 is in the second battle");
    assert_eq!(gren["left"], "4/6 bases (2 lost in earlier battles)");
    assert_eq!(
        unit(&armies, "gren-2").expect("gren-2")["left"],
        "6/6 bases"
    );
    // Naming it brings what is left of it: "50% or lower in strength than
    // when they started the game" is counted from its 4.
    let show = club.ok(&["--game", "leuthen-2.json", "show gren-1"]);
    assert!(show.contains("bases=4"), "{show}");
    assert!(
        show.contains("4 of 6 (100% of the 4 it started with"),
        "{show}"
    );

    club.ok(&["campaign", "export", "c.toml", "-o", "lists"]);
    let list = club.exported("lists", "leuthen-1757-prussian.toml");
    let gren = entry(&list, "unit", "gren-1");
    assert_eq!(gren["bases"].as_integer(), Some(6));
    assert_eq!(gren["lost"].as_integer(), Some(2));
    assert!(entry(&list, "unit", "gren-2").get("lost").is_none());
    // Every drumhead command takes the exported lists, and a new game of
    // them starts where the campaign stands.
    let checked = club.ok(&[
        "check",
        "lists/leuthen-1757-prussian.toml",
        "lists/leuthen-1757-austrian.toml",
    ]);
    assert!(checked.contains("Prussian army, Leuthen 1757"), "{checked}");
    let hits = club.ok(&[
        "--army",
        "lists/leuthen-1757-prussian.toml",
        "--army",
        "lists/leuthen-1757-austrian.toml",
        "hits 6 gren-1",
    ]);
    assert!(hits.contains("remove 1 base, 3 left"), "{hits}");

    let replayed = club.ok(&["replay", "c.toml"]);
    assert!(
        replayed.contains("replayed 2 battles and 1 close: the armies equal"),
        "{replayed}"
    );
}

/// A unit that lost every base is gone, and a general incapacitated is
/// gone ("generals killed, captured or incapacitated are gone"); the
/// returning house row, named on the close line, gives back a share.
#[test]
fn the_gone_are_held_out_and_a_named_house_row_returns_a_share() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    // aus-8 has 2 bases: 12 hits take both. "If a general is within 3BW
    // of a unit that receives 1 hit per base from shooting, then throw 1D6
    // and on a 6 the general has been incapacitated from a stray round":
    // back the next turn in the battle, but gone from the campaign.
    let said = club.battle(
        "first",
        &["hits aus-8 12", "risk shot nadasdy rolled 6", "next-turn"],
        &[],
    );
    assert!(
        said.contains("aus-8 (Heavy battery on the Kirchberg, Austrian army, Leuthen 1757): lost 2 of the 2 bases it started with: gone"),
        "{said}"
    );
    assert!(
        said.contains("nadasdy (General of Cavalry Count Nádasdy (left wing), Austrian army, Leuthen 1757): incapacitated in the battle: gone\n      entry 2: risk shot nadasdy rolled 6"),
        "{said}"
    );
    // 3 lost, half of them (rounded down) return: 1.
    let said = club.battle("second", &["hits gren-1 18"], &["returning"]);
    assert!(
        said.contains("lost 3 of the 6 bases it started with; 1 returned (returning wounded and missing): starts the next battle with 4/6"),
        "{said}"
    );
    assert!(
        said.contains("house row `returning` ([drums.returning] of campaign.toml), applied: named on the close line"),
        "{said}"
    );
    club.ok(&["campaign", "battle", "c.toml", "third"]);
    let armies = club.units("third");
    assert!(unit(&armies, "aus-8").is_none(), "aus-8 is gone");
    let notes = armies[1]["notes"].to_string();
    assert!(
        notes.contains("aus-8 (Heavy battery on the Kirchberg) is gone: every base lost by first"),
        "{notes}"
    );
    assert!(
        notes.contains(
            "nadasdy (General of Cavalry Count Nádasdy (left wing)) is gone: incapacitated at first"
        ),
        "{notes}"
    );
    let (code, _, err) = club.run(&["--game", "third.json", "hits 1 aus-8"]);
    assert_eq!(code, Some(1), "{err}");
    // "1D6 per general remaining on the board": three Austrian generals now.
    let initiative = club.ok(&["--game", "third.json", "--seed", "3", "initiative"]);
    assert!(
        initiative
            .lines()
            .any(|l| l.contains("Austria pool") && l.contains("3D6")),
        "{initiative}"
    );
    club.ok(&["replay", "c.toml"]);
}

const RAID: [&str; 2] = ["fiw-raid-colonial.toml", "fiw-raid-french.toml"];

/// The issue's second test: "a Musket Mayhem raid where a killed figure is
/// diced dead (absent from the next game) and another wounded (present)".
/// The rules: "After the battle, downed figures can be diced for, and are
/// wounded on a d6 roll of 1-4 and dead on a roll of 5-6."
#[test]
fn a_raid_dices_for_the_downed_dead_are_gone_and_wounded_are_back() {
    let club = Club::new();
    club.begin(&RAID);
    let said = club.battle(
        "raid-1",
        &[
            // Langy hits, results 5 >= armed 5: settler-3 is killed.
            "fight langy vs settler-3 rolled 3 3 5",
            // settler-4 hits, results 6 >= 5: marine-1 is killed.
            "fight marine-1 vs settler-4 vs mrs-van-alstyne rolled 2 4 6",
            // Mrs Van Alstyne runs from the table: she returns.
            "courage mrs-van-alstyne child cause=charged rolled 3 3 1 2 2",
        ],
        // One die a downed figure, in roster order: settler-3 (the
        // defenders' list comes first) 5, dead; marine-1 3, wounded.
        &["rolled", "5", "3"],
    );
    assert!(said.contains("settler-3 (Thomas Ward, hired man, Defenders of Van Alstyne's blockhouse, 1757): downed by enemy action: dead: gone"), "{said}");
    assert!(said.contains("the close's die: 5"), "{said}");
    assert!(said.contains("marine-1 (Marine fusilier Boucher, Raiders from Fort Carillon, 1757): downed by enemy action: wounded: returns for the next battle"), "{said}");
    assert!(said.contains("mrs-van-alstyne (Margaret Van Alstyne, Defenders of Van Alstyne's blockhouse, 1757): ran from the table: returns"), "{said}");
    assert!(said.contains("dice: 5 (entered), 3 (entered)"), "{said}");

    club.ok(&["campaign", "battle", "c.toml", "raid-2"]);
    let armies = club.units("raid-2");
    assert!(
        unit(&armies, "settler-3").is_none(),
        "the dead are not in the next game"
    );
    assert!(unit(&armies, "marine-1").is_some(), "the wounded are");
    assert!(
        unit(&armies, "mrs-van-alstyne").is_some(),
        "those that ran are"
    );
    let (code, _, err) = club.run(&[
        "--game",
        "raid-2.json",
        "fight settler-3 vs langy rolled 1 2 3",
    ]);
    assert_eq!(code, Some(1), "{err}");

    club.ok(&["campaign", "export", "c.toml", "-o", "lists"]);
    let colonial = club.exported("lists", "fiw-raid-colonial.toml");
    assert_eq!(
        entry(&colonial, "figure", "settler-3")["gone"].as_str(),
        Some("dead after raid-1")
    );
    let french = club.exported("lists", "fiw-raid-french.toml");
    assert_eq!(
        entry(&french, "figure", "marine-1")["wounded"].as_bool(),
        Some(true)
    );
    assert!(entry(&french, "figure", "marine-1").get("absent").is_none());
    club.ok(&["replay", "c.toml"]);
}

/// Too few dice entered for the close say how many it throws; the
/// `wounded-rest` house row keeps a wounded figure out one battle.
#[test]
fn a_close_says_how_many_dice_it_throws_and_a_house_row_rests_the_wounded() {
    let club = Club::new();
    club.begin(&RAID);
    club.ok(&["campaign", "battle", "c.toml", "raid-1"]);
    club.ok(&[
        "--game",
        "raid-1.json",
        "fight langy vs settler-3 rolled 3 3 5",
    ]);
    club.ok(&[
        "--game",
        "raid-1.json",
        "fight marine-1 vs settler-4 vs mrs-van-alstyne rolled 2 4 6",
    ]);
    let err = club.refused(&["campaign", "close", "c.toml", "raid-1", "rolled", "2"], 2);
    assert!(err.contains("the close throws 2 dice"), "{err}");
    let err = club.refused(
        &[
            "campaign", "close", "c.toml", "raid-1", "rest", "rolled", "2", "2",
        ],
        2,
    );
    assert!(err.contains("theirs are wounded-rest"), "{err}");
    let said = club.ok(&[
        "campaign",
        "close",
        "c.toml",
        "raid-1",
        "wounded-rest",
        "rolled",
        "2",
        "2",
    ]);
    assert!(said.contains("wounded: sits out the next battle"), "{said}");
    club.ok(&["campaign", "battle", "c.toml", "raid-2"]);
    let armies = club.units("raid-2");
    assert!(unit(&armies, "settler-3").is_none() && unit(&armies, "marine-1").is_none());
    let said = club.ok(&["campaign", "close", "c.toml", "raid-2"]);
    assert!(
        said.contains("sat out raid-2: returns for the next battle"),
        "{said}"
    );
    club.ok(&["campaign", "battle", "c.toml", "raid-3"]);
    let armies = club.units("raid-3");
    assert!(unit(&armies, "settler-3").is_some() && unit(&armies, "marine-1").is_some());
    club.ok(&["replay", "c.toml"]);
}

/// The issue's third test: "a Saber brigade that lost a step starts the
/// next battle reduced". Standard 2.5: "The front side shows the brigade
/// at its full, two-step strength. The reverse side, with a red band,
/// shows the brigade after it has suffered casualties".
#[test]
fn a_saber_brigade_that_lost_a_step_starts_the_next_battle_reduced() {
    let club = Club::quatre_bras();
    let said = club.battle(
        "qb-1",
        // Reille's 12-pounders (4) bombard Bijlandt: column +4, die 5: De;
        // Bijlandt MR 3, die 2 passes: a step lost, and a retreat.
        &[
            "bombard fr-art-reille vs al-bijlandt rolled 5 2",
            "leader-casualty picton participating rolled 5",
        ],
        &[],
    );
    assert!(said.contains("al-bijlandt (Bijlandt's brigade, Anglo-Allied Army, Quatre Bras 1815): lost a step: starts the next battle reduced"), "{said}");
    assert!(
        said.contains("entry 1: bombard fr-art-reille vs al-bijlandt rolled 5 2"),
        "{said}"
    );
    assert!(said.contains("picton"), "{said}");
    club.ok(&["campaign", "battle", "c.toml", "qb-2"]);
    let armies = club.units("qb-2");
    let bijlandt = unit(&armies, "al-bijlandt").expect("Bijlandt");
    assert_eq!(bijlandt["steps"], "1/2", "{bijlandt}");
    let show = club.ok(&["--game", "qb-2.json", "show al-bijlandt"]);
    assert!(show.contains("1 of 2 left"), "{show}");
    club.ok(&["campaign", "export", "c.toml", "-o", "lists"]);
    let allied = club.exported("lists", "quatre-bras-1815-allied.toml");
    assert_eq!(
        entry(&allied, "unit", "al-bijlandt")["reduced"].as_bool(),
        Some(true)
    );
    assert_eq!(
        entry(&allied, "leader", "picton")["gone"].as_str(),
        Some("killed at qb-1")
    );
    club.ok(&["replay", "c.toml"]);
}

/// The issue's fourth test: "`replay C.toml` passes, and fails naming the
/// battle and entry when a battle's journal is edited after its close".
#[test]
fn replay_fails_naming_the_battle_and_entry_of_a_journal_edited_after_its_close() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    club.battle("leuthen-1", &["hits gren-1 12", "hits aus-5 4"], &[]);
    club.ok(&["replay", "c.toml"]);
    let journal = club.path("leuthen-1.json.journal");
    let kept = std::fs::read_to_string(&journal).expect("the journal");

    // An entry's line changed: resolved again, it does not give what it
    // recorded.
    std::fs::write(
        &journal,
        kept.replacen("hits gren-1 12", "hits gren-1 18", 1),
    )
    .unwrap();
    let err = club.refused(&["replay", "c.toml"], 1);
    assert!(err.contains("battle leuthen-1"), "{err}");
    assert!(err.contains("entry 1 does not resolve to itself"), "{err}");
    // Nor does the next battle start from it.
    let err = club.refused(&["campaign", "battle", "c.toml", "leuthen-2"], 1);
    assert!(err.contains("battle leuthen-1"), "{err}");
    assert!(!club.path("leuthen-2.json").exists());

    // Changed so that it still resolves to itself: its journal line is
    // not the one the close recorded for the change it made.
    std::fs::write(
        &journal,
        kept.replacen("hits gren-1 12", "hits gren-1  12", 1),
    )
    .unwrap();
    let err = club.refused(&["replay", "c.toml"], 1);
    assert!(
        err.contains(
            "battle leuthen-1: entry 1 (leuthen-1.json.journal) is not the entry the close recorded"
        ),
        "{err}"
    );

    // The last entry, which made no change the campaign carries, changed
    // so that it still resolves to itself: the journal's head at the close
    // is not the one recorded.
    std::fs::write(&journal, kept.replacen("hits aus-5 4", "hits  aus-5 4", 1)).unwrap();
    let err = club.refused(&["replay", "c.toml"], 1);
    assert!(
        err.contains("battle leuthen-1: entry 2 is not the entry the close recorded"),
        "{err}"
    );

    // The last entry's line changed, its effects with it: the state after
    // it is not the one it recorded.
    let edited =
        kept.replacen("hits aus-5 4", "hits aus-5 6", 1)
            .replacen("\"hits\":4", "\"hits\":6", 1);
    std::fs::write(&journal, edited).unwrap();
    let err = club.refused(&["replay", "c.toml"], 1);
    assert!(
        err.contains("battle leuthen-1") && err.contains("entry 2"),
        "{err}"
    );

    // The journal as it was replays again; an entry added after the close
    // is not the campaign's, and said.
    std::fs::write(&journal, &kept).unwrap();
    club.ok(&["--game", "leuthen-1.json", "hits gren-2 6"]);
    let said = club.ok(&["replay", "c.toml"]);
    assert!(
        said.contains("added to its journal after the close"),
        "{said}"
    );
}

/// The issue's fifth test: "a battle closed twice, or a game of another
/// campaign, is refused".
#[test]
fn a_battle_closed_twice_or_a_game_of_another_campaign_is_refused() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    club.battle("leuthen-1", &["hits gren-1 12"], &[]);
    let err = club.refused(&["campaign", "close", "c.toml", "leuthen-1"], 2);
    assert!(err.contains("battle leuthen-1 was closed already"), "{err}");

    // Another campaign in a folder of its own, with a battle of the same
    // name: its game put in place of this campaign's.
    let other = Club::new();
    other.begin(&LEUTHEN);
    other.battle("leuthen-2", &["hits gren-2 12"], &[]);
    club.ok(&["campaign", "battle", "c.toml", "leuthen-2"]);
    for file in ["leuthen-2.json", "leuthen-2.json.journal"] {
        std::fs::copy(other.path(file), club.path(file)).expect("the other game");
    }
    let err = club.refused(&["campaign", "close", "c.toml", "leuthen-2"], 2);
    assert!(
        err.contains("not this campaign's battle leuthen-2"),
        "{err}"
    );
    // Nor is a battle the campaign never made, nor a second open one.
    let err = club.refused(&["campaign", "close", "c.toml", "leuthen-9"], 2);
    assert!(err.contains("no battle leuthen-9"), "{err}");
    let err = club.refused(&["campaign", "battle", "c.toml", "leuthen-3"], 2);
    assert!(err.contains("battle leuthen-2 is not closed yet"), "{err}");
}

/// A campaign file changed by hand is found, and one that is not a
/// campaign is refused by what it holds, whatever its name.
#[test]
fn a_campaign_edited_by_hand_is_refused() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    club.battle("leuthen-1", &["hits gren-1 12"], &[]);
    let path = club.path("c.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("lost = 2", "lost = 1", 1)).unwrap();
    let err = club.refused(&["campaign", "show", "c.toml"], 2);
    assert!(err.contains("changed after drumhead wrote it"), "{err}");
    let err = club.refused(&["replay", "c.toml"], 1);
    assert!(err.contains("battle leuthen-1: the list"), "{err}");
    std::fs::write(club.path("army.toml"), "drumhead_campaign = 1\n").unwrap();
    let err = club.refused(&["campaign", "show", "army.toml"], 2);
    assert!(err.contains("not a drumhead campaign file"), "{err}");
    // A campaign file is no output of anything else, not even with
    // --force, and not of a second campaign.
    let err = club.refused(
        &[
            "campaign",
            "new",
            "c.toml",
            "--army",
            "army.toml",
            "--force",
        ],
        2,
    );
    assert!(err.contains("is a drumhead campaign file"), "{err}");
    let (code, _, err) = club.run(&["--svg", "c.toml", "--force", "odds roll 2d6"]);
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("is a drumhead campaign file"), "{err}");
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("drumhead_campaign = 1")
    );
}

/// `campaign show --json`: each unit's history, battle by battle, with the
/// entries that changed it and the close's die.
#[test]
fn show_gives_each_change_with_its_battle_entry_and_die() {
    let club = Club::new();
    club.begin(&RAID);
    club.battle(
        "raid-1",
        &["fight langy vs settler-3 rolled 3 3 5"],
        &["rolled", "4"],
    );
    let out = club.ok(&["campaign", "show", "c.toml", "--json"]);
    let shown: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(shown["type"], "campaign");
    assert_eq!(shown["battles"][0]["name"], "raid-1");
    assert_eq!(shown["battles"][0]["dice"], serde_json::json!([4]));
    let history = &shown["armies"][0]["history"][0];
    assert_eq!(history["id"], "settler-3");
    assert_eq!(history["battle"], "raid-1");
    assert_eq!(history["die"], 4);
    assert_eq!(history["entries"][0]["entry"], 1);
    assert_eq!(
        history["entries"][0]["line"],
        "fight langy vs settler-3 rolled 3 3 5"
    );
    assert_eq!(
        history["what"],
        "downed by enemy action: wounded: returns for the next battle"
    );
}

/// A campaign file from another club may be hostile: a battle named as a
/// path is refused before anything is done with it, and nothing outside
/// the campaign's folder is read or written.
#[test]
fn a_battle_named_as_a_path_is_refused() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    club.battle("leuthen-1", &["hits gren-1 12"], &[]);
    let path = club.path("c.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let hostile = text.replace("name = \"leuthen-1\"", "name = \"../leuthen-1\"");
    assert_ne!(hostile, text);
    std::fs::write(&path, hostile).unwrap();
    for args in [
        &["campaign", "show", "c.toml"][..],
        &["campaign", "battle", "c.toml", "next"],
        &["replay", "c.toml"],
    ] {
        let (code, _, err) = club.run(args);
        assert_ne!(code, Some(0), "{args:?}");
        assert!(err.contains("is not a battle's name"), "{args:?}: {err}");
    }
    assert!(!club.path("next.json").exists());
}

/// Drums and Muskets, item by item of the issue: "hits short of a base are
/// dropped; broken units return with the bases they had". The quick
/// reference: "If using bases, then for each 6 hits received then 1 base
/// is removed": 13 hits take 2 of gren-1's 6 bases and leave 1 hit, which
/// the next battle does not carry. The jaeger (2 bases) take 5 hits, lose
/// no base, and break ("resilience … lost-round rolled 2 1", as in the
/// evening at Leuthen): they return with both bases, not broken.
#[test]
fn hits_short_of_a_base_are_dropped_and_a_broken_unit_returns_whole() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    let said = club.battle(
        "first",
        &[
            "hits gren-1 13",
            "hits jaeger 5",
            "resilience jaeger melee lost-round rolled 2 1",
        ],
        &[],
    );
    assert!(
        said.contains("gren-1 (Grenadier Battalion, advance guard (1st), Prussian army, Leuthen 1757): lost 2 of the 6 bases it started with: starts the next battle with 4/6"),
        "{said}"
    );
    assert!(
        said.contains("jaeger (Feldjäger zu Fuß, Prussian army, Leuthen 1757): broke: returns with the bases it had\n      entry 3: resilience jaeger melee lost-round rolled 2 1"),
        "{said}"
    );
    club.ok(&["campaign", "battle", "c.toml", "second"]);
    let armies = club.units("second");
    let gren = unit(&armies, "gren-1").expect("gren-1");
    assert_eq!(gren["left"], "4/6 bases (2 lost in earlier battles)");
    assert_eq!(gren["carried"], "0", "the 13th hit is dropped");
    let jaeger = unit(&armies, "jaeger").expect("the jaeger return");
    assert_eq!(jaeger["left"], "2/2 bases");
    assert_eq!(jaeger["carried"], "0");
    assert_eq!(jaeger["state"], "", "no longer broken");
    club.ok(&["campaign", "export", "c.toml", "-o", "lists"]);
    let list = club.exported("lists", "leuthen-1757-prussian.toml");
    assert_eq!(entry(&list, "unit", "gren-1")["lost"].as_integer(), Some(2));
    assert!(entry(&list, "unit", "jaeger").get("lost").is_none());
    assert!(entry(&list, "unit", "jaeger").get("gone").is_none());
    club.ok(&["replay", "c.toml"]);
}

/// Musket Mayhem: "heroes keep their tokens as the list gives them,
/// refreshed". The rules: "heroes could be represented by some
/// combination of save tokens (canceling a death or morale failure)".
/// Langy hits Uncas (results 6 ≥ armed 5): Uncas's one save token cancels
/// the death. The next battle gives it back.
#[test]
fn a_heroes_spent_token_is_his_again_in_the_next_battle() {
    let club = Club::new();
    club.begin(&RAID);
    let said = club.battle("raid-1", &["fight langy vs uncas rolled 6 1 6"], &[]);
    assert!(
        said.contains("nothing: every list stays as it was"),
        "{said}"
    );
    let show = club.ok(&["--game", "raid-1.json", "show uncas"]);
    assert!(show.contains("0 of 1 save(s)"), "{show}");
    club.ok(&["campaign", "battle", "c.toml", "raid-2"]);
    let show = club.ok(&["--game", "raid-2.json", "show uncas"]);
    assert!(show.contains("1 of 1 save(s)"), "{show}");
    club.ok(&["replay", "c.toml"]);
}

/// Musket & Saber: "eliminated units and killed leaders are gone; units
/// captured are gone; ineffective and disrupted units recover; a house row
/// may allow step recovery between battles". Standard 9.3 7: "a
/// victorious cavalry may attempt to capture a routed defender … Roll a
/// die; if the result is less than or equal to the charging cavalry's
/// regular combat factor, the defenders are captured"; 9.3 8: "Cavalry
/// always becomes ineffective at the end of a charge".
#[test]
fn a_saber_unit_eliminated_or_captured_is_gone_and_the_rest_recover() {
    let club = Club::quatre_bras();
    let said = club.battle(
        "qb-1",
        &[
            // Bijlandt loses both steps: eliminated.
            "bombard fr-art-reille vs al-bijlandt rolled 5 2",
            "bombard fr-art-reille vs al-bijlandt rolled 5 2",
            // Wathiez (CF 4) rolls 1: Best is captured; Wathiez's charge
            // ends, ineffective.
            "capture fr-wathiez vs al-best rolled 1",
            // Pack loses a step; the close names the house row.
            "bombard fr-art-reille vs al-pack rolled 5 2",
        ],
        &["step-recovery"],
    );
    assert!(said.contains("al-bijlandt (Bijlandt's brigade, Anglo-Allied Army, Quatre Bras 1815): eliminated: gone"), "{said}");
    assert!(
        said.contains("al-best (Best's Hanoverian brigade, Anglo-Allied Army, Quatre Bras 1815): captured: gone\n      entry 3: capture fr-wathiez vs al-best rolled 1"),
        "{said}"
    );
    assert!(said.contains("al-pack (Pack's brigade (1st, 42nd, 44th, 92nd), Anglo-Allied Army, Quatre Bras 1815): lost a step, recovered between battles (house row): starts the next battle at full strength"), "{said}");
    assert!(
        said.contains("house row `step-recovery` ([saber.step_recovery] of campaign.toml), applied: named on the close line"),
        "{said}"
    );
    assert!(
        !said.contains("fr-wathiez ("),
        "ineffective carries nothing: {said}"
    );

    club.ok(&["campaign", "battle", "c.toml", "qb-2"]);
    let armies = club.units("qb-2");
    assert!(unit(&armies, "al-bijlandt").is_none());
    assert!(unit(&armies, "al-best").is_none());
    assert_eq!(unit(&armies, "al-pack").expect("Pack")["steps"], "2/2");
    let wathiez = unit(&armies, "fr-wathiez").expect("Wathiez");
    assert_eq!(wathiez["state"], "", "the ineffective recover");
    let notes = armies[0]["notes"].to_string();
    assert!(
        notes.contains("al-best (Best's Hanoverian brigade) is gone: captured at qb-1"),
        "{notes}"
    );
    club.ok(&["campaign", "export", "c.toml", "-o", "lists"]);
    let allied = club.exported("lists", "quatre-bras-1815-allied.toml");
    assert_eq!(
        entry(&allied, "unit", "al-best")["gone"].as_str(),
        Some("captured at qb-1")
    );
    assert_eq!(
        entry(&allied, "unit", "al-bijlandt")["gone"].as_str(),
        Some("eliminated at qb-1")
    );
    assert!(entry(&allied, "unit", "al-pack").get("reduced").is_none());
    club.ok(&["replay", "c.toml"]);
}

/// A captured unit is out of the game: nothing more is resolved on it, and
/// a capture that fails takes no one. Only one defender is captured ("A
/// single cavalry unit … may capture only one defending unit").
#[test]
fn a_captured_saber_unit_is_out_of_the_game() {
    let club = Club::quatre_bras();
    club.ok(&["campaign", "battle", "c.toml", "qb-1"]);
    let said = club.ok(&[
        "--game",
        "qb-1.json",
        "capture fr-hubert vs al-halkett rolled 6",
    ]);
    assert!(!said.contains("al-halkett is captured"), "{said}");
    let said = club.ok(&[
        "--game",
        "qb-1.json",
        "capture fr-wathiez vs al-best rolled 1",
    ]);
    assert!(said.contains("game: al-best is captured (9.3 7)"), "{said}");
    let show = club.ok(&["--game", "qb-1.json", "show al-best"]);
    assert!(
        show.contains("is captured: out of the game (9.3 7)"),
        "{show}"
    );
    let (code, _, err) = club.run(&[
        "--game",
        "qb-1.json",
        "bombard fr-art-reille vs al-best rolled 5 2",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("is captured: out of the game"), "{err}");
    let (code, _, err) = club.run(&[
        "--game",
        "qb-1.json",
        "capture fr-guiton vs al-pack vs al-kempt rolled 1",
    ]);
    assert_ne!(code, Some(0), "{err}");
    let armies = club.units("qb-1");
    assert_eq!(unit(&armies, "al-halkett").expect("Halkett")["state"], "");
    assert_eq!(unit(&armies, "al-best").expect("Best")["state"], "captured");
}

/// A brigade reduced in one battle and eliminated in the next, and a
/// figure wounded in one raid and dead after the next: the exported lists
/// say only `gone`, and every command takes them.
#[test]
fn the_reduced_and_the_wounded_that_are_lost_later_are_only_gone() {
    let club = Club::quatre_bras();
    let bombard = "bombard fr-art-reille vs al-bijlandt rolled 5 2";
    club.battle("qb-1", &[bombard], &[]);
    let said = club.battle("qb-2", &[bombard], &[]);
    assert!(
        said.contains("al-bijlandt (Bijlandt's brigade, Anglo-Allied Army, Quatre Bras 1815): eliminated: gone"),
        "{said}"
    );
    club.ok(&["campaign", "export", "c.toml", "-o", "lists"]);
    let allied = club.exported("lists", "quatre-bras-1815-allied.toml");
    let bijlandt = entry(&allied, "unit", "al-bijlandt");
    assert_eq!(bijlandt["gone"].as_str(), Some("eliminated at qb-2"));
    assert!(bijlandt.get("reduced").is_none(), "{bijlandt:?}");
    club.ok(&["check", "lists/quatre-bras-1815-allied.toml"]);
    club.ok(&["replay", "c.toml"]);

    let raid = Club::new();
    raid.begin(&RAID);
    let fight = "fight marine-1 vs settler-4 vs mrs-van-alstyne rolled 2 4 6";
    // "wounded on a d6 roll of 1-4 and dead on a roll of 5-6".
    raid.battle("raid-1", &[fight], &["rolled", "3"]);
    let said = raid.battle("raid-2", &[fight], &["rolled", "6"]);
    assert!(said.contains("marine-1 (Marine fusilier Boucher, Raiders from Fort Carillon, 1757): downed by enemy action: dead: gone"), "{said}");
    raid.ok(&["campaign", "export", "c.toml", "-o", "lists"]);
    let french = raid.exported("lists", "fiw-raid-french.toml");
    let marine = entry(&french, "figure", "marine-1");
    assert_eq!(marine["gone"].as_str(), Some("dead after raid-2"));
    assert!(marine.get("wounded").is_none(), "{marine:?}");
    raid.ok(&["check", "lists/fiw-raid-french.toml"]);
    raid.ok(&["replay", "c.toml"]);
}

/// The campaign keys are checked like every other key: each bad value is
/// refused with the key, where it is, and what to write instead.
#[test]
fn a_lists_campaign_keys_that_contradict_it_are_refused() {
    let club = Club::new();
    // (shipped list, the entry's `id = …` line, key lines put before it,
    // what the refusal says)
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "leuthen-1757-prussian.toml",
            "id = \"gren-1\"",
            "lost = 7",
            "unit[1].lost (unit \"gren-1\"): 7 bases lost, but the unit has 6; expected at most 6",
        ),
        (
            "leuthen-1757-prussian.toml",
            "id = \"gren-1\"",
            "lost = 0",
            "unit[1].lost (unit \"gren-1\"): 0 is out of range",
        ),
        (
            "quatre-bras-1815-allied.toml",
            "id = \"al-pack\"",
            "reduced = true\ngone = \"eliminated at qb-1\"",
            "reduced (unit \"al-pack\"): a unit gone for good starts no battle, on either side; keep `gone` or `reduced`, not both",
        ),
        (
            "quatre-bras-1815-allied.toml",
            "id = \"al-brunswick-light\"",
            "reduced = true",
            "only a two-step infantry brigade has a reduced side to start on (2.5)",
        ),
        (
            "fiw-raid-french.toml",
            "id = \"marine-1\"",
            "wounded = true\ngone = \"dead after raid-1\"",
            "wounded (figure \"marine-1\"): a figure gone for good (dead) is not wounded; keep `gone` or `wounded`, not both",
        ),
        (
            "fiw-raid-french.toml",
            "id = \"marine-1\"",
            "absent = 1\ngone = \"dead after raid-1\"",
            "keep `gone` or `absent`, not both",
        ),
        (
            "fiw-raid-french.toml",
            "id = \"marine-1\"",
            "wounded = \"yes\"",
            "wounded (figure \"marine-1\"): expected true or false",
        ),
    ];
    for (i, (list, at, keys, says)) in cases.iter().enumerate() {
        let text = std::fs::read_to_string(shipped(list)).expect("the shipped list");
        assert!(text.contains(at), "{list}: {at}");
        let bad = text.replacen(at, &format!("{keys}\n{at}"), 1);
        let file = format!("bad-{i}.toml");
        std::fs::write(club.path(&file), bad).unwrap();
        let err = club.refused(&["check", &file], 1);
        assert!(err.contains(says), "{list} with {keys:?}: {err}");
        assert!(err.contains(&format!("{file}:")), "where: {err}");
    }
}

/// Musket & Saber QuickPlay carries as the standard rules do: "a brigade
/// that lost a step starts reduced" ([saber-quickplay] of campaign.toml).
/// The Quatre Bras lists, played under QuickPlay (whose artillery has a
/// morale rating: "every unit has one", QuickPlay 2.3).
#[test]
fn a_quickplay_brigade_that_lost_a_step_starts_the_next_battle_reduced() {
    let club = Club::new();
    for side in ["allied", "french"] {
        let text = std::fs::read_to_string(shipped(&format!("quatre-bras-1815-{side}.toml")))
            .expect("the shipped list")
            .replace("rules = \"saber\"", "rules = \"saber-quickplay\"")
            .replace("type = \"artillery\"\n", "type = \"artillery\"\nmr = 6\n");
        std::fs::write(club.path(&format!("{side}.toml")), text).unwrap();
    }
    club.ok(&[
        "campaign",
        "new",
        "c.toml",
        "--army",
        "allied.toml",
        "--army",
        "french.toml",
    ]);
    let said = club.battle(
        "qp-1",
        &["bombard fr-art-reille vs al-pack rolled 5 2"],
        &[],
    );
    assert!(said.contains("al-pack (Pack's brigade (1st, 42nd, 44th, 92nd), Anglo-Allied Army, Quatre Bras 1815): lost a step: starts the next battle reduced"), "{said}");
    assert!(
        said.contains("([saber-quickplay] of campaign.toml)"),
        "{said}"
    );
    club.ok(&["campaign", "battle", "c.toml", "qp-2"]);
    let armies = club.units("qp-2");
    assert_eq!(unit(&armies, "al-pack").expect("Pack")["steps"], "1/2");
    club.ok(&["replay", "c.toml"]);
}

/// A close holds the battle's lock, the lock on its journal that every
/// writer takes: while another process writes the battle, the close is
/// refused naming it and records nothing; with `--wait` it waits for it.
#[test]
fn a_close_takes_the_battles_lock_on_its_journal() {
    let club = Club::new();
    club.begin(&LEUTHEN);
    club.ok(&["campaign", "battle", "c.toml", "leuthen-1"]);
    club.ok(&["--game", "leuthen-1.json", "hits gren-1 12"]);
    let held = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(club.path("leuthen-1.json.journal"))
        .expect("the battle's journal");
    held.lock().expect("the lock");
    let before = std::fs::read_to_string(club.path("c.toml")).unwrap();
    let (code, _, err) = club.run(&["campaign", "close", "c.toml", "leuthen-1"]);
    assert_ne!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("being written by process {}", std::process::id())),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(club.path("c.toml")).unwrap(),
        before,
        "nothing is recorded"
    );
    let waiting = std::thread::spawn({
        let dir = club.dir.to_path_buf();
        move || {
            let mut cmd = Command::new(common::BIN);
            cmd.current_dir(dir)
                .args(["--wait", "campaign", "close", "c.toml", "leuthen-1"]);
            common::run_command(cmd, "")
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    held.unlock().expect("the lock is let go");
    let (code, out, err) = waiting.join().expect("the waiting close");
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("closed battle leuthen-1"), "{out}");
}

/// The issue: "a house table `campaign.toml` for what the texts leave to
/// the players, named in the answer". A `campaign.toml` in `--tables DIR`
/// need name only what it changes: here the returning row, every base
/// back and at every close, where the embedded table returns none unless
/// the close names it (gren-1 then starts with 4/6).
#[test]
fn a_house_campaign_toml_changes_what_a_close_carries() {
    let club = Club::new();
    club.house(
        "campaign.toml",
        "[drums.returning]\npercent = 100\ndefault = true\n",
    );
    let said = club.ok(&Club::new_args(&LEUTHEN, &["--tables", "house"]));
    assert!(
        said.contains("house tables: campaign.toml (from house/campaign.toml)"),
        "{said}"
    );
    // The campaign keeps the house table's text, as a game's journal does.
    let kept = std::fs::read_to_string(club.path("c.toml")).expect("the campaign file");
    assert!(kept.contains("percent = 100"), "{kept}");

    let said = club.battle("first", &["hits gren-1 12"], &[]);
    assert!(
        said.contains(
            "lost 2 of the 6 bases it started with; 2 returned (returning wounded and missing)\n"
        ),
        "{said}"
    );
    assert!(
        said.contains("house row `returning` ([drums.returning] of campaign.toml), applied: the house default (its `default = true`)"),
        "{said}"
    );
    assert!(said.contains("(percent = 100)"), "{said}");
    assert!(
        said.contains("house tables: campaign.toml (from house/campaign.toml)"),
        "{said}"
    );
    club.ok(&["campaign", "battle", "c.toml", "second"]);
    let armies = club.units("second");
    let gren = unit(&armies, "gren-1").expect("gren-1 is in the second battle");
    assert_eq!(gren["left"], "6/6 bases");
    // The campaign's own tables, wherever it is replayed: the house folder
    // gone, the close comes out the same.
    std::fs::remove_dir_all(club.path("house")).expect("the house folder removed");
    club.ok(&["replay", "c.toml"]);
}

/// A bad value in a house `campaign.toml` is refused before anything is
/// written, naming the file, the line and column, and what was expected;
/// a section that is no rule book's, with the one it most likely meant.
#[test]
fn a_bad_value_in_a_house_campaign_toml_is_refused_with_its_file_and_line() {
    let club = Club::new();
    let args = Club::new_args(&LEUTHEN, &["--tables", "house"]);
    let refused = |text: &str| {
        club.house("campaign.toml", text);
        let err = club.refused(&args, 2);
        assert!(!club.path("c.toml").exists(), "nothing written");
        err
    };
    let err = refused("[drums.returning]\npercent = \"half\"\n");
    assert!(
        err.contains("house/campaign.toml:2:11: invalid type: string \"half\", expected i64"),
        "{err}"
    );
    let err = refused("[drums.returning]\npercent = 150\n");
    assert!(
        err.contains(
            "house/campaign.toml: drums.returning.percent: must be a share in percent, 0 to 100"
        ),
        "{err}"
    );
    let err = refused("[saber-quickplay.step_recovery]\nkeyword = \"Step Back\"\n");
    assert!(
        err.contains("house/campaign.toml: saber-quickplay.step_recovery.keyword: `Step Back` is not a keyword a close line can name"),
        "{err}"
    );
    let err = refused("[drum.returning]\npercent = 100\n");
    assert!(
        err.contains("house/campaign.toml:1:2: `drum` is no section of campaign.toml; did you mean `[drums]`?"),
        "{err}"
    );
    // A row outside every section is in none.
    let err = refused("percent = 100\n");
    assert!(
        err.contains("house/campaign.toml:1:1: `percent` is no section of campaign.toml (its sections are the rule books' ids: drums, mayhem, saber, saber-quickplay)"),
        "{err}"
    );
    // `drumhead check` says the same of the file alone.
    club.house("campaign.toml", "[drum.returning]\npercent = 100\n");
    let (code, _, err) = club.run(&["check", "house/campaign.toml"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("house/campaign.toml:1:2: `drum` is no section"),
        "{err}"
    );
    club.house("campaign.toml", "[mayhem.wounded_rest]\nbattles = 2\n");
    assert!(
        club.ok(&["check", "house/campaign.toml"])
            .contains("house/campaign.toml: tables ok")
    );
}
