//! Vocabulary newtypes shared by every layer: typed ids and amounts.
//!
//! Ids of title entities (corporations, privates, trains, tile definitions) are indices into the
//! title's data tables; their names come from [`crate::engine::title::Title`]. Coordinates and
//! amounts are self-describing and implement `FromStr`/`Display` that round-trip.

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

use serde::{Deserialize, Serialize, Serializer};

/// A seat in the game's original player list (the order of the log's `players` array).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub u8);

/// A corporation (major or minor) of the title, by its index in the title's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CorpId(pub u8);

/// A private company of the title, by its index in the title's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompanyId(pub u8);

/// A train type of the title (`2`, `3`, `D`, `2H'`…), by its index in the title's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TrainKind(pub u8);

/// One physical train: its type and its copy number (`3-1` is the second 3-train).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TrainId {
    /// The train type.
    pub kind: TrainKind,
    /// 0-based copy within the type.
    pub copy: u16,
}

/// A tile definition of the title (catalogue tile or a preprinted hex), by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TileDefId(pub u16);

/// One physical tile: its definition and its copy number (`57-2` is the third tile 57).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TileId {
    /// The tile definition.
    pub def: TileDefId,
    /// 0-based copy within the manifest count (or position in the preprinted group).
    pub copy: u16,
}

/// A share certificate: `<corp>_<index>`, index 0 being the president's certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShareId {
    /// The corporation the certificate belongs to.
    pub corp: CorpId,
    /// Position in the corporation's charter (0 = president).
    pub index: u8,
}

/// A city or town on a physical tile: the tile and the part index in its definition
/// (reference engine city ids such as `57-2-0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CityRef {
    /// The tile carrying the city.
    pub tile: TileId,
    /// Index of the city part in the tile definition (every part counts).
    pub part: u8,
}

/// A tile rotation, 0–5 clockwise sixths of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// A rotation, if `value` is 0–5.
    pub fn new(value: u8) -> Option<Rotation> {
        (value < 6).then_some(Rotation(value))
    }

    /// The rotation as a number 0–5.
    pub fn get(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A hex coordinate as printed on the board: a letter and a (possibly negative) number.
///
/// In pointy layouts (1836Jr30) the letter is the row; in flat layouts (18Ireland) the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexId {
    /// 0 for `A`, 1 for `B`, …
    pub letter: u8,
    /// The number after the letter.
    pub number: i16,
}

impl HexId {
    /// A coordinate from its letter index and number.
    pub const fn new(letter: u8, number: i16) -> HexId {
        HexId { letter, number }
    }
}

/// A string that is not a hex coordinate such as `H6` or `G-1`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a hex coordinate (a letter and a number, e.g. `H6`)")]
pub struct ParseHexError(pub String);

impl FromStr for HexId {
    type Err = ParseHexError;

    fn from_str(s: &str) -> Result<HexId, ParseHexError> {
        let err = || ParseHexError(s.to_string());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(err)?;
        if !letter.is_ascii_uppercase() {
            return Err(err());
        }
        let rest = chars.as_str();
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
            return Err(err());
        }
        let number: i16 = rest.parse().map_err(|_| err())?;
        Ok(HexId::new(letter as u8 - b'A', number))
    }
}

impl fmt::Display for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.letter) as char, self.number)
    }
}

impl Serialize for HexId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// An amount of money in the title's currency. Integral everywhere, as in the reference engine.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Money(pub i64);

impl Money {
    /// No money.
    pub const ZERO: Money = Money(0);

    /// The largest amount an action states or a correction moves, and the largest cash anyone
    /// may hold: far beyond any bank (1836Jr30's holds 6,000), and small enough that no sum the
    /// rules make of such amounts can overflow.
    pub const LIMIT: Money = Money(1_000_000_000);

    /// `self + other`, if within [`Money::LIMIT`] either way.
    pub fn bounded_add(self, other: Money) -> Option<Money> {
        self.0
            .checked_add(other.0)
            .filter(|sum| (-Money::LIMIT.0..=Money::LIMIT.0).contains(sum))
            .map(Money)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0 + rhs.0)
    }
}

impl Sub for Money {
    type Output = Money;
    fn sub(self, rhs: Money) -> Money {
        Money(self.0 - rhs.0)
    }
}

impl Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        Money(-self.0)
    }
}

impl AddAssign for Money {
    fn add_assign(&mut self, rhs: Money) {
        self.0 += rhs.0;
    }
}

impl SubAssign for Money {
    fn sub_assign(&mut self, rhs: Money) {
        self.0 -= rhs.0;
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        Money(iter.map(|m| m.0).sum())
    }
}

/// A share percentage (10 for a normal 1836Jr30 share, 20 for its president's certificate).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Percent(pub u8);

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        for s in ["A9", "K13", "G-1", "I11"] {
            let hex: HexId = s.parse().unwrap();
            assert_eq!(hex.to_string(), s);
        }
        assert_eq!("G-1".parse::<HexId>().unwrap(), HexId::new(6, -1));
    }

    #[test]
    fn hex_rejects_garbage() {
        for s in ["", "9A", "a9", "A", "A-", "A1x", "A99999"] {
            assert!(s.parse::<HexId>().is_err(), "{s}");
        }
    }

    #[test]
    fn rotation_is_bounded() {
        assert_eq!(Rotation::new(5).map(Rotation::get), Some(5));
        assert_eq!(Rotation::new(6), None);
    }
}
