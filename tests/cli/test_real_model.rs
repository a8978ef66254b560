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
use git_fararoni::settings::read::{ModelSettings, ToolModeSetting};
use serde_json::json;

use crate::common::TestRepo;

const WHY: &str = "needs a real model server: run scripts/real-model-tier.sh";

fn url() -> String {
    std::env::var("FARARONI_REAL_LLM_URL")
        .expect("FARARONI_REAL_LLM_URL: start scripts/llm-server.py first")
}

/// The real server's settings: deterministic sampling, generous timeouts
/// (a CPU generates a few tokens a second).
fn settings(tool_mode: ToolModeSetting, max_tokens: u32, stream: bool) -> ModelSettings {
    ModelSettings {
        base_url: url(),
        model: Some("smollm2".into()),
        api_key: None,
        tool_mode,
        context_tokens: None,
        max_tokens,
        temperature: 0.0,
        connect_timeout: Duration::from_secs(5),
        first_token_timeout: Duration::from_secs(120),
        idle_timeout: Duration::from_secs(60),
        call_timeout: Duration::from_secs(240),
        max_retries: 1,
        max_response_bytes: 1 << 20,
        stream,
    }
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
    let mut client = HttpClient::new(settings(ToolModeSetting::Auto, 48, true));
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
    let log: String = repo
        .session_logs()
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert!(
        log.lines()
            .any(|l| l.contains("\"kind\":\"tool\"") || l.contains("\"event\":\"tool\"")),
        "no tool call in the session log: {log}\n{out}"
    );
    assert_eq!(repo.read("notes.txt"), "the release is on friday\n");
    // `-v` reports what the server counted per call; from the second call
    // on, the byte-identical fixed part comes from its prompt cache.
    let calls: Vec<(u64, u64)> = out
        .stderr
        .lines()
        .filter_map(|l| {
            l.split_once("model call ")?
                .1
                .split_once(": ")
                .map(|(_, r)| r)
        })
        .filter_map(|r| {
            let (prompt, rest) = r.split_once(" prompt tokens (")?;
            let cached = rest.split_once(" cached")?.0;
            Some((prompt.parse().ok()?, cached.parse().ok()?))
        })
        .collect();
    assert!(!calls.is_empty(), "-v shows each call's tokens: {out}");
    for &(prompt, cached) in calls.iter().skip(1) {
        assert!(
            cached * 2 > prompt.min(800),
            "the cache hit: {calls:?}\n{out}"
        );
    }
    eprintln!("real model, level 3 under -v: {calls:?} (prompt, cached) per call");
    assert_eq!(crate::common::snapshot(outside.path()), out_before);
    assert_eq!(crate::common::snapshot(repo.home()), home_before);
}

/// Counts `text`'s tokens with the server's own tokenizer (llama.cpp's
/// `/tokenize`), over a plain HTTP/1.1 request.
fn server_tokens(base_url: &str, text: &str) -> u64 {
    use std::io::{Read, Write};
    let host = base_url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .expect("host");
    let body = json!({"content": text}).to_string();
    let mut s = std::net::TcpStream::connect(host).expect("connect");
    write!(
        s,
        "POST /tokenize HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("read");
    let json_start = reply.find("\r\n\r\n").expect("head") + 4;
    let v: serde_json::Value = serde_json::from_str(&reply[json_start..]).expect("tokenize JSON");
    v["tokens"].as_array().expect("tokens").len() as u64
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_fixed_prompt_is_under_1500_tokens_in_every_mode_and_cached() {
    use git_fararoni::agent::protocol::{State, DIRECTIVES};
    use git_fararoni::agent::run::SYSTEM_PROMPT;
    use git_fararoni::agent::tools::specs;
    let tools = specs();
    let start = DIRECTIVES
        .iter()
        .find(|(s, _)| *s == State::Start)
        .map(|(_, d)| *d)
        .expect("START directive");
    // An empty task: the fixed part and nothing else, as the first call of
    // a run sends it.
    let messages = [
        ChatMessage::text(Role::System, SYSTEM_PROMPT),
        ChatMessage::text(Role::User, ""),
        ChatMessage::text(Role::System, start),
    ];
    let mut figures = Vec::new();
    for (setting, name) in [
        (ToolModeSetting::Native, "native"),
        (ToolModeSetting::Prompted, "prompted"),
        (ToolModeSetting::Constrained, "constrained"),
    ] {
        let mut client = HttpClient::new(settings(setting, 1, false));
        let request = ChatRequest {
            messages: &messages,
            tools: &tools,
            mode: ToolMode::Native,
            max_tokens: 1,
            temperature: 0.0,
            require_tool: true,
        };
        let first = client.chat(&request, &mut |_| {}).expect("first call");
        let again = client.chat(&request, &mut |_| {}).expect("second call");
        let mut tokens = first.usage.prompt_tokens;
        if setting == ToolModeSetting::Native {
            // SmolLM2's template has no tools and llama.cpp silently drops
            // `tools`: count them as a tool-capable template renders them
            // (their JSON in the prompt), with the server's tokenizer.
            let rendered = git_fararoni::agent::modes::native_tools(&tools).to_string();
            tokens += server_tokens(&url(), &rendered);
        }
        figures.push(format!(
            "{name}: {tokens} prompt tokens, {} of {} cached on the next call",
            again.usage.cached_tokens, again.usage.prompt_tokens
        ));
        assert!(tokens > 200, "{name}: the tools were counted: {tokens}");
        assert!(tokens < 1500, "{name}: {tokens} tokens");
        // Byte-identical fixed part: the server's prompt cache answers all
        // of the second call's prompt but the token it must recompute.
        assert_eq!(
            again.usage.prompt_tokens, first.usage.prompt_tokens,
            "{name}"
        );
        assert!(
            again.usage.cached_tokens + 1 >= again.usage.prompt_tokens,
            "{name}: {:?}",
            again.usage
        );
    }
    eprintln!(
        "fixed prompt as SmolLM2-135M's llama.cpp server counts it:\n  {}",
        figures.join("\n  ")
    );
}
