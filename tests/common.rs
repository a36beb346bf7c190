use std::io::Write as _;
use std::path::{Path, PathBuf};

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
///
/// Games ended by 18xx.games' "End Game" button ([`ends_by_end_game_button`]) are left out:
/// railnote does not read that action yet (it is being added on another branch);
/// `conformance::fixtures_ended_by_the_end_game_button_wait_for_it` checks that this is why.
pub fn fixtures(shared: &Path, title: &str) -> Vec<PathBuf> {
    all_fixtures(shared, title)
        .into_iter()
        .filter(|p| !ends_by_end_game_button(p))
        .collect()
}

/// Every fixture file of a title, sorted by name.
pub fn all_fixtures(shared: &Path, title: &str) -> Vec<PathBuf> {
    let dir = std::env::var_os("RAILNOTE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared.join("fixtures"))
        .join(title);
    files_in(&dir, "json")
}

/// Whether a game log holds an `end_game` action (18xx.games' "End Game" button).
pub fn ends_by_end_game_button(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let Ok(log) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    log["actions"]
        .as_array()
        .is_some_and(|actions| actions.iter().any(|a| a["type"] == "end_game"))
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
