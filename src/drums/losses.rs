//! What hits do to the unit that takes them, shared by `hits`, `shoot` and
//! `melee`:
//!
//! - "If using a figures, then it is each hit equals on figure removed/lost."
//! - "If using bases, then for each 6 hits received then 1 base is removed."
//!
//! With bases, the hits a unit already carries count towards its next
//! base (`carried=N`, which a named unit brings), so what a resolution says
//! is what the game then shows.

use crate::bind::{Bound, Vocab};
use crate::error::{BindError, ErrorKind};

use super::pool::plural;

/// How a side is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counted {
    Bases,
    Figures,
}

impl Counted {
    pub(crate) fn one(self) -> &'static str {
        match self {
            Counted::Bases => "base",
            Counted::Figures => "figure",
        }
    }

    pub(crate) fn many(self) -> &'static str {
        match self {
            Counted::Bases => "bases",
            Counted::Figures => "figures",
        }
    }

    pub(crate) fn of(self, n: i64) -> &'static str {
        if n == 1 { self.one() } else { self.many() }
    }
}

/// One side's size as its words give it: `bases=N` or `figures=N`, and
/// the hits it carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Size {
    pub(crate) counted: Counted,
    /// Its bases or figures, when given.
    pub(crate) count: Option<i64>,
    /// Hits already carried towards the next base (bases only).
    pub(crate) carried: i64,
}

/// The words for a side's size: `bases=N`, `figures=N` and `carried=N`. A
/// typed `bases` or `figures` stands in for the named unit's (and typed
/// `figures` for the hits it carries: see [`Size::of`]).
pub(crate) fn size_words(
    vocab: Vocab,
    who: &str,
    bases_help: &str,
    max: i64,
    per_base: u32,
) -> Vocab {
    let per_base = i64::from(per_base);
    vocab
        .number("bases", 1, max, bases_help.to_string())
        .number(
            "figures",
            1,
            max,
            format!(
                "{who}'s figures, for a unit counted in figures: each hit on it removes one figure"
            ),
        )
        .number(
            "carried",
            0,
            (per_base - 1).max(0),
            format!(
                "hits {who} already carries (fewer than {per_base}): they count towards its next base"
            ),
        )
        .slot(&["bases", "figures"])
}

impl Size {
    /// Read one side's size; `figures` with `bases`, or with hits carried,
    /// is refused.
    pub(crate) fn of(bound: &Bound) -> Result<Size, BindError> {
        if let (Some(b), Some(f)) = (bound.span_of("bases"), bound.span_of("figures")) {
            return Err(BindError::Conflict {
                span: if f.start > b.start { f } else { b },
                first: "bases".into(),
                second: "figures".into(),
                group: "the side's size".into(),
            });
        }
        let carried = bound.value("carried").unwrap_or(0);
        if let Some(n) = bound.value("figures") {
            // A side typed as figures carries none of its unit's hits (the
            // typed word wins, as everywhere); figures with hits carried
            // said outright is a contradiction.
            let typed_figures = !bound.implied("figures");
            let carried_typed = !bound.implied("carried");
            if let Some(span) = bound
                .span_of("carried")
                .filter(|_| carried > 0 && (carried_typed || !typed_figures))
            {
                return Err(BindError::NotHere {
                    kind: ErrorKind::NotApplicable,
                    span,
                    text: format!("carried={carried}"),
                    why: "is hits carried towards a base, and a unit of figures carries none: \
                          each hit removes one figure"
                        .into(),
                });
            }
            return Ok(Size {
                counted: Counted::Figures,
                count: Some(n),
                carried: 0,
            });
        }
        Ok(Size {
            counted: Counted::Bases,
            count: bound.value("bases"),
            carried,
        })
    }

    /// A side whose size nobody gave: bases, none carried.
    pub(crate) fn unknown() -> Size {
        Size {
            counted: Counted::Bases,
            count: None,
            carried: 0,
        }
    }
}

/// What some hits do to a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Losses {
    pub(crate) hits: i64,
    pub(crate) size: Size,
    /// Bases or figures lost (at most the side's, when given).
    pub(crate) lost: i64,
    /// Hits carried after these (bases only).
    pub(crate) left_over: i64,
    /// Every base or figure the side had is lost.
    pub(crate) destroyed: bool,
}

