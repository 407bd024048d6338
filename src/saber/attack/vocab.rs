//! The words each side of `attack` may say.

use crate::bind::Vocab;
use crate::saber::crt::Side;
use crate::saber::factors;
use crate::saber::named;
use crate::saber::{SaberRules, TacticSide, Variant};

use super::{
    ATTACKER_TACTIC, COUNTERATTACK, DEFENDER_TACTIC, FOW_CHARGE, NO_SLR, NO_SLR_QUICKPLAY, SUPPORT,
};

pub(super) fn side_vocab(rules: &SaberRules, variant: Variant, side: Side) -> Vocab {
    let v = named_unit_words(printed_words(rules), rules, variant);
    let v = crate::saber::named::leader_formation_words(v, variant);
    let mut v = state_words(v, rules, side);
    if side == Side::Attacker {
        v = attacker_words(v, rules, variant);
    }
    defender_words(v, rules, variant, side)
}

/// The factors and arm of the primary unit, typed or brought.
fn printed_words(rules: &SaberRules) -> Vocab {
    Vocab::new()
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
        .flag("cavalry", "the primary unit is cavalry (9.2)")
        .number(
            named::printed::CHARGE,
            0,
            factors::MAX_FACTOR,
            "the primary cavalry unit's charge factor, its CF when it charges or countercharges (9.3 4, 9.4; QuickPlay 9.2 3)",
        )
        .number(
            named::printed::DEFENCE,
            0,
            factors::MAX_FACTOR,
            "the primary artillery unit's defense factor, its CF when attacked by an adjacent unit or skirmished against (8.1, 7.13 1)",
        )
        .flag(
            named::printed::PARENTHESIZED,
            "the primary unit's CF is parenthesized: halved when attacking (2.4)",
        )
        .number(
            "ma",
            1,
            30,
            "the primary unit's MA: its combat factor in a skirmish, infantry on both sides (7.13 1)",
        )
        .flag(
            "v",
            "the primary unit's MA is variable (4.4): it may not skirmish, and counts zero skirmished against (7.13 1)",
        )
        .flag(
            named::printed::BRACKETED,
            "the primary unit's MA is bracketed: it may not skirmish, and counts zero skirmished against (2.4, 7.13 1)",
        )
        .flag(
            "infantry",
            "the primary unit is infantry (brought by a named unit; tactics for infantry only check it)",
        )
}

/// What only a named unit brings: its formation, its kind, its state.
fn named_unit_words(v: Vocab, rules: &SaberRules, variant: Variant) -> Vocab {
    v
        .number(
            crate::saber::coordination::FORMATION,
            0,
            i64::MAX,
            match variant {
                Variant::Standard => "the unit's formation number (2.4), brought by a named unit: coordination reads it (7.14)",
                Variant::QuickPlay => "the unit's formation number (2.3), brought by a named unit",
            },
        )
        .flag(
            crate::saber::coordination::ALL_FORMATIONS,
            match variant {
                Variant::Standard => "a unit of formation \"A\", treated as belonging to all other formations (2.4), brought by a named unit",
                Variant::QuickPlay => "a unit of formation \"A\", of all formations (2.3), brought by a named unit",
            },
        )
        .flag(
            crate::saber::game::ONE_STEP,
            "a one-step infantry brigade (2.5), brought by a named unit: whether a tactic's second step loss finds a step to take (7.11)",
        )
        .flag(
            crate::saber::stack::BATTALION,
            "the unit is an infantry battalion (2.7), brought by a named unit: its own place in a stack (7.4) and in a charge (7.13 3)",
        )
        .flag(
            crate::saber::stack::SQUADRON,
            "the unit is a cavalry squadron (2.7), brought by a named unit: its own place in a stack (7.4) and in a cavalry charge (9.3 1)",
        )
        .flag(
            "ineffective",
            match &rules.morale.ineffective {
                Some(row) => row.clone(),
                None => "the primary unit is ineffective (11.3): it may not charge (7.13 3)".into(),
            },
        )
}

