//! "What would be lost?": the repository questions a file-destroying
//! command raises. `GitLoss` in the facts module answers them; the policy only
//! asks.

use std::path::{Path, PathBuf};

/// What deleting or overwriting some paths would lose.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Loss {
    /// Tracked files with uncommitted (staged or unstaged) changes.
    pub modified: Vec<PathBuf>,
    /// Untracked files that are not ignored.
    pub untracked: Vec<PathBuf>,
    /// Targets git tracks (files, or directories holding tracked files).
    pub tracked: Vec<PathBuf>,
    /// Ignored files people keep by hand (`.env*`, local configuration,
    /// databases, keys; `fararoni.precious`): ignored is not expendable.
    pub precious: Vec<PathBuf>,
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
    /// How many stash entries the repository holds; `None` when git
    /// cannot tell.
    fn stash_entries(&self) -> Option<usize> {
        None
    }
    /// Of the local branches `names`, those whose commits no other ref
    /// (another branch, a tag, a remote-tracking branch — none of `names`,
    /// not the stash) contains: deleting them all would lose commits.
    /// Names that are no branch are left out (git refuses them). `None`
    /// when git cannot tell.
    fn branches_holding_only(&self, names: &[String]) -> Option<Vec<String>> {
        let _ = names;
        None
    }
    /// The files git reads as configuration through `include.path` and
    /// `includeIf.*.path` (resolved, at every level): writing one sets
    /// what `.git/config` sets (`core.hooksPath`, `core.fsmonitor`,
    /// aliases that run programs).
    fn config_includes(&self) -> Vec<PathBuf> {
        Vec::new()
    }
    /// The member paths of the archive `archive` (absolute) as the archive
    /// program `program` lists them; `None` when it cannot be listed.
    fn archive_members(&self, program: &str, archive: &Path) -> Option<Vec<String>> {
        let _ = (program, archive);
        None
    }
    /// Of `paths` (absolute; a folder stands for everything below), the
    /// files whose staged content is in neither HEAD nor the working tree:
    /// unstaging them loses it. `None` when git cannot tell.
    fn staged_only(&self, paths: &[PathBuf]) -> Option<Vec<PathBuf>> {
        let _ = paths;
        None
    }
}
