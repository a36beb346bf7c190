//! Replays every 1836Jr30 fixture and compares, after every processed action, our state with
//! the reference engine's trace (`<shared>/traces/1836Jr30/<fixture>.jsonl`: a header line,
//! then one line per raw action with `processed` true/false, then a `final` line). Reports the
//! first mismatching action per fixture with the field, our value and the reference value.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use railnote::ids::Money;
use railnote::log;
use railnote::output::{
    CompanySnapshot, CorporationSnapshot, OrderedMap, PlayerSnapshot, PriceSnapshot, ScoreReport,
    Snapshot, TileSnapshot,
};
use railnote::replay::{replay, Replay, ReplayError};
use serde_json::Value;

use crate::common::{fixtures, render, shared_dir};
use crate::trace::{
    compare, fields, first_difference, id_text, load_trace, our_fields, reference_fields,
    round_label, stored_result, Trace, Verdict,
};

const TITLE: &str = "1836Jr30";

fn trace_path(shared: &Path, fixture: &Path) -> PathBuf {
    trace_path_of(shared, TITLE, fixture)
}

fn trace_path_of(shared: &Path, title: &str, fixture: &Path) -> PathBuf {
    let stem = fixture.file_stem().unwrap().to_string_lossy();
    shared
        .join("traces")
        .join(title)
        .join(format!("{stem}.jsonl"))
}

/// Every fixture of every title railnote knows, against its trace: every state after every
/// action equal (over the fields the trace records), the same end and result. A title's
/// fixtures are picked up from `<shared>/fixtures/<title>/` as soon as railnote knows it.
#[test]
fn every_title_matches_the_reference_engine() {
    let Some(shared) = shared_dir() else { return };
    let mut failures = String::new();
    let mut games = 0;
    for title in railnote::engine::title::Title::known_names() {
        if !shared.join("fixtures").join(title).is_dir() {
            continue;
        }
        for path in fixtures(&shared, title) {
            let found = compare(&path, &trace_path_of(&shared, title, &path));
            games += 1;
            match found.verdict {
                Verdict::Agrees => assert_eq!(found.states, found.actions),
                other => writeln!(failures, "{}: {other:?}\n", path.display()).unwrap(),
            }
        }
    }
    assert!(games >= 10, "only {games} fixtures");
    assert!(failures.is_empty(), "\n{failures}");
}

/// Replays one fixture; `Err` describes the first problem.
fn check_fixture(shared: &Path, path: &Path) -> Result<usize, String> {
    check_against_trace(path, &trace_path(shared, path), true)
}

/// Replays a log and compares every state with the trace; finished games must also reach the
/// log's stored result.
fn check_against_trace(path: &Path, trace: &Path, finished: bool) -> Result<usize, String> {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let src = std::fs::read_to_string(path).unwrap();
    let log =
        log::read(&name, &src).map_err(|e| format!("{name}: cannot import:\n{}", render(&e)))?;
    let trace = load_trace(trace);
    let mut replay = Replay::new(&log).map_err(|e| format!("{name}: {}", render(&e)))?;
    if let Some(trace) = &trace {
        let ours = our_fields(&Snapshot::of(replay.game(), &log));
        let mut reference = fields(&trace.initial, "PR".to_string());
        reference.retain(|(k, _)| k != "round");
        let ours: Vec<_> = ours.into_iter().filter(|(k, _)| k != "round").collect();
        if let Some(diff) = first_difference(&ours, &reference) {
            return Err(format!("{name}: initial state differs: {diff}"));
        }
    }
    let mut mismatch = None;
    let result = replay.run_with(|step, game| {
        let Some(trace) = &trace else {
            return ControlFlow::Continue(());
        };
        let Some(reference) = trace.processed.get(&step.action.action_id) else {
            mismatch = Some(format!(
                "{name}: action #{} (id {}, {}) is not a processed action of the reference trace",
                step.index, step.action.action_id, step.action.type_name
            ));
            return ControlFlow::Break(());
        };
        let ours = our_fields(&Snapshot::after(game, &log, step));
        match first_difference(&ours, &reference_fields(reference)) {
            None => ControlFlow::Continue(()),
            Some(diff) => {
                mismatch = Some(format!(
                    "{name}: after action #{} (id {}, {}): {diff}",
                    step.index, step.action.action_id, step.action.type_name
                ));
                ControlFlow::Break(())
            }
        }
    });
    if let Err(e) = result {
        return Err(format!("{name}: the replay stopped:\n{}", render(&e)));
    }
    if let Some(m) = mismatch {
        return Err(m);
    }
    if !finished {
        return Ok(replay.processed());
    }
    let report = ScoreReport::new(replay.game(), &log);
    let expected = stored_result(&log);
    if report.result != expected {
        return Err(format!(
            "{name}: result {:?}, expected {:?}",
            report.result, expected
        ));
    }
    if report.game_end_reason != log.header.game_end_reason {
        return Err(format!(
            "{name}: game_end_reason {:?}, expected {:?}",
            report.game_end_reason, log.header.game_end_reason
        ));
    }
    if !report.finished {
        return Err(format!("{name}: the game did not finish"));
    }
    Ok(replay.processed())
}

