//! The whole-table rules of `tables/drums-pools.toml` that serde cannot
//! check.

use std::collections::BTreeSet;

use super::PoolTables;
use crate::error::TableError;

/// Builds the error for a key of the file being checked.
type Invalid<'a> = &'a dyn Fn(&str, String) -> TableError;

impl PoolTables {
    /// Whole-table rules that serde cannot check.
    pub(crate) fn validate(&self, file: &str) -> Result<(), TableError> {
        let invalid = |key: &str, message: String| TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        let invalid = &invalid;
        if self.default_bases == 0 {
            return Err(invalid("default_bases", "must be at least 1".into()));
        }
        let shoot = &self.shoot;
        if shoot.dice_per_base == 0 || self.melee.dice_per_base == 0 {
            return Err(invalid("dice_per_base", "must be at least 1".into()));
        }
        if !(1..=6).contains(&self.melee.hit_on) {
            return Err(invalid(
                "melee.hit_on",
                "must be a face of a d6, 1 to 6".into(),
            ));
        }
        self.check_weapons(invalid)?;
        if shoot.table.iter().filter(|t| t.artillery).count() != 1 {
            return Err(invalid(
                "shoot.table",
                "exactly one table needs `artillery = true`".into(),
            ));
        }
        let mut seen = BTreeSet::new();
        for t in &shoot.table {
            for f in &t.formations {
                if !seen.insert(f.as_str()) {
                    return Err(invalid(
                        "shoot.table",
                        format!("formation `{f}` picks two tables"),
                    ));
                }
            }
        }
        self.check_melee_arms(invalid)?;
        if !shoot.target_formations.is_empty()
            && !shoot
                .target_formations
                .iter()
                .any(|f| f == "open" || f == "square")
        {
            return Err(invalid(
                "shoot.target_formations",
                "give the target's formation words (the rows read `open` and `square`)".into(),
            ));
        }
        if !self.melee.arm.iter().any(|a| !a.is_kind()) {
            return Err(invalid(
                "melee.arm",
                "give at least one arm without `kind_of`".into(),
            ));
        }
        self.check_rows(invalid)
    }

    /// Every cell of Shooting Table 1 a range and a score, short within long.
    fn check_weapons(&self, invalid: Invalid) -> Result<(), TableError> {
        let shoot = &self.shoot;
        for (i, w) in shoot.weapon.iter().enumerate() {
            let key = format!("shoot.weapon[{i}] (\"{}\")", w.weapon);
            let cells = [
                Some(w.short),
                Some(w.long),
                w.unprompted.short,
                w.unprompted.long,
                w.bounce,
            ];
            for cell in cells.into_iter().flatten() {
                if !(1..=6).contains(&cell.hit_on)
                    || cell.bw.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
                {
                    return Err(invalid(
                        &key,
                        "every cell needs a range above 0 and a score from 1 to 6".into(),
                    ));
                }
            }
            for (short, long) in [w.cells(false), w.cells(true)] {
                if short.bw > long.bw {
                    return Err(invalid(
                        &key,
                        "short range is longer than long range".into(),
                    ));
                }
            }
            if w.bounce.is_some() && !w.artillery {
                return Err(invalid(&key, "only artillery bounces".into()));
            }
        }
        Ok(())
    }

    /// Each melee arm fights on a table there is, a kind of an arm on that
    /// arm's, in formations the melee tables know.
    fn check_melee_arms(&self, invalid: Invalid) -> Result<(), TableError> {
        for arm in &self.melee.arm {
            let key = format!("melee.arm (\"{}\")", arm.keyword);
            if self.melee.table(&arm.table).is_none() {
                return Err(invalid(
                    &key,
                    format!("no melee table has id `{}`", arm.table),
                ));
            }
            if let Some(of) = &arm.kind_of {
                let Some(base) = self
                    .melee
                    .arm
                    .iter()
                    .find(|a| &a.keyword == of && !a.is_kind())
                else {
                    return Err(invalid(
                        &key,
                        format!("`kind_of = \"{of}\"` names no arm (an entry without `kind_of`)"),
                    ));
                };
                if base.table != arm.table {
                    return Err(invalid(
                        &key,
                        format!(
                            "a kind of `{of}` fights on its table, `{}`, not `{}`",
                            base.table, arm.table
                        ),
                    ));
                }
            }
        }
        for arm in &self.melee.arm {
            if let Some(f) = arm
                .formations
                .iter()
                .find(|f| !self.melee.formations.contains(f))
            {
                return Err(invalid(
                    &format!("melee.arm (\"{}\")", arm.keyword),
                    format!("formation `{f}` is not one of `melee.formations`"),
                ));
            }
        }
        Ok(())
    }

    /// Each row applies on a condition or by itself, never both.
    fn check_rows(&self, invalid: Invalid) -> Result<(), TableError> {
        let shoot = &self.shoot;
        for (section, tables) in [("shoot", &shoot.table), ("melee", &self.melee.table)] {
            for t in tables {
                for (i, row) in t.row.iter().enumerate() {
                    let key = format!("{section}.table \"{}\" row[{i}] (\"{}\")", t.id, row.row);
                    let has_condition =
                        !row.own.is_empty() || !row.opponent.is_empty() || row.range.is_some();
                    if has_condition == row.always {
                        return Err(invalid(
                            &key,
                            "give a condition (own/shooter, opponent/target, range) or `always = true`, not both".into(),
                        ));
                    }
                    if let Some(per) = &row.per
                        && !row.own.contains(per)
                    {
                        return Err(invalid(
                            &key,
                            format!("`per = \"{per}\"` must also be one of the row's own words"),
                        ));
                    }
                    if section == "melee" && row.range.is_some() {
                        return Err(invalid(&key, "melee rows have no range".into()));
                    }
                }
            }
        }
        Ok(())
    }
}
