//! A game at a state (`--at N`, `--at line:42`, `--at "OR 3.1"`), shared by `replay --at`,
//! `moves`, `routes` and `map`. A notation file is read and replayed only up to the state, so
//! that a half-written file can be inspected while its later lines are still wrong.

use std::io::{self, Write};
use std::path::Path;

use super::notation_cmd::{
    is_json, no_game_failure, rejected_failure, setup_failure, syntax_failure, Failure,
};
use super::{import, input_name, read_input, reject, stdout, Format, Outcome};
use crate::engine::Game;
use crate::log::GameLog;
use crate::notation::{self, ParseError};
use crate::output::FailureReport;
use crate::replay::notation::{play_until, PlayOptions};
use crate::replay::{At, DeviationWarning, Replay, ReplayError, Target};

/// A game at the state asked for.
#[derive(Debug)]
pub(crate) struct GameAt {
    /// The game at that state.
    pub game: Game,
    /// The log read (for a notation file: its actions up to the state).
    pub log: GameLog,
    /// How many actions were processed to get there.
    pub processed: usize,
    /// The deviations from the printed rules on the way.
    pub warnings: Vec<DeviationWarning>,
}

/// Reads `file` and replays its (first) game up to `at` (default: the end). A file that cannot
/// get there is reported here (diagnostic on stderr, with `--format json` the failure on
/// stdout) and gives the outcome in `Err`.
pub(crate) fn game_at(
    file: &Path,
    at: Option<&At>,
    format: Format,
    strict_rules: bool,
) -> io::Result<Result<GameAt, Outcome>> {
    let src = read_input(file)?;
    let name = input_name(file);
    let target = match at.map(|at| at.target(&src)).transpose() {
        Ok(t) => t,
        Err(message) => {
            eprintln!("railnote: {message}");
            return Ok(Err(Outcome::Failed));
        }
    };
    if is_json(&src) {
        let log = match import(&name, &src) {
            Ok(log) => log,
            Err(e) => return Ok(Err(reject(format, FailureReport::from(&e), e)?)),
        };
        return json_at(log, at, target.as_ref(), format, strict_rules);
    }
    let (doc, syntax) = notation::parse_lenient(&name, &src);
    if target.is_none() {
        if let Some(e) = syntax {
            return Ok(Err(fail(format, syntax_failure(&src, e))?));
        }
    }
    let Some(first) = doc.games.iter().find(|g| !g.is_comments_only()) else {
        return Ok(Err(fail(format, no_game_failure(&name))?));
    };
    let options = PlayOptions {
        strict_rules,
        ..PlayOptions::default()
    };
    // Without `--at`, the end: a game of tags alone is at its first state, not an error.
    let until = target.clone().unwrap_or(Target::Before(usize::MAX));
    let played = match play_until(&name, &src, first, options, Some(&until)) {
        Ok(p) => p,
        Err(e) => return Ok(Err(fail(format, setup_failure(e))?)),
    };
    // Only the mistakes before the state asked for stand in its way, and of those the first.
    let cut = match (played.errors.first(), played.stopped_at) {
        (Some(rejected), _) => Some(rejected.span.offset),
        (None, stop) => stop.map(|(offset, _)| offset),
    };
    if let (Some(e), Some(cut)) = (syntax, cut) {
        if let Some(before) = before(e, cut) {
            return Ok(Err(fail(format, syntax_failure(&src, before))?));
        }
    }
    if let Some(rejected) = rejected_failure(&played) {
        return Ok(Err(fail(format, rejected)?));
    }
    if let (Some(at), Some((_, false))) = (at, played.stopped_at) {
        eprintln!(
            "railnote: --at {at}: no such state (the log has {} actions and ends in {})",
            played.log.actions.len(),
            played.game.round_label()
        );
        return Ok(Err(Outcome::Failed));
    }
    Ok(Ok(GameAt {
        processed: played.log.actions.len(),
        game: played.game,
        log: played.log,
        warnings: played.warnings,
    }))
}

/// The syntax errors before `offset`, if any.
fn before(mut e: ParseError, offset: usize) -> Option<ParseError> {
    let all = e.errors.len();
    e.errors.retain(|s| s.span.offset < offset);
    if e.errors.len() < all {
        // Those not kept came after the last kept one, past the state.
        e.omitted = 0;
    }
    (!e.errors.is_empty()).then_some(e)
}

fn json_at(
    log: GameLog,
    at: Option<&At>,
    target: Option<&Target>,
    format: Format,
    strict_rules: bool,
) -> io::Result<Result<GameAt, Outcome>> {
    let mut replay = match Replay::new(&log) {
        Ok(r) => r.strict_rules(strict_rules),
        Err(e) => {
            return Ok(Err(reject(
                format,
                FailureReport::from(&e),
                ReplayError::from(e),
            )?))
        }
    };
    let next = |replay: &Replay<'_>| log.actions.get(replay.processed()).map(|a| a.span.offset);
    let reached = |replay: &Replay<'_>| {
        target.is_some_and(|t| t.reached(replay.game(), replay.processed(), next(replay)))
    };
    while !reached(&replay) {
        match replay.step() {
            None if target.is_some() => {
                eprintln!(
                    "railnote: --at {}: no such state (the log has {} actions and ends in {})",
                    at.map(ToString::to_string).unwrap_or_default(),
                    replay.processed(),
                    replay.game().round_label()
                );
                return Ok(Err(Outcome::Failed));
            }
            None => break,
            Some(Err(e)) => {
                return Ok(Err(reject(
                    format,
                    FailureReport::from(&e),
                    ReplayError::from(e),
                )?))
            }
            Some(Ok(_)) => {}
        }
    }
    let (game, processed, warnings) = (
        replay.game().clone(),
        replay.processed(),
        replay.warnings().to_vec(),
    );
    Ok(Ok(GameAt {
        game,
        log,
        processed,
        warnings,
    }))
}

/// Reports a failure: the diagnostic on stderr, with `--format json` the report on stdout.
pub(crate) fn fail(format: Format, (report, diag): Failure) -> io::Result<Outcome> {
    eprintln!("{:?}", miette::Report::new_boxed(diag));
    if format == Format::Json {
        let mut out = stdout();
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        out.flush()?;
    }
    Ok(Outcome::Rejected)
}
