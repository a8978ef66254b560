//! What `git fararoni guard hook` costs an agent per tool call, measured as
//! whole processes the way the agent runs it (spawn, payload on stdin, wait):
//!
//! - `true`: a bare process start with the same stdin plumbing (the floor);
//! - `cat`: a process that reads the payload to its end, as a hook must
//!   (the floor of anything fed on stdin: it waits for the write);
//! - `shell read-only`: a Claude `Bash` call of `git status` (no snapshot);
//! - `shell build`: `cargo test` (may write: the dirty set is saved first;
//!   a clean repository, then 100 dirty files);
//! - `edit 1MB`: a Claude `Edit` of a 1 MB source file (kill-switch on the
//!   rebuilt file, dirty-set backup), near its start and near its end (the
//!   new side's stub scan reads the file up to the edit, then joins the
//!   old side's);
//! - `dirty snapshot`: `shadow::dirty::snapshot` in process for dirty sets
//!   of 0, 10, 100 and 1,000 files of 1 KB, first (all saved) and again
//!   (all unchanged).
//!
//! Runs are interleaved and reported as medians (and the ratio to `true`),
//! so a busy machine slows every column alike.
//!
//! Run: `cargo bench --bench hook` (ROUNDS=N to change the 101 rounds;
//! BASELINE=/path/to/another/git-fararoni adds its read-only, build and
//! edit calls as interleaved columns, for a before/after in one run).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use git_fararoni::git::Repo;
use git_fararoni::shadow::{dirty, Session, Shadow};

mod common;
use common::{git, median, ms};

fn repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("tempdir");
    git(d.path(), &["init", "-q", "-b", "main"]);
    git(d.path(), &["config", "user.name", "Bench"]);
    git(d.path(), &["config", "user.email", "bench@example.com"]);
    d
}

/// About `size` bytes of source-like text.
fn source(size: usize) -> String {
    let mut out = String::with_capacity(size + 100);
    let mut i = 0u64;
    while out.len() < size {
        out.push_str(&format!(
            "fn f{i}(x: u64) -> u64 {{\n    x * {i} + {}\n}}\n",
            i % 97
        ));
        i += 1;
    }
    out
}

fn spawn(program: &Path, args: &[&str], dir: &Path, input: &[u8]) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(input);
    drop(stdin);
    let status = child.wait().expect("wait");
    let t = start.elapsed();
    // Every call is allowed: a veto (exit 2) would time a shorter path.
    assert_eq!(status.code(), Some(0), "{} {args:?}", program.display());
    t
}

