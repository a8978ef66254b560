//! Layer 2 of the protection triad: the git saga. Work happens on an
//! ephemeral branch `fararoni/wip-<YYYYMMDD-HHMMSS>`, and lands on the
//! user's branch as one `[FARARONI] …` squash commit, or is abandoned with
//! its tip kept under `refs/fararoni/aborted/<id>`.
//!
//! Owns: the activation conditions, `start`, `finish`, `abort`, `status`,
//! `list` and [`ensure_saga`] (what the agent's LOCAL_WRITE git actions
//! call). State lives in `<git_dir>/fararoni/saga.json`, per worktree.
//! Every mutating verb holds the repository lock and records each step
//! before and after it happens, so any of them killed at any point can be
//! resumed by running it again; a finish never applies the squash twice.
//!
//! Never prints. Every change the user can see (branches, HEAD, index,
//! working tree, commits) is made by the `git` executable, so the user's
//! hooks and config apply; internal snapshot commits live only under
//! `refs/fararoni/`.

mod abort;
mod error;
mod finish;
mod ops;
pub mod refs;
mod state;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::clock::Utc;
use crate::git::run::Actor;
use crate::git::Head;

pub use abort::{abort, Aborted};
pub use error::{Condition, FailedCondition, Operation, SagaError, SagaErrorClass};
pub use finish::{finish, FinishOptions, Finished};
pub use state::{
    load as load_state, state_path, FinishPlan, FinishStep, Phase, Saga, STATE_VERSION,
};

use ops::Ctx;

/// The prefix of every ephemeral branch.
pub const WIP_PREFIX: &str = "fararoni/wip-";

/// The prefix of every squash commit's subject.
pub const COMMIT_PREFIX: &str = "[FARARONI]";

/// Options of [`start`].
#[derive(Debug, Clone, Default)]
pub struct StartOptions {
    /// A name for the saga (used as the default commit subject).
    pub name: Option<String>,
    /// Who starts it (exported to hooks as `FARARONI_ACTOR`).
    pub agent: bool,
}

/// A saga that was just started.
#[derive(Debug, Clone)]
pub struct Started {
    /// The saga.
    pub saga: Saga,
    /// Things worth telling the user (the working tree changed while
    /// switching, e.g. because of a post-checkout hook).
    pub warnings: Vec<String>,
}

/// Returns the activation conditions that do not hold in `dir`; empty when
/// a saga can start. Takes no lock and changes nothing.
pub fn check_conditions(dir: &Path) -> Result<Vec<FailedCondition>, SagaError> {
    match Ctx::open(dir, Actor::Human) {
        Ok(ctx) => conditions(&ctx),
        Err(e) => not_a_repo(e),
    }
}

/// Returns the active saga of the worktree containing `dir`, starting one
/// when there is none: what the agent calls before a LOCAL_WRITE git action.
///
/// Fails with [`SagaError::Conditions`] listing every activation condition
/// that does not hold, with [`SagaError::NotOnSagaBranch`] when a saga is
/// active but HEAD was moved off its branch, and with
/// [`SagaError::Interrupted`] when a finish or abort was interrupted.
pub fn ensure_saga(repo_dir: impl AsRef<Path>) -> Result<Saga, SagaError> {
    let dir = repo_dir.as_ref();
    let ctx = match Ctx::open(dir, Actor::Agent) {
        Ok(ctx) => ctx,
        Err(e) => return Err(SagaError::Conditions(not_a_repo(e)?)),
    };
    let _lock = ctx.lock()?;
    if let Some(saga) = recover_start(&ctx)? {
        match saga.phase {
            Phase::Active | Phase::Starting => {}
            Phase::Finishing | Phase::Aborting => {
                let op = if saga.phase == Phase::Finishing {
                    Operation::Finish
                } else {
                    Operation::Abort
                };
                return Err(SagaError::Interrupted {
                    operation: op,
                    detail: format!(
                        "saga `{}` is half-way through `saga {}`; run `git fararoni saga {}` to complete it before writing",
                        saga.id,
                        op.as_str(),
                        op.as_str()
                    ),
                });
            }
        }
        if let Some(op) = ctx.repo.in_progress() {
            return Err(SagaError::Conditions(vec![in_progress_failure(op)]));
        }
        let head = ctx.head_ref()?;
        if head.as_deref() != Some(saga.wip_ref().as_str()) {
            return Err(SagaError::NotOnSagaBranch {
                current: describe_head(head.as_deref()),
                wip: saga.wip_branch.clone(),
                original: saga.original_branch.clone(),
            });
        }
        return Ok(saga);
    }
    let failed = conditions(&ctx)?;
    if !failed.is_empty() {
        return Err(SagaError::Conditions(failed));
    }
    Ok(do_start(ctx, None)?.saga)
}

