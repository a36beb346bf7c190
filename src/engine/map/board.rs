//! Mutable per-game map state: tiles on hexes, the tile supply, token slots and reservations.
//! Cloned before every action, so it is a few flat vectors indexed by hex index.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::data::{Colour, HexIdx, MapData, NodeKind, PathDef, TileDef};
use super::graph::{Goal, Reach, Sought};
use super::tile::{
    city_town_edges, path_le, paths_maintained, rotation_keeps_old, upgrade_fault,
    uses_broad_rules, UpgradeFault,
};
use crate::ids::{CityRef, CorpId, HexId, Money, Rotation, TileId};

/// Most cities on one tile (18Ireland Dublin has three).
pub const MAX_CITIES: usize = 3;
/// Most slots in one city (18Ireland gray Dublin has four).
pub const MAX_SLOTS: usize = 4;
/// Most station tokens of one corporation.
pub const MAX_TOKENS: usize = 8;

type Slots = [Option<CorpId>; MAX_SLOTS];

/// State of one hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HexState {
    pub(crate) tile: TileId,
    pub(crate) rotation: u8,
    /// Tokens per city (index into the current tile's cities) and slot.
    pub(crate) tokens: [Slots; MAX_CITIES],
    /// Slot reservations (home cities), same shape.
    pub(crate) reserved: [Slots; MAX_CITIES],
    /// Length of each city's reservation list in the reference (`City#reservations`): a
    /// reservation taken up by a home token leaves a `nil` that still counts, which decides
    /// the slots of the reservations after it when cities merge on an upgrade.
    pub(crate) reserved_len: [u8; MAX_CITIES],
    /// Tile-level reservations (bit per corporation), e.g. NBDS on the OO hex E11.
    pub(crate) tile_reserved: u32,
    /// Edges linked by a lay on an impassable hex (18Ireland Irish Mail), bit per edge, on
    /// both sides of the link.
    pub(crate) links: u8,
}

/// Where a corporation's token stands: hex and city index on the current tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Station {
    /// The hex.
    pub hex: HexIdx,
    /// City index among the current tile's cities.
    pub city: u8,
}

/// A request to lay or upgrade a tile, with everything the checks need.
#[derive(Debug, Clone)]
pub struct LayRequest<'a> {
    /// The corporation laying (owner of the private for special lays).
    pub corp: CorpId,
    /// Where.
    pub hex: HexId,
    /// Which physical tile.
    pub tile: TileId,
    /// Absolute rotation.
    pub rotation: Rotation,
    /// Tile colours of the current phase.
    pub phase_colours: &'a [Colour],
    /// Hexes blocked by privates for this corporation.
    pub blocked_hexes: &'a [HexId],
    /// Check connection to the corporation's network (false for special lays such as E-SF on
    /// B8 or CdH on J8, which only need exits towards existing neighbours).
    pub check_connectivity: bool,
    /// The corporation's own lay, not a private's: the semi-restrictive rule applies
    /// ([`TrackError::NoNewTrack`]; the reference checks it for a corporation's own lays only,
    /// not for a private's: BoW, DR, TDR, DCR), and tiles only a private may lay are refused
    /// ([`TrackError::PrivateTile`]).
    pub corporation_lay: bool,
    /// With `check_connectivity`: the network need only reach the hex, and the new exits may
    /// point to any neighbour. A private's lay that asks for a connection (18Ireland DCR: the
    /// title's `legal_tile_rotation?` wants the hex among the corporation's connected hexes,
    /// while the private's step offers every neighbour as an exit, and its track restriction
    /// is checked for corporations only).
    pub exits_anywhere: bool,
}

/// How a lay must meet the corporation's network: the network's reach, and whether it need
/// only reach the hex (see [`LayRequest::exits_anywhere`]) or one of the new exits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NetworkRule<'r> {
    pub(crate) reach: &'r Reach,
    pub(crate) exits_anywhere: bool,
}

impl<'r> NetworkRule<'r> {
    /// A corporation's own lay: a new exit on an edge the network reaches.
    pub(crate) fn track(reach: &'r Reach) -> NetworkRule<'r> {
        NetworkRule {
            reach,
            exits_anywhere: false,
        }
    }
}

/// A legal lay: what it costs and whether it was an upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayOutcome {
    /// Terrain/upgrade cost of the covered tile.
    pub cost: Money,
    /// The covered tile was not white.
    pub upgrade: bool,
}

/// Why a tile lay is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrackError {
    /// The hex is not on the map.
    #[error("{0} is not a hex of the map")]
    NoSuchHex(HexId),
    /// The tile id is not one of the title's tiles (or a preprinted one).
    #[error("tile is not a tile of the title")]
    UnknownTile(TileId),
    /// The tile is on the map or preprinted.
    #[error("tile {tile} is not in the supply")]
    TileNotInSupply {
        /// Display name of the tile.
        tile: String,
    },
    /// Only a private's ability lays this tile (1889's port, 437).
    #[error("tile {tile} is laid only by a private's ability")]
    PrivateTile {
        /// Display name of the tile.
        tile: String,
    },
    /// The phase does not allow this colour yet.
    #[error("{colour} tiles are not available in this phase")]
    ColourNotYetAvailable {
        /// The tile's colour name.
        colour: &'static str,
    },
    /// Upgrade rules forbid the replacement.
    #[error("{from} cannot be upgraded to {to}: {fault}")]
    NotAnUpgrade {
        /// Tile on the hex.
        from: String,
        /// Tile laid.
        to: String,
        /// What is wrong.
        fault: UpgradeFault,
    },
    /// The rotation is not legal here.
    #[error("{tile} cannot be laid on {hex} with rotation {rotation}")]
    IllegalRotation {
        /// Tile laid.
        tile: String,
        /// Where.
        hex: HexId,
        /// The rotation asked for.
        rotation: u8,
        /// The legal rotations (for help text).
        legal: Vec<u8>,
    },
    /// No exit of the tile touches the corporation's network.
    #[error("{hex} is not connected to the corporation's network")]
    NotConnected {
        /// Where.
        hex: HexId,
    },
    /// A private blocks the hex.
    #[error("{0} is blocked by a private company")]
    HexBlocked(HexId),
    /// 18Ireland: the lay adds no track to the corporation's network and changes no revenue
    /// on it (the reference's semi-restrictive track rule).
    #[error("the lay on {hex} must give the corporation new track or change a city's value")]
    NoNewTrack {
        /// Where.
        hex: HexId,
    },
}

/// Why a token cannot be placed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// The hex is not on the map.
    #[error("{0} is not a hex of the map")]
    NoSuchHex(HexId),
    /// The named tile is not on any hex / the city part does not exist.
    #[error("no such city on the map")]
    NoSuchCity,
    /// The corporation already has a token on this hex.
    #[error("already has a token on {0}")]
    AlreadyOnHex(HexId),
    /// No free slot the corporation may use.
    #[error("no token slot available on {0}")]
    NoSlot(HexId),
    /// The remaining slots are reserved for another corporation.
    #[error("the remaining token slots on {0} are reserved")]
    Reserved(HexId),
    /// The city is not reachable from the corporation's stations.
    #[error("{0} is not reachable from the corporation's stations")]
    NotReachable(HexId),
    /// All the corporation's token slots in the board's list are used.
    #[error("no token left")]
    NoTokenLeft,
}

