//! Subcommands that combine or rewrite history (`merge`, `rebase`,
//! `cherry-pick`, `revert`, `am`, `apply`, `replay`), manage refs and notes
//! (`update-ref`, `symbolic-ref`, `replace`, `notes`; `reflog` is with the
//! read-only tables), extra working trees and submodules (`worktree`,
//! `sparse-checkout`, `submodule`, `bisect`), remotes (`remote`),
//! housekeeping (`gc`, `prune`, `repack`, `maintenance`, …) and the index
//! plumbing.
//!
//! The line drawn throughout: what keeps the content and leaves the old
//! state to the reflog is LocalWrite — a merge, a cherry-pick, a rebase
//! onto its upstream move the current branch the way `commit --amend` and
//! `reset --soft` do, and git refuses to start them over uncommitted
//! changes. What drops commits from the branch (`rebase --onto`,
//! `rebase -s ours`, as `reset --keep` does), throws away a conflict
//! resolution in progress (`--abort`, `--skip`), drops reflog entries or
//! unreachable objects (`gc`, `prune`, `repack -a -d`), moves or deletes
//! refs that have no reflog, rewrites uncommitted edits in place (`apply`
//! without `--index`), writes configuration or outside the working tree, or
//! skips hooks is Destructive. Options whose value is a program
//! (`rebase --exec`, a merge strategy git does not build in) and commands
//! that run one (`bisect run`, `submodule foreach`, `mergetool`) are
//! UnsafeShell.

use crate::policy::git::{cmd, Command, Ctx, Outcome, Rule};
use crate::policy::parse::Parsed;
use crate::policy::spec::{flag, opt, req, Opt};
use crate::policy::Risk::{self, Destructive, LocalWrite, ReadOnly, Remote, UnsafeShell};

const SKIPS_HOOKS: &str = "skips the repository's hooks and their protections";
const ABORTS: &str =
    "resets the working tree to before the operation, losing conflict resolutions and edits made since";
const SKIPS: &str =
    "resets the working tree to drop the commit being applied, losing the conflict resolution in progress";
const OBJECT_DIR: &str =
    "acts on the object directory at a path it is told, not the repository's own";
/// The routing corpus classes configuring a remote with remote contact
/// (fixtures/router/routing-dev.jsonl); it is a configuration write,
/// refused as `git config` writes are.
const CONFIGURES_REMOTE: &str =
    "changes where the repository fetches from and pushes to (remote URLs are configuration, and an `ext::` URL runs a program); run it yourself";

fn out(risk: Risk, why: &str) -> Outcome {
    (risk, why.to_string())
}

// ---------------------------------------------------------------------
// Value checks.

/// The merge strategies git builds in; any other name makes git run the
/// program `git-merge-<name>` found on the PATH.
const BUILTIN_STRATEGIES: &[&str] = &["ort", "recursive", "resolve", "octopus", "ours", "subtree"];

fn strategy(v: &str) -> Option<(Risk, &'static str)> {
    (!BUILTIN_STRATEGIES.contains(&v)).then_some((
        UnsafeShell,
        "names a strategy git does not build in, so git runs the program `git-merge-<name>`",
    ))
}

/// In a rebase `ours` is the upstream being built on: `-s ours` replays
/// every commit as empty (tried: the branch ended equal to its upstream, its
/// commits dropped), and `-X ours` settles every conflict for the upstream.
fn rebase_strategy(v: &str) -> Option<(Risk, &'static str)> {
    if v == "ours" {
        Some((
            Destructive,
            "keeps only the upstream's side (`ours`), so every replayed commit comes out empty and is dropped",
        ))
    } else {
        strategy(v)
    }
}

fn rebase_strategy_option(v: &str) -> Option<(Risk, &'static str)> {
    (v == "ours").then_some((
        Destructive,
        "settles every conflict for the upstream (`ours`), dropping the branch's side",
    ))
}

/// `maintenance run --task`: git matches task names ignoring case.
fn maintenance_task(v: &str) -> Option<(Risk, &'static str)> {
    let is = |name: &str| v.eq_ignore_ascii_case(name);
    if is("prefetch") {
        Some((Remote, "fetches from every remote"))
    } else if is("gc") {
        Some((
            Destructive,
            "runs `gc`, which expires reflog entries and prunes unreachable objects",
        ))
    } else if [
        "commit-graph",
        "loose-objects",
        "incremental-repack",
        "pack-refs",
    ]
    .iter()
    .any(|t| is(t))
    {
        None
    } else {
        Some((Destructive, "names a task the policy does not know"))
    }
}

// ---------------------------------------------------------------------
// merge, rebase, cherry-pick, revert, am, apply, replay.

const MERGE: &[Opt] = &[
    flag('n', ""),
    flag('\0', "stat"),
    flag('\0', "summary"),
    opt('\0', "log"),
    flag('\0', "squash"),
    flag('\0', "commit"),
    flag('e', "edit"),
    req('\0', "cleanup"),
    flag('\0', "ff"),
    flag('\0', "ff-only").noneg(),
    flag('\0', "rerere-autoupdate"),
    flag('\0', "verify-signatures"),
    req('s', "strategy").value(strategy),
    req('X', "strategy-option"),
    req('m', "message"),
    req('F', "file").noneg(),
    req('\0', "into-name"),
    flag('v', "verbose"),
    flag('q', "quiet"),
    flag('\0', "abort").raise(Destructive, ABORTS),
    flag('\0', "quit"),
    flag('\0', "continue"),
    flag('\0', "allow-unrelated-histories"),
    flag('\0', "progress"),
    opt('S', "gpg-sign"),
    flag('\0', "autostash"),
    flag('\0', "overwrite-ignore"),
    flag('\0', "signoff"),
    flag('\0', "no-verify").raise(Destructive, SKIPS_HOOKS),
];

const REBASE: &[Opt] = &[
    req('\0', "onto"),
    flag('\0', "keep-base"),
    flag('\0', "no-verify").raise(Destructive, SKIPS_HOOKS),
    flag('q', "quiet"),
    flag('v', "verbose"),
    flag('n', "no-stat"),
    flag('\0', "signoff"),
    flag('\0', "committer-date-is-author-date"),
    flag('\0', "reset-author-date"),
    flag('\0', "ignore-date"),
    req('C', ""),
    flag('\0', "ignore-whitespace"),
    req('\0', "whitespace"),
    flag('f', "force-rebase"),
    flag('\0', "no-ff"),
    flag('\0', "continue").noneg(),
    flag('\0', "skip").noneg().raise(Destructive, SKIPS),
    flag('\0', "abort").noneg().raise(Destructive, ABORTS),
    flag('\0', "quit").noneg(),
    flag('\0', "edit-todo").noneg(),
    flag('\0', "show-current-patch").noneg(),
    flag('\0', "apply").noneg(),
    flag('m', "merge").noneg(),
    flag('i', "interactive").noneg(),
    flag('p', "preserve-merges"),
    flag('\0', "rerere-autoupdate"),
    req('\0', "empty").noneg(),
    flag('k', "keep-empty"),
    flag('\0', "autosquash"),
    flag('\0', "update-refs"),
    opt('S', "gpg-sign"),
    flag('\0', "autostash"),
    req('x', "exec").raise(UnsafeShell, "runs a shell command after every commit"),
    flag('\0', "allow-empty-message"),
    opt('r', "rebase-merges"),
    flag('\0', "fork-point"),
    req('s', "strategy").value(rebase_strategy),
    req('X', "strategy-option").value(rebase_strategy_option),
    flag('\0', "root"),
    flag('\0', "reschedule-failed-exec"),
    flag('\0', "reapply-cherry-picks"),
];

/// Options `cherry-pick` and `revert` share (the sequencer's).
const SEQUENCER: &[Opt] = &[
    flag('\0', "quit").noneg(),
    flag('\0', "continue").noneg(),
    flag('\0', "abort").noneg().raise(Destructive, ABORTS),
    flag('\0', "skip").noneg().raise(Destructive, SKIPS),
    req('\0', "cleanup"),
    flag('n', "no-commit"),
    flag('e', "edit"),
    flag('r', ""),
    flag('s', "signoff"),
    req('m', "mainline"),
    flag('\0', "rerere-autoupdate"),
    req('\0', "strategy").value(strategy),
    req('X', "strategy-option"),
    opt('S', "gpg-sign"),
];

const CHERRY_PICK: &[Opt] = &[
    flag('x', ""),
    flag('\0', "ff"),
    flag('\0', "allow-empty"),
    flag('\0', "allow-empty-message"),
    flag('\0', "keep-redundant-commits"),
    req('\0', "empty").noneg(),
];

const REVERT: &[Opt] = &[flag('\0', "reference")];

/// `am` without the internal `--rebasing` (git-rebase's own switch).
const AM: &[Opt] = &[
    flag('i', "interactive"),
    flag('n', "no-verify").raise(Destructive, SKIPS_HOOKS),
    flag('b', "binary"),
    flag('3', "3way"),
    flag('q', "quiet"),
    flag('s', "signoff"),
    flag('u', "utf8"),
    flag('k', "keep"),
    flag('\0', "keep-non-patch"),
    flag('m', "message-id"),
    flag('\0', "keep-cr"),
    flag('c', "scissors"),
    req('\0', "quoted-cr").noneg(),
    req('\0', "whitespace"),
    flag('\0', "ignore-space-change"),
    flag('\0', "ignore-whitespace"),
    // `apply` refuses paths that leave the working tree or enter `.git`,
    // and `am` has no `--unsafe-paths` to lift that.
    req('\0', "directory"),
    req('\0', "exclude"),
    req('\0', "include"),
    req('C', ""),
    req('p', ""),
    req('\0', "patch-format"),
    flag('\0', "reject").raise(
        Destructive,
        "overwrites any existing `FILE.rej` with the rejected hunks",
    ),
    req('\0', "resolvemsg"),
    flag('\0', "continue").noneg(),
    flag('r', "resolved").noneg(),
    flag('\0', "skip").noneg().raise(Destructive, SKIPS),
    flag('\0', "abort").noneg().raise(Destructive, ABORTS),
    flag('\0', "quit").noneg(),
    opt('\0', "show-current-patch").noneg(),
    flag('\0', "retry").noneg(),
    flag('\0', "allow-empty").noneg(),
    flag('\0', "committer-date-is-author-date"),
    flag('\0', "ignore-date"),
    flag('\0', "rerere-autoupdate"),
    opt('S', "gpg-sign"),
    req('\0', "empty").noneg(),
];

