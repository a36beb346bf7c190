//! Privates sold between players as a stock-round action (1830's "interplayer company buy";
//! reference `BuySellParShares#purchasable_companies` and `#process_buy_company`): in phases
//! whose data sets `can_buy_companies_from_other_players`, from the title's
//! `private_sales_from_stock_round` on, a player who has not bought this turn and has cash may
//! buy another player's private (not one marked `no_buy`) at any agreed price of at least 1.
//! It is his purchase of the turn.

use super::{sr, sr_mut, TurnAction};
use crate::engine::shares::Holder;
use crate::engine::state::CompanyOwner;
use crate::engine::title::Ability;
use crate::engine::{Game, RuleViolation};
use crate::ids::{CompanyId, Money, PlayerId};

impl Game {
    /// The privates `player` may buy from other players now.
    pub(crate) fn privates_for_sale_to(&self, player: PlayerId) -> Vec<CompanyId> {
        if !self.private_sales_open() || sr(self).bought() || self.player(player).cash.0 <= 0 {
            return Vec::new();
        }
        (0..self.companies.len())
            .map(|i| CompanyId(i as u8))
            .filter(|c| {
                let state = &self.companies[c.0 as usize];
                !state.closed
                    && matches!(state.owner, CompanyOwner::Player(p) if p != player)
                    && !self.company_no_buy(*c)
            })
            .collect()
    }

    fn private_sales_open(&self) -> bool {
        self.title.phases[self.phase].can_buy_companies_from_other_players
            && self.turn >= self.title.private_sales_from_stock_round
    }
}

/// `player` buys `company` from its owner for `price`.
pub(super) fn buy_private(
    game: &mut Game,
    player: PlayerId,
    company: CompanyId,
    price: Money,
) -> Result<(), RuleViolation> {
    let sym = game.title.company(company).sym.clone();
    let from = game.title.private_sales_from_stock_round;
    if game.turn < from {
        return Err(RuleViolation::Company(format!(
            "players may buy privates from each other from stock round {from} on, not in stock \
             round {} ({sym})",
            game.turn
        )));
    }
    if !game.private_sales_open() {
        return Err(RuleViolation::Company(format!(
            "players may not buy privates from each other in phase {} ({sym})",
            game.phase_name()
        )));
    }
    if !game.privates_for_sale_to(player).contains(&company) {
        let why = if sr(game).bought() {
            "already bought this turn"
        } else {
            "it is not another player's private that may be sold"
        };
        return Err(RuleViolation::Company(format!(
            "{} cannot buy {sym}: {why}",
            game.player(player).name
        )));
    }
    if price.0 < 1 {
        return Err(RuleViolation::Company(format!(
            "a private is sold between players for at least 1 ({sym} for {})",
            price.0
        )));
    }
    if game.player(player).cash < price {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: game.player(player).cash,
            needed: price,
        });
    }
    // The reference hands the buyer the private's certificate again (`after_buy_company`),
    // free, from wherever it is now; it refuses the purchase when a player holds it (a share
    // is not taken from a player: `BUY_SHARE_FROM_OTHER_PLAYER` is off).
    let mut certificates = Vec::new();
    for ability in game.company_abilities(company) {
        let Ability::Shares { share, .. } = ability else {
            continue;
        };
        let Some(share) = crate::engine::auction::parse_share(game, company, share) else {
            continue;
        };
        if share.index == 0 {
            continue;
        }
        match game.holder_of(share) {
            Some(Holder::Player(holder)) => {
                return Err(RuleViolation::Company(format!(
                    "{sym} cannot be bought from a player while {} holds its certificate {}_{} \
                     (18xx.games gives the buyer that certificate again and does not take a \
                     share from a player)",
                    game.player(holder).name,
                    game.title.corp(share.corp).sym,
                    share.index
                )))
            }
            Some(from) => certificates.push((share, from)),
            None => {}
        }
    }
    let CompanyOwner::Player(seller) = game.companies[company.0 as usize].owner else {
        unreachable!("privates_for_sale_to lists player-owned privates only")
    };
    game.player_mut(seller).companies.retain(|c| *c != company);
    game.player_mut(player).companies.push(company);
    game.companies[company.0 as usize].owner = CompanyOwner::Player(player);
    game.player_mut(player).cash -= price;
    game.player_mut(seller).cash += price;
    for (share, from) in certificates {
        let pct = game.share_percent(share);
        game.transfer_shares(share.corp, &[share], from, Holder::Player(player), pct);
    }
    sr_mut(game).current.push(TurnAction::BuyPrivate);
    Ok(())
}
