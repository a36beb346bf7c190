//! The round and turn machinery of the operating round: the operating order (rules-and-format
//! B.0 "Operating order", D.4, re-sorted after emergency sales), private revenue at the start
//! of every round (D.7), the step order of a corporation's turn, the automatic skip of steps
//! that ask nothing (D.1), and the end of a round and of a set (B.0 "Game end": a broken bank
//! ends the game at the end of the set, an end-cell price at the end of the round; the title
//! may start a round of its own after the set).

use super::{or, or_mut, OperatingRound, OrStep};
use crate::action::DividendKind;
use crate::engine::state::GameEndReason;
use crate::engine::title::HomeTokenTiming;
use crate::engine::{Game, Round, SkipReason, Skipped};
use crate::ids::{CorpId, Money};

impl Game {
    pub(crate) fn start_operating_round(&mut self, round_num: u8) {
        let mut order: Vec<CorpId> = (0..self.corps.len())
            .map(|i| CorpId(i as u8))
            .filter(|c| self.corp(*c).floated && !self.corp(*c).closed)
            .collect();
        order.sort_by_key(|c| self.operating_key(*c));
        self.round = Round::Operating(OperatingRound {
            round_num,
            order,
            index: 0,
            step: OrStep::HomeToken,
            revenue: Money::ZERO,
            depot_kinds_bought: Vec::new(),
            traded_in: false,
            lays: Vec::new(),
            last_share_sold_price: None,
            discarding: None,
            teleport: None,
            pending_tokens: Vec::new(),
            together: None,
            operator_acted: false,
            sold_lay: None,
            emergency_sold: Vec::new(),
            tokened: false,
        });
        self.pay_private_revenue();
        if self.title.home_token_timing == HomeTokenTiming::OperatingRound {
            self.place_home_tokens_of_round();
        }
        for t in &mut self.trains {
            t.operated = false;
        }
        self.start_corp_turn();
    }

    /// Begins the current corporation's turn, or ends the round if none is left.
    fn start_corp_turn(&mut self) {
        loop {
            let Some(corp) = or(self).current() else {
                self.finish_operating_round();
                return;
            };
            if self.corp(corp).closed {
                or_mut(self).index += 1;
                continue;
            }
            let o = or_mut(self);
            o.step = OrStep::HomeToken;
            o.revenue = Money::ZERO;
            o.depot_kinds_bought.clear();
            o.traded_in = false;
            o.lays.clear();
            o.last_share_sold_price = None;
            o.teleport = None;
            o.operator_acted = false;
            o.emergency_sold.clear();
            o.tokened = false;
            if !self.corp(corp).operated {
                self.corp_mut(corp).operated = true;
                // Titles placing home tokens at par, and corporations without a fixed home,
                // have their token down already.
                let at_first_run = self.title.home_token_timing == HomeTokenTiming::Operate;
                if let Some(home) = self.title.corp(corp).home.filter(|_| at_first_run) {
                    if !self.place_home_token(corp, home) {
                        return;
                    }
                }
            }
            or_mut(self).step = OrStep::IssueShares;
            self.skip_steps();
            return;
        }
    }

    /// Advances past steps that have nothing to ask of the operating corporation.
    pub(super) fn skip_steps(&mut self) {
        loop {
            if self.finished || !matches!(self.round, Round::Operating(_)) {
                return;
            }
            if or(self).discarding.is_some()
                || or(self).sold_lay.is_some()
                || !or(self).pending_tokens.is_empty()
                || or(self).together.is_some()
            {
                return;
            }
            let Some(corp) = or(self).current() else {
                return;
            };
            let step = or(self).step;
            let waits = match step {
                OrStep::HomeToken => true,
                OrStep::IssueShares => self.can_issue(corp) || self.can_redeem(corp),
                OrStep::Track => self.track_step_waits(corp),
                OrStep::Token => self.token_step_waits(corp),
                OrStep::Route => self.route_step_waits(corp),
                OrStep::Dividend => {
                    if or(self).revenue.0 > 0 {
                        true
                    } else {
                        self.pay_dividend(corp, DividendKind::Withhold);
                        false
                    }
                }
                OrStep::BuyTrain => self.train_step_waits(corp),
                OrStep::BuyCompany => self.company_step_waits(corp),
            };
            if waits {
                return;
            }
            if step != OrStep::HomeToken {
                let why = self.skip_reason(corp, step);
                self.note_skipped(Skipped::Step {
                    corp,
                    step: step.name(),
                    why,
                });
            }
            self.next_or_step();
        }
    }