const APPLY: &[Opt] = &[
    req('\0', "exclude").noneg(),
    req('\0', "include").noneg(),
    req('p', ""),
    flag('\0', "no-add"),
    flag('\0', "stat"),
    flag('\0', "allow-binary-replacement"),
    flag('\0', "binary"),
    flag('\0', "numstat"),
    flag('\0', "summary"),
    flag('\0', "check"),
    flag('\0', "index"),
    flag('N', "intent-to-add"),
    flag('\0', "cached"),
    flag('\0', "unsafe-paths").raise(Destructive, "lets the patch write outside the working tree"),
    flag('\0', "apply"),
    flag('3', "3way"),
    flag('\0', "ours").noneg(),
    flag('\0', "theirs").noneg(),
    flag('\0', "union").noneg(),
    req('\0', "build-fake-ancestor")
        .raise(Destructive, "writes an index file to a path it is told"),
    flag('z', ""),
    req('C', ""),
    req('\0', "whitespace"),
    flag('\0', "ignore-space-change"),
    flag('\0', "ignore-whitespace"),
    flag('R', "reverse"),
    flag('\0', "unidiff-zero"),
    flag('\0', "reject").raise(
        Destructive,
        "overwrites any existing `FILE.rej` with the rejected hunks",
    ),
    flag('\0', "allow-overlap"),
    flag('v', "verbose"),
    flag('q', "quiet"),
    flag('\0', "inaccurate-eof"),
    flag('\0', "recount"),
    // Checked like every patch path: never outside the working tree or
    // into `.git` (tried: `--directory=../x`, `/tmp/x`, `.git/hooks`).
    req('\0', "directory"),
    flag('\0', "allow-empty"),
];

const REPLAY: &[Opt] = &[
    req('\0', "advance"),
    req('\0', "onto"),
    flag('\0', "contained"),
];

/// `rebase`: replaying the branch's commits on a new base keeps their
/// content, like `commit --amend` or `reset --soft` (the reflog keeps the
/// old tip, and git refuses to start over uncommitted changes). What drops
/// commits from the branch is Destructive, as `reset --keep` is: `--onto`
/// moves only the commits after the upstream, leaving out those between.
/// `-i` opens the user's own editor on the todo list, as `commit -e` does.
fn rebase(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("show-current-patch") {
        return out(
            ReadOnly,
            "`--show-current-patch` only shows the patch being applied",
        );
    }
    if p.has("onto") && !p.has("root") {
        return out(
            Destructive,
            "`--onto` drops the commits between the new base and the upstream from the branch (only the reflog keeps them)",
        );
    }
    out(
        LocalWrite,
        "rewrites the current branch (its reflog keeps the old commits); git refuses to start over uncommitted changes",
    )
}

/// `am`: commits patches; git refuses patches that touch files with edits.
fn am(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("show-current-patch") {
        return out(
            ReadOnly,
            "`--show-current-patch` only shows the patch being applied",
        );
    }
    out(
        LocalWrite,
        "commits the patches; git refuses patches that touch files with uncommitted edits",
    )
}

/// `apply`: the reports read. `--index` (and `-3`, which implies it)
/// refuses files whose working copy differs from the index, and `--cached`
/// leaves the working tree alone; plain `apply` rewrites working-tree files
/// in place, uncommitted edits included, and keeps no copy of them (tried:
/// `apply -R` of a file's own diff wiped the edit).
fn apply(p: &Parsed, _: &Ctx) -> Outcome {
    let reports = ["stat", "numstat", "summary", "check"]
        .iter()
        .any(|k| p.has(k));
    if reports && !p.has("apply") {
        return out(
            ReadOnly,
            "`--check`, `--stat`, `--numstat` and `--summary` only report on the patch",
        );
    }
    if p.has("cached") {
        return out(LocalWrite, "applies the patch to the index only");
    }
    if p.has("index") || p.has("3way") {
        return out(
            LocalWrite,
            "applies the patch to the index and the working tree; git refuses files with uncommitted edits",
        );
    }
    out(
        Destructive,
        "rewrites working-tree files in place, uncommitted edits included, and keeps no copy; `git apply --index` refuses files with edits",
    )
}

// ---------------------------------------------------------------------
// notes.

const NOTES: &[Opt] = &[req('\0', "ref")];

/// How `add`, `append` and `edit` are given the note's text.
const NOTE_TEXT: &[Opt] = &[
    req('m', "message").noneg(),
    req('F', "file").noneg(),
    req('c', "reedit-message").noneg(),
    req('C', "reuse-message").noneg(),
    flag('\0', "allow-empty"),
    opt('\0', "separator"),
    flag('\0', "stripspace"),
];

const REPLACES_NOTE: &str = "replaces an existing note";

const NOTES_VERBS: &[Command] = &[
    cmd("list", &[], Rule::Fixed(ReadOnly, "lists notes")),
    cmd("show", &[], Rule::Fixed(ReadOnly, "shows a note")),
    cmd(
        "get-ref",
        &[],
        Rule::Fixed(ReadOnly, "prints the notes ref in use"),
    ),
    cmd(
        "add",
        &[
            NOTE_TEXT,
            &[flag('f', "force").raise(Destructive, REPLACES_NOTE)],
        ],
        Rule::Fixed(LocalWrite, "adds a note (git refuses if one exists)"),
    ),
    cmd(
        "copy",
        &[&[
            flag('f', "force").raise(Destructive, REPLACES_NOTE),
            flag('\0', "stdin"),
            req('\0', "for-rewrite"),
        ]],
        Rule::Fixed(
            LocalWrite,
            "copies a note to an object without one (git refuses otherwise)",
        ),
    ),
    cmd(
        "append",
        &[NOTE_TEXT],
        Rule::Fixed(LocalWrite, "appends to a note, keeping its text"),
    ),
    cmd("edit", &[NOTE_TEXT], Rule::Decide(notes_edit)),
    cmd(
        "merge",
        &[&[
            flag('v', "verbose"),
            flag('q', "quiet"),
            req('s', "strategy"),
            flag('\0', "commit").noneg(),
            flag('\0', "abort").noneg().raise(
                Destructive,
                "throws away the notes merge in progress and the conflicts resolved so far",
            ),
        ]],
        Rule::Fixed(LocalWrite, "merges notes refs into a new notes commit"),
    ),
    cmd(
        "remove",
        &[&[flag('\0', "ignore-missing"), flag('\0', "stdin")]],
        Rule::Fixed(
            Destructive,
            "removes notes (only the notes ref's history keeps them)",
        ),
    ),
    cmd(
        "prune",
        &[&[flag('n', "dry-run"), flag('v', "verbose")]],
        Rule::DryRun(
            Destructive,
            "removes the notes of objects that no longer exist",
        ),
    ),
];

/// `notes edit`: in the editor the user sees the old note; given text
/// replaces it unseen.
fn notes_edit(p: &Parsed, _: &Ctx) -> Outcome {
    let replaces = ["message", "file", "reedit-message", "reuse-message"]
        .iter()
        .any(|k| p.has(k));
    if replaces {
        out(
            Destructive,
            "replaces the existing note with the text given",
        )
    } else {
        out(LocalWrite, "opens the note in the editor")
    }
}

// ---------------------------------------------------------------------
// worktree, sparse-checkout, submodule, bisect.

const WORKTREE_VERBS: &[Command] = &[
    cmd(
        "add",
        &[&[
            flag('f', "force").raise(
                Destructive,
                "overrides the checks that keep one branch in one worktree and a registered path unused",
            ),
            req('b', ""),
            req('B', "").raise(Destructive, "resets an existing branch"),
            flag('\0', "orphan"),
            flag('d', "detach"),
            flag('\0', "checkout"),
            flag('\0', "lock"),
            req('\0', "reason"),
            flag('q', "quiet"),
            flag('\0', "track"),
            flag('\0', "guess-remote"),
        ]],
        Rule::Decide(worktree_add),
    ),
    cmd(
        "list",
        &[&[
            flag('\0', "porcelain"),
            flag('v', "verbose"),
            req('\0', "expire"),
            flag('z', ""),
        ]],
        Rule::Fixed(ReadOnly, "lists worktrees"),
    ),
    cmd(
        "lock",
        &[&[req('\0', "reason")]],
        Rule::Fixed(LocalWrite, "marks a worktree as locked"),
    ),
    cmd(
        "unlock",
        &[],
        Rule::Fixed(LocalWrite, "unlocks a worktree"),
    ),
    cmd(
        "move",
        &[&[flag('f', "force")]],
        Rule::Fixed(
            Destructive,
            "moves a worktree, uncommitted work included, to a path it is told",
        ),
    ),
    cmd(
        "prune",
        &[&[
            flag('n', "dry-run"),
            flag('v', "verbose"),
            req('\0', "expire"),
        ]],
        Rule::DryRun(
            Destructive,
            "deletes the records (index, HEAD, reflog) of worktrees whose folder is missing, say on an unmounted disk",
        ),
    ),
    cmd(
        "remove",
        &[&[flag('f', "force")]],
        Rule::Fixed(
            Destructive,
            "deletes a worktree's folder, ignored files and its HEAD's reflog included",
        ),
    ),
    cmd("repair", &[], Rule::Decide(worktree_repair)),
];

/// `worktree add PATH`: a new folder named by one plain word that does not
/// exist yet, inside the directory git runs in. Anything else writes where
/// it is told — outside the repository, into a dot-folder such as
/// `.git/hooks`, or through a planted symlink (an existing empty folder or
/// a link to one is accepted by git).
fn worktree_add(p: &Parsed, ctx: &Ctx) -> Outcome {
    let Some(path) = p.all_operands().next() else {
        return out(LocalWrite, "`worktree add` needs a path; git will say so");
    };
    let plain =
        !path.is_empty() && !path.starts_with(['.', '~', '-']) && !path.contains(['/', '\\']);
    if plain && ctx.facts.is_path(ctx.place, path) == Some(false) {
        return out(
            LocalWrite,
            "creates a worktree in a new folder inside the current one",
        );
    }
    out(
        Destructive,
        "writes a worktree at a path outside the current folder, or at one that exists or may be a symlink; run it yourself",
    )
}

