//! A scripted evening of Musket & Saber (standard rules) with the shipped
//! Quatre Bras lists: 41 resolutions through batch mode with entered dice,
//! ending with the roster — the game file's state and the `units` table —
//! compared to an expectation worked out by hand from the rules and the
//! example CRT (tables/saber-example-crt.toml), each step in the comments.
//!
//! The example CRT, columns −3 … +4 (outer columns take everything beyond),
//! rows the combat die:
//!
//! ```text
//!      −3      −2      −1      0       +1      +2         +3      +4
//! 1    Ae      Am(Ar)  Ar      Ac(NE)  Ac(NE)  NE Ammo    Dc(NE)  Dr
//! 2    Am(Ar)  Ar      Ac(NE)  NE      NE      Dc(NE)     Dr      Dx
//! 3    Ar L    Ac(NE)  NE      NE DF   Dc(NE)  Dr         Dx      Dm(Dr)
//! 4    Ax      Ex      Ex      Dc(NE)  Dr      Dx L       Dm(Dr)  Dm(Dx)
//! 5    Ac(Dr)  NE      Dc(NE)  Dr      Dx      Dm(Dr) L   Dm(Dx)  De
//! 6    NE      Dc(Ar)  Dr      Dx      Dm(Dr)  Dm(Dx) DF  De      De L
//! ```
//!
//! A check passes when the morale die is at most the MR (+ a leader's MR),
//! less two for a disrupted unit (11.1 4), a 1 always passing and a 6
//! always failing (2.4).

use crate::common;

use std::path::Path;
use std::process::Command;

use drumhead::game::Game;
use serde_json::json;

