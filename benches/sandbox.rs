//! What containment costs per command: a contained spawn of `true` against
//! a plain one (target: at most 1.5 ms extra), as whole processes.
//!
//! Two contained spawns, both the product's own: through the shim,
//! `git-fararoni __sandbox-exec …`, as our agent spawns its commands (its
//! process has threads); and set up in the calling process,
//! `sandbox::run_here` (single-threaded: no shim to start). The
//! `git-fararoni --version` column is the shim's bare start. And the last
//! as `git fararoni run` uses it: started before its snapshot
//! (`sandbox::start_here`, the helper entering the namespaces meanwhile)
//! and timed from the snapshot's end (`Ready::go`); and the shim the same
//! way (`--after-stdin`, as our agent spawns a command before its
//! snapshot), timed from the byte that starts it.
//!
//! After criterion, an interleaved run, in a fresh single-threaded child
//! (criterion leaves a thread pool behind), prints medians, the difference
//! to the plain spawn and the ratio, so a busy machine slows every column
//! alike; spawns are 20 ms apart, as an agent's commands are at least a
//! model call apart (the helper's cleanup after its answer is not the next
//! command's cost).
//!
//! Run: `cargo bench --bench sandbox` (ROUNDS=N to change the 201 rounds).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};
use git_fararoni::sandbox::{self, Level, Policy, SHIM_SUBCOMMAND};

mod common;
use common::{git, timed};

/// A repository and the policy `git fararoni run` would use in it (its git
/// dir, hooks folder, `.fararoni/` and the agents' settings folders
/// protected, most of them missing, as in a fresh clone), network off.
fn fixture() -> (tempfile::TempDir, Policy) {
    // Not under /tmp: a worktree inside the temp dir makes the Landlock
    // level grant the temp dir entry by entry, which is not the usual case.
    let d = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("tempdir");
    git(d.path(), &["init", "-q", "-b", "main"]);
    let repo = git_fararoni::git::Repo::discover(d.path())
        .expect("discover")
        .expect("a repository");
    let policy = git_fararoni::contain::policy_for(&repo, false, &[]).expect("policy");
    // As `contain::command` does before every run.
    std::fs::create_dir_all(d.path().join(".fararoni")).expect(".fararoni");
    (d, policy)
}

/// The pause between two spawns of the interleaved run.
const GAP: Duration = Duration::from_millis(20);

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_git-fararoni"))
}

/// The shim command for `true` at `level` (the probe's level is replaced
/// by the one asked, to time the weaker level on a machine with both).
fn contained(policy: &Policy, level: Level) -> Command {
    let argv: Vec<OsString> = vec!["true".into()];
    let mut c = Command::new(exe());
    c.arg(SHIM_SUBCOMMAND)
        .args(sandbox::shim_args(policy, level, &argv));
    c
}

fn time(mut c: Command, dir: &Path) -> Duration {
    let (t, status) = timed(&mut c, dir);
    assert!(status.success(), "{c:?}");
    t
}

