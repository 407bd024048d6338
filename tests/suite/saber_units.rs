//! Musket & Saber units and leaders named from the shipped Quatre Bras
//! lists in a game kept in a file: each test is one of the defects users
//! reported, and quotes the rule it follows. The dice are entered.

use crate::common;

use std::path::{Path, PathBuf};

use drumhead::game::{ArmySource, Game};
use serde_json::Value;

use common::game::temp_dir;

fn shipped(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("armies")
        .join(file)
}

/// A new game of the shipped lists, kept in a file.
struct Table {
    game: common::game::ScratchFile,
}

impl Table {
    fn new(name: &str) -> Table {
        Table::with_armies(
            name,
            &[
                shipped("quatre-bras-1815-french.toml"),
                shipped("quatre-bras-1815-allied.toml"),
            ],
        )
    }

    fn with_armies(name: &str, armies: &[PathBuf]) -> Table {
        let game = common::game::temp_file(name, "g.json");
        let mut args: Vec<String> = armies
            .iter()
            .flat_map(|a| ["--army".to_string(), a.display().to_string()])
            .collect();
        args.extend(["--game".into(), game.display().to_string()]);
        let (code, _, err) = common::run(&args, "units\n");
        assert_eq!(code, Some(0), "{err}");
        Table { game }
    }

    /// Run lines, JSON out: (exit code, one value per line, stderr). A
    /// script that opens with an attack opens a combat phase of its own
    /// (a unit may attack only once per combat phase, 7.5): the new
    /// turn's answer is left out.
    fn json(&self, script: &str) -> (Option<i32>, Vec<Value>, String) {
        let args = [
            "--game".to_string(),
            self.game.display().to_string(),
            "--json".into(),
        ];
        let phase = script.starts_with("attack ");
        let script = if phase {
            format!("next-turn\n{script}")
        } else {
            script.to_string()
        };
        let (code, out, err) = common::run(&args, &script);
        let values = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .skip(usize::from(phase))
            .collect();
        (code, values, err)
    }

    /// Run lines that must all succeed, JSON out.
    fn ok(&self, script: &str) -> Vec<Value> {
        let (code, values, err) = self.json(script);
        assert_eq!(code, Some(0), "{script}\n{err}\n{values:?}");
        values
    }

    /// Run lines, text out: (exit code, stdout, stderr).
    fn text(&self, script: &str) -> (Option<i32>, String, String) {
        let args = ["--game".to_string(), self.game.display().to_string()];
        common::run(&args, script)
    }

    fn state(&self) -> Value {
        Game::read_file(&self.game).unwrap().2["saber"].clone()
    }

    fn unit(&self, id: &str) -> Value {
        self.state()["units"][id].clone()
    }

    fn leader(&self, id: &str) -> Value {
        self.state()["leaders"][id].clone()
    }
}

