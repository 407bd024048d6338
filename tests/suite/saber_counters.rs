//! Issue 23, Musket & Saber: "For every shipped Musket & Saber unit and
//! leader, a test reads each printed factor from its list and finds it in
//! `show` and in the verbs that use it." The factors are read here from
//! the TOML itself, not through drumhead's reader; each verb is asked in
//! one batch, JSON out, with entered dice.
//!
//! The rules each check follows:
//! - 2.4: "A parenthesized CF is halved when attacking"; "A 'V' in place
//!   of a number means the unit's MA is variable"; "A bracketed MA means
//!   the unit cannot skirmish (see 7.13)".
//! - 2.5: a two-step brigade's reverse side "shows the brigade after it has
//!   suffered casualties … The factors are generally weaker".
//! - 7.13 1: "use the MA of involved infantry units on both sides as combat
//!   factors … bracketed or V MA count as zero. Defending artillery uses
//!   its defense factor, defending cavalry uses its combat factor."
//! - 8.1: "Instead of one combat factor, they have two: attack and defense.
//!   The attack factor is used when attacking an adjacent enemy unit …
//!   The defense factor is used when attacked by an adjacent enemy unit."
//! - 9.3 4: "Use the cavalry's charge factor in lieu of its CF."
//! - 10.3: a leader adds his combat factor, morale rating and movement.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Every shipped list whose rules are a Musket & Saber book, as TOML.
fn shipped() -> Vec<(PathBuf, toml::Table)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let mut out: Vec<(PathBuf, toml::Table)> = std::fs::read_dir(&dir)
        .expect("armies/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter_map(|p| {
            let t: toml::Table = std::fs::read_to_string(&p)
                .expect("a list")
                .parse()
                .expect("TOML");
            let rules = t["army"]["rules"].as_str().expect("rules").to_string();
            (rules == "saber").then_some((p, t))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 2, "the two Quatre Bras lists");
    out
}

fn entries<'a>(t: &'a toml::Table, section: &str) -> Vec<&'a toml::Table> {
    t.get(section)
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|e| e.as_table()).collect())
        .unwrap_or_default()
}

/// A key's value as the counter prints it: `5`, `(5)`, `[5]`, `V`.
fn printed(e: &toml::Table, key: &str) -> Option<String> {
    match e.get(key)? {
        toml::Value::Integer(n) => Some(n.to_string()),
        toml::Value::String(s) => Some(s.clone()),
        other => panic!("{key} = {other}"),
    }
}

/// The number inside a printed factor: `(5)` → 5, `[5]` → 5, `V` → None.
fn number(text: &str) -> Option<i64> {
    text.trim_matches(|c| "()[]".contains(c)).parse().ok()
}

/// One line to run and what to check of its answer.
struct Check {
    line: String,
    what: String,
    verify: Box<dyn Fn(&Value) -> bool>,
}

fn field(key: &'static str, want: i64) -> Box<dyn Fn(&Value) -> bool> {
    Box::new(move |v| v[key].as_i64() == Some(want))
}

/// `show` has a row `label` whose value starts with `want`, or contains it
/// where `anywhere`.
fn row(label: &str, want: String, anywhere: bool) -> Box<dyn Fn(&Value) -> bool> {
    let label = label.to_string();
    Box::new(move |v| {
        v["rows"].as_array().is_some_and(|rows| {
            rows.iter().any(|r| {
                r["label"] == label.as_str()
                    && r["value"].as_str().is_some_and(|s| {
                        if anywhere {
                            s.contains(&want)
                        } else {
                            s == want || s.starts_with(&format!("{want} "))
                        }
                    })
            })
        })
    })
}

