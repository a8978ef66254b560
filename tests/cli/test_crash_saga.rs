//! Crash test: SIGKILLs `git fararoni saga finish` at random moments, many
//! times, and checks after each kill that the user's branch points at the
//! old commit or at the one squash commit, that `saga status` explains the
//! interrupted saga, and that `saga finish` or `saga abort` completes it.
//!
//! Two kinds of kill: only git-fararoni (`Child::kill`; the git it was
//! running finishes as an orphan), and the whole process group (git dies
//! too, possibly half-way through writing the working tree, leaving its
//! `*.lock` files; those are removed afterwards as `saga status` tells the
//! user to). Set `FARARONI_CRASH_SEED` to replay a run.

use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{Rng, TestRepo};
use crate::test_saga::{advance_branch, exists, head_branch, rev, saga, saga_ok, status_json};

/// Trials to run, and the time after which no new trial starts once
/// `MIN_KILLS` have run; a loaded machine may go on to `HARD_CAP` to reach
/// them (fewer kills prove too little, and a timed assertion would only
/// measure the machine).
const TRIALS: usize = 60;
const BUDGET: Duration = Duration::from_secs(50);
const MIN_KILLS: usize = 20;
const HARD_CAP: Duration = Duration::from_secs(240);

/// Copies a directory tree (files and folders only).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        let ft = entry.file_type().expect("file type");
        if ft.is_dir() {
            copy_dir(&entry.path(), &target);
        } else if ft.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Builds a repository with a saga that has a few wip commits touching
/// many files (so that git's checkouts take long enough to be cut short).
fn template() -> TestRepo {
    let r = TestRepo::with_commit();
    for i in 0..40 {
        r.write(&format!("many files/f{i:03} ñ.txt"), &format!("base {i}\n"));
    }
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "many files"]);
    saga_ok(&r, &["start"]);
    for i in 0..40 {
        r.write(&format!("many files/f{i:03} ñ.txt"), &format!("wip {i}\n"));
    }
    r.git(&["commit", "-q", "-am", "wip: edit many files"]);
    for i in 0..20 {
        r.write(&format!("new files/n{i:03}.txt"), &format!("new {i}\n"));
    }
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "wip: add new files"]);
    r.write("README.md", "# demo\nedited by the saga\n");
    r.git(&["commit", "-q", "-am", "wip: readme"]);
    r.git(&["repack", "-adq"]);
    r
}

/// Returns a fresh copy of `t`, with the index's stat data refreshed.
fn copy_of(t: &TestRepo) -> TestRepo {
    let r = TestRepo::empty_dir();
    copy_dir(t.path(), r.path());
    r.git_out(&["update-index", "-q", "--refresh"]);
    r
}

/// Returns the pids whose process group is `pgid`.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut pids = Vec::new();
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return pids;
    };
    for e in rd.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command name: state ppid pgrp …
        let Some((_, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let state = f.next();
        if f.nth(1).and_then(|g| g.parse::<u32>().ok()) == Some(pgid) && state != Some("Z") {
            pids.push(pid);
        }
    }
    pids
}

