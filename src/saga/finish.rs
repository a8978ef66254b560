//! `saga finish`: land the wip branch on the original branch as one
//! `[FARARONI] …` squash commit.
//!
//! The result is computed first with `git merge-tree --write-tree`, which
//! touches neither the index nor the working tree, so a conflict changes
//! nothing. Then a plan (wip tip, original tip, result tree, message) is
//! recorded in the state file, and the steps run: `git switch <original>`,
//! `git merge --squash <wip tip>`, `git commit`, delete the wip branch.
//! Each step is recorded when done, but resuming decides from what the
//! repository shows: the original branch's tip is our squash commit
//! (parent = planned base, `[FARARONI]` subject, planned tree or subject)
//! → only cleanup is left; the staged index equals the planned result →
//! commit; a half-done `git switch` or `git merge --squash` (every changed
//! path holds a version from one of the planned trees) → completed from
//! the recorded tree. Anything else stops with an explanation. The squash
//! is therefore never applied twice. A squash that would add or change
//! files of our store `.fararoni/` is refused at planning, before anything
//! moves.

use crate::git::run::Actor;

use super::ops::{Ctx, Entry};
use super::state::{self, FinishPlan, FinishStep, Phase, Saga};
use super::{describe_head, recover_start, short, Operation, SagaError, COMMIT_PREFIX};

/// Options of [`finish`].
#[derive(Debug, Clone, Default)]
pub struct FinishOptions {
    /// The commit message (after `[FARARONI] `); default: a summary of the
    /// wip commits' subjects.
    pub message: Option<String>,
    /// Commit uncommitted changes on the wip branch into the saga first.
    pub include_dirty: bool,
    /// Whether the agent (not a person) finishes it.
    pub agent: bool,
}

/// How a finish ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finished {
    /// The squash commit is on the original branch.
    Landed {
        /// The squash commit.
        commit: String,
        /// The original branch.
        branch: String,
        /// The commit's subject.
        subject: String,
        /// How many wip commits it squashed.
        commits: usize,
        /// Whether this run completed an interrupted finish.
        resumed: bool,
        /// Set when the wip branch moved meanwhile and was kept.
        kept_wip: Option<String>,
    },
    /// The saga changed nothing relative to the original branch.
    NothingToMerge {
        /// The original branch.
        branch: String,
        /// Whether this run completed an interrupted finish.
        resumed: bool,
    },
}

/// Finishes (or resumes finishing) the saga of the worktree containing `dir`.
pub fn finish(
    dir: impl AsRef<std::path::Path>,
    options: &FinishOptions,
) -> Result<Finished, SagaError> {
    let message = match &options.message {
        Some(m) if m.trim().is_empty() => return Err(SagaError::EmptyMessage),
        Some(m) => Some(m.trim().to_string()),
        None => None,
    };
    let actor = if options.agent {
        Actor::Agent
    } else {
        Actor::Human
    };
    let mut ctx = Ctx::open(dir.as_ref(), actor)?;
    let _lock = ctx.lock()?;
    let Some(mut saga) = recover_start(&ctx)? else {
        return Err(no_saga(&ctx)?);
    };
    ctx.tx = Some(saga.id.clone());
    ctx.wait_index_lock()?;
    let resumed = match saga.phase {
        Phase::Aborting => {
            return Err(SagaError::Interrupted {
                operation: Operation::Finish,
                detail: format!(
                    "saga `{}` is half-way through an abort; run `git fararoni saga abort` to complete it",
                    saga.id
                ),
            })
        }
        Phase::Finishing if saga.finish.is_some() => {
            if let (Some(m), Some(plan)) = (&message, saga.finish.as_mut()) {
                if plan.step != FinishStep::Committed {
                    plan.message = format_message(m);
                    plan.custom_message = true;
                }
            }
            true
        }
        _ => {
            plan(&ctx, &mut saga, message.as_deref(), options.include_dirty)?;
            false
        }
    };
    execute(&ctx, &mut saga, message.as_deref(), resumed)
}

