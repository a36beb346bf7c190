//! railnote: record, check, replay and convert 18xx railway board games.
//!
//! Layers: [`ids`] and [`action`] are the shared vocabulary; [`engine`] is the pure rules engine
//! (no text, spans or files); [`log`] reads 18xx.games game logs; [`replay`] joins a log to the
//! engine and maps rule violations back to source positions; [`output`] renders results;
//! [`cli`] is the command line.
//!
//! ```
//! let src = r#"{"title": "1836Jr30", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}],
//!               "actions": [{"type": "pass", "entity": 1, "entity_type": "player", "id": 1}]}"#;
//! let log = railnote::log::read("game.json", src)?;
//! match railnote::replay::replay(&log) {
//!     Ok(game) => println!("{}", railnote::output::ScoreReport::new(&game, &log)),
//!     // Located in the file, with the round and the actor; render with miette.
//!     Err(illegal) => eprintln!("{:?}", miette::Report::new(illegal)),
//! }
//! # Ok::<(), railnote::log::LogError>(())
//! ```

#![warn(missing_debug_implementations, rust_2018_idioms)]

pub mod action;
pub mod cli;
pub mod convert;
pub mod draw;
pub mod engine;
pub mod ids;
pub mod log;
pub mod notation;
pub mod output;
pub mod rails;
pub mod replay;
pub mod selfplay;
