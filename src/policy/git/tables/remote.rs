//! Subcommands that contact other repositories or hosts, or rewrite
//! history wholesale: never run by level 1, whatever their options.

use crate::policy::git::{cmd, Command, Rule};
use crate::policy::Risk::{Destructive, Remote};

const NET: Rule = Rule::Refuse(Remote, "contacts a remote repository; run it yourself");

/// The family's tables.
pub const COMMANDS: &[Command] = &[
    cmd("push", &[], NET),
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
