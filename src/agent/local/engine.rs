//! The in-process engine: llama.cpp through `llama-cpp-2`, as an
//! [`LlmClient`]. Only with the cargo feature `local-llm`.
//!
//! The model is loaded by the first request (levels that never reach a
//! model never pay for it) and kept for the rest of the process. The
//! context of the last request is kept with the tokens in its KV cache: a
//! request that starts with the same tokens (each step of a level-3 run is
//! the previous prompt plus new turns) evaluates only its new suffix. Only
//! an identical token prefix is reused, which is what evaluating it again
//! would compute, so nothing of one conversation changes the next. Tokens
//! are shown as they are generated, and Ctrl-C (the [`interrupt`] flag) is
//! checked between prompt batches and between tokens. The constrained tool
//! mode hands llama.cpp a grammar built from the same JSON schema a server gets
//! ([`modes::constrained_schema`]), so a reply is one schema-valid call or
//! a final answer by construction.

use std::num::NonZeroU32;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;

use super::{GgufInfo, LocalError};
use crate::agent::client::{
    ChatRequest, ChatResponse, LlmClient, LlmError, ModeChoice, ServerInfo, StreamEvent, ToolMode,
    Usage,
};
use crate::agent::http::think::{Piece, ThinkSplitter};
use crate::agent::modes;
use crate::settings::read::{ModelSettings, ToolModeSetting};
use crate::sys::interrupt;

/// Prompt tokens decoded per batch (llama.cpp's default logical batch).
const BATCH: usize = 512;
/// Tokens the repetition penalty looks back over.
const REPEAT_LAST_N: i32 = 64;
/// The repetition penalty.
const REPEAT_PENALTY: f32 = 1.1;
/// The context window when the file does not say (llama.cpp's own default).
const FALLBACK_CONTEXT: u32 = 4096;

/// llama.cpp's process-wide state: initialised once, never torn down.
static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();