/// Starts a saga in the worktree containing `dir`: checks every activation
/// condition, creates `fararoni/wip-<timestamp>` at HEAD and switches to
/// it, carrying the working tree along untouched.
pub fn start(dir: impl AsRef<Path>, options: &StartOptions) -> Result<Started, SagaError> {
    let name = match &options.name {
        Some(n) => Some(validate_name(n)?),
        None => None,
    };
    let dir = dir.as_ref();
    let actor = if options.agent {
        Actor::Agent
    } else {
        Actor::Human
    };
    let ctx = match Ctx::open(dir, actor) {
        Ok(ctx) => ctx,
        Err(e) => return Err(SagaError::Conditions(not_a_repo(e)?)),
    };
    let _lock = ctx.lock()?;
    recover_start(&ctx)?;
    let failed = conditions(&ctx)?;
    if !failed.is_empty() {
        return Err(SagaError::Conditions(failed));
    }
    do_start(ctx, name)
}

fn not_a_repo(e: SagaError) -> Result<Vec<FailedCondition>, SagaError> {
    match e {
        SagaError::NotARepository { path } => Ok(vec![FailedCondition {
            condition: Condition::GitRepository,
            detail: format!("`{}` is not inside a git repository", path.display()),
            hint: "run it inside a repository's working tree (or create one with `git init`)"
                .into(),
        }]),
        SagaError::Bare { path } => Ok(vec![FailedCondition {
            condition: Condition::GitRepository,
            detail: format!(
                "`{}` is a bare repository, without a working tree",
                path.display()
            ),
            hint: "run it in a worktree (`git worktree add <path>`)".into(),
        }]),
        other => Err(other),
    }
}

fn in_progress_failure(op: &'static str) -> FailedCondition {
    FailedCondition {
        condition: Condition::NoOperationInProgress,
        detail: format!("a {op} is in progress"),
        hint: if op == "bisect" {
            "end it with `git bisect reset`".into()
        } else {
            format!("finish it (`git {op} --continue`) or cancel it (`git {op} --abort`)")
        },
    }
}

/// Checks every condition after the first (the repository exists).
fn conditions(ctx: &Ctx) -> Result<Vec<FailedCondition>, SagaError> {
    let mut failed = Vec::new();
    let mut branch = None;
    match ctx.repo.head() {
        Ok(Head::Branch { name, .. }) => branch = Some(name),
        Ok(Head::Unborn { name }) => failed.push(FailedCondition {
            condition: Condition::ValidHead,
            detail: format!("the branch `{name}` has no commit yet"),
            hint: "make a first commit (`git add` and `git commit`)".into(),
        }),
        Ok(Head::Detached { id }) => failed.push(FailedCondition {
            condition: Condition::OnBranch,
            detail: format!("HEAD is detached at {}", short(&id)),
            hint: "switch to a branch (`git switch <branch>`) or create one here (`git switch -c <name>`)"
                .into(),
        }),
        Err(e) => failed.push(FailedCondition {
            condition: Condition::ValidHead,
            detail: format!("HEAD cannot be read: {e}"),
            hint: "check the repository with `git status` and `git fsck`".into(),
        }),
    }
    if let Some(op) = ctx.repo.in_progress() {
        failed.push(in_progress_failure(op));
    }
    match state::load(&ctx.state_path()) {
        Ok(Some(saga)) => failed.push(FailedCondition {
            condition: Condition::NoActiveSaga,
            detail: format!(
                "saga `{}` is already {} on `{}`",
                saga.id,
                match saga.phase {
                    Phase::Active | Phase::Starting => "active",
                    Phase::Finishing => "finishing (interrupted)",
                    Phase::Aborting => "aborting (interrupted)",
                },
                saga.wip_branch
            ),
            hint: "finish it (`git fararoni saga finish`) or abort it (`git fararoni saga abort`)"
                .into(),
        }),
        Ok(None) => {
            if let Some(b) = branch.as_deref().filter(|b| b.starts_with(WIP_PREFIX)) {
                failed.push(FailedCondition {
                    condition: Condition::NoActiveSaga,
                    detail: format!(
                        "HEAD is on the ephemeral branch `{b}`, whose saga state is gone"
                    ),
                    hint: "switch to your own branch first".into(),
                });
            }
        }
        Err(e) => failed.push(FailedCondition {
            condition: Condition::NoActiveSaga,
            detail: e.to_string(),
            hint: e.hints().into_iter().next().unwrap_or_default(),
        }),
    }
    Ok(failed)
}

