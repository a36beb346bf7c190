//! The corporation's track graph (reference `Graph#compute`): what its stations reach.
//!
//! The walk follows the reference's order exactly (see [`Walk`]): what it reaches depends on
//! the order, so a closure in another order reaches more or less on junction tiles.

use std::cell::RefCell;

use super::board::{Board, Station, MAX_CITIES, MAX_TOKENS};
use super::data::{Gauge, HexIdx, MapData, PathDef, RouteUse};
use crate::ids::CorpId;

/// Reach of one corporation's network.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reach {
    /// Per hex, edges (bit per edge) where the corporation may connect new track.
    pub(crate) edges: Vec<u8>,
    /// Per hex, nodes reached (station nodes and nodes of reached paths), bit per node index.
    pub(crate) nodes: Vec<u8>,
    /// Per hex, nodes of reached paths only (the reference's tokenable-city candidates).
    pub(crate) path_nodes: Vec<u8>,
    /// Per hex, reached paths (bit per path index).
    pub(crate) paths: Vec<u32>,
    /// From one station at least two mandatory revenue nodes are connected.
    pub(crate) route_available: bool,
    /// Per hex, edges of the narrow network hanging off the reached nodes (only with gauge
    /// rules; empty otherwise).
    pub(crate) narrow: Vec<u8>,
}

#[derive(Clone, Copy)]
enum Item {
    Node(u16, u8),
    Path(u16, u8),
}

/// One station's walk, in the reference's depth-first order (`Node#walk`, `Path#walk`): a
/// path or node walked once is closed for the rest of the station's walk whichever side it
/// was entered from, except below an exit several paths of a tile share ("converging"), where
/// they are open again once the walk returns; and a path may not be entered while one of its
/// hex edges is being crossed further up the walk. What is reached therefore depends on the order,
/// which follows the reference: a node's paths and a hex edge's paths in tile order, a path's
/// stops before its edges, its edges in definition order.
struct Walk<'a> {
    map: &'a MapData,
    board: &'a Board,
    corp: CorpId,
    /// Per hex, what this station's walk has been through.
    visits: Vec<Visit>,
    mandatory: u32,
    optional: u32,
    /// What the caller only wants to know of the reach: the walk stops once it is met.
    goal: Option<Goal>,
    found: bool,
    /// The narrow network as the walk goes, when the goal asks about it.
    narrow: Option<NarrowTrack>,
}

/// What one station's walk has been through on a hex.
#[derive(Debug, Clone, Copy, Default)]
struct Visit {
    /// Paths (bit per path index).
    paths: u32,
    /// Nodes (bit per node index).
    nodes: u8,
    /// Edges being crossed by the walk in progress (the reference's edge counter).
    in_use: u8,
    /// Nodes counted for this station's route check.
    local: u8,
}

/// The buffers of the walks made on one thread, kept from one walk to the next: the walks of
/// an action come by the dozen and most stop early, and making and freeing their buffers was
/// a fifth of their work. A walk borrows them (a walk within a walk would make its own) and
/// keeps them but for what the reach it hands out takes.
#[derive(Default)]
struct Scratch {
    visits: Vec<Visit>,
    reach: Reach,
    narrow: Option<NarrowTrack>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// A question about a corporation's reach that the walk can settle before it ends: the reach
/// only grows as the walk goes on, so the first sight of an answer is the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Goal {
    /// One of `edges` (bits) of `hex` among [`Reach::edges`] (the broad network: under
    /// gauge rules the narrow network's edges are not looked at).
    Edges { hex: usize, edges: u8 },
    /// One of `edges` (bits) of `hex` among [`Reach::any_edges`] (gauge rules).
    AnyEdges { hex: usize, edges: u8 },
    /// One of `paths` (bits) of `hex` among the narrow network's paths ([`narrow_paths`]).
    NarrowPaths { hex: usize, paths: u32 },
    /// One of `paths` (bits) of `hex` among [`Reach::paths`].
    Paths { hex: usize, paths: u32 },
    /// One of `nodes` (bits) of `hex` among [`Reach::nodes`].
    Nodes { hex: usize, nodes: u8 },
    /// A city among [`Reach::path_nodes`] with a slot the corporation may take (the token
    /// step's graph predicate, D.1).
    TokenCity,
    /// [`Reach::route_available`].
    Route,
}

