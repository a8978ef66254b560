//! `git fararoni undo`: bring back every file a session wrote.

use std::process::ExitCode;

use clap::Args;

use crate::cli::error::CliError;
use crate::cli::util::{cwd, shadow_error, tell, warn};
use crate::shadow::{self, Shadow, UndoOutcome};

/// Restore every file written in the last (or named) session
///
/// Each file gets back its content from before the session; a file the
/// session created is removed if it is unchanged since. Only those files
/// are touched: no clean, no reset, HEAD, the index and branches stay where
/// they are. What undo overwrites is saved first, so running it again
/// redoes. Anything it cannot bring back is listed (exit 1). The git dir,
/// the hooks folder and the store are never written, whatever the journal
/// says, and a version that does not hold what the journal recorded for it
/// is not restored.
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
        .count();
    if args.json {
        crate::cli::out(&format!(
            "{}\n",
            serde_json::json!({
                "session": report.session,
                "undo_session": report.undo_session,
                "files": report.items.iter().map(item_json).collect::<Vec<_>>(),
            })
        ));
    }
    if missing > 0 {
        // The text lists each file; JSON has said it already.
        if !args.json {
            crate::cli::ui::say(&undo_text(&report));
        }
        return Err(CliError::user(format!(
            "undo could not bring back {missing} of {} file(s) listed above",
            report.items.len()
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
