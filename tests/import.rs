use railnote::action::{Action, BidTarget, Entity};
use railnote::ids::{Money, Percent, PlayerId, ShareId};
use railnote::log::{self, LogError, ProblemKind};

use crate::common::render;
use crate::hostile::pipeline;

/// A two-player 1836Jr30 log with the given actions, one per line.
fn game(actions: &[&str]) -> String {
    format!(
        "{{\n  \"id\": 1,\n  \"title\": \"1836Jr30\",\n  \"players\": [{{\"id\": 11, \"name\": \"Ann\"}}, {{\"id\": 22, \"name\": \"Bob\"}}],\n  \"actions\": [\n    {}\n  ]\n}}\n",
        actions.join(",\n    ")
    )
}

fn read(src: &str) -> log::GameLog {
    log::read("game.json", src).unwrap_or_else(|e| panic!("{}", render(&e)))
}

fn fail(src: &str) -> LogError {
    log::read("game.json", src).expect_err("the log should be rejected")
}

fn ids(log: &log::GameLog) -> Vec<i64> {
    log.actions.iter().map(|a| a.action_id).collect()
}

const PASS_1: &str = r#"{"type": "pass", "entity": 11, "entity_type": "player", "id": 1}"#;
const PASS_2: &str = r#"{"type": "pass", "entity": 22, "entity_type": "player", "id": 2}"#;
const PASS_3: &str = r#"{"type": "pass", "entity": 11, "entity_type": "player", "id": 3}"#;

#[test]
fn undo_undoes_the_last_action() {
    let log = read(&game(&[
        PASS_1,
        PASS_2,
        r#"{"type": "undo", "entity": 22, "id": 3}"#,
    ]));
    assert_eq!(ids(&log), [1]);
}

#[test]
fn undo_to_an_action_id_then_redo() {
    let undo = r#"{"type": "undo", "entity": 11, "id": 4, "action_id": 1}"#;
    let redo = r#"{"type": "redo", "entity": 11, "id": 5}"#;
    assert_eq!(ids(&read(&game(&[PASS_1, PASS_2, PASS_3, undo]))), [1]);
    assert_eq!(
        ids(&read(&game(&[PASS_1, PASS_2, PASS_3, undo, redo]))),
        [1, 2, 3]
    );
}

#[test]
fn redo_after_a_new_action_is_rejected() {
    let src = game(&[
        PASS_1,
        r#"{"type": "undo", "entity": 11, "id": 2}"#,
        r#"{"type": "pass", "entity": 11, "entity_type": "player", "id": 3}"#,
        r#"{"type": "redo", "entity": 11, "id": 4}"#,
    ]);
    let err = fail(&src);
    assert_eq!(err.problems[0].kind, ProblemKind::NothingToRedo);
    insta::assert_snapshot!(render(&err));
}

#[test]
fn undone_actions_are_not_resolved() {
    // The reference engine never looks at an undone action, so neither do we.
    let bogus = r#"{"type": "teleport", "entity": 11, "entity_type": "player", "id": 2}"#;
    let log = read(&game(&[
        PASS_1,
        bogus,
        r#"{"type": "undo", "entity": 11, "id": 3}"#,
    ]));
    assert_eq!(ids(&log), [1]);
}

#[test]
fn auto_actions_follow_their_parent() {
    let src = game(&[
        r#"{"type": "program_share_pass", "entity": 11, "entity_type": "player", "id": 1, "unconditional": false,
      "auto_actions": [{"type": "pass", "entity": 11, "entity_type": "player"},
                       {"type": "program_disable", "entity": 11, "entity_type": "player", "reason": "x"}]}"#,
    ]);
    let log = read(&src);
    let a = &log.actions[0];
    assert_eq!(
        a.action,
        Action::Program {
            entity: Entity::Player(PlayerId(0))
        }
    );
    let autos: Vec<_> = a
        .auto_actions
        .iter()
        .map(|x| x.type_name.as_ref())
        .collect();
    assert_eq!(autos, ["pass", "program_disable"]);
    assert_eq!(
        a.auto_actions[0].action,
        Action::Pass {
            entity: Entity::Player(PlayerId(0))
        }
    );
    // Auto actions carry their own span, inside the parent's.
    assert!(
        a.auto_actions[0].span.offset > a.span.offset
            && a.auto_actions[0].span.end() < a.span.end()
    );
}

