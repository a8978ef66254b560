//! Benchmarks of the protection triad's write path:
//!
//! - `killswitch/{1MB,5MB,10MB}`: `guard::check` on a pair of source-like files
//!   (every 40th line edited); linear cost shows as equal throughput;
//! - `seed_core/{1MB,10MB}`: the seed's own measurement alone (two sets of
//!   hashed non-blank trimmed lines, Jaccard and volume), as a yardstick:
//!   on a busy machine the ratio `killswitch` / `seed_core` is steadier than
//!   either time;
//! - `killswitch_functions/{1MB,10MB}`: `guard::check_file` on Rust made of
//!   small functions (every 40th line edited), so the stub scanner and the
//!   placeholder checks have bodies and comments to look at;
//! - `killswitch_structure/{1MB,10MB}`: `guard::check_file` on the same
//!   Rust with every 25th body replaced by a comment and every 50th by
//!   `todo!()`, so the structural judgement (diff, classed lines, hunks)
//!   has removals to weigh all through the file;
//! - `write_20KB/*`: a 20 KB source file written with a plain atomic write
//!   (temp, fsync, rename, fsync dir) vs a guarded write (lock, kill-switch,
//!   backup, journal, atomic write), each iteration a new content, on the
//!   temp dir's file system and, when present, on tmpfs (`/dev/shm`, where
//!   fsync is free, to show the CPU cost alone);
//! - after criterion: the guarded/plain ratio (medians of 60 runs each) and
//!   the store's growth for 100 writes of one file.
//!
//! Run: `cargo bench --bench guard -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use camino::Utf8Path;
use criterion::{BenchmarkId, Criterion, Throughput};
use git_fararoni::guard::{guarded_write, killswitch, Guard, Thresholds, WriteOptions};
use git_fararoni::shadow::{atomic_write, Session};

mod common;
use common::median;

/// About `size` bytes of source-like text.
fn source(size: usize) -> Vec<u8> {
    let mut out = String::with_capacity(size + 100);
    let mut i = 0u64;
    while out.len() < size {
        out.push_str(&format!(
            "    let value_{i} = compute({i}, \"{}\", {});\n",
            i % 97,
            i.wrapping_mul(2_654_435_761) % 100_000
        ));
        i += 1;
    }
    out.into_bytes()
}

/// The seed's measurement alone: Jaccard and volume over hashed, trimmed,
/// non-blank lines, with the same kind of hash and tables as the kill-switch.
fn seed_core(old: &[u8], new: &[u8]) -> (f64, f64) {
    use std::collections::HashSet;
    use std::hash::{BuildHasherDefault, Hasher};
    #[derive(Default)]
    struct Pass(u64);
    impl Hasher for Pass {
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
        }
        fn write_u64(&mut self, n: u64) {
            self.0 = n;
        }
        fn finish(&self) -> u64 {
            self.0
        }
    }
    fn hash(line: &[u8]) -> u64 {
        let mut h = (line.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for chunk in line.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            h = (h ^ u64::from_le_bytes(w))
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29);
        }
        h ^ (h >> 33)
    }
    let set = |bytes: &[u8]| {
        let mut s: HashSet<u64, BuildHasherDefault<Pass>> =
            HashSet::with_capacity_and_hasher(bytes.len() / 40 + 1, Default::default());
        let mut n = 0usize;
        for line in bytes.split(|&b| b == b'\n').map(<[u8]>::trim_ascii) {
            if !line.is_empty() {
                n += 1;
                s.insert(hash(line));
            }
        }
        (s, n)
    };
    let (a, na) = set(old);
    let (b, nb) = set(new);
    let common = b.iter().filter(|h| a.contains(h)).count();
    let union = a.len() + b.len() - common;
    (
        common as f64 / union.max(1) as f64,
        nb as f64 / na.max(1) as f64,
    )
}

/// About `size` bytes of Rust: functions of a few statements with a doc
/// comment each.
fn functions(size: usize) -> Vec<u8> {
    let mut out = String::with_capacity(size + 200);
    let mut i = 0u64;
    while out.len() < size {
        out.push_str(&format!(
            "/// Computes step {i} of the pipeline.\npub fn step_{i}(input: &[u8], state: &mut State) -> Result<u64, Error> {{\n    let value = compute({i}, input.len() as u64, \"{}\")?;\n    if value > {} {{\n        state.record({i}, value);\n    }}\n    Ok(value ^ 0x{:x})\n}}\n\n",
            i % 97,
            i.wrapping_mul(2_654_435_761) % 100_000,
            i.wrapping_mul(0x9e37_79b9)
        ));
        i += 1;
    }
    out.into_bytes()
}

/// `base` with every 40th line replaced by one mentioning `tag`.
fn edited(base: &[u8], tag: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(base.len() + 64);
    for (n, line) in base.split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        if n % 40 == 7 {
            out.extend_from_slice(format!("    // edit {tag} at {n}").as_bytes());
        } else {
            out.extend_from_slice(line);
        }
        out.push(b'\n');
    }
    out
}

