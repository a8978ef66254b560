//! Subcommands that contact other repositories or hosts: never run by
//! level 1. `push` is parsed in full, because what it would lose on the
//! remote (a force, a deletion, a mirror) is worse than contact alone and
//! is named in the refusal.

use crate::policy::git::{cmd, Command, Ctx, Outcome, Rule};
use crate::policy::parse::Parsed;
use crate::policy::spec::{flag, opt, req, Opt};
use crate::policy::Actor;
use crate::policy::Risk::{self, Destructive, Remote, UnsafeShell};

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
    // Judged in `push` (the Hook posture accepts a lease with its
    // expected value).
    opt('\0', "force-with-lease"),
    flag('\0', "force-if-includes"),
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
/// (`:ref`), or a lease is taken.
///
/// A lease (`--force-with-lease`) overwrites the remote only if its ref is
/// still where the pusher expects, so for the Hook actor it is contact that
/// loses nothing, like a plain push. git's
/// documentation warns that a bare lease trusts the remote-tracking ref,
/// which a fetch can move: such a lease is vetoed when the pushed branch
/// never included that ref's tip ([`lease_discards`], what
/// `--force-if-includes` checks). Every lease is refused for the other
/// actors, which never push.
fn push(p: &Parsed, ctx: &Ctx) -> Outcome {
    let forced = p
        .all_operands()
        .skip(1)
        .any(|s| s.starts_with('+') || s.starts_with(':'));
    let lease = p.has("force-with-lease");
    if forced {
        (
            Destructive,
            "a `+REF` or `:REF` refspec overwrites or deletes history on the remote".into(),
        )
    } else if lease && ctx.actor == Actor::Hook {
        if let Some(why) = lease_discards(p, ctx) {
            return (Destructive, why);
        }
        (
            Remote,
            "a lease overwrites the remote only if nobody else pushed (add `--force-if-includes` so a background fetch cannot vouch for commits you never saw)"
                .into(),
        )
    } else if lease || p.has("force-if-includes") {
        (
            Destructive,
            "`--force-with-lease` overwrites history on the remote".into(),
        )
    } else {
        (
            Remote,
            "contacts a remote repository; run it yourself".into(),
        )
    }
}

