//! The notation side of the command line: replaying `.rn` files, `convert`, `fmt`, `check`.

// A failure ends the command; its size does not matter.
#![allow(clippy::result_large_err)]

use std::io::{self, Write};
use std::sync::Arc;

use miette::Diagnostic;

use super::{
    import_game, input_name, read_input, with_path, ConvertArgs, FmtArgs, Outcome, Target,
};
use crate::convert;
use crate::notation;
use crate::output::{FailureDetail, FailureReport, ProblemDetail};
use crate::replay::notation::{play, GameRejected, PlayOptions, Played};

/// Whether the content is an 18xx.games JSON log: it starts with `{` and a key (or `}`). A
/// notation file may start with a `{…}` comment, which has text after the brace.
pub(super) fn is_json(text: &str) -> bool {
    let Some(rest) = text
        .trim_start_matches(|c: char| c.is_ascii_whitespace())
        .strip_prefix('{')
    else {
        return false;
    };
    matches!(
        rest.trim_start_matches(|c: char| c.is_ascii_whitespace())
            .chars()
            .next(),
        None | Some('"' | '}')
    )
}

pub(super) type Failure = (FailureReport, Box<dyn Diagnostic + Send + Sync>);

fn failure(
    rule: &str,
    message: String,
    index: Option<usize>,
    round: Option<String>,
    actor: Option<String>,
) -> FailureReport {
    FailureReport::new(
        FailureDetail {
            index,
            action_id: index.map(|i| i as i64),
            round,
            actor,
            rule: rule.to_string(),
            message,
        },
        Vec::new(),
    )
}

/// Parses and replays every game of a notation file.
pub(super) fn play_all(
    name: &str,
    src: &Arc<str>,
    options: PlayOptions,
) -> Result<Vec<Played>, Failure> {
    let mut out = Vec::new();
    play_each(name, src, options, |played| out.push(played))?;
    Ok(out)
}

/// Parses a notation file and replays its games in order, handing each to `visit` (which keeps
/// what it needs: a file of many games is never held replayed all at once); returns how many
/// there were.
///
/// # Errors
/// The syntax errors, a file without a game, or the first game that cannot be set up or is
/// rejected.
pub(super) fn play_each(
    name: &str,
    src: &Arc<str>,
    options: PlayOptions,
    mut visit: impl FnMut(Played),
) -> Result<usize, Failure> {
    let doc = notation::parse(name, src).map_err(|e| syntax_failure(src, e))?;
    if doc.games.iter().all(notation::GameText::is_comments_only) {
        return Err(no_game_failure(name));
    }
    // Comments before the first game's tags are a part of the file, not a game.
    let games = doc.games.iter().filter(|g| !g.is_comments_only()).count();
    // Each game's text is dropped once it is replayed.
    for g in doc.games.into_iter().filter(|g| !g.is_comments_only()) {
        let played = play(name, src, &g, options).map_err(setup_failure)?;
        if let Some(rejected) = rejected_failure(&played) {
            return Err(rejected);
        }
        visit(played);
    }
    Ok(games)
}

