//! The board at a game state as SVG, drawn like 18xx.games draws it: the hex grid with its
//! coordinates along the edges, terrain and its cost, every tile with its track, cities with
//! token slots, towns, off-boards with their phase revenues, labels and names, blocked hexes,
//! reserved home spots, tokens in corporation colours and, optionally, runs in colour.
//!
//! Everything comes from the engine's map and tile data and the title's colours; nothing here
//! names a title. Each hex is one `<g data-hex="E5">`; a laid tile carries `data-tile` and
//! `data-rotation`, a token `data-corp`.

use crate::action::RouteSpec;
use crate::engine::map::{
    Colour, End, Gauge, HexIdx, Layout, MapData, NodeKind, Revenue, TileDef, MAX_SLOTS,
};
use crate::engine::title::{Ability, Title};
use crate::engine::{CompanyOwner, Game};
use crate::ids::{CorpId, HexId, Money};

use super::palette::{self, corp_colours};
use super::svg::{Num, PathData, Svg, Value};
use super::tile::{
    corner, edge_direction, free_direction, layout, NodeShape, Point, Stroke, TileShape, APOTHEM,
    SLOT_RADIUS,
};

const MARGIN: f64 = 50.0;
const CAPTION: f64 = 50.0;
const LEGEND_LINE: f64 = 34.0;

/// Where each hex of a map goes on the page.
#[derive(Debug, Clone)]
pub struct Frame {
    layout: Layout,
    centres: Vec<Point>,
    /// Page width and height (without the route legend).
    pub width: f64,
    /// Page height.
    pub height: f64,
}

impl Frame {
    /// The frame of a title's map.
    pub fn new(map: &MapData) -> Frame {
        let raw: Vec<Point> = map
            .hexes
            .iter()
            .map(|h| {
                let letter = f64::from(h.id.letter);
                let number = f64::from(h.id.number);
                match map.layout {
                    Layout::Flat => (letter * 150.0, number * APOTHEM),
                    Layout::Pointy => (number * APOTHEM, letter * 150.0),
                }
            })
            .collect();
        let (half_w, half_h) = match map.layout {
            Layout::Flat => (100.0, APOTHEM),
            Layout::Pointy => (APOTHEM, 100.0),
        };
        let min_x = raw.iter().map(|p| p.0).fold(f64::INFINITY, f64::min) - half_w;
        let max_x = raw.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max) + half_w;
        let min_y = raw.iter().map(|p| p.1).fold(f64::INFINITY, f64::min) - half_h;
        let max_y = raw.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max) + half_h;
        let (min_x, max_x, min_y, max_y) = if raw.is_empty() {
            (0.0, 0.0, 0.0, 0.0)
        } else {
            (min_x, max_x, min_y, max_y)
        };
        let centres = raw
            .iter()
            .map(|(x, y)| (x - min_x + MARGIN, y - min_y + MARGIN + CAPTION))
            .collect();
        Frame {
            layout: map.layout,
            centres,
            width: max_x - min_x + 2.0 * MARGIN,
            height: max_y - min_y + 2.0 * MARGIN + CAPTION,
        }
    }

    /// The centre of a hex on the page.
    pub fn centre(&self, hex: HexIdx) -> Point {
        self.centres.get(hex.get()).copied().unwrap_or((0.0, 0.0))
    }

    /// Degrees the hex frame is turned on the page (30 for pointy-topped maps).
    fn turn(&self) -> f64 {
        match self.layout {
            Layout::Flat => 0.0,
            Layout::Pointy => 30.0,
        }
    }
}

/// One train's run drawn on the map.
#[derive(Debug, Clone)]
pub struct DrawnRoute {
    /// The train (`5-1`).
    pub train: String,
    /// Stops in order, by hex.
    pub stops: Vec<HexId>,
    /// Revenue.
    pub revenue: Money,
    /// The tile paths the route uses: hex and index into its tile's paths.
    pub paths: Vec<(HexIdx, usize)>,
}

