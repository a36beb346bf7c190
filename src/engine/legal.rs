//! Legal-move generation: every action the current step accepts, with the complete set of
//! parameters where that set is finite (shakmaty's `legal_moves` next to `is_legal`).
//!
//! The generator asks the engine's own predicates for the candidates (bid limits, sell
//! bundles, the track reach, the train offer) and then keeps only those [`Game::check`]
//! accepts, so the list can never disagree with the verdict. Tile lays are the exception for
//! speed: they come from the same rotation predicate `check_lay` uses (one reach per state),
//! and the agreement tests replay every listed lay through `check`.
//!
//! Prices that are free within bounds (bids, private purchases, trains bought from another
//! corporation) are listed once with their inclusive range. Runs are represented by the best
//! run the built-in route search finds plus the empty run; any other run is judged by `check`
//! ([`LegalActions::contains`]).

use std::fmt;

#[path = "legal_ireland.rs"]
mod ireland;

use crate::action::{Action, BidTarget, DividendKind, Entity, MarketCell, RouteSpec};
use crate::engine::map::{HexIdx, Reach, SearchLimits, Station, TrainSpec};
use crate::engine::operating::OrStep;
use crate::engine::shares::Holder;
use crate::engine::state::CompanyOwner;
use crate::engine::title::Ability;
use crate::engine::{Deviation, DeviationKind, Game, Round, RuleViolation};
use crate::ids::{
    CityRef, CompanyId, CorpId, HexId, Money, Percent, PlayerId, Rotation, ShareId, TileId,
};

/// One legal action; for actions with a free price, the inclusive range of legal prices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegalAction {
    /// The action, at the lowest legal price when [`LegalAction::max_price`] is set.
    pub action: Action,
    /// The highest legal price, when the price may be chosen (bids, private purchases, trains
    /// from other corporations). Every price from the action's price to this one is legal
    /// (in steps of [`LegalAction::price_step`] when set).
    pub max_price: Option<Money>,
    /// The step between legal prices of a range, when not every amount is legal (18Ireland
    /// bids: the lowest bid plus a multiple of 5).
    pub price_step: Option<Money>,
    /// The printed rule the action breaks while 18xx.games accepts it, if it does (see
    /// [`crate::engine::Deviation`]); self-play leaves such actions alone.
    pub deviation: Option<DeviationKind>,
}

impl LegalAction {
    fn exact(action: Action) -> LegalAction {
        LegalAction {
            action,
            max_price: None,
            price_step: None,
            deviation: None,
        }
    }

    /// The lowest and highest legal price, for ranged actions.
    pub fn price_range(&self) -> Option<(Money, Money)> {
        let max = self.max_price?;
        price_of(&self.action).map(|min| (min, max))
    }

    /// The action at another price (for ranged actions); the price is not checked.
    pub fn at_price(&self, price: Money) -> Action {
        let mut a = self.action.clone();
        match &mut a {
            Action::Bid { price: p, .. }
            | Action::BuyCompany { price: p, .. }
            | Action::BuyTrain { price: p, .. } => *p = price,
            _ => {}
        }
        a
    }
}

/// Every legal action at a state, in generation order (step order, then title order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LegalActions {
    /// The entity the game waits for (others may still act: private exchanges).
    pub acting: Option<Entity>,
    /// The actions.
    pub actions: Vec<LegalAction>,
    /// The current step takes `run_routes`: any run `check` accepts is legal, not only the
    /// listed ones.
    pub any_run: bool,
}

