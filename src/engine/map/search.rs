//! Exact optimal run search: the best set of routes for all of a corporation's trains together.
//!
//! The search works on a compressed graph. Its vertices are the revenue nodes (cities, towns,
//! offboards) connected to the corporation's stations; its edges are *chains*: the walks of
//! pass-through track from one node to the next (the same walks [`Board::compute_run`] matches
//! a logged connection against). Each chain carries the bitset of hexsides it crosses.
//!
//! 1. Every route is enumerated once: a simple path of chains whose inner nodes do not block
//!    (offboards, cities full of other corporations' tokens), with at least two stops, a
//!    station of the corporation, no group (port) twice, pairwise disjoint hexsides, and at
//!    most as many stops as the longest train may count. Its revenue comes from the title's
//!    [`RunRules`] (for 1836Jr30 the port rule of [`jr30_port_rule`](super::jr30_port_rule)).
//! 2. Each train gets the routes it may run, best first. A depth-first branch and bound picks
//!    one route (or none) per train with disjoint hexsides; the bound is the running total plus
//!    each remaining train's best route avoiding the track already taken (plus the title's
//!    largest run bonus). Trains of equal
//!    distance take routes in increasing list order, so no combination is visited twice.
//! 3. Ties keep the first combination found: routes are ordered by revenue, then by
//!    enumeration order, which follows map order, so the answer is deterministic.
//!
//! The result is written as [`RouteSpec`]s that [`Board::compute_run`] accepts with the same
//! revenue. An optional time limit stops the search early; the answer then says so and gives
//! an upper bound instead of claiming optimality.

use std::time::{Duration, Instant};

use super::board::{Board, MAX_CITIES};
use super::data::{Colour, Gauge, HexIdx, MapData, NodeKind};
use super::route::{DistanceMode, RouteErrorKind, RunContext, Stop};
use crate::action::RouteSpec;
use crate::ids::{CorpId, HexId, Money, TrainId};

/// The most revenue nodes one tile holds (two cities, or a double town), for bounds.
const MAX_NODES: u32 = 2;

/// Hexside bitset width in 64-bit words (512 hexsides: enough for 18Ireland's 88 hexes).
const WORDS: usize = 8;

type Bits = [u64; WORDS];

fn disjoint(a: &Bits, b: &Bits) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

fn union(a: &Bits, b: &Bits) -> Bits {
    let mut out = *a;
    for (o, y) in out.iter_mut().zip(b) {
        *o |= y;
    }
    out
}

/// Title-specific route rules the search needs. The defaults are the plain rules: any
/// gauge, distance in stops, revenue = sum of the stops, no bonus on the whole run.
pub trait RunRules {
    /// Revenue of one route from its stops and their plain sum; an error makes the route
    /// illegal (1836Jr30: a port on a route of fewer than three stops).
    ///
    /// # Errors
    /// The route breaks a title rule.
    fn route_revenue(&self, stops: &[Stop<'_>], sum: Money) -> Result<Money, RouteErrorKind>;

    /// Whether trains may run on track of this gauge (18Ireland: broad and dual only).
    fn gauge_usable(&self, gauge: Gauge) -> bool {
        let _ = gauge;
        true
    }

    /// Whether a train of `distance` may run a route of `stops` stops crossing `edges` hex
    /// edges (18Ireland hex trains count edges instead of stops). Trains of equal distance
    /// must fit the same routes, and a route that does not fit never fits once extended.
    fn fits(&self, distance: u32, stops: u32, edges: u32) -> bool {
        let _ = edges;
        stops <= distance
    }

    /// The most stops a route of a train of `distance` can have (for a bound that needs no
    /// enumeration).
    fn max_stops(&self, distance: u32) -> u32 {
        distance
    }

    /// Revenue a stop adds to every route it is on beyond its own value (18Ireland: the towns
    /// it reaches over narrow-gauge track).
    fn stop_bonus(&self, hex: HexIdx, node: u8) -> Money {
        let _ = (hex, node);
        Money(0)
    }

    /// An upper bound of what [`RunRules::route_revenue`] adds to one route beyond its stops'
    /// values and [`RunRules::stop_bonus`]es.
    fn max_route_extra(&self) -> Money {
        Money(0)
    }

    /// Bonus depending on the whole set of routes (e.g. 1822 destinations); 0 by default.
    fn run_bonus(&self, routes: &[FoundRoute]) -> Money {
        let _ = routes;
        Money(0)
    }

    /// An upper bound of [`RunRules::run_bonus`] over every possible run.
    fn max_run_bonus(&self) -> Money {
        Money(0)
    }

    /// Credits the run bonus to the route the title gives it to, if it goes to one route
    /// (18Ireland RSSC); by default it stays a bonus of the whole run.
    fn credit_run_bonus(&self, routes: &mut [FoundRoute]) {
        let _ = routes;
    }
}

/// A title's run rules from the engine's [`RunContext`] (distance mode, revenue hook, gauges,
/// narrow-gauge and private bonuses), on one board in one phase.
#[derive(Debug)]
pub struct ContextRules<'a> {
    ctx: RunContext<'a>,
    board: &'a Board,
    map: &'a MapData,
    phase_colours: &'a [Colour],
    /// Per river hex of RSSC: the value of the other river city, narrow-gauge bonus included.
    shannon: Vec<(HexId, Money)>,
}

impl<'a> ContextRules<'a> {
    /// The rules of `ctx` on `board` in a phase with tile colours `phase_colours`.
    pub fn new(
        ctx: RunContext<'a>,
        board: &'a Board,
        map: &'a MapData,
        phase_colours: &'a [Colour],
    ) -> ContextRules<'a> {
        let shannon = ctx.shannon.map_or_else(Vec::new, |river| {
            board.shannon_values(map, river, phase_colours)
        });
        ContextRules {
            ctx,
            board,
            map,
            phase_colours,
            shannon,
        }
    }

