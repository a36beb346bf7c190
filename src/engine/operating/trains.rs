//! The train step: what the depot and the pool offer, purchases from the depot, the pool or
//! another corporation, trade-ins, the train limit and forced discards (rules-and-format B.0
//! "Trains", B.1 7, B.3.7). A corporation without trains that must buy one and cannot pay is
//! helped by its president ([`super::emergency`]).

use super::emergency::president_pays_shortfall;
use super::{or, or_mut, OrStep};
use crate::engine::state::{Train, TrainOwner};
use crate::engine::title::{CorpKind, EmergencyFromOthers, MustBuyTrain, TrainEvent};
use crate::engine::{DeviationKind, Game, Round, RuleViolation};
use crate::ids::{CorpId, Money, TrainId, TrainKind};

impl Game {
    pub(crate) fn train_limit(&self, corp: CorpId) -> usize {
        let phase = &self.title.phases[self.phase];
        match self.title.corp(corp).kind {
            CorpKind::Minor => phase.minor_train_limit.unwrap_or(phase.train_limit) as usize,
            CorpKind::Major => phase.train_limit as usize,
        }
    }

    /// The depot's next train (the first of the upcoming ones), if any is left.
    pub(crate) fn next_depot_train(&self) -> Option<TrainId> {
        self.trains
            .iter()
            .find(|t| t.owner == TrainOwner::Depot)
            .map(|t| t.id)
    }

    /// Trains the depot offers: the next type, types made available by the phase, one of each
    /// type in the pool.
    pub(crate) fn depot_offer(&self) -> Vec<TrainId> {
        let mut out = Vec::new();
        self.each_offered(|t| out.push(t));
        out
    }

    /// Calls `visit` with each train of [`Game::depot_offer`], in its order. Step skipping
    /// asks for the offer several times per action: this makes no list.
    fn each_offered(&self, mut visit: impl FnMut(TrainId)) {
        // Train types already offered from the depot or found not yet available there, and
        // types offered from the pool (bit per type).
        let mut depot_kinds = [0u64; 4];
        let mut pool_kinds = [0u64; 4];
        let bit = |kinds: &mut [u64; 4], kind: TrainKind| {
            let (word, bit) = (usize::from(kind.0 / 64), 1u64 << (kind.0 % 64));
            let new = kinds[word] & bit == 0;
            kinds[word] |= bit;
            new
        };
        let mut upcoming = self.trains.iter().filter(|t| t.owner == TrainOwner::Depot);
        if let Some(next) = upcoming.next() {
            bit(&mut depot_kinds, next.id.kind);
            visit(next.id);
        }
        for t in upcoming {
            if !bit(&mut depot_kinds, t.id.kind) {
                continue;
            }
            let available = self
                .title
                .train(t.id.kind)
                .available_on
                .as_ref()
                .is_some_and(|on| self.phase_reached(on));
            if available {
                visit(t.id);
            }
        }
        for &t in &self.pool_train_order {
            if bit(&mut pool_kinds, t.kind) {
                visit(t);
            }
        }
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
        let others = self
            .trains
            .iter()
            .any(|t| matches!(t.owner, TrainOwner::Corporation(c) if c != corp))
            .then_some(Money(1));
        self.cheapest_depot_price().into_iter().chain(others).min()
    }

    /// The face price of the cheapest train the depot (or the open market) offers.
    pub(crate) fn cheapest_depot_price(&self) -> Option<Money> {
        let mut cheapest: Option<Money> = None;
        self.each_offered(|t| {
            let price = self.title.train(t.kind).price;
            cheapest = Some(cheapest.map_or(price, |c| c.min(price)));
        });
        cheapest
    }

