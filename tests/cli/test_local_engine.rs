//! The in-process engine against a real model file (SmolLM2-135M-Instruct,
//! the GGUF of scripts/llm-server.py): only in a build with
//! `--features local-llm`, run by scripts/local-llm-tier.sh with
//! `FARARONI_LOCAL_GGUF` (the file) and `FARARONI_REAL_LLM_URL` (llama.cpp's
//! server on the same file, for the tokenizer comparison). No server is
//! used by the engine tests themselves.
#![cfg(feature = "local-llm")]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use git_fararoni::agent::client::{
    ChatMessage, ChatRequest, LlmClient, LlmError, Role, StreamEvent, ToolMode,
};
use git_fararoni::agent::local::engine::LocalClient;
use git_fararoni::settings::read::{model_settings, ModelLevel};
use git_fararoni::sys::interrupt;
use serde_json::{json, Value};

use crate::common::{snapshot, Out, TestRepo};

fn model() -> PathBuf {
    PathBuf::from(
        std::env::var("FARARONI_LOCAL_GGUF")
            .expect("FARARONI_LOCAL_GGUF: run scripts/local-llm-tier.sh"),
    )
}

fn client() -> LocalClient {
    let info = git_fararoni::agent::local::validate(&model()).expect("a valid model");
    let mut settings =
        model_settings(git_fararoni::settings::of(None), ModelLevel::Fallback).expect("settings");
    settings.call_timeout = Duration::from_secs(300);
    LocalClient::new(info, settings, 1)
}