    /// The RSSC option of a route: the best other-river-city value over its city stops on a
    /// river hex.
    fn shannon_option(&self, route: &FoundRoute) -> Money {
        route
            .stops
            .iter()
            .filter(|&&(hex, part)| {
                self.map.hex_index(hex).is_some_and(|h| {
                    self.board
                        .tile_def(self.map, h)
                        .nodes
                        .iter()
                        .any(|n| n.part == part && n.kind == NodeKind::City)
                })
            })
            .filter_map(|(hex, _)| self.shannon.iter().find(|(h, _)| h == hex))
            .map(|&(_, v)| v)
            .max()
            .unwrap_or(Money(0))
    }
}

impl RunRules for ContextRules<'_> {
    fn route_revenue(&self, stops: &[Stop<'_>], sum: Money) -> Result<Money, RouteErrorKind> {
        let mut revenue = (self.ctx.hook)(stops, sum)?;
        for &(hex, bonus) in self.ctx.hex_bonuses {
            if stops.iter().any(|s| s.hex == hex) {
                revenue += bonus;
            }
        }
        Ok(revenue)
    }

    fn gauge_usable(&self, gauge: Gauge) -> bool {
        !(self.map.rules.gauges && gauge == Gauge::Narrow)
    }

    fn fits(&self, distance: u32, stops: u32, edges: u32) -> bool {
        match self.ctx.distance {
            DistanceMode::Stops => stops <= distance,
            DistanceMode::HexEdges => edges <= distance,
        }
    }

    fn max_stops(&self, distance: u32) -> u32 {
        match self.ctx.distance {
            DistanceMode::Stops => distance,
            // Each hex walked may hold several stops (two-city and double-town tiles).
            DistanceMode::HexEdges => distance.saturating_add(1).saturating_mul(MAX_NODES),
        }
    }

    fn stop_bonus(&self, hex: HexIdx, node: u8) -> Money {
        if self.ctx.narrow_bonus {
            self.board
                .narrow_bonus(self.map, (hex.0, node), self.phase_colours)
        } else {
            Money(0)
        }
    }

    fn max_route_extra(&self) -> Money {
        self.ctx
            .hex_bonuses
            .iter()
            .map(|&(_, b)| b.max(Money(0)))
            .sum()
    }

    fn run_bonus(&self, routes: &[FoundRoute]) -> Money {
        routes
            .iter()
            .map(|r| self.shannon_option(r))
            .max()
            .unwrap_or(Money(0))
    }

    fn max_run_bonus(&self) -> Money {
        self.shannon
            .iter()
            .map(|&(_, v)| v)
            .max()
            .unwrap_or(Money(0))
    }

    fn credit_run_bonus(&self, routes: &mut [FoundRoute]) {
        // Like the engine's run check: the last route with the largest option gets it.
        let mut best: Option<(usize, Money)> = None;
        for (i, r) in routes.iter().enumerate() {
            let option = self.shannon_option(r);
            if best.is_none_or(|(_, b)| option >= b) {
                best = Some((i, option));
            }
        }
        if let Some((i, bonus)) = best.filter(|&(_, b)| b > Money(0)) {
            routes[i].revenue += bonus;
            routes[i].spec.revenue = Some(routes[i].revenue);
        }
    }
}

