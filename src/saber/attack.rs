//! `attack CF… vs CF…`: the differential (or odds ratio), the CRT cell, and
//! the result resolved with the morale die, as transformed by the tactics.
//!
//! Dice, in the order they are drawn: the morale checks the tactics make
//! before the combat (a charge's check, forming square), then the combat
//! die, then the morale die; a second check in one result draws a further
//! die.

use std::rc::Rc;

use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, VerbDoc};
use crate::command::{ClauseKind, Span};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::{Resolution, Tone};

use super::crt::{Cell, Code, Crt, CrtKind, Lookup, Side};
use super::factors::{self, Factor};
use super::morale::{self, MoraleInput};
use super::results::{Ctx, Moved, SideInfo, idx, modifier};
use super::tactics::{self, Plan, Tactic};
use super::{AdjustTo, MoraleTable, SaberRules, Tables, TacticSide, Variant};

const ATTACKER_TACTIC: &str = "an attacker's tactic";
const DEFENDER_TACTIC: &str = "a defender's tactic";

pub fn verb(t: &Rc<Tables>, variant: Variant) -> VerbDoc {
    let rules = variant.rules(t);
    let usage: &'static str = match variant {
        Variant::Standard => {
            "attack CF… [mr=N] [leader-cf=N] [leader-mr=N] [disrupted] [cavalry] [night|twilight] [skirmish|press-forward|charge|disengage|cavalry-charge] vs CF… [mr=N] [leader-cf=N] [disrupted] [cavalry] [last-stand|disengage|countercharge|square|form-square]"
        }
        Variant::QuickPlay => {
            "attack CF… [mr=N] [leader-cf=N] [leader-mr=N] [disrupted] [cavalry] [cavalry-charge] vs CF… [mr=N] [leader-cf=N] [disrupted] [cavalry] [square]"
        }
    };
    let examples: &'static [&'static str] = match variant {
        Variant::Standard => &[
            "attack 5 4 vs 3 mr=4 rolled 6 2",
            "attack 6 (4) mr=3 def-mr=4 vs 2h",
            "attack 7 mr=4 cavalry-charge cavalry vs 4 mr=3 form-square rolled 2 3 5 4",
        ],
        Variant::QuickPlay => &[
            "attack 5 4 vs 3 mr=4 rolled 6 2",
            "attack 6 mr=4 cavalry cavalry-charge vs 3 mr=3 rolled 2 4 5 3",
        ],
    };
    VerbDoc::new(
        Some(variant.system()),
        "attack",
        usage,
        "Close combat: differential (or odds), CRT cell from the combat die, results resolved with the morale die. Dice: a charge's or square's check first, then the combat die, then the morale die.",
        side_vocab(rules, Side::Attacker),
        super::resolver(t, resolve),
    )
    .examples(examples)
    .clause(ClauseKind::Vs, side_vocab(rules, Side::Defender), 1)
}

fn side_vocab(rules: &SaberRules, side: Side) -> Vocab {
    let mut v = Vocab::new()
        .with_notation("combat factors")
        .number_from("cf")
        .number(
            "mr",
            0,
            10,
            "the primary unit's morale rating (the MR for the whole side, 7.4)",
        )
        .number(
            "leader-cf",
            0,
            9,
            "a participating leader's combat factor, added to the side's factors (10.3)",
        )
        .number("leader-mr", 0, 9, rules.morale.leader.clone())
        .flag("cavalry", "the primary unit is cavalry (9.2)");
    if let Some(art) = &rules.morale.artillery {
        v = v.flag("artillery", art.row.clone());
    }
    for adj in &rules.morale.adjustment {
        if adj.vs_cavalry || (side == Side::Defender && adj.group.is_some()) {
            continue;
        }
        v.add(
            adj.keyword.clone(),
            crate::bind::Kind::Flag,
            adj.row.clone(),
        );
    }
    if side == Side::Attacker {
        v = v.number("def-mr", 0, 10, "the primary defender's morale rating");
    }
    for t in &rules.tactic {
        let on_side = match t.side {
            TacticSide::Attacker => side == Side::Attacker,
            TacticSide::Defender => side == Side::Defender,
            TacticSide::Either => true,
        };
        if on_side {
            let group = match side {
                Side::Attacker => ATTACKER_TACTIC,
                Side::Defender => DEFENDER_TACTIC,
            };
            v = v.choice(group, &t.keyword, t.row.clone());
        }
    }
    v
}

