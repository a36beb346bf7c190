//! Issuing and redeeming shares before the track step (titles whose data sets `issue_shares`;
//! rules-and-format B.3.7): one treasury share to the pool at the current price, the price
//! dropping a row; or one pool share back at the current price.

use super::pay_corp;
use crate::engine::market::MarketMove;
use crate::engine::shares::Holder;
use crate::engine::{Game, RuleViolation};
use crate::ids::{CorpId, ShareId};

impl Game {
    /// The first treasury share the corporation could issue to the pool, if any.
    pub(crate) fn issuable_share(&self, corp: CorpId) -> Option<ShareId> {
        if !self.title.operating.issue_shares || !self.corp(corp).ipoed {
            return None;
        }
        let share = self
            .corp(corp)
            .ipo
            .iter()
            .copied()
            .filter(|s| s.index != 0)
            .min_by_key(|s| s.index)?;
        self.pool_fits(corp, self.share_percent(share))
            .then_some(share)
    }

    pub(super) fn can_issue(&self, corp: CorpId) -> bool {
        self.issuable_share(corp).is_some()
    }

    /// The first pool share the corporation could redeem, if any.
    pub(crate) fn redeemable_share(&self, corp: CorpId) -> Option<ShareId> {
        if !self.title.operating.issue_shares {
            return None;
        }
        let share = self.pool.iter().copied().find(|s| s.corp == corp)?;
        (self.corp(corp).cash >= self.bundle_price(corp, self.share_percent(share)))
            .then_some(share)
    }

    pub(super) fn can_redeem(&self, corp: CorpId) -> bool {
        self.redeemable_share(corp).is_some()
    }
}

/// Issues one treasury share to the pool at the current price; the price drops a row.
pub(super) fn issue_share(
    game: &mut Game,
    corp: CorpId,
    shares: &[ShareId],
) -> Result<(), RuleViolation> {
    let Some(expected) = game.issuable_share(corp) else {
        return Err(RuleViolation::Shares(format!(
            "{} cannot issue a share now",
            game.title.corp(corp).sym
        )));
    };
    let share = single_share(shares, "issued")?;
    if game.holder_of(*share) != Some(Holder::Ipo(corp)) || share.index == 0 {
        return Err(RuleViolation::Shares(format!(
            "{}_{} is not a treasury share of {}; issue {}_{}",
            game.title.corp(share.corp).sym,
            share.index,
            game.title.corp(corp).sym,
            game.title.corp(corp).sym,
            expected.index
        )));
    }
    let pct = game.share_percent(*share);
    let price = game.bundle_price(corp, pct);
    game.bank_pays(price);
    game.corp_mut(corp).cash += price;
    game.transfer_shares(corp, &[*share], Holder::Ipo(corp), Holder::Pool, pct);
    game.move_price(corp, MarketMove::Down);
    Ok(())
}

/// The one share an issue or a redemption names (18Ireland moves shares one at a time).
fn single_share<'s>(shares: &'s [ShareId], verb: &str) -> Result<&'s ShareId, RuleViolation> {
    match shares {
        [share] => Ok(share),
        _ => Err(RuleViolation::Shares(format!(
            "one share is {verb} at a time"
        ))),
    }
}

/// Redeems one pool share at the current price (no price move).
pub(super) fn redeem_share(
    game: &mut Game,
    corp: CorpId,
    shares: &[ShareId],
) -> Result<(), RuleViolation> {
    if game.redeemable_share(corp).is_none() {
        return Err(RuleViolation::Shares(format!(
            "{} cannot redeem a share now",
            game.title.corp(corp).sym
        )));
    }
    let share = single_share(shares, "redeemed")?;
    if share.corp != corp || game.holder_of(*share) != Some(Holder::Pool) {
        return Err(RuleViolation::Shares(format!(
            "{}_{} is not in the market",
            game.title.corp(share.corp).sym,
            share.index
        )));
    }
    let pct = game.share_percent(*share);
    let price = game.bundle_price(corp, pct);
    pay_corp(game, corp, price)?;
    game.transfer_shares(corp, &[*share], Holder::Pool, Holder::Ipo(corp), pct);
    Ok(())
}
