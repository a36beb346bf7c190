//! The stock round (1836Jr30: sell/buy/sell, one purchase per turn; reference
//! `BuySellParShares` + `Exchange`).
//!
//! A player keeps the turn while any action is left to him; a `pass` ends it, and counts as a
//! real pass only if he did nothing this turn. The round ends when everyone has passed.

use crate::action::{Action, BidTarget, Entity, MarketCell};
use crate::engine::market::MarketMove;
use crate::engine::shares::Holder;
use crate::engine::state::CompanyOwner;
use crate::engine::title::{Ability, Capitalization, CorpKind, SellBuyOrder};
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CompanyId, CorpId, Money, Percent, PlayerId, ShareId};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TurnAction {
    Buy(CorpId),
    Par,
    Sell,
}

/// Why a bundle may not be sold.
#[derive(Debug, Clone, Copy)]
enum SaleProblem {
    FirstStockRound,
    NotStarted(CorpId),
    PoolFull(CorpId, u8),
    NoOtherPresident(CorpId, u8),
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
            SaleProblem::NoOtherPresident(c, pct) => format!(
                "the president's certificate of {} can only be sold if another player holds at least {pct}%",
                sym(c)
            ),
        }
    }
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
}

/// A running auction for a minor's presidency (reference `BuySellParSharesViaBid`).
#[derive(Debug, Clone)]
struct MinorAuction {
    corp: CorpId,
    /// Standing bids, one per bidder, in placement order.
    bids: Vec<(PlayerId, Money)>,
    /// Players still in, in seat order.
    active: Vec<PlayerId>,
}

impl StockRound {
    /// The entity to act: a corporation choosing its home, or a player.
    pub(crate) fn acting_entity(&self, game: &Game) -> Option<Entity> {
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
        entities(game).get(self.entity_index).copied()
    }

    fn sold(&self) -> bool {
        self.current.contains(&TurnAction::Sell)
    }

    /// The minor being auctioned and its highest bid, while an auction runs.
    pub(crate) fn minor_auction_high(&self) -> Option<(CorpId, Money)> {
        let a = self.minor_auction.as_ref()?;
        Some((a.corp, a.bids.iter().map(|(_, p)| *p).max()?))
    }

    fn bought(&self) -> bool {
        self.current
            .iter()
            .any(|a| matches!(a, TurnAction::Buy(_) | TurnAction::Par))
    }
}