/// A fresh repository with `src/lib.rs` of 20 KB, under `parent`.
fn repo_in(parent: &Path) -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::Builder::new()
        .prefix("fararoni-bench")
        .tempdir_in(parent)
        .expect("tempdir");
    let ok = Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(dir.path())
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git init");
    std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
    let file = dir.path().join("src/lib.rs");
    let content = source(20 * 1024);
    std::fs::write(&file, &content).expect("write");
    (dir, file, content)
}

fn bench_killswitch(c: &mut Criterion) {
    let mut group = c.benchmark_group("killswitch");
    let t = Thresholds::default();
    for mb in [1usize, 5, 10] {
        let old = source(mb << 20);
        let new = edited(&old, 1);
        group.throughput(Throughput::Bytes((old.len() + new.len()) as u64));
        group.sample_size(20);
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{mb}MB")),
            &(old, new),
            |b, (o, n)| {
                b.iter(|| black_box(killswitch::check(Some(black_box(o)), black_box(n), &t)))
            },
        );
    }
    group.finish();

    let mut group = c.benchmark_group("seed_core");
    for mb in [1usize, 10] {
        let old = source(mb << 20);
        let new = edited(&old, 1);
        group.throughput(Throughput::Bytes((old.len() + new.len()) as u64));
        group.sample_size(20);
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{mb}MB")),
            &(old, new),
            |b, (o, n)| b.iter(|| black_box(seed_core(black_box(o), black_box(n)))),
        );
    }
    group.finish();

    let mut group = c.benchmark_group("killswitch_functions");
    for mb in [1usize, 10] {
        let old = functions(mb << 20);
        let new = edited(&old, 1);
        group.throughput(Throughput::Bytes((old.len() + new.len()) as u64));
        group.sample_size(20);
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{mb}MB")),
            &(old, new),
            |b, (o, n)| {
                b.iter(|| {
                    black_box(killswitch::check_file(
                        "src/pipeline.rs",
                        Some(black_box(o)),
                        black_box(n),
                        &t,
                    ))
                })
            },
        );
    }
    group.finish();
}

/// `functions(size)` with the body of every 25th function replaced by a
/// comment and every 50th by `todo!()`: a lazy rewrite spread over the
/// whole file, so the structural judgement has a removal to weigh every
/// few hundred lines.
fn gutted(base: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(base);
    let mut out = String::with_capacity(base.len());
    for (i, f) in text.split_inclusive("}\n\n").enumerate() {
        match (i % 50, f.find("{\n")) {
            (0, Some(p)) => out.push_str(&format!("{}{{\n    todo!()\n}}\n\n", &f[..p])),
            (25, Some(p)) => out.push_str(&format!("{}{{\n    // same as before\n}}\n\n", &f[..p])),
            _ => out.push_str(f),
        }
    }
    out.into_bytes()
}

fn bench_structure(c: &mut Criterion) {
    // `guard check` on lazy rewrites: linear cost shows as equal
    // throughput at 1 MB and 10 MB.
    let mut group = c.benchmark_group("killswitch_structure");
    let t = Thresholds::default();
    for mb in [1usize, 10] {
        let old = functions(mb << 20);
        let new = gutted(&old);
        assert!(killswitch::check_file("src/p.rs", Some(&old), &new, &t).blocked());
        group.throughput(Throughput::Bytes((old.len() + new.len()) as u64));
        group.sample_size(20);
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{mb}MB")),
            &(old, new),
            |b, (o, n)| {
                b.iter(|| {
                    black_box(killswitch::check_file(
                        "src/pipeline.rs",
                        Some(black_box(o)),
                        black_box(n),
                        &t,
                    ))
                })
            },
        );
    }
    group.finish();
}

fn bench_writes(c: &mut Criterion, label: &str, parent: &Path) {
    let mut group = c.benchmark_group(format!("write_20KB/{label}"));
    group.sample_size(30);
    let session = Session::new("bench").expect("session");

    let (_dir, file, base) = repo_in(parent);
    let mut n = 0u64;
    group.bench_function("plain_atomic", |b| {
        b.iter(|| {
            n += 1;
            atomic_write(&file, &edited(&base, n)).expect("atomic write")
        })
    });

    let (dir, file, base) = repo_in(parent);
    let guard = Guard::discover(dir.path()).expect("guard");
    let target = guard
        .shadow()
        .resolve(dir.path(), Path::new("src/lib.rs"))
        .expect("path");
    let opts = WriteOptions {
        session: Some(session.clone()),
        ..WriteOptions::default()
    };
    let mut n = 0u64;
    group.bench_function("guarded", |b| {
        b.iter(|| {
            n += 1;
            guard
                .write(&target, &edited(&base, n), &opts)
                .expect("guarded write")
        })
    });
    drop(file);

    let (dir, _file, base) = repo_in(parent);
    let mut n = 0u64;
    group.bench_function("guarded_write_discovering_the_repo", |b| {
        b.iter(|| {
            n += 1;
            guarded_write(
                dir.path(),
                Utf8Path::new("src/lib.rs"),
                &edited(&base, n),
                &opts,
            )
            .expect("guarded write")
        })
    });
    group.finish();
}

