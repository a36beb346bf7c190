//! The single integration test binary (one link on a 2-core CI); each module is a file here so
//! that every snapshot lands in `tests/snapshots/`.

/// Shared fixtures lookup and the deterministic diagnostic renderer.
mod common;

/// Malformed and edge-case logs: undo/redo filtering, hotseat ids, rendered diagnostics.
mod import;

/// 18xx.games' End Game: games ended by hand, the notation's `end game`, legal moves and
/// self-play.
mod end_game;

/// Every 1836Jr30 fixture against the reference engine's per-action traces and final scores.
mod conformance;
/// Comparing a replay with a reference trace (shared with the `reference_games` example).
#[path = "reference/trace.rs"]
mod trace;

/// Wire formats of the state snapshot and the standings.
mod output;

/// `check` over directories: walking, order, JSON lines, the summary.
mod check;
/// The binary: exit codes, stdout/stderr contract.
mod cli;

/// The HTML viewer in headless Chromium.
mod browser;
/// Pictures: map snapshots and the map against the board at every state, charts, the
/// transcript, the viewer.
mod draw;
/// Hostile input: the findings with their minimal inputs, the command line's edge
/// cases, and the mutation run.
mod hostile;
/// Legal-move generation agrees with the legality check (fixtures and self-play).
mod legal;
/// The railnote notation: fixture round trips (JSON → notation → JSON), fmt idempotence,
/// samples, and a snapshot of every diagnostic kind.
mod notation;
mod notation_props;
/// The optimal route finder against recorded runs and hand-built positions.
mod routes;
/// The notation scenarios (`samples/scenarios/`) and the grammar guide's examples.
mod scenarios;

/// Writing a game by hand (issue 14): inspecting a half-written file, the `pass` rule, names,
/// what passes silently, the everyday conventions of the command line.
mod authoring;
/// Games saved by Rails: reading `.rails` saves (whole, damaged, cut short), their notation,
/// the options and titles refused by name, and the replay against Rails' own reports.
mod rails;
