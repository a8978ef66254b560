//! One integration-test binary for git-fararoni: every `test_*.rs` module
//! below is listed here (see `test_no_forgotten_test_files`).

mod common;
mod test_crash_shadow;
mod test_guard;
mod test_router_corpus;
mod test_shadow;
mod test_undo;
