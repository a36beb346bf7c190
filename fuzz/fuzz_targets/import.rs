//! The 18xx.games log reader and the replay on any text: no panic, every problem and the
//! illegal action rendered within 100 KB (`tests/hostile/pipeline.rs`, shared with the mutation
//! test).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/hostile/pipeline.rs"]
mod pipeline;

fuzz_target!(|data: &[u8]| {
    pipeline::json_log(&pipeline::text_of(data));
});
