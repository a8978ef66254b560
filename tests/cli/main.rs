//! One integration-test binary for git-fararoni: every `test_*.rs` module
//! below is listed here (see `test_no_forgotten_test_files`).

mod common;

                "tests/cli/{name} is not listed in tests/cli/main.rs"
                main.contains(&format!("mod {module};")),
            );
            .expect("entry")
            .file_name()
            .into_owned();
            .to_string_lossy()
            assert!(
        if let Some(module) = name.strip_suffix(".rs").filter(|m| m.starts_with("test_")) {
        let name = entry
        }
    for entry in std::fs::read_dir(&dir).expect("read tests/cli") {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("read main.rs");
    }
#[test]
fn test_no_forgotten_test_files() {
mod test_ask;
mod test_crash_saga;
mod test_docs;
mod test_router_corpus;
mod test_saga;
}
