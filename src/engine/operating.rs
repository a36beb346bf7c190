//! The operating round (1836Jr30 step order: home token, track, token, routes, dividend, trains,
//! privates), with emergency train purchases and bankruptcy.
//!
//! Each corporation's turn walks the steps in order; a step that has nothing to ask is skipped
//! automatically (as the reference engine's `skip_steps` does), so a log holds a `pass` only
//! where the reference waited for one.

use crate::action::{Action, DividendKind, Entity, RouteSpec};
use crate::engine::map::{
    BestRun, ContextRules, LayRequest, RouteError, RunContext, SearchError, SearchLimits, Station,
    TrainRoute, TrainSpec,
};
use crate::engine::market::MarketMove;
use crate::engine::shares::Holder;
use crate::engine::state::{CompanyOwner, GameEndReason, Train, TrainOwner};
use crate::engine::title::{
    Ability, Bankruptcy, Capitalization, CorpKind, DividendMoves, EmergencyFromOthers,
    EmergencySales, HomeTokenTiming, MustBuyTrain, RouteRule, TrainEvent,
};
use crate::engine::{DeviationKind, Game, Round, RuleViolation};
use crate::ids::{
    CityRef, CompanyId, CorpId, HexId, Money, PlayerId, Rotation, ShareId, TileId, TrainId,
    TrainKind,
};

/// Where a corporation's turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrStep {
    HomeToken,
    IssueShares,
    Track,
    Token,
    Route,
    Dividend,
    BuyTrain,
    BuyCompany,
}

impl OrStep {
    fn name(self) -> &'static str {
        match self {
            OrStep::HomeToken => "home token",
            OrStep::IssueShares => "issue or redeem shares",
            OrStep::Track => "track",
            OrStep::Token => "token",
            OrStep::Route => "routes",
            OrStep::Dividend => "dividend",
            OrStep::BuyTrain => "trains",
            OrStep::BuyCompany => "private purchase",
        }
    }

    fn allowed(self) -> &'static str {
        match self {
            OrStep::HomeToken => "place_token",
            OrStep::IssueShares => "sell_shares (issue), buy_shares (redeem), pass",
            OrStep::Track => "lay_tile, pass",
            OrStep::Token => "place_token, pass",
            OrStep::Route => "run_routes",
            OrStep::Dividend => "dividend",
            OrStep::BuyTrain => "buy_train, pass (or sell_shares by the president in an emergency)",
            OrStep::BuyCompany => "buy_company, pass",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct OperatingRound {
    pub(crate) round_num: u8,
    order: Vec<CorpId>,
    index: usize,
    pub(crate) step: OrStep,
    revenue: Money,
    depot_kinds_bought: Vec<TrainKind>,
    /// Whether the corporation has traded a train in this turn.
    traded_in: bool,
    /// Tile actions taken this turn: whether each was an upgrade.
    lays: Vec<bool>,
    /// Price per share of the last emergency sale (limits cheaper purchases from others).
    pub(crate) last_share_sold_price: Option<Money>,
    /// A corporation above its train limit after a phase change; it must discard first.
    pub(crate) discarding: Option<CorpId>,
    /// The private and hex of a teleport lay (CdH) whose free token is still to be placed.
    teleport: Option<(CompanyId, HexId)>,
    /// Tokens lifted by a lay on a trackless multi-city tile, to be placed again on that hex.
    pub(crate) pending_tokens: Vec<LiftedToken>,
    /// A private whose lays must be made together (18Ireland DR, TDR) and the hexes it has
    /// laid on so far: until its last lay nothing else of the turn may happen (reference
    /// special track step, blocking).
    pub(crate) together: Option<(CompanyId, Vec<HexId>)>,
}

fn or(game: &Game) -> &OperatingRound {
    match &game.round {
        Round::Operating(o) => o,
        _ => unreachable!("operating processing outside an operating round"),
    }
}

fn or_mut(game: &mut Game) -> &mut OperatingRound {
    match &mut game.round {
        Round::Operating(o) => o,
        _ => unreachable!("operating processing outside an operating round"),
    }
}

/// A token lifted by a lay on a trackless multi-city tile, to be placed again on that hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LiftedToken {
    /// Whose token it is.
    pub(crate) owner: CorpId,
    pub(crate) hex: HexId,
    /// The corporation that laid the tile: it chooses the city.
    pub(crate) placer: CorpId,
}

impl OperatingRound {
    pub(crate) fn acting(&self, game: &Game) -> Option<Entity> {
        if let Some(c) = self.discarding {
            return Some(Entity::Corporation(c));
        }
        if let Some(lifted) = self.pending_tokens.first() {
            return Some(Entity::Corporation(lifted.placer));
        }
        if let Some((company, _)) = self.teleport {
            return Some(Entity::Company(company));
        }
        if let Some((company, _)) = &self.together {
            return Some(Entity::Company(*company));
        }
        self.order.get(self.index).map(|c| {
            let _ = game;
            Entity::Corporation(*c)
        })
    }

    pub(crate) fn current(&self) -> Option<CorpId> {
        self.order.get(self.index).copied()
    }
}

impl Game {
    pub(crate) fn start_operating_round(&mut self, round_num: u8) {
        let mut order: Vec<CorpId> = (0..self.corps.len())
            .map(|i| CorpId(i as u8))
            .filter(|c| self.corp(*c).floated && !self.corp(*c).closed)
            .collect();
        order.sort_by_key(|c| self.operating_key(*c));
        self.round = Round::Operating(OperatingRound {
            round_num,
            order,
            index: 0,
            step: OrStep::HomeToken,
            revenue: Money::ZERO,
            depot_kinds_bought: Vec::new(),
            traded_in: false,
            lays: Vec::new(),
            last_share_sold_price: None,
            discarding: None,
            teleport: None,
            pending_tokens: Vec::new(),
            together: None,
        });
        self.pay_private_revenue();
        for t in &mut self.trains {
            t.operated = false;
        }
        self.start_corp_turn();
    }

    /// Begins the current corporation's turn, or ends the round if none is left.
    fn start_corp_turn(&mut self) {
        loop {
            let Some(corp) = or(self).current() else {
                self.finish_operating_round();
                return;
            };
            if self.corp(corp).closed {
                or_mut(self).index += 1;
                continue;
            }
            let o = or_mut(self);
            o.step = OrStep::HomeToken;
            o.revenue = Money::ZERO;
            o.depot_kinds_bought.clear();
            o.traded_in = false;
            o.lays.clear();
            o.last_share_sold_price = None;
            o.teleport = None;
            if !self.corp(corp).operated {
                self.corp_mut(corp).operated = true;
                // Titles placing home tokens at par, and corporations without a fixed home,
                // have their token down already.
                let at_first_run = self.title.home_token_timing == HomeTokenTiming::Operate;
                if let Some(home) = self.title.corp(corp).home.filter(|_| at_first_run) {
                    if !self.place_home_token(corp, home) {
                        return;
                    }
                }
            }
            or_mut(self).step = OrStep::IssueShares;
            self.skip_steps();
            return;
        }
    }

    /// Advances past steps that have nothing to ask of the operating corporation.
    fn skip_steps(&mut self) {
        loop {
            if self.finished || !matches!(self.round, Round::Operating(_)) {
                return;
            }
            if or(self).discarding.is_some()
                || !or(self).pending_tokens.is_empty()
                || or(self).together.is_some()
            {
                return;
            }
            let Some(corp) = or(self).current() else {
                return;
            };
            let step = or(self).step;
            let waits = match step {
                OrStep::HomeToken => true,
                OrStep::IssueShares => self.can_issue(corp) || self.can_redeem(corp),
                OrStep::Track => self.track_step_waits(corp),
                OrStep::Token => self.token_step_waits(corp),
                OrStep::Route => self.route_step_waits(corp),
                OrStep::Dividend => {
                    if or(self).revenue.0 > 0 {
                        true
                    } else {
                        self.pay_dividend(corp, DividendKind::Withhold);
                        false
                    }
                }
                OrStep::BuyTrain => self.train_step_waits(corp),
                OrStep::BuyCompany => self.company_step_waits(corp),
            };
            if waits {
                return;
            }
            self.next_or_step();
        }
    }

    fn next_or_step(&mut self) {
        let o = or_mut(self);
        o.step = match o.step {
            OrStep::HomeToken => OrStep::IssueShares,
            OrStep::IssueShares => OrStep::Track,
            OrStep::Track => OrStep::Token,
            OrStep::Token => OrStep::Route,
            OrStep::Route => OrStep::Dividend,
            OrStep::Dividend => OrStep::BuyTrain,
            OrStep::BuyTrain => OrStep::BuyCompany,
            OrStep::BuyCompany => {
                o.index += 1;
                self.start_corp_turn();
                return;
            }
        };
    }

    /// A share price on an end cell ends the game when the round in progress ends (18Ireland
    /// 260); this comes before a bank break's end of the set.
    pub(crate) fn market_end_now(&mut self) -> bool {
        if self.market_end_reached {
            self.end_game(GameEndReason::StockMarket);
            return true;
        }
        false
    }

    fn finish_operating_round(&mut self) {
        if self.market_end_now() {
            return;
        }
        let round_num = or(self).round_num;
        let last_of_set = round_num >= self.operating_rounds;
        // The bank may have broken in the action that ends the round (the last dividend),
        // before the end trigger is recorded after it.
        self.note_bank_trigger();
        if last_of_set && self.end_trigger == Some(GameEndReason::Bank) {
            self.end_game(GameEndReason::Bank);
            return;
        }
        if self.round_ends_past_limit() {
            return;
        }
        if last_of_set && self.merger_round_due() {
            self.start_merger_round(round_num);
        } else if last_of_set {
            self.turn += 1;
            self.start_stock_round();
        } else {
            self.start_operating_round(round_num + 1);
        }
    }

    /// If the operating corporation just closed, the turn passes to the next one.
    pub(crate) fn corp_closed_while_operating(&mut self, corp: CorpId) {
        if let Round::Operating(o) = &self.round {
            if o.current() == Some(corp) {
                or_mut(self).index += 1;
                self.start_corp_turn();
            }
        }
    }