/// Mutable map state of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub(crate) hexes: Hexes,
    /// Copies in the supply, bit per copy, per tile definition.
    supply: Vec<u64>,
    /// Per corporation, its stations by token number (None = unused or lifted).
    stations: Vec<[Option<Station>; MAX_TOKENS]>,
    /// Reaches computed on this board and its clones (not part of its state).
    reaches: ReachMemo,
    /// Track matched to runs' connections and stops' narrow-gauge bonuses worked out on this
    /// board and its clones (not part of its state).
    pub(crate) runs: super::route::RunMemo,
    /// [`Board::broad_joined`] on this board and its clones (not part of its state).
    joins: JoinMemo,
}

/// The per-hex state, stamped: every mutable borrow of it takes a new stamp, never used
/// before by any board, so equal stamps mean equal hexes. A clone keeps the stamp (its hexes
/// are equal until it changes them, when it takes a new one).
#[derive(Clone)]
pub(crate) struct Hexes {
    cells: Vec<HexState>,
    stamp: Stamp,
}

/// Where a board's hexes come from: a fresh number taken at their last change, and the one
/// tile lay made since, if that is all that changed them. A lay is a function of the hexes
/// and its arguments alone, so two boards with the same fresh number and the same lay have
/// equal hexes: the lay a check tries on a clone and the lay then made on the board itself
/// (18Ireland's upgrade check, the semi-restrictive rule) share their reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    fresh: u64,
    lay: Option<LayKey>,
}

/// One tile lay: hex, tile, rotation and whether tokens a lay lifts were lifted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LayKey {
    hex: HexIdx,
    tile: TileId,
    rotation: u8,
    lift_tokens: bool,
}

impl Stamp {
    fn fresh() -> Stamp {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Stamp {
            fresh: NEXT.fetch_add(1, Ordering::Relaxed),
            lay: None,
        }
    }
}

impl Hexes {
    fn new(cells: Vec<HexState>) -> Hexes {
        Hexes {
            cells,
            stamp: Stamp::fresh(),
        }
    }

    /// The hexes for a tile lay to change, and the stamp they will have when it is done: the
    /// caller must make exactly that lay and no other change.
    fn for_lay(&mut self, lay: LayKey) -> (&mut Vec<HexState>, Stamp) {
        let after = match self.stamp.lay {
            None => Stamp {
                fresh: self.stamp.fresh,
                lay: Some(lay),
            },
            // A second lay: a stamp remembers one.
            Some(_) => Stamp::fresh(),
        };
        (&mut self.cells, after)
    }
}

impl std::ops::Deref for Hexes {
    type Target = Vec<HexState>;

    fn deref(&self) -> &Vec<HexState> {
        &self.cells
    }
}

impl std::ops::DerefMut for Hexes {
    /// Whoever may change the hexes gets a new stamp first; the reaches remembered under the
    /// old one no longer apply.
    fn deref_mut(&mut self) -> &mut Vec<HexState> {
        self.stamp = Stamp::fresh();
        &mut self.cells
    }
}

impl PartialEq for Hexes {
    /// Hexes are equal by their state; the stamp only says where they come from.
    fn eq(&self, other: &Hexes) -> bool {
        self.cells == other.cells
    }
}

impl Eq for Hexes {}

impl std::fmt::Debug for Hexes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.cells.fmt(f)
    }
}

/// What was worked out for a corporation on a board or any of its clones, the last `N` of
/// them, by map, corporation and the stamp of the hexes it was worked out on. A reach is a
/// function of the map, the hexes and the corporation alone, and any change of the hexes takes
/// a new stamp ([`Hexes`]), so an entry found is the answer: nothing has to be invalidated.
#[derive(Clone, Default)]
struct Memo<T, const N: usize>(Arc<Mutex<Vec<MemoEntry<T>>>>);

/// Within an action the same hexes are walked several times (the token step's and the
/// route's checks after a lay; 18Ireland checks a lay on a clone with the tile laid, and the
/// board then lays it), so a few entries, shared by a board's clones, catch the repeats.
type ReachMemo = Memo<Reach, 8>;

/// [`Board::broad_joined`]: 18Ireland's merger round asks it of every minor at every action,
/// and only a merger changes the hexes.
type JoinMemo = Memo<Vec<CorpId>, 16>;

struct MemoEntry<T> {
    /// The map's address: a board is only ever used with the map it was made for; the address
    /// guards against a caller mixing them up.
    map: usize,
    corp: CorpId,
    stamp: Stamp,
    value: Arc<T>,
}

impl<T, const N: usize> Memo<T, N> {
    /// The entries, whole (a poisoned memo only means a panic elsewhere left it half-written:
    /// it starts afresh).
    fn entries(&self) -> std::sync::MutexGuard<'_, Vec<MemoEntry<T>>> {
        self.0.lock().unwrap_or_else(|poisoned| {
            let mut entries = poisoned.into_inner();
            entries.clear();
            entries
        })
    }

    /// The value if it is remembered.
    fn get(&self, map: &MapData, board: &Board, corp: CorpId) -> Option<Arc<T>> {
        let address = std::ptr::from_ref(map) as usize;
        let stamp = board.hexes.stamp;
        self.entries()
            .iter()
            .find(|e| e.stamp == stamp && e.corp == corp && e.map == address)
            .map(|e| Arc::clone(&e.value))
    }

    /// Remembers a value worked out on `board`.
    fn insert(&self, map: &MapData, board: &Board, corp: CorpId, value: Arc<T>) {
        let mut entries = self.entries();
        if entries.len() == N {
            entries.remove(0);
        }
        entries.push(MemoEntry {
            map: std::ptr::from_ref(map) as usize,
            corp,
            stamp: board.hexes.stamp,
            value,
        });
    }

    fn get_or_compute(
        &self,
        map: &MapData,
        board: &Board,
        corp: CorpId,
        compute: impl FnOnce() -> T,
    ) -> Arc<T> {
        if let Some(value) = self.get(map, board, corp) {
            return value;
        }
        let value = Arc::new(compute());
        self.insert(map, board, corp, Arc::clone(&value));
        value
    }
}

impl<T, const N: usize> PartialEq for Memo<T, N> {
    /// Boards are equal by their state; what they remember of it does not count.
    fn eq(&self, _: &Memo<T, N>) -> bool {
        true
    }
}

impl<T, const N: usize> Eq for Memo<T, N> {}

