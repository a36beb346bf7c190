//! The command line: `railnote replay FILE [--format text|json] [--at N] [--trace OUT.jsonl]
//! [--keep-going] [--check-runs]`, `railnote convert|fmt|check`, `railnote routes FILE [--at N]
//! [--corp SYM] [--time-limit MS]`, `railnote moves FILE [--at N|ROUND]`, `railnote selfplay …`,
//! and the pictures: `railnote map|chart|transcript|view` (in `cli/draw_cmd.rs`).
//!
//! Exit codes (like ripgrep's): 0 the whole log is legal; 1 the log is rejected (unreadable, or
//! an illegal action); 2 usage or I/O error. A closed stdout (broken pipe) is not an error.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use crate::action::{Action, Entity};
use crate::engine::map::SearchLimits;
use crate::ids::{CorpId, Money};
use crate::log::{self, GameLog, LogError, Problem, ProblemKind, Span, DIAGNOSTICS_SHOWN};
use crate::output::{
    best_run, json_log, run_notation, run_revenues, FailureReport, MovesReport, RoutesReport,
    RunAudit, RunCheck, ScoreReport, Snapshot,
};
use crate::replay::notation::PlayOptions;
use crate::replay::{At, DeviationWarning, Replay, ReplayError, Target as Stop};
use crate::selfplay::Policy;

/// `eprintln!` for this module and its children, without the standard one's panic when
/// stderr is closed (`railnote fmt bad.rn 2>&1 | head -1`): a message nobody reads is dropped,
/// and the exit code still says what happened.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod check_cmd;
mod draw_cmd;
mod notation_cmd;
mod state;

pub use check_cmd::CheckArgs;
pub use draw_cmd::{ChartArgs, MapArgs, TranscriptArgs, ViewArgs};

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
    #[command(after_help = "Examples:
  railnote replay game.rn
  railnote replay game.rn --keep-going          every mistake, each once
  railnote replay game.rn --at line:42          the state after line 42
  railnote replay game.json --at \"OR 3.1\" --format json
  cat game.rn | railnote replay -")]
    Replay(ReplayArgs),
    /// Convert between an 18xx.games JSON log and the railnote notation (`.rn`).
    #[command(after_help = "Examples:
  railnote convert game.json -o game.rn        a JSON log becomes notation
  railnote convert game.rn -o game.json        notation becomes a JSON log
  railnote convert game.json --to json         a JSON log without undone actions")]
    Convert(ConvertArgs),
    /// Print a railnote document in canonical form (comments kept; idempotent).
    #[command(after_help = "Examples:
  railnote fmt game.rn                          print it in canonical form
  railnote fmt --write game.rn                  rewrite the file
  railnote fmt --check game.rn                  exit 1 if it is not canonical")]
    Fmt(FmtArgs),
    /// Check game files and directories of them (syntax and rules), in parallel: one line per
    /// file, then a summary; exit 1 if any game fails.
    #[command(after_help = "Examples:
  railnote check game.rn
  railnote check games/ more.json --jobs 2 --format json")]
    Check(CheckArgs),
    /// List every legal action at a state of a game log, grouped by kind.
    #[command(after_help = "Examples:
  railnote moves game.rn                        what can be written next
  railnote moves game.rn --at line:30 --format notation
  railnote moves game.json --at \"SR 2\"")]
    Moves(MovesArgs),
    /// Play a complete game by the rules and write it as an 18xx.games JSON log.
    Selfplay(SelfplayArgs),
    /// Find the best run (all trains together) of a corporation at a state of a game log.
    Routes(RoutesArgs),
    /// Draw the map at a state of a game (SVG or PNG), optionally with a corporation's best run.
    Map(MapArgs),
    /// Chart share prices or players' values after each round (SVG or PNG).
    Chart(ChartArgs),
    /// Write the game as sentences, round by round (or JSON, one event a line).
    Transcript(TranscriptArgs),
    /// Write a self-contained HTML viewer of the game: map, standings, notation, charts.
    View(ViewArgs),
    /// Print a shell completion script (`railnote completions bash > …/railnote`).
    #[command(after_help = "Examples:
  railnote completions bash > ~/.local/share/bash-completion/completions/railnote
  railnote completions zsh > ~/.zfunc/_railnote
  railnote completions fish > ~/.config/fish/completions/railnote.fish")]
    Completions(CompletionsArgs),
    /// Print the manual page (roff; `railnote man > railnote.1; man ./railnote.1`).
    Man,
}

