//! A scripted evening of Musket Mayhem (shared/rules/musket-mayhem.txt):
//! the French and Indian War raid with the shipped lists, two turns of
//! fire, hand-to-hand, courage and the rest, every die entered, through
//! batch mode into a game file. The final roster — the game file's state
//! and the `units` table — is compared with an expectation worked out by
//! hand from the rules, line by line in the comments below.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use drumhead::game::{Game, Journal};

/// The evening, one line a resolution (and the game's own verbs). The hand
/// computation of each line is beside it.
const SCRIPT: &str = r#"
# ---- turn 1
# "Players (sides) dice for initiative each turn": 5 against 2, side a.
initiative rolled 5 2
# The war party comes on as a group: "2d6": 3 + 4 = 7".
move war-chief group rolled 3 4
# Hawkeye, Killdeer at 30" (rifle 36", over half: -1): skill 4 - 1 + 2
# (his bonus with the rifle) = 5 >= 4 in the open: a hit. Impact 5 + 1
# (rifles) + 1 (his bonus) = 7 >= 6: the war chief is killed.
fire hawkeye 30" at war-chief rolled 4 5
# "If a company or warband's leader killed": the warriors check against
# their highest courage, 3: the die 3 passes.
courage warrior-1 warrior-2 warrior-3 warrior-4 cause=leader-killed rolled 3
# warrior-1 at 20" (musket 24", over half: -1) at settler-1 in soft cover
# (5+): 5 - 1 = 4 misses; one die only.
fire warrior-1 20" soft at settler-1 rolled 5
# warrior-2 at 10" (within half): 4 hits; 6 + 1 (muskets) = 7: settler-1
# is killed.
fire warrior-2 10" at settler-1 rolled 4 6
# "A figure in a group is killed": the blockhouse group, highest courage
# 4 (van-alstyne, a leader): 2 passes.
courage van-alstyne settler-2 swivel cause=casualty rolled 2
# The swivel's canister at 12" (36", within half) at four figures, three
# named: 4+ to hit. warrior-1 4 hits, warrior-2 1 misses, warrior-3 5
# hits, the fourth (of no list) 2 misses; impacts: warrior-1 3 + 2
# (canister) = 5, a courage check; warrior-3 4 + 2 = 6, killed. "When gun
# fires, place 3 smoke puffs."
fire swivel 12" figures=4 at warrior-1 warrior-2 warrior-3 rolled 4 1 5 2 3 4
# warrior-1 hit by fire, courage 3: 5 fails; the individual die 2 <= 3:
# he retreats 2d6 = 3 + 4 = 7".
courage warrior-1 cause=fire rolled 5 2 3 4
# Uncas (leader +1, shock +1, his melee bonus +1) 2 + 3 = 5 against
# warrior-4 (shock +1) 5 + 1 = 6: warrior-4 hits; results 4 < armed 5:
# Uncas checks courage.
fight uncas vs warrior-4 rolled 2 5 4
# Uncas, courage 4: 5 fails — his one save token cancels the failure.
courage uncas cause=charged rolled 5
# Langy (leader +1) 3 + 1 = 4 against settler-3 3: Langy hits; results
# 5 >= armed 5: settler-3 is killed.
fight langy vs settler-3 rolled 3 3 5
# marine-1 (bayonet +1) 2 + 1 = 3 against settler-4 4: settler-4 hits,
# results 6 >= 5: marine-1 is killed, and his combat with Mrs Van Alstyne
# is cancelled ("any combats not yet fought are cancelled").
fight marine-1 vs settler-4 vs mrs-van-alstyne rolled 2 4 6
end-turn
next-turn
# ---- turn 2
# A tie: "repeat the previous turn's sequence".
initiative rolled 3 3
# Killdeer is unloaded since turn 1: "A gunpowder weapon becomes unloaded
# … and can be reloaded as an action by a figure which does not move
# during its own turn". Hawkeye stands and reloads.
reload hawkeye
# Uncas moves alone: "3d6": If moving as an individual" = 2 + 3 + 4: 9".
# His save token does not make him one of the "specially designated
# heroes" of the +1d6 bonus: his list does not designate him.
move uncas individual rolled 2 3 4
# At 40" Killdeer (36") is out of range: no dice.
fire hawkeye 40" at langy
# At 20" (over half): 6 - 1 + 2 = 7 hits; 6 + 1 + 1 = 8 would kill
# Langy: his save token cancels the death, and he checks courage.
fire hawkeye 20" at langy rolled 6 6
# Langy, courage 5: 4 passes.
courage langy cause=fire rolled 4
# Langy's musket at 10": 4 hits; 6 + 1 = 7 would kill Hawkeye: his first
# save token is spent.
fire langy 10" at hawkeye rolled 4 6
# Hawkeye, courage 5: 6 fails — his second save token cancels it.
courage hawkeye cause=fire rolled 6
# marine-2 at 10": 5 hits; 5 + 1 = 6: Hawkeye, with no token left, is
# killed.
fire marine-2 10" at hawkeye rolled 5 5
# settler-2 6 against marine-3 (bayonet +1) 1 + 1 = 2: settler-2 hits,
# results 5 >= armed 5: marine-3 is killed.
fight settler-2 vs marine-3 rolled 6 1 5
# marine-2, courage 3, after a casualty: 6 fails; the individual die 4 > 3:
# he runs off the board.
courage marine-2 cause=casualty rolled 6 4
# The swivel still carries its 3 smoke puffs: its crew — the gun's own
# figure, settler-2 and van-alstyne, a leader "counting as two figures":
# 4 >= 3 — removes one ("may remove 1 per turn"): 2 are left.
reload swivel settler-2 van-alstyne
# settler-2's musket at 10": 5 hits; 6 + 1 = 7: warrior-2 is killed.
fire settler-2 10" at warrior-2 rolled 5 6
# militia-1 climbs the stockade on a 6.
climb militia-1 rolled 6
# militia-3's fire-pot: 4 is not a 6.
ignite militia-3 rolled 4
# Searching the farm: value 5 rolled 5, difficulty 2 rolled 3: found.
search value=5 difficulty=2 rolled 5 3
# Mrs Van Alstyne and Annetje are charged: highest courage 2, 3 fails.
# Mrs Van Alstyne 3 > 2 runs off; Annetje 1 <= 2 retreats 2 + 2 = 4".
courage mrs-van-alstyne child cause=charged rolled 3 3 1 2 2
# Uncas (+3) 4 + 3 = 7 against militia-2 4: Uncas hits; results 2 + 1
# (melee) = 3 < specialist 4: militia-2 checks courage.
fight uncas vs militia-2 rolled 4 4 2
# Van Alstyne's musket at 5" at militia-1 behind the stockade (hard, 6):
# 6 hits; 5 + 1 = 6: militia-1 is killed.
fire van-alstyne 5" hard at militia-1 rolled 6 5
# A scenario skill of 4: 4 succeeds.
skill 4 rolled 4
# After the battle: "wounded on a d6 roll of 1-4 and dead on a roll of
# 5-6". Hawkeye 3: wounded; settler-1 6: dead; two more of no list, 1
# and 5: one wounded, one dead.
post-battle hawkeye rolled 3
post-battle settler-1 rolled 6
post-battle 2 rolled 1 5
"#;

