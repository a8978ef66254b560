//! Benchmarks of the deterministic zone.
//!
//! - `route/*`: routing one input, in-process (target: median under 10 µs).
//! - `process/*`: whole processes in a temporary repository: `git status`
//!   run directly (the baseline), `git-fararoni ask "git status"` and
//!   `git-fararoni ask pwd`. After criterion, an interleaved run prints the
//!   medians and the ratio against the baseline measured in the same run
//!   (targets: at most 1.25× for `ask "git status"`, under 5 ms for `ask pwd`),
//!   and, as the floor of any program that runs git for you, `env git
//!   status`: a minimal C program that only execs git.
//!
//! - `explain`: whole processes of `git-fararoni ask --explain` on a
//!   level 1.5 request, a request for the model and prose after a program's
//!   name, interleaved with `true` and `git --version` (target: under 5 ms;
//!   the ratios are against those two in the same run).
//!
//! Run with `cargo bench --bench router` (`-- route` for routing only,
//! `-- explain` for the `ask --explain` processes only).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};
use git_fararoni::router::{route, NoFacts};

mod common;
use common::git;

const INPUTS: &[(&str, &str)] = &[
    ("bare_git_status", "git status"),
    ("bare_chain", "git log --oneline | head -5 && git status"),
    ("bare_blocked_push", "git push --force origin main"),
    ("bare_lead_in", "can you run `git log -3`?"),
    ("bare_lead_in_es", "porfa: git status"),
    ("composite_commit", "do the commit"),
    (
        "composite_message_es",
        "haz commit con el mensaje «corrige el login»",
    ),
    ("composite_slang_es", "hacé el commit che"),
    ("composite_typos", "hsz el comit porfaaa 🙏"),
    ("composite_paths", "commit only src/main.rs and README.md"),
    (
        "composite_formal_es",
        "Le ruego que haga un commit de los cambios.",
    ),
    ("composite_question_es", "¿en qué rama estoy?"),
    ("composite_blocked_es", "bota mis cambios"),
    ("chat", "gracias"),
    ("chat_slang", "grax bro 🙏"),
    ("chat_laughter", "jajajaja"),
    (
        "llm_task",
        "refactor StudentService to use constructor injection and add tests",
    ),
    ("except_paths", "commit everything except the .env file"),
    ("llm_condition", "commit only if the tests pass"),
    ("llm_message_condition", "commit with message wip if tests pass"),
    ("llm_amend_content", "amend the last commit to include app.py"),
    ("llm_adjective_name", "switch to dark mode"),
    ("llm_adjective_name_es", "borra la rama vieja"),
    ("llm_prose_program", "diff algorithms: myers vs patience?"),
    ("composite_tag_previous", "tag the previous commit as v0.9"),
    ("composite_undo_count", "undo the last 2 commits"),
    ("composite_rename_from", "rename branch old-feature to legacy"),
    ("composite_create_from", "create a branch from develop called feature/x"),
    ("composite_needful", "do the needful and commit the code"),
    ("composite_regional_es", "qué onda wey, me regala un commit porfa"),
    ("bare_refused_no_git", "please reset --hard"),
    ("llm_question_es", "¿cómo hago un rebase interactivo sin perder cambios?"),
    (
        "llm_long",
        "please review the error handling in src/router/mod.rs and tell me whether the chain splitting \
         can lose a segment when the request ends with a semicolon, then propose a fix with tests",
    ),
];

fn bench_route(c: &mut Criterion) {
    let mut group = c.benchmark_group("route");
    let facts = NoFacts::new();
    for (name, input) in INPUTS {
        // Warm the lazily built lexicon index outside the measurement.
        let _ = route(input, &facts);
        group.bench_function(*name, |b| b.iter(|| route(black_box(input), &facts)));
    }
    group.finish();
}

/// A repository shaped like a project: `dirs` × 10 tracked files, one
/// modified and one untracked.
fn fixture_repo(dirs: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    git(p, &["init", "-q", "-b", "main"]);
    for d in 0..dirs {
        std::fs::create_dir_all(p.join(format!("src/m{d}"))).expect("mkdir");
        for f in 0..10 {
            std::fs::write(
                p.join(format!("src/m{d}/f{f}.rs")),
                format!("fn f{f}() {{}}\n"),
            )
            .expect("write");
        }
    }
    git(p, &["add", "-A"]);
    git(p, &["commit", "-q", "-m", "fixture"]);
    std::fs::write(p.join("src/m0/f0.rs"), "fn changed() {}\n").expect("write");
    std::fs::write(p.join("untracked.txt"), "new\n").expect("write");
    // Let the index settle so both sides see the same (racy-clean) state.
    git(p, &["status"]);
    dir
}

fn run(cmd: &mut Command) {
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("process runs");
    assert!(status.success());
}

