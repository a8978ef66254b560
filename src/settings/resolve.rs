//! Where a setting's value comes from ([`Source`]), and the one pass over
//! git's own configuration (system, global, repository, worktree, `git -c`,
//! with includes, as gix resolves it) that [`super::Settings`] is built from.

use std::path::PathBuf;

use serde::Serialize;

use crate::git::Repo;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum Source {
    /// Not set anywhere: the default applies (or nothing).
    Default,
    /// An environment variable.
    Environment {
        /// Its name.
        variable: &'static str,
    },
    /// A git configuration file, or `git -c`.
    Git {
        /// `system`, `global`, `local`, `worktree` or `command`, as
        /// `git config --show-scope` says.
        scope: &'static str,
        /// The file (an included file names itself), if any.
        file: Option<PathBuf>,
    },
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::Environment { variable } => write!(f, "environment ({variable})"),
            Source::Git {
                scope,
                file: Some(file),
            } => write!(f, "{scope} ({})", file.display()),
            Source::Git { scope, file: None } => write!(f, "{scope}"),
        }
    }
}

/// One setting's effective value.
#[derive(Debug, Clone, Serialize)]
pub struct Resolved {
    /// The git config key, or the variable of an environment-only setting.
    pub name: &'static str,
    /// The variable that overrides it.
    pub env: &'static str,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The value as set, or the default; `None` when neither. Secrets show
    /// as `(set)`.
    pub value: Option<String>,
    /// Where it came from.
    pub origin: Source,
    /// The bound, for protective settings (`≥ 0.20`).
    pub bound: Option<String>,
    /// The one-line doc.
    pub doc: &'static str,
}

/// A `fararoni.*` key in git config that no setting reads.
#[derive(Debug, Clone, Serialize)]
pub struct Unknown {
    /// The key as written.
    pub key: String,
    /// Where it is set.
    pub origin: Source,
    /// The valid key it is probably a typo of.
    pub nearest: Option<&'static str>,
}

fn scope(source: gix::config::Source) -> &'static str {
    use gix::config::Source::*;
    match source {
        GitInstallation | System => "system",
        Git | User => "global",
        Local => "local",
        Worktree => "worktree",
        Env | Cli | Api | EnvOverride => "command",
    }
}

/// Every `fararoni.*` value in git config, in the order git reads them
/// (later ones win), with where each is set.
pub(crate) fn git_values(repo: Option<&Repo>) -> Vec<(String, String, Source)> {
    let mut values = match repo {
        Some(r) => collect(r.gix().config_snapshot().plumbing()),
        None => gix::config::File::from_globals()
            .map(|f| collect(&f))
            .unwrap_or_default(),
    };
    // `git -c`, which gix does not read: last, so it wins, as in git.
    for (key, value) in crate::git::repo::command_line_config() {
        if key.to_ascii_lowercase().starts_with("fararoni.") {
            let origin = Source::Git {
                scope: "command",
                file: None,
            };
            values.push((key, value.unwrap_or_else(|| "true".into()), origin));
        }
    }
    values
}

fn collect(file: &gix::config::File) -> Vec<(String, String, Source)> {
    let mut out = Vec::new();
    for section in file.sections() {
        let header = section.header();
        if !header.name().eq_ignore_ascii_case(b"fararoni") {
            continue;
        }
        let prefix = match header.subsection_name() {
            Some(sub) => format!("fararoni.{sub}."),
            None => "fararoni.".to_string(),
        };
        let meta = section.meta();
        let origin = Source::Git {
            scope: scope(meta.source),
            file: meta.path.clone(),
        };
        for name in section.body().value_names() {
            for value in section.body().values(&name) {
                out.push((format!("{prefix}{name}"), value.to_string(), origin.clone()));
            }
        }
    }
    out
}
