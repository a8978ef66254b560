//! `git fararoni hooks … --agent NAME`: installing the guard hook into
//! coding agents' settings files (the git hooks are in [`super::hooks`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;

use crate::cli::error::CliError;
use crate::cli::util::cwd;
use crate::git::Repo;
use crate::hooks::agents::install::trust::{self, Finding, Level};
use crate::hooks::agents::install::{self, InstallError, Outcome, Scope};
use crate::hooks::agents::Agent;

/// Where to install.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ScopeArg {
    /// The repository's settings files
    Project,
    /// The user's settings in the home directory (every project)
    User,
}

/// Which agent(s): one of the library's agents, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AgentChoice {
    /// One agent.
    One(Agent),
    /// Every agent.
    All,
}

/// Every choice, in the agents' documented order, `all` last.
const CHOICES: [AgentChoice; Agent::ALL.len() + 1] = {
    let mut out = [AgentChoice::All; Agent::ALL.len() + 1];
    let mut i = 0;
    while i < Agent::ALL.len() {
        out[i] = AgentChoice::One(Agent::ALL[i]);
        i += 1;
    }
    out
};

impl ValueEnum for AgentChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &CHOICES
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            AgentChoice::One(a) => a.to_possible_value(),
            AgentChoice::All => {
                Some(clap::builder::PossibleValue::new("all").help("Every agent above"))
            }
        }
    }
}

impl AgentChoice {
    fn agents(self) -> Vec<Agent> {
        match self {
            AgentChoice::One(a) => vec![a],
            AgentChoice::All => Agent::ALL.to_vec(),
        }
    }
}

/// The agent hooks to act on.
fn scope(s: ScopeArg) -> Scope {
    match s {
        ScopeArg::Project => Scope::Project,
        ScopeArg::User => Scope::User,
    }
}

/// The top of the worktree for a project-scope command (the home directory
/// is used for user scope and needs none).
fn project(s: ScopeArg) -> Result<PathBuf, CliError> {
    let dir = cwd()?;
    match s {
        ScopeArg::User => Ok(dir),
        ScopeArg::Project => {
            let repo = Repo::discover(&dir)
                .map_err(|e| CliError::user("could not open the repository").caused_by(&e))?
                .ok_or_else(|| {
                    CliError::user("not a git repository")
                        .hint("run this inside the repository, or install for every project with `--scope user`")
                })?;
            repo.workdir()
                .map(|p| p.to_path_buf())
                .ok_or_else(|| CliError::user("the repository has no working tree"))
        }
    }
}

/// Where installs remember what they changed.
fn state_dir(s: ScopeArg, top: &std::path::Path) -> Result<PathBuf, CliError> {
    match s {
        ScopeArg::Project => {
            let repo = Repo::discover(top)
                .map_err(|e| CliError::user("could not open the repository").caused_by(&e))?
                .ok_or_else(|| CliError::user("not a git repository"))?;
            Ok(repo.common_dir().join("fararoni").join("agent-hooks"))
        }
        ScopeArg::User => crate::hooks::agents::userstore::dir()
            .and_then(|d| d.parent().map(|p| p.join("agent-hooks")))
            .ok_or_else(|| CliError::user("no home directory (HOME is not set)")),
    }
}

fn install_error(e: InstallError) -> CliError {
    let hint = match &e {
        InstallError::Foreign { .. } => {
            "add `exec git fararoni guard hook --agent cline` to that hook yourself, or move it aside and install again"
        }
        InstallError::NotJson { .. } | InstallError::Shape { .. } => {
            "fix the file by hand (the agent cannot read it either) and install again"
        }
        _ => "check the file's permissions",
    };
    CliError::user(e.to_string()).caused_by(&e).hint(hint)
}