/// A train to route: its id and how many stops it may count (999 for D trains).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainSpec {
    /// The train.
    pub train: TrainId,
    /// Its distance in stops.
    pub distance: u32,
    /// A D train, earning nodes' diesel values (see [`super::route::TrainRoute::diesel`]).
    pub diesel: bool,
}

/// Search limits.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchLimits {
    /// Stop after this long and report the best run found with an upper bound.
    pub time: Option<Duration>,
}

/// One train's route in the best run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundRoute {
    /// The route as a `run_routes` action states it (train, connections, nodes).
    pub spec: RouteSpec,
    /// Revenue of the route.
    pub revenue: Money,
    /// Stops in route order, as node signatures `(hex, part)`.
    pub stops: Vec<(HexId, u8)>,
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestRun {
    /// The routes, in the order of the trains given (trains that do not run are left out).
    pub routes: Vec<FoundRoute>,
    /// Total revenue (routes plus run bonus).
    pub total: Money,
    /// Whether the search finished, so that `total` is proven optimal.
    pub optimal: bool,
    /// Upper bound of the optimum (equal to `total` when optimal).
    pub upper_bound: Money,
    /// Routes enumerated (all trains).
    pub routes_considered: usize,
}

/// Why a search cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The network crosses more hexsides than the search's bitsets hold.
    #[error("the network has more than {0} hexsides")]
    TooManyHexsides(usize),
}

type NodeRef = (u16, u8);

/// A walk of track between two nodes.
#[derive(Debug, Clone)]
struct Chain {
    a: usize,
    b: usize,
    /// Hexes of the walked paths, from `a` to `b`.
    hexes: Vec<u16>,
    /// Hex edges crossed.
    edges: u32,
    bits: Bits,
}

/// A candidate route.
#[derive(Debug, Clone)]
struct Cand {
    revenue: i64,
    /// The revenue for a D train (nodes' diesel values; the same where none has one).
    diesel_revenue: i64,
    stops: u32,
    edges: u32,
    bits: Bits,
    start: usize,
    /// Chain indices in route order from `start`.
    chains: Vec<u32>,
}

struct Net<'a> {
    map: &'a MapData,
    board: &'a Board,
    corp: CorpId,
    nodes: Vec<NodeRef>,
    node_index: std::collections::HashMap<NodeRef, usize>,
    blocks: Vec<bool>,
    tokened: Vec<bool>,
    /// Per node, [`RunRules::stop_bonus`].
    bonus: Vec<i64>,
    chains: Vec<Chain>,
    /// Per node, (chain, other node).
    adj: Vec<Vec<(usize, usize)>>,
    hexside_ids: std::collections::HashMap<(u16, u8), usize>,
    node_path_ids: std::collections::HashMap<(u16, u8), usize>,
}

impl<'a> Net<'a> {
    fn node_id(&mut self, n: NodeRef) -> usize {
        if let Some(&i) = self.node_index.get(&n) {
            return i;
        }
        let i = self.nodes.len();
        self.nodes.push(n);
        self.node_index.insert(n, i);
        self.blocks.push(
            self.board
                .node_blocks(self.map, HexIdx(n.0), n.1, self.corp),
        );
        let t = self.board.tile_def(self.map, HexIdx(n.0));
        let tokened = t.cities.iter().position(|&c| c == n.1).is_some_and(|ci| {
            ci < MAX_CITIES && self.board.city_tokened_by(HexIdx(n.0), ci, self.corp)
        });
        self.tokened.push(tokened);
        self.adj.push(Vec::new());
        i
    }

