//! `git fararoni ask "..."`: route a request and carry it out.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use clap::Args;
use serde_json::{json, Value};

use crate::cli::error::{exit, CliError, ErrorKind};
use crate::exec::{self, AskError, Event, Io, Report};
use crate::facts::RepoEnv;
use crate::router::{self, CmdKind, Decision, InputError, Plan};

/// Route a request: run it deterministically when it can be, else hand it on
///
/// Level 1 runs command lines (read-only utilities and git, classified by
/// subcommand and flags); level 1.5 maps git intents such as "do the
/// commit" or "haz el commit" to fixed sequences; level 2 answers small
/// talk. Remote and destructive git operations and unsafe shell are
/// blocked with exit code 3. Anything else needs the model levels (exit 4
/// until they are configured).
#[derive(Debug, Args)]
pub(crate) struct AskArgs {
    /// Print the routing decision as one JSON object without running anything
    /// (with --json) or as text
    #[arg(long)]
    explain: bool,
    /// Print JSON: the decision, plus exit_code, stdout and stderr when run
    #[arg(long)]
    json: bool,
    /// Print the cascade's decision trail and each command on stderr
    #[arg(short, long)]
    verbose: bool,
    /// Go straight to one model level: 3 (tools), 4 (thinking) or 5 (plain)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(3..=5))]
    level: Option<u8>,
    /// Show level 4's reasoning (`<think>`), hidden by default
    #[arg(long)]
    show_thinking: bool,
    /// Finish a saga the agent committed into without asking
    #[arg(short, long)]
    yes: bool,
    /// The request; several words are joined with spaces; `-` reads stdin
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true, trailing_var_arg = true, value_name = "REQUEST")]
    request: Vec<OsString>,
}

impl AskArgs {
    /// Returns the arguments of `ask REQUEST…` with no flags.
    pub(crate) fn plain(request: Vec<OsString>) -> AskArgs {
        AskArgs {
            explain: false,
            json: false,
            verbose: false,
            level: None,
            show_thinking: false,
            yes: false,
            request,
        }
    }
}

