//! Pins the wire formats (field names and order) on a game before its first action.

use railnote::log;
use railnote::output::{ScoreReport, Snapshot};
use railnote::replay::Replay;

const THREE_PLAYERS: &str = r#"{
  "id": 9,
  "title": "1836Jr30",
  "players": [{"id": 5, "name": "Cy"}, {"id": 12, "name": "Di"}, {"id": 7, "name": "Ed"}],
  "settings": {"optional_rules": ["multiple_brown_from_ipo"]},
  "actions": []
}"#;

#[test]
fn snapshot_json_format() {
    let log = log::read("game.json", THREE_PLAYERS).unwrap();
    let replay = Replay::new(&log).unwrap();
    let snapshot = Snapshot::of(replay.game(), &log);
    insta::assert_json_snapshot!(snapshot);
    insta::assert_snapshot!("snapshot_text_format", snapshot.to_string());
}

#[test]
fn score_format() {
    let log = log::read("game.json", THREE_PLAYERS).unwrap();
    let replay = Replay::new(&log).unwrap();
    let report = ScoreReport::new(replay.game(), &log);
    // Equal totals share rank 1 and stay in seat order.
    let ranks: Vec<_> = report
        .players
        .iter()
        .map(|p| (p.rank, p.id.as_str()))
        .collect();
    assert_eq!(ranks, [(1, "5"), (1, "12"), (1, "7")]);
    insta::assert_json_snapshot!(report);
    insta::assert_snapshot!("score_text_format", report.to_string());
}

#[test]
fn setup_errors_point_at_the_header() {
    let src = THREE_PLAYERS.replace("multiple_brown_from_ipo", "larger_bank");
    let log = log::read("game.json", &src).unwrap();
    let err = Replay::new(&log).unwrap_err();
    insta::assert_snapshot!(crate::common::render(&err));
}

fn bundled_sample() -> log::GameLog {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/1836jr30-opening.json");
    let src = std::fs::read_to_string(path).unwrap();
    log::read("1836jr30-opening.json", &src).unwrap()
}

/// Standings at the end of the bundled sample (two operating rounds played).
#[test]
fn sample_standings() {
    let log = bundled_sample();
    let game = railnote::replay::replay(&log).unwrap();
    let report = ScoreReport::new(&game, &log);
    insta::assert_json_snapshot!(report);
    insta::assert_snapshot!("sample_standings_text", report.to_string());
}

/// The state after action 40 of the bundled sample (during SR 2).
#[test]
fn sample_mid_game_snapshot() {
    let log = bundled_sample();
    let mut replay = Replay::new(&log).unwrap();
    let mut snapshot = None;
    let _ = replay.run_with(|step, game| {
        if step.index == 40 {
            snapshot = Some(Snapshot::after(game, &log, step));
            return std::ops::ControlFlow::Break(());
        }
        std::ops::ControlFlow::Continue(())
    });
    let snapshot = snapshot.expect("the sample has 40 actions");
    insta::assert_json_snapshot!(snapshot);
    insta::assert_snapshot!("sample_mid_game_text", snapshot.to_string());
}

/// The diagnostic for an illegal action in a JSON log: where, which rule, who was to act and
/// what would have been legal (the sample's first tile lay moved to an unconnected hex).
#[test]
fn illegal_action_diagnostic_lists_legal_alternatives() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/1836jr30-opening.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let lay = json["actions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a["type"] == "lay_tile")
        .unwrap();
    // A blank hex far from every station: not connected.
    json["actions"][lay]["hex"] = serde_json::json!("K5");
    let src = serde_json::to_string_pretty(&json).unwrap();
    let log = log::read("edited.json", &src).unwrap();
    let err = railnote::replay::replay(&log).unwrap_err();
    insta::assert_snapshot!(crate::common::render(&err));
}
