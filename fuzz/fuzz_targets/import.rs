//! The 18xx.games log importer and the replay must never panic on any input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(log) = railnote::log::read("fuzz.json", text) {
        let _ = railnote::replay::replay(&log);
    }
});
