//! Certificate transfers, presidency changes, floating and holding limits.
//!
//! Holders keep certificates in arrival order; presidency swaps hand over the new president's
//! *first* certificates, as the reference engine does (rules-and-format D.9).

use crate::action::Action;
use crate::engine::state::{percent_of, CompanyOwner};
use crate::engine::title::Capitalization;
use crate::engine::Game;
use crate::ids::{CorpId, Money, PlayerId, ShareId};

/// Who holds a certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holder {
    Ipo(CorpId),
    Pool,
    Player(PlayerId),
}

/// Percent of each corporation one player holds, counted in one pass over his certificates
/// ([`Game::percent_held`] goes through them for each corporation asked). Indexed by the
/// corporation's number, a `u8`, so every id fits.
pub(crate) struct Holdings([u8; 256]);

impl Holdings {
    /// Percent of the corporation held.
    pub(crate) fn percent(&self, corp: CorpId) -> u8 {
        self.0[usize::from(corp.0)]
    }
}

impl Game {
    /// A player's [`Holdings`].
    pub(crate) fn holdings(&self, player: PlayerId) -> Holdings {
        let mut held = Holdings([0; 256]);
        for s in &self.player(player).shares {
            held.0[usize::from(s.corp.0)] += self.share_percent(*s);
        }
        held
    }

    /// [`Game::can_hold`] with the player's [`Holdings`] at hand.
    pub(crate) fn can_hold_with(&self, held: &Holdings, corp: CorpId, extra: u8) -> bool {
        self.ownership_exempt(corp)
            || held.percent(corp) + extra <= self.title.kind_of(corp).max_ownership_percent.0
    }

    /// Whether the player holds fewer certificates than the limit (`num_certs < cert_limit`).
    /// Certain without looking at the cells while he has fewer certificates and privates in
    /// all: exempt cells and closed privates only lower the count.
    pub(crate) fn below_cert_limit(&self, player: PlayerId) -> bool {
        let limit = self.cert_limit();
        let p = self.player(player);
        p.shares.len() + p.companies.len() < limit || self.num_certs(player) < limit
    }

    /// Whether the player holds more certificates than the limit (see
    /// [`Game::below_cert_limit`]).
    pub(crate) fn over_cert_limit(&self, player: PlayerId) -> bool {
        let limit = self.cert_limit();
        let p = self.player(player);
        p.shares.len() + p.companies.len() > limit && self.num_certs(player) > limit
    }

    /// The certificate's size; 0 for an index the corporation does not have (an action may
    /// name any certificate, and is then rejected rather than panicking).
    pub(crate) fn share_percent(&self, share: ShareId) -> u8 {
        self.corps
            .get(usize::from(share.corp.0))
            .and_then(|c| c.share_sizes.get(usize::from(share.index)))
            .map_or(0, |p| p.0)
    }

    /// The normal (non-president) certificate size of a corporation: the unit of share counts,
    /// prices and price drops.
    pub(crate) fn normal_share_percent(&self, corp: CorpId) -> u8 {
        self.corp(corp)
            .share_sizes
            .last()
            .map(|p| p.0)
            .unwrap_or(10)
    }

    pub(crate) fn holder_list_mut(&mut self, holder: Holder) -> &mut Vec<ShareId> {
        match holder {
            Holder::Ipo(c) => &mut self.corps[c.0 as usize].ipo,
            Holder::Pool => &mut self.pool,
            Holder::Player(p) => &mut self.players[p.0 as usize].shares,
        }
    }

    pub(crate) fn holder_list(&self, holder: Holder) -> &Vec<ShareId> {
        match holder {
            Holder::Ipo(c) => &self.corps[c.0 as usize].ipo,
            Holder::Pool => &self.pool,
            Holder::Player(p) => &self.players[p.0 as usize].shares,
        }
    }

    /// Who holds a certificate now.
    pub(crate) fn holder_of(&self, share: ShareId) -> Option<Holder> {
        if self.corp(share.corp).ipo.contains(&share) {
            return Some(Holder::Ipo(share.corp));
        }
        if self.pool.contains(&share) {
            return Some(Holder::Pool);
        }
        self.players
            .iter()
            .find(|p| p.shares.contains(&share))
            .map(|p| Holder::Player(p.id))
    }

    pub(crate) fn percent_of_holder(&self, holder: Holder, corp: CorpId) -> u8 {
        percent_of(self.holder_list(holder), corp, &self.corp(corp).share_sizes).0
    }

    fn move_share(&mut self, share: ShareId, from: Holder, to: Holder) {
        self.holder_list_mut(from).retain(|s| *s != share);
        self.holder_list_mut(to).push(share);
    }

