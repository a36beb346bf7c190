//! Map, tiles, track graph, tokens and routes. (Placeholder until the map subsystem lands.)

use crate::action::RouteSpec;
use crate::engine::title::Colour;
use crate::ids::{CityRef, CorpId, HexId, Money, Rotation, TileDefId, TileId};

/// Static map data of a title.
#[derive(Debug)]
pub struct MapData;

impl MapData {
    /// A tile definition's name.
    pub fn tile_name(&self, _def: TileDefId) -> &str {
        ""
    }
}

/// The 1836Jr30 map.
pub fn jr30() -> &'static MapData {
    static MAP: MapData = MapData;
    &MAP
}

/// A placeholder error.
#[derive(Debug, thiserror::Error)]
#[error("map not implemented")]
pub struct MapError;

/// Tiles and tokens on the map.
#[derive(Debug, Clone)]
pub struct Board;

#[allow(missing_docs, clippy::too_many_arguments)]
impl Board {
    pub fn new(_map: &MapData, _reservations: &[(CorpId, HexId)]) -> Board {
        Board
    }
    pub fn check_lay(&self, _m: &MapData, _c: CorpId, _h: HexId, _t: TileId, _r: Rotation, _col: &[Colour], _b: &[HexId], _strict: bool) -> Result<Money, MapError> {
        Err(MapError)
    }
    pub fn lay(&mut self, _m: &MapData, _h: HexId, _t: TileId, _r: Rotation) {}
    pub fn check_token(&self, _m: &MapData, _c: CorpId, _city: CityRef, _strict: bool) -> Result<HexId, MapError> {
        Err(MapError)
    }
    pub fn check_home_token(&self, _m: &MapData, _c: CorpId, _h: HexId, _city: CityRef) -> Result<(), MapError> {
        Err(MapError)
    }
    pub fn place_token(&mut self, _m: &MapData, _c: CorpId, _city: CityRef) {}
    pub fn place_home_token(&mut self, _m: &MapData, _c: CorpId, _h: HexId) -> Option<bool> {
        Some(true)
    }
    pub fn has_reachable_token_city(&self, _m: &MapData, _c: CorpId) -> bool {
        false
    }
    pub fn route_available(&self, _m: &MapData, _c: CorpId) -> bool {
        false
    }
    pub fn compute_run(&self, _m: &MapData, _c: CorpId, _r: &[RouteSpec], _d: &[u16], _col: &[Colour]) -> Result<Vec<Money>, MapError> {
        Err(MapError)
    }
}
