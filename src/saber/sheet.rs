//! The Musket & Saber quick-reference sheets (standard and QuickPlay):
//! every table the verbs read, in the order and words of the rules
//! (shared/rules/musket-and-saber-standard.txt and -quickplay.txt), with
//! the combat results table in force. Each is written from the typed
//! tables the verbs resolve with ([`Tables::rules`], [`Tables::crt`]), so
//! the sheet shows what the verbs use.

use crate::command::System;
use crate::dice::DiceExpr;
use crate::error::TableError;
use crate::sheet::{Section, Sheet, Table, signed};
use crate::tables::TableSource;

use super::crt::{Column, Crt, CrtKind};
use super::{AdjustTo, SaberRules, Tables, TacticSide, Variant};

pub(crate) fn sheet(book: System, source: &TableSource) -> Result<Sheet, TableError> {
    let variant = Variant::of(book);
    let quickplay = variant == Variant::QuickPlay;
    let ([label, campaign_label], r) = Tables::rules(source, variant)?;
    let crt = Tables::crt(source)?;
    let mut sections = vec![
        morale(&r, quickplay),
        movement(&r),
        combat(&r, quickplay),
        results(&r, &crt),
        artillery(&r),
        leaders(&r),
    ];
    sections.extend(capture_and_fow(&r));
    sections.push(r.campaign.section());

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
        sources: vec![label, crt.file.clone(), campaign_label],
        sections,
    })
}

/// A row of prose, when the table has some: a rule a book does not have
/// is left off its sheet.
fn prose(t: &mut Table, head: &str, value: &str) {
    if !value.is_empty() {
        t.row(head, vec![value.to_string()]);
    }
}

/// The words of a rule only one book has (none: empty).
fn words(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or_default()
}

/// Dice as the rules write them: `1D6`, `2D6+3`.
fn dice(expr: &DiceExpr) -> String {
    let mut text: String = expr
        .dice
        .iter()
        .map(|(count, sides)| format!("{count}D{sides}"))
        .collect::<Vec<_>>()
        .join("+");
    if expr.fixed != 0 || text.is_empty() {
        if !text.is_empty() && expr.fixed >= 0 {
            text.push('+');
        }
        text.push_str(&expr.fixed.to_string());
    }
    text
}

/// Morale: the check and what adjusts it.
fn morale(r: &SaberRules, quickplay: bool) -> Section {
    let m = &r.morale;
    let mut s = Section::new("Morale");
    s.note(&m.rule);
    let mut t = Table::new("Morale check", &["", ""]).rule(if quickplay { "2.3" } else { "2.4" });
    t.row("Die", vec![format!("1D{}", m.die)]);
    t.row(
        "Always passes on a roll of",
        vec![m.always_pass.to_string()],
    );
    t.row("Always fails on a roll of", vec![m.always_fail.to_string()]);
    prose(&mut t, "Leader", &m.leader);
    prose(
        &mut t,
        "Artillery",
        m.artillery.as_ref().map_or("", |a| a.row.as_str()),
    );
    prose(&mut t, "Ineffective", words(&m.ineffective));
    s.tables.push(t);
    let mut t = Table::new("Morale adjustments", &["", "To", "Adjustment"]);
    for a in &m.adjustment {
        let to = match a.to {
            AdjustTo::Roll => "die roll",
            AdjustTo::Rating => "morale rating",
        };
        t.row(&a.row, vec![to.to_string(), signed(a.value)]);
    }
    s.tables.push(t);
    s
}

