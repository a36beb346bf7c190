//! The railnote notation: a PGN-like text record of an 18xx game (file extension `.rn`).
//!
//! This module knows nothing of rules: [`parse`] reads text into a [`Document`] with spans,
//! [`write()`] prints the canonical form (the inverse). Resolving a written move into an engine
//! [`Action`](crate::action::Action) happens against the current game in
//! [`crate::replay::notation`], like shakmaty's `San::to_move(&pos)`. The grammar is in
//! `grammar/railnote.ebnf`, with a guide in `grammar/README.md`.

pub mod ast;
mod error;
mod parse;
mod spelling;
mod write;

pub use ast::*;
pub use error::{ParseError, SyntaxError};
pub use parse::{parse, parse_lenient, MAX_DEPTH};
pub use spelling::nearest;
pub use write::{name, write};

/// The file extension of railnote documents.
pub const EXTENSION: &str = "rn";

#[cfg(test)]
mod tests;
