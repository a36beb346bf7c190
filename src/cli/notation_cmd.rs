//! The notation side of the command line: replaying `.rn` files, `convert`, `fmt`, `check`.

// A failure ends the command; its size does not matter.
#![allow(clippy::result_large_err)]

use std::io::{self, Write};
use std::sync::Arc;

use miette::Diagnostic;

use super::{import, with_path, CheckArgs, ConvertArgs, FmtArgs, Outcome, Target};
use crate::convert;
use crate::notation;
use crate::output::{FailureDetail, FailureReport};
use crate::replay::notation::{play, GameRejected, PlayOptions, Played};
use crate::replay::ReplayError;

/// Whether the content is an 18xx.games JSON log (it starts with `{`).
pub(super) fn is_json(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{')
}

type Failure = (FailureReport, Box<dyn Diagnostic + Send + Sync>);

fn failure(
    rule: &str,
    message: String,
    index: Option<usize>,
    round: Option<String>,
    actor: Option<String>,
) -> FailureReport {
    FailureReport {
        finished: false,
        error: FailureDetail {
            index,
            action_id: index.map(|i| i as i64),
            round,
            actor,
            rule: rule.to_string(),
            message,
        },
    }
}

/// Parses and replays every game of a notation file.
pub(super) fn play_all(
    name: &str,
    src: &str,
    options: PlayOptions,
) -> Result<Vec<Played>, Failure> {
    let doc = notation::parse(name, src).map_err(|e| {
        let msg = e
            .errors
            .iter()
            .map(|e| e.message.clone())
            .collect::<Vec<_>>()
            .join("; ");
        (
            failure("notation::invalid", msg, None, None, None),
            Box::new(e) as Box<dyn Diagnostic + Send + Sync>,
        )
    })?;
    let shared: Arc<str> = Arc::from(src);
    let mut out = Vec::new();
    for g in &doc.games {
        let played = play(name, &shared, g, options).map_err(|e| {
            (
                failure(e.code, e.label.clone(), None, None, None),
                Box::new(e) as Box<dyn Diagnostic + Send + Sync>,
            )
        })?;
        if let Some(first) = played.errors.first() {
            let report = failure(
                first.code,
                format!("{}: {}", first.headline, first.label),
                Some(first.index),
                Some(first.round.clone()),
                first.actor.clone(),
            );
            let rejected = GameRejected {
                src: first.src.clone(),
                errors: played.errors.clone(),
            };
            return Err((report, Box::new(rejected)));
        }
        out.push(played);
    }
    Ok(out)
}

fn emit(output: Option<&std::path::PathBuf>, text: &str) -> io::Result<()> {
    match output {
        Some(path) => std::fs::write(path, text).map_err(|e| with_path(path, e)),
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()
        }
    }
}

/// `railnote convert FILE --to notation|json [-o OUT]`.
pub(super) fn convert(args: &ConvertArgs) -> io::Result<Outcome> {
    let bytes = std::fs::read(&args.file).map_err(|e| with_path(&args.file, e))?;
    let name = args.file.display().to_string();
    let src = String::from_utf8_lossy(&bytes);
    match (is_json(&bytes), args.to) {
        (true, Target::Notation) => {
            let log = match import(&name, &bytes) {
                Ok(log) => log,
                Err(e) => {
                    eprintln!("{:?}", miette::Report::new(e));
                    return Ok(Outcome::Rejected);
                }
            };
            match convert::to_notation(&log) {
                Ok(doc) => emit(args.output.as_ref(), &notation::write(&doc))?,
                Err(e) => {
                    eprintln!("{:?}", miette::Report::new(e));
                    return Ok(Outcome::Rejected);
                }
            }
        }
        (false, Target::Json) => {
            let played = match play_all(&name, &src, PlayOptions::default()) {
                Ok(p) => p,
                Err((_, d)) => {
                    eprintln!("{:?}", miette::Report::new_boxed(d));
                    return Ok(Outcome::Rejected);
                }
            };
            let Some(first) = played.first() else {
                eprintln!("railnote: {name}: no game to convert");
                return Ok(Outcome::Rejected);
            };
            if played.len() > 1 {
                eprintln!(
                    "railnote: {name}: {} games; converting the first",
                    played.len()
                );
            }
            if first.game.title.random_setup && first.log.header.seed.is_none() {
                // 18xx.games draws the setup from the seed: without it the log would load
                // as some other game.
                eprintln!(
                    "railnote: {name}: {} draws its random setup from a seed; this game states \
                     only the setup (`Setup` tag), so add the `Seed` tag 18xx.games drew it \
                     from to convert it",
                    first.game.title.name
                );
                return Ok(Outcome::Rejected);
            }
            if !first.corrections.is_empty() {
                eprintln!(
                    "railnote: {name}: {} correction(s) cannot be expressed in an 18xx.games log and are left out",
                    first.corrections.len()
                );
            }
            let json = convert::to_json(first);
            emit(
                args.output.as_ref(),
                &format!("{}\n", serde_json::to_string(&json)?),
            )?;
        }
        (true, Target::Json) => {
            // Normalise: read, filter undo/redo, write the minimal log.
            let log = match import(&name, &bytes) {
                Ok(log) => log,
                Err(e) => {
                    eprintln!("{:?}", miette::Report::new(e));
                    return Ok(Outcome::Rejected);
                }
            };
            let doc = match convert::to_notation(&log) {
                Ok(doc) => doc,
                Err(e) => {
                    eprintln!("{:?}", miette::Report::new(e));
                    return Ok(Outcome::Rejected);
                }
            };
            let text = notation::write(&doc);
            let played = match play_all(&name, &text, PlayOptions::default()) {
                Ok(p) => p,
                Err((_, d)) => {
                    eprintln!("{:?}", miette::Report::new_boxed(d));
                    return Ok(Outcome::Rejected);
                }
            };
            let json = convert::to_json(&played[0]);
            emit(
                args.output.as_ref(),
                &format!("{}\n", serde_json::to_string(&json)?),
            )?;
        }
        (false, Target::Notation) => {
            let doc = match notation::parse(&name, &src) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("{:?}", miette::Report::new(e));
                    return Ok(Outcome::Rejected);
                }
            };
            emit(args.output.as_ref(), &notation::write(&doc))?;
        }
    }
    Ok(Outcome::Legal)
}

