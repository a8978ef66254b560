//! The git steps a saga is made of, each one a `git` invocation run at the
//! top of the working tree (so the user's hooks and config apply), plus
//! the reads that decide which step comes next: refs, trees, status,
//! `git merge-tree` and snapshots built in a temporary index.
//!
//! Never prints; never touches the user's index or working tree except
//! through the explicit step functions.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::git::pathspec::{self, ONLY_STORE};
use crate::git::plumbing::{self, Merge};
use crate::git::run::Actor;
use crate::git::status::{self, Entry, EntryKind, WorktreeSide};
use crate::git::{GitCommand, Repo};
use crate::lock::{RepoLock, DEFAULT_WAIT};

use super::state;
use super::SagaError;

/// Identity of the internal snapshot commits (never on a user's branch).
const SNAPSHOT_IDENT: [(&str, &str); 4] = [
    ("GIT_AUTHOR_NAME", "git-fararoni"),
    ("GIT_AUTHOR_EMAIL", "git-fararoni@localhost"),
    ("GIT_COMMITTER_NAME", "git-fararoni"),
    ("GIT_COMMITTER_EMAIL", "git-fararoni@localhost"),
];

/// An open worktree and how to run git in it.
pub(crate) struct Ctx {
    pub repo: Repo,
    pub workdir: PathBuf,
    pub git_dir: PathBuf,
    pub common_dir: PathBuf,
    pub actor: Actor,
    /// The saga id, exported to hooks as `FARARONI_TX`.
    pub tx: Option<String>,
}

/// Removes a temporary index file (and its lock) when dropped.
struct TempIndex(PathBuf);

impl Drop for TempIndex {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
        let mut lock = self.0.clone().into_os_string();
        lock.push(".lock");
        let _ = fs::remove_file(PathBuf::from(lock));
    }
}

impl Ctx {
    /// Opens the worktree containing `dir`.
    pub fn open(dir: &Path, actor: Actor) -> Result<Ctx, SagaError> {
        let repo = Repo::discover(dir)?.ok_or_else(|| SagaError::NotARepository {
            path: dir.to_path_buf(),
        })?;
        let workdir = repo
            .workdir()
            .ok_or_else(|| SagaError::Bare {
                path: repo.git_dir().to_path_buf(),
            })?
            .to_path_buf();
        let git_dir = absolute(repo.git_dir(), dir);
        let common_dir = absolute(repo.common_dir(), dir);
        let workdir = absolute(&workdir, dir);
        Ok(Ctx {
            repo,
            workdir,
            git_dir,
            common_dir,
            actor,
            tx: None,
        })
    }

    /// Returns this worktree's saga state file.
    pub fn state_path(&self) -> PathBuf {
        state::state_path(&self.git_dir)
    }

    /// Takes the repository lock, then removes temporary indexes left by a
    /// git-fararoni that was killed (only a lock holder makes them).
    pub fn lock(&self) -> Result<RepoLock, SagaError> {
        let lock = RepoLock::acquire(&self.common_dir, DEFAULT_WAIT)?;
        if let Ok(rd) = fs::read_dir(self.git_dir.join("fararoni")) {
            for e in rd.flatten() {
                if e.file_name()
                    .to_string_lossy()
                    .starts_with("index.snapshot.")
                {
                    let _ = fs::remove_file(e.path());
                }
            }
        }
        Ok(lock)
    }

