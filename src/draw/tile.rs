//! Where a tile's parts go: node positions and the shape of each path, computed from the tile
//! definition alone (its paths, nodes and rotation), so that any title's tiles draw without
//! per-tile drawing data.
//!
//! Coordinates are those of a flat-topped hex of circumradius 100 centred on the origin (the
//! frame 18xx.games draws in); edge `e` faces the direction `(-sin 60e°, cos 60e°)`, so edge 0
//! is the bottom side and the edges go clockwise on screen. Pointy-topped maps turn the whole
//! hex by 30°.

use crate::engine::map::{End, NodeKind, TileDef};

/// Distance from the centre to the middle of a side.
pub const APOTHEM: f64 = 86.602_540_378_443_86;
/// Radius of a token slot.
pub const SLOT_RADIUS: f64 = 25.0;
/// Distance from the centre of a city or town that sits towards an edge.
const NODE_OFFSET: f64 = 50.0;

/// A point of the hex frame.
pub type Point = (f64, f64);

/// The unit vector towards edge `e` (may be a half edge such as 1.5).
///
/// The drawings' trigonometry is the `libm` crate's, not the C library's: glibc and musl round
/// some results differently, and a coordinate near a tenth's boundary then prints differently.
pub fn edge_direction(e: f64) -> Point {
    let a = (e * 60.0).to_radians();
    (-libm::sin(a), libm::cos(a))
}

/// The middle of side `e`.
pub fn edge_midpoint(e: u8) -> Point {
    let (x, y) = edge_direction(f64::from(e));
    (x * APOTHEM, y * APOTHEM)
}

/// The hex corner between sides `e` and `e + 1`.
pub fn corner(e: u8) -> Point {
    let (x, y) = edge_direction(f64::from(e) + 0.5);
    (x * 100.0, y * 100.0)
}

/// One piece of drawn track.
#[derive(Debug, Clone, PartialEq)]
pub enum Stroke {
    /// A straight line.
    Line(Point, Point),
    /// A circular arc, the short way, clockwise on screen when `sweep`.
    Arc {
        /// Start.
        from: Point,
        /// End.
        to: Point,
        /// Radius.
        radius: f64,
        /// Clockwise.
        sweep: bool,
    },
    /// A cubic Bézier curve.
    Curve(Point, Point, Point, Point),
}

impl Stroke {
    /// Where the stroke starts.
    pub fn start(&self) -> Point {
        match self {
            Stroke::Line(a, _) | Stroke::Curve(a, ..) => *a,
            Stroke::Arc { from, .. } => *from,
        }
    }

    /// The distance from `q` to the stroke's centre line (arcs and curves followed as 32
    /// straight pieces: within a tenth of a unit for the hex's track).
    pub fn distance_to(&self, q: Point) -> f64 {
        const PIECES: u32 = 32;
        let point_at = |t: f64| -> Point {
            match *self {
                Stroke::Line(a, b) => add(a, scale(sub(b, a), t)),
                Stroke::Arc {
                    from,
                    to,
                    radius,
                    sweep,
                } => {
                    let (centre, start, turn) = arc_geometry(from, to, radius, sweep);
                    let angle = start + turn * t;
                    add(
                        centre,
                        (radius * libm::cos(angle), radius * libm::sin(angle)),
                    )
                }
                Stroke::Curve(a, c1, c2, b) => {
                    let u = 1.0 - t;
                    let terms = [
                        scale(a, u * u * u),
                        scale(c1, 3.0 * u * u * t),
                        scale(c2, 3.0 * u * t * t),
                        scale(b, t * t * t),
                    ];
                    terms.into_iter().fold((0.0, 0.0), add)
                }
            }
        };
        let pieces = if matches!(self, Stroke::Line(..)) {
            1
        } else {
            PIECES
        };
        (0..pieces)
            .map(|k| {
                let a = point_at(f64::from(k) / f64::from(pieces));
                let b = point_at(f64::from(k + 1) / f64::from(pieces));
                segment_distance(q, a, b)
            })
            .fold(f64::INFINITY, f64::min)
    }
}