/// Which tile paths a route walks: for each connection, the path from the stop (or the side
/// it came in by) to the side towards the next hex, and into the last stop.
pub fn route_paths(game: &Game, route: &RouteSpec) -> Vec<(HexIdx, usize)> {
    let map = game.title.map;
    let mut out = Vec::new();
    for conn in &route.connections {
        let idxs: Vec<HexIdx> = conn.iter().filter_map(|h| map.hex_index(*h)).collect();
        if idxs.len() != conn.len() || idxs.is_empty() {
            continue;
        }
        let edge_to = |from: HexIdx, to: HexIdx| {
            (0..6u8).find(|&e| map.hex_def(from).all_neighbours[usize::from(e)] == Some(to))
        };
        for (i, &hex) in idxs.iter().enumerate() {
            let (tile, rotation) = game.board.tile_at(hex);
            let def = map.tile_def(tile.def);
            let rot = rotation.get();
            let entry = i
                .checked_sub(1)
                .and_then(|p| edge_to(hex, idxs[p]))
                .map(End::Edge);
            let exit = idxs
                .get(i + 1)
                .and_then(|&n| edge_to(hex, n))
                .map(End::Edge);
            // A stop at the start or end of the connection: any node the track there reaches.
            let ends: Vec<End> = [entry, exit].into_iter().flatten().collect();
            let path_ends = |p: &crate::engine::map::PathDef| [p.a.rotated(rot), p.b.rotated(rot)];
            let mut chosen: Vec<usize> = Vec::new();
            if ends.len() == 2 {
                // Passing through: a side-to-side path, or two paths joined at a node.
                if let Some(k) = def.paths.iter().position(|p| {
                    let e = path_ends(p);
                    (e[0] == ends[0] && e[1] == ends[1]) || (e[0] == ends[1] && e[1] == ends[0])
                }) {
                    chosen.push(k);
                } else {
                    for side in &ends {
                        chosen.extend(def.paths.iter().position(|p| path_ends(p).contains(side)));
                    }
                }
            } else if let Some(side) = ends.first() {
                let stop = route
                    .nodes
                    .iter()
                    .find(|(h, _)| *h == map.hex_def(hex).id)
                    .map(|(_, part)| *part);
                let reaches_stop = |p: &crate::engine::map::PathDef| {
                    p.nodes().any(|n| {
                        let node = &def.nodes[usize::from(n)];
                        stop.is_none_or(|part| node.part == part)
                    })
                };
                chosen.extend(
                    def.paths
                        .iter()
                        .position(|p| path_ends(p).contains(side) && reaches_stop(p))
                        .or_else(|| def.paths.iter().position(|p| path_ends(p).contains(side))),
                );
            }
            out.extend(chosen.into_iter().map(|k| (hex, k)));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// What is drawn around the hexes: a caption and the legend of the runs shown.
#[derive(Debug, Clone, Default)]
pub struct MapOptions {
    /// The line above the map (title, round, phase).
    pub caption: String,
    /// Runs to draw, each in its own colour.
    pub routes: Vec<DrawnRoute>,
    /// The corporation whose runs they are.
    pub routes_of: Option<CorpId>,
}

/// The whole board as an SVG document.
pub fn map_svg(game: &Game, options: &MapOptions) -> String {
    let frame = Frame::new(game.title.map);
    map_document(game, &frame, options, |svg, hex| {
        svg.raw(&hex_svg(game, &frame, hex, &options.routes));
    })
}

/// The board's document around hexes that `hex` writes (the viewer wraps them to swap them).
pub(crate) fn map_document(
    game: &Game,
    frame: &Frame,
    options: &MapOptions,
    mut hex: impl FnMut(&mut Svg, HexIdx),
) -> String {
    let map = game.title.map;
    let legend = if options.routes.is_empty() {
        0.0
    } else {
        LEGEND_LINE * (options.routes.len() as f64 + 1.0) + 10.0
    };
    let height = frame.height + legend;
    let mut svg = Svg::new();
    let view_box = format!("0 0 {} {}", Num(frame.width), Num(height));
    svg.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("viewBox", view_box.as_str().into()),
            ("width", frame.width.into()),
            ("height", height.into()),
            ("font-family", palette::FONT.into()),
            ("data-title", game.title.name.as_str().into()),
            ("class", "map".into()),
        ],
    );
    svg.leaf(
        "rect",
        &[
            ("width", frame.width.into()),
            ("height", height.into()),
            ("fill", "#ffffff".into()),
        ],
    );
    svg.text(
        "text",
        &[
            ("x", MARGIN.into()),
            ("y", 38.0.into()),
            ("font-size", 26.0.into()),
            ("font-weight", "bold".into()),
            ("class", "caption".into()),
        ],
        &options.caption,
    );
    axes(&mut svg, map, frame);
    svg.open("g", &[("class", "hexes".into())]);
    // One hex a line, so that drawings diff by hex.
    for i in 0..map.hexes.len() {
        svg.raw("\n");
        hex(&mut svg, HexIdx(i as u16));
    }
    svg.raw("\n");
    svg.close("g");
    if !options.routes.is_empty() {
        route_legend(&mut svg, game, frame, options);
    }
    svg.close("svg");
    svg.raw("\n");
    svg.finish()
}

fn route_legend(svg: &mut Svg, game: &Game, frame: &Frame, options: &MapOptions) {
    let mut y = frame.height + LEGEND_LINE;
    let who = options
        .routes_of
        .map(|c| game.title.corp(c).sym.clone())
        .unwrap_or_default();
    let total: Money = options.routes.iter().map(|r| r.revenue).sum();
    svg.text(
        "text",
        &[
            ("x", MARGIN.into()),
            ("y", y.into()),
            ("font-size", 22.0.into()),
            ("font-weight", "bold".into()),
        ],
        &format!("Best run of {who}: {total}"),
    );
    for (i, r) in options.routes.iter().enumerate() {
        y += LEGEND_LINE;
        svg.leaf(
            "rect",
            &[
                ("x", MARGIN.into()),
                ("y", (y - 16.0).into()),
                ("width", 40.0.into()),
                ("height", 14.0.into()),
                ("fill", palette::route_colour(i).into()),
            ],
        );
        let stops: Vec<String> = r.stops.iter().map(ToString::to_string).collect();
        svg.text(
            "text",
            &[
                ("x", (MARGIN + 52.0).into()),
                ("y", y.into()),
                ("font-size", 20.0.into()),
            ],
            &format!("{}: {} — {}", r.train, stops.join("–"), r.revenue),
        );
    }
}

/// Coordinates along the edges of the map: letters and numbers at the rows and columns.
fn axes(svg: &mut Svg, map: &MapData, frame: &Frame) {
    use std::collections::BTreeMap;
    // Per letter and per number: the span of the page coordinate across them.
    let mut letters: BTreeMap<u8, (f64, f64, f64)> = BTreeMap::new();
    let mut numbers: BTreeMap<i16, (f64, f64, f64)> = BTreeMap::new();
    for (i, h) in map.hexes.iter().enumerate() {
        let (x, y) = frame.centre(HexIdx(i as u16));
        let (along, across) = match map.layout {
            Layout::Flat => (x, y),
            Layout::Pointy => (y, x),
        };
        let e = letters
            .entry(h.id.letter)
            .or_insert((along, across, across));
        e.1 = e.1.min(across);
        e.2 = e.2.max(across);
        let (along_n, across_n) = match map.layout {
            Layout::Flat => (y, x),
            Layout::Pointy => (x, y),
        };
        let e = numbers
            .entry(h.id.number)
            .or_insert((along_n, across_n, across_n));
        e.1 = e.1.min(across_n);
        e.2 = e.2.max(across_n);
    }
    let style = [
        ("font-size", Value::Num(20.0)),
        ("fill", "#555555".into()),
        ("text-anchor", "middle".into()),
        ("dominant-baseline", "central".into()),
    ];
    svg.open("g", &[("class", "coordinates".into())]);
    // Flat maps: letters name columns (top and bottom), numbers rows (left and right).
    // Pointy maps: letters name rows (left and right), numbers columns (top and bottom).
    let top = CAPTION + MARGIN / 2.0;
    let bottom = frame.height - MARGIN / 2.0;
    let left = MARGIN / 2.0;
    let right = frame.width - MARGIN / 2.0;
    let put = |svg: &mut Svg, text: &str, x: f64, y: f64| {
        let mut attrs = vec![("x", Value::Num(x)), ("y", Value::Num(y))];
        attrs.extend_from_slice(&style);
        svg.text("text", &attrs, text);
    };
    for (letter, (along, _, _)) in &letters {
        let name = ((b'A' + letter) as char).to_string();
        match map.layout {
            Layout::Flat => {
                put(svg, &name, *along, top);
                put(svg, &name, *along, bottom);
            }
            Layout::Pointy => {
                put(svg, &name, left, *along);
                put(svg, &name, right, *along);
            }
        }
    }
    for (number, (along, _, _)) in &numbers {
        let name = number.to_string();
        match map.layout {
            Layout::Flat => {
                put(svg, &name, left, *along);
                put(svg, &name, right, *along);
            }
            Layout::Pointy => {
                put(svg, &name, *along, top);
                put(svg, &name, *along, bottom);
            }
        }
    }
    svg.close("g");
}

/// Context for drawing the parts of one hex.
struct HexPainter<'a> {
    svg: Svg,
    /// Counter-rotation for upright text.
    upright: f64,
    title: &'a Title,
}