/// Movement: the variable MA and march movement.
fn movement(r: &SaberRules) -> Section {
    let ma = &r.ma;
    let mut s = Section::new("Movement");
    s.note(&ma.rule);
    let mut t = Table::new(
        format!("Variable movement allowance ({} a roll)", dice(&ma.die)),
        &["A unit rolls for its MA when", ""],
    );
    for w in &ma.rolls_when {
        t.row(&w.row, Vec::new());
    }
    if let Some(fast) = ma.fast.as_ref().filter(|f| !f.row.is_empty()) {
        t.note(format!(
            "{} (above {}: +{})",
            fast.row, fast.above, fast.add
        ));
    }
    s.tables.push(t);
    let march = &ma.march;
    let number = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
    let roll = |d: &Option<DiceExpr>| d.as_ref().map(dice).unwrap_or_default();
    let allowances = [
        ("Infantry and artillery", number(march.infantry)),
        ("Cavalry", number(march.cavalry)),
        (
            "Infantry and artillery, rolling",
            roll(&march.infantry_roll),
        ),
        ("Cavalry, rolling", roll(&march.cavalry_roll)),
        ("The MA multiplied by", number(march.multiplier)),
    ];
    if allowances.iter().any(|(_, value)| !value.is_empty()) {
        let mut t = Table::new("March movement", &["", "MA"]);
        for (head, value) in &allowances {
            prose(&mut t, head, value);
        }
        t.note(&march.row);
        // Standard 4.7, 12.1, 12.4: when march movement is not available.
        for w in &march.not_when {
            t.row(
                format!("Not available with `{}`", w.keyword),
                vec![w.row.clone()],
            );
        }
        s.tables.push(t);
    }
    // Standard 12.1, 12.2: the HQ and the trains move by their printed MA.
    for (head, rule) in [("The HQ", &ma.hq), ("The trains", &ma.trains)] {
        if let Some(rule) = rule {
            s.note(format!("{head}: {rule}"));
        }
    }
    s
}

/// Combat: the factors, coordination and the tactics.
fn combat(r: &SaberRules, quickplay: bool) -> Section {
    let c = &r.combat;
    let mut s = Section::new("Combat");
    s.note(&c.rule);
    let mut t = Table::new("Combat factors", &["", ""]);
    prose(&mut t, "Halved once", &c.halved_once);
    prose(&mut t, "Halved twice", &c.halved_twice);
    prose(&mut t, "Parenthesized CF", &c.parenthesized);
    prose(&mut t, "Cavalry", words(&c.cavalry_on_x));
    prose(
        &mut t,
        "Cavalry vs disrupted",
        words(&c.cavalry_vs_disrupted),
    );
    prose(&mut t, "At night", words(&c.night));
    prose(&mut t, "Advance at night", words(&c.night_advance));
    prose(&mut t, "No safe line of retreat", words(&c.no_slr));
    s.tables.push(t);
    if let Some(co) = r.coordination.as_ref().filter(|co| !co.rule.is_empty()) {
        let mut t = Table::new("Coordination", &["", ""]).rule("7.14, 14.3 2");
        prose(&mut t, "Coordinated", &co.rule);
        prose(&mut t, "Uncoordinated", &co.uncoordinated);
        prose(&mut t, "A leader (`coordinated`)", &co.leader);
        prose(&mut t, "A leader named", &co.named_leader);
        prose(&mut t, "At twilight", &co.twilight);
        prose(&mut t, "The word", &co.word);
        prose(&mut t, "Played (optional rule)", &co.played.to_string());
        s.tables.push(t);
    }
    let mut t = Table::new("Choice of tactics", &["Tactic", "Side", "Adjustment"])
        .rule(if quickplay { "7.0, 9.0" } else { "7.13, 9.0" });
    for a in &r.tactic {
        let side = match a.side {
            TacticSide::Attacker => "attacker",
            TacticSide::Defender => "defender",
            TacticSide::Either => "either",
        };
        let value = a.value.map(signed).unwrap_or_default();
        t.row(&a.row, vec![side.to_string(), value]);
    }
    s.tables.push(t);
    s
}

/// A CRT column as its file heads it: `-1`, `+2`, `3:1`.
fn column(c: &Column) -> String {
    match *c {
        Column::Differential(n) => signed(n),
        Column::Ratio(attack, defence) => format!("{attack}:{defence}"),
    }
}