/// `worktree repair`: without paths it fixes the links of registered
/// worktrees; with paths it writes `.git` files in the folders it is told.
fn worktree_repair(p: &Parsed, _: &Ctx) -> Outcome {
    if p.all_operands().next().is_none() {
        out(
            LocalWrite,
            "repairs the links between this repository and its worktrees",
        )
    } else {
        out(Destructive, "writes `.git` files in the folders it is told")
    }
}

const SPARSE_MODE: &[Opt] = &[flag('\0', "cone"), flag('\0', "sparse-index")];

/// Changing the sparse patterns keeps files with edits and folders with
/// untracked or ignored files (git warns and leaves them); what it removes
/// is clean and in the index.
const SPARSE_VERBS: &[Command] = &[
    cmd(
        "init",
        &[SPARSE_MODE],
        Rule::Fixed(LocalWrite, "turns on sparse checkout"),
    ),
    cmd(
        "list",
        &[],
        Rule::Fixed(ReadOnly, "lists the sparse patterns"),
    ),
    cmd(
        "set",
        &[
            SPARSE_MODE,
            &[
                flag('\0', "skip-checks").noneg(),
                flag('\0', "stdin").noneg(),
            ],
        ],
        Rule::Fixed(
            LocalWrite,
            "sets the sparse patterns; files with edits are kept",
        ),
    ),
    cmd(
        "add",
        &[&[flag('\0', "skip-checks").noneg(), flag('\0', "stdin")]],
        Rule::Fixed(LocalWrite, "adds sparse patterns"),
    ),
    cmd(
        "reapply",
        &[SPARSE_MODE],
        Rule::Fixed(
            LocalWrite,
            "reapplies the sparse patterns; files with edits are kept",
        ),
    ),
    cmd(
        "disable",
        &[],
        Rule::Fixed(LocalWrite, "restores the full working tree"),
    ),
    cmd(
        "check-rules",
        &[&[flag('z', ""), flag('\0', "cone"), req('\0', "rules-file")]],
        Rule::Fixed(ReadOnly, "checks paths against sparse patterns"),
    ),
];

/// `git submodule` is a shell script: options are matched whole, never
/// abbreviated or negated.
const SUBMODULE: &[Opt] = &[flag('q', "quiet").noneg(), flag('\0', "cached").noneg()];

const SUBMODULE_VERBS: &[Command] = &[
    // Looks inside initialised submodules only, the way `git status` itself
    // does; whatever protects `status` from a submodule's configuration
    // protects this.
    cmd(
        "status",
        &[&[
            flag('q', "quiet").noneg(),
            flag('\0', "cached").noneg(),
            flag('\0', "recursive").noneg(),
        ]],
        Rule::Fixed(ReadOnly, "shows the submodules' status"),
    )
    .exact(),
    // Runs `git log` inside each submodule even when it is not initialised:
    // a repository planted there (with a gitlink and .gitmodules) brings its
    // own configuration, and `log.showSignature` with `gpg.program` ran a
    // program (tried on git 2.47).
    cmd(
        "summary",
        &[],
        Rule::Refuse(
            UnsafeShell,
            "runs `git log` inside every submodule folder, whose own configuration (a planted repository's too) can run programs",
        ),
    ),
    // The script takes `-b`/`--branch` only with the branch as the next
    // word, which the canonical argv (`-bNAME`, `--branch=NAME`) is not;
    // `--default` is all that can pass.
    cmd(
        "set-branch",
        &[&[flag('q', "quiet").noneg(), flag('d', "default").noneg()]],
        Rule::Fixed(LocalWrite, "records a submodule's branch in .gitmodules"),
    )
    .exact(),
    cmd(
        "foreach",
        &[],
        Rule::Refuse(UnsafeShell, "runs a shell command in every submodule"),
    ),
    cmd(
        "update",
        &[],
        Rule::Refuse(Remote, "clones or fetches submodules from their remotes"),
    ),
    cmd(
        "add",
        &[],
        Rule::Refuse(Remote, "clones a repository into the working tree"),
    ),
    cmd(
        "init",
        &[],
        Rule::Refuse(
            Destructive,
            "copies submodule URLs from .gitmodules into the configuration; configuration writes are refused — run it yourself",
        ),
    ),
    cmd(
        "deinit",
        &[],
        Rule::Refuse(
            Destructive,
            "deletes submodules' working trees and their configuration",
        ),
    ),
    cmd(
        "set-url",
        &[],
        Rule::Refuse(
            Destructive,
            "rewrites a submodule's URL in .gitmodules and the configuration",
        ),
    ),
    cmd(
        "sync",
        &[],
        Rule::Refuse(
            Destructive,
            "rewrites submodules' remote URLs in the configuration",
        ),
    ),
    cmd(
        "absorbgitdirs",
        &[],
        Rule::Refuse(
            Destructive,
            "moves submodules' repositories into the git dir and rewrites their configuration",
        ),
    ),
];

const BISECT_STATE: Rule = Rule::Fixed(
    LocalWrite,
    "marks a commit and checks out the next one (a plain checkout keeps uncommitted work)",
);

/// `bisect` verbs match their options whole (`strcmp`), never abbreviated.
const BISECT_VERBS: &[Command] = &[
    cmd(
        "start",
        &[&[
            flag('\0', "no-checkout").noneg(),
            flag('\0', "first-parent").noneg(),
            req('\0', "term-good").noneg(),
            req('\0', "term-old").noneg(),
            req('\0', "term-bad").noneg(),
            req('\0', "term-new").noneg(),
        ]],
        Rule::Fixed(
            LocalWrite,
            "starts a bisection (a plain checkout keeps uncommitted work)",
        ),
    )
    .exact(),
    cmd("good", &[], BISECT_STATE),
    cmd("bad", &[], BISECT_STATE),
    cmd("old", &[], BISECT_STATE),
    cmd("new", &[], BISECT_STATE),
    cmd("skip", &[], BISECT_STATE),
    cmd("next", &[], BISECT_STATE),
    cmd(
        "reset",
        &[],
        Rule::Fixed(
            LocalWrite,
            "ends the bisection with a plain checkout, keeping uncommitted work",
        ),
    ),
    cmd(
        "terms",
        &[&[
            flag('\0', "term-good").noneg(),
            flag('\0', "term-old").noneg(),
            flag('\0', "term-bad").noneg(),
            flag('\0', "term-new").noneg(),
        ]],
        Rule::Fixed(ReadOnly, "prints the bisection's terms"),
    )
    .exact(),
    cmd("log", &[], Rule::Fixed(ReadOnly, "prints the bisection log")),
    cmd(
        "replay",
        &[],
        Rule::Fixed(
            LocalWrite,
            "replays a bisection log's marks (it runs no commands)",
        ),
    ),
    cmd(
        "run",
        &[],
        Rule::Refuse(UnsafeShell, "runs a command at every step"),
    ),
    cmd(
        "visualize",
        &[],
        Rule::Refuse(
            UnsafeShell,
            "runs gitk, or whatever program or git command its arguments name; `git log --bisect` shows the same",
        ),
    ),
    cmd(
        "view",
        &[],
        Rule::Refuse(
            UnsafeShell,
            "runs gitk, or whatever program or git command its arguments name; `git log --bisect` shows the same",
        ),
    ),
];

// ---------------------------------------------------------------------
// Refs: update-ref, symbolic-ref, replace.

const UPDATE_REF: &[Opt] = &[
    req('m', ""),
    flag('d', ""),
    flag('\0', "no-deref"),
    flag('z', ""),
    flag('\0', "stdin"),
    flag('\0', "create-reflog"),
];

const SYMBOLIC_REF: &[Opt] = &[
    flag('q', "quiet"),
    flag('d', "delete"),
    flag('\0', "short"),
    flag('\0', "recurse"),
    req('m', ""),
];

const REPLACE: &[Opt] = &[
    flag('l', "list").noneg(),
    flag('d', "delete").noneg(),
    flag('e', "edit").noneg(),
    flag('g', "graft").noneg(),
    flag('\0', "convert-graft-file").noneg(),
    flag('f', "force"),
    flag('\0', "raw"),
    req('\0', "format"),
];

fn is_null_oid(v: &str) -> bool {
    (v.len() == 40 || v.len() == 64) && v.bytes().all(|b| b == b'0')
}

/// `update-ref`: only creating a ref that does not exist yet (the old
/// value given as empty or all zeros, which git verifies) is safe; moving
/// one loses what it pointed to unless a reflog keeps it, and deleting
/// drops the reflog too.
fn update_ref(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("stdin") {
        return out(
            Destructive,
            "applies whatever updates and deletions it reads from standard input",
        );
    }
    if p.has("d") {
        return out(Destructive, "deletes a ref and its reflog");
    }
    let ops: Vec<&String> = p.all_operands().collect();
    let creates = match ops.as_slice() {
        [_, new, old] => (old.is_empty() || is_null_oid(old)) && !is_null_oid(new),
        _ => false,
    };
    if !creates {
        return out(
            Destructive,
            "moves or deletes an existing ref; what it pointed to is lost unless a reflog keeps it",
        );
    }
    // A case-insensitive file system stores `refs/Replace/` where git
    // reads `refs/replace/`.
    if ops[0].to_ascii_lowercase().starts_with("refs/replace") {
        return out(
            Destructive,
            "creates a replace ref, which changes what history shows to every command",
        );
    }
    out(
        LocalWrite,
        "creates a ref that does not exist yet (git verifies it)",
    )
}

/// `symbolic-ref NAME` reads; with a target or `--delete` it rewrites a
/// ref that has no history of its own.
fn symbolic_ref(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("delete") {
        return out(Destructive, "deletes a symbolic ref");
    }
    if p.all_operands().count() >= 2 {
        return out(
            Destructive,
            "points a ref somewhere else, replacing what it held",
        );
    }
    out(ReadOnly, "reads a symbolic ref")
}

