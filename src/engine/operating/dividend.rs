//! The dividend step: payout or withhold (rules-and-format B.0 "Dividends", D.5) and the share
//! price move it makes (D.6; the title's `dividend_moves`). Zero revenue withholds
//! automatically.

use super::or;
use crate::action::DividendKind;
use crate::engine::market::MarketMove;
use crate::engine::title::{Capitalization, CorpKind, DividendMoves};
use crate::engine::Game;
use crate::ids::{CorpId, Money};

impl Game {
    /// Pays out or withholds the revenue of the current run and moves the share price.
    pub(super) fn pay_dividend(&mut self, corp: CorpId, kind: DividendKind) {
        let revenue = or(self).revenue;
        match kind {
            DividendKind::Withhold => {
                self.bank_pays(revenue);
                self.corp_mut(corp).cash += revenue;
                self.move_price(corp, MarketMove::Left);
            }
            DividendKind::Payout => {
                // Per share = revenue / number of shares; each holder gets the ceiling of his
                // share count times that (a minor's 40% certificate is two shares).
                let unit = f64::from(self.normal_share_percent(corp));
                let per_share = revenue.0 as f64 / (100.0 / unit);
                let seats = self.seats.clone();
                for p in seats {
                    if self.player(p).bankrupt {
                        continue;
                    }
                    let shares = f64::from(self.percent_held(p, corp)) / unit;
                    let amount = Money((shares * per_share).ceil() as i64);
                    if amount.0 != 0 {
                        self.bank_pays(amount);
                        self.player_mut(p).cash += amount;
                    }
                }
                // Full capitalisation: the pool's portion goes to the corporation; incremental:
                // its own treasury's portion does, and the pool's stays in the bank.
                let own = match self.title.capitalization {
                    Capitalization::Full => self.pool_percent(corp),
                    Capitalization::Incremental => self.ipo_percent(corp),
                };
                let amount = Money((f64::from(own) / unit * per_share).ceil() as i64);
                if amount.0 != 0 {
                    self.bank_pays(amount);
                    self.corp_mut(corp).cash += amount;
                }
                self.move_price_after_payout(corp, revenue);
            }
        }
    }

    fn move_price_after_payout(&mut self, corp: CorpId, revenue: Money) {
        if revenue.0 <= 0 {
            self.move_price(corp, MarketMove::Left);
            return;
        }
        match self.title.operating.dividend_moves {
            DividendMoves::RightOnPayout => self.move_price(corp, MarketMove::Right),
            DividendMoves::ByRevenueAndPrice => {
                let price = self.share_price(corp).unwrap_or(Money::ZERO);
                let times =
                    if revenue.0 >= 2 * price.0 && self.title.corp(corp).kind == CorpKind::Minor {
                        2
                    } else if revenue >= price {
                        1
                    } else {
                        0
                    };
                for _ in 0..times {
                    self.move_price(corp, MarketMove::Right);
                }
            }
        }
    }
}