impl HexPainter<'_> {
    /// Directions on the page as directions of the (possibly turned) hex frame.
    fn local(&self, page: &[f64]) -> Vec<f64> {
        let shift = -self.upright / 60.0;
        page.iter().map(|d| (d - shift).rem_euclid(6.0)).collect()
    }

    fn text(&mut self, at: Point, size: f64, attrs: &[(&str, Value<'_>)], text: &str) {
        let transform = if self.upright == 0.0 {
            format!("translate({} {})", Num(at.0), Num(at.1))
        } else {
            format!(
                "translate({} {}) rotate({})",
                Num(at.0),
                Num(at.1),
                Num(self.upright)
            )
        };
        let mut all: Vec<(&str, Value<'_>)> = vec![
            ("transform", transform.as_str().into()),
            ("font-size", size.into()),
            ("text-anchor", "middle".into()),
            ("dominant-baseline", "central".into()),
        ];
        all.extend_from_slice(attrs);
        self.svg.text("text", &all, text);
    }
}

fn stroke_data(s: &Stroke) -> PathData {
    match *s {
        Stroke::Line(a, b) => PathData::new().move_to(a).line_to(b),
        Stroke::Arc {
            from,
            to,
            radius,
            sweep,
        } => PathData::new().move_to(from).arc_to(radius, sweep, to),
        Stroke::Curve(a, c1, c2, b) => PathData::new().move_to(a).cubic_to(c1, c2, b),
    }
}

/// One hex as a `<g data-hex=…>` element, placed on the page.
pub fn hex_svg(game: &Game, frame: &Frame, hex: HexIdx, routes: &[DrawnRoute]) -> String {
    let map = game.title.map;
    let def = map.hex_def(hex);
    let state = &game.board.hexes[hex.get()];
    let tile = map.tile_def(state.tile.def);
    let rotation = state.rotation;
    let shape = layout(tile, rotation);
    let (cx, cy) = frame.centre(hex);
    let turn = frame.turn();
    let mut p = HexPainter {
        svg: Svg::new(),
        upright: -turn,
        title: game.title,
    };
    let id = def.id.to_string();
    let transform = if turn == 0.0 {
        format!("translate({} {})", Num(cx), Num(cy))
    } else {
        format!("translate({} {}) rotate({})", Num(cx), Num(cy), Num(turn))
    };
    let laid = state.tile != def.tile;
    let tile_name = map.tile_name(state.tile);
    let mut attrs: Vec<(&str, Value<'_>)> = vec![
        ("data-hex", id.as_str().into()),
        ("transform", transform.as_str().into()),
    ];
    let rotation_text = rotation.to_string();
    if laid {
        attrs.push(("data-tile", tile.name.as_str().into()));
        attrs.push(("data-tile-id", tile_name.as_str().into()));
        attrs.push(("data-rotation", rotation_text.as_str().into()));
    }
    p.svg.open("g", &attrs);
    hex_outline(&mut p, tile.colour);
    let mut used = shape.used_directions.clone();
    track(&mut p, tile, &shape, hex, routes);
    nodes(&mut p, game, hex, tile, &shape, &mut used);
    borders(&mut p, def.impassable);
    decorations(&mut p, game, hex, tile, laid, &mut used, &shape);
    p.svg.close("g");
    p.svg.finish()
}

fn hex_outline(p: &mut HexPainter<'_>, colour: Colour) {
    let points: Vec<String> = (0..6u8)
        .map(|e| {
            let (x, y) = corner((e + 5) % 6);
            format!("{},{}", Num(x), Num(y))
        })
        .collect();
    p.svg.leaf(
        "polygon",
        &[
            ("points", points.join(" ").as_str().into()),
            ("fill", palette::tile_colour(colour).into()),
            ("stroke", "#000000".into()),
            ("stroke-width", 2.0.into()),
        ],
    );
}

fn track(
    p: &mut HexPainter<'_>,
    tile: &TileDef,
    shape: &TileShape,
    hex: HexIdx,
    routes: &[DrawnRoute],
) {
    if tile.paths.is_empty() {
        return;
    }
    let offboard = |k: usize| {
        tile.paths[k]
            .nodes()
            .any(|n| tile.nodes[usize::from(n)].kind == NodeKind::Offboard)
    };
    // Borders under every line first, so that crossing track stays readable.
    for pass in 0..2 {
        for (k, strokes) in shape.paths.iter().enumerate() {
            let gauge = tile.paths[k].gauge;
            for s in strokes {
                let d = stroke_data(s);
                let (colour, width) = match (pass, gauge) {
                    (0, Gauge::Broad) => ("#ffffff", 12.0),
                    (0, Gauge::Narrow) => ("#ffffff", TRACK_OUTLINE_WIDTH),
                    (0, Gauge::Dual) => ("#000000", 13.0),
                    (_, Gauge::Broad) => ("#000000", 9.0),
                    (_, Gauge::Narrow) => ("#000000", 12.0),
                    (_, Gauge::Dual) => ("#ffffff", 10.0),
                };
                let mut attrs: Vec<(&str, Value<'_>)> = vec![
                    ("d", d.as_str().into()),
                    ("fill", "none".into()),
                    ("stroke", colour.into()),
                    ("stroke-width", width.into()),
                ];
                if pass == 1 {
                    attrs.push(("class", "track".into()));
                }
                p.svg.leaf("path", &attrs);
                if pass == 1 && gauge == Gauge::Narrow {
                    // Narrow gauge: a dashed white core, as 18xx.games draws it.
                    p.svg.leaf(
                        "path",
                        &[
                            ("d", d.as_str().into()),
                            ("fill", "none".into()),
                            ("stroke", "#ffffff".into()),
                            ("stroke-width", 6.0.into()),
                            ("stroke-dasharray", "12".into()),
                        ],
                    );
                }
                if pass == 1 && offboard(k) {
                    offboard_arrow(p, s);
                }
            }
        }
    }
    for (r, route) in routes.iter().enumerate() {
        for &(h, k) in &route.paths {
            if h != hex {
                continue;
            }
            for s in shape.paths.get(k).into_iter().flatten() {
                p.svg.leaf(
                    "path",
                    &[
                        ("d", stroke_data(s).as_str().into()),
                        ("fill", "none".into()),
                        ("stroke", palette::route_colour(r).into()),
                        ("stroke-width", 8.0.into()),
                        ("stroke-linecap", "round".into()),
                        ("class", "route".into()),
                        ("data-train", route.train.as_str().into()),
                    ],
                );
            }
        }
    }
}

/// An off-board's track ends in an arrowhead pointing into the area.
fn offboard_arrow(p: &mut HexPainter<'_>, s: &Stroke) {
    let Stroke::Line(from, to) = *s else { return };
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = libm::hypot(dx, dy);
    if len == 0.0 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let tip = (to.0 + ux * 16.0, to.1 + uy * 16.0);
    let left = (to.0 - uy * 12.0, to.1 + ux * 12.0);
    let right = (to.0 + uy * 12.0, to.1 - ux * 12.0);
    let d = PathData::new()
        .move_to(left)
        .line_to(tip)
        .line_to(right)
        .close();
    p.svg.leaf(
        "path",
        &[("d", d.as_str().into()), ("fill", "#000000".into())],
    );
}

fn nodes(
    p: &mut HexPainter<'_>,
    game: &Game,
    hex: HexIdx,
    tile: &TileDef,
    shape: &TileShape,
    used: &mut Vec<f64>,
) {
    let state = &game.board.hexes[hex.get()];
    let phase_colours = game.phase_tile_colours();
    let stops = tile
        .nodes
        .iter()
        .filter(|n| n.kind != NodeKind::Offboard)
        .count();
    // Revenue bubbles drawn so far: a town's goes where it covers none of them, nor a town.
    let mut bubbles: Vec<Point> = Vec::new();
    let towns: Vec<Point> = shape
        .nodes
        .iter()
        .filter(|n| matches!(n.shape, NodeShape::TownBar { .. } | NodeShape::TownDot))
        .map(|n| n.at)
        .collect();
    for (k, node) in tile.nodes.iter().enumerate() {
        let placed = shape.nodes[k];
        match placed.shape {
            NodeShape::TownBar { angle } => {
                let (x, y) = placed.at;
                p.svg.leaf(
                    "rect",
                    &[
                        ("x", (-16.0).into()),
                        ("y", (-5.0).into()),
                        ("width", 32.0.into()),
                        ("height", 10.0.into()),
                        ("fill", "#000000".into()),
                        ("stroke", "#ffffff".into()),
                        ("stroke-width", 2.0.into()),
                        (
                            "transform",
                            format!("translate({} {}) rotate({})", Num(x), Num(y), Num(angle))
                                .as_str()
                                .into(),
                        ),
                        ("class", "town".into()),
                    ],
                );
            }
            NodeShape::TownDot => {
                p.svg.leaf(
                    "circle",
                    &[
                        ("cx", placed.at.0.into()),
                        ("cy", placed.at.1.into()),
                        ("r", 10.0.into()),
                        ("fill", "#000000".into()),
                        ("stroke", "#ffffff".into()),
                        ("stroke-width", 2.0.into()),
                        ("class", "town".into()),
                    ],
                );
            }
            NodeShape::Offboard => {
                offboard_revenue(p, &node.revenue, placed.at, phase_colours);
            }
            NodeShape::City => {
                let city = tile.cities.iter().position(|&c| usize::from(c) == k);
                let slots = usize::from(node.slots).clamp(1, MAX_SLOTS);
                let tokens = city
                    .and_then(|c| state.tokens.get(c))
                    .copied()
                    .unwrap_or([None; MAX_SLOTS]);
                let reserved = city
                    .and_then(|c| state.reserved.get(c))
                    .copied()
                    .unwrap_or([None; MAX_SLOTS]);
                city_slots(p, placed, slots, &tokens, &reserved, k);
                if let Revenue::Flat(v) = node.revenue {
                    if v > 0 {
                        bubbles.push(city_revenue(p, v, placed, slots, stops, used));
                    }
                } else {
                    let at = (placed.at.0, placed.at.1 - 45.0);
                    offboard_revenue(p, &node.revenue, at, phase_colours);
                }
            }
        }
        if matches!(placed.shape, NodeShape::TownBar { .. } | NodeShape::TownDot) {
            town_revenue(
                p,
                node.revenue.value(phase_colours),
                placed.at,
                stops,
                used,
                &mut bubbles,
                &towns,
            );
        }
    }
}

/// Centres of a city's slots around its own centre, laid across the direction it leans to
/// (or side by side when it sits in the middle).
/// How far a terrain mark (its triangle or waves and the cost under them) reaches from its
/// centre.
const TERRAIN_RADIUS: f64 = 20.0;

/// The widest stroke of track (narrow gauge's white outline): what a mark keeps clear of.
const TRACK_OUTLINE_WIDTH: f64 = 14.0;

/// The centres of every token slot of the tile's cities, in the hex frame.
fn slot_centres(p: &HexPainter<'_>, tile: &TileDef, shape: &TileShape) -> Vec<Point> {
    let mut centres = Vec::new();
    for (k, node) in tile.nodes.iter().enumerate() {
        let Some(placed) = shape.nodes.get(k) else {
            continue;
        };
        if !matches!(placed.shape, NodeShape::City) {
            continue;
        }
        // As `city_slots` lays them out.
        let angle = match placed.towards {
            Some(dir) => dir * 60.0,
            None => p.upright,
        };
        let slots = usize::from(node.slots).clamp(1, MAX_SLOTS);
        for offset in slot_offsets(slots) {
            let (x, y) = rotate(offset, angle);
            centres.push((placed.at.0 + x, placed.at.1 + y));
        }
    }
    centres
}

fn slot_offsets(slots: usize) -> Vec<Point> {
    let r = SLOT_RADIUS;
    match slots {
        1 => vec![(0.0, 0.0)],
        2 => vec![(-r, 0.0), (r, 0.0)],
        3 => vec![(0.0, -29.0), (25.1, 14.5), (-25.1, 14.5)],
        _ => vec![(-r, -r), (r, -r), (r, r), (-r, r)],
    }
}

fn city_slots(
    p: &mut HexPainter<'_>,
    placed: super::tile::PlacedNode,
    slots: usize,
    tokens: &[Option<CorpId>; MAX_SLOTS],
    reserved: &[Option<CorpId>; MAX_SLOTS],
    node: usize,
) {
    // Across the lean direction; a city in the middle lies level on the page.
    let angle = match placed.towards {
        Some(dir) => dir * 60.0,
        None => p.upright,
    };
    let (x, y) = placed.at;
    p.svg.open(
        "g",
        &[
            (
                "transform",
                format!("translate({} {}) rotate({})", Num(x), Num(y), Num(angle))
                    .as_str()
                    .into(),
            ),
            ("class", "city".into()),
            ("data-node", (node as f64).into()),
        ],
    );
    let r = SLOT_RADIUS;
    match slots {
        1 => {}
        2 => p.svg.leaf(
            "rect",
            &[
                ("x", (-r).into()),
                ("y", (-r).into()),
                ("width", (2.0 * r).into()),
                ("height", (2.0 * r).into()),
                ("fill", "#ffffff".into()),
                ("stroke", "#000000".into()),
                ("stroke-width", 2.0.into()),
            ],
        ),
        3 => p.svg.leaf(
            "circle",
            &[
                ("r", 52.0.into()),
                ("fill", "#ffffff".into()),
                ("stroke", "#000000".into()),
                ("stroke-width", 2.0.into()),
            ],
        ),
        _ => p.svg.leaf(
            "rect",
            &[
                ("x", (-2.0 * r).into()),
                ("y", (-2.0 * r).into()),
                ("width", (4.0 * r).into()),
                ("height", (4.0 * r).into()),
                ("rx", r.into()),
                ("fill", "#ffffff".into()),
                ("stroke", "#000000".into()),
                ("stroke-width", 2.0.into()),
            ],
        ),
    }
    // Text inside the slots stays upright on the page.
    let upright = p.upright - angle;
    for (s, (sx, sy)) in slot_offsets(slots).into_iter().enumerate() {
        p.svg.leaf(
            "circle",
            &[
                ("cx", sx.into()),
                ("cy", sy.into()),
                ("r", r.into()),
                ("fill", "#ffffff".into()),
                ("stroke", "#000000".into()),
                ("stroke-width", 2.0.into()),
            ],
        );
        if let Some(corp) = tokens[s] {
            token(p, corp, (sx, sy), upright);
        } else if let Some(corp) = reserved[s] {
            let sym = &p.title.corp(corp).sym;
            let size = symbol_size(sym) * 0.8;
            p.svg.text(
                "text",
                &[
                    (
                        "transform",
                        format!(
                            "translate({} {}) rotate({})",
                            Num(sx),
                            Num(sy),
                            Num(upright)
                        )
                        .as_str()
                        .into(),
                    ),
                    ("font-size", size.into()),
                    ("text-anchor", "middle".into()),
                    ("dominant-baseline", "central".into()),
                    ("fill", "#555555".into()),
                    ("class", "reservation".into()),
                    ("data-reserved", sym.as_str().into()),
                ],
                sym,
            );
        }
    }
    p.svg.close("g");
}

fn symbol_size(sym: &str) -> f64 {
    match sym.chars().count() {
        0..=2 => 20.0,
        3 => 16.0,
        4 => 13.0,
        _ => 10.5,
    }
}

/// A station token: the corporation's colour and symbol.
fn token(p: &mut HexPainter<'_>, corp: CorpId, at: Point, upright: f64) {
    let def = p.title.corp(corp);
    let (fill, text) = corp_colours(p.title, corp);
    p.svg.open(
        "g",
        &[
            ("class", "token".into()),
            ("data-corp", def.sym.as_str().into()),
            (
                "transform",
                format!(
                    "translate({} {}) rotate({})",
                    Num(at.0),
                    Num(at.1),
                    Num(upright)
                )
                .as_str()
                .into(),
            ),
        ],
    );
    p.svg.leaf(
        "circle",
        &[
            ("r", (SLOT_RADIUS - 2.0).into()),
            ("fill", fill.into()),
            ("stroke", "#000000".into()),
            ("stroke-width", 1.0.into()),
        ],
    );
    p.svg.text(
        "text",
        &[
            ("font-size", symbol_size(&def.sym).into()),
            ("font-weight", "bold".into()),
            ("text-anchor", "middle".into()),
            ("dominant-baseline", "central".into()),
            ("fill", text.into()),
        ],
        &def.sym,
    );
    p.svg.close("g");
}

/// The radius of a revenue's circle.
const BUBBLE_RADIUS: f64 = 15.0;

fn revenue_bubble(p: &mut HexPainter<'_>, value: i64, at: Point) {
    p.svg.leaf(
        "circle",
        &[
            ("cx", at.0.into()),
            ("cy", at.1.into()),
            ("r", BUBBLE_RADIUS.into()),
            ("fill", "#ffffff".into()),
            ("stroke", "#000000".into()),
            ("stroke-width", 1.5.into()),
        ],
    );
    p.text(at, 17.0, &[("class", "revenue".into())], &value.to_string());
}

/// Where revenues go first, as directions on the page: beside a stop rather than above it,
/// where names go.
const PREFERRED: [f64; 12] = [2.0, 4.0, 1.0, 5.0, 1.5, 4.5, 2.5, 3.5, 0.5, 5.5, 3.0, 0.0];

fn city_revenue(
    p: &mut HexPainter<'_>,
    value: i64,
    placed: super::tile::PlacedNode,
    slots: usize,
    stops: usize,
    used: &mut Vec<f64>,
) -> Point {
    let reach = match slots {
        1 => 42.0,
        2 => 62.0,
        _ => 70.0,
    };
    let at = match placed.towards {
        // Beside a city that leans to one side: across the lean, on the freer side.
        Some(dir) if stops > 1 => {
            let sides = [(dir + 1.5).rem_euclid(6.0), (dir + 4.5).rem_euclid(6.0)];
            let side = free_direction(used, &sides);
            let (ux, uy) = edge_direction(side);
            let spread = if slots > 1 { 62.0 } else { 40.0 };
            (placed.at.0 + ux * spread, placed.at.1 + uy * spread)
        }
        _ => {
            let dir = free_direction(used, &p.local(&PREFERRED));
            used.push(dir);
            let (ux, uy) = edge_direction(dir);
            (placed.at.0 + ux * reach, placed.at.1 + uy * reach)
        }
    };
    revenue_bubble(p, value, at);
    at
}

fn town_revenue(
    p: &mut HexPainter<'_>,
    value: Money,
    at: Point,
    stops: usize,
    used: &mut Vec<f64>,
    bubbles: &mut Vec<Point>,
    towns: &[Point],
) {
    if value.0 <= 0 {
        return;
    }
    let reach = if stops > 1 { 30.0 } else { 38.0 };
    let bubble_at = |dir: f64| {
        let (ux, uy) = edge_direction(dir);
        (at.0 + ux * reach, at.1 + uy * reach)
    };
    // Two towns close together (a tile with two town bars) would put their bubbles on each
    // other or on the other town: the first free direction, else the first preferred one
    // that covers neither.
    let apart = |a: Point, b: Point, gap: f64| libm::hypot(a.0 - b.0, a.1 - b.1) >= gap;
    let clear = |b: Point| {
        bubbles
            .iter()
            .all(|&o| apart(o, b, 2.0 * BUBBLE_RADIUS + 2.0))
            && towns
                .iter()
                .filter(|&&t| t != at)
                .all(|&t| apart(t, b, BUBBLE_RADIUS + 17.0))
    };
    let preferred = p.local(&PREFERRED);
    let first = free_direction(used, &preferred);
    let dir = std::iter::once(first)
        .chain(preferred.iter().copied())
        .find(|&d| clear(bubble_at(d)))
        .unwrap_or(first);
    used.push(dir);
    bubbles.push(bubble_at(dir));
    revenue_bubble(p, value.0, bubble_at(dir));
}

/// Phase revenues as coloured boxes side by side (`yellow 30 | brown 50`).
fn offboard_revenue(p: &mut HexPainter<'_>, revenue: &Revenue, at: Point, phases: &[Colour]) {
    let values: Vec<(Option<Colour>, i64)> = match revenue {
        Revenue::Flat(v) => vec![(None, *v)],
        // A D train's value (1889) in a gray box after the phases'.
        Revenue::ByColour(m, diesel) => m
            .iter()
            .map(|(c, v)| (Some(*c), *v))
            .chain(diesel.map(|d| (Some(Colour::Gray), d)))
            .collect(),
    };
    let current = revenue.value(phases).0;
    let w = 38.0;
    let total = w * values.len() as f64;
    p.svg.open(
        "g",
        &[
            (
                "transform",
                format!(
                    "translate({} {}) rotate({})",
                    Num(at.0),
                    Num(at.1),
                    Num(p.upright)
                )
                .as_str()
                .into(),
            ),
            ("class", "phase-revenue".into()),
        ],
    );
    for (i, (colour, v)) in values.iter().enumerate() {
        let x = -total / 2.0 + w * i as f64;
        let active = *v == current && values.len() > 1;
        p.svg.leaf(
            "rect",
            &[
                ("x", x.into()),
                ("y", (-14.0).into()),
                ("width", w.into()),
                ("height", 28.0.into()),
                (
                    "fill",
                    colour.map_or("#ffffff", palette::tile_colour).into(),
                ),
                ("stroke", "#000000".into()),
                ("stroke-width", if active { 3.0 } else { 1.0 }.into()),
            ],
        );
        p.svg.text(
            "text",
            &[
                ("x", (x + w / 2.0).into()),
                ("font-size", 18.0.into()),
                ("text-anchor", "middle".into()),
                ("dominant-baseline", "central".into()),
            ],
            &v.to_string(),
        );
    }
    p.svg.close("g");
}

fn borders(p: &mut HexPainter<'_>, impassable: u8) {
    for e in 0..6u8 {
        if impassable & (1 << e) == 0 {
            continue;
        }
        let a = corner((e + 5) % 6);
        let b = corner(e);
        p.svg.leaf(
            "path",
            &[
                ("d", PathData::new().move_to(a).line_to(b).as_str().into()),
                ("stroke", "#ec232a".into()),
                ("stroke-width", 10.0.into()),
                ("stroke-linecap", "round".into()),
                ("class", "impassable".into()),
            ],
        );
    }
}

/// Terrain and its cost, label, location name, tile number, icons, blockers, markers and
/// tile-level reservations, each in a free corner of the hex.
fn decorations(
    p: &mut HexPainter<'_>,
    game: &Game,
    hex: HexIdx,
    tile: &TileDef,
    laid: bool,
    used: &mut Vec<f64>,
    shape: &TileShape,
) {
    let slots = slot_centres(p, tile, shape);
    let track: Vec<&Stroke> = shape.paths.iter().flatten().collect();
    let map = game.title.map;
    let def = map.hex_def(hex);
    let state = &game.board.hexes[hex.get()];
    // Preferred places are given as directions on the page; the hex frame may be turned.
    let shift = -p.upright / 60.0;
    let place = |used: &mut Vec<f64>, preferred: &[f64], reach: f64| {
        let local: Vec<f64> = preferred
            .iter()
            .map(|d| (d - shift).rem_euclid(6.0))
            .collect();
        let dir = free_direction(used, &local);
        used.push(dir);
        let (ux, uy) = edge_direction(dir);
        (ux * reach, uy * reach)
    };
    if let Some(name) = &def.location {
        // Top or bottom; nearer the side when a stop or track is there too.
        let crowded = [3.0, 0.0].iter().all(|page| {
            let local = (page - shift).rem_euclid(6.0);
            used.iter()
                .any(|u| super::tile::direction_gap(local, *u) < 0.75)
        });
        let at = place(used, &[3.0, 0.0], if crowded { 76.0 } else { 60.0 });
        let turn = -p.upright;
        for (line_at, size, line) in fit_name(name, rotate(at, turn), turn) {
            p.text(
                rotate(line_at, -turn),
                size,
                &[
                    ("class", "location".into()),
                    ("stroke", "#ffffff".into()),
                    ("stroke-width", 4.0.into()),
                    ("paint-order", "stroke".into()),
                ],
                line,
            );
        }
    }
    if let Some(label) = &tile.label {
        let at = place(
            used,
            &[2.0, 1.0, 4.0, 5.0, 1.5, 2.5, 4.5, 0.5, 5.5, 3.5, 3.0, 0.0],
            62.0,
        );
        p.text(
            at,
            24.0,
            &[("font-weight", "bold".into()), ("class", "label".into())],
            label,
        );
    }
    if tile.upgrade_cost > 0 {
        // Off the token slots and the track: a wide city in the middle (1889's Kouchi) reaches
        // past where the terrain would go, and its track leaves few edges free.
        let preferred = [4.0, 3.0, 5.0, 2.0, 1.0, 0.0];
        let corners = [4.5, 3.5, 2.5, 1.5, 0.5, 5.5];
        let clear = |at: Point| {
            slots
                .iter()
                .all(|s| libm::hypot(s.0 - at.0, s.1 - at.1) >= SLOT_RADIUS + TERRAIN_RADIUS)
                && track
                    .iter()
                    .all(|t| t.distance_to(at) >= TERRAIN_RADIUS + TRACK_OUTLINE_WIDTH / 2.0)
        };
        let first = free_direction(used, &p.local(&preferred));
        // Directions without track or a stop first (the freest first), each as near the
        // centre as the slots and the track allow; the corners after the edges.
        let mut directions: Vec<f64> = std::iter::once(first)
            .chain(p.local(&preferred))
            .chain(p.local(&corners))
            .collect();
        let gap = |d: f64| {
            used.iter()
                .map(|u| super::tile::direction_gap(d, *u))
                .fold(f64::INFINITY, f64::min)
        };
        // The free directions in the order preferred; then, where none is free (track on most
        // edges), the widest gaps first, so the mark goes between tracks rather than onto the
        // label or revenue placed in a direction of their own.
        directions.sort_by(|&a, &b| match (gap(a) >= 0.75, gap(b) >= 0.75) {
            (true, true) => std::cmp::Ordering::Equal,
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (false, false) => gap(b).total_cmp(&gap(a)),
        });
        let spot = directions.iter().find_map(|&dir| {
            let (ux, uy) = edge_direction(dir);
            [52.0, 62.0, 70.0]
                .iter()
                .map(|reach| (ux * reach, uy * reach))
                .find(|&at| clear(at))
                .map(|at| (dir, at))
        });
        let (dir, at) = spot.unwrap_or_else(|| {
            let (ux, uy) = edge_direction(first);
            (first, (ux * 52.0, uy * 52.0))
        });
        used.push(dir);
        terrain(p, tile, at);
    }
    if laid {
        let at = place(used, &[5.0, 4.0, 1.0, 2.0, 0.0, 3.0], 70.0);
        p.text(at, 13.0, &[("class", "tile-number".into())], &tile.name);
    }
    for icon in &def.icons {
        let at = place(used, &[4.5, 5.5, 3.5, 0.5, 1.5, 2.5], 60.0);
        badge(p, at, icon, "#ffffff", "icon");
    }
    let hex_id = def.id;
    for (i, company) in game.title.companies.iter().enumerate() {
        let state_c = &game.companies[i];
        let blocks = company.abilities.iter().any(|a| match a {
            Ability::BlocksHexes { hexes } => hexes
                .iter()
                .any(|h| h.parse::<HexId>().ok() == Some(hex_id)),
            _ => false,
        });
        if blocks && !state_c.closed && !matches!(state_c.owner, CompanyOwner::Corporation(_)) {
            let at = place(used, &[0.0, 3.0, 1.0, 5.0, 2.0, 4.0], 40.0);
            badge(p, at, &company.sym, "#ffffff", "blocker");
        }
    }
    for (company, corp, h) in &game.assignments {
        if *h != hex_id {
            continue;
        }
        let at = place(used, &[3.0, 0.0, 2.0, 4.0, 1.0, 5.0], 45.0);
        let (fill, _) = corp_colours(game.title, *corp);
        let sym = &game.title.company(*company).sym;
        badge(p, at, sym, fill, "marker");
    }
    if state.tile_reserved != 0 {
        for (c, corp) in game.title.corporations.iter().enumerate() {
            if state.tile_reserved & (1 << (c % 32)) != 0 {
                let at = place(used, &[3.0, 0.0, 1.5, 4.5], 30.0);
                p.text(
                    at,
                    15.0,
                    &[
                        ("fill", "#555555".into()),
                        ("class", "reservation".into()),
                        ("data-reserved", corp.sym.as_str().into()),
                    ],
                    &corp.sym,
                );
            }
        }
    }
}

/// A point of the hex frame as it stands on the page when the frame is turned by `degrees`
/// (SVG `rotate`, clockwise on the page).
fn rotate((x, y): Point, degrees: f64) -> Point {
    let (sin, cos) = libm::sincos(degrees.to_radians());
    (x * cos - y * sin, x * sin + y * cos)
}

/// Roughly how wide a line of text is in DejaVu Sans, the font the pictures are drawn with,
/// erring wide.
fn text_width(text: &str, size: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            ' ' => 0.33,
            'i' | 'j' | 'l' | '\'' | '.' | ',' => 0.3,
            'f' | 't' | 'r' | 'I' => 0.42,
            'm' | 'w' | 'M' | 'W' => 0.9,
            '&' => 0.78,
            c if c.is_uppercase() => 0.72,
            _ => 0.62,
        })
        .sum();
    ems * size
}

