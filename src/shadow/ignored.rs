//! Ignored is not always expendable. Two tables say which ignored files
//! may be lost and which may not:
//!
//! - [`EXPENDABLE`]: build output and caches a build makes again (`target/`,
//!   `node_modules/`, `dist/`, …), plus `fararoni.expendable`;
//! - [`PRECIOUS`]: files people keep by hand that git does not have —
//!   environment files, local configuration, databases, keys — plus
//!   `fararoni.precious`.
//!
//! A precious ignored file is saved with the dirty set (up to
//! `fararoni.preciousMaxSize` each), so `undo --session` brings it back,
//! and [`Rules::is_precious`] is what the policy asks before letting a
//! command destroy one. A path under an expendable folder is expendable
//! even when its name looks precious (`node_modules/x/.env`). An ignored
//! file in neither table is treated as before: not saved.
//!
//! Patterns are gitignore-like: a pattern without `/` matches any name on
//! the path (a folder name matches everything under it); one with `/`
//! matches from the top of the working tree; `*` and `?` never match `/`,
//! `**` does; a trailing `/` matches folders only. Names compare
//! case-insensitively (as on the file systems that fold case).

use std::path::Path;

use crate::git::Repo;
use crate::settings::read::parse_size;
use crate::settings::Settings;

/// Ignored build output and caches: rebuilt, never saved.
pub const EXPENDABLE: &[&str] = &[
    "target/",
    "node_modules/",
    "bower_components/",
    "dist/",
    "build/",
    "out/",
    ".venv/",
    "venv/",
    "__pycache__/",
    ".pytest_cache/",
    ".mypy_cache/",
    ".ruff_cache/",
    ".tox/",
    ".nox/",
    ".next/",
    ".nuxt/",
    ".svelte-kit/",
    ".angular/",
    ".parcel-cache/",
    ".turbo/",
    ".gradle/",
    ".dart_tool/",
    ".stack-work/",
    "_build/",
    "obj/",
    "coverage/",
    ".nyc_output/",
    ".cache/",
    ".eggs/",
    "*.egg-info/",
    "*.pyc",
    "*.pyo",
    "*.o",
    "*.obj",
    "*.class",
    "*.log",
    ".DS_Store",
    "*.swp",
];

/// Ignored files people keep by hand: saved with the dirty set.
pub const PRECIOUS: &[&str] = &[
    // Environment and local configuration.
    ".env",
    ".env.*",
    "*.env",
    ".envrc",
    "*.local",
    "*.local.*",
    "local.*",
    "config/local.*",
    "local_settings.py",
    "settings_local.py",
    "docker-compose.override.yml",
    "docker-compose.override.yaml",
    // Databases.
    "*.sqlite",
    "*.sqlite3",
    "*.db",
    "*.db3",
    // Keys, credentials and secrets.
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.kdbx",
    "id_*",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".htpasswd",
    "credentials*",
    "secrets.*",
    "*.secret",
    "*.secrets",
    // Infrastructure state.
    "*.tfstate",
    "*.tfstate.*",
    "*.tfvars",
];

/// The default of `fararoni.preciousMaxSize`: a larger precious file is not
/// saved.
pub const PRECIOUS_MAX_SIZE: u64 = 64 << 20;

/// What an ignored path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Build output or a cache: may be lost.
    Expendable,
    /// Kept by hand: saved, and not to be destroyed.
    Precious,
    /// Neither table names it.
    Other,
}

/// One pattern, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pattern {
    /// Lowercase glob, without a leading or trailing `/`.
    glob: String,
    /// Matches from the top (it held a `/` before its end).
    anchored: bool,
    /// Matches folders only (it ended with `/`).
    dir_only: bool,
}

impl Pattern {
    fn parse(text: &str) -> Option<Pattern> {
        let t = text.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('!') {
            return None;
        }
        let dir_only = t.ends_with('/');
        let t = t.trim_end_matches('/');
        let anchored = t.contains('/');
        let glob = t.trim_start_matches('/').to_lowercase();
        (!glob.is_empty()).then_some(Pattern {
            glob,
            anchored,
            dir_only,
        })
    }

