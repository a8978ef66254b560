//! `git fararoni guard`: the kill-switch as a verb, and guarded writes.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use crate::cli::error::{exit, CliError};
use crate::cli::util::{cwd, setting_hint, shadow_error, tell, warn};
use crate::git::Repo;
use crate::guard::killswitch::{self, Report, Thresholds};
use crate::guard::write::configured_thresholds;
use crate::guard::{Against, Guard, GuardError, WriteOptions, WriteOutcome};

/// Kill-switch checks and guarded writes, for people and other tools
///
/// The kill-switch blocks a write when the Jaccard index of the old and new
/// sets of non-blank lines is below `fararoni.guard.jaccard` (0.40), when
/// the new/old count of non-blank lines is below `fararoni.guard.volume`
/// (0.50) — both also over meaningful code lines, so padding does not
/// count — when the new content elides code with a placeholder such as
/// `// ... rest of the code`, turns implemented functions into stubs, no
/// longer parses (JSON, TOML, YAML, which are compared by their entries),
/// empties the file, is binary, or changes the encoding or every line
/// ending. Old files with fewer than
/// `fararoni.guard.minLines` (5) non-blank lines may be rewritten freely;
/// new files pass. Settings weaker than their floor (jaccard 0.20, volume
/// 0.30, minLines 20) are refused with a warning and the floor used.
///
/// Within a session (`FARARONI_SESSION`), `guard write` also compares the
/// new content with the file as the session first found it, so small steps
/// that each pass cannot add up to a gutting.
#[derive(Debug, Subcommand)]
pub(crate) enum GuardCommand {
    /// Compare OLD and NEW with the kill-switch (exit 0 pass, 3 block)
    Check {
        /// The current content (a path that does not exist means a new file)
        old: PathBuf,
        /// The proposed content
        new: PathBuf,
        /// Print {"verdict", "jaccard", "volume", "reasons"} as JSON
        #[arg(long)]
        json: bool,
    },
    /// Write PATH through kill-switch, shadow backup and atomic write
    ///
    /// Exit 0 written, 3 blocked (the file is untouched and the reasons are
    /// printed). The previous content is saved in the shadow store first;
    /// `git fararoni shadow restore PATH` or `git fararoni undo` bring it
    /// back. The git dir (whatever its name), the hooks folder
    /// (`core.hooksPath`), the store and anything outside the working tree
    /// are refused.
    Write {
        /// The file to write
        path: PathBuf,
        /// Read the new content from FILE instead of standard input
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// Skip the kill-switch (the shadow backup is still taken)
        #[arg(long)]
        force: bool,
        /// Print {"path", "outcome", "saved_as", "report"} as JSON; a
        /// blocked write prints {"outcome": "blocked", …} and exits 3
        #[arg(long)]
        json: bool,
    },
    Hook(super::guard_hook::HookArgs),
}

pub(crate) fn run(cmd: GuardCommand) -> Result<ExitCode, CliError> {
    match cmd {
        GuardCommand::Hook(args) => Ok(super::guard_hook::run(args)),
        GuardCommand::Check { old, new, json } => check(&old, &new, json),
        GuardCommand::Write {
            path,
            from,
            force,
            json,
        } => write(&path, from.as_deref(), force, json),
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path)
        .map_err(|e| CliError::user(format!("could not read `{}`", path.display())).caused_by(&e))
}

/// Reads OLD: a path that does not exist is a new file (`None`).
fn read_old(old: &Path) -> Result<Option<Vec<u8>>, CliError> {
    match std::fs::read(old) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CliError::user(format!("could not read `{}`", old.display())).caused_by(&e)),
    }
}

/// Starts `f` on a thread of `scope`; `None` when no thread can be had
/// (the caller then does the work itself).
fn spawn<'s, T: Send + 's>(
    scope: &'s std::thread::Scope<'s, '_>,
    name: &str,
    f: impl FnOnce() -> T + Send + 's,
) -> Option<std::thread::ScopedJoinHandle<'s, T>> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn_scoped(scope, f)
        .ok()
}

