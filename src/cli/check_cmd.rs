//! `railnote check PATH...`: checks game files (syntax and rules) at archive scale. Paths may
//! be files or directories (walked recursively, sorted by name within each directory); a file
//! found in a directory is checked when its content is an 18xx.games log or railnote notation,
//! and skipped (and counted) otherwise. Files are checked in parallel; the results come out in
//! the order of the paths whatever the scheduling, one line (or JSON object) per file, then a
//! summary.
//!
//! Memory stays bounded however many files: the paths are walked lazily, at most
//! [`CHUNK_PER_THREAD`] files per thread are handed out ahead of the one to print next, and a
//! file's text is dropped once it is checked.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use serde::Serialize;

use super::{import_game, input_name, notation_cmd::is_json, Format, Outcome, STDIN};
use crate::log::{shorten_quotes, Span};
use crate::notation;
use crate::replay::notation::{play, PlayOptions};
use crate::replay::{DeviationWarning, ReplayError};

/// Arguments of `railnote check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Files or directories (walked recursively: 18xx.games JSON logs and notation files are
    /// recognised by their content, other files skipped); `-` is standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Check at most N files at once (default: one per CPU).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Output format: a line per file, or a JSON object per file per line (then a summary
    /// object).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Follow the printed rules where 18xx.games does not: a move that breaks one is an error
    /// instead of a deviation warning.
    #[arg(long)]
    pub strict_rules: bool,
}

/// Files handed out but not yet printed, per worker thread: enough to keep every thread busy
/// while one file takes long, few enough to bound what waits to be printed in order.
const CHUNK_PER_THREAD: usize = 32;

/// How long printed results may wait in the output buffer.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// Checks `inputs` on this thread and the pool's, and hands each report to `emit` in the
/// inputs' order. A stream, not a batch at a time: a thread that finishes a file takes the next
/// one at once (waiting at each batch's end for its slowest file left a core idle), and at most
/// `window` files are out of order at any time, so memory stays bounded. This thread walks the
/// inputs, prints, and checks files itself in between: a thread that only printed would be
/// woken for every file, and on a machine with as many threads as cores each wake-up took a
/// core from a checking thread (a tenth more CPU time in all, with two cores).
fn in_order(
    pool: &rayon::ThreadPool,
    inputs: &mut dyn Iterator<Item = Input>,
    window: usize,
    check_one: &(dyn Fn(&Input) -> FileReport + Sync),
    emit: &mut dyn FnMut(Option<FileReport>) -> io::Result<()>,
) -> io::Result<()> {
    let (work, jobs) = mpsc::channel::<(usize, Input)>();
    let jobs = Mutex::new(jobs);
    let (done, reports) = mpsc::channel::<(usize, FileReport)>();
    pool.in_place_scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            let (jobs, done) = (&jobs, done.clone());
            scope.spawn(move |_| loop {
                // The lock is held only to take a job; a worker whose queue is gone stops.
                let job = jobs
                    .lock()
                    .map_err(|_| ())
                    .and_then(|j| j.recv().map_err(|_| ()));
                let Ok((index, input)) = job else { break };
                if done.send((index, check_one(&input))).is_err() {
                    break;
                }
            });
        }
        drop(done);
        let mut work = Some(work);
        let (mut handed, mut printed) = (0, 0);
        let mut waiting: BTreeMap<usize, FileReport> = BTreeMap::new();
        loop {
            while handed - printed < window {
                let Some(sender) = &work else { break };
                match inputs.next() {
                    Some(input) => {
                        // The workers outlive the loop: a send fails only if they all stopped.
                        if sender.send((handed, input)).is_err() {
                            break;
                        }
                        handed += 1;
                    }
                    // No more work: the workers stop once the queue is empty.
                    None => work = None,
                }
            }
            waiting.extend(reports.try_iter());
            while let Some(report) = waiting.remove(&printed) {
                printed += 1;
                emit(Some(report))?;
            }
            if printed == handed {
                match work {
                    None => return Ok(()),
                    // All printed that was handed out: more is handed out first.
                    Some(_) => continue,
                }
            }
            // A worker waiting for a job holds the lock while the queue is empty: this thread
            // then has no job to take either, and waits for a report instead of the lock.
            let job = jobs.try_lock().ok().and_then(|j| j.try_recv().ok());
            match job {
                Some((index, input)) => {
                    waiting.insert(index, check_one(&input));
                }
                None => {
                    let Ok((index, report)) = reports.recv() else {
                        return Err(io::Error::other("a checking thread stopped"));
                    };
                    waiting.insert(index, report);
                }
            }
        }
    })
}

