//! Which level this kernel and process can give, found once per process.
//!
//! Landlock: its ABI version, asked of the kernel (no ruleset is made). User
//! namespaces: tried for real in a forked child, which enters new user,
//! mount, PID and network namespaces, maps its uid and makes `/` private:
//! sysctls and LSMs (AppArmor's `restrict_unprivileged_userns`) differ too
//! much between distributions for a file check to be trusted. The child runs
//! only raw system calls on data prepared before the fork, so probing is
//! safe from a multi-threaded process.

use std::fmt;
use std::sync::OnceLock;

use super::Level;

/// What [`probe`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// The strongest level available.
    pub level: Level,
    /// The Landlock ABI version, 0 when Landlock is unavailable.
    pub landlock_abi: u32,
    /// Whether unprivileged user + mount + PID + network namespaces work.
    pub user_namespaces: bool,
}

impl Probe {
    /// Returns why the level is not Full, for error messages and `doctor`.
    pub fn reason(&self) -> String {
        match (self.landlock_abi, self.user_namespaces) {
            (0, true) => "Landlock is not enabled in this kernel (needs Linux ≥ 5.13 with `lsm=…,landlock`)".into(),
            (0, false) => "neither Landlock nor user namespaces are available".into(),
            (_, false) => "user namespaces are not available (sysctl `kernel.unprivileged_userns_clone`, `user.max_user_namespaces` or an LSM forbids them)".into(),
            (_, true) => "all features are available".into(),
        }
    }
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (Landlock ABI {}, user namespaces {})",
            self.level,
            self.landlock_abi,
            if self.user_namespaces { "yes" } else { "no" }
        )
    }
}

static PROBE: OnceLock<Probe> = OnceLock::new();

/// Returns what this system can enforce; cheap after the first call.
pub fn probe() -> Probe {
    *PROBE.get_or_init(probe_now)
}

/// Returns what [`probe`] found, if it has run in this process.
pub(super) fn known() -> Option<Probe> {
    PROBE.get().copied()
}

#[cfg(target_os = "linux")]
fn probe_now() -> Probe {
    let landlock_abi = landlock_abi();
    let user_namespaces = user_namespaces();
    let level = match (landlock_abi, user_namespaces) {
        (0, _) => Level::None,
        (_, true) => Level::Full,
        (_, false) => Level::Landlock,
    };
    Probe {
        level,
        landlock_abi,
        user_namespaces,
    }
}

#[cfg(not(target_os = "linux"))]
fn probe_now() -> Probe {
    let seatbelt =
        cfg!(target_os = "macos") && std::path::Path::new("/usr/bin/sandbox-exec").exists();
    Probe {
        level: if seatbelt {
            Level::SandboxExec
        } else {
            Level::None
        },
        landlock_abi: 0,
        user_namespaces: false,
    }
}

/// Returns the kernel's Landlock ABI version, 0 when unavailable.
#[cfg(target_os = "linux")]
pub(super) fn landlock_abi() -> u32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute and size 0, this flag only asks the
    // version; the kernel reads and writes no memory of ours.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(v).unwrap_or(0)
}

/// Tries the namespaces [`super::linux`] uses, in a forked child that
/// answers over a pipe before it exits: tearing its namespaces down on exit
/// (an RCU grace period or more) is then off the caller's path, and a
/// thread reaps it.
#[cfg(target_os = "linux")]
fn user_namespaces() -> bool {
    // Prepared before fork: the child must not allocate.
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let map = format!("{uid} {uid} 1\n");
    let flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWNET;
    let mut fds = [-1; 2];
    // SAFETY: pipe2 writes two descriptors into our array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return false;
    }
    let [read_end, write_end] = fds;
    // SAFETY: the child calls only async-signal-safe raw system calls
    // (unshare, open, write, close, mount, _exit) on data made before the
    // fork, so it is sound in a multi-threaded parent.
    let pid = unsafe {
        let pid = libc::fork();
        if pid == 0 {
            let ok = libc::unshare(flags) == 0
                && write_all(c"/proc/self/setgroups".as_ptr(), b"deny")
                && write_all(c"/proc/self/uid_map".as_ptr(), map.as_bytes())
                && libc::mount(
                    std::ptr::null(),
                    c"/".as_ptr(),
                    std::ptr::null(),
                    libc::MS_REC | libc::MS_PRIVATE,
                    std::ptr::null(),
                ) == 0;
            let answer: &[u8] = if ok { b"1" } else { b"0" };
            libc::write(write_end, answer.as_ptr().cast(), 1);
            libc::_exit(0);
        }
        libc::close(write_end);
        pid
    };
    let mut answer = [0u8; 1];
    let got = pid > 0
        && loop {
            // SAFETY: reads one byte into our buffer from the pipe we own;
            // EOF (the child died first) reads 0 bytes.
            let n = unsafe { libc::read(read_end, answer.as_mut_ptr().cast(), 1) };
            if n >= 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                break n == 1;
            }
        };
    // SAFETY: closes the read end we own.
    unsafe { libc::close(read_end) };
    if pid > 0 {
        let reap = move || {
            let mut status = 0;
            // SAFETY: waits for our own child.
            while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
        };
        if std::thread::Builder::new()
            .name("sandbox-probe".into())
            .spawn(reap)
            .is_err()
        {
            // No thread: reap here, paying the teardown.
            let mut status = 0;
            // SAFETY: waits for our own child.
            unsafe { libc::waitpid(pid, &mut status, 0) };
        }
    }
    got && answer[0] == b'1'
}

/// Opens `path` for writing and writes `data` with raw calls.
///
/// # Safety
/// `path` must be NUL-terminated; async-signal-safe (no allocation).
#[cfg(target_os = "linux")]
unsafe fn write_all(path: *const libc::c_char, data: &[u8]) -> bool {
    // SAFETY: the caller passes a NUL-terminated path; data is a live slice.
    unsafe {
        let fd = libc::open(path, libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let n = libc::write(fd, data.as_ptr().cast(), data.len());
        libc::close(fd);
        usize::try_from(n).is_ok_and(|n| n == data.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_probe_is_stable_and_consistent() {
        let p = probe();
        assert_eq!(p, probe());
        assert_eq!(p.level == Level::None, p.landlock_abi == 0, "{p}");
        assert_eq!(
            p.level == Level::Full,
            p.landlock_abi > 0 && p.user_namespaces,
            "{p}"
        );
    }
}
