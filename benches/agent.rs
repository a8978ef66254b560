//! Benchmarks of the agent's own costs:
//!
//! - `distill/{256KB,1MB,4MB}`: the build-output distiller on a log of
//!   compiler progress with an error every 400 lines; equal throughput
//!   across sizes shows the cost is linear (target: 1 MB under 10 ms);
//! - `loop/1_call_answer`: a level-3 run whose scripted model answers at
//!   once: the loop's own cost for one model call — request building,
//!   directive injection, protocol, session log (created on that first
//!   answer) — with no model and no tool (target: under 1 ms a call);
//! - `loop/10_calls`: nine calls of a tool that does almost nothing (an
//!   `fs_patch` whose search text is absent: resolve, read a 3-line file,
//!   answer with an error) and an answer; `(10_calls − 1_call_answer) / 9`
//!   is the marginal cost of one more model call;
//! - after criterion: the fixed prompt's estimated token count.
//!
//! Run: `cargo bench --bench agent -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::process::Command;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use git_fararoni::agent::distill::distill;
use git_fararoni::agent::run::{fixed_prompt_tokens, run, RunConfig};
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

fn bench_loop(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").expect("write");
    git(dir.path(), &["add", "a.txt"]);
    git(dir.path(), &["commit", "-q", "-m", "a"]);
    let mut script = vec![
        Scripted {
            text: String::new(),
            think: None,
            tool_calls: vec![
                json!({"name": "fs_patch", "arguments": {"path": "a.txt", "search": "absent", "replace": "x"}})
            ],
            error: None,
        };
        9
    ];
    script.push(Scripted {
        text: "done".into(),
        think: None,
        tool_calls: Vec::new(),
        error: None,
    });
    let cfg = RunConfig {
        max_depth: 20,
        ..RunConfig::default()
    };
    let mut g = c.benchmark_group("loop");
    let answer = vec![Scripted {
        text: "done".into(),
        think: None,
        tool_calls: Vec::new(),
        error: None,
    }];
    g.bench_function("1_call_answer", |b| {
        b.iter_batched(
            || {
                let ws = Workspace::open(dir.path(), Session::fresh("bench"), Limits::default())
                    .expect("workspace");
                (ws, ScriptedClient::new(answer.clone()))
            },
            |(mut ws, mut client)| {
                let mut on = |_: git_fararoni::agent::run::AgentEvent<'_>| {};
                black_box(run(&mut client, &mut ws, "hello", &cfg, &mut on).expect("run"))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("10_calls", |b| {
        b.iter_batched(
            || {
                let ws = Workspace::open(dir.path(), Session::fresh("bench"), Limits::default())
                    .expect("workspace");
                (ws, ScriptedClient::new(script.clone()))
            },
            |(mut ws, mut client)| {
                let mut on = |_: git_fararoni::agent::run::AgentEvent<'_>| {};
                black_box(run(&mut client, &mut ws, "list the files", &cfg, &mut on).expect("run"))
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_distill(&mut c);
    bench_loop(&mut c);
    c.final_summary();
    println!("fixed prompt (system + longest directive + 8 tool definitions): ~{} tokens (4 chars a token)", fixed_prompt_tokens());
}