/// Returns the "no saga" error, noting a stray wip branch HEAD is on.
pub(crate) fn no_saga(ctx: &Ctx) -> Result<SagaError, SagaError> {
    let head = ctx.head_ref()?;
    let stray = head
        .as_deref()
        .and_then(|r| r.strip_prefix("refs/heads/"))
        .filter(|b| b.starts_with(super::WIP_PREFIX))
        .map(String::from);
    Ok(SagaError::NoSaga {
        stray_branch: stray,
    })
}

/// Computes the result without touching anything, and records the plan.
fn plan(
    ctx: &Ctx,
    saga: &mut Saga,
    message: Option<&str>,
    include_dirty: bool,
) -> Result<(), SagaError> {
    if let Some(op) = ctx.repo.in_progress() {
        return Err(SagaError::OperationInProgress { op });
    }
    let wip_ref = saga.wip_ref();
    let orig_ref = saga.original_ref();
    let mut wip_tip = ctx.wip_tip(saga)?;
    let onto = ctx.original_tip(saga)?;
    if let Some(worktree) = ctx.checked_out_elsewhere(&orig_ref)? {
        return Err(SagaError::CheckedOutElsewhere {
            branch: saga.original_branch.clone(),
            worktree,
        });
    }
    let head = ctx.head_ref()?;
    let entries = ctx.status()?;
    if head.as_deref() == Some(wip_ref.as_str()) {
        if !entries.is_empty() {
            if !include_dirty {
                return Err(SagaError::Dirty {
                    wip: saga.wip_branch.clone(),
                    paths: entries.iter().map(|e| e.path.clone()).collect(),
                });
            }
            // Check for conflicts with the changes included, before
            // committing anything: a probe commit nothing points at.
            let (work, _) = ctx.snapshot_trees()?;
            let probe = ctx.commit_tree(&work, &[&wip_tip], "fararoni: finish probe")?;
            let merge = ctx.merge_tree(&onto, &probe, None)?;
            if !merge.conflicts.is_empty() {
                return Err(SagaError::Conflict {
                    original: saga.original_branch.clone(),
                    wip: saga.wip_branch.clone(),
                    files: merge.conflicts,
                });
            }
            refuse_store_changes(ctx, saga, &onto, &merge.tree)?;
            ctx.stage_user_work(None, &work)?;
            ctx.run(&[
                "commit",
                "-q",
                "-m",
                "Uncommitted changes included at saga finish",
            ])?;
            wip_tip = ctx.wip_tip(saga)?;
            let left = ctx.status()?;
            if !left.is_empty() {
                // A hook changed files after committing; nothing is lost,
                // but the squash would not match what the user sees.
                return Err(SagaError::Dirty {
                    wip: saga.wip_branch.clone(),
                    paths: left.iter().map(|e| e.path.clone()).collect(),
                });
            }
        }
    } else if head.as_deref() == Some(orig_ref.as_str()) {
        if !entries.is_empty() {
            return Err(SagaError::DirtyOriginal {
                original: saga.original_branch.clone(),
                wip: saga.wip_branch.clone(),
            });
        }
    } else {
        return Err(SagaError::NotOnSagaBranch {
            current: describe_head(head.as_deref()),
            wip: saga.wip_branch.clone(),
            original: saga.original_branch.clone(),
        });
    }
    let merge = ctx.merge_tree(&onto, &wip_tip, None)?;
    if !merge.conflicts.is_empty() {
        return Err(SagaError::Conflict {
            original: saga.original_branch.clone(),
            wip: saga.wip_branch.clone(),
            files: merge.conflicts,
        });
    }
    refuse_store_changes(ctx, saga, &onto, &merge.tree)?;
    let subjects = ctx.subjects(&onto, &wip_tip)?;
    let commits = ctx.count(&onto, &wip_tip)?;
    let custom = message.map(format_message);
    let message_is_custom = custom.is_some();
    let message = custom.unwrap_or_else(|| default_message(saga, &subjects));
    saga.finish = Some(FinishPlan {
        step: FinishStep::Planned,
        wip_tree: ctx.tree(&wip_tip)?,
        wip_tip,
        onto_tree: ctx.tree(&onto)?,
        onto,
        result_tree: merge.tree,
        custom_message: message_is_custom,
        message,
        commits,
        squash: None,
    });
    saga.phase = Phase::Finishing;
    state::save(&ctx.state_path(), saga)
}

