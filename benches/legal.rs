//! Legal-move generation at every state of a full game, and self-play throughput.
//! `cargo bench --bench legal`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use railnote::engine::Game;
use railnote::selfplay::{play, Policy};

fn legal_every_state(c: &mut Criterion) {
    // A complete greedy game (deterministic), then the legal actions at each of its states.
    let played = play("1836Jr30", 3, 7, Policy::Greedy).expect("valid setup");
    let mut states = vec![Game::new(&played.setup).expect("valid setup")];
    for a in &played.actions {
        let mut next = states.last().expect("non-empty").clone();
        next.process(a).expect("self-play is legal");
        states.push(next);
    }
    c.bench_function(
        &format!("legal_actions/greedy-seed7 ({} states)", states.len()),
        |b| {
            b.iter(|| {
                states
                    .iter()
                    .map(|g| black_box(g).legal_actions().len())
                    .sum::<usize>()
            })
        },
    );
}

fn selfplay_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay");
    group.sample_size(10);
    for (name, policy) in [("random", Policy::Random), ("greedy", Policy::Greedy)] {
        group.bench_function(format!("{name}/10 games"), |b| {
            b.iter(|| {
                (0..10u64)
                    .map(|seed| play("1836Jr30", 3, seed, policy).map_or(0, |p| p.actions.len()))
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, legal_every_state, selfplay_games);
criterion_main!(benches);
