//! Buying shares (rules-and-format B.1 "Stock round", D.2, D.3): starting a corporation at a
//! par price, buying certificates from the IPO or the market (one per turn, several only from
//! a brown cell), the holding and certificate limits, where the money goes (the bank, or the
//! treasury under incremental capitalisation), a major's home city chosen when it starts, and
//! a private's exchange for a share.

use std::cell::OnceCell;

use super::{sr, sr_mut, TurnAction};
use crate::action::MarketCell;
use crate::engine::shares::Holder;
use crate::engine::state::CompanyOwner;
use crate::engine::title::{Ability, Capitalization, CorpKind, ShareSource};
use crate::engine::{Game, RuleViolation};
use crate::ids::{CompanyId, CorpId, Money, Percent, PlayerId, ShareId};

impl Game {
    pub(super) fn can_buy_multiple(&self, corp: CorpId, from_pool: bool) -> bool {
        let s = sr(self);
        // The cell first: most cells allow one purchase a turn.
        let multiple = self
            .corp(corp)
            .share_price
            .and_then(|p| self.title.cell(p.row, p.column))
            .is_some_and(|c| c.multiple_buy);
        if !multiple {
            return false;
        }
        let only_market = !self
            .options
            .optional_rules
            .iter()
            .any(|r| r == "multiple_brown_from_ipo");
        if only_market && (!from_pool || s.bought_from_ipo) {
            return false;
        }
        !s.current.contains(&TurnAction::Par)
            && !s
                .current
                .iter()
                .any(|a| matches!(a, TurnAction::Buy(c) if *c != corp))
    }

    pub(super) fn counts_for_limit(&self, corp: CorpId) -> bool {
        self.corp(corp)
            .share_price
            .and_then(|p| self.title.cell(p.row, p.column))
            .is_none_or(|c| !c.cert_exempt)
    }

    /// Whether a player may gain a bundle of `percent` (holding and certificate limits).
    pub(super) fn can_gain(
        &self,
        player: PlayerId,
        corp: CorpId,
        percent: u8,
        exchange: bool,
    ) -> bool {
        self.can_hold(player, corp, percent)
            && (!self.counts_for_limit(corp) || exchange || self.below_cert_limit(player))
    }

    pub(super) fn ipo_price(&self, corp: CorpId, percent: u8) -> Money {
        // Incremental capitalisation sells treasury shares at the market price.
        if self.title.capitalization == Capitalization::Incremental {
            return self.bundle_price(corp, percent);
        }
        let par = self.corp(corp).par_price.unwrap_or(Money::ZERO);
        Money(par.0 * percent as i64 / self.normal_share_percent(corp) as i64)
    }

    pub(super) fn can_par_any(&self, player: PlayerId) -> bool {
        if sr(self).bought() || (self.title.minor_auction.is_some() && sr(self).sold()) {
            return false;
        }
        if !self.majors_may_par() {
            return false;
        }
        let cheapest_par = self.title.par_prices().min().unwrap_or(Money::ZERO);
        // The player's limits (`can_gain`), worked out once when first needed.
        let below = OnceCell::new();
        let held = OnceCell::new();
        (0..self.corps.len()).map(|i| CorpId(i as u8)).any(|c| {
            !self.corp(c).ipoed
                && !self.corp(c).closed
                && self.title.corp(c).kind == CorpKind::Major
                && !self.sold_this_round(player, c)
                && (!self.counts_for_limit(c)
                    || *below.get_or_init(|| self.below_cert_limit(player)))
                && self.can_hold_with(
                    held.get_or_init(|| self.holdings(player)),
                    c,
                    self.share_percent(ShareId { corp: c, index: 0 }),
                )
                && self.player(player).cash >= self.president_certificate_cost(c, cheapest_par)
        })
    }

    /// What the president's certificate costs at this par price: the price per share it
    /// counts (two; three in 18Chesapeake's two-player game).
    pub(super) fn president_certificate_cost(&self, corp: CorpId, par: Money) -> Money {
        let pct = i64::from(self.share_percent(ShareId { corp, index: 0 }));
        Money(par.0 * pct / i64::from(self.normal_share_percent(corp)))
    }

