//! The Musket & Saber quick-reference sheets (standard and QuickPlay):
//! every table the verbs read, in the order and words of the rules
//! (shared/rules/musket-and-saber-standard.txt and -quickplay.txt), with
//! the combat results table in force, from the tables in force.

use crate::command::System;
use crate::error::TableError;
use crate::sheet::value::{int, rows, signed, text, text_at};
use crate::sheet::{Section, Sheet, Table, read_toml};
use crate::tables::{TableSource, parse_toml};

use super::{FILES, QUICKPLAY};

pub fn sheet(book: System, source: &TableSource) -> Result<Sheet, TableError> {
    let quickplay = book == QUICKPLAY;
    let file = if quickplay { &FILES[1] } else { &FILES[0] };
    let (label, r) = read_toml(source, file)?;
    // The CRT is read whole, never merged: it is a folio's table, not an
    // edit of the example.
    let (crt_label, crt_text) = source.read(&FILES[2])?;
    let crt: toml::Table = parse_toml(&crt_label, &crt_text, FILES[2].embedded)?;
    let mut sections = Vec::new();
    let prose = |t: &mut Table, head: &str, path: &str| {
        let value = text_at(&r, path);
        if !value.is_empty() {
            t.row(head, vec![value]);
        }
    };

    let mut s = Section::new("Morale");
    s.note(text_at(&r, "morale.rule"));
    let mut t = Table::new("Morale check", &["", ""]).rule(if quickplay { "2.3" } else { "2.4" });
    t.row("Die", vec![format!("1D{}", text_at(&r, "morale.die"))]);
    t.row(
        "Always passes on a roll of",
        vec![text_at(&r, "morale.always_pass")],
    );
    t.row(
        "Always fails on a roll of",
        vec![text_at(&r, "morale.always_fail")],
    );
    prose(&mut t, "Leader", "morale.leader");
    prose(&mut t, "Artillery", "morale.artillery.row");
    prose(&mut t, "Ineffective", "morale.ineffective");
    s.tables.push(t);
    let mut t = Table::new("Morale adjustments", &["", "To", "Adjustment"]);
    for a in rows(&r, "morale.adjustment") {
        let to = match text(a, "to").as_str() {
            "roll" => "die roll",
            "rating" => "morale rating",
            other => other,
        }
        .to_string();
        t.row(text(a, "row"), vec![to, signed(a, "value")]);
    }
    s.tables.push(t);
    sections.push(s);

    let mut s = Section::new("Movement");
    s.note(text_at(&r, "ma.rule"));
    let mut t = Table::new(
        format!(
            "Variable movement allowance ({} a roll)",
            text_at(&r, "ma.die")
        ),
        &["A unit rolls for its MA when", ""],
    );
    for w in rows(&r, "ma.rolls_when") {
        t.row(text(w, "row"), Vec::new());
    }
    let fast = text_at(&r, "ma.fast.row");
    if !fast.is_empty() {
        t.note(format!(
            "{fast} (above {}: +{})",
            text_at(&r, "ma.fast.above"),
            text_at(&r, "ma.fast.add")
        ));
    }
    s.tables.push(t);
    let march = [
        "infantry",
        "cavalry",
        "infantry_roll",
        "cavalry_roll",
        "multiplier",
    ];
    if march
        .iter()
        .any(|k| !text_at(&r, &format!("ma.march.{k}")).is_empty())
    {
        let mut t = Table::new("March movement", &["", "MA"]);
        for (head, key) in [
            ("Infantry and artillery", "infantry"),
            ("Cavalry", "cavalry"),
            ("Infantry and artillery, rolling", "infantry_roll"),
            ("Cavalry, rolling", "cavalry_roll"),
            ("The MA multiplied by", "multiplier"),
        ] {
            prose(&mut t, head, &format!("ma.march.{key}"));
        }
        t.note(text_at(&r, "ma.march.row"));
        // Standard 4.7, 12.1, 12.4: when march movement is not available.
        for w in rows(&r, "ma.march.not_when") {
            t.row(
                format!("Not available with `{}`", text(w, "keyword")),
                vec![text(w, "row")],
            );
        }
        s.tables.push(t);
    }
    sections.push(s);

    let mut s = Section::new("Combat");
    s.note(text_at(&r, "combat.rule"));
    let mut t = Table::new("Combat factors", &["", ""]);
    prose(&mut t, "Halved once", "combat.halved_once");
    prose(&mut t, "Halved twice", "combat.halved_twice");
    prose(&mut t, "Parenthesized CF", "combat.parenthesized");
    prose(&mut t, "Cavalry", "combat.cavalry_on_x");
    prose(
        &mut t,
        "Cavalry vs disrupted",
        "combat.cavalry_vs_disrupted",
    );
    prose(&mut t, "At night", "combat.night");
    prose(&mut t, "Advance at night", "combat.night_advance");
    prose(&mut t, "No safe line of retreat", "combat.no_slr");
    s.tables.push(t);
    if !text_at(&r, "coordination.rule").is_empty() {
        let mut t = Table::new("Coordination", &["", ""]).rule("7.14, 14.3 2");
        prose(&mut t, "Coordinated", "coordination.rule");
        prose(&mut t, "Uncoordinated", "coordination.uncoordinated");
        prose(&mut t, "A leader (`coordinated`)", "coordination.leader");
        prose(&mut t, "A leader named", "coordination.named_leader");
        prose(&mut t, "At twilight", "coordination.twilight");
        prose(&mut t, "The word", "coordination.word");
        prose(&mut t, "Played (optional rule)", "coordination.played");
        s.tables.push(t);
    }
    let mut t = Table::new("Choice of tactics", &["Tactic", "Side", "Adjustment"])
        .rule(if quickplay { "7.0, 9.0" } else { "7.13, 9.0" });
    for a in rows(&r, "tactic") {
        t.row(text(a, "row"), vec![text(a, "side"), signed(a, "value")]);
    }
    s.tables.push(t);
    sections.push(s);

    let mut s = Section::new("Combat Results Table");
    let columns: Vec<String> = crt
        .get("columns")
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_integer())
                .map(|n| {
                    if n > 0 {
                        format!("+{n}")
                    } else {
                        n.to_string()
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let mut heads = vec!["Die".to_string()];
    heads.extend(columns);
    let mut t = Table {
        heads,
        ..Table::new(
            format!("{} ({})", text(&crt, "name"), text(&crt, "kind")),
            &[],
        )
    };
    if let Some(lines) = crt.get("rows").and_then(|v| v.as_array()) {
        for (i, line) in lines.iter().enumerate() {
            let cells = line
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|c| c.as_str().map_or_else(|| c.to_string(), str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            t.row((i + 1).to_string(), cells);
        }
    }
    t.note("Columns: the combat differential (attack minus defence); the outer columns take everything beyond them.");
    s.tables.push(t);
    let mut t = Table::new("Combat results", &["", ""]);
    prose(&mut t, "Retreat", "results.retreat_hexes");
    prose(&mut t, "Rout", "results.rout");
    prose(&mut t, "Step loss", "results.step_loss");
    prose(&mut t, "Advance", "results.advance");
    prose(&mut t, "Advance after a rout", "results.rout_advance");
    prose(&mut t, "Ineffective", "results.ineffective");
    prose(&mut t, "DF", "results.df");
    prose(&mut t, "Leader", "results.leader");
    prose(&mut t, "Ammo", "results.ammo");
    let undefined = text_at(&r, "results.undefined");
    if !undefined.is_empty() {
        t.row("Results these rules do not define", vec![undefined]);
    }
    s.tables.push(t);
    sections.push(s);

    let mut s = Section::new("Artillery");
    s.note(text_at(&r, "bombard.rule"));
    let mut t = Table::new("Bombardment", &["", ""]);
    t.row(
        "Against cavalry, the attack strength multiplied by",
        vec![text_at(&r, "bombard.vs_cavalry_multiplier")],
    );
    prose(&mut t, "At night (`night`)", "bombard.night");
    prose(&mut t, "At twilight (`twilight`)", "bombard.twilight");
    prose(&mut t, "The next hex (`adjacent`)", "bombard.adjacent");
    s.tables.push(t);
    sections.push(s);

    let mut s = Section::new("Leaders");
    let mut t = Table::new("Leader casualties", &["", "1D6"]);
    for a in rows(&r, "leader_casualty") {
        let n = int(a, "at_least").unwrap_or(6);
        let roll = if n >= 6 {
            n.to_string()
        } else {
            format!("{n}-6")
        };
        t.row(text(a, "row"), vec![roll]);
    }
    s.tables.push(t);
    sections.push(s);

    let capture = text_at(&r, "capture.row");
    let fow = text_at(&r, "fow.row");
    if !capture.is_empty() || !fow.is_empty() {
        let mut s = Section::new("Capture and Fortunes of War");
        let mut t = Table::new("Rolls", &["", "Die"]);
        if !capture.is_empty() {
            t.row(capture, vec![format!("1D{}", text_at(&r, "capture.die"))]);
        }
        if !fow.is_empty() {
            t.row(
                fow,
                vec![format!(
                    "1D{}: 1-{}",
                    text_at(&r, "fow.die"),
                    text_at(&r, "fow.move_enemy_at_most")
                )],
            );
        }
        s.tables.push(t);
        sections.push(s);
    }

    let rules = if quickplay {
        "shared/rules/musket-and-saber-quickplay.txt"
    } else {
        "shared/rules/musket-and-saber-standard.txt"
    };
    Ok(Sheet {
        title: book.title().to_string(),
        sources: vec![rules.into(), label, crt_label],
        sections,
    })
}