impl Goal {
    /// The answer the whole reach gives.
    pub(crate) fn met_by(self, map: &MapData, board: &Board, corp: CorpId, r: &Reach) -> bool {
        match self {
            Goal::Edges { hex, edges } => r.edges.get(hex).is_some_and(|&e| e & edges != 0),
            Goal::AnyEdges { hex, edges } => hex < r.edges.len() && r.any_edges(hex) & edges != 0,
            Goal::NarrowPaths { hex, paths } => narrow_paths(map, board, r)
                .get(hex)
                .is_some_and(|&p| p & paths != 0),
            Goal::Paths { hex, paths } => r.paths.get(hex).is_some_and(|&p| p & paths != 0),
            Goal::Nodes { hex, nodes } => r.nodes.get(hex).is_some_and(|&n| n & nodes != 0),
            Goal::TokenCity => r.path_nodes.iter().enumerate().any(|(h, &mask)| {
                mask != 0
                    && board
                        .tile_def(map, HexIdx(h as u16))
                        .cities
                        .iter()
                        .any(|&node| {
                            mask & (1 << node) != 0 && board.city_tokenable(map, corp, h, node)
                        })
            }),
            Goal::Route => r.route_available,
        }
    }

    /// The goal asks about the narrow network.
    fn narrow(self) -> bool {
        matches!(self, Goal::AnyEdges { .. } | Goal::NarrowPaths { .. })
    }
}

/// What a walk towards a [`Goal`] found.
pub(crate) enum Sought {
    /// The goal is met.
    Met,
    /// The walk went to its end without meeting it: the whole reach.
    Whole(Reach),
}