/// A column: its name and how to run (and time) its `true` in a folder.
type Case = (&'static str, Box<dyn Fn(&Path) -> Duration>);

/// A column that spawns the command `make` returns.
fn spawned(name: &'static str, make: impl Fn() -> Command + 'static) -> Case {
    (name, Box::new(move |dir| time(make(), dir)))
}

/// The columns: a plain spawn, the shim's own start, and a contained
/// `true` at each level this system has — at the Full level with the
/// network off (our agent's commands: a new network namespace) and on
/// (other agents' commands, `fararoni.sandbox.network`'s default there);
/// with `here`, also the Full level set up from this process, as `git
/// fararoni run` does (no shim; this process must be single-threaded).
fn cases(off: &Policy, on: &Policy, here: bool) -> Vec<Case> {
    let (full_off, full_on, landlock) = (off.clone(), on.clone(), off.clone());
    let mut v: Vec<Case> = vec![
        spawned("plain true", || Command::new("true")),
        spawned("git-fararoni --version", || {
            let mut c = Command::new(exe());
            c.arg("--version");
            c
        }),
    ];
    let probe = sandbox::probe();
    if probe.level >= Level::Full {
        v.push(spawned("contained true (full, no net)", move || {
            contained(&full_off, Level::Full)
        }));
        v.push(spawned("contained true (full, net)", move || {
            contained(&full_on, Level::Full)
        }));
        for (name, policy) in [
            ("shim spawned ahead (full, no net)", off.clone()),
            ("shim spawned ahead (full, net)", on.clone()),
        ] {
            v.push((name, Box::new(move |dir| shim_ahead(&policy, dir))));
        }
        if here {
            for (name, policy) in [
                ("in-process (full, no net)", off.clone()),
                ("in-process (full, net)", on.clone()),
            ] {
                v.push((name, Box::new(move |dir| in_process(&policy, dir))));
            }
            for (name, policy) in [
                ("started ahead (full, no net)", off.clone()),
                ("started ahead (full, net)", on.clone()),
            ] {
                v.push((name, Box::new(move |dir| started_ahead(&policy, dir))));
            }
        }
    }
    if probe.level >= Level::Landlock {
        v.push(spawned("contained true (landlock)", move || {
            contained(&landlock, Level::Landlock)
        }));
    }
    v
}

/// Runs `true` contained from this process ([`sandbox::run_here`]) and
/// times it up to its answer (the helper's cleanup, waited for when the
/// answer is dropped, comes after).
fn in_process(policy: &Policy, dir: &Path) -> Duration {
    let argv: Vec<OsString> = vec!["true".into()];
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    let start = Instant::now();
    let done = sandbox::run_here(policy, &argv, &env, dir)
        .expect("contained")
        .expect("a single-threaded process at the Full level");
    let t = start.elapsed();
    assert_eq!(done.code, 0);
    t
}

/// How long `git fararoni run`'s snapshot gives the helper it started
/// before (a snapshot of a small clean tree takes longer).
const AHEAD: Duration = Duration::from_millis(5);

/// Starts `true` contained from this process ([`sandbox::start_here`]), as
/// `git fararoni run` does before its snapshot, and times what is left
/// once the snapshot is done ([`sandbox::Ready::go`]: the plan, the mounts
/// and rules, the command): the start the command waits for.
fn started_ahead(policy: &Policy, dir: &Path) -> Duration {
    let argv: Vec<OsString> = vec!["true".into()];
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    let ready = sandbox::start_here(policy, &argv, &env, dir)
        .expect("contained")
        .expect("a single-threaded process at the Full level");
    std::thread::sleep(AHEAD);
    let start = Instant::now();
    let done = ready.go().expect("contained").expect("user namespaces");
    let t = start.elapsed();
    assert_eq!(done.code, 0);
    t
}

/// Spawns the shim for `true` waiting on its stdin (`--after-stdin`), as
/// our agent does before its snapshot, and times what is left once the
/// snapshot is done: the byte written, the plan, the mounts and rules, the
/// command, up to the shim's exit.
fn shim_ahead(policy: &Policy, dir: &Path) -> Duration {
    use std::io::Write as _;
    let argv: Vec<OsString> = vec!["true".into()];
    let mut child = Command::new(exe())
        .arg(SHIM_SUBCOMMAND)
        .arg(sandbox::AFTER_STDIN)
        .args(sandbox::shim_args(policy, Level::Full, &argv))
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the shim");
    let mut gate = child.stdin.take().expect("stdin");
    std::thread::sleep(AHEAD);
    let start = Instant::now();
    gate.write_all(&[1]).expect("start");
    drop(gate);
    let status = child.wait().expect("wait");
    let t = start.elapsed();
    assert!(status.success());
    t
}

fn bench_sandbox(c: &mut Criterion) {
    let (dir, off) = fixture();
    let on = Policy {
        network: true,
        ..off.clone()
    };
    let mut g = c.benchmark_group("spawn");
    for (name, run) in cases(&off, &on, false) {
        g.bench_function(name, |b| b.iter(|| run(dir.path())));
    }
    g.finish();
}

fn medians() {
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(201);
    let (dir, off) = fixture();
    let on = Policy {
        network: true,
        ..off.clone()
    };
    let cases = cases(&off, &on, true);
    let mut samples: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); cases.len()];
    for _ in 0..rounds {
        for (i, (_, run)) in cases.iter().enumerate() {
            samples[i].push(run(dir.path()));
            // The sandbox's helper tears the namespaces down and removes
            // its placeholders after the caller has its answer; an agent's
            // next command comes a model call later. Back to back, each
            // column would pay for the previous one's cleanup.
            std::thread::sleep(GAP);
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let med: Vec<f64> = samples
        .into_iter()
        .map(|mut s| {
            s.sort();
            ms(s[s.len() / 2])
        })
        .collect();
    println!(
        "\nsandbox spawn, medians of {rounds} interleaved rounds ({}):",
        sandbox::probe()
    );
    for ((name, _), m) in cases.iter().zip(&med) {
        println!(
            "  {name:34} {m:6.3} ms  {:+6.3} ms vs plain  {:5.2}× plain",
            m - med[0],
            m / med[0]
        );
    }
    println!("  target: contained − plain ≤ 1.5 ms");
}

criterion_group!(benches, bench_sandbox);

/// Set in the child that prints the medians: a fresh process, single-
/// threaded (criterion's analysis leaves a thread pool behind), so it can
/// host the sandbox itself.
const MEDIANS_CHILD: &str = "FARARONI_BENCH_MEDIANS";

fn main() {
    if std::env::var_os(MEDIANS_CHILD).is_some() {
        medians();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    let status = Command::new(std::env::current_exe().expect("this bench"))
        .env(MEDIANS_CHILD, "1")
        .status()
        .expect("the medians' child");
    assert!(status.success());
}