/// Rejects names that would not make a sensible commit subject.
fn validate_name(name: &str) -> Result<String, SagaError> {
    let trimmed = name.trim();
    let reason = if trimmed.is_empty() {
        Some("it is empty")
    } else if trimmed.chars().count() > 100 {
        Some("it is longer than 100 characters")
    } else if trimmed.chars().any(char::is_control) {
        Some("it contains control characters or line breaks")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(SagaError::InvalidName {
            name: name.to_string(),
            reason,
        }),
        None => Ok(trimmed.to_string()),
    }
}

/// Creates the branch and the state; conditions were checked under the lock.
fn do_start(mut ctx: Ctx, name: Option<String>) -> Result<Started, SagaError> {
    let Head::Branch {
        name: original,
        id: base,
    } = ctx.repo.head()?
    else {
        return Err(SagaError::Interrupted {
            operation: Operation::Start,
            detail: "HEAD changed while the saga was starting".into(),
        });
    };
    ctx.wait_index_lock()?;
    let before = ctx.status_raw()?;
    let dirty = !before.is_empty();
    let id = unique_id(&ctx, &Utc::now().compact())?;
    ctx.tx = Some(id.clone());
    let mut saga = Saga {
        version: state::STATE_VERSION,
        id: id.clone(),
        name,
        original_branch: original,
        base: base.clone(),
        wip_branch: format!("{WIP_PREFIX}{id}"),
        started_at: Utc::now().rfc3339(),
        dirty_at_start: dirty,
        start_snapshot: None,
        phase: Phase::Starting,
        finish: None,
        refs: Vec::new(),
    };
    if dirty {
        // Keep the uncommitted state (index and working tree) as internal
        // commits, stash-style: an abort restores exactly this.
        let (work, index) = ctx.snapshot_trees()?;
        let i = ctx.commit_tree(
            &index,
            &[&base],
            &format!("fararoni: index at the start of saga {id}"),
        )?;
        let w = ctx.commit_tree(
            &work,
            &[&base, &i],
            &format!("fararoni: working tree at the start of saga {id}"),
        )?;
        saga.start_snapshot = Some(w);
    }
    let path = ctx.state_path();
    state::save(&path, &saga)?;
    let switched = (|| {
        if let Some(w) = &saga.start_snapshot {
            ctx.update_ref(
                &saga.start_snapshot_ref(),
                w,
                "fararoni: saga start snapshot",
            )?;
        }
        ctx.run(&["switch", "-q", "--no-track", "-c", &saga.wip_branch])
    })();
    let mut warnings = Vec::new();
    if let Err(e) = switched {
        // Nothing moved: take back what was recorded.
        if ctx.head_ref()?.as_deref() != Some(saga.wip_ref().as_str()) {
            if let Some(w) = &saga.start_snapshot {
                let _ = ctx.delete_ref(&saga.start_snapshot_ref(), w);
            }
            if ctx.rev(&saga.wip_ref())?.as_deref() == Some(base.as_str()) {
                let _ = ctx.delete_ref(&saga.wip_ref(), &base);
            }
            state::remove(&path)?;
            return Err(e);
        }
        // Switched, but git failed afterwards: a post-checkout hook's exit
        // status becomes git's.
        warnings.push(format!("switched, but git reported a failure: {e}"));
    }
    let after = ctx.status_raw()?;
    if after != before {
        warnings.push(
            "the working tree changed while switching to the saga branch (a post-checkout hook?); check `git status`"
                .to_string(),
        );
    }
    saga.phase = Phase::Active;
    state::save(&path, &saga)?;
    Ok(Started { saga, warnings })
}

/// Returns `base`, or `base-2`, `base-3`… when a saga already used it.
fn unique_id(ctx: &Ctx, base: &str) -> Result<String, SagaError> {
    let refs = ctx.read(&[
        "for-each-ref",
        "--format=%(refname)",
        "refs/heads/fararoni/",
        "refs/fararoni/",
    ])?;
    let taken = |id: &str| {
        let wip = format!("refs/heads/{WIP_PREFIX}{id}");
        let aborted = state::aborted_ref(id);
        let snaps = format!("refs/fararoni/snapshots/{id}/");
        refs.lines()
            .any(|r| r == wip || r == aborted || r.starts_with(&snaps))
    };
    let mut n = 1;
    loop {
        let id = if n == 1 {
            base.to_string()
        } else {
            format!("{base}-{n}")
        };
        if !taken(&id) {
            return Ok(id);
        }
        n += 1;
    }
}

