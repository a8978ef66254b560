//! `git fararoni doctor`: what is installed, configured and in progress,
//! each finding with what to do about it. Reads only; never prints.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::git::{GitCommand, Head, Repo};
use crate::hooks::git::{self as githooks, HookState};

/// How a finding stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Fine.
    Ok,
    /// Worth knowing; nothing is broken.
    Info,
    /// Works, but something should be done.
    Warn,
    /// Broken.
    Error,
}

/// One finding.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// What was checked (`git`, `hooks`, `model llm`…).
    pub name: String,
    /// How it stands.
    pub level: Level,
    /// What was found.
    pub detail: String,
    /// What to do, when something should be done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

fn check(name: &str, level: Level, detail: impl Into<String>, fix: Option<String>) -> Check {
    Check {
        name: name.to_string(),
        level,
        detail: detail.into(),
        fix,
    }
}

/// Which OS sandbox contains what the guard cannot judge here.
fn sandbox() -> Check {
    use crate::sandbox::Level as S;
    let probe = crate::sandbox::probe();
    let detail = format!("{probe}: {}", probe.level.guarantees());
    match probe.level {
        S::Full => check("sandbox", Level::Ok, detail, None),
        S::Landlock | S::SandboxExec => check(
            "sandbox",
            Level::Warn,
            detail,
            Some(format!("{}; with user namespaces the sandbox is complete", probe.reason())),
        ),
        S::None => check(
            "sandbox",
            Level::Error,
            detail,
            Some(format!(
                "{}: builds, scripts and unknown programs cannot be contained, so `git fararoni run` and our agent's builds refuse to run",
                probe.reason()
            )),
        ),
    }
}

/// How long a model endpoint may take to answer its model list.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// Runs every check for the repository containing `dir` (if any).
pub fn diagnose(dir: &Path) -> Vec<Check> {
    let mut out = vec![git_version(), sandbox()];
    let repo = match Repo::discover(dir) {
        Ok(Some(r)) => r,
        Ok(None) => {
            out.push(check(
                "repository",
                Level::Info,
                "not inside a git repository: only the global settings were checked",
                Some("run `git fararoni doctor` inside a repository to check its hooks, store and saga".into()),
            ));
            out.extend(unknown_settings(None));
            out.extend(endpoints(None));
            return out;
        }
        Err(e) => {
            out.push(check("repository", Level::Error, e.to_string(), None));
            return out;
        }
    };
    out.push(repository(&repo));
    out.extend(unknown_settings(Some(&repo)));
    out.extend(hooks(dir));
    out.extend(endpoints(Some(&repo)));
    out.push(store(&repo));
    out.push(saga(dir));
    out
}

/// `fararoni.*` keys no setting reads: probably typos, silently ignored.
fn unknown_settings(repo: Option<&Repo>) -> Vec<Check> {
    crate::settings::of(repo)
        .unknown()
        .iter()
        .map(|u| {
            check(
                "settings",
                Level::Warn,
                format!("`{}` in {} is not a git-fararoni setting", u.key, u.origin),
                Some(match u.nearest {
                    Some(n) => {
                        format!("did you mean `{n}`? (`git fararoni config` lists them all)")
                    }
                    None => "remove it; `git fararoni config` lists the settings".into(),
                }),
            )
        })
        .collect()
}

fn git_version() -> Check {
    match GitCommand::new(["--version"]).read() {
        Ok(v) => check("git", Level::Ok, v.trim().to_string(), None),
        Err(e) => check(
            "git",
            Level::Error,
            e.to_string(),
            Some("install git and make sure `git` is on PATH".into()),
        ),
    }
}

fn repository(repo: &Repo) -> Check {
    let Some(top) = repo.workdir() else {
        return check(
            "repository",
            Level::Warn,
            format!(
                "`{}` is a bare repository: nothing to guard",
                repo.git_dir().display()
            ),
            None,
        );
    };
    let head = match repo.head() {
        Ok(Head::Branch { name, .. }) => format!("on `{name}`"),
        Ok(Head::Unborn { name }) => format!("on `{name}` (no commit yet)"),
        Ok(Head::Detached { id }) => format!("detached at {}", &id[..id.len().min(12)]),
        Err(e) => format!("HEAD unreadable: {e}"),
    };
    match repo.in_progress() {
        Some(op) => check(
            "repository",
            Level::Warn,
            format!("{}, {head}, a {op} in progress", top.display()),
            Some(format!(
                "finish it (`git {op} --continue`) or abort it (`git {op} --abort`)"
            )),
        ),
        None => check(
            "repository",
            Level::Ok,
            format!("{}, {head}", top.display()),
            None,
        ),
    }
}