#[test]
fn every_printed_factor_is_in_show_and_in_the_verbs_that_use_it() {
    let lists = shipped();
    let mut args: Vec<String> = Vec::new();
    let mut checks: Vec<Check> = Vec::new();
    let mut add = |line: String, what: String, verify: Box<dyn Fn(&Value) -> bool>| {
        checks.push(Check { line, what, verify });
    };
    for (path, t) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
        for u in entries(t, "unit") {
            let id = u["id"].as_str().expect("id").to_string();
            let kind = u.get("type").and_then(|v| v.as_str()).unwrap_or("infantry");
            let show = format!("show {id}");
            // Every printed key is in `show`.
            if let Some(f) = printed(u, "formation") {
                add(
                    show.clone(),
                    format!("{id} formation {f}"),
                    row("formation", f, false),
                );
            }
            add(
                show.clone(),
                format!("{id} type {kind}"),
                row("type", kind.into(), false),
            );
            for key in ["cf", "mr", "charge", "attack", "defence", "range"] {
                if let Some(v) = printed(u, key) {
                    add(show.clone(), format!("{id} {key} {v}"), row(key, v, false));
                }
            }
            let ma = printed(u, "ma").unwrap_or_else(|| "V".into());
            add(
                show.clone(),
                format!("{id} ma {ma}"),
                row("ma", ma.clone(), false),
            );
            for (key, label) in [
                ("reduced_cf", "cf"),
                ("reduced_mr", "mr"),
                ("reduced_ma", "ma"),
            ] {
                if let Some(v) = printed(u, key) {
                    add(
                        show.clone(),
                        format!("{id} {key} {v}"),
                        row("reduced side", format!("{label} {v}"), true),
                    );
                }
            }
            let steps = u.get("steps").and_then(|v| v.as_integer()).unwrap_or(1);
            add(
                show.clone(),
                format!("{id} steps {steps}"),
                row("steps", format!("{steps} of {steps} left"), false),
            );

            // And in the verbs: the attack total is the factor the rule
            // picks (die 1 and 1: no result needs a further die).
            let cf = printed(u, "cf");
            match kind {
                "artillery" => {
                    let attack = number(&printed(u, "attack").or(cf.clone()).expect("attack"));
                    let defence = number(&printed(u, "defence").or(cf.clone()).expect("defence"));
                    add(
                        format!("saber attack {id} vs 1 mr=3 rolled 1 1"),
                        format!("{id} attacks with its attack factor (8.1)"),
                        field("attack", attack.expect("a number")),
                    );
                    add(
                        format!("saber attack 5 mr=4 vs {id} rolled 1 1"),
                        format!("{id} defends with its defense factor (8.1)"),
                        field("defence", defence.expect("a number")),
                    );
                    add(
                        format!("saber bombard {id} vs mr=3 rolled 1 1"),
                        format!("{id} bombards with its attack factor (8.5)"),
                        field("score", attack.expect("a number")),
                    );
                }
                _ => {
                    let text = cf.expect("cf");
                    let n = number(&text).expect("a number");
                    // 2.4: halved once when attacking, rounding up (7.7).
                    let attacking = if text.starts_with('(') {
                        (n + 1) / 2
                    } else {
                        n
                    };
                    add(
                        format!("saber attack {id} vs 1 mr=3 rolled 1 1"),
                        format!("{id} attacks with its CF {text} (2.4)"),
                        field("attack", attacking),
                    );
                    add(
                        format!("saber attack 5 mr=4 vs {id} rolled 1 1"),
                        format!("{id} defends with its CF {text}"),
                        field("defence", n),
                    );
                }
            }
            if let Some(c) = printed(u, "charge") {
                add(
                    format!("saber attack {id} cavalry-charge vs 1 mr=3 rolled 1 1 1"),
                    format!("{id} charges with its charge factor {c} (9.3 4)"),
                    field("attack", number(&c).expect("a number")),
                );
            }
            // 7.13 1: infantry skirmished against counts its MA, a
            // bracketed or V MA zero.
            if kind == "infantry" {
                let skirmish_factor = if ma.starts_with('[') || ma == "V" {
                    0
                } else {
                    number(&ma).expect("a number")
                };
                add(
                    format!("saber attack 5 mr=4 skirmish vs {id} rolled 1 1"),
                    format!("{id} skirmished against counts its MA {ma} (7.13 1)"),
                    field("defence", skirmish_factor),
                );
            }
            // 7.13 1: "Defending artillery uses its defense factor,
            // defending cavalry uses its combat factor."
            let skirmished = match kind {
                "artillery" => printed(u, "defence").or(printed(u, "cf")),
                "cavalry" | "squadron" => printed(u, "cf"),
                _ => None,
            };
            if let Some(f) = skirmished {
                add(
                    format!("saber attack 5 mr=4 skirmish vs {id} rolled 1 1"),
                    format!("{id} skirmished against counts {f} (7.13 1)"),
                    field("defence", number(&f).expect("a number")),
                );
            }
            if kind != "artillery" {
                let mr = number(&printed(u, "mr").expect("mr")).expect("a number");
                add(
                    format!("saber morale {id} rolled 1"),
                    format!("{id} checks morale with MR {mr}"),
                    field("mr", mr),
                );
            }
            if let Some(n) = number(&ma) {
                add(
                    format!("saber ma {id}"),
                    format!("{id} moves its printed MA {ma}"),
                    field("ma", n),
                );
            }
        }
        for l in entries(t, "leader") {
            let id = l["id"].as_str().expect("id").to_string();
            let show = format!("show {id}");
            for key in ["cf", "mr", "mv", "span", "formation"] {
                if let Some(v) = printed(l, key) {
                    add(show.clone(), format!("{id} {key} {v}"), row(key, v, false));
                }
            }
            // 10.3: his CF adds to the attack, his MR to the unit's, his
            // movement to its MA.
            if let Some(cf) = printed(l, "cf").and_then(|v| number(&v)) {
                add(
                    format!("saber attack 3 mr=4 {id} vs 1 mr=3 rolled 1 1"),
                    format!("{id} adds his CF {cf}"),
                    field("attack", 3 + cf),
                );
            }
            if let Some(mr) = printed(l, "mr").and_then(|v| number(&v)) {
                add(
                    format!("saber morale 3 {id} rolled 1"),
                    format!("{id} adds his MR {mr}"),
                    field("needed", (3 + mr).min(5)),
                );
            }
            if let Some(mv) = printed(l, "mv").and_then(|v| number(&v)) {
                add(
                    format!("saber ma 5 {id}"),
                    format!("{id} adds his movement {mv}"),
                    field("ma", 5 + mv),
                );
            }
        }
        for section in ["hq", "trains"] {
            for b in entries(t, section) {
                let id = b["id"].as_str().expect("id").to_string();
                if let Some(ma) = printed(b, "ma") {
                    add(
                        format!("show {id}"),
                        format!("{id} ma {ma}"),
                        row("ma", ma, false),
                    );
                }
            }
        }
    }
    assert!(checks.len() > 150, "only {} checks", checks.len());
    args.push("--json".into());
    // Each line in a game of its own: a result one line imposes (a unit
    // disrupted, a step lost) must not change the factors the next reads.
    let answers: Vec<Value> = checks
        .iter()
        .map(|c| {
            let (_, out, err) = common::run(&args, &format!("{}\n", c.line));
            serde_json::from_str(out.trim())
                .unwrap_or_else(|e| panic!("{}: {e}: {out}{err}", c.line))
        })
        .collect();
    let wrong: Vec<String> = checks
        .iter()
        .zip(&answers)
        .filter(|(c, a)| !(c.verify)(a))
        .map(|(c, a)| format!("{}: `{}` answered {a}", c.what, c.line))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} checks failed:\n{}",
        wrong.len(),
        checks.len(),
        wrong.join("\n")
    );
}

