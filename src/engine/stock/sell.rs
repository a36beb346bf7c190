//! Selling shares to the market (rules-and-format B.1 "Stock round", D.2): which bundles a
//! player may sell (not in the first stock round, not of a corporation not yet started, the
//! market's 50% limit, the president's certificate only to another player able to take the
//! presidency), the price drop per share sold, and the checks a logged sale passes. The
//! operating round's emergency sales use the same checks ([`check_sale`], [`sell_to_pool`]).

use std::ops::ControlFlow;

use super::{sr, sr_mut, TurnAction};
use crate::engine::market::MarketMove;
use crate::engine::shares::Holder;
use crate::engine::title::SellBuyOrder;
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CorpId, Percent, PlayerId, ShareId};

/// Why a bundle may not be sold.
#[derive(Debug, Clone, Copy)]
enum SaleProblem {
    FirstStockRound,
    NotStarted(CorpId),
    PoolFull(CorpId, u8),
    NoOtherPresident(CorpId, u8),
    SoldInTurn(CorpId),
}

impl SaleProblem {
    fn describe(self, game: &Game) -> String {
        let sym = |c: CorpId| game.title.corp(c).sym.as_str();
        match self {
            SaleProblem::FirstStockRound => "no shares may be sold in the first stock round".into(),
            SaleProblem::NotStarted(c) => format!("{} has not been started; its shares cannot be sold yet", sym(c)),
            SaleProblem::PoolFull(c, held) => {
                format!("the market may hold at most 50% of {}; it holds {held}%", sym(c))
            }
            SaleProblem::SoldInTurn(c) => format!(
                "{} was sold earlier in this turn; its shares are sold in one block per turn",
                sym(c)
            ),
            SaleProblem::NoOtherPresident(c, pct) => format!(
                "the president's certificate of {} can only be sold if another player holds at least {pct}%",
                sym(c)
            ),
        }
    }
}

impl Game {
    pub(super) fn sold_this_round(&self, player: PlayerId, corp: CorpId) -> bool {
        sr(self).sold.contains(&(player, corp))
    }

    /// Why no bundle of the corporation may be sold now, whatever it holds.
    fn corporation_sale_problem(&self, corp: CorpId) -> Option<SaleProblem> {
        if self.turn <= 1 && matches!(self.round, Round::Stock(_)) {
            return Some(SaleProblem::FirstStockRound);
        }
        if !self.corp(corp).ipoed {
            return Some(SaleProblem::NotStarted(corp));
        }
        if self.title.must_sell_in_blocks {
            if let Round::Stock(s) = &self.round {
                if s.sold_in_turn(corp) {
                    return Some(SaleProblem::SoldInTurn(corp));
                }
            }
        }
        None
    }

    /// Why a player may not sell this bundle now, if he may not.
    fn sale_problem(
        &self,
        player: PlayerId,
        corp: CorpId,
        shares: &[ShareId],
        percent: u8,
    ) -> Option<SaleProblem> {
        if let Some(problem) = self.corporation_sale_problem(corp) {
            return Some(problem);
        }
        if !self.pool_fits(corp, percent) {
            return Some(SaleProblem::PoolFull(corp, self.pool_percent(corp)));
        }
        if shares.iter().any(|s| s.index == 0) {
            let president_percent = self.share_percent(ShareId { corp, index: 0 });
            if self.most_held_by_others(player, corp) < president_percent {
                return Some(SaleProblem::NoOtherPresident(corp, president_percent));
            }
        }
        None
    }

    fn can_sell_bundle(
        &self,
        player: PlayerId,
        corp: CorpId,
        shares: &[ShareId],
        percent: u8,
    ) -> Result<(), String> {
        match self.sale_problem(player, corp, shares, percent) {
            None => Ok(()),
            Some(problem) => Err(problem.describe(self)),
        }
    }

    /// Every bundle a player could sell of a corporation, as the reference builds them:
    /// normal certificates first, the president's last, plus the partial president bundle.
    pub(crate) fn sell_bundles(&self, player: PlayerId, corp: CorpId) -> Vec<(Vec<ShareId>, u8)> {
        let mut out = Vec::new();
        // Every bundle is visited: the visit never breaks.
        let _: ControlFlow<()> = self.each_sell_bundle(player, corp, |shares, pct| {
            out.push((shares.to_vec(), pct));
            ControlFlow::Continue(())
        });
        out
    }