/// How much of a file found in a directory is read to tell whether it is a game file: a binary
/// or a large file of another kind is never read whole.
const SNIFF_BYTES: u64 = 64 * 1024;

/// Files smaller than this get a buffer for all of them before the sniff (the largest game
/// logs are a few megabytes).
const WHOLE_READ_BYTES: u64 = 16 * 1024 * 1024;

/// `railnote check PATH...`.
pub(super) fn check(args: &CheckArgs) -> io::Result<Outcome> {
    let started = Instant::now();
    let threads = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let progress = Progress::start(&args.paths);
    let options = PlayOptions {
        strict_rules: args.strict_rules,
        keep_going: false,
    };
    let mut summary = Summary::default();
    let mut out = super::stdout();
    let mut inputs = inputs(&args.paths).peekable();
    let check_one = |input: &Input| {
        let report = check_input(input, options);
        progress.done(&report);
        report
    };
    // Lines go out in batches (a write per file would be a system call per file), at least
    // every tenth of a second, so that a long check shows its results as it goes.
    let mut text = Vec::new();
    let mut written = Instant::now();
    let mut emit = |report: Option<FileReport>| -> io::Result<()> {
        let last = report.is_none();
        if let Some(report) = report {
            summary.add(&report);
            match args.format {
                Format::Text => {
                    if let Some(line) = report.line() {
                        writeln!(text, "{line}")?;
                    }
                }
                Format::Json => {
                    if !matches!(report.outcome, FileOutcome::Skipped) {
                        serde_json::to_writer(&mut text, &Record::File(&report))?;
                        writeln!(text)?;
                    }
                }
            }
        }
        let due = last || text.len() >= 16 * 1024 || written.elapsed() >= FLUSH_EVERY;
        if due && !text.is_empty() {
            progress.suspend(|| out.write_all(&text))?;
            text.clear();
            written = Instant::now();
        }
        Ok(())
    };
    let first = inputs.next();
    let single = inputs.peek().is_none();
    let mut inputs = first.into_iter().chain(inputs);
    // One file, or one thread: checked on this thread (a pool's threads cost a single-file
    // check a third more CPU time).
    if threads == 1 || single {
        for input in inputs {
            emit(Some(check_one(&input)))?;
        }
    } else {
        // This thread checks files too (see `in_order`).
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .build()
            .map_err(io::Error::other)?;
        in_order(
            &pool,
            &mut inputs,
            CHUNK_PER_THREAD * threads,
            &check_one,
            &mut emit,
        )?;
    }
    emit(None)?;
    progress.finish();
    summary.elapsed = started.elapsed();
    match args.format {
        Format::Text => write!(out, "{summary}")?,
        Format::Json => {
            serde_json::to_writer(&mut out, &Record::Summary(&summary))?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    if summary.files == 0 {
        let _ = writeln!(
            io::stderr(),
            "railnote: no game files found ({} other files skipped)",
            summary.skipped
        );
        return Ok(Outcome::Rejected);
    }
    Ok(summary.outcome())
}

/// One input: a path named on the command line (checked whatever it holds), a file found in a
/// directory (checked if it is a game file), or a directory entry that could not be read.
#[derive(Debug)]
enum Input {
    Named(PathBuf),
    Found(PathBuf),
    Unwalkable(String, String),
}

/// The inputs in order: each path as given; a directory's files depth first, sorted by name
/// within each directory. Lazy: a directory is read when the walk gets to it.
fn inputs(paths: &[PathBuf]) -> impl Iterator<Item = Input> + '_ {
    paths
        .iter()
        .flat_map(|path| -> Box<dyn Iterator<Item = Input>> {
            if path.as_os_str() == STDIN || !path.is_dir() {
                return Box::new(std::iter::once(Input::Named(path.clone())));
            }
            let walk = walkdir::WalkDir::new(path)
                .follow_links(true)
                .sort_by_file_name();
            Box::new(walk.into_iter().filter_map(|entry| match entry {
                Ok(e) if e.file_type().is_dir() => None,
                Ok(e) => Some(Input::Found(e.into_path())),
                Err(e) => {
                    let at = e
                        .path()
                        .map_or_else(|| path.display().to_string(), |p| p.display().to_string());
                    // walkdir's message repeats the path; the I/O error alone does not.
                    let why = match e.io_error() {
                        Some(io) => io.to_string(),
                        None => e.to_string(),
                    };
                    Some(Input::Unwalkable(at, why))
                }
            }))
        })
}

/// What checking one file found.
#[derive(Debug)]
struct FileReport {
    name: String,
    outcome: FileOutcome,
}

#[derive(Debug)]
enum FileOutcome {
    /// Found in a directory and not a game file.
    Skipped,
    /// The file could not be read.
    Unread(String),
    /// The file was read and its games replayed.
    Checked(Checked),
}

/// The verdict on a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Verdict {
    /// Every game is legal.
    Legal,
    /// A game breaks the rules (or its setup is not allowed).
    Illegal,
    /// The file is not a readable game log or notation.
    Unreadable,
    /// The file could not be read (I/O).
    Error,
}

