//! The stock round (rules-and-format B.1 "Stock round"; reference `BuySellParShares` +
//! `Exchange`): sell, buy, sell again (or sell then buy, the title's `sell_buy_order`), one
//! purchase per turn.
//!
//! A player keeps the turn while any action is left to him; a `pass` ends it, and counts as a
//! real pass only if he did nothing this turn. The round ends when everyone has passed.
//!
//! One file per concept:
//! - this file: the round's state, the turn order, the end of the round (sold-out
//!   corporations rise, priority deal), and [`process`], which routes each action;
//! - [`buy`]: par, purchases, the holding and certificate limits, a major's home city, the
//!   private exchange;
//! - [`sell`]: which bundles may be sold and the sale itself (also used by emergency sales);
//! - [`minor_auction`]: auctions for minors' presidencies;
//! - [`private_sale`]: privates bought from other players.

mod buy;
mod minor_auction;
mod private_sale;
mod sell;

use crate::action::{Action, BidTarget, Entity};
use crate::engine::market::MarketMove;
use crate::engine::title::SellBuyOrder;
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CorpId, Money, PlayerId};
use buy::{buy, choose_home, par};
use minor_auction::{leave_minor_auction, open_minor_auction, raise_minor_bid, MinorAuction};
use sell::sell;

pub(crate) use buy::exchange;
pub(crate) use sell::{check_sale, sell_to_pool};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TurnAction {
    Buy(CorpId),
    Par,
    Sell(CorpId),
    /// A private bought from another player.
    BuyPrivate,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct StockRound {
    /// Index into the non-bankrupt players in seat order.
    entity_index: usize,
    passed: Vec<bool>,
    /// Corporations each player sold this round (may not buy them back).
    sold: Vec<(PlayerId, CorpId)>,
    current: Vec<TurnAction>,
    bought_from_ipo: bool,
    /// A minor being auctioned (18Ireland).
    minor_auction: Option<MinorAuction>,
    /// Whether a minor was started this round (if not, the next one is closed at the end).
    minor_started: bool,
    /// A corporation just started that must choose its home city.
    pending_home: Option<CorpId>,
    /// A corporation above its train limit since a train left the depot between rounds
    /// (18Chesapeake's export): corporations over the limit discard before anything else
    /// (reference: the stock round's `DiscardTrain` step).
    discarding: Option<CorpId>,
}

impl StockRound {
    /// The entity to act: a corporation choosing its home, or a player.
    pub(crate) fn acting_entity(&self, game: &Game) -> Option<Entity> {
        if let Some(c) = self.discarding {
            return Some(Entity::Corporation(c));
        }
        if let Some(c) = self.pending_home {
            return Some(Entity::Corporation(c));
        }
        self.acting(game).map(Entity::Player)
    }

    pub(crate) fn acting(&self, game: &Game) -> Option<PlayerId> {
        if let Some(a) = &self.minor_auction {
            // The bidder after the highest one, among those still in.
            let high = a.bids.iter().max_by_key(|(_, p)| *p).map(|(pl, _)| *pl)?;
            let i = a.active.iter().position(|p| *p == high)?;
            return a.active.get((i + 1) % a.active.len()).copied();
        }
        entities(game).nth(self.entity_index)
    }

    fn sold(&self) -> bool {
        self.current
            .iter()
            .any(|a| matches!(a, TurnAction::Sell(_)))
    }

    /// Whether the corporation's shares were sold earlier in this turn.
    fn sold_in_turn(&self, corp: CorpId) -> bool {
        self.current.contains(&TurnAction::Sell(corp))
    }

    /// Whether the title's order of selling and buying lets the turn sell now (reference
    /// `can_sell_order?`).
    fn sale_order_allows(&self, order: SellBuyOrder) -> bool {
        match order {
            SellBuyOrder::SellBuySell => true,
            SellBuyOrder::SellBuy => !self.bought(),
            // The reference's test: the turn's actions are of exactly two kinds and the last
            // is a purchase (sold, then bought).
            SellBuyOrder::SellBuyOrBuySell => {
                let kinds = self.current.iter().fold(0u8, |kinds, a| {
                    kinds
                        | match a {
                            TurnAction::Sell(_) => 1,
                            TurnAction::Buy(_) => 2,
                            TurnAction::Par => 4,
                            TurnAction::BuyPrivate => 8,
                        }
                });
                let last_is_purchase = self
                    .current
                    .last()
                    .is_some_and(|a| !matches!(a, TurnAction::Sell(_)));
                !(kinds.count_ones() == 2 && last_is_purchase)
            }
        }
    }

    /// The minor being auctioned and its highest bid, while an auction runs.
    pub(crate) fn minor_auction_high(&self) -> Option<(CorpId, Money)> {
        let a = self.minor_auction.as_ref()?;
        Some((a.corp, a.bids.iter().map(|(_, p)| *p).max()?))
    }

    fn bought(&self) -> bool {
        self.current.iter().any(|a| {
            matches!(
                a,
                TurnAction::Buy(_) | TurnAction::Par | TurnAction::BuyPrivate
            )
        })
    }
}

thread_local! {
    /// A stock round is being started on this thread (see [`Game::start_stock_round`]).
    static STOCK_ROUND_STARTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// A stock round started while another was starting, to be started by the outer call.
    static STOCK_ROUND_DEFERRED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The players who take turns: the non-bankrupt ones, in seat order. An iterator, not a list:
/// the turn order asks for it after every stock action.
fn entities(game: &Game) -> impl Iterator<Item = PlayerId> + '_ {
    game.seats
        .iter()
        .copied()
        .filter(|p| !game.player(*p).bankrupt)
}

fn sr(game: &Game) -> &StockRound {
    match &game.round {
        Round::Stock(s) => s,
        _ => unreachable!("stock processing outside a stock round"),
    }
}

fn sr_mut(game: &mut Game) -> &mut StockRound {
    match &mut game.round {
        Round::Stock(s) => s,
        _ => unreachable!("stock processing outside a stock round"),
    }
}

/// A discard by a corporation over its train limit, which comes first in the round.
fn discard(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    let Action::DiscardTrain {
        entity: Entity::Corporation(corp),
        train,
    } = action
    else {
        let waiting = sr(game).discarding.map(|c| game.title.corp(c).sym.clone());
        return Err(RuleViolation::WrongStep {
            action: action.type_name(),
            step: "discard train",
            allowed: format!("discard_train by {}", waiting.unwrap_or_default()),
        });
    };
    if !game.over_train_limit(*corp) {
        return Err(RuleViolation::Train(format!(
            "{} is not over its train limit",
            game.title.corp(*corp).sym
        )));
    }
    if !game.corp(*corp).trains.contains(train) {
        return Err(RuleViolation::Train(format!(
            "{} does not own train {}",
            game.title.corp(*corp).sym,
            game.train_name(*train)
        )));
    }
    game.corp_mut(*corp).trains.retain(|t| t != train);
    game.set_train_owner(*train, crate::engine::state::TrainOwner::Pool);
    let next = game.first_over_train_limit();
    sr_mut(game).discarding = next;
    Ok(())
}

impl Game {
    /// The first corporation over its train limit, in the reference's corporation order.
    fn first_over_train_limit(&self) -> Option<CorpId> {
        self.corporations_in_reference_order()
            .into_iter()
            .find(|c| !self.corp(*c).closed && self.over_train_limit(*c))
    }

    pub(crate) fn start_stock_round(&mut self) {
        // A stock round in which nobody can act ends at once, and an operating round without
        // corporations too, so the next stock round would start from within this one: with
        // nothing left to act (every corporation closed) the game cycles until the round
        // limit ends it (turn 100, `dnf`). The nested start is deferred to this loop instead
        // (the reference engine moves between rounds in a loop, too).
        if STOCK_ROUND_STARTING.with(|s| s.replace(true)) {
            STOCK_ROUND_DEFERRED.with(|d| d.set(true));
            return;
        }
        loop {
            STOCK_ROUND_DEFERRED.with(|d| d.set(false));
            let count = entities(self).count();
            self.round = Round::Stock(StockRound {
                passed: vec![false; count],
                discarding: self.first_over_train_limit(),
                ..StockRound::default()
            });
            self.start_turn();
            if !STOCK_ROUND_DEFERRED.with(|d| d.get()) || self.finished {
                break;
            }
        }
        STOCK_ROUND_STARTING.with(|s| s.set(false));
    }

    /// Starts the current entity's turn, auto-passing players with nothing to do.
    fn start_turn(&mut self) {
        loop {
            let s = sr_mut(self);
            s.current.clear();
            s.bought_from_ipo = false;
            let Some(player) = sr(self).acting(self) else {
                return;
            };
            if self.has_stock_action(player) {
                return;
            }
            let cash = self.player(player).cash;
            self.note_skipped(crate::engine::Skipped::StockTurn { player, cash });
            let i = sr(self).entity_index;
            sr_mut(self).passed[i] = true;
            if self.advance_stock_turn() {
                return;
            }
        }
    }

    /// Ends the current turn: a real pass if nothing was done, then the next player.
    pub(crate) fn end_stock_turn(&mut self) {
        let s = sr_mut(self);
        let i = s.entity_index;
        s.passed[i] = s.current.is_empty();
        if !self.advance_stock_turn() {
            self.start_turn();
        }
    }

    /// Ends the turn of a player left with nothing to do after corporations closed in this
    /// action (a price reached a close cell, possibly in the operating round just before this
    /// stock round started): his only action may have been a share of a closed corporation.
    /// 18xx.games checks the entity in turn again after every action that closed one.
    pub(crate) fn end_idle_stock_turn(&mut self) {
        let Round::Stock(s) = &self.round else {
            return;
        };
        if s.minor_auction.is_some() || s.pending_home.is_some() || self.finished {
            return;
        }
        let Some(player) = s.acting(self) else {
            return;
        };
        if !self.has_stock_action(player) {
            self.end_stock_turn();
        }
    }

    /// Moves to the next player; returns true if the round ended.
    fn advance_stock_turn(&mut self) -> bool {
        let n = entities(self).count();
        let s = sr_mut(self);
        s.entity_index = (s.entity_index + 1) % n.max(1);
        if sr(self).passed.iter().all(|p| *p) {
            self.finish_stock_round();
            return true;
        }
        false
    }

    fn finish_stock_round(&mut self) {
        if self.title.minor_auction.is_some() && !sr(self).minor_started {
            if let Some(minor) = self.next_minor() {
                self.close_corporation(minor);
            }
        }
        let hooks = self.title.hooks;
        let mut sold_out: Vec<CorpId> = (0..self.corps.len())
            .map(|i| CorpId(i as u8))
            .filter(|c| self.corp(*c).floated && self.corp(*c).share_price.is_some())
            .filter(|c| hooks.sold_out(self, *c))
            .collect();
        sold_out.sort_by_key(|c| self.operating_key(*c));
        for corp in sold_out {
            // A sold-out corporation on the top row does not move.
            if self.corp(corp).share_price.is_some_and(|p| p.row > 0) {
                self.move_price(corp, MarketMove::Up);
            }
        }
        if self.market_end_now() || self.round_ends_past_limit() {
            return;
        }
        let index = sr(self).entity_index;
        let first = entities(self).nth(index);
        if let Some(first) = first {
            let pos = self.seats.iter().position(|p| *p == first).unwrap_or(0);
            self.seats.rotate_left(pos);
        }
        self.priority_deal = self.seats.first().copied();
        self.operating_rounds = self.title.phases[self.phase].operating_rounds;
        self.start_operating_round(1);
    }

    /// Whether players hold all of a corporation's shares (the generic "sold out").
    pub(crate) fn all_shares_with_players(&self, corp: CorpId) -> bool {
        self.players
            .iter()
            .map(|p| u32::from(self.percent_held(p.id, corp)))
            .sum::<u32>()
            == 100
    }

    pub(crate) fn has_stock_action(&self, player: PlayerId) -> bool {
        // A forced sale is a sale: `must_sell` implies `can_sell_any`, so it is not asked
        // (asking it computed every sale twice, at the start of every stock turn). A sale is
        // asked first: it is the cheaper question (a purchase goes through every corporation
        // when none is to be had), and the order does not matter.
        self.can_sell_any(player)
            || self.can_buy_any(player)
            || self.can_par_any(player)
            || self.can_auction_minor(player)
            || !self.privates_for_sale_to(player).is_empty()
    }
}

pub(crate) fn process(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    if sr(game).discarding.is_some() {
        return discard(game, action);
    }
    if let Entity::Company(company) = action.entity() {
        return match action {
            Action::BuyShares { shares, .. } => exchange(game, company, shares),
            Action::LayTile {
                hex,
                tile,
                rotation,
                ..
            } => crate::engine::private_lay::owner_lay(game, company, *hex, *tile, *rotation),
            _ => Err(RuleViolation::Company(format!(
                "{} cannot {} in a stock round",
                game.title.company(company).sym,
                action.type_name()
            ))),
        };
    }
    if let Some(corp) = sr(game).pending_home {
        return match action {
            Action::PlaceToken {
                entity: Entity::Corporation(c),
                city,
                ..
            } if *c == corp => {
                choose_home(game, corp, *city)?;
                sr_mut(game).pending_home = None;
                // A minor's home chosen while its auction runs: the auction goes on.
                if sr(game).minor_auction.is_some() {
                    return Ok(());
                }
                let player = sr(game)
                    .acting(game)
                    .expect("a player started the corporation");
                if !game.has_stock_action(player) {
                    game.end_stock_turn();
                }
                Ok(())
            }
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "home token",
                allowed: format!("place_token by {}", game.title.corp(corp).sym),
            }),
        };
    }
    let acting = sr(game).acting(game);
    let actor = action.entity();
    let Some(player) = acting.filter(|p| actor == Entity::Player(*p)) else {
        return Err(RuleViolation::NotYourTurn {
            actor: game.entity_name(actor),
            expected: acting
                .map(|p| game.player(p).name.clone())
                .unwrap_or_else(|| "nobody".into()),
        });
    };
    if sr(game).minor_auction.is_some() {
        return match action {
            Action::Bid {
                target: BidTarget::Corporation(c),
                price,
                ..
            } => raise_minor_bid(game, player, *c, *price),
            Action::Pass { .. } => {
                leave_minor_auction(game, player);
                Ok(())
            }
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "minor auction",
                allowed: "bid, pass".into(),
            }),
        };
    }
    let must_sell = game.must_sell(player);
    if must_sell && !matches!(action, Action::SellShares { .. }) {
        return Err(RuleViolation::Shares(format!(
            "{} is over a holding or certificate limit and must sell first",
            game.player(player).name
        )));
    }
    match action {
        Action::Par { corp, cell, .. } => par(game, player, *corp, cell)?,
        Action::BuyShares {
            shares, percent, ..
        } => buy(game, player, shares, *percent)?,
        Action::SellShares {
            shares, percent, ..
        } => sell(game, player, shares, *percent)?,
        Action::BuyCompany { company, price, .. } => {
            private_sale::buy_private(game, player, *company, *price)?;
        }
        Action::Pass { .. } => {
            game.end_stock_turn();
            return Ok(());
        }
        Action::Bid {
            target: BidTarget::Corporation(c),
            price,
            ..
        } if game.title.minor_auction.is_some() => {
            open_minor_auction(game, player, *c, *price)?;
            return Ok(());
        }
        _ => {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "stock round",
                allowed: "buy_shares, sell_shares, par, pass".into(),
            })
        }
    }
    // A home city still to be chosen comes first (reference: the home-token step blocks); the
    // turn ends, if nothing else is left, once it is placed.
    if sr(game).pending_home.is_none() && !game.has_stock_action(player) {
        game.end_stock_turn();
    }
    Ok(())
}
