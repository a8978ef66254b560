//! Process groups: a command and everything it started end together.

/// Sends SIGKILL to the process group `leader` leads (a child started with
/// `process_group(0)`); nothing elsewhere than Linux.
pub fn kill_group(leader: u32) {
    #[cfg(target_os = "linux")]
    if let Ok(pid) = i32::try_from(leader) {
        // SAFETY: kill(2) with a negative pid signals the process group the
        // child leads; it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = leader;
}
