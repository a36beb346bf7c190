//! Legal actions of an operating round, step by step (the steps of
//! [`crate::engine::operating`]): a pending discard or token first, then the current step's
//! actions, and at any point of the turn the privates' lays and purchases and bonus markers.

use super::{best_run, Gen};
use crate::action::{Action, DividendKind, Entity};
use crate::engine::map::{HexIdx, Station};
use crate::engine::operating::OrStep;
use crate::engine::private_lay::PlayerLayAbility;
use crate::engine::state::CompanyOwner;
use crate::engine::title::Ability;
use crate::engine::Round;
use crate::ids::{CityRef, CompanyId, CorpId, HexId, Money};

impl Gen<'_> {
    pub(super) fn operating(&mut self) {
        let game = self.game;
        let Round::Operating(o) = &game.round else {
            return;
        };
        let Some(corp) = o.current() else {
            return;
        };
        if let Some((company, _)) = o.sold_lay {
            let hexes_tiles = PlayerLayAbility::sellers(game.company_abilities(company))
                .map(|a| (a.hexes, a.tiles));
            if let Some((hexes, tiles)) = hexes_tiles {
                self.private_lays(company, hexes, tiles);
            }
            self.push_checked(Action::Pass {
                entity: Entity::Company(company),
            });
            return;
        }
        // A teleport's free token: placed on the teleport hex by the private, or declined.
        if let Some((company, hex)) = o.teleport {
            if o.discarding.is_none() && o.pending_tokens.is_empty() {
                self.cities_on(Entity::Company(company), hex);
                self.push_checked(Action::Pass {
                    entity: Entity::Company(company),
                });
                return;
            }
        }
        if o.discarding.is_some() {
            for crowded in game.corporations_in_reference_order() {
                if !game.over_train_limit(crowded) {
                    continue;
                }
                for &train in &game.corp(crowded).trains {
                    self.push_checked(Action::DiscardTrain {
                        entity: Entity::Corporation(crowded),
                        train,
                    });
                }
            }
            return;
        }
        // Where the privates' steps come before the home token's (1830, 1836Jr30), the
        // operating corporation's privates act and privates are bought while it waits.
        let privates_ahead = !game.title.operating.home_token_first;
        if let Some(lifted) = o.pending_tokens.first() {
            self.cities_on(Entity::Corporation(lifted.placer), lifted.hex);
            if privates_ahead {
                self.special_lays(corp);
                self.company_buys(corp);
            }
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
        if o.step != OrStep::HomeToken || privates_ahead {
            self.special_lays(corp);
            self.company_buys(corp);
        }
    }

    pub(super) fn cities_on(&mut self, entity: Entity, hex: HexId) {
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

    pub(super) fn tokens(&mut self, corp: CorpId) {
        let game = self.game;
        let map = game.title.map;
        let reach = game.board.reach(map, corp);
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

    pub(super) fn trains(&mut self, corp: CorpId) {
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

    pub(super) fn company_buys(&mut self, corp: CorpId) {
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

    /// Bonus markers (CDSPC, TASPS): any time of an operating round, by a private that a
    /// corporation owns, on each of its hexes.
    pub(super) fn assignments(&mut self) {
        let game = self.game;
        for i in 0..game.title.companies.len() {
            let company = CompanyId(i as u8);
            let state = game.company(company);
            if state.closed || !matches!(state.owner, CompanyOwner::Corporation(_)) {
                continue;
            }
            for ability in game.company_abilities(company) {
                let Ability::AssignHex { hexes, .. } = ability else {
                    continue;
                };
                for hex in hexes.iter().filter_map(|h| h.parse::<HexId>().ok()) {
                    self.push_checked(Action::Assign {
                        entity: Entity::Company(company),
                        hex,
                    });
                }
            }
        }
    }
}
