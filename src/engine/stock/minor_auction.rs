//! Minor auctions in the stock round (titles whose data sets `minor_auction`; reference
//! `BuySellParSharesViaBid`): only the next minor of the charter order may be auctioned, in a
//! turn without other share actions; bids rise by 5; the last bidder standing starts the minor
//! at the highest par at most half the bid, and the whole bid goes to its treasury. A minor
//! not started in a stock round is closed at its end.

use super::{entities, sr, sr_mut, TurnAction};
use crate::engine::{Game, RuleViolation};
use crate::ids::{CorpId, Money, PlayerId, ShareId};

/// A running auction for a minor's presidency (reference `BuySellParSharesViaBid`).
#[derive(Debug, Clone)]
pub(super) struct MinorAuction {
    pub(super) corp: CorpId,
    /// Standing bids, one per bidder, in placement order.
    pub(super) bids: Vec<(PlayerId, Money)>,
    /// Players still in, in seat order.
    pub(super) active: Vec<PlayerId>,
}

impl Game {
    /// The first minor of the charter pile not yet started (only it may be auctioned).
    pub(crate) fn next_minor(&self) -> Option<CorpId> {
        let order = self.resolved_setup.as_ref()?.charter_order.clone();
        order
            .into_iter()
            .find(|c| !self.corp(*c).ipoed && !self.corp(*c).closed)
    }

    /// The most a player may bid for a minor: his cash, or nothing if he could not take its
    /// president's certificate.
    pub(crate) fn max_minor_bid(&self, player: PlayerId, corp: CorpId) -> Money {
        let pct = self.share_percent(ShareId { corp, index: 0 });
        if self.can_gain(player, corp, pct, false) {
            self.player(player).cash
        } else {
            Money::ZERO
        }
    }

    pub(super) fn can_auction_minor(&self, player: PlayerId) -> bool {
        let Some(rules) = self.title.minor_auction else {
            return false;
        };
        let s = sr(self);
        if s.bought() || s.sold() {
            return false;
        }
        self.next_minor()
            .is_some_and(|c| self.max_minor_bid(player, c) >= rules.min_bid)
    }
}

/// Opens the auction for the next minor (18Ireland): the opening bid, the home token at once,
/// and every player who could afford to raise joins.
pub(super) fn open_minor_auction(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    price: Money,
) -> Result<(), RuleViolation> {
    let rules = game
        .title
        .minor_auction
        .expect("only called for titles with minor auctions");
    let title = game.title;
    let sym = &title.corp(corp).sym;
    if sr(game).bought() || sr(game).sold() {
        return Err(RuleViolation::Shares(
            "a minor can only be auctioned in a turn without other share actions".into(),
        ));
    }
    match game.next_minor() {
        Some(next) if next == corp => {}
        Some(next) => {
            return Err(RuleViolation::Shares(format!(
                "{sym} is not the next minor; {} is",
                game.title.corp(next).sym
            )))
        }
        None => return Err(RuleViolation::Shares("no minor is left to start".into())),
    }
    check_minor_bid(game, player, corp, price, rules.min_bid)?;
    // A home tile with several cities and track asks the minor which city first (reference
    // `HomeToken` step, which blocks the auction until the token is placed).
    let map = game.title.map;
    match game.title.corp(corp).home {
        Some(home) if game.board.home_needs_choice(map, corp, home) => {
            sr_mut(game).pending_home = Some(corp);
        }
        _ => game.place_home_token_at_par(corp),
    }
    let min = price + Money(5);
    let active: Vec<PlayerId> = entities(game)
        .filter(|p| *p == player || game.max_minor_bid(*p, corp) >= min)
        .collect();
    sr_mut(game).minor_auction = Some(MinorAuction {
        corp,
        bids: vec![(player, price)],
        active,
    });
    resolve_minor_auction(game);
    Ok(())
}

pub(super) fn check_minor_bid(
    game: &Game,
    player: PlayerId,
    corp: CorpId,
    price: Money,
    min: Money,
) -> Result<(), RuleViolation> {
    let sym = &game.title.corp(corp).sym;
    if price < min {
        return Err(RuleViolation::BidTooLow {
            target: sym.clone(),
            bid: price,
            min,
        });
    }
    if (price - min).0 % 5 != 0 {
        return Err(RuleViolation::Auction(format!(
            "bids on {sym} must be {min} plus a multiple of 5"
        )));
    }
    let max = game.max_minor_bid(player, corp);
    if price > max {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: max,
            needed: price,
        });
    }
    Ok(())
}

pub(super) fn raise_minor_bid(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    price: Money,
) -> Result<(), RuleViolation> {
    let auction = sr(game)
        .minor_auction
        .clone()
        .expect("an auction is running");
    if corp != auction.corp {
        return Err(RuleViolation::Auction(format!(
            "{} is being auctioned: until it is sold the auction rules allow only a bid on it \
             or a pass",
            game.title.corp(auction.corp).sym
        )));
    }
    let high = auction
        .bids
        .iter()
        .map(|(_, p)| *p)
        .max()
        .unwrap_or(Money::ZERO);
    check_minor_bid(game, player, corp, price, high + Money(5))?;
    let next_min = price + Money(5);
    let Some(a) = sr_mut(game).minor_auction.as_mut() else {
        unreachable!()
    };
    a.bids.retain(|(p, _)| *p != player);
    a.bids.push((player, price));
    let out: Vec<PlayerId> = a.active.iter().copied().filter(|p| *p != player).collect();
    let out: Vec<PlayerId> = out
        .into_iter()
        .filter(|p| game.max_minor_bid(*p, corp) < next_min)
        .collect();
    let a = sr_mut(game)
        .minor_auction
        .as_mut()
        .expect("an auction is running");
    a.active.retain(|p| !out.contains(p));
    a.bids.retain(|(p, _)| !out.contains(p));
    resolve_minor_auction(game);
    Ok(())
}

pub(super) fn leave_minor_auction(game: &mut Game, player: PlayerId) {
    if let Some(a) = sr_mut(game).minor_auction.as_mut() {
        a.active.retain(|p| *p != player);
        a.bids.retain(|(p, _)| *p != player);
    }
    resolve_minor_auction(game);
}

/// The last bidder standing wins: par at the highest par cell at most half the bid (capped),
/// the president's certificate, and the whole bid into the minor's treasury.
pub(super) fn resolve_minor_auction(game: &mut Game) {
    let Some(a) = sr(game).minor_auction.clone() else {
        return;
    };
    if a.active.len() > 1 {
        return;
    }
    let Some(&(winner, price)) = a.bids.first().filter(|_| a.active.len() == 1) else {
        if a.active.is_empty() {
            sr_mut(game).minor_auction = None;
        }
        return;
    };
    let corp = a.corp;
    let rules = game.title.minor_auction.expect("minor auctions");
    let par_limit = Money((price.0 / 2).min(rules.max_par.0));
    let cash = game.player(winner).cash;
    let par = game.highest_par_at_most(par_limit, Some(cash));
    let s = sr_mut(game);
    s.minor_auction = None;
    s.minor_started = true;
    let Some(cell) = par else { return };
    game.start_with_president(corp, winner, &cell);
    game.player_mut(winner).cash -= price;
    game.corp_mut(corp).cash += price;
    sr_mut(game).current.push(TurnAction::Par);
    // The auction was the opener's action for his turn; play goes on after him.
    game.end_stock_turn();
}