/// The format a file was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum SourceFormat {
    Json,
    Notation,
}

#[derive(Debug)]
struct Checked {
    format: SourceFormat,
    title: Option<String>,
    games: Games,
    /// Top-level actions replayed (up to a rejected one).
    actions: usize,
    warnings: Vec<WarningRecord>,
    error: Option<ErrorRecord>,
    /// Notation: the round the last legal game ends in.
    ends_in: Option<String>,
}

/// Games by verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
struct Games {
    legal: usize,
    illegal: usize,
    unreadable: usize,
}

impl Games {
    fn total(self) -> usize {
        self.legal + self.illegal + self.unreadable
    }
}

/// The first failure of a file, located.
#[derive(Debug, Serialize)]
struct ErrorRecord {
    /// 1-based game of the file (notation files may hold several).
    game: usize,
    /// 1-based count of the offending top-level action (none for an unreadable file or a
    /// setup the title does not allow).
    index: Option<usize>,
    /// 1-based line and column in the file.
    line: usize,
    column: usize,
    /// The diagnostic code (`rules::not_your_turn`, `log::syntax`, `notation::invalid`, …).
    rule: String,
    /// One line.
    message: String,
}

/// A deviation warning, located.
#[derive(Debug, Serialize)]
struct WarningRecord {
    game: usize,
    index: usize,
    action_id: i64,
    line: usize,
    column: usize,
    round: String,
    actor: String,
    rule: &'static str,
    message: String,
}

impl WarningRecord {
    fn new(game: usize, src: &str, w: &DeviationWarning) -> WarningRecord {
        let (line, column) = w.span.line_col(src);
        WarningRecord {
            game,
            index: w.index,
            action_id: w.action_id,
            line,
            column,
            round: w.round.clone(),
            actor: w.actor.clone(),
            rule: w.rule(),
            message: w.message(),
        }
    }
}

impl ErrorRecord {
    fn new(game: usize, index: Option<usize>, at: (usize, usize), rule: &str, msg: String) -> Self {
        ErrorRecord {
            game,
            index,
            line: at.0,
            column: at.1,
            rule: rule.to_string(),
            message: shorten_quotes(msg),
        }
    }
}

/// Reads and checks one input.
fn check_input(input: &Input, options: PlayOptions) -> FileReport {
    let (name, read) = match input {
        Input::Named(path) => (input_name(path), super::read_unnamed(path).map(Some)),
        Input::Found(path) => (path.display().to_string(), read_game_file(path)),
        Input::Unwalkable(name, why) => {
            return FileReport {
                name: name.clone(),
                outcome: FileOutcome::Unread(why.clone()),
            }
        }
    };
    let outcome = match read {
        Err(e) => FileOutcome::Unread(e.to_string()),
        Ok(None) => FileOutcome::Skipped,
        Ok(Some(src)) if is_json(&src) => FileOutcome::Checked(check_log(&name, &src, options)),
        Ok(Some(src)) => FileOutcome::Checked(check_notation(&name, &src, options)),
    };
    FileReport { name, outcome }
}