/// What became of each figure, by hand from the lines above: courage,
/// weapon (unloaded once fired and not reloaded, with a gun's smoke puffs
/// left, for a figure still in play), group, saves and rerolls left, fate — the
/// `units` columns after id and name.
const ROSTER: &[(&str, [&str; 6])] = &[
    (
        "van-alstyne",
        ["4", "musket (unloaded)", "blockhouse", "—", "—", "in play"],
    ),
    (
        "settler-1",
        [
            "3",
            "musket",
            "blockhouse",
            "—",
            "—",
            "killed — after the battle: dead",
        ],
    ),
    (
        "settler-2",
        ["3", "musket (unloaded)", "blockhouse", "—", "—", "in play"],
    ),
    ("settler-3", ["3", "musket", "farm", "—", "—", "killed"]),
    ("settler-4", ["3", "—", "farm", "—", "—", "in play"]),
    ("mrs-van-alstyne", ["2", "—", "farm", "—", "—", "ran off"]),
    ("child", ["2", "—", "farm", "—", "—", "in play"]),
    (
        "swivel",
        [
            "3",
            "canister (2 smoke puff(s))",
            "blockhouse",
            "—",
            "—",
            "in play",
        ],
    ),
    (
        "hawkeye",
        [
            "5",
            "rifle",
            "—",
            "0/2",
            "—",
            "killed — after the battle: wounded",
        ],
    ),
    ("uncas", ["4", "musket", "—", "0/1", "—", "in play"]),
    (
        "langy",
        ["5", "musket (unloaded)", "marines", "0/1", "—", "in play"],
    ),
    ("marine-1", ["3", "musket", "marines", "—", "—", "killed"]),
    ("marine-2", ["3", "musket", "marines", "—", "—", "ran off"]),
    ("marine-3", ["3", "musket", "marines", "—", "—", "killed"]),
    ("militia-1", ["3", "musket", "militia", "—", "—", "killed"]),
    ("militia-2", ["3", "musket", "militia", "—", "—", "in play"]),
    ("militia-3", ["3", "—", "militia", "—", "—", "in play"]),
    ("war-chief", ["4", "musket", "warriors", "—", "—", "killed"]),
    (
        "warrior-1",
        ["3", "musket (unloaded)", "warriors", "—", "—", "in play"],
    ),
    ("warrior-2", ["3", "musket", "warriors", "—", "—", "killed"]),
    ("warrior-3", ["3", "bow", "warriors", "—", "—", "killed"]),
    ("warrior-4", ["3", "—", "warriors", "—", "—", "in play"]),
];

