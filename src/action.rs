//! Typed game actions: what the engine accepts. A leaf module (imports only [`crate::ids`]).
//!
//! The variants mirror the reference engine's action types (`lay_tile`, `buy_shares`, …) so that
//! converting to and from 18xx.games logs is a one-to-one mapping.

use crate::ids::{
    CityRef, CompanyId, CorpId, HexId, Money, Percent, PlayerId, Rotation, ShareId, TileId, TrainId,
};

/// Who performs an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entity {
    /// A player.
    Player(PlayerId),
    /// A corporation.
    Corporation(CorpId),
    /// A private company (special abilities, exchanges).
    Company(CompanyId),
}

/// A cell of the stock market named by an action (`par.share_price` is `"price,row,col"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MarketCell {
    /// The price printed in the cell, as stated by the action.
    pub price: Money,
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub column: u8,
}

/// What a private-auction or minor-auction bid is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BidTarget {
    /// A private company.
    Company(CompanyId),
    /// A corporation (18Ireland minor auctions).
    Corporation(CorpId),
}

/// How a corporation distributes its revenue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DividendKind {
    /// Pay the revenue to the shareholders.
    Payout,
    /// Keep the revenue in the treasury.
    Withhold,
}

/// One train's route in a `run_routes` action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteSpec {
    /// The train that runs.
    pub train: TrainId,
    /// Segments from stop to stop, each the hexes walked (first and last hold the stops).
    pub connections: Vec<Vec<HexId>>,
    /// The revenue the log states for this route, if any (checked against the rules).
    pub revenue: Option<Money>,
    /// Stop signatures stated by the log (`(hex, part index)`), used to disambiguate joins.
    pub nodes: Vec<(HexId, u8)>,
    /// The hexes the route walks, as older 18xx.games logs state a route (their `hexes`,
    /// without `connections`): the engine splits the walk at its stops
    /// ([`crate::engine::Game::resolve_walks`]). Empty when `connections` are given.
    pub walk: Vec<HexId>,
}

/// An action of the game, as the engine processes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A bid, or a purchase at the stated price of the cheapest private.
    Bid {
        /// The bidder.
        entity: Entity,
        /// What the bid is for.
        target: BidTarget,
        /// The amount.
        price: Money,
    },
    /// Decline to act in the current step.
    Pass {
        /// Who passes.
        entity: Entity,
    },
    /// Start a corporation at a par cell.
    Par {
        /// The player setting the par price.
        entity: Entity,
        /// The corporation.
        corp: CorpId,
        /// The par cell.
        cell: MarketCell,
    },
    /// Buy certificates (or exchange a private for one, when the entity is a company).
    BuyShares {
        /// The buyer.
        entity: Entity,
        /// The certificates named by the log.
        shares: Vec<ShareId>,
        /// The bundle size, when stated.
        percent: Option<Percent>,
        /// The price per share, when stated (18xx.games charges a stated price instead of the
        /// market's; checked against the rules).
        share_price: Option<Money>,
    },
    /// Sell a bundle of certificates to the pool.
    SellShares {
        /// The seller.
        entity: Entity,
        /// The certificates named by the log.
        shares: Vec<ShareId>,
        /// The bundle size when smaller than the certificates (partial president sale).
        percent: Option<Percent>,
        /// The price per share, when stated (checked against the rules).
        share_price: Option<Money>,
    },
    /// A corporation buys a private company from its owner.
    BuyCompany {
        /// The buying corporation.
        entity: Entity,
        /// The private bought.
        company: CompanyId,
        /// The price paid.
        price: Money,
    },
    /// Lay or upgrade a tile.
    LayTile {
        /// The corporation, or the private whose ability is used.
        entity: Entity,
        /// Where.
        hex: HexId,
        /// Which physical tile.
        tile: TileId,
        /// Absolute rotation of the tile.
        rotation: Rotation,
    },
    /// Place a station token.
    PlaceToken {
        /// The corporation (or the private whose ability is used).
        entity: Entity,
        /// The city.
        city: CityRef,
        /// The slot stated by the log (checked when given).
        slot: Option<u8>,
        /// The token cost stated by the log (checked when given).
        cost: Option<Money>,
    },
    /// Declare the trains' routes.
    RunRoutes {
        /// The corporation.
        entity: Entity,
        /// One route per train that runs.
        routes: Vec<RouteSpec>,
    },
    /// Pay out or withhold.
    Dividend {
        /// The corporation.
        entity: Entity,
        /// The choice.
        kind: DividendKind,
    },
    /// Buy a train.
    BuyTrain {
        /// The buying corporation.
        entity: Entity,
        /// The train.
        train: TrainId,
        /// The price stated by the log.
        price: Money,
        /// The train traded in, for a discounted purchase.
        exchange: Option<TrainId>,
    },
    /// Discard a train above the limit.
    DiscardTrain {
        /// The corporation.
        entity: Entity,
        /// The train.
        train: TrainId,
    },
    /// Declare bankruptcy.
    Bankrupt {
        /// The corporation that cannot buy its train.
        entity: Entity,
    },
    /// A private places its bonus marker on a hex (18Ireland CDSPC/TASPS).
    Assign {
        /// The private.
        entity: Entity,
        /// The hex.
        hex: HexId,
    },
    /// Propose a minor for a merger, or name the major it becomes (18Ireland).
    Merge {
        /// The proposing player.
        entity: Entity,
        /// The corporation named.
        corp: CorpId,
    },
    /// A vote on a merger proposal (18Ireland).
    Vote {
        /// The voting player.
        entity: Entity,
        /// For (true) or against (false).
        in_favour: bool,
    },
    /// A programmed-action setup (`program_*`): no effect on the game.
    Program {
        /// Who set it up.
        entity: Entity,
    },
    /// End the game at once, scored as it stands (18xx.games' End Game button).
    EndGame {
        /// The player who ends it (or the corporation whose turn it is).
        entity: Entity,
    },
}

