//! Route revenue from a `run_routes` action's `connections` (rules C.8) and route validation
//! (reference `Route#revenue` checks).

use super::board::{Board, MAX_CITIES};
use super::data::{Colour, End, HexIdx, MapData, NodeDef, NodeKind};
use crate::action::RouteSpec;
use crate::ids::{CorpId, HexId, Money};

/// One train's route to evaluate: the logged route and the train's distance in stops.
#[derive(Debug, Clone, Copy)]
pub struct TrainRoute<'a> {
    /// The logged route.
    pub spec: &'a RouteSpec,
    /// Stops the train may count (999 for D trains).
    pub distance: u32,
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

/// 1836Jr30 port rule: a route with a port needs at least 3 stops; the port's value is replaced
/// by its value times the number of stops that are cities holding the runner's token.
pub fn jr30_port_rule(stops: &[Stop<'_>], sum: Money) -> Result<Money, RouteErrorKind> {
    let Some(port) = stops.iter().find(|s| s.node.in_group("port")) else {
        return Ok(sum);
    };
    if stops.len() < 3 {
        return Err(RouteErrorKind::PortNeedsThreeStops(port.hex));
    }
    let tokened = stops
        .iter()
        .filter(|s| s.node.kind == NodeKind::City && s.tokened_by_runner)
        .count() as i64;
    Ok(sum - port.value + Money(port.value.0 * tokened))
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
    #[error("no track joins the hexes {0:?}")]
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

#[derive(Debug, Clone)]
struct Chain {
    nodes: [NodeRef; 2],
    paths: Vec<PathRef>,
}

struct Conn {
    left: NodeRef,
    right: NodeRef,
    chain: Chain,
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
        let mut all_paths: Vec<Vec<PathRef>> = Vec::with_capacity(routes.len());
        let mut conns: Vec<Vec<Conn>> = Vec::with_capacity(routes.len());
        for (ri, r) in routes.iter().enumerate() {
            let err = |kind| RouteError { route: ri, kind };
            let other: Vec<PathRef> = all_paths.iter().flatten().copied().collect();
            let c = self
                .connection_data(map, corp, r.spec, &other)
                .map_err(err)?;
            all_paths.push(
                c.iter()
                    .flat_map(|c| c.chain.paths.iter().copied())
                    .collect(),
            );
            conns.push(c);
        }
        // Track may be used once in the whole run (reference `check_overlap`).
        let mut used: Vec<(u16, u8, u8)> = Vec::new();
        let mut overlap: Vec<Option<HexId>> = vec![None; routes.len()];
        for (ri, paths) in all_paths.iter().enumerate() {
            for &(h, pi) in paths {
                let st = &self.hexes[usize::from(h)];
                let p = &map.tile_def(st.tile.def).paths[usize::from(pi)];
                let mut keys: Vec<(u16, u8, u8)> =
                    p.edges(st.rotation).map(|e| (h, 0, e)).collect();
                if p.nodes().count() > 1 {
                    keys.push((h, 1, pi));
                }
                for k in keys {
                    if used.contains(&k) {
                        overlap[ri].get_or_insert(map.hexes[usize::from(h)].id);
                    } else {
                        used.push(k);
                    }
                }
            }
        }
        let mut out = Vec::with_capacity(routes.len());
        for (ri, (r, c)) in routes.iter().zip(&conns).enumerate() {
            let err = |kind| RouteError { route: ri, kind };
            out.push(
                self.evaluate(map, corp, r, c, overlap[ri], phase_colours, hook)
                    .map_err(err)?,
            );
        }
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        map: &MapData,
        corp: CorpId,
        r: &TrainRoute<'_>,
        conns: &[Conn],
        overlap: Option<HexId>,
        phase_colours: &[Colour],
        hook: RevenueHook,
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
                    value: node.revenue.value(phase_colours),
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
        let ordered: Vec<PathRef> = conns
            .iter()
            .flat_map(|c| {
                let forward = c.chain.nodes[0] == c.left;
                let mut p = c.chain.paths.clone();
                if !forward {
                    p.reverse();
                }
                p
            })
            .collect();
        if ordered.len() >= 3 {
            for &(h, pi) in &ordered[1..ordered.len() - 1] {
                if self.tile_def(map, HexIdx(h)).paths[usize::from(pi)].terminal {
                    return Err(RouteErrorKind::ThroughTerminal);
                }
            }
        }
        let mut seen: Vec<NodeRef> = Vec::new();
        for c in conns {
            seen.push(c.left);
            if seen.contains(&c.right) {
                return Err(RouteErrorKind::StopTwice(hex_id(c.right.0)));
            }
            seen.push(c.right);
        }
        if stops.len() as u32 > r.distance {
            return Err(RouteErrorKind::TooLong {
                stops: stops.len() as u32,
                distance: r.distance,
            });
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
        let revenue = hook(&info, sum)?;
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
        other: &[PathRef],
    ) -> Result<Vec<Conn>, RouteErrorKind> {
        let mut possibilities = Vec::with_capacity(spec.connections.len());
        for seg in &spec.connections {
            let hexes: Vec<HexIdx> = seg
                .iter()
                .map(|h| map.hex_index(*h))
                .collect::<Option<_>>()
                .ok_or(RouteErrorKind::BadConnection)?;
            if hexes.is_empty() {
                return Err(RouteErrorKind::BadConnection);
            }
            let chains = self.matching_chains(map, &hexes);
            if chains.is_empty() {
                return Err(RouteErrorKind::NoSuchTrack(seg.clone()));
            }
            possibilities.push(chains);
        }
        let disjoint = |a: &[PathRef], b: &[PathRef]| !a.iter().any(|p| b.contains(p));
        let mut out = Vec::new();
        match possibilities.len() {
            0 => {}
            1 => {
                let tokened = |n: NodeRef| self.node_tokened_by(map, n, corp);
                let chain = possibilities[0]
                    .iter()
                    .find(|c| c.nodes.iter().any(|&n| tokened(n)) && disjoint(&c.paths, other))
                    .ok_or(RouteErrorKind::NoToken)?;
                out.push(Conn {
                    left: chain.nodes[0],
                    right: chain.nodes[1],
                    chain: chain.clone(),
                });
            }
            _ => {
                let mut other: Vec<PathRef> = other.to_vec();
                let sig = |n: NodeRef| {
                    let hex = map.hexes[usize::from(n.0)].id;
                    let part = self.tile_def(map, HexIdx(n.0)).nodes[usize::from(n.1)].part;
                    spec.nodes.contains(&(hex, part))
                };
                for i in 0..possibilities.len() - 1 {
                    let mut best: Option<(usize, usize, NodeRef, NodeRef, NodeRef, usize)> = None;
                    let mut count = 0;
                    for (ai, a) in possibilities[i].iter().enumerate() {
                        if !disjoint(&a.paths, &other) {
                            continue;
                        }
                        for (bi, b) in possibilities[i + 1].iter().enumerate() {
                            if !disjoint(&b.paths, &other) || !disjoint(&a.paths, &b.paths) {
                                continue;
                            }
                            let middle: Vec<NodeRef> = a
                                .nodes
                                .iter()
                                .copied()
                                .filter(|n| b.nodes.contains(n))
                                .collect();
                            if middle.len() != 1 {
                                continue;
                            }
                            let mid = middle[0];
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
                            let score = [left, right, mid].iter().filter(|&&n| sig(n)).count();
                            count += 1;
                            // First candidate, or (with stored signatures) the first best match.
                            let better = match &best {
                                None => true,
                                Some(b) => !spec.nodes.is_empty() && score > b.5,
                            };
                            if better {
                                best = Some((ai, bi, left, right, mid, score));
                            }
                        }
                    }
                    let _ = count;
                    let (ai, bi, left, right, mid, _) = best.ok_or(RouteErrorKind::NotJoined)?;
                    let a = &possibilities[i][ai];
                    let b = &possibilities[i + 1][bi];
                    if i == 0 {
                        out.push(Conn {
                            left,
                            right: mid,
                            chain: a.clone(),
                        });
                    }
                    out.push(Conn {
                        left: mid,
                        right,
                        chain: b.clone(),
                    });
                    other.extend_from_slice(&a.paths);
                }
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

    /// All walks from a node on the first hex to a node on the last hex whose paths lie exactly
    /// on `hexes` (reference `get_node_chains` filtered by `find_matching_chains`).
    fn matching_chains(&self, map: &MapData, hexes: &[HexIdx]) -> Vec<Chain> {
        let (h0, hk) = (hexes[0], hexes[hexes.len() - 1]);
        let t0 = self.tile_def(map, h0);
        let tk = self.tile_def(map, hk);
        let mut out = Vec::new();
        for s in 0..t0.nodes.len() as u8 {
            for e in 0..tk.nodes.len() as u8 {
                if h0 == hk && s == e {
                    continue;
                }
                let mut found = Vec::new();
                for (pi, p) in t0.paths.iter().enumerate() {
                    if !p.nodes().any(|n| n == s) {
                        continue;
                    }
                    let mut w = Walk {
                        board: self,
                        map,
                        hexes,
                        end: (hk.0, e),
                        stack: Vec::new(),
                        counter: Vec::new(),
                        found: &mut found,
                    };
                    w.walk(h0.0, pi as u8, None);
                }
                // Reference sorts by path count; all matches have the segment's length.
                for paths in found {
                    out.push(Chain {
                        nodes: [(h0.0, s), (hk.0, e)],
                        paths,
                    });
                }
            }
        }
        out
    }
}

struct Walk<'a, 'f> {
    board: &'a Board,
    map: &'a MapData,
    hexes: &'a [HexIdx],
    end: NodeRef,
    stack: Vec<PathRef>,
    counter: Vec<(u16, u8)>,
    found: &'f mut Vec<Vec<PathRef>>,
}

impl Walk<'_, '_> {
    fn walk(&mut self, h: u16, pi: u8, skip: Option<u8>) {
        let depth = self.stack.len();
        if depth >= self.hexes.len() || self.hexes[depth].0 != h || self.stack.contains(&(h, pi)) {
            return;
        }
        let st = &self.board.hexes[usize::from(h)];
        let t = self.map.tile_def(st.tile.def);
        let p = &t.paths[usize::from(pi)];
        if p.edges(st.rotation).any(|e| self.counter.contains(&(h, e))) {
            return;
        }
        self.stack.push((h, pi));
        if h == self.end.0
            && p.nodes().any(|n| n == self.end.1)
            && self.stack.len() == self.hexes.len()
        {
            self.found.push(self.stack.clone());
        }
        let hd = &self.map.hexes[usize::from(h)];
        for e in p.edges(st.rotation) {
            if Some(e) == skip {
                continue;
            }
            let Some(nb) = hd.neighbours[usize::from(e)] else {
                continue;
            };
            let facing = (e + 3) % 6;
            self.counter.push((h, e));
            let nst = &self.board.hexes[nb.get()];
            let nt = self.map.tile_def(nst.tile.def);
            for (qi, q) in nt.paths.iter().enumerate() {
                let touches = q
                    .ends()
                    .iter()
                    .any(|&x| x.rotated(nst.rotation) == End::Edge(facing));
                if touches && p.gauge.joins(q.gauge) {
                    self.walk(nb.0, qi as u8, Some(facing));
                }
            }
            self.counter.pop();
        }
        self.stack.pop();
    }
}
