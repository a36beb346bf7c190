//! What railnote does with one input, as the fuzz targets (`fuzz/fuzz_targets/`), the mutation
//! test (`tests/hostile.rs`) and the campaign (`examples/mutation_campaign.rs`) run it. Each
//! function panics when railnote breaks a promise on that input: a panic of its own, a written
//! document that does not read back the same, a round trip that changes the game, a diagnostic
//! that renders to more than [`MAX_OUTPUT`] bytes.
//!
//! Only the public API is used, so that the fuzz crate can include this file as it is.

use std::sync::Arc;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use railnote::log::GameLog;
use railnote::notation::{parse, write};
use railnote::output::Snapshot;
use railnote::replay::notation::{play, GameRejected, PlayOptions, Played};

/// The most a file's diagnostics may print.
pub const MAX_OUTPUT: usize = 100 * 1024;

/// Everything a read log holds, spans included (the title by name: its facts are the title's).
pub fn log_exactly(log: &GameLog) -> String {
    format!(
        "{} {} {:?}\n{:?}\n{} {:?} {:?}",
        log.name,
        log.title.name,
        log.header,
        log.actions,
        log.raw_count,
        log.actions_span,
        log.corrections
    )
}

/// The fast reader's log of `text`, if it takes it, having checked that the located reader
/// reads it exactly the same.
pub fn fast_read_agreeing(name: &str, text: &Arc<str>) -> Option<GameLog> {
    let fast = railnote::log::read_fast(name, text)?;
    match railnote::log::read_located(name, Arc::clone(text)) {
        Ok(located) => assert_eq!(log_exactly(&fast), log_exactly(&located), "{name}"),
        Err(e) => panic!(
            "{name}: the fast path reads a log the located path rejects: {}",
            rendered(&e)
        ),
    }
    Some(fast)
}

/// A diagnostic rendered as the command line renders it (without colours); at most
/// [`MAX_OUTPUT`] bytes.
pub fn rendered(diagnostic: &dyn Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .render_report(&mut out, diagnostic)
        .expect("rendering into a string cannot fail");
    assert!(
        out.len() <= MAX_OUTPUT,
        "a diagnostic of {} bytes: {}…",
        out.len(),
        out.chars().take(2000).collect::<String>()
    );
    out
}