/// Completes or rolls back a `saga start` that was interrupted, then
/// returns the worktree's saga (if any). Call under the lock.
pub(crate) fn recover_start(ctx: &Ctx) -> Result<Option<Saga>, SagaError> {
    let path = ctx.state_path();
    let Some(mut saga) = state::load(&path)? else {
        return Ok(None);
    };
    if saga.phase != Phase::Starting {
        return Ok(Some(saga));
    }
    if ctx.head_ref()?.as_deref() == Some(saga.wip_ref().as_str()) {
        saga.phase = Phase::Active;
        state::save(&path, &saga)?;
        return Ok(Some(saga));
    }
    rollback_start(ctx, &saga)?;
    Ok(None)
}

/// Undoes a start that never switched: nothing of the user's was touched.
pub(crate) fn rollback_start(ctx: &Ctx, saga: &Saga) -> Result<(), SagaError> {
    if ctx.rev(&saga.wip_ref())?.as_deref() == Some(saga.base.as_str()) {
        ctx.delete_ref(&saga.wip_ref(), &saga.base)?;
    }
    if let Some(w) = &saga.start_snapshot {
        if ctx.rev(&saga.start_snapshot_ref())?.as_deref() == Some(w.as_str()) {
            ctx.delete_ref(&saga.start_snapshot_ref(), w)?;
        }
    }
    state::remove(&ctx.state_path())
}

/// Returns a commit id shortened for messages.
pub(crate) fn short(id: &str) -> &str {
    id.get(..10).unwrap_or(id)
}

/// Describes where HEAD is, for messages.
pub(crate) fn describe_head(full_ref: Option<&str>) -> String {
    match full_ref {
        Some(r) => format!("`{}`", r.strip_prefix("refs/heads/").unwrap_or(r)),
        None => "a detached HEAD".into(),
    }
}

/// An interrupted operation and how to complete it.
#[derive(Debug, Clone, Serialize)]
pub struct Interruption {
    /// Which verb was interrupted.
    pub operation: Operation,
    /// How far it got, when known (`planned`, `switched`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<&'static str>,
    /// What happened and where things are.
    pub explanation: String,
    /// The commands that complete it, preferred first.
    pub next: Vec<String>,
}

/// What `saga status` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// The worktree's saga, if any.
    pub saga: Option<Saga>,
    /// The branch HEAD is on (short name); `None` when detached.
    pub head: Option<String>,
    /// Whether HEAD is on the saga's branch.
    pub on_saga_branch: bool,
    /// Commits on the wip branch that the original branch does not have.
    pub wip_commits: Option<usize>,
    /// Whether the wip branch exists.
    pub wip_exists: bool,
    /// An interrupted operation, and what to run.
    pub interrupted: Option<Interruption>,
    /// Other things worth knowing.
    pub notes: Vec<String>,
    /// The top of the working tree.
    pub worktree: PathBuf,
}

