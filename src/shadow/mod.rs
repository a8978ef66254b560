//! Layer 3 of the protection triad: the shadow store of pre-write backups,
//! its journal, restores, retention and `undo`.
//!
//! Layout, in the working tree's top directory (kept out of git through the
//! common git dir's `info/exclude`, never a tracked file):
//!
//! ```text
//! .fararoni/shadow/<path>.v<N>.<YYYYMMDD-HHMMSS>   one file per version (read-only)
//! .fararoni/objects/<sha256>                       one file per distinct content
//! .fararoni/journal.jsonl                          every step, written ahead
//! .fararoni/session.jsonl                          what each session first touched
//! ```
//!
//! A version file is a hard link to its content-addressed object, so
//! identical contents take disk space once (a copy when hard links are not
//! available). Every mutation runs under the repository lock
//! ([`crate::lock::RepoLock`]) inside a [`Tx`], which first finishes what a
//! killed predecessor left (stray temporary files) and recreates the store if
//! it was deleted by hand.
//!
//! The store's folder is untrusted input (anyone who can write the working
//! tree can write it): every path in it is opened relative to verified
//! directory handles without following symlinks ([`dir`]), journal lines are
//! validated before anything acts on them, and a store that fails
//! validation is moved aside into the git dir,
//! `<common dir>/fararoni/quarantine/<time>` — never deleted, never left in
//! the working tree where `git add -A` would commit it — and a fresh one
//! started, with a [`Notice`] for the user.
//!
//! In the git dir (`<git dir>/fararoni/`), out of reach of a build that
//! deletes `.fararoni/`: each session's dirty-set manifest (`dirty/`) and
//! its ledger of refs, HEAD, index, config, hooks and changed files
//! (`state/`, [`gitstate`]), whose contents are git blobs kept alive by
//! `refs/fararoni/keep/<digest>`.
//!
//! Never prints. Runs git only to list the dirty set and to put refs back.

pub mod dirty;
pub mod gitstate;
pub mod ignored;
mod journal;
mod paths;
mod reserved;
mod retention;
mod session;
mod store;
mod tx;
mod undo;

use std::path::PathBuf;

use camino::Utf8PathBuf;
use thiserror::Error;

pub use crate::fsx::atomic::atomic_write;
use crate::fsx::dir;
pub use crate::fsx::durable::DURABILITY_ENV;
pub use gitstate::{StateChanges, StateItem, StateOutcome};
pub use ignored::{expendable, precious};
pub use journal::{Entry, Op};
pub(crate) use paths::normalize as paths_normalize;
pub use paths::RepoPath;
pub use retention::{parse_duration, PrunePlan, Retention};
pub use session::{Session, SESSION_ENV};
pub use store::{exclude_store, sha256_hex, Change, Current, Replaced, Shadow, Version, STORE_DIR};
pub use tx::Tx;
pub use undo::{sessions, undo, undo_with, UndoItem, UndoOutcome, UndoReport};

