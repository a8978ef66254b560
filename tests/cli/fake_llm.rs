//! A scripted fake OpenAI-compatible model server on loopback, for tests of
//! the model client and the agent loop. No crate: a `std::net` listener in a
//! thread, one connection per request (`connection: close`).
//!
//! How to use it:
//! ```ignore
//! let fake = FakeLlm::start(vec![
//!     Reply::tool_call("fs_read", json!({"path": "a.txt"})),
//!     Reply::text("done"),
//! ]);
//! // point the client at it: FARARONI_LLM_BASE_URL = fake.base_url() ("http://127.0.0.1:PORT/v1")
//! // ... run the client or the binary ...
//! let bodies = fake.requests();            // every POST body, as JSON, in order
//! let sys = FakeLlm::last_system(&bodies[0]); // the last `system` message of a request
//! ```
//! Each POST to `/v1/chat/completions` (or Ollama's `/api/chat`) takes the
//! next [`Reply`] of the script; when the script is exhausted the server
//! answers 500 "fake_llm: script exhausted" so a test that makes one call too
//! many fails loudly. A reply answers in the form the request asked for: an
//! SSE stream with small deltas when the body has `"stream": true`, one JSON
//! document otherwise. `GET /props` answers [`FakeLlm::with_props`]'s JSON
//! and `POST /api/show` [`FakeLlm::with_ollama_show`]'s (404 by default);
//! neither consumes the script.
//! Faults: [`Reply::Status`], [`Reply::RetryAfter`], [`Reply::Malformed`],
//! [`Reply::CutStream`], [`Reply::Slow`], [`Reply::Huge`], [`Reply::Hangup`];
//! a refused connection is [`refused_url`].

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{json, Value};

/// One scripted answer to one chat request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A plain assistant message (streamed as deltas when asked to stream).
    Text(String),
    /// Structured tool calls `(name, arguments)`; the arguments are sent
    /// string-encoded, as OpenAI does (streamed as fragments by index).
    ToolCalls(Vec<(String, Value)>),
    /// Tool calls whose arguments are sent as a JSON object, as Ollama does.
    ToolCallsObjectArgs(Vec<(String, Value)>),
    /// A whole chat-completion JSON body, sent as it is (non-streaming).
    Json(Value),
    /// Raw SSE `data:` payloads, each sent as one event, then `[DONE]`.
    Sse(Vec<String>),
    /// An error status with a body.
    Status(u16, String),
    /// 429 with `Retry-After: secs`.
    RetryAfter(u64),
    /// 200 with a body that is not JSON.
    Malformed,
    /// A stream that sends some text deltas and then closes without `[DONE]`.
    CutStream(String),
    /// Waits this long before sending the reply (a slow first token).
    Slow(Duration, Box<Reply>),
    /// A valid reply whose text is this many bytes long.
    Huge(usize),
    /// Closes the connection without answering.
    Hangup,
    /// Text sent with this usage: `(prompt, completion, cached)`.
    WithUsage(Box<Reply>, (u64, u64, u64)),
}

impl Reply {
    /// A plain text reply.
    pub fn text(s: impl Into<String>) -> Reply {
        Reply::Text(s.into())
    }

    /// One structured tool call.
    pub fn tool_call(name: &str, args: Value) -> Reply {
        Reply::ToolCalls(vec![(name.to_string(), args)])
    }

    /// A reply whose text leaks a tool call the way servers do when their
    /// parser fails (`<tool_call>{...}</tool_call>` as content).
    pub fn leaked_call(name: &str, args: Value) -> Reply {
        Reply::Text(format!(
            "<tool_call>\n{}\n</tool_call>",
            json!({"name": name, "arguments": args})
        ))
    }
}

/// What the server received: method, path, headers (lower-cased names) and body.
#[derive(Debug, Clone)]
pub struct Request {
    /// `GET`, `POST`.
    pub method: String,
    /// The path, e.g. `/v1/chat/completions`.
    pub path: String,
    /// The headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`Value::Null` when empty or not JSON).
    pub body: Value,
}

struct Shared {
    script: Vec<Reply>,
    next: usize,
    log: Vec<Request>,
    props: Option<Value>,
    show: Option<Value>,
}

