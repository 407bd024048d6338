//! Musket & Saber: what the rules forbid a named unit, told from the facts
//! it brings in a game kept in a file. Each test quotes the rule it
//! follows; the dice are entered.

use crate::common;

use std::path::Path;

use common::game::temp_dir;

fn shipped(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("armies")
        .join(file)
        .display()
        .to_string()
}

/// Run a script in a new game of these armies: (exit code, stdout, stderr).
fn play(name: &str, armies: &[String], script: &str) -> (Option<i32>, String, String) {
    let game = common::game::temp_file(name, "g.json");
    let mut args: Vec<String> = armies
        .iter()
        .flat_map(|a| ["--army".to_string(), a.clone()])
        .collect();
    args.extend(["--game".into(), game.display().to_string()]);
    common::run(&args, script)
}

fn quatre_bras() -> Vec<String> {
    vec![
        shipped("quatre-bras-1815-french.toml"),
        shipped("quatre-bras-1815-allied.toml"),
    ]
}

// 9.4: a defending cavalry unit countercharging "need not move and does not
// make a morale check, but must meet all other requirements"; 7.13 3:
// "Charge participants may not be disrupted or ineffective."
#[test]
fn a_disrupted_cavalry_unit_may_not_countercharge() {
    // Husson (5) is attacked by Van Merlen countercharging (2): treated as
    // the attacker, 2 − 5 = −3; die 2 is an A result, an Ax on a charge,
    // and cavalry on an x result retreats disrupted (9.2).
    let (code, out, err) = play(
        "countercharge",
        &quatre_bras(),
        "attack fr-husson vs al-van-merlen countercharge rolled 2 3\n\
         attack fr-husson vs al-van-merlen countercharge rolled 2 3\n",
    );
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("game: al-van-merlen is disrupted"), "{out}");
    assert!(
        err.contains("`al-van-merlen` is disrupted: countercharging cavalry must meet every requirement of a charge"),
        "{err}"
    );
    assert!(err.contains("(7.13 3)"), "{err}");
}

// 7.13 3: "Charge participants may not be disrupted or ineffective."
#[test]
fn a_disrupted_second_unit_may_not_charge() {
    // Campi, disrupted by its owner's choice on an earlier result, brings
    // `disrupted`: the charge beside Husson is refused on Campi's account.
    let (code, out, err) = play(
        "charge",
        &quatre_bras(),
        "choose fr-campi disruption\n\
         attack fr-husson fr-campi charge vs al-halkett rolled 2 3 4\n",
    );
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains("`fr-campi` is disrupted: charge participants may not be disrupted or ineffective (7.13 3, 9.3)"),
        "{err}"
    );
}

// 7.13 1: "Any attacking infantry unit with a non-bracketed, non-V Movement
// Allowance may conduct a skirmish attack".
#[test]
fn infantry_with_a_v_movement_allowance_may_not_skirmish() {
    let dir = temp_dir("skirmish-army");
    let army = dir.join("militia.toml");
    std::fs::write(
        &army,
        "[army]\nname = \"Militia\"\nrules = \"saber\"\nside = \"Militia\"\n\n\
         [[unit]]\nid = \"militia\"\nname = \"Militia brigade\"\ntype = \"infantry\"\nformation = \"1\"\ncf = 3\nmr = 3\nsteps = 1\n\n\
         [[unit]]\nid = \"regulars\"\nname = \"Regular brigade\"\ntype = \"infantry\"\nformation = \"1\"\ncf = 4\nmr = 4\nma = 5\nsteps = 2\n",
    )
    .unwrap();
    let armies = [
        army.display().to_string(),
        shipped("quatre-bras-1815-allied.toml"),
    ];
    let (code, out, err) = play(
        "skirmish",
        &armies,
        "attack militia skirmish vs al-halkett rolled 2 3\n",
    );
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains("`militia` has a V movement allowance: only infantry with a non-bracketed, non-V MA may skirmish (7.13 1)"),
        "{err}"
    );
    // A unit with a printed MA may.
    let (code, out, err) = play(
        "skirmish-ok",
        &armies,
        "attack regulars skirmish vs al-halkett rolled 2 3\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("skirmish"), "{out}");
}
