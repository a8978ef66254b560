//! Reading repository state in-process with gix: discovery, HEAD, refs and
//! configuration. Never writes.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// A failure to read a repository.
#[derive(Debug, Error)]
pub enum RepoError {
    /// gix could not open the repository that was found.
    #[error("could not open the git repository at `{path}`")]
    Open {
        /// Where discovery started.
        path: PathBuf,
        /// What gix reported.
        #[source]
        source: Box<gix::Error>,
    },
    /// HEAD could not be read.
    #[error("could not read HEAD")]
    Head(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Where HEAD points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// On a branch with at least one commit.
    Branch {
        /// The short branch name (`main`).
        name: String,
        /// The commit id, hex.
        id: String,
    },
    /// On a branch that has no commit yet.
    Unborn {
        /// The short branch name.
        name: String,
    },
    /// Detached at a commit.
    Detached {
        /// The commit id, hex.
        id: String,
    },
}

/// An open repository.
pub struct Repo {
    inner: gix::Repository,
    /// What a higher layer keeps with the open repository (the settings
    /// layer keeps the `fararoni.*` settings here, read on first use), so
    /// that a repository opened anew reads them anew.
    memo: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo")
            .field("git_dir", &self.git_dir())
            .field("workdir", &self.workdir())
            .finish()
    }
}

impl Repo {
    /// Finds the repository containing `dir`, honouring `GIT_DIR` and
    /// friends; `Ok(None)` when there is none.
    pub fn discover(dir: &Path) -> Result<Option<Repo>, RepoError> {
        match gix::discover_with_environment_overrides(dir) {
            Ok(inner) => Ok(Some(Repo {
                inner,
                memo: std::sync::OnceLock::new(),
            })),
            Err(e) if e.classify().is_not_found() => Ok(None),
            Err(source) => Err(RepoError::Open {
                path: dir.to_path_buf(),
                source: Box::new(source),
            }),
        }
    }

    /// Returns the gix repository, for reads this type does not wrap.
    pub fn gix(&self) -> &gix::Repository {
        &self.inner
    }

    /// Returns this worktree's git dir (`.git`, or `.git/worktrees/NAME`).
    pub fn git_dir(&self) -> &Path {
        self.inner.git_dir()
    }

    /// Returns the git dir shared by all worktrees.
    pub fn common_dir(&self) -> &Path {
        self.inner.common_dir()
    }

    /// Returns the top of the working tree; `None` for a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.inner.workdir()
    }

    /// Returns where HEAD points.
    pub fn head(&self) -> Result<Head, RepoError> {
        let head = self
            .inner
            .head()
            .map_err(|e| RepoError::Head(Box::new(e)))?;
        let name = head.referent_name().map(|n| n.shorten().to_string());
        let id = head.id().map(|id| id.to_string());
        Ok(match (name, id) {
            (Some(name), Some(id)) => Head::Branch { name, id },
            (Some(name), None) => Head::Unborn { name },
            (None, Some(id)) => Head::Detached { id },
            (None, None) => Head::Unborn {
                name: "HEAD".into(),
            },
        })
    }

    /// Returns the operation in progress (merge, rebase, …), if any.
    pub fn in_progress(&self) -> Option<&'static str> {
        use gix::state::InProgress::*;
        self.inner.state().map(|s| match s {
            ApplyMailbox | ApplyMailboxRebase => "am",
            Bisect => "bisect",
            CherryPick | CherryPickSequence => "cherry-pick",
            Merge => "merge",
            Rebase | RebaseInteractive => "rebase",
            Revert | RevertSequence => "revert",
        })
    }

    /// Returns whether `name` resolves to a commit, as `git checkout NAME`
    /// would take it: a revision expression that peels to a commit, or a
    /// branch of exactly one remote (which checkout turns into a local
    /// branch).
    pub fn resolves_to_commit(&self, name: &str) -> bool {
        if name.is_empty() || name.starts_with('-') {
            return false;
        }
        let resolved = self
            .inner
            .rev_parse_single(name)
            .ok()
            .and_then(|id| id.object().ok())
            .is_some_and(|o| o.peel_to_commit().is_ok());
        resolved || self.remote_branches_named(name) == 1
    }

    /// How many remotes have a branch called `name`.
    fn remote_branches_named(&self, name: &str) -> usize {
        let Ok(refs) = self.inner.references() else {
            return 0;
        };
        let Ok(remotes) = refs.remote_branches() else {
            return 0;
        };
        remotes
            .flatten()
            .filter(|r| {
                let full = r.name().as_bstr().to_string();
                full.strip_prefix("refs/remotes/")
                    .and_then(|rest| rest.split_once('/'))
                    .is_some_and(|(_, branch)| branch == name)
            })
            .count()
    }

    /// Returns whether the index has `rel` (relative to the top of the
    /// work tree) as a file or as a directory of files.
    pub fn index_has_path(&self, rel: &Path) -> bool {
        let Some(rel) = rel.to_str() else {
            return false;
        };
        let rel = rel.trim_end_matches('/');
        if rel.is_empty() {
            return true;
        }
        let Ok(index) = self.inner.index_or_empty() else {
            return false;
        };
        let dir = format!("{rel}/");
        index.entries().iter().any(|e| {
            let p = e.path(&index);
            p == rel.as_bytes() || p.starts_with(dir.as_bytes())
        })
    }

    /// Returns the content of `rel` (`/`-separated, from the top of the work
    /// tree) in the HEAD commit; `None` when HEAD has no such file.
    pub fn head_file(&self, rel: &str) -> Option<Vec<u8>> {
        let tree = self.inner.head_commit().ok()?.tree().ok()?;
        let entry = tree.lookup_entry_by_path(rel).ok()??;
        Some(entry.object().ok()?.data.clone())
    }

    /// Returns the value kept with this open repository, made by `init` on
    /// first use; `None` when a value of another type was kept first.
    pub fn memo<T: std::any::Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> Option<&T> {
        self.memo
            .get_or_init(|| Box::new(init()))
            .downcast_ref::<T>()
    }

    /// Returns a string value from the repository's configuration, `git -c`
    /// included.
    pub fn config_string(&self, key: &str) -> Option<String> {
        command_line_value(key).or_else(|| {
            self.inner
                .config_snapshot()
                .string(key)
                .map(|v| v.to_string())
        })
    }
}

