//! The one place the agent calls the shadow store's dirty-set API
//! (`shadow::dirty`, landing on main): saving the dirty set before a
//! command, and journaling what the command changed after it, so
//! `git fararoni undo --session ID` reverses shell side effects too.
//!
//! Until that API is merged these do nothing and say so in the session log
//! (the caller records the empty result); the merge replaces the two
//! bodies.

use std::path::Path;

use crate::shadow::{Session, Shadow};

/// Saves the dirty set of the working tree at `root` under `session`;
/// returns how many files were newly saved.
pub fn snapshot(_shadow: &Shadow, _root: &Path, _session: &Session) -> Result<usize, String> {
    Ok(0)
}

/// Journals every file changed, created or deleted since the last
/// snapshot; returns their repository-relative paths.
pub fn record(_shadow: &Shadow, _root: &Path, _session: &Session) -> Result<Vec<String>, String> {
    Ok(Vec::new())
}

/// Whether the dirty-set API is wired in this build.
pub const AVAILABLE: bool = false;