impl Walk<'_> {
    /// 18Ireland: the corporation's graph ignores narrow track.
    fn skipped(&self, p: &PathDef) -> bool {
        self.map.rules.gauges && p.gauge == Gauge::Narrow
    }

    /// Notes that the goal is met once the stations are placed, if it is.
    fn look_at_stations(&mut self, r: &Reach) {
        match self.goal {
            Some(goal @ (Goal::Edges { .. } | Goal::Nodes { .. })) => {
                self.found |= goal.met_by(self.map, self.board, self.corp, r);
            }
            Some(goal @ (Goal::AnyEdges { .. } | Goal::NarrowPaths { .. })) => {
                self.found |= self.narrow_met(goal, r);
            }
            _ => {}
        }
    }

    /// Whether a goal about the narrow network is met by what the walk has seen so far.
    fn narrow_met(&self, goal: Goal, r: &Reach) -> bool {
        let Some(narrow) = &self.narrow else {
            return false;
        };
        match goal {
            Goal::AnyEdges { hex, edges } => {
                (r.edges.get(hex).copied().unwrap_or(0)
                    | narrow.edges.get(hex).copied().unwrap_or(0))
                    & edges
                    != 0
            }
            Goal::NarrowPaths { hex, paths } => {
                narrow.paths.get(hex).is_some_and(|&p| p & paths != 0)
            }
            _ => false,
        }
    }

    /// Notes that the goal is met by what a path newly reached (`pi` of hex `hu`, whose
    /// nodes `new_nodes` (bits) were not yet among the path nodes) added to the reach, if it is.
    fn look_at_path(&mut self, r: &Reach, hu: usize, pi: u8, new_nodes: u8) {
        let Some(goal) = self.goal else {
            return;
        };
        self.found |= match goal {
            Goal::Edges { hex, edges } => r.edges.get(hex).is_some_and(|&e| e & edges != 0),
            Goal::AnyEdges { .. } | Goal::NarrowPaths { .. } => self.narrow_met(goal, r),
            Goal::Paths { hex, paths } => hex == hu && paths & (1 << pi) != 0,
            Goal::Nodes { hex, nodes } => hex == hu && r.nodes[hu] & nodes != 0,
            Goal::TokenCity => {
                let mut left = new_nodes;
                let mut tokenable = false;
                while left != 0 && !tokenable {
                    let node = left.trailing_zeros() as u8;
                    left &= left - 1;
                    tokenable = self.board.city_tokenable(self.map, self.corp, hu, node);
                }
                tokenable
            }
            Goal::Route => self.route_available(),
        };
    }

    /// This station's walk has found a route (D.1).
    fn route_available(&self) -> bool {
        self.mandatory > 1 || (self.mandatory == 1 && self.optional > 0)
    }

    fn node(&mut self, r: &mut Reach, h: u16, node: u8, converging: bool) {
        let hu = usize::from(h);
        if self.found || self.visits[hu].nodes & (1 << node) != 0 {
            return;
        }
        self.visits[hu].nodes |= 1 << node;
        let t = self.board.tile_def(self.map, HexIdx(h));
        for (pi, p) in t.paths.iter().enumerate() {
            if self.found {
                return;
            }
            // A path already walked is left at once: asking here saves the call.
            if self.visits[hu].paths & (1 << pi) == 0
                && p.nodes().any(|m| m == node)
                && !self.skipped(p)
            {
                self.path(r, h, pi as u8, None, converging);
            }
        }
        if converging {
            self.visits[hu].nodes &= !(1 << node);
        }
    }

    fn path(&mut self, r: &mut Reach, h: u16, pi: u8, skip: Option<u8>, converging: bool) {
        let (map, board) = (self.map, self.board);
        let hu = usize::from(h);
        if self.found || self.visits[hu].paths & (1 << pi) != 0 {
            return;
        }
        let st = &board.hexes[hu];
        let rotation = st.rotation % 6;
        let t = map.tile_def(st.tile.def);
        let p = &t.paths[usize::from(pi)];
        // The path's edges, in definition order, each with the hex beyond it.
        let mut exits = [(0u8, None); 2];
        let mut exit_count = 0;
        let mut exit_mask = 0u8;
        let hex_def = map.hex_def(HexIdx(h));
        for e in p.edges(rotation) {
            // [`Board::neighbour`], the hex at hand: the map's links, or one a lay opened.
            let eu = usize::from(e);
            let beyond = hex_def.neighbours[eu].or_else(|| {
                (st.links & (1 << e) != 0)
                    .then_some(hex_def.all_neighbours[eu])
                    .flatten()
            });
            exits[exit_count] = (e, beyond);
            exit_count += 1;
            exit_mask |= 1 << e;
        }
        let exits = &exits[..exit_count];
        if self.visits[hu].in_use & exit_mask != 0 {
            return;
        }
        self.visits[hu].paths |= 1 << pi;
        if r.paths[hu] & (1 << pi) == 0 {
            r.paths[hu] |= 1 << pi;
            let mut new_nodes = 0u8;
            for m in p.nodes() {
                if r.nodes[hu] & (1 << m) == 0 {
                    if let Some(narrow) = &mut self.narrow {
                        narrow.start(map, board, h, m);
                    }
                }
                r.nodes[hu] |= 1 << m;
                new_nodes |= !r.path_nodes[hu] & (1 << m);
                r.path_nodes[hu] |= 1 << m;
                if self.visits[hu].local & (1 << m) == 0 {
                    self.visits[hu].local |= 1 << m;
                    match t.nodes[usize::from(m)].route {
                        RouteUse::Mandatory => self.mandatory += 1,
                        RouteUse::Optional => self.optional += 1,
                        RouteUse::Never => {}
                    }
                }
            }
            r.edges[hu] |= exit_mask;
            for &(e, beyond) in exits {
                if let Some(nb) = beyond {
                    r.edges[nb.get()] |= 1 << facing(e);
                }
            }
            self.look_at_path(r, hu, pi, new_nodes);
        }
        if !p.terminal {
            for m in p.nodes() {
                if !board.node_blocks(map, HexIdx(h), m, self.corp) {
                    self.node(r, h, m, converging);
                }
            }
        }
        for &(e, beyond) in exits {
            if Some(e) == skip {
                continue;
            }
            let Some(nb) = beyond else {
                continue;
            };
            let facing = facing(e);
            // Leaving over an edge several paths of this tile share, the rest of the walk
            // may come back through what it visits (the reference's converging exit).
            let shared = t.paths_by_edge[usize::from(unturned(e, rotation))].count_ones() > 1;
            self.visits[hu].in_use |= 1 << e;
            let beyond_state = &board.hexes[nb.get()];
            let beyond_tile = map.tile_def(beyond_state.tile.def);
            let mut entering =
                beyond_tile.paths_by_edge[usize::from(unturned(facing, beyond_state.rotation % 6))];
            // In path order, lowest index first.
            while entering != 0 {
                if self.found {
                    break;
                }
                let qi = entering.trailing_zeros() as u8;
                entering &= entering - 1;
                let q = &beyond_tile.paths[usize::from(qi)];
                // A path already walked is left at once: asking here saves the call.
                if self.visits[nb.get()].paths & (1 << qi) == 0
                    && p.gauge.joins(q.gauge)
                    && !self.skipped(q)
                {
                    self.path(r, nb.0, qi, Some(facing), converging || shared);
                }
            }
            self.visits[hu].in_use &= !(1 << e);
        }
        if converging {
            self.visits[hu].paths &= !(1 << pi);
        }
    }
}

