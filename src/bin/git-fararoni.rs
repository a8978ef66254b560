//! `git-fararoni`: a thin main over the library.
//!
//! On linux-gnu the process starts at a C `main` that skips std's runtime
//! set-up (see `git_fararoni::cli::start`): `ask "git status"` is a
//! process start and an exec, and that set-up was a fifth of it.
#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[no_mangle]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    git_fararoni::cli::start(git_fararoni::cli::Entry::Main)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() -> std::process::ExitCode {
    git_fararoni::cli::main(git_fararoni::cli::Entry::Main)
}
