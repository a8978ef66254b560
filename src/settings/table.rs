//! The table of every `fararoni.*` setting: its git config key, the
//! environment variable that overrides it, its type, default, the bound
//! past which it would switch protection off, and a one-line doc. The
//! README's configuration table and `git fararoni config` are checked
//! against and printed from this table.

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
}

impl Kind {
    /// Returns the type's name, as the README and `config --json` show it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ratio => "ratio",
            Kind::Whole => "whole number",
            Kind::Size => "size",
            Kind::Url => "url",
            Kind::Text => "text",
            Kind::Secret => "secret",
            Kind::Choice(_) => "choice",
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
    /// Returns the bound as the README shows it (`≥ 0.20`, `≤ 20`, `≥ 16m`).
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

/// Every setting git-fararoni reads, protective ones first.
pub const SETTINGS: &[Setting] = &[
    GUARD_JACCARD,
    GUARD_VOLUME,
    GUARD_MIN_LINES,
    SHADOW_MAX_VERSIONS,
    SHADOW_MAX_SIZE,
    plain(
        Some("fararoni.chat.baseUrl"),
        "FARARONI_CHAT_BASE_URL",
        Kind::Url,
        "OpenAI-compatible endpoint for level-2 replies (e.g. `http://localhost:11434/v1`)",
    ),
    plain(
        Some("fararoni.chat.model"),
        "FARARONI_CHAT_MODEL",
        Kind::Text,
        "model name for level 2",
    ),
    plain(
        None,
        "FARARONI_CHAT_API_KEY",
        Kind::Secret,
        "bearer token for the chat endpoint",
    ),
    plain(
        Some("fararoni.llm.baseUrl"),
        "FARARONI_LLM_BASE_URL",
        Kind::Url,
        "endpoint of the model of levels 3–5 (the agent)",
    ),
    plain(
        Some("fararoni.llm.model"),
        "FARARONI_LLM_MODEL",
        Kind::Text,
        "model name for levels 3–5",
    ),
    plain(
        None,
        "FARARONI_LLM_API_KEY",
        Kind::Secret,
        "bearer token for the agent's endpoint",
    ),
    Setting {
        default: Some("on"),
        ..plain(
            None,
            "FARARONI_GUARD",
            Kind::Choice(&["on", "off"]),
            "`off` lets the pre-commit hook pass everything, as `git commit --no-verify` does",
        )
    },
    plain(
        None,
        "FARARONI_DURABILITY",
        Kind::Choice(&["ordered", "per-step"]),
        "how a guarded write is made durable, instead of detecting it (for tests)",
    ),
];

/// Returns the setting whose git config key is `key`. Section and variable
/// names are case-insensitive in git, the middle part is not.
pub fn find(key: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .find(|s| s.key.is_some_and(|k| same_key(k, key)))
}

/// Compares git config keys as git does: `section.sub.name` with the
/// section and name case-insensitive and the subsection exact.
pub fn same_key(a: &str, b: &str) -> bool {
    let split = |k: &str| -> Option<(String, String, String)> {
        let (section, rest) = k.split_once('.')?;
        let (sub, name) = rest.rsplit_once('.').unwrap_or(("", rest));
        Some((
            section.to_ascii_lowercase(),
            sub.to_string(),
            name.to_ascii_lowercase(),
        ))
    };
    split(a).is_some() && split(a) == split(b)
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