/// `replace`: listing reads; every write changes what history shows to
/// every command (and replace refs have no reflog).
fn replace(p: &Parsed, _: &Ctx) -> Outcome {
    for (key, why) in [
        ("delete", "deletes replace refs, which have no reflog"),
        ("edit", "replaces an object, changing what history shows"),
        ("graft", "rewrites a commit's parents as history shows them"),
        (
            "convert-graft-file",
            "turns the graft file into replace refs and deletes it",
        ),
    ] {
        if p.has(key) {
            return out(Destructive, why);
        }
    }
    if p.has("list") || p.all_operands().next().is_none() {
        return out(ReadOnly, "lists replace refs");
    }
    out(
        Destructive,
        "replaces an object, changing what history shows to every command",
    )
}

// ---------------------------------------------------------------------
// Housekeeping: prune, pack-refs, repack, maintenance, refs, commit-graph,
// multi-pack-index.

/// gc's options. A `--prune` of its own (with or without a date) overrides
/// the `never` it runs with.
const GC: &[Opt] = &[
    flag('\0', "aggressive"),
    flag('\0', "auto"),
    flag('\0', "detach"),
    flag('\0', "cruft"),
    req('\0', "max-cruft-size"),
    opt('\0', "prune").raise(
        Destructive,
        "prunes unreachable objects older than its date (a dropped stash, a reset-away commit): lost for good",
    ),
    flag('q', "quiet"),
    flag('\0', "force"),
    flag('\0', "keep-largest-pack"),
];

/// The configuration `gc` runs with, so it expires and prunes nothing: what
/// it would drop (old reflog entries, unreachable objects such as a
/// dropped stash, stale worktrees, recorded resolutions) is exactly what an
/// undo needs.
pub const GC_KEEPS: &[&str] = &[
    "gc.pruneExpire=never",
    "gc.reflogExpire=never",
    "gc.reflogExpireUnreachable=never",
    "gc.worktreePruneExpire=never",
    "gc.rerereResolved=never",
    "gc.rerereUnresolved=never",
];

const PRUNE: &[Opt] = &[
    flag('n', "dry-run"),
    flag('v', "verbose"),
    flag('\0', "progress"),
    req('\0', "expire"),
    flag('\0', "exclude-promisor-objects"),
];

const PACK_REFS: &[Opt] = &[
    flag('\0', "all"),
    flag('\0', "prune"),
    flag('\0', "auto"),
    req('\0', "include"),
    req('\0', "exclude"),
];

const REPACK: &[Opt] = &[
    flag('a', ""),
    flag('A', ""),
    flag('\0', "cruft"),
    req('\0', "cruft-expiration").raise(
        Destructive,
        "deletes unreachable objects older than the date at once",
    ),
    req('\0', "max-cruft-size").noneg(),
    flag('d', ""),
    flag('f', ""),
    flag('F', ""),
    flag('n', ""),
    flag('q', "quiet"),
    flag('l', "local"),
    flag('b', "write-bitmap-index"),
    flag('i', "delta-islands"),
    req('\0', "unpack-unreachable").raise(
        Destructive,
        "deletes unreachable objects older than the date instead of loosening them",
    ),
    flag('k', "keep-unreachable"),
    req('\0', "window"),
    req('\0', "window-memory"),
    req('\0', "depth"),
    req('\0', "threads"),
    req('\0', "max-pack-size").noneg(),
    // Filtered-out objects go to a second pack in the repository (tried:
    // `-a -d --filter=blob:none` keeps every blob); `--filter-to` moves them
    // out.
    req('\0', "filter"),
    flag('\0', "pack-kept-objects"),
    req('\0', "keep-pack"),
    req('g', "geometric"),
    flag('m', "write-midx"),
    req('\0', "expire-to").raise(
        Destructive,
        "writes the pruned objects to a pack at a path it is told",
    ),
    req('\0', "filter-to").raise(
        Destructive,
        "moves the filtered-out objects to a pack at a path it is told",
    ),
];

/// `repack`: `-a -d` drops unreachable objects that sit in old packs at
/// once (a dropped stash's commits, say); `-A`, `--cruft` and `-k` keep
/// them for `gc`'s usual expiry. `-d` alone only removes packs whose
/// objects are all in the new one.
fn repack(p: &Parsed, _: &Ctx) -> Outcome {
    let keeps = p.has("A") || p.has("cruft") || p.has("keep-unreachable");
    if p.has("d") && p.has("a") && !keeps {
        return out(
            Destructive,
            "`-a -d` deletes unreachable objects in old packs at once (use `-A` or `--cruft` to keep them)",
        );
    }
    out(LocalWrite, "repacks objects, keeping every one")
}

const MAINTENANCE_RUN: &[Opt] = &[
    flag('\0', "auto"),
    flag('\0', "detach"),
    req('\0', "schedule").raise(
        Destructive,
        "runs whatever tasks the configuration schedules, prefetch and gc included",
    ),
    flag('\0', "quiet"),
    req('\0', "task").noneg().value(maintenance_task),
];

const SCHEDULES: &str =
    "writes the global configuration and the user's scheduler (cron, systemd, launchd) so that maintenance, prefetch and gc included, runs in the background";

const MAINTENANCE_VERBS: &[Command] = &[
    cmd("run", &[MAINTENANCE_RUN], Rule::Decide(maintenance_run)),
    cmd("start", &[], Rule::Refuse(Destructive, SCHEDULES)),
    cmd("stop", &[], Rule::Refuse(Destructive, SCHEDULES)),
    cmd("register", &[], Rule::Refuse(Destructive, SCHEDULES)),
    cmd("unregister", &[], Rule::Refuse(Destructive, SCHEDULES)),
];

/// `maintenance run`: without `--task` it runs the configured tasks, gc by
/// default; each named task is judged by its value check.
fn maintenance_run(p: &Parsed, _: &Ctx) -> Outcome {
    if p.values("task").next().is_none() {
        return out(
            Destructive,
            "without `--task` it runs the configured tasks, gc by default, which expires reflogs and prunes objects",
        );
    }
    out(LocalWrite, "runs the named maintenance tasks")
}

const REFS_VERBS: &[Command] = &[
    cmd(
        "migrate",
        &[&[req('\0', "ref-format").noneg(), flag('\0', "dry-run")]],
        Rule::Decide(refs_migrate),
    ),
    cmd(
        "verify",
        &[&[flag('\0', "verbose"), flag('\0', "strict")]],
        Rule::Fixed(ReadOnly, "checks the ref database"),
    ),
];

/// `refs migrate` rewrites the whole ref database in another storage
/// format; git documents that ref updates made meanwhile leave it
/// inconsistent (2.47 refuses when reflogs exist). A dry run writes a
/// scratch copy in the git dir.
fn refs_migrate(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("dry-run") {
        out(
            LocalWrite,
            "a dry run writes the migrated refs to a scratch folder in the git dir",
        )
    } else {
        out(
            Destructive,
            "rewrites every ref into another storage format (experimental: ref updates made meanwhile are lost)",
        )
    }
}

const OBJECT_DIR_OPT: Opt = req('\0', "object-dir").raise(Destructive, OBJECT_DIR);

const COMMIT_GRAPH_VERBS: &[Command] = &[
    cmd(
        "verify",
        &[&[
            OBJECT_DIR_OPT,
            flag('\0', "shallow"),
            flag('\0', "progress"),
        ]],
        Rule::Fixed(ReadOnly, "checks the commit-graph file"),
    ),
    cmd(
        "write",
        &[&[
            OBJECT_DIR_OPT,
            flag('\0', "reachable"),
            flag('\0', "stdin-packs"),
            flag('\0', "stdin-commits"),
            flag('\0', "append"),
            flag('\0', "changed-paths"),
            opt('\0', "split").noneg(),
            req('\0', "max-commits"),
            req('\0', "size-multiple"),
            req('\0', "expire-time"),
            req('\0', "max-new-filters"),
            flag('\0', "progress"),
        ]],
        Rule::Fixed(LocalWrite, "writes the commit-graph cache"),
    ),
];

const MIDX_VERBS: &[Command] = &[
    cmd(
        "write",
        &[&[
            OBJECT_DIR_OPT,
            req('\0', "preferred-pack"),
            flag('\0', "bitmap"),
            flag('\0', "progress"),
            flag('\0', "incremental"),
            flag('\0', "stdin-packs"),
            req('\0', "refs-snapshot"),
        ]],
        Rule::Fixed(LocalWrite, "writes the multi-pack index"),
    ),
    cmd(
        "verify",
        &[&[OBJECT_DIR_OPT, flag('\0', "progress")]],
        Rule::Fixed(ReadOnly, "checks the multi-pack index"),
    ),
    cmd(
        "expire",
        &[&[OBJECT_DIR_OPT, flag('\0', "progress")]],
        Rule::Fixed(
            LocalWrite,
            "deletes packs whose every object is in another pack",
        ),
    ),
    cmd(
        "repack",
        &[&[
            OBJECT_DIR_OPT,
            req('\0', "batch-size").noneg(),
            flag('\0', "progress"),
        ]],
        Rule::Fixed(LocalWrite, "repacks small packs into a larger one"),
    ),
];

// ---------------------------------------------------------------------
// remote.

/// `remote` verbs that change remotes are refused: a remote's URL decides
/// where later fetches and pushes go, and an `ext::` URL runs a program.
const REMOTE_VERBS: &[Command] = &[
    cmd(
        "get-url",
        &[&[flag('\0', "push"), flag('\0', "all")]],
        Rule::Fixed(ReadOnly, "prints a remote's URL"),
    ),
    cmd("show", &[&[flag('n', "")]], Rule::Decide(remote_show)),
    cmd("add", &[], Rule::Refuse(Remote, CONFIGURES_REMOTE)),
    cmd("rename", &[], Rule::Refuse(Remote, CONFIGURES_REMOTE)),
    cmd("set-url", &[], Rule::Refuse(Remote, CONFIGURES_REMOTE)),
    cmd("set-branches", &[], Rule::Refuse(Remote, CONFIGURES_REMOTE)),
    cmd(
        "remove",
        &[],
        Rule::Refuse(
            Destructive,
            "deletes a remote's configuration and its remote-tracking refs",
        ),
    ),
    cmd(
        "rm",
        &[],
        Rule::Refuse(
            Destructive,
            "deletes a remote's configuration and its remote-tracking refs",
        ),
    ),
    cmd(
        "set-head",
        &[],
        Rule::Refuse(
            Remote,
            "rewrites a remote's HEAD ref, asking the remote with `-a`",
        ),
    ),
    cmd(
        "prune",
        &[],
        Rule::Refuse(
            Remote,
            "asks the remote which branches are gone (a dry run too), then deletes their refs",
        ),
    ),
    cmd(
        "update",
        &[],
        Rule::Refuse(Remote, "fetches from the remotes"),
    ),
];

