//! What a contained command may write besides its worktree: the temp dir and
//! the tool caches, named in one table.
//!
//! Pure resolution over an environment lookup, so the table can be tested
//! without touching the real environment. Never creates a directory: a cache
//! that does not exist yet stays read-only (the tool then runs without it or
//! says it cannot create it), because creating `~/.m2` for someone who never
//! used Maven would be a write outside the worktree of our own.
//!
//! Only the cache parts of a tool's home are listed, never the whole home:
//! `~/.cargo/bin`, `~/.cargo/config.toml`, `~/.m2/settings.xml`,
//! `~/.gradle/init.d` and `~/.npmrc` run code or change what later runs
//! outside the sandbox, so a contained build must not write them.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where one cache lives: an environment variable that names it outright,
/// else a path under another variable's directory, else under HOME.
#[derive(Debug, Clone, Copy)]
pub struct CacheDir {
    /// The tool, for `doctor` and error messages.
    pub tool: &'static str,
    /// A variable naming the cache directory itself (`CARGO_HOME` is not one:
    /// see `under`).
    pub var: Option<&'static str>,
    /// A variable naming a base directory, and the path under it.
    pub under: Option<(&'static str, &'static str)>,
    /// The fallback path under `HOME` (for XDG caches: under
    /// `$XDG_CACHE_HOME`, whose own fallback is `~/.cache`).
    pub home: &'static str,
}

const fn cache(
    tool: &'static str,
    var: Option<&'static str>,
    under: Option<(&'static str, &'static str)>,
    home: &'static str,
) -> CacheDir {
    CacheDir {
        tool,
        var,
        under,
        home,
    }
}

/// Marks a `home` fallback that lives under `$XDG_CACHE_HOME` (default
/// `~/.cache`) rather than directly under HOME.
const XDG: &str = "$XDG_CACHE_HOME/";

/// The tool caches a contained command may write, when they exist.
pub const CACHES: &[CacheDir] = &[
    // cargo: the download caches only, never bin/ or config.toml.
    cache(
        "cargo",
        None,
        Some(("CARGO_HOME", "registry")),
        ".cargo/registry",
    ),
    cache("cargo", None, Some(("CARGO_HOME", "git")), ".cargo/git"),
    // rustup: toolchains are installed on demand by rust-toolchain.toml.
    cache("rustup", Some("RUSTUP_HOME"), None, ".rustup"),
    cache("npm", Some("npm_config_cache"), None, ".npm"),
    cache(
        "pnpm",
        Some("PNPM_STORE_DIR"),
        None,
        ".local/share/pnpm/store",
    ),
    cache("pnpm", None, None, "$XDG_CACHE_HOME/pnpm"),
    cache(
        "yarn",
        Some("YARN_CACHE_FOLDER"),
        None,
        "$XDG_CACHE_HOME/yarn",
    ),
    cache("yarn", None, None, ".yarn/berry/cache"),
    cache("node-gyp", None, None, "$XDG_CACHE_HOME/node-gyp"),
    cache(
        "bun",
        Some("BUN_INSTALL_CACHE_DIR"),
        None,
        ".bun/install/cache",
    ),
    cache("deno", Some("DENO_DIR"), None, "$XDG_CACHE_HOME/deno"),
    cache("pip", Some("PIP_CACHE_DIR"), None, "$XDG_CACHE_HOME/pip"),
    cache("uv", Some("UV_CACHE_DIR"), None, "$XDG_CACHE_HOME/uv"),
    cache(
        "pypoetry",
        Some("POETRY_CACHE_DIR"),
        None,
        "$XDG_CACHE_HOME/pypoetry",
    ),
    cache("go", Some("GOCACHE"), None, "$XDG_CACHE_HOME/go-build"),
    cache(
        "go",
        Some("GOMODCACHE"),
        Some(("GOPATH", "pkg/mod")),
        "go/pkg/mod",
    ),
    // gradle: caches, wrapper distributions and daemon logs, never init.d/
    // or gradle.properties.
    cache(
        "gradle",
        None,
        Some(("GRADLE_USER_HOME", "caches")),
        ".gradle/caches",
    ),
    cache(
        "gradle",
        None,
        Some(("GRADLE_USER_HOME", "wrapper")),
        ".gradle/wrapper",
    ),
    cache(
        "gradle",
        None,
        Some(("GRADLE_USER_HOME", "daemon")),
        ".gradle/daemon",
    ),
    cache(
        "gradle",
        None,
        Some(("GRADLE_USER_HOME", "native")),
        ".gradle/native",
    ),
    cache("maven", None, None, ".m2/repository"),
    cache("nuget", Some("NUGET_PACKAGES"), None, ".nuget/packages"),
    cache("ccache", Some("CCACHE_DIR"), None, "$XDG_CACHE_HOME/ccache"),
    cache("ccache", None, None, ".ccache"),
    cache(
        "sccache",
        Some("SCCACHE_DIR"),
        None,
        "$XDG_CACHE_HOME/sccache",
    ),
];