/// Arguments of `railnote completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `railnote convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The input (JSON log or `.rn` notation; detected from the content; `-`: standard input).
    pub file: PathBuf,
    /// The output format. Default: the other one (a JSON log becomes notation, notation a JSON
    /// log).
    #[arg(long, value_enum)]
    pub to: Option<Target>,
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Conversion targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// The railnote notation (`.rn`).
    Notation,
    /// An 18xx.games JSON log.
    Json,
}

/// Arguments of `railnote fmt`.
#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// The notation file (`-`: standard input).
    pub file: PathBuf,
    /// Rewrite the file in place instead of printing.
    #[arg(short, long, conflicts_with = "check")]
    pub write: bool,
    /// Print nothing but where the file is not in canonical form; exit 1 if it is not (like
    /// `cargo fmt --check`).
    #[arg(long)]
    pub check: bool,
}

/// Arguments of `railnote moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// The game: an 18xx.games JSON log or a notation file.
    pub file: PathBuf,
    #[arg(long, value_name = "N|line:L|ROUND", help = AT_HELP)]
    pub at: Option<At>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = MovesFormat::Text)]
    pub format: MovesFormat,
}

/// Output formats of `railnote moves`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MovesFormat {
    /// Tables for people.
    Text,
    /// One JSON document (each action in the 18xx.games log format).
    Json,
    /// Each action as a move of the notation, ready to paste into a `.rn` file.
    Notation,
}

/// What `--at` takes, wherever it is.
pub(crate) const AT_HELP: &str = "The state: after N processed actions (`120`), after line L of \
    the file (`line:42`), or the first state of a round (`\"OR 3.1\"`, `\"SR 2\"`, `PR`). A \
    notation file is replayed only up to it. Default: the end of the log";

/// Arguments of `railnote selfplay`.
#[derive(Debug, clap::Args)]
pub struct SelfplayArgs {
    /// The title.
    #[arg(long, default_value = "1836Jr30")]
    pub title: String,
    /// Number of players.
    #[arg(long, default_value_t = 3)]
    pub players: usize,
    /// The random seed (same seed, same game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How moves are chosen.
    #[arg(long, value_enum, default_value_t = PolicyArg::Greedy)]
    pub policy: PolicyArg,
    /// Write the game log here (default: stdout).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format (JSON is the 18xx.games log; text prints a summary and the standings).
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Play this many games (seeds SEED, SEED+1, …) and print one summary line per game;
    /// with `-o DIR`, write each log as DIR/<seed>.json.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// End the game by hand after N actions (18xx.games' End Game, a deviation from the
    /// printed rules): a short game scored as it stands. Without it, self-play never ends a
    /// game by hand.
    #[arg(long, value_name = "N")]
    pub end_game_after: Option<usize>,
    /// Play with this optional rule of the title (its 18xx.games name, e.g.
    /// `beginner_game` for 1889, `optional_6_train` for 1830); repeat for several.
    #[arg(long = "optional-rule", value_name = "RULE")]
    pub optional_rules: Vec<String>,
}

/// Self-play policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// Uniform over the legal actions (kinds weighted so that games end).
    Random,
    /// Plausible play.
    Greedy,
}

