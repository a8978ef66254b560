//! The OpenAI-compatible chat client shared by the model-facing levels.
//! The async runtime is started here, only when a request needs it, so the
//! deterministic levels never pay for it.

use std::time::Duration;

use serde_json::{json, Value};
use thiserror::Error;

use crate::config::Endpoint;

/// A failure to get an answer from a model server.
#[derive(Debug, Error)]
pub enum LlmError {
    /// The async runtime could not start.
    #[error("could not start the HTTP runtime")]
    Runtime(#[source] std::io::Error),
    /// The HTTP request failed (connection refused, timeout, TLS…).
    #[error("could not reach the model server at `{url}`")]
    Http {
        /// The URL requested.
        url: String,
        /// The client's error.
        #[source]
        source: reqwest::Error,
    },
    /// The server answered with an error status.
    #[error("the model server at `{url}` answered {status}: {body}")]
    Status {
        /// The URL requested.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The start of the response body.
        body: String,
    },
    /// The answer had no message content.
    #[error("the model server at `{url}` sent an answer without a message")]
    Malformed {
        /// The URL requested.
        url: String,
    },
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: &'static str,
    /// The text.
    pub content: String,
}

/// Returns the URL of the chat-completions route under `base_url`.
pub fn completions_url(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    if base.ends_with("/chat/completions") {
        base.to_string()
    } else {
        format!("{base}/chat/completions")
    }
}

/// Sends `messages` and returns the assistant's reply text.
pub fn complete(
    endpoint: &Endpoint,
    messages: &[Message],
    max_tokens: u32,
    timeout: Duration,
) -> Result<String, LlmError> {
    // ring rather than aws-lc: no start-up constructor in every process.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(LlmError::Runtime)?;
    runtime.block_on(complete_async(endpoint, messages, max_tokens, timeout))
}

async fn complete_async(
    endpoint: &Endpoint,
    messages: &[Message],
    max_tokens: u32,
    timeout: Duration,
) -> Result<String, LlmError> {
    let url = completions_url(&endpoint.base_url);
    let http = |source| LlmError::Http {
        url: url.clone(),
        source,
    };
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(3)))
        .build()
        .map_err(http)?;
    let body = json!({
        "model": endpoint.model,
        "messages": messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect::<Vec<_>>(),
        "max_tokens": max_tokens,
        "temperature": 0.3,
        "stream": false,
    });
    let mut req = client.post(&url).json(&body);
    if let Some(key) = &endpoint.api_key {
        req = req.bearer_auth(key);
    }
    let resp = req.send().await.map_err(http)?;
    let status = resp.status();
    let text = resp.text().await.map_err(http)?;
    if !status.is_success() {
        return Err(LlmError::Status {
            url,
            status: status.as_u16(),
            body: text.chars().take(200).collect(),
        });
    }
    let value: Value =
        serde_json::from_str(&text).map_err(|_| LlmError::Malformed { url: url.clone() })?;
    value["choices"][0]["message"]["content"]
        .as_str()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .ok_or(LlmError::Malformed { url })
}
