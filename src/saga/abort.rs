//! `saga abort`: return to the original branch as it was when the saga
//! started, uncommitted changes included, and keep everything the saga
//! made.
//!
//! Nothing is lost, at any step: first the working tree and index as they
//! are now are kept as an internal commit under
//! `refs/fararoni/snapshots/<id>/abort` (when they differ from HEAD), and
//! the wip tip under `refs/fararoni/aborted/<id>`. Only then does the
//! working tree move, tree to tree, with `git read-tree -m -u` from that
//! snapshot to the state recorded at the start (for a dirty start, the
//! stash-like commit `refs/fararoni/snapshots/<id>/start`; merged onto the
//! original branch's new tip with `git merge-tree` if it moved). HEAD is
//! pointed back at the original branch and the index set to what it was.
//! Each attempt starts with a fresh snapshot, so an abort killed at any
//! point is completed by running it again.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::clock::Utc;
use crate::git::run::Actor;

use super::finish::{cleanup, is_our_squash, no_saga};
use super::ops::Ctx;
use super::state::{self, Phase};
use super::{describe_head, rollback_start, SagaError};

/// How an abort ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Aborted {
    /// Back on the original branch; the saga is kept under refs.
    Returned {
        /// The saga id.
        id: String,
        /// The original branch, now checked out.
        branch: String,
        /// The ref keeping the wip tip (when the branch still existed).
        aborted_ref: Option<String>,
        /// The wip tip it keeps.
        tip: Option<String>,
        /// Whether the changes uncommitted at the start were put back.
        restored_uncommitted: bool,
        /// The snapshot of what the working tree held at the abort, when it
        /// held something HEAD did not.
        abort_snapshot: Option<String>,
        /// The other refs the saga's git actions had changed, and what
        /// became of each.
        refs: Vec<super::refs::Restored>,
    },
    /// `saga start` had been interrupted before switching: it was undone.
    StartRolledBack {
        /// The saga id.
        id: String,
        /// The branch HEAD is on.
        branch: String,
    },
    /// An interrupted finish had already committed the squash; the abort
    /// completed the finish's cleanup instead (history is never rewritten).
    AlreadyLanded {
        /// The squash commit.
        commit: String,
        /// The original branch.
        branch: String,
    },
}

/// What is remembered of an aborted saga, for `saga list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AbortRecord {
    pub id: String,
    pub name: Option<String>,
    pub original_branch: String,
    pub base: String,
    pub wip_branch: String,
    pub started_at: String,
    pub aborted_at: String,
    pub tip: Option<String>,
    pub start_snapshot: Option<String>,
    pub abort_snapshot: Option<String>,
}

fn record_path(ctx: &Ctx, id: &str) -> PathBuf {
    ctx.common_dir
        .join("fararoni")
        .join("aborted")
        .join(format!("{id}.json"))
}