    /// Why a step that asks nothing of the corporation is skipped (its `*_waits` said no).
    fn skip_reason(&mut self, corp: CorpId, step: OrStep) -> SkipReason {
        match step {
            OrStep::Track => SkipReason::NoLay,
            OrStep::Token => match self.next_token_price(corp) {
                None => SkipReason::NoTokenLeft,
                Some(price) if self.corp(corp).cash < price => SkipReason::TokenCost {
                    price,
                    cash: self.corp(corp).cash,
                },
                Some(_) => SkipReason::NoCityReached,
            },
            OrStep::Route => {
                let has_train = self
                    .corp(corp)
                    .trains
                    .iter()
                    .any(|t| !self.trains.iter().any(|x| x.id == *t && x.operated));
                if has_train {
                    SkipReason::NoRoute
                } else {
                    SkipReason::NoTrain
                }
            }
            OrStep::Dividend => SkipReason::NoRevenue,
            OrStep::BuyTrain => SkipReason::NoTrainToBuy,
            OrStep::HomeToken | OrStep::IssueShares | OrStep::BuyCompany => {
                SkipReason::NothingOffered
            }
        }
    }

    pub(super) fn next_or_step(&mut self) {
        let o = or_mut(self);
        o.step = match o.step {
            OrStep::HomeToken => OrStep::IssueShares,
            OrStep::IssueShares => OrStep::Track,
            OrStep::Track => OrStep::Token,
            OrStep::Token => OrStep::Route,
            OrStep::Route => OrStep::Dividend,
            OrStep::Dividend => OrStep::BuyTrain,
            OrStep::BuyTrain => OrStep::BuyCompany,
            OrStep::BuyCompany => {
                o.index += 1;
                self.start_corp_turn();
                return;
            }
        };
    }

    /// A share price on an end cell ends the game when the round in progress ends (18Ireland
    /// 260); this comes before a bank break's end of the set.
    pub(crate) fn market_end_now(&mut self) -> bool {
        if self.market_end_reached {
            self.end_game(GameEndReason::StockMarket);
            return true;
        }
        false
    }

    fn finish_operating_round(&mut self) {
        if self.market_end_now() {
            return;
        }
        let round_num = or(self).round_num;
        let last_of_set = round_num >= self.operating_rounds;
        // The bank may have broken in the action that ends the round (the last dividend),
        // before the end trigger is recorded after it.
        self.note_bank_trigger();
        if last_of_set && self.end_trigger == Some(GameEndReason::Bank) {
            self.end_game(GameEndReason::Bank);
            return;
        }
        if self.round_ends_past_limit() {
            return;
        }
        if !last_of_set {
            self.start_operating_round(round_num + 1);
            return;
        }
        let hooks = self.title.hooks;
        if !hooks.start_round_after_operating_set(self, round_num) {
            self.turn += 1;
            self.export_train();
            self.start_stock_round();
        }
    }

    /// If the operating corporation just closed, the turn passes to the next one.
    pub(crate) fn corp_closed_while_operating(&mut self, corp: CorpId) {
        if let Round::Operating(o) = &self.round {
            if o.current() == Some(corp) {
                or_mut(self).index += 1;
                self.start_corp_turn();
            }
        }
    }

    pub(crate) fn end_game(&mut self, reason: GameEndReason) {
        self.finished = true;
        self.end_reason = Some(reason);
    }

    /// After emergency sales, corporations that have not operated yet are re-sorted.
    pub(super) fn recalculate_order(&mut self) {
        // The index may already be past the end (a bankruptcy closed the last corporation).
        let keep = (or(self).index + 1).min(or(self).order.len());
        let mut rest: Vec<CorpId> = or(self).order[keep..].to_vec();
        rest.sort_by_key(|c| self.operating_key(*c));
        let o = or_mut(self);
        o.order.truncate(keep);
        o.order.extend(rest);
    }
}