#[test]
fn hotseat_players_are_known_by_name() {
    let src = r#"{"id": "hs_abc_1", "title": "1836Jr30", "players": [{"name": "Ann"}, {"name": "Bob"}],
      "actions": [{"type": "bid", "entity": "Bob", "entity_type": "player", "id": 1, "company": "CFL", "price": 165}]}"#;
    let log = read(src);
    assert_eq!(log.player_ids(), ["Ann", "Bob"]);
    let cfl = log.title.company_by_sym("CFL").unwrap();
    assert_eq!(
        log.actions[0].action,
        Action::Bid {
            entity: Entity::Player(PlayerId(1)),
            target: BidTarget::Company(cfl),
            price: Money(165)
        }
    );
}

#[test]
fn old_logs_without_percent() {
    let src = game(&[
        r#"{"type": "buy_shares", "entity": 11, "entity_type": "player", "id": 1, "shares": ["Nord_3"]}"#,
        r#"{"type": "sell_shares", "entity": 11, "entity_type": "player", "id": 2, "shares": ["Nord_0", "Nord_3"], "percent": 20}"#,
    ]);
    let log = read(&src);
    let nord = log.title.corp_by_sym("Nord").unwrap();
    let player = Entity::Player(PlayerId(0));
    assert_eq!(
        log.actions[0].action,
        Action::BuyShares {
            entity: player,
            shares: vec![ShareId {
                corp: nord,
                index: 3
            }],
            percent: None,
            share_price: None,
        }
    );
    assert!(matches!(
        &log.actions[1].action,
        Action::SellShares {
            percent: Some(Percent(20)),
            ..
        }
    ));
}

#[test]
fn every_kind_of_action_resolves() {
    let src = game(&[
        r#"{"type": "bid", "entity": 11, "entity_type": "player", "id": 1, "company": "CFLV", "price": 225}"#,
        r#"{"type": "par", "entity": 11, "entity_type": "player", "id": 2, "corporation": "Nord", "share_price": "100,0,6"}"#,
        r#"{"type": "lay_tile", "entity": "B", "entity_type": "corporation", "id": 3, "hex": "H4", "tile": "57-0", "rotation": 1}"#,
        r#"{"type": "place_token", "entity": "B", "entity_type": "corporation", "id": 4, "city": "57-0-0", "slot": 0}"#,
        r#"{"type": "run_routes", "entity": "B", "entity_type": "corporation", "id": 5, "routes": [{"train": "2-0", "connections": [["H6", "H4"]], "revenue": 50, "nodes": ["H6-0", "H4-0"]}]}"#,
        r#"{"type": "dividend", "entity": "B", "entity_type": "corporation", "id": 6, "kind": "payout"}"#,
        r#"{"type": "buy_train", "entity": "B", "entity_type": "corporation", "id": 7, "train": "D-0", "price": 800, "exchange": "4-0"}"#,
        r#"{"type": "discard_train", "entity": "B", "entity_type": "corporation", "id": 8, "train": "3-2"}"#,
        r#"{"type": "buy_company", "entity": "B", "entity_type": "corporation", "id": 9, "company": "ACC", "price": 40}"#,
        r#"{"type": "buy_shares", "entity": "GCB", "entity_type": "company", "id": 10, "shares": ["NFL_2"]}"#,
        r#"{"type": "bankrupt", "entity": "B", "entity_type": "corporation", "id": 11}"#,
        r#"{"type": "message", "entity": 11, "entity_type": "player", "id": 12, "message": "gg"}"#,
    ]);
    let log = read(&src);
    let kinds: Vec<_> = log.actions.iter().map(|a| a.action.type_name()).collect();
    assert_eq!(
        kinds,
        [
            "bid",
            "par",
            "lay_tile",
            "place_token",
            "run_routes",
            "dividend",
            "buy_train",
            "discard_train",
            "buy_company",
            "buy_shares",
            "bankrupt"
        ]
    );
    let Action::RunRoutes { routes, .. } = &log.actions[4].action else {
        panic!()
    };
    assert_eq!(routes[0].revenue, Some(Money(50)));
    assert_eq!(routes[0].nodes.len(), 2);
    assert_eq!(routes[0].connections[0][1].to_string(), "H4");
}

