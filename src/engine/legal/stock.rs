//! Legal actions of a stock round: sales (the reference's bundles), purchases, pars, private
//! exchanges, and where the title's data has them, minor auctions (opening bids, raises) and a
//! started corporation's choice of home city.

use super::Gen;
use crate::action::{Action, BidTarget, Entity};
use crate::engine::map::HexIdx;
use crate::engine::shares::Holder;
use crate::engine::state::CompanyOwner;
use crate::engine::title::Ability;
use crate::engine::Round;
use crate::ids::{CityRef, CompanyId, CorpId, Money, Percent, PlayerId, ShareId};

/// Minor-auction bids rise in steps of this (reference `min_increment`).
const MINOR_BID_STEP: Money = Money(5);

impl Gen<'_> {
    pub(super) fn stock(&mut self) {
        let game = self.game;
        if let Some(Entity::Corporation(_)) = game.acting_entity() {
            if let Round::Stock(_) = &game.round {
                // Corporations over their train limit discard first (any of them).
                for corp in game.corporations_in_reference_order() {
                    if !game.over_train_limit(corp) {
                        continue;
                    }
                    for &train in &game.corp(corp).trains {
                        self.push_checked(Action::DiscardTrain {
                            entity: Entity::Corporation(corp),
                            train,
                        });
                    }
                }
                if !self.out.actions.is_empty() {
                    return;
                }
            }
        }
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
        // Privates from other players: any price from 1 to the buyer's cash.
        let cash = game.player(player).cash;
        for company in game.privates_for_sale_to(player) {
            self.push_range(
                Action::BuyCompany {
                    entity,
                    company,
                    price: Money(1),
                },
                Money(1),
                cash,
            );
        }
        self.push_checked(Action::Pass { entity });
    }

    /// Sales: the reference's bundles (normal certificates first, the president's last, the
    /// partial president bundle). Other choices of normal certificates are equivalent; other
    /// choices holding the president's certificate are refused by `check`.
    pub(super) fn sells(&mut self, player: PlayerId, corp: CorpId) {
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

    pub(super) fn buys(&mut self, entity: Entity, corp: CorpId) {
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
    pub(super) fn exchanges(&mut self) {
        let game = self.game;
        for i in 0..game.title.companies.len() {
            let company = CompanyId(i as u8);
            let state = game.company(company);
            if state.closed || !matches!(state.owner, CompanyOwner::Player(_)) {
                continue;
            }
            for ability in game.company_abilities(company) {
                let Ability::Exchange { corporation, .. } = ability else {
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

    /// The stock-round states that are not a player's normal turn: a started major choosing
    /// its home city, and a running minor auction. Returns whether the state was one of them.
    pub(super) fn minor_auction_step(&mut self) -> bool {
        let game = self.game;
        let Round::Stock(s) = &game.round else {
            return false;
        };
        match game.acting_entity() {
            Some(entity @ Entity::Corporation(_)) => {
                self.every_city(entity);
                true
            }
            Some(entity @ Entity::Player(player)) => {
                let Some((corp, high)) = s.minor_auction_high() else {
                    return false;
                };
                let lo = high + MINOR_BID_STEP;
                let hi = game.max_minor_bid(player, corp);
                self.push_range_step(
                    Action::Bid {
                        entity,
                        target: BidTarget::Corporation(corp),
                        price: lo,
                    },
                    lo,
                    hi,
                    Some(MINOR_BID_STEP),
                );
                self.push_checked(Action::Pass { entity });
                true
            }
            _ => false,
        }
    }

    /// Opening bids for the next minor of the charter pile.
    pub(super) fn minor_auction_openings(&mut self, player: PlayerId) {
        let game = self.game;
        let (Some(rules), Some(corp)) = (game.title.minor_auction, game.next_minor()) else {
            return;
        };
        let lo = rules.min_bid;
        self.push_range_step(
            Action::Bid {
                entity: Entity::Player(player),
                target: BidTarget::Corporation(corp),
                price: lo,
            },
            lo,
            game.max_minor_bid(player, corp),
            Some(MINOR_BID_STEP),
        );
    }

    /// A token of `entity` in every city of the map (the home-city choice).
    pub(super) fn every_city(&mut self, entity: Entity) {
        let game = self.game;
        let map = game.title.map;
        for h in 0..map.hexes.len() {
            let (tile, _) = game.board.tile_at(HexIdx(h as u16));
            let def = map.tile_def(tile.def);
            for &node in &def.cities {
                self.push_checked(Action::PlaceToken {
                    entity,
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
}
