//! `ShellCommand` and `GitAction`: a command line is routed exactly as a
//! person's would be at level 1 (same parser, same expansions), judged with
//! the `Agent` posture, and run without a shell. Git writes go into a saga;
//! builds run alone with a timeout and their output is distilled; every
//! command that may write is bracketed by dirty-set snapshots so
//! `undo --session` reverses what it did.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{ToolOutcome, Workspace};
use crate::agent::distill;
use crate::agent::protocol::Step;
use crate::exec::{self, Event, Io};
use crate::facts::RepoEnv;
use crate::policy::{self, Actor, Risk};
use crate::router::{self, Cmd, CmdKind, Plan};

/// Programs that change files behind the guard's back, and what the model
/// should do instead.
pub const AROUND_GUARD: &[(&str, &str)] = &[
    (
        "rm",
        "deleting files is not one of your tools; say in your answer which files should be deleted",
    ),
    (
        "rmdir",
        "deleting folders is not one of your tools; say in your answer which should be deleted",
    ),
    ("shred", "deleting files is not one of your tools"),
    ("unlink", "deleting files is not one of your tools"),
    ("tee", "write files with fs_write or fs_patch"),
    (
        "sed",
        "change files with fs_patch (exact search/replace) or fs_write",
    ),
    ("perl", "change files with fs_patch or fs_write"),
    ("awk", "change files with fs_patch or fs_write"),
    ("cp", "create the copy with fs_write"),
    (
        "mv",
        "write the new file with fs_write; say in your answer which old file should be deleted",
    ),
    ("touch", "create files with fs_write"),
    ("truncate", "change files with fs_write"),
    ("dd", "change files with fs_write"),
    ("install", "create files with fs_write"),
    ("ln", "links are not created by the agent"),
    ("patch", "apply changes with fs_patch"),
    ("mkdir", "fs_write creates missing folders"),
    ("chmod", "file modes are not changed by the agent"),
];

const REDIRECT_ADVICE: &str =
    "redirections write files behind the guard; write files with fs_write or fs_patch";

/// The most characters of a (non-build) command's output the model reads.
const OUTPUT_CHARS: usize = 6000;

/// Keys that may name git's subcommand in a GitAction call (the seed's
/// `{"action": "commit", "params": "-m 'fix'"}`), first found wins.
const GIT_HEAD_KEYS: &[&str] = &["action", "subcommand", "operation", "verb"];
/// Keys whose words follow the subcommand, in this order.
const GIT_BODY_KEYS: &[&str] = &["args", "params", "parameters", "options", "flags", "argv"];
/// Keys of a command's own arguments next to a ShellCommand `command`.
const SHELL_BODY_KEYS: &[&str] = &["args", "arguments", "argv", "params"];