fn main() {
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(101);
    let bin = Path::new(env!("CARGO_BIN_EXE_git-fararoni"));
    let truth = Path::new("/bin/true");
    let r = repo();
    let dir = r.path();
    std::fs::write(dir.join("big.rs"), source(1 << 20)).expect("write");
    std::fs::write(dir.join("README.md"), "# bench\n").expect("write");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "init"]);
    let d = dir.to_string_lossy();
    let status = format!(
        r#"{{"session_id":"bench","cwd":"{d}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"git status"}}}}"#
    );
    let build = format!(
        r#"{{"session_id":"bench","cwd":"{d}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"cargo test"}}}}"#
    );
    let edit = serde_json::json!({
        "session_id": "bench", "cwd": d, "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": format!("{d}/big.rs"), "old_string": "fn f1000(x: u64) -> u64 {\n    x * 1000 + 30\n}",
                       "new_string": "fn f1000(x: u64) -> u64 {\n    x * 1000 + 31\n}", "replace_all": false}
    })
    .to_string();
    // The same edit near the end of the file (the file has about 23,000
    // functions).
    let edit_end = serde_json::json!({
        "session_id": "bench", "cwd": d, "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": format!("{d}/big.rs"), "old_string": "fn f20000(x: u64) -> u64 {\n    x * 20000 + 18\n}",
                       "new_string": "fn f20000(x: u64) -> u64 {\n    x * 20000 + 19\n}", "replace_all": false}
    })
    .to_string();
    let hook = ["guard", "hook", "--agent", "claude"];
    let baseline = std::env::var_os("BASELINE").map(std::path::PathBuf::from);
    let mut cols: Vec<(&str, Vec<Duration>)> = vec![
        ("true", Vec::new()),
        ("shell read-only (git status)", Vec::new()),
        ("shell build (cargo test), clean repo", Vec::new()),
        ("edit 1MB (near the start)", Vec::new()),
        ("edit 1MB (near the end)", Vec::new()),
    ];
    if baseline.is_some() {
        cols.push(("BASELINE shell read-only", Vec::new()));
        cols.push(("BASELINE shell build, clean repo", Vec::new()));
        cols.push(("BASELINE edit 1MB (near the start)", Vec::new()));
        cols.push(("BASELINE edit 1MB (near the end)", Vec::new()));
    }
    // A process that reads the payload to its end, as every hook must: the
    // floor of any hook fed on stdin (`true` does not wait for the write).
    let mut cat = Vec::new();
    for _ in 0..rounds {
        cols[0].1.push(spawn(truth, &[], dir, status.as_bytes()));
        cat.push(spawn(Path::new("cat"), &[], dir, status.as_bytes()));
        cols[1].1.push(spawn(bin, &hook, dir, status.as_bytes()));
        cols[2].1.push(spawn(bin, &hook, dir, build.as_bytes()));
        cols[3].1.push(spawn(bin, &hook, dir, edit.as_bytes()));
        cols[4].1.push(spawn(bin, &hook, dir, edit_end.as_bytes()));
        if let Some(base) = &baseline {
            cols[5].1.push(spawn(base, &hook, dir, status.as_bytes()));
            cols[6].1.push(spawn(base, &hook, dir, build.as_bytes()));
            cols[7].1.push(spawn(base, &hook, dir, edit.as_bytes()));
            cols[8].1.push(spawn(base, &hook, dir, edit_end.as_bytes()));
        }
    }
    // The same build call with 100 dirty files (unchanged after the first).
    for i in 0..100 {
        std::fs::write(
            dir.join(format!("dirty{i}.txt")),
            format!("{i}\n").repeat(100),
        )
        .expect("write");
    }
    let mut dirty_build = Vec::new();
    let mut base_dirty_build = Vec::new();
    for _ in 0..rounds {
        dirty_build.push(spawn(bin, &hook, dir, build.as_bytes()));
        if let Some(base) = &baseline {
            base_dirty_build.push(spawn(base, &hook, dir, build.as_bytes()));
        }
    }
    cols.push(("shell build (cargo test), 100 dirty files", dirty_build));
    if baseline.is_some() {
        cols.push(("BASELINE shell build, 100 dirty files", base_dirty_build));
    }
    cols.insert(1, ("cat (reads the payload)", cat));
    let floor = median(cols[0].1.clone());
    let reader = median(cols[1].1.clone());
    println!("hook cost per call, median of {rounds} interleaved runs:");
    for (name, v) in &cols {
        let m = median(v.clone());
        println!(
            "  {name:<44} {:>8.2} ms  {:>5.2}x true  {:>5.2}x cat",
            ms(m),
            m.as_secs_f64() / floor.as_secs_f64(),
            m.as_secs_f64() / reader.as_secs_f64()
        );
    }

    println!("dirty-set snapshot (in process), median of 5:");
    for n in [0usize, 10, 100, 1000] {
        let r = repo();
        let dir = r.path();
        std::fs::write(dir.join("README.md"), "# bench\n").expect("write");
        git(dir, &["add", "."]);
        git(dir, &["commit", "-q", "-m", "init"]);
        for i in 0..n {
            std::fs::write(
                dir.join(format!("f{i}.txt")),
                format!("line {i}\n").repeat(100),
            )
            .expect("write");
        }
        let repo = Repo::discover(dir).expect("repo").expect("a repo");
        let shadow = Shadow::open(&repo).expect("shadow");
        let mut first = Vec::new();
        let mut again = Vec::new();
        for k in 0..5 {
            let s = Session::new(format!("bench-{k}")).expect("session");
            let t = Instant::now();
            dirty::snapshot(&shadow, &repo, &s).expect("snapshot");
            first.push(t.elapsed());
            let t = Instant::now();
            dirty::snapshot(&shadow, &repo, &s).expect("snapshot");
            again.push(t.elapsed());
        }
        println!(
            "  {n:>5} dirty files: {:>8.2} ms first, {:>8.2} ms again ({:.3} ms/file)",
            ms(median(first.clone())),
            ms(median(again)),
            if n > 0 {
                ms(median(first)) / n as f64
            } else {
                0.0
            }
        );
    }
}
