//! The command line: `railnote replay FILE [--format text|json] [--at N] [--trace OUT.jsonl]
//! [--check-runs]` and `railnote routes FILE [--at N] [--corp SYM] [--time-limit MS]`.
//!
//! Exit codes (like ripgrep's): 0 the whole log is legal; 1 the log is rejected (unreadable, or
//! an illegal action); 2 usage or I/O error. A closed stdout (broken pipe) is not an error.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use crate::action::{Action, Entity};
use crate::engine::map::SearchLimits;
use crate::ids::{CorpId, Money};
use crate::log::{self, GameLog, LogError, Problem, ProblemKind, Span};
use crate::output::{
    best_run, run_revenues, FailureReport, RoutesReport, RunAudit, RunCheck, ScoreReport, Snapshot,
};
use crate::replay::{Replay, ReplayError};

/// Check and replay 18xx game logs.
#[derive(Debug, Parser)]
#[command(name = "railnote", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay a game log through the rules engine and report the standings, or the first
    /// illegal action.
    Replay(ReplayArgs),
    /// Find the best run (all trains together) of a corporation at a state of a game log.
    Routes(RoutesArgs),
}

/// Arguments of `railnote routes`.
#[derive(Debug, clap::Args)]
pub struct RoutesArgs {
    /// The game log (an 18xx.games JSON export).
    pub file: PathBuf,
    /// The state after N processed actions (default: the end of the log).
    #[arg(long, value_name = "N")]
    pub at: Option<usize>,
    /// The corporation (any floated one); default: the corporation whose turn it is.
    #[arg(long, value_name = "SYM")]
    pub corp: Option<String>,
    /// Stop searching after this many milliseconds and report the best run found with an
    /// upper bound of the optimum (default: search until the optimum is proven).
    #[arg(long, value_name = "MS")]
    pub time_limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Arguments of `railnote replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The game log (an 18xx.games JSON export; the format is detected from the content).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Stop after N processed actions and print the state instead of the standings.
    #[arg(long, value_name = "N")]
    pub at: Option<usize>,
    /// Write the state after every processed action to this file, one JSON object per line.
    #[arg(long, value_name = "OUT.jsonl")]
    pub trace: Option<PathBuf>,
    /// Compare every recorded run with the best run at its state and report the runs below
    /// it (instead of the standings).
    #[arg(long, conflicts_with_all = ["at", "trace"])]
    pub check_runs: bool,
    /// With `--check-runs`: the search time limit per run, in milliseconds.
    #[arg(long, value_name = "MS", requires = "check_runs")]
    pub time_limit: Option<u64>,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tables for people.
    Text,
    /// One JSON document.
    Json,
}

/// The program's outcome, mapped to the exit code by [`Outcome::code`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything is legal (exit 0).
    Legal,
    /// The log is rejected (exit 1).
    Rejected,
    /// Usage or I/O error (exit 2).
    Failed,
}

impl Outcome {
    /// The process exit code.
    pub fn code(self) -> ExitCode {
        match self {
            Outcome::Legal => ExitCode::SUCCESS,
            Outcome::Rejected => ExitCode::from(1),
            Outcome::Failed => ExitCode::from(2),
        }
    }
}

/// Parses the command line and runs it.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are not errors; clap picks stdout/stderr itself.
            let _ = e.print();
            return if e.use_stderr() {
                Outcome::Failed.code()
            } else {
                Outcome::Legal.code()
            };
        }
    };
    run(&cli).code()
}

/// Runs a parsed command line.
pub fn run(cli: &Cli) -> Outcome {
    let result = match &cli.command {
        Command::Replay(args) => replay(args),
        Command::Routes(args) => routes(args),
    };
    match result {
        Ok(outcome) => outcome,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Outcome::Legal,
        Err(e) => {
            eprintln!("railnote: {e}");
            Outcome::Failed
        }
    }
}

fn limits(time_limit: Option<u64>) -> SearchLimits {
    SearchLimits {
        time: time_limit.map(Duration::from_millis),
    }
}

fn print_json_or_text<T: serde::Serialize + std::fmt::Display>(
    format: Format,
    value: &T,
) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match format {
        Format::Text => write!(out, "{value}")?,
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(value)?)?,
    }
    out.flush()
}

fn routes(args: &RoutesArgs) -> io::Result<Outcome> {
    let bytes = std::fs::read(&args.file).map_err(|e| with_path(&args.file, e))?;
    let name = args.file.display().to_string();
    let log = match import(&name, &bytes) {
        Ok(log) => log,
        Err(e) => return reject(args.format, FailureReport::from(&e), e),
    };
    let mut replay = match Replay::new(&log) {
        Ok(r) => r,
        Err(e) => return reject(args.format, FailureReport::from(&e), ReplayError::from(e)),
    };
    let stop = args.at.unwrap_or(log.actions.len());
    if stop > log.actions.len() {
        eprintln!(
            "railnote: --at {stop}: the log has only {} actions",
            log.actions.len()
        );
        return Ok(Outcome::Failed);
    }
    while replay.processed() < stop {
        if let Some(Err(e)) = replay.step() {
            return reject(args.format, FailureReport::from(&e), ReplayError::from(e));
        }
    }
    let game = replay.game();
    let corp = match &args.corp {
        Some(sym) => match (0..game.corps.len())
            .map(|i| CorpId(i as u8))
            .find(|&c| game.title.corp(c).sym.eq_ignore_ascii_case(sym))
        {
            Some(c) if game.corp(c).floated && !game.corp(c).closed => c,
            Some(_) => {
                eprintln!("railnote: --corp {sym}: not a floated corporation at action {stop}");
                return Ok(Outcome::Failed);
            }
            None => {
                eprintln!("railnote: --corp {sym}: no such corporation");
                return Ok(Outcome::Failed);
            }
        },
        None => match game.acting_entity() {
            Some(Entity::Corporation(c)) => c,
            _ => {
                eprintln!(
                    "railnote: no corporation is operating after action {stop}; name one with --corp"
                );
                return Ok(Outcome::Failed);
            }
        },
    };
    let best = match best_run(game, corp, limits(args.time_limit)) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("railnote: {e}");
            return Ok(Outcome::Failed);
        }
    };
    print_json_or_text(args.format, &RoutesReport::new(game, stop, corp, &best))?;
    Ok(Outcome::Legal)
}

fn check_runs(args: &ReplayArgs, log: &GameLog, mut replay: Replay<'_>) -> io::Result<Outcome> {
    let mut audit = RunAudit {
        runs: 0,
        below: Vec::new(),
        unproven: 0,
    };
    while let Some(logged) = log.actions.get(replay.processed()) {
        if let Action::RunRoutes {
            entity: Entity::Corporation(corp),
            routes,
        } = &logged.action
        {
            let game = replay.game();
            // An illegal run is reported by the replay step below.
            if let Ok(revenues) = run_revenues(game, *corp, routes) {
                let recorded: Money = revenues.into_iter().sum();
                match best_run(game, *corp, limits(args.time_limit)) {
                    Ok(best) => {
                        audit.runs += 1;
                        if !best.optimal {
                            audit.unproven += 1;
                        }
                        if best.optimal && best.total < recorded {
                            // The engine accepted a run the search says cannot exist.
                            eprintln!(
                                "railnote: action #{}: the search's optimum {} is below the \
                                 recorded {recorded}; please report this",
                                logged.action_id, best.total
                            );
                        }
                        if best.total > recorded {
                            audit.below.push(RunCheck {
                                index: replay.processed() + 1,
                                action_id: logged.action_id,
                                recorded,
                                best: RoutesReport::new(game, replay.processed(), *corp, &best),
                            });
                        }
                    }
                    Err(e) => eprintln!("railnote: action #{}: {e}", logged.action_id),
                }
            }
        }
        if let Some(Err(e)) = replay.step() {
            return reject(args.format, FailureReport::from(&e), ReplayError::from(e));
        }
    }
    print_json_or_text(args.format, &audit)?;
    Ok(Outcome::Legal)
}

/// An I/O error that names the file it happened on.
fn with_path(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn replay(args: &ReplayArgs) -> io::Result<Outcome> {
    let bytes = std::fs::read(&args.file).map_err(|e| with_path(&args.file, e))?;
    let name = args.file.display().to_string();
    let log = match import(&name, &bytes) {
        Ok(log) => log,
        Err(e) => return reject(args.format, FailureReport::from(&e), e),
    };
    let mut replay = match Replay::new(&log) {
        Ok(r) => r,
        Err(e) => return reject(args.format, FailureReport::from(&e), ReplayError::from(e)),
    };
    if args.check_runs {
        return check_runs(args, &log, replay);
    }
    if args.at == Some(0) {
        return print_snapshot(args.format, &Snapshot::of(replay.game(), &log));
    }
    let mut trace = match &args.trace {
        Some(path) => Some(BufWriter::new(
            File::create(path).map_err(|e| with_path(path, e))?,
        )),
        None => None,
    };
    let mut last = None;
    let mut trace_error = None;
    let result = replay.run_with(|step, game| {
        let snapshot = Snapshot::after(game, &log, step);
        if let Some(out) = trace.as_mut() {
            let line = serde_json::to_string(&snapshot).map_err(io::Error::from);
            if let Err(e) = line.and_then(|l| writeln!(out, "{l}")) {
                trace_error = Some(e);
                return ControlFlow::Break(());
            }
        }
        let stop = args.at == Some(step.index);
        last = Some(snapshot);
        if stop {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(out) = trace.as_mut() {
        out.flush()?;
    }
    if let Some(e) = trace_error {
        return Err(e);
    }
    if let Err(e) = result {
        return reject(args.format, FailureReport::from(&e), ReplayError::from(e));
    }
    match args.at {
        Some(n) => match last {
            Some(snapshot) if snapshot.index == n => print_snapshot(args.format, &snapshot),
            _ => {
                eprintln!(
                    "railnote: --at {n}: the log has only {} actions",
                    replay.processed()
                );
                Ok(Outcome::Failed)
            }
        },
        None => {
            let report = ScoreReport::new(replay.game(), &log);
            let mut out = io::stdout().lock();
            match args.format {
                Format::Text => write!(out, "{report}")?,
                Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
            }
            out.flush()?;
            Ok(Outcome::Legal)
        }
    }
}

/// Reads a log of whichever format the content is in (only 18xx.games JSON so far).
fn import(name: &str, bytes: &[u8]) -> Result<GameLog, LogError> {
    let src = String::from_utf8_lossy(bytes);
    let first = src.trim_start();
    if first.starts_with('{') {
        return log::read(name, &src);
    }
    let offset = src.len() - first.len();
    let len = first.chars().next().map_or(0, char::len_utf8);
    let problem = Problem::new(
        ProblemKind::NotALog,
        Span::new(offset, len),
        "unrecognised log format",
        "expected `{` here",
    )
    .with_help("railnote reads 18xx.games game logs: a JSON object starting with `{`");
    Err(LogError::new(name, src.into_owned().into(), vec![problem]))
}

fn print_snapshot(format: Format, snapshot: &Snapshot) -> io::Result<Outcome> {
    let mut out = io::stdout().lock();
    match format {
        Format::Text => write!(out, "{snapshot}")?,
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(snapshot)?)?,
    }
    out.flush()?;
    Ok(Outcome::Legal)
}

fn reject(
    format: Format,
    report: FailureReport,
    error: impl miette::Diagnostic + Send + Sync + 'static,
) -> io::Result<Outcome> {
    eprintln!("{:?}", miette::Report::new(error));
    if format == Format::Json {
        let mut out = io::stdout().lock();
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        out.flush()?;
    }
    Ok(Outcome::Rejected)
}
