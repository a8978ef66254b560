//! The process start of the binaries (`cli::start`, a C `main` on
//! linux-gnu): what std's runtime set-up did before and we now do
//! ourselves must still hold.

use std::process::{Command, Stdio};

use crate::common::{bin, TestRepo};

/// Output into a pipe nobody reads is a closed pipe, not a kill: `SIGPIPE`
/// is ignored, the write fails with `EPIPE`, and that is not an error.
#[test]
fn test_start_a_closed_pipe_is_not_a_signal() {
    let repo = TestRepo::with_commit();
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut cmd = Command::new(bin("git-fararoni"));
    repo.env(&mut cmd);
    let status = cmd
        .args(["ask", "gracias"])
        .current_dir(repo.path())
        .stdout(writer)
        .stderr(Stdio::null())
        .status()
        .expect("runs");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        assert_eq!(status.signal(), None, "{status:?}");
    }
    assert_eq!(status.code(), Some(0), "{status:?}");
}

/// A process started with its standard output closed still runs a whole
/// composite (lock, snapshot, commit): descriptor 1 is reopened on
/// /dev/null before anything is opened, as std's set-up did.
#[cfg(target_os = "linux")]
#[test]
fn test_start_closed_standard_descriptors_are_reopened() {
    use std::os::unix::process::CommandExt as _;
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "new\n");
    let mut cmd = Command::new(bin("git-fararoni"));
    repo.env(&mut cmd);
    cmd.args(["ask", "do the commit"])
        .current_dir(repo.path())
        .stderr(Stdio::null());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let status = cmd.status().expect("runs");
    assert_eq!(status.code(), Some(0), "{status:?}");
    // The commit happened and left nothing behind in the working tree.
    assert_eq!(repo.git(&["status", "--porcelain"]).trim(), "");
    assert_eq!(repo.git(&["show", "HEAD:a.txt"]), "new\n");
    let log = repo.git(&["log", "--format=%s", "-1"]);
    assert!(!log.trim().is_empty(), "{log}");
}
