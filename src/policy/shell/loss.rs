//! "What would be lost?": the repository questions a file-destroying
//! command raises. [`GitLoss`] answers them with gix for the layout and
//! the index, and one `git status` spawn, scoped to the targets, for the
//! modified and untracked-not-ignored files under them.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::git::repo::Repo;
use crate::git::run::GitCommand;

/// What deleting or overwriting some paths would lose.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Loss {
    /// Tracked files with uncommitted (staged or unstaged) changes.
    pub modified: Vec<PathBuf>,
    /// Untracked files that are not ignored.
    pub untracked: Vec<PathBuf>,
    /// Targets git tracks (files, or directories holding tracked files).
    pub tracked: Vec<PathBuf>,
}

/// The repository questions the shell judge asks. Paths are absolute.
pub trait LossFacts {
    /// The top of the working tree, resolved; `None` outside a repository.
    fn worktree(&self) -> Option<PathBuf>;
    /// The git dirs (this worktree's and the common one), resolved.
    fn git_dirs(&self) -> Vec<PathBuf>;
    /// The hooks folder git would run, resolved (`core.hooksPath`).
    fn hooks_dir(&self) -> Option<PathBuf>;
    /// What deleting or overwriting `paths` (inside the working tree, with
    /// everything below a directory) would lose; `Err` when git cannot
    /// tell, which the judge treats as a loss.
    fn loss(&self, paths: &[PathBuf]) -> Result<Loss, String>;
}

/// [`LossFacts`] of the repository around a directory.
pub struct GitLoss {
    cwd: PathBuf,
    repo: OnceCell<Option<Repo>>,
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

impl GitLoss {
    /// The repository around `cwd` (none is fine: every existing file then
    /// counts as precious).
    pub fn new(cwd: &Path) -> GitLoss {
        GitLoss {
            cwd: cwd.to_path_buf(),
            repo: OnceCell::new(),
        }
    }

    fn repo(&self) -> Option<&Repo> {
        self.repo
            .get_or_init(|| Repo::discover(&self.cwd).ok().flatten())
            .as_ref()
    }
}

impl LossFacts for GitLoss {
    fn worktree(&self) -> Option<PathBuf> {
        self.repo()?.workdir().map(canonical)
    }

    fn git_dirs(&self) -> Vec<PathBuf> {
        match self.repo() {
            Some(r) => {
                let mut v = vec![canonical(r.git_dir())];
                let common = canonical(r.common_dir());
                if !v.contains(&common) {
                    v.push(common);
                }
                v
            }
            None => Vec::new(),
        }
    }

    fn hooks_dir(&self) -> Option<PathBuf> {
        let repo = self.repo()?;
        match repo.config_string("core.hooksPath") {
            Some(p) if !p.is_empty() => {
                let p = PathBuf::from(p);
                let base = repo.workdir().unwrap_or(repo.common_dir());
                Some(canonical(&base.join(p)))
            }
            _ => Some(canonical(&repo.common_dir().join("hooks"))),
        }
    }

    fn loss(&self, paths: &[PathBuf]) -> Result<Loss, String> {
        let Some(repo) = self.repo() else {
            // No repository: every existing file is precious.
            let mut loss = Loss::default();
            for p in paths {
                count_files(p, &mut loss.untracked, 10_000);
            }
            return Ok(loss);
        };
        let Some(top) = repo.workdir().map(canonical) else {
            return Err("the repository has no working tree".into());
        };
        let mut rels = Vec::new();
        let mut loss = Loss::default();
        for p in paths {
            let rel = p
                .strip_prefix(&top)
                .map_err(|_| format!("{} is outside the working tree", p.display()))?;
            if repo.index_has_path(rel) {
                loss.tracked.push(p.clone());
            }
            let s = rel.to_str().ok_or("a path that is not UTF-8")?;
            rels.push(if s.is_empty() {
                ".".to_string()
            } else {
                s.to_string()
            });
        }
        if rels.is_empty() {
            return Ok(loss);
        }
        let mut args: Vec<String> = [
            "--literal-pathspecs",
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignored=no",
            "--no-renames",
            "--",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(rels);
        let out = GitCommand::new(args)
            .dir(&top)
            .protected()
            // A question must not take the index lock an agent's git needs.
            .env("GIT_OPTIONAL_LOCKS", "0")
            .read()
            .map_err(|e| format!("git status failed: {e}"))?;
        for entry in out.split('\0').filter(|e| e.len() > 3) {
            let (xy, path) = entry.split_at(3);
            let abs = top.join(path);
            if xy.starts_with("??") {
                loss.untracked.push(abs);
            } else {
                loss.modified.push(abs);
            }
        }
        Ok(loss)
    }
}

/// Counts the files at or under `p` (up to `limit`), for a place with no
/// repository to ask.
fn count_files(p: &Path, out: &mut Vec<PathBuf>, limit: usize) {
    if out.len() >= limit {
        return;
    }
    match p.symlink_metadata() {
        Ok(m) if m.is_dir() => {
            if let Ok(rd) = std::fs::read_dir(p) {
                for e in rd.flatten() {
                    count_files(&e.path(), out, limit);
                }
            }
        }
        Ok(_) => out.push(p.to_path_buf()),
        Err(_) => {}
    }
}
