//! What the rules did by themselves during the last action, and why: a player passed in a stock
//! round because nothing was left to him, a step of an operating turn skipped because it asked
//! nothing. A replay uses it to explain a move that is refused after them ("the token step was
//! skipped: …", "Cid passed automatically: …"). No text here: the replay words it.

use crate::ids::{CorpId, Money, PlayerId};

/// Something the rules did by themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skipped {
    /// A player passed in a stock round: he could neither buy, start nor sell anything.
    StockTurn {
        /// The player.
        player: PlayerId,
        /// His cash then.
        cash: Money,
    },
    /// A step of an operating corporation's turn asked nothing of it.
    Step {
        /// The corporation.
        corp: CorpId,
        /// The step (`token`, `routes`, as in [`RuleViolation::WrongStep`](crate::engine::RuleViolation::WrongStep)).
        step: &'static str,
        /// Why.
        why: SkipReason,
    },
}

/// Why a step of an operating turn was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// Track: no further tile may be laid this turn.
    NoLay,
    /// Token: every token is on the map.
    NoTokenLeft,
    /// Token: the next token costs more than the treasury holds.
    TokenCost {
        /// The token's price.
        price: Money,
        /// The treasury.
        cash: Money,
    },
    /// Token: no city the corporation's network reaches has room for its token.
    NoCityReached,
    /// Routes: no train that has not run yet.
    NoTrain,
    /// Routes: no route for any train.
    NoRoute,
    /// Dividend: nothing was earned, so nothing is paid.
    NoRevenue,
    /// Trains: no train can be bought (none affordable, or the train limit reached).
    NoTrainToBuy,
    /// Another step (issuing shares, buying privates): nothing it offers is possible.
    NothingOffered,
}

/// At most this many are kept per action: a stock round that auto-passes every player for many
/// rounds in one action cannot make the list grow with the input.
pub(crate) const SKIPPED_KEPT: usize = 64;