/// The evening. Each line's hand computation is in the comment above it;
/// batch mode skips the comments.
const SCRIPT: &str = "\
# --- Turn 1, the French combat phase ---
# 1. Reille's 12-pounders (4) bombard Bijlandt: 4 is the differential (8.5):
#    column +4, die 5: De. Bijlandt MR 3, morale die 2 passes: Bijlandt loses
#    a step (1 of 2 left) and retreats.
bombard fr-art-reille vs al-bijlandt rolled 5 2
# 2. Husson 5 + Ney 2 = 7 vs Saxe-Weimar 4: +3, die 4: Dm(Dr). Saxe-Weimar
#    MR 3, die 3 passes: Dr, the owner's choice (nothing recorded yet)...
attack fr-husson ney vs al-saxe-weimar rolled 4 3
# 3. ...he takes disruption: Saxe-Weimar, the primary unit, is disrupted.
choose al-saxe-weimar disruption
# 4. Gauthier 6 vs Best 4: +2, die 6: Dm(Dx) DF. Best MR 3, die 4 fails:
#    Best routs (and is disrupted).
attack fr-gauthier vs al-best rolled 6 4
# 5. Jamin 5 + Foy's battery 2 = 7 vs Kempt 6 + Picton 1 = 7: 0, die 3:
#    NE DF. Nothing happens to the units.
attack fr-jamin fr-art-foy vs al-kempt picton rolled 3 5
# 6. Bauduin 6 + Soye 6 = 12 vs Pack 6: +6, column +4, die 5: De. Pack MR 5,
#    die 6 always fails: Pack routs.
attack fr-bauduin fr-soye vs al-pack rolled 5 6
# 7. Guiton charges with Kellermann (9.3): the charge check is Guiton's MR 5
#    + Kellermann's 1 = 6, die 3 passes: pressed home. 5 + 2 = 7 vs the
#    Brunswick light infantry 3: +4, die 4: Dm(Dx), read as Dm(Ax). MR 3,
#    die 2 passes: Ax. Cavalry on an x result must retreat and is disrupted
#    (9.2): Guiton disrupted and, retreating, ineffective (7.9); Kellermann
#    retreats with it: ineffective. The charge is over: Guiton ineffective.
attack fr-guiton kellermann cavalry-charge vs al-brunswick-light rolled 3 4 2
# --- Turn 1, the Allied combat phase ---
# 8. Kempt 6 + Picton 1 = 7 vs Jamin 5: +2, die 4: Dx L. The owner's choice.
attack al-kempt picton vs fr-jamin rolled 4 3
# 9. The L: Picton participated: a casualty on 5 or 6 (10.4). A 5: he is.
leader-casualty picton participating rolled 5
# 10. The French player takes the step loss: Jamin 1 of 2.
choose fr-jamin step-loss
# 11. Maitland 6 + Wellington 2 = 8 vs Husson 5 + Ney 2 = 7: +1, die 6:
#     Dm(Dr). Husson MR 4 + Ney 2 = 6, die 6 always fails: Husson routs;
#     Ney retreats with him: ineffective.
attack al-maitland wellington vs fr-husson ney rolled 6 6
# 12. Halkett 5 vs Foy's battery 2: +3, die 1: Dc(NE). The battery's MR
#     is 6 (8.1), die 4 passes: NE.
attack al-halkett vs fr-art-foy rolled 1 4
# 13. Van Merlen 2 vs Hubert 3: −1, die 4: Ex. Both are cavalry: instead of
#     the step each retreats and is disrupted (9.2), and is ineffective.
attack al-van-merlen vs fr-hubert rolled 4 1
# 14. Stievenaar (2) bombards Campi: column +2, die 2: Dc(NE); the
#     parenthesized result is ignored (8.5). Campi MR 4, die 3 passes:
#     no effect.
bombard al-stievenaar vs fr-campi rolled 2 3
end-turn
next-turn
# --- Turn 2, the French movement phase: recovery (11.1, 11.3) ---
# 15. Husson (disrupted): a check without the +2: MR 4, die 4 passes.
recover fr-husson rolled 4
# 16. Ney, ineffective: recovery of effectiveness is automatic (11.3).
recover ney
# 17. Guiton, disrupted and ineffective: effectiveness comes back
#     automatically; the disruption check, MR 5, die 6 fails.
recover fr-guiton rolled 6
# 18. Kellermann: automatic.
recover kellermann
# 19. Hubert, disrupted and ineffective: MR 4, die 2 passes: both gone.
recover fr-hubert rolled 2
# --- Turn 2, the French combat phase ---
# 20. Husson 5 + Campi 5 + Ney 2 = 12 vs Bijlandt 4: +8, column +4, die 6:
#     De L. Bijlandt MR 3, die 5 fails: Bijlandt routs.
attack fr-husson fr-campi ney vs al-bijlandt rolled 6 5
# 21. Ney participated: a 2, unharmed.
leader-casualty ney participating rolled 2
# 22. Gauthier 6 + Reille's guns 4 = 10 vs Best 4 (disrupted, defending:
#     not halved): +6, column +4, die 5: De. Best MR 3, +2 disrupted, die 1
#     always passes: Best loses a step (1 of 2) and retreats.
attack fr-gauthier fr-art-reille vs al-best rolled 5 1
# 23. Bauduin 6 vs Pack 6 (disrupted): 0, die 4: Dc(NE). MR 5, die 2 + 2
#     = 4 passes: NE.
attack fr-bauduin vs al-pack rolled 4 2
# 24. Soye presses forward: 6 + 2 = 8 vs the Brunswick line 4: +4, die 3:
#     Dm(Dr). MR 3, die 5 fails: it routs. The defender routed, so Soye
#     loses no step (7.13 2).
attack fr-soye press-forward vs al-brunswick-line rolled 3 5
# 25. Foy's battery (2) bombards the Brunswick hussars: doubled against
#     cavalry, 4: column +4, die 4: Dm(Dx), read as Dm (8.5). MR 3, die 4
#     fails: the hussars rout: disrupted and, cavalry, ineffective.
bombard fr-art-foy vs al-brunswick-hussars rolled 4 4
# --- Turn 2, the Allied combat phase ---
# 26. Kempt 6 vs Jamin 5: +1, die 6: Dm(Dr). Jamin MR 4, die 2 passes: Dr...
attack al-kempt vs fr-jamin rolled 6 2
# 27. ...and the French player takes disruption: Jamin disrupted.
choose fr-jamin disruption
# 28. Maitland 6 + Wellington 2 = 8 vs Jamin 5: +3, die 6: De. Jamin MR 4,
#     disrupted +2: die 2 + 2 = 4 passes: Jamin loses its last step:
#     eliminated.
attack al-maitland wellington vs fr-jamin rolled 6 2
# 29. Halkett 5 + Orange 0 vs Campi 5: 0, die 2: NE.
attack al-halkett orange vs fr-campi rolled 2 4
# 30. Saxe-Weimar, disrupted: its 4 is halved to 2 (11.1 2) vs Reille's
#     guns 4: −2, die 4: Ex. Saxe-Weimar loses a step (1 of 2); the guns
#     lose their only step: eliminated.
attack al-saxe-weimar vs fr-art-reille rolled 4 5
# 31. Stievenaar (2) bombards Soye: column +2, die 1: NE Ammo: the one
#     bombarding battery is flipped to its ineffective side (8.5).
bombard al-stievenaar vs fr-soye rolled 1 1
# 32. Brunswick light 3 + the Duke 1 = 4 vs Bauduin 6: −2, die 1: Am(Ar).
#     MR 3 + the Duke's 1 = 4, die 5 fails: the light infantry routs and
#     the Duke retreats with it: ineffective.
attack al-brunswick-light brunswick vs fr-bauduin rolled 1 5
next-turn
# --- Turn 3, the movement phases ---
# 33. Pack (disrupted): MR 5, die 5 passes.
recover al-pack rolled 5
# 34. Stievenaar, ineffective: automatic (11.3).
recover al-stievenaar
# 35. The hussars, disrupted and ineffective: effectiveness automatic; MR 3,
#     die 4 fails: still disrupted.
recover al-brunswick-hussars rolled 4
# 36. Jamin, eliminated: a step recovery check (11.2), with Ney's MR
#     (10.3): 4 + 2 = 6, die 5 passes: a step back (1 of 2).
recover fr-jamin ney rolled 5
# 37. Reille's guns, eliminated: MR 6, die 6 always fails: destroyed.
recover fr-art-reille rolled 6
# 38. Bijlandt (disrupted): MR 3, die 1 passes.
recover al-bijlandt rolled 1
# 39. Halkett 5 vs Gauthier 6: −1, die 5: Dc(NE); Gauthier MR 4, die 4
#     passes: NE.
attack al-halkett vs fr-gauthier rolled 5 4
# 40. Wathiez 4 vs the hussars 2, disrupted and cavalry: 4 vs 2 = +2, die 2:
#     Dc(NE). MR 3, +2 disrupted, die 3 fails: the side retreats (7.8):
#     the hussars, cavalry, are ineffective again.
attack fr-wathiez vs al-brunswick-hussars rolled 2 3
# 41. Bauduin (MR 4) checks morale for a fortune of war: 4 passes.
morale fr-bauduin rolled 4
units
";

