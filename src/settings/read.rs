//! Typed readers over [`Settings`] (read once per repository from git
//! config, `fararoni.*`, and the environment, `FARARONI_*`): every key
//! they read is a row of [`crate::settings::SETTINGS`].
//!
//! The settings protection depends on are rows of [`PROTECTIVE`], each with
//! the bound past which it would switch protection off (a floor for ratios,
//! version counts and sizes, a ceiling for `minLines`). A weaker value never
//! takes effect: the bound is used and a [`SettingWarning`] says so.

use crate::settings::{Settings, Source};

/// Returns the value of the setting `key` (git config key, or an
/// environment-only setting's variable) and where it was set.
fn lookup_origin<'a>(settings: &'a Settings, key: &str) -> Option<(&'a str, Origin, &'static str)> {
    let row = crate::settings::find(key)
        .or_else(|| crate::settings::SETTINGS.iter().find(|s| s.env == key))?;
    let (v, source) = settings.raw(row)?;
    Some(match source {
        Source::Environment { variable } => (v, Origin::Environment, *variable),
        _ => (v, Origin::GitConfig, row.name()),
    })
}

fn lookup(settings: &Settings, key: &str) -> Option<String> {
    lookup_origin(settings, key).map(|(v, _, _)| v.to_string())
}

/// A model level: which `fararoni.<prefix>.*` keys configure it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelLevel {
    /// Level 2, small talk (`fararoni.chat.*`).
    Chat,
    /// Level 3, tool calling (`fararoni.llm.*`).
    Tools,
    /// Level 4, a reasoning model without tools (`fararoni.thinking.*`).
    Thinking,
    /// Level 5, a plain chat completion (`fararoni.fallback.*`).
    Fallback,
}

/// A level's key prefix and env-var prefix; its defaults are the rows
/// of its keys in the settings table.
struct LevelRow {
    level: ModelLevel,
    key: &'static str,
    env: &'static str,
}

/// Per-level keys `fararoni.<key>.{baseUrl,model,maxTokens,temperature,timeout}`
/// and `FARARONI_<ENV>_{BASE_URL,MODEL,MAX_TOKENS,TEMPERATURE,TIMEOUT,API_KEY}`;
/// unset base URL, model and API key fall back to level 3's (`fararoni.llm.*`).
const LEVELS: &[LevelRow] = &[
    LevelRow {
        level: ModelLevel::Chat,
        key: "chat",
        env: "CHAT",
    },
    LevelRow {
        level: ModelLevel::Tools,
        key: "llm",
        env: "LLM",
    },
    LevelRow {
        level: ModelLevel::Thinking,
        key: "thinking",
        env: "THINKING",
    },
    LevelRow {
        level: ModelLevel::Fallback,
        key: "fallback",
        env: "FALLBACK",
    },
];

/// The default of the setting `key`, from its row of the settings table
/// (the one place a default is written), read as its reader reads a value;
/// `None` when the row has no default.
fn table_default<T>(key: &str, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
    crate::settings::find(key)
        .and_then(|s| s.default)
        .and_then(parse)
}

/// [`table_default`] for a row that has one. Every default parses as its
/// reader reads it (a test checks them all), so `T::default()` never comes
/// back.
fn default_of<T: Default>(key: &str, parse: impl Fn(&str) -> Option<T>) -> T {
    table_default(key, parse).unwrap_or_default()
}

pub use crate::settings::table::DEFAULT_LLM_BASE_URL;

/// `fararoni.llm.toolMode`: how tools reach the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolModeSetting {
    /// Decide from what the server reports and from its first reply.
    #[default]
    Auto,
    /// The server's `tools`.
    Native,
    /// Tool definitions in the system prompt, calls parsed from text.
    Prompted,
    /// JSON-schema output: one call or a final answer.
    Constrained,
}

