//! Static map data of a title: tile definitions, hexes, geometry. Loaded once from the title's
//! `map.json` (our own format, transcribed from the reference engine's map facts).
//!
//! The JSON format, per tile: `name`, `color`, `count` (manifest copies; 1 for per-hex
//! preprinted tiles), `preprinted`, `parts` (number of `;` parts of the reference code, so part
//! indices stay comparable with log ids), `nodes` (`part`, `kind` city/town/offboard, `revenue`
//! as a number or a `{colour: value}` map, `slots`, `groups`, `route`), `paths` (`a`/`b` as `eN`
//! for edge N or `nK` for the K-th node, optional `track` gauge and `terminal`), `label`,
//! `upgrade_cost`, `terrain`, `junction`. Per hex: `coord`, `tile` (preprinted tile name),
//! `copy`, `location`, `borders` (`edge`, `kind`), `icons`. Top level: `title`, `layout`,
//! optional `rules` ([`MapRules`]).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::ids::{HexId, Money, TileDefId, TileId};

/// Index of a hex in [`MapData::hexes`] (and in the board's per-hex state).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexIdx(pub u16);

impl HexIdx {
    /// The index as a `usize`, for slicing.
    pub fn get(self) -> usize {
        usize::from(self.0)
    }
}

/// How hexes are drawn, which decides the neighbour of each edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Pointy-topped hexes, letter = row (1836Jr30).
    Pointy,
    /// Flat-topped hexes, letter = column (18Ireland).
    Flat,
}

impl Layout {
    /// `(letter delta, number delta)` of the neighbour across each edge 0–5.
    pub fn edge_offsets(self) -> [(i16, i16); 6] {
        match self {
            Layout::Pointy => [(1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2), (1, 1)],
            Layout::Flat => [(0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)],
        }
    }
}

/// Tile colour. The declaration order is the reference engine's colour order, which drives the
/// "one colour up" upgrade rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Empty land.
    White,
    /// First tiles.
    Yellow,
    /// Second tiles.
    Green,
    /// Third tiles.
    Brown,
    /// Fourth tiles / preprinted gray hexes.
    Gray,
    /// Sea (impassable without track).
    Blue,
    /// Off-board areas (impassable without track).
    Red,
}

impl Colour {
    /// Position in the reference colour list (`white yellow green brown gray blue … red`).
    fn reference_index(self) -> u8 {
        match self {
            Colour::White => 0,
            Colour::Yellow => 1,
            Colour::Green => 2,
            Colour::Brown => 3,
            Colour::Gray => 4,
            Colour::Blue => 5,
            Colour::Red => 12,
        }
    }

    /// Whether `to` is exactly one colour above `self`.
    pub fn upgrades_to(self, to: Colour) -> bool {
        to.reference_index() == self.reference_index() + 1
    }

    /// Hexes of these colours only link to neighbours across edges with track.
    pub fn is_impassable(self) -> bool {
        matches!(self, Colour::Gray | Colour::Blue | Colour::Red)
    }

    /// Lower-case name, as in the data file and the reference engine.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Brown => "brown",
            Colour::Gray => "gray",
            Colour::Blue => "blue",
            Colour::Red => "red",
        }
    }
}

/// A revenue value: fixed, or depending on the newest tile colour of the phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revenue {
    /// The same in every phase.
    Flat(i64),
    /// Per phase colour (`yellow_40|brown_70`), and what a D train earns there instead, if
    /// the title gives one (`diesel_100`: 1889's offboards; reference `route_base_revenue`).
    ByColour(BTreeMap<Colour, i64>, Option<i64>),
}

impl<'de> Deserialize<'de> for Revenue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Flat(i64),
            ByPhase(BTreeMap<String, i64>),
        }
        match Raw::deserialize(d)? {
            Raw::Flat(v) => Ok(Revenue::Flat(v)),
            Raw::ByPhase(map) => {
                let mut colours = BTreeMap::new();
                let mut diesel = None;
                for (key, value) in map {
                    if key == "diesel" {
                        diesel = Some(value);
                    } else {
                        let colour: Colour = serde_json::from_value(serde_json::Value::String(key))
                            .map_err(serde::de::Error::custom)?;
                        colours.insert(colour, value);
                    }
                }
                Ok(Revenue::ByColour(colours, diesel))
            }
        }
    }
}