/// An SVG arc the short way from `from` to `to` (SVG's arc parameterisation, large-arc flag
/// 0): its centre, the angle of `from` seen from the centre and the signed angle it turns.
fn arc_geometry(from: Point, to: Point, radius: f64, sweep: bool) -> (Point, f64, f64) {
    let mid = scale(add(from, to), 0.5);
    let half = scale(sub(from, to), 0.5);
    let half_len = length(half);
    // A chord longer than the diameter: SVG scales the radius up to half the chord.
    let along = if half_len == 0.0 || half_len >= radius {
        0.0
    } else {
        libm::sqrt(radius * radius - half_len * half_len) / half_len
    };
    // The centre lies on the chord's normal, on the side the sweep flag says (the + sign
    // when the large-arc and sweep flags differ).
    let side = if sweep { 1.0 } else { -1.0 };
    let centre = add(mid, scale((half.1, -half.0), side * along));
    let start = libm::atan2(from.1 - centre.1, from.0 - centre.0);
    let end = libm::atan2(to.1 - centre.1, to.0 - centre.0);
    let mut turn = end - start;
    let full = 2.0 * std::f64::consts::PI;
    if sweep && turn < 0.0 {
        turn += full;
    } else if !sweep && turn > 0.0 {
        turn -= full;
    }
    (centre, start, turn)
}

/// The distance from `q` to the segment `a`–`b`.
fn segment_distance(q: Point, a: Point, b: Point) -> f64 {
    let ab = sub(b, a);
    let squared = ab.0 * ab.0 + ab.1 * ab.1;
    let t = if squared == 0.0 {
        0.0
    } else {
        (((q.0 - a.0) * ab.0 + (q.1 - a.1) * ab.1) / squared).clamp(0.0, 1.0)
    };
    length(sub(q, add(a, scale(ab, t))))
}

/// How a stop is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NodeShape {
    /// City circles (token slots).
    City,
    /// A town as a bar across its track, turned by `angle` degrees.
    TownBar {
        /// Angle of the bar.
        angle: f64,
    },
    /// A town as a dot.
    TownDot,
    /// An off-board revenue location.
    Offboard,
}

/// Where a node of the tile is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedNode {
    /// Centre.
    pub at: Point,
    /// Direction (half-edge units) the node leans towards, if it is off centre; multi-slot
    /// cities are laid out across this direction.
    pub towards: Option<f64>,
    /// How it is drawn.
    pub shape: NodeShape,
}

/// A tile laid out at a rotation: nodes and the strokes of each path.
#[derive(Debug, Clone)]
pub struct TileShape {
    /// Per node of the definition.
    pub nodes: Vec<PlacedNode>,
    /// Per path of the definition, its strokes.
    pub paths: Vec<Vec<Stroke>>,
    /// Directions (half-edge units, 0–5.5) already used by track, nodes or stubs, for placing
    /// labels and numbers where they do not cover anything.
    pub used_directions: Vec<f64>,
}

fn add((ax, ay): Point, (bx, by): Point) -> Point {
    (ax + bx, ay + by)
}

fn sub((ax, ay): Point, (bx, by): Point) -> Point {
    (ax - bx, ay - by)
}

fn scale((x, y): Point, k: f64) -> Point {
    (x * k, y * k)
}

fn length((x, y): Point) -> f64 {
    libm::hypot(x, y)
}

/// The track between two sides, as 18xx.games draws it: a straight line across, an arc of
/// radius 150 round the centre of the hex beyond the skipped side, or an arc of radius 50 round
/// the shared corner.
pub fn edge_to_edge(a: u8, b: u8) -> Stroke {
    let from = edge_midpoint(a);
    let to = edge_midpoint(b);
    let diff = (b + 6 - a) % 6;
    let (centre, radius) = match diff {
        3 => return Stroke::Line(from, to),
        1 => (corner(a), 50.0),
        5 => (corner(b), 50.0),
        2 => (
            scale(edge_direction(f64::from((a + 1) % 6)), 2.0 * APOTHEM),
            150.0,
        ),
        4 => (
            scale(edge_direction(f64::from((b + 1) % 6)), 2.0 * APOTHEM),
            150.0,
        ),
        _ => return Stroke::Line(from, to),
    };
    let (ux, uy) = (from.0 - centre.0, from.1 - centre.1);
    let (vx, vy) = (to.0 - centre.0, to.1 - centre.1);
    Stroke::Arc {
        from,
        to,
        radius,
        sweep: ux * vy - uy * vx > 0.0,
    }
}