/// Everything a model client needs for one level, resolved from git config
/// and the environment.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSettings {
    /// The API base, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    /// The model name, when configured.
    pub model: Option<String>,
    /// A bearer token, from the environment only (never from git config).
    pub api_key: Option<String>,
    /// How tools are offered (`fararoni.llm.toolMode`, default `auto`).
    pub tool_mode: ToolModeSetting,
    /// The context window, when set (`fararoni.llm.contextTokens`); else the
    /// server is asked.
    pub context_tokens: Option<u64>,
    /// Most tokens to generate per call.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// TCP connect timeout (`fararoni.llm.connectTimeout`, s, default 5).
    pub connect_timeout: std::time::Duration,
    /// Until the first byte of the reply (`fararoni.llm.firstTokenTimeout`,
    /// s, default 180: a small model on two cores takes ~50 s cold).
    pub first_token_timeout: std::time::Duration,
    /// Silence between two chunks (`fararoni.llm.idleTimeout`, s, default 60).
    pub idle_timeout: std::time::Duration,
    /// The whole call, retries included (`fararoni.llm.callTimeout`, s,
    /// default 600, or the level's `timeout`).
    pub call_timeout: std::time::Duration,
    /// Retries on connection errors, 429 and 5xx (`fararoni.llm.maxRetries`,
    /// default 2; level 2 never retries).
    pub max_retries: u32,
    /// The largest reply read (`fararoni.llm.maxResponseBytes`, default 8m).
    pub max_response_bytes: u64,
    /// Whether to stream (`fararoni.llm.stream`, default true).
    pub stream: bool,
}

/// Reads and parses one setting; `Ok(None)` when unset.
fn parsed<T>(
    settings: &Settings,
    key: &str,
    expected: &'static str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, ModelSettingError> {
    let Some((value, origin, name)) = lookup_origin(settings, key) else {
        return Ok(None);
    };
    match parse(value) {
        Some(v) => Ok(Some(v)),
        None => Err(ModelSettingError {
            name: name.to_string(),
            origin,
            value: value.to_string(),
            expected,
        }),
    }
}

/// A model setting whose value cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid `{name}` in {origin}: `{value}` (expected {expected})")]
pub struct ModelSettingError {
    /// The key or environment variable as set.
    pub name: String,
    /// Where it was set.
    pub origin: Origin,
    /// The value found.
    pub value: String,
    /// What was expected.
    pub expected: &'static str,
}

fn seconds(s: &str) -> Option<std::time::Duration> {
    s.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= 86_400.0)
        .map(std::time::Duration::from_secs_f64)
}