    /// Players in seat order excluding the bankrupt: the candidates for presidencies.
    fn possible_presidents(&self) -> Vec<PlayerId> {
        self.seats
            .iter()
            .copied()
            .filter(|p| !self.player(*p).bankrupt)
            .collect()
    }

    fn seat_distance(&self, from: Option<PlayerId>, to: PlayerId) -> usize {
        let order = self.possible_presidents();
        let Some(from) = from else { return 0 };
        let (Some(a), Some(b)) = (
            order.iter().position(|p| *p == from),
            order.iter().position(|p| *p == to),
        ) else {
            return 0;
        };
        if a < b {
            b - a
        } else {
            b + order.len() - a
        }
    }

    /// Moves certificates and settles the presidency, as the reference `transfer_shares` does.
    ///
    /// `percent` is the bundle size when smaller than the certificates (partial president sale).
    pub(crate) fn transfer_shares(
        &mut self,
        corp: CorpId,
        shares: &[ShareId],
        from: Holder,
        to: Holder,
        percent: u8,
    ) {
        let previous_president = self.corp(corp).president;
        let listed: u8 = shares.iter().map(|s| self.share_percent(*s)).sum();
        let has_president_cert = shares.iter().any(|s| s.index == 0);
        let partial = percent < listed;
        for s in shares {
            self.move_share(*s, from, to);
        }
        // Presidency: most percent among players; the sitting president keeps it on a tie
        // (nearly always: the lists below are made only when it may change hands).
        let sizes = &self.corp(corp).share_sizes;
        let held = |p: &crate::engine::state::Player| percent_of(&p.shares, corp, sizes).0;
        if let Some(previous) = previous_president {
            let pct = held(self.player(previous));
            if pct > 0
                && self
                    .players
                    .iter()
                    .all(|p| p.id == previous || held(p) <= pct)
            {
                return;
            }
        }
        let holdings: Vec<(PlayerId, u8)> = self
            .players
            .iter()
            .map(|p| {
                (
                    p.id,
                    percent_of(&p.shares, corp, &self.corp(corp).share_sizes).0,
                )
            })
            .filter(|(_, pct)| *pct > 0)
            .collect();
        let max = holdings.iter().map(|(_, p)| *p).max().unwrap_or(0);
        let majority: Vec<PlayerId> = holdings
            .iter()
            .filter(|(_, p)| *p == max)
            .map(|(id, _)| *id)
            .collect();
        if majority.iter().any(|p| Some(*p) == previous_president) {
            return;
        }
        let president_cert = ShareId { corp, index: 0 };
        let president_percent = self.share_percent(president_cert);
        let mut president = None;
        if previous_president.is_none() {
            let owner = self.holder_of(president_cert);
            president = majority
                .iter()
                .copied()
                .find(|p| owner == Some(Holder::Player(*p)));
        }
        if president.is_none() {
            president = majority
                .iter()
                .copied()
                .filter(|p| self.percent_held(*p, corp) >= president_percent)
                .min_by_key(|p| self.seat_distance(previous_president, *p));
        }
        let Some(president) = president else { return };
        self.corp_mut(corp).president = Some(president);
        if to == Holder::Player(president)
            && previous_president.map(Holder::Player) == Some(from)
            && has_president_cert
            && !partial
        {
            return;
        }
        let Some(previous) = previous_president else {
            return;
        };
        if from == Holder::Player(president) {
            return;
        }
        let cert_holder = if has_president_cert {
            Some(to)
        } else {
            Some(Holder::Player(previous))
        };
        let Some(cert_holder) =
            cert_holder.filter(|h| self.holder_list(*h).contains(&president_cert))
        else {
            return;
        };
        let (transfer_to, swap_to) = if matches!(from, Holder::Player(_))
            && matches!(to, Holder::Player(_))
            && has_president_cert
        {
            (to, to)
        } else {
            let swap_to = if self.percent_held(previous, corp) >= president_percent {
                Holder::Player(previous)
            } else {
                Holder::Pool
            };
            (Holder::Pool, swap_to)
        };
        // Change president: the new president hands over his first normal certificates.
        let normal = self.normal_share_percent(corp);
        let count = (president_percent / normal) as usize;
        let handed: Vec<ShareId> = self
            .player(president)
            .shares
            .iter()
            .copied()
            .filter(|s| s.corp == corp)
            .take(count)
            .collect();
        for s in handed {
            self.move_share(s, Holder::Player(president), swap_to);
        }
        self.move_share(president_cert, cert_holder, Holder::Player(president));
        if partial {
            let back = ((listed - percent) / normal) as usize;
            for _ in 0..back {
                if let Some(s) = self
                    .holder_list(transfer_to)
                    .iter()
                    .copied()
                    .find(|s| s.corp == corp)
                {
                    self.move_share(s, transfer_to, from);
                }
            }
        }
    }

