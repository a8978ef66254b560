//! What the git hooks check: `pre-commit` (the store never committed, no
//! staged file gutted, saga warnings) and `post-checkout` (leaving a
//! saga's wip branch, the store excluded).
//!
//! Read-only apart from `info/exclude`, and lock-free: a hook runs inside
//! a git that one of our own commands may have started while it holds the
//! repository lock. Never prints.

use std::path::{Path, PathBuf};

use serde::Serialize;
use thiserror::Error;

use crate::git::{GitCommand, GitError, Head, Repo, RepoError};
use crate::guard::killswitch::{Change, ChangedFile, Report};
use crate::hooks::pairs;
use crate::saga::{self, Phase, Saga};
use crate::settings::read::SettingWarning;

/// `FARARONI_GUARD=off` turns the pre-commit checks off, as `--no-verify` does.
pub use crate::settings::read::GUARD_ENV;

/// Git's id of the empty tree (SHA-1), for a commit on an unborn branch.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// A failure of a hook's own work (not a verdict).
#[derive(Debug, Error)]
pub enum CheckError {
    /// Not inside a repository with a working tree.
    #[error("not inside a git working tree")]
    NotARepo,
    /// The repository could not be read.
    #[error(transparent)]
    Repo(#[from] RepoError),
    /// git failed.
    #[error(transparent)]
    Git(#[from] GitError),
    /// A staged or committed blob could not be read.
    #[error("could not read the {which} content of `{path}`")]
    Blob {
        /// `staged` or `HEAD`.
        which: &'static str,
        /// The path.
        path: String,
    },
    /// The kill-switch settings cannot be read.
    #[error(transparent)]
    Guard(#[from] crate::guard::GuardError),
    /// The saga's record cannot be read.
    #[error(transparent)]
    Saga(#[from] saga::SagaError),
    /// The store could not be added to `info/exclude`.
    #[error(transparent)]
    Shadow(#[from] crate::shadow::ShadowError),
}

/// A staged file the kill-switch blocked.
#[derive(Debug, Clone, Serialize)]
pub struct Gutted {
    /// The repository-relative path.
    pub path: String,
    /// The kill-switch's measurements and reasons.
    #[serde(serialize_with = "report_json")]
    pub report: Report,
}

fn report_json<S: serde::Serializer>(r: &Report, s: S) -> Result<S::Ok, S::Error> {
    r.to_json().serialize(s)
}

/// What `pre-commit` found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PreCommit {
    /// Staged paths under the shadow store `.fararoni/`.
    pub store_paths: Vec<String>,
    /// Staged modified files the kill-switch blocked.
    pub gutted: Vec<Gutted>,
    /// How many staged modified files were compared with HEAD.
    pub checked: usize,
    /// Things to tell the committer that do not block.
    pub warnings: Vec<String>,
    /// Protective settings weaker than their floor (the floor was used).
    #[serde(skip)]
    pub setting_warnings: Vec<SettingWarning>,
}

impl PreCommit {
    /// Returns whether the commit must be refused.
    pub fn blocked(&self) -> bool {
        !self.store_paths.is_empty() || !self.gutted.is_empty()
    }
}

/// Returns whether the guard was turned off for this commit.
pub fn guard_off() -> bool {
    crate::settings::read::guard_off()
}

fn open(dir: &Path) -> Result<(Repo, std::path::PathBuf), CheckError> {
    let repo = Repo::discover(dir)?.ok_or(CheckError::NotARepo)?;
    let top = repo.workdir().ok_or(CheckError::NotARepo)?.to_path_buf();
    Ok((repo, top))
}

/// Whether a staged path lies in the shadow store: the top folder
/// `.fararoni`, or a store moved aside; case is ignored, as on a
/// case-insensitive file system `.FARARONI` is the same folder.
fn in_store(path: &str) -> bool {
    let first = path
        .split('/')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    // `.fararoni.corrupt-*`: a store moved aside after failing validation.
    first == crate::shadow::STORE_DIR || first.starts_with(".fararoni.corrupt-")
}

/// One line of `git diff-index --raw -z`: modes, ids, status, path.
struct Staged {
    old_mode: String,
    new_mode: String,
    old_id: String,
    new_id: String,
    status: char,
    path: String,
}

fn staged(top: &Path, head: &Head) -> Result<Vec<Staged>, CheckError> {
    let base = match head {
        Head::Unborn { .. } => EMPTY_TREE,
        _ => "HEAD",
    };
    let raw = GitCommand::new([
        "diff-index",
        "--cached",
        "--raw",
        "-z",
        "--no-renames",
        "--no-abbrev",
        "--ignore-submodules=all",
        base,
    ])
    .dir(top)
    .read()?;
    let mut fields = raw.split('\0');
    let mut out = Vec::new();
    while let Some(meta) = fields.next() {
        let Some(meta) = meta.strip_prefix(':') else {
            continue;
        };
        let Some(path) = fields.next() else { break };
        let parts: Vec<&str> = meta.split(' ').collect();
        if let [old_mode, new_mode, old_id, new_id, status] = parts.as_slice() {
            out.push(Staged {
                old_mode: old_mode.to_string(),
                new_mode: new_mode.to_string(),
                old_id: old_id.to_string(),
                new_id: new_id.to_string(),
                status: status.chars().next().unwrap_or('?'),
                path: path.to_string(),
            });
        }
    }
    Ok(out)
}

fn blob(repo: &Repo, id: &str, which: &'static str, path: &str) -> Result<Vec<u8>, CheckError> {
    let err = || CheckError::Blob {
        which,
        path: path.to_string(),
    };
    let oid = gix::ObjectId::from_hex(id.as_bytes()).map_err(|_| err())?;
    let object = repo.gix().find_object(oid).map_err(|_| err())?;
    Ok(object.data.clone())
}

fn is_regular(mode: &str) -> bool {
    matches!(mode, "100644" | "100755")
}

/// Whether the index is exactly HEAD's tree, known without a diff: git's
/// own cache tree (the index's TREE extension) has a valid root that
/// counts every entry and names HEAD's tree. That root is the tree `git
/// commit` writes, so the commit changes no file: nothing to check, and no
/// `git diff-index` process to start (the no-op path of every commit in a
/// clean repository, and of `commit --amend -m`).
fn index_is_head(repo: &Repo) -> bool {
    // The index git is committing: `commit -a` and `commit FILE` hand the
    // hook a temporary one in GIT_INDEX_FILE. gix reads that variable too;
    // should the two ever disagree, git answers instead.
    if let Some(file) = std::env::var_os("GIT_INDEX_FILE") {
        let file = repo
            .workdir()
            .map_or_else(|| PathBuf::from(&file), |top| top.join(&file));
        let same = std::fs::canonicalize(&file)
            .ok()
            .zip(std::fs::canonicalize(repo.gix().index_path()).ok())
            .is_some_and(|(a, b)| a == b);
        if !same {
            return false;
        }
    }
    let Ok(index) = repo.gix().index() else {
        return false;
    };
    let Some(tree) = index.tree() else {
        return false;
    };
    let Ok(count) = u32::try_from(index.entries().len()) else {
        return false;
    };
    if tree.num_entries != Some(count) {
        return false;
    }
    repo.gix()
        .head_commit()
        .ok()
        .and_then(|c| c.tree_id().ok())
        .is_some_and(|id| id.detach() == tree.id)
}

/// Runs the pre-commit checks in the repository containing `dir`.
pub fn pre_commit(dir: &Path) -> Result<PreCommit, CheckError> {
    pre_commit_with(dir, &mut |_, _| {})
}

/// [`pre_commit`], calling `progress(done, total)` after each file judged.
pub fn pre_commit_with(
    dir: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<PreCommit, CheckError> {
    let (repo, top) = open(dir)?;
    let head = repo.head()?;
    let mut found = PreCommit::default();
    let entries = if matches!(head, Head::Unborn { .. }) || !index_is_head(&repo) {
        staged(&top, &head)?
    } else {
        Vec::new()
    };
    found.store_paths = entries
        .iter()
        .filter(|e| e.status != 'D' && in_store(&e.path))
        .map(|e| e.path.clone())
        .collect();
    let mut judged: Vec<Judged> = Vec::new();
    let ours = |e: &&Staged| !in_store(&e.path);
    for e in entries.iter().filter(ours) {
        if e.status == 'M' && is_regular(&e.old_mode) && is_regular(&e.new_mode) {
            let old = blob(&repo, &e.old_id, "HEAD", &e.path)?;
            let new = blob(&repo, &e.new_id, "staged", &e.path)?;
            judged.push(Judged {
                shown: e.path.clone(),
                path: e.path.clone(),
                old,
                new,
            });
        }
    }
    let (moves, added) = moved(&repo, &entries)?;
    judged.extend(moves);
    judged.extend(through_links(&repo, &entries)?);
    if !judged.is_empty() {
        let (t, warnings) = crate::guard::write::configured_thresholds(Some(&repo))?;
        found.setting_warnings = warnings;
        // The commit is one change: code a file loses and another gains
        // (a function moved from `a.py` to `b.py`) was moved, not removed.
        // The files added as they are take part as well; a deleted file
        // gains nothing.
        let mut files: Vec<ChangedFile> = judged
            .iter()
            .map(|j| (j.path.as_str(), Some(j.old.as_slice()), j.new.as_slice()))
            .collect();
        files.extend(added.iter().map(|a| (a.path, None, a.data.as_slice())));
        let change = Change::new(&files);
        let total = judged.len();
        for (i, j) in judged.iter().enumerate() {
            // The path names the language (comment syntax, stubs).
            let Some(report) = change.check(i, &t) else {
                continue;
            };
            found.checked += 1;
            progress(found.checked, total);
            if report.blocked() {
                found.gutted.push(Gutted {
                    path: j.shown.clone(),
                    report,
                });
            }
        }
    }
    if let Some(saga) = saga::load_state(&saga::state_path(repo.git_dir()))? {
        found.warnings.extend(saga_warnings(&saga, &head));
    }
    Ok(found)
}

/// A staged change and the HEAD content it replaces.
struct Judged {
    /// How the report names it (`a -> b`, `link (symlink)`).
    shown: String,
    /// The path whose name says the language.
    path: String,
    /// The content at HEAD.
    old: Vec<u8>,
    /// The content the commit gives it.
    new: Vec<u8>,
}

/// Files the commit moves (a deletion and an addition that are one file,
/// [`pairs::moves`]): judged from the old path's content to the new. Also
/// returns the files added that are no such move (new files of their own).
fn moved<'e>(
    repo: &Repo,
    entries: &'e [Staged],
) -> Result<(Vec<Judged>, Vec<pairs::Added<'e>>), CheckError> {
    let (mut gone, mut added) = (Vec::new(), Vec::new());
    for e in entries.iter().filter(|e| !in_store(&e.path)) {
        match e.status {
            'D' if is_regular(&e.old_mode) => gone.push(pairs::Gone {
                path: &e.path,
                data: blob(repo, &e.old_id, "HEAD", &e.path)?,
            }),
            'A' if is_regular(&e.new_mode) => added.push(pairs::Added {
                path: &e.path,
                data: blob(repo, &e.new_id, "staged", &e.path)?,
            }),
            _ => {}
        }
    }
    let pairs = pairs::moves(&gone, &added);
    let paired: std::collections::HashSet<String> = pairs
        .iter()
        .flat_map(|m| m.to.iter().map(|p| p.to_string()))
        .collect();
    let moves: Vec<Judged> = pairs
        .into_iter()
        .map(|m| Judged {
            shown: format!("{} -> {}", m.from, m.to.join(", ")),
            path: m.to.first().copied().unwrap_or(m.from).to_string(),
            old: m.old.to_vec(),
            new: m.new,
        })
        .collect();
    let alone: Vec<pairs::Added<'e>> = added
        .into_iter()
        .filter(|a| !paired.contains(a.path))
        .collect();
    Ok((moves, alone))
}

/// Paths whose content is or was reached through a symlink: a file
/// replaced by a link, a link retargeted, a link replaced by a file. The
/// content a link shows is its target's (HEAD's for the old side, the
/// index's for the new); a link that leads out of the repository shows
/// nothing of it — an old one is not ours to judge, a new one empties the
/// path.
fn through_links(repo: &Repo, entries: &[Staged]) -> Result<Vec<Judged>, CheckError> {
    const LINK: &str = "120000";
    let (head, index) = (pairs::in_head(repo), pairs::in_index(repo));
    let mut out = Vec::new();
    for e in entries.iter().filter(|e| !in_store(&e.path)) {
        if !matches!(e.status, 'M' | 'T') || (e.old_mode != LINK && e.new_mode != LINK) {
            continue;
        }
        let old = if is_regular(&e.old_mode) {
            Some(blob(repo, &e.old_id, "HEAD", &e.path)?)
        } else if e.old_mode == LINK {
            let target = blob(repo, &e.old_id, "HEAD", &e.path)?;
            pairs::through_link(&e.path, &target, &head)
        } else {
            None
        };
        let Some(old) = old else { continue };
        let new = if is_regular(&e.new_mode) {
            blob(repo, &e.new_id, "staged", &e.path)?
        } else if e.new_mode == LINK {
            let target = blob(repo, &e.new_id, "staged", &e.path)?;
            pairs::through_link(&e.path, &target, &index).unwrap_or_default()
        } else {
            continue;
        };
        out.push(Judged {
            shown: format!("{} (symlink)", e.path),
            path: e.path.clone(),
            old,
            new,
        });
    }
    Ok(out)
}

/// Whether the git running this hook was started by our agent.
fn by_agent() -> bool {
    std::env::var("FARARONI_ACTOR").is_ok_and(|a| a == "agent")
}

fn saga_warnings(saga: &Saga, head: &Head) -> Vec<String> {
    let branch = match head {
        Head::Branch { name, .. } | Head::Unborn { name } => name.as_str(),
        Head::Detached { .. } => return Vec::new(),
    };
    let mut out = Vec::new();
    if saga.phase != Phase::Active {
        return out;
    }
    if branch == saga.original_branch {
        out.push(format!(
            "saga `{}` is active on `{}`, but this commit lands on `{}`, its original branch; the saga's squash will go on top of it (`git fararoni saga status`)",
            saga.id, saga.wip_branch, saga.original_branch
        ));
    } else if branch == saga.wip_branch && !by_agent() {
        out.push(format!(
            "`{}` is saga `{}`'s work-in-progress branch: this commit will be squashed into one `[FARARONI]` commit on `{}` by `git fararoni saga finish`",
            saga.wip_branch, saga.id, saga.original_branch
        ));
    }
    out
}

/// What `post-checkout` found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PostCheckout {
    /// The saga whose wip branch was left, with what to do.
    pub left_saga: Option<LeftSaga>,
    /// Whether `/.fararoni/` was added to `info/exclude`.
    pub excluded: bool,
}

/// An active saga whose wip branch HEAD just left.
#[derive(Debug, Clone, Serialize)]
pub struct LeftSaga {
    /// The saga's id.
    pub id: String,
    /// Its wip branch.
    pub wip_branch: String,
    /// Its original branch.
    pub original_branch: String,
}

/// Runs the post-checkout work in the repository containing `dir`;
/// `branch_checkout` is git's third argument (`1` for a branch checkout).
pub fn post_checkout(dir: &Path, branch_checkout: bool) -> Result<PostCheckout, CheckError> {
    let (repo, _) = open(dir)?;
    let mut found = PostCheckout::default();
    let exclude = repo.common_dir().join("info").join("exclude");
    let before = std::fs::metadata(&exclude).map(|m| m.len()).ok();
    crate::shadow::exclude_store(repo.common_dir())?;
    found.excluded = std::fs::metadata(&exclude).map(|m| m.len()).ok() != before;
    if !branch_checkout {
        return Ok(found);
    }
    let Some(saga) = saga::load_state(&saga::state_path(repo.git_dir()))? else {
        return Ok(found);
    };
    if saga.phase != Phase::Active {
        return Ok(found);
    }
    let on_wip = matches!(repo.head()?, Head::Branch { name, .. } if name == saga.wip_branch);
    if !on_wip {
        found.left_saga = Some(LeftSaga {
            id: saga.id,
            wip_branch: saga.wip_branch,
            original_branch: saga.original_branch,
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_is_recognised_at_the_top_in_any_case_only() {
        assert!(in_store(".fararoni/journal.jsonl"));
        assert!(in_store(".FARARONI/x"));
        assert!(in_store(".fararoni"));
        assert!(!in_store("src/.fararoni/x"));
        assert!(in_store(".fararoni.corrupt-1/x"));
        assert!(!in_store(".fararonix/x"));
        assert!(!in_store("fararoni/x"));
    }
}
