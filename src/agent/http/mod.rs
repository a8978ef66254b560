//! The HTTP implementation of [`LlmClient`]: OpenAI-compatible
//! `/v1/chat/completions` (streamed or not), Ollama's `/api/chat` for
//! schema-constrained output, and llama.cpp's `/props` / Ollama's
//! `/api/show` for what the server supports.
//!
//! One current-thread tokio runtime and one connection pool per client,
//! both created by the first request, so runs that never reach a model
//! level never start them. Every wait is bounded (connect, first token,
//! idle between chunks, whole call) and checks the Ctrl-C flag about ten
//! times a second; retries with backoff cover connection errors, 429 and
//! 5xx, honouring `Retry-After`, but never a reply that already started.

pub mod info;
pub mod sse;
pub mod think;

use std::future::Future;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use self::info::Flavor;
use self::sse::{Delta, SseDecoder, StreamAccumulator};
use super::client::{
    ChatRequest, ChatResponse, LlmClient, LlmError, ModeChoice, ServerInfo, StreamEvent, ToolMode,
};
use super::{extract, modes};
use crate::settings::read::{ModelSettings, ToolModeSetting};
use crate::sys::interrupt;

/// How often a wait wakes up to look at the Ctrl-C flag.
const TICK: Duration = Duration::from_millis(100);
/// The longest single backoff, whatever `Retry-After` asks.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// The first backoff; doubled on each retry.
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
/// How long the `/props` and `/api/show` probes may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// A model server reached over HTTP.
pub struct HttpClient {
    settings: ModelSettings,
    runtime: Option<tokio::runtime::Runtime>,
    http: Option<reqwest::Client>,
    info: Option<ServerInfo>,
    flavor: Flavor,
    choice: Option<ModeChoice>,
}

/// Returns the chat-completions URL under a base URL.
pub fn completions_url(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    if base.ends_with("/chat/completions") {
        base.to_string()
    } else {
        format!("{base}/chat/completions")
    }
}

/// Returns the server root under an OpenAI base URL (`…/v1` removed), where
/// llama.cpp's `/props` and Ollama's `/api/*` live.
pub fn server_root(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let base = base.strip_suffix("/chat/completions").unwrap_or(base);
    base.strip_suffix("/v1").unwrap_or(base).to_string()
}

/// A reply that is about to be read: the response and when it was sent.
struct Started {
    resp: reqwest::Response,
    sent: Instant,
}

impl HttpClient {
    /// A client for one level's settings. Nothing starts until a request.
    pub fn new(settings: ModelSettings) -> HttpClient {
        HttpClient {
            settings,
            runtime: None,
            http: None,
            info: None,
            flavor: Flavor::OpenAi,
            choice: None,
        }
    }

    /// The settings in use.
    pub fn settings(&self) -> &ModelSettings {
        &self.settings
    }

    fn endpoint(&self) -> String {
        completions_url(&self.settings.base_url)
    }