/// The text of a file found in a directory if it is a game file: a JSON object with an
/// `actions` array, a `.rn` file, or text that starts (after comments) with a notation tag.
fn read_game_file(path: &Path) -> io::Result<Option<Arc<str>>> {
    let mut file = File::open(path)?;
    // Room for the whole file and one byte more at once, so that neither the sniff nor the
    // rest of the read grows the buffer (growing it copied what was read), unless the file is
    // larger than a game log gets: then room for the sniff, and more only if it is one. Room
    // not read into is never touched.
    let size = file.metadata().map_or(0, |m| m.len());
    let room = if size < WHOLE_READ_BYTES {
        size + 1
    } else {
        SNIFF_BYTES
    };
    let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    (&mut file).take(SNIFF_BYTES).read_to_end(&mut bytes)?;
    let head = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let start = head.iter().position(|b| !b.is_ascii_whitespace());
    let json = start.is_some_and(|i| head[i] == b'{');
    let notation = path.extension().is_some_and(|e| e == "rn") || starts_with_tag(head);
    if !json && !notation || has_zero(head) {
        return Ok(None);
    }
    // One byte more than the file's size, so that reading its end needs no growth.
    bytes.reserve(usize::try_from(size.saturating_sub(bytes.len() as u64)).unwrap_or(0) + 1);
    file.read_to_end(&mut bytes)?;
    if json && !has_actions_key(&bytes) {
        return Ok(None);
    }
    Ok(Some(super::decode_text(bytes)))
}

/// Whether `bytes` has a zero byte. Sixty-four bytes at a time without an early exit, which
/// the compiler turns into vector instructions; `contains` looks at two words at a time, and
/// a game file has no zero byte: every byte of its head is looked at.
fn has_zero(bytes: &[u8]) -> bool {
    let (chunks, rest) = bytes.as_chunks::<64>();
    chunks
        .iter()
        .any(|chunk| chunk.iter().fold(false, |zero, b| zero | (*b == 0)))
        || rest.contains(&0)
}

/// Whether notation text starts with a tag (`[Title "…"]`), after blank space and comments.
fn starts_with_tag(text: &[u8]) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_ascii_start();
        match rest.first() {
            Some(b'{') => match rest.iter().position(|&b| b == b'}') {
                Some(end) => rest = &rest[end + 1..],
                None => return false,
            },
            Some(b';') => match rest.iter().position(|&b| b == b'\n') {
                Some(end) => rest = &rest[end + 1..],
                None => return false,
            },
            Some(b'[') => {
                let after = &rest[1..];
                let name = after
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                return name > 0 && after[name..].trim_ascii_start().first() == Some(&b'"');
            }
            _ => return false,
        }
    }
}

/// Whether a JSON text has an `"actions": [` member somewhere (an 18xx.games log has one at
/// its top level; other JSON files, the reference's traces among them, do not).
fn has_actions_key(text: &[u8]) -> bool {
    const KEY: &[u8] = b"\"actions\"";
    text.windows(KEY.len()).enumerate().any(|(i, w)| {
        w == KEY && {
            let rest = text[i + KEY.len()..].trim_ascii_start();
            rest.first() == Some(&b':') && rest[1..].trim_ascii_start().first() == Some(&b'[')
        }
    })
}

