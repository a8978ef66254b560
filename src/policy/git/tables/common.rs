//! Option groups shared by several subcommands.

use crate::policy::spec::{flag, req, Opt};

/// `--pathspec-from-file` and `--pathspec-file-nul`.
pub const PATHSPEC_FILE: &[Opt] = &[
    req('\0', "pathspec-from-file"),
    flag('\0', "pathspec-file-nul"),
];

/// git's diff options (`diff`, `log -p`, `show`, `stash show`, …).
pub const DIFF: &[Opt] = &[flag('p', "patch"), flag('\0', "stat")];

/// git's revision and log-formatting options (`log`, `rev-list`, …).
pub const REV: &[Opt] = &[flag('\0', "oneline"), req('n', "max-count")];
