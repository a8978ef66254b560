//! The model levels of `ask`: level 3 (tools) → 4 (thinking) → 5 (plain),
//! each tried when the one before yields nothing usable; what the user
//! sees (one line per tool call, the answer, a summary) and the saga
//! finish offer. Also the hidden `agent-replay` command, which runs the
//! same cascade against a scripted model for the binary-level tests.

use std::cell::RefCell;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{json, Value};

use crate::agent::client::{LlmClient, LlmError, ToolMode, Usage};
use crate::agent::levels::Sampling;
use crate::agent::run::{AgentEvent, RunConfig};
use crate::agent::script::{ScriptedClient, Shared};
use crate::agent::tools::{Limits, Workspace};
use crate::agent::{levels, secrets};
use crate::cli::error::{CliError, ErrorKind};
use crate::shadow::Session;

/// How the cascade runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct CascadeOptions {
    /// Only this level (3, 4 or 5).
    pub level: Option<u8>,
    /// One JSON object on stdout.
    pub json: bool,
    /// The trail and tool mode on stderr.
    pub verbose: bool,
    /// Show level 4's reasoning.
    pub show_thinking: bool,
    /// Finish a saga the run committed into without asking.
    pub yes: bool,
    /// The router's trail so far.
    pub trail: Vec<String>,
}

/// A model for one level, the base URL it talks to (for the loopback rule
/// on secrets) and how the level samples (its own settings rows).
pub(crate) struct Made {
    /// The model.
    pub client: Box<dyn LlmClient>,
    /// Its base URL.
    pub base_url: String,
    /// `fararoni.<level>.maxTokens` and `.temperature`.
    pub sampling: Sampling,
}

/// What one level produced.
struct Produced {
    level: u8,
    /// The answer was already shown as it streamed.
    streamed: bool,
    answer: String,
    reasoning: Option<String>,
    outcome: String,
}

/// Everything the run did, for the summary and `--json`.
#[derive(Default)]
struct Summary {
    tools: Vec<Value>,
    files: Vec<Value>,
    shadows: usize,
    saga: Option<String>,
    saga_state: Option<String>,
    usage: Usage,
    times: Vec<(u8, Duration)>,
    session: Option<String>,
    log: Option<PathBuf>,
}

fn note(opts: &CascadeOptions, line: &str) {
    if !opts.json {
        eprintln!("fararoni: {line}");
    }
}

