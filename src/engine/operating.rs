//! The operating round.

use crate::action::{Action, Entity};
use crate::engine::{Game, RuleViolation};

#[derive(Debug, Clone, Default)]
pub(crate) struct OperatingRound {
    pub(crate) round_num: u8,
}

impl OperatingRound {
    pub(crate) fn acting(&self, _game: &Game) -> Option<Entity> {
        None
    }
}

pub(crate) fn process(_game: &mut Game, _action: &Action) -> Result<(), RuleViolation> {
    Err(RuleViolation::GameOver)
}