    /// Whether one of the [`Game::sell_bundles`] may be sold now.
    fn has_sellable_bundle(&self, player: PlayerId, corp: CorpId) -> bool {
        let sellable = self.has_sellable_bundle_of(player, corp);
        debug_assert_eq!(
            sellable,
            self.each_sell_bundle(player, corp, |shares, pct| {
                match self.sale_problem(player, corp, shares, pct) {
                    None => ControlFlow::Break(()),
                    Some(_) => ControlFlow::Continue(()),
                }
            })
            .is_break(),
            "sellable bundle of corporation {corp:?} by player {player:?}"
        );
        sellable
    }

    /// [`Game::has_sellable_bundle`] decided without going through the bundles (it is asked of
    /// the corporations held at every stock action). Of a sale's problems
    /// ([`Game::sale_problem`]) only two depend on the bundle: the market's limit, which a
    /// bundle passes if a larger one does, and the president's certificate, which needs another
    /// player able to take the presidency. Of the bundles without it (the normal certificates,
    /// smallest first) the smallest is one certificate of the smallest size; of those with it
    /// (everything held, less up to `extra / normal` normal shares kept back) the smallest keeps
    /// back the most. The debug build checks the answer against the bundles.
    fn has_sellable_bundle_of(&self, player: PlayerId, corp: CorpId) -> bool {
        if self.corporation_sale_problem(corp).is_some() {
            return false;
        }
        let mut total = 0;
        let mut smallest_normal: Option<u8> = None;
        let mut president = false;
        for s in self.player(player).shares.iter().filter(|s| s.corp == corp) {
            let pct = self.share_percent(*s);
            total += pct;
            if s.index == 0 {
                president = true;
            } else if smallest_normal.is_none_or(|m| pct < m) {
                // If one fits, the smallest does.
                if self.pool_fits(corp, pct) {
                    return true;
                }
                smallest_normal = Some(pct);
            }
        }
        if !president {
            return false;
        }
        let normal = self.normal_share_percent(corp);
        let president_percent = self.share_percent(ShareId { corp, index: 0 });
        let extra = president_percent - normal;
        if !self.pool_fits(corp, total - normal * (extra / normal)) {
            return false;
        }
        self.most_held_by_others(player, corp) >= president_percent
    }

    /// Calls `visit` with each bundle of [`Game::sell_bundles`], in its order, until it breaks.
    fn each_sell_bundle<B>(
        &self,
        player: PlayerId,
        corp: CorpId,
        mut visit: impl FnMut(&[ShareId], u8) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mut shares: Vec<ShareId> = self
            .player(player)
            .shares
            .iter()
            .copied()
            .filter(|s| s.corp == corp)
            .collect();
        shares.sort_by_key(|s| (s.index == 0, self.share_percent(*s)));
        let mut pct = 0;
        for i in 0..shares.len() {
            pct += self.share_percent(shares[i]);
            visit(&shares[..=i], pct)?;
        }
        if shares.last().is_some_and(|s| s.index == 0) {
            let normal = self.normal_share_percent(corp);
            let extra = self.share_percent(ShareId { corp, index: 0 }) - normal;
            for n in 1..=(extra / normal) {
                visit(&shares, pct - normal * n)?;
            }
        }
        ControlFlow::Continue(())
    }

    pub(super) fn can_sell_any(&self, player: PlayerId) -> bool {
        if self.turn <= 1 && matches!(self.round, Round::Stock(_)) {
            return false;
        }
        if !sr(self).sale_order_allows(self.title.sell_buy_order) {
            return false;
        }
        // The corporations held, each asked once, in the order of the certificates (the
        // question has no order).
        let mut asked = [0u64; 4];
        self.player(player).shares.iter().any(|s| {
            let (word, bit) = (usize::from(s.corp.0 / 64), s.corp.0 % 64);
            let first = asked[word] & (1 << bit) == 0;
            asked[word] |= 1 << bit;
            first && self.has_sellable_bundle(player, s.corp)
        })
    }

