//! The notation scenarios of `samples/scenarios/` and the examples of `grammar/README.md`:
//! every legal scenario replays to its snapshotted state, every rejected one renders its
//! snapshotted diagnostics, every diagnostic code railnote can give for a notation file has a
//! rejected scenario, and every grammar production has an example that parses into it.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use railnote::notation::{
    parse, write, Annotation, CheckValue, Document, Element, Move, Orientation, RawAction,
    RoundName,
};
use railnote::output::{ScoreReport, Snapshot};
use railnote::replay::notation::{play, GameRejected, Played};

use crate::common::{files_in, render, KEEP_GOING};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// A file's name as diagnostics show it: relative to the package, `/`-separated.
fn shown_name(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap()
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn replay(name: &str, src: &str) -> Result<Played, String> {
    let doc = parse(name, src).map_err(|e| render(&e))?;
    assert_eq!(doc.games.len(), 1, "{name}: one game per scenario");
    let shared: Arc<str> = Arc::from(src);
    let played = play(name, &shared, &doc.games[0], KEEP_GOING).map_err(|e| render(&e))?;
    if played.errors.is_empty() {
        Ok(played)
    } else {
        Err(render(&GameRejected::of(&played).expect("rejected")))
    }
}

/// The state after the last move, as `railnote replay --at N` prints it, and the corrections.
fn final_state(played: &Played) -> String {
    let mut snapshot = Snapshot::of(&played.game, &played.log);
    if let Some(last) = played.log.actions.last() {
        snapshot.index = played.log.actions.len();
        snapshot.action_id = Some(last.action_id);
        snapshot.action_type = Some(last.type_name.to_string());
    }
    let mut out = snapshot.to_string();
    for c in &played.corrections {
        out.push_str(&format!("correction ({}): {}\n", c.round, c.text));
    }
    out
}

#[test]
fn legal_scenarios_replay_to_their_recorded_state() {
    let files = files_in(&root().join("samples/scenarios"), "rn");
    assert!(files.len() >= 10, "{files:?}");
    for path in &files {
        let name = shown_name(path);
        let src = std::fs::read_to_string(path).unwrap();
        let played = replay(&name, &src).unwrap_or_else(|e| panic!("{e}"));
        // fmt is idempotent on every scenario.
        let once = write(&parse(&name, &src).unwrap());
        assert_eq!(write(&parse(&name, &once).unwrap()), once, "{name}");
        insta::assert_snapshot!(format!("scenario_{}", stem(path)), final_state(&played));
    }
}

/// Every diagnostic of a rejected file: syntax errors, a setup failure, or the replay's errors.
fn diagnostics(name: &str, src: &str) -> (String, BTreeSet<String>) {
    let mut codes = BTreeSet::new();
    let rendered = match parse(name, src) {
        Err(e) => {
            codes.extend(e.errors.iter().map(|s| s.code.to_string()));
            render(&e)
        }
        Ok(doc) => {
            let shared: Arc<str> = Arc::from(src);
            match play(name, &shared, &doc.games[0], KEEP_GOING) {
                Err(e) => {
                    codes.insert(e.code.to_string());
                    render(&e)
                }
                Ok(p) => {
                    assert!(!p.errors.is_empty(), "{name} replays without an error");
                    codes.extend(p.errors.iter().map(|e| e.code.to_string()));
                    render(&GameRejected::of(&p).expect("rejected"))
                }
            }
        }
    };
    (rendered, codes)
}

#[test]
fn rejected_scenarios_render_their_diagnostics() {
    let files = files_in(&root().join("samples/scenarios/errors"), "rn");
    let mut covered = BTreeSet::new();
    for path in &files {
        let name = shown_name(path);
        let src = std::fs::read_to_string(path).unwrap();
        let (rendered, codes) = diagnostics(&name, &src);
        covered.extend(codes);
        insta::assert_snapshot!(format!("error_{}", stem(path)), rendered);
    }
    // Every code railnote gives for a notation file has a scenario; a new code needs one.
    let expected = diagnostic_codes();
    let missing: Vec<&String> = expected.difference(&covered).collect();
    assert!(missing.is_empty(), "no rejected scenario shows {missing:?}");
}

/// Codes that no notation file can produce, and why.
const UNREACHABLE_CODES: &[&str] = &[
    // The wrapper of all syntax errors of a file, not a diagnostic of its own.
    "notation::invalid",
    // A par price on several par cells: no title railnote knows has one.
    "rules::ambiguous",
];

/// The diagnostic codes of the notation reader, the replay of notation and the rules engine,
/// read from their sources so that a new code cannot be added without a scenario.
fn diagnostic_codes() -> BTreeSet<String> {
    let mut sources = vec![
        root().join("src/replay.rs"),
        root().join("src/engine/error.rs"),
    ];
    let mut dirs = vec![root().join("src/notation"), root().join("src/replay")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
                sources.push(path);
            }
        }
    }
    let mut codes = BTreeSet::new();
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, _) in text.match_indices('"') {
            let rest = &text[i + 1..];
            let Some(end) = rest.find('"') else { break };
            let literal = &rest[..end];
            let code_like = ["notation::", "rules::", "replay::"]
                .iter()
                .any(|p| literal.strip_prefix(p).is_some_and(|s| !s.is_empty()))
                && literal
                    .split("::")
                    .nth(1)
                    .is_some_and(|s| s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
            if code_like && !UNREACHABLE_CODES.contains(&literal) {
                codes.insert(literal.to_string());
            }
        }
    }
    assert!(codes.len() > 30, "{codes:?}");
    codes
}