/// The text of a file as the command line reads it: without a byte-order mark, invalid UTF-8
/// replaced.
pub fn text_of(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

/// Whether the command line reads the text as a JSON log (it starts with `{`).
pub fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// Any input, read as the command line reads it.
pub fn any(bytes: &[u8]) {
    let text = text_of(bytes);
    if is_json(&text) {
        json_log(&text);
    } else {
        notation(&text);
    }
}

/// A notation file, read (every syntax error rendered); written back, it reads to the same
/// document, and writing is idempotent.
pub fn read_notation(text: &str) -> Option<railnote::notation::Document> {
    let doc = match parse("fuzz.rn", text) {
        Ok(doc) => doc,
        Err(e) => {
            assert!(!e.errors.is_empty(), "a parse error without errors");
            rendered(&e);
            return None;
        }
    };
    let written = write(&doc);
    let again = parse("fuzz.rn", &written)
        .unwrap_or_else(|e| panic!("the written document does not read: {e:?}\n{written}"));
    assert_eq!(
        doc, again,
        "write then read changes the document:\n{written}"
    );
    assert_eq!(write(&again), written, "fmt is not idempotent");
    Some(doc)
}

/// A notation file: [`read_notation`], then every game replayed with every illegal move
/// reported and rendered, and every deviation warning rendered; a game with deviation warnings
/// is refused by a strict replay.
pub fn notation(text: &str) {
    let Some(doc) = read_notation(text) else {
        return;
    };
    let src: Arc<str> = Arc::from(text);
    let keep_going = PlayOptions {
        keep_going: true,
        strict_rules: false,
    };
    for game in &doc.games {
        match play("fuzz.rn", &src, game, keep_going) {
            Ok(played) => {
                if let Some(rejected) = GameRejected::of(&played) {
                    rendered(&rejected);
                }
                for warning in &played.warnings {
                    rendered(warning);
                }
                if played.errors.is_empty() && !played.warnings.is_empty() {
                    let strict = PlayOptions {
                        keep_going: false,
                        strict_rules: true,
                    };
                    let refused = play("fuzz.rn", &src, game, strict)
                        .expect("a game that sets up sets up again");
                    let rejected = GameRejected::of(&refused)
                        .expect("a strict replay refuses a deviation from the printed rules");
                    rendered(&rejected);
                }
            }
            Err(e) => {
                rendered(&e);
            }
        }
    }
}

/// A JSON log: read (every problem rendered) and replayed (the illegal action rendered, every
/// deviation warning rendered); a log with deviation warnings is refused by a strict replay.
pub fn json_log(text: &str) {
    match railnote::log::read("fuzz.json", text) {
        Ok(log) => match railnote::replay::replay_with_warnings(&log, false) {
            Ok(replayed) => {
                for warning in &replayed.warnings {
                    rendered(warning);
                }
                if !replayed.warnings.is_empty() {
                    let refused = railnote::replay::replay_with_warnings(&log, true)
                        .expect_err("a strict replay refuses a deviation from the printed rules");
                    rendered(&refused);
                }
            }
            Err(e) => {
                rendered(&e);
            }
        },
        Err(e) => {
            assert!(!e.problems.is_empty(), "a log error without problems");
            rendered(&e);
        }
    }
}

/// The state at the end of a game, without the ids a conversion may change (player ids are
/// names in notation and numbers in 18xx.games logs).
fn final_state(game: &railnote::engine::Game, log: &GameLog) -> serde_json::Value {
    let mut state = serde_json::to_value(Snapshot::of(game, log)).expect("a snapshot serializes");
    state["priority_deal"] = serde_json::Value::Null;
    if let Some(players) = state["players"].as_array_mut() {
        for p in players {
            p["id"] = serde_json::Value::Null;
        }
    }
    state
}

/// The first game of a notation text, if it replays without a problem and converts to an
/// 18xx.games log (a random setup with its seed, no corrections).
fn convertible(name: &str, text: &str) -> Option<Played> {
    let doc = parse(name, text).ok()?;
    let src: Arc<str> = Arc::from(text);
    let played = play(name, &src, doc.games.first()?, PlayOptions::default()).ok()?;
    let seedless = played
        .game
        .title
        .has_random_setup(&played.game.options.optional_rules)
        && played.log.header.seed.is_none();
    (played.errors.is_empty() && played.corrections.is_empty() && !seedless).then_some(played)
}

/// The round trip: a game that replays converts to the other format, which reads and replays
/// to the same final state, and back again. Notation: parse → replay → JSON → read → replay;
/// a JSON log: read → replay → notation → parse → replay → JSON → read → replay.
pub fn round_trip(bytes: &[u8]) {
    let text = text_of(bytes);
    if is_json(&text) {
        let Ok(log) = railnote::log::read("fuzz.json", &text) else {
            return;
        };
        let Ok(game) = railnote::replay::replay(&log) else {
            return;
        };
        // A log without actions converts to tags alone, which the notation refuses as a game
        // not yet written (`notation::no_moves`).
        if log.actions.is_empty() {
            return;
        }
        let doc = match railnote::convert::to_notation(&log) {
            Ok(doc) => doc,
            // A name the notation cannot hold is refused, with a diagnostic.
            Err(e @ railnote::convert::ConvertError::Unwritable(_)) => {
                rendered(&e);
                return;
            }
            Err(e) => panic!("a log that replays converts: {e:?}"),
        };
        let written = write(&doc);
        let played = convertible("converted.rn", &written).unwrap_or_else(|| {
            panic!("the converted notation does not replay (or convert back):\n{written}")
        });
        assert_eq!(
            final_state(&game, &log),
            final_state(&played.game, &played.log),
            "JSON → notation changes the game:\n{written}"
        );
        notation_to_json(&played);
    } else if let Some(played) = convertible("fuzz.rn", &text) {
        notation_to_json(&played);
    }
}

/// A replayed notation game converted to an 18xx.games log, read and replayed again.
fn notation_to_json(played: &Played) {
    let json = railnote::convert::to_json(played).to_string();
    let log = railnote::log::read("converted.json", &json)
        .unwrap_or_else(|e| panic!("the converted log does not read: {e:?}\n{json}"));
    let game = railnote::replay::replay(&log)
        .unwrap_or_else(|e| panic!("the converted log does not replay: {e:?}\n{json}"));
    assert_eq!(
        final_state(&played.game, &played.log),
        final_state(&game, &log),
        "notation → JSON changes the game:\n{json}"
    );
}

/// The pictures of any input that reads as a game, as `map`, `chart`, `transcript` and `view`
/// draw them: a game that cannot be drawn is refused with a diagnostic; one that can is drawn
/// whole (transcript, charts and map as SVG that parses, viewer), whatever its names
/// hold.
pub fn draw(bytes: &[u8]) {
    use railnote::draw::document::GameDocument;
    use railnote::draw::{chart, map, transcript, viewer};
    let text = text_of(bytes);
    let doc = if is_json(&text) {
        let Ok(log) = railnote::log::read("fuzz.json", &text) else {
            return;
        };
        GameDocument::from_json_log(&log)
    } else {
        GameDocument::from_notation("fuzz.rn", &text)
    };
    let doc = match doc {
        Ok(doc) => doc,
        Err(e) => {
            rendered(&e);
            return;
        }
    };
    let events = transcript::events(&doc.log, Some(&doc.notes))
        .unwrap_or_else(|e| panic!("a drawable game has no transcript: {e:?}"));
    transcript::text(&events);
    let history = chart::History::of(&doc.log)
        .unwrap_or_else(|e| panic!("a drawable game has no chart: {e:?}"));
    let game = railnote::replay::replay(&doc.log)
        .unwrap_or_else(|e| panic!("a drawable game does not replay: {e:?}"));
    let pictures = [
        chart::prices_svg(&history),
        chart::values_svg(&history),
        map::map_svg(&game, &map::MapOptions::default()),
    ];
    for svg in &pictures {
        // It must parse as XML and as SVG, as `--output x.png` reads it (without the fonts,
        // which take long to load and are not needed to parse).
        resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
            .unwrap_or_else(|e| panic!("{e}: {svg}"));
    }
    viewer::html(&doc).unwrap_or_else(|e| panic!("a drawable game has no viewer: {e:?}"));
}
