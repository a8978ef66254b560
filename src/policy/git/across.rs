//! Rules that cut across subcommands: what a command does to the stash,
//! to the hooks folder, to ignored files and to the folder it runs in,
//! whatever its own table says. Each rule is a table of the subcommands it
//! concerns; [`check`] runs after a subcommand's own judgement and can only
//! raise its risk.

use std::path::{Component, Path, PathBuf};

use super::Ctx;
use crate::policy::parse::Parsed;
use crate::policy::Risk::{self, Destructive, LocalWrite};
use crate::policy::{Arrive, Place};

/// Subcommands that point a branch, HEAD or a tag at a revision they are
/// given, or bring its commits into the branch, and the options whose
/// values are revisions too. Every operand counts (a branch name that is
/// not a stash commit costs nothing).
const MOVES_TO_REVISION: &[(&str, &[&str])] = &[
    ("reset", &[]),
    ("merge", &[]),
    ("rebase", &["onto"]),
    ("cherry-pick", &[]),
    ("revert", &[]),
    ("branch", &["set-upstream-to"]),
    ("checkout", &[]),
    ("switch", &[]),
    ("update-ref", &[]),
    ("tag", &[]),
    ("worktree.add", &[]),
    ("replay", &["onto", "advance"]),
    ("fetch", &[]),
    ("pull", &[]),
    ("commit-tree", &["p"]),
    ("bisect.start", &[]),
    ("bisect.reset", &[]),
];

/// Subcommands that remove or move tracked paths they are given, with the
/// option that makes them leave the working tree alone.
const REMOVES_PATHS: &[(&str, Option<&str>)] = &[
    ("rm", Some("cached")),
    ("mv", None),
    ("mv", Some("dry-run")),
];

/// `sparse-checkout` verbs that rewrite which folders are checked out: with
/// the hooks folder in the tree, any of them can drop it.
const SPARSE_WRITES: &[&str] = &[
    "sparse-checkout.set",
    "sparse-checkout.add",
    "sparse-checkout.init",
    "sparse-checkout.reapply",
];

/// Subcommands that bring another commit's files into the working tree,
/// how, and which operands or options name that commit.
const ARRIVES: &[(&str, Arrive)] = &[
    ("switch", Arrive::Checkout),
    ("checkout", Arrive::Checkout),
    ("merge", Arrive::Merge),
    ("rebase", Arrive::Merge),
    ("cherry-pick", Arrive::Pick),
];

/// The cross-cutting judgement of `path` (a subcommand, or `cmd.verb`)
/// whose own table gave `risk`: a higher risk and its reason, or `None`.
pub fn check(path: &str, p: &Parsed, ctx: &Ctx, risk: Risk) -> Option<(Risk, String)> {
    if risk >= Destructive {
        return None;
    }
    stash(path, p, ctx)
        .or_else(|| forced_refspec(path, p))
        .or_else(|| folder(ctx, risk))
        .or_else(|| hooks(path, p, ctx))
        .or_else(|| arrival(path, p, ctx, risk))
}

/// Whether a revision expression names the stash: `stash`, `refs/stash`,
/// `stash@{N}`, with `^`, `~`, `:path` or `^{…}` after it, negated with a
/// leading `^`, or on either side of a range. Ref names are compared
/// without case (a case-insensitive file system finds `refs/STASH`).
pub fn names_stash(word: &str) -> bool {
    // `+src:dst` refspecs: the source is a revision.
    let word = word.strip_prefix('+').unwrap_or(word);
    let word = word.split(':').next().unwrap_or(word);
    word.split("..").any(|side| {
        let side = side.trim_start_matches(['.', '^']);
        let end = side.find(['^', '~', '@']).unwrap_or(side.len());
        let name = side[..end].to_ascii_lowercase();
        matches!(name.as_str(), "stash" | "refs/stash")
    })
}