/// Fails unless a squash of `result` onto `onto` leaves the store as it is:
/// the saga's own commits may have taken it (`git add --all` where nothing
/// ignores `.fararoni/`), and a squash of ours never carries it.
fn refuse_store_changes(ctx: &Ctx, saga: &Saga, onto: &str, result: &str) -> Result<(), SagaError> {
    let paths = ctx.store_changes(onto, result)?;
    if paths.is_empty() {
        Ok(())
    } else {
        Err(SagaError::StoreInSquash {
            original: saga.original_branch.clone(),
            wip: saga.wip_branch.clone(),
            paths,
        })
    }
}

/// Prefixes a user message with `[FARARONI] ` (once).
fn format_message(m: &str) -> String {
    let m = m.trim();
    if m.starts_with(COMMIT_PREFIX) {
        m.to_string()
    } else {
        format!("{COMMIT_PREFIX} {m}")
    }
}

/// Builds the default message: a subject summarising the wip commits and
/// a body listing each of them.
pub(crate) fn default_message(saga: &Saga, subjects: &[String]) -> String {
    let subject = match (&saga.name, subjects) {
        (Some(name), _) => name.clone(),
        (None, []) => format!("saga {}", saga.id),
        (None, [one]) => one.clone(),
        (None, many) => {
            let joined = many.join("; ");
            let head = format!("{} changes: ", many.len());
            let room = 72usize.saturating_sub(head.chars().count() + COMMIT_PREFIX.len() + 1);
            if joined.chars().count() <= room {
                format!("{head}{joined}")
            } else {
                let cut: String = joined.chars().take(room.saturating_sub(1)).collect();
                format!("{head}{}…", cut.trim_end())
            }
        }
    };
    let subject = subject
        .strip_prefix(COMMIT_PREFIX)
        .unwrap_or(&subject)
        .trim()
        .to_string();
    let mut msg = format!("{COMMIT_PREFIX} {subject}");
    if !subjects.is_empty() {
        msg.push_str(&format!(
            "\n\nSquashed from {} ({} {}):\n",
            saga.wip_branch,
            subjects.len(),
            if subjects.len() == 1 {
                "commit"
            } else {
                "commits"
            }
        ));
        for s in subjects {
            msg.push_str(&format!("\n- {s}"));
        }
    }
    msg
}

/// Returns whether `tip` is the squash commit `plan` describes.
pub(crate) fn is_our_squash(ctx: &Ctx, tip: &str, plan: &FinishPlan) -> Result<bool, SagaError> {
    if plan.squash.as_deref() == Some(tip) {
        return Ok(true);
    }
    let (parents, tree, subject) = ctx.commit_info(tip)?;
    Ok(parents.len() == 1
        && parents[0] == plan.onto
        && subject.starts_with(COMMIT_PREFIX)
        && (tree == plan.result_tree || subject == plan.subject()))
}