fn read_request(parts: Vec<OsString>) -> Result<String, CliError> {
    if parts.len() == 1 && parts[0] == "-" {
        let bytes = read_stdin().map_err(|e| {
            CliError::user("could not read the request from standard input").caused_by(&e)
        })?;
        return String::from_utf8(bytes).map_err(|_| {
            CliError::usage("the request on standard input is not valid UTF-8")
                .hint("send the request as UTF-8 text")
        });
    }
    let words = parts
        .into_iter()
        .map(|p| crate::cli::utf8_arg(p, "the request"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(words.join(" "))
}

fn input_error(e: InputError) -> CliError {
    let err = CliError::new(ErrorKind::Usage, e.to_string());
    match e {
        InputError::Empty => err
            .hint("try `git fararoni ask \"git status\"` or `git fararoni ask \"do the commit\"`"),
        InputError::TooLong { .. } => {
            err.hint("pass a shorter request; put long context in a file the model can read")
        }
        InputError::ControlChar { .. } => err
            .hint("remove terminal escape sequences and other control characters from the request"),
    }
}

fn ask_error(e: AskError) -> CliError {
    match &e {
        AskError::NotARepo { .. } => CliError::user(e.to_string())
            .hint("to create a repository and commit everything, run `git fararoni ask \"do the git init and commit\"`"),
        AskError::NothingToUndo(_) => CliError::user(e.to_string()),
        AskError::Cd { .. } => CliError::user(e.to_string()),
        AskError::StoreStaged { .. } => CliError::user(e.to_string())
            .hint("unstage them with `git restore --staged -- .fararoni`, then run it again"),
        AskError::Published { .. } => CliError::refused(e.to_string())
            .hint("make a new commit instead, or run `git commit --amend` yourself if you really mean to rewrite it"),
        AskError::NoSuchBranch { .. } => CliError::user(e.to_string())
            .hint("`git branch` lists the local branches; a remote one needs `git fetch` (run it yourself) and a local branch first"),
        _ => CliError::wrap(ErrorKind::User, &e),
    }
}

pub(crate) fn run(args: AskArgs) -> Result<ExitCode, CliError> {
    let input = read_request(args.request)?;
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::user("the current directory is not accessible").caused_by(&e))?;
    let opts = super::agent::CascadeOptions {
        level: args.level,
        json: args.json,
        verbose: args.verbose,
        show_thinking: args.show_thinking,
        yes: args.yes,
        trail: Vec::new(),
    };
    if args.level.is_some() && !args.explain {
        let mut models = super::agent::http_models(&cwd);
        return super::agent::cascade(&input, &cwd, opts, &mut models);
    }
    let env = RepoEnv::new(cwd.clone());
    let decision = router::route(&input, &env).map_err(input_error)?;
    if args.verbose {
        for line in &decision.trail {
            eprintln!("fararoni: {line}");
        }
    }
    if args.explain {
        if args.json {
            crate::cli::out(&format!("{}\n", decision.to_json()));
        } else {
            crate::cli::out(&explain_text(&decision));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if decision.plan == Plan::Model {
        let mut models = super::agent::http_models(&cwd);
        let opts = super::agent::CascadeOptions {
            // Under -v the router's trail was printed above.
            trail: if args.json {
                decision.trail.clone()
            } else {
                Vec::new()
            },
            ..opts
        };
        return super::agent::cascade(&input, &cwd, opts, &mut models);
    }
    if args.json {
        return run_json(&decision, &input, &cwd);
    }
    run_interactive(&decision, &input, &cwd, args.verbose)
}

fn explain_text(d: &Decision) -> String {
    let mut s = format!(
        "level:   {}\nverdict: {}\nrisk:    {}\n",
        d.level.as_str(),
        d.verdict.as_str(),
        d.risk.as_str()
    );
    if let Some(i) = d.intent {
        s.push_str(&format!("intent:  {}\n", i.as_str()));
    }
    if let Some(m) = &d.message {
        s.push_str(&format!("message: {m:?}\n"));
    }
    for c in &d.commands {
        s.push_str(&format!("runs:    {}\n", crate::text::quote::words(c)));
    }
    s.push_str(&format!("reason:  {}\n", d.reason));
    s
}

/// A model plan never reaches the runners below (`run` hands it to the
/// cascade first); reaching one is a bug, reported as such.
fn model_plan_reached_runner() -> CliError {
    CliError::new(
        ErrorKind::Internal,
        "a request for the model levels reached the command runner",
    )
}

fn code_of(c: i32) -> ExitCode {
    ExitCode::from(u8::try_from(c).unwrap_or(1))
}

fn run_interactive(
    d: &Decision,
    input: &str,
    cwd: &Path,
    verbose: bool,
) -> Result<ExitCode, CliError> {
    match &d.plan {
        Plan::Blocked => Err(CliError::refused(format!("blocked: {}", d.reason))),
        Plan::Model => Err(model_plan_reached_runner()),
        Plan::Chat(talk) => {
            let (reply, fallback) = crate::agent::levels::chat_reply(*talk, input, cwd);
            if let Some(why) = fallback {
                eprintln!(
                    "warning: the chat model did not answer ({why}); using the built-in reply"
                );
            }
            crate::cli::out(&format!("{reply}\n"));
            Ok(ExitCode::SUCCESS)
        }
        Plan::Chain(steps) => {
            let mut on = |e: Event| show_event(e, verbose);
            if let [step] = steps.as_slice() {
                if let [cmd] = step.pipeline.as_slice() {
                    if matches!(cmd.kind, CmdKind::Git | CmdKind::Utility) {
                        on(Event::Spawn(&cmd.argv, &cmd.env));
                        return exec_single(cmd, cwd);
                    }
                }
            }
            let mut recheck = |i: usize, step: &router::Step| rejudge(input, cwd, i, step);
            let report = exec::run_chain(steps, cwd, Io::Inherit, &mut on, &mut recheck)
                .map_err(ask_error)?;
            Ok(code_of(report.exit_code))
        }
        Plan::Composite(plan) => {
            let mut on = |e: Event| show_event(e, verbose);
            let report = exec::run_composite(plan, cwd, Io::Inherit, &mut on).map_err(ask_error)?;
            Ok(code_of(report.exit_code))
        }
    }
}

/// Judges the whole request again against the repository as the chain's
/// earlier steps left it; step `i` must come out exactly the same.
fn rejudge(input: &str, cwd: &Path, i: usize, step: &router::Step) -> Option<String> {
    let env = RepoEnv::new(cwd.to_path_buf());
    let same = match router::route(input, &env) {
        Ok(Decision {
            plan: Plan::Chain(steps),
            ..
        }) => steps.get(i) == Some(step),
        _ => false,
    };
    (!same).then(|| {
        format!(
            "blocked: the earlier commands changed what `{}` would do; the rest of the chain is not run",
            step.pipeline
                .iter()
                .map(|c| crate::text::quote::words(&c.argv))
                .collect::<Vec<_>>()
                .join(" | ")
        )
    })
}

/// Prints what the executor reports: every spawn under `-v` (exactly the
/// argv that runs), notes always.
fn show_event(e: Event, verbose: bool) {
    match e {
        Event::Spawn(argv, env) if verbose => {
            let prefix: String = env
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{k}={} ",
                        crate::text::quote::words(std::slice::from_ref(v))
                    )
                })
                .collect();
            eprintln!("+ {prefix}{}", crate::text::quote::words(argv));
        }
        Event::Spawn(..) => {}
        Event::Note(line) => eprintln!("fararoni: {line}"),
        Event::Stdout(text) => crate::cli::out(text),
    }
}

