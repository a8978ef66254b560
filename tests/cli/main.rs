//! One integration-test binary for git-fararoni: every `test_*.rs` module
//! below is listed here (see `test_no_forgotten_test_files`).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;
mod fake_llm;
mod policy_sandbox;
mod test_agent;
mod test_agent_small_models;
mod test_ask;
mod test_ask_intents;
mod test_ask_model;
mod test_crash_saga;
mod test_crash_shadow;
mod test_dirty;
mod test_distill_corpus;
mod test_docs;
mod test_docs_pages;
mod test_doctor;
mod test_extract_corpus;
mod test_floors;
mod test_guard;
mod test_guard_corpus;
mod test_guard_elision;
mod test_hook_agents;
mod test_hook_attacks;
mod test_hook_classes;
mod test_hook_contain;
mod test_hook_failclosed;
mod test_hook_peers;
mod test_hook_precious;
mod test_hook_scripts;
mod test_hook_shell;
mod test_hooks;
mod test_json;
mod test_killswitch_change;
mod test_layers;
mod test_llm_client;
mod test_llm_props;
mod test_local_engine;
mod test_local_model;
mod test_parse_tool_calls;
mod test_policy;
mod test_policy_attacks;
mod test_policy_classes;
mod test_policy_props;
mod test_real_model;
mod test_recovery;
mod test_router_corpus;
mod test_router_intents;
mod test_run;
mod test_saga;
mod test_sandbox;
mod test_settings;
mod test_shadow;
mod test_start;
mod test_store_attacks;
mod test_store_ignore_states;
mod test_target_paths;
mod test_terminal;
mod test_undo;

#[test]
fn test_no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("read main.rs");
    for entry in std::fs::read_dir(&dir).expect("read tests/cli") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(module) = name.strip_suffix(".rs").filter(|m| m.starts_with("test_")) {
            assert!(
                main.contains(&format!("mod {module};")),
                "tests/cli/{name} is not listed in tests/cli/main.rs"
            );
        }
    }
}