impl Revenue {
    /// The value for a train: a D train's where the node gives one, else the phase's.
    pub fn value_for(&self, phase_colours: &[Colour], diesel: bool) -> Money {
        match self {
            Revenue::ByColour(_, Some(d)) if diesel => Money(*d),
            _ => self.value(phase_colours),
        }
    }

    /// The value in a phase whose tile colours are `phase_colours` (reference rule: scan the
    /// phase's colours from last to first, take the first one present, else 0).
    pub fn value(&self, phase_colours: &[Colour]) -> Money {
        match self {
            Revenue::Flat(v) => Money(*v),
            Revenue::ByColour(map, _) => Money(
                phase_colours
                    .iter()
                    .rev()
                    .find_map(|c| map.get(c).copied())
                    .unwrap_or(0),
            ),
        }
    }

    /// The largest value in any phase (the reference's `max_revenue`).
    pub fn max(&self) -> Money {
        match self {
            Revenue::Flat(v) => Money(*v),
            Revenue::ByColour(map, diesel) => {
                Money(map.values().copied().chain(*diesel).max().unwrap_or(0))
            }
        }
    }
}

/// What kind of revenue location a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// A city with token slots.
    City,
    /// A town (no slots).
    Town,
    /// An off-board location; never passed through.
    Offboard,
}

/// Whether a node counts for the "route available" test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RouteUse {
    /// Counts (default).
    #[default]
    Mandatory,
    /// Counts only together with a mandatory node.
    Optional,
    /// Never counts (1836Jr30 ports).
    Never,
}

/// Track gauge of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gauge {
    /// Standard track (default).
    #[default]
    Broad,
    /// Narrow gauge (18Ireland).
    Narrow,
    /// Both.
    Dual,
}

impl Gauge {
    /// Whether a path of this gauge may continue onto / be replaced by one of `other`
    /// (broad↔broad/dual, narrow↔narrow/dual, dual↔dual).
    pub fn fits(self, other: Gauge) -> bool {
        match self {
            Gauge::Broad => matches!(other, Gauge::Broad | Gauge::Dual),
            Gauge::Narrow => matches!(other, Gauge::Narrow | Gauge::Dual),
            Gauge::Dual => other == Gauge::Dual,
        }
    }

    /// Whether trains can pass between paths of these gauges (dual joins anything).
    pub fn joins(self, other: Gauge) -> bool {
        self == Gauge::Dual || other == Gauge::Dual || self == other
    }
}

/// One revenue location of a tile definition.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct NodeDef {
    /// Part index in the reference code string (city ids `57-2-0`, signatures `D6-1`).
    pub part: u8,
    /// City, town or offboard.
    pub kind: NodeKind,
    /// Revenue.
    pub revenue: Revenue,
    /// Token slots (cities only).
    #[serde(default)]
    pub slots: u8,
    /// Groups (`port`): a route may use each group once.
    #[serde(default)]
    pub groups: Vec<String>,
    /// Route-availability class.
    #[serde(default)]
    pub route: RouteUse,
}

impl NodeDef {
    /// Whether the node belongs to `group`.
    pub fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }
}

/// One end of a path: an edge (before rotation) or a node of the tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// Edge 0–5 of the unrotated tile.
    Edge(u8),
    /// Index into the tile's `nodes`.
    Node(u8),
}

impl End {
    /// The end after turning the tile by `rotation` sixths.
    pub fn rotated(self, rotation: u8) -> End {
        match self {
            End::Edge(e) => End::Edge((e + rotation) % 6),
            n => n,
        }
    }
}

impl<'de> Deserialize<'de> for End {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<End, D::Error> {
        let s = String::deserialize(d)?;
        let bad = || serde::de::Error::custom(format!("bad path end `{s}` (want eN or nN)"));
        let (kind, num) = s.split_at_checked(1).ok_or_else(bad)?;
        let num: u8 = num.parse().map_err(|_| bad())?;
        match kind {
            "e" if num < 6 => Ok(End::Edge(num)),
            "n" => Ok(End::Node(num)),
            _ => Err(bad()),
        }
    }
}