    fn hexside(&mut self, h: u16, e: u8) -> Result<usize, SearchError> {
        let key = match self.board.neighbour(self.map, HexIdx(h), e) {
            Some(nb) => (h, e).min((nb.0, (e + 3) % 6)),
            None => (h, e),
        };
        let next = self.hexside_ids.len() + self.node_path_ids.len();
        let id = *self.hexside_ids.entry(key).or_insert(next);
        if id >= WORDS * 64 {
            return Err(SearchError::TooManyHexsides(WORDS * 64));
        }
        Ok(id)
    }

    fn node_path(&mut self, h: u16, pi: u8) -> Result<usize, SearchError> {
        let next = self.hexside_ids.len() + self.node_path_ids.len();
        let id = *self.node_path_ids.entry((h, pi)).or_insert(next);
        if id >= WORDS * 64 {
            return Err(SearchError::TooManyHexsides(WORDS * 64));
        }
        Ok(id)
    }

    /// All chains leaving node `n`: (end node, paths walked).
    fn walks_from(&self, n: NodeRef, rules: &dyn RunRules) -> Vec<(NodeRef, Vec<(u16, u8)>)> {
        let mut out = Vec::new();
        let t = self.board.tile_def(self.map, HexIdx(n.0));
        for (pi, p) in t.paths.iter().enumerate() {
            if !p.nodes().any(|m| m == n.1) || !rules.gauge_usable(p.gauge) {
                continue;
            }
            let mut stack = Vec::new();
            let mut counter = Vec::new();
            self.walk(
                n,
                n.0,
                pi as u8,
                None,
                &mut stack,
                &mut counter,
                &mut out,
                rules,
            );
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        start: NodeRef,
        h: u16,
        pi: u8,
        skip: Option<u8>,
        stack: &mut Vec<(u16, u8)>,
        counter: &mut Vec<(u16, u8)>,
        out: &mut Vec<(NodeRef, Vec<(u16, u8)>)>,
        rules: &dyn RunRules,
    ) {
        if stack.contains(&(h, pi)) {
            return;
        }
        let st = &self.board.hexes[usize::from(h)];
        let t = self.map.tile_def(st.tile.def);
        let p = &t.paths[usize::from(pi)];
        if p.edges(st.rotation).any(|e| counter.contains(&(h, e))) {
            return;
        }
        stack.push((h, pi));
        let first = stack.len() == 1;
        let mut ended = false;
        for m in p.nodes() {
            if first && m == start.1 {
                continue;
            }
            out.push(((h, m), stack.clone()));
            ended = true;
        }
        if !ended {
            for e in p.edges(st.rotation) {
                if Some(e) == skip {
                    continue;
                }
                // Irish Mail links count as neighbours, as for laying and running.
                let Some(nb) = self.board.neighbour(self.map, HexIdx(h), e) else {
                    continue;
                };
                let facing = (e + 3) % 6;
                counter.push((h, e));
                for (qi, q) in self.board.paths_on_edge(self.map, nb, facing) {
                    if p.gauge.joins(q.gauge) && rules.gauge_usable(q.gauge) {
                        self.walk(start, nb.0, qi, Some(facing), stack, counter, out, rules);
                    }
                }
                counter.pop();
            }
        }
        stack.pop();
    }

    /// The nodes and chains connected to the corporation's stations.
    fn build(
        map: &'a MapData,
        board: &'a Board,
        corp: CorpId,
        rules: &dyn RunRules,
    ) -> Result<Net<'a>, SearchError> {
        let mut net = Net {
            map,
            board,
            corp,
            nodes: Vec::new(),
            node_index: Default::default(),
            blocks: Vec::new(),
            tokened: Vec::new(),
            bonus: Vec::new(),
            chains: Vec::new(),
            adj: Vec::new(),
            hexside_ids: Default::default(),
            node_path_ids: Default::default(),
        };
        for s in board.stations(corp) {
            let node = board.tile_def(map, s.hex).cities[usize::from(s.city)];
            net.node_id((s.hex.0, node));
        }
        let mut next = 0;
        while next < net.nodes.len() {
            let n = net.nodes[next];
            let from = next;
            next += 1;
            // Routes never pass through a blocking node: what lies beyond it is reached
            // only through other nodes.
            if net.blocks[from] {
                continue;
            }
            for (end, paths) in net.walks_from(n, rules) {
                let to = net.node_id(end);
                if to < from && !net.blocks[to] {
                    // Found (reversed) when `to` was expanded.
                    continue;
                }
                if to == from {
                    continue;
                }
                let mut bits = [0u64; WORDS];
                for &(h, pi) in &paths {
                    let st = &board.hexes[usize::from(h)];
                    let p = &map.tile_def(st.tile.def).paths[usize::from(pi)];
                    for e in p.edges(st.rotation) {
                        let id = net.hexside(h, e)?;
                        bits[id / 64] |= 1 << (id % 64);
                    }
                    if p.nodes().count() > 1 {
                        let id = net.node_path(h, pi)?;
                        bits[id / 64] |= 1 << (id % 64);
                    }
                }
                let ci = net.chains.len();
                // Reference `hex_edge_cost`: consecutive paths on different hexes.
                let edges = paths.windows(2).filter(|w| w[0].0 != w[1].0).count() as u32;
                net.chains.push(Chain {
                    a: from,
                    b: to,
                    hexes: paths.iter().map(|&(h, _)| h).collect(),
                    edges,
                    bits,
                });
                net.adj[from].push((ci, to));
                net.adj[to].push((ci, from));
            }
        }
        net.bonus = net
            .nodes
            .iter()
            .map(|&(h, n)| rules.stop_bonus(HexIdx(h), n).0)
            .collect();
        Ok(net)
    }
}

