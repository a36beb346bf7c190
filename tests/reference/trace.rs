//! Comparing a replay with the reference engine's trace of the same log
//! (`<shared>/traces/<title>/<game>.jsonl`, written by `oracle/trace.rb`: a header line, one line
//! per raw action with `processed` true/false, then a `final` line). Shared by the conformance
//! tests and the `reference_games` example, which runs it over whole corpora.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::Path;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use railnote::ids::Money;
use railnote::log;
use railnote::output::{ScoreReport, Snapshot};
use railnote::replay::Replay;
use serde_json::{json, Value};

/// A reference trace: the state before the first action and after every processed one.
pub struct Trace {
    pub initial: Value,
    /// Processed lines by source action id.
    pub processed: BTreeMap<i64, Value>,
    /// The `final` line: result and end reason as the reference computed them.
    pub last: Option<Value>,
}

/// Reads a trace; `None` if the file is missing or unreadable.
pub fn load_trace(path: &Path) -> Option<Trace> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok());
    let header = lines.next()?;
    let mut processed = BTreeMap::new();
    let mut last = None;
    for line in lines {
        if line["final"] == json!(true) {
            last = Some(line);
        } else if line["processed"] == json!(true) {
            processed.insert(line["id"].as_i64()?, line);
        }
    }
    Some(Trace {
        initial: header["initial_state"].clone(),
        processed,
        last,
    })
}

/// Player ids are integers in the traces and strings in our output.
pub fn id_text(v: &Value) -> Value {
    match v {
        Value::Number(n) => Value::String(n.to_string()),
        other => other.clone(),
    }
}

/// `Auction Round 1.1` → `PR`, `Stock Round 3` → `SR 3`, `Operating Round 4.2` → `OR 4.2`.
pub fn round_label(reference: &str) -> String {
    let (name, num) = reference.rsplit_once(' ').unwrap_or((reference, ""));
    match name {
        "Auction Round" => "PR".to_string(),
        "Stock Round" => format!("SR {num}"),
        "Operating Round" => format!("OR {num}"),
        "Merger Round" => format!("MR {num}"),
        other => format!("{other} {num}"),
    }
}

/// The compared fields of a state in one order, as `(path, value)`; `round` is given in our
/// notation. Works on our snapshot JSON and on trace lines alike (same field names).
pub fn fields(state: &Value, round: String) -> Vec<(String, Value)> {
    let mut out = vec![
        ("phase".to_string(), state["phase"].clone()),
        ("round".to_string(), json!(round)),
        ("bank_cash".to_string(), state["bank_cash"].clone()),
    ];
    for p in state["players"].as_array().into_iter().flatten() {
        let id = id_text(&p["id"]);
        let id = id.as_str().unwrap_or("?");
        for key in ["cash", "shares", "companies", "bankrupt"] {
            out.push((format!("players[{id}].{key}"), p[key].clone()));
        }
    }
    for c in state["corporations"].as_array().into_iter().flatten() {
        let id = c["id"].as_str().unwrap_or("?");
        out.push((
            format!("corporations[{id}].president"),
            id_text(&c["president"]),
        ));
        for key in [
            "cash",
            "share_price",
            "floated",
            "ipo_percent",
            "pool_percent",
            "trains",
            "tokens",
        ] {
            out.push((format!("corporations[{id}].{key}"), c[key].clone()));
        }
    }
    for c in state["companies"].as_array().into_iter().flatten() {
        let id = c["id"].as_str().unwrap_or("?");
        out.push((format!("companies[{id}].owner"), id_text(&c["owner"])));
        out.push((format!("companies[{id}].closed"), c["closed"].clone()));
    }
    out.push(("tiles".to_string(), state["tiles"].clone()));
    out
}

pub fn reference_fields(line: &Value) -> Vec<(String, Value)> {
    let label = line["round_label"].as_str().unwrap_or("");
    fields(line, round_label(label))
}

pub fn our_fields(snapshot: &Snapshot) -> Vec<(String, Value)> {
    fields(
        &serde_json::to_value(snapshot).unwrap(),
        snapshot.round.clone(),
    )
}

/// The first differing field, as `field: ours … vs reference …`.
pub fn first_difference(ours: &[(String, Value)], reference: &[(String, Value)]) -> Option<String> {
    first_difference_at(ours, reference).map(|(_, text)| text)
}

/// The first differing field: its path and `field: ours … vs reference …`.
pub fn first_difference_at(
    ours: &[(String, Value)],
    reference: &[(String, Value)],
) -> Option<(String, String)> {
    let theirs: BTreeMap<&str, &Value> = reference.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mine: BTreeSet<&str> = ours.iter().map(|(k, _)| k.as_str()).collect();
    for (key, value) in ours {
        match theirs.get(key.as_str()) {
            Some(r) if *r == value => {}
            Some(r) => return Some((key.clone(), format!("{key}: ours {value} vs reference {r}"))),
            None => {
                return Some((
                    key.clone(),
                    format!("{key}: ours {value}, not in the reference"),
                ))
            }
        }
    }
    reference
        .iter()
        .find(|(k, _)| !mine.contains(k.as_str()))
        .map(|(k, v)| (k.clone(), format!("{k}: missing from ours, reference {v}")))
}

/// The final scores a log states, by player id.
pub fn stored_result(log: &log::GameLog) -> BTreeMap<String, Money> {
    log.header
        .result
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, Money(v.value)))
        .collect()
}

/// A diagnostic rendered without colours at width 80.
pub fn render(diagnostic: &dyn Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .render_report(&mut out, diagnostic)
        .unwrap();
    out
}

