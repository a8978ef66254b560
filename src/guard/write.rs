//! Guarded writes: kill-switch → shadow backup → atomic write, under the
//! repository lock. `--force` (or [`WriteOptions::force`]) skips the
//! kill-switch, never the backup.
//!
//! Each write is checked twice when its session changed the file before:
//! against the file as it is (the last version), and against the file as
//! the session first found it (its session baseline, a version in the
//! shadow store). Steps that each pass on their own cannot add up to a
//! gutting: three writes that each remove a third of a file are blocked at
//! the step where, together, they cross a threshold.

use std::path::Path;

use camino::{Utf8Path, Utf8PathBuf};

use super::killswitch::{self, Report, Thresholds};
use super::GuardError;
use crate::git::Repo;
use crate::settings::read::{self as config, SettingWarning};
use crate::shadow::{Change, Notice, Op, RepoPath, Session, Shadow, ShadowError};

/// How to carry out a guarded write.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// Skip the kill-switch (the shadow backup is still taken).
    pub force: bool,
    /// The session to record (default: [`Session::current`]).
    pub session: Option<Session>,
    /// Thresholds to use instead of the configured ones (for tools and
    /// tests: code, not configuration, so no floor applies).
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

/// Which content a kill-switch verdict compared the new content with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Against {
    /// The file as it is now (its last version).
    Current,
    /// The file as the session first found it: the shadow version taken
    /// before the session's first change to it.
    SessionStart {
        /// The session.
        session: String,
        /// The version holding that content.
        version: u64,
    },
}

impl std::fmt::Display for Against {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Against::Current => Ok(()),
            Against::SessionStart { session, version } => write!(
                f,
                " compared with the file as session `{session}` first found it (v{version})"
            ),
        }
    }
}

/// The session-baseline check of a write that passed it.
#[derive(Debug, Clone)]
pub struct BaselineCheck {
    /// The version holding the content the session started from.
    pub version: u64,
    /// The kill-switch report against it.
    pub report: Report,
}

/// The result of a guarded write.
#[derive(Debug, Clone)]
pub struct Written {
    /// The repository-relative path written.
    pub path: Utf8PathBuf,
    /// What happened.
    pub outcome: WriteOutcome,
    /// The kill-switch report against the current content (`None` when
    /// forced).
    pub report: Option<Report>,
    /// The kill-switch report against the session's baseline, when the
    /// session had changed the file before (and it differed).
    pub baseline: Option<BaselineCheck>,
    /// The session recorded in the journal.
    pub session: Session,
    /// What the store did on its own (a store moved aside).
    pub notices: Vec<Notice>,
}

/// A guard over one working tree, reusable across writes.
#[derive(Debug, Clone)]
pub struct Guard {
    shadow: Shadow,
    thresholds: Thresholds,
    warnings: Vec<SettingWarning>,
}

/// Returns the kill-switch thresholds configured for `repo` (or globally),
/// environment before git config, each held to its floor
/// ([`config::PROTECTIVE`]): a weaker value is replaced by the floor and
/// reported in the warnings.
pub fn configured_thresholds(
    repo: Option<&Repo>,
) -> Result<(Thresholds, Vec<SettingWarning>), GuardError> {
    let settings = crate::settings::of(repo);
    let mut t = Thresholds::default();
    let mut warnings = Vec::new();
    if let Some(v) = config::protective_value(settings, &config::GUARD_JACCARD, &mut warnings)? {
        t.jaccard = v;
    }
    if let Some(v) = config::protective_value(settings, &config::GUARD_VOLUME, &mut warnings)? {
        t.volume = v;
    }
    if let Some(v) = config::protective_value(settings, &config::GUARD_MIN_LINES, &mut warnings)? {
        t.min_lines = v as usize;
    }
    Ok((t, warnings))
}

impl Guard {
    /// Opens the guard of the repository containing `dir`, reading the
    /// kill-switch thresholds and retention limits from its configuration.
    pub fn discover(dir: &Path) -> Result<Guard, GuardError> {
        let repo = Repo::discover(dir)
            .map_err(ShadowError::from)?
            .ok_or_else(|| ShadowError::NotARepo {
                path: dir.to_path_buf(),
            })?;
        let shadow = Shadow::open(&repo)?;
        let (thresholds, mut warnings) = configured_thresholds(Some(&repo))?;
        warnings.extend(shadow.setting_warnings().iter().cloned());
        Ok(Guard {
            shadow,
            thresholds,
            warnings,
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

    /// Returns the settings that were weaker than their floor (the floor is
    /// in force), for the caller to tell the user.
    pub fn warnings(&self) -> &[SettingWarning] {
        &self.warnings
    }

    /// Writes `new` to `path` through kill-switch (against the current
    /// content, then against the session's baseline), backup and atomic
    /// write.
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
        let current_bytes = current.as_ref().map(|c| c.bytes.as_slice());
        let (report, baseline) = if opts.force {
            (None, None)
        } else {
            let t = opts.thresholds.as_ref().unwrap_or(&self.thresholds);
            let report = killswitch::check_file(path.rel.as_str(), current_bytes, new, t);
            if report.blocked() {
                return Err(GuardError::Blocked {
                    path: path.rel.clone(),
                    report: Box::new(report),
                    against: Against::Current,
                });
            }
            let mut baseline = None;
            if let Some(version) = tx.session_baseline(&path.rel) {
                // A baseline the store no longer has (evicted) leaves the
                // check against the current content alone.
                match tx.read_version_number(&path.rel, version)? {
                    Some(start) if Some(start.as_slice()) != current_bytes => {
                        let r = killswitch::check_file(path.rel.as_str(), Some(&start), new, t);
                        if r.blocked() {
                            return Err(GuardError::Blocked {
                                path: path.rel.clone(),
                                report: Box::new(r),
                                against: Against::SessionStart {
                                    session: session.id().to_string(),
                                    version,
                                },
                            });
                        }
                        baseline = Some(BaselineCheck { version, report: r });
                    }
                    _ => {}
                }
            }
            (Some(report), baseline)
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
        drop(tx);
        let outcome = match (replaced.changed, replaced.backup) {
            (false, _) => WriteOutcome::Unchanged,
            (true, Some(backup)) => WriteOutcome::Updated { backup },
            (true, None) => WriteOutcome::Created,
        };
        Ok(Written {
            path: path.rel.clone(),
            outcome,
            report,
            baseline,
            session,
            notices: self.shadow.take_notices(),
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