#[test]
fn fixtures_match_the_reference_engine() {
    let Some(shared) = shared_dir() else { return };
    let mut failures = String::new();
    for path in fixtures(&shared, TITLE) {
        match check_fixture(&shared, &path) {
            Ok(n) => eprintln!("{}: {n} actions match the reference", path.display()),
            Err(e) => writeln!(failures, "{e}\n").unwrap(),
        }
    }
    assert!(failures.is_empty(), "\n{failures}");
}

/// The bundled sample (an original opening) against the reference engine's trace of it,
/// stored beside the tests because the sample is ours.
#[test]
fn bundled_sample_matches_the_reference_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let n = check_against_trace(
        &root.join("samples/1836jr30-opening.json"),
        &root.join("tests/data/1836jr30-opening.trace.jsonl"),
        false,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n, 66);
}

/// The bundled 18Ireland notation sample, converted to 18xx.games JSON, against the reference
/// engine's strict trace of that conversion (stored beside the tests: the sample is ours).
#[test]
fn ireland_notation_sample_matches_the_reference_engine() {
    assert_eq!(
        notation_sample_matches_its_trace("18ireland-notation-opening"),
        31
    );
}

/// The 1830 notation opening (the private auction with B&O's par, Bob passed over with no
/// money, a sale-or-pass after a purchase from the second stock round), converted and traced
/// the same way.
#[test]
fn notation_sample_1830_matches_the_reference_engine() {
    assert_eq!(
        notation_sample_matches_its_trace("1830-notation-opening"),
        57
    );
}

/// The 1889 notation opening (MF's port laid by its owner, DR's exchange, ER's lay by its
/// seller, home tokens as rounds start), converted and traced the same way.
#[test]
fn notation_sample_1889_matches_the_reference_engine() {
    assert_eq!(
        notation_sample_matches_its_trace("1889-notation-opening"),
        64
    );
}

/// The 18Chesapeake notation opening (CV's drawn presidency stated by `Setup`, bids committed
/// only while leading, a train exported, C-P's two lays together), converted and traced.
#[test]
fn notation_sample_18chesapeake_matches_the_reference_engine() {
    assert_eq!(
        notation_sample_matches_its_trace("18chesapeake-notation-opening"),
        59
    );
}

/// Replays `samples/<stem>.rn`, converts it to 18xx.games JSON and compares every state with
/// the reference's strict trace of that JSON (`tests/data/<stem>.trace.jsonl`); returns the
/// actions matched.
fn notation_sample_matches_its_trace(stem: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let name = format!("{stem}.rn");
    let name = name.as_str();
    let text = std::fs::read_to_string(root.join("samples").join(name)).unwrap();
    let doc = railnote::notation::parse(name, &text).unwrap();
    let src: std::sync::Arc<str> = std::sync::Arc::from(text.as_str());
    let played = railnote::replay::notation::play(
        name,
        &src,
        &doc.games[0],
        railnote::replay::notation::PlayOptions::default(),
    )
    .unwrap();
    assert!(played.errors.is_empty(), "{:?}", played.errors.first());
    // Through the JSON text, as a user's `convert --to json` would hand it to 18xx.games.
    let json = railnote::convert::to_json(&played).to_string();
    let log = log::read(&format!("{stem}.json"), &json).unwrap();
    let trace = load_trace(&root.join(format!("tests/data/{stem}.trace.jsonl"))).unwrap();
    let (_, matched, stop) = match_trace(&log, &trace);
    assert_eq!(matched, trace.processed.len(), "{stop}");
    matched
}

/// Hand-made continuations of the sample, each traced by the reference engine, for rules the
/// fixtures never reach: (file stem in `tests/data`, processed actions).
const SCENARIOS: &[(&str, usize)] = &[
    // CdH's teleport lay and its free token.
    ("1836jr30-cdh-teleport", 71),
];

#[test]
fn scenario_logs_match_the_reference_engine() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for &(name, actions) in SCENARIOS {
        let n = check_against_trace(
            &data.join(format!("{name}.json")),
            &data.join(format!("{name}.trace.jsonl")),
            false,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(n, actions, "{name}");
    }
}

