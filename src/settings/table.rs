//! The table of every `fararoni.*` setting: its git config key, the
//! environment variable that overrides it, its type, default, the bound
//! past which it would switch protection off, and a one-line doc. The
//! configuration page (docs/configuration.md) and `git fararoni config` are
//! generated from this table.

/// How a setting's value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number between 0 and 1.
    Ratio,
    /// A whole number.
    Whole,
    /// A size with an optional `k`/`m`/`g` suffix.
    Size,
    /// An `http(s)://` URL.
    Url,
    /// Free text (a model name).
    Text,
    /// A secret: from the environment only, never from git config, never shown.
    Secret,
    /// One of a few words.
    Choice(&'static [&'static str]),
    /// A duration in whole seconds.
    Seconds,
    /// A number with a fraction (a sampling temperature).
    Number,
    /// `true` or `false` (also `yes`/`no`, `on`/`off`, `1`/`0`).
    Bool,
}

impl Kind {
    /// Returns the type's name, as docs/configuration.md and `config --json` show it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ratio => "ratio",
            Kind::Whole => "whole number",
            Kind::Size => "size",
            Kind::Url => "url",
            Kind::Text => "text",
            Kind::Secret => "secret",
            Kind::Choice(_) => "choice",
            Kind::Seconds => "seconds",
            Kind::Number => "number",
            Kind::Bool => "true/false",
        }
    }
}

/// How a protective setting may be weakened.
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

impl Bound {
    /// Returns the bound as the docs show it (`≥ 0.20`, `≤ 20`, `≥ 16m`).
    pub fn display(self) -> String {
        match self {
            Bound::RatioAtLeast(f) => format!("≥ {f:.2}"),
            Bound::WholeAtMost(n) => format!("≤ {n}"),
            Bound::WholeAtLeast(n) => format!("≥ {n}"),
            Bound::SizeAtLeast(n) => format!("≥ {}m", n >> 20),
        }
    }
}

/// One setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    /// The git config key (`None`: environment only).
    pub key: Option<&'static str>,
    /// The environment variable that overrides it.
    pub env: &'static str,
    /// How the value is read.
    pub kind: Kind,
    /// The default, as documented (`None`: unset unless configured).
    pub default: Option<&'static str>,
    /// The limit past which a value would weaken protection.
    pub bound: Option<Bound>,
    /// Why a weaker value is refused (protective settings).
    pub why: &'static str,
    /// One line on what it does.
    pub doc: &'static str,
}

impl Setting {
    /// Returns the git config key, or the environment variable for an
    /// environment-only setting.
    pub fn name(&self) -> &'static str {
        self.key.unwrap_or(self.env)
    }

    /// Returns the git config key of a protective setting (always set).
    pub fn config_key(&self) -> &'static str {
        self.key.unwrap_or_default()
    }
}

/// `fararoni.guard.jaccard`: the least Jaccard index of old and new lines.
pub const GUARD_JACCARD: Setting = Setting {
    key: Some("fararoni.guard.jaccard"),
    env: "FARARONI_GUARD_JACCARD",
    kind: Kind::Ratio,
    default: Some("0.40"),
    bound: Some(Bound::RatioAtLeast(0.20)),
    why:
        "below 0.20 fewer than one distinct line in five need survive: a whole-file rewrite passes",
    doc: "least Jaccard index of the old and new non-blank lines a write (or a commit) may have",
};

/// `fararoni.guard.volume`: the least new/old ratio of non-blank lines.
pub const GUARD_VOLUME: Setting = Setting {
    key: Some("fararoni.guard.volume"),
    env: "FARARONI_GUARD_VOLUME",
    kind: Kind::Ratio,
    default: Some("0.50"),
    bound: Some(Bound::RatioAtLeast(0.30)),
    why: "below 0.30 a single write may drop more than two thirds of a file's lines",
    doc: "least ratio of new to old non-blank lines a write (or a commit) may have",
};

