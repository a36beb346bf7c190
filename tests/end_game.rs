//! 18xx.games' End Game (`end_game`, issue 11): games the reference's random player ended by
//! hand (`tests/data/reference/*-ended-by-hand*.json`, `jr30-end-game-*.json`) end as the
//! reference ends them, with a deviation warning; the notation writes it `end game`; legal
//! moves list it; self-play takes it only when asked.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use railnote::action::{Action, Entity};
use railnote::ids::{CorpId, PlayerId};
use railnote::log::{self, GameLog};
use railnote::notation::{parse, write, RawAction};
use railnote::output::ScoreReport;
use railnote::replay::notation::{play, GameRejected, PlayOptions};
use railnote::replay::{replay, replay_with_warnings, ReplayError};

use crate::common::{render, KEEP_GOING};
use crate::trace::stored_result;

/// The games ended by hand that replay, each with the reference's result: (name, result by
/// the log's player ids).
const ENDED_BY_HAND: &[(&str, &[(&str, i64)])] = &[
    // 1836Jr30, 3 players, ended in SR 8 by a player who is not to act.
    (
        "jr30-game-ended-by-hand",
        &[("1", 326), ("2", 182), ("3", 141)],
    ),
    // 18Ireland, 4 players, ended in SR 9 by a player who is not to act.
    (
        "ireland-game-ended-by-hand",
        &[("1", 981), ("2", 542), ("3", 309), ("4", 702)],
    ),
    // 1830, 2 players, ended in SR 3: privates at face value, shares at market price.
    ("1830-game-ended-by-hand", &[("1", 1110), ("2", 1086)]),
    // 1830 in the private auction, bids standing: a bid does not lower its bidder's value.
    (
        "1830-game-ended-by-hand-during-the-auction",
        &[("1", 1200), ("2", 1200)],
    ),
    // 1836Jr30 in OR 1.1, ended in the name of the operating corporation (a user who is not
    // one of the players: 18xx.games' End Game acts for the entity whose turn it is).
    (
        "jr30-end-game-for-the-operating-corporation",
        &[("1", 566), ("2", 620), ("3", 752)],
    ),
];

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reference")
        .join(format!("{name}.json"))
}

fn read(name: &str) -> (String, GameLog) {
    let src = std::fs::read_to_string(data(name)).unwrap();
    let log = log::read(&format!("{name}.json"), &src).unwrap_or_else(|e| panic!("{}", render(&e)));
    (src, log)
}

#[test]
fn games_ended_by_hand_end_at_once_with_the_reference_result() {
    for &(name, result) in ENDED_BY_HAND {
        let (_, log) = read(name);
        let last = log.actions.last().unwrap();
        assert_eq!(last.type_name, "end_game", "{name}");
        let replayed =
            replay_with_warnings(&log, false).unwrap_or_else(|e| panic!("{name}:\n{}", render(&e)));
        let report = ScoreReport::new(&replayed.game, &log);
        assert!(report.finished, "{name}");
        assert_eq!(
            report.game_end_reason.as_deref(),
            Some("manually_ended"),
            "{name}"
        );
        let expected: std::collections::BTreeMap<String, railnote::ids::Money> = result
            .iter()
            .map(|(id, v)| (id.to_string(), railnote::ids::Money(*v)))
            .collect();
        assert_eq!(report.result, expected, "{name}");
        assert_eq!(
            report.result,
            stored_result(&log),
            "{name}: the log's own result"
        );
        // Nothing else moved: the state before the End Game, but finished.
        let mut before = log.clone();
        before.actions.pop();
        let before = replay_with_warnings(&before, false).unwrap().game;
        assert_eq!(before.round_label(), replayed.game.round_label(), "{name}");
        assert_eq!(
            before.player_values(),
            replayed.game.player_values(),
            "{name}"
        );
        let last_warning = replayed.warnings.last().unwrap();
        assert_eq!(
            (last_warning.index, last_warning.rule()),
            (log.actions.len(), "deviation::game_ended_by_hand"),
            "{name}"
        );
        // Nothing may follow it (18xx.games: `GameIsOver`).
        let mut after = log.clone();
        let mut pass = last.clone();
        pass.action = Action::Pass {
            entity: last.action.entity(),
        };
        pass.action_id += 1;
        after.actions.push(pass);
        let Err(ReplayError::Illegal(e)) = replay(&after) else {
            panic!("{name}: a move after the end was accepted");
        };
        assert_eq!(
            (e.index, e.rule()),
            (log.actions.len() + 1, "rules::game_over")
        );
    }
}