/// Waits until no process of group `pgid` is left (orphaned git included).
fn wait_group(pgid: u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !group_members(pgid).is_empty() {
        assert!(
            Instant::now() < deadline,
            "process group {pgid} does not end"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Removes the `*.lock` files a killed git left in the git dir (what the
/// hint of `saga status` asks the user to do); returns how many.
/// (git-fararoni's own lock is a kernel lock that dies with its holder.)
fn remove_stale_locks(dir: &Path) -> usize {
    let mut n = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".lock") {
                let _ = std::fs::remove_file(&p);
                n += 1;
            }
        }
    }
    n
}

/// What one trial found.
#[derive(Default)]
struct Tally {
    kills: usize,
    mid_way: usize,
    group_kills: usize,
    landed_at_kill: usize,
    interrupted_finish: usize,
    dirty_after_kill: usize,
    stale_locks: usize,
    resumed_by_finish: usize,
    resumed_by_abort: usize,
}

#[test]
fn test_crash_saga_finish_survives_sigkill_at_random_points() {
    let started = Instant::now();
    let seed = Rng::seed();
    let mut rng = Rng(seed);
    let t = template();
    let wip_branch = head_branch(&t);
    let wip_tip = rev(&t, "HEAD");

    // Calibrate: how long does an uninterrupted finish take here?
    let cal = copy_of(&t);
    let begin = Instant::now();
    saga_ok(&cal, &["finish", "-m", "crash test"]);
    let full = begin.elapsed();
    // Delays are drawn up to about that long; the bound adapts so that
    // most kills land while finish is still running, whatever the load.
    let calibrated = full.as_micros() as u64 + 1;
    let mut max_delay = calibrated * 11 / 10;

    let mut tally = Tally::default();
    for trial in 0..TRIALS {
        let spent = started.elapsed();
        if (spent > BUDGET && tally.kills >= MIN_KILLS) || spent > HARD_CAP {
            break;
        }
        let r = copy_of(&t);
        if trial % 3 == 1 {
            advance_branch(&r, "main", "upstream ñ.txt", &format!("upstream {trial}\n"));
        }
        let old_main = rev(&r, "main");
        let expected = r.git(&["merge-tree", "--write-tree", "main", &wip_branch]);
        let expected = expected.lines().next().expect("a tree").to_string();

        let group_kill = rng.below(2) == 0;
        let delay = Duration::from_micros(rng.below(max_delay));
        let mut child = r
            .cmd("git-fararoni")
            .args(["saga", "finish", "--yes", "-m", "crash test"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("spawn finish");
        let pid = child.id();
        std::thread::sleep(delay);
        let done_before = child.try_wait().expect("try_wait").is_some();
        if group_kill {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .stderr(Stdio::null())
                .status();
        } else {
            let _ = child.kill();
        }
        let status = child.wait().expect("wait");
        wait_group(pid);
        tally.kills += 1;
        if !done_before && status.code().is_none() {
            tally.mid_way += 1;
            if group_kill {
                tally.group_kills += 1;
            }
            max_delay = (max_delay * 21 / 20).min(calibrated * 2);
        } else {
            max_delay = (max_delay * 9 / 10).max(1000);
        }
        tally.stale_locks += remove_stale_locks(&r.path().join(".git"));

        // The branch is at the old commit or at the one squash commit.
        let tip = rev(&r, "main");
        let landed = tip != old_main;
        if landed {
            tally.landed_at_kill += 1;
            assert_eq!(
                rev(&r, "main^"),
                old_main,
                "trial {trial} (seed {seed}): not one commit"
            );
            assert_eq!(
                rev(&r, "main^{tree}"),
                expected,
                "trial {trial} (seed {seed}): tree"
            );
            let subject = r.git(&["log", "-1", "--format=%s", "main"]);
            assert_eq!(subject.trim(), "[FARARONI] crash test");
        }
        if !r.git(&["status", "--porcelain"]).is_empty() {
            tally.dirty_after_kill += 1;
        }

        // Status explains what is left.
        let st = status_json(&r);
        if st["active"] == Value::Bool(true) {
            let text = saga_ok(&r, &["status"]).stdout;
            let phase = st["saga"]["phase"].as_str().unwrap_or_default().to_string();
            if phase == "finishing" {
                tally.interrupted_finish += 1;
                assert_eq!(
                    st["interrupted"]["operation"], "finish",
                    "seed {seed}: {st}"
                );
                assert!(text.contains("interrupted"), "seed {seed}: {text}");
                assert!(
                    text.contains("git fararoni saga finish"),
                    "seed {seed}: {text}"
                );
                if landed {
                    assert!(text.contains("only cleanup remains"), "seed {seed}: {text}");
                }
            } else {
                assert_eq!(phase, "active", "seed {seed}: {st}");
                assert!(!landed, "seed {seed}: landed but the saga is still active");
            }
        } else {
            assert!(landed || tip == old_main, "seed {seed}");
        }

        // Running finish (or abort) again completes it.
        let use_abort = rng.below(4) == 0;
        if st["active"] == Value::Bool(true) {
            if use_abort {
                let out = saga(&r, &["abort"]);
                assert_eq!(out.code, 0, "trial {trial} (seed {seed}) abort:\n{out}");
                tally.resumed_by_abort += 1;
            } else {
                let out = saga(&r, &["finish"]);
                assert_eq!(out.code, 0, "trial {trial} (seed {seed}) finish:\n{out}");
                tally.resumed_by_finish += 1;
            }
        }
        let tip = rev(&r, "main");
        assert_eq!(head_branch(&r), "main", "seed {seed}");
        assert_eq!(
            r.git(&["status", "--porcelain"]),
            "",
            "seed {seed}: tree not clean"
        );
        assert!(
            !exists(&r, &format!("refs/heads/{wip_branch}")),
            "seed {seed}: wip left"
        );
        assert_eq!(status_json(&r)["active"], false, "seed {seed}");
        if tip == old_main {
            // Aborted: the saga's commits are kept.
            assert!(
                use_abort,
                "trial {trial} (seed {seed}): finish did not land"
            );
            let id = wip_branch.trim_start_matches("fararoni/wip-");
            assert_eq!(rev(&r, &format!("refs/fararoni/aborted/{id}")), wip_tip);
        } else {
            assert_eq!(
                rev(&r, "main^"),
                old_main,
                "seed {seed}: two squash commits?"
            );
            assert_eq!(rev(&r, "main^{tree}"), expected, "seed {seed}");
        }
    }
    let elapsed = started.elapsed();
    eprintln!(
        "saga crash test (seed {seed}): {} kills run, {} survived; {} killed finish mid-way ({} of them with its whole process group, git included), \
         {} after the squash commit landed, {} interrupted finishes, {} dirty trees after a kill, {} stale git locks; \
         resumed by finish {}, by abort {}; uninterrupted finish {:?}; {:?} in all",
        tally.kills,
        tally.kills,
        tally.mid_way,
        tally.group_kills,
        tally.landed_at_kill,
        tally.interrupted_finish,
        tally.dirty_after_kill,
        tally.stale_locks,
        tally.resumed_by_finish,
        tally.resumed_by_abort,
        full,
        elapsed
    );
    // The budget bounds CI time; a loaded machine runs fewer trials, but a
    // run with too few kills proves too little.
    assert!(
        tally.kills >= MIN_KILLS,
        "only {} kills ran within the budget",
        tally.kills
    );
}
