//! Pictures of a game: map snapshots of a few states of every title, the map against the
//! board at every state of every fixture, charts, the transcript and the viewer.

use std::path::{Path, PathBuf};

use railnote::draw::document::GameDocument;
use railnote::draw::map::{map_svg, route_paths, DrawnRoute, MapOptions};
use railnote::draw::{caption, chart, transcript, viewer};
use railnote::engine::map::SearchLimits;
use railnote::engine::Game;
use railnote::ids::CorpId;
use railnote::log::GameLog;
use railnote::output::best_run;
use railnote::replay::Replay;

use crate::common::{fixtures, shared_dir};

fn sample(name: &str) -> GameDocument {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    GameDocument::from_notation(name, &text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The game after `n` actions.
fn game_at(log: &GameLog, n: usize) -> Game {
    let mut replay = Replay::new(log).unwrap();
    while replay.processed() < n {
        replay.step().unwrap().unwrap();
    }
    replay.game().clone()
}

/// The first state of a round.
fn round_start(log: &GameLog, round: &str) -> usize {
    let mut replay = Replay::new(log).unwrap();
    while replay.game().round_label() != round {
        replay.step().unwrap().unwrap();
    }
    replay.processed()
}

fn map_at(log: &GameLog, n: usize) -> String {
    let game = game_at(log, n);
    map_svg(
        &game,
        &MapOptions {
            caption: caption(&game, n),
            ..MapOptions::default()
        },
    )
}

/// The map with the best run of the corporation that earns most.
fn best_run_map(log: &GameLog, n: usize) -> String {
    let game = game_at(log, n);
    let (corp, best) = (0..game.corps.len())
        .map(|i| CorpId(i as u8))
        .filter(|&c| !game.corp(c).closed && !game.corp(c).trains.is_empty())
        .map(|c| (c, best_run(&game, c, SearchLimits::default()).unwrap()))
        .max_by_key(|(c, b)| (b.total, std::cmp::Reverse(*c)))
        .unwrap();
    let sym = &game.title.corp(corp).sym;
    assert!(!best.routes.is_empty(), "{sym} runs at {n}");
    let routes = best
        .routes
        .iter()
        .map(|r| DrawnRoute {
            train: game.train_name(r.spec.train),
            stops: r.stops.iter().map(|(h, _)| *h).collect(),
            revenue: r.revenue,
            paths: route_paths(&game, &r.spec),
        })
        .collect();
    map_svg(
        &game,
        &MapOptions {
            caption: caption(&game, n),
            routes,
            routes_of: Some(corp),
        },
    )
}

/// Snapshots of the start, a middle operating round and the end of each title's annotated
/// game, and a best run at the end: every hex a line, so a change shows as the hexes it touches.
#[test]
fn map_snapshots() {
    for (file, middle) in [
        ("1836jr30-complete-annotated.rn", "OR 14.1"),
        ("18ireland-complete-annotated.rn", "OR 5.1"),
    ] {
        let doc = sample(file);
        let title = file.split('-').next().unwrap();
        let mid = round_start(&doc.log, middle);
        let end = doc.log.actions.len();
        for (state, n) in [("start", 0), ("middle", mid), ("end", end)] {
            let svg = map_at(&doc.log, n);
            assert_eq!(
                svg,
                map_at(&doc.log, n),
                "the same state draws the same bytes"
            );
            insta::assert_snapshot!(format!("map_{title}_{state}"), svg);
        }
        insta::assert_snapshot!(format!("map_{title}_best_run"), best_run_map(&doc.log, end));
    }
}

/// The attributes of every laid tile (`data-tile="57" data-tile-id="57-2" data-rotation="1"`)
/// and every token (`data-corp`) in a map drawing.
fn drawn(svg: &str) -> (Vec<(String, String, String)>, usize) {
    let mut tiles = Vec::new();
    for hex in svg.split("<g data-hex=\"").skip(1) {
        let head = &hex[..hex.find('>').unwrap()];
        let attr = |name: &str| {
            head.split(&format!(" {name}=\""))
                .nth(1)
                .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        };
        if let Some(tile) = attr("data-tile-id") {
            let coord = head[..head.find('"').unwrap()].to_string();
            tiles.push((coord, tile, attr("data-rotation").unwrap()));
        }
    }
    let tokens = svg.matches("class=\"token\" data-corp=").count();
    (tiles, tokens)
}

/// The map shows the board: at every state of every fixture and sample, each laid tile is
/// drawn on its hex with its rotation, and each token placed is drawn.
#[test]
fn the_map_shows_the_board_at_every_state() {
    let mut logs: Vec<(String, GameLog)> = Vec::new();
    for file in [
        "1836jr30-complete-annotated.rn",
        "18ireland-complete-annotated.rn",
    ] {
        logs.push((file.to_string(), sample(file).log));
    }
    if let Some(shared) = shared_dir() {
        for title in ["1836Jr30", "18Ireland"] {
            for path in fixtures(&shared, title) {
                let text = std::fs::read_to_string(&path).unwrap();
                logs.push((
                    path.display().to_string(),
                    railnote::log::read(&path.display().to_string(), &text).unwrap(),
                ));
            }
        }
    }
    let mut states = 0;
    for (name, log) in &logs {
        let mut replay = Replay::new(log).unwrap();
        loop {
            let game = replay.game();
            let svg = map_svg(game, &MapOptions::default());
            let (tiles, tokens) = drawn(&svg);
            let map = game.title.map;
            let expected: Vec<(String, String, String)> = game
                .board
                .laid_tiles(map)
                .map(|(hex, tile, rotation)| {
                    (
                        hex.to_string(),
                        map.tile_name(tile),
                        rotation.get().to_string(),
                    )
                })
                .collect();
            let n = replay.processed();
            assert_eq!(tiles, expected, "{name} after {n} actions: tiles");
            let placed: usize = (0..game.corps.len())
                .map(|c| game.token_hexes(CorpId(c as u8)).len())
                .sum();
            assert_eq!(tokens, placed, "{name} after {n} actions: tokens");
            states += 1;
            match replay.step() {
                None => break,
                Some(step) => {
                    step.unwrap();
                }
            }
        }
    }
    assert!(states > 1000, "{states} states drawn");
}

#[test]
fn charts_of_the_annotated_game() {
    let doc = sample("1836jr30-complete-annotated.rn");
    let history = chart::History::of(&doc.log).unwrap();
    let last = history.rounds.last().unwrap();
    assert_eq!(last.round, "end");
    // The standings of the sample's Result tag.
    let values: Vec<i64> = last.values.iter().map(|m| m.0).collect();
    assert_eq!(values, [5450, 5193, 3653, 4699]);
    insta::assert_snapshot!("chart_1836jr30_prices", chart::prices_svg(&history));
    insta::assert_snapshot!("chart_1836jr30_values", chart::values_svg(&history));
}

#[test]
fn transcript_of_the_annotated_games() {
    for file in [
        "1836jr30-complete-annotated.rn",
        "18ireland-complete-annotated.rn",
    ] {
        let doc = sample(file);
        let events = transcript::events(&doc.log, Some(&doc.notes)).unwrap();
        let title = file.split('-').next().unwrap();
        insta::assert_snapshot!(format!("transcript_{title}"), transcript::text(&events));
    }
}

#[test]
fn transcript_json_has_one_object_per_event() {
    let doc = sample("1836jr30-complete-annotated.rn");
    let events = transcript::events(&doc.log, Some(&doc.notes)).unwrap();
    let lines: Vec<String> = events
        .iter()
        .take(12)
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    insta::assert_snapshot!("transcript_json_opening", lines.join("\n"));
    let glyph = events
        .iter()
        .find(|e| e.kind == "action" && e.index == 5)
        .unwrap();
    assert_eq!(glyph.text, "Ann bids 160 for CFL ?!");
}

/// The viewer of every fixture and sample: one file under 2 MB with every state, the same
/// bytes twice.
#[test]
fn viewers_of_every_game_stay_small() {
    let mut docs = vec![
        sample("1836jr30-complete-annotated.rn"),
        sample("18ireland-complete-annotated.rn"),
    ];
    if let Some(shared) = shared_dir() {
        for title in ["1836Jr30", "18Ireland"] {
            for path in fixtures(&shared, title) {
                let text = std::fs::read_to_string(&path).unwrap();
                let log = railnote::log::read(&path.display().to_string(), &text).unwrap();
                let doc = GameDocument::from_json_log(&log).unwrap();
                assert!(doc.converted);
                assert_eq!(
                    doc.log.actions.len(),
                    log.actions.len(),
                    "{}: the notation has the log's actions",
                    path.display()
                );
                docs.push(doc);
            }
        }
    }
    for doc in &docs {
        let html = viewer::html(doc).unwrap();
        assert!(
            html.len() <= 2 * 1024 * 1024,
            "{}: {} bytes",
            doc.name,
            html.len()
        );
        let count = doc.log.actions.len();
        assert!(html.contains(&format!("max=\"{count}\"")), "{}", doc.name);
        assert!(
            html.contains(&format!("data-i=\"{count}\"")),
            "{}: last move",
            doc.name
        );
    }
    let first = viewer::html(&docs[0]).unwrap();
    assert_eq!(first, viewer::html(&docs[0]).unwrap());
}

/// The viewer loads nothing from the network: its only URLs are SVG namespaces.
#[test]
fn the_viewer_is_self_contained() {
    let html = viewer::html(&sample("18ireland-complete-annotated.rn")).unwrap();
    let outside: Vec<&str> = html
        .split("http")
        .skip(1)
        .filter(|rest| !rest.starts_with("://www.w3.org/2000/svg"))
        .collect();
    assert!(outside.is_empty(), "{} outside references", outside.len());
    assert!(!html.contains("<script src"));
    assert!(!html.contains("<link"));
}

pub(crate) fn viewer_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("draw");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let html = viewer::html(&sample("1836jr30-complete-annotated.rn")).unwrap();
    std::fs::write(&path, html).unwrap();
    path
}

/// The tiles (`E5:59:2`, by hex, name and rotation) and the number of tokens on the board of
/// the viewer's game after `n` actions, from the engine.
pub(crate) fn board_after(n: usize) -> (Vec<String>, usize) {
    let game = game_at(&sample("1836jr30-complete-annotated.rn").log, n);
    let map = game.title.map;
    let tiles = game
        .board
        .laid_tiles(map)
        .map(|(hex, tile, rotation)| {
            format!("{hex}:{}:{}", map.tile_def(tile.def).name, rotation.get())
        })
        .collect();
    let tokens = (0..game.corps.len())
        .map(|c| game.token_hexes(CorpId(c as u8)).len())
        .sum();
    (tiles, tokens)
}

/// The commands: exit codes, outputs by extension, the mistakes people make.
mod cli {
    use crate::common::{railnote, stderr};

    fn sample(name: &str) -> String {
        format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    fn out(name: &str) -> String {
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("draw-cli");
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).display().to_string()
    }

    #[test]
    fn map_writes_svg_and_png() {
        let game = sample("1836jr30-complete-annotated.rn");
        let svg = out("or.svg");
        let o = railnote(&["map", &game, "--at", "OR 11.1", "-o", &svg]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains("1836Jr30 · OR 11.1 · phase 3 · after 105 actions"));
        assert!(text.contains("data-hex=\"E11\" transform=\"translate("));
        let png = out("end.png");
        let o = railnote(&["map", &game, "--routes", "nbds", "-o", &png]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // Width and height from the IHDR chunk: half the SVG's units by default.
        let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        assert!((600..800).contains(&width), "{width} pixels wide");
    }

    #[test]
    fn map_mistakes_are_explained() {
        let game = sample("1836jr30-complete-annotated.rn");
        let o = railnote(&["map", &game, "-o", &out("board.jpg")]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("must end in .svg or .png"),
            "{}",
            stderr(&o)
        );
        let o = railnote(&["map", &game, "--at", "9999", "-o", &out("x.svg")]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("no such state (the log has 445 actions"),
            "{}",
            stderr(&o)
        );
        let o = railnote(&["map", &game, "--at", "OR 99.1", "-o", &out("x.svg")]);
        assert_eq!(o.status.code(), Some(2));
        let o = railnote(&["map", &game, "--routes", "XYZ", "-o", &out("x.svg")]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("no such corporation (known: B, GCL, Nord, NBDS, HSM, NFL)"));
        let o = railnote(&[
            "map",
            &game,
            "--at",
            "0",
            "--routes",
            "B",
            "-o",
            &out("x.svg"),
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("has not floated"), "{}", stderr(&o));
        let o = railnote(&["map", &out("missing.rn"), "-o", &out("x.svg")]);
        assert_eq!(o.status.code(), Some(2));
    }

    #[test]
    fn chart_needs_one_kind() {
        let game = sample("18ireland-complete-annotated.rn");
        let o = railnote(&["chart", &game, "-o", &out("c.svg")]);
        assert_eq!(o.status.code(), Some(2));
        let o = railnote(&["chart", &game, "--prices", "--values", "-o", &out("c.svg")]);
        assert_eq!(o.status.code(), Some(2));
        let svg = out("values.svg");
        let o = railnote(&["chart", &game, "--values", "-o", &svg]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = std::fs::read_to_string(&svg).unwrap();
        for player in ["Aoife", "Brendan", "Ciara", "Declan"] {
            assert!(
                text.contains(&format!("data-series=\"{player}\"")),
                "{player}"
            );
        }
        let png = out("prices.png");
        let o = railnote(&["chart", &game, "--prices", "-o", &png]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    }

    #[test]
    fn transcript_and_view_of_a_json_log() {
        let log = sample("1836jr30-selfplay-greedy-2p-seed100.json");
        let o = railnote(&["transcript", &log, "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        let events: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(events[0]["kind"], "round");
        assert_eq!(events.last().unwrap()["kind"], "standing");
        let html = out("selfplay.html");
        let o = railnote(&["view", &log, "-o", &html]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let page = std::fs::read_to_string(&html).unwrap();
        assert!(page.contains("notation converted from the 18xx.games log"));
    }

    #[test]
    fn a_broken_game_is_reported_not_drawn() {
        let bad = out("bad.rn");
        std::fs::write(
            &bad,
            "[Title \"1836Jr30\"]\n[Players \"Ann, Bob\"]\nPR\nBob: bid ACC 20\n",
        )
        .unwrap();
        for args in [
            vec!["view", bad.as_str(), "-o", "/dev/null"],
            vec!["transcript", bad.as_str()],
            vec!["map", bad.as_str(), "-o", "/tmp/never.svg"],
            vec!["chart", bad.as_str(), "--prices", "-o", "/tmp/never.svg"],
        ] {
            let o = railnote(&args);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("rules::not_your_turn"),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
}

/// A drawn run covers its route: every hex the route walks has a drawn path, and no other
/// hex does (every corporation's best run at the middle and end of the annotated games).
#[test]
fn drawn_runs_cover_their_routes() {
    let mut checked = 0;
    for (file, middle) in [
        ("1836jr30-complete-annotated.rn", "OR 14.1"),
        ("18ireland-complete-annotated.rn", "OR 8.1"),
    ] {
        let doc = sample(file);
        for n in [round_start(&doc.log, middle), doc.log.actions.len()] {
            let game = game_at(&doc.log, n);
            for c in 0..game.corps.len() {
                let corp = CorpId(c as u8);
                if game.corp(corp).closed || game.corp(corp).trains.is_empty() {
                    continue;
                }
                let best = best_run(&game, corp, SearchLimits::default()).unwrap();
                for route in &best.routes {
                    let mut walked: Vec<String> = route
                        .spec
                        .connections
                        .iter()
                        .flatten()
                        .map(ToString::to_string)
                        .collect();
                    walked.sort();
                    walked.dedup();
                    let map = game.title.map;
                    let mut drawn: Vec<String> = route_paths(&game, &route.spec)
                        .iter()
                        .map(|(hex, _)| map.hex_def(*hex).id.to_string())
                        .collect();
                    drawn.sort();
                    drawn.dedup();
                    assert_eq!(
                        drawn,
                        walked,
                        "{file} after {n}: {}",
                        game.title.corp(corp).sym
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10, "{checked} routes");
}

/// Each `<g data-hex=…>` group of a map drawing: its coordinate, whether the hex frame is
/// turned (pointy maps: `rotate(30)`), and its text.
fn hex_groups(svg: &str) -> Vec<(String, f64, &str)> {
    svg.split("<g data-hex=\"")
        .skip(1)
        .map(|group| {
            let head = &group[..group.find('>').unwrap()];
            let coord = head[..head.find('"').unwrap()].to_string();
            let turn = head
                .split(") rotate(")
                .nth(1)
                .map_or(0.0, |r| r[..r.find(')').unwrap()].parse().unwrap());
            (coord, turn, group)
        })
        .collect()
}

/// The numbers of an attribute's value in an element's text (`translate(38 65.8)` → 38, 65.8).
fn numbers_after(element: &str, prefix: &str) -> Vec<f64> {
    let Some(rest) = element.split(prefix).nth(1) else {
        return Vec::new();
    };
    rest[..rest.find([')', '"']).unwrap()]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect()
}

/// The end of the first fixture of every title, drawn.
fn fixture_ends() -> Vec<(String, String)> {
    let Some(shared) = shared_dir() else {
        return Vec::new();
    };
    ["1830", "1836Jr30", "1889", "18Chesapeake", "18Ireland"]
        .iter()
        .flat_map(|title| fixtures(&shared, title).into_iter().take(2))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let log = railnote::log::read(&path.display().to_string(), &text).unwrap();
            let game = game_at(&log, log.actions.len());
            (
                path.display().to_string(),
                map_svg(&game, &MapOptions::default()),
            )
        })
        .collect()
}

/// A tile with two towns close together (18Chesapeake's K3 and K5, 1830's double towns) draws
/// their revenues apart: no two revenue circles of a hex overlap.
#[test]
fn revenue_circles_do_not_overlap() {
    let drawings = fixture_ends();
    let mut hexes_with_two = 0;
    for (name, svg) in &drawings {
        for (coord, _, group) in hex_groups(svg) {
            let circles: Vec<(f64, f64)> = group
                .split("<circle ")
                .skip(1)
                .filter(|c| c.contains("r=\"15\""))
                .map(|c| {
                    let x = numbers_after(c, "cx=\"")[0];
                    let y = numbers_after(c, "cy=\"")[0];
                    (x, y)
                })
                .collect();
            hexes_with_two += usize::from(circles.len() > 1);
            for (i, a) in circles.iter().enumerate() {
                for b in &circles[i + 1..] {
                    let d = (a.0 - b.0).hypot(a.1 - b.1);
                    assert!(d >= 30.0, "{name}: {coord}: revenue circles {d:.1} apart");
                }
            }
        }
    }
    if !drawings.is_empty() {
        assert!(hexes_with_two > 0, "no hex with two revenues was drawn");
    }
}

/// Location names stay inside their hexes (a neighbour drawn later would cover what sticks
/// out, and two neighbours' names ran into each other at 18Chesapeake's K3 and K5): every
/// line, at 0.55 of its size per letter (DejaVu Sans' average), lies within the hex on the
/// page.
#[test]
fn location_names_stay_inside_their_hexes() {
    let drawings = fixture_ends();
    let mut two_lines = 0;
    for (name, svg) in &drawings {
        for (coord, turn, group) in hex_groups(svg) {
            let lines: Vec<&str> = group
                .split("<text ")
                .skip(1)
                .filter(|t| t.contains("class=\"location\""))
                .collect();
            two_lines += usize::from(lines.len() > 1);
            for line in lines {
                let at = numbers_after(line, "translate(");
                let size = numbers_after(line, "font-size=\"")[0];
                let text = &line[line.find('>').unwrap() + 1..line.find("</text>").unwrap()];
                let letters = text.replace("&amp;", "&").chars().count() as f64;
                let (sin, cos) = turn.to_radians().sin_cos();
                let (x, y) = (at[0] * cos - at[1] * sin, at[0] * sin + at[1] * cos);
                let half = 0.55 * size * letters / 2.0;
                // The hex on the page: flat sides left and right when turned (pointy), corners
                // left and right otherwise; R = 100.
                let span = |y: f64| {
                    let y = y.abs();
                    if turn == 0.0 {
                        100.0 - y / 3f64.sqrt()
                    } else if y <= 50.0 {
                        86.6
                    } else {
                        86.6 * (100.0 - y) / 50.0
                    }
                };
                for edge in [y - 0.35 * size, y + 0.35 * size] {
                    assert!(
                        x.abs() + half <= span(edge) + 0.5,
                        "{name}: {coord}: `{text}` ({size}) is {:.1} wide at {:.1} where the hex \
                         is {:.1}",
                        2.0 * half,
                        edge,
                        2.0 * span(edge)
                    );
                }
            }
        }
    }
    if !drawings.is_empty() {
        assert!(two_lines > 0, "no name was written in two lines");
    }
}

/// The centre line of an SVG track path (`M`, then `L`, short-way `A` or `C` pieces, as the map
/// writes them) as points a unit or less apart.
fn track_points(d: &str) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut at = (0.0, 0.0);
    let mut rest = d;
    while let Some(command) = rest.chars().next() {
        let end = rest[1..]
            .find(['M', 'L', 'A', 'C'])
            .map_or(rest.len(), |i| i + 1);
        let n: Vec<f64> = rest[1..end]
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        let pieces = 400;
        match command {
            'M' => at = (n[0], n[1]),
            'L' => {
                for k in 0..=pieces {
                    let t = f64::from(k) / f64::from(pieces);
                    points.push((at.0 + (n[0] - at.0) * t, at.1 + (n[1] - at.1) * t));
                }
                at = (n[0], n[1]);
            }
            'A' => {
                // SVG's centre of a short arc (large-arc flag 0) of radius r from `at` to the
                // end point: on the chord's normal, the side the sweep flag gives.
                let (r, sweep, to) = (n[0], n[4] == 1.0, (n[5], n[6]));
                let half = ((at.0 - to.0) / 2.0, (at.1 - to.1) / 2.0);
                let h = half.0.hypot(half.1);
                let k = ((r * r - h * h).max(0.0)).sqrt() / h;
                let side = if sweep { 1.0 } else { -1.0 };
                let centre = (
                    (at.0 + to.0) / 2.0 + side * k * half.1,
                    (at.1 + to.1) / 2.0 - side * k * half.0,
                );
                let a0 = (at.1 - centre.1).atan2(at.0 - centre.0);
                let mut turn = (to.1 - centre.1).atan2(to.0 - centre.0) - a0;
                let full = 2.0 * std::f64::consts::PI;
                if sweep && turn < 0.0 {
                    turn += full;
                } else if !sweep && turn > 0.0 {
                    turn -= full;
                }
                for k in 0..=pieces {
                    let a = a0 + turn * f64::from(k) / f64::from(pieces);
                    points.push((centre.0 + r * a.cos(), centre.1 + r * a.sin()));
                }
                at = to;
            }
            'C' => {
                let (c1, c2, to) = ((n[0], n[1]), (n[2], n[3]), (n[4], n[5]));
                for k in 0..=pieces {
                    let t = f64::from(k) / f64::from(pieces);
                    let u = 1.0 - t;
                    let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
                    points.push((
                        w[0] * at.0 + w[1] * c1.0 + w[2] * c2.0 + w[3] * to.0,
                        w[0] * at.1 + w[1] * c1.1 + w[2] * c2.1 + w[3] * to.1,
                    ));
                }
                at = to;
            }
            other => panic!("path command {other} in {d}"),
        }
        rest = &rest[end..];
    }
    points
}

/// A terrain mark keeps off the track (1889's Kouchi: its mountain was drawn on the track to
/// its upper right edge): every mark's centre is at least the mark's reach (20) and half the
/// widest track outline (7) from the centre line of every track of its hex, at the start and
/// at the end of two fixtures of every title.
#[test]
fn terrain_marks_keep_off_track() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let mut marks = 0;
    let mut near_track = 0;
    for title in ["1830", "1836Jr30", "1889", "18Chesapeake", "18Ireland"] {
        for path in fixtures(&shared, title).into_iter().take(2) {
            let text = std::fs::read_to_string(&path).unwrap();
            let log = railnote::log::read(&path.display().to_string(), &text).unwrap();
            for at in [0, log.actions.len()] {
                let svg = map_svg(&game_at(&log, at), &MapOptions::default());
                for (coord, _, group) in hex_groups(&svg) {
                    let group = &group[..group.find("\n").unwrap_or(group.len())];
                    let track: Vec<(f64, f64)> = group
                        .split("<path d=\"")
                        .skip(1)
                        .filter(|p| p[..p.find("/>").unwrap()].contains("class=\"track\""))
                        .flat_map(|p| track_points(&p[..p.find('"').unwrap()]))
                        .collect();
                    let mut rest = group;
                    while let Some(i) = rest.find("\" class=\"terrain\"") {
                        let head = &rest[..i];
                        let transform = &head[head.rfind("<g transform=\"").unwrap()..];
                        let centre = numbers_after(transform, "translate(");
                        marks += 1;
                        let nearest = track
                            .iter()
                            .map(|t| (t.0 - centre[0]).hypot(t.1 - centre[1]))
                            .fold(f64::INFINITY, f64::min);
                        assert!(
                            nearest >= 26.9,
                            "{}: {coord} at {at}: a terrain mark {nearest:.1} from track",
                            path.display()
                        );
                        if nearest < 60.0 {
                            near_track += 1;
                        }
                        rest = &rest[i + 1..];
                    }
                }
            }
        }
    }
    assert!(marks > 0, "no terrain was drawn");
    // Not a test that could only pass: marks share hexes with track and were placed beside it.
    assert!(near_track > 0, "no terrain mark shares a hex with track");
}

/// A terrain mark keeps off the token slots (1889's Kouchi, a two-slot city in the middle of a
/// mountain hex, had its slot covered by the mountain): every mark's centre is at least a
/// slot's radius and the mark's reach (25 + 20) from every slot's centre.
#[test]
fn terrain_marks_keep_off_token_slots() {
    let drawings = fixture_ends();
    let mut marks = 0;
    for (name, svg) in &drawings {
        for (coord, _, group) in hex_groups(svg) {
            let group = &group[..group.find("\n").unwrap_or(group.len())];
            let mut slots = Vec::new();
            for city in group.split("class=\"city\"").skip(1) {
                // The city's transform is written just before its class.
                let head = &group[..group.find(city).unwrap()];
                let transform = &head[head.rfind("<g transform=\"").unwrap()..];
                let at = numbers_after(transform, "translate(");
                let angle = numbers_after(transform, "rotate(")[0].to_radians();
                // Up to the next city (a token inside is a group of its own).
                for circle in city.split("<circle ").skip(1) {
                    if !circle.contains("r=\"25\"") {
                        continue;
                    }
                    let cx = numbers_after(circle, "cx=\"")
                        .first()
                        .copied()
                        .unwrap_or(0.0);
                    let cy = numbers_after(circle, "cy=\"")
                        .first()
                        .copied()
                        .unwrap_or(0.0);
                    let (sin, cos) = angle.sin_cos();
                    slots.push((at[0] + cx * cos - cy * sin, at[1] + cx * sin + cy * cos));
                }
            }
            let mut rest = group;
            while let Some(i) = rest.find("\" class=\"terrain\"") {
                let head = &rest[..i];
                let transform = &head[head.rfind("<g transform=\"").unwrap()..];
                let at = numbers_after(transform, "translate(");
                marks += 1;
                for slot in &slots {
                    let d = (slot.0 - at[0]).hypot(slot.1 - at[1]);
                    assert!(
                        d >= 44.5,
                        "{name}: {coord}: a terrain mark {d:.1} from a slot"
                    );
                }
                rest = &rest[i + 1..];
            }
        }
    }
    if !drawings.is_empty() {
        assert!(marks > 0, "no terrain was drawn");
    }
}
