//! Everything that leaves the program: serialize-only wire types (JSON) and their text
//! renderings, built from a finished or in-progress [`Game`](crate::engine::Game). Field names
//! and order are part of the CLI contract; all ordering is deterministic (title order, seat
//! order or sorted keys — never hash order).

mod failure;
pub mod json_log;
mod moves;
mod routes;
mod score;
mod snapshot;

use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

pub use failure::{FailureDetail, FailureReport, ProblemDetail};
pub use moves::{describe, MoveGroup, MovesReport};
pub use routes::{
    best_run, corp_trains, run_notation, run_revenues, RouteReport, RoutesReport, RunAudit,
    RunCheck,
};
pub use score::{ScoreReport, Standing, WarningReport};
pub use snapshot::{
    CompanySnapshot, CorporationSnapshot, PlayerSnapshot, PriceSnapshot, Snapshot, TileSnapshot,
};

/// A map that serializes its entries in the order given (e.g. corporations in title order).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for OrderedMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<V: fmt::Display> fmt::Display for OrderedMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}:{v}")?;
        }
        Ok(())
    }
}
