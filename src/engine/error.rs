//! Rule violations: why the engine rejected an action. No spans, no text positions.

use crate::engine::Deviation;
use crate::ids::Money;

/// An action the rules do not allow in the current state. The game state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleViolation {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// Someone else is to act.
    #[error("{actor} cannot act now: {expected} is to act")]
    NotYourTurn {
        /// Who tried to act.
        actor: String,
        /// Who is to act.
        expected: String,
    },
    /// The current step does not take this kind of action.
    #[error("{action} is not possible now; the current step ({step}) takes {allowed}")]
    WrongStep {
        /// The action type.
        action: &'static str,
        /// The step waiting for input.
        step: &'static str,
        /// What the step takes.
        allowed: String,
    },
    /// Not enough cash.
    #[error("{who} has {available} and cannot pay {needed}")]
    InsufficientCash {
        /// Who pays.
        who: String,
        /// What is available.
        available: Money,
        /// What is needed.
        needed: Money,
    },
    /// A bid below the minimum.
    #[error("bid of {bid} for {target} is below the minimum of {min}")]
    BidTooLow {
        /// What the bid is for.
        target: String,
        /// The bid.
        bid: Money,
        /// The minimum.
        min: Money,
    },
    /// A stated value differs from the one the rules give.
    #[error("recorded {what} {recorded}, the rules give {expected}")]
    ValueMismatch {
        /// Which value.
        what: &'static str,
        /// What the log says.
        recorded: String,
        /// What the rules give.
        expected: String,
    },
    /// A share action breaks a stock-round rule.
    #[error("{0}")]
    Shares(String),
    /// A tile lay breaks a track rule.
    #[error("{0}")]
    Track(String),
    /// A token placement breaks a token rule.
    #[error("{0}")]
    Token(String),
    /// A run breaks a route rule.
    #[error("{0}")]
    Route(String),
    /// A train purchase or discard breaks a train rule.
    #[error("{0}")]
    Train(String),
    /// A private-company action breaks its rules.
    #[error("{0}")]
    Company(String),
    /// An auction action breaks the auction rules.
    #[error("{0}")]
    Auction(String),
    /// Bankruptcy declared while money could still be raised.
    #[error("{0}")]
    Bankruptcy(String),
    /// An End Game by an entity 18xx.games does not end a game for.
    #[error("{0}")]
    EndGame(String),
    /// An id the game does not have (a library caller's; the readers resolve every id against
    /// the title), or an amount beyond [`Money::LIMIT`].
    #[error("{0}")]
    OutOfRange(String),
    /// A move 18xx.games accepts but the printed rules forbid, refused because the printed
    /// rules were asked for (a strict replay).
    #[error("{}: {}; {} (a strict replay follows the printed rules)", .0.detail, .0.kind.rule(), .0.kind.reference())]
    PrintedRule(Deviation),
}

impl RuleViolation {
    /// A stable code naming the rule (`rules::not_your_turn`), part of the CLI contract.
    pub fn code(&self) -> &'static str {
        match self {
            RuleViolation::GameOver => "rules::game_over",
            RuleViolation::NotYourTurn { .. } => "rules::not_your_turn",
            RuleViolation::WrongStep { .. } => "rules::wrong_step",
            RuleViolation::InsufficientCash { .. } => "rules::insufficient_cash",
            RuleViolation::BidTooLow { .. } => "rules::bid_too_low",
            RuleViolation::ValueMismatch { .. } => "rules::value_mismatch",
            RuleViolation::Shares(_) => "rules::shares",
            RuleViolation::Track(_) => "rules::track",
            RuleViolation::Token(_) => "rules::token",
            RuleViolation::Route(_) => "rules::route",
            RuleViolation::Train(_) => "rules::train",
            RuleViolation::Company(_) => "rules::company",
            RuleViolation::Auction(_) => "rules::auction",
            RuleViolation::Bankruptcy(_) => "rules::bankruptcy",
            RuleViolation::EndGame(_) => "rules::end_game",
            RuleViolation::OutOfRange(_) => "rules::out_of_range",
            RuleViolation::PrintedRule(d) => d.kind.code(),
        }
    }
}
