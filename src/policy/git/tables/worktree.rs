//! Subcommands that change the working tree, the index or the current
//! branch: their options and rules. These decide whether uncommitted work
//! survives, so every rule here names what it would lose.

use super::common::{DIFF, LOG_OPTIONS, PATHSPEC_FILE};
use crate::policy::git::decide;
use crate::policy::git::{cmd, Command, Rule};
use crate::policy::spec::{flag, opt, req, Opt};
use crate::policy::Risk::{Destructive, LocalWrite, ReadOnly};

const SKIPS_HOOKS: &str = "skips the repository's hooks and their protections";

const ADD: &[Opt] = &[
    flag('n', "dry-run"),
    flag('v', "verbose"),
    flag('i', "interactive"),
    flag('p', "patch"),
    flag('e', "edit"),
    flag('f', "force"),
    flag('u', "update"),
    flag('\0', "renormalize"),
    flag('N', "intent-to-add"),
    flag('A', "all"),
    flag('\0', "ignore-removal"),
    flag('\0', "refresh"),
    flag('\0', "ignore-errors"),
    flag('\0', "ignore-missing"),
    flag('\0', "sparse"),
    req('\0', "chmod"),
];

const COMMIT: &[Opt] = &[
    flag('q', "quiet"),
    flag('v', "verbose"),
    req('F', "file"),
    req('\0', "author"),
    req('\0', "date"),
    req('m', "message"),
    req('c', "reedit-message"),
    req('C', "reuse-message"),
    req('\0', "fixup"),
    req('\0', "squash"),
    flag('\0', "reset-author"),
    req('\0', "trailer").noneg(),
    flag('s', "signoff"),
    req('t', "template"),
    flag('e', "edit"),
    req('\0', "cleanup"),
    flag('\0', "status"),
    opt('S', "gpg-sign"),
    flag('a', "all"),
    flag('i', "include"),
    flag('\0', "interactive"),
    flag('p', "patch"),
    flag('o', "only"),
    flag('n', "no-verify").raise(Destructive, SKIPS_HOOKS),
    flag('\0', "dry-run"),
    flag('\0', "short"),
    flag('\0', "branch"),
    flag('\0', "ahead-behind"),
    flag('\0', "porcelain"),
    flag('\0', "long"),
    flag('z', "null"),
    flag('\0', "amend"),
    flag('\0', "no-post-rewrite").raise(Destructive, SKIPS_HOOKS),
    opt('u', "untracked-files"),
    flag('\0', "allow-empty"),
    flag('\0', "allow-empty-message"),
];

/// Options shared by `checkout`, `switch` and `restore`.
const CHECKOUT_COMMON: &[Opt] = &[
    flag('q', "quiet"),
    opt('\0', "recurse-submodules"),
    flag('\0', "progress"),
    flag('m', "merge"),
    req('\0', "conflict"),
];

const CHECKOUT: &[Opt] = &[
    req('b', ""),
    req('B', ""),
    flag('l', ""),
    flag('\0', "guess"),
    flag('\0', "overlay"),
    flag('d', "detach"),
    opt('t', "track"),
    flag('f', "force"),
    req('\0', "orphan"),
    flag('\0', "overwrite-ignore"),
    flag('\0', "ignore-other-worktrees"),
    flag('2', "ours").noneg(),
    flag('3', "theirs").noneg(),
    flag('p', "patch"),
    flag('\0', "ignore-skip-worktree-bits"),
];

const SWITCH: &[Opt] = &[
    req('c', "create"),
    req('C', "force-create"),
    flag('\0', "guess"),
    flag('\0', "discard-changes"),
    flag('d', "detach"),
    opt('t', "track"),
    flag('f', "force"),
    req('\0', "orphan"),
    flag('\0', "overwrite-ignore"),
    flag('\0', "ignore-other-worktrees"),
];

const RESTORE: &[Opt] = &[
    req('s', "source"),
    flag('S', "staged"),
    flag('W', "worktree"),
    flag('\0', "ignore-unmerged"),
    flag('\0', "overlay"),
    flag('2', "ours").noneg(),
    flag('3', "theirs").noneg(),
    flag('p', "patch"),
    flag('\0', "ignore-skip-worktree-bits"),
];

const RESET: &[Opt] = &[
    flag('q', "quiet"),
    flag('\0', "no-refresh"),
    flag('\0', "mixed").noneg(),
    flag('\0', "soft").noneg(),
    flag('\0', "hard").noneg().raise(
        Destructive,
        "discards uncommitted work in the index and the working tree",
    ),
    flag('\0', "merge")
        .noneg()
        .raise(Destructive, "can discard uncommitted work"),
    flag('\0', "keep").noneg().raise(
        Destructive,
        "moves the branch and rewrites the working tree",
    ),
    opt('\0', "recurse-submodules"),
    flag('p', "patch"),
    flag('N', "intent-to-add"),
];

const CLEAN: &[Opt] = &[
    flag('q', "quiet"),
    flag('n', "dry-run"),
    flag('f', "force"),
    flag('i', "interactive"),
    flag('d', ""),
    req('e', "exclude").noneg(),
    flag('x', ""),
    flag('X', ""),
];