/// Compares git config keys as git does: `section.sub.name` with the
/// section and name case-insensitive and the subsection exact.
pub fn same_key(a: &str, b: &str) -> bool {
    // Compared in place: every hook call looks its settings up in the
    // table, and a copy per comparison was a quarter of a read-only call.
    // Equal keys have equal lengths (every part compares length for
    // length), which settles most comparisons of a table scan at once.
    if a.len() != b.len() {
        return false;
    }
    fn split(k: &str) -> Option<(&str, &str, &str)> {
        let (section, rest) = k.split_once('.')?;
        let (sub, name) = rest.rsplit_once('.').unwrap_or(("", rest));
        Some((section, sub, name))
    }
    match (split(a), split(b)) {
        (Some((sa, ua, na)), Some((sb, ub, nb))) => {
            sa.eq_ignore_ascii_case(sb) && ua == ub && na.eq_ignore_ascii_case(nb)
        }
        _ => false,
    }
}

/// The value `git -c KEY=VALUE` gave `key`, the last one winning: git
/// passes them to `git fararoni` in `GIT_CONFIG_PARAMETERS`, which gix
/// does not read.
fn command_line_value(key: &str) -> Option<String> {
    command_line_config()
        .into_iter()
        .rev()
        .find(|(k, _)| same_key(k, key))
        .map(|(_, v)| v.unwrap_or_else(|| "true".into()))
}

/// Parses `GIT_CONFIG_PARAMETERS`: shell single-quoted items separated by
/// spaces, `'key'='value'` (git 2.31 and later) or `'key=value'`, a key
/// alone meaning true; `'\''` inside an item is a quote.
pub fn command_line_config() -> Vec<(String, Option<String>)> {
    match std::env::var("GIT_CONFIG_PARAMETERS") {
        Ok(text) => parse_config_parameters(&text),
        Err(_) => Vec::new(),
    }
}

fn parse_config_parameters(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let (mut cur, mut key) = (String::new(), None::<String>);
    let (mut quoted, mut started) = (false, false);
    let mut chars = text.chars();
    let mut finish = |cur: &mut String, key: &mut Option<String>, started: &mut bool| {
        if *started {
            let item = std::mem::take(cur);
            out.push(match key.take() {
                Some(k) => (k, Some(item)),
                None => match item.split_once('=') {
                    Some((k, v)) => (k.to_string(), Some(v.to_string())),
                    None => (item, None),
                },
            });
        }
        *started = false;
    };
    while let Some(c) = chars.next() {
        if quoted {
            if c == '\'' {
                quoted = false;
            } else {
                cur.push(c);
            }
            continue;
        }
        match c {
            '\'' => {
                quoted = true;
                started = true;
            }
            '\\' => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                started = true;
            }
            '=' if key.is_none() && started => key = Some(std::mem::take(&mut cur)),
            c if c.is_whitespace() => finish(&mut cur, &mut key, &mut started),
            c => {
                cur.push(c);
                started = true;
            }
        }
    }
    finish(&mut cur, &mut key, &mut started);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_c_parameters_parse_in_both_formats_with_quotes() {
        let got = parse_config_parameters(
            "'fararoni.chat.model'='a b' 'old.key=v=1' 'flag' 'q.k'='it'\\''s'",
        );
        assert_eq!(
            got,
            vec![
                ("fararoni.chat.model".to_string(), Some("a b".to_string())),
                ("old.key".to_string(), Some("v=1".to_string())),
                ("flag".to_string(), None),
                ("q.k".to_string(), Some("it's".to_string())),
            ]
        );
        assert!(parse_config_parameters("").is_empty());
    }
}
