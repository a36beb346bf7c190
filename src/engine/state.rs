//! The mutable state of a game: players, corporations, certificates, privates, trains, bank.

use crate::engine::map::Board;
use crate::ids::{CompanyId, CorpId, Money, Percent, PlayerId, ShareId, TrainId};

/// A player.
#[derive(Debug, Clone)]
pub struct Player {
    /// Seat in the original player list.
    pub id: PlayerId,
    /// Display name.
    pub name: String,
    /// Cash in hand.
    pub cash: Money,
    /// Certificates held, in arrival order (the order matters for presidency swaps).
    pub shares: Vec<ShareId>,
    /// Private companies held, in arrival order.
    pub companies: Vec<CompanyId>,
    /// Whether the player went bankrupt.
    pub bankrupt: bool,
}

/// Where a private company is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanyOwner {
    /// Not yet sold.
    Unsold,
    /// Held by a player.
    Player(PlayerId),
    /// Held by a corporation.
    Corporation(CorpId),
}

/// A private company's state.
#[derive(Debug, Clone)]
pub struct Company {
    /// Who holds it.
    pub owner: CompanyOwner,
    /// Whether it has closed.
    pub closed: bool,
    /// How many uses of its limited ability are left (tile lays).
    pub uses_left: u8,
    /// Its face value (the title's, or an optional rule's).
    pub value: Money,
    /// The revenue it pays now (the title's, an optional rule's, or a phase's change).
    pub revenue: Money,
    /// Its abilities are taken away and corporations may not buy it (1889's beginner game).
    pub neutered: bool,
}

/// A stock-market position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct MarketPos {
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub column: u8,
}

/// A corporation's state.
#[derive(Debug, Clone)]
pub struct Corporation {
    /// Whether its president's certificate has been bought (it has a par price).
    pub ipoed: bool,
    /// Whether it has floated.
    pub floated: bool,
    /// Whether it has closed.
    pub closed: bool,
    /// The president.
    pub president: Option<PlayerId>,
    /// Treasury cash.
    pub cash: Money,
    /// Current share price cell.
    pub share_price: Option<MarketPos>,
    /// Par price.
    pub par_price: Option<Money>,
    /// Certificates still in the IPO (treasury), in order.
    pub ipo: Vec<ShareId>,
    /// Trains owned, in arrival order.
    pub trains: Vec<TrainId>,
    /// Tokens not yet placed.
    pub tokens_unused: u8,
    /// Private companies owned.
    pub companies: Vec<CompanyId>,
    /// Whether it has operated at least once (home token placed).
    pub operated: bool,
    /// Once a route has existed for it, the must-buy-train rule applies for good.
    pub route_seen: bool,
    /// Its certificate sizes, president's first: the title's, or what the game changed
    /// (18Chesapeake's two-player game: a 30% president's certificate).
    pub share_sizes: Vec<Percent>,
}

/// Where a train is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrainOwner {
    /// Still in the depot, not yet bought.
    Depot,
    /// In the open market (bank pool): discarded or traded in.
    Pool,
    /// Owned by a corporation.
    Corporation(CorpId),
    /// Rusted and removed from the game.
    Rusted,
    /// Kept by a corporation that closed: out of play, but it still rusts in its turn. (18xx.games
    /// leaves such trains with the closed corporation, so their rusting still brings 18Ireland's
    /// reserve trains into the pool.)
    Closed(CorpId),
    /// A reserve train not yet in play (18Ireland): it enters the pool when a train rusts.
    Reserve,
    /// Taken out of the depot at the end of a set of operating rounds (18Chesapeake's export).
    Exported,
}

/// One physical train.
#[derive(Debug, Clone)]
pub struct Train {
    /// Its id.
    pub id: TrainId,
    /// Where it is.
    pub owner: TrainOwner,
    /// Whether it has run in the current operating round.
    pub operated: bool,
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEndReason {
    /// The bank ran out of money.
    Bank,
    /// A player went bankrupt.
    Bankrupt,
    /// A share price reached the end cell.
    StockMarket,
    /// A round ended in turn 100 or later with no other end (18xx.games: did not finish).
    Dnf,
    /// A player ended the game at once (18xx.games' End Game button).
    ManuallyEnded,
}

impl GameEndReason {
    /// The reference engine's name (`bank`, `bankrupt`, `stock_market`, `dnf`,
    /// `manually_ended`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameEndReason::Bank => "bank",
            GameEndReason::Bankrupt => "bankrupt",
            GameEndReason::StockMarket => "stock_market",
            GameEndReason::Dnf => "dnf",
            GameEndReason::ManuallyEnded => "manually_ended",
        }
    }
}

/// Shares per corporation held by one holder, in percent.
pub fn percent_of(shares: &[ShareId], corp: CorpId, sizes: &[Percent]) -> Percent {
    Percent(
        shares
            .iter()
            .filter(|s| s.corp == corp)
            .map(|s| sizes.get(usize::from(s.index)).map_or(0, |p| p.0))
            .sum(),
    )
}

/// The tile board, re-exported for the state's users.
pub type BoardState = Board;
