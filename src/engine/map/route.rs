//! Route revenue from a `run_routes` action's `connections` (rules C.8) and route validation
//! (reference `Route#revenue` checks).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use super::board::{Board, MAX_CITIES};
use super::data::{Colour, Gauge, HexIdx, MapData, NodeDef, NodeKind};
use crate::action::RouteSpec;
use crate::ids::{CorpId, HexId, Money, TileDefId};

/// How well a join of two segments fits: how many of its nodes stand where the log's stop
/// signatures (in route order) put them, whether it visits no node twice, and how many of its
/// three nodes the signatures name anywhere.
type JoinScore = (usize, bool, usize);

/// One train's route to evaluate: the logged route and the train's distance (stops, or hex
/// edges under [`DistanceMode::HexEdges`]).
#[derive(Debug, Clone, Copy)]
pub struct TrainRoute<'a> {
    /// The logged route.
    pub spec: &'a RouteSpec,
    /// Stops (or hex edges) the train may count (999 for 1836Jr30 D trains, 99 for 18Ireland).
    pub distance: u32,
    /// A D train: it earns a node's diesel value where the node has one (1889's offboards;
    /// the reference's `route_base_revenue` asks for a train named D).
    pub diesel: bool,
}

/// What a train's distance counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DistanceMode {
    /// Stops visited (1836Jr30).
    #[default]
    Stops,
    /// Hex edges crossed, summed over the route's segments; every stop counts (18Ireland).
    HexEdges,
}

/// How a title evaluates runs: distance rule, revenue hook and the bonuses that depend on
/// game state the map does not hold (private companies, assignments).
#[derive(Debug, Clone, Copy)]
pub struct RunContext<'a> {
    /// What the train's distance counts.
    pub distance: DistanceMode,
    /// Title rule applied to the stops (1836Jr30 ports).
    pub hook: RevenueHook,
    /// 18Ireland narrow-gauge bonus: from every stop, nodes reached over narrow-only track
    /// add their revenue.
    pub narrow_bonus: bool,
    /// Extra revenue for a route with a stop on the hex (18Ireland TASPS +20 at Galway, CDSPC
    /// +10 at its port), each counted once per route.
    pub hex_bonuses: &'a [(HexId, Money)],
    /// 18Ireland RSSC owned by the runner: the two river cities (Dromod, Limerick). The best
    /// route of the run stopping at one of them adds the other's city value with its
    /// narrow-gauge bonus.
    pub shannon: Option<[HexId; 2]>,
}

impl RunContext<'static> {
    /// Stops distance, the given hook, no bonuses.
    pub fn plain(hook: RevenueHook) -> RunContext<'static> {
        RunContext {
            distance: DistanceMode::Stops,
            hook,
            narrow_bonus: false,
            hex_bonuses: &[],
            shannon: None,
        }
    }
}

/// A stop of an evaluated route, as the title's revenue hook sees it.
#[derive(Debug, Clone, Copy)]
pub struct Stop<'m> {
    /// Hex.
    pub hex: HexId,
    /// Part index of the node on its tile (node signature `hex-part`).
    pub part: u8,
    /// Node definition.
    pub node: &'m NodeDef,
    /// Revenue of the node in the current phase.
    pub value: Money,
    /// The node is a city holding a token of the running corporation.
    pub tokened_by_runner: bool,
}