    pub(crate) fn end_game(&mut self, reason: GameEndReason) {
        self.finished = true;
        self.end_reason = Some(reason);
    }

    // ----- waiting predicates -------------------------------------------------------------

    pub(crate) fn next_token_price(&self, corp: CorpId) -> Option<Money> {
        let c = self.corp(corp);
        let used = self.title.corp(corp).tokens.len() - c.tokens_unused as usize;
        self.title.corp(corp).tokens.get(used).copied()
    }

    /// Reference `Tokener#can_place_token?`: a token left, affordable, and (asked last, as the
    /// reference asks its cached graph last) a city the corporation reaches.
    fn token_step_waits(&mut self, corp: CorpId) -> bool {
        if or(self).teleport.is_some() {
            return true;
        }
        let Some(price) = self.next_token_price(corp) else {
            return false;
        };
        self.corp(corp).cash >= price && self.reaches_token_city(corp)
    }

    fn route_step_waits(&mut self, corp: CorpId) -> bool {
        let has_train = self
            .corp(corp)
            .trains
            .iter()
            .any(|t| !self.trains.iter().any(|x| x.id == *t && x.operated));
        has_train && self.route_available(corp)
    }

    /// Whether the corporation has (or ever had) a route; remembered once true.
    fn route_available(&mut self, corp: CorpId) -> bool {
        if self.corp(corp).route_seen {
            return true;
        }
        let available = self.board.route_available(self.title.map, corp);
        if available {
            self.corp_mut(corp).route_seen = true;
        }
        available
    }

    pub(crate) fn train_limit(&self, corp: CorpId) -> usize {
        let phase = &self.title.phases[self.phase];
        match self.title.corp(corp).kind {
            CorpKind::Minor => phase.minor_train_limit.unwrap_or(phase.train_limit) as usize,
            CorpKind::Major => phase.train_limit as usize,
        }
    }

    /// Whether the track step still waits: the first tile action always; a later one while the
    /// title allows it (not after an upgrade unless Dargan's ability) and its fee is affordable.
    fn track_step_waits(&self, corp: CorpId) -> bool {
        // Reference `Tracker#can_lay_tile?`: a track-timed lay ability of the corporation's own
        // private, or one it could buy now, keeps the step open.
        if self.has_track_ability(corp) || self.could_buy_track_private(corp) {
            return true;
        }
        let lays = &or(self).lays;
        let Some(rule) = self.title.tile_lays.get(lays.len()) else {
            return false;
        };
        if lays.is_empty() {
            return true;
        }
        let upgraded = lays.iter().any(|u| *u);
        let may_lay = !(rule.not_if_upgraded && upgraded);
        let may_upgrade = rule.upgrade || self.second_upgrade_fee(corp).is_some();
        (may_lay || may_upgrade) && self.corp(corp).cash >= rule.cost
    }

    fn is_track_lay_ability(ability: &Ability) -> bool {
        matches!(ability, Ability::TileLay { when: Some(w), .. } if w == "track")
    }

    fn has_track_ability(&self, corp: CorpId) -> bool {
        self.corp(corp).companies.iter().any(|c| {
            !self.company(*c).closed
                && self.company(*c).uses_left > 0
                && self.title.company(*c).abilities.iter().any(|a| {
                    Self::is_track_lay_ability(a)
                        && !matches!(
                            a,
                            Ability::TileLay {
                                consumes_tile_lay: true,
                                ..
                            }
                        )
                })
        })
    }

    fn could_buy_track_private(&self, corp: CorpId) -> bool {
        self.companies_buyable()
            && (0..self.companies.len())
                .map(|i| CompanyId(i as u8))
                .any(|c| {
                    matches!(self.company(c).owner, CompanyOwner::Player(_))
                        && !self.company(c).closed
                        && !self.company_no_buy(c)
                        && Money((self.title.company(c).value.0 + 1) / 2) <= self.corp(corp).cash
                        && self
                            .title
                            .company(c)
                            .abilities
                            .iter()
                            .any(Self::is_track_lay_ability)
                })
    }

    /// The fee for an upgrade as a later tile action, when a private allows it (William Dargan).
    fn second_upgrade_fee(&self, corp: CorpId) -> Option<Money> {
        self.corp(corp).companies.iter().find_map(|c| {
            self.title
                .company(*c)
                .abilities
                .iter()
                .find_map(|a| match a {
                    Ability::SecondUpgrade { cost } if !self.company(*c).closed => Some(*cost),
                    _ => None,
                })
        })
    }

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