/// JSON → notation → JSON keeps the End Game, its actor and the result; `fmt` keeps `end game`.
#[test]
fn a_game_ended_by_hand_converts_both_ways() {
    for &(name, _) in ENDED_BY_HAND {
        let (src, log) = read(name);
        let doc = railnote::convert::to_notation(&log).unwrap();
        let text = write(&doc);
        let last_move = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
        let actor = match log.actions.last().unwrap().action.entity() {
            Entity::Player(p) => format!("\"{}\"", log.header.players[usize::from(p.0)].name),
            Entity::Corporation(c) => log.title.corp(c).sym.clone(),
            Entity::Company(_) => unreachable!(),
        };
        // The actor is written where the turn changes; a corporation that acted just before
        // ends it on the same line.
        assert!(
            last_move.starts_with(&format!("{actor}: ")) && last_move.ends_with("end game"),
            "{name}: {last_move}"
        );
        let reparsed = parse("c.rn", &text).unwrap();
        assert_eq!(write(&reparsed), text, "{name}: fmt");
        let shared: Arc<str> = Arc::from(text.as_str());
        let played = play("c.rn", &shared, &reparsed.games[0], PlayOptions::default()).unwrap();
        assert!(
            played.errors.is_empty(),
            "{name}: {:?}",
            played.errors.first()
        );
        assert_eq!(
            played.warnings.last().map(|w| w.rule()),
            Some("deviation::game_ended_by_hand")
        );
        let back = railnote::convert::to_json(&played);
        let original: serde_json::Value = serde_json::from_str(&src).unwrap();
        assert_eq!(back["result"], original["result"], "{name}");
        assert_eq!(back["game_end_reason"], "manually_ended", "{name}");
        let last = back["actions"].as_array().unwrap().last().unwrap().clone();
        let logged = original["actions"].as_array().unwrap().last().unwrap();
        for key in ["type", "entity", "entity_type"] {
            assert_eq!(last[key], logged[key], "{name}: {key}");
        }
        let log2 = log::read("back.json", &back.to_string()).unwrap();
        let again = replay_with_warnings(&log2, false).unwrap();
        assert_eq!(
            ScoreReport::new(&again.game, &log2).result,
            stored_result(&log),
            "{name}"
        );
    }
}

/// The warning as the user sees it, from the JSON log and from the notation; a strict replay
/// refuses the move.
#[test]
fn a_game_ended_by_hand_renders_a_deviation_warning() {
    let (_, log) = read("1830-game-ended-by-hand-during-the-auction");
    let replayed = replay_with_warnings(&log, false).unwrap();
    insta::assert_snapshot!("json_warning", render(&replayed.warnings[0]));
    let Err(ReplayError::Illegal(strict)) = replay_with_warnings(&log, true) else {
        panic!("a strict replay accepted the End Game");
    };
    insta::assert_snapshot!("json_strict", render(&strict));

    let text = "[Title \"1830\"]\n[Players \"Ann, Bob\"]\n\nPR\nAnn: bid SV 20\nBob: bid BO 230\nAnn: end game\n";
    let doc = parse("ended.rn", text).unwrap();
    let shared: Arc<str> = Arc::from(text);
    let played = play("ended.rn", &shared, &doc.games[0], KEEP_GOING).unwrap();
    assert!(played.errors.is_empty(), "{:?}", played.errors);
    insta::assert_snapshot!("notation_warning", render(&played.warnings[0]));
    insta::assert_snapshot!(
        "notation_standings",
        ScoreReport::new(&played.game, &played.log).to_string()
    );
    let strict = PlayOptions {
        strict_rules: true,
        ..KEEP_GOING
    };
    let played = play("ended.rn", &shared, &doc.games[0], strict).unwrap();
    insta::assert_snapshot!(
        "notation_strict",
        render(&GameRejected::of(&played).expect("refused"))
    );
}

/// 18xx.games' engine takes an End Game from any corporation, but its web interface sends one
/// only for the corporation whose turn it is: for another, it is refused with the rule.
#[test]
fn an_end_game_for_a_corporation_whose_turn_it_is_not_is_refused() {
    let (_, log) = read("jr30-end-game-for-another-corporation");
    let Err(ReplayError::Illegal(e)) = replay(&log) else {
        panic!("accepted");
    };
    assert_eq!((e.index, e.rule()), (log.actions.len(), "rules::end_game"));
    insta::assert_snapshot!(render(&e));
}