/// Where a hex, upright on the page with these corners, spans at height `y` from its centre:
/// the left and right ends.
fn hex_span_at(corners: &[Point; 6], y: f64) -> Option<(f64, f64)> {
    let mut span: Option<(f64, f64)> = None;
    for (i, &(ax, ay)) in corners.iter().enumerate() {
        let (bx, by) = corners[(i + 1) % 6];
        if (ay - y) * (by - y) > 0.0 || ay == by {
            continue;
        }
        let x = ax + (bx - ax) * (y - ay) / (by - ay);
        span = Some(span.map_or((x, x), |(l, r)| (l.min(x), r.max(x))));
    }
    span
}

/// The smallest a location name is written.
const SMALLEST_NAME: f64 = 9.0;

/// A location name's lines, each with where it stands on the page (relative to the hex centre,
/// the hex upright on the page turned by `turn` from its frame) and its size, so that it stays
/// inside its hex: a neighbour drawn later would cover what sticks out, and two neighbours'
/// names could run into each other. At `at` in one line if it fits (14 or, for a long name,
/// 11.5 units), else smaller or in two lines (the second towards the centre), else nearer the
/// centre.
fn fit_name(name: &str, at: Point, turn: f64) -> Vec<(Point, f64, &str)> {
    let corners: [Point; 6] = std::array::from_fn(|e| rotate(corner(e as u8), turn));
    let fits = |line: &str, (x, y): Point, size: f64| {
        let half = text_width(line, size) / 2.0;
        // The letters' height (capitals are about 0.7 of the size), and room for the white
        // outline (stroke 4) inside the hex side.
        let (rise, margin) = (0.35 * size, 2.0);
        [y - rise, y + rise].iter().all(|&edge| {
            hex_span_at(&corners, edge)
                .is_some_and(|(l, r)| x - half >= l + margin && x + half <= r - margin)
        })
    };
    let first = if name.chars().count() > 14 {
        11.5
    } else {
        14.0
    };
    // Towards the centre: the inner line of two, and where to try again.
    let inward = |(x, y): Point, by: f64| {
        let d = libm::hypot(x, y);
        if d <= by {
            (0.0, 0.0)
        } else {
            (x * (d - by) / d, y * (d - by) / d)
        }
    };
    let lines = split_name(name);
    let one_line =
        |start: Point, size: f64| fits(name, start, size).then(|| vec![(start, size, name)]);
    let two_lines = |start: Point, size: f64| {
        let (first_line, second_line) = lines?;
        let (outer, inner) = outer_line(first_line, second_line, start);
        let inner_at = inward(start, size * 1.15);
        (fits(outer, start, size) && fits(inner, inner_at, size))
            .then(|| vec![(start, size, outer), (inner_at, size, inner)])
    };
    let sizes = |from: f64, to: f64| {
        std::iter::successors(Some(from), |s| Some(s - 0.5)).take_while(move |&s| s >= to)
    };
    let starts = |steps: usize| (0..steps).map(move |k| inward(at, 12.0 * k as f64));
    // Where it was put (its place keeps it off the stops and track): as large as fits, in
    // one line or two; only then nearer the centre.
    sizes(first, 10.0)
        .find_map(|size| one_line(at, size))
        .or_else(|| sizes(first.min(12.0), 10.0).find_map(|size| two_lines(at, size)))
        .or_else(|| sizes(9.5, SMALLEST_NAME).find_map(|size| one_line(at, size)))
        .or_else(|| sizes(9.5, SMALLEST_NAME).find_map(|size| two_lines(at, size)))
        .or_else(|| {
            starts(4).skip(1).find_map(|start| {
                sizes(10.5, SMALLEST_NAME)
                    .find_map(|size| one_line(start, size).or_else(|| two_lines(start, size)))
            })
        })
        .unwrap_or_else(|| vec![(at, SMALLEST_NAME, name)])
}