    fn can_issue(&self, corp: CorpId) -> bool {
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

    fn can_redeem(&self, corp: CorpId) -> bool {
        self.redeemable_share(corp).is_some()
    }

    /// Trains the depot offers: the next type, types made available by the phase, one of each
    /// type in the pool.
    pub(crate) fn depot_offer(&self) -> Vec<TrainId> {
        let mut out: Vec<TrainId> = Vec::new();
        let upcoming: Vec<&crate::engine::state::Train> = self
            .trains
            .iter()
            .filter(|t| t.owner == TrainOwner::Depot)
            .collect();
        if let Some(first) = upcoming.first() {
            out.push(first.id);
        }
        for t in &upcoming {
            let def = self.title.train(t.id.kind);
            let available = def
                .available_on
                .as_ref()
                .is_some_and(|on| self.phase_reached(on));
            if available && !out.iter().any(|o| o.kind == t.id.kind) {
                out.push(t.id);
            }
        }
        let mut pool_kinds: Vec<TrainKind> = Vec::new();
        for t in self.pool_trains() {
            if !pool_kinds.contains(&t.kind) {
                pool_kinds.push(t.kind);
                out.push(t);
            }
        }
        out
    }

    fn pool_trains(&self) -> Vec<TrainId> {
        self.pool_train_order.clone()
    }

    fn phase_reached(&self, name: &str) -> bool {
        self.title
            .phases
            .iter()
            .position(|p| p.name == name)
            .is_some_and(|i| i <= self.phase)
    }

    pub(crate) fn others_trains(&self, corp: CorpId) -> Vec<TrainId> {
        self.trains
            .iter()
            .filter(|t| matches!(t.owner, TrainOwner::Corporation(c) if c != corp))
            .map(|t| t.id)
            .collect()
    }

    /// The inclusive price range for buying `train` from another corporation: up to the
    /// treasury, and short of the face value up to it with the president's money (reference
    /// `spend_minmax`; the president pays only in an emergency, see `buy_train`). After he has
    /// sold shares in an emergency the price must need that last sale. With a minimum above
    /// the maximum nothing can be paid.
    pub(crate) fn price_range_from_others(&self, corp: CorpId, train: TrainId) -> (Money, Money) {
        let cash = self.corp(corp).cash;
        let face = self.title.train(train.kind).price;
        let president_cash = self
            .corp(corp)
            .president
            .map_or(Money::ZERO, |p| self.player(p).cash);
        let max_possible = cash + president_cash;
        let sold = match &self.round {
            Round::Operating(o) => o.last_share_sold_price,
            _ => None,
        };
        let cheapest_depot = self.cheapest_depot_price().unwrap_or(Money::ZERO);
        if self.title.operating.emergency_from_others == EmergencyFromOthers::Never
            && (cash == Money::ZERO || sold.is_some() && cash < cheapest_depot)
        {
            // Reference `buyable_trains` with `EBUY_FROM_OTHERS == :never`.
            return (Money(1), Money::ZERO);
        }
        let min = sold.filter(|_| face > cash).map_or(Money(1), |sold| {
            (max_possible - sold + Money(1)).max(Money(1))
        });
        if cash >= face {
            return (min, cash);
        }
        (min, face.min(max_possible))
    }

    fn min_train_price(&self, corp: CorpId) -> Option<Money> {
        let others = self.others_trains(corp).into_iter().map(|_| Money(1));
        self.cheapest_depot_price().into_iter().chain(others).min()
    }

    /// The face price of the cheapest train the depot (or the open market) offers.
    pub(crate) fn cheapest_depot_price(&self) -> Option<Money> {
        self.depot_offer()
            .iter()
            .map(|t| self.title.train(t.kind).price)
            .min()
    }

    fn must_buy_train(&mut self, corp: CorpId) -> bool {
        if !self.corp(corp).trains.is_empty() {
            return false;
        }
        // Only while the depot (or the open market) offers a train: with every train bought,
        // trains from other corporations are optional even for a corporation without one.
        if self.depot_offer().is_empty() {
            return false;
        }
        match self.title.operating.must_buy_train {
            MustBuyTrain::Route => self.route_available(corp),
            MustBuyTrain::Always => true,
        }
    }

    fn can_buy_train(&self, corp: CorpId) -> bool {
        let room = self.corp(corp).trains.len() < self.train_limit(corp);
        let normal = room
            && self
                .min_train_price(corp)
                .is_some_and(|p| self.corp(corp).cash >= p);
        // 18Ireland (reference train step): after a trade-in only a normal purchase keeps the
        // step open; a further trade-in is then possible only while it is.
        let traded_in = self.title.operating.only_normal_purchase_after_trade_in
            && matches!(&self.round, Round::Operating(o) if o.traded_in);
        normal
            || !traded_in
                && self
                    .discountable_trains(corp)
                    .iter()
                    .any(|(_, _, price)| self.corp(corp).cash >= *price)
    }

    /// (new train, traded train, price) for every trade-in the corporation could make.
    pub(crate) fn discountable_trains(&self, corp: CorpId) -> Vec<(TrainId, TrainId, Money)> {
        let mut out = Vec::new();
        if !self.trade_ins_allowed() {
            return out;
        }
        for offered in self.depot_offer() {
            let def = self.title.train(offered.kind);
            for owned in &self.corp(corp).trains {
                let owned_name = &self.title.train(owned.kind).name;
                if let Some(discount) = def.discount.get(owned_name) {
                    out.push((offered, *owned, def.price - *discount));
                }
            }
        }
        out
    }

    fn train_step_waits(&mut self, corp: CorpId) -> bool {
        self.must_buy_train(corp) || self.can_buy_train(corp)
    }

    fn companies_buyable(&self) -> bool {
        self.title.phases[self.phase].can_buy_companies
    }

    fn company_step_waits(&self, corp: CorpId) -> bool {
        let cash = self.corp(corp).cash;
        if self.companies_buyable() {
            let any = (0..self.companies.len())
                .map(|i| CompanyId(i as u8))
                .any(|c| {
                    matches!(self.company(c).owner, CompanyOwner::Player(_))
                        && !self.company(c).closed
                        && !self.company_no_buy(c)
                        && Money((self.title.company(c).value.0 + 1) / 2) <= cash
                });
            if any {
                return true;
            }
        }
        // An unused ability usable any time in the owner's turn (E-SF's lay, a bonus marker not
        // yet assigned) keeps the step open; track-timed lays and CdH's teleport do not.
        self.corp(corp).companies.iter().any(|c| {
            !self.company(*c).closed
                && self.title.company(*c).abilities.iter().any(|a| match a {
                    Ability::TileLay { when: Some(w), .. } => {
                        w == "owning_corp_or_turn" && self.company(*c).uses_left > 0
                    }
                    Ability::AssignHex { .. } => true,
                    _ => false,
                })
        })
    }

    pub(crate) fn company_no_buy(&self, company: CompanyId) -> bool {
        self.title
            .company(company)
            .abilities
            .iter()
            .any(|a| matches!(a, Ability::NoBuy))
    }

    // ----- home tokens ---------------------------------------------------------------------

    /// Places a home token; returns false if the president must choose the city.
    fn place_home_token(&mut self, corp: CorpId, hex: HexId) -> bool {
        if self.board.home_needs_choice(self.title.map, corp, hex) {
            or_mut(self).step = OrStep::HomeToken;
            return false;
        }
        // A home city already filled (cannot happen with reservations) leaves the token unused.
        if self
            .board
            .place_home_token(self.title.map, corp, hex)
            .is_ok()
        {
            self.corp_mut(corp).tokens_unused -= 1;
        }
        true
    }

    // ----- helpers for blocked hexes --------------------------------------------------------

    /// Hexes blocked by privates that no corporation owns: a player's, or one still unsold
    /// (reference: a player-owned ability also counts while the private has no owner; an
    /// 18Ireland private left in the bank after the auction keeps blocking).
    pub(crate) fn blocked_hexes(&self) -> Vec<HexId> {
        let mut out = Vec::new();
        for (i, c) in self.companies.iter().enumerate() {
            if c.closed || matches!(c.owner, CompanyOwner::Corporation(_)) {
                continue;
            }
            for a in &self.title.companies[i].abilities {
                if let Ability::BlocksHexes { hexes } = a {
                    out.extend(hexes.iter().filter_map(|h| h.parse::<HexId>().ok()));
                }
            }
        }
        out
    }
}

pub(crate) fn process(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    let Some(corp) = or(game).current() else {
        return Err(RuleViolation::GameOver);
    };
    // A private's bonus marker may be placed at any time of its owning corporation's turn
    // (reference `Assign` step: not blocking, ahead of the turn's steps).
    if let (Entity::Company(company), Action::Assign { hex, .. }) = (action.entity(), action) {
        assign(game, company, *hex)?;
        // The marker may have been all that held the private-purchase step open.
        if or(game).step == OrStep::BuyCompany && !game.company_step_waits(corp) {
            game.next_or_step();
        }
        game.skip_steps();
        return Ok(());
    }
    // A private's owner may exchange it at any time (GCB).
    if let (Entity::Company(company), Action::BuyShares { shares, .. }) = (action.entity(), action)
    {
        crate::engine::stock::exchange(game, company, shares)?;
        return Ok(());
    }
    if let Some((company, _)) = &or(game).together {
        let company = *company;
        let own_lay = matches!(
            (action.entity(), action),
            (Entity::Company(c), Action::LayTile { .. }) if c == company
        );
        if !own_lay {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "private's lays",
                allowed: format!(
                    "lay_tile by {} (its lays are made together)",
                    game.title.company(company).sym
                ),
            });
        }
    }
    // Corporations may buy privates at any point of their turn when the phase allows it
    // (reference: a non-blocking private step ahead of the turn's steps), also while they
    // discard a train and, where that step comes after the home token's (1836Jr30), while a
    // home token waits to be placed.
    if let Action::BuyCompany {
        entity: Entity::Corporation(buyer),
        company,
        price,
    } = action
    {
        let home_token_waits =
            !or(game).pending_tokens.is_empty() || or(game).step == OrStep::HomeToken;
        let blocked = or(game).discarding.is_some_and(|c| c != corp)
            || (home_token_waits && game.title.operating.home_token_first);
        if *buyer == corp && !blocked {
            buy_company(game, corp, *company, *price)?;
            if or(game).step == OrStep::BuyCompany && !game.company_step_waits(corp) {
                game.next_or_step();
            }
            game.skip_steps();
            return Ok(());
        }
    }
    if let Some(discarding) = or(game).discarding {
        return match action {
            Action::DiscardTrain {
                entity: Entity::Corporation(c),
                train,
            } if *c == discarding => discard_train(game, discarding, *train),
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "discard train",
                allowed: format!("discard_train by {}", game.title.corp(discarding).sym),
            }),
        };
    }
    if let Some(&LiftedToken { owner, hex, placer }) = or(game).pending_tokens.first() {
        return match action {
            Action::PlaceToken {
                entity: Entity::Corporation(c),
                city,
                slot,
                cost,
            } if *c == placer => {
                replace_lifted_token(game, owner, hex, *city, (*slot, *cost))?;
                game.skip_steps();
                Ok(())
            }
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "home token",
                allowed: format!(
                    "place_token by {} for {}'s token on {hex}",
                    game.title.corp(placer).sym,
                    game.title.corp(owner).sym
                ),
            }),
        };
    }
    let step = or(game).step;
    // Emergency sales and bankruptcy come from the president during the train step.
    if let Action::SellShares {
        entity: Entity::Player(p),
        shares,
        percent,
        ..
    } = action
    {
        if step == OrStep::BuyTrain && game.corp(corp).president == Some(*p) {
            if !game.must_buy_train(corp) {
                return Err(RuleViolation::Shares(format!(
                    "{} need not buy a train: in an operating round a president sells shares \
                     only to raise money for a train his corporation must buy",
                    game.title.corp(corp).sym
                )));
            }
            emergency_sell(game, corp, *p, shares, *percent)?;
            return Ok(());
        }
    }
    let entity = action.entity();
    let owned_company = match entity {
        Entity::Company(c) if game.company(c).owner == CompanyOwner::Corporation(corp) => Some(c),
        _ => None,
    };
    if entity != Entity::Corporation(corp) && owned_company.is_none() {
        let expected = game.title.corp(corp).sym.clone();
        return Err(RuleViolation::NotYourTurn {
            actor: game.entity_name(entity),
            expected,
        });
    }
    if let Some(company) = owned_company {
        if or(game).teleport.is_some_and(|(c, _)| c == company) {
            return teleport_token(game, corp, action);
        }
        return match action {
            Action::LayTile {
                hex,
                tile,
                rotation,
                ..
            } => special_lay(game, corp, company, *hex, *tile, *rotation),
            _ => Err(RuleViolation::Company(format!(
                "{} has no ability for {}",
                game.title.company(company).sym,
                action.type_name()
            ))),
        };
    }
    match (step, action) {
        (
            OrStep::HomeToken,
            Action::PlaceToken {
                city, slot, cost, ..
            },
        ) => home_token_choice(game, corp, *city, (*slot, *cost))?,
        (
            OrStep::Track,
            Action::LayTile {
                hex,
                tile,
                rotation,
                ..
            },
        ) => {
            lay_tile(game, corp, *hex, *tile, *rotation)?;
            if !game.track_step_waits(corp) {
                game.next_or_step();
            }
        }
        (OrStep::IssueShares, Action::SellShares { shares, .. }) => {
            issue_share(game, corp, shares)?;
            game.next_or_step();
        }
        (OrStep::IssueShares, Action::BuyShares { shares, .. }) => {
            redeem_share(game, corp, shares)?;
            game.next_or_step();
        }
        (
            OrStep::IssueShares
            | OrStep::Track
            | OrStep::Token
            | OrStep::BuyTrain
            | OrStep::BuyCompany,
            Action::Pass { .. },
        ) => {
            if step == OrStep::BuyTrain && game.must_buy_train(corp) {
                return Err(RuleViolation::Train(format!(
                    "{} has no train and must buy one",
                    game.title.corp(corp).sym
                )));
            }
            game.next_or_step();
        }
        (
            OrStep::Token,
            Action::PlaceToken {
                city, slot, cost, ..
            },
        ) => {
            place_token(game, corp, *city, (*slot, *cost))?;
            game.next_or_step();
        }
        (OrStep::Route, Action::RunRoutes { routes, .. }) => {
            run_routes(game, corp, routes)?;
            game.next_or_step();
        }
        (OrStep::Dividend, Action::Dividend { kind, .. }) => {
            game.pay_dividend(corp, *kind);
            game.next_or_step();
        }
        (
            OrStep::BuyTrain,
            Action::BuyTrain {
                train,
                price,
                exchange,
                ..
            },
        ) => {
            let from_depot = game
                .trains
                .iter()
                .any(|t| t.id == *train && t.owner == TrainOwner::Depot);
            buy_train(game, corp, *train, *price, *exchange)?;
            if game.finished {
                return Ok(());
            }
            if or(game).discarding.is_none() && !game.train_step_waits_after_buy(corp, from_depot) {
                game.next_or_step();
            }
        }
        (OrStep::BuyTrain, Action::Bankrupt { .. }) => {
            bankrupt(game, corp)?;
            return Ok(());
        }
        _ => {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: step.name(),
                allowed: step.allowed().to_string(),
            })
        }
    }
    game.skip_steps();
    Ok(())
}

