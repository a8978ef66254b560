//! The contract between the agent and a model: messages, tool definitions,
//! tool calls, and the [`LlmClient`] trait.
//!
//! The trait is synchronous on purpose: the agent loop is a plain loop over
//! steps, and an implementation that needs an async runtime (HTTP) owns one
//! and blocks on it, started only when a request reaches a model level.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who a message is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions: the fixed prompt and the injected directive.
    System,
    /// The person's request.
    User,
    /// The model.
    Assistant,
    /// A tool's result, answering one call by its id.
    Tool,
}

/// One tool call the model made, structured or extracted from its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call's id (the server's, or one we made up for extracted calls).
    pub id: String,
    /// The name as the model wrote it (before normalization).
    pub name: String,
    /// The arguments, always a JSON object (string-encoded arguments are
    /// decoded; unparsable ones become `{"_raw": "..."}`).
    pub arguments: Value,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Who it is from.
    pub role: Role,
    /// The text (may be empty for an assistant message that only calls tools).
    pub content: String,
    /// The calls an assistant message made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a `tool` message: the id of the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    /// Returns a message with text only.
    pub fn text(role: Role, content: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    /// Returns a tool result answering call `id`.
    pub fn tool_result(id: impl Into<String>, content: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: Role::Tool,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: Some(id.into()),
        }
    }
}

/// A tool offered to the model: its name, what it does, and a JSON schema of
/// its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// The canonical name (`fs_read`, `ShellCommand`, …).
    pub name: String,
    /// One or two sentences for the model.
    pub description: String,
    /// A JSON schema object of the arguments.
    pub parameters: Value,
}

/// How tools reach the model (`fararoni.llm.toolMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolMode {
    /// The server's `tools` field; calls come back in `tool_calls`.
    Native,
    /// Tool definitions in the system prompt; calls parsed from the text.
    Prompted,
    /// The server's JSON-schema output forces one tool call or a final answer.
    Constrained,
    /// No tools at all (levels 4 and 5).
    None,
}

/// One request to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest<'a> {
    /// The conversation so far, the directive last.
    pub messages: &'a [ChatMessage],
    /// Every tool, always all of them (never filtered before generation).
    pub tools: &'a [ToolSpec],
    /// How the tools are offered.
    pub mode: ToolMode,
    /// The most tokens to generate.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// This reply must be a tool call, not a final answer (the protocol's
    /// START state: read before answering). Native: `tool_choice:
    /// "required"`; constrained: the schema has no answer branch; prompted:
    /// the rules say so. Ignored when no tools are offered.
    pub require_tool: bool,
}

/// What the server counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens of the prompt.
    pub prompt_tokens: u64,
    /// Tokens generated.
    pub completion_tokens: u64,
    /// Prompt tokens the server's cache answered.
    pub cached_tokens: u64,
}

/// A model's reply.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatResponse {
    /// The visible text, with any `<think>` part removed.
    pub content: String,
    /// The reasoning the model showed (`<think>…</think>` or a reasoning field).
    pub reasoning: Option<String>,
    /// Structured tool calls (native or constrained mode). Calls printed in
    /// `content` are not here: extraction is the agent's job.
    pub tool_calls: Vec<ToolCall>,
    /// Token counts, when the server reported them.
    pub usage: Usage,
    /// Why generation stopped (`stop`, `length`, `tool_calls`…).
    pub finish_reason: Option<String>,
}

