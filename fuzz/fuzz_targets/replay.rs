//! A game through everything: read and replayed with every illegal move and deviation rendered,
//! the round trip (a notation game or a JSON log that replays converts to the other format,
//! which reads and replays to the same final state, and back), and the pictures (transcript,
//! charts, map, viewer). `tests/hostile/pipeline.rs`, shared with the mutation test.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/hostile/pipeline.rs"]
mod pipeline;

fuzz_target!(|data: &[u8]| {
    pipeline::any(data);
    pipeline::round_trip(data);
    pipeline::draw(data);
});
