//! How a guarded write makes its steps survive a power cut, by file system.
//!
//! The store's promise is an order: the backup (its data and its name) and
//! the journal line recording it reach the disk before the working file's new
//! name does. Portable code gets that order with one fsync per step (the
//! backup's data, its folder, the journal, the new content, the target's
//! folder). On file systems whose metadata journal commits every directory
//! operation in the order it was made — ext4 with its journal, and XFS —
//! the same order costs
//! less: each file's data is written out (`sync_file_range`, which waits for
//! the device but commits nothing), the names are made in order, and the one
//! fsync of the target's folder at the end commits them all at once, behind
//! the cache flush that makes the data written before it durable. A later
//! name can then never be on disk without an earlier one, which is exactly
//! the order needed. This is git's `core.fsyncMethod=batch` reasoning,
//! applied to one write.
//!
//! Anything else (ext4 or ext2 without a journal, which orders nothing;
//! btrfs, whose fsync logs one inode; network and FUSE file systems; a
//! target on another file system than the store) gets an fsync per step.

use std::fs::File;
use std::io;
use std::path::Path;

/// How the steps of one write are made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Durability {
    /// Directory operations reach the disk in the order made; data needs a
    /// writeout before the name pointing at it, and one final fsync commits.
    Ordered {
        /// The file system's device, to check a target shares it.
        dev: u64,
    },
    /// Every step is fsync'd on its own.
    PerStep,
}

/// Overrides the detection with `ordered` or `per-step`: for tests, which
/// must run both ways on whatever disk they find. (`ordered` on a file
/// system that does not order directory operations gives up the guarantee
/// against power cuts, not against killed processes.)
pub const DURABILITY_ENV: &str = "FARARONI_DURABILITY";

impl Durability {
    /// Finds how writes under `dir` (which must exist) can be made durable.
    pub(crate) fn of(dir: &Path) -> Durability {
        let forced = std::env::var(DURABILITY_ENV).ok();
        match (forced.as_deref(), device(dir)) {
            (Some("per-step"), _) | (_, None) => Durability::PerStep,
            (Some("ordered"), Some(dev)) => Durability::Ordered { dev },
            (_, Some(dev)) if ordered_metadata(dir, dev) => Durability::Ordered { dev },
            _ => Durability::PerStep,
        }
    }

    /// Narrows to [`Durability::PerStep`] when the target's folder is on
    /// device `dev`, another file system than the store's.
    pub(crate) fn for_device(self, dev: u64) -> Durability {
        match self {
            Durability::Ordered { dev: ours } if ours == dev => self,
            _ => Durability::PerStep,
        }
    }

    /// Whether each step needs its own fsync.
    pub(crate) fn per_step(self) -> bool {
        self == Durability::PerStep
    }

    /// Makes the data of the files in `files` durable enough to be named:
    /// a writeout of all of them, overlapped, when ordered; else an fsync
    /// of each. Returns the first failure with its file's index.
    pub(crate) fn data(self, files: &[&File]) -> Result<(), (usize, io::Error)> {
        if self.per_step() {
            for (i, f) in files.iter().enumerate() {
                f.sync_all().map_err(|e| (i, e))?;
            }
            return Ok(());
        }
        for (i, f) in files.iter().enumerate() {
            writeout(f, false).map_err(|e| (i, e))?;
        }
        for (i, f) in files.iter().enumerate() {
            writeout(f, true).map_err(|e| (i, e))?;
        }
        Ok(())
    }
}

/// Whether the file system holding `dir` (device `dev`) commits directory
/// operations in order: XFS always (its log), ext4 only with a journal — an
/// ext4 (or ext2) file system without one reports the same type and orders
/// nothing, so its journal must be seen in `/proc/fs/jbd2`.
#[cfg(target_os = "linux")]
fn ordered_metadata(dir: &Path, dev: u64) -> bool {
    match fs_type(dir) {
        Some(XFS_SUPER_MAGIC) => true,
        Some(EXT4_SUPER_MAGIC) => has_journal(dev),
        _ => false,
    }
}

#[cfg(target_os = "linux")]
const EXT4_SUPER_MAGIC: i64 = 0xEF53;
#[cfg(target_os = "linux")]
const XFS_SUPER_MAGIC: i64 = 0x5846_5342;

