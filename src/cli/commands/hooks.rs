//! `git fararoni hooks install|uninstall|status` and `git fararoni hook
//! NAME`, which the installed hooks run.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::agent_hooks::{self, AgentChoice, ScopeArg};
use crate::cli::error::{exit, CliError, ErrorKind};
use crate::cli::ui::paint;
use crate::cli::util::{cwd, warn};
use crate::hooks::check::{self, CheckError};
use crate::hooks::git::{self as githooks, Action, Change, HookError, HookState, HookStatus};

/// Install, remove or show git-fararoni's hooks: git's (pre-commit,
/// post-checkout) or, with `--agent NAME`, a coding agent's pre-tool-use hook
///
/// `pre-commit` refuses a commit that stages the shadow store `.fararoni/`
/// or a file the kill-switch judges gutted against HEAD (bypass once with
/// `git commit --no-verify` or `FARARONI_GUARD=off`), and warns about
/// commits beside an active saga. `post-checkout` says how to finish or
/// abort a saga whose branch you left, and keeps `.fararoni/` in
/// `.git/info/exclude`. The hooks go where git runs them (`core.hooksPath`
/// honoured, shared by linked worktrees). An existing hook — hand-written,
/// pre-commit framework, husky, lefthook — keeps running: a marked block is
/// added after its first line, and `uninstall` removes exactly that block.
///
/// With `--agent NAME|all [--scope project|user]`, the guard hook is merged
/// into the agent's own settings file (Claude Code, Gemini CLI, Codex CLI,
/// Cursor, Cline, Copilot CLI), registered only for the tools it judges,
/// every other setting kept byte-identical; `uninstall` removes exactly
/// what was added.
#[derive(Debug, Args)]
pub(crate) struct HooksArgs {
    #[command(subcommand)]
    action: HooksAction,
}

#[derive(Debug, Subcommand)]
enum HooksAction {
    /// Install the hooks (idempotent; never replaces an existing hook)
    Install(HooksTarget),
    /// Remove the hooks, restoring existing hooks byte for byte
    Uninstall(HooksTarget),
    /// Show which hooks are installed where
    Status(HooksTarget),
}

/// Which hooks a `hooks` verb acts on, and how it reports.
#[derive(Debug, Args)]
struct HooksTarget {
    /// Act on a coding agent's pre-tool-use hook instead of the git hooks:
    /// merge `git fararoni guard hook --agent NAME` into its settings file
    /// (claude, gemini, codex, cursor, cline, copilot, or all)
    #[arg(long, value_enum, value_name = "NAME")]
    agent: Option<AgentChoice>,
    /// With --agent: the project's settings (default) or the user's
    #[arg(long, value_enum, requires = "agent")]
    scope: Option<ScopeArg>,
    /// Print JSON
    #[arg(long)]
    json: bool,
}

/// Run one of git-fararoni's git hooks (what the installed hooks call)
#[derive(Debug, Args)]
pub(crate) struct HookArgs {
    /// The hook: pre-commit or post-checkout
    #[arg(value_parser = ["pre-commit", "post-checkout"])]
    name: String,
    /// The arguments git gave the hook
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<OsString>,
}

impl HookArgs {
    /// Returns the arguments of exactly `git-fararoni hook NAME ARGS…` as
    /// the installed hooks call it, NAME a hook we have.
    pub(crate) fn fast_path(args: &[OsString]) -> Option<HookArgs> {
        let (Some(sub), Some(name)) = (args.get(1), args.get(2)) else {
            return None;
        };
        let name = name.to_str()?;
        let rest = &args[3..];
        // What git passes: nothing to pre-commit, three words (two ids and
        // a flag) to post-checkout; anything else (`--help`) goes to clap.
        let shape = match name {
            "pre-commit" => rest.is_empty(),
            "post-checkout" => {
                rest.len() == 3 && rest.iter().all(|a| !a.as_encoded_bytes().starts_with(b"-"))
            }
            _ => false,
        };
        (sub == "hook" && shape).then(|| HookArgs {
            name: name.to_string(),
            args: args[3..].to_vec(),
        })
    }
}