struct Enumerator<'n, 'a> {
    net: &'n Net<'a>,
    rules: &'n dyn RunRules,
    phase_colours: &'n [super::data::Colour],
    max_distance: u32,
    path_nodes: Vec<usize>,
    path_chains: Vec<u32>,
    on_path: Vec<bool>,
    out: Vec<Cand>,
    deadline: Option<Instant>,
    ticks: u32,
    timed_out: bool,
}

impl Enumerator<'_, '_> {
    fn out_of_time(&mut self) -> bool {
        if self.timed_out {
            return true;
        }
        self.ticks += 1;
        // The first tick checks too, so that a spent budget stops at once.
        if self.ticks % 1024 == 1 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.timed_out = true;
                }
            }
        }
        self.timed_out
    }

    fn dfs(&mut self, used: Bits, edges: u32) {
        if self.out_of_time() {
            return;
        }
        let cur = *self.path_nodes.last().expect("path has a start");
        let start = self.path_nodes[0];
        if self.path_nodes.len() >= 2 && start < cur {
            self.record(used, edges);
        }
        let len = self.path_nodes.len() as u32;
        if len > 1 && self.net.blocks[cur] {
            return;
        }
        for k in 0..self.net.adj[cur].len() {
            let (ci, other) = self.net.adj[cur][k];
            if self.on_path[other] {
                continue;
            }
            let chain = &self.net.chains[ci];
            let next_edges = edges + chain.edges;
            if !self.rules.fits(self.max_distance, len + 1, next_edges)
                || !disjoint(&chain.bits, &used)
            {
                continue;
            }
            let next_used = union(&used, &chain.bits);
            self.on_path[other] = true;
            self.path_nodes.push(other);
            self.path_chains.push(ci as u32);
            self.dfs(next_used, next_edges);
            self.path_chains.pop();
            self.path_nodes.pop();
            self.on_path[other] = false;
        }
    }

    fn record(&mut self, used: Bits, edges: u32) {
        let net = self.net;
        if !self.path_nodes.iter().any(|&n| net.tokened[n]) {
            return;
        }
        let mut stops: Vec<Stop<'_>> = Vec::with_capacity(self.path_nodes.len());
        let mut groups: Vec<&str> = Vec::new();
        for &n in &self.path_nodes {
            let (h, ni) = net.nodes[n];
            let t = net.board.tile_def(net.map, HexIdx(h));
            let node = &t.nodes[usize::from(ni)];
            for g in &node.groups {
                if groups.contains(&g.as_str()) {
                    return;
                }
                groups.push(g);
            }
            stops.push(Stop {
                hex: net.map.hexes[usize::from(h)].id,
                part: node.part,
                node,
                value: node.revenue.value(self.phase_colours),
                tokened_by_runner: net.tokened[n],
            });
        }
        let sum: Money = stops.iter().map(|s| s.value).sum();
        let Ok(revenue) = self.rules.route_revenue(&stops, sum) else {
            return;
        };
        let bonus: i64 = self.path_nodes.iter().map(|&n| net.bonus[n]).sum();
        let diesel_revenue = if stops
            .iter()
            .any(|s| matches!(s.node.revenue, super::data::Revenue::ByColour(_, Some(_))))
        {
            for s in &mut stops {
                s.value = s.node.revenue.value_for(self.phase_colours, true);
            }
            let sum: Money = stops.iter().map(|s| s.value).sum();
            match self.rules.route_revenue(&stops, sum) {
                Ok(r) => r.0 + bonus,
                Err(_) => return,
            }
        } else {
            revenue.0 + bonus
        };
        self.out.push(Cand {
            revenue: revenue.0 + bonus,
            diesel_revenue,
            stops: stops.len() as u32,
            edges,
            bits: used,
            start: self.path_nodes[0],
            chains: self.path_chains.clone(),
        });
    }
}