#[test]
fn scenario_readme_lists_every_scenario() {
    let readme = std::fs::read_to_string(root().join("samples/scenarios/README.md")).unwrap();
    let listed: BTreeSet<String> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(file, _)| file.to_string())
        .filter(|f| f.ends_with(".rn"))
        .collect();
    let mut present = BTreeSet::new();
    for dir in ["samples/scenarios", "samples/scenarios/errors"] {
        for path in files_in(&root().join(dir), "rn") {
            present.insert(format!("{}.rn", stem(&path)));
        }
    }
    assert_eq!(listed, present);
}

#[test]
fn annotated_complete_game_is_canonical_and_matches_its_self_play_log() {
    annotated_game(
        "1836jr30-complete-annotated.rn",
        "1836jr30-selfplay-greedy-4p-seed200.json",
        [2, 8, 15, 4],
        ("Ann", 5450),
    );
}

#[test]
fn annotated_18ireland_game_is_canonical_and_matches_its_self_play_log() {
    annotated_game(
        "18ireland-complete-annotated.rn",
        "18ireland-selfplay-greedy-4p-seed1.json",
        [1, 2, 12, 4],
        ("Ciara", 3070),
    );
}

/// A complete annotated sample: canonical, finished, with at least `least` variations, check
/// lines, comments and glyphs, and the standings of the self-play JSON log it annotates.
fn annotated_game(file: &str, json_file: &str, least: [usize; 4], winner: (&str, i64)) {
    let path = root().join("samples").join(file);
    let src = std::fs::read_to_string(&path).unwrap();
    let doc = parse("annotated.rn", &src).unwrap();
    // Written in the canonical form, so `railnote fmt` leaves it unchanged.
    assert_eq!(write(&doc), src);
    let played = replay("annotated.rn", &src).unwrap_or_else(|e| panic!("{e}"));
    assert!(played.game.finished);
    // The annotations are the point of the file: they stay.
    let body = &doc.games[0].body;
    let count = |f: fn(&Element) -> bool| body.iter().filter(|e| f(e)).count();
    assert!(count(|e| matches!(e, Element::Variation(_))) >= least[0]);
    assert!(count(|e| matches!(e, Element::Check(_))) >= least[1]);
    assert!(count(|e| matches!(e, Element::Comment(_))) >= least[2]);
    assert!(count(|e| matches!(e, Element::Move(m) if m.annotation.is_some())) >= least[3]);
    let revenues = body
        .iter()
        .filter(|e| {
            matches!(e, Element::Move(Move { action: RawAction::Run { routes }, .. })
                if routes.iter().any(|r| r.revenue.is_some()))
        })
        .count();
    assert!(revenues >= 3);
    // The same game as the self-play JSON log that 18xx.games accepts: the same standings,
    // rank by rank (the log names its players `Player 1`…).
    let json_path = root().join("samples").join(json_file);
    let json = std::fs::read_to_string(&json_path).unwrap();
    let log = railnote::log::read("selfplay.json", &json).unwrap();
    let game = railnote::replay::replay(&log).unwrap();
    let standings = |report: &ScoreReport| -> Vec<(usize, i64, i64, i64)> {
        report
            .players
            .iter()
            .map(|s| (s.rank, s.cash.0, s.share_value.0, s.total.0))
            .collect()
    };
    let annotated = ScoreReport::new(&played.game, &played.log);
    assert_eq!(
        standings(&annotated),
        standings(&ScoreReport::new(&game, &log))
    );
    let first = &annotated.players[0];
    assert_eq!((first.name.as_str(), first.total.0), winner);
}