/// Checks an 18xx.games JSON log.
fn check_log(name: &str, src: &Arc<str>, options: PlayOptions) -> Checked {
    let mut checked = Checked {
        format: SourceFormat::Json,
        title: None,
        games: Games::default(),
        actions: 0,
        warnings: Vec::new(),
        error: None,
        ends_in: None,
    };
    let log = match import_game(name, src) {
        Ok(log) => log,
        Err(e) => {
            let at = e.problems.first().map_or(Span::new(0, 0), |p| p.span);
            checked.games.unreadable = 1;
            checked.error = Some(ErrorRecord::new(
                1,
                None,
                at.line_col(src),
                e.first_code(),
                e.to_string(),
            ));
            return checked;
        }
    };
    checked.title = Some(log.title.name.clone());
    match crate::replay::replay_with_warnings(&log, options.strict_rules) {
        Ok(replayed) => {
            checked.actions = log.actions.len();
            checked.warnings = warnings(1, src, &replayed.warnings);
            match crate::replay::check_result(&log, &replayed.game) {
                Ok(()) => checked.games.legal = 1,
                Err(mismatch) => {
                    checked.games.illegal = 1;
                    let at = mismatch.labels.first().map_or(Span::new(0, 0), |(s, _)| *s);
                    checked.error = Some(ErrorRecord::new(
                        1,
                        None,
                        at.line_col(src),
                        "rules::result_mismatch",
                        mismatch.to_string(),
                    ));
                }
            }
        }
        Err(e) => {
            checked.games.illegal = 1;
            checked.error = Some(match &e {
                ReplayError::Illegal(i) => {
                    checked.actions = i.index - 1;
                    ErrorRecord::new(
                        1,
                        Some(i.index),
                        i.span.line_col(src),
                        i.rule(),
                        format!("{e}: {}", i.violation),
                    )
                }
                ReplayError::Setup(s) => ErrorRecord::new(
                    1,
                    None,
                    s.span.line_col(src),
                    "replay::setup",
                    e.to_string(),
                ),
            });
        }
    }
    checked
}

fn warnings(game: usize, src: &str, found: &[DeviationWarning]) -> Vec<WarningRecord> {
    found
        .iter()
        .map(|w| WarningRecord::new(game, src, w))
        .collect()
}

/// Checks every game of a notation file (a rejected game does not stop the next one).
fn check_notation(name: &str, src: &Arc<str>, options: PlayOptions) -> Checked {
    let mut checked = Checked {
        format: SourceFormat::Notation,
        title: None,
        games: Games::default(),
        actions: 0,
        warnings: Vec::new(),
        error: None,
        ends_in: None,
    };
    let doc = match notation::parse(name, src) {
        Ok(doc) => doc,
        Err(e) => {
            checked.games.unreadable = 1;
            checked.error = Some(match e.errors.first() {
                None => ErrorRecord::new(1, None, (1, 1), "notation::invalid", e.to_string()),
                Some(first) => {
                    let at = first.span.line_col(src);
                    let more = match e.count() - 1 {
                        0 => String::new(),
                        n => format!(" (and {n} more)"),
                    };
                    let msg = format!("line {}:{}: {}{more}", at.0, at.1, first.message);
                    ErrorRecord::new(1, None, at, "notation::invalid", msg)
                }
            });
            return checked;
        }
    };
    if doc.games.iter().all(notation::GameText::is_comments_only) {
        // Nothing to check is not a legal game: an empty file, or one of comments only, is
        // most likely the wrong file.
        checked.games.unreadable = 1;
        checked.error = Some(ErrorRecord::new(
            1,
            None,
            (1, 1),
            "notation::no_game",
            "no game in the file".to_string(),
        ));
        return checked;
    }
    // Comments before the first game's tags are a part of the file, not a game.
    let games: Vec<_> = doc.games.iter().filter(|g| !g.is_comments_only()).collect();
    let several = games.len() > 1;
    for (k, text) in games.into_iter().enumerate() {
        let game = k + 1;
        let in_game = |msg: String| match several {
            true => format!("game {game}: {msg}"),
            false => msg,
        };
        let failure = match play(name, src, text, options) {
            Err(e) => {
                // A game without its tags is no game to check; one its title does not allow
                // is an illegal one.
                if e.code.as_str().starts_with("notation::") {
                    checked.games.unreadable += 1;
                } else {
                    checked.games.illegal += 1;
                }
                Some(ErrorRecord::new(
                    game,
                    None,
                    e.span.line_col(src),
                    e.code.as_str(),
                    in_game(e.label.clone()),
                ))
            }
            Ok(played) => {
                checked
                    .title
                    .get_or_insert_with(|| played.game.title.name.clone());
                checked.actions += played.log.actions.len();
                checked
                    .warnings
                    .extend(warnings(game, src, &played.warnings));
                match played.errors.first() {
                    None => {
                        checked.games.legal += 1;
                        checked.ends_in = Some(played.game.round_label());
                        None
                    }
                    Some(first) => {
                        checked.games.illegal += 1;
                        let more = match played.errors.len() + played.omitted - 1 {
                            0 => String::new(),
                            n => format!(" (and {n} more)"),
                        };
                        Some(ErrorRecord::new(
                            game,
                            Some(first.index),
                            first.span.line_col(src),
                            first.code.as_str(),
                            in_game(format!("{}: {}{more}", first.headline, first.label)),
                        ))
                    }
                }
            }
        };
        if checked.error.is_none() {
            checked.error = failure;
        }
    }
    checked
}

