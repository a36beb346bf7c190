//! Map, tiles, track graph, tokens and routes. (Placeholder until the map subsystem lands.)

use crate::ids::{CorpId, HexId};

/// Static map data of a title.
#[derive(Debug)]
pub struct MapData;

/// The 1836Jr30 map.
pub fn jr30() -> &'static MapData {
    static MAP: MapData = MapData;
    &MAP
}

/// Tiles and tokens on the map.
#[derive(Debug, Clone)]
pub struct Board;

impl Board {
    /// A board with preprinted tiles and home reservations.
    pub fn new(_map: &MapData, _reservations: &[(CorpId, HexId)]) -> Board {
        Board
    }
}