/// Runs the model levels for `request` typed in `cwd`.
pub(crate) fn cascade(
    request: &str,
    cwd: &Path,
    mut opts: CascadeOptions,
    make: &mut dyn FnMut(u8) -> Result<Made, CliError>,
) -> Result<ExitCode, CliError> {
    let repo = crate::git::Repo::discover(cwd).ok().flatten();
    let settings = crate::settings::read::agent_settings(crate::settings::of(repo.as_ref()));
    let levels: Vec<u8> = match opts.level {
        Some(l) => vec![l],
        None => vec![3, 4, 5],
    };
    let mut summary = Summary::default();
    let mut failures: Vec<String> = Vec::new();
    let mut hints: Vec<String> = Vec::new();
    let mut produced: Option<Produced> = None;
    for level in levels {
        let started = Instant::now();
        let mut made = match make(level) {
            Ok(m) => m,
            Err(e) => {
                opts.trail
                    .push(format!("L{level}: no model: {}", e.message));
                failures.push(format!("level {level}: {}", e.message));
                // A level's own hint (a bad model file says how to fix it)
                // is worth more than the generic one below.
                for h in e.hints {
                    if !hints.contains(&h) {
                        hints.push(h);
                    }
                }
                continue;
            }
        };
        let result = match level {
            3 => level3(&mut made, request, cwd, &settings, &opts, &mut summary),
            _ => {
                // Levels 4 and 5 answer in plain text: shown as it arrives on
                // a terminal (never with --json), after a spinner.
                let live = !opts.json && std::io::stdout().is_terminal();
                let mut spinner =
                    crate::cli::ui::Spinner::start("waiting for the model…", !opts.json);
                let mut shown = false;
                let mut sink = |t: &str| {
                    spinner.stop();
                    if live && !t.is_empty() {
                        crate::cli::out(t);
                        shown = true;
                    }
                };
                let r = levels::answer(&mut *made.client, level, request, made.sampling, &mut sink);
                spinner.stop();
                if shown {
                    // Already on the screen: end its line, print it once.
                    crate::cli::out("\n");
                }
                r.map(|a| {
                    (!a.text.trim().is_empty()).then(|| Produced {
                        level,
                        streamed: shown,
                        answer: a.text,
                        reasoning: a.reasoning,
                        outcome: "answered".into(),
                    })
                })
                .map_err(|e| e.to_string())
            }
        };
        summary.times.push((level, started.elapsed()));
        match result {
            Ok(Some(p)) => {
                opts.trail
                    .push(format!("L{level}: answered ({})", p.outcome));
                produced = Some(p);
                break;
            }
            Ok(None) => {
                opts.trail
                    .push(format!("L{level}: nothing usable; falling through"));
                failures.push(format!("level {level}: no usable answer"));
            }
            Err(why) => {
                opts.trail
                    .push(format!("L{level}: the model failed: {why}"));
                failures.push(format!("level {level}: {why}"));
            }
        }
    }
    finish_saga(cwd, &opts, &mut summary);
    if opts.verbose && !opts.json {
        for line in &opts.trail {
            eprintln!("fararoni: {line}");
        }
    }
    if opts.json {
        let value = json!({
            "level": produced.as_ref().map(|p| p.level),
            "outcome": produced.as_ref().map(|p| p.outcome.clone()),
            "answer": produced.as_ref().map(|p| p.answer.clone()),
            "reasoning": if opts.show_thinking { produced.as_ref().and_then(|p| p.reasoning.clone()) } else { None },
            "trail": opts.trail,
            "tool_calls": summary.tools,
            "files": summary.files,
            "shadows": summary.shadows,
            "saga": summary.saga,
            "saga_state": summary.saga_state,
            "session": summary.session,
            "tokens": {"prompt": summary.usage.prompt_tokens, "completion": summary.usage.completion_tokens, "cached": summary.usage.cached_tokens},
            "ms": summary.times.iter().map(|(l, d)| (format!("L{l}"), json!(d.as_millis() as u64))).collect::<serde_json::Map<_, _>>(),
            "failures": failures,
        });
        crate::cli::out(&format!("{value}\n"));
    } else {
        if let Some(p) = &produced {
            if opts.show_thinking {
                if let Some(r) = &p.reasoning {
                    crate::cli::out(&format!("<think>\n{r}\n</think>\n"));
                }
            }
            if !p.answer.trim().is_empty() && !p.streamed {
                crate::cli::out(&format!("{}\n", p.answer.trim_end()));
            }
        }
        print_summary(&summary, produced.as_ref().map(|p| p.level));
    }
    match produced {
        Some(_) => Ok(ExitCode::SUCCESS),
        None => {
            let mut err = CliError::new(
                ErrorKind::ModelUnavailable,
                format!(
                    "the model levels (3–5) produced no answer: {}",
                    failures.join("; ")
                ),
            );
            for h in hints {
                err = err.hint(h);
            }
            Err(err.hint("check that the model server runs and the model name is right (`git config fararoni.llm.baseUrl`, `fararoni.llm.model`); `-v` shows the trail"))
        }
    }
}

fn print_summary(s: &Summary, level: Option<u8>) {
    let mut parts = Vec::new();
    if let Some(l) = level {
        parts.push(format!("level {l}"));
    }
    if !s.files.is_empty() {
        let names: Vec<&str> = s.files.iter().filter_map(|f| f["path"].as_str()).collect();
        parts.push(format!("files changed: {}", names.join(", ")));
    }
    if s.shadows > 0 {
        parts.push(format!("shadows: {}", s.shadows));
    }
    if let (Some(id), Some(state)) = (&s.saga, &s.saga_state) {
        parts.push(format!("saga {id}: {state}"));
    }
    if s.usage.prompt_tokens + s.usage.completion_tokens > 0 {
        parts.push(format!(
            "tokens: {} in ({} cached), {} out",
            s.usage.prompt_tokens, s.usage.cached_tokens, s.usage.completion_tokens
        ));
    }
    let times: Vec<String> = s
        .times
        .iter()
        .map(|(l, d)| format!("L{l} {:.1}s", d.as_secs_f64()))
        .collect();
    if !times.is_empty() {
        parts.push(format!("time: {}", times.join(", ")));
    }
    if let Some(id) = &s.session {
        parts.push(format!(
            "session {id} (`git fararoni session show {id}`, `git fararoni undo --session {id}`)"
        ));
    }
    eprintln!("fararoni: {}", parts.join("; "));
}