/// Arguments of `railnote routes`.
#[derive(Debug, clap::Args)]
pub struct RoutesArgs {
    /// The game: an 18xx.games JSON log or a notation file (the format is detected from the
    /// content).
    pub file: PathBuf,
    #[arg(long, value_name = "N|line:L|ROUND", help = AT_HELP)]
    pub at: Option<At>,
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
    /// The game: an 18xx.games JSON log or a notation file (the format is detected from the
    /// content).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the state after N processed actions (`120`), after line L (`line:42`), or at the
    /// start of a round (`"OR 3.1"`) instead of the standings. A notation file is replayed only
    /// up to it.
    #[arg(long, value_name = "N|line:L|ROUND")]
    pub at: Option<At>,
    /// Write the state after every processed action to this file, one JSON object per line.
    #[arg(long, value_name = "OUT.jsonl")]
    pub trace: Option<PathBuf>,
    /// Notation: report every illegal move, not just the first.
    #[arg(long)]
    pub keep_going: bool,
    /// Compare every recorded run with the best run at its state and report the runs below
    /// it (instead of the standings).
    #[arg(long, conflicts_with_all = ["at", "trace"])]
    pub check_runs: bool,
    /// With `--check-runs`: the search time limit per run, in milliseconds.
    #[arg(long, value_name = "MS", requires = "check_runs")]
    pub time_limit: Option<u64>,
    /// Follow the printed rules where 18xx.games does not: a move that breaks one is illegal
    /// instead of a deviation warning.
    #[arg(long)]
    pub strict_rules: bool,
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
    match &cli.command {
        Command::Replay(args) => io_outcome(replay(args)),
        Command::Convert(args) => io_outcome(notation_cmd::convert(args)),
        Command::Fmt(args) => io_outcome(notation_cmd::fmt(args)),
        Command::Check(args) => io_outcome(check_cmd::check(args)),
        Command::Moves(args) => io_outcome(moves(args)),
        Command::Selfplay(args) => io_outcome(selfplay(args)),
        Command::Routes(args) => io_outcome(routes(args)),
        Command::Map(args) => io_outcome(draw_cmd::map(args)),
        Command::Chart(args) => io_outcome(draw_cmd::chart(args)),
        Command::Transcript(args) => io_outcome(draw_cmd::transcript(args)),
        Command::View(args) => io_outcome(draw_cmd::view(args)),
        Command::Completions(args) => io_outcome(completions(args)),
        Command::Man => io_outcome(man()),
    }
}

/// `railnote completions SHELL`: the script, generated from the clap definitions.
fn completions(args: &CompletionsArgs) -> io::Result<Outcome> {
    let mut command = <Cli as clap::CommandFactory>::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "railnote", &mut script);
    let mut out = stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Outcome::Legal)
}

/// `railnote man`: the manual page, generated from the clap definitions, with a section per
/// subcommand.
fn man() -> io::Result<Outcome> {
    let command = <Cli as clap::CommandFactory>::command();
    let mut page = Vec::new();
    let main = clap_mangen::Man::new(command.clone());
    main.render_title(&mut page)?;
    main.render_name_section(&mut page)?;
    main.render_synopsis_section(&mut page)?;
    main.render_description_section(&mut page)?;
    main.render_options_section(&mut page)?;
    main.render_subcommands_section(&mut page)?;
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = sub.get_name().to_string();
        let sub_page = clap_mangen::Man::new(sub.clone());
        writeln!(page, ".SH \"RAILNOTE {}\"", name.to_uppercase())?;
        let mut body = Vec::new();
        sub_page.render_description_section(&mut body)?;
        sub_page.render_options_section(&mut body)?;
        sub_page.render_extra_section(&mut body)?;
        // The subcommand's sections, one level down.
        let body = String::from_utf8_lossy(&body).replace(".SH ", ".SS ");
        page.extend_from_slice(body.as_bytes());
    }
    main.render_version_section(&mut page)?;
    let mut out = stdout();
    out.write_all(&page)?;
    out.flush()?;
    Ok(Outcome::Legal)
}

fn io_outcome(result: io::Result<Outcome>) -> Outcome {
    match result {
        Ok(outcome) => outcome,
        // A closed stdout never gets here (see `stdout`): any error is a real one, and a
        // failure is never turned into success.
        Err(e) => {
            if let Some(rails) = e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<crate::rails::RailsError>())
            {
                eprintln!("{:?}", miette::Report::new(rails.clone()));
                return Outcome::Rejected;
            }
            eprintln!("railnote: {e}");
            Outcome::Failed
        }
    }
}

/// Standard output for the commands' results. A reader that stops reading (`railnote check
/// *.rn | head -1`) is not an error: what it does not read is dropped, the command runs to its
/// end and the exit code still says what it found.
pub(crate) fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

