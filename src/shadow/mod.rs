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
//! Never prints; never runs git.

mod atomic;
mod durable;
mod journal;
mod paths;
mod retention;
mod session;
mod store;
mod undo;

use std::path::PathBuf;

use camino::Utf8PathBuf;
use thiserror::Error;

pub use atomic::atomic_write;
pub use durable::DURABILITY_ENV;
pub use journal::{Entry, Op};
pub use paths::RepoPath;
pub use retention::{parse_duration, PrunePlan, Retention};
pub use session::Session;
pub use store::{sha256_hex, Change, Current, Replaced, Shadow, Tx, Version, STORE_DIR};
pub use undo::{sessions, undo, UndoItem, UndoOutcome, UndoReport};

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
    /// A `fararoni.shadow.*` setting has an invalid value.
    #[error("invalid `{key}` in git config: `{value}` (expected {expected})")]
    Config {
        /// The key.
        key: String,
        /// The value found.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
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
}
