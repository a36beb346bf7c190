//! The initial waterfall auction of private companies (1836Jr30 rules; reference
//! `WaterfallAuction` + `CompanyPendingPar`).
//!
//! Only the cheapest unsold private can be bought outright; bids on the others wait until they
//! become the cheapest, when a single bid buys at once and several start an auction among the
//! bidders only. A full round of passes lowers the cheapest private's price, or, once it has
//! been sold, pays private revenue once.

use crate::action::{Action, BidTarget, Entity, MarketCell};
use crate::engine::shares::Holder;
use crate::engine::state::{CompanyOwner, MarketPos};
use crate::engine::title::{Ability, AllPassRule, ParRule};
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CompanyId, CorpId, Money, PlayerId, ShareId};

/// Bid increment over the face value or the highest bid.
const MIN_INCREMENT: Money = Money(5);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bid {
    pub(crate) player: PlayerId,
    pub(crate) price: Money,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct AuctionRound {
    /// Unsold privates, cheapest first.
    pub(crate) companies: Vec<CompanyId>,
    /// The private that started cheapest; its price drops on a full round of passes.
    cheapest: Option<CompanyId>,
    discount: Money,
    /// Standing bids per private, in placement order.
    pub(crate) bids: Vec<(CompanyId, Vec<Bid>)>,
    /// Players who passed since the last bid, by seat index.
    passed: Vec<bool>,
    /// The seat whose turn it is (index into the game's seats).
    pub(crate) entity_index: usize,
    /// A buyer who must now set a par price (CFLV → Nord).
    pub(crate) pending_par: Option<(PlayerId, CorpId)>,
    /// Whether any private has been sold.
    bought: bool,
    /// Privates with an entry in the reference's bid table (see `all_passed`).
    touched: Vec<CompanyId>,
}

impl AuctionRound {
    pub(crate) fn new(game: &Game) -> AuctionRound {
        let mut companies: Vec<CompanyId> = (0..game.title.companies.len())
            .map(|i| CompanyId(i as u8))
            .filter(|c| !game.company(*c).closed)
            .collect();
        companies.sort_by_key(|c| game.company(*c).value);
        AuctionRound {
            cheapest: companies.first().copied(),
            companies,
            discount: Money::ZERO,
            bids: Vec::new(),
            passed: vec![false; game.seats.len()],
            entity_index: 0,
            pending_par: None,
            bought: false,
            touched: Vec::new(),
        }
    }

    fn touch(&mut self, company: CompanyId) {
        if !self.touched.contains(&company) {
            self.touched.push(company);
        }
    }

    fn bids_for(&self, company: CompanyId) -> &[Bid] {
        self.bids
            .iter()
            .find(|(c, _)| *c == company)
            .map(|(_, b)| b.as_slice())
            .unwrap_or(&[])
    }

    fn bids_for_mut(&mut self, company: CompanyId) -> &mut Vec<Bid> {
        if let Some(i) = self.bids.iter().position(|(c, _)| *c == company) {
            return &mut self.bids[i].1;
        }
        self.bids.push((company, Vec::new()));
        &mut self.bids.last_mut().expect("just pushed").1
    }

    /// The private under auction: the cheapest one when it has several bids.
    pub(crate) fn auctioning(&self) -> Option<CompanyId> {
        let first = *self.companies.first()?;
        (self.bids_for(first).len() > 1).then_some(first)
    }

    fn lowest_bidder(&self, company: CompanyId) -> Option<PlayerId> {
        let bids = self.bids_for(company);
        let min = bids.iter().map(|b| b.price).min()?;
        bids.iter().find(|b| b.price == min).map(|b| b.player)
    }

    pub(crate) fn acting(&self, game: &Game) -> Option<PlayerId> {
        if let Some((player, _)) = self.pending_par {
            return Some(player);
        }
        if let Some(company) = self.auctioning() {
            return self.lowest_bidder(company);
        }
        game.seats.get(self.entity_index).copied()
    }

    pub(crate) fn face_price(&self, game: &Game, company: CompanyId) -> Money {
        let value = game.company(company).value;
        if Some(company) == self.cheapest {
            value - self.discount
        } else {
            value
        }
    }

    pub(crate) fn min_bid(&self, game: &Game, company: CompanyId) -> Money {
        if self.auctioning().is_none() && self.companies.first() == Some(&company) {
            return self.face_price(game, company);
        }
        let high = self.bids_for(company).iter().map(|b| b.price).max();
        high.unwrap_or_else(|| self.face_price(game, company)) + MIN_INCREMENT
    }

    /// The cash a player's bids tie up: all his bids, or only those leading their private
    /// where the title says so (reference `bids_for_player`).
    fn committed(&self, game: &Game, player: PlayerId) -> Money {
        let only_highest = game.title.auction.only_highest_bid_committed;
        self.bids
            .iter()
            .filter_map(|(_, bids)| {
                if only_highest {
                    // The first of equal highest bids, as Ruby's `max_by` picks it.
                    bids.iter()
                        .rev()
                        .max_by_key(|b| b.price)
                        .filter(|b| b.player == player)
                } else {
                    bids.iter().find(|b| b.player == player)
                }
            })
            .map(|b| b.price)
            .sum()
    }

    pub(crate) fn max_bid(&self, game: &Game, player: PlayerId, company: CompanyId) -> Money {
        let own = self
            .bids_for(company)
            .iter()
            .find(|b| b.player == player)
            .map(|b| b.price)
            .unwrap_or(Money::ZERO);
        game.player(player).cash - self.committed(game, player) + own
    }
}

fn round(game: &mut Game) -> &mut AuctionRound {
    match &mut game.round {
        Round::Auction(a) => a,
        _ => unreachable!("auction processing outside the auction round"),
    }
}

impl Game {
    /// What a player can pay for a private whatever the other auctions' outcomes: his cash
    /// less all his bids on other privates (the reference's limit counts only his leading
    /// bids where the title commits only those, so a bid within it may fail to be paid once
    /// he wins another private: self-play keeps below this).
    pub(crate) fn safe_bid_limit(&self, player: PlayerId, company: CompanyId) -> Money {
        let Round::Auction(a) = &self.round else {
            return self.player(player).cash;
        };
        let others: Money = a
            .bids
            .iter()
            .filter(|(c, _)| *c != company)
            .flat_map(|(_, bids)| bids.iter())
            .filter(|b| b.player == player)
            .map(|b| b.price)
            .sum();
        self.player(player).cash - others
    }
}

fn round_ref(game: &Game) -> &AuctionRound {
    match &game.round {
        Round::Auction(a) => a,
        _ => unreachable!("auction processing outside the auction round"),
    }
}

pub(crate) fn process(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    let acting = round_ref(game).acting(game);
    let Entity::Player(player) = action.entity() else {
        return Err(not_your_turn(game, action.entity(), acting));
    };
    if Some(player) != acting {
        return Err(not_your_turn(game, action.entity(), acting));
    }
    if let Some((_, corp)) = round_ref(game).pending_par {
        return match action {
            Action::Par { corp: c, cell, .. } if *c == corp => {
                pending_par(game, player, corp, cell)
            }
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "par after a private",
                allowed: format!("par {}", game.title.corp(corp).sym),
            }),
        };
    }
    match action {
        Action::Bid {
            target: BidTarget::Company(company),
            price,
            ..
        } => bid(game, player, *company, *price)?,
        Action::Pass { .. } => pass(game, player),
        _ => {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "private auction",
                allowed: "bid, pass".to_string(),
            })
        }
    }
    finish_if_done(game);
    Ok(())
}

