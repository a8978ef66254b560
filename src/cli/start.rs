//! Process start without std's runtime set-up, for the binaries' C `main`
//! (`#![no_main]`, native linux-gnu builds only).
//!
//! Before `fn main`, std's runtime asks glibc where the main thread's stack
//! is (`pthread_getattr_np`, which reads and `sscanf`s `/proc/self/maps`)
//! to install a stack-overflow handler, with its own signal stack. Measured
//! on `ask "git status"`, that is about a fifth of everything our process
//! executes before it execs git, and ten page faults. What the rest of the
//! set-up does that matters to us is done here: the closed-descriptor
//! guard, `SIGPIPE` ignored, a panic turned into exit code 101, stdout
//! flushed at exit. What is given up: a stack overflow is reported as a
//! plain `SIGSEGV` instead of a message before the abort (either way the
//! process dies and nothing it was writing is replaced: writes go through
//! the shadow store's journal).
#![allow(unsafe_code)]

use std::io::Write as _;
use std::process::ExitCode;

use super::Entry;

/// Defines a binary's `main` for `Entry::$entry`: a C `main` calling
/// [`start`] on linux-gnu (the binary also declares `#![no_main]` there),
/// std's `main` elsewhere. One definition for the three binaries.
#[macro_export]
macro_rules! entry_point {
    ($entry:ident) => {
        #[global_allocator]
        static ALLOCATOR: $crate::sys::alloc::HugeAlloc = $crate::sys::alloc::HugeAlloc;

        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        #[no_mangle]
        extern "C" fn main(
            _argc: ::std::ffi::c_int,
            _argv: *const *const ::std::ffi::c_char,
        ) -> ::std::ffi::c_int {
            $crate::cli::start($crate::cli::Entry::$entry)
        }

        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        fn main() -> ::std::process::ExitCode {
            $crate::cli::main($crate::cli::Entry::$entry)
        }
    };
}

/// Runs the binary for `entry` and returns its exit status: what
/// `fn main() -> ExitCode` does under std's runtime, without the stack
/// probe (see the module documentation).
pub fn start(entry: Entry) -> i32 {
    // SAFETY: called once, first thing in the process, before any thread.
    unsafe { init() };
    let code = std::panic::catch_unwind(|| super::main(entry)).unwrap_or(ExitCode::from(101));
    // std's runtime flushes stdout after `main`; `process::exit` does too.
    let _ = std::io::stdout().flush();
    status(code)
}

/// The number an `ExitCode` stands for (std offers no conversion): every
/// code we return was made from a `u8`.
fn status(code: ExitCode) -> i32 {
    (0..=u8::MAX)
        .find(|n| ExitCode::from(*n) == code)
        .map_or(1, i32::from)
}

/// What std's runtime does before `main` that our code relies on.
///
/// # Safety
///
/// Must be called once, before any other thread exists.
unsafe fn init() {
    // A standard descriptor that is closed would be taken by the next
    // file we open, and a message meant for stderr would land in a lock
    // or a backup: closed ones are opened on /dev/null, as std does.
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    loop {
        if libc::poll(fds.as_mut_ptr(), 3, 0) != -1 {
            break;
        }
        match std::io::Error::last_os_error().raw_os_error() {
            Some(libc::EINTR) => continue,
            // poll is unusable (a sandbox): ask each descriptor instead.
            _ => {
                for p in &mut fds {
                    if libc::fcntl(p.fd, libc::F_GETFD) == -1 {
                        p.revents = libc::POLLNVAL;
                    }
                }
                break;
            }
        }
    }
    for p in fds {
        if p.revents & libc::POLLNVAL != 0 && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) == -1
        {
            std::process::abort();
        }
    }
    // Writes to a closed pipe fail with EPIPE, which `ui` reports, instead
    // of killing the process (children get the default back from
    // `std::process::Command`).
    libc::signal(libc::SIGPIPE, libc::SIG_IGN);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exit_code_converts_back() {
        for n in [0u8, 1, 2, 3, 4, 101, 255] {
            assert_eq!(status(ExitCode::from(n)), i32::from(n));
        }
        assert_eq!(status(ExitCode::SUCCESS), 0);
        assert_eq!(status(ExitCode::FAILURE), 1);
    }
}
