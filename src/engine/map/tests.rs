//! Map tests: data sanity, lay/token checks, and replays of the 1836Jr30 fixtures' tile lays,
//! tokens and routes against the reference traces and route-revenue vectors.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::*;
use crate::action::RouteSpec;
use crate::engine::title::jr30::port_rule as jr30_port_rule;
use crate::ids::{CorpId, HexId, Money, Rotation, TrainId, TrainKind};

fn jr30() -> &'static MapData {
    crate::engine::title::jr30::map()
}

fn ireland() -> &'static MapData {
    crate::engine::title::ireland::map()
}

/// 18Ireland's run rules with these marker bonuses and, when the runner owns RSSC, the
/// Shannon cities (Dromod F10, Limerick D16).
fn irl_context(hex_bonuses: &[(HexId, Money)], shannon: bool) -> RunContext<'_> {
    RunContext {
        distance: DistanceMode::HexEdges,
        hook: plain_revenue,
        narrow_bonus: true,
        hex_bonuses,
        shannon: shannon.then(|| [hex("F10"), hex("D16")]),
    }
}

const CORPS: [&str; 6] = ["B", "GCL", "Nord", "NBDS", "HSM", "NFL"];
const HOMES: [(&str, &str); 6] = [
    ("B", "H6"),
    ("GCL", "I9"),
    ("Nord", "I3"),
    ("NBDS", "E11"),
    ("HSM", "D6"),
    ("NFL", "A9"),
];

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

fn corp(s: &str) -> CorpId {
    CorpId(CORPS.iter().position(|c| *c == s).unwrap() as u8)
}

fn jr30_board() -> Board {
    let res: Vec<(CorpId, HexId, Option<u8>)> =
        HOMES.iter().map(|(c, h)| (corp(c), hex(h), None)).collect();
    Board::new(jr30(), &res)
}

fn phase_colours(phase: &str) -> &'static [Colour] {
    match phase {
        "2" => &[Colour::Yellow],
        "3" | "4" => &[Colour::Yellow, Colour::Green],
        _ => &[Colour::Yellow, Colour::Green, Colour::Brown],
    }
}

const ALL: &[Colour] = &[Colour::Yellow, Colour::Green, Colour::Brown];

#[test]
fn data_sanity() {
    let m = jr30();
    assert_eq!(m.hexes.len(), 51);
    let count = |c: Colour| {
        m.tiles
            .iter()
            .filter(|t| !t.preprinted && t.colour == c)
            .map(|t| u32::from(t.count))
            .sum::<u32>()
    };
    assert_eq!(count(Colour::Yellow), 31);
    assert_eq!(count(Colour::Green), 25);
    assert_eq!(count(Colour::Brown), 26);
    let g7 = m.hex(hex("G7")).unwrap();
    assert_eq!(m.tile_name(g7.tile), "G7-2");
    assert_eq!(m.parse_tile_id("G7-2"), Some(g7.tile));
    assert_eq!(m.parse_tile_id("G7-0"), None);
    assert_eq!(m.tile_name(m.hex(hex("J4")).unwrap().tile), "blank-9");
    assert_eq!(
        m.parse_tile_id("57-3").map(|t| m.tile_name(t)),
        Some("57-3".to_string())
    );
    assert_eq!(m.parse_tile_id("57-4"), None);
    assert_eq!(m.parse_tile_id("57"), None);
    assert!(m.parse_city_ref("64-0-1").is_some());
    assert!(m.parse_city_ref("64-0-2").is_none());
    // A9's edges 0 and 5 lead to B8 and B10; C7-C9 are walled off from each other.
    let a9 = m.hex(hex("A9")).unwrap();
    assert_eq!(a9.neighbours[0].map(|i| m.hex_def(i).id), Some(hex("B8")));
    assert_eq!(a9.neighbours[5].map(|i| m.hex_def(i).id), Some(hex("B10")));
    assert_eq!(m.hex(hex("C7")).unwrap().neighbours[4], None);
    // A9 is gray: B10 links to it only across A9's track (A9 edge 5 = B10 edge 2).
    let b10 = m.hex(hex("B10")).unwrap();
    assert!(b10.neighbours[2].is_some());
    assert_eq!(b10.neighbours[3].map(|i| m.hex_def(i).id), Some(hex("A11")));
    // A11 edge 1 faces A9's trackless edge 4: no link.
    assert_eq!(m.hex(hex("A11")).unwrap().neighbours[1], None);
}

#[test]
fn revenue_by_phase() {
    let m = jr30();
    let a13 = m.tile_def(m.hex(hex("A13")).unwrap().tile.def);
    assert_eq!(a13.nodes[0].revenue.value(phase_colours("2")), Money(40));
    assert_eq!(a13.nodes[0].revenue.value(phase_colours("5")), Money(70));
    let e3 = m.tile_def(m.hex(hex("E3")).unwrap().tile.def);
    assert_eq!(e3.nodes[0].revenue.value(phase_colours("2")), Money(0));
    assert_eq!(e3.nodes[0].revenue.value(phase_colours("3")), Money(20));
}

fn lay_req<'a>(c: CorpId, h: &str, tile: &str, rot: u8, colours: &'a [Colour]) -> LayRequest<'a> {
    LayRequest {
        corp: c,
        hex: hex(h),
        tile: jr30().parse_tile_id(tile).unwrap(),
        rotation: Rotation::new(rot).unwrap(),
        phase_colours: colours,
        blocked_hexes: &[],
        check_connectivity: true,
        exits_anywhere: false,
        corporation_lay: true,
    }
}

