//! What drumhead-armies(5), `help armies` and `drumhead new-army mayhem`
//! say of Musket Mayhem lists. The words each key takes are the reader's
//! own lists (this module sits inside `army`), so the page cannot offer a
//! word the reader refuses or miss one it takes.

use super::{ARMAMENTS, MAX_BONUS, MELEE, RANKS, WEAPONS};
use crate::army::doc::{ArmyDoc, KeyDoc, KeyType, Need, SectionDoc, absent_key, choices, gone_key};
use crate::army::one_of;

// The meanings are the rules' words for each.
const RANK_MEANINGS: &[(&str, &str)] = &[
    (
        "exceptional-leader",
        "Exceptional leaders (basic courage 5); a leader in hand-to-hand.",
    ),
    (
        "leader",
        "Ordinary leaders (basic courage 4); a leader in hand-to-hand.",
    ),
    (
        "soldier",
        "Ordinary soldiers and other combatants (basic courage 3).",
    ),
    (
        "non-combatant",
        "Women and other non-combatants (basic courage 2).",
    ),
];

const ARMAMENT_MEANINGS: &[(&str, &str)] = &[
    ("unarmed", "Unarmed or knife alone (armament value 6)."),
    (
        "armed",
        "Most weapons: bayonets, tomahawks, war clubs, musket butts (armament value 5).",
    ),
    (
        "specialist",
        "Melee specialists such as trained cavalry with sword (armament value 4).",
    ),
];

const WEAPON_MEANINGS: &[(&str, &str)] = &[
    ("pistol", "Pistol, 12\"."),
    ("musket", "Musket, 24\"; +1 to the impact die."),
    ("bow", "Bow, 24\"."),
    ("rifle", "Rifle, 36\"; +1 to the impact die."),
    (
        "canister",
        "A gun firing canister, 36\" in a 45 degree cone; +2 to the impact die.",
    ),
    (
        "roundshot",
        "A gun firing roundshot, 72\" along its flight path; +3 to the impact die.",
    ),
];

fn entry(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

fn flag(key: &'static str, about: &str) -> KeyDoc {
    KeyDoc {
        key,
        ty: KeyType::Bool,
        need: Need::Default("false"),
        about: about.to_string(),
        sample: "true",
    }
}

fn refused(key: &'static str, instead: &'static str) -> KeyDoc {
    KeyDoc {
        key,
        ty: KeyType::Int {
            min: 1,
            max: MAX_BONUS,
            or: None,
        },
        need: Need::Refused(instead),
        about: format!(
            "Refused with a message: a hero's bonus says what it is for. {}",
            instead
        ),
        sample: "1",
    }
}

pub(crate) fn doc() -> ArmyDoc {
    ArmyDoc {
        about: "Each [[figure]] is one man or woman on the table; distances are in inches.",
        sections: vec![SectionDoc {
            name: "figure",
            about: "One figure: its courage (or rank), armament, missile weapon, what it \
                    brings to hand-to-hand, and a hero's tokens and bonuses.",
            keys: [kit_keys(), flag_keys(), hero_keys()].concat(),
            examples: examples(),
        }],
    }
}

/// Its courage or rank, armament and missile weapon.
fn kit_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "courage",
            ty: KeyType::Int {
                min: 1,
                max: 6,
                or: None,
            },
            need: Need::Either("rank"),
            about: "Its courage value: a check passes when the die is equal to or \
                less than it."
                .into(),
            sample: "3",
        },
        KeyDoc {
            key: "rank",
            ty: KeyType::Word(choices(RANKS, RANK_MEANINGS)),
            need: Need::Either("courage"),
            about: "Its rank, which sets its basic courage value.".into(),
            sample: "\"soldier\"",
        },
        KeyDoc {
            key: "armament",
            ty: KeyType::Word(choices(ARMAMENTS, ARMAMENT_MEANINGS)),
            need: Need::Default("armed"),
            about: "Its armament in hand-to-hand: a hit kills when the results die \
                is equal to or higher than the armament value."
                .into(),
            sample: "\"armed\"",
        },
        KeyDoc {
            key: "weapon",
            ty: KeyType::Word(choices(WEAPONS, WEAPON_MEANINGS)),
            need: Need::Optional,
            about: "Its missile weapon. Leave it out for a figure that does not shoot.".into(),
            sample: "\"musket\"",
        },
    ]
}