/// llama.cpp server's `/tokenize` of `text` (no BOS, special tokens parsed).
fn server_tokens(text: &str) -> Vec<i64> {
    let url = std::env::var("FARARONI_REAL_LLM_URL").expect("FARARONI_REAL_LLM_URL");
    let host = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .expect("host")
        .to_string();
    let body = json!({"content": text, "add_special": false, "parse_special": true}).to_string();
    let mut s = std::net::TcpStream::connect(&host).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    write!(
        s,
        "POST /tokenize HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut reply = Vec::new();
    s.read_to_end(&mut reply).expect("read");
    let reply = String::from_utf8_lossy(&reply);
    let (_, json_body) = reply.split_once("\r\n\r\n").expect("a body");
    let v: Value = serde_json::from_str(json_body.trim()).expect("json");
    v["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .filter_map(Value::as_i64)
        .collect()
}

#[test]
#[ignore = "needs the model and the server: run scripts/local-llm-tier.sh"]
fn test_local_engine_tokenizer_matches_llama_cpp_server() {
    let mut c = client();
    let texts = [
        "The quick brown fox jumps over the lazy dog.",
        "  leading spaces, trailing spaces   \n\nnew lines\ttabs",
        "¿Dónde está la señal? Añadió el pingüino: «ñandú, acción, corazón».",
        "fn main() {\n    let x: Vec<u8> = vec![1, 2, 3]; // ok\n    println!(\"{x:?}\");\n}\n",
        "emoji 🦀🔥👩‍💻 and CJK 漢字 かな",
        "<|im_start|>user\nhola<|im_end|>\n",
    ];
    for t in texts {
        let ours: Vec<i64> = c
            .tokenize(t)
            .expect("tokenize")
            .into_iter()
            .map(i64::from)
            .collect();
        assert!(!ours.is_empty(), "{t:?}");
        assert_eq!(ours, server_tokens(t), "{t:?}");
    }
}

#[test]
#[ignore = "needs the model: run scripts/local-llm-tier.sh"]
fn test_local_engine_streams_token_by_token_and_stops_on_ctrl_c() {
    let mut c = client();
    let messages = [ChatMessage::text(
        Role::User,
        "Write a long story about a cat.",
    )];
    let request = ChatRequest {
        messages: &messages,
        tools: &[],
        mode: ToolMode::None,
        max_tokens: 12,
        temperature: 0.0,
        require_tool: false,
    };
    let mut pieces = 0;
    let r = c.chat(&request, &mut |e| {
        if let StreamEvent::Text(_) = e {
            pieces += 1;
        }
    });
    let r = r.expect("a reply");
    assert!(pieces >= 2, "{pieces} pieces: {r:?}");
    assert_eq!(r.usage.completion_tokens, 12, "{r:?}");
    assert_eq!(r.finish_reason.as_deref(), Some("length"));
    // Ctrl-C after the first token: generation stops between tokens.
    interrupt::clear();
    let mut seen = 0;
    let long = ChatRequest {
        max_tokens: 200,
        ..request
    };
    let r = c.chat(&long, &mut |e| {
        if let StreamEvent::Text(_) = e {
            seen += 1;
            interrupt::request();
        }
    });
    interrupt::clear();
    assert!(matches!(r, Err(LlmError::Interrupted)), "{r:?}");
    assert!(seen <= 2, "stopped right after the first token: {seen}");
}

#[test]
#[ignore = "needs the model: run scripts/local-llm-tier.sh"]
fn test_local_engine_level_2_answers_hola_in_process() {
    let repo = TestRepo::with_commit();
    let started = Instant::now();
    let out: Out = repo
        .cmd("git-fararoni")
        .args(["ask", "hola"])
        .env("FARARONI_CHAT_GGUF", model())
        .env("FARARONI_CHAT_MAX_TOKENS", "16")
        .env("FARARONI_CHAT_TIMEOUT", "120")
        // No server anywhere: an unroutable base URL must not matter.
        .env("FARARONI_LLM_BASE_URL", "http://127.0.0.1:9/v1")
        .output()
        .expect("runs")
        .into();
    eprintln!("level 2 in process: {:?}", started.elapsed());
    assert_eq!(out.code, 0, "{out}");
    assert!(!out.stdout.trim().is_empty(), "{out}");
    assert!(
        !out.stderr.contains("did not answer"),
        "the model answered, not the built-in reply: {out}"
    );
}

#[test]
#[ignore = "needs the model: run scripts/local-llm-tier.sh"]
fn test_local_engine_level_3_makes_a_schema_valid_call_and_completes() {
    let repo = TestRepo::with_commit();
    repo.write("NOTES.md", "The project is called Fararoni.\n");
    repo.git(&["add", "NOTES.md"]);
    repo.git(&["commit", "-q", "-m", "notes"]);
    let home_before = snapshot(repo.home());
    let model_dir = model().parent().expect("dir").to_path_buf();
    let models_before: Vec<_> = std::fs::read_dir(&model_dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    let out: Out = repo
        .cmd("git-fararoni")
        .args([
            "ask",
            "--json",
            "Read the file NOTES.md and tell me what the project is called",
        ])
        .env("FARARONI_LLM_GGUF", model())
        .env("FARARONI_LLM_TOOL_MODE", "constrained")
        // SmolLM2-135M writes long strings (a glob pattern of a hundred
        // characters): room for the call to close, few steps.
        .env("FARARONI_LLM_MAX_TOKENS", "256")
        .env("FARARONI_FALLBACK_MAX_TOKENS", "32")
        .env("FARARONI_THINKING_MAX_TOKENS", "32")
        .env("FARARONI_AGENT_MAX_DEPTH", "2")
        .env("FARARONI_LLM_BASE_URL", "http://127.0.0.1:9/v1")
        .output()
        .expect("runs")
        .into();
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(out.stdout.trim()).expect("json");
    let calls = v["tool_calls"].as_array().expect("tool_calls");
    assert!(
        calls
            .iter()
            .any(|c| c["verdict"] != "rejected" && c["tool"].is_string()),
        "at least one schema-valid call was carried out: {v}"
    );
    assert!(
        v["answer"].as_str().is_some_and(|a| !a.trim().is_empty()),
        "it completes with an answer: {v}"
    );
    assert_eq!(
        snapshot(repo.home()),
        home_before,
        "nothing outside the repository changed"
    );
    let models_after: Vec<_> = std::fs::read_dir(&model_dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    assert_eq!(
        models_before, models_after,
        "the model's folder is untouched"
    );
    assert!(
        repo.git(&["status", "--porcelain"])
            .lines()
            .all(|l| l.contains(".fararoni")),
        "the work tree is untouched"
    );
}

#[test]
#[ignore = "needs the model: run scripts/local-llm-tier.sh"]
fn test_local_engine_keeps_the_context_for_the_next_step_only_for_its_prefix() {
    use git_fararoni::agent::local::engine::Timings;
    let mut c = client();
    let ask = |c: &mut LocalClient, messages: &[ChatMessage]| {
        let request = ChatRequest {
            messages,
            tools: &[],
            mode: ToolMode::None,
            max_tokens: 8,
            temperature: 0.0,
            require_tool: false,
        };
        let mut t = Timings::default();
        let r = c
            .chat_timed(&request, &mut |_| {}, &mut t)
            .expect("a reply");
        (r, t)
    };
    let mut talk = vec![
        ChatMessage::text(
            Role::System,
            "You are a terse assistant in a git repository.",
        ),
        ChatMessage::text(Role::User, "Which file holds the project's name?"),
    ];
    let (first, t1) = ask(&mut c, &talk);
    assert_eq!(first.usage.cached_tokens, 0, "nothing kept yet");
    assert_eq!(t1.prompt_evaluated, first.usage.prompt_tokens);

    // The next step: the same conversation plus two turns.
    talk.push(ChatMessage::text(Role::Assistant, &first.content));
    talk.push(ChatMessage::text(
        Role::User,
        "NOTES.md says: The project is called Fararoni.",
    ));
    let (second, t2) = ask(&mut c, &talk);
    assert!(
        second.usage.cached_tokens + 2 >= first.usage.prompt_tokens,
        "the first prompt came from the kept context: {second:?}"
    );
    assert_eq!(
        t2.prompt_evaluated,
        second.usage.prompt_tokens - second.usage.cached_tokens,
        "only the new suffix was evaluated"
    );
    assert!(
        t2.prompt_evaluated < second.usage.prompt_tokens / 2,
        "{t2:?} {second:?}"
    );

    // Starting over gives the same reply: the kept tokens are what
    // evaluating them again computes.
    c.clear_cache();
    let (again, t3) = ask(&mut c, &talk);
    assert_eq!(t3.prompt_evaluated, again.usage.prompt_tokens);
    assert_eq!(again.content, second.content);

    // Another conversation shares at most the chat template's opening.
    let other = [ChatMessage::text(Role::User, "Write a haiku about rust.")];
    let (o, _) = ask(&mut c, &other);
    assert!(o.usage.cached_tokens < 8, "{o:?}");

    // Ctrl-C mid-request: the context is not kept.
    interrupt::clear();
    let request = ChatRequest {
        messages: &other,
        tools: &[],
        mode: ToolMode::None,
        max_tokens: 50,
        temperature: 0.0,
        require_tool: false,
    };
    let r = c.chat(&request, &mut |_| interrupt::request());
    interrupt::clear();
    assert!(matches!(r, Err(LlmError::Interrupted)), "{r:?}");
    let (after, _) = ask(&mut c, &other);
    assert_eq!(after.usage.cached_tokens, 0, "{after:?}");
}
