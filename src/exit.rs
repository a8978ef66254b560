//! Documented exit codes, the same for every binary (docs/exit-codes.md and
//! the man pages list them). A leaf: the executor and the hooks return them
//! without knowing the command line.

/// Success.
pub const OK: u8 = 0;
/// The request could not be carried out (not a repository, git failed…).
pub const ERROR: u8 = 1;
/// The command line itself was wrong (unknown flag, empty or invalid request).
pub const USAGE: u8 = 2;
/// Blocked by a guard or policy: nothing was changed.
pub const BLOCKED: u8 = 3;
/// The request needs a model and none is available.
pub const MODEL_UNAVAILABLE: u8 = 4;
/// A bug in git-fararoni.
pub const INTERNAL: u8 = 101;