/// The edge facing edge `e` (below 6) across the hex side: `(e + 3) % 6`.
fn facing(e: u8) -> u8 {
    if e >= 3 {
        e - 3
    } else {
        e + 3
    }
}

/// Edge `e` (below 6) of a tile turned by `rotation` (below 6) as the unturned tile numbers it.
fn unturned(e: u8, rotation: u8) -> u8 {
    if e >= rotation {
        e - rotation
    } else {
        e + 6 - rotation
    }
}

/// The cities holding a token of the corporation, read off the hexes: what its station list
/// must say (checked in debug builds, the tests and the fuzz targets).
fn tokened_cities(map: &MapData, board: &Board, corp: CorpId) -> Vec<Station> {
    let mut found = Vec::new();
    for (h, st) in board.hexes.iter().enumerate() {
        let cities = map.tile_def(st.tile.def).cities.len().min(MAX_CITIES);
        for (ci, slots) in st.tokens.iter().enumerate().take(cities) {
            if slots.contains(&Some(corp)) {
                found.push(Station {
                    hex: HexIdx(h as u16),
                    city: ci as u8,
                });
            }
        }
    }
    found
}

impl Reach {
    pub(crate) fn compute(map: &MapData, board: &Board, corp: CorpId) -> Reach {
        Reach::walk(map, board, corp, None).unwrap_or_default()
    }

    /// Whether the corporation's network meets `goal`, walking no further than it must; a
    /// walk that ends without meeting it has seen the whole network, and hands the reach
    /// back.
    pub(crate) fn seek(map: &MapData, board: &Board, corp: CorpId, goal: Goal) -> Sought {
        match Reach::walk(map, board, corp, Some(goal)) {
            None => Sought::Met,
            Some(r) => Sought::Whole(r),
        }
    }

