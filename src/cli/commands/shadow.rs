//! `git fararoni shadow` (also `git fararoni-shadow`): the backup store.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::json;

use crate::cli::error::{exit, CliError};
use crate::cli::util::{cwd, human_size, shadow_error, tell, warn};
use crate::git::GitCommand;
use crate::shadow::{self, Session, Shadow, ShadowError, Version};

/// Inspect and restore the shadow store of pre-write backups
///
/// Every guarded write (`git fararoni guard write`), restore and undo first
/// saves the file's current content as `.fararoni/shadow/<path>.v<N>.<time>`
/// (identical contents are stored once). The store is kept out of git
/// through `.git/info/exclude`.
#[derive(Debug, Subcommand)]
pub(crate) enum ShadowCommand {
    /// List backed-up versions, of PATH or of every file
    List {
        /// Only this file
        path: Option<PathBuf>,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Print a backed-up version of PATH (default: the newest)
    // `--version N` names a backup here, not the program version.
    #[command(disable_version_flag = true)]
    Show {
        /// The file
        path: PathBuf,
        /// Which version
        #[arg(long)]
        version: Option<u64>,
    },
    /// Diff a backed-up version of PATH against the working file
    // `--version N` names a backup here, not the program version.
    #[command(disable_version_flag = true)]
    Diff {
        /// The file
        path: PathBuf,
        /// Which version
        #[arg(long)]
        version: Option<u64>,
    },
    /// Restore PATH from a backed-up version (itself reversible)
    // `--version N` names a backup here, not the program version.
    #[command(disable_version_flag = true)]
    ///
    /// When the file has changes that are not committed, asks first; without
    /// a terminal it refuses (exit 3) unless --yes is given.
    Restore {
        /// The file
        path: PathBuf,
        /// Which version
        #[arg(long)]
        version: Option<u64>,
        /// Restore over uncommitted changes without asking
        #[arg(short, long)]
        yes: bool,
        /// Print {"path", "version", "changed", "saved_as"} as JSON
        #[arg(long)]
        json: bool,
    },
    /// Save every modified and untracked file, so `undo --session` can
    /// reverse what a program does next
    ///
    /// Saves the dirty set (modified tracked files, untracked files that are
    /// not ignored, and precious ignored files such as `.env.local` or a
    /// SQLite database: `fararoni.precious`) and the repository's own state
    /// (every ref and stash entry, HEAD, the index, config, the hooks folder,
    /// `info/`) under the session (`--session`, else `FARARONI_SESSION`).
    /// Run it again after the program, or before the next one: what changed
    /// since the session's previous snapshot is recorded, and
    /// `git fararoni undo --session ID` brings it all back. Other ignored
    /// files (build output) are never saved.
    Snapshot {
        /// The session to record under
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Remove old versions (dry run unless --yes)
    ///
    /// Without --keep or --older-than, applies the retention limits
    /// (`fararoni.shadow.maxVersions`, default 50 per file, and
    /// `fararoni.shadow.maxSize`, default 256m). The newest version of each
    /// file and the versions `git fararoni undo` needs are always kept.
    Prune {
        /// Versions to keep per file
        #[arg(long)]
        keep: Option<u64>,
        /// Remove versions older than DURATION (e.g. 30d, 12h)
        #[arg(long, value_name = "DURATION")]
        older_than: Option<String>,
        /// Really remove them
        #[arg(long)]
        yes: bool,
        /// Print {"dry_run", "removed": [...], "freed", "kept", "store_size"} as JSON
        #[arg(long)]
        json: bool,
    },
}

/// Writes raw bytes to stdout ([`crate::cli::ui::out_bytes`]).
fn out_bytes(bytes: &[u8]) {
    crate::cli::ui::out_bytes(bytes);
}

fn rel_to_root(shadow: &Shadow, p: &Path) -> String {
    p.strip_prefix(shadow.root())
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

pub(crate) fn run(cmd: ShadowCommand) -> Result<ExitCode, CliError> {
    let cwd = cwd()?;
    let shadow = Shadow::discover(&cwd).map_err(shadow_error)?;
    for w in shadow.setting_warnings() {
        warn(w);
    }
    let result = run_on(&shadow, &cwd, cmd);
    tell(&shadow);
    result
}

fn run_on(shadow: &Shadow, cwd: &Path, cmd: ShadowCommand) -> Result<ExitCode, CliError> {
    let (shadow, cwd) = (shadow, cwd.to_path_buf());
    match cmd {
        ShadowCommand::List { path, json } => list(shadow, &cwd, path.as_deref(), json),
        ShadowCommand::Show { path, version } => {
            let path = shadow.resolve(&cwd, &path).map_err(shadow_error)?;
            let v = shadow.version(&path.rel, version).map_err(shadow_error)?;
            out_bytes(&shadow.read_version(&v).map_err(shadow_error)?);
            Ok(ExitCode::SUCCESS)
        }
        ShadowCommand::Diff { path, version } => diff(shadow, &cwd, &path, version),
        ShadowCommand::Restore {
            path,
            version,
            yes,
            json,
        } => {
            let path = shadow.resolve(&cwd, &path).map_err(shadow_error)?;
            confirm_restore(shadow, &path, version, yes)?;
            let session = Session::current().map_err(shadow_error)?;
            let mut tx = shadow.begin(session).map_err(shadow_error)?;
            let (v, replaced) = tx.restore(&path, version).map_err(shadow_error)?;
            if json {
                crate::cli::out(&format!(
                    "{}\n",
                    json!({
                        "path": path.rel.as_str(),
                        "version": v.number,
                        "changed": replaced.changed,
                        "saved_as": replaced.backup,
                    })
                ));
                return Ok(ExitCode::SUCCESS);
            }
            let msg = match (replaced.changed, replaced.backup) {
                (false, _) => format!("`{}` already matches v{}\n", path.rel, v.number),
                (true, Some(b)) => format!(
                    "restored `{}` from v{} (the content it replaced is saved as v{b})\n",
                    path.rel, v.number
                ),
                (true, None) => format!("restored `{}` from v{}\n", path.rel, v.number),
            };
            crate::cli::ui::say(&msg);
            Ok(ExitCode::SUCCESS)
        }
        ShadowCommand::Prune {
            keep,
            older_than,
            yes,
            json,
        } => prune(shadow, keep, older_than.as_deref(), yes, json),
        ShadowCommand::Snapshot { session, json } => snapshot(shadow, &cwd, session, json),
    }
}

fn snapshot(
    shadow: &Shadow,
    cwd: &Path,
    session: Option<String>,
    json: bool,
) -> Result<ExitCode, CliError> {
    let session = match session {
        Some(id) => Session::new(id),
        None => Session::current(),
    }
    .map_err(shadow_error)?;
    let repo = crate::git::Repo::discover(cwd)
        .map_err(|e| shadow_error(e.into()))?
        .ok_or_else(|| {
            shadow_error(ShadowError::NotARepo {
                path: cwd.to_path_buf(),
            })
        })?;
    let snap = shadow::dirty::snapshot(shadow, &repo, &session).map_err(shadow_error)?;
    if json {
        crate::cli::out(&format!(
            "{}\n",
            json!({
                "session": session.id(),
                "files": snap.files,
                "saved": snap.saved,
                "unchanged": snap.unchanged,
                "skipped": snap.skipped,
                "recorded": snap.recorded,
                "state": {"refs": snap.state.refs, "files": snap.state.files},
            })
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    for c in &snap.recorded {
        let kind = match c.kind {
            shadow::dirty::ChangeKind::Created => "created",
            shadow::dirty::ChangeKind::Modified => "modified",
            shadow::dirty::ChangeKind::Deleted => "deleted",
        };
        text.push_str(&format!("recorded: {kind} `{}`\n", c.path));
    }
    for r in &snap.state.refs {
        text.push_str(&format!("recorded: changed `{r}`\n"));
    }
    for f in &snap.state.files {
        text.push_str(&format!("recorded: changed the git dir's `{f}`\n"));
    }
    text.push_str(&format!(
        "saved {} of {} dirty files in session `{}` ({} already saved); undo with `git fararoni undo --session {}`\n",
        snap.saved,
        snap.files,
        session.id(),
        snap.unchanged,
        session.id()
    ));
    crate::cli::ui::say(&text);
    Ok(ExitCode::SUCCESS)
}

/// Asks before a restore replaces changes git does not have (the file
/// differs from HEAD's): they are backed up first, but the person should
/// know. Without a terminal, `--yes` is required.
fn confirm_restore(
    shadow: &Shadow,
    path: &shadow::RepoPath,
    version: Option<u64>,
    yes: bool,
) -> Result<(), CliError> {
    if yes {
        return Ok(());
    }
    let Ok(current) = std::fs::read(&path.abs) else {
        return Ok(());
    };
    let repo = crate::git::Repo::discover(shadow.root()).ok().flatten();
    let committed = repo.and_then(|r| r.head_file(path.rel.as_str()));
    if committed.as_deref() == Some(current.as_slice()) {
        return Ok(());
    }
    // Restoring what is already there changes nothing: no question.
    if let Ok(v) = shadow.version(&path.rel, version) {
        if shadow.read_version(&v).is_ok_and(|b| b == current) {
            return Ok(());
        }
    }
    let question = format!(
        "`{}` has changes that are not committed; restore over them? (they are backed up first)",
        path.rel
    );
    match crate::cli::ui::confirm(&question, yes) {
        crate::cli::ui::Confirm::Yes => Ok(()),
        crate::cli::ui::Confirm::No => Err(CliError::user("restore cancelled; nothing was changed")),
        crate::cli::ui::Confirm::NoTerminal => Err(CliError::refused(format!(
            "`{}` has uncommitted changes and there is no terminal to confirm the restore; nothing was changed",
            path.rel
        ))
        .hint("add --yes to restore anyway (the current content is backed up first)")),
    }
}

fn list(
    shadow: &Shadow,
    cwd: &Path,
    path: Option<&Path>,
    json: bool,
) -> Result<ExitCode, CliError> {
    let all: Vec<Version> = match path {
        Some(p) => {
            let p = shadow.resolve(cwd, p).map_err(shadow_error)?;
            shadow.versions(&p.rel).map_err(shadow_error)?
        }
        None => shadow
            .all_versions()
            .map_err(shadow_error)?
            .into_values()
            .flatten()
            .collect(),
    };
    if json {
        let objects = shadow.object_ids();
        let mut items = Vec::new();
        for v in &all {
            items.push(json!({
                "path": v.path.as_str(),
                "version": v.number,
                "time": v.rfc3339(),
                "size": v.size,
                "sha256": shadow.version_sha256(v, &objects).map_err(shadow_error)?,
                "file": rel_to_root(shadow, &v.file),
            }));
        }
        crate::cli::out(&format!("{}\n", serde_json::Value::Array(items)));
    } else {
        let mut text = String::new();
        for v in &all {
            text.push_str(&format!(
                "v{:<4} {}  {:>10}  {}\n",
                v.number,
                v.rfc3339(),
                human_size(v.size),
                v.path
            ));
        }
        crate::cli::out(&text);
    }
    Ok(ExitCode::SUCCESS)
}

fn diff(
    shadow: &Shadow,
    cwd: &Path,
    path: &Path,
    version: Option<u64>,
) -> Result<ExitCode, CliError> {
    let path = shadow.resolve(cwd, path).map_err(shadow_error)?;
    let v = shadow.version(&path.rel, version).map_err(shadow_error)?;
    let old = rel_to_root(shadow, &v.file);
    let new = if path.abs.exists() {
        path.rel.to_string()
    } else {
        "/dev/null".to_string()
    };
    let git = GitCommand::new([
        "diff",
        "--no-index",
        "--no-ext-diff",
        "--",
        old.as_str(),
        new.as_str(),
    ])
    .dir(shadow.root());
    let status = git
        .status()
        .map_err(|e| CliError::user(e.to_string()).caused_by(&e))?;
    match status.code() {
        // `git diff --no-index` exits 1 when the files differ.
        Some(0) | Some(1) => Ok(ExitCode::SUCCESS),
        Some(code) => Ok(ExitCode::from(u8::try_from(code).unwrap_or(exit::ERROR))),
        None => Err(CliError::user("`git diff` was killed by a signal")),
    }
}

fn prune(
    shadow: &Shadow,
    keep: Option<u64>,
    older_than: Option<&str>,
    yes: bool,
    json: bool,
) -> Result<ExitCode, CliError> {
    let older = match older_than {
        Some(s) => Some(shadow::parse_duration(s).ok_or_else(|| {
            CliError::usage(format!("invalid duration `{s}`"))
                .hint("use a number and a unit: 90s, 45m, 12h, 30d, 2w (or 1d12h)")
        })?),
        None => None,
    };
    let keep = keep.map(|k| usize::try_from(k).unwrap_or(usize::MAX));
    let session = Session::current().map_err(shadow_error)?;
    // Plan under the lock so that what is listed is what is removed.
    let mut tx = if yes {
        Some(shadow.begin(session).map_err(shadow_error)?)
    } else {
        None
    };
    let plan = shadow.plan_prune(keep, older).map_err(shadow_error)?;
    if json {
        let left = match tx.as_mut() {
            Some(tx) => Some(tx.prune(&plan).map_err(shadow_error)?),
            None => None,
        };
        let removed: Vec<_> = plan
            .remove
            .iter()
            .map(|v| {
                json!({
                    "path": v.path.as_str(),
                    "version": v.number,
                    "time": v.rfc3339(),
                    "size": v.size,
                })
            })
            .collect();
        crate::cli::out(&format!(
            "{}\n",
            json!({
                "dry_run": !yes,
                "removed": removed,
                "freed": plan.freed,
                "kept": plan.protected.len(),
                "store_size": left,
            })
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let verb = if yes { "removing" } else { "would remove" };
    let mut text = String::new();
    for v in &plan.remove {
        text.push_str(&format!(
            "{verb} v{} of `{}` ({}, {})\n",
            v.number,
            v.path,
            v.rfc3339(),
            human_size(v.size)
        ));
    }
    if let Some(tx) = tx.as_mut() {
        let mut bar = crate::cli::ui::Progress::start("pruning", true);
        let left = tx
            .prune_with(&plan, &mut |d, t| bar.update(d, t))
            .map_err(shadow_error)?;
        drop(bar);
        text.push_str(&format!(
            "removed {} version(s), freed {}; the store now holds {}\n",
            plan.remove.len(),
            human_size(plan.freed),
            human_size(left)
        ));
    } else {
        text.push_str(&format!(
            "would remove {} version(s), freeing {}\n",
            plan.remove.len(),
            human_size(plan.freed)
        ));
    }
    if !plan.protected.is_empty() {
        text.push_str(&format!(
            "kept {} version(s) that are the newest of their file or needed by `git fararoni undo`\n",
            plan.protected.len()
        ));
    }
    crate::cli::out(&text);
    if !yes && !plan.remove.is_empty() {
        eprintln!("hint: this was a dry run; add --yes to remove them");
    }
    Ok(ExitCode::SUCCESS)
}