fn not_your_turn(game: &Game, actor: Entity, acting: Option<PlayerId>) -> RuleViolation {
    RuleViolation::NotYourTurn {
        actor: game.entity_name(actor),
        expected: acting
            .map(|p| game.player(p).name.clone())
            .unwrap_or_else(|| "nobody".into()),
    }
}

fn next_seat(game: &mut Game) {
    let n = game.seats.len();
    let a = round(game);
    a.entity_index = (a.entity_index + 1) % n;
}

fn bid(
    game: &mut Game,
    player: PlayerId,
    company: CompanyId,
    price: Money,
) -> Result<(), RuleViolation> {
    let a = round_ref(game).clone();
    if !a.companies.contains(&company) {
        return Err(RuleViolation::Auction(format!(
            "{} is not for sale",
            game.title.company(company).sym
        )));
    }
    if let Some(auctioning) = a.auctioning() {
        if company != auctioning {
            return Err(RuleViolation::Auction(format!(
                "{} is being auctioned: until it is sold the auction rules allow only a bid on \
                 it or a pass",
                game.title.company(auctioning).sym
            )));
        }
        add_bid(game, player, company, price)?;
        return Ok(());
    }
    let seat = game.seats.iter().position(|p| *p == player).unwrap_or(0);
    round(game).passed[seat] = false;
    if a.companies.first() == Some(&company) {
        let face = a.face_price(game, company);
        if price != face {
            return Err(RuleViolation::ValueMismatch {
                what: "purchase price",
                recorded: price.to_string(),
                expected: face.to_string(),
            });
        }
        buy_company(game, player, company, price)?;
        resolve_bids(game)?;
    } else {
        add_bid(game, player, company, price)?;
    }
    next_seat(game);
    Ok(())
}