/// Prints the guarded/plain ratio from interleaved runs: guarded writes in
/// one session (each also checked against the session's baseline, the
/// file as the session first found it), and guarded writes each in a new
/// session (no baseline to check yet).
fn ratio(label: &str, parent: &Path) {
    let (_d1, plain_file, base) = repo_in(parent);
    let (dir, _f, _) = repo_in(parent);
    let (fresh_dir, _f3, _) = repo_in(parent);
    let session = Session::new("bench-ratio").expect("session");
    let opts = WriteOptions {
        session: Some(session),
        ..WriteOptions::default()
    };
    let (mut plain, mut guarded, mut e2e, mut fresh) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let guard = Guard::discover(dir.path()).expect("guard");
    let target = guard
        .shadow()
        .resolve(dir.path(), Path::new("src/lib.rs"))
        .expect("path");
    let fresh_guard = Guard::discover(fresh_dir.path()).expect("guard");
    let fresh_target = fresh_guard
        .shadow()
        .resolve(fresh_dir.path(), Path::new("src/lib.rs"))
        .expect("path");
    for n in 0..60u64 {
        let content = edited(&base, n + 1);
        let t = Instant::now();
        atomic_write(&plain_file, &content).expect("atomic write");
        plain.push(t.elapsed());
        let content = edited(&base, n + 1_000);
        let t = Instant::now();
        guard
            .write(&target, &content, &opts)
            .expect("guarded write");
        guarded.push(t.elapsed());
        let content = edited(&base, n + 2_000);
        let t = Instant::now();
        guarded_write(dir.path(), Utf8Path::new("src/lib.rs"), &content, &opts)
            .expect("guarded write");
        e2e.push(t.elapsed());
        let content = edited(&base, n + 3_000);
        let own = WriteOptions {
            session: Some(Session::new(format!("bench-fresh-{n}")).expect("session")),
            ..WriteOptions::default()
        };
        let t = Instant::now();
        fresh_guard
            .write(&fresh_target, &content, &own)
            .expect("guarded write");
        fresh.push(t.elapsed());
    }
    let (p, g, e, f) = (median(plain), median(guarded), median(e2e), median(fresh));
    let x = |d: Duration| d.as_secs_f64() / p.as_secs_f64();
    println!(
        "ratio[{label}]: 20 KB write, median of 60: plain atomic {p:.2?}, guarded {g:.2?} ({:.2}x), \
         guarded_write with discovery {e:.2?} ({:.2}x), guarded in a new session each {f:.2?} ({:.2}x)",
        x(g),
        x(e),
        x(f)
    );
}

/// Returns the bytes held by distinct files under `dir`, and their count.
fn distinct_bytes(dir: &Path) -> (u64, usize) {
    use std::os::unix::fs::MetadataExt as _;
    let mut seen = std::collections::HashSet::new();
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let Ok(m) = e.metadata() else { continue };
            if m.is_dir() {
                stack.push(e.path());
            } else if seen.insert((m.dev(), m.ino())) {
                total += m.len();
            }
        }
    }
    (total, seen.len())
}

/// Prints the store's growth for 100 writes of one 20 KB file.
fn growth(parent: &Path) {
    for (label, distinct) in [
        ("2 alternating contents", 2u64),
        ("100 distinct contents", 100),
    ] {
        let (dir, _file, base) = repo_in(parent);
        let opts = WriteOptions {
            force: true,
            session: Some(Session::new("bench-growth").expect("session")),
            thresholds: None,
        };
        let start = Instant::now();
        for n in 0..100u64 {
            let content = edited(&base, n % distinct);
            guarded_write(dir.path(), Utf8Path::new("src/lib.rs"), &content, &opts).expect("write");
        }
        let took = start.elapsed();
        let store = dir.path().join(".fararoni");
        let (bytes, files) = distinct_bytes(&store.join("shadow"));
        let (obj_bytes, objects) = distinct_bytes(&store.join("objects"));
        let journal = std::fs::metadata(store.join("journal.jsonl")).map_or(0, |m| m.len());
        let versions = std::fs::read_dir(store.join("shadow/src")).map_or(0, |r| r.count());
        println!(
            "growth[{label}]: 100 writes of a {} B file in {took:.2?}; {versions} version files \
             holding {bytes} B in {files} distinct files; objects {obj_bytes} B in {objects} files \
             (one per distinct retained content); journal {journal} B",
            base.len()
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let listing = std::env::args().any(|a| a == "--list" || a == "--test");
    bench_killswitch(&mut c);
    bench_structure(&mut c);
    let tmp = std::env::temp_dir();
    bench_writes(&mut c, "disk", &tmp);
    let shm = Path::new("/dev/shm");
    let have_shm = shm.is_dir() && tempfile::tempdir_in(shm).is_ok();
    if have_shm {
        bench_writes(&mut c, "tmpfs", shm);
    }
    c.final_summary();
    if !listing {
        ratio("disk", &tmp);
        if have_shm {
            ratio("tmpfs", shm);
        }
        growth(&tmp);
    }
}
