//! The guard: the only path from proposed content to a file on disk. A
//! guarded write runs the kill-switch ([`killswitch`], which judges content
//! by its language ([`lang`]): what was removed and what stands in its
//! place ([`removal`]), placeholders, stubs ([`stubs`]), structure
//! ([`structure`]), ratios), saves the current content in the shadow store
//! ([`crate::shadow`]) and replaces the file atomically ([`write`]).
//!
//! Never prints; never runs git.

mod elision;
mod embedded;
pub mod killswitch;
pub mod lang;
mod lines;
mod measure;
mod phrases;
mod reflow;
pub mod removal;
pub mod structure;
pub mod stubs;
pub mod write;

use camino::Utf8PathBuf;
use thiserror::Error;

pub use elision::{is_placeholder, is_placeholder_in};
pub use killswitch::{
    check, check_file, check_in_change, Change, Elsewhere, Report, Thresholds, Verdict,
};
pub use write::{guarded_write, Against, Guard, WriteOptions, WriteOutcome, Written};

use crate::shadow::ShadowError;

/// A failure of a guarded write.
#[derive(Debug, Error)]
pub enum GuardError {
    /// The kill-switch blocked the write; nothing was changed.
    #[error("the kill-switch blocked the write to `{path}`{against}")]
    Blocked {
        /// The repository-relative path.
        path: Utf8PathBuf,
        /// The measurements and reasons.
        report: Box<Report>,
        /// Which content the new one was compared with.
        against: Against,
    },
    /// A protective `fararoni.guard.*` setting cannot be read.
    #[error(transparent)]
    Setting(#[from] crate::settings::read::SettingError),
    /// The shadow store or the file system failed.
    #[error(transparent)]
    Shadow(#[from] ShadowError),
}