/// `fararoni.guard.minLines`: old files with fewer non-blank lines skip the ratios.
pub const GUARD_MIN_LINES: Setting = Setting {
    key: Some("fararoni.guard.minLines"),
    env: "FARARONI_GUARD_MIN_LINES",
    kind: Kind::Whole,
    default: Some("5"),
    bound: Some(Bound::WholeAtMost(20)),
    why: "files under this many non-blank lines skip the ratios; above 20 that would exempt real source files",
    doc: "old files with fewer non-blank lines may be rewritten freely",
};

/// `fararoni.shadow.maxVersions`: versions kept per file.
pub const SHADOW_MAX_VERSIONS: Setting = Setting {
    key: Some("fararoni.shadow.maxVersions"),
    env: "FARARONI_SHADOW_MAX_VERSIONS",
    kind: Kind::Whole,
    default: Some("50"),
    bound: Some(Bound::WholeAtLeast(10)),
    why:
        "fewer versions per file would evict backups that `shadow restore` is the only way back to",
    doc: "backed-up versions kept per file in the shadow store",
};

/// `fararoni.shadow.maxSize`: bytes of distinct contents the store keeps.
pub const SHADOW_MAX_SIZE: Setting = Setting {
    key: Some("fararoni.shadow.maxSize"),
    env: "FARARONI_SHADOW_MAX_SIZE",
    kind: Kind::Size,
    default: Some("256m"),
    bound: Some(Bound::SizeAtLeast(16 << 20)),
    why: "a smaller store would evict backups after a few large writes",
    doc: "bytes of distinct contents the shadow store keeps",
};

/// Every protective setting. A weaker value than the bound is not an error
/// (that would stop every write over a typo) and never takes effect: the
/// bound is used and a warning says so. Values that cannot be parsed at all
/// are errors, which stop guarded writes until fixed.
pub const PROTECTIVE: &[Setting] = &[
    GUARD_JACCARD,
    GUARD_VOLUME,
    GUARD_MIN_LINES,
    SHADOW_MAX_VERSIONS,
    SHADOW_MAX_SIZE,
];

/// A setting with a documented default and no bound.
const fn defaulted(
    key: Option<&'static str>,
    env: &'static str,
    kind: Kind,
    default: &'static str,
    doc: &'static str,
) -> Setting {
    Setting {
        default: Some(default),
        ..plain(key, env, kind, doc)
    }
}

const fn plain(
    key: Option<&'static str>,
    env: &'static str,
    kind: Kind,
    doc: &'static str,
) -> Setting {
    Setting {
        key,
        env,
        kind,
        default: None,
        bound: None,
        why: "",
        doc,
    }
}

/// The default model server: Ollama's OpenAI-compatible API on loopback.
pub const DEFAULT_LLM_BASE_URL: &str = "http://127.0.0.1:11434/v1";