/// A stash entry's commits moved onto a branch: its work commit is not a
/// commit the user made, and neither pre-commit nor commit-msg hooks ran.
fn stash(path: &str, p: &Parsed, ctx: &Ctx) -> Option<(Risk, String)> {
    let (_, options) = MOVES_TO_REVISION.iter().find(|(c, _)| *c == path)?;
    let mut words: Vec<&str> = p.all_operands().map(String::as_str).collect();
    for o in options.iter() {
        words.extend(p.values(o));
    }
    // A message search (`:/text`, `REV^{/text}`) walks every ref, the
    // stash's included, the way git does it and no other reader copies
    // exactly: with a stash present it is refused.
    let stash_exists = || ctx.facts.brings_stash(ctx.place, "refs/stash") == Some(true);
    let hit = words.iter().find(|w| {
        names_stash(w) || ((w.contains(":/") || w.contains("^{/")) && stash_exists()) || {
            let rev = w.strip_prefix('+').unwrap_or(w);
            let rev = rev.split(':').next().unwrap_or(rev);
            !rev.is_empty() && ctx.facts.brings_stash(ctx.place, rev) == Some(true)
        }
    })?;
    Some((
        Destructive,
        format!("`{hit}` is a stash entry (or carries one): its commits would land on a branch without any commit hook having run, and the stash is not the user's history; apply it with `git stash apply` and commit"),
    ))
}

/// Subcommands whose operands after the remote are refspecs.
const TAKES_REFSPECS: &[&str] = &["fetch", "pull"];

/// A forced refspec (`+src:dst`) into anything but a remote-tracking ref:
/// it overwrites a local branch (its local-only commits) or a tag (which
/// has no reflog), as `--force` would, which is refused on its own.
fn forced_refspec(path: &str, p: &Parsed) -> Option<(Risk, String)> {
    if !TAKES_REFSPECS.contains(&path) {
        return None;
    }
    let spec = p.all_operands().skip(1).find(|w| {
        w.strip_prefix('+')
            .and_then(|rest| rest.split_once(':'))
            .is_some_and(|(_, dst)| !dst.is_empty() && !dst.starts_with("refs/remotes/"))
    })?;
    Some((
        Destructive,
        format!("the forced refspec `{spec}` overwrites a local branch or tag, losing commits only it had; drop the `+` (git then refuses what is not a fast-forward)"),
    ))
}

/// Whether a directory is a git directory or our store, by any component
/// (case-insensitively: the file system may not care).
fn is_protected_folder(dir: &Path) -> bool {
    let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    [dir, real.as_path()].iter().any(|d| {
        d.components().any(|c| {
            matches!(c, Component::Normal(n)
                if n.eq_ignore_ascii_case(".git") || n.eq_ignore_ascii_case(".fararoni"))
        })
    })
}

/// git that writes while running inside a git directory, our store or the
/// hooks folder: several commands write into the folder they run in
/// (`unpack-file`, `checkout-index --temp`, `format-patch`), and nothing
/// may be written there.
fn folder(ctx: &Ctx, risk: Risk) -> Option<(Risk, String)> {
    if risk < LocalWrite {
        return None;
    }
    let dir = &ctx.place.dir;
    let in_hooks = ctx
        .facts
        .hooks_in_worktree(ctx.place)
        .is_some_and(|h| dir.canonicalize().is_ok_and(|d| d.starts_with(&h)));
    (is_protected_folder(dir) || in_hooks).then(|| {
        (
            Destructive,
            "it runs inside a git directory, the hooks folder or fararoni's store, where git would write files (some commands write into the folder they run in); run it from the working tree".to_string(),
        )
    })
}

/// Where git takes a path operand: the real directory it runs in, `.` and
/// `..` removed by spelling (git's own normalisation).
fn git_path(operand: &str, place: &Place) -> PathBuf {
    let base = place
        .dir
        .canonicalize()
        .unwrap_or_else(|_| place.dir.clone());
    let mut path = PathBuf::new();
    for c in base.join(operand).components() {
        match c {
            Component::ParentDir => {
                path.pop();
            }
            Component::CurDir => {}
            c => path.push(c),
        }
    }
    path
}