/// Single-action edits of fixture 2809, each with the verdict the rules give (the reference
/// engine's strict verdict, except where it trusts a logged value: see each variant's note).
#[test]
fn single_action_variants_are_judged_at_the_edited_action() {
    check_variants(TITLE, "1836jr30-2809-variants.json", 36);
}

/// The same for 18Ireland fixture 161830: mergers and votes, narrow-gauge bonus, hex distance,
/// reserve trains, issue and redemption, auctions, tiles, pars, privates.
#[test]
fn ireland_single_action_variants_are_judged_at_the_edited_action() {
    check_variants("18Ireland", "18ireland-161830-variants.json", 23);
}

/// Each variant edits one action of a fixture; `expect` is `rejected` (at exactly that
/// action, or at `rejected_at_index` where given), `malformed` (the log itself is refused, before any rule is applied) or `accepted`;
/// `message`, where given, is the exact explanation the diagnostic must carry.
fn check_variants(title: &str, file: &str, at_least: usize) {
    let Some(shared) = shared_dir() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/data").join(file)).unwrap();
    let variants: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut failures = String::new();
    let mut checked = 0;
    for v in &variants {
        let fixture = shared
            .join("fixtures")
            .join(title)
            .join(v["fixture"].as_str().unwrap());
        let mut log_json: Value =
            serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
        let index = v["action_index"].as_u64().unwrap() as usize;
        for (k, value) in v["edit"].as_object().unwrap() {
            log_json["actions"][index][k] = value.clone();
        }
        // An edit may be legal itself and make a later action illegal (`rejected_at_index`).
        let rejected_index = v["rejected_at_index"]
            .as_u64()
            .map_or(index, |i| i as usize);
        let rejected_id = log_json["actions"][rejected_index]["id"].as_i64().unwrap();
        let src = serde_json::to_string(&log_json).unwrap();
        let area = v["rule_area"].as_str().unwrap();
        let outcome = match log::read("variant.json", &src) {
            Err(e) => Err((None, render(&e))),
            Ok(log) => replay(&log).map(|_| ()).map_err(|e| match &e {
                ReplayError::Illegal(i) => (Some(i.action_id), render(&e)),
                ReplayError::Setup(_) => (None, render(&e)),
            }),
        };
        if let (Some(message), Err((_, rendered))) = (v["message"].as_str(), &outcome) {
            // miette wraps long lines; compare with the wrapping undone.
            let flat = rendered.split_whitespace().collect::<Vec<_>>().join(" ");
            if !flat.contains(message) {
                writeln!(
                    failures,
                    "{area} (action {index}): no `{message}` in\n{rendered}"
                )
                .unwrap();
            }
        }
        match (v["expect"].as_str().unwrap(), outcome) {
            ("rejected", Err((Some(id), _))) if id == rejected_id => {}
            ("malformed", Err((None, _))) => {}
            ("accepted", Ok(())) => {}
            (expect, got) => writeln!(
                failures,
                "{area} (action {index}): expected {expect}, got {got:?}"
            )
            .unwrap(),
        }
        checked += 1;
    }
    assert!(checked >= at_least, "only {checked} variants");
    assert!(failures.is_empty(), "\n{failures}");
}