/// See [`stdout`].
pub(crate) struct Stdout(io::StdoutLock<'static>);

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(buf.len()),
            result => result,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.0.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            result => result,
        }
    }
}

/// The name that stands for standard input where a file is expected.
pub(crate) const STDIN: &str = "-";

/// How an input is named in messages (`<stdin>` for `-`).
pub(crate) fn input_name(path: &Path) -> String {
    if path.as_os_str() == STDIN {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// The text of an input file (`-`: standard input): without a UTF-8 byte-order mark (some
/// Windows editors write one before a JSON log or a notation file), invalid UTF-8 replaced. One
/// shared copy of it serves the whole command.
pub(crate) fn read_input(path: &Path) -> io::Result<Arc<str>> {
    let bytes = read_bytes(path).map_err(|e| with_path(Path::new(&input_name(path)), e))?;
    if crate::rails::is_java_serialization(&bytes) {
        // A Rails save is read as the notation game it is; a save railnote cannot play is a
        // rejected input (exit 1), told by `io_outcome`.
        return crate::rails::to_notation(&input_name(path), &bytes)
            .map(|(text, _)| Arc::from(text))
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e));
    }
    Ok(decode_text(bytes))
}

/// The bytes of an input file (`-`: standard input).
pub(crate) fn read_bytes(path: &Path) -> io::Result<Vec<u8>> {
    if path.as_os_str() == STDIN {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

/// [`read_input`], with errors that do not name the file.
pub(crate) fn read_unnamed(path: &Path) -> io::Result<Arc<str>> {
    let bytes = if path.as_os_str() == STDIN {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut bytes)?;
        bytes
    } else {
        std::fs::read(path)?
    };
    Ok(decode_text(bytes))
}

/// A file's bytes as text: without a UTF-8 byte-order mark, invalid UTF-8 replaced.
pub(crate) fn decode_text(mut bytes: Vec<u8>) -> Arc<str> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Arc::from(text)
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
    let mut out = stdout();
    match format {
        Format::Text => write!(out, "{value}")?,
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(value)?)?,
    }
    out.flush()
}

/// The main line of a game file: an 18xx.games JSON log, or the first game of a notation
/// file (replayed; a file it rejects is reported here, with its diagnostics).
fn read_game(file: &Path, format: Format) -> io::Result<Result<GameLog, Outcome>> {
    let src = read_input(file)?;
    let name = input_name(file);
    if notation_cmd::is_json(&src) {
        return Ok(match import_game(&name, &src) {
            Ok(log) => Ok(log),
            Err(e) => Err(reject(format, FailureReport::from(&e), e)?),
        });
    }
    let mut first = None;
    match notation_cmd::play_each(&name, &src, PlayOptions::default(), |played| {
        first.get_or_insert(played.log);
    }) {
        Ok(_) => match first {
            Some(log) => Ok(Ok(log)),
            None => {
                eprintln!("railnote: {name}: no game in the file");
                Ok(Err(Outcome::Rejected))
            }
        },
        Err((report, diag)) => {
            eprintln!("{:?}", miette::Report::new_boxed(diag));
            if format == Format::Json {
                let mut out = stdout();
                writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
                out.flush()?;
            }
            Ok(Err(Outcome::Rejected))
        }
    }
}

