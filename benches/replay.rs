//! Import + replay of every 1836Jr30 and 18Ireland fixture (`<shared>/fixtures/<title>/*.json`; the shared
//! directory is `$RAILNOTE_SHARED` or `../shared` beside the package). Skips when absent.

mod fixture_files;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fixture_files::fixtures;

fn replay_fixtures(c: &mut Criterion) {
    let mut files: Vec<_> = ["1836Jr30", "18Ireland"]
        .iter()
        .flat_map(|t| fixtures(t))
        .collect();
    files.sort();
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        c.bench_function(&format!("import/{name}"), |b| {
            b.iter(|| railnote::log::read(&name, black_box(&src)).map(|log| log.actions.len()))
        });
        if let Ok(log) = railnote::log::read(&name, &src) {
            c.bench_function(&format!("replay/{name}"), |b| {
                b.iter(|| {
                    let replay = railnote::replay::Replay::new(black_box(&log)).ok()?;
                    Some(replay.finish().is_ok())
                })
            });
        }
        // The same game written in the notation: read + resolve + replay.
        if let Ok(log) = railnote::log::read(&name, &src) {
            if let Ok(doc) = railnote::convert::to_notation(&log) {
                let text: std::sync::Arc<str> = railnote::notation::write(&doc).into();
                c.bench_function(&format!("notation-read+replay/{name}"), |b| {
                    b.iter(|| {
                        let doc = railnote::notation::parse("bench.rn", black_box(&text)).ok()?;
                        let played = railnote::replay::notation::play(
                            "bench.rn",
                            &text,
                            &doc.games[0],
                            railnote::replay::notation::PlayOptions::default(),
                        )
                        .ok()?;
                        Some(played.errors.is_empty())
                    })
                });
            }
        }
        c.bench_function(&format!("import+replay/{name}"), |b| {
            b.iter(|| {
                let log = railnote::log::read(&name, black_box(&src)).ok()?;
                let replay = railnote::replay::Replay::new(&log).ok()?;
                Some(replay.finish().is_ok())
            })
        });
    }
}

criterion_group!(benches, replay_fixtures);
criterion_main!(benches);