/// Artillery, and the adjustments to morale a side may say.
fn state_words(mut v: Vocab, rules: &SaberRules, side: Side) -> Vocab {
    v = match &rules.morale.artillery {
        Some(art) => v.flag(
            "artillery",
            format!("{}; artillery may not advance (8.3)", art.row),
        ),
        None => v.flag(
            "artillery",
            "the primary unit is artillery: it may not advance (8.1 4)",
        ),
    };
    for adj in &rules.morale.adjustment {
        if adj.vs_cavalry || (side == Side::Defender && adj.group.is_some()) {
            continue;
        }
        let help = if adj.keyword == "disrupted" && side == Side::Attacker {
            format!(
                "the primary unit is disrupted: {}; attacking, its CF is halved (11.1)",
                adj.row
            )
        } else {
            adj.row.clone()
        };
        v.add(adj.keyword.clone(), crate::bind::Kind::Flag, help);
    }
    v
}

/// What only the attacker says: its attacks this phase, coordination,
/// support, and the words of its variant.
fn attacker_words(mut v: Vocab, rules: &SaberRules, variant: Variant) -> Vocab {
    v = v
        .flag(
            crate::saber::game::ATTACKED,
            "the unit has attacked this combat phase (brought by a named unit in a game): a unit may attack only once per combat phase (standard 7.5, QuickPlay 7.3)",
        )
        .flag(
            crate::saber::game::CHARGING,
            "victorious charging cavalry whose charge goes on (brought by a named unit in a game): it may charge again (standard 9.3 6, QuickPlay 9.2 5)",
        );
    if let Some(c) = &rules.coordination
        && c.played
    {
        v.add(c.word.clone(), crate::bind::Kind::Flag, c.leader.clone());
    }
    v = v.number(
        SUPPORT,
        0,
        factors::MAX_FACTOR,
        match variant {
            Variant::Standard => "supporting artillery's attack strength, added to the attacker's total; doubled if any defending unit is cavalry (8.8)",
            Variant::QuickPlay => "bombarding artillery's attack factor added to the attack (8.2)",
        },
    );
    v = match variant {
        Variant::Standard => v
            .flag(
                FOW_CHARGE,
                "the charge is a fortune of war (12.4): if the primary unit passes its charge morale test, the CF of all charging units (but not leaders) is doubled",
            )
            .flag(
                "square",
                "the attacking unit is in square: it may not attack (9.5)",
            ),
        Variant::QuickPlay => v
            .flag(
                COUNTERATTACK,
                "a triggered defender not attacked counterattacks at the end of the combat phase (7.2): its combat factor is doubled",
            )
            .flag(
                "square",
                "the attacking unit is in square: subtract 2 from its combat factor (9.3)",
            ),
    };
    v
}

/// The words of either side that are the defender's: bases, no safe line
/// of retreat, the defender's MR; and each side's tactics.
fn defender_words(mut v: Vocab, rules: &SaberRules, variant: Variant, side: Side) -> Vocab {
    // 12.1, 12.2: an HQ or the trains attacked is refused with what the
    // rule does instead (named::BASES).
    if side == Side::Defender && variant == Variant::Standard {
        for (word, why) in named::BASES {
            v = v.flag(word, why.strip_prefix("is ").unwrap_or(why).to_string());
        }
    }
    // Said where the rules have no such check, it is refused with why.
    v = match (&rules.combat.no_slr, side) {
        (Some(row), Side::Defender) => v.flag(NO_SLR, row.clone()),
        (Some(_), Side::Attacker) => v.flag(NO_SLR, "the defender's word: say it after `vs`"),
        (None, Side::Defender) => v.flag(NO_SLR, NO_SLR_QUICKPLAY),
        (None, Side::Attacker) => v,
    };
    v = match side {
        Side::Attacker => v.number("def-mr", 0, 10, "the primary defender's morale rating"),
        // The same fact as the defender's `mr`: typed, it stands for the MR
        // a named defender brings.
        Side::Defender => v
            .number(
                "def-mr",
                0,
                10,
                "the primary defender's morale rating (the same as `mr=N` here)",
            )
            .slot(&["mr", "def-mr"]),
    };
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