#[test]
fn undo_filtering_keeps_exactly_the_reference_actions() {
    let Some(shared) = shared_dir() else { return };
    for path in fixtures(&shared, TITLE) {
        let Some(trace) = load_trace(&trace_path(&shared, &path)) else {
            continue;
        };
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read("fixture", &src).unwrap_or_else(|e| panic!("{}", render(&e)));
        let ours: Vec<i64> = log.actions.iter().map(|a| a.action_id).collect();
        let reference: Vec<i64> = trace.processed.keys().copied().collect();
        assert_eq!(ours, reference, "{}", path.display());
        // Auto actions: same types, in order, as the trace lists for the parent.
        for a in &log.actions {
            let autos: Vec<&str> = a
                .auto_actions
                .iter()
                .map(|x| x.type_name.as_ref())
                .collect();
            let expected: Vec<&str> = trace.processed[&a.action_id]["auto_actions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(autos, expected, "{} id {}", path.display(), a.action_id);
        }
    }
}

/// Builds our snapshot type from a trace line, as the engine would if it agreed exactly.
fn snapshot_from_trace(line: &Value) -> Snapshot {
    let s = |v: &Value| v.as_str().map(str::to_string);
    let strings = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    let id = |v: &Value| s(&id_text(v));
    Snapshot {
        index: line["index"].as_u64().unwrap_or(0) as usize,
        action_id: line["id"].as_i64(),
        action_type: s(&line["type"]),
        round: round_label(line["round_label"].as_str().unwrap()),
        phase: s(&line["phase"]).unwrap(),
        bank_cash: Money(line["bank_cash"].as_i64().unwrap()),
        priority_deal: id(&line["priority_deal"]),
        players: line["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| PlayerSnapshot {
                id: id(&p["id"]).unwrap(),
                name: s(&p["name"]).unwrap(),
                cash: Money(p["cash"].as_i64().unwrap()),
                shares: OrderedMap(
                    p["shares"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_u64().unwrap() as u8))
                        .collect(),
                ),
                companies: strings(&p["companies"]),
                bankrupt: p["bankrupt"].as_bool().unwrap(),
            })
            .collect(),
        corporations: line["corporations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| CorporationSnapshot {
                id: s(&c["id"]).unwrap(),
                president: id(&c["president"]),
                cash: Money(c["cash"].as_i64().unwrap()),
                share_price: c["share_price"].as_object().map(|p| PriceSnapshot {
                    price: Money(p["price"].as_i64().unwrap()),
                    coordinates: [
                        p["coordinates"][0].as_u64().unwrap() as u8,
                        p["coordinates"][1].as_u64().unwrap() as u8,
                    ],
                }),
                par_price: c["par_price"].as_i64().map(Money),
                floated: c["floated"].as_bool().unwrap(),
                closed: c["closed"].as_bool().unwrap(),
                ipo_percent: c["ipo_percent"].as_u64().unwrap() as u8,
                pool_percent: c["pool_percent"].as_u64().unwrap() as u8,
                trains: strings(&c["trains"]),
                tokens: strings(&c["tokens"]),
                companies: strings(&c["companies"]),
            })
            .collect(),
        companies: line["companies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| CompanySnapshot {
                id: s(&c["id"]).unwrap(),
                owner: id(&c["owner"]),
                closed: c["closed"].as_bool().unwrap(),
            })
            .collect(),
        tiles: line["tiles"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(hex, t)| {
                (
                    hex.clone(),
                    TileSnapshot {
                        tile: s(&t["tile"]).unwrap(),
                        rotation: t["rotation"].as_u64().unwrap() as u8,
                    },
                )
            })
            .collect(),
    }
}

/// The harness itself: a snapshot that agrees with the trace compares equal on every line of
/// every trace, and a changed field is reported by name with both values.
#[test]
fn the_trace_comparison_finds_the_first_difference() {
    let Some(shared) = shared_dir() else { return };
    let mut lines = 0;
    for path in fixtures(&shared, TITLE) {
        let Some(trace) = load_trace(&trace_path(&shared, &path)) else {
            continue;
        };
        for line in trace.processed.values() {
            let ours = our_fields(&snapshot_from_trace(line));
            assert_eq!(
                first_difference(&ours, &reference_fields(line)),
                None,
                "id {}",
                line["id"]
            );
            lines += 1;
        }
        let line = trace.processed.values().nth(40).unwrap();
        let mut snapshot = snapshot_from_trace(line);
        snapshot.corporations[1].cash += Money(1);
        let diff = first_difference(&our_fields(&snapshot), &reference_fields(line)).unwrap();
        let corp = &snapshot.corporations[1].id;
        assert!(
            diff.starts_with(&format!("corporations[{corp}].cash: ours ")),
            "{diff}"
        );
        assert!(diff.contains("vs reference"), "{diff}");
    }
    assert!(lines > 1000, "only {lines} trace lines compared");
}

#[test]
fn initial_state_matches_the_reference() {
    // Passes before the rounds exist: only setup (cash, bank, charters) is compared.
    let Some(shared) = shared_dir() else { return };
    for path in fixtures(&shared, TITLE) {
        let Some(trace) = load_trace(&trace_path(&shared, &path)) else {
            continue;
        };
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read("fixture", &src).unwrap_or_else(|e| panic!("{}", render(&e)));
        let replay = Replay::new(&log).unwrap();
        let ours: Vec<_> = our_fields(&Snapshot::of(replay.game(), &log))
            .into_iter()
            .filter(|(k, _)| k != "round")
            .collect();
        let mut reference = fields(&trace.initial, String::new());
        reference.retain(|(k, _)| k != "round");
        assert_eq!(
            first_difference(&ours, &reference),
            None,
            "{}",
            path.display()
        );
    }
}

/// The 18Ireland reference games and their processed actions. Every state must equal the
/// reference's (compared over the reference's corporations and privates: closed and removed
/// ones are not listed there), and each game must end with exactly its stored result.
const IRELAND_GAMES: &[(&str, usize)] = &[
    ("161830.json", 637),
    ("18Ireland_game_end_bankrupt.json", 654),
    ("18Ireland_game_end_stock_market.json", 627),
    ("larger_bank_optional_rule.json", 784),
];

