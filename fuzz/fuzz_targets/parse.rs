//! The notation reader must never panic, and what it reads must write back and read again to
//! the same document.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(doc) = railnote::notation::parse("fuzz.rn", text) {
        let written = railnote::notation::write(&doc);
        let again = railnote::notation::parse("fuzz.rn", &written).expect("written notation reads back");
        assert_eq!(doc, again);
    }
});
