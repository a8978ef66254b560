//! Subcommands that contact other repositories or hosts: never run by
//! level 1. `push` is parsed in full, because what it would lose on the
//! remote (a force, a deletion, a mirror) is worse than contact alone and
//! is named in the refusal.

use crate::policy::git::{cmd, Command, Ctx, Outcome, Rule};
use crate::policy::parse::Parsed;
use crate::policy::spec::{flag, opt, req, Opt};
use crate::policy::Risk::{Destructive, Remote, UnsafeShell};

const NET: Rule = Rule::Refuse(Remote, "contacts a remote repository; run it yourself");

const PUSH: &[Opt] = &[
    flag('v', "verbose"),
    flag('q', "quiet"),
    req('\0', "repo"),
    flag('\0', "all"),
    flag('\0', "branches"),
    flag('\0', "mirror").raise(
        Destructive,
        "makes the remote's refs match, deleting the rest",
    ),
    flag('d', "delete").raise(Destructive, "deletes refs on the remote"),
    flag('\0', "tags"),
    flag('n', "dry-run"),
    flag('\0', "porcelain"),
    flag('f', "force").raise(Destructive, "overwrites history on the remote"),
    opt('\0', "force-with-lease").raise(Destructive, "overwrites history on the remote"),
    flag('\0', "force-if-includes").raise(Destructive, "overwrites history on the remote"),
    req('\0', "recurse-submodules"),
    flag('\0', "thin"),
    req('\0', "receive-pack").raise(UnsafeShell, "runs a program on the remote host"),
    req('\0', "exec").raise(UnsafeShell, "runs a program on the remote host"),
    flag('u', "set-upstream"),
    flag('\0', "progress"),
    flag('\0', "prune").raise(
        Destructive,
        "deletes remote refs that have no local counterpart",
    ),
    flag('\0', "no-verify").raise(Destructive, "skips the pre-push hook"),
    flag('\0', "follow-tags"),
    opt('\0', "signed"),
    flag('\0', "atomic"),
    req('o', "push-option"),
    flag('4', "ipv4").noneg(),
    flag('6', "ipv6").noneg(),
];

/// `push`: contact, and worse when a refspec forces (`+ref`) or deletes
/// (`:ref`).
fn push(p: &Parsed, _: &Ctx) -> Outcome {
    let forced = p
        .all_operands()
        .skip(1)
        .any(|s| s.starts_with('+') || s.starts_with(':'));
    if forced {
        (
            Destructive,
            "a `+REF` or `:REF` refspec overwrites or deletes history on the remote".into(),
        )
    } else {
        (
            Remote,
            "contacts a remote repository; run it yourself".into(),
        )
    }
}

/// The family's tables.
pub const COMMANDS: &[Command] = &[
    cmd("push", &[PUSH], Rule::Decide(push)),
    cmd("fetch", &[], NET),
    cmd("pull", &[], NET),
    cmd("clone", &[], NET),
    cmd("ls-remote", &[], NET),
    cmd("fetch-pack", &[], NET),
    cmd("send-pack", &[], NET),
    cmd("request-pull", &[], NET),
    cmd("send-email", &[], NET),
    cmd("imap-send", &[], NET),
    cmd("http-fetch", &[], NET),
    cmd("http-push", &[], NET),
    cmd("svn", &[], NET),
    cmd("p4", &[], NET),
    cmd("cvsimport", &[], NET),
    cmd("cvsexportcommit", &[], NET),
    cmd(
        "filter-branch",
        &[],
        Rule::Refuse(Destructive, "rewrites history wholesale; run it yourself"),
    ),
];