/// Carries out (or resumes) the recorded plan.
fn execute(
    ctx: &Ctx,
    saga: &mut Saga,
    message: Option<&str>,
    mut resumed: bool,
) -> Result<Finished, SagaError> {
    let path = ctx.state_path();
    let wip_ref = saga.wip_ref();
    let orig_ref = saga.original_ref();
    // Each pass either finishes or re-plans once after the original
    // branch or the wip branch moved; a third pass means something keeps
    // changing under us.
    for _ in 0..3 {
        let mut plan = saga.finish.clone().ok_or_else(|| SagaError::Interrupted {
            operation: Operation::Finish,
            detail: "the state file has no finish plan".into(),
        })?;
        let orig_tip = ctx.original_tip(saga)?;
        if orig_tip != plan.onto {
            if is_our_squash(ctx, &orig_tip, &plan)? {
                plan.squash = Some(orig_tip);
                plan.step = FinishStep::Committed;
                saga.finish = Some(plan.clone());
                state::save(&path, saga)?;
                return cleanup(ctx, saga, &plan, resumed, true);
            }
            // The original branch moved while the finish was interrupted:
            // plan again from a clean state, or stop and explain.
            replan(ctx, saga, message, &orig_tip)?;
            resumed = true;
            continue;
        }
        let head = ctx.head_ref()?;
        if head.as_deref() == Some(wip_ref.as_str()) {
            let wip_now = ctx.rev(&wip_ref)?;
            if wip_now.as_deref() != Some(plan.wip_tip.as_str()) {
                replan(ctx, saga, message, &orig_tip)?;
                resumed = true;
                continue;
            }
            let entries = ctx.status()?;
            if entries.is_empty() {
                // Ignored files in the way are the user's: never overwritten.
                ctx.run(&[
                    "switch",
                    "-q",
                    "--no-overwrite-ignore",
                    &saga.original_branch,
                ])?;
            } else {
                // A `git switch` killed half-way: every difference must be
                // a version from the wip tree or the original tree.
                explained(ctx, &entries, &[&plan.wip_tree, &plan.onto_tree])?;
                ctx.force_tree(&plan.onto_tree)?;
                ctx.run(&[
                    "symbolic-ref",
                    "-m",
                    "fararoni: saga finish (resumed switch)",
                    "HEAD",
                    &orig_ref,
                ])?;
            }
            plan.step = FinishStep::Switched;
            saga.finish = Some(plan.clone());
            state::save(&path, saga)?;
        } else if head.as_deref() != Some(orig_ref.as_str()) {
            return Err(SagaError::NotOnSagaBranch {
                current: describe_head(head.as_deref()),
                wip: saga.wip_branch.clone(),
                original: saga.original_branch.clone(),
            });
        }
        // HEAD is on the original branch, at the planned base.
        if plan.nothing_to_merge() {
            let entries = ctx.status()?;
            explained(ctx, &entries, &[&plan.onto_tree])?;
            return cleanup(ctx, saga, &plan, resumed, false);
        }
        let entries = ctx.status()?;
        if entries.is_empty() {
            // `--ff` so that `merge.ff = false` or `only` in the user's
            // config cannot make git refuse the squash.
            ctx.run(&[
                "merge",
                "--squash",
                "--ff",
                "--no-overwrite-ignore",
                "-q",
                &plan.wip_tip,
            ])?;
            let staged = ctx.read(&["write-tree"])?.trim().to_string();
            if staged != plan.result_tree {
                // git's merge and merge-tree disagreed (configuration);
                // trust what git staged, which we just made ourselves.
                plan.result_tree = staged;
            }
        } else {
            explained(ctx, &entries, &[&plan.onto_tree, &plan.result_tree])?;
            let fully_staged = entries.iter().all(|e| e.staged_only())
                && ctx.read(&["write-tree"])?.trim() == plan.result_tree;
            if !fully_staged {
                // A `git merge --squash` killed half-way.
                ctx.force_tree(&plan.result_tree)?;
            }
        }
        plan.step = FinishStep::Squashed;
        saga.finish = Some(plan.clone());
        state::save(&path, saga)?;
        ctx.git(["commit", "-q", "-m", plan.message.as_str()])
            .read()
            .map_err(|source| SagaError::CommitFailed {
                branch: saga.original_branch.clone(),
                source,
            })?;
        let tip = ctx.original_tip(saga)?;
        plan.squash = Some(tip);
        plan.step = FinishStep::Committed;
        saga.finish = Some(plan.clone());
        state::save(&path, saga)?;
        return cleanup(ctx, saga, &plan, resumed, true);
    }
    Err(SagaError::Interrupted {
        operation: Operation::Finish,
        detail: "the branches kept moving while finishing".into(),
    })
}

/// Drops the plan and plans again when the repository is in a plain state
/// (clean, on the wip or the original branch).
fn replan(
    ctx: &Ctx,
    saga: &mut Saga,
    message: Option<&str>,
    orig_tip: &str,
) -> Result<(), SagaError> {
    let head = ctx.head_ref()?;
    let plain = (head.as_deref() == Some(saga.wip_ref().as_str())
        || head.as_deref() == Some(saga.original_ref().as_str()))
        && ctx.status()?.is_empty();
    if !plain {
        return Err(SagaError::Interrupted {
            operation: Operation::Finish,
            detail: format!(
                "`{}` or `{}` moved (now at {}) while the finish was interrupted, and the working tree is not clean",
                saga.original_branch,
                saga.wip_branch,
                short(orig_tip)
            ),
        });
    }
    // A message the user gave survives re-planning; a default one is
    // recomputed from the commits now on the wip branch.
    let custom = saga
        .finish
        .as_ref()
        .filter(|p| p.custom_message)
        .map(|p| p.message.clone());
    saga.finish = None;
    saga.phase = Phase::Active;
    plan(
        ctx,
        saga,
        message.map(String::from).or(custom).as_deref(),
        false,
    )
}