/// Every setting git-fararoni reads, protective ones first.
pub const SETTINGS: &[Setting] = &[
    GUARD_JACCARD,
    GUARD_VOLUME,
    GUARD_MIN_LINES,
    SHADOW_MAX_VERSIONS,
    SHADOW_MAX_SIZE,
    Setting {
        default: Some(DEFAULT_LLM_BASE_URL),
        ..plain(
            Some("fararoni.llm.baseUrl"),
            "FARARONI_LLM_BASE_URL",
            Kind::Url,
            "OpenAI-compatible endpoint of levels 3–5 (the agent); levels 2, 4 and 5 use it unless they set their own",
        )
    },
    plain(
        Some("fararoni.llm.model"),
        "FARARONI_LLM_MODEL",
        Kind::Text,
        "model name of levels 3–5 (and of levels 2, 4, 5 unless they set their own)",
    ),
    plain(
        None,
        "FARARONI_LLM_API_KEY",
        Kind::Secret,
        "bearer token for the agent's endpoint (else `OPENAI_API_KEY`, sent only over https)",
    ),
    Setting {
        default: Some("auto"),
        ..plain(
            Some("fararoni.llm.toolMode"),
            "FARARONI_LLM_TOOL_MODE",
            Kind::Choice(&["auto", "native", "prompted", "constrained"]),
            "how tools reach the model: the server's `tools`, definitions in the prompt, or JSON-schema output",
        )
    },
    plain(
        Some("fararoni.llm.contextTokens"),
        "FARARONI_LLM_CONTEXT_TOKENS",
        Kind::Whole,
        "the model's context window in tokens (else asked of the server)",
    ),
    defaulted(Some("fararoni.llm.connectTimeout"), "FARARONI_LLM_CONNECT_TIMEOUT", Kind::Seconds, "5", "time to connect to the model server"),
    defaulted(Some("fararoni.llm.firstTokenTimeout"), "FARARONI_LLM_FIRST_TOKEN_TIMEOUT", Kind::Seconds, "180", "time until a reply starts"),
    defaulted(Some("fararoni.llm.idleTimeout"), "FARARONI_LLM_IDLE_TIMEOUT", Kind::Seconds, "60", "silence allowed between two chunks of a reply"),
    defaulted(Some("fararoni.llm.callTimeout"), "FARARONI_LLM_CALL_TIMEOUT", Kind::Seconds, "600", "a whole model call, retries included"),
    defaulted(Some("fararoni.llm.maxRetries"), "FARARONI_LLM_MAX_RETRIES", Kind::Whole, "2", "retries on connection errors, 429 and 5xx (at most 10; level 2 never retries)"),
    defaulted(Some("fararoni.llm.maxResponseBytes"), "FARARONI_LLM_MAX_RESPONSE_BYTES", Kind::Size, "8m", "a larger reply is abandoned (at least 1k)"),
    defaulted(Some("fararoni.llm.stream"), "FARARONI_LLM_STREAM", Kind::Bool, "true", "stream replies as they are generated"),
    plain(Some("fararoni.llm.gguf"), "FARARONI_LLM_GGUF", Kind::Text, "a GGUF model file run in process for levels 3–5, instead of a server (needs a build with `--features local-llm`)"),
    plain(Some("fararoni.local.threads"), "FARARONI_LOCAL_THREADS", Kind::Whole, "generation threads of the in-process model, 1–256 (default: one per physical core the load leaves free)"),
    defaulted(Some("fararoni.llm.maxTokens"), "FARARONI_LLM_MAX_TOKENS", Kind::Whole, "1024", "most tokens generated per level-3 call"),
    defaulted(Some("fararoni.llm.temperature"), "FARARONI_LLM_TEMPERATURE", Kind::Number, "0.2", "level-3 sampling temperature"),
    plain(Some("fararoni.chat.baseUrl"), "FARARONI_CHAT_BASE_URL", Kind::Url, "endpoint for level-2 small talk (default: `fararoni.llm.baseUrl`)"),
    plain(Some("fararoni.chat.model"), "FARARONI_CHAT_MODEL", Kind::Text, "model for level 2 (default: `fararoni.llm.model`; none: built-in replies)"),
    plain(None, "FARARONI_CHAT_API_KEY", Kind::Secret, "bearer token for the level-2 endpoint"),
    defaulted(Some("fararoni.chat.maxTokens"), "FARARONI_CHAT_MAX_TOKENS", Kind::Whole, "48", "most tokens of a level-2 reply"),
    defaulted(Some("fararoni.chat.temperature"), "FARARONI_CHAT_TEMPERATURE", Kind::Number, "0.3", "level-2 sampling temperature"),
    defaulted(Some("fararoni.chat.timeout"), "FARARONI_CHAT_TIMEOUT", Kind::Seconds, "20", "a whole level-2 call (then the built-in reply)"),
    plain(Some("fararoni.chat.gguf"), "FARARONI_CHAT_GGUF", Kind::Text, "a GGUF model file run in process for level 2 (default: `fararoni.llm.gguf`; needs a build with `--features local-llm`)"),
    plain(Some("fararoni.thinking.baseUrl"), "FARARONI_THINKING_BASE_URL", Kind::Url, "endpoint of the level-4 reasoning model (default: `fararoni.llm.baseUrl`)"),
    plain(Some("fararoni.thinking.model"), "FARARONI_THINKING_MODEL", Kind::Text, "model for level 4 (default: `fararoni.llm.model`)"),
    plain(None, "FARARONI_THINKING_API_KEY", Kind::Secret, "bearer token for the level-4 endpoint"),
    defaulted(Some("fararoni.thinking.maxTokens"), "FARARONI_THINKING_MAX_TOKENS", Kind::Whole, "2048", "most tokens of a level-4 reply"),
    defaulted(Some("fararoni.thinking.temperature"), "FARARONI_THINKING_TEMPERATURE", Kind::Number, "0.6", "level-4 sampling temperature"),
    plain(Some("fararoni.thinking.timeout"), "FARARONI_THINKING_TIMEOUT", Kind::Seconds, "a whole level-4 call (default: `fararoni.llm.callTimeout`)"),
    plain(Some("fararoni.fallback.baseUrl"), "FARARONI_FALLBACK_BASE_URL", Kind::Url, "endpoint of the level-5 plain model (default: `fararoni.llm.baseUrl`)"),
    plain(Some("fararoni.fallback.model"), "FARARONI_FALLBACK_MODEL", Kind::Text, "model for level 5 (default: `fararoni.llm.model`)"),
    plain(None, "FARARONI_FALLBACK_API_KEY", Kind::Secret, "bearer token for the level-5 endpoint"),
    defaulted(Some("fararoni.fallback.maxTokens"), "FARARONI_FALLBACK_MAX_TOKENS", Kind::Whole, "1024", "most tokens of a level-5 reply"),
    defaulted(Some("fararoni.fallback.temperature"), "FARARONI_FALLBACK_TEMPERATURE", Kind::Number, "0.3", "level-5 sampling temperature"),
    plain(Some("fararoni.fallback.timeout"), "FARARONI_FALLBACK_TIMEOUT", Kind::Seconds, "a whole level-5 call (default: `fararoni.llm.callTimeout`)"),
    defaulted(
        Some("fararoni.agent.maxDepth"),
        "FARARONI_AGENT_MAX_DEPTH",
        Kind::Whole,
        "12",
        "model calls level 3 may make for one request (1–100)",
    ),
    defaulted(
        Some("fararoni.agent.buildTimeout"),
        "FARARONI_AGENT_BUILD_TIMEOUT",
        Kind::Seconds,
        "600",
        "time a build or test the agent runs may take",
    ),
    defaulted(
        Some("fararoni.sandbox.network"),
        "FARARONI_SANDBOX_NETWORK",
        Kind::Bool,
        "false",
        "whether the commands our agent runs contained (builds, tests, scripts) may reach the network; `git fararoni run` takes `--net`/`--no-net`",
    ),
    plain(
        Some("fararoni.sandbox.writable"),
        "FARARONI_SANDBOX_WRITABLE",
        Kind::Text,
        "more folders a contained command may write, separated by `:` (a build that installs into `/opt`), read from git config only (an environment prefix cannot widen its own sandbox); everything else outside the worktree, temp and tool caches stays read-only",
    ),
    defaulted(
        Some("fararoni.agent.commandTimeout"),
        "FARARONI_AGENT_COMMAND_TIMEOUT",
        Kind::Seconds,
        "60",
        "time any other command the agent runs may take",
    ),
    defaulted(
        Some("fararoni.llm.sendSecrets"),
        "FARARONI_LLM_SEND_SECRETS",
        Kind::Bool,
        "false",
        "send secret-looking files (`.env*`, keys, credentials) and tokens to a model that is not on loopback",
    ),
    defaulted(
        Some("fararoni.hook.remote"),
        "FARARONI_HOOK_REMOTE",
        Kind::Choice(&["allow", "deny"]),
        "allow",
        "lets another agent's git contact a remote when it loses nothing (force pushes and remote deletions are vetoed either way); an unreadable value means `deny`",
    ),
    defaulted(
        Some("fararoni.hook.unknownPrograms"),
        "FARARONI_HOOK_UNKNOWN_PROGRAMS",
        Kind::Choice(&["allow", "deny"]),
        "allow",
        "lets another agent run programs the guard does not know, after the dirty set is saved; an unreadable value means `deny`",
    ),
    plain(
        Some("fararoni.expendable"),
        "FARARONI_EXPENDABLE",
        Kind::Text,
        "more ignored build output that may be lost, as gitignore-like patterns separated by commas or spaces (added to the built-in table: `target/`, `node_modules/`, `dist/`, `build/`, `.venv/`, `__pycache__/`, …)",
    ),
    plain(
        Some("fararoni.precious"),
        "FARARONI_PRECIOUS",
        Kind::Text,
        "more ignored files kept by hand, saved with the dirty set and never destroyed, as gitignore-like patterns (added to the built-in table: `.env*`, `*.local.*`, `config/local.*`, `*.sqlite`, `*.db`, `*.pem`, `*.key`, `id_*`, …)",
    ),
    defaulted(
        Some("fararoni.preciousMaxSize"),
        "FARARONI_PRECIOUS_MAX_SIZE",
        Kind::Size,
        "64m",
        "a precious ignored file larger than this is not saved with the dirty set",
    ),
    Setting {
        default: Some("on"),
        ..plain(
            None,
            "FARARONI_GUARD",
            Kind::Choice(&["on", "off"]),
            "`off` switches the guards off: the pre-commit hook passes everything (as `git commit --no-verify` does) and `guard hook` allows every tool call; read only from the process's own environment, never from a command line it judges",
        )
    },
    plain(
        None,
        "FARARONI_DURABILITY",
        Kind::Choice(&["ordered", "per-step"]),
        "how a guarded write is made durable, instead of detecting it (for tests)",
    ),
];

