//! Map, tiles, track graph, tokens and routes.
//!
//! [`MapData`] is the static map of a title (hexes, tile definitions, geometry), loaded from the
//! title's data file. [`Board`] is the mutable map state of one game (tiles laid, supply, token
//! slots, reservations); it checks tile lays and token placements like the reference engine and
//! evaluates routes.

mod board;
mod data;
mod graph;
mod route;
mod search;
mod tile;

pub(crate) use board::{lay_outcome, NetworkRule};
pub use board::{
    Board, LayOutcome, LayRequest, Station, TokenError, TrackError, MAX_CITIES, MAX_SLOTS,
    MAX_TOKENS,
};
pub use data::{
    Colour, End, Gauge, HexDef, HexIdx, Layout, MapData, MapDataError, MapRules, NodeDef, NodeKind,
    PathDef, Revenue, RouteUse, TileDef,
};

pub use route::{
    plain_revenue, DistanceMode, RevenueHook, RouteError, RouteErrorKind, RouteRevenue, RunContext,
    Stop, TrainRoute,
};
pub use search::{
    BestRun, ContextRules, FoundRoute, RunRules, SearchError, SearchLimits, TrainSpec,
};
pub use tile::{upgrade_fault, UpgradeFault};

#[cfg(test)]
mod tests;
