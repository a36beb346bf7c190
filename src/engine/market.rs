//! Stock-market movement on a two-dimensional grid.
//!
//! Movement follows the reference engine's two-dimensional rules: right at a row end goes up,
//! left at column 0 or next to an empty cell goes down, down past the last row or into an empty
//! cell does not move. A marker entering a cell goes under the markers already there.

use crate::engine::state::MarketPos;
use crate::engine::Game;
use crate::ids::CorpId;

/// A one-step movement of a share-price marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MarketMove {
    Up,
    Down,
    Left,
    Right,
}

impl Game {
    fn cell_exists(&self, row: i32, column: i32) -> bool {
        row >= 0 && column >= 0 && self.title.cell(row as u8, column as u8).is_some()
    }

    fn target(&self, from: MarketPos, movement: MarketMove) -> MarketPos {
        let (r, c) = (from.row as i32, from.column as i32);
        let rows = self.title.market.len() as i32;
        match movement {
            MarketMove::Up => MarketPos {
                row: (r - 1).max(0) as u8,
                column: from.column,
            },
            MarketMove::Down => {
                let row = if r + 1 < rows { r + 1 } else { r };
                MarketPos {
                    row: row as u8,
                    column: from.column,
                }
            }
            MarketMove::Left => {
                if c > 0 && self.cell_exists(r, c - 1) {
                    MarketPos {
                        row: from.row,
                        column: (c - 1) as u8,
                    }
                } else {
                    self.target(from, MarketMove::Down)
                }
            }
            MarketMove::Right => {
                if c + 1 >= self.title.market[r as usize].len() as i32 {
                    self.target(from, MarketMove::Up)
                } else {
                    MarketPos {
                        row: from.row,
                        column: (c + 1) as u8,
                    }
                }
            }
        }
    }

    /// Moves a corporation's marker one step; no move if the target cell does not exist.
    pub(crate) fn move_price(&mut self, corp: CorpId, movement: MarketMove) {
        let Some(from) = self.corp(corp).share_price else {
            return;
        };
        let to = self.target(from, movement);
        if to == from || !self.cell_exists(to.row as i32, to.column as i32) {
            return;
        }
        self.place_marker(corp, to);
    }

    /// Puts a corporation's marker on a cell (at the bottom of the cell's stack).
    pub(crate) fn place_marker(&mut self, corp: CorpId, to: MarketPos) {
        if let Some(from) = self.corp(corp).share_price {
            if let Some(list) = self.market_cells.get_mut(&from) {
                list.retain(|c| *c != corp);
            }
        }
        self.market_cells.entry(to).or_default().push(corp);
        self.corp_mut(corp).share_price = Some(to);
        if self
            .title
            .cell(to.row, to.column)
            .is_some_and(|c| c.end_game)
        {
            self.market_end_reached = true;
        }
    }

    /// Operating-order key: higher price, further right, higher up, earlier arrival, name.
    pub(crate) fn operating_key(&self, corp: CorpId) -> (i64, i32, u8, usize, &'static str) {
        let c = self.corp(corp);
        let pos = c.share_price.unwrap_or(MarketPos { row: 0, column: 0 });
        let price = self.share_price(corp).map(|m| m.0).unwrap_or(0);
        let arrival = self
            .market_cells
            .get(&pos)
            .and_then(|l| l.iter().position(|x| *x == corp))
            .unwrap_or(0);
        (
            -price,
            -(pos.column as i32),
            pos.row,
            arrival,
            self.title.corp(corp).sym.as_str(),
        )
    }
}
