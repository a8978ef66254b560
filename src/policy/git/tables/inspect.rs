//! Subcommands that read the repository.

use super::common::{DIFF, REV};
use crate::policy::git::{cmd, Command, Rule};
use crate::policy::spec::{flag, opt, Opt};
use crate::policy::Risk::ReadOnly;

const STATUS: &[Opt] = &[
    flag('v', "verbose"),
    flag('s', "short"),
    flag('b', "branch"),
    flag('\0', "show-stash"),
    flag('\0', "ahead-behind"),
    opt('\0', "porcelain"),
    flag('\0', "long"),
    flag('z', "null"),
    opt('u', "untracked-files"),
    opt('\0', "ignored"),
    opt('\0', "ignore-submodules"),
    opt('\0', "column"),
    flag('\0', "renames"),
    opt('M', "find-renames"),
];

/// The family's tables.
pub const COMMANDS: &[Command] = &[
    cmd(
        "status",
        &[STATUS],
        Rule::Fixed(ReadOnly, "shows the working tree status"),
    ),
    cmd("log", &[REV, DIFF], Rule::Fixed(ReadOnly, "shows history"))
        .exact()
        .numeric(),
    cmd("show", &[REV, DIFF], Rule::Fixed(ReadOnly, "shows objects")).exact(),
    cmd("diff", &[DIFF], Rule::Fixed(ReadOnly, "shows changes")).exact(),
];