    fn start(&mut self) -> Result<(), LlmError> {
        if self.runtime.is_none() {
            // ring rather than aws-lc: no start-up constructor in every process.
            let _ = rustls::crypto::ring::default_provider().install_default();
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| LlmError::Other(format!("could not start the HTTP runtime: {e}")))?;
            self.runtime = Some(rt);
        }
        if self.http.is_none() {
            let client = reqwest::Client::builder()
                .connect_timeout(self.settings.connect_timeout)
                .build()
                .map_err(|e| LlmError::Other(format!("could not build the HTTP client: {e}")))?;
            self.http = Some(client);
        }
        interrupt::install();
        Ok(())
    }

    /// Decides the tool mode of a request that offers tools.
    fn mode_for(&mut self, request: &ChatRequest<'_>) -> ToolMode {
        if request.mode == ToolMode::None || request.tools.is_empty() {
            return ToolMode::None;
        }
        let fixed = match self.settings.tool_mode {
            ToolModeSetting::Native => Some(ToolMode::Native),
            ToolModeSetting::Prompted => Some(ToolMode::Prompted),
            ToolModeSetting::Constrained => Some(ToolMode::Constrained),
            ToolModeSetting::Auto => None,
        };
        if let Some(mode) = fixed {
            self.choice.get_or_insert(ModeChoice {
                mode,
                reason: "set by fararoni.llm.toolMode".into(),
            });
            return mode;
        }
        if let Some(c) = &self.choice {
            return c.mode;
        }
        let info = self.server_info().unwrap_or_default();
        let choice = match (info.supports_tools, info.supports_schema) {
            (Some(true), _) => ModeChoice {
                mode: ToolMode::Native,
                reason: "the server's chat template handles tools".into(),
            },
            (Some(false), Some(false)) => ModeChoice {
                mode: ToolMode::Prompted,
                reason: "the server's chat template has no tools and it offers no JSON-schema output".into(),
            },
            (Some(false), _) => ModeChoice {
                mode: ToolMode::Constrained,
                reason: "the server's chat template has no tools; using its JSON-schema output".into(),
            },
            (None, _) => ModeChoice {
                mode: ToolMode::Native,
                reason: "the server does not say whether its template handles tools; native until a reply shows otherwise".into(),
            },
        };
        let mode = choice.mode;
        self.choice = Some(choice);
        mode
    }

    /// After the first reply in an undecided native mode: calls printed as
    /// text mean the template ignores `tools`, so later requests are prompted.
    fn observe(&mut self, mode: ToolMode, resp: &ChatResponse, tool_names: &[&str]) {
        let undecided = self.settings.tool_mode == ToolModeSetting::Auto
            && self
                .info
                .as_ref()
                .is_some_and(|i| i.supports_tools.is_none());
        if !undecided || mode != ToolMode::Native || !resp.tool_calls.is_empty() {
            return;
        }
        if !extract::extract(&resp.content, tool_names).is_empty() {
            self.choice = Some(ModeChoice {
                mode: ToolMode::Prompted,
                reason:
                    "the first reply printed its tool call as text, so the template ignores `tools`"
                        .into(),
            });
            // Decided: later replies do not switch again.
            if let Some(i) = self.info.as_mut() {
                i.supports_tools = Some(false);
            }
        }
    }

    fn body(&self, request: &ChatRequest<'_>, mode: ToolMode, ollama: bool) -> Value {
        let messages = modes::wire_messages(request.messages, request.tools, mode);
        let model = self.settings.model.clone().unwrap_or_default();
        if ollama {
            return json!({
                "model": model,
                "messages": messages,
                "stream": false,
                "format": modes::constrained_schema(request.tools, request.require_tool),
                "options": {"num_predict": request.max_tokens, "temperature": request.temperature},
            });
        }
        let mut body = json!({
            "model": model,
            "messages": messages,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "stream": self.settings.stream,
        });
        if self.settings.stream {
            body["stream_options"] = json!({"include_usage": true});
        }
        match mode {
            ToolMode::Native => {
                body["tools"] = modes::native_tools(request.tools);
                if request.require_tool {
                    body["tool_choice"] = json!("required");
                }
            }
            ToolMode::Constrained => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": {"name": "step", "schema": modes::constrained_schema(request.tools, request.require_tool)},
                })
            }
            ToolMode::Prompted | ToolMode::None => {}
        }
        body
    }

    fn probe(&mut self) -> ServerInfo {
        let root = server_root(&self.settings.base_url);
        let model = self.settings.model.clone().unwrap_or_default();
        let Some((rt, http)) = self.runtime.as_ref().zip(self.http.as_ref()) else {
            return ServerInfo::default();
        };
        let get = |url: String, body: Option<Value>| {
            let req = match body {
                Some(b) => http.post(url).json(&b),
                None => http.get(url),
            };
            rt.block_on(async {
                let resp = tokio::time::timeout(PROBE_TIMEOUT, req.send())
                    .await
                    .ok()?
                    .ok()?;
                if !resp.status().is_success() {
                    return None;
                }
                let bytes = tokio::time::timeout(PROBE_TIMEOUT, resp.bytes())
                    .await
                    .ok()?
                    .ok()?;
                serde_json::from_slice::<Value>(&bytes).ok()
            })
        };
        if let Some(info) = get(format!("{root}/props"), None).and_then(|v| info::from_props(&v)) {
            self.flavor = Flavor::LlamaCpp;
            return info;
        }
        if let Some(info) = get(format!("{root}/api/show"), Some(json!({"model": model})))
            .and_then(|v| info::from_ollama_show(&v))
        {
            self.flavor = Flavor::Ollama;
            return info;
        }
        ServerInfo::default()
    }
}

