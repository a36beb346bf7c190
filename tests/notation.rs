//! The railnote notation end to end: fixtures converted both ways and replayed to the same
//! per-action states, fmt idempotence, samples, and rendered diagnostics.

use std::ops::ControlFlow;
use std::sync::Arc;

use railnote::notation::{parse, write};
use railnote::output::Snapshot;
use railnote::replay::notation::{play, GameRejected, PlayOptions};
use railnote::replay::Replay;

use crate::common::{fixtures, render, shared_dir, KEEP_GOING};

fn snapshots(log: &railnote::log::GameLog) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    let mut r = Replay::new(log).unwrap();
    r.run_with(|step, game| {
        let mut s = serde_json::to_value(Snapshot::after(game, log, step)).unwrap();
        s["action_id"] = serde_json::Value::Null;
        out.push(s);
        ControlFlow::Continue(())
    })
    .unwrap();
    out
}

#[test]
fn fixtures_convert_both_ways_losslessly() {
    let Some(shared) = shared_dir() else {
        eprintln!("skipped: shared fixtures not found");
        return;
    };
    let paths = fixtures(&shared, "1836Jr30")
        .into_iter()
        .chain(fixtures(&shared, "18Ireland"));
    for path in paths {
        let name = path.display().to_string();
        let json = std::fs::read_to_string(&path).unwrap();
        let log = railnote::log::read(&name, &json).unwrap();
        let doc = railnote::convert::to_notation(&log).unwrap();
        let text = write(&doc);
        // The size target is for 1836Jr30 (18Ireland logs carry much undo history,
        // which conversion drops, but more per-move detail: 12–16 %). Runs carry their
        // revenue since issue 14 (point 9), also where old logs store none: 14–15.1 %.
        let limit = if log.title.name == "1836Jr30" { 16 } else { 17 };
        assert!(
            text.len() * 100 <= json.len() * limit,
            "{name}: {} of {} bytes",
            text.len(),
            json.len()
        );
        // fmt is idempotent.
        let reparsed = parse("c.rn", &text).unwrap();
        assert_eq!(write(&reparsed), text);
        // Notation replays to the same per-action states as the JSON.
        let src: Arc<str> = Arc::from(text.as_str());
        let played = play("c.rn", &src, &reparsed.games[0], PlayOptions::default()).unwrap();
        assert!(
            played.errors.is_empty(),
            "{name}: {:?}",
            played.errors.first()
        );
        assert_eq!(snapshots(&log), snapshots(&played.log), "{name}");
        // And back to JSON, replayed again.
        let back = railnote::convert::to_json(&played).to_string();
        let log2 = railnote::log::read("back.json", &back).unwrap();
        assert_eq!(snapshots(&log), snapshots(&log2), "{name}");
        let header: serde_json::Value = serde_json::from_str(&json).unwrap();
        let again: serde_json::Value = serde_json::from_str(&back).unwrap();
        assert_eq!(header["result"], again["result"], "{name}");
        assert_eq!(
            header["game_end_reason"], again["game_end_reason"],
            "{name}"
        );
    }
}

#[test]
fn samples_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    for path in &crate::common::files_in(&dir, "rn") {
        let src = std::fs::read_to_string(path).unwrap();
        let doc = parse("sample.rn", &src).unwrap();
        assert_eq!(write(&parse("s.rn", &write(&doc)).unwrap()), write(&doc));
        let shared: Arc<str> = Arc::from(src.as_str());
        let played = play("sample.rn", &shared, &doc.games[0], KEEP_GOING).unwrap();
        assert!(played.errors.is_empty(), "{:?}", played.errors);
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let report = railnote::output::ScoreReport::new(&played.game, &played.log);
        insta::assert_snapshot!(stem, format!("{}\n{report}", played.game.round_label()));
    }
}

fn rejected(src: &str) -> String {
    match parse("game.rn", src) {
        Err(e) => render(&e),
        Ok(doc) => {
            let shared: Arc<str> = Arc::from(src);
            match play("game.rn", &shared, &doc.games[0], KEEP_GOING) {
                Err(e) => render(&e),
                Ok(p) => render(&GameRejected::of(&p).expect("rejected")),
            }
        }
    }
}

const HEAD: &str = "[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n\n";

#[test]
fn diagnostic_syntax_errors_are_all_reported() {
    insta::assert_snapshot!(rejected(&format!(
        "{HEAD}Ann: bdi CFL 45\nBob: bid CFL lots\nCid: 57 E7 r9, tok E11/0\n{{never closed"
    )));
}

#[test]
fn diagnostic_rules() {
    insta::assert_snapshot!(rejected(&format!(
        "{HEAD}PR\nBob: bid CFL 165\nAnn: bid NOPE 20\nSR 1\n= Ann 999\nAnn: bid CFLV 225\n"
    )));
}