/// What it brings to a fight, a move or a fire, as flags.
fn flag_keys() -> Vec<KeyDoc> {
    vec![
        flag(
            "leader",
            "A leader: +1 to the skill die in hand-to-hand (a leader or \
         exceptional-leader by rank is one already).",
        ),
        flag(
            "shock",
            "'Shock troops' eager to close and melee: +1 to the skill die in \
         hand-to-hand.",
        ),
        flag(
            "bayonet",
            "Armed with bayonets: +1 to the skill die against opponents with shorter \
         weapons.",
        ),
        flag(
            "mounted",
            "Mounted: +2d6\" moving in the open, -1 to the skill die firing.",
        ),
        flag(
            "incendiary",
            "Carries incendiary materials: may set fires (ignite), may not shoot or charge.",
        ),
        flag(
            "commander",
            "The leader the player designates as his personal figure and commander: \
         one a list, and a leader; when he is killed, all individuals and groups of the contingent \
         checks courage.",
        ),
        flag(
            "move_bonus",
            "A specially designated hero: +1d6\" on each of its moves (\"+1d6 bonus for \
         specially designated heroes, etc. (Optional)\"). Save tokens alone do not \
         give it.",
        ),
    ]
}

/// A hero's tokens and bonuses (and the bonus keys refused), its group.
fn hero_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc {
            key: "saves",
            ty: KeyType::Int {
                min: 0,
                max: 20,
                or: None,
            },
            need: Need::Default("0"),
            about: "A hero's save tokens, each cancelling a death or a morale failure.".into(),
            sample: "2",
        },
        KeyDoc {
            key: "rerolls",
            ty: KeyType::Int {
                min: 0,
                max: 20,
                or: None,
            },
            need: Need::Default("0"),
            about: "A hero's reroll tokens.".into(),
            sample: "1",
        },
        KeyDoc {
            key: "bonus",
            ty: KeyType::Table("{ FOR = { skill = N, impact = N } }"),
            need: Need::Optional,
            about: format!(
                "A hero's bonuses to the skill and impact dice \"with specific \
             weapons\": FOR is {} (in hand-to-hand, to the skill die and the \
             results die) or the figure's own weapon ({}); each bonus is a whole \
             number from 1 to {MAX_BONUS}, skill or impact or both. Written \
             bonus.rifle = {{ skill = 2, impact = 1 }} or bonus.{} = {{ skill = 1 }}.",
                MELEE,
                one_of(WEAPONS),
                MELEE
            ),
            sample: "{ melee = { skill = 1, impact = 1 } }",
        },
        refused(
            "skill_bonus",
            "Write bonus.WEAPON = { skill = N } or bonus.melee = { skill = N }.",
        ),
        refused(
            "impact_bonus",
            "Write bonus.WEAPON = { impact = N } or bonus.melee = { impact = N }.",
        ),
        KeyDoc {
            key: "group",
            ty: KeyType::Label,
            need: Need::Optional,
            about: "The group it moves and fights with, a name its figures share; \
                units shows it."
                .into(),
            sample: "\"company\"",
        },
        KeyDoc {
            key: "wounded",
            ty: KeyType::Bool,
            need: Need::Default("false"),
            about: "Campaigns: the figure was downed in an earlier battle and diced wounded \
                    (\"wounded on a d6 roll of 1-4\"); it fights as the list gives it. \
                    drumhead campaign export writes it. Not with gone."
                .into(),
            sample: "true",
        },
        absent_key("wounded, kept out by a house row"),
        gone_key("downed and diced dead after an earlier battle"),
    ]
}

fn examples() -> Vec<Vec<(&'static str, String)>> {
    vec![
        entry(&[
            ("id", "\"hero-1\""),
            ("name", "\"Captain Hawkins, the hero\""),
            ("rank", "\"exceptional-leader\""),
            ("weapon", "\"rifle\""),
            ("saves", "2"),
            ("rerolls", "1"),
            ("bonus", "{ rifle = { skill = 2, impact = 1 } }"),
            ("group", "\"company\""),
        ]),
        entry(&[
            ("id", "\"soldier-1\""),
            ("name", "\"Private Adams\""),
            ("rank", "\"soldier\""),
            ("weapon", "\"musket\""),
            ("bayonet", "true"),
            ("group", "\"company\""),
        ]),
        entry(&[
            ("id", "\"trooper-1\""),
            ("name", "\"Trooper Baker, dragoon\""),
            ("rank", "\"soldier\""),
            ("armament", "\"specialist\""),
            ("weapon", "\"pistol\""),
            ("shock", "true"),
            ("mounted", "true"),
        ]),
        entry(&[
            ("id", "\"villager-1\""),
            ("name", "\"A villager\""),
            ("courage", "2"),
            ("armament", "\"unarmed\""),
        ]),
    ]
}
