//! The one place the agent calls the shadow store's dirty-set API
//! ([`crate::shadow::dirty`]): saving the dirty set before a command, and
//! journaling what the command changed after it, so
//! `git fararoni undo --session ID` reverses shell side effects too.

use std::path::Path;

use crate::git::Repo;
use crate::shadow::{dirty, Session, Shadow};

/// Whether the dirty-set API is wired in this build.
pub const AVAILABLE: bool = true;

fn repo(root: &Path) -> Result<Repo, String> {
    Repo::discover(root)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("`{}` is not a repository", root.display()))
}

/// Saves the dirty set of the working tree at `root` under `session`;
/// returns how many files were newly saved.
pub fn snapshot(shadow: &Shadow, root: &Path, session: &Session) -> Result<usize, String> {
    dirty::snapshot(shadow, &repo(root)?, session)
        .map(|s| s.saved)
        .map_err(|e| e.to_string())
}

/// Journals every file changed, created or deleted since the last
/// snapshot; returns them as `path (created|modified|deleted)`.
pub fn record(shadow: &Shadow, root: &Path, session: &Session) -> Result<Vec<String>, String> {
    dirty::record(shadow, &repo(root)?, session)
        .map(|v| {
            v.into_iter()
                .map(|c| {
                    let kind = match c.kind {
                        dirty::ChangeKind::Created => "created",
                        dirty::ChangeKind::Modified => "modified",
                        dirty::ChangeKind::Deleted => "deleted",
                    };
                    format!("{} ({kind})", c.path)
                })
                .collect()
        })
        .map_err(|e| e.to_string())
}
