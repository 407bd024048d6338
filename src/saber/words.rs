//! The words of Musket & Saber facts that several parts read: the game
//! gives them to its units, the verbs read them, and the contradiction
//! check knows them. A leaf, so that none of those parts imports another
//! for a word.

/// The fact word a unit's formation comes as.
pub(crate) const FORMATION: &str = "formation";
/// The word a unit of formation "A" brings instead of a number (2.4: "an
/// 'A' indicates a unit that may be treated as belong to 'All' other
/// formations").
pub(crate) const ALL_FORMATIONS: &str = "all-formations";

/// A QuickPlay leader's formation (10.0: his factors go to a unit of the
/// same formation), as a number.
pub(crate) const LEADER_FORMATION: &str = "leader-formation";
/// A QuickPlay leader of formation "A": his factors go to a unit of any.
pub(crate) const LEADER_ALL_FORMATIONS: &str = "leader-all-formations";

/// The word a battalion brings (standard 2.7).
pub(crate) const BATTALION: &str = "battalion";
/// The word a squadron brings (standard 2.7).
pub(crate) const SQUADRON: &str = "squadron";

/// The fact of a one-step infantry brigade (2.5).
pub(crate) const ONE_STEP: &str = "one-step";
/// The fact of a unit that attacked this combat phase (7.5).
pub(crate) const ATTACKED: &str = "attacked";
/// The fact of victorious charging cavalry whose charge goes on (9.3 6).
pub(crate) const CHARGING: &str = "charging";
/// The fact of an attacker whose choice settles a defender's last stand
/// (7.13 5).
pub(crate) const LAST_STAND_OWED: &str = "last-stand-owed";

/// The words a unit brings for what its counter prints beyond its CF, MR
/// and MA. Like every fact, each is a word a player may type instead of
/// naming the unit (`attack 8 mr=5 cavalry charge-factor=8 cavalry-charge
/// vs …`): `attack` reads the factors, `bombard` the range.
pub(crate) mod printed {
    /// The CF showing is parenthesized: halved when attacking (2.4).
    pub(crate) const PARENTHESIZED: &str = "parenthesized";
    /// The MA is bracketed: the unit cannot skirmish (2.4).
    pub(crate) const BRACKETED: &str = "bracketed";
    /// Cavalry's charge factor (9.3 4).
    pub(crate) const CHARGE: &str = "charge-factor";
    /// Artillery's defense factor (8.1).
    pub(crate) const DEFENCE: &str = "defense-factor";
    /// Artillery's range factor (8.7).
    pub(crate) const RANGE: &str = "range-factor";
}
