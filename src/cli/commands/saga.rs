//! `git fararoni saga` (also `git fararoni-saga`): ephemeral branches.
//!
//! Exit codes: 0 done (including "nothing to merge" and "no saga" for
//! `status`/`list`); 1 could not be done (conflict on finish, no saga to
//! finish or abort, an interrupted step that cannot be resumed safely,
//! git failed); 2 usage; 3 refused, nothing changed: an activation
//! condition of `start` failed, or `finish` found uncommitted changes
//! without `--include-dirty`.

use std::process::ExitCode;

use clap::Subcommand;
use serde_json::json;

use crate::cli::error::{CliError, ErrorKind};
use crate::saga::{
    self, Aborted, FinishOptions, Finished, SagaError, SagaErrorClass, StartOptions,
};

/// Run work on an ephemeral branch and land it as one squashed commit
///
/// `start` creates fararoni/wip-<timestamp> at HEAD and switches to it with
/// your uncommitted changes; `finish` lands everything committed there on
/// your branch as one `[FARARONI] …` commit; `abort` goes back to your
/// branch as it was, keeping the saga's commits under
/// refs/fararoni/aborted/<id>. State lives in the git dir, per worktree.
/// An interrupted finish or abort is completed by running it again.
///
/// Exit codes: 0 ok, 1 error (e.g. finish conflicts), 2 usage, 3 refused
/// with nothing changed (an activation condition failed; uncommitted
/// changes on finish without --include-dirty).
#[derive(Debug, Subcommand)]
pub(crate) enum SagaCommand {
    /// Start a saga: create fararoni/wip-<timestamp> at HEAD and switch to it
    ///
    /// Checks, and reports by name, every activation condition:
    /// git-repository, valid-head (at least one commit), on-branch (not
    /// detached), no-operation-in-progress (merge, rebase, cherry-pick,
    /// revert, am, bisect) and no-active-saga. Uncommitted changes come
    /// along untouched; they are also kept as an internal snapshot so that
    /// `abort` can put them back exactly.
    Start {
        /// A name for the saga (the default subject of its squash commit)
        #[arg(long)]
        name: Option<String>,
        /// Print the saga's state and any warnings as JSON
        #[arg(long)]
        json: bool,
    },
    /// Squash the saga onto the original branch as one [FARARONI] commit
    ///
    /// Computes the result first with `git merge-tree`: if the original
    /// branch moved and the squash would conflict, nothing changes, the
    /// conflicting files are listed and the exit code is 1. Otherwise it
    /// switches back, runs `git merge --squash` and `git commit` (your hooks
    /// apply), and deletes the wip branch. Run it again to resume an
    /// interrupted finish; the squash is never applied twice.
    Finish {
        /// The commit message (default: a summary of the saga's commits)
        #[arg(short, long)]
        message: Option<String>,
        /// Commit uncommitted changes into the saga first (otherwise they
        /// make finish refuse, exit 3)
        #[arg(long)]
        include_dirty: bool,
        /// Land it without asking (required without a terminal; an
        /// interrupted finish resumes without asking)
        #[arg(short, long)]
        yes: bool,
        /// Print {"result": "landed"|"nothing_to_merge", …} as JSON
        #[arg(long)]
        json: bool,
    },
    /// Return to the original branch, keeping the wip tip recoverable
    ///
    /// The working tree and index go back to what they were when the saga
    /// started (uncommitted changes included). The wip tip is kept under
    /// refs/fararoni/aborted/<id>, and anything uncommitted at the time of
    /// the abort under refs/fararoni/snapshots/<id>/abort.
    Abort {
        /// Print {"result": "returned"|"start_rolled_back"|"already_landed", …} as JSON
        #[arg(long)]
        json: bool,
    },
    /// Show the active saga, and how to complete an interrupted one
    Status {
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// List active (every worktree) and aborted sagas
    List {
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
}

pub(crate) fn run(cmd: SagaCommand) -> Result<ExitCode, CliError> {
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::user("the current directory is not accessible").caused_by(&e))?;
    match cmd {
        SagaCommand::Start { name, json } => {
            let started =
                saga::start(&cwd, &StartOptions { name, agent: false }).map_err(saga_error)?;
            let s = &started.saga;
            if json {
                let mut value = serde_json::to_value(s).map_err(|e| {
                    CliError::new(ErrorKind::Internal, "could not render the saga").caused_by(&e)
                })?;
                value["warnings"] = json!(started.warnings);
                crate::cli::out(&format!("{value}\n"));
                return Ok(ExitCode::SUCCESS);
            }
            crate::cli::ui::say(&format!(
                "started saga {} on `{}` (from `{}` at {})\n",
                s.id,
                s.wip_branch,
                s.original_branch,
                short(&s.base)
            ));
            if s.dirty_at_start {
                crate::cli::ui::say("your uncommitted changes came along, untouched\n");
            }
            for w in &started.warnings {
                eprintln!("warning: {w}");
            }
            eprintln!(
                "hint: land it with `git fararoni saga finish`, or go back with `git fararoni saga abort`"
            );
            Ok(ExitCode::SUCCESS)
        }
        SagaCommand::Finish {
            message,
            include_dirty,
            yes,
            json,
        } => {
            confirm_finish(&cwd, yes)?;
            let done = saga::finish(
                &cwd,
                &FinishOptions {
                    message,
                    include_dirty,
                    agent: false,
                },
            )
            .map_err(saga_error)?;
            if json {
                crate::cli::out(&format!("{}\n", finished_json(&done)));
                return Ok(ExitCode::SUCCESS);
            }
            match done {
                Finished::Landed {
                    commit,
                    branch,
                    subject,
                    commits,
                    resumed,
                    kept_wip,
                } => {
                    if resumed {
                        crate::cli::ui::say("resumed an interrupted finish\n");
                    }
                    crate::cli::ui::say(&format!(
                        "landed {commits} {} on `{branch}` as {} {subject}\n",
                        if commits == 1 { "commit" } else { "commits" },
                        short(&commit)
                    ));
                    if let Some(w) = kept_wip {
                        eprintln!(
                            "warning: `{w}` moved while finishing and was kept; delete it when you no longer need it"
                        );
                    }
                }
                Finished::NothingToMerge { branch, resumed } => {
                    if resumed {
                        crate::cli::ui::say("resumed an interrupted finish\n");
                    }
                    crate::cli::ui::say(&format!(
                        "nothing to merge: the saga changes nothing on `{branch}`; removed the saga branch, back on `{branch}`\n"
                    ));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        SagaCommand::Abort { json } => {
            let done = saga::abort(&cwd, false).map_err(saga_error)?;
            if json {
                crate::cli::out(&format!("{}\n", aborted_json(&done)));
                return Ok(ExitCode::SUCCESS);
            }
            match done {
                Aborted::Returned {
                    id,
                    branch,
                    aborted_ref,
                    tip,
                    restored_uncommitted,
                    abort_snapshot,
                    refs,
                } => {
                    crate::cli::ui::say(&format!("aborted saga {id}; back on `{branch}`\n"));
                    for r in &refs {
                        let kept = r
                            .kept
                            .as_deref()
                            .map(|k| format!(" (its value is kept at {k})"))
                            .unwrap_or_default();
                        match r.action {
                            "left" => eprintln!(
                                "warning: {} was changed by the saga and moved again since; left as it is",
                                r.name
                            ),
                            action => crate::cli::ui::say(&format!(
                                "{action} {}, which the saga had changed{kept}\n",
                                r.name
                            )),
                        }
                    }
                    if let (Some(r), Some(t)) = (aborted_ref, tip) {
                        crate::cli::ui::say(&format!(
                            "the saga's commits are kept at {r} ({})\n",
                            short(&t)
                        ));
                    }
                    if restored_uncommitted {
                        crate::cli::ui::say(
                            "your changes that were uncommitted at the start are back\n",
                        );
                    }
                    if let Some(s) = abort_snapshot {
                        crate::cli::ui::say(&format!(
                            "uncommitted work at the time of the abort is kept at refs/fararoni/snapshots/{id}/abort ({})\n",
                            short(&s)
                        ));
                    }
                }
                Aborted::StartRolledBack { id, branch } => {
                    crate::cli::ui::say(&format!(
                        "undid the interrupted start of saga {id}; still on `{branch}`, nothing of yours changed\n"
                    ));
                }
                Aborted::AlreadyLanded { commit, branch } => {
                    crate::cli::ui::say(&format!(
                        "the interrupted finish had already landed {} on `{branch}`; completed its cleanup instead of aborting\n",
                        short(&commit)
                    ));
                    eprintln!(
                        "hint: to take the change back out, `git revert {}`",
                        short(&commit)
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        SagaCommand::Status { json } => {
            let st = saga::status(&cwd).map_err(saga_error)?;
            if json {
                let value = serde_json::to_value(&st).map_err(|e| {
                    CliError::new(ErrorKind::Internal, "could not render the status").caused_by(&e)
                })?;
                let mut value = value;
                value["active"] = json!(st.saga.is_some());
                crate::cli::out(&format!("{value}\n"));
                return Ok(ExitCode::SUCCESS);
            }
            crate::cli::out(&status_text(&st));
            Ok(ExitCode::SUCCESS)
        }
        SagaCommand::List { json } => {
            let entries = saga::list(&cwd).map_err(saga_error)?;
            if json {
                let value = serde_json::to_value(&entries).map_err(|e| {
                    CliError::new(ErrorKind::Internal, "could not render the list").caused_by(&e)
                })?;
                crate::cli::out(&format!("{value}\n"));
                return Ok(ExitCode::SUCCESS);
            }
            if entries.is_empty() {
                crate::cli::out("no sagas\n");
            }
            for e in &entries {
                let mut line = format!("{:<8} {}  {}", e.state, e.id, e.reference);
                if let Some(t) = &e.tip {
                    line.push_str(&format!("  {}", short(t)));
                }
                if let Some(b) = &e.original_branch {
                    line.push_str(&format!("  from `{b}`"));
                }
                if let Some(n) = &e.name {
                    line.push_str(&format!("  \"{n}\""));
                }
                if let Some(s) = &e.subject {
                    line.push_str(&format!("  {s}"));
                }
                line.push('\n');
                crate::cli::out(&line);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// What `finish --json` prints.
fn finished_json(done: &Finished) -> serde_json::Value {
    match done {
        Finished::Landed {
            commit,
            branch,
            subject,
            commits,
            resumed,
            kept_wip,
        } => json!({
            "result": "landed", "commit": commit, "branch": branch, "subject": subject,
            "commits": commits, "resumed": resumed, "kept_wip": kept_wip,
        }),
        Finished::NothingToMerge { branch, resumed } => {
            json!({"result": "nothing_to_merge", "branch": branch, "resumed": resumed})
        }
    }
}

/// What `abort --json` prints.
fn aborted_json(done: &Aborted) -> serde_json::Value {
    match done {
        Aborted::Returned {
            id,
            branch,
            aborted_ref,
            tip,
            restored_uncommitted,
            abort_snapshot,
            refs,
        } => json!({
            "result": "returned", "id": id, "branch": branch, "aborted_ref": aborted_ref,
            "tip": tip, "restored_uncommitted": restored_uncommitted,
            "abort_snapshot": abort_snapshot.as_ref().map(|_| format!("refs/fararoni/snapshots/{id}/abort")),
            "abort_snapshot_commit": abort_snapshot,
            "refs": refs.iter().map(|r| json!({"ref": r.name, "action": r.action, "kept": r.kept})).collect::<Vec<_>>(),
        }),
        Aborted::StartRolledBack { id, branch } => {
            json!({"result": "start_rolled_back", "id": id, "branch": branch})
        }
        Aborted::AlreadyLanded { commit, branch } => {
            json!({"result": "already_landed", "commit": commit, "branch": branch})
        }
    }
}

fn status_text(st: &saga::Status) -> String {
    let mut s = String::new();
    let Some(saga) = &st.saga else {
        s.push_str("no saga in progress\n");
        for n in &st.notes {
            s.push_str(&format!("note: {n}\n"));
        }
        return s;
    };
    let label = match saga.phase {
        saga::Phase::Active => "active",
        saga::Phase::Starting => "starting (interrupted)",
        saga::Phase::Finishing => "finishing (interrupted)",
        saga::Phase::Aborting => "aborting (interrupted)",
    };
    s.push_str(&format!("saga {} {label}", saga.id));
    if let Some(n) = &saga.name {
        s.push_str(&format!(" \"{n}\""));
    }
    s.push('\n');
    s.push_str(&format!("  branch:   {}", saga.wip_branch));
    if let Some(c) = st.wip_commits {
        s.push_str(&format!(
            " ({c} {} not on `{}`)",
            if c == 1 { "commit" } else { "commits" },
            saga.original_branch
        ));
    }
    s.push('\n');
    s.push_str(&format!(
        "  from:     {} at {}\n",
        saga.original_branch,
        short(&saga.base)
    ));
    s.push_str(&format!(
        "  started:  {}{}\n",
        saga.started_at,
        if saga.dirty_at_start {
            " (with uncommitted changes, kept in a snapshot)"
        } else {
            ""
        }
    ));
    s.push_str(&format!(
        "  HEAD:     {}\n",
        st.head.as_deref().unwrap_or("(detached)")
    ));
    for n in &st.notes {
        s.push_str(&format!("note: {n}\n"));
    }
    match &st.interrupted {
        Some(i) => {
            s.push_str(&format!("interrupted: {}\n", i.explanation));
            if let Some(first) = i.next.first() {
                s.push_str(&format!("to complete it, run `{first}`"));
                if let Some(alt) = i.next.get(1) {
                    s.push_str(&format!(" (or `{alt}`)"));
                }
                s.push('\n');
            }
        }
        None => s.push_str(
            "land it with `git fararoni saga finish`, or go back with `git fararoni saga abort`\n",
        ),
    }
    s
}

fn short(id: &str) -> &str {
    id.get(..10).unwrap_or(id)
}

/// Renders a saga error with its causes and hints.
fn saga_error(e: SagaError) -> CliError {
    let kind = match e.class() {
        SagaErrorClass::Failed => ErrorKind::User,
        SagaErrorClass::Usage => ErrorKind::Usage,
        SagaErrorClass::Refused => ErrorKind::Refused,
    };
    let mut err = CliError::new(kind, e.to_string());
    if let SagaError::Conditions(failed) = &e {
        err.message = format!(
            "cannot start a saga: {} activation {} not met",
            failed.len(),
            if failed.len() == 1 {
                "condition is"
            } else {
                "conditions are"
            }
        );
        for f in failed {
            err.causes.push(f.to_string());
        }
    } else if let Some(source) = std::error::Error::source(&e) {
        err = err.caused_by(source);
    }
    for h in e.hints() {
        err = err.hint(h);
    }
    err
}

/// Asks before a finish lands the saga on the original branch. A finish
/// already under way (interrupted) resumes without asking; anything that
/// stops the status from being read is left to `finish` to report.
fn confirm_finish(cwd: &std::path::Path, yes: bool) -> Result<(), CliError> {
    // Nothing to ask: not even the status is read (it runs git).
    if yes {
        return Ok(());
    }
    let Ok(status) = saga::status(cwd) else {
        return Ok(());
    };
    let Some(s) = status
        .saga
        .as_ref()
        .filter(|s| s.phase == saga::Phase::Active)
    else {
        return Ok(());
    };
    let question = format!(
        "land saga `{}` ({} commit(s) on `{}`) as one [FARARONI] commit on `{}`?",
        s.id,
        status.wip_commits.unwrap_or(0),
        s.wip_branch,
        s.original_branch
    );
    match crate::cli::ui::confirm(&question, yes) {
        crate::cli::ui::Confirm::Yes => Ok(()),
        crate::cli::ui::Confirm::No => Err(CliError::user("finish cancelled; nothing was changed")),
        crate::cli::ui::Confirm::NoTerminal => Err(CliError::refused(format!(
            "`saga finish` lands saga `{}` on `{}`, and there is no terminal to confirm it; nothing was changed",
            s.id, s.original_branch
        ))
        .hint("add --yes to land it")),
    }
}