#[test]
fn diagnostic_missing_tags() {
    insta::assert_snapshot!(rejected("Ann: pass\n"));
}

#[test]
fn diagnostic_seed_missing_or_malformed() {
    let head = "[Title \"18Ireland\"]\n[Players \"Ann, Bob, Cid\"]\n";
    insta::assert_snapshot!(
        "seed_missing",
        rejected(&format!("{head}\nPR\nAnn: pass\n"))
    );
    insta::assert_snapshot!(
        "seed_malformed",
        rejected(&format!("{head}[Seed \"12ab\"]\n\nPR\nAnn: pass\n"))
    );
}

/// The 18Ireland sample's random setup, as the seed 20261122 draws it.
const SAMPLE_SETUP: &str = "removed BoW, CDSPC, TDR, RSSC, WDE, TIM, UR; charters DKR, GNWR, \
WLR, KJR, LER, GJR, DER, SLNCR, CIR, EBSR, DDR, WKR, CBPR";

fn ireland_sample() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/18ireland-notation-opening.rn"),
    )
    .unwrap()
}

fn standings(src: &str) -> String {
    let doc = parse("game.rn", src).unwrap();
    let shared: Arc<str> = Arc::from(src);
    let played = play("game.rn", &shared, &doc.games[0], KEEP_GOING).unwrap();
    assert!(played.errors.is_empty(), "{:?}", played.errors);
    railnote::output::ScoreReport::new(&played.game, &played.log).to_string()
}

/// A game states its random setup with `Setup`, with or without the seed it was drawn from;
/// the game is the same, in whatever order the removals are written.
#[test]
fn a_stated_setup_replaces_the_seed() {
    let sample = ireland_sample();
    let seed_line = "[Seed \"20261122\"]\n";
    assert!(sample.contains(seed_line));
    let with_seed = standings(&sample);
    let setup_only = sample.replacen(seed_line, "", 1);
    assert_ne!(setup_only, sample);
    assert_eq!(standings(&setup_only), with_seed);
    let reordered = setup_only.replacen(
        "removed BoW, CDSPC, TDR, RSSC, WDE, TIM, UR",
        "removed UR, TIM, WDE, RSSC, TDR, CDSPC, BoW",
        1,
    );
    assert_ne!(reordered, setup_only);
    assert_eq!(standings(&reordered), with_seed);
    // Without both, the game cannot be set up.
    let neither = setup_only.replacen(&format!("[Setup \"{SAMPLE_SETUP}\"]\n"), "", 1);
    assert_ne!(neither, setup_only);
    assert!(rejected(&neither).contains("needs the seed of its random setup"));
}

/// 1889's beginner game states the deal of the privates (seat order) instead of the seed; a
/// deal the seed does not make, or of privates not in the game, is refused. 18Chesapeake
/// states the corporation drawn for the Cornelius Vanderbilt.
#[test]
fn dealt_privates_and_drawn_presidencies_are_stated_setups() {
    let beginner = "[Title \"1889\"]\n[Players \"Ann, Bob, Cid\"]\n[Rules \"beginner_game\"]\n";
    let game = |tags: &str| format!("{beginner}{tags}\nSR 1\nAnn: par AR 70\n");
    // Seed 7 deals DR, SIR, ER (3 players: DR, SIR and ER are in the game).
    let seeded = standings(&game("[Seed \"7\"]"));
    assert_eq!(standings(&game("[Setup \"dealt DR, SIR, ER\"]")), seeded);
    assert_eq!(
        standings(&game("[Seed \"7\"]\n[Setup \"dealt DR, SIR, ER\"]")),
        seeded
    );
    assert!(
        rejected(&game("[Seed \"7\"]\n[Setup \"dealt ER, SIR, DR\"]"))
            .contains("the seed 7 draws a different setup: dealt DR, SIR, ER")
    );
    assert!(rejected(&game("[Setup \"dealt DR, SIR, MF\"]"))
        .contains("each player is dealt one of ER, DR, SIR"));
    let chesapeake = "[Title \"18Chesapeake\"]\n[Players \"Ann, Bob, Cid\"]\n";
    let game = |tags: &str| format!("{chesapeake}{tags}\nPR\nAnn: bid D&R 20\n");
    assert_eq!(
        standings(&game("[Setup \"CV brings C&O\"]")),
        standings(&game("[Seed \"3055\"]"))
    );
    assert!(
        rejected(&game("[Seed \"3055\"]\n[Setup \"CV brings PRR\"]"))
            .contains("the seed 3055 draws a different setup: CV brings C&O")
    );
}