/// A track segment of a tile definition.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "PathFields")]
pub struct PathDef {
    /// First end.
    pub a: End,
    /// Second end.
    pub b: End,
    /// Trains may not run through (`terminal:1`).
    pub terminal: bool,
    /// Gauge.
    pub gauge: Gauge,
    /// The ends' edges (unrotated, `a`'s first) and nodes, worked out once: the graph and
    /// route walks ask for them at every step.
    edge_ends: ([u8; 2], u8),
    node_ends: ([u8; 2], u8),
}

/// A path as the data files write it.
#[derive(Deserialize)]
struct PathFields {
    a: End,
    b: End,
    #[serde(default)]
    terminal: bool,
    #[serde(default, rename = "track")]
    gauge: Gauge,
}

impl From<PathFields> for PathDef {
    fn from(f: PathFields) -> PathDef {
        let mut edge_ends = ([0; 2], 0);
        let mut node_ends = ([0; 2], 0);
        for end in [f.a, f.b] {
            let (list, value) = match end {
                End::Edge(e) => (&mut edge_ends, e),
                End::Node(n) => (&mut node_ends, n),
            };
            list.0[usize::from(list.1)] = value;
            list.1 += 1;
        }
        PathDef {
            a: f.a,
            b: f.b,
            terminal: f.terminal,
            gauge: f.gauge,
            edge_ends,
            node_ends,
        }
    }
}

impl PathDef {
    /// Both ends.
    pub fn ends(&self) -> [End; 2] {
        [self.a, self.b]
    }

    /// Rotated edge numbers of the path's edge ends.
    pub fn edges(&self, rotation: u8) -> impl Iterator<Item = u8> {
        let rotation = rotation % 6;
        let (edges, count) = self.edge_ends;
        // Edges are below 6 (the reader refuses others), so one subtraction is `% 6`.
        edges.into_iter().take(usize::from(count)).map(move |e| {
            let turned = e + rotation;
            if turned >= 6 {
                turned - 6
            } else {
                turned
            }
        })
    }

    /// Node indices the path touches.
    pub fn nodes(&self) -> impl Iterator<Item = u8> {
        let (nodes, count) = self.node_ends;
        nodes.into_iter().take(usize::from(count))
    }
}

/// A tile definition: catalogue tile of the manifest or preprinted hex tile.
#[derive(Debug, Clone, Deserialize)]
pub struct TileDef {
    /// Name (`57`, `blank`, or the coordinate of a preprinted hex).
    pub name: String,
    /// Colour.
    #[serde(rename = "color")]
    pub colour: Colour,
    /// Copies (manifest count; group size for catalogue-named preprinted groups).
    pub count: u16,
    /// Printed on the map, never in the supply.
    #[serde(default)]
    pub preprinted: bool,
    /// Number of parts of the reference code (informational).
    #[serde(default)]
    pub parts: u8,
    /// Revenue locations, in declaration order.
    #[serde(default)]
    pub nodes: Vec<NodeDef>,
    /// Track segments.
    #[serde(default)]
    pub paths: Vec<PathDef>,
    /// Upgrade label (`OO`, `NY`, `B`).
    #[serde(default)]
    pub label: Option<String>,
    /// Cost paid when this tile is covered.
    #[serde(default)]
    pub upgrade_cost: i64,
    /// Terrain types of that cost.
    #[serde(default)]
    pub terrain: Vec<String>,
    /// The reference code has a junction joining all its edges; the data lists it as one
    /// edge-to-edge path per pair of edges (18Ireland gray `60`).
    #[serde(default)]
    pub junction: bool,
    /// Only a private's ability lays it (the reference's icon `blocks_lay`: 1889's port 437).
    #[serde(default)]
    pub blocks_lay: bool,
    /// In the supply only under this optional rule (1889's beginner tiles `Beg6`…).
    #[serde(default)]
    pub optional_rule: Option<String>,
    /// Never runs out: a new copy comes into the supply whenever one is laid (18Chesapeake's
    /// 7, 8 and 9; the reference numbers the copies 7-0, 7-1, …).
    #[serde(default)]
    pub unlimited: bool,
    /// Node indices of the cities, in order (the reference's `tile.cities`).
    #[serde(skip)]
    pub cities: Vec<u8>,
    /// Number of towns.
    #[serde(skip)]
    pub towns: u8,
    /// Per edge of the unrotated tile, the paths ending on it (bit per path index): the graph
    /// walks ask "which paths leave over this edge" at every step.
    #[serde(skip)]
    pub(crate) paths_by_edge: [u32; 6],
}