fn notes(v: &Value) -> String {
    v["notes"]
        .as_array()
        .map(|n| {
            n.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

// 1. "Morale Checks & Recovery: add the leader's morale rating to the MR of
// the unit when it checks morale. Regardless of the leader, the unit fails
// on a die roll of "6."" (standard 10.3)
#[test]
fn a_named_leader_adds_his_morale_rating_to_the_units() {
    let t = Table::new("leader-mr");
    let v = t.ok("morale al-bijlandt wellington rolled 4\n");
    // Bijlandt MR 3 + Wellington's 2 = 5: a 4 passes.
    assert_eq!(v[0]["mr"], 5);
    assert_eq!(v[0]["needed"], 5);
    assert_eq!(v[0]["outcome"], "pass");
    // Regardless of the leader, a 6 fails.
    let v = t.ok("morale al-bijlandt wellington rolled 6\n");
    assert_eq!(v[0]["outcome"], "fail");
    // The leader's factors are the leader's words of each verb, never the
    // unit's: Kempt (CF 6, MR 5) defends with Picton (CF 1, MR 2).
    // 6 vs 6 + 1 = −1; die 4: Ex, no check.
    let v = t.ok("attack fr-bauduin vs al-kempt picton rolled 4 5\n");
    assert_eq!(v[0]["differential"], -1);
    // 6 + 6 vs 7 = +5, the outer column +4; die 4: Dm(Dx). Kempt's MR 5
    // + Picton's 2 = 7: every face but the 6 passes (2.4), so a 5 passes.
    let v = t.ok("attack fr-bauduin fr-soye vs al-kempt picton rolled 4 5\n");
    assert_eq!(v[0]["check"]["needed"], 5);
    assert_eq!(v[0]["check"]["passed"], true);
    // Bombardment: the target's leader helps its check (10.3).
    let v = t.ok("bombard fr-art-reille vs al-bijlandt orange rolled 5 4\n");
    // 4: column +4, die 5: De; Bijlandt 3 + Orange 1 = 4: a 4 passes.
    assert_eq!(v[0]["check"]["needed"], 4);
    assert_eq!(v[0]["check"]["passed"], true);
    // The text says which word each named unit brought.
    let (_, out, _) = t.text("morale al-bijlandt wellington rolled 4\n");
    assert!(out.contains("leader-mr=2"), "{out}");
    // A leader alone is not a unit checking morale.
    let (code, _, err) = t.text("morale wellington\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("is a leader"), "{err}");
}

// 2. "Participation in Combat: ... If he does, add his combat and morale
// factors to the unit's factors for all combat purposes" (standard 10.3);
// "If the unit fails, the charge has not been pressed home; resolve the
// combat normally, with the CF halved" (7.13 3): the unit's CF, not his.
#[test]
fn a_named_leader_brings_his_cf_as_the_leaders_never_halved() {
    let t = Table::new("leader-cf");
    // Husson (CF 5) charges with Ney (CF 2, MR 2): the check is Husson's
    // MR 4 + Ney's 2 = 6, and a 6 always fails: the charge is not pressed
    // home. Husson's 5 halved is 3 (rounding up); Ney's 2 is not halved:
    // 5 against Bijlandt's 4.
    let v = t.ok("attack fr-husson ney charge vs al-bijlandt rolled 6 3 2\n");
    assert_eq!(v[0]["attack"], 5);
    assert_eq!(v[0]["differential"], 1);
    // Disruption halves the unit (11.1 2: "treat its Combat Factor as
    // parenthesized ... halved when attacking"), not the leader.
    t.ok("choose fr-husson disruption\n");
    let v = t.ok("attack fr-husson ney vs al-bijlandt rolled 3 3\n");
    assert_eq!(v[0]["attack"], 5);
    // Without Ney, Husson alone: 3.
    let v = t.ok("attack fr-husson vs al-bijlandt rolled 3 3\n");
    assert_eq!(v[0]["attack"], 3);
}

/// A QuickPlay list of our own: QuickPlay counters all print an MR (2.3).
fn quickplay_lists(dir: &Path) -> Vec<PathBuf> {
    let union = dir.join("union.toml");
    std::fs::write(
        &union,
        "[army]\nname = \"Union\"\nrules = \"saber-quickplay\"\nside = \"Union\"\n\n\
         [[leader]]\nid = \"q-reynolds\"\nname = \"Reynolds\"\ncf = 1\nmr = 2\nmv = 1\n\n\
         [[unit]]\nid = \"q-iron\"\nname = \"Iron Brigade\"\ntype = \"infantry\"\nformation = 1\ncf = 6\nmr = 4\nma = 5\nsteps = 2\n\n\
         [[unit]]\nid = \"q-buford\"\nname = \"Buford\"\ntype = \"cavalry\"\ncf = 3\nmr = 4\nma = 8\n\n\
         [[unit]]\nid = \"q-battery\"\nname = \"Battery\"\ntype = \"artillery\"\ncf = 3\nmr = 5\nma = 4\n",
    )
    .unwrap();
    let rebels = dir.join("rebels.toml");
    std::fs::write(
        &rebels,
        "[army]\nname = \"Confederates\"\nrules = \"saber-quickplay\"\nside = \"Confederate\"\n\n\
         [[leader]]\nid = \"q-early\"\nname = \"Early\"\ncf = 1\nmr = 1\nmv = 1\n\n\
         [[unit]]\nid = \"q-gordon\"\nname = \"Gordon's brigade\"\ntype = \"infantry\"\ncf = 5\nmr = 4\nma = 5\nsteps = 2\n",
    )
    .unwrap();
    vec![union, rebels]
}

// 2, QuickPlay: "the leader's combat factor may be added to one unit ...
// Accompanied disrupted units are not halved when attacking" (10.0 3);
// "the leader's morale factor may be added to one unit, but that unit
// always fails on a morale die roll of "6."" (10.0 2).
#[test]
fn quickplay_leaders_follow_their_own_rules() {
    let dir = temp_dir("qp-lists");
    let t = Table::with_armies("qp-leaders", &quickplay_lists(&dir));
    let v = t.ok("morale q-iron q-reynolds rolled 6\nmorale q-iron q-reynolds rolled 5\n");
    assert_eq!(v[0]["outcome"], "fail");
    assert_eq!(v[1]["mr"], 6);
    assert_eq!(v[1]["outcome"], "pass");
    // Disrupted (QuickPlay 7.5 Ar: "All affected units retreat or are
    // disrupted"), the Iron Brigade alone is halved: 3 vs 5.
    t.ok("choose q-iron disruption\n");
    assert_eq!(t.unit("q-iron")["disrupted"], true);
    let v = t.ok("attack q-iron vs q-gordon rolled 3 3\n");
    assert_eq!(v[0]["attack"], 3);
    // Accompanied by Reynolds it is not halved: 6 + 1 = 7.
    let v = t.ok("attack q-iron q-reynolds vs q-gordon rolled 3 3\n");
    assert_eq!(v[0]["attack"], 7);
    // "Its morale is reduced by two" (11.1 6): MR 4 − 2 = 2.
    let v = t.ok("morale q-iron rolled 3\n");
    assert_eq!(v[0]["needed"], 2);
    assert_eq!(v[0]["outcome"], "fail");
}

// 3. "There is no morale rating on the counter; artillery is presumed
// always to have an MR of "6" (but, as always, fails a morale check on a
// roll of "6")" (standard 8.1): a named battery brings that, in every verb.
#[test]
fn named_artillery_works_in_every_verb() {
    let t = Table::new("artillery");
    let v = t.ok("morale fr-art-reille rolled 5\nmorale fr-art-reille rolled 6\n");
    assert_eq!(v[0]["needed"], 5);
    assert_eq!(v[0]["outcome"], "pass");
    assert_eq!(v[1]["outcome"], "fail");
    // Foy's battery (2) attacks Bijlandt (4): −2, die 3: Ac(NE); the
    // battery checks with MR 6: a 5 passes, so NE.
    let v = t.ok("attack fr-art-foy vs al-bijlandt rolled 3 5\n");
    assert_eq!(v[0]["differential"], -2);
    assert_eq!(v[0]["check"]["needed"], 5);
    assert_eq!(v[0]["outcome"], "no-effect");
    // Stacked with an infantry brigade, the brigade is the primary unit
    // (MR 4): 5 + 2 = 7 vs 4: +3, die 1: Dc(NE); Bijlandt checks.
    let v = t.ok("attack fr-husson fr-art-foy vs al-bijlandt rolled 1 3\n");
    assert_eq!(v[0]["attack"], 7);
    assert_eq!(v[0]["check"]["needed"], 3);
    // A battery defending: 6 vs 2 = +4, die 1: Dr, the owner's choice
    // (no check for an undisrupted unit, 7.8).
    let v = t.ok("attack al-kempt vs fr-art-foy rolled 1 6\n");
    assert_eq!(v[0]["result"], "Dr");
    // Bombarding and bombarded.
    let v = t.ok("bombard fr-art-reille vs al-stievenaar rolled 1 6\n");
    // 4: column +4, die 1: Dr: no check in a bombardment's Dr.
    assert_eq!(v[0]["result"], "Dr");
    let v = t.ok("bombard fr-art-foy vs al-stievenaar rolled 3 6\n");
    // 2: column +2, die 3: Dr; a 6 would fail.
    assert_eq!(v[0]["result"], "Dr");
    let v = t.ok("ma fr-art-reille\n");
    assert_eq!(v[0]["ma"], 4);
    // 7.5: "it cannot be an Ineffective unit or an artillery unit unless
    // nothing else is available".
    let (code, _, err) = t.text("attack fr-art-foy fr-husson vs al-bijlandt rolled 1 3\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("cannot be an artillery unit"), "{err}");
}

// 4. `show` for leaders and units: everything known.
#[test]
fn show_tells_everything_known_of_leaders_and_units() {
    let t = Table::new("show");
    let (code, out, err) = t.text("show ney\nshow Ney\nshow fr-husson\nshow fr-art-foy\n");
    assert_eq!(code, Some(0), "{err}");
    for row in [
        "Marshal Ney",
        "leader",
        "mv",
        "span",
        "casualty",
        "Husson's brigade",
        "formation",
        "infantry",
        "2 of 2 left",
        "disrupted",
        "routed",
        "eliminated",
        "presumed always to have an MR of 6",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
    let (code, _, err) = t.text("show nei\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("did you mean `ney`"), "{err}");
    t.ok("choose fr-husson disruption\n");
    let (_, out, _) = t.text("show fr-husson\n");
    assert!(
        out.lines()
            .any(|l| l.contains("disrupted") && l.contains("yes")),
        "{out}"
    );
}

// 5. "Ae or De = eliminated. Make a morale check for the primary unit on
// the affected side. If it succeeds, the primary unit on the affected side
// loses one step (7.11) and any remaining units on the affected side
// retreat" (standard 7.8): a mandatory step loss is kept.
#[test]
fn step_losses_the_results_impose_are_kept() {
    let t = Table::new("steps");
    // 6 + 5 = 11 vs 4: +4 column, die 6: De L; Bijlandt MR 3, die 2 passes.
    let v = t.ok("attack fr-gauthier fr-jamin vs al-bijlandt rolled 6 2\n");
    assert_eq!(v[0]["result"], "De L");
    assert_eq!(t.unit("al-bijlandt")["steps_lost"], 1);
    assert_eq!(t.unit("al-bijlandt")["steps_left"], 1);
    // "Ex = exchange. The primary unit on each side loses one step" (7.8):
    // 4 vs 6 = −2, die 4.
    t.ok("attack al-best vs fr-bauduin rolled 4 1\n");
    assert_eq!(t.unit("al-best")["steps_lost"], 1);
    assert_eq!(t.unit("fr-bauduin")["steps_lost"], 1);
    // "Ax or Dx = step loss. The owning player has a choice" (7.8): nothing
    // is recorded until he has chosen. 5 vs 4 = +1, die 5: Dx.
    let v = t.ok("attack fr-husson vs al-saxe-weimar rolled 5 1\n");
    assert_eq!(v[0]["result"], "Dx");
    assert_eq!(t.unit("al-saxe-weimar")["steps_lost"], 0);
    assert!(notes(&v[0]).contains("choose"), "{v:?}");
    t.ok("choose al-saxe-weimar step-loss\n");
    assert_eq!(t.unit("al-saxe-weimar")["steps_lost"], 1);
    // Press forward (7.13 2): "If the defender does not rout, the attacker
    // loses one step": 5 + 2 vs 6 = +1, die 1: Ac(NE), the attacker passes.
    t.ok("attack fr-campi press-forward vs al-kempt rolled 1 1\n");
    assert_eq!(t.unit("fr-campi")["steps_lost"], 1);
    // "Am or Dm ... If it fails, all participating and stacked units on
    // the affected side rout": 6 + 6 + 4 = 16 vs Pack 6 + Wellington 2 =
    // 8: +8, the outer column +4, die 3: Dm(Dr); Pack 5 + Wellington 2
    // = 7, and a 6 always fails.
    t.ok("attack fr-soye fr-bauduin fr-art-reille vs al-pack wellington rolled 3 6\n");
    assert_eq!(t.unit("al-pack")["routed"], true);
    assert_eq!(t.unit("al-pack")["disrupted"], true);
    // Wellington retreats with the stack: ineffective (7.8, 7.9).
    assert_eq!(t.leader("wellington")["ineffective"], true);
}

// QuickPlay 7.5: "Ax or Dx ... If the primary unit passes its morale check,
// it takes a loss (7.7) and no advance is possible. If it fails the check,
// or if the owning player chooses, all units of the affected side are
// disrupted ... and retreat".
#[test]
fn quickplay_x_results_record_only_what_is_imposed() {
    let dir = temp_dir("qp-x-lists");
    let t = Table::with_armies("qp-x", &quickplay_lists(&dir));
    // 6 vs 5 = +1, die 5: Dx; Gordon MR 4 passes on 3: the owner may
    // still choose disruption and retreat: nothing recorded.
    let v = t.ok("attack q-iron vs q-gordon rolled 5 3\n");
    assert_eq!(v[0]["result"], "Dx");
    assert_eq!(t.unit("q-gordon")["steps_lost"], 0);
    // A 5 fails: disrupted and retreat, imposed.
    t.ok("attack q-iron vs q-gordon rolled 5 5\n");
    assert_eq!(t.unit("q-gordon")["disrupted"], true);
    // Cavalry (9.1: "It becomes ineffective whenever forced to retreat"):
    // 6 vs 3 = +3, die 3: Dx; Buford MR 4 fails on 6: disrupted, retreats.
    t.ok("attack q-iron vs q-buford rolled 3 6\n");
    assert_eq!(t.unit("q-buford")["disrupted"], true);
    assert_eq!(t.unit("q-buford")["ineffective"], true);
    // 11.3: "An ineffective ... cavalry unit ... operates and recovers in
    // the same way as a disrupted unit": one −2, not two.
    let v = t.ok("morale q-buford rolled 2\n");
    assert_eq!(v[0]["needed"], 2);
    // 11.1: eligible for march movement, it recovers automatically.
    t.ok("recover q-buford march\n");
    assert_eq!(t.unit("q-buford")["disrupted"], false);
    assert_eq!(t.unit("q-buford")["ineffective"], false);
}

// 6. "A disrupted unit operates normally except ... 4) it adds two to all
// morale check die rolls" and "2) treat its Combat Factor as
// parenthesized (... halved when attacking)"; "Make a morale check (do not
// add two to the roll); if the unit passes, remove the marker" (11.1).
#[test]
fn disruption_is_kept_read_and_cleared_as_the_rules_say() {
    let t = Table::new("disruption");
    // 5 + 2 vs 4 = +3, die 4: Dm(Dr); Saxe-Weimar MR 3 passes on 3: Dr,
    // the owner's choice: he takes disruption.
    t.ok("attack fr-husson ney vs al-saxe-weimar rolled 4 3\n");
    assert_eq!(t.unit("al-saxe-weimar")["disrupted"], false);
    t.ok("choose al-saxe-weimar disruption\n");
    assert_eq!(t.unit("al-saxe-weimar")["disrupted"], true);
    // MR 3, +2 to the roll: only a 1 passes.
    let v = t.ok("morale al-saxe-weimar rolled 2\n");
    assert_eq!(v[0]["needed"], 1);
    assert_eq!(v[0]["outcome"], "fail");
    // Attacking, its 4 counts 2: 2 vs 5 = −3, die 2: Am(Ar); MR 3 with +2
    // to the roll fails on 2: it routs (and stays disrupted).
    let v = t.ok("attack al-saxe-weimar vs fr-husson rolled 2 2\n");
    assert_eq!(v[0]["attack"], 2);
    assert_eq!(t.unit("al-saxe-weimar")["routed"], true);
    // Recovery: a check without the +2: a 3 passes.
    let v = t.ok("recover al-saxe-weimar rolled 3\n");
    assert_eq!(v[0]["outcome"], "recovers");
    assert_eq!(t.unit("al-saxe-weimar")["disrupted"], false);
    assert_eq!(t.unit("al-saxe-weimar")["routed"], false);
    // A rout ends disrupted (7.10): 6 + 2 vs 4 = +4, die 3: Dm(Dr); a 6
    // fails.
    t.ok("attack fr-gauthier fr-art-foy vs al-best rolled 3 6\n");
    assert_eq!(t.unit("al-best")["routed"], true);
    assert_eq!(t.unit("al-best")["disrupted"], true);
    // A routed unit recovers as a disrupted one; a failed check keeps it.
    let v = t.ok("recover al-best rolled 4\n");
    assert_eq!(v[0]["outcome"], "stays");
    assert_eq!(t.unit("al-best")["disrupted"], true);
    // "At night ... a unit not moving or fighting recovers automatically"
    // (11.1, 14.2).
    t.ok("recover al-best night\n");
    assert_eq!(t.unit("al-best")["disrupted"], false);
    assert_eq!(t.unit("al-best")["routed"], false);
    // Artillery forced to retreat becomes ineffective (7.9): 6 vs 2 = +4,
    // die 1: Dr; the owner retreats. "Recovery is automatic" (11.3).
    t.ok("attack al-kempt vs fr-art-foy rolled 1 1\nchoose fr-art-foy retreat\n");
    assert_eq!(t.unit("fr-art-foy")["ineffective"], true);
    // Ineffective artillery may not bombard (8.4 2).
    let (code, _, err) = t.text("bombard fr-art-foy vs al-kempt\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("must be effective"), "{err}");
    t.ok("recover fr-art-foy\n");
    assert_eq!(t.unit("fr-art-foy")["ineffective"], false);
}

// 7. "If the unit already has a red band showing, it is eliminated"; "Remove
// the casualties from the map; they are out of the game for good" (10.4).
#[test]
fn the_eliminated_and_the_fallen_cannot_act_until_undone() {
    let t = Table::new("fallen");
    // Brunswick light infantry, one step: 6 vs 3 = +3, die 6: De, a 3
    // passes: it loses its only step.
    t.ok("attack fr-bauduin vs al-brunswick-light rolled 6 3\n");
    assert_eq!(t.unit("al-brunswick-light")["eliminated"], true);
    let (code, _, err) = t.text("morale al-brunswick-light rolled 3\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("is eliminated"), "{err}");
    assert!(err.contains("undo"), "{err}");
    t.ok("undo\n");
    let v = t.ok("morale al-brunswick-light rolled 3\n");
    assert_eq!(v[0]["outcome"], "pass");
    // A leader casualty: a participating leader on a 5 or 6 (10.4).
    t.ok("leader-casualty picton participating rolled 5\n");
    assert_eq!(t.leader("picton")["casualty"], true);
    let (code, _, err) = t.text("morale al-kempt picton rolled 3\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("is a casualty"), "{err}");
    let (code, _, err) = t.text("leader-casualty picton stacked rolled 6\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("casualty already"), "{err}");
    // The refused lines left nothing to undo: `undo` takes back the casualty.
    t.ok("undo\n");
    assert_eq!(t.leader("picton")["casualty"], false);
    let v = t.ok("morale al-kempt picton rolled 6\n");
    assert_eq!(v[0]["mr"], 7);
    // A combat unit is not a leader to check.
    let (code, _, err) = t.text("leader-casualty al-kempt participating rolled 6\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("is a combat unit"), "{err}");
}

// 8. The roster in Musket & Saber terms, and the end of a turn as the
// sequence of play has it: "Game Turn Marker Phase: if the last game turn
// has been completed, determine the winner of the game (18.0). If more
// turns remain, advance the Game Turn Marker" (3.2).
#[test]
fn units_and_end_turn_speak_musket_and_saber() {
    let t = Table::new("roster");
    t.ok("choose al-bijlandt disruption\n");
    let (code, out, err) = t.text("units\nend-turn\n");
    assert_eq!(code, Some(0), "{err}");
    let header = out.lines().find(|l| l.contains(" id ")).expect("a header");
    let columns: Vec<&str> = header
        .split(['│', '┆'])
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        columns,
        ["id", "name", "type", "cf", "mr", "ma", "steps", "state"]
    );
    let bijlandt = out.lines().find(|l| l.contains("al-bijlandt")).unwrap();
    assert!(bijlandt.contains("2/2") && bijlandt.contains("disrupted"));
    let hussars = out
        .lines()
        .find(|l| l.contains("al-brunswick-hussars"))
        .unwrap();
    assert!(hussars.contains(" V "), "{hussars}");
    assert!(out.contains("leader wellington"), "{out}");
    assert!(out.contains("Game Turn Marker Phase"), "{out}");
    assert!(out.contains("al-bijlandt (disrupted)"), "{out}");
    for drums in ["resilience", "bases", "forced to retire"] {
        assert!(!out.contains(drums), "{drums}: {out}");
    }
}

// 9. Every fact a unit or leader can bring is read by a verb of its book
// that may name it.
#[test]
fn every_fact_a_unit_can_bring_is_read_by_a_verb_of_its_book() {
    let tables = drumhead::systems::embedded().unwrap();
    let dir = temp_dir("facts");
    let mut lists = vec![
        shipped("quatre-bras-1815-french.toml"),
        shipped("quatre-bras-1815-allied.toml"),
    ];
    lists.extend(quickplay_lists(&dir));
    for pair in lists.chunks(2) {
        let sources: Vec<ArmySource> = pair
            .iter()
            .map(|p| ArmySource {
                file: p.display().to_string(),
                text: std::fs::read_to_string(p).unwrap(),
            })
            .collect();
        let game = Game::new(sources, &tables).unwrap();
        let catalog = drumhead::session::catalog(&tables);
        for army in &game.armies {
            let mut checked = 0;
            for (id, _) in army.ids() {
                let facts = game.possible_facts(&id);
                assert!(!facts.is_empty(), "{id} brings nothing");
                for fact in facts {
                    assert!(
                        catalog
                            .for_system(army.rules)
                            .any(|v| v.reads_fact(&fact.word)),
                        "{id}: no {} verb reads `{}`",
                        army.rules,
                        fact.word
                    );
                    checked += 1;
                }
            }
            assert!(checked > 0);
        }
    }
}

// A word a verb knows twice would be read as its first meaning only (and a
// named unit's fact could pick the second): each Musket & Saber verb knows
// each word once, on each side.
#[test]
fn no_verb_knows_a_word_twice() {
    let tables = drumhead::systems::embedded().unwrap();
    let catalog = drumhead::session::catalog(&tables);
    for book in [drumhead::saber::SABER, drumhead::saber::QUICKPLAY] {
        for verb in catalog.verbs().filter(|v| v.system == Some(book)) {
            let sides = std::iter::once(&verb.vocab).chain(verb.clauses.iter().map(|(_, v)| v));
            for vocab in sides {
                let mut seen = std::collections::HashSet::new();
                for entry in &vocab.entries {
                    assert!(
                        seen.insert(entry.name.as_str()),
                        "{book} {}: `{}` twice",
                        verb.name,
                        entry.name
                    );
                }
            }
        }
    }
}