    pub(super) fn can_buy_any(&self, player: PlayerId) -> bool {
        let s = sr(self);
        // A second purchase in a turn can only be another of the corporation bought (see
        // `can_buy_multiple`): the others need not be asked. This is asked after every
        // purchase, of every corporation.
        let bought = s.current.iter().find_map(|a| match a {
            TurnAction::Buy(c) => Some(*c),
            _ => None,
        });
        let bought_any = s.bought();
        let cash = self.player(player).cash;
        // What is the player's or the market's, not the corporation's, is worked out once,
        // when first needed: whether he is below the certificate limit, his holdings, and the
        // market's first certificate of each corporation (its index; 0 for none, as the
        // president's certificate is not bought there).
        let below = OnceCell::new();
        let held = OnceCell::new();
        let pool_first = OnceCell::new();
        (0..self.corps.len())
            .map(|i| CorpId(i as u8))
            .filter(|c| bought.is_none_or(|b| b == *c))
            .any(|c| {
                // The turn's own limits, then the certificates, then the limits of holding.
                if self.sold_this_round(player, c) {
                    return false;
                }
                let may_buy = |from_pool| !bought_any || self.can_buy_multiple(c, from_pool);
                let pool_share = if !self.pool.is_empty() && may_buy(true) {
                    let first: &[u8; 256] = pool_first.get_or_init(|| {
                        let mut first = [0u8; 256];
                        for share in self.pool.iter().filter(|s| s.index != 0) {
                            let f = &mut first[usize::from(share.corp.0)];
                            if *f == 0 || share.index < *f {
                                *f = share.index;
                            }
                        }
                        first
                    });
                    let index = first[usize::from(c.0)];
                    (index != 0).then_some(ShareId { corp: c, index })
                } else {
                    None
                };
                let ipo_share = if self.corp(c).ipoed && may_buy(false) {
                    self.corp(c)
                        .ipo
                        .iter()
                        .copied()
                        .filter(|s| s.corp == c && s.index != 0)
                        .min_by_key(|s| s.index)
                } else {
                    None
                };
                if pool_share.is_none() && ipo_share.is_none() {
                    return false;
                }
                if self.counts_for_limit(c) && !*below.get_or_init(|| self.below_cert_limit(player))
                {
                    return false;
                }
                let held = held.get_or_init(|| self.holdings(player));
                let may_take = |share: ShareId, from: Holder| {
                    let pct = self.share_percent(share);
                    let price = match from {
                        Holder::Ipo(_) => self.ipo_price(c, pct),
                        _ => self.bundle_price(c, pct),
                    };
                    cash >= price && self.can_hold_with(held, c, pct)
                };
                pool_share.is_some_and(|share| may_take(share, Holder::Pool))
                    || ipo_share.is_some_and(|share| may_take(share, Holder::Ipo(c)))
            })
    }

    /// Whether majors may be started by par now.
    pub(super) fn majors_may_par(&self) -> bool {
        match &self.title.major_par_phase {
            None => true,
            Some(name) => {
                let at = self
                    .title
                    .phases
                    .iter()
                    .position(|p| &p.name == name)
                    .unwrap_or(usize::MAX);
                self.phase >= at
            }
        }
    }

    /// Where the money for a share goes: the treasury for an incremental corporation's own
    /// shares, the bank otherwise.
    pub(super) fn receive_share_payment(&mut self, corp: CorpId, from: Holder, price: Money) {
        if self.title.capitalization == Capitalization::Incremental && from == Holder::Ipo(corp) {
            self.corp_mut(corp).cash += price;
        } else {
            self.bank += price;
        }
    }
}