/// How a game compared with its trace.
#[derive(Debug)]
pub enum Verdict {
    /// Every state equal, and (for a finished game) the result and end reason too.
    Agrees,
    /// The log could not be read or the game set up.
    Unreadable(String),
    /// railnote rejected an action the reference processed.
    Rejected {
        /// The 1-based index of the processed action.
        index: usize,
        action_id: i64,
        action_type: String,
        /// The rule code (`rules::wrong_step`).
        code: String,
        /// The diagnostic's first lines.
        message: String,
    },
    /// A state differs after an action.
    StateDiffers {
        index: usize,
        action_id: i64,
        action_type: String,
        /// The differing field with player and corporation ids replaced by `*`.
        field: String,
        detail: String,
    },
    /// Every state equal, but the end differs.
    EndDiffers(String),
}

impl Verdict {
    /// The key failures are grouped by: the rule or field and the action type.
    pub fn group(&self) -> Option<String> {
        match self {
            Verdict::Agrees => None,
            Verdict::Unreadable(m) => {
                Some(format!("unreadable: {}", m.lines().next().unwrap_or("")))
            }
            Verdict::Rejected {
                action_type, code, ..
            } => Some(format!("rejected {action_type}: {code}")),
            Verdict::StateDiffers {
                action_type, field, ..
            } => Some(format!("state after {action_type}: {field}")),
            Verdict::EndDiffers(_) => Some("end differs".to_string()),
        }
    }
}

/// What a comparison found, with the figures of the run.
#[derive(Debug)]
pub struct Comparison {
    pub verdict: Verdict,
    /// Actions processed by railnote.
    pub actions: usize,
    /// States compared equal with the trace.
    pub states: usize,
}

/// `players[3].cash` → `players[*].cash`: the field without the entity.
fn field_kind(path: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for ch in path.chars() {
        match ch {
            '[' => {
                inside = true;
                out.push_str("[*]");
            }
            ']' => inside = false,
            _ if inside => {}
            _ => out.push(ch),
        }
    }
    out
}

/// Replays the log at `path` and compares the state after every processed action with the
/// trace, over the fields the trace records (its 18Ireland traces leave out closed
/// corporations); a finished game must also end with the log's stored result and end reason.
pub fn compare(path: &Path, trace_path: &Path) -> Comparison {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let unreadable = |m: String| Comparison {
        verdict: Verdict::Unreadable(m),
        actions: 0,
        states: 0,
    };
    let src = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return unreadable(format!("{name}: {e}")),
    };
    let log = match log::read(&name, &src) {
        Ok(l) => l,
        Err(e) => return unreadable(render(&e)),
    };
    let Some(trace) = load_trace(trace_path) else {
        return unreadable(format!("{}: no trace", trace_path.display()));
    };
    let mut replay = match Replay::new(&log) {
        Ok(r) => r,
        Err(e) => return unreadable(render(&e)),
    };
    let mut states = 0;
    let mut verdict = None;
    let outcome = replay.run_with(|step, game| {
        let Some(reference) = trace.processed.get(&step.action.action_id) else {
            verdict = Some(Verdict::StateDiffers {
                index: step.index,
                action_id: step.action.action_id,
                action_type: step.action.type_name.to_string(),
                field: "processed".to_string(),
                detail: "not a processed action of the reference trace".to_string(),
            });
            return ControlFlow::Break(());
        };
        let theirs = reference_fields(reference);
        let keys: BTreeSet<&str> = theirs.iter().map(|(k, _)| k.as_str()).collect();
        let ours: Vec<_> = our_fields(&Snapshot::after(game, &log, step))
            .into_iter()
            .filter(|(k, _)| keys.contains(k.as_str()))
            .collect();
        match first_difference_at(&ours, &theirs) {
            None => {
                states += 1;
                ControlFlow::Continue(())
            }
            Some((field, detail)) => {
                verdict = Some(Verdict::StateDiffers {
                    index: step.index,
                    action_id: step.action.action_id,
                    action_type: step.action.type_name.to_string(),
                    field: field_kind(&field),
                    detail,
                });
                ControlFlow::Break(())
            }
        }
    });
    let actions = replay.processed();
    if let Err(e) = outcome {
        let rendered = render(&e);
        verdict = Some(Verdict::Rejected {
            index: e.index,
            action_id: e.action_id,
            action_type: e.action_type.clone(),
            code: e.violation.code().to_string(),
            message: rendered.lines().take(4).collect::<Vec<_>>().join("\n"),
        });
    }
    if verdict.is_none() {
        verdict = end_difference(&ScoreReport::new(replay.game(), &log), trace.last.as_ref())
            .map(Verdict::EndDiffers);
    }
    Comparison {
        verdict: verdict.unwrap_or(Verdict::Agrees),
        actions,
        states,
    }
}

/// How our end differs from the trace's `final` line (finished, result, end reason), if it does.
pub fn end_difference(report: &ScoreReport, last: Option<&Value>) -> Option<String> {
    let last = last?;
    let finished = last["finished"].as_bool().unwrap_or(false);
    if report.finished != finished {
        return Some(format!(
            "finished: ours {}, reference {finished}",
            report.finished
        ));
    }
    if !finished {
        return None;
    }
    let expected: BTreeMap<String, Money> = last["result"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), Money(v.as_i64().unwrap_or(i64::MIN))))
        .collect();
    if report.result != expected {
        return Some(format!(
            "result {:?}, reference {expected:?}",
            report.result
        ));
    }
    let reason = last["game_end_reason"].as_str().map(str::to_string);
    if report.game_end_reason != reason {
        return Some(format!(
            "game_end_reason {:?}, reference {reason:?}",
            report.game_end_reason
        ));
    }
    None
}
