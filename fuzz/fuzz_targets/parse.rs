//! The notation reader and writer on any text: no panic, write∘read the identity, every syntax
//! error rendered within 100 KB (`tests/hostile/pipeline.rs`, shared with the mutation test).
//! Replaying what it reads is the `replay` target's part.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/hostile/pipeline.rs"]
mod pipeline;

fuzz_target!(|data: &[u8]| {
    pipeline::read_notation(&pipeline::text_of(data));
});