/// Hooks switched off through the tree: with `core.hooksPath` inside the
/// working tree, removing, moving or sparsifying that folder stops every
/// hook, and moving a file into it plants one.
fn hooks(path: &str, p: &Parsed, ctx: &Ctx) -> Option<(Risk, String)> {
    let concerned = REMOVES_PATHS.iter().any(|(c, _)| *c == path)
        || SPARSE_WRITES.contains(&path)
        || (path == "stash.push" && p.has("all"));
    if !concerned {
        return None;
    }
    let hooks = ctx.facts.hooks_in_worktree(ctx.place)?;
    let refuse = |what: &str| {
        Some((
            Destructive,
            format!("core.hooksPath points inside the working tree ({}), and {what}: every hook would stop running (or a file would become one); change the hooks folder yourself", hooks.display()),
        ))
    };
    if SPARSE_WRITES.contains(&path) {
        return refuse("a sparse checkout can drop that folder from the tree");
    }
    if path == "stash.push" {
        return refuse("`--all` stashes ignored and untracked files, hooks among them");
    }
    if REMOVES_PATHS
        .iter()
        .any(|(c, keep)| *c == path && keep.is_some_and(|k| p.has(k)))
    {
        return None;
    }
    if p.has("pathspec-from-file") {
        return refuse("the paths come from a file the guard does not read");
    }
    let top = ctx.facts.cwd().canonicalize().ok();
    for operand in p.all_operands() {
        let pattern = operand.starts_with(':') || operand.contains(['*', '?', '[']);
        let target = git_path(operand, ctx.place);
        let touches = if pattern {
            // A pathspec pattern (git's `*` crosses `/`): tried against
            // the folder, each folder above it and each file in it; magic
            // (`:(glob)…`) is refused outright.
            let rel = |p: &Path| {
                top.as_ref()
                    .and_then(|t| p.strip_prefix(t).ok())
                    .map(|r| r.to_string_lossy().into_owned())
            };
            match (rel(&target), rel(&hooks)) {
                (Some(pat), Some(h)) if !operand.starts_with(':') => {
                    let mut names: Vec<String> = Path::new(&h)
                        .ancestors()
                        .map(|a| a.to_string_lossy().into_owned())
                        .filter(|a| !a.is_empty())
                        .collect();
                    if let Ok(rd) = std::fs::read_dir(&hooks) {
                        names.extend(
                            rd.flatten()
                                .map(|e| format!("{h}/{}", e.file_name().to_string_lossy())),
                        );
                    }
                    names.iter().any(|n| crate::text::glob::matches(&pat, n))
                }
                _ => true,
            }
        } else {
            hooks.starts_with(&target) || target.starts_with(&hooks)
        };
        if touches {
            return refuse(&format!(
                "`{operand}` is that folder, inside it or above it"
            ));
        }
    }
    None
}

/// Commits brought into the working tree: ignored files at paths the
/// commit tracks are overwritten without a word (git refuses only for
/// untracked files that are not ignored), and a commit that changes the
/// hooks folder changes which hooks run.
fn arrival(path: &str, p: &Parsed, ctx: &Ctx, risk: Risk) -> Option<(Risk, String)> {
    if risk < LocalWrite {
        return None;
    }
    let (_, how) = ARRIVES.iter().find(|(c, _)| *c == path)?;
    let mut revs: Vec<String> = Vec::new();
    match path {
        "rebase" => match p.values("onto").last() {
            Some(onto) => revs.push(onto.to_string()),
            None => revs.push(
                p.operands
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "@{upstream}".into()),
            ),
        },
        "switch" | "checkout" => {
            if let Some(first) = p.operands.first() {
                revs.push(first.clone());
            }
        }
        _ => revs.extend(p.operands.iter().cloned()),
    }
    for rev in revs {
        let rev = if rev == "-" { "@{-1}".to_string() } else { rev };
        let Some(a) = ctx.facts.arrival(ctx.place, &rev, *how) else {
            continue;
        };
        if a.hooks_changed {
            return Some((
                Destructive,
                format!("`{rev}` changes the hooks folder that core.hooksPath points to inside the working tree, so it would change which hooks run; do it yourself"),
            ));
        }
        if !a.overwritten.is_empty() {
            let shown: Vec<&str> = a.overwritten.iter().take(3).map(String::as_str).collect();
            return Some((
                Destructive,
                format!("`{rev}` tracks {}, which {} here untracked (an ignored file git overwrites without a word, or an untracked one it refuses to): move {} aside first",
                    shown.join(", "),
                    if a.overwritten.len() == 1 { "is" } else { "are" },
                    if a.overwritten.len() == 1 { "it" } else { "them" }),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stash_names_in_every_spelling() {
        for w in [
            "stash",
            "refs/stash",
            "stash@{0}",
            "stash@{12}",
            "refs/stash@{1}",
            "stash^",
            "stash~2",
            "stash@{0}^2",
            "stash^{commit}",
            "STASH@{0}",
            "Refs/Stash",
            "^stash",
            "HEAD..stash",
            "stash...main",
            "+refs/stash:refs/heads/x",
            "stash@{0}:README.md",
        ] {
            assert!(names_stash(w), "{w}");
        }
        for w in [
            "main",
            "stashed",
            "feature/stash",
            "refs/heads/stash-work",
            "HEAD~1",
            "my-stash",
        ] {
            assert!(!names_stash(w), "{w}");
        }
    }
}