pub(in crate::cli) fn change(
    agents: AgentChoice,
    scope_arg: ScopeArg,
    add: bool,
) -> Result<ExitCode, CliError> {
    let top = project(scope_arg)?;
    let state = state_dir(scope_arg, &top)?;
    let mut text = String::new();
    let mut notes = Vec::new();
    for agent in agents.agents() {
        let r = if add {
            install::install(agent, scope(scope_arg), &top, &state)
        } else {
            install::uninstall(agent, scope(scope_arg), &top, &state)
        };
        let outcome = r.map_err(install_error)?;
        let (verb, path) = match (&outcome, add) {
            (Outcome::Changed(p), true) => ("installed the guard hook in", p),
            (Outcome::Unchanged(p), true) => ("the guard hook is already in", p),
            (Outcome::Changed(p), false) => ("removed the guard hook from", p),
            (Outcome::Unchanged(p), false) => ("no guard hook to remove in", p),
        };
        text.push_str(&format!("{}: {verb} `{}`\n", agent.name(), path.display()));
        if add {
            if let Some(step) = install::manual_step(agent) {
                notes.push(format!("{}: {step}", agent.name()));
            }
            // What keeps the agent from running the hook just installed
            // (Codex: a changed command must be trusted again).
            let st = install::status(agent, scope(scope_arg), &top).map_err(install_error)?;
            for f in trust::findings(&st, scope(scope_arg), &tops(&top), &trust::process_env) {
                if f.level == Level::Warn {
                    notes.push(format!("{}: {}{}", agent.name(), f.detail, fix_text(&f)));
                }
            }
        }
    }
    crate::cli::out(&text);
    for n in notes {
        eprintln!("hint: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `; FIX` for a finding with a fix.
fn fix_text(f: &Finding) -> String {
    f.fix
        .as_deref()
        .map(|x| format!("; {x}"))
        .unwrap_or_default()
}

/// The spellings of the project's top an agent may use: as found, as the
/// shell's `PWD` spells it (agents do not resolve symlinks), resolved, and
/// the main worktree's (Codex trusts a linked worktree by its main one).
pub(in crate::cli) fn tops(top: &std::path::Path) -> Vec<PathBuf> {
    let real = |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = vec![top.to_path_buf()];
    let rtop = real(top);
    if let (Some(pwd), Ok(here)) = (
        std::env::var_os("PWD").map(PathBuf::from),
        std::env::current_dir(),
    ) {
        if pwd.is_absolute() && real(&pwd) == real(&here) {
            if let Ok(rel) = real(&here).strip_prefix(&rtop) {
                let mut logical = pwd.clone();
                for _ in rel.components() {
                    logical.pop();
                }
                if real(&logical) == rtop {
                    out.push(logical);
                }
            }
        }
    }
    out.push(rtop);
    if let Ok(Some(repo)) = Repo::discover(top) {
        let common = real(repo.common_dir());
        if common.file_name().is_some_and(|n| n == ".git") {
            if let Some(main) = common.parent() {
                out.push(main.to_path_buf());
            }
        }
    }
    let mut seen = Vec::new();
    out.retain(|p| {
        let new = !seen.contains(p);
        seen.push(p.clone());
        new
    });
    out
}

/// The findings about every installed agent hook in `scope_arg` (trust,
/// an older command that fails open), for `hooks status` and `doctor`.
pub(in crate::cli) fn findings(scope_arg: ScopeArg) -> Result<Vec<Finding>, CliError> {
    let top = project(scope_arg)?;
    let tops = tops(&top);
    let mut out = Vec::new();
    for agent in Agent::ALL {
        let st = install::status(agent, scope(scope_arg), &top).map_err(install_error)?;
        out.extend(trust::findings(
            &st,
            scope(scope_arg),
            &tops,
            &trust::process_env,
        ));
    }
    Ok(out)
}

fn level_name(l: Level) -> &'static str {
    match l {
        Level::Ok => "ok",
        Level::Info => "info",
        Level::Warn => "warn",
    }
}

/// Whether `git-fararoni` is on `PATH`: the installed command is `git
/// fararoni …`, and an agent whose hook cannot start it runs the tool
/// unguarded (every agent but Cline treats a missing command as a failed,
/// non-blocking hook).
fn on_path() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("git-fararoni").is_file()))
}

pub(in crate::cli) fn status(
    agents: AgentChoice,
    scope_arg: ScopeArg,
    json: bool,
) -> Result<ExitCode, CliError> {
    let (text, value, reachable) = report(agents, scope_arg)?;
    if json {
        crate::cli::out(&format!("{value}\n"));
        return Ok(ExitCode::SUCCESS);
    }
    crate::cli::out(&text);
    if !reachable {
        warn_not_on_path();
    }
    Ok(ExitCode::SUCCESS)
}

/// Warns that agents cannot start the hook.
pub(in crate::cli) fn warn_not_on_path() {
    eprintln!("warning: `git-fararoni` is not on PATH: the agents cannot run the hook, and all but Cline then run every tool unguarded");
}

/// Returns, for each agent, whether our hook is installed: as text, as
/// JSON, and whether `git-fararoni` is on `PATH` at all.
pub(in crate::cli) fn report(
    agents: AgentChoice,
    scope_arg: ScopeArg,
) -> Result<(String, serde_json::Value, bool), CliError> {
    let top = project(scope_arg)?;
    let tops = tops(&top);
    let mut all = Vec::new();
    for agent in agents.agents() {
        let st = install::status(agent, scope(scope_arg), &top).map_err(install_error)?;
        let found = trust::findings(&st, scope(scope_arg), &tops, &trust::process_env);
        all.push((st, found));
    }
    let reachable = on_path();
    let v: Vec<serde_json::Value> = all
        .iter()
        .map(|(s, found)| {
            let complete = s.installed.len() == s.expected.len();
            let fails_open = install::wrapper::row(s.agent).is_some() && !s.outdated.is_empty();
            serde_json::json!({
                "agent": s.agent.name(),
                "path": s.path.to_string_lossy(),
                "exists": s.exists,
                "active": reachable && s.installed.len() == s.expected.len(),
                "on_path": reachable,
                "installed": s.installed,
                "expected": s.expected,
                "problem": s.problem,
                "outdated": s.outdated,
                "fails_open": fails_open,
                // Installed, reachable, and nothing found that keeps the
                // agent from running it (trust) or lets it fail open.
                "will_run": reachable && complete && !found.iter().any(|f| f.level == Level::Warn),
                "findings": found.iter().map(|f| serde_json::json!({
                    "level": level_name(f.level),
                    "detail": f.detail,
                    "fix": f.fix,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut text = String::new();
    for (s, found) in &all {
        let state = if s.installed.len() == s.expected.len() {
            "active".to_string()
        } else if s.installed.is_empty() {
            "not installed".to_string()
        } else {
            format!(
                "partly installed ({} of {})",
                s.installed.len(),
                s.expected.len()
            )
        };
        text.push_str(&format!(
            "{:<8} {state:<16} {}",
            s.agent.name(),
            s.path.display()
        ));
        if let Some(p) = &s.problem {
            text.push_str(&format!(" ({p})"));
        }
        text.push('\n');
        for f in found {
            text.push_str(&format!(
                "         {:<4} {}\n",
                level_name(f.level),
                f.detail
            ));
            if let Some(fix) = &f.fix {
                text.push_str(&format!("              → {fix}\n"));
            }
        }
    }
    Ok((text, serde_json::Value::Array(v), reachable))
}
