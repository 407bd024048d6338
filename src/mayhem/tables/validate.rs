//! Whole-table rules that serde cannot check: keywords used once, faces
//! of a d6, the rows a procedure needs.

use crate::error::TableError;
use crate::mayhem::{D6, Downed, MayhemTables, fight};

/// The file being checked, for the error.
struct Check<'f> {
    file: &'f str,
}

impl Check<'_> {
    fn invalid(&self, key: &str, message: String) -> TableError {
        TableError::Invalid {
            file: self.file.to_string(),
            key: key.to_string(),
            message,
        }
    }

    fn face(&self, key: &str, v: i64) -> Result<(), TableError> {
        if (1..=i64::from(D6)).contains(&v) {
            Ok(())
        } else {
            Err(self.invalid(key, format!("{v} is not a face of a d6, 1 to 6")))
        }
    }
}

impl MayhemTables {
    /// Whole-table rules that serde cannot check.
    pub(crate) fn validate(&self, file: &str) -> Result<(), TableError> {
        let check = Check { file };
        self.validate_move(&check)?;
        self.validate_fire(&check)?;
        self.validate_courage_fight(&check)?;
        self.validate_one_die(&check)?;
        self.validate_post_battle(&check)
    }

    fn validate_move(&self, check: &Check) -> Result<(), TableError> {
        unique(
            self.movement
                .mode
                .iter()
                .chain(&self.movement.bonus)
                .map(|r| r.keyword.as_str()),
        )
        .map_err(|k| check.invalid("move", format!("keyword `{k}` is used by two rows")))?;
        if self.movement.mode.is_empty() {
            return Err(check.invalid("move.mode", "needs at least one row".into()));
        }
        if self.movement.mode.iter().any(|r| r.open_only) {
            return Err(check.invalid(
                "move.mode",
                "`open_only` belongs to a bonus row; a mode row says `open`".into(),
            ));
        }
        if self.movement.bonus.iter().any(|r| !r.open) {
            return Err(check.invalid(
                "move.bonus",
                "`open` belongs to a mode row; a bonus row says `open_only`".into(),
            ));
        }
        Ok(())
    }

    fn validate_fire(&self, check: &Check) -> Result<(), TableError> {
        for (i, w) in self.fire.weapon.iter().enumerate() {
            if w.range <= 0 {
                return Err(check.invalid(
                    &format!("fire.weapon[{i}].range"),
                    "must be at least 1 inch".into(),
                ));
            }
            if w.gun && !w.gunpowder {
                return Err(check.invalid(
                    &format!("fire.weapon[{i}].gun"),
                    "a gun is a gunpowder weapon: give `gunpowder = true` too".into(),
                ));
            }
        }
        for (i, c) in self.fire.cover.iter().enumerate() {
            check.face(&format!("fire.cover[{i}].needs"), c.needs)?;
        }
        if self.fire.cover.iter().filter(|c| c.default).count() != 1 {
            return Err(check.invalid(
                "fire.cover",
                "exactly one row must be `default = true`".into(),
            ));
        }
        unique(self.fire.weapon.iter().map(|w| w.keyword.as_str()))
            .map_err(|k| check.invalid("fire.weapon", format!("keyword `{k}` is used twice")))?;
        unique(self.fire.cover.iter().map(|w| w.keyword.as_str()))
            .map_err(|k| check.invalid("fire.cover", format!("keyword `{k}` is used twice")))?;
        Ok(())
    }

    fn validate_courage_fight(&self, check: &Check) -> Result<(), TableError> {
        for (i, r) in self.courage.rank.iter().enumerate() {
            check.face(&format!("courage.rank[{i}].value"), r.value)?;
        }
        unique(
            self.courage
                .rank
                .iter()
                .map(|r| r.keyword.as_str())
                .chain(self.courage.cause.iter().map(|c| c.keyword.as_str())),
        )
        .map_err(|k| check.invalid("courage", format!("keyword `{k}` is used twice")))?;
        for (i, a) in self.fight.armament.iter().enumerate() {
            check.face(&format!("fight.armament[{i}].value"), a.value)?;
        }
        if self.fight.armament.iter().filter(|a| a.default).count() != 1 {
            return Err(check.invalid(
                "fight.armament",
                "exactly one row must be `default = true`".into(),
            ));
        }
        unique(
            self.fight
                .modifier
                .iter()
                .flat_map(|m| std::iter::once(&m.keyword).chain(&m.aliases))
                .chain(self.fight.armament.iter().map(|a| &a.keyword))
                .map(String::as_str)
                .chain(fight::SIDE_WORDS.iter().copied()),
        )
        .map_err(|k| check.invalid("fight", format!("keyword `{k}` is used twice")))?;
        Ok(())
    }

    /// Reloading, and the checks of one die.
    fn validate_one_die(&self, check: &Check) -> Result<(), TableError> {
        let r = &self.reload;
        if r.puffs < 0 || r.min_crew < 1 || r.leader_counts < 1 || r.clear_per_turn < 1 {
            return Err(check.invalid(
                "reload",
                "puffs must be 0 or more; min_crew, leader_counts and clear_per_turn at least 1"
                    .into(),
            ));
        }
        check.face("climb.needs", self.climb.needs)?;
        check.face("ignite.needs", self.ignite.needs)?;
        check.face("skill.min", self.skill.min)?;
        check.face("skill.max", self.skill.max)?;
        if self.skill.min > self.skill.max {
            return Err(check.invalid("skill", "min is above max".into()));
        }
        for l in self.search.value.iter().chain(&self.search.difficulty) {
            check.face("search", l.value)?;
        }
        Ok(())
    }

    fn validate_post_battle(&self, check: &Check) -> Result<(), TableError> {
        // Every face falls in exactly one band, and the dead faces are the
        // top ones (the count of dead is a count of dice at or above a face).
        for f in 1..=i64::from(D6) {
            let n = self
                .post_battle
                .band
                .iter()
                .filter(|b| (b.from..=b.to).contains(&f))
                .count();
            if n != 1 {
                return Err(check.invalid(
                    "post_battle.band",
                    format!("face {f} falls in {n} bands; every face needs exactly one"),
                ));
            }
        }
        let dead_from = self.dead_from();
        for b in &self.post_battle.band {
            let dead = b.outcome == Downed::Dead;
            if dead != (b.from >= dead_from) {
                return Err(check.invalid(
                    "post_battle.band",
                    "the dead faces must be the highest ones".into(),
                ));
            }
        }
        Ok(())
    }

    /// The lowest face that means dead after the battle (7 if none does).
    pub(crate) fn dead_from(&self) -> i64 {
        self.post_battle
            .band
            .iter()
            .filter(|b| b.outcome == Downed::Dead)
            .map(|b| b.from)
            .min()
            .unwrap_or(i64::from(D6) + 1)
    }
}

fn unique<'a>(keys: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for k in keys {
        if !seen.insert(k) {
            return Err(k.to_string());
        }
    }
    Ok(())
}
