//! Ending a game by hand: 18xx.games' End Game button (`end_game`).
//!
//! The reference's `Step::EndGame` comes first in every round and never blocks, so the action is
//! taken at any moment of an unfinished game, whoever is to act; `end_game!(:manually_ended)`
//! then ends the game at once and its result is each player's value as it stands (cash, shares
//! of started corporations at market price, privates at face value: [`Game::player_values`]).
//! Nothing else changes: the round, the turn and every holding stay as they were.
//!
//! Its web interface (`view/game/tools.rb`) sends the action for the player the user is, or, for
//! a user who is not one of the players (a hotseat game's owner), for the entity whose turn it is.
//! Its engine also takes it from any corporation; that is never offered, so railnote refuses it.

use crate::action::Entity;
use crate::engine::{DeviationKind, Game, GameEndReason, RuleViolation};

impl Game {
    /// Whether `entity` may end the game by hand now: any player, or the corporation whose turn
    /// it is.
    pub(crate) fn may_end_game(&self, entity: Entity) -> bool {
        match entity {
            Entity::Player(_) => true,
            Entity::Corporation(_) => self.acting_entity() == Some(entity),
            Entity::Company(_) => false,
        }
    }

    /// Ends the game at once, as 18xx.games' End Game does; a deviation from the printed rules.
    pub(crate) fn end_by_hand(&mut self, entity: Entity) -> Result<(), RuleViolation> {
        let who = self.entity_name(entity);
        if !self.may_end_game(entity) {
            return Err(RuleViolation::EndGame(format!(
                "{who} cannot end the game: 18xx.games' End Game button ends it for a player, or \
                 for the corporation whose turn it is (the printed rules have no move that ends a \
                 game)"
            )));
        }
        self.deviate(
            DeviationKind::GameEndedByHand,
            format!("{who} ends the game at once (18xx.games' End Game)"),
        );
        self.end_game(GameEndReason::ManuallyEnded);
        Ok(())
    }
}
