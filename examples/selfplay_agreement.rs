//! The long legal-move agreement run in release (the debug test `selfplay_agrees_many` takes
//! too long for a thousand games): `cargo run --release --example selfplay_agreement -- N
//! [FIRST_SEED] [TITLE]`. Plays N games of TITLE (default 1836Jr30; even seeds random, odd
//! seeds greedy, from the title's fewest players up, three player counts), checks the
//! agreement at every state and prints the figures; exits 1 on any problem.

use std::time::Instant;

#[path = "../tests/legal/agreement.rs"]
mod agreement;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let first: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let title = args.next().unwrap_or_else(|| "1836Jr30".to_string());
    let start = Instant::now();
    let found = agreement::selfplay_agreement(&title, first..first + games);
    let (actions, states, unfinished, problems) = (
        found.actions,
        found.states,
        found.unfinished,
        found.problems,
    );
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
