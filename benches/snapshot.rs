//! Benchmarks of `shadow::dirty::snapshot`, the save of the dirty set
//! before a program outside the store runs:
//!
//! - `snapshot_first/{10,100,1000}`: a new session's first snapshot of a
//!   tree with that many dirty files, each iteration new content in every
//!   file (so every file is saved: the worst case);
//! - `snapshot_unchanged/{10,100,1000}`: a further snapshot of the same
//!   session with nothing changed since (compare and save nothing).
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
use git_fararoni::shadow::{dirty, Session, Shadow};

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

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_secs(1));
    bench(&mut c);
    c.final_summary();
}
