//! Fuzz target: the SSE decoder and the delta accumulator never panic on
//! any byte stream, cut anywhere. `cargo fuzz run sse` from `fuzz/`.
#![no_main]

use git_fararoni::agent::http::sse::{SseDecoder, StreamAccumulator};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cut = data.first().map_or(1, |b| usize::from(*b).max(1));
    let mut decoder = SseDecoder::default();
    let mut acc = StreamAccumulator::default();
    for chunk in data.chunks(cut) {
        for payload in decoder.push(chunk) {
            let _ = acc.feed(&payload);
        }
    }
    if let Some(p) = decoder.finish() {
        let _ = acc.feed(&p);
    }
    let _ = acc.finish();
});