#[test]
fn ireland_fixtures_match_the_reference_engine() {
    let Some(shared) = shared_dir() else { return };
    for &(name, actions) in IRELAND_GAMES {
        let path = shared.join("fixtures/18Ireland").join(name);
        let trace = load_trace(
            &shared
                .join("traces/18Ireland")
                .join(name.replace(".json", ".jsonl")),
        )
        .expect("every 18Ireland fixture has a trace");
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read(name, &src).unwrap_or_else(|e| panic!("{}", render(&e)));
        let (replay, matched, stop) = match_trace(&log, &trace);
        eprintln!("{name}: {matched} actions match the reference");
        assert_eq!(matched, actions, "{name}: {stop}");
        assert!(replay.game().finished, "{name}: the game did not finish");
        let report = ScoreReport::new(replay.game(), &log);
        assert_eq!(report.result, stored_result(&log), "{name}");
        assert_eq!(report.game_end_reason, log.header.game_end_reason, "{name}");
    }
}

/// A reference game of the 1830 family: its file, its processed actions, its end reason and
/// the deviation warnings its replay gives, in order.
type FamilyGame = (&'static str, usize, &'static str, &'static [&'static str]);

/// The 1830 reference games (a bank break and two bankruptcies; the privates' tile lays and
/// teleport token, `multiple_brown_from_ipo`).
const GAMES_1830: &[FamilyGame] = &[
    ("1830_game_end_bank.json", 548, "bank", &[]),
    ("26855.json", 502, "bankrupt", &[]),
    ("29133.json", 334, "bankrupt", &[]),
];

/// The 1889 reference games (a bankruptcy in a 2020 game whose routes are stated by their
/// hexes, one of them through a full city, which 18xx.games takes as stated: a deviation; a
/// bank break with MF's port laid by its owner).
const GAMES_1889: &[FamilyGame] = &[
    ("314.json", 457, "bankrupt", &["deviation::unchecked_route"]),
    ("962.json", 446, "bank", &[]),
    // Ended by 18xx.games' End Game button.
    (
        "hs_jmmljkbw_17502.json",
        50,
        "manually_ended",
        &["deviation::game_ended_by_hand"],
    ),
    (
        "hs_lhglbbiz_17502.json",
        47,
        "manually_ended",
        &["deviation::game_ended_by_hand"],
    ),
];

/// The 18Chesapeake reference games (a bankruptcy and three bank breaks; CV's drawn
/// presidency, C-P's and B&S's lays, trains exported at the end of each set, bids committed
/// only while leading).
const GAMES_CHESAPEAKE: &[FamilyGame] = &[
    ("1277.json", 424, "bankrupt", &[]),
    ("14377.json", 487, "bank", &[]),
    ("1905.json", 543, "bank", &[]),
    ("3055.json", 602, "bank", &[]),
    // The two-player game (30% presidents, market certificates removed by purchases, the IPO
    // moved to the market at float), ended by 18xx.games' End Game button.
    (
        "22383.json",
        83,
        "manually_ended",
        &["deviation::game_ended_by_hand"],
    ),
];

#[test]
fn fixtures_1830_match_the_reference_engine() {
    family_fixtures_match_the_reference_engine("1830", GAMES_1830);
}

#[test]
fn fixtures_1889_match_the_reference_engine() {
    family_fixtures_match_the_reference_engine("1889", GAMES_1889);
}

#[test]
fn fixtures_18chesapeake_match_the_reference_engine() {
    family_fixtures_match_the_reference_engine("18Chesapeake", GAMES_CHESAPEAKE);
}

/// Every state of each game equal to the trace's, and each game ends with exactly its stored
/// result, its end reason and its deviation warnings.
fn family_fixtures_match_the_reference_engine(title: &str, games: &[FamilyGame]) {
    let Some(shared) = shared_dir() else { return };
    for &(name, actions, end, deviations) in games {
        let path = shared.join("fixtures").join(title).join(name);
        let found = compare(&path, &trace_path_of(&shared, title, &path));
        assert!(
            matches!(found.verdict, Verdict::Agrees),
            "{name}: {:?}",
            found.verdict
        );
        assert_eq!((found.actions, found.states), (actions, actions), "{name}");
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read(name, &src).unwrap_or_else(|e| panic!("{}", render(&e)));
        let replayed = railnote::replay::replay_with_warnings(&log, false)
            .unwrap_or_else(|e| panic!("{}", render(&e)));
        let report = ScoreReport::new(&replayed.game, &log);
        assert!(report.finished, "{name}: the game did not finish");
        assert_eq!(report.result, stored_result(&log), "{name}");
        assert_eq!(report.game_end_reason.as_deref(), Some(end), "{name}");
        let rules: Vec<&str> = replayed.warnings.iter().map(|w| w.rule()).collect();
        assert_eq!(rules, deviations, "{name}");
    }
}