/// Deletes the wip branch and the saga's state once the work has landed
/// (or turned out to change nothing).
pub(crate) fn cleanup(
    ctx: &Ctx,
    saga: &Saga,
    plan: &FinishPlan,
    resumed: bool,
    landed: bool,
) -> Result<Finished, SagaError> {
    let mut kept_wip = None;
    match ctx.rev(&saga.wip_ref())? {
        Some(w) if w == plan.wip_tip => ctx.delete_ref(&saga.wip_ref(), &w)?,
        Some(_) => kept_wip = Some(saga.wip_branch.clone()),
        None => {}
    }
    if let Some(w) = &saga.start_snapshot {
        if ctx.rev(&saga.start_snapshot_ref())?.as_deref() == Some(w.as_str()) {
            ctx.delete_ref(&saga.start_snapshot_ref(), w)?;
        }
    }
    state::remove(&ctx.state_path())?;
    if landed {
        Ok(Finished::Landed {
            commit: plan.squash.clone().unwrap_or_default(),
            branch: saga.original_branch.clone(),
            subject: plan.subject().to_string(),
            commits: plan.commits,
            resumed,
            kept_wip,
        })
    } else {
        Ok(Finished::NothingToMerge {
            branch: saga.original_branch.clone(),
            resumed,
        })
    }
}

/// Fails with `UnexpectedChanges` unless every change in `entries` holds a
/// version from one of `trees`: a resumed finish only completes what it
/// started itself.
fn explained(ctx: &Ctx, entries: &[Entry], trees: &[&str]) -> Result<(), SagaError> {
    let bad = ctx.unexplained(entries, trees)?;
    if bad.is_empty() {
        Ok(())
    } else {
        Err(SagaError::UnexpectedChanges {
            operation: Operation::Finish,
            paths: bad,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saga(name: Option<&str>) -> Saga {
        Saga {
            version: 1,
            id: "20260302-005551".into(),
            name: name.map(String::from),
            original_branch: "main".into(),
            base: "a".repeat(40),
            wip_branch: "fararoni/wip-20260302-005551".into(),
            started_at: "2026-03-02T00:55:51Z".into(),
            dirty_at_start: false,
            start_snapshot: None,
            phase: Phase::Active,
            finish: None,
            refs: Vec::new(),
        }
    }

    #[test]
    fn saga_default_message_summarises_the_wip_commits() {
        let one = default_message(&saga(None), &["add parser".into()]);
        assert!(one.starts_with("[FARARONI] add parser\n\nSquashed from fararoni/wip-"));
        assert!(one.ends_with("- add parser"));
        let many: Vec<String> = vec!["add a".into(), "fix b".into(), "test c".into()];
        let m = default_message(&saga(None), &many);
        assert_eq!(
            m.lines().next(),
            Some("[FARARONI] 3 changes: add a; fix b; test c")
        );
        assert!(m.contains("(3 commits):\n\n- add a\n- fix b\n- test c"));
        let long: Vec<String> = (0..20)
            .map(|i| format!("a rather long subject {i}"))
            .collect();
        let subject = default_message(&saga(None), &long)
            .lines()
            .next()
            .map(String::from);
        let subject = subject.expect("a subject");
        assert!(subject.chars().count() <= 72, "{subject}");
        assert!(subject.ends_with('…'));
        let named = default_message(&saga(Some("fix the build")), &many);
        assert!(named.starts_with("[FARARONI] fix the build\n"));
        assert_eq!(
            default_message(&saga(None), &[]),
            "[FARARONI] saga 20260302-005551"
        );
    }

    #[test]
    fn saga_user_messages_get_the_prefix_once() {
        assert_eq!(format_message("fix it"), "[FARARONI] fix it");
        assert_eq!(format_message("[FARARONI] fix it"), "[FARARONI] fix it");
    }
}