fn add_bid(
    game: &mut Game,
    player: PlayerId,
    company: CompanyId,
    price: Money,
) -> Result<(), RuleViolation> {
    let a = round_ref(game);
    let min = a.min_bid(game, company);
    if price < min {
        return Err(RuleViolation::BidTooLow {
            target: game.title.company(company).sym.clone(),
            bid: price,
            min,
        });
    }
    if game.title.auction.bid_multiple && (price - min).0 % MIN_INCREMENT.0 != 0 {
        return Err(RuleViolation::Auction(format!(
            "bids on {} must be {min} plus a multiple of {MIN_INCREMENT}",
            game.title.company(company).sym
        )));
    }
    let max = a.max_bid(game, player, company);
    if price > max {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: max,
            needed: price,
        });
    }
    round(game).touch(company);
    let bids = round(game).bids_for_mut(company);
    bids.retain(|b| b.player != player);
    bids.push(Bid { player, price });
    Ok(())
}

fn pass(game: &mut Game, player: PlayerId) {
    if let Some(company) = round_ref(game).auctioning() {
        round(game)
            .bids_for_mut(company)
            .retain(|b| b.player != player);
        // One remaining bid buys at once; the cascade may continue.
        let _ = resolve_bids(game);
        return;
    }
    let seat = game.seats.iter().position(|p| *p == player).unwrap_or(0);
    round(game).passed[seat] = true;
    if round_ref(game).passed.iter().all(|p| *p) {
        all_passed(game);
    }
    next_seat(game);
}

fn all_passed(game: &mut Game) {
    let a = round_ref(game).clone();
    match game.title.auction.all_pass {
        AllPassRule::DiscountThenRevenue => match a.cheapest.filter(|c| a.companies.contains(c)) {
            Some(cheapest) => discount_cheapest(game, cheapest),
            // A "fake operating round" (reference `all_passed!`): revenue, and what ends a
            // set of operating rounds (18Chesapeake exports a train).
            None => {
                game.pay_private_revenue();
                game.export_train();
            }
        },
        AllPassRule::RestartThenRemoveUnbid => {
            if a.bought {
                // Reference quirk: only privates with an (empty) entry in its bid table are
                // removed: those bid on, or looked at as the cheapest, since their last sale.
                let unbid: Vec<CompanyId> = a
                    .touched
                    .iter()
                    .copied()
                    .filter(|c| a.bids_for(*c).is_empty())
                    .collect();
                round(game).companies.retain(|c| !unbid.contains(c));
                let _ = resolve_bids(game);
            } else if let Some(cheapest) = a.cheapest {
                let r = round(game);
                r.bids.clear();
                r.touched.clear();
                discount_cheapest(game, cheapest);
            }
        }
    }
    round(game).passed.iter_mut().for_each(|p| *p = false);
}

/// Lowers the cheapest private's price; at zero the next player must take it for free.
fn discount_cheapest(game: &mut Game, cheapest: CompanyId) {
    round(game).discount += MIN_INCREMENT;
    if round_ref(game).face_price(game, cheapest).0 <= 0 {
        next_seat(game);
        let taker = game.seats[round_ref(game).entity_index];
        let _ = buy_company(game, taker, cheapest, Money::ZERO);
        let _ = resolve_bids(game);
    }
}

