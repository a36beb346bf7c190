//! The 18xx.games log reader and the replay on any text: no panic, every problem and the
//! illegal action rendered within 100 KB (`tests/hostile/pipeline.rs`, shared with the mutation
//! test); and the reader's fast path reads every text it takes exactly as the located path does
//! (header, every action, every span).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/hostile/pipeline.rs"]
mod pipeline;

fuzz_target!(|data: &[u8]| {
    let text = pipeline::text_of(data);
    let shared: Arc<str> = Arc::from(text.as_str());
    pipeline::fast_read_agreeing("fuzz.json", &shared);
    pipeline::json_log(&text);
});
