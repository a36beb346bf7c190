//! Import + replay of every 1836Jr30 and 18Ireland fixture (`<shared>/fixtures/<title>/*.json`; the shared
//! directory is `$RAILNOTE_SHARED` or `../shared` beside the package). Skips when absent.

use std::path::{Path, PathBuf};

use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn fixtures() -> Vec<PathBuf> {
    let shared = std::env::var_os("RAILNOTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let root = std::env::var_os("RAILNOTE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared.join("fixtures"));
    let mut files: Vec<PathBuf> = Vec::new();
    for title in ["1836Jr30", "18Ireland"] {
        let dir = root.join(title);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipped: {} not found (set RAILNOTE_SHARED)", dir.display());
            continue;
        };
        files.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "json")),
        );
    }
    files.sort();
    files
}

fn replay_fixtures(c: &mut Criterion) {
    for path in fixtures() {
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