/// Places a private's bonus marker (18Ireland CDSPC, TASPS) for its owning corporation; the
/// private closes.
fn assign(game: &mut Game, company: CompanyId, hex: HexId) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    let Some(hexes) = def.abilities.iter().find_map(|a| match a {
        Ability::AssignHex { hexes, .. } => Some(hexes.clone()),
        _ => None,
    }) else {
        return Err(RuleViolation::Company(format!(
            "{} has no marker to assign",
            def.sym
        )));
    };
    let CompanyOwner::Corporation(owner) = game.company(company).owner else {
        return Err(RuleViolation::Company(format!(
            "{}'s marker is assigned by the corporation that owns it",
            def.sym
        )));
    };
    if game.company(company).closed {
        return Err(RuleViolation::Company(format!("{} is closed", def.sym)));
    }
    // Reference: the marker ability's time is the owning corporation's turn.
    if or(game).current() != Some(owner) {
        return Err(RuleViolation::Company(format!(
            "{}'s marker is assigned only in {}'s turn",
            def.sym,
            game.title.corp(owner).sym
        )));
    }
    if !hexes.iter().any(|h| h.parse::<HexId>().ok() == Some(hex)) {
        return Err(RuleViolation::Company(format!(
            "{}'s marker goes on {}, not {hex}",
            def.sym,
            hexes.join(", ")
        )));
    }
    game.assignments.push((company, owner, hex));
    game.close_company(company);
    Ok(())
}

/// Checks the slot and cost a log states for a token against the ones the rules give.
fn check_token_values(
    game: &Game,
    corp: CorpId,
    station: Station,
    stated: StatedToken,
    price: Money,
) -> Result<(), RuleViolation> {
    let (slot, cost) = stated;
    if let Some(slot) = slot {
        if !game.board.slot_usable(game.title.map, corp, station, slot) {
            return Err(RuleViolation::Token(format!(
                "slot {slot} of that city is not free for {}",
                game.title.corp(corp).sym
            )));
        }
    }
    if let Some(cost) = cost {
        if cost != price {
            return Err(RuleViolation::ValueMismatch {
                what: "token cost",
                recorded: cost.to_string(),
                expected: price.to_string(),
            });
        }
    }
    Ok(())
}

/// Slot and cost as a log states them.
type StatedToken = (Option<u8>, Option<Money>);

/// Places a free token of `corp` in a city that must lie on `hex` (a home token, a lifted
/// token put back, a teleport token): no reach needed, stated slot and cost checked.
fn place_free_token_on(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    city: CityRef,
    stated: StatedToken,
    what: &str,
) -> Result<(), RuleViolation> {
    let map = game.title.map;
    let station = game
        .board
        .locate_city(map, city)
        .filter(|s| map.hex_def(s.hex).id == hex)
        .ok_or_else(|| RuleViolation::Token(format!("{what} must go on a city of {hex}")))?;
    game.board
        .check_token(map, corp, station, false)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    check_token_values(game, corp, station, stated, Money::ZERO)?;
    game.board
        .place_token(map, corp, station)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    game.forget_token_reach();
    Ok(())
}

fn replace_lifted_token(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    city: CityRef,
    stated: StatedToken,
) -> Result<(), RuleViolation> {
    place_free_token_on(game, corp, hex, city, stated, "the lifted token")?;
    or_mut(game).pending_tokens.remove(0);
    Ok(())
}

fn home_token_choice(
    game: &mut Game,
    corp: CorpId,
    city: CityRef,
    stated: StatedToken,
) -> Result<(), RuleViolation> {
    let Some(hex) = game.title.corp(corp).home else {
        return Err(RuleViolation::Token(format!(
            "{} has no home city to choose",
            game.title.corp(corp).sym
        )));
    };
    place_free_token_on(game, corp, hex, city, stated, "the home token")?;
    game.corp_mut(corp).tokens_unused -= 1;
    or_mut(game).step = OrStep::Track;
    Ok(())
}

fn lay_tile(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
) -> Result<(), RuleViolation> {
    // Reference quirk: a corporation's own lay that lifts tokens off a trackless multi-city
    // tile (18Ireland Belfast J4, 1836Jr30's two-city hexes) has its graph computed
    // (`check_track_restrictions!`) while the tokens still stand in the new tile's cities,
    // and a route seen then stays cached (D.1) even if the token is put back in a city
    // without track. Private and teleport lays skip that check. By the rules such a
    // corporation has no route, but the reference keeps offering it the route step, so we do
    // too. This is the reference's strict (live) processing, which the oracle's verdicts use;
    // a reloaded game (`Engine::Game.load`) skips that check and so never caches the route.
    let route_before_lift = game.title.map.hex_index(hex).is_some_and(|at| {
        game.board
            .route_before_lift(game.title.map, at, tile, rotation, corp)
    });
    lay_tile_with(game, corp, hex, tile, rotation, LayBy::Corporation)?;
    if route_before_lift {
        game.corp_mut(corp).route_seen = true;
    }
    Ok(())
}

/// Who makes a tile action of the corporation's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LayBy {
    Corporation,
    /// A private whose lay is one of the corporation's tile actions (BoW), and whether it pays
    /// the terrain.
    Private {
        waive_terrain: bool,
    },
}

/// A tile action of the corporation's turn.
fn lay_tile_with(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
    by: LayBy,
) -> Result<(), RuleViolation> {
    let blocked = game.blocked_hexes();
    let colours = game.title.phases[game.phase].tiles.clone();
    let request = LayRequest {
        corp,
        hex,
        tile,
        rotation,
        phase_colours: &colours,
        blocked_hexes: &blocked,
        check_connectivity: true,
        new_track_rule: by == LayBy::Corporation,
    };
    let outcome = game
        .board
        .check_lay(game.title.map, &request)
        .map_err(|e| RuleViolation::Track(e.to_string()))?;
    let fee = game.tile_action_fee(corp, outcome.upgrade)?;
    let terrain = if by
        == (LayBy::Private {
            waive_terrain: true,
        }) {
        Money::ZERO
    } else {
        outcome.cost
    };
    pay_corp(game, corp, fee + terrain)?;
    game.lay_checked(corp, hex, tile, rotation);
    or_mut(game).lays.push(outcome.upgrade);
    Ok(())
}

impl Game {
    /// Which tile action of the turn the next lay is, and what it may be and cost: the fee
    /// for a lay (`upgrade` false) or an upgrade, or why the corporation may not make it.
    pub(crate) fn tile_action_fee(
        &self,
        corp: CorpId,
        upgrade: bool,
    ) -> Result<Money, RuleViolation> {
        let done = &or(self).lays;
        let Some(rule) = self.title.tile_lays.get(done.len()).copied() else {
            return Err(RuleViolation::Track(format!(
                "{} has no tile action left this turn",
                self.title.corp(corp).sym
            )));
        };
        let upgraded_before = done.iter().any(|u| *u);
        if upgrade && !done.is_empty() {
            match (rule.upgrade, self.second_upgrade_fee(corp)) {
                (true, _) => Ok(rule.cost),
                (false, Some(fee)) => Ok(fee),
                (false, None) => Err(RuleViolation::Track(
                    "this tile action may only lay a new tile, not upgrade".into(),
                )),
            }
        } else if !upgrade && rule.not_if_upgraded && upgraded_before {
            Err(RuleViolation::Track(
                "no further tile may be laid after an upgrade this turn".into(),
            ))
        } else {
            Ok(rule.cost)
        }
    }
}