fn level3(
    made: &mut Made,
    request: &str,
    cwd: &Path,
    settings: &crate::settings::read::AgentSettings,
    opts: &CascadeOptions,
    summary: &mut Summary,
) -> Result<Option<Produced>, String> {
    let limits = Limits {
        remote: !secrets::is_loopback(&made.base_url),
        send_secrets: settings.send_secrets,
        build_timeout: Duration::from_secs(settings.build_timeout_secs),
        command_timeout: Duration::from_secs(settings.command_timeout_secs),
        ..Limits::default()
    };
    let session = Session::fresh("agent");
    let mut ws = match Workspace::open(cwd, session.clone(), limits) {
        Ok(ws) => ws,
        Err(e) => return Err(format!("level 3 needs a repository's working tree: {e}")),
    };
    summary.session = Some(session.id().to_string());
    summary.log = Some(ws.log().path().to_path_buf());
    // Tools are offered; how (native, prompted, constrained) is the
    // client's choice (`fararoni.llm.toolMode` or its `auto` reading of
    // the server), reported after the run.
    let mode = ToolMode::Native;
    let cfg = RunConfig {
        max_depth: settings.max_depth,
        mode,
        max_tokens: made.sampling.max_tokens,
        temperature: made.sampling.temperature,
        // `fararoni.llm.contextTokens` when set (the client reports it),
        // else the server's own window (llama.cpp's `/props`), else 8192.
        context_tokens: made
            .client
            .server_info()
            .ok()
            .and_then(|i| i.context_tokens)
            .unwrap_or(settings.context_tokens),
    };
    let mut view = View {
        json: opts.json,
        verbose: opts.verbose,
        live: !opts.json && std::io::stdout().is_terminal(),
        open_line: false,
        tools: Vec::new(),
    };
    let mut spinner = crate::cli::ui::Spinner::start("waiting for the model…", !opts.json);
    let mut on = |e: AgentEvent<'_>| {
        spinner.stop();
        view.show(e);
    };
    let client = &mut *made.client;
    let result = crate::agent::run::run(client, &mut ws, request, &cfg, &mut on);
    spinner.stop();
    view.end_line();
    let streamed = view.live && result.as_ref().is_ok_and(|r| r.answer_streamed);
    let produced = finish_level3(result, client, ws, opts, summary, view.tools)?;
    Ok(produced.map(|p| Produced { streamed, ..p }))
}

/// What the user sees of level 3 as it runs: the model's text live (on a
/// terminal), one line per tool call, rejection and repair, and under
/// `-v` the tokens of each model call; the calls are kept for `--json`.
struct View {
    json: bool,
    verbose: bool,
    live: bool,
    /// Text was shown and its line is not ended yet.
    open_line: bool,
    tools: Vec<Value>,
}

impl View {
    fn show(&mut self, e: AgentEvent<'_>) {
        let prints_a_line = match e {
            AgentEvent::Text(_) => false,
            AgentEvent::Replied { .. } => self.verbose && !self.json,
            _ => !self.json,
        };
        if prints_a_line {
            self.end_line();
        }
        match e {
            AgentEvent::Text(t) => {
                if self.live {
                    crate::cli::out(t);
                    self.open_line = !t.ends_with('\n');
                }
            }
            AgentEvent::Tool {
                tool,
                target,
                verdict,
            } => {
                if !self.json {
                    eprintln!("  {tool} {} — {verdict}", one_line(target));
                }
                self.tools
                    .push(json!({"tool": tool, "target": target, "verdict": verdict}));
            }
            AgentEvent::Rejected { tool, why } => {
                if !self.json {
                    eprintln!("  {tool} — rejected: {}", one_line(why));
                }
                self.tools
                    .push(json!({"tool": tool, "verdict": "rejected", "why": why}));
            }
            AgentEvent::Repaired(what) => {
                if !self.json {
                    eprintln!("  (repaired {what})");
                }
            }
            AgentEvent::Replied { call, usage } => {
                if self.verbose && !self.json {
                    eprintln!(
                        "fararoni: model call {call}: {} prompt tokens ({} cached), {} generated",
                        usage.prompt_tokens, usage.cached_tokens, usage.completion_tokens
                    );
                }
            }
        }
    }

