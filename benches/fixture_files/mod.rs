//! The shared fixtures the benchmarks read (never copied into the package).

use std::path::{Path, PathBuf};

/// The shared data directory: `$RAILNOTE_SHARED`, or `../shared` beside the package.
pub fn shared() -> PathBuf {
    std::env::var_os("RAILNOTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// The fixture logs of a title (`$RAILNOTE_FIXTURES/<title>`, or the shared directory's
/// `fixtures/<title>`), sorted by name; none (after saying so) when the folder is absent.
pub fn fixtures(title: &str) -> Vec<PathBuf> {
    let dir = std::env::var_os("RAILNOTE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared().join("fixtures"))
        .join(title);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} not found (set RAILNOTE_SHARED)", dir.display());
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}
