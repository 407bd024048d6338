//! What drumhead-armies(5), `help armies` and `drumhead new-army saber`
//! (or `saber-quickplay`) say of Musket & Saber lists. The unit types are
//! the reader's own list (this module sits inside `army`), so the page
//! cannot offer a word the reader refuses or miss one it takes.

use super::TYPES;
use crate::army::doc::{ArmyDoc, KeyDoc, KeyType, Need, SectionDoc, choices, gone_key};

// The meanings are the counters' descriptions (2.3-2.7).
const TYPE_MEANINGS: &[(&str, &str)] = &[
    (
        "infantry",
        "An infantry brigade, for which the rules are written; one or two steps, no \
         ineffective side.",
    ),
    (
        "battalion",
        "An infantry battalion (2.7): one step, with an ineffective side.",
    ),
    (
        "cavalry",
        "A cavalry unit (9.0): one step, with an ineffective side.",
    ),
    (
        "squadron",
        "A cavalry squadron (2.7): one step, with an ineffective side.",
    ),
    (
        "artillery",
        "An artillery unit (8.0): one step, with an ineffective side.",
    ),
];

/// A formation (2.4): its number ("its formation number", 11.2), or "A".
fn formation() -> KeyType {
    KeyType::Int {
        min: 0,
        max: super::FORMATION_MAX,
        or: Some(crate::army::doc::Choice {
            word: "A",
            meaning: "A unit that may be treated as belonging to all other formations (2.4)."
                .into(),
        }),
    }
}

fn entry(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

fn int(min: i64, max: i64) -> KeyType {
    KeyType::Int { min, max, or: None }
}

/// A combat factor: a number, or the number in parentheses as the
/// counter prints it (2.4).
fn factor() -> KeyType {
    KeyType::Int {
        min: 0,
        max: 30,
        or: Some(crate::army::doc::Choice {
            word: "(N)",
            meaning: "The factor in parentheses, as the counter prints it, such as \"(4)\": \
                      a parenthesized CF is halved when attacking (2.4)."
                .into(),
        }),
    }
}

/// A movement allowance: a number, "V", or either in brackets.
fn movement() -> KeyType {
    KeyType::Int {
        min: 1,
        max: 30,
        or: Some(crate::army::doc::Choice {
            word: "V",
            meaning: "A variable movement allowance, rolled for (4.4). A bracketed MA, \
                      written \"[5]\" or \"[V]\", means the unit cannot skirmish (2.4, 7.13 1)."
                .into(),
        }),
    }
}

pub(crate) fn doc(quickplay: bool) -> ArmyDoc {
    ArmyDoc {
        about: "Each [[unit]] is a combat unit's counter (brigade, battalion, squadron or \
                battery) and each [[leader]] a leader's, with the factors printed on them.",
        sections: vec![
            unit_section(quickplay),
            leader_section(),
            base_section(
                "hq",
                "The army's headquarters (12.1): no combat strength and no ZOC; it moves \
                 like a cavalry unit. Attacked, it is unaffected by combat results, and the \
                 enemy receives two fortunes of war.",
                "\"hq-1\"",
                "\"Army headquarters\"",
                "10",
            ),
            base_section(
                "trains",
                "The army's trains (12.2): no combat factor and no ZOC; its march movement \
                 is limited to its printed MA. Attacked, it ignores all combat results, and \
                 the attacker receives two fortunes of war.",
                "\"trains-1\"",
                "\"Army trains\"",
                "4",
            ),
        ],
    }
}

/// The `[[unit]]` section: a combat unit's counter.
fn unit_section(quickplay: bool) -> SectionDoc {
    SectionDoc {
        name: "unit",
        about: "A combat unit: the factors printed on its counter.",
        keys: [printed_keys(quickplay), artillery_keys(), reduced_keys()].concat(),
        examples: unit_examples(quickplay),
    }
}

/// The factors every combat unit's counter prints.
fn printed_keys(quickplay: bool) -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "cf",
            ty: factor(),
            need: Need::Depends(
                "required, but artillery may give `attack` and `defence` instead (and then must not have it)",
            ),
            about: "Its combat factor (2.4); zero is a factor. Written \"(4)\" when \
                    the counter parenthesizes it: it is then halved when attacking. \
                    For artillery, one factor for both attack and defense when the \
                    list does not give `attack` and `defence`."
                .into(),
            sample: "4",
        },
        KeyDoc {
            key: "mr",
            ty: int(1, 6),
            need: if quickplay {
                Need::Required
            } else {
                Need::Depends("required, but artillery has none (and must not have one)")
            },
            about: "Its morale rating (2.4): a check fails when the die is greater. \
                    Under saber an artillery counter has no morale rating and is \
                    presumed always to have an MR of 6 (8.1): leave it out; under \
                    saber-quickplay every unit, artillery too, has one (2.3)."
                .into(),
            sample: "3",
        },
        KeyDoc {
            key: "ma",
            ty: movement(),
            need: Need::Default("\"V\", a variable movement allowance"),
            about: "Its movement allowance (2.4, 4.3); in brackets (\"[5]\") when the \
                    counter brackets it: the unit cannot skirmish, and skirmishing \
                    against it, it counts zero (7.13 1)."
                .into(),
            sample: "5",
        },
        KeyDoc {
            key: "steps",
            ty: int(1, 2),
            need: Need::Default("1"),
            about: "Its strength steps (2.5): most infantry brigades have two; \
                    every other type has one."
                .into(),
            sample: "2",
        },
        KeyDoc {
            key: "formation",
            ty: formation(),
            need: Need::Optional,
            about: "Its formation, the place in its army's command hierarchy \
                    (2.4) that decides coordination (7.14): its number, bare or \
                    quoted; 0 is an independent unit, \"A\" one that belongs to \
                    all formations."
                .into(),
            sample: "1",
        },
        KeyDoc {
            key: "type",
            ty: KeyType::Word(choices(TYPES, TYPE_MEANINGS)),
            need: Need::Default("infantry"),
            about: "What kind of combat unit the counter is (2.3).".into(),
            sample: "\"infantry\"",
        },
        KeyDoc {
            key: "charge",
            ty: int(0, 30),
            need: Need::Optional,
            about: "Cavalry and squadrons only: the charge factor, used in lieu of \
                    the CF when the unit charges or countercharges (9.3 4, 9.4; \
                    QuickPlay 9.2 3). Left out, a charge uses the CF."
                .into(),
            sample: "6",
        },
    ]
}