#[test]
fn illegal_lays_are_rejected() {
    let m = jr30();
    let mut b = jr30_board();
    let nord = corp("Nord");
    b.place_home_token(m, nord, hex("I3")).unwrap();
    // I3 (exits 0/4 → J2 and I5). I5 is blank: a 7 at rotation 1 has exits 1/2 (W → I3, NW).
    let ok = b.check_lay(m, &lay_req(nord, "I5", "7-0", 1, ALL)).unwrap();
    assert_eq!(
        ok,
        LayOutcome {
            cost: Money(0),
            upgrade: false
        }
    );
    // Not touching the network.
    assert!(matches!(
        b.check_lay(m, &lay_req(nord, "I5", "7-0", 3, ALL)),
        Err(TrackError::NotConnected { .. })
    ));
    // Far away.
    assert!(matches!(
        b.check_lay(m, &lay_req(nord, "A11", "7-0", 4, ALL)),
        Err(TrackError::NotConnected { .. })
    ));
    // Green on blank.
    assert!(matches!(
        b.check_lay(m, &lay_req(nord, "I5", "14-0", 1, ALL)),
        Err(TrackError::NotAnUpgrade { .. })
    ));
    // Phase colour.
    assert!(matches!(
        b.check_lay(m, &lay_req(nord, "I3", "53-0", 0, phase_colours("2"))),
        Err(TrackError::ColourNotYetAvailable { .. })
    ));
    // Blocked.
    let mut r = lay_req(nord, "I5", "7-0", 1, ALL);
    let blocked = [hex("I5")];
    r.blocked_hexes = &blocked;
    assert_eq!(b.check_lay(m, &r), Err(TrackError::HexBlocked(hex("I5"))));
    // Supply.
    let i5 = m.hex_index(hex("I5")).unwrap();
    b.lay(
        m,
        i5,
        m.parse_tile_id("7-0").unwrap(),
        Rotation::new(1).unwrap(),
    );
    let h4 = lay_req(nord, "H4", "7-0", 0, ALL);
    assert!(matches!(
        b.check_lay(m, &h4),
        Err(TrackError::TileNotInSupply { .. })
    ));
    // B label on I3 → 53 at a rotation that drops I3's exits.
    let legal = b.legal_rotations(
        m,
        m.hex_index(hex("I3")).unwrap(),
        m.parse_tile_id("53-0").unwrap(),
        Some(nord),
    );
    assert!(legal != 0);
    let bad = (0..6).find(|r| legal & (1 << r) == 0).unwrap();
    assert!(matches!(
        b.check_lay(m, &lay_req(nord, "I3", "53-0", bad, ALL)),
        Err(TrackError::IllegalRotation { .. })
    ));
    // Water cost on I9 for GCL's first lay? I9 is GCL's home city: 57 costs 40.
    let gcl = corp("GCL");
    b.place_home_token(m, gcl, hex("I9")).unwrap();
    let legal = b.legal_rotations(
        m,
        m.hex_index(hex("I9")).unwrap(),
        m.parse_tile_id("57-0").unwrap(),
        Some(gcl),
    );
    let rot = (0..6).find(|r| legal & (1 << r) != 0).unwrap();
    assert_eq!(
        b.check_lay(m, &lay_req(gcl, "I9", "57-0", rot, ALL))
            .unwrap()
            .cost,
        Money(40)
    );
}

#[test]
fn tokens_and_reservations() {
    let m = jr30();
    let mut b = jr30_board();
    let (hsm, nbds, b_corp) = (corp("HSM"), corp("NBDS"), corp("B"));
    let e11 = m.hex_index(hex("E11")).unwrap();
    let d6 = m.hex_index(hex("D6")).unwrap();
    // D6 is reserved for HSM; E11 tile-level for NBDS.
    assert_eq!(
        b.check_token(m, b_corp, Station { hex: d6, city: 0 }, false),
        Err(TokenError::NoSlot(hex("D6")))
    );
    assert_eq!(
        b.check_token(m, b_corp, Station { hex: e11, city: 1 }, false),
        Err(TokenError::Reserved(hex("E11")))
    );
    assert_eq!(
        b.check_token(m, nbds, Station { hex: e11, city: 1 }, false),
        Ok(())
    );
    b.place_home_token(m, hsm, hex("D6")).unwrap();
    assert_eq!(b.token_hexes(m, hsm), vec![hex("D6")]);
    assert_eq!(
        b.check_token(m, hsm, Station { hex: d6, city: 0 }, false),
        Err(TokenError::NoSlot(hex("D6")))
    );
    // Upgrading D6 to 54 keeps the token on the city with D6's exits.
    let t54 = m.parse_tile_id("54-0").unwrap();
    let legal = b.legal_rotations(m, d6, t54, Some(hsm));
    let rot = (0..6).find(|r| legal & (1 << r) != 0).unwrap();
    assert!(b.lay(m, d6, t54, Rotation::new(rot).unwrap()).is_empty());
    assert_eq!(b.token_hexes(m, hsm), vec![hex("D6")]);
    // E11 trackless: home token in city 0; laying 59 lifts it.
    b.place_home_token(m, nbds, hex("E11")).unwrap();
    assert!(b.city_tokened_by(e11, 0, nbds));
    let lifted = b.lay(
        m,
        e11,
        m.parse_tile_id("59-0").unwrap(),
        Rotation::new(0).unwrap(),
    );
    assert_eq!(lifted, vec![nbds]);
    assert!(b.token_hexes(m, nbds).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Fixture replays.

fn shared_dir() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(p) = std::env::var("RAILNOTE_FIXTURES") {
        candidates.push(PathBuf::from(&p));
        candidates.push(PathBuf::from(&p).join(".."));
    }
    candidates.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    candidates
        .into_iter()
        .find(|p| p.join("fixtures/1836Jr30").is_dir() && p.join("traces/1836Jr30").is_dir())
}

/// `id → (corp, [(revenue, stop hexes)])` from action-stats.md §7.
fn revenue_vectors(
    shared: &std::path::Path,
    fixture: &str,
) -> BTreeMap<u64, Vec<(i64, Vec<String>)>> {
    let text = std::fs::read_to_string(shared.join("docs/action-stats.md")).unwrap_or_default();
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("### ") {
            inside = line.contains(&format!("1836Jr30/{fixture}.json")) && text.contains("## 7.");
            continue;
        }
        if !inside {
            continue;
        }
        let Some((head, routes)) = line.split_once(": ") else {
            continue;
        };
        let Some(id) = head.split(' ').next().and_then(|s| s.parse::<u64>().ok()) else {
            continue;
        };
        let mut v = Vec::new();
        for r in routes.split(' ') {
            let Some((_, rest)) = r.split_once('=') else {
                continue;
            };
            let Some((rev, hexes)) = rest.split_once('(') else {
                continue;
            };
            let hexes = hexes
                .trim_end_matches(')')
                .split('-')
                .map(str::to_string)
                .collect();
            v.push((rev.parse().unwrap(), hexes));
        }
        out.insert(id, v);
    }
    out
}

fn train_distance(name: &str) -> u32 {
    let kind = name.rsplit_once('-').map_or(name, |(k, _)| k);
    kind.parse().unwrap_or(999)
}

