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

pub(crate) fn sheet(book: System, source: &TableSource) -> Result<Sheet, TableError> {
    let quickplay = book == QUICKPLAY;
    let file = if quickplay { &FILES[1] } else { &FILES[0] };
    let (label, r) = read_toml(source, file)?;
    // The CRT is read whole, never merged: it is a folio's table, not an
    // edit of the example.
    let (crt_label, crt_text) = source.read(&FILES[2])?;
    let crt: toml::Table = parse_toml(&crt_label, &crt_text, FILES[2].embedded)?;
    let mut sections = vec![
        morale(&r, quickplay),
        movement(&r),
        combat(&r, quickplay),
        results(&r, &crt),
        artillery(&r),
        leaders(&r),
    ];
    sections.extend(capture_and_fow(&r));

    // As each booklet's own front matter and credits give it.
    let publication = if quickplay {
        "Musket & Saber QuickPlay, Mini Game System Rules; system design Chris Perello; \
         Decision Games, 2013"
    } else {
        "Musket & Saber Standard Rules (folio series); Decision Games"
    };
    Ok(Sheet {
        title: book.title().to_string(),
        publication: publication.into(),
        sources: vec![label, crt_label],
        sections,
    })
}

/// A row of prose from the table at `path`, when the table has one.
fn prose(r: &toml::Table, t: &mut Table, head: &str, path: &str) {
    let value = text_at(r, path);
    if !value.is_empty() {
        t.row(head, vec![value]);
    }
}

/// Morale: the check and what adjusts it.
fn morale(r: &toml::Table, quickplay: bool) -> Section {
    let mut s = Section::new("Morale");
    s.note(text_at(r, "morale.rule"));
    let mut t = Table::new("Morale check", &["", ""]).rule(if quickplay { "2.3" } else { "2.4" });
    t.row("Die", vec![format!("1D{}", text_at(r, "morale.die"))]);
    t.row(
        "Always passes on a roll of",
        vec![text_at(r, "morale.always_pass")],
    );
    t.row(
        "Always fails on a roll of",
        vec![text_at(r, "morale.always_fail")],
    );
    prose(r, &mut t, "Leader", "morale.leader");
    prose(r, &mut t, "Artillery", "morale.artillery.row");
    prose(r, &mut t, "Ineffective", "morale.ineffective");
    s.tables.push(t);
    let mut t = Table::new("Morale adjustments", &["", "To", "Adjustment"]);
    for a in rows(r, "morale.adjustment") {
        let to = match text(a, "to").as_str() {
            "roll" => "die roll",
            "rating" => "morale rating",
            other => other,
        }
        .to_string();
        t.row(text(a, "row"), vec![to, signed(a, "value")]);
    }
    s.tables.push(t);
    s
}

