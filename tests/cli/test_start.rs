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
#[allow(unsafe_code)] // pre_exec, to start the binary with stdout closed
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

/// Whether an ELF file asks for a program interpreter (`PT_INTERP`): a
/// dynamically linked executable does, a static one does not.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_pointer_width = "64",
    not(feature = "local-llm")
))]
fn asks_for_a_loader(path: &std::path::Path) -> bool {
    let elf = std::fs::read(path).expect("read binary");
    assert_eq!(&elf[..4], b"\x7fELF", "{}", path.display());
    let u16_at = |o: usize| u16::from_le_bytes([elf[o], elf[o + 1]]) as usize;
    let phoff = u64::from_le_bytes(elf[0x20..0x28].try_into().expect("8 bytes")) as usize;
    let (phentsize, phnum) = (u16_at(0x36), u16_at(0x38));
    (0..phnum).any(|i| {
        let at = phoff + i * phentsize;
        u32::from_le_bytes(elf[at..at + 4].try_into().expect("4 bytes")) == 3
    })
}

/// On linux-gnu with glibc's static archives at hand (Debian's libc6-dev,
/// which gcc needs anyway), `build.rs` links the binaries statically: no
/// dynamic loader runs at start. If this fails, the linker scripts in
/// `build.rs` stopped applying and every process start got slower.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_pointer_width = "64",
    not(feature = "local-llm")
))]
#[test]
fn test_start_binaries_need_no_dynamic_loader() {
    let libc_a = Command::new("cc")
        .arg("-print-file-name=libc.a")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|p| std::path::Path::new(p).is_absolute());
    if std::env::var_os("FARARONI_DYNAMIC").is_some() {
        eprintln!("skipped: FARARONI_DYNAMIC asks for a dynamic build");
        return;
    }
    if libc_a.is_none() {
        crate::common::precondition_missing("a static glibc (`libc.a`, libc6-dev)");
        return;
    }
    for name in ["git-fararoni", "git-fararoni-saga", "git-fararoni-shadow"] {
        let path = bin(name);
        assert!(
            !asks_for_a_loader(&path),
            "{} is dynamically linked",
            path.display()
        );
    }
}
