//! What can go wrong in a saga, typed, with a hint of what to do for each.
//! Never prints.

use std::path::PathBuf;

use serde::Serialize;
use thiserror::Error;

use crate::git::{pathspec, GitError, RepoError};
use crate::lock::LockError;

/// One of the seed's activation conditions for an ephemeral branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    /// Inside a git repository with a working tree.
    GitRepository,
    /// HEAD is valid: the branch has at least one commit.
    ValidHead,
    /// HEAD is on a branch, not detached.
    OnBranch,
    /// No merge, rebase, cherry-pick, revert, am or bisect in progress.
    NoOperationInProgress,
    /// No saga is active in this worktree.
    NoActiveSaga,
}

impl Condition {
    /// Every condition, in the order they are checked.
    pub const ALL: [Condition; 5] = [
        Condition::GitRepository,
        Condition::ValidHead,
        Condition::OnBranch,
        Condition::NoOperationInProgress,
        Condition::NoActiveSaga,
    ];

    /// Returns the condition's name, as printed (`on-branch`).
    pub fn name(self) -> &'static str {
        match self {
            Condition::GitRepository => "git-repository",
            Condition::ValidHead => "valid-head",
            Condition::OnBranch => "on-branch",
            Condition::NoOperationInProgress => "no-operation-in-progress",
            Condition::NoActiveSaga => "no-active-saga",
        }
    }
}

impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An activation condition that does not hold, with why and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailedCondition {
    /// Which condition.
    pub condition: Condition,
    /// What was found instead.
    pub detail: String,
    /// What to do about it.
    pub hint: String,
}

impl std::fmt::Display for FailedCondition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.condition, self.detail)
    }
}

/// Which saga verb was interrupted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// `saga start`.
    Start,
    /// `saga finish`.
    Finish,
    /// `saga abort`.
    Abort,
}

impl Operation {
    /// Returns the verb.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Start => "start",
            Operation::Finish => "finish",
            Operation::Abort => "abort",
        }
    }
}