/// The result of a thread; its panic, a bug, goes on as this thread's.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The kill-switch thresholds configured for `dir`: its repository's
/// settings, or the global ones outside any repository.
fn thresholds_at(
    dir: &Path,
) -> Result<(Thresholds, Vec<crate::settings::read::SettingWarning>), GuardError> {
    let repo = Repo::discover(dir).ok().flatten();
    configured_thresholds(repo.as_ref())
}

fn guard_error(e: GuardError) -> CliError {
    match e {
        GuardError::Shadow(e) => shadow_error(e),
        GuardError::Setting(ref s) => CliError::user(e.to_string()).hint(setting_hint(s)),
        GuardError::Blocked {
            ref path,
            ref report,
            ref against,
        } => {
            let mut err = CliError::refused(format!(
                "the kill-switch blocked the write to `{path}`{against}; the file is unchanged"
            ));
            err.causes = report.reasons.iter().map(|r| r.to_string()).collect();
            if let Against::SessionStart { version, .. } = against {
                err = err.hint(format!(
                    "each of the session's writes may pass on its own, but together they remove too much; compare with `git fararoni shadow diff {path} --version {version}`"
                ));
            }
            err.hint("review the new content; to write it anyway use `--force` (the current content is still backed up)")
        }
    }
}

fn summary(report: &Report, t: &Thresholds) -> String {
    let verdict = if report.blocked() { "block" } else { "pass" };
    let mut text = if report.new_file {
        format!(
            "{verdict}: new file, {} non-blank lines\n",
            report.new_lines
        )
    } else {
        format!(
            "{verdict}: jaccard {:.2} (min {:.2}), volume {:.2} (min {:.2}), {} -> {} {}{}\n",
            report.jaccard,
            t.jaccard,
            report.volume,
            t.volume,
            report.old_lines,
            report.new_lines,
            if report.unit == "lines" {
                "non-blank lines"
            } else {
                report.unit
            },
            if report.tiny {
                format!(
                    " (tiny file under {} lines: ratios not applied)",
                    t.min_lines
                )
            } else {
                String::new()
            }
        )
    };
    for r in &report.reasons {
        text.push_str(&format!("  {r}\n"));
    }
    text
}

fn check(old: &Path, new: &Path, json: bool) -> Result<ExitCode, CliError> {
    let dir = cwd();
    // Before the judgement: two reads of up to megabytes each (most of
    // their time is the kernel faulting in the buffers' pages) and the
    // thresholds from git's configuration, for which gix asks `git` where
    // its installation's file is (a child process, outside a repository).
    // None needs another, so each has a thread, and the judgement waits
    // for the thresholds only when it weighs what it measured (the child
    // process may get a core only once the reads are done); errors keep
    // their order (OLD, NEW, the current directory, the settings).
    let (files, judged, settings) = std::thread::scope(|s| {
        let mut settings = dir
            .as_ref()
            .ok()
            .and_then(|d| spawn(s, "settings", move || thresholds_at(d)));
        let old_read = spawn(s, "read-old", || read_old(old));
        let new_bytes = read_file(new);
        let old_bytes = old_read.map_or_else(|| read_old(old), joined);
        let files = old_bytes.and_then(|o| Ok((o, new_bytes?)));
        let mut read = None;
        let judged = match (&files, &dir) {
            (Ok((old_bytes, new_bytes)), Ok(dir)) => {
                // NEW's name says which language and format to judge it as
                // (OLD is often a temporary copy); OLD's when NEW's says
                // nothing.
                let name = [new, old]
                    .into_iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .find(|p| crate::guard::lang::from_path(p).is_some())
                    .unwrap_or_default();
                let thresholds = || {
                    let r = settings.take().map_or_else(|| thresholds_at(dir), joined);
                    // A setting that cannot be read is reported below, and
                    // this judgement is not.
                    let t = r
                        .as_ref()
                        .map_or_else(|_| Thresholds::default(), |(t, _)| *t);
                    read = Some(r);
                    t
                };
                Some(killswitch::check_file_awaiting(
                    &name,
                    old_bytes.as_deref(),
                    new_bytes,
                    thresholds,
                ))
            }
            _ => None,
        };
        // A new file's judgement needs no thresholds: they are read all
        // the same, for their errors and warnings.
        let read = read.or_else(|| settings.map(joined));
        (files, judged, read)
    });
    files?;
    let dir = dir?;
    let (t, warnings) = settings
        .unwrap_or_else(|| thresholds_at(&dir))
        .map_err(guard_error)?;
    for w in &warnings {
        warn(w);
    }
    let Some(report) = judged else {
        return Err(CliError::user("the files could not be judged"));
    };
    if json {
        crate::cli::out(&format!("{}\n", report.to_json()));
    } else {
        crate::cli::out(&summary(&report, &t));
    }
    Ok(ExitCode::from(if report.blocked() {
        exit::BLOCKED
    } else {
        exit::OK
    }))
}