    /// The walk, stopping once the network meets `goal` when there is one: the whole reach,
    /// or nothing when the goal was met.
    fn walk(map: &MapData, board: &Board, corp: CorpId, goal: Option<Goal>) -> Option<Reach> {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => Reach::walk_in(&mut scratch, map, board, corp, goal),
            Err(_) => Reach::walk_in(&mut Scratch::default(), map, board, corp, goal),
        })
    }

    /// [`Reach::walk`] in these buffers.
    fn walk_in(
        scratch: &mut Scratch,
        map: &MapData,
        board: &Board,
        corp: CorpId,
        goal: Option<Goal>,
    ) -> Option<Reach> {
        let n = board.hexes.len();
        let mut r = std::mem::take(&mut scratch.reach);
        for buffer in [&mut r.edges, &mut r.nodes, &mut r.path_nodes] {
            buffer.clear();
            buffer.resize(n, 0);
        }
        r.paths.clear();
        r.paths.resize(n, 0);
        r.route_available = false;
        r.narrow.clear();
        // The stations in map order (hex, then city), as the reference finds the tokens.
        let mut stations = [Station {
            hex: HexIdx(0),
            city: 0,
        }; MAX_TOKENS];
        let mut count = 0;
        for (slot, station) in stations.iter_mut().zip(board.stations(corp)) {
            *slot = station;
            count += 1;
        }
        let stations = &mut stations[..count];
        stations.sort_unstable();
        debug_assert_eq!(stations, tokened_cities(map, board, corp));
        let mut tokens = [(0u16, 0u8); MAX_TOKENS];
        let mut token_count = 0;
        for station in stations.iter() {
            let h = station.hex.get();
            let Some(&node) = board
                .tile_def(map, station.hex)
                .cities
                .get(usize::from(station.city))
            else {
                continue;
            };
            tokens[token_count] = (station.hex.0, node);
            token_count += 1;
            r.nodes[h] |= 1 << node;
            for e in 0..6 {
                if board.neighbour(map, station.hex, e).is_some() {
                    r.edges[h] |= 1 << e;
                }
            }
        }
        let tokens = &tokens[..token_count];
        let mut visits = std::mem::take(&mut scratch.visits);
        visits.clear();
        visits.resize(n, Visit::default());
        let narrow = goal.filter(|g| g.narrow()).map(|_| {
            let mut narrow = scratch.narrow.take().unwrap_or_default();
            narrow.reset(n);
            narrow
        });
        let mut walk = Walk {
            map,
            board,
            corp,
            visits,
            mandatory: 0,
            optional: 0,
            goal,
            found: false,
            narrow,
        };
        if let Some(narrow) = &mut walk.narrow {
            for &(h, node) in tokens {
                narrow.start(map, board, h, node);
            }
        }
        walk.look_at_stations(&r);
        for &(th, tn) in tokens {
            if walk.found {
                break;
            }
            walk.visits.fill(Visit::default());
            (walk.mandatory, walk.optional) = (0, 0);
            // Other stations are pre-visited: each station starts its own walk.
            for &(oh, on) in tokens {
                if (oh, on) != (th, tn) {
                    walk.visits[usize::from(oh)].nodes |= 1 << on;
                }
            }
            walk.node(&mut r, th, tn, false);
            if walk.route_available() {
                r.route_available = true;
            }
        }
        let Walk {
            visits,
            found,
            narrow,
            ..
        } = walk;
        scratch.visits = visits;
        if found {
            scratch.reach = r;
            scratch.narrow = narrow;
            None
        } else {
            if map.rules.gauges {
                r.narrow = match narrow {
                    Some(mut narrow) => {
                        let edges = std::mem::take(&mut narrow.edges);
                        scratch.narrow = Some(narrow);
                        edges
                    }
                    None => narrow_edges(map, board, &r),
                };
            }
            Some(r)
        }
    }

    /// Edges (bit per edge) of `hex` where the corporation may connect: broad network, plus
    /// the narrow network under gauge rules.
    pub(crate) fn any_edges(&self, hex: usize) -> u8 {
        self.edges[hex] | self.narrow.get(hex).copied().unwrap_or(0)
    }
}

/// 18Ireland narrow network (reference `compute_narrow`): from every node the corporation's
/// broad graph reaches, walk over non-broad track (tokens never block it) and collect, per hex,
/// the edges of the walked paths and the facing edges of their neighbours.
pub(crate) fn narrow_edges(map: &MapData, board: &Board, reach: &Reach) -> Vec<u8> {
    let mut edges = vec![0u8; board.hexes.len()];
    gauge_walk(map, board, reached_nodes(reach), Gauge::Broad, |step| {
        if let WalkStep::Path { hex, exits, .. } = step {
            for &(e, neighbour) in exits {
                edges[hex] |= 1 << e;
                if let Some(nb) = neighbour {
                    edges[nb] |= 1 << ((e + 3) % 6);
                }
            }
        }
    });
    edges
}

/// 18Ireland narrow network as paths (reference `narrow_connected_paths`): per hex, the paths
/// (bit per path index) of the walk [`narrow_edges`] makes.
pub(crate) fn narrow_paths(map: &MapData, board: &Board, reach: &Reach) -> Vec<u32> {
    let mut paths = vec![0u32; board.hexes.len()];
    gauge_walk(map, board, reached_nodes(reach), Gauge::Broad, |step| {
        if let WalkStep::Path { hex, path, .. } = step {
            paths[hex] |= 1 << path;
        }
    });
    paths
}