impl Losses {
    pub(crate) fn new(hits: i64, size: Size, per_base: i64) -> Losses {
        let hits = hits.max(0);
        let (mut lost, mut left_over) = match size.counted {
            Counted::Figures => (hits, 0),
            Counted::Bases => {
                let total = hits.saturating_add(size.carried);
                let per_base = per_base.max(1);
                (total / per_base, total % per_base)
            }
        };
        let mut destroyed = false;
        if let Some(count) = size.count
            && lost >= count
        {
            lost = count;
            left_over = 0;
            destroyed = true;
        }
        Losses {
            hits,
            size,
            lost,
            left_over,
            destroyed,
        }
    }

    pub(crate) fn counted(&self) -> Counted {
        self.size.counted
    }

    /// Bases or figures left, when the side's are known.
    pub(crate) fn left(&self) -> Option<i64> {
        self.size.count.map(|c| c - self.lost)
    }

    /// "7 hits: 1 base lost, 1 hit left over",
    /// "4 hits and 4 already carried: 1 base lost, 2 hits left over",
    /// "3 hits: 3 figures lost".
    pub(crate) fn text(&self) -> String {
        let hits = self.hits;
        if hits == 0 {
            return "no hits".into();
        }
        let c = self.counted();
        let mut head = format!("{hits} hit{}", plural(hits));
        if self.size.carried > 0 {
            head.push_str(&format!(" and {} already carried", self.size.carried));
        }
        let lost = match self.lost {
            0 => format!("no {} lost", c.one()),
            n => format!("{n} {} lost", c.of(n)),
        };
        let mut text = match c {
            Counted::Figures => format!("{head}: {lost}"),
            Counted::Bases => {
                let left = match self.left_over {
                    0 => "no hits left over".to_string(),
                    n => format!("{n} hit{} left over", plural(n)),
                };
                format!("{head}: {lost}, {left}")
            }
        };
        if self.destroyed {
            text.push_str(&format!(" (all {} of its {})", self.lost, c.of(self.lost)));
        } else if c == Counted::Figures
            && let Some(left) = self.left()
        {
            text.push_str(&format!(", {left} left"));
        }
        text
    }

    /// The JSON fields of these losses.
    pub(crate) fn fields(&self) -> Vec<(&'static str, serde_json::Value)> {
        let mut out: Vec<(&'static str, serde_json::Value)> = Vec::new();
        match self.counted() {
            Counted::Bases => {
                out.push(("bases_lost", self.lost.into()));
                out.push(("hits_left", self.left_over.into()));
                if self.size.carried > 0 {
                    out.push(("carried", self.size.carried.into()));
                }
            }
            Counted::Figures => out.push(("figures_lost", self.lost.into())),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bases(count: Option<i64>, carried: i64) -> Size {
        Size {
            counted: Counted::Bases,
            count,
            carried,
        }
    }

    // "If using bases, then for each 6 hits received then 1 base is removed."
    #[test]
    fn carried_hits_count_towards_the_next_base() {
        let l = Losses::new(4, bases(Some(6), 4), 6);
        assert_eq!((l.lost, l.left_over, l.left()), (1, 2, Some(5)));
        assert_eq!(
            l.text(),
            "4 hits and 4 already carried: 1 base lost, 2 hits left over"
        );
        let l = Losses::new(4, bases(None, 0), 6);
        assert_eq!(l.text(), "4 hits: no base lost, 4 hits left over");
    }

    // "If using a figures, then it is each hit equals on figure removed/lost."
    #[test]
    fn each_hit_removes_a_figure() {
        let size = Size {
            counted: Counted::Figures,
            count: Some(12),
            carried: 0,
        };
        let l = Losses::new(3, size, 6);
        assert_eq!((l.lost, l.left_over, l.left()), (3, 0, Some(9)));
        assert_eq!(l.text(), "3 hits: 3 figures lost, 9 left");
        let l = Losses::new(13, size, 6);
        assert!(l.destroyed);
        assert_eq!(l.text(), "13 hits: 12 figures lost (all 12 of its figures)");
    }
}
