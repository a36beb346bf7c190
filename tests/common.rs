use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

/// The shared data directory (fixtures, traces): `$RAILNOTE_SHARED`, or the parent of
/// `$RAILNOTE_FIXTURES`, or `../shared` beside the package. `None` (after saying so) if absent.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = if let Some(dir) = std::env::var_os("RAILNOTE_SHARED") {
        PathBuf::from(dir)
    } else if let Some(fixtures) = std::env::var_os("RAILNOTE_FIXTURES") {
        Path::new(&fixtures)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
    };
    if dir.join("fixtures").is_dir() {
        Some(dir)
    } else {
        // Written past the test harness's capture so that a skip is visible in every run.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: {} not found (set RAILNOTE_SHARED)",
            dir.display()
        );
        None
    }
}

/// The fixture files of a title, sorted by name.
pub fn fixtures(shared: &Path, title: &str) -> Vec<PathBuf> {
    let dir = std::env::var_os("RAILNOTE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared.join("fixtures"))
        .join(title);
    files_in(&dir, "json")
}

/// The files of a directory with this extension, sorted by name.
pub fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// A diagnostic rendered without colours at width 80, for snapshots.
pub fn render(diagnostic: &dyn Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .render_report(&mut out, diagnostic)
        .unwrap();
    out
}

/// Notation replay options that report every illegal move.
pub const KEEP_GOING: railnote::replay::notation::PlayOptions =
    railnote::replay::notation::PlayOptions {
        keep_going: true,
        strict_rules: false,
    };

/// The `railnote` binary, run in the package directory.
pub fn railnote_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_railnote"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// Runs `railnote` with these arguments in the package directory.
pub fn railnote(args: &[&str]) -> Output {
    railnote_command().args(args).output().unwrap()
}

/// Runs `railnote` with `input` on its standard input.
pub fn railnote_with_stdin(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = railnote_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The exit code (the process exited, it was not killed by a signal).
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited, not killed by a signal")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A scratch file `name` in the folder `module` under the target's temporary directory (one
/// folder per test module, so that names do not collide).
pub fn scratch_in(module: &str, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(module);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}
