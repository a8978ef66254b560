//! `git fararoni doctor`: the findings of [`crate::doctor`], printed.

use std::process::ExitCode;

use clap::Args;

use super::agent_hooks::{self, ScopeArg};
use crate::cli::error::{exit, CliError};
use crate::cli::ui::paint;
use crate::cli::util::cwd;
use crate::doctor::{diagnose, Check, Level};
use crate::hooks::agents::install::trust;

/// Check git, the repository, the hooks, the model endpoints, the shadow store and the saga
///
/// Each finding says what to do about it. Exit 0 when nothing is broken,
/// 1 when something is (an unreachable model endpoint, an interrupted
/// saga, an unreadable store). Model endpoints get a few seconds each.
#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Print {"checks": [{"name", "level", "detail", "fix"}]} as JSON
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: DoctorArgs) -> Result<ExitCode, CliError> {
    let mut checks = diagnose(&cwd()?);
    checks.extend(agent_checks());
    let broken = checks.iter().any(|c| c.level == Level::Error);
    if args.json {
        crate::cli::out(&format!("{}\n", serde_json::json!({ "checks": checks })));
    } else {
        let width = checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let mut text = String::new();
        for c in &checks {
            let mark = match c.level {
                Level::Ok => "ok   ",
                Level::Info => "info ",
                Level::Warn => "warn ",
                Level::Error => "ERROR",
            };
            text.push_str(&format!("{mark} {:width$}  {}\n", c.name, c.detail));
            if let Some(fix) = &c.fix {
                text.push_str(&format!("      {:width$}  → {fix}\n", ""));
            }
        }
        crate::cli::out(&text);
        if broken {
            eprintln!(
                "{} something above is broken; see the arrows",
                paint("error:", "31")
            );
        }
    }
    Ok(ExitCode::from(if broken { exit::ERROR } else { exit::OK }))
}

/// What keeps an installed agent hook from running (the agent's own trust)
/// or lets it fail open (an older command), for the project's hooks and
/// the user's. Nothing is said of agents without our hook.
fn agent_checks() -> Vec<Check> {
    let mut out = Vec::new();
    for (scope, suffix) in [(ScopeArg::Project, ""), (ScopeArg::User, " (user)")] {
        // Outside a repository, or without HOME: nothing of that scope to check.
        let Ok(found) = agent_hooks::findings(scope) else {
            continue;
        };
        out.extend(found.into_iter().map(|f| Check {
            name: format!("agent {}{suffix}", f.agent.name()),
            level: match f.level {
                trust::Level::Ok => Level::Ok,
                trust::Level::Info => Level::Info,
                trust::Level::Warn => Level::Warn,
            },
            detail: f.detail,
            fix: f.fix,
        }));
    }
    out
}