/// One writable directory and why it is writable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writable {
    /// The directory, as resolved (not yet canonical).
    pub path: PathBuf,
    /// `temp`, a tool name from [`CACHES`], or `fararoni.sandbox.writable`.
    pub why: &'static str,
}

/// Returns the temp dir and every cache of [`CACHES`] that exists, resolved
/// through `env` (the environment the command will run with).
pub fn resolve(env: &dyn Fn(&str) -> Option<OsString>) -> Vec<Writable> {
    let nonempty = |k: &str| env(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home = nonempty("HOME");
    let xdg_cache = nonempty("XDG_CACHE_HOME").or_else(|| home.as_ref().map(|h| h.join(".cache")));
    let mut out = Vec::new();
    // The temp dir as std and most tools pick it: $TMPDIR, else /tmp.
    let tmp = nonempty("TMPDIR").unwrap_or_else(|| PathBuf::from("/tmp"));
    out.push(Writable {
        path: tmp,
        why: "temp",
    });
    for c in CACHES {
        let path = c
            .var
            .and_then(nonempty)
            .or_else(|| {
                c.under
                    .and_then(|(var, sub)| nonempty(var).map(|b| b.join(sub)))
            })
            .or_else(|| match c.home.strip_prefix(XDG) {
                Some(rest) => xdg_cache.as_ref().map(|x| x.join(rest)),
                None => home.as_ref().map(|h| h.join(c.home)),
            });
        if let Some(path) = path.filter(|p| p.is_absolute() && p.is_dir()) {
            out.push(Writable { path, why: c.tool });
        }
    }
    // The environment names these folders, and a caller may not own it
    // (`TMPDIR=/ git fararoni run …`): a temp dir or cache that is `/`, the
    // home folder or above it would make every file of the user writable,
    // so it is not made writable (the setting `fararoni.sandbox.writable`
    // is the way to widen on purpose).
    let home = home.and_then(|h| h.canonicalize().ok());
    out.retain(|w| match w.path.canonicalize() {
        Ok(c) => c.parent().is_some() && !home.as_ref().is_some_and(|h| h.starts_with(&c)),
        Err(_) => true,
    });
    out
}

/// Returns whether `inner` is `outer` or beneath it, comparing components.
pub(crate) fn is_beneath(inner: &Path, outer: &Path) -> bool {
    inner.starts_with(outer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &Path)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.as_os_str().to_owned()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn sandbox_policy_resolves_existing_caches_from_home_and_vars() {
        let home = tempfile::tempdir().expect("tempdir");
        let h = home.path();
        for d in [
            ".cargo/registry",
            ".cargo/bin",
            ".m2/repository",
            ".cache/pip",
            "gocache",
        ] {
            std::fs::create_dir_all(h.join(d)).expect("mkdir");
        }
        let gocache = h.join("gocache");
        let tmp = h.join("tmp");
        let env = env_of(&[("HOME", h), ("GOCACHE", &gocache), ("TMPDIR", &tmp)]);
        let got = resolve(&env);
        let paths: Vec<_> = got.iter().map(|w| (w.why, w.path.clone())).collect();
        assert_eq!(
            paths[0],
            ("temp", tmp.clone()),
            "the temp dir comes first, even missing"
        );
        assert!(paths.contains(&("cargo", h.join(".cargo/registry"))));
        assert!(paths.contains(&("maven", h.join(".m2/repository"))));
        assert!(paths.contains(&("pip", h.join(".cache/pip"))));
        assert!(paths.contains(&("go", gocache)));
        assert!(
            !paths
                .iter()
                .any(|(_, p)| p.ends_with(".cargo/bin") || p.ends_with(".cargo")),
            "cargo's bin/ and its home are never writable: {paths:?}"
        );
        assert!(
            !paths.iter().any(|(w, _)| *w == "npm"),
            "a cache that does not exist is not listed"
        );
    }

    #[test]
    fn sandbox_policy_ignores_relative_and_empty_values() {
        let env = env_of(&[("HOME", Path::new("")), ("CARGO_HOME", Path::new("rel"))]);
        let got = resolve(&env);
        assert_eq!(got.len(), 1, "only the temp dir: {got:?}");
        assert_eq!(got[0].path, PathBuf::from("/tmp"));
    }
}
