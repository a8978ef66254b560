//! The HTTP model client against the scripted fake server: replies in every
//! shape, every fault (with a message naming the endpoint), and the tool
//! modes as they appear on the wire.

use std::time::{Duration, Instant};

use git_fararoni::agent::client::{
    ChatMessage, ChatRequest, ChatResponse, LlmClient, LlmError, Role, StreamEvent, ToolMode,
    ToolSpec,
};
use git_fararoni::agent::extract;
use git_fararoni::agent::http::HttpClient;
use git_fararoni::settings::read::{ModelSettings, ToolModeSetting};
use serde_json::json;

use crate::fake_llm::{refused_url, FakeLlm, Reply};

fn settings(base_url: &str) -> ModelSettings {
    ModelSettings {
        base_url: base_url.to_string(),
        model: Some("tiny".into()),
        api_key: None,
        tool_mode: ToolModeSetting::Native,
        context_tokens: None,
        max_tokens: 64,
        temperature: 0.0,
        connect_timeout: Duration::from_secs(2),
        first_token_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(10),
        call_timeout: Duration::from_secs(20),
        max_retries: 2,
        max_response_bytes: 1 << 20,
        stream: true,
    }
}

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "fs_read".into(),
            description: "Read a file.".into(),
            parameters: json!({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}),
        },
        ToolSpec {
            name: "ShellCommand".into(),
            description: "Run a command.".into(),
            parameters: json!({"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}),
        },
    ]
}

fn messages() -> Vec<ChatMessage> {
    vec![
        ChatMessage::text(Role::System, "You are a coding agent."),
        ChatMessage::text(Role::User, "read a.txt"),
        ChatMessage::text(Role::System, "PROTOCOL-MANDATE: read first"),
    ]
}

/// Sends one tool-bearing request; returns the reply and the events seen.
fn ask(client: &mut HttpClient) -> (Result<ChatResponse, LlmError>, Vec<String>) {
    let msgs = messages();
    let tools = tools();
    let req = ChatRequest {
        messages: &msgs,
        tools: &tools,
        mode: ToolMode::Native,
        max_tokens: 64,
        temperature: 0.0,
        require_tool: false,
    };
    let mut events = Vec::new();
    let r = client.chat(&req, &mut |e| {
        events.push(match e {
            StreamEvent::Text(t) => format!("text:{t}"),
            StreamEvent::Reasoning(t) => format!("reasoning:{t}"),
            StreamEvent::ToolCallStarted(n) => format!("call:{n}"),
        })
    });
    (r, events)
}

fn client(fake: &FakeLlm, tweak: impl FnOnce(&mut ModelSettings)) -> HttpClient {
    let mut s = settings(&fake.base_url());
    tweak(&mut s);
    HttpClient::new(s)
}

#[test]
fn test_llm_client_streams_text_and_reports_usage() {
    let fake = FakeLlm::start(vec![Reply::WithUsage(
        Box::new(Reply::text("<think>plan</think>Hello there, friend")),
        (120, 7, 96),
    )]);
    let (r, events) = ask(&mut client(&fake, |_| {}));
    let r = r.expect("reply");
    assert_eq!(r.content, "Hello there, friend");
    assert_eq!(r.reasoning.as_deref(), Some("plan"));
    assert_eq!(r.usage.cached_tokens, 96);
    assert_eq!(r.usage.prompt_tokens, 120);
    assert!(events.len() > 2, "streamed in pieces: {events:?}");
    let shown: String = events
        .iter()
        .filter_map(|e| e.strip_prefix("text:"))
        .collect();
    assert_eq!(shown, "Hello there, friend");
    let body = &fake.requests()[0];
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "tiny");
    assert_eq!(
        FakeLlm::last_system(body).as_deref(),
        Some("PROTOCOL-MANDATE: read first")
    );
}