/// `remote show NAME` asks the remote unless `-n`; with no name it lists
/// remotes.
fn remote_show(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("n") || p.all_operands().next().is_none() {
        out(ReadOnly, "shows remotes from the configuration")
    } else {
        out(Remote, "asks the remote for its branches (`-n` does not)")
    }
}

// ---------------------------------------------------------------------
// Index and object plumbing.

const CHECKOUT_INDEX: &[Opt] = &[
    flag('a', "all"),
    flag('\0', "ignore-skip-worktree-bits"),
    flag('f', "force").raise(Destructive, "overwrites files, uncommitted edits included"),
    flag('q', "quiet"),
    flag('n', "no-create"),
    flag('u', "index"),
    flag('z', ""),
    flag('\0', "stdin"),
    flag('\0', "temp"),
    req('\0', "prefix").raise(Destructive, "writes files under a path it is told"),
    req('\0', "stage").noneg(),
];

/// `read-tree` without its internal `--super-prefix`.
const READ_TREE: &[Opt] = &[
    req('\0', "index-output")
        .noneg()
        .raise(Destructive, "writes an index file to a path it is told"),
    flag('\0', "empty"),
    flag('v', "verbose"),
    flag('m', ""),
    flag('\0', "trivial"),
    flag('\0', "aggressive"),
    flag('\0', "reset").raise(
        Destructive,
        "discards unmerged entries and, with `-u`, uncommitted edits",
    ),
    req('\0', "prefix").noneg(),
    flag('u', "").raise(
        Destructive,
        "rewrites the working tree from a tree, below porcelain's safety checks",
    ),
    req('\0', "exclude-per-directory").noneg(),
    flag('i', ""),
    flag('n', "dry-run"),
    flag('\0', "no-sparse-checkout"),
    flag('\0', "debug-unpack"),
    opt('\0', "recurse-submodules"),
    flag('q', "quiet"),
];

/// With `--assume-unchanged` (or `--fsmonitor-valid`) on an edited file,
/// a plain `git rm FILE` deletes it, edits and all (tried on git 2.47).
const TRUSTED_UNCHANGED: &str =
    "makes git trust the file is unchanged without looking, so `git rm` deletes its edits unchecked";

/// `git rm` refuses to drop an entry whose staged content differs from
/// both the file and HEAD; these do not ask.
const DROPS_ENTRIES: &str =
    "drops index entries without the check `git rm` makes, so staged content is left only as a dangling object";

const UPDATE_INDEX: &[Opt] = &[
    flag('q', ""),
    flag('\0', "ignore-submodules"),
    flag('\0', "add"),
    flag('\0', "replace"),
    flag('\0', "remove").raise(Destructive, DROPS_ENTRIES),
    flag('\0', "unmerged"),
    flag('\0', "refresh").noneg(),
    flag('\0', "really-refresh").noneg(),
    req('\0', "cacheinfo").noneg(),
    req('\0', "chmod").noneg(),
    flag('\0', "assume-unchanged")
        .noneg()
        .raise(Destructive, TRUSTED_UNCHANGED),
    flag('\0', "no-assume-unchanged").noneg(),
    flag('\0', "skip-worktree").noneg().raise(
        Destructive,
        "hides the file's edits from status, stash and commit, so they can be lost unnoticed",
    ),
    flag('\0', "no-skip-worktree").noneg(),
    flag('\0', "ignore-skip-worktree-entries"),
    flag('\0', "info-only"),
    flag('\0', "force-remove").raise(Destructive, DROPS_ENTRIES),
    flag('z', ""),
    flag('\0', "stdin").noneg(),
    flag('\0', "index-info").noneg(),
    flag('\0', "unresolve").noneg(),
    flag('g', "again").noneg(),
    flag('\0', "ignore-missing"),
    flag('\0', "verbose"),
    flag('\0', "clear-resolve-undo").noneg(),
    req('\0', "index-version"),
    flag('\0', "show-index-version"),
    flag('\0', "split-index"),
    flag('\0', "untracked-cache"),
    flag('\0', "test-untracked-cache"),
    flag('\0', "force-untracked-cache"),
    flag('\0', "force-write-index"),
    flag('\0', "fsmonitor"),
    flag('\0', "fsmonitor-valid")
        .noneg()
        .raise(Destructive, TRUSTED_UNCHANGED),
    flag('\0', "no-fsmonitor-valid").noneg(),
];

const COMMIT_TREE: &[Opt] = &[
    req('p', ""),
    req('m', ""),
    req('F', ""),
    opt('S', "gpg-sign"),
];

/// `--prefix` names a folder of the index, not a place to write.
const WRITE_TREE: &[Opt] = &[
    flag('\0', "missing-ok"),
    req('\0', "prefix"),
    flag('\0', "ignore-cache-tree"),
];

const MKTREE: &[Opt] = &[flag('z', ""), flag('\0', "missing"), flag('\0', "batch")];

const MKTAG: &[Opt] = &[flag('\0', "strict")];

const MERGE_FILE: &[Opt] = &[
    flag('p', "stdout"),
    flag('\0', "object-id"),
    flag('\0', "diff3"),
    flag('\0', "zdiff3"),
    flag('\0', "ours"),
    flag('\0', "theirs"),
    flag('\0', "union"),
    req('\0', "diff-algorithm").noneg(),
    req('\0', "marker-size"),
    flag('q', "quiet"),
    req('L', ""),
];

/// `merge-file` writes the result over its first file unless `-p`; with
/// `--object-id` it writes a blob instead.
fn merge_file(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("stdout") {
        out(ReadOnly, "`-p` prints the merge result")
    } else if p.has("object-id") {
        out(LocalWrite, "writes the merge result as a blob")
    } else {
        out(
            Destructive,
            "writes the merge result over the first file it is given (`-p` prints it instead)",
        )
    }
}