#[test]
fn broken_json() {
    let src = "{\n  \"title\": \"1836Jr30\",\n  \"players\": [{\"id\": 1, \"name\": \"Ann\"},\n  \"actions\": []\n}\n";
    let err = fail(src);
    assert_eq!(err.problems[0].kind, ProblemKind::Syntax);
    insta::assert_snapshot!(render(&err));
}

#[test]
fn not_a_game_log() {
    let err = fail("[1, 2, 3]");
    assert_eq!(err.problems[0].kind, ProblemKind::NotALog);
    let err = fail("{\n  \"title\": \"1836Jr30\"\n}\n");
    insta::assert_snapshot!(render(&err));
}

#[test]
fn unknown_title() {
    let src = game(&[]).replace("1836Jr30", "1817");
    let err = fail(&src);
    assert_eq!(err.problems[0].kind, ProblemKind::UnknownTitle);
    insta::assert_snapshot!(render(&err));
}

#[test]
fn every_bad_id_is_reported() {
    let src = game(&[
        r#"{"type": "buy_shares", "entity": 11, "entity_type": "player", "id": 1, "shares": ["Nord_9"], "percent": 10}"#,
        r#"{"type": "buy_train", "entity": "B", "entity_type": "corporation", "id": 2, "train": "7-0", "price": 80}"#,
        r#"{"type": "lay_tile", "entity": "B", "entity_type": "corporation", "id": 3, "hex": "h4", "tile": "57", "rotation": 6}"#,
        r#"{"type": "par", "entity": 33, "entity_type": "player", "id": 4, "corporation": "PRR", "share_price": "82,2"}"#,
        r#"{"type": "take_loan", "entity": "B", "entity_type": "corporation", "id": 5, "loan": 0}"#,
        r#"{"type": "dividend", "entity": "B", "entity_type": "corporation", "id": 6}"#,
        r#"{"type": "bid", "entity": 22, "entity_type": "player", "id": 7, "company": "CFL", "price": "lots"}"#,
    ]);
    let err = fail(&src);
    let kinds: Vec<_> = err.problems.iter().map(|p| p.kind).collect();
    assert_eq!(
        kinds,
        [
            ProblemKind::UnknownShare,
            ProblemKind::UnknownTrain,
            ProblemKind::UnknownHex,
            ProblemKind::UnknownTile,
            ProblemKind::BadValue,
            ProblemKind::UnknownEntity,
            ProblemKind::UnknownEntity,
            ProblemKind::BadValue,
            ProblemKind::UnknownActionType,
            ProblemKind::MissingField,
            ProblemKind::WrongType,
        ]
    );
    insta::assert_snapshot!(render(&err));
}

#[test]
fn undo_to_a_missing_id() {
    let err = fail(&game(&[
        PASS_1,
        r#"{"type": "undo", "entity": 11, "id": 2, "action_id": 99}"#,
    ]));
    insta::assert_snapshot!(render(&err));
}

