//! `git fararoni models`: the GGUF models found or configured, and which
//! level uses which ([`crate::agent::local::inventory`]), printed.

use std::process::ExitCode;

use clap::Args;

use crate::agent::local::inventory::inventory;
use crate::cli::error::CliError;
use crate::cli::util::cwd;

/// List the model files found on disk (Ollama, Hugging Face cache, LM Studio) and which level uses which
///
/// Nothing is downloaded and nothing is loaded: each file's header is read
/// for its architecture and checked (truncated, not GGUF, an architecture
/// that cannot chat, too big for the memory available).
#[derive(Debug, Args)]
pub(crate) struct ModelsArgs {
    /// Print {"engine", "models": [{"store", "name", "path", "size", "architecture", "quantization", "problem"}], "levels": [{"level", "kind", "model", "why"}]} as JSON
    #[arg(long)]
    json: bool,
}

fn mb(bytes: u64) -> String {
    format!("{:.0} MB", bytes as f64 / (1 << 20) as f64)
}

pub(crate) fn run(args: ModelsArgs) -> Result<ExitCode, CliError> {
    let cwd = cwd()?;
    let repo = crate::git::Repo::discover(&cwd).ok().flatten();
    let inv = inventory(repo.as_ref());
    if args.json {
        crate::cli::out(&format!("{}\n", serde_json::json!(inv)));
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    if !inv.engine {
        text.push_str("note: this build has no in-process engine (build with `--features local-llm` to run these files)\n");
    }
    if inv.models.is_empty() {
        text.push_str(
            "no model files found (Ollama's store, the Hugging Face cache, LM Studio's folder)\n",
        );
    }
    for m in &inv.models {
        text.push_str(&format!(
            "{:<12} {:>8}  {:<10} {:<8} {}\n             {}\n",
            m.store,
            mb(m.size),
            m.architecture.as_deref().unwrap_or("?"),
            m.quantization.as_deref().unwrap_or(""),
            m.name,
            m.path
        ));
        if let Some(p) = &m.problem {
            text.push_str(&format!("             unusable: {p}\n"));
        }
    }
    text.push('\n');
    for l in &inv.levels {
        text.push_str(&format!(
            "level {}: {} — {}\n",
            l.level,
            l.model.as_deref().unwrap_or("none"),
            l.why
        ));
    }
    crate::cli::out(&text);
    Ok(ExitCode::SUCCESS)
}
