//! The real-model tier: the client and the CLI against llama.cpp's server
//! (the `xllamacpp` wheel) on loopback, started by `scripts/llm-server.py`,
//! serving two models whose chat templates differ: SmolLM2-135M-Instruct
//! (ChatML, a system role; `FARARONI_REAL_LLM_URL`) and Gemma 3 270M
//! (Gemma's template: no system role, `model` turns, strictly alternating
//! turns; `FARARONI_REAL_LLM_URL_GEMMA3`). Ignored by default; `.ci/run`
//! runs them through `scripts/real-model-tier.sh`. The models' quality is
//! not under test, the plumbing is: few calls, few tokens (generation runs
//! at a few tokens per second on 2 cores).

use std::time::Duration;

use git_fararoni::agent::client::{
    ChatMessage, ChatRequest, LlmClient, Role, ToolCall, ToolMode, ToolSpec,
};
use git_fararoni::agent::http::HttpClient;
use git_fararoni::settings::read::{ModelSettings, ToolModeSetting};
use serde_json::json;

use crate::common::TestRepo;

const WHY: &str = "needs a real model server: run scripts/real-model-tier.sh";

/// A model the tier serves: its name, and the variable holding the URL of
/// the server that serves it.
#[derive(Clone, Copy)]
struct Served {
    name: &'static str,
    url_var: &'static str,
}

const SMOLLM2: Served = Served {
    name: "smollm2",
    url_var: "FARARONI_REAL_LLM_URL",
};

const GEMMA3: Served = Served {
    name: "gemma3",
    url_var: "FARARONI_REAL_LLM_URL_GEMMA3",
};

impl Served {
    fn url(self) -> String {
        std::env::var(self.url_var).unwrap_or_else(|_| {
            panic!(
                "{}: start scripts/llm-server.py --model {} first",
                self.url_var, self.name
            )
        })
    }
}

fn url() -> String {
    SMOLLM2.url()
}

/// The real server's settings: deterministic sampling, generous timeouts
/// (a CPU generates a few tokens a second).
fn settings(tool_mode: ToolModeSetting, max_tokens: u32, stream: bool) -> ModelSettings {
    settings_for(SMOLLM2, tool_mode, max_tokens, stream)
}

