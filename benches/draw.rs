//! Drawing budgets: the map SVG of a state in-process (≤ 5 ms for any state), and the viewer of
//! the largest fixture as a whole process (≤ 300 ms). Prints the slowest map state of each
//! fixture (best of five runs per state), then lets criterion time the map at that state and
//! `railnote view` on the largest fixture. Fixtures come from `$RAILNOTE_SHARED/fixtures`
//! (default `../shared`); skipped when absent.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod fixture_files;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fixture_files::fixtures;
use railnote::draw::map::{map_svg, MapOptions};
use railnote::engine::Game;
use railnote::replay::Replay;

const TITLES: [&str; 2] = ["1836Jr30", "18Ireland"];

/// Every state of a fixture, from before the first action to the end.
fn states(path: &Path) -> Vec<Game> {
    let src = std::fs::read_to_string(path).expect("fixture reads");
    let log = railnote::log::read(&path.display().to_string(), &src).expect("fixture parses");
    let mut replay = Replay::new(&log).expect("fixture sets up");
    let mut out = vec![replay.game().clone()];
    while let Some(step) = replay.step() {
        step.expect("fixture replays");
        out.push(replay.game().clone());
    }
    out
}

fn draw(c: &mut Criterion) {
    let options = MapOptions::default();
    let mut largest: Option<(u64, PathBuf)> = None;
    for title in TITLES {
        for path in fixtures(title) {
            let size = std::fs::metadata(&path).map_or(0, |m| m.len());
            if largest.as_ref().is_none_or(|(s, _)| size > *s) {
                largest = Some((size, path.clone()));
            }
            let games = states(&path);
            // The best of five runs per state, so that another process taking the core for a
            // moment does not make a state look slow.
            let mut slowest = (Duration::ZERO, 0);
            for (i, game) in games.iter().enumerate() {
                let took = (0..5)
                    .map(|_| {
                        let started = Instant::now();
                        black_box(map_svg(game, &options));
                        started.elapsed()
                    })
                    .min()
                    .unwrap_or_default();
                if took > slowest.0 {
                    slowest = (took, i);
                }
            }
            let name = path.file_stem().unwrap_or_default().to_string_lossy();
            eprintln!(
                "{title}/{name}: {} states, slowest map {:?} (after {} actions)",
                games.len(),
                slowest.0,
                slowest.1
            );
            let slow = &games[slowest.1];
            c.bench_function(&format!("map_svg/{title}/{name}/slowest"), |b| {
                b.iter(|| map_svg(black_box(slow), &options))
            });
        }
    }
    if let Some((_, path)) = largest {
        let out = std::env::temp_dir().join("railnote-bench-view.html");
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        let mut group = c.benchmark_group("view_process");
        group.sample_size(20);
        group.bench_function(format!("{name}"), |b| {
            b.iter(|| {
                let status = Command::new(env!("CARGO_BIN_EXE_railnote"))
                    .arg("view")
                    .arg(&path)
                    .arg("-o")
                    .arg(&out)
                    .status()
                    .expect("railnote runs");
                assert!(status.success());
            })
        });
        group.finish();
    }
}

criterion_group!(benches, draw);
criterion_main!(benches);