impl TileDef {
    /// The paths (bit per path index) that end on `edge` when the tile is turned by `rotation`.
    pub(crate) fn paths_on_edge(&self, rotation: u8, edge: u8) -> u32 {
        if edge >= 6 {
            return 0;
        }
        self.paths_by_edge[usize::from((edge + 6 - rotation % 6) % 6)]
    }

    /// Node index of the city with the given part index.
    pub fn city_by_part(&self, part: u8) -> Option<usize> {
        self.cities
            .iter()
            .position(|&n| self.nodes[usize::from(n)].part == part)
    }

    /// Rotated exits (each edge once).
    pub fn exits(&self, rotation: u8) -> u8 {
        self.paths
            .iter()
            .flat_map(|p| p.edges(rotation))
            .fold(0, |m, e| m | 1 << e)
    }

    /// Whether every path is narrow gauge (vacuously true without paths), the reference's
    /// How many copies the supply can hold: the count, or as many as the supply tracks for an
    /// unlimited tile.
    pub fn copies(&self) -> u16 {
        if self.unlimited {
            64
        } else {
            self.count
        }
    }

    /// "tile has only narrow track" test for 18Ireland's terrain waiver.
    pub fn narrow_only(&self) -> bool {
        self.paths.iter().all(|p| p.gauge == Gauge::Narrow)
    }

    /// Whether every path touching node `node` is narrow gauge (18Ireland narrow bonus).
    pub fn node_narrow_only(&self, node: u8) -> bool {
        self.paths
            .iter()
            .filter(|p| p.nodes().any(|n| n == node))
            .all(|p| p.gauge == Gauge::Narrow)
    }

    /// Rotated exits of the paths touching node `node`.
    pub fn node_exits(&self, node: u8, rotation: u8) -> u8 {
        self.paths
            .iter()
            .filter(|p| p.nodes().any(|n| n == node))
            .flat_map(|p| p.edges(rotation))
            .fold(0, |m, e| m | 1 << e)
    }
}

#[derive(Debug, Deserialize)]
struct RawBorder {
    edge: u8,
    kind: String,
}

#[derive(Debug, Deserialize)]
struct RawHex {
    coord: String,
    tile: String,
    copy: u16,
    #[serde(default)]
    location: Option<String>,
    #[serde(default)]
    borders: Vec<RawBorder>,
    #[serde(default)]
    icons: Vec<String>,
}

/// Title rules that change how the map checks lays and runs routes. All off for 1836Jr30.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub struct MapRules {
    /// Track has gauges (18Ireland): the corporation's graph, trains and token reach use broad
    /// track only; narrow lays may connect through the narrow network; tile exits must match
    /// the neighbours' gauge.
    #[serde(default)]
    pub gauges: bool,
    /// No terrain cost when the new tile has only narrow track (18Ireland).
    #[serde(default)]
    pub narrow_lay_free: bool,
    /// A special lay (one that skips the connectivity check) may put a red tile on a blue
    /// hex (18Ireland Irish Mail).
    #[serde(default)]
    pub red_on_blue: bool,
    /// A tile-level home reservation lets other corporations token the tile only while more
    /// slots are free than reservations held by others (reference
    /// `TILE_RESERVATION_BLOCKS_OTHERS = :never`); otherwise it blocks them (`:always`,
    /// 1836Jr30).
    #[serde(default)]
    pub reservations_share_slots: bool,
    /// A corporation's own lay must give it new track or change a city's value on its
    /// network (the reference's `TRACK_RESTRICTION = :semi_restrictive`: 18Ireland, 1889);
    /// otherwise any legal upgrade may be laid (`:permissive`, 1836Jr30, 1830).
    #[serde(default)]
    pub semi_restrictive: bool,
}

#[derive(Debug, Deserialize)]
struct RawMap {
    title: String,
    layout: Layout,
    #[serde(default)]
    rules: MapRules,
    tiles: Vec<TileDef>,
    hexes: Vec<RawHex>,
}

