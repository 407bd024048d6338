//! A scripted evening of Drums and Muskets: Leuthen, three turns, every
//! die entered, played through batch mode (`drumhead --army … --army …
//! --game FILE` with the script on stdin). It ends by comparing the final
//! roster, read from the game file's JSON state and from `units`, with an
//! expectation worked out by hand from the quick reference sheet.
//!
//! The sheet's lines the hand computation uses:
//! - Hits: "If using bases, then for each 6 hits received then 1 base is
//!   removed." Hits short of a base are carried towards the next.
//! - Shooting Table 1: muskets 2BW/4+ short, 6BW/6 long; carbines 1BW/4+;
//!   field artillery 6BW/3+, 24BW/5+; position artillery 8BW/3+, 30BW/5+;
//!   "1D6 per base" (per model/base for guns).
//! - Tables 2a–2d and the Melee Factors Tables, pool arithmetic: doubles,
//!   then "1 in K" on the pool as it stands, then flat rows, then the
//!   minimum ("The minimum dice thrown is 2D6" in melee). Melee hits on 4+
//!   (the tables' house default; the sheet gives none).
//! - The Resilience Situation Adjustment and Outcomes Tables.
//! - End of Turn Resilience Tests: "units that are at 50% or lower in
//!   strength … The player without initiative goes first."

use crate::common;

use std::path::Path;
use std::process::Command;

use drumhead::game::{Game, Journal};