/// One side's words, read.
struct SideWords {
    factors: Vec<Factor>,
    tactic: Option<Tactic>,
    /// Where the tactic was said, for errors.
    tactic_span: Span,
    cavalry: bool,
    disrupted: bool,
    /// A participating leader's combat factor.
    leader_cf: Option<i64>,
}

fn read_side(
    words: &Bound,
    group: &str,
    what: &str,
    input: &Input,
) -> Result<SideWords, CommandError> {
    let factors = factors::parse_all(&words.raw)?;
    if factors.is_empty() {
        return Err(input.missing(format!(
            "`attack` needs the {what}'s combat factors, like `attack 5 (4) vs 3h`"
        )));
    }
    let tactic = words
        .choice(group)
        .and_then(|(name, span)| Tactic::from_keyword(name).map(|t| (t, span)));
    Ok(SideWords {
        factors,
        tactic: tactic.map(|t| t.0),
        tactic_span: tactic.map(|t| t.1).unwrap_or_default(),
        cavalry: words.has("cavalry"),
        disrupted: words.has("disrupted"),
        leader_cf: words.value("leader-cf"),
    })
}

/// An attack as its words and the tables set it up, before any die: the
/// same for every way the dice fall, so `odds` works it out once.
struct Setup {
    attacker: SideWords,
    defender: SideWords,
    /// The sides as the results see them, before any check.
    sides: [SideInfo; 2],
    night: bool,
    heading: String,
}

impl Setup {
    fn cavalry_charge(&self) -> bool {
        self.attacker.tactic == Some(Tactic::CavalryCharge)
    }

    fn countercharge(&self) -> bool {
        self.defender.tactic == Some(Tactic::Countercharge)
    }

    fn attacked_by_cavalry(&self) -> bool {
        self.attacker.cavalry || self.cavalry_charge()
    }
}

fn resolve(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let setup = input.memoized(|| setup(tables, variant, input))?;
    fight(tables, variant, input, setup, dice)
}

/// Read both sides' words and check they make an attack.
fn setup(tables: &Tables, variant: Variant, input: &Input) -> Result<Setup, CommandError> {
    let rules = variant.rules(tables);
    let a = read_side(&input.words, ATTACKER_TACTIC, "attacker", input)?;
    let Some(d_words) = input.clause(ClauseKind::Vs) else {
        return Err(input.missing(
            "`attack` needs `vs` and the defender's combat factors, like `attack 5 4 vs 3`",
        ));
    };
    let d = read_side(d_words, DEFENDER_TACTIC, "defender", input)?;
    let cavalry_charge = a.tactic == Some(Tactic::CavalryCharge);
    let attacked_by_cavalry = a.cavalry || cavalry_charge;
    if d.tactic == Some(Tactic::FormSquare) && !cavalry_charge {
        return Err(not_here(
            d.tactic_span,
            "form-square",
            "is formed at the moment of combat only against a cavalry charge (9.5); say `square` for a square already formed",
        ));
    }
    if d.tactic == Some(Tactic::Countercharge) && !d.cavalry {
        return Err(not_here(
            d.tactic_span,
            "countercharge",
            "is for a defending cavalry unit (9.4): add `cavalry` after `vs`",
        ));
    }
    let night = input.words.has("night");
    if night
        && rules.combat.night.is_some()
        && a.tactic != Some(Tactic::Charge)
        && let Some(span) = input.words.span_of("night")
    {
        return Err(not_here(
            span,
            "night",
            "allows no combat except infantry charges (14.2): add `charge`",
        ));
    }

    // The morale of each side's primary unit, if its MR was given.
    let d_mr = match (d_words.value("mr"), input.words.value("def-mr")) {
        (Some(_), Some(_)) => {
            return Err(BindError::Conflict {
                span: input.words.span_of("def-mr").unwrap_or_default(),
                first: "mr after vs".into(),
                second: "def-mr".into(),
                group: "the defender's morale rating".into(),
            }
            .into());
        }
        (Some(v), None) => Some((v, d_words.span_of("mr").unwrap_or_default())),
        (None, Some(v)) => Some((v, input.words.span_of("def-mr").unwrap_or_default())),
        (None, None) => None,
    };
    let a_mr = input
        .words
        .value("mr")
        .map(|v| (v, input.words.span_of("mr").unwrap_or_default()));
    let a_morale = side_morale(rules, &input.words, None, a_mr, false, input)?;
    let d_morale = side_morale(
        rules,
        d_words,
        Some(&input.words),
        d_mr,
        d.tactic == Some(Tactic::Square) && attacked_by_cavalry,
        input,
    )?;
    let sides = [
        SideInfo {
            label: "attacker",
            morale: a_morale,
            missing_mr: "the attacker's morale rating is needed for this result: add `mr=N` before `vs`",
            disrupted: a.disrupted,
            cavalry: attacked_by_cavalry,
        },
        SideInfo {
            label: "defender",
            morale: d_morale,
            missing_mr: "the defender's morale rating is needed for this result: add `mr=N` after `vs` (or `def-mr=N`)",
            disrupted: d.disrupted,
            cavalry: d.cavalry,
        },
    ];
    Ok(Setup {
        attacker: a,
        defender: d,
        sides,
        night,
        heading: format!("attack on the CRT \"{}\"", tables.crt.name),
    })
}

