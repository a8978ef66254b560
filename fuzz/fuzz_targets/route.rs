//! Routing never panics on any request.
#![no_main]

use git_fararoni::router::{route, NoFacts};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = route(s, &NoFacts::new());
    }
});
