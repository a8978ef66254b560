//! A scripted model: replies played back in order, every request kept.
//! For tests, benchmarks and `git fararoni agent-replay` (the hidden
//! command the binary-level tests drive the cascade with); never chosen by
//! configuration.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use serde::Deserialize;
use serde_json::{json, Value};

use super::client::{
    ChatRequest, ChatResponse, LlmClient, LlmError, ServerInfo, StreamEvent, ToolCall, Usage,
};

/// One scripted reply, as written in a script file (a JSON array).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scripted {
    /// Visible text.
    #[serde(default)]
    pub text: String,
    /// Reasoning (`<think>`), shown only with `--show-thinking`.
    #[serde(default)]
    pub think: Option<String>,
    /// Structured tool calls: `{"name": …, "arguments": {…}}`.
    #[serde(default)]
    pub tool_calls: Vec<Value>,
    /// A fault instead of a reply: `unreachable`, `timeout`, `status`,
    /// `malformed`.
    #[serde(default)]
    pub error: Option<String>,
    /// Why the reply ended, as a server says it (`stop` when absent;
    /// `length`: cut off by the token limit).
    #[serde(default)]
    pub finish: Option<String>,
}

/// A model that plays a script.
#[derive(Debug)]
pub struct ScriptedClient {
    replies: VecDeque<Scripted>,
    requests: Vec<Value>,
    recording: bool,
    served: usize,
}

impl ScriptedClient {
    /// A client that plays `replies` in order.
    pub fn new(replies: Vec<Scripted>) -> ScriptedClient {
        ScriptedClient {
            replies: replies.into(),
            requests: Vec::new(),
            recording: true,
            served: 0,
        }
    }

    /// A client that plays `replies` and keeps no requests: a model with
    /// no cost at all, so a benchmark measures only the agent loop.
    pub fn silent(replies: Vec<Scripted>) -> ScriptedClient {
        ScriptedClient {
            recording: false,
            ..ScriptedClient::new(replies)
        }
    }

    /// Reads a script (a JSON array of replies).
    pub fn from_json(text: &str) -> Result<ScriptedClient, String> {
        let replies: Vec<Scripted> = serde_json::from_str(text)
            .map_err(|e| format!("the script is not a JSON array of replies: {e}"))?;
        Ok(ScriptedClient::new(replies))
    }

    /// Every request received, as JSON (`messages`, `tools`, `mode`).
    pub fn requests(&self) -> &[Value] {
        &self.requests
    }

    /// Replies not played yet.
    pub fn remaining(&self) -> usize {
        self.replies.len()
    }
}

const ENDPOINT: &str = "script";

impl LlmClient for ScriptedClient {
    fn describe(&self) -> String {
        "scripted model".into()
    }

    fn server_info(&mut self) -> Result<ServerInfo, LlmError> {
        Ok(ServerInfo::default())
    }

    fn chat(
        &mut self,
        request: &ChatRequest<'_>,
        on_event: &mut dyn FnMut(StreamEvent<'_>),
    ) -> Result<ChatResponse, LlmError> {
        if self.recording {
            self.requests.push(json!({
                "messages": request.messages,
                "tools": request.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
                "mode": request.mode,
                "max_tokens": request.max_tokens,
                "temperature": request.temperature,
            }));
        }
        let Some(reply) = self.replies.pop_front() else {
            return Err(LlmError::Status {
                endpoint: ENDPOINT.into(),
                status: 500,
                body: "script exhausted".into(),
            });
        };
        if let Some(e) = reply.error {
            let endpoint = ENDPOINT.to_string();
            return Err(match e.as_str() {
                "unreachable" => LlmError::Unreachable {
                    endpoint,
                    detail: "connection refused".into(),
                },
                "timeout" => LlmError::Timeout {
                    endpoint,
                    which: "first token",
                },
                "malformed" => LlmError::Malformed {
                    endpoint,
                    detail: "not JSON".into(),
                },
                _ => LlmError::Status {
                    endpoint,
                    status: 500,
                    body: e,
                },
            });
        }
        if let Some(t) = &reply.think {
            on_event(StreamEvent::Reasoning(t));
        }
        if !reply.text.is_empty() {
            on_event(StreamEvent::Text(&reply.text));
        }
        self.served += 1;
        let n = self.served;
        let tool_calls = reply
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, c)| ToolCall {
                id: format!("script_{n}_{i}"),
                name: c["name"].as_str().unwrap_or("").to_string(),
                arguments: c.get("arguments").cloned().unwrap_or_else(|| json!({})),
            })
            .collect();
        Ok(ChatResponse {
            content: reply.text,
            reasoning: reply.think,
            tool_calls,
            usage: Usage {
                prompt_tokens: 100,
                completion_tokens: 10,
                cached_tokens: 0,
            },
            finish_reason: Some(reply.finish.unwrap_or_else(|| "stop".into())),
        })
    }
}

/// A handle several levels share, so one script serves the whole cascade.
#[derive(Debug, Clone)]
pub struct Shared(pub Rc<RefCell<ScriptedClient>>);

impl LlmClient for Shared {
    fn describe(&self) -> String {
        self.0.borrow().describe()
    }

    fn server_info(&mut self) -> Result<ServerInfo, LlmError> {
        self.0.borrow_mut().server_info()
    }

    fn chat(
        &mut self,
        request: &ChatRequest<'_>,
        on_event: &mut dyn FnMut(StreamEvent<'_>),
    ) -> Result<ChatResponse, LlmError> {
        self.0.borrow_mut().chat(request, on_event)
    }
}