/// `railnote fmt FILE [--write]`.
pub(super) fn fmt(args: &FmtArgs) -> io::Result<Outcome> {
    let bytes = std::fs::read(&args.file).map_err(|e| with_path(&args.file, e))?;
    let name = args.file.display().to_string();
    let src = String::from_utf8_lossy(&bytes);
    let doc = match notation::parse(&name, &src) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{:?}", miette::Report::new(e));
            return Ok(Outcome::Rejected);
        }
    };
    let text = notation::write(&doc);
    if args.write {
        emit(Some(&args.file), &text)?;
    } else {
        emit(None, &text)?;
    }
    Ok(Outcome::Legal)
}

/// `railnote check FILE...`: one line per file.
pub(super) fn check(args: &CheckArgs) -> io::Result<Outcome> {
    let mut outcome = Outcome::Legal;
    let mut out = io::stdout().lock();
    for file in &args.files {
        let name = file.display().to_string();
        let line = match std::fs::read(file) {
            Err(e) => {
                outcome = Outcome::Failed;
                format!("{name}: error: {e}")
            }
            Ok(bytes) => match check_one(&name, &bytes, args.strict_rules) {
                Ok(summary) => format!("{name}: ok ({summary})"),
                Err(msg) => {
                    if outcome == Outcome::Legal {
                        outcome = Outcome::Rejected;
                    }
                    format!("{name}: {msg}")
                }
            },
        };
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(outcome)
}

fn check_one(name: &str, bytes: &[u8], strict_rules: bool) -> Result<String, String> {
    let warned = |n: usize| match n {
        0 => String::new(),
        1 => ", 1 deviation warning".to_string(),
        n => format!(", {n} deviation warnings"),
    };
    if is_json(bytes) {
        let log = import(name, bytes).map_err(|e| format!("error[{}]: {e}", e.first_code()))?;
        let n = log.actions.len();
        let replayed =
            crate::replay::replay_with_warnings(&log, strict_rules).map_err(|e| match &e {
                ReplayError::Illegal(i) => format!("error[{}]: {e}: {}", i.rule(), i.violation),
                ReplayError::Setup(_) => format!("error[replay::setup]: {e}"),
            })?;
        return Ok(format!("{n} actions{}", warned(replayed.warnings.len())));
    }
    let src = String::from_utf8_lossy(bytes);
    let options = PlayOptions {
        strict_rules,
        ..PlayOptions::default()
    };
    match play_all(name, &src, options) {
        Ok(games) => {
            let moves: usize = games.iter().map(|g| g.log.actions.len()).sum();
            let warnings: usize = games.iter().map(|g| g.warnings.len()).sum();
            let last = games
                .last()
                .map(|g| g.game.round_label())
                .unwrap_or_default();
            Ok(format!(
                "{} game(s), {moves} actions, ends in {last}{}",
                games.len(),
                warned(warnings)
            ))
        }
        Err((report, _)) => {
            let e = report.error;
            Err(format!("error[{}]: {}", e.rule, e.message))
        }
    }
}