/// A JSON value as words of a command line: a string as written, an array
/// as its items quoted one by one (numbers and booleans as their text).
fn words_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(|i| match i {
                    Value::String(s) => Some(crate::text::quote::word(s)),
                    Value::Number(_) | Value::Bool(_) => Some(i.to_string()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

/// The git command line a GitAction call means, without `git`: `{args}`
/// (string or array), `{command}`, or the seed's `{action, params}`.
pub(super) fn git_words(args: &Value) -> Option<String> {
    let head = GIT_HEAD_KEYS
        .iter()
        .find_map(|k| args.get(*k).and_then(words_of));
    let body: Vec<String> = GIT_BODY_KEYS
        .iter()
        .chain(["command", "cmd"].iter())
        .filter_map(|k| args.get(*k).and_then(words_of))
        .collect();
    // `{"action": "commit", "args": "commit -m x"}` says the verb twice.
    let repeated = |h: &String| {
        body.first().is_some_and(|b| {
            let b = b.strip_prefix("git ").unwrap_or(b);
            b.split_whitespace().next() == h.split_whitespace().next()
        })
    };
    let mut parts: Vec<String> = head.filter(|h| !repeated(h)).into_iter().collect();
    parts.extend(body);
    // `{"action": "commit", "message": "fix"}`: the message is `-m`.
    if let Some(m) = args.get("message").and_then(Value::as_str) {
        if !parts.iter().any(|p| p.contains("-m")) {
            parts.push(format!("-m {}", crate::text::quote::word(m)));
        }
    }
    let line = parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    (!line.is_empty()).then_some(line)
}

/// The command line a ShellCommand call means: `{command}` as a string or
/// an argv array, with `{args}` appended when given apart.
pub(super) fn shell_words(args: &Value) -> Option<String> {
    let mut line = args.get("command").and_then(words_of)?;
    for k in SHELL_BODY_KEYS {
        if let Some(rest) = args.get(*k).and_then(words_of) {
            if !rest.is_empty() {
                line.push(' ');
                line.push_str(&rest);
            }
        }
    }
    (!line.trim().is_empty()).then_some(line)
}

pub(super) fn git_action(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let Some(line) = git_words(args) else {
        return ToolOutcome::fail(
            "git",
            "error: no args",
            "GitAction needs `args`, e.g. \"status\" or \"commit -m 'msg'\" (or `action` and `params`)",
        );
    };
    let line = match line.strip_prefix("git ") {
        Some(rest) => format!("git {}", rest.trim_start()),
        None if line == "git" => line,
        None => format!("git {line}"),
    };
    run_line(ws, &line, true)
}

pub(super) fn shell(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let Some(command) = shell_words(args) else {
        return ToolOutcome::fail(
            "",
            "error: no command",
            "ShellCommand needs `command`, a command line or an array of words",
        );
    };
    run_line(ws, command.trim(), false)
}

/// The advice for a refused line: the first program of the line that
/// writes around the guard, or the redirection rule.
fn around_guard(line: &str, reason: &str) -> Option<&'static str> {
    if reason.contains("redirection") {
        return Some(REDIRECT_ADVICE);
    }
    line.split(|c: char| c.is_whitespace() || ";&|()".contains(c))
        .map(|w| w.rsplit('/').next().unwrap_or(w))
        .find_map(|w| AROUND_GUARD.iter().find(|(p, _)| *p == w).map(|(_, a)| *a))
}

fn run_line(ws: &mut Workspace, line: &str, git_only: bool) -> ToolOutcome {
    let env = RepoEnv::new(ws.root.clone());
    let decision = match router::route_for(line, &env, Actor::Agent) {
        Ok(d) => d,
        Err(e) => return ToolOutcome::fail(line, "refused: input", e.to_string()),
    };
    let steps = match decision.plan {
        Plan::Chain(steps) => steps,
        Plan::Blocked => {
            let mut why = decision.reason.clone();
            if let Some(advice) = around_guard(line, &why) {
                why = format!("{why}. Instead: {advice}");
            }
            let verdict = format!("refused: {}", decision.risk.as_str());
            return ToolOutcome::fail(line, verdict, why);
        }
        _ => {
            return ToolOutcome::fail(
                line,
                "refused: not a command",
                format!("`{line}` is not a command line the policy knows (read-only tools, git, builds and tests); nothing was run"),
            )
        }
    };
    let cmds: Vec<&Cmd> = steps.iter().flat_map(|s| s.pipeline.iter()).collect();
    if git_only && cmds.iter().any(|c| c.kind != CmdKind::Git) {
        return ToolOutcome::fail(
            line,
            "refused: not git",
            "GitAction runs git only; use ShellCommand for other programs",
        );
    }
    if let Some(why) = read_refusal(ws, &steps) {
        return ToolOutcome::fail(line, "refused: read", why);
    }
    let build = match cmds.as_slice() {
        [one] => policy::builds::build_of(&one.argv).is_some() && one.kind == CmdKind::Utility,
        many => {
            if many
                .iter()
                .any(|c| policy::builds::build_of(&c.argv).is_some())
            {
                return ToolOutcome::fail(
                    line,
                    "refused: build in a chain",
                    "run a build or test on its own, as one ShellCommand",
                );
            }
            false
        }
    };
    let needs_saga = cmds.iter().any(|c| {
        c.kind == CmdKind::Git
            && policy::classify(&c.argv, &c.env, Actor::Agent, &env, &ws.root).needs_saga
    });
    if needs_saga {
        match crate::saga::ensure_saga(&ws.root) {
            Ok(saga) => {
                if ws.saga.as_deref() != Some(saga.id.as_str()) {
                    ws.log.event("saga", serde_json::json!({"id": saga.id, "wip": saga.wip_branch, "original": saga.original_branch}));
                }
                ws.saga = Some(saga.id.clone());
            }
            Err(e) => {
                let hints = e.hints().join("; ");
                return ToolOutcome::fail(
                    line,
                    "refused: saga",
                    format!(
                        "a model's git writes run inside a saga, and none could start: {e}{}",
                        if hints.is_empty() {
                            String::new()
                        } else {
                            format!(" ({hints})")
                        }
                    ),
                );
            }
        }
    }
    // The refs before a git write in the saga: what it changes besides
    // the saga's branch (a tag, a branch, HEAD) is recorded in the saga,
    // for `saga abort` to put back.
    let refs_before = if needs_saga {
        match crate::saga::refs::values(&ws.root) {
            Ok(v) => Some(v),
            Err(e) => {
                return ToolOutcome::fail(
                    line,
                    "refused: saga",
                    format!("the repository's refs could not be read before the git write ({e}); nothing was run"),
                )
            }
        }
    } else {
        None
    };
    let writes = decision.risk > Risk::ReadOnly;
    // What writes and is not git runs contained: it may write only the
    // working tree (never the git dir, hooks or store) and, unless the
    // settings allow it, not reach the network. Git's own writes are
    // judged by the policy and run in the saga.
    let contained = match writes.then(|| Containment::open(&ws.root)).transpose() {
        Ok(c) => c,
        Err(why) => {
            return ToolOutcome::fail(line, "refused: sandbox", format!("{why}; nothing was run"))
        }
    };
    // A single contained command is spawned before the snapshot, its
    // sandbox set up meanwhile; it reads the tree and starts once the
    // snapshot is done.
    let mut ahead = match (cmds.as_slice(), &contained) {
        ([one], Some(c)) if one.kind != CmdKind::Git => match spawn_ahead(one, ws, c) {
            Ok(a) => a,
            Err(why) => return ToolOutcome::fail(line, "refused: sandbox", why),
        },
        _ => None,
    };
    if writes {
        if let Err(why) = super::dirty::snapshot(ws.guard.shadow(), &ws.root, &ws.session) {
            if let Some(a) = ahead.take() {
                a.cancel();
            }
            return ToolOutcome::fail(
                line,
                "refused: snapshot",
                format!("the files could not be saved before running it ({why}); nothing was run"),
            );
        }
    }
    let timeout = if build {
        ws.limits.build_timeout
    } else {
        ws.limits.command_timeout
    };
    let result = if let [one] = cmds.as_slice() {
        match ahead {
            Some(mut a) => {
                a.start();
                finish_one(a, one, timeout)
            }
            None => run_one(one, ws, timeout, contained.as_ref()),
        }
    } else {
        let mut on = |_: Event| {};
        let root = ws.root.clone();
        let mut recheck = |i: usize, step: &router::Step| {
            let env = RepoEnv::new(root.clone());
            match router::route_for(line, &env, Actor::Agent) {
                Ok(router::Decision { plan: Plan::Chain(s), .. }) if s.get(i) == Some(step) => None,
                _ => Some("the earlier commands changed what the rest of the line would do; it was not run".to_string()),
            }
        };
        let mut agent_steps = steps.clone();
        for s in &mut agent_steps {
            for c in &mut s.pipeline {
                mark_agent(c);
            }
        }
        let mut wrap = |c: &Cmd, p: std::process::Command| match &contained {
            Some(box_) if c.kind != CmdKind::Git => box_.wrap(&p),
            _ => Ok(p),
        };
        match exec::run_chain_with(
            &agent_steps,
            &ws.root,
            Io::Capture,
            &mut on,
            &mut recheck,
            &mut wrap,
        ) {
            Ok(r) => Ok(Ran {
                code: Some(r.exit_code),
                output: join_output(&r.stdout, &r.stderr),
                timed_out: false,
            }),
            Err(e) => Err(e.to_string()),
        }
    };
    let mut recorded = Vec::new();
    if writes {
        match super::dirty::record(ws.guard.shadow(), &ws.root, &ws.session) {
            Ok(changes) => recorded = changes,
            Err(why) => ws.log.event(
                "dirty_error",
                serde_json::json!({"command": line, "error": why}),
            ),
        }
    }
    let mut refs_changed = Vec::new();
    if let Some(before) = &refs_before {
        let recorded = crate::saga::refs::values(&ws.root)
            .and_then(|after| crate::saga::refs::record(&ws.root, before, &after));
        match recorded {
            Ok(changes) => {
                if !changes.is_empty() {
                    ws.log.event(
                        "refs",
                        serde_json::json!({"command": line, "changes": changes}),
                    );
                }
                refs_changed = changes;
            }
            Err(e) => ws.log.event(
                "refs_error",
                serde_json::json!({"command": line, "error": e.to_string()}),
            ),
        }
    }
    let ran = match result {
        Ok(r) => r,
        Err(why) => return ToolOutcome::fail(line, "error: run", why),
    };
    let mut content = if build {
        distill::distill(&ran.output, ran.code).text
    } else {
        format!(
            "exit code {}\n{}",
            ran.code
                .map_or("none (killed)".to_string(), |c| c.to_string()),
            bounded(&ran.output)
        )
    };
    if ran.timed_out {
        content = format!(
            "the command was stopped after {} s (time limit)\n{content}",
            timeout.as_secs()
        );
    }
    if contained.is_some() && !passed_or_none(&ran) {
        content.push_str(&format!(
            "\n(it ran contained: writing outside the working tree or into the git dir is refused{}; the user can widen it with `fararoni.sandbox.writable`)",
            if contained.as_ref().is_some_and(|c| !c.network) { ", and it has no network" } else { "" }
        ));
    }
    if !recorded.is_empty() {
        content.push_str(&format!(
            "\nfiles the command changed (recorded for undo): {}",
            recorded.join(", ")
        ));
    }
    let passed = ran.code == Some(0) && !ran.timed_out;
    let step = match (build, passed) {
        (true, true) => Step::BuildPassed,
        (true, false) => Step::BuildFailed,
        _ => Step::Other,
    };
    let commit = (passed
        && cmds
            .iter()
            .any(|c| c.kind == CmdKind::Git && c.argv.get(1).is_some_and(|a| a == "commit")))
    .then(|| {
        crate::git::GitCommand::new(["rev-parse", "HEAD"])
            .dir(&ws.root)
            .protected()
            .read()
            .ok()
            .map(|s| s.trim().to_string())
    })
    .flatten();
    if !refs_changed.is_empty() {
        let names: Vec<&str> = refs_changed.iter().map(|c| c.name.as_str()).collect();
        content.push_str(&format!(
            "\nrefs the command changed (recorded in the saga; `saga abort` puts them back): {}",
            names.join(", ")
        ));
        if refs_changed.iter().any(|c| c.name == "HEAD") {
            content.push_str("\nHEAD left the saga's branch: further git writes are refused until the user finishes or aborts the saga");
        }
        ws.effects
            .extend(refs_changed.iter().map(|c| format!("ref {}", c.name)));
    }
    ws.effects.extend(recorded);
    if let Some(c) = &commit {
        ws.effects.push(format!("commit {c}"));
    }
    ToolOutcome {
        content,
        ok: passed,
        verdict: if ran.timed_out {
            "timeout".into()
        } else if passed {
            "ok".into()
        } else {
            format!("exit {}", ran.code.unwrap_or(-1))
        },
        target: line.to_string(),
        step,
        wrote: None,
        commit,
    }
}

/// Why the line may not run because of what it would read: outside the
/// working tree, or a secret over a remote endpoint (see `reads`).
fn read_refusal(ws: &Workspace, steps: &[router::Step]) -> Option<String> {
    let guard_secrets = ws.limits.remote && !ws.limits.send_secrets;
    super::reads::refusal(&ws.root, steps, guard_secrets)
}

/// Git run for the agent tells hooks so (`FARARONI_ACTOR=agent`).
fn mark_agent(c: &mut Cmd) {
    if c.kind == CmdKind::Git {
        c.env.retain(|(k, _)| k != "FARARONI_ACTOR");
        c.env.push(("FARARONI_ACTOR".into(), "agent".into()));
    }
}

struct Ran {
    code: Option<i32>,
    output: String,
    timed_out: bool,
}

/// Whether a run ended well (or was not a run of a program at all).
fn passed_or_none(r: &Ran) -> bool {
    r.code == Some(0) && !r.timed_out
}

fn join_output(stdout: &[u8], stderr: &[u8]) -> String {
    let mut s = String::from_utf8_lossy(stdout).into_owned();
    if !stderr.is_empty() {
        if !s.is_empty() && !s.ends_with('\n') {
            s.push('\n');
        }
        s.push_str(&String::from_utf8_lossy(stderr));
    }
    s
}

/// Keeps the start and the end of a long output (the end of a command's
/// output is where its verdict is).
fn bounded(s: &str) -> String {
    let n = s.chars().count();
    if n <= OUTPUT_CHARS {
        return s.to_string();
    }
    let head: String = s.chars().take(OUTPUT_CHARS / 3).collect();
    let tail: String = s.chars().skip(n - OUTPUT_CHARS * 2 / 3).collect();
    format!(
        "{head}\n[… {} characters left out …]\n{tail}",
        n - OUTPUT_CHARS
    )
}

fn capped_reader(
    r: impl std::io::Read + Send + 'static,
    cap: usize,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut r = r;
        let mut buf = [0u8; 8192];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        kept
    })
}