#[test]
fn single_line_logs_are_excerpted() {
    // 18xx.games exports are one long line; the excerpt must stay near the problem.
    let filler: Vec<String> = (1..=60)
        .map(|i| format!(r#"{{"type":"pass","entity":11,"entity_type":"player","id":{i}}}"#))
        .collect();
    let mut actions: Vec<&str> = filler.iter().map(String::as_str).collect();
    actions.push(r#"{"type":"pass","entity":11,"entity_type":"player","id":61,"auto_actions":[{"type":"buy_shares","entity":11,"entity_type":"player","shares":["XYZ_1"]}]}"#);
    let src = game(&actions).replace('\n', "").replace("  ", "");
    assert_eq!(src.lines().count(), 1);
    let err = fail(&src);
    let text = render(&err);
    assert!(text.lines().all(|l| l.chars().count() < 200), "{text}");
    insta::assert_snapshot!(text);
}

/// A JSON text of `value` written as no exporter writes it, in one of several ways serde_json
/// reads as the same value: whitespace everywhere, members in reverse order, every key and some
/// strings spelled with escapes, integers of amounts written as `80.0`, and each member after a
/// member of the same key with another value (the last one counts).
fn rewritten(value: &serde_json::Value, style: u8, key: Option<&str>, out: &mut String) {
    use serde_json::Value;
    let gap = if style == 0 { "\n\t " } else { "" };
    match value {
        Value::Object(members) => {
            out.push('{');
            let members_are_an_action = members.contains_key("type");
            let mut members: Vec<_> = members.iter().collect();
            if style == 1 {
                members.reverse();
            }
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(gap);
                if style == 4 {
                    // An earlier member with the same key, which the later one replaces.
                    out.push_str(&format!("{}:[{{\"x\":1}}],", serde_json::json!(k)));
                }
                if style == 2 {
                    // The first character escaped: `"\u0074ype"`.
                    let mut chars = k.chars();
                    let first = chars.next().map_or(String::new(), |c| {
                        c.encode_utf16(&mut [0; 2])
                            .iter()
                            .map(|u| format!("\\u{u:04x}"))
                            .collect()
                    });
                    let rest = serde_json::json!(chars.as_str()).to_string();
                    out.push_str(&format!("\"{first}{}", &rest[1..]));
                } else {
                    out.push_str(&serde_json::json!(k).to_string());
                }
                out.push_str(gap);
                out.push(':');
                out.push_str(gap);
                // Game and player ids are read as text: only an action's id is an integer.
                let action = members_are_an_action;
                let key = if k == "id" && !action {
                    "game or player id"
                } else {
                    k
                };
                rewritten(v, style, Some(key), out);
                out.push_str(gap);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(gap);
                rewritten(item, style, None, out);
                out.push_str(gap);
            }
            out.push(']');
        }
        Value::String(s) if style == 2 && s.starts_with(char::is_alphabetic) => {
            // `"HSM_1"` as `"\u0048SM_1"`, `"pass"` as `"\u0070ass"`.
            let first = s.chars().next().unwrap_or('a');
            let rest = serde_json::json!(&s[first.len_utf8()..]).to_string();
            out.push_str(&format!("\"\\u{:04x}{}", first as u32, &rest[1..]));
        }
        Value::Number(n)
            if style == 3
                && n.is_i64()
                && matches!(
                    key,
                    Some(
                        "price" | "percent" | "revenue" | "cost" | "id" | "action_id" | "rotation"
                    )
                ) =>
        {
            out.push_str(&format!("{n}.0"));
        }
        other => out.push_str(&other.to_string()),
    }
}

/// What a read log says, apart from where it is written.
fn meaning(log: &log::GameLog) -> String {
    let actions: Vec<String> = log
        .actions
        .iter()
        .map(|a| {
            let autos: Vec<String> = a
                .auto_actions
                .iter()
                .map(|x| format!("{} {:?}", x.type_name, x.action))
                .collect();
            format!(
                "{} {} {} {:?} {autos:?}",
                a.raw_index, a.action_id, a.type_name, a.action
            )
        })
        .collect();
    let h = &log.header;
    let result: Option<Vec<(&String, i64)>> = h
        .result
        .as_ref()
        .map(|r| r.iter().map(|(k, v)| (k, v.value)).collect());
    let players: Vec<(&str, &str)> = h
        .players
        .iter()
        .map(|p| (p.id.as_str(), p.name.as_str()))
        .collect();
    let rules: Vec<&str> = h.optional_rules.iter().map(|r| r.value.as_str()).collect();
    format!(
        "{} {:?} {players:?} {rules:?} {:?} {result:?} {:?} {}\n{}",
        h.title.value,
        h.game_id,
        h.seed,
        h.game_end_reason,
        log.raw_count,
        actions.join("\n")
    )
}

#[test]
fn unusual_but_valid_json_reads_as_the_exported_log() {
    let Some(shared) = crate::common::shared_dir() else {
        return;
    };
    let titles = std::fs::read_dir(shared.join("fixtures")).unwrap();
    let mut titles: Vec<_> = titles.map(|t| t.unwrap().file_name()).collect();
    titles.sort();
    let mut read_files = 0;
    for title in titles {
        for path in crate::common::fixtures(&shared, &title.to_string_lossy()) {
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(plain) = log::read("game.json", &text) else {
                continue;
            };
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            for style in 0..5 {
                let mut other = String::new();
                rewritten(&value, style, None, &mut other);
                let read = log::read("game.json", &other)
                    .unwrap_or_else(|e| panic!("{} style {style}: {}", path.display(), render(&e)));
                assert_eq!(
                    meaning(&read),
                    meaning(&plain),
                    "{} style {style}",
                    path.display()
                );
                // Every action's span is its object, wherever it is written.
                for a in &read.actions {
                    let written: serde_json::Value =
                        serde_json::from_str(&other[a.span.offset..a.span.end()]).unwrap();
                    assert_eq!(
                        written.get("type").and_then(|t| t.as_str()),
                        Some(a.type_name.as_ref())
                    );
                }
            }
            read_files += 1;
        }
    }
    assert!(read_files >= 10, "only {read_files} fixtures read");
}

/// Whether the fast path reads `text` as the located path does (when it takes it at all);
/// `true` if it took it.
fn fast_path_agrees(what: &str, text: &str) -> bool {
    let shared: std::sync::Arc<str> = std::sync::Arc::from(text);
    let Some(fast) = pipeline::fast_read_agreeing(what, &shared) else {
        return false;
    };
    assert!(std::sync::Arc::ptr_eq(&fast.src, &shared), "{what}");
    // And `read` is the fast path's result.
    let read = log::read_shared(what, std::sync::Arc::clone(&shared)).unwrap();
    assert_eq!(
        pipeline::log_exactly(&read),
        pipeline::log_exactly(&fast),
        "{what}"
    );
    true
}

/// The fast path of `log::read` reads every fixture of every title, every sample log and every
/// test log as the located path does, spans included, and takes nearly all of them; of the
/// fixtures rewritten as no exporter writes them, it takes those in its forms (whitespace
/// everywhere, members in reverse order: the actions before the header) and agrees on them.
#[test]
fn the_fast_path_reads_logs_as_the_located_path_does() {
    let Some(shared) = crate::common::shared_dir() else {
        return;
    };
    let titles = std::fs::read_dir(shared.join("fixtures")).unwrap();
    let mut titles: Vec<_> = titles.map(|t| t.unwrap().file_name()).collect();
    titles.sort();
    let mut files: Vec<std::path::PathBuf> = titles
        .iter()
        .flat_map(|t| crate::common::fixtures(&shared, &t.to_string_lossy()))
        .collect();
    let fixtures = files.len();
    let package = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    files.extend(crate::common::files_in(&package.join("samples"), "json"));
    files.extend(crate::common::files_in(&package.join("tests/data"), "json"));
    let (mut readable, mut fast, mut readable_fixtures) = (0, 0, 0);
    let mut rewritten_fast = [0; 5];
    for (i, path) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap();
        let what = path.display().to_string();
        let ok = log::read_located("game.json", std::sync::Arc::from(text.as_str())).is_ok();
        readable += usize::from(ok);
        fast += usize::from(fast_path_agrees(&what, &text));
        if i >= fixtures {
            continue;
        }
        readable_fixtures += usize::from(ok);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        for (style, taken) in rewritten_fast.iter_mut().enumerate() {
            let mut other = String::new();
            rewritten(&value, style as u8, None, &mut other);
            *taken += usize::from(fast_path_agrees(&format!("{what} style {style}"), &other));
        }
    }
    // Every readable file (a log the fast path declines would be one with an escape, `80.0`, a
    // repeated field or an undone action that does not resolve: none of these has one).
    assert!(
        readable >= 25,
        "only {readable} of {} files readable",
        files.len()
    );
    assert_eq!(fast, readable, "readable files taken by the fast path");
    // Whitespace, and the header after the actions: taken. Escapes, `80.0` and repeated keys:
    // left to the located path.
    assert_eq!(
        rewritten_fast,
        [readable_fixtures, readable_fixtures, 0, 0, 0],
        "rewritten fixtures taken by the fast path, by style"
    );
}

/// The fast path's scanners at their edges: keys it finds by a guess, by a look-up or the long
/// way (of up to 17 bytes, escaped, near the end of the text), numbers of any length, hexes,
/// route stops, trains, shares and entities it reads without strings and those it leaves to
/// `log::resolve`'s look-ups. It reads each log as the located path does, or declines it.
#[test]
fn the_fast_path_agrees_on_the_edges_of_its_scanners() {
    let pass = |extra: &str| {
        format!(r#"{{"type": "pass", "entity": 11, "entity_type": "player", "id": 1{extra}}}"#)
    };
    let mut taken = Vec::new();
    let mut declined = Vec::new();
    let mut check = |what: String, text: String| {
        if fast_path_agrees(&what, &text) {
            taken.push(what);
        } else {
            declined.push(what);
        }
    };
    // Keys of no field, of every length around the sixteen bytes looked at at once.
    for len in 1..=18 {
        let key = "k".repeat(len);
        check(
            format!("key of {len}"),
            game(&[&pass(&format!(r#", "{key}": 1"#))]),
        );
        // The same as the last member of the text's last action, with few bytes after it.
        let compact = game(&[&pass(&format!(r#","{key}":1"#))]).replace(['\n', ' '], "");
        check(format!("key of {len} at the end"), compact);
    }
    // Keys a field's key is the start of, or that start with one; whitespace about the colon.
    for member in [
        r#", "entity_": 1"#,
        r#", "entit": 1"#,
        r#", "types": 1"#,
        r#", "typ": 1"#,
        r#", "created_at" : 1"#,
        r#", "created_at"	:	1"#,
        r#", "created_at":
1"#,
        r#", "user":1, "skip":true, "created_at":1613855965"#,
    ] {
        check(format!("member {member}"), game(&[&pass(member)]));
    }
    // Escapes and control characters in keys: never taken.
    for member in [
        r#", "t\u0079pe": "pass""#,
        r#", "a\"b": 1"#,
        ", \"a\u{1}b\": 1",
    ] {
        let what = format!("escaped {member}");
        assert!(!fast_path_agrees(&what, &game(&[&pass(member)])), "{what}");
    }
    // The same keys in other orders and spacings, so that guesses from the actions before are
    // wrong.
    check(
        "orders".into(),
        game(&[
            PASS_1,
            r#"{"entity": 22, "type": "pass", "id": 2, "entity_type": "player"}"#,
            r#"{"id": 3, "entity_type": "player", "entity": 11, "type": "pass"}"#,
            r#"{"type":"pass","entity":22,"entity_type":"player","id":4}"#,
            r#"{ "type" : "pass" , "entity" : 11 , "entity_type" : "player" , "id" : 5 }"#,
        ]),
    );
    // Numbers: every length of digits, signs, fractions, exponents, leading zeros.
    for digits in 1..=21 {
        let n = "9".repeat(digits);
        check(
            format!("{digits} digits"),
            game(&[&pass(&format!(r#", "created_at": {n}"#))]),
        );
        check(
            format!("id of {digits} digits"),
            game(&[&format!(r#"{{"type": "pass", "entity": 11, "id": {n}}}"#)]),
        );
    }
    for number in [
        "0", "-0", "-12", "01", "1.5", "1e5", "1E+5", "-", "1.", "80.0",
    ] {
        check(
            format!("number {number}"),
            game(&[&pass(&format!(r#", "created_at": {number}"#))]),
        );
        check(
            format!("price {number}"),
            game(&[&format!(
                r#"{{"type": "bid", "entity": 11, "id": 1, "company": "CFLV", "price": {number}}}"#
            )]),
        );
    }
    // Hexes, route stops and trains: the forms read without strings and the others.
    let route = |hexes: &str, nodes: &str, train: &str| {
        game(&[&format!(
            r#"{{"type": "run_routes", "entity": "B", "entity_type": "corporation", "id": 1, "routes": [{{"train": "{train}", "connections": [[{hexes}]], "hexes": [{hexes}], "revenue": 50, "nodes": [{nodes}]}}]}}"#
        )])
    };
    for hexes in [
        r#""H6", "H4""#,
        r#""H6","H10""#,
        r#""H04""#,
        r#""H64""#,
        r#""A0", "Z9""#,
        r#""h6""#,
        r#""H""#,
        r#""H6 ""#,
        r#""H6\u0030""#,
    ] {
        check(format!("hexes {hexes}"), route(hexes, r#""H6-0""#, "2-0"));
    }
    for nodes in [
        r#""H6-0", "H4-0""#,
        r#""H10-1""#,
        r#""H6-10""#,
        r#""H6-""#,
        r#""H6-x""#,
        r#""H6--1""#,
        r#""H64-0""#,
        r#""H6-0-0""#,
    ] {
        check(
            format!("nodes {nodes}"),
            route(r#""H6", "H4""#, nodes, "2-0"),
        );
    }
    for train in [
        "2-0", "D-0", "4-0012", "4-00001", "4-+1", "4-", "-1", "2", "2--0",
    ] {
        check(
            format!("train {train}"),
            route(r#""H6", "H4""#, r#""H6-0""#, train),
        );
    }
    // Tiles, twice each: a name met before is remembered.
    for tile in [
        "57-0",
        "57-1",
        "57-00",
        "57-00000",
        "57-+0",
        "57-",
        "57",
        "57--0",
        "X-0",
        "-0",
        "a_tile_name_of_more_than_sixteen_bytes-0",
    ] {
        let lay = |id: u8| {
            format!(
                r#"{{"type": "lay_tile", "entity": "B", "entity_type": "corporation", "id": {id}, "hex": "H4", "tile": "{tile}", "rotation": 1}}"#
            )
        };
        check(format!("tile {tile}"), game(&[&lay(1), &lay(2)]));
    }
    // Shares and entities, by the short path and by `log::resolve`'s.
    for share in [
        "NFL_2", "NFL_02", "NFL_0002", "NFL_+2", "NFL_300", "NFL_", "_2", "NFL",
    ] {
        check(
            format!("share {share}"),
            game(&[&format!(
                r#"{{"type": "buy_shares", "entity": 11, "entity_type": "player", "id": 1, "shares": ["{share}"]}}"#
            )]),
        );
    }
    let long = "a_player_id_of_more_than_sixteen_bytes";
    let players = format!(r#"[{{"id": "{long}", "name": "Ann"}}, {{"id": 22, "name": "Bob"}}]"#);
    for (entity, entity_type) in [
        (format!(r#""{long}""#), "player"),
        ("22".into(), "player"),
        ("-0".into(), "player"),
        ("22".into(), "corporation"),
        (r#""B""#.into(), "corporation"),
        (r#""B""#.into(), "minor"),
        (r#""GCB""#.into(), "company"),
        (r#""GCB""#.into(), "a_type_of_more_than_sixteen_bytes"),
        (r#""B""#.into(), "nobody"),
    ] {
        let action = format!(
            r#"{{"type": "pass", "entity": {entity}, "entity_type": "{entity_type}", "id": 1}}"#
        );
        let text = game(&[&action]).replacen(
            r#"[{"id": 11, "name": "Ann"}, {"id": 22, "name": "Bob"}]"#,
            &players,
            1,
        );
        check(format!("entity {entity} {entity_type}"), text);
    }
    // What the fast path takes of these: what 18xx.games writes, and more.
    for what in [
        "key of 16",
        "key of 18 at the end",
        "member , \"created_at\" : 1",
        "orders",
        "21 digits",
        "id of 18 digits",
        "number -0",
        "hexes \"H6\",\"H10\"",
        "nodes \"H6-10\"",
        "train 4-00001",
        "share NFL_02",
        "tile 57-00",
        "tile 57-00000",
        &format!("entity \"{long}\" player"),
    ] {
        assert!(taken.iter().any(|t| t == what), "{what} not taken");
    }
    for what in ["id of 21 digits", "price 1.5", "price 80.0", "hexes \"h6\""] {
        assert!(declined.iter().any(|t| t == what), "{what} taken");
    }
}