/// 2.5: once a two-step brigade has lost a step, its reduced side's
/// factors are the ones used: Soye (CF 6, MR 3; reduced CF 4, MR 2 in its
/// list) attacks with 4 and checks morale at 2.
#[test]
fn a_reduced_brigade_uses_its_reduced_side() {
    let lists = shipped();
    let mut args: Vec<String> = Vec::new();
    for (path, _) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
    }
    args.push("--json".into());
    // A unit attacks once a combat phase (7.5): the second attack is the
    // next turn's.
    let script = "saber attack fr-soye vs 1 mr=3 rolled 1 1\n\
                  choose fr-soye step-loss\n\
                  next-turn\n\
                  saber attack fr-soye vs 1 mr=3 rolled 1 1\n\
                  saber morale fr-soye rolled 1\n";
    let (_, out, err) = common::run(&args, script);
    let a: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(a.len(), 5, "{err}");
    assert_eq!(a[0]["attack"], 6, "{}", a[0]);
    assert_eq!(a[3]["attack"], 4, "{}", a[3]);
    assert_eq!(a[4]["mr"], 2, "{}", a[4]);
}

/// The line: `saber attack fr-gauthier skirmish vs al-bijlandt
/// rolled 3 4` answered +2 and a retreat; by hand MA 5 against MA 5 is 0
/// (7.13 1), and die 3 at 0 is "NE DF", the DF ignored: no effect.
#[test]
fn a_skirmish_fights_with_the_ma_of_both_sides() {
    let lists = shipped();
    let mut args: Vec<String> = Vec::new();
    for (path, _) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
    }
    args.push("--json".into());
    let (_, out, err) = common::run(
        &args,
        "saber attack fr-gauthier skirmish vs al-bijlandt rolled 3 4\n",
    );
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(v["attack"], 5, "{v}");
    assert_eq!(v["defence"], 5, "{v}");
    assert_eq!(v["differential"], 0, "{v}");
    assert_eq!(v["applied"], "NE", "{v}");
}

/// 7.13 1: "Any attacking infantry unit with a non-bracketed, non-V
/// Movement Allowance may conduct a skirmish attack": the Brunswick line
/// prints a bracketed MA in its list.
#[test]
fn a_bracketed_ma_may_not_skirmish() {
    let lists = shipped();
    let mut args: Vec<String> = Vec::new();
    for (path, _) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
    }
    let (code, out, err) = common::run(
        &args,
        "saber attack al-brunswick-line skirmish vs fr-husson rolled 3 4\n",
    );
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains("`al-brunswick-line` has a bracketed movement allowance"),
        "{err}"
    );
}