impl LegalActions {
    /// Number of listed actions (a price range counts once).
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether nothing is legal (the game is over).
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Whether `action` is one of the legal actions at `game` (the state this list was made
    /// for): equal up to equivalent certificates and tile copies, informational fields (token
    /// slot and cost) and prices within a listed range. Runs not listed are judged by `check`.
    pub fn contains(&self, game: &Game, action: &Action) -> bool {
        if let Action::RunRoutes { .. } = action {
            if self.any_run {
                return game.check(action).is_ok();
            }
        }
        let (key, price) = key_of(game, action);
        self.actions.iter().any(|l| {
            let (k, lo) = key_of(game, &l.action);
            if k != key {
                return false;
            }
            match (price, lo) {
                (Some(p), Some(lo)) => {
                    p >= lo
                        && p <= l.max_price.unwrap_or(lo)
                        && l.price_step
                            .is_none_or(|step| (p - lo).0 % step.0.max(1) == 0)
                }
                _ => true,
            }
        })
    }

    /// The actions grouped by kind (`type_name`), kinds in first-appearance order.
    pub fn grouped(&self) -> Vec<(&'static str, Vec<&LegalAction>)> {
        let mut out: Vec<(&'static str, Vec<&LegalAction>)> = Vec::new();
        for a in &self.actions {
            let kind = a.action.type_name();
            match out.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, list)) => list.push(a),
                None => out.push((kind, vec![a])),
            }
        }
        out
    }
}

fn price_of(a: &Action) -> Option<Money> {
    match a {
        Action::Bid { price, .. }
        | Action::BuyCompany { price, .. }
        | Action::BuyTrain { price, .. } => Some(*price),
        _ => None,
    }
}

/// A comparison key: the action with equivalent choices made canonical, and its price apart.
fn key_of(game: &Game, a: &Action) -> (String, Option<Money>) {
    let price = price_of(a);
    let key = match a {
        // Issues and redemptions: any certificate of the same size from the same holder is
        // equivalent; the stated percent is not checked.
        Action::SellShares {
            entity: entity @ Entity::Corporation(_),
            shares,
            ..
        }
        | Action::BuyShares {
            entity: entity @ Entity::Corporation(_),
            shares,
            ..
        } => {
            let holder = shares.first().and_then(|s| game.holder_of(*s));
            let pct: u8 = shares.iter().map(|s| game.share_percent(*s)).sum();
            let same = shares
                .iter()
                .all(|s| game.holder_of(*s) == holder && s.corp == shares[0].corp)
                && distinct(shares);
            format!(
                "{} {entity:?} {:?} {holder:?} {same} n={} pres={} pct={pct}",
                a.type_name(),
                shares.first().map(|s| s.corp),
                shares.len(),
                shares.iter().any(|s| s.index == 0),
            )
        }
        Action::Bid { entity, target, .. } => format!("bid {entity:?} {target:?}"),
        Action::BuyCompany {
            entity, company, ..
        } => format!("buy_company {entity:?} {company:?}"),
        Action::BuyTrain {
            entity,
            train,
            exchange,
            ..
        } => format!("buy_train {entity:?} {train:?} {exchange:?}"),
        Action::PlaceToken { entity, city, .. } => format!("place_token {entity:?} {city:?}"),
        Action::LayTile {
            entity,
            hex,
            tile,
            rotation,
        } => format!(
            "lay_tile {entity:?} {hex} {:?} {rotation} {}",
            tile.def,
            game.board.in_supply(*tile)
        ),
        Action::BuyShares {
            entity,
            shares,
            percent,
            ..
        } => {
            let holder = shares.first().and_then(|s| game.holder_of(*s));
            let pct: u8 = shares.iter().map(|s| game.share_percent(*s)).sum();
            let pres = shares.iter().any(|s| s.index == 0);
            let same = shares
                .iter()
                .all(|s| game.holder_of(*s) == holder && s.corp == shares[0].corp)
                && distinct(shares);
            format!(
                "buy_shares {entity:?} {:?} {holder:?} {same} n={} pres={pres} pct={}",
                shares.first().map(|s| s.corp),
                shares.len(),
                percent.map_or(pct, |p| p.0)
            )
        }
        Action::SellShares {
            entity,
            shares,
            percent,
            ..
        } => {
            let pct: u8 = shares.iter().map(|s| game.share_percent(*s)).sum();
            let pres = shares.iter().any(|s| s.index == 0);
            let held = match entity {
                Entity::Player(p) => shares.iter().all(|s| {
                    game.holder_of(*s) == Some(Holder::Player(*p)) && s.corp == shares[0].corp
                }),
                _ => false,
            } && distinct(shares);
            format!(
                "sell_shares {entity:?} {:?} {held} n={} pres={pres} listed={pct} pct={}",
                shares.first().map(|s| s.corp),
                shares.len(),
                percent.map_or(pct, |p| p.0)
            )
        }
        other => format!("{other:?}"),
    };
    (key, price)
}

