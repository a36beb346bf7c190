//! Replays a corpus of reference games against the reference's traces and groups the first
//! differences: the loop that brings a title up to 18xx.games' behaviour.
//!
//! ```text
//! cargo run --release --example reference_games -- DIR... [--show N] [--list]
//! ```
//!
//! Each `DIR` is searched recursively for game logs (`*.json`) with a trace beside them
//! (`<name>.jsonl`, from `../shared/oracle/trace.rb`; games from `random_play.rb` plus their
//! traces, or a title's fixtures with `--traces DIR`). For each game the state after every
//! processed action is compared with the trace, and the end (finished, result, end reason) with
//! the trace's final line. Prints the figures (games, actions, states, time), then the
//! failures grouped by rule or field, most frequent first, with `--show N` examples each
//! (default 3); `--list` prints every failing game. Exits 1 if any game differs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[path = "../tests/reference/trace.rs"]
mod trace;

use trace::{compare, Verdict};

fn logs_in(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("{}: not a readable directory", dir.display());
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            logs_in(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

fn main() {
    let mut dirs = Vec::new();
    let mut show = 3;
    let mut list = false;
    let mut traces: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--show" => show = args.next().and_then(|n| n.parse().ok()).unwrap_or(3),
            "--list" => list = true,
            "--traces" => traces = args.next().map(PathBuf::from),
            _ => dirs.push(PathBuf::from(arg)),
        }
    }
    if dirs.is_empty() {
        eprintln!("usage: reference_games DIR... [--traces DIR] [--show N] [--list]");
        std::process::exit(2);
    }
    let mut logs = Vec::new();
    for dir in &dirs {
        logs_in(dir, &mut logs);
    }
    let start = Instant::now();
    let (mut games, mut actions, mut states, mut agree) = (0, 0, 0, 0);
    let mut groups: BTreeMap<String, Vec<(PathBuf, Verdict)>> = BTreeMap::new();
    for log in logs {
        let trace_path = match &traces {
            Some(dir) => dir.join(log.with_extension("jsonl").file_name().unwrap()),
            None => log.with_extension("jsonl"),
        };
        if !trace_path.exists() {
            continue;
        }
        let found = compare(&log, &trace_path);
        games += 1;
        actions += found.actions;
        states += found.states;
        match found.verdict.group() {
            None => agree += 1,
            Some(group) => groups.entry(group).or_default().push((log, found.verdict)),
        }
    }
    println!(
        "{games} games, {agree} agree, {} differ; {actions} actions, {states} states equal; {:.1}s",
        games - agree,
        start.elapsed().as_secs_f64()
    );
    let mut ranked: Vec<_> = groups.into_iter().collect();
    ranked.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    for (group, failures) in &ranked {
        println!("\n{} × {group}", failures.len());
        let shown = if list { failures.len() } else { show };
        for (path, verdict) in failures.iter().take(shown) {
            let where_ = match verdict {
                Verdict::Rejected {
                    index,
                    action_id,
                    message,
                    ..
                } => format!("#{index} (id {action_id})\n{message}"),
                Verdict::StateDiffers {
                    index,
                    action_id,
                    detail,
                    ..
                } => format!("after #{index} (id {action_id}): {detail}"),
                Verdict::Unreadable(m) | Verdict::EndDiffers(m) => m.clone(),
                Verdict::Agrees => String::new(),
            };
            println!("  {}: {where_}", path.display());
        }
    }
    if agree != games {
        std::process::exit(1);
    }
}