/// Replays `log`, comparing the state after every action with the reference's on the fields
/// its trace records; stops at the first difference.
fn match_trace<'l>(log: &'l log::GameLog, trace: &Trace) -> (Replay<'l>, usize, String) {
    let mut replay = Replay::new(log).unwrap_or_else(|e| panic!("{}", render(&e)));
    let mut matched = 0;
    let mut stop = String::new();
    let outcome = replay.run_with(|step, game| {
        let reference = &trace.processed[&step.action.action_id];
        let theirs = reference_fields(reference);
        let keys: BTreeSet<&str> = theirs.iter().map(|(k, _)| k.as_str()).collect();
        let ours: Vec<_> = our_fields(&Snapshot::after(game, log, step))
            .into_iter()
            .filter(|(k, _)| keys.contains(k.as_str()))
            .collect();
        if let Some(diff) = first_difference(&ours, &theirs) {
            stop = format!(
                "after action #{} (id {}): {diff}",
                step.index, step.action.action_id
            );
            return ControlFlow::Break(());
        }
        matched += 1;
        ControlFlow::Continue(())
    });
    if let Err(e) = outcome {
        stop = render(&e).lines().take(3).collect::<Vec<_>>().join(" / ");
    }
    (replay, matched, stop)
}

/// Games 18xx.games played itself (`random_play.rb`), each cut right after a move railnote
/// once refused or got wrong, with the reference's state after that move
/// (`tests/data/reference/<name>.json` and `<name>.state.json`), and the deviations from the
/// printed rules the last move makes.
const REFERENCE_MOVES: &[(&str, &[&str])] = &[
    // A private bought while a lifted home token waits to be placed (1836Jr30 runs its private
    // step before the home token's).
    ("jr30-private-while-home-token-waits", &[]),
    // A trade-in for a second D in a turn that already bought one from the depot.
    (
        "jr30-second-d-by-trade-in",
        &["deviation::second_train_of_a_type_by_trade_in"],
    ),
    // A train bought from another corporation with the president's money in an emergency.
    (
        "ireland-emergency-train-from-corporation",
        &["deviation::emergency_train_from_corporation"],
    ),
    // A token in the slot a closed minor's reservation left (deleted, not emptied, so the
    // next one moves down) after a merger placed the major's token in the first free slot.
    ("ireland-slot-after-a-closing-and-a-merger", &[]),
    // A city upgraded on G13 keeps its reservation list as it stands, an emptied place (a home
    // token already laid) included, so the slots after it stay where they were: WLWR's token
    // takes the first slot (a merge of cities that put each reservation into the first free
    // slot once moved them).
    ("ireland-reservation-slots-kept-by-an-upgrade", &[]),
    // A route through Dundalk & Drogheda twice, at its city and at its town: the stop
    // signatures tie, and the run the player made visits no node twice.
    ("ireland-route-through-a-hex-twice", &[]),
    // Two routes from Limerick tie for RSSC's Shannon bonus: the last one gets it.
    ("ireland-shannon-bonus-tie", &[]),
    // A token step skipped because the reference's cached reach predates a closing that
    // freed a city (nobody laid a tile or placed a token since): the run comes next.
    ("ireland-token-step-skipped-by-a-stale-reach", &[]),
    // A major parred by the last player with a stock action chooses its home city before
    // the stock round ends.
    ("ireland-major-home-chosen-before-the-round-ends", &[]),
    // A route whose stop signatures, in route order, put the town of Dundalk & Drogheda
    // before its city (blocked, so only an end): the run the player made.
    ("ireland-route-stops-in-signature-order", &[]),
    // The first 8H leaves WLR (the buyer) and MRNCC above the limit: WLR, earlier in the
    // charter order the setup drew (the reference's corporation list), discards first.
    ("ireland-discard-order-follows-the-charter", &[]),
    // BoW's lay (one of the corporation's own) taken in the issue step, before the track step:
    // the reference lets a track-timed ability act while the track step is still ahead.
    ("ireland-private-lay-in-the-issue-step", &[]),
    // A private bought from another player as a stock-round action (1830, phase 2, the
    // second stock round), at a price of the players' choosing.
    ("1830-private-sold-between-players", &[]),
    // 1830: ERIE lays a two-city tile on its home hex, and its home token waits for its city;
    // meanwhile CS, which ERIE owns, lays its tile (the reference's private steps come before
    // its home-token step), and the home token still waits.
    ("1830-private-lay-while-a-home-token-waits", &[]),
    // DCR's lay on H4 (18Ireland) needs the hex reached by the owner's network, not track that
    // joins it: the title's rotation check asks for the hex among the corporation's connected
    // hexes, the private's step offers every neighbour as an exit, and the track restriction
    // is a corporation's only.
    ("ireland-dcr-lay-on-a-reached-hex", &[]),
    // 18xx.games' End Game (the reference's random player pressed it): the game ends at once,
    // scored as it stands; in 1836Jr30, 18Ireland and 1830 (two of them by a player who was
    // not to act), during 1830's private auction with bids standing, and in the name of the
    // corporation whose turn it is (a user who does not play). See `tests/end_game.rs`.
    (
        "jr30-game-ended-by-hand",
        &["deviation::game_ended_by_hand"],
    ),
    (
        "ireland-game-ended-by-hand",
        &["deviation::game_ended_by_hand"],
    ),
    (
        "1830-game-ended-by-hand",
        &["deviation::game_ended_by_hand"],
    ),
    (
        "1830-game-ended-by-hand-during-the-auction",
        &["deviation::game_ended_by_hand"],
    ),
    (
        "jr30-end-game-for-the-operating-corporation",
        &["deviation::game_ended_by_hand"],
    ),
    // 1889's beginner game for two players: the dealt privates are the rule's list, SIR
    // among them (the two-player game leaves SIR out only when the privates are auctioned).
    ("1889-beginner-game-two-players-keeps-sir", &[]),
    // 18Chesapeake: every player passes in the auction after a purchase, a "fake operating
    // round" that exports the next 2 train, and the phase moves on (a railnote self-play
    // game, checked by the reference).
    (
        "18chesapeake-train-exported-when-all-pass-in-the-auction",
        &[],
    ),
    // 18Chesapeake: the train exported at the end of a set starts phase 4, and SRR, over the
    // new limit, discards as the stock round starts, before any player acts (a railnote
    // self-play game, checked by the reference).
    (
        "18chesapeake-discard-in-the-stock-round-after-an-export",
        &[],
    ),
    // 18Chesapeake's two-player game: a president's certificate costs three shares at par, so
    // a player left with less cannot start a corporation: after his sale his turn, and the
    // round, end (a railnote self-play game, checked by the reference).
    ("18chesapeake-two-player-president-costs-three-shares", &[]),
    // 18Chesapeake: LV teleports with C&OC (its tile action of the turn) while it also owns
    // B&S, whose lays keep the track step open: LV passes it before running.
    ("18chesapeake-track-step-open-after-a-teleport", &[]),
    // 18Chesapeake: N&W's teleport token (C&OC) is its token of the turn, though placed while
    // the track step was still open: after N&W passes the track step, it runs.
    ("18chesapeake-teleport-token-is-the-turns-token", &[]),
    // 18Chesapeake: C-P's first lay (8 on H2) faces away from I3, so no second lay can join
    // it, and C-P must lay both: 18xx.games accepts the lay and is stuck after it (every lay
    // on I3 and the pass refused; a player would undo). See `tests/legal.rs`.
    ("18chesapeake-private-lay-no-second-lay-can-join", &[]),
];

