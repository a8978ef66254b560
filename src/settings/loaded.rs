//! [`Settings`]: every row of the table read once per repository (or once
//! per process outside any), so a run never walks git's configuration per
//! key. Typed access lives in [`crate::settings::read`], which takes a `&Settings`.

use std::sync::OnceLock;

use super::resolve::{git_values, Resolved, Source, Unknown};
use super::table::{find, nearest, same_key, Kind, Setting, SETTINGS};
use crate::git::Repo;

/// The effective raw value of every setting of [`SETTINGS`], with where
/// it came from: the environment, else git config (system, global,
/// repository, worktree, includes, `git -c`, later scopes winning), else
/// nothing (the typed accessors apply the defaults).
#[derive(Clone)]
pub struct Settings {
    /// One entry per row of [`SETTINGS`], in the table's order.
    values: Vec<Option<(String, Source)>>,
    /// `fararoni.*` keys in git config that no row reads.
    unknown: Vec<Unknown>,
}

// Secrets are values: never in a debug print.
impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("set", &self.values.iter().filter(|v| v.is_some()).count())
            .field("unknown", &self.unknown.len())
            .finish()
    }
}

impl Settings {
    /// Reads every setting: git's configuration of `repo` (or the global
    /// and system files outside a repository) in one pass, and the
    /// environment.
    pub fn load(repo: Option<&Repo>) -> Settings {
        Settings::from_git(git_values(repo))
    }

    /// Builds the settings from git config values in the order git reads
    /// them (later ones win) and the process environment.
    pub(crate) fn from_git(git: Vec<(String, String, Source)>) -> Settings {
        let values = SETTINGS
            .iter()
            .map(|s| {
                if let Some(v) = std::env::var(s.env).ok().filter(|v| !v.trim().is_empty()) {
                    return Some((v, Source::Environment { variable: s.env }));
                }
                // Secrets are never read from git config: a file can be
                // committed, shared or world-readable.
                let key = s.key.filter(|_| s.kind != Kind::Secret)?;
                git.iter()
                    .rev()
                    .find(|(k, _, _)| same_key(k, key))
                    .map(|(_, v, o)| (v.clone(), o.clone()))
            })
            .collect();
        let mut unknown: Vec<Unknown> = Vec::new();
        for (key, _, origin) in &git {
            if find(key).is_none() && !unknown.iter().any(|u| same_key(&u.key, key)) {
                unknown.push(Unknown {
                    key: key.clone(),
                    origin: origin.clone(),
                    nearest: nearest(key),
                });
            }
        }
        Settings { values, unknown }
    }

    /// Nothing set: every reader gives the table's default.
    pub fn empty() -> Settings {
        Settings {
            values: vec![None; SETTINGS.len()],
            unknown: Vec::new(),
        }
    }

    fn index(s: &Setting) -> Option<usize> {
        SETTINGS.iter().position(|t| t.env == s.env)
    }

    /// Returns a setting's value as set (trimmed; an empty value counts as
    /// unset) and where it was set; `None` when unset (default applies).
    pub fn raw(&self, s: &Setting) -> Option<(&str, &Source)> {
        let (v, o) = self.values.get(Settings::index(s)?)?.as_ref()?;
        let v = v.trim();
        (!v.is_empty()).then_some((v, o))
    }

    /// Returns the value of the setting whose git config key is `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.raw(find(key)?).map(|(v, _)| v)
    }

    /// Returns the value of the setting read from environment variable
    /// `env` (environment-only settings such as API keys).
    pub fn get_env(&self, env: &str) -> Option<&str> {
        let s = SETTINGS.iter().find(|s| s.env == env)?;
        self.raw(s).map(|(v, _)| v)
    }

    /// Returns every setting's effective value, default and origin, as
    /// `git fararoni config` shows them (secrets as `(set)`).
    pub fn resolved(&self) -> Vec<Resolved> {
        SETTINGS
            .iter()
            .zip(&self.values)
            .map(|(s, set)| {
                let (value, origin) = match set {
                    Some((v, o)) => (Some(v.trim().to_string()), o.clone()),
                    None => (s.default.map(str::to_string), Source::Default),
                };
                Resolved {
                    name: s.name(),
                    env: s.env,
                    kind: s.kind.name(),
                    value: match s.kind {
                        Kind::Secret => value.map(|_| "(set)".to_string()),
                        _ => value,
                    },
                    origin,
                    bound: s.bound.map(|b| b.display()),
                    doc: s.doc,
                }
            })
            .collect()
    }

    /// Returns the `fararoni.*` keys in git config that no setting reads.
    pub fn unknown(&self) -> &[Unknown] {
        &self.unknown
    }
}

/// Returns the settings of `repo`, read on first use and kept with the
/// open repository; outside a repository, the global ones, read once per
/// process.
pub fn of(repo: Option<&Repo>) -> &Settings {
    static GLOBAL: OnceLock<Settings> = OnceLock::new();
    match repo {
        // Only this layer keeps a value with the repository; another type
        // there would be a bug, answered with a fresh read rather than a panic.
        Some(r) => r
            .memo(|| Settings::load(Some(r)))
            .unwrap_or_else(|| Box::leak(Box::new(Settings::load(Some(r))))),
        None => GLOBAL.get_or_init(|| Settings::load(None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(key: &str, value: &str, scope: &'static str) -> (String, String, Source) {
        (
            key.to_string(),
            value.to_string(),
            Source::Git { scope, file: None },
        )
    }

    #[test]
    fn later_scopes_win_and_typos_are_named() {
        let s = Settings::from_git(vec![
            git("fararoni.guard.jaccard", "0.5", "global"),
            git("Fararoni.guard.JACCARD", " 0.6 ", "local"),
            git("fararoni.guard.jacard", "0.9", "local"),
            git("fararoni.llm.model", "  ", "local"),
        ]);
        assert_eq!(s.get("fararoni.guard.jaccard"), Some("0.6"));
        assert_eq!(
            s.raw(&crate::settings::table::GUARD_JACCARD)
                .map(|(_, o)| o.clone()),
            Some(Source::Git {
                scope: "local",
                file: None
            })
        );
        // An empty value is unset for the typed readers.
        assert_eq!(s.get("fararoni.llm.model"), None);
        assert_eq!(s.unknown().len(), 1);
        assert_eq!(s.unknown()[0].nearest, Some("fararoni.guard.jaccard"));
    }

    #[test]
    fn a_secret_is_never_taken_from_git_config_nor_shown() {
        let s = Settings::from_git(vec![git("fararoni.llm.apiKey", "hunter2", "local")]);
        if std::env::var_os("FARARONI_LLM_API_KEY").is_none() {
            assert_eq!(s.get_env("FARARONI_LLM_API_KEY"), None);
        }
        assert!(!format!("{s:?}").contains("hunter2"));
    }
}