const RM: &[Opt] = &[
    flag('n', "dry-run"),
    flag('q', "quiet"),
    flag('\0', "cached"),
    flag('f', "force"),
    flag('r', ""),
    flag('\0', "ignore-unmatch"),
    flag('\0', "sparse"),
];

const MV: &[Opt] = &[
    flag('v', "verbose"),
    flag('n', "dry-run"),
    flag('f', "force").raise(Destructive, "overwrites the destination"),
    flag('k', ""),
    flag('\0', "sparse"),
];

const STASH_PUSH: &[Opt] = &[
    flag('k', "keep-index"),
    flag('S', "staged"),
    flag('p', "patch"),
    flag('q', "quiet"),
    flag('u', "include-untracked"),
    flag('a', "all"),
    req('m', "message"),
];

const STASH_SHOW: &[Opt] = &[
    flag('u', "include-untracked"),
    flag('\0', "only-untracked").noneg(),
];

const STASH_APPLY: &[Opt] = &[flag('q', "quiet"), flag('\0', "index")];

const QUIET: &[Opt] = &[flag('q', "quiet")];

const STASH_VERBS: &[Command] = &[
    cmd(
        "push",
        &[STASH_PUSH, PATHSPEC_FILE],
        Rule::Fixed(LocalWrite, "sets uncommitted work aside in the stash"),
    ),
    cmd(
        "save",
        &[STASH_PUSH],
        Rule::Fixed(LocalWrite, "sets uncommitted work aside in the stash"),
    ),
    cmd(
        "list",
        LOG_OPTIONS,
        Rule::Fixed(ReadOnly, "lists stash entries"),
    )
    .exact()
    .numeric(),
    cmd(
        "show",
        &[STASH_SHOW, DIFF],
        Rule::Fixed(ReadOnly, "shows a stash entry"),
    )
    .exact(),
    cmd(
        "pop",
        &[STASH_APPLY],
        Rule::Fixed(
            LocalWrite,
            "re-applies a stash entry; it is dropped only if it applied cleanly",
        ),
    ),
    cmd(
        "apply",
        &[STASH_APPLY],
        Rule::Fixed(LocalWrite, "re-applies a stash entry, keeping it"),
    ),
    cmd(
        "drop",
        &[QUIET],
        Rule::Fixed(Destructive, "deletes a stash entry for good"),
    ),
    cmd(
        "clear",
        &[],
        Rule::Fixed(Destructive, "deletes every stash entry for good"),
    ),
    cmd(
        "branch",
        &[],
        Rule::Fixed(LocalWrite, "creates a branch from a stash entry"),
    ),
    cmd(
        "create",
        &[],
        Rule::Fixed(LocalWrite, "creates a stash commit"),
    ),
    cmd(
        "store",
        &[QUIET, &[req('m', "message")]],
        Rule::Fixed(LocalWrite, "records a stash entry"),
    ),
];

const INIT: &[Opt] = &[
    flag('q', "quiet"),
    flag('\0', "bare").raise(
        Destructive,
        "writes repository files into the directory itself, over files of the same names",
    ),
    req('\0', "template").raise(
        Destructive,
        "copies hooks from a template folder into the new repository",
    ),
    req('\0', "separate-git-dir").raise(
        Destructive,
        "puts the repository's git dir at a path it is told",
    ),
    req('\0', "object-format"),
    req('\0', "ref-format"),
    req('b', "initial-branch"),
    opt('\0', "shared").raise(
        Destructive,
        "rewrites the repository's configuration and permissions",
    ),
];

/// The family's tables.
pub const COMMANDS: &[Command] = &[
    cmd(
        "add",
        &[ADD, PATHSPEC_FILE],
        Rule::DryRun(LocalWrite, "stages changes in the index"),
    ),
    cmd(
        "stage",
        &[ADD, PATHSPEC_FILE],
        Rule::DryRun(LocalWrite, "stages changes in the index"),
    ),
    cmd(
        "commit",
        &[COMMIT, PATHSPEC_FILE],
        Rule::Decide(decide::commit),
    ),
    cmd(
        "checkout",
        &[CHECKOUT_COMMON, CHECKOUT, PATHSPEC_FILE],
        Rule::Decide(decide::checkout),
    ),
    cmd(
        "switch",
        &[CHECKOUT_COMMON, SWITCH],
        Rule::Decide(decide::switch),
    ),
    cmd(
        "restore",
        &[CHECKOUT_COMMON, RESTORE, PATHSPEC_FILE],
        Rule::Decide(decide::restore),
    ),
    cmd(
        "reset",
        &[RESET, PATHSPEC_FILE],
        Rule::Decide(decide::reset),
    ),
    cmd("clean", &[CLEAN], Rule::Decide(decide::clean)),
    cmd("rm", &[RM, PATHSPEC_FILE], Rule::Decide(decide::rm)),
    cmd("mv", &[MV], Rule::Decide(decide::mv)),
    cmd(
        "stash",
        &[QUIET],
        Rule::Verbs(STASH_VERBS, Some("push"), LocalWrite, "stashes work"),
    ),
    cmd("init", &[INIT], Rule::Decide(decide::init)),
    cmd("init-db", &[INIT], Rule::Decide(decide::init)),
];
