//! Benchmarks of the agent's own costs:
//!
//! - `distill/{256KB,1MB,4MB}`: the build-output distiller on a log of
//!   compiler progress with an error every 400 lines; equal throughput
//!   across sizes shows the cost is linear (target: 1 MB under 10 ms);
//! - `loop/{1,10}_calls`: a level-3 run of 1 call (the model answers) and
//!   of 10 (nine calls of a tool refused at once, so no tool I/O, with a
//!   2 kB argument each so the conversation grows, then an answer),
//!   against a zero-latency scripted model that keeps nothing: the loop's
//!   own work — request building, directive injection, context fitting,
//!   normalization, protocol, text-call extraction, session log (created
//!   on the first answer) — per call. The once-per-run dirty-set snapshot
//!   (a `git status`) is taken before the clock starts, and closing the
//!   workspace after it stops. Target: under 1 ms a call;
//! - after criterion: the per-call figure (median of 101 runs of each
//!   length; `(10 − 1) / 9` is one more call) with the load average, and
//!   the fixed prompt's estimated token count;
//! - and the loop's cost per call as a ratio against a baseline timed in
//!   the same interleaved rounds: serializing the 10th call's request (the
//!   whole conversation as the server receives it, `wire_messages` and
//!   `serde_json`), the least any client does per call. Ratios hold on a
//!   busy machine where absolute figures do not.
//!
//! Run: `cargo bench --bench agent -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use git_fararoni::agent::client::{ChatMessage, Role, ToolCall, ToolMode};
use git_fararoni::agent::distill::distill;
use git_fararoni::agent::run::{fixed_prompt_tokens, run, AgentEvent, RunConfig};
use git_fararoni::agent::script::{Scripted, ScriptedClient};
use git_fararoni::agent::tools::{Limits, Workspace};
use git_fararoni::shadow::Session;
use serde_json::json;

fn log(size: usize) -> String {
    let mut out = String::with_capacity(size + 200);
    let mut i = 0usize;
    while out.len() < size {
        if i % 400 == 399 {
            out.push_str(&format!(
                "src/module_{}.c:{}:7: error: expected ';' before '}}' token\n",
                i % 37,
                i % 900
            ));
        } else {
            out.push_str(&format!("   Compiling crate_{i} v0.{}.{} (registry+https://github.com/rust-lang/crates.io-index)\n", i % 9, i % 31));
        }
        i += 1;
    }
    out
}

fn bench_distill(c: &mut Criterion) {
    let mut g = c.benchmark_group("distill");
    for (name, size) in [("256KB", 256 << 10), ("1MB", 1 << 20), ("4MB", 4 << 20)] {
        let input = log(size);
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &input, |b, input| {
            b.iter(|| black_box(distill(black_box(input), Some(1))))
        });
    }
    g.finish();
}

fn git(dir: &std::path::Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=b", "-c", "user.email=b@example.com"])
        .args(args)
        .current_dir(dir)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "git {args:?}");
}

/// A scripted reply: text, or one call of `tool` with `args`.
fn reply(text: &str, call: Option<(&str, serde_json::Value)>) -> Scripted {
    Scripted {
        text: text.into(),
        think: None,
        tool_calls: call
            .map(|(name, args)| vec![json!({"name": name, "arguments": args})])
            .unwrap_or_default(),
        error: None,
        finish: None,
    }
}

/// The replies of an `n`-call run: `n − 1` calls of a tool that does no
/// I/O (an `fs_write` refused at once for its empty path, carrying a 2 kB
/// file as a real write does, so the conversation grows as in a real run)
/// and an answer.
fn script(n: usize) -> Vec<Scripted> {
    let content = "fn main() {\n    println!(\"hello\");\n}\n".repeat(50);
    let mut replies = vec![
        reply(
            "",
            Some(("fs_write", json!({"path": "", "content": content})))
        );
        n - 1
    ];
    replies.push(reply("done", None));
    replies
}

/// A workspace whose once-per-run dirty-set snapshot (a `git status`: the
/// tools' I/O) is already taken, so the run measures only the loop.
fn workspace(dir: &Path) -> Workspace {
    let mut ws =
        Workspace::open(dir, Session::fresh("bench"), Limits::default()).expect("workspace");
    ws.snapshot_dirty().expect("snapshot");
    ws
}