fn routes(args: &RoutesArgs) -> io::Result<Outcome> {
    let at = match state::game_at(&args.file, args.at.as_ref(), args.format, false)? {
        Ok(at) => at,
        Err(outcome) => return Ok(outcome),
    };
    let (game, stop) = (&at.game, at.processed);
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
                let recorded_run = run_notation(
                    game,
                    *corp,
                    &routes
                        .iter()
                        .cloned()
                        .zip(revenues.iter().copied())
                        .collect::<Vec<_>>(),
                );
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
                                recorded_run,
                                best_run: run_notation(
                                    game,
                                    *corp,
                                    &best
                                        .routes
                                        .iter()
                                        .map(|r| (r.spec.clone(), r.revenue))
                                        .collect::<Vec<_>>(),
                                ),
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
pub(crate) fn with_path(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn replay(args: &ReplayArgs) -> io::Result<Outcome> {
    if args.at.is_some() && args.trace.is_none() {
        let at = match state::game_at(&args.file, args.at.as_ref(), args.format, args.strict_rules)?
        {
            Ok(at) => at,
            Err(outcome) => return Ok(outcome),
        };
        let outcome = print_snapshot(args.format, &Snapshot::at(&at.game, &at.log, at.processed))?;
        print_warnings(&at.warnings);
        return Ok(outcome);
    }
    let src = read_input(&args.file)?;
    let name = input_name(&args.file);
    if !notation_cmd::is_json(&src) {
        if args.trace.is_some() || args.check_runs {
            // The first game, up to `--at`: its actions are replayed again from its log.
            let at =
                match state::game_at(&args.file, args.at.as_ref(), args.format, args.strict_rules)?
                {
                    Ok(at) => at,
                    Err(outcome) => return Ok(outcome),
                };
            let stop = args.at.as_ref().map(|_| Stop::Actions(at.processed));
            return replay_log(args, &at.log, stop.as_ref());
        }
        // The standings of every game (printed once all are legal); the games themselves are
        // not kept.
        let mut reports = Vec::new();
        let mut warnings = Vec::new();
        let options = PlayOptions {
            keep_going: args.keep_going,
            strict_rules: args.strict_rules,
        };
        let played = notation_cmd::play_each(&name, &src, options, |p| {
            reports.push(standings_of(args.format, &p));
            warnings.extend(p.warnings);
        });
        if let Err(failure) = played {
            return state::fail(args.format, failure);
        }
        let reports = reports.into_iter().collect::<io::Result<Vec<String>>>()?;
        let mut out = stdout();
        if args.format == Format::Json && reports.len() > 1 {
            // Several games: one JSON array of their standings, in file order.
            let items: Vec<&str> = reports.iter().map(|r| r.trim_end()).collect();
            writeln!(out, "[\n{}\n]", items.join(",\n"))?;
        } else {
            for report in reports {
                out.write_all(report.as_bytes())?;
            }
        }
        out.flush()?;
        print_warnings(&warnings);
        return Ok(Outcome::Legal);
    }
    // A state (`--at`) of a log without actions is its first one, as for notation.
    let read = if args.at.is_some() {
        import(&name, &src)
    } else {
        import_game(&name, &src)
    };
    let log = match read {
        Ok(log) => log,
        Err(e) => return reject(args.format, FailureReport::from(&e), e),
    };
    let target = match args.at.as_ref().map(|at| at.target(&src)).transpose() {
        Ok(t) => t,
        Err(message) => {
            eprintln!("railnote: {message}");
            return Ok(Outcome::Failed);
        }
    };
    replay_log(args, &log, target.as_ref())
}

/// Replays a log (with `--trace`, `--check-runs`, or to the standings), stopping at `stop`.
fn replay_log(args: &ReplayArgs, log: &GameLog, stop: Option<&Stop>) -> io::Result<Outcome> {
    let mut replay = match Replay::new(log) {
        Ok(r) => r.strict_rules(args.strict_rules),
        Err(e) => return reject(args.format, FailureReport::from(&e), ReplayError::from(e)),
    };
    if args.check_runs {
        return check_runs(args, log, replay);
    }
    let next = |index: usize| log.actions.get(index).map(|a| a.span.offset);
    if stop.is_some_and(|t| t.reached(replay.game(), 0, next(0))) {
        return print_snapshot(args.format, &Snapshot::of(replay.game(), log));
    }
    let mut trace = match &args.trace {
        Some(path) => Some(BufWriter::new(
            File::create(path).map_err(|e| with_path(path, e))?,
        )),
        None => None,
    };
    let mut last = None;
    let mut reached = false;
    let mut trace_error = None;
    let result = replay.run_with(|step, game| {
        reached = stop.is_some_and(|t| t.reached(game, step.index, next(step.index)));
        // A snapshot is built only where one is written: the standings need none on the way
        // (building one after every action used to be half the time of a replay).
        if trace.is_none() && !reached {
            return ControlFlow::Continue(());
        }
        let snapshot = Snapshot::after(game, log, step);
        if let Some(out) = trace.as_mut() {
            let line = serde_json::to_string(&snapshot).map_err(io::Error::from);
            if let Err(e) = line.and_then(|l| writeln!(out, "{l}")) {
                trace_error = Some(e);
                return ControlFlow::Break(());
            }
        }
        if reached {
            last = Some(snapshot);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let flushed = trace.as_mut().map_or(Ok(()), Write::flush);
    if let (Some(path), Some(e)) = (&args.trace, trace_error.or(flushed.err())) {
        return Err(with_path(path, e));
    }
    if let Err(e) = result {
        return reject(args.format, FailureReport::from(&e), ReplayError::from(e));
    }
    let outcome = match (&args.at, last) {
        (Some(_), Some(snapshot)) if reached => print_snapshot(args.format, &snapshot),
        (Some(at), _) => {
            eprintln!(
                "railnote: --at {at}: no such state (the log has {} actions and ends in {})",
                replay.processed(),
                replay.game().round_label()
            );
            Ok(Outcome::Failed)
        }
        (None, _) => {
            if let Err(e) = crate::replay::check_result(log, replay.game()) {
                print_warnings(replay.warnings());
                return reject(args.format, FailureReport::from(&e), e);
            }
            let report = ScoreReport::new(replay.game(), log).with_warnings(replay.warnings());
            let mut out = stdout();
            match args.format {
                Format::Text => write!(out, "{report}")?,
                Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
            }
            out.flush()?;
            Ok(Outcome::Legal)
        }
    };
    print_warnings(replay.warnings());
    outcome
}

/// The deviation warnings as diagnostics on stderr, after the standings or the state.
/// The first [`DIAGNOSTICS_SHOWN`] of them: a file cannot make megabytes of warnings.
fn print_warnings(warnings: &[DeviationWarning]) {
    for w in warnings.iter().take(DIAGNOSTICS_SHOWN) {
        eprintln!("{:?}", miette::Report::new(w.clone()));
    }
    if let Some(more) = warnings
        .len()
        .checked_sub(DIAGNOSTICS_SHOWN)
        .filter(|&n| n > 0)
    {
        eprintln!(
            "railnote: and {more} more deviation warning(s) (`--format json` lists them all)"
        );
    }
}

/// A game's standings as `replay` prints them, with the corrections applied.
fn standings_of(format: Format, p: &crate::replay::notation::Played) -> io::Result<String> {
    let report = ScoreReport::new(&p.game, &p.log).with_warnings(&p.warnings);
    Ok(match format {
        Format::Text => {
            let mut text = report.to_string();
            for c in &p.corrections {
                let (line, _) = c.span.line_col(&p.log.src);
                text.push_str(&format!(
                    "correction applied (line {line}, {}): {}\n",
                    c.round, c.text
                ));
            }
            text
        }
        Format::Json => format!("{}\n", serde_json::to_string_pretty(&report)?),
    })
}

/// Reads an 18xx.games JSON log to replay, convert or draw: one without actions is an error
/// (`log::no_actions`), as a notation game without moves is.
pub(crate) fn import_game(name: &str, src: &Arc<str>) -> Result<GameLog, LogError> {
    let log = import(name, src)?;
    // A setup the title does not allow says more than the missing actions: the caller's replay
    // reports it.
    if Replay::new(&log).is_ok() {
        log.require_actions()?;
    }
    Ok(log)
}

/// Reads an 18xx.games JSON log (notation files are read by [`notation_cmd`]).
pub(crate) fn import(name: &str, src: &Arc<str>) -> Result<GameLog, LogError> {
    let first = src.trim_start();
    if first.starts_with('{') {
        return log::read_shared(name, Arc::clone(src));
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
    Err(LogError::new(name, Arc::clone(src), vec![problem]))
}

fn print_snapshot(format: Format, snapshot: &Snapshot) -> io::Result<Outcome> {
    let mut out = stdout();
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
        let mut out = stdout();
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        out.flush()?;
    }
    Ok(Outcome::Rejected)
}

fn moves(args: &MovesArgs) -> io::Result<Outcome> {
    let format = match args.format {
        MovesFormat::Json => Format::Json,
        MovesFormat::Text | MovesFormat::Notation => Format::Text,
    };
    let at = match state::game_at(&args.file, args.at.as_ref(), format, false)? {
        Ok(at) => at,
        Err(outcome) => return Ok(outcome),
    };
    let report = MovesReport::new(&at.game, &at.game.legal_actions(), at.processed);
    let mut out = stdout();
    match args.format {
        MovesFormat::Text => write!(out, "{report}")?,
        MovesFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
        MovesFormat::Notation => write!(out, "{}", report.notation())?,
    }
    out.flush()?;
    Ok(Outcome::Legal)
}

fn selfplay(args: &SelfplayArgs) -> io::Result<Outcome> {
    let policy = match args.policy {
        PolicyArg::Random => Policy::Random,
        PolicyArg::Greedy => Policy::Greedy,
    };
    let mut outcome = Outcome::Legal;
    for seed in args.seed..args.seed.saturating_add(args.games.max(1)) {
        // The title in any case (`--title 1836jr30`).
        let title = crate::engine::title::Title::known_names()
            .iter()
            .find(|n| n.eq_ignore_ascii_case(&args.title))
            .map_or(args.title.as_str(), |n| n);
        let options = crate::selfplay::SelfPlayOptions {
            optional_rules: args.optional_rules.clone(),
            end_game_after: args.end_game_after,
        };
        let played = match crate::selfplay::play_with(title, args.players, seed, policy, &options) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("railnote: {e}");
                return Ok(Outcome::Failed);
            }
        };
        // A game that ends in turn 100 with nothing left to happen (`dnf`) did not finish.
        let dnf = played.game.end_reason == Some(crate::engine::GameEndReason::Dnf);
        let finished = played.game.finished && !dnf;
        if !finished {
            outcome = Outcome::Rejected;
        }
        let log = json_log::game_log(&played.setup, seed, &played.actions, &played.game);
        let text = serde_json::to_string_pretty(&log)?;
        let summary = format!(
            "seed {seed}: {} after {} actions, {} ({})",
            if finished { "finished" } else { "unfinished" },
            played.actions.len(),
            played.game.round_label(),
            played
                .game
                .end_reason
                .map_or("no end", crate::engine::GameEndReason::as_str)
        );
        // The standings as `replay` ranks them, from the log written.
        let standings = || -> io::Result<ScoreReport> {
            let read = log::read_shared("selfplay", Arc::from(text.as_str()))
                .map_err(|e| io::Error::other(e.to_string()))?;
            Ok(ScoreReport::new(&played.game, &read))
        };
        if args.games > 1 {
            if let Some(dir) = &args.output {
                std::fs::create_dir_all(dir).map_err(|e| with_path(dir, e))?;
                let path = dir.join(format!("{seed}.json"));
                std::fs::write(&path, &text).map_err(|e| with_path(&path, e))?;
            }
            let mut out = stdout();
            match args.format {
                Format::Text => writeln!(out, "{summary}")?,
                // One object per game and line (JSON Lines).
                Format::Json => writeln!(
                    out,
                    "{}",
                    serde_json::json!({
                        "seed": seed,
                        "finished": finished,
                        "actions": played.actions.len(),
                        "round": played.game.round_label(),
                        "game_end_reason": played.game.end_reason.map(crate::engine::GameEndReason::as_str),
                        "result": standings()?.result,
                    })
                )?,
            }
            continue;
        }
        match (args.format, &args.output) {
            (Format::Json, Some(path)) => {
                std::fs::write(path, format!("{text}\n")).map_err(|e| with_path(path, e))?;
                eprintln!("{summary}");
            }
            (Format::Json, None) => {
                let mut out = stdout();
                writeln!(out, "{text}")?;
                out.flush()?;
            }
            (Format::Text, _) => {
                if let Some(path) = &args.output {
                    std::fs::write(path, format!("{text}\n")).map_err(|e| with_path(path, e))?;
                }
                let mut out = stdout();
                writeln!(out, "{summary}\n")?;
                write!(out, "{}", standings()?)?;
                out.flush()?;
            }
        }
    }
    Ok(outcome)
}
