//! The model levels of `ask`: level 3 (tools) → 4 (thinking) → 5 (plain),
//! each tried when the one before yields nothing usable, and the model
//! factory they draw from. What the user sees (spinners, live text, one
//! line per tool call, the summary) is the caller's: the cascade reports
//! through a [`Sink`] and returns an [`Outcome`].

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::client::{LlmClient, LlmError, ToolMode, Usage};
use super::levels::{self, Sampling};
use super::run::{AgentEvent, RunConfig};
use super::secrets;
use super::tools::{Limits, Workspace};
use crate::settings::read::{ModelLevel, ModelSettings};
use crate::shadow::Session;

/// Which levels run and what the caller wants kept.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only this level (3, 4 or 5).
    pub level: Option<u8>,
    /// Note the tool mode level 3 chose.
    pub verbose: bool,
    /// The router's trail so far.
    pub trail: Vec<String>,
}

/// A model for one level, the base URL it talks to (for the loopback rule
/// on secrets) and how the level samples (its own settings rows).
pub struct Made {
    /// The model.
    pub client: Box<dyn LlmClient>,
    /// Its base URL.
    pub base_url: String,
    /// `fararoni.<level>.maxTokens` and `.temperature`.
    pub sampling: Sampling,
}

/// Why a level has no model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoModel {
    /// What is wrong.
    pub message: String,
    /// How to fix it, most specific first.
    pub hints: Vec<String>,
}

/// What one level produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Produced {
    /// The level that answered.
    pub level: u8,
    /// The answer was already shown as it streamed.
    pub streamed: bool,
    /// The answer.
    pub answer: String,
    /// Level 4's reasoning.
    pub reasoning: Option<String>,
    /// How the level ended (`answered`, `completed`…).
    pub outcome: String,
}

/// Everything the run did, for the summary and `--json`.
#[derive(Debug, Default)]
pub struct Summary {
    /// Level 3's tool calls, as the view recorded them.
    pub tools: Vec<Value>,
    /// Files level 3 changed.
    pub files: Vec<Value>,
    /// Backups the run made.
    pub shadows: usize,
    /// The saga the run committed into.
    pub saga: Option<String>,
    /// What became of it.
    pub saga_state: Option<String>,
    /// Tokens used.
    pub usage: Usage,
    /// Time per level.
    pub times: Vec<(u8, Duration)>,
    /// Level 3's session, for `undo --session`.
    pub session: Option<String>,
    /// Level 3's session log.
    pub log: Option<PathBuf>,
}

/// What the cascade ended with.
#[derive(Debug)]
pub struct Outcome {
    /// The answer, if a level gave one.
    pub produced: Option<Produced>,
    /// What the run did.
    pub summary: Summary,
    /// Why each level that did not answer did not.
    pub failures: Vec<String>,
    /// How to fix a missing model, most specific first.
    pub hints: Vec<String>,
    /// The trail, the router's first.
    pub trail: Vec<String>,
}

