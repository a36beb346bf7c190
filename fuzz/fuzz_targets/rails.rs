//! The Rails save reader on any bytes (with the Java serialization header put in front, so
//! that every input reaches the object reader): no panic; an error names a part of the save
//! and a byte inside the file; a save that reads is written as notation or refused by name,
//! and a written game is read and replayed by the notation replay without a panic.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = railnote::rails::save::MAGIC.to_vec();
    bytes.extend_from_slice(data);
    let save = match railnote::rails::read(&bytes) {
        Ok(save) => save,
        Err(e) => {
            assert!(e.offset <= bytes.len(), "{e}");
            let _ = e.to_string();
            return;
        }
    };
    for (k, a) in save.actions.iter().enumerate() {
        assert_eq!(a.number, k + 1);
        assert!(a.offset < bytes.len());
    }
    let Ok((text, origins)) = railnote::rails::notation(&save) else { return };
    assert_eq!(text.lines().count(), origins.line_action.len());
    let src: Arc<str> = Arc::from(text);
    if let Ok(doc) = railnote::notation::parse("fuzz.rails", &src) {
        for game in &doc.games {
            let _ = railnote::replay::notation::play(
                "fuzz.rails",
                &src,
                game,
                railnote::replay::notation::PlayOptions::default(),
            );
        }
    }
});