struct Replay {
    /// Time spent in map operations only (no JSON, no trace comparison).
    map_time: std::time::Duration,
    checked_routes: usize,
    checked_lays: usize,
    failures: Vec<String>,
}

fn replay(fixture: &str) -> Option<Replay> {
    let shared = shared_dir()?;
    let m = jr30();
    let log: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(shared.join(format!("fixtures/1836Jr30/{fixture}.json"))).ok()?,
    )
    .ok()?;
    let trace_text =
        std::fs::read_to_string(shared.join(format!("traces/1836Jr30/{fixture}.jsonl"))).ok()?;
    let trace: Vec<serde_json::Value> = trace_text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let vectors = revenue_vectors(&shared, fixture);
    let mut by_id: BTreeMap<u64, &serde_json::Value> = BTreeMap::new();
    for l in &trace[1..] {
        if l["processed"] == true {
            by_id.insert(l["id"].as_u64().unwrap(), l);
        }
    }
    let mut b = jr30_board();
    let mut prev = &trace[0]["initial_state"];
    let mut rep = Replay {
        map_time: std::time::Duration::ZERO,
        checked_routes: 0,
        checked_lays: 0,
        failures: Vec::new(),
    };
    let tokens_of = |state: &serde_json::Value, c: &str| -> Vec<String> {
        state["corporations"]
            .as_array()
            .and_then(|cs| cs.iter().find(|x| x["id"] == c))
            .map(|x| {
                x["tokens"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    for a in log["actions"].as_array()? {
        let Some(id) = a["id"].as_u64() else { continue };
        let Some(line) = by_id.get(&id) else { continue };
        // Home tokens appear in the state before the corporation's first own action.
        for (c, h) in HOMES {
            let want = tokens_of(prev, c);
            if want.first().map(String::as_str) == Some(h)
                && !b.token_hexes(m, corp(c)).contains(&hex(h))
            {
                if let Err(e) = b.place_home_token(m, corp(c), hex(h)) {
                    rep.failures.push(format!("{id}: home token {c}: {e}"));
                }
            }
        }
        let phase = prev["phase"].as_str().unwrap_or("2").to_string();
        let entity = a["entity"].as_str().unwrap_or("");
        match a["type"].as_str() {
            Some("lay_tile") => {
                let tile = m.parse_tile_id(a["tile"].as_str().unwrap()).unwrap();
                let rot = Rotation::new(a["rotation"].as_u64().unwrap() as u8).unwrap();
                let is_corp = a["entity_type"] == "corporation";
                let c = if is_corp {
                    corp(entity)
                } else {
                    corp(line["active_entities"][0].as_str().unwrap_or("B"))
                };
                let req = LayRequest {
                    corp: c,
                    hex: hex(a["hex"].as_str().unwrap()),
                    tile,
                    rotation: rot,
                    phase_colours: phase_colours(&phase),
                    blocked_hexes: &[],
                    check_connectivity: is_corp,
                    exits_anywhere: false,
                    corporation_lay: is_corp,
                };
                let t0 = std::time::Instant::now();
                let checked = b.check_lay(m, &req);
                let _ = b.lay(m, m.hex_index(req.hex).unwrap(), tile, rot);
                rep.map_time += t0.elapsed();
                if let Err(e) = checked {
                    rep.failures.push(format!(
                        "{id}: lay {} {} on {}: {e}",
                        entity, a["tile"], a["hex"]
                    ));
                }
                rep.checked_lays += 1;
            }
            Some("place_token") => {
                let city = m.parse_city_ref(a["city"].as_str().unwrap()).unwrap();
                let at = b.locate_city(m, city).unwrap();
                let c = corp(entity);
                let strict = !b.token_hexes(m, c).is_empty();
                if let Err(e) = b.check_token(m, c, at, strict) {
                    rep.failures
                        .push(format!("{id}: token {entity} {}: {e}", a["city"]));
                }
                if let Err(e) = b.place_token(m, c, at) {
                    rep.failures
                        .push(format!("{id}: place token {entity}: {e}"));
                }
            }
            Some("run_routes") => {
                let c = corp(entity);
                let specs: Vec<RouteSpec> = a["routes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| RouteSpec {
                        walk: Vec::new(),
                        train: TrainId {
                            kind: TrainKind(0),
                            copy: 0,
                        },
                        connections: r["connections"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|seg| {
                                seg.as_array()
                                    .unwrap()
                                    .iter()
                                    .map(|h| hex(h.as_str().unwrap()))
                                    .collect()
                            })
                            .collect(),
                        revenue: r["revenue"].as_i64().map(Money),
                        nodes: r["nodes"]
                            .as_array()
                            .map(|ns| {
                                ns.iter()
                                    .filter_map(|n| {
                                        let (h, p) = n.as_str()?.rsplit_once('-')?;
                                        Some((hex(h), p.parse().ok()?))
                                    })
                                    .collect()
                            })
                            .unwrap_or_default(),
                    })
                    .collect();
                let trains: Vec<TrainRoute<'_>> = specs
                    .iter()
                    .zip(a["routes"].as_array().unwrap())
                    .map(|(s, r)| TrainRoute {
                        spec: s,
                        distance: train_distance(r["train"].as_str().unwrap()),
                        diesel: false,
                    })
                    .collect();
                let run_phase = line["phase"].as_str().unwrap_or("2");
                let t0 = std::time::Instant::now();
                let result = b.compute_run(m, c, &trains, phase_colours(run_phase), jr30_port_rule);
                let _ = b.route_available(m, c);
                let _ = b.has_reachable_token_city(m, c);
                let _ = b.clone();
                rep.map_time += t0.elapsed();
                match result {
                    Err(e) => rep.failures.push(format!("{id}: {entity} routes: {e}")),
                    Ok(res) => {
                        let expected: Vec<(i64, Vec<String>)> = match vectors.get(&id) {
                            Some(v) => v.clone(),
                            None => specs
                                .iter()
                                .filter_map(|s| s.revenue.map(|r| (r.0, Vec::new())))
                                .collect(),
                        };
                        if expected.len() == res.len() {
                            for (got, (rev, hexes)) in res.iter().zip(&expected) {
                                let got_hexes: Vec<String> =
                                    got.stops.iter().map(|(h, _)| h.to_string()).collect();
                                if got.revenue.0 != *rev
                                    || (!hexes.is_empty() && &got_hexes != hexes)
                                {
                                    rep.failures.push(format!(
                                        "{id}: {entity} route {got_hexes:?} = {} want {rev} {hexes:?}",
                                        got.revenue
                                    ));
                                }
                            }
                            rep.checked_routes += res.len();
                        } else if !expected.is_empty() {
                            rep.failures.push(format!(
                                "{id}: {} routes, want {}",
                                res.len(),
                                expected.len()
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
        // Tokens and tiles must match the trace after the action.
        for c in CORPS {
            let want = tokens_of(line, c);
            let got: Vec<String> = b
                .token_hexes(m, corp(c))
                .iter()
                .map(|h| h.to_string())
                .collect();
            // The home token of the next corporation to operate may already be in `line`; it is
            // synced before the next action.
            let home = HOMES.iter().find(|(x, _)| *x == c).map(|(_, h)| *h);
            let pending_home = got.is_empty() && want.len() == 1 && home == Some(want[0].as_str());
            if got != want && !pending_home {
                rep.failures
                    .push(format!("{id}: tokens {c} {got:?} want {want:?}"));
            }
        }
        if let Some(tiles) = line["tiles"].as_object() {
            for (h, t) in tiles {
                let i = m.hex_index(hex(h)).unwrap();
                let (tile, rot) = b.tile_at(i);
                let name = &m.tile_def(tile.def).name;
                if name != t["tile"].as_str().unwrap()
                    || u64::from(rot.get()) != t["rotation"].as_u64().unwrap()
                {
                    rep.failures
                        .push(format!("{id}: tile on {h} {name}/{rot} want {t}"));
                }
            }
        }
        prev = line;
    }
    Some(rep)
}

fn check_fixture(fixture: &str, min_routes: usize) {
    let Some(rep) = replay(fixture) else {
        eprintln!("fixtures not found, skipping {fixture}");
        return;
    };
    eprintln!(
        "{fixture}: {} lays, {} routes checked",
        rep.checked_lays, rep.checked_routes
    );
    assert_eq!(rep.failures, Vec::<String>::new(), "{fixture}");
    assert!(
        rep.checked_routes >= min_routes,
        "{fixture}: only {} routes checked",
        rep.checked_routes
    );
    assert!(rep.checked_lays > 0);
}

#[test]
fn fixture_2809() {
    check_fixture("2809", 60);
}

#[test]
fn fixture_2851() {
    check_fixture("2851", 60);
}

#[test]
fn fixture_bankrupt() {
    check_fixture("1836Jr30_game_end_bankrupt", 10);
}

#[test]
fn route_errors() {
    let m = jr30();
    let mut b = jr30_board();
    let hsm = corp("HSM");
    b.place_home_token(m, hsm, hex("D6")).unwrap();
    let e7 = m.hex_index(hex("E7")).unwrap();
    b.lay(
        m,
        e7,
        m.parse_tile_id("57-2").unwrap(),
        Rotation::new(2).unwrap(),
    );
    let spec = |conns: &[&[&str]]| RouteSpec {
        walk: Vec::new(),
        train: TrainId {
            kind: TrainKind(0),
            copy: 0,
        },
        connections: conns
            .iter()
            .map(|c| c.iter().map(|h| hex(h)).collect())
            .collect(),
        revenue: None,
        nodes: Vec::new(),
    };
    let run = |specs: &[(RouteSpec, u32)]| {
        let trains: Vec<TrainRoute<'_>> = specs
            .iter()
            .map(|(s, d)| TrainRoute {
                spec: s,
                distance: *d,
                diesel: false,
            })
            .collect();
        b.compute_run(m, hsm, &trains, phase_colours("2"), jr30_port_rule)
    };
    let ok = run(&[(spec(&[&["D6", "E7"]]), 2)]).unwrap();
    assert_eq!(ok[0].revenue, Money(60));
    assert_eq!(ok[0].stops, vec![(hex("D6"), 0), (hex("E7"), 0)]);
    let kind = |r: Result<Vec<RouteRevenue>, RouteError>| r.unwrap_err().kind;
    assert_eq!(
        kind(run(&[(spec(&[&["D6", "E7"]]), 1)])),
        RouteErrorKind::TooLong {
            stops: 2,
            distance: 1
        }
    );
    // The reference skips track used by the other routes when matching a single connection,
    // so the second route finds no usable track and fails the token test.
    let twice = run(&[(spec(&[&["D6", "E7"]]), 2), (spec(&[&["E7", "D6"]]), 2)]).unwrap_err();
    assert_eq!((twice.route, twice.kind), (1, RouteErrorKind::NoToken));
    assert!(matches!(
        kind(run(&[(spec(&[&["E7", "F8"]]), 2)])),
        RouteErrorKind::NoSuchTrack(_)
    ));
    // Without a token on the route.
    let nord = corp("Nord");
    let trains = [spec(&[&["D6", "E7"]])];
    let t: Vec<TrainRoute<'_>> = trains
        .iter()
        .map(|s| TrainRoute {
            spec: s,
            distance: 2,
            diesel: false,
        })
        .collect();
    assert_eq!(
        b.compute_run(m, nord, &t, ALL, jr30_port_rule)
            .unwrap_err()
            .kind,
        RouteErrorKind::NoToken
    );
    assert!(b.route_available(m, hsm));
    assert!(!b.route_available(m, nord));
}

/// Rough performance guard: a full fixture replay of the map part (lays with strict checks,
/// tokens, routes) is far below the 2 ms budget in release builds; in debug just make sure it
/// terminates quickly.
#[test]
fn replay_is_fast_enough() {
    let Some(rep) = replay("2809") else { return };
    eprintln!("2809 map operations: {:?}", rep.map_time);
    assert!(rep.map_time.as_secs() < 10);
}

// ---------------------------------------------------------------------------------------------
// 18Ireland.

fn irl_shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("RAILNOTE_SHARED") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    let ok = dir.join("fixtures/18Ireland").is_dir() && dir.join("traces/18Ireland").is_dir();
    if !ok {
        eprintln!("skipped: 18Ireland fixtures not found (set RAILNOTE_SHARED)");
    }
    ok.then_some(dir)
}

const IRL_FIXTURES: [&str; 4] = [
    "161830",
    "18Ireland_game_end_bankrupt",
    "18Ireland_game_end_stock_market",
    "larger_bank_optional_rule",
];

fn irl_phase_colours(phase: &str) -> &'static [Colour] {
    match phase {
        "2" => &[Colour::Yellow],
        "4" | "6" => &[Colour::Yellow, Colour::Green],
        "8" | "10" => &[Colour::Yellow, Colour::Green, Colour::Brown],
        _ => &[Colour::Yellow, Colour::Green, Colour::Brown, Colour::Gray],
    }
}

fn irl_up(from: &str, to: &str) -> bool {
    let m = ireland();
    let f = m.tile_def(m.tile_def_by_name(from).unwrap());
    let t = m.tile_def(m.tile_def_by_name(to).unwrap());
    upgrade_fault(f, 0, t, 0).is_none()
}

fn irl_successors(from: &str) -> Vec<String> {
    let m = ireland();
    m.tiles
        .iter()
        .filter(|t| !t.preprinted && irl_up(from, &t.name))
        .map(|t| t.name.clone())
        .collect()
}

#[test]
fn ireland_data_sanity() {
    let m = ireland();
    assert_eq!(m.title, "18Ireland");
    assert_eq!(m.layout, Layout::Flat);
    assert_eq!(m.hexes.len(), 88);
    let colour_of = |h: &HexDef| m.tile_def(h.tile.def).colour;
    let hexes_of = |c: Colour| m.hexes.iter().filter(|h| colour_of(h) == c).count();
    assert_eq!(hexes_of(Colour::White), 80);
    assert_eq!(hexes_of(Colour::Yellow), 2);
    assert_eq!(hexes_of(Colour::Blue), 6);
    let count = |c: Colour| {
        m.tiles
            .iter()
            .filter(|t| !t.preprinted && t.colour == c)
            .map(|t| u32::from(t.count))
            .sum::<u32>()
    };
    let total: u32 = [
        Colour::Yellow,
        Colour::Green,
        Colour::Brown,
        Colour::Gray,
        Colour::Red,
    ]
    .iter()
    .map(|&c| count(c))
    .sum();
    assert_eq!(total, 223);
    assert_eq!(count(Colour::Yellow), 130);
    assert_eq!(count(Colour::Green), 58);
    assert_eq!(count(Colour::Brown), 25);
    assert_eq!(count(Colour::Gray), 9);
    assert_eq!(count(Colour::Red), 1);
    // Preprinted naming: coordinate, copy = position in the group.
    let name = |h: &str| m.tile_name(m.hex(hex(h)).unwrap().tile);
    assert_eq!(name("G-1"), "G-1-2");
    assert_eq!(name("H20"), "H20-5");
    assert_eq!(name("I11"), "I11-0");
    assert_eq!(
        m.parse_tile_id("G-1-2"),
        Some(m.hex(hex("G-1")).unwrap().tile)
    );
    // Flat geometry: Dublin's edge 0 leads to Kingstown and back across edge 3.
    let dub = m.hex_index(hex("I11")).unwrap();
    let kings = m.hex_index(hex("I13")).unwrap();
    assert_eq!(m.hex_def(dub).neighbours[0], Some(kings));
    assert_eq!(m.hex_def(kings).neighbours[3], Some(dub));
    // Blue placeholders are walls until the Irish Mail lies there.
    let g1 = m.hex(hex("G1")).unwrap();
    let g_1 = m.hex_index(hex("G-1")).unwrap();
    assert_eq!(g1.all_neighbours[3], Some(g_1));
    assert_eq!(g1.neighbours[3], None);
    // Tile facts.
    let def = |n: &str| m.tile_def(m.tile_def_by_name(n).unwrap());
    assert_eq!(def("IR2").upgrade_cost, 40);
    assert_eq!(def("IR2").label.as_deref(), Some("DD"));
    assert_eq!(def("IR3").paths[0].gauge, Gauge::Narrow);
    assert!(def("IR5").narrow_only());
    assert!(!def("IR3").narrow_only());
    assert_eq!(def("IR68").nodes[0].slots, 4);
    assert_eq!(def("IM").colour, Colour::Red);
    assert_eq!(
        m.hex(hex("J4")).unwrap().icons,
        vec!["port".to_string()],
        "Belfast is a port"
    );
    assert_eq!(def("E3").upgrade_cost, 100);
    assert_eq!(m.hex(hex("E3")).unwrap().impassable, 1);
}

#[test]
fn ireland_upgrade_graph() {
    let expect = |from: &str, tos: &[&str]| {
        assert_eq!(irl_successors(from), tos, "upgrades of {from}");
    };
    expect("IR1", &["IR6"]);
    expect("IR6", &["IR44"]);
    expect("IR44", &["IR67"]);
    expect("IR9", &["IR45"]);
    expect("IR45", &["IR68"]);
    expect("IR2", &["IR7", "IR8"]);
    expect("IR3", &["IR10", "IR12"]);
    expect("IR4", &["IR11", "IR12"]);
    expect("IR7", &[]);
    expect("IR8", &[]);
    expect("I11", &["IR9"]);
    expect("J4", &["IR1"]);
    expect("I9", &["IR2"]);
    for t in [
        "1", "55", "69", "631", "IR62", "IR63", "IR64", "IR65", "IR66",
    ] {
        expect(t, &[]);
    }
    let ir5 = irl_successors("IR5");
    for t in ["IR23", "IR24", "IR25"] {
        assert!(ir5.contains(&t.to_string()), "IR5 → {t}: {ir5:?}");
    }
    // Narrow track only upgrades to narrow or dual, broad only to broad.
    assert!(!irl_up("IR5", "IR13") || irl_successors("IR5").contains(&"IR13".to_string()));
    assert!(!irl_up("3", "IR23"));
    assert!(irl_up("80", "IR59"));
    assert!(irl_up("IR59", "60"));
    // The Irish Mail is no ordinary upgrade of a blue hex.
    assert!(!irl_up("F0", "IM"));
}

#[test]
fn ireland_lays() {
    let m = ireland();
    let dkr = CorpId(0);
    let mut b = Board::new(m, &[(dkr, hex("I11"), Some(0))]);
    b.place_home_token(m, dkr, hex("I11")).unwrap();
    let yellow = [Colour::Yellow];
    let req = |h: &str, t: &str, r: u8, special: bool| LayRequest {
        corp: dkr,
        hex: hex(h),
        tile: m.parse_tile_id(t).unwrap(),
        rotation: Rotation::new(r).unwrap(),
        phase_colours: &yellow,
        blocked_hexes: &[],
        check_connectivity: !special,
        exits_anywhere: false,
        corporation_lay: !special,
    };
    // Broad 9 north of Dublin, from city 0? Dublin city 0 exits south (edge 0); city 1 north.
    // The token is in city 0, whose exit leads to Kingstown: H12/J12 not reachable.
    assert!(b.check_lay(m, &req("I9", "IR2-0", 0, false)).is_err());
    // Narrow-only lays pay no terrain: IR5 on the mountain town F4 (special DR lay).
    let out = b.check_lay(m, &req("F4", "IR5-0", 0, true)).unwrap();
    assert_eq!(out.cost, Money(0));
    // A broad town tile there pays the mountain.
    let out = b.check_lay(m, &req("F4", "4-0", 0, true)).unwrap();
    assert_eq!(out.cost, Money(40));
    // The Irish Mail on a blue placeholder: only as a special lay, pointing at land.
    let im = |r| req("G-1", "IM-0", r, true);
    assert!(b.check_lay(m, &req("G-1", "IM-0", 0, false)).is_err());
    // IM's track leaves edge 5 (SE); G-1's SE neighbour is H0 (blue), its NE... G1 is at
    // edge 0 (S) of G-1: rotation 1 turns edge 5 to 0.
    b.check_lay(m, &im(1)).unwrap();
    assert!(b.check_lay(m, &im(3)).is_err());
    let g_1 = m.hex_index(hex("G-1")).unwrap();
    let g1 = m.hex_index(hex("G1")).unwrap();
    assert_eq!(b.neighbour(m, g1, 3), None);
    let _ = b.lay(
        m,
        g_1,
        m.parse_tile_id("IM-0").unwrap(),
        Rotation::new(1).unwrap(),
    );
    assert_eq!(b.neighbour(m, g1, 3), Some(g_1));
    assert_eq!(b.neighbour(m, g_1, 0), Some(g1));
    // IR2 (DD) carries its own 40 when upgraded.
    let i9 = m.hex_index(hex("I9")).unwrap();
    let _ = b.lay(
        m,
        i9,
        m.parse_tile_id("IR2-0").unwrap(),
        Rotation::new(0).unwrap(),
    );
    let st = b.tile_at(i9);
    assert_eq!(m.tile_def(st.0.def).upgrade_cost, 40);
}

#[test]
fn ireland_fixture_ids_parse() {
    let Some(shared) = irl_shared_dir() else {
        return;
    };
    let m = ireland();
    let mut checked = 0;
    for f in IRL_FIXTURES {
        let path = shared.join(format!("fixtures/18Ireland/{f}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let log: serde_json::Value = serde_json::from_str(&text).unwrap();
        for a in log["actions"].as_array().unwrap() {
            let all = std::iter::once(a).chain(a["auto_actions"].as_array().into_iter().flatten());
            for a in all {
                match a["type"].as_str() {
                    Some("lay_tile") => {
                        let t = a["tile"].as_str().unwrap();
                        assert!(m.parse_tile_id(t).is_some(), "{f}: tile {t}");
                        assert!(m.hex(hex(a["hex"].as_str().unwrap())).is_some());
                        checked += 1;
                    }
                    Some("place_token") => {
                        let c = a["city"].as_str().unwrap();
                        assert!(m.parse_city_ref(c).is_some(), "{f}: city {c}");
                        checked += 1;
                    }
                    _ => {}
                }
            }
        }
        // Every tile name of the traces is a tile of the map.
        let trace = std::fs::read_to_string(shared.join(format!("traces/18Ireland/{f}.jsonl")))
            .unwrap_or_default();
        for line in trace.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for (h, t) in v["tiles"].as_object().into_iter().flatten() {
                assert!(m.hex(hex(h)).is_some(), "{f}: hex {h}");
                let name = t["tile"].as_str().unwrap();
                assert!(m.tile_def_by_name(name).is_some(), "{f}: tile {name}");
            }
        }
    }
    assert!(checked > 400, "only {checked} ids checked");
}

/// Route revenues of every `run_routes` of the 18Ireland fixtures, recomputed on a board
/// rebuilt from the trace state before the action.
struct IrlRoutes {
    total: usize,
    matched: usize,
    mismatches: Vec<String>,
}

fn irl_train_distance(name: &str) -> u32 {
    let kind = name.rsplit_once('-').map_or(name, |(k, _)| k);
    if kind == "D" {
        return 99;
    }
    kind.trim_end_matches('\'')
        .trim_end_matches('H')
        .parse()
        .unwrap_or(99)
}

fn irl_routes(shared: &std::path::Path, fixture: &str) -> Option<IrlRoutes> {
    let m = ireland();
    let log: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(shared.join(format!("fixtures/18Ireland/{fixture}.json"))).ok()?,
    )
    .ok()?;
    let trace_text =
        std::fs::read_to_string(shared.join(format!("traces/18Ireland/{fixture}.jsonl"))).ok()?;
    let trace: Vec<serde_json::Value> = trace_text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    // Majors join the list later: collect every corporation named anywhere in the trace.
    let mut corp_names: Vec<String> = Vec::new();
    let states = std::iter::once(&trace[0]["initial_state"]).chain(&trace[1..]);
    for st in states {
        for c in st["corporations"].as_array().into_iter().flatten() {
            let name = c["id"].as_str().unwrap_or("").to_string();
            if !corp_names.contains(&name) {
                corp_names.push(name);
            }
        }
    }
    let cid = |s: &str| CorpId(corp_names.iter().position(|c| c == s).unwrap_or(0) as u8);
    let mut out = IrlRoutes {
        total: 0,
        matched: 0,
        mismatches: Vec::new(),
    };
    let mut prev = &trace[0]["initial_state"];
    // Assignment bonuses: (holder corporation, hex, amount); holders follow mergers.
    let mut bonuses: Vec<(String, HexId, Money)> = Vec::new();
    let mut merging: Vec<String> = Vec::new();
    for line in &trace[1..] {
        if line["processed"] != true {
            continue;
        }
        let id = line["id"].as_u64().unwrap_or(0);
        let action = log["actions"]
            .as_array()?
            .iter()
            .find(|a| a["id"].as_u64() == Some(id))?;
        match line["type"].as_str() {
            Some("assign") => {
                let company = action["entity"].as_str().unwrap_or("");
                let owner = prev["companies"]
                    .as_array()?
                    .iter()
                    .find(|c| c["id"] == company)
                    .and_then(|c| c["owner"].as_str())
                    .unwrap_or("")
                    .to_string();
                let amount = if company == "TASPS" { 20 } else { 10 };
                bonuses.push((owner, hex(action["target"].as_str()?), Money(amount)));
            }
            Some("merge") => {
                let target = action["corporation"].as_str().unwrap_or("");
                let is_minor = line["corporations"]
                    .as_array()?
                    .iter()
                    .find(|c| c["id"] == target)
                    .is_some_and(|c| c["type"] == "minor");
                if is_minor {
                    // A new proposal (after a vote or a pass) starts a new list.
                    if prev["type"] != "merge" {
                        merging.clear();
                    }
                    merging.push(target.to_string());
                } else {
                    for b in bonuses.iter_mut() {
                        if merging.contains(&b.0) {
                            b.0 = target.to_string();
                        }
                    }
                    merging.clear();
                }
            }
            Some("run_routes") => {
                let entity = action["entity"].as_str().unwrap_or("");
                let routes = action["routes"].as_array()?;
                if !routes.is_empty() {
                    let c = cid(entity);
                    let specs: Vec<RouteSpec> = routes
                        .iter()
                        .map(|r| RouteSpec {
                            walk: Vec::new(),
                            train: TrainId {
                                kind: TrainKind(0),
                                copy: 0,
                            },
                            connections: r["connections"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .map(|s| {
                                    s.as_array()
                                        .unwrap()
                                        .iter()
                                        .map(|h| hex(h.as_str().unwrap()))
                                        .collect()
                                })
                                .collect(),
                            revenue: r["revenue"].as_i64().map(Money),
                            nodes: r["nodes"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(|n| {
                                    let (h, p) = n.as_str()?.rsplit_once('-')?;
                                    Some((h.parse().ok()?, p.parse().ok()?))
                                })
                                .collect(),
                        })
                        .collect();
                    let board = irl_board(prev, &corp_names, entity, &specs);
                    let trains: Vec<TrainRoute<'_>> = specs
                        .iter()
                        .zip(routes)
                        .map(|(spec, r)| TrainRoute {
                            spec,
                            distance: irl_train_distance(r["train"].as_str().unwrap_or("D")),
                            diesel: false,
                        })
                        .collect();
                    let hex_bonuses: Vec<(HexId, Money)> = bonuses
                        .iter()
                        .filter(|b| b.0 == entity)
                        .map(|b| (b.1, b.2))
                        .collect();
                    let shannon = prev["companies"]
                        .as_array()?
                        .iter()
                        .any(|x| x["id"] == "RSSC" && x["owner"] == entity && x["closed"] != true);
                    let ctx = irl_context(&hex_bonuses, shannon);
                    let phase = prev["phase"].as_str().unwrap_or("2");
                    let got = board.compute_run_with(m, c, &trains, irl_phase_colours(phase), &ctx);
                    for (i, spec) in specs.iter().enumerate() {
                        out.total += 1;
                        let want = spec.revenue.unwrap_or(Money(0));
                        match &got {
                            Ok(v) if v[i].revenue == want => out.matched += 1,
                            Ok(v) => out.mismatches.push(format!(
                                "{fixture} #{id} {entity} route {i} {:?}: got {} want {want}",
                                routes[i]["revenue_str"], v[i].revenue
                            )),
                            Err(e) => out.mismatches.push(format!(
                                "{fixture} #{id} {entity} route {i} {:?}: {e}",
                                routes[i]["revenue_str"]
                            )),
                        }
                    }
                }
            }
            _ => {}
        }
        prev = line;
    }
    Some(out)
}

/// The board in a trace state: laid tiles from `tiles`, tokens from the corporations' token
/// hexes. On multi-city tiles the runner's token goes to the city its routes name, other
/// tokens to the first city with a free slot.
fn irl_board(
    state: &serde_json::Value,
    corp_names: &[String],
    runner: &str,
    specs: &[RouteSpec],
) -> Board {
    let m = ireland();
    let mut b = Board::new(m, &[]);
    for (h, t) in state["tiles"].as_object().into_iter().flatten() {
        let hi = m.hex_index(hex(h)).unwrap();
        let def = m.tile_def_by_name(t["tile"].as_str().unwrap()).unwrap();
        if m.tile_def(def).preprinted {
            continue;
        }
        let copy = (0..m.tile_def(def).count)
            .find(|&copy| b.in_supply(crate::ids::TileId { def, copy }))
            .unwrap_or(0);
        let rot = Rotation::new(t["rotation"].as_u64().unwrap_or(0) as u8).unwrap();
        let _ = b.lay(m, hi, crate::ids::TileId { def, copy }, rot);
    }
    // The runner first, so its named cities are free for it.
    let mut corps: Vec<&serde_json::Value> = state["corporations"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    corps.sort_by_key(|c| c["id"] != runner);
    for (ci, c) in corps.into_iter().enumerate() {
        let name = c["id"].as_str().unwrap_or("");
        let corp = CorpId(corp_names.iter().position(|n| n == name).unwrap_or(ci) as u8);
        for t in c["tokens"].as_array().into_iter().flatten() {
            let Some(h) = t.as_str().and_then(|s| s.parse::<HexId>().ok()) else {
                continue;
            };
            let Some(hi) = m.hex_index(h) else { continue };
            let def = b.tile_def(m, hi);
            let cities = def.cities.len() as u8;
            let named: Vec<u8> = if name == runner {
                specs
                    .iter()
                    .flat_map(|s| s.nodes.iter())
                    .filter(|(nh, _)| *nh == h)
                    .filter_map(|&(_, part)| def.city_by_part(part).map(|x| x as u8))
                    .collect()
            } else {
                Vec::new()
            };
            let order: Vec<u8> = named.into_iter().chain(0..cities).collect();
            for city in order {
                let at = Station { hex: hi, city };
                if b.check_token(m, corp, at, false).is_ok() {
                    let _ = b.place_token(m, corp, at);
                    break;
                }
            }
        }
    }
    b
}

#[test]
fn ireland_route_revenues() {
    let Some(shared) = irl_shared_dir() else {
        return;
    };
    let (mut total, mut matched, mut mismatches) = (0, 0, Vec::new());
    for f in IRL_FIXTURES {
        let Some(r) = irl_routes(&shared, f) else {
            continue;
        };
        total += r.total;
        matched += r.matched;
        mismatches.extend(r.mismatches);
    }
    eprintln!("18Ireland routes reproduced: {matched}/{total}");
    for mm in &mismatches {
        eprintln!("  {mm}");
    }
    assert!(total > 0);
    // Every stored revenue, including larger_bank #273 where the log's node signatures pick
    // the DD town (50) over the city (60) on the same hexes.
    assert!(mismatches.is_empty(), "{} mismatches", mismatches.len());
    assert_eq!(matched, total);
}

/// Narrow-gauge bonus (B.3.7) on a hand-built board, the position of fixture 161830 #146:
/// GNWR's token in Dromod F10 (tile 644: city 20, one narrow and one broad exit), broad track
/// to the town Athenry D12 (tile 4, 10) through E11. The 2H run D12–F10 is worth 10 + 20 = 30;
/// a narrow IR5 town (10) on Athlone F12 facing F10's narrow exit adds 10 (the reference
/// computes £40 "D12-F10 (Narrow: £10)" with it and £30 without); the same town turned away
/// from the track adds nothing.
#[test]
fn ireland_narrow_gauge_bonus() {
    let m = ireland();
    let gnwr = crate::engine::title::ireland::title()
        .corp_by_sym("GNWR")
        .unwrap();
    let at = |h: &str| m.hex_index(hex(h)).unwrap();
    let tile = |t: &str| m.parse_tile_id(t).unwrap();
    let rot = |r: u8| Rotation::new(r).unwrap();
    let mut b = Board::new(m, &[]);
    let _ = b.lay(m, at("F10"), tile("644-0"), rot(0));
    let _ = b.lay(m, at("E11"), tile("9-1"), rot(1));
    let _ = b.lay(m, at("D12"), tile("4-1"), rot(1));
    b.place_token(
        m,
        gnwr,
        Station {
            hex: at("F10"),
            city: 0,
        },
    )
    .unwrap();
    let spec = RouteSpec {
        walk: Vec::new(),
        train: TrainId {
            kind: TrainKind(0),
            copy: 4,
        },
        connections: vec![vec![hex("F10"), hex("E11"), hex("D12")]],
        revenue: None,
        nodes: Vec::new(),
    };
    let run = |b: &Board| {
        let trains = [TrainRoute {
            spec: &spec,
            distance: 2,
            diesel: false,
        }];
        b.compute_run_with(
            m,
            gnwr,
            &trains,
            irl_phase_colours("2"),
            &irl_context(&[], false),
        )
        .unwrap()[0]
            .revenue
    };
    assert_eq!(run(&b), Money(30));

    let mut connected = b.clone();
    let _ = connected.lay(m, at("F12"), tile("IR5-0"), rot(3));
    assert_eq!(run(&connected), Money(40));
    // Without the bonus the same run on a plain context is the stops alone.
    let trains = [TrainRoute {
        spec: &spec,
        distance: 2,
        diesel: false,
    }];
    let plain = connected
        .compute_run(m, gnwr, &trains, irl_phase_colours("2"), plain_revenue)
        .unwrap();
    assert_eq!(plain[0].revenue, Money(30));

    // Every other rotation of the town points its narrow track away from Dromod.
    for r in [0, 1, 2, 4, 5] {
        let mut away = b.clone();
        let _ = away.lay(m, at("F12"), tile("IR5-0"), rot(r));
        assert_eq!(run(&away), Money(30), "IR5 rotation {r}");
    }
}

/// 1836Jr30's map with the paths of the named tiles made terminal (no bundled title has a
/// terminal path yet; the reference's offboards do).
fn jr30_with_terminal_paths(tiles: &[&str]) -> MapData {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/1836jr30/map.json"
    ))
    .unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    for tile in json["tiles"].as_array_mut().unwrap() {
        if tiles.contains(&tile["name"].as_str().unwrap()) {
            for path in tile["paths"].as_array_mut().unwrap() {
                path["terminal"] = serde_json::Value::Bool(true);
            }
        }
    }
    MapData::from_json(&json.to_string()).unwrap()
}

/// A route may start and end on a terminal path but not pass through one (reference
/// `Route#check_terminals`), whichever way its connections are written: Amsterdam (D6) –
/// Utrecht (E7, the join) – F8 – the town F10.
#[test]
fn a_route_passes_through_no_terminal_path() {
    let run = |terminal: &[&str], connections: &[&[&str]]| {
        let m = jr30_with_terminal_paths(terminal);
        let homes: Vec<(CorpId, HexId, Option<u8>)> =
            HOMES.iter().map(|(c, h)| (corp(c), hex(h), None)).collect();
        let mut b = Board::new(&m, &homes);
        let hsm = corp("HSM");
        b.place_home_token(&m, hsm, hex("D6")).unwrap();
        for (at, tile, rotation) in [("E7", "57-2", 2), ("F8", "8-0", 2), ("F10", "4-0", 1)] {
            let at = m.hex_index(hex(at)).unwrap();
            b.lay(
                &m,
                at,
                m.parse_tile_id(tile).unwrap(),
                Rotation::new(rotation).unwrap(),
            );
        }
        let spec = RouteSpec {
            walk: Vec::new(),
            train: TrainId {
                kind: TrainKind(0),
                copy: 0,
            },
            connections: connections
                .iter()
                .map(|c| c.iter().map(|h| hex(h)).collect())
                .collect(),
            revenue: None,
            nodes: Vec::new(),
        };
        let trains = [TrainRoute {
            spec: &spec,
            distance: 3,
            diesel: false,
        }];
        b.compute_run(&m, hsm, &trains, phase_colours("2"), jr30_port_rule)
            .map(|r| r[0].revenue)
            .map_err(|e| e.kind)
    };
    let written_forward: &[&[&str]] = &[&["D6", "E7"], &["E7", "F8", "F10"]];
    let first_reversed: &[&[&str]] = &[&["E7", "D6"], &["E7", "F8", "F10"]];
    let last_reversed: &[&[&str]] = &[&["D6", "E7"], &["F10", "F8", "E7"]];
    let both_reversed: &[&[&str]] = &[&["E7", "D6"], &["F10", "F8", "E7"]];
    for route in [
        written_forward,
        first_reversed,
        last_reversed,
        both_reversed,
    ] {
        assert_eq!(run(&[], route), Ok(Money(70)), "{route:?}");
        // The route's ends: Amsterdam's path and the town's.
        assert_eq!(run(&["D6", "4"], route), Ok(Money(70)), "{route:?}");
        assert_eq!(
            run(&["57"], route),
            Err(RouteErrorKind::ThroughTerminal),
            "{route:?}"
        );
        assert_eq!(
            run(&["8"], route),
            Err(RouteErrorKind::ThroughTerminal),
            "{route:?}"
        );
    }
}
