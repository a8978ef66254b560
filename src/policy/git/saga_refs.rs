//! The agent's posture keeps every git write of a model inside its saga:
//! the model may commit, stage, restore and rewrite its own branch (the
//! saga's), never touch another ref. One row per subcommand that writes
//! refs other than the checked-out branch's, with what it would touch;
//! applied only to writes the tables already allow (reads such as
//! `git branch --list` or `git stash list` are judged read-only before).

/// Subcommands whose every write changes a ref other than the saga's own
/// branch, with what they would change.
const OTHER_REFS: &[(&str, &str)] = &[
    (
        "branch",
        "creates, renames, copies, deletes or re-points a branch, or changes its upstream",
    ),
    ("tag", "creates, moves or deletes a tag"),
    ("notes", "writes a note (refs/notes)"),
    (
        "stash",
        "changes the stash, whose entries the run did not make",
    ),
    ("switch", "checks out another branch than the saga's"),
    ("update-ref", "moves a ref directly"),
    ("symbolic-ref", "re-points HEAD or another symbolic ref"),
    (
        "replace",
        "writes a replace ref, which changes what every command reads",
    ),
    ("remote", "changes a remote and its tracking refs"),
    (
        "worktree",
        "adds or moves a worktree, with a branch of its own",
    ),
    (
        "config",
        "changes configuration (an upstream, a remote, hooks)",
    ),
    ("pack-refs", "rewrites the refs"),
];

/// Why the agent may not run `git SUB REST…` inside its saga, if it may
/// not. `checkout` is refused unless it restores paths (`git checkout
/// [REV] -- PATH…`): any other form moves HEAD off the saga's branch.
pub(super) fn refusal(sub: &str, rest: &[String]) -> Option<&'static str> {
    if sub == "checkout" {
        return (!restores_paths_only(rest))
            .then_some("checks out another branch or commit than the saga's (restore files with `git restore PATH` or `git checkout -- PATH`)");
    }
    OTHER_REFS
        .iter()
        .find(|(name, _)| *name == sub)
        .map(|(_, why)| *why)
}

/// Options of `git checkout [OPTIONS] [TREE-ISH] -- PATH…` that keep it
/// a restore of paths (anything else before `--`, such as `-b`, `-B`,
/// `--orphan`, `--detach` or a cluster holding one, may move HEAD).
const PATH_OPTIONS: &[&str] = &[
    "-q",
    "--quiet",
    "--ours",
    "--theirs",
    "-p",
    "--patch",
    "-m",
    "--merge",
    "--overlay",
    "--no-overlay",
    "--progress",
    "--no-progress",
];

/// Whether `git checkout REST…` only restores paths: a `--`, and before it
/// at most one tree-ish and options from [`PATH_OPTIONS`].
fn restores_paths_only(rest: &[String]) -> bool {
    let Some(dash) = rest.iter().position(|a| a == "--") else {
        return false;
    };
    let before = &rest[..dash];
    let options_ok = before
        .iter()
        .filter(|a| a.starts_with('-'))
        .all(|a| PATH_OPTIONS.contains(&a.as_str()) || a.starts_with("--conflict="));
    options_ok && before.iter().filter(|a| !a.starts_with('-')).count() <= 1
}

#[cfg(test)]
mod tests {
    use crate::policy::{classify, Actor, Facts as _, NoFacts};

    fn agent(line: &str) -> crate::policy::Verdict {
        let facts = NoFacts::new();
        let argv: Vec<String> = line.split(' ').map(String::from).collect();
        classify(&argv, &[], Actor::Agent, &facts, facts.cwd())
    }

    #[test]
    fn writes_to_other_refs_are_refused_for_the_agent() {
        for line in [
            "git branch feature",
            "git branch -m main old",
            "git branch -D topic",
            "git branch -u origin/main",
            "git tag v1",
            "git tag -d v1",
            "git checkout -b feature",
            "git checkout main",
            "git checkout --detach",
            "git switch main",
            "git switch -c x",
            "git stash",
            "git stash pop",
            "git notes add -m x",
            "git update-ref refs/heads/main HEAD",
            "git symbolic-ref HEAD refs/heads/main",
            "git config branch.main.remote origin",
            "git -c user.name=x branch feature",
            "git -C . tag v2",
            // `--` after an option that moves HEAD does not make it a restore.
            "git checkout -b feature --",
            "git checkout -qb feature -- .",
            "git checkout --orphan x -- .",
            "git checkout --detach HEAD~1 --",
            "git checkout -B main HEAD --",
            "git checkout main other --",
            // An alias and an environment prefix reach the same rule.
            "git -c alias.t=tag t v3",
            "git -c alias.nb=checkout nb -b feature",
        ] {
            let v = agent(line);
            assert!(v.blocked(), "{line}: {v:?}");
            assert!(!v.needs_saga, "{line}");
        }
    }

    #[test]
    fn the_saga_branch_own_work_and_reads_stay_allowed() {
        for line in [
            "git commit -m x",
            "git add src/a.rs",
            "git reset --soft HEAD~1",
        ] {
            let v = agent(line);
            assert!(!v.blocked() && v.needs_saga, "{line}: {v:?}");
        }
        // Restoring paths is judged by its own rule, not as a checkout.
        for line in [
            "git checkout -- src/a.rs",
            "git checkout HEAD -- src/a.rs",
            "git checkout --ours -- src/a.rs",
        ] {
            let v = agent(line);
            assert!(!v.reason.contains("stay in its saga"), "{line}: {v:?}");
        }
        for line in [
            "git branch",
            "git branch --list",
            "git tag -l",
            "git stash list",
            "git status",
        ] {
            let v = agent(line);
            assert!(!v.blocked() && !v.needs_saga, "{line}: {v:?}");
        }
    }

    #[test]
    fn people_keep_their_branches() {
        let facts = NoFacts::new();
        for line in ["git branch feature", "git tag v1", "git switch main"] {
            let argv: Vec<String> = line.split(' ').map(String::from).collect();
            let v = classify(&argv, &[], Actor::Human, &facts, facts.cwd());
            assert!(!v.blocked(), "{line}: {v:?}");
        }
    }
}