#[test]
fn test_llm_client_reads_tool_calls_streamed_and_whole() {
    let fake = FakeLlm::start(vec![
        Reply::ToolCalls(vec![
            ("fs_read".into(), json!({"path": "a.txt"})),
            (
                "ShellCommand".into(),
                json!({"command": "cargo test -- --nocapture"}),
            ),
        ]),
        Reply::ToolCallsObjectArgs(vec![("fs_read".into(), json!({"path": "b.txt"}))]),
        Reply::tool_call("fs_read", json!({"path": "c.txt"})),
    ]);
    let mut c = client(&fake, |_| {});
    let (r, events) = ask(&mut c);
    let r = r.expect("reply");
    assert_eq!(r.tool_calls.len(), 2);
    assert_eq!(
        r.tool_calls[1].arguments,
        json!({"command": "cargo test -- --nocapture"})
    );
    assert_eq!(r.finish_reason.as_deref(), Some("tool_calls"));
    assert!(
        events.contains(&"call:ShellCommand".to_string()),
        "{events:?}"
    );
    let (r, _) = ask(&mut c);
    assert_eq!(
        r.expect("reply").tool_calls[0].arguments,
        json!({"path": "b.txt"})
    );
    let mut whole = client(&fake, |s| s.stream = false);
    let (r, _) = ask(&mut whole);
    assert_eq!(
        r.expect("reply").tool_calls[0].arguments,
        json!({"path": "c.txt"})
    );
    let bodies = fake.requests();
    assert_eq!(bodies[2]["stream"], false);
    assert_eq!(bodies[0]["tools"][0]["function"]["name"], "fs_read");
}

#[test]
fn test_llm_client_leaves_a_leaked_call_in_the_text_for_the_extractor() {
    let fake = FakeLlm::start(vec![Reply::leaked_call(
        "read_file",
        json!({"path": "a.txt"}),
    )]);
    let (r, _) = ask(&mut client(&fake, |_| {}));
    let r = r.expect("reply");
    assert!(r.tool_calls.is_empty());
    let found = extract::extract(&r.content, &["fs_read"]);
    assert_eq!(found.len(), 1, "exactly once: {found:?}");
    assert_eq!(found[0].arguments, json!({"path": "a.txt"}));
}

fn expect_err(r: Result<ChatResponse, LlmError>) -> LlmError {
    match r {
        Ok(r) => panic!("expected an error, got {r:?}"),
        Err(e) => e,
    }
}