/// What the checks before the combat decided.
struct Before {
    /// How many times the attacker's factors are halved for them.
    attack_halvings: u32,
    /// A charge passed its check: its results apply.
    pressed_home: bool,
    in_square: bool,
}

/// The checks the tactics make before the combat (a charge's, the target
/// of a QuickPlay cavalry charge, a square forming), and what they decided.
fn checks_before(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    setup: &Setup,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
    sides: &mut [SideInfo; 2],
) -> Result<(Vec<morale::Check>, Before), CommandError> {
    let rules = variant.rules(tables);
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let mut checks = Vec::new();
    let mut before = Before {
        attack_halvings: 0,
        pressed_home: false,
        in_square: d_tactic == Some(Tactic::Square),
    };
    match (variant, a_tactic) {
        (Variant::Standard, Some(Tactic::Charge | Tactic::CavalryCharge)) => {
            res.row(tactic_row(rules, a_tactic), "declared");
            let check = check_before(input, &rules.morale, res, dice, &sides[0], "charging unit")?;
            if check.passed {
                before.pressed_home = true;
                res.note("the charge is pressed home: treat all A or Ex results as Ax, all D results as Dm (Ax)");
            } else {
                before.attack_halvings += 1;
                res.note("the charge has not been pressed home: resolve the combat normally, with the CF halved");
            }
            checks.push(check);
        }
        (Variant::QuickPlay, Some(Tactic::CavalryCharge)) => {
            res.row(tactic_row(rules, a_tactic), "declared");
            let check = check_before(
                input,
                &rules.morale,
                res,
                dice,
                &sides[0],
                "charging cavalry",
            )?;
            if check.passed {
                if before.in_square {
                    res.note("a unit in square does not make a morale check when charged by cavalry (9.3)");
                } else {
                    let target =
                        check_before(input, &rules.morale, res, dice, &sides[1], "target unit")?;
                    if !target.passed {
                        res.note("the target unit fails its check: it disrupts (9.2 2)");
                        make_disrupted(rules, &mut sides[1]);
                    }
                    checks.push(target);
                }
            } else {
                res.note("the charging cavalry fails its check: it is disrupted (9.2 2), and disrupted units are halved when attacking (11.1 4)");
                make_disrupted(rules, &mut sides[0]);
                before.attack_halvings += 1;
            }
            checks.insert(0, check);
        }
        _ => {}
    }
    if setup.countercharge() && variant == Variant::Standard {
        res.note(tactic_row(rules, d_tactic));
    }
    if d_tactic == Some(Tactic::FormSquare) {
        let check = check_before(
            input,
            &rules.morale,
            res,
            dice,
            &sides[1],
            "defender forming square",
        )?;
        if check.passed {
            before.in_square = true;
            res.note("the square is formed (9.5 1)");
            if let Some(adj) = rules.morale.adjustment.iter().find(|a| a.vs_cavalry)
                && let Some(m) = sides[1].morale.as_mut()
            {
                m.add(adj.row.as_str(), adj.value, adj.to);
            }
        } else {
            res.note("the defender fails: it is disrupted and the square is not formed (9.5 1)");
            make_disrupted(rules, &mut sides[1]);
        }
        checks.push(check);
    }
    Ok((checks, before))
}

