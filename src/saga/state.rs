//! The saga's record in the git dir: `<git_dir>/fararoni/saga.json`, one per
//! worktree, never in the working tree.
//!
//! Every step of a saga is written here before and after it happens, so a
//! command killed at any point can be resumed from what the file says plus
//! what the repository shows. Writes are atomic (temporary file, fsync,
//! rename, fsync of the folder). Never spawns git.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::SagaError;

/// The version of the file format written by this build.
pub const STATE_VERSION: u32 = 1;

/// Where a saga is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// `saga start` recorded the saga but may not have switched yet.
    Starting,
    /// Work happens on the wip branch.
    Active,
    /// `saga finish` made a plan and is carrying it out.
    Finishing,
    /// `saga abort` is returning to the original branch.
    Aborting,
}

impl Phase {
    /// Returns the lowercase name used in JSON and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Starting => "starting",
            Phase::Active => "active",
            Phase::Finishing => "finishing",
            Phase::Aborting => "aborting",
        }
    }
}

/// How far a finish got; recorded before and after each step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FinishStep {
    /// The result was computed; nothing was changed yet.
    Planned,
    /// HEAD is back on the original branch.
    Switched,
    /// The squashed result is staged on the original branch.
    Squashed,
    /// The `[FARARONI]` commit exists; only cleanup remains.
    Committed,
}

impl FinishStep {
    /// Returns the lowercase name used in JSON and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            FinishStep::Planned => "planned",
            FinishStep::Switched => "switched",
            FinishStep::Squashed => "squashed",
            FinishStep::Committed => "committed",
        }
    }
}

/// What a finish computed before changing anything, and how far it got.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinishPlan {
    /// The last step known to be complete.
    pub step: FinishStep,
    /// The wip branch's commit being squashed.
    pub wip_tip: String,
    /// The tree of `wip_tip`.
    pub wip_tree: String,
    /// The original branch's commit the squash goes on top of.
    pub onto: String,
    /// The tree of `onto`.
    pub onto_tree: String,
    /// The tree the squash commit will have (from `git merge-tree`).
    pub result_tree: String,
    /// The full commit message, `[FARARONI] …`.
    pub message: String,
    /// Whether the message was given by the user (kept when re-planning).
    #[serde(default)]
    pub custom_message: bool,
    /// How many wip commits are squashed.
    pub commits: usize,
    /// The squash commit, once made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squash: Option<String>,
}

impl FinishPlan {
    /// Returns whether the saga changes nothing on the original branch.
    pub fn nothing_to_merge(&self) -> bool {
        self.result_tree == self.onto_tree
    }

    /// Returns the first line of the commit message.
    pub fn subject(&self) -> &str {
        self.message.lines().next().unwrap_or_default()
    }
}

/// An ephemeral-branch saga, as recorded in `saga.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saga {
    /// File format version.
    pub version: u32,
    /// The saga's id: the timestamp of its wip branch (`20260302-005551`,
    /// with `-2`, `-3`… when that name was taken).
    pub id: String,
    /// The name given with `--name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The branch the saga started from (short name, e.g. `main`).
    pub original_branch: String,
    /// The original branch's commit when the saga started.
    pub base: String,
    /// The ephemeral branch (short name, `fararoni/wip-<id>`).
    pub wip_branch: String,
    /// When the saga started (RFC 3339, UTC).
    pub started_at: String,
    /// Whether the working tree had uncommitted changes at the start.
    pub dirty_at_start: bool,
    /// A commit holding the working tree (and, as its second parent, the
    /// index) as they were at the start, when they were dirty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_snapshot: Option<String>,
    /// Where the saga is in its life.
    pub phase: Phase,
    /// The finish in progress, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish: Option<FinishPlan>,
    /// Refs other than the wip branch (and HEAD) that the saga's git
    /// actions changed, for `saga abort` to put back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<super::refs::RefChange>,
}

impl Saga {
    /// Returns the full ref of the original branch.
    pub fn original_ref(&self) -> String {
        format!("refs/heads/{}", self.original_branch)
    }

    /// Returns the full ref of the wip branch.
    pub fn wip_ref(&self) -> String {
        format!("refs/heads/{}", self.wip_branch)
    }

    /// Returns the ref that keeps the wip tip after an abort.
    pub fn aborted_ref(&self) -> String {
        aborted_ref(&self.id)
    }

    /// Returns the ref holding the start snapshot while the saga lives.
    pub fn start_snapshot_ref(&self) -> String {
        format!("refs/fararoni/snapshots/{}/start", self.id)
    }

