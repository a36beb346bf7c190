//! Games and texts for the unit tests of the notation replay.

use std::sync::Arc;

use super::walk::{play, PlayOptions, Played};
use crate::engine::{Game, GameOptions, GameSetup};
use crate::notation::{self, GameText};

/// The tags of a three-player 1836Jr30 game.
pub(super) const JR30: &str = "[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n";

/// The private auction and first stock round of `samples/1836jr30-notation-opening.rn`.
pub(super) const OPENING: &str = "PR
Ann: bid CFLV 225
Bob: bid ACC 20
Cid: bid CFL 165
Ann: bid E-SF 40
Bob: pass
Cid: bid CdH 70
Ann: pass
Bob: bid GCB 110
Ann: par Nord 82
SR 1
Cid: par GCL 71
Ann: buy Nord
Bob: par HSM 76
Cid: buy GCL
= Ann 253 Bob 318
";

/// A three-player 1836Jr30 game (Ann, Bob, Cid) at its start.
pub(super) fn jr30() -> Game {
    Game::new(&GameSetup {
        title: "1836Jr30".into(),
        players: vec!["Ann".into(), "Bob".into(), "Cid".into()],
        seed: None,
        options: GameOptions::default(),
    })
    .expect("a valid setup")
}

/// The one game of a notation text.
pub(super) fn game_text(src: &str) -> GameText {
    notation::parse("test.rn", src)
        .expect("the text parses")
        .games
        .remove(0)
}

/// A notation text replayed.
pub(super) fn played(src: &str, keep_going: bool) -> Played {
    let text = game_text(src);
    play(
        "test.rn",
        &Arc::from(src),
        &text,
        PlayOptions {
            keep_going,
            strict_rules: false,
        },
    )
    .expect("the game sets up")
}

/// The codes and lines of a replay's reports.
pub(super) fn reports(played: &Played, src: &str) -> Vec<(String, usize)> {
    played
        .errors
        .iter()
        .map(|e| {
            let line = src[..e.span.offset].matches('\n').count() + 1;
            (e.code.to_string(), line)
        })
        .collect()
}