fn boolean(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

fn tool_mode(s: &str) -> Option<ToolModeSetting> {
    match s.to_ascii_lowercase().as_str() {
        "auto" => Some(ToolModeSetting::Auto),
        "native" => Some(ToolModeSetting::Native),
        "prompted" => Some(ToolModeSetting::Prompted),
        "constrained" => Some(ToolModeSetting::Constrained),
        _ => None,
    }
}

/// Returns the settings of a model level. The base URL defaults to
/// [`DEFAULT_LLM_BASE_URL`]; `model` is `None` when no model name is set
/// anywhere (level 2 then uses its built-in replies).
pub fn model_settings(
    settings: &Settings,
    level: ModelLevel,
) -> Result<ModelSettings, ModelSettingError> {
    let row = LEVELS
        .iter()
        .find(|r| r.level == level)
        .unwrap_or(&LEVELS[1]);
    // Every key is a row of the settings table: a level's own, else
    // level 3's (`fararoni.llm.*`).
    let own = |name: &str| format!("fararoni.{}.{name}", row.key);
    let global = |name: &str| format!("fararoni.llm.{name}");
    let level_str =
        |name: &str| lookup(settings, &own(name)).or_else(|| lookup(settings, &global(name)));
    let base_url = level_str("baseUrl").unwrap_or_else(|| DEFAULT_LLM_BASE_URL.to_string());
    let model = level_str("model");
    let api_key = [
        format!("FARARONI_{}_API_KEY", row.env),
        "FARARONI_LLM_API_KEY".to_string(),
    ]
    .iter()
    .find_map(|e| settings.get_env(e).map(str::to_string))
    // The generic OpenAI key goes only over TLS: never in clear text to
    // whatever host a base URL names.
    .or_else(|| {
        base_url
            .starts_with("https://")
            .then(|| std::env::var("OPENAI_API_KEY").ok())
            .flatten()
            .filter(|v| !v.trim().is_empty())
    });
    let g = |name: &str, expected, parse: &dyn Fn(&str) -> Option<u64>| {
        parsed(settings, &global(name), expected, parse)
    };
    let secs = |name: &str| -> Result<std::time::Duration, ModelSettingError> {
        Ok(
            parsed(settings, &global(name), "a number of seconds", seconds)?
                .unwrap_or_else(|| default_of(&global(name), seconds)),
        )
    };
    let tool_mode = parsed(
        settings,
        &global("toolMode"),
        "auto, native, prompted or constrained",
        tool_mode,
    )?
    .unwrap_or_else(|| default_of(&global("toolMode"), tool_mode));
    let context_tokens = g("contextTokens", "a whole number of tokens", &|s| {
        s.parse().ok().filter(|n| *n > 0)
    })?;
    let retries = |s: &str| s.parse().ok().filter(|n| *n <= 10);
    let max_retries = g("maxRetries", "a whole number (at most 10)", &retries)?
        .unwrap_or_else(|| default_of(&global("maxRetries"), retries)) as u32;
    let response_bytes = |s: &str| parse_size(s).filter(|n| *n >= 1024);
    let max_response_bytes = g("maxResponseBytes", "a size such as 8m", &response_bytes)?
        .unwrap_or_else(|| default_of(&global("maxResponseBytes"), response_bytes));
    let stream = parsed(settings, &global("stream"), "true or false", boolean)?
        .unwrap_or_else(|| default_of(&global("stream"), boolean));
    let tokens = |s: &str| s.parse::<u32>().ok().filter(|n| *n > 0);
    let max_tokens = parsed(
        settings,
        &own("maxTokens"),
        "a whole number of tokens",
        tokens,
    )?
    .unwrap_or_else(|| default_of(&own("maxTokens"), tokens));
    let temperature_of = |s: &str| s.parse::<f32>().ok().filter(|t| (0.0..=2.0).contains(t));
    let temperature = parsed(
        settings,
        &own("temperature"),
        "a number between 0 and 2",
        temperature_of,
    )?
    .unwrap_or_else(|| default_of(&own("temperature"), temperature_of));
    let call_default = secs("callTimeout")?;
    // `fararoni.llm.timeout` is no row: level 3's whole call is
    // `callTimeout`. A level's own `timeout` row may have a default of its
    // own (level 2's small talk must be quick or fall back to the built-in
    // reply).
    let own_timeout = match level {
        ModelLevel::Tools => None,
        _ => parsed(settings, &own("timeout"), "a number of seconds", seconds)?
            .or_else(|| table_default(&own("timeout"), seconds)),
    };
    let call_timeout = own_timeout.unwrap_or(call_default);
    Ok(ModelSettings {
        base_url,
        model,
        api_key,
        tool_mode,
        context_tokens,
        max_tokens,
        temperature,
        connect_timeout: secs("connectTimeout")?,
        first_token_timeout: secs("firstTokenTimeout")?,
        idle_timeout: secs("idleTimeout")?,
        call_timeout,
        max_retries: if level == ModelLevel::Chat {
            0
        } else {
            max_retries
        },
        max_response_bytes,
        stream,
    })
}

/// Returns the GGUF model file of a level, when one is set: level 2 reads
/// `fararoni.chat.gguf` (`FARARONI_CHAT_GGUF`), then level 3's; levels 3–5
/// read `fararoni.llm.gguf` (`FARARONI_LLM_GGUF`). A leading `~/` is the
/// home directory.
pub fn gguf_path(settings: &Settings, level: ModelLevel) -> Option<std::path::PathBuf> {
    let own = (level == ModelLevel::Chat)
        .then(|| lookup(settings, "fararoni.chat.gguf"))
        .flatten();
    let v = own.or_else(|| lookup(settings, "fararoni.llm.gguf"))?;
    match (v.strip_prefix("~/"), home_os()) {
        (Some(rest), Some(home)) => Some(std::path::PathBuf::from(home).join(rest)),
        _ => Some(std::path::PathBuf::from(v)),
    }
}

/// Returns `fararoni.local.threads` (`FARARONI_LOCAL_THREADS`): generation
/// threads of the in-process model, 1–256; `None` when unset (one per free
/// physical core).
pub fn local_threads(settings: &Settings) -> Result<Option<u32>, ModelSettingError> {
    parsed(
        settings,
        "fararoni.local.threads",
        "a whole number of threads (1–256)",
        |s| s.parse::<u32>().ok().filter(|n| (1..=256).contains(n)),
    )
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

/// The context window the agent assumes when `fararoni.llm.contextTokens`
/// is unset (that row has no default: the model client asks the server).
const AGENT_CONTEXT_TOKENS: u64 = 8192;

/// Reads the agent's settings; an unset or unreadable value keeps the
/// table's default.
pub fn agent_settings(settings: &Settings) -> AgentSettings {
    let whole = |s: &str| s.parse::<u64>().ok();
    let set = |key: &str| lookup(settings, key).and_then(|v| whole(&v));
    // Every key read here but `contextTokens` has a default in the table;
    // `min` stands in only for a row without one.
    let num = |key: &str, min: u64, max: u64| {
        set(key)
            .or_else(|| table_default(key, whole))
            .map_or(min, |v| v.clamp(min, max))
    };
    let flag = |key: &str| {
        lookup(settings, key)
            .and_then(|v| boolean(&v))
            .unwrap_or_else(|| default_of(key, boolean))
    };
    AgentSettings {
        max_depth: u32::try_from(num("fararoni.agent.maxDepth", 1, 100)).unwrap_or(100),
        build_timeout_secs: num("fararoni.agent.buildTimeout", 1, 86_400),
        command_timeout_secs: num("fararoni.agent.commandTimeout", 1, 3_600),
        send_secrets: flag("fararoni.llm.sendSecrets"),
        context_tokens: set("fararoni.llm.contextTokens")
            .unwrap_or(AGENT_CONTEXT_TOKENS)
            .clamp(1024, 10_000_000),
        max_tokens: u32::try_from(num("fararoni.llm.maxTokens", 16, 1_000_000))
            .unwrap_or(1_000_000),
    }
}

impl Default for AgentSettings {
    /// The table's defaults, with nothing configured.
    fn default() -> Self {
        agent_settings(&Settings::empty())
    }
}

/// What the sandbox lets a contained command do beyond the worktree
/// (`fararoni.sandbox.*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxSettings {
    /// Whether our agent's contained commands may reach the network.
    pub network: bool,
    /// More writable folders, as configured (absolute or relative to the
    /// worktree).
    pub writable: Vec<std::path::PathBuf>,
}

/// Returns `fararoni.sandbox.network` and `fararoni.sandbox.writable`.
pub fn sandbox_settings(settings: &Settings) -> SandboxSettings {
    SandboxSettings {
        network: lookup(settings, "fararoni.sandbox.network")
            .and_then(|v| boolean(&v))
            .unwrap_or_else(|| default_of("fararoni.sandbox.network", boolean)),
        // Only from git config: a `FARARONI_SANDBOX_WRITABLE=/` prefix on
        // a command line (typed by a model) must not widen its own sandbox.
        writable: lookup_origin(settings, "fararoni.sandbox.writable")
            .filter(|(_, origin, _)| *origin == Origin::GitConfig)
            .map(|(v, _, _)| {
                std::env::split_paths(&v)
                    .filter(|p| !p.as_os_str().is_empty())
                    .collect()
            })
            .unwrap_or_default(),
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

/// Returns a protective setting's value (`None`: unset, use the default),
/// bounded: a weaker value is replaced by the bound, with a warning pushed
/// onto `warnings`. Ratios come back as they are; whole numbers and sizes
/// as `f64` holding an integer.
pub fn protective_value(
    settings: &Settings,
    p: &Protective,
    warnings: &mut Vec<SettingWarning>,
) -> Result<Option<f64>, SettingError> {
    let Some(limit) = p.bound else {
        return Ok(None);
    };
    let Some((value, origin, name)) = lookup_origin(settings, p.config_key()) else {
        return Ok(None);
    };
    let value = value.to_string();
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

/// The user's home directory as the environment gives it (`HOME`); `None`
/// when unset or empty. The one place it is read.
pub fn home_os() -> Option<std::ffi::OsString> {
    std::env::var_os("HOME").filter(|h| !h.is_empty())
}

/// The variable that switches the guards off (`fararoni` never reads it
/// from a command line it judges, only from its own environment).
pub const GUARD_ENV: &str = "FARARONI_GUARD";

/// Whether `FARARONI_GUARD=off` is in this process's environment: the one
/// reading of that setting, for the pre-commit hook and `guard hook`
/// alike. Only its documented value `off` (any case) switches the guards
/// off; anything else, unreadable values included, leaves them on.
pub fn guard_off() -> bool {
    std::env::var(GUARD_ENV).is_ok_and(|v| v.trim().eq_ignore_ascii_case("off"))
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

    /// With nothing set, every reader gives the row's default of the
    /// settings table (the values the man pages show).
    #[test]
    fn defaults_come_from_the_table() {
        let s = Settings::empty();
        let level = |l| model_settings(&s, l).expect("the table's defaults parse");
        let chat = level(ModelLevel::Chat);
        assert_eq!((chat.max_tokens, chat.temperature), (48, 0.3));
        assert_eq!((chat.call_timeout.as_secs(), chat.max_retries), (20, 0));
        let tools = level(ModelLevel::Tools);
        assert_eq!((tools.max_tokens, tools.temperature), (1024, 0.2));
        assert_eq!((tools.call_timeout.as_secs(), tools.max_retries), (600, 2));
        assert_eq!(tools.base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(tools.tool_mode, ToolModeSetting::Auto);
        assert_eq!(
            (
                tools.connect_timeout.as_secs(),
                tools.first_token_timeout.as_secs(),
                tools.idle_timeout.as_secs()
            ),
            (5, 180, 60)
        );
        assert_eq!((tools.max_response_bytes, tools.stream), (8 << 20, true));
        let thinking = level(ModelLevel::Thinking);
        assert_eq!((thinking.max_tokens, thinking.temperature), (2048, 0.6));
        assert_eq!(thinking.call_timeout.as_secs(), 600);
        let fallback = level(ModelLevel::Fallback);
        assert_eq!((fallback.max_tokens, fallback.temperature), (1024, 0.3));
        assert_eq!(
            AgentSettings::default(),
            AgentSettings {
                max_depth: 12,
                build_timeout_secs: 600,
                command_timeout_secs: 60,
                send_secrets: false,
                context_tokens: 8192,
                max_tokens: 1024,
            }
        );
        assert!(!sandbox_settings(&s).network);
        assert_eq!(hook_remote(&s), HookPosture::Allow);
        assert_eq!(hook_unknown_programs(&s), HookPosture::Allow);
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

/// Whether the guard hook lets a class of commands run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookPosture {
    /// They run (the dirty set is saved first where they may write).
    Allow,
    /// They are vetoed.
    Deny,
}

fn hook_posture(settings: &Settings, key: &str) -> HookPosture {
    // A value that cannot be read takes the stricter posture: a typo must
    // not open what the user meant to close.
    let value = lookup(settings, key).or_else(|| table_default(key, |d| Some(d.to_string())));
    match value.map(|v| v.to_ascii_lowercase()) {
        None => HookPosture::Allow,
        Some(v) if v == "allow" => HookPosture::Allow,
        Some(_) => HookPosture::Deny,
    }
}

/// Returns `fararoni.hook.remote` (`FARARONI_HOOK_REMOTE`): whether another
/// agent's git commands may contact a remote when they lose nothing (fetch,
/// pull, plain push). Default `allow`; force pushes are vetoed either way.
pub fn hook_remote(settings: &Settings) -> HookPosture {
    hook_posture(settings, "fararoni.hook.remote")
}

/// Returns `fararoni.hook.unknownPrograms` (`FARARONI_HOOK_UNKNOWN_PROGRAMS`):
/// whether another agent may run programs the guard does not know (test
/// runners, build tools, project scripts) — after the dirty set is saved.
/// Default `allow`.
pub fn hook_unknown_programs(settings: &Settings) -> HookPosture {
    hook_posture(settings, "fararoni.hook.unknownPrograms")
}