/// One run of `n` calls against a zero-latency model that keeps nothing;
/// the workspace is returned so that closing it is not measured.
fn one_run(dir: &Path, n: usize, cfg: &RunConfig) -> (Workspace, Duration) {
    let mut ws = workspace(dir);
    let mut client = ScriptedClient::silent(script(n));
    let mut on = |_: AgentEvent<'_>| {};
    let started = Instant::now();
    black_box(run(&mut client, &mut ws, "write the file", cfg, &mut on).expect("run"));
    (ws, started.elapsed())
}

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").expect("write");
    git(dir.path(), &["add", "a.txt"]);
    git(dir.path(), &["commit", "-q", "-m", "a"]);
    dir
}

const CFG: RunConfig = RunConfig {
    max_depth: 20,
    mode: ToolMode::Native,
    max_tokens: 1024,
    temperature: 0.2,
    context_tokens: 8192,
};

fn bench_loop(c: &mut Criterion) {
    let dir = repo();
    let mut g = c.benchmark_group("loop");
    for n in [1usize, 10] {
        g.bench_function(format!("{n}_calls"), |b| {
            b.iter_batched(
                || (workspace(dir.path()), ScriptedClient::silent(script(n))),
                |(mut ws, mut client)| {
                    let mut on = |_: AgentEvent<'_>| {};
                    let r = run(&mut client, &mut ws, "write the file", &CFG, &mut on);
                    // Returned, so dropping the workspace is not measured.
                    (ws, black_box(r.expect("run")))
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

/// The median of `runs` runs of `n` calls.
fn median_run(dir: &Path, n: usize, runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs).map(|_| one_run(dir, n, &CFG).1).collect();
    times.sort();
    times[runs / 2]
}

/// The loop's own cost per model call, derived from two run lengths.
fn per_call_figure() {
    let dir = repo();
    let one = median_run(dir.path(), 1, 101);
    let ten = median_run(dir.path(), 10, 101);
    let marginal = ten.saturating_sub(one) / 9;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "agent loop, its own work per model call (zero-latency model, no tool I/O): {:.0} µs a call over a 10-call run, {:.0} µs for one more call, {:.0} µs for a 1-call run; target < 1000 µs; load {}",
        ten.as_secs_f64() * 1e6 / 10.0,
        marginal.as_secs_f64() * 1e6,
        one.as_secs_f64() * 1e6,
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
}

/// The conversation the 10th call of a [`script`] run sends: the system
/// prompt, the request, nine 2 kB calls and their results, the directive.
fn tenth_request() -> Vec<ChatMessage> {
    let content = "fn main() {\n    println!(\"hello\");\n}\n".repeat(50);
    let mut h = vec![
        ChatMessage::text(Role::System, git_fararoni::agent::run::SYSTEM_PROMPT),
        ChatMessage::text(Role::User, "write the file"),
    ];
    for i in 0..9 {
        let mut a = ChatMessage::text(Role::Assistant, "");
        a.tool_calls.push(ToolCall {
            id: format!("call_{i}_1"),
            name: "fs_write".into(),
            arguments: json!({"path": "", "content": content}),
        });
        h.push(a);
        h.push(ChatMessage::tool_result(
            format!("call_{i}_1"),
            "ERROR: fs_write needs a path",
        ));
    }
    h.push(ChatMessage::text(Role::System, "PROTOCOL-MANDATE: answer."));
    h
}

/// The loop's cost per call against serializing one request, interleaved
/// round by round: medians and the ratio from the same run.
fn loop_ratio() {
    let dir = repo();
    let history = tenth_request();
    let tools = git_fararoni::agent::tools::specs();
    let rounds = 61;
    let (mut base, mut per_call) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let serialize = |base: &mut Vec<f64>| {
            let t = Instant::now();
            let wire = git_fararoni::agent::modes::wire_messages(
                black_box(&history),
                &tools,
                ToolMode::Native,
            );
            black_box(serde_json::to_string(&wire).expect("json"));
            base.push(t.elapsed().as_secs_f64() * 1e6);
        };
        if round % 2 == 0 {
            serialize(&mut base);
        }
        let (_ws, d) = one_run(dir.path(), 10, &CFG);
        per_call.push(d.as_secs_f64() * 1e6 / 10.0);
        if round % 2 == 1 {
            serialize(&mut base);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let b = median(&mut base);
    let l = median(&mut per_call);
    println!(
        "agent loop per call (10-call run) against serializing the 10th request, medians of {rounds} interleaved rounds: baseline {b:.0} µs, loop {l:.0} µs a call, ratio {:.2}x",
        l / b
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_distill(&mut c);
    bench_loop(&mut c);
    c.final_summary();
    per_call_figure();
    loop_ratio();
    println!("fixed prompt (system + longest directive + 8 tool definitions): ~{} tokens (4 chars a token)", fixed_prompt_tokens());
}
