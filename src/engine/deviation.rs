//! Deviations: moves that 18xx.games offers in its web interface and its engine accepts, but
//! that the printed rules forbid. railnote follows 18xx.games (the state after the move is the
//! reference's, so real games replay) and reports each one; a strict replay refuses them.
//!
//! Moves the reference takes only through its programming interface (never offered by its web
//! interface) are not deviations: they stay [`crate::engine::RuleViolation`]s.

use std::fmt;

/// Which printed rule a move breaks while 18xx.games accepts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum DeviationKind {
    /// 18Ireland, 1889: a corporation that must buy a train buys one from another corporation
    /// with its president's money. The rules send an emergency purchase to the depot or the open
    /// market; 18xx.games' train step offers the other corporations' trains for any price up
    /// to their face value (its emergency check compares the title's `EBUY_FROM_OTHERS`
    /// setting, `:never`, with `:none`, a value the title never uses), and the president pays
    /// what the treasury cannot.
    EmergencyTrainFromCorporation,
    /// 1836Jr30: a corporation that has bought a train of a type from the depot in its turn
    /// trades a train in for another of that type. The rules allow one train of a type per
    /// operating turn; 18xx.games keeps its "Exchange" offer open (its train step leaves the
    /// type out of the purchases it lists, not out of the trade-ins) and accepts it.
    SecondTrainOfATypeByTradeIn,
    /// Any title: a player ends the game at once. The printed rules end a game only by its end
    /// conditions (the bank broken, a bankruptcy, a share price at the end of the market where
    /// the title has one) and after the rounds they prescribe; 18xx.games' End Game button
    /// (its Tools tab) ends it at any time and scores it as it stands.
    GameEndedByHand,
    /// A route an older log states by its hexes and revenue (no `connections`) that no legal
    /// route on the board matches with that revenue. The route rules apply to every run;
    /// 18xx.games takes the revenue such a log states without checking the route (it has no
    /// connections to check), so the game it replays earned it.
    UncheckedRoute,
}

/// A deviation found while processing one action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deviation {
    /// The rule broken.
    pub kind: DeviationKind,
    /// What happened, with the entities and amounts (`LER buys GSWR's 2H for 60 with 25 from
    /// Ann`).
    pub detail: String,
    /// The round the move was made in (`OR 3.1`).
    pub round: String,
}

impl DeviationKind {
    /// Every deviation railnote knows, for documentation and tests.
    pub const ALL: [DeviationKind; 4] = [
        DeviationKind::EmergencyTrainFromCorporation,
        DeviationKind::SecondTrainOfATypeByTradeIn,
        DeviationKind::GameEndedByHand,
        DeviationKind::UncheckedRoute,
    ];

    /// The stable code (`deviation::emergency_train_from_corporation`), part of the CLI
    /// contract like the rule codes.
    pub fn code(self) -> &'static str {
        match self {
            DeviationKind::EmergencyTrainFromCorporation => {
                "deviation::emergency_train_from_corporation"
            }
            DeviationKind::SecondTrainOfATypeByTradeIn => {
                "deviation::second_train_of_a_type_by_trade_in"
            }
            DeviationKind::GameEndedByHand => "deviation::game_ended_by_hand",
            DeviationKind::UncheckedRoute => "deviation::unchecked_route",
        }
    }

    /// The printed rule, with its reference.
    pub fn rule(self) -> &'static str {
        match self {
            DeviationKind::EmergencyTrainFromCorporation => {
                "18Ireland and 1889 rules (emergency fund raising): the president provides a \
                 train from the bank pool or the depot, not from another corporation"
            }
            DeviationKind::SecondTrainOfATypeByTradeIn => {
                "1836Jr30 rules (operating round, trains): only one train of a given type per \
                 operating turn"
            }
            DeviationKind::GameEndedByHand => {
                "printed rules (end of the game): a game ends only by its end conditions (the \
                 bank broken, a bankruptcy, and where the title has it a share price at the end \
                 of the market), after the rounds they prescribe"
            }
            DeviationKind::UncheckedRoute => {
                "rules (running trains): a route runs on connected track from stop to stop, \
                 within the train's reach, never through a city full of other corporations' \
                 tokens, and earns the value of its stops"
            }
        }
    }

    /// What 18xx.games does instead.
    pub fn reference(self) -> &'static str {
        match self {
            DeviationKind::EmergencyTrainFromCorporation => {
                "18xx.games offers other corporations' trains for up to their face value and \
                 lets the president pay what the treasury cannot"
            }
            DeviationKind::SecondTrainOfATypeByTradeIn => {
                "18xx.games keeps offering trade-ins for a type already bought from the depot \
                 in the turn"
            }
            DeviationKind::GameEndedByHand => {
                "18xx.games' End Game button lets a player end the game at any time: it ends at \
                 once (game_end_reason `manually_ended`) and each player scores cash, shares \
                 and privates as they stand"
            }
            DeviationKind::UncheckedRoute => {
                "18xx.games takes the revenue a log states for a route given by its hexes \
                 (logs written before routes had connections) without checking the route"
            }
        }
    }
}

impl fmt::Display for Deviation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: against the printed rules", self.detail)
    }
}
