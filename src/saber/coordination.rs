//! Coordination (standard 7.14): whether the attacking infantry and
//! cavalry are of one formation, or a leader coordinates them; in an
//! uncoordinated attack the units of other formations than the primary
//! attacker's are halved.
//!
//! A named unit brings its formation as the number `formation=N`, or
//! the word `all-formations` for "A".

use super::named::Named;

pub(crate) use super::words::ALL_FORMATIONS;
pub(crate) use super::words::FORMATION;
/// 2.4: "A formation of '0' indicates an independent unit, belonging to no
/// formation".
const INDEPENDENT: &str = "0";

/// One attacking unit's formation, as 7.14 reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Formation {
    /// "A": treated as belonging to every formation.
    All,
    /// "0": belongs to no formation, not even with another independent.
    Independent,
    Of(String),
    /// Not known: a typed factor, or a unit whose list gives none.
    Unknown,
}

impl Formation {
    pub(crate) fn of(unit: Option<&Named>) -> Formation {
        if unit.is_some_and(|u| u.has(ALL_FORMATIONS)) {
            return Formation::All;
        }
        match unit.and_then(|u| u.value(FORMATION)).map(|n| n.to_string()) {
            Some(code) if code == INDEPENDENT => Formation::Independent,
            Some(code) => Formation::Of(code),
            None => Formation::Unknown,
        }
    }

    /// Whether a unit of this formation belongs with the primary's.
    pub(crate) fn with(&self, primary: &Formation) -> bool {
        match (self, primary) {
            (Formation::All, _) | (_, Formation::All) => true,
            // A typed factor's formation is not known: taken as the
            // primary's, the attack being as the player typed it.
            (Formation::Unknown, _) | (_, Formation::Unknown) => true,
            (Formation::Of(a), Formation::Of(b)) => a == b,
            _ => false,
        }
    }

    pub(crate) fn name(&self) -> String {
        match self {
            Formation::All => "A (all formations)".into(),
            Formation::Independent => "0 (independent)".into(),
            Formation::Of(code) => code.clone(),
            Formation::Unknown => "not known".into(),
        }
    }
}

/// The table's words for 7.14 (standard only).
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CoordinationTable {
    /// Whether the optional rule is played (7.14: "optional but
    /// recommended").
    pub(crate) played: bool,
    pub(crate) rule: String,
    pub(crate) uncoordinated: String,
    pub(crate) leader: String,
    /// How a leader named with the attack is read (house default).
    pub(crate) named_leader: String,
    pub(crate) twilight: String,
    /// The word for a leader coordinating from an adjacent hex.
    pub(crate) word: String,
}

/// What 7.14 decided for one attack.
#[derive(Debug, Clone, Default)]
pub(crate) struct Judged {
    /// For each factor, whether it is halved as uncoordinated.
    pub(crate) halved: Vec<bool>,
    /// The rows for the modifier stack: label, value.
    pub(crate) rows: Vec<(String, String)>,
    /// Whether the attack is coordinated.
    pub(crate) coordinated: bool,
}

/// The facts 7.14 reads about an attack.
pub(crate) struct Attack<'a> {
    /// Each factor's unit, if named, and whether it is artillery.
    pub(crate) factors: Vec<(Option<&'a Named>, bool)>,
    /// The primary attacker's factor.
    pub(crate) primary: usize,
    /// An effective leader is named with the attack.
    pub(crate) named_leader: Option<&'a str>,
    /// The player said a leader coordinates from his hex or the next.
    pub(crate) leader_word: bool,
    pub(crate) twilight: bool,
}

/// 7.14: "An attack is coordinated only if all the attacking infantry
/// and/or cavalry units are in the same formation"; "A leader may
/// coordinate the attack of units from different formations"; "In an
/// uncoordinated attack, units belonging to the formation of the primary
/// attacking unit attack normally; units from all other formations are
/// halved". 14.3 2: at twilight "Coordination of attacks is not possible."
pub(crate) fn judge(table: &CoordinationTable, attack: &Attack) -> Judged {
    let mut judged = Judged {
        halved: vec![false; attack.factors.len()],
        rows: Vec::new(),
        coordinated: true,
    };
    let primary = attack
        .factors
        .get(attack.primary)
        .map_or(Formation::Unknown, |(u, _)| Formation::of(*u));
    // Artillery's fire needs no coordination here; the others are judged.
    let others: Vec<(usize, &Named, Formation)> = attack
        .factors
        .iter()
        .enumerate()
        .filter(|(k, (_, artillery))| *k != attack.primary && !artillery)
        .filter_map(|(k, (u, _))| u.map(|u| (k, u, Formation::of(Some(u)))))
        .filter(|(_, _, f)| !f.with(&primary))
        .collect();
    if others.is_empty() {
        return judged;
    }
    let leader = match (attack.named_leader, attack.leader_word) {
        (Some(id), _) => Some(format!("{id}: {}", table.named_leader)),
        (None, true) => Some(table.leader.clone()),
        (None, false) => None,
    };
    if let Some(leader) = &leader
        && !attack.twilight
    {
        judged.rows.push((leader.clone(), "coordinated".into()));
        return judged;
    }
    judged.coordinated = false;
    if attack.twilight {
        judged
            .rows
            .push((table.twilight.clone(), "uncoordinated".into()));
    }
    let names: Vec<String> = others
        .iter()
        .map(|(_, u, f)| format!("{} (formation {})", u.id, f.name()))
        .collect();
    judged.rows.push((
        format!(
            "{}: the primary attacker's formation is {}",
            table.rule,
            primary.name()
        ),
        "uncoordinated".into(),
    ));
    judged.rows.push((
        format!("{}: {}", table.uncoordinated, names.join(", ")),
        "halved".into(),
    ));
    for (k, _, _) in others {
        judged.halved[k] = true;
    }
    judged
}