struct Combiner<'c> {
    cands: &'c [Cand],
    /// Per train, whether it earns diesel values.
    diesel: Vec<bool>,
    /// Per train, candidate indices best first.
    lists: Vec<Vec<u32>>,
    /// Per train, the best revenue of the train and all trains after it.
    rest: Vec<i64>,
    same_as_prev: Vec<bool>,
    bonus_bound: i64,
    best: i64,
    best_pick: Vec<Option<u32>>,
    pick: Vec<Option<u32>>,
    /// Position in its list of each train's pick (usize::MAX for none).
    pos: Vec<usize>,
    deadline: Option<Instant>,
    ticks: u32,
    timed_out: bool,
    score: &'c dyn Fn(&[Option<u32>]) -> i64,
}

impl Combiner<'_> {
    /// What candidate `c` earns for train `i`.
    fn revenue(&self, i: usize, c: &Cand) -> i64 {
        if self.diesel[i] {
            c.diesel_revenue
        } else {
            c.revenue
        }
    }

    fn dfs(&mut self, i: usize, used: Bits, total: i64) {
        if self.timed_out {
            return;
        }
        self.ticks += 1;
        if self.ticks % 1024 == 1 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
            return;
        }
        if i == self.lists.len() {
            let value = if self.bonus_bound > 0 {
                (self.score)(&self.pick)
            } else {
                total
            };
            if value > self.best {
                self.best = value;
                self.best_pick.clone_from(&self.pick);
            }
            return;
        }
        if total + self.rest[i] + self.bonus_bound <= self.best {
            return;
        }
        // Tighter, when more than one train is left: each remaining train's best route that
        // avoids the track already used, trains of equal distance taking routes further down
        // their common list (conflicts among the remaining trains are ignored, so this is
        // still an upper bound). With one train left the loop below finds its best directly.
        if i + 1 < self.lists.len() {
            let mut bound = total + self.bonus_bound;
            let mut prev_pos = if i > 0 { self.pos[i - 1] } else { usize::MAX };
            for j in i..self.lists.len() {
                let from = if self.same_as_prev[j] {
                    if prev_pos == usize::MAX {
                        break;
                    }
                    prev_pos + 1
                } else {
                    0
                };
                let found = self.lists[j][from.min(self.lists[j].len())..]
                    .iter()
                    .position(|&k| disjoint(&self.cands[k as usize].bits, &used));
                match found {
                    Some(p) => {
                        prev_pos = from + p;
                        let c = &self.cands[self.lists[j][prev_pos] as usize];
                        bound += self.revenue(j, c).max(0);
                    }
                    None => prev_pos = usize::MAX,
                }
            }
            if bound <= self.best {
                return;
            }
        }
        let after = self.rest.get(i + 1).copied().unwrap_or(0);
        // Trains right after this one with the same distance pick further down the same list,
        // so each earns at most what this train's pick earns.
        let followers = self.same_as_prev[i + 1..]
            .iter()
            .take_while(|&&same| same)
            .count();
        let beyond = self.rest.get(i + 1 + followers).copied().unwrap_or(0);
        let (from, allow) = if self.same_as_prev[i] {
            let p = self.pos[i - 1];
            (p.saturating_add(1), p != usize::MAX)
        } else {
            (0, true)
        };
        if allow {
            for k in from..self.lists[i].len() {
                let c = &self.cands[self.lists[i][k] as usize];
                let revenue = self.revenue(i, c);
                let rest = after.min(revenue.max(0) * followers as i64 + beyond);
                if total + revenue + rest + self.bonus_bound <= self.best {
                    break;
                }
                if !disjoint(&c.bits, &used) {
                    continue;
                }
                let bits = c.bits;
                self.pick[i] = Some(self.lists[i][k]);
                self.pos[i] = k;
                self.dfs(i + 1, union(&used, &bits), total + revenue);
            }
        }
        self.pick[i] = None;
        self.pos[i] = usize::MAX;
        self.dfs(i + 1, used, total);
    }
}