impl<T, const N: usize> std::fmt::Debug for Memo<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl Board {
    /// The initial board: preprinted tiles, full supply, home reservations
    /// `(corp, hex, city index or None for a tile-level reservation on multi-city hexes)`.
    /// Reservations naming unknown hexes or cities are ignored.
    pub fn new(map: &MapData, reservations: &[(CorpId, HexId, Option<u8>)]) -> Board {
        let mut hexes: Vec<HexState> = map
            .hexes
            .iter()
            .map(|h| HexState {
                tile: h.tile,
                rotation: 0,
                tokens: [[None; MAX_SLOTS]; MAX_CITIES],
                reserved: [[None; MAX_SLOTS]; MAX_CITIES],
                reserved_len: [0; MAX_CITIES],
                tile_reserved: 0,
                links: 0,
            })
            .collect();
        let supply = map
            .tiles
            .iter()
            .map(|t| match t.count {
                _ if t.preprinted => 0,
                _ if t.unlimited => u64::MAX,
                n if n >= 64 => u64::MAX,
                n => (1u64 << n) - 1,
            })
            .collect();
        let max_corp = reservations
            .iter()
            .map(|r| usize::from(r.0 .0) + 1)
            .max()
            .unwrap_or(0);
        for &(corp, hex, city) in reservations {
            let Some(i) = map.hex_index(hex) else {
                continue;
            };
            let st = &mut hexes[i.get()];
            let cities = map.tile_def(st.tile.def).cities.len();
            // Reference `add_reservation!`: a single-city tile reserves a slot of city 0.
            let city = if cities == 1 { Some(0) } else { city };
            match city {
                Some(c) if usize::from(c) < cities.min(MAX_CITIES) => {
                    let slots = usize::from(
                        map.tile_def(st.tile.def).nodes
                            [usize::from(map.tile_def(st.tile.def).cities[usize::from(c)])]
                        .slots,
                    );
                    let c = usize::from(c);
                    if let Some(s) = (0..slots.min(MAX_SLOTS))
                        .find(|&s| st.tokens[c][s].is_none() && st.reserved[c][s].is_none())
                    {
                        st.reserved[c][s] = Some(corp);
                        st.reserved_len[c] = st.reserved_len[c].max(s as u8 + 1);
                    }
                }
                _ => st.tile_reserved |= 1 << (corp.0 % 32),
            }
        }
        Board {
            hexes: Hexes::new(hexes),
            supply,
            stations: vec![[None; MAX_TOKENS]; max_corp.max(32)],
            reaches: ReachMemo::default(),
            runs: super::route::RunMemo::default(),
            joins: JoinMemo::default(),
        }
    }

