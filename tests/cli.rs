use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use crate::common::{code, fixtures, railnote, scratch_in, shared_dir, stderr, stdout};

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

/// The 18Ireland notation opening with its `Seed` tag taken out: it states only its setup.
fn seedless_opening(name: &str) -> PathBuf {
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/18ireland-notation-opening.rn"),
    )
    .unwrap();
    let setup_only = sample.replacen("[Seed \"20261122\"]\n", "", 1);
    assert_ne!(setup_only, sample);
    scratch(name, &setup_only)
}

fn scratch(name: &str, content: &str) -> PathBuf {
    scratch_in("cli", name, content)
}

const OUT_OF_TURN: &str = r#"{
  "id": 7,
  "title": "1836Jr30",
  "players": [{"id": 11, "name": "Ann"}, {"id": 22, "name": "Bob"}],
  "actions": [
    {"type": "pass", "entity": 22, "entity_type": "player", "id": 1}
  ]
}
"#;

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&railnote(&[])), 2);
    assert_eq!(code(&railnote(&["replay"])), 2);
    assert_eq!(
        code(&railnote(&["replay", "x.json", "--format", "yaml"])),
        2
    );
    assert_eq!(code(&railnote(&["frobnicate"])), 2);
    assert_eq!(code(&railnote(&["--help"])), 0);
}