/// Sells the cheapest privates that have exactly one bid, until one has none or several.
fn resolve_bids(game: &mut Game) -> Result<(), RuleViolation> {
    while let Some(&company) = round_ref(game).companies.first() {
        round(game).touch(company);
        let bids = round_ref(game).bids_for(company).to_vec();
        if bids.len() != 1 {
            break;
        }
        round(game).bids.retain(|(c, _)| *c != company);
        buy_company(game, bids[0].player, company, bids[0].price)?;
    }
    Ok(())
}

fn buy_company(
    game: &mut Game,
    player: PlayerId,
    company: CompanyId,
    price: Money,
) -> Result<(), RuleViolation> {
    let max = round_ref(game).max_bid(game, player, company);
    if max < price {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: max,
            needed: price,
        });
    }
    game.companies[company.0 as usize].owner = CompanyOwner::Player(player);
    game.player_mut(player).companies.push(company);
    game.player_mut(player).cash -= price;
    game.bank += price;
    let r = round(game);
    r.companies.retain(|c| *c != company);
    r.bids.retain(|(c, _)| *c != company);
    r.touched.retain(|c| *c != company);
    r.bought = true;
    for ability in game.company_abilities(company) {
        if let Ability::Shares {
            share,
            par,
            buys_first_train,
            ..
        } = ability
        {
            let Some(share) = parse_share(game, company, share) else {
                continue;
            };
            if share.index == 0 && *par == ParRule::HalfPrice {
                start_with_half_price_par(game, player, share.corp, price, *buys_first_train);
            } else if share.index == 0 {
                round(game).pending_par = Some((player, share.corp));
            } else {
                game.transfer_shares(
                    share.corp,
                    &[share],
                    Holder::Ipo(share.corp),
                    Holder::Player(player),
                    10,
                );
            }
        }
    }
    Ok(())
}

/// DK → DKR: par at the highest par price not above half the purchase price, the price into
/// the treasury, the home token down, and the first train of the depot bought at once.
fn start_with_half_price_par(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    price: Money,
    buys_train: bool,
) {
    let half = Money(price.0 / 2);
    let Some(cell) = game.highest_par_at_most(half, None) else {
        return;
    };
    game.start_with_president(corp, player, &cell);
    game.place_home_token_at_par(corp);
    game.bank_pays(price);
    game.corp_mut(corp).cash += price;
    if buys_train {
        game.buy_first_depot_train(corp);
    }
}

/// A `shares` ability's word for the president's certificate of a corporation drawn at
/// setup (reference `init_company_abilities`).
pub(crate) const RANDOM_PRESIDENT: &str = "random_president";

/// The certificate a private's `shares` ability names (`GCL_1`), or the president's
/// certificate of the corporation the setup drew for it (`random_president`: 18Chesapeake CV).
pub(crate) fn parse_share(game: &Game, company: CompanyId, text: &str) -> Option<ShareId> {
    if text == RANDOM_PRESIDENT {
        let corp = game
            .resolved_setup
            .as_ref()?
            .president_draws
            .iter()
            .find(|(c, _)| *c == company)?
            .1;
        return Some(ShareId { corp, index: 0 });
    }
    let (sym, index) = text.rsplit_once('_')?;
    Some(ShareId {
        corp: game.title.corp_by_sym(sym)?,
        index: index.parse().ok()?,
    })
}

fn pending_par(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    cell: &MarketCell,
) -> Result<(), RuleViolation> {
    game.check_par_cell(cell)?;
    game.start_with_president(corp, player, cell);
    round(game).pending_par = None;
    finish_if_done(game);
    Ok(())
}