fn hook_error(e: HookError) -> CliError {
    let hint = match e {
        HookError::Locate(_) => "run this inside a git repository",
        HookError::Io { .. } => "check the hooks folder's permissions, then run the command again",
    };
    CliError::wrap(ErrorKind::User, &e).hint(hint)
}

pub(crate) fn run_hooks(args: HooksArgs) -> Result<ExitCode, CliError> {
    let (HooksAction::Install(t) | HooksAction::Uninstall(t) | HooksAction::Status(t)) =
        &args.action;
    if let Some(agents) = t.agent {
        let scope = t.scope.unwrap_or(ScopeArg::Project);
        return match args.action {
            HooksAction::Install(_) => agent_hooks::change(agents, scope, true),
            HooksAction::Uninstall(_) => agent_hooks::change(agents, scope, false),
            HooksAction::Status(t) => agent_hooks::status(agents, scope, t.json),
        };
    }
    let dir = cwd()?;
    let (target, changes) = match args.action {
        HooksAction::Install(t) => (t, githooks::install(&dir).map_err(hook_error)?),
        HooksAction::Uninstall(t) => (t, githooks::uninstall(&dir).map_err(hook_error)?),
        HooksAction::Status(t) => {
            let status = githooks::status(&dir).map_err(hook_error)?;
            // Every agent's guard hook too (project scope): one command
            // answers "what protects this repository".
            let (agents_text, agents, reachable) =
                agent_hooks::report(AgentChoice::All, ScopeArg::Project)?;
            if t.json {
                crate::cli::out(&format!(
                    "{}\n",
                    serde_json::json!({ "hooks": status, "agents": agents })
                ));
            } else {
                let mut text = status.iter().map(describe).collect::<String>();
                text.push_str("agents' guard hook (this project):\n");
                text.push_str(&agents_text);
                crate::cli::out(&text);
                if !reachable {
                    agent_hooks::warn_not_on_path();
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
    };
    let refused = changes.iter().any(|c| c.action == Action::Refused);
    // A hooks folder outside the repository (a global `core.hooksPath`)
    // is shared: what is installed there runs for every repository using it.
    if let (Some(first), Ok(Some(repo))) = (changes.first(), crate::git::Repo::discover(&dir)) {
        let real =
            |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let inside = |p: &std::path::Path| {
            let p = real(p);
            repo.workdir().is_some_and(|w| p.starts_with(real(w)))
                || p.starts_with(real(repo.common_dir()))
        };
        if let Some(folder) = first.status.path.parent().filter(|f| !inside(f)) {
            warn(&format!(
                "the hooks folder `{}` (core.hooksPath) is outside this repository: its hooks run for every repository that uses it",
                folder.display()
            ));
        }
    }
    if target.json {
        crate::cli::out(&format!("{}\n", serde_json::json!({ "hooks": changes })));
    } else {
        crate::cli::ui::say(&changes.iter().map(describe_change).collect::<String>());
    }
    Ok(ExitCode::from(if refused { exit::ERROR } else { exit::OK }))
}

fn manager(s: &HookStatus) -> String {
    s.manager.map(|m| format!(" ({m})")).unwrap_or_default()
}

fn describe(s: &HookStatus) -> String {
    let path = s.path.display();
    match &s.state {
        HookState::Absent => format!("{}: not installed ({path} does not exist)\n", s.name),
        HookState::Ours => format!("{}: installed at {path}\n", s.name),
        HookState::Chained => format!(
            "{}: installed inside the existing hook {path}{}\n",
            s.name,
            manager(s)
        ),
        HookState::Foreign => format!(
            "{}: not installed; {path} is another hook{}\n",
            s.name,
            manager(s)
        ),
        HookState::Unsupported { reason } => format!(
            "{}: not installed; {path}{} cannot take it: {reason}\n",
            s.name,
            manager(s)
        ),
    }
}

fn describe_change(c: &Change) -> String {
    let s = &c.status;
    let path = s.path.display();
    match c.action {
        Action::Created => format!("{}: installed {path}\n", s.name),
        Action::Chained => format!(
            "{}: added to the existing hook {path}{}, which still runs\n",
            s.name,
            manager(s)
        ),
        Action::Removed => format!("{}: removed {path}\n", s.name),
        Action::Restored => format!(
            "{}: removed from {path}, which is as it was before\n",
            s.name
        ),
        Action::Unchanged | Action::Refused => describe(s),
    }
}

/// Names the bypass in every message that blocks a commit.
const BYPASS: &str =
    "to commit anyway: `git commit --no-verify`, or `FARARONI_GUARD=off git commit …`";

pub(crate) fn run_hook(args: HookArgs) -> Result<ExitCode, CliError> {
    match args.name.as_str() {
        "pre-commit" => pre_commit(),
        _ => post_checkout(&args.args),
    }
}

fn pre_commit() -> Result<ExitCode, CliError> {
    if check::guard_off() {
        return Ok(ExitCode::SUCCESS);
    }
    // An error of the hook's own blocks the commit: a guard that fails
    // open protects nothing.
    let mut bar = crate::cli::ui::Progress::start("git-fararoni: checking staged files", true);
    let found = check::pre_commit_with(&cwd()?, &mut |d, t| bar.update(d, t));
    drop(bar);
    let found = found.map_err(|e: CheckError| {
        CliError::wrap(ErrorKind::User, &e)
            .hint("the git-fararoni pre-commit hook failed, so the commit was stopped")
            .hint(BYPASS)
    })?;
    for w in &found.setting_warnings {
        warn(w);
    }
    for w in &found.warnings {
        eprintln!("{} {w}", paint("warning:", "33"));
    }
    if !found.blocked() {
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    if !found.store_paths.is_empty() {
        text.push_str(&format!(
            "{} the commit stages the shadow store `.fararoni/`, which holds backups and must never be committed:\n",
            paint("error:", "31")
        ));
        for p in &found.store_paths {
            text.push_str(&format!("  {p}\n"));
        }
        text.push_str("hint: unstage it with `git rm -r --cached .fararoni`\n");
    }
    if !found.gutted.is_empty() {
        text.push_str(&format!(
            "{} the kill-switch blocked the commit: {} staged file(s) lose most of their content against HEAD\n",
            paint("error:", "31"),
            found.gutted.len()
        ));
        for g in &found.gutted {
            let r = &g.report;
            text.push_str(&format!(
                "  {}: jaccard {:.2}, volume {:.2} ({} -> {} {})\n",
                g.path, r.jaccard, r.volume, r.old_lines, r.new_lines, r.unit
            ));
            for reason in &r.reasons {
                text.push_str(&format!("    {reason}\n"));
            }
        }
        text.push_str("hint: compare with `git diff --cached -- FILE`; bring a file back with `git restore --staged --worktree --source=HEAD -- FILE`, or `git fararoni shadow restore FILE` when it was written through the guard\n");
    }
    text.push_str(&format!("hint: {BYPASS}\n"));
    eprint!("{text}");
    Ok(ExitCode::from(exit::BLOCKED))
}

fn post_checkout(args: &[OsString]) -> Result<ExitCode, CliError> {
    let branch_checkout = args.get(2).is_some_and(|f| f == "1");
    // post-checkout cannot undo a checkout: its failures are warnings.
    let found = match check::post_checkout(&cwd()?, branch_checkout) {
        Ok(f) => f,
        Err(e) => {
            warn(&format!("git-fararoni post-checkout: {e}"));
            return Ok(ExitCode::SUCCESS);
        }
    };
    if let Some(s) = &found.left_saga {
        eprintln!(
            "{} you left saga `{}`'s branch `{}`; it is still active.\n  back to it:  git switch {}\n  land it:     git fararoni saga finish   (one commit on `{}`)\n  drop it:     git fararoni saga abort    (its work is kept under refs/fararoni/aborted/)",
            paint("note:", "36"),
            s.id,
            s.wip_branch,
            s.wip_branch,
            s.original_branch
        );
    }
    Ok(ExitCode::SUCCESS)
}