/// Whether block device `dev` carries an active jbd2 journal: its name (from
/// `/sys/dev/block/MAJOR:MINOR`) heads an entry of `/proc/fs/jbd2`. Found
/// once per device and process.
#[cfg(target_os = "linux")]
fn has_journal(dev: u64) -> bool {
    use std::sync::Mutex;
    static SEEN: Mutex<Vec<(u64, bool)>> = Mutex::new(Vec::new());
    if let Some(j) = SEEN
        .lock()
        .ok()
        .and_then(|seen| seen.iter().find(|s| s.0 == dev).map(|s| s.1))
    {
        return j;
    }
    // The kernel's encoding of a device number (glibc's `major`/`minor`).
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    let name = std::fs::read_link(format!("/sys/dev/block/{major}:{minor}"))
        .ok()
        .and_then(|l| {
            l.file_name()
                .and_then(|n| n.to_str())
                .map(|n| format!("{n}-"))
        });
    let journal = name.is_some_and(|prefix| {
        std::fs::read_dir("/proc/fs/jbd2").is_ok_and(|entries| {
            entries.flatten().any(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n.starts_with(&prefix))
            })
        })
    });
    if let Ok(mut s) = SEEN.lock() {
        s.push((dev, journal));
    }
    journal
}

#[cfg(target_os = "linux")]
fn fs_type(dir: &Path) -> Option<i64> {
    use std::os::unix::ffi::OsStrExt as _;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `statfs` only writes the struct it is given, which is plain
    // data that may start zeroed; the path is a valid C string.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // f_type's width differs by libc
    Some(st.f_type as i64)
}

#[cfg(not(target_os = "linux"))]
fn ordered_metadata(_dir: &Path, _dev: u64) -> bool {
    false
}

fn device(dir: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        std::fs::metadata(dir).ok().map(|m| m.dev())
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

/// Starts writing `file`'s dirty pages to the device, or (`wait`) waits
/// until all of them are written. Commits no metadata and flushes no cache.
#[cfg(target_os = "linux")]
fn writeout(file: &File, wait: bool) -> io::Result<()> {
    use std::os::fd::AsRawFd as _;
    let flags = if wait {
        libc::SYNC_FILE_RANGE_WAIT_BEFORE
            | libc::SYNC_FILE_RANGE_WRITE
            | libc::SYNC_FILE_RANGE_WAIT_AFTER
    } else {
        libc::SYNC_FILE_RANGE_WRITE
    };
    // SAFETY: a plain syscall on a descriptor `file` keeps open.
    if unsafe { libc::sync_file_range(file.as_raw_fd(), 0, 0, flags) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn writeout(file: &File, wait: bool) -> io::Result<()> {
    if wait {
        file.sync_all()
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_writes_out_in_either_mode() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mode = Durability::of(dir.path());
        let a = dir.path().join("a");
        let f = File::create(&a).expect("create");
        std::io::Write::write_all(&mut &f, b"payload").expect("write");
        for d in [mode, Durability::PerStep] {
            d.data(&[&f, &f]).expect("durable");
        }
        assert_eq!(std::fs::read(&a).expect("read"), b"payload");
    }

    #[test]
    fn memory_file_systems_sync_per_step() {
        // tmpfs keeps nothing across a power cut: no ordering to rely on.
        let shm = Path::new("/dev/shm");
        if let Ok(dir) = tempfile::tempdir_in(shm) {
            assert_eq!(Durability::of(dir.path()), Durability::PerStep);
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_device_without_a_visible_journal_is_not_ordered() {
        assert!(!has_journal(u64::MAX));
    }

    #[test]
    fn another_device_falls_back_to_per_step() {
        let here = device(&std::env::temp_dir()).unwrap_or(0);
        let ordered = Durability::Ordered { dev: u64::MAX };
        assert_eq!(ordered.for_device(here), Durability::PerStep);
        assert_eq!(Durability::PerStep.for_device(here), Durability::PerStep);
        let same = Durability::Ordered { dev: here };
        assert_eq!(same.for_device(here), same);
    }
}
