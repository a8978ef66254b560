//! The crash test: SIGKILL `guard write` and `shadow restore` at random
//! moments, over a ~5 MB and a small file, many times. After every kill the
//! target is byte-identical to its old or its new content (never truncated
//! or mixed), the content from before the write is in the store, and the
//! next command succeeds (stale lock cleared, temporaries removed).
//!
//! Bounded in time: it stops after `MAX_KILLS` kills or `BUDGET`, whichever
//! comes first. `FARARONI_CRASH_SEED` replays a run.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{Out, Rng, TestRepo};
use crate::test_guard::version_files;

const MAX_KILLS: usize = 150;
const BUDGET: Duration = Duration::from_secs(45);

/// About `size` bytes of source-like text.
fn text(size: usize, salt: &str) -> Vec<u8> {
    let mut out = String::with_capacity(size + 100);
    let mut i = 0u64;
    while out.len() < size {
        out.push_str(&format!(
            "    let value_{i} = compute({i}, \"{salt}\", {});\n",
            i.wrapping_mul(2_654_435_761) % 100_000
        ));
        i += 1;
    }
    out.into_bytes()
}

/// The same text with every 40th line changed (passes the kill-switch).
fn edit(base: &[u8], tag: &str) -> Vec<u8> {
    let s = String::from_utf8_lossy(base);
    let mut out = String::with_capacity(base.len() + 1000);
    for (n, line) in s.lines().enumerate() {
        if n % 40 == 7 {
            out.push_str(&format!("    // edited {tag} {n}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.into_bytes()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Write,
    Restore,
}

struct Target {
    rel: &'static str,
    /// Two contents a write alternates between, as files outside the repo.
    contents: [Vec<u8>; 2],
    sources: [PathBuf; 2],
    /// How long an uninterrupted run of each op takes.
    took: [Duration; 2],
}

fn newest_version(repo: &TestRepo, rel: &str) -> Option<Vec<u8>> {
    version_files(repo, rel)
        .last()
        .map(|p| std::fs::read(p).expect("read version"))
}

fn in_store(repo: &TestRepo, rel: &str, content: &[u8]) -> bool {
    version_files(repo, rel)
        .iter()
        .any(|p| std::fs::read(p).is_ok_and(|b| b == content))
}

/// Temporary files a killed command may have left.
fn leftovers(repo: &TestRepo) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [
        repo.path().to_path_buf(),
        repo.path().join(".fararoni/objects"),
    ] {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.contains(".fararoni-") || name.starts_with(".tmp-") {
                out.push(e.path());
            }
        }
    }
    // (The lock file stays by design: the lock is the kernel's lock on it,
    // gone with its holder.)
    let inflight = repo.path().join(".fararoni/inflight");
    if inflight.exists() {
        out.push(inflight);
    }
    out
}

fn args_for(op: Op, t: &Target, next: usize, force: bool) -> Vec<String> {
    match op {
        Op::Write => {
            let mut a = vec![
                "guard".to_string(),
                "write".into(),
                t.rel.into(),
                "--from".into(),
                t.sources[next].to_string_lossy().into_owned(),
            ];
            if force {
                a.push("--force".into());
            }
            a
        }
        Op::Restore => vec![
            "shadow".into(),
            "restore".into(),
            "--yes".into(),
            t.rel.into(),
        ],
    }
}

/// Runs a follow-up command that takes the lock (a guarded write of the
/// content already there: it changes nothing) and must succeed at once: the
/// killed command's lock died with it.
fn follow_up(repo: &TestRepo, scratch: &Path) {
    let current = scratch.join("current");
    std::fs::write(
        &current,
        std::fs::read(repo.path().join("small.txt")).expect("read"),
    )
    .expect("write");
    let out = repo.run(&[
        "guard",
        "write",
        "small.txt",
        "--force",
        "--from",
        current.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.code, 0, "the command after a kill failed:\n{out}");
    assert!(out.stdout.contains("already has this content"), "{out}");
}

#[test]
fn test_crash_shadow_sigkill_never_truncates_mixes_or_loses() {
    let seed = Rng::seed();
    let mut rng = Rng(seed);
    let repo = TestRepo::with_commit();
    let scratch = tempfile::tempdir().expect("tempdir");
    let big = text(5 << 20, "big");
    let small = text(2 << 10, "small");
    let mut targets = Vec::new();
    for (rel, base) in [("big.txt", big), ("small.txt", small)] {
        let contents = [edit(&base, "a"), edit(&base, "b")];
        let sources = [
            scratch.path().join(format!("{rel}.a")),
            scratch.path().join(format!("{rel}.b")),
        ];
        for (c, s) in contents.iter().zip(&sources) {
            std::fs::write(s, c).expect("write source");
        }
        std::fs::write(repo.path().join(rel), &base).expect("write target");
        targets.push(Target {
            rel,
            contents,
            sources,
            took: [Duration::ZERO; 2],
        });
    }
    // Calibrate: one uninterrupted run of each op per file.
    for t in &mut targets {
        for (i, op) in [Op::Write, Op::Restore].into_iter().enumerate() {
            let start = Instant::now();
            let out: Out = repo.run(&args_for(op, t, 0, false));
            assert_eq!(out.code, 0, "{op:?} {}: {out}", t.rel);
            t.took[i] = start.elapsed();
        }
    }

    let calibration: Vec<String> = targets
        .iter()
        .map(|t| format!("{} write {:?} restore {:?}", t.rel, t.took[0], t.took[1]))
        .collect();
    let calibration = calibration.join(", ");
    let started = Instant::now();
    let (mut runs, mut kills, mut survived, mut finished_first) = (0usize, 0usize, 0usize, 0usize);
    let mut landed_new = 0usize;
    let mut killed_after_rename = 0usize;
    let mut kills_ordered = 0usize;
    while kills < MAX_KILLS && started.elapsed() < BUDGET {
        runs += 1;
        let t = &targets[if rng.below(4) == 0 { 0 } else { 1 }];
        let op = if rng.below(3) == 0 {
            Op::Restore
        } else {
            Op::Write
        };
        let old = std::fs::read(repo.path().join(t.rel)).expect("read target");
        let next = usize::from(old == t.contents[0]);
        let new = match op {
            Op::Write => t.contents[next].clone(),
            Op::Restore => newest_version(&repo, t.rel).expect("a version to restore"),
        };
        let took = t.took[usize::from(op == Op::Restore)];
        // Half the kills anywhere in the run, half in its last part, where
        // the backup is published and the file renamed.
        let span = took.as_micros() as u64 * 9 / 10 + 1;
        let start = if rng.below(2) == 0 { 0 } else { span / 2 };
        let delay = Duration::from_micros(start + rng.below(span - start));
        // Both ways of making steps durable, whatever this disk would pick.
        let ordered = rng.below(2) == 0;
        let mut child = repo
            .cmd("git-fararoni")
            .env(
                "FARARONI_DURABILITY",
                if ordered { "ordered" } else { "per-step" },
            )
            .args(args_for(op, t, next, rng.below(2) == 0))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(delay);
        let mut killed = false;
        if child.try_wait().expect("try_wait").is_some() {
            finished_first += 1;
        } else {
            child.kill().expect("SIGKILL");
            let status = child.wait().expect("wait");
            use std::os::unix::process::ExitStatusExt as _;
            if status.signal() == Some(9) {
                kills += 1;
                kills_ordered += usize::from(ordered);
                killed = true;
            } else {
                finished_first += 1;
            }
        }

        let now = std::fs::read(repo.path().join(t.rel)).expect("the target still exists");
        assert!(
            now == old || now == new,
            "seed {seed}: {op:?} of {} left {} bytes that are neither the old ({}) nor the new ({}) content",
            t.rel,
            now.len(),
            old.len(),
            new.len()
        );
        if now != old {
            landed_new += 1;
            if killed {
                killed_after_rename += 1;
            }
            assert!(
                in_store(&repo, t.rel, &old),
                "seed {seed}: {op:?} of {} replaced the file but its old content is not in the store",
                t.rel
            );
        }
        follow_up(&repo, scratch.path());
        let left = leftovers(&repo);
        assert!(
            left.is_empty(),
            "seed {seed}: left behind after recovery: {left:?}"
        );
        survived += 1;
    }
    // The store still restores: the newest version of each file comes back.
    for t in &targets {
        let newest = newest_version(&repo, t.rel).expect("a version");
        let out = repo.run(&["shadow", "restore", "--yes", t.rel]);
        assert_eq!(out.code, 0, "{out}");
        assert_eq!(
            std::fs::read(repo.path().join(t.rel)).expect("read"),
            newest
        );
    }
    eprintln!(
        "crash test (seed {seed}): {runs} runs, {kills} SIGKILLs mid-command \
         ({kills_ordered} with ordered write-outs, the rest with an fsync per step), {survived} survived \
         (file old or new, old content in the store, next command ok), {finished_first} finished \
         before the kill; {landed_new} runs had replaced the file, {killed_after_rename} of them killed \
         after the rename; calibration {calibration}; {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        kills >= 30,
        "only {kills} kills landed mid-command in the time budget"
    );
}
