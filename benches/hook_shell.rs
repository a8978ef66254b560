//! The cost of judging one shell command line for another agent's hook
//! (`policy::hook::judge_shell`) in a real repository:
//!
//! - `judge/<line>` with a `LossFacts` that answers from memory: the
//!   lexer, parser, walk and git policy alone (no process spawned);
//! - `judge_git_loss/<line>` with `GitLoss`: file-destroying lines ask
//!   the repository with one `git status` spawn, the rest spawn nothing.
//!
//! Run: `cargo bench --bench hook_shell -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::Criterion;
use git_fararoni::facts::GitLoss;
use git_fararoni::facts::RepoEnv;
use git_fararoni::policy::hook::{
    judge_shell, HookContext, Loss, LossFacts, RemotePosture, UnknownPrograms,
};

mod common;
use common::git;

/// Answers from memory: nothing would be lost.
struct Nothing {
    top: PathBuf,
}

impl LossFacts for Nothing {
    fn worktree(&self) -> Option<PathBuf> {
        Some(self.top.clone())
    }
    fn git_dirs(&self) -> Vec<PathBuf> {
        vec![self.top.join(".git")]
    }
    fn hooks_dir(&self) -> Option<PathBuf> {
        Some(self.top.join(".git/hooks"))
    }
    fn loss(&self, _: &[PathBuf]) -> Result<Loss, String> {
        Ok(Loss::default())
    }
}

const LINES: &[(&str, &str)] = &[
    ("git_status_and_diff", "git status && git diff"),
    ("cargo_test_tail", "cargo test 2>&1 | tail -20"),
    (
        "commit_heredoc",
        "git commit -m \"$(cat <<'EOF'\nFix the parser\n\nCo-Authored-By: agent\nEOF\n)\"",
    ),
    ("rm_rf_target", "rm -rf target"),
    (
        "find_xargs_grep",
        "find . -name '*.rs' | xargs grep -n judge_shell",
    ),
    ("sed_i", "sed -i 's/a/b/' src/lib.rs"),
];

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    git(p, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(p.join("src")).expect("src");
    for i in 0..200 {
        std::fs::write(
            p.join(format!("src/m{i}.rs")),
            format!("pub fn f{i}() {{}}\n"),
        )
        .expect("w");
    }
    std::fs::write(p.join("src/lib.rs"), "pub mod m0;\n").expect("lib");
    std::fs::write(p.join(".gitignore"), "target/\n").expect("ignore");
    std::fs::create_dir_all(p.join("target/debug")).expect("target");
    std::fs::write(p.join("target/debug/app"), "bin").expect("bin");
    git(p, &["add", "."]);
    git(p, &["commit", "-q", "-m", "init"]);
    dir
}

fn main() {
    let dir = repo();
    let top = dir.path().canonicalize().expect("canonical");
    let facts = RepoEnv::new(top.clone());
    let memory = Nothing { top: top.clone() };
    let git_loss = GitLoss::new(&top);
    let mut c = Criterion::default().configure_from_args();
    for (loss, group) in [
        (&memory as &dyn LossFacts, "judge"),
        (&git_loss as &dyn LossFacts, "judge_git_loss"),
    ] {
        let ctx = HookContext {
            cwd: &top,
            facts: &facts,
            loss,
            remote: RemotePosture::Allow,
            unknown_programs: UnknownPrograms::Allow,
        };
        let mut g = c.benchmark_group(group);
        for (name, line) in LINES {
            g.bench_function(*name, |b| {
                b.iter(|| black_box(judge_shell(black_box(line), &ctx)))
            });
        }
        g.finish();
    }
    c.final_summary();
}