/// Reads what was recorded about aborted saga `id`, if anything.
pub(crate) fn load_record(ctx: &Ctx, id: &str) -> Option<AbortRecord> {
    let bytes = std::fs::read(record_path(ctx, id)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Aborts (or resumes aborting) the saga of the worktree containing `dir`.
pub fn abort(dir: impl AsRef<std::path::Path>, agent: bool) -> Result<Aborted, SagaError> {
    let actor = if agent { Actor::Agent } else { Actor::Human };
    let mut ctx = Ctx::open(dir.as_ref(), actor)?;
    let _lock = ctx.lock()?;
    let path = ctx.state_path();
    let Some(mut saga) = state::load(&path)? else {
        return Err(no_saga(&ctx)?);
    };
    ctx.tx = Some(saga.id.clone());
    let head = ctx.head_ref()?;
    if saga.phase == Phase::Starting {
        if head.as_deref() == Some(saga.wip_ref().as_str()) {
            saga.phase = Phase::Active;
            state::save(&path, &saga)?;
        } else {
            rollback_start(&ctx, &saga)?;
            return Ok(Aborted::StartRolledBack {
                id: saga.id.clone(),
                branch: saga.original_branch.clone(),
            });
        }
    }
    let orig_tip = ctx.original_tip(&saga)?;
    if let (Phase::Finishing, Some(plan)) = (saga.phase, saga.finish.clone()) {
        if orig_tip != plan.onto && is_our_squash(&ctx, &orig_tip, &plan)? {
            // The squash is history already; finishing the cleanup is all
            // that is left, and is what running finish would do.
            let mut plan = plan;
            plan.squash = Some(orig_tip.clone());
            saga.finish = Some(plan);
            state::save(&path, &saga)?;
            if let Some(plan) = &saga.finish {
                cleanup(&ctx, &saga, plan, true, true)?;
            }
            return Ok(Aborted::AlreadyLanded {
                commit: orig_tip,
                branch: saga.original_branch.clone(),
            });
        }
    }
    ctx.wait_index_lock()?;
    if let Some(op) = ctx.repo.in_progress() {
        return Err(SagaError::OperationInProgress { op });
    }
    let wip_ref = saga.wip_ref();
    let orig_ref = saga.original_ref();
    // HEAD may also be where the saga's own git actions left it (a
    // `checkout -b` the agent ran): the abort starts from there.
    let moved_by_saga = || -> Result<bool, SagaError> {
        let id = ctx.rev("HEAD")?;
        Ok(super::refs::head_moved_by_saga(
            &saga,
            head.as_deref(),
            id.as_deref(),
        ))
    };
    if head.as_deref() != Some(wip_ref.as_str())
        && head.as_deref() != Some(orig_ref.as_str())
        && !moved_by_saga()?
    {
        return Err(SagaError::NotOnSagaBranch {
            current: describe_head(head.as_deref()),
            wip: saga.wip_branch.clone(),
            original: saga.original_branch.clone(),
        });
    }
    let wip_tip = ctx.rev(&wip_ref)?;
    let head_commit = ctx.rev("HEAD")?.ok_or_else(|| SagaError::Interrupted {
        operation: super::Operation::Abort,
        detail: "HEAD does not point at a commit".into(),
    })?;

    // 1. Keep what is here now.
    let (work, index) = ctx.snapshot_trees()?;
    let head_tree = ctx.tree(&head_commit)?;
    let previous = ctx.rev(&saga.abort_snapshot_ref())?;
    let abort_snapshot = if work != head_tree || index != head_tree {
        let i = ctx.commit_tree(
            &index,
            &[&head_commit],
            &format!("fararoni: index when saga {} was aborted", saga.id),
        )?;
        let mut parents = vec![head_commit.as_str(), i.as_str()];
        if let Some(p) = &previous {
            parents.push(p);
        }
        let w = ctx.commit_tree(
            &work,
            &parents,
            &format!("fararoni: working tree when saga {} was aborted", saga.id),
        )?;
        ctx.update_ref(
            &saga.abort_snapshot_ref(),
            &w,
            "fararoni: saga abort snapshot",
        )?;
        Some(w)
    } else {
        previous
    };
    if let Some(tip) = &wip_tip {
        ctx.update_ref(&saga.aborted_ref(), tip, "fararoni: saga aborted")?;
    }

    // 2. Where to go: the start state, on the original branch's tip.
    let (start_work, start_index) = match &saga.start_snapshot {
        Some(s) => (ctx.tree(s)?, ctx.tree(&format!("{s}^2"))?),
        None => {
            let t = ctx.tree(&saga.base)?;
            (t.clone(), t)
        }
    };
    let (target_work, target_index) = if orig_tip == saga.base {
        (start_work, start_index)
    } else if let Some(s) = &saga.start_snapshot {
        let merge = ctx.merge_tree(&orig_tip, s, Some(&saga.base))?;
        if !merge.conflicts.is_empty() {
            return Err(SagaError::AbortConflict {
                original: saga.original_branch.clone(),
                files: merge.conflicts,
            });
        }
        (merge.tree, ctx.tree(&orig_tip)?)
    } else {
        let t = ctx.tree(&orig_tip)?;
        (t.clone(), t)
    };
    saga.phase = Phase::Aborting;
    state::save(&path, &saga)?;

    // 3. Move, tree to tree: everything removed or overwritten is in the
    //    snapshot just taken or in the wip commits.
    ctx.run(&["read-tree", "--reset", "-u", &work])?;
    ctx.run(&["read-tree", "-m", "-u", &work, &target_work])?;
    if head.as_deref() != Some(orig_ref.as_str()) {
        ctx.run(&[
            "symbolic-ref",
            "-m",
            &format!("fararoni: saga abort, back to {}", saga.original_branch),
            "HEAD",
            &orig_ref,
        ])?;
    }
    ctx.run(&["read-tree", "-m", &target_index])?;
    // Only refreshes stat information; files that differ stay as they are.
    let _ = ctx.git(["update-index", "-q", "--refresh"]).output();
    let squash_msg = ctx.git_dir.join("SQUASH_MSG");
    if squash_msg.exists() {
        let _ = std::fs::remove_file(&squash_msg);
    }

    // 4. Put back the other refs the saga changed; then drop the branch
    //    and the state.
    let refs = super::refs::restore(&ctx, &saga)?;
    // 4. Drop the branch and the state.
    if let Some(tip) = &wip_tip {
        ctx.delete_ref(&wip_ref, tip)?;
    }
    let kept_tip = wip_tip.or_else(|| ctx.rev(&saga.aborted_ref()).ok().flatten());
    let record = AbortRecord {
        id: saga.id.clone(),
        name: saga.name.clone(),
        original_branch: saga.original_branch.clone(),
        base: saga.base.clone(),
        wip_branch: saga.wip_branch.clone(),
        started_at: saga.started_at.clone(),
        aborted_at: Utc::now().rfc3339(),
        tip: kept_tip.clone(),
        start_snapshot: saga.start_snapshot.clone(),
        abort_snapshot: abort_snapshot.clone(),
    };
    let json = serde_json::to_vec_pretty(&record).expect("an abort record always serialises");
    let rp = record_path(&ctx, &saga.id);
    state::write_atomic(&rp, &json).map_err(|source| SagaError::Io { path: rp, source })?;
    state::remove(&path)?;
    Ok(Aborted::Returned {
        id: saga.id.clone(),
        branch: saga.original_branch.clone(),
        aborted_ref: kept_tip.as_ref().map(|_| saga.aborted_ref()),
        tip: kept_tip,
        restored_uncommitted: saga.dirty_at_start,
        abort_snapshot,
        refs,
    })
}
