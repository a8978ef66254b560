//! Fuzz target: the text tool-call extractor never panics, whatever a
//! model prints. `cargo fuzz run extract` from `fuzz/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = git_fararoni::agent::extract::find_calls(&text);
});
