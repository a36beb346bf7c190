//! The optimal route finder at every run position of every 1836Jr30 and 18Ireland fixture (the state before
//! each recorded `run_routes`, for the running corporation and its trains). Prints the slowest
//! position per fixture, then lets criterion time all positions of a fixture together.
//! Fixtures come from `$RAILNOTE_SHARED/fixtures` (default `../shared`); skipped when absent.

use std::time::{Duration, Instant};

mod fixture_files;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fixture_files::fixtures;
use railnote::action::{Action, Entity};
use railnote::engine::map::SearchLimits;
use railnote::engine::Game;
use railnote::ids::CorpId;
use railnote::output::best_run;
use railnote::replay::Replay;

const TITLES: [&str; 2] = ["1836Jr30", "18Ireland"];

/// The state before every recorded run, with the running corporation and the action id.
fn run_positions(name: &str, src: &str) -> Vec<(Game, CorpId, i64)> {
    let log = railnote::log::read(name, src).expect("fixture reads");
    let mut replay = Replay::new(&log).expect("fixture sets up");
    let mut out = Vec::new();
    while let Some(logged) = log.actions.get(replay.processed()) {
        if let Action::RunRoutes {
            entity: Entity::Corporation(corp),
            ..
        } = &logged.action
        {
            out.push((replay.game().clone(), *corp, logged.action_id));
        }
        match replay.step() {
            Some(Ok(_)) => {}
            _ => break,
        }
    }
    out
}

/// Every state of the log, with every floated corporation (what `routes --at N --corp SYM`
/// can be asked): the number of searches, their total and the slowest, in one pass.
fn every_state(name: &str, src: &str) -> (usize, Duration, (Duration, usize, String, usize)) {
    let log = railnote::log::read(name, src).expect("fixture reads");
    let mut replay = Replay::new(&log).expect("fixture sets up");
    let (mut count, mut total) = (0, Duration::ZERO);
    let mut slowest = (Duration::ZERO, 0, String::new(), 0);
    loop {
        let game = replay.game();
        for corp in (0..game.corps.len() as u8).map(CorpId) {
            if !game.corp(corp).floated || game.corp(corp).closed {
                continue;
            }
            // Best of three, to keep scheduler noise out.
            let mut t = Duration::MAX;
            let mut routes = 0;
            for _ in 0..3 {
                let start = Instant::now();
                routes = black_box(best_run(game, corp, SearchLimits::default()).unwrap())
                    .routes_considered;
                t = t.min(start.elapsed());
            }
            count += 1;
            total += t;
            if t > slowest.0 {
                slowest = (
                    t,
                    replay.processed(),
                    game.title.corp(corp).sym.clone(),
                    routes,
                );
            }
        }
        match replay.step() {
            Some(Ok(_)) => {}
            _ => break,
        }
    }
    (count, total, slowest)
}

fn routes_at_run_positions(c: &mut Criterion) {
    for title in TITLES {
        routes_of_title(c, title);
    }
    stress();
}

fn routes_of_title(c: &mut Criterion, title: &str) {
    let mut grand = Duration::ZERO;
    let mut count = 0;
    for path in fixtures(title) {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let positions = run_positions(&name, &src);
        let mut slowest = (Duration::ZERO, 0);
        let mut total = Duration::ZERO;
        for (game, corp, id) in &positions {
            // Best of five, to keep scheduler noise out of the per-position figure.
            let t = (0..5)
                .map(|_| {
                    let start = Instant::now();
                    black_box(best_run(game, *corp, SearchLimits::default()).unwrap());
                    start.elapsed()
                })
                .min()
                .unwrap();
            total += t;
            if t > slowest.0 {
                slowest = (t, *id);
            }
        }
        let (n, all, worst) = every_state(&name, &src);
        eprintln!(
            "routes/{name}: every state x floated corporation: {n} searches, total {:.3} ms, \
             slowest {:.3} ms (--at {} --corp {}, {} routes)",
            all.as_secs_f64() * 1e3,
            worst.0.as_secs_f64() * 1e3,
            worst.1,
            worst.2,
            worst.3
        );
        grand += total;
        count += positions.len();
        eprintln!(
            "routes/{name}: {} run positions, total {:.3} ms, slowest {:.3} ms (action #{})",
            positions.len(),
            total.as_secs_f64() * 1e3,
            slowest.0.as_secs_f64() * 1e3,
            slowest.1
        );
        c.bench_function(&format!("routes/{name}"), |b| {
            b.iter(|| {
                for (game, corp, _) in &positions {
                    black_box(best_run(game, *corp, SearchLimits::default()).unwrap());
                }
            })
        });
    }
    eprintln!(
        "routes/{title}: {count} run positions in all, total {:.3} ms",
        grand.as_secs_f64() * 1e3
    );
}

criterion_group!(benches, routes_at_run_positions);
criterion_main!(benches);

/// A harder, hypothetical case: the final board of each fixture, every floated corporation
/// with three D trains (unlimited distance), so that every route of the network is a candidate.
fn stress() {
    use railnote::engine::map::TrainSpec;
    use railnote::ids::{TrainId, TrainKind};
    for path in TITLES.iter().flat_map(|t| fixtures(t)) {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let log = railnote::log::read(&name, &src).expect("fixture reads");
        let Ok(game) = Replay::new(&log).expect("fixture sets up").finish() else {
            continue;
        };
        let trains: Vec<TrainSpec> = (0..3)
            .map(|copy| TrainSpec {
                train: TrainId {
                    kind: TrainKind(0),
                    copy,
                },
                distance: u32::from(game.title.trains.last().map_or(99, |t| t.distance)),
                diesel: false,
            })
            .collect();
        for corp in (0..game.corps.len() as u8).map(CorpId) {
            if !game.corp(corp).floated || game.corp(corp).closed {
                continue;
            }
            let start = Instant::now();
            let best = game
                .best_run(corp, &trains, SearchLimits::default())
                .unwrap();
            eprintln!(
                "routes/{name}/stress: {} with 3 D trains: {} ({} routes) in {:.3} ms",
                game.title.corp(corp).sym,
                best.total,
                best.routes_considered,
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