/// A check before the combat, by `who` of a side, on a die of its own.
fn check_before(
    input: &Input,
    table: &MoraleTable,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
    side: &SideInfo,
    who: &'static str,
) -> Result<morale::Check, CommandError> {
    let Some(m) = &side.morale else {
        return Err(input.missing(side.missing_mr));
    };
    morale::check(res, table, m, who, dice, morale::die_of(who))
}

/// One way the dice fall: the checks before the combat, the totals, the
/// CRT cell, and its results as the tactics transform them.
fn fight(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    setup: &Setup,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let crt = &tables.crt;
    let mut res = input.resolution("attack", setup.heading.clone());
    let mut sides = setup.sides.clone();
    let (checks, before) =
        checks_before(tables, variant, input, setup, &mut res, dice, &mut sides)?;

    // Countercharge against attackers that are not charging: the charging
    // cavalry is treated as the attacker (9.4).
    let swapped = setup.countercharge() && !setup.cavalry_charge();
    if swapped {
        sides.swap(0, 1);
        sides[0].label = "countercharging cavalry (the defender)";
        sides[1].label = "original attacker";
        res.note("countercharge against attackers not charging: treat the countercharging cavalry as the attacker and resolve per 9.3 (9.4)");
    }
    let (attack, defence) = totals(variant, rules, setup, &before, swapped, &sides, &mut res);

    let lookup = column(crt, attack, defence, &mut res);

    // The dice: the combat die, then the morale die, which counts only
    // through the checks that may read it.
    let cell = super::results::roll_cell(&mut res, input, crt, &lookup, dice)?;
    let morale_cuts = morale::cuts(
        &rules.morale,
        sides.iter().filter_map(|s| s.morale.as_ref()),
    );
    let morale_die = dice.roll_against(rules.morale.die, &morale_cuts)?;
    let mut ctx = Ctx::new(rules, input, sides, morale_die, &res);
    ctx.checks = checks;
    let pre_checks = ctx.checks.len();

    let plan = transform(variant, setup, &before, swapped, cell, &mut res);
    for (code, secondary) in &plan {
        ctx.apply(&mut res, dice, *code, *secondary)?;
    }
    after_combat(variant, setup, &before, &mut ctx, &mut res, dice)?;
    closing_notes(variant, setup, &ctx, &mut res);
    // The extras apply in addition to any other result.
    ctx.extras(&cell.extras, false);

    // Output.
    if !ctx.morale_die_used {
        res.die("morale die (not needed)", morale_die);
    }
    if !res.quiet {
        fields(setup, &ctx, pre_checks, &crt.name, &mut res);
    }
    if crt.file.ends_with("(embedded)") {
        res.note(super::crt::EXAMPLE_NOTE);
    }
    ctx.finish(&mut res, tone(&ctx));
    Ok(res)
}

/// The CRT column the totals land in.
fn column(crt: &Crt, attack: i64, defence: i64, res: &mut Resolution) -> Lookup {
    let lookup = match crt.kind {
        CrtKind::Differential => {
            let diff = attack - defence;
            res.score = Some(diff);
            res.row("differential", diff);
            if !res.quiet {
                res.field("differential", diff);
            }
            crt.differential_column(diff)
        }
        CrtKind::Ratio => {
            let l = crt.ratio_column(attack, defence);
            res.row("odds (rounded in the defender's favour)", l.actual);
            if !res.quiet {
                res.field("ratio", l.actual.to_string());
            }
            l
        }
    };
    super::results::show_column(res, crt, &lookup);
    if !res.quiet {
        res.field("attack", attack);
        res.field("defence", defence);
    }
    lookup
}