/// Describes the saga of the worktree containing `dir` without changing
/// anything (no lock is taken).
pub fn status(dir: impl AsRef<Path>) -> Result<Status, SagaError> {
    let ctx = Ctx::open(dir.as_ref(), Actor::Human)?;
    let saga = state::load(&ctx.state_path())?;
    let head = ctx.head_ref()?;
    let head_short = head
        .as_deref()
        .map(|r| r.strip_prefix("refs/heads/").unwrap_or(r).to_string());
    let mut notes = Vec::new();
    if let Some(lock) = ctx.index_lock() {
        notes.push(format!(
            "`{}` exists: a git process is running, or one was killed; if none is running, remove it",
            lock.display()
        ));
    }
    let Some(saga) = saga else {
        if let Some(b) = head_short.as_deref().filter(|b| b.starts_with(WIP_PREFIX)) {
            notes.push(format!(
                "HEAD is on `{b}`, an ephemeral branch whose saga state is gone"
            ));
        }
        return Ok(Status {
            saga: None,
            head: head_short,
            on_saga_branch: false,
            wip_commits: None,
            wip_exists: false,
            interrupted: None,
            notes,
            worktree: ctx.workdir.clone(),
        });
    };
    let on_saga_branch = head.as_deref() == Some(saga.wip_ref().as_str());
    let wip_tip = ctx.rev(&saga.wip_ref())?;
    let orig_tip = ctx.rev(&saga.original_ref())?;
    let wip_commits = match (&wip_tip, &orig_tip) {
        (Some(w), Some(o)) => Some(ctx.count(o, w)?),
        _ => None,
    };
    if wip_tip.is_none() {
        notes.push(format!(
            "the saga branch `{}` no longer exists",
            saga.wip_branch
        ));
    }
    if orig_tip.is_none() {
        notes.push(format!(
            "the original branch `{}` no longer exists (it was at {})",
            saga.original_branch,
            short(&saga.base)
        ));
    } else if orig_tip.as_deref() != Some(saga.base.as_str()) && saga.phase == Phase::Active {
        notes.push(format!(
            "`{}` moved since the saga started; finish merges the saga into its new tip",
            saga.original_branch
        ));
    }
    let interrupted = match saga.phase {
        Phase::Active => {
            if !on_saga_branch {
                notes.push(format!(
                    "HEAD is on {}, not on the saga branch `{}`; switch back with `git switch {}`",
                    describe_head(head.as_deref()),
                    saga.wip_branch,
                    saga.wip_branch
                ));
            }
            None
        }
        Phase::Starting => Some(Interruption {
            operation: Operation::Start,
            step: None,
            explanation: if on_saga_branch {
                format!(
                    "`saga start` was interrupted after switching to `{}`; the saga is usable",
                    saga.wip_branch
                )
            } else {
                format!(
                    "`saga start` was interrupted before switching to `{}`; nothing of yours changed",
                    saga.wip_branch
                )
            },
            next: vec![
                "git fararoni saga abort".into(),
                "git fararoni saga start".into(),
            ],
        }),
        Phase::Finishing => {
            let plan = saga.finish.as_ref();
            let landed = match (plan, &orig_tip) {
                (Some(p), Some(o)) if o != &p.onto => finish::is_our_squash(&ctx, o, p)?,
                _ => false,
            };
            let step = plan.map(|p| p.step.as_str());
            let explanation = if landed {
                format!(
                    "`saga finish` was interrupted after the squash commit {} landed on `{}`; only cleanup remains",
                    orig_tip.as_deref().map(short).unwrap_or_default(),
                    saga.original_branch
                )
            } else {
                format!(
                    "`saga finish` was interrupted (last step done: {}); `{}` still points at {}, the squash has not been committed",
                    step.unwrap_or("none"),
                    saga.original_branch,
                    orig_tip.as_deref().map(short).unwrap_or("(missing)")
                )
            };
            Some(Interruption {
                operation: Operation::Finish,
                step,
                explanation,
                next: vec![
                    "git fararoni saga finish".into(),
                    "git fararoni saga abort".into(),
                ],
            })
        }
        Phase::Aborting => Some(Interruption {
            operation: Operation::Abort,
            step: None,
            explanation: format!(
                "`saga abort` was interrupted on its way back to `{}`; everything is kept under refs/fararoni/",
                saga.original_branch
            ),
            next: vec!["git fararoni saga abort".into()],
        }),
    };
    Ok(Status {
        head: head_short,
        on_saga_branch,
        wip_commits,
        wip_exists: wip_tip.is_some(),
        interrupted,
        notes,
        worktree: ctx.workdir.clone(),
        saga: Some(saga),
    })
}

/// One saga in `saga list`.
#[derive(Debug, Clone, Serialize)]
pub struct ListEntry {
    /// `active` (in some worktree) or `aborted`.
    pub state: &'static str,
    /// The saga id.
    pub id: String,
    /// Its name, when it had one.
    pub name: Option<String>,
    /// The wip branch (active) or the ref keeping its tip (aborted).
    #[serde(rename = "ref")]
    pub reference: String,
    /// The commit it points at.
    pub tip: Option<String>,
    /// The branch it started from, when known.
    pub original_branch: Option<String>,
    /// When it started, when known.
    pub started_at: Option<String>,
    /// When it was aborted (aborted sagas, when known).
    pub aborted_at: Option<String>,
    /// The phase (active sagas).
    pub phase: Option<Phase>,
    /// The worktree it is active in (active sagas).
    pub worktree: Option<PathBuf>,
    /// The subject of the tip commit.
    pub subject: Option<String>,
    /// Refs of snapshots taken of uncommitted work (start, abort).
    pub snapshots: Vec<String>,
}

