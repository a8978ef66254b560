//! The seam to the shell judgement (`policy::shell::judge_shell`, built on
//! the hook-shell branch). Until it is merged, [`judge`] vetoes every
//! command line — never allow-all — so the merge is a one-line change.

use std::path::{Path, PathBuf};

use crate::config::HookPosture;
use crate::git::Repo;

/// A write of known content found in a command line (`cat > F <<'EOF'`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownWrite {
    /// The file (absolute).
    pub path: PathBuf,
    /// What is written.
    pub content: Vec<u8>,
    /// Appended (`>>`) rather than replacing.
    pub append: bool,
}

/// The shell judgement of one command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellJudgement {
    /// Refuse it.
    pub veto: bool,
    /// The message for the model.
    pub reason: String,
    /// Some command in the line may write (the dirty set is saved first).
    pub may_write: bool,
    /// Writes of known content, judged like edits.
    pub known_writes: Vec<KnownWrite>,
}

/// Judges `command` run in `cwd` for another agent.
pub fn judge(
    command: &str,
    cwd: &Path,
    repo: Option<&Repo>,
    remote: HookPosture,
    unknown: HookPosture,
) -> ShellJudgement {
    let _ = (command, cwd, repo, remote, unknown);
    ShellJudgement {
        veto: true,
        reason: "shell commands cannot be judged yet in this build (the shell judgement is not built in). Do not retry this; ask the user.".into(),
        may_write: true,
        known_writes: Vec::new(),
    }
}
