//! Legal actions of the private auction: the cheapest private at its price, bids on the
//! others within their ranges, passing, and the par price of a private that comes with a
//! president's certificate.

use super::Gen;
use crate::action::{Action, BidTarget, Entity};
use crate::engine::Round;
use crate::ids::{CompanyId, Money};

impl Gen<'_> {
    pub(super) fn auction(&mut self) {
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
}