thread_local! {
    /// A stock round is being started on this thread (see [`Game::start_stock_round`]).
    static STOCK_ROUND_STARTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// A stock round started while another was starting, to be started by the outer call.
    static STOCK_ROUND_DEFERRED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn entities(game: &Game) -> Vec<PlayerId> {
    game.seats
        .iter()
        .copied()
        .filter(|p| !game.player(*p).bankrupt)
        .collect()
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

impl Game {
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
            let count = entities(self).len();
            self.round = Round::Stock(StockRound {
                passed: vec![false; count],
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
        let n = entities(self).len();
        let s = sr_mut(self);
        s.entity_index = (s.entity_index + 1) % n.max(1);
        if sr(self).passed.iter().all(|p| *p) {
            self.finish_stock_round();
            return true;
        }
        false
    }

    /// The first minor of the charter pile not yet started (only it may be auctioned).
    pub(crate) fn next_minor(&self) -> Option<CorpId> {
        let order = self.resolved_setup.as_ref()?.charter_order.clone();
        order
            .into_iter()
            .find(|c| !self.corp(*c).ipoed && !self.corp(*c).closed)
    }

    fn finish_stock_round(&mut self) {
        if self.title.minor_auction.is_some() && !sr(self).minor_started {
            if let Some(minor) = self.next_minor() {
                self.close_corporation(minor);
            }
        }
        let mut sold_out: Vec<CorpId> = (0..self.corps.len())
            .map(|i| CorpId(i as u8))
            .filter(|c| self.corp(*c).floated && self.corp(*c).share_price.is_some())
            .filter(|c| {
                self.players
                    .iter()
                    .map(|p| self.percent_held(p.id, *c) as u32)
                    .sum::<u32>()
                    == 100
            })
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
        let active = entities(self);
        if let Some(&first) = active.get(index) {
            let pos = self.seats.iter().position(|p| *p == first).unwrap_or(0);
            self.seats.rotate_left(pos);
        }
        self.priority_deal = self.seats.first().copied();
        self.operating_rounds = self.title.phases[self.phase].operating_rounds;
        self.start_operating_round(1);
    }

    fn sold_this_round(&self, player: PlayerId, corp: CorpId) -> bool {
        sr(self).sold.contains(&(player, corp))
    }

    fn can_buy_multiple(&self, corp: CorpId, from_pool: bool) -> bool {
        let s = sr(self);
        let only_market = !self
            .options
            .optional_rules
            .iter()
            .any(|r| r == "multiple_brown_from_ipo");
        if only_market && (!from_pool || s.bought_from_ipo) {
            return false;
        }
        let multiple = self
            .corp(corp)
            .share_price
            .and_then(|p| self.title.cell(p.row, p.column))
            .is_some_and(|c| c.multiple_buy);
        multiple
            && !s.current.contains(&TurnAction::Par)
            && !s
                .current
                .iter()
                .any(|a| matches!(a, TurnAction::Buy(c) if *c != corp))
    }

    fn counts_for_limit(&self, corp: CorpId) -> bool {
        self.corp(corp)
            .share_price
            .and_then(|p| self.title.cell(p.row, p.column))
            .is_none_or(|c| !c.cert_exempt)
    }

    /// Whether a player may gain a bundle of `percent` (holding and certificate limits).
    fn can_gain(&self, player: PlayerId, corp: CorpId, percent: u8, exchange: bool) -> bool {
        self.can_hold(player, corp, percent)
            && (!self.counts_for_limit(corp)
                || exchange
                || self.num_certs(player) < self.cert_limit())
    }

    fn can_buy_from(&self, player: PlayerId, corp: CorpId, from: Holder) -> bool {
        let list = self.holder_list(from);
        let Some(share) = list
            .iter()
            .copied()
            .filter(|s| s.corp == corp && s.index != 0)
            .min_by_key(|s| s.index)
        else {
            return false;
        };
        let s = sr(self);
        if self.sold_this_round(player, corp)
            || (s.bought() && !self.can_buy_multiple(corp, from == Holder::Pool))
        {
            return false;
        }
        let pct = self.share_percent(share);
        let price = match from {
            Holder::Ipo(_) => self.ipo_price(corp, pct),
            _ => self.bundle_price(corp, pct),
        };
        self.player(player).cash >= price && self.can_gain(player, corp, pct, false)
    }

    fn ipo_price(&self, corp: CorpId, percent: u8) -> Money {
        // Incremental capitalisation sells treasury shares at the market price.
        if self.title.capitalization == Capitalization::Incremental {
            return self.bundle_price(corp, percent);
        }
        let par = self.corp(corp).par_price.unwrap_or(Money::ZERO);
        Money(par.0 * percent as i64 / self.normal_share_percent(corp) as i64)
    }

    fn can_par_any(&self, player: PlayerId) -> bool {
        if sr(self).bought() || (self.title.minor_auction.is_some() && sr(self).sold()) {
            return false;
        }
        if !self.majors_may_par() {
            return false;
        }
        let cheapest_par = self
            .title
            .market
            .iter()
            .flatten()
            .flatten()
            .filter(|c| c.par)
            .map(|c| c.price)
            .min()
            .unwrap_or(Money::ZERO);
        (0..self.corps.len()).map(|i| CorpId(i as u8)).any(|c| {
            !self.corp(c).ipoed
                && !self.corp(c).closed
                && self.title.corp(c).kind == CorpKind::Major
                && !self.sold_this_round(player, c)
                && self.can_gain(
                    player,
                    c,
                    self.share_percent(ShareId { corp: c, index: 0 }),
                    false,
                )
                && self.player(player).cash.0 >= cheapest_par.0 * 2
        })
    }

    /// Why a player may not sell this bundle now, if he may not.
    fn sale_problem(
        &self,
        player: PlayerId,
        corp: CorpId,
        shares: &[ShareId],
        percent: u8,
    ) -> Option<SaleProblem> {
        if self.turn <= 1 && matches!(self.round, Round::Stock(_)) {
            return Some(SaleProblem::FirstStockRound);
        }
        if !self.corp(corp).ipoed {
            return Some(SaleProblem::NotStarted(corp));
        }
        if !self.pool_fits(corp, percent) {
            return Some(SaleProblem::PoolFull(corp, self.pool_percent(corp)));
        }
        if shares.iter().any(|s| s.index == 0) {
            let president_percent = self.share_percent(ShareId { corp, index: 0 });
            let other_max = self
                .players
                .iter()
                .filter(|p| p.id != player)
                .map(|p| self.percent_held(p.id, corp))
                .max()
                .unwrap_or(0);
            if other_max < president_percent {
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
        let mut shares: Vec<ShareId> = self
            .player(player)
            .shares
            .iter()
            .copied()
            .filter(|s| s.corp == corp)
            .collect();
        shares.sort_by_key(|s| (s.index == 0, self.share_percent(*s)));
        let mut out = Vec::new();
        let mut pct = 0;
        for i in 0..shares.len() {
            pct += self.share_percent(shares[i]);
            out.push((shares[..=i].to_vec(), pct));
        }
        if shares.last().is_some_and(|s| s.index == 0) {
            let normal = self.normal_share_percent(corp);
            let extra = self.share_percent(ShareId { corp, index: 0 }) - normal;
            for n in 1..=(extra / normal) {
                out.push((shares.clone(), pct - normal * n));
            }
        }
        out
    }

    fn can_sell_any(&self, player: PlayerId) -> bool {
        if self.turn <= 1 && matches!(self.round, Round::Stock(_)) {
            return false;
        }
        if self.title.sell_buy_order == SellBuyOrder::SellBuy && sr(self).bought() {
            return false;
        }
        (0..self.corps.len()).map(|i| CorpId(i as u8)).any(|c| {
            self.player(player).shares.iter().any(|s| s.corp == c)
                && self
                    .sell_bundles(player, c)
                    .iter()
                    .any(|(shares, pct)| self.sale_problem(player, c, shares, *pct).is_none())
        })
    }

    fn must_sell(&self, player: PlayerId) -> bool {
        if !self.can_sell_any(player) {
            return false;
        }
        if self.num_certs(player) > self.cert_limit() {
            return true;
        }
        (0..self.corps.len()).map(|i| CorpId(i as u8)).any(|c| {
            !self.can_hold(player, c, 0)
                && self
                    .sell_bundles(player, c)
                    .iter()
                    .any(|(shares, pct)| self.sale_problem(player, c, shares, *pct).is_none())
        })
    }

    fn can_buy_any(&self, player: PlayerId) -> bool {
        (0..self.corps.len()).map(|i| CorpId(i as u8)).any(|c| {
            self.can_buy_from(player, c, Holder::Pool)
                || (self.corp(c).ipoed && self.can_buy_from(player, c, Holder::Ipo(c)))
        })
    }

    pub(crate) fn has_stock_action(&self, player: PlayerId) -> bool {
        self.must_sell(player)
            || self.can_buy_any(player)
            || self.can_par_any(player)
            || self.can_sell_any(player)
            || self.can_auction_minor(player)
    }

    /// Whether majors may be started by par now.
    fn majors_may_par(&self) -> bool {
        match &self.title.major_par_phase {
            None => true,
            Some(name) => {
                let at = self
                    .title
                    .phases
                    .iter()
                    .position(|p| &p.name == name)
                    .unwrap_or(usize::MAX);
                self.phase >= at
            }
        }
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

    fn can_auction_minor(&self, player: PlayerId) -> bool {
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

pub(crate) fn process(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    if let Entity::Company(company) = action.entity() {
        return match action {
            Action::BuyShares { shares, .. } => exchange(game, company, shares),
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

fn par(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    cell: &MarketCell,
) -> Result<(), RuleViolation> {
    let sym = game.title.corp(corp).sym.clone();
    if sr(game).bought() {
        return Err(RuleViolation::Shares(format!(
            "{} already bought this turn",
            game.player(player).name
        )));
    }
    if game
        .title
        .minor_auction
        .is_some_and(|m| m.no_par_after_sale)
        && sr(game).sold()
    {
        return Err(RuleViolation::Shares(format!(
            "{} sold this turn and cannot start {sym} in the same turn",
            game.player(player).name
        )));
    }
    if game.corp(corp).ipoed || game.corp(corp).closed {
        return Err(RuleViolation::Shares(format!(
            "{sym} has already been started"
        )));
    }
    if game.sold_this_round(player, corp) {
        return Err(RuleViolation::Shares(format!(
            "{sym} was sold by this player in this round"
        )));
    }
    // 18Ireland: minors are started by auction, majors by par only from their phase on.
    if game.title.minor_auction.is_some() && game.title.corp(corp).kind == CorpKind::Minor {
        return Err(RuleViolation::Shares(format!(
            "{sym} is a minor; minors are started by auction (bid)"
        )));
    }
    if game.title.corp(corp).kind == CorpKind::Major && !game.majors_may_par() {
        return Err(RuleViolation::Shares(format!(
            "majors may not be started by par before phase {}",
            game.title.major_par_phase.as_deref().unwrap_or("?")
        )));
    }
    game.check_par_cell(cell)?;
    let cost = Money(cell.price.0 * 2);
    if game.player(player).cash < cost {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: game.player(player).cash,
            needed: cost,
        });
    }
    let pct = game.share_percent(ShareId { corp, index: 0 });
    if !game.can_gain(player, corp, pct, false) {
        return Err(RuleViolation::Shares(format!(
            "{} is at the certificate limit of {}",
            game.player(player).name,
            game.cert_limit()
        )));
    }
    game.set_par(corp, cell);
    game.player_mut(player).cash -= cost;
    game.receive_share_payment(corp, Holder::Ipo(corp), cost);
    game.transfer_shares(
        corp,
        &[ShareId { corp, index: 0 }],
        Holder::Ipo(corp),
        Holder::Player(player),
        pct,
    );
    game.check_float(corp);
    sr_mut(game).current.push(TurnAction::Par);
    // A corporation without a fixed home chooses its home city when it starts (18Ireland majors).
    if game.title.corp(corp).home.is_none()
        && game.title.home_token_timing == crate::engine::title::HomeTokenTiming::Par
    {
        sr_mut(game).pending_home = Some(corp);
    }
    Ok(())
}

fn buy(
    game: &mut Game,
    player: PlayerId,
    shares: &[ShareId],
    percent: Option<Percent>,
) -> Result<(), RuleViolation> {
    let Some(first) = shares.first() else {
        return Err(RuleViolation::Shares(
            "a purchase must name at least one certificate".into(),
        ));
    };
    let corp = first.corp;
    let sym = game.title.corp(corp).sym.clone();
    if shares.iter().any(|s| s.corp != corp) {
        return Err(RuleViolation::Shares(
            "all certificates of one purchase must be of one corporation".into(),
        ));
    }
    let from = game.holder_of(*first);
    let from = match from {
        Some(h @ (Holder::Ipo(_) | Holder::Pool)) => h,
        _ => {
            return Err(RuleViolation::Shares(format!(
                "{sym}_{} is not in the IPO or the market",
                first.index
            )))
        }
    };
    if shares.iter().any(|s| game.holder_of(*s) != Some(from)) {
        return Err(RuleViolation::Shares(
            "all certificates of one purchase must come from one place".into(),
        ));
    }
    if shares.iter().any(|s| s.index == 0) {
        return Err(RuleViolation::Shares(format!(
            "the president's certificate of {sym} is bought by starting the corporation (par)"
        )));
    }
    if matches!(from, Holder::Ipo(_)) && !game.corp(corp).ipoed {
        return Err(RuleViolation::Shares(format!("{sym} has not been started")));
    }
    let pct: u8 = shares.iter().map(|s| game.share_percent(*s)).sum();
    if let Some(p) = percent {
        if p.0 != pct {
            return Err(RuleViolation::ValueMismatch {
                what: "percent bought",
                recorded: p.to_string(),
                expected: Percent(pct).to_string(),
            });
        }
    }
    if game.sold_this_round(player, corp) {
        return Err(RuleViolation::Shares(format!(
            "{} sold {sym} this round and cannot buy it back",
            game.player(player).name
        )));
    }
    let from_pool = from == Holder::Pool;
    let multiple_ok = game.can_buy_multiple(corp, from_pool);
    if (sr(game).bought() || shares.len() > 1) && !multiple_ok {
        return Err(RuleViolation::Shares(format!(
            "only one certificate may be bought per turn here ({sym} is not in a brown cell{})",
            if from_pool {
                ""
            } else {
                ", or it is bought from the IPO"
            }
        )));
    }
    let price = match from {
        Holder::Ipo(_) => game.ipo_price(corp, pct),
        _ => game.bundle_price(corp, pct),
    };
    if game.player(player).cash < price {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: game.player(player).cash,
            needed: price,
        });
    }
    if !game.can_hold(player, corp, pct) {
        return Err(RuleViolation::Shares(format!(
            "{} would hold more than {}% of {sym}",
            game.player(player).name,
            game.title.kind_of(corp).max_ownership_percent.0
        )));
    }
    if !game.can_gain(player, corp, pct, false) {
        return Err(RuleViolation::Shares(format!(
            "{} is at the certificate limit of {}",
            game.player(player).name,
            game.cert_limit()
        )));
    }
    game.player_mut(player).cash -= price;
    game.receive_share_payment(corp, from, price);
    game.transfer_shares(corp, shares, from, Holder::Player(player), pct);
    game.check_float(corp);
    let s = sr_mut(game);
    s.current.push(TurnAction::Buy(corp));
    if !from_pool {
        s.bought_from_ipo = true;
    }
    Ok(())
}

impl Game {
    /// Where the money for a share goes: the treasury for an incremental corporation's own
    /// shares, the bank otherwise.
    fn receive_share_payment(&mut self, corp: CorpId, from: Holder, price: Money) {
        if self.title.capitalization == Capitalization::Incremental && from == Holder::Ipo(corp) {
            self.corp_mut(corp).cash += price;
        } else {
            self.bank += price;
        }
    }
}

/// Opens the auction for the next minor (18Ireland): the opening bid, the home token at once,
/// and every player who could afford to raise joins.
fn open_minor_auction(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    price: Money,
) -> Result<(), RuleViolation> {
    let rules = game
        .title
        .minor_auction
        .expect("only called for titles with minor auctions");
    let sym = game.title.corp(corp).sym.clone();
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
        .into_iter()
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

fn check_minor_bid(
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

fn raise_minor_bid(
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

fn leave_minor_auction(game: &mut Game, player: PlayerId) {
    if let Some(a) = sr_mut(game).minor_auction.as_mut() {
        a.active.retain(|p| *p != player);
        a.bids.retain(|(p, _)| *p != player);
    }
    resolve_minor_auction(game);
}

/// The last bidder standing wins: par at the highest par cell at most half the bid (capped),
/// the president's certificate, and the whole bid into the minor's treasury.
fn resolve_minor_auction(game: &mut Game) {
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

/// A major's home: any city on a tile with track that has a slot it may take.
fn choose_home(
    game: &mut Game,
    corp: CorpId,
    city: crate::ids::CityRef,
) -> Result<(), RuleViolation> {
    let map = game.title.map;
    let station = game
        .board
        .locate_city(map, city)
        .ok_or_else(|| RuleViolation::Token("no such city on the map".into()))?;
    if let Some(home) = game.title.corp(corp).home {
        if map.hex_def(station.hex).id != home {
            return Err(RuleViolation::Token(format!(
                "{}'s home token goes on {home}",
                game.title.corp(corp).sym
            )));
        }
    }
    let (tile, _) = game.board.tile_at(station.hex);
    if map.tile_def(tile.def).paths.is_empty() {
        return Err(RuleViolation::Token(
            "a home city must be on a tile with track".into(),
        ));
    }
    game.board
        .check_token(map, corp, station, false)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    game.board
        .place_token(map, corp, station)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    // The reference's home-token step places it (`Tokener#place_token`: the graph is cleared).
    game.forget_token_reach();
    game.corp_mut(corp).tokens_unused -= 1;
    Ok(())
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
    let sym = game.title.corp(corp).sym.clone();
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
    let legal = game
        .sell_bundles(player, corp)
        .iter()
        .any(|(b, p)| *p == pct && b.len() == shares.len() && shares.iter().all(|s| b.contains(s)));
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

fn sell(
    game: &mut Game,
    player: PlayerId,
    shares: &[ShareId],
    percent: Option<Percent>,
) -> Result<(), RuleViolation> {
    if game.title.sell_buy_order == SellBuyOrder::SellBuy && sr(game).bought() {
        return Err(RuleViolation::Shares(
            "shares are sold before buying in this title, not after".into(),
        ));
    }
    let (corp, pct) = check_sale(game, player, shares, percent)?;
    sr_mut(game).sold.push((player, corp));
    sell_to_pool(game, player, corp, shares, pct);
    sr_mut(game).current.push(TurnAction::Sell);
    Ok(())
}

/// A private's exchange for a share (GCB → B), allowed at any time in stock and operating rounds.
pub(crate) fn exchange(
    game: &mut Game,
    company: CompanyId,
    shares: &[ShareId],
) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    let Some(target) = def.abilities.iter().find_map(|a| match a {
        Ability::Exchange { corporation } => game.title.corp_by_sym(corporation),
        _ => None,
    }) else {
        return Err(RuleViolation::Company(format!(
            "{} has no exchange ability",
            def.sym
        )));
    };
    let CompanyOwner::Player(owner) = game.company(company).owner else {
        return Err(RuleViolation::Company(format!(
            "{} must be owned by a player to be exchanged",
            def.sym
        )));
    };
    if game.company(company).closed {
        return Err(RuleViolation::Company(format!("{} is closed", def.sym)));
    }
    let [share] = shares else {
        return Err(RuleViolation::Company(format!(
            "{} is exchanged for exactly one certificate",
            def.sym
        )));
    };
    let sym = game.title.corp(target).sym.clone();
    if share.corp != target || share.index == 0 {
        return Err(RuleViolation::Company(format!(
            "{} can only be exchanged for a normal {sym} share",
            def.sym
        )));
    }
    let from = match game.holder_of(*share) {
        Some(h @ (Holder::Ipo(_) | Holder::Pool)) => h,
        _ => {
            return Err(RuleViolation::Company(format!(
                "{sym}_{} is not in the IPO or the market",
                share.index
            )))
        }
    };
    let pct = game.share_percent(*share);
    if !game.can_hold(owner, target, pct) {
        return Err(RuleViolation::Shares(format!(
            "{} would hold more than {}% of {sym}",
            game.player(owner).name,
            game.title.kind_of(target).max_ownership_percent.0
        )));
    }
    game.transfer_shares(target, &[*share], from, Holder::Player(owner), pct);
    game.check_float(target);
    game.close_company(company);
    Ok(())
}
