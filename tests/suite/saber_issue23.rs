//! Musket & Saber, issue 23: each procedure as its own case, with the
//! shipped Quatre Bras lists and entered dice, through batch mode
//! (shared/rules/musket-and-saber-standard.txt).

use crate::common;

use common::game::{shipped, temp_dir};
use serde_json::Value;

const QUATRE_BRAS: &[&str] = &[
    "quatre-bras-1815-french.toml",
    "quatre-bras-1815-allied.toml",
];

/// A script over the Quatre Bras lists, `--json`: exit code, each
/// resolution or error line, and stderr. With `game`, in a game file.
fn run(name: &str, script: &str, game: bool) -> (bool, Vec<Value>, String) {
    let mut args = shipped(QUATRE_BRAS);
    // Lives until the script has run: the directory goes with it.
    let dir = temp_dir(&format!("saber-issue23-{name}"));
    if game {
        args.extend(["--game".into(), dir.join("g.json").display().to_string()]);
    }
    common::run_json(&args, script)
}

/// Everything an answer says, as one text.
fn text(v: &Value) -> String {
    v.to_string()
}

/// The attacks' answers among a script's.
fn attacks(res: &[Value]) -> Vec<Value> {
    res.iter()
        .filter(|r| r["verb"] == "attack")
        .cloned()
        .collect()
}

/// Everything a script answered, errors and all, as one text.
fn everything(res: &[Value], err: &str) -> String {
    format!("{err}{}", res.iter().map(text).collect::<String>())
}

/// A refused line: not run, and the error says `needle`.
fn refused(name: &str, line: &str, needle: &str) {
    let (ok, res, err) = run(name, &format!("{line}\n"), false);
    assert!(!ok, "{line} was accepted: {res:?}");
    let all = format!("{err}{}", res.iter().map(text).collect::<String>());
    assert!(all.contains(needle), "{line}: {all}");
}

// 7.13 3: "A maximum of one leader plus one infantry battalion plus one
// other infantry unit of any size can charge a given defender's hex."
#[test]
fn an_infantry_charge_takes_one_brigade_and_a_battalion_at_most() {
    refused(
        "charge2",
        "saber attack fr-husson fr-campi charge vs al-bijlandt",
        "`fr-campi` is a second infantry brigade",
    );
    refused(
        "charge2b",
        "saber attack fr-husson fr-campi charge vs al-bijlandt",
        "(7.13 3)",
    );
    // One brigade alone still charges.
    let (ok, res, err) = run(
        "charge1",
        "saber attack fr-husson charge vs al-bijlandt rolled 2 3 4\n",
        false,
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["attacker_tactic"], "charge");
}

// 9.3 1: "It may consist of up to one leader, one squadron, and any one
// other cavalry unit."
#[test]
fn a_cavalry_charge_takes_one_brigade_and_a_squadron_at_most() {
    refused(
        "cav2",
        "saber attack fr-hubert fr-wathiez cavalry-charge vs al-bijlandt",
        "`fr-wathiez` is a second cavalry brigade: a cavalry charge takes up to one leader, one squadron, and any one other cavalry unit (9.3 1)",
    );
}

// 7.4: "A hex may be defended by up to one artillery unit plus one
// battalion/squadron plus any one other unit. Additional defending units
// stacked in the hex do not take part in the combat".
#[test]
fn a_defending_hex_is_one_artillery_one_battalion_and_one_other_unit() {
    refused(
        "def2",
        "saber attack fr-husson vs al-kempt al-pack",
        "`al-pack` is one unit too many in the defending hex",
    );
    // A brigade and a battery defend together: Bijlandt's 4 and the
    // battery's printed defence factor 1 (8.1: artillery defends with it).
    let (ok, res, err) = run(
        "def-art",
        "saber attack fr-husson vs al-bijlandt al-stievenaar rolled 3 4\n",
        false,
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["defence"], 5, "{}", res[0]);
}