#[test]
fn reference_moves_replay_with_the_reference_state() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference");
    for &(name, deviations) in REFERENCE_MOVES {
        let path = dir.join(format!("{name}.json"));
        let src = std::fs::read_to_string(&path).unwrap();
        let log = log::read(name, &src).unwrap_or_else(|e| panic!("{}", render(&e)));
        let last = log.actions.len();
        let replayed = railnote::replay::replay_with_warnings(&log, false)
            .unwrap_or_else(|e| panic!("{name}:\n{}", render(&e)));
        let reference: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap(),
        )
        .unwrap();
        let theirs = reference_fields(&reference);
        let keys: BTreeSet<&str> = theirs.iter().map(|(k, _)| k.as_str()).collect();
        let ours: Vec<_> = our_fields(&Snapshot::of(&replayed.game, &log))
            .into_iter()
            .filter(|(k, _)| keys.contains(k.as_str()) && k != "round")
            .collect();
        let theirs: Vec<_> = theirs.into_iter().filter(|(k, _)| k != "round").collect();
        assert_eq!(first_difference(&ours, &theirs), None, "{name}");
        let at_last: Vec<&str> = replayed
            .warnings
            .iter()
            .filter(|w| w.index == last)
            .map(|w| w.rule())
            .collect();
        assert_eq!(at_last, deviations, "{name}");
        // Strict: the first deviation is refused at its move, which leaves the game as it was.
        let strict = railnote::replay::replay_with_warnings(&log, true);
        match (replayed.warnings.first(), strict) {
            (None, Ok(_)) => {}
            (Some(first), Err(ReplayError::Illegal(e))) => {
                assert_eq!((e.index, e.rule()), (first.index, first.rule()), "{name}");
            }
            (_, Ok(_)) => panic!("{name}: a strict replay accepted a deviation"),
            (_, Err(e)) => panic!("{name}: strict replay:\n{}", render(&e)),
        }
    }
}

