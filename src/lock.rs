//! One lock per repository, in the git dir, serialising git-fararoni's own
//! mutating commands (guarded writes, shadow restores, saga steps).
//!
//! The lock is an advisory file lock (`flock` on Unix) on
//! `<common git dir>/fararoni/lock`, which also records the holder's pid for
//! the message a waiting process prints. The kernel drops the lock when its
//! holder exits, however it exits, so a lock can never outlive a killed
//! process: there is no stale lock to detect, and whatever pid a dead
//! process left in the file is overwritten by the next holder. (An earlier
//! design linked a pid file into place and judged staleness from `/proc`;
//! it cost four directory operations per lock, ~0.1 ms on every guarded
//! write, and a kill at the wrong moment left an ownerless file to age out.)
//!
//! `fararoni/` and `lock` are opened relative to the git dir without
//! following symlinks, and a lock file with another name is refused: the
//! pid is written in place, so a planted link would have us write into
//! some other file.

use std::fs::{self, File};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::fsx::dir::{Access, Dir, Kind};

/// How long a second process waits for the lock by default.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(3);

/// How often a waiting process retries.
const RETRY: Duration = Duration::from_millis(25);

/// A failure to take the repository lock.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another live process holds the lock.
    #[error("another git-fararoni (pid {pid}) holds the lock `{}`", path.display())]
    Held {
        /// The holder's pid (0 when it could not be read).
        pid: u32,
        /// The lock file.
        path: PathBuf,
    },
    /// The lock file could not be created or locked.
    #[error("could not use the lock file `{}`", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// A held repository lock; released when dropped (or when the process dies).
///
/// A git-fararoni started (through git and a hook) by the holder itself
/// does not wait: the holder is blocked on that git, so waiting would only
/// time out. It is recognised by the marker every git we spawn carries
/// ([`crate::git::run::PARENT_ENV`]) naming the pid recorded in the lock
/// file, and, on Linux, by that pid really being an ancestor — so the
/// variable alone, set by anyone else, grants nothing. Such a lock is
/// borrowed: it holds no file and releases nothing.
#[derive(Debug)]
pub struct RepoLock {
    path: PathBuf,
    _file: Option<File>,
}

impl RepoLock {
    /// Takes the lock of the repository whose shared git dir is `common_dir`,
    /// waiting up to `wait` for another holder to finish.
    pub fn acquire(common_dir: &Path, wait: Duration) -> Result<RepoLock, LockError> {
        let path = common_dir.join("fararoni").join("lock");
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let git_dir = Dir::open_root(common_dir).map_err(io)?;
        let deadline = Instant::now() + wait;
        loop {
            // Neither `fararoni/` nor `lock` is followed if it is a symlink,
            // and a lock file with another name is refused: a planted one
            // would have us write our pid into some other file.
            let dir = git_dir
                .sub("fararoni", true)
                .and_then(|d| d.ok_or_else(|| std::io::ErrorKind::NotFound.into()))
                .map_err(io)?;
            let (file, opened) = dir
                .open_stat("lock", Access::Update)
                .and_then(|f| f.ok_or_else(|| std::io::ErrorKind::NotFound.into()))
                .map_err(io)?;
            loop {
                match file.try_lock() {
                    Ok(()) => break,
                    Err(fs::TryLockError::WouldBlock) if held_by_ancestor(&file) => {
                        return Ok(RepoLock { path, _file: None });
                    }
                    Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                        std::thread::sleep(RETRY);
                    }
                    Err(fs::TryLockError::WouldBlock) => {
                        return Err(LockError::Held {
                            pid: holder(&file).unwrap_or(0),
                            path,
                        });
                    }
                    Err(fs::TryLockError::Error(e)) => return Err(io(e)),
                }
            }
            // A lock on a file no longer at the path (deleted or replaced
            // by hand while we waited) would exclude nobody: lock the
            // file that is there now.
            if same_file(opened.id, &dir) {
                record_pid(&file);
                return Ok(RepoLock {
                    path,
                    _file: Some(file),
                });
            }
        }
    }

    /// Returns whether this lock is borrowed from an ancestor that holds it.
    pub fn is_borrowed(&self) -> bool {
        self._file.is_none()
    }

    /// Returns the lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Writes our pid over the previous holder's, in place and padded to a fixed
/// width: truncating would cost a forced write-out on ext4, and a pid that
/// is not written (full disk) only makes a waiting process's message vaguer.
fn record_pid(file: &File) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt as _;
        let line = format!("{:<20}\n", std::process::id());
        let _ = file.write_all_at(line.as_bytes(), 0);
    }
    #[cfg(not(unix))]
    {
        let _ = file;
    }
}

/// Whether the file opened with identity `id` is still the file named
/// `lock` in `dir` (not followed).
fn same_file(id: (u64, u64), dir: &Dir) -> bool {
    if cfg!(not(unix)) {
        return true;
    }
    matches!(dir.stat("lock"), Ok(Some(now)) if now.kind == Kind::File && now.id == id)
}