/// Issues one treasury share to the pool at the current price; the price drops a row.
fn issue_share(game: &mut Game, corp: CorpId, shares: &[ShareId]) -> Result<(), RuleViolation> {
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
fn redeem_share(game: &mut Game, corp: CorpId, shares: &[ShareId]) -> Result<(), RuleViolation> {
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

fn special_lay(
    game: &mut Game,
    corp: CorpId,
    company: CompanyId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    // E-SF's, DR's, TDR's, DCR's and TIM's lays are extra; BoW's is one of the corporation's
    // normal lays without terrain; CdH's teleport is the corporation's lay for the turn, pays
    // the terrain and is followed by a free station token there.
    let mut first = None;
    let mut together = None;
    let mut track_timed = false;
    let Some((hexes, tiles, kind)) = def.abilities.iter().find_map(|a| match a {
        Ability::TileLay {
            hexes,
            tiles,
            free,
            consumes_tile_lay,
            closes_when_used,
            connected,
            count,
            first_hex,
            must_lay_together,
            when,
            ..
        } => Some((
            {
                track_timed = when.as_deref() == Some("track");
                first = first_hex.as_ref().map(|h| (h.clone(), *count));
                together = (*must_lay_together && !*consumes_tile_lay).then_some(*count);
                hexes.clone()
            },
            tiles.clone(),
            SpecialLay::Lay {
                free: *free,
                consumes: *consumes_tile_lay,
                closes: *closes_when_used,
                connected: *connected,
            },
        )),
        Ability::Teleport { hexes, tiles } => {
            Some((hexes.clone(), tiles.clone(), SpecialLay::Teleport))
        }
        _ => None,
    }) else {
        return Err(RuleViolation::Company(format!(
            "{} cannot lay tiles",
            def.sym
        )));
    };
    if game.company(company).uses_left == 0 {
        return Err(RuleViolation::Company(format!(
            "{}'s tile lays have been used",
            def.sym
        )));
    }
    if !hexes.is_empty() && !hexes.iter().any(|h| h.parse::<HexId>().ok() == Some(hex)) {
        return Err(RuleViolation::Company(format!(
            "{} may only lay on {}",
            def.sym,
            hexes.join(", ")
        )));
    }
    if let Some((first_hex, count)) = &first {
        // The reference offers no neighbours to the first lay elsewhere (and fails on it).
        if game.company(company).uses_left == *count && first_hex.parse::<HexId>().ok() != Some(hex)
        {
            return Err(RuleViolation::Company(format!(
                "{}'s first lay must be on {first_hex}",
                def.sym
            )));
        }
    }
    let tile_name = game.title.map.tile_def(tile.def).name.clone();
    if !tiles.is_empty() && !tiles.contains(&tile_name) {
        return Err(RuleViolation::Company(format!(
            "{} may only lay tile {}",
            def.sym,
            tiles.join(" or ")
        )));
    }
    let laid_before: Vec<HexId> = match &or(game).together {
        Some((c, laid)) if *c == company => laid.clone(),
        _ => Vec::new(),
    };
    // The reference (special track `check_connect`, on by default for lays on two or more
    // hexes) wants the lays made together to join: the new tile's track must meet an earlier
    // one's across their common edge.
    if together.is_some_and(|count| count >= 2) && hexes.len() >= 2 && !laid_before.is_empty() {
        let map = game.title.map;
        let exits_at = |h: crate::engine::map::HexIdx| {
            let (t, r) = game.board.tile_at(h);
            map.tile_def(t.def).exits(r.get())
        };
        let joins = map.hex_index(hex).is_some_and(|h| {
            let new = map.tile_def(tile.def).exits(rotation.get());
            (0..6u8).filter(|e| new & (1 << e) != 0).any(|e| {
                game.board.neighbour(map, h, e).is_some_and(|n| {
                    laid_before.iter().any(|l| map.hex_index(*l) == Some(n))
                        && exits_at(n) & (1 << ((e + 3) % 6)) != 0
                })
            })
        });
        if !joins {
            return Err(RuleViolation::Company(format!(
                "{}'s lays must join each other",
                def.sym
            )));
        }
    }
    let uses_normal_lay = matches!(
        kind,
        SpecialLay::Teleport | SpecialLay::Lay { consumes: true, .. }
    );
    let track_ahead = matches!(
        or(game).step,
        OrStep::HomeToken | OrStep::IssueShares | OrStep::Track
    );
    if track_timed && !uses_normal_lay && !track_ahead {
        // Reference `ability_right_time?`: a track-timed ability is usable while the track
        // step is the first of the turn's blocking steps not yet passed (issues come before).
        return Err(RuleViolation::Company(format!(
            "{}'s lays belong to the track step, and that step is over",
            def.sym
        )));
    }
    if uses_normal_lay && or(game).step != OrStep::Track {
        return Err(RuleViolation::Company(format!(
            "{}'s lay is one of the corporation's tile actions, and the track step is over",
            def.sym
        )));
    }
    match kind {
        SpecialLay::Lay {
            free,
            consumes: true,
            ..
        } => lay_tile_with(
            game,
            corp,
            hex,
            tile,
            rotation,
            LayBy::Private {
                waive_terrain: free,
            },
        )?,
        SpecialLay::Lay {
            free,
            consumes: false,
            connected,
            ..
        } => extra_lay(game, corp, hex, tile, rotation, free, connected)?,
        SpecialLay::Teleport => extra_lay(game, corp, hex, tile, rotation, false, false)?,
    }
    game.companies[company.0 as usize].uses_left -= 1;
    if together.is_some() {
        let left = game.company(company).uses_left;
        let mut laid = laid_before;
        laid.push(hex);
        or_mut(game).together = (left > 0).then_some((company, laid));
    }
    if let SpecialLay::Lay { closes: true, .. } = kind {
        if game.company(company).uses_left == 0 {
            game.close_company(company);
        }
    }
    match kind {
        SpecialLay::Teleport => {
            game.next_or_step();
            if game.corp(corp).tokens_unused > 0 {
                or_mut(game).teleport = Some((company, hex));
            }
        }
        SpecialLay::Lay { consumes: true, .. } => {
            if !game.track_step_waits(corp) {
                game.next_or_step();
            }
        }
        SpecialLay::Lay { .. } => {}
    }
    game.skip_steps();
    Ok(())
}

/// What kind of lay a private grants.
#[derive(Debug, Clone, Copy)]
enum SpecialLay {
    Lay {
        free: bool,
        consumes: bool,
        closes: bool,
        connected: bool,
    },
    Teleport,
}

/// A lay outside the corporation's tile actions: no connection needed unless the private
/// asks for one (18Ireland DCR); terrain paid unless the private waives it.
fn extra_lay(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
    free: bool,
    connected: bool,
) -> Result<(), RuleViolation> {
    let colours = game.title.phases[game.phase].tiles.clone();
    let request = LayRequest {
        corp,
        hex,
        tile,
        rotation,
        phase_colours: &colours,
        blocked_hexes: &[],
        check_connectivity: connected,
        new_track_rule: false,
    };
    let outcome = game
        .board
        .check_lay(game.title.map, &request)
        .map_err(|e| RuleViolation::Track(e.to_string()))?;
    if !free {
        pay_corp(game, corp, outcome.cost)?;
    }
    game.lay_checked(corp, hex, tile, rotation);
    Ok(())
}

/// The free token after a teleport lay (reference `SpecialToken`): placed on the teleport hex
/// from the corporation's charter, or declined.
fn teleport_token(game: &mut Game, corp: CorpId, action: &Action) -> Result<(), RuleViolation> {
    let Some((company, hex)) = or(game).teleport else {
        return Err(RuleViolation::Company(
            "no teleport token is pending".into(),
        ));
    };
    match action {
        Action::PlaceToken {
            city, slot, cost, ..
        } => {
            let what = format!("{}'s token", game.title.company(company).sym);
            place_free_token_on(game, corp, hex, *city, (*slot, *cost), &what)?;
            game.corp_mut(corp).tokens_unused -= 1;
            or_mut(game).teleport = None;
            // The teleport token is the corporation's token for the turn.
            if or(game).step == OrStep::Token {
                game.next_or_step();
            }
        }
        Action::Pass { .. } => or_mut(game).teleport = None,
        _ => {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "teleport token",
                allowed: "place_token, pass".into(),
            })
        }
    }
    game.skip_steps();
    Ok(())
}

fn pay_corp(game: &mut Game, corp: CorpId, amount: Money) -> Result<(), RuleViolation> {
    if amount.0 <= 0 {
        return Ok(());
    }
    if game.corp(corp).cash < amount {
        return Err(RuleViolation::InsufficientCash {
            who: game.title.corp(corp).sym.clone(),
            available: game.corp(corp).cash,
            needed: amount,
        });
    }
    game.corp_mut(corp).cash -= amount;
    game.bank += amount;
    Ok(())
}

fn place_token(
    game: &mut Game,
    corp: CorpId,
    city: CityRef,
    stated: StatedToken,
) -> Result<(), RuleViolation> {
    let Some(price) = game.next_token_price(corp) else {
        return Err(RuleViolation::Token(format!(
            "{} has no token left",
            game.title.corp(corp).sym
        )));
    };
    let map = game.title.map;
    let station = game
        .board
        .locate_city(map, city)
        .ok_or_else(|| RuleViolation::Token("no such city on the map".into()))?;
    let hex = map.hex_def(station.hex).id;
    game.board
        .check_token(map, corp, station, true)
        .map_err(|e| RuleViolation::Token(format!("{}: {e}", game.title.corp(corp).sym)))?;
    check_token_values(game, corp, station, stated, price)?;
    pay_corp(game, corp, price)?;
    game.board
        .place_token(map, corp, station)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    game.forget_token_reach();
    let _ = hex;
    game.corp_mut(corp).tokens_unused -= 1;
    Ok(())
}

fn run_routes(game: &mut Game, corp: CorpId, routes: &[RouteSpec]) -> Result<(), RuleViolation> {
    for (i, r) in routes.iter().enumerate() {
        if !game.corp(corp).trains.contains(&r.train) {
            return Err(RuleViolation::Route(format!(
                "{} does not own train {}",
                game.title.corp(corp).sym,
                game.train_name(r.train)
            )));
        }
        if routes[..i].iter().any(|o| o.train == r.train) {
            return Err(RuleViolation::Route(format!(
                "train {} runs twice",
                game.train_name(r.train)
            )));
        }
        if game.trains.iter().any(|t| t.id == r.train && t.operated) {
            return Err(RuleViolation::Route(format!(
                "train {} already ran this operating round",
                game.train_name(r.train)
            )));
        }
    }
    let revenues: Vec<Money> = game
        .run_revenues(corp, routes)
        .map_err(|e| RuleViolation::Route(e.to_string()))?;
    for (r, computed) in routes.iter().zip(&revenues) {
        if let Some(stated) = r.revenue {
            if stated != *computed {
                return Err(RuleViolation::ValueMismatch {
                    what: "route revenue",
                    recorded: stated.to_string(),
                    expected: computed.to_string(),
                });
            }
        }
    }
    for r in routes {
        if let Some(t) = game.trains.iter_mut().find(|t| t.id == r.train) {
            t.operated = true;
        }
    }
    or_mut(game).revenue = revenues.iter().copied().sum();
    Ok(())
}

/// A corporation's run rules at a state, owned (see [`Game::run_setup`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSetup {
    rule: RouteRule,
    hex_bonuses: Vec<(HexId, Money)>,
    shannon: bool,
}

impl RunSetup {
    /// The context [`Board::compute_run_with`](crate::engine::map::Board::compute_run_with)
    /// and the route search take.
    pub fn context(&self) -> RunContext<'_> {
        match self.rule {
            RouteRule::Jr30 => RunContext::jr30(),
            RouteRule::Ireland => RunContext::ireland(&self.hex_bonuses, self.shannon),
        }
    }
}

impl Game {
    /// Lays a tile already checked for `corp`; tokens lifted from a multi-city tile are put
    /// back in order, each by `corp` (18xx.games lets the operating corporation choose the city
    /// of every lifted token, its own or another's).
    fn lay_checked(&mut self, corp: CorpId, hex: HexId, tile: TileId, rotation: Rotation) {
        let map = self.title.map;
        if let Some(index) = map.hex_index(hex) {
            let lifted = self.board.lay(map, index, tile, rotation);
            self.forget_token_reach();
            if let Round::Operating(o) = &mut self.round {
                o.pending_tokens
                    .extend(lifted.into_iter().map(|owner| LiftedToken {
                        owner,
                        hex,
                        placer: corp,
                    }));
            }
        }
    }

