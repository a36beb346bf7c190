//! Writing a game by hand, as a new user does (issue 14): the hand-written files in
//! `tests/data/authoring/` and what each command says about them.

use std::path::PathBuf;
use std::sync::Arc;

use railnote::notation::parse;
use railnote::replay::notation::{play, GameRejected, Played};

use crate::common::{
    code, railnote, railnote_with_stdin, render, scratch_in, stderr, stdout, KEEP_GOING,
};

/// A hand-written file of `tests/data/authoring/`, relative to the package.
fn data(name: &str) -> String {
    format!("tests/data/authoring/{name}")
}

fn scratch(name: &str, content: &str) -> PathBuf {
    scratch_in("authoring", name, content)
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
    let o = railnote(&["map", &file, "--at", "line:34", "-o", svg.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.contains(r#"data-tile="57" data-tile-id="57-0" data-rotation="1""#),
        "no tile on I9"
    );

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
    assert!(
        stderr(&o).contains("`OR 3` is not a state"),
        "{}",
        stderr(&o)
    );
    let o = railnote(&["replay", &file, "--at", "OR 9.1", "--keep-going"]);
    assert_eq!(code(&o), 1, "the mistakes before the end stand in the way");
    let o = railnote(&[
        "routes",
        "samples/1836jr30-notation-opening.rn",
        "--at",
        "OR 9.1",
    ]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "railnote: --at OR 9.1: no such state (the log has 13 actions and ends in SR 1)\n"
    );
}

/// Replays a notation text (every problem); the rendered diagnostic if it is rejected.
fn replayed(name: &str, src: &str) -> Result<Played, String> {
    let doc = parse(name, src).map_err(|e| render(&e))?;
    let shared: Arc<str> = Arc::from(src);
    let played = play(name, &shared, &doc.games[0], KEEP_GOING).map_err(|e| render(&e))?;
    match GameRejected::of(&played) {
        Some(rejected) => Err(render(&rejected)),
        None => Ok(played),
    }
}

/// The hand-written opening's first `lines` lines, then `tail`.
fn opening_then(lines: usize, tail: &str) -> String {
    let src = std::fs::read_to_string(data("passes.rn")).unwrap();
    let mut out: Vec<&str> = src.lines().take(lines).collect();
    out.push(tail);
    out.join("\n") + "\n"
}

/// Issue 14, point 2: a file written without closing passes and without passes for skipped
/// steps replays; the passes it implies are in the log, so that the 18xx.games log converted
/// from it, and the notation converted back, give the same game.
#[test]
fn passes_are_implied_where_the_next_actor_is_named() {
    let src = std::fs::read_to_string(data("passes.rn")).unwrap();
    let played = replayed("passes.rn", &src).unwrap_or_else(|e| panic!("{e}"));
    let passes: Vec<usize> = played
        .log
        .actions
        .iter()
        .filter(|a| a.type_name == "pass")
        .map(|a| a.span.line_col(&src).0)
        .collect();
    // Bob's turn ends at the `OR 1.1` heading (30) and where Cid is named (37), GCL's at the
    // `SR 2` heading (33), HSM's token step is passed by `train 2` (41); the others are written.
    assert_eq!(
        passes,
        [12, 14, 30, 33, 34, 35, 37, 37, 38, 39, 41],
        "{passes:?}"
    );
    assert_eq!(played.game.round_label(), "OR 2.1");

    let file = data("passes.rn");
    let json = railnote(&["convert", &file, "--to", "json"]);
    assert_eq!(code(&json), 0, "{}", stderr(&json));
    let json_file = scratch("passes.json", &stdout(&json));
    let back = railnote(&["convert", json_file.to_str().unwrap(), "--to", "notation"]);
    assert_eq!(code(&back), 0, "{}", stderr(&back));
    let back_file = scratch("passes-back.rn", &stdout(&back));
    let states: Vec<String> = [
        file.as_str(),
        json_file.to_str().unwrap(),
        back_file.to_str().unwrap(),
    ]
    .iter()
    .map(|f| {
        let o = railnote(&["replay", f, "--at", "37", "--format", "json"]);
        assert_eq!(code(&o), 0, "{f}: {}", stderr(&o));
        stdout(&o)
    })
    .collect();
    assert_eq!(states[0], states[1]);
    assert_eq!(states[0], states[2]);
    // `--at` may fall among the passes a move implies.
    let o = railnote(&["replay", &file, "--at", "36", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains(r#""action_type": "pass""#),
        "{}",
        stdout(&o)
    );
}

/// Issue 14, points 2 and 3: a pass that is not needed, a turn that cannot end, a step that was
/// skipped, a heading ahead of or behind the game and a check line, each said where it is
/// written and why.
#[test]
fn passes_and_skips_are_explained_where_written() {
    let cases = [
        // An actor-less move after the turn it would continue has ended.
        ("turn_over", opening_then(31, "buy CFL 80")),
        // The superfluous trailing pass of the issue.
        (
            "trailing_pass",
            opening_then(30, "Nord: 8 I5 r1, train 2, pass"),
        ),
        // A step the rules skipped, and a pass written for it.
        (
            "skipped_step",
            opening_then(30, "Nord: 8 I5 r1, tok H4, train 2"),
        ),
        (
            "pass_for_skipped_step",
            opening_then(30, "Nord: 8 I5 r1, pass, train 2"),
        ),
        // The next actor named out of turn: who comes after the turn in progress.
        ("next_after_turn", opening_then(41, "GCL: pass")),
        // A heading behind the game: the round ended, players passed by the rules.
        ("heading_behind", opening_then(29, "Bob: pass\nSR 1")),
        // A heading ahead of the game.
        ("heading_ahead", opening_then(31, "SR 2")),
        // A check line evaluated after a new round began.
        ("check_when", opening_then(29, "Bob: pass\n= Ann 7")),
    ];
    for (name, src) in cases {
        let rendered = replayed(&format!("{name}.rn"), &src)
            .err()
            .unwrap_or_else(|| panic!("{name} replays"));
        insta::assert_snapshot!(format!("explained_{name}"), rendered);
    }
}

/// Issue 14, point 6: nothing passes silently. An empty file, one of comments only and one of
/// tags only are rejected by every command that judges a game; a `Result` tag and a JSON log's
/// `result` that differ from the replayed game are reported.
#[test]
fn nothing_passes_silently() {
    let empty = scratch("empty.rn", "");
    let comments = scratch("comments.rn", "{nothing yet}\n; still nothing\n");
    let tags = scratch(
        "tags.rn",
        "[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n",
    );
    for (file, code_shown) in [
        (&empty, "notation::no_game"),
        (&comments, "notation::no_game"),
        (&tags, "notation::no_moves"),
    ] {
        let f = file.to_str().unwrap();
        for args in [
            vec!["check", f],
            vec!["replay", f],
            vec!["convert", f, "--to", "json"],
        ] {
            let o = railnote(&args);
            assert_eq!(code(&o), 1, "{args:?}: {}", stderr(&o));
            let said = format!("{}{}", stdout(&o), stderr(&o));
            assert!(said.contains(code_shown), "{args:?}: {said}");
        }
    }
    // A file of tags is where a game starts: its first moves can be listed.
    let o = railnote(&["moves", tags.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("PR (phase 2) after 0 actions; waiting for Ann"));

    // A finished game's `Result` tag is checked, score by score.
    let sample = std::fs::read_to_string("samples/1836jr30-complete-annotated.rn").unwrap();
    let wrong = sample.replacen("Ann 5450, Bob 5193", "Ann 5400, Bob 5193", 1);
    assert_ne!(wrong, sample);
    let wrong = scratch("wrong-result.rn", &wrong);
    let played = replayed("wrong-result.rn", &std::fs::read_to_string(&wrong).unwrap());
    insta::assert_snapshot!("result_tag_differs", played.expect_err("rejected"));
    let o = railnote(&["check", wrong.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("recorded Ann 5400, the game gives 5450"),
        "{}",
        stdout(&o)
    );

    // A JSON log's stored `result` too.
    let log = std::fs::read_to_string("samples/1836jr30-selfplay-greedy-3p-seed1.json").unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&log).unwrap();
    let (first, score) = json["result"]
        .as_object()
        .and_then(|r| r.iter().next())
        .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
        .expect("the sample has a result");
    json["result"][&first] = serde_json::json!(score + 50);
    let edited = scratch(
        "edited-result.json",
        &serde_json::to_string_pretty(&json).unwrap(),
    );
    let o = railnote(&["replay", edited.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("rules::result_mismatch"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(&format!("the game gives {score}")),
        "{}",
        stderr(&o)
    );
    let o = railnote(&["check", edited.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("error[rules::result_mismatch]"),
        "{}",
        stdout(&o)
    );
    let o = railnote(&["check", "samples/1836jr30-selfplay-greedy-3p-seed1.json"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}

/// Issue 14, point 6: an 18xx.games log without actions (none written, or every one undone)
/// is an error for every command that replays, converts or draws it (`log::no_actions`, at
/// the `actions` array), as a notation game without moves is; its first state can still be
/// shown and its first moves listed.
#[test]
fn json_log_without_actions_is_an_error() {
    let header =
        r#""title": "1836Jr30", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#;
    let empty = scratch(
        "no-actions.json",
        &format!("{{{header}, \"actions\": []}}\n"),
    );
    let undone = scratch(
        "all-undone.json",
        &format!(
            "{{{header}, \"actions\": [{{\"type\": \"pass\", \"entity\": 1, \"entity_type\": \"player\", \"id\": 1}}, {{\"type\": \"undo\", \"entity\": 1, \"entity_type\": \"player\", \"id\": 2}}]}}\n"
        ),
    );
    let chart = scratch("no-actions-chart.svg", "");
    let chart = chart.to_str().unwrap();
    for (file, said) in [
        (&empty, "the log has no actions"),
        (&undone, "every action of the log is undone or a message"),
    ] {
        let f = file.to_str().unwrap();
        let o = railnote(&["check", f]);
        assert_eq!(code(&o), 1, "{}", stdout(&o));
        assert!(
            stdout(&o).contains(&format!(
                "error[log::no_actions]: cannot read game log {f}: {said}"
            )),
            "{}",
            stdout(&o)
        );
        for args in [
            vec!["replay", f],
            vec!["replay", f, "--format", "json"],
            vec!["convert", f],
            vec!["convert", f, "--to", "json"],
            vec!["chart", f, "--prices", "-o", chart],
            vec!["transcript", f],
        ] {
            let o = railnote(&args);
            assert_eq!(code(&o), 1, "{args:?}: {}", stderr(&o));
            let shown = format!("{}{}", stdout(&o), stderr(&o));
            assert!(shown.contains("log::no_actions"), "{args:?}: {shown}");
            assert!(shown.contains(said), "{args:?}: {shown}");
        }
        // Where a game starts: its first moves, its first state.
        let o = railnote(&["moves", f]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).starts_with("PR (phase 2) after 0 actions; waiting for Ann"));
        let o = railnote(&["replay", f, "--at", "0"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    let text = std::fs::read_to_string(&empty).unwrap();
    let log = railnote::log::read("no-actions.json", &text).unwrap();
    let refused = log.require_actions().expect_err("no actions");
    insta::assert_snapshot!("json_log_without_actions", render(&refused));
}

/// `replay --trace` of a notation file writes the states with its corrections in them: each
/// correction is applied after the action it follows, in that action's state (as `--at`
/// shows it), and stays in every state after it (the trace replayed the converted log, which
/// has none).
#[test]
fn traced_states_include_corrections() {
    let plain = std::fs::read_to_string(data("opening.rn")).unwrap();
    let mark = "SR 2\nCid: pass\nAnn: pass\nBob: buy HSM\n";
    assert!(plain.contains(mark));
    let corrected = scratch(
        "corrected.rn",
        &plain.replacen(mark, &format!("{mark}correct cash HSM +50\n"), 1),
    );
    let trace = |file: &str, out: &str| -> Vec<serde_json::Value> {
        let out = scratch(out, "");
        let o = railnote(&["replay", file, "--trace", out.to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let before = trace(&data("opening.rn"), "opening.trace.jsonl");
    let after = trace(corrected.to_str().unwrap(), "corrected.trace.jsonl");
    assert_eq!(before.len(), after.len());
    let hsm_cash = |state: &serde_json::Value| {
        state["corporations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "HSM")
            .unwrap()["cash"]
            .as_i64()
            .unwrap()
    };
    let first = before
        .iter()
        .zip(&after)
        .position(|(b, a)| b != a)
        .expect("the correction shows in the trace");
    // The state after `Bob: buy HSM`, the move the correction follows.
    assert_eq!(after[first]["round"], "SR 2");
    assert_eq!(after[first]["action_type"], "buy_shares");
    assert_eq!(after[first + 1]["action_type"], "pass");
    for (b, a) in before.iter().zip(&after).skip(first) {
        assert_eq!(hsm_cash(a), hsm_cash(b) + 50, "{}", a["index"]);
        assert_eq!(
            a["bank_cash"].as_i64(),
            b["bank_cash"].as_i64().map(|c| c - 50)
        );
        let mut a = a.clone();
        for c in a["corporations"].as_array_mut().unwrap() {
            if c["id"] == "HSM" {
                c["cash"] = (c["cash"].as_i64().unwrap() - 50).into();
            }
        }
        a["bank_cash"] = (a["bank_cash"].as_i64().unwrap() + 50).into();
        assert_eq!(&a, b, "nothing else differs");
    }
    // The same state as `--at` gives.
    let at = railnote(&[
        "replay",
        corrected.to_str().unwrap(),
        "--at",
        &(first + 1).to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&at), 0, "{}", stderr(&at));
    let at: serde_json::Value = serde_json::from_str(&stdout(&at)).unwrap();
    assert_eq!(hsm_cash(&at), hsm_cash(&after[first]));
}

/// Issue 14: a correction written between a move and its automatic action (`& …`) is applied
/// where it is written, by the notation replay and by the replay of the log it makes
/// (`Replay`: `--trace`, `--check-runs`, `chart`) alike. In
/// `tests/data/authoring/correction-between-autos.rn` the automatic buy takes the certificate
/// the correction put in the pool, so the other order refuses it.
#[test]
fn a_correction_before_an_automatic_action_is_applied_where_written() {
    let file = data("correction-between-autos.rn");
    let src = std::fs::read_to_string(&file).unwrap();
    let played = replayed("correction-between-autos.rn", &src).expect("the game replays");
    // After Cid's buy (the 10th action) and none of its automatic actions.
    let at: Vec<(usize, usize)> = played
        .log
        .corrections
        .iter()
        .map(|c| (c.after, c.autos))
        .collect();
    assert_eq!(at, [(10, 0)]);
    assert_eq!(played.log.actions[9].auto_actions.len(), 1);
    let from_the_log = railnote::replay::replay(&played.log).expect("the log replays");
    assert_eq!(format!("{from_the_log:?}"), format!("{:?}", played.game));
    // The traced states (`Replay`) end where the notation replay does.
    let out = scratch("correction-between-autos.trace.jsonl", "");
    let o = railnote(&["replay", &file, "--trace", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let trace = std::fs::read_to_string(&out).unwrap();
    let last: serde_json::Value = serde_json::from_str(trace.lines().last().unwrap()).unwrap();
    let ann = last["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Ann Lee")
        .unwrap();
    assert_eq!(ann["cash"], 380, "{ann}");
}

/// Issue 14, point 4: names in any case (`nord`, `bob:`, `i5`, `[Title "1836jr30"]`,
/// `--title`, `--corp`), an actor glued to its action (`Ann:bid`), a "did you mean" for
/// misspelt names, and `fmt` writing each name as the game spells it.
#[test]
fn names_in_any_case_and_did_you_mean() {
    let file = data("names.rn");
    let src = std::fs::read_to_string(&file).unwrap();
    let rendered = replayed("names.rn", &src).expect_err("two misspelt names");
    insta::assert_snapshot!("misspelt_names", rendered);
    let o = railnote(&["fmt", &file]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("names_spelt_by_fmt", stdout(&o));

    let lower = std::fs::read_to_string(data("passes.rn"))
        .unwrap()
        .replace("Nord: 8 I5 r1", "nord: 8 i5 R1")
        .replace("GCL: 57 I9 r1", "gcl:57 i9 r1")
        .replace("\"1836Jr30\"", "\"1836JR30\"");
    let lower = scratch("lower.rn", &lower);
    let o = railnote(&["check", lower.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let o = railnote(&[
        "routes",
        lower.to_str().unwrap(),
        "--at",
        "line:31",
        "--corp",
        "nord",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = railnote(&["selfplay", "--title", "1836jr30", "--format", "text"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = railnote(&["selfplay", "--title", "1863Jr30"]);
    assert_eq!(code(&o), 2);
}

/// Issue 14, point 5 and the done-when list: the hand-written opening replays, and the same
/// opening with the five classic mistakes (`samples/scenarios/errors/
/// table-opening-five-mistakes.rn`) gets exactly those five problems with `--keep-going`, in
/// text and in JSON (every problem with its line and column).
#[test]
fn keep_going_reports_each_mistake_once() {
    let o = railnote(&["check", &data("opening.rn")]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let file = "samples/scenarios/errors/table-opening-five-mistakes.rn";
    let (_, found) = kept_going(file);
    assert_eq!(
        found,
        [
            (24, "rules::unknown_entity"),
            (41, "rules::not_your_turn"),
            (44, "rules::track"),
            (45, "rules::value_mismatch"),
            (52, "rules::insufficient_cash"),
        ]
    );
    // Without keep-going, the first.
    let o = railnote(&["replay", file]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("1 problem(s)"), "{}", stderr(&o));
    let o = railnote(&["replay", file, "--keep-going", "--format", "json"]);
    assert_eq!(code(&o), 1);
    insta::assert_snapshot!("keep_going_json", stdout(&o));
}

/// The first game of a notation file replayed with `--keep-going`: the game played and each
/// problem's line and code.
fn kept_going(file: &str) -> (Played, Vec<(usize, &'static str)>) {
    let src = std::fs::read_to_string(file).unwrap();
    let doc = parse(file, &src).unwrap();
    let shared: Arc<str> = Arc::from(src.as_str());
    let played = play(file, &shared, &doc.games[0], KEEP_GOING).unwrap();
    let found = played
        .errors
        .iter()
        .map(|e| (e.span.line_col(&src).0, e.code.as_str()))
        .collect();
    (played, found)
}

/// A file with lines out of order, once recovered, ends in the game of
/// `tests/data/authoring/opening.rn`, which has them in order.
fn assert_is_the_opening_in_order(played: &Played) {
    let opening = std::fs::read_to_string(data("opening.rn")).unwrap();
    let in_order = replayed("opening.rn", &opening).expect("the opening replays");
    assert_eq!(format!("{:?}", played.game), format!("{:?}", in_order.game));
}

/// Issue 14, point 5: two lines written in the wrong order (the second actor's move before
/// the move the game waited for) are one mistake: it is reported on the first line, which is
/// replayed after the turn the game waited for, so nothing after it is misjudged. Three such
/// pairs (a stock round, a turn still open, an operating turn of several moves) in
/// `tests/data/authoring/swapped.rn`.
#[test]
fn a_swapped_pair_of_lines_is_one_mistake() {
    let file = data("swapped.rn");
    let (played, found) = kept_going(&file);
    assert_eq!(
        found,
        [
            (25, "rules::not_your_turn"),
            (40, "rules::not_your_turn"),
            (44, "rules::not_your_turn"),
        ]
    );
    assert_is_the_opening_in_order(&played);
    let o = railnote(&["replay", &file, "--keep-going"]);
    assert_eq!(code(&o), 1);
    insta::assert_snapshot!("swapped_lines_keep_going", stderr(&o));
}

/// Issue 14, point 5: a line on the wrong side of a round heading is one mistake, reported on
/// that line, which is replayed where it belongs, so nothing after it is misjudged:
/// `tests/data/authoring/across-headings.rn` has a round's last move after the next heading
/// (twice), a round's first move before its heading, and the two swapped across a heading.
#[test]
fn a_line_across_a_round_heading_is_one_mistake() {
    let file = data("across-headings.rn");
    let (played, found) = kept_going(&file);
    assert_eq!(
        found,
        [
            (37, "notation::move_after_heading"),
            (46, "notation::move_before_heading"),
            (51, "notation::move_before_heading"),
            (58, "notation::move_after_heading"),
        ]
    );
    assert_is_the_opening_in_order(&played);
    let o = railnote(&["replay", &file, "--keep-going"]);
    assert_eq!(code(&o), 1);
    insta::assert_snapshot!("across_headings_keep_going", stderr(&o));
    // Without keep-going, the first, on the misplaced line.
    let o = railnote(&["replay", &file]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("1 problem(s)") && stderr(&o).contains("line 37: `Bob: buy HSM`"),
        "{}",
        stderr(&o)
    );
    // A check right after the heading may be of the misplaced first move's outcome too.
    let src = std::fs::read_to_string(&file).unwrap();
    let outcome = scratch(
        "across-headings-outcome.rn",
        &src.replacen("= HSM 760 Bob 64", "= HSM 680", 1),
    );
    let (_, found) = kept_going(outcome.to_str().unwrap());
    assert_eq!(found.len(), 4, "{found:?}");
}

/// Issue 14, point 5: under `--keep-going`, the check lines right after a refused move (until
/// the text and the game are in step again) are not held against the game, which is uncertain
/// there; the mistake's report says which were not evaluated (in JSON, `not_checked`), and a
/// name in them that names nobody is still a mistake of its own.
#[test]
fn checks_after_a_mistake_say_they_are_not_evaluated() {
    let file = data("check-after-mistake.rn");
    let o = railnote(&["replay", &file, "--keep-going"]);
    assert_eq!(code(&o), 1);
    insta::assert_snapshot!("checks_after_a_mistake", stderr(&o));
    let o = railnote(&["replay", &file, "--keep-going", "--format", "json"]);
    assert_eq!(code(&o), 1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let problems: Vec<(i64, &str, serde_json::Value)> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["line"].as_i64().unwrap(),
                p["rule"].as_str().unwrap(),
                p["not_checked"].clone(),
            )
        })
        .collect();
    assert_eq!(
        problems,
        [
            (51, "rules::insufficient_cash", serde_json::json!([52, 53])),
            (53, "rules::unknown_entity", serde_json::Value::Null),
        ]
    );
    // In step again after `Cid: pass`: a check there is evaluated.
    let src = std::fs::read_to_string(&file).unwrap();
    let later = scratch(
        "check-after-resync.rn",
        &src.replacen("Cid: pass\nOR 3.1", "Cid: pass\n= Bob 0\nOR 3.1", 1),
    );
    let o = railnote(&["replay", later.to_str().unwrap(), "--keep-going"]);
    assert!(
        stderr(&o).contains("recorded 0, the rules give 89"),
        "{}",
        stderr(&o)
    );
}

/// Issue 14, point 7: `-` is standard input for every command that reads a game, `convert`
/// infers the direction, `fmt --check` says where a file is not canonical, `fmt` on a JSON log
/// says what it is, completions and the manual page come from the command line's definitions,
/// and `--help` shows examples.
#[test]
fn everyday_conventions() {
    let opening = std::fs::read_to_string(data("opening.rn")).unwrap();
    for args in [
        vec!["replay", "-"],
        vec!["check", "-"],
        vec!["moves", "-", "--at", "line:20"],
        vec!["routes", "-", "--at", "OR 2.1", "--corp", "Nord"],
        vec!["transcript", "-"],
        vec!["fmt", "-"],
        vec!["fmt", "--check", "-"],
        vec!["convert", "-"],
    ] {
        let o = railnote_with_stdin(&args, &opening);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert!(
            !o.stdout.is_empty() || args.contains(&"--check"),
            "{args:?}"
        );
    }
    let o = railnote_with_stdin(&["check", "-"], &opening);
    assert_eq!(
        stdout(&o).lines().next().unwrap_or(""),
        "<stdin>: ok (1 game(s), 52 actions, ends in OR 3.1)"
    );

    // `convert` without `--to`: the other format, both ways, to the same game.
    let json = railnote(&["convert", &data("opening.rn")]);
    assert_eq!(code(&json), 0, "{}", stderr(&json));
    assert!(stdout(&json).starts_with('{'));
    let back = railnote_with_stdin(&["convert", "-"], stdout(&json));
    assert_eq!(code(&back), 0, "{}", stderr(&back));
    assert!(stdout(&back).starts_with("[Title \"1836Jr30\"]"));
    let again = railnote_with_stdin(&["convert", "-", "--to", "json"], stdout(&back));
    assert_eq!(stdout(&again), stdout(&json));

    // `fmt --check`.
    let o = railnote(&["fmt", "--check", &data("opening.rn")]);
    assert_eq!((code(&o), stdout(&o)), (0, String::new()), "{}", stdout(&o));
    let o = railnote(&["fmt", "--check", &data("names.rn")]);
    assert_eq!(code(&o), 1);
    insta::assert_snapshot!("fmt_check", stdout(&o));
    let o = railnote(&["fmt", "--check", "--write", &data("names.rn")]);
    assert_eq!(code(&o), 2, "--check and --write exclude each other");

    // `fmt` on a JSON log.
    let o = railnote(&["fmt", "samples/1836jr30-opening.json"]);
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "railnote: samples/1836jr30-opening.json is an 18xx.games JSON log, not notation: \
         `railnote convert samples/1836jr30-opening.json` writes it as notation\n"
    );

    // Completions and the manual page.
    for (shell, marker) in [
        ("bash", "_railnote()"),
        ("zsh", "#compdef railnote"),
        ("fish", "complete -c railnote"),
    ] {
        let o = railnote(&["completions", shell]);
        assert_eq!(code(&o), 0, "{shell}");
        assert!(stdout(&o).contains(marker), "{shell}");
        assert!(stdout(&o).contains("keep-going"), "{shell}");
    }
    let o = railnote(&["man"]);
    assert_eq!(code(&o), 0);
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") && page.contains(".TH railnote 1"),
        "{page}"
    );
    for section in ["RAILNOTE REPLAY", "RAILNOTE FMT", "RAILNOTE MOVES"] {
        assert!(page.contains(section), "{section}");
    }
    assert!(
        page.contains("railnote replay game.rn \\-\\-keep\\-going"),
        "examples in the page"
    );

    let o = railnote(&["replay", "--help"]);
    assert!(stdout(&o).contains("Examples:\n  railnote replay game.rn\n"));
}

/// Issue 14, point 8: consistent output. `moves --format notation` prints moves that can be
/// pasted; several games in JSON are one array; `selfplay` honours `--format` with several
/// games and ranks like `replay`; a state names the priority-deal player; `--check-runs` shows
/// the recorded and the best run in the notation.
#[test]
fn output_is_consistent() {
    let o = railnote(&[
        "moves",
        &data("opening.rn"),
        "--at",
        "OR 2.1",
        "--format",
        "notation",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("moves_notation", stdout(&o));
    // Each listed move, written after the state, replays.
    let head: String = std::fs::read_to_string(data("opening.rn"))
        .unwrap()
        .lines()
        .take_while(|l| *l != "OR 2.1")
        .map(|l| format!("{l}\n"))
        .collect();
    for line in stdout(&o).lines().filter(|l| !l.starts_with(';')) {
        let file = scratch("pasted.rn", &format!("{head}OR 2.1\n{line}\n"));
        let c = railnote(&["check", file.to_str().unwrap()]);
        assert_eq!(code(&c), 0, "{line}: {}", stdout(&c));
    }

    let two = format!(
        "{}\n{}",
        std::fs::read_to_string(data("opening.rn")).unwrap(),
        std::fs::read_to_string(data("passes.rn")).unwrap()
    );
    let o = railnote_with_stdin(&["replay", "-", "--format", "json"], &two);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let all: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    assert_eq!(all.as_array().map(Vec::len), Some(2));

    let o = railnote(&["selfplay", "--games", "2", "--format", "json"]);
    assert_eq!(code(&o), 0);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one object per line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["seed"], 1);
    assert_eq!(lines[0]["result"]["1"], 5806);
    let o = railnote(&["selfplay", "--format", "text"]);
    assert_eq!(code(&o), 0);
    insta::assert_snapshot!("selfplay_text", stdout(&o));

    let o = railnote(&["replay", "samples/1836jr30-opening.json", "--at", "20"]);
    assert!(stdout(&o).contains("priority deal Famke"), "{}", stdout(&o));

    let o = railnote(&[
        "replay",
        "--check-runs",
        "samples/1836jr30-complete-annotated.rn",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(
            "warning: action 173 (#173): Nord ran 130, 200 was possible\n  recorded: run \
         4:G1-H2+H2-I3+I3-I5-J6=130@G1.0+H2.0+I3.0+J6.0\n  best:     run \
         3:I3-H2+H2-G1=80@I3.0+H2.0+G1.0 4:J6-I5-I3+I3-J2=120@J6.0+I3.0+J2.0\n"
        ),
        "{text}"
    );
}

/// Issue 14, point 9: an 18xx.games log without stored revenues converts to notation whose
/// runs carry the revenue the rules give, so that the converted game checks itself.
#[test]
fn converted_runs_carry_their_revenue() {
    let Some(shared) = crate::common::shared_dir() else {
        return;
    };
    let log = shared.join("fixtures/1836Jr30/2809.json");
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    let stored = raw["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "run_routes")
        .flat_map(|a| a["routes"].as_array().unwrap())
        .filter(|r| r.get("revenue").is_some())
        .count();
    assert_eq!(stored, 0, "an old log: no revenues stored");
    let run_actions = raw["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| {
            a["type"] == "run_routes" && a["routes"].as_array().is_some_and(|r| !r.is_empty())
        })
        .count();
    let o = railnote(&["convert", log.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let notation = stdout(&o);
    let runs: Vec<&str> = notation
        .split([',', '\n'])
        .map(str::trim)
        .filter(|m| m.starts_with("run ") || m.contains(": run "))
        .collect();
    assert_eq!(runs.len(), run_actions, "{runs:?}");
    assert!(runs.iter().all(|r| r.contains('=')), "{runs:?}");
    assert!(notation.contains("Nord: 57 H4 r5, tok H4 s0, run 2:I3-I5-H4=50, pay"));
    let c = railnote_with_stdin(&["check", "-"], &notation);
    assert_eq!(code(&c), 0, "{}", stdout(&c));
}

/// Issue 14, point 10: a self-played game that ends `dnf` (every corporation closed, the round
/// limit reached: 18Ireland, 4 players, seed 11, random) did not finish, and `selfplay` says so
/// with exit 1, as the README says; a finished one exits 0.
#[test]
fn selfplay_dnf_exits_1() {
    let o = railnote(&[
        "selfplay",
        "--title",
        "18Ireland",
        "--players",
        "4",
        "--seed",
        "11",
        "--policy",
        "random",
        "--format",
        "text",
    ]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stdout(&o).starts_with("seed 11: unfinished after 500 actions, SR 100 (dnf)\n"),
        "{}",
        stdout(&o)
    );
    let o = railnote(&["selfplay", "--games", "2", "--format", "text"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}