/// One hex of the map.
#[derive(Debug, Clone)]
pub struct HexDef {
    /// Coordinate.
    pub id: HexId,
    /// The preprinted tile.
    pub tile: TileId,
    /// Location name, if printed.
    pub location: Option<String>,
    /// Edges with an impassable border (bit per edge).
    pub impassable: u8,
    /// Icons printed on the hex that stay through upgrades (`port` in 18Ireland).
    pub icons: Vec<String>,
    /// Geometric neighbour across each edge (ignoring walls).
    pub all_neighbours: [Option<HexIdx>; 6],
    /// Neighbour across each edge that track can reach at the start of the game: no
    /// impassable border, and an impassable-colour neighbour only across its track.
    pub neighbours: [Option<HexIdx>; 6],
}

/// A problem in a title's map data file (a build-time bug, reported instead of panicking).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapDataError {
    /// The JSON does not parse.
    #[error("map data is not valid: {0}")]
    Json(String),
    /// A hex names a tile that is not defined, or a bad coordinate.
    #[error("map data: {0}")]
    Invalid(String),
}

/// Static map data of a title.
#[derive(Debug, Clone)]
pub struct MapData {
    /// Title name.
    pub title: String,
    /// Hex layout.
    pub layout: Layout,
    /// Title rules for lays and routes.
    pub rules: MapRules,
    /// Tile definitions, manifest first, then preprinted tiles.
    pub tiles: Vec<TileDef>,
    /// Hexes, in data-file order.
    pub hexes: Vec<HexDef>,
    by_coord: BTreeMap<HexId, HexIdx>,
    by_name: BTreeMap<String, TileDefId>,
}

impl MapData {
    /// Parse a map data file.
    pub fn from_json(text: &str) -> Result<MapData, MapDataError> {
        MapData::from_raw(
            serde_json::from_str(text).map_err(|e| MapDataError::Json(e.to_string()))?,
        )
    }

    /// Read a map data file compiled into the binary (see [`crate::engine::title`]).
    pub(crate) fn from_embedded(
        data: &'static crate::engine::title::embedded::Data,
    ) -> Result<MapData, MapDataError> {
        MapData::from_raw(RawMap::deserialize(data).map_err(|e| MapDataError::Json(e.to_string()))?)
    }

    fn from_raw(raw: RawMap) -> Result<MapData, MapDataError> {
        let mut tiles = raw.tiles;
        let mut by_name = BTreeMap::new();
        for (i, t) in tiles.iter_mut().enumerate() {
            t.cities = (0..t.nodes.len() as u8)
                .filter(|&n| t.nodes[usize::from(n)].kind == NodeKind::City)
                .collect();
            t.towns = t.nodes.iter().filter(|n| n.kind == NodeKind::Town).count() as u8;
            if t.paths.len() > 32 {
                // The graph walks keep a tile's paths as bits of a u32.
                return Err(MapDataError::Invalid(format!(
                    "tile {} has more than 32 paths",
                    t.name
                )));
            }
            t.paths_by_edge = [0; 6];
            for (pi, p) in t.paths.iter().enumerate() {
                for e in p.edges(0) {
                    t.paths_by_edge[usize::from(e)] |= 1 << pi;
                }
            }
            for p in &t.paths {
                if p.nodes().any(|n| usize::from(n) >= t.nodes.len()) {
                    return Err(MapDataError::Invalid(format!(
                        "tile {} has a path to a missing node",
                        t.name
                    )));
                }
            }
            let id = TileDefId(
                u16::try_from(i).map_err(|_| MapDataError::Invalid("too many tiles".into()))?,
            );
            if by_name.insert(t.name.clone(), id).is_some() {
                return Err(MapDataError::Invalid(format!(
                    "tile {} defined twice",
                    t.name
                )));
            }
        }
        let mut hexes = Vec::with_capacity(raw.hexes.len());
        let mut by_coord = BTreeMap::new();
        for (i, h) in raw.hexes.iter().enumerate() {
            let id: HexId = h
                .coord
                .parse()
                .map_err(|e| MapDataError::Invalid(format!("{e}")))?;
            let def = *by_name.get(&h.tile).ok_or_else(|| {
                MapDataError::Invalid(format!("hex {} uses unknown tile {}", h.coord, h.tile))
            })?;
            let mut impassable = 0u8;
            for b in &h.borders {
                if b.kind == "impassable" && b.edge < 6 {
                    impassable |= 1 << b.edge;
                }
            }
            by_coord.insert(id, HexIdx(i as u16));
            hexes.push(HexDef {
                id,
                tile: TileId { def, copy: h.copy },
                location: h.location.clone(),
                impassable,
                icons: h.icons.clone(),
                all_neighbours: [None; 6],
                neighbours: [None; 6],
            });
        }
        let offsets = raw.layout.edge_offsets();
        for i in 0..hexes.len() {
            let id = hexes[i].id;
            for (e, (dl, dn)) in offsets.iter().enumerate() {
                let letter = i16::from(id.letter) + dl;
                let Ok(letter) = u8::try_from(letter) else {
                    continue;
                };
                let Some(&n) = by_coord.get(&HexId::new(letter, id.number + dn)) else {
                    continue;
                };
                hexes[i].all_neighbours[e] = Some(n);
                let ntile = &tiles[usize::from(hexes[n.get()].tile.def.0)];
                let facing = ((e + 3) % 6) as u8;
                let blocked_by_colour =
                    ntile.colour.is_impassable() && ntile.paths_on_edge(0, facing) == 0;
                if !blocked_by_colour && hexes[i].impassable & (1 << e) == 0 {
                    hexes[i].neighbours[e] = Some(n);
                }
            }
        }
        Ok(MapData {
            title: raw.title,
            layout: raw.layout,
            rules: raw.rules,
            tiles,
            hexes,
            by_coord,
            by_name,
        })
    }