    /// Returns the ref holding what the working tree was when it was aborted.
    pub fn abort_snapshot_ref(&self) -> String {
        format!("refs/fararoni/snapshots/{}/abort", self.id)
    }
}

/// Returns the ref that keeps the wip tip of aborted saga `id`.
pub fn aborted_ref(id: &str) -> String {
    format!("refs/fararoni/aborted/{id}")
}

/// Returns the state file of the worktree whose git dir is `git_dir`.
pub fn state_path(git_dir: &Path) -> PathBuf {
    git_dir.join("fararoni").join("saga.json")
}

/// Reads the saga of a worktree; `Ok(None)` when there is none.
pub fn load(path: &Path) -> Result<Option<Saga>, SagaError> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(SagaError::StateIo {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let saga: Saga = serde_json::from_slice(&bytes).map_err(|source| SagaError::StateCorrupt {
        path: path.to_path_buf(),
        source,
    })?;
    if saga.version > STATE_VERSION {
        return Err(SagaError::StateVersion {
            path: path.to_path_buf(),
            version: saga.version,
        });
    }
    Ok(Some(saga))
}

/// Writes `saga` atomically: a crash leaves the old file or the new one.
pub fn save(path: &Path, saga: &Saga) -> Result<(), SagaError> {
    let json = serde_json::to_vec_pretty(saga).expect("a saga always serialises to JSON");
    write_atomic(path, &json).map_err(|source| SagaError::StateIo {
        path: path.to_path_buf(),
        source,
    })
}

/// Removes the state file (the saga is over); a missing file is fine.
pub fn remove(path: &Path) -> Result<(), SagaError> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(SagaError::StateIo {
                path: path.to_path_buf(),
                source,
            })
        }
    }
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file in the same folder.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("the state path has no parent folder"))?;
    fs::create_dir_all(dir)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "state".into());
    let tmp = dir.join(format!(".{file_name}.tmp.{}", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result?;
    sync_dir(dir);
    Ok(())
}

/// Flushes a folder's entries to disk; best effort (not every platform can).
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Saga {
        Saga {
            version: STATE_VERSION,
            id: "20260302-005551".into(),
            name: Some("fix the build".into()),
            original_branch: "feature/x".into(),
            base: "a".repeat(40),
            wip_branch: "fararoni/wip-20260302-005551".into(),
            started_at: "2026-03-02T00:55:51Z".into(),
            dirty_at_start: true,
            start_snapshot: None,
            phase: Phase::Active,
            finish: None,
            refs: Vec::new(),
        }
    }

    #[test]
    fn saga_state_round_trips_and_missing_is_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = state_path(dir.path());
        assert!(load(&path).expect("load").is_none());
        let mut s = sample();
        save(&path, &s).expect("save");
        assert_eq!(load(&path).expect("load"), Some(s.clone()));
        s.phase = Phase::Finishing;
        s.finish = Some(FinishPlan {
            step: FinishStep::Switched,
            wip_tip: "b".repeat(40),
            wip_tree: "c".repeat(40),
            onto: "a".repeat(40),
            onto_tree: "d".repeat(40),
            result_tree: "c".repeat(40),
            message: "[FARARONI] x\n\nbody".into(),
            custom_message: false,
            commits: 2,
            squash: None,
        });
        save(&path, &s).expect("save again");
        let back = load(&path).expect("load").expect("present");
        assert_eq!(back, s);
        assert_eq!(
            back.finish.as_ref().map(|p| p.subject()),
            Some("[FARARONI] x")
        );
        remove(&path).expect("remove");
        remove(&path).expect("removing twice is fine");
        assert!(load(&path).expect("load").is_none());
    }

    #[test]
    fn saga_state_rejects_garbage_and_future_versions() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = state_path(dir.path());
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, b"{not json").expect("write");
        assert!(matches!(load(&path), Err(SagaError::StateCorrupt { .. })));
        let mut s = sample();
        s.version = STATE_VERSION + 1;
        save(&path, &s).expect("save");
        assert!(matches!(load(&path), Err(SagaError::StateVersion { .. })));
    }

    #[test]
    fn saga_refs_use_the_fararoni_namespace() {
        let s = sample();
        assert_eq!(s.original_ref(), "refs/heads/feature/x");
        assert_eq!(s.wip_ref(), "refs/heads/fararoni/wip-20260302-005551");
        assert_eq!(s.aborted_ref(), "refs/fararoni/aborted/20260302-005551");
        assert_eq!(
            s.start_snapshot_ref(),
            "refs/fararoni/snapshots/20260302-005551/start"
        );
    }
}