fn distinct(shares: &[ShareId]) -> bool {
    shares
        .iter()
        .enumerate()
        .all(|(i, s)| !shares[..i].contains(s))
}

impl Game {
    /// Checks an action without applying it: the verdict [`Game::process`] would give.
    ///
    /// # Errors
    /// The rule the action breaks.
    pub fn check(&self, action: &Action) -> Result<(), RuleViolation> {
        self.check_deviations(action).map(|_| ())
    }

    /// [`Game::check`], with the printed rules the action breaks while 18xx.games accepts it.
    ///
    /// # Errors
    /// The rule the action breaks.
    pub fn check_deviations(&self, action: &Action) -> Result<Vec<Deviation>, RuleViolation> {
        if self.finished {
            return Err(RuleViolation::GameOver);
        }
        self.check_ranges(action)?;
        if let Action::Program { .. } = action {
            return Ok(Vec::new());
        }
        let mut next = self.clone();
        next.apply(action)?;
        Ok(next.deviations)
    }

    /// Whether `check` accepts the action.
    pub fn is_legal(&self, action: &Action) -> bool {
        self.check(action).is_ok()
    }

    /// Every legal action at this state (see the module docs).
    pub fn legal_actions(&self) -> LegalActions {
        let mut gen = Gen {
            game: self,
            out: LegalActions {
                acting: self.acting_entity(),
                ..LegalActions::default()
            },
            keys: Vec::new(),
        };
        if self.finished {
            return gen.out;
        }
        match &self.round {
            Round::Auction(_) => gen.auction(),
            Round::Stock(_) => {
                gen.stock();
                gen.exchanges();
            }
            Round::Operating(_) => {
                gen.operating();
                gen.exchanges();
                gen.assignments();
            }
            Round::Merger(_) => gen.merger_round(),
        }
        gen.out
    }
}

struct Gen<'g> {
    game: &'g Game,
    out: LegalActions,
    /// Keys of the checked actions listed so far (duplicates are dropped).
    keys: Vec<String>,
}