fn backend() -> Result<&'static LlamaBackend, String> {
    BACKEND
        .get_or_init(|| {
            // llama.cpp logs every load step on stderr; only `cli` prints.
            llama_cpp_2::send_logs_to_tracing(
                llama_cpp_2::LogOptions::default().with_logs_enabled(false),
            );
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// A GGUF model run in this process.
pub struct LocalClient {
    info: GgufInfo,
    settings: ModelSettings,
    threads: u32,
    /// Leaked on purpose: the kept context borrows it, and a process keeps
    /// its model until it exits anyway.
    model: Option<&'static LlamaModel>,
    cache: Option<Cached>,
    load_time: Option<Duration>,
    choice: Option<ModeChoice>,
}

/// The last request's context and the tokens its KV cache holds, at
/// positions 0.. in sequence 0.
struct Cached {
    ctx: LlamaContext<'static>,
    n_ctx: u32,
    tokens: Vec<LlamaToken>,
}

/// How long loading and the last request took, for benchmarks and `-v`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Timings {
    /// Loading the model (zero when it was already loaded).
    pub load: Duration,
    /// From the request to the first generated token.
    pub first_token: Duration,
    /// Tokens generated.
    pub tokens: u64,
    /// Generation time after the first token.
    pub generation: Duration,
    /// Prompt tokens evaluated (the rest came from the kept context).
    pub prompt_evaluated: u64,
}

impl LocalClient {
    /// A client for the validated file `info`; nothing is loaded yet.
    pub fn new(info: GgufInfo, settings: ModelSettings, threads: u32) -> LocalClient {
        LocalClient {
            info,
            settings,
            threads: threads.max(1),
            model: None,
            cache: None,
            load_time: None,
            choice: None,
        }
    }

    fn engine_error(&self, detail: impl std::fmt::Display) -> LlmError {
        LlmError::Local(LocalError::Engine {
            path: self.info.path.clone(),
            detail: detail.to_string(),
        })
    }

    /// Loads the model if it is not loaded yet; returns how long it took.
    pub fn load(&mut self) -> Result<Duration, LlmError> {
        if self.model.is_some() {
            return Ok(Duration::ZERO);
        }
        interrupt::install();
        // Also checked when the client is made; here for any caller that
        // makes one directly (benchmarks, tests): ggml-cpu's code may use
        // extensions this CPU lacks.
        super::cpu::check().map_err(|e| LlmError::Local(e.into()))?;
        let backend = backend().map_err(|e| self.engine_error(e))?;
        let started = Instant::now();
        // Returning false from the progress callback makes llama.cpp stop
        // loading: Ctrl-C during a long load is honoured too.
        let params =
            LlamaModelParams::default().with_progress_callback(|_| !interrupt::interrupted());
        let model = LlamaModel::load_from_file(backend, &self.info.path, &params);
        if interrupt::interrupted() {
            return Err(LlmError::Interrupted);
        }
        let model =
            model.map_err(|e| self.engine_error(format!("llama.cpp could not load it ({e})")))?;
        self.model = Some(Box::leak(Box::new(model)));
        let took = started.elapsed();
        self.load_time = Some(took);
        Ok(took)
    }

    /// Drops the kept context: the next request evaluates its whole prompt.
    pub fn clear_cache(&mut self) {
        self.cache = None;
    }

    /// The tokens llama.cpp makes of `text` (special tokens parsed, no BOS),
    /// for the tokenizer comparison tests.
    pub fn tokenize(&mut self, text: &str) -> Result<Vec<i32>, LlmError> {
        self.load()?;
        let model = self.model.ok_or_else(|| self.engine_error("not loaded"))?;
        Ok(model
            .vocab()
            .tokenize(text.as_bytes(), false, true)
            .into_iter()
            .map(|t| t.0)
            .collect())
    }

    /// Decides the tool mode: the engine's chat templates know no `tools`,
    /// so `auto` and `native` mean the grammar (constrained).
    fn mode_for(&mut self, request: &ChatRequest<'_>) -> ToolMode {
        if request.mode == ToolMode::None || request.tools.is_empty() {
            return ToolMode::None;
        }
        let choice = self
            .choice
            .get_or_insert_with(|| match self.settings.tool_mode {
                ToolModeSetting::Prompted => ModeChoice {
                    mode: ToolMode::Prompted,
                    reason: "set by fararoni.llm.toolMode".into(),
                },
                ToolModeSetting::Constrained => ModeChoice {
                    mode: ToolMode::Constrained,
                    reason: "set by fararoni.llm.toolMode".into(),
                },
                ToolModeSetting::Auto | ToolModeSetting::Native => ModeChoice {
                    mode: ToolMode::Constrained,
                    reason: "in-process model: llama.cpp's grammar from the tools' JSON schema"
                        .into(),
                },
            });
        choice.mode
    }

    /// Renders the conversation with the model's chat template (ChatML
    /// when the file has none, or one llama.cpp cannot apply).
    fn prompt(&self, model: &LlamaModel, wire: &[serde_json::Value]) -> Result<String, LlmError> {
        let messages = wire
            .iter()
            .map(|m| {
                LlamaChatMessage::new(
                    m["role"].as_str().unwrap_or("user").to_string(),
                    m["content"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.engine_error(format!("a message holds a NUL byte ({e})")))?;
        if let Ok(t) = model.chat_template(None) {
            if let Ok(p) = model.apply_chat_template(&t, &messages, true) {
                return Ok(p);
            }
        }
        let chatml = LlamaChatTemplate::new("chatml").map_err(|e| self.engine_error(e))?;
        model
            .apply_chat_template(&chatml, &messages, true)
            .map_err(|e| self.engine_error(format!("the chat template failed ({e})")))
    }

    /// A context for `tokens` plus a reply (`wanted` tokens in all), and
    /// how many of `tokens` its KV cache already holds: the kept context
    /// when it is large enough (its KV trimmed to the common prefix, at
    /// least the last prompt token left to evaluate for the logits), else
    /// a new one with half again as much room for the next steps of a run.
    fn context(
        &mut self,
        model: &'static LlamaModel,
        tokens: &[LlamaToken],
        wanted: u64,
        window: u32,
    ) -> Result<(LlamaContext<'static>, u32, usize), LlmError> {
        let need = wanted.min(u64::from(window));
        if let Some(mut c) = self.cache.take() {
            if u64::from(c.n_ctx) >= need {
                let common = c
                    .tokens
                    .iter()
                    .zip(tokens)
                    .take_while(|(a, b)| a == b)
                    .count()
                    .min(tokens.len().saturating_sub(1));
                // A model whose memory cannot drop a tail (recurrent or
                // sliding-window caches) starts over in the same context.
                let trimmed = u32::try_from(common)
                    .ok()
                    .and_then(|p0| c.ctx.clear_kv_cache_seq(Some(0), Some(p0), None).ok())
                    .unwrap_or(false);
                if trimmed {
                    return Ok((c.ctx, c.n_ctx, common));
                }
                c.ctx.clear_kv_cache();
                return Ok((c.ctx, c.n_ctx, 0));
            }
        }
        // Half again for the next steps' turns, in llama.cpp's 256-token
        // padding: the KV cache is allocated whole, and on a 7B model each
        // token of it is half a megabyte. `max` then `min`: a window under
        // 256 tokens must not panic.
        let n_ctx = (wanted + wanted / 2)
            .div_ceil(256)
            .saturating_mul(256)
            .max(256)
            .min(u64::from(window)) as u32;
        let threads = i32::try_from(self.threads).unwrap_or(1);
        let ctx_params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(BATCH as u32)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let backend = backend().map_err(|e| self.engine_error(e))?;
        let ctx = model
            .new_context(backend, ctx_params)
            .map_err(|e| self.engine_error(format!("no context of {n_ctx} tokens ({e})")))?;
        Ok((ctx, n_ctx, 0))
    }

    /// Runs one request; `timings` receives what it measured.
    pub fn chat_timed(
        &mut self,
        request: &ChatRequest<'_>,
        on_event: &mut dyn FnMut(StreamEvent<'_>),
        timings: &mut Timings,
    ) -> Result<ChatResponse, LlmError> {
        interrupt::install();
        if interrupt::interrupted() {
            return Err(LlmError::Interrupted);
        }
        let started = Instant::now();
        let deadline = started + self.settings.call_timeout;
        timings.load = self.load()?;
        let mode = self.mode_for(request);
        let wire = modes::wire_messages(request.messages, request.tools, mode);
        let grammar = match mode {
            ToolMode::Constrained => {
                let schema = modes::constrained_schema(request.tools, request.require_tool);
                Some(
                    llama_cpp_2::json_schema_to_grammar(&schema.to_string()).map_err(|e| {
                        self.engine_error(format!("no grammar for the tools' schema ({e})"))
                    })?,
                )
            }
            _ => None,
        };
        let Some(model) = self.model else {
            return Err(self.engine_error("the model is not loaded"));
        };
        let prompt = self.prompt(model, &wire)?;
        let tokens = model.vocab().tokenize(prompt.as_bytes(), true, true);
        let n_ctx_train = model.n_ctx_train().max(1);
        let window = self
            .settings
            .context_tokens
            .map(|c| c.min(u64::from(n_ctx_train)) as u32)
            .unwrap_or(n_ctx_train);
        let wanted = tokens.len() as u64 + u64::from(request.max_tokens);
        if tokens.len() as u64 >= u64::from(window) {
            return Err(self.engine_error(format!(
                "the prompt has {} tokens but the model's context holds {window}",
                tokens.len()
            )));
        }
        let (mut ctx, n_ctx, reused) = self.context(model, &tokens, wanted, window)?;
        // The kept context's KV holds `tokens[..reused]`; only the rest is
        // evaluated, the last one with logits.
        let mut batch = LlamaBatch::new(BATCH, 1);
        let mut pos = reused as i32;
        for chunk in tokens[reused..].chunks(BATCH) {
            if interrupt::interrupted() {
                return Err(LlmError::Interrupted);
            }
            batch.clear();
            for (i, t) in chunk.iter().enumerate() {
                let last = pos as usize + i + 1 == tokens.len();
                batch
                    .add(*t, pos + i as i32, &[0], last)
                    .map_err(|e| self.engine_error(e))?;
            }
            ctx.decode(&mut batch).map_err(|e| self.engine_error(e))?;
            pos += chunk.len() as i32;
        }
        timings.prompt_evaluated = (tokens.len() - reused) as u64;
        let mut in_kv = tokens.clone();

        let mut chain = Vec::new();
        if let Some(g) = &grammar {
            chain.push(
                LlamaSampler::grammar(model, g, "root")
                    .map_err(|e| self.engine_error(format!("the grammar was refused ({e})")))?,
            );
        }
        // A tiny model repeats itself; inside a JSON string of the
        // constrained mode that runs to the token limit and the call is
        // lost. llama.cpp's long-standing CLI default (1.1 over the last 64
        // tokens) breaks such loops.
        chain.push(LlamaSampler::penalties(
            model.n_vocab(),
            REPEAT_LAST_N,
            REPEAT_PENALTY,
            0.0,
            0.0,
        ));
        if request.temperature > 0.0 {
            chain.push(LlamaSampler::top_k(40));
            chain.push(LlamaSampler::top_p(0.95, 1));
            chain.push(LlamaSampler::temp(request.temperature));
            chain.push(LlamaSampler::dist(0x5eed));
        } else {
            chain.push(LlamaSampler::greedy());
        }
        let mut sampler = LlamaSampler::chain_simple(chain);

        let vocab = model.vocab();
        let mut bytes: Vec<u8> = Vec::new();
        let mut text = String::new();
        let mut splitter = ThinkSplitter::default();
        let mut visible = String::new();
        let mut reasoning = String::new();
        let mut generated = 0u64;
        let mut first_at = None;
        let mut finish = "length";
        let mut show = |pieces: Vec<Piece>, visible: &mut String, reasoning: &mut String| {
            for p in pieces {
                match p {
                    Piece::Text(t) => {
                        // A constrained reply is JSON: shown as the call it becomes.
                        if mode != ToolMode::Constrained {
                            on_event(StreamEvent::Text(&t));
                        }
                        visible.push_str(&t);
                    }
                    Piece::Reasoning(r) => {
                        on_event(StreamEvent::Reasoning(&r));
                        reasoning.push_str(&r);
                    }
                }
            }
        };
        while generated < u64::from(request.max_tokens) {
            if interrupt::interrupted() {
                return Err(LlmError::Interrupted);
            }
            if Instant::now() >= deadline {
                return Err(LlmError::Timeout {
                    endpoint: self.describe(),
                    which: "whole call, fararoni.llm.callTimeout",
                });
            }
            if pos as u32 >= n_ctx {
                break;
            }
            // `sample` also accepts the token into the chain (grammar
            // included): accepting it again aborts the process from C.
            let token: LlamaToken = sampler.sample(&ctx, -1);
            first_at.get_or_insert_with(Instant::now);
            if vocab.is_eog(token) {
                finish = "stop";
                break;
            }
            generated += 1;
            vocab.token_to_piece_into(token, &mut bytes, false, None);
            // Hold back an incomplete UTF-8 sequence until its next token.
            let valid = match std::str::from_utf8(&bytes) {
                Ok(s) => s.len(),
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(e) => e.valid_up_to() + e.error_len().unwrap_or(1),
            };
            let piece = String::from_utf8_lossy(&bytes[..valid]).into_owned();
            bytes.drain(..valid);
            if !piece.is_empty() {
                text.push_str(&piece);
                show(splitter.push(&piece), &mut visible, &mut reasoning);
            }
            batch.clear();
            batch
                .add(token, pos, &[0], true)
                .map_err(|e| self.engine_error(e))?;
            ctx.decode(&mut batch).map_err(|e| self.engine_error(e))?;
            in_kv.push(token);
            pos += 1;
        }
        // Kept only after a whole request: an error or Ctrl-C above leaves
        // the KV cache out of step with any list of its tokens.
        self.cache = Some(Cached {
            ctx,
            n_ctx,
            tokens: in_kv,
        });
        if !bytes.is_empty() {
            let rest = String::from_utf8_lossy(&bytes).into_owned();
            show(splitter.push(&rest), &mut visible, &mut reasoning);
        }
        show(splitter.finish(), &mut visible, &mut reasoning);
        let first = first_at.unwrap_or_else(Instant::now);
        timings.first_token = first.duration_since(started).saturating_sub(timings.load);
        timings.tokens = generated;
        timings.generation = first.elapsed();
        let mut resp = ChatResponse {
            content: visible,
            reasoning: (!reasoning.is_empty()).then_some(reasoning),
            tool_calls: Vec::new(),
            usage: Usage {
                prompt_tokens: tokens.len() as u64,
                completion_tokens: generated,
                cached_tokens: reused as u64,
            },
            finish_reason: Some(finish.into()),
        };
        if mode == ToolMode::Constrained {
            modes::apply_constrained(&mut resp);
            for c in &resp.tool_calls {
                on_event(StreamEvent::ToolCallStarted(&c.name));
            }
        }
        Ok(resp)
    }
}

impl LlmClient for LocalClient {
    fn describe(&self) -> String {
        format!("in-process {}", self.info.path.display())
    }

    fn server_info(&mut self) -> Result<ServerInfo, LlmError> {
        let context = self
            .settings
            .context_tokens
            .or(self.info.context_length)
            .unwrap_or(u64::from(FALLBACK_CONTEXT));
        Ok(ServerInfo {
            context_tokens: Some(context),
            supports_tools: Some(false),
            supports_schema: Some(true),
        })
    }

    fn chat(
        &mut self,
        request: &ChatRequest<'_>,
        on_event: &mut dyn FnMut(StreamEvent<'_>),
    ) -> Result<ChatResponse, LlmError> {
        self.chat_timed(request, on_event, &mut Timings::default())
    }

    fn tool_mode_choice(&self) -> Option<ModeChoice> {
        self.choice.clone()
    }
}