    pub(super) fn must_sell(&self, player: PlayerId) -> bool {
        // The limits first: they are cheap, and a player within them (nearly always) need not
        // have every sale worked out.
        let over_certs = self.over_cert_limit(player);
        let held = self.holdings(player);
        let corps = || (0..self.corps.len()).map(|i| CorpId(i as u8));
        // Nothing held is within any limit.
        let over_holding = |c: CorpId| held.percent(c) > 0 && !self.can_hold_with(&held, c, 0);
        if !over_certs && !corps().any(over_holding) {
            return false;
        }
        if !self.can_sell_any(player) {
            return false;
        }
        if over_certs {
            return true;
        }
        corps().any(|c| over_holding(c) && self.has_sellable_bundle(player, c))
    }
}

/// Sells a bundle to the pool: paid at the current price, then the price drops a row per share.
pub(crate) fn sell_to_pool(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    shares: &[ShareId],
    pct: u8,
) {
    let price = game.bundle_price(corp, pct);
    game.bank_pays(price);
    game.player_mut(player).cash += price;
    game.transfer_shares(corp, shares, Holder::Player(player), Holder::Pool, pct);
    for _ in 0..(pct / game.normal_share_percent(corp)) {
        game.move_price(corp, MarketMove::Down);
    }
}

/// Validates a sale's certificates and bundle size; returns the corporation and percent sold.
pub(crate) fn check_sale(
    game: &Game,
    player: PlayerId,
    shares: &[ShareId],
    percent: Option<Percent>,
) -> Result<(CorpId, u8), RuleViolation> {
    let Some(first) = shares.first() else {
        return Err(RuleViolation::Shares(
            "a sale must name at least one certificate".into(),
        ));
    };
    let corp = first.corp;
    let title = game.title;
    let sym = &title.corp(corp).sym;
    if shares.iter().any(|s| s.corp != corp) {
        return Err(RuleViolation::Shares(
            "all certificates of one sale must be of one corporation".into(),
        ));
    }
    if let Some(s) = shares
        .iter()
        .find(|s| game.holder_of(**s) != Some(Holder::Player(player)))
    {
        return Err(RuleViolation::Shares(format!(
            "{} does not hold {sym}_{}",
            game.player(player).name,
            s.index
        )));
    }
    let listed: u8 = shares.iter().map(|s| game.share_percent(*s)).sum();
    let pct = percent.map(|p| p.0).unwrap_or(listed);
    // One of the `sell_bundles`, which are not built for the question.
    let legal = game
        .each_sell_bundle(player, corp, |b, p| {
            match p == pct && b.len() == shares.len() && shares.iter().all(|s| b.contains(s)) {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        })
        .is_break();
    // The reference offers the president's certificate only in bundles holding all of the
    // seller's certificates; it accepts other choices but books them inconsistently (its share
    // ledger stops matching the certificates held, so a presidency can stay with a player
    // left without the majority). Every such sale has an equivalent offered bundle.
    let held = game
        .player(player)
        .shares
        .iter()
        .filter(|s| s.corp == corp)
        .count();
    if !legal && shares.iter().any(|s| s.index == 0) && shares.len() < held {
        return Err(RuleViolation::Shares(format!(
            "{sym}'s president's certificate is sold only together with all of {}'s other {sym} certificates",
            game.player(player).name
        )));
    }
    if !(legal || pct == listed) {
        return Err(RuleViolation::Shares(format!(
            "a sale of {pct}% cannot be made from certificates worth {listed}%"
        )));
    }
    game.can_sell_bundle(player, corp, shares, pct)
        .map_err(RuleViolation::Shares)?;
    Ok((corp, pct))
}

pub(super) fn sell(
    game: &mut Game,
    player: PlayerId,
    shares: &[ShareId],
    percent: Option<Percent>,
) -> Result<(), RuleViolation> {
    if !sr(game).sale_order_allows(game.title.sell_buy_order) {
        return Err(RuleViolation::Shares(match game.title.sell_buy_order {
            SellBuyOrder::SellBuyOrBuySell => {
                "a turn may sell then buy, or buy then sell, but not sell again after selling and buying".into()
            }
            _ => "shares are sold before buying in this title, not after".into(),
        }));
    }
    let (corp, pct) = check_sale(game, player, shares, percent)?;
    sr_mut(game).sold.push((player, corp));
    sell_to_pool(game, player, corp, shares, pct);
    sr_mut(game).current.push(TurnAction::Sell(corp));
    Ok(())
}
