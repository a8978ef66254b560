//! The command policy: one place decides whether a command line may run.
//!
//! `classify(argv, actor, facts)` is pure apart from what [`Facts`]
//! answers about the repository. It is default-deny on every axis:
//! programs come from an allow-list, every option of every allowed program
//! and git subcommand is in a table with its arity and risk (anything else
//! is refused), and environment prefixes and `-c` keys come from
//! allow-lists. Options are parsed the way the program parses them, and
//! the verdict carries the canonical argv — full option names, no clusters
//! — which is exactly what is executed.

pub mod builds;
pub mod catalog;
pub mod env;
pub mod git;
pub mod hook;
pub mod parse;
pub mod spec;
pub mod utils;

use std::path::{Path, PathBuf};

use serde::Serialize;

/// How severe what would be executed is, least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    /// Nothing is executed (chat, model, unrecognised command).
    None,
    /// Reads only.
    ReadOnly,
    /// Changes the local repository or working tree, recoverably.
    LocalWrite,
    /// Contacts a remote.
    Remote,
    /// Can destroy work, or writes outside the repository.
    Destructive,
    /// Runs programs nobody named, or shell features that are not run.
    UnsafeShell,
}

impl Risk {
    /// Returns the risk's name as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::None => "none",
            Risk::ReadOnly => "read_only",
            Risk::LocalWrite => "local_write",
            Risk::Remote => "remote",
            Risk::Destructive => "destructive",
            Risk::UnsafeShell => "unsafe_shell",
        }
    }

    /// Whether this risk class is never run.
    pub fn is_blocked(self) -> bool {
        self >= Risk::Remote
    }
}

/// Who asks for the command: the posture the policy takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A person typing at level 1 of `ask`.
    Human,
    /// Our own model's ShellCommand / GitAction: stricter — local git
    /// writes only inside a saga, file writes only through the guard.
    Agent,
    /// Another coding agent's pre-tool-use hook (`guard hook`): protects
    /// the repository, not the machine — remote contact that loses
    /// nothing and harmless configuration writes are allowed; everything
    /// that can lose work, history or hooks is not (see `policy::hook`).
    Hook,
}

/// Where a git command would run: the directory (after `cd` and `-C`) and
/// the repository overrides it was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    /// The directory git starts in.
    pub dir: PathBuf,
    /// `--git-dir` or `GIT_DIR`.
    pub git_dir: Option<String>,
    /// `--work-tree` or `GIT_WORK_TREE`.
    pub work_tree: Option<String>,
    /// `GIT_INDEX_FILE`.
    pub index_file: Option<String>,
}

/// What the policy may ask about the user's setup. `None` means
/// "unknown", and the policy then takes the safe reading.
pub trait Facts {
    /// The directory the request was typed in.
    fn cwd(&self) -> &Path;
    /// `$HOME`, for `~`.
    fn home(&self) -> Option<String>;
    /// The value of `alias.NAME` as git would see it at `place`.
    fn git_alias(&self, place: &Place, name: &str) -> Option<String>;
    /// Whether git at `place` would use the repository (git dir, work tree
    /// and index) the request was typed in — never a nested or planted one.
    fn same_repository(&self, place: &Place) -> Option<bool>;
    /// Whether `name` resolves to a commit (or a remote branch `checkout`
    /// would create a local branch for) in the repository.
    fn is_revision(&self, place: &Place, name: &str) -> Option<bool>;
    /// Whether `name`, relative to `place.dir`, is a path git would act on:
    /// in the index or in the working tree.
    fn is_path(&self, place: &Place, name: &str) -> Option<bool>;
    /// Expands an unquoted glob pattern relative to `dir`, sorted; empty
    /// when nothing matches.
    fn expand_glob(&self, dir: &Path, pattern: &str) -> Vec<String>;
    /// The directory `cd target` from `dir` enters, when it exists.
    fn enter_dir(&self, dir: &Path, target: &str) -> Option<PathBuf>;
    /// Whether `dir` is inside the working tree of the repository the
    /// request was typed in (below the directory it was typed in, when
    /// there is none), and not inside a nested repository.
    fn inside_worktree(&self, dir: &Path) -> Option<bool>;
    /// The remote refs a bare `push --force-with-lease [REMOTE [REFSPEC…]]`
    /// at `place` would overwrite with commits the pushed branch never
    /// included (see [`crate::git::lease`]); empty when none or unknown.
    fn lease_unseen(
        &self,
        place: &Place,
        remote: Option<&str>,
        refspecs: &[String],
    ) -> Vec<crate::git::lease::Unseen>;
    /// Whether the commit `rev` names carries a stash entry's commits in
    /// its history (the entry itself, its index or untracked commit, or a
    /// commit made on top of one). `None`: unknown, or not a commit.
    fn brings_stash(&self, _place: &Place, _rev: &str) -> Option<bool> {
        None
    }
    /// The hooks folder git runs, resolved, when `core.hooksPath` puts it
    /// inside the working tree (so the tree's own commands can change it).
    fn hooks_in_worktree(&self, _place: &Place) -> Option<PathBuf> {
        None
    }
    /// What moving the working tree to `rev` (as `how` moves it) would do
    /// to what is here; `None` when unknown (no repository, or `rev` is not
    /// a commit), which is read as "nothing", since git itself then refuses.
    fn arrival(&self, _place: &Place, _rev: &str, _how: Arrive) -> Option<Arrival> {
        None
    }
    /// Whether the repository has a branch called `name`: a local one, or
    /// with `remote`, a branch of a remote too. A plain word of a request
    /// ("switch to develop") is taken as a branch only when it is one.
    fn has_branch(&self, name: &str, remote: bool) -> Option<bool> {
        let _ = (name, remote);
        None
    }
    /// The branch checked out here (`None`: unknown, or a detached HEAD).
    fn current_branch(&self) -> Option<String> {
        None
    }
}

