//! Judging a file write, edit or delete an agent is about to make: where
//! the file is (never the git dir, the hooks folder, the store, an agent's
//! hook settings, or outside the worktree except a new file under the temp
//! dir), what it is (a regular file, read without following or blocking),
//! and what the new content would lose (the kill-switch against the file
//! as it is). Before an allowed change of a repository's file (an existing
//! one, or a new one) the session's dirty set is saved.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::edit::Rebuilt;
use super::verdict::{Decision, Veto};
use super::{Ctx, MAX_PAYLOAD};
use crate::guard::killswitch::{self, Elsewhere};
use crate::shadow::{paths_normalize, ShadowError};

/// What a call would do to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Give it new content (computed from its current content).
    Write,
    /// Delete it.
    Delete,
}

/// The file as it is now.
#[derive(Debug)]
pub struct Current {
    /// Its content (`None`: it does not exist).
    pub bytes: Option<Vec<u8>>,
}

impl Current {
    /// Returns the content as text (`Err` when it is not UTF-8).
    pub fn text(&self) -> Result<Option<&str>, Veto> {
        match &self.bytes {
            None => Ok(None),
            Some(b) => std::str::from_utf8(b).map(Some).map_err(|_| {
                Veto::fail_closed("the file is not UTF-8 text, so the edit cannot be judged")
            }),
        }
    }
}

/// Where a target is, once judged.
#[derive(Debug)]
pub struct Target {
    /// Absolute, symlinks resolved.
    pub abs: PathBuf,
    /// Relative to the worktree, when inside one.
    pub rel: Option<String>,
    /// A new file under the temp dir (nothing to protect).
    pub scratch: bool,
    /// The repository holding the target when the agent's working
    /// directory is in none (a user-scope install editing a project).
    pub owner: Option<Box<(crate::git::Repo, crate::shadow::Shadow)>>,
}

/// The temporary folders, resolved (one list: `policy::hook::paths`).
fn temp_dirs() -> Vec<PathBuf> {
    crate::policy::hook::paths::temp_dirs()
}

/// Whether `path` is a dotfile or inside a dot-folder of the home
/// directory (shell rc files, `~/.ssh`, `~/.config`): never scratch space,
/// even when the home directory lies under the temp dir.
fn home_dotfile(path: &Path) -> bool {
    let Some(home) = crate::settings::read::home_os().map(std::path::PathBuf::from) else {
        return false;
    };
    let home = std::fs::canonicalize(&home).unwrap_or(home);
    let path = paths_normalize(path);
    let real = std::fs::canonicalize(&path).unwrap_or(path);
    real.strip_prefix(&home)
        .ok()
        .and_then(|rest| rest.components().next())
        .is_some_and(|c| c.as_os_str().to_string_lossy().starts_with('.'))
}

/// Whether `path` does not exist and its deepest existing folder is under
/// a temp dir (symlinks resolved).
fn new_under_temp(path: &Path) -> bool {
    if std::fs::symlink_metadata(path).is_ok() || home_dotfile(path) {
        return false;
    }
    let mut dir = path.to_path_buf();
    while !dir.exists() {
        if !dir.pop() {
            return false;
        }
    }
    let Ok(real) = std::fs::canonicalize(&dir) else {
        return false;
    };
    temp_dirs().iter().any(|t| real.starts_with(t))
}