/// A stroke split at its middle, with the middle point and the track's direction there (deg).
fn split_middle(stroke: &Stroke) -> (Stroke, Stroke, Point, f64) {
    match *stroke {
        Stroke::Line(a, b) => {
            let m = scale(add(a, b), 0.5);
            let angle = libm::atan2(b.1 - a.1, b.0 - a.0).to_degrees();
            (Stroke::Line(a, m), Stroke::Line(m, b), m, angle)
        }
        Stroke::Arc {
            from,
            to,
            radius,
            sweep,
        } => {
            // The centre is where both ends are `radius` away, on the side the sweep says.
            let mid_chord = scale(add(from, to), 0.5);
            let chord = (to.0 - from.0, to.1 - from.1);
            let half = length(chord) / 2.0;
            let h = (radius * radius - half * half).max(0.0).sqrt();
            let normal = scale((-chord.1, chord.0), 1.0 / (2.0 * half));
            let centre = if sweep {
                add(mid_chord, scale(normal, h))
            } else {
                add(mid_chord, scale(normal, -h))
            };
            let u = (from.0 - centre.0, from.1 - centre.1);
            let v = (to.0 - centre.0, to.1 - centre.1);
            let bisector = add(u, v);
            let m = add(centre, scale(bisector, radius / length(bisector)));
            let radial = (m.0 - centre.0, m.1 - centre.1);
            let tangent = if sweep {
                (-radial.1, radial.0)
            } else {
                (radial.1, -radial.0)
            };
            (
                Stroke::Arc {
                    from,
                    to: m,
                    radius,
                    sweep,
                },
                Stroke::Arc {
                    from: m,
                    to,
                    radius,
                    sweep,
                },
                m,
                libm::atan2(tangent.1, tangent.0).to_degrees(),
            )
        }
        Stroke::Curve(a, _, _, b) => {
            let m = scale(add(a, b), 0.5);
            let angle = libm::atan2(b.1 - a.1, b.0 - a.0).to_degrees();
            (Stroke::Line(a, m), Stroke::Line(m, b), m, angle)
        }
    }
}

/// Track from side `e` to a node at `at`: it leaves the side square to it and bends towards
/// the node.
fn edge_to_point(e: u8, at: Point) -> Stroke {
    let from = edge_midpoint(e);
    let inward = scale(edge_direction(f64::from(e)), -1.0);
    let d = length((at.0 - from.0, at.1 - from.1));
    Stroke::Curve(from, add(from, scale(inward, d * 0.5)), at, at)
}

/// The angular distance between two directions in half-edge units (0–3).
pub fn direction_gap(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(6.0);
    d.min(6.0 - d)
}

/// The direction (0–6, edge units) of a vector.
fn direction_of((x, y): Point) -> f64 {
    // Inverse of `edge_direction`: x = -sin, y = cos.
    (libm::atan2(-x, y).to_degrees() / 60.0).rem_euclid(6.0)
}