/// What each unit is at the end, by hand: (steps lost, disrupted,
/// ineffective, routed, eliminated, destroyed).
const UNITS: &[(&str, u32, bool, bool, bool, bool, bool)] = &[
    // Husson: routed (11), recovered (15).
    ("fr-husson", 0, false, false, false, false, false),
    ("fr-campi", 0, false, false, false, false, false),
    ("fr-gauthier", 0, false, false, false, false, false),
    // Jamin: a step (10), disrupted (27), the last step (28, clearing its
    // markers off the map), a step recovered (36).
    ("fr-jamin", 1, false, false, false, false, false),
    ("fr-bauduin", 0, false, false, false, false, false),
    ("fr-soye", 0, false, false, false, false, false),
    // Hubert: disrupted and ineffective (13), recovered (19).
    ("fr-hubert", 0, false, false, false, false, false),
    ("fr-wathiez", 0, false, false, false, false, false),
    // Guiton: disrupted and ineffective (7), effective again (17).
    ("fr-guiton", 0, true, false, false, false, false),
    // Reille's guns: eliminated (30), destroyed (37).
    ("fr-art-reille", 1, false, false, false, true, true),
    ("fr-art-foy", 0, false, false, false, false, false),
    // Bijlandt: a step (1), routed (20), recovered (38).
    ("al-bijlandt", 1, false, false, false, false, false),
    // Saxe-Weimar: disrupted (3), a step (30).
    ("al-saxe-weimar", 1, true, false, false, false, false),
    ("al-kempt", 0, false, false, false, false, false),
    // Pack: routed (6), recovered (33).
    ("al-pack", 0, false, false, false, false, false),
    // Best: routed (4), a step (22).
    ("al-best", 1, true, false, true, false, false),
    // The light infantry routed (32).
    ("al-brunswick-light", 0, true, false, true, false, false),
    // The line routed (24).
    ("al-brunswick-line", 0, true, false, true, false, false),
    // The hussars: routed (25), effective again (35), retreated (40).
    ("al-brunswick-hussars", 0, true, true, true, false, false),
    ("al-halkett", 0, false, false, false, false, false),
    ("al-maitland", 0, false, false, false, false, false),
    // Van Merlen: disrupted and ineffective (13).
    ("al-van-merlen", 0, true, true, false, false, false),
    // Stievenaar: ineffective (31), recovered (34).
    ("al-stievenaar", 0, false, false, false, false, false),
];