pub(super) fn par(
    game: &mut Game,
    player: PlayerId,
    corp: CorpId,
    cell: &MarketCell,
) -> Result<(), RuleViolation> {
    let title = game.title;
    let sym = &title.corp(corp).sym;
    if sr(game).bought() {
        return Err(RuleViolation::Shares(format!(
            "{} already bought this turn",
            game.player(player).name
        )));
    }
    if game
        .title
        .minor_auction
        .is_some_and(|m| m.no_par_after_sale)
        && sr(game).sold()
    {
        return Err(RuleViolation::Shares(format!(
            "{} sold this turn and cannot start {sym} in the same turn",
            game.player(player).name
        )));
    }
    if game.corp(corp).ipoed || game.corp(corp).closed {
        return Err(RuleViolation::Shares(format!(
            "{sym} has already been started"
        )));
    }
    if game.sold_this_round(player, corp) {
        return Err(RuleViolation::Shares(format!(
            "{sym} was sold by this player in this round"
        )));
    }
    // 18Ireland: minors are started by auction, majors by par only from their phase on.
    if game.title.minor_auction.is_some() && game.title.corp(corp).kind == CorpKind::Minor {
        return Err(RuleViolation::Shares(format!(
            "{sym} is a minor; minors are started by auction (bid)"
        )));
    }
    if game.title.corp(corp).kind == CorpKind::Major && !game.majors_may_par() {
        return Err(RuleViolation::Shares(format!(
            "majors may not be started by par before phase {}",
            game.title.major_par_phase.as_deref().unwrap_or("?")
        )));
    }
    game.check_par_cell(cell)?;
    let pct = game.share_percent(ShareId { corp, index: 0 });
    let cost = game.president_certificate_cost(corp, cell.price);
    if game.player(player).cash < cost {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: game.player(player).cash,
            needed: cost,
        });
    }
    if !game.can_gain(player, corp, pct, false) {
        return Err(RuleViolation::Shares(format!(
            "{} is at the certificate limit of {}",
            game.player(player).name,
            game.cert_limit()
        )));
    }
    game.set_par(corp, cell);
    game.player_mut(player).cash -= cost;
    game.receive_share_payment(corp, Holder::Ipo(corp), cost);
    game.transfer_shares(
        corp,
        &[ShareId { corp, index: 0 }],
        Holder::Ipo(corp),
        Holder::Player(player),
        pct,
    );
    game.check_float(corp);
    sr_mut(game).current.push(TurnAction::Par);
    // A corporation without a fixed home chooses its home city when it starts (18Ireland majors).
    if game.title.corp(corp).home.is_none()
        && game.title.home_token_timing == crate::engine::title::HomeTokenTiming::Par
    {
        sr_mut(game).pending_home = Some(corp);
    }
    Ok(())
}

pub(super) fn buy(
    game: &mut Game,
    player: PlayerId,
    shares: &[ShareId],
    percent: Option<Percent>,
) -> Result<(), RuleViolation> {
    let Some(first) = shares.first() else {
        return Err(RuleViolation::Shares(
            "a purchase must name at least one certificate".into(),
        ));
    };
    let corp = first.corp;
    // The name for the error messages, borrowed from the title rather than copied.
    let title = game.title;
    let sym = &title.corp(corp).sym;
    if shares.iter().any(|s| s.corp != corp) {
        return Err(RuleViolation::Shares(
            "all certificates of one purchase must be of one corporation".into(),
        ));
    }
    let from = game.holder_of(*first);
    let from = match from {
        Some(h @ (Holder::Ipo(_) | Holder::Pool)) => h,
        _ => {
            return Err(RuleViolation::Shares(format!(
                "{sym}_{} is not in the IPO or the market",
                first.index
            )))
        }
    };
    // `from` is the first certificate's holder.
    if shares[1..].iter().any(|s| game.holder_of(*s) != Some(from)) {
        return Err(RuleViolation::Shares(
            "all certificates of one purchase must come from one place".into(),
        ));
    }
    if shares.iter().any(|s| s.index == 0) {
        return Err(RuleViolation::Shares(format!(
            "the president's certificate of {sym} is bought by starting the corporation (par)"
        )));
    }
    if matches!(from, Holder::Ipo(_)) && !game.corp(corp).ipoed {
        return Err(RuleViolation::Shares(format!("{sym} has not been started")));
    }
    let pct: u8 = shares.iter().map(|s| game.share_percent(*s)).sum();
    if let Some(p) = percent {
        if p.0 != pct {
            return Err(RuleViolation::ValueMismatch {
                what: "percent bought",
                recorded: p.to_string(),
                expected: Percent(pct).to_string(),
            });
        }
    }
    if game.sold_this_round(player, corp) {
        return Err(RuleViolation::Shares(format!(
            "{} sold {sym} this round and cannot buy it back",
            game.player(player).name
        )));
    }
    let from_pool = from == Holder::Pool;
    let multiple_ok = game.can_buy_multiple(corp, from_pool);
    if (sr(game).bought() || shares.len() > 1) && !multiple_ok {
        return Err(RuleViolation::Shares(format!(
            "only one certificate may be bought per turn here ({sym} is not in a brown cell{})",
            if from_pool {
                ""
            } else {
                ", or it is bought from the IPO"
            }
        )));
    }
    let price = match from {
        Holder::Ipo(_) => game.ipo_price(corp, pct),
        _ => game.bundle_price(corp, pct),
    };
    if game.player(player).cash < price {
        return Err(RuleViolation::InsufficientCash {
            who: game.player(player).name.clone(),
            available: game.player(player).cash,
            needed: price,
        });
    }
    if !game.can_hold(player, corp, pct) {
        return Err(RuleViolation::Shares(format!(
            "{} would hold more than {}% of {sym}",
            game.player(player).name,
            game.title.kind_of(corp).max_ownership_percent.0
        )));
    }
    // The holding limit was asked just above: the rest of `can_gain`.
    if game.counts_for_limit(corp) && !game.below_cert_limit(player) {
        return Err(RuleViolation::Shares(format!(
            "{} is at the certificate limit of {}",
            game.player(player).name,
            game.cert_limit()
        )));
    }
    let hooks = game.title.hooks;
    if hooks.share_purchase(game, player, shares) {
        game.player_mut(player).cash -= price;
        game.receive_share_payment(corp, from, price);
        game.transfer_shares(corp, shares, from, Holder::Player(player), pct);
        game.check_float(corp);
    }
    let s = sr_mut(game);
    s.current.push(TurnAction::Buy(corp));
    if !from_pool {
        s.bought_from_ipo = true;
    }
    Ok(())
}