/// The family's tables.
pub const COMMANDS: &[Command] = &[
    cmd(
        "merge",
        &[MERGE],
        Rule::Fixed(
            LocalWrite,
            "merges into the current branch (its reflog keeps the old tip); git refuses to overwrite uncommitted changes",
        ),
    ),
    cmd("rebase", &[REBASE], Rule::Decide(rebase)),
    cmd(
        "cherry-pick",
        &[SEQUENCER, CHERRY_PICK],
        Rule::Fixed(
            LocalWrite,
            "applies commits onto the current branch; git refuses to overwrite uncommitted changes",
        ),
    ),
    cmd(
        "revert",
        &[SEQUENCER, REVERT],
        Rule::Fixed(
            LocalWrite,
            "records commits that undo others; git refuses to overwrite uncommitted changes",
        ),
    ),
    cmd("am", &[AM], Rule::Decide(am)),
    cmd("apply", &[APPLY], Rule::Decide(apply)),
    cmd(
        "replay",
        &[REPLAY],
        Rule::Fixed(
            LocalWrite,
            "writes replayed commits and prints ref updates; it moves no ref itself",
        ),
    ),
    cmd(
        "notes",
        &[NOTES],
        Rule::Verbs(NOTES_VERBS, None, ReadOnly, "lists notes"),
    ),
    cmd(
        "worktree",
        &[],
        Rule::Verbs(WORKTREE_VERBS, None, ReadOnly, "prints its usage"),
    ),
    cmd(
        "sparse-checkout",
        &[],
        Rule::Verbs(SPARSE_VERBS, None, ReadOnly, "prints its usage"),
    ),
    cmd(
        "submodule",
        &[SUBMODULE],
        Rule::Verbs(
            SUBMODULE_VERBS,
            None,
            ReadOnly,
            "shows the submodules' status",
        ),
    )
    .exact(),
    cmd(
        "bisect",
        &[],
        Rule::Verbs(BISECT_VERBS, None, ReadOnly, "prints its usage"),
    ),
    cmd("update-ref", &[UPDATE_REF], Rule::Decide(update_ref)),
    cmd("symbolic-ref", &[SYMBOLIC_REF], Rule::Decide(symbolic_ref)),
    cmd("replace", &[REPLACE], Rule::Decide(replace)),
    // Left to itself gc expires reflog entries (even with `--no-prune`,
    // tried) and prunes unreachable objects and stale worktrees; it runs
    // with [`GC_KEEPS`] in force, which makes it lose none of them.
    cmd(
        "gc",
        &[GC],
        Rule::Fixed(
            LocalWrite,
            "repacks the repository; it runs with every expiry set to `never` (reflogs, unreachable objects, worktrees, rerere), so it loses nothing",
        ),
    ),
    cmd(
        "prune",
        &[PRUNE],
        Rule::DryRun(Destructive, "deletes unreachable objects for good"),
    ),
    cmd(
        "pack-refs",
        &[PACK_REFS],
        Rule::Fixed(LocalWrite, "packs refs into one file"),
    ),
    cmd("repack", &[REPACK], Rule::Decide(repack)),
    cmd(
        "maintenance",
        &[],
        Rule::Verbs(MAINTENANCE_VERBS, None, ReadOnly, "prints its usage"),
    ),
    cmd(
        "refs",
        &[],
        Rule::Verbs(REFS_VERBS, None, ReadOnly, "prints its usage"),
    ),
    // No parent options: `judge` drops a parent option's effect once a
    // verb follows, so `--object-dir` is accepted only after the verb.
    cmd(
        "commit-graph",
        &[],
        Rule::Verbs(COMMIT_GRAPH_VERBS, None, ReadOnly, "prints its usage"),
    ),
    cmd(
        "multi-pack-index",
        &[],
        Rule::Verbs(MIDX_VERBS, None, ReadOnly, "prints its usage"),
    ),
    cmd(
        "remote",
        &[&[flag('v', "verbose")]],
        Rule::Verbs(REMOTE_VERBS, None, ReadOnly, "lists remotes"),
    ),
    cmd(
        "checkout-index",
        &[CHECKOUT_INDEX],
        Rule::Fixed(
            LocalWrite,
            "writes index content to files that do not exist yet (existing files are left alone)",
        ),
    ),
    cmd(
        "read-tree",
        &[READ_TREE],
        Rule::DryRun(
            LocalWrite,
            "reads trees into the index; the working tree is untouched without `-u`",
        ),
    ),
    cmd(
        "update-index",
        &[UPDATE_INDEX],
        Rule::Fixed(LocalWrite, "changes the index; the working tree is untouched"),
    ),
    cmd(
        "commit-tree",
        &[COMMIT_TREE],
        Rule::Fixed(LocalWrite, "writes a commit object; no ref moves"),
    ),
    cmd(
        "write-tree",
        &[WRITE_TREE],
        Rule::Fixed(LocalWrite, "writes a tree object from the index"),
    ),
    cmd(
        "mktree",
        &[MKTREE],
        Rule::Fixed(LocalWrite, "writes a tree object"),
    ),
    cmd(
        "mktag",
        &[MKTAG],
        Rule::Fixed(LocalWrite, "writes a tag object; no ref moves"),
    ),
    cmd(
        "unpack-file",
        &[],
        Rule::Fixed(
            LocalWrite,
            "writes a blob to a new temporary file with a fresh name",
        ),
    ),
    cmd("merge-file", &[MERGE_FILE], Rule::Decide(merge_file)),
    cmd(
        "mergetool",
        &[],
        Rule::Refuse(
            UnsafeShell,
            "runs a merge tool program and waits for it; run it yourself",
        ),
    ),
];

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::policy::Risk::{self, Destructive, LocalWrite, ReadOnly, Remote, UnsafeShell};
    use crate::policy::{classify, classify_words, Actor, Facts, Place, Verdict};

    /// Ordinary command lines: they run, with this class and exactly this
    /// canonical argv.
    #[rustfmt::skip]
    const BENIGN: &[(&str, Risk, &str)] = &[
        ("git merge feature", LocalWrite, "git merge feature"),
        ("git merge --no-ff feature", LocalWrite, "git merge --no-ff feature"),
        ("git merge --no-ff -m Merge feature", LocalWrite, "git merge --no-ff -mMerge feature"),
        ("git merge --squash feature", LocalWrite, "git merge --squash feature"),
        ("git merge --ff-on origin/main", LocalWrite, "git merge --ff-only origin/main"),
        ("git merge -s ours old", LocalWrite, "git merge -sours old"),
        ("git merge -Xtheirs feature", LocalWrite, "git merge -Xtheirs feature"),
        ("git merge --no-edit --log=5 feature", LocalWrite, "git merge --no-edit --log=5 feature"),
        ("git merge --verify feature", LocalWrite, "git merge --verify feature"),
        ("git merge --cont", LocalWrite, "git merge --continue"),
        ("git merge --quit", LocalWrite, "git merge --quit"),
        ("git merge -m --abort feature", LocalWrite, "git merge -m--abort feature"),
        ("git rebase main", LocalWrite, "git rebase main"),
        ("git rebase -i HEAD~3", LocalWrite, "git rebase -i HEAD~3"),
        ("git rebase --root --onto main", LocalWrite, "git rebase --root --onto=main"),
        ("git rebase -X theirs main", LocalWrite, "git rebase -Xtheirs main"),
        ("git rebase --onto main --no-onto main", LocalWrite, "git rebase --onto=main --no-onto main"),
        ("git rebase --cont", LocalWrite, "git rebase --continue"),
        ("git rebase --quit", LocalWrite, "git rebase --quit"),
        ("git rebase --show-current-patch", ReadOnly, "git rebase --show-current-patch"),
        ("git rebase -i --autosq main", LocalWrite, "git rebase -i --autosquash main"),
        ("git rebase --update-refs -r main", LocalWrite, "git rebase --update-refs -r main"),
        ("git rebase --strategy=ort -X patience main", LocalWrite, "git rebase --strategy=ort -Xpatience main"),
        ("git rebase --no-exec main", LocalWrite, "git rebase --no-exec main"),
        ("git cherry-pick abc123", LocalWrite, "git cherry-pick abc123"),
        ("git cherry-pick -x -n abc123", LocalWrite, "git cherry-pick -x -n abc123"),
        ("git cherry-pick -m 1 abc123", LocalWrite, "git cherry-pick -m1 abc123"),
        ("git cherry-pick --cont", LocalWrite, "git cherry-pick --continue"),
        ("git cherry-pick --quit", LocalWrite, "git cherry-pick --quit"),
        ("git revert HEAD", LocalWrite, "git revert HEAD"),
        ("git revert --no-edit HEAD~2", LocalWrite, "git revert --no-edit HEAD~2"),
        ("git revert -n HEAD", LocalWrite, "git revert -n HEAD"),
        ("git am 0001-fix.patch", LocalWrite, "git am 0001-fix.patch"),
        ("git am -3 --signoff series.mbox", LocalWrite, "git am -3 --signoff series.mbox"),
        ("git am -p -n series.mbox", LocalWrite, "git am -p-n series.mbox"),
        ("git am --continue", LocalWrite, "git am --continue"),
        ("git am --show-current-patch=diff", ReadOnly, "git am --show-current-patch=diff"),
        ("git apply --index fix.patch", LocalWrite, "git apply --index fix.patch"),
        ("git apply -3 fix.patch", LocalWrite, "git apply -3 fix.patch"),
        ("git apply --check fix.patch", ReadOnly, "git apply --check fix.patch"),
        ("git apply --stat fix.patch", ReadOnly, "git apply --stat fix.patch"),
        ("git apply --num fix.patch", ReadOnly, "git apply --numstat fix.patch"),
        ("git apply --ind -R fix.patch", LocalWrite, "git apply --index -R fix.patch"),
        ("git apply --cached -R fix.patch", LocalWrite, "git apply --cached -R fix.patch"),
        ("git apply --index -p2 --directory=src fix.patch", LocalWrite, "git apply --index -p2 --directory=src fix.patch"),
        ("git apply --check --no-apply fix.patch", ReadOnly, "git apply --check --no-apply fix.patch"),
        ("git notes", ReadOnly, "git notes"),
        ("git notes list", ReadOnly, "git notes list"),
        ("git notes show HEAD", ReadOnly, "git notes show HEAD"),
        ("git notes --ref review show HEAD", ReadOnly, "git notes --ref=review show HEAD"),
        ("git notes add -m reviewed HEAD", LocalWrite, "git notes add -mreviewed HEAD"),
        ("git notes append -m more", LocalWrite, "git notes append -mmore"),
        ("git notes edit", LocalWrite, "git notes edit"),
        ("git notes prune -n", ReadOnly, "git notes prune -n"),
        ("git notes get-ref", ReadOnly, "git notes get-ref"),
        ("git worktree list", ReadOnly, "git worktree list"),
        ("git worktree list --porc", ReadOnly, "git worktree list --porcelain"),
        ("git worktree lock --reason usb wt", LocalWrite, "git worktree lock --reason=usb wt"),
        ("git worktree unlock wt", LocalWrite, "git worktree unlock wt"),
        ("git worktree prune -n", ReadOnly, "git worktree prune -n"),
        ("git worktree repair", LocalWrite, "git worktree repair"),
        ("git sparse-checkout list", ReadOnly, "git sparse-checkout list"),
        ("git sparse-checkout set src docs", LocalWrite, "git sparse-checkout set src docs"),
        ("git sparse-checkout set --no-cone /src/", LocalWrite, "git sparse-checkout set --no-cone /src/"),
        ("git sparse-checkout disable", LocalWrite, "git sparse-checkout disable"),
        ("git submodule", ReadOnly, "git submodule"),
        ("git submodule status --recursive", ReadOnly, "git submodule status --recursive"),
        ("git submodule --quiet status", ReadOnly, "git submodule --quiet status"),
        ("git bisect start", LocalWrite, "git bisect start"),
        ("git bisect start HEAD v1.0 -- src", LocalWrite, "git bisect start HEAD v1.0 -- src"),
        ("git bisect good", LocalWrite, "git bisect good"),
        ("git bisect bad abc123", LocalWrite, "git bisect bad abc123"),
        ("git bisect skip", LocalWrite, "git bisect skip"),
        ("git bisect log", ReadOnly, "git bisect log"),
        ("git bisect reset", LocalWrite, "git bisect reset"),
        ("git bisect terms --term-good", ReadOnly, "git bisect terms --term-good"),
        ("git symbolic-ref HEAD", ReadOnly, "git symbolic-ref HEAD"),
        ("git symbolic-ref --short -q HEAD", ReadOnly, "git symbolic-ref --short -q HEAD"),
        ("git replace", ReadOnly, "git replace"),
        ("git replace -l", ReadOnly, "git replace -l"),
        ("git prune -n", ReadOnly, "git prune -n"),
        ("git prune --dry -v", ReadOnly, "git prune --dry-run -v"),
        ("git pack-refs --all", LocalWrite, "git pack-refs --all"),
        ("git repack", LocalWrite, "git repack"),
        ("git repack -d", LocalWrite, "git repack -d"),
        ("git repack -A -d", LocalWrite, "git repack -A -d"),
        ("git repack -adk", LocalWrite, "git repack -a -d -k"),
        ("git repack --cruft -d", LocalWrite, "git repack --cruft -d"),
        ("git repack -A -d --filter=blob:none", LocalWrite, "git repack -A -d --filter=blob:none"),
        ("git maintenance run --task=commit-graph", LocalWrite, "git maintenance run --task=commit-graph"),
        ("git maintenance run --task pack-refs --task loose-objects", LocalWrite, "git maintenance run --task=pack-refs --task=loose-objects"),
        ("git remote", ReadOnly, "git remote"),
        ("git remote -v", ReadOnly, "git remote -v"),
        ("git remote get-url origin", ReadOnly, "git remote get-url origin"),
        ("git remote show", ReadOnly, "git remote show"),
        ("git remote show -n origin", ReadOnly, "git remote show -n origin"),
        ("git remote --verb show -n origin", ReadOnly, "git remote --verbose show -n origin"),
        ("git checkout-index -a", LocalWrite, "git checkout-index -a"),
        ("git checkout-index --temp README.md", LocalWrite, "git checkout-index --temp README.md"),
        ("git read-tree HEAD", LocalWrite, "git read-tree HEAD"),
        ("git read-tree -n -m HEAD main", ReadOnly, "git read-tree -n -m HEAD main"),
        ("git update-index --refresh", LocalWrite, "git update-index --refresh"),
        ("git update-index --no-assume-unchanged a.txt", LocalWrite, "git update-index --no-assume-unchanged a.txt"),
        ("git update-index --no-skip a.txt", LocalWrite, "git update-index --no-skip-worktree a.txt"),
        ("git update-index --chmod -x run.sh", LocalWrite, "git update-index --chmod=-x run.sh"),
        ("git commit-tree -p HEAD -m msg abc123", LocalWrite, "git commit-tree -pHEAD -mmsg abc123"),
        ("git write-tree", LocalWrite, "git write-tree"),
        ("git mktree", LocalWrite, "git mktree"),
        ("git mktag", LocalWrite, "git mktag"),
        ("git unpack-file abc123", LocalWrite, "git unpack-file abc123"),
        ("git merge-file -p a b c", ReadOnly, "git merge-file -p a b c"),
        ("git merge-file --object-id a b c", LocalWrite, "git merge-file --object-id a b c"),
        ("git replay --onto main topic~2..topic", LocalWrite, "git replay --onto=main topic~2..topic"),
        ("git refs verify", ReadOnly, "git refs verify"),
        ("git refs migrate --ref-format=reftable --dry-run", LocalWrite, "git refs migrate --ref-format=reftable --dry-run"),
        ("git commit-graph verify", ReadOnly, "git commit-graph verify"),
        ("git commit-graph write --reachable --changed", LocalWrite, "git commit-graph write --reachable --changed-paths"),
        ("git multi-pack-index write", LocalWrite, "git multi-pack-index write"),
        ("git multi-pack-index verify", ReadOnly, "git multi-pack-index verify"),
    ];

    /// Hostile or destructive lines: blocked with this class, or refused
    /// as unknown (`None`).
    #[rustfmt::skip]
    const ATTACKS: &[(&str, Option<Risk>)] = &[
        // merge
        ("git merge --abort", Some(Destructive)),
        ("git merge --abo", Some(Destructive)),
        ("git merge --a", None),
        ("git merge --no-verify feature", Some(Destructive)),
        ("git merge --no-edit --no-verify feature", Some(Destructive)),
        ("git merge --verify --no-verify feature", Some(Destructive)),
        ("git merge -m msg --abort", Some(Destructive)),
        ("git merge -s evil feature", Some(UnsafeShell)),
        ("git merge -sevil feature", Some(UnsafeShell)),
        ("git merge --strategy=../../tmp/x feature", Some(UnsafeShell)),
        ("git merge --strategy ORT feature", Some(UnsafeShell)),
        ("git merge --strat evil feature", None),
        ("git merge --no-verify-sig --no-verify x", Some(Destructive)),
        // rebase
        ("git rebase --exec make main", Some(UnsafeShell)),
        ("git rebase -x make main", Some(UnsafeShell)),
        ("git rebase -ix make main", Some(UnsafeShell)),
        ("git rebase --exe=make main", Some(UnsafeShell)),
        ("git rebase -x make --no-exec main", Some(UnsafeShell)),
        ("git rebase --show-current-patch --exec x", Some(UnsafeShell)),
        ("git rebase --abort", Some(Destructive)),
        ("git rebase --ab", Some(Destructive)),
        ("git rebase --skip", Some(Destructive)),
        ("git rebase --sk", Some(Destructive)),
        ("git rebase --no-verify main", Some(Destructive)),
        ("git rebase --no-veri main", Some(Destructive)),
        ("git rebase -s evil main", Some(UnsafeShell)),
        ("git rebase -s ours main", Some(Destructive)),
        ("git rebase --strategy=ours main", Some(Destructive)),
        ("git rebase -Xours main", Some(Destructive)),
        ("git rebase --onto main topic~2 topic", Some(Destructive)),
        ("git rebase --autostash --ont HEAD~2 HEAD~1", Some(Destructive)),
        ("git rebase --onto=HEAD~2 -i HEAD~1", Some(Destructive)),
        ("git rebase --reschedule-failed-exec -xsh main", Some(UnsafeShell)),
        // cherry-pick, revert
        ("git cherry-pick --abort", Some(Destructive)),
        ("git cherry-pick --skip", Some(Destructive)),
        ("git cherry-pick -m 1 --abort", Some(Destructive)),
        ("git cherry-pick --strategy=evil abc123", Some(UnsafeShell)),
        ("git cherry-pick --str evil abc123", None),
        ("git revert --abort", Some(Destructive)),
        ("git revert --sk", Some(Destructive)),
        ("git revert --strategy evil HEAD", Some(UnsafeShell)),
        // am, apply
        ("git am -n series.mbox", Some(Destructive)),
        ("git am --no-verify series.mbox", Some(Destructive)),
        ("git am -3n series.mbox", Some(Destructive)),
        ("git am --show-current-patch -n", Some(Destructive)),
        ("git am --abort", Some(Destructive)),
        ("git am --skip", Some(Destructive)),
        ("git am --reject series.mbox", Some(Destructive)),
        ("git am --rebasing", None),
        ("git apply --unsafe-paths --directory=/tmp fix.patch", Some(Destructive)),
        ("git apply --uns fix.patch", Some(Destructive)),
        ("git apply --build-fake-ancestor=/tmp/i fix.patch", Some(Destructive)),
        ("git apply --check --build-fake-ancestor .git/index fix.patch", Some(Destructive)),
        ("git apply --rej fix.patch", Some(Destructive)),
        ("git apply fix.patch", Some(Destructive)),
        ("git apply -R fix.patch", Some(Destructive)),
        ("git apply --index --no-index -R fix.patch", Some(Destructive)),
        // notes
        ("git notes remove HEAD", Some(Destructive)),
        ("git notes --ref=x remove HEAD", Some(Destructive)),
        ("git notes prune", Some(Destructive)),
        ("git notes prune -n --no-dry-run", Some(Destructive)),
        ("git notes add -f -m x HEAD", Some(Destructive)),
        ("git notes add --fo -m x HEAD", Some(Destructive)),
        ("git notes copy -f a b", Some(Destructive)),
        ("git notes edit -m x HEAD", Some(Destructive)),
        ("git notes merge --abort", Some(Destructive)),
        ("git notes frobnicate", None),
        // worktree (no repository to ask: every path is unknown)
        ("git worktree add ../x", Some(Destructive)),
        ("git worktree add /tmp/x", Some(Destructive)),
        ("git worktree add .git/hooks", Some(Destructive)),
        ("git worktree add ~/.config/autostart", Some(Destructive)),
        ("git worktree add -B main x", Some(Destructive)),
        ("git worktree add -f x", Some(Destructive)),
        ("git worktree remove wt", Some(Destructive)),
        ("git worktree remove --force wt", Some(Destructive)),
        ("git worktree prune", Some(Destructive)),
        ("git worktree move wt /tmp/wt", Some(Destructive)),
        ("git worktree repair /tmp/x", Some(Destructive)),
        // submodule, bisect
        ("git submodule foreach rm -rf .", Some(UnsafeShell)),
        ("git submodule --quiet foreach x", Some(UnsafeShell)),
        ("git submodule summary", Some(UnsafeShell)),
        ("git submodule --cached summary -n 3", Some(UnsafeShell)),
        ("git submodule update --init", Some(Remote)),
        ("git submodule -q update", Some(Remote)),
        ("git submodule add https://example.com/x", Some(Remote)),
        ("git submodule deinit -f --all", Some(Destructive)),
        ("git submodule init", Some(Destructive)),
        ("git submodule sync", Some(Destructive)),
        ("git submodule set-url sub https://example.com/x", Some(Destructive)),
        ("git submodule --quie status", None),
        ("git submodule status --recur", None),
        ("git bisect run make test", Some(UnsafeShell)),
        ("git bisect visualize", Some(UnsafeShell)),
        ("git bisect view --stat", Some(UnsafeShell)),
        ("git bisect start --no-check", None),
        // update-ref, symbolic-ref, replace, reflog
        ("git update-ref -d refs/heads/main", Some(Destructive)),
        ("git update-ref refs/heads/main 0000000000000000000000000000000000000000", Some(Destructive)),
        ("git update-ref refs/heads/main HEAD~3", Some(Destructive)),
        ("git update-ref --stdin", Some(Destructive)),
        ("git update-ref --std", Some(Destructive)),
        ("git update-ref -m -d refs/tags/v1 HEAD", Some(Destructive)),
        ("git update-ref refs/tags/v1 HEAD abc123", Some(Destructive)),
        ("git update-ref refs/replace/abc def 0000000000000000000000000000000000000000", Some(Destructive)),
        ("git update-ref refs/REPLACE/abc def 0000000000000000000000000000000000000000", Some(Destructive)),
        ("git update-ref --no-deref HEAD abc123", Some(Destructive)),
        ("git update-ref refs/heads/x 0000000000000000000000000000000000000000 0000000000000000000000000000000000000000", Some(Destructive)),
        ("git symbolic-ref HEAD refs/heads/other", Some(Destructive)),
        ("git symbolic-ref -d HEAD", Some(Destructive)),
        ("git symbolic-ref --del HEAD", Some(Destructive)),
        ("git symbolic-ref -qd HEAD", Some(Destructive)),
        ("git symbolic-ref -m why HEAD refs/heads/y", Some(Destructive)),
        ("git replace abc def", Some(Destructive)),
        ("git replace -d abc", Some(Destructive)),
        ("git replace --edit abc", Some(Destructive)),
        ("git replace --gr HEAD", Some(Destructive)),
        ("git replace --convert-graft-file", Some(Destructive)),
        ("git replace -l -d abc", Some(Destructive)),
        ("git replace -f abc def", Some(Destructive)),
        // housekeeping
        ("git gc --prune=now", Some(Destructive)),
        ("git gc --prune", Some(Destructive)),
        ("git gc --pru=2.weeks.ago", Some(Destructive)),
        ("git prune", Some(Destructive)),
        ("git prune --expire=now", Some(Destructive)),
        ("git prune -n --no-dry-run", Some(Destructive)),
        ("git repack -a -d", Some(Destructive)),
        ("git repack -ad", Some(Destructive)),
        ("git repack -adf --depth=50", Some(Destructive)),
        ("git repack -A -d --unpack-unreachable=now", Some(Destructive)),
        ("git repack --cruft -d --cruft-expiration=now", Some(Destructive)),
        ("git repack -a -d --filter=blob:none --filter-to=/tmp/x", Some(Destructive)),
        ("git repack --expire-to=/tmp/x", Some(Destructive)),
        ("git repack --filter-to /tmp/x", Some(Destructive)),
        ("git maintenance run", Some(Destructive)),
        ("git maintenance run --auto", Some(Destructive)),
        ("git maintenance run --task=prefetch", Some(Remote)),
        ("git maintenance run --task=PREFETCH", Some(Remote)),
        ("git maintenance run --task gc", Some(Destructive)),
        ("git maintenance run --task=commit-graph --task=prefetch", Some(Remote)),
        ("git maintenance run --task=commit-graph --schedule=hourly", Some(Destructive)),
        ("git maintenance run --task=bogus", Some(Destructive)),
        ("git maintenance start", Some(Destructive)),
        ("git maintenance register", Some(Destructive)),
        ("git maintenance unregister", Some(Destructive)),
        ("git maintenance stop", Some(Destructive)),
        // remote
        ("git remote add evil https://example.com/x", Some(Remote)),
        ("git remote remove origin", Some(Destructive)),
        ("git remote rm origin", Some(Destructive)),
        ("git remote rename origin x", Some(Remote)),
        ("git remote set-url origin https://example.com/evil", Some(Remote)),
        ("git remote set-head origin -a", Some(Remote)),
        ("git remote set-branches origin main", Some(Remote)),
        ("git remote show origin", Some(Remote)),
        ("git remote -v show origin", Some(Remote)),
        ("git remote prune origin", Some(Remote)),
        ("git remote prune -n origin", Some(Remote)),
        ("git remote update", Some(Remote)),
        ("git remote -v update", Some(Remote)),
        // plumbing
        ("git checkout-index -f -a", Some(Destructive)),
        ("git checkout-index -af", Some(Destructive)),
        ("git checkout-index --prefix=/tmp/x/ -a", Some(Destructive)),
        ("git checkout-index --pre .git/hooks/ -a", Some(Destructive)),
        ("git checkout-index --for README.md", Some(Destructive)),
        ("git read-tree -u -m HEAD", Some(Destructive)),
        ("git read-tree -mu HEAD", Some(Destructive)),
        ("git read-tree --reset -u HEAD", Some(Destructive)),
        ("git read-tree -n --index-output=/tmp/i HEAD", Some(Destructive)),
        ("git read-tree --super-prefix=x HEAD", None),
        ("git update-index --assume-unchanged a.txt", Some(Destructive)),
        ("git update-index --ass a.txt", Some(Destructive)),
        ("git update-index --skip-worktree a.txt", Some(Destructive)),
        ("git update-index --fsmonitor-valid a.txt", Some(Destructive)),
        ("git update-index --force-remove cafe", Some(Destructive)),
        ("git update-index --force-r cafe", Some(Destructive)),
        ("git update-index --remove gone.txt", Some(Destructive)),
        ("git merge-file a b c", Some(Destructive)),
        ("git merge-file --no-stdout a b c", Some(Destructive)),
        ("git merge-file -L x -L y -L z a b c", Some(Destructive)),
        ("git mergetool", Some(UnsafeShell)),
        ("git mergetool --tool-help", Some(UnsafeShell)),
        ("git refs migrate --ref-format=reftable", Some(Destructive)),
        ("git commit-graph write --object-dir=/tmp/x", Some(Destructive)),
        ("git commit-graph --object-dir /tmp/x write", None),
        ("git multi-pack-index --object-dir=/tmp/x write", None),
        ("git multi-pack-index write --object-dir=/tmp/x", Some(Destructive)),
    ];

    #[test]
    fn every_table_is_a_git_subcommand() {
        for c in super::COMMANDS {
            assert!(crate::policy::git::BUILTINS.contains(&c.name), "{}", c.name);
        }
    }

    #[test]
    fn benign_lines_run_with_their_class_and_canonical_argv() {
        for (line, risk, argv) in BENIGN {
            let v = classify_words(line);
            assert!(!v.blocked(), "{line} was blocked: {}", v.reason);
            assert_eq!(v.risk, *risk, "{line}: {}", v.reason);
            assert_eq!(v.argv.join(" "), *argv, "{line}");
        }
    }

    #[test]
    fn attacks_are_blocked_with_their_class() {
        let wrong: Vec<String> = ATTACKS
            .iter()
            .filter_map(|(line, expected)| {
                let v = classify_words(line);
                let right = v.blocked()
                    && match expected {
                        Some(risk) => !v.unknown && v.risk == *risk,
                        None => v.unknown,
                    };
                (!right).then(|| format!("{line}: {:?} unknown={} {}", v.risk, v.unknown, v.reason))
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn a_refusal_names_the_option_and_the_argv_is_canonical() {
        let v = classify_words("git merge --abo");
        assert!(v.reason.contains("`--abort`"), "{}", v.reason);
        let v = classify_words("git rebase -ix make main");
        assert!(v.reason.contains("`-x`"), "{}", v.reason);
        assert_eq!(v.argv.join(" "), "git rebase -i -xmake main");
        let v = classify_words("git am -3n x.mbox");
        assert!(v.reason.contains("`-n`"), "{}", v.reason);
        let v = classify_words("git maintenance run --task=Prefetch");
        assert!(v.reason.contains("fetches"), "{}", v.reason);
    }

    /// A repository in which only the given names exist.
    struct Existing(&'static [&'static str]);

    impl Facts for Existing {
        fn cwd(&self) -> &Path {
            Path::new(".")
        }
        fn home(&self) -> Option<String> {
            None
        }
        fn git_alias(&self, _: &Place, _: &str) -> Option<String> {
            None
        }
        fn same_repository(&self, _: &Place) -> Option<bool> {
            Some(true)
        }
        fn is_revision(&self, _: &Place, _: &str) -> Option<bool> {
            None
        }
        fn is_path(&self, _: &Place, name: &str) -> Option<bool> {
            Some(self.0.contains(&name))
        }
        fn expand_glob(&self, _: &Path, _: &str) -> Vec<String> {
            Vec::new()
        }
        fn enter_dir(&self, dir: &Path, target: &str) -> Option<PathBuf> {
            Some(dir.join(target))
        }
        fn inside_worktree(&self, _: &Path) -> Option<bool> {
            Some(true)
        }
        fn lease_unseen(
            &self,
            _: &Place,
            _: Option<&str>,
            _: &[String],
        ) -> Vec<crate::git::lease::Unseen> {
            Vec::new()
        }
    }

    fn judge(facts: &Existing, argv: &[&str]) -> Verdict {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        classify(&argv, &[], Actor::Human, facts, facts.cwd())
    }

    #[test]
    fn worktree_add_runs_only_into_a_new_plain_folder_here() {
        let facts = Existing(&["src", "wt", "link"]);
        for argv in [
            &["git", "worktree", "add", "feature"][..],
            &["git", "worktree", "add", "-b", "topic", "feature", "main"],
            &["git", "worktree", "add", "--detach", "feature", "HEAD~2"],
        ] {
            let v = judge(&facts, argv);
            assert_eq!(v.risk, LocalWrite, "{argv:?}: {}", v.reason);
            assert!(!v.blocked());
        }
        for argv in [
            // An existing name may be a planted symlink to an empty folder.
            &["git", "worktree", "add", "wt"][..],
            &["git", "worktree", "add", "link"],
            &["git", "worktree", "add", "src/feature"],
            &["git", "worktree", "add", "../feature"],
            &["git", "worktree", "add", ".hidden"],
            &["git", "worktree", "add", "/tmp/feature"],
            &["git", "worktree", "add", "-B", "main", "feature"],
            &["git", "worktree", "add", "--force", "feature"],
        ] {
            let v = judge(&facts, argv);
            assert_eq!(v.risk, Destructive, "{argv:?}: {}", v.reason);
        }
    }

    #[test]
    fn update_ref_creates_only_what_does_not_exist() {
        let facts = Existing(&[]);
        let zero = "0".repeat(40);
        let zero256 = "0".repeat(64);
        for old in ["", zero.as_str(), zero256.as_str()] {
            let v = judge(
                &facts,
                &["git", "update-ref", "refs/heads/new", "HEAD", old],
            );
            assert_eq!(v.risk, LocalWrite, "old {old:?}: {}", v.reason);
            assert_eq!(v.argv.last().map(String::as_str), Some(old));
        }
        for argv in [
            &["git", "update-ref", "refs/heads/new", "HEAD"][..],
            &["git", "update-ref", "refs/heads/new", "HEAD", "0000"],
            &["git", "update-ref", "refs/heads/new", zero.as_str(), ""],
            &["git", "update-ref", "refs/replace/abc", "HEAD", ""],
            &["git", "update-ref", "-d", "refs/heads/new", ""],
            &["git", "update-ref", "--stdin", "-z"],
        ] {
            let v = judge(&facts, argv);
            assert_eq!(v.risk, Destructive, "{argv:?}: {}", v.reason);
        }
    }

    #[test]
    fn gc_runs_with_every_expiry_at_never() {
        for line in [
            "git gc",
            "git gc --auto",
            "git gc --no-prune",
            "git gc --aggressive -q",
        ] {
            let v = classify_words(line);
            assert_eq!(v.risk, LocalWrite, "{line}: {}", v.reason);
            assert!(!v.blocked(), "{line}");
            for keep in super::GC_KEEPS {
                assert!(v.argv.iter().any(|w| w == keep), "{line}: {:?}", v.argv);
            }
            // What runs judges the same when judged again.
            let again = crate::policy::classify(
                &v.argv,
                &[],
                crate::policy::Actor::Human,
                &crate::policy::NoFacts::new(),
                std::path::Path::new("."),
            );
            assert_eq!(again.argv, v.argv);
            assert_eq!(again.risk, LocalWrite);
        }
    }
}