impl LlmClient for HttpClient {
    fn describe(&self) -> String {
        match &self.settings.model {
            Some(m) => format!("{} ({m})", self.settings.base_url),
            None => self.settings.base_url.clone(),
        }
    }

    fn server_info(&mut self) -> Result<ServerInfo, LlmError> {
        if let Some(i) = &self.info {
            return Ok(i.clone());
        }
        self.start()?;
        let mut info = self.probe();
        if self.settings.context_tokens.is_some() {
            info.context_tokens = self.settings.context_tokens;
        }
        self.info = Some(info.clone());
        Ok(info)
    }

    fn chat(
        &mut self,
        request: &ChatRequest<'_>,
        on_event: &mut dyn FnMut(StreamEvent<'_>),
    ) -> Result<ChatResponse, LlmError> {
        self.start()?;
        if interrupt::interrupted() {
            return Err(LlmError::Interrupted);
        }
        let mode = self.mode_for(request);
        let ollama = mode == ToolMode::Constrained && self.flavor == Flavor::Ollama;
        let url = if ollama {
            format!("{}/api/chat", server_root(&self.settings.base_url))
        } else {
            self.endpoint()
        };
        let body = self.body(request, mode, ollama);
        let streaming = self.settings.stream && !ollama;
        let call = Call {
            endpoint: url.clone(),
            settings: &self.settings,
            deadline: Instant::now() + self.settings.call_timeout,
        };
        let (Some(rt), Some(http)) = (self.runtime.as_ref(), self.http.as_ref()) else {
            return Err(LlmError::Other("the HTTP runtime did not start".into()));
        };
        let mut resp = rt.block_on(async {
            let started = call.send(http, &url, &body).await?;
            if streaming {
                call.read_stream(started, mode, on_event).await
            } else {
                let bytes = call.read_all(started).await?;
                let v: Value = serde_json::from_slice(&bytes)
                    .map_err(|e| call.malformed(format!("the reply is not JSON ({e})")))?;
                let r = if ollama {
                    if let Some(err) = v.get("error") {
                        return Err(call.malformed(format!("the reply carried an error: {err}")));
                    }
                    sse::message_to_response(&v["message"], v["done_reason"].as_str(), Some(&v))
                } else {
                    sse::parse_completion(&v).map_err(|d| call.malformed(d))?
                };
                if mode != ToolMode::Constrained && !r.content.is_empty() {
                    on_event(StreamEvent::Text(&r.content));
                }
                Ok(r)
            }
        })?;
        if mode == ToolMode::Constrained {
            modes::apply_constrained(&mut resp);
            for c in &resp.tool_calls {
                on_event(StreamEvent::ToolCallStarted(&c.name));
            }
        }
        let names: Vec<&str> = request.tools.iter().map(|t| t.name.as_str()).collect();
        self.observe(mode, &resp, &names);
        Ok(resp)
    }

    fn tool_mode_choice(&self) -> Option<ModeChoice> {
        self.choice.clone()
    }
}

/// One call's bounds and endpoint, for its waits and its errors.
struct Call<'a> {
    endpoint: String,
    settings: &'a ModelSettings,
    deadline: Instant,
}