/// Movement: the variable MA and march movement.
fn movement(r: &toml::Table) -> Section {
    let mut s = Section::new("Movement");
    s.note(text_at(r, "ma.rule"));
    let mut t = Table::new(
        format!(
            "Variable movement allowance ({} a roll)",
            text_at(r, "ma.die")
        ),
        &["A unit rolls for its MA when", ""],
    );
    for w in rows(r, "ma.rolls_when") {
        t.row(text(w, "row"), Vec::new());
    }
    let fast = text_at(r, "ma.fast.row");
    if !fast.is_empty() {
        t.note(format!(
            "{fast} (above {}: +{})",
            text_at(r, "ma.fast.above"),
            text_at(r, "ma.fast.add")
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
        .any(|k| !text_at(r, &format!("ma.march.{k}")).is_empty())
    {
        let mut t = Table::new("March movement", &["", "MA"]);
        for (head, key) in [
            ("Infantry and artillery", "infantry"),
            ("Cavalry", "cavalry"),
            ("Infantry and artillery, rolling", "infantry_roll"),
            ("Cavalry, rolling", "cavalry_roll"),
            ("The MA multiplied by", "multiplier"),
        ] {
            prose(r, &mut t, head, &format!("ma.march.{key}"));
        }
        t.note(text_at(r, "ma.march.row"));
        // Standard 4.7, 12.1, 12.4: when march movement is not available.
        for w in rows(r, "ma.march.not_when") {
            t.row(
                format!("Not available with `{}`", text(w, "keyword")),
                vec![text(w, "row")],
            );
        }
        s.tables.push(t);
    }
    s
}

/// Combat: the factors, coordination and the tactics.
fn combat(r: &toml::Table, quickplay: bool) -> Section {
    let mut s = Section::new("Combat");
    s.note(text_at(r, "combat.rule"));
    let mut t = Table::new("Combat factors", &["", ""]);
    prose(r, &mut t, "Halved once", "combat.halved_once");
    prose(r, &mut t, "Halved twice", "combat.halved_twice");
    prose(r, &mut t, "Parenthesized CF", "combat.parenthesized");
    prose(r, &mut t, "Cavalry", "combat.cavalry_on_x");
    prose(
        r,
        &mut t,
        "Cavalry vs disrupted",
        "combat.cavalry_vs_disrupted",
    );
    prose(r, &mut t, "At night", "combat.night");
    prose(r, &mut t, "Advance at night", "combat.night_advance");
    prose(r, &mut t, "No safe line of retreat", "combat.no_slr");
    s.tables.push(t);
    if !text_at(r, "coordination.rule").is_empty() {
        let mut t = Table::new("Coordination", &["", ""]).rule("7.14, 14.3 2");
        prose(r, &mut t, "Coordinated", "coordination.rule");
        prose(r, &mut t, "Uncoordinated", "coordination.uncoordinated");
        prose(r, &mut t, "A leader (`coordinated`)", "coordination.leader");
        prose(r, &mut t, "A leader named", "coordination.named_leader");
        prose(r, &mut t, "At twilight", "coordination.twilight");
        prose(r, &mut t, "The word", "coordination.word");
        prose(r, &mut t, "Played (optional rule)", "coordination.played");
        s.tables.push(t);
    }
    let mut t = Table::new("Choice of tactics", &["Tactic", "Side", "Adjustment"])
        .rule(if quickplay { "7.0, 9.0" } else { "7.13, 9.0" });
    for a in rows(r, "tactic") {
        t.row(text(a, "row"), vec![text(a, "side"), signed(a, "value")]);
    }
    s.tables.push(t);
    s
}

/// The combat results table in force, and what its results mean.
fn results(r: &toml::Table, crt: &toml::Table) -> Section {
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
            format!("{} ({})", text(crt, "name"), text(crt, "kind")),
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
    prose(r, &mut t, "Retreat", "results.retreat_hexes");
    prose(r, &mut t, "Rout", "results.rout");
    prose(r, &mut t, "Step loss", "results.step_loss");
    prose(r, &mut t, "Advance", "results.advance");
    prose(r, &mut t, "Advance after a rout", "results.rout_advance");
    prose(r, &mut t, "Ineffective", "results.ineffective");
    prose(r, &mut t, "DF", "results.df");
    prose(r, &mut t, "Leader", "results.leader");
    prose(r, &mut t, "Ammo", "results.ammo");
    let undefined = text_at(r, "results.undefined");
    if !undefined.is_empty() {
        t.row("Results these rules do not define", vec![undefined]);
    }
    s.tables.push(t);
    s
}

/// Artillery: bombardment.
fn artillery(r: &toml::Table) -> Section {
    let mut s = Section::new("Artillery");
    s.note(text_at(r, "bombard.rule"));
    let mut t = Table::new("Bombardment", &["", ""]);
    t.row(
        "Against cavalry, the attack strength multiplied by",
        vec![text_at(r, "bombard.vs_cavalry_multiplier")],
    );
    prose(r, &mut t, "At night (`night`)", "bombard.night");
    prose(r, &mut t, "At twilight (`twilight`)", "bombard.twilight");
    prose(r, &mut t, "The next hex (`adjacent`)", "bombard.adjacent");
    s.tables.push(t);
    s
}

/// Leader casualties (10.4).
fn leaders(r: &toml::Table) -> Section {
    let mut s = Section::new("Leaders");
    let mut t = Table::new("Leader casualties", &["", "1D6"]);
    for a in rows(r, "leader_casualty") {
        let n = int(a, "at_least").unwrap_or(6);
        let roll = if n >= 6 {
            n.to_string()
        } else {
            format!("{n}-6")
        };
        t.row(text(a, "row"), vec![roll]);
    }
    s.tables.push(t);
    s
}

/// Capture and the fortunes of war, where the rules have them.
fn capture_and_fow(r: &toml::Table) -> Option<Section> {
    let capture = text_at(r, "capture.row");
    let fow = text_at(r, "fow.row");
    if capture.is_empty() && fow.is_empty() {
        return None;
    }
    let mut s = Section::new("Capture and Fortunes of War");
    let mut t = Table::new("Rolls", &["", "Die"]);
    if !capture.is_empty() {
        t.row(capture, vec![format!("1D{}", text_at(r, "capture.die"))]);
    }
    if !fow.is_empty() {
        t.row(
            fow,
            vec![format!(
                "1D{}: 1-{}",
                text_at(r, "fow.die"),
                text_at(r, "fow.move_enemy_at_most")
            )],
        );
    }
    s.tables.push(t);
    Some(s)
}