/// A major's home: any city on a tile with track that has a slot it may take.
pub(super) fn choose_home(
    game: &mut Game,
    corp: CorpId,
    city: crate::ids::CityRef,
) -> Result<(), RuleViolation> {
    let map = game.title.map;
    let station = game
        .board
        .locate_city(map, city)
        .ok_or_else(|| RuleViolation::Token("no such city on the map".into()))?;
    if let Some(home) = game.title.corp(corp).home {
        if map.hex_def(station.hex).id != home {
            return Err(RuleViolation::Token(format!(
                "{}'s home token goes on {home}",
                game.title.corp(corp).sym
            )));
        }
    }
    let (tile, _) = game.board.tile_at(station.hex);
    if map.tile_def(tile.def).paths.is_empty() {
        return Err(RuleViolation::Token(
            "a home city must be on a tile with track".into(),
        ));
    }
    game.board
        .check_token(map, corp, station, false)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    game.board
        .place_token(map, corp, station)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    // The reference's home-token step places it (`Tokener#place_token`: the graph is cleared).
    game.forget_token_reach();
    game.corp_mut(corp).tokens_unused -= 1;
    Ok(())
}

/// A private's exchange for a share (GCB → B), allowed at any time in stock and operating rounds.
pub(crate) fn exchange(
    game: &mut Game,
    company: CompanyId,
    shares: &[ShareId],
) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    let Some((target, sources)) = game
        .company_abilities(company)
        .iter()
        .find_map(|a| match a {
            Ability::Exchange { corporation, from } => {
                Some((game.title.corp_by_sym(corporation)?, from.as_slice()))
            }
            _ => None,
        })
    else {
        return Err(RuleViolation::Company(format!(
            "{} has no exchange ability",
            def.sym
        )));
    };
    let CompanyOwner::Player(owner) = game.company(company).owner else {
        return Err(RuleViolation::Company(format!(
            "{} must be owned by a player to be exchanged",
            def.sym
        )));
    };
    if game.company(company).closed {
        return Err(RuleViolation::Company(format!("{} is closed", def.sym)));
    }
    let [share] = shares else {
        return Err(RuleViolation::Company(format!(
            "{} is exchanged for exactly one certificate",
            def.sym
        )));
    };
    let title = game.title;
    let sym = &title.corp(target).sym;
    if share.corp != target || share.index == 0 {
        return Err(RuleViolation::Company(format!(
            "{} can only be exchanged for a normal {sym} share",
            def.sym
        )));
    }
    let allowed = |source: ShareSource| sources.is_empty() || sources.contains(&source);
    let from = match game.holder_of(*share) {
        Some(h @ Holder::Ipo(_)) if allowed(ShareSource::Ipo) => h,
        Some(h @ Holder::Pool) if allowed(ShareSource::Market) => h,
        _ => {
            let whence = match sources {
                [ShareSource::Ipo] => "the IPO",
                [ShareSource::Market] => "the market",
                _ => "the IPO or the market",
            };
            return Err(RuleViolation::Company(format!(
                "{} is exchanged for a {sym} share from {whence}; {sym}_{} is not there",
                def.sym, share.index
            )));
        }
    };
    let pct = game.share_percent(*share);
    if !game.can_hold(owner, target, pct) {
        return Err(RuleViolation::Shares(format!(
            "{} would hold more than {}% of {sym}",
            game.player(owner).name,
            game.title.kind_of(target).max_ownership_percent.0
        )));
    }
    game.transfer_shares(target, &[*share], from, Holder::Player(owner), pct);
    game.check_float(target);
    game.close_company(company);
    Ok(())
}