fn commands(repo: &Path) -> [(&'static str, Command); 4] {
    let bin = env!("CARGO_BIN_EXE_git-fararoni");
    let mut direct = Command::new("git");
    direct.arg("status").current_dir(repo);
    let mut ask_status = Command::new(bin);
    ask_status.args(["ask", "git status"]).current_dir(repo);
    let mut ask_pwd = Command::new(bin);
    ask_pwd.args(["ask", "pwd"]).current_dir(repo);
    let mut env = Command::new("env");
    env.args(["git", "status"]).current_dir(repo);
    [
        ("git_status_direct", direct),
        ("ask_git_status", ask_status),
        ("ask_pwd", ask_pwd),
        ("env_git_status", env),
    ]
}

fn bench_process(c: &mut Criterion) {
    let repo = fixture_repo(20);
    let mut group = c.benchmark_group("process");
    group
        .sample_size(60)
        .measurement_time(Duration::from_secs(4));
    for (name, mut cmd) in commands(repo.path()) {
        group.bench_function(name, |b| b.iter(|| run(&mut cmd)));
    }
    group.finish();
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// Interleaves the four processes so that machine noise hits them alike,
/// and prints medians and ratios against `git status` run directly, in a
/// small (200 files) and a medium (2,000 files) repository.
fn ratios() {
    for dirs in [20, 200] {
        ratios_in(dirs);
    }
}

fn ratios_in(dirs: usize) {
    let repo = fixture_repo(dirs);
    let mut cmds = commands(repo.path());
    let mut times: [Vec<f64>; 4] = Default::default();
    for round in 0..400 {
        // Every other round runs the commands in reverse, so none always
        // follows the same neighbour (whose cache misses it would inherit).
        let order: [usize; 4] = if round % 2 == 0 {
            [0, 1, 2, 3]
        } else {
            [3, 2, 1, 0]
        };
        for i in order {
            let start = Instant::now();
            run(&mut cmds[i].1);
            if round >= 20 {
                times[i].push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    // The figure the issue bounds, paired round by round: the noise of a
    // whole `git status` cancels out of each difference, not of two medians.
    let mut paired: Vec<f64> = times[1].iter().zip(&times[3]).map(|(a, e)| a - e).collect();
    let paired = median(&mut paired);
    let [direct, status, pwd, env] = times.map(|mut t| median(&mut t));
    println!(
        "\nprocess medians over 380 interleaved rounds, {} tracked files (same run):",
        dirs * 10
    );
    println!("  git status (direct)           {direct:.3} ms  (baseline)");
    println!(
        "  git-fararoni ask \"git status\" {status:.3} ms  ratio {:.2}x (target <= 1.25x)",
        status / direct
    );
    println!(
        "  git-fararoni ask pwd          {pwd:.3} ms  ratio {:.2}x (target < 5 ms)",
        pwd / direct
    );
    println!(
        "  env git status                {env:.3} ms  ratio {:.2}x (floor: one exec in between)",
        env / direct
    );
    println!(
        "  ask \"git status\" - env git status  {paired:+.3} ms (median of paired rounds; target <= 0.2 ms)"
    );
}

/// `ask --explain` as whole processes, interleaved with `true` (the cost
/// of starting any process) and `git --version` (of starting git), in a
/// repository with branches: medians and ratios from the same run.
fn explain_ratios() {
    let repo = fixture_repo(20);
    git(repo.path(), &["branch", "develop"]);
    let bin = env!("CARGO_BIN_EXE_git-fararoni");
    let explain = |request: &str| {
        let mut c = Command::new(bin);
        c.args(["ask", "--explain", request])
            .current_dir(repo.path());
        c
    };
    let mut truth = Command::new("true");
    truth.current_dir(repo.path());
    let mut version = Command::new("git");
    version.arg("--version").current_dir(repo.path());
    let mut cmds: Vec<(&str, Command)> = vec![
        ("true", truth),
        ("git --version", version),
        ("ask --explain \"do the needful and commit the code\"", explain("do the needful and commit the code")),
        ("ask --explain \"switch to develop\"", explain("switch to develop")),
        ("ask --explain \"switch to dark mode\"", explain("switch to dark mode")),
        ("ask --explain \"cat videos lol\"", explain("cat videos lol")),
        ("ask --explain <long task>", explain("please review the error handling in src/router/mod.rs and tell me whether the chain splitting can lose a segment")),
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); cmds.len()];
    for round in 0..220 {
        let n = cmds.len();
        for k in 0..n {
            let i = if round % 2 == 0 { k } else { n - 1 - k };
            let start = Instant::now();
            run(&mut cmds[i].1);
            if round >= 20 {
                times[i].push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    let medians: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
    println!("\nask --explain, whole process, medians over 200 interleaved rounds (same run):");
    for ((name, _), m) in cmds.iter().zip(&medians) {
        println!(
            "  {name:<55} {m:.3} ms  {:.2}x true  {:.2}x git --version",
            m / medians[0],
            m / medians[1]
        );
    }
}

criterion_group!(benches, bench_route, bench_process);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "explain") {
        explain_ratios();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    // `cargo bench --bench router -- route` measures routing only; the
    // interleaved process rounds take minutes and would only add noise
    // (and samples) to a profile of it.
    if !args.iter().any(|a| a.starts_with("route")) {
        ratios();
        explain_ratios();
    }
}
