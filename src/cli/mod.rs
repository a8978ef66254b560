//! The command line: one clap tree for every binary, dispatch, and the one
//! place errors are rendered. The only layer that prints.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod commands;
pub mod error;
pub mod render;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod start;
mod ui;
mod util;

use commands::{
    agent, ask, config as settings, distill, docs, doctor, generate, guard, guard_hook as hook,
    hooks, models, parse_tool_calls, run as run_cmd, saga, session, shadow, undo,
};

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use error::{exit, report, CliError};

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use start::start;

/// Which binary was started; `git-fararoni-saga ARGS` is `git-fararoni saga ARGS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// `git-fararoni`.
    Main,
    /// `git-fararoni-saga`.
    Saga,
    /// `git-fararoni-shadow`.
    Shadow,
}

/// A deterministic router in front of an LLM coding agent, with guardrails
/// that make permanent loss of work impossible.
///
/// `git fararoni ask "..."` answers what it can without a model, instantly:
/// commands and git (level 1), git intents in English and Spanish such as
/// "do the commit" or "haz el commit" (level 1.5) and small talk (level 2).
/// Remote and destructive git operations and unsafe shell are never run.
#[derive(Debug, Parser)]
#[command(
    name = "git-fararoni",
    version,
    propagate_version = true,
    after_help = "Exit codes: 0 ok, 1 error, 2 usage, 3 blocked by a guard or policy, 4 model unavailable, 101 internal error.\nA command that ran and failed passes its own exit code through."
)]
pub struct Cli {
    /// Report nothing of what was done; print only data, warnings and errors
    #[arg(short, long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Ask(ask::AskArgs),
    #[command(subcommand)]
    Guard(guard::GuardCommand),
    #[command(subcommand)]
    Shadow(shadow::ShadowCommand),
    #[command(subcommand)]
    Saga(saga::SagaCommand),
    Undo(undo::UndoArgs),
    Run(run_cmd::RunArgs),
    Distill(distill::DistillArgs),
    #[command(subcommand)]
    Session(session::SessionCommand),
    Hooks(hooks::HooksArgs),
    Config(settings::ConfigArgs),
    Doctor(doctor::DoctorArgs),
    Models(models::ModelsArgs),
    InstallDocs(docs::InstallDocsArgs),
    Completions(docs::CompletionsArgs),
    Hook(hooks::HookArgs),
    ParseToolCalls(parse_tool_calls::ParseToolCallsArgs),
    #[command(hide = true, subcommand)]
    Generate(generate::GenerateCommand),
    #[command(hide = true)]
    AgentReplay(agent::ReplayArgs),
}

/// Returns the clap tree, for man pages and completions.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Parses the process arguments for `entry` and runs the command.
pub fn main(entry: Entry) -> ExitCode {
    let mut args: Vec<OsString> = std::env::args_os().collect();
    if args.is_empty() {
        args.push("git-fararoni".into());
    }
    args[0] = "git-fararoni".into();
    match entry {
        Entry::Main => {}
        Entry::Saga => args.insert(1, "saga".into()),
        Entry::Shadow => args.insert(1, "shadow".into()),
    }
    run(args)
}

/// Runs git-fararoni with `args` (program name first).
pub fn run(args: Vec<OsString>) -> ExitCode {
    // `ask REQUEST…` without flags skips building the clap tree: the
    // deterministic levels must cost next to nothing over the command.
    if args.len() > 2
        && args[1] == "ask"
        && !args[2..]
            .iter()
            .any(|a| a.as_encoded_bytes().starts_with(b"-"))
    {
        let request = ask::AskArgs::plain(args[2..].to_vec());
        return finish(ask::run(request));
    }
    // The sandbox's shim: a fresh single-threaded process that contains
    // itself and execs the command (`contain` spawns it).
    if args
        .get(1)
        .is_some_and(|a| a == crate::sandbox::SHIM_SUBCOMMAND)
    {
        return match crate::sandbox::run_shim(&args[2..]) {
            Ok(never) => match never {},
            Err(e) => {
                eprintln!("fararoni sandbox: {}", crate::text::chain::one_line(&e));
                ExitCode::from(e.exit_code())
            }
        };
    }
    // `guard hook --agent NAME` runs before every tool call of another
    // agent: it skips building the clap tree too.
    if let Some(agent) = hook::fast_path(&args) {
        return hook::run_for(agent);
    }
    // `hook pre-commit|post-checkout`, which git runs on every commit and
    // checkout, skips it as well.
    if let Some(hook) = hooks::HookArgs::fast_path(&args) {
        return finish(hooks::run_hook(hook));
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp
                | clap::error::ErrorKind::DisplayVersion
                | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    ExitCode::from(exit::OK)
                }
                _ => ExitCode::from(exit::USAGE),
            };
        }
    };
    ui::set_quiet(cli.quiet);
    let result = match cli.command {
        Command::Ask(a) => ask::run(a),
        Command::Guard(c) => guard::run(c),
        Command::Shadow(c) => shadow::run(c),
        Command::Saga(c) => saga::run(c),
        Command::Undo(a) => undo::run(a),
        Command::Run(a) => run_cmd::run(a),
        Command::Distill(a) => distill::run(a),
        Command::Session(c) => session::run(c),
        Command::Hooks(a) => hooks::run_hooks(a),
        Command::Config(a) => settings::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Models(a) => models::run(a),
        Command::InstallDocs(a) => docs::install_docs(a),
        Command::Completions(a) => docs::completions(a),
        Command::Hook(a) => hooks::run_hook(a),
        Command::ParseToolCalls(a) => parse_tool_calls::run(a),
        Command::Generate(c) => generate::run(c),
        Command::AgentReplay(a) => agent::replay(a),
    };
    finish(result)
}

fn finish(result: Result<ExitCode, CliError>) -> ExitCode {
    let code = match result {
        Ok(code) => code,
        Err(e) => report(&e),
    };
    // Whatever the command concluded, output that did not reach its file
    // is a failure: a restore piped into a full disk must not look done.
    match ui::stdout_error() {
        Some(why) if code == ExitCode::SUCCESS => report(
            &CliError::user(format!("could not write to standard output: {why}"))
                .hint("check the disk or the file the output goes to, then run the command again"),
        ),
        _ => code,
    }
}

/// Writes `text` to stdout; a closed pipe (`| head`) is not an error, any
/// other failure makes the command exit 1 ([`ui`]).
pub(crate) fn out(text: &str) {
    ui::out(text);
}

/// Converts a command-line argument to UTF-8 or explains which one is not.
pub(crate) fn utf8_arg(arg: OsString, what: &str) -> Result<String, CliError> {
    arg.into_string().map_err(|bad| {
        CliError::usage(format!(
            "{what} is not valid UTF-8: {}",
            bad.to_string_lossy()
        ))
        .hint(
            "git-fararoni reads requests and paths as UTF-8; rename the file or retype the request",
        )
    })
}