/// A failure of the shadow store or of resolving a path for it.
#[derive(Debug, Error)]
pub enum ShadowError {
    /// No repository contains the directory.
    #[error("not a git repository (or any parent up to the root): `{}`", path.display())]
    NotARepo {
        /// Where discovery started.
        path: PathBuf,
    },
    /// The repository could not be opened.
    #[error(transparent)]
    Repo(#[from] crate::git::RepoError),
    /// The repository has no working tree to protect.
    #[error("the repository at `{}` has no working tree", path.display())]
    Bare {
        /// The git dir.
        path: PathBuf,
    },
    /// A path is not valid UTF-8.
    #[error("the path `{}` is not valid UTF-8", path.display())]
    NonUtf8 {
        /// The path, lossily shown.
        path: PathBuf,
    },
    /// A path leads outside the working tree.
    #[error("`{}` is outside the repository `{}`", path.display(), root.display())]
    Outside {
        /// The path as given.
        path: PathBuf,
        /// The working tree.
        root: PathBuf,
    },
    /// A symlink on the path leads outside the working tree.
    #[error("`{}` goes through a symlink to `{}`, outside the repository", path.display(), target.display())]
    SymlinkEscapes {
        /// The path as given.
        path: PathBuf,
        /// Where the symlink leads.
        target: PathBuf,
    },
    /// A symlink on the path points nowhere.
    #[error("`{}` is a symlink whose target does not exist", path.display())]
    DanglingSymlink {
        /// The symlink.
        path: PathBuf,
    },
    /// A path inside `.git` or the store itself.
    #[error("`{path}` is inside {what}, which git-fararoni never writes through this command")]
    Reserved {
        /// The repository-relative path.
        path: Utf8PathBuf,
        /// What it is inside.
        what: &'static str,
    },
    /// The path names a directory or a special file.
    #[error("`{path}` is not a regular file")]
    NotAFile {
        /// The repository-relative path.
        path: Utf8PathBuf,
    },
    /// A file could not be read.
    #[error("could not read `{}`", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("could not write `{}`", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The repository lock could not be taken.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    /// git could not say which files are dirty.
    #[error("git could not list the working tree's changes")]
    Git(#[source] crate::git::GitError),
    /// The store has no backup of a path.
    #[error("`{path}` has no backup in the shadow store")]
    NoVersions {
        /// The repository-relative path.
        path: Utf8PathBuf,
    },
    /// The store does not have the requested version.
    #[error("`{path}` has no version {version} in the shadow store")]
    NoSuchVersion {
        /// The repository-relative path.
        path: Utf8PathBuf,
        /// The requested version.
        version: u64,
    },
    /// A session id that cannot be recorded.
    #[error("invalid session id `{id}`: {why}")]
    Session {
        /// The id.
        id: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// Nothing was written in the requested session.
    #[error("{}", match id { Some(id) => format!("the journal has no write in session `{id}`"), None => "the journal has no write to undo".to_string() })]
    NoSession {
        /// The session asked for, if any.
        id: Option<String>,
        /// The most recent sessions, newest first.
        recent: Vec<String>,
    },
    /// A `fararoni.shadow.*` setting has a value that cannot be read.
    #[error(transparent)]
    Setting(#[from] crate::settings::read::SettingError),
    /// The store failed validation (a symlink, a FIFO, a hard link or a
    /// forged journal line where the store keeps its own data).
    #[error("the shadow store failed validation: `{}`: {why}", path.display())]
    Untrusted {
        /// What failed.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The store failed validation and could not be moved aside.
    #[error("the shadow store failed validation and could not be moved aside: `{}`: {why}", path.display())]
    Quarantine {
        /// What failed.
        path: PathBuf,
        /// Why it failed validation.
        why: String,
        /// Why the move failed.
        #[source]
        source: std::io::Error,
    },
    /// The file (or a folder on the way to it) became a symlink or
    /// something other than a regular file after it was resolved.
    #[error("`{path}` changed while it was being written ({why}); nothing was written")]
    TargetChanged {
        /// The repository-relative path.
        path: Utf8PathBuf,
        /// What it turned into.
        why: &'static str,
    },
    /// The repository's own state (refs, HEAD, index, config, hooks) could
    /// not be saved or read.
    #[error("the repository's state could not be {action}: {why}")]
    State {
        /// `saved` or `read`.
        action: &'static str,
        /// Why.
        why: String,
    },
    /// A version's content does not match what the journal recorded for it.
    #[error("version {version} of `{path}` does not hold what the journal recorded for it (sha256 or size differ); it was not restored")]
    VersionMismatch {
        /// The repository-relative path.
        path: Utf8PathBuf,
        /// The version.
        version: u64,
    },
}

/// Something the store did on its own that the user must hear about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The store failed validation and was moved aside; a fresh one was
    /// started.
    MovedAside {
        /// What failed validation.
        path: PathBuf,
        /// Why.
        why: String,
        /// Where the old store is now.
        to: PathBuf,
    },
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::MovedAside { path, why, to } => write!(
                f,
                "the shadow store failed validation (`{}`: {why}); it was moved aside to `{}`, nothing in it deleted, and a fresh store started",
                path.display(),
                to.display()
            ),
        }
    }
}

impl ShadowError {
    pub(crate) fn read(path: impl Into<PathBuf>, source: std::io::Error) -> ShadowError {
        ShadowError::Read {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn write(path: impl Into<PathBuf>, source: std::io::Error) -> ShadowError {
        ShadowError::Write {
            path: path.into(),
            source,
        }
    }

    /// Converts a failure on a store path: a refused name (symlink, FIFO,
    /// hard link) makes the store untrusted; anything else is a read or
    /// write error.
    pub(crate) fn from_io(
        path: impl Into<PathBuf>,
        source: std::io::Error,
        writing: bool,
    ) -> ShadowError {
        match dir::why_untrusted(&source) {
            Some(why) => ShadowError::Untrusted {
                path: path.into(),
                why: why.to_string(),
            },
            None if writing => ShadowError::write(path, source),
            None => ShadowError::read(path, source),
        }
    }
}