    /// Pays out or withholds the revenue of the current run and moves the share price.
    fn pay_dividend(&mut self, corp: CorpId, kind: DividendKind) {
        let revenue = or(self).revenue;
        match kind {
            DividendKind::Withhold => {
                self.bank_pays(revenue);
                self.corp_mut(corp).cash += revenue;
                self.move_price(corp, MarketMove::Left);
            }
            DividendKind::Payout => {
                // Per share = revenue / number of shares; each holder gets the ceiling of his
                // share count times that (a minor's 40% certificate is two shares).
                let unit = f64::from(self.normal_share_percent(corp));
                let per_share = revenue.0 as f64 / (100.0 / unit);
                let seats = self.seats.clone();
                for p in seats {
                    if self.player(p).bankrupt {
                        continue;
                    }
                    let shares = f64::from(self.percent_held(p, corp)) / unit;
                    let amount = Money((shares * per_share).ceil() as i64);
                    if amount.0 != 0 {
                        self.bank_pays(amount);
                        self.player_mut(p).cash += amount;
                    }
                }
                // Full capitalisation: the pool's portion goes to the corporation; incremental:
                // its own treasury's portion does, and the pool's stays in the bank.
                let own = match self.title.capitalization {
                    Capitalization::Full => self.pool_percent(corp),
                    Capitalization::Incremental => self.ipo_percent(corp),
                };
                let amount = Money((f64::from(own) / unit * per_share).ceil() as i64);
                if amount.0 != 0 {
                    self.bank_pays(amount);
                    self.corp_mut(corp).cash += amount;
                }
                self.move_price_after_payout(corp, revenue);
            }
        }
    }

    fn move_price_after_payout(&mut self, corp: CorpId, revenue: Money) {
        if revenue.0 <= 0 {
            self.move_price(corp, MarketMove::Left);
            return;
        }
        match self.title.operating.dividend_moves {
            DividendMoves::RightOnPayout => self.move_price(corp, MarketMove::Right),
            DividendMoves::ByRevenueAndPrice => {
                let price = self.share_price(corp).unwrap_or(Money::ZERO);
                let times =
                    if revenue.0 >= 2 * price.0 && self.title.corp(corp).kind == CorpKind::Minor {
                        2
                    } else if revenue >= price {
                        1
                    } else {
                        0
                    };
                for _ in 0..times {
                    self.move_price(corp, MarketMove::Right);
                }
            }
        }
    }

    /// How `corp`'s runs are evaluated now: the title's route rule with the bonuses its
    /// privates and markers give. The run check and the route search both start from it.
    pub fn run_setup(&self, corp: CorpId) -> RunSetup {
        RunSetup {
            rule: self.title.operating.route_rule,
            hex_bonuses: self.hex_bonuses(corp),
            shannon: self.owns_shannon(corp),
        }
    }

    /// The revenue of each of `routes` run by `corp` on the current board and phase, as the
    /// run check computes it (validating each route).
    ///
    /// # Errors
    /// A route the rules reject.
    pub fn run_revenues(
        &self,
        corp: CorpId,
        routes: &[RouteSpec],
    ) -> Result<Vec<Money>, RouteError> {
        let trains: Vec<TrainRoute<'_>> = routes
            .iter()
            .map(|r| TrainRoute {
                spec: r,
                distance: u32::from(self.title.train(r.train.kind).distance),
            })
            .collect();
        let setup = self.run_setup(corp);
        Ok(self
            .board
            .compute_run_with(
                self.title.map,
                corp,
                &trains,
                &self.title.phases[self.phase].tiles,
                &setup.context(),
            )?
            .into_iter()
            .map(|r| r.revenue)
            .collect())
    }

    /// The best run of `trains` for `corp` on the current board and phase, by the same run
    /// rules as [`Game::run_revenues`].
    ///
    /// # Errors
    /// The network is too large for the search.
    pub fn best_run(
        &self,
        corp: CorpId,
        trains: &[TrainSpec],
        limits: SearchLimits,
    ) -> Result<BestRun, SearchError> {
        let setup = self.run_setup(corp);
        let colours = &self.title.phases[self.phase].tiles;
        let rules = ContextRules::new(setup.context(), &self.board, self.title.map, colours);
        self.board
            .best_run(self.title.map, corp, trains, colours, &rules, limits)
    }

    /// Route bonuses of hexes where a private's marker assigned to this corporation lies.
    fn hex_bonuses(&self, corp: CorpId) -> Vec<(HexId, Money)> {
        self.assignments
            .iter()
            .filter(|(_, owner, _)| *owner == corp)
            .filter_map(|(company, _, hex)| {
                self.title
                    .company(*company)
                    .abilities
                    .iter()
                    .find_map(|a| match a {
                        Ability::AssignHex { bonus, .. } => Some((*hex, *bonus)),
                        _ => None,
                    })
            })
            .collect()
    }

    /// Whether the corporation owns the River Shannon private (its best route earns the other
    /// Shannon city's value too).
    fn owns_shannon(&self, corp: CorpId) -> bool {
        self.corp(corp).companies.iter().any(|c| {
            !self.company(*c).closed
                && self
                    .title
                    .company(*c)
                    .abilities
                    .iter()
                    .any(|a| matches!(a, Ability::Shannon { .. }))
        })
    }

    /// A train's display name (`3-1`).
    pub fn train_name(&self, id: TrainId) -> String {
        format!("{}-{}", self.title.train(id.kind).name, id.copy)
    }

    /// Trade-ins are allowed from the start, or (18Ireland) once the train type whose event
    /// allows them has been bought.
    fn trade_ins_allowed(&self) -> bool {
        let mut gates = (0..self.title.trains.len())
            .map(|k| TrainKind(k as u8))
            .filter(|k| {
                self.title
                    .train(*k)
                    .events
                    .contains(&TrainEvent::TrainTradeAllowed)
            });
        match gates.next() {
            None => true,
            Some(kind) => self
                .trains
                .iter()
                .any(|t| t.id.kind == kind && t.owner != TrainOwner::Depot),
        }
    }

    /// Whether the train step still waits after a purchase (reference `BuyTrain` +
    /// `BuySingleTrainOfType#process_buy_train`): it ends when no train is affordable; after a
    /// purchase from the depot also when every offered train is of a type already bought from
    /// the depot this turn (a purchase from another corporation does not check that).
    fn train_step_waits_after_buy(&mut self, corp: CorpId, from_depot: bool) -> bool {
        if from_depot && self.title.operating.one_train_per_type_from_depot {
            let bought = or(self).depot_kinds_bought.clone();
            let any_buyable = self.depot_offer().iter().any(|t| !bought.contains(&t.kind))
                || !self.others_trains(corp).is_empty();
            if !any_buyable {
                return false;
            }
        }
        self.can_buy_train(corp)
    }
}

fn buy_company(
    game: &mut Game,
    corp: CorpId,
    company: CompanyId,
    price: Money,
) -> Result<(), RuleViolation> {
    let sym = game.title.company(company).sym.clone();
    if !game.companies_buyable() {
        return Err(RuleViolation::Company(format!(
            "corporations may not buy privates in phase {}",
            game.phase_name()
        )));
    }
    let CompanyOwner::Player(seller) = game.company(company).owner else {
        return Err(RuleViolation::Company(format!(
            "{sym} is not owned by a player"
        )));
    };
    if game.company(company).closed || game.company_no_buy(company) {
        return Err(RuleViolation::Company(format!(
            "{sym} cannot be bought by a corporation"
        )));
    }
    let value = game.title.company(company).value;
    let (min, max) = (Money((value.0 + 1) / 2), Money(value.0 * 2));
    if price < min || price > max {
        return Err(RuleViolation::Company(format!(
            "{sym} costs between {min} and {max}, not {price}"
        )));
    }
    if game.corp(corp).cash < price {
        return Err(RuleViolation::InsufficientCash {
            who: game.title.corp(corp).sym.clone(),
            available: game.corp(corp).cash,
            needed: price,
        });
    }
    game.corp_mut(corp).cash -= price;
    game.player_mut(seller).cash += price;
    game.player_mut(seller).companies.retain(|c| *c != company);
    game.corp_mut(corp).companies.push(company);
    game.companies[company.0 as usize].owner = CompanyOwner::Corporation(corp);
    Ok(())
}