/// A title rule applied to a route's stops after summing their values (1836Jr30 ports;
/// 18Ireland will add its own). Gets the stops and the plain sum, returns the route revenue.
pub type RevenueHook = fn(&[Stop<'_>], Money) -> Result<Money, RouteErrorKind>;

/// No title rule: the revenue is the sum of the stops.
pub fn plain_revenue(_stops: &[Stop<'_>], sum: Money) -> Result<Money, RouteErrorKind> {
    Ok(sum)
}

/// The evaluation of one route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteRevenue {
    /// Revenue.
    pub revenue: Money,
    /// Stops in route order, as node signatures `(hex, part)`.
    pub stops: Vec<(HexId, u8)>,
}

/// What is wrong with a route.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RouteErrorKind {
    /// A connection names a hex that is not on the map, or is empty.
    #[error("connection names no hex of the map")]
    BadConnection,
    /// No track matches a connection's hexes.
    #[error("no track joins the hexes {}", hex_chain(.0))]
    NoSuchTrack(Vec<HexId>),
    /// Consecutive connections do not share exactly one stop.
    #[error("connections do not join at a stop")]
    NotJoined,
    /// Fewer than two stops.
    #[error("route must have at least 2 stops")]
    TooFewStops,
    /// No stop holds the corporation's token.
    #[error("route must contain a token")]
    NoToken,
    /// A group (port) used twice.
    #[error("cannot use group {0} more than once")]
    GroupTwice(String),
    /// A stop visited twice.
    #[error("cannot use {0} twice")]
    StopTwice(HexId),
    /// More stops than the train may count.
    #[error("{stops} is too many stops for a {distance} train")]
    TooLong {
        /// Stops of the route.
        stops: u32,
        /// Train distance.
        distance: u32,
    },
    /// More hex edges than the train may cross (18Ireland).
    #[error("{edges} is too many hex edges for a {distance}H train")]
    TooManyEdges {
        /// Hex edges crossed.
        edges: u32,
        /// Train distance.
        distance: u32,
    },
    /// Track used twice in the run.
    #[error("route cannot reuse track on {0}")]
    TrackReused(HexId),
    /// Passing through a stop that blocks (offboard, city full of other tokens).
    #[error("route cannot pass through {0}")]
    Blocked(HexId),
    /// Passing through a terminal path.
    #[error("route cannot pass through a terminal")]
    ThroughTerminal,
    /// 1836Jr30: a port on a route with fewer than three stops.
    #[error("{0} must contain 2 other stops")]
    PortNeedsThreeStops(HexId),
}

/// Hexes as a route's connection is written: `H6-H2`.
fn hex_chain(hexes: &[HexId]) -> String {
    hexes
        .iter()
        .map(HexId::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

/// A route error with the index of the route in the action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("route {route}: {kind}")]
pub struct RouteError {
    /// 0-based route index.
    pub route: usize,
    /// What is wrong.
    pub kind: RouteErrorKind,
}

type NodeRef = (u16, u8);
type PathRef = (u16, u8);

/// A walk over a connection's hexes from one stop to another. Its paths are kept, in the
/// walk's direction, in a list the run's walks share ([`Chain::paths`]).
#[derive(Debug, Clone, Copy)]
struct Chain {
    nodes: [NodeRef; 2],
    start: u32,
    end: u32,
}

impl Chain {
    fn paths<'a>(&self, arena: &'a [PathRef]) -> &'a [PathRef] {
        &arena[self.start as usize..self.end as usize]
    }

    fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    /// The chain with its paths moved in the arena from `from..` to `to..` (a memo keeps them
    /// from 0).
    fn moved(self, from: u32, to: u32) -> Chain {
        Chain {
            start: self.start - from + to,
            end: self.end - from + to,
            ..self
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Conn {
    left: NodeRef,
    right: NodeRef,
    chain: Chain,
}

/// What run checks worked out on a board and its clones, each with the state of the hexes
/// it read then (the tile, its rotation and the links of each): the track matched to a
/// connection, by the connection's hexes, and a stop's narrow-gauge bonus. A corporation runs
/// much the same routes turn after turn over hexes nothing was laid on since, so most are
/// found here.
#[derive(Clone, Default)]
pub(crate) struct RunMemo(Arc<Mutex<RunMemoEntries>>);

#[derive(Default)]
struct RunMemoEntries {
    /// The map's address: a board is only ever used with the map it was made for; the address
    /// guards against a caller mixing them up.
    map: usize,
    chains: HashMap<u64, ChainEntry, BuildHasherDefault<MixedKey>>,
    narrow: HashMap<u64, NarrowEntry, BuildHasherDefault<MixedKey>>,
}

impl RunMemoEntries {
    /// Forgets everything if the board is asked with another map (or for the first time).
    fn for_map(&mut self, map: &MapData) {
        let address = std::ptr::from_ref(map) as usize;
        if self.map != address {
            self.map = address;
            self.chains.clear();
            self.narrow.clear();
        }
    }
}

struct NarrowEntry {
    stop: NodeRef,
    phase_colours: Vec<Colour>,
    /// The hexes the walk read, with their state then.
    reads: Vec<(u16, HexMatchState)>,
    bonus: Money,
}

struct ChainEntry {
    /// The connection's hexes (another connection may have the same key; it then takes the
    /// entry over).
    hexes: Vec<HexIdx>,
    states: Vec<HexMatchState>,
    /// The chains, their paths at `start..end` of `paths`.
    chains: Vec<Chain>,
    paths: Vec<PathRef>,
}

/// What matching a connection, or the narrow-gauge walk, reads of a hex.
type HexMatchState = (TileDefId, u8, u8);

/// Connections (and stops) a memo keeps before it starts afresh (a game has a few hundred).
const RUN_MEMO_ENTRIES: usize = 4096;

/// A connection's hexes mixed into one number, the memo's key: hashing the hexes one by one
/// with the standard hasher cost as much as the matching it saved.
fn chain_key(hexes: &[HexIdx]) -> u64 {
    hexes.iter().fold(hexes.len() as u64, |k, h| {
        (k ^ u64::from(h.0)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    })
}

/// The hasher of keys that are mixed already ([`chain_key`]).
#[derive(Default)]
struct MixedKey(u64);

impl Hasher for MixedKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

impl PartialEq for RunMemo {
    /// Boards are equal by their state; what they remember of it does not count.
    fn eq(&self, _: &RunMemo) -> bool {
        true
    }
}

impl Eq for RunMemo {}

impl std::fmt::Debug for RunMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RunMemo")
    }
}

/// A join of two connections' chains: their indices, the outer nodes and the shared one.
type Join = (usize, usize, NodeRef, NodeRef, NodeRef);

/// The lists of a run check, kept per thread from check to check (a check that fails drops
/// them; one inside another, which none is, would start with empty ones).
#[derive(Debug, Default)]
struct RunLists {
    /// Per hex, the paths (bit per path index) of the routes matched so far: a later route's
    /// connections avoid them.
    taken: Vec<u32>,
    /// Track may be used once in the whole run (reference `check_overlap`): per hex, the
    /// edges (bits 0-5) and the paths joining two nodes (bit 32 + path index) claimed.
    claimed: Vec<u64>,
    /// The paths of the chains matched ([`Chain::paths`]).
    arena: Vec<PathRef>,
    scratch: Scratch,
}

thread_local! {
    static RUN_LISTS: RefCell<RunLists> = RefCell::default();
}

/// Lists a run check fills and empties for every connection and route, kept for the next.
#[derive(Debug, Default)]
struct Scratch {
    /// A connection's hexes.
    hexes: Vec<HexIdx>,
    /// A route's candidate chains, connection after connection; connection `k`'s are
    /// `chains[bounds[k]..bounds[k + 1]]`.
    chains: Vec<Chain>,
    bounds: Vec<usize>,
    /// The possible joins of two connections.
    joins: Vec<Join>,
    /// The chains taken while a route's connections are joined.
    joined: Vec<Chain>,
    walk: WalkLists,
}

/// The lists of the track walks that match connections.
#[derive(Debug, Default)]
struct WalkLists {
    /// The walk's paths so far, one per hex.
    stack: Vec<PathRef>,
    /// The edges it left hexes by.
    counter: Vec<(u16, u8)>,
    /// The walks found, one after the other.
    found: Vec<PathRef>,
}

impl Board {
    /// Evaluate the routes of a `run_routes` action for `corp` in a phase with tile colours
    /// `phase_colours`: rebuild each route from its connections (C.8), validate it like the
    /// reference engine and compute its revenue, applying the title's `hook`.
    pub fn compute_run(
        &self,
        map: &MapData,
        corp: CorpId,
        routes: &[TrainRoute<'_>],
        phase_colours: &[Colour],
        hook: RevenueHook,
    ) -> Result<Vec<RouteRevenue>, RouteError> {
        self.compute_run_with(map, corp, routes, phase_colours, &RunContext::plain(hook))
    }

    /// [`Board::compute_run`] with the title's full run rules (distance mode, bonuses).
    pub fn compute_run_with(
        &self,
        map: &MapData,
        corp: CorpId,
        routes: &[TrainRoute<'_>],
        phase_colours: &[Colour],
        ctx: &RunContext<'_>,
    ) -> Result<Vec<RouteRevenue>, RouteError> {
        // The lists of the thread's last check, emptied: their room is kept from run to run.
        let mut lists = RUN_LISTS.with(RefCell::take);
        let RunLists {
            taken,
            claimed,
            arena,
            scratch,
        } = &mut lists;
        taken.clear();
        taken.resize(self.hexes.len(), 0);
        claimed.clear();
        claimed.resize(self.hexes.len(), 0);
        arena.clear();
        let mut overlap: Vec<Option<HexId>> = vec![None; routes.len()];
        let mut conns: Vec<Vec<Conn>> = Vec::with_capacity(routes.len());
        for (ri, r) in routes.iter().enumerate() {
            let err = |kind| RouteError { route: ri, kind };
            let c = self
                .connection_data(map, corp, r.spec, taken, arena, scratch)
                .map_err(err)?;
            for &(h, pi) in c.iter().flat_map(|c| c.chain.paths(arena)) {
                let st = &self.hexes[usize::from(h)];
                let p = &map.tile_def(st.tile.def).paths[usize::from(pi)];
                let cell = &mut claimed[usize::from(h)];
                let mut claim = |bit: u64| {
                    if *cell & bit != 0 {
                        overlap[ri].get_or_insert(map.hexes[usize::from(h)].id);
                    } else {
                        *cell |= bit;
                    }
                };
                for e in p.edges(st.rotation) {
                    claim(1 << e);
                }
                if p.nodes().count() > 1 {
                    claim(1 << (32 + u32::from(pi)));
                }
            }
            for &(h, pi) in c.iter().flat_map(|c| c.chain.paths(arena)) {
                taken[usize::from(h)] |= 1 << pi;
            }
            conns.push(c);
        }
        let mut out = Vec::with_capacity(routes.len());
        // The narrow-gauge bonus of each stop met so far: routes of a run share stops.
        let mut narrow: Vec<(NodeRef, Money)> = Vec::new();
        for (ri, (r, c)) in routes.iter().zip(&conns).enumerate() {
            let err = |kind| RouteError { route: ri, kind };
            out.push(
                self.evaluate(
                    map,
                    corp,
                    r,
                    c,
                    arena,
                    overlap[ri],
                    phase_colours,
                    ctx,
                    &mut narrow,
                )
                .map_err(err)?,
            );
        }
        if let Some(river) = ctx.shannon {
            self.add_shannon(map, river, &conns, phase_colours, &mut out);
        }
        RUN_LISTS.with(|l| l.replace(lists));
        Ok(out)
    }

    /// 18Ireland RSSC: each route's option is the best "other river city" value over its city
    /// stops on a river hex; the route with the largest option gets it, the last of them on a
    /// tie (reference `shannon_revenue`: `sort_by` on the option, then `reverse.first`).
    fn add_shannon(
        &self,
        map: &MapData,
        river: [HexId; 2],
        conns: &[Vec<Conn>],
        phase_colours: &[Colour],
        out: &mut [RouteRevenue],
    ) {
        let values = self.shannon_values(map, river, phase_colours);
        let mut best: Option<(usize, Money)> = None;
        for (ri, c) in conns.iter().enumerate() {
            let mut option = Money(0);
            for conn in c {
                for (h, n) in [conn.left, conn.right] {
                    let t = self.tile_def(map, HexIdx(h));
                    if t.nodes[usize::from(n)].kind != NodeKind::City {
                        continue;
                    }
                    let hex = map.hexes[usize::from(h)].id;
                    if let Some(&(_, v)) = values.iter().find(|(r, _)| *r == hex) {
                        option = option.max(v);
                    }
                }
            }
            if best.is_none_or(|(_, b)| option >= b) {
                best = Some((ri, option));
            }
        }
        if let Some((ri, bonus)) = best {
            out[ri].revenue += bonus;
        }
    }

    /// 18Ireland RSSC: for each river hex, what a route stopping at its city earns from the
    /// other river city (its first city's value and narrow-gauge bonus).
    pub(crate) fn shannon_values(
        &self,
        map: &MapData,
        river: [HexId; 2],
        phase_colours: &[Colour],
    ) -> Vec<(HexId, Money)> {
        let value = |hex: HexId| -> Money {
            let Some(h) = map.hex_index(hex) else {
                return Money(0);
            };
            let t = self.tile_def(map, h);
            let Some(&node) = t.cities.first() else {
                return Money(0);
            };
            t.nodes[usize::from(node)].revenue.value(phase_colours)
                + self.narrow_bonus(map, (h.0, node), phase_colours)
        };
        vec![(river[0], value(river[1])), (river[1], value(river[0]))]
    }

    /// 18Ireland narrow-gauge bonus of one stop (reference walk): from the stop, walk over
    /// non-broad track; every node reached for the first time adds its value if all its
    /// track is narrow, and the walk only continues through such nodes.
    pub(crate) fn narrow_bonus(
        &self,
        map: &MapData,
        stop: (u16, u8),
        phase_colours: &[Colour],
    ) -> Money {
        let key = (u64::from(stop.0) << 8 | u64::from(stop.1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // A poisoned memo only means a panic elsewhere left it half-written: do without it.
        if let Ok(mut memo) = self.runs.0.lock() {
            memo.for_map(map);
            if let Some(e) = memo.narrow.get(&key) {
                if e.stop == stop
                    && e.phase_colours == phase_colours
                    && e.reads.iter().all(|&(h, s)| self.match_state(h) == s)
                {
                    return e.bonus;
                }
            }
        }
        let mut reads = vec![stop.0];
        let bonus = self.walk_narrow(map, stop, phase_colours, &mut reads);
        if let Ok(mut memo) = self.runs.0.lock() {
            memo.for_map(map);
            if memo.narrow.len() >= RUN_MEMO_ENTRIES {
                memo.narrow.clear();
            }
            let entry = NarrowEntry {
                stop,
                phase_colours: phase_colours.to_vec(),
                reads: reads.iter().map(|&h| (h, self.match_state(h))).collect(),
                bonus,
            };
            memo.narrow.insert(key, entry);
        }
        bonus
    }

    /// What matching a connection and the narrow-gauge walk read of a hex.
    fn match_state(&self, hex: u16) -> HexMatchState {
        let st = &self.hexes[usize::from(hex)];
        (st.tile.def, st.rotation, st.links)
    }

    /// [`Board::narrow_bonus`] worked out; `reads` gets every hex whose state the walk read.
    fn walk_narrow(
        &self,
        map: &MapData,
        stop: (u16, u8),
        phase_colours: &[Colour],
        reads: &mut Vec<u16>,
    ) -> Money {
        // Without narrow track at the stop the walk has nowhere to go.
        let t = self.tile_def(map, HexIdx(stop.0));
        if !t
            .paths
            .iter()
            .any(|p| p.gauge != Gauge::Broad && p.nodes().any(|n| n == stop.1))
        {
            return Money(0);
        }
        // Room for a narrow network of some size, so that the lists do not grow step by step.
        let mut counted = Vec::with_capacity(32);
        counted.push(stop);
        let mut w = NarrowWalk {
            board: self,
            map,
            phase_colours,
            counted,
            bonus: Money(0),
            visited_nodes: Vec::with_capacity(16),
            visited_paths: Vec::with_capacity(32),
            counter: Vec::with_capacity(32),
            reads,
        };
        w.node_walk(stop);
        w.bonus
    }

    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        map: &MapData,
        corp: CorpId,
        r: &TrainRoute<'_>,
        conns: &[Conn],
        arena: &[PathRef],
        overlap: Option<HexId>,
        phase_colours: &[Colour],
        ctx: &RunContext<'_>,
        narrow: &mut Vec<(NodeRef, Money)>,
    ) -> Result<RouteRevenue, RouteErrorKind> {
        let mut stops: Vec<NodeRef> = Vec::new();
        for c in conns {
            for n in [c.left, c.right] {
                if !stops.contains(&n) {
                    stops.push(n);
                }
            }
        }
        if stops.len() < 2 {
            return Err(RouteErrorKind::TooFewStops);
        }
        let hex_id = |h: u16| map.hexes[usize::from(h)].id;
        let info: Vec<Stop<'_>> = stops
            .iter()
            .map(|&(h, n)| {
                let t = self.tile_def(map, HexIdx(h));
                let node = &t.nodes[usize::from(n)];
                let tokened =
                    t.cities.iter().position(|&c| c == n).is_some_and(|ci| {
                        ci < MAX_CITIES && self.city_tokened_by(HexIdx(h), ci, corp)
                    });
                Stop {
                    hex: hex_id(h),
                    part: node.part,
                    node,
                    value: node.revenue.value_for(phase_colours, r.diesel),
                    tokened_by_runner: tokened,
                }
            })
            .collect();
        if !info.iter().any(|s| s.tokened_by_runner) {
            return Err(RouteErrorKind::NoToken);
        }
        let mut groups: Vec<&str> = Vec::new();
        for s in &info {
            for g in &s.node.groups {
                if groups.contains(&g.as_str()) {
                    return Err(RouteErrorKind::GroupTwice(g.clone()));
                }
                groups.push(g);
            }
        }
        // Only the route's first and last paths may be terminal. The connections' paths are
        // stored in their walks' direction, so the route's ends are a connection's first or
        // last path, by the way the route runs through it.
        let path_count: usize = conns.iter().map(|c| c.chain.len()).sum();
        if path_count >= 3 {
            let runs_forward = |c: &Conn| c.chain.nodes[0] == c.left;
            let first = match conns.first() {
                Some(c) if !runs_forward(c) => c.chain.len().saturating_sub(1),
                _ => 0,
            };
            let last = match conns.last() {
                Some(c) if !runs_forward(c) => path_count - c.chain.len(),
                _ => path_count - 1,
            };
            let through_terminal = conns
                .iter()
                .flat_map(|c| c.chain.paths(arena))
                .enumerate()
                .any(|(k, &(h, pi))| {
                    k != first
                        && k != last
                        && self.tile_def(map, HexIdx(h)).paths[usize::from(pi)].terminal
                });
            if through_terminal {
                return Err(RouteErrorKind::ThroughTerminal);
            }
        }
        for (k, c) in conns.iter().enumerate() {
            let seen = conns[..k]
                .iter()
                .any(|b| b.left == c.right || b.right == c.right);
            if seen || c.left == c.right {
                return Err(RouteErrorKind::StopTwice(hex_id(c.right.0)));
            }
        }
        match ctx.distance {
            DistanceMode::Stops => {
                if stops.len() as u32 > r.distance {
                    return Err(RouteErrorKind::TooLong {
                        stops: stops.len() as u32,
                        distance: r.distance,
                    });
                }
            }
            DistanceMode::HexEdges => {
                // Reference `hex_edge_cost`: consecutive paths of a segment on different hexes.
                let edges: usize = conns
                    .iter()
                    .map(|c| {
                        c.chain
                            .paths(arena)
                            .windows(2)
                            .filter(|w| w[0].0 != w[1].0)
                            .count()
                    })
                    .sum();
                if edges as u32 > r.distance {
                    return Err(RouteErrorKind::TooManyEdges {
                        edges: edges as u32,
                        distance: r.distance,
                    });
                }
            }
        }
        if let Some(h) = overlap {
            return Err(RouteErrorKind::TrackReused(h));
        }
        for w in conns.windows(2) {
            let mid = w[0].right;
            if w[1].left != mid {
                return Err(RouteErrorKind::NotJoined);
            }
            if self.node_blocks(map, HexIdx(mid.0), mid.1, corp) {
                return Err(RouteErrorKind::Blocked(hex_id(mid.0)));
            }
        }
        let sum: Money = info.iter().map(|s| s.value).sum();
        let mut revenue = (ctx.hook)(&info, sum)?;
        if ctx.narrow_bonus {
            for &stop in &stops {
                revenue += match narrow.iter().find(|(n, _)| *n == stop) {
                    Some(&(_, bonus)) => bonus,
                    None => {
                        let bonus = self.narrow_bonus(map, stop, phase_colours);
                        narrow.push((stop, bonus));
                        bonus
                    }
                };
            }
        }
        for &(hex, bonus) in ctx.hex_bonuses {
            if info.iter().any(|s| s.hex == hex) {
                revenue += bonus;
            }
        }
        Ok(RouteRevenue {
            revenue,
            stops: info.iter().map(|s| (s.hex, s.part)).collect(),
        })
    }

    /// Reference `Route#connection_data`: match each connection to track, join them.
    fn connection_data(
        &self,
        map: &MapData,
        corp: CorpId,
        spec: &RouteSpec,
        taken: &mut [u32],
        arena: &mut Vec<PathRef>,
        scratch: &mut Scratch,
    ) -> Result<Vec<Conn>, RouteErrorKind> {
        let Scratch {
            hexes,
            chains,
            bounds,
            joins,
            joined,
            walk,
        } = scratch;
        chains.clear();
        bounds.clear();
        bounds.push(0);
        for seg in &spec.connections {
            hexes.clear();
            for h in seg {
                // A connection's hexes are neighbours, one after the other: the map's index of
                // coordinates is asked only when one is not.
                let next = hexes
                    .last()
                    .and_then(|&prev| {
                        map.hex_def(prev)
                            .all_neighbours
                            .iter()
                            .flatten()
                            .find(|&&n| map.hex_def(n).id == *h)
                            .copied()
                    })
                    .or_else(|| map.hex_index(*h));
                hexes.push(next.ok_or(RouteErrorKind::BadConnection)?);
            }
            if hexes.is_empty() {
                return Err(RouteErrorKind::BadConnection);
            }
            self.remembered_chains(map, hexes, arena, chains, walk);
            if chains.len() == bounds[bounds.len() - 1] {
                return Err(RouteErrorKind::NoSuchTrack(seg.clone()));
            }
            bounds.push(chains.len());
        }
        let chains: &[Chain] = chains;
        let possibilities = |k: usize| &chains[bounds[k]..bounds[k + 1]];
        let arena: &[PathRef] = arena;
        let disjoint = |a: &Chain, b: &Chain| {
            let b = b.paths(arena);
            !a.paths(arena).iter().any(|p| b.contains(p))
        };
        // `taken` holds the paths of the run's earlier routes (the reference's `other_paths`).
        let untaken = |c: &Chain, taken: &[u32]| {
            c.paths(arena)
                .iter()
                .all(|&(h, pi)| taken[usize::from(h)] & (1 << pi) == 0)
        };
        let mut out = Vec::with_capacity(spec.connections.len());
        match spec.connections.len() {
            0 => {}
            1 => {
                let tokened = |n: NodeRef| self.node_tokened_by(map, n, corp);
                let stated = |n: NodeRef| {
                    let hex = map.hexes[usize::from(n.0)].id;
                    let part = self.tile_def(map, HexIdx(n.0)).nodes[usize::from(n.1)].part;
                    spec.nodes.contains(&(hex, part))
                };
                let usable = |c: &Chain| c.nodes.iter().any(|&n| tokened(n)) && untaken(c, taken);
                // Where the log names its stops (reference node signatures), they choose
                // between walks over the same hexes (a city and a town on one tile, IR7/IR8).
                let named =
                    |c: &Chain| !spec.nodes.is_empty() && c.nodes.iter().all(|&n| stated(n));
                let chain = *chains
                    .iter()
                    .find(|c| usable(c) && named(c))
                    .or_else(|| chains.iter().find(|c| usable(c)))
                    .ok_or(RouteErrorKind::NoToken)?;
                out.push(Conn {
                    left: chain.nodes[0],
                    right: chain.nodes[1],
                    chain,
                });
            }
            _ => {
                // The joined connections' paths are taken too while the route is joined, and
                // given back after: the caller takes the paths of the connections chosen.
                joined.clear();
                let signature = |n: NodeRef| {
                    let hex = map.hexes[usize::from(n.0)].id;
                    (
                        hex,
                        self.tile_def(map, HexIdx(n.0)).nodes[usize::from(n.1)].part,
                    )
                };
                let sig = |n: NodeRef| spec.nodes.contains(&signature(n));
                // Signatures in route order, one a stop, name each join's nodes by position.
                let in_order = spec.nodes.len() == spec.connections.len() + 1;
                let at = |k: usize, n: NodeRef| in_order && spec.nodes[k] == signature(n);
                let give_back = |taken: &mut [u32], joined: &[Chain]| {
                    for &(h, pi) in joined.iter().flat_map(|c| c.paths(arena)) {
                        taken[usize::from(h)] &= !(1 << pi);
                    }
                };
                for i in 0..spec.connections.len() - 1 {
                    joins.clear();
                    for (ai, a) in possibilities(i).iter().enumerate() {
                        if !untaken(a, taken) {
                            continue;
                        }
                        for (bi, b) in possibilities(i + 1).iter().enumerate() {
                            if !untaken(b, taken) || !disjoint(a, b) {
                                continue;
                            }
                            let mut shared = a.nodes.iter().filter(|n| b.nodes.contains(n));
                            let (Some(&mid), None) = (shared.next(), shared.next()) else {
                                continue;
                            };
                            let left = if a.nodes[0] == mid {
                                a.nodes[1]
                            } else {
                                a.nodes[0]
                            };
                            let right = if b.nodes[0] == mid {
                                b.nodes[1]
                            } else {
                                b.nodes[0]
                            };
                            joins.push((ai, bi, left, right, mid));
                        }
                    }
                    // Reference `find_pairwise_chain`: the first candidate, or with stored
                    // signatures the first that matches most of them. Where signatures tie (a
                    // city and a town on one tile, IR7/IR8), that reconstruction can differ
                    // from the run the player made (the reference trusts the stored revenue
                    // and never checks the route again): the run the signatures give in order
                    // comes first, then a join that stops at no node twice. A single
                    // candidate needs no score.
                    let mut best: Option<(Join, JoinScore)> = None;
                    if let [only] = joins.as_slice() {
                        best = Some((*only, (0, false, 0)));
                    } else {
                        for &join in joins.iter() {
                            let (_, _, left, right, mid) = join;
                            let earlier = out
                                .iter()
                                .map(|c: &Conn| c.left)
                                .chain(out.iter().rev().skip(1).map(|c: &Conn| c.right));
                            let fresh = !earlier.into_iter().any(|n| n == mid || n == right);
                            let positional = usize::from(i == 0 && at(i, left))
                                + usize::from(at(i + 1, mid))
                                + usize::from(at(i + 2, right));
                            let score = (
                                positional,
                                fresh,
                                [left, right, mid].iter().filter(|&&n| sig(n)).count(),
                            );
                            let better = match &best {
                                None => true,
                                Some((_, b)) => (!spec.nodes.is_empty() || !b.1) && score > *b,
                            };
                            if better {
                                best = Some((join, score));
                            }
                        }
                    }
                    let Some(((ai, bi, left, right, mid), _)) = best else {
                        give_back(taken, joined);
                        return Err(RouteErrorKind::NotJoined);
                    };
                    let a = possibilities(i)[ai];
                    let b = possibilities(i + 1)[bi];
                    if i == 0 {
                        out.push(Conn {
                            left,
                            right: mid,
                            chain: a,
                        });
                    }
                    out.push(Conn {
                        left: mid,
                        right,
                        chain: b,
                    });
                    for &(h, pi) in a.paths(arena) {
                        taken[usize::from(h)] |= 1 << pi;
                    }
                    joined.push(a);
                }
                give_back(taken, joined);
            }
        }
        Ok(out)
    }

    fn node_tokened_by(&self, map: &MapData, n: NodeRef, corp: CorpId) -> bool {
        let t = self.tile_def(map, HexIdx(n.0));
        t.cities
            .iter()
            .position(|&c| c == n.1)
            .is_some_and(|ci| ci < MAX_CITIES && self.city_tokened_by(HexIdx(n.0), ci, corp))
    }

    /// The ways a route's walk, as older 18xx.games logs state it, splits into connections
    /// (at most `limit`). Such a walk is the hexes the player clicked, each next to the one
    /// before (the 2020 engine's `Route#add_hex`: the track between neighbours is the
    /// route's), so it may start or end by going to a stop and back (`J3 K4 J3 I2` runs from
    /// K4): those doubled ends are dropped. It may also be a later log's path hexes,
    /// connection by connection, each in its own direction. So at each step the walk goes on
    /// in the same connection, or a connection ends and the next starts on the same hex (a
    /// join) or on the following one (the next connection written from its other end). Every
    /// connection must match track between two stops.
    pub fn split_walk(&self, map: &MapData, walk: &[HexId], limit: usize) -> Vec<Vec<Vec<HexId>>> {
        let mut walk = walk;
        while walk.len() >= 3 && walk[0] == walk[2] {
            walk = &walk[1..];
        }
        while walk.len() >= 3 && walk[walk.len() - 1] == walk[walk.len() - 3] {
            walk = &walk[..walk.len() - 1];
        }
        let Some(hexes) = walk
            .iter()
            .map(|h| map.hex_index(*h))
            .collect::<Option<Vec<HexIdx>>>()
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut segments = Vec::new();
        self.split_from(map, &hexes, 0, &mut segments, &mut out, limit);
        out.into_iter()
            .map(|segs: Vec<(usize, usize)>| {
                segs.iter().map(|&(a, b)| walk[a..=b].to_vec()).collect()
            })
            .collect()
    }

    /// Splits `hexes[start..]` into connections after `segments` (index ranges, inclusive).
    fn split_from(
        &self,
        map: &MapData,
        hexes: &[HexIdx],
        start: usize,
        segments: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        let has_nodes = |h: HexIdx| !self.tile_def(map, h).nodes.is_empty();
        if !has_nodes(hexes[start]) {
            return;
        }
        let (mut arena, mut chains, mut lists) = (Vec::new(), Vec::new(), WalkLists::default());
        for end in start + 1..hexes.len() {
            if !has_nodes(hexes[end]) {
                continue;
            }
            arena.clear();
            chains.clear();
            self.matching_chains(
                map,
                &hexes[start..=end],
                &mut arena,
                &mut chains,
                &mut lists,
            );
            if chains.is_empty() {
                continue;
            }
            segments.push((start, end));
            if end == hexes.len() - 1 {
                out.push(segments.clone());
            } else {
                // The next connection starts on this hex (a join written once) or on the next.
                self.split_from(map, hexes, end, segments, out, limit);
                self.split_from(map, hexes, end + 1, segments, out, limit);
            }
            segments.pop();
        }
    }

    /// [`Board::matching_chains`], from the board's memo where the connection's hexes are as
    /// they were when it was matched before.
    fn remembered_chains(
        &self,
        map: &MapData,
        hexes: &[HexIdx],
        arena: &mut Vec<PathRef>,
        out: &mut Vec<Chain>,
        lists: &mut WalkLists,
    ) {
        let state = |h: &HexIdx| self.match_state(h.0);
        // A poisoned memo only means a panic elsewhere left it half-written: do without it.
        let Ok(mut memo) = self.runs.0.lock() else {
            return self.matching_chains(map, hexes, arena, out, lists);
        };
        memo.for_map(map);
        let key = chain_key(hexes);
        if let Some(entry) = memo.chains.get(&key) {
            if entry.hexes == hexes && entry.states.iter().copied().eq(hexes.iter().map(state)) {
                let base = arena.len() as u32;
                arena.extend_from_slice(&entry.paths);
                out.extend(entry.chains.iter().map(|c| c.moved(0, base)));
                return;
            }
        }
        let (first_path, first_chain) = (arena.len(), out.len());
        self.matching_chains(map, hexes, arena, out, lists);
        if memo.chains.len() >= RUN_MEMO_ENTRIES {
            memo.chains.clear();
        }
        let base = first_path as u32;
        let entry = ChainEntry {
            hexes: hexes.to_vec(),
            states: hexes.iter().map(state).collect(),
            chains: out[first_chain..]
                .iter()
                .map(|c| c.moved(base, 0))
                .collect(),
            paths: arena[first_path..].to_vec(),
        };
        memo.chains.insert(key, entry);
    }

    /// Pushes onto `out` every walk from a node on the first hex to a node on the last hex
    /// whose paths lie exactly on `hexes` (reference `get_node_chains` filtered by
    /// `find_matching_chains`), its paths onto `arena`.
    fn matching_chains(
        &self,
        map: &MapData,
        hexes: &[HexIdx],
        arena: &mut Vec<PathRef>,
        out: &mut Vec<Chain>,
        lists: &mut WalkLists,
    ) {
        let (h0, hk) = (hexes[0], hexes[hexes.len() - 1]);
        let t0 = self.tile_def(map, h0);
        let tk = self.tile_def(map, hk);
        let rotation = self.hexes[h0.get()].rotation;
        // The edges of the first hex that lead to the second: a walk starts over one of them.
        let towards: u8 = match hexes.get(1) {
            Some(&next) => (0..6)
                .filter(|&e| self.neighbour(map, h0, e) == Some(next))
                .fold(0, |m, e| m | 1 << e),
            None => 0,
        };
        // The walks' stacks, shared: each walk leaves them empty. `found` takes the walks from
        // a start node to any node of the last hex, a path per hex each: which end node they
        // reach only decides which of its chains a walk belongs to.
        let WalkLists {
            stack,
            counter,
            found,
        } = lists;
        for s in 0..t0.nodes.len() as u8 {
            found.clear();
            for (pi, p) in t0.paths.iter().enumerate() {
                if !p.nodes().any(|n| n == s) || (map.rules.gauges && p.gauge == Gauge::Narrow) {
                    continue;
                }
                if hexes.len() > 1 && !p.edges(rotation).any(|e| towards & (1 << e) != 0) {
                    continue;
                }
                let mut w = Walk {
                    board: self,
                    map,
                    hexes,
                    stack,
                    counter,
                    found,
                };
                w.walk(h0.0, pi as u8, None);
            }
            if found.is_empty() {
                continue;
            }
            for e in 0..tk.nodes.len() as u8 {
                if h0 == hk && s == e {
                    continue;
                }
                // Reference sorts by path count; all matches have the segment's length.
                for paths in found.chunks_exact(hexes.len()) {
                    let (_, last) = paths[paths.len() - 1];
                    if tk.paths[usize::from(last)].nodes().any(|n| n == e) {
                        let start = arena.len() as u32;
                        arena.extend_from_slice(paths);
                        out.push(Chain {
                            nodes: [(h0.0, s), (hk.0, e)],
                            start,
                            end: arena.len() as u32,
                        });
                    }
                }
            }
        }
    }
}

struct Walk<'a, 'f> {
    board: &'a Board,
    map: &'a MapData,
    hexes: &'a [HexIdx],
    stack: &'f mut Vec<PathRef>,
    counter: &'f mut Vec<(u16, u8)>,
    /// The walks found, one after the other.
    found: &'f mut Vec<PathRef>,
}

impl Walk<'_, '_> {
    fn walk(&mut self, h: u16, pi: u8, skip: Option<u8>) {
        if self.stack.contains(&(h, pi)) {
            return;
        }
        let st = &self.board.hexes[usize::from(h)];
        let t = self.map.tile_def(st.tile.def);
        let p = &t.paths[usize::from(pi)];
        if p.edges(st.rotation).any(|e| self.counter.contains(&(h, e))) {
            return;
        }
        self.stack.push((h, pi));
        // A path per hex of the segment: the walk goes on only to the segment's next hex.
        let Some(&next) = self.hexes.get(self.stack.len()) else {
            self.found.extend_from_slice(self.stack);
            self.stack.pop();
            return;
        };
        for e in p.edges(st.rotation) {
            if Some(e) == skip {
                continue;
            }
            if self.board.neighbour(self.map, HexIdx(h), e) != Some(next) {
                continue;
            }
            let facing = (e + 3) % 6;
            self.counter.push((h, e));
            for (qi, q) in self.board.paths_on_edge(self.map, next, facing) {
                let usable = !(self.map.rules.gauges && q.gauge == Gauge::Narrow);
                if usable && p.gauge.joins(q.gauge) {
                    self.walk(next.0, qi, Some(facing));
                }
            }
            self.counter.pop();
        }
        self.stack.pop();
    }
}

/// The reference's node/path walk restricted to non-broad track, counting narrow-only nodes.
struct NarrowWalk<'a> {
    board: &'a Board,
    map: &'a MapData,
    phase_colours: &'a [Colour],
    /// Nodes already judged (the stop itself first).
    counted: Vec<NodeRef>,
    bonus: Money,
    visited_nodes: Vec<NodeRef>,
    visited_paths: Vec<PathRef>,
    counter: Vec<(u16, u8)>,
    /// The hexes whose tile, rotation or links the walk read.
    reads: &'a mut Vec<u16>,
}

impl NarrowWalk<'_> {
    fn read(&mut self, hex: u16) {
        if !self.reads.contains(&hex) {
            self.reads.push(hex);
        }
    }

    fn node_walk(&mut self, node: NodeRef) {
        if self.visited_nodes.contains(&node) {
            return;
        }
        self.read(node.0);
        self.visited_nodes.push(node);
        let t = self.board.tile_def(self.map, HexIdx(node.0));
        for (pi, p) in t.paths.iter().enumerate() {
            if p.gauge != Gauge::Broad && p.nodes().any(|n| n == node.1) {
                self.path_walk(node.0, pi as u8, None, node);
            }
        }
        // The walk's stack: the node is the last one on it.
        self.visited_nodes.pop();
    }

    fn path_walk(&mut self, h: u16, pi: u8, skip: Option<u8>, origin: NodeRef) {
        if self.visited_paths.contains(&(h, pi)) {
            return;
        }
        self.read(h);
        let st = &self.board.hexes[usize::from(h)];
        let t = self.map.tile_def(st.tile.def);
        let p = &t.paths[usize::from(pi)];
        if p.edges(st.rotation).any(|e| self.counter.contains(&(h, e))) || p.gauge == Gauge::Broad {
            return;
        }
        self.visited_paths.push((h, pi));
        let mut abort = false;
        for m in p.nodes() {
            if self.counted.contains(&(h, m)) {
                continue;
            }
            self.counted.push((h, m));
            if t.node_narrow_only(m) {
                self.bonus += t.nodes[usize::from(m)].revenue.value(self.phase_colours);
            } else {
                abort = true;
            }
        }
        if !abort && !p.terminal {
            for m in p.nodes() {
                if (h, m) != origin {
                    self.node_walk((h, m));
                }
            }
        }
        for e in p.edges(st.rotation) {
            if Some(e) == skip {
                continue;
            }
            let Some(nb) = self.board.neighbour(self.map, HexIdx(h), e) else {
                continue;
            };
            let facing = (e + 3) % 6;
            self.counter.push((h, e));
            self.read(nb.0);
            for (qi, q) in self.board.paths_on_edge(self.map, nb, facing) {
                let gauge_ok = p.gauge == Gauge::Dual || p.gauge.fits(q.gauge);
                if gauge_ok {
                    self.path_walk(nb.0, qi, Some(facing), origin);
                }
            }
            self.counter.pop();
        }
        self.visited_paths.pop();
    }
}