/// Replaces this process with the command, so a lone `git status` costs
/// one exec more than typing it, and git keeps the terminal (pager, colour).
fn exec_single(cmd: &router::Cmd, cwd: &Path) -> Result<ExitCode, CliError> {
    let mut process = exec::process_for(cmd, cwd);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        let err = process.exec();
        Err(not_found(&cmd.argv[0], err))
    }
    #[cfg(not(unix))]
    {
        let status = process.status().map_err(|e| not_found(&cmd.argv[0], e))?;
        Ok(code_of(status.code().unwrap_or(1)))
    }
}

fn not_found(program: &str, err: std::io::Error) -> CliError {
    CliError::user(format!("could not run `{program}`"))
        .caused_by(&err)
        .hint(format!("is `{program}` installed and on PATH?"))
}

fn note(e: Event, notes: &mut Vec<String>) {
    if let Event::Note(line) = e {
        notes.push(format!("fararoni: {line}\n"));
    }
}

fn run_json(d: &Decision, input: &str, cwd: &Path) -> Result<ExitCode, CliError> {
    let mut value = d.to_json();
    let (code, report) = match &d.plan {
        Plan::Blocked => (
            i32::from(exit::BLOCKED),
            Report {
                exit_code: i32::from(exit::BLOCKED),
                stderr: format!("blocked: {}\n", d.reason).into_bytes(),
                ..Report::default()
            },
        ),
        Plan::Model => return Err(model_plan_reached_runner()),
        Plan::Chat(talk) => {
            let (reply, fallback) = crate::agent::levels::chat_reply(*talk, input, cwd);
            let stderr = fallback
                .map(|why| format!("warning: the chat model did not answer ({why}); using the built-in reply\n"))
                .unwrap_or_default();
            (
                0,
                Report {
                    exit_code: 0,
                    stdout: format!("{reply}\n").into_bytes(),
                    stderr: stderr.into_bytes(),
                },
            )
        }
        Plan::Chain(steps) => {
            let mut notes = Vec::new();
            let mut on = |e: Event| note(e, &mut notes);
            let mut recheck = |i: usize, step: &router::Step| rejudge(input, cwd, i, step);
            let mut r = exec::run_chain(steps, cwd, Io::Capture, &mut on, &mut recheck)
                .map_err(ask_error)?;
            r.stderr.extend_from_slice(notes.concat().as_bytes());
            (r.exit_code, r)
        }
        Plan::Composite(plan) => {
            let mut notes = Vec::new();
            let mut on = |e: Event| note(e, &mut notes);
            let mut r = exec::run_composite(plan, cwd, Io::Capture, &mut on).map_err(ask_error)?;
            r.stderr.extend_from_slice(notes.concat().as_bytes());
            (r.exit_code, r)
        }
    };
    if let Value::Object(map) = &mut value {
        map.insert("exit_code".into(), json!(code));
        map.insert(
            "stdout".into(),
            json!(String::from_utf8_lossy(&report.stdout)),
        );
        map.insert(
            "stderr".into(),
            json!(String::from_utf8_lossy(&report.stderr)),
        );
    }
    crate::cli::out(&format!("{value}\n"));
    Ok(code_of(code))
}

/// Reads all of standard input as a request.
pub fn read_stdin() -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)?;
    Ok(buf)
}