/// `$body` with `$e` bound to the acting entity's field, whatever the variant (one list of
/// variants for reading and changing it).
macro_rules! on_entity {
    ($action:expr, $e:ident => $body:expr) => {
        match $action {
            Action::Bid { entity: $e, .. }
            | Action::Pass { entity: $e }
            | Action::Par { entity: $e, .. }
            | Action::BuyShares { entity: $e, .. }
            | Action::SellShares { entity: $e, .. }
            | Action::BuyCompany { entity: $e, .. }
            | Action::LayTile { entity: $e, .. }
            | Action::PlaceToken { entity: $e, .. }
            | Action::RunRoutes { entity: $e, .. }
            | Action::Dividend { entity: $e, .. }
            | Action::BuyTrain { entity: $e, .. }
            | Action::DiscardTrain { entity: $e, .. }
            | Action::Bankrupt { entity: $e }
            | Action::Assign { entity: $e, .. }
            | Action::Merge { entity: $e, .. }
            | Action::Vote { entity: $e, .. }
            | Action::Program { entity: $e }
            | Action::EndGame { entity: $e } => $body,
        }
    };
}

impl Action {
    /// The entity performing the action.
    pub fn entity(&self) -> Entity {
        on_entity!(self, e => *e)
    }

    /// The same action by another entity.
    pub fn set_entity(&mut self, to: Entity) {
        on_entity!(self, e => *e = to)
    }

    /// The reference engine's name of the action type (`lay_tile`, `buy_shares`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Action::Bid { .. } => "bid",
            Action::Pass { .. } => "pass",
            Action::Par { .. } => "par",
            Action::BuyShares { .. } => "buy_shares",
            Action::SellShares { .. } => "sell_shares",
            Action::BuyCompany { .. } => "buy_company",
            Action::LayTile { .. } => "lay_tile",
            Action::PlaceToken { .. } => "place_token",
            Action::RunRoutes { .. } => "run_routes",
            Action::Dividend { .. } => "dividend",
            Action::BuyTrain { .. } => "buy_train",
            Action::DiscardTrain { .. } => "discard_train",
            Action::Bankrupt { .. } => "bankrupt",
            Action::Assign { .. } => "assign",
            Action::Merge { .. } => "merge",
            Action::Vote { .. } => "choose",
            Action::Program { .. } => "program",
            Action::EndGame { .. } => "end_game",
        }
    }
}
