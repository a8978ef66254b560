//! `git fararoni parse-tool-calls`: the text tool-call extractor, for anyone
//! to check what a model's reply would do.

use std::io::Read as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::{json, Value};

use crate::agent::{extract, normalize};
use crate::cli::error::CliError;

/// Print the tool calls a model's reply holds as text
///
/// Reads a reply (FILE, or standard input) and prints a JSON array of
/// `{"name": RAW_NAME, "tool": NORMALIZED_OR_NULL, "arguments": OBJECT}`:
/// JSON calls, `<tool_call>`, Qwen3-coder, DeepSeek, Mistral, Llama, Kimi,
/// GLM and Harmony markup, and pythonic lists; never from inside
/// `<think>`, never from prose that only shows JSON as an example. For a
/// known tool the argument keys are normalized as the agent would.
#[derive(Debug, Args)]
pub(crate) struct ParseToolCallsArgs {
    /// The reply to read (default: standard input)
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

pub(crate) fn run(args: ParseToolCallsArgs) -> Result<ExitCode, CliError> {
    let mut bytes = Vec::new();
    match &args.file {
        Some(p) => {
            bytes = std::fs::read(p).map_err(|e| {
                CliError::user(format!("could not read `{}`", p.display())).caused_by(&e)
            })?
        }
        None => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::user("could not read standard input").caused_by(&e))?;
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let calls: Vec<Value> = extract::find_calls(&text)
        .into_iter()
        .map(
            |c| match normalize::normalize_call(&c.name, c.arguments.clone()) {
                Ok((tool, arguments, _)) => {
                    json!({"name": c.name, "tool": tool, "arguments": arguments})
                }
                Err(_) => json!({"name": c.name, "tool": null, "arguments": c.arguments}),
            },
        )
        .collect();
    let rendered = serde_json::to_string_pretty(&Value::Array(calls))
        .map_err(|e| CliError::user("could not render the calls").caused_by(&e))?;
    crate::cli::out(&format!("{rendered}\n"));
    Ok(ExitCode::SUCCESS)
}