    pub(super) fn must_buy_train(&mut self, corp: CorpId) -> bool {
        if !self.corp(corp).trains.is_empty() {
            return false;
        }
        // Only while the depot (or the open market) offers a train: with every train bought,
        // trains from other corporations are optional even for a corporation without one.
        if self.next_depot_train().is_none() && self.pool_train_order.is_empty() {
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

    pub(super) fn train_step_waits(&mut self, corp: CorpId) -> bool {
        self.must_buy_train(corp) || self.can_buy_train(corp)
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
    pub(super) fn train_step_waits_after_buy(&mut self, corp: CorpId, from_depot: bool) -> bool {
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

pub(super) fn buy_train(
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
    let mut expected_price = source_price(game, corp, &t, price, exchange, &offer)?;
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
    let shortfall = price - cash;
    if shortfall.0 > 0 {
        if !game.must_buy_train(corp) || exchange.is_some() {
            return Err(RuleViolation::InsufficientCash {
                who: game.title.corp(corp).sym.clone(),
                available: cash,
                needed: price,
            });
        }
        president_pays_shortfall(game, corp, &t, price, &offer)?;
    }
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

/// Where the train comes from — the depot's offer, another corporation, or nowhere it can be
/// bought — and the price that source sets: the face value from the depot or the pool, none
/// (any price in the range the title allows) from another corporation.
fn source_price(
    game: &mut Game,
    corp: CorpId,
    t: &Train,
    price: Money,
    exchange: Option<TrainId>,
    offer: &[TrainId],
) -> Result<Option<Money>, RuleViolation> {
    let train = t.id;
    let name = game.train_name(train);
    let from_depot = t.owner == TrainOwner::Depot;
    let face = game.title.train(train.kind).price;
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
            Ok(Some(face))
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
            Ok(None)
        }
        TrainOwner::Corporation(_) => Err(RuleViolation::Train(format!(
            "{name} already belongs to this corporation"
        ))),
        TrainOwner::Rusted => Err(RuleViolation::Train(format!("train {name} has rusted"))),
        TrainOwner::Closed(owner) => Err(RuleViolation::Train(format!(
            "train {name} left play when {} closed",
            game.title.corp(owner).sym
        ))),
        TrainOwner::Reserve => Err(RuleViolation::Train(format!(
            "train {name} is a reserve train, not yet in play"
        ))),
        TrainOwner::Exported => Err(RuleViolation::Train(format!(
            "train {name} was exported at the end of a set of operating rounds"
        ))),
    }
}

impl Game {
    /// The corporation buys the first train of the depot at face value (18Ireland DKR's start).
    pub(crate) fn buy_first_depot_train(&mut self, corp: CorpId) {
        let Some(train) = self.next_depot_train() else {
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

    pub(crate) fn set_train_owner(&mut self, id: TrainId, owner: TrainOwner) {
        self.pool_train_order.retain(|t| *t != id);
        if owner == TrainOwner::Pool {
            self.pool_train_order.push(id);
        }
        if let Some(t) = self.trains.iter_mut().find(|t| t.id == id) {
            t.owner = owner;
        }
    }

    /// The corporations in the order of the reference's corporation list: a charter order the
    /// title's setup drew first (the reference draws the order of its list), then the others
    /// as the title lists them (where the reference appends them).
    pub(crate) fn corporations_in_reference_order(&self) -> Vec<CorpId> {
        let mut order: Vec<CorpId> = self
            .resolved_setup
            .as_ref()
            .map_or_else(Vec::new, |s| s.charter_order.clone());
        for i in 0..self.corps.len() {
            let corp = CorpId(i as u8);
            if !order.contains(&corp) {
                order.push(corp);
            }
        }
        order
    }

    /// A corporation's train goes to the open market (a forced discard).
    pub(crate) fn discard_to_pool(&mut self, corp: CorpId, train: TrainId) {
        self.corp_mut(corp).trains.retain(|t| *t != train);
        self.set_train_owner(train, TrainOwner::Pool);
    }

    /// The first corporation above its train limit must discard (reference `crowded_corps`,
    /// in the order of its corporation list).
    /// Whether the corporation holds more trains than its limit.
    pub(crate) fn over_train_limit(&self, corp: CorpId) -> bool {
        self.corp(corp).trains.len() > self.train_limit(corp)
    }

    pub(super) fn check_train_limits(&mut self) {
        let over = self
            .corporations_in_reference_order()
            .into_iter()
            .find(|c| self.corp(*c).trains.len() > self.train_limit(*c));
        if let Round::Operating(o) = &mut self.round {
            o.discarding = over;
        }
    }
}

pub(super) fn discard_train(
    game: &mut Game,
    corp: CorpId,
    train: TrainId,
) -> Result<(), RuleViolation> {
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

impl Game {
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