    /// Floats the corporation if enough certificates left the IPO; full capitalisation pays
    /// ten times par from the bank.
    pub(crate) fn check_float(&mut self, corp: CorpId) {
        let c = self.corp(corp);
        if c.floated || !c.ipoed {
            return;
        }
        let in_ipo = self.ipo_percent(corp);
        if 100 - in_ipo >= self.title.kind_of(corp).float_percent.0 {
            self.corp_mut(corp).floated = true;
            // Incremental capitalisation was paid share by share; full pays ten times par now.
            if self.title.capitalization == Capitalization::Full {
                let par = self.corp(corp).par_price.unwrap_or(Money::ZERO);
                let total = Money(par.0 * 10);
                self.bank_pays(total);
                self.corp_mut(corp).cash += total;
            }
            let hooks = self.title.hooks;
            hooks.corporation_floated(self, corp);
        }
    }

    /// Certificates counting towards the limit: shares in counting cells plus privates.
    pub(crate) fn num_certs(&self, player: PlayerId) -> usize {
        let p = self.player(player);
        let shares = p
            .shares
            .iter()
            .filter(|s| {
                self.corp(s.corp)
                    .share_price
                    .and_then(|pos| self.title.cell(pos.row, pos.column))
                    .is_none_or(|cell| !cell.cert_exempt)
            })
            .count();
        let companies = p
            .companies
            .iter()
            .filter(|c| !self.company(**c).closed)
            .count();
        shares + companies
    }

    /// The certificate limit for this player count.
    pub(crate) fn cert_limit(&self) -> usize {
        self.title.cert_limit[&(self.players.len() as u8)] as usize
    }

    /// Whether the corporation's current cell lets players exceed the ownership limit.
    pub(crate) fn ownership_exempt(&self, corp: CorpId) -> bool {
        self.corp(corp)
            .share_price
            .and_then(|pos| self.title.cell(pos.row, pos.column))
            .is_some_and(|cell| cell.ownership_exempt)
    }

    /// Whether a player may hold `extra` more percent of the corporation.
    pub(crate) fn can_hold(&self, player: PlayerId, corp: CorpId, extra: u8) -> bool {
        self.ownership_exempt(corp)
            || self.percent_held(player, corp) + extra
                <= self.title.kind_of(corp).max_ownership_percent.0
    }

    /// Closes a private company and removes it from its owner.
    pub(crate) fn close_company(&mut self, company: crate::ids::CompanyId) {
        match self.company(company).owner {
            CompanyOwner::Player(p) => self.player_mut(p).companies.retain(|c| *c != company),
            CompanyOwner::Corporation(c) => self.corp_mut(c).companies.retain(|x| *x != company),
            CompanyOwner::Unsold => {}
        }
        let c = &mut self.companies[company.0 as usize];
        c.closed = true;
        c.owner = CompanyOwner::Unsold;
    }

    /// The pool limit: a sale must leave the pool at ≤ 50 %.
    pub(crate) fn pool_fits(&self, corp: CorpId, extra: u8) -> bool {
        self.pool_percent(corp) + extra <= self.title.kind_of(corp).market_share_limit.0
    }

    /// Value of a bundle of `percent` at the corporation's current price.
    /// The price per share of a certificate bought or sold from `from`: the par price for a
    /// share from the IPO of a fully capitalised corporation, the market price otherwise
    /// (reference `Share#price_per_share`).
    pub(crate) fn price_per_share(&self, corp: CorpId, from: Holder) -> Money {
        let par_from_ipo =
            matches!(from, Holder::Ipo(_)) && self.title.capitalization == Capitalization::Full;
        match par_from_ipo {
            true => self.corp(corp).par_price.unwrap_or(Money::ZERO),
            false => self.share_price(corp).unwrap_or(Money::ZERO),
        }
    }

    /// The `share_price` a buy or sale states with the price per share the rules give, before
    /// the action. 18xx.games charges a stated price instead of the market's, so a wrong one
    /// would move the wrong money: railnote checks it like every recorded value.
    pub(crate) fn stated_share_price(&self, action: &Action) -> Option<(Money, Money)> {
        let (Action::BuyShares {
            shares,
            share_price: Some(stated),
            ..
        }
        | Action::SellShares {
            shares,
            share_price: Some(stated),
            ..
        }) = action
        else {
            return None;
        };
        let first = shares.first()?;
        let from = self.holder_of(*first)?;
        Some((*stated, self.price_per_share(first.corp, from)))
    }

    pub(crate) fn bundle_price(&self, corp: CorpId, percent: u8) -> Money {
        let price = self.share_price(corp).unwrap_or(Money::ZERO);
        Money(price.0 * percent as i64 / self.normal_share_percent(corp) as i64)
    }
}