fn write(path: &Path, from: Option<&Path>, force: bool, json: bool) -> Result<ExitCode, CliError> {
    let cwd = cwd()?;
    let guard = Guard::discover(&cwd).map_err(guard_error)?;
    for w in guard.warnings() {
        warn(w);
    }
    let result = write_with(&guard, &cwd, path, from, force, json);
    tell(guard.shadow());
    result
}

fn write_with(
    guard: &Guard,
    cwd: &Path,
    path: &Path,
    from: Option<&Path>,
    force: bool,
    json: bool,
) -> Result<ExitCode, CliError> {
    let target = guard.shadow().resolve(cwd, path).map_err(shadow_error)?;
    let bytes = match from {
        Some(f) => read_file(f)?,
        None => {
            let mut buf = Vec::new();
            std::io::stdin().lock().read_to_end(&mut buf).map_err(|e| {
                CliError::user("could not read the new content from standard input").caused_by(&e)
            })?;
            buf
        }
    };
    let opts = WriteOptions {
        force,
        ..WriteOptions::default()
    };
    let written = match guard.write(&target, &bytes, &opts) {
        Ok(w) => w,
        Err(e) => {
            if let (
                true,
                GuardError::Blocked {
                    path,
                    report,
                    against,
                },
            ) = (json, &e)
            {
                let against = match against {
                    Against::Current => serde_json::json!("current"),
                    Against::SessionStart { session, version } => {
                        serde_json::json!({"session": session, "version": version})
                    }
                };
                crate::cli::out(&format!(
                    "{}\n",
                    serde_json::json!({
                        "path": path.to_string(),
                        "outcome": "blocked",
                        "against": against,
                        "report": report.to_json(),
                    })
                ));
            }
            return Err(guard_error(e));
        }
    };
    for n in &written.notices {
        warn(n);
    }
    if json {
        let (outcome, saved_as) = match written.outcome {
            WriteOutcome::Created => ("created", None),
            WriteOutcome::Updated { backup } => ("updated", Some(backup)),
            WriteOutcome::Unchanged => ("unchanged", None),
        };
        crate::cli::out(&format!(
            "{}\n",
            serde_json::json!({
                "path": written.path.as_str(),
                "outcome": outcome,
                "saved_as": saved_as,
                "report": written.report.as_ref().map(Report::to_json),
            })
        ));
        return Ok(ExitCode::SUCCESS);
    }
    crate::cli::ui::say(&match written.outcome {
        WriteOutcome::Created => format!("created `{}`\n", written.path),
        WriteOutcome::Updated { backup } => format!(
            "wrote `{}` (its previous content is saved as v{backup})\n",
            written.path
        ),
        WriteOutcome::Unchanged => format!("`{}` already has this content\n", written.path),
    });
    Ok(ExitCode::SUCCESS)
}
