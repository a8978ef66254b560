//! The rules of subcommands whose risk depends on more than one option:
//! which words are paths, whether a dry run is in force, what a config
//! command reads or writes. Each rule says what would be lost.

use std::path::{Component, Path};

use super::{Ctx, Outcome};
use crate::policy::parse::Parsed;
use crate::policy::Risk::{self, Destructive, LocalWrite, ReadOnly, UnsafeShell};

fn out(risk: Risk, why: &str) -> Outcome {
    (risk, why.to_string())
}

/// `commit`: a dry run reads; anything else records a commit.
pub fn commit(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("dry-run") {
        out(ReadOnly, "`--dry-run` only shows what would be committed")
    } else {
        out(LocalWrite, "records a commit locally")
    }
}

/// Whether a word is a pathspec with magic or a glob, which git always
/// takes as paths.
fn is_pathspec_pattern(w: &str) -> bool {
    w.starts_with(':') || w.contains(['*', '?', '['])
}

/// Whether `name` would be taken as a path by `checkout`, the way git
/// decides it: a revision that is not also a path is a branch switch;
/// a path, or both, or neither (a pathspec), overwrites files.
fn is_path_for_checkout(name: &str, ctx: &Ctx) -> bool {
    if name == "-" {
        return false;
    }
    if is_pathspec_pattern(name) {
        return true;
    }
    let rev = ctx.facts.is_revision(ctx.place, name);
    let path = ctx.facts.is_path(ctx.place, name);
    match (rev, path) {
        (_, Some(true)) => true,
        (Some(true), _) => false,
        (Some(false), _) => true,
        (None, None) => looks_like_path(name),
        (None, Some(false)) => false,
    }
}