fn buy_train(
    game: &mut Game,
    corp: CorpId,
    train: TrainId,
    price: Money,
    exchange: Option<TrainId>,
) -> Result<(), RuleViolation> {
    let name = game.train_name(train);
    let Some(t) = game.trains.iter().find(|t| t.id == train).cloned() else {
        return Err(RuleViolation::Train(format!("there is no train {name}")));
    };
    let offer = game.depot_offer();
    let from_depot = t.owner == TrainOwner::Depot;
    let face = game.title.train(train.kind).price;
    let mut expected_price = None;
    match t.owner {
        TrainOwner::Depot | TrainOwner::Pool => {
            if !offer.contains(&train) {
                let offered: Vec<String> = offer.iter().map(|t| game.train_name(*t)).collect();
                return Err(RuleViolation::Train(format!(
                    "train {name} is not offered; the depot offers {}",
                    offered.join(", ")
                )));
            }
            if from_depot
                && game.title.operating.one_train_per_type_from_depot
                && or(game).depot_kinds_bought.contains(&train.kind)
            {
                let kind_name = &game.title.train(train.kind).name;
                if exchange.is_none() {
                    return Err(RuleViolation::Train(format!(
                        "only one {kind_name} train may be bought from the depot per turn"
                    )));
                }
                let detail = format!(
                    "{} trades a train in for a second {kind_name} in its turn",
                    game.title.corp(corp).sym
                );
                game.deviate(DeviationKind::SecondTrainOfATypeByTradeIn, detail);
            }
            expected_price = Some(face);
        }
        TrainOwner::Corporation(owner) if owner != corp => {
            let (min, max) = game.price_range_from_others(corp, train);
            if price < min || price > max {
                return Err(RuleViolation::Train(if min > max {
                    format!(
                        "{} cannot buy {name} from another corporation now",
                        game.title.corp(corp).sym
                    )
                } else {
                    format!(
                        "a train from another corporation costs between {min} and {max} here, not {price}"
                    )
                }));
            }
        }
        TrainOwner::Corporation(_) => {
            return Err(RuleViolation::Train(format!(
                "{name} already belongs to this corporation"
            )));
        }
        TrainOwner::Rusted => return Err(RuleViolation::Train(format!("train {name} has rusted"))),
        TrainOwner::Closed(owner) => {
            return Err(RuleViolation::Train(format!(
                "train {name} left play when {} closed",
                game.title.corp(owner).sym
            )))
        }
        TrainOwner::Reserve => {
            return Err(RuleViolation::Train(format!(
                "train {name} is a reserve train, not yet in play"
            )))
        }
    }
    if let Some(traded) = exchange {
        let Some((_, _, discounted)) = game
            .discountable_trains(corp)
            .into_iter()
            .find(|(n, o, _)| n.kind == train.kind && *o == traded)
        else {
            return Err(RuleViolation::Train(format!(
                "{} cannot be traded in for {name}",
                game.train_name(traded)
            )));
        };
        expected_price = Some(discounted);
    } else if game.corp(corp).trains.len() >= game.train_limit(corp) {
        return Err(RuleViolation::Train(format!(
            "{} is at its train limit of {}: a corporation may not own more trains than the \
             limit, so at the limit a train may only be traded in",
            game.title.corp(corp).sym,
            game.train_limit(corp)
        )));
    }
    if let Some(expected) = expected_price {
        if price != expected {
            return Err(RuleViolation::ValueMismatch {
                what: "train price",
                recorded: price.to_string(),
                expected: expected.to_string(),
            });
        }
    }
    let cash = game.corp(corp).cash;
    let mut shortfall = price - cash;
    if shortfall.0 > 0 {
        if !game.must_buy_train(corp) || exchange.is_some() {
            return Err(RuleViolation::InsufficientCash {
                who: game.title.corp(corp).sym.clone(),
                available: cash,
                needed: price,
            });
        }
        // Emergency purchase: the cheapest depot train (1836Jr30) or any depot or pool train
        // (18Ireland); the president pays the rest.
        let any_depot_train =
            game.title.operating.emergency_sales == EmergencySales::WhileCorporationShort;
        if let TrainOwner::Corporation(seller) = t.owner {
            if game.title.operating.emergency_from_others == EmergencyFromOthers::Never {
                let president = game.corp(corp).president.map_or_else(String::new, |p| {
                    format!(", {} paying {shortfall}", game.player(p).name)
                });
                game.deviate(
                    DeviationKind::EmergencyTrainFromCorporation,
                    format!(
                        "{} buys {}'s {name} for {price}{president}",
                        game.title.corp(corp).sym,
                        game.title.corp(seller).sym
                    ),
                );
            }
        }
        if matches!(t.owner, TrainOwner::Depot | TrainOwner::Pool) && !any_depot_train {
            let cheapest = offer
                .iter()
                .map(|t| game.title.train(t.kind).price)
                .min()
                .unwrap_or(face);
            if face > cheapest {
                return Err(RuleViolation::Train(format!(
                    "in an emergency only the cheapest train ({cheapest}) may be bought"
                )));
            }
        } else if price > face {
            return Err(RuleViolation::Train(format!(
                "in an emergency a train from another corporation costs at most {face}"
            )));
        }
        let president = game
            .corp(corp)
            .president
            .expect("a floated corporation has a president");
        if let Some(sold) = or(game).last_share_sold_price {
            let max_possible = cash + game.player(president).cash;
            let min = max_possible - sold + Money(1);
            // Having sold shares, the president may not then pick a train the sale was not
            // needed for (18Ireland: any train; 1836Jr30: trains from other corporations).
            let checked =
                any_depot_train || !matches!(t.owner, TrainOwner::Depot | TrainOwner::Pool);
            if price < min && checked {
                return Err(RuleViolation::Train(format!(
                    "after selling shares the train must cost at least {min}"
                )));
            }
        }
        if game.player(president).cash < shortfall {
            return Err(RuleViolation::InsufficientCash {
                who: game.player(president).name.clone(),
                available: game.player(president).cash,
                needed: shortfall,
            });
        }
        game.player_mut(president).cash -= shortfall;
        game.corp_mut(corp).cash += shortfall;
        shortfall = Money::ZERO;
    }
    let _ = shortfall;
    if let Some(traded) = exchange {
        game.corp_mut(corp).trains.retain(|x| *x != traded);
        game.set_train_owner(traded, TrainOwner::Pool);
    }
    game.corp_mut(corp).cash -= price;
    match t.owner {
        TrainOwner::Corporation(seller) => {
            game.corp_mut(seller).cash += price;
            game.corp_mut(seller).trains.retain(|x| *x != train);
        }
        _ => game.bank += price,
    }
    if from_depot {
        game.take_from_depot(train);
    }
    game.set_train_owner(train, TrainOwner::Corporation(corp));
    game.corp_mut(corp).trains.push(train);
    if from_depot {
        or_mut(game).depot_kinds_bought.push(train.kind);
    }
    if exchange.is_some() {
        or_mut(game).traded_in = true;
    }
    game.after_train_bought(corp, train);
    Ok(())
}

impl Game {
    /// Places a started corporation's home token at once, for titles that do so at par.
    pub(crate) fn place_home_token_at_par(&mut self, corp: CorpId) {
        if self.title.home_token_timing != HomeTokenTiming::Par {
            return;
        }
        let Some(home) = self.title.corp(corp).home else {
            return;
        };
        if self
            .board
            .place_home_token(self.title.map, corp, home)
            .is_ok()
        {
            self.corp_mut(corp).tokens_unused -= 1;
        }
    }

    /// The corporation buys the first train of the depot at face value (18Ireland DKR's start).
    pub(crate) fn buy_first_depot_train(&mut self, corp: CorpId) {
        let Some(train) = self
            .trains
            .iter()
            .find(|t| t.owner == TrainOwner::Depot)
            .map(|t| t.id)
        else {
            return;
        };
        let price = self.title.train(train.kind).price;
        self.corp_mut(corp).cash -= price;
        self.bank += price;
        self.take_from_depot(train);
        self.set_train_owner(train, TrainOwner::Corporation(corp));
        self.corp_mut(corp).trains.push(train);
        self.after_train_bought(corp, train);
    }

    /// A depot train leaves the depot; an unlimited type puts its next copy in.
    fn take_from_depot(&mut self, train: TrainId) {
        if !self.title.train(train.kind).unlimited {
            return;
        }
        let next = TrainId {
            kind: train.kind,
            copy: train.copy + 1,
        };
        if !self.trains.iter().any(|t| t.id == next) {
            self.trains.push(Train {
                id: next,
                owner: TrainOwner::Depot,
                operated: false,
            });
        }
    }

    fn set_train_owner(&mut self, id: TrainId, owner: TrainOwner) {
        self.pool_train_order.retain(|t| *t != id);
        if owner == TrainOwner::Pool {
            self.pool_train_order.push(id);
        }
        if let Some(t) = self.trains.iter_mut().find(|t| t.id == id) {
            t.owner = owner;
        }
    }

    /// Phase changes, rusting, events and private closings after a train purchase.
    fn after_train_bought(&mut self, corp: CorpId, train: TrainId) {
        let name = self.title.train(train.kind).name.clone();
        // Privates that close when a corporation buys its first train (CFLV for Nord).
        for i in 0..self.companies.len() {
            let closes = self.title.companies[i].abilities.iter().any(|a| {
                matches!(a, Ability::CloseOnTrain { corporation } if self.title.corp_by_sym(corporation) == Some(corp))
            });
            if closes && !self.companies[i].closed {
                self.close_company(CompanyId(i as u8));
            }
        }
        if train.copy != 0 {
            return;
        }
        let first_of_kind = !self
            .trains
            .iter()
            .any(|t| t.id.kind == train.kind && t.id != train && t.owner != TrainOwner::Depot);
        if !first_of_kind {
            return;
        }
        while let Some(next) = self.title.phases.get(self.phase + 1) {
            if next.on.as_deref() == Some(name.as_str()) {
                self.phase += 1;
            } else {
                break;
            }
        }
        let rusting: Vec<TrainKind> = (0..self.title.trains.len())
            .map(|k| TrainKind(k as u8))
            .filter(|k| self.title.train(*k).rusts_on.as_deref() == Some(name.as_str()))
            .collect();
        for kind in rusting {
            let ids: Vec<TrainId> = self
                .trains
                .iter()
                .filter(|t| {
                    t.id.kind == kind
                        && matches!(
                            t.owner,
                            TrainOwner::Corporation(_) | TrainOwner::Pool | TrainOwner::Closed(_)
                        )
                })
                .map(|t| t.id)
                .collect();
            for id in ids {
                for c in &mut self.corps {
                    c.trains.retain(|x| *x != id);
                }
                self.set_train_owner(id, TrainOwner::Rusted);
                self.release_reserve_train(id);
            }
        }
        if self
            .title
            .train(train.kind)
            .events
            .contains(&TrainEvent::CloseCompanies)
        {
            for i in 0..self.companies.len() {
                if !self.companies[i].closed {
                    self.close_company(CompanyId(i as u8));
                }
            }
        }
        if self
            .title
            .train(train.kind)
            .events
            .contains(&TrainEvent::MinorsCannotStart)
        {
            // Minors not yet started leave the game (their home reservations with them).
            let unstarted: Vec<CorpId> = (0..self.corps.len())
                .map(|i| CorpId(i as u8))
                .filter(|c| {
                    self.title.corp(*c).kind == CorpKind::Minor
                        && !self.corp(*c).ipoed
                        && !self.corp(*c).closed
                })
                .collect();
            for c in unstarted {
                self.close_corporation(c);
            }
        }
        self.check_train_limits();
    }

    /// A corporation's train goes to the open market (a forced discard).
    pub(crate) fn discard_to_pool(&mut self, corp: CorpId, train: TrainId) {
        self.corp_mut(corp).trains.retain(|t| *t != train);
        self.set_train_owner(train, TrainOwner::Pool);
    }

    /// A rusting train that is not itself a reserve train brings a reserve train of half its
    /// distance into the pool (18Ireland), if one is left.
    fn release_reserve_train(&mut self, rusted: TrainId) {
        let def = self.title.train(rusted.kind);
        if def.reserve {
            return;
        }
        let half = def.distance / 2;
        let reserve = self
            .trains
            .iter()
            .find(|t| {
                t.owner == TrainOwner::Reserve && self.title.train(t.id.kind).distance == half
            })
            .map(|t| t.id);
        if let Some(id) = reserve {
            self.set_train_owner(id, TrainOwner::Pool);
        }
    }

    fn check_train_limits(&mut self) {
        let over = (0..self.corps.len())
            .map(|i| CorpId(i as u8))
            .find(|c| self.corp(*c).trains.len() > self.train_limit(*c));
        if let Round::Operating(o) = &mut self.round {
            o.discarding = over;
        }
    }
}