/// Whether the holder of `file`'s lock is a git-fararoni that started us
/// through git: marked by [`crate::git::run::PARENT_ENV`] and, where the
/// process tree can be read, an ancestor of this process.
fn held_by_ancestor(file: &File) -> bool {
    let marked = crate::git::run::marked_parents();
    if marked.is_empty() {
        return false;
    }
    let Some(holder) = holder(file) else {
        return false;
    };
    marked.contains(&holder) && is_ancestor(holder)
}

/// Whether `pid` is an ancestor of this process (Linux: `/proc`; elsewhere
/// the marker is trusted, as the environment is the caller's anyway).
fn is_ancestor(pid: u32) -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let mut current = std::process::id();
    for _ in 0..64 {
        let Some(parent) = parent_of(current) else {
            return false;
        };
        if parent == pid {
            return true;
        }
        if parent <= 1 {
            return false;
        }
        current = parent;
    }
    false
}

/// Reads a process's parent pid from `/proc/PID/stat` (the field after
/// the parenthesised command name, which may itself hold spaces).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

/// Reads the pid the holder recorded.
fn holder(mut file: &File) -> Option<u32> {
    use std::io::Seek as _;
    let mut text = String::new();
    file.seek(std::io::SeekFrom::Start(0)).ok()?;
    file.take(64).read_to_string(&mut text).ok()?;
    text.lines().next()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_fails_naming_the_first_and_release_frees_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let held = RepoLock::acquire(dir.path(), DEFAULT_WAIT).expect("first lock");
        let err = RepoLock::acquire(dir.path(), Duration::from_millis(100)).unwrap_err();
        assert!(matches!(err, LockError::Held { pid, .. } if pid == std::process::id()));
        assert!(err.to_string().contains("holds the lock"));
        drop(held);
        assert!(RepoLock::acquire(dir.path(), Duration::ZERO).is_ok());
    }

    #[test]
    fn a_file_left_by_a_dead_holder_does_not_block() {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::create_dir_all(dir.path().join("fararoni")).expect("mkdir");
        // The old format (pid, start time) of a process that is gone, longer
        // than what a holder writes now.
        fs::write(dir.path().join("fararoni/lock"), "4194303\n123456789012\n").expect("write");
        let lock = RepoLock::acquire(dir.path(), Duration::ZERO).expect("lock");
        let text = fs::read_to_string(lock.path()).expect("read");
        assert_eq!(
            text.lines().next().map(str::trim),
            Some(std::process::id().to_string().as_str())
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_or_hard_link_is_never_written_through() {
        let outside = tempfile::tempdir().expect("tempdir");
        let victim = outside.path().join("victim");
        fs::write(&victim, "precious\n").expect("write");
        // The lock file a symlink to the victim.
        let dir = tempfile::tempdir().expect("tempdir");
        fs::create_dir_all(dir.path().join("fararoni")).expect("mkdir");
        std::os::unix::fs::symlink(&victim, dir.path().join("fararoni/lock")).expect("ln");
        assert!(RepoLock::acquire(dir.path(), Duration::ZERO).is_err());
        // The lock file a hard link to the victim.
        let dir = tempfile::tempdir().expect("tempdir");
        fs::create_dir_all(dir.path().join("fararoni")).expect("mkdir");
        fs::hard_link(&victim, dir.path().join("fararoni/lock")).expect("ln");
        assert!(RepoLock::acquire(dir.path(), Duration::ZERO).is_err());
        // `fararoni/` a symlink to the victim's folder.
        let dir = tempfile::tempdir().expect("tempdir");
        std::os::unix::fs::symlink(outside.path(), dir.path().join("fararoni")).expect("ln");
        assert!(RepoLock::acquire(dir.path(), Duration::ZERO).is_err());
        assert!(!outside.path().join("lock").exists());
        assert_eq!(fs::read_to_string(&victim).expect("read"), "precious\n");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_process_tree_is_read_through_odd_command_names() {
        let me = std::process::id();
        let parent = parent_of(me).expect("our own parent");
        assert!(parent > 0);
        assert!(is_ancestor(parent));
        assert!(!is_ancestor(me), "a process is not its own ancestor");
        assert!(!is_ancestor(4_194_303));
    }

    #[test]
    fn a_waiter_gets_the_lock_when_the_holder_lets_go() {
        let dir = tempfile::tempdir().expect("tempdir");
        let held = RepoLock::acquire(dir.path(), DEFAULT_WAIT).expect("first lock");
        let path = dir.path().to_path_buf();
        let waiter = std::thread::spawn(move || RepoLock::acquire(&path, DEFAULT_WAIT).is_ok());
        std::thread::sleep(Duration::from_millis(60));
        drop(held);
        assert!(waiter.join().expect("join"));
    }
}
