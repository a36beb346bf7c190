//! Emergency money and bankruptcy (rules-and-format D.13, D.14, B.3.9): a president sells
//! shares to buy the train his corporation must buy (the title's `emergency_sales`), and a
//! president who cannot raise the money goes bankrupt (the title's `bankruptcy`); the
//! president pays what the treasury lacks for the train ([`president_pays_shortfall`]).

use super::{or, or_mut};
use crate::engine::state::{GameEndReason, Train, TrainOwner};
use crate::engine::title::{Bankruptcy, EmergencyFromOthers, EmergencySales};
use crate::engine::{DeviationKind, Game, Round, RuleViolation};
use crate::ids::{CorpId, Money, PlayerId, ShareId, TrainId};

/// A corporation that must buy a train and cannot pay for it: the president pays the rest,
/// within the title's rules for emergency purchases (rules-and-format D.13; the title's
/// `emergency_sales` and `emergency_from_others`).
pub(super) fn president_pays_shortfall(
    game: &mut Game,
    corp: CorpId,
    t: &Train,
    price: Money,
    offer: &[TrainId],
) -> Result<(), RuleViolation> {
    let train = t.id;
    let name = game.train_name(train);
    let face = game.title.train(train.kind).price;
    let cash = game.corp(corp).cash;
    let shortfall = price - cash;
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
        let checked = any_depot_train || !matches!(t.owner, TrainOwner::Depot | TrainOwner::Pool);
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
    Ok(())
}

pub(super) fn emergency_sell(
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
    if game.title.must_sell_in_blocks && or(game).emergency_sold.contains(&sold_corp) {
        return Err(RuleViolation::Shares(format!(
            "{} was sold earlier in this emergency; its shares are sold in one block",
            game.title.corp(sold_corp).sym
        )));
    }
    if keeps_presidency(game, corp, sold_corp) && game.corp(sold_corp).president == Some(player) {
        // The president may not give up the presidency of the corporation buying the train
        // (nor, where the title says so, of any other he sells).
        if game.percent_held(player, sold_corp) - pct < game.most_held_by_others(player, sold_corp)
        {
            return Err(RuleViolation::Shares(format!(
                "selling would hand the presidency of {} to another player",
                game.title.corp(sold_corp).sym
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
    or_mut(game).emergency_sold.push(sold_corp);
    or_mut(game).last_share_sold_price = Some(per_share);
    game.recalculate_order();
    Ok(())
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
    if game.title.must_sell_in_blocks && or(game).emergency_sold.contains(&c) {
        return false;
    }
    if !keeps_presidency(game, buying, c) || game.corp(c).president != Some(president) {
        return true;
    }
    game.percent_held(president, c) >= pct + game.most_held_by_others(president, c)
}

/// Whether an emergency sale of `sold` shares must leave its president in office: always for
/// the corporation buying the train, for any other where the title says so (reference
/// `president_swap_concern?`).
fn keeps_presidency(game: &Game, buying: CorpId, sold: CorpId) -> bool {
    sold == buying || game.title.operating.emergency_keeps_presidencies
}

pub(super) fn bankrupt(game: &mut Game, corp: CorpId) -> Result<(), RuleViolation> {
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
}