impl Board {
    /// The best run for `corp`'s `trains` in a phase with tile colours `phase_colours`:
    /// exact branch and bound over all trains together (see the module docs).
    ///
    /// # Errors
    /// The network is too large for the search's bitsets.
    pub fn best_run(
        &self,
        map: &MapData,
        corp: CorpId,
        trains: &[TrainSpec],
        phase_colours: &[super::data::Colour],
        rules: &dyn RunRules,
        limits: SearchLimits,
    ) -> Result<BestRun, SearchError> {
        let deadline = limits.time.map(|t| Instant::now() + t);
        let net = Net::build(map, self, corp, rules)?;
        let max_distance = trains.iter().map(|t| t.distance).max().unwrap_or(0);
        let mut en = Enumerator {
            net: &net,
            rules,
            phase_colours,
            max_distance,
            path_nodes: Vec::new(),
            path_chains: Vec::new(),
            on_path: vec![false; net.nodes.len()],
            out: Vec::new(),
            deadline,
            ticks: 0,
            timed_out: false,
        };
        for s in 0..net.nodes.len() {
            en.on_path[s] = true;
            en.path_nodes.push(s);
            en.dfs([0; WORDS], 0);
            en.path_nodes.pop();
            en.on_path[s] = false;
        }
        let enum_timed_out = en.timed_out;
        let mut cands = en.out;
        // Best first; ties in enumeration order (stable sort).
        cands.sort_by_key(|c| std::cmp::Reverse(c.revenue));
        // Longest trains first, so that the bound tightens early; equal trains in given order.
        let mut order: Vec<usize> = (0..trains.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(trains[i].distance));
        let revenue_for = |ti: usize, c: &Cand| {
            if trains[ti].diesel {
                c.diesel_revenue
            } else {
                c.revenue
            }
        };
        let lists: Vec<Vec<u32>> = order
            .iter()
            .map(|&i| {
                let mut list: Vec<u32> = (0..cands.len() as u32)
                    .filter(|&k| {
                        let c = &cands[k as usize];
                        rules.fits(trains[i].distance, c.stops, c.edges)
                    })
                    .collect();
                if trains[i].diesel {
                    list.sort_by_key(|&k| std::cmp::Reverse(cands[k as usize].diesel_revenue));
                }
                list
            })
            .collect();
        let mut rest = vec![0i64; order.len()];
        for i in (0..order.len()).rev() {
            let best = lists[i]
                .first()
                .map_or(0, |&k| revenue_for(order[i], &cands[k as usize]).max(0));
            rest[i] = best + rest.get(i + 1).copied().unwrap_or(0);
        }
        let same_as_prev: Vec<bool> = (0..order.len())
            .map(|i| {
                i > 0
                    && trains[order[i]].distance == trains[order[i - 1]].distance
                    && trains[order[i]].diesel == trains[order[i - 1]].diesel
            })
            .collect();
        let bonus_bound = rules.max_run_bonus().0.max(0);
        let build = |pick: &[Option<u32>]| -> Vec<FoundRoute> {
            let mut routes: Vec<(usize, FoundRoute)> = pick
                .iter()
                .zip(&order)
                .filter_map(|(p, &ti)| {
                    p.map(|k| {
                        (
                            ti,
                            self.found_route(map, &net, &cands[k as usize], &trains[ti]),
                        )
                    })
                })
                .collect();
            routes.sort_by_key(|(ti, _)| *ti);
            routes.into_iter().map(|(_, r)| r).collect()
        };
        let score = |pick: &[Option<u32>]| -> i64 {
            let routes = build(pick);
            let sum: i64 = routes.iter().map(|r| r.revenue.0).sum();
            sum + rules.run_bonus(&routes).0
        };
        let mut comb = Combiner {
            cands: &cands,
            diesel: order.iter().map(|&i| trains[i].diesel).collect(),
            lists,
            rest: rest.clone(),
            same_as_prev,
            bonus_bound,
            best: 0,
            best_pick: vec![None; order.len()],
            pick: vec![None; order.len()],
            pos: vec![usize::MAX; order.len()],
            deadline,
            ticks: 0,
            timed_out: enum_timed_out,
            score: &score,
        };
        if !enum_timed_out {
            comb.dfs(0, [0; WORDS], 0);
        }
        let mut routes = build(&comb.best_pick);
        let total =
            Money(routes.iter().map(|r| r.revenue.0).sum::<i64>() + rules.run_bonus(&routes).0);
        rules.credit_run_bonus(&mut routes);
        let optimal = !comb.timed_out;
        let upper_bound = if optimal {
            total
        } else if enum_timed_out {
            Money(net.crude_bound(trains, phase_colours, rules) + bonus_bound)
        } else {
            Money((rest.first().copied().unwrap_or(0) + bonus_bound).max(total.0))
        };
        Ok(BestRun {
            routes,
            total,
            optimal,
            upper_bound,
            routes_considered: cands.len(),
        })
    }