/// The factors only artillery prints (8.1, 8.7).
fn artillery_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "attack",
            ty: int(0, 30),
            need: Need::Depends("artillery only; with `defence`, instead of `cf`"),
            about: "Artillery's attack factor (8.1): attacking an adjacent unit, \
                    bombarding and supporting."
                .into(),
            sample: "3",
        },
        KeyDoc {
            key: "defence",
            ty: int(0, 30),
            need: Need::Depends("artillery only; required with `attack`"),
            about: "Artillery's defense factor (8.1): when attacked by an adjacent \
                    enemy unit, and when skirmished against (7.13 1)."
                .into(),
            sample: "2",
        },
        KeyDoc {
            key: "range",
            ty: int(0, 20),
            need: Need::Depends("artillery only; optional"),
            about: "Artillery's range factor (8.7): the most hexes it may bombard, \
                    counting the target's hex; zero, it may not bombard (8.4 1)."
                .into(),
            sample: "4",
        },
    ]
}

/// The reduced side of a two-step brigade (2.5).
fn reduced_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "reduced_cf",
            ty: factor(),
            need: Need::Depends("two-step brigades only; optional"),
            about: "The combat factor on the reduced (red-band) side (2.5), used \
                    once the brigade has lost a step. Left out, the front side's."
                .into(),
            sample: "3",
        },
        KeyDoc {
            key: "reduced_mr",
            ty: int(1, 6),
            need: Need::Depends("two-step brigades only; optional"),
            about: "The morale rating on the reduced side (2.5). Left out, the \
                    front side's."
                .into(),
            sample: "3",
        },
        KeyDoc {
            key: "reduced_ma",
            ty: movement(),
            need: Need::Depends("two-step brigades only; optional"),
            about: "The movement allowance on the reduced side (2.5). Left out, \
                    the front side's."
                .into(),
            sample: "5",
        },
        KeyDoc {
            key: "reduced",
            ty: KeyType::Bool,
            need: Need::Depends("two-step brigades only; optional, default false"),
            about: "Campaigns: the brigade lost a step in an earlier battle and starts this \
                    one on its reduced side (2.5): it brings reduced, and its next step lost \
                    eliminates it. drumhead campaign export writes it. Not with gone."
                .into(),
            sample: "true",
        },
        gone_key("eliminated or captured in an earlier battle"),
    ]
}