fn hooks(dir: &Path) -> Vec<Check> {
    let statuses = match githooks::status(dir) {
        Ok(s) => s,
        Err(e) => return vec![check("hooks", Level::Error, e.to_string(), None)],
    };
    let mut out = Vec::new();
    for s in &statuses {
        let name = format!("hook {}", s.name);
        let path = s.path.display();
        let by = s
            .manager
            .map(|m| format!(", managed by {m}"))
            .unwrap_or_default();
        out.push(match &s.state {
            HookState::Ours => check(&name, Level::Ok, format!("installed ({path})"), None),
            HookState::Chained => check(
                &name,
                Level::Ok,
                format!("installed inside the existing hook {path}{by}"),
                None,
            ),
            HookState::Absent => check(
                &name,
                Level::Warn,
                format!("not installed: {}", missing_means(s.name)),
                Some("git fararoni hooks install".into()),
            ),
            HookState::Foreign => check(
                &name,
                Level::Warn,
                format!("another hook is there without ours ({path}{by})"),
                Some("git fararoni hooks install (adds a block, keeps the hook)".into()),
            ),
            HookState::Unsupported { reason } => check(
                &name,
                Level::Warn,
                format!("{path}{by} cannot take ours: {reason}"),
                None,
            ),
        });
    }
    // Other hooks that run here, so their interplay is visible.
    if let Some(dir) = statuses.first().and_then(|s| s.path.parent()) {
        let mut others: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !n.ends_with(".sample") && !n.starts_with('.'))
            .filter(|n| !githooks::HOOKS.iter().any(|h| h.name == n))
            .collect();
        others.sort();
        if !others.is_empty() {
            out.push(check(
                "other hooks",
                Level::Info,
                format!("{} in {}", others.join(", "), dir.display()),
                None,
            ));
        }
    }
    out
}

/// What is lost without one of our hooks.
fn missing_means(hook: &str) -> &'static str {
    match hook {
        "pre-commit" => "a commit made by another tool or by hand is not checked for gutted files",
        _ => "leaving a saga's branch is not pointed out",
    }
}

fn endpoints(repo: Option<&Repo>) -> Vec<Check> {
    use crate::settings::read::{model_settings, ModelLevel};
    let mut out = Vec::new();
    for (name, level, prefix) in [
        ("model chat", ModelLevel::Chat, "fararoni.chat"),
        ("model llm", ModelLevel::Tools, "fararoni.llm"),
        ("model thinking", ModelLevel::Thinking, "fararoni.thinking"),
        ("model fallback", ModelLevel::Fallback, "fararoni.fallback"),
    ] {
        out.push(match model_settings(crate::settings::of(repo), level) {
            Err(e) => check(
                name,
                Level::Error,
                e.to_string(),
                Some("fix the value (`git fararoni config` shows where it is set)".into()),
            ),
            Ok(s) => match s.model {
                None => check(
                    name,
                    Level::Info,
                    "not configured",
                    Some(format!(
                        "set {prefix}.model (and {prefix}.baseUrl unless the default `{}` fits) with `git config --global KEY VALUE`",
                        crate::settings::read::DEFAULT_LLM_BASE_URL
                    )),
                ),
                Some(model) => probe_check(name, &s.base_url, &model, s.api_key.as_deref()),
            },
        });
    }
    out
}

fn probe_check(name: &str, base_url: &str, model: &str, api_key: Option<&str>) -> Check {
    match probe(base_url, api_key, PROBE_TIMEOUT) {
        Err(why) => check(
            name,
            Level::Error,
            format!("`{base_url}` is not reachable: {why}"),
            Some("start the model server, or fix the URL (`git fararoni config` shows where it is set)".into()),
        ),
        Ok(models) if models.is_empty() => check(
            name,
            Level::Warn,
            format!("`{base_url}` answers but lists no models; `{model}` may not be served"),
            None,
        ),
        Ok(models) if models.iter().any(|m| same_model(m, model)) => check(
            name,
            Level::Ok,
            format!("`{model}` at `{base_url}`"),
            None,
        ),
        Ok(models) => check(
            name,
            Level::Error,
            format!(
                "`{base_url}` does not serve `{model}` (it has: {})",
                models.iter().take(8).cloned().collect::<Vec<_>>().join(", ")
            ),
            Some(format!("pull or load `{model}` on the server, or set the model to one it has")),
        ),
    }
}

