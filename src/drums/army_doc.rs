//! What drumhead-armies(5), `help armies` and `drumhead new-army drums`
//! say of Drums and Muskets lists. The words each key takes are the
//! reader's own lists (this module sits inside `army`), so the page cannot
//! offer a word the reader refuses or miss one it takes.

use super::{
    ABILITIES, ARMS, CLASSES, DOCTRINES, FORMATIONS, MAX_BASES, MAX_FIGURES, TRAITS, WEAPONS,
    formations_for, weapons_for,
};
use crate::army::doc::{ArmyDoc, KeyDoc, KeyType, Need, SectionDoc, choices, gone_key};
use crate::army::one_of;

// The meanings are the quick reference's words for each.
const ABILITY_MEANINGS: &[(&str, &str)] = &[
    (
        "exceptional",
        "Exceptional ability: +1D6 to his side's initiative.",
    ),
    ("ordinary", "Ordinary ability."),
    (
        "incompetent",
        "Incompetent ability: -1D6 from his side's initiative.",
    ),
];

const TRAIT_MEANINGS: &[(&str, &str)] = &[
    (
        "inspiring",
        "An inspiring general in a unit's line of command within 3BW adds to its resilience tests.",
    ),
    (
        "hated",
        "A hated general in a unit's line of command within 3BW takes from its resilience tests.",
    ),
];

const ARM_MEANINGS: &[(&str, &str)] = &[
    ("foot", "Foot (formed infantry)."),
    ("cavalry", "Cavalry; may be heavy or lancers."),
    ("artillery", "Artillery, counted by model or base."),
    (
        "irregular",
        "Irregular troops (\"All Irregular troops\" in the charge table).",
    ),
];

const CLASS_MEANINGS: &[(&str, &str)] = &[
    (
        "determined",
        "Classed as Determined: better resilience, holding and melee. Not with lackluster.",
    ),
    (
        "lackluster",
        "Classed as Lackluster: worse resilience, holding and melee. Not with determined.",
    ),
    (
        "zealous",
        "Classed as Zealous: better in charge or melee resilience tests and in the melee of a charge.",
    ),
    (
        "guards",
        "Classed as Guards: better resilience and more melee dice.",
    ),
];

const FORMATION_MEANINGS: &[(&str, &str)] = &[
    ("open", "Open formation."),
    ("line", "Formed, in line."),
    ("column-of-attack", "Formed, in column of attack."),
    ("column-of-march", "Column of march: cannot charge."),
    ("square", "Foot in square."),
    ("formed", "Formed cavalry."),
    (
        "limbered",
        "Artillery limbered (moves as a column of march).",
    ),
    ("unlimbered", "Artillery unlimbered, ready to shoot."),
];

const WEAPON_MEANINGS: &[(&str, &str)] = &[
    ("carbine", "Carbines (dismounted cavalry)."),
    ("musket", "Smooth bore muskets."),
    ("rifle", "Rifles and rifled muskets."),
    ("minie", "Minie rifles or similar."),
    ("field-artillery", "Field artillery (up to 7pdr)."),
    ("position-artillery", "Position artillery (8pdr plus)."),
];

const DOCTRINE_MEANINGS: &[(&str, &str)] = &[
    (
        "light-company",
        "Uses light company doctrine: shooters at it (that do not use it themselves) remove dice.",
    ),
    (
        "two-rank",
        "Uses 2 ranks firing doctrine: formed shooters add 1 in 3 dice at close range.",
    ),
];

/// `foot: open, line…; cavalry: …` from the reader's own rule.
fn by_arm(of: fn(&str) -> &'static [&'static str]) -> String {
    ARMS.iter()
        .map(|arm| format!("{arm}: {}", one_of(of(arm))))
        .collect::<Vec<_>>()
        .join("; ")
}