    fn found_route(&self, map: &MapData, net: &Net<'_>, c: &Cand, train: &TrainSpec) -> FoundRoute {
        let revenue = if train.diesel {
            c.diesel_revenue
        } else {
            c.revenue
        };
        let train = train.train;
        let mut at = c.start;
        let mut nodes = vec![at];
        let mut connections = Vec::with_capacity(c.chains.len());
        for &ci in &c.chains {
            let ch = &net.chains[ci as usize];
            let mut hexes: Vec<HexId> = ch
                .hexes
                .iter()
                .map(|&h| map.hexes[usize::from(h)].id)
                .collect();
            if ch.a == at {
                at = ch.b;
            } else {
                hexes.reverse();
                at = ch.a;
            }
            nodes.push(at);
            connections.push(hexes);
        }
        let stops: Vec<(HexId, u8)> = nodes
            .iter()
            .map(|&n| {
                let (h, ni) = net.nodes[n];
                let part = self.tile_def(map, HexIdx(h)).nodes[usize::from(ni)].part;
                (map.hexes[usize::from(h)].id, part)
            })
            .collect();
        FoundRoute {
            spec: RouteSpec {
                walk: Vec::new(),
                train,
                connections,
                revenue: Some(Money(revenue)),
                nodes: stops.clone(),
            },
            revenue: Money(revenue),
            stops,
        }
    }
}

impl Net<'_> {
    /// A bound that needs no enumeration: per train, its `distance` most valuable nodes,
    /// grouped nodes (ports) counted at their value times the number of stations.
    fn crude_bound(
        &self,
        trains: &[TrainSpec],
        phase_colours: &[super::data::Colour],
        rules: &dyn RunRules,
    ) -> i64 {
        let stations = self.tokened.iter().filter(|&&t| t).count() as i64;
        let mut values: Vec<i64> = self
            .nodes
            .iter()
            .zip(&self.bonus)
            .map(|(&(h, ni), &bonus)| {
                let node = &self.board.tile_def(self.map, HexIdx(h)).nodes[usize::from(ni)];
                let diesel = trains.iter().any(|t| t.diesel);
                let v = node
                    .revenue
                    .value_for(phase_colours, diesel)
                    .0
                    .max(0)
                    .max(node.revenue.value(phase_colours).0);
                let v = if node.groups.is_empty() || node.kind == NodeKind::City {
                    v
                } else {
                    v * stations.max(1)
                };
                v + bonus.max(0)
            })
            .collect();
        values.sort_unstable_by_key(|&v| std::cmp::Reverse(v));
        trains
            .iter()
            .map(|t| {
                values
                    .iter()
                    .take(rules.max_stops(t.distance) as usize)
                    .sum::<i64>()
                    + rules.max_route_extra().0
            })
            .sum()
    }
}