#[test]
fn end_game_in_the_notation() {
    let text = "[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n\nBob: end game\n";
    let doc = parse("e.rn", text).unwrap();
    let railnote::notation::Element::Move(m) = &doc.games[0].body[0] else {
        panic!("{doc:?}");
    };
    assert_eq!(
        (m.actor.as_ref().map(|a| a.text.as_str()), &m.action),
        (Some("Bob"), &RawAction::EndGame)
    );
    assert_eq!(write(&doc), text);
    // Every way of getting it wrong, reported together.
    let wrong = "[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n\nAnn: end\nBob: end gmae\nCid: end game now\nAnn: endgame\nBob: ends game\n";
    insta::assert_snapshot!("syntax", render(&parse("wrong.rn", wrong).unwrap_err()));
    // A move after the end.
    let after =
        "[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n\nBob: end game\nAnn: bid CFL 45\n";
    let doc = parse("after.rn", after).unwrap();
    let shared: Arc<str> = Arc::from(after);
    let played = play("after.rn", &shared, &doc.games[0], KEEP_GOING).unwrap();
    insta::assert_snapshot!(
        "move_after_the_end",
        render(&GameRejected::of(&played).expect("refused"))
    );
}

/// Legal moves list End Game for every player and for the corporation whose turn it is, as
/// the reference's Tools tab offers it, marked as a deviation; nobody else may.
#[test]
fn legal_moves_offer_end_game_as_the_web_interface_does() {
    let (_, log) = read("jr30-end-game-for-the-operating-corporation");
    let mut before = log.clone();
    before.actions.pop();
    let game = replay_with_warnings(&before, false).unwrap().game;
    let nord = Entity::Corporation(game.title.corp_by_sym("Nord").unwrap());
    assert_eq!(game.acting_entity(), Some(nord));
    let legal = game.legal_actions();
    let ending: Vec<(Entity, Option<&str>)> = legal
        .actions
        .iter()
        .filter(|l| matches!(l.action, Action::EndGame { .. }))
        .map(|l| (l.action.entity(), l.deviation.map(|d| d.code())))
        .collect();
    let deviation = Some("deviation::game_ended_by_hand");
    assert_eq!(
        ending,
        [
            (Entity::Player(PlayerId(0)), deviation),
            (Entity::Player(PlayerId(1)), deviation),
            (Entity::Player(PlayerId(2)), deviation),
            (nord, deviation),
        ]
    );
    // Listed last, after the round's own moves.
    assert!(matches!(
        legal.actions.last().map(|l| &l.action),
        Some(Action::EndGame { .. })
    ));
    for entity in [
        Entity::Corporation(CorpId(0)),
        Entity::Company(railnote::ids::CompanyId(0)),
    ] {
        assert_ne!(Some(entity), game.acting_entity());
        let action = Action::EndGame { entity };
        assert!(!legal.contains(&game, &action));
        assert_eq!(
            game.check(&action).map_err(|e| e.code()),
            Err("rules::end_game")
        );
    }
    let report = railnote::output::MovesReport::new(&game, &legal, 21);
    let group = report.groups.last().unwrap();
    insta::assert_snapshot!(format!(
        "{}\n{}",
        group.text.join("\n"),
        serde_json::to_string_pretty(&group.actions).unwrap()
    ));
}

/// Self-play never ends a game by hand unless asked to (`--end-game-after`); asked, the game
/// ends there, scored as it stands, and the log says so.
#[test]
fn self_play_ends_a_game_by_hand_only_when_asked() {
    use railnote::selfplay::{play, play_with, Policy, SelfPlayOptions};
    let whole = play("1836Jr30", 3, 5, Policy::Greedy).unwrap();
    assert!(whole.game.finished);
    assert_ne!(
        whole.game.end_reason.map(|r| r.as_str()),
        Some("manually_ended")
    );
    assert!(!whole
        .actions
        .iter()
        .any(|a| matches!(a, Action::EndGame { .. })));
    let ending = SelfPlayOptions {
        end_game_after: Some(40),
        ..SelfPlayOptions::default()
    };
    let short = play_with("1836Jr30", 3, 5, Policy::Greedy, &ending).unwrap();
    assert_eq!(short.actions.len(), 41);
    assert_eq!(short.actions[..40], whole.actions[..40]);
    assert!(matches!(short.actions[40], Action::EndGame { .. }));
    assert_eq!(
        short.game.end_reason.map(|r| r.as_str()),
        Some("manually_ended")
    );
    let json = railnote::output::json_log::game_log(&short.setup, 5, &short.actions, &short.game);
    assert_eq!(json["game_end_reason"], "manually_ended");
    let last = json["actions"].as_array().unwrap().last().unwrap();
    assert_eq!(last["type"], "end_game");
    assert_eq!(last["entity_type"], "player");
}
