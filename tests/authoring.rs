//! Writing a game by hand, as a new user does (issue 14): the hand-written files in
//! `tests/data/authoring/` and what each command says about them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn railnote(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_railnote"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A hand-written file of `tests/data/authoring/`, relative to the package.
fn data(name: &str) -> String {
    format!("tests/data/authoring/{name}")
}

/// A scratch file for this test (a unique name under the target directory).
fn scratch(name: &str, content: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("authoring");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

/// Issue 14, point 1: `--at` replays a notation file only up to the state asked for, so the
/// lines being written further down (here a rule error on line 44 and a syntax error on line
/// 45) do not stand in the way; a line and a round are accepted wherever `--at` is.
#[test]
fn at_inspects_a_half_written_file() {
    let file = data("half-written.rn");
    let o = railnote(&["moves", &file, "--at", "line:43"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("moves_at_line", stdout(&o));
    let o = railnote(&["moves", &file, "--at", "or 2.1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("OR 2.1 (phase 2) after 34 actions; waiting for HSM"));
    let o = railnote(&["replay", &file, "--at", "SR 2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("replay_at_round", stdout(&o));
    let o = railnote(&["replay", &file, "--at", "20", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let state: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(state["index"], 20);
    assert_eq!(state["round"], "SR 1");
    let o = railnote(&["routes", &file, "--at", "line:33", "--corp", "nord"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("routes_at_line", stdout(&o));
    let svg = scratch("half.svg", "");
    let o = railnote(&[
        "map",
        &file,
        "--at",
        "line:34",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains(r#"data-tile="57" data-tile-id="57-0" data-rotation="1""#), "no tile on I9");

    // The first mistake before the state is reported, whichever kind it is.
    let o = railnote(&["moves", &file, "--at", "line:44"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("rules::token"), "{}", stderr(&o));
    let o = railnote(&["moves", &file, "--at", "line:45"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("rules::token"), "{}", stderr(&o));
    let fixed = std::fs::read_to_string(&file)
        .unwrap()
        .replace("tok D6, ", "pass, ");
    let fixed = scratch("half-fixed.rn", &fixed);
    let o = railnote(&["moves", fixed.to_str().unwrap(), "--at", "line:45"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("notation::trailing"), "{}", stderr(&o));
    // Without `--at` the whole file counts.
    let o = railnote(&["moves", &file]);
    assert_eq!(code(&o), 1);

    // States that do not exist are usage errors, and say why.
    let o = railnote(&["moves", &file, "--at", "line:99"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "railnote: --at line:99: the file has 46 line(s)\n"
    );
    let o = railnote(&["replay", &file, "--at", "OR 3"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("`OR 3` is not a state"), "{}", stderr(&o));
    let o = railnote(&["replay", &file, "--at", "OR 9.1", "--keep-going"]);
    assert_eq!(code(&o), 1, "the mistakes before the end stand in the way");
    let o = railnote(&["routes", "samples/1836jr30-notation-opening.rn", "--at", "OR 9.1"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "railnote: --at OR 9.1: no such state (the log has 13 actions and ends in SR 1)\n"
    );
}
