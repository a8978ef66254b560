//! What the benchmarks share: building their fixture repositories, and
//! the median of interleaved timings.
#![allow(dead_code)]

use std::path::Path;
use std::process::ExitStatus;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs git in `dir` with a fixed identity and no system configuration,
/// and panics when it fails (a fixture that cannot be built measures
/// nothing).
pub fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "b")
        .env("GIT_AUTHOR_EMAIL", "b@example.com")
        .env("GIT_COMMITTER_NAME", "b")
        .env("GIT_COMMITTER_EMAIL", "b@example.com")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "git {args:?} failed");
}

/// The median of `v` (the upper one of an even count).
pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// `d` in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs `cmd` in `dir` with no stdio, as a whole process: how long it took
/// and how it ended.
pub fn timed(cmd: &mut Command, dir: &Path) -> (Duration, ExitStatus) {
    let start = Instant::now();
    let status = cmd
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("spawn");
    (start.elapsed(), status)
}
