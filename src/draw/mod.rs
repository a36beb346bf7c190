//! Pictures of a game: the map at any state ([`map`]), share-price and player-value charts
//! ([`chart`]), a written transcript ([`transcript`]) and a self-contained HTML viewer
//! ([`viewer`]); PNG output through [`png`].
//!
//! Drawing reads the engine's state and the title's data (map, tiles, colours) only; no code
//! here names a title, so a new title draws once its data is there. SVG and HTML are written
//! deterministically: the same game gives the same bytes.

pub mod chart;
pub mod document;
pub mod map;
pub mod palette;
pub mod png;
pub mod svg;
pub mod tile;
pub mod transcript;
pub mod viewer;

use crate::engine::Game;

/// The line above a map: title, round, phase and how many actions it is after.
pub fn caption(game: &Game, processed: usize) -> String {
    let state = if game.finished {
        "game over".to_string()
    } else {
        game.round_label()
    };
    format!(
        "{} · {} · phase {} · after {} actions",
        game.title.name,
        state,
        game.phase_name(),
        processed
    )
}
