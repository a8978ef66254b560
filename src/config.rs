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

/// How a protective setting is read and how far it may be weakened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// A ratio between 0 and 1 that may not be set below the floor.
    RatioAtLeast(f64),
    /// A whole number that may not be set above the ceiling (more exempts
    /// more).
    WholeAtMost(u64),
    /// A whole number that may not be set below the floor.
    WholeAtLeast(u64),
    /// A size (`k`, `m`, `g` suffixes) that may not be set below the floor,
    /// in bytes.
    SizeAtLeast(u64),
}

/// One setting the protection depends on: where it is read, its default,
/// the limit past which it would weaken protection, and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Protective {
    /// The git config key.
    pub key: &'static str,
    /// The environment variable that overrides it.
    pub env: &'static str,
    /// The default, as documented.
    pub default: &'static str,
    /// How it is parsed and bounded.
    pub bound: Bound,
    /// Why a weaker value is refused.
    pub why: &'static str,
}

/// `fararoni.guard.jaccard`: the least Jaccard index of old and new lines.
pub const GUARD_JACCARD: Protective = Protective {
    key: "fararoni.guard.jaccard",
    env: "FARARONI_GUARD_JACCARD",
    default: "0.40",
    bound: Bound::RatioAtLeast(0.20),
    why:
        "below 0.20 fewer than one distinct line in five need survive: a whole-file rewrite passes",
};

/// `fararoni.guard.volume`: the least new/old ratio of non-blank lines.
pub const GUARD_VOLUME: Protective = Protective {
    key: "fararoni.guard.volume",
    env: "FARARONI_GUARD_VOLUME",
    default: "0.50",
    bound: Bound::RatioAtLeast(0.30),
    why: "below 0.30 a single write may drop more than two thirds of a file's lines",
};

/// `fararoni.guard.minLines`: old files with fewer non-blank lines skip the ratios.
pub const GUARD_MIN_LINES: Protective = Protective {
    key: "fararoni.guard.minLines",
    env: "FARARONI_GUARD_MIN_LINES",
    default: "5",
    bound: Bound::WholeAtMost(20),
    why: "files under this many non-blank lines skip the ratios; above 20 that would exempt real source files",
};

/// `fararoni.shadow.maxVersions`: versions kept per file.
pub const SHADOW_MAX_VERSIONS: Protective = Protective {
    key: "fararoni.shadow.maxVersions",
    env: "FARARONI_SHADOW_MAX_VERSIONS",
    default: "50",
    bound: Bound::WholeAtLeast(10),
    why:
        "fewer versions per file would evict backups that `shadow restore` is the only way back to",
};

/// `fararoni.shadow.maxSize`: bytes of distinct contents the store keeps.
pub const SHADOW_MAX_SIZE: Protective = Protective {
    key: "fararoni.shadow.maxSize",
    env: "FARARONI_SHADOW_MAX_SIZE",
    default: "256m",
    bound: Bound::SizeAtLeast(16 << 20),
    why: "a smaller store would evict backups after a few large writes",
};

/// Every protective setting. A weaker value than the bound is not an error
/// (that would stop every write over a typo) and never takes effect: the
/// bound is used and a warning says so. Values that cannot be parsed at all
/// are errors, which stop guarded writes until fixed.
pub const PROTECTIVE: &[Protective] = &[
    GUARD_JACCARD,
    GUARD_VOLUME,
    GUARD_MIN_LINES,
    SHADOW_MAX_VERSIONS,
    SHADOW_MAX_SIZE,
];

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
    let v = match repo {
        Some(r) => r.config_string(p.key),
        None => global_config_string(p.key),
    }?;
    Some((v, p.key, Origin::GitConfig))
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
    let Some((value, name, origin)) = raw(repo, p) else {
        return Ok(None);
    };
    let err = |expected| SettingError {
        key: p.key,
        name,
        origin,
        value: value.clone(),
        expected,
    };
    let trimmed = value.trim();
    let whole = || trimmed.parse::<u64>().map(|n| n as f64);
    let (parsed, bound, weaker) = match p.bound {
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
    let used = match p.bound {
        Bound::RatioAtLeast(f) => format!("{f:.2}"),
        Bound::WholeAtMost(n) | Bound::WholeAtLeast(n) => n.to_string(),
        Bound::SizeAtLeast(n) => format!("{}m", n >> 20),
    };
    warnings.push(SettingWarning {
        key: p.key,
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
            let ok = match p.bound {
                Bound::RatioAtLeast(f) => p.default.parse::<f64>().is_ok_and(|d| d >= f),
                Bound::WholeAtMost(n) => p.default.parse::<u64>().is_ok_and(|d| d <= n),
                Bound::WholeAtLeast(n) => p.default.parse::<u64>().is_ok_and(|d| d >= n),
                Bound::SizeAtLeast(n) => parse_size(p.default).is_some_and(|d| d >= n),
            };
            assert!(ok, "{}", p.key);
            assert!(p.env.starts_with("FARARONI_"), "{}", p.key);
        }
    }
}