/// 1889's Mitsubishi Ferry: its owner lays the port before the operating corporation acts, or
/// in the track step of a corporation he presides over, but not in another's turn once it has
/// acted; the port is not a corporation's tile.
#[test]
fn mitsubishi_ferry_lays_when_its_owner_may() {
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/1889-notation-opening.rn"),
    )
    .unwrap();
    let mf = "MF: 437 J9 r0 {Botan lays the Mitsubishi Ferry's port himself, in another player's turn}\n";
    assert!(sample.contains(mf));
    let without = sample.replacen(mf, "", 1);
    let sr_turn = "SR: 57 I2 r1, train 2, train 2, pass\n";
    assert!(without.contains(sr_turn));
    // SR (Botan's) has laid its tile: its track step waits for Botan's lay, or a pass. Once
    // AR (Daiki's) has acted, Botan's chance is past.
    let late = without
        .replacen(sr_turn, "SR: 57 I2 r1, pass, train 2, train 2, pass\n", 1)
        .replacen(
            "AR: 6 K8 r1, train 2, train 2, pass\n",
            "AR: 6 K8 r1\nMF: 437 J9 r0\n",
            1,
        );
    let refused = rejected(&late);
    assert!(
        refused.contains(
            "MF's lay may be made in a stock round, before the operating corporation acts in \
             its turn, or in the track step of a corporation Botan presides over"
        ),
        "{refused}"
    );
    // Before SR acts, it may; the game goes on as the sample does.
    let early = without.replacen(sr_turn, &format!("MF: 437 J9 r0\n{sr_turn}"), 1);
    assert_eq!(standings(&early), standings(&sample));
    // A corporation may not lay the port itself.
    let own = without.replacen("SR: 57 I2 r1,", "SR: 437 J9 r0,", 1);
    assert!(
        rejected(&own).contains("tile 437-0 is laid only by a private's ability"),
        "{}",
        rejected(&own)
    );
}

#[test]
fn diagnostic_setup_errors() {
    let sample = ireland_sample();
    let setup_line = format!("[Setup \"{SAMPLE_SETUP}\"]");
    assert!(sample.contains(&setup_line));
    // The seed draws another charter order.
    let swapped = sample.replacen("charters DKR, GNWR, WLR", "charters DKR, WLR, GNWR", 1);
    insta::assert_snapshot!("setup_differs_from_seed", rejected(&swapped));
    // DAR is never removed.
    let protected =
        sample
            .replacen("[Seed \"20261122\"]\n", "", 1)
            .replacen("removed BoW,", "removed DAR,", 1);
    insta::assert_snapshot!("setup_impossible", rejected(&protected));
    let malformed = sample.replacen(&setup_line, "[Setup \"BoW CDSPC\"]", 1);
    insta::assert_snapshot!("setup_malformed", rejected(&malformed));
    let jr30 = HEAD.replacen("\n\n", "\n[Setup \"removed DR; charters DKR\"]\n\n", 1);
    assert!(rejected(&format!("{jr30}PR\nAnn: pass\n")).contains("1836Jr30"));
}

/// `fmt` keeps every comment where it was written: on the line of the move, heading, check line
/// or correction it follows, or on a line of its own.
#[test]
fn fmt_keeps_comments_on_their_lines() {
    let src = format!(
        "{HEAD}PR ; the auction\nAnn: bid CFL 165 {{high}}\n{{on its own}}\nBob: pass\n\
         = Ann 235 ; after the bid\ncorrect cash Bob +5 {{a typo}}\n; alone\nSR 1 {{first}}\n"
    );
    let canonical = railnote::notation::write(&parse("game.rn", &src).unwrap());
    assert_eq!(canonical, src);
}

/// A comment between a move and its variation keeps the variation attached to the move.
#[test]
fn a_comment_may_stand_between_a_move_and_its_variation() {
    let plain = format!("{HEAD}PR\nAnn: bid CFL 165 (Ann: pass)\nBob: pass\n");
    let commented = format!("{HEAD}PR\nAnn: bid CFL 165 {{a note}} (Ann: pass)\nBob: pass\n");
    assert_eq!(standings(&commented), standings(&plain));
    // The variation is replayed: an illegal one is still reported.
    let bad = format!("{HEAD}PR\nAnn: bid CFL 165 {{a note}} (Ann: bid CFL 5)\nBob: pass\n");
    assert!(rejected(&bad).contains("rules::"), "{}", rejected(&bad));
}

#[test]
fn diagnostic_wrong_round_heading() {
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/18ireland-notation-opening.rn"),
    )
    .unwrap();
    let edited = sample.replacen("OR 1.2\n", "MR 1.2\n", 1);
    assert_ne!(edited, sample);
    insta::assert_snapshot!(rejected(&edited));
}