/// Which of the six kinds of element `e` is: heading, check, correction, move, comment,
/// variation.
fn kind(e: &Element) -> u8 {
    match e {
        Element::Heading(_) => 0,
        Element::Check(_) => 1,
        Element::Correction(_) => 2,
        Element::Move(_) => 3,
        Element::Comment(_) => 4,
        Element::Variation(_) => 5,
    }
}

/// What each production of `grammar/railnote.ebnf` must put into the document its example
/// parses to.
fn shows(production: &str, doc: &Document) -> bool {
    let body: Vec<&Element> = doc.games.iter().flat_map(|g| &g.body).collect();
    let moves: Vec<&Move> = body
        .iter()
        .filter_map(|e| match e {
            Element::Move(m) => Some(m),
            _ => None,
        })
        .collect();
    let routes = || {
        moves.iter().flat_map(|m| match &m.action {
            RawAction::Run { routes } => routes.as_slice(),
            _ => &[],
        })
    };
    let checks = || {
        body.iter().flat_map(|e| match e {
            Element::Check(c) => c.entries.as_slice(),
            _ => &[],
        })
    };
    match production {
        "document" => doc.games.len() == 2,
        "game" => doc.games.len() == 1 && doc.games[0].tags.len() == 3 && moves.len() == 1,
        "tag" => doc.games[0].tag("Event").is_some() && doc.games[0].tag("Date").is_some(),
        "movetext" => {
            let kinds: BTreeSet<u8> = body.iter().map(|e| kind(e)).collect();
            kinds.is_superset(&BTreeSet::from([0, 3, 4, 5]))
        }
        "sep" => moves.len() == 2,
        "comment" => {
            let kinds: BTreeSet<bool> = body
                .iter()
                .filter_map(|e| match e {
                    Element::Comment(c) => Some(c.line),
                    _ => None,
                })
                .collect();
            kinds.len() == 2
        }
        "variation" => body.iter().any(|e| {
            matches!(e, Element::Variation(v)
                if v.body.iter().any(|i| matches!(i, Element::Variation(_))))
        }),
        "statement" => {
            let kinds: BTreeSet<u8> = body.iter().map(|e| kind(e)).collect();
            kinds == BTreeSet::from([0, 1, 2, 3])
        }
        "heading" => {
            let rounds: Vec<RoundName> = body
                .iter()
                .filter_map(|e| match e {
                    Element::Heading(h) => Some(h.round),
                    _ => None,
                })
                .collect();
            rounds
                == [
                    RoundName::Private,
                    RoundName::Stock(2),
                    RoundName::Operating(3, 1),
                    RoundName::Merger(5, 2),
                ]
        }
        "check" | "entry" => {
            checks().any(|e| matches!(e.what, CheckValue::Cash(_)))
                && checks().any(|e| matches!(e.what, CheckValue::Holding(..)))
                && (production == "check" || checks().any(|e| e.who.text == "bank"))
        }
        "correction" => body.iter().any(|e| matches!(e, Element::Correction(_))),
        "move" => moves.iter().any(|m| m.auto && m.annotation.is_some()),
        // A quoted actor, or one glued to its action (`Ann:bid`, issue 14).
        "actor" => moves.iter().any(|m| {
            m.actor.as_ref().is_some_and(|a| {
                a.text == "Ann Lee" || (a.text == "Ann" && m.action_span.offset == a.span.end())
            })
        }),
        "annotation" => {
            let glyphs: BTreeSet<&str> = moves
                .iter()
                .filter_map(|m| m.annotation.map(Annotation::as_str))
                .collect();
            glyphs.len() == 6
        }
        "action" => !moves.is_empty(),
        "orientation" => {
            moves.iter().any(|m| {
                matches!(&m.action, RawAction::Lay { orientation: Orientation::Sides(s), .. } if s.len() == 2)
            }) && moves.iter().any(|m| {
                matches!(
                    &m.action,
                    RawAction::Lay {
                        orientation: Orientation::Rotation(5),
                        ..
                    }
                )
            })
        }
        "route" => routes().count() == 2 && routes().any(|r| r.revenue == Some(50)),
        "chain" => routes().any(|r| r.connections.len() == 2),
        "stop" => routes().any(|r| r.nodes.len() == 3),
        "walk" => routes().any(|r| r.walk.len() == 3 && r.connections.is_empty()),
        _ => false,
    }
}