impl Game {
    /// Checks that a par action names a par cell with its true price.
    pub(crate) fn check_par_cell(&self, cell: &MarketCell) -> Result<(), RuleViolation> {
        match self.title.cell(cell.row, cell.column) {
            Some(def) if def.par => {
                if def.price != cell.price {
                    return Err(RuleViolation::ValueMismatch {
                        what: "par price",
                        recorded: cell.price.to_string(),
                        expected: def.price.to_string(),
                    });
                }
                Ok(())
            }
            _ => {
                let pars: Vec<String> = self.title.par_prices().map(|p| p.to_string()).collect();
                Err(RuleViolation::Shares(format!(
                    "{} (row {}, column {}) is not a par price; par prices are {}",
                    cell.price,
                    cell.row,
                    cell.column,
                    pars.join(", ")
                )))
            }
        }
    }

    /// The highest par cell priced at most `limit` (and, if `cash` is given, affordable as a
    /// president's certificate of twice the par).
    pub(crate) fn highest_par_at_most(
        &self,
        limit: Money,
        cash: Option<Money>,
    ) -> Option<MarketCell> {
        let mut best: Option<MarketCell> = None;
        for (r, row) in self.title.market.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let Some(cell) = cell.as_ref() else { continue };
                let affordable = cash.is_none_or(|cash| cell.price.0 * 2 <= cash.0);
                if cell.par
                    && cell.price <= limit
                    && affordable
                    && best.is_none_or(|b| cell.price > b.price)
                {
                    best = Some(MarketCell {
                        price: cell.price,
                        row: r as u8,
                        column: c as u8,
                    });
                }
            }
        }
        best
    }

    /// Puts a corporation's marker on its par cell and marks it started.
    pub(crate) fn set_par(&mut self, corp: CorpId, cell: &MarketCell) {
        let pos = MarketPos {
            row: cell.row,
            column: cell.column,
        };
        self.place_marker(corp, pos);
        let c = self.corp_mut(corp);
        c.par_price = Some(cell.price);
        c.ipoed = true;
    }

    /// Starts a corporation at `cell` with `player` taking its president's certificate from the
    /// IPO, as a private or an auction hands it over (no payment for the certificate here).
    pub(crate) fn start_with_president(
        &mut self,
        corp: CorpId,
        player: PlayerId,
        cell: &MarketCell,
    ) {
        self.set_par(corp, cell);
        let cert = ShareId { corp, index: 0 };
        let pct = self.share_percent(cert);
        self.transfer_shares(
            corp,
            &[cert],
            Holder::Ipo(corp),
            Holder::Player(player),
            pct,
        );
        self.check_float(corp);
    }

    /// Pays every private's revenue to its owner, players in seat order first.
    pub(crate) fn pay_private_revenue(&mut self) {
        let mut owned: Vec<(u8, usize, CompanyId)> = Vec::new();
        for (i, c) in self.companies.iter().enumerate() {
            if c.closed {
                continue;
            }
            let key = match c.owner {
                CompanyOwner::Player(p) => {
                    (0, self.seats.iter().position(|s| *s == p).unwrap_or(0))
                }
                CompanyOwner::Corporation(corp) => (1, corp.0 as usize),
                CompanyOwner::Unsold => continue,
            };
            owned.push((key.0, key.1, CompanyId(i as u8)));
        }
        owned.sort();
        for (_, _, company) in owned {
            let revenue = self.company(company).revenue;
            if revenue.0 <= 0 {
                continue;
            }
            self.bank_pays(revenue);
            match self.company(company).owner {
                CompanyOwner::Player(p) => self.player_mut(p).cash += revenue,
                CompanyOwner::Corporation(c) => self.corp_mut(c).cash += revenue,
                CompanyOwner::Unsold => {}
            }
        }
    }
}

fn finish_if_done(game: &mut Game) {
    let a = round_ref(game);
    if !a.companies.is_empty() || a.pending_par.is_some() {
        return;
    }
    let index = a.entity_index;
    let active: Vec<PlayerId> = game
        .seats
        .iter()
        .copied()
        .filter(|p| !game.player(*p).bankrupt)
        .collect();
    if let Some(&first) = active.get(index % active.len().max(1)) {
        let pos = game.seats.iter().position(|p| *p == first).unwrap_or(0);
        game.seats.rotate_left(pos);
    }
    game.priority_deal = game.seats.first().copied();
    let hooks = game.title.hooks;
    hooks.private_auction_finished(game);
    game.start_stock_round();
}
