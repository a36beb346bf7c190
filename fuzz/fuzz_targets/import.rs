//! The 18xx.games log reader and the replay on any text: no panic, every problem and the
//! illegal action rendered within 100 KB (`tests/hostile/pipeline.rs`, shared with the mutation
//! test); and the reader's fast path reads every text it takes exactly as the located path does
//! (header, every action, every span).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use railnote::log::{self, GameLog};

#[allow(dead_code)]
#[path = "../../tests/hostile/pipeline.rs"]
mod pipeline;

/// Everything a read log holds, spans included (the title by name).
fn exact(log: &GameLog) -> String {
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

fuzz_target!(|data: &[u8]| {
    let text = pipeline::text_of(data);
    let shared: Arc<str> = Arc::from(text.as_str());
    if let Some(fast) = log::read_fast("fuzz.json", &shared) {
        match log::read_located("fuzz.json", Arc::clone(&shared)) {
            Ok(located) => assert_eq!(exact(&fast), exact(&located)),
            Err(e) => panic!(
                "the fast path reads a log the located path rejects: {}",
                pipeline::rendered(&e)
            ),
        }
    }
    pipeline::json_log(&text);
});