/// The syntax errors of a file, as one failure: one line however many errors (the first,
/// where it is, and how many follow) and the diagnostic with all of them.
pub(super) fn syntax_failure(src: &str, e: notation::ParseError) -> Failure {
    let msg = match e.errors.as_slice() {
        [] => e.to_string(),
        [first, rest @ ..] => {
            let (line, column) = first.span.line_col(src);
            let more = match rest.len() + e.omitted {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            format!("line {line}:{column}: {}{more}", first.message)
        }
    };
    let mut report = failure("notation::invalid", msg, None, None, None);
    report.problems = e
        .errors
        .iter()
        .map(|s| ProblemDetail::at(src, s.span, s.code, s.message.clone()))
        .collect();
    (report, Box::new(e) as Box<dyn Diagnostic + Send + Sync>)
}

/// A file without a game. Nothing to check is not a legal game: an empty file, or one of
/// comments only, is most likely the wrong file.
pub(super) fn no_game_failure(name: &str) -> Failure {
    let message = "no game in the file";
    let diag = miette::MietteDiagnostic::new(format!("{name}: {message}"))
        .with_code("notation::no_game")
        .with_help("a game starts with its tags, e.g. `[Title \"1836Jr30\"]` and `[Players \"Ann, Bob, Cid\"]`, then its moves");
    (
        failure("notation::no_game", message.to_string(), None, None, None),
        Box::new(diag),
    )
}

/// A game that could not be set up from its tags.
pub(super) fn setup_failure(e: crate::replay::notation::MoveError) -> Failure {
    let mut report = failure(e.code.as_str(), e.label.clone(), None, None, None);
    report.problems = vec![problem_of(&e)];
    (report, Box::new(e) as Box<dyn Diagnostic + Send + Sync>)
}

/// A replay's problem, where it is written.
fn problem_of(e: &crate::replay::notation::MoveError) -> ProblemDetail {
    ProblemDetail {
        round: (!e.round.is_empty()).then(|| e.round.clone()),
        actor: e.actor.clone(),
        not_checked: e
            .unchecked
            .iter()
            .map(|(_, line)| *line)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect(),
        ..ProblemDetail::at(e.src.text(), e.span, e.code.as_str(), e.label.clone())
    }
}

/// The problems of a replayed game, if it has any.
pub(super) fn rejected_failure(played: &Played) -> Option<Failure> {
    let first = played.errors.first()?;
    let more = match played.errors.len() + played.omitted - 1 {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    };
    let mut report = failure(
        first.code.as_str(),
        format!("{}: {}{more}", first.headline, first.label),
        Some(first.index),
        Some(first.round.clone()),
        first.actor.clone(),
    );
    report.problems = played.errors.iter().map(problem_of).collect();
    let rejected = GameRejected::of(played)?;
    Some((report, Box::new(rejected)))
}

fn emit(output: Option<&std::path::PathBuf>, text: &str) -> io::Result<()> {
    match output {
        Some(path) => std::fs::write(path, text).map_err(|e| with_path(path, e)),
        None => {
            let mut out = super::stdout();
            out.write_all(text.as_bytes())?;
            out.flush()
        }
    }
}

/// `railnote convert FILE --to notation|json [-o OUT]`.
pub(super) fn convert(args: &ConvertArgs) -> io::Result<Outcome> {
    let src = read_input(&args.file)?;
    let name = input_name(&args.file);
    let json = is_json(&src);
    // Without `--to`, the other format.
    let to = args
        .to
        .unwrap_or(if json { Target::Notation } else { Target::Json });
    match (json, to) {
        (true, Target::Notation) => {
            let log = match import_game(&name, &src) {
                Ok(log) => log,
                Err(e) => {
                    eprintln!("{:?}", miette::Report::new(e));
                    return Ok(Outcome::Rejected);
                }
            };
            match convert::to_notation(&log) {
                Ok(doc) => {
                    let left_out = convert::unwritable_settings(&log);
                    if left_out > 0 {
                        eprintln!(
                            "railnote: {name}: {left_out} setting(s) of programmed actions cannot \
                             be written in the notation and are left out"
                        );
                    }
                    emit(args.output.as_ref(), &notation::write(&doc))?
                }
                Err(e) => {
                    eprintln!("{:?}", miette::Report::new(e));
                    return Ok(Outcome::Rejected);
                }
            }
        }
        (false, Target::Json) => {
            // Every game must be legal; the first is converted.
            let mut first = None;
            let games = match play_each(&name, &src, PlayOptions::default(), |p| {
                first.get_or_insert(p);
            }) {
                Ok(n) => n,
                Err((_, d)) => {
                    eprintln!("{:?}", miette::Report::new_boxed(d));
                    return Ok(Outcome::Rejected);
                }
            };
            let Some(first) = first else {
                eprintln!("railnote: {name}: no game to convert");
                return Ok(Outcome::Rejected);
            };
            if games > 1 {
                eprintln!("railnote: {name}: {games} games; converting the first");
            }
            if first
                .game
                .title
                .has_random_setup(&first.game.options.optional_rules)
                && first.log.header.seed.is_none()
            {
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
            let json = convert::to_json(&first);
            emit(
                args.output.as_ref(),
                &format!("{}\n", serde_json::to_string(&json)?),
            )?;
        }
        (true, Target::Json) => {
            // Normalise: read, filter undo/redo, write the minimal log.
            let log = match import_game(&name, &src) {
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
            let text: Arc<str> = Arc::from(notation::write(&doc));
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
    let src = read_input(&args.file)?;
    let name = input_name(&args.file);
    if is_json(&src) {
        // Thousands of syntax errors would say less than this.
        eprintln!(
            "railnote: {name} is an 18xx.games JSON log, not notation: `railnote convert {name}` \
             writes it as notation"
        );
        return Ok(Outcome::Rejected);
    }
    let mut doc = match notation::parse(&name, &src) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{:?}", miette::Report::new(e));
            return Ok(Outcome::Rejected);
        }
    };
    crate::replay::notation::spell_names(&mut doc);
    let text = notation::write(&doc);
    if args.check {
        return fmt_check(&name, &src, &text);
    }
    if args.write && args.file.as_os_str() == super::STDIN {
        eprintln!("railnote: --write rewrites a file, not standard input");
        return Ok(Outcome::Failed);
    }
    if args.write {
        emit(Some(&args.file), &text)?;
    } else {
        emit(None, &text)?;
    }
    Ok(Outcome::Legal)
}

/// `fmt --check`: where the file differs from its canonical form, as a unified diff (like
/// `cargo fmt --check`), exit 1; nothing and exit 0 if it is canonical.
fn fmt_check(name: &str, written: &str, canonical: &str) -> io::Result<Outcome> {
    if written == canonical {
        return Ok(Outcome::Legal);
    }
    // A time limit keeps a file unlike its canonical form everywhere from costing more than
    // the limit (the diff is then coarser); the first hunks are shown, as diagnostics are.
    let diff = similar::TextDiff::configure()
        .timeout(std::time::Duration::from_secs(1))
        .diff_lines(written, canonical);
    let mut out = super::stdout();
    writeln!(out, "--- {name}\n+++ {name} (canonical)")?;
    let mut unified = diff.unified_diff();
    let mut hunks = unified.context_radius(1).iter_hunks();
    for hunk in hunks.by_ref().take(crate::log::DIAGNOSTICS_SHOWN) {
        write!(out, "{hunk}")?;
    }
    let more = hunks.count();
    if more > 0 {
        writeln!(
            out,
            "… and {more} more difference(s) (`railnote fmt --write {name}` rewrites the file)"
        )?;
    }
    out.flush()?;
    Ok(Outcome::Rejected)
}
