//! Corrections: table mistakes the players agreed to keep (cash moved, a tile left in place, a
//! certificate in the wrong hands), applied outside the rules of play. The caller lists every
//! one it applies; here only whether the correction can be carried out on this state is
//! checked.

use crate::action::Entity;
use crate::engine::map::TrackError;
use crate::engine::shares::Holder;
use crate::engine::Game;
use crate::ids::{CorpId, HexId, Money, PlayerId, Rotation, ShareId, TileId};

/// Why a correction cannot be carried out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorrectionError {
    /// Cash of a private company.
    #[error("a private has no cash")]
    NoCash,
    /// A player or corporation the game does not have.
    #[error("no such player or corporation")]
    NoSuchEntity,
    /// The hex or the tile does not exist, or no such tile is in the supply.
    #[error(transparent)]
    Track(#[from] TrackError),
    /// A certificate the title does not have.
    #[error("no such certificate")]
    NoSuchCertificate,
    /// The president's certificate follows the presidency; correct the other certificates.
    #[error("the president's certificate changes hands only with the presidency")]
    PresidentCertificate,
    /// The certificate is already with that holder.
    #[error("the certificate is already there")]
    AlreadyThere,
    /// The certificate is nowhere (it left the game).
    #[error("the certificate is not held by anyone")]
    NotHeld,
    /// The correction would leave someone's cash, or the bank's, beyond the bounds railnote
    /// keeps amounts in.
    #[error("moving {0} would take cash beyond ±{limit}", limit = Money::LIMIT)]
    OutOfRange(Money),
}

/// Where a corrected certificate goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareHolder {
    /// The corporation's initial offering.
    Ipo,
    /// The open market.
    Pool,
    /// A player.
    Player(PlayerId),
}

/// One correction, as a value: what a replay applies between two actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Correction {
    /// [`Game::correct_cash`].
    Cash {
        /// Who gets the money (or gives it, if negative).
        entity: Entity,
        /// From the bank.
        amount: Money,
    },
    /// [`Game::correct_tile`].
    Tile {
        /// Where it lies.
        hex: HexId,
        /// The tile taken from the supply.
        tile: TileId,
        /// As turned.
        rotation: Rotation,
    },
    /// [`Game::correct_share`].
    Share {
        /// The certificate moved.
        share: ShareId,
        /// Where it goes.
        to: ShareHolder,
    },
}

impl Game {
    /// Carries out a correction; for a tile, the corporations whose tokens went back to them.
    ///
    /// # Errors
    /// As [`Game::correct_cash`], [`Game::correct_tile`], [`Game::correct_share`].
    pub fn correct(&mut self, correction: &Correction) -> Result<Vec<CorpId>, CorrectionError> {
        match *correction {
            Correction::Cash { entity, amount } => {
                self.correct_cash(entity, amount).map(|()| Vec::new())
            }
            Correction::Tile {
                hex,
                tile,
                rotation,
            } => self.correct_tile(hex, tile, rotation),
            Correction::Share { share, to } => self.correct_share(share, to).map(|()| Vec::new()),
        }
    }

    /// Moves `amount` from the bank to an entity's cash (negative: to the bank).
    ///
    /// # Errors
    /// A private company has no cash; an entity the game does not have; cash or the bank would
    /// leave ±[`Money::LIMIT`].
    pub fn correct_cash(&mut self, entity: Entity, amount: Money) -> Result<(), CorrectionError> {
        let out_of_range = CorrectionError::OutOfRange(amount);
        let cash = match entity {
            Entity::Player(p) => self.players.get(usize::from(p.0)).map(|p| p.cash),
            Entity::Corporation(c) => self.corps.get(usize::from(c.0)).map(|c| c.cash),
            Entity::Company(_) => return Err(CorrectionError::NoCash),
        }
        .ok_or(CorrectionError::NoSuchEntity)?;
        let negated = Money(amount.0.checked_neg().ok_or(out_of_range.clone())?);
        let (Some(cash), Some(bank)) = (cash.bounded_add(amount), self.bank.bounded_add(negated))
        else {
            return Err(out_of_range);
        };
        match entity {
            Entity::Player(p) => self.player_mut(p).cash = cash,
            Entity::Corporation(c) => self.corp_mut(c).cash = cash,
            Entity::Company(_) => {}
        }
        self.bank = bank;
        Ok(())
    }

    /// Leaves `tile` (from the supply) on `hex` turned to `rotation`, whatever lay there (which
    /// goes back to the supply unless preprinted). No lay rule is checked. Tokens are kept
    /// where the new tile has room, as in an upgrade; the corporations whose tokens do not fit
    /// get them back, and are returned.
    ///
    /// # Errors
    /// An unknown hex or tile, or a tile copy not in the supply.
    pub fn correct_tile(
        &mut self,
        hex: HexId,
        tile: TileId,
        rotation: Rotation,
    ) -> Result<Vec<CorpId>, CorrectionError> {
        let map = self.title.map;
        let index = map.hex_index(hex).ok_or(TrackError::NoSuchHex(hex))?;
        if usize::from(tile.def.0) >= map.tiles.len() {
            return Err(TrackError::UnknownTile(tile).into());
        }
        if !self.board.in_supply(tile) {
            return Err(TrackError::TileNotInSupply {
                tile: map.tile_name(tile),
            }
            .into());
        }
        self.forget_token_reach();
        Ok(self.board.lay(map, index, tile, rotation))
    }

    /// Moves a certificate, without payment, from whoever holds it to `to`; the presidency is
    /// settled as after any transfer.
    ///
    /// # Errors
    /// The president's certificate, a certificate already there or held by no one.
    pub fn correct_share(
        &mut self,
        share: ShareId,
        to: ShareHolder,
    ) -> Result<(), CorrectionError> {
        let exists = usize::from(share.corp.0) < self.corps.len()
            && usize::from(share.index) < self.title.share_sizes(share.corp).len();
        if !exists {
            return Err(CorrectionError::NoSuchCertificate);
        }
        if matches!(to, ShareHolder::Player(p) if usize::from(p.0) >= self.players.len()) {
            return Err(CorrectionError::NoSuchEntity);
        }
        if share.index == 0 {
            return Err(CorrectionError::PresidentCertificate);
        }
        let from = self.holder_of(share).ok_or(CorrectionError::NotHeld)?;
        let to = match to {
            ShareHolder::Ipo => Holder::Ipo(share.corp),
            ShareHolder::Pool => Holder::Pool,
            ShareHolder::Player(p) => Holder::Player(p),
        };
        if from == to {
            return Err(CorrectionError::AlreadyThere);
        }
        let percent = self.share_percent(share);
        self.transfer_shares(share.corp, &[share], from, to, percent);
        Ok(())
    }
}