// 7.12: "Disrupted units, units with parenthesized CF, artillery, and
// defending units in some terrain (see the TEC) may not advance."
// 11.1 3: a disrupted unit "may not advance after combat".
#[test]
fn a_disrupted_or_parenthesized_attacker_is_not_offered_an_advance() {
    let (ok, res, err) = run(
        "adv",
        "saber attack 9 disrupted vs 1 mr=3 rolled 3 4\nsaber attack (9) vs 1 mr=3 rolled 3 4\nsaber attack 9 vs 1 mr=3 rolled 3 4\n",
        false,
    );
    assert!(ok, "{err}");
    for r in &res[0..2] {
        assert_eq!(r["effects"][0]["id"], "defender-routs", "{r}");
        let ids: Vec<&str> = r["effects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        assert!(!ids.contains(&"attacker-may-advance"), "{r}");
        assert!(text(r).contains("no attacking unit may advance"), "{r}");
    }
    // The same rout with a fresh unit offers the two-hex advance.
    assert!(
        text(&res[2]).contains("two hexes instead of one"),
        "{}",
        res[2]
    );
}

// 4.7: "A unit may employ march movement as long as ... 3) its Army HQ
// (12.1) is active"; 12.1: "While the HQ is inactive ... March Movement
// is not available".
#[test]
fn no_march_movement_while_the_army_hq_is_inactive() {
    refused(
        "march",
        "saber ma 5 hq-inactive march rolled 4",
        "`march` is not available with `hq-inactive`",
    );
    // Without march the inactive HQ makes the unit roll: the die, 4.
    let (ok, res, err) = run("ma", "saber ma 5 hq-inactive rolled 4\n", false);
    assert!(ok, "{err}");
    assert_eq!(res[0]["score"], 4, "{}", res[0]);
}

// 7.14: "An attack is coordinated only if all the attacking infantry
// and/or cavalry units are in the same formation"; "In an uncoordinated
// attack, units belonging to the formation of the primary attacking unit
// attack normally; units from all other formations are halved."
#[test]
fn an_attack_by_two_formations_without_a_leader_is_uncoordinated() {
    // Husson (formation 5) and Jamin (9): 5 + (5 halved = 3) = 8.
    let (ok, res, err) = run(
        "coord",
        "saber attack fr-husson fr-jamin vs al-kempt rolled 3 4\n\
         next-turn\n\
         saber attack fr-husson fr-campi vs al-kempt rolled 3 4\n",
        false,
    );
    assert!(ok, "{err}");
    let res = attacks(&res);
    assert_eq!(res[0]["attack"], 8, "{}", res[0]);
    assert_eq!(res[0]["coordination"]["coordinated"], false, "{}", res[0]);
    assert_eq!(
        res[0]["coordination"]["halved"][0], "fr-jamin",
        "{}",
        res[0]
    );
    // Husson and Campi are both of formation 5: 5 + 5.
    assert_eq!(res[1]["attack"], 10, "{}", res[1]);
}

// 7.14: "A leader may coordinate the attack of units from different
// formations as long as all the attacking formations are within the
// leader's command span (see 10.0) and the leader either is stacked with
// or adjacent to one of the attacking units." 14.3 2 (twilight):
// "Coordination of attacks is not possible."
#[test]
fn a_leader_coordinates_except_at_twilight() {
    let (ok, res, err) = run(
        "coord-leader",
        "saber attack fr-husson fr-jamin reille vs al-kempt rolled 3 4\n\
         next-turn\n\
         saber attack fr-husson fr-jamin coordinated vs al-kempt rolled 3 4\n\
         next-turn\n\
         saber attack fr-husson fr-jamin reille twilight vs al-kempt rolled 3 4\n",
        false,
    );
    assert!(ok, "{err}");
    let res = attacks(&res);
    // Reille stacked and participating: 5 + 5 + his CF 1.
    assert_eq!(res[0]["attack"], 11, "{}", res[0]);
    // A leader from the next hex: 5 + 5.
    assert_eq!(res[1]["attack"], 10, "{}", res[1]);
    // Twilight: 5 + 3 + 1.
    assert_eq!(res[2]["attack"], 9, "{}", res[2]);
    assert_eq!(
        res[2]["coordination"]["halved"][0], "fr-jamin",
        "{}",
        res[2]
    );
    assert_eq!(res[0]["coordination"]["coordinated"], true, "{}", res[0]);
    refused(
        "coord-twilight",
        "saber attack fr-husson fr-jamin coordinated twilight vs al-kempt",
        "`coordinated` is not possible: twilight: coordination of attacks is not possible (14.3 2)",
    );
}

// 14.2 5: "LOS is zero at night: artillery may not bombard or support an
// attack"; 14.3 3: "LOS is one: artillery may support or bombard only
// adjacent hexes."
#[test]
fn no_bombardment_at_night_and_only_the_next_hex_at_twilight() {
    refused(
        "bombard-night",
        "saber bombard 4 night vs mr=3",
        "artillery may not bombard (14.2 5)",
    );
    refused(
        "bombard-twilight",
        "saber bombard 4 twilight vs mr=3",
        "artillery may bombard only adjacent hexes (14.3 3)",
    );
    // The next hex, across a prohibited hexside (8.4), at twilight: 4 on
    // the CRT.
    let (ok, res, err) = run(
        "bombard-adjacent",
        "saber bombard 4 twilight adjacent vs mr=3 rolled 3 3\n",
        false,
    );
    assert!(ok, "{err}");
    assert_eq!(res[0]["differential"], 4, "{}", res[0]);
}

// 7.5: "A unit may attack only once per combat phase."
#[test]
fn a_unit_attacks_once_per_combat_phase() {
    let (ok, res, err) = run(
        "once",
        "saber attack fr-husson vs al-kempt rolled 3 4\n\
         saber attack fr-husson vs al-pack rolled 3 4\n\
         next-turn\n\
         saber attack fr-husson vs al-pack rolled 3 4\n",
        true,
    );
    assert!(!ok);
    let err = everything(&res, &err);
    assert!(
        err.contains("`fr-husson` has attacked this combat phase: a unit may attack only once per combat phase (standard 7.5"),
        "{err}"
    );
    // The first attack and the one of the next turn were resolved.
    let attacks: Vec<&Value> = res.iter().filter(|r| r["verb"] == "attack").collect();
    assert_eq!(attacks.len(), 2, "{res:?}");
    assert_eq!(
        attacks[1]["input"],
        "saber attack fr-husson vs al-pack rolled 3 4"
    );
}

// 9.3 6: "victorious cavalry may continue advancing and charging
// indefinitely, as long as the defenders rout after each combat"; 9.3 8:
// "Cavalry always becomes ineffective at the end of a charge".
#[test]
fn a_victorious_charge_ends_ineffective_at_the_end_of_the_combat_phase() {
    let (ok, res, err) = run(
        "charging",
        "saber attack fr-wathiez cavalry-charge vs al-bijlandt rolled 1 5 6\n\
         saber attack fr-wathiez vs al-saxe-weimar rolled 3 4\n\
         saber attack fr-wathiez cavalry-charge vs al-saxe-weimar rolled 1 5 6\n\
         next-turn\n\
         show fr-wathiez\n",
        true,
    );
    assert!(!ok);
    let err = everything(&res, &err);
    // Anything but a charge is refused while the charge goes on.
    assert!(
        err.contains("victorious cavalry may only charge again (`cavalry-charge`, 9.3 6)"),
        "{err}"
    );
    let all: String = res.iter().map(text).collect();
    // Both charges routed their defenders, and each said the charge goes on.
    let charges: Vec<&Value> = res.iter().filter(|r| r["verb"] == "attack").collect();
    assert_eq!(charges.len(), 2, "{all}");
    for c in &charges {
        assert_eq!(c["effects"][0]["id"], "defender-routs", "{c}");
        assert!(text(c).contains("fr-wathiez may charge again"), "{c}");
    }
    // The end of the combat phase ends the charge: ineffective.
    assert!(
        all.contains("the charge of fr-wathiez ended with the combat phase: ineffective"),
        "{all}"
    );
}

// 9.3 7: "In lieu of continuing to charge, a victorious cavalry may
// attempt to capture a routed defender"; 9.3 8.
#[test]
fn a_capture_attempt_ends_the_charge() {
    let (ok, res, err) = run(
        "capture",
        "saber attack fr-wathiez cavalry-charge vs al-bijlandt rolled 1 5 6\n\
         saber capture fr-wathiez rolled 2\n\
         saber attack fr-wathiez cavalry-charge vs al-saxe-weimar rolled 1 5 6\n",
        true,
    );
    assert!(!ok);
    assert!(
        text(&res[1]).contains("game: fr-wathiez is ineffective"),
        "{}",
        res[1]
    );
    let err = everything(&res[2..], &err);
    // Ineffective, it may not charge again (7.13 3, 9.3).
    assert!(err.contains("ineffective"), "{err}");
}

// 7.11: "Certain choices of tactics (7.13) may inflict a second step loss.
// ... If no second step is present to be lost, the opposing player
// receives an FOW."
#[test]
fn no_second_step_to_lose_gives_the_other_player_a_fortune_of_war() {
    // Brunswick's light battalions (one step, 3 + 2 pressing forward)
    // against Gauthier (6): −1, die 4: Ex. The exchange takes the only
    // step; press forward's second finds none: the defender's FOW.
    let (ok, res, err) = run(
        "second-step",
        "saber attack al-brunswick-light press-forward vs fr-gauthier rolled 4 1\n\
         saber attack 3 press-forward vs 6 rolled 4 1\n\
         undo\n\
         undo\n\
         saber attack al-brunswick-light press-forward vs fr-husson rolled 3 4\n\
         show al-brunswick-light\n",
        true,
    );
    assert!(ok, "{err}");
    let ids = |r: &Value| -> Vec<String> {
        r["effects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&res[0]), ["exchange", "defender-fow"], "{}", res[0]);
    // The issue's line: NE on the CRT, and press forward's loss is the
    // side's second step loss, which a one-step unit does not have.
    assert!(text(&res[0]).contains("no second step is present to be lost"));
    // Typed factors' steps are not known: the step is taken as a step.
    assert_eq!(
        ids(&res[1]),
        ["exchange", "attacker-step-loss"],
        "{}",
        res[1]
    );
    let issue = res
        .iter()
        .rfind(|r| r["verb"] == "attack")
        .expect("the issue's attack");
    // Issue 35 reads 7.11 again: the loss is "in addition to any other
    // result from the CRT" (7.13 2), a second step loss only after a step
    // the CRT took. On NE the CRT took none: press forward's loss is the
    // unit's first, and the one-step battalion loses it; the DF is the
    // CRT's own.
    assert_eq!(
        ids(issue),
        ["no-effect", "attacker-step-loss", "defender-fow"],
        "{issue}"
    );
    assert!(text(issue).contains("this is its first step loss, not a second"));
    assert_eq!(steps_left(&res, "al-brunswick-light"), "0 of 1 left");
}

/// The steps `show ID --json` gives a unit, as "N of M left".
fn steps_left(res: &[Value], id: &str) -> String {
    res.iter()
        .rfind(|r| r["type"] == "unit" && r["id"] == id)
        .and_then(|r| r["rows"].as_array())
        .and_then(|rows| rows.iter().find(|row| row["label"] == "steps"))
        .and_then(|row| row["value"].as_str())
        .unwrap_or_else(|| panic!("no steps row for {id}: {res:?}"))
        .to_string()
}

// 7.13 5: "Last Stand. Defending infantry and/or artillery only. Add 3 to
// the defending combat factor. If the attacker does not retreat, the
// defender loses one step in addition to any other result from the CRT."
// On the example CRT, fr-husson (5) against al-kempt (6 + 3) with a 2 is
// Am(Ar): the attacker chooses disruption or retreat, with `choose`.
#[test]
fn a_last_stand_costs_a_step_when_the_attacker_chooses_not_to_retreat() {
    let script = "saber attack fr-husson vs al-kempt last-stand rolled 2 4\n\
                  show al-kempt\n\
                  choose fr-husson disruption\n\
                  show al-kempt\n\
                  saber attack fr-campi vs al-pack last-stand rolled 2 4\n\
                  choose fr-campi retreat\n\
                  show al-pack\n";
    let (ok, res, err) = run("last-stand", script, true);
    assert!(ok, "{err}");
    // Nothing is lost until the attacker has chosen.
    let before: Vec<&Value> = res.iter().filter(|r| r["type"] == "unit").collect();
    assert_eq!(before.len(), 3, "{res:?}");
    assert!(before[0]["rows"].to_string().contains("2 of 2 left"));
    assert!(text(&res[0]).contains("if the attacker does not retreat"));
    // Disruption is not a retreat: Kempt loses his step.
    let choose = res.iter().find(|r| r["verb"] == "choose").expect("choose");
    assert!(
        text(choose).contains("the defender loses one step"),
        "{choose}"
    );
    assert_eq!(steps_left(&res, "al-kempt"), "1 of 2 left");
    // A retreat settles it with no step lost.
    assert_eq!(steps_left(&res, "al-pack"), "2 of 2 left");
}