/// Pieces of a reply as they arrive, for a caller that shows them live.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent<'a> {
    /// Visible text.
    Text(&'a str),
    /// Reasoning text.
    Reasoning(&'a str),
    /// A tool call began (its name, once known).
    ToolCallStarted(&'a str),
}

/// What a server says about itself (read once, lazily).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerInfo {
    /// The context window in tokens, when known.
    pub context_tokens: Option<u64>,
    /// Whether the chat template handles `tools` (llama.cpp's
    /// `chat_template_caps`), when known.
    pub supports_tools: Option<bool>,
    /// Whether JSON-schema constrained output is available, when known.
    pub supports_schema: Option<bool>,
}

/// A model the agent can talk to.
pub trait LlmClient {
    /// A short name of the endpoint for messages (`http://127.0.0.1:8080/v1 (smollm2)`).
    fn describe(&self) -> String;

    /// What the server reports about itself; `Default` when it says nothing.
    fn server_info(&mut self) -> Result<ServerInfo, LlmError>;

    /// Sends one request, calling `on_event` as pieces arrive, and returns
    /// the whole reply.
    fn chat(
        &mut self,
        request: &ChatRequest<'_>,
        on_event: &mut dyn FnMut(StreamEvent<'_>),
    ) -> Result<ChatResponse, LlmError>;

    /// The tool mode this client chose for tool-bearing requests and why
    /// (for `-v`); `None` before the first such request or when the
    /// implementation does not choose.
    fn tool_mode_choice(&self) -> Option<ModeChoice> {
        None
    }
}

/// The tool mode a client uses and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeChoice {
    /// The mode.
    pub mode: ToolMode,
    /// Why, in a few words.
    pub reason: String,
}

/// Why a model gave no usable reply. Every variant names the endpoint and
/// says what to check; the CLI maps all of them to exit 4.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// Nothing answered at the endpoint.
    #[error("no model server answers at `{endpoint}`: {detail}")]
    Unreachable {
        /// The endpoint.
        endpoint: String,
        /// What failed (connection refused, DNS, TLS…).
        detail: String,
    },
    /// The server answered with an error status.
    #[error("the model server at `{endpoint}` answered {status}: {body}")]
    Status {
        /// The endpoint.
        endpoint: String,
        /// The HTTP status.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// A timeout (connect, first token, idle, whole call).
    #[error("the model server at `{endpoint}` timed out ({which})")]
    Timeout {
        /// The endpoint.
        endpoint: String,
        /// Which timeout fired.
        which: &'static str,
    },
    /// The reply could not be understood (bad JSON, a stream cut short,
    /// too large).
    #[error("the model server at `{endpoint}` sent a reply that could not be read: {detail}")]
    Malformed {
        /// The endpoint.
        endpoint: String,
        /// What was wrong.
        detail: String,
    },
    /// The user pressed Ctrl-C.
    #[error("interrupted")]
    Interrupted,
    /// The in-process model cannot be used (bad file, no engine, too big…).
    #[error(transparent)]
    Local(#[from] super::local::LocalError),
    /// Anything else the implementation could not do (runtime start, a
    /// missing model file for an in-process engine…).
    #[error("{0}")]
    Other(String),
}

impl LlmError {
    /// What the user should check, for the CLI's `hint:` line.
    pub fn hint(&self) -> String {
        match self {
            LlmError::Unreachable { .. } => "is the model server running? start it (e.g. `ollama serve` or llama.cpp's `llama-server`), or point `fararoni.llm.baseUrl` (FARARONI_LLM_BASE_URL) at it".into(),
            LlmError::Status { status: 401 | 403, .. } => "the server refused the credentials: check FARARONI_LLM_API_KEY".into(),
            LlmError::Status { status: 404, .. } => "check `fararoni.llm.model` (FARARONI_LLM_MODEL) names a model the server has, and that `fararoni.llm.baseUrl` ends in its OpenAI-compatible prefix (usually `/v1`)".into(),
            LlmError::Status { status: 429, .. } => "the server is rate-limiting; wait and retry, or raise `fararoni.llm.maxRetries`".into(),
            LlmError::Status { status, .. } if *status >= 500 => "the server failed; its own log says why (model too large for memory, context overflow…)".into(),
            LlmError::Status { .. } => "check `fararoni.llm.model` and the server's log".into(),
            LlmError::Timeout { .. } => "a model on a CPU can be slow: raise the named timeout, or use a smaller model".into(),
            LlmError::Malformed { .. } => "check that `fararoni.llm.baseUrl` points at an OpenAI-compatible API and not at a proxy or web page; `fararoni.llm.stream false` avoids streaming".into(),
            LlmError::Interrupted => "nothing was written by the interrupted step".into(),
            LlmError::Local(e) => e.hint(),
            LlmError::Other(_) => "see the message above".into(),
        }
    }
}
