//! Settings resolved once from git config (`fararoni.*`), then the
//! environment (`FARARONI_*`), later sources winning.

use crate::git::repo::{global_config_string, Repo};

/// An OpenAI-compatible chat endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The API base, e.g. `http://localhost:11434/v1`.
    pub base_url: String,
    /// The model name.
    pub model: String,
    /// A bearer token, from the environment only (never from git config).
    pub api_key: Option<String>,
}

fn lookup(repo: Option<&Repo>, key: &str, env: &str) -> Option<String> {
    std::env::var(env)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .or_else(|| match repo {
            Some(r) => r.config_string(key),
            None => global_config_string(key),
        })
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Returns the level-2 chat endpoint when both its URL and model are set
/// (`fararoni.chat.baseUrl`/`fararoni.chat.model`, or
/// `FARARONI_CHAT_BASE_URL`/`FARARONI_CHAT_MODEL`).
pub fn chat_endpoint(repo: Option<&Repo>) -> Option<Endpoint> {
    Some(Endpoint {
        base_url: lookup(repo, "fararoni.chat.baseUrl", "FARARONI_CHAT_BASE_URL")?,
        model: lookup(repo, "fararoni.chat.model", "FARARONI_CHAT_MODEL")?,
        api_key: std::env::var("FARARONI_CHAT_API_KEY").ok(),
    })
}

/// Returns the model endpoint of levels 3–5 when configured
/// (`fararoni.llm.baseUrl`/`fararoni.llm.model`, or
/// `FARARONI_LLM_BASE_URL`/`FARARONI_LLM_MODEL`).
pub fn llm_endpoint(repo: Option<&Repo>) -> Option<Endpoint> {
    Some(Endpoint {
        base_url: lookup(repo, "fararoni.llm.baseUrl", "FARARONI_LLM_BASE_URL")?,
        model: lookup(repo, "fararoni.llm.model", "FARARONI_LLM_MODEL")?,
        api_key: std::env::var("FARARONI_LLM_API_KEY").ok(),
    })
}