/// Each side's total: its factors, halved as they must be, and what the
/// leaders and tactics add.
fn totals(
    variant: Variant,
    rules: &SaberRules,
    setup: &Setup,
    before: &Before,
    swapped: bool,
    sides: &[SideInfo; 2],
    res: &mut Resolution,
) -> (i64, i64) {
    let combat = &rules.combat;
    let (att, def) = if swapped {
        (&setup.defender, &setup.attacker)
    } else {
        (&setup.attacker, &setup.defender)
    };
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    if a_tactic == Some(Tactic::Skirmish) {
        res.note("skirmish: the factors are the involved infantry units' MA (bracketed or V MA count as zero; artillery its defense factor, cavalry its combat factor)");
    }
    let mut attack = 0;
    for f in &att.factors {
        let h = f.halvings(true, before.attack_halvings);
        attack += factors::count(res, sides[0].label, f, h, combat);
    }
    if let Some(cf) = att.leader_cf {
        modifier(
            res,
            format_args!("{}: participating leader's CF (10.3)", sides[0].label),
            cf,
        );
        attack += cf;
    }
    let mut defence = 0;
    for f in &def.factors {
        defence += factors::count(res, sides[1].label, f, f.halvings(false, 0), combat);
    }
    if let Some(cf) = def.leader_cf {
        modifier(
            res,
            format_args!("{}: participating leader's CF (10.3)", sides[1].label),
            cf,
        );
        defence += cf;
    }
    // Tactics that add to the factors.
    if a_tactic == Some(Tactic::PressForward)
        && let Some(row) = rules.tactic(Tactic::PressForward.keyword())
    {
        let v = row.value.unwrap_or(0);
        modifier(res, &row.row, v);
        attack += v;
    }
    if d_tactic == Some(Tactic::LastStand)
        && let Some(row) = rules.tactic(Tactic::LastStand.keyword())
    {
        let v = row.value.unwrap_or(0);
        modifier(res, &row.row, v);
        defence += v;
    }
    if variant == Variant::QuickPlay
        && before.in_square
        && let Some(row) = rules.tactic("square")
    {
        let v = row.value.unwrap_or(0);
        if setup.attacked_by_cavalry() {
            modifier(
                res,
                format_args!("{}: defender in square, attacked by cavalry", row.row),
                v,
            );
            defence += v;
        } else {
            let n = att.factors.len() as i64;
            modifier(
                res,
                format_args!("{}: each attacking unit other than cavalry (×{n})", row.row),
                v * n,
            );
            attack += v * n;
        }
    }
    if let Some(text) = &combat.cavalry_vs_disrupted
        && setup.attacked_by_cavalry()
        && sides[1].disrupted
    {
        let doubled: i64 = att
            .factors
            .iter()
            .map(|f| factors::halve(f.printed, f.halvings(true, before.attack_halvings), combat))
            .sum();
        modifier(res, text, doubled);
        attack += doubled;
    }
    res.row(format_args!("{} total", sides[0].label), attack);
    res.row(format_args!("{} total", sides[1].label), defence);
    (attack, defence)
}

/// The CRT cell's result as the tactics transform it.
fn transform(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    swapped: bool,
    cell: &Cell,
    res: &mut Resolution,
) -> Plan {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let mut plan: Plan = vec![(cell.primary, cell.secondary)];
    if a_tactic == Some(Tactic::Skirmish) {
        plan = vec![tactics::skirmish(cell.primary)];
        transformed(
            res,
            "skirmish: A or Ex → NE, Dx or Dm → Dr, secondary results ignored (7.13 1)",
            &plan,
        );
    }
    if before.pressed_home || (swapped && variant == Variant::Standard) {
        plan = vec![tactics::charge(cell.primary, cell.secondary)];
        transformed(
            res,
            "charge: A or Ex → Ax, D → Dm (Ax) (7.13 3, 9.3 5)",
            &plan,
        );
    }
    if standard_cavalry_square(variant, setup, before) {
        plan = plan
            .into_iter()
            .map(|(c, _)| tactics::square_standard(c))
            .collect();
        transformed(
            res,
            "square attacked by cavalry: Dr and Dx → Dm, secondary results ignored (9.5)",
            &plan,
        );
    }
    if quickplay_charge(variant, setup) {
        plan = tactics::quickplay_charge(cell.primary)
            .into_iter()
            .collect();
        transformed(res, "cavalry charge: Dr, Dc and Dx → Dm (9.2 4)", &plan);
    }
    let a_dis = a_tactic == Some(Tactic::Disengage);
    let d_dis = d_tactic == Some(Tactic::Disengage);
    if a_dis || d_dis {
        plan = plan
            .into_iter()
            .flat_map(|(c, s)| tactics::disengage(c, s, a_dis, d_dis))
            .collect();
        transformed(
            res,
            "disengage: the attacker's turns D, Ex, Ac into Ar; the defender's turns A, Ex, Dc into Dr (7.13 4)",
            &plan,
        );
    }
    plan
}

