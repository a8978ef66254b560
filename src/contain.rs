//! Containment and recovery around a command that the guard lets through
//! but cannot judge (a build, a test run, a project script, another
//! agent's program): the dirty set, refs, index and git config are saved
//! first ([`crate::shadow::dirty`]), the command runs in the OS sandbox
//! ([`crate::sandbox`]) so it can write only the working tree minus the git
//! dir, the hooks, `.fararoni/` and the agents' hook settings, and what it
//! changed is journaled in the session after, so `undo --session` brings
//! everything back. A command never runs uncontained here: where no
//! sandbox can be set up, that is the error.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::git::Repo;
use crate::sandbox::{self, Level, SandboxError};
use crate::shadow::{dirty, Session, Shadow, ShadowError};

/// Why a command could not be run contained.
#[derive(Debug, thiserror::Error)]
pub enum ContainError {
    /// Not inside a repository's working tree.
    #[error("`{}` is not inside a git working tree; `run` contains commands to a working tree", .0.display())]
    NotAWorktree(PathBuf),
    /// The repository could not be read.
    #[error("cannot read the repository")]
    Repo(#[source] crate::git::RepoError),
    /// The sandbox could not be set up (nothing ran).
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// The shadow store refused the snapshot (nothing ran).
    #[error("cannot save the work before running the command")]
    Snapshot(#[source] ShadowError),
    /// `git-fararoni` itself, which sets the sandbox up, was not found.
    #[error("cannot find the `git-fararoni` executable to set up the sandbox")]
    Shim,
    /// The command could not be started.
    #[error("cannot start the sandbox for `{program}`")]
    Spawn {
        /// The program.
        program: String,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
}

/// What a contained run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// The command's exit code (128+N when signal N ended it; 125–127 when
    /// the sandbox could not start it, as `env` and `timeout` do).
    pub code: i32,
    /// How strongly it was contained.
    pub level: Level,
    /// The session its snapshot and changes are journaled in.
    pub session: String,
    /// What it changed, as `path (created|modified|deleted)`.
    pub changes: Vec<String>,
    /// Things the user should know (a change that could not be recorded).
    pub notes: Vec<String>,
}

/// Returns the sandbox policy of the working tree of `repo`: writable
/// inside, except its git dirs (a linked worktree's own and the common
/// one, and a `.git` file), the hooks git runs, `.fararoni/` and the
/// folders of the agents' hook settings; plus `extra` (absolute, or
/// relative to the top).
pub fn policy_for(repo: &Repo, network: bool, extra: &[PathBuf]) -> Option<sandbox::Policy> {
    let top = canonical(repo.workdir()?);
    let mut protected = vec![canonical(repo.git_dir()), canonical(repo.common_dir())];
    let dot_git = top.join(".git");
    if dot_git.is_file() {
        protected.push(dot_git);
    }
    protected.push(hooks_dir(repo, &top));
    protected.push(top.join(".fararoni"));
    for folder in crate::hooks::agents::protect::settings_folders() {
        protected.push(top.join(folder));
    }
    protected.dedup();
    let writable = extra
        .iter()
        .map(|p| {
            if p.is_absolute() {
                p.clone()
            } else {
                top.join(p)
            }
        })
        .collect();
    Some(sandbox::Policy {
        worktree: top,
        protected,
        writable,
        network,
    })
}

/// The hooks folder git would run for `repo` (`core.hooksPath`, relative
/// to the top of the working tree, or the common dir's `hooks`).
fn hooks_dir(repo: &Repo, top: &Path) -> PathBuf {
    match repo.config_string("core.hooksPath") {
        Some(p) if !p.is_empty() => {
            let p = match p.strip_prefix("~/") {
                Some(rest) => crate::settings::read::home_os()
                    .map_or_else(|| PathBuf::from(&p), |h| PathBuf::from(h).join(rest)),
                None => PathBuf::from(&p),
            };
            canonical(&top.join(p))
        }
        _ => canonical(&repo.common_dir().join("hooks")),
    }
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// The executable that sets the sandbox up: this one when it is
/// `git-fararoni` (or one of its sibling binaries), else `git-fararoni`
/// beside it or on `PATH` (a library caller, a test harness).
pub fn shim() -> Result<PathBuf, ContainError> {
    let exe = std::env::current_exe().map_err(|_| ContainError::Shim)?;
    let ours = |p: &Path| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("git-fararoni"))
    };
    if ours(&exe) {
        return Ok(exe);
    }
    if let Some(beside) = exe.parent().map(|d| d.join("git-fararoni")) {
        if beside.is_file() {
            return Ok(beside);
        }
    }
    let here = std::env::current_dir().unwrap_or_default();
    crate::which::resolve_program("git-fararoni", &here).ok_or(ContainError::Shim)
}

/// Returns the policy for running `argv` contained in the working tree of
/// `repo`, once the run may go ahead: `FARARONI_SANDBOX=none` refuses it,
/// and `.fararoni/` exists.
fn policy_to_run(
    repo: &Repo,
    argv: &[OsString],
    network: bool,
) -> Result<sandbox::Policy, ContainError> {
    let top = repo.workdir().map(Path::to_path_buf).unwrap_or_default();
    let settings = crate::settings::read::sandbox_settings(crate::settings::of(Some(repo)));
    let policy =
        policy_for(repo, network, &settings.writable).ok_or(ContainError::NotAWorktree(top))?;
    // `FARARONI_SANDBOX=none` pretends this system has no sandbox, so
    // anyone can check that nothing then runs uncontained; it can only
    // make a run fail, never weaken one.
    if std::env::var_os("FARARONI_SANDBOX").is_some_and(|v| v == "none") {
        return Err(ContainError::Sandbox(SandboxError::Unavailable {
            reason: "FARARONI_SANDBOX=none".into(),
            program: argv
                .first()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }));
    }
    // Our own folder exists before the run, so the sandbox protects it as
    // it is rather than with a placeholder it removes after answering
    // (which could race with the closing snapshot writing there).
    let _ = std::fs::create_dir(policy.worktree.join(".fararoni"));
    Ok(policy)
}

/// Returns the shim command that runs `argv` under `policy`, and the level
/// it will run at; `ahead` makes the shim wait for a byte on its stdin
/// before it plans and starts the command ([`sandbox::AFTER_STDIN`]).
fn shim_command_with(
    policy: &sandbox::Policy,
    argv: &[OsString],
    ahead: bool,
) -> Result<(Command, Level), ContainError> {
    let shim = shim()?;
    let mut prefix = vec![OsString::from(sandbox::SHIM_SUBCOMMAND)];
    if ahead {
        prefix.push(sandbox::AFTER_STDIN.into());
    }
    let (cmd, level) = sandbox::command_with_shim(&shim, &prefix, policy, argv)?;
    Ok((cmd, level))
}

/// [`shim_command_with`], starting at once.
fn shim_command(
    policy: &sandbox::Policy,
    argv: &[OsString],
) -> Result<(Command, Level), ContainError> {
    shim_command_with(policy, argv, false)
}

/// Returns the command that runs `argv` contained in the working tree of
/// `repo`, and the level it will run at.
pub fn command(
    repo: &Repo,
    argv: &[OsString],
    network: bool,
) -> Result<(Command, Level), ContainError> {
    let policy = policy_to_run(repo, argv, network)?;
    shim_command(&policy, argv)
}

/// Returns `process` (built to run one command in the working tree of
/// `repo`) as the same command run contained: same program, arguments,
/// environment and directory.
pub fn wrap(repo: &Repo, network: bool, process: &Command) -> Result<Command, ContainError> {
    wrapped(repo, network, process, false).map(|(cmd, _)| cmd)
}

/// Returns [`wrap`]'s command made to wait before it reads the tree and
/// starts: spawned with stdin piped, it sets the sandbox up as far as it
/// can; one byte written to its stdin, which is then closed, starts the
/// command (whose stdin then reads nothing); stdin closed without a byte,
/// nothing runs (exit 125). For a caller that takes a snapshot first: the
/// shim's start and the namespaces happen beside it. `None` where the
/// sandbox cannot wait (not Linux): [`wrap`] after the snapshot instead.
pub fn wrap_ahead(
    repo: &Repo,
    network: bool,
    process: &Command,
) -> Result<Option<Command>, ContainError> {
    let (cmd, level) = wrapped(repo, network, process, true)?;
    Ok(matches!(level, Level::Full | Level::Landlock).then_some(cmd))
}

fn wrapped(
    repo: &Repo,
    network: bool,
    process: &Command,
    ahead: bool,
) -> Result<(Command, Level), ContainError> {
    let mut argv: Vec<OsString> = vec![process.get_program().to_os_string()];
    argv.extend(process.get_args().map(|a| a.to_os_string()));
    let policy = policy_to_run(repo, &argv, network)?;
    let (mut cmd, level) = shim_command_with(&policy, &argv, ahead)?;
    for (k, v) in process.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    if let Some(dir) = process.get_current_dir() {
        cmd.current_dir(dir);
    }
    Ok((cmd, level))
}

/// How [`run`] runs a command.
#[derive(Debug, Clone)]
pub struct Options {
    /// Whether it may reach the network.
    pub network: bool,
    /// The session to journal in (a fresh `run-…` one when `None`).
    pub session: Option<Session>,
}

/// Saves the work, runs `argv` contained in `cwd`'s working tree with the
/// terminal inherited, and journals what it changed.
pub fn run(cwd: &Path, argv: &[OsString], opts: Options) -> Result<Ran, ContainError> {
    let repo = Repo::discover(cwd)
        .map_err(ContainError::Repo)?
        .filter(|r| r.workdir().is_some())
        .ok_or_else(|| ContainError::NotAWorktree(cwd.to_path_buf()))?;
    let policy = policy_to_run(&repo, argv, opts.network)?;
    // From a single-threaded process (this command's) the sandbox is set
    // up here: its helper enters the namespaces while the work is saved,
    // and gets its plan once the snapshot is done (the plan reads the tree
    // as the command will find it: the snapshot may set a planted store
    // aside). Otherwise (or where user namespaces turn out to be missing)
    // through the shim.
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    let mut notes = Vec::new();
    let mut failed = None;
    let ready = match sandbox::start_here(&policy, argv, &env, cwd) {
        Ok(ready) => ready,
        // As the shim would: nothing runs, the code says why (125–127);
        // the snapshot is still taken, as for a failure found later.
        Err(e) => {
            failed = Some(e);
            None
        }
    };
    // Built (and the level checked) before the snapshot when the shim is
    // to be used: a sandbox this system cannot give fails before anything
    // is saved or run.
    let mut shim = match (&ready, &failed) {
        (None, None) => Some(shim_command(&policy, argv)?),
        _ => None,
    };
    let session = opts.session.unwrap_or_else(|| Session::fresh("run"));
    let shadow = Shadow::discover(cwd).map_err(ContainError::Snapshot)?;
    dirty::snapshot(&shadow, &repo, &session).map_err(ContainError::Snapshot)?;
    let program = argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut level = Level::Full;
    let mut ran = None;
    if let Some(ready) = ready {
        match ready.go() {
            Ok(Some(done)) => ran = Some(done),
            Ok(None) => shim = Some(shim_command(&policy, argv)?),
            Err(e) => failed = Some(e),
        }
    }
    let (code, _helper) = match (ran, failed, shim) {
        (Some(done), _, _) => (done.code, Some(done)),
        (None, Some(e), _) => {
            notes.push(format!(
                "fararoni sandbox: {}",
                crate::text::chain::one_line(&e)
            ));
            (i32::from(e.exit_code()), None)
        }
        (None, None, Some((mut cmd, shim_level))) => {
            level = shim_level;
            cmd.current_dir(cwd);
            let status = cmd
                .status()
                .map_err(|source| ContainError::Spawn { program, source })?;
            (exit_code(status), None)
        }
        (None, None, None) => {
            return Err(ContainError::Sandbox(SandboxError::Unavailable {
                reason: "no way to start the sandbox".into(),
                program,
            }))
        }
    };
    let changes = match dirty::record(&shadow, &repo, &session) {
        Ok(changes) => changes
            .into_iter()
            .map(|c| {
                let kind = match c.kind {
                    dirty::ChangeKind::Created => "created",
                    dirty::ChangeKind::Modified => "modified",
                    dirty::ChangeKind::Deleted => "deleted",
                };
                format!("{} ({kind})", c.path)
            })
            .collect(),
        Err(e) => {
            notes.push(format!(
                "what the command changed could not be recorded: {}",
                crate::text::chain::one_line(&e)
            ));
            Vec::new()
        }
    };
    Ok(Ran {
        code,
        level,
        session: session.id().to_string(),
        changes,
        notes,
    })
}

/// The exit code a shell would report for `status`.
fn exit_code(status: std::process::ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(sig) = status.signal() {
            return 128 + sig;
        }
    }
    status.code().unwrap_or(1)
}
