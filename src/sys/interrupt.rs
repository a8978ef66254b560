//! Ctrl-C during a model call: a SIGINT handler that only sets a flag, which
//! the client checks between chunks so a call stops cleanly (never in the
//! middle of a write). A second Ctrl-C restores the default action and
//! re-raises, so a stuck process can always be killed.
//!
//! `libc` (already a dependency on Linux) is enough; tokio's `signal`
//! feature would add a driver thread for one flag.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed since the handler was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Sets the flag as Ctrl-C would (for tests and other stop sources).
pub fn request() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Clears the flag (a new run).
pub fn clear() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

#[cfg(target_os = "linux")]
extern "C" fn on_sigint(_: libc::c_int) {
    // Only async-signal-safe calls here: an atomic swap, signal, raise.
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: signal(2) and raise(3) are async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::raise(libc::SIGINT);
        }
    }
}

/// Installs the handler once per process (a no-op elsewhere than Linux,
/// where Ctrl-C keeps its default action).
pub fn install() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: the handler only touches an atomic and async-signal-safe calls.
    unsafe {
        libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
    }
}
