//! Replaying railnote documents: each written move is resolved against the current [`Game`]
//! into an engine [`Action`] (shakmaty's `San::to_move(&pos)`), processed, and every failure is
//! mapped back to the move's span as a [`MoveError`]. [`to_notation`] is the inverse
//! (`San::from_move`): the shortest written form that resolves back to the very same action.
//!
//! By concern:
//! - [`names`]: names as written (any case) to players, corporations, privates, certificates,
//!   trains; [`spelling`]: names as the game spells them (`fmt`);
//! - [`resolve`]: a written move to an engine action; [`write`]: the inverse;
//! - [`setup`]: the game from its tags;
//! - [`walk`]: the main walk through a game's text (moves, headings, variations);
//! - [`recovery`]: keep-going, after a refused move;
//! - [`checks`]: check lines and the `Result` tag; [`corrections`]: `correct …` lines;
//! - [`diagnostics`]: the reports and their codes; [`explain`]: why a move was refused, in
//!   words.

// Errors are built once per failing move; their size does not matter.
#![allow(clippy::result_large_err)]

mod checks;
mod corrections;
mod diagnostics;
mod explain;
mod names;
mod recovery;
mod resolve;
mod setup;
mod spelling;
mod walk;
mod write;

#[cfg(test)]
mod test_games;

pub use checks::result_text;
pub use diagnostics::{Code, GameRejected, MoveError};
pub use names::{entity_by_name, train_text};
pub use resolve::{resolve, sides, Unresolved};
pub use setup::{player_ids, setup};
pub use spelling::spell_names;
pub use walk::{play, play_until, AppliedCorrection, PlayOptions, Played};
pub use write::{move_for, to_notation};