/// Moves 18xx.games' engine takes only through its programming interface (its web interface
/// never offers them) stay illegal, with the printed rule in the diagnostic. Each log is a
/// game 18xx.games played itself, cut after such a move, which `check.rb` accepts. (The
/// sale in the train step and the bid during an auction are variants of the fixtures.)
#[test]
fn engine_only_moves_are_refused_with_the_printed_rule() {
    refused_at_their_last_move(&[
        (
            "jr30-train-at-the-limit",
            "rules::train",
            "B is at its train limit of 2: a corporation may not own more trains than the \
             limit, so at the limit a train may only be traded in",
        ),
        (
            "jr30-bankrupt-without-need",
            "rules::bankruptcy",
            "NFL does not have to buy a train: bankruptcy comes only when a corporation must \
             buy a train and cannot raise the money",
        ),
        (
            "jr30-end-game-for-another-corporation",
            "rules::end_game",
            "B cannot end the game: 18xx.games' End Game button ends it for a player, or for \
             the corporation whose turn it is (the printed rules have no move that ends a game)",
        ),
    ]);
}

/// Moves the reference refuses (`check.rb` rejects them at the last action) are refused.
#[test]
fn moves_the_reference_refuses_are_refused() {
    refused_at_their_last_move(&[
        (
            "1830-private-sale-in-the-first-stock-round",
            "rules::company",
            "players may buy privates from each other from stock round 2 on, not in stock \
             round 1 (DH)",
        ),
        // 18Chesapeake: SRR lays its own tile on one of B&S's hexes while owning B&S: B&S's
        // lays are lost before the lay counts, so the track step ends with it and a pass is
        // not the routes step's (a railnote self-play game the reference refuses there).
        (
            "18chesapeake-pass-after-an-own-lay-on-a-private-hex",
            "rules::wrong_step",
            "pass is not possible now; the current step (routes) takes run_routes",
        ),
        // 18Chesapeake: C&OC's teleport is B&O's tile action of the turn; B&O has laid its
        // own tile already (a railnote self-play game the reference refuses there).
        (
            "18chesapeake-teleport-after-the-corporations-lay",
            "rules::track",
            "B&O has no tile action left this turn",
        ),
        (
            "1830-private-with-a-certificate-held-by-a-player",
            "rules::company",
            "CA cannot be bought from a player while Player 1 holds its certificate PRR_1 \
             (18xx.games gives the buyer that certificate again and does not take a share from \
             a player)",
        ),
        // 18Chesapeake: Baltimore's two cities (H6) became one (X7); B&O, not yet floated,
        // keeps its home reservation there, so with SRR's token the city is full and C&A's
        // token is refused (a railnote self-play game the reference refused there).
        (
            "18chesapeake-merged-cities-keep-a-home-reservation",
            "rules::token",
            "C&A: no token slot available on H6",
        ),
        (
            "ireland-dcr-lay-on-an-unreached-hex",
            "rules::track",
            "H4 is not connected to the corporation's network",
        ),
    ]);
}

/// Each log of `tests/data/reference` (name, rule code, message) is refused at its last
/// move with exactly that rule and message.
fn refused_at_their_last_move(cases: &[(&str, &str, &str)]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference");
    for &(name, code, message) in cases {
        let src = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let log = log::read(name, &src).unwrap();
        let Err(ReplayError::Illegal(e)) = replay(&log) else {
            panic!("{name}: accepted");
        };
        assert_eq!(
            (e.index, e.rule(), e.violation.to_string()),
            (log.actions.len(), code, message.to_string()),
            "{name}"
        );
    }
}

/// A deviation as the user sees it: a warning located at the move, the printed rule and what
/// 18xx.games does.
#[test]
fn a_deviation_renders_as_a_warning() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reference/ireland-emergency-train-from-corporation.json");
    let src = std::fs::read_to_string(&path).unwrap();
    let log = log::read("emergency.json", &src).unwrap();
    let replayed = railnote::replay::replay_with_warnings(&log, false).unwrap();
    let rendered: Vec<String> = replayed.warnings.iter().map(|w| render(w)).collect();
    insta::assert_snapshot!(rendered.join("\n"));
}
