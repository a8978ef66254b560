//! Settings resolved once from git config (`fararoni.*`), then the
//! environment (`FARARONI_*`), later sources winning.
//!
//! The settings protection depends on are rows of [`PROTECTIVE`], each with
//! the bound past which it would switch protection off (a floor for ratios,
//! version counts and sizes, a ceiling for `minLines`). A weaker value never
//! takes effect: the bound is used and a [`SettingWarning`] says so.

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

/// Settings of the agent (levels 3–5), each `fararoni.*` key overridable by
/// its environment variable.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentSettings {
    /// `fararoni.agent.maxDepth` (`FARARONI_AGENT_MAX_DEPTH`): model calls of level 3.
    pub max_depth: u32,
    /// `fararoni.agent.buildTimeout` (`FARARONI_AGENT_BUILD_TIMEOUT`): seconds a build may run.
    pub build_timeout_secs: u64,
    /// `fararoni.agent.commandTimeout` (`FARARONI_AGENT_COMMAND_TIMEOUT`): seconds any other command may run.
    pub command_timeout_secs: u64,
    /// `fararoni.llm.sendSecrets` (`FARARONI_LLM_SEND_SECRETS`): send secret files and tokens to a non-loopback model.
    pub send_secrets: bool,
    /// `fararoni.llm.contextTokens` (`FARARONI_LLM_CONTEXT_TOKENS`): the model's context window.
    pub context_tokens: u64,
    /// `fararoni.llm.maxTokens` (`FARARONI_LLM_MAX_TOKENS`): tokens generated per call.
    pub max_tokens: u32,
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// Reads the agent's settings; an unreadable value keeps the default.
pub fn agent_settings(repo: Option<&Repo>) -> AgentSettings {
    let num = |key: &str, env: &str, default: u64, min: u64, max: u64| {
        lookup(repo, key, env)
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(default, |v| v.clamp(min, max))
    };
    AgentSettings {
        max_depth: u32::try_from(num(
            "fararoni.agent.maxDepth",
            "FARARONI_AGENT_MAX_DEPTH",
            12,
            1,
            100,
        ))
        .unwrap_or(12),
        build_timeout_secs: num(
            "fararoni.agent.buildTimeout",
            "FARARONI_AGENT_BUILD_TIMEOUT",
            600,
            1,
            86_400,
        ),
        command_timeout_secs: num(
            "fararoni.agent.commandTimeout",
            "FARARONI_AGENT_COMMAND_TIMEOUT",
            60,
            1,
            3_600,
        ),
        send_secrets: lookup(
            repo,
            "fararoni.llm.sendSecrets",
            "FARARONI_LLM_SEND_SECRETS",
        )
        .and_then(|v| parse_bool(&v))
        .unwrap_or(false),
        context_tokens: num(
            "fararoni.llm.contextTokens",
            "FARARONI_LLM_CONTEXT_TOKENS",
            8192,
            1024,
            10_000_000,
        ),
        max_tokens: u32::try_from(num(
            "fararoni.llm.maxTokens",
            "FARARONI_LLM_MAX_TOKENS",
            1024,
            16,
            1_000_000,
        ))
        .unwrap_or(1024),
    }
}

pub use crate::settings::table::{
    Bound, Setting as Protective, GUARD_JACCARD, GUARD_MIN_LINES, GUARD_VOLUME, PROTECTIVE,
    SHADOW_MAX_SIZE, SHADOW_MAX_VERSIONS,
};

/// Where a setting's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `git config`.
    GitConfig,
    /// A `FARARONI_*` environment variable.
    Environment,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Origin::GitConfig => "git config",
            Origin::Environment => "the environment",
        })
    }
}

/// A protective setting whose value cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid `{name}` in {origin}: `{value}` (expected {expected})")]
pub struct SettingError {
    /// The git config key.
    pub key: &'static str,
    /// The name as set: the key, or the environment variable.
    pub name: &'static str,
    /// Where it was set.
    pub origin: Origin,
    /// The value found.
    pub value: String,
    /// What was expected.
    pub expected: &'static str,
}

/// A protective setting set weaker than its bound: the bound is used.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingWarning {
    /// The git config key.
    pub key: &'static str,
    /// The name as set: the key, or the environment variable.
    pub name: &'static str,
    /// Where it was set.
    pub origin: Origin,
    /// The value found.
    pub value: String,
    /// The value used instead.
    pub used: String,
    /// Why the value was refused.
    pub why: &'static str,
}