/// Lists the active sagas of every worktree of the repository containing
/// `dir`, then the aborted ones (newest first). Changes nothing.
pub fn list(dir: impl AsRef<Path>) -> Result<Vec<ListEntry>, SagaError> {
    let ctx = Ctx::open(dir.as_ref(), Actor::Human)?;
    let mut out = Vec::new();
    let mut state_dirs: Vec<(PathBuf, Option<PathBuf>)> =
        vec![(ctx.common_dir.clone(), main_worktree(&ctx.common_dir))];
    if let Ok(rd) = std::fs::read_dir(ctx.common_dir.join("worktrees")) {
        let mut linked: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        linked.sort();
        for d in linked {
            let wt = std::fs::read_to_string(d.join("gitdir"))
                .ok()
                .map(|s| PathBuf::from(s.trim()))
                .and_then(|p| p.parent().map(Path::to_path_buf));
            state_dirs.push((d, wt));
        }
    }
    for (git_dir, worktree) in state_dirs {
        let Ok(Some(saga)) = state::load(&state::state_path(&git_dir)) else {
            continue;
        };
        let tip = ctx.rev(&saga.wip_ref())?;
        let subject = match &tip {
            Some(t) => Some(ctx.commit_info(t)?.2),
            None => None,
        };
        out.push(ListEntry {
            state: "active",
            id: saga.id.clone(),
            name: saga.name.clone(),
            reference: saga.wip_branch.clone(),
            tip,
            original_branch: Some(saga.original_branch.clone()),
            started_at: Some(saga.started_at.clone()),
            aborted_at: None,
            phase: Some(saga.phase),
            worktree,
            subject,
            snapshots: saga
                .start_snapshot
                .as_ref()
                .map(|_| vec![saga.start_snapshot_ref()])
                .unwrap_or_default(),
        });
    }
    let refs = ctx.read(&[
        "for-each-ref",
        "--sort=-refname",
        "--format=%(refname)%00%(objectname)%00%(subject)",
        "refs/fararoni/aborted/",
    ])?;
    let snaps = ctx.read(&[
        "for-each-ref",
        "--format=%(refname)",
        "refs/fararoni/snapshots/",
    ])?;
    for line in refs.lines() {
        let mut f = line.splitn(3, '\0');
        let reference = f.next().unwrap_or_default().to_string();
        let tip = f.next().map(String::from);
        let subject = f.next().map(String::from);
        let id = reference
            .strip_prefix("refs/fararoni/aborted/")
            .unwrap_or(&reference)
            .to_string();
        let record = abort::load_record(&ctx, &id);
        let prefix = format!("refs/fararoni/snapshots/{id}/");
        out.push(ListEntry {
            state: "aborted",
            name: record.as_ref().and_then(|r| r.name.clone()),
            original_branch: record.as_ref().map(|r| r.original_branch.clone()),
            started_at: record.as_ref().map(|r| r.started_at.clone()),
            aborted_at: record.as_ref().map(|r| r.aborted_at.clone()),
            id,
            reference,
            tip,
            phase: None,
            worktree: None,
            subject,
            snapshots: snaps
                .lines()
                .filter(|s| s.starts_with(&prefix))
                .map(String::from)
                .collect(),
        });
    }
    Ok(out)
}

/// Returns the main worktree of a repository whose common dir is `.git`.
fn main_worktree(common_dir: &Path) -> Option<PathBuf> {
    (common_dir.file_name()? == ".git").then(|| common_dir.parent().map(Path::to_path_buf))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saga_names_are_validated() {
        assert_eq!(validate_name("  fix it ").expect("ok"), "fix it");
        assert_eq!(
            validate_name("arreglar el ñandú").expect("ok"),
            "arreglar el ñandú"
        );
        assert!(matches!(
            validate_name("  "),
            Err(SagaError::InvalidName { .. })
        ));
        assert!(matches!(
            validate_name("a\nb"),
            Err(SagaError::InvalidName { .. })
        ));
        assert!(validate_name(&"x".repeat(101)).is_err());
    }

    #[test]
    fn saga_describe_head_names_branches_and_detached() {
        assert_eq!(describe_head(Some("refs/heads/feature/x")), "`feature/x`");
        assert_eq!(describe_head(None), "a detached HEAD");
        assert_eq!(short("0123456789abcdef"), "0123456789");
        assert_eq!(short("abc"), "abc");
    }
}