/// The sandbox the agent's writing commands run in: the repository's
/// working tree, with the network as `fararoni.sandbox.network` says.
struct Containment {
    repo: crate::git::Repo,
    network: bool,
}

impl Containment {
    fn open(root: &std::path::Path) -> Result<Containment, String> {
        let repo = crate::git::Repo::discover(root)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("`{}` is not a repository", root.display()))?;
        let network =
            crate::settings::read::sandbox_settings(crate::settings::of(Some(&repo))).network;
        Ok(Containment { repo, network })
    }

    fn wrap(&self, process: &std::process::Command) -> Result<std::process::Command, String> {
        crate::contain::wrap(&self.repo, self.network, process)
            .map_err(|e| crate::text::chain::one_line(&e))
    }

    /// [`Containment::wrap`], waiting to start (see `contain::wrap_ahead`).
    fn wrap_ahead(
        &self,
        process: &std::process::Command,
    ) -> Result<Option<std::process::Command>, String> {
        crate::contain::wrap_ahead(&self.repo, self.network, process)
            .map_err(|e| crate::text::chain::one_line(&e))
    }
}

/// Runs one command with a time limit, its output capped, in its own
/// process group so a timeout stops everything it started.
fn run_one(
    cmd: &Cmd,
    ws: &Workspace,
    timeout: Duration,
    contained: Option<&Containment>,
) -> Result<Ran, String> {
    let mut cmd = cmd.clone();
    mark_agent(&mut cmd);
    let mut process = exec::process_for(&cmd, &ws.root);
    if let Some(c) = contained.filter(|_| cmd.kind != CmdKind::Git) {
        process = c.wrap(&process).map_err(|why| not_contained(&cmd, &why))?;
    }
    let spawned = spawn(process, &cmd, ws, false)?;
    finish_one(spawned, &cmd, timeout)
}

