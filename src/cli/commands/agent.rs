//! Rendering the model levels of `ask` (the cascade itself is
//! [`crate::agent::cascade`]): a spinner while a model is waited for, the
//! model's text live on a terminal, one line per tool call, the answer and
//! a summary or one JSON object, and the saga finish offer. Also the hidden
//! `agent-replay` command, which runs the same cascade against a scripted
//! model for the binary-level tests.

use std::cell::RefCell;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use clap::Args;
use serde_json::{json, Value};

use crate::agent::cascade::{self, Made, NoModel, Summary};
use crate::agent::run::AgentEvent;
use crate::agent::script::{ScriptedClient, Shared};
use crate::cli::error::{CliError, ErrorKind};
use crate::cli::ui::Spinner;

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

/// The terminal side of the cascade: a spinner until a model answers,
/// level 4/5 text live on a terminal, level 3's [`View`].
struct Screen {
    json: bool,
    live: bool,
    spinner: Option<Spinner>,
    view: View,
}

impl Screen {
    fn new(opts: &CascadeOptions) -> Screen {
        let live = !opts.json && std::io::stdout().is_terminal();
        Screen {
            json: opts.json,
            live,
            spinner: None,
            view: View {
                json: opts.json,
                verbose: opts.verbose,
                live,
                open_line: false,
                tools: Vec::new(),
            },
        }
    }

    fn stop_spinner(&mut self) {
        if let Some(mut s) = self.spinner.take() {
            s.stop();
        }
    }
}

impl cascade::Sink for Screen {
    fn waiting(&mut self) {
        self.stop_spinner();
        self.spinner = Some(Spinner::start("waiting for the model…", !self.json));
    }

    fn text(&mut self, text: &str) -> bool {
        self.stop_spinner();
        if self.live && !text.is_empty() {
            crate::cli::out(text);
            return true;
        }
        false
    }

    fn text_done(&mut self) {
        // Already on the screen: end its line, print it once.
        crate::cli::out("\n");
    }

    fn agent(&mut self, event: AgentEvent<'_>) {
        self.stop_spinner();
        self.view.show(event);
    }

    fn level3_done(&mut self, answer_streamed: bool) -> (bool, Vec<Value>) {
        self.stop_spinner();
        self.view.end_line();
        (
            self.view.live && answer_streamed,
            std::mem::take(&mut self.view.tools),
        )
    }

    fn note(&mut self, line: &str) {
        if !self.json {
            eprintln!("fararoni: {line}");
        }
    }
}

/// Runs the model levels for `request` typed in `cwd` and renders them.
pub(crate) fn cascade(
    request: &str,
    cwd: &Path,
    opts: CascadeOptions,
    make: &mut dyn FnMut(u8) -> Result<Made, NoModel>,
) -> Result<ExitCode, CliError> {
    let mut screen = Screen::new(&opts);
    let run = cascade::Options {
        level: opts.level,
        verbose: opts.verbose,
        trail: opts.trail.clone(),
    };
    let cascade::Outcome {
        produced,
        mut summary,
        failures,
        hints,
        trail,
    } = cascade::cascade(request, cwd, run, make, &mut screen);
    screen.stop_spinner();
    finish_saga(cwd, &opts, &mut summary);
    if opts.verbose && !opts.json {
        for line in &trail {
            eprintln!("fararoni: {line}");
        }
    }
    if opts.json {
        let value = json!({
            "level": produced.as_ref().map(|p| p.level),
            "outcome": produced.as_ref().map(|p| p.outcome.clone()),
            "answer": produced.as_ref().map(|p| p.answer.clone()),
            "reasoning": if opts.show_thinking { produced.as_ref().and_then(|p| p.reasoning.clone()) } else { None },
            "trail": trail,
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

/// The models of a real `ask` ([`cascade::http_models`]).
pub(crate) fn http_models(cwd: &Path) -> impl FnMut(u8) -> Result<Made, NoModel> + '_ {
    cascade::http_models(cwd)
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
    let mut make = move |level: u8| -> Result<Made, NoModel> {
        Ok(Made {
            client: Box::new(handle.clone()),
            base_url: base.clone(),
            sampling: cascade::sampling_of(&cascade::level_settings(
                crate::git::Repo::discover(&here).ok().flatten().as_ref(),
                cascade::model_level(level),
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
