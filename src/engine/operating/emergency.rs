//! Emergency money and bankruptcy (rules-and-format D.13, D.14, B.3.9): a president sells
//! shares to buy the train his corporation must buy (the title's `emergency_sales`), and a
//! president who cannot raise the money goes bankrupt (the title's `bankruptcy`).

use super::{or, or_mut};
use crate::engine::state::GameEndReason;
use crate::engine::title::{Bankruptcy, EmergencySales};
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CorpId, Money, PlayerId, ShareId};

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
