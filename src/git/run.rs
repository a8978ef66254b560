//! Running the `git` executable: the only way git-fararoni changes what the
//! user sees in their history.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};

use thiserror::Error;

/// A failure to run git or a git command that failed.
#[derive(Debug, Error)]
pub enum GitError {
    /// The `git` executable could not be started.
    #[error("could not run `git {args}`")]
    Spawn {
        /// The arguments, joined for display.
        args: String,
        /// Why it could not start.
        #[source]
        source: std::io::Error,
    },
    /// git ran and exited non-zero.
    #[error("`git {args}` failed (exit {code}){}", if stderr.is_empty() { String::new() } else { format!(": {}", stderr.trim()) })]
    Failed {
        /// The arguments, joined for display.
        args: String,
        /// git's exit code (-1 when killed by a signal).
        code: i32,
        /// What git printed on stderr.
        stderr: String,
    },
    /// git succeeded but printed what could not be read.
    #[error("`git {args}` printed what could not be read: {detail}")]
    Unreadable {
        /// The arguments, joined for display.
        args: String,
        /// What was wrong.
        detail: String,
    },
}

/// Who is making a change, exported to hooks as `FARARONI_ACTOR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// A person, through a deterministic level or a verb.
    Human,
    /// The model, through the agent.
    Agent,
}

/// The marker set on every git git-fararoni spawns: our pid. A hook (or any
/// git-fararoni) started by that git finds it and knows its ancestor may hold
/// the repository lock while it waits for git (the `lock` module).
pub const PARENT_ENV: &str = "FARARONI_PARENT";

/// Sets [`PARENT_ENV`] on `cmd`: the pids of every git-fararoni above the
/// child, ours last (a hook of a git started by a hook of a git started by
/// us still finds the first holder).
pub fn mark(cmd: &mut Command) {
    cmd.env(PARENT_ENV, parent_marker());
}

/// Returns the value of [`PARENT_ENV`] for a child of this process.
pub fn parent_marker() -> String {
    let me = std::process::id().to_string();
    match std::env::var(PARENT_ENV) {
        Ok(up) if !up.is_empty() && up.len() < 512 => format!("{up}:{me}"),
        _ => me,
    }
}

