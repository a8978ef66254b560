//! Benchmarks of `shadow::dirty::snapshot`, the save of the dirty set
//! before a program outside the store runs:
//!
//! - `snapshot_first/{10,100,1000}`: a new session's first snapshot of a
//!   tree with that many dirty files, each iteration new content in every
//!   file (so every file is saved: the worst case);
//! - `snapshot_unchanged/{10,100,1000}`: a further snapshot of the same
//!   session with nothing changed since (compare and save nothing);
//! - `state/{first,unchanged,one_ref,index,hook}`: the save of the
//!   repository's own state (`gitstate::save_state`: 500 refs, a stash, the
//!   index, config, hooks) for a new session (everything new: the worst
//!   case), then with nothing changed, one ref moved, the index rewritten,
//!   one hook written. The run ends with each as a ratio of `first`: cost
//!   proportional to what changed shows as ratios far below 1.
//!
//! One temporary repository per size, built once (on the temp dir's file
//! system: fsync costs are real). Linear cost shows as equal time per file.
//!
//! Run: `cargo bench --bench snapshot -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use git_fararoni::git::repo::Repo;
use git_fararoni::shadow::{dirty, gitstate, Session, Shadow};

mod common;
use common::git;

/// A repository with `n` tracked files (in ten folders) and a commit.
fn repo(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    git(dir.path(), &["init", "-q"]);
    for i in 0..n {
        let sub = dir.path().join(format!("d{}", i % 10));
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(sub.join(format!("f{i}.rs")), format!("fn f{i}() {{}}\n")).expect("write");
    }
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

/// Makes every file dirty with content new to the store.
fn dirty_all(root: &Path, n: usize, round: u64) {
    for i in 0..n {
        let path = root.join(format!("d{}/f{i}.rs", i % 10));
        let text = format!(
            "fn f{i}() {{ let round = {round}; }}\n{}\n",
            "// x".repeat(64)
        );
        std::fs::write(path, text).expect("write");
    }
}

fn bench(c: &mut Criterion) {
    let mut first = c.benchmark_group("snapshot_first");
    first.sample_size(10);
    for n in [10usize, 100, 1000] {
        let dir = repo(n);
        let repo = Repo::discover(dir.path()).expect("repo").expect("a repo");
        let shadow = Shadow::open(&repo).expect("store");
        let mut round = 0u64;
        first.throughput(Throughput::Elements(n as u64));
        first.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter_batched(
                || {
                    round += 1;
                    dirty_all(dir.path(), n, round);
                    Session::new(format!("bench-{round}")).expect("session")
                },
                |session| {
                    let snap = dirty::snapshot(&shadow, &repo, &session).expect("snapshot");
                    assert_eq!(snap.saved, n);
                },
                criterion::BatchSize::PerIteration,
            );
        });
    }
    first.finish();

    let mut again = c.benchmark_group("snapshot_unchanged");
    again.sample_size(10);
    for n in [10usize, 100, 1000] {
        let dir = repo(n);
        let repo = Repo::discover(dir.path()).expect("repo").expect("a repo");
        let shadow = Shadow::open(&repo).expect("store");
        dirty_all(dir.path(), n, 1);
        let session = Session::new("bench-again").expect("session");
        dirty::snapshot(&shadow, &repo, &session).expect("snapshot");
        again.throughput(Throughput::Elements(n as u64));
        again.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| {
                let snap = dirty::snapshot(&shadow, &repo, &session).expect("snapshot");
                assert_eq!(snap.unchanged, n);
                assert!(snap.recorded.is_empty());
            });
        });
    }
    again.finish();
}

/// A repository with two commits, 400 branches, 100 tags (half annotated), a stash
/// entry, a staged change and the sample hooks.
fn state_repo() -> tempfile::TempDir {
    let dir = repo(10);
    let root = dir.path();
    std::fs::write(root.join("d0/f0.rs"), "second\n").expect("write");
    git(root, &["commit", "-q", "-am", "second"]);
    for i in 0..400 {
        git(root, &["branch", &format!("b{i}")]);
    }
    for i in 0..100u32 {
        if i.is_multiple_of(2) {
            git(root, &["tag", "-a", &format!("t{i}"), "-m", "tag"]);
        } else {
            git(root, &["tag", &format!("t{i}")]);
        }
    }
    std::fs::write(root.join("d0/f0.rs"), "stashed\n").expect("write");
    git(root, &["stash", "-q"]);
    std::fs::write(root.join("d1/f1.rs"), "staged\n").expect("write");
    git(root, &["add", "d1/f1.rs"]);
    // As `git gc` leaves them in a real repository.
    git(root, &["pack-refs", "--all"]);
    dir
}