/// Whether a listed model id is the configured model (`llama3` is served
/// as `llama3:latest` by Ollama).
fn same_model(listed: &str, wanted: &str) -> bool {
    listed == wanted || listed.strip_suffix(":latest") == Some(wanted)
}

/// Asks an OpenAI-compatible server for its model list (`GET
/// BASE/models`): the ids, or why it could not be had. Self-contained on
/// purpose: it only needs to know whether the server is there.
pub fn probe(
    base_url: &str,
    api_key: Option<&str>,
    timeout: Duration,
) -> Result<Vec<String>, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let url = format!("{}/models", base_url.trim_end_matches('/'));
    runtime.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()
            .map_err(|e| e.to_string())?;
        let mut req = client.get(&url);
        if let Some(key) = api_key {
            req = req.bearer_auth(key);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| crate::text::chain::one_line(&e))?;
        let status = resp.status();
        if !status.is_success() {
            return Err(format!("`{url}` answered {status}"));
        }
        let value: serde_json::Value = resp.json().await.map_err(|e| e.to_string())?;
        Ok(value["data"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["id"].as_str().map(str::to_string))
            .collect())
    })
}

fn store(repo: &Repo) -> Check {
    let shadow = match crate::shadow::Shadow::open(repo) {
        Ok(s) => s,
        Err(e) => return check("shadow store", Level::Error, e.to_string(), None),
    };
    if !shadow.store_dir().exists() {
        return check(
            "shadow store",
            Level::Ok,
            "empty (nothing written through the guard yet)",
            None,
        );
    }
    let versions = match shadow.all_versions() {
        Ok(v) => v,
        Err(e) => {
            return check(
                "shadow store",
                Level::Error,
                e.to_string(),
                Some("the next guarded write moves a broken store aside and starts a new one; `git fararoni shadow list` shows what is readable".into()),
            )
        }
    };
    let count: usize = versions.values().map(Vec::len).sum();
    let bytes: u64 = versions.values().flatten().map(|v| v.size).sum();
    let journal = shadow.journal_entries();
    let limit = shadow.retention();
    let detail = format!(
        "{count} version(s) of {} file(s), {} (limit {} per file, {} in all)",
        versions.len(),
        human(bytes),
        limit.max_versions,
        human(limit.max_bytes)
    );
    match journal {
        Ok(_) => check("shadow store", Level::Ok, detail, None),
        Err(e) => check(
            "shadow store",
            Level::Error,
            format!("{detail}; the journal cannot be read: {e}"),
            Some("`git fararoni undo` needs the journal; the backups themselves are still listed by `git fararoni shadow list`".into()),
        ),
    }
}

fn human(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / (1u64 << 30) as f64),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}

fn saga(dir: &Path) -> Check {
    let status = match crate::saga::status(dir) {
        Ok(s) => s,
        Err(e) => return check("saga", Level::Error, e.to_string(), None),
    };
    if let Some(i) = &status.interrupted {
        return check(
            "saga",
            Level::Error,
            format!("interrupted {}: {}", i.operation.as_str(), i.explanation),
            i.next.first().cloned(),
        );
    }
    match &status.saga {
        None => check("saga", Level::Ok, "none active", None),
        Some(s) if status.on_saga_branch => check(
            "saga",
            Level::Info,
            format!(
                "`{}` active on `{}` ({} commit(s) over `{}`)",
                s.id,
                s.wip_branch,
                status.wip_commits.unwrap_or(0),
                s.original_branch
            ),
            Some("land it with `git fararoni saga finish`, or drop it with `git fararoni saga abort`".into()),
        ),
        Some(s) => check(
            "saga",
            Level::Warn,
            format!(
                "`{}` is active but HEAD is not on its branch `{}`",
                s.id, s.wip_branch
            ),
            Some(format!(
                "`git switch {}` to go on, or `git fararoni saga finish` / `git fararoni saga abort`",
                s.wip_branch
            )),
        ),
    }
}