/// Of a name's two lines (first, second), the one written nearer the hex side and the one
/// nearer the centre: the first line stays above the second.
fn outer_line<'n>(first: &'n str, second: &'n str, at: Point) -> (&'n str, &'n str) {
    if at.1 < 0.0 {
        (first, second)
    } else {
        (second, first)
    }
}

/// A long name in two lines: after an `&` where it has one, else at the space nearest its
/// middle.
fn split_name(name: &str) -> Option<(&str, &str)> {
    let middle = name.len() / 2;
    let at = name.find(" & ").map(|i| i + 2).or_else(|| {
        name.match_indices(' ')
            .map(|(i, _)| i)
            .min_by_key(|&i| i.abs_diff(middle))
    })?;
    let (first, second) = name.split_at(at);
    Some((first.trim_end(), second.trim_start()))
}

/// A small rounded box holding a name (blocking private, marker, icon).
fn badge(p: &mut HexPainter<'_>, at: Point, text: &str, fill: &str, class: &str) {
    let w = 10.0 + 9.0 * text.chars().count() as f64;
    p.svg.open(
        "g",
        &[
            (
                "transform",
                format!(
                    "translate({} {}) rotate({})",
                    Num(at.0),
                    Num(at.1),
                    Num(p.upright)
                )
                .as_str()
                .into(),
            ),
            ("class", class.into()),
        ],
    );
    p.svg.leaf(
        "rect",
        &[
            ("x", (-w / 2.0).into()),
            ("y", (-11.0).into()),
            ("width", w.into()),
            ("height", 22.0.into()),
            ("rx", 8.0.into()),
            ("fill", fill.into()),
            ("stroke", "#000000".into()),
            ("stroke-width", 1.5.into()),
        ],
    );
    p.svg.text(
        "text",
        &[
            ("font-size", 14.0.into()),
            ("text-anchor", "middle".into()),
            ("dominant-baseline", "central".into()),
            ("fill", palette::contrast(fill).into()),
        ],
        text,
    );
    p.svg.close("g");
}