/// A standard square attacked by cavalry (9.5).
fn standard_cavalry_square(variant: Variant, setup: &Setup, before: &Before) -> bool {
    variant == Variant::Standard && before.in_square && setup.attacked_by_cavalry()
}

/// A QuickPlay cavalry charge (9.2).
fn quickplay_charge(variant: Variant, setup: &Setup) -> bool {
    variant == Variant::QuickPlay && setup.cavalry_charge()
}

/// The rules that look at how the combat ended.
fn after_combat(
    variant: Variant,
    setup: &Setup,
    before: &Before,
    ctx: &mut Ctx,
    res: &mut Resolution,
    dice: &mut dyn DiceSource,
) -> Result<(), CommandError> {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    let d_routed = ctx.routed[idx(Side::Defender)];
    if standard_cavalry_square(variant, setup, before) && !d_routed {
        res.note("the square did not rout: treat the result as an Ax (9.5)");
        ctx.clear_results();
        ctx.apply(res, dice, Code::Ax, None)?;
    }
    if quickplay_charge(variant, setup) {
        if d_routed {
            ctx.step_loss(
                Side::Defender,
                "cavalry charge: the defender routs, so it also suffers a step loss (9.2 4)",
            );
        } else {
            res.note("no defender rout: treat the result as Am (Ar) (9.2 4)");
            ctx.clear_results();
            ctx.apply(res, dice, Code::Am, Some(Code::Ar))?;
        }
    }
    if setup.cavalry_charge() && setup.countercharge() && variant == Variant::Standard {
        let a_routed = ctx.routed[idx(Side::Attacker)];
        if !d_routed && !a_routed {
            res.note("countercharge against charging cavalry: neither side routs, so both sides must retreat and are disrupted; the attacker first (9.4)");
            ctx.clear_results();
            ctx.retreat_disrupted(
                Side::Attacker,
                "countercharge: the attacker must retreat and is disrupted",
            );
            ctx.retreat_disrupted(
                Side::Defender,
                "countercharge: the defender must retreat and is disrupted",
            );
        }
    }
    if a_tactic == Some(Tactic::PressForward) && !ctx.routed[idx(Side::Defender)] {
        ctx.step_loss(
            Side::Attacker,
            "press forward: the defender did not rout, so the attacker loses one step in addition to any other result (7.13 2)",
        );
    }
    if d_tactic == Some(Tactic::LastStand) {
        match ctx.moved[idx(Side::Attacker)] {
            Moved::No => ctx.step_loss(
                Side::Defender,
                "last stand: the attacker did not retreat, so the defender loses one step in addition to any other result (7.13 5)",
            ),
            Moved::Choice => ctx.step_loss(
                Side::Defender,
                "last stand: if the attacker does not retreat, the defender loses one step in addition to any other result (7.13 5)",
            ),
            Moved::Yes => {}
        }
    }
    let rules = ctx.rules;
    if setup.night
        && let Some(text) = &rules.combat.night
        && !ctx.routed[idx(Side::Defender)]
    {
        ctx.retreat_disrupted(
            Side::Attacker,
            format_args!("night: the defender did not rout: {text}"),
        );
    }
    Ok(())
}