fn discard_train(game: &mut Game, corp: CorpId, train: TrainId) -> Result<(), RuleViolation> {
    if !game.corp(corp).trains.contains(&train) {
        return Err(RuleViolation::Train(format!(
            "{} does not own train {}",
            game.title.corp(corp).sym,
            game.train_name(train)
        )));
    }
    game.corp_mut(corp).trains.retain(|t| *t != train);
    game.set_train_owner(train, TrainOwner::Pool);
    game.check_train_limits();
    if or(game).discarding.is_none() {
        let current = or(game).current().expect("operating corporation");
        if or(game).step == OrStep::BuyTrain && !game.train_step_waits_after_buy(current, false) {
            game.next_or_step();
        }
        game.skip_steps();
    }
    Ok(())
}

fn emergency_sell(
    game: &mut Game,
    corp: CorpId,
    player: PlayerId,
    shares: &[crate::ids::ShareId],
    percent: Option<crate::ids::Percent>,
) -> Result<(), RuleViolation> {
    let (sold_corp, pct) = crate::engine::stock::check_sale(game, player, shares, percent)?;
    let cheapest = game.cheapest_depot_price().unwrap_or(Money::ZERO);
    let only_needed = game.title.operating.emergency_sales == EmergencySales::OnlyWhatIsNeeded;
    let needed = if only_needed {
        cheapest - game.corp(corp).cash - game.player(player).cash
    } else {
        cheapest - game.corp(corp).cash
    };
    let already_selling = or(game).last_share_sold_price.is_some();
    if (only_needed || !already_selling) && needed.0 <= 0 {
        return Err(RuleViolation::Shares(format!(
            "{} can pay for the cheapest train without selling shares",
            game.player(player).name
        )));
    }
    if sold_corp == corp {
        // The president may not give up the presidency of the corporation buying the train.
        let others_max = game
            .players
            .iter()
            .filter(|p| p.id != player)
            .map(|p| game.percent_held(p.id, corp))
            .max()
            .unwrap_or(0);
        if game.percent_held(player, corp) - pct < others_max {
            return Err(RuleViolation::Shares(format!(
                "selling would hand the presidency of {} to another player",
                game.title.corp(corp).sym
            )));
        }
    }
    if !only_needed {
        // 18Ireland (reference emergency money, more-than-needed sales not allowed): a bundle
        // may be sold only while the bundle one certificate smaller would leave the president
        // and the treasury together short of the most expensive depot train.
        let dearest = game
            .depot_offer()
            .iter()
            .map(|t| game.title.train(t.kind).price)
            .max()
            .unwrap_or(Money::ZERO);
        let short = dearest - game.corp(corp).cash - game.player(player).cash;
        let smallest = shares
            .iter()
            .map(|s| game.bundle_price(sold_corp, game.share_percent(*s)))
            .min()
            .unwrap_or(Money::ZERO);
        let smaller = game.bundle_price(sold_corp, pct) - smallest;
        if smaller >= short {
            return Err(RuleViolation::Shares(format!(
                "selling {pct}% of {} would raise more than needed for the dearest train ({dearest})",
                game.title.corp(sold_corp).sym
            )));
        }
    }
    let normal = game.normal_share_percent(sold_corp);
    if pct > normal && only_needed {
        let smaller = game.bundle_price(sold_corp, pct - normal);
        if smaller >= needed {
            return Err(RuleViolation::Shares(format!(
                "selling {}% would raise more than needed; {}% is enough",
                pct,
                pct - normal
            )));
        }
    }
    let per_share = game.share_price(sold_corp).unwrap_or(Money::ZERO);
    crate::engine::stock::sell_to_pool(game, player, sold_corp, shares, pct);
    or_mut(game).last_share_sold_price = Some(per_share);
    game.recalculate_order();
    Ok(())
}

impl Game {
    /// After emergency sales, corporations that have not operated yet are re-sorted.
    fn recalculate_order(&mut self) {
        // The index may already be past the end (a bankruptcy closed the last corporation).
        let keep = (or(self).index + 1).min(or(self).order.len());
        let mut rest: Vec<CorpId> = or(self).order[keep..].to_vec();
        rest.sort_by_key(|c| self.operating_key(*c));
        let o = or_mut(self);
        o.order.truncate(keep);
        o.order.extend(rest);
    }
}

/// Whether the president may sell this bundle to raise money for his corporation's train: a
/// legal sale that does not hand that corporation's presidency to someone else.
fn emergency_sellable(
    game: &Game,
    president: PlayerId,
    buying: CorpId,
    c: CorpId,
    shares: &[ShareId],
    pct: u8,
) -> bool {
    if crate::engine::stock::check_sale(game, president, shares, Some(crate::ids::Percent(pct)))
        .is_err()
    {
        return false;
    }
    if c != buying {
        return true;
    }
    let others = game
        .players
        .iter()
        .filter(|p| p.id != president)
        .map(|p| game.percent_held(p.id, buying))
        .max()
        .unwrap_or(0);
    game.percent_held(president, buying) >= pct + others
}

fn bankrupt(game: &mut Game, corp: CorpId) -> Result<(), RuleViolation> {
    let president = game
        .corp(corp)
        .president
        .expect("operating corporation has a president");
    let cheapest = game.cheapest_depot_price().unwrap_or(Money::ZERO);
    if !game.must_buy_train(corp) {
        return Err(RuleViolation::Bankruptcy(format!(
            "{} does not have to buy a train: bankruptcy comes only when a corporation must \
             buy a train and cannot raise the money",
            game.title.corp(corp).sym
        )));
    }
    let mut power = game.corp(corp).cash + game.player(president).cash;
    for c in (0..game.corps.len()).map(|i| CorpId(i as u8)) {
        power += game
            .sell_bundles(president, c)
            .into_iter()
            .filter(|(shares, pct)| emergency_sellable(game, president, corp, c, shares, *pct))
            .map(|(_, pct)| game.bundle_price(c, pct))
            .max()
            .unwrap_or(Money::ZERO);
    }
    if power >= cheapest {
        return Err(RuleViolation::Bankruptcy(format!(
            "{} can still raise {} for a train costing {}",
            game.player(president).name,
            power,
            cheapest
        )));
    }
    let mut corps: Vec<CorpId> = (0..game.corps.len()).map(|i| CorpId(i as u8)).collect();
    corps.sort_by_key(|c| game.operating_key(*c));
    if game.title.operating.bankruptcy == Bankruptcy::PlayerOut {
        return player_goes_out(game, corp, president, &corps);
    }
    // 1836Jr30: sell everything sellable, corporations in operating order, largest bundles
    // first; the player's cash goes to the bank and the game ends.
    for c in corps {
        loop {
            let mut bundles = game.sell_bundles(president, c);
            bundles.sort_by_key(|(_, pct)| std::cmp::Reverse(*pct));
            let pick = bundles
                .into_iter()
                .find(|(shares, pct)| emergency_sellable(game, president, corp, c, shares, *pct));
            let Some((shares, pct)) = pick else { break };
            crate::engine::stock::sell_to_pool(game, president, c, &shares, pct);
        }
    }
    let cash = game.player(president).cash;
    game.player_mut(president).cash = Money::ZERO;
    game.bank += cash;
    game.player_mut(president).bankrupt = true;
    game.end_game(GameEndReason::Bankrupt);
    Ok(())
}

/// 18Ireland: the player sells his most valuable sellable bundle of each corporation once, his
/// cash goes to the corporation, and he is out; the corporations he presides close, the bank
/// paying their other holders for their shares. The game ends when one player is left.
fn player_goes_out(
    game: &mut Game,
    corp: CorpId,
    president: PlayerId,
    corps: &[CorpId],
) -> Result<(), RuleViolation> {
    for &c in corps {
        let best = game
            .sell_bundles(president, c)
            .into_iter()
            .filter(|(shares, pct)| emergency_sellable(game, president, corp, c, shares, *pct))
            .max_by_key(|(_, pct)| game.bundle_price(c, *pct));
        if let Some((shares, pct)) = best {
            crate::engine::stock::sell_to_pool(game, president, c, &shares, pct);
        }
    }
    let cash = game.player(president).cash;
    game.player_mut(president).cash = Money::ZERO;
    game.corp_mut(corp).cash += cash;
    game.player_mut(president).bankrupt = true;
    let presided: Vec<CorpId> = (0..game.corps.len())
        .map(|i| CorpId(i as u8))
        .filter(|c| game.corp(*c).president == Some(president) && !game.corp(*c).closed)
        .collect();
    for c in presided {
        game.settle_and_close(c);
    }
    let solvent = game.players.iter().filter(|p| !p.bankrupt).count();
    if solvent <= 1 {
        game.end_game(GameEndReason::Bankrupt);
        return Ok(());
    }
    // As the reference does: the closed corporation hands the turn to the next one in the old
    // order first; only those after it are re-sorted by the new prices.
    game.corp_closed_while_operating(corp);
    if matches!(game.round, Round::Operating(_)) {
        game.recalculate_order();
    }
    Ok(())
}

impl Game {
    /// Closes a corporation whose president went bankrupt: the bank first pays every other
    /// solvent holder its shares at the current price.
    fn settle_and_close(&mut self, corp: CorpId) {
        let price = self.share_price(corp).unwrap_or(Money::ZERO);
        if price.0 > 0 {
            let unit = i64::from(self.normal_share_percent(corp));
            let holders: Vec<PlayerId> = self.seats.clone();
            for p in holders {
                if self.player(p).bankrupt {
                    continue;
                }
                let amount = Money(price.0 * i64::from(self.percent_held(p, corp)) / unit);
                if amount.0 > 0 {
                    self.bank_pays(amount);
                    self.player_mut(p).cash += amount;
                }
            }
        }
        self.close_corporation(corp);
    }

    /// A closing corporation's trains leave play (they do not return to the pool).
    pub(crate) fn retire_trains(&mut self, corp: CorpId) {
        let trains = std::mem::take(&mut self.corp_mut(corp).trains);
        for t in trains {
            if let Some(train) = self.trains.iter_mut().find(|x| x.id == t) {
                train.owner = TrainOwner::Closed(corp);
            }
        }
    }
}