#[test]
fn test_llm_client_connection_refused_names_the_endpoint() {
    let url = refused_url();
    let mut c = HttpClient::new(ModelSettings {
        max_retries: 1,
        ..settings(&url)
    });
    let e = expect_err(ask(&mut c).0);
    assert!(matches!(e, LlmError::Unreachable { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(&format!("{url}/chat/completions")), "{msg}");
    assert!(e.hint().contains("fararoni.llm.baseUrl"), "{}", e.hint());
}

#[test]
fn test_llm_client_retries_500_and_a_hangup_then_succeeds() {
    let fake = FakeLlm::start(vec![
        Reply::Status(500, "boom".into()),
        Reply::Hangup,
        Reply::text("recovered"),
    ]);
    let (r, _) = ask(&mut client(&fake, |_| {}));
    assert_eq!(r.expect("reply").content, "recovered");
    assert_eq!(fake.used(), 3);
}

#[test]
fn test_llm_client_gives_up_after_its_retries() {
    let fake = FakeLlm::start(vec![
        Reply::Status(503, "overloaded".into()),
        Reply::Status(503, "overloaded".into()),
        Reply::Status(503, "still overloaded".into()),
        Reply::text("never reached"),
    ]);
    let e = expect_err(ask(&mut client(&fake, |_| {})).0);
    assert!(matches!(e, LlmError::Status { status: 503, .. }), "{e:?}");
    assert!(e.to_string().contains("still overloaded"), "{e}");
    assert_eq!(fake.used(), 3, "1 try + 2 retries");
}

#[test]
fn test_llm_client_honours_retry_after() {
    let fake = FakeLlm::start(vec![Reply::RetryAfter(1), Reply::text("ok")]);
    let started = Instant::now();
    let (r, _) = ask(&mut client(&fake, |_| {}));
    assert_eq!(r.expect("reply").content, "ok");
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn test_llm_client_does_not_retry_a_wrong_model_name() {
    let fake = FakeLlm::start(vec![
        Reply::Status(404, "{\"error\":\"model 'tiny' not found\"}".into()),
        Reply::text("never"),
    ]);
    let e = expect_err(ask(&mut client(&fake, |_| {})).0);
    assert!(e.to_string().contains("model 'tiny' not found"), "{e}");
    assert!(e.hint().contains("fararoni.llm.model"), "{}", e.hint());
    assert_eq!(fake.used(), 1);
}

#[test]
fn test_llm_client_malformed_json_is_a_clear_error() {
    let fake = FakeLlm::start(vec![Reply::Malformed, Reply::Malformed]);
    let e = expect_err(ask(&mut client(&fake, |_| {})).0);
    assert!(matches!(e, LlmError::Malformed { .. }), "{e:?}");
    assert!(e.to_string().contains("not JSON"), "{e}");
    let e = expect_err(ask(&mut client(&fake, |s| s.stream = false)).0);
    assert!(e.to_string().contains(&fake.base_url()), "{e}");
}

#[test]
fn test_llm_client_a_stream_cut_in_the_middle_is_not_a_reply() {
    let fake = FakeLlm::start(vec![Reply::CutStream("I was saying that the".into())]);
    let e = expect_err(ask(&mut client(&fake, |_| {})).0);
    assert!(matches!(e, LlmError::Malformed { .. }), "{e:?}");
    assert!(e.to_string().contains("ended before its last event"), "{e}");
    assert_eq!(fake.used(), 1, "a reply that started is never retried");
}

#[test]
fn test_llm_client_slow_first_token_times_out() {
    let fake = FakeLlm::start(vec![Reply::Slow(
        Duration::from_secs(3),
        Box::new(Reply::text("late")),
    )]);
    let started = Instant::now();
    let e = expect_err(
        ask(&mut client(&fake, |s| {
            s.first_token_timeout = Duration::from_millis(400);
            s.max_retries = 0;
        }))
        .0,
    );
    assert!(matches!(e, LlmError::Timeout { .. }), "{e:?}");
    assert!(e.to_string().contains("firstTokenTimeout"), "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn test_llm_client_an_enormous_reply_is_abandoned() {
    let fake = FakeLlm::start(vec![Reply::Huge(3 << 20), Reply::Huge(3 << 20)]);
    for stream in [true, false] {
        let e = expect_err(ask(&mut client(&fake, |s| s.stream = stream)).0);
        assert!(e.to_string().contains("maxResponseBytes"), "{e}");
    }
}

#[test]
fn test_llm_client_prompted_mode_puts_tools_in_the_system_prompt() {
    let fake = FakeLlm::start(vec![Reply::text(
        "{\"name\": \"fs_read\", \"arguments\": {\"path\": \"a\"}}",
    )]);
    let mut c = client(&fake, |s| s.tool_mode = ToolModeSetting::Prompted);
    let (r, _) = ask(&mut c);
    let r = r.expect("reply");
    assert!(r.tool_calls.is_empty(), "prompted calls stay in the text");
    assert_eq!(extract::extract(&r.content, &[]).len(), 1);
    let body = &fake.requests()[0];
    assert!(body.get("tools").is_none(), "{body}");
    let first = body["messages"][0]["content"].as_str().expect("system");
    assert!(
        first.starts_with("You are a coding agent.\n\n# Tools\n"),
        "{first}"
    );
    assert!(
        first.contains("- ShellCommand(command: string): Run a command."),
        "{first}"
    );
    assert_eq!(
        FakeLlm::last_system(body).as_deref(),
        Some("PROTOCOL-MANDATE: read first")
    );
}

#[test]
fn test_llm_client_constrained_mode_sends_a_schema_and_parses_the_call() {
    let fake = FakeLlm::start(vec![
        Reply::text("{\"name\": \"ShellCommand\", \"arguments\": {\"command\": \"ls\"}}"),
        Reply::text("{\"answer\": \"all done\"}"),
    ]);
    let mut c = client(&fake, |s| s.tool_mode = ToolModeSetting::Constrained);
    let (r, events) = ask(&mut c);
    let r = r.expect("reply");
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(
        events,
        ["call:ShellCommand"],
        "the JSON itself is not shown"
    );
    let (r, _) = ask(&mut c);
    assert_eq!(r.expect("reply").content, "all done");
    let body = &fake.requests()[0];
    assert_eq!(body["response_format"]["type"], "json_schema");
    let any_of = &body["response_format"]["json_schema"]["schema"]["anyOf"];
    assert_eq!(any_of[0]["properties"]["name"]["const"], "fs_read");
    assert_eq!(any_of[2]["required"], json!(["answer"]));
    assert!(body.get("tools").is_none());
}

#[test]
fn test_llm_client_constrained_mode_on_ollama_uses_api_chat_format() {
    let fake = FakeLlm::start(vec![Reply::text(
        "{\"name\": \"fs_read\", \"arguments\": {\"path\": \"x\"}}",
    )])
    .with_ollama_show(
        json!({"model_info": {"llama.context_length": 8192}, "capabilities": ["completion"]}),
    );
    let mut c = client(&fake, |s| s.tool_mode = ToolModeSetting::Auto);
    let info = c.server_info().expect("info");
    assert_eq!(info.context_tokens, Some(8192));
    assert_eq!(info.supports_tools, Some(false));
    let (r, _) = ask(&mut c);
    assert_eq!(r.expect("reply").tool_calls[0].name, "fs_read");
    let chat = fake
        .all_requests()
        .into_iter()
        .find(|r| r.path == "/api/chat")
        .expect("the call went to /api/chat");
    assert_eq!(
        chat.body["format"]["anyOf"][0]["properties"]["name"]["const"],
        "fs_read"
    );
    assert_eq!(chat.body["stream"], false);
    let choice = c.tool_mode_choice().expect("chosen");
    assert_eq!(choice.mode, ToolMode::Constrained);
}

#[test]
fn test_llm_client_auto_mode_follows_the_server() {
    // llama.cpp whose template has no tools: constrained.
    let fake = FakeLlm::start(vec![Reply::text("{\"answer\": \"hi\"}")])
        .with_props(json!({"default_generation_settings": {"n_ctx": 2048},
                           "chat_template_caps": {"supports_tools": false}}));
    let mut c = client(&fake, |s| s.tool_mode = ToolModeSetting::Auto);
    assert_eq!(c.server_info().expect("info").context_tokens, Some(2048));
    assert_eq!(ask(&mut c).0.expect("reply").content, "hi");
    let choice = c.tool_mode_choice().expect("chosen");
    assert_eq!(choice.mode, ToolMode::Constrained);
    assert!(choice.reason.contains("no tools"), "{}", choice.reason);
    // A template with tools: native.
    let fake = FakeLlm::start(vec![Reply::text("hi")])
        .with_props(json!({"chat_template_caps": {"supports_tools": true}}));
    let mut c = client(&fake, |s| s.tool_mode = ToolModeSetting::Auto);
    ask(&mut c).0.expect("reply");
    assert_eq!(c.tool_mode_choice().map(|m| m.mode), Some(ToolMode::Native));
    assert!(fake.requests()[0].get("tools").is_some());
    // A server that says nothing and then prints its call: prompted from then on.
    let fake = FakeLlm::start(vec![
        Reply::leaked_call("fs_read", json!({"path": "a"})),
        Reply::text("done"),
    ]);
    let mut c = client(&fake, |s| s.tool_mode = ToolModeSetting::Auto);
    ask(&mut c).0.expect("reply");
    ask(&mut c).0.expect("reply");
    let bodies = fake.requests();
    assert!(bodies[0].get("tools").is_some());
    assert!(bodies[1].get("tools").is_none(), "{}", bodies[1]);
    assert_eq!(
        c.tool_mode_choice().map(|m| m.mode),
        Some(ToolMode::Prompted)
    );
}

#[test]
fn test_llm_client_server_info_failures_mean_unknown() {
    let mut c = HttpClient::new(settings(&refused_url()));
    let info = c.server_info().expect("never an error");
    assert_eq!(info.context_tokens, None);
    assert_eq!(info.supports_tools, None);
    let fake = FakeLlm::start(vec![]).with_props(json!("not an object"));
    let mut c = HttpClient::new(ModelSettings {
        context_tokens: Some(4096),
        ..settings(&fake.base_url())
    });
    assert_eq!(c.server_info().expect("info").context_tokens, Some(4096));
}

#[test]
fn test_llm_client_sends_the_api_key_only_as_a_bearer_header() {
    let fake = FakeLlm::start(vec![Reply::text("ok")]);
    let mut c = client(&fake, |s| s.api_key = Some("sk-test-123".into()));
    ask(&mut c).0.expect("reply");
    let req = &fake.all_requests()[0];
    let auth = req
        .headers
        .iter()
        .find(|(k, _)| k == "authorization")
        .map(|(_, v)| v.as_str());
    assert_eq!(auth, Some("Bearer sk-test-123"));
    assert!(!req.body.to_string().contains("sk-test-123"));
    assert!(!c.describe().contains("sk-test"));
}

#[test]
fn test_llm_client_ctrl_c_stops_the_chat_and_falls_back() {
    let repo = crate::common::TestRepo::with_commit();
    let fake = FakeLlm::start(vec![Reply::Slow(
        Duration::from_secs(8),
        Box::new(Reply::text("late")),
    )]);
    let child = repo
        .cmd("git-fararoni")
        .args(["ask", "hello"])
        .env("FARARONI_CHAT_BASE_URL", fake.base_url())
        .env("FARARONI_CHAT_MODEL", "tiny")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    // Wait until the request reached the server, then press Ctrl-C.
    let started = Instant::now();
    while fake.requests().is_empty() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let out: crate::common::Out = child.wait_with_output().expect("wait").into();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "stopped early: {:?}",
        started.elapsed()
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.contains("interrupted"), "{out}");
    assert!(out.stdout.starts_with("Hello"), "the built-in reply: {out}");
}

#[test]
fn test_llm_client_chat_inherits_the_llm_keys_and_keeps_openai_key_off_http() {
    let repo = crate::common::TestRepo::with_commit();
    let fake = FakeLlm::start(vec![Reply::text("Hola desde el modelo")]);
    let out: crate::common::Out = repo
        .cmd("git-fararoni")
        .args(["ask", "hola"])
        .env("FARARONI_LLM_BASE_URL", fake.base_url())
        .env("FARARONI_LLM_MODEL", "tiny")
        .env("OPENAI_API_KEY", "sk-must-not-leak")
        .output()
        .expect("runs")
        .into();
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(out.stdout.trim(), "Hola desde el modelo", "{out}");
    let req = &fake.all_requests()[0];
    assert_eq!(req.body["model"], "tiny");
    assert_eq!(req.body["max_tokens"], 48, "level 2's own default");
    assert!(
        !req.headers.iter().any(|(k, _)| k == "authorization"),
        "OPENAI_API_KEY is never sent over plain http: {:?}",
        req.headers
    );
}

#[test]
fn test_llm_client_an_unreadable_setting_is_named_and_nothing_is_sent() {
    let repo = crate::common::TestRepo::with_commit();
    let fake = FakeLlm::start(vec![Reply::text("never")]);
    let out: crate::common::Out = repo
        .cmd("git-fararoni")
        .args(["ask", "hello"])
        .env("FARARONI_CHAT_BASE_URL", fake.base_url())
        .env("FARARONI_CHAT_MODEL", "tiny")
        .env("FARARONI_LLM_TOOL_MODE", "sometimes")
        .output()
        .expect("runs")
        .into();
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr.contains("invalid `FARARONI_LLM_TOOL_MODE` in the environment: `sometimes` (expected auto, native, prompted or constrained)"),
        "{out}"
    );
    assert!(fake.all_requests().is_empty());
}