/// Without a repository to ask (the routing corpus): a word shaped like a
/// file name counts as a path.
fn looks_like_path(s: &str) -> bool {
    if s == "." || s == ".." || s.ends_with('/') || s.starts_with("./") || s.starts_with("../") {
        return true;
    }
    let last = s.rsplit('/').next().unwrap_or(s);
    match last.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// `checkout -B NAME` / `switch -C NAME`: only a branch that exists is
/// reset (and its commits left to the reflog); a new name is plain `-b`.
/// Without a repository to ask, the name counts as existing, and so does a
/// name git interprets before creating it: `@{-N}` is the N-th branch
/// checked out before, so `-B @{-1}` resets that (existing) branch.
fn resets_existing_branch(p: &Parsed, key: &str, ctx: &Ctx) -> bool {
    p.values(key).any(|name| {
        name.contains("@{")
            || ctx
                .facts
                .is_revision(ctx.place, &format!("refs/heads/{name}"))
                != Some(false)
    })
}

/// `checkout`: a branch switch keeps uncommitted work; checking out paths
/// overwrites it.
pub fn checkout(p: &Parsed, ctx: &Ctx) -> Outcome {
    for (key, why) in [
        ("force", "`--force` throws away uncommitted edits"),
        ("patch", "`--patch` overwrites the hunks it is given"),
        (
            "ours",
            "`--ours` overwrites files with one side of a conflict",
        ),
        (
            "theirs",
            "`--theirs` overwrites files with one side of a conflict",
        ),
        (
            "merge",
            "`--merge` rewrites uncommitted edits through a merge",
        ),
        (
            "conflict",
            "`--conflict` implies `--merge`, which rewrites uncommitted edits",
        ),
        (
            "pathspec-from-file",
            "`--pathspec-from-file` checks out paths, overwriting edits",
        ),
    ] {
        if p.has(key) {
            return out(Destructive, why);
        }
    }
    if resets_existing_branch(p, "B", ctx) {
        return out(Destructive, "`-B` resets an existing branch");
    }
    if !p.paths.is_empty() {
        return out(
            Destructive,
            "`checkout -- PATH` overwrites uncommitted edits",
        );
    }
    let creates = p.has("b") || p.has("B") || p.has("orphan");
    let ops = &p.operands;
    if creates || p.has("detach") {
        return if ops.len() <= 1 {
            out(
                LocalWrite,
                "creates or switches a branch, keeping uncommitted work",
            )
        } else {
            out(
                Destructive,
                "`checkout BRANCH PATH` overwrites uncommitted edits",
            )
        };
    }
    match ops.as_slice() {
        [] => out(ReadOnly, "`checkout` alone only reports the branch state"),
        // `checkout X --`: git takes X as a revision, whatever else it is.
        [_] if p.dashdash => out(LocalWrite, "switches branches, keeping uncommitted work"),
        [name] if is_path_for_checkout(name, ctx) => out(
            Destructive,
            "the word names a path (or is not a revision), so `checkout` would overwrite uncommitted edits",
        ),
        [_] => out(LocalWrite, "switches branches, keeping uncommitted work"),
        _ => out(Destructive, "`checkout REV PATH` overwrites uncommitted edits"),
    }
}

/// `switch`: keeps uncommitted work unless told to throw it away.
pub fn switch(p: &Parsed, ctx: &Ctx) -> Outcome {
    if resets_existing_branch(p, "force-create", ctx) {
        return out(Destructive, "`-C` resets an existing branch");
    }
    for (key, why) in [
        (
            "discard-changes",
            "`--discard-changes` throws away uncommitted edits",
        ),
        ("force", "`--force` throws away uncommitted edits"),
        (
            "merge",
            "`--merge` rewrites uncommitted edits through a merge",
        ),
        (
            "conflict",
            "`--conflict` implies `--merge`, which rewrites uncommitted edits",
        ),
    ] {
        if p.has(key) {
            return out(Destructive, why);
        }
    }
    out(LocalWrite, "switches branches, keeping uncommitted work")
}

/// `restore`: the index alone is recoverable; the working tree is not.
pub fn restore(p: &Parsed, _: &Ctx) -> Outcome {
    let worktree = p.has("worktree") || !p.has("staged");
    if worktree {
        out(
            Destructive,
            "`restore` of the working tree overwrites uncommitted edits",
        )
    } else if p.has("pathspec-from-file") || p.all_operands().next().is_some() {
        out(
            LocalWrite,
            "unstages changes; the working tree is untouched",
        )
    } else {
        out(
            LocalWrite,
            "`restore --staged` needs paths; git will say so",
        )
    }
}

/// `reset`: moves HEAD or unstages; `--hard`, `--merge`, `--keep` are
/// raised by their table entries.
pub fn reset(_: &Parsed, _: &Ctx) -> Outcome {
    out(
        LocalWrite,
        "moves HEAD or unstages; the working tree is untouched",
    )
}

/// `clean`: only a dry run (and not an interactive one) is safe.
pub fn clean(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("dry-run") && !p.has("interactive") {
        out(ReadOnly, "`-n` only lists what would be removed")
    } else {
        out(Destructive, "`clean` deletes untracked files for good")
    }
}

/// `rm`: git refuses to remove files with edits unless forced.
pub fn rm(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("force") {
        out(
            Destructive,
            "`rm -f` deletes files even with uncommitted edits",
        )
    } else if p.has("dry-run") {
        out(ReadOnly, "a dry run changes nothing")
    } else if p.has("cached") {
        out(LocalWrite, "removes files from the index only")
    } else {
        out(
            LocalWrite,
            "removes committed files (git refuses if they have edits)",
        )
    }
}

/// Whether a `branch`/`tag` line lists: no names, or a listing filter.
fn filters_refs(p: &Parsed) -> bool {
    [
        "contains",
        "no-contains",
        "merged",
        "no-merged",
        "points-at",
    ]
    .iter()
    .any(|k| p.mentions(k))
        || p.operands.is_empty()
}

/// `branch`: listing reads; creating and renaming write; forcing or
/// deleting unmerged work loses it.
pub fn branch(p: &Parsed, _: &Ctx) -> Outcome {
    let force = p.has("force");
    if p.has("D") || (p.has("delete") && force) {
        return out(
            Destructive,
            "force-deletes a branch even if it is not merged",
        );
    }
    if p.has("delete") {
        return out(
            LocalWrite,
            "deletes a merged branch (git refuses unmerged ones)",
        );
    }
    if p.has("M") || p.has("C") || ((p.has("move") || p.has("copy")) && force) {
        return out(Destructive, "overwrites an existing branch");
    }
    if p.has("move") || p.has("copy") {
        return out(LocalWrite, "renames or copies a branch");
    }
    if p.has("set-upstream-to") || p.has("unset-upstream") || p.has("edit-description") {
        return out(LocalWrite, "changes branch configuration");
    }
    let listing = p.has("list") || p.has("show-current") || filters_refs(p);
    if listing {
        return out(ReadOnly, "lists branches");
    }
    if force {
        return out(Destructive, "`branch -f` moves an existing branch");
    }
    out(LocalWrite, "creates a branch")
}

/// `tag`: listing reads; creating writes; deleting or replacing a tag
/// loses it (tags have no reflog).
pub fn tag(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("delete") {
        return out(Destructive, "deleting a tag loses it (tags have no reflog)");
    }
    if p.has("force") {
        return out(Destructive, "`tag -f` replaces an existing tag");
    }
    let listing = p.has("list") || p.has("n") || p.has("verify") || filters_refs(p);
    if listing {
        out(ReadOnly, "lists tags")
    } else {
        out(LocalWrite, "creates a tag")
    }
}

/// `config`: reading is allowed; every write is refused — configuration
/// is how git is told to run programs or drop protections, and
/// `fararoni.*` holds our own guard's settings.
pub fn config(p: &Parsed, ctx: &Ctx) -> Outcome {
    const READ_OPTIONS: &[&str] = &[
        "get",
        "get-all",
        "get-regexp",
        "get-urlmatch",
        "get-color",
        "get-colorbool",
        "list",
    ];
    const WRITE_OPTIONS: &[&str] = &[
        "add",
        "replace-all",
        "unset",
        "unset-all",
        "rename-section",
        "remove-section",
        "edit",
    ];
    const READ_VERBS: &[&str] = &["get", "list"];
    const WRITE_VERBS: &[&str] = &["set", "unset", "rename-section", "remove-section", "edit"];
    let write_option = WRITE_OPTIONS.iter().find(|k| p.has(k));
    let read_option = READ_OPTIONS.iter().any(|k| p.has(k));
    // Operands after `--` count too: `git config -- core.hooksPath x` sets it.
    let operands: Vec<&String> = p.all_operands().collect();
    let first = operands.first().map(|s| s.as_str());
    let verb_write = first.is_some_and(|v| WRITE_VERBS.contains(&v));
    let verb_read = first.is_some_and(|v| READ_VERBS.contains(&v));
    let key = if verb_write || verb_read {
        operands.get(1).copied()
    } else {
        operands.first().copied()
    };
    let writes =
        write_option.is_some() || verb_write || (!read_option && !verb_read && operands.len() >= 2);
    if !writes {
        return out(ReadOnly, "reads configuration");
    }
    let runs = key.is_some_and(|k| {
        let value = operands.last().map(|s| s.as_str()).unwrap_or("");
        matches!(super::config::key_refusal(k, value), Some((UnsafeShell, _)))
    });
    // The Hook posture lets an agent set what only shows output or the
    // commit identity, in this repository's own configuration.
    let elsewhere = ["global", "system", "file", "blob", "worktree"]
        .iter()
        .any(|k| p.mentions(k));
    let harmless = write_option.is_none()
        && key.is_some_and(|k| {
            let value = operands.last().map(|s| s.as_str()).unwrap_or("");
            super::config::key_refusal(k, value).is_none()
        });
    if ctx.actor == crate::policy::Actor::Hook && harmless && !elsewhere {
        return out(
            LocalWrite,
            "sets a key that only changes output or the commit identity",
        );
    }
    if runs {
        out(
            UnsafeShell,
            "writes configuration that can make git run programs; configuration writes are refused — run it yourself",
        )
    } else {
        out(
            Destructive,
            "configuration writes are refused (they can switch protections off, ours included); run it yourself",
        )
    }
}

/// `init`: a repository here or below is a local write; one elsewhere —
/// by its spelling, or through a symlink — writes outside the working tree.
pub fn init(p: &Parsed, ctx: &Ctx) -> Outcome {
    // Without a directory, git creates the repository where it runs.
    let here = p.all_operands().next().is_none() && lands_outside(".", ctx);
    let outside = here
        || p.all_operands().any(|d| {
            let path = Path::new(d);
            if path.is_absolute()
                || d.starts_with('~')
                || path.components().any(|c| matches!(c, Component::ParentDir))
            {
                return true;
            }
            lands_outside(d, ctx)
                || ctx
                    .place
                    .dir
                    .join(path)
                    .symlink_metadata()
                    .is_ok_and(|m| m.file_type().is_symlink())
        });
    if outside {
        out(
            Destructive,
            "creates a repository outside the working tree or in a git directory",
        )
    } else {
        out(LocalWrite, "creates a repository")
    }
}

/// `mv`: the last operand is where git moves the files; a destination
/// through a symlink that leads out of the working tree, or into a git
/// directory, moves uncommitted work where nothing tracks it (git renames
/// before it notices a `.git/…` path is invalid for the index, and a file
/// landing in `.git/hooks` can become a hook).
pub fn mv(p: &Parsed, ctx: &Ctx) -> Outcome {
    if p.has("dry-run") {
        return out(ReadOnly, "a dry run changes nothing");
    }
    match p.all_operands().last() {
        Some(dest) if dest.starts_with('~') || lands_outside(&git_normalised(dest, ctx), ctx) => {
            out(
                Destructive,
                "moves files out of the working tree or into a git directory",
            )
        }
        _ => out(LocalWrite, "moves tracked files"),
    }
}

/// Where git takes a path operand: from the real directory it runs in,
/// with `.` and `..` removed by spelling before anything is resolved
/// (`plant/link/../x` is `plant/x` to git, wherever `link` leads).
fn git_normalised(operand: &str, ctx: &Ctx) -> String {
    let base = ctx
        .place
        .dir
        .canonicalize()
        .unwrap_or_else(|_| ctx.place.dir.clone());
    let mut path = std::path::PathBuf::new();
    for c in base.join(operand).components() {
        match c {
            Component::ParentDir => {
                path.pop();
            }
            Component::CurDir => {}
            c => path.push(c),
        }
    }
    path.to_string_lossy().into_owned()
}

/// Whether a component names a git directory (git refuses `.git` in any
/// case for the index; the file system may not).
fn is_git_dir_name(c: Component) -> bool {
    matches!(c, Component::Normal(n) if n.eq_ignore_ascii_case(".git"))
}

/// Whether git writing at `operand` (typed where `ctx.place` runs) could
/// land outside this working tree or inside a git directory. The nearest
/// directory that exists is where git writes, as the kernel resolves it:
/// a symlink on the way counts where it leads, `a/link/..` included.
fn lands_outside(operand: &str, ctx: &Ctx) -> bool {
    let target = ctx.place.dir.join(operand);
    if target.components().any(is_git_dir_name) {
        return true;
    }
    let Some(existing) = target.ancestors().find(|a| a.is_dir()) else {
        return true;
    };
    let into_git_dir = existing
        .canonicalize()
        .map_or(true, |real| real.components().any(is_git_dir_name));
    into_git_dir || ctx.facts.inside_worktree(existing) == Some(false)
}