    /// Whether the pattern matches `rel` (lowercase, `/`-separated) or a
    /// folder on its way; `is_dir` says whether `rel` itself is a folder.
    fn matches(&self, rel: &str, is_dir: bool) -> bool {
        let parts: Vec<&str> = rel.split('/').collect();
        if self.anchored {
            let depth = self.glob.split('/').count();
            // The path itself, or one of its folders.
            return (depth..=parts.len()).any(|n| {
                let prefix = parts[..n].join("/");
                let folder = n < parts.len() || is_dir;
                (!self.dir_only || folder) && glob(&self.glob, &prefix)
            });
        }
        parts.iter().enumerate().any(|(i, name)| {
            let folder = i + 1 < parts.len() || is_dir;
            (!self.dir_only || folder) && glob(&self.glob, name)
        })
    }
}

/// Matches `text` against the glob `pat`: `*` and `?` within a name, `**`
/// across names.
fn glob(pat: &str, text: &str) -> bool {
    fn go(p: &[u8], t: &[u8]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some((b'*', rest)) if rest.first() == Some(&b'*') => {
                let rest = &rest[1..];
                let rest = rest.strip_prefix(b"/").unwrap_or(rest);
                (0..=t.len()).any(|i| go(rest, &t[i..]))
            }
            Some((b'*', rest)) => {
                let mut i = 0;
                loop {
                    if go(rest, &t[i..]) {
                        return true;
                    }
                    if i == t.len() || t[i] == b'/' {
                        return false;
                    }
                    i += 1;
                }
            }
            Some((b'?', rest)) => t.first().is_some_and(|&c| c != b'/') && go(rest, &t[1..]),
            Some((c, rest)) => t.first() == Some(c) && go(rest, &t[1..]),
        }
    }
    go(pat.as_bytes(), text.as_bytes())
}

/// The expendable and precious patterns in force, with the size bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    expendable: Vec<Pattern>,
    precious: Vec<Pattern>,
    /// The largest precious file saved, in bytes.
    pub max_size: u64,
}

/// Splits a setting's value into patterns: commas, or whitespace.
fn patterns(value: Option<&str>) -> impl Iterator<Item = Pattern> + '_ {
    value
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter_map(Pattern::parse)
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::with(None, None, None)
    }
}

impl Rules {
    /// The tables plus `fararoni.expendable`, `fararoni.precious` and
    /// `fararoni.preciousMaxSize` from `settings`.
    pub fn of(settings: &Settings) -> Rules {
        Rules::with(
            settings.get("fararoni.expendable"),
            settings.get("fararoni.precious"),
            settings.get("fararoni.preciousMaxSize"),
        )
    }

    /// The rules of `repo` (or the global settings outside one).
    pub fn of_repo(repo: Option<&Repo>) -> Rules {
        Rules::of(crate::settings::of(repo))
    }

    /// The tables plus extra patterns and a size (an unreadable size keeps
    /// the default).
    pub fn with(expendable: Option<&str>, precious: Option<&str>, max_size: Option<&str>) -> Rules {
        Rules {
            expendable: EXPENDABLE
                .iter()
                .filter_map(|p| Pattern::parse(p))
                .chain(patterns(expendable))
                .collect(),
            precious: PRECIOUS
                .iter()
                .filter_map(|p| Pattern::parse(p))
                .chain(patterns(precious))
                .collect(),
            max_size: max_size.and_then(parse_size).unwrap_or(PRECIOUS_MAX_SIZE),
        }
    }

    /// Classifies the repository-relative path `rel` (a file unless
    /// `is_dir`), as if it were ignored: expendable wins over precious.
    pub fn classify(&self, rel: &str, is_dir: bool) -> Class {
        let rel = rel.trim_matches('/').to_lowercase();
        if self.expendable.iter().any(|p| p.matches(&rel, is_dir)) {
            Class::Expendable
        } else if !is_dir && self.precious.iter().any(|p| p.matches(&rel, false)) {
            Class::Precious
        } else {
            Class::Other
        }
    }

    /// Whether the file `rel` is precious (and not under expendable output).
    pub fn is_precious(&self, rel: &str) -> bool {
        self.classify(rel, false) == Class::Precious
    }

    /// Whether `rel` is expendable build output or a cache.
    pub fn is_expendable(&self, rel: &str, is_dir: bool) -> bool {
        self.classify(rel, is_dir) == Class::Expendable
    }
}

/// Whether the ignored file `rel` of `repo`'s working tree is precious: the
/// question the policy asks before letting a command destroy it.
pub fn precious(repo: &Repo, rel: &str) -> bool {
    Rules::of_repo(Some(repo)).is_precious(rel)
}