impl std::fmt::Display for SettingWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is `{}` in {}, weaker than git-fararoni allows; using {} ({})",
            self.name, self.value, self.origin, self.used, self.why
        )
    }
}

/// Parses a size with an optional `k`/`m`/`g` suffix (powers of 1024, as
/// git does), e.g. `256m`.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim().to_ascii_lowercase();
    let s = s
        .strip_suffix("ib")
        .or_else(|| s.strip_suffix('b'))
        .unwrap_or(&s);
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let mult: u64 = match unit {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// Returns the raw value of a protective setting and where it came from:
/// the environment, else git config (of `repo`, or the global one).
fn raw(repo: Option<&Repo>, p: &Protective) -> Option<(String, &'static str, Origin)> {
    if let Some(v) = std::env::var(p.env).ok().filter(|v| !v.trim().is_empty()) {
        return Some((v, p.env, Origin::Environment));
    }
    let key = p.key?;
    let v = match repo {
        Some(r) => r.config_string(key),
        None => global_config_string(key),
    }?;
    Some((v, key, Origin::GitConfig))
}

/// Returns a protective setting's value (`None`: unset, use the default),
/// bounded: a weaker value is replaced by the bound, with a warning pushed
/// onto `warnings`. Ratios come back as they are; whole numbers and sizes
/// as `f64` holding an integer.
pub fn protective_value(
    repo: Option<&Repo>,
    p: &Protective,
    warnings: &mut Vec<SettingWarning>,
) -> Result<Option<f64>, SettingError> {
    let Some(limit) = p.bound else {
        return Ok(None);
    };
    let Some((value, name, origin)) = raw(repo, p) else {
        return Ok(None);
    };
    let err = |expected| SettingError {
        key: p.config_key(),
        name,
        origin,
        value: value.clone(),
        expected,
    };
    let trimmed = value.trim();
    let whole = || trimmed.parse::<u64>().map(|n| n as f64);
    let (parsed, bound, weaker) = match limit {
        Bound::RatioAtLeast(floor) => {
            let v = trimmed
                .parse::<f64>()
                .ok()
                .filter(|v| (0.0..=1.0).contains(v))
                .ok_or_else(|| err("a number between 0 and 1"))?;
            (v, floor, v < floor)
        }
        Bound::WholeAtMost(ceiling) => {
            let v = whole().map_err(|_| err("a whole number"))?;
            (v, ceiling as f64, v > ceiling as f64)
        }
        Bound::WholeAtLeast(floor) => {
            let v = whole().map_err(|_| err("a whole number"))?;
            (v, floor as f64, v < floor as f64)
        }
        Bound::SizeAtLeast(floor) => {
            let v = parse_size(trimmed)
                .map(|n| n as f64)
                .ok_or_else(|| err("a size such as 512m or 2g"))?;
            (v, floor as f64, v < floor as f64)
        }
    };
    if !weaker {
        return Ok(Some(parsed));
    }
    let used = match limit {
        Bound::RatioAtLeast(f) => format!("{f:.2}"),
        Bound::WholeAtMost(n) | Bound::WholeAtLeast(n) => n.to_string(),
        Bound::SizeAtLeast(n) => format!("{}m", n >> 20),
    };
    warnings.push(SettingWarning {
        key: p.config_key(),
        name,
        origin,
        value,
        used,
        why: p.why,
    });
    Ok(Some(bound))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_like_git() {
        assert_eq!(parse_size("256m"), Some(256 << 20));
        assert_eq!(parse_size("2G"), Some(2 << 30));
        assert_eq!(parse_size("512KiB"), Some(512 << 10));
        assert_eq!(parse_size("100"), Some(100));
        assert_eq!(parse_size("lots"), None);
    }

    #[test]
    fn every_default_is_within_its_own_bound() {
        for p in PROTECTIVE {
            let d = p.default.unwrap_or_default();
            let ok = match p.bound {
                Some(Bound::RatioAtLeast(f)) => d.parse::<f64>().is_ok_and(|d| d >= f),
                Some(Bound::WholeAtMost(n)) => d.parse::<u64>().is_ok_and(|d| d <= n),
                Some(Bound::WholeAtLeast(n)) => d.parse::<u64>().is_ok_and(|d| d >= n),
                Some(Bound::SizeAtLeast(n)) => parse_size(d).is_some_and(|d| d >= n),
                None => false,
            };
            assert!(ok, "{}", p.name());
            assert!(p.env.starts_with("FARARONI_"), "{}", p.name());
        }
    }
}