/// A unit of each kind, as a list writes it.
fn unit_examples(quickplay: bool) -> Vec<Vec<(&'static str, String)>> {
    let mut guns = entry(&[
        ("id", "\"guns-1\""),
        ("name", "\"Corps artillery\""),
        ("type", "\"artillery\""),
        ("formation", "\"A\""),
        ("attack", "3"),
        ("defence", "2"),
        ("range", "4"),
    ]);
    // Standard 8.1: no MR on an artillery counter; QuickPlay 2.3: every
    // unit has one.
    if quickplay {
        guns.push(("mr", "4".to_string()));
    }
    vec![
        entry(&[
            ("id", "\"inf-1\""),
            ("name", "\"1st Brigade\""),
            ("type", "\"infantry\""),
            ("formation", "\"1\""),
            ("cf", "5"),
            ("mr", "4"),
            ("ma", "5"),
            ("steps", "2"),
        ]),
        entry(&[
            ("id", "\"inf-3\""),
            ("name", "\"2nd Brigade\""),
            ("type", "\"infantry\""),
            ("formation", "\"1\""),
            ("cf", "\"(4)\""),
            ("mr", "3"),
            ("ma", "\"[5]\""),
            ("steps", "2"),
            ("reduced_cf", "\"(2)\""),
            ("reduced_mr", "2"),
            ("reduced_ma", "4"),
        ]),
        entry(&[
            ("id", "\"inf-2\""),
            ("name", "\"Light battalion\""),
            ("type", "\"battalion\""),
            ("formation", "\"1\""),
            ("cf", "2"),
            ("mr", "4"),
            ("ma", "6"),
        ]),
        entry(&[
            ("id", "\"cav-1\""),
            ("name", "\"Light cavalry brigade\""),
            ("type", "\"cavalry\""),
            ("formation", "\"0\""),
            ("cf", "3"),
            ("mr", "3"),
            ("charge", "5"),
        ]),
        guns,
    ]
}

/// The `[[leader]]` section: a leader's counter (10.0).
fn leader_section() -> SectionDoc {
    SectionDoc {
        name: "leader",
        about: "A leader (10.0): the factors printed on his counter, each added to a \
                unit he assists. One he does not have may be left out.",
        keys: vec![
            KeyDoc {
                key: "cf",
                ty: int(0, 10),
                need: Need::Optional,
                about: "His combat factor, added to a unit he assists in combat.".into(),
                sample: "1",
            },
            KeyDoc {
                key: "mr",
                ty: int(0, 6),
                need: Need::Optional,
                about: "His morale rating, added to a unit's MR when it checks morale.".into(),
                sample: "1",
            },
            KeyDoc {
                key: "mv",
                ty: int(0, 12),
                need: Need::Optional,
                about: "His movement value, added to a unit's MA.".into(),
                sample: "1",
            },
            KeyDoc {
                key: "span",
                ty: int(0, 20),
                need: Need::Optional,
                about: "His command span (10.0), for coordination.".into(),
                sample: "2",
            },
            KeyDoc {
                key: "formation",
                ty: formation(),
                need: Need::Optional,
                about: "The formation he belongs to (QuickPlay 10.0: his factors go \
                        to a unit of the same formation; \"A\", all formations)."
                    .into(),
                sample: "\"1\"",
            },
            gone_key("killed or captured in an earlier battle"),
        ],
        examples: vec![entry(&[
            ("id", "\"leader-1\""),
            ("name", "\"The army commander\""),
            ("cf", "1"),
            ("mr", "2"),
            ("mv", "2"),
            ("span", "4"),
        ])],
    }
}

/// An HQ's or the trains' section: an id, a name and the printed MA.
fn base_section(
    name: &'static str,
    about: &'static str,
    id: &str,
    title: &str,
    ma: &str,
) -> SectionDoc {
    SectionDoc {
        name,
        about,
        keys: vec![KeyDoc {
            key: "ma",
            ty: int(1, 30),
            need: Need::Optional,
            about: "Its printed movement allowance.".into(),
            sample: "4",
        }],
        examples: vec![entry(&[("id", id), ("name", title), ("ma", ma)])],
    }
}
