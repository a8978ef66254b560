//! The real-model tier: the client and the CLI against llama.cpp's server
//! (the `xllamacpp` wheel) serving SmolLM2-135M-Instruct on loopback,
//! started by `scripts/llm-server.py`. Ignored by default; `.ci/run` runs
//! them through `scripts/real-model-tier.sh` with `FARARONI_REAL_LLM_URL`
//! set. The model's quality is not under test, the plumbing is: few calls,
//! few tokens (generation runs at a few tokens per second on 2 cores).

use std::time::Duration;

use git_fararoni::agent::client::{
    ChatMessage, ChatRequest, LlmClient, Role, ToolCall, ToolMode, ToolSpec,
};
use git_fararoni::agent::http::HttpClient;
use git_fararoni::config::{ModelSettings, ToolModeSetting};
use serde_json::json;

use crate::common::TestRepo;

const WHY: &str = "needs a real model server: run scripts/real-model-tier.sh";

fn url() -> String {
    std::env::var("FARARONI_REAL_LLM_URL")
        .expect("FARARONI_REAL_LLM_URL: start scripts/llm-server.py first")
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_level_2_chat_answers_hola() {
    let _ = WHY;
    let repo = TestRepo::with_commit();
    let out = repo
        .cmd("git-fararoni")
        .args(["ask", "hola"])
        .env("FARARONI_CHAT_BASE_URL", url())
        .env("FARARONI_CHAT_MODEL", "smollm2")
        .env("FARARONI_CHAT_TIMEOUT", "120")
        .env("FARARONI_CHAT_MAX_TOKENS", "12")
        .output()
        .expect("runs");
    let out: crate::common::Out = out.into();
    assert_eq!(out.code, 0, "{out}");
    assert!(!out.stdout.trim().is_empty(), "{out}");
    assert!(
        !out.stderr.contains("did not answer"),
        "the model answered, not the built-in reply: {out}"
    );
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_constrained_mode_yields_a_tool_call() {
    let mut client = HttpClient::new(ModelSettings {
        base_url: url(),
        model: Some("smollm2".into()),
        api_key: None,
        tool_mode: ToolModeSetting::Auto,
        context_tokens: None,
        max_tokens: 48,
        temperature: 0.0,
        connect_timeout: Duration::from_secs(5),
        first_token_timeout: Duration::from_secs(120),
        idle_timeout: Duration::from_secs(60),
        call_timeout: Duration::from_secs(240),
        max_retries: 1,
        max_response_bytes: 1 << 20,
        stream: true,
    });
    let info = client.server_info().expect("server info");
    assert_eq!(
        info.supports_tools,
        Some(false),
        "SmolLM2's template has no tools: {info:?}"
    );
    assert!(info.context_tokens.is_some_and(|n| n >= 512), "{info:?}");
    let tools = [
        ToolSpec {
            name: "fs_read".into(),
            description: "Read a file of the repository.".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        },
        ToolSpec {
            name: "fs_list".into(),
            description: "List a directory of the repository.".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        },
    ];
    // One earlier call and its result, replayed as text in this mode: a
    // 135M model copies the pattern, where a bare request gets an answer.
    let mut earlier = ChatMessage::text(Role::Assistant, "");
    earlier.tool_calls.push(ToolCall {
        id: "call_0".into(),
        name: "fs_list".into(),
        arguments: json!({"path": "src"}),
    });
    let messages = [
        ChatMessage::text(Role::System, "You are a coding agent. Use a tool."),
        ChatMessage::text(Role::User, "List the directory src"),
        earlier,
        ChatMessage::tool_result("call_0", "main.rs\nlib.rs"),
        ChatMessage::text(Role::User, "Read the file README.md"),
    ];
    let request = ChatRequest {
        messages: &messages,
        tools: &tools,
        mode: ToolMode::Native,
        max_tokens: 40,
        temperature: 0.0,
        require_tool: false,
    };
    let reply = client.chat(&request, &mut |_| {}).expect("a reply");
    let choice = client.tool_mode_choice().expect("auto chose");
    assert_eq!(choice.mode, ToolMode::Constrained, "{}", choice.reason);
    assert_eq!(reply.tool_calls.len(), 1, "{reply:?}");
    let call = &reply.tool_calls[0];
    assert!(
        ["fs_read", "fs_list"].contains(&call.name.as_str()),
        "{call:?}"
    );
    assert!(call.arguments["path"].is_string(), "{call:?}");
    assert!(reply.usage.prompt_tokens > 0, "{reply:?}");
    eprintln!(
        "real model: {choice:?}; call {call:?}; usage {:?}",
        reply.usage
    );
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_level_3_task_makes_a_tool_call_and_changes_nothing_outside() {
    let repo = TestRepo::with_commit();
    repo.write("notes.txt", "the release is on friday\n");
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("keep.txt"), "outside\n").expect("write");
    let home_before = crate::common::snapshot(repo.home());
    let out_before = crate::common::snapshot(outside.path());
    let out = repo
        .cmd("git-fararoni")
        .args([
            "ask",
            "--level",
            "3",
            "-v",
            "Use the fs_read tool to read the file notes.txt, then tell me what it says.",
        ])
        .env("FARARONI_LLM_BASE_URL", url())
        .env("FARARONI_LLM_MODEL", "smollm2")
        .env("FARARONI_LLM_TOOL_MODE", "constrained")
        .env("FARARONI_LLM_MAX_TOKENS", "200")
        .env("FARARONI_AGENT_MAX_DEPTH", "3")
        .env("FARARONI_LLM_FIRST_TOKEN_TIMEOUT", "300")
        .env("FARARONI_LLM_CALL_TIMEOUT", "600")
        .output()
        .expect("runs");
    let out: crate::common::Out = out.into();
    // Completes: an answer, or level 3 gave up cleanly (a tiny model may
    // end without one) — never a crash.
    assert!(matches!(out.code, 0 | 4), "{out}");
    assert!(!out.stderr.contains("panicked"), "{out}");
    // At least one real tool call went through the governed tools.
    let sessions = repo.path().join(".git/fararoni/sessions");
    let log: String = std::fs::read_dir(&sessions)
        .map(|d| {
            d.flatten()
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    assert!(
        log.lines()
            .any(|l| l.contains("\"kind\":\"tool\"") || l.contains("\"event\":\"tool\"")),
        "no tool call in the session log: {log}\n{out}"
    );
    assert_eq!(repo.read("notes.txt"), "the release is on friday\n");
    assert_eq!(crate::common::snapshot(outside.path()), out_before);
    assert_eq!(crate::common::snapshot(repo.home()), home_before);
}
