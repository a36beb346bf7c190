//! railnote: record, check, replay and convert 18xx railway board games.
//!
//! Layers: [`ids`] and [`action`] are the shared vocabulary; [`engine`] is the pure rules engine
//! (no text, spans or files); [`log`] reads 18xx.games game logs; [`replay`] joins a log to the
//! engine and maps rule violations back to source positions; [`output`] renders results.

#![warn(missing_debug_implementations, rust_2018_idioms)]

pub mod action;
pub mod cli;
pub mod engine;
pub mod ids;
pub mod log;
pub mod output;
pub mod replay;
