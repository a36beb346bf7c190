//! The optimal route finder: every recorded run of every 1836Jr30 fixture against the optimum
//! at the same state, the optimum's legality for the engine's own check, and hand-built
//! positions with known optima.

use std::time::Instant;

use railnote::action::{Action, Entity};
use railnote::engine::map::SearchLimits;
use railnote::ids::{CorpId, Money};
use railnote::log;
use railnote::output::{best_run, run_revenues};
use railnote::replay::Replay;

use crate::common::{fixtures, shared_dir};

/// Recorded runs below the optimum: fixture, action id, recorded < optimal.
const BELOW: &[&str] = &[
    "1836Jr30_game_end_bankrupt.json #190: 130 < 150",
    "1836Jr30_game_end_bankrupt.json #221: 130 < 170",
    "1836Jr30_game_end_bankrupt.json #287: 60 < 90",
    "2809.json #127: 220 < 240",
    "2809.json #220: 30 < 40",
    "2809.json #271: 430 < 440",
    "2809.json #285: 30 < 40",
    "2809.json #326: 140 < 210",
    "2809.json #335: 200 < 220",
    "2809.json #343: 70 < 80",
    "2809.json #412: 200 < 220",
    "2809.json #430: 80 < 90",
    "2809.json #443: 220 < 230",
    "2809.json #451: 610 < 620",
    "2809.json #455: 80 < 160",
    "2809.json #468: 220 < 230",
    "2809.json #472: 220 < 230",
    "2809.json #481: 80 < 160",
    "2851.json #256: 180 < 190",
    "2851.json #327: 500 < 570",
    "2851.json #348: 570 < 580",
    "2851.json #368: 720 < 830",
    "2851.json #408: 730 < 850",
    "2851.json #428: 770 < 850",
    "2851.json #448: 770 < 850",
];

/// Recorded 18Ireland runs below the optimum. Each better run was given to the reference
/// engine in place of the recorded one: it accepted it and computed the same revenues.
const BELOW_IRELAND: &[&str] = &[
    "161830.json #282: 30 < 40",
    "161830.json #332: 40 < 60",
    "161830.json #434: 220 < 230",
    "161830.json #609: 190 < 220",
    "161830.json #620: 270 < 290",
    "161830.json #634: 180 < 190",
    "161830.json #669: 290 < 320",
    "161830.json #673: 210 < 240",
    "161830.json #698: 200 < 210",
    "161830.json #710: 290 < 320",
    "161830.json #713: 180 < 190",
    "161830.json #806: 120 < 170",
    "161830.json #819: 250 < 260",
    "161830.json #858: 130 < 180",
    "18Ireland_game_end_bankrupt.json #576: 70 < 80",
    "18Ireland_game_end_bankrupt.json #665: 200 < 210",
    "18Ireland_game_end_bankrupt.json #701: 110 < 160",
    "18Ireland_game_end_bankrupt.json #704: 250 < 280",
    "18Ireland_game_end_bankrupt.json #721: 60 < 70",
    "18Ireland_game_end_bankrupt.json #791: 260 < 290",
    "18Ireland_game_end_bankrupt.json #851: 130 < 190",
    "18Ireland_game_end_bankrupt.json #911: 130 < 190",
    "18Ireland_game_end_stock_market.json #937: 270 < 300",
    "18Ireland_game_end_stock_market.json #974: 270 < 300",
    "18Ireland_game_end_stock_market.json #998: 280 < 310",
    "larger_bank_optional_rule.json #273: 50 < 60",
    "larger_bank_optional_rule.json #427: 120 < 140",
    "larger_bank_optional_rule.json #517: 70 < 80",
    "larger_bank_optional_rule.json #863: 170 < 180",
    "larger_bank_optional_rule.json #877: 160 < 170",
];