impl Call<'_> {
    fn malformed(&self, detail: String) -> LlmError {
        LlmError::Malformed {
            endpoint: self.endpoint.clone(),
            detail,
        }
    }

    fn timeout(&self, which: &'static str) -> LlmError {
        LlmError::Timeout {
            endpoint: self.endpoint.clone(),
            which,
        }
    }

    /// Awaits `fut` until `until` (named `which`) or the call's deadline,
    /// whichever is first, waking to check Ctrl-C.
    async fn wait<F: Future>(
        &self,
        fut: F,
        until: Instant,
        which: &'static str,
    ) -> Result<F::Output, LlmError> {
        let (until, which) = if until < self.deadline {
            (until, which)
        } else {
            (self.deadline, "whole call, fararoni.llm.callTimeout")
        };
        let mut fut = std::pin::pin!(fut);
        loop {
            if interrupt::interrupted() {
                return Err(LlmError::Interrupted);
            }
            let now = Instant::now();
            if now >= until {
                return Err(self.timeout(which));
            }
            if let Ok(v) = tokio::time::timeout((until - now).min(TICK), fut.as_mut()).await {
                return Ok(v);
            }
        }
    }

    /// Sends the request, retrying connection errors, 429 and 5xx with
    /// backoff (or the server's `Retry-After`), while the deadline allows.
    async fn send(
        &self,
        http: &reqwest::Client,
        url: &str,
        body: &Value,
    ) -> Result<Started, LlmError> {
        let mut attempt = 0u32;
        loop {
            let mut req = http.post(url).json(body);
            if let Some(key) = &self.settings.api_key {
                req = req.bearer_auth(key);
            }
            let sent = Instant::now();
            let first = sent + self.settings.first_token_timeout;
            let outcome = self
                .wait(
                    req.send(),
                    first,
                    "first token, fararoni.llm.firstTokenTimeout",
                )
                .await?;
            let (err, retry_after) = match outcome {
                Ok(resp) if resp.status().is_success() => return Ok(Started { resp, sent }),
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    let retry_after = resp
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<u64>().ok())
                        .map(Duration::from_secs);
                    let text = self
                        .wait(
                            resp.text(),
                            first,
                            "first token, fararoni.llm.firstTokenTimeout",
                        )
                        .await?
                        .unwrap_or_default();
                    let err = LlmError::Status {
                        endpoint: self.endpoint.clone(),
                        status,
                        body: text
                            .chars()
                            .take(300)
                            .collect::<String>()
                            .trim()
                            .to_string(),
                    };
                    if status != 429 && !(500..600).contains(&status) {
                        return Err(err);
                    }
                    (err, retry_after)
                }
                Err(e) if e.is_timeout() => {
                    return Err(self.timeout("connect, fararoni.llm.connectTimeout"))
                }
                Err(e) => (
                    LlmError::Unreachable {
                        endpoint: self.endpoint.clone(),
                        detail: crate::text::chain::one_line(&e),
                    },
                    None,
                ),
            };
            if attempt >= self.settings.max_retries {
                return Err(err);
            }
            let backoff = retry_after
                .unwrap_or(FIRST_BACKOFF * 2u32.saturating_pow(attempt))
                .min(MAX_BACKOFF);
            if Instant::now() + backoff >= self.deadline {
                return Err(err);
            }
            self.wait(tokio::time::sleep(backoff), self.deadline, "whole call")
                .await?;
            attempt += 1;
        }
    }

    /// Reads a whole body, within the size cap and the timeouts.
    async fn read_all(&self, started: Started) -> Result<Vec<u8>, LlmError> {
        let Started { mut resp, sent } = started;
        let mut out = Vec::new();
        let mut until = sent + self.settings.call_timeout;
        let mut which = "whole call, fararoni.llm.callTimeout";
        loop {
            let chunk = self.wait(resp.chunk(), until, which).await?;
            match chunk {
                Ok(Some(bytes)) => {
                    out.extend_from_slice(&bytes);
                    self.check_size(out.len())?;
                    until = Instant::now() + self.settings.idle_timeout;
                    which = "idle between chunks, fararoni.llm.idleTimeout";
                }
                Ok(None) => return Ok(out),
                Err(e) => {
                    return Err(self.malformed(format!(
                        "the reply was cut short ({})",
                        crate::text::chain::one_line(&e)
                    )))
                }
            }
        }
    }

    fn check_size(&self, n: usize) -> Result<(), LlmError> {
        if n as u64 > self.settings.max_response_bytes {
            return Err(self.malformed(format!(
                "the reply is larger than {} bytes (fararoni.llm.maxResponseBytes); it was abandoned",
                self.settings.max_response_bytes
            )));
        }
        Ok(())
    }

    /// Reads an SSE stream, showing pieces as they come.
    async fn read_stream(
        &self,
        started: Started,
        mode: ToolMode,
        on_event: &mut dyn FnMut(StreamEvent<'_>),
    ) -> Result<ChatResponse, LlmError> {
        let Started { mut resp, sent } = started;
        let is_sse = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("event-stream"));
        if !is_sse {
            // Some servers ignore `stream` (or answer errors as JSON).
            let bytes = self.read_all(Started { resp, sent }).await?;
            let v: Value = serde_json::from_slice(&bytes)
                .map_err(|e| self.malformed(format!("the reply is not JSON ({e})")))?;
            let r = sse::parse_completion(&v).map_err(|d| self.malformed(d))?;
            if mode != ToolMode::Constrained && !r.content.is_empty() {
                on_event(StreamEvent::Text(&r.content));
            }
            return Ok(r);
        }
        let mut decoder = SseDecoder::default();
        let mut acc = StreamAccumulator::default();
        let mut total = 0usize;
        let mut until = sent + self.settings.first_token_timeout;
        let mut which = "first token, fararoni.llm.firstTokenTimeout";
        let show = |d: &Delta, on_event: &mut dyn FnMut(StreamEvent<'_>)| match d {
            // Constrained replies are JSON: shown as the call they become.
            Delta::Text(_) if mode == ToolMode::Constrained => {}
            Delta::Text(t) => on_event(StreamEvent::Text(t)),
            Delta::Reasoning(r) => on_event(StreamEvent::Reasoning(r)),
            Delta::ToolCallStarted(n) => on_event(StreamEvent::ToolCallStarted(n)),
        };
        loop {
            let chunk = self.wait(resp.chunk(), until, which).await?;
            let ended = matches!(chunk, Ok(None));
            let payloads = match chunk {
                Ok(Some(bytes)) => {
                    total += bytes.len();
                    self.check_size(total)?;
                    until = Instant::now() + self.settings.idle_timeout;
                    which = "idle between chunks, fararoni.llm.idleTimeout";
                    decoder.push(&bytes)
                }
                Ok(None) => decoder.finish().into_iter().collect(),
                Err(e) => {
                    return Err(self.malformed(format!(
                        "the stream was cut in the middle ({}); nothing of this reply was used",
                        crate::text::chain::one_line(&e)
                    )))
                }
            };
            for p in payloads {
                let deltas = acc.feed(&p).map_err(|d| self.malformed(d))?;
                for d in &deltas {
                    show(d, on_event);
                }
            }
            if ended {
                if !acc.complete() {
                    return Err(self.malformed(
                        "the stream ended before its last event (no finish reason, no [DONE]); nothing of this reply was used".into(),
                    ));
                }
                let (resp, tail) = acc.finish();
                for d in &tail {
                    show(d, on_event);
                }
                return Ok(resp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_derived_from_the_base() {
        assert_eq!(
            completions_url("http://h:1/v1/"),
            "http://h:1/v1/chat/completions"
        );
        assert_eq!(
            completions_url("http://h:1/v1/chat/completions"),
            "http://h:1/v1/chat/completions"
        );
        assert_eq!(server_root("http://h:1/v1"), "http://h:1");
        assert_eq!(server_root("http://h:1/v1/chat/completions"), "http://h:1");
        assert_eq!(server_root("http://h:1"), "http://h:1");
    }
}