impl Gen<'_> {
    /// Keeps a candidate if `check` accepts it (duplicates by key are dropped).
    fn push_checked(&mut self, action: Action) {
        if let Ok(deviations) = self.game.check_deviations(&action) {
            self.push_unique(LegalAction {
                deviation: deviations.first().map(|d| d.kind),
                ..LegalAction::exact(action)
            });
        }
    }

    fn push_unique(&mut self, legal: LegalAction) {
        let key = key_of(self.game, &legal.action).0;
        if !self.keys.contains(&key) {
            self.keys.push(key);
            self.out.actions.push(legal);
        }
    }

    /// Keeps a price range `[lo, hi]` if both ends are accepted (legality is an interval).
    fn push_range(&mut self, action: Action, lo: Money, hi: Money) {
        if lo > hi {
            return;
        }
        self.push_range_step(action, lo, hi, None);
    }

    /// [`Gen::push_range`] with a price step: `hi` is lowered to `lo` plus a multiple of it.
    fn push_range_step(&mut self, action: Action, lo: Money, hi: Money, step: Option<Money>) {
        let hi = match step {
            Some(step) if hi >= lo => hi - Money((hi - lo).0 % step.0.max(1)),
            _ => hi,
        };
        if lo > hi {
            return;
        }
        let legal = LegalAction {
            action,
            max_price: Some(hi),
            price_step: step,
            deviation: None,
        };
        let low = legal.at_price(lo);
        // A range is listed whole only where both ends agree on deviating or not.
        if let (Ok(at_low), Ok(at_high)) = (
            self.game.check_deviations(&low),
            self.game.check_deviations(&legal.at_price(hi)),
        ) {
            let deviation = at_low.first().map(|d| d.kind);
            debug_assert_eq!(deviation, at_high.first().map(|d| d.kind));
            self.out.actions.push(LegalAction {
                action: low,
                deviation,
                ..legal
            });
        }
    }

    fn par_cells(&self) -> Vec<MarketCell> {
        let mut out = Vec::new();
        for (r, row) in self.game.title.market.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if let Some(cell) = cell.as_ref().filter(|c| c.par) {
                    out.push(MarketCell {
                        price: cell.price,
                        row: r as u8,
                        column: c as u8,
                    });
                }
            }
        }
        out.sort_by_key(|c| std::cmp::Reverse(c.price));
        out
    }

    // ----- auction ------------------------------------------------------------------------

    fn auction(&mut self) {
        let game = self.game;
        let Round::Auction(a) = &game.round else {
            return;
        };
        let Some(player) = a.acting(game) else {
            return;
        };
        let entity = Entity::Player(player);
        if let Some((_, corp)) = a.pending_par {
            for cell in self.par_cells() {
                self.push_checked(Action::Par { entity, corp, cell });
            }
            return;
        }
        let targets: Vec<CompanyId> = match a.auctioning() {
            Some(c) => vec![c],
            None => a.companies.clone(),
        };
        for (i, company) in targets.into_iter().enumerate() {
            let bid = |price| Action::Bid {
                entity,
                target: BidTarget::Company(company),
                price,
            };
            if i == 0 && a.auctioning().is_none() {
                self.push_checked(bid(a.face_price(game, company)));
            } else {
                let (lo, hi) = (a.min_bid(game, company), a.max_bid(game, player, company));
                let step = game.title.auction.bid_multiple.then_some(Money(5));
                self.push_range_step(bid(lo), lo, hi, step);
            }
        }
        self.push_checked(Action::Pass { entity });
    }

    // ----- stock round --------------------------------------------------------------------

    fn stock(&mut self) {
        let game = self.game;
        if game.title.minor_auction.is_some() && self.minor_auction_step() {
            return;
        }
        let Some(Entity::Player(player)) = game.acting_entity() else {
            return;
        };
        let entity = Entity::Player(player);
        for corp in (0..game.corps.len()).map(|i| CorpId(i as u8)) {
            self.sells(player, corp);
        }
        for corp in (0..game.corps.len()).map(|i| CorpId(i as u8)) {
            self.buys(entity, corp);
        }
        let cells = self.par_cells();
        for corp in (0..game.corps.len()).map(|i| CorpId(i as u8)) {
            if game.corp(corp).ipoed || game.corp(corp).closed {
                continue;
            }
            for &cell in &cells {
                if Money(cell.price.0 * 2) <= game.player(player).cash {
                    self.push_checked(Action::Par { entity, corp, cell });
                }
            }
        }
        if game.title.minor_auction.is_some() {
            self.minor_auction_openings(player);
        }
        self.push_checked(Action::Pass { entity });
    }

    /// Sales: the reference's bundles (normal certificates first, the president's last, the
    /// partial president bundle). Other choices of normal certificates are equivalent; other
    /// choices holding the president's certificate are refused by `check`.
    fn sells(&mut self, player: PlayerId, corp: CorpId) {
        let game = self.game;
        for (shares, pct) in game.sell_bundles(player, corp) {
            // The sale's own rules first, without cloning the game for `check`.
            if crate::engine::stock::check_sale(game, player, &shares, Some(Percent(pct))).is_err()
            {
                continue;
            }
            self.push_checked(Action::SellShares {
                entity: Entity::Player(player),
                shares,
                percent: Some(Percent(pct)),
                share_price: None,
            });
        }
    }

    fn buys(&mut self, entity: Entity, corp: CorpId) {
        let game = self.game;
        let multiple = game
            .corp(corp)
            .share_price
            .and_then(|p| game.title.cell(p.row, p.column))
            .is_some_and(|c| c.multiple_buy);
        for holder in [Holder::Ipo(corp), Holder::Pool] {
            let certs: Vec<ShareId> = game
                .holder_list(holder)
                .iter()
                .copied()
                .filter(|s| s.corp == corp && s.index != 0)
                .collect();
            let most = if multiple { certs.len() } else { 1 };
            for n in 1..=most.min(certs.len()) {
                let shares = certs[..n].to_vec();
                let pct = shares.iter().map(|s| game.share_percent(*s)).sum();
                self.push_checked(Action::BuyShares {
                    entity,
                    shares,
                    percent: Some(Percent(pct)),
                    share_price: None,
                });
            }
        }
    }

    /// Private exchanges (GCB → a B share), open to the private's owner at any time.
    fn exchanges(&mut self) {
        let game = self.game;
        for (i, def) in game.title.companies.iter().enumerate() {
            let company = CompanyId(i as u8);
            let state = game.company(company);
            if state.closed || !matches!(state.owner, CompanyOwner::Player(_)) {
                continue;
            }
            for ability in &def.abilities {
                let Ability::Exchange { corporation } = ability else {
                    continue;
                };
                let Some(corp) = game.title.corp_by_sym(corporation) else {
                    continue;
                };
                for holder in [Holder::Ipo(corp), Holder::Pool] {
                    if let Some(share) = game
                        .holder_list(holder)
                        .iter()
                        .copied()
                        .find(|s| s.corp == corp && s.index != 0)
                    {
                        self.push_checked(Action::BuyShares {
                            entity: Entity::Company(company),
                            shares: vec![share],
                            percent: Some(Percent(game.share_percent(share))),
                            share_price: None,
                        });
                    }
                }
            }
        }
    }

    // ----- operating round ----------------------------------------------------------------

    fn operating(&mut self) {
        let game = self.game;
        let Round::Operating(o) = &game.round else {
            return;
        };
        let Some(corp) = o.current() else {
            return;
        };
        if let Some(discarding) = o.discarding {
            for &train in &game.corp(discarding).trains {
                self.push_checked(Action::DiscardTrain {
                    entity: Entity::Corporation(discarding),
                    train,
                });
            }
            return;
        }
        if let Some(lifted) = o.pending_tokens.first() {
            self.cities_on(Entity::Corporation(lifted.placer), lifted.hex);
            return;
        }
        if let Some((company, _)) = &o.together {
            // Only the private's remaining lays (`check` refuses everything else).
            let from = self.out.actions.len();
            self.special_lays(corp);
            let mut listed = self.out.actions.split_off(from);
            listed.retain(|l| l.action.entity() == Entity::Company(*company));
            self.out.actions.extend(listed);
            return;
        }
        let entity = Entity::Corporation(corp);
        match o.step {
            OrStep::HomeToken => {
                if let Some(home) = game.title.corp(corp).home {
                    self.cities_on(entity, home)
                }
            }
            OrStep::IssueShares => {
                if let Some(share) = game.issuable_share(corp) {
                    self.push_checked(Action::SellShares {
                        entity,
                        shares: vec![share],
                        percent: None,
                        share_price: None,
                    });
                }
                if let Some(share) = game.redeemable_share(corp) {
                    self.push_checked(Action::BuyShares {
                        entity,
                        shares: vec![share],
                        percent: None,
                        share_price: None,
                    });
                }
                self.push_checked(Action::Pass { entity });
            }
            OrStep::Track => {
                self.track(corp);
                self.push_checked(Action::Pass { entity });
            }
            OrStep::Token => {
                self.tokens(corp);
                self.push_checked(Action::Pass { entity });
            }
            OrStep::Route => {
                self.out.any_run = true;
                if let Some(routes) = best_run(game, corp) {
                    self.push_checked(Action::RunRoutes { entity, routes });
                }
                self.push_checked(Action::RunRoutes {
                    entity,
                    routes: Vec::new(),
                });
            }
            OrStep::Dividend => {
                for kind in [DividendKind::Payout, DividendKind::Withhold] {
                    self.push_checked(Action::Dividend { entity, kind });
                }
            }
            OrStep::BuyTrain => self.trains(corp),
            OrStep::BuyCompany => self.push_checked(Action::Pass { entity }),
        }
        if o.step != OrStep::HomeToken {
            self.special_lays(corp);
            self.company_buys(corp);
        }
    }

    fn cities_on(&mut self, entity: Entity, hex: HexId) {
        let game = self.game;
        let map = game.title.map;
        let Some(h) = map.hex_index(hex) else {
            return;
        };
        let (tile, _) = game.board.tile_at(h);
        let def = map.tile_def(tile.def);
        for &node in &def.cities {
            let part = def.nodes[usize::from(node)].part;
            self.push_checked(Action::PlaceToken {
                entity,
                city: CityRef { tile, part },
                slot: None,
                cost: None,
            });
        }
    }

    /// The first copy of each tile definition still in the supply, in manifest order.
    fn supply(&self) -> Vec<TileId> {
        let map = self.game.title.map;
        let mut out = Vec::new();
        for (d, def) in map.tiles.iter().enumerate() {
            if def.preprinted {
                continue;
            }
            let def_id = crate::ids::TileDefId(d as u16);
            if let Some(copy) = (0..def.count.min(64))
                .find(|&copy| self.game.board.in_supply(TileId { def: def_id, copy }))
            {
                out.push(TileId { def: def_id, copy });
            }
        }
        out
    }

    /// The supply's tiles of the colours the phase allows.
    fn phase_supply(&self) -> Vec<TileId> {
        let game = self.game;
        let colours = &game.title.phases[game.phase].tiles;
        self.supply()
            .into_iter()
            .filter(|t| colours.contains(&game.title.map.tile_def(t.def).colour))
            .collect()
    }

    fn track(&mut self, corp: CorpId) {
        let game = self.game;
        let map = game.title.map;
        if map.rules.gauges {
            return self.gauge_track(corp);
        }
        let reach = Reach::compute(map, &game.board, corp);
        let blocked = game.blocked_hexes();
        let cash = game.corp(corp).cash;
        let supply = self.phase_supply();
        for (h, hd) in map.hexes.iter().enumerate() {
            if reach.edges[h] == 0 || blocked.contains(&hd.id) {
                continue;
            }
            let hex = HexIdx(h as u16);
            let old = game.board.tile_def(map, hex);
            if old.upgrade_cost > 0 && Money(old.upgrade_cost) > cash {
                continue;
            }
            for &tile in &supply {
                let rotations =
                    game.board
                        .legal_rotations_with(map, hex, tile, Some(&reach), false);
                for r in 0..6u8 {
                    if rotations & (1 << r) != 0 {
                        self.out.actions.push(LegalAction::exact(Action::LayTile {
                            entity: Entity::Corporation(corp),
                            hex: hd.id,
                            tile,
                            rotation: Rotation::new(r).unwrap_or_default(),
                        }));
                    }
                }
            }
        }
    }

    /// Tile lays through an owned private's ability (E-SF on B8), at any point of the turn.
    fn special_lays(&mut self, corp: CorpId) {
        let game = self.game;
        let map = game.title.map;
        if map.rules.gauges {
            return self.gauge_special_lays(corp);
        }
        let supply = self.supply();
        for &company in &game.corp(corp).companies {
            if game.company(company).uses_left == 0 || game.company(company).closed {
                continue;
            }
            for ability in &game.title.company(company).abilities {
                let Ability::TileLay { hexes, tiles, .. } = ability else {
                    continue;
                };
                for hex in hexes.iter().filter_map(|h| h.parse::<HexId>().ok()) {
                    let Some(h) = map.hex_index(hex) else {
                        continue;
                    };
                    for &tile in supply
                        .iter()
                        .filter(|t| tiles.contains(&map.tile_def(t.def).name))
                    {
                        let rotations = game.board.legal_rotations_with(map, h, tile, None, false);
                        for r in (0..6u8).filter(|r| rotations & (1 << r) != 0) {
                            self.push_checked(Action::LayTile {
                                entity: Entity::Company(company),
                                hex,
                                tile,
                                rotation: Rotation::new(r).unwrap_or_default(),
                            });
                        }
                    }
                }
            }
        }
    }

    fn tokens(&mut self, corp: CorpId) {
        let game = self.game;
        let map = game.title.map;
        let reach = Reach::compute(map, &game.board, corp);
        for h in 0..map.hexes.len() {
            let hex = HexIdx(h as u16);
            let (tile, _) = game.board.tile_at(hex);
            let def = map.tile_def(tile.def);
            for (ci, &node) in def.cities.iter().enumerate() {
                if reach.nodes[h] & (1 << node) == 0 {
                    continue;
                }
                let station = Station {
                    hex,
                    city: ci as u8,
                };
                if game.board.check_token(map, corp, station, false).is_err() {
                    continue;
                }
                self.push_checked(Action::PlaceToken {
                    entity: Entity::Corporation(corp),
                    city: CityRef {
                        tile,
                        part: def.nodes[usize::from(node)].part,
                    },
                    slot: None,
                    cost: None,
                });
            }
        }
    }

    fn trains(&mut self, corp: CorpId) {
        let game = self.game;
        let entity = Entity::Corporation(corp);
        for train in game.depot_offer() {
            let price = game.title.train(train.kind).price;
            self.push_checked(Action::BuyTrain {
                entity,
                train,
                price,
                exchange: None,
            });
        }
        for (train, traded, price) in game.discountable_trains(corp) {
            self.push_checked(Action::BuyTrain {
                entity,
                train,
                price,
                exchange: Some(traded),
            });
        }
        let cash = game.corp(corp).cash;
        for train in game.others_trains(corp) {
            let buy = |price| Action::BuyTrain {
                entity,
                train,
                price,
                exchange: None,
            };
            // Above the corporation's cash only when it must buy (the president tops up); that
            // part may break a printed rule (18Ireland), so it is listed apart.
            let (lo, hi) = game.price_range_from_others(corp, train);
            let deviates = |price| {
                game.check_deviations(&buy(price))
                    .is_ok_and(|d| !d.is_empty())
            };
            if lo <= cash && cash < hi && deviates(hi) && !deviates(lo) {
                self.push_range(buy(lo), lo, cash);
                self.push_range(buy(cash + Money(1)), cash + Money(1), hi);
            } else {
                let before = self.out.actions.len();
                self.push_range(buy(lo), lo, hi);
                if self.out.actions.len() == before && hi > cash {
                    self.push_range(buy(lo), lo, cash);
                }
            }
        }
        // Emergency sales: only a corporation without trains can have to buy one.
        if let Some(president) = game
            .corp(corp)
            .president
            .filter(|_| game.corp(corp).trains.is_empty())
        {
            for c in (0..game.corps.len()).map(|i| CorpId(i as u8)) {
                self.sells(president, c);
            }
        }
        self.push_checked(Action::Pass { entity });
        self.push_checked(Action::Bankrupt { entity });
    }

    fn company_buys(&mut self, corp: CorpId) {
        let game = self.game;
        if !game.title.phases[game.phase].can_buy_companies {
            return;
        }
        let cash = game.corp(corp).cash;
        for (i, def) in game.title.companies.iter().enumerate() {
            let company = CompanyId(i as u8);
            let state = game.company(company);
            if state.closed
                || !matches!(state.owner, CompanyOwner::Player(_))
                || game.company_no_buy(company)
            {
                continue;
            }
            let lo = Money((def.value.0 + 1) / 2);
            let hi = Money(def.value.0 * 2).min(cash);
            self.push_range(
                Action::BuyCompany {
                    entity: Entity::Corporation(corp),
                    company,
                    price: lo,
                },
                lo,
                hi,
            );
        }
    }
}

// ----- route search ------------------------------------------------------------------------

/// The best run of the corporation's trains that have not run yet, by the exact route search
/// under the title's own run rules (the search `railnote routes` prints). `None` if no train
/// can run.
pub(crate) fn best_run(game: &Game, corp: CorpId) -> Option<Vec<RouteSpec>> {
    let trains: Vec<TrainSpec> = game
        .corp(corp)
        .trains
        .iter()
        .copied()
        .filter(|t| !game.trains.iter().any(|x| x.id == *t && x.operated))
        .map(|train| TrainSpec {
            train,
            distance: u32::from(game.title.train(train.kind).distance),
        })
        .collect();
    if trains.is_empty() {
        return None;
    }
    let best = game.best_run(corp, &trains, SearchLimits::default()).ok()?;
    let routes: Vec<RouteSpec> = best.routes.into_iter().map(|r| r.spec).collect();
    (!routes.is_empty()).then_some(routes)
}

impl fmt::Display for LegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.action)
    }
}
