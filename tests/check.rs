//! `railnote check` at archive scale (issue 15): directories walked, game files recognised by
//! their content, results in a stable order whatever the number of threads, JSON lines, the
//! summary's counts.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{code, railnote_command, stderr, stdout};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `railnote` in `dir` (so that the paths it prints are relative and the snapshots do not
/// depend on where the package is).
fn check_in(dir: &Path, args: &[&str]) -> Output {
    railnote_command()
        .arg("check")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The text output with the time figures of the summary masked (they are the only figures
/// that change between runs).
fn masked(text: &str) -> String {
    text.lines()
        .map(
            |line| match line.find(" in ").filter(|_| line.contains(" actions/s)")) {
                Some(at) if line.contains("actions replayed") => {
                    format!("{} in [time] s ([rate] actions/s)", &line[..at])
                }
                _ => line.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// The JSON lines, each parsed, with the summary's time figures masked.
fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|line| {
            let mut v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            if v["type"] == "summary" {
                assert!(v["data"]["seconds"].as_f64().is_some_and(|s| s >= 0.0));
                assert!(v["data"]["actions_per_second"].as_u64().is_some());
                v["data"]["seconds"] = "[time]".into();
                v["data"]["actions_per_second"] = "[rate]".into();
            }
            v
        })
        .collect()
}

/// A fresh directory for one test under the target directory.
fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("check")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn put(root: &Path, rel: &str, content: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(manifest().join("samples").join(name)).unwrap()
}

/// Bob passes first in the private auction, out of turn.
const OUT_OF_TURN: &str = r#"{"title": "1836Jr30",
 "players": [{"id": 11, "name": "Ann"}, {"id": 22, "name": "Bob"}],
 "actions": [{"type": "pass", "entity": 22, "entity_type": "player", "id": 1}]}
"#;

/// A tree of good, bad and non-game files (named so that name order and creation order
/// differ).
fn archive(root: &Path) {
    put(
        root,
        "club/2024/b-good.json",
        &sample("1836jr30-opening.json"),
    );
    put(root, "club/2024/a-out-of-turn.json", OUT_OF_TURN.as_bytes());
    put(root, "club/2024/notes.txt", b"Who brings the snacks?\n");
    put(
        root,
        "club/2024/photo.png",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    );
    // JSON that is not a game log (the reference's traces start like this).
    put(
        root,
        "club/2024/trace.jsonl",
        b"{\"header\":true,\"title\":\"1836Jr30\"}\n",
    );
    put(
        root,
        "club/2025/opening.rn",
        &sample("1836jr30-notation-opening.rn"),
    );
    // Notation recognised by its content, whatever the name.
    put(
        root,
        "club/2025/tuesday.txt",
        &sample("18ireland-notation-opening.rn"),
    );
    put(
        root,
        "club/2025/cut.json",
        b"{\"title\": \"1836Jr30\", \"actions\": [",
    );
    put(
        root,
        "club/2025/typo.rn",
        b"[Title \"1836Jr30\"]\n[Players \"Ann, Bob\"]\nPR\nAnn: bidd CFLV 225\n",
    );
    put(
        root,
        "club/2025/deviation.json",
        &std::fs::read(
            manifest().join("tests/data/reference/ireland-emergency-train-from-corporation.json"),
        )
        .unwrap(),
    );
    put(root, "club/README.md", b"# Our games\n");
    put(
        root,
        "extra.json",
        &sample("1836jr30-selfplay-greedy-3p-seed1.json"),
    );
}

#[test]
fn a_directory_tree_is_walked_in_name_order_and_summarised() {
    let root = fresh("tree");
    archive(&root);
    let out = check_in(&root, &["club", "extra.json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    // Not a terminal: no progress bar, nothing on stderr.
    assert_eq!(stderr(&out), "");
    insta::assert_snapshot!(masked(&stdout(&out)));
}

#[test]
fn json_lines_parse_and_count_exactly() {
    let root = fresh("json");
    archive(&root);
    let out = check_in(&root, &["--format", "json", "club", "extra.json"]);
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    // One object per game file (the five others are skipped), then the summary.
    assert_eq!(lines.len(), 9);
    let paths: Vec<&str> = lines[..8]
        .iter()
        .map(|l| {
            assert_eq!(l["type"], "file");
            l["data"]["path"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        paths,
        [
            "club/2024/a-out-of-turn.json",
            "club/2024/b-good.json",
            "club/2025/cut.json",
            "club/2025/deviation.json",
            "club/2025/opening.rn",
            "club/2025/tuesday.txt",
            "club/2025/typo.rn",
            "extra.json",
        ]
    );
    let summary = &lines[8];
    assert_eq!(summary["type"], "summary");
    insta::assert_json_snapshot!(summary["data"]);
    // The illegal game says where, in the file's lines and columns.
    let bad = &lines[0]["data"];
    assert_eq!(bad["verdict"], "illegal");
    assert_eq!(bad["title"], "1836Jr30");
    assert_eq!(
        (
            &bad["error"]["index"],
            &bad["error"]["line"],
            &bad["error"]["column"]
        ),
        (&Value::from(1), &Value::from(3), &Value::from(14))
    );
    assert_eq!(bad["error"]["rule"], "rules::not_your_turn");
    insta::assert_json_snapshot!("file_lines", lines[..8]);
}

/// The order of the results is the order of the paths, whatever the scheduling: many files of
/// different sizes, checked by one thread and by two.
#[test]
fn order_is_stable_across_job_counts() {
    let root = fresh("order");
    let games = [
        sample("1836jr30-selfplay-greedy-4p-seed200.json"),
        sample("1836jr30-opening.json"),
        OUT_OF_TURN.as_bytes().to_vec(),
        sample("18ireland-selfplay-greedy-4p-seed9.json"),
        sample("1836jr30-notation-opening.rn"),
    ];
    for i in 0..60 {
        let ext = if i % 5 == 4 { "rn" } else { "json" };
        put(
            &root,
            &format!("games/{}/{i:03}.{ext}", i % 3),
            &games[i % games.len()],
        );
    }
    let one = check_in(&root, &["--jobs", "1", "games"]);
    let two = check_in(&root, &["-j", "2", "games"]);
    let default = check_in(&root, &["games"]);
    assert_eq!(code(&one), 1);
    assert_eq!(masked(&stdout(&one)), masked(&stdout(&two)));
    assert_eq!(masked(&stdout(&one)), masked(&stdout(&default)));
    let lines: Vec<String> = stdout(&one).lines().map(String::from).collect();
    assert_eq!(lines.len(), 62);
    assert!(
        lines[0].starts_with("games/0/000.json: ok ("),
        "{}",
        lines[0]
    );
    assert!(
        lines[20].starts_with("games/1/001.json: ok ("),
        "{}",
        lines[20]
    );
    assert_eq!(
        lines[60],
        "checked 60 file(s): 48 game(s) legal, 12 illegal, 0 unreadable"
    );
    let json_one = check_in(&root, &["--jobs", "1", "--format", "json", "games"]);
    let json_two = check_in(&root, &["--jobs", "2", "--format", "json", "games"]);
    assert_eq!(json_lines(&json_one), json_lines(&json_two));
}

/// Files are handed to the threads as they free up, at most 32 per thread ahead of the next one
/// to print: with many more files than that, and a long game now and then holding the printing
/// up while short ones finish, the results still come out in the paths' order, each once.
#[test]
fn order_is_kept_far_beyond_the_files_handed_out_at_once() {
    let root = fresh("stream");
    let long = sample("18ireland-selfplay-greedy-4p-seed9.json");
    let short = sample("1836jr30-opening.json");
    for i in 0..200 {
        let content = match i % 50 {
            7 => &long,
            k if k % 2 == 0 => OUT_OF_TURN.as_bytes(),
            _ => &short,
        };
        put(&root, &format!("games/{i:03}.json"), content);
    }
    let one = check_in(&root, &["--jobs", "1", "games"]);
    let two = check_in(&root, &["--jobs", "2", "games"]);
    let three = check_in(&root, &["--jobs", "3", "--format", "json", "games"]);
    assert_eq!(masked(&stdout(&one)), masked(&stdout(&two)));
    let lines: Vec<String> = stdout(&two).lines().map(String::from).collect();
    assert_eq!(lines.len(), 202);
    for (i, line) in lines[..200].iter().enumerate() {
        assert!(line.starts_with(&format!("games/{i:03}.json: ")), "{line}");
    }
    assert_eq!(
        lines[200],
        "checked 200 file(s): 100 game(s) legal, 100 illegal, 0 unreadable"
    );
    let paths: Vec<String> = json_lines(&three)[..200]
        .iter()
        .map(|l| l["data"]["path"].as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = (0..200).map(|i| format!("games/{i:03}.json")).collect();
    assert_eq!(paths, expected);
}

/// Many quick files: the thread that prints checks files too, and often finds everything it
/// handed out already checked; that is not the end while files are left to hand out.
#[test]
fn every_file_is_checked_when_the_printing_thread_catches_up() {
    let root = fresh("catch-up");
    for i in 0..600 {
        put(&root, &format!("games/{i:03}.json"), OUT_OF_TURN.as_bytes());
    }
    // It depends on timing: a few runs make a miss unlikely.
    for jobs in ["2", "3", "2", "3", "2", "3"] {
        let out = check_in(&root, &["--jobs", jobs, "games"]);
        let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
        assert_eq!(lines.len(), 602, "--jobs {jobs}");
        for (i, line) in lines[..600].iter().enumerate() {
            assert!(line.starts_with(&format!("games/{i:03}.json: ")), "{line}");
        }
        assert_eq!(
            lines[600],
            "checked 600 file(s): 0 game(s) legal, 600 illegal, 0 unreadable"
        );
    }
}

/// `--strict-rules` refuses a deviation in a directory too; `--jobs 0` is a usage error; a
/// directory without game files is no success.
#[test]
fn strict_rules_jobs_and_nothing_to_check() {
    let root = fresh("strict");
    archive(&root);
    let out = check_in(&root, &["--strict-rules", "club/2025"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "club/2025/deviation.json: error[deviation::emergency_train_from_corporation]: "
        ),
        "{text}"
    );
    assert!(
        text.contains("checked 5 file(s), skipped 0 other file(s)")
            || text.contains("checked 5 file(s): "),
        "{text}"
    );
    let out = check_in(&root, &["--jobs", "0", "club"]);
    assert_eq!(code(&out), 2);
    let empty = root.join("empty/nothing");
    std::fs::create_dir_all(&empty).unwrap();
    put(&root, "empty/nothing/notes.txt", b"no games here\n");
    let out = check_in(&root, &["empty"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        masked(&stdout(&out)),
        "checked 0 file(s), skipped 1 other file(s): 0 game(s) legal, 0 illegal, 0 unreadable\n\
         0 actions replayed, 0 deviation warning(s), in [time] s ([rate] actions/s)"
    );
    assert_eq!(
        stderr(&out),
        "railnote: no game files found (1 other files skipped)\n"
    );
}

/// A path that does not exist is an I/O error (exit 2) and the rest is still checked; a named
/// file is checked whatever it holds.
#[test]
fn missing_paths_and_named_files() {
    let root = fresh("missing");
    archive(&root);
    let out = check_in(&root, &["nowhere", "club/2024/notes.txt", "extra.json"]);
    assert_eq!(code(&out), 2);
    let text = masked(&stdout(&out));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "nowhere: error: No such file or directory (os error 2)"
    );
    assert!(
        lines[1].starts_with("club/2024/notes.txt: error[notation::invalid]: line 1:1: "),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("extra.json: ok ("), "{}", lines[2]);
    assert_eq!(
        lines[3],
        "checked 3 file(s): 1 game(s) legal, 0 illegal, 2 unreadable"
    );
    let out = check_in(&root, &["--format", "json", "nowhere"]);
    assert_eq!(code(&out), 2);
    let lines = json_lines(&out);
    assert_eq!(
        lines[0]["data"],
        serde_json::json!({
            "path": "nowhere", "verdict": "error", "format": null, "title": null,
            "games": {"legal": 0, "illegal": 0, "unreadable": 1}, "actions": 0, "warnings": [],
            "error": {"game": 1, "index": null, "line": 0, "column": 0, "rule": "io::read",
                      "message": "No such file or directory (os error 2)"}
        })
    );
    assert_eq!(lines[1]["data"]["errors"], 1);
}

/// Every game of a notation file is checked: a rejected game is reported with its number and
/// the games after it are still replayed and counted.
#[test]
fn every_game_of_a_notation_file_is_checked() {
    let root = fresh("games");
    let opening = String::from_utf8(sample("1836jr30-notation-opening.rn")).unwrap();
    let out_of_turn = "[Title \"1836Jr30\"]\n[Players \"Ann, Bob\"]\n\nPR\nBob: pass\n";
    let text = format!("{opening}\n{out_of_turn}\n{opening}");
    put(&root, "three.rn", text.as_bytes());
    let out = check_in(&root, &["--format", "json", "three.rn"]);
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    let file = &lines[0]["data"];
    assert_eq!(
        file["games"],
        serde_json::json!({"legal": 2, "illegal": 1, "unreadable": 0})
    );
    assert_eq!(file["actions"], 26, "both legal games' actions");
    assert_eq!(file["error"]["game"], 2);
    assert_eq!(file["error"]["rule"], "rules::not_your_turn");
    let line = file["error"]["line"].as_u64().unwrap() as usize;
    assert_eq!(text.lines().nth(line - 1), Some("Bob: pass"));
    let out = check_in(&root, &["three.rn"]);
    let text = stdout(&out);
    assert!(
        text.starts_with("three.rn: error[rules::not_your_turn]: game 2: "),
        "{text}"
    );
}