    /// Returns a git invocation in the top of the working tree.
    pub fn git<I, S>(&self, args: I) -> GitCommand
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = GitCommand::new(args)
            .dir(&self.workdir)
            .actor(self.actor)
            .env("GIT_TERMINAL_PROMPT", "0");
        if let Some(tx) = &self.tx {
            cmd = cmd.env("FARARONI_TX", tx);
        }
        cmd
    }

    /// Runs git and returns its stdout, failing unless it exits 0.
    pub fn read(&self, args: &[&str]) -> Result<String, SagaError> {
        Ok(self.git(args).read()?)
    }

    /// Runs git for its effect, failing unless it exits 0.
    pub fn run(&self, args: &[&str]) -> Result<(), SagaError> {
        self.git(args).read()?;
        Ok(())
    }

    /// Returns the commit `spec` names, or `None` when it names nothing.
    pub fn rev(&self, spec: &str) -> Result<Option<String>, SagaError> {
        let arg = format!("{spec}^{{commit}}");
        Ok(self
            .git(["rev-parse", "--verify", "-q", "--end-of-options", &arg])
            .read_optional()?)
    }

    /// Returns the tip of the saga's original branch, or says it is gone.
    pub fn original_tip(&self, saga: &state::Saga) -> Result<String, SagaError> {
        self.rev(&saga.original_ref())?
            .ok_or_else(|| SagaError::OriginalBranchMissing {
                branch: saga.original_branch.clone(),
                base: saga.base.clone(),
            })
    }

    /// Returns the tip of the saga's wip branch, or says it is gone.
    pub fn wip_tip(&self, saga: &state::Saga) -> Result<String, SagaError> {
        self.rev(&saga.wip_ref())?
            .ok_or_else(|| SagaError::WipBranchMissing {
                branch: saga.wip_branch.clone(),
            })
    }

    /// Returns the tree of commit (or tree-ish) `spec`.
    pub fn tree(&self, spec: &str) -> Result<String, SagaError> {
        let arg = format!("{spec}^{{tree}}");
        Ok(self
            .read(&["rev-parse", "--verify", "--end-of-options", &arg])?
            .trim()
            .to_string())
    }

    /// Returns the full ref HEAD is on, or `None` when it is detached.
    pub fn head_ref(&self) -> Result<Option<String>, SagaError> {
        Ok(self.git(["symbolic-ref", "-q", "HEAD"]).read_optional()?)
    }

    /// Returns the raw `git status --porcelain=v2 -z` of everything but
    /// `.fararoni/`, untracked files included (ignored ones not).
    pub fn status_raw(&self) -> Result<Vec<u8>, SagaError> {
        let cmd = self
            .git(
                ["--no-optional-locks"]
                    .into_iter()
                    .chain(status::ARGS)
                    .chain(["--untracked-files=all"]),
            )
            .user_work();
        let out = cmd.output()?;
        if !out.status.success() {
            return Err(cmd.failed(&out).into());
        }
        Ok(out.stdout)
    }

    /// Returns every path that differs between HEAD, index and working tree.
    pub fn status(&self) -> Result<Vec<Entry>, SagaError> {
        status::parse(&self.status_raw()?).map_err(|detail| SagaError::GitOutput {
            args: "status --porcelain=v2 -z".into(),
            detail,
        })
    }

    /// Returns the trees of the working tree and of the index as they are,
    /// built in a temporary copy of the index (the real one is untouched).
    pub fn snapshot_trees(&self) -> Result<(String, String), SagaError> {
        let index = self.index_path()?;
        let tmp = self
            .git_dir
            .join("fararoni")
            .join(format!("index.snapshot.{}", std::process::id()));
        fs::create_dir_all(self.git_dir.join("fararoni")).map_err(|source| SagaError::Io {
            path: self.git_dir.join("fararoni"),
            source,
        })?;
        let guard = TempIndex(tmp.clone());
        let _ = fs::remove_file(&tmp);
        match fs::copy(&index, &tmp) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(SagaError::Io {
                    path: index,
                    source,
                })
            }
        }
        let with_index = |args: &[&str]| self.git(args).env("GIT_INDEX_FILE", &tmp);
        let index_tree = with_index(&["write-tree"]).read()?.trim().to_string();
        self.stage_user_work(Some(&tmp), &index_tree)?;
        let work_tree = with_index(&["write-tree"]).read()?.trim().to_string();
        drop(guard);
        Ok((work_tree, index_tree))
    }

    /// Stages every change of the working tree but the store's into the
    /// index (`index`, or the real one), then checks that the store's part
    /// of the index is still that of tree `store_as_in` (what the index
    /// held before). Our snapshots and commits keep the store out because
    /// of this check, not only because git honours the pathspec.
    pub fn stage_user_work(
        &self,
        index: Option<&Path>,
        store_as_in: &str,
    ) -> Result<(), SagaError> {
        let with_index = |cmd: GitCommand| match index {
            Some(i) => cmd.env("GIT_INDEX_FILE", i),
            None => cmd,
        };
        with_index(self.git(["add", "--all"]).user_work()).read()?;
        let staged = store_paths(
            &with_index(
                self.git(["diff-index", "--cached", store_as_in])
                    .extend_args(STORE_DIFF),
            )
            .pathspecs_as_written()
            .read()?,
        );
        if staged.is_empty() {
            Ok(())
        } else {
            Err(SagaError::StoreStaged { paths: staged })
        }
    }

    /// Returns the store's paths that tree `to` adds or changes relative to
    /// `from`: what a commit of `to` on top of `from` would bring in.
    pub fn store_changes(&self, from: &str, to: &str) -> Result<Vec<String>, SagaError> {
        let out = self
            .git(["diff-tree", "-r", from, to])
            .extend_args(STORE_DIFF)
            .pathspecs_as_written()
            .read()?;
        Ok(store_paths(&out))
    }

    /// Creates an internal commit (never on a branch) and returns its id.
    pub fn commit_tree(
        &self,
        tree: &str,
        parents: &[&str],
        message: &str,
    ) -> Result<String, SagaError> {
        let mut args = vec!["commit-tree", "--no-gpg-sign", tree];
        for p in parents {
            args.push("-p");
            args.push(p);
        }
        args.push("-m");
        args.push(message);
        let mut cmd = self.git(&args);
        for (k, v) in SNAPSHOT_IDENT {
            cmd = cmd.env(k, v);
        }
        Ok(cmd.read()?.trim().to_string())
    }

    /// Merges commits `ours` and `theirs` in memory (`git merge-tree
    /// --write-tree`), with `base` as merge base when given; touches
    /// neither the index nor the working tree.
    pub fn merge_tree(
        &self,
        ours: &str,
        theirs: &str,
        base: Option<&str>,
    ) -> Result<Merge, SagaError> {
        let base_arg = base.map(|b| format!("--merge-base={b}"));
        let mut args = plumbing::MERGE_TREE.to_vec();
        if let Some(b) = &base_arg {
            args.push(b);
        }
        args.push(ours);
        args.push(theirs);
        let cmd = self.git(&args);
        let out = cmd.output()?;
        let code = out.status.code().unwrap_or(-1);
        match plumbing::merge(code, &out.stdout) {
            None => Err(cmd.failed(&out).into()),
            Some(Ok(merge)) => Ok(merge),
            Some(Err(detail)) => Err(SagaError::GitOutput {
                args: cmd.display_args(),
                detail,
            }),
        }
    }

    /// Points `name` at `new`.
    pub fn update_ref(&self, name: &str, new: &str, reason: &str) -> Result<(), SagaError> {
        self.run(&["update-ref", "-m", reason, name, new])
    }

    /// Deletes `name` if it still points at `old`.
    pub fn delete_ref(&self, name: &str, old: &str) -> Result<(), SagaError> {
        self.run(&["update-ref", "-d", name, old])
    }

    /// Returns the path of the index file (honouring `GIT_INDEX_FILE`).
    pub fn index_path(&self) -> Result<PathBuf, SagaError> {
        let p = self.read(&["rev-parse", "--git-path", "index"])?;
        Ok(absolute(Path::new(p.trim_end_matches('\n')), &self.workdir))
    }

    /// Waits briefly for git's index lock to go away (a git process still
    /// finishing, e.g. one orphaned by a killed git-fararoni).
    pub fn wait_index_lock(&self) -> Result<(), SagaError> {
        let mut lock = self.index_path()?.into_os_string();
        lock.push(".lock");
        let lock = PathBuf::from(lock);
        let deadline = Instant::now() + Duration::from_secs(3);
        while lock.exists() {
            if Instant::now() >= deadline {
                return Err(SagaError::IndexLocked { path: lock });
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        Ok(())
    }

    /// Returns the path of the index lock if it exists.
    pub fn index_lock(&self) -> Option<PathBuf> {
        let mut lock = self.index_path().ok()?.into_os_string();
        lock.push(".lock");
        let lock = PathBuf::from(lock);
        lock.exists().then_some(lock)
    }

    /// Returns another worktree that has `full_ref` checked out.
    pub fn checked_out_elsewhere(&self, full_ref: &str) -> Result<Option<PathBuf>, SagaError> {
        let out = self.read(&["worktree", "list", "--porcelain", "-z"])?;
        let here = fs::canonicalize(&self.workdir).unwrap_or_else(|_| self.workdir.clone());
        Ok(plumbing::worktrees_on(&out, full_ref)
            .into_iter()
            .find(|p| fs::canonicalize(p).unwrap_or_else(|_| p.clone()) != here))
    }

    /// Returns the blob id of every file in `tree`, by path.
    pub fn ls_tree(&self, tree: &str) -> Result<HashMap<String, String>, SagaError> {
        let out = self
            .git(["ls-tree", "-r", "-z", "--full-tree", tree])
            .output()?;
        if !out.status.success() {
            return Err(SagaError::GitOutput {
                args: format!("ls-tree -r {tree}"),
                detail: String::from_utf8_lossy(&out.stderr).into_owned(),
            });
        }
        Ok(plumbing::ls_tree(&out.stdout))
    }

    /// Returns the blob id git would store for each working file (`None`
    /// when the file does not exist), as `git add` would compute it.
    pub fn hash_worktree(
        &self,
        paths: &[String],
    ) -> Result<HashMap<String, Option<String>>, SagaError> {
        let mut result = HashMap::new();
        let mut regular = Vec::new();
        for p in paths {
            let full = self.workdir.join(p);
            match fs::symlink_metadata(&full) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    result.insert(p.clone(), None);
                }
                Err(source) => return Err(SagaError::Io { path: full, source }),
                Ok(m) if m.file_type().is_symlink() => {
                    let target = fs::read_link(&full).map_err(|source| SagaError::Io {
                        path: full.clone(),
                        source,
                    })?;
                    let bytes = target.as_os_str().as_encoded_bytes();
                    let id = gix::objs::compute_hash(
                        gix::hash::Kind::Sha1,
                        gix::objs::Kind::Blob,
                        bytes,
                    )
                    .map(|id| id.to_string())
                    .ok();
                    result.insert(p.clone(), id);
                }
                Ok(m) if m.is_dir() => {
                    // A directory where a file was: not something git stores as a blob.
                    result.insert(p.clone(), Some("(directory)".into()));
                }
                Ok(_) if p.contains('\n') => {
                    result.insert(p.clone(), Some("(unhashable name)".into()));
                }
                Ok(_) => regular.push(p.clone()),
            }
        }
        if !regular.is_empty() {
            let cmd = self.git(["hash-object", "--stdin-paths"]);
            let input: String = regular.iter().map(|p| format!("{p}\n")).collect();
            let out = cmd.output_with_stdin(input.into_bytes())?;
            if !out.status.success() {
                return Err(cmd.failed(&out).into());
            }
            let text = String::from_utf8_lossy(&out.stdout);
            let ids: Vec<&str> = text.lines().collect();
            if ids.len() != regular.len() {
                return Err(SagaError::GitOutput {
                    args: cmd.display_args(),
                    detail: format!("{} ids for {} paths", ids.len(), regular.len()),
                });
            }
            for (p, id) in regular.into_iter().zip(ids) {
                result.insert(p, Some(id.trim().to_string()));
            }
        }
        Ok(result)
    }

    /// Returns the paths among `entries` whose content would be lost by
    /// making the index and working tree one of `trees`.
    ///
    /// The index must hold, for each path, the version of one of `trees`
    /// (or none where a tree has none): git writes the index atomically, so
    /// an interrupted step leaves it old or new. A working file may also be
    /// missing, or hold a prefix of one of those versions: git writes files
    /// in place, and one killed half-way leaves a file unlinked, empty or
    /// truncated. None of these hold anything the trees do not. An empty
    /// result means completing the step from the recorded trees loses
    /// nothing.
    pub fn unexplained(&self, entries: &[Entry], trees: &[&str]) -> Result<Vec<String>, SagaError> {
        let maps = trees
            .iter()
            .map(|t| self.ls_tree(t))
            .collect::<Result<Vec<_>, _>>()?;
        let known = |path: &str, version: Option<&str>| {
            maps.iter()
                .any(|m| m.get(path).map(String::as_str) == version)
        };
        let to_hash: Vec<String> = entries
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EntryKind::Untracked
                        | EntryKind::Changed {
                            worktree: WorktreeSide::Modified,
                            ..
                        }
                )
            })
            .map(|e| e.path.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let hashes = self.hash_worktree(&to_hash)?;
        let worktree_ok = |path: &str, version: Option<&str>| -> Result<bool, SagaError> {
            if version.is_none() || known(path, version) {
                return Ok(true);
            }
            let candidates: BTreeSet<&String> = maps.iter().filter_map(|m| m.get(path)).collect();
            self.is_prefix_of_any(path, &candidates)
        };
        let mut bad = BTreeSet::new();
        for e in entries {
            let ok = match &e.kind {
                EntryKind::Unmerged => false,
                // Not asked for (the status lists no ignored paths).
                EntryKind::Ignored => true,
                EntryKind::Untracked => {
                    let w = hashes.get(&e.path).cloned().flatten();
                    worktree_ok(&e.path, w.as_deref())?
                }
                EntryKind::Changed { index, worktree } => {
                    let w = match worktree {
                        WorktreeSide::SameAsIndex => index.clone(),
                        WorktreeSide::Deleted => None,
                        WorktreeSide::Modified => hashes.get(&e.path).cloned().flatten(),
                    };
                    known(&e.path, index.as_deref()) && worktree_ok(&e.path, w.as_deref())?
                }
            };
            if !ok {
                bad.insert(e.path.clone());
            }
        }
        Ok(bad.into_iter().collect())
    }

    /// Returns whether the working file `path` holds a prefix (possibly
    /// empty) of one of the blobs `candidates`, as checked out by git.
    fn is_prefix_of_any(
        &self,
        path: &str,
        candidates: &BTreeSet<&String>,
    ) -> Result<bool, SagaError> {
        let full = self.workdir.join(path);
        let Ok(meta) = fs::symlink_metadata(&full) else {
            return Ok(false);
        };
        if !meta.is_file() || candidates.is_empty() {
            return Ok(false);
        }
        let bytes = fs::read(&full).map_err(|source| SagaError::Io {
            path: full.clone(),
            source,
        })?;
        if bytes.is_empty() {
            return Ok(true);
        }
        let path_arg = format!("--path={path}");
        for oid in candidates {
            let out = self
                .git(["cat-file", "--filters", &path_arg, oid.as_str()])
                .output()?;
            if out.status.success() && out.stdout.starts_with(&bytes) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Makes the index and working tree exactly `tree` (files in the way
    /// are overwritten, files in the old index but not in `tree` removed).
    /// Only called after [`Ctx::unexplained`] proved that loses nothing.
    pub fn force_tree(&self, tree: &str) -> Result<(), SagaError> {
        self.run(&["read-tree", "--reset", "-u", tree])
    }

    /// Returns the subjects of the commits in `from..to`, oldest first.
    pub fn subjects(&self, from: &str, to: &str) -> Result<Vec<String>, SagaError> {
        let range = format!("{from}..{to}");
        let out = self.read(&[
            "log",
            "--reverse",
            "--no-merges",
            "--format=%s%x00",
            &range,
            "--",
        ])?;
        Ok(out
            .split('\0')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect())
    }

    /// Returns the number of commits in `from..to`, merges not counted.
    pub fn count(&self, from: &str, to: &str) -> Result<usize, SagaError> {
        let range = format!("{from}..{to}");
        let out = self.read(&["rev-list", "--count", "--no-merges", &range, "--"])?;
        out.trim().parse().map_err(|_| SagaError::GitOutput {
            args: format!("rev-list --count {range}"),
            detail: out.clone(),
        })
    }

    /// Returns the parents, tree and subject of `commit`.
    pub fn commit_info(&self, commit: &str) -> Result<(Vec<String>, String, String), SagaError> {
        let out = self.read(&["log", "-1", "--format=%P%x00%T%x00%s", commit, "--"])?;
        let mut parts = out.trim_end_matches('\n').splitn(3, '\0');
        let parents = parts
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect();
        let tree = parts.next().unwrap_or_default().to_string();
        let subject = parts.next().unwrap_or_default().to_string();
        Ok((parents, tree, subject))
    }
}

/// Makes `p` absolute against `base` (gix may report relative paths).
fn absolute(p: &Path, base: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        let base = if base.is_absolute() {
            base.to_path_buf()
        } else {
            std::env::current_dir()
                .map(|c| c.join(base))
                .unwrap_or_else(|_| base.to_path_buf())
        };
        base.join(p)
    }
}

/// The arguments that make a `diff-index`/`diff-tree` list the store's
/// paths that would enter a commit (added or changed; a deletion takes
/// the store out, which is welcome), NUL-terminated.
const STORE_DIFF: [&str; 6] = [
    "--no-renames",
    "--name-only",
    "--diff-filter=d",
    "-z",
    "--",
    ONLY_STORE,
];

/// Returns the store's paths in a NUL-separated list of paths.
fn store_paths(list: &str) -> Vec<String> {
    list.split('\0')
        .filter(|p| pathspec::in_store(p))
        .map(String::from)
        .collect()
}