/// The nodes the corporation's broad graph reaches: where the narrow network starts.
fn reached_nodes(reach: &Reach) -> impl Iterator<Item = (u16, u8)> + '_ {
    reach
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, &mask)| mask != 0)
        .flat_map(|(h, &mask)| {
            // The mask's nodes, lowest first.
            let mut left = mask;
            std::iter::from_fn(move || {
                let node = (left != 0).then(|| left.trailing_zeros() as u8)?;
                left &= left - 1;
                Some((h as u16, node))
            })
        })
}

/// 18Ireland merger connectivity (reference `Merge#corporation_connected?`): the corporations
/// holding a token in a city reached from `from` over track that is not narrow gauge. The walk
/// passes through every city and town whoever's tokens fill it (tokens never block a merger)
/// but does not leave a terminal (offboard) path; cities at the end of one still count.
pub(crate) fn tokened_over_broad(map: &MapData, board: &Board, from: Station) -> Vec<CorpId> {
    let mut found: Vec<CorpId> = Vec::new();
    let Some(&start) = board
        .tile_def(map, from.hex)
        .cities
        .get(usize::from(from.city))
    else {
        return found;
    };
    let mut note = |hex: usize, node: u8| {
        let state = &board.hexes[hex];
        let tile = map.tile_def(state.tile.def);
        let Some(city) = tile.cities.iter().position(|&c| c == node) else {
            return;
        };
        for corp in state.tokens.get(city).into_iter().flatten().flatten() {
            if !found.contains(corp) {
                found.push(*corp);
            }
        }
    };
    gauge_walk(
        map,
        board,
        [(from.hex.0, start)],
        Gauge::Narrow,
        |step| match step {
            WalkStep::Node { hex, node } => note(hex, node),
            WalkStep::Path {
                hex,
                terminal_nodes,
                ..
            } => terminal_nodes.iter().for_each(|&node| note(hex, node)),
        },
    );
    found
}

/// What a [`gauge_walk`] reports as it goes.
enum WalkStep<'w> {
    /// A node reached for the first time.
    Node { hex: usize, node: u8 },
    /// A path walked for the first time: its exits (edge, neighbouring hex) and, when it is
    /// terminal, the nodes the walk does not continue through.
    Path {
        hex: usize,
        path: u8,
        exits: &'w [(u8, Option<usize>)],
        terminal_nodes: &'w [u8],
    },
}