const SCRIPT: &str = "\
# Turn 1. Initiative: Prussia 5 generals + 2 exceptional = 7D6 (21),
# Austria 4 generals = 4D6 (24): Austria (side b).
initiative rolled 3 3 3 3 3 3 3 6 6 6 6
# Foot, Column of Attack, Normal 2 + 1D6: 5BW and 6BW.
move gren-1 rolled 3
move gren-2 rolled 4
# brummer (position artillery, 3 bases, Table 2a) at 20BW: long, 5+.
# 3D6, first time shooting +2 = 5D6: 5 6 5 → 3 hits. aus-1: 3 carried.
shoot 20BW brummer at aus-1 rolled 5 6 5 2 1
# aus-8 (2 bases): 2D6 +2 first shot, gren-1 'not open and moved this
# turn and is at long range' −1 = 3D6 at 5+: 2 hits. gren-1: 2 carried.
shoot 20BW aus-8 at gren-1 rolled 5 5 1
# aus-9 (field artillery) at 10BW: long, 5+; 3D6 as above: 1 hit.
shoot 10BW aus-9 at gren-2 rolled 6 2 2
# Foot Formed - Column of Attack: 2 + 1D6 = 4BW.
charge gren-1 rolled 2
# Hold: 3 + 3, not charged yet +1, >= 75% +1 = 8: must charge.
hold zieten-hussars rolled 3 3
# gren-1: 6D6 + 2 first melee + 1 determined + 2 (column of attack, 4
# ranks vs the line's 2) = 11D6: 4 hits. aus-1: 6D6 + 2 − 1 lackluster =
# 7D6: 2 hits. aus-1: 4 + 3 carried = 7: 1 base, 1 carried (7 hits).
# gren-1: 2 + 2 = 4 carried.
melee gren-1 ranks=4 vs aus-1 ranks=2 rolled 4 4 4 4 1 1 1 1 1 1 1 4 4 1 1 1 1 1
# aus-1 from melee: 9, lackluster −2, inflicted +1, lost −2 = 6: stand,
# take 1 hit (8 hits: 1 base, 2 carried).
resilience aus-1 melee lost-round rolled 5 4
# gren-1: 6, determined +2, column of attack +1, inflicted +1, won +1 =
# 11: carry on.
resilience gren-1 melee won-round rolled 3 3
# aus-5 (line, Table 2c), 6D6: target moved −1 in 3 → 4, first shot +2
# → 6D6 at 4+: 3 hits. gren-2: 3 + 1 = 4 carried.
shoot 2BW aus-5 at gren-2 rolled 4 4 4 1 1 1
# Cavalry Open: 3 + 2D6 = 8BW.
charge aus-12 rolled 2 3
# aus-12 (cavalry, open, 4 bases): vs foot not in square +1 in 2 → 6,
# first melee +2 → 8D6: 5 hits. jaeger (irregular, open, 2 bases): +2
# first melee, open foot not in terrain −2 → 2D6: 1 hit. jaeger: 5
# carried; aus-12: 1 carried.
melee aus-12 vs jaeger rolled 4 4 4 4 4 1 1 1 4 1
# jaeger: 3, open −2, inflicted +1, lost −2 = 0: break.
resilience jaeger melee lost-round rolled 2 1
# Moritz within 3BW: 5+ swept away, 3D6 = 6BW to his long edge.
risk broke moritz rolled 5 2 2 2
# aus-12: 7, zealous +1, open −2, inflicted +1, won +1 = 8: carry on.
resilience aus-12 melee won-round rolled 3 4
# zieten-hussars (formed, Table 2c), 5D6 + 2 first shot = 7D6 at 4+: 4
# hits, 1 hit per base: risk. aus-12: 4 + 1 = 5 carried.
shoot 1BW zieten-hussars at aus-12 rolled 4 4 4 4 1 1 1
risk shot nadasdy rolled 6
# aus-12 from shooting: 5, open +1, inflicted +1, hit −1 = 6: stand,
# take 1 hit: 6 hits, 1 base lost, 3 of 4.
resilience aus-12 shooting rolled 3 2
end-turn
next-turn
# Turn 2: Moritz and Nádasdy are back: 7D6 (42) against 4D6 (4): Prussia.
initiative rolled 6 6 6 6 6 6 6 1 1 1 1
# brummer, no first shot now: 3D6 at 5+: 3 hits. aus-1: 3 + 2 = 5
# carried (11 hits).
shoot 20BW brummer at aus-1 rolled 5 5 5
# gren-3 (5 bases, two ranks): +1 in 3 at close range → 6, first shot +2
# → 8D6: 7 hits, 7 + 5 = 12: 2 bases, none carried (18 hits: 3 of 6).
shoot 2BW gren-3 at aus-1 rolled 4 4 4 4 4 4 4 1
risk shot nadasdy rolled 2
# Cavalry Formed: 2D6 = 7BW.
charge cuir-10 rolled 3 4
# cuir-10 (heavy, 5 bases): first melee +2, heavy first melee +2 = 9D6: 6
# hits. aus-11 (5 bases): +2 = 7D6: 2 hits. aus-11: 1 base, 0 carried;
# cuir-10: 2 carried.
melee cuir-10 heavy-first vs aus-11 rolled 4 4 4 4 4 4 1 1 1 4 4 1 1 1 1 1
# aus-11: 7, inflicted +1, lost −2 = 6: stand, take 1 hit (1 carried).
resilience aus-11 melee lost-round rolled 4 3
# cuir-10: 4, inflicted +1, won +1 = 6: stand, take 1 hit (3 carried).
resilience cuir-10 melee won-round rolled 2 2
# Foot Column of March 2D6, on a road +1D6 = 7BW.
move aus-7 road rolled 2 2 3
# aus-7 (Table 2d): 6D6, column of march −1 in 2 → 3D6, long range 6: 1
# hit. garde-3: 1 carried.
shoot 6BW aus-7 at garde-3 rolled 6 1 1
hits 4 garde-3
# Due: aus-1 (3 of 6, 50%); Austria, without the initiative, first.
end-turn
# aus-1, all other cases: 6, lackluster −1, hit −1, lost 50% −1 = 3:
# forced retire, 1 hit (19 hits: 3 lost, 1 carried).
resilience aus-1 rolled 3 3
next-turn
# Turn 3: 7D6 (7) against 4D6 (24): Austria.
initiative rolled 1 1 1 1 1 1 1 6 6 6 6
# garde-3: 4, determined +2, not charged +1, >= 75% +1 = 8: must charge.
hold garde-3 rolled 2 2
# Foot Formed - Line: 1D6 = 5BW.
charge garde-3 rolled 5
# garde-3: 6D6, guards +1 in 3 → 8, first melee +2, determined +1 →
# 11D6: 3 hits. aus-4: 6 + 2 + 1 = 9D6: 2 hits. aus-4: 3 carried;
# garde-3: 5 + 2 = 7: 1 base, 1 carried.
melee garde-3 vs aus-4 rolled 4 4 4 1 1 1 1 1 1 1 1 4 4 1 1 1 1 1 1 1
# aus-4: 2, determined +2, inflicted +1, lost −2 = 3: forced retire, 2
# hits (5 carried).
resilience aus-4 melee lost-round rolled 1 1
# A slip of the pen, taken back.
hits 6 aus-2
undo
# garde-3: 10, guards +1, determined +2, inflicted +1, won +1 = 15.
resilience garde-3 melee won-round rolled 5 5
units
end-turn
";

