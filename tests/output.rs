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