/// Lays a tile out at `rotation`.
pub fn layout(tile: &TileDef, rotation: u8) -> TileShape {
    let n = tile.nodes.len();
    let mut exits: Vec<Vec<u8>> = vec![Vec::new(); n];
    for p in &tile.paths {
        match (p.a.rotated(rotation), p.b.rotated(rotation)) {
            (End::Edge(e), End::Node(k)) | (End::Node(k), End::Edge(e)) => {
                if let Some(x) = exits.get_mut(usize::from(k)) {
                    if !x.contains(&e) {
                        x.push(e);
                    }
                }
            }
            _ => {}
        }
    }
    let stops = tile
        .nodes
        .iter()
        .filter(|d| d.kind != NodeKind::Offboard)
        .count();
    // A town on one line of track between two sides is drawn on that line, as a bar.
    let through_town = |k: usize| tile.nodes[k].kind == NodeKind::Town && exits[k].len() == 2;
    let mut nodes: Vec<Option<PlacedNode>> = vec![None; n];
    let mut used: Vec<f64> = Vec::new();
    for k in 0..n {
        if through_town(k) {
            let (a, b) = (exits[k][0], exits[k][1]);
            let (_, _, m, angle) = split_middle(&edge_to_edge(a, b));
            nodes[k] = Some(PlacedNode {
                at: m,
                towards: None,
                shape: NodeShape::TownBar {
                    angle: angle + 90.0,
                },
            });
        }
    }
    // Off-centre stops lean towards their exits; a lone stop sits in the middle.
    for k in 0..n {
        if nodes[k].is_some() || exits[k].is_empty() {
            continue;
        }
        let shape = match tile.nodes[k].kind {
            NodeKind::City => NodeShape::City,
            NodeKind::Town => NodeShape::TownDot,
            NodeKind::Offboard => NodeShape::Offboard,
        };
        let sum = exits[k]
            .iter()
            .fold((0.0, 0.0), |s, &e| add(s, edge_direction(f64::from(e))));
        let alone = stops <= 1 || shape == NodeShape::Offboard;
        nodes[k] = Some(if alone || length(sum) < 0.3 {
            PlacedNode {
                at: (0.0, 0.0),
                towards: None,
                shape,
            }
        } else {
            let dir = direction_of(sum);
            // Snap to the nearest half edge, as printed tiles do.
            let dir = ((dir * 2.0).round() / 2.0).rem_euclid(6.0);
            used.push(dir);
            let slots = tile.nodes[k].slots;
            let offset = if slots > 1 && dir.fract() != 0.0 {
                NODE_OFFSET - 8.0
            } else {
                NODE_OFFSET
            };
            PlacedNode {
                at: scale(edge_direction(dir), offset),
                towards: Some(dir),
                shape,
            }
        });
    }
    // A stop that track runs straight through sits in the middle, unless the tile has other
    // stops: then it moves along its own track towards the exit farthest from them.
    let mut taken: Vec<f64> = used.clone();
    for k in 0..n {
        let Some(node) = nodes[k] else { continue };
        if node.towards.is_some()
            || stops <= 1
            || exits[k].is_empty()
            || node.shape == NodeShape::Offboard
            || matches!(node.shape, NodeShape::TownBar { .. })
        {
            continue;
        }
        let gap = |d: f64| {
            taken
                .iter()
                .map(|t| direction_gap(d, *t))
                .fold(9.0, f64::min)
        };
        let Some(dir) = exits[k].iter().map(|&e| f64::from(e)).reduce(|best, d| {
            if gap(d) > gap(best) + 1e-9 {
                d
            } else {
                best
            }
        }) else {
            continue;
        };
        taken.push(dir);
        used.push(dir);
        nodes[k] = Some(PlacedNode {
            at: scale(edge_direction(dir), 40.0),
            towards: Some(dir),
            ..node
        });
    }
    // Stops without track spread out over the free directions.
    for (slot, def) in nodes.iter_mut().zip(&tile.nodes) {
        if slot.is_some() {
            continue;
        }
        let shape = match def.kind {
            NodeKind::City => NodeShape::City,
            NodeKind::Town => NodeShape::TownDot,
            NodeKind::Offboard => NodeShape::Offboard,
        };
        if stops <= 1 || shape == NodeShape::Offboard {
            *slot = Some(PlacedNode {
                at: (0.0, 0.0),
                towards: None,
                shape,
            });
            continue;
        }
        // Side by side first, leaving the top and bottom to the name and the label.
        let dir = if taken.is_empty() {
            1.5
        } else {
            (0..12)
                .map(|i| f64::from(i) / 2.0)
                .max_by(|a, b| {
                    let ga = taken
                        .iter()
                        .map(|t| direction_gap(*a, *t))
                        .fold(9.0, f64::min);
                    let gb = taken
                        .iter()
                        .map(|t| direction_gap(*b, *t))
                        .fold(9.0, f64::min);
                    // Ties go to the earlier direction.
                    ga.total_cmp(&gb).then(b.total_cmp(a))
                })
                .unwrap_or(0.0)
        };
        taken.push(dir);
        used.push(dir);
        *slot = Some(PlacedNode {
            at: scale(edge_direction(dir), NODE_OFFSET),
            towards: Some(dir),
            shape,
        });
    }
    let nodes: Vec<PlacedNode> = nodes
        .into_iter()
        .map(|n| {
            n.unwrap_or(PlacedNode {
                at: (0.0, 0.0),
                towards: None,
                shape: NodeShape::TownDot,
            })
        })
        .collect();
    let mut paths = Vec::with_capacity(tile.paths.len());
    for p in &tile.paths {
        let strokes = match (p.a.rotated(rotation), p.b.rotated(rotation)) {
            (End::Edge(a), End::Edge(b)) => {
                used.push(f64::from(a));
                used.push(f64::from(b));
                if tile.junction {
                    vec![
                        Stroke::Line(edge_midpoint(a), (0.0, 0.0)),
                        Stroke::Line((0.0, 0.0), edge_midpoint(b)),
                    ]
                } else {
                    vec![edge_to_edge(a, b)]
                }
            }
            (End::Edge(e), End::Node(k)) | (End::Node(k), End::Edge(e)) => {
                used.push(f64::from(e));
                let k = usize::from(k);
                if through_town(k) {
                    let (a, b) = (exits[k][0], exits[k][1]);
                    let (first, second, _, _) = split_middle(&edge_to_edge(a, b));
                    vec![if e == a { first } else { second }]
                } else if tile.nodes[k].kind == NodeKind::Offboard {
                    let from = edge_midpoint(e);
                    vec![Stroke::Line(from, scale(from, 0.45))]
                } else {
                    vec![edge_to_point(e, nodes[k].at)]
                }
            }
            (End::Node(a), End::Node(b)) => {
                let at = |k: u8| nodes.get(usize::from(k)).map_or((0.0, 0.0), |n| n.at);
                vec![Stroke::Line(at(a), at(b))]
            }
        };
        paths.push(strokes);
    }
    used.sort_by(f64::total_cmp);
    used.dedup();
    TileShape {
        nodes,
        paths,
        used_directions: used,
    }
}