/// The leaders at the end: (ineffective, casualty).
const LEADERS: &[(&str, bool, bool)] = &[
    // Ney: ineffective (11), recovered (16).
    ("ney", false, false),
    ("reille", false, false),
    // Kellermann: ineffective (7), recovered (18).
    ("kellermann", false, false),
    ("wellington", false, false),
    ("orange", false, false),
    // Picton: a casualty (9).
    ("picton", false, true),
    // The Duke: ineffective (32).
    ("brunswick", true, false),
];

/// Two steps: the brigades with `steps = 2` in the lists.
fn steps(id: &str) -> u32 {
    match id {
        "fr-hubert"
        | "fr-wathiez"
        | "fr-guiton"
        | "fr-art-reille"
        | "fr-art-foy"
        | "al-brunswick-light"
        | "al-brunswick-hussars"
        | "al-van-merlen"
        | "al-stievenaar" => 1,
        _ => 2,
    }
}

fn army(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("armies")
        .join(file)
        .display()
        .to_string()
}

fn game_file() -> common::game::ScratchFile {
    common::game::temp_file("saber-evening", "quatre-bras.json")
}

#[test]
fn an_evening_at_quatre_bras_ends_with_the_hand_computed_roster() {
    let game = game_file();
    let args = [
        "--army".to_string(),
        army("quatre-bras-1815-french.toml"),
        "--army".into(),
        army("quatre-bras-1815-allied.toml"),
        "--game".into(),
        game.display().to_string(),
    ];
    let (code, stdout, stderr) = common::run(&args, SCRIPT);
    assert_eq!(code, Some(0), "{stderr}");

    // 41 resolutions and two turn ends, each one journal entry.
    let resolutions = SCRIPT
        .lines()
        .filter(|l| {
            !l.starts_with('#') && !l.is_empty() && !["units", "end-turn", "next-turn"].contains(l)
        })
        .count();
    assert_eq!(resolutions, 41);
    let (_, entries, state) = Game::read_file(&game).unwrap();
    assert_eq!(entries, 43);
    assert_eq!(state["turn"], 3);

    // The game file's state, unit by unit.
    let saber = &state["saber"];
    for &(id, lost, disrupted, ineffective, routed, eliminated, destroyed) in UNITS {
        let steps = steps(id);
        assert_eq!(
            saber["units"][id],
            json!({
                "steps": steps,
                "steps_lost": lost,
                "steps_left": steps - lost,
                "disrupted": disrupted,
                "ineffective": ineffective,
                "routed": routed,
                "eliminated": eliminated,
                "destroyed": destroyed,
            }),
            "{id}"
        );
    }
    assert_eq!(
        saber["units"].as_object().map(|m| m.len()),
        Some(UNITS.len())
    );
    for &(id, ineffective, casualty) in LEADERS {
        assert_eq!(
            saber["leaders"][id],
            json!({ "ineffective": ineffective, "casualty": casualty }),
            "{id}"
        );
    }

    // The `units` table says the same: steps left and the state words.
    let table = stdout
        .rsplit_once("turn 3\n")
        .map(|(_, t)| t)
        .expect("the units table ends the output");
    for &(id, lost, disrupted, ineffective, routed, eliminated, destroyed) in UNITS {
        let row: Vec<String> = table
            .lines()
            .find(|l| l.split(['│', '┆']).nth(1).map(str::trim) == Some(id))
            .unwrap_or_else(|| panic!("no row for {id}"))
            .split(['│', '┆'])
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(
            row[6],
            format!("{}/{}", steps(id) - lost, steps(id)),
            "{id}"
        );
        let mut words = Vec::new();
        if destroyed {
            words.push("destroyed");
        } else if eliminated {
            words.push("eliminated");
        }
        if disrupted {
            words.push("disrupted");
        }
        if routed {
            words.push("routed");
        }
        if ineffective {
            words.push("ineffective");
        }
        assert_eq!(
            row.get(7).map_or("", String::as_str),
            words.join(", "),
            "{id}"
        );
    }
    assert!(table.contains("span 2, casualty"), "{table}");
    assert!(table.contains("span 2, ineffective"), "{table}");

    // The journal replays to the same state.
    let journal = drumhead::game::Journal::path_for(&game);
    let out = Command::new(common::BIN)
        .arg("replay")
        .arg(&journal)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