/// Terrain: a mountain or water sign with the cost to build there.
fn terrain(p: &mut HexPainter<'_>, tile: &TileDef, at: Point) {
    let water = tile.terrain.iter().any(|t| t == "water");
    let mountain = tile.terrain.iter().any(|t| t == "mountain" || t == "hill");
    p.svg.open(
        "g",
        &[
            (
                "transform",
                format!(
                    "translate({} {}) rotate({})",
                    Num(at.0),
                    Num(at.1),
                    Num(p.upright)
                )
                .as_str()
                .into(),
            ),
            ("class", "terrain".into()),
            ("data-terrain", tile.terrain.join(" ").as_str().into()),
        ],
    );
    if mountain || !water {
        let d = PathData::new()
            .move_to((-17.0, 8.0))
            .line_to((0.0, -20.0))
            .line_to((17.0, 8.0))
            .close();
        p.svg.leaf(
            "path",
            &[
                ("d", d.as_str().into()),
                ("fill", "#cb7745".into()),
                ("stroke", "#6b4b35".into()),
                ("stroke-width", 2.0.into()),
            ],
        );
    } else {
        for dy in [-12.0, -4.0] {
            let d = PathData::new()
                .move_to((-16.0, dy))
                .cubic_to((-10.0, dy - 6.0), (-6.0, dy - 6.0), (0.0, dy))
                .cubic_to((6.0, dy + 6.0), (10.0, dy + 6.0), (16.0, dy));
            p.svg.leaf(
                "path",
                &[
                    ("d", d.as_str().into()),
                    ("fill", "none".into()),
                    ("stroke", "#147ebe".into()),
                    ("stroke-width", 3.0.into()),
                ],
            );
        }
    }
    p.svg.text(
        "text",
        &[
            ("y", 20.0.into()),
            ("font-size", 15.0.into()),
            ("text-anchor", "middle".into()),
            ("dominant-baseline", "central".into()),
        ],
        &tile.upgrade_cost.to_string(),
    );
    p.svg.close("g");
}