/// Every recorded run of every fixture of `title` against the proven optimum at the same
/// state: the optimum is at least the recorded revenue, and the engine accepts the best run
/// with the revenues the search gave. Returns the runs below the optimum.
fn runs_below_the_optimum(shared: &std::path::Path, title: &str) -> Vec<String> {
    let mut below: Vec<String> = Vec::new();
    for path in fixtures(shared, title) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read(&name, &src).unwrap();
        let mut replay = Replay::new(&log).unwrap();
        let mut runs = 0;
        let mut slowest = 0.0f64;
        while replay.processed() < log.actions.len() {
            let logged = &log.actions[replay.processed()];
            if let Action::RunRoutes { entity, routes } = &logged.action {
                let Entity::Corporation(corp) = *entity else {
                    panic!("run by a non-corporation")
                };
                let game = replay.game();
                let recorded: Money = run_revenues(game, corp, routes).unwrap().into_iter().sum();
                let t = Instant::now();
                let best = best_run(game, corp, SearchLimits::default()).unwrap();
                slowest = slowest.max(t.elapsed().as_secs_f64());
                assert!(best.optimal);
                assert!(
                    best.total >= recorded,
                    "{name} #{}: optimum {} < recorded {}",
                    logged.action_id,
                    best.total,
                    recorded
                );
                let specs: Vec<_> = best.routes.iter().map(|r| r.spec.clone()).collect();
                let check = run_revenues(game, corp, &specs)
                    .unwrap_or_else(|e| panic!("{name} #{}: {e} {specs:?}", logged.action_id));
                let found: Vec<Money> = best.routes.iter().map(|r| r.revenue).collect();
                assert_eq!(check, found, "{name} #{}", logged.action_id);
                assert_eq!(best.total, found.iter().copied().sum::<Money>());
                if best.total > recorded {
                    below.push(format!(
                        "{name} #{}: {recorded} < {}",
                        logged.action_id, best.total
                    ));
                }
                runs += 1;
            }
            replay.step().unwrap().unwrap();
        }
        eprintln!("{name}: {runs} runs, slowest {:.3} ms", slowest * 1000.0);
    }
    below
}

#[test]
fn optimum_covers_every_recorded_run() {
    let Some(shared) = shared_dir() else { return };
    let below = runs_below_the_optimum(&shared, "1836Jr30");
    if fixtures(&shared, "1836Jr30").len() == 3 {
        assert_eq!(below, BELOW);
    }
}

#[test]
fn optimum_covers_every_recorded_18ireland_run() {
    let Some(shared) = shared_dir() else { return };
    let below = runs_below_the_optimum(&shared, "18Ireland");
    if fixtures(&shared, "18Ireland").len() == 4 {
        assert_eq!(below, BELOW_IRELAND);
    }
}

/// The recorded 1830 runs below the optimum at their state (the players' choices).
const BELOW_1830: &[&str] = &[
    "1830_game_end_bank.json #70: 90 < 100",
    "1830_game_end_bank.json #348: 320 < 340",
    "26855.json #296: 110 < 130",
    "26855.json #328: 210 < 240",
];

#[test]
fn optimum_covers_every_recorded_1830_run() {
    let Some(shared) = shared_dir() else { return };
    let below = runs_below_the_optimum(&shared, "1830");
    if fixtures(&shared, "1830").len() == 3 {
        assert_eq!(below, BELOW_1830);
    }
}

/// `railnote routes` and `railnote replay --check-runs` on fixture 2809.
mod cli {
    use serde_json::Value;

    use crate::common::{code, railnote, shared_dir, stderr, stdout};

    fn fixture(name: &str) -> Option<String> {
        let path = shared_dir()?.join("fixtures/1836Jr30").join(name);
        path.is_file().then(|| path.display().to_string())
    }

    #[test]
    fn routes_for_the_operating_corporation() {
        let Some(file) = fixture("2809.json") else {
            return;
        };
        // Action 288 is Nord's run #326 (140 recorded); after 287 Nord is operating.
        let out = railnote(&["routes", &file, "--at", "287"]);
        assert_eq!(out.status.code(), Some(0));
        insta::assert_snapshot!(stdout(&out));
        let out = railnote(&["routes", &file, "--at", "287", "--format", "json"]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["corporation"], "Nord");
        assert_eq!(v["total"], 210);
        assert_eq!(v["optimal"], true);
        assert_eq!(v["upper_bound"], 210);
        assert_eq!(v["routes"][0]["stops"].as_array().unwrap().len(), 4);
    }

