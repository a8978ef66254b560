//! One measurement of the in-process engine, in a fresh process (run by
//! scripts/local-llm-bench.sh, which compares it with llama.cpp's server on
//! the same file): load time, first-token latency on a ~250-token prompt,
//! and generation speed. Prints one JSON object.
//!
//! With STEPS, a level-3-like run instead: STEPS requests, each the previous
//! conversation plus the model's reply and a tool result, measured once
//! with the kept context (only the new suffix evaluated) and once starting
//! over each step; one JSON object per step and mode.
//!
//!     cargo run --features local-llm --example local_bench -- MODEL.gguf [THREADS] [TOKENS] [STEPS]
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::time::Duration;

use git_fararoni::agent::client::{ChatMessage, ChatRequest, Role, ToolMode};
use git_fararoni::agent::local::engine::{LocalClient, Timings};
use git_fararoni::settings::read::{model_settings, ModelLevel};

/// The benchmark's prompt: about 250 tokens of English prose and code.
pub const PROMPT: &str = include_str!("local_bench_prompt.txt");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: local_bench MODEL.gguf [THREADS] [TOKENS]")?;
    let threads: u32 = args.next().map(|t| t.parse()).transpose()?.unwrap_or(1);
    let tokens: u32 = args.next().map(|t| t.parse()).transpose()?.unwrap_or(64);
    let steps: Option<u32> = args.next().map(|t| t.parse()).transpose()?;
    let info = git_fararoni::agent::local::validate(std::path::Path::new(&path))?;
    let mut settings = model_settings(git_fararoni::settings::of(None), ModelLevel::Fallback)?;
    settings.call_timeout = Duration::from_secs(600);
    let mut client = LocalClient::new(info, settings, threads);
    if let Some(steps) = steps {
        return run_steps(&mut client, tokens, steps);
    }
    let messages = [ChatMessage::text(Role::User, PROMPT)];
    let request = ChatRequest {
        messages: &messages,
        tools: &[],
        mode: ToolMode::None,
        max_tokens: tokens,
        temperature: 0.0,
        require_tool: false,
    };
    let mut t = Timings::default();
    let reply = client.chat_timed(&request, &mut |_| {}, &mut t)?;
    let gen_tokens = t.tokens.saturating_sub(1).max(1);
    println!(
        "{}",
        serde_json::json!({
            "load_ms": t.load.as_secs_f64() * 1e3,
            "first_token_ms": t.first_token.as_secs_f64() * 1e3,
            "prompt_tokens": reply.usage.prompt_tokens,
            "tokens": t.tokens,
            "tokens_per_s": gen_tokens as f64 / t.generation.as_secs_f64().max(1e-9),
        })
    );
    Ok(())
}

/// A multi-step run, kept context against starting over at each step.
fn run_steps(
    client: &mut LocalClient,
    tokens: u32,
    steps: u32,
) -> Result<(), Box<dyn std::error::Error>> {
    client.load()?;
    for keep in [true, false] {
        client.clear_cache();
        let mut messages = vec![
            ChatMessage::text(Role::System, PROMPT),
            ChatMessage::text(
                Role::User,
                "Read the file NOTES.md and tell me what the project is called.",
            ),
        ];
        for step in 1..=steps {
            if !keep {
                client.clear_cache();
            }
            let request = ChatRequest {
                messages: &messages,
                tools: &[],
                mode: ToolMode::None,
                max_tokens: tokens,
                temperature: 0.0,
                require_tool: false,
            };
            let mut t = Timings::default();
            let started = std::time::Instant::now();
            let reply = client.chat_timed(&request, &mut |_| {}, &mut t)?;
            let wall = started.elapsed();
            println!(
                "{}",
                serde_json::json!({
                    "kept_context": keep,
                    "step": step,
                    "prompt_tokens": reply.usage.prompt_tokens,
                    "prompt_evaluated": t.prompt_evaluated,
                    "first_token_ms": t.first_token.as_secs_f64() * 1e3,
                    "wall_ms": wall.as_secs_f64() * 1e3,
                })
            );
            messages.push(ChatMessage::text(Role::Assistant, &reply.content));
            messages.push(ChatMessage::text(
                Role::User,
                format!("Tool result {step}: NOTES.md says \"The project is called Fararoni.\" Line {step} of 3 read."),
            ));
        }
    }
    Ok(())
}