/// What each state benchmark changes before a save.
#[derive(Clone, Copy)]
enum Change {
    Nothing,
    OneRef,
    Index,
    Hook,
}

fn change(root: &Path, what: Change, round: u64) {
    match what {
        Change::Nothing => {}
        Change::OneRef => git(
            root,
            &[
                "branch",
                "-f",
                "b7",
                if round.is_multiple_of(2) {
                    "HEAD"
                } else {
                    "HEAD~1"
                },
            ],
        ),
        Change::Index => {
            std::fs::write(root.join("d2/f2.rs"), format!("round {round}\n")).expect("write");
            git(root, &["add", "d2/f2.rs"]);
        }
        Change::Hook => std::fs::write(
            root.join(".git/hooks/pre-commit"),
            format!("#!/bin/sh\n# {round}\n"),
        )
        .expect("write"),
    }
}

fn bench_state(c: &mut Criterion) -> Vec<(&'static str, Duration)> {
    let dir = state_repo();
    let root = dir.path().to_path_buf();
    let mut group = c.benchmark_group("state");
    group.sample_size(20);
    let mut round = 0u64;
    group.bench_function("first", |b| {
        b.iter_batched(
            || {
                round += 1;
                let repo = Repo::discover(&root).expect("repo").expect("a repo");
                (
                    repo,
                    Session::new(format!("first-{round}")).expect("session"),
                )
            },
            |(repo, session)| {
                gitstate::save_state(&repo, &session).expect("save");
            },
            criterion::BatchSize::PerIteration,
        );
    });
    let session = Session::new("again").expect("session");
    let repo = Repo::discover(&root).expect("repo").expect("a repo");
    gitstate::save_state(&repo, &session).expect("save");
    for (name, what) in [
        ("unchanged", Change::Nothing),
        ("one_ref", Change::OneRef),
        ("index", Change::Index),
        ("hook", Change::Hook),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    round += 1;
                    change(&root, what, round);
                    Repo::discover(&root).expect("repo").expect("a repo")
                },
                |repo| {
                    gitstate::save_state(&repo, &session).expect("save");
                },
                criterion::BatchSize::PerIteration,
            );
        });
    }
    group.finish();
    // The same, timed by hand for the ratios printed at the end (medians
    // of 15 runs; each change, and opening the repository, which every
    // caller has done already, outside the timed part).
    let mut out = Vec::new();
    for (name, what) in [
        ("first", None),
        ("unchanged", Some(Change::Nothing)),
        ("one_ref", Some(Change::OneRef)),
        ("index", Some(Change::Index)),
        ("hook", Some(Change::Hook)),
    ] {
        let mut times = Vec::new();
        for _ in 0..15 {
            round += 1;
            let s = match what {
                None => Session::new(format!("ratio-{round}")).expect("session"),
                Some(w) => {
                    change(&root, w, round);
                    session.clone()
                }
            };
            let repo = Repo::discover(&root).expect("repo").expect("a repo");
            let start = std::time::Instant::now();
            gitstate::save_state(&repo, &s).expect("save");
            times.push(start.elapsed());
        }
        times.sort();
        out.push((name, times[times.len() / 2]));
    }
    out
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_secs(1));
    bench(&mut c);
    let state = bench_state(&mut c);
    c.final_summary();
    if let Some((_, first)) = state.first() {
        println!("state save, median of 15, as a ratio of a new session's first save:");
        for (name, t) in &state {
            println!(
                "  {name:<10} {:>9.3} ms   ratio {:.3}",
                t.as_secs_f64() * 1e3,
                t.as_secs_f64() / first.as_secs_f64()
            );
        }
    }
}
