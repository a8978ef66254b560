//! One lock per repository, in the git dir, serialising git-fararoni's own
//! mutating commands (guarded writes, shadow restores, saga steps).
//!
//! The lock is a file created with `O_EXCL` holding the owner's pid and
//! process start time; a lock whose owner is gone is stale and is cleared.

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use thiserror::Error;

/// How long a second process waits for the lock by default.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(3);

/// A failure to take the repository lock.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another live process holds the lock.
    #[error("another git-fararoni (pid {pid}) holds the lock `{}`", path.display())]
    Held {
        /// The holder's pid.
        pid: u32,
        /// The lock file.
        path: PathBuf,
    },
    /// The lock file could not be created or read.
    #[error("could not use the lock file `{}`", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// A held repository lock; released when dropped.
#[derive(Debug)]
pub struct RepoLock {
    path: PathBuf,
}

/// Returns the start time of process `pid` (clock ticks since boot), on
/// systems with `/proc`; distinguishes a live owner from a reused pid.
fn start_time(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 22, counted after the parenthesised command name.
    let after = stat.rsplit_once(')')?.1;
    after.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process that wrote `content` is still running.
fn owner_alive(content: &str) -> Option<(u32, bool)> {
    let mut lines = content.lines();
    let pid: u32 = lines.next()?.trim().parse().ok()?;
    let recorded: Option<u64> = lines.next().and_then(|l| l.trim().parse().ok());
    if !Path::new("/proc").join("self").exists() {
        // Without /proc we cannot tell; assume the owner lives.
        return Some((pid, true));
    }
    let alive = match (start_time(pid), recorded) {
        (None, _) => false,
        (Some(now), Some(then)) => now == then,
        (Some(_), None) => true,
    };
    Some((pid, alive))
}

impl RepoLock {
    /// Takes the lock of the repository whose shared git dir is `common_dir`,
    /// waiting up to `wait` for another holder to finish.
    pub fn acquire(common_dir: &Path, wait: Duration) -> Result<RepoLock, LockError> {
        let dir = common_dir.join("fararoni");
        let path = dir.join("lock");
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        fs::create_dir_all(&dir).map_err(io)?;
        let deadline = Instant::now() + wait;
        let me = std::process::id();
        // The owner's pid is written to a private file first and linked into
        // place, so the lock never exists without its owner (a process
        // killed in between leaves only its private file).
        let st = start_time(me).map(|t| t.to_string()).unwrap_or_default();
        let mine = dir.join(format!("lock.{me}"));
        {
            let mut f = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&mine)
                .map_err(io)?;
            // No fsync: after a crash every owner is gone, and a lock whose
            // owner is gone is stale whatever the file holds.
            f.write_all(format!("{me}\n{st}\n").as_bytes())
                .map_err(io)?;
        }
        let result = loop {
            let attempt = match fs::hard_link(&mine, &path) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                    // No hard links here: fall back to an exclusive create.
                    OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(&path)
                        .and_then(|mut f| f.write_all(format!("{me}\n{st}\n").as_bytes()))
                }
                other => other,
            };
            match attempt {
                Ok(()) => break Ok(RepoLock { path: path.clone() }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let content = fs::read_to_string(&path).unwrap_or_default();
                    match owner_alive(&content) {
                        Some((_, false)) | None if !content.is_empty() || lock_is_old(&path) => {
                            // Stale: move it aside atomically so that only one
                            // process clears it, then retry.
                            let aside = dir.join(format!("lock.stale.{me}"));
                            if fs::rename(&path, &aside).is_ok() {
                                let _ = fs::remove_file(&aside);
                            }
                            continue;
                        }
                        Some((pid, true)) if Instant::now() >= deadline => {
                            break Err(LockError::Held {
                                pid,
                                path: path.clone(),
                            });
                        }
                        _ if Instant::now() >= deadline => {
                            break Err(LockError::Held {
                                pid: 0,
                                path: path.clone(),
                            });
                        }
                        _ => std::thread::sleep(Duration::from_millis(25)),
                    }
                }
                Err(e) => break Err(io(e)),
            }
        };
        let _ = fs::remove_file(&mine);
        if result.is_ok() {
            remove_orphans(&dir);
        }
        result
    }

    /// Returns the lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Removes the private `lock.<pid>` files of processes killed while taking
/// the lock.
fn remove_orphans(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("lock."))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if start_time(pid).is_none() && Path::new("/proc/self").exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// An empty lock file (its owner died between create and write) counts as
/// stale once it is a few seconds old.
fn lock_is_old(path: &Path) -> bool {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > Duration::from_secs(5))
}

impl Drop for RepoLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_fails_and_stale_locks_clear() {
        let dir = tempfile::tempdir().expect("tempdir");
        let held = RepoLock::acquire(dir.path(), DEFAULT_WAIT).expect("first lock");
        let err = RepoLock::acquire(dir.path(), Duration::from_millis(100)).unwrap_err();
        assert!(matches!(err, LockError::Held { pid, .. } if pid == std::process::id()));
        assert!(err.to_string().contains("holds the lock"));
        drop(held);
        // A lock left by a process that no longer exists.
        fs::write(dir.path().join("fararoni/lock"), "4194303\n1\n").expect("write");
        let again = RepoLock::acquire(dir.path(), Duration::from_millis(100));
        assert!(again.is_ok());
    }
}
