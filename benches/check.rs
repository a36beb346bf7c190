//! Whole-process speed of the command line (issue 15), as a user sees it:
//!
//! - `check/batch`: `railnote check DIR` over a few hundred copies of the 1830, 1836Jr30 and
//!   18Ireland fixtures (every copy a file of its own); the throughput line is in replayed
//!   actions per second. Also with `--jobs 1`.
//! - `replay/2851`: `railnote replay` of the 462-action 1836Jr30 fixture 2851, and
//!   `railnote --version` for the cost of starting the process at all.
//!
//! Fixtures come from `$RAILNOTE_SHARED/fixtures` (default `../shared`); skipped when absent.
//! `COPIES` (default 30) sets the copies of each fixture. `RAILNOTE_BIN` times another build of
//! the binary instead of this one's, e.g. the static one (`cargo build-static --release`, see
//! the README's Speed section).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod fixture_files;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fixture_files::{fixtures, shared};

const TITLES: [&str; 3] = ["1830", "1836Jr30", "18Ireland"];

/// A directory of `copies` copies of every fixture, made once per run.
fn archive(copies: usize) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-archive-{copies}"));
    let _ = std::fs::remove_dir_all(&dir);
    let mut any = false;
    for title in TITLES {
        for (k, file) in fixtures(title).iter().enumerate() {
            any = true;
            let sub = dir.join(title).join(format!("{k}"));
            std::fs::create_dir_all(&sub).unwrap();
            let text = std::fs::read(file).unwrap();
            for i in 0..copies {
                std::fs::write(sub.join(format!("{i:04}.json")), &text).unwrap();
            }
        }
    }
    if !any {
        eprintln!(
            "skipped: no fixtures under {} (set RAILNOTE_SHARED)",
            shared().display()
        );
        return None;
    }
    Some(dir)
}

/// The binary timed: `RAILNOTE_BIN`, or the one this benchmark was built with.
fn binary() -> PathBuf {
    std::env::var_os("RAILNOTE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_railnote")))
}

fn railnote(args: &[&str]) -> std::process::Output {
    let out = Command::new(binary())
        .args(args)
        .output()
        .expect("railnote runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn check_batch(c: &mut Criterion) {
    eprintln!("timing {}", binary().display());
    let copies = std::env::var("COPIES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(30);
    let Some(dir) = archive(copies) else {
        return;
    };
    let dir = dir.to_str().unwrap();
    // The summary counts the actions replayed: the throughput's unit.
    let out = railnote(&["check", "--format", "json", dir]);
    let summary: serde_json::Value = serde_json::from_slice(
        out.stdout
            .split(|b| *b == b'\n')
            .rfind(|l| !l.is_empty())
            .unwrap(),
    )
    .unwrap();
    let actions = summary["data"]["actions"].as_u64().unwrap();
    let files = summary["data"]["files"].as_u64().unwrap();
    let mut group = c.benchmark_group("check");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(actions));
    group.bench_function(format!("batch/{files} files, {actions} actions"), |b| {
        b.iter(|| railnote(&["check", dir]))
    });
    group.bench_function(
        format!("batch --jobs 1/{files} files, {actions} actions"),
        |b| b.iter(|| railnote(&["check", "--jobs", "1", dir])),
    );
    group.finish();
}

fn replay_one(c: &mut Criterion) {
    let game = shared().join("fixtures/1836Jr30/2851.json");
    if !game.is_file() {
        eprintln!("skipped: {} not found", game.display());
        return;
    }
    let game = game.to_str().unwrap();
    let mut group = c.benchmark_group("process");
    group.sample_size(50);
    group.bench_function("replay/2851 (462 actions)", |b| {
        b.iter(|| railnote(&["replay", game]))
    });
    group.bench_function("check/2851 (462 actions)", |b| {
        b.iter(|| railnote(&["check", game]))
    });
    group.bench_function("version", |b| b.iter(|| railnote(&["--version"])));
    group.finish();
}

criterion_group!(benches, check_batch, replay_one);
criterion_main!(benches);
