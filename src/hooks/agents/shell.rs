//! The seam to the shell judgement ([`crate::policy::hook::judge_shell`]):
//! the repository facts and "what would be lost" questions for the agent's
//! working directory, and the user's postures (`fararoni.hook.remote`,
//! `fararoni.hook.unknownPrograms`).

use crate::facts::GitLoss;
use std::path::Path;

use crate::facts::RepoEnv;
use crate::policy::hook::{judge_shell, HookContext, RemotePosture, ShellVerdict, UnknownPrograms};
use crate::settings::read::HookPosture;

pub use crate::policy::hook::KnownWrite;

/// Judges `command` run in `cwd` for another agent.
pub fn judge(command: &str, cwd: &Path, remote: HookPosture, unknown: HookPosture) -> ShellVerdict {
    // The shell judgement compares canonical paths (the worktree, the temp
    // dir); a cwd through a symlink must not look like somewhere else.
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let facts = RepoEnv::new(cwd.clone());
    let loss = GitLoss::new(&cwd);
    let ctx = HookContext {
        cwd: &cwd,
        facts: &facts,
        loss: &loss,
        remote: match remote {
            HookPosture::Allow => RemotePosture::Allow,
            HookPosture::Deny => RemotePosture::Deny,
        },
        unknown_programs: match unknown {
            HookPosture::Allow => UnknownPrograms::Allow,
            HookPosture::Deny => UnknownPrograms::Deny,
        },
    };
    judge_shell(command, &ctx)
}