/// Where the cascade reports as it runs.
pub trait Sink {
    /// A model call is about to be waited for.
    fn waiting(&mut self);
    /// Levels 4 and 5's text as it arrives; returns whether it was shown.
    fn text(&mut self, text: &str) -> bool;
    /// A level-4/5 answer that was shown live is complete.
    fn text_done(&mut self);
    /// One of level 3's events.
    fn agent(&mut self, event: AgentEvent<'_>);
    /// Level 3 has returned: end what is on screen; returns whether its
    /// answer was shown live, and the tool calls the view recorded.
    fn level3_done(&mut self, answer_streamed: bool) -> (bool, Vec<Value>);
    /// A line for the user.
    fn note(&mut self, line: &str);
}

/// Runs the model levels for `request` typed in `cwd`, drawing each
/// level's model from `make`.
pub fn cascade(
    request: &str,
    cwd: &Path,
    mut opts: Options,
    make: &mut dyn FnMut(u8) -> Result<Made, NoModel>,
    sink: &mut dyn Sink,
) -> Outcome {
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
                // is worth more than the generic one.
                for h in e.hints {
                    if !hints.contains(&h) {
                        hints.push(h);
                    }
                }
                continue;
            }
        };
        let result = match level {
            3 => level3(
                &mut made,
                request,
                cwd,
                &settings,
                &opts,
                &mut summary,
                sink,
            ),
            _ => {
                sink.waiting();
                let mut shown = false;
                let r = levels::answer(
                    &mut *made.client,
                    level,
                    request,
                    made.sampling,
                    &mut |t: &str| shown |= sink.text(t),
                );
                if shown {
                    sink.text_done();
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
    Outcome {
        produced,
        summary,
        failures,
        hints,
        trail: opts.trail,
    }
}

fn level3(
    made: &mut Made,
    request: &str,
    cwd: &Path,
    settings: &crate::settings::read::AgentSettings,
    opts: &Options,
    summary: &mut Summary,
    sink: &mut dyn Sink,
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
    let cfg = RunConfig {
        max_depth: settings.max_depth,
        mode: ToolMode::Native,
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
    sink.waiting();
    let client = &mut *made.client;
    let result = super::run::run(client, &mut ws, request, &cfg, &mut |e| sink.agent(e));
    let (streamed, tools) = sink.level3_done(result.as_ref().is_ok_and(|r| r.answer_streamed));
    let produced = finish_level3(result, client, ws, opts, summary, tools, sink)?;
    Ok(produced.map(|p| Produced { streamed, ..p }))
}

/// What level 3 produced, once its loop has ended.
fn finish_level3(
    result: Result<super::run::RunReport, LlmError>,
    client: &mut dyn LlmClient,
    ws: Workspace,
    opts: &Options,
    summary: &mut Summary,
    tools: Vec<Value>,
    sink: &mut dyn Sink,
) -> Result<Option<Produced>, String> {
    if opts.verbose {
        if let Some(choice) = client.tool_mode_choice() {
            sink.note(&format!(
                "level 3: tool mode {} ({})",
                format!("{:?}", choice.mode).to_lowercase(),
                choice.reason
            ));
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
    let changed = ws.changed_anything();
    let report = match result {
        Ok(r) => r,
        // The model failed after level 3 had changed the repository: the
        // run ends here, with what changed and how to undo it. Falling
        // through to levels 4–5 would answer a request that is already
        // half carried out, and "no model answered" (exit 4) would hide
        // the changes.
        Err(e) if changed => {
            let undo = summary
                .session
                .as_deref()
                .map(|id| format!(", or undo them with `git fararoni undo --session {id}`"))
                .unwrap_or_default();
            return Ok(Some(Produced {
                level: 3,
                streamed: false,
                answer: format!(
                    "Level 3 stopped after changing files: the model failed ({e}). Review the changes with `git diff`{undo}."
                ),
                reasoning: None,
                outcome: "model_error".into(),
            }));
        }
        Err(e) => return Err(e.to_string()),
    };
    summary.usage = report.usage;
    if !report.usable(changed) {
        return Ok(None);
    }
    let answer =
        if report.answer.trim().is_empty() || report.outcome != super::run::Outcome::Answered {
            match report.outcome {
                super::run::Outcome::Completed => {
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
}

/// Which settings group model level `level` reads (3 tools, 4 thinking,
/// 5 fallback).
pub fn model_level(level: u8) -> ModelLevel {
    match level {
        4 => ModelLevel::Thinking,
        5 => ModelLevel::Fallback,
        _ => ModelLevel::Tools,
    }
}

/// The settings of one model level.
pub fn level_settings(
    repo: Option<&crate::git::Repo>,
    which: ModelLevel,
) -> Result<ModelSettings, NoModel> {
    crate::settings::read::model_settings(crate::settings::of(repo), which).map_err(|e| NoModel {
        message: crate::text::chain::one_line(&e),
        hints: vec!["fix the value (`git fararoni config` shows where it is set)".into()],
    })
}

/// A level's sampling, from its settings rows.
pub fn sampling_of(s: &ModelSettings) -> Sampling {
    Sampling {
        max_tokens: s.max_tokens,
        temperature: s.temperature,
    }
}

/// The models of a real `ask`: a client per level (3 tools, 4 thinking, 5
/// fallback), each from its own `fararoni.<level>.*` keys with
/// `fararoni.llm.*` filling what a level leaves unset, or the model in
/// this process. Nothing is built (no runtime, no connection) until a
/// level is reached.
pub fn http_models(cwd: &Path) -> impl FnMut(u8) -> Result<Made, NoModel> + '_ {
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
        match super::local::client_for(repo.as_ref(), which, settings) {
            // The loopback rule on secrets: a model in this process is as
            // local as one on loopback.
            Ok(Some(c)) if c.in_process => {
                Ok(made(c.client, "http://127.0.0.1/in-process".into()))
            }
            Ok(Some(c)) => Ok(made(c.client, server)),
            Ok(None) => Err(NoModel {
                message: "no model is configured for this request".into(),
                hints: vec!["set one with `git config --global fararoni.llm.model NAME` (and `fararoni.llm.baseUrl URL` unless Ollama's `http://127.0.0.1:11434/v1` fits), or a model file with `fararoni.llm.gguf PATH` in a build with `--features local-llm`".into()],
            }),
            Err(e) => Err(NoModel {
                message: crate::text::chain::one_line(&e),
                hints: vec![e.hint().to_string()],
            }),
        }
    }
}