/// How a command brings another commit's files into the working tree,
/// which decides what the files are compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrive {
    /// `switch`, `checkout`: the commit's tree replaces HEAD's.
    Checkout,
    /// `merge`, `rebase`: what changed since the merge base arrives.
    Merge,
    /// `cherry-pick`, `revert`: what the commit itself changed arrives.
    Pick,
}

/// What arriving at a commit would do to the working tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arrival {
    /// Paths (from the top of the working tree) the commit brings that are
    /// present here and not in the index: ignored files git overwrites
    /// without a word (it refuses only for untracked, unignored ones).
    pub overwritten: Vec<String>,
    /// Whether the hooks folder (when it is inside the working tree)
    /// would change: hooks removed, replaced or added by a commit.
    pub hooks_changed: bool,
}

/// The policy's answer for one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The risk of what would run.
    pub risk: Risk,
    /// Whether the command is not recognised (unknown program, subcommand
    /// or option): never run, whatever the risk says.
    pub unknown: bool,
    /// Why, naming the rule and the option.
    pub reason: String,
    /// The canonical argv that runs, program first.
    pub argv: Vec<String>,
    /// `NAME=value` prefixes to set for the command.
    pub env: Vec<(String, String)>,
    /// The commit message, when the command commits with `-m`.
    pub message: Option<String>,
    /// For [`Actor::Agent`]: the command writes to the repository and may
    /// only run inside a saga (`saga::ensure_saga` first), so the user's
    /// branch stays as it was until `saga finish`.
    pub needs_saga: bool,
}

impl Verdict {
    /// Whether the command must not run.
    pub fn blocked(&self) -> bool {
        self.unknown || self.risk.is_blocked()
    }

    /// A verdict for `argv` as given.
    pub fn new(risk: Risk, reason: impl Into<String>, argv: Vec<String>) -> Verdict {
        Verdict {
            risk,
            unknown: false,
            reason: reason.into(),
            argv,
            env: Vec::new(),
            message: None,
            needs_saga: false,
        }
    }

    /// An unrecognised command, which is never run.
    pub fn unknown(reason: impl Into<String>, argv: Vec<String>) -> Verdict {
        Verdict {
            unknown: true,
            ..Verdict::new(Risk::None, reason, argv)
        }
    }
}

/// Classifies one command: `argv` (program first, after quote removal and
/// expansion) with its `NAME=value` prefixes, typed in `dir`.
pub fn classify(
    argv: &[String],
    assignments: &[(String, String)],
    actor: Actor,
    facts: &dyn Facts,
    dir: &Path,
) -> Verdict {
    let Some(program) = argv.first() else {
        return Verdict::unknown("an empty command", Vec::new());
    };
    // The agent's posture adds builds and tests (src/policy/agent.rs).
    if actor == Actor::Agent {
        if let Some(v) = builds::classify_build(argv, assignments) {
            return v;
        }
    }
    let mut v = if program == "git" {
        git::classify(assignments, &argv[1..], actor, facts, dir)
    } else {
        utils::classify(program, &argv[1..], assignments, actor)
    };
    if actor == Actor::Agent && program == "git" && v.risk == Risk::LocalWrite && !v.blocked() {
        v.needs_saga = true;
        v.reason
            .push_str("; a model's git writes run inside a saga");
    }
    v
}

/// Facts of no repository: every question is unknown, so the policy takes
/// its safe reading. For the routing corpus, benchmarks and tests.
#[derive(Debug, Clone, Default)]
pub struct NoFacts {
    cwd: PathBuf,
}

impl NoFacts {
    /// Facts for requests typed in `.`.
    pub fn new() -> NoFacts {
        NoFacts {
            cwd: PathBuf::from("."),
        }
    }
}

impl Facts for NoFacts {
    fn cwd(&self) -> &Path {
        &self.cwd
    }
    fn home(&self) -> Option<String> {
        None
    }
    fn git_alias(&self, _: &Place, _: &str) -> Option<String> {
        None
    }
    fn same_repository(&self, _: &Place) -> Option<bool> {
        None
    }
    fn is_revision(&self, _: &Place, _: &str) -> Option<bool> {
        None
    }
    fn is_path(&self, _: &Place, _: &str) -> Option<bool> {
        None
    }
    fn expand_glob(&self, _: &Path, _: &str) -> Vec<String> {
        Vec::new()
    }
    fn enter_dir(&self, dir: &Path, target: &str) -> Option<PathBuf> {
        Some(dir.join(target))
    }
    fn inside_worktree(&self, _: &Path) -> Option<bool> {
        None
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

/// Classifies a command line of plain words with no repository: for tests.
pub fn classify_words(line: &str) -> Verdict {
    let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
    let facts = NoFacts::new();
    classify(&argv, &[], Actor::Human, &facts, facts.cwd())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_writes_git_only_inside_a_saga() {
        let facts = NoFacts::new();
        let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let v = classify(
            &argv("git commit -m x"),
            &[],
            Actor::Agent,
            &facts,
            facts.cwd(),
        );
        assert!(v.needs_saga && !v.blocked());
        let v = classify(&argv("git status"), &[], Actor::Agent, &facts, facts.cwd());
        assert!(!v.needs_saga);
        let v = classify(
            &argv("git reset --hard"),
            &[],
            Actor::Agent,
            &facts,
            facts.cwd(),
        );
        assert!(v.blocked() && !v.needs_saga);
        let v = classify(
            &argv("git commit -m x"),
            &[],
            Actor::Human,
            &facts,
            facts.cwd(),
        );
        assert!(!v.needs_saga);
    }
}