/// Spawns one contained command waiting to start ([`Spawned::start`]):
/// `None` where the sandbox cannot wait (then [`run_one`] after the
/// snapshot).
fn spawn_ahead(
    cmd: &Cmd,
    ws: &Workspace,
    contained: &Containment,
) -> Result<Option<Spawned>, String> {
    let mut cmd = cmd.clone();
    mark_agent(&mut cmd);
    let process = exec::process_for(&cmd, &ws.root);
    match contained
        .wrap_ahead(&process)
        .map_err(|why| not_contained(&cmd, &why))?
    {
        Some(process) => spawn(process, &cmd, ws, true).map(Some),
        None => Ok(None),
    }
}

fn not_contained(cmd: &Cmd, why: &str) -> String {
    format!(
        "`{}` could not be run contained, so it was not run: {why}",
        cmd.argv[0]
    )
}

/// A command spawned in its own process group, its output being read.
struct Spawned {
    child: Child,
    out: Option<std::thread::JoinHandle<Vec<u8>>>,
    err: Option<std::thread::JoinHandle<Vec<u8>>>,
    /// The stdin of a sandbox waiting to start the command.
    gate: Option<std::process::ChildStdin>,
}

impl Spawned {
    /// Tells a waiting sandbox to start the command (its stdin then reads
    /// nothing, as a command's here does).
    fn start(&mut self) {
        if let Some(mut gate) = self.gate.take() {
            use std::io::Write as _;
            let _ = gate.write_all(&[1]);
        }
    }