/// The `| production | example |` rows of the guide's example table.
fn guide_examples() -> Vec<(String, String)> {
    let guide = std::fs::read_to_string(root().join("grammar/README.md")).unwrap();
    let (_, table) = guide
        .split_once("## Examples by production")
        .expect("grammar/README.md has the example table");
    table
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.strip_prefix("| `")?.splitn(2, "` | `").collect();
            let [name, example] = cells.as_slice() else {
                return None;
            };
            Some((name.to_string(), example.strip_suffix("` |")?.to_string()))
        })
        .collect()
}

/// The grammar without its `(* … *)` comments.
fn grammar_rules() -> String {
    let ebnf = std::fs::read_to_string(root().join("grammar/railnote.ebnf")).unwrap();
    let mut out = String::new();
    let mut rest = ebnf.as_str();
    while let Some(start) = rest.find("(*") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*)")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    out.push_str(rest);
    out
}

#[test]
fn every_grammar_production_has_an_example_that_parses_into_it() {
    let rules = grammar_rules();
    let productions: BTreeSet<String> = rules
        .lines()
        .filter_map(|l| {
            let (name, _) = l.split_once('=')?;
            let name = name.trim();
            (!name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
                .then(|| name.to_string())
        })
        .collect();
    assert!(productions.len() >= 20, "{productions:?}");
    let examples = guide_examples();
    let documented: BTreeSet<String> = examples.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(documented, productions, "grammar/README.md examples");
    for (production, example) in &examples {
        let text = if example.starts_with('[') {
            example.clone()
        } else {
            format!("[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n\n{example}\n")
        };
        let doc = parse("example.rn", &text)
            .unwrap_or_else(|e| panic!("{production}: `{example}`\n{}", render(&e)));
        assert!(
            shows(production, &doc),
            "{production}: `{example}` → {doc:?}"
        );
        // The canonical form reads back to the same document.
        assert_eq!(parse("w.rn", &write(&doc)).unwrap(), doc, "{production}");
    }
    // Every keyword and symbol of the grammar is used by some example.
    let words: BTreeSet<&str> = examples
        .iter()
        .flat_map(|(_, e)| e.split(|c: char| c.is_whitespace() || ",()".contains(c)))
        .collect();
    let all_text: String = examples.iter().map(|(_, e)| e.as_str()).collect();
    for literal in literals(&rules) {
        let used = if literal.bytes().all(|b| b.is_ascii_alphabetic()) {
            words.iter().any(|w| {
                w.strip_prefix(literal.as_str()).is_some_and(|rest| {
                    rest.is_empty() || rest == ":" || rest.bytes().all(|b| b.is_ascii_digit())
                })
            })
        } else {
            all_text.contains(literal.as_str())
        };
        assert!(used, "no example in grammar/README.md uses `{literal}`");
    }
}

/// The quoted terminals of the grammar (`"pass"`, `'"'`, `"@"`).
fn literals(rules: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut chars = rules.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '"' && c != '\'' {
            continue;
        }
        let Some(len) = rules[i + 1..].find(c) else {
            break;
        };
        out.insert(rules[i + 1..i + 1 + len].to_string());
        while chars.peek().is_some_and(|(j, _)| *j <= i + 1 + len) {
            chars.next();
        }
    }
    out
}
