//! The stock round.

use crate::action::Action;
use crate::engine::{Game, RuleViolation};
use crate::ids::PlayerId;

#[derive(Debug, Clone, Default)]
pub(crate) struct StockRound {}

impl StockRound {
    pub(crate) fn new(_game: &Game) -> StockRound {
        StockRound {}
    }

    pub(crate) fn acting(&self, _game: &Game) -> Option<PlayerId> {
        None
    }
}

pub(crate) fn process(_game: &mut Game, _action: &Action) -> Result<(), RuleViolation> {
    Err(RuleViolation::GameOver)
}
