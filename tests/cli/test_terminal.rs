//! Terminal behaviour: output that cannot be written fails the command,
//! a closed pipe does not, and risky actions are never confirmed by a
//! missing terminal.

use std::process::Stdio;

use crate::common::{Out, TestRepo};
use crate::test_saga::{head_branch, saga_ok};

/// A repository whose committed `f.txt` has one backup (v1) and then an
/// uncommitted guarded change.
fn with_backup() -> TestRepo {
    let r = TestRepo::new();
    r.write("f.txt", "one\ntwo\n");
    r.git(&["add", "f.txt"]);
    r.git(&["commit", "-qm", "f"]);
    std::fs::write(r.home().join("new.txt"), "one\ntwo\nthree\n").expect("write");
    let from = r.home().join("new.txt");
    let out = r.run(&[
        "guard",
        "write",
        "f.txt",
        "--from",
        from.to_str().expect("utf8"),
    ]);
    assert_eq!(out.code, 0, "{out}");
    r
}

#[cfg(target_os = "linux")]
#[test]
fn test_terminal_a_full_disk_on_stdout_exits_1_and_says_so() {
    let r = with_backup();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out: Out = r
        .cmd("git-fararoni")
        .args(["shadow", "show", "f.txt"])
        .stdout(full)
        .output()
        .expect("run")
        .into();
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains("could not write to standard output"),
        "{out}"
    );
    // The same for a command that reports state.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("full");
    let out: Out = r
        .cmd("git-fararoni")
        .args(["config"])
        .stdout(full)
        .output()
        .expect("run")
        .into();
    assert_eq!(out.code, 1, "{out}");
}

#[test]
fn test_terminal_a_closed_pipe_is_not_an_error() {
    let r = with_backup();
    let mut child = r
        .cmd("git-fararoni")
        .args(["config"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let out: Out = child.wait_with_output().expect("wait").into();
    assert!(!out.stderr.contains("could not write"), "{out}");
}

#[test]
fn test_terminal_restore_over_uncommitted_changes_needs_yes_without_a_terminal() {
    let r = with_backup();
    let out = r.run(&["shadow", "restore", "f.txt"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("--yes"), "{out}");
    assert_eq!(r.read("f.txt"), "one\ntwo\nthree\n", "nothing changed");
    let out = r.run(&["shadow", "restore", "f.txt", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(r.read("f.txt"), "one\ntwo\n");
    // Now the file is as committed: no question needed.
    std::fs::write(r.path().join("f.txt"), "one\ntwo\n").expect("write");
    let out = r.run(&["shadow", "restore", "f.txt", "--version", "1"]);
    assert_eq!(out.code, 0, "{out}");
}

#[test]
fn test_terminal_saga_finish_needs_yes_without_a_terminal() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    let wip = head_branch(&r);
    r.write("x.txt", "x\n");
    r.git(&["add", "x.txt"]);
    r.git(&["commit", "-qm", "wip"]);
    let out = r.run(&["saga", "finish"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("--yes"), "{out}");
    assert_eq!(head_branch(&r), wip, "nothing changed");
    assert_eq!(r.log()[0], "wip");
    let out = r.run(&["saga", "finish", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(head_branch(&r), "main");
}

#[test]
fn test_terminal_quiet_reports_nothing_done_but_keeps_data_and_no_colour_off_a_terminal() {
    let r = TestRepo::with_commit();
    let out = r.run(&["hooks", "install", "--quiet"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.is_empty(), "{out}");
    assert!(r.path().join(".git/hooks/pre-commit").exists());
    // Data is still printed under -q.
    let out = r.run(&["-q", "hooks", "status"]);
    assert!(out.stdout.contains("pre-commit: installed"), "{out}");
    // A blocked commit's report has no colour codes without a terminal.
    let text: String = (0..30).map(|i| format!("line {i}\n")).collect();
    r.write("t.txt", &text);
    r.git(&["add", "t.txt"]);
    r.git(&["commit", "-qm", "t"]);
    r.write("t.txt", "gone\n");
    let out = r.git_out(&["commit", "-qam", "gut"]);
    assert_ne!(out.code, 0, "{out}");
    assert!(
        out.stderr.contains("error:") && !out.stderr.contains('\x1b'),
        "{out}"
    );
}
