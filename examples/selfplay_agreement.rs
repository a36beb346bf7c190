//! The long legal-move agreement run in release (the debug test `selfplay_agrees_many` takes
//! too long for a thousand games): `cargo run --release --example selfplay_agreement -- N
//! [FIRST_SEED] [TITLE]`. Plays N games of TITLE (default 1836Jr30; even seeds random, odd
//! seeds greedy, from the title's fewest players up, three player counts), checks the
//! agreement at every state and prints the figures; exits 1 on any problem.

use std::time::Instant;

use railnote::engine::Game;
use railnote::selfplay::{self, Policy};

#[path = "../tests/legal/agreement.rs"]
mod agreement;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let first: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let title = args.next().unwrap_or_else(|| "1836Jr30".to_string());
    let fewest = railnote::engine::title::Title::by_name(&title)
        .unwrap_or_else(|| panic!("unknown title {title}"))
        .players
        .min;
    let start = Instant::now();
    let (mut states, mut unfinished, mut actions) = (0, 0, 0);
    let mut problems = Vec::new();
    for seed in first..first + games {
        let policy = if seed % 2 == 0 {
            Policy::Random
        } else {
            Policy::Greedy
        };
        let players = usize::from(fewest) + (seed % 3) as usize;
        let played = selfplay::play(&title, players, seed, policy).expect("valid setup");
        if !played.game.finished {
            unfinished += 1;
            problems.push(format!("seed {seed}: did not finish"));
        }
        actions += played.actions.len();
        let game = Game::new(&played.setup).expect("valid setup");
        let (s, p) = agreement::check_game(game, &played.actions, seed);
        states += s;
        problems.extend(p.into_iter().map(|p| format!("seed {seed}: {p}")));
    }
    println!(
        "{title}: {games} games (seeds {first}..{}), {actions} actions, {states} states checked, \
         {unfinished} unfinished, {} problems, {:.1}s",
        first + games,
        problems.len(),
        start.elapsed().as_secs_f64()
    );
    for p in problems.iter().take(30) {
        println!("{p}");
    }
    if !problems.is_empty() {
        std::process::exit(1);
    }
}