/// The free direction (half-edge units) farthest from everything in `used`, preferring the
/// earlier of `preferred` on ties.
pub fn free_direction(used: &[f64], preferred: &[f64]) -> f64 {
    let gap = |d: f64| {
        used.iter()
            .map(|u| direction_gap(d, *u))
            .fold(9.0, f64::min)
    };
    let mut best = preferred.first().copied().unwrap_or(0.0);
    let mut best_gap = gap(best);
    for &d in preferred.iter().skip(1) {
        let g = gap(d);
        if g > best_gap + 1e-9 {
            best = d;
            best_gap = g;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distances to each kind of stroke, against values worked out by hand.
    #[test]
    fn distances_to_strokes() {
        let close = |got: f64, want: f64| assert!((got - want).abs() < 0.05, "{got} ≠ {want}");
        let line = Stroke::Line((0.0, 0.0), (10.0, 0.0));
        close(line.distance_to((5.0, 3.0)), 3.0);
        close(line.distance_to((13.0, 4.0)), 5.0);
        // Clockwise on the page (y down) round (0, 0), through (35.4, 35.4).
        let clockwise = Stroke::Arc {
            from: (50.0, 0.0),
            to: (0.0, 50.0),
            radius: 50.0,
            sweep: true,
        };
        close(clockwise.distance_to((0.0, 0.0)), 50.0);
        close(
            clockwise.distance_to((100.0, 100.0)),
            2f64.sqrt() * 100.0 - 50.0,
        );
        close(clockwise.distance_to((0.0, -50.0)), 50.0 * 2f64.sqrt());
        // The other way: round (50, 50), through (14.6, 14.6).
        let anticlockwise = Stroke::Arc {
            from: (50.0, 0.0),
            to: (0.0, 50.0),
            radius: 50.0,
            sweep: false,
        };
        close(anticlockwise.distance_to((50.0, 50.0)), 50.0);
        close(
            anticlockwise.distance_to((0.0, 0.0)),
            50.0 * 2f64.sqrt() - 50.0,
        );
        let curve = Stroke::Curve((0.0, 0.0), (10.0, 0.0), (20.0, 0.0), (30.0, 0.0));
        close(curve.distance_to((15.0, 4.0)), 4.0);
        close(curve.distance_to((-3.0, -4.0)), 5.0);
    }
    use crate::engine::title::jr30::map as jr30;

    fn def(name: &str) -> &'static TileDef {
        let m = jr30();
        m.tile_def(m.tile_def_by_name(name).unwrap())
    }

    #[test]
    fn curves_follow_the_side_distance() {
        assert!(matches!(edge_to_edge(0, 3), Stroke::Line(..)));
        let Stroke::Arc { radius, .. } = edge_to_edge(0, 1) else {
            panic!("sharp curve is an arc")
        };
        assert_eq!(radius, 50.0);
        let Stroke::Arc { radius, .. } = edge_to_edge(4, 0) else {
            panic!("gentle curve is an arc")
        };
        assert_eq!(radius, 150.0);
    }

    #[test]
    fn a_lone_city_sits_in_the_middle_and_two_cities_lean_to_their_exits() {
        let one = layout(def("57"), 0);
        assert_eq!(one.nodes[0].at, (0.0, 0.0));
        // Tile 59 (OO): city 0 towards side 0, city 1 towards side 2; turned by one sixth.
        let oo = layout(def("59"), 1);
        assert_eq!(oo.nodes[0].towards, Some(1.0));
        assert_eq!(oo.nodes[1].towards, Some(3.0));
    }

    #[test]
    fn a_town_between_two_sides_is_a_bar_on_the_track() {
        let t = layout(def("4"), 0);
        assert!(matches!(t.nodes[0].shape, NodeShape::TownBar { .. }));
        let (x, y) = t.nodes[0].at;
        assert!(x.abs() < 1e-9 && y.abs() < 1e-9, "the middle of a straight");
        // Tile 3: the bar sits on the middle of the sharp curve, 50 from the corner.
        let sharp = layout(def("3"), 0);
        let (x, y) = sharp.nodes[0].at;
        let (cx, cy) = corner(0);
        assert!(((x - cx).hypot(y - cy) - 50.0).abs() < 1e-6);
    }

    /// Every tile of every title at every rotation: stops inside the hex, cities apart, each
    /// path drawn from where it starts.
    #[test]
    fn every_tile_lays_out_inside_its_hex() {
        use crate::engine::title::ireland::map as ireland;
        for map in [jr30(), ireland()] {
            for tile in &map.tiles {
                for rotation in 0..6 {
                    let shape = layout(tile, rotation);
                    let what = format!("{} tile {} r{rotation}", map.title, tile.name);
                    for node in &shape.nodes {
                        let (x, y) = node.at;
                        assert!(
                            x.hypot(y) <= APOTHEM - SLOT_RADIUS + 1e-6,
                            "{what}: {node:?}"
                        );
                    }
                    let cities: Vec<Point> = tile
                        .cities
                        .iter()
                        .map(|&c| shape.nodes[usize::from(c)].at)
                        .collect();
                    for (i, a) in cities.iter().enumerate() {
                        for b in &cities[i + 1..] {
                            let d = (a.0 - b.0).hypot(a.1 - b.1);
                            assert!(d >= 2.0 * SLOT_RADIUS - 5.0, "{what}: cities {d} apart");
                        }
                    }
                    assert_eq!(shape.paths.len(), tile.paths.len(), "{what}");
                    for (path, strokes) in tile.paths.iter().zip(&shape.paths) {
                        if let End::Edge(e) = path.a.rotated(rotation) {
                            let (x, y) = strokes[0].start();
                            let (mx, my) = edge_midpoint(e);
                            assert!((x - mx).hypot(y - my) < 1e-6, "{what}: {path:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn stops_without_track_spread_out() {
        let e5 = layout(def("E5"), 0);
        assert_eq!(e5.nodes[0].towards, Some(1.5));
        assert_eq!(e5.nodes[1].towards, Some(4.5));
    }
}