fn entry(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

pub(crate) fn doc() -> ArmyDoc {
    ArmyDoc {
        about: "Each [[unit]] is a unit of bases (or of figures), each [[general]] a general \
                model; distances are in base widths (BW).",
        sections: vec![general(), unit()],
    }
}

fn general() -> SectionDoc {
    SectionDoc {
        name: "general",
        about: "A general: his ability counts in the initiative roll, and units name him as \
                the general in their line of command.",
        keys: vec![
            KeyDoc {
                key: "ability",
                ty: KeyType::Word(choices(ABILITIES, ABILITY_MEANINGS)),
                need: Need::Default("ordinary"),
                about: "His ability: one die more or less in each initiative roll.".into(),
                sample: "\"ordinary\"",
            },
            KeyDoc {
                key: "traits",
                ty: KeyType::Words(choices(TRAITS, TRAIT_MEANINGS)),
                need: Need::Optional,
                about: "What his presence does to the resilience tests of the units in his \
                        line of command within 3BW; a general cannot be both inspiring and hated."
                    .into(),
                sample: "[\"inspiring\"]",
            },
            KeyDoc {
                key: "commander",
                ty: KeyType::Bool,
                need: Need::Default("false"),
                about: "He is the force commander, who issues supply dice; a list has at most \
                        one."
                    .into(),
                sample: "true",
            },
            gone_key("killed, captured or incapacitated in an earlier battle"),
        ],
        examples: vec![
            entry(&[
                ("id", "\"gen-1\""),
                ("name", "\"The general commanding\""),
                ("ability", "\"exceptional\""),
                ("traits", "[\"inspiring\"]"),
                ("commander", "true"),
            ]),
            entry(&[
                ("id", "\"gen-2\""),
                ("name", "\"The brigadier of the foot\""),
                ("ability", "\"ordinary\""),
            ]),
        ],
    }
}

fn unit() -> SectionDoc {
    SectionDoc {
        name: "unit",
        about: "A unit of foot, cavalry, artillery or irregulars, counted in bases (each 6 \
                hits remove a base) or in figures (each hit removes a figure).",
        keys: [unit_kind_keys(), unit_count_keys()].concat(),
        examples: unit_examples(),
    }
}

/// What the unit is: its arm, class, formation and weapon.
fn unit_kind_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "arm",
            ty: KeyType::Word(choices(ARMS, ARM_MEANINGS)),
            need: Need::Required,
            about: "What kind of troops the unit is: it decides the formations and \
                    weapons it may have."
                .into(),
            sample: "\"foot\"",
        },
        KeyDoc {
            key: "heavy",
            ty: KeyType::Bool,
            need: Need::Default("false"),
            about: "Heavy cavalry (cavalry only): more melee dice in a charge.".into(),
            sample: "true",
        },
        KeyDoc {
            key: "lancers",
            ty: KeyType::Bool,
            need: Need::Default("false"),
            about: "Lancers (cavalry only): more melee dice in the first melee of a charge.".into(),
            sample: "true",
        },
        KeyDoc {
            key: "class",
            ty: KeyType::Words(choices(CLASSES, CLASS_MEANINGS)),
            need: Need::Optional,
            about: "How the unit is classed; not both determined and lackluster.".into(),
            sample: "[\"determined\"]",
        },
        KeyDoc {
            key: "formation",
            ty: KeyType::Word(choices(FORMATIONS, FORMATION_MEANINGS)),
            need: Need::Required,
            about: format!(
                "The formation it starts in, one its arm can take ({}).",
                by_arm(formations_for)
            ),
            sample: "\"line\"",
        },
        KeyDoc {
            key: "weapon",
            ty: KeyType::Word(choices(WEAPONS, WEAPON_MEANINGS)),
            need: Need::Optional,
            about: format!(
                "Its one weapon type (Shooting Table 1), one its arm can carry ({}). \
                 Leave it out for a unit that does not shoot.",
                by_arm(weapons_for)
            ),
            sample: "\"musket\"",
        },
    ]
}

/// How the unit is counted, and whose command it is in.
fn unit_count_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "bases",
            ty: KeyType::Int {
                min: 1,
                max: MAX_BASES,
                or: None,
            },
            need: Need::Either("figures"),
            about: "Its bases at the start of the game: each 6 hits remove a base, and \
                    the end-of-turn resilience test comes at 50% or lower of this."
                .into(),
            sample: "6",
        },
        KeyDoc {
            key: "figures",
            ty: KeyType::Int {
                min: 1,
                max: MAX_FIGURES,
                or: None,
            },
            need: Need::Either("bases"),
            about: "Instead of bases, for a unit counted in figures: each hit removes a \
                    figure."
                .into(),
            sample: "24",
        },
        KeyDoc {
            key: "doctrine",
            ty: KeyType::Words(choices(DOCTRINES, DOCTRINE_MEANINGS)),
            need: Need::Optional,
            about: "The shooting doctrines it uses.".into(),
            sample: "[\"light-company\"]",
        },
        KeyDoc {
            key: "general",
            ty: KeyType::Ref("general"),
            need: Need::Optional,
            about: "The general in its line of command.".into(),
            sample: "\"gen-1\"",
        },
        KeyDoc {
            key: "lost",
            ty: KeyType::Int {
                min: 1,
                max: MAX_FIGURES,
                or: None,
            },
            need: Need::Default("0"),
            about: "Campaigns: the bases (or figures) the unit lost in earlier battles; bases \
                    (or figures) stay its size as first listed. It starts the battle with the \
                    rest (units shows 4/6 bases); at most its size. Its end-of-turn resilience test comes at \
                    50% or lower of what it started the battle with; one that lost them all \
                    starts out of action (a close writes gone for it instead). drumhead \
                    campaign export writes it."
                .into(),
            sample: "2",
        },
        gone_key("every base lost in an earlier battle"),
    ]
}

fn unit_examples() -> Vec<Vec<(&'static str, String)>> {
    vec![
        entry(&[
            ("id", "\"foot-1\""),
            ("name", "\"1st Battalion of the line\""),
            ("arm", "\"foot\""),
            ("class", "[\"determined\"]"),
            ("formation", "\"line\""),
            ("weapon", "\"musket\""),
            ("bases", "6"),
            ("doctrine", "[\"two-rank\"]"),
            ("general", "\"gen-2\""),
        ]),
        entry(&[
            ("id", "\"horse-1\""),
            ("name", "\"The cuirassiers\""),
            ("arm", "\"cavalry\""),
            ("heavy", "true"),
            ("formation", "\"formed\""),
            ("bases", "4"),
            ("general", "\"gen-1\""),
        ]),
        entry(&[
            ("id", "\"guns-1\""),
            ("name", "\"Foot battery\""),
            ("arm", "\"artillery\""),
            ("formation", "\"unlimbered\""),
            ("weapon", "\"field-artillery\""),
            ("bases", "2"),
            ("general", "\"gen-1\""),
        ]),
        entry(&[
            ("id", "\"light-1\""),
            ("name", "\"Skirmishers, counted in figures\""),
            ("arm", "\"irregular\""),
            ("formation", "\"open\""),
            ("weapon", "\"rifle\""),
            ("figures", "12"),
            ("doctrine", "[\"light-company\"]"),
            ("general", "\"gen-2\""),
        ]),
    ]
}