impl FileReport {
    fn verdict(&self) -> Option<Verdict> {
        match &self.outcome {
            FileOutcome::Skipped => None,
            FileOutcome::Unread(_) => Some(Verdict::Error),
            FileOutcome::Checked(c) if c.games.unreadable > 0 && c.games.total() == 1 => {
                Some(Verdict::Unreadable)
            }
            FileOutcome::Checked(c) if c.error.is_some() => Some(Verdict::Illegal),
            FileOutcome::Checked(_) => Some(Verdict::Legal),
        }
    }

    /// The file's line of text output (none for a skipped file).
    fn line(&self) -> Option<String> {
        let name = &self.name;
        match &self.outcome {
            FileOutcome::Skipped => None,
            FileOutcome::Unread(e) => Some(format!("{name}: error: {e}")),
            FileOutcome::Checked(c) => Some(match &c.error {
                Some(e) => format!("{name}: error[{}]: {}", e.rule, e.message),
                None => {
                    let warned = match c.warnings.len() {
                        0 => String::new(),
                        1 => ", 1 deviation warning".to_string(),
                        n => format!(", {n} deviation warnings"),
                    };
                    match c.format {
                        SourceFormat::Json => format!("{name}: ok ({} actions{warned})", c.actions),
                        SourceFormat::Notation => format!(
                            "{name}: ok ({} game(s), {} actions, ends in {}{warned})",
                            c.games.legal,
                            c.actions,
                            c.ends_in.as_deref().unwrap_or("?")
                        ),
                    }
                }
            }),
        }
    }
}

/// A line of JSON output: `{"type": "file", "data": {…}}` per file, then `{"type": "summary",
/// "data": {…}}`.
#[derive(Serialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
enum Record<'a> {
    File(&'a FileReport),
    Summary(&'a Summary),
}

impl Serialize for FileReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// The wire form of a file's result; every key is always present.
        #[derive(Serialize)]
        struct Wire<'a> {
            path: &'a str,
            verdict: Option<Verdict>,
            format: Option<SourceFormat>,
            title: Option<&'a str>,
            games: Games,
            actions: usize,
            warnings: &'a [WarningRecord],
            error: Option<&'a ErrorRecord>,
        }
        let checked = match &self.outcome {
            FileOutcome::Checked(c) => Some(c),
            _ => None,
        };
        let unread = match &self.outcome {
            FileOutcome::Unread(e) => Some(ErrorRecord {
                game: 1,
                index: None,
                line: 0,
                column: 0,
                rule: "io::read".to_string(),
                message: e.clone(),
            }),
            _ => None,
        };
        Wire {
            path: &self.name,
            verdict: self.verdict(),
            format: checked.map(|c| c.format),
            title: checked.and_then(|c| c.title.as_deref()),
            games: checked.map_or(
                Games {
                    unreadable: usize::from(unread.is_some()),
                    ..Games::default()
                },
                |c| c.games,
            ),
            actions: checked.map_or(0, |c| c.actions),
            warnings: checked.map_or(&[], |c| &c.warnings),
            error: checked.and_then(|c| c.error.as_ref()).or(unread.as_ref()),
        }
        .serialize(s)
    }
}

/// The counts of a whole run.
#[derive(Debug, Default)]
struct Summary {
    /// Game files checked (named files included, skipped files not).
    files: usize,
    /// Files found in directories that are not game files.
    skipped: usize,
    /// Files that could not be read.
    errors: usize,
    games: Games,
    /// Top-level actions replayed.
    actions: u64,
    /// Deviation warnings.
    warnings: u64,
    elapsed: Duration,
}