/// Resolves `input` (relative to `base`) and refuses protected places.
pub fn locate(ctx: &Ctx, base: &Path, input: &str) -> Result<Target, Veto> {
    if input.contains('\0') {
        return Err(Veto::fail_closed("the file name holds a NUL byte"));
    }
    let joined = paths_normalize(&base.join(input));
    if let Some(what) = super::protect::hook_settings(&joined) {
        return Err(Veto::rule(
            &format!("`{input}` is {what}; agents may not change their own guard"),
            "the hooks that protect this repository would be switched off",
            "the user edits these files themselves",
        ));
    }
    let Some(shadow) = ctx.shadow()? else {
        // The agent works outside any repository, but the file may be in
        // one: then that repository's rules and store apply.
        if let Some(owner) = repository_of(&joined)? {
            let mut t = resolve_in(&owner.1, base, input, &joined)?;
            if !t.scratch {
                t.owner = Some(Box::new(owner));
            }
            return Ok(t);
        }
        // No repository: only existing files are judged (kill-switch and a
        // backup in the per-user store).
        return match std::fs::canonicalize(&joined) {
            Ok(abs) => {
                if let Some(what) = super::protect::hook_settings(&abs) {
                    return Err(Veto::rule(
                        &format!(
                            "`{input}` leads to {what}; agents may not change their own guard"
                        ),
                        "the hooks that protect this repository would be switched off",
                        "the user edits these files themselves",
                    ));
                }
                Ok(Target {
                    abs,
                    rel: None,
                    scratch: false,
                    owner: None,
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(&joined).is_ok() {
                    return Err(Veto::rule(
                        &format!("`{input}` is a symlink to nowhere"),
                        "writing through it would create a file elsewhere",
                        "write to the real path",
                    ));
                }
                Ok(Target {
                    abs: joined,
                    rel: None,
                    scratch: true,
                    owner: None,
                })
            }
            Err(e) => Err(Veto::fail_closed(&format!(
                "`{input}` cannot be resolved ({e})"
            ))),
        };
    };
    let target = resolve_in(shadow, base, input, &joined)?;
    refuse_included_config(ctx, &target, input)?;
    Ok(target)
}

/// Refuses a file that git reads as configuration through `include.path`
/// or `includeIf.*.path`: a key added there (`core.fsmonitor`,
/// `core.hooksPath`, an alias) runs programs as `.git/config` would.
fn refuse_included_config(ctx: &Ctx, target: &Target, input: &str) -> Result<(), Veto> {
    use crate::policy::hook::loss::LossFacts as _;
    let includes = crate::facts::GitLoss::new(&ctx.cwd).config_includes();
    if includes.is_empty() {
        return Ok(());
    }
    let abs = crate::policy::hook::paths::resolve_abs(&target.abs, true);
    if includes.iter().any(|p| *p == abs || *p == target.abs) {
        return Err(Veto::rule(
            &format!(
                "`{}` is read by git as configuration (`include.path`)",
                target.rel.as_deref().unwrap_or(input)
            ),
            "a key added there (`core.fsmonitor`, `core.hooksPath`, an alias) would run programs at the next git command",
            "the user edits git's configuration themselves",
        ));
    }
    Ok(())
}

/// The repository holding `path` (its deepest existing folder), if any.
fn repository_of(path: &Path) -> Result<Option<(crate::git::Repo, crate::shadow::Shadow)>, Veto> {
    let mut dir = path.to_path_buf();
    while !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
        if !dir.pop() {
            return Ok(None);
        }
    }
    let Ok(Some(repo)) = crate::git::Repo::discover(&dir) else {
        return Ok(None);
    };
    match crate::shadow::Shadow::open(&repo) {
        Ok(shadow) => Ok(Some((repo, shadow))),
        Err(e) => Err(Veto::rule(
            &format!(
                "`{}` is inside a repository's git dir or a repository that cannot be opened ({e})",
                path.display()
            ),
            "the repository's history or hooks could be lost or subverted",
            "change working files only",
        )),
    }
}

/// Resolves `input` with the rules of the store `shadow`.
fn resolve_in(
    shadow: &crate::shadow::Shadow,
    base: &Path,
    input: &str,
    joined: &Path,
) -> Result<Target, Veto> {
    let joined = joined.to_path_buf();
    match shadow.resolve(base, Path::new(input)) {
        Ok(rp) => {
            if let Some(what) = super::protect::hook_settings(&rp.abs) {
                return Err(Veto::rule(
                    &format!("`{input}` leads to {what}; agents may not change their own guard"),
                    "the hooks that protect this repository would be switched off",
                    "the user edits these files themselves",
                ));
            }
            Ok(Target {
                abs: rp.abs,
                rel: Some(rp.rel.to_string()),
                scratch: false,
                owner: None,
            })
        }
        Err(ShadowError::Outside { .. }) if new_under_temp(&joined) => Ok(Target {
            abs: joined,
            rel: None,
            scratch: true,
            owner: None,
        }),
        Err(ShadowError::Outside { .. }) => Err(Veto::rule(
            &format!("`{input}` is outside the repository"),
            "files outside the worktree have no backup here",
            "work inside the repository, or new files under the temp dir",
        )),
        Err(ShadowError::Reserved { what, .. }) => Err(Veto::rule(
            &format!("`{input}` is inside {what}"),
            "the repository's history, hooks or backups could be lost or subverted",
            "change the working files only",
        )),
        Err(ShadowError::SymlinkEscapes { target, .. }) => Err(Veto::rule(
            &format!(
                "`{input}` goes through a symlink to `{}`, outside the repository",
                target.display()
            ),
            "a file outside the worktree would be changed",
            "write to a path inside the repository",
        )),
        Err(ShadowError::DanglingSymlink { .. }) => Err(Veto::rule(
            &format!("`{input}` is a symlink to nowhere"),
            "writing through it would create a file elsewhere",
            "write to the real path",
        )),
        Err(ShadowError::NotAFile { .. }) => Err(Veto::fail_closed(&format!(
            "`{input}` is not a regular file"
        ))),
        Err(e) => Err(Veto::fail_closed(&format!(
            "`{input}` cannot be resolved: {e}"
        ))),
    }
}

/// Reads the target without following a symlink or blocking on a FIFO;
/// anything but a regular file (or nothing) is refused.
pub fn read_current(target: &Target, shown: &str) -> Result<Current, Veto> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match opts.open(&target.abs) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Current { bytes: None });
        }
        Err(e) => {
            return Err(Veto::fail_closed(&format!(
                "`{shown}` cannot be read ({})",
                e.kind()
            )))
        }
    };
    let meta = file
        .metadata()
        .map_err(|e| Veto::fail_closed(&format!("`{shown}` cannot be read ({})", e.kind())))?;
    if !meta.is_file() {
        return Err(Veto::fail_closed(&format!(
            "`{shown}` is not a regular file (a directory, FIFO or device)"
        )));
    }
    if meta.len() > MAX_PAYLOAD as u64 {
        return Err(Veto::fail_closed(&format!(
            "`{shown}` is too large to judge"
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_PAYLOAD as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Veto::fail_closed(&format!("`{shown}` cannot be read ({})", e.kind())))?;
    Ok(Current { bytes: Some(bytes) })
}

/// The name the kill-switch judges the language by.
fn judged_name(target: &Target) -> String {
    target
        .rel
        .clone()
        .unwrap_or_else(|| target.abs.to_string_lossy().into_owned())
}

/// Judges one change of the file `input` (relative to `base`): `rebuild`
/// computes the new content from the current text. Returns the decision
/// and, when allowed, backs the current content up first.
pub fn judge(
    ctx: &Ctx,
    base: &Path,
    input: &str,
    change: Change,
    rebuild: &dyn Fn(&Current) -> Result<Rebuilt, Veto>,
) -> Decision {
    judge_in_change(ctx, base, input, change, rebuild, &Elsewhere::default())
}

/// [`judge`], for one file of a call that changes several (a patch):
/// code the others gain (`elsewhere`) was moved there, not removed.
pub fn judge_in_change(
    ctx: &Ctx,
    base: &Path,
    input: &str,
    change: Change,
    rebuild: &dyn Fn(&Current) -> Result<Rebuilt, Veto>,
    elsewhere: &Elsewhere<'_>,
) -> Decision {
    match judge_inner(ctx, base, input, change, rebuild, elsewhere) {
        Ok(()) => Decision::Allow,
        Err(v) => Decision::Veto(v),
    }
}

fn judge_inner(
    ctx: &Ctx,
    base: &Path,
    input: &str,
    change: Change,
    rebuild: &dyn Fn(&Current) -> Result<Rebuilt, Veto>,
    elsewhere: &Elsewhere<'_>,
) -> Result<(), Veto> {
    let target = locate(ctx, base, input)?;
    let current = read_current(&target, input)?;
    if target.scratch && current.bytes.is_none() {
        return Ok(());
    }
    // The backup's `git status` runs while the kill-switch judges: the
    // judging changes nothing on disk, and a veto waits for it (dropped).
    let listing = match (&target.owner, &current.bytes) {
        (None, Some(_)) => ctx.list_ahead(),
        _ => None,
    };
    if change == Change::Write {
        let new = match rebuild(&current)? {
            // The agent refuses the edit itself: the file is never touched.
            Rebuilt::Refused(_) => return Ok(()),
            Rebuilt::Content(c) => c,
        };
        if let Some(old) = &current.bytes {
            let report = killswitch::check_in_change(
                &judged_name(&target),
                Some(old),
                new.as_bytes(),
                ctx.thresholds()?,
                elsewhere,
            );
            if report.blocked() {
                let reasons: Vec<String> = report.reasons.iter().map(|r| r.to_string()).collect();
                let shown = target.rel.as_deref().unwrap_or(input);
                let rule = format!("the kill-switch blocked this change to `{shown}`");
                // A body handed to a function not written yet is also the
                // first half of an extraction: writing the function first
                // (or in the same edit) makes the same change pass.
                if report.hands_off_to_unwritten_code() {
                    return Err(Veto::redo(
                        &rule,
                        &reasons.join("; "),
                        "write that function first, or in the same edit, then make this change",
                    ));
                }
                return Err(Veto::rule(
                    &rule,
                    &reasons.join("; "),
                    "make a targeted edit that keeps the existing code, or send the complete file",
                ));
            }
        }
    }
    // A new file of a repository too: the session's snapshot must exist
    // before the file does, or the after-hook has nothing to compare it
    // with and the file is never recorded (a session's first call, a Write
    // of a new file, was never undone).
    if current.bytes.is_some() || target.rel.is_some() || target.owner.is_some() {
        ctx.back_up(&target, &current, listing)?;
    }
    Ok(())
}