    /// Ends a line of live text before anything else is printed.
    fn end_line(&mut self) {
        if self.open_line {
            crate::cli::out("\n");
            self.open_line = false;
        }
    }
}

/// What level 3 produced, once its loop has ended.
fn finish_level3(
    result: Result<crate::agent::run::RunReport, LlmError>,
    client: &mut dyn LlmClient,
    ws: Workspace,
    opts: &CascadeOptions,
    summary: &mut Summary,
    tools: Vec<Value>,
) -> Result<Option<Produced>, String> {
    if opts.verbose {
        if let Some(choice) = client.tool_mode_choice() {
            note(
                opts,
                &format!(
                    "level 3: tool mode {} ({})",
                    format!("{:?}", choice.mode).to_lowercase(),
                    choice.reason
                ),
            );
        }
    }
    summary.tools = tools;
    summary.files = ws
        .changed()
        .iter()
        .map(|w| serde_json::to_value(w).unwrap_or(Value::Null))
        .collect();
    summary.shadows += ws.shadows();
    summary.saga = ws.saga().map(String::from);
    let report = result.map_err(|e| e.to_string())?;
    summary.usage = report.usage;
    if report.usable(!ws.changed().is_empty()) {
        let answer = if report.answer.trim().is_empty()
            || report.outcome != crate::agent::run::Outcome::Answered
        {
            match report.outcome {
                crate::agent::run::Outcome::Completed => {
                    "The change is made and the build passes.".to_string()
                }
                other => format!("Level 3 stopped ({}) after changing files.", other.as_str()),
            }
        } else {
            report.answer.clone()
        };
        Ok(Some(Produced {
            level: 3,
            streamed: false,
            answer,
            reasoning: None,
            outcome: report.outcome.as_str().into(),
        }))
    } else {
        Ok(None)
    }
}

fn one_line(s: &str) -> String {
    let first = s.lines().next().unwrap_or("");
    let mut out: String = first.chars().take(100).collect();
    if first.chars().count() > 100 || s.lines().nth(1).is_some() {
        out.push('…');
    }
    out
}

/// After a run that committed into a saga: `--yes` finishes it; on a
/// terminal the user is asked; otherwise it stays open and we say how to
/// finish it.
fn finish_saga(cwd: &Path, opts: &CascadeOptions, summary: &mut Summary) {
    let Some(id) = summary.saga.clone() else {
        return;
    };
    let answer = if opts.json && !opts.yes {
        crate::cli::ui::Confirm::NoTerminal
    } else {
        crate::cli::ui::confirm(
            &format!("fararoni: the run committed into saga {id}; squash it onto your branch now?"),
            opts.yes,
        )
    };
    if answer == crate::cli::ui::Confirm::Yes {
        let fin = crate::saga::finish(
            cwd,
            &crate::saga::FinishOptions {
                agent: true,
                ..Default::default()
            },
        );
        summary.saga_state = Some(match fin {
            Ok(crate::saga::Finished::Landed { branch, commit, .. }) => format!(
                "finished onto {branch} as {}",
                &commit[..commit.len().min(12)]
            ),
            Ok(crate::saga::Finished::NothingToMerge { branch, .. }) => {
                format!("finished; nothing to merge onto {branch}")
            }
            Err(e) => format!("left open: finishing failed ({e}); run `git fararoni saga finish`"),
        });
    } else {
        summary.saga_state = Some("left open: run `git fararoni saga finish` to squash it onto your branch, or `git fararoni saga abort`".into());
    }
}

/// The models of a real `ask`: an [`HttpClient`] per level (3 tools, 4
/// thinking, 5 fallback), each from its own `fararoni.<level>.*` keys with
/// `fararoni.llm.*` filling what a level leaves unset. Nothing is built (no
/// runtime, no connection) until a level is reached.
pub(crate) fn http_models(cwd: &Path) -> impl FnMut(u8) -> Result<Made, CliError> + '_ {
    move |level| {
        let repo = crate::git::Repo::discover(cwd).ok().flatten();
        let which = model_level(level);
        let settings = level_settings(repo.as_ref(), which)?;
        let server = settings.base_url.clone();
        let sampling = sampling_of(&settings);
        let made = |client, base_url| Made {
            client,
            base_url,
            sampling,
        };
        match crate::agent::local::client_for(repo.as_ref(), which, settings) {
            // The loopback rule on secrets: a model in this process is as
            // local as one on loopback.
            Ok(Some(c)) if c.in_process => {
                Ok(made(c.client, "http://127.0.0.1/in-process".into()))
            }
            Ok(Some(c)) => Ok(made(c.client, server)),
            Ok(None) => Err(CliError::new(
                ErrorKind::ModelUnavailable,
                "no model is configured for this request",
            )
            .hint("set one with `git config --global fararoni.llm.model NAME` (and `fararoni.llm.baseUrl URL` unless Ollama's `http://127.0.0.1:11434/v1` fits), or a model file with `fararoni.llm.gguf PATH` in a build with `--features local-llm`")),
            Err(e) => {
                let hint = e.hint();
                Err(CliError::wrap(ErrorKind::ModelUnavailable, &e).hint(hint))
            }
        }
    }
}

