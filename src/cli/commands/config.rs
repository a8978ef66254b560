//! `git fararoni config`: every setting's effective value and its origin.

use std::process::ExitCode;

use clap::Args;

use crate::cli::error::CliError;
use crate::cli::util::{cwd, warn};
use crate::git::Repo;
use crate::settings::{self, PROTECTIVE};

/// Show every git-fararoni setting, its effective value and where it came from
///
/// Settings are read from git config (`git config fararoni.KEY VALUE`, at
/// any level: system, global, repository, worktree, `git -c`, includes)
/// and overridden by `FARARONI_*` environment variables. The origin is
/// `default`, `environment (VAR)` or the git scope and file. A
/// `fararoni.*` key no setting reads is warned about with the nearest
/// valid key; a protective value weaker than its bound is warned about and
/// the bound used.
#[derive(Debug, Args)]
pub(crate) struct ConfigArgs {
    /// Print {"settings": [...], "unknown": [...]} as JSON
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: ConfigArgs) -> Result<ExitCode, CliError> {
    let repo = Repo::discover(&cwd()?).ok().flatten();
    let loaded = settings::of(repo.as_ref());
    let (resolved, unknown) = (loaded.resolved(), loaded.unknown());
    let mut warnings = Vec::new();
    for p in PROTECTIVE {
        if let Err(e) = crate::settings::read::protective_value(loaded, p, &mut warnings) {
            warn(&e);
        }
    }
    for w in &warnings {
        warn(w);
    }
    for u in unknown {
        let near = u
            .nearest
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        warn(&format!(
            "unknown setting `{}` in {}{near}",
            u.key, u.origin
        ));
    }
    if args.json {
        crate::cli::out(&format!(
            "{}\n",
            serde_json::json!({ "settings": resolved, "unknown": unknown })
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let width = resolved.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for r in &resolved {
        let set = r.value.as_deref().unwrap_or("(unset)");
        // A weaker protective value is shown with the bound used instead.
        let value = match warnings.iter().find(|w| w.key == r.name) {
            Some(w) => format!("{} (set to {set})", w.used),
            None => set.to_string(),
        };
        text.push_str(&format!("{:width$}  {value:<12} {}\n", r.name, r.origin));
    }
    crate::cli::out(&text);
    Ok(ExitCode::SUCCESS)
}