    /// Closes a waiting sandbox's stdin without starting the command (it
    /// exits without running it) and waits for it.
    fn cancel(mut self) {
        drop(self.gate.take());
        let _ = self.child.wait();
        for h in [self.out.take(), self.err.take()].into_iter().flatten() {
            let _ = h.join();
        }
    }
}

fn spawn(
    mut process: std::process::Command,
    cmd: &Cmd,
    ws: &Workspace,
    gated: bool,
) -> Result<Spawned, String> {
    process
        .stdin(if gated { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        process.process_group(0);
    }
    let mut child: Child = process
        .spawn()
        .map_err(|e| format!("could not run `{}`: {e}", cmd.argv[0]))?;
    let cap = ws.limits.output_cap;
    let out = child.stdout.take().map(|o| capped_reader(o, cap));
    let err = child.stderr.take().map(|e| capped_reader(e, cap));
    let gate = child.stdin.take();
    Ok(Spawned {
        child,
        out,
        err,
        gate,
    })
}

/// Waits for a spawned command with a time limit, killing its process
/// group at the limit, and returns what it printed.
fn finish_one(spawned: Spawned, cmd: &Cmd, timeout: Duration) -> Result<Ran, String> {
    let Spawned {
        mut child,
        out,
        err,
        gate,
    } = spawned;
    drop(gate);
    let start = Instant::now();
    let mut timed_out = false;
    // Checked often at first, then every 10 ms: most commands end within
    // a few milliseconds, and a fixed 10 ms pause would add up to that
    // much to each of them.
    let mut pause = Duration::from_micros(250);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() >= timeout => {
                timed_out = true;
                kill_group(&mut child);
                break child.wait().ok();
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            Err(e) => return Err(format!("could not wait for `{}`: {e}", cmd.argv[0])),
        }
    };
    let stdout = out.and_then(|h| h.join().ok()).unwrap_or_default();
    let stderr = err.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(Ran {
        code: status.and_then(|s| s.code()),
        output: join_output(&stdout, &stderr),
        timed_out,
    })
}