/// Which settings group model level `level` reads (3 tools, 4 thinking,
/// 5 fallback).
fn model_level(level: u8) -> crate::settings::read::ModelLevel {
    use crate::settings::read::ModelLevel;
    match level {
        4 => ModelLevel::Thinking,
        5 => ModelLevel::Fallback,
        _ => ModelLevel::Tools,
    }
}

/// The settings of one model level.
fn level_settings(
    repo: Option<&crate::git::Repo>,
    which: crate::settings::read::ModelLevel,
) -> Result<crate::settings::read::ModelSettings, CliError> {
    crate::settings::read::model_settings(crate::settings::of(repo), which).map_err(|e| {
        CliError::wrap(ErrorKind::ModelUnavailable, &e)
            .hint("fix the value (`git fararoni config` shows where it is set)")
    })
}

fn sampling_of(s: &crate::settings::read::ModelSettings) -> Sampling {
    Sampling {
        max_tokens: s.max_tokens,
        temperature: s.temperature,
    }
}

/// Run the model levels against a scripted model (for tests)
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// A JSON array of replies: {"text"}, {"tool_calls": [{"name","arguments"}]}, {"think","text"} or {"error"}
    #[arg(long, value_name = "FILE")]
    script: PathBuf,
    /// Write every request the model received, as a JSON array, to FILE
    #[arg(long, value_name = "FILE")]
    requests: Option<PathBuf>,
    /// Pretend the model is at this base URL (for the loopback rule)
    #[arg(long, default_value = "http://127.0.0.1:1/v1")]
    base_url: String,
    /// Only this level
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=5))]
    level: Option<u8>,
    /// Print one JSON object
    #[arg(long)]
    json: bool,
    /// Print the trail on stderr
    #[arg(short, long)]
    verbose: bool,
    /// Show level 4's reasoning
    #[arg(long)]
    show_thinking: bool,
    /// Finish a saga the run committed into without asking
    #[arg(long)]
    yes: bool,
    /// The request
    #[arg(required = true, num_args = 1.., value_name = "REQUEST")]
    request: Vec<String>,
}

pub(crate) fn replay(args: ReplayArgs) -> Result<ExitCode, CliError> {
    let text = std::fs::read_to_string(&args.script).map_err(|e| {
        CliError::user(format!(
            "could not read the script `{}`",
            args.script.display()
        ))
        .caused_by(&e)
    })?;
    let client = ScriptedClient::from_json(&text).map_err(CliError::usage)?;
    let shared = Shared(Rc::new(RefCell::new(client)));
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::user("the current directory is not accessible").caused_by(&e))?;
    let base = args.base_url.clone();
    let handle = shared.clone();
    let here = cwd.clone();
    let mut make = move |level: u8| -> Result<Made, CliError> {
        Ok(Made {
            client: Box::new(handle.clone()),
            base_url: base.clone(),
            sampling: sampling_of(&level_settings(
                crate::git::Repo::discover(&here).ok().flatten().as_ref(),
                model_level(level),
            )?),
        })
    };
    let opts = CascadeOptions {
        level: args.level,
        json: args.json,
        verbose: args.verbose,
        show_thinking: args.show_thinking,
        yes: args.yes,
        trail: Vec::new(),
    };
    let result = cascade(&args.request.join(" "), &cwd, opts, &mut make);
    if let Some(path) = &args.requests {
        let requests = Value::Array(shared.0.borrow().requests().to_vec());
        std::fs::write(path, format!("{requests}\n")).map_err(|e| {
            CliError::user(format!("could not write `{}`", path.display())).caused_by(&e)
        })?;
    }
    result
}
