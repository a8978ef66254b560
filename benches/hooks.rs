//! Benchmarks of the git hooks, as whole processes (what git pays per
//! commit or checkout): `git-fararoni hook pre-commit` with 20 ordinary
//! staged edits (target: under 50 ms), with nothing staged (under 10 ms),
//! and `git-fararoni hook post-checkout` without a saga (under 10 ms).
//! After criterion, an interleaved run prints the medians against the
//! targets, and as ratios to a bare process start (`true`) and to `git
//! diff --cached --quiet` (what git pays to learn nothing is staged)
//! measured in the same rounds.
//!
//! Run with `cargo bench --bench hooks` (`-- post_checkout` for one case;
//! the medians always run all).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};

mod common;
use common::git;

/// A repository of 200 source files of 60 lines; with `staged`, 20 of
/// them carry an ordinary edit (a line changed, one added) in the index.
fn fixture(staged: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    git(p, &["init", "-q", "-b", "main"]);
    for f in 0..200 {
        let text: String = (0..60)
            .map(|i| format!("    let v{i} = compute({f}, {i});\n"))
            .collect();
        std::fs::write(
            p.join(format!("f{f}.rs")),
            format!("fn f{f}() {{\n{text}}}\n"),
        )
        .expect("write");
    }
    git(p, &["add", "-A"]);
    git(p, &["commit", "-q", "-m", "fixture"]);
    if staged {
        for f in 0..20 {
            let path = p.join(format!("f{f}.rs"));
            let text = std::fs::read_to_string(&path).expect("read");
            let text = text.replacen("compute(", "compute_fast(", 1) + "// reviewed\n";
            std::fs::write(&path, text).expect("write");
        }
        git(p, &["add", "-A"]);
    }
    dir
}

fn hook(repo: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_git-fararoni"));
    cmd.arg("hook").args(args).current_dir(repo);
    cmd
}

fn run(cmd: &mut Command) {
    // `git diff --cached --quiet` exits 0 when nothing is staged, as every
    // hook here must.
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("process runs");
    assert!(status.success());
}

/// The floor every hook pays before doing anything: a bare process start.
fn bare() -> Command {
    Command::new("true")
}

/// What git itself pays to learn that nothing is staged.
fn git_nothing_staged(repo: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.args(["diff", "--cached", "--quiet"]).current_dir(repo);
    cmd
}

fn cases(busy: &Path, idle: &Path) -> [(&'static str, Command, f64); 5] {
    [
        ("baseline_true", bare(), f64::NAN),
        (
            "baseline_git_diff_cached_quiet",
            git_nothing_staged(idle),
            f64::NAN,
        ),
        ("pre_commit_20_files", hook(busy, &["pre-commit"]), 50.0),
        (
            "pre_commit_nothing_staged",
            hook(idle, &["pre-commit"]),
            10.0,
        ),
        (
            "post_checkout_no_saga",
            hook(idle, &["post-checkout", "0000", "0000", "1"]),
            10.0,
        ),
    ]
}

fn bench_hooks(c: &mut Criterion) {
    let (busy, idle) = (fixture(true), fixture(false));
    let mut group = c.benchmark_group("hooks");
    group
        .sample_size(40)
        .measurement_time(Duration::from_secs(4));
    for (name, mut cmd, _) in cases(busy.path(), idle.path()) {
        if name.starts_with("baseline") {
            continue;
        }
        group.bench_function(name, |b| b.iter(|| run(&mut cmd)));
    }
    group.finish();
}

fn medians() {
    let (busy, idle) = (fixture(true), fixture(false));
    let mut cases = cases(busy.path(), idle.path());
    let mut times: [Vec<f64>; 5] = Default::default();
    for round in 0..120 {
        for (i, (_, cmd, _)) in cases.iter_mut().enumerate() {
            let start = Instant::now();
            run(cmd);
            if round >= 10 {
                times[i].push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    println!("\nhook process medians over 110 interleaved rounds:");
    let medians: Vec<f64> = times
        .into_iter()
        .map(|mut t| {
            t.sort_by(|a, b| a.total_cmp(b));
            t[t.len() / 2]
        })
        .collect();
    // Ratios to the baselines of the same run: absolute figures on a
    // shared machine move with its load, ratios much less.
    let (bare, git) = (medians[0], medians[1]);
    for ((name, _, target), m) in cases.iter().zip(&medians) {
        let goal = if target.is_nan() {
            String::new()
        } else {
            format!(" (target < {target} ms)")
        };
        println!(
            "  {name:32} {m:6.2} ms  {:5.2}× true  {:5.2}× git diff --cached --quiet{goal}",
            m / bare,
            m / git
        );
    }
}

criterion_group!(benches, bench_hooks);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    medians();
}