    /// Hexes whose tile is no longer the preprinted one, with the tile and its rotation, in
    /// map order.
    pub fn laid_tiles<'m>(
        &'m self,
        map: &'m MapData,
    ) -> impl Iterator<Item = (HexId, TileId, Rotation)> + 'm {
        map.hexes
            .iter()
            .zip(self.hexes.iter())
            .filter(|(def, st)| st.tile != def.tile)
            .map(|(def, st)| {
                (
                    def.id,
                    st.tile,
                    Rotation::new(st.rotation).unwrap_or_default(),
                )
            })
    }

    /// The hex across edge `edge` of `hex` that track can reach now: the map's links plus
    /// those opened by lays on impassable hexes.
    pub fn neighbour(&self, map: &MapData, hex: HexIdx, edge: u8) -> Option<HexIdx> {
        let e = usize::from(edge % 6);
        let hd = map.hex_def(hex);
        hd.neighbours[e].or_else(|| {
            (self.hexes[hex.get()].links & (1 << e) != 0)
                .then_some(hd.all_neighbours[e])
                .flatten()
        })
    }

    /// The tile and rotation on a hex.
    pub fn tile_at(&self, hex: HexIdx) -> (TileId, Rotation) {
        let h = &self.hexes[hex.get()];
        (h.tile, Rotation::new(h.rotation).unwrap_or_default())
    }

    /// Takes every copy of a tile definition out of the supply (a tile of an optional rule
    /// not in force).
    pub fn withdraw(&mut self, def: crate::ids::TileDefId) {
        if let Some(copies) = self.supply.get_mut(usize::from(def.0)) {
            *copies = 0;
        }
    }

    /// Whether a tile copy is in the supply.
    pub fn in_supply(&self, tile: TileId) -> bool {
        self.supply
            .get(usize::from(tile.def.0))
            .is_some_and(|m| tile.copy < 64 && m & (1 << tile.copy) != 0)
    }

    /// Number of copies of a definition in the supply.
    pub fn supply_count(&self, def: crate::ids::TileDefId) -> u32 {
        self.supply
            .get(usize::from(def.0))
            .map_or(0, |m| m.count_ones())
    }

    /// The hex a tile currently lies on, if any.
    pub fn hex_of_tile(&self, tile: TileId) -> Option<HexIdx> {
        self.hexes
            .iter()
            .position(|h| h.tile == tile)
            .map(|i| HexIdx(i as u16))
    }

    /// Check a lay with every live check of the reference engine.
    pub fn check_lay(&self, map: &MapData, req: &LayRequest<'_>) -> Result<LayOutcome, TrackError> {
        let hex = map
            .hex_index(req.hex)
            .ok_or(TrackError::NoSuchHex(req.hex))?;
        if usize::from(req.tile.def.0) >= map.tiles.len() {
            return Err(TrackError::UnknownTile(req.tile));
        }
        let new = map.tile_def(req.tile.def);
        let st = &self.hexes[hex.get()];
        let old = map.tile_def(st.tile.def);
        if req.blocked_hexes.contains(&req.hex) {
            return Err(TrackError::HexBlocked(req.hex));
        }
        if !self.in_supply(req.tile) {
            return Err(TrackError::TileNotInSupply {
                tile: map.tile_name(req.tile),
            });
        }
        if new.blocks_lay && req.corporation_lay {
            return Err(TrackError::PrivateTile {
                tile: map.tile_name(req.tile),
            });
        }
        // The Irish Mail's own tile list bypasses the phase's colours.
        let irish_mail = self.red_on_blue(map, old, new, !req.check_connectivity);
        if !irish_mail && !req.phase_colours.contains(&new.colour) {
            return Err(TrackError::ColourNotYetAvailable {
                colour: new.colour.name(),
            });
        }
        let rot = req.rotation.get();
        if let Some(fault) = upgrade_fault(old, st.rotation, new, rot).filter(|_| !irish_mail) {
            return Err(TrackError::NotAnUpgrade {
                from: map.tile_name(st.tile),
                to: map.tile_name(req.tile),
                fault,
            });
        }
        let touching = match req.exits_anywhere {
            true => 0x3f,
            false => new.exits(rot),
        };
        // Most lays are legal: unless the reach is at hand, the walk stops once the network
        // meets the new exits, and the rotations are then those the map allows. Under gauge
        // rules a broad-gauge lay asks the broad network (the narrow network only adds
        // edges to it, but the hex must have a broad one), a narrow-gauge lay either. A lay
        // that fails is checked again with the whole reach, which says why.
        let meets = match map.rules.gauges && !uses_broad_rules(old, st.rotation, new, rot) {
            true => Goal::AnyEdges {
                hex: hex.get(),
                edges: touching,
            },
            false => Goal::Edges {
                hex: hex.get(),
                edges: touching,
            },
        };
        // The rotation is an upgrade (checked above, unless the Irish Mail's lay skipped it).
        let fitting = if irish_mail { 0 } else { 1 << rot };
        let connected_early = req.check_connectivity
            && self.reaches.get(map, self, req.corp).is_none()
            && self.seek(map, req.corp, meets)
            && self.legal_rotations_among(map, hex, req.tile, None, irish_mail, 1 << rot, fitting)
                != 0;
        debug_assert!(
            !connected_early || {
                let whole = Reach::compute(map, self, req.corp);
                let rule = NetworkRule {
                    reach: &whole,
                    exits_anywhere: req.exits_anywhere,
                };
                self.legal_rotations_with(map, hex, req.tile, Some(rule), irish_mail) & (1 << rot)
                    != 0
            },
            "the lay the shortened walk allows is one the whole reach allows"
        );
        let reach = (req.check_connectivity && !connected_early).then(|| self.reach(map, req.corp));
        let rule = reach.as_deref().map(|r| NetworkRule {
            reach: r,
            exits_anywhere: req.exits_anywhere,
        });
        let legal = match connected_early {
            true => 1 << rot,
            false => self.legal_rotations_with(map, hex, req.tile, rule, irish_mail),
        };
        if legal & (1 << rot) == 0 {
            // Distinguish "no rotation touches the network" from a bad rotation.
            if let Some(r) = &reach {
                let geometric = self.legal_rotations_with(map, hex, req.tile, None, irish_mail);
                if geometric & (1 << rot) != 0 && r.any_edges(hex.get()) & touching == 0 {
                    return Err(TrackError::NotConnected { hex: req.hex });
                }
            }
            return Err(TrackError::IllegalRotation {
                tile: map.tile_name(req.tile),
                hex: req.hex,
                rotation: rot,
                legal: (0..6).filter(|r| legal & (1 << r) != 0).collect(),
            });
        }
        if req.check_connectivity
            && req.corporation_lay
            && map.rules.semi_restrictive
            && !self.adds_track_or_value(map, req.corp, hex, req.tile, rot)
        {
            return Err(TrackError::NoNewTrack { hex: req.hex });
        }
        Ok(lay_outcome(map, old, new))
    }

    /// 18Ireland's (the reference base game's) semi-restrictive track rule, which 1836Jr30
    /// relaxes: of the new tile's paths on the corporation's network after the lay (broad
    /// network for a broad-gauge lay, narrow network otherwise), one must be new track or
    /// reach nodes of other values than the old path it covers.
    pub(crate) fn adds_track_or_value(
        &self,
        map: &MapData,
        corp: CorpId,
        hex: HexIdx,
        tile: TileId,
        rotation: u8,
    ) -> bool {
        let h = hex.get();
        let st = &self.hexes[h];
        let old = map.tile_def(st.tile.def);
        if old.paths.is_empty() {
            return true;
        }
        let new = map.tile_def(tile.def);
        let Some(r) = Rotation::new(rotation) else {
            return false;
        };
        // A path has two ends, so at most two nodes: their values sorted, and how many.
        let values = |t: &TileDef, p: &PathDef| {
            let mut v = [Money::ZERO; 2];
            let mut count = 0;
            for n in p.nodes() {
                v[count] = t.nodes[usize::from(n)].revenue.max();
                count += 1;
            }
            v[..count].sort();
            (v, count)
        };
        // The new paths that are new track or reach other values: one of them must be on the
        // network after the lay.
        let adding = new
            .paths
            .iter()
            .enumerate()
            .filter(|(_, np)| {
                match old
                    .paths
                    .iter()
                    .find(|op| path_le(new, np, rotation, old, op, st.rotation))
                {
                    None => true,
                    Some(op) => values(old, op) != values(new, np),
                }
            })
            .fold(0u32, |m, (pi, _)| m | 1 << pi);
        if adding == 0 {
            return false;
        }
        let mut after = self.clone();
        after.lay(map, hex, tile, r);
        let on_network = match uses_broad_rules(old, st.rotation, new, rotation) {
            true => Goal::Paths {
                hex: h,
                paths: adding,
            },
            false => Goal::NarrowPaths {
                hex: h,
                paths: adding,
            },
        };
        after.seek(map, corp, on_network)
    }

    /// 18Ireland Irish Mail: a special lay may put a red tile on a blue hex, whatever the
    /// other upgrade rules say.
    fn red_on_blue(&self, map: &MapData, old: &TileDef, new: &TileDef, special: bool) -> bool {
        map.rules.red_on_blue && special && old.colour == Colour::Blue && new.colour == Colour::Red
    }

    /// Rotations (bit per rotation) at which `tile` may replace the tile on `hex`, with the
    /// corporation's network when `corp` is given, else only towards existing neighbours.
    pub fn legal_rotations(
        &self,
        map: &MapData,
        hex: HexIdx,
        tile: TileId,
        corp: Option<CorpId>,
    ) -> u8 {
        let reach = corp.map(|c| self.reach(map, c));
        self.legal_rotations_with(
            map,
            hex,
            tile,
            reach.as_deref().map(NetworkRule::track),
            false,
        )
    }

    pub(crate) fn legal_rotations_with(
        &self,
        map: &MapData,
        hex: HexIdx,
        tile: TileId,
        network: Option<NetworkRule<'_>>,
        irish_mail: bool,
    ) -> u8 {
        self.legal_rotations_among(map, hex, tile, network, irish_mail, 0x3f, 0)
    }

    /// [`Board::legal_rotations_with`], asking only of the rotations in `among` (bits), of
    /// which those in `fitting` are known to be upgrades ([`upgrade_fault`] says none: the
    /// lay's check has asked it already).
    #[allow(clippy::too_many_arguments)]
    fn legal_rotations_among(
        &self,
        map: &MapData,
        hex: HexIdx,
        tile: TileId,
        network: Option<NetworkRule<'_>>,
        irish_mail: bool,
        among: u8,
        fitting: u8,
    ) -> u8 {
        if map.rules.gauges {
            return self.gauge_rotations(map, hex, tile, network, irish_mail, among, fitting);
        }
        let st = &self.hexes[hex.get()];
        let old = map.tile_def(st.tile.def);
        let new = map.tile_def(tile.def);
        let linked = (0..6u8)
            .filter(|&e| self.neighbour(map, hex, e).is_some())
            .fold(0u8, |m, e| m | 1 << e);
        let reachable = match network {
            None => linked,
            Some(n) if n.exits_anywhere && n.reach.edges[hex.get()] != 0 => linked,
            Some(n) if n.exits_anywhere => 0,
            Some(n) => n.reach.edges[hex.get()],
        };
        let mut upgrade = Upgrade::default();
        let mut out = 0u8;
        for r in (0..6u8).filter(|r| among & (1 << r) != 0) {
            let exits = new.exits(r);
            if exits & !linked != 0 || exits & reachable == 0 {
                continue;
            }
            if fitting & (1 << r) == 0 && !upgrade.fits(old, st.rotation, new, r) {
                continue;
            }
            if !rotation_keeps_old(old, st.rotation, new, r) {
                continue;
            }
            out |= 1 << r;
        }
        out
    }

    /// 18Ireland rotation checks (reference `legal_tile_rotation?` of the title and of its
    /// narrow-track steps): connection through the broad network, or through the narrow
    /// network for a narrow lay; exits on linked edges, one of them reached; old track kept;
    /// no unexplained new city; exits match the neighbours' gauge.
    #[allow(clippy::too_many_arguments)]
    fn gauge_rotations(
        &self,
        map: &MapData,
        hex: HexIdx,
        tile: TileId,
        network: Option<NetworkRule<'_>>,
        irish_mail: bool,
        among: u8,
        fitting: u8,
    ) -> u8 {
        let st = &self.hexes[hex.get()];
        let old = map.tile_def(st.tile.def);
        let new = map.tile_def(tile.def);
        let linked = (0..6u8)
            .filter(|&e| self.neighbour(map, hex, e).is_some())
            .fold(0u8, |m, e| m | 1 << e);
        let h = hex.get();
        let mut upgrade = Upgrade::default();
        let mut out = 0u8;
        for r in (0..6u8).filter(|r| among & (1 << r) != 0) {
            if let Some(n) = network {
                let connected = if uses_broad_rules(old, st.rotation, new, r) {
                    n.reach.edges[h] != 0
                } else {
                    n.reach.any_edges(h) != 0
                };
                if !connected {
                    continue;
                }
            }
            let reachable = match network {
                Some(n) if !n.exits_anywhere => n.reach.any_edges(h),
                _ => linked,
            };
            let exits = new.exits(r);
            if exits & !linked != 0 || exits & reachable == 0 {
                continue;
            }
            if !irish_mail && fitting & (1 << r) == 0 && !upgrade.fits(old, st.rotation, new, r) {
                continue;
            }
            if !paths_maintained(old, st.rotation, new, r) {
                continue;
            }
            let old_ct = city_town_edges(old, st.rotation);
            let new_ct = city_town_edges(new, r);
            let added = new_ct.len().saturating_sub(old_ct.len());
            let unrelated = new_ct
                .iter()
                .filter(|&&n| old_ct.iter().all(|&o| n & o == 0))
                .count();
            if unrelated > added {
                continue;
            }
            if !self.exit_gauges_match(map, hex, new, r) {
                continue;
            }
            out |= 1 << r;
        }
        out
    }

    /// Each exit's first path has a gauge compatible with the first path of the neighbour's
    /// tile on the facing edge, if there is one.
    fn exit_gauges_match(&self, map: &MapData, hex: HexIdx, new: &TileDef, rot: u8) -> bool {
        // The first path on an edge is the lowest bit of the tile's paths on that edge.
        fn first(t: &TileDef, rotation: u8, edge: u8) -> Option<&PathDef> {
            let on_edge = t.paths_on_edge(rotation, edge);
            (on_edge != 0).then(|| &t.paths[on_edge.trailing_zeros() as usize])
        }
        (0..6u8).all(|e| {
            let Some(mine) = first(new, rot, e) else {
                return true;
            };
            let Some(nb) = self.neighbour(map, hex, e) else {
                return true;
            };
            let nst = &self.hexes[nb.get()];
            let facing = (e + 3) % 6;
            first(map.tile_def(nst.tile.def), nst.rotation, facing)
                .is_none_or(|theirs| mine.gauge.fits(theirs.gauge))
        })
    }

    /// Lay a tile without checks (the caller checked, or replays leniently). The covered tile
    /// returns to the supply unless preprinted; tokens and reservations follow their cities.
    /// Returns the corporations whose tokens were lifted and must be placed again (a multi-city
    /// tile without track getting track), in slot order.
    pub fn lay(
        &mut self,
        map: &MapData,
        hex: HexIdx,
        tile: TileId,
        rotation: Rotation,
    ) -> Vec<CorpId> {
        self.lay_with(map, hex, tile, rotation, true)
    }

    /// Whether laying this tile lifts tokens for their owners to place again: a tile with
    /// track on a trackless hex of several tokened cities (reference `update_token!`).
    pub(crate) fn lay_lifts_tokens(&self, map: &MapData, hex: HexIdx, tile: TileId) -> bool {
        let st = &self.hexes[hex.get()];
        let old = map.tile_def(st.tile.def);
        let new = map.tile_def(tile.def);
        old.paths.is_empty()
            && !new.paths.is_empty()
            && new.cities.len() > 1
            && st.tokens.iter().flatten().any(Option::is_some)
    }

    /// Reference quirk (`Tracker#lay_tile` in strict play): the new tile is on the hex, with
    /// the tokens of a lifting lay still standing in the cities they were moved to, while
    /// `check_track_restrictions!` computes the layer's graph; only afterwards are the tokens
    /// lifted. A route seen in that moment is cached for good (`Graph#clear` keeps entries
    /// with `route_train_purchase`). True when this lay lifts tokens and, in that moment,
    /// the corporation's network has a route (D.1).
    pub fn route_before_lift(
        &self,
        map: &MapData,
        hex: HexIdx,
        tile: TileId,
        rotation: Rotation,
        corp: CorpId,
    ) -> bool {
        if !self.lay_lifts_tokens(map, hex, tile) {
            return false;
        }
        let mut probe = self.clone();
        probe.lay_with(map, hex, tile, rotation, false);
        probe.route_available(map, corp)
    }

    /// [`Board::lay`], optionally keeping the tokens a multi-city lay would lift where the
    /// city map puts them (the reference's board between laying the tile and lifting them).
    pub(crate) fn lay_with(
        &mut self,
        map: &MapData,
        hex: HexIdx,
        tile: TileId,
        rotation: Rotation,
        lift_tokens: bool,
    ) -> Vec<CorpId> {
        let (cells, after) = self.hexes.for_lay(LayKey {
            hex,
            tile,
            rotation: rotation.get(),
            lift_tokens,
        });
        let old_state = cells[hex.get()];
        let old = map.tile_def(old_state.tile.def);
        let new = map.tile_def(tile.def);
        let (or, nr) = (old_state.rotation, rotation.get());
        // Supply bookkeeping.
        if !old.preprinted {
            if let Some(m) = self.supply.get_mut(usize::from(old_state.tile.def.0)) {
                *m |= 1 << (old_state.tile.copy % 64);
            }
        }
        if let Some(m) = self.supply.get_mut(usize::from(tile.def.0)) {
            *m &= !(1 << (tile.copy % 64));
        }
        // Reference `Hex#city_map_for`: trackless cities map by index, others by exits.
        let old_exits: Vec<u8> = old.cities.iter().map(|&n| old.node_exits(n, or)).collect();
        let new_exits: Vec<u8> = new.cities.iter().map(|&n| new.node_exits(n, nr)).collect();
        let mut map_to: [Option<usize>; MAX_CITIES] = [None; MAX_CITIES];
        if old_exits.iter().all(|&e| e == 0) && old.cities.len() == new.cities.len() {
            for (i, m) in map_to.iter_mut().enumerate().take(old.cities.len()) {
                *m = Some(i);
            }
        } else {
            for (i, &oe) in old_exits.iter().enumerate().take(MAX_CITIES) {
                map_to[i] = new_exits.iter().position(|&ne| oe != 0 && oe & !ne == 0);
            }
        }
        let mut used: Vec<usize> = map_to.iter().flatten().copied().collect();
        for (i, slot) in map_to.iter_mut().enumerate().take(old.cities.len()) {
            if slot.is_some() {
                continue;
            }
            let mut target = (i < new.cities.len()).then_some(i);
            if target.is_some_and(|t| used.contains(&t)) {
                target = (0..new.cities.len()).find(|c| !used.contains(c));
            }
            *slot = target;
            if let Some(t) = target {
                used.push(t);
            }
        }
        // Reference tracker: a lay on an impassable hex links its new exits both ways.
        if old.colour.is_impassable() {
            let hd = map.hex_def(hex);
            for e in 0..6u8 {
                if new.exits(nr) & (1 << e) == 0 || hd.impassable & (1 << e) != 0 {
                    continue;
                }
                if let Some(n) = hd.all_neighbours[usize::from(e)] {
                    cells[hex.get()].links |= 1 << e;
                    cells[n.get()].links |= 1 << ((e + 3) % 6);
                }
            }
        }
        let st = &mut cells[hex.get()];
        st.tile = tile;
        st.rotation = nr;
        st.tokens = [[None; MAX_SLOTS]; MAX_CITIES];
        st.reserved = [[None; MAX_SLOTS]; MAX_CITIES];
        st.reserved_len = [0; MAX_CITIES];
        for (i, target) in map_to
            .iter()
            .enumerate()
            .take(old.cities.len().min(MAX_CITIES))
        {
            // Reference `Hex#lay`: each new city's reservation list is its old cities' lists
            // one after the other, `nil`s included, so cities merging into one (an OO
            // upgraded to a single city) keep every home reservation, and a city that keeps
            // its own list keeps its slots.
            let Some(t) = target.filter(|&t| t < MAX_CITIES) else {
                continue;
            };
            for s in 0..usize::from(old_state.reserved_len[i]).min(MAX_SLOTS) {
                let at = usize::from(st.reserved_len[t]);
                if at < MAX_SLOTS {
                    st.reserved[t][at] = old_state.reserved[i][s];
                    st.reserved_len[t] += 1;
                }
            }
        }
        let mut lifted = Vec::new();
        let lift =
            lift_tokens && old.paths.is_empty() && !new.paths.is_empty() && new.cities.len() > 1;
        for (i, target) in map_to
            .iter()
            .enumerate()
            .take(old.cities.len().min(MAX_CITIES))
        {
            for corp in old_state.tokens[i].iter().flatten().copied() {
                let placed = target.filter(|&t| t < MAX_CITIES && !lift).and_then(|t| {
                    let slots =
                        usize::from(new.nodes[usize::from(new.cities[t])].slots).min(MAX_SLOTS);
                    let s = free_slot(&st.tokens[t], &st.reserved[t], slots, corp)?;
                    st.tokens[t][s] = Some(corp);
                    Some(t)
                });
                let station = self.stations.get_mut(usize::from(corp.0)).and_then(|list| {
                    list.iter_mut()
                        .flatten()
                        .find(|s| s.hex == hex && usize::from(s.city) == i)
                });
                match (placed, station) {
                    (Some(t), Some(s)) => s.city = t as u8,
                    (None, _) => {
                        lifted.push(corp);
                        if let Some(list) = self.stations.get_mut(usize::from(corp.0)) {
                            if let Some(slot) =
                                list.iter_mut().find(|s| s.is_some_and(|s| s.hex == hex))
                            {
                                *slot = None;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        self.hexes.stamp = after;
        lifted
    }

    fn city_slots(&self, map: &MapData, hex: HexIdx, city: usize) -> Option<usize> {
        let t = map.tile_def(self.hexes[hex.get()].tile.def);
        let node = *t.cities.get(city)?;
        Some(usize::from(t.nodes[usize::from(node)].slots).min(MAX_SLOTS))
    }

    /// Resolve a city id (`57-2-0`) to its hex and city index, if that tile lies on the map.
    pub fn locate_city(&self, map: &MapData, city: CityRef) -> Option<Station> {
        let hex = self.hex_of_tile(city.tile)?;
        let c = map.tile_def(city.tile.def).city_by_part(city.part)?;
        Some(Station { hex, city: c as u8 })
    }

    /// Check a token placement: the city exists, the corporation has no token on the hex, a slot
    /// is free for it, no other corporation's tile-level reservation blocks it, and (when
    /// `check_reach`) the city is reachable from the corporation's stations.
    pub fn check_token(
        &self,
        map: &MapData,
        corp: CorpId,
        at: Station,
        check_reach: bool,
    ) -> Result<(), TokenError> {
        let hexid = map
            .hexes
            .get(at.hex.get())
            .ok_or(TokenError::NoSuchCity)?
            .id;
        self.tokenable(map, corp, at)
            .map_err(|e| e.with_hex(hexid))?;
        if check_reach {
            let t = map.tile_def(self.hexes[at.hex.get()].tile.def);
            let node = t.cities[usize::from(at.city)];
            let goal = Goal::Nodes {
                hex: at.hex.get(),
                nodes: 1 << node,
            };
            if !self.seek(map, corp, goal) {
                return Err(TokenError::NotReachable(hexid));
            }
        }
        Ok(())
    }

    /// Reference `City#tokenable?` without price/token-count checks. Hex ids in errors are
    /// filled in by the caller.
    fn tokenable(&self, map: &MapData, corp: CorpId, at: Station) -> Result<usize, TokenErrorKind> {
        let st = self
            .hexes
            .get(at.hex.get())
            .ok_or(TokenErrorKind::NoSuchCity)?;
        let c = usize::from(at.city);
        let slots = self
            .city_slots(map, at.hex, c)
            .ok_or(TokenErrorKind::NoSuchCity)?;
        if c >= MAX_CITIES {
            return Err(TokenErrorKind::NoSuchCity);
        }
        let slot =
            free_slot(&st.tokens[c], &st.reserved[c], slots, corp).ok_or(TokenErrorKind::NoSlot)?;
        if st.tokens.iter().flatten().any(|t| *t == Some(corp)) {
            return Err(TokenErrorKind::AlreadyOnHex);
        }
        let reserved_here = st.reserved[c].contains(&Some(corp));
        let others = st.tile_reserved & !(1 << (corp.0 % 32));
        if !reserved_here && others != 0 {
            if !map.rules.reservations_share_slots {
                // TILE_RESERVATION_BLOCKS_OTHERS = :always (1836Jr30).
                if st.tile_reserved & (1 << (corp.0 % 32)) == 0 {
                    return Err(TokenErrorKind::Reserved);
                }
            } else {
                let t = map.tile_def(st.tile.def);
                let free: usize = (0..t.cities.len().min(MAX_CITIES))
                    .map(|ci| {
                        let slots = self.city_slots(map, at.hex, ci).unwrap_or(0);
                        (0..slots).filter(|&s| st.tokens[ci][s].is_none()).count()
                    })
                    .sum();
                if others.count_ones() as usize >= free {
                    return Err(TokenErrorKind::Reserved);
                }
            }
        }
        Ok(slot)
    }

    /// Removes every token of a corporation from the map (a closing corporation).
    pub fn remove_tokens(&mut self, corp: CorpId) {
        for st in self.hexes.iter_mut() {
            for city in st.tokens.iter_mut() {
                for slot in city.iter_mut() {
                    if *slot == Some(corp) {
                        *slot = None;
                    }
                }
            }
        }
        if let Some(list) = self.stations.get_mut(usize::from(corp.0)) {
            *list = [None; MAX_TOKENS];
        }
    }

    /// Drops a corporation's home reservations (it closed or was removed). The reference
    /// deletes the reservation from the city's list (`Array#delete`), so the reservations
    /// after it move one slot down: on a hex home to two minors, the second takes the first
    /// slot once the first has closed without placing its token.
    pub fn remove_reservations(&mut self, corp: CorpId) {
        for st in self.hexes.iter_mut() {
            for (city, len) in st.reserved.iter_mut().zip(st.reserved_len.iter_mut()) {
                if let Some(at) = city.iter().position(|r| *r == Some(corp)) {
                    city[at..].rotate_left(1);
                    if let Some(last) = city.last_mut() {
                        *last = None;
                    }
                    *len = len.saturating_sub(1);
                }
            }
            st.tile_reserved &= !(1 << (corp.0 % 32));
        }
    }

    /// Hands a corporation's tokens to another (a merger): where the receiver already has a
    /// token in the same city, the giver's is dropped; others are lifted and placed again for
    /// the receiver in the city's first free slot (reference `move_tokens`: remove, then
    /// `place_token`), taking the receiver's next token numbers in the giver's token order.
    pub fn transfer_tokens(&mut self, map: &MapData, from: CorpId, to: CorpId) {
        let given: Vec<Station> = self.stations(from).collect();
        let ti = usize::from(to.0);
        if ti >= self.stations.len() {
            self.stations.resize(ti + 1, [None; MAX_TOKENS]);
        }
        for station in given {
            let c = usize::from(station.city);
            let slots = self
                .city_slots(map, station.hex, c)
                .unwrap_or(MAX_SLOTS)
                .min(MAX_SLOTS);
            let st = &mut self.hexes[station.hex.get()];
            let duplicate = st.tokens[c].contains(&Some(to));
            for slot in st.tokens[c].iter_mut() {
                if *slot == Some(from) {
                    *slot = None;
                }
            }
            if duplicate {
                continue;
            }
            if let Some(s) = free_slot(&st.tokens[c], &st.reserved[c], slots, to) {
                st.tokens[c][s] = Some(to);
                if let Some(entry) = self.stations[ti].iter_mut().find(|s| s.is_none()) {
                    *entry = Some(station);
                }
            }
        }
        if let Some(list) = self.stations.get_mut(usize::from(from.0)) {
            *list = [None; MAX_TOKENS];
        }
    }

    /// Whether `slot` of this city is free for a token of `corp` (empty, and not reserved for
    /// another corporation). Which free slot a token sits in has no effect on play.
    pub fn slot_usable(&self, map: &MapData, corp: CorpId, at: Station, slot: u8) -> bool {
        let c = usize::from(at.city);
        let s = usize::from(slot);
        let Some(slots) = self.city_slots(map, at.hex, c) else {
            return false;
        };
        let Some(st) = self.hexes.get(at.hex.get()) else {
            return false;
        };
        c < MAX_CITIES
            && s < slots
            && st.tokens[c][s].is_none()
            && st.reserved[c][s].is_none_or(|r| r == corp)
    }

    /// Place a token (no checks beyond finding the slot). Fills the corporation's lowest unused
    /// token number; clears its reservations on the hex.
    pub fn place_token(
        &mut self,
        map: &MapData,
        corp: CorpId,
        at: Station,
    ) -> Result<(), TokenError> {
        let hexid = map
            .hexes
            .get(at.hex.get())
            .ok_or(TokenError::NoSuchCity)?
            .id;
        let c = usize::from(at.city);
        let slots = self
            .city_slots(map, at.hex, c)
            .ok_or(TokenError::NoSuchCity)?;
        if c >= MAX_CITIES {
            return Err(TokenError::NoSuchCity);
        }
        let st = &mut self.hexes[at.hex.get()];
        let slot = free_slot(&st.tokens[c], &st.reserved[c], slots, corp)
            .ok_or(TokenError::NoSlot(hexid))?;
        let ci = usize::from(corp.0);
        if ci >= self.stations.len() {
            self.stations.resize(ci + 1, [None; MAX_TOKENS]);
        }
        let entry = self.stations[ci]
            .iter_mut()
            .find(|s| s.is_none())
            .ok_or(TokenError::NoTokenLeft)?;
        *entry = Some(at);
        st.tokens[c][slot] = Some(corp);
        for city in st.reserved.iter_mut() {
            for r in city.iter_mut() {
                if *r == Some(corp) {
                    *r = None;
                }
            }
        }
        st.tile_reserved &= !(1 << (corp.0 % 32));
        Ok(())
    }

    /// Place a corporation's free home token: into its reserved city; on a multi-city hex
    /// with a tile-level reservation, city 0 (the caller asks the player when the tile has
    /// track and several cities, see [`Board::home_needs_choice`]).
    pub fn place_home_token(
        &mut self,
        map: &MapData,
        corp: CorpId,
        hex: HexId,
    ) -> Result<(), TokenError> {
        let i = map.hex_index(hex).ok_or(TokenError::NoSuchHex(hex))?;
        let st = &self.hexes[i.get()];
        let city = st
            .reserved
            .iter()
            .position(|c| c.contains(&Some(corp)))
            .unwrap_or(0);
        self.place_token(
            map,
            corp,
            Station {
                hex: i,
                city: city as u8,
            },
        )
    }

    /// Whether placing the home token on `hex` needs the owner's choice (several cities and the
    /// tile has track, and no city is reserved for this corporation).
    pub fn home_needs_choice(&self, map: &MapData, corp: CorpId, hex: HexId) -> bool {
        let Some(i) = map.hex_index(hex) else {
            return false;
        };
        let st = &self.hexes[i.get()];
        let t = map.tile_def(st.tile.def);
        t.cities.len() > 1
            && !t.paths.is_empty()
            && !st.reserved.iter().any(|c| c.contains(&Some(corp)))
    }

    /// Station hexes of a corporation, by token number (the order of the reference's token
    /// list).
    pub fn token_hexes(&self, map: &MapData, corp: CorpId) -> Vec<HexId> {
        self.stations
            .get(usize::from(corp.0))
            .into_iter()
            .flatten()
            .flatten()
            .map(|s| map.hex_def(s.hex).id)
            .collect()
    }

    /// The corporation's stations (hex, city), by token number.
    pub fn stations(&self, corp: CorpId) -> impl Iterator<Item = Station> + '_ {
        self.stations
            .get(usize::from(corp.0))
            .into_iter()
            .flatten()
            .flatten()
            .copied()
    }

    /// The corporations with a token in a city joined to `corp`'s first station by track that
    /// is not narrow gauge, whatever tokens stand between (18Ireland merger rule). Remembered
    /// (see [`JoinMemo`]).
    pub fn broad_joined(&self, map: &MapData, corp: CorpId) -> Vec<CorpId> {
        let joined = self.joins.get_or_compute(map, self, corp, || {
            self.stations(corp)
                .next()
                .map(|home| super::graph::tokened_over_broad(map, self, home))
                .unwrap_or_default()
        });
        joined.to_vec()
    }

    /// Whether `corp` has a token in city `city` of `hex`.
    pub fn city_tokened_by(&self, hex: HexIdx, city: usize, corp: CorpId) -> bool {
        city < MAX_CITIES && self.hexes[hex.get()].tokens[city].contains(&Some(corp))
    }

    /// Token graph predicate of the Token step (D.1), map part: a city reachable from the
    /// corporation's stations has a slot it may take.
    pub fn has_reachable_token_city(&self, map: &MapData, corp: CorpId) -> bool {
        self.seek(map, corp, Goal::TokenCity)
    }

    /// Whether `node` of `hex` is a city with a slot `corp` may take (reference
    /// `City#tokenable?` without price and token count).
    pub(crate) fn city_tokenable(&self, map: &MapData, corp: CorpId, hex: usize, node: u8) -> bool {
        let t = map.tile_def(self.hexes[hex].tile.def);
        t.cities.iter().position(|&c| c == node).is_some_and(|ci| {
            let at = Station {
                hex: HexIdx(hex as u16),
                city: ci as u8,
            };
            self.tokenable(map, corp, at).is_ok()
        })
    }

    /// Route predicate (D.1): from one station, at least two mandatory revenue nodes are
    /// connected. (The caller keeps it set once true, as the reference caches it.)
    pub fn route_available(&self, map: &MapData, corp: CorpId) -> bool {
        self.seek(map, corp, Goal::Route)
    }

    /// What the corporation's network reaches on this board (remembered, see [`ReachMemo`]).
    pub(crate) fn reach(&self, map: &MapData, corp: CorpId) -> Arc<Reach> {
        self.reaches
            .get_or_compute(map, self, corp, || Reach::compute(map, self, corp))
    }

    /// Whether the corporation's network meets `goal`: the remembered reach answers if there
    /// is one, else a walk that stops once the goal is met (most questions are answered near
    /// the stations); a walk that does not meet it has seen the whole network, which is
    /// remembered ([`ReachMemo`]).
    pub(crate) fn seek(&self, map: &MapData, corp: CorpId, goal: Goal) -> bool {
        if let Some(reach) = self.reaches.get(map, self, corp) {
            return goal.met_by(map, self, corp, &reach);
        }
        match Reach::seek(map, self, corp, goal) {
            Sought::Met => {
                debug_assert!(
                    goal.met_by(map, self, corp, &Reach::compute(map, self, corp)),
                    "the goal the shortened walk meets is one the whole reach meets"
                );
                true
            }
            Sought::Whole(reach) => {
                self.reaches.insert(map, self, corp, Arc::new(reach));
                false
            }
        }
    }

    /// Node definition and tile of a node on a hex.
    pub(crate) fn tile_def<'m>(&self, map: &'m MapData, hex: HexIdx) -> &'m TileDef {
        map.tile_def(self.hexes[hex.get()].tile.def)
    }

    /// The paths of the tile laid on `hex` that end on its edge `edge` (rotation applied), by
    /// path index: where a walk arriving over that edge may continue.
    pub(crate) fn paths_on_edge<'m>(
        &self,
        map: &'m MapData,
        hex: HexIdx,
        edge: u8,
    ) -> impl Iterator<Item = (u8, &'m PathDef)> + 'm {
        let t = self.tile_def(map, hex);
        let mut on_edge = t.paths_on_edge(self.hexes[hex.get()].rotation, edge);
        // In path order, lowest index first.
        std::iter::from_fn(move || {
            if on_edge == 0 {
                return None;
            }
            let qi = on_edge.trailing_zeros() as u8;
            on_edge &= on_edge - 1;
            Some((qi, &t.paths[usize::from(qi)]))
        })
    }

    /// Whether a node blocks a corporation from passing through (reference `blocks?`):
    /// offboards always; cities whose slots are all taken by other corporations.
    pub(crate) fn node_blocks(&self, map: &MapData, hex: HexIdx, node: u8, corp: CorpId) -> bool {
        let t = self.tile_def(map, hex);
        let n = &t.nodes[usize::from(node)];
        match n.kind {
            NodeKind::Offboard => true,
            NodeKind::Town => false,
            NodeKind::City => {
                let Some(ci) = t.cities.iter().position(|&c| c == node) else {
                    return false;
                };
                if ci >= MAX_CITIES {
                    return false;
                }
                let slots = usize::from(n.slots).min(MAX_SLOTS);
                let toks = &self.hexes[hex.get()].tokens[ci][..slots];
                !toks.contains(&Some(corp)) && toks.iter().all(Option::is_some)
            }
        }
    }
}

/// Whether a tile is an upgrade of the one on a hex ([`upgrade_fault`] says none), asked once
/// for all rotations: the answer does not depend on how either tile is turned (colours,
/// labels and counts do not turn; the track and the cities' grouping are compared at every
/// relative turn of the two tiles, and turning both alike changes no comparison).
#[derive(Default)]
struct Upgrade(Option<bool>);

impl Upgrade {
    fn fits(&mut self, old: &TileDef, old_rotation: u8, new: &TileDef, rotation: u8) -> bool {
        let fits = *self
            .0
            .get_or_insert_with(|| upgrade_fault(old, old_rotation, new, rotation).is_none());
        debug_assert_eq!(
            fits,
            upgrade_fault(old, old_rotation, new, rotation).is_none(),
            "an upgrade at one rotation is one at every rotation"
        );
        fits
    }
}

/// Reference `City#get_slot`: the corporation's reserved slot, else the first slot with neither
/// token nor reservation.
fn free_slot(tokens: &Slots, reserved: &Slots, slots: usize, corp: CorpId) -> Option<usize> {
    (0..slots)
        .find(|&s| reserved[s] == Some(corp) && tokens[s].is_none())
        .or_else(|| (0..slots).find(|&s| tokens[s].is_none() && reserved[s].is_none()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenErrorKind {
    NoSuchCity,
    AlreadyOnHex,
    NoSlot,
    Reserved,
}

impl TokenErrorKind {
    fn with_hex(self, hex: HexId) -> TokenError {
        match self {
            TokenErrorKind::NoSuchCity => TokenError::NoSuchCity,
            TokenErrorKind::AlreadyOnHex => TokenError::AlreadyOnHex(hex),
            TokenErrorKind::NoSlot => TokenError::NoSlot(hex),
            TokenErrorKind::Reserved => TokenError::Reserved(hex),
        }
    }
}

/// What laying `new` over `old` is and costs (terrain), once the lay is legal.
pub(crate) fn lay_outcome(map: &MapData, old: &TileDef, new: &TileDef) -> LayOutcome {
    // 18Ireland: no terrain when the new tile has only narrow track.
    let cost = if map.rules.narrow_lay_free && new.narrow_only() {
        0
    } else {
        old.upgrade_cost
    };
    LayOutcome {
        cost: Money(cost),
        upgrade: old.colour != Colour::White,
    }
}
