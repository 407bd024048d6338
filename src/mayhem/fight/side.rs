//! The two sides of a fight: each figure's modifiers, armament, impact
//! bonus and tokens from its words.

use crate::bind::Bound;
use crate::catalog::Input;
use crate::command::ClauseKind;
use crate::error::{BindError, CommandError};
use crate::mayhem::game::LEADER;
use crate::mayhem::{COMMANDER, D6, MayhemTables, Tokens, named_figures, one_figure};

use super::{ARMAMENT, MELEE_IMPACT, MELEE_SKILL};

/// The modifier's keyword that counts only against a shorter weapon.
const BAYONET: &str = "bayonet";

/// One figure's facts from its words.
pub(super) struct Side {
    pub(super) name: String,
    /// The figure of the game it is, when named.
    pub(super) id: Option<String>,
    /// It leads (a company or warband, or the contingent).
    pub(super) leader: bool,
    pub(super) commander: bool,
    pub(super) modifiers: Vec<(String, i64)>,
    /// "+1 for troops armed with bayonets against opponents with shorter
    /// weapons": its row, counted only against an opponent without one.
    pub(super) bayonet: Option<(String, i64)>,
    pub(super) armament: i64,
    pub(super) armament_row: String,
    pub(super) impact: i64,
    pub(super) tokens: Tokens,
}

impl Side {
    pub(super) fn new(
        name: String,
        id: Option<String>,
        words: &Bound,
        tables: &MayhemTables,
    ) -> Result<Side, CommandError> {
        let t = &tables.fight;
        let mut modifiers = Vec::new();
        // The commander is a leader ("designate one leader to serve as his
        // personal figure and commander of the contingent").
        let commander = words.has(COMMANDER);
        let mut bayonet = None;
        for m in &t.modifier {
            if std::iter::once(&m.keyword)
                .chain(&m.aliases)
                .any(|k| words.has(k))
                || (commander && m.keyword == LEADER)
            {
                if m.keyword == BAYONET {
                    bayonet = Some((m.row.clone(), m.value));
                } else {
                    modifiers.push((m.row.clone(), m.value));
                }
            }
        }
        if let Some(n) = words.value("skill").filter(|n| *n != 0) {
            modifiers.push(("hero's bonus to the skill die".to_string(), n));
        }
        if let Some(n) = words.value(MELEE_SKILL).filter(|n| *n != 0) {
            modifiers.push(("hero's bonus to the skill die in melee".to_string(), n));
        }
        let (armament, armament_row) = match (words.choice(ARMAMENT), words.value("armament")) {
            (Some((name, _)), Some(_)) => {
                let span = words.span_of("armament").unwrap_or_default();
                return Err(BindError::Conflict {
                    span,
                    first: name.to_string(),
                    second: "armament".into(),
                    group: ARMAMENT.into(),
                }
                .into());
            }
            (None, Some(n)) => (n, format!("armament {n} (given)")),
            (Some((name, _)), None) => t
                .armament
                .iter()
                .find(|a| a.keyword == name)
                .map(|a| (a.value, a.keyword.clone()))
                .unwrap_or((i64::from(D6), name.to_string())),
            (None, None) => t
                .armament
                .iter()
                .find(|a| a.default)
                .map(|a| (a.value, format!("{} (the default)", a.keyword)))
                .unwrap_or((i64::from(D6), "default".into())),
        };
        Ok(Side {
            name,
            id,
            leader: words.has(LEADER) || commander,
            commander,
            modifiers,
            bayonet,
            armament,
            armament_row,
            impact: words
                .value("impact")
                .unwrap_or(0)
                .saturating_add(words.value(MELEE_IMPACT).unwrap_or(0)),
            tokens: Tokens::from_bound(words),
        })
    }

    /// How the text names it: the figure's id where one is named, else its
    /// letter (`A`, `B`, `B2`).
    pub(super) fn who(&self) -> &str {
        self.id.as_deref().unwrap_or(&self.name)
    }

    /// Its modifiers against one opponent: the bayonet's only against an
    /// opponent without bayonets, whose weapon is the shorter.
    pub(super) fn modifiers_vs(&self, other: &Side) -> Vec<(&str, i64)> {
        let mut out: Vec<(&str, i64)> = self
            .modifiers
            .iter()
            .map(|(l, v)| (l.as_str(), *v))
            .collect();
        if let Some((row, v)) = &self.bayonet
            && other.bayonet.is_none()
        {
            out.push((row.as_str(), *v));
        }
        out
    }

    pub(super) fn total_modifier_vs(&self, other: &Side) -> i64 {
        self.modifiers_vs(other).iter().map(|(_, v)| v).sum()
    }

    /// Who it is, for a note, and whether it led.
    pub(super) fn clone_id(&self) -> (String, bool, bool) {
        let who = self.id.clone().unwrap_or_else(|| self.name.clone());
        (who, self.leader, self.commander)
    }
}

/// The figures of one command, worked out from their words once: `odds`
/// runs the resolver once for every outcome.
pub(super) struct Figures {
    pub(super) a: Side,
    pub(super) bs: Vec<Side>,
}

impl Figures {
    pub(super) fn new(tables: &MayhemTables, input: &Input) -> Result<Figures, CommandError> {
        // One figure a side: each opponent has a `vs` of its own, and its
        // combat's result falls on it.
        crate::mayhem::named_once(input)?;
        let instead =
            "one figure fights on each side: give each opponent its own `vs` (`fight A vs B vs C`)";
        one_figure(&named_figures(input, None), "the attacking side", instead)?;
        for i in 0..input.command.clauses.len() {
            one_figure(
                &named_figures(input, Some(i)),
                "one side of a `vs`",
                instead,
            )?;
        }
        let opponents: Vec<&Bound> = input
            .clauses
            .iter()
            .filter(|(k, _, _)| *k == ClauseKind::Vs)
            .map(|(_, _, b)| b)
            .collect();
        if opponents.is_empty() {
            return Err(input.missing(
                "`fight` needs the opponent after `vs`: `fight leader vs armed` (both sides may be empty words: `fight vs`)",
            ));
        }
        let several = opponents.len() > 1;
        let id_on =
            |clause: Option<usize>| input.named_on(clause).next().map(|n| n.facts.id.clone());
        let mut bs = Vec::new();
        for (i, words) in opponents.iter().enumerate() {
            let name = if several {
                format!("B{}", i + 1)
            } else {
                "B".into()
            };
            bs.push(Side::new(name, id_on(Some(i)), words, tables)?);
        }
        Ok(Figures {
            a: Side::new("A".into(), id_on(None), &input.words, tables)?,
            bs,
        })
    }
}