/// Breadth-first closure over track of every gauge but `excluded`, through nodes (no token
/// blocks it) and across hex edges to paths of a joining gauge; terminal paths are entered but
/// not continued through.
fn gauge_walk(
    map: &MapData,
    board: &Board,
    starts: impl IntoIterator<Item = (u16, u8)>,
    excluded: Gauge,
    visit: impl FnMut(WalkStep<'_>),
) {
    let mut walk = GaugeWalk::new(board, excluded);
    walk.stack
        .extend(starts.into_iter().map(|(h, node)| Item::Node(h, node)));
    walk.run(map, board, visit);
}

/// The state of a [`gauge_walk`]: what it has seen, and what is left to look at. A closure,
/// so more starts may be added after a run and the walk resumed: what it reaches in the end
/// is the same.
#[derive(Default)]
struct GaugeWalk {
    excluded: Gauge,
    seen_paths: Vec<u32>,
    seen_nodes: Vec<u8>,
    stack: Vec<Item>,
}

impl GaugeWalk {
    fn new(board: &Board, excluded: Gauge) -> GaugeWalk {
        let n = board.hexes.len();
        GaugeWalk {
            excluded,
            seen_paths: vec![0; n],
            seen_nodes: vec![0; n],
            stack: Vec::new(),
        }
    }

    /// Walks until nothing is left on the stack.
    fn run(&mut self, map: &MapData, board: &Board, mut visit: impl FnMut(WalkStep<'_>)) {
        let excluded = self.excluded;
        while let Some(item) = self.stack.pop() {
            match item {
                Item::Node(h, node) => {
                    let hu = usize::from(h);
                    if self.seen_nodes[hu] & (1 << node) != 0 {
                        continue;
                    }
                    self.seen_nodes[hu] |= 1 << node;
                    visit(WalkStep::Node { hex: hu, node });
                    let t = board.tile_def(map, HexIdx(h));
                    for (pi, p) in t.paths.iter().enumerate() {
                        if p.gauge != excluded && p.nodes().any(|m| m == node) {
                            self.stack.push(Item::Path(h, pi as u8));
                        }
                    }
                }
                Item::Path(h, pi) => {
                    let hu = usize::from(h);
                    if self.seen_paths[hu] & (1 << pi) != 0 {
                        continue;
                    }
                    self.seen_paths[hu] |= 1 << pi;
                    let st = &board.hexes[hu];
                    let t = map.tile_def(st.tile.def);
                    let p = &t.paths[usize::from(pi)];
                    // A path has two ends and a hex six edges: fixed buffers keep this hot walk
                    // free of allocation.
                    let mut terminal_nodes = [0u8; 2];
                    let mut terminal_count = 0;
                    for m in p.nodes() {
                        if !p.terminal {
                            self.stack.push(Item::Node(h, m));
                        } else if terminal_count < terminal_nodes.len() {
                            terminal_nodes[terminal_count] = m;
                            terminal_count += 1;
                        }
                    }
                    let mut exits = [(0u8, None); 6];
                    let mut exit_count = 0;
                    for e in p.edges(st.rotation) {
                        let neighbour = board.neighbour(map, HexIdx(h), e);
                        if exit_count < exits.len() {
                            exits[exit_count] = (e, neighbour.map(|nb| nb.get()));
                            exit_count += 1;
                        }
                        let Some(nb) = neighbour else {
                            continue;
                        };
                        let facing = (e + 3) % 6;
                        for (qi, q) in board.paths_on_edge(map, nb, facing) {
                            if q.gauge != excluded && p.gauge.joins(q.gauge) {
                                self.stack.push(Item::Path(nb.0, qi));
                            }
                        }
                    }
                    visit(WalkStep::Path {
                        hex: hu,
                        path: pi,
                        exits: &exits[..exit_count],
                        terminal_nodes: &terminal_nodes[..terminal_count],
                    });
                }
            }
        }
    }
}

/// 18Ireland's narrow network worked out while the broad walk goes on (what [`narrow_edges`]
/// and [`narrow_paths`] say of the finished reach): every node the broad walk reaches starts
/// the narrow closure there, so a question about the narrow network is settled as early as
/// one about the broad network.
#[derive(Default)]
struct NarrowTrack {
    walk: GaugeWalk,
    /// Per hex, [`narrow_edges`].
    edges: Vec<u8>,
    /// Per hex, [`narrow_paths`].
    paths: Vec<u32>,
}

impl NarrowTrack {
    /// Ready for a board of `n` hexes, nothing seen.
    fn reset(&mut self, n: usize) {
        self.walk.excluded = Gauge::Broad;
        for buffer in [&mut self.walk.seen_nodes, &mut self.edges] {
            buffer.clear();
            buffer.resize(n, 0);
        }
        for buffer in [&mut self.walk.seen_paths, &mut self.paths] {
            buffer.clear();
            buffer.resize(n, 0);
        }
        self.walk.stack.clear();
    }

    /// The broad walk reached `node` of `hex`.
    fn start(&mut self, map: &MapData, board: &Board, hex: u16, node: u8) {
        self.walk.stack.push(Item::Node(hex, node));
        let (edges, paths) = (&mut self.edges, &mut self.paths);
        self.walk.run(map, board, |step| {
            if let WalkStep::Path {
                hex, path, exits, ..
            } = step
            {
                paths[hex] |= 1 << path;
                for &(e, neighbour) in exits {
                    edges[hex] |= 1 << e;
                    if let Some(nb) = neighbour {
                        edges[nb] |= 1 << ((e + 3) % 6);
                    }
                }
            }
        });
    }
}