/// (id, bases left, bases at the start, hits carried, percent, broken),
/// for every unit, worked out in the script's comments.
const EXPECTED: &[(&str, i64, i64, i64, i64, bool)] = &[
    // Prussia
    ("gren-1", 6, 6, 4, 100, false), // 2 + 2 hits
    ("gren-2", 6, 6, 4, 100, false), // 1 + 3
    ("gren-3", 5, 5, 0, 100, false),
    ("ir-26", 6, 6, 0, 100, false),
    ("brummer", 3, 3, 0, 100, false),
    ("garde-3", 5, 6, 1, 83, false), // 1 + 4 + 2 = 7
    ("ir-19", 6, 6, 0, 100, false),
    ("ir-13", 6, 6, 0, 100, false),
    ("ir-3", 6, 6, 0, 100, false),
    ("jaeger", 2, 2, 5, 100, true), // 5 hits, broke
    ("bn-guns", 2, 2, 0, 100, false),
    ("zieten-hussars", 5, 5, 0, 100, false),
    ("cuir-10", 5, 5, 3, 100, false), // 2 + 1
    ("bayreuth", 6, 6, 0, 100, false),
    ("puttkamer", 4, 4, 0, 100, false),
    // Austria
    ("aus-1", 3, 6, 1, 50, false),  // 3 + 4 + 1 + 3 + 7 + 1 = 19
    ("aus-2", 5, 5, 0, 100, false), // 6 hits undone
    ("aus-3", 4, 4, 0, 100, false),
    ("aus-4", 6, 6, 5, 100, false), // 3 + 2
    ("aus-5", 6, 6, 0, 100, false),
    ("aus-6", 4, 4, 0, 100, false),
    ("aus-7", 6, 6, 0, 100, false),
    ("aus-8", 2, 2, 0, 100, false),
    ("aus-9", 2, 2, 0, 100, false),
    ("aus-10", 5, 5, 0, 100, false),
    ("aus-11", 4, 5, 1, 80, false), // 6 + 1 = 7
    ("aus-12", 3, 4, 0, 75, false), // 1 + 4 + 1 = 6
];

