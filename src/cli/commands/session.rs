//! `git fararoni session list|show [ID]`: what each agent run did.

use std::process::ExitCode;

use clap::Subcommand;
use serde_json::Value;

use crate::agent::session_log;
use crate::cli::error::CliError;

/// Show what agent runs did: requests, tool calls and verdicts, rejections, writes, commits
#[derive(Debug, Subcommand)]
pub(crate) enum SessionCommand {
    /// List the agent runs of this repository, oldest first
    List {
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Show one run, event by event (the newest without ID)
    Show {
        /// Print the events as JSON
        #[arg(long)]
        json: bool,
        /// The session id (see `session list`)
        id: Option<String>,
    },
}

fn git_dir() -> Result<std::path::PathBuf, CliError> {
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::user("the current directory is not accessible").caused_by(&e))?;
    let repo = crate::git::Repo::discover(&cwd)
        .map_err(|e| CliError::user("could not read the repository").caused_by(&e))?
        .ok_or_else(|| {
            CliError::user(format!(
                "not a git repository (or any parent up to the root): `{}`",
                cwd.display()
            ))
            .hint("run it inside a git repository's working tree; agent runs are logged per repository")
        })?;
    Ok(repo.git_dir().to_path_buf())
}

pub(crate) fn run(cmd: SessionCommand) -> Result<ExitCode, CliError> {
    let dir = git_dir()?;
    match cmd {
        SessionCommand::List { json } => {
            let all = session_log::list(&dir)
                .map_err(|e| CliError::user("could not read the session logs").caused_by(&e))?;
            if json {
                crate::cli::out(&format!(
                    "{}\n",
                    serde_json::to_string(&all).unwrap_or_default()
                ));
            } else if all.is_empty() {
                crate::cli::out("no agent runs recorded\n");
            } else {
                let mut s = String::new();
                for x in &all {
                    s.push_str(&format!(
                        "{}  {}  {} tool calls, {} rejected, {} writes, {} commits  {}  {}\n",
                        x.id,
                        x.started,
                        x.tool_calls,
                        x.rejections,
                        x.writes,
                        x.commits,
                        x.outcome.as_deref().unwrap_or("unfinished"),
                        x.request.chars().take(60).collect::<String>()
                    ));
                }
                crate::cli::out(&s);
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionCommand::Show { json, id } => {
            let Some((id, path)) = session_log::find(&dir, id.as_deref())
                .map_err(|e| CliError::user("could not read the session logs").caused_by(&e))?
            else {
                return Err(CliError::user("no such agent session")
                    .hint("`git fararoni session list` shows the recorded runs"));
            };
            let events = session_log::read(&path).map_err(|e| {
                CliError::user(format!("could not read `{}`", path.display())).caused_by(&e)
            })?;
            if json {
                crate::cli::out(&format!("{}\n", Value::Array(events)));
                return Ok(ExitCode::SUCCESS);
            }
            let mut s = format!("session {id}\n");
            for e in &events {
                s.push_str(&render(e));
            }
            crate::cli::out(&s);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// One event as a line for a person.
fn render(e: &Value) -> String {
    let t = e["t"].as_str().or(e["time"].as_str()).unwrap_or("");
    let str_of = |k: &str| e[k].as_str().unwrap_or("").to_string();
    let line = match e["kind"].as_str().unwrap_or("") {
        "request" => format!("request: {}", str_of("text")),
        "directive" => format!("directive for {}", str_of("state")),
        "response" => {
            let calls = e["tool_calls"].as_array().map_or(0, Vec::len);
            let extracted = e["extracted"].as_u64().unwrap_or(0);
            let mut l = match (calls, extracted) {
                (0, 0) => format!("model answered: {}", one_line(&str_of("content"), 80)),
                (0, n) => format!("model printed {n} tool call(s) as text"),
                (n, _) => format!("model called {n} tool(s)"),
            };
            let u = &e["usage"];
            if let Some(p) = u["prompt_tokens"].as_u64().filter(|p| *p > 0) {
                l.push_str(&format!(
                    " ({p} prompt tokens, {} cached, {} generated)",
                    u["cached_tokens"].as_u64().unwrap_or(0),
                    u["completion_tokens"].as_u64().unwrap_or(0)
                ));
            }
            l
        }
        "repair" => match e["arguments"].as_array() {
            Some(args) => format!(
                "repaired the arguments of {}: {}",
                str_of("tool"),
                args.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            None => format!(
                "repaired the tool name {} → {}",
                str_of("name"),
                str_of("tool")
            ),
        },
        "rejection" => format!(
            "rejected {} in {}: {}",
            str_of("tool"),
            str_of("state"),
            one_line(&str_of("why"), 160)
        ),
        "tool" => {
            let mut l = format!(
                "{} {} — {}",
                str_of("tool"),
                one_line(&str_of("target"), 100),
                str_of("verdict")
            );
            if let Some(v) = e["wrote"]["shadow"].as_u64() {
                l.push_str(&format!(" (shadow v{v})"));
            }
            if let Some(c) = e["commit"].as_str() {
                l.push_str(&format!(
                    " (commit {})",
                    c.chars().take(12).collect::<String>()
                ));
            }
            l
        }
        "saga" => format!(
            "saga {} on {} (from {})",
            str_of("id"),
            str_of("wip"),
            str_of("original")
        ),
        "dirty_snapshot" => format!(
            "saved {} changed file(s) to the shadow store before the first tool",
            e["saved"].as_u64().unwrap_or(0)
        ),
        "context" => format!(
            "replaced {} old tool result(s) by a note to fit the context",
            e["replaced_tool_results"].as_u64().unwrap_or(0)
        ),
        "model_error" => format!("the model failed: {}", str_of("error")),
        "end" => format!(
            "end: {} after {} model call(s)",
            str_of("outcome"),
            e["calls"]
        ),
        other => {
            // Events of other writers (the guard hook): their fields as
            // `key=value`, strings unquoted.
            let fields: Vec<String> = e
                .as_object()
                .map(|o| {
                    o.iter()
                        .filter(|(k, _)| !matches!(k.as_str(), "t" | "time" | "kind"))
                        .map(|(k, v)| match v.as_str() {
                            Some(s) => format!("{k}={}", one_line(s, 100)),
                            None => format!("{k}={v}"),
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!("{other}: {}", fields.join(", "))
        }
    };
    format!("{t}  {line}\n")
}

/// The first line of `s`, at most `max` characters, `…` when cut.
fn one_line(s: &str, max: usize) -> String {
    let first = s.lines().next().unwrap_or("");
    let mut out: String = first.chars().take(max).collect();
    if first.chars().count() > max || s.lines().nth(1).is_some() {
        out.push('…');
    }
    out
}