/// Commands that cover 1836Jr30 only refuse other titles instead of answering wrongly.
#[test]
fn selfplay_plays_18ireland_and_refuses_unknown_titles() {
    let out = railnote(&[
        "selfplay",
        "--title",
        "18Ireland",
        "--players",
        "4",
        "--seed",
        "9",
        "--format",
        "text",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("seed 9: finished after "), "{text}");
    assert!(text.contains("(bank)"), "{text}");
    let out = railnote(&["selfplay", "--title", "1817", "-o", "/dev/null"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("1817"), "{}", stderr(&out));
}

/// `selfplay --optional-rule` plays with a title's optional rules and writes them in the log;
/// a rule the title does not have is a usage error that lists the ones it has.
#[test]
fn selfplay_plays_with_optional_rules() {
    let out = railnote(&[
        "selfplay",
        "--title",
        "1889",
        "--optional-rule",
        "beginner_game",
        "--players",
        "3",
        "--seed",
        "4",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let log = stdout_json(&out);
    assert_eq!(
        log["settings"]["optional_rules"],
        serde_json::json!(["beginner_game"])
    );
    // The beginner game deals the privates: nobody bids.
    let actions = log["actions"].as_array().unwrap();
    assert!(actions.len() > 100, "{}", actions.len());
    assert!(actions.iter().all(|a| a["type"] != "bid"));
    let out = railnote(&[
        "selfplay",
        "--title",
        "1889",
        "--optional-rule",
        "beginer_game",
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        "railnote: 1889 has no optional rule `beginer_game`; its optional rules: beginner_game\n"
    );
}

/// 18xx.games draws the random setup from the seed: a game that states only its setup cannot
/// be converted to an 18xx.games log.
#[test]
fn converting_a_stated_setup_without_its_seed_is_refused() {
    let file = seedless_opening("seedless-convert.rn");
    let file = file.to_str().unwrap();
    assert_eq!(code(&railnote(&["replay", file])), 0);
    let out = railnote(&["convert", file, "--to", "json"]);
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("add the `Seed` tag"));
}

/// `moves` and `routes` read notation files as `replay` does, including games that state
/// their random setup without a seed.
#[test]
fn moves_and_routes_read_notation_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenario = root.join("samples/scenarios/president-sale.rn");
    let out = railnote(&["moves", scenario.to_str().unwrap(), "--at", "23"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.starts_with("SR 3 (phase 2) after 23 actions; waiting for Ann"),
        "{text}"
    );
    assert!(text.contains("Ann buys B_3 (market)"), "{text}");
    let file = seedless_opening("seedless-read.rn");
    let file = file.to_str().unwrap();
    let out = railnote(&[
        "routes", file, "--at", "31", "--corp", "DKR", "--format", "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 40);
    assert_eq!(
        v["routes"][0]["stops"],
        serde_json::json!(["I11-0", "I13-0"])
    );
    // `replay --at` on the seedless game sets it up from the stated setup too.
    assert_eq!(code(&railnote(&["replay", file, "--at", "5"])), 0);
    // A notation file the replay rejects is reported with its diagnostics.
    let bad = scratch(
        "bad-moves.rn",
        "[Title \"1836Jr30\"]\n[Players \"Ann, Bob\"]\n\nPR\nAnn: bid CFL 5\n",
    );
    let out = railnote(&["moves", bad.to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("rules::"));
}

#[test]
fn a_missing_file_exits_2() {
    let out = railnote(&["replay", "/nonexistent/railnote/game.json"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("/nonexistent/railnote/game.json"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unreadable_log_exits_1() {
    let path = scratch("broken.json", "{\"title\": \"1836Jr30\", \"players\": [");
    let out = railnote(&["replay", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("log::syntax"), "{}", stderr(&out));
    let json = stdout_json(&out);
    assert_eq!(json["finished"], false);
    assert_eq!(json["error"]["rule"], "log::syntax");
    assert_eq!(json["error"]["index"], Value::Null);
}

#[test]
fn the_format_is_detected_from_the_content() {
    // A JSON log named .txt is read; a non-JSON file named .json is read as notation (and
    // rejected here: it has no tags).
    let path = scratch("game.txt", OUT_OF_TURN);
    assert_eq!(
        code(&railnote(&["replay", path.to_str().unwrap(), "--at", "0"])),
        0
    );
    let path = scratch("notes.json", "par Nord 100\n");
    let out = railnote(&["replay", path.to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("notation::missing_tag"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_illegal_action_exits_1_and_is_located() {
    let path = scratch("out_of_turn.json", OUT_OF_TURN);
    let out = railnote(&["replay", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("action #1 (id 1)"), "{err}");
    assert!(err.contains("by Bob in PR"), "{err}");
    assert!(err.contains("out_of_turn.json:6:5"), "{err}");
    let json = stdout_json(&out);
    assert_eq!(json["finished"], false);
    let e = &json["error"];
    assert_eq!(
        (e["index"].as_u64(), e["action_id"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (e["round"].as_str(), e["actor"].as_str()),
        (Some("PR"), Some("Bob"))
    );
    assert!(e["rule"].as_str().unwrap().starts_with("rules::"), "{e}");
}

#[test]
fn at_0_prints_the_initial_state() {
    let path = scratch("initial.json", OUT_OF_TURN);
    let out = railnote(&[
        "replay",
        path.to_str().unwrap(),
        "--at",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json = stdout_json(&out);
    assert_eq!(json["index"], 0);
    assert_eq!(json["round"], "PR");
    assert_eq!(json["players"][1]["id"], "22");
    assert_eq!(json["players"][1]["cash"], 900);
    assert_eq!(json["bank_cash"], 4200);
    let out = railnote(&["replay", path.to_str().unwrap(), "--at", "0"]);
    let text = stdout(&out);
    assert!(text.contains("round PR  phase 2  bank 4200"), "{text}");
}

#[test]
fn fixtures_replay_with_the_stored_result() {
    let Some(shared) = shared_dir() else { return };
    for path in fixtures(&shared, "1836Jr30") {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let trace = scratch(
            &format!(
                "{}.trace.jsonl",
                path.file_stem().unwrap().to_string_lossy()
            ),
            "",
        );
        let out = railnote(&[
            "replay",
            path.to_str().unwrap(),
            "--format",
            "json",
            "--trace",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(code(&out), 0, "{}: {}", path.display(), stderr(&out));
        let json = stdout_json(&out);
        assert_eq!(json["result"], expected["result"], "{}", path.display());
        assert_eq!(json["game_end_reason"], expected["game_end_reason"]);
        // One trace line per processed top-level action, numbered from 1.
        let lines: Vec<Value> = std::fs::read_to_string(&trace)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(!lines.is_empty());
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line["index"], i + 1);
        }
        // --at N shows the same state as line N of the trace.
        let n = lines.len() / 2;
        let out = railnote(&[
            "replay",
            path.to_str().unwrap(),
            "--format",
            "json",
            "--at",
            &n.to_string(),
        ]);
        assert_eq!(code(&out), 0);
        assert_eq!(stdout_json(&out), lines[n - 1]);
    }
}

/// A move that breaks a printed rule while 18xx.games accepts it: the standings, then a
/// warning; JSON lists it; `--strict-rules` refuses it (exit 1, the deviation's code);
/// `check` counts it. Also through the notation (the log converted).
#[test]
fn deviations_are_warnings_and_strict_rules_refuse_them() {
    let log = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reference/ireland-emergency-train-from-corporation.json");
    let log = log.to_str().unwrap();
    let code_of = "deviation::emergency_train_from_corporation";

    let text = railnote(&["replay", log]);
    assert_eq!(code(&text), 0, "{}", stderr(&text));
    let standings = stdout(&text);
    assert!(
        standings.ends_with(
            "\n1 move(s) break a printed rule that 18xx.games does not enforce; railnote \
             followed 18xx.games (see the warnings)\n"
        ),
        "{standings}"
    );
    assert!(stderr(&text).contains(code_of), "{}", stderr(&text));
    assert!(stderr(&text).contains("DDR buys LER's 2H-3 for 75, Player 3 paying 32"));

    let json = railnote(&["replay", log, "--format", "json"]);
    assert_eq!(code(&json), 0);
    let warnings = &stdout_json(&json)["warnings"];
    assert_eq!(warnings.as_array().map(Vec::len), Some(1), "{warnings}");
    let w = &warnings[0];
    assert_eq!(
        (
            &w["index"],
            &w["action_id"],
            &w["round"],
            &w["actor"],
            &w["rule"]
        ),
        (
            &Value::from(59),
            &Value::from(59),
            &Value::from("OR 1.2"),
            &Value::from("DDR"),
            &Value::from(code_of)
        )
    );
    assert!(w["message"]
        .as_str()
        .unwrap()
        .starts_with("DDR buys LER's 2H-3 for 75, Player 3 paying 32: against the printed rules; 18Ireland and 1889 rules"));

    let strict = railnote(&["replay", log, "--strict-rules", "--format", "json"]);
    assert_eq!(code(&strict), 1);
    let error = &stdout_json(&strict)["error"];
    assert_eq!(
        (&error["index"], &error["rule"]),
        (&Value::from(59), &Value::from(code_of))
    );

    let check = railnote(&["check", log]);
    assert_eq!(code(&check), 0);
    let lines = stdout(&check);
    let lines: Vec<&str> = lines.lines().collect();
    assert!(
        lines[0].ends_with(": ok (59 actions, 1 deviation warning)"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("59 actions replayed, 1 deviation warning(s), in "),
        "{lines:?}"
    );
    let check = railnote(&["check", "--strict-rules", log]);
    assert_eq!(code(&check), 1);

    // The same game in the notation: the warning points at the move.
    let notation = railnote(&["convert", log, "--to", "notation"]);
    assert_eq!(code(&notation), 0, "{}", stderr(&notation));
    let rn = scratch("emergency.rn", &stdout(&notation));
    let rn = rn.to_str().unwrap();
    let replayed = railnote(&["replay", rn, "--format", "json"]);
    assert_eq!(code(&replayed), 0, "{}", stderr(&replayed));
    let w = &stdout_json(&replayed)["warnings"][0];
    assert_eq!(
        (&w["index"], &w["rule"]),
        (&Value::from(59), &Value::from(code_of))
    );
    assert_eq!(code(&railnote(&["replay", rn, "--strict-rules"])), 1);
}