#[test]
fn an_evening_at_leuthen() {
    let dir = common::game::temp_dir("drums-evening");
    let game = dir.join("leuthen.json");
    let armies = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let mut args = Vec::new();
    for f in ["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"] {
        args.push("--army".to_string());
        args.push(armies.join(f).display().to_string());
    }
    args.extend(["--game".to_string(), game.display().to_string()]);
    let (code, out, err) = common::run(&args, SCRIPT);
    assert_eq!(code, Some(0), "{err}");
    // Only the note that the game was new.
    assert!(
        err.lines().all(|l| l.contains("a new game was created")),
        "{err}"
    );
    // Every die entered was used, and at least 30 resolutions were made.
    let resolutions = out.lines().filter(|l| l.starts_with("⇒ ")).count();
    assert!(resolutions >= 30, "{resolutions}");
    assert_eq!(resolutions, 39);
    for said in [
        "⇒ 3 hits and 1 already carried: no base lost, 4 hits left over",
        // Issue 26: "Names everywhere a unit … is known".
        "On aus-1 (Foot): 4 hits and 3 already carried: 1 base lost, 1 hit left over. \
         On gren-1 (Foot): 2 hits and 2 already carried: no base lost, 4 hits left over.",
        "⇒ 7 hits and 5 already carried: 2 bases lost, no hits left over",
        "On the unit: 1 hit and 5 already carried: 1 base lost, no hits left over.",
        "game: jaeger breaks",
        "game: nadasdy is off the table for the rest of this turn",
    ] {
        assert!(out.contains(said), "{said}");
    }
    // The end-of-turn tests of turns 2 and 3: aus-1 alone, Austria first in
    // turn 2 (Prussia has the initiative), Prussia first in turn 3.
    assert!(out.contains(
        "The player without the initiative goes first: Austria (Prussia has the initiative)."
    ));
    assert!(out.contains(
        "The player without the initiative goes first: Prussia (Austria has the initiative)."
    ));
    let due = "  1. aus-1 — Württemberg auxiliaries, 1st Brigade (Austria: 3 of 6 bases, 50%)";
    assert_eq!(out.matches(due).count(), 2);
    assert!(!out.contains("  2. "));

    // The game file's JSON state.
    let (_, entries, state) = Game::read_file(&game).unwrap();
    assert_eq!(state["turn"], 3);
    assert_eq!(entries, 42, "39 resolutions, 2 next-turns and an undo");
    let drums = &state["drums"];
    assert_eq!(
        drums["initiative"], 1,
        "Austria has the initiative in turn 3"
    );
    assert_eq!(
        drums["generals"],
        serde_json::json!({}),
        "all back on the table"
    );
    let roster = drums["roster"].as_object().unwrap();
    assert_eq!(roster.len(), EXPECTED.len());
    for &(id, left, start, carried, percent, broken) in EXPECTED {
        let r = &roster[id];
        assert_eq!(
            (
                r["left"].as_i64(),
                r["start"].as_i64(),
                r["carried"].as_i64(),
                r["percent"].as_i64()
            ),
            (Some(left), Some(start), Some(carried), Some(percent)),
            "{id}: {r}"
        );
        assert_eq!(r["counted"], "bases");
        let out_of_action = if broken {
            serde_json::json!("has broken")
        } else {
            serde_json::Value::Null
        };
        assert_eq!(r["out_of_action"], out_of_action, "{id}");
        // Total hits: (start − left) bases of 6, and the carried.
        let hits = drums["units"][id]["hits"].as_i64().unwrap_or(0);
        assert_eq!(hits, (start - left) * 6 + carried, "{id}");
    }

    // The `units` table says the same.
    let table = out
        .split("\nturn 3\n")
        .nth(1)
        .expect("the units table of turn 3");
    for &(id, left, start, carried, percent, broken) in EXPECTED {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("│ {id} ")))
            .unwrap_or_else(|| panic!("no row for {id}"));
        let cells: Vec<&str> = row.trim_matches('│').split('┆').map(str::trim).collect();
        assert_eq!(cells[0], id);
        assert_eq!(cells[2], format!("{left}/{start} bases"), "{row}");
        assert_eq!(cells[3], format!("{percent}%"), "{row}");
        assert_eq!(cells[4], carried.to_string(), "{row}");
        assert_eq!(cells[5].starts_with("broken"), broken, "{row}");
        assert_eq!(
            cells[5].contains("≤50%: end-of-turn test"),
            percent <= 50,
            "{row}"
        );
    }

    // The journal replays to the same state.
    let journal = Journal::path_for(&game);
    let replay = Command::new(common::BIN)
        .arg("replay")
        .arg(&journal)
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(String::from_utf8_lossy(&replay.stdout).contains("the state equals"));
}