/// The lines that are resolutions (not comments nor the game's verbs).
fn resolutions() -> usize {
    SCRIPT
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| !matches!(*l, "end-turn" | "next-turn" | "units"))
        .count()
}

/// The `units` table's rows, by id: every cell after the id.
fn units_rows(text: &str) -> BTreeMap<String, Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| {
            let cells: Vec<String> = l
                .trim_matches('│')
                .split('┆')
                .map(|c| c.trim().to_string())
                .collect();
            (cells[0].clone(), cells[1..].to_vec())
        })
        .collect()
}

#[test]
fn an_evening_of_musket_mayhem_ends_with_the_hand_computed_roster() {
    assert!(resolutions() >= 30, "{} resolutions", resolutions());
    let dir = common::game::temp_dir("mayhem-evening");
    let game = dir.join("raid.json");
    let armies = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let mut args: Vec<String> = ["fiw-raid-colonial.toml", "fiw-raid-french.toml"]
        .iter()
        .flat_map(|f| ["--army".to_string(), armies.join(f).display().to_string()])
        .collect();
    args.extend(["--game".into(), game.display().to_string()]);
    let (code, stdout, stderr) = common::run(&args, SCRIPT);
    assert_eq!(code, Some(0), "{stderr}");
    // Only the note that the game was new.
    assert!(
        stderr.lines().all(|l| l.contains("a new game was created")),
        "{stderr}"
    );

    // Every resolution is in the journal, with the turn it was made in.
    let (_, entries, state) = Game::read_file(&game).unwrap();
    assert_eq!(entries as usize, resolutions() + 1, "and one next-turn");
    assert_eq!(state["turn"], 2);
    let figures = &state["mayhem"]["figures"];
    for (id, [_, _, _, saves, _, fate]) in ROSTER {
        let f = &figures[*id];
        assert_eq!(f["fate"], *fate, "{id}");
        let killed = fate.starts_with("killed");
        assert_eq!(f["killed"], killed, "{id}");
        assert_eq!(f["ran_off"], *fate == "ran off", "{id}");
        let left: i64 = saves
            .split('/')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert_eq!(f["saves_left"], left, "{id}");
    }
    assert_eq!(figures.as_object().map(|m| m.len()), Some(ROSTER.len()));
    // Hawkeye spent both his tokens, Langy and Uncas their one.
    assert_eq!(figures["hawkeye"]["saves_spent"], 2);
    assert_eq!(figures["hawkeye"]["after_battle"], "wounded");
    assert_eq!(figures["settler-1"]["after_battle"], "dead");
    assert_eq!(figures["langy"]["saves_spent"], 1);
    assert_eq!(figures["uncas"]["saves_spent"], 1);
    // The markers the table shows: the swivel's 3 puffs less the one its
    // crew removed; the muskets fired and not reloaded.
    assert_eq!(figures["swivel"]["smoke"], 2);
    for id in ["van-alstyne", "settler-2", "langy", "warrior-1"] {
        assert_eq!(figures[id]["unloaded"], true, "{id}");
    }
    assert_ne!(figures["uncas"]["unloaded"], true);

    // The same roster in the `units` table of the reopened game.
    let (code, units, stderr) = common::run(
        &["--game".to_string(), game.display().to_string()],
        "units\n",
    );
    assert_eq!(code, Some(0), "{stderr}");
    let rows = units_rows(&units);
    assert!(units.starts_with("turn 2"), "{units}");
    for (id, cells) in ROSTER {
        let row = rows.get(*id).unwrap_or_else(|| panic!("{id} in {units}"));
        // name, then the six columns.
        assert_eq!(&row[1..], cells, "{id}");
    }
    assert_eq!(rows.len(), ROSTER.len() + 1, "and the header (`id`)");

    // Some of the evening as it was told.
    for said in [
        "game: war-chief is killed",
        "game: warrior-3 is killed",
        "game: marine-1 is killed",
        // Issue 26: the figure is named, not "A".
        "marine-1 is killed: the 1 combat(s) not yet fought are cancelled",
        "out of range: rifle reaches 36\"; no dice are rolled",
        "game: langy spends a save token",
        "game: hawkeye spends a save token",
        "game: hawkeye is killed",
        "game: marine-2 runs off the board",
        "figure 4 is not named after `at`: its result falls on no figure of the game.",
        "game: hawkeye reloads: its weapon is loaded",
        "game: swivel's crew removes a smoke puff",
        "war-chief was killed this turn, a leader",
        "game: mrs-van-alstyne runs off the board",
        "game: after the battle hawkeye is wounded",
        "1 wounded, 1 dead",
        "end of turn (Musket Mayhem)",
    ] {
        assert!(stdout.contains(said), "{said} in {stdout}");
    }

    // The journal replays to the same state.
    let out = Command::new(common::BIN)
        .arg("replay")
        .arg(Journal::path_for(&game))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("the state equals"));
}
