//! Helpers every command shares: the working directory, warnings and the
//! shadow store's notices, sizes for people.

use std::path::PathBuf;

use crate::cli::error::{CliError, ErrorKind};
use crate::lock::LockError;
use crate::settings::read::{Origin, SettingError};
use crate::shadow::{Shadow, ShadowError};

/// Prints a warning on stderr (a setting refused for being weaker than its
/// floor, a store moved aside).
pub(crate) fn warn(text: &dyn std::fmt::Display) {
    eprintln!("warning: {text}");
}

/// Prints what the store did on its own, and the settings it refused.
pub(crate) fn tell(shadow: &Shadow) {
    for n in shadow.take_notices() {
        warn(&n);
    }
}

/// Returns the hint for a protective setting that cannot be read.
pub(crate) fn setting_hint(e: &SettingError) -> String {
    match e.origin {
        Origin::GitConfig => format!("fix it with `git config {} VALUE`, or unset it", e.key),
        Origin::Environment => format!("fix or unset the environment variable `{}`", e.name),
    }
}

/// Converts a store error into what the command line prints.
pub(crate) fn shadow_error(e: ShadowError) -> CliError {
    let kind = match &e {
        ShadowError::SymlinkEscapes { .. }
        | ShadowError::Reserved { .. }
        | ShadowError::TargetChanged { .. } => ErrorKind::Refused,
        ShadowError::Session { .. } => ErrorKind::Usage,
        _ => ErrorKind::User,
    };
    let err = CliError::wrap(kind, &e);
    match &e {
        ShadowError::NotARepo { .. } => {
            err.hint("run it inside a git repository's working tree")
        }
        ShadowError::Lock(LockError::Held { .. }) => err.hint(
            "wait for the other command to finish; a lock left by a process that died is cleared automatically",
        ),
        ShadowError::SymlinkEscapes { .. } => {
            err.hint("write to the symlink's target inside its own repository instead")
        }
        ShadowError::NoVersions { .. } | ShadowError::NoSuchVersion { .. } => {
            err.hint("list the versions with `git fararoni shadow list PATH`")
        }
        ShadowError::NoSession { recent, .. } if !recent.is_empty() => {
            err.hint(format!("recent sessions: {}", recent.join(", ")))
        }
        ShadowError::Session { .. } => err.hint(
            "set `FARARONI_SESSION` to letters, digits and `-_.:@+/` only, at most 128 characters",
        ),
        ShadowError::Setting(e) => err.hint(setting_hint(e)),
        ShadowError::Reserved { .. } => err.hint(
            "git-fararoni never writes the git dir, the hooks folder or its own store; edit such files by hand",
        ),
        ShadowError::TargetChanged { .. } => {
            err.hint("something changed the path while git-fararoni was writing it; check it and try again")
        }
        ShadowError::Untrusted { .. } => err.hint(
            "the next `guard write`, `shadow restore` or `undo` moves it aside into the git dir, `.git/fararoni/quarantine/<time>` (nothing is deleted), and starts a fresh store; inspect it there",
        ),
        ShadowError::Quarantine { .. } => err.hint(
            "move `.fararoni` out of the working tree by hand, then run the command again",
        ),
        ShadowError::VersionMismatch { .. } => err.hint(
            "the version file was changed after it was taken; inspect it with `git fararoni shadow show PATH --version N`",
        ),
        _ => err,
    }
}

/// Returns the current directory or a clear error.
pub(crate) fn cwd() -> Result<PathBuf, CliError> {
    std::env::current_dir()
        .map_err(|e| CliError::user("could not read the current directory").caused_by(&e))
}

/// Returns `n` bytes for people (`512 B`, `20.1 KiB`, `3.4 MiB`).
pub(crate) fn human_size(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}
