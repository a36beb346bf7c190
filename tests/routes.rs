//! The optimal route finder: every recorded run of every 1836Jr30 fixture against the optimum
//! at the same state, the optimum's legality for the engine's own check, and hand-built
//! positions with known optima.

use std::time::Instant;

use railnote::action::Action;
use railnote::engine::map::SearchLimits;
use railnote::ids::Money;
use railnote::log;
use railnote::output::{best_run, run_revenues};
use railnote::replay::Replay;

use crate::common::{fixtures, shared_dir};

#[test]
fn optimum_covers_every_recorded_run() {
    let Some(shared) = shared_dir() else { return };
    for path in fixtures(&shared, "1836Jr30") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read(&name, &src).unwrap();
        let mut replay = Replay::new(&log).unwrap();
        let mut runs = 0;
        let mut slowest = 0.0f64;
        while replay.processed() < log.actions.len() {
            let logged = &log.actions[replay.processed()];
            if let Action::RunRoutes { entity, routes } = &logged.action {
                let railnote::action::Entity::Corporation(corp) = *entity else {
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
                if best.total > recorded {
                    eprintln!(
                        "{name} #{}: recorded {recorded} optimal {}",
                        logged.action_id, best.total
                    );
                }
                runs += 1;
            }
            replay.step().unwrap().unwrap();
        }
        eprintln!("{name}: {runs} runs, slowest {:.3} ms", slowest * 1000.0);
    }
}

mod hand_built {
    use railnote::action::RouteSpec;
    use railnote::engine::map::{
        jr30, jr30_port_rule, BestRun, Board, Colour, HookRules, SearchLimits, Station, TrainRoute,
        TrainSpec,
    };
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
        }
    }

    /// The best run, checked to be accepted by the engine's own route check with the same
    /// revenues; returns the total and each route's stops as `hex-part` strings.
    fn solve(b: &Board, corp: CorpId, trains: &[TrainSpec]) -> (Money, Vec<Vec<String>>) {
        let m = jr30();
        let best: BestRun = b
            .best_run(
                m,
                corp,
                trains,
                ALL,
                &HookRules(jr30_port_rule),
                SearchLimits::default(),
            )
            .unwrap();
        assert!(best.optimal);
        assert_eq!(best.upper_bound, best.total);
        let specs: Vec<RouteSpec> = best.routes.iter().map(|r| r.spec.clone()).collect();
        let routes: Vec<TrainRoute<'_>> = specs
            .iter()
            .map(|s| TrainRoute {
                spec: s,
                distance: trains.iter().find(|t| t.train == s.train).unwrap().distance,
            })
            .collect();
        let checked = b
            .compute_run(m, corp, &routes, ALL, jr30_port_rule)
            .unwrap();
        let revenues: Vec<Money> = best.routes.iter().map(|r| r.revenue).collect();
        assert_eq!(
            checked.iter().map(|r| r.revenue).collect::<Vec<_>>(),
            revenues
        );
        let stops = best
            .routes
            .iter()
            .map(|r| r.stops.iter().map(|(h, p)| format!("{h}-{p}")).collect())
            .collect();
        (best.total, stops)
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
    fn no_token_no_route() {
        let b = board(&[("E7", "57-0", 2)]);
        let (total, stops) = solve(&b, B, &[train(2, 0)]);
        assert_eq!(total, Money(0));
        assert!(stops.is_empty());
    }
}