/// The combat results table in force, and what its results mean.
fn results(r: &SaberRules, crt: &Crt) -> Section {
    let mut s = Section::new("Combat Results Table");
    let mut heads = vec!["Die".to_string()];
    heads.extend(crt.columns.iter().map(column));
    let kind = match crt.kind {
        CrtKind::Differential => "differential",
        CrtKind::Ratio => "ratio",
    };
    let mut t = Table {
        heads,
        ..Table::new(format!("{} ({kind})", crt.name), &[])
    };
    for (i, line) in crt.rows.iter().enumerate() {
        t.row(
            (i + 1).to_string(),
            line.iter().map(|cell| cell.text.clone()).collect(),
        );
    }
    t.note(match crt.kind {
        CrtKind::Differential => {
            "Columns: the combat differential (attack minus defence); the outer columns take everything beyond them."
        }
        // As `attack` looks a ratio up: the highest column not above the
        // true odds.
        CrtKind::Ratio => {
            "Columns: the odds, attack to defence, rounded in the defender's favour; the outer columns take everything beyond them."
        }
    });
    s.tables.push(t);
    let res = &r.results;
    let mut t = Table::new("Combat results", &["", ""]);
    prose(&mut t, "Retreat", &res.retreat_hexes);
    prose(&mut t, "Rout", &res.rout);
    prose(&mut t, "Step loss", &res.step_loss);
    prose(&mut t, "Advance", &res.advance);
    prose(&mut t, "Advance after a rout", &res.rout_advance);
    prose(&mut t, "Ineffective", words(&res.ineffective));
    prose(&mut t, "DF", &res.df);
    prose(&mut t, "Leader", &res.leader);
    prose(&mut t, "Ammo", &res.ammo);
    prose(
        &mut t,
        "Results these rules do not define",
        &res.undefined.join(", "),
    );
    s.tables.push(t);
    s
}

/// Artillery: bombardment.
fn artillery(r: &SaberRules) -> Section {
    let b = &r.bombard;
    let mut s = Section::new("Artillery");
    s.note(&b.rule);
    let mut t = Table::new("Bombardment", &["", ""]);
    t.row(
        "Against cavalry, the attack strength multiplied by",
        vec![b.vs_cavalry_multiplier.to_string()],
    );
    prose(&mut t, "At night (`night`)", words(&b.night));
    prose(&mut t, "At twilight (`twilight`)", words(&b.twilight));
    prose(&mut t, "The next hex (`adjacent`)", words(&b.adjacent));
    s.tables.push(t);
    s
}

/// Leader casualties (10.4).
fn leaders(r: &SaberRules) -> Section {
    let mut s = Section::new("Leaders");
    let mut t = Table::new("Leader casualties", &["", "1D6"]);
    for a in &r.leader_casualty {
        let n = a.at_least;
        let roll = if n >= 6 {
            n.to_string()
        } else {
            format!("{n}-6")
        };
        t.row(&a.row, vec![roll]);
    }
    s.tables.push(t);
    s
}

/// Capture and the fortunes of war, where the rules have them.
fn capture_and_fow(r: &SaberRules) -> Option<Section> {
    let capture = r.capture.as_ref().filter(|c| !c.row.is_empty());
    let fow = r.fow.as_ref().filter(|f| !f.row.is_empty());
    if capture.is_none() && fow.is_none() {
        return None;
    }
    let mut s = Section::new("Capture and Fortunes of War");
    let mut t = Table::new("Rolls", &["", "Die"]);
    if let Some(c) = capture {
        t.row(&c.row, vec![format!("1D{}", c.die)]);
    }
    if let Some(f) = fow {
        t.row(
            &f.row,
            vec![format!("1D{}: 1-{}", f.die, f.move_enemy_at_most)],
        );
    }
    s.tables.push(t);
    Some(s)
}
