//! `git fararoni run -- CMD…`: a command the user does not trust, run the
//! way the guard runs what it cannot judge: the work saved first, the
//! command contained, what it changed journaled for `undo --session`.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Args;

use crate::cli::error::{CliError, ErrorKind};
use crate::cli::util::cwd;
use crate::contain::{self, ContainError};
use crate::shadow::Session;

/// Run a command contained and recoverable
///
/// Saves the dirty set (and the refs, index and git config) under a
/// session, runs CMD in an OS sandbox where it can write only the working
/// tree — never the git dir, the hooks, `.fararoni/` or the agents' hook
/// settings — the temp dir and tool caches (plus `fararoni.sandbox.writable`),
/// writes no device, and ends every process it started when it ends; then
/// journals what it changed. `git fararoni undo --session ID` puts all of
/// it back. CMD's exit code is passed through (125 when the sandbox could
/// not be set up: nothing ran). Never runs CMD uncontained.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Let CMD reach the network (the default)
    #[arg(long, overrides_with = "no_net")]
    net: bool,
    /// Cut CMD off the network (loopback stays)
    #[arg(long = "no-net")]
    no_net: bool,
    /// Journal in this session (default: a new `run-…` session)
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// The command and its arguments (after `--`)
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "CMD"
    )]
    command: Vec<OsString>,
}

pub(crate) fn run(args: RunArgs) -> Result<ExitCode, CliError> {
    let here = cwd()?;
    let session = match args.session {
        Some(id) => Some(Session::new(id).map_err(|e| {
            CliError::usage(e.to_string())
                .hint("a session id is 1–128 letters, digits or `-_.:@+/`")
        })?),
        None => None,
    };
    let opts = contain::Options {
        network: !args.no_net,
        session,
    };
    let ran = contain::run(&here, &args.command, opts).map_err(contain_error)?;
    for n in &ran.notes {
        crate::cli::util::warn(n);
    }
    // 125: the sandbox could not be set up and said why; nothing ran.
    if ran.code != 0 && ran.code != 125 {
        eprintln!(
            "fararoni run: `{}` ran contained ({}): writes outside the working tree, to the git dir, hooks and `.fararoni/` are refused{}; `fararoni.sandbox.writable` widens what it may write",
            args.command[0].to_string_lossy(),
            ran.level,
            if args.no_net { ", and so is the network (`--net` allows it)" } else { "" },
        );
    }
    if !ran.changes.is_empty() {
        eprintln!(
            "fararoni run: contained ({}); {} change(s) journaled — undo with `git fararoni undo --session {}`",
            ran.level,
            ran.changes.len(),
            ran.session
        );
    }
    Ok(ExitCode::from(u8::try_from(ran.code).unwrap_or(1)))
}

/// Renders a containment failure: nothing ran.
pub(crate) fn contain_error(e: ContainError) -> CliError {
    let hint = match &e {
        ContainError::Sandbox(s) => match s {
            crate::sandbox::SandboxError::NetworkUnenforceable { .. } => {
                "run with `--net`, or on a kernel with network namespaces"
            }
            crate::sandbox::SandboxError::Exec { .. } => "is the program installed and on PATH?",
            _ => "`git fararoni doctor` shows which sandbox this system offers",
        },
        ContainError::NotAWorktree(_) => "run it inside the working tree of a git repository",
        ContainError::Shim => "install git-fararoni on PATH (`cargo install --path .`)",
        _ => "nothing was run",
    };
    let code_kind = match &e {
        ContainError::NotAWorktree(_) => ErrorKind::Usage,
        _ => ErrorKind::User,
    };
    CliError::wrap(code_kind, &e).hint(hint)
}