/// A running fake server; it stops when dropped.
pub struct FakeLlm {
    addr: String,
    shared: Arc<Mutex<Shared>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Returns a base URL where nothing listens (bind, read the port, close).
pub fn refused_url() -> String {
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    format!("http://127.0.0.1:{port}/v1")
}

impl FakeLlm {
    /// Starts a server answering chat requests with `script`, in order.
    pub fn start(script: Vec<Reply>) -> FakeLlm {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let addr = listener.local_addr().expect("addr").to_string();
        FakeLlm::serve_on(listener, addr, script)
    }

    /// Starts the server on this machine's non-loopback address, so the
    /// client treats it as a model on another machine (secrets are kept
    /// from it). `None` when the machine has no such address.
    pub fn start_remote(script: Vec<Reply>) -> Option<FakeLlm> {
        // Connecting a UDP socket sends nothing; it picks the interface
        // a packet to that address would leave by.
        let ip = [
            "10.255.255.255:9",
            "192.168.255.255:9",
            "8.8.8.8:9",
            "192.0.2.1:9",
        ]
        .iter()
        .find_map(|target| {
            let probe = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
            probe.connect(target).ok()?;
            let ip = probe.local_addr().ok()?.ip();
            (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
        })?;
        let listener = TcpListener::bind((ip, 0)).ok()?;
        let addr = listener.local_addr().ok()?.to_string();
        Some(FakeLlm::serve_on(listener, addr, script))
    }

    fn serve_on(listener: TcpListener, addr: String, script: Vec<Reply>) -> FakeLlm {
        listener.set_nonblocking(true).expect("nonblocking");
        let shared = Arc::new(Mutex::new(Shared {
            script,
            next: 0,
            log: Vec::new(),
            props: None,
            show: None,
        }));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (s, st) = (shared.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !st.load(std::sync::atomic::Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let s = s.clone();
                        // One thread per connection: a slow reply must not
                        // block the client's retry or a concurrent /props.
                        std::thread::spawn(move || serve(stream, &s));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        FakeLlm {
            addr,
            shared,
            stop,
            thread: Some(thread),
        }
    }

    /// Makes `GET /props` answer `props` (llama.cpp's shape, e.g.
    /// `{"default_generation_settings":{"n_ctx":4096},
    /// "chat_template_caps":{"supports_tools":false}}`).
    pub fn with_props(self, props: Value) -> FakeLlm {
        self.shared.lock().expect("lock").props = Some(props);
        self
    }

    /// Makes `POST /api/show` answer `show` (Ollama's shape, e.g.
    /// `{"model_info":{"llama.context_length":8192},"capabilities":["completion"]}`),
    /// so the client takes the server for Ollama.
    pub fn with_ollama_show(self, show: Value) -> FakeLlm {
        self.shared.lock().expect("lock").show = Some(show);
        self
    }

    /// The OpenAI-style base URL, `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Every request received so far, `GET`s included, in order.
    pub fn all_requests(&self) -> Vec<Request> {
        self.shared.lock().expect("lock").log.clone()
    }

    /// The JSON bodies of the chat requests (POSTs to a chat route) so far.
    pub fn requests(&self) -> Vec<Value> {
        self.all_requests()
            .into_iter()
            .filter(|r| {
                r.method == "POST" && r.path.ends_with("/chat/completions") || r.path == "/api/chat"
            })
            .map(|r| r.body)
            .collect()
    }

    /// How many scripted replies were used.
    pub fn used(&self) -> usize {
        self.shared.lock().expect("lock").next
    }

    /// The content of the last `system` message of a request body.
    pub fn last_system(body: &Value) -> Option<String> {
        body["messages"]
            .as_array()?
            .iter()
            .rev()
            .find(|m| m["role"] == "system")
            .and_then(|m| m["content"].as_str())
            .map(str::to_string)
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            break;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let header = |k: &str| headers.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let mut body = Vec::new();
    if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(len, 0);
        reader.read_exact(&mut body).ok()?;
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let n = usize::from_str_radix(size.trim(), 16).ok()?;
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).ok()?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    }
    Some(Request {
        method,
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    })
}

fn serve(mut stream: TcpStream, shared: &Mutex<Shared>) {
    let _ = stream.set_nonblocking(false);
    let Some(req) = read_request(&stream) else {
        return;
    };
    let streaming = req.body["stream"] == true;
    let ollama = req.path == "/api/chat";
    let is_chat = req.method == "POST" && (req.path.ends_with("/chat/completions") || ollama);
    let reply = {
        let mut s = shared.lock().expect("lock");
        s.log.push(req.clone());
        if !is_chat {
            let canned = match req.path.as_str() {
                "/props" => s.props.clone(),
                "/api/show" => s.show.clone(),
                _ => None,
            };
            Some(canned.map_or(Reply::Status(404, "not found".into()), Reply::Json))
        } else if s.next < s.script.len() {
            s.next += 1;
            Some(s.script[s.next - 1].clone())
        } else {
            None
        }
    };
    let reply = reply.unwrap_or(Reply::Status(500, "fake_llm: script exhausted".into()));
    send(&mut stream, reply, streaming, ollama, None);
}

fn write_head(stream: &mut TcpStream, status: u16, ctype: &str, len: Option<usize>, extra: &str) {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    };
    let len = len
        .map(|l| format!("content-length: {l}\r\n"))
        .unwrap_or_default();
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\ncontent-type: {ctype}\r\n{len}{extra}connection: close\r\n\r\n"
    );
}

fn send_json(stream: &mut TcpStream, status: u16, body: &str, extra: &str) {
    write_head(stream, status, "application/json", Some(body.len()), extra);
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.flush();
}

fn usage_json(u: Option<(u64, u64, u64)>) -> Value {
    let (p, c, k) = u.unwrap_or((10, 5, 0));
    json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c,
           "prompt_tokens_details": {"cached_tokens": k}})
}

