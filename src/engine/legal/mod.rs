//! Legal-move generation: every action the current step accepts, with the complete set of
//! parameters where that set is finite (shakmaty's `legal_moves` next to `is_legal`). One
//! file per round ([`auction`], [`stock`], [`operating`], with the tile lays in [`track`]); a
//! title's own round lists its actions through its hooks.
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

mod auction;
mod operating;
mod stock;
mod track;

use crate::action::{Action, Entity, MarketCell, RouteSpec};
use crate::engine::map::{SearchLimits, TrainSpec};
use crate::engine::shares::Holder;
use crate::engine::{Deviation, DeviationKind, Game, Round, RuleViolation};
use crate::ids::{CorpId, Money, ShareId};

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
        if !self.admits(action)? {
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
                gen.owner_lays();
            }
            Round::Operating(_) => {
                gen.operating();
                gen.exchanges();
                gen.assignments();
                gen.owner_lays();
            }
            Round::Title(_) => self.title.hooks.own_round_legal_actions(&mut gen),
        }
        gen.end_game();
        gen.out
    }
}

/// The legal-action generator of one state (title hooks add their own round's actions).
pub(crate) struct Gen<'g> {
    /// The state.
    pub(crate) game: &'g Game,
    out: LegalActions,
    /// Keys of the checked actions listed so far (duplicates are dropped).
    keys: Vec<String>,
}

impl Gen<'_> {
    /// Keeps a candidate if `check` accepts it (duplicates by key are dropped).
    pub(crate) fn push_checked(&mut self, action: Action) {
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

    /// 18xx.games' End Game, offered in every state to each player (its Tools tab) and, for a
    /// user who is not one of the players, in the name of the entity whose turn it is (see
    /// `engine/end_game.rs`). Listed last: it is never part of a round's play.
    fn end_game(&mut self) {
        let acting = self.game.acting_entity();
        let players = self.game.players.iter().map(|p| Entity::Player(p.id));
        let corporation = acting.filter(|e| matches!(e, Entity::Corporation(_)));
        for entity in players.chain(corporation) {
            self.push_checked(Action::EndGame { entity });
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
        .map(|train| game.train_spec(train))
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
