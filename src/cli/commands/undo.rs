//! `git fararoni undo`: bring back every file a session wrote.

use std::process::ExitCode;

use clap::Args;

use crate::cli::error::CliError;
use crate::cli::util::{cwd, shadow_error, tell, warn};
use crate::shadow::{self, Shadow, StateOutcome, UndoOutcome};

/// Restore every file (and ref) changed in the last (or named) session
///
/// Each file gets back its content from before the session; a file the
/// session created is removed if it is unchanged since. When the session's
/// commands ran after a snapshot (another agent's hook, `shadow snapshot`),
/// every ref it changed (branches, tags, the stash and each of its
/// entries), HEAD, the index, the git dir's config, the hooks folder and
/// `info/` come back too: created refs and hooks are deleted. Nothing else
/// is touched: no clean, no reset. What undo overwrites is saved first, so
/// running it again redoes. Anything it cannot bring back is listed (exit
/// 1). A working file's path in the journal never leads into the git dir,
/// the hooks folder or the store, and a version that does not hold what the
/// journal recorded for it is not restored.
#[derive(Debug, Args)]
pub(crate) struct UndoArgs {
    /// The session to undo (default: the last one)
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Print {"session", "undo_session", "files": [...]} as JSON (exit 1
    /// still when a file could not be brought back)
    #[arg(long)]
    json: bool,
}

/// One file's outcome as JSON.
fn item_json(item: &shadow::UndoItem) -> serde_json::Value {
    use serde_json::json;
    let p = item.path.as_str();
    match &item.outcome {
        UndoOutcome::Restored {
            version,
            saved,
            changed_since,
        } => {
            json!({"path": p, "outcome": "restored", "version": version, "saved_as": saved, "changed_since": changed_since})
        }
        UndoOutcome::Removed { saved } => {
            json!({"path": p, "outcome": "removed", "saved_as": saved})
        }
        UndoOutcome::AlreadyAsBefore => json!({"path": p, "outcome": "unchanged"}),
        UndoOutcome::Kept(why) => json!({"path": p, "outcome": "kept", "why": why}),
        UndoOutcome::Failed(why) => json!({"path": p, "outcome": "failed", "why": why}),
    }
}

/// One state item's outcome as JSON.
fn state_json(item: &shadow::StateItem) -> serde_json::Value {
    use serde_json::json;
    let w = item.what.as_str();
    match &item.outcome {
        StateOutcome::Restored => json!({"what": w, "outcome": "restored"}),
        StateOutcome::Removed => json!({"what": w, "outcome": "removed"}),
        StateOutcome::AlreadyAsBefore => json!({"what": w, "outcome": "unchanged"}),
        StateOutcome::Failed(why) => json!({"what": w, "outcome": "failed", "why": why}),
    }
}

pub(crate) fn run(args: UndoArgs) -> Result<ExitCode, CliError> {
    let shadow = Shadow::discover(&cwd()?).map_err(shadow_error)?;
    for w in shadow.setting_warnings() {
        warn(w);
    }
    let mut bar = crate::cli::ui::Progress::start("undoing", !args.json);
    let report = shadow::undo_with(&shadow, args.session.as_deref(), &mut |d, t| {
        bar.update(d, t)
    });
    drop(bar);
    tell(&shadow);
    let report = report.map_err(shadow_error)?;
    let missing = report
        .items
        .iter()
        .filter(|i| matches!(i.outcome, UndoOutcome::Kept(_) | UndoOutcome::Failed(_)))
        .count()
        + report
            .state
            .iter()
            .filter(|i| matches!(i.outcome, StateOutcome::Failed(_)))
            .count();
    if args.json {
        crate::cli::out(&format!(
            "{}\n",
            serde_json::json!({
                "session": report.session,
                "undo_session": report.undo_session,
                "files": report.items.iter().map(item_json).collect::<Vec<_>>(),
                "state": report.state.iter().map(state_json).collect::<Vec<_>>(),
            })
        ));
    }
    if missing > 0 {
        // The text lists each file; JSON has said it already.
        if !args.json {
            crate::cli::ui::say(&undo_text(&report));
        }
        return Err(CliError::user(format!(
            "undo could not bring back {missing} of {} file(s) and ref(s) listed above",
            report.items.len() + report.state.len()
        ))
        .hint(
            "the shadow store may still hold older versions: see `git fararoni shadow list PATH`",
        ));
    }
    if args.json {
        return Ok(ExitCode::SUCCESS);
    }
    crate::cli::ui::say(&undo_text(&report));
    eprintln!(
        "hint: this undo is session `{}`; run `git fararoni undo` again to redo",
        report.undo_session
    );
    Ok(ExitCode::SUCCESS)
}

/// The report for people, one line per file.
fn undo_text(report: &shadow::UndoReport) -> String {
    let mut text = format!("undoing session `{}`\n", report.session);
    for item in &report.state {
        let w = &item.what;
        let line = match &item.outcome {
            StateOutcome::Restored => format!("restored {w}"),
            StateOutcome::Removed => format!("removed {w}, which the session created"),
            StateOutcome::AlreadyAsBefore => format!("{w} is already as before the session"),
            StateOutcome::Failed(why) => format!("could not restore {w}: {why}"),
        };
        text.push_str(&line);
        text.push('\n');
    }
    for item in &report.items {
        let p = &item.path;
        let line = match &item.outcome {
            UndoOutcome::Restored {
                version,
                saved,
                changed_since,
            } => {
                let mut l = format!("restored `{p}` from v{version}");
                if let Some(s) = saved {
                    if *changed_since {
                        l.push_str(&format!(
                            " (it had changed after the session; that content is saved as v{s})"
                        ));
                    } else {
                        l.push_str(&format!(" (the session's content is saved as v{s})"));
                    }
                }
                l
            }
            UndoOutcome::Removed { saved } => match saved {
                Some(s) => format!("removed `{p}`, which the session created (saved as v{s})"),
                None => format!("removed `{p}`, which the session created"),
            },
            UndoOutcome::AlreadyAsBefore => format!("`{p}` is already as before the session"),
            UndoOutcome::Kept(why) => format!("kept `{p}`: {why}"),
            UndoOutcome::Failed(why) => format!("could not restore `{p}`: {why}"),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}