pub use crate::git::repo::same_key;

/// Returns the setting whose git config key is `key`. Section and variable
/// names are case-insensitive in git, the middle part is not.
pub fn find(key: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .find(|s| s.key.is_some_and(|k| same_key(k, key)))
}

/// Returns the valid key nearest to an unknown `fararoni.*` key.
pub fn nearest(key: &str) -> Option<&'static str> {
    // The shared `fararoni.` prefix would make every key look near.
    let tail = |k: &str| {
        let k = k.to_ascii_lowercase();
        k.strip_prefix("fararoni.").map(str::to_string).unwrap_or(k)
    };
    let wanted = tail(key);
    SETTINGS
        .iter()
        .filter_map(|s| s.key)
        .map(|k| (k, strsim::jaro_winkler(&tail(k), &wanted)))
        .filter(|(_, score)| *score > 0.7)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_unique_and_documented() {
        for (i, s) in SETTINGS.iter().enumerate() {
            assert!(s.env.starts_with("FARARONI_"), "{}", s.name());
            assert!(!s.doc.is_empty(), "{}", s.name());
            assert!(s.bound.is_none() || !s.why.is_empty(), "{}", s.name());
            for t in &SETTINGS[i + 1..] {
                assert_ne!(s.env, t.env);
            }
        }
        for p in PROTECTIVE {
            assert!(SETTINGS.contains(p), "{}", p.name());
        }
    }

    #[test]
    fn keys_compare_as_git_compares_them() {
        assert!(same_key(
            "fararoni.guard.minLines",
            "FARARONI.guard.MINLINES"
        ));
        assert!(!same_key(
            "fararoni.guard.minLines",
            "fararoni.Guard.minLines"
        ));
        // Two-part keys have no subsection; a key without a dot is none.
        assert!(same_key("fararoni.model", "Fararoni.MODEL"));
        assert!(!same_key("fararoni.model", "fararoni.x.model"));
        assert!(!same_key("fararoni", "fararoni"));
        assert!(!same_key("fararoni.model", "fararoni"));
        assert!(same_key("a.b.c.d", "A.b.c.D"));
        assert!(!same_key("a.b.c.d", "a.B.c.d"));
        assert_eq!(find("Fararoni.shadow.MaxSize"), Some(&SHADOW_MAX_SIZE));
        assert_eq!(
            nearest("fararoni.guard.jacard"),
            Some("fararoni.guard.jaccard")
        );
        assert_eq!(
            nearest("fararoni.shadow.maxVersion"),
            Some("fararoni.shadow.maxVersions")
        );
        assert_eq!(nearest("fararoni.zzzzzzzzzzzzzzzzzzzzzzz"), None);
    }
}