/// Why a lease without an expected value would delete commits from the
/// remote that the pushed branch never included — what
/// `--force-if-includes` refuses (`None` when it would not, or when the
/// lease names what it expects, or that option is given).
fn lease_discards(p: &Parsed, ctx: &Ctx) -> Option<String> {
    // One bare lease among explicit ones protects the other refs by their
    // remote-tracking refs: only leases that all name what they expect
    // are left to git.
    let mut leases = p.in_force("force-with-lease").peekable();
    let explicit = leases.peek().is_some() && leases.all(|v| v.is_some_and(|v| v.contains(':')));
    if explicit || p.has("force-if-includes") {
        return None;
    }
    let mut operands = p.all_operands().map(String::as_str);
    let repo_opt = p.values("repo").last();
    let remote = repo_opt.or_else(|| operands.next());
    let refspecs: Vec<String> = operands.map(str::to_string).collect();
    let unseen = ctx.facts.lease_unseen(ctx.place, remote, &refspecs);
    let u = unseen.first()?;
    Some(format!(
        "`--force-with-lease` would overwrite {} (at {}), which `{}` never included: a fetch moved the lease, and the push would delete commits nobody here has seen; integrate them first (`git rebase {}`), or name what you expect (`--force-with-lease={}:<sha>`), or add `--force-if-includes`",
        u.tracking, u.tip, u.source, u.tracking, u.tracking.split_once('/').map_or(u.tracking.as_str(), |(_, b)| b)
    ))
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

// ---------------------------------------------------------------------
// The Hook posture: remote contact that loses nothing runs, so these
// commands need every option listed (the other actors refuse them by
// name, whatever the options).

const SKIPS_HOOKS: &str = "skips the repository's hooks";
const RUNS_REMOTE: &str = "runs a program on the remote host";

/// Options `fetch` and `pull` share.
const FETCH_COMMON: &[Opt] = &[
    flag('\0', "all"),
    flag('a', "append"),
    flag('\0', "atomic"),
    req('\0', "depth"),
    req('\0', "deepen"),
    req('\0', "shallow-since"),
    req('\0', "shallow-exclude"),
    flag('\0', "unshallow"),
    flag('\0', "update-shallow"),
    req('\0', "negotiation-tip"),
    flag('\0', "negotiate-only"),
    flag('\0', "dry-run"),
    flag('\0', "porcelain"),
    flag('\0', "write-fetch-head"),
    flag('f', "force").raise(Destructive, "overwrites local branches with the remote's"),
    flag('k', "keep"),
    flag('\0', "multiple"),
    flag('\0', "auto-maintenance"),
    flag('\0', "auto-gc"),
    flag('\0', "write-commit-graph"),
    flag('\0', "prefetch"),
    flag('p', "prune"),
    flag('P', "prune-tags").raise(Destructive, "deletes local tags the remote does not have"),
    flag('t', "tags"),
    req('\0', "refmap"),
    opt('\0', "recurse-submodules"),
    req('j', "jobs"),
    flag('\0', "set-upstream"),
    req('\0', "upload-pack").raise(UnsafeShell, RUNS_REMOTE),
    flag('q', "quiet"),
    flag('v', "verbose"),
    flag('\0', "progress"),
    req('o', "server-option"),
    flag('\0', "show-forced-updates"),
    flag('4', "ipv4").noneg(),
    flag('6', "ipv6").noneg(),
    req('\0', "filter"),
    flag('\0', "refetch"),
    flag('u', "update-head-ok").raise(
        Destructive,
        "lets the fetch move the checked-out branch under the working tree",
    ),
];

/// `fetch` alone: `-n` is `--no-tags`.
const FETCH_ONLY: &[Opt] = &[flag('n', ""), flag('\0', "stdin")];

/// `pull`'s merge and rebase options.
const PULL_ONLY: &[Opt] = &[
    flag('\0', "commit"),
    flag('e', "edit"),
    req('\0', "cleanup"),
    flag('\0', "ff"),
    flag('\0', "ff-only"),
    opt('S', "gpg-sign"),
    opt('\0', "log"),
    flag('\0', "signoff"),
    flag('\0', "stat"),
    flag('n', ""),
    flag('\0', "compact-summary"),
    flag('\0', "squash"),
    flag('\0', "no-verify").raise(Destructive, SKIPS_HOOKS),
    req('s', "strategy"),
    req('X', "strategy-option"),
    flag('\0', "verify-signatures"),
    flag('\0', "summary"),
    flag('\0', "allow-unrelated-histories"),
    opt('r', "rebase"),
    flag('\0', "autostash"),
];

const LS_REMOTE: &[Opt] = &[
    flag('\0', "heads"),
    flag('b', "branches"),
    flag('t', "tags"),
    flag('\0', "refs"),
    req('\0', "upload-pack").raise(UnsafeShell, RUNS_REMOTE),
    flag('q', "quiet"),
    flag('\0', "exit-code"),
    flag('\0', "get-url"),
    req('\0', "sort"),
    flag('\0', "symref"),
    req('o', "server-option"),
];

const CLONE: &[Opt] = &[
    flag('l', "local"),
    flag('\0', "hardlinks"),
    flag('s', "shared"),
    req('\0', "reference"),
    req('\0', "reference-if-able"),
    flag('\0', "dissociate"),
    flag('q', "quiet"),
    flag('v', "verbose"),
    flag('\0', "progress"),
    req('\0', "server-option"),
    flag('n', "no-checkout"),
    flag('\0', "bare"),
    flag('\0', "sparse"),
    req('\0', "filter"),
    flag('\0', "also-filter-submodules"),
    flag('\0', "mirror"),
    req('o', "origin"),
    req('b', "branch"),
    req('\0', "revision"),
    req('u', "upload-pack").raise(UnsafeShell, RUNS_REMOTE),
    req('\0', "template").raise(UnsafeShell, "installs hooks from a template folder"),
    req('c', "config").value(clone_config),
    req('\0', "depth"),
    req('\0', "shallow-since"),
    req('\0', "shallow-exclude"),
    flag('\0', "single-branch"),
    flag('\0', "tags"),
    opt('\0', "recurse-submodules"),
    flag('\0', "shallow-submodules"),
    flag('\0', "remote-submodules"),
    req('\0', "separate-git-dir").raise(Destructive, "puts the new git dir somewhere else"),
    req('\0', "ref-format"),
    req('j', "jobs"),
    req('\0', "bundle-uri"),
    flag('4', "ipv4").noneg(),
    flag('6', "ipv6").noneg(),
];

const REMOTE_ADD: &[Opt] = &[
    flag('f', "fetch"),
    flag('\0', "tags"),
    req('t', "track"),
    req('m', "master"),
    opt('\0', "mirror"),
];

const SUBMODULE_UPDATE: &[Opt] = &[
    flag('\0', "init"),
    flag('\0', "remote"),
    flag('N', "no-fetch"),
    flag('\0', "checkout"),
    flag('\0', "merge"),
    flag('\0', "rebase"),
    flag('f', "force").raise(Destructive, "throws away changes inside submodules"),
    flag('\0', "recursive"),
    req('\0', "reference"),
    req('\0', "depth"),
    req('j', "jobs"),
    flag('\0', "single-branch"),
    flag('\0', "recommend-shallow"),
    flag('\0', "progress"),
    flag('q', "quiet"),
    req('\0', "filter"),
    flag('\0', "dissociate"),
];

/// `clone -c KEY=VALUE`: the configuration of the new repository, judged
/// by the same allow-list as `git -c`.
fn clone_config(kv: &str) -> Option<(Risk, &'static str)> {
    let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
    crate::policy::git::key_refusal(k, v).map(|(r, _)| {
        (
            r,
            "sets configuration that can run programs or drop protections",
        )
    })
}

/// `clone`: into a new folder inside the working tree or the temp folder.
fn clone(p: &Parsed, ctx: &Ctx) -> Outcome {
    let ops: Vec<&String> = p.all_operands().collect();
    if ops.first().is_some_and(|u| u.starts_with("ext::")) {
        return (UnsafeShell, "an `ext::` URL runs a program".into());
    }
    let dest = match ops.as_slice() {
        [url] => url
            .trim_end_matches('/')
            .trim_end_matches(".git")
            .rsplit(['/', ':'])
            .next()
            .unwrap_or("")
            .to_string(),
        [_, dir] => dir.to_string(),
        _ => return (Remote, "clones a repository".into()),
    };
    let target = ctx.place.dir.join(&dest);
    let existing = target.ancestors().find(|a| a.is_dir());
    let in_temp = target.is_absolute()
        && [std::env::temp_dir(), "/tmp".into(), "/var/tmp".into()]
            .iter()
            .any(|t| target.starts_with(t));
    let inside = existing.is_some_and(|a| ctx.facts.inside_worktree(a) == Some(true));
    if inside || in_temp {
        (Remote, "clones a repository into a new folder".into())
    } else {
        (
            Destructive,
            "clones outside the working tree and the temp folder".into(),
        )
    }
}

/// `remote add NAME URL`: where later fetches and pushes go is remote
/// contact in the making, so it follows `fararoni.hook.remote` like the
/// contact itself; an `ext::` URL runs a program. (`set-url` has no Hook
/// table: it redirects the user's own later pushes, and stays vetoed.)
fn remote_add(p: &Parsed, _: &Ctx) -> Outcome {
    if p.all_operands().any(|u| u.starts_with("ext::")) {
        (UnsafeShell, "an `ext::` URL runs a program".into())
    } else {
        (
            Remote,
            "points a remote at a URL, which decides where later fetches and pushes go".into(),
        )
    }
}

/// The tables the Hook posture uses for commands the other actors refuse
/// as remote contact, by command path (`fetch`, `submodule.update`).
const HOOK_REMOTE: &[Command] = &[
    cmd(
        "fetch",
        &[FETCH_COMMON, FETCH_ONLY],
        Rule::DryRun(Remote, "fetches from a remote; nothing local is lost"),
    ),
    cmd(
        "pull",
        &[FETCH_COMMON, PULL_ONLY],
        Rule::Fixed(
            Remote,
            "fetches and merges; git refuses to overwrite uncommitted work",
        ),
    ),
    cmd(
        "ls-remote",
        &[LS_REMOTE],
        Rule::Fixed(Remote, "lists a remote's refs"),
    ),
    cmd("clone", &[CLONE], Rule::Decide(clone)),
    cmd("remote.add", &[REMOTE_ADD], Rule::Decide(remote_add)),
    cmd(
        "submodule.update",
        &[SUBMODULE_UPDATE],
        Rule::Fixed(Remote, "fetches and checks out submodules"),
    )
    .exact(),
];

/// The Hook posture's table for a remote command, by path.
pub fn hook_table(path: &str) -> Option<&'static Command> {
    HOOK_REMOTE.iter().find(|c| c.name == path)
}

/// Every Hook remote table, for tests.
#[cfg(test)]
pub fn hook_tables() -> impl Iterator<Item = &'static Command> {
    HOOK_REMOTE.iter()
}