/// What the players must remember after the combat.
fn closing_notes(variant: Variant, setup: &Setup, ctx: &Ctx, res: &mut Resolution) {
    let (a_tactic, d_tactic) = (setup.attacker.tactic, setup.defender.tactic);
    if a_tactic == Some(Tactic::Disengage) || d_tactic == Some(Tactic::Disengage) {
        res.note("disengaging leaders, cavalry, artillery, battalions or squadrons are not flipped to their ineffective sides (7.13 4)");
    }
    if a_tactic == Some(Tactic::Skirmish) {
        res.note("skirmishing counts as an attack for the purposes of 7.2");
    }
    if setup.cavalry_charge() {
        if ctx.routed[idx(Side::Defender)] {
            res.note(match variant {
                Variant::Standard => "the defender routs: the cavalry may advance up to three hexes and conduct another charge, or attempt to capture the routed defender (`capture CF`) (9.3 6–7)",
                Variant::QuickPlay => "the defender routs: if still effective, the cavalry may advance zero, one or two hexes and conduct another charge (9.2 5)",
            });
        }
        res.note(match variant {
            Variant::Standard => "cavalry always becomes ineffective at the end of a charge (9.3 8)",
            Variant::QuickPlay => "the charging cavalry is ineffective at the end of a charge unless already ineffective (9.2 6)",
        });
    }
}

/// The JSON fields after the dice: the checks, the results, the tactics.
fn fields(setup: &Setup, ctx: &Ctx, pre_checks: usize, crt: &str, res: &mut Resolution) {
    if let Some(first) = ctx.checks.get(pre_checks) {
        res.field("check", first.json());
    }
    res.field(
        "checks",
        serde_json::Value::Array(ctx.checks.iter().map(|c| c.json()).collect()),
    );
    res.field("applied", ctx.applied.join(" "));
    res.field("effects", ctx.effects_json());
    ctx.game_effects(res);
    if let Some(t) = setup.attacker.tactic {
        res.field("attacker_tactic", t.keyword());
    }
    if let Some(t) = setup.defender.tactic {
        res.field("defender_tactic", t.keyword());
    }
    res.field("crt", crt.to_string());
}

/// The tone of an attack's outcome, from the attacker's side.
fn tone(ctx: &Ctx) -> Tone {
    if ctx.routed[idx(Side::Defender)] {
        Tone::Good
    } else if ctx.routed[idx(Side::Attacker)] || ctx.moved[idx(Side::Attacker)] == Moved::Yes {
        Tone::Bad
    } else {
        Tone::Neutral
    }
}

/// A transformation's row: the codes it leaves.
fn transformed(res: &mut Resolution, label: &str, plan: &Plan) {
    if res.quiet {
        return;
    }
    let shown: Vec<String> = plan
        .iter()
        .map(|(c, s)| match s {
            Some(s) => format!("{c}({s})"),
            None => c.to_string(),
        })
        .collect();
    res.row(
        label,
        if shown.is_empty() {
            "—".to_string()
        } else {
            shown.join(" then ")
        },
    );
}

fn tactic_row(rules: &SaberRules, tactic: Option<Tactic>) -> &str {
    tactic
        .and_then(|t| rules.tactic(t.keyword()))
        .map_or("", |t| t.row.as_str())
}

fn make_disrupted(rules: &SaberRules, side: &mut SideInfo) {
    if side.disrupted {
        return;
    }
    side.disrupted = true;
    if let Some(adj) = rules
        .morale
        .adjustment
        .iter()
        .find(|a| a.keyword == "disrupted")
        && let Some(m) = side.morale.as_mut()
    {
        m.add(adj.row.as_str(), adj.value, adj.to);
    }
}

fn side_morale(
    rules: &SaberRules,
    words: &Bound,
    shared: Option<&Bound>,
    mr: Option<(i64, Span)>,
    square_vs_cavalry: bool,
    input: &Input,
) -> Result<Option<MoraleInput>, CommandError> {
    if mr.is_none() && !(rules.morale.artillery.is_some() && words.has("artillery")) {
        return Ok(None);
    }
    let mut m = morale::input_from(rules, words, shared, mr, "leader-mr", false, || {
        input.missing("a morale rating is needed")
    })?;
    if square_vs_cavalry && let Some(adj) = rules.morale.adjustment.iter().find(|a| a.vs_cavalry) {
        m.add(adj.row.as_str(), adj.value, AdjustTo::Rating);
    }
    Ok(Some(m))
}

fn not_here(span: Span, text: &str, why: &str) -> CommandError {
    BindError::NotHere {
        span,
        text: text.into(),
        why: why.into(),
    }
    .into()
}
