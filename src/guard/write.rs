//! Guarded writes: kill-switch → shadow backup → atomic write, under the
//! repository lock. `--force` (or [`WriteOptions::force`]) skips the
//! kill-switch, never the backup.

use std::path::Path;

use camino::{Utf8Path, Utf8PathBuf};

use super::killswitch::{self, Report, Thresholds};
use super::GuardError;
use crate::git::Repo;
use crate::shadow::{Change, Op, RepoPath, Session, Shadow, ShadowError};

/// How to carry out a guarded write.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// Skip the kill-switch (the shadow backup is still taken).
    pub force: bool,
    /// The session to record (default: [`Session::current`]).
    pub session: Option<Session>,
    /// Thresholds to use instead of the configured ones.
    pub thresholds: Option<Thresholds>,
}

/// What a guarded write did to the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteOutcome {
    /// The file did not exist and was created.
    Created,
    /// The file was replaced; `backup` is the version holding its previous
    /// content.
    Updated {
        /// The shadow version of the previous content.
        backup: u64,
    },
    /// The file already held exactly the new content; nothing was written.
    Unchanged,
}

/// The result of a guarded write.
#[derive(Debug, Clone)]
pub struct Written {
    /// The repository-relative path written.
    pub path: Utf8PathBuf,
    /// What happened.
    pub outcome: WriteOutcome,
    /// The kill-switch report (`None` when forced).
    pub report: Option<Report>,
    /// The session recorded in the journal.
    pub session: Session,
}

/// A guard over one working tree, reusable across writes.
#[derive(Debug, Clone)]
pub struct Guard {
    shadow: Shadow,
    thresholds: Thresholds,
}

impl Guard {
    /// Opens the guard of the repository containing `dir`, reading the
    /// kill-switch thresholds and retention limits from its git config.
    pub fn discover(dir: &Path) -> Result<Guard, GuardError> {
        let repo = Repo::discover(dir)
            .map_err(ShadowError::from)?
            .ok_or_else(|| ShadowError::NotARepo {
                path: dir.to_path_buf(),
            })?;
        Ok(Guard {
            shadow: Shadow::open(&repo)?,
            thresholds: Thresholds::from_config(Some(&repo))?,
        })
    }

    /// Returns the shadow store the guard backs up into.
    pub fn shadow(&self) -> &Shadow {
        &self.shadow
    }

    /// Returns the thresholds in force.
    pub fn thresholds(&self) -> &Thresholds {
        &self.thresholds
    }

    /// Writes `new` to `path` through kill-switch, backup and atomic write.
    pub fn write(
        &self,
        path: &RepoPath,
        new: &[u8],
        opts: &WriteOptions,
    ) -> Result<Written, GuardError> {
        let session = match &opts.session {
            Some(s) => s.clone(),
            None => Session::current()?,
        };
        let mut tx = self.shadow.begin(session.clone())?;
        let current = tx.read_current(path)?;
        let report = if opts.force {
            None
        } else {
            let t = opts.thresholds.as_ref().unwrap_or(&self.thresholds);
            let report = killswitch::check(current.as_ref().map(|c| c.bytes.as_slice()), new, t);
            if report.blocked() {
                return Err(GuardError::Blocked {
                    path: path.rel.clone(),
                    report: Box::new(report),
                });
            }
            Some(report)
        };
        let replaced = tx.apply(
            path,
            current.as_ref(),
            Change {
                op: Op::Write,
                new: Some(new),
                mode: None,
                from: None,
            },
        )?;
        let outcome = match (replaced.changed, replaced.backup) {
            (false, _) => WriteOutcome::Unchanged,
            (true, Some(backup)) => WriteOutcome::Updated { backup },
            (true, None) => WriteOutcome::Created,
        };
        Ok(Written {
            path: path.rel.clone(),
            outcome,
            report,
            session,
        })
    }
}

/// Writes `new_bytes` to `rel_path` (relative to the top of the working
/// tree containing `repo_root`) through the kill-switch, a shadow backup and
/// an atomic write. This is the entry point the agent's file tools use.
pub fn guarded_write(
    repo_root: &Path,
    rel_path: &Utf8Path,
    new_bytes: &[u8],
    opts: &WriteOptions,
) -> Result<Written, GuardError> {
    let guard = Guard::discover(repo_root)?;
    let path = guard.shadow.resolve_rel(rel_path)?;
    guard.write(&path, new_bytes, opts)
}
