//! The rules engine: game state, rounds and steps. Knows nothing of text, spans or files.

pub mod map;