/// A list is checked on load: a charge factor on infantry, artillery
/// factors on cavalry, a reduced side on a one-step unit and `cf` beside
/// `attack` are each refused at their key, saying why.
#[test]
fn the_new_keys_are_checked_on_load() {
    let schemas = drumhead::game::schemas_of(&drumhead::systems::all());
    let head = "[army]\nname = \"T\"\nrules = \"saber\"\nside = \"T\"\n\n";
    let cases = [
        (
            "[[unit]]\nid = \"a\"\nname = \"A\"\ncf = 4\nmr = 3\ncharge = 6\n",
            "unit[1].charge",
            "only cavalry has a charge factor (9.3 4",
        ),
        (
            "[[unit]]\nid = \"a\"\nname = \"A\"\ntype = \"cavalry\"\ncf = 4\nmr = 3\nrange = 3\n",
            "unit[1].range",
            "only artillery has attack, defense and range factors (8.1)",
        ),
        (
            "[[unit]]\nid = \"a\"\nname = \"A\"\ncf = 4\nmr = 3\nreduced_cf = 2\n",
            "unit[1].reduced_cf",
            "only a two-step infantry brigade has a reduced side (2.5)",
        ),
        (
            "[[unit]]\nid = \"a\"\nname = \"A\"\ntype = \"artillery\"\ncf = 4\nattack = 4\ndefence = 2\n",
            "unit[1].cf",
            "artillery has an attack and a defense factor instead of one combat factor (8.1)",
        ),
        (
            "[[unit]]\nid = \"a\"\nname = \"A\"\ntype = \"artillery\"\nattack = 4\n",
            "unit[1].defence",
            "missing",
        ),
        (
            "[[unit]]\nid = \"a\"\nname = \"A\"\ncf = \"(x)\"\nmr = 3\n",
            "unit[1].cf",
            "one in parentheses such as \"(4)\"",
        ),
        (
            "[[unit]]\nid = \"a\"\nname = \"A\"\ncf = 4\nmr = 3\nma = \"[x]\"\n",
            "unit[1].ma",
            "either in brackets",
        ),
    ];
    for (entry, key, says) in cases {
        let text = format!("{head}{entry}");
        let e = drumhead::army::parse_army("t.toml", &text, &schemas).expect_err("refused");
        assert_eq!(e.key, key, "{text}\n{e}");
        assert!(e.message.contains(says), "{text}\n{e}");
    }
    // And what the counters print loads and reads back.
    let ok = format!(
        "{head}[[unit]]\nid = \"a\"\nname = \"A\"\ncf = \"(4)\"\nmr = 3\nma = \"[5]\"\nsteps = 2\nreduced_cf = 2\n\n\
         [[unit]]\nid = \"g\"\nname = \"G\"\ntype = \"artillery\"\nattack = 3\ndefence = 1\nrange = 4\n\n\
         [[hq]]\nid = \"hq\"\nname = \"HQ\"\nma = 10\n"
    );
    let army = drumhead::army::parse_army("t.toml", &ok, &schemas).expect("loads");
    let list = drumhead::saber::army::read(&army).expect("a saber list");
    let a = &list.units[0];
    assert_eq!(
        (a.cf, a.cf_parenthesized, a.ma, a.ma_bracketed),
        (4, true, Some(5), true)
    );
    assert_eq!(a.face(true).cf, 2);
    let g = &list.units[1];
    assert_eq!((g.cf, g.defence(), g.range), (3, 1, Some(4)));
    assert_eq!(list.hq[0].ma, Some(10));
}

/// 12.1: the HQ "has a combat strength of zero; if attacked, it … is
/// unaffected by combat results"; 12.2: the trains "have no combat factor
/// … If attacked, it ignores all combat results". `show` gives their MA;
/// an attack on one alone throws no die (issue 35), and the other verbs
/// but `ma` refuse it with what the rule does instead.
#[test]
fn an_hq_and_the_trains_are_shown_and_refused_in_the_verbs() {
    let lists = shipped();
    let mut args: Vec<String> = Vec::new();
    for (path, _) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
    }
    args.push("--json".into());
    // Issue 35: an attack on an HQ or the trains alone is resolved with
    // no die (12.1, 12.2), giving the attacker two fortunes of war.
    let script = "show fr-hq\n\
                  saber attack 5 mr=4 vs fr-hq\n\
                  saber morale al-trains rolled 1\n\
                  saber attack 5 mr=4 vs trains\n";
    let (_, out, err) = common::run(&args, script);
    let a: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(a.len(), 4, "{err}");
    let rows = a[0]["rows"].as_array().expect("rows");
    assert!(
        rows.iter()
            .any(|r| r["label"] == "ma" && r["value"] == "10"),
        "{}",
        a[0]
    );
    for b in [&a[1], &a[3]] {
        assert_eq!(b["outcome"], "attacker-two-fow", "{b}");
        assert!(b["dice"].as_array().is_some_and(Vec::is_empty), "{b}");
    }
    assert!(
        a[2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("is the army's trains (12.2)")),
        "{}",
        a[2]
    );
}