/// Returns the pids [`PARENT_ENV`] names in this process's environment.
pub fn marked_parents() -> Vec<u32> {
    std::env::var(PARENT_ENV)
        .unwrap_or_default()
        .split(':')
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// Gives a git that level 1 spawns the policy's protections
/// ([`super::protect::PROTECTIONS`]): variables, and configuration
/// through `GIT_CONFIG_COUNT`, appended after any the user already set.
pub fn protect(cmd: &mut Command) {
    use super::protect::{PROTECTED_CONFIG, PROTECTIONS};
    for (k, v) in PROTECTIONS {
        cmd.env(k, v);
    }
    // `git config -l` and `git var -l` would list the forced settings as
    // the user's own; they read configuration and contact nothing.
    let args: Vec<String> = cmd
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if matches!(super::protect::subcommand(&args), Some("config" | "var")) {
        return;
    }
    let base: usize = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    for (i, (k, v)) in PROTECTED_CONFIG.iter().enumerate() {
        cmd.env(format!("GIT_CONFIG_KEY_{}", base + i), k);
        cmd.env(format!("GIT_CONFIG_VALUE_{}", base + i), v);
    }
    cmd.env(
        "GIT_CONFIG_COUNT",
        (base + PROTECTED_CONFIG.len()).to_string(),
    );
}

/// A `git` invocation under construction.
#[derive(Debug, Clone)]
pub struct GitCommand {
    args: Vec<OsString>,
    cwd: Option<PathBuf>,
    /// Variables set (`Some`) or removed (`None`) for git, in order.
    env: Vec<(OsString, Option<OsString>)>,
    actor: Actor,
    protected: bool,
}

impl GitCommand {
    /// Starts a `git` invocation with `args`.
    pub fn new<I, S>(args: I) -> GitCommand
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        GitCommand {
            args: args
                .into_iter()
                .map(|a| a.as_ref().to_os_string())
                .collect(),
            cwd: None,
            env: Vec::new(),
            actor: Actor::Human,
            protected: false,
        }
    }

    /// Appends `args` to the invocation.
    pub fn extend_args<I, S>(mut self, args: I) -> GitCommand
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Runs git in `dir` (as `git -C dir` would).
    pub fn dir(mut self, dir: impl AsRef<Path>) -> GitCommand {
        self.cwd = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Sets an environment variable for git.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> GitCommand {
        self.env.push((
            key.as_ref().to_os_string(),
            Some(value.as_ref().to_os_string()),
        ));
        self
    }

    /// Removes an environment variable for git (inherited or set before).
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> GitCommand {
        self.env.push((key.as_ref().to_os_string(), None));
        self
    }

    /// Records who makes the change, for hooks.
    pub fn actor(mut self, actor: Actor) -> GitCommand {
        self.actor = actor;
        self
    }

    /// Runs with the protections of level 1 ([`protect`]).
    pub fn protected(mut self) -> GitCommand {
        self.protected = true;
        self
    }

    /// Returns the arguments, for traces.
    pub fn args(&self) -> Vec<String> {
        self.args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    /// Returns the arguments joined for display.
    pub fn display_args(&self) -> String {
        self.args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Builds the `std::process::Command`.
    pub fn command(&self) -> Command {
        // Never a `git` planted in the repository on a relative PATH entry.
        let here = std::env::current_dir().unwrap_or_default();
        let program = crate::which::resolve_program("git", self.cwd.as_deref().unwrap_or(&here))
            .unwrap_or_else(|| PathBuf::from("git"));
        let mut cmd = Command::new(program);
        cmd.args(&self.args);
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        cmd.env(
            "FARARONI_ACTOR",
            match self.actor {
                Actor::Human => "human",
                Actor::Agent => "agent",
            },
        );
        mark(&mut cmd);
        if self.protected {
            protect(&mut cmd);
        }
        for (k, v) in &self.env {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        cmd
    }

    fn spawn_error(&self, source: std::io::Error) -> GitError {
        GitError::Spawn {
            args: self.display_args(),
            source,
        }
    }

    /// Runs git with the terminal attached and returns its exit status.
    pub fn status(&self) -> Result<ExitStatus, GitError> {
        self.command().status().map_err(|e| self.spawn_error(e))
    }

    /// Runs git capturing stdout and stderr, whatever the exit code.
    pub fn output(&self) -> Result<Output, GitError> {
        self.command()
            .stdin(Stdio::null())
            .output()
            .map_err(|e| self.spawn_error(e))
    }

    /// Runs git with `input` on its stdin, capturing stdout and stderr,
    /// whatever the exit code. The input is written from another thread,
    /// so git filling its stdout pipe before reading all of it cannot
    /// deadlock the two; git exiting before it has read everything is
    /// judged by its exit status alone.
    pub fn output_with_stdin(&self, input: Vec<u8>) -> Result<Output, GitError> {
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| self.spawn_error(e))?;
        let writer = child.stdin.take().map(|mut stdin| {
            std::thread::spawn(move || {
                use std::io::Write as _;
                let _ = stdin.write_all(&input);
            })
        });
        let out = child.wait_with_output().map_err(|e| self.spawn_error(e))?;
        if let Some(w) = writer {
            let _ = w.join();
        }
        Ok(out)
    }

    /// Runs git capturing output and fails unless it exits 0; returns stdout.
    pub fn read(&self) -> Result<String, GitError> {
        let out = self.output()?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(self.failed(&out))
        }
    }

    /// Returns the error for a run of this command that produced `out`.
    pub fn failed(&self, out: &Output) -> GitError {
        GitError::Failed {
            args: self.display_args(),
            code: out.status.code().unwrap_or(-1),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Runs git capturing output for a yes-or-no query: exit 0 gives
    /// `Some(stdout)` trimmed, exit 1 gives `None`, anything else fails.
    pub fn read_optional(&self) -> Result<Option<String>, GitError> {
        let out = self.output()?;
        match out.status.code() {
            Some(0) => Ok(Some(
                String::from_utf8_lossy(&out.stdout).trim().to_string(),
            )),
            Some(1) => Ok(None),
            _ => Err(self.failed(&out)),
        }
    }

    /// Runs git with the terminal attached and fails unless it exits 0.
    pub fn run(&self) -> Result<(), GitError> {
        let status = self.status()?;
        if status.success() {
            Ok(())
        } else {
            Err(GitError::Failed {
                args: self.display_args(),
                code: status.code().unwrap_or(-1),
                stderr: String::new(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envs(cmd: &Command) -> Vec<(String, String)> {
        cmd.get_envs()
            .filter_map(|(k, v)| Some((k.to_str()?.to_string(), v?.to_str()?.to_string())))
            .collect()
    }

    /// Input larger than a pipe's buffer reaches git whole, while git
    /// writes as much back: the writer thread keeps the two from waiting
    /// on each other.
    #[test]
    fn stdin_is_written_while_git_answers() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lines = 20_000;
        let input: String = (0..lines).map(|i| format!("{i}\n")).collect();
        let out = GitCommand::new(["hash-object", "--stdin-paths", "--no-filters"])
            .dir(dir.path())
            .output_with_stdin(input.into_bytes())
            .expect("git runs");
        // No such files: git stops at the first path, long before it has
        // read the rest; the writer's broken pipe does not hang or fail the
        // call, the exit status says what happened.
        assert!(!out.status.success());
        let out = GitCommand::new(["hash-object", "--stdin"])
            .dir(dir.path())
            .output_with_stdin(b"hello\n".to_vec())
            .expect("git runs");
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
        let big = vec![b'x'; 1 << 20];
        let out = GitCommand::new(["hash-object", "--stdin"])
            .dir(dir.path())
            .output_with_stdin(big)
            .expect("git runs");
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim().len(), 40);
    }

    #[test]
    fn every_git_we_spawn_carries_our_pid_as_the_parent_marker() {
        let cmd = GitCommand::new(["status"]).command();
        let marker = envs(&cmd)
            .into_iter()
            .find(|(k, _)| k == PARENT_ENV)
            .map(|(_, v)| v)
            .expect("marker set");
        let me = std::process::id().to_string();
        assert_eq!(marker.rsplit(':').next(), Some(me.as_str()));
    }

    #[test]
    fn every_protection_is_applied_except_config_for_config_reads() {
        let mut cmd = Command::new("git");
        cmd.args(["-C", "x", "log"]);
        protect(&mut cmd);
        let e = envs(&cmd);
        for (k, v) in crate::git::protect::PROTECTIONS {
            assert!(e.contains(&(k.to_string(), v.to_string())), "{k}");
        }
        let values: Vec<&str> = e
            .iter()
            .filter(|(k, _)| k.starts_with("GIT_CONFIG_VALUE_"))
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(values.len(), crate::git::protect::PROTECTED_CONFIG.len());
        assert!(values.contains(&"never") && values.contains(&"explicit"));
        let mut cmd = Command::new("git");
        cmd.args(["config", "-l"]);
        protect(&mut cmd);
        assert!(!envs(&cmd).iter().any(|(k, _)| k == "GIT_CONFIG_COUNT"));
    }
}