/// The opening sample followed by `extra` (in the first stock round), replayed.
fn opening_with(extra: &str) -> (String, railnote::replay::notation::Played) {
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/1836jr30-notation-opening.rn"),
    )
    .unwrap();
    let src = format!("{sample}{extra}");
    let doc = parse("game.rn", &src).unwrap();
    let shared: Arc<str> = Arc::from(src.as_str());
    let played = play("game.rn", &shared, &doc.games[0], KEEP_GOING).unwrap();
    (src, played)
}

#[test]
fn tile_and_share_corrections_are_applied_and_listed() {
    let (_, before) = opening_with("");
    let (src, played) = opening_with(
        "correct tile 57 E7 r2\ncorrect tile 7 E7 r4 {the 57 goes back}\ncorrect share GCL_3 Ann\ncorrect cash Bob -18\n",
    );
    assert!(played.errors.is_empty(), "{:?}", played.errors);
    let game = &played.game;
    let map = game.title.map;
    let e7 = map.hex_index("E7".parse().unwrap()).unwrap();
    let (tile, rotation) = game.board.tile_at(e7);
    assert_eq!(
        (map.tile_name(tile), rotation.get()),
        ("7-0".to_string(), 4)
    );
    // 57 went back to the supply; one 7 left it.
    let supply = |g: &railnote::engine::Game, name: &str| {
        g.board.supply_count(map.tile_def_by_name(name).unwrap())
    };
    assert_eq!(supply(game, "57"), supply(&before.game, "57"));
    assert_eq!(supply(game, "7"), supply(&before.game, "7") - 1);
    let gcl = game.title.corp_by_sym("GCL").unwrap();
    let ann = railnote::ids::PlayerId(0);
    assert_eq!(game.percent_held(ann, gcl), 10);
    assert_eq!(game.players[1].cash.0, before.game.players[1].cash.0 - 18);
    assert_eq!(game.bank.0, before.game.bank.0 + 18);
    let listed: Vec<(usize, &str, &str)> = played
        .corrections
        .iter()
        .map(|c| (c.span.line_col(&src).0, c.round.as_str(), c.text.as_str()))
        .collect();
    let first = src.lines().count() - 3;
    assert_eq!(
        listed,
        [
            (first, "SR 1", "correct tile 57-0 E7 r2"),
            (first + 1, "SR 1", "correct tile 7-0 E7 r4"),
            (first + 2, "SR 1", "correct share GCL_3 Ann"),
            (first + 3, "SR 1", "correct cash Bob -18"),
        ]
    );
}

#[test]
fn a_correction_that_cannot_be_carried_out_is_rejected() {
    let (_, played) = opening_with("correct share Nord_0 Bob\n");
    let codes: Vec<(&str, &str)> = played
        .errors
        .iter()
        .map(|e| (e.code.as_str(), e.label.as_str()))
        .collect();
    assert_eq!(
        codes,
        [(
            "rules::unknown_share",
            "the president's certificate changes hands only with the presidency"
        )]
    );
    assert!(played.corrections.is_empty());
}

/// A stated price per share (`@82`) is checked like every recorded value, and a correct one
/// survives conversion to JSON (`share_price`) and back.
#[test]
fn a_stated_share_price_is_checked_and_kept() {
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/1836jr30-notation-opening.rn"),
    )
    .unwrap();
    let forged = sample.replacen("Ann: buy Nord\n", "Ann: buy Nord @90\n", 1);
    assert_ne!(forged, sample);
    let doc = parse("game.rn", &forged).unwrap();
    let shared: Arc<str> = Arc::from(forged.as_str());
    let played = play("game.rn", &shared, &doc.games[0], PlayOptions::default()).unwrap();
    insta::assert_snapshot!(render(&played.errors[0]));
    let stated = sample.replacen("Ann: buy Nord\n", "Ann: buy Nord @82\n", 1);
    let doc = parse("stated.rn", &stated).unwrap();
    let shared: Arc<str> = Arc::from(stated.as_str());
    let played = play("stated.rn", &shared, &doc.games[0], PlayOptions::default()).unwrap();
    assert!(played.errors.is_empty());
    let json = railnote::convert::to_json(&played);
    let buys: Vec<&serde_json::Value> = json["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "buy_shares" && a.get("share_price").is_some())
        .collect();
    assert_eq!(buys.len(), 1);
    assert_eq!(buys[0]["share_price"], 82);
    let log = railnote::log::read("stated.json", &json.to_string()).unwrap();
    let back = write(&railnote::convert::to_notation(&log).unwrap());
    assert!(back.contains("buy Nord @82"), "{back}");
}