    /// The index of a hex, if it is on the map.
    pub fn hex_index(&self, hex: HexId) -> Option<HexIdx> {
        self.by_coord.get(&hex).copied()
    }

    /// A hex by index.
    pub fn hex_def(&self, hex: HexIdx) -> &HexDef {
        &self.hexes[hex.get()]
    }

    /// A hex by coordinate.
    pub fn hex(&self, hex: HexId) -> Option<&HexDef> {
        self.hex_index(hex).map(|i| self.hex_def(i))
    }

    /// A tile definition by name.
    pub fn tile_def_by_name(&self, name: &str) -> Option<TileDefId> {
        self.by_name.get(name).copied()
    }

    /// A tile definition. Ids come from this map data; a foreign id yields the first tile
    /// rather than a panic.
    pub fn tile_def(&self, id: TileDefId) -> &TileDef {
        self.tiles.get(usize::from(id.0)).unwrap_or(&self.tiles[0])
    }

    /// Parse a physical tile id such as `57-2` or `G7-2`: split at the last `-`, check the copy
    /// exists (manifest count, or the preprinted hex's own copy number).
    pub fn parse_tile_id(&self, s: &str) -> Option<TileId> {
        let (name, copy) = s.rsplit_once('-')?;
        if copy.is_empty() || !copy.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let copy: u16 = copy.parse().ok()?;
        self.tile_copy(self.tile_def_by_name(name)?, copy)
    }

    /// Copy `copy` of a tile definition, if it exists (see [`MapData::parse_tile_id`]).
    pub fn tile_copy(&self, def: TileDefId, copy: u16) -> Option<TileId> {
        let tile = TileId { def, copy };
        let t = self.tile_def(def);
        if t.preprinted {
            self.hexes.iter().any(|h| h.tile == tile).then_some(tile)
        } else {
            (copy < t.copies()).then_some(tile)
        }
    }

    /// Display form of a tile id (`57-2`).
    pub fn tile_name(&self, tile: TileId) -> String {
        format!("{}-{}", self.tile_def(tile.def).name, tile.copy)
    }

    /// Parse a city id such as `57-2-0` (tile id, then the part index of a city).
    pub fn parse_city_ref(&self, s: &str) -> Option<crate::ids::CityRef> {
        let (tile, part) = s.rsplit_once('-')?;
        let tile = self.parse_tile_id(tile)?;
        let part: u8 = part.parse().ok()?;
        self.tile_def(tile.def).city_by_part(part)?;
        Some(crate::ids::CityRef { tile, part })
    }

    /// Number of hexes.
    pub fn hex_count(&self) -> usize {
        self.hexes.len()
    }
}