/// A saga operation that could not be carried out. Unless a variant says
/// otherwise, nothing was changed.
#[derive(Debug, Error)]
pub enum SagaError {
    /// One or more activation conditions failed; each is listed.
    #[error("cannot start a saga: {}", describe_failed(.0))]
    Conditions(Vec<FailedCondition>),
    /// The directory is not inside a repository with a working tree.
    #[error("not a git repository (or any parent up to the filesystem root): `{}`", path.display())]
    NotARepository {
        /// Where the search started.
        path: PathBuf,
    },
    /// The repository has no working tree.
    #[error("`{}` is a bare repository; a saga needs a working tree", path.display())]
    Bare {
        /// The git dir.
        path: PathBuf,
    },
    /// There is no saga in this worktree.
    #[error("no saga in progress in this worktree")]
    NoSaga {
        /// A leftover wip branch HEAD is on, if any.
        stray_branch: Option<String>,
    },
    /// The `--name` given cannot be used.
    #[error("invalid saga name {name:?}: {reason}")]
    InvalidName {
        /// The name.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The commit message given is empty.
    #[error("the commit message is empty")]
    EmptyMessage,
    /// `git commit` of the squash failed (e.g. a hook refused it); the
    /// squash stays staged on the original branch.
    #[error("could not commit the squash on `{branch}`")]
    CommitFailed {
        /// The original branch.
        branch: String,
        /// What git said.
        #[source]
        source: GitError,
    },
    /// HEAD is not where the operation needs it.
    #[error("HEAD is on {current}, not on the saga branch `{wip}`")]
    NotOnSagaBranch {
        /// Where HEAD is (`` `x` `` or "a detached HEAD").
        current: String,
        /// The wip branch.
        wip: String,
        /// The original branch.
        original: String,
    },
    /// The wip branch has uncommitted changes and `--include-dirty` was not given.
    #[error("the saga branch `{wip}` has uncommitted changes ({} {})", paths.len(), plural(paths.len(), "path", "paths"))]
    Dirty {
        /// The wip branch.
        wip: String,
        /// The changed paths (first few).
        paths: Vec<String>,
    },
    /// HEAD is on the original branch, which has uncommitted changes.
    #[error("you are on `{original}` with uncommitted changes; the saga lives on `{wip}`")]
    DirtyOriginal {
        /// The original branch.
        original: String,
        /// The wip branch.
        wip: String,
    },
    /// git staged files of our own store although the pathspec leaves it
    /// out; nothing was committed (a snapshot's temporary index is gone,
    /// `finish --include-dirty` leaves them staged).
    #[error("git staged {} of git-fararoni's own store `.fararoni/`, which never goes into a commit of ours: {}", plural(paths.len(), "a file", "files"), quote_list(paths))]
    StoreStaged {
        /// The store's paths that were staged.
        paths: Vec<String>,
    },
    /// The squash would bring changes to our own store onto the original
    /// branch (a commit on the saga branch took them).
    #[error("the saga's commits change git-fararoni's own store `.fararoni/`, which never goes into a squash: {}", quote_list(paths))]
    StoreInSquash {
        /// The original branch.
        original: String,
        /// The wip branch.
        wip: String,
        /// The store's paths the squash would change.
        paths: Vec<String>,
    },
    /// Squashing the saga onto the original branch would conflict.
    #[error("the saga conflicts with `{original}`, which moved since the saga started: {} {} would conflict: {}", files.len(), plural(files.len(), "file", "files"), quote_list(files))]
    Conflict {
        /// The original branch.
        original: String,
        /// The wip branch.
        wip: String,
        /// The conflicting files.
        files: Vec<String>,
    },
    /// Restoring the start state onto the moved original branch would conflict.
    #[error("cannot return to `{original}`: the changes that were uncommitted at the start conflict with its new commits in {}", quote_list(files))]
    AbortConflict {
        /// The original branch.
        original: String,
        /// The conflicting files.
        files: Vec<String>,
    },
    /// A merge, rebase… is in progress.
    #[error("a {op} is in progress")]
    OperationInProgress {
        /// Which operation.
        op: &'static str,
    },
    /// The original branch no longer exists.
    #[error("the original branch `{branch}` no longer exists")]
    OriginalBranchMissing {
        /// Its short name.
        branch: String,
        /// The commit it pointed at when the saga started.
        base: String,
    },
    /// The wip branch no longer exists.
    #[error("the saga branch `{branch}` no longer exists")]
    WipBranchMissing {
        /// Its short name.
        branch: String,
    },
    /// The original branch is checked out in another worktree.
    #[error("the original branch `{branch}` is checked out in another worktree, `{}`", worktree.display())]
    CheckedOutElsewhere {
        /// The branch.
        branch: String,
        /// That worktree.
        worktree: PathBuf,
    },
    /// A resumed operation found changes it did not make.
    #[error("cannot resume the interrupted `saga {}`: {} {} changed in ways the saga did not make: {}", operation.as_str(), paths.len(), plural(paths.len(), "path", "paths"), quote_list(paths))]
    UnexpectedChanges {
        /// The operation being resumed.
        operation: Operation,
        /// The paths.
        paths: Vec<String>,
    },
    /// A resumed operation found the repository in a state it cannot explain.
    #[error("cannot resume the interrupted `saga {}`: {detail}", operation.as_str())]
    Interrupted {
        /// The operation being resumed.
        operation: Operation,
        /// What was found.
        detail: String,
    },
    /// git's index lock is held (a git process runs, or one was killed).
    #[error("`{}` exists: another git process is running in this repository, or one was killed", path.display())]
    IndexLocked {
        /// The lock file.
        path: PathBuf,
    },
    /// The saga's state file could not be read or written.
    #[error("could not use the saga state file `{}`", path.display())]
    StateIo {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The saga's state file is not valid.
    #[error("the saga state file `{}` is damaged", path.display())]
    StateCorrupt {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// The saga's state file was written by a newer git-fararoni.
    #[error("the saga state file `{}` has format version {version}, newer than this git-fararoni understands", path.display())]
    StateVersion {
        /// The file.
        path: PathBuf,
        /// Its version.
        version: u32,
    },
    /// A file needed for a snapshot could not be handled.
    #[error("could not use `{}`", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// git printed something the saga could not understand.
    #[error("unexpected output from `git {args}`: {detail}")]
    GitOutput {
        /// The command.
        args: String,
        /// What was wrong.
        detail: String,
    },
    /// The repository lock could not be taken.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// Reading the repository failed.
    #[error(transparent)]
    Repo(#[from] RepoError),
    /// A git command failed.
    #[error(transparent)]
    Git(#[from] GitError),
}

/// How the command line should classify an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SagaErrorClass {
    /// The request could not be carried out (exit 1).
    Failed,
    /// The command line was wrong (exit 2).
    Usage,
    /// A precondition or policy refused; nothing was changed (exit 3).
    Refused,
}

impl SagaError {
    /// Returns how the command line should classify this error.
    pub fn class(&self) -> SagaErrorClass {
        match self {
            SagaError::Conditions(_)
            | SagaError::Dirty { .. }
            | SagaError::DirtyOriginal { .. }
            | SagaError::StoreInSquash { .. } => SagaErrorClass::Refused,
            SagaError::InvalidName { .. } | SagaError::EmptyMessage => SagaErrorClass::Usage,
            _ => SagaErrorClass::Failed,
        }
    }

    /// Returns what the user can do about this error.
    pub fn hints(&self) -> Vec<String> {
        match self {
            SagaError::Conditions(failed) => failed.iter().map(|f| f.hint.clone()).collect(),
            SagaError::NotARepository { .. } => {
                vec!["run this inside a git repository's working tree".into()]
            }
            SagaError::Bare { .. } => vec!["run this in a worktree: `git worktree add <path>`".into()],
            SagaError::NoSaga { stray_branch } => {
                let mut h = vec!["start one with `git fararoni saga start`".into()];
                if let Some(b) = stray_branch {
                    h.push(format!(
                        "HEAD is on `{b}`, left by a saga whose state is gone; switch to your branch and delete it with `git branch -D {b}` once you have kept what you need"
                    ));
                }
                h
            }
            SagaError::InvalidName { .. } => vec![
                "use a short single-line name, e.g. `--name \"fix the parser\"`".into(),
            ],
            SagaError::EmptyMessage => vec!["give a message with `-m`, or leave it out for a summary of the saga's commits".into()],
            SagaError::CommitFailed { branch, .. } => vec![
                format!("the squashed changes are staged on `{branch}`; nothing is lost"),
                "fix what the hook reported and run `git fararoni saga finish` again, or `git fararoni saga abort` to go back".into(),
            ],
            SagaError::NotOnSagaBranch { wip, original, .. } => vec![
                format!("switch back with `git switch {wip}` (or to `{original}`) and run it again"),
            ],
            SagaError::Dirty { wip, paths } => {
                let mut h = Vec::new();
                if !paths.is_empty() {
                    h.push(format!("uncommitted: {}", quote_list(paths)));
                }
                h.push(format!(
                    "commit them on `{wip}` first, or run `git fararoni saga finish --include-dirty` to put them into the squash"
                ));
                // The pathspecs keep the store out of the stash: `stash -u`
                // would take it off the disk while the stash is kept.
                h.push(format!(
                    "to keep them out of it: `git stash push -u -- '{}' '{}'`, finish, then `git stash pop --index`",
                    pathspec::WHOLE_TREE,
                    pathspec::NOT_STORE
                ));
                h
            }
            SagaError::StoreStaged { .. } => vec![
                format!(
                    "this git did not leave out the store as the pathspec `{}` asks; please report it with `git --version`",
                    pathspec::NOT_STORE
                ),
                "if `git status` shows them staged, unstage them with `git restore --staged -- .fararoni`".into(),
            ],
            SagaError::StoreInSquash { original, wip, .. } => vec![
                format!(
                    "take them out on `{wip}` with `git restore --staged --source={original} -- .fararoni` and `git commit`, then run `git fararoni saga finish` again"
                ),
                "keep the store out of git with a `/.fararoni/` line in `.git/info/exclude` (the shadow store adds it)".into(),
            ],
            SagaError::DirtyOriginal { wip, .. } => vec![format!(
                "commit or stash those changes, or switch back with `git switch {wip}`, then run it again"
            )],
            SagaError::Conflict { original, wip, .. } => vec![
                format!("nothing was changed: you are still on `{wip}` and the saga is kept"),
                format!(
                    "bring the saga up to date with `git merge {original}` on `{wip}`, resolve and commit, then run `git fararoni saga finish` again"
                ),
                "or give up the saga with `git fararoni saga abort` (its commits stay reachable)".into(),
            ],
            SagaError::AbortConflict { .. } => vec![
                "nothing was changed; the saga is still active".into(),
                "commit or stash what you need on the saga branch, or bring it up to date with the original branch, then abort again".into(),
            ],
            SagaError::OperationInProgress { op } => vec![format!(
                "finish it (`git {op} --continue`) or cancel it (`git {op} --abort`) first"
            )],
            SagaError::OriginalBranchMissing { branch, base } => vec![format!(
                "recreate it where the saga started with `git branch {branch} {base}`, then run it again"
            )],
            SagaError::WipBranchMissing { .. } => vec![
                "run `git fararoni saga abort` to clear the saga and return to the original branch".into(),
            ],
            SagaError::CheckedOutElsewhere { branch, worktree } => vec![format!(
                "switch that worktree (`{}`) to another branch than `{branch}`, then run it again",
                worktree.display()
            )],
            SagaError::UnexpectedChanges { .. } => vec![
                "commit or stash those changes (or move them aside), then run it again".into(),
                "`git fararoni saga abort` always works: it snapshots everything under refs/fararoni/snapshots/ first".into(),
            ],
            SagaError::Interrupted { operation, .. } => vec![
                format!("see `git fararoni saga status`; bring the repository back to the saga or original branch and run `git fararoni saga {}` again", operation.as_str()),
            ],
            SagaError::IndexLocked { path } => vec![format!(
                "if no git process is running, remove it (`rm '{}'`) and run it again",
                path.display()
            )],
            SagaError::StateCorrupt { path, .. } | SagaError::StateVersion { path, .. } => {
                vec![format!(
                    "inspect `{}`; removing it forgets the saga but keeps its branch",
                    path.display()
                )]
            }
            SagaError::Lock(_) => vec!["wait for the other git-fararoni to finish, then run it again".into()],
            _ => Vec::new(),
        }
    }
}

fn describe_failed(failed: &[FailedCondition]) -> String {
    let n = failed.len();
    let names: Vec<String> = failed.iter().map(|f| f.to_string()).collect();
    format!(
        "{n} activation {} not met: {}",
        plural(n, "condition", "conditions"),
        names.join("; ")
    )
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Returns up to 10 names in backticks, then how many more there are.
pub(crate) fn quote_list(items: &[String]) -> String {
    let mut parts: Vec<String> = items.iter().take(10).map(|p| format!("`{p}`")).collect();
    if items.len() > 10 {
        parts.push(format!("and {} more", items.len() - 10));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saga_error_names_each_failed_condition() {
        let err = SagaError::Conditions(vec![
            FailedCondition {
                condition: Condition::OnBranch,
                detail: "HEAD is detached at 1234567".into(),
                hint: "switch to a branch".into(),
            },
            FailedCondition {
                condition: Condition::NoOperationInProgress,
                detail: "a merge is in progress".into(),
                hint: "finish the merge".into(),
            },
        ]);
        let msg = err.to_string();
        assert!(msg.contains("2 activation conditions not met"), "{msg}");
        assert!(msg.contains("`on-branch`: HEAD is detached"), "{msg}");
        assert!(msg.contains("`no-operation-in-progress`: a merge"), "{msg}");
        assert_eq!(err.hints().len(), 2);
        assert_eq!(err.class(), SagaErrorClass::Refused);
    }

    #[test]
    fn saga_error_conflict_lists_files() {
        let err = SagaError::Conflict {
            original: "main".into(),
            wip: "fararoni/wip-1".into(),
            files: vec!["a b.txt".into(), "ñ.rs".into()],
        };
        assert!(err
            .to_string()
            .contains("2 files would conflict: `a b.txt`, `ñ.rs`"));
        assert_eq!(err.class(), SagaErrorClass::Failed);
        let many: Vec<String> = (0..12).map(|i| i.to_string()).collect();
        assert!(quote_list(&many).ends_with("and 2 more"));
    }
}