fn message_json(reply: &Reply, object_args: bool) -> Value {
    match reply {
        Reply::Text(t) => json!({"role": "assistant", "content": t}),
        Reply::ToolCalls(calls) | Reply::ToolCallsObjectArgs(calls) => {
            let calls: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    let args = if object_args {
                        args.clone()
                    } else {
                        Value::String(args.to_string())
                    };
                    json!({"id": format!("call_{i}"), "type": "function",
                           "function": {"name": name, "arguments": args}})
                })
                .collect();
            json!({"role": "assistant", "content": null, "tool_calls": calls})
        }
        _ => json!({"role": "assistant", "content": ""}),
    }
}

fn sse(stream: &mut TcpStream, payload: &str) -> bool {
    let ok = write!(stream, "data: {payload}\n\n").is_ok() && stream.flush().is_ok();
    // Small pauses so the client really reads several chunks.
    std::thread::sleep(Duration::from_millis(2));
    ok
}

fn chunk(delta: Value, finish: Option<&str>) -> String {
    json!({"object": "chat.completion.chunk",
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    .to_string()
}

fn send(
    stream: &mut TcpStream,
    reply: Reply,
    streaming: bool,
    ollama: bool,
    usage: Option<(u64, u64, u64)>,
) {
    match reply {
        Reply::Slow(d, inner) => {
            std::thread::sleep(d);
            send(stream, *inner, streaming, ollama, usage)
        }
        Reply::WithUsage(inner, u) => send(stream, *inner, streaming, ollama, Some(u)),
        Reply::Status(code, body) => send_json(stream, code, &body, ""),
        Reply::RetryAfter(secs) => send_json(
            stream,
            429,
            "{\"error\":\"rate limited\"}",
            &format!("retry-after: {secs}\r\n"),
        ),
        Reply::Malformed => send_json(stream, 200, "{\"choices\": [ this is not json", ""),
        Reply::Hangup => {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        Reply::Json(v) => send_json(stream, 200, &v.to_string(), ""),
        Reply::Huge(n) => send(stream, Reply::Text("x".repeat(n)), streaming, ollama, usage),
        Reply::Sse(payloads) => {
            write_head(stream, 200, "text/event-stream", None, "");
            for p in payloads {
                if !sse(stream, &p) {
                    return;
                }
            }
            sse(stream, "[DONE]");
        }
        Reply::CutStream(text) => {
            write_head(stream, 200, "text/event-stream", None, "");
            sse(stream, &chunk(json!({"role": "assistant"}), None));
            for piece in pieces(&text) {
                sse(stream, &chunk(json!({"content": piece}), None));
            }
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        reply @ (Reply::Text(_) | Reply::ToolCalls(_) | Reply::ToolCallsObjectArgs(_)) => {
            let object_args = ollama || matches!(reply, Reply::ToolCallsObjectArgs(_));
            let finish = if matches!(reply, Reply::Text(_)) {
                "stop"
            } else {
                "tool_calls"
            };
            if ollama {
                let body = json!({"model": "fake", "message": message_json(&reply, true),
                                  "done": true, "prompt_eval_count": 10, "eval_count": 5});
                return send_json(stream, 200, &body.to_string(), "");
            }
            if !streaming {
                let body = json!({"id": "fake", "object": "chat.completion",
                    "choices": [{"index": 0, "message": message_json(&reply, object_args),
                                 "finish_reason": finish}],
                    "usage": usage_json(usage)});
                return send_json(stream, 200, &body.to_string(), "");
            }
            write_head(stream, 200, "text/event-stream", None, "");
            sse(stream, &chunk(json!({"role": "assistant"}), None));
            match &reply {
                Reply::Text(t) => {
                    for piece in pieces(t) {
                        if !sse(stream, &chunk(json!({"content": piece}), None)) {
                            return;
                        }
                    }
                }
                Reply::ToolCalls(calls) | Reply::ToolCallsObjectArgs(calls) => {
                    for (i, (name, args)) in calls.iter().enumerate() {
                        sse(
                            stream,
                            &chunk(
                                json!({"tool_calls": [{"index": i,
                            "id": format!("call_{i}"), "type": "function",
                            "function": {"name": name, "arguments": ""}}]}),
                                None,
                            ),
                        );
                        if object_args {
                            sse(
                                stream,
                                &chunk(
                                    json!({"tool_calls": [{"index": i,
                                "function": {"arguments": args}}]}),
                                    None,
                                ),
                            );
                            continue;
                        }
                        for piece in pieces(&args.to_string()) {
                            sse(
                                stream,
                                &chunk(
                                    json!({"tool_calls": [{"index": i,
                                "function": {"arguments": piece}}]}),
                                    None,
                                ),
                            );
                        }
                    }
                }
                _ => {}
            }
            sse(stream, &chunk(json!({}), Some(finish)));
            let u = json!({"object": "chat.completion.chunk", "choices": [],
                           "usage": usage_json(usage)});
            sse(stream, &u.to_string());
            sse(stream, "[DONE]");
        }
    }
}

/// Splits text into pieces of a few characters (on char boundaries), the
/// way servers stream tokens; large texts in larger pieces.
fn pieces(text: &str) -> Vec<String> {
    let size = if text.len() > 4096 { 4096 } else { 7 };
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

/// Posts `body` to `url_path` on the fake with a bare socket; returns the raw response.
fn raw_post(fake: &FakeLlm, url_path: &str, body: &str) -> String {
    let mut s = TcpStream::connect(&fake.addr).expect("connect");
    write!(
        s,
        "POST {url_path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

#[test]
fn test_fake_llm_scripts_replies_streams_and_records_bodies() {
    let fake = FakeLlm::start(vec![
        Reply::text("hola"),
        Reply::tool_call("fs_read", json!({"path": "a.txt"})),
    ]);
    let plain = raw_post(
        &fake,
        "/v1/chat/completions",
        r#"{"messages":[{"role":"system","content":"S1"}]}"#,
    );
    assert!(plain.contains("\"content\":\"hola\""), "{plain}");
    let streamed = raw_post(
        &fake,
        "/v1/chat/completions",
        r#"{"stream":true,"messages":[]}"#,
    );
    assert!(streamed.contains("text/event-stream"), "{streamed}");
    assert!(streamed.contains("\"name\":\"fs_read\""), "{streamed}");
    assert!(streamed.trim_end().ends_with("data: [DONE]"), "{streamed}");
    let exhausted = raw_post(&fake, "/v1/chat/completions", "{}");
    assert!(exhausted.starts_with("HTTP/1.1 500"), "{exhausted}");
    let bodies = fake.requests();
    assert_eq!(bodies.len(), 3);
    assert_eq!(FakeLlm::last_system(&bodies[0]).as_deref(), Some("S1"));
    assert_eq!(fake.used(), 2);
}