fn settings_for(
    m: Served,
    tool_mode: ToolModeSetting,
    max_tokens: u32,
    stream: bool,
) -> ModelSettings {
    ModelSettings {
        base_url: m.url(),
        model: Some(m.name.into()),
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
    level_2_answers(SMOLLM2);
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_gemma3_level_2_chat_answers_hola() {
    level_2_answers(GEMMA3);
}

/// Level 2 (small talk) answers with the model's own text, through its
/// chat template (Gemma's folds the system prompt into the user turn).
fn level_2_answers(m: Served) {
    let repo = TestRepo::with_commit();
    let out = repo
        .cmd("git-fararoni")
        .args(["ask", "hola"])
        .env("FARARONI_CHAT_BASE_URL", m.url())
        .env("FARARONI_CHAT_MODEL", m.name)
        .env("FARARONI_CHAT_TIMEOUT", "120")
        .env("FARARONI_CHAT_MAX_TOKENS", "12")
        .output()
        .expect("runs");
    let out: crate::common::Out = out.into();
    assert_eq!(out.code, 0, "{}: {out}", m.name);
    assert!(!out.stdout.trim().is_empty(), "{}: {out}", m.name);
    assert!(
        !out.stderr.contains("did not answer") && !out.stderr.contains("warning"),
        "{}: the model answered, not the built-in reply: {out}",
        m.name
    );
    eprintln!("{} at level 2: {:?}", m.name, out.stdout.trim());
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_constrained_mode_yields_a_tool_call() {
    constrained_call(SMOLLM2);
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_gemma3_constrained_mode_yields_a_tool_call() {
    constrained_call(GEMMA3);
}

/// `auto` reads the server's template (no tools in either model's) and
/// chooses the constrained mode; the reply is one schema-valid call.
fn constrained_call(m: Served) {
    let mut client = HttpClient::new(settings_for(m, ToolModeSetting::Auto, 48, true));
    let info = client.server_info().expect("server info");
    assert_eq!(
        info.supports_tools,
        Some(false),
        "{}'s template has no tools: {info:?}",
        m.name
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
        "{}: {choice:?}; call {call:?}; usage {:?}",
        m.name, reply.usage
    );
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_level_3_task_makes_a_tool_call_and_changes_nothing_outside() {
    level_3_task(SMOLLM2, 200, 3);
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_gemma3_level_3_task_makes_a_tool_call_and_changes_nothing_outside() {
    // Room for a whole call whose strings run to their bounds (the
    // constrained schema's `maxLength`): a tiny base model often does. Two
    // calls: Gemma generates about half as fast as SmolLM2 here.
    level_3_task(GEMMA3, 200, 2);
}

/// A level-3 task in the constrained mode through the CLI: at least one
/// governed tool call, nothing changed outside, the fixed part of the
/// prompt answered from the server's cache from the second call on.
fn level_3_task(m: Served, max_tokens: u32, depth: u32) {
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
        .env("FARARONI_LLM_BASE_URL", m.url())
        .env("FARARONI_LLM_MODEL", m.name)
        .env("FARARONI_LLM_TOOL_MODE", "constrained")
        .env("FARARONI_LLM_MAX_TOKENS", max_tokens.to_string())
        .env("FARARONI_AGENT_MAX_DEPTH", depth.to_string())
        .env("FARARONI_LLM_FIRST_TOKEN_TIMEOUT", "300")
        .env("FARARONI_LLM_CALL_TIMEOUT", "600")
        .output()
        .expect("runs");
    let out: crate::common::Out = out.into();
    // Completes: an answer, or level 3 gave up cleanly (a tiny model may
    // end without one) — never a crash.
    assert!(matches!(out.code, 0 | 4), "{}: {out}", m.name);
    assert!(!out.stderr.contains("panicked"), "{}: {out}", m.name);
    // At least one real tool call went through the governed tools.
    let log: String = repo
        .session_logs()
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert!(
        log.lines()
            .any(|l| l.contains("\"kind\":\"tool\"") || l.contains("\"event\":\"tool\"")),
        "{}: no tool call in the session log: {log}\n{out}",
        m.name
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
    // The fixed part (system prompt, tools, request) is the first call's
    // prompt but its last directive: from the second call on, the server
    // reads at least that much from its cache.
    let first = calls[0].0;
    for &(prompt, cached) in calls.iter().skip(1) {
        assert!(
            cached * 4 >= first * 3 && cached <= prompt,
            "{}: the cache hit: {calls:?}\n{out}",
            m.name
        );
    }
    eprintln!(
        "{}, level 3 under -v: {calls:?} (prompt, cached) per call; exit {}",
        m.name, out.code
    );
    assert_eq!(crate::common::snapshot(outside.path()), out_before);
    assert_eq!(crate::common::snapshot(repo.home()), home_before);
}

/// POSTs `body` to `path` of the server behind `base_url` (its `/v1`
/// dropped) over a plain HTTP/1.1 request; the status and the JSON reply.
fn post(base_url: &str, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
    use std::io::{Read, Write};
    let host = base_url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .expect("host");
    let body = body.to_string();
    let mut s = std::net::TcpStream::connect(host).expect("connect");
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("read");
    let status = reply
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status");
    let json_start = reply.find("\r\n\r\n").expect("head") + 4;
    let v = serde_json::from_str(&reply[json_start..]).expect("a JSON reply");
    (status, v)
}

/// Counts `text`'s tokens with the server's own tokenizer (llama.cpp's
/// `/tokenize`).
fn server_tokens(base_url: &str, text: &str) -> u64 {
    let (_, v) = post(base_url, "/tokenize", &json!({"content": text}));
    v["tokens"].as_array().expect("tokens").len() as u64
}

/// Gemma's template, as llama.cpp applies it (`/apply-template`, no
/// generation), takes the agent's conversation as the constrained mode
/// sends it: the system prompt and tool block folded into the first user
/// turn, calls as `model` turns, two results of one reply as one user
/// turn, the directive last. Sent unmerged, the same two results are
/// refused by the template: the merge is what makes such a run possible.
#[test]
#[ignore = "needs a real model server: run scripts/real-model-tier.sh"]
fn test_real_model_gemma3_template_takes_the_agents_conversation() {
    use git_fararoni::agent::modes::wire_messages;
    use git_fararoni::agent::protocol::{State, DIRECTIVES};
    use git_fararoni::agent::run::SYSTEM_PROMPT;
    use git_fararoni::agent::tools::specs;
    let base = GEMMA3.url();
    let directive = DIRECTIVES
        .iter()
        .find(|(s, _)| *s == State::Start)
        .map(|(_, d)| *d)
        .expect("START directive");
    let mut calls = ChatMessage::text(Role::Assistant, "");
    for (id, path) in [("call_1_1", "a.txt"), ("call_1_2", "b.txt")] {
        calls.tool_calls.push(ToolCall {
            id: id.into(),
            name: "fs_read".into(),
            arguments: json!({"path": path}),
        });
    }
    let history = [
        ChatMessage::text(Role::System, SYSTEM_PROMPT),
        ChatMessage::text(Role::User, "Read a.txt and b.txt"),
        calls,
        ChatMessage::tool_result("call_1_1", "alpha"),
        ChatMessage::tool_result("call_1_2", "beta"),
        ChatMessage::text(Role::System, directive),
    ];
    let wire = wire_messages(&history, &specs(), ToolMode::Constrained);
    let (status, v) = post(&base, "/apply-template", &json!({"messages": wire}));
    assert_eq!(status, 200, "{v}");
    let prompt = v["prompt"].as_str().expect("prompt");
    let first_line = SYSTEM_PROMPT.lines().next().expect("a first line");
    assert!(
        prompt.starts_with(&format!("<start_of_turn>user\n{first_line}")),
        "the system prompt opens the first user turn: {prompt}"
    );
    assert!(
        prompt.contains("Read a.txt and b.txt<end_of_turn>"),
        "{prompt}"
    );
    assert!(
        prompt.contains("<start_of_turn>model\n{\"arguments\""),
        "calls are model turns: {prompt}"
    );
    assert!(
        prompt.contains("[result of fs_read]\nalpha\n\n[result of fs_read]\nbeta"),
        "{prompt}"
    );
    assert!(prompt.ends_with("<start_of_turn>model\n"), "{prompt}");
    assert!(
        !prompt.contains("<|im_start|>"),
        "Gemma's template, not ChatML"
    );
    // The control: one user turn per result breaks the alternation.
    let mut unmerged: Vec<serde_json::Value> = wire.clone();
    let merged = unmerged.remove(3);
    let text = merged["content"].as_str().expect("text");
    let (a, b) = text.split_once("\n\n[result").expect("two results");
    unmerged.insert(3, json!({"role": "user", "content": format!("[result{b}")}));
    unmerged.insert(3, json!({"role": "user", "content": a}));
    let (status, v) = post(&base, "/apply-template", &json!({"messages": unmerged}));
    assert_ne!(
        status, 200,
        "Gemma's template refuses non-alternating turns: {v}"
    );
    assert!(v.to_string().contains("alternate"), "{v}");
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