/// Whether the ignored path `rel` of `repo`'s working tree is expendable
/// build output (a folder when `is_dir`).
pub fn expendable(repo: &Repo, rel: &str, is_dir: bool) -> bool {
    Rules::of_repo(Some(repo)).is_expendable(rel, is_dir)
}

/// The most entries looked at inside ignored folders that are not
/// expendable, per snapshot.
const WALK_BUDGET: usize = 20_000;

/// Adds to `out` the precious files among `ignored` (what `git status
/// --ignored=matching` listed: files, and folders ending in `/`), walking
/// ignored folders that are not expendable, never through a symlink or
/// into a nested repository, at most [`WALK_BUDGET`] entries.
pub(crate) fn precious_files(
    root: &Path,
    rules: &Rules,
    ignored: &[String],
    out: &mut Vec<String>,
) {
    let mut budget = WALK_BUDGET;
    for rel in ignored {
        if let Some(dir) = rel.strip_suffix('/') {
            if rules.is_expendable(dir, true) {
                continue;
            }
            walk(root, dir, rules, &mut budget, out);
        } else if rules.is_precious(rel) && small(root, rel, rules) {
            out.push(rel.clone());
        }
    }
}

fn small(root: &Path, rel: &str, rules: &Rules) -> bool {
    std::fs::symlink_metadata(root.join(rel))
        .is_ok_and(|m| m.is_file() && m.len() <= rules.max_size)
}

fn walk(root: &Path, dir: &str, rules: &Rules, budget: &mut usize, out: &mut Vec<String>) {
    let mut stack = vec![dir.to_string()];
    while let Some(here) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&here)) else {
            continue;
        };
        for e in entries.flatten() {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            let Some(name) = e.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let rel = format!("{here}/{name}");
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                let nested = root.join(&rel).join(".git");
                if !rules.is_expendable(&rel, true) && std::fs::symlink_metadata(nested).is_err() {
                    stack.push(rel);
                }
            } else if ft.is_file() && rules.is_precious(&rel) && small(root, &rel, rules) {
                out.push(rel);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_keep_to_names_unless_double_starred() {
        assert!(glob("*.db", "app.db"));
        assert!(!glob("*.db", "a/app.db"));
        assert!(glob("**/x", "a/b/x"));
        assert!(glob(".env.*", ".env.local"));
        assert!(!glob(".env.*", ".env"));
        assert!(glob("id_*", "id_ed25519"));
        assert!(glob("a?c", "abc"));
        assert!(!glob("a?c", "a/c"));
    }

    #[test]
    fn the_tables_tell_precious_from_expendable() {
        let r = Rules::default();
        for p in [
            ".env",
            ".env.local",
            "config/local.toml",
            "settings.local.json",
            "data/app.sqlite",
            "db/dev.db",
            "certs/server.pem",
            "keys/id_ed25519",
            ".ENV.Production",
            "terraform.tfstate",
        ] {
            assert_eq!(r.classify(p, false), Class::Precious, "{p}");
        }
        for p in [
            "target/debug/app",
            "node_modules/x/.env",
            "build/app.db",
            "src/__pycache__/m.pyc",
            "web/.next/cache/x",
            "debug.log",
        ] {
            assert_eq!(r.classify(p, false), Class::Expendable, "{p}");
        }
        assert_eq!(r.classify("node_modules", true), Class::Expendable);
        assert_eq!(r.classify("notes/todo.txt", false), Class::Other);
        assert_eq!(r.classify("src/main.rs", false), Class::Other);
    }

    #[test]
    fn settings_add_patterns_and_bound_the_size() {
        let r = Rules::with(
            Some("generated/, *.snap"),
            Some("*.bak vault/**"),
            Some("1k"),
        );
        assert!(r.is_expendable("generated/x.rs", false));
        assert!(r.is_expendable("tests/a.snap", false));
        assert!(r.is_precious("notes.bak"));
        assert!(r.is_precious("vault/deep/x.txt"));
        assert_eq!(r.max_size, 1024);
        // The tables stay in force.
        assert!(r.is_precious(".env"));
        assert!(r.is_expendable("target", true));
    }

    #[test]
    fn anchored_patterns_match_from_the_top_only() {
        let r = Rules::with(None, Some("/secret/x.txt"), None);
        assert!(r.is_precious("secret/x.txt"));
        assert!(!r.is_precious("a/secret/x.txt"));
        assert!(r.is_precious("config/local.yaml"));
        assert!(!r.is_precious("src/config/localize.rs"));
    }
}
