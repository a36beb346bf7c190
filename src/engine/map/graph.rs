//! The corporation's track graph (reference `Graph#compute`): what its stations reach.
//!
//! The walk follows the reference's order exactly (see [`Walk`]): what it reaches depends on
//! the order, so a closure in another order reaches more or less on junction tiles.

use super::board::{Board, Station, MAX_CITIES};
use super::data::{Gauge, HexIdx, MapData, PathDef, RouteUse};
use crate::ids::CorpId;

/// Reach of one corporation's network.
#[derive(Debug, Clone)]
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
    visited_nodes: Vec<u8>,
    visited_paths: Vec<u32>,
    /// Per hex, edges being crossed by the walk in progress (the reference's edge counter).
    in_use: Vec<u8>,
    /// Per hex, nodes counted for this station's route check.
    local: Vec<u8>,
    mandatory: u32,
    optional: u32,
    /// A hex and edges (bits) the caller only wants to know whether the network reaches:
    /// the walk stops once it does.
    target: Option<(usize, u8)>,
    found: bool,
}

impl Walk<'_> {
    /// 18Ireland: the corporation's graph ignores narrow track.
    fn skipped(&self, p: &PathDef) -> bool {
        self.map.rules.gauges && p.gauge == Gauge::Narrow
    }

    /// Notes that the target is reached, if it is.
    fn look_for_target(&mut self, r: &Reach) {
        if let Some((hex, edges)) = self.target {
            self.found |= r.edges.get(hex).is_some_and(|&e| e & edges != 0);
        }
    }

    fn node(&mut self, r: &mut Reach, h: u16, node: u8, converging: bool) {
        let hu = usize::from(h);
        if self.found || self.visited_nodes[hu] & (1 << node) != 0 {
            return;
        }
        self.visited_nodes[hu] |= 1 << node;
        let t = self.board.tile_def(self.map, HexIdx(h));
        for (pi, p) in t.paths.iter().enumerate() {
            if self.found {
                return;
            }
            if p.nodes().any(|m| m == node) && !self.skipped(p) {
                self.path(r, h, pi as u8, None, converging);
            }
        }
        if converging {
            self.visited_nodes[hu] &= !(1 << node);
        }
    }

    fn path(&mut self, r: &mut Reach, h: u16, pi: u8, skip: Option<u8>, converging: bool) {
        let (map, board) = (self.map, self.board);
        let hu = usize::from(h);
        let st = &board.hexes[hu];
        let t = map.tile_def(st.tile.def);
        let p = &t.paths[usize::from(pi)];
        if self.found || self.visited_paths[hu] & (1 << pi) != 0 {
            return;
        }
        // The path's edges, in definition order, each with the hex beyond it.
        let mut exits = [(0u8, None); 2];
        let mut exit_count = 0;
        let mut exit_mask = 0u8;
        for e in p.edges(st.rotation) {
            exits[exit_count] = (e, board.neighbour(map, HexIdx(h), e));
            exit_count += 1;
            exit_mask |= 1 << e;
        }
        let exits = &exits[..exit_count];
        if self.in_use[hu] & exit_mask != 0 {
            return;
        }
        self.visited_paths[hu] |= 1 << pi;
        if r.paths[hu] & (1 << pi) == 0 {
            r.paths[hu] |= 1 << pi;
            for m in p.nodes() {
                r.nodes[hu] |= 1 << m;
                r.path_nodes[hu] |= 1 << m;
                if self.local[hu] & (1 << m) == 0 {
                    self.local[hu] |= 1 << m;
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
                    r.edges[nb.get()] |= 1 << ((e + 3) % 6);
                }
            }
            self.look_for_target(r);
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
            let facing = (e + 3) % 6;
            // Leaving over an edge several paths of this tile share, the rest of the walk
            // may come back through what it visits (the reference's converging exit).
            let shared = t.paths_on_edge(st.rotation, e).count_ones() > 1;
            self.in_use[hu] |= 1 << e;
            for (qi, q) in board.paths_on_edge(map, nb, facing) {
                if self.found {
                    break;
                }
                if p.gauge.joins(q.gauge) && !self.skipped(q) {
                    self.path(r, nb.0, qi, Some(facing), converging || shared);
                }
            }
            self.in_use[hu] &= !(1 << e);
        }
        if converging {
            self.visited_paths[hu] &= !(1 << pi);
        }
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
        Reach::walk(map, board, corp, None).0
    }

    /// Whether the corporation's network reaches one of `edges` (bits) of `hex`, as
    /// [`Reach::compute`]'s `edges` say, walking no further than it must: the reach only
    /// grows as the walk goes on, so the first sight of an edge is the answer. The broad
    /// network only (under gauge rules the narrow network's edges are not looked at).
    pub(crate) fn reaches_edges(
        map: &MapData,
        board: &Board,
        corp: CorpId,
        hex: usize,
        edges: u8,
    ) -> bool {
        Reach::walk(map, board, corp, Some((hex, edges))).1
    }

    /// The walk, stopping once the network reaches `target` when there is one; the reach
    /// (complete without a target) and whether the target was reached.
    fn walk(
        map: &MapData,
        board: &Board,
        corp: CorpId,
        target: Option<(usize, u8)>,
    ) -> (Reach, bool) {
        let n = board.hexes.len();
        let mut r = Reach {
            edges: vec![0; n],
            nodes: vec![0; n],
            path_nodes: vec![0; n],
            paths: vec![0; n],
            route_available: false,
            narrow: Vec::new(),
        };
        // The stations in map order (hex, then city), as the reference finds the tokens.
        let mut stations: Vec<Station> = board.stations(corp).collect();
        stations.sort_unstable();
        debug_assert_eq!(stations, tokened_cities(map, board, corp));
        let mut tokens: Vec<(u16, u8)> = Vec::with_capacity(stations.len());
        for station in stations {
            let h = station.hex.get();
            let Some(&node) = board
                .tile_def(map, station.hex)
                .cities
                .get(usize::from(station.city))
            else {
                continue;
            };
            tokens.push((station.hex.0, node));
            r.nodes[h] |= 1 << node;
            for e in 0..6 {
                if board.neighbour(map, station.hex, e).is_some() {
                    r.edges[h] |= 1 << e;
                }
            }
        }
        let mut walk = Walk {
            map,
            board,
            corp,
            visited_nodes: vec![0; n],
            visited_paths: vec![0; n],
            in_use: vec![0; n],
            local: vec![0; n],
            mandatory: 0,
            optional: 0,
            target,
            found: false,
        };
        walk.look_for_target(&r);
        for &(th, tn) in &tokens {
            if walk.found {
                break;
            }
            walk.visited_nodes.fill(0);
            walk.visited_paths.fill(0);
            walk.in_use.fill(0);
            walk.local.fill(0);
            (walk.mandatory, walk.optional) = (0, 0);
            // Other stations are pre-visited: each station starts its own walk.
            for &(oh, on) in &tokens {
                if (oh, on) != (th, tn) {
                    walk.visited_nodes[usize::from(oh)] |= 1 << on;
                }
            }
            walk.node(&mut r, th, tn, false);
            if walk.mandatory > 1 || (walk.mandatory == 1 && walk.optional > 0) {
                r.route_available = true;
            }
        }
        if map.rules.gauges && target.is_none() {
            r.narrow = narrow_edges(map, board, &r);
        }
        (r, walk.found)
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
    mut visit: impl FnMut(WalkStep<'_>),
) {
    let n = board.hexes.len();
    let mut seen_paths = vec![0u32; n];
    let mut seen_nodes = vec![0u8; n];
    let mut stack: Vec<Item> = starts
        .into_iter()
        .map(|(h, node)| Item::Node(h, node))
        .collect();
    while let Some(item) = stack.pop() {
        match item {
            Item::Node(h, node) => {
                let hu = usize::from(h);
                if seen_nodes[hu] & (1 << node) != 0 {
                    continue;
                }
                seen_nodes[hu] |= 1 << node;
                visit(WalkStep::Node { hex: hu, node });
                let t = board.tile_def(map, HexIdx(h));
                for (pi, p) in t.paths.iter().enumerate() {
                    if p.gauge != excluded && p.nodes().any(|m| m == node) {
                        stack.push(Item::Path(h, pi as u8));
                    }
                }
            }
            Item::Path(h, pi) => {
                let hu = usize::from(h);
                if seen_paths[hu] & (1 << pi) != 0 {
                    continue;
                }
                seen_paths[hu] |= 1 << pi;
                let st = &board.hexes[hu];
                let t = map.tile_def(st.tile.def);
                let p = &t.paths[usize::from(pi)];
                // A path has two ends and a hex six edges: fixed buffers keep this hot walk
                // free of allocation.
                let mut terminal_nodes = [0u8; 2];
                let mut terminal_count = 0;
                for m in p.nodes() {
                    if !p.terminal {
                        stack.push(Item::Node(h, m));
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
                            stack.push(Item::Path(nb.0, qi));
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