    /// 18Ireland: hex trains, broad gauge only, narrow-gauge bonuses. DSER's 6H at action
    /// 584 of 161830 (recorded 120 at #806; the reference computes the same 170 for this run).
    #[test]
    fn routes_for_an_18ireland_corporation() {
        let Some(file) = shared_dir()
            .map(|s| s.join("fixtures/18Ireland/161830.json"))
            .filter(|p| p.is_file())
        else {
            return;
        };
        let file = file.display().to_string();
        let out = railnote(&["routes", &file, "--at", "584", "--format", "json"]);
        assert_eq!(out.status.code(), Some(0));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["corporation"], "DSER");
        assert_eq!(v["total"], 170);
        assert_eq!(v["optimal"], true);
        assert_eq!(
            v["routes"][0]["stops"],
            serde_json::json!(["I11-2", "I9-0", "G7-0", "G9-0", "F10-0"])
        );
        let stock = shared_dir()
            .unwrap()
            .join("fixtures/18Ireland/18Ireland_game_end_stock_market.json");
        let out = railnote(&["replay", &stock.display().to_string(), "--check-runs"]);
        assert_eq!(out.status.code(), Some(0));
        insta::assert_snapshot!(stdout(&out));
    }

    /// 1830, from the notation sample: B&O in OR 2.1 (after action 47) runs its two 2 trains
    /// to Washington and along the new track; the sample's own runs are checked against the
    /// optimum with `--check-runs`, and `--at` and `--trace` stop where they are asked to.
    #[test]
    fn routes_and_checks_for_an_1830_game() {
        let sample = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/1830-notation-opening.rn"
        );
        let out = railnote(&["routes", sample, "--at", "47", "--format", "json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["corporation"], "B&O");
        assert_eq!(v["total"], 90);
        assert_eq!(v["optimal"], true);
        assert_eq!(
            v["routes"][0]["stops"],
            serde_json::json!(["I15-0", "J14-0"])
        );
        assert_eq!(
            v["routes"][1]["stops"],
            serde_json::json!(["I15-0", "I19-0"])
        );
        let out = railnote(&["replay", sample, "--check-runs"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        insta::assert_snapshot!(stdout(&out));
        let out = railnote(&["replay", sample, "--at", "36", "--format", "json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        insta::assert_json_snapshot!(v);
        let trace = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("1830-sample.jsonl");
        let out = railnote(&["replay", sample, "--trace", trace.to_str().unwrap()]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let lines = std::fs::read_to_string(&trace).unwrap();
        assert_eq!(lines.lines().count(), 57);
    }

    #[test]
    fn time_limit_is_never_silent() {
        let Some(file) = fixture("2809.json") else {
            return;
        };
        let out = railnote(&["routes", &file, "--at", "287", "--time-limit", "0"]);
        assert_eq!(out.status.code(), Some(0));
        let text = stdout(&out);
        assert!(text.contains("time limit hit"), "{text}");
        let out = railnote(&[
            "routes",
            &file,
            "--at",
            "287",
            "--time-limit",
            "0",
            "--format",
            "json",
        ]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["optimal"], false);
        assert!(v["upper_bound"].as_i64().unwrap() >= 210);
    }

    #[test]
    fn routes_json_format() {
        let Some(file) = fixture("2809.json") else {
            return;
        };
        let out = railnote(&["routes", &file, "--at", "287", "--format", "json"]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        insta::assert_json_snapshot!(v);
    }

    #[test]
    fn routes_for_a_named_corporation() {
        let Some(file) = fixture("2809.json") else {
            return;
        };
        let out = railnote(&[
            "routes", &file, "--at", "287", "--corp", "HSM", "--format", "json",
        ]);
        assert_eq!(out.status.code(), Some(0));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["corporation"], "HSM");
        assert_eq!(v["optimal"], true);
        let out = railnote(&["routes", &file, "--at", "287", "--corp", "XYZ"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("no such corporation"));
        let out = railnote(&["routes", &file, "--at", "9999"]);
        assert_eq!(out.status.code(), Some(2));
    }

    #[test]
    fn check_runs_lists_the_runs_below_the_optimum() {
        let Some(file) = fixture("2851.json") else {
            return;
        };
        let text = railnote(&["replay", &file, "--check-runs"]);
        assert_eq!(text.status.code(), Some(0));
        insta::assert_snapshot!(stdout(&text));
        let out = railnote(&["replay", &file, "--check-runs", "--format", "json"]);
        assert_eq!(out.status.code(), Some(0));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["runs"], 49);
        assert_eq!(v["unproven"], 0);
        let ids: Vec<i64> = v["below"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["action_id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, [256, 327, 348, 368, 408, 428, 448]);
        assert_eq!(v["below"][3]["recorded"], 720);
        assert_eq!(v["below"][3]["best"]["total"], 830);
    }
}

#[test]
fn every_state_has_a_proven_optimum_the_engine_accepts() {
    let Some(shared) = shared_dir() else { return };
    every_state_checked(&shared, "1836Jr30");
}

#[test]
fn every_18ireland_state_has_a_proven_optimum_the_engine_accepts() {
    let Some(shared) = shared_dir() else { return };
    every_state_checked(&shared, "18Ireland");
}

fn every_state_checked(shared: &std::path::Path, title: &str) {
    for path in fixtures(shared, title) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read(&name, &src).unwrap();
        let mut replay = Replay::new(&log).unwrap();
        let mut states = 0;
        loop {
            let game = replay.game();
            // The corporation operating, and at the start of each operating round every
            // floated corporation (`routes --corp`).
            let corps: Vec<CorpId> = match game.acting_entity() {
                Some(Entity::Corporation(c)) => vec![c],
                _ => (0..game.corps.len() as u8)
                    .map(CorpId)
                    .filter(|&c| game.corp(c).floated && !game.corp(c).closed)
                    .collect(),
            };
            for corp in corps {
                let best = best_run(game, corp, SearchLimits::default()).unwrap();
                assert!(best.optimal);
                let specs: Vec<_> = best.routes.iter().map(|r| r.spec.clone()).collect();
                let check = run_revenues(game, corp, &specs).unwrap_or_else(|e| {
                    panic!("{name} after {}: {e} {specs:?}", replay.processed())
                });
                let found: Vec<Money> = best.routes.iter().map(|r| r.revenue).collect();
                assert_eq!(check, found, "{name} after {}", replay.processed());
                assert_eq!(best.total, found.into_iter().sum::<Money>());
                states += 1;
            }
            match replay.step() {
                Some(r) => {
                    r.unwrap();
                }
                None => break,
            }
        }
        assert!(states > 300, "{name}: {states}");
    }
}

/// Three unlimited trains on each fixture's final board (hypothetical, and harder than any
/// recorded run): the optimum with three equal trains (symmetry broken by list order) must
/// equal the optimum with three trains of distinct but irrelevant distances (no symmetry
/// breaking), and the engine must accept it.
#[test]
fn equal_trains_lose_nothing_to_symmetry_breaking() {
    use railnote::engine::map::{ContextRules, TrainSpec};
    use railnote::ids::{TrainId, TrainKind};
    let Some(shared) = shared_dir() else { return };
    let mut totals = Vec::new();
    for path in fixtures(&shared, "1836Jr30") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read(&name, &src).unwrap();
        let game = Replay::new(&log).unwrap().finish().unwrap();
        let trains = |distances: [u32; 3]| -> Vec<TrainSpec> {
            (0..3)
                .map(|copy| TrainSpec {
                    train: TrainId {
                        kind: TrainKind(0),
                        copy,
                    },
                    distance: distances[usize::from(copy)],
                    diesel: false,
                })
                .collect()
        };
        for corp in (0..game.corps.len() as u8).map(CorpId) {
            if !game.corp(corp).floated || game.corp(corp).closed {
                continue;
            }
            let colours = &game.title.phases[game.phase].tiles;
            let rules = ContextRules::new(
                railnote::engine::title::jr30::run_context(),
                &game.board,
                game.title.map,
                colours,
            );
            let run = |t: &[TrainSpec]| {
                game.board
                    .best_run(
                        game.title.map,
                        corp,
                        t,
                        colours,
                        &rules,
                        SearchLimits::default(),
                    )
                    .unwrap()
            };
            let equal = run(&trains([999, 999, 999]));
            let distinct = run(&trains([999, 998, 997]));
            assert!(equal.optimal && distinct.optimal);
            assert_eq!(equal.total, distinct.total, "{name} corp {corp:?}");
            let sum: Money = equal.routes.iter().map(|r| r.revenue).sum();
            assert_eq!(sum, equal.total);
            totals.push(format!(
                "{name} {}: {}",
                game.title.corp(corp).sym,
                equal.total
            ));
        }
    }
    if fixtures(&shared, "1836Jr30").len() == 3 {
        assert!(
            totals.contains(&"2809.json B: 1150".to_string()),
            "{totals:?}"
        );
        assert!(
            totals.contains(&"2851.json B: 1000".to_string()),
            "{totals:?}"
        );
    }
}

mod hand_built {
    use railnote::action::RouteSpec;
    use railnote::engine::map::{
        plain_revenue, Board, Colour, ContextRules, DistanceMode, FoundRoute, RouteErrorKind,
        RunContext, RunRules, SearchLimits, Station, Stop, TrainRoute, TrainSpec,
    };
    use railnote::engine::title::jr30::{map as jr30, port_rule as jr30_port_rule};
    use railnote::ids::{CorpId, HexId, Money, Rotation, TrainId, TrainKind};

    const ALL: &[Colour] = &[Colour::Yellow, Colour::Green, Colour::Brown];
    // Corporation numbers as in the title's list: B, GCL, Nord, NBDS, HSM, NFL.
    const B: CorpId = CorpId(0);
    const HSM: CorpId = CorpId(4);

    fn hex(s: &str) -> HexId {
        s.parse().unwrap()
    }

    /// HSM's home token on Amsterdam (D6: city 40, exits towards E5 and E7) and `tiles`
    /// (hex, tile id, rotation) laid.
    fn board(tiles: &[(&str, &str, u8)]) -> Board {
        let m = jr30();
        let mut b = Board::new(m, &[(HSM, hex("D6"), None)]);
        b.place_home_token(m, HSM, hex("D6")).unwrap();
        for &(h, t, r) in tiles {
            b.lay(
                m,
                m.hex_index(hex(h)).unwrap(),
                m.parse_tile_id(t).unwrap(),
                Rotation::new(r).unwrap(),
            );
        }
        b
    }

    fn train(distance: u32, copy: u16) -> TrainSpec {
        TrainSpec {
            train: TrainId {
                kind: TrainKind(distance as u8 - 2),
                copy,
            },
            distance,
            diesel: false,
        }
    }

    /// The best run by 1836Jr30's rules (see [`solve_in`]).
    fn solve(b: &Board, corp: CorpId, trains: &[TrainSpec]) -> (Money, Vec<Vec<String>>) {
        solve_in(
            b,
            corp,
            railnote::engine::title::jr30::run_context(),
            trains,
        )
    }

    #[test]
    fn single_route() {
        // Utrecht (E7) with a 57 towards Amsterdam: the first run of fixture 2809's HSM.
        let b = board(&[("E7", "57-0", 2)]);
        let (total, stops) = solve(&b, HSM, &[train(2, 0)]);
        assert_eq!(total, Money(60));
        assert_eq!(stops, vec![vec!["D6-0", "E7-0"]]);
    }

    #[test]
    fn two_short_routes_beat_one_long() {
        // E5 (OO 59, city 0 towards D6) - D6 - E7 (57): a 3-train alone takes all three stops
        // (100), but then the 2-train has no track left; 80 + 60 is better.
        let b = board(&[("E7", "57-0", 2), ("E5", "59-0", 3)]);
        let (total, stops) = solve(&b, HSM, &[train(3, 0), train(2, 0)]);
        assert_eq!(total, Money(140));
        assert_eq!(stops.len(), 2);
        let (total, _) = solve(&b, HSM, &[train(3, 0)]);
        assert_eq!(total, Money(100));
    }

    #[test]
    fn blocked_city_ends_the_route() {
        // D6 - E7 (57) - F8 (curve) - F10 (town 58).
        let tiles = [("E7", "57-0", 2), ("F8", "8-0", 2), ("F10", "58-0", 1)];
        let b = board(&tiles);
        assert_eq!(solve(&b, HSM, &[train(3, 0)]).0, Money(70));
        // B's token fills Utrecht's only slot: HSM may end there but not pass through.
        let mut b = board(&tiles);
        let m = jr30();
        let e7 = m.hex_index(hex("E7")).unwrap();
        b.place_token(m, B, Station { hex: e7, city: 0 }).unwrap();
        let (total, stops) = solve(&b, HSM, &[train(3, 0)]);
        assert_eq!(total, Money(60));
        assert_eq!(stops, vec![vec!["D6-0", "E7-0"]]);
    }

    #[test]
    fn both_cities_of_a_two_city_hex() {
        // E5 city 0 - D6 - E7 (15, 30) - F6 - E5 city 1: a 4-train visits both OO cities.
        let tiles = [("E5", "59-0", 3), ("E7", "15-0", 0), ("F6", "7-0", 2)];
        let b = board(&tiles);
        let (total, stops) = solve(&b, HSM, &[train(4, 0)]);
        assert_eq!(total, Money(150));
        assert_eq!(stops[0].len(), 4);
        assert!(stops[0].contains(&"E5-0".to_string()) && stops[0].contains(&"E5-1".to_string()));
        assert_eq!(solve(&b, HSM, &[train(3, 0)]).0, Money(110));
    }

    #[test]
    fn port_needs_three_stops_and_counts_stations() {
        // E3 Harwich (port, 30 in brown) - E5 city 0 (65: exits to E3 and D6, 50) - D6.
        let b = board(&[("E5", "65-0", 3)]);
        // Two stops cannot include the port.
        let (total, stops) = solve(&b, HSM, &[train(2, 0)]);
        assert_eq!(total, Money(90));
        assert_eq!(stops, vec![vec!["D6-0", "E5-0"]]);
        // Port value times one station: 30 + 50 + 40.
        assert_eq!(solve(&b, HSM, &[train(3, 0)]).0, Money(120));
        // A second station on the route doubles the port: 60 + 50 + 40.
        let mut b = b;
        let m = jr30();
        let e5 = m.hex_index(hex("E5")).unwrap();
        b.place_token(m, HSM, Station { hex: e5, city: 0 }).unwrap();
        assert_eq!(solve(&b, HSM, &[train(3, 0)]).0, Money(150));
    }

    /// The best run of `corp` by the rules of `ctx`, checked to be proven, and accepted by the
    /// engine's own route check with the same revenues; returns the total and each route's
    /// stops as `hex-part` strings.
    fn solve_in(
        b: &Board,
        corp: CorpId,
        ctx: RunContext<'_>,
        trains: &[TrainSpec],
    ) -> (Money, Vec<Vec<String>>) {
        let m = jr30();
        let rules = ContextRules::new(ctx, b, m, ALL);
        let best = b
            .best_run(m, corp, trains, ALL, &rules, SearchLimits::default())
            .unwrap();
        assert!(best.optimal);
        assert_eq!(best.upper_bound, best.total);
        let specs: Vec<RouteSpec> = best.routes.iter().map(|r| r.spec.clone()).collect();
        let routes: Vec<TrainRoute<'_>> = specs
            .iter()
            .map(|s| TrainRoute {
                spec: s,
                distance: trains.iter().find(|t| t.train == s.train).unwrap().distance,
                diesel: false,
            })
            .collect();
        let checked = b.compute_run_with(m, corp, &routes, ALL, &ctx).unwrap();
        assert_eq!(
            checked.iter().map(|r| r.revenue).collect::<Vec<_>>(),
            best.routes.iter().map(|r| r.revenue).collect::<Vec<_>>()
        );
        let stops = best
            .routes
            .iter()
            .map(|r| r.stops.iter().map(|(h, p)| format!("{h}-{p}")).collect())
            .collect();
        (best.total, stops)
    }

    /// 18Ireland's run rules (hex-edge distance, a private's hex bonus) on 1836Jr30 track.
    fn hex_edges(hex_bonuses: &[(HexId, Money)]) -> RunContext<'_> {
        RunContext {
            distance: DistanceMode::HexEdges,
            hook: plain_revenue,
            narrow_bonus: false,
            hex_bonuses,
            shannon: None,
        }
    }

    #[test]
    fn hex_trains_count_edges_not_stops() {
        // D6 (40) - E7 (57, 20) - F8 (curve) - F10 (town 58, 10): three stops over three edges.
        let tiles = [("E7", "57-0", 2), ("F8", "8-0", 2), ("F10", "58-0", 1)];
        let b = board(&tiles);
        // A 3-stop train reaches the town; a 2-edge train does not (F8 has no stop but costs
        // an edge), a 3-edge train does.
        assert_eq!(solve(&b, HSM, &[train(3, 0)]).0, Money(70));
        let (total, stops) = solve_in(&b, HSM, hex_edges(&[]), &[train(2, 0)]);
        assert_eq!(total, Money(60));
        assert_eq!(stops, vec![vec!["D6-0", "E7-0"]]);
        assert_eq!(
            solve_in(&b, HSM, hex_edges(&[]), &[train(3, 0)]).0,
            Money(70)
        );
        // E5 (59) - D6 - E7: three stops over two edges fit a 2-edge train.
        let b = board(&[("E7", "57-0", 2), ("E5", "59-0", 3)]);
        let (total, stops) = solve_in(&b, HSM, hex_edges(&[]), &[train(2, 0)]);
        assert_eq!(total, Money(100));
        assert_eq!(stops[0].len(), 3);
    }

    #[test]
    fn a_hex_bonus_counts_once_per_route_and_can_decide_the_route() {
        // E5 (59, 40) - D6 (40) - E7 (57, 20): a 1-edge train takes D6-E5 (80) unless a
        // marker on E7 makes D6-E7 worth 60 + 30.
        let b = board(&[("E7", "57-0", 2), ("E5", "59-0", 3)]);
        let (total, stops) = solve_in(&b, HSM, hex_edges(&[]), &[train(2, 0)]);
        assert_eq!(total, Money(100));
        assert_eq!(stops[0].len(), 3);
        let one_edge = TrainSpec {
            train: TrainId {
                kind: TrainKind(0),
                copy: 0,
            },
            distance: 1,
            diesel: false,
        };
        let (total, stops) = solve_in(&b, HSM, hex_edges(&[]), &[one_edge]);
        assert_eq!(
            (total, stops),
            (
                Money(80),
                vec![vec!["D6-0".to_string(), "E5-0".to_string()]]
            )
        );
        let bonus = [(hex("E7"), Money(30))];
        let (total, stops) = solve_in(&b, HSM, hex_edges(&bonus), &[one_edge]);
        assert_eq!(
            (total, stops),
            (
                Money(90),
                vec![vec!["D6-0".to_string(), "E7-0".to_string()]]
            )
        );
        // Two trains: each route may earn the bonus only if it stops on E7; it is not doubled.
        let (total, _) = solve_in(&b, HSM, hex_edges(&bonus), &[one_edge, train(2, 0)]);
        assert_eq!(total, Money(80 + 90));
    }

    #[test]
    fn spent_time_limit_reports_a_bound() {
        let b = board(&[("E7", "57-0", 2), ("E5", "59-0", 3)]);
        let best = b
            .best_run(
                jr30(),
                HSM,
                &[train(3, 0), train(2, 0)],
                ALL,
                &ContextRules::new(
                    railnote::engine::title::jr30::run_context(),
                    &b,
                    jr30(),
                    ALL,
                ),
                SearchLimits {
                    time: Some(std::time::Duration::ZERO),
                },
            )
            .unwrap();
        assert!(!best.optimal);
        assert!(best.total <= Money(140));
        assert!(best.upper_bound >= Money(140));
    }

    #[test]
    fn ties_are_broken_the_same_way_every_time() {
        let tiles = [("E5", "59-0", 3), ("E7", "15-0", 0), ("F6", "7-0", 2)];
        let b = board(&tiles);
        // Two 110 routes for a 3-train; the answer must not depend on anything but the input.
        let first = solve(&b, HSM, &[train(3, 0)]);
        for _ in 0..5 {
            assert_eq!(solve(&board(&tiles), HSM, &[train(3, 0)]), first);
        }
    }

    /// A bonus on the whole run: 50 when some route has three stops or more.
    struct LongRouteBonus;

    impl RunRules for LongRouteBonus {
        fn route_revenue(&self, stops: &[Stop<'_>], sum: Money) -> Result<Money, RouteErrorKind> {
            jr30_port_rule(stops, sum)
        }

        fn run_bonus(&self, routes: &[FoundRoute]) -> Money {
            Money(if routes.iter().any(|r| r.stops.len() >= 3) {
                50
            } else {
                0
            })
        }

        fn max_run_bonus(&self) -> Money {
            Money(50)
        }
    }

    #[test]
    fn run_bonus_is_scored_on_the_whole_set() {
        // The trap position: 80 + 60 without the bonus, but 100 + 50 with it.
        let b = board(&[("E7", "57-0", 2), ("E5", "59-0", 3)]);
        let best = b
            .best_run(
                jr30(),
                HSM,
                &[train(3, 0), train(2, 0)],
                ALL,
                &LongRouteBonus,
                SearchLimits::default(),
            )
            .unwrap();
        assert!(best.optimal);
        assert_eq!(best.total, Money(150));
        assert_eq!(best.routes.len(), 1);
        assert_eq!(best.routes[0].revenue, Money(100));
    }

    #[test]
    fn no_token_no_route() {
        let b = board(&[("E7", "57-0", 2)]);
        let (total, stops) = solve(&b, B, &[train(2, 0)]);
        assert_eq!(total, Money(0));
        assert!(stops.is_empty());
    }
}