impl Serialize for Summary {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// The wire form of the summary.
        #[derive(Serialize)]
        struct Wire {
            files: usize,
            skipped: usize,
            errors: usize,
            games: Games,
            actions: u64,
            warnings: u64,
            seconds: f64,
            actions_per_second: u64,
        }
        Wire {
            files: self.files,
            skipped: self.skipped,
            errors: self.errors,
            games: self.games,
            actions: self.actions,
            warnings: self.warnings,
            seconds: (self.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
            actions_per_second: self.rate(),
        }
        .serialize(s)
    }
}

impl Summary {
    fn add(&mut self, report: &FileReport) {
        match &report.outcome {
            FileOutcome::Skipped => self.skipped += 1,
            FileOutcome::Unread(_) => {
                self.files += 1;
                self.errors += 1;
                self.games.unreadable += 1;
            }
            FileOutcome::Checked(c) => {
                self.files += 1;
                self.games.legal += c.games.legal;
                self.games.illegal += c.games.illegal;
                self.games.unreadable += c.games.unreadable;
                self.actions += c.actions as u64;
                self.warnings += c.warnings.len() as u64;
            }
        }
    }

    fn rate(&self) -> u64 {
        match self.elapsed.as_secs_f64() {
            s if s > 0.0 => (self.actions as f64 / s).round() as u64,
            _ => 0,
        }
    }

    fn outcome(&self) -> Outcome {
        if self.errors > 0 {
            Outcome::Failed
        } else if self.games.illegal + self.games.unreadable > 0 {
            Outcome::Rejected
        } else {
            Outcome::Legal
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let g = self.games;
        write!(f, "checked {} file(s)", self.files)?;
        if self.skipped > 0 {
            write!(f, ", skipped {} other file(s)", self.skipped)?;
        }
        writeln!(
            f,
            ": {} game(s) legal, {} illegal, {} unreadable",
            g.legal, g.illegal, g.unreadable
        )?;
        writeln!(
            f,
            "{} actions replayed, {} deviation warning(s), in {:.2} s ({} actions/s)",
            self.actions,
            self.warnings,
            self.elapsed.as_secs_f64(),
            self.rate()
        )
    }
}

/// The progress bar, on a terminal only: files done of those found so far (a thread counts
/// them ahead of the checks), games per second, elapsed time and the time left.
struct Progress {
    bar: Option<ProgressBar>,
    games: Arc<AtomicU64>,
}

impl Progress {
    fn start(paths: &[PathBuf]) -> Progress {
        let games = Arc::new(AtomicU64::new(0));
        if !io::stderr().is_terminal() {
            return Progress { bar: None, games };
        }
        let counted = Arc::clone(&games);
        let style = ProgressStyle::with_template(
            "{bar:30} {pos}/{len} files  {games_per_sec} games/s  {elapsed_precise}  ETA {eta}",
        )
        .expect("a valid template")
        .with_key(
            "games_per_sec",
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let secs = state.elapsed().as_secs_f64();
                let done = counted.load(Ordering::Relaxed) as f64;
                let _ = write!(w, "{:.0}", if secs > 0.0 { done / secs } else { 0.0 });
            },
        );
        let bar =
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr()).with_style(style);
        let counter = bar.clone();
        let paths = paths.to_vec();
        std::thread::spawn(move || {
            for (i, _) in inputs(&paths).enumerate() {
                counter.inc_length(1);
                // Drawn from the first file found on: an empty bar would be drawn full.
                if i == 0 {
                    counter.enable_steady_tick(Duration::from_millis(200));
                }
            }
        });
        Progress {
            bar: Some(bar),
            games,
        }
    }

    fn done(&self, report: &FileReport) {
        if let Some(bar) = &self.bar {
            if let FileOutcome::Checked(c) = &report.outcome {
                self.games
                    .fetch_add(c.games.total() as u64, Ordering::Relaxed);
            }
            bar.inc(1);
        }
    }

    fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_byte_is_found_wherever_it_is() {
        for len in [0, 1, 63, 64, 65, 128, 200] {
            let clean = vec![b'x'; len];
            assert!(!has_zero(&clean), "{len}");
            for at in 0..len {
                let mut bytes = clean.clone();
                bytes[at] = 0;
                assert!(has_zero(&bytes), "{len} {at}");
            }
        }
    }
}