fn kill_group(child: &mut Child) {
    crate::sys::process::kill_group(child.id());
    let _ = child.kill();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_for_writers() {
        assert!(around_guard("rm -rf src", "").is_some_and(|a| a.contains("deleting")));
        assert!(around_guard("sed -i s/a/b/ x", "").is_some_and(|a| a.contains("fs_patch")));
        assert!(around_guard(
            "echo x",
            "rule shell: redirections create or overwrite files"
        )
        .is_some_and(|a| a.contains("fs_write")));
        assert!(around_guard("git push", "").is_none());
    }

    #[test]
    fn every_git_action_shape_reads_as_one_line() {
        use serde_json::json;
        let cases = [
            (
                json!({"action": "commit", "params": "-m 'fix'"}),
                "commit -m 'fix'",
            ),
            (
                json!({"action": "branch", "params": "develop"}),
                "branch develop",
            ),
            (json!({"action": "status"}), "status"),
            (json!({"args": "log --oneline -3"}), "log --oneline -3"),
            (
                json!({"args": ["commit", "-m", "fix it"]}),
                "commit -m 'fix it'",
            ),
            (json!({"command": "git diff"}), "git diff"),
            (
                json!({"action": "commit", "params": ["-m", "a b"]}),
                "commit -m 'a b'",
            ),
            (
                json!({"action": "commit", "message": "fix bug"}),
                "commit -m 'fix bug'",
            ),
            (json!({"args": "log", "params": ["-n", 2]}), "log -n 2"),
            (
                json!({"action": "commit", "args": "commit -m x"}),
                "commit -m x",
            ),
        ];
        for (args, want) in cases {
            assert_eq!(git_words(&args).as_deref(), Some(want), "{args}");
        }
        assert_eq!(git_words(&json!({})), None);
        assert_eq!(git_words(&json!({"args": ""})), None);
    }

    #[test]
    fn shell_commands_read_as_strings_or_argv() {
        use serde_json::json;
        assert_eq!(
            shell_words(&json!({"command": "ls -la"})).as_deref(),
            Some("ls -la")
        );
        assert_eq!(
            shell_words(&json!({"command": ["grep", "-n", "a b", "x.rs"]})).as_deref(),
            Some("grep -n 'a b' x.rs")
        );
        assert_eq!(
            shell_words(&json!({"command": "cargo", "args": ["test", "--lib"]})).as_deref(),
            Some("cargo test --lib")
        );
        assert_eq!(shell_words(&json!({"command": []})), None);
        assert_eq!(
            shell_words(&json!({"cmd": "ls"})),
            None,
            "keys are normalized before"
        );
    }

    #[test]
    fn long_output_keeps_both_ends() {
        let s = format!("START{}END", "x".repeat(20_000));
        let b = bounded(&s);
        assert!(b.starts_with("START") && b.ends_with("END") && b.len() < 7000);
    }
}
